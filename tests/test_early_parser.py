"""A one-shot run spawns its sandboxed parser before it imports the MCP SDK (issue 47).

The console script imports the SDK (about a second of CPU on two cores) before it forks its
web-search server; the parser, which imports its own copy of the SDK and warms its parsers,
is spawned first, so both imports run side by side and the parser is ready when the first
page is (docs/benchmarks.md). The run's server pool takes that very process
(modules/clients/server_process.py, ``spawn_early`` / ``take_early``): exactly one parser per
run, never one spawned early and thrown away while a second is started.
"""

from __future__ import annotations

import asyncio
import json
import os
import shutil
import sys
from pathlib import Path

import pytest
from conftest import load_json_line, run_research

from research.modules.clients import server_process
from research.modules.clients.sandbox import bwrap_usable
from research.modules.clients.server_process import discard_early, spawn_early, stop_process, take_early

pytestmark = pytest.mark.e2e

# A server that answers each line it reads with that line, and leaves at the end of its stdin.
ECHO = "import sys\nfor line in sys.stdin:\n    sys.stdout.write(line); sys.stdout.flush()"
LIMIT = 1 << 20


def _running(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat", encoding="utf-8") as handle:
            return handle.read().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


@pytest.fixture(autouse=True)
def _no_early_server_left():
    yield
    discard_early()
    assert server_process._early == []


async def test_the_start_that_matches_takes_the_early_server_and_speaks_to_it():
    assert spawn_early(sys.executable, ["-c", ECHO, "echo-server"], {"ECHO": "1"})
    pid = server_process._early[0].popen.pid
    env = server_process.child_environment({"ECHO": "1"})
    process = await take_early(sys.executable, ["-c", ECHO, "echo-server"], env, server_process.OWN_SERVER_CWD, LIMIT)
    assert process is not None and process.pid == pid
    assert server_process._early == []
    process.stdin.write(b"hello\n")
    await process.stdin.drain()
    assert await asyncio.wait_for(process.stdout.readline(), 10) == b"hello\n"
    await stop_process(process, 5.0, terminate_first=False)  # its stdin closes: it leaves, and is reaped
    assert process.returncode == 0
    assert not _running(pid)


async def test_another_server_s_start_leaves_it_waiting_and_the_same_server_started_otherwise_ends_it():
    assert spawn_early(sys.executable, ["-c", ECHO, "echo-server"], {"ECHO": "1"})
    early = server_process._early[0]
    env = server_process.child_environment({})
    # Another server (as the web-search server starts first in a run): not this one, which waits.
    assert await take_early(sys.executable, ["-P", "-m", "other.server"], env, "/", LIMIT) is None
    assert server_process._early == [early] and _running(early.popen.pid)
    # The same server with other settings (a run resumed with another parse timeout): this one ends.
    assert await take_early(sys.executable, ["-c", ECHO, "echo-server"], env | {"ECHO": "2"}, "/", LIMIT) is None
    assert server_process._early == []
    assert early.popen.returncode is not None and not _running(early.popen.pid)


def test_a_run_that_takes_no_server_ends_the_early_one():
    assert spawn_early(sys.executable, ["-c", ECHO, "echo-server"], {})
    popen = server_process._early[0].popen
    discard_early()
    assert popen.returncode is not None and not _running(popen.pid)


def _bwrap_that_writes_down_its_starts(folder: Path) -> tuple[Path, Path]:
    """A ``bwrap`` for the run to find first on PATH, writing down when it was started, its pid
    and its arguments before it becomes the real one; (its folder, the log)."""
    wrapped = folder / "bin"
    wrapped.mkdir()
    starts = folder / "bwrap-starts.log"
    real = shutil.which("bwrap")
    (wrapped / "bwrap").write_text(f'#!/bin/sh\necho "$(date +%s.%N) $$ $*" >> "{starts}"\nexec "{real}" "$@"\n', "utf-8")
    (wrapped / "bwrap").chmod(0o755)
    return wrapped, starts


def _parser_starts(log: Path) -> list[tuple[float, int]]:
    """(when, pid) of each parser server's sandbox started."""
    rows = [line.split(" ", 2) for line in log.read_text("utf-8").splitlines()] if log.exists() else []
    return [(float(row[0]), int(row[1])) for row in rows if "research.servers.parser.server" in row[2]]


@pytest.mark.skipif(not bwrap_usable(), reason="needs a working sandbox (bubblewrap)")
def test_a_one_shot_run_starts_one_parser_sandbox_before_it_imports_the_mcp_sdk(research_env, tmp_path: Path):
    wrapped, starts = _bwrap_that_writes_down_its_starts(tmp_path)
    # The console script's own process writes down when it begins to import the SDK.
    hook = tmp_path / "hook"
    hook.mkdir()
    sdk_at = tmp_path / "sdk-import.json"
    (hook / "sitecustomize.py").write_text(
        "import json, os, sys, time\n"
        "class _First:\n"
        "    def find_spec(self, name, path=None, target=None):\n"
        "        if name == 'mcp' and os.path.basename(sys.argv[0] if sys.argv else '') == 'research':\n"
        "            sys.meta_path.remove(self)\n"
        f"            open({str(sdk_at)!r}, 'w').write(json.dumps({{'pid': os.getpid(), 't': time.time()}}))\n"
        "        return None\n"
        "sys.meta_path.insert(0, _First())\n", "utf-8")
    env = research_env | {"PATH": f"{wrapped}{os.pathsep}{research_env['PATH']}", "PYTHONPATH": str(hook),
                          "RESEARCH_SANDBOX": "bwrap"}
    result = run_research(["What is the height of Mount Fuji?", "--json"], env)
    assert result.returncode == 0, result.stderr
    assert Path(load_json_line(result.stdout)["session_dir"]).joinpath("report.md").is_file()

    parsers = _parser_starts(starts)
    assert len(parsers) == 1, starts.read_text("utf-8")  # taken by the run, not spawned twice
    assert parsers[0][0] < json.loads(sdk_at.read_text("utf-8"))["t"]


@pytest.mark.skipif(not bwrap_usable(), reason="needs a working sandbox (bubblewrap)")
def test_a_run_that_ends_before_its_servers_leaves_no_parser_running(research_env, tmp_path: Path):
    wrapped, starts = _bwrap_that_writes_down_its_starts(tmp_path)
    env = research_env | {"PATH": f"{wrapped}{os.pathsep}{research_env['PATH']}", "RESEARCH_SANDBOX": "bwrap",
                          "RESEARCH_OLLAMA_HOST": "http://127.0.0.1:9"}  # nothing listens: Ollama is not running
    result = run_research(["What is the height of Mount Fuji?", "--json"], env)
    assert result.returncode == 3, result.stderr
    assert len(result.stderr.strip().splitlines()) == 1, result.stderr
    parsers = _parser_starts(starts)
    assert len(parsers) == 1  # spawned before the imports, then ended with the run
    assert not _running(parsers[0][1])


@pytest.mark.skipif(not bwrap_usable(), reason="needs a working sandbox (bubblewrap)")
def test_a_run_over_a_documents_folder_keeps_its_web_search_server_alive(research_env, tmp_path: Path):
    """The web-search server forked from the run parses the documents folder with a parser of
    its own. It used to "discard" the run's early parser it had inherited the record of: it
    closed descriptors whose numbers were its own event loop's by then, died ("Bad file
    descriptor", its log a traceback) and the search began again on a new server."""
    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "fuji.md").write_text("# Mount Fuji\n\nMount Fuji is 3,776 metres high, the highest mountain in Japan.\n",
                                  "utf-8")
    wrapped, starts = _bwrap_that_writes_down_its_starts(tmp_path)
    env = research_env | {"PATH": f"{wrapped}{os.pathsep}{research_env['PATH']}", "RESEARCH_SANDBOX": "bwrap"}
    result = run_research(["What is the height of Mount Fuji?", "--engine", "local", "--docs", str(docs), "--json"], env)
    assert result.returncode == 0, result.stderr
    session = Path(load_json_line(result.stdout)["session_dir"])
    log = (session / "web-search-server.log").read_text("utf-8") if (session / "web-search-server.log").exists() else ""
    assert "Traceback" not in log, log
    # The run's parser and the web-search server's own: one each, none started again.
    assert len(_parser_starts(starts)) == 2, starts.read_text("utf-8")
    assert "3,776" in (session / "report.md").read_text("utf-8")

"""A one-shot run starts its parser early, as a fork of itself, and exactly once (issue 47).

The console script imports the MCP SDK (about a second of CPU on two cores) and then forks its
parser server, started at once, and its standby web-search server: each shares that import
instead of making its own. The parser server starts its fork server inside the sandbox, whose
parsers' warm-up runs on the other core while the run imports its graph, so the parser is ready
when the first page is (docs/benchmarks.md). The run's server pool takes that very process
(modules/clients/zygote.py, ``start_standby_now`` / ``start_forked``): exactly one parser per
run, never one started early and thrown away while a second is started.
"""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import pytest
from conftest import load_json_line, run_research

from research.modules.clients.sandbox import bwrap_usable

pytestmark = pytest.mark.e2e


def _running(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat", encoding="utf-8") as handle:
            return handle.read().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


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
    """(when, pid) of each parser sandbox started (the parser server's fork server, inside it)."""
    rows = [line.split(" ", 2) for line in log.read_text("utf-8").splitlines()] if log.exists() else []
    return [(float(row[0]), int(row[1])) for row in rows if "research.servers.parser.fork_server" in row[2]]


@pytest.mark.skipif(not bwrap_usable(), reason="needs a working sandbox (bubblewrap)")
def test_a_one_shot_run_starts_one_parser_sandbox_from_a_fork_of_itself_before_it_imports_its_graph(
        research_env, tmp_path: Path):
    wrapped, starts = _bwrap_that_writes_down_its_starts(tmp_path)
    # The console script's own process writes down when it begins to import the graph (langgraph),
    # and each process that imports the MCP SDK writes down its pid.
    hook = tmp_path / "hook"
    hook.mkdir()
    graph_at = tmp_path / "graph-import.json"
    sdk_log = tmp_path / "sdk-imports.log"
    (hook / "sitecustomize.py").write_text(
        "import json, os, sys, time\n"
        "class _First:\n"
        "    def find_spec(self, name, path=None, target=None):\n"
        "        if name == 'mcp':\n"
        f"            open({str(sdk_log)!r}, 'a').write(f'{{os.getpid()}} {{sys.argv[0] if sys.argv else \"\"}}\\n')\n"
        "        if name == 'langgraph' and os.path.basename(sys.argv[0] if sys.argv else '') == 'research':\n"
        "            sys.meta_path.remove(self)\n"
        f"            open({str(graph_at)!r}, 'w').write(json.dumps({{'pid': os.getpid(), 't': time.time()}}))\n"
        "        return None\n"
        "sys.meta_path.insert(0, _First())\n", "utf-8")
    env = research_env | {"PATH": f"{wrapped}{os.pathsep}{research_env['PATH']}", "PYTHONPATH": str(hook),
                          "RESEARCH_SANDBOX": "bwrap"}
    result = run_research(["What is the height of Mount Fuji?", "--json"], env)
    assert result.returncode == 0, result.stderr
    assert Path(load_json_line(result.stdout)["session_dir"]).joinpath("report.md").is_file()

    parsers = _parser_starts(starts)
    assert len(parsers) == 1, starts.read_text("utf-8")  # taken by the run, not started twice
    assert parsers[0][0] < json.loads(graph_at.read_text("utf-8"))["t"]
    # One process imported the SDK: the run. Its servers are forks of it; nothing in the sandbox imports it.
    importers = {line.split(" ", 1)[0] for line in sdk_log.read_text("utf-8").splitlines()}
    assert importers == {str(json.loads(graph_at.read_text("utf-8"))["pid"])}, sdk_log.read_text("utf-8")


@pytest.mark.skipif(not bwrap_usable(), reason="needs a working sandbox (bubblewrap)")
def test_a_run_that_ends_before_its_servers_leaves_no_parser_running(research_env, tmp_path: Path):
    wrapped, starts = _bwrap_that_writes_down_its_starts(tmp_path)
    env = research_env | {"PATH": f"{wrapped}{os.pathsep}{research_env['PATH']}", "RESEARCH_SANDBOX": "bwrap",
                          "RESEARCH_OLLAMA_HOST": "http://127.0.0.1:9"}  # nothing listens: Ollama is not running
    result = run_research(["What is the height of Mount Fuji?", "--json"], env)
    assert result.returncode == 3, result.stderr
    assert len(result.stderr.strip().splitlines()) == 1, result.stderr
    parsers = _parser_starts(starts)
    assert len(parsers) == 1  # started before the graph's imports, then ended with the run
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

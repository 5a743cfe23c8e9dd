"""Edges (issue 22, item 7): each gets the behaviour the rest of the CLI has: one line, a
documented exit code, a session kept as "interrupted".

Broken or full stderr during a run, subcommands writing to /dev/full, SIGTERM to the MCP
research server, a --docs file swapped for a link after its folder was listed, an empty
--docs folder, bad RESEARCH_FETCH_* and RESEARCH_PDF_FONT values, RESEARCH_LANGUAGE=fr, IPv6
forms of private addresses, and the MCP server's cache under XDG_CACHE_HOME.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import time
from pathlib import Path

import pytest
from conftest import RESEARCH, session_dirs

from research.modules.clients.web_search_client import settings_environment
from research.modules.core.settings import Settings
from research.servers.web.url_safety import address_is_public

QUESTION = "What is the height of Mount Fuji?"


def _shell(command: str, env: dict[str, str]) -> subprocess.CompletedProcess:
    return subprocess.run(["bash", "-c", command], env={**env, "RESEARCH": RESEARCH}, capture_output=True,
                          text=True, timeout=180, stdin=subprocess.DEVNULL)


def _status(session: Path) -> str:
    return json.loads((session / "meta.json").read_text("utf-8"))["status"]


@pytest.mark.e2e
@pytest.mark.parametrize("tail", ["2>/dev/full", "2>&1 | head -c1; exit ${PIPESTATUS[0]}"])
def test_a_progress_stream_that_goes_nowhere_keeps_the_session_interrupted(research_env, tail):
    result = _shell(f'"$RESEARCH" "{QUESTION}" {tail}', research_env)
    assert result.returncode == 1
    (session,) = session_dirs(research_env)
    assert _status(session) == "interrupted"  # resumable, and not "running" with nobody running it
    assert not (session / "error.log").exists()  # not a failure of the program


@pytest.fixture
def cli_env(tmp_path):
    home = tmp_path / "home"
    home.mkdir()
    env = {k: v for k, v in os.environ.items() if not k.startswith(("RESEARCH_", "OLLAMA_"))}
    env.update(HOME=str(home), XDG_CONFIG_HOME=str(home / ".config"), NO_COLOR="1", LANG="en_US.UTF-8",
               RESEARCH_SESSIONS_DIR=str(tmp_path / "sessions"), RESEARCH_OLLAMA_HOST="http://127.0.0.1:9")
    return env


@pytest.mark.parametrize("command", ["sessions list", "sessions list --json", "config", "config --json"])
def test_subcommands_to_a_full_disk_are_one_line_and_exit_1(cli_env, command):
    from research.state.session_folder import HistoryManager

    HistoryManager(Path(cli_env["RESEARCH_SESSIONS_DIR"])).create(question="Fuji?", language="en", model="m")
    result = _shell(f'"$RESEARCH" {command} > /dev/full', cli_env)
    assert result.returncode == 1, result.stderr
    assert "Traceback" not in result.stderr
    assert result.stderr.strip().splitlines()[-1] == "research: Cannot write to stdout: No space left on device"


@pytest.mark.parametrize("env, needle", [
    ({"RESEARCH_FETCH_MAX_BYTES": "-1"}, "RESEARCH_FETCH_MAX_BYTES=-1"),
    ({"RESEARCH_FETCH_TIMEOUT": "0"}, "RESEARCH_FETCH_TIMEOUT=0"),
    ({"RESEARCH_FETCH_CONCURRENCY": "0"}, "RESEARCH_FETCH_CONCURRENCY=0"),
    ({"RESEARCH_FETCH_CACHE_MAX_AGE_HOURS": "-1"}, "RESEARCH_FETCH_CACHE_MAX_AGE_HOURS=-1"),
    ({"RESEARCH_PDF_FONT": "/nonexistent/font.ttf"}, "RESEARCH_PDF_FONT"),
    ({"RESEARCH_PDF_FONT": "/etc/hostname"}, "RESEARCH_PDF_FONT"),
    ({"RESEARCH_LANGUAGE": "fr"}, "RESEARCH_LANGUAGE"),
])
def test_bad_settings_are_named_before_a_session_or_a_model_call(run_cli, cli_env, env, needle):
    # Ollama is unreachable here: a check made after the model's would say exit 3 instead.
    result = run_cli([QUESTION], {**cli_env, **env})
    assert result.returncode == 2, result.stderr
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and needle in lines[0], result.stderr
    assert session_dirs(cli_env) == []


def test_an_empty_docs_folder_is_said_up_front_with_a_hint(run_cli, cli_env, tmp_path):
    empty = tmp_path / "docs"
    (empty / "sub").mkdir(parents=True)
    (empty / "notes.docx").write_bytes(b"PK")
    result = run_cli([QUESTION, "--docs", str(empty)], cli_env)
    assert result.returncode == 2, result.stderr
    assert ".txt, .md, .html, .pdf" in result.stderr and len(result.stderr.strip().splitlines()) == 1
    assert session_dirs(cli_env) == []


def test_a_docs_file_swapped_for_a_link_after_listing_is_not_read(tmp_path):
    from research.servers.web.fetcher import FetchFailed, read_inside

    docs = tmp_path / "docs"
    docs.mkdir()
    secret = tmp_path / "secret.txt"
    secret.write_text("PRIVATE KEY")
    listed = docs / "notes.txt"
    listed.write_text("Mount Fuji is 3,776 m high.")
    assert read_inside(listed.resolve(), docs.resolve(), 1 << 20) == b"Mount Fuji is 3,776 m high."
    listed.unlink()
    listed.symlink_to(secret)  # swapped between the listing and the read
    with pytest.raises(FetchFailed, match="link"):
        read_inside(docs.resolve() / "notes.txt", docs.resolve(), 1 << 20)
    # A folder on the way swapped for a link: the opened file's real path is outside.
    (docs / "sub").symlink_to(tmp_path)
    with pytest.raises(FetchFailed, match="left the documents folder"):
        read_inside(docs.resolve() / "sub" / "secret.txt", docs.resolve(), 1 << 20)
    fifo = docs / "pipe.txt"
    os.mkfifo(fifo)
    with pytest.raises(FetchFailed, match="not a regular file"):
        read_inside(fifo, docs.resolve(), 1 << 20)


@pytest.mark.parametrize("address", ["::127.0.0.1", "::10.0.0.1", "64:ff9b::7f00:1", "64:ff9b::a9fe:a9fe",
                                     "64:ff9b:1::a00:1", "2002:7f00:1::1", "2002:808:808::1", "fec0::1",
                                     "::ffff:169.254.169.254"])
def test_ipv6_forms_of_private_addresses_are_not_public(address):
    assert not address_is_public(address)


def test_public_addresses_stay_public():
    assert address_is_public("2606:4700:4700::1111") and address_is_public("64:ff9b::808:808")


def test_the_web_search_server_keeps_its_cache_where_xdg_cache_home_says(monkeypatch, tmp_path):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    assert settings_environment(Settings())["XDG_CACHE_HOME"] == str(tmp_path / "cache")


def test_the_web_search_server_writes_no_bytecode_when_the_user_said_so(monkeypatch):
    monkeypatch.setenv("PYTHONDONTWRITEBYTECODE", "1")
    assert settings_environment(Settings())["PYTHONDONTWRITEBYTECODE"] == "1"
    monkeypatch.delenv("PYTHONDONTWRITEBYTECODE")
    assert "PYTHONDONTWRITEBYTECODE" not in settings_environment(Settings())


@pytest.mark.e2e
def test_sigterm_to_the_mcp_server_marks_its_run_interrupted(research_env, fake_ollama):
    fake_ollama.token_delay = 0.3  # a slow draft, so the signal lands mid-run
    env = {**research_env, "PATH": str(Path(RESEARCH).parent) + os.pathsep + research_env.get("PATH", "")}
    process = subprocess.Popen([RESEARCH, "mcp", "research"], env=env, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, text=True, encoding="utf-8")

    def send(message: dict) -> None:
        process.stdin.write(json.dumps(message) + "\n")
        process.stdin.flush()

    try:
        send({"jsonrpc": "2.0", "id": 1, "method": "initialize",
              "params": {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "t", "version": "1"}}})
        assert json.loads(process.stdout.readline())["id"] == 1
        send({"jsonrpc": "2.0", "method": "notifications/initialized"})
        send({"jsonrpc": "2.0", "id": 2, "method": "tools/call",
              "params": {"name": "research", "arguments": {"question": QUESTION}}})
        deadline = time.monotonic() + 90
        while not any(r.get("stream") for r in fake_ollama.chat_requests()):
            assert time.monotonic() < deadline and process.poll() is None, process.stderr.read()[-2000:]
            time.sleep(0.05)
        (session,) = session_dirs(research_env)
        process.send_signal(signal.SIGTERM)
        code = process.wait(timeout=60)
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()
    assert code == 143, process.stderr.read()[-2000:]
    assert _status(session) == "interrupted"
    assert "Traceback" not in process.stderr.read()


@pytest.mark.parametrize("as_json", [False, True])
def test_verify_to_a_full_disk_is_one_line_and_exit_1(cli_env, tmp_path, as_json):
    (tmp_path / "answer.md").write_text("Mount Fuji is 3,776 m high [S1].\n", "utf-8")
    (tmp_path / "source.txt").write_text("Mount Fuji is 3,776 m high.\n", "utf-8")
    flags = " --json" if as_json else ""
    result = _shell(f'"$RESEARCH" verify {tmp_path}/answer.md --source {tmp_path}/source.txt --no-judge{flags} > /dev/full',
                    cli_env)
    assert result.returncode == 1 and "Traceback" not in result.stderr, result.stderr
    assert result.stderr.strip().splitlines()[-1] == "research: Cannot write to stdout: No space left on device"

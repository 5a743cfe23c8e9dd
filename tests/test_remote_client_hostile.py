"""The RESEARCH_SERVER client against a hostile server (issue 30, item 3).

A hostile (or intercepted plain-HTTP) `research serve` sent progress, an answer, a
``--json`` result and an error carrying OSC 52 clipboard writes, ``ESC[2J``, an OSC 0
title, 8-bit CSI and U+202E: all reached stdout and stderr live (``--json`` escaped ESC but
kept ``\\x9b`` and U+202E). A 100 MB result took 585 MB in the client; ``> /dev/full``
printed a 23-line traceback. The console script runs as a subprocess against
``fixtures/hostile_research_server``.
"""

from __future__ import annotations

import asyncio
import json
import os
import subprocess
import sys

import pytest
from conftest import RESEARCH
from fixtures.hostile_research_server import HostileResearchServer

# What must never reach a terminal from the server: ESC (CSI, OSC 52, OSC 0 title), BEL,
# 8-bit CSI and the right-to-left override; and live HTML in the answer.
LIVE = ("\x1b", "\x07", "\x9b", "\u202e", "<script")


def assert_inert(text: str) -> None:
    for live in LIVE:
        assert live not in text, (live, text[:2000])


@pytest.fixture(scope="module")
def hostile():
    with HostileResearchServer() as server:
        yield server


@pytest.fixture(scope="module")
def hostile_json():
    """The same server answering each call with one JSON body (no event stream)."""
    with HostileResearchServer(json_response=True) as server:
        yield server


def client_env(tmp_path, server: HostileResearchServer) -> dict[str, str]:
    home = tmp_path / "home"
    home.mkdir(exist_ok=True)
    env = {k: v for k, v in os.environ.items() if not k.startswith(("RESEARCH_", "OLLAMA_"))}
    env.update(HOME=str(home), XDG_CONFIG_HOME=str(home / ".config"), LANG="en_US.UTF-8", NO_COLOR="1",
               RESEARCH_SESSIONS_DIR=str(tmp_path / "sessions"), RESEARCH_SERVER=server.url,
               RESEARCH_SERVER_TOKEN="rsk_test")
    return env


def ask(env: dict[str, str], *args: str, **kwargs) -> subprocess.CompletedProcess[str]:
    kwargs.setdefault("stdout", subprocess.PIPE)
    return subprocess.run([RESEARCH, *args], env=env, check=False, stderr=subprocess.PIPE, stdin=subprocess.DEVNULL,
                          text=True, encoding="utf-8", errors="surrogateescape", timeout=120, **kwargs)


def test_the_servers_answer_and_progress_reach_the_terminal_inert(tmp_path, hostile):
    result = ask(client_env(tmp_path, hostile), "q")
    assert result.returncode == 0, result.stderr
    assert_inert(result.stdout)
    assert_inert(result.stderr)
    assert "Mount Fuji is 3,776 m high [S1]." in result.stdout and "gnp.exe" in result.stdout
    assert "&lt;script>" in result.stdout  # shown as text, as report.md would
    assert result.stderr.splitlines()[:2] == ["Queued as run 1", "Searching second line"]  # one line each


def test_json_from_the_server_carries_no_c1_or_bidi_bytes(tmp_path, hostile):
    result = ask(client_env(tmp_path, hostile), "q", "--json")
    assert result.returncode == 0, result.stderr
    assert "\\u001b" not in result.stdout and "\\u0007" not in result.stdout  # escaped ESC is still ESC to a reader
    assert_inert(result.stdout.replace("<script", ""))  # a JSON string keeps the answer's text as sent, minus controls
    output = json.loads(result.stdout)
    assert output["session_id"] == "s1" and "key" in output
    assert output["answer"].startswith("Mount Fuji is 3,776 m high [S1]. gnp.exe")


def test_an_error_from_the_server_is_one_inert_line(tmp_path, hostile):
    result = ask(client_env(tmp_path, hostile), "error")
    assert result.returncode == 1
    assert_inert(result.stderr)
    assert result.stderr.splitlines()[-1] == "research: Research failed: boom"
    assert result.stdout == ""


@pytest.mark.parametrize("json_body", [False, True], ids=["event stream", "one JSON body"])
def test_a_huge_result_is_refused_in_one_line_without_holding_it(tmp_path, hostile, hostile_json, json_body):
    # The child's peak memory, measured by a wrapper whose only child it is: a 20 MB result
    # took some 270 MB before (the 100 MB one 585 MB); the client alone is some 75 MB.
    server = hostile_json if json_body else hostile
    wrapper = ("import resource, subprocess, sys\n"
               "r = subprocess.run(sys.argv[1:], stdin=subprocess.DEVNULL, capture_output=True, text=True)\n"
               "sys.stdout.write(r.stdout)\nsys.stderr.write(r.stderr)\n"
               "print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss, file=sys.stderr)\n"
               "sys.exit(r.returncode)\n")
    result = subprocess.run([sys.executable, "-c", wrapper, RESEARCH, "huge"], env=client_env(tmp_path, server),
                            capture_output=True, check=False, text=True, timeout=120)
    *lines, peak_kb = result.stderr.splitlines()
    assert result.returncode == 1, result.stderr[-2000:]
    assert result.stdout == ""
    assert "Traceback" not in result.stderr
    assert lines[-1].startswith("research: The research server at") and "more than 8 MB" in lines[-1]
    assert [line for line in lines if line.startswith("research:")] == [lines[-1]]
    assert int(peak_kb) < 180_000, peak_kb


@pytest.mark.parametrize("json_body", [False, True], ids=["event stream", "one JSON body"])
def test_a_huge_result_sent_gzipped_unasked_is_refused_by_its_decoded_size(tmp_path, json_body):
    # 20 MB of result is some 20 KB of gzip: the bound counted the bytes on the wire, and httpx
    # decoded whatever came (a 8 MB body of gzip can be gigabytes). The client asks for the body
    # as it is; one sent compressed anyway is decoded where the bound counts the decoded bytes.
    with HostileResearchServer(json_response=json_body, gzip=True) as server:
        result = ask(client_env(tmp_path, server), "huge")
        assert result.returncode == 1, result.stderr[-2000:]
        assert result.stdout == "" and "Traceback" not in result.stderr
        assert result.stderr.splitlines()[-1].startswith("research: The research server at")
        assert "more than 8 MB" in result.stderr.splitlines()[-1]
        # The ordinary answer still comes through, decoded.
        answered = ask(client_env(tmp_path, server), "What is the height of Mount Fuji?")
        assert answered.returncode == 0, answered.stderr[-2000:]
        assert "3,776 m" in answered.stdout


@pytest.mark.parametrize("as_json", [False, True], ids=["answer", "--json"])
def test_a_full_disk_on_stdout_is_one_line_and_exit_1(tmp_path, hostile, as_json):
    with open("/dev/full", "w") as full:
        result = ask(client_env(tmp_path, hostile), "q", *(["--json"] if as_json else []), stdout=full)
    assert result.returncode == 1
    assert "Traceback" not in result.stderr and "Exception ignored" not in result.stderr
    errors = [line for line in result.stderr.splitlines() if line.startswith("research:")]
    assert errors == [result.stderr.splitlines()[-1]] and "Cannot write to stdout" in errors[0], result.stderr


def test_a_closed_pipe_on_stdout_is_one_line_and_exit_1(tmp_path, hostile):
    read_end, write_end = os.pipe()
    os.close(read_end)  # the reader left before the answer came
    try:
        result = ask(client_env(tmp_path, hostile), "q", stdout=write_end)
    finally:
        os.close(write_end)
    assert result.returncode == 1
    assert "Traceback" not in result.stderr and "Exception ignored" not in result.stderr
    assert result.stderr.splitlines()[-1].startswith("research: Cannot write to stdout"), result.stderr


def test_the_repl_gets_the_servers_result_cleaned(tmp_path, hostile, monkeypatch, capsys):
    """The REPL keeps the server's session id for follow-ups: it is cleaned like the rest."""
    from research.team.client import run_remote
    from research.modules.core.settings import load_settings

    for key, value in client_env(tmp_path, hostile).items():
        monkeypatch.setenv(key, value)
    remote = asyncio.run(run_remote("q", load_settings(), "en", as_json=False, resume=None, parent="s0"))
    assert remote.exit_code == 0
    assert remote.output["session_id"] == "s1"
    assert_inert(json.dumps(remote.output, ensure_ascii=False).replace("<script", ""))
    out, err = capsys.readouterr()
    assert_inert(out)
    assert_inert(err)

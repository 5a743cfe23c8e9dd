"""Signals, closed or full standard streams, a second writer, and bad settings (issue 17).

Each runs the real `research` console script against the fake Ollama and the local web; what
follows it (the resume after a signal, the second writer refused) runs in-process (this
worker is a process of its own, other than the console script's).
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import RESEARCH, load_json_line, research_in_process, session_dirs

sys.path.insert(0, str(Path(__file__).parent / "faults"))
from fault_helpers import node_started, start_research, wait_for  # noqa: E402

pytestmark = pytest.mark.e2e

QUESTION = "What is the height of Mount Fuji?"


def _meta(session: Path) -> dict:
    # The folder exists a moment before its first meta.json (an atomic write) lands.
    path = session / "meta.json"
    return json.loads(path.read_text("utf-8")) if path.exists() else {}


def _one_line(stderr: str) -> str:
    assert "Traceback" not in stderr, stderr
    return stderr.strip().splitlines()[-1]


@pytest.mark.parametrize("name, code", [("SIGTERM", 143), ("SIGHUP", 129)])
def test_sigterm_and_sighup_stop_like_ctrl_c_and_the_session_resumes(research_env, fake_ollama, name, code):
    fake_ollama.token_delay = 0.2
    process = start_research([QUESTION], research_env)
    wait_for(lambda: len(session_dirs(research_env)) == 1, process=process)
    session = session_dirs(research_env)[0]
    wait_for(lambda: node_started(session, "llm"), process=process)
    process.send_signal(getattr(signal, name))  # the process itself, as a service manager does
    _, stderr = process.communicate(timeout=60)
    assert process.returncode == code, stderr
    line = _one_line(stderr)
    assert name in line and f"research --resume {session.name.removeprefix('session_')}" in line
    assert _meta(session)["status"] == "interrupted"
    fake_ollama.token_delay = 0.0
    resumed = research_in_process(["--resume", session.name, "--json"], research_env)
    assert resumed.returncode == 0, resumed.stderr
    assert _meta(session)["status"] == "done"


@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGINT])
def test_a_signal_after_the_report_leaves_the_session_done(research_env, sig):
    process = start_research([QUESTION], research_env)
    wait_for(lambda: len(session_dirs(research_env)) == 1, process=process)
    session = session_dirs(research_env)[0]
    wait_for(lambda: _meta(session).get("status") == "done", process=process)
    process.send_signal(sig)  # the servers are still being shut down
    _, stderr = process.communicate(timeout=60)
    assert "Traceback" not in stderr
    assert _meta(session)["status"] == "done"
    assert (session / "report.pdf").is_file()


def _shell(command: str, env: dict) -> subprocess.CompletedProcess:
    return subprocess.run(["bash", "-c", command], env={**env, "RESEARCH": RESEARCH}, capture_output=True,
                          text=True, timeout=180)


def test_closed_stdin_runs_normally(research_env):
    result = _shell(f'"$RESEARCH" "{QUESTION}" --json <&-', research_env)
    assert result.returncode == 0, result.stderr
    assert Path(load_json_line(result.stdout)["report_pdf"]).is_file()


def test_closed_stdout_is_one_line_and_no_session(research_env):
    result = _shell(f'"$RESEARCH" "{QUESTION}" >&-', research_env)
    assert result.returncode == 1
    assert "standard output is closed" in _one_line(result.stderr).lower()
    assert session_dirs(research_env) == []


# `| true`: the reader is gone before the answer is written at the end of the run (with
# `| head -c 20` the whole answer may fit in the pipe before head exits: no broken pipe).
@pytest.mark.parametrize("tail", ["| true; exit ${PIPESTATUS[0]}", "> /dev/full"])
def test_broken_pipe_and_full_disk_end_with_one_line_and_a_complete_session(research_env, tail):
    result = _shell(f'"$RESEARCH" "{QUESTION}" {tail}', research_env)
    assert result.returncode == 1, result.stderr
    assert "stdout" in _one_line(result.stderr)
    (session,) = session_dirs(research_env)
    assert _meta(session)["status"] == "done" and (session / "report.pdf").is_file()


def test_a_second_process_cannot_resume_a_live_session(research_env, fake_ollama):
    fake_ollama.token_delay = 0.2
    first = start_research([QUESTION, "--json"], research_env)
    wait_for(lambda: len(session_dirs(research_env)) == 1, process=first)
    session = session_dirs(research_env)[0]
    wait_for(lambda: node_started(session, "llm"), process=first)
    second = research_in_process(["--resume", session.name], research_env)
    assert second.returncode == 2
    assert "another research process" in _one_line(second.stderr)
    fake_ollama.token_delay = 0.0
    stdout, stderr = first.communicate(timeout=120)
    assert first.returncode == 0, stderr
    assert _meta(session)["status"] == "done"


@pytest.mark.parametrize("env, args, needle", [
    ({"RESEARCH_SEARXNG_URL": "ftp://x"}, [], "RESEARCH_SEARXNG_URL"),
    ({}, ["--docs", "/nonexistent"], "RESEARCH_DOCS_DIR"),
    ({}, ["--docs", "/etc/passwd"], "RESEARCH_DOCS_DIR"),
    ({"RESEARCH_CONFIG": "/tmp"}, [], "RESEARCH_CONFIG"),
    ({"RESEARCH_SANDBOX": "docker", "RESEARCH_SANDBOX_IMAGE": ""}, [], "RESEARCH_SANDBOX"),
])
def test_bad_settings_exit_2_before_a_session_folder(run_cli, research_env, env, args, needle):
    result = run_cli([QUESTION, "--lang", "en", *args], {**research_env, **env})
    assert result.returncode == 2, result.stderr
    line = _one_line(result.stderr)
    assert needle in line and len(result.stderr.strip().splitlines()) == 1
    assert session_dirs(research_env) == []


def test_a_huge_id_is_shown_cut(run_cli, research_env):
    result = run_cli(["--resume", "7" * 5000, "--lang", "en"], research_env)
    assert result.returncode == 2
    line = _one_line(result.stderr)
    assert "7" * 40 + "…" in line and len(line) < 200

"""Faults around the model: the web-search server crashing mid-run, every engine failing,
the parser sandbox unavailable, and a sessions folder that cannot be written."""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
from pathlib import Path

import pytest
from conftest import RESEARCH, load_json_line, research_in_process, session_dirs
from fault_helpers import assert_whole_files, last_line, start_research, wait_for

from fixtures.processes import web_search_servers

pytestmark = [pytest.mark.faults, pytest.mark.e2e]


def test_web_search_server_crash_mid_run_is_survived(research_env, web):
    web.set_latency("/en/*", 1.5)  # holds the run inside a search call
    try:
        process = start_research(["What is the height of Mount Fuji?", "--json"], research_env)
        wait_for(lambda: len(session_dirs(research_env)) == 1, process=process)
        session = session_dirs(research_env)[0]
        wait_for(lambda: web_search_servers(session.parent), process=process)
        searches = len(web.requests_for("/search"))
        wait_for(lambda: len(web.requests_for("/search")) > searches, process=process)
        for pid in web_search_servers(session.parent):
            os.kill(pid, signal.SIGKILL)
        web.clear_latency()
        stdout, stderr = process.communicate(timeout=120)
    finally:
        web.clear_latency()
    assert process.returncode == 0, stderr
    assert "Traceback" not in stderr
    summary = load_json_line(stdout)
    assert summary["sources"] >= 1 and Path(summary["report_pdf"]).is_file()
    assert_whole_files(session)


def test_every_engine_failing_exits_5_and_the_report_says_why(research_env, web):
    # Engines that cannot be reached are not "no evidence": nothing was searched (exit 5).
    web.set_search_status(503)
    try:
        result = research_in_process(["What is the height of Mount Fuji?", "--json"], research_env)
    finally:
        web.set_search_status(200)
    assert result.returncode == 5, result.stderr
    assert "No search engine could be reached" in result.stderr
    assert "searxng answered HTTP 503" in result.stderr  # the cause, as it happened
    session = Path(load_json_line(result.stdout)["session_dir"])
    report = (session / "report.md").read_text("utf-8")
    assert "searxng answered HTTP 503" in report
    meta = json.loads((session / "meta.json").read_text("utf-8"))
    assert meta["exit_code"] == 5 and meta["problems"][0]["kind"] == "search"


@pytest.mark.parametrize(
    "env,needle",
    [({"RESEARCH_SANDBOX": "docker"}, "RESEARCH_SANDBOX_IMAGE"),
     ({"RESEARCH_SANDBOX": "podman", "RESEARCH_SANDBOX_IMAGE": "python:3.11-slim"}, "cannot run on this machine")],
)
def test_an_unavailable_sandbox_is_one_line_and_exit_2(research_env, env, needle, tmp_path):
    # An explicitly chosen sandbox never falls back to a weaker one (auto does). It is a
    # setting the user must change: exit 2, before any session folder (f7d8de6).
    research_env.update(env)
    if env["RESEARCH_SANDBOX"] == "podman":
        # A PATH with no podman on it, so the check runs (and cannot be skipped) whether or
        # not this machine has podman; the command itself is started by its full path.
        empty = tmp_path / "no-podman-here"
        empty.mkdir()
        research_env["PATH"] = str(empty)
    result = research_in_process(["What is the height of Mount Fuji?"], research_env)
    assert result.returncode == 2, result.stderr
    assert needle in last_line(result.stderr)
    assert session_dirs(research_env) == []


def test_sessions_folder_that_cannot_be_created_is_one_line_and_exit_1(research_env, tmp_path):
    # Tests run as root, so a read-only mode bit would not stop the write: a regular file
    # where a folder must go does.
    blocker = tmp_path / "not-a-folder"
    blocker.write_text("x")
    research_env["RESEARCH_SESSIONS_DIR"] = str(blocker / "sessions")
    result = research_in_process(["富士山の高さは？", "--lang", "ja"], research_env)
    assert result.returncode == 1, result.stderr
    assert result.stderr.strip() == f"research: セッションフォルダ {blocker / 'sessions'} に書き込めません: Not a directory"


def _can_mount_tmpfs() -> bool:
    if not shutil.which("unshare") or os.geteuid() != 0:
        return False
    probe = subprocess.run(["unshare", "--mount", "sh", "-c", "mount -t tmpfs -o size=64k tmpfs /mnt"],
                           capture_output=True)
    return probe.returncode == 0


@pytest.mark.skipif(not _can_mount_tmpfs(), reason="needs root and mount namespaces for a tiny tmpfs")
def test_disk_full_mid_run_is_one_line_and_exit_1(research_env, tmp_path):
    full = tmp_path / "full"
    full.mkdir()
    research_env["RESEARCH_SESSIONS_DIR"] = str(full / "sessions")
    # A private mount namespace: a 160 KiB tmpfs over the sessions folder holds the
    # session's first files, then the checkpoints and fetched pages run out of space.
    script = f'mount -t tmpfs -o size=160k tmpfs "{full}" && exec "{RESEARCH}" "$@"'
    result = subprocess.run(["unshare", "--mount", "sh", "-c", script, "sh", "What is the height of Mount Fuji?"],
                            env=research_env, capture_output=True, text=True, timeout=180, stdin=subprocess.DEVNULL)
    assert result.returncode == 1, result.stderr
    line = last_line(result.stderr)
    assert line.startswith("research: ") and ("No space left on device" in line or "disk is full" in line), line

"""Crash and resume: kill -9 after the search step, then `research --resume <id>`."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import time
from pathlib import Path

import pytest
from conftest import RESEARCH, load_json_line, research_in_process, session_dirs
from research.state.steps import PLAIN_RUN

pytestmark = pytest.mark.e2e


def _events(session: Path) -> list[dict]:
    path = session / "events.jsonl"
    if not path.exists():
        return []
    return [json.loads(line) for line in path.read_text("utf-8").splitlines() if line.strip()]


def _wait_for(predicate, timeout: float = 60.0) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if predicate():
            return
        time.sleep(0.05)
    raise AssertionError("timed out waiting")


def test_kill_after_search_then_resume_completes_without_duplicates(research_env, fake_ollama):
    fake_ollama.token_delay = 0.2  # keeps the run inside the llm step long enough to kill it
    process = subprocess.Popen([RESEARCH, "LangGraphのチェックポイントとは？", "--lang", "ja"], env=research_env,
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, stdin=subprocess.DEVNULL,
                               start_new_session=True)
    try:
        _wait_for(lambda: len(session_dirs(research_env)) == 1)
        session = session_dirs(research_env)[0]
        # The next step has started, so the search step's checkpoint is on disk.
        _wait_for(lambda: any(e["event"] == "node_start" and e["node"] == "processing" for e in _events(session)))
        os.killpg(process.pid, signal.SIGKILL)
        process.wait(10)
    finally:
        if process.poll() is None:
            os.killpg(process.pid, signal.SIGKILL)
    assert not (session / "report.md").exists()
    before = json.loads((session / "search_results.json").read_text("utf-8"))
    killed_at = len(_events(session))
    fake_ollama.token_delay = 0.0

    session_id = session.name.removeprefix("session_")
    # Its own servers: the first line it says is that they start.
    result = research_in_process(["--resume", session_id, "--json"], {**research_env, "LANG": "en_US.UTF-8"},
                                 own_servers=True)
    assert result.returncode == 0, result.stderr
    # A Japanese session resumed from an English locale speaks Japanese from its first line (issue 48).
    assert result.stderr.startswith("検索サーバーとパーサーサーバーを起動中"), result.stderr[:200]
    assert "Starting the search" not in result.stderr
    summary = load_json_line(result.stdout)
    assert summary["session_id"] == session_id
    assert Path(summary["report_pdf"]).is_file()

    after = json.loads((session / "search_results.json").read_text("utf-8"))
    urls = [hit["canonical_url"] for hit in after]
    assert len(urls) == len(set(urls)), "no source stored twice"
    assert {h["canonical_url"] for h in before} <= set(urls)
    resumed = [e for e in _events(session)[killed_at:] if e["event"] == "node_start"]
    assert resumed[0]["node"] in PLAIN_RUN[PLAIN_RUN.index("search") + 1:], resumed  # continues after the finished steps
    assert "input" not in [e["node"] for e in resumed]
    meta = json.loads((session / "meta.json").read_text("utf-8"))
    assert meta["status"] == "done"
    # The planning call was made by the killed process: the report still counts it.
    assert meta["usage"]["input"]["calls"] >= 1, meta["usage"]
    # Resuming a finished session is a usage error, not a second run.
    again = research_in_process(["--resume", session_id], research_env)
    assert again.returncode == 2 and "already finished" in again.stderr


def test_resume_after_kill_runs_with_the_engine_and_documents_it_started_with(research_env, tmp_path):
    """Issue 48: `--engine local --docs DIR`, kill -9 once planning is done, then a plain
    `--resume ID`: the resumed run searched DuckDuckGo (here the environment's SearXNG) and
    said nothing. It must search the documents again, and say the command's own differ."""
    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "fuji.md").write_text("# Mount Fuji\n\nMount Fuji is 3,776 m high. It last erupted in 1707.\n", "utf-8")
    process = subprocess.Popen([RESEARCH, "How high is Mount Fuji?", "--engine", "local", "--docs", str(docs),
                                "--depth", "quick"], env=research_env, stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, stdin=subprocess.DEVNULL, start_new_session=True)
    try:
        _wait_for(lambda: len(session_dirs(research_env)) == 1)
        session = session_dirs(research_env)[0]
        # Planning's checkpoint is written before the search step starts, which waits for the
        # web-search server to boot (over a second): killed there, the search is yet to run.
        _wait_for(lambda: any(e["event"] == "node_start" and e["node"] == "search" for e in _events(session)))
        os.killpg(process.pid, signal.SIGKILL)
        process.wait(10)
    finally:
        if process.poll() is None:
            os.killpg(process.pid, signal.SIGKILL)
    assert not (session / "search_results.json").exists() or json.loads(
        (session / "search_results.json").read_text("utf-8")) == []

    session_id = session.name.removeprefix("session_")
    # The environment still says RESEARCH_SEARCH_ENGINE=searxng and no documents folder.
    result = research_in_process(["--resume", session_id, "--json"], research_env)
    assert result.returncode == 0, result.stderr
    hits = json.loads((session / "search_results.json").read_text("utf-8"))
    assert hits and {hit["url"] for hit in hits} == {(docs / "fuji.md").as_uri()}, hits
    assert ("Resumed with the options the session started with, not this command's: "
            f"--engine local (searxng), --docs {docs} (–)") in result.stderr
    meta = json.loads((session / "meta.json").read_text("utf-8"))
    assert meta["run_options"]["search_engine"] == "local" and meta["run_options"]["depth"] == "quick"

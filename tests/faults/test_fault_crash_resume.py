"""Crash anywhere, resume, lose nothing.

One session is killed with SIGKILL at every node boundary and in the middle of fetching
and of generation, each time resumed with `research --resume <id>` and killed again at
the next point; the last resume completes. The kills share one session so each point
also proves that a resumed run can itself be killed and resumed.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from conftest import load_json_line, research_in_process, session_dirs
from fault_helpers import assert_whole_files, events, kill_hard, node_started, start_research, wait_for

pytestmark = [pytest.mark.faults, pytest.mark.e2e]

QUESTION = "What is the height of Mount Fuji?"
ARTICLE_PATHS = ("/en/*", "/ja/*")
BLOCKED_S = 30.0  # longer than any kill takes to land: "the page never answers"


def _ledger(session: Path) -> list[dict]:
    path = session / "processed.jsonl"
    return [json.loads(line) for line in path.read_text("utf-8").splitlines()] if path.exists() else []


def _search_urls(session: Path) -> list[str]:
    path = session / "search_results.json"
    return [hit["canonical_url"] for hit in json.loads(path.read_text("utf-8"))] if path.exists() else []


def test_kill_at_every_step_then_resume_loses_nothing(research_env, fake_ollama, web):
    session: Path | None = None
    seen_urls: set[str] = set()

    def kill_when(point: str, args: list[str]) -> None:
        nonlocal session
        offset = len(events(session)) if session else 0
        process = start_research(args, research_env)
        try:
            if session is None:
                wait_for(lambda: len(session_dirs(research_env)) == 1, process=process)
                session = session_dirs(research_env)[0]
            if point == "fetching":
                wait_for(lambda: node_started(session, "search", offset), process=process)
                wait_for(lambda: any(r.path.startswith(("/en/", "/ja/")) for r in web.requests), process=process)
            elif point == "generation":
                wait_for(lambda: node_started(session, "llm", offset), process=process)
                wait_for(lambda: any(r.get("stream") for r in fake_ollama.chat_requests()), process=process)
            else:
                wait_for(lambda: node_started(session, point, offset), process=process)
        finally:
            kill_hard(process)
        assert process.returncode == -9, (point, process.returncode)
        assert json.loads((session / "meta.json").read_text("utf-8"))["status"] == "running"
        if point != "report":  # inside the report step, report.md may already be written
            assert not (session / "report.md").exists(), point
        seen_urls.update(_search_urls(session))

    points = ["input", "search", "fetching", "processing", "llm", "generation", "verification", "report"]
    for point in points:
        web.clear_log()
        fake_ollama.requests.clear()
        # Each kill is triggered by an event (a step started, a page or a streamed answer was
        # requested), never by a timer. Until the fetching kill the pages do not answer at all,
        # so no run can get past the search step before it is killed, whatever the load: the
        # search and fetching kill points exist on every path. From processing to generation
        # the model is slow in the same way, so no run gets past drafting before its kill.
        for pattern in ARTICLE_PATHS:
            web.set_latency(pattern, BLOCKED_S if point in ("input", "search", "fetching") else 0.0)
        fake_ollama.token_delay = 0.3 if point in ("processing", "llm", "generation") else 0.0
        kill_when(point, [QUESTION, "--json"] if session is None else ["--resume", session.name, "--json"])
        assert_whole_files(session, finished=False)
    web.clear_latency()
    fake_ollama.token_delay = 0.0

    result = research_in_process(["--resume", session.name, "--json"], research_env)
    assert result.returncode == 0, result.stderr
    summary = load_json_line(result.stdout)
    assert summary["session_id"] == session.name.removeprefix("session_")
    assert Path(summary["report_pdf"]).is_file()
    assert_whole_files(session)
    assert json.loads((session / "meta.json").read_text("utf-8"))["status"] == "done"

    # No source lost, none stored twice, labels S1..Sn in order.
    urls = _search_urls(session)
    assert len(urls) == len(set(urls))
    assert seen_urls <= set(urls)
    ledger = _ledger(session)
    assert [d["label"] for d in ledger] == [f"S{n}" for n in range(1, len(ledger) + 1)]
    assert len({d["canonical_url"] for d in ledger}) == len(ledger)
    # The same sources as a run that was never interrupted.
    reference = research_in_process([QUESTION, "--json"], research_env)
    assert reference.returncode == 0, reference.stderr
    clean = Path(load_json_line(reference.stdout)["session_dir"])
    assert sorted(urls) == sorted(_search_urls(clean))
    assert [d["canonical_url"] for d in ledger] == [d["canonical_url"] for d in _ledger(clean)]
    # Each kill left a trace the resumed run continued from: nine run_start events, one run_end.
    kinds = [e["event"] for e in events(session)]
    assert kinds.count("run_start") == len(points) + 1 and kinds.count("run_end") == 1


def test_two_processes_share_a_sessions_folder(research_env):
    first = start_research(["What is the height of Mount Fuji?", "--json"], research_env)
    second = start_research(["LangGraphのチェックポイントとは？", "--lang", "ja", "--json"], research_env)
    outputs = [p.communicate(timeout=180) for p in (first, second)]
    for process, (stdout, stderr) in zip((first, second), outputs):
        assert process.returncode == 0, stderr
    summaries = [load_json_line(stdout) for stdout, _ in outputs]
    assert summaries[0]["session_id"] != summaries[1]["session_id"]
    assert len(session_dirs(research_env)) == 2
    for summary, question in zip(summaries, ["Mount Fuji", "LangGraph"]):
        session = Path(summary["session_dir"])
        assert_whole_files(session)
        meta = json.loads((session / "meta.json").read_text("utf-8"))
        assert question in meta["question"] and meta["status"] == "done"
        # Each process wrote only its own session: every event of the run is in its own file.
        kinds = [e["event"] for e in events(session)]
        assert kinds.count("run_start") == 1 and kinds.count("run_end") == 1
        assert Path(summary["report_pdf"]).is_file()

"""progress.md: one section per finished step, whole after a kill -9, in the run's language."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from conftest import load_json_line, research_in_process, session_dirs
from faults.fault_helpers import kill_hard, node_started, start_research, wait_for

from research.state.models import Document, FollowUpQuery, Query, SearchHit, SubQuestionPlan, VerificationResult
from research.state.progress_log import PROGRESS_FILE, progress_markdown, record_step

PLAN = [SubQuestionPlan(question="How tall is Mount Fuji?", queries=[Query(text="Mount Fuji height", language="en"),
                                                                     Query(text="富士山 標高", language="ja")])]
DOCUMENTS = [
    {"label": "S1", "url": "http://x.test/fuji", "canonical_url": "http://x.test/fuji", "title": "Fuji facts",
     "status": "ok"},
    {"label": "S2", "url": "http://x.test/broken", "canonical_url": "http://x.test/broken", "title": "",
     "status": "failed", "error": "HTTP 500"},
]
VERIFICATION = VerificationResult.model_validate({
    "summary": {"claims": 2, "supported": 1, "partly_supported": 0, "unsupported": 1, "citation_invalid": 0,
                "supported_ratio": 0.5},
    "claims": [{"index": 0, "text": "Mount Fuji is 3,776 m tall [S1].", "verdict": "supported"},
               {"index": 1, "text": "It last erupted in 1850 [S1].", "verdict": "unsupported"}],
})


def _run_steps(folder: Path, lang: str) -> str:
    state = {"question": "富士山の高さは？" if lang == "ja" else "How tall is Mount Fuji?", "language": lang,
             "session_id": "20250101_000000_abcdef"}
    steps = [
        ("input", {"plan": PLAN, "search_rounds": 0}),
        ("search", {"search_results": [SearchHit(url="a"), SearchHit(url="b")], "search_rounds": 1}),
        ("processing", {"documents": [Document.model_validate(document) for document in DOCUMENTS]}),
        ("llm", {"draft": "## Heading in the draft\nMount Fuji is 3,776 m tall [S1]."}),
        ("verification", {"verification": VERIFICATION,
                          "follow_up_queries": [FollowUpQuery(text="Fuji eruption 1707", language="en")]}),
    ]
    for node, update in steps:
        assert record_step(folder, node, state, update)
        state = {**state, **update}
    return progress_markdown(folder)


def test_each_finished_step_adds_a_section_in_english(tmp_path):
    assert progress_markdown(tmp_path) is None
    text = _run_steps(tmp_path, "en")
    headings = re.findall(r"^## (.+?) \(\d\d:\d\d:\d\d\)$", text, flags=re.MULTILINE)
    assert headings == ["Plan", "Search, round 1", "Sources read", "Draft", "Verification"]
    assert text.startswith("# Research progress: How tall is Mount Fuji?")
    assert "`Mount Fuji height` (en)" in text and "`富士山 標高` (ja)" in text
    assert "[S1] Fuji facts — http://x.test/fuji" in text
    assert "✗ http://x.test/broken — could not be read: HTTP 500" in text
    assert "2 results in all, 2 new this round." in text
    # The draft is quoted: its own heading does not become a section of progress.md.
    assert "> ## Heading in the draft" in text
    assert "✓ supported: Mount Fuji is 3,776 m tall [S1]." in text
    assert "✗ not supported: It last erupted in 1850 [S1]." in text
    assert "2 claims: 1 supported, 0 partly supported, 1 not supported, 0 contradicted, 0 not checked (50% supported)" in text
    assert "`Fuji eruption 1707`" in text
    assert not list(tmp_path.glob(".*.tmp")), "atomic writes leave no temp files"


def test_headings_follow_the_run_language(tmp_path):
    text = _run_steps(tmp_path, "ja")
    assert text.startswith("# 調査の経過: 富士山の高さは？")
    for heading in ("## 調査計画", "## 検索（1回目）", "## 読んだ出典", "## 下書き", "## 検証"):
        assert heading in text
    assert "主張2件: 裏付けあり1件、一部のみ裏付け0件、裏付けなし1件、矛盾0件、未確認0件（裏付けあり 50%）" in text
    assert "✗ 裏付けなし: It last erupted in 1850 [S1]." in text and "Plan" not in text


def test_a_write_failure_does_not_stop_the_run(tmp_path):
    blocker = tmp_path / "not-a-folder"
    blocker.write_text("x")
    assert record_step(blocker, "input", {"language": "en"}, {"plan": PLAN}) is False


@pytest.mark.e2e
@pytest.mark.faults
def test_kill_9_while_drafting_leaves_the_plan_and_the_sources_read(research_env, fake_ollama):
    fake_ollama.token_delay = 0.3  # slow generation, so the kill lands mid-draft
    process = start_research(["What is the height of Mount Fuji?", "--json"], research_env)
    try:
        wait_for(lambda: len(session_dirs(research_env)) == 1, process=process)
        session = session_dirs(research_env)[0]
        wait_for(lambda: node_started(session, "llm"), process=process)
        wait_for(lambda: any(r.get("stream") for r in fake_ollama.chat_requests()), process=process)
    finally:
        kill_hard(process)
    assert process.returncode == -9
    assert not (session / "llm_draft.md").exists(), "the kill landed after drafting"
    text = (session / PROGRESS_FILE).read_text("utf-8")
    assert "## Plan" in text and "## Sources read" in text and "## Draft" not in text
    ledger = [json.loads(line) for line in (session / "processed.jsonl").read_text("utf-8").splitlines()]
    read = [d for d in ledger if d["status"] == "ok"]
    assert read
    for doc in read:
        assert f"[{doc['label']}]" in text and doc["url"] in text
    plan_queries = re.findall(r"^    - `(.+?)` \((?:ja|en)\)$", text, flags=re.MULTILINE)
    assert plan_queries, text

    # The resumed run goes on appending to the same account, up to the report.
    fake_ollama.token_delay = 0.0
    result = research_in_process(["--resume", session.name, "--json"], research_env)
    assert result.returncode == 0, result.stderr
    finished = (session / PROGRESS_FILE).read_text("utf-8")
    assert finished.startswith(text.rstrip("\n"))
    assert "## Draft" in finished and "## Verification" in finished
    assert load_json_line(result.stdout)["report_md"] in finished

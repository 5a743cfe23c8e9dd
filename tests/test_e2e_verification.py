"""End to end: what the verifier does to a draft with a fabricated citation, a claim in
no source, or the wrong language, and what a run with no evidence writes."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from conftest import load_json_line, research_in_process

pytestmark = pytest.mark.e2e


def _session(result) -> Path:
    assert "Traceback" not in result.stderr
    return Path(load_json_line(result.stdout)["session_dir"])


def test_fabricated_citation_is_removed_and_the_claim_flagged(research_env, fake_ollama):
    fake_ollama.mode = "cite_s99"
    research_env["RESEARCH_VERIFICATION_PASS_RATIO"] = "0.95"
    research_env["RESEARCH_MAX_VERIFICATION_LOOPS"] = "1"
    result = research_in_process(["富士山の最後の噴火は？", "--lang", "ja", "--json"], research_env)
    assert result.returncode == 0, result.stderr
    session = _session(result)
    progress = (session / "progress.md").read_text("utf-8")
    assert "[S99]" in progress  # the first draft did cite a source that does not exist
    report = (session / "report.md").read_text("utf-8")
    assert "[S99]" not in report
    # The follow-up round searched for the fabricated sentence; no page it read names what the
    # sentence says (Mars, 2031), so the model was not asked to redraft it from the same passages,
    # and whatever is left of it in the answer is flagged, never shown as fact.
    revisions = [r for r in fake_ollama.chat_requests() if (r.get("format") or {}).get("title") == "SentenceRevisions"]
    events = [json.loads(line) for line in (session / "events.jsonl").read_text("utf-8").splitlines()]
    assert not revisions and [e["reason"] for e in events if e["event"] == "redraft_skipped"] == ["no_new_evidence"]
    answer = report.split("## 検証")[0]
    assert all("（裏付けなし）" in line for line in answer.splitlines() if "火星" in line)

    verification = json.loads((session / "verification.json").read_text("utf-8"))
    assert verification["summary"]["loops"] == 1
    assert verification["follow_up_queries"]
    searches = [e for e in map(json.loads, (session / "events.jsonl").read_text("utf-8").splitlines())
                if e["event"] == "node_start" and e["node"] == "search"]
    assert len(searches) == 2  # the follow-up round happened, and the loop was bounded


def test_a_draft_in_the_wrong_language_is_rewritten(research_env, fake_ollama):
    fake_ollama.mode = "wrong_language"
    result = research_in_process(["富士山の高さは？", "--lang", "ja", "--json"], research_env)
    assert result.returncode == 0, result.stderr
    session = _session(result)
    check = json.loads((session / "verification.json").read_text("utf-8"))["summary"]["language_check"]
    # The rewrite sticks: a follow-up round revises sentences of the fixed draft instead of
    # drafting anew in the wrong language, so the last check finds nothing left to rewrite.
    assert check["wrong_language"] == [] and check["not_rewritten"] == [], check
    assert fake_ollama.chat_requests("translate"), "the section was sent for translation"


def test_no_evidence_exits_4_and_the_report_says_so(research_env, web):
    web.set_search_status(200)
    research_env["RESEARCH_SEARCH_ENGINE"] = "local"
    empty = Path(research_env["HOME"]) / "empty-docs"
    empty.mkdir()
    # Nothing on the question (an empty folder is refused before the run: docs/reliability.md).
    (empty / "bread.txt").write_text("Knead the dough for ten minutes and let it rest.\n", "utf-8")
    research_env["RESEARCH_DOCS_DIR"] = str(empty)
    result = research_in_process(["What is the airspeed of an unladen swallow?", "--json"], research_env)
    assert result.returncode == 4, result.stderr
    session = _session(result)
    report = (session / "report.md").read_text("utf-8")
    assert "No evidence was found" in report
    assert (session / "report.pdf").is_file()
    assert json.loads((session / "meta.json").read_text("utf-8"))["status"] == "no_evidence"


@pytest.mark.parametrize("empty", [1, 2])
def test_a_model_that_writes_nothing_is_asked_again_and_then_the_sources_are_quoted(research_env, fake_ollama,
                                                                                      empty):
    # The real 1.5B model answered 「量子ビットとは？」 with nothing at all once in eight runs: the report
    # was empty, exit 0, and nothing said so.
    fake_ollama.empty_drafts = empty
    result = research_in_process(["What is the height of Mount Fuji?", "--lang", "en", "--json"], research_env)
    assert result.returncode == 0, result.stderr
    session = _session(result)
    report = (session / "report.md").read_text("utf-8")
    summary = report.split("## Summary\n")[1].split("\n## ")[0].strip()
    drafts = fake_ollama.chat_requests("draft")
    assert len(drafts) == 2  # asked once more after the empty reply
    outcome = load_json_line(result.stdout)
    if empty == 1:
        assert "[S1]" in summary and "The model wrote no answer" not in report  # the second draft's answer
        assert not [p for p in outcome["problems"] if p["kind"] == "draft"]
    else:
        assert summary.startswith("The model wrote no answer; of the question the sources read say: «"), summary
        assert "3,776" in summary and "[S" in summary
        (problem,) = [p for p in outcome["problems"] if p["kind"] == "draft"]
        assert problem["message"].startswith("The model wrote no answer, asked twice")
        assert "The model wrote no answer, asked twice" in report.split("## Notes")[1]
        assert "The model wrote no answer, asked twice" in result.stderr  # said on the terminal too

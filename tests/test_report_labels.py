"""Issue 23, item 4: the labels a reader sees agree — inline, in the verification table, and
in the list of claims without full support — in both languages."""

from __future__ import annotations

from datetime import datetime, timezone

import pytest

from research.modules.report.content import ReportInput, build_report
from research.modules.report.markdown import render_markdown

VERIFICATION = {
    "claims": [
        {"index": 0, "text": "Mount Fuji is 3,776 m high.", "verdict": "supported", "citations": ["S1"],
         "evidence": "Mount Fuji is 3,776 m high.", "evidence_label": "S1", "checked": True},
        {"index": 1, "text": "Its crater is 800 m across.", "verdict": "partly_supported", "citations": ["S1"],
         "evidence": "", "evidence_label": "S1", "checked": False, "reason": "not_checked"},
        {"index": 2, "text": "It last erupted in 1708.", "verdict": "unsupported", "citations": ["S1"],
         "evidence": "Its last eruption began in 1707.", "evidence_label": "S1", "checked": True,
         "reason": "number_mismatch", "outcome": "unsupported", "removed": True},
        # No judge decided it, and it cites nothing: taken out (the real model's GIL run listed eight
        # such as "partly supported" while its table counted them "not checked").
        {"index": 3, "text": "The GIL is a fundamental aspect of Python's design.", "verdict": "partly_supported",
         "citations": [], "evidence": "The standard build still has the GIL.", "evidence_label": "S1",
         "checked": False, "reason": "partial_overlap", "removed": True, "removed_reason": "uncited"},
        {"index": 4, "text": "Its summit is 3,800 m.", "verdict": "partly_supported", "citations": ["S1"],
         "evidence": "Mount Fuji is 3,776 m high.", "evidence_label": "S1", "checked": False,
         "reason": "number_missing", "removed": True, "removed_reason": "partly_supported"},
        # A yes no check decided that only said the question back (workflow/answer.py): taken out, not checked.
        {"index": 5, "text": "Yes, Mount Fuji is high.", "verdict": "partly_supported", "citations": ["S1"],
         "evidence": "Mount Fuji is 3,776 m high.", "evidence_label": "S1", "checked": False,
         "reason": "partial_overlap", "removed": True, "removed_reason": "question_restated"},
    ],
    "summary": {"claims": 6, "supported": 1, "partly_supported": 4, "unsupported": 1, "citation_invalid": 0,
                "supported_ratio": 1 / 6, "loops": 0, "not_checked": 4, "removed": 4},
}


def _markdown(language: str) -> str:
    data = ReportInput(
        question="How high is Mount Fuji?", language=language, model="gpt-oss:20b",
        generated_at=datetime(2026, 11, 24, tzinfo=timezone.utc), session_id="20261124_000000_abcdef",
        body_markdown="Mount Fuji is 3,776 m high [S1]. Its crater is 800 m across [S1]. (not checked)\n",
        sources=[{"label": "S1", "url": "https://example.org/fuji", "title": "Fuji", "language": "en", "status": "ok"}],
        verification=VERIFICATION, method={}, notes=[], parent_session=None,
    )
    return render_markdown(build_report(data))


@pytest.mark.parametrize(("language", "not_checked", "partly", "removed"), [
    ("en", "| not checked | 4 |", "| partly supported | 0 |", "contradicted (taken out of the answer"),
    ("ja", "| 未確認 | 4 |", "| 一部のみ裏付け | 0 |", "矛盾（本文から削除"),
])
def test_a_claim_no_judge_decided_is_not_checked_everywhere(language, not_checked, partly, removed):
    markdown = _markdown(language)
    assert not_checked in markdown and partly in markdown  # the table no longer calls it partly supported
    listed = [line for line in markdown.splitlines() if "800 m" in line and line.startswith("- ")]
    assert listed and not any("partly" in line or "一部" in line for line in listed), listed
    (taken_out,) = [line for line in markdown.splitlines() if "1708" in line and line.startswith("- ")]
    assert removed in taken_out and "«Its last eruption began in 1707.»" in taken_out
    unchecked = [line for line in markdown.splitlines() if ("GIL" in line or "3,800" in line) and line.startswith("- ")]
    assert len(unchecked) == 2 and all(("not checked" in line or "未確認" in line) and not ("partly" in line or "一部" in line)
                                       for line in unchecked), unchecked


@pytest.mark.parametrize(("language", "said"), [
    ("en", "- not checked (taken out of the answer: it only says the yes/no question back as its answer): "
           "Yes, Mount Fuji is high. — S1 «Mount Fuji is 3,776 m high.»"),
    ("ja", "- 未確認（本文から削除。質問をそのまま答えとして言い直しただけ）: Yes, Mount Fuji is high. — S1 «Mount Fuji is 3,776 m high.»"),
])
def test_a_yes_that_only_said_the_question_back_is_listed_as_taken_out(language, said):
    assert said in _markdown(language).splitlines()

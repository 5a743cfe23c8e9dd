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
    ],
    "summary": {"claims": 3, "supported": 1, "partly_supported": 1, "unsupported": 1, "citation_invalid": 0,
                "supported_ratio": 1 / 3, "loops": 0, "not_checked": 1, "removed": 1},
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
    ("en", "| not checked | 1 |", "| partly supported | 0 |", "contradicted (taken out of the answer"),
    ("ja", "| 未確認 | 1 |", "| 一部のみ裏付け | 0 |", "矛盾（本文から削除"),
])
def test_a_claim_no_judge_decided_is_not_checked_everywhere(language, not_checked, partly, removed):
    markdown = _markdown(language)
    assert not_checked in markdown and partly in markdown  # the table no longer calls it partly supported
    listed = [line for line in markdown.splitlines() if "800 m" in line and line.startswith("- ")]
    assert listed and not any("partly" in line or "一部" in line for line in listed), listed
    (taken_out,) = [line for line in markdown.splitlines() if "1708" in line and line.startswith("- ")]
    assert removed in taken_out and "«Its last eruption began in 1707.»" in taken_out

"""report_content + report_markdown: structure of the answer and the localized report.md."""

from __future__ import annotations

from datetime import datetime, timezone

import pytest
from pdfminer.high_level import extract_text

from research.state.models import FollowUpQuery
from research.modules.report.content import (
    CodeBlock,
    Heading,
    ListBlock,
    Paragraph,
    Quote,
    ReportInput,
    TableBlock,
    build_report,
    parse_blocks,
)
from research.modules.report.markdown import render_markdown
from research.modules.report.pdf import render_pdf

BODY_JA = """富士山が最後に噴火したのは1707年の宝永噴火です [S1]。

## 噴火の経過
宝永噴火は**16日間**続きました [S1][S2]。（裏付けなし）

- 江戸にも火山灰が降った [S2]
- 噴火口は南東斜面にある

```text
## これは見出しではない
```

## 現在の状況
気象庁は常時観測を続けています [S3]。
"""

SOURCES = [
    {"label": "S1", "url": "https://ja.wikipedia.org/wiki/宝永大噴火", "title": "宝永大噴火 - Wikipedia",
     "language": "ja", "retrieved_at": "2025-03-01T10:00:00+09:00", "status": "ok", "error": None, "suspicious": False},
    {"label": "S2", "url": "https://example.org/fuji [1]", "title": "Fuji [history]", "language": "en",
     "retrieved_at": "2025-03-01T10:00:05+09:00", "status": "ok", "error": None, "suspicious": True},
    {"label": "S3", "url": "https://www.jma.go.jp/x", "title": "", "language": "ja",
     "retrieved_at": "", "status": "failed", "error": "HTTP 503", "suspicious": False},
]

VERIFICATION = {
    "claims": [
        {"index": 0, "text": "富士山が最後に噴火したのは1707年", "verdict": "supported", "confidence": 0.9,
         "citations": ["S1"], "invalid_citations": [], "evidence": "...", "evidence_label": "S1"},
        {"index": 1, "text": "宝永噴火は16日間続いた", "verdict": "unsupported", "confidence": 0.2,
         "citations": ["S2"], "invalid_citations": [], "evidence": "", "evidence_label": None},
        {"index": 2, "text": "気象庁は常時観測", "verdict": "citation_invalid", "confidence": 0.0,
         "citations": [], "invalid_citations": ["S9"], "evidence": "", "evidence_label": None},
    ],
    "summary": {"claims": 3, "supported": 1, "partly_supported": 0, "unsupported": 1, "citation_invalid": 1,
                "supported_ratio": 1 / 3, "invalid_citations": ["S9"], "loops": 2, "language_check": {}},
    "follow_up_queries": [{"text": "宝永噴火 期間", "language": "ja"}],
}

METHOD = {"engines": ["duckduckgo", "local"], "queries": ["富士山 最後の噴火"], "sources_read": 2,
          "sources_failed": 1, "loops": 2, "sandbox": "bwrap"}


def make_input(**overrides) -> ReportInput:
    values = dict(
        question="富士山が最後に噴火したのはいつ？",
        language="ja",
        model="gpt-oss:20b",
        generated_at=datetime(2025, 3, 1, 10, 0, tzinfo=timezone.utc),
        session_id="20250301_100000_ab12",
        body_markdown=BODY_JA,
        sources=SOURCES,
        verification=VERIFICATION,
        method=METHOD,
        notes=["1 件のソースを読み込めませんでした"],
        parent_session=None,
    )
    values.update(overrides)
    return ReportInput(**values)


def test_text_before_the_first_heading_is_the_summary_and_sections_are_findings():
    doc = build_report(make_input())
    assert "1707年" in doc.summary.markdown
    assert [section.title for section in doc.findings] == ["噴火の経過", "現在の状況"]
    # A "## " inside a code block is code, not a new section.
    assert "## これは見出しではない" in doc.findings[0].markdown
    assert any(isinstance(block, CodeBlock) for block in doc.findings[0].blocks)


def test_first_section_is_the_summary_when_there_is_no_preamble():
    body = "## 結論\n要点はこれです [S1]。\n\n## Theme A\nDetails [S1].\n"
    doc = build_report(make_input(body_markdown=body))
    assert doc.summary.markdown.strip() == "要点はこれです [S1]。"
    assert [section.title for section in doc.findings] == ["Theme A"]


def test_numbered_findings_are_numbered_again_when_one_was_left_out():
    # The draft numbered its sections by sub-question; the third had nothing checked left.
    body = "Summary [S1].\n\n## 1. Height\nIt is 3,776 m [S1].\n\n## 4. Eruptions\nLast in 1707 [S1].\n"
    doc = build_report(make_input(body_markdown=body, language="en"))
    assert [section.title for section in doc.findings] == ["1. Height", "2. Eruptions"]
    assert "### 2. Eruptions" in render_markdown(doc)
    # The real model (Qwen2.5-Coder-1.5B): sections 1, 3 and 4 only repeated the summary.
    body = "Summary [S1].\n\n## 2. What is the elevation of Mount Fuji?\nIt is 3,776 m [S1].\n"
    assert [s.title for s in build_report(make_input(body_markdown=body, language="en")).findings] == [
        "1. What is the elevation of Mount Fuji?"]
    # Titles the draft did not number all alike are left as written.
    body = "Summary [S1].\n\n## 1. Height\nIt is 3,776 m [S1].\n\n## Eruptions in 1707\nYes [S1].\n"
    assert [s.title for s in build_report(make_input(body_markdown=body, language="en")).findings] == [
        "1. Height", "Eruptions in 1707"]


def test_findings_headed_by_bare_numbers_are_one_untitled_part(tmp_path):
    # The real model (Qwen2.5-Coder-1.5B) in Japanese headed each finding "## 1", "## 2", … with no theme:
    # report.md (and so stdout) said "### 1", "### 2". The sentences stay, in order, without them.
    body = ("## 結論\n富士山の最後の噴火は1707年の宝永噴火です[S1]。\n\n## 1\n宝永噴火では江戸にも火山灰が降りました[S1]。\n\n"
            "## 2\n富士山は過去に何度も噴火してきました[S1]。\n\n## 3. 宝永噴火の影響\n農地が被害を受けました[S1]。\n")
    doc = build_report(make_input(body_markdown=body, language="ja"))
    assert [section.title for section in doc.findings] == ["", "3. 宝永噴火の影響"]
    markdown = render_markdown(doc)
    assert "### 1" not in markdown and "### 2" not in markdown and "### 3. 宝永噴火の影響" in markdown
    findings = markdown.split("## 調査結果\n", 1)[1]
    assert findings.index("江戸にも火山灰") < findings.index("何度も噴火") < findings.index("農地が被害")
    render_pdf(doc, tmp_path / "report.pdf")
    text = "".join(extract_text(str(tmp_path / "report.pdf")).split())
    assert text.index("江戸にも火山灰") < text.index("何度も噴火") < text.index("3.宝永噴火の影響") < text.index("農地が被害")


def test_headings_inside_a_finding_move_under_the_theme_heading():
    body = "Summary.\n\n## Theme\nText.\n\n### Detail\nMore.\n"
    doc = build_report(make_input(body_markdown=body, language="en"))
    assert "#### Detail" in doc.findings[0].markdown
    assert Heading(level=4, spans=doc.findings[0].blocks[1].spans) == doc.findings[0].blocks[1]


def test_japanese_report_has_localized_sections_in_order():
    markdown = render_markdown(build_report(make_input()))
    # The answer first, then notes, verification and sources; the method last (SECTION_ORDER).
    order = ["# 調査レポート", "**質問**", "**日付**", "**モデル**", "## 結論", "## 調査結果", "### 噴火の経過",
             "## 注記", "## 検証", "## 出典", "## 方法"]
    positions = [markdown.index(marker) for marker in order]
    assert positions == sorted(positions)
    assert "2025-03-01 10:00 UTC" in markdown
    assert "`gpt-oss:20b`" in markdown
    assert "[S1][S2]" in markdown and "（裏付けなし）" in markdown


def test_english_report_uses_english_titles():
    markdown = render_markdown(build_report(make_input(language="en", question="When did Fuji last erupt?")))
    for title in ("# Research report", "## Summary", "## Findings", "## Verification", "## Method", "## Sources", "## Notes"):
        assert title in markdown
    assert "結論" not in markdown


def test_verification_section_reports_counts_loops_and_weak_claims():
    markdown = render_markdown(build_report(make_input(language="en")))
    section = markdown.split("## Verification")[1].split("## Sources")[0]
    assert "| Claims | 3 |" in section
    assert "| supported | 1 |" in section and "| not supported | 2 |" in section  # an invented citation too
    assert "| Share supported | 33% |" in section
    assert "| Verification loops | 2 |" in section
    assert "`S9`" in section  # invalid citation removed
    assert "not supported: 宝永噴火は16日間続いた (S2)" in section
    assert "not supported: 気象庁は常時観測" in section
    assert "富士山が最後に噴火したのは1707年" not in section  # supported claims are not listed


def test_a_doubtful_sentence_written_twice_is_listed_once_with_its_count(tmp_path):
    # Qwen2.5-Coder-1.5B (量子ビットとは？, 2026-11-28) wrote one paragraph under two headings:
    # the list gave each of its partly supported sentences twice, in both report.md and the PDF.
    repeated = {"text": "量子ビットは量子通信に応用されています", "verdict": "partly_supported", "confidence": 0.5,
                "citations": ["S1"], "invalid_citations": [], "evidence": "", "evidence_label": None}
    claims = [dict(repeated, index=0), dict(VERIFICATION["claims"][1], index=1), dict(repeated, index=2)]
    verification = {"claims": claims, "summary": dict(VERIFICATION["summary"], claims=3, partly_supported=2,
                                                      citation_invalid=0, invalid_citations=[])}
    report = build_report(make_input(verification=verification))
    section = render_markdown(report).split("## 検証")[1].split("## 方法")[0]
    listed = [line for line in section.splitlines() if line.startswith("- ")]
    assert listed == ["- 一部のみ裏付け: 量子ビットは量子通信に応用されています (×2) (S1)",
                      "- 裏付けなし: 宝永噴火は16日間続いた (S2)"]
    render_pdf(report, tmp_path / "report.pdf")
    pdf_text = " ".join(extract_text(tmp_path / "report.pdf").split())
    assert pdf_text.count("量子通信に応用されています") == 1 and "×2" in pdf_text


def test_missing_verification_says_it_did_not_run():
    markdown = render_markdown(build_report(make_input(verification={})))
    section = markdown.split("## 検証")[1].split("## 方法")[0]
    assert "検証が実行されませんでした" in section


def test_method_lists_engines_sources_and_loops():
    markdown = render_markdown(build_report(make_input()))
    section = markdown.split("## 方法")[1].split("## 出典")[0]
    assert "duckduckgo, local" in section
    assert "**読み込んだソース**: 2" in section
    assert "**読み込めなかったソース**: 1" in section
    assert "**検証ループ回数**: 2" in section
    assert "富士山 最後の噴火" in section


def test_sources_are_numbered_with_title_url_language_time_and_marks():
    markdown = render_markdown(build_report(make_input()))
    lines = [line for line in markdown.split("## 出典")[1].splitlines() if line[:2] in ("1.", "2.", "3.")]
    assert len(lines) == 3
    assert lines[0].startswith("1. **[S1]** [宝永大噴火 - Wikipedia](<https://ja.wikipedia.org/wiki/宝永大噴火>)")
    assert "言語: ja" in lines[0] and "取得: 2025-03-01T10:00:00+09:00" in lines[0]
    # Brackets in a web page title cannot break the link; the space in the URL is encoded.
    assert r"[Fuji \[history\]](<https://example.org/fuji%20[1]>)" in lines[1]
    assert "不審なテキストを除去" in lines[1]
    assert "（無題）" in lines[2] and "読み込み失敗: HTTP 503" in lines[2]


def test_report_markdown_parses_back_to_the_same_source_links():
    markdown = render_markdown(build_report(make_input()))
    links = []

    def collect(blocks):
        for block in blocks:
            if isinstance(block, Paragraph):
                links.extend(span.href for span in block.spans if span.href)
            elif isinstance(block, ListBlock):
                for item in block.items:
                    collect(item)

    collect(parse_blocks(markdown))
    assert "https://ja.wikipedia.org/wiki/%E5%AE%9D%E6%B0%B8%E5%A4%A7%E5%99%B4%E7%81%AB" in links or \
        "https://ja.wikipedia.org/wiki/宝永大噴火" in links
    assert "https://www.jma.go.jp/x" in links


def test_parse_blocks_covers_lists_tables_code_quotes_and_inline_styles():
    blocks = parse_blocks(
        "Text with **bold**, *em*, `code` and [a link](https://a.example/?x=1&y=2).\n\n"
        "3. three\n4. four\n\n"
        "| a | b |\n|:-:|--:|\n| 1 | 2 |\n\n"
        "> quoted\n\n"
        "```py\nx < 1\n```\n"
    )
    paragraph, numbered, table, quote, code = blocks
    styles = {span.text: span for span in paragraph.spans}
    assert styles["bold"].bold and styles["em"].italic and styles["code"].code
    assert styles["a link"].href == "https://a.example/?x=1&y=2"
    assert isinstance(numbered, ListBlock) and numbered.ordered and numbered.start == 3 and len(numbered.items) == 2
    assert isinstance(table, TableBlock) and table.aligns == ["center", "right"] and len(table.rows) == 1
    assert isinstance(quote, Quote)
    assert isinstance(code, CodeBlock) and code.text == "x < 1" and code.info == "py"


def test_raw_html_and_bare_urls_in_model_output():
    [paragraph] = parse_blocks("<b>not bold</b> a < b & c see https://example.com/path.")
    text = "".join(span.text for span in paragraph.spans)
    assert text == "<b>not bold</b> a < b & c see https://example.com/path."
    assert not any(span.bold for span in paragraph.spans)
    assert [span.href for span in paragraph.spans if span.href] == ["https://example.com/path"]


@pytest.mark.parametrize(("source", "expected"), [("日本語の\n文章", "日本語の文章"), ("two\nlines", "two lines")])
def test_soft_line_breaks_join_japanese_without_a_space(source, expected):
    [paragraph] = parse_blocks(source)
    assert "".join(span.text for span in paragraph.spans) == expected


def test_parent_session_and_empty_body():
    doc = build_report(make_input(body_markdown="", parent_session="20250228_090000_zz99", sources=[]))
    markdown = render_markdown(doc)
    assert "**元のセッション**: `20250228_090000_zz99`" in markdown
    assert "出典は見つかりませんでした。" in markdown
    assert "## 調査結果" not in markdown


def test_follow_up_searches_are_text_not_python_dicts():
    data = make_input(language="ja")
    verification = data.verification.model_copy(update={"follow_up_queries": [
        FollowUpQuery(text="宝永噴火 期間", language="ja"), FollowUpQuery(text="Hoei eruption", language="en")]})
    markdown = render_markdown(build_report(data.model_copy(update={"verification": verification})))
    assert "- 宝永噴火 期間" in markdown and "- Hoei eruption" in markdown
    assert "{'text'" not in markdown and "'language'" not in markdown


def test_method_is_last_and_compact():
    markdown = render_markdown(build_report(make_input(language="en")))
    method = markdown.split("## Method")[1]
    assert "## " not in method  # nothing after it
    assert len([line for line in method.splitlines() if line.strip()]) <= 2

"""Evidence grading: each source's kind from its address and title, and its use in ranking ties."""

from __future__ import annotations

import pytest

from research.modules.text.passages import rank_passages
from research.modules.text.source_kind import KINDS, authority, source_kind


@pytest.mark.parametrize(
    ("url", "title", "kind"),
    [
        ("https://www.jma.go.jp/bosai/volcano/", "", "official"),
        ("https://www.mlit.go.jp/river/", "", "official"),
        ("https://www.city.fujiyoshida.lg.jp/", "", "official"),
        ("https://www.usgs.gov/volcanoes", "", "official"),
        ("https://www.gov.uk/guidance", "", "official"),
        ("https://www.who.int/news-room", "", "official"),
        ("https://www.u-tokyo.ac.jp/ja/", "", "academic"),
        ("https://web.mit.edu/research", "", "academic"),
        ("https://arxiv.org/abs/2401.00001", "", "academic"),
        ("https://doi.org/10.1000/xyz123", "", "academic"),
        ("https://www.jstage.jst.go.jp/article/kazan/", "", "academic"),  # a journal on a government domain
        ("https://pubmed.ncbi.nlm.nih.gov/123/", "", "academic"),
        ("https://en.wikipedia.org/wiki/Mount_Fuji", "", "reference"),
        ("https://ja.wikipedia.org/wiki/富士山", "", "reference"),
        ("https://kotobank.jp/word/富士山", "", "reference"),
        ("https://langchain-ai.github.io/langgraph/", "", "unknown"),
        ("https://docs.langchain.com/langgraph", "", "reference"),
        ("https://www3.nhk.or.jp/news/html/2024/", "", "news"),
        ("https://www.reuters.com/world/japan/", "", "news"),
        ("https://www.bbc.co.uk/news/world", "", "news"),
        ("https://news.yahoo.co.jp/articles/abc", "", "news"),
        ("https://www.toyota.co.jp/jpn/company/", "", "company"),
        ("https://example.com/about", "Example株式会社 公式サイト", "company"),
        ("https://someone.hatenablog.com/entry/2024/01/01", "", "blog"),
        ("https://medium.com/@someone/post", "", "blog"),
        ("https://qiita.com/user/items/1", "", "blog"),
        ("https://note.com/user/n/abc", "", "blog"),
        ("https://example.org/blog/fuji-trip", "", "blog"),
        ("https://www.reddit.com/r/japan/comments/x", "", "forum"),
        ("https://detail.chiebukuro.yahoo.co.jp/qa/question_detail/q1", "", "forum"),
        ("https://stackoverflow.com/questions/1", "", "forum"),
        ("https://softwareengineering.stackexchange.com/questions/1", "", "forum"),
        ("https://example.net/page", "富士山について - Yahoo!知恵袋", "forum"),
        ("https://example.net/paper.pdf", "Journal of Volcanology, vol. 12", "academic"),
        ("http://127.0.0.1:8080/en/mount-fuji.html", "Mount Fuji", "unknown"),
        ("file:///home/user/docs/notes.md", "notes", "unknown"),
        ("", "", "unknown"),
    ],
)
def test_kind_from_address_and_title(url, title, kind):
    assert source_kind(url, title) == kind


def test_a_lookalike_host_is_not_the_real_one():
    assert source_kind("https://notwikipedia.org/wiki/x") == "unknown"
    assert source_kind("https://wikipedia.org.evil.example/wiki/x") == "unknown"
    assert source_kind("https://gov.example.com/") == "unknown"


def test_authority_orders_the_kinds():
    assert [authority(k) for k in KINDS] == sorted(authority(k) for k in KINDS)
    assert authority("official") < authority("academic") < authority("news") < authority("blog") < authority("forum")
    assert authority(None) == authority("unknown") == authority("nonsense")


def _doc(label: str, url: str, text: str, kind: str | None = None) -> dict:
    doc = {"label": label, "url": url, "title": label, "markdown": text, "status": "ok"}
    if kind:
        doc["kind"] = kind
    return doc


def test_equal_scores_rank_the_more_authoritative_source_first():
    text = "Mount Fuji is 3,776 m tall."
    sources = [
        _doc("S1", "https://someone.hatenablog.com/entry/fuji", text),
        _doc("S2", "https://www.reddit.com/r/japan/fuji", text),
        _doc("S3", "https://www.gsi.go.jp/fuji", text),
        _doc("S4", "https://en.wikipedia.org/wiki/Mount_Fuji", text),
    ]
    ranked = rank_passages(sources, ["How tall is Mount Fuji?"])
    assert len({p.score for p in ranked}) == 1  # the same text: a tie everywhere
    assert [p.label for p in ranked] == ["S3", "S4", "S1", "S2"]


def test_the_stored_kind_wins_over_the_address_and_scores_still_come_first():
    sources = [
        _doc("S1", "https://www.reddit.com/r/japan/fuji", "Mount Fuji is 3,776 m tall. Mount Fuji height.", kind="forum"),
        _doc("S2", "https://example.com/x", "Mount Fuji is 3,776 m tall.", kind="official"),
    ]
    ranked = rank_passages(sources, ["Mount Fuji height"])
    # S1's passage says more of the question: a better score beats a better kind.
    assert ranked[0].label == "S1"
    tie = rank_passages([_doc("S1", "https://www.reddit.com/x", "Mount Fuji is tall.", kind="forum"),
                         _doc("S2", "https://example.com/x", "Mount Fuji is tall.", kind="official")], ["Mount Fuji"])
    assert [p.label for p in tie] == ["S2", "S1"]


# --- shown in the report, in both languages ---------------------------------------------------

from datetime import datetime, timezone  # noqa: E402

from pdfminer.high_level import extract_text  # noqa: E402

from research.modules.report.content import ReportInput, build_report  # noqa: E402
from research.modules.report.markdown import render_markdown  # noqa: E402
from research.modules.report.pdf import render_pdf  # noqa: E402


def _report(lang: str):
    return build_report(ReportInput(
        question="富士山の高さは？" if lang == "ja" else "How tall is Mount Fuji?", language=lang, model="m",
        generated_at=datetime(2026, 1, 1, tzinfo=timezone.utc), session_id="s",
        body_markdown="Mount Fuji is 3,776 m tall [S1][S2][S3].",
        sources=[{"label": "S1", "url": "https://www.gsi.go.jp/fuji", "title": "GSI", "kind": "official"},
                 {"label": "S2", "url": "https://www.reddit.com/r/japan", "title": "Reddit", "kind": "forum"},
                 {"label": "S3", "url": "http://127.0.0.1/x", "title": "Local", "kind": "unknown"}],
        disagreements=[{"topic": "height", "positions": [{"value": "3776 m", "labels": ["S1"]},
                                                          {"value": "3778 m", "labels": ["S2"]}]}],
    ))


@pytest.mark.parametrize(("lang", "official", "forum", "heading"), [
    ("en", "type: official", "type: forum", "Where the sources disagree"),
    ("ja", "種別: 公的機関", "種別: 掲示板・Q&A", "資料間で食い違う点"),
])
def test_kinds_and_disagreements_in_report_md_and_pdf(tmp_path, lang, official, forum, heading):
    report = _report(lang)
    markdown = render_markdown(report)
    lines = {line.split("**")[1]: line for line in markdown.splitlines() if line[:1].isdigit() and "**[" in line}
    assert official in lines["[S1]"] and forum in lines["[S2]"]
    assert "unknown" not in lines["[S3]"] and "不明" not in lines["[S3]"]  # an unknown kind says nothing
    assert f"## {heading}" in markdown and "3776 m [S1]" in markdown and "3778 m [S2]" in markdown
    render_pdf(report, tmp_path / "r.pdf")
    text = " ".join(extract_text(str(tmp_path / "r.pdf")).split())
    assert official in text and forum in text and heading in text
    assert "3776 m [S1]" in text and "3778 m [S2]" in text

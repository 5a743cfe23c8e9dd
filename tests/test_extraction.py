"""Content sniffing, charset detection and main-text extraction (modules/parsing/extraction.py)."""

from __future__ import annotations

import random

import pytest

from fixtures.web_fixture import (
    BOILERPLATE_MARKERS,
    FUJI_EUCJP,
    FUJI_PDF_JA,
    FUJI_SJIS,
    LANGGRAPH_EN,
    LANGGRAPH_PDF_EN,
    build_pdf,
    render_html,
)
from research.modules.parsing.extraction import UnsupportedContent, extract


def test_html_article_without_boilerplate() -> None:
    page = render_html(LANGGRAPH_EN).encode("utf-8")
    result = extract(page, "text/html; charset=utf-8", "https://example.com/a")
    assert result.media_type == "text/html"
    assert result.title == "LangGraph checkpoints"
    assert "A checkpoint is saved after every super-step of the graph." in result.markdown
    assert "thread_id identifies a thread" in result.markdown  # no Markdown escape inside words
    for marker in BOILERPLATE_MARKERS:
        assert marker not in result.markdown


def test_shift_jis_page_decodes_from_meta_charset() -> None:
    page = render_html(FUJI_SJIS, "Shift_JIS").encode("shift_jis")
    result = extract(page, "text/html", "")  # header names no charset: only <meta> knows
    assert result.text_encoding == "cp932"
    assert "富士山の登山シーズンは毎年7月上旬から9月上旬までです。" in result.markdown
    assert "NAV-MENU-MARKER" not in result.markdown


def test_euc_jp_page_decodes_from_http_header() -> None:
    html = render_html(FUJI_EUCJP, "EUC-JP").replace('<meta charset="EUC-JP">\n', "")
    result = extract(html.encode("euc_jp"), "text/html; charset=EUC-JP", "")
    assert result.text_encoding == "euc_jp"
    assert "最後の噴火は1707年の宝永噴火" in result.markdown
    for marker in BOILERPLATE_MARKERS:
        assert marker not in result.markdown


def test_wrong_header_charset_falls_back_to_a_decoding_that_works() -> None:
    html = render_html(FUJI_SJIS, "Shift_JIS").encode("shift_jis")
    result = extract(html, "text/html; charset=utf-8", "")  # a lying header
    assert "吉田ルート" in result.markdown


def test_pdf_is_sniffed_even_when_declared_as_html() -> None:
    result = extract(build_pdf(LANGGRAPH_PDF_EN), "text/html", "")
    assert result.media_type == "application/pdf"
    assert result.text_encoding is None
    assert result.title == "LangGraph checkpoints: a technical note"
    assert "A checkpoint is saved after every super-step." in result.markdown


def test_japanese_pdf_lines_rejoin_without_spaces() -> None:
    result = extract(build_pdf(FUJI_PDF_JA), "application/pdf", "")
    assert "富士山の標高は3,776メートルです。" in result.markdown
    assert "富士山の最後の噴火は1707年の宝永噴火で" in result.markdown


def test_random_bytes_claimed_as_html_are_refused() -> None:
    junk = random.Random(7).randbytes(20_000)
    with pytest.raises(UnsupportedContent):
        extract(junk, "text/html", "")


def test_images_and_broken_pdfs_are_refused() -> None:
    with pytest.raises(UnsupportedContent, match="PNG"):
        extract(b"\x89PNG\r\n\x1a\n" + b"\x00" * 100, "text/html", "")
    with pytest.raises(UnsupportedContent):
        extract(b"%PDF-1.7\nthis is not really a pdf", "application/pdf", "")
    with pytest.raises(UnsupportedContent):
        extract(b"plain words", "application/pdf", "")


def test_markdown_and_plain_text() -> None:
    md = extract("# 見出し\n\n本文です。".encode(), "text/markdown", "")
    assert (md.media_type, md.title) == ("text/markdown", "見出し")
    text = extract(b"First line\nsecond line", None, "notes.txt")
    assert (text.media_type, text.title, text.markdown) == ("text/plain", "First line", "First line\nsecond line")


def test_html_without_declared_type_is_recognised() -> None:
    page = b"<!DOCTYPE html><html><head><title>T</title></head><body><main><p>Hello there.</p></main></body></html>"
    result = extract(page, "application/octet-stream", "")
    assert result.media_type == "text/html"
    assert "Hello there." in result.markdown

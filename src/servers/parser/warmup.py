"""Imported once by the parser's fork server, before any document arrives.

Every document is parsed in a fresh fork of that server, so whatever the parsers set up
lazily on first use (trafilatura's language data, compiled patterns) would otherwise be
paid again by every document. Doing one tiny parse here makes every child start warm.
"""

from __future__ import annotations

_SAMPLE_HTML = (
    b"<html><head><title>warm-up</title></head><body><article><h1>Warm-up</h1>"
    b"<p>This short page is parsed once so that the parsers are initialised in 2024 "
    b"before real documents arrive.</p><p>\xe3\x81\x93\xe3\x82\x8c\xe3\x81\xaf\xe6\x96\x87"
    b"\xe3\x81\xa7\xe3\x81\x99\xe3\x80\x82</p></article></body></html>"
)


def _warm() -> None:
    from research.modules.parsing.analysis import analyze_document
    from research.modules.parsing.extraction import extract

    try:
        extracted = extract(_SAMPLE_HTML, "text/html", "https://example.invalid/warm-up")
        analyze_document(extracted.markdown, title=extracted.title, html=_SAMPLE_HTML)
    except Exception:  # noqa: BLE001 - a failed warm-up only costs speed, never correctness
        pass


_warm()

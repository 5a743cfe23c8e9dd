"""What the parser's fork server imports and runs once, before any document arrives.

Every document is parsed in a fresh fork of that server, so whatever the parsers set up
lazily on first use would otherwise be paid again by every document. The one tiny parse
here builds, above all, trafilatura's jusText stop words for every language (about 6 MB,
held as arrays: see ``extraction._share_justext_stoplist``; 0.1-0.2 s to build, which each
child that falls back to jusText would pay again).

What is imported is what HTML needs, which is most pages. pdfminer (about 11 MB) is
imported by the child that gets a PDF, and markdownify (with BeautifulSoup) by a child
whose page trafilatura could not read, so a run without them never holds them.
"""

from __future__ import annotations

from research.modules.core.heap import return_free_memory

_SAMPLE_HTML = (
    b"<html><head><title>warm-up</title></head><body><article><h1>Warm-up</h1>"
    b"<p>This short page is parsed once so that the parsers are initialised in 2024 "
    b"before real documents arrive.</p><p>\xe3\x81\x93\xe3\x82\x8c\xe3\x81\xaf\xe6\x96\x87"
    b"\xe3\x81\xa7\xe3\x81\x99\xe3\x80\x82</p></article></body></html>"
)


def preload() -> None:
    """Import the HTML parsers and parse a sample page with them. A failure here (a parser
    that will not import, too little memory) only costs speed: each child then imports
    what it needs itself, and a document that cannot be parsed says why."""
    try:
        import lxml.html  # noqa: F401 - what the children parse HTML with
        import trafilatura  # noqa: F401

        from research.modules.parsing.analysis import analyze_document
        from research.modules.parsing.extraction import extract

        extracted = extract(_SAMPLE_HTML, "text/html", "https://example.invalid/warm-up")
        analyze_document(extracted.markdown, title=extracted.title, html=_SAMPLE_HTML)
    except Exception:  # noqa: BLE001 - see above
        pass
    # What the warm-up built and let go (one language's stop words at a time above all) leaves
    # about 4 MB of free heap between the blocks it keeps, resident otherwise in the fork server
    # for as long as it lives: handed back before any child is forked.
    return_free_memory()

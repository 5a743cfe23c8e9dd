"""Turn fetched bytes into readable Markdown: HTML, PDF, plain text and Markdown.

The declared media type is a hint, not the truth: servers label PDFs as
``application/octet-stream`` and junk as ``text/html``. So the bytes are sniffed
first (``%PDF`` magic, image/archive magic, control-byte share, HTML tags), HTML is
decoded with the charset the page itself declares (BOM > HTTP header > ``<meta>`` >
strict UTF-8 > statistical guess), and the article is cut out of its page by
trafilatura, with a tag-stripping markdownify pass as the fallback.
"""

from __future__ import annotations

import codecs
import io
import re
from dataclasses import dataclass
from functools import lru_cache

from research.modules.parsing.stop_words import StopWords

MAX_TITLE_CHARS = 200

HTML = "text/html"
PDF = "application/pdf"
TEXT = "text/plain"
MARKDOWN = "text/markdown"


class UnsupportedContent(Exception):
    """The bytes are not a document we can read (binary junk, images, a broken PDF)."""


@dataclass(frozen=True)
class Extracted:
    title: str
    markdown: str
    media_type: str  # what the bytes really are (sniffed), one of the constants above
    text_encoding: str | None  # the codec used to decode text; None for PDF


def extract(data: bytes, media_type: str | None, url: str = "") -> Extracted:
    """Extract title and main text (as Markdown) from ``data``.

    Raises ``UnsupportedContent`` with a readable reason when the bytes are not a
    document (binary junk, an image, an unreadable PDF)."""
    declared, header_charset = parse_content_type(media_type)
    kind = sniff(data, declared, url)
    if kind == PDF:
        return _extract_pdf(data)
    text, encoding = decode_text(data, header_charset, kind == HTML)
    _refuse_garbled(text)
    if kind == HTML:
        return _extract_html(text, encoding, url)
    if kind == MARKDOWN:
        return Extracted(title=_markdown_title(text), markdown=text.strip(), media_type=MARKDOWN, text_encoding=encoding)
    return Extracted(title=_first_line(text), markdown=text.strip(), media_type=TEXT, text_encoding=encoding)


# --------------------------------------------------------------------------- sniffing

_BINARY_MAGIC = {
    b"\x89PNG": "a PNG image",
    b"\xff\xd8\xff": "a JPEG image",
    b"GIF8": "a GIF image",
    b"PK\x03\x04": "a ZIP archive (or an Office document)",
    b"\x1f\x8b": "a gzip archive",
    b"RIFF": "a RIFF media file",
    b"\x7fELF": "an executable",
}
_HTML_HINT = re.compile(rb"<!doctype\s+html|<html[\s>]|<head[\s>]|<body[\s>]|<title[\s>]|<meta\s|<div[\s>]|<p[\s>]", re.I)
_STRONG_HTML_HINT = re.compile(rb"^\s*(?:<\?xml[^>]*>\s*)?(?:<!--.*?-->\s*)*(?:<!doctype\s+html|<html[\s>])", re.I | re.S)
# Bytes that never occur in text in any encoding we decode (UTF-16 is caught by its BOM first).
_CONTROL_BYTES = re.compile(rb"[\x00-\x08\x0b\x0e-\x1a\x1c-\x1f]")
MAX_CONTROL_SHARE = 0.02


def parse_content_type(value: str | None) -> tuple[str | None, str | None]:
    """``"text/html; charset=EUC-JP"`` -> ``("text/html", "EUC-JP")``."""
    if not value:
        return None, None
    parts = [p.strip() for p in value.split(";")]
    mime = parts[0].lower() or None
    charset = None
    for param in parts[1:]:
        name, _, val = param.partition("=")
        if name.strip().lower() == "charset" and val.strip():
            charset = val.strip().strip("\"'")
    return mime, charset


def sniff(data: bytes, declared: str | None, url: str = "") -> str:
    """What the bytes really are: HTML, PDF, TEXT or MARKDOWN (or ``UnsupportedContent``)."""
    head = data[:2048]
    if b"%PDF-" in data[:1024]:  # the PDF spec allows junk before the header
        return PDF
    for magic, what in _BINARY_MAGIC.items():
        if head.startswith(magic):
            raise UnsupportedContent(f"the content is {what}, not a document")
    if not head.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)):
        sample = data[:65536]
        if sample and len(_CONTROL_BYTES.findall(sample)) / len(sample) > MAX_CONTROL_SHARE:
            raise UnsupportedContent("the content is binary data, not text")
    if declared == PDF:
        raise UnsupportedContent("declared as PDF but the bytes are not a PDF")
    path = url.split("?", 1)[0].split("#", 1)[0].lower()
    if _STRONG_HTML_HINT.search(head):
        return HTML
    if declared in (MARKDOWN, "text/x-markdown") or path.endswith((".md", ".markdown")):
        return MARKDOWN
    if declared == TEXT or path.endswith(".txt"):
        return TEXT
    if declared in (HTML, "application/xhtml+xml") or _HTML_HINT.search(head):
        return HTML
    return TEXT


# --------------------------------------------------------------------------- decoding

_META_CHARSET = re.compile(rb"""<meta[^>]+charset\s*=\s*["']?\s*([A-Za-z0-9_:.\-]+)""", re.I)
# Names pages use that Python spells differently, or where a superset decodes more pages right.
_CHARSET_ALIASES = {
    "shift_jis": "cp932",
    "shift-jis": "cp932",
    "sjis": "cp932",
    "x-sjis": "cp932",
    "ms_kanji": "cp932",
    "windows-31j": "cp932",
    "euc-jp": "euc_jp",
    "x-euc-jp": "euc_jp",
    "iso-8859-1": "cp1252",  # browsers decode latin-1 labels as windows-1252
    "latin1": "cp1252",
    "us-ascii": "utf-8",
}


def _codec(name: str | None) -> str | None:
    if not name:
        return None
    name = _CHARSET_ALIASES.get(name.strip().lower(), name.strip().lower())
    try:
        return codecs.lookup(name).name
    except LookupError:
        return None


def decode_text(data: bytes, header_charset: str | None = None, is_html: bool = True) -> tuple[str, str]:
    """Decode with BOM > HTTP header > ``<meta>`` > strict UTF-8 > statistical guess."""
    for bom, bom_codec in ((codecs.BOM_UTF8, "utf-8"), (codecs.BOM_UTF16_LE, "utf-16-le"),
                           (codecs.BOM_UTF16_BE, "utf-16-be")):
        if data.startswith(bom):
            return data[len(bom) :].decode(bom_codec, errors="replace"), bom_codec
    candidates = [_codec(header_charset)]
    if is_html:
        match = _META_CHARSET.search(data[:4096])
        candidates.append(_codec(match.group(1).decode("ascii", "ignore")) if match else None)
    candidates.append("utf-8")
    for codec in candidates:
        if codec is None:
            continue
        try:
            return data.decode(codec), codec
        except (UnicodeDecodeError, LookupError):
            continue  # a wrong label: try the next witness
    from charset_normalizer import from_bytes

    best = from_bytes(data[:200_000]).best()
    codec = _codec(best.encoding) if best is not None else None
    codec = codec or "utf-8"
    return data.decode(codec, errors="replace"), codec


def _refuse_garbled(text: str) -> None:
    """Text that decodes to mostly replacement/control characters is junk, whatever it claims."""
    sample = text[:65536]
    if not sample:
        return
    bad = sum(1 for ch in sample if ch == "\ufffd" or (ord(ch) < 32 and ch not in "\t\n\r\f\x1b"))
    if bad / len(sample) > 0.05:
        raise UnsupportedContent("the content is not readable text (too many invalid characters)")


# --------------------------------------------------------------------------- HTML

_XML_DECLARATION = re.compile(r"^\s*<\?xml[^>]*\?>", re.I)
_TITLE_TAG = re.compile(r"<title[^>]*>(.*?)</title>", re.I | re.S)
# Fallback cleaning: what is never article text.
_DROP_TAGS = ("script", "style", "noscript", "nav", "header", "footer", "aside", "form", "iframe", "svg", "button")
_BOILERPLATE_ATTR = re.compile(
    r"cookie|consent|gdpr|banner|advert|\bads?\b|sponsor|promo|sidebar|newsletter|subscribe|popup|modal|share|social|breadcrumb|menu|nav",
    re.I,
)


def _extract_html(text: str, encoding: str, url: str) -> Extracted:
    text = _XML_DECLARATION.sub("", text, count=1)  # lxml refuses str with an encoding declaration
    title = _html_title(text)
    # trafilatura alone keeps the navigation of short pages (it falls back to a baseline
    # that takes everything), so obvious boilerplate is pruned before it looks.
    pruned = _prune_boilerplate(text)
    markdown = _trafilatura_markdown(pruned, url) if pruned else ""
    if not markdown and pruned:
        markdown = _markdownify_main(pruned)
    markdown = _tidy_markdown(markdown)
    if not title:
        title = _markdown_title(markdown)
    return Extracted(title=title, markdown=markdown, media_type=HTML, text_encoding=encoding)


def _html_title(text: str) -> str:
    match = _TITLE_TAG.search(text[:100_000])
    if not match:
        return ""
    import html as html_lib

    return _clip(" ".join(html_lib.unescape(re.sub(r"<[^>]+>", "", match.group(1))).split()))


def _prune_boilerplate(text: str) -> str:
    """The page without scripts, navigation, cookie banners, ads and footers, as HTML."""
    import lxml.html
    from lxml import etree

    try:
        root = lxml.html.fromstring(text)
    except (etree.ParserError, ValueError):
        return ""
    for element in list(root.iter(*_DROP_TAGS)):
        if element.getparent() is not None and not _holds_article(element):
            element.drop_tree()
    _drop_hidden(root)
    total = len(root.text_content()) or 1
    for element in list(root.iter()):
        if not isinstance(element.tag, str) or element.getparent() is None:
            continue
        if element.tag in ("html", "body", "main", "article"):
            continue
        marker = f"{element.get('id', '')} {element.get('class', '')} {element.get('role', '')}"
        if not _BOILERPLATE_ATTR.search(marker) or _holds_article(element):
            continue
        # A wrapper with a boilerplate-sounding class ("page nav-open") may hold the page itself.
        if len(element.text_content()) > 0.4 * total:
            continue
        element.drop_tree()
    return lxml.html.tostring(root, encoding="unicode")


# Inline styles that hide text from the reader while leaving it for a scraper: the usual
# carrier of instructions written for the model. Stylesheets are not evaluated.
_HIDDEN_STYLE = re.compile(
    r"""display\s*:\s*none|visibility\s*:\s*(hidden|collapse)|opacity\s*:\s*0(\.0*)?\s*(;|$|!)
    |(?<![-\w])(font-size|width|height|max-height|max-width)\s*:\s*0(\.0*)?\s*(px|pt|em|rem|%)?\s*(;|$|!)
    |(left|top|right|text-indent|margin-left)\s*:\s*-\d{3,}
    |clip\s*:\s*rect\(\s*0|clip-path\s*:\s*inset\(\s*50%""",
    re.I | re.X,
)


def _is_hidden(element: object) -> bool:
    get = element.get  # type: ignore[attr-defined]
    if get("hidden") is not None or (get("aria-hidden") or "").strip().lower() == "true":
        return True
    return bool(_HIDDEN_STYLE.search(get("style") or ""))


def _drop_hidden(root: object) -> None:
    """Remove elements a reader cannot see (``hidden``, ``aria-hidden="true"``,
    display:none, visibility:hidden, zero size or opacity, pushed off-screen): text there
    is written for machines, and a page's hidden instructions must not reach the model."""
    for element in list(root.iter()):  # type: ignore[attr-defined]
        if not isinstance(element.tag, str) or element.tag in ("html", "body"):
            continue
        if element.getparent() is not None and _is_hidden(element):
            element.drop_tree()


def _holds_article(element: object) -> bool:
    return any(True for _ in element.iter("main", "article", "h1"))  # type: ignore[attr-defined]


@lru_cache(maxsize=1)
def _share_justext_stoplist() -> None:
    """Give trafilatura's jusText fallback its stop words once, in the form jusText reads.
    trafilatura keeps every language's words as a tuple and jusText lower-cases that tuple
    into a frozenset (``define_stoplist``) at every page, about 15 MB each. Here the words
    (lower-case already: jusText's ``get_stoplist`` lowers them) are built once, in the fork
    server's warm-up, so that every document's child shares them and none builds them again
    (0.1-0.2 s), and held as ``stop_words.StopWords``: the same words in about 2 MB instead
    of 18 MiB. A jusText or trafilatura without these names keeps its own way."""
    try:
        import justext.core
        from justext.utils import get_stoplist, get_stoplists
        from trafilatura import external
    except ImportError:
        return
    lowered = getattr(justext.core, "define_stoplist", None)
    if lowered is None or getattr(external, "JT_STOPLIST", ()) is not None:
        return
    words = StopWords(map(get_stoplist, get_stoplists()))  # one language's list at a time

    def define_stoplist(stoplist: object) -> object:
        return stoplist if stoplist is words else lowered(stoplist)

    justext.core.define_stoplist = define_stoplist
    external.JT_STOPLIST = words  # type: ignore[assignment]  # declared None: trafilatura fills it on first use


def _trafilatura_markdown(text: str, url: str) -> str:
    import trafilatura

    _share_justext_stoplist()
    try:
        result = trafilatura.extract(
            text,
            url=url or None,
            output_format="markdown",
            include_comments=False,
            include_tables=True,
            include_images=False,
            include_links=False,
            favor_recall=True,  # short articles (a few sentences) must not come back empty
        )
    except Exception:  # noqa: BLE001 - trafilatura/lxml raise many types on odd markup; fall back
        return ""
    return (result or "").strip()


def _markdownify_main(pruned: str) -> str:
    """Convert the pruned page to Markdown, keeping <main>/<article> when present."""
    import lxml.html
    from lxml import etree
    from markdownify import markdownify

    try:
        root = lxml.html.fromstring(pruned)
    except (etree.ParserError, ValueError):
        return ""
    main = root.find(".//main")
    if main is None:
        main = root.find(".//article")
    if main is None:
        main = root.find(".//body")
    if main is None:
        main = root
    return markdownify(lxml.html.tostring(main, encoding="unicode"), heading_style="ATX").strip()


def _tidy_markdown(markdown: str) -> str:
    # Intra-word underscores need no escape in CommonMark; "thread\\_id" would break quoting.
    markdown = re.sub(r"(?<=\w)\\_(?=\w)", "_", markdown)
    lines = [line.rstrip() for line in markdown.splitlines()]
    return re.sub(r"\n{3,}", "\n\n", "\n".join(lines)).strip()


# --------------------------------------------------------------------------- PDF

_CJK = re.compile(r"[\u3000-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uff00-\uffef]")


def _extract_pdf(data: bytes) -> Extracted:
    from pdfminer.high_level import extract_text
    from pdfminer.pdfdocument import PDFDocument
    from pdfminer.pdfparser import PDFParser

    try:
        raw = extract_text(io.BytesIO(data))
    except Exception as exc:  # noqa: BLE001 - pdfminer raises a zoo of types for broken files
        raise UnsupportedContent(f"the PDF could not be read: {type(exc).__name__}") from None
    markdown = _pdf_text_to_markdown(raw)
    if not markdown:
        raise UnsupportedContent("the PDF has no text layer (a scanned image?)")
    title = ""
    try:
        info = PDFDocument(PDFParser(io.BytesIO(data))).info
        value = info[0].get("Title") if info else None
        if isinstance(value, bytes):
            title = _decode_pdf_string(value)
        elif isinstance(value, str):
            title = value
    except Exception:  # noqa: BLE001 - metadata is optional; the text is what matters
        title = ""
    return Extracted(title=_clip(title.strip()) or _first_line(markdown), markdown=markdown, media_type=PDF, text_encoding=None)


def _decode_pdf_string(value: bytes) -> str:
    if value.startswith(codecs.BOM_UTF16_BE):
        return value[2:].decode("utf-16-be", errors="replace")
    return value.decode("latin-1", errors="replace")


def _pdf_text_to_markdown(raw: str) -> str:
    """Re-join the lines pdfminer broke inside paragraphs (no space between CJK characters)."""
    paragraphs = []
    for block in re.split(r"\n\s*\n|\f", raw):
        lines = [line.strip() for line in block.splitlines() if line.strip()]
        if not lines:
            continue
        joined = lines[0]
        for line in lines[1:]:
            if joined.endswith("-") and line[:1].islower():
                joined = joined[:-1] + line  # a word hyphenated across lines
            elif _CJK.match(joined[-1]) and _CJK.match(line[0]):
                joined += line
            else:
                joined += " " + line
        paragraphs.append(joined)
    return "\n\n".join(paragraphs)


# --------------------------------------------------------------------------- titles


def _clip(text: str) -> str:
    return text if len(text) <= MAX_TITLE_CHARS else text[: MAX_TITLE_CHARS - 1] + "…"


def _first_line(text: str) -> str:
    for line in text.splitlines():
        if line.strip():
            return _clip(line.strip().lstrip("#").strip())
    return ""


def _markdown_title(text: str) -> str:
    for line in text.splitlines():
        if re.match(r"#{1,6}\s+\S", line):
            return _clip(line.lstrip("#").strip())
    return _first_line(text)

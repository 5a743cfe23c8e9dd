"""One sanitiser for document-derived text on its way to a terminal, report.md, the PDF,
progress.md, stdout, ``--json`` and the MCP research server's results.

Pages, PDFs, search results and the model (which repeats them) are untrusted. Before
any of their text is shown:
- terminal control is removed: escape sequences (CSI ``ESC [``, OSC ``ESC ]`` with
  OSC 52 clipboard writes and window titles, DCS/APC/PM/SOS strings, two-byte ``ESC x``),
  a bare ESC, C0 and C1 control characters, and the bidi controls that make text read
  differently from how it is stored (Trojan Source); newlines and tabs stay only where
  the caller keeps lines;
- a link is a link only for http, https and mailto (``safe_url``);
- raw HTML in Markdown is escaped so it reads as text (``escape_html``);
- Markdown is made inert as a whole by ``safe_markdown``, JSON-like data by ``clean_data``,
  and text for a Rich console by ``for_terminal`` (Rich markup escaped too).
"""

from __future__ import annotations

import re
from typing import Any
from urllib.parse import urlsplit

# The controls themselves are part of the one lexical grammar (the log lines use it too).
from research.modules.core.grammar import strip_controls

SAFE_SCHEMES = ("http", "https", "mailto")


def one_line(text: str, limit: int | None = None) -> str:
    """A title, URL or error as one clean line, cut to ``limit`` characters with …."""
    line = strip_controls(text, keep_newlines=False)
    return shorten(line, limit) if limit else line


def shorten(text: str, limit: int = 40) -> str:
    """``text`` cut to ``limit`` characters plus … (a 5,000-character id shows 40)."""
    text = strip_controls(str(text), keep_newlines=False)
    return text if len(text) <= limit else text[:limit] + "…"


def safe_url(url: str) -> str | None:
    """``url`` when it is an http(s) or mailto link, else None (show it as text only).

    javascript:, data:, file:, vbscript: and scheme-less or obfuscated forms
    ("java\\tscript:", leading spaces, entities) never become links.
    """
    cleaned = strip_controls(url or "", keep_newlines=False).strip()
    # Browsers drop whitespace inside a scheme ("java script:"): judge the compact form.
    compact = re.sub(r"\s", "", cleaned)
    if not compact or "&#" in compact or "&colon" in compact.lower():
        return None
    try:
        parts = urlsplit(compact)
    except ValueError:
        return None
    scheme = parts.scheme.lower()
    if scheme not in SAFE_SCHEMES or not cleaned.lower().startswith(scheme + ":"):
        return None
    if scheme in ("http", "https") and not parts.netloc:
        return None
    return cleaned


_TAG_START = re.compile(r"<(?=[A-Za-z/!?])")


def escape_html(text: str) -> str:
    """Every ``<`` that could open a tag, comment or declaration as ``&lt;``: a
    ``<script>`` from a page or the model reads as text. Other characters stay, so
    ``a < b`` and Markdown quotes (``>``) read as before."""
    return _TAG_START.sub("&lt;", text)


# --- Markdown written by the model -------------------------------------------------
_MD_LINK = re.compile(r"(!?)\[((?:[^\[\]\\]|\\.)*)\]\(\s*<?([^()<>\s]*(?:\([^()\s]*\)[^()<>\s]*)*)>?(\s+\"[^\"]*\")?\s*\)")
_AUTOLINK = re.compile(r"<([a-zA-Z][a-zA-Z0-9+.\-]{1,31}:[^<>\s]*)>")
_REFERENCE_DEF = re.compile(r"^( {0,3}\[[^\]]+\]:\s*)(\S+)(.*)$", re.MULTILINE)


def safe_markdown(markdown: str) -> str:
    """Model-written Markdown with nothing live in it but http(s)/mailto links.

    Control characters go, raw HTML is escaped (so ``<script>``/``<iframe>`` show as
    text), images become plain links (no remote image is fetched when report.md is
    opened), and a link to any other scheme keeps only its text.
    """
    text = strip_controls(markdown)

    def link(match: re.Match[str]) -> str:
        bang, label, target = match.group(1), match.group(2), match.group(3)
        url = safe_url(target)
        if url is None:
            return label or ""
        if bang:  # an image: a link the reader may follow, never an automatic fetch
            return f"[{label or url}](<{url}>)"
        return f"[{label}](<{url}>)"

    # Links first (their URLs contain no HTML after this), then HTML, protecting links:
    # each safe link is set aside behind a NUL-delimited index (strip_controls removed
    # every NUL of the input, so no text can forge one) and put back after escaping.
    protected: list[str] = []

    def keep(fragment: str) -> str:
        protected.append(fragment)
        return f"\x00{len(protected) - 1}\x00"

    text = _MD_LINK.sub(lambda m: keep(link(m)), text)
    text = _AUTOLINK.sub(lambda m: keep(f"<{url}>") if (url := safe_url(m.group(1))) else escape_html(m.group(0)), text)
    text = _REFERENCE_DEF.sub(lambda m: m.group(0) if safe_url(m.group(2)) else m.group(1) + "#" + m.group(3), text)
    text = escape_html(text)
    return re.sub(r"\x00(\d+)\x00", lambda m: protected[int(m.group(1))], text)


def clean_data(value: Any) -> Any:
    """JSON-like data (``--json`` output, MCP structured results) with every string, keys
    included, through ``strip_controls``: a JSON encoder escapes C0 controls but passes
    8-bit CSI, OSC bytes and bidi marks straight to the terminal or host that shows it."""
    if isinstance(value, str):
        return strip_controls(value)
    if isinstance(value, dict):
        return {clean_data(key) if isinstance(key, str) else key: clean_data(item) for key, item in value.items()}
    if isinstance(value, (list, tuple)):
        return [clean_data(item) for item in value]
    return value


def for_terminal(text: str, *, keep_newlines: bool = True) -> str:
    """Untrusted text for a Rich console or table: control characters gone and Rich markup
    escaped, so a source's ``[link=file:///…]`` or ``[red]`` is shown as typed, never obeyed."""
    from rich.markup import escape  # noqa: PLC0415 - only the terminal paths need Rich

    return escape(strip_controls(text, keep_newlines=keep_newlines))

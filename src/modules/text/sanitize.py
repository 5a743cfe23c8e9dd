"""One sanitiser for document-derived text on its way to a terminal, report.md, the PDF,
progress.md, stdout, ``--json`` and the MCP research server's results.

Pages, PDFs, search results and the model (which repeats them) are untrusted. Before
any of their text is shown:
- terminal control is removed: escape sequences (CSI ``ESC [``, OSC ``ESC ]`` with
  OSC 52 clipboard writes and window titles, DCS/APC/PM/SOS strings, two-byte ``ESC x``),
  a bare ESC, C0 and C1 control characters, and the bidi controls that make text read
  differently from how it is stored (Trojan Source); newlines and tabs stay only where
  the caller keeps lines;
- a link is a link only for http, https and mailto (``safe_url``); in Markdown, only
  http(s), and no image at all;
- raw HTML in Markdown is escaped so it reads as text (``escape_html``);
- Markdown is parsed and written again inert by ``safe_markdown``, JSON-like data by ``clean_data``,
  and text for a Rich console by ``for_terminal`` (Rich markup escaped too).
"""

from __future__ import annotations

import re
from typing import Any
from urllib.parse import urlsplit

# The controls themselves are part of the one lexical grammar (the log lines use it too).
import mdurl
from markdown_it import MarkdownIt
from markdown_it.token import Token
from markdown_it.tree import SyntaxTreeNode

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


# --- Markdown written by the model (or a page) --------------------------------------
# Parsed, then written again from the tokens: no pattern decides what is a link. The
# parser is the report's own (CommonMark + tables + strikethrough, raw HTML off) with one
# change: ``validateLink`` accepts every URL, so a javascript: or file: link is a link
# token here (markdown-it would leave it as text that another renderer may still link)
# and is judged below like any other.
_MARKDOWN = MarkdownIt("commonmark", {"html": False}).enable(["table", "strikethrough"]).disable("text_join")
_MARKDOWN.validateLink = lambda url: True  # type: ignore[method-assign]  # every link and image is seen, and judged by _web_link
_LIVE_INLINE = frozenset({"link_open", "image", "html_inline"})
_MAX_PASSES = 3  # what needs more (links nested in links) is written strict
_STRICT_ESCAPES = str.maketrans({"[": "\\[", "]": "\\]", "<": "&lt;"})


# What markdown-it percent-encodes and may be shown again as written: letters beyond ASCII
# and a few ASCII marks; never a space, control, ``<``, ``>``, backslash, backtick or ``|``.
_KEEP_ENCODED = "".join(char for char in map(chr, range(128)) if char not in '[]^{}"')


def _web_link(href: str) -> str | None:
    """``href`` (as markdown-it normalised it: percent-encoded) when it is an http(s) URL
    with a host, the only links Markdown keeps; else None. It is shown as written where
    that is safe (``/wiki/富士山``, ``fuji%20[1]``): the URL stays one inert ``<…>``
    destination."""
    url = safe_url(href)
    if url is None or urlsplit(url).scheme.lower() not in ("http", "https"):
        return None
    shown = mdurl.decode(url, _KEEP_ENCODED)
    return shown if strip_controls(shown, keep_newlines=False) == shown and not re.search(r"\s", shown) else url


def safe_markdown(markdown: str) -> str:
    """Markdown from the model or a page with nothing live in it but http(s) links.

    The text is parsed with markdown-it and written again from its tokens: every image
    becomes its alt text (nothing is fetched when report.md or the PDF is opened), every
    link is an inline ``[text](<https://…>)`` or only its text, reference definitions are
    gone (a link that used one is written inline), raw HTML is escaped so it reads as text,
    and control characters go. A block with nothing live in it keeps its source text as
    written (citations such as ``[S1]`` included).

    Dropping a link can join its text with brackets around it into a new link
    (``[a [b](javascript:x) c](javascript:y)``), so the result is parsed again until
    nothing changes; should that not settle, every bracket in text is escaped."""
    text = strip_controls(markdown)
    for _ in range(_MAX_PASSES):
        rebuilt = _MarkdownWriter(strict=False).document(text)
        if rebuilt == text:
            return text
        text = rebuilt
    return _MarkdownWriter(strict=True).document(text)


class _MarkdownWriter:
    """Markdown written again from markdown-it's syntax tree. ``strict``: every inline run
    is rewritten and brackets in its text escaped, so no link can form but those written."""

    def __init__(self, *, strict: bool) -> None:
        self.strict = strict

    def document(self, markdown: str) -> str:
        """Each top-level block as written when nothing in it is live, else written again;
        between blocks, blank lines stay and anything else (a reference definition, the
        one block construct that leaves no token) goes."""
        source = markdown.split("\n")
        out: list[str] = []
        cursor = 0
        for node in SyntaxTreeNode(_MARKDOWN.parse(markdown)).children:
            start, end = node.map or (cursor, cursor)
            out += ["" for line in source[cursor:start] if not line.strip()]
            written = source[start:end]
            if self.quiet(node, "\n".join(written)):
                out += written
            else:  # written again, followed by the blank lines its source range ended with
                blank_tail = len(written) - len("\n".join(written).rstrip().split("\n"))
                out += self.block(node) + [""] * blank_tail
            cursor = max(cursor, end)
        out += ["" for line in source[cursor:] if not line.strip()]
        # The text ends as it did (with as many newlines), whatever was dropped before the end.
        return "\n".join(out).rstrip("\n") + markdown[len(markdown.rstrip("\n")):]

    def quiet(self, node: SyntaxTreeNode, written: str) -> bool:
        """Nothing to rewrite in this block: no link, image or tag in any inline run, and no
        reference definition inside it (a quote or list item may hold one)."""
        if self.strict:
            return False
        for inline in node.walk():
            if inline.type == "inline" and not self.inline_quiet(inline):
                return False
        env: dict = {}
        _MARKDOWN.parse(written, env)
        return not env.get("references")

    @staticmethod
    def inline_quiet(node: SyntaxTreeNode) -> bool:
        tokens = (node.token.children if node.token else None) or []
        source = node.token.content if node.token else ""
        return not any(t.type in _LIVE_INLINE for t in tokens) and escape_html(source) == source

    # -- blocks: each returns its lines, without container prefixes ----------------
    def blocks(self, nodes: list[SyntaxTreeNode], *, tight: bool = False) -> list[str]:
        lines: list[str] = []
        for node in nodes:
            block = self.block(node)
            if lines and not tight:
                lines.append("")
            lines += block
        return lines

    def block(self, node: SyntaxTreeNode) -> list[str]:
        kind = node.type
        if kind == "paragraph":
            return self.inline_lines(node.children[0])
        if kind == "heading":
            text = self.inline(node.children[0]).replace("\n", " ") if node.children else ""
            return [("#" * int(node.tag[1]) + " " + text).rstrip()]
        if kind in ("bullet_list", "ordered_list"):
            return self.list_block(node)
        if kind == "blockquote":
            return [f"> {line}" if line else ">" for line in self.blocks(node.children)]
        if kind == "fence":
            fence = node.markup or "```"
            return [fence + node.info, *node.content.rstrip("\n").split("\n"), fence]
        if kind == "code_block":
            return [f"    {line}" if line else "" for line in node.content.rstrip("\n").split("\n")]
        if kind == "hr":
            return [(node.markup or "-")[0] * 3]
        if kind == "table":
            return self.table(node)
        # html_block cannot occur with html off; anything else new is shown as escaped text
        return [escape_html(line) for line in (node.content or "").rstrip("\n").split("\n")]

    def list_block(self, node: SyntaxTreeNode) -> list[str]:
        items = [item for item in node.children if item.type == "list_item"]
        tight = not any(child.type == "paragraph" and not child.hidden for item in items for child in item.children)
        lines: list[str] = []
        for item in items:
            marker = (f"{item.info}{node.markup} " if node.type == "ordered_list" else f"{node.markup} ")
            body = self.blocks(item.children, tight=tight) or [""]
            if lines and not tight:
                lines.append("")
            lines.append((marker + body[0]).rstrip())
            lines += [" " * len(marker) + line if line else "" for line in body[1:]]
        return lines

    def table(self, node: SyntaxTreeNode) -> list[str]:
        rows: list[list[str]] = []
        aligns: list[str] = []
        for part in node.children:
            for row in part.children:
                rows.append([self.inline(cell.children[0]).replace("\n", " ").replace("|", "\\|")
                             if cell.children else "" for cell in row.children])
                if part.type == "thead":
                    aligns = [str(cell.attrs.get("style", "")) for cell in row.children]
        rule = {"text-align:left": ":---", "text-align:right": "---:", "text-align:center": ":---:"}
        header, body = rows[:1], rows[1:]
        lines = ["| " + " | ".join(cells) + " |" for cells in header]
        lines.append("|" + "|".join(rule.get(align, "---") for align in aligns) + "|")
        return lines + ["| " + " | ".join(cells) + " |" for cells in body]

    # -- inline runs ----------------------------------------------------------------
    def inline_lines(self, node: SyntaxTreeNode) -> list[str]:
        return self.inline(node).split("\n")

    def inline(self, node: SyntaxTreeNode) -> str:
        """An inline run: its source as written when nothing in it is live, else rewritten."""
        if not self.strict and self.inline_quiet(node):
            return node.token.content if node.token else ""
        return self.tokens((node.token.children if node.token else None) or [])

    def tokens(self, tokens: list[Token]) -> str:
        out: list[str] = []
        index = 0
        while index < len(tokens):
            token = tokens[index]
            kind = token.type
            if kind == "link_open":
                depth, end = 1, index + 1
                while end < len(tokens) and depth:
                    depth += {"link_open": 1, "link_close": -1}.get(tokens[end].type, 0)
                    end += 1
                out.append(self.link(token, self.tokens(tokens[index + 1 : end - 1])))
                index = end
                continue
            if kind == "text":
                out.append(self.text(token.content))
            elif kind == "text_special":  # a backslash escape or an entity: as written, still inert
                out.append(token.markup)
            elif kind == "code_inline":
                out.append(self.code(token))
            elif kind == "softbreak":
                out.append("\n")
            elif kind == "hardbreak":
                out.append("\\\n")
            elif kind == "image":  # never an image: its alt text, as text
                out.append(self.text(_plain(token.children or [])))
            elif kind.endswith(("_open", "_close")):  # emphasis, strong, strikethrough
                out.append(token.markup)
            else:  # html_inline (html is off) or a token kind added later: shown as text
                out.append(self.text(token.content))
            index += 1
        return "".join(out)

    def link(self, token: Token, label: str) -> str:
        url = _web_link(str(token.attrs.get("href", "")))
        if url is None:
            return label  # javascript:, file:, data:, mailto: … only its text
        if token.markup == "autolink":
            return f"<{url}>"
        return f"[{label}](<{url}>)"

    def text(self, text: str) -> str:
        return text.translate(_STRICT_ESCAPES) if self.strict else escape_html(text)

    @staticmethod
    def code(token: Token) -> str:
        fence, content = token.markup or "`", token.content
        if content.startswith("`") or content.endswith("`") or (content.startswith(" ") and content.endswith(" ")
                                                                and content.strip()):
            content = f" {content} "
        return f"{fence}{content}{fence}"


def _plain(tokens: list[Token]) -> str:
    """The text of inline tokens without their markup (an image's alt text)."""
    parts = []
    for token in tokens:
        if token.type in ("text", "text_special", "code_inline"):
            parts.append(token.content)
        elif token.type in ("softbreak", "hardbreak"):
            parts.append(" ")
        elif token.children:
            parts.append(_plain(token.children))
    return "".join(parts)


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

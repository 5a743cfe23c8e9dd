"""report.md: the structured report written as Markdown in the report's language."""

from __future__ import annotations

import re

from research.modules.report.content import ReportDocument, SourceEntry
from research.modules.report.sections import SECTIONS, verification_rows, weak_claim_label
from research.modules.text.sanitize import one_line, safe_url

_MARKDOWN_SPECIALS = re.compile(r"([\\`*_\[\]<>#|])")


def escape_markdown(text: str) -> str:
    """Text from the web (titles, errors) shown literally, not read as Markdown, with
    no control characters or escape sequences left to reach a terminal (`cat report.md`)."""
    return _MARKDOWN_SPECIALS.sub(r"\\\1", one_line(text))


def unescape_markdown(text: str) -> str:
    """``text`` with ``escape_markdown``'s backslashes taken out again: the report's words as
    plain text, for a reader that does not render Markdown (``--json``'s answer)."""
    return _ESCAPED_SPECIAL.sub(r"\1", text)


_ESCAPED_SPECIAL = re.compile(r"\\" + _MARKDOWN_SPECIALS.pattern)


def _link(text: str, url: str) -> str:
    """A link only for http(s)/mailto; any other URL (javascript:, file:, data:) is
    shown as text after the title, never as something to click."""
    target = safe_url(url)
    if target is None:
        return f"{escape_markdown(text)} ({_code(url)})"
    # Angle brackets let a URL with spaces or parentheses stay one link destination.
    target = target.replace("<", "%3C").replace(">", "%3E").replace(" ", "%20")
    return f"[{escape_markdown(text)}](<{target}>)"


def _code(text: str) -> str:
    line = one_line(text)
    fence = "``" if "`" in line else "`"
    return f"{fence}{line}{fence}"


def _verification(doc: ReportDocument) -> list[str]:
    view, labels = doc.verification, doc.labels
    if not view.ran:
        return [labels["verification_not_run"]]
    lines = [
        f"| {labels['item']} | {labels['count']} |",
        "|:--|--:|",
        *(f"| {label} | {value} |" for label, value in verification_rows(doc)),
    ]
    if view.invalid_citations:
        lines += ["", f"**{labels['invalid_citations_removed']}**: " + ", ".join(
            f"`{escape_markdown(label)}`" for label in view.invalid_citations)]
    if view.weak_claims:
        lines += ["", f"**{labels['unsupported_claims']}**", ""]
        for claim in view.weak_claims:
            verdict = weak_claim_label(doc, claim)
            cited = f" ({', '.join(claim.citations)})" if claim.citations else ""
            lines.append(f"- {verdict}: {escape_markdown(claim.text)}{cited}")
    if view.follow_up_queries:
        lines += ["", f"**{labels['follow_up_queries']}**", ""]
        lines += [f"- {escape_markdown(query)}" for query in view.follow_up_queries]
    return lines


def _method(doc: ReportDocument) -> list[str]:
    """Compact: one line of facts, one line of queries (the reader rarely needs more)."""
    labels, method = doc.labels, doc.method
    lines = [" · ".join(f"**{label}**: {escape_markdown(value)}" for label, value in method.facts(labels))]
    if method.queries:
        lines += ["", f"**{labels['queries']}**: " + " · ".join(escape_markdown(q) for q in method.queries)]
    return lines


def source_line(source: SourceEntry, labels: dict[str, str]) -> str:
    title = source.title or labels["untitled"]
    parts = [f"**[{source.label}]** " + (_link(title, source.url) if source.url else escape_markdown(title))]
    details = [f"{label}: {escape_markdown(value)}" for label, value in source.details(labels)]
    if details:
        parts.append("(" + ", ".join(details) + ")")
    parts += [label + (f": {escape_markdown(detail)}" if detail else "") for label, detail in source.warnings(labels)]
    return " ".join(parts)


class MarkdownWriter:
    """What a section (sections.py) writes report.md with; the renderer hands it over, so
    sections import no renderer."""

    escape = staticmethod(escape_markdown)
    source_line = staticmethod(source_line)
    verification = staticmethod(_verification)
    method = staticmethod(_method)


def render_markdown(doc: ReportDocument) -> str:
    """The whole report as Markdown: the header, then each section of ``SECTIONS`` in
    order, with headings and labels in ``doc.lang``."""
    labels = doc.labels
    out: list[str] = [f"# {escape_markdown(doc.title)}", ""]
    for label, value in doc.header_fields():
        # Identifiers go in code spans so underscores and colons read literally.
        shown = _code(value) if label in (labels["model"], labels["session"], labels["parent_session"]) else escape_markdown(value)
        out.append(f"- **{label}**: {shown}")
    out.append("")
    writer = MarkdownWriter()
    for section in SECTIONS:
        out += section.markdown(doc, writer)
    return "\n".join(out).rstrip("\n") + "\n"

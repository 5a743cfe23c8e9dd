"""The report as structured content, built once from run data and rendered twice.

``build_report`` turns the verified answer (Markdown written by the model), the sources
ledger, the verification summary and the method notes into a ``ReportDocument``. The
Markdown renderer (report_markdown) and the PDF renderer (pdf) both work from it, so the
PDF is typeset from parsed blocks, never from raw Markdown text.

The body is parsed with markdown-it-py (CommonMark + tables + strikethrough, raw HTML
off so ``<b>`` written by a model stays literal text).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace
from datetime import datetime
from typing import Any, Union

from markdown_it import MarkdownIt
from markdown_it.tree import SyntaxTreeNode
from pydantic import BaseModel, Field, field_validator

from research.modules.core.grammar import URL_IN_PROSE, renumbered_titles
from research.modules.report.templates import report_labels
from research.modules.text.claims import citation_labels, has_sentence_end
from research.state.models import ClaimVerdict, Language, Verdict, VerificationResult
from research.state.run_record import Source, sources_of

# ---------------------------------------------------------------------------
# Input


class MethodFacts(BaseModel):
    """How the run searched and read, for the report's method section. A count left out is
    counted from the sources."""

    engines: list[str] = Field(default_factory=list)
    queries: list[str] = Field(default_factory=list)
    sources_read: int | None = None
    sources_failed: int | None = None
    sources_left_out: int | None = None
    loops: int = 0
    sandbox: str = ""


class ShownPosition(BaseModel):
    """One value of a disputed figure as a source wrote it, and the sources that give it."""

    value: str = ""
    labels: list[str] = Field(default_factory=list)


class ShownDisagreement(BaseModel):
    """Where the sources disagree, ready to show: the topic in the report's language, each
    value with its sources, and whether the answer gives them all (``note``)."""

    topic: str = ""
    positions: list[ShownPosition] = Field(default_factory=list)
    note: str = ""


class ReportInput(BaseModel):
    """Everything a report is made of; the report node fills it from the run state."""

    question: str
    language: Language
    model: str
    generated_at: datetime
    session_id: str
    body_markdown: str = ""
    sources: list[Source] = Field(default_factory=list)  # the ledger's, in order (a mapping is read as one)
    verification: VerificationResult = Field(default_factory=VerificationResult)
    method: MethodFacts = Field(default_factory=MethodFacts)
    notes: list[str] = Field(default_factory=list)
    parent_session: str | None = None
    disagreements: list[ShownDisagreement] = Field(default_factory=list)

    @field_validator("sources", mode="before")
    @classmethod
    def _ledger_entries(cls, value: Any) -> Any:
        """Ledger entries as processed.jsonl holds them become sources by the one reading."""
        return sources_of(value) if isinstance(value, list) else value


# ---------------------------------------------------------------------------
# Content model: inline spans and blocks


@dataclass(frozen=True)
class Span:
    """A run of text with one set of inline styles. ``text == "\\n"`` with
    ``line_break`` set is a hard line break."""

    text: str
    bold: bool = False
    italic: bool = False
    code: bool = False
    strike: bool = False
    href: str | None = None
    line_break: bool = False


@dataclass(frozen=True)
class Heading:
    level: int
    spans: list[Span]


@dataclass(frozen=True)
class Paragraph:
    spans: list[Span]


@dataclass(frozen=True)
class ListBlock:
    ordered: bool
    start: int
    items: list[list["Block"]]


@dataclass(frozen=True)
class TableBlock:
    header: list[list[Span]]
    rows: list[list[list[Span]]]
    aligns: list[str]  # "left" | "center" | "right" per column


@dataclass(frozen=True)
class CodeBlock:
    text: str
    info: str = ""


@dataclass(frozen=True)
class Quote:
    blocks: list["Block"]


@dataclass(frozen=True)
class Rule:
    pass


Block = Union[Heading, Paragraph, ListBlock, TableBlock, CodeBlock, Quote, Rule]


@dataclass(frozen=True)
class Section:
    """One part of the answer: a localized or model-written title, its Markdown source
    (headings already shifted to their place in the report) and its parsed blocks."""

    title: str
    title_spans: list[Span]
    markdown: str
    blocks: list[Block]


@dataclass(frozen=True)
class ClaimLine:
    index: int
    text: str
    verdict: str  # the raw verdict label; renderers localize it
    citations: list[str]


@dataclass(frozen=True)
class VerificationView:
    ran: bool
    claims: int = 0
    supported: int = 0
    partly_supported: int = 0
    not_checked: int = 0  # uncertain, and no judge decided: shown as such, not as "partly supported"
    unsupported: int = 0
    citation_invalid: int = 0
    supported_ratio: float = 0.0
    loops: int = 0
    invalid_citations: list[str] = field(default_factory=list)
    weak_claims: list[ClaimLine] = field(default_factory=list)
    follow_up_queries: list[str] = field(default_factory=list)


@dataclass(frozen=True)
class MethodView:
    engines: list[str]
    queries: list[str]
    sources_read: int
    sources_failed: int
    loops: int
    sandbox: str
    sources_left_out: int = 0  # read, not used: dated before --since

    def facts(self, labels: dict[str, str]) -> list[tuple[str, str]]:
        """The method's facts as (label, value), in the order every format shows them."""
        facts = [(labels["engines"], ", ".join(self.engines) or labels["none"]),
                 (labels["sources_read"], str(self.sources_read)),
                 (labels["sources_failed"], str(self.sources_failed))]
        if self.sources_left_out:
            facts.append((labels["sources_left_out"], str(self.sources_left_out)))
        facts.append((labels["loops"], str(self.loops)))
        if self.sandbox:
            facts.append((labels["sandbox"], self.sandbox))
        return facts


@dataclass(frozen=True)
class SourceEntry:
    """The report's view of one ``Source``: its number in the list it is shown in, its title and
    error on one line, and its kind only where it says something ("unknown" on every line would not)."""

    number: int
    source: Source

    @property
    def label(self) -> str:
        return self.source.label

    @property
    def title(self) -> str:
        return " ".join(self.source.title.split())

    @property
    def url(self) -> str:
        return self.source.url

    @property
    def language(self) -> str:
        return self.source.language

    @property
    def retrieved_at(self) -> str:
        return self.source.retrieved_at

    @property
    def failed(self) -> bool:
        return self.source.failed

    @property
    def left_out(self) -> bool:
        """Read, and not used (dated before --since); ``error`` says why."""
        return self.source.left_out

    @property
    def error(self) -> str:
        return " ".join((self.source.error or "").split())

    @property
    def suspicious(self) -> bool:
        return self.source.suspicious

    @property
    def kind(self) -> str:
        """official, academic, ... (modules/text/source_kind.py); "" when not graded or unknown."""
        return "" if self.source.kind in ("", "unknown") else self.source.kind

    def details(self, labels: dict[str, str]) -> list[tuple[str, str]]:
        """What is known of the source, as (label, value), in the order every format shows it."""
        details = []
        if self.kind:
            details.append((labels["kind"], labels.get("kind_" + self.kind, self.kind)))
        if self.language:
            details.append((labels["language"], self.language))
        if self.retrieved_at:
            details.append((labels["retrieved"], self.retrieved_at))
        return details

    def warnings(self, labels: dict[str, str]) -> list[tuple[str, str]]:
        """What the reader must know before trusting it, as (label, detail or "")."""
        warnings = []
        if self.failed:
            warnings.append((labels["failed"], self.error))
        if self.left_out:
            warnings.append((labels["left_out"], self.error))
        if self.suspicious:
            warnings.append((labels["suspicious"], ""))
        return warnings


@dataclass(frozen=True)
class DisagreementLine:
    """One point the sources disagree on: what it is about, each value with its sources,
    and whether the answer gives them all (``note``, already in the report's language)."""

    topic: str
    positions: list[tuple[str, list[str]]]  # (value as a source wrote it, its labels)
    note: str = ""


@dataclass(frozen=True)
class ReportDocument:
    lang: Language
    labels: dict[str, str]
    title: str
    question: str
    date: str
    model: str
    session_id: str
    parent_session: str | None
    summary: Section
    findings: list[Section]
    verification: VerificationView
    method: MethodView
    sources: list[SourceEntry]  # the sources the answer cites
    notes: list[str]
    also_read: list[SourceEntry] = field(default_factory=list)  # read (or tried) but not cited
    disagreements: list[DisagreementLine] = field(default_factory=list)
    # What the report was built from: a section (sections.py) may read more of the run than
    # the views above hold, without a change here.
    data: ReportInput | None = None

    @property
    def document_title(self) -> str:
        """The title for PDF metadata and window captions: kind of report + question."""
        question = " ".join(self.question.split())
        if len(question) > 120:
            question = question[:119] + "…"
        return f"{self.title}: {question}" if question else self.title

    def header_fields(self) -> list[tuple[str, str]]:
        """The lines under the title, in order, as (localized label, value)."""
        fields = [
            (self.labels["question"], self.question),
            (self.labels["date"], self.date),
            (self.labels["model"], self.model),
            (self.labels["session"], self.session_id),
        ]
        if self.parent_session:
            fields.append((self.labels["parent_session"], self.parent_session))
        return fields


# ---------------------------------------------------------------------------
# Markdown parsing


def _markdown_parser() -> MarkdownIt:
    # html=False: raw HTML from a model is shown as text, never interpreted.
    return MarkdownIt("commonmark", {"html": False}).enable(["table", "strikethrough"])


_PARSER = _markdown_parser()
_CJK = re.compile(r"[\u3000-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uff00-\uffef]")


def _link_bare_urls(span: Span) -> list[Span]:
    """Split a plain text span so bare URLs become links (clickable in the PDF)."""
    if span.href or span.code or "://" not in span.text:
        return [span]
    pieces: list[Span] = []
    cursor = 0
    for match in URL_IN_PROSE.finditer(span.text):
        if match.start() > cursor:
            pieces.append(_with(span, text=span.text[cursor : match.start()]))
        pieces.append(_with(span, text=match.group(0), href=match.group(0)))
        cursor = match.end()
    if cursor < len(span.text):
        pieces.append(_with(span, text=span.text[cursor:]))
    return pieces


def _with(span: Span, **changes: Any) -> Span:
    values = {**span.__dict__, **changes}
    return Span(**values)


def _soft_break(before: str, after: str) -> str:
    # A line break inside a paragraph is a space in English but nothing between two
    # Japanese characters (a space would show as a gap in the middle of a sentence).
    if before and after and _CJK.match(before[-1]) and _CJK.match(after[0]):
        return ""
    return " "


def inline_spans(node: SyntaxTreeNode) -> list[Span]:
    """The styled text runs of an ``inline`` node."""
    raw: list[Span | str] = []  # "soft" marks a soft break, resolved once neighbours are known

    def walk(current: SyntaxTreeNode, style: Span) -> None:
        for child in current.children:
            kind = child.type
            if kind == "text":
                raw.extend(_link_bare_urls(_with(style, text=child.content)))
            elif kind == "code_inline":
                raw.append(_with(style, text=child.content, code=True))
            elif kind == "softbreak":
                raw.append("soft")
            elif kind == "hardbreak":
                raw.append(_with(style, text="\n", line_break=True))
            elif kind == "strong":
                walk(child, _with(style, bold=True))
            elif kind == "em":
                walk(child, _with(style, italic=True))
            elif kind == "s":
                walk(child, _with(style, strike=True))
            elif kind == "link":
                walk(child, _with(style, href=str(child.attrs.get("href", "")) or None))
            elif kind == "image":
                # Reports never fetch images, nor point at them: the alt text, as text.
                alt = "".join(grand.content for grand in child.children)
                if alt:
                    raw.append(_with(style, text=alt))
            elif child.children:
                walk(child, style)
            elif child.content:
                raw.append(_with(style, text=child.content))

    walk(node, Span(""))
    spans: list[Span] = []
    for position, item in enumerate(raw):
        if item == "soft":
            before = spans[-1].text if spans else ""
            after = next((s.text for s in raw[position + 1 :] if isinstance(s, Span)), "")
            if has_sentence_end(before):
                # A line with a finished sentence in it (then maybe citations and a verifier's
                # flag): the draft put each claim on its own line; keep them apart on the page too.
                spans.append(Span("\n", line_break=True))
                continue
            joiner = _soft_break(before, after)
            if joiner:
                spans.append(Span(joiner))
        elif isinstance(item, Span) and item.text:
            spans.append(item)
    return spans


def _blocks(nodes: list[SyntaxTreeNode]) -> list[Block]:
    blocks: list[Block] = []
    for node in nodes:
        block = _block(node)
        if block is not None:
            blocks.append(block)
    return blocks


def _inline_child(node: SyntaxTreeNode) -> list[Span]:
    for child in node.children:
        if child.type == "inline":
            return inline_spans(child)
    return []


def _cell_align(node: SyntaxTreeNode) -> str:
    style = str(node.attrs.get("style", ""))
    for align in ("left", "center", "right"):
        if align in style:
            return align
    return "left"


def _block(node: SyntaxTreeNode) -> Block | None:
    kind = node.type
    if kind == "heading":
        return Heading(level=int(node.tag[1]), spans=_inline_child(node))
    if kind == "paragraph":
        return Paragraph(spans=_inline_child(node))
    if kind in ("bullet_list", "ordered_list"):
        start = int(node.attrs.get("start", 1) or 1) if kind == "ordered_list" else 1
        items = [_blocks(item.children) for item in node.children if item.type == "list_item"]
        return ListBlock(ordered=kind == "ordered_list", start=start, items=items)
    if kind == "table":
        header: list[list[Span]] = []
        rows: list[list[list[Span]]] = []
        aligns: list[str] = []
        for part in node.children:
            for row in part.children:
                cells = [_inline_child(cell) for cell in row.children]
                if part.type == "thead":
                    header = cells
                    aligns = [_cell_align(cell) for cell in row.children]
                else:
                    rows.append(cells)
        return TableBlock(header=header, rows=rows, aligns=aligns)
    if kind in ("fence", "code_block"):
        return CodeBlock(text=node.content.rstrip("\n"), info=(node.info or "").strip())
    if kind == "blockquote":
        return Quote(blocks=_blocks(node.children))
    if kind == "hr":
        return Rule()
    return None


def parse_blocks(markdown: str) -> list[Block]:
    """Parse Markdown into report blocks."""
    return _blocks(SyntaxTreeNode(_PARSER.parse(markdown)).children)


def _shift_headings(markdown: str, shift: int) -> str:
    """Move ATX headings ``shift`` levels down (``##`` → ``###``), capped at six, so a
    model's section fits under the report's own headings. Code fences are untouched
    because only real heading tokens are rewritten."""
    if shift <= 0:
        return markdown
    lines = markdown.split("\n")
    for token in _PARSER.parse(markdown):
        if token.type == "heading_open" and token.markup.startswith("#") and token.map:
            row = token.map[0]
            stripped = lines[row].lstrip()
            indent = lines[row][: len(lines[row]) - len(stripped)]
            level = min(6, len(token.markup) + shift)
            lines[row] = indent + "#" * level + stripped[len(token.markup) :]
    return "\n".join(lines)


def _split_sections(body: str) -> tuple[str, list[tuple[str, str]]]:
    """Split the body at its top-level ``#``/``##`` headings.

    Returns the text before the first heading and (heading inline source, section text)
    pairs. Lines are cut where markdown-it found the headings, so a ``## `` inside a
    code block does not split anything."""
    lines = body.split("\n")
    cuts: list[tuple[int, int, str]] = []  # (first line, line after heading, title)
    tokens = _PARSER.parse(body)
    for position, token in enumerate(tokens):
        if token.type == "heading_open" and token.level == 0 and token.tag in ("h1", "h2") and token.map:
            title = tokens[position + 1].content if position + 1 < len(tokens) else ""
            cuts.append((token.map[0], token.map[1], title))
    if not cuts:
        return body, []
    preamble = "\n".join(lines[: cuts[0][0]])
    sections = []
    for number, (_, content_start, title) in enumerate(cuts):
        end = cuts[number + 1][0] if number + 1 < len(cuts) else len(lines)
        sections.append((title, "\n".join(lines[content_start:end]).strip("\n")))
    return preamble, sections




# A heading that is a number and nothing else: "## 1", "## 2." (the real model, with no theme).
_NUMBER_ONLY = re.compile(r"[0-9０-９]{1,2}[.)．）]?")


def _number_only_sections_merged(sections: list[tuple[str, str]]) -> list[tuple[str, str]]:
    """Sections the draft headed with a bare number ("## 1" … "## 7", Qwen2.5-Coder-1.5B) name no
    theme: each run of them is one untitled part of the findings, its sentences kept in order."""
    merged: list[tuple[str, str]] = []
    for title, text in sections:
        if _NUMBER_ONLY.fullmatch(title.strip()):
            if merged and merged[-1][0] == "":
                merged[-1] = ("", "\n\n".join(part for part in (merged[-1][1], text) if part.strip()))
                continue
            title = ""
        merged.append((title, text))
    return merged


def _renumbered_findings(sections: list[tuple[str, str]]) -> list[tuple[str, str]]:
    """Findings the draft numbered keep a plain 1, 2, 3 when a section between them had
    nothing left once the unchecked sentences were taken out (the report read "1." then "4.",
    or a lone "2." with the real model when the other sections only repeated the summary)."""
    titles = renumbered_titles([title for title, _ in sections])
    return [(title, text) for title, (_, text) in zip(titles, sections)]


def _section(title: str, markdown: str, *, shift: int) -> Section:
    shifted = _shift_headings(markdown.strip("\n"), shift)
    title_tokens = SyntaxTreeNode(_PARSER.parse(title)).children if title else []
    title_spans = _inline_child(title_tokens[0]) if title_tokens else []
    return Section(title=title, title_spans=title_spans or [Span(title)], markdown=shifted, blocks=parse_blocks(shifted))


# ---------------------------------------------------------------------------
# Run data → views


def _strings(value: Any) -> list[str]:
    if not isinstance(value, (list, tuple)):
        return []
    return [str(item) for item in value if item is not None and str(item).strip()]


_PASSAGE_CHARS = 240


def shorten_passage(text: str) -> str:
    """A source's passage on one line, cut to a length a report line can carry."""
    text = " ".join(text.split())
    return text if len(text) <= _PASSAGE_CHARS else text[: _PASSAGE_CHARS - 1] + "…"


# Why a claim left the answer (workflow/answer.py's removed_reason) -> the label it is listed under.
# Claims that were true but out of place (another topic, said twice, not a claim) are not
# listed as doubtful: the report's notes count them.
_REMOVED_LABELS = {
    "contradicted": "removed",
    "not_supported": "removed_not_supported",
    "partly_supported": "removed_partly",
    "not_checked": "removed_unchecked",
    "uncited": "removed_uncited",
    "question_restated": "removed_question_restated",
    "said_both_ways": "removed_said_both_ways",
}


def _weak_line(claim: ClaimVerdict, labels: dict[str, str]) -> ClaimLine | None:
    """How a claim that is not simply supported is listed under the verification, or None."""
    index, text = claim.index, " ".join(claim.text.split())
    if claim.checked_as:
        # Checked as its translation into its sources' language: the reader sees what was read.
        text = f"{text} ({labels['checked_as'].format(text=' '.join(claim.checked_as.split()))})"
    if claim.removed:
        reason = claim.removed_reason or "contradicted"
        if reason == "wrong_language":
            return ClaimLine(index=index, text=text, verdict="removed_language", citations=[])
        label = _REMOVED_LABELS.get(reason)
        if label is None:
            return None
        if label in ("removed_partly", "removed_uncited") and not claim.checked:
            # No judge decided it: "not checked", as the table counts it and the answer marked it,
            # never "partly supported" in this list alone (the GIL run: 8 such lines, table 0).
            label += "_unchecked"
        if claim.evidence and claim.evidence_label:
            # Shown with the passage that decided it, so the reader sees what the source does say.
            text = " ".join(f"{text} — {claim.evidence_label} «{shorten_passage(claim.evidence)}»".split())
        return ClaimLine(index=index, text=text, verdict=label, citations=[])
    if claim.verdict == Verdict.SUPPORTED and claim.contested_by:
        # Supported by the source it cites while another read source gives another value:
        # shown with that value, never as simply supported, so the reader sees the sources differ.
        return ClaimLine(index=index, text=" ".join(f"{text} ≠ {claim.contested_by}".split()), verdict="contested",
                         citations=_strings(claim.citations))
    if claim.verdict != Verdict.SUPPORTED:
        # The label the reader saw beside the sentence: "(not checked)" stays "not checked" here.
        return ClaimLine(index=index, text=text,
                         verdict="not_checked" if not claim.checked else claim.verdict.value,
                         citations=_strings(claim.citations))
    return None


def _once_each(lines: list[ClaimLine]) -> list[ClaimLine]:
    """A sentence the draft wrote twice with one verdict is listed once, with how many times
    (the table counts each): the real model repeated a paragraph under two headings, and the
    list said each of its doubtful sentences twice."""
    counts: dict[tuple[str, str], int] = {}
    for line in lines:
        counts[(line.verdict, line.text)] = counts.get((line.verdict, line.text), 0) + 1
    listed = []
    for line in lines:
        times = counts.pop((line.verdict, line.text), 0)
        if times:
            listed.append(line if times == 1 else replace(line, text=f"{line.text} (×{times})"))
    return listed


def _verification_view(data: VerificationResult, labels: dict[str, str]) -> VerificationView:
    summary, claims = data.summary, data.claims
    if summary is None and not claims:
        return VerificationView(ran=False)
    weak = _once_each([line for claim in claims if (line := _weak_line(claim, labels)) is not None])
    counted = {name: sum(1 for c in claims if c.verdict == name) for name in Verdict}
    not_checked = sum(1 for c in claims if not c.checked and c.verdict == Verdict.PARTLY_SUPPORTED)
    if summary is None:  # claims without their counts: counted here
        total, supported = len(claims), counted[Verdict.SUPPORTED]
        partly, unsupported, invalid = (counted[Verdict.PARTLY_SUPPORTED], counted[Verdict.UNSUPPORTED],
                                        counted[Verdict.CITATION_INVALID])
        ratio, loops, invalid_labels = (supported / total if total else 0.0), 0, []
    else:
        total, supported, partly = summary.claims, summary.supported, summary.partly_supported
        unsupported, invalid = summary.unsupported, summary.citation_invalid
        ratio, loops, invalid_labels = summary.supported_ratio, summary.loops, summary.invalid_citations
    return VerificationView(
        ran=True,
        claims=total,
        supported=supported,
        partly_supported=max(0, partly - not_checked),
        not_checked=not_checked,
        unsupported=unsupported,
        citation_invalid=invalid,
        supported_ratio=max(0.0, min(1.0, ratio)),
        loops=loops,
        invalid_citations=_strings(invalid_labels),
        weak_claims=weak,
        follow_up_queries=_strings([query.text for query in data.follow_up_queries]),
    )


def _method_view(data: MethodFacts, sources: list[SourceEntry]) -> MethodView:
    failed = sum(1 for source in sources if source.failed)
    left_out = sum(1 for source in sources if source.left_out)
    return MethodView(
        engines=_strings(data.engines),
        queries=_strings(data.queries),
        sources_read=data.sources_read if data.sources_read is not None else len(sources) - failed - left_out,
        sources_failed=data.sources_failed if data.sources_failed is not None else failed,
        sources_left_out=data.sources_left_out if data.sources_left_out is not None else left_out,
        loops=data.loops,
        sandbox=data.sandbox,
    )


def _source_entries(ledger: list[Source]) -> list[SourceEntry]:
    """The ledger's sources numbered in its order; one without a label is named by its place."""
    return [SourceEntry(number=number, source=source if source.label else source.model_copy(update={"label": f"S{number}"}))
            for number, source in enumerate(ledger, start=1)]


def _renumbered(entries: list[SourceEntry]) -> list[SourceEntry]:
    return [SourceEntry(number=n, source=entry.source) for n, entry in enumerate(entries, start=1)]


def _format_date(moment: datetime) -> str:
    text = moment.strftime("%Y-%m-%d %H:%M")
    zone = moment.strftime("%Z") if moment.tzinfo else ""
    return f"{text} {zone}".strip()


def build_report(data: ReportInput) -> ReportDocument:
    """Structure the run's results as a report in ``data.language``.

    The body's text before its first heading is the summary; when there is none, its
    first section is. The remaining sections are the findings, one per theme."""
    labels = report_labels(data.language)
    preamble, sections = _split_sections(data.body_markdown.replace("\r\n", "\n"))
    if preamble.strip() or not sections:
        summary_markdown = preamble
    else:
        summary_markdown = sections.pop(0)[1]
    summary = _section(labels["summary"], summary_markdown, shift=0)
    findings = [_section(title, text, shift=1)
                for title, text in _renumbered_findings(_number_only_sections_merged(sections))]
    ledger = _source_entries(data.sources)
    cited = set(citation_labels(data.body_markdown))
    sources = [s for s in ledger if s.label in cited] if cited else ledger
    also_read = [s for s in ledger if s not in sources]
    return ReportDocument(
        lang=data.language,
        labels=labels,
        title=labels["title"],
        question=" ".join(data.question.split()),
        date=_format_date(data.generated_at),
        model=data.model,
        session_id=data.session_id,
        parent_session=data.parent_session,
        summary=summary,
        findings=findings,
        verification=_verification_view(data.verification, labels),
        method=_method_view(data.method, ledger),
        sources=_renumbered(sources),
        also_read=_renumbered(also_read),
        notes=[" ".join(note.split()) for note in data.notes if note and note.strip()],
        disagreements=_disagreement_lines(data.disagreements),
        data=data,
    )


def _disagreement_lines(items: list[ShownDisagreement]) -> list[DisagreementLine]:
    lines = []
    for item in items:
        positions = [(" ".join(p.value.split()), _strings(p.labels)) for p in item.positions]
        if len(positions) >= 2:
            lines.append(DisagreementLine(topic=" ".join(item.topic.split()), positions=positions,
                                          note=" ".join(item.note.split())))
    return lines

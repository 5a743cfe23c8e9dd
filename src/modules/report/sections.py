"""The report's sections: each one object that writes itself as Markdown and as PDF.

A section has ``title_key`` (its heading's label in templates.py) and two methods:
``markdown(doc, md)`` returns its lines of report.md and ``flowables(doc, pdf)`` its part
of report.pdf, where ``md`` is markdown.py's ``MarkdownWriter`` and ``pdf`` is pdf.py's
typesetter, both handed in by the renderer (so this module imports neither). A section
with nothing to say returns ``[]`` from both. ``SECTIONS`` lists them in reading order and
both renderers walk it: a new section is a class here, its line in ``SECTIONS`` and its
labels in templates.py.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Protocol

from research.modules.report.content import Block, ClaimLine, ListBlock, ReportDocument, SourceEntry, Span, shorten_passage
from research.modules.report.content import Paragraph as ParagraphBlock
from research.modules.text.sanitize import one_line, safe_markdown
from research.state.models import Verdict, VerdictState, count_states, supported_percent

if TYPE_CHECKING:
    from reportlab.platypus import Flowable


class MarkdownWriter(Protocol):
    """What a section writes report.md with (markdown.py's ``MarkdownWriter`` is one)."""

    def escape(self, text: str) -> str: ...

    def source_line(self, source: SourceEntry, labels: dict[str, str]) -> str: ...

    def verification(self, doc: ReportDocument) -> list[str]: ...

    def method(self, doc: ReportDocument) -> list[str]: ...


class Typesetter(Protocol):
    """What a section lays report.pdf out with (pdf.py's ``Typesetter`` is one)."""

    def section(self, title: str, body: list[Flowable], level: int = 2) -> list[Flowable]: ...

    def blocks(self, blocks: list[Block]) -> list[Flowable]: ...

    def list_flowable(self, block: ListBlock) -> Flowable: ...

    def findings(self) -> list[Flowable]: ...

    def sources(self, entries: list[SourceEntry] | None = None) -> list[Flowable]: ...

    def verification(self) -> list[Flowable]: ...

    def method(self) -> list[Flowable]: ...


class ReportSection(Protocol):
    title_key: str

    def markdown(self, doc: ReportDocument, md: MarkdownWriter) -> list[str]: ...

    def flowables(self, doc: ReportDocument, pdf: Typesetter) -> list[Flowable]: ...


def _heading(doc: ReportDocument, key: str, level: int = 2) -> list[str]:
    return [f"{'#' * level} {doc.labels[key]}", ""]


def verdict_states(doc: ReportDocument) -> dict[VerdictState, int]:
    """How many claims are in each of the five states: from verification.json's claims
    where the report has them, else from the counts the view read from its summary."""
    if doc.data is not None and doc.data.verification.claims:
        return count_states(doc.data.verification.claims)
    view = doc.verification
    return {VerdictState.SUPPORTED: view.supported, VerdictState.PARTLY_SUPPORTED: view.partly_supported,
            VerdictState.NOT_SUPPORTED: view.unsupported + view.citation_invalid, VerdictState.CONTRADICTED: 0,
            VerdictState.NOT_CHECKED: view.not_checked}


def verification_rows(doc: ReportDocument) -> list[tuple[str, str]]:
    """The verification table, (label, value) per row, for both renderers: the number of
    claims, each state by its one name, the share supported computed from those very
    counts (so the percentage always equals them), and the loops."""
    labels, states = doc.labels, verdict_states(doc)
    return [
        (labels["claims"], str(sum(states.values()))),
        *((labels[state.value], str(count)) for state, count in states.items()),
        (labels["supported_ratio"], f"{supported_percent(states)}%"),
        (labels["loops"], str(doc.verification.loops)),
    ]


def weak_claim_label(doc: ReportDocument, claim: ClaimLine) -> str:
    """The name of a listed claim's state: a claim the verifier called unsupported for a
    reason its passage contradicts is "contradicted", another "not supported"."""
    if claim.verdict in ("unsupported", "citation_invalid"):
        for found in doc.data.verification.claims if doc.data else []:
            if found.index == claim.index:
                return doc.labels[found.state.value]
    return doc.labels.get(claim.verdict, claim.verdict)


def _bullets(items: list[list[Span]]) -> ListBlock:
    return ListBlock(ordered=False, start=1, items=[[ParagraphBlock(spans)] for spans in items])


class Summary:
    title_key = "summary"

    def markdown(self, doc: ReportDocument, md: MarkdownWriter) -> list[str]:
        # The model's prose repeats what pages said: no raw HTML, images or odd-scheme links.
        out = _heading(doc, self.title_key)
        if doc.summary.markdown.strip():
            out += [safe_markdown(doc.summary.markdown), ""]
        return out

    def flowables(self, doc: ReportDocument, pdf: Typesetter) -> list[Flowable]:
        return pdf.section(doc.labels[self.title_key], pdf.blocks(doc.summary.blocks))


class Findings:
    title_key = "findings"

    def markdown(self, doc: ReportDocument, md: MarkdownWriter) -> list[str]:
        if not doc.findings:
            return []
        out = _heading(doc, self.title_key)
        for section in doc.findings:
            if section.title:  # an untitled part (the draft's headings were bare numbers) has none
                out += [f"### {safe_markdown(one_line(section.title))}", ""]
            if section.markdown.strip():
                out += [safe_markdown(section.markdown), ""]
        return out

    def flowables(self, doc: ReportDocument, pdf: Typesetter) -> list[Flowable]:
        return pdf.section(doc.labels[self.title_key], pdf.findings()) if doc.findings else []


class Disagreements:
    """Each point the sources disagree on, both sides cited: "height: 3776 m [S1] vs 3778 m [S3]"."""

    title_key = "disagreements"

    def markdown(self, doc: ReportDocument, md: MarkdownWriter) -> list[str]:
        if not doc.disagreements:
            return []
        versus = f" {doc.labels['versus']} "
        out = _heading(doc, self.title_key)
        for line in doc.disagreements:
            sides = versus.join(md.escape(value) + " " + "".join(f"[{md.escape(label)}]" for label in labels)
                                for value, labels in line.positions)
            note = f" ({md.escape(line.note)})" if line.note else ""
            out.append(f"- **{md.escape(line.topic)}**: {sides}{note}")
        return out + [""]

    def flowables(self, doc: ReportDocument, pdf: Typesetter) -> list[Flowable]:
        if not doc.disagreements:
            return []
        versus = f" {doc.labels['versus']} "
        items = []
        for line in doc.disagreements:
            spans = [Span(line.topic + ": ", bold=True)]
            for number, (value, labels) in enumerate(line.positions):
                spans.append(Span((versus if number else "") + value + " " + "".join(f"[{label}]" for label in labels)))
            if line.note:
                spans.append(Span(f" ({line.note})", italic=True))
            items.append(spans)
        return pdf.section(doc.labels[self.title_key], [pdf.list_flowable(_bullets(items))])


class Notes:
    title_key = "notes"

    def markdown(self, doc: ReportDocument, md: MarkdownWriter) -> list[str]:
        if not doc.notes:
            return []
        return _heading(doc, self.title_key) + [f"- {md.escape(note)}" for note in doc.notes] + [""]

    def flowables(self, doc: ReportDocument, pdf: Typesetter) -> list[Flowable]:
        if not doc.notes:
            return []
        return pdf.section(doc.labels[self.title_key], [pdf.list_flowable(_bullets([[Span(n)] for n in doc.notes]))])


class Evidence:
    """The passage behind each supported claim, so a reader can see why it counts as
    supported without opening the source. Claims listed elsewhere (contested, removed,
    weak) and claims with no passage are left out; no supported claim, no section."""

    title_key = "evidence"

    @staticmethod
    def lines(doc: ReportDocument) -> list[tuple[str, str, str]]:
        """(claim, source label, passage) for each supported claim, in the answer's order,
        each once (a draft may state one fact in two sections)."""
        found = []
        for claim in doc.data.verification.claims if doc.data else []:
            if claim.verdict != Verdict.SUPPORTED or claim.contested_by or claim.removed:
                # A supported sentence taken out (another topic, a repeat, a heading: "Study Design", the real 1.5B
                # model's, beside a hip-fracture trial's passage for PubMedQA 15631914) is in no answer to back.
                continue
            passage = shorten_passage(claim.evidence)
            if passage.strip(" .…"):
                found.append((" ".join(claim.text.split()), claim.evidence_label or "?", passage))
        return list(dict.fromkeys(found))

    def markdown(self, doc: ReportDocument, md: MarkdownWriter) -> list[str]:
        lines = self.lines(doc)
        if not lines:
            return []
        return _heading(doc, self.title_key) + [
            f"- {md.escape(claim)} — [{md.escape(label)}] «{md.escape(passage)}»" for claim, label, passage in lines
        ] + [""]

    def flowables(self, doc: ReportDocument, pdf: Typesetter) -> list[Flowable]:
        lines = self.lines(doc)
        if not lines:
            return []
        items = [[Span(claim), Span(f" — [{label}] ", bold=True), Span(f"«{passage}»", italic=True)]
                 for claim, label, passage in lines]
        return pdf.section(doc.labels[self.title_key], [pdf.list_flowable(_bullets(items))])


class Sources:
    title_key = "sources"

    def markdown(self, doc: ReportDocument, md: MarkdownWriter) -> list[str]:
        out = _heading(doc, self.title_key)
        if doc.sources:
            out += [f"{source.number}. {md.source_line(source, doc.labels)}" for source in doc.sources]
        else:
            out.append(doc.labels["no_sources"])
        return out + [""]

    def flowables(self, doc: ReportDocument, pdf: Typesetter) -> list[Flowable]:
        return pdf.section(doc.labels[self.title_key], pdf.sources())


class AlsoRead:
    """Sources read (or tried) but not cited: under the sources, one level down."""

    title_key = "also_read"

    def markdown(self, doc: ReportDocument, md: MarkdownWriter) -> list[str]:
        if not doc.also_read:
            return []
        return _heading(doc, self.title_key, level=3) + [
            f"{source.number}. {md.source_line(source, doc.labels)}" for source in doc.also_read] + [""]

    def flowables(self, doc: ReportDocument, pdf: Typesetter) -> list[Flowable]:
        if not doc.also_read:
            return []
        return pdf.section(doc.labels[self.title_key], pdf.sources(doc.also_read), level=3)


class WrittenByRenderer:
    """A section each renderer writes whole under its heading: the verification table and the
    method are tables and lists the writers lay out in their own way, so each renderer has a
    method of the section's ``title_key`` (``md.method(doc)``, ``pdf.method()``)."""

    def __init__(self, title_key: str) -> None:
        self.title_key = title_key

    def markdown(self, doc: ReportDocument, md: MarkdownWriter) -> list[str]:
        return _heading(doc, self.title_key) + getattr(md, self.title_key)(doc) + [""]

    def flowables(self, doc: ReportDocument, pdf: Typesetter) -> list[Flowable]:
        return pdf.section(doc.labels[self.title_key], getattr(pdf, self.title_key)())


# Reading order: the answer first, then what may be wrong with it, how it was checked,
# what it rests on, and how it was made last.
SECTIONS: tuple[ReportSection, ...] = (
    Summary(), Findings(), Disagreements(), Notes(), WrittenByRenderer("verification"), Evidence(), Sources(), AlsoRead(),
    WrittenByRenderer("method"),
)

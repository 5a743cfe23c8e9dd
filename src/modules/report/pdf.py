"""report.pdf: the structured report typeset with reportlab Platypus.

Every piece of text goes through ``_markup`` / ``_plain``, which escape reportlab's
mini-markup (``<``, ``>``, ``&``), so whatever a model or a web page wrote is shown as
text and cannot break the renderer. One embedded Japanese TrueType font (see fonts.py)
is used for all text in both languages, so mixed ja/en text never shows tofu boxes. Every
character that font lacks is first normalised (the narrow and thin spaces and non-breaking
hyphens models write), else drawn in a fallback font that has it (fonts.fallback_font_for),
else replaced by a visible name: ``[grinning face]`` for a symbol, ``[U+0E01]`` otherwise.
"""

from __future__ import annotations

import io
import re
import unicodedata
from pathlib import Path
from urllib.parse import quote
from xml.sax.saxutils import escape

from reportlab.lib import colors
from reportlab.lib.enums import TA_CENTER, TA_LEFT, TA_RIGHT
from reportlab.lib.pagesizes import A4
from reportlab.lib.styles import ParagraphStyle
from reportlab.lib.units import mm
from reportlab.pdfbase import pdfmetrics
from reportlab.platypus import (
    CondPageBreak,
    Flowable,
    HRFlowable,
    Indenter,
    KeepTogether,
    ListFlowable,
    ListItem,
    Paragraph,
    SimpleDocTemplate,
    Spacer,
    Table,
    TableStyle,
)

from research.modules.text.sanitize import safe_url, strip_controls
from research.modules.core.errors import UserFacingError
from research.modules.core.i18n import t
from research.modules.report.fonts import fallback_font_for, register_font, register_japanese_font
from research.modules.core.files import atomic_write
from research.modules.report.content import (
    Block,
    CodeBlock,
    Heading,
    ListBlock,
    Quote,
    ReportDocument,
    Rule,
    SourceEntry,
    Span,
    TableBlock,
)
from research.modules.report.content import Paragraph as ParagraphBlock
from research.modules.report.sections import SECTIONS, verification_rows, weak_claim_label

AUTHOR = "research-assistant"
LINK_COLOR = "#1a55b0"
_LINK_SCHEMES = ("http://", "https://", "mailto:")
_URI_SAFE = ":/?#[]@!$&'()*+,;=%~"
# Glyphs models like to write that Japanese text fonts often lack, and what stands in.
_SUBSTITUTES = {"⚠": "※", "✔": "✓", "✅": "✓", "✗": "×", "❌": "×", "™": "TM", "↩": "↵"}
_INVISIBLE = re.compile(r"[\u00ad\u200b-\u200f\u2060\ufe00-\ufe0f\ufeff]")
# Typography models write (gpt-oss puts U+202F between digit groups: "3 776 metres") that
# report fonts often lack: the plain character means the same on the page.
_TYPOGRAPHY = {
    **dict.fromkeys("\u00a0\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009\u200a\u202f\u205f", " "),
    **dict.fromkeys("\u2010\u2011\u2012\u2043", "-"),
    "\u2212": "-",  # the minus sign: a hyphen where the font has no minus (checked per font below)
}
FLAG_COLOR = "#b71c1c"
FLAG_BACKGROUND = "#fdecea"
# The verifier's own marks on a sentence it could not confirm (both languages): set in
# a colour of their own so a flagged claim stands out on the page, not a small ※.
_FLAGS = re.compile("|".join(re.escape(t(key, lang)) for key in (
    "verification.flag_unverified", "verification.flag_partly", "verification.flag_contradicted",
    "verifier.flag_not_checked") for lang in ("en", "ja")))


def _named(char: str) -> str:
    """A character no font here can draw, said instead of a blank box: a symbol (emoji)
    by its Unicode name, ``[grinning face]``; a letter of another script by its number, ``[U+0E01]``."""
    name = unicodedata.name(char, "")
    if name and unicodedata.category(char).startswith("S"):
        return f"[{name.lower()}]"
    return f"[U+{ord(char):04X}]"


class Typesetter:
    """Turns a ReportDocument into Platypus flowables in one font; each section
    (sections.py) lays itself out with these methods."""

    def __init__(self, doc: ReportDocument, font: str, width: float) -> None:
        self.doc = doc
        self.font = font
        self.width = width
        self.glyphs = pdfmetrics.getFont(font).face.charToGlyph
        self.quote_depth = 0  # > 0 while typesetting a block quote
        cjk = "CJK" if doc.lang == "ja" else None
        base = ParagraphStyle(
            "body", fontName=font, fontSize=10.5, leading=16.5, wordWrap=cjk, spaceAfter=5,
            textColor=colors.HexColor("#2b2b2b"), splitLongWords=1,
        )
        self.styles = {
            "body": base,
            "title": ParagraphStyle("title", parent=base, fontSize=20, leading=26, spaceAfter=6),
            "question": ParagraphStyle("question", parent=base, fontSize=13, leading=19, spaceAfter=8),
            "h2": ParagraphStyle("h2", parent=base, fontSize=15.5, leading=21, spaceBefore=12, spaceAfter=6,
                                 textColor=colors.HexColor("#0d2a4d")),
            "h3": ParagraphStyle("h3", parent=base, fontSize=12.5, leading=18, spaceBefore=8, spaceAfter=4,
                                 textColor=colors.HexColor("#173f6b")),
            "h4": ParagraphStyle("h4", parent=base, fontSize=11.5, leading=16, spaceBefore=6, spaceAfter=3,
                                 textColor=colors.HexColor("#24527f")),
            "quote": ParagraphStyle("quote", parent=base, textColor=colors.HexColor("#555b63")),
            "cell": ParagraphStyle("cell", parent=base, fontSize=9, leading=12.5, spaceAfter=0),
            "small": ParagraphStyle("small", parent=base, fontSize=8.5, leading=12, spaceAfter=2,
                                    textColor=colors.HexColor("#4a4a4a")),
            "code": ParagraphStyle("code", parent=base, fontSize=8.5, leading=11.5),
        }

    # --- text -----------------------------------------------------------------

    def runs(self, text: str, *, fallback: bool = True) -> list[tuple[str, str | None]]:
        """``text`` as runs of (text, font): None for the report font, else the registered
        name of the fallback font that has those characters. Control characters are
        dropped; what the report font lacks is normalised, swapped for a known stand-in,
        drawn in a fallback font (unless ``fallback`` is False: text drawn in one font) or
        named. Escape sequences go whole (not just their ESC), by the shared sanitiser."""
        text = _INVISIBLE.sub("", strip_controls(text))
        runs: list[tuple[str, str | None]] = []
        for char in text:
            piece, font = self._piece(char, fallback)
            if runs and runs[-1][1] == font:
                runs[-1] = (runs[-1][0] + piece, font)
            elif piece:
                runs.append((piece, font))
        return runs

    def _piece(self, char: str, fallback: bool) -> tuple[str, str | None]:
        if char in "\n\t" or ord(char) in self.glyphs:
            return char, None
        if unicodedata.category(char) in ("Cc", "Cs", "Co", "Cn"):
            return "", None
        for stand_in in (_TYPOGRAPHY.get(char), _SUBSTITUTES.get(char)):
            if stand_in and all(ord(c) in self.glyphs for c in stand_in):
                return stand_in, None
        if fallback:
            path = fallback_font_for(char)
            if path is not None:
                return char, register_font(path)
        return _named(char), None

    def fit(self, text: str) -> str:
        """Text one font can draw (for measuring and for code drawn in the report font)."""
        return "".join(piece for piece, _font in self.runs(text, fallback=False))

    def plain(self, text: str) -> str:
        return "".join(escape(piece) if font is None else f'<font face="{font}">{escape(piece)}</font>'
                       for piece, font in self.runs(text))

    def flagged(self, text: str) -> str:
        """``plain`` with the verifier's flags set in red on a tinted ground."""
        parts, cursor = [], 0
        for match in _FLAGS.finditer(text):
            parts.append(self.plain(text[cursor:match.start()]))
            parts.append(f'<font color="{FLAG_COLOR}" backColor="{FLAG_BACKGROUND}"><b>'
                         f"{self.plain(match.group(0))}</b></font>")
            cursor = match.end()
        parts.append(self.plain(text[cursor:]))
        return "".join(parts)

    def markup(self, spans: list[Span]) -> str:
        parts = []
        for span in spans:
            if span.line_break:
                parts.append("<br/>")
                continue
            text = self.flagged(span.text) if not span.code else self.plain(span.text)
            if span.code:
                text = f'<font backColor="#eef0f3" color="#7a1f3d">{text}</font>'
            if span.bold:
                # Japanese fonts like IPAexGothic have one weight and reportlab has no
                # synthetic bold, so strong text is set apart by colour as well.
                text = f'<b><font color="#000000">{text}</font></b>'
            if span.italic:
                text = f"<i>{text}</i>"
            if span.strike:
                text = f"<strike>{text}</strike>"
            if span.href and span.href.lower().startswith(_LINK_SCHEMES) and safe_url(span.href):
                # PDF URI actions are ASCII: percent-encode non-ASCII (IRIs such as
                # ja.wikipedia.org/wiki/富士山) the way a browser would.
                href = escape(quote(span.href, safe=_URI_SAFE), {'"': "&quot;"})
                text = f'<a href="{href}" color="{LINK_COLOR}">{text}</a>'
            parts.append(text)
        return "".join(parts)

    def paragraph(self, markup: str, style: str = "body", **overrides) -> Paragraph:
        if style == "body" and self.quote_depth:
            style = "quote"
        chosen = self.styles[style]
        if overrides:
            chosen = ParagraphStyle(f"{style}-x", parent=chosen, **overrides)
        try:
            return Paragraph(markup, chosen)
        except ValueError:
            # Our markup is generated and escaped, so this should not happen; if reportlab
            # still rejects it, show the text without styling rather than lose it.
            return Paragraph(escape(re.sub(r"<[^>]*>", "", markup)), chosen)

    # --- blocks ---------------------------------------------------------------

    def blocks(self, blocks: list[Block]) -> list[Flowable]:
        flowables: list[Flowable] = []
        for block in blocks:
            flowables.extend(self.block(block))
        return flowables

    def block(self, block: Block) -> list[Flowable]:
        if isinstance(block, Heading):
            return [self.heading(self.markup(block.spans), block.level, _text(block.spans))]
        if isinstance(block, ParagraphBlock):
            return [self.paragraph(self.markup(block.spans))] if block.spans else []
        if isinstance(block, ListBlock):
            return [self.list_flowable(block)]
        if isinstance(block, TableBlock):
            return [self.table(block), Spacer(1, 6)]
        if isinstance(block, CodeBlock):
            return [CodeFlowable(self.fit(block.text.expandtabs(4)), self.styles["code"]), Spacer(1, 6)]
        if isinstance(block, Quote):
            self.quote_depth += 1
            try:
                inner = self.blocks(block.blocks)
            finally:
                self.quote_depth -= 1
            return [Indenter(left=16), *inner, Indenter(left=-16)]
        if isinstance(block, Rule):
            return [HRFlowable(width="100%", thickness=0.5, color=colors.HexColor("#b0b0b0"), spaceBefore=4, spaceAfter=6)]
        return []

    def heading(self, markup: str, level: int, text: str) -> Paragraph:
        style = {1: "h2", 2: "h2", 3: "h3"}.get(level, "h4")
        flowable = self.paragraph(markup, style)
        flowable._outline = ("".join(piece for piece, _font in self.runs(text)), level)  # read by _ReportTemplate.afterFlowable
        return flowable

    def list_flowable(self, block: ListBlock) -> ListFlowable:
        items = []
        for item_blocks in block.items:
            content = self.blocks(item_blocks) or [self.paragraph("")]
            items.append(ListItem(content))
        options = dict(
            bulletFontName=self.font, bulletFontSize=10, leftIndent=18, bulletDedent=14, spaceBefore=0, spaceAfter=4,
        )
        if block.ordered:
            return ListFlowable(items, bulletType="1", start=block.start, bulletFormat="%s.", **options)
        return ListFlowable(items, bulletType="bullet", start="•", **options)

    def table(self, block: TableBlock) -> Table:
        columns = max([len(block.header)] + [len(row) for row in block.rows] + [1])
        raw_rows = ([block.header] if block.header else []) + block.rows
        rows = [row + [[]] * (columns - len(row)) for row in raw_rows]
        aligns = (block.aligns + ["left"] * columns)[:columns]
        alignment = {"left": TA_LEFT, "center": TA_CENTER, "right": TA_RIGHT}
        data = []
        for row_number, row in enumerate(rows):
            is_header = bool(block.header) and row_number == 0
            data.append([
                self.paragraph(self.markup(cell), "cell", alignment=alignment[aligns[col]],
                               **({"textColor": colors.HexColor("#0d2a4d")} if is_header else {}))
                for col, cell in enumerate(row)
            ])
        widths = self.column_widths([[_text(cell) for cell in row] for row in rows], columns)
        style = [
            # Cells hold Paragraphs, but reportlab still sets the cell font (Helvetica by
            # default, which would be a non-embedded font in the PDF).
            ("FONT", (0, 0), (-1, -1), self.font, 9),
            ("GRID", (0, 0), (-1, -1), 0.4, colors.HexColor("#9aa4b1")),
            ("VALIGN", (0, 0), (-1, -1), "TOP"),
            ("LEFTPADDING", (0, 0), (-1, -1), 4),
            ("RIGHTPADDING", (0, 0), (-1, -1), 4),
        ]
        if block.header:
            style.append(("BACKGROUND", (0, 0), (-1, 0), colors.HexColor("#e6ecf3")))
        return Table(data, colWidths=widths, style=TableStyle(style), repeatRows=1 if block.header else 0,
                     splitByRow=1, splitInRow=1, hAlign="LEFT")

    def column_widths(self, texts: list[list[str]], columns: int) -> list[float]:
        """Widths from each column's natural text width: short columns keep their size,
        long ones share what is left, and the table fills the frame."""
        padding = 10
        natural = [
            max([pdfmetrics.stringWidth(self.fit(row[col]), self.font, 9) + padding for row in texts] + [24])
            for col in range(columns)
        ]
        if sum(natural) <= self.width:
            return natural
        fair = self.width / columns
        fixed = [width for width in natural if width <= fair]
        flexible_total = sum(width for width in natural if width > fair)
        remaining = self.width - sum(fixed)
        return [width if width <= fair else remaining * width / flexible_total for width in natural]

    # --- report parts ---------------------------------------------------------

    def header(self) -> list[Flowable]:
        doc = self.doc
        title = self.heading(self.plain(doc.title), 1, doc.title)
        title.style = self.styles["title"]
        rows = [
            [self.paragraph(f"<b>{self.plain(label)}</b>", "cell"), self.paragraph(self.plain(value), "cell")]
            for label, value in doc.header_fields()
        ]
        label_width = max(pdfmetrics.stringWidth(self.fit(label), self.font, 9) for label, _ in doc.header_fields()) + 14
        meta = Table(rows, colWidths=[label_width, self.width - label_width], hAlign="LEFT", style=TableStyle([
            ("FONT", (0, 0), (-1, -1), self.font, 9),
            ("LINEBELOW", (0, 0), (-1, -1), 0.3, colors.HexColor("#c8ced6")),
            ("VALIGN", (0, 0), (-1, -1), "TOP"),
            ("LEFTPADDING", (0, 0), (-1, -1), 2),
        ]))
        return [title, meta, Spacer(1, 10)]

    def section(self, title: str, body: list[Flowable], level: int = 2) -> list[Flowable]:
        return _keep_with_next([self.heading(self.plain(title), level, title)], body)

    def findings(self) -> list[Flowable]:
        """The themes, each heading kept with its first block. The first theme's heading
        is returned bare so the section heading above can keep it company."""
        flowables: list[Flowable] = []
        for number, part in enumerate(self.doc.findings):
            body = self.blocks(part.blocks)
            if not part.title:  # an untitled part (the draft's headings were bare numbers)
                flowables += body
                continue
            heading = self.heading(self.markup(part.title_spans), 3, part.title)
            flowables += [heading, *body] if number == 0 else _keep_with_next([heading], body)
        return flowables

    def verification(self) -> list[Flowable]:
        view, labels = self.doc.verification, self.doc.labels
        if not view.ran:
            return [self.paragraph(self.plain(labels["verification_not_run"]))]
        counts = verification_rows(self.doc)
        table = TableBlock(
            header=[[Span(labels["item"])], [Span(labels["count"])]],
            rows=[[[Span(name)], [Span(value)]] for name, value in counts],
            aligns=["left", "right"],
        )
        flowables: list[Flowable] = [self.table(table), Spacer(1, 6)]
        if view.invalid_citations:
            flowables.append(self.paragraph(
                f"<b>{self.plain(labels['invalid_citations_removed'])}</b>: " + self.plain(", ".join(view.invalid_citations))
            ))
        if view.weak_claims:
            flowables.append(self.paragraph(f"<b>{self.plain(labels['unsupported_claims'])}</b>"))
            items: list[list[Block]] = [
                [ParagraphBlock([Span(weak_claim_label(self.doc, claim) + ": ", bold=True),
                                 Span(claim.text + (f" ({', '.join(claim.citations)})" if claim.citations else ""))])]
                for claim in view.weak_claims
            ]
            flowables.append(self.list_flowable(ListBlock(ordered=False, start=1, items=items)))
        if view.follow_up_queries:
            flowables.append(self.paragraph(f"<b>{self.plain(labels['follow_up_queries'])}</b>"))
            items = [[ParagraphBlock([Span(query)])] for query in view.follow_up_queries]  # a list[list[Block]]
            flowables.append(self.list_flowable(ListBlock(ordered=False, start=1, items=items)))
        return flowables

    def method(self) -> list[Flowable]:
        """Compact: one small paragraph of facts, one of queries."""
        method, labels = self.doc.method, self.doc.labels
        facts = method.facts(labels)
        flowables = [self.paragraph(" · ".join(f"<b>{self.plain(k)}</b>: {self.plain(v)}" for k, v in facts), "small")]
        if method.queries:
            flowables.append(self.paragraph(f"<b>{self.plain(labels['queries'])}</b>: "
                                            + self.plain(" · ".join(method.queries)), "small"))
        return flowables

    def sources(self, entries: list[SourceEntry] | None = None) -> list[Flowable]:
        labels = self.doc.labels
        entries = self.doc.sources if entries is None else entries
        if not entries:
            return [self.paragraph(self.plain(labels["no_sources"]))]
        items = []
        for source in entries:
            title = source.title or labels["untitled"]
            head = [Span(f"[{source.label}] ", bold=True), Span(title, href=source.url or None)]
            details = [label + (f": {value}" if value else "")
                       for label, value in source.details(labels) + source.warnings(labels)]
            content: list[Flowable] = [self.paragraph(self.markup(head), spaceAfter=1)]
            if source.url:
                content.append(self.paragraph(self.markup([Span(source.url, href=source.url)]), "small"))
            if details:
                content.append(self.paragraph(self.plain(" · ".join(details)), "small"))
            items.append(ListItem(content))
        return [ListFlowable(items, bulletType="1", bulletFormat="%s.", bulletFontName=self.font,
                             bulletFontSize=10, leftIndent=20, bulletDedent=16)]

    def story(self) -> list[Flowable]:
        story = self.header()
        for section in SECTIONS:
            story += section.flowables(self.doc, self)
        return story


# Room a heading needs below it; with less, it starts the next page instead.
_HEADING_ROOM = 60 * mm


def _keep_with_next(headings: list[Flowable], body: list[Flowable]) -> list[Flowable]:
    """Headings glued to what follows them (up to the first non-heading block), so no
    page ends on a heading. A long first block (a list, a table) is not glued whole:
    that would push it to a new page and leave half a page blank before it; the
    heading then only asks for some room below it."""
    lead = list(headings)
    rest = list(body)
    while rest and getattr(rest[0], "_outline", None) is not None:
        lead.append(rest.pop(0))
    if rest and isinstance(rest[0], (ListFlowable, Table)):
        return [CondPageBreak(_HEADING_ROOM), *lead, *rest]
    if rest:
        lead.append(rest.pop(0))
    return [KeepTogether(lead), *rest]


def _text(spans: list[Span]) -> str:
    return "".join(span.text for span in spans)


class CodeFlowable(Flowable):
    """Preformatted code on a tinted background, wrapped at the frame edge by measured
    width (so full-width Japanese characters count double) and split across pages."""

    padding = 4

    def __init__(self, text: str, style: ParagraphStyle, lines: list[str] | None = None) -> None:
        super().__init__()
        self.text = text
        self.style = style
        self.lines = lines
        self.wrapped_for: float | None = None

    def _wrap_lines(self, width: float) -> list[str]:
        limit = width - 2 * self.padding
        font, size = self.style.fontName, self.style.fontSize
        lines: list[str] = []
        for source_line in self.text.split("\n"):
            current, used = "", 0.0
            for char in source_line:
                char_width = pdfmetrics.stringWidth(char, font, size)
                if current and used + char_width > limit:
                    lines.append(current)
                    current, used = "", 0.0
                current += char
                used += char_width
            lines.append(current)
        return lines

    def wrap(self, available_width: float, available_height: float) -> tuple[float, float]:
        if self.lines is None or self.wrapped_for != available_width:
            if self.wrapped_for is None and self.lines is not None:
                self.wrapped_for = available_width  # lines handed over by split()
            else:
                self.lines = self._wrap_lines(available_width)
                self.wrapped_for = available_width
        self.width = available_width
        self.height = len(self.lines or []) * self.style.leading + 2 * self.padding
        return self.width, self.height

    def split(self, available_width: float, available_height: float) -> list[Flowable]:
        self.wrap(available_width, available_height)
        fits = int((available_height - 2 * self.padding) // self.style.leading)
        lines = self.lines or []  # wrap() has just set them
        if fits < 2 or fits >= len(lines):
            return []
        head, tail = lines[:fits], lines[fits:]
        return [CodeFlowable("\n".join(head), self.style, head), CodeFlowable("\n".join(tail), self.style, tail)]

    def draw(self) -> None:
        canvas = self.canv
        canvas.saveState()
        canvas.setFillColor(colors.HexColor("#f3f4f6"))
        canvas.setStrokeColor(colors.HexColor("#d5d9de"))
        canvas.rect(0, 0, self.width, self.height, stroke=1, fill=1)
        text = canvas.beginText(self.padding, self.height - self.padding - self.style.fontSize)
        text.setFont(self.style.fontName, self.style.fontSize, self.style.leading)
        text.setFillColor(colors.HexColor("#1f2933"))
        for line in self.lines or []:
            text.textLine(line)
        canvas.drawText(text)
        canvas.restoreState()


class _ReportTemplate(SimpleDocTemplate):
    """Adds PDF outline entries (bookmarks) for headings; levels never skip."""

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self._outline_depth = -1
        self._outline_count = 0

    def afterFlowable(self, flowable: Flowable) -> None:
        outline = getattr(flowable, "_outline", None)
        if outline is None:
            return
        title, level = outline
        depth = min(max(level - 1, 0), self._outline_depth + 1)
        self._outline_depth = depth
        self._outline_count += 1
        key = f"h{self._outline_count}"
        self.canv.bookmarkPage(key)
        self.canv.addOutlineEntry(title, key, level=depth, closed=depth > 0)


def render_pdf(doc: ReportDocument, path: Path, *, font_path: Path | None = None) -> None:
    """Typeset ``doc`` into ``path`` (A4), atomically: a temp file in the same folder is
    renamed over ``path`` only once the PDF is complete.

    ``font_path`` is the font to embed (normally ``fonts.find_japanese_font(settings)``);
    without it the bundled/system Japanese font is used."""
    path = Path(path)
    font = register_japanese_font(font_path=font_path)
    margin = 18 * mm
    width = A4[0] - 2 * margin
    setter = Typesetter(doc, font, width)
    story = setter.story()
    footer_label = doc.labels["page"]

    def draw_footer(canvas, template) -> None:
        canvas.saveState()
        canvas.setFont(font, 8.5)
        canvas.setFillColor(colors.HexColor("#666666"))
        canvas.drawCentredString(A4[0] / 2, 10 * mm, footer_label.format(number=canvas.getPageNumber()))
        canvas.restoreState()

    # Typeset in memory, then the project's one atomic write (temp file, fsync, rename, fsync
    # of the folder): a power cut never leaves a half-written or empty report.pdf.
    buffer = io.BytesIO()
    try:
        template = _ReportTemplate(
            buffer,
            pagesize=A4,
            leftMargin=margin, rightMargin=margin, topMargin=16 * mm, bottomMargin=18 * mm,
            title=doc.document_title,
            author=AUTHOR,
            creator=AUTHOR,
            subject=f"{doc.labels['question']}: {doc.question}",
            keywords=[doc.labels["title"], doc.model, doc.session_id],
            lang="ja-JP" if doc.lang == "ja" else "en-US",
            displayDocTitle=True,
            initialFontName=font,
            initialFontSize=10.5,
        )
        template.build(story, onFirstPage=draw_footer, onLaterPages=draw_footer)
        atomic_write(path, buffer.getvalue())
    except OSError as exc:
        raise UserFacingError("pdf.write_failed", path=str(path), reason=exc.strerror or str(exc)) from None

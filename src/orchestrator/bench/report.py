"""A bench's report: report.md (the figures, the chart, the questions it got wrong), chart.png
(accuracy with its Wilson 95 % interval for every configuration benched on the same set,
final answer and first draft side by side) and report.pdf with the same content."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from research.modules.core.i18n import t
from research.modules.core.language import Language
from research.modules.text.sanitize import one_line, shorten
from research.orchestrator.bench.results import SUMMARY_FILE, Summary
from research.state.run_record import JsonObject

CHART_FILE = "chart.png"
REPORT_MD = "report.md"
REPORT_PDF = "report.pdf"
WRONG_SHOWN = 50  # questions listed in the report (results.jsonl has every one)


def _percent(value: float | None) -> str:
    return "–" if value is None else f"{100 * value:.1f} %"


def _number(value: float | None, digits: int = 1) -> str:
    return "–" if value is None else f"{value:,.{digits}f}"


def figure_rows(summary: Summary, lang: Language) -> list[tuple[str, str]]:
    """(label, value) for every figure: the terminal table, report.md and the PDF show these."""
    s = summary
    low, high = s.interval
    rows = [
        (t("bench.row_accuracy", lang), f"{_percent(s.accuracy)} ({s.correct}/{s.graded}; "
                                        f"95 % CI {_percent(low)}–{_percent(high)})"),
        (t("bench.row_completed", lang), f"{s.completed}/{s.planned}"),
    ]
    if s.draft_accuracy is not None and s.draft_interval is not None:
        rows.append((t("bench.row_draft_accuracy", lang),
                     f"{_percent(s.draft_accuracy)} ({s.draft_correct}/{s.draft_graded}; 95 % CI "
                     f"{_percent(s.draft_interval[0])}–{_percent(s.draft_interval[1])})"))
    rows += [
        (t("bench.row_verification_changed", lang),
         t("bench.changed_value", lang, changed=s.verification_changed, completed=s.completed,
           helped=s.changed_helped, hurt=s.changed_hurt)),
        (t("bench.row_seconds", lang), f"{_number(s.seconds_median)} / {_number(s.seconds_p90)}"),
        (t("bench.row_tokens", lang), f"{_number(s.tokens_median, 0)} / {_number(s.tokens_total, 0)}"),
        (t("bench.row_supported", lang),
         f"{_percent(s.supported / s.claims if s.claims else None)} ({s.supported}/{s.claims})"),
        (t("bench.row_citations", lang),
         f"{_percent(s.citations_resolved / s.citations if s.citations else None)} "
         f"({s.citations_resolved}/{s.citations})"),
        (t("bench.row_own_page", lang), f"{s.own_page_read}/{s.completed}"),
        (t("bench.row_answer_chars", lang), _number(s.answer_chars_median, 0)),
    ]
    if s.settings.get("pages"):
        indexed = s.settings.get("index_seconds")
        rows.append((t("bench.row_corpus", lang), t("bench.corpus_value", lang, pages=s.settings["pages"],
                                                     seconds=_number(indexed))))
    if s.read_how:
        rows.append((t("bench.row_read_how", lang), ", ".join(f"{k} {v}" for k, v in sorted(s.read_how.items()))))
    return rows


def configurations(folder: Path) -> list[JsonObject]:
    """Every bench of the same set in the bench folder's parent (this one included), for the chart."""
    own = json.loads((folder / SUMMARY_FILE).read_text("utf-8"))
    found = []
    for other in sorted(folder.parent.glob(f"{own['set_name']}-*/{SUMMARY_FILE}")):
        try:
            data = json.loads(other.read_text("utf-8"))
        except (OSError, ValueError):
            continue
        if isinstance(data, dict) and data.get("set_name") == own["set_name"] and data.get("graded"):
            found.append({**data, "name": other.parent.name, "this": other.parent == folder})
    return found


def draw_chart(configs: list[JsonObject], path: Path, lang: Language) -> Path:
    """Accuracy with its 95 % interval per configuration: final answer and first draft."""
    import matplotlib

    matplotlib.use("Agg")
    from matplotlib import font_manager, pyplot as plt

    from research.modules.report.fonts import find_japanese_font

    font = find_japanese_font()  # the labels may be Japanese: the font report.pdf uses
    if font is not None:
        font_manager.fontManager.addfont(str(font))
        plt.rcParams["font.family"] = font_manager.FontProperties(fname=str(font)).get_name()

    labels = [shorten(c["name"], 48) + (" *" if c.get("this") else "") for c in configs]
    figure, axes = plt.subplots(figsize=(7.5, 1.2 + 0.7 * len(configs)))
    try:
        for offset, key, interval_key, colour, name in (
                (-0.17, "accuracy", "interval", "#1f5fa8", t("bench.chart_final", lang)),
                (0.17, "draft_accuracy", "draft_interval", "#9aa9b8", t("bench.chart_draft", lang))):
            ys, xs, lows, highs = [], [], [], []
            for n, config in enumerate(configs):
                if config.get(key) is None or not config.get(interval_key):
                    continue
                ys.append(n + offset)
                xs.append(100 * config[key])
                lows.append(100 * (config[key] - config[interval_key][0]))
                highs.append(100 * (config[interval_key][1] - config[key]))
            if ys:
                axes.errorbar(xs, ys, xerr=[lows, highs], fmt="o", color=colour, capsize=4, label=name)
        axes.set_yticks(range(len(configs)), labels, fontsize=7)
        axes.set_xlim(0, 100)
        axes.set_ylim(-0.6, len(configs) - 0.4)
        axes.invert_yaxis()
        axes.set_xlabel(t("bench.chart_axis", lang))
        axes.grid(axis="x", alpha=0.3)
        axes.legend(loc="lower right", fontsize=7)
        figure.tight_layout()
        figure.savefig(path, dpi=130)
    finally:
        plt.close(figure)
    return path


def markdown(summary: Summary, lang: Language, command: str) -> str:
    s = summary
    lines = [f"# {t('bench.report_title', lang, set=s.set_name, model=s.model)}", "",
             f"`{command}`", "", t("bench.report_accuracy_rule", lang), "",
             f"| {t('bench.col_figure', lang)} | {t('bench.col_value', lang)} |", "|---|---|"]
    lines += [f"| {label} | {value} |" for label, value in figure_rows(s, lang)]
    lines += ["", f"![{t('bench.chart_alt', lang)}]({CHART_FILE})", "",
              f"## {t('bench.wrong_heading', lang, count=len(s.wrong))}", ""]
    if not s.wrong:
        lines.append(t("bench.wrong_none", lang))
    for wrong in s.wrong[:WRONG_SHOWN]:
        lines.append(f"- **{one_line(wrong['question'], 200)}** ({wrong['item_id']}, {wrong['session_id'] or '–'})")
        lines.append(f"  - {t('bench.gold', lang)}: {one_line(' / '.join(wrong['gold']), 200)}; "
                     f"{t('bench.predicted', lang)}: {one_line(str(wrong['predicted']), 100)}"
                     + ("" if wrong["own_page_read"] else f"; {t('bench.own_page_missed', lang)}"))
        said = wrong["error"] or one_line(wrong["answer"], 300)
        lines.append(f"  - {t('bench.answer', lang)}: {said or '–'}")
    if len(s.wrong) > WRONG_SHOWN:
        lines.append(t("bench.wrong_more", lang, count=len(s.wrong) - WRONG_SHOWN))
    return "\n".join(lines) + "\n"


def write_report(folder: Path, summary: Summary, lang: Language, command: str, settings: Any = None) -> dict[str, Path]:
    """report.md, chart.png and report.pdf in the bench's folder; their paths."""
    written = {"chart": draw_chart(configurations(folder), folder / CHART_FILE, lang)}
    text = markdown(summary, lang, command)
    (folder / REPORT_MD).write_text(text, "utf-8")
    written["report_md"] = folder / REPORT_MD
    written["report_pdf"] = _pdf(folder / REPORT_PDF, summary, lang, command, written["chart"], settings)
    return written


def _pdf(path: Path, summary: Summary, lang: Language, command: str, chart: Path, settings: Any) -> Path:
    from reportlab.lib import colors
    from reportlab.lib.pagesizes import A4
    from reportlab.lib.styles import ParagraphStyle
    from reportlab.lib.units import mm
    from reportlab.platypus import Image, Paragraph, SimpleDocTemplate, Spacer, Table, TableStyle
    from xml.sax.saxutils import escape

    from research.modules.report.fonts import register_japanese_font

    font = register_japanese_font(settings)
    body = ParagraphStyle("body", fontName=font, fontSize=9, leading=13, wordWrap="CJK")
    title = ParagraphStyle("title", parent=body, fontSize=14, leading=18, spaceAfter=6)
    heading = ParagraphStyle("heading", parent=body, fontSize=11, leading=15, spaceBefore=8, spaceAfter=4)
    story: list[Any] = [Paragraph(escape(t("bench.report_title", lang, set=summary.set_name, model=summary.model)), title),
                        Paragraph(escape(command), body), Spacer(1, 4),
                        Paragraph(escape(t("bench.report_accuracy_rule", lang)), body), Spacer(1, 6)]
    rows = [[Paragraph(escape(label), body), Paragraph(escape(value), body)] for label, value in figure_rows(summary, lang)]
    table = Table(rows, colWidths=[60 * mm, 110 * mm])
    table.setStyle(TableStyle([("GRID", (0, 0), (-1, -1), 0.3, colors.grey), ("VALIGN", (0, 0), (-1, -1), "TOP")]))
    story += [table, Spacer(1, 8), Image(str(chart), width=170 * mm, height=170 * mm * _aspect(chart))]
    story.append(Paragraph(escape(t("bench.wrong_heading", lang, count=len(summary.wrong))), heading))
    for wrong in summary.wrong[:WRONG_SHOWN]:
        story.append(Paragraph(escape(f"{one_line(wrong['question'], 200)} — {t('bench.gold', lang)}: "
                                      f"{one_line(' / '.join(wrong['gold']), 200)}; {t('bench.predicted', lang)}: "
                                      f"{one_line(str(wrong['predicted']), 100)}"), body))
    SimpleDocTemplate(str(path), pagesize=A4, leftMargin=18 * mm, rightMargin=18 * mm, topMargin=16 * mm,
                      bottomMargin=16 * mm, title=summary.set_name).build(story)
    return path


def _aspect(chart: Path) -> float:
    from reportlab.lib.utils import ImageReader

    width, height = ImageReader(str(chart)).getSize()
    return height / width if width else 0.5

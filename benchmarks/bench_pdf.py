"""Time to typeset a 10-page Japanese report to PDF, with and without font registration.

Medians with min–max over 5 repeats (2 with --quick), after one uncounted warm-up render.

Run: .venv/bin/python benchmarks/bench_pdf.py [--quick]
"""

from __future__ import annotations

import json
import sys
import tempfile
import time
from datetime import datetime, timezone
from pathlib import Path

from pdfminer.pdfdocument import PDFDocument
from pdfminer.pdfpage import PDFPage
from pdfminer.pdfparser import PDFParser

from research.modules.report.fonts import forget_registered_fonts, register_japanese_font
from research.modules.report.pdf import render_pdf
from research.modules.report.content import ReportInput, build_report

sys.path.insert(0, str(Path(__file__).resolve().parent))
from treemem import spread  # noqa: E402

PARAGRAPH = (
    "富士山の火山活動は気象庁によって常時観測されており、噴火警戒レベルは五段階で運用されています [S1]。"
    "1707年の宝永噴火では江戸にも火山灰が降り、社会に大きな影響を与えました [S2]。"
    "近年のハザードマップ改定により、溶岩流の到達範囲はより広く想定されるようになりました [S1][S3]。"
)


def sample_input(sections: int) -> ReportInput:
    """A Japanese report of about ``sections / 2.3`` pages: prose, lists and tables."""
    parts = ["本レポートの結論：監視体制は整っているが、噴火時期の予測は難しい [S1]。\n"]
    for number in range(sections):
        parts.append(f"## 論点 {number + 1}\n\n{PARAGRAPH}\n\n{PARAGRAPH}\n")
        parts.append("- 観測点の増設 [S1]\n- 避難計画の見直し [S2]\n- 降灰対策 [S3]\n")
        if number % 2 == 0:
            parts.append("| 年 | 出来事 |\n|---|---|\n| 1707 | 宝永噴火 |\n| 864 | 貞観噴火：青木ヶ原溶岩 |\n")
    sources = [{"label": f"S{i}", "url": f"https://example.jp/source/{i}", "title": f"資料 {i}", "language": "ja",
                "retrieved_at": "2025-03-01T10:00:00+09:00", "status": "ok", "suspicious": False} for i in (1, 2, 3)]
    return ReportInput(question="富士山の噴火リスクは？", language="ja", model="gpt-oss:20b",
                       generated_at=datetime(2025, 3, 1, tzinfo=timezone.utc), session_id="bench",
                       body_markdown="\n".join(parts), sources=sources,
                       verification={"summary": {"claims": 10, "supported": 9, "supported_ratio": 0.9, "loops": 1}},
                       method={"engines": ["duckduckgo"], "sources_read": 3, "loops": 1})


def _pages(path: Path) -> int:
    with path.open("rb") as handle:
        return sum(1 for _ in PDFPage.create_pages(PDFDocument(PDFParser(handle))))


def run(quick: bool) -> dict:
    repeats = 2 if quick else 5
    doc = build_report(sample_input(sections=28))
    registration, cold, warm = [], [], []
    with tempfile.TemporaryDirectory() as folder:
        target = Path(folder) / "report.pdf"
        render_pdf(doc, target)  # first render in this process imports and warms everything; not counted
        for _ in range(repeats):
            forget_registered_fonts()  # the next render loads and registers the font file again
            started = time.perf_counter()
            render_pdf(doc, target)
            cold.append(time.perf_counter() - started)
            started = time.perf_counter()
            render_pdf(doc, target)  # font already registered in this process
            warm.append(time.perf_counter() - started)
            forget_registered_fonts()
            started = time.perf_counter()
            register_japanese_font()
            registration.append(time.perf_counter() - started)
        pages = _pages(target)
        size = target.stat().st_size
    return {
        "pages": pages,
        "pdf_bytes": size,
        "repeats": repeats,
        "font_registration_s": spread(registration, 4),
        "render_with_font_registration_s": spread(cold, 4),
        "render_without_font_registration_s": spread(warm, 4),
    }


if __name__ == "__main__":
    print(json.dumps(run(quick="--quick" in sys.argv), indent=2))

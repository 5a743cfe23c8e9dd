"""report.pdf: round trip of Japanese text, embedded fonts, hostile markup, long reports,
metadata, links, and a raster check that Japanese glyphs (not tofu boxes) are drawn."""

from __future__ import annotations

import re
import shutil
import subprocess
from collections import Counter
from datetime import datetime, timezone
from pathlib import Path

import pytest
from pdfminer.high_level import extract_pages, extract_text
from pdfminer.layout import LTChar, LTTextLine
from pdfminer.pdfdocument import PDFDocument
from pdfminer.pdfpage import PDFPage
from pdfminer.pdfparser import PDFParser
from pdfminer.pdftypes import resolve1
from PIL import Image, ImageChops
from reportlab.lib.pagesizes import A4
from reportlab.pdfgen.canvas import Canvas

from research.modules.core.errors import UsageError
from research.modules.report.fonts import bundled_font_path, find_japanese_font, register_font, register_japanese_font
from research.modules.core.language import japanese_chars
from research.modules.report.pdf import render_pdf
from research.modules.report.content import ReportInput, build_report
from research.modules.report.markdown import render_markdown

_JAPANESE = re.compile(r"[\u3040-\u309f\u30a0-\u30ff\uff66-\uff9f\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]")
LONG_URL = "https://example.com/" + "very-long-path-segment/" * 12 + "?q=" + "x" * 300
LONG_URL = LONG_URL[:300]
HOSTILE = "<b> a < b & c </para> <font name=x> <i>unbalanced &amp; &#x41; ]]> <a href='javascript:x'>"

THEMES = ["火山活動", "観測体制", "防災計画", "歴史資料", "Economic impact", "国際比較"]
SENTENCES = [
    "富士山は日本で最も高い山であり、その山体は複数の火山が重なってできています [S1]。",
    "気象庁は2007年から噴火警戒レベルを運用しており、住民への情報提供を行っています [S2]。",
    "The Hoei eruption of 1707 deposited ash as far as Edo, about 100 km away [S3].",
    "ハザードマップは2021年に改定され、溶岩流の到達範囲がより広く想定されました [S1][S2]。",
    "専門家によれば、次の噴火の時期を正確に予測することは現在の技術では困難です ⚠ 未検証。",
]


def long_body() -> str:
    parts = ["本レポートは富士山の噴火リスクについてまとめたものです [S1]。結論として、監視体制は強化されています。\n"]
    for number in range(30):
        theme = THEMES[number % len(THEMES)]
        parts.append(f"## {theme} {number + 1}\n")
        parts.append(" ".join(SENTENCES[(number + k) % len(SENTENCES)] for k in range(4)) + "\n")
        parts.append(f"- 項目一：観測点は{number + 10}か所 [S1]\n- Item two with `inline code` and **強調**\n"
                     "  - 入れ子の項目 nested item\n")
        parts.append("1. 第一段階\n2. 第二段階\n")
        if number % 3 == 0:
            parts.append("| 年 | 出来事 | Source |\n|---|---|--:|\n"
                         f"| 1707 | 宝永噴火：江戸に降灰、{number}回目の記録 | [S3] |\n"
                         "| 864 | 貞観噴火。青木ヶ原の溶岩流を形成した大規模な噴火で、説明の長いセルは折り返されます | [S1] |\n")
        if number % 4 == 0:
            comment = "# 長いコメントは枠の端で折り返される必要があります。" * 4
            parts.append(f"```python\ndef risk(level: int) -> str:\n    return '高' if level > 3 and level < 5 else '低'  "
                         f"{comment}\n```\n")
        if number % 5 == 0:
            parts.append(f"Hostile: {HOSTILE} 危険な文字列 `{HOSTILE}`\n\n> 引用：{HOSTILE}\n")
        if number == 7:
            parts.append(f"長いURL: {LONG_URL}\n")
    return "\n".join(parts)


def report_input(**overrides) -> ReportInput:
    values = dict(
        question="富士山の噴火リスクと監視体制は？ <b>&</b>",
        language="ja",
        model="gpt-oss:20b",
        generated_at=datetime(2025, 3, 1, 10, 0, tzinfo=timezone.utc),
        session_id="20250301_100000_ab12",
        body_markdown=long_body(),
        sources=[
            {"label": "S1", "url": "https://ja.wikipedia.org/wiki/富士山", "title": "富士山 - Wikipedia", "language": "ja",
             "retrieved_at": "2025-03-01T10:00:00+09:00", "status": "ok", "suspicious": False},
            {"label": "S2", "url": "https://www.jma.go.jp/", "title": "気象庁 <Japan Meteorological Agency>",
             "language": "ja", "retrieved_at": "2025-03-01T10:00:01+09:00", "status": "ok", "suspicious": True},
            {"label": "S3", "url": LONG_URL, "title": "A & B </para>", "language": "en", "retrieved_at": "",
             "status": "failed", "error": "timeout <30s>", "suspicious": False},
        ],
        verification={"claims": [{"index": 3, "text": "次の噴火の時期 <予測>", "verdict": "unsupported", "citations": []}],
                      "summary": {"claims": 40, "supported": 36, "partly_supported": 2, "unsupported": 1,
                                  "citation_invalid": 1, "supported_ratio": 0.9, "invalid_citations": ["S7"], "loops": 1}},
        method={"engines": ["duckduckgo"], "queries": ["富士山 噴火 リスク"], "sources_read": 2, "sources_failed": 1,
                "loops": 1, "sandbox": "bwrap"},
        notes=["S3 を読み込めませんでした (timeout)"],
    )
    values.update(overrides)
    return ReportInput(**values)


@pytest.fixture(scope="module")
def long_report(tmp_path_factory) -> tuple[Path, Path]:
    folder = tmp_path_factory.mktemp("report")
    doc = build_report(report_input())
    markdown_path = folder / "report.md"
    markdown_path.write_text(render_markdown(doc), encoding="utf-8")
    pdf_path = folder / "report.pdf"
    render_pdf(doc, pdf_path)
    return markdown_path, pdf_path


def _pdf_document(path: Path) -> tuple[PDFDocument, list[PDFPage]]:
    handle = path.open("rb")
    document = PDFDocument(PDFParser(handle))
    return document, list(PDFPage.create_pages(document))


def test_long_report_has_ten_or_more_pages_and_no_temp_files(long_report):
    _, pdf_path = long_report
    _, pages = _pdf_document(pdf_path)
    assert len(pages) >= 10
    assert sorted(p.name for p in pdf_path.parent.iterdir()) == ["report.md", "report.pdf"]


def test_pdf_text_keeps_98_percent_of_the_japanese_characters(long_report):
    markdown_path, pdf_path = long_report
    wanted = Counter(_JAPANESE.findall(markdown_path.read_text(encoding="utf-8")))
    found = Counter(_JAPANESE.findall(extract_text(str(pdf_path))))
    kept = sum(min(count, found[char]) for char, count in wanted.items())
    assert sum(wanted.values()) > 3000
    assert kept / sum(wanted.values()) >= 0.98


def test_hostile_markup_is_shown_as_text(long_report):
    _, pdf_path = long_report
    text = extract_text(str(pdf_path), page_numbers=[0, 1, 2, 3])
    flat = re.sub(r"\s+", "", text)
    assert re.sub(r"\s+", "", "a < b & c </para>") in flat
    assert "<b>" in flat and "<i>unbalanced" in flat


def test_every_font_is_embedded(long_report):
    _, pdf_path = long_report
    _, pages = _pdf_document(pdf_path)
    seen = 0
    for page in pages:
        fonts = resolve1(resolve1(page.resources).get("Font", {})) if page.resources else {}
        for font in (resolve1(value) for value in fonts.values()):
            seen += 1
            descriptors = [font]
            if resolve1(font.get("Subtype")).name == "Type0":
                descriptors = [resolve1(d) for d in resolve1(font["DescendantFonts"])]
            for descendant in descriptors:
                descriptor = resolve1(descendant.get("FontDescriptor"))
                assert descriptor is not None, f"font without descriptor (not embedded): {font.get('BaseFont')}"
                assert any(key in descriptor for key in ("FontFile", "FontFile2", "FontFile3")), font.get("BaseFont")
    assert seen > 0


def test_metadata_language_and_clickable_links(long_report):
    _, pdf_path = long_report
    document, pages = _pdf_document(pdf_path)
    info = {key: resolve1(value) for key, value in document.info[0].items()}
    decode = lambda raw: raw.decode("utf-16") if raw.startswith(b"\xfe\xff") else raw.decode("latin-1")  # noqa: E731
    assert "富士山の噴火リスク" in decode(info["Title"])
    assert decode(info["Author"]) == "research-assistant"
    assert "質問" in decode(info["Subject"])
    assert resolve1(document.catalog["Lang"]) in (b"ja-JP", "ja-JP")
    uris = set()
    for page in pages:
        for annotation in resolve1(page.annots) or []:
            action = resolve1(resolve1(annotation).get("A"))
            if action and "URI" in action:
                uris.add(resolve1(action["URI"]).decode("ascii"))
    assert LONG_URL in uris
    assert "https://www.jma.go.jp/" in uris
    assert "https://ja.wikipedia.org/wiki/%E5%AF%8C%E5%A3%AB%E5%B1%B1" in uris  # IRI percent-encoded
    assert not any(uri.startswith("javascript") for uri in uris)


def test_english_report_and_rewrite_of_an_existing_pdf(tmp_path):
    doc = build_report(report_input(language="en", question="Is Mt. Fuji monitored?", body_markdown="Yes [S1].\n\n## Why\n"
                                    "The JMA watches it around the clock [S2]. 日本語の語句も混在します。"))
    target = tmp_path / "report.pdf"
    target.write_bytes(b"old")
    render_pdf(doc, target)
    assert target.read_bytes().startswith(b"%PDF")
    text = extract_text(str(target))
    assert "Summary" in text and "Sources" in text and "日本語の語句も混在します" in re.sub(r"\s+", "", text)
    assert [p.name for p in tmp_path.iterdir()] == ["report.pdf"]


def test_user_font_setting_wins_and_a_missing_one_is_a_usage_error(tmp_path):
    class FakeSettings:  # only the attribute the font finder reads
        pdf_font = tmp_path / "missing.ttf"

    with pytest.raises(UsageError) as caught:
        find_japanese_font(FakeSettings())
    assert caught.value.key == "pdf.font_missing"
    assert "missing.ttf" in caught.value.message("en")

    FakeSettings.pdf_font = bundled_font_path()
    assert find_japanese_font(FakeSettings()) == bundled_font_path()
    assert find_japanese_font() == bundled_font_path()


def _cff_font(path: Path) -> None:
    """A tiny OpenType font with CFF outlines mapping 'A' and 'あ' to a square."""
    from fontTools.fontBuilder import FontBuilder
    from fontTools.pens.t2CharStringPen import T2CharStringPen

    builder = FontBuilder(1000, isTTF=False)
    builder.setupGlyphOrder([".notdef", "A", "a_hira"])
    builder.setupCharacterMap({ord("A"): "A", ord("あ"): "a_hira"})
    charstrings = {}
    for name in (".notdef", "A", "a_hira"):
        pen = T2CharStringPen(600, None)
        pen.moveTo((100, 0))
        pen.lineTo((100, 700))
        pen.curveTo((200, 800), (400, 800), (500, 700))
        pen.lineTo((500, 0))
        pen.closePath()
        charstrings[name] = pen.getCharString()
    builder.setupCFF("TestCFF-Regular", {"FullName": "TestCFF"}, charstrings, {})
    builder.setupHorizontalMetrics({name: (600, 100) for name in charstrings})
    builder.setupHorizontalHeader(ascent=800, descent=-200)
    builder.setupNameTable({"familyName": "TestCFF", "styleName": "Regular"})
    builder.setupOS2(sTypoAscender=800, usWinAscent=800, usWinDescent=200)
    builder.setupPost()
    builder.save(str(path))


def test_cff_font_is_converted_to_truetype_and_embedded(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    font_path = tmp_path / "TestCFF.otf"
    _cff_font(font_path)
    name = register_font(font_path)
    assert list((tmp_path / "cache").rglob("*.ttf")), "the converted TrueType copy is cached"
    canvas_path = tmp_path / "cff.pdf"
    canvas = Canvas(str(canvas_path))
    canvas.setFont(name, 20)
    canvas.drawString(72, 720, "Aあ")
    canvas.save()
    document, pages = _pdf_document(canvas_path)
    fonts = resolve1(resolve1(pages[0].resources)["Font"])
    [converted] = [resolve1(f) for f in fonts.values() if b"TestCFF" in resolve1(f)["BaseFont"].name.encode()]
    descriptor = resolve1(converted["FontDescriptor"])
    assert "FontFile2" in descriptor


def test_a_file_that_is_not_a_font_is_a_clear_error(tmp_path):
    from research.modules.core.errors import UserFacingError

    bogus = tmp_path / "font.ttf"
    bogus.write_text("not a font")
    with pytest.raises(UserFacingError) as caught:
        register_japanese_font(font_path=bogus)
    assert caught.value.key == "pdf.font_unusable"


# --- raster check ------------------------------------------------------------------

DPI = 100


def _rasterise(pdf_path: Path, out_prefix: Path) -> Image.Image:
    subprocess.run(["pdftoppm", "-r", str(DPI), "-gray", "-f", "1", "-l", "1", "-png", str(pdf_path), str(out_prefix)],
                   check=True, capture_output=True, timeout=60)
    [png] = sorted(out_prefix.parent.glob(out_prefix.name + "*.png"))
    return Image.open(png).convert("L")


def _ink(image: Image.Image) -> Image.Image:
    return image.point(lambda value: 255 if value < 170 else 0)


def _overlap(first: Image.Image, second: Image.Image) -> float:
    """Intersection over union of two ink masks."""
    both = ImageChops.multiply(first, second).histogram()[255]
    either = ImageChops.lighter(first, second).histogram()[255]
    return both / either if either else 0.0


@pytest.mark.skipif(shutil.which("pdftoppm") is None,
                    reason="pdftoppm not installed (Debian package poppler-utils)")
def test_page_one_shows_japanese_glyphs_not_tofu(long_report, tmp_path):
    _, pdf_path = long_report
    page = _rasterise(pdf_path, tmp_path / "page")
    ink_share = _ink(page).histogram()[255] / (page.width * page.height)
    assert ink_share > 0.01, "page 1 is blank"

    # Find the title line and the glyph origins pdfminer reports for it.
    title = "調査レポート"
    layout = next(extract_pages(str(pdf_path), page_numbers=[0]))
    lines = []
    stack = list(layout)
    while stack:
        item = stack.pop()
        if isinstance(item, LTTextLine):
            lines.append(item)
        elif hasattr(item, "__iter__"):
            stack.extend(item)
    line = next(line for line in lines if line.get_text().strip() == title)
    chars = [item for item in line if isinstance(item, LTChar)]
    size = chars[0].size
    origin_x, origin_y = chars[0].matrix[4], chars[0].matrix[5]

    # Draw the same string with the same font at the same place on a fresh page, and a
    # "tofu" version: one empty box per character, which is what a missing font looks like.
    font = register_japanese_font()
    reference_path, tofu_path = tmp_path / "reference.pdf", tmp_path / "tofu.pdf"
    canvas = Canvas(str(reference_path), pagesize=A4)
    canvas.setFont(font, size)
    colour = getattr(chars[0].graphicstate, "ncolor", None)
    if isinstance(colour, tuple) and len(colour) == 3:
        canvas.setFillColorRGB(*colour)  # same ink as the heading, so edges grey alike
    canvas.drawString(origin_x, origin_y, title)
    canvas.save()
    canvas = Canvas(str(tofu_path), pagesize=A4)
    canvas.setLineWidth(size / 14)
    for char in chars:
        canvas.rect(char.x0 + size * 0.08, origin_y - size * 0.05, size * 0.84, size * 0.85)
    canvas.save()

    scale = DPI / 72
    top = A4[1] - line.y1
    box = (int(line.x0 * scale) - 3, int(top * scale) - 3, int(line.x1 * scale) + 3, int((A4[1] - line.y0) * scale) + 3)
    report_ink = _ink(page.crop(box))
    reference_ink = _ink(_rasterise(reference_path, tmp_path / "ref").crop(box))
    tofu_ink = _ink(_rasterise(tofu_path, tmp_path / "tofu").crop(box))
    assert report_ink.histogram()[255] > 50, "no ink where the title should be"
    matches_reference = _overlap(report_ink, reference_ink)
    matches_tofu = _overlap(report_ink, tofu_ink)
    print(f"title ink overlap: reference {matches_reference:.2f}, tofu {matches_tofu:.2f}")
    assert matches_reference > 0.85, matches_reference
    assert matches_tofu < 0.5, matches_tofu
    assert japanese_chars(title) == len(chars)


# --- issue 14: the answer reads as it was written; flags stand out; order ------------------


def _chars(pdf: Path) -> list[LTChar]:
    found: list[LTChar] = []

    def walk(node) -> None:
        if isinstance(node, LTChar):
            found.append(node)
        for child in getattr(node, "_objs", []) or []:
            walk(child)

    for page in extract_pages(str(pdf)):
        walk(page)
    return found


def _issue14_report(tmp_path: Path, lang: str = "ja") -> Path:
    body = ("富士山の標高は3,776メートルです。[S1]\n"
            "最後の噴火は1707年です。[S1] （裏付けなし）\n"
            "噴火は16日間続きました。[S1] （未確認）\n"
            "噴火は1708年に始まりました。[S1] （矛盾）\n")
    data = ReportInput(question="富士山", language=lang, model="m", generated_at=datetime(2025, 1, 1, tzinfo=timezone.utc),
                       session_id="20250101_000000_abcdef", body_markdown=body,
                       sources=[{"label": "S1", "url": "https://example.org/fuji", "title": "Fuji", "status": "ok"}],
                       verification={"summary": {"claims": 3, "supported": 1},
                                     "follow_up_queries": [{"text": "宝永噴火 期間", "language": "ja"}]},
                       method={"queries": [f"query {n}" for n in range(15)], "engines": ["searxng"]})
    pdf = tmp_path / "report.pdf"
    render_pdf(build_report(data), pdf, font_path=find_japanese_font(None))
    return pdf


def test_each_claim_line_of_the_draft_stays_its_own_line(tmp_path: Path) -> None:
    text = extract_text(str(_issue14_report(tmp_path)))
    lines = [line.strip() for line in text.splitlines() if line.strip()]
    assert any(line.startswith("最後の噴火は1707年です。") for line in lines), lines
    assert any(line.startswith("噴火は16日間続きました。") for line in lines), lines
    assert "{'text'" not in text and "宝永噴火 期間" in text


def test_flagged_claims_are_marked_in_colour(tmp_path: Path) -> None:
    chars = _chars(_issue14_report(tmp_path))
    red = [c.get_text() for c in chars if tuple(round(v, 2) for v in (c.graphicstate.ncolor or ())) == (0.72, 0.11, 0.11)]
    assert "（裏付けなし）" in "".join(red) and "（未確認）" in "".join(red) and "（矛盾）" in "".join(red)
    body = [c for c in chars if c.get_text() == "標"]
    assert body and tuple(body[0].graphicstate.ncolor or ()) != (0.72, 0.11, 0.11)


def test_sections_follow_the_shared_order_with_method_last(tmp_path: Path) -> None:
    text = extract_text(str(_issue14_report(tmp_path)))
    positions = [text.index(word) for word in ("結論", "検証", "出典", "方法")]
    assert positions == sorted(positions)
    assert "query 14" in text.split("方法")[-1]


def test_a_long_sources_list_starts_on_the_page_with_room_for_it(tmp_path: Path) -> None:
    # The issue: half a page left blank before Sources, the whole list pushed to the next page.
    from pdfminer.layout import LTTextContainer

    sources = [{"label": f"S{n}", "url": f"https://example.org/page-{n}", "title": f"資料 {n}", "status": "ok"}
               for n in range(1, 41)]
    body = "".join(f"富士山について{n}番目の事実を述べます。[S{n}]\n" for n in range(1, 31))
    data = ReportInput(question="富士山", language="ja", model="m", generated_at=datetime(2025, 1, 1, tzinfo=timezone.utc),
                       session_id="20250101_000000_abcdef", body_markdown=body, sources=sources,
                       verification={"summary": {"claims": 30, "supported": 30}}, method={"engines": ["searxng"]})
    pdf = tmp_path / "report.pdf"
    render_pdf(build_report(data), pdf, font_path=find_japanese_font(None))
    pages = list(extract_pages(str(pdf)))
    boxes = [[b for b in page if isinstance(b, LTTextContainer) and b.y0 > 60] for page in pages]  # not the footer
    heading_page = next(n for n, page in enumerate(boxes) if any(b.get_text().strip() == "出典" for b in page))
    # Every page before the one with the heading is used down to its lower quarter.
    for n in range(heading_page):
        lowest = min(b.y0 for b in boxes[n])
        assert lowest < pages[n].height * 0.25, f"page {n + 1} ends at y={lowest:.0f} of {pages[n].height:.0f}"
    # And the list starts right under its heading, on the same page.
    heading = next(b for b in boxes[heading_page] if b.get_text().strip() == "出典")
    assert any("[S1]" in b.get_text() and b.y0 < heading.y0 for b in boxes[heading_page])


# --- characters the report font lacks: normalised, a fallback font, or named; never 〓 or tofu ---

TYPOGRAPHY_BODY = (
    "It rises to 3\u202f776\u202fmetres [S1]. A non\u2011breaking hyphen, a thin\u2009space, a figure\u2007space, "
    "Greek Ελληνικά, Russian Русский, arrows → ≈ ★ ☃ ♞ ⚠, emoji 😀👍🏽, Thai ภาษาไทย, Devanagari नमस्ते, minus \u22125.\n"
)


def _font_files() -> dict[str, Path]:
    from research.modules.report.fonts import bundled_fallback_fonts

    files = {path.stem: path for path in bundled_fallback_fonts()}
    files["IPAexGothic"] = bundled_font_path()
    return files


@pytest.mark.skipif(shutil.which("pdftoppm") is None, reason="pdftoppm not installed (Debian package poppler-utils)")
def test_every_character_is_drawn_in_a_font_that_has_it(tmp_path):
    # gpt-oss writes U+202F between digit groups; IPAexGothic has no glyph for it, and the
    # report showed "3〓776〓metres". Titles and the question carry such characters too.
    from fontTools.ttLib import TTFont

    doc = build_report(report_input(body_markdown=TYPOGRAPHY_BODY, question="Fuji 3\u202f776\u202fm 😀 ☃?",
                                    sources=[{**report_input().sources[0].model_dump(), "title": "Ελληνικά ☃ ภาษาไทย 😀"}]))
    pdf = tmp_path / "report.pdf"
    render_pdf(doc, pdf)
    text = " ".join(extract_text(str(pdf)).split())
    assert "〓" not in text
    assert "It rises to 3 776 metres" in text and "thin space" in text and "figure space" in text
    assert "Ελληνικά" in text and "☃" in text and "♞" in text
    assert "[U+0E20]" in text  # no font here has Thai: named, visibly, as the README says
    cmaps = {name: frozenset(TTFont(str(path), lazy=True).getBestCmap()) for name, path in _font_files().items()}
    drawn = 0
    for char in _chars(pdf):
        font = char.fontname.split("+", 1)[-1]
        assert font in cmaps, f"{char.get_text()!r} set in a font the report did not choose: {font}"
        code = ord(char.get_text()[0])
        assert code in cmaps[font], f"{char.get_text()!r} (U+{code:04X}) drawn in {font}, which has no glyph: tofu"
        drawn += font != "IPAexGothic"
    assert drawn >= 5  # the snowman, the knight, the emoji: from the fallback font
    # And on the page: each symbol from the fallback font looks like that font's glyph, not
    # like the empty box a missing glyph draws (the same comparison as the title's above).
    page = _rasterise(pdf, tmp_path / "page")
    fallback = _font_files()["DejaVuSans"]
    name = register_font(fallback)
    scale = DPI / 72
    # reportlab's text layer maps a character beyond U+FFFF to the wrong one (😀 reads back
    # as ὠ); the glyph drawn is 😀's, which is what this compares.
    for shown, symbol in (("♞", "♞"), ("ά", "ά"), ("ὠ", "😀")):
        char = next(c for c in _chars(pdf) if c.get_text() == shown and c.fontname.endswith("DejaVuSans"))
        reference_path, tofu_path = tmp_path / f"ref-{ord(symbol)}.pdf", tmp_path / f"tofu-{ord(symbol)}.pdf"
        canvas = Canvas(str(reference_path), pagesize=A4)
        canvas.setFont(name, char.size)
        canvas.drawString(char.matrix[4], char.matrix[5], symbol)
        canvas.save()
        canvas = Canvas(str(tofu_path), pagesize=A4)
        canvas.setLineWidth(char.size / 14)
        canvas.rect(char.x0 + char.size * 0.08, char.matrix[5] - char.size * 0.05, char.size * 0.84, char.size * 0.85)
        canvas.save()
        box = (int(char.x0 * scale) - 2, int((A4[1] - char.y1) * scale) - 2,
               int(char.x1 * scale) + 2, int((A4[1] - char.y0) * scale) + 2)
        drawn = _ink(page.crop(box))
        assert drawn.histogram()[255] > 10, f"no ink where {symbol} should be"
        assert _overlap(drawn, _ink(_rasterise(reference_path, tmp_path / f"r{ord(symbol)}").crop(box))) > 0.6, symbol
        assert _overlap(drawn, _ink(_rasterise(tofu_path, tmp_path / f"t{ord(symbol)}").crop(box))) < 0.5, symbol

"""Documents for the parser tests and benchmark: real HTML and PDF files in Japanese and
English, and the hostile inputs the sandbox must survive. Built on the fly, nothing binary
is checked in."""

from __future__ import annotations

import importlib.util
import io
import zlib
from pathlib import Path

EN_FACT = "Mount Fuji is 3,776 m tall and last erupted in 1707."
EN_FACT_2 = "About 300,000 people climb it every year, and 2013 brought World Heritage status."
EN_PLAIN = "It is a stratovolcano that many artists have painted over the centuries."
JA_FACT = "富士山の最後の噴火は1707年12月16日に始まった宝永噴火である。"
JA_FACT_2 = "標高は3776 mで、毎年およそ30万人が登る。"
JA_PLAIN = "多くの画家がこの山を描いてきた。"


def english_html() -> bytes:
    return f"""<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Mount Fuji facts</title></head>
<body><nav>Home | About | Subscribe to our newsletter</nav>
<article><h1>Mount Fuji</h1>
<p>{EN_FACT} {EN_PLAIN}</p>
<p>{EN_FACT_2}</p>
<table><tr><th>Peak</th><th>Height</th></tr><tr><td>Fuji</td><td>3,776 m</td></tr><tr><td>Kita</td><td>3,193 m</td></tr></table>
</article><footer>Copyright 2024. All rights reserved.</footer></body></html>""".encode()


def japanese_html() -> bytes:
    return f"""<!doctype html><html lang="ja"><head><meta charset="utf-8"><title>富士山の噴火</title></head>
<body><article><h1>富士山</h1>
<p>{JA_FACT}{JA_PLAIN}</p>
<p>{JA_FACT_2}</p>
</article></body></html>""".encode()


def japanese_font_path() -> str:
    spec = importlib.util.find_spec("matplotlib_fontja")
    assert spec is not None and spec.submodule_search_locations, "matplotlib-fontja is a dependency"
    return str(Path(list(spec.submodule_search_locations)[0]) / "fonts" / "ipaexg.ttf")


def pdf_with_lines(lines: list[str], *, japanese: bool = False, title: str = "") -> bytes:
    from reportlab.lib.pagesizes import A4
    from reportlab.pdfbase import pdfmetrics
    from reportlab.pdfbase.ttfonts import TTFont
    from reportlab.pdfgen import canvas

    font = "Helvetica"
    if japanese:
        font = "IPAexGothic"
        if font not in pdfmetrics.getRegisteredFontNames():
            pdfmetrics.registerFont(TTFont(font, japanese_font_path()))
    buffer = io.BytesIO()
    pdf = canvas.Canvas(buffer, pagesize=A4)
    pdf.setTitle(title)
    y = 800
    for line in lines:
        pdf.setFont(font, 11)
        pdf.drawString(50, y, line)
        y -= 30  # a gap wider than a line: pdfminer reads each line as its own paragraph
    pdf.save()
    return buffer.getvalue()


def english_pdf() -> bytes:
    return pdf_with_lines([EN_FACT, EN_PLAIN, EN_FACT_2], title="Mount Fuji report")


def japanese_pdf() -> bytes:
    return pdf_with_lines([JA_FACT, JA_PLAIN, JA_FACT_2], japanese=True, title="富士山の報告")


def compression_bomb_pdf(gib: int = 2) -> bytes:
    """A valid PDF whose one page content stream (FlateDecode) inflates to ``gib`` GiB of
    zeros from about 1 MB per GiB. Built from repeated full-flush deflate blocks, so making
    it takes well under a second."""
    chunk = b"\0" * (16 << 20)
    deflate = zlib.compressobj(9)
    first = deflate.compress(chunk) + deflate.flush(zlib.Z_FULL_FLUSH)
    middle = deflate.compress(chunk) + deflate.flush(zlib.Z_FULL_FLUSH)  # identical for every later chunk
    last = deflate.compress(chunk) + deflate.flush()
    stream = first + middle * (gib * 64 - 2) + last
    objects = [
        b"<< /Type /Catalog /Pages 2 0 R >>",
        b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
        b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R >>",
        b"<< /Length %d /Filter /FlateDecode >>\nstream\n" % len(stream) + stream + b"\nendstream",
    ]
    out = io.BytesIO()
    out.write(b"%PDF-1.4\n")
    offsets = []
    for number, body in enumerate(objects, 1):
        offsets.append(out.tell())
        out.write(b"%d 0 obj\n" % number + body + b"\nendobj\n")
    xref = out.tell()
    out.write(b"xref\n0 %d\n0000000000 65535 f \n" % (len(objects) + 1))
    for offset in offsets:
        out.write(b"%010d 00000 n \n" % offset)
    out.write(b"trailer\n<< /Size %d /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n" % (len(objects) + 1, xref))
    return out.getvalue()


def deeply_nested_html(depth: int = 60_000) -> bytes:
    return b"<html><body>" + b"<div>" * depth + b"Deep text that nobody should be able to reach. " * 5 + b"</div>" * depth + b"</body></html>"


def huge_html(megabytes: int = 50) -> bytes:
    paragraph = b"<p>Lorem ipsum dolor sit amet, in 2024 about 5 km of text was written.</p>\n"
    return b"<html><body>" + paragraph * (megabytes * 1024 * 1024 // len(paragraph) + 1) + b"</body></html>"

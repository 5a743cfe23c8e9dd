"""The report's sections as one registry (modules/report/sections.py): each section writes
both report.md and report.pdf, and the "evidence" section (the passage behind each supported
claim) was added as one class plus its labels."""

from __future__ import annotations

from pathlib import Path

import pytest
from pdfminer.high_level import extract_text

from research.modules.report.content import build_report
from research.modules.report.fonts import find_japanese_font
from research.modules.report.markdown import render_markdown
from research.modules.report.pdf import render_pdf
from research.modules.report.sections import SECTIONS
from research.modules.report.templates import REPORT_LABELS
from test_report_markdown import VERIFICATION, make_input

PASSAGE = {"ja": "富士山の最後の噴火は1707年（宝永4年）の宝永大噴火で、それ以降は噴火していない。",
           "en": "The last eruption of Mount Fuji was the Hōei eruption, which began on 16 December 1707."}
CLAIM = {"ja": "富士山が最後に噴火したのは1707年", "en": "Mount Fuji last erupted in 1707"}


def _claims(lang: str) -> list[dict]:
    supported = {"index": 0, "text": CLAIM[lang], "verdict": "supported", "citations": ["S1"],
                 "evidence": PASSAGE[lang], "evidence_label": "S1"}
    # Listed elsewhere already (weak or contested) or with nothing to quote: not repeated here.
    contested = {**supported, "index": 3, "text": "CONTESTED-CLAIM", "contested_by": "3778 m [S2]"}
    weak = {**supported, "index": 1, "text": "WEAK-CLAIM", "verdict": "unsupported"}
    bare = {**supported, "index": 4, "text": "BARE-CLAIM", "evidence": ""}
    repeated = {**supported, "index": 5}  # the same fact stated again in another section: shown once
    # Supported but taken out of the answer (a heading read as a claim, another topic): no sentence of the answer to back.
    removed = {**supported, "index": 6, "text": "REMOVED-CLAIM", "removed": True, "removed_reason": "not_a_claim"}
    return [supported, weak, contested, bare, repeated, removed]


def _input(lang: str, claims: list[dict]):
    return make_input(language=lang, verification={**VERIFICATION, "claims": claims})


def test_every_section_has_its_heading_in_both_languages() -> None:
    for section in SECTIONS:
        assert REPORT_LABELS["ja"][section.title_key] and REPORT_LABELS["en"][section.title_key]
    keys = [section.title_key for section in SECTIONS]
    assert len(keys) == len(set(keys))


@pytest.mark.parametrize("lang", ["ja", "en"])
def test_each_supported_claim_is_shown_with_its_passage_in_markdown_and_pdf(lang: str, tmp_path: Path) -> None:
    doc = build_report(_input(lang, _claims(lang)))
    title = REPORT_LABELS[lang]["evidence"]
    markdown = render_markdown(doc)
    section = markdown.split(f"## {title}\n")[1].split("\n## ")[0]
    assert section.strip().splitlines() == [f"- {CLAIM[lang]} — [S1] «{PASSAGE[lang]}»"]
    # After the verification that decided it, before the sources it quotes.
    verification, sources = REPORT_LABELS[lang]["verification"], REPORT_LABELS[lang]["sources"]
    assert markdown.index(f"## {verification}") < markdown.index(f"## {title}") < markdown.index(f"## {sources}")

    pdf = tmp_path / "report.pdf"
    render_pdf(doc, pdf, font_path=find_japanese_font(None))
    text = "".join(extract_text(str(pdf)).split())
    assert "".join(title.split()) in text and "".join(PASSAGE[lang].split()) in text
    assert "BARE-CLAIM" not in text and "CONTESTED-CLAIM»" not in text and "REMOVED-CLAIM" not in text
    assert text.index("".join(title.split())) < text.index("".join(sources.split()), text.index("".join(title.split())))


def test_no_supported_claim_with_a_passage_means_no_section() -> None:
    for claims in ([], [c for c in _claims("en") if c["text"] != CLAIM["en"]]):
        markdown = render_markdown(build_report(_input("en", claims)))
        assert REPORT_LABELS["en"]["evidence"] not in markdown


def test_a_passage_from_the_web_is_shown_as_text() -> None:
    hostile = [{"index": 0, "text": "Fuji is tall", "verdict": "supported", "citations": ["S1"], "evidence_label": "S1",
                "evidence": "Fuji is 3,776 m <script>alert(1)</script> [click](javascript:alert(1)) **bold** \x1b[31mred"}]
    markdown = render_markdown(build_report(_input("en", hostile)))
    line = next(line for line in markdown.splitlines() if line.startswith("- Fuji is tall"))
    # Escaped, so no tag, link or emphasis is read into it, and no escape sequence reaches a terminal.
    assert "\\<script\\>" in line and "\\[click\\](javascript:" in line and "\\*\\*bold\\*\\*" in line
    assert "\x1b" not in line and "3,776 m" in line


@pytest.mark.parametrize(("lang", "said"), [("ja", "「Mount Fuji last erupted in 1708.」として確認"),
                                            ("en", "checked as «富士山が最後に噴火したのは1708年。»")])
def test_a_claim_checked_as_its_translation_is_listed_with_it(lang: str, said: str) -> None:
    # A sentence in another language than its sources is checked as the model's translation into
    # theirs (nodes/verification.check_across_languages): the reader sees what was compared.
    translation = {"ja": "Mount Fuji last erupted in 1708.", "en": "富士山が最後に噴火したのは1708年。"}[lang]
    weak = {"index": 1, "text": "WEAK-CLAIM", "verdict": "unsupported", "citations": ["S1"], "evidence": PASSAGE[lang],
            "evidence_label": "S1", "checked_as": translation, "removed": True, "removed_reason": "contradicted"}
    markdown = render_markdown(build_report(_input(lang, [weak])))
    (line,) = [line for line in markdown.splitlines() if "WEAK-CLAIM" in line]
    assert f"WEAK-CLAIM ({said}) — S1 «" in line

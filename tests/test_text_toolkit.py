"""One of each text rule (issue 25): the URL pattern, the citation grammar, the sentence
splitter, the units table and the Markdown stripper each exist once, and every caller reads
the same answer from it."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from research.modules.core.grammar import CITATION_GROUP, URL_IN_PROSE, URL_TOKEN, is_url
from research.modules.core.language import target_script_share
from research.modules.report.content import Paragraph, parse_blocks
from research.modules.text import claims

SRC = Path(__file__).resolve().parent.parent / "src"


def _regex_literals() -> list[tuple[str, str]]:
    """Every string literal in src/ that is a regular expression for an http(s) URL."""
    found = []
    for path in SRC.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text("utf-8"))):
            if isinstance(node, ast.Constant) and isinstance(node.value, str) and "https?://" in node.value:
                found.append((str(path.relative_to(SRC)), node.value))
    return found


def test_the_url_pattern_is_written_once() -> None:
    places = {path for path, _ in _regex_literals()}
    # servers/web/engines/duckduckgo.py reads a host out of a script, not a URL out of prose.
    assert places - {"servers/web/engines/duckduckgo.py"} == {"modules/core/grammar.py"}


def test_the_citation_grammar_is_written_once() -> None:
    assert claims.CITATION_GROUP is CITATION_GROUP
    copies = [str(p.relative_to(SRC)) for p in SRC.rglob("*.py")
              if r"\[S\d+\]" in p.read_text("utf-8") or "_WORD_PREFIX = " in p.read_text("utf-8")]
    assert copies == ["modules/core/grammar.py"]


@pytest.mark.parametrize("text, url", [
    ("See https://example.com/a.", "https://example.com/a"),
    ("(see https://x.org/a).", "https://x.org/a"),
    ("https://en.wikipedia.org/wiki/Fuji_(volcano).", "https://en.wikipedia.org/wiki/Fuji_(volcano)"),
    ("「https://ja.example.jp/富士山」と書いてある。", "https://ja.example.jp/富士山"),
    ("<https://a.example/c>,", "https://a.example/c"),
    ("https://a.example/c?x=1&y=2, then", "https://a.example/c?x=1&y=2"),
])
def test_a_url_in_prose_leaves_out_what_closes_the_sentence(text: str, url: str) -> None:
    match = URL_IN_PROSE.search(text)
    assert match is not None and match.group(0) == url


def test_a_scheme_alone_is_no_url() -> None:
    assert URL_IN_PROSE.search("https://. and http:// then") is None
    assert not is_url("https://")
    assert is_url("  https://example.com/x  ") and not is_url("https://example.com/x y")
    assert URL_TOKEN.sub(" ", "a https://x.org/3776 b") == "a   b"


def test_the_report_links_a_url_in_parentheses_without_the_closing_bracket() -> None:
    # Before: the report's own pattern took ")" into the link, so the PDF's link 404'd.
    (paragraph,) = parse_blocks("Read it (see https://example.org/fuji).")
    assert isinstance(paragraph, Paragraph)
    links = [span for span in paragraph.spans if span.href]
    assert [(s.text, s.href) for s in links] == [("https://example.org/fuji", "https://example.org/fuji")]
    assert "".join(s.text for s in paragraph.spans) == "Read it (see https://example.org/fuji)."


def test_a_sentence_ends_after_a_url_in_parentheses() -> None:
    text = "The page is long (see https://example.org/a.b). It also says more."
    assert claims.split_sentences(text) == ["The page is long (see https://example.org/a.b).", "It also says more."]


def test_the_script_share_ignores_every_citation_style() -> None:
    # Before: only "[S1]" was left out, so "(Source 2)" made a Japanese sentence look part English.
    assert target_script_share("富士山は高い山です (Source 2)。", "ja") == 1.0
    assert target_script_share("富士山は高い山です【出典1】[S2]。", "ja") == 1.0
    assert CITATION_GROUP.search("(Source 2)") is not None


def test_a_local_page_s_address_is_not_read_as_english() -> None:
    # The real 1.5B model listed its local pages (JSQuAD bench): a kanji title with a file:// path.
    from research.modules.core.language import detect_language

    listed = "日本共産党 — file:///tmp/bench/corpus/jsquad-007-044.md"
    assert detect_language(listed) == "ja"
    assert target_script_share(listed, "ja") == 1.0
    assert detect_language("GIL https://peps.python.org/pep-0703/") == "en"


def test_one_markdown_stripper_for_the_draft_and_the_parsed_page() -> None:
    from research.modules.parsing.analysis import markdown_to_blocks, tables_from_markdown

    # Before: the parser's own stripper turned a picture into "!logo" and kept "~~" marks.
    table = "| City | Height |\n|---|---|\n| ![logo](l.png) Fujiyoshida | `3,776` m |\n| 1. Tokyo | a\\|b |"
    # In a cell, "1." and an escaped "|" are content, not a list marker or a column.
    assert tables_from_markdown(table) == [[["City", "Height"], ["Fujiyoshida", "3,776 m"], ["1. Tokyo", "a|b"]]]
    page = "- ~~Old~~ **Mount Fuji** is [3,776 m](https://x.org/h) high [1].\n\n![map](m.png)"
    assert markdown_to_blocks(page) == ["Old Mount Fuji is 3,776 m high [1]."]  # the page's "[1]" is kept
    assert claims.plain_text("- ~~Old~~ **Mount Fuji** is [3,776 m](https://x.org/h) high [1]. ![map](m.png)") \
        == "Old Mount Fuji is 3,776 m high."
    # Underscores inside a word are no emphasis (CommonMark): a JSQuAD page's «formula_1とformula_2は…» lost them, and
    # the real 1.5B model's copy of its sentence, 「1つの焦点とformula_4を固定し、…」, stayed not checked for the 4
    # (`research bench jsquad --sample 5 --seed 145`). Outside a word they still are.
    page_sentence = "formula_1とformula_2は無限大になるが、formula_1の方がformula_2よりも早く増加する。"
    assert claims.plain_text(page_sentence) == page_sentence
    assert claims.plain_text("The _fifth_ and __sixth__ station, good_for_kids.") == "The fifth and sixth station, good_for_kids."


def test_a_page_sentence_ending_in_its_footnote_mark_can_be_a_snippet() -> None:
    from research.modules.llm.hygiene import drop_cut_off_sentence
    from research.modules.parsing.analysis import pick_snippets

    # Before: the parser's own end rule wanted the very last character to be a stop, so every
    # Wikipedia sentence ending "….[1]" or 「…』」 was taken for a heading and never a snippet.
    cited = "Mount Fuji last erupted in 1707, during the Hōei eruption that lasted two weeks.[1]"
    quoted = "気象庁は富士山を常時観測火山として監視していると『火山年報』"
    assert pick_snippets([cited, quoted, "Mount Fuji and its volcanic history in detail"]) == [cited, quoted]
    # The answer check and the parser agree on what a finished sentence is.
    assert drop_cut_off_sentence(f"First sentence. {cited}") == f"First sentence. {cited}"
    assert drop_cut_off_sentence("First sentence. The second one was cut o") == "First sentence."


def test_one_units_table_for_the_verifier_and_the_disagreement_finder() -> None:
    from research.modules.text.disagreements import sentence_facts, values_agree
    from research.modules.text.numbers import numbers_match

    # Before: only the disagreement finder knew feet, so the verifier read "12,388 ft" as a bare
    # 12388 that no source in metres could support, and "3,776 ft" as supported by "3,776 m".
    assert numbers_match("Mount Fuji is 12,388 ft high.", "Mount Fuji is 3,776 m high.")
    assert numbers_match("Mount Fuji is 3,776 m high.", "Mount Fuji rises 12,388 feet.")
    assert not numbers_match("Mount Fuji is 3,776 ft high.", "Mount Fuji is 3,776 m high.")
    assert not numbers_match("It is 3776 m high.", "It is 3776.3 m high.")  # rounding within one unit: as before
    (feet,) = sentence_facts("S1", "Mount Fuji is 12,388 ft tall.")
    (metres,) = sentence_facts("S2", "Mount Fuji is 3,776 m tall.")
    assert feet.dimension == metres.dimension == "length" and values_agree(feet.values[0], metres.values[0])
    source = (Path(SRC) / "modules/text/disagreements.py").read_text("utf-8")
    assert "0.3048" not in source and "1609.344" not in source  # the factors live in numbers.py alone


def test_the_report_breaks_a_line_where_the_splitter_ends_a_sentence() -> None:
    def breaks(markdown: str) -> int:
        (paragraph,) = parse_blocks(markdown)
        assert isinstance(paragraph, Paragraph)
        return sum(span.line_break for span in paragraph.spans)

    assert breaks("Mount Fuji is 3,776 m high. [S1] ⚠\nIt last erupted in 1707 [S2].") == 1
    assert breaks("富士山は日本一高い山です。[S1]\n最後の噴火は1707年です。") == 1
    # Before: the report had its own rule, for which the "." of "Dr." or "e.g." ended a sentence.
    assert breaks("The survey by Dr. Smith and e.g. other teams\nfound the same height.") == 0
    assert claims.has_sentence_end("It erupted. [S1] ⚠") and not claims.has_sentence_end("version 3.5 of example.com")


def test_one_public_sentence_splitter() -> None:
    from research.modules.parsing import analysis
    from research.modules.text import style

    line = "  - Mount Fuji is 3,776 m high [S1]. Dr. Smith measured it in 2020.  "
    assert "".join(claims.split_sentences(line, whole=True)) == line  # rewritten in place, spacing kept
    assert claims.split_sentences(line, whole=True)[1] == " Dr. Smith measured it in 2020.  "
    assert claims.split_sentences(line) == ["- Mount Fuji is 3,776 m high [S1].", "Dr. Smith measured it in 2020."]
    # Before: text/style.py and parsing/analysis.py each exported a split_sentences of their own.
    assert not hasattr(style, "split_sentences") and analysis.split_sentences is claims.split_sentences


def test_areas_are_in_the_one_units_table() -> None:
    from research.modules.text.disagreements import sentence_facts, values_agree
    from research.modules.text.numbers import numbers_match

    # Before: "km²" read as km (a length) and 平方キロメートル as a bare figure, so an area
    # matched a length and the finder's "area" attribute never had a value to compare.
    assert not numbers_match("Lake Biwa covers 670 km².", "Lake Biwa is 670 km long.")
    assert numbers_match("Lake Biwa covers 670 km².", "Lake Biwa covers 67,000 hectares.")
    (english,) = sentence_facts("S1", "The area of Lake Biwa is 670 km².")
    (japanese,) = sentence_facts("S2", "琵琶湖の面積は670平方キロメートルです。")
    (larger,) = sentence_facts("S3", "The area of Lake Biwa is 850 km².")
    assert english.dimension == japanese.dimension == "area" and english.attribute == "area"
    assert values_agree(english.values[0], japanese.values[0]) and not values_agree(english.values[0], larger.values[0])


def test_headings_that_hold_the_answer_are_given_back_to_the_body():
    from research.modules.llm.hygiene import headings_as_text

    draft = ("## Summary: Yes, closed reduction is satisfying for most patients [S1].\n\n"
             "## Endarterectomy is a well-established technique. The study by Barrett et al. [S4] found that it "
             "works.\n\n## 結論：はい、閉鎖整復は満足できる治療です[S1]。\n")
    out = headings_as_text(draft)
    assert [line for line in out.splitlines() if line.startswith("#")] == ["## Summary", "## 結論"]
    assert "\nYes, closed reduction is satisfying for most patients [S1].\n" in out
    assert "\nEndarterectomy is a well-established technique. The study by Barrett et al. [S4] found that it works.\n" in out
    assert "\nはい、閉鎖整復は満足できる治療です[S1]。\n" in out
    # Titles stay titles, numbered, abbreviated or with a colon of their own.
    titles = ("## 1. Common reasons for failed IUD insertions in community practice:\n## What is the U.S. position?\n"
              "## Mt. Fuji: facts\n## Step 2: Install the package\n## 富士山の噴火史\n"
              # PubMedQA 11149643's question, 26 words, as its section's title.
              "## 1. Is semi-closed endarterectomy of the superficial femoral artery combined with a short venous "
              "bypass in case of insufficient venous material an acceptable alternative for limb-threatening "
              "ischemia?\n")
    assert headings_as_text(titles) == titles

"""Snippets, key facts, tables and stats from extracted Markdown, in Japanese and English."""

from __future__ import annotations

import json

import pytest

from research.modules.parsing.analysis import (
    analyze_document,
    find_key_facts,
    pick_snippets,
    quantity_mentions,
    markdown_sentences,
    tables_from_html,
    tables_from_markdown,
)


def test_english_sentences_keep_decimals_and_abbreviations_whole() -> None:
    text = "The peak is 3.5 km high, e.g. higher than most. Dr. Sato measured it in 2020! Was it right? Yes."
    assert markdown_sentences(text) == [
        "The peak is 3.5 km high, e.g. higher than most.",
        "Dr. Sato measured it in 2020!",
        "Was it right?",
        "Yes.",
    ]


def test_japanese_sentences_split_on_japanese_punctuation_but_not_inside_quotes() -> None:
    text = "富士山は日本一高い山だ。「美しい山だ。」と彼は言った！本当か？"
    assert markdown_sentences(text) == ["富士山は日本一高い山だ。", "「美しい山だ。」と彼は言った！", "本当か？"]


def test_markdown_markup_headings_and_links_do_not_leak_into_sentences() -> None:
    markdown = "# Title\n\nSee [the report](https://example.com/r) for **details** on 5 km.\n\n```\ncode 1.\n```"
    assert markdown_sentences(markdown) == ["Title", "See the report for details on 5 km."]


def test_japanese_quantities_are_recognised() -> None:
    for sentence in [
        "宝永噴火は1707年12月16日に始まった。",
        "標高は3776 mである。",
        "参加者は前年比15%増えた。",
        "予算は約3億円に達した。",
        "人口はおよそ120万人だ。",
        "この寺は8世紀に建てられた。",
        "全長は約２キロメートルある。",
        "令和5年に改正された。",
    ]:
        assert quantity_mentions(sentence) >= 1, sentence
    assert quantity_mentions("富士山は美しい山として知られている。") == 0


def test_english_quantities_are_recognised() -> None:
    for sentence in [
        "The eruption began on 16 December 1707.",
        "It rose by 12% last year.",
        "The budget was $3.5 billion.",
        "The trail is 5 km long.",
        "It was published in March 2024.",
        "The temple dates from the 8th century.",
    ]:
        assert quantity_mentions(sentence) >= 1, sentence
    assert quantity_mentions("The mountain is widely admired for its beauty.") == 0


def test_key_facts_are_the_sentences_with_quantities_in_document_order() -> None:
    sentences = [
        "The mountain is widely admired for its beauty and its symmetry.",
        "Mount Fuji is 3,776 m tall and last erupted in 1707.",
        "Many artists have painted it over the centuries, famously Hokusai.",
        "About 300,000 people climb it every year during July and August.",
        "富士山の最後の噴火は1707年12月16日に始まった宝永噴火である。",
    ]
    assert find_key_facts(sentences) == [sentences[1], sentences[3], sentences[4]]
    # The limit keeps the sentences that state the most (height and year: two), and a
    # full date (1707年12月16日) counts as one statement, not three.
    assert find_key_facts(sentences, limit=1) == [sentences[1]]


def test_snippets_skip_boilerplate_and_fragments() -> None:
    sentences = [
        "Subscribe to our newsletter for the latest news and updates every week.",
        "Mount Fuji is an active stratovolcano that last erupted in 1707 on Honshu.",
        "Menu",
        "Copyright 2024 Example Media, all rights reserved worldwide.",
        "The volcano is Japan's highest peak and one of its three holy mountains.",
        "Read more",
    ]
    snippets = pick_snippets(sentences)
    assert snippets == [sentences[1], sentences[4]]


def test_markdown_pipe_tables() -> None:
    markdown = "Intro.\n\n| Peak | Height |\n|---|---:|\n| **Fuji** | 3,776 m |\n| [Kita](http://x) | 3,193 m |\n\nAfter."
    assert tables_from_markdown(markdown) == [[["Peak", "Height"], ["Fuji", "3,776 m"], ["Kita", "3,193 m"]]]


def test_html_tables_including_nested_ones_are_read_separately() -> None:
    html = (
        "<table><tr><th>a</th><th>b</th></tr><tr><td>1</td><td><table><tr><td>x</td></tr><tr><td>y</td></tr>"
        "</table></td></tr></table>"
    )
    tables = tables_from_html(html)
    assert tables[0][0] == ["a", "b"]
    assert len(tables[0]) == 2  # the nested table's rows are not the outer table's rows
    assert tables[1] == [["x"], ["y"]]


def test_analyze_japanese_document() -> None:
    markdown = (
        "# 富士山\n\n富士山の最後の噴火は1707年12月16日に始まった宝永噴火である。"
        "多くの画家がこの山を描いてきた。\n\n標高は3776 mで、毎年およそ30万人が登る。"
    )
    parsed = analyze_document(markdown, parse_ms=12.34, input_bytes=300)
    assert parsed.title == "富士山"
    assert parsed.language == "ja"
    assert parsed.key_facts == [
        "富士山の最後の噴火は1707年12月16日に始まった宝永噴火である。",
        "標高は3776 mで、毎年およそ30万人が登る。",
    ]
    assert "多くの画家がこの山を描いてきた。" in parsed.snippets
    assert parsed.stats["cjk_chars"] > 40 and parsed.stats["sentences"] == 4
    assert parsed.stats["parse_ms"] == 12.3 and parsed.stats["input_bytes"] == 300


def test_analyze_english_document_uses_html_tables_when_markdown_has_none() -> None:
    markdown = "Mount Fuji is 3,776 m tall and last erupted in 1707. It is loved by painters and poets alike."
    html = "<table><tr><th>Peak</th><th>Height</th></tr><tr><td>Fuji</td><td>3,776 m</td></tr></table>"
    parsed = analyze_document(markdown, title="Fuji", html=html)
    assert parsed.title == "Fuji" and parsed.language == "en"
    assert parsed.key_facts == ["Mount Fuji is 3,776 m tall and last erupted in 1707."]
    assert parsed.tables == [[["Peak", "Height"], ["Fuji", "3,776 m"]]]
    assert parsed.stats["words"] == 19


def test_empty_document_has_no_language_and_no_facts() -> None:
    parsed = analyze_document("")
    assert parsed.language == "" and parsed.key_facts == [] and parsed.snippets == [] and parsed.tables == []


def test_the_sandbox_and_the_state_read_one_parsed_document_and_bad_fields_are_refused() -> None:
    """The parser builds ``ParsedDocument`` in the sandbox (no pydantic there) and the state
    validates the very same class when it crosses a process: a field cannot be added on one side
    only, and what a child or a server sends is checked before it is used."""
    import pydantic

    from research.state.models import PARSED_DOCUMENT, ParsedDocument

    parsed = analyze_document("# Fuji\n\nMount Fuji is 3,776 m tall and last erupted in 1707.")
    assert type(parsed) is ParsedDocument
    sent = json.loads(json.dumps(parsed.as_dict()))  # as it travels between the processes
    assert PARSED_DOCUMENT.validate_python(sent) == parsed
    assert PARSED_DOCUMENT.dump_python(parsed, mode="json") == sent
    with pytest.raises(pydantic.ValidationError):
        PARSED_DOCUMENT.validate_python({**sent, "key_facts": [{"not": "a sentence"}]})

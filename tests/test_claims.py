"""The claim splitter: sentences, sections and citations in Japanese and English Markdown."""

from research.modules.text.claims import citation_labels, split_claims, split_sentences, strip_citations

DRAFT = """# 富士山

## 噴火の歴史
富士山の最後の噴火は1707年の宝永噴火です。[S1] 標高は3,776 mである［S2］。
- 山頂には浅間大社の奥宮がある[S1, S3]。
- Mt. Fuji is 3.5 km wide according to Dr. Smith [S2].

```
code. Not a claim. [S9]
```

| 項目 | 値 |
|---|---|
| 標高 | 3776 m [S1] |

---

## History
The last eruption was in 1707 [S2]. It lasted 16 days.[S1][S4] See https://example.com/a.b for more.
This line continues the paragraph [S1].

The main facts are:

## Sources
- [S1] Wikipedia https://ja.wikipedia.org
"""


def test_claims_keep_section_citations_and_spans():
    claims = split_claims(DRAFT)
    texts = [c.plain for c in claims]
    assert texts == [
        "富士山の最後の噴火は1707年の宝永噴火です。",
        "標高は3,776 mである。",
        "山頂には浅間大社の奥宮がある。",
        "Mt. Fuji is 3.5 km wide according to Dr. Smith.",
        "標高 3776 m",
        "The last eruption was in 1707.",
        "It lasted 16 days.",
        "See https://example.com/a.b for more.",
        "This line continues the paragraph.",
    ]
    assert [c.citations for c in claims] == [["S1"], ["S2"], ["S1", "S3"], ["S2"], ["S1"], ["S2"], ["S1", "S4"], [], ["S1"]]
    assert [c.section for c in claims][:5] == ["噴火の歴史"] * 5
    assert claims[5].section == "History"
    for claim in claims:  # spans point at the sentence as written, citations included
        assert DRAFT[claim.start : claim.end] == claim.text


def test_headings_code_tables_rules_and_source_lists_are_not_claims():
    joined = " ".join(c.text for c in split_claims(DRAFT))
    assert "Not a claim" not in joined  # fenced code
    assert "項目" not in joined  # table header row
    assert "Wikipedia" not in joined  # the model's own source list
    assert "main facts are" not in joined  # a lead-in to a list
    assert "富士山" != split_claims(DRAFT)[0].section


def test_english_sentence_edges():
    text = "Dr. Smith measured 3.5 km, e.g. near the U.S. border. Version 1.2.3 shipped! Did it? Yes... it did."
    assert split_sentences(text) == [
        "Dr. Smith measured 3.5 km, e.g. near the U.S. border.",
        "Version 1.2.3 shipped!",
        "Did it?",
        "Yes... it did.",
    ]


def test_japanese_sentence_edges():
    text = "「噴火は続いた。」と記録にある。[S1]本当か？はい！３．５倍だった。"
    assert split_sentences(text) == ["「噴火は続いた。」と記録にある。[S1]", "本当か？", "はい！", "３．５倍だった。"]


def test_citation_forms():
    assert citation_labels("a [S1][S2] b [S2, S3] c ［Ｓ４］ d [S5，S6]") == ["S1", "S2", "S3", "S4", "S5", "S6"]
    assert citation_labels("see [1] or [Source] or S1") == []
    assert strip_citations("It erupted in 1707 [S2].") == "It erupted in 1707."


def test_citation_after_full_stop_belongs_to_the_sentence_before():
    claims = split_claims("First fact. [S1] Second fact [S2].\n噴火した。[S3]次の文。")
    assert [(c.plain, c.citations) for c in claims] == [
        ("First fact.", ["S1"]),
        ("Second fact.", ["S2"]),
        ("噴火した。", ["S3"]),
        ("次の文。", []),
    ]

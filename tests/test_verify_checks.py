"""The cheap checks on what real models write: number words, rounding, times, spacing,
merged facts, structured sources, and a swapped term that must never pass as supported."""

import pytest

from research.modules.text.claims import split_claims
from research.modules.text.evidence import EvidenceIndex, assess_claim
from research.modules.text.numbers import numbers_match


def _outcome(claim: str, source: str) -> str:
    index = EvidenceIndex([{"label": "S1", "status": "ok", "markdown": source}])
    (parsed,) = split_claims(claim)
    return assess_claim(parsed, index).outcome


@pytest.mark.parametrize(
    ("claim", "evidence", "same"),
    [
        ("三種類ある", "3種類ある", True),
        ("一つの山", "1つの山", True),
        ("It erupted twice.", "It erupted 2 times.", True),
        ("約3.8km", "標高は3,776 m", True),
        ("about 3.8 km", "3,776 m", True),
        ("3.9 km", "3,776 m", False),
        ("21:00", "9 PM", True),
        ("午後9時", "21:00", True),
        ("9 PM", "8 PM", False),
        ("3\u2009776 m", "3776 m", True),
        ("3\u00a0776 m", "3,776 m", True),
        ("1707–1708", "from 1707 to 1708", True),
    ],
)
def test_numbers_as_models_write_them(claim, evidence, same):
    assert numbers_match(claim, evidence) is same


def test_swapped_term_is_never_supported():
    source = "この地域の電力の多くは水力発電でまかなわれている。発電所は1960年に完成した。"
    assert _outcome("この地域の電力の多くは水力発電でまかなわれている[S1]。", source) == "supported"
    assert _outcome("この地域の電力の多くは風力発電でまかなわれている[S1]。", source) != "supported"
    english = "A checkpoint is written after every super-step of the graph."
    assert _outcome("A checkpoint is written after every super-step of the graph [S1].", english) == "supported"
    assert _outcome("A checkpoint is written after every node of the graph [S1].", english) != "supported"


def test_changed_number_is_unsupported_and_rounded_number_is_not():
    source = "Mount Fuji is 3,776 m high. Its last eruption began in 1707."
    assert _outcome("Mount Fuji last erupted in 1708 [S1].", source) == "unsupported"
    assert _outcome("Mount Fuji is about 3.8 km high [S1].", source) != "unsupported"


def test_merged_facts_are_supported_from_two_sentences():
    source = "The Hōei eruption began in 1707. Ash from the Hōei eruption fell on Edo."
    assert _outcome("The Hōei eruption began in 1707 and its ash fell on Edo [S1].", source) == "supported"


def test_json_source_keys_are_words():
    source = '{"name": "Blue Cafe", "attributes": {"BusinessAcceptsCreditCards": true, "WiFi": "free"}, "city": "Tucson"}'
    assert _outcome("Blue Cafe in Tucson accepts credit cards.", source) == "supported"
    assert _outcome("Blue Cafe is in Phoenix.", source) != "supported"


def test_json_compound_keys_match_the_words_written_as_one():
    # Yelp-style records (RAGTruth's data-to-text sources): "WiFi" is written "WiFi" or
    # "wifi", "RestaurantsTakeOut" as "takeout"; true values must not read as unsupported.
    source = ('{"name": "KOLS", "attributes": {"OutdoorSeating": true, "WiFi": "free", '
              '"RestaurantsTakeOut": true}, "city": "Isla Vista"}')
    assert _outcome("KOLS has free WiFi and outdoor seating, and offers takeout.", source) == "supported"
    assert _outcome("KOLS offers valet parking.", source) != "supported"


def test_typographic_apostrophe_is_the_same_negation():
    source = "Chock the tires on the side that you won\u2019t be working on, and set the parking brake."
    assert _outcome("Chock the tires on the side that you won't be working on.", source) == "supported"


def test_json_prose_values_are_read_as_sentences():
    # RAGTruth's QA sources: {"question", "passages"}, the passages one long string. Read as
    # one giant field, any "not" in any passage made every true claim "negation"-uncertain.
    passages = ("passage 1: Mount Fuji is 3,776 m high. It is not an extinct volcano; it last erupted in 1707. "
                "passage 2: The mountain is climbed by about 200,000 people every year, mostly in July and August.")
    source = '{"question": "how high is fuji", "passages": "' + passages + '"}'
    assert _outcome("About 200,000 people climb the mountain every year.", source) == "supported"
    assert _outcome("About 900,000 people climb the mountain every year.", source) == "unsupported"
    # The "not" of the sentence that says it still counts.
    assert _outcome("Mount Fuji is an extinct volcano.", source) != "supported"


def test_nothing_related_is_unsupported():
    source = "Mount Fuji is 3,776 m high."
    assert _outcome("The stock market fell sharply on Tuesday.", source) == "unsupported"


def test_filler_is_not_a_claim():
    draft = "Sure! Here is the summary:\n\nMount Fuji is high. I hope this helps! The passages do not mention its age.\n"
    assert [c.plain for c in split_claims(draft)] == ["Mount Fuji is high."]


def _assessed(claim: str, source: str):
    index = EvidenceIndex([{"label": "S1", "status": "ok", "markdown": source}])
    (parsed,) = split_claims(claim)
    return assess_claim(parsed, index)


# The words are LangGraph's own documentation ("Persistence"), a quotation a model changed in
# one word while keeping every content word of the claim around it.
_LANGGRAPH = ("LangGraph has a built-in persistence layer, implemented through checkpointers. When you compile a "
              "graph with a checkpointer, the checkpointer saves a checkpoint of the graph state at every super-step.")


def test_a_quotation_must_be_the_source_s_own_words():
    exact = 'LangGraph says the checkpointer "saves a checkpoint of the graph state at every super-step" [S1].'
    assert _outcome(exact, _LANGGRAPH) == "supported"
    changed = 'LangGraph says the checkpointer "saves a copy of the graph state at every super-step" [S1].'
    found = _assessed(changed, _LANGGRAPH)
    assert (found.outcome, found.reason) == ("unsupported", "misquoted")
    assert found.missing == ["saves a copy of the graph state at every super-step"]


def test_a_quotation_may_leave_words_out_with_an_ellipsis_and_differ_in_case_and_spacing():
    claim = 'The documentation says "When you compile a graph with a checkpointer … at every super-step" [S1].'
    assert _assessed(claim, _LANGGRAPH).reason != "misquoted"
    claim = 'The documentation says the checkpointer "[then] saves a checkpoint of the graph state" [S1].'
    assert _assessed(claim, _LANGGRAPH).reason != "misquoted"
    claim = 'The documentation says "When you compile a graph with a checkpointer … it saves a checkpoint" [S1].'
    assert _assessed(claim, _LANGGRAPH).reason == "misquoted"  # "it" is not the source's word
    claim = 'It says “LangGraph has a  built-in Persistence layer” [S1].'
    assert _assessed(claim, _LANGGRAPH).reason != "misquoted"


def test_a_quoted_name_term_question_or_example_is_not_a_quotation():
    # Two words in quotation marks, and a name in 「」: the term checks read these. RAGTruth's
    # clean answers quote the question and their own examples this way.
    assert _assessed('It is called "persistence layer" in the documentation [S1].', _LANGGRAPH).reason != "misquoted"
    assert _assessed('The documentation says what the question "how LangGraph keeps its state in memory" asks '
                     '[S1].', _LANGGRAPH).reason != "misquoted"
    assert _assessed('The graph "stops after each node and waits" [S1].', _LANGGRAPH).reason != "misquoted"
    source = "1707年の宝永噴火が富士山の最後の噴火である。"
    assert _outcome("富士山の最後の噴火は1707年の「宝永噴火」である[S1]。", source) == "supported"


def test_a_japanese_quotation_changed_in_one_verb_is_misquoted():
    # 気象庁「富士山」の解説の文体による自作の例文
    source = "気象庁は、富士山について「噴火の可能性は低いが、監視を続ける必要がある」と説明している。"
    kept = "気象庁は富士山について「噴火の可能性は低いが、監視を続ける必要がある」と説明している[S1]。"
    assert _assessed(kept, source).reason != "misquoted"
    changed = "気象庁は富士山について「噴火の可能性は低いので、監視をやめてもよい」と説明している[S1]。"
    found = _assessed(changed, source)
    assert (found.outcome, found.reason) == ("unsupported", "misquoted")

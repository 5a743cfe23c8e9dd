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


def test_a_source_quoted_as_confirming_what_was_said_is_read_for_its_quotation():
    # The real 1.5B model (bench_answers.py --ollama, "Which port does Ollama listen on locally?"; the
    # web fixture's Ollama FAQ): "The Ollama FAQ [S1] confirms this, stating that "By default Ollama
    # listens on port 11434 …"" was left not checked, "confirms" and "stating" being the only words the
    # page lacks. How a source is said to say something is no fact of it, as "states" and "said" are not.
    page = ("# Ollama FAQ: running models locally\n\nBy default Ollama listens on port 11434 of the local machine and "
            "serves its API there.")
    quoted = 'By default Ollama listens on port 11434 of the local machine and serves its API there.'
    for frame in ("The Ollama FAQ confirms this, stating that", "The Ollama FAQ confirmed it, noting that"):
        assert _outcome(f'{frame} "{quoted}" [S1].', page) == "supported"
    # The quotation changed is still not the page's words.
    found = _assessed('The Ollama FAQ confirms this, stating that "By default Ollama listens on port 8080 of the '
                      'local machine" [S1].', page)
    assert found.outcome == "unsupported"


# PubMedQA 23999452's abstract (the page the bench serves), its two sentences on the outcome, quoted.
_ORIGIN = ("Non-severe hypoglycaemia was not associated with any outcome following adjustment. Conversely, severe "
           "hypoglycaemia was associated with a greater risk for the primary outcome (HR: 1.58; 95% CI: 1.24-2.02, "
           "P<0.001) and mortality (HR: 1.74; 95% CI: 1.39-2.19, P<0.001).")


def test_a_qualifier_the_page_denies_the_rest_of_is_not_dropped():
    # The real 1.5B model (`research bench pubmedqa --sample 4 --seed 78`): "Hypoglycaemia is associated with a
    # greater risk for the primary outcome (HR: 1.58; …)" was supported, every word and figure on the page;
    # the page says it of severe hypoglycaemia and denies it of the non-severe kind.
    claim = ("Hypoglycaemia is associated with a greater risk for the primary outcome (HR: 1.58; 95% CI: 1.24-2.02, "
             "P<0.001) [S1].")
    found = _assessed(claim, _ORIGIN)
    assert found.outcome != "supported" and found.missing == ["severe"]
    # Said with the page's qualifier, it is the page's.
    assert _outcome(claim.replace("Hypoglycaemia", "Severe hypoglycaemia"), _ORIGIN) == "supported"
    # A qualifier whose other kind the page does not deny is no condition of it.
    plain = _ORIGIN.replace("Non-severe hypoglycaemia was not associated with any outcome following adjustment. ", "")
    assert _outcome(claim, plain) == "supported"


# JSQuAD v1.3 valid a29435p7q1's page (炭化水素), its sentences on the two kinds, quoted.
_HYDROCARBONS = ("# 炭化水素\n\n飽和炭化水素はラジカル反応など極く限られた反応性しか示さず、化学的に不活性である。それ故、液体の炭化水素は"
                 "有機溶媒として利用される。一方、不飽和炭化水素は芳香族性を持つ場合とそうでない場合で化学的性質が異なる。")


def test_a_kind_the_page_sets_against_its_opposite_is_not_dropped_in_japanese():
    # The real 1.5B model (`research bench jsquad --sample 5 --seed 131`), its Summary's first sentence, supported
    # word for word: the page says it of saturated hydrocarbons, and goes on to the unsaturated ones.
    claim = "炭化水素はラジカル反応など極く限られた反応性しか示さず、化学的に不活性である[S1]。"
    found = _assessed(claim, _HYDROCARBONS)
    assert found.outcome != "supported" and found.missing == ["飽和"]
    # Said with the page's kind, it is the page's; and the page's own sentence on all of them stays supported.
    assert _outcome("飽和" + claim, _HYDROCARBONS) == "supported"
    assert _outcome("それ故、液体の炭化水素は有機溶媒として利用される[S1]。", _HYDROCARBONS) == "supported"
    # A kind whose opposite the page does not name is no condition of it.
    assert _outcome(claim, _HYDROCARBONS.replace("一方、不飽和炭化水素は", "一方、芳香族炭化水素は")) == "supported"


# PubMedQA 22813804's results (the page the bench serves), quoted.
_OBESE = ("Nine hundred thirty-three patients were included, of those 55 (5.89%) children were obese. The obese "
          "children were older than nonobese (P = .001) and had a higher injury severity score (P = .001) and a lower "
          "pediatric trauma score (P = .00), heart rate (P = .0081), and respiratory rate (P = .000).")


def test_a_direction_the_page_gives_to_other_items_of_a_list_is_contradicted():
    # The real 1.5B model (`research bench pubmedqa --sample 4 --seed 78`): "…obese children were older than
    # nonobese and had higher injury severity scores, pediatric trauma scores, heart rate, and respiratory rate"
    # was supported at 0.94; the page has the trauma score, heart rate and respiratory rate lower.
    claim = ("The study found that obese children were older than nonobese and had higher injury severity scores, "
             "pediatric trauma scores, heart rate, and respiratory rate [S1].")
    found = _assessed(claim, _OBESE)
    assert (found.outcome, found.reason) == ("unsupported", "contrast"), found
    assert "a lower pediatric trauma score" in found.evidence
    # Each with the page's direction, it is the page's.
    right = ("Obese children had a higher injury severity score and a lower pediatric trauma score, heart rate, and "
             "respiratory rate than nonobese children [S1].")
    assert _outcome(right, _OBESE) == "supported"
    assert _outcome("Obese children had a higher injury severity score than nonobese children [S1].", _OBESE) \
        == "supported"
    assert _assessed("Obese children had a higher heart rate than nonobese children [S1].", _OBESE).outcome \
        == "unsupported"


def test_a_hypothesis_the_page_reports_is_no_fact_but_may_be_reported():
    # PubMedQA 17595200 (`research bench pubmedqa --sample 4 --seed 79`), its background, quoted: the study
    # found the maternal and paternal associations similar. Said as a fact, the hypothesis is not the page's.
    page = ("It has been suggested that increasing obesity levels in young women lead to intrauterine environments "
            "that, in turn, stimulate increased obesity among their offspring, generating an intergenerational "
            "acceleration of obesity levels.")
    fact = ("Increasing obesity levels in young women lead to intrauterine environments that stimulate increased "
            "obesity among their offspring [S1].")
    assert _assessed(fact, page).outcome != "supported"
    reported = ("Studies suggest that increasing obesity levels in young women lead to intrauterine environments that, "
                "in turn, stimulate increased obesity among their offspring, generating an intergenerational "
                "acceleration of obesity levels [S1].")
    assert _outcome(reported, page) == "supported"


def test_a_yes_to_what_a_study_set_out_to_study_is_not_its_finding():
    # PubMedQA 12068831 (`research bench pubmedqa --sample 4 --seed 81`): the real 1.5B model's whole answer,
    # "Yes, nontriploid partial hydatidiform moles exist", was supported by the abstract's objective, «To study
    # whether nontriploid partial hydatidiform moles truly exist.»; its results found none (gold "no").
    page = ("To study whether nontriploid partial hydatidiform moles truly exist. On review of the 19 moles, 53% "
            "(10/19) were diploid nonpartial moles, and 37% (7/19) were triploid partial moles.")
    assert _assessed("Yes, nontriploid partial hydatidiform moles exist [S1].", page).outcome != "supported"
    # Reported as the study's question, the question is not held against it (its wording is for the other checks).
    assert _assessed("The objective was to study whether nontriploid partial hydatidiform moles truly exist [S1].",
                     page).reason != "hedge_dropped"


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


# --- issue 44, item 1: what the structure of a Japanese sentence decides -------------------------
# The sentences are written for these tests, in the manner of JaNLI's (Yanaka and Mineshima 2021)
# constructions; none is copied from it.


def _decided(claim: str, source: str) -> tuple[str, str]:
    found = _assessed(claim, source)
    return found.outcome, found.reason


@pytest.mark.parametrize(("source", "claim"), [
    ("おそらく学生が先生を手伝った。", "学生が先生を手伝った[S1]。"),
    ("その店は来月閉店するかもしれない。", "その店は来月閉店する[S1]。"),
    ("もし雨が降った場合、試合は中止になるにちがいない。", "試合は中止になる[S1]。"),
    ("市長が辞任したという疑いがある。", "市長が辞任した[S1]。"),
])
def test_a_doubt_the_claim_drops_is_unsupported(source, claim):
    assert _decided(claim, source) == ("unsupported", "hedge_dropped")


def test_a_report_or_an_estimate_the_claim_drops_is_left_to_the_judge():
    # 「と言われている」 and 「推定」 report what is held to be so: a summary may state it.
    outcome, reason = _decided("この寺は八世紀に建てられた[S1]。", "この寺は八世紀に建てられたと言われている。")
    assert (outcome, reason) == ("uncertain", "hedge_dropped")


def test_one_of_two_alternatives_stated_alone_is_unsupported():
    assert _decided("研究者が論文を書いた[S1]。", "学生か研究者が論文を書いた。") == ("unsupported", "or_dropped")
    assert _decided("医師が患者を診察した[S1]。", "看護師が記録を整理したか、もしくは、医師が患者を診察した。") \
        == ("unsupported", "or_dropped")
    # Both alternatives kept: what the source says.
    assert _decided("学生か研究者が論文を書いた[S1]。", "学生か研究者が論文を書いた。")[0] == "supported"


def test_an_or_between_things_the_claim_does_not_name_is_no_alternative_it_drops():
    # JSQuAD v1.3 valid, the page サケ (`research bench jsquad --sample 5 --seed 136`): the real 1.5B model's
    # 「日本系シロザケでは、水温が5℃程度になると北西太平洋の限られた水域に移動する」 was "unsupported, or_dropped" and
    # taken out of its answer: the page's か is between 千島列島のごく沿岸 and オホーツク海, which the claim does not name.
    source = ("日本系シロザケでは降海した当年魚は北海道沿岸を離れ夏から秋には千島列島のごく沿岸かオホーツク海の水温8℃前後の"
              "水域を生活域とし、水温が5℃程度になると北西太平洋の限られた水域に移動し越冬をする。")
    assert _decided("日本系シロザケでは、水温が5℃程度になると北西太平洋の限られた水域に移動する[S1]。", source)[0] == "supported"
    # One of the two named, alone: not what the page says (here its roles read first; 「学生か研究者」 above).
    assert _decided("日本系シロザケの当年魚は夏から秋にはオホーツク海の水温8℃前後の水域を生活域とする[S1]。", source)[0] \
        == "unsupported"


def test_another_name_the_page_gives_is_not_one_of_two_alternatives():
    # JSQuAD v1.3 valid a20898p25q2, the page the bench serves (its sentence on the Tresca
    # criterion): the real 1.5B model's true 「…トレスカ応力説と呼ばれる」 was "unsupported, or_dropped"
    # and, left uncited, was checked against another sentence and kept only as not checked. Two
    # names of one thing joined by または are both its names: naming one of them says what the page says.
    source = ("延性材料が降伏するときすべりが観察されることに着目し、最大せん断応力が降伏を決定するという説を"
              "最大せん断応力説、またはトレスカの応力説と呼ぶ。")
    assert _decided("最大せん断応力が降伏を決定するという説は、トレスカ応力説と呼ばれる[S1]。", source)[0] == "supported"
    assert _decided("最大せん断応力が降伏を決定するという説は、最大せん断応力説と呼ばれる[S1]。", source)[0] == "supported"
    # Left uncited, as the model wrote it, it is checked against the same sentence.
    assert _assessed("最大せん断応力が降伏を決定するという説は、トレスカ応力説と呼ばれる。", source).outcome == "supported"
    # An "or" between two things that may have happened stays an alternative.
    assert _decided("雨が降ると予報された[S1]。", "雨または雪が降ると予報された。") == ("unsupported", "or_dropped")


# JSQuAD v1.3 valid a14985p77q2, the page the bench serves (jsquad-007-142): its sentence has no
# subject, the page's title gives it. The real 1.5B model wrote the title in as the subject, and the
# sentence that answered 「衆議院議員補欠選挙が行われたのはいつですか」 went as "roles not confirmed".
_JCP_2006 = ("2006年の国政選挙では、4月と10月に計三選挙区で行われた衆議院議員補欠選挙で、いずれも独自の公認候補を"
             "擁立したが、すべての選挙区で落選、供託金も没収されている。")


def test_a_subject_the_page_leaves_to_its_title_may_be_named():
    claim = ("日本共産党が2006年の国政選挙で、4月と10月に計三選挙区で行われた衆議院議員補欠選挙で、いずれも独自の"
             "公認候補を擁立したが、すべての選挙区で落選、供託金も没収されている[S1]。")
    assert _assessed(claim, f"# 日本共産党\n\n{_JCP_2006}").outcome == "supported"
    assert _assessed("日本共産党は2006年の衆議院議員補欠選挙で独自の公認候補を擁立した[S1]。",
                     f"# 日本共産党\n\n{_JCP_2006}").outcome == "supported"


@pytest.mark.parametrize("page", [
    # The title names something else: who put the candidates up is not said.
    f"# 衆議院議員補欠選挙\n\n{_JCP_2006}",
    # A sentence before it names another subject, which the sentence leaves its subject to.
    "# 日本共産党\n\n民進党は2006年の補欠選挙に臨んだ。4月と10月の衆議院議員補欠選挙で、いずれも独自の公認候補を擁立した。",
    # Said in the passive: the candidate was put up by someone the sentence does not name.
    "# 日本共産党\n\n2006年の衆議院議員補欠選挙で、独自の公認候補が擁立された。",
])
def test_a_subject_left_to_something_else_is_not_the_titles(page):
    claim = "日本共産党は2006年の衆議院議員補欠選挙で独自の公認候補を擁立した[S1]。"
    assert _assessed(claim, page).outcome != "supported"


# JSQuAD v1.3 valid a1698820p65q0, the page the bench serves (jsquad-010-062, its sentence).
_NETHERLANDS_DIRECTOR = ("# オランダ\n\nしかし、イスラム系住民の中ではイスラム過激派が力を伸ばし、著名な映画監督テオ・ファン・ゴッホ"
                         "などの暗殺事件やプロテスタント教会の焼き討ち事件などが頻繁に起こるようになっている。")


def test_a_name_given_where_the_page_names_another_is_not_supported():
    # The real 1.5B model's whole answer: 「オランダでイスラム過激派に暗殺された有名な映画監督はヨハネス・
    # グーテンベルクです」, uncited, checked against this sentence and kept in the Summary as not checked.
    found = _assessed("オランダでイスラム過激派に暗殺された有名な映画監督はヨハネス・グーテンベルクです[S1]。",
                      _NETHERLANDS_DIRECTOR)
    assert (found.outcome, found.reason) == ("unsupported", "missing_term")
    assert "テオ・ファン・ゴッホ" in found.evidence
    assert _assessed("オランダでイスラム過激派に暗殺された有名な映画監督はヨハネス・グーテンベルクです。",
                     _NETHERLANDS_DIRECTOR).outcome == "unsupported"
    # The page's own name is not decided against.
    assert _assessed("イスラム過激派に暗殺された著名な映画監督はテオ・ファン・ゴッホです[S1]。",
                     _NETHERLANDS_DIRECTOR).outcome != "unsupported"
    # Nor a name the page gives elsewhere, beside another one under the same word.
    both = _NETHERLANDS_DIRECTOR + "\n\n映画監督ヨハネス・グーテンベルクも同じ年に暗殺された。"
    assert _assessed("オランダでイスラム過激派に暗殺された有名な映画監督はヨハネス・グーテンベルクです[S1]。",
                     both).outcome != "unsupported"
    # Nor the page's name spelt another way.
    assert _assessed("ラオスの首都はビエンチャンです[S1]。", "# ラオス\n\nラオスの首都ヴィエンチャンは、メコン川に面する。"
                     ).outcome != "unsupported"


def test_a_short_form_of_a_long_katakana_name_is_found_in_it():
    # JSQuAD v1.3 valid a29627p0q0, the page the bench serves (jsquad-029-000), its first sentence: the real
    # 1.5B model's true 「ヨハネス・グーテンベルクは、ドイツ出身の金細工師、印刷業者である」 missed the term
    # グーテンベルク and was taken out as not checked.
    page = ("# ヨハネス・グーテンベルク\n\nヨハネス・ゲンスフライシュ・ツア・ラーデン・ツム・グーテンベルク（1398年頃 - "
            "1468年2月3日）は、ドイツ出身の金細工師、印刷業者である。")
    assert _assessed("ヨハネス・グーテンベルクは、ドイツ出身の金細工師、印刷業者である[S1]。", page).outcome == "supported"
    assert _assessed("ヨハネス・ケプラーは、ドイツ出身の金細工師、印刷業者である[S1]。", page).outcome != "supported"


def test_kamoshirenai_is_a_hedge_on_both_sides_not_a_negation():
    assert _decided("明日は雪が降るかもしれない[S1]。", "明日は雪が降るかもしれない。")[0] == "supported"


def test_a_hedge_that_ends_its_clause_hedges_that_clause_only():
    # JSQuAD v1.3 valid a72698p1q2 (`research bench jsquad --sample 5 --seed 131`): the real 1.5B model's second
    # sentence is the page's second clause word for word, and was "hedge dropped" for the first clause's とされ.
    page = ("# ノンフィクション\n\nノンフィクションの語が使われるようになったのは20世紀の初めとされ、最初は雑誌がベストセラーを"
            "発表する際にフィクションとノンフィクションに二分したもので出版業界用語であった。")
    assert _decided("最初は雑誌がベストセラーを発表する際にフィクションとノンフィクションに二分したもので出版業界用語であった[S1]。",
                    page)[0] == "supported"
    # The clause it hedges is still hedged.
    assert _decided("ノンフィクションの語が使われるようになったのは20世紀の初めである[S1]。", page) == ("uncertain", "hedge_dropped")


@pytest.mark.parametrize(("source", "claim"), [
    ("男性がピアノを弾いている。", "ピアノを弾いている男性は一人もいない[S1]。"),
    ("ピアノを弾いている男性は一人もいない。", "男性がピアノを弾いている[S1]。"),
    ("子供が公園で遊んでいる。", "公園で遊んでいる子供はいない[S1]。"),
])
def test_not_one_of_them_denies_what_the_relative_clause_says(source, claim):
    assert _decided(claim, source) == ("unsupported", "negation")


def test_not_one_said_on_both_sides_is_supported():
    assert _decided("ピアノを弾いている男性はいない[S1]。", "ピアノを弾いている男性は一人もいない。")[0] == "supported"


def test_who_makes_someone_do_it_does_not_do_it():
    source = "母親が子供を椅子に座らせている。"
    assert _decided("母親が椅子に座っている[S1]。", source) == ("unsupported", "role_swap")
    assert _decided("子供が椅子に座っている[S1]。", source)[0] != "unsupported"


@pytest.mark.parametrize(("source", "claim", "outcome"), [
    # A が-phrase after the relative clause cannot be its subject.
    ("歌を歌っている学生を教師が見ている。", "教師が歌を歌っている[S1]。", "unsupported"),
    ("歌を歌っている学生を教師が見ている。", "学生が歌を歌っている[S1]。", "supported"),
    # The clause has its object: the noun it modifies is its subject, and the が-phrase before it
    # is the subject of the main verb, which takes that noun as its object.
    ("警官が財布を盗んだ男を追いかけた。", "警官が財布を盗んだ[S1]。", "unsupported"),
])
def test_what_a_relative_clause_says_is_said_of_the_noun_it_modifies(source, claim, outcome):
    assert _decided(claim, source)[0] == outcome


def test_a_relative_clause_without_its_object_is_not_decided():
    # The modified noun may be what the verb acts on (the ball is what the man kicked).
    assert _decided("男性がボールを蹴った[S1]。", "男性が蹴ったボールを子供が拾った。")[0] != "unsupported"


def test_an_adverb_of_certainty_is_not_a_clause():
    # 「ひょっとしたら」「確実に」 were read as predicates taking the next noun as their subject,
    # so the same roles in another word order were "unconfirmed".
    assert _decided("ひょっとしたら学生が先生に話しかけている[S1]。", "ひょっとしたら先生に学生が話しかけている。")[0] \
        == "supported"
    assert _decided("確実に選手が審判に抗議した[S1]。", "確実に審判に選手が抗議した。")[0] == "supported"


def test_a_japanese_claim_most_of_whose_words_no_source_holds_is_unsupported():
    # An addition: most of its content words are in no passage; the missing ones are shown.
    source = "駅前の広場で、子供たちがボールを蹴って遊んでいる。"
    found = _assessed("公園の噴水のそばで、老人が新聞を読みながら休んでいる[S1]。", source)
    assert (found.outcome, found.reason) == ("unsupported", "unrelated")  # nothing shared
    # Sharing the place only: the rest is added, and said so.
    found = _assessed("駅前の広場で、老人が新聞を読みながらコーヒーを飲んで休んでいる[S1]。", source)
    assert (found.outcome, found.reason) == ("unsupported", "added")
    assert "新聞" in found.missing and "老人" in found.missing
    # Said as what it is (an addition), not as a source about something else, in both languages.
    from research.modules.core.i18n import t
    assert "出典のどこにも書かれていない" in t("verify.reason.added", "ja")
    assert "none of the sources it cites" in t("verify.reason.added", "en")
    # A paraphrase that changes fewer words is left to the judge.
    kept = _assessed("駅前で子供たちがサッカーをしている[S1]。", source)
    assert kept.outcome != "unsupported"


# The GIL page a user's own folder held (``research "Is the GIL gone in Python 3.14?" --docs``),
# and the sentence Qwen2.5-Coder-1.5B wrote from it: two facts the page states, joined by a "so"
# it never states (the slowdown is the free-threaded build's, not the standard build's doing).
GIL_PAGE = (
    "# Free-threaded CPython\n\n"
    "The free-threaded build became officially supported in Python 3.14, though it is still not the default "
    "build. The standard build of Python 3.14 still has the GIL enabled by default.\n\n"
    "In the free-threaded build the GIL is disabled, so threads can run Python code in parallel on several "
    "cores. Single-threaded code runs somewhat slower in the free-threaded build.\n"
)
HARVEST = "The harvest in the valley was poor that year because the river flooded the valley in May [S1]."

def test_a_status_said_under_a_condition_is_not_asserted():
    # The real 1.5B model on the GIL question (this page, at 7ee7aac): "When the GIL is enabled, only one thread
    # can execute Python bytecode at a time, …" and "This can result in slower performance than if the GIL were
    # disabled, …" were contradicted as saying the GIL is enabled / disabled; neither says which build has it.
    for claim in ("When the GIL is enabled, only one thread can execute Python bytecode at a time, which means that "
                  "multiple threads cannot run Python code in parallel on multiple cores [S1].",
                  "This can result in slower performance than if the GIL were disabled, which allows multiple threads "
                  "to run Python code in parallel on multiple cores [S1]."):
        assert _assessed(claim, GIL_PAGE).outcome != "unsupported", claim
    # Said outright, the status is read as before.
    assert _assessed("In the free-threaded build the GIL is enabled [S1].", GIL_PAGE).outcome == "unsupported"
    assert _assessed("The GIL is disabled in the standard build of Python 3.14 [S1].", GIL_PAGE).outcome \
        == "unsupported"


def test_a_denial_said_in_a_phrase_of_its_own_is_the_page_s_denial():
    # The real 1.5B model on the GIL question (`research "Is the GIL gone in Python 3.14?" --docs`, the GIL document of
    # tests/test_polarity.py, 2026-12-01 19:07): its true sentence was "negation" for a comma after "3.14", which cut
    # its own denial into a phrase that says much of it, where the page's «…, though it is still not the default
    # build.» is not, and was taken out of the answer.
    page = ("In Python 3.14 the free-threaded build became officially supported, though it is still not the default "
            "build. The standard build of Python 3.14 still has the GIL enabled by default.")
    assert _decided("In Python 3.14, the free-threaded build became officially supported, but it is still not the "
                    "default build [S1].", page)[0] == "supported"
    # The denial moved to the other phrase, or taken away, is still the page's opposite.
    for claim in ("In Python 3.14, the free-threaded build did not become officially supported, but it is the default "
                  "build [S1].",
                  "In Python 3.14, the free-threaded build became officially supported, and it is now the default "
                  "build [S1]."):
        assert _decided(claim, page)[0] == "unsupported", claim


RAIN_JA = "東京では夏に雨が多いので、東京の夏は湿度が高い[S1]。"


@pytest.mark.parametrize(
    ("claim", "source", "reason"),
    [
        ("The standard build of Python 3.14 still has the GIL enabled by default, so single-threaded code runs "
         "somewhat slower in the free-threaded build [S1].", GIL_PAGE, "link_unstated"),
        # each fact alone, and the link the page does state
        ("The standard build of Python 3.14 still has the GIL enabled by default [S1].", GIL_PAGE, "supported"),
        ("Single-threaded code runs somewhat slower in the free-threaded build [S1].", GIL_PAGE, "supported"),
        ("In the free-threaded build the GIL is disabled, so threads can run Python code in parallel on several "
         "cores [S1].", GIL_PAGE, "supported"),
        # "X means that Y" with X one noun (the real 1.5B model at d46e508, the GIL question: the page
        # has the slower single-threaded code in the build without the GIL; was supported)
        ("However, the GIL also means that single-threaded code runs somewhat slower in the free-threaded build "
         "[S1].", GIL_PAGE, "link_unstated"),
        ("The GIL means that only one thread runs Python code at a time [S1].",
         "In CPython the GIL means that only one thread runs Python code at a time.", "supported"),
        (HARVEST, "The river flooded the valley in May. The harvest in the valley was poor that year.", "link_unstated"),
        (HARVEST, "The harvest in the valley was poor that year because the river flooded the valley in May.",
         "supported"),
        (RAIN_JA, "東京では夏に雨が多い。東京の夏は湿度が高い。", "link_unstated"),
        (RAIN_JA, "東京では夏に雨が多いため、湿度が高い。", "supported"),
        (RAIN_JA, "東京では夏に雨が多い。そのため、東京の夏は湿度が高い。", "supported"),
    ],
)
def test_two_facts_are_linked_only_where_a_source_links_them(claim, source, reason):
    """A link ("so", "because", 「ので」) between two facts a source states apart is a claim of its
    own: never supported by the quick checks, never left to the choosing judge (whose choice is
    of wording); the same link in one sentence of the source, or opening the next, is."""
    assert _assessed(claim, source).reason == reason


# PubMedQA's pages (1928f35 made "little is known" and "it is unknown if" leave a question open):
# such a sentence of a page, read against that page, is supported; a fact stated where it says so is not.
_LITTLE_KNOWN = ("While the effect of the dominant hemisphere resection on spoken language has been extensively "
                 "researched, little is known about reading abilities in individuals after left-sided resection.")


def test_a_sentence_that_says_little_is_known_is_supported_by_itself_and_supports_no_fact():
    assert _assessed(_LITTLE_KNOWN[:-1] + " [S1].", _LITTLE_KNOWN).outcome == "supported"
    stated = _assessed("Reading abilities are preserved in individuals after left-sided resection [S1].", _LITTLE_KNOWN)
    assert stated.outcome != "supported", stated.reason


# PubMedQA 22205377's Results, quoted: what is said of all variables but the excepted relationships.
_ALL_BUT = ("All variables are statistically significant in male and female models except of the relationships between "
            "'economic/employment' and 'social/welfare' dimensions and female suicides; and the relationship between "
            "'employment rates' and 'economic/employment' dimension. The remaining influence of GDP is positive in both "
            "models.")


def test_what_a_passage_says_of_all_but_the_excepted_is_not_said_of_them():
    # The real 1.5B model's Summary (`research bench pubmedqa --seed 84`) was led by this sentence, supported:
    # every word of it is in the passage, whose "except" it reads past.
    claim = ("The relationship between 'employment rates' and 'economic/employment' dimension is also statistically "
             "significant, with the remaining influence of GDP being positive in both models [S1].")
    found = _assessed(claim, _ALL_BUT)
    assert (found.outcome, found.reason) == ("unsupported", "negation")
    assert found.evidence.startswith("All variables are statistically significant")
    # What it says of the others stands.
    assert _outcome("The 'social/welfare' dimension is statistically significant in male models [S1].", _ALL_BUT) \
        == "supported"
    assert _outcome("The remaining influence of GDP is positive in both models [S1].", _ALL_BUT) == "supported"


# PubMedQA 11053064's Results, quoted: two sentences of one shape, one subject each.
_TWO_SUBJECTS = ("50 of 74 patients with pSS (68%) reported fatigue-a prevalence significantly higher than in the lupus "
                 "group (108/216 (50%); p<0.0087). Fatigue was present in 7/13 (54%) patients with SLE/sSS. FM was "
                 "present in 9/74 patients with pSS (12%), compared with 11/216 lupus patients (5%), and in none of the "
                 "patients with SLE/sSS.")


def test_a_figure_the_page_gives_to_another_subject_in_a_sentence_of_the_same_shape_is_not_supported():
    # The real 1.5B model's Summary (`research bench pubmedqa --seed 84`) merged the two sentences under the
    # first one's subject, supported: every word and figure is on the page.
    merged = ("Fatigue is present in 7/13 (54%) patients with SLE/sSS, compared with 11/216 lupus patients (5%), and "
              "in none of the patients with SLE/sSS [S1].")
    found = _assessed(merged, _TWO_SUBJECTS)
    assert (found.outcome, found.reason) == ("unsupported", "said_of_another")
    assert found.evidence.startswith("FM was present in 9/74")
    assert _assessed("Fatigue was present in 9/74 patients with pSS (12%) [S1].", _TWO_SUBJECTS).reason == "said_of_another"
    # Said as what the study found (the same question again, `--seed 93`: supported, leading the Summary).
    found = _assessed("The study also found that fatigue was present in 9/74 patients with pSS (12%), compared with "
                      "11/216 lupus patients (5%), and in none of the patients with SLE/sSS [S1].", _TWO_SUBJECTS)
    assert (found.outcome, found.reason) == ("unsupported", "said_of_another"), found
    assert _outcome("The study found that FM was present in 9/74 patients with pSS (12%) [S1].", _TWO_SUBJECTS) != "unsupported"
    # Each subject with its own figures stands.
    assert _outcome("Fatigue was present in 7/13 (54%) patients with SLE/sSS [S1].", _TWO_SUBJECTS) == "supported"
    assert _outcome("FM was present in 9/74 patients with pSS (12%) [S1].", _TWO_SUBJECTS) == "supported"
    # A subject said in other words, with no sentence of its own shape, is never read as another's.
    assert _outcome("Lupus patients had FM in 11/216 cases (5%) [S1].", _TWO_SUBJECTS) != "unsupported"


def test_a_question_the_page_asks_does_not_support_its_answer():
    # PubMedQA 22349635 (`research bench pubmedqa --seed 86`; gold "no"): the real 1.5B model's "Yes, elderly
    # patients benefit from surgery in addition to radiotherapy …" led its Summary, supported by the
    # background's question. Its sentences, quoted.
    page = ("One question regarding the treatment of metastatic spinal cord compression (MSCC) is whether elderly "
            "patients benefit from surgery in addition to radiotherapy? Improvement of motor function occurred in 21% "
            "after S + RT and 24% after RT (p = 0.39).")
    claim = ("Yes, elderly patients benefit from surgery in addition to radiotherapy for treatment of metastatic "
             "spinal cord compression [S1].")
    assert _outcome(claim, page) != "supported"
    assert _outcome("Improvement of motor function occurred in 21% after S + RT and 24% after RT [S1].", page) \
        == "supported"


# JSQuAD v1.3 valid (`research bench jsquad --seed 85`), the real 1.5B model's answer to 「初めての日本共産党系の
# 国会議員は誰か」: under its sub-question 「3. 日本共産党系の国会議員の出身地は？」 the line 「徳田球一：日本 [S1]」 was
# supported, by the words 徳田球一 and 日本 alone: the page (quoted) names no one's birthplace.
_JCP_PAGE = ("1927年の第16回衆議院議員総選挙では徳田球一、山本懸蔵をはじめとする何人かの党員が労農党から立候補し、"
             "選挙戦のなかで「日本共産党」を名乗る印刷物を発行した。総選挙では労働農民党京都府連合会委員長の山本宣治が"
             "当選した。")


def test_a_label_line_is_read_with_the_relation_its_heading_asks_for():
    index = EvidenceIndex([{"label": "S1", "status": "ok", "markdown": _JCP_PAGE}])
    (line,) = split_claims("### 3. 日本共産党系の国会議員の出身地は？\n\n徳田球一：日本 [S1]\n")
    assessed = assess_claim(line, index)
    assert assessed.outcome != "supported" and "出身地" in assessed.checked_as, assessed
    # The relation the page does say, read the same way, is supported.
    (line,) = split_claims("### 日本共産党系の国会議員の所属政党は？\n\n山本宣治：労農党 [S1]\n")
    page = "総選挙では労働農民党京都府連合会委員長の山本宣治が当選した。山本宣治の所属政党は労農党であった。"
    assert assess_claim(line, EvidenceIndex([{"label": "S1", "status": "ok", "markdown": page}])).outcome == "supported"
    # English: "Tokuda Kyuichi: Japan" under "What is the birthplace of …?", against a page without one.
    (line,) = split_claims("### What is the birthplace of the members?\n\nKyuichi Tokuda: Japan [S1]\n")
    english = EvidenceIndex([{"label": "S1", "status": "ok", "markdown":
                              "In the 1927 election Kyuichi Tokuda of Japan stood as a candidate of the Labour-Farmer Party."}])
    assert assess_claim(line, english).outcome != "supported"


# PubMedQA 23228527 (`research bench pubmedqa --seed 91`), the real 1.5B model: the page's result sentence, with "For
# example, a study by S1 found that" before it, stayed "not checked" (the words "example" and "S1" missing).
_MUSIC_RESULT = ("The purpose of this study was to explore the influence of music on stress in a sample of patients over the "
                 "duration of ventilatory support.\n\nControlling for illness severity, gender, and baseline UFC (29-45 mg/day), mixed models analysis revealed "
                 "no significant differences among groups in UFC over the course of ventilatory support.")


def test_an_example_s_connective_and_a_source_s_label_are_no_words_a_page_must_hold():
    said = "mixed models analysis revealed no significant differences among groups in UFC over the course of ventilatory support [S1]."
    assert _outcome(f"For example, a study by S1 found that {said}", _MUSIC_RESULT) == "supported"
    assert _outcome(f"Also, {said[0].upper()}{said[1:]}", _MUSIC_RESULT) == "supported"
    # A label of no source read is a word like any other.
    assert _outcome(f"For example, a study by S7 found that {said}", _MUSIC_RESULT) != "supported"


# JSQuAD v1.3 valid (「労働関係調整法がGHQの主導により公布されたのはいつ？」, `research bench jsquad --seed 94`), the real
# 1.5B model's Summary: 「労働関係調整法がGHQの主導により公布されたのは1946年9月27日に施行された」 gives the day it was
# promulgated as the day it came into force; the page (quoted) gives each its own day. It was supported.
_LABOUR_LAW = "次いで労働関係調整法が、今度はGHQの主導により1946年9月27日に公布・同年10月13日から施行された。"


def test_a_date_given_to_the_other_event_of_its_sentence_is_contradicted():
    claim = "労働関係調整法がGHQの主導により公布されたのは1946年9月27日に施行された[S1]。"
    assessed = _assessed(claim, _LABOUR_LAW)
    assert assessed.outcome == "unsupported" and assessed.reason == "number_mismatch", assessed
    # Each day with its own event is the page's.
    assert _outcome("労働関係調整法は1946年9月27日に公布され、同年10月13日から施行された[S1]。", _LABOUR_LAW) == "supported"
    assert _outcome("労働関係調整法は1946年10月13日から施行された[S1]。", _LABOUR_LAW) == "supported"


# JSQuAD v1.3 valid a59579p0q2 (「ドミニカ国の読みは？」, `research bench jsquad --seed 95`), the real 1.5B model's finding
# 「ドミニカ国の国名は「ドミニカ共和国」です」 was supported (ドミニカ国, 国名 and ドミニカ共和国 are each on the page);
# the page (quoted) tells the two countries apart.
_DOMINICA_NAMES = ("日本語の表記はドミニカ国。時にドミニカ連邦、コモンウェルス・オブ・ドミニカと呼称される場合もある。日本語における"
                   "国名の漢字表記の例は土弥尼加。ドミニカ共和国と同じ漢字を当てているため区別のために土弥尼加国とも。"
                   "イスパニョーラ島東部に位置するドミニカ共和国と区別するため、ドミニカ国と表記される。")


def test_a_name_the_page_tells_apart_from_its_subject_is_not_the_subject_s():
    found = _assessed("ドミニカ国の国名は「ドミニカ共和国」です[S1]。", _DOMINICA_NAMES)
    assert found.outcome == "unsupported" and found.reason == "contrast", found
    assert "区別するため" in found.evidence
    # The page the model cited (its own words): the two names written apart in one sentence.
    cited = ("日本語における国名の漢字表記の例は土弥尼加。ドミニカ共和国と同じ漢字を当てているため区別のために土弥尼加国とも。"
             "余談だが、同じ漢字圏の中国語ではドミニカ国を 多米尼克、ドミニカ共和国を 多米尼加と書き分けている。")
    assert _assessed("ドミニカ国の国名は「ドミニカ共和国」です[S1]。", cited).reason == "contrast"
    # The names the page gives it stand.
    assert _outcome("ドミニカ国の日本語の表記はドミニカ国です[S1]。", _DOMINICA_NAMES) != "unsupported"
    assert _outcome("ドミニカ国は、時にドミニカ連邦と呼称される[S1]。", _DOMINICA_NAMES) != "unsupported"

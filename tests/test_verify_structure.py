"""Issue 21: the cheap checks see who did what, hedges and numbers in the passage that
supports the claim, and never drop a sentence that says something.

Japanese pairs marked JNLI/JSICK/JaNLI are copied from ``../shared/ja-nli/dev.jsonl``
(CC BY-SA 4.0: JGLUE's JNLI, JSICK, JaNLI; attribution in that folder's README); the
rest are written for these tests.
"""

import pytest

from research.modules.text.claims import split_claims
from research.modules.text.evidence import EvidenceIndex, assess_claim
from research.modules.text.numbers import extract_numbers


def _assess(claim: str, source: str):
    if claim.endswith("。[S1]。"):
        claim = claim[: -len("。[S1]。")] + "[S1]。"
    index = EvidenceIndex([{"label": "S1", "status": "ok", "markdown": source}])
    (parsed,) = split_claims(claim)
    return assess_claim(parsed, index)


def _outcome(claim: str, source: str) -> str:
    return _assess(claim, source).outcome


# --- defects named in the issue -------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "figure"),
    [("発見は（2020年）の報告による。", "2020年"), ("Catalogue number (3287).", "3287"),
     ("沸点は高い（3287 °Cの報告もあり）。", "3287 °c")],
)
def test_digits_in_brackets_are_data_not_citations(text, figure):
    assert figure in [m.text for m in extract_numbers(text)]


def test_a_bracketed_year_in_the_source_supports_the_claim():
    source = "この遺跡は（2020年）の調査で見つかった。"
    assert _outcome("この遺跡は2020年の調査で見つかった[S1]。", source) != "unsupported"


def test_a_sentence_after_hai_is_a_claim_and_is_checked():
    claims = split_claims("はい、日本で蝗害が発生したことはありません[S1]。")
    assert [c.plain for c in claims] == ["はい、日本で蝗害が発生したことはありません。"]
    source = "日本でも江戸時代に蝗害が発生し、各地で大きな被害が出たと記録されている。"
    assert _outcome("はい、日本で蝗害が発生したことはありません[S1]。", source) != "supported"


@pytest.mark.parametrize("draft", ["はい、承知しました。", "Sure! Here is the summary:", "Sure, I can help with that.",
                                   "(Passage 1)", "(Passage 2, Step 3)"])
def test_assent_and_pointers_alone_are_not_claims(draft):
    assert split_claims(draft) == []


def test_yes_before_a_statement_keeps_the_statement():
    assert [c.plain for c in split_claims("Yes, it erupted in 1707 [S1].")] == ["Yes, it erupted in 1707."]


def test_a_number_must_be_in_the_passage_that_says_the_same_thing():
    source = ("The committee accepted the proposal in 2023 after a long debate. "
              "Several members joined the committee. The next review is planned for 2024.")
    assessment = _assess("The committee accepted the proposal in 2024 [S1].", source)
    assert assessment.outcome == "unsupported"
    assert assessment.reason == "number_mismatch"


def test_two_approximate_figures_that_differ_are_a_mismatch():
    source = "The model has about 3.6 billion active parameters per token, out of 21 billion in all."
    assert _outcome("The model has about 3.8 billion active parameters per token [S1].", source) == "unsupported"
    assert _outcome("The model has about 3.6 billion active parameters per token [S1].", source) == "supported"


def test_a_rounded_figure_still_agrees():
    assert _outcome("Mount Fuji is about 3.8 km high [S1].", "Mount Fuji is 3,776 m high.") == "supported"


# --- who does what to whom (JaNLI-style pairs, source: ../shared/ja-nli/dev.jsonl) ----------------


@pytest.mark.parametrize(
    ("source", "claim"),
    [
        ("大人が庭でサーファーにいじめられている", "大人が庭でサーファーをいじめている"),  # passive read as active
        ("会社員が男性を蹴った", "男性が会社員を蹴った"),  # subject and object exchanged
        ("部屋の隅に洗面台があり、左側の壁にシャワーがあります。", "部屋の隅にシャワーがあり、左側の壁に洗面台があります。"),
    ],
)
def test_exchanged_roles_are_unsupported(source, claim):
    assessment = _assess(claim + "[S1]。", source)
    assert assessment.outcome == "unsupported", assessment.reason
    assert assessment.reason == "role_swap"


@pytest.mark.parametrize(
    ("source", "claim"),
    [
        ("会社員が男性を蹴った", "男性が会社員に蹴られた"),  # the same event in the passive
        ("ライダーが学生と大人をたたいている", "学生と大人をライダーがたたいている"),  # word order only
        ("男性が歌いながらギターを弾いている", "男性がギターを弾いている"),  # a shared subject
        ("スノーボーダーが走っている男性を指さしている", "男性が走っている"),  # the noun a clause modifies
    ],
)
def test_the_same_roles_in_other_words_are_supported(source, claim):
    assert _outcome(claim + "[S1]。", source) == "supported"


@pytest.mark.parametrize(
    ("source", "claim"),
    [
        ("ホッケー選手が学生を見つめているカップルに駆け寄った", "ホッケー選手が学生を見つめている"),  # a relative clause as the main one
        ("子供が女性を座らせている", "子供が座っている"),  # a causative
        ("学生が大人を押したと言われている", "学生が大人を押した"),  # a hedge dropped
        ("カップルが若者を蹴ったと信じられている", "カップルが若者を蹴った"),
        ("テニス選手が男の子か子供を追い払った", "テニス選手が子供を追い払った"),  # an "or" dropped
        ("若者が立っているか、老人がカップルをたたいている", "若者が立っている"),
        ("来週、路上の手前に白い消火栓ができる予定です。", "路上の手前に白い消火栓ができます。"),  # a plan is not a fact
    ],
)
def test_a_claim_lifted_out_of_its_frame_is_not_supported(source, claim):
    assert _outcome(claim + "[S1]。", source) != "supported"


# --- predicates and attributes the passage contradicts (JNLI-style) ------------------------------


@pytest.mark.parametrize(
    ("source", "claim"),
    [
        ("タイヤのパンクした赤い車の下に白い猫が座っています。", "タイヤのパンクした白い車の下に白い猫が座っています。"),
        ("タイヤのパンクした赤い車の下に白い猫が座っています。", "タイヤのパンクした赤い車の下に白い猫が立っています。"),
        ("男性がギターを弾いている", "女性がギターを弾いている"),
    ],
)
def test_a_contrasting_word_in_the_same_slot_is_unsupported(source, claim):
    assessment = _assess(claim + "[S1]。", source)
    assert (assessment.outcome, assessment.reason) == ("unsupported", "contrast")


@pytest.mark.parametrize(
    ("source", "claim"),
    [
        ("海でサーファーが波に乗っています。", "海でサーファーがおぼれています。"),  # another verb
        ("道路標識の下のほうにたくさんの傘があります。", "道路標識の下のほうに少しの傘があります。"),
        ("男性がボールを蹴っている", "男性がボールを蹴り損なっている"),  # 損なう: failing to
        ("部屋の電気が点いています。", "部屋の電気が消えています。"),
    ],
)
def test_a_changed_predicate_or_attribute_is_never_supported(source, claim):
    assert _outcome(claim + "[S1]。", source) != "supported"


def test_english_hedges_and_limiters():
    source = "The minister reportedly resigned on Monday. The bill passed the Senate and the House."
    assert _outcome("The minister resigned on Monday [S1].", source) != "supported"
    assert _outcome("The bill passed only the Senate [S1].", source) != "supported"
    assert _outcome("The bill passed the Senate and the House [S1].", source) == "supported"


def test_a_record_field_read_the_other_way_is_not_supported():
    source = "{'name': 'Fresco Cafe', 'attributes': {'OutdoorSeating': True, 'RestaurantsReservations': False}}\nOverview:"
    assert _outcome("Fresco Cafe has outdoor seating and takes reservations [S1].", source) != "supported"
    assert _outcome("Fresco Cafe has outdoor seating but no reservations [S1].", source) == "supported"


def test_framing_words_and_the_questions_own_words_are_not_required_of_a_source():
    source = "富士山は1707年の宝永噴火を最後に噴火していない。"
    index = EvidenceIndex([{"label": "S1", "status": "ok", "markdown": source}], question="富士山が静かな理由は？")
    (claim,) = split_claims("富士山が静かな理由は、1707年の宝永噴火を最後に噴火していないことです[S1]。")
    assert assess_claim(claim, index).reason != "missing_term"
    english = EvidenceIndex([{"label": "S1", "status": "ok", "markdown": "The bridge opened in 1937."}],
                            question="What is the backstory of the bridge?")
    (claim,) = split_claims("The backstory: the bridge opened in 1937 [S1].")
    assert assess_claim(claim, english).outcome == "supported"


def test_the_relation_a_question_for_a_name_asks_is_required_of_a_source():
    # The real 1.5B model on JSQuAD a14985p157q2 (issue 45's bench): 「日本共産党の本部の設計者の名は
    # 徳田球一です[S4]。」 was supported, "設計者" (designer) being a word of the question that no page
    # read used: a frame. For a question that asks for a name, it is the relation to find.
    source = ("1945年、徳田球一、宮本顕治らは合法政党として日本共産党を再建（書記長・徳田球一）し、"
              "党本部は千駄ヶ谷の溶接学校跡地に置いた。")
    index = EvidenceIndex([{"label": "S1", "status": "ok", "markdown": source}], question="日本共産党の本部の設計者の名は何か")
    (claim,) = split_claims("日本共産党の本部の設計者の名は徳田球一です[S1]。")
    assert assess_claim(claim, index).outcome != "supported"
    english = EvidenceIndex([{"label": "S1", "status": "ok", "markdown": "In 1945 the party was rebuilt with Tokuda "
                              "Kyuichi as general secretary, and its headquarters was placed in Sendagaya."}],
                            question="Who designed the party's headquarters?")
    (claim,) = split_claims("The party's headquarters was designed by Tokuda Kyuichi [S1].")
    assert assess_claim(claim, english).outcome != "supported"
    # The page that says it still supports it, "its name is" framing the answer.
    source = "日本共産党の本部ビルは小林良雄の設計で、1期棟は2002年に完成した。"
    index = EvidenceIndex([{"label": "S1", "status": "ok", "markdown": source}], question="日本共産党の本部の設計者の名は何か")
    (claim,) = split_claims("日本共産党の本部の設計者の名は小林良雄です[S1]。")
    assert assess_claim(claim, index).outcome == "supported"


def test_a_changed_year_is_a_mismatch_in_english_as_in_japanese():
    # issue 23, item 9: the English twin was only "uncertain"
    english = _assess("Its last eruption was in 1854 [S1].", "Mount Fuji last erupted in 1707, during the Hōei eruption.")
    japanese = _assess("最後の噴火は1854年です[S1]。", "富士山の最後の噴火は1707年の宝永噴火である。")
    assert (english.outcome, english.reason) == (japanese.outcome, japanese.reason) == ("unsupported", "number_mismatch")


def test_a_unit_spelled_another_way_is_the_same_figure():
    # issue 23, item 4: "3776 meters" against "3,776 metres" was "partly verified"
    assert _outcome("Its summit reaches 3776 meters [S1].", "Its summit reaches 3,776 metres above sea level.") == "supported"


def test_every_reason_the_checks_give_has_words_in_both_languages():
    import inspect
    import re

    from research.modules.core.i18n import MESSAGES
    from research.modules.text import evidence, structure
    from research.state.models import ClaimReason

    code = inspect.getsource(evidence) + inspect.getsource(structure)
    reasons = set(re.findall(r'Finding\("(?:supported|unsupported|uncertain)", "(\w+)"', code))
    reasons |= set(re.findall(r'return "(\w+)", ', code))  # structure's (kind, detail)
    reasons |= set(re.findall(r'return "(\w+_\w+)" if', code)) | set(re.findall(r'else "(or_\w+)"', code))
    reasons |= {"field_contradicted", "field_unknown", "hedge_dropped", "hedge_added", "limiter_added"}
    assert {"role_swap", "contrast", "number_mismatch", "or_dropped"} <= reasons
    missing = sorted(r for r in reasons if f"verify.reason.{r}" not in MESSAGES)
    assert not missing, missing
    assert reasons <= {reason.value for reason in ClaimReason}, reasons - {reason.value for reason in ClaimReason}
    for reason in reasons:
        assert set(MESSAGES[f"verify.reason.{reason}"]) >= {"en", "ja"}


def test_english_names_exchanged_around_the_same_verb_are_contradicted_when_the_rest_matches():
    # issue 29: exchanging the two names gives the passage's sentence word for word: contradicted.
    source = "Japan defeated China in the war of 1894."
    swapped = _assess("China defeated Japan in the war of 1894 [S1].", source)
    assert (swapped.outcome, swapped.reason) == ("unsupported", "role_swap")
    # Said in other words around the exchange: only the judge can tell.
    loose = _assess("China beat Japan in the 1894 war [S1].", source)
    assert loose.outcome != "supported"
    assert _outcome("Japan defeated China in the war of 1894 [S1].", source) == "supported"
    # the passive turns the order round by itself
    assert _outcome("Japan defeated China in 1894 [S1].", "In 1894 China was defeated by Japan.") != "unsupported"


def test_a_question_a_study_sets_out_to_answer_is_not_its_answer():
    # PubMedQA PQA-L 23234860 (pubmedqa/dev.json), its context quoted; the real 1.5B model's
    # headline "Yes, delays … do impact survival" was supported by the study's own question.
    from research.modules.text.structure import stance_problem

    evidence = ("The purpose of this study was to evaluate whether time to primary treatment (TPT) in breast cancer "
                "impacts survival. Treatment delays in breast cancer are generally thought to affect prognosis but "
                "the impact on survival remains unclear.")
    assert stance_problem("Delays in time to primary treatment of breast cancer impact survival.", evidence, "en") \
        == "hedge_dropped"
    # A claim that reports the question, or the doubt, says what the study says.
    assert stance_problem("The study evaluated whether time to primary treatment impacts survival.", evidence, "en") is None
    assert stance_problem("The impact of treatment delays on survival remains unclear.", evidence, "en") is None
    # An instruction's "whether" is no study's question.
    assert stance_problem("Choose how to unlock the drive.", "Choose whether to unlock the drive with a password.",
                          "en") is None
    # PubMedQA PQA-L 11500608 (gold "no"), its context quoted: what a study looks for, it has not
    # found ("Yes, short-term treatment with proton pump inhibitors can cause rebound aggravation
    # of symptoms" was decided supported by the 1.5B judge on this sentence alone).
    looks_for = "This study looks for a rebound aggravation of symptoms after short-term treatment with lansoprazole."
    assert stance_problem("Short-term treatment with proton pump inhibitors can cause rebound aggravation of "
                          "symptoms.", looks_for, "en") == "hedge_dropped"
    assert stance_problem("The study looked for a rebound aggravation of symptoms after short-term lansoprazole.",
                          looks_for, "en") is None
    # Someone who looks for something is not a study's question.
    assert stance_problem("The company hires engineers.", "The company looks for engineers every spring.", "en") is None
    # PubMedQA PQA-L 22768311 (gold "no"), its context quoted: the association a study set out to
    # study is not one it found ("Yes, HCMV infection is associated with hypertension" was
    # supported at score 1.0 on these two sentences).
    aimed = ("Recent studies have implicated the human cytomegalovirus (HCMV) as a possible pathogen for causing "
             "hypertension. We aimed to study the association between HCMV infection and hypertension in the United "
             "States National Health and Nutrition Examination Surveys.")
    assert stance_problem("Human cytomegalovirus (HCMV) infection is associated with hypertension.", aimed, "en") \
        == "hedge_dropped"
    assert stance_problem("The study examined the association between HCMV infection and hypertension.", aimed,
                          "en") is None


def test_a_pages_keywords_under_their_heading_are_no_evidence():
    # PubMedQA PQA-L 27146470 (gold "maybe"), the shape of its page in the bench's corpus (the
    # MeSH terms as PubMed lists them): "Yes, tuberculosis patients adhere to prescribed treatments
    # in China" was supported at score 1.0, every word lent by the keyword line.
    page = ("# PubMed 27146470\n\n## Background\n\nTuberculosis patients in China were given their prescribed "
            "treatments by county clinics.\n\n"
            "## MeSH terms\n\nAdolescent; Adult; Antitubercular Agents; China; Female; Humans; Medication Adherence; "
            "Patients; Tuberculosis; Young Adult\n")
    assert _outcome("Tuberculosis patients adhere to prescribed treatments in China [S1].", page) != "supported"
    # The same words in a sentence are evidence as before; a list in prose is not a keyword line.
    assert _outcome("Tuberculosis patients in China adhere to their treatment [S1].",
                    page + "\n## Conclusions\n\nTuberculosis patients in China adhere to their treatment.\n") \
        == "supported"


def test_a_difficulty_the_source_states_is_not_a_plain_yes():
    # PubMedQA PQA-L 18843057 (pubmedqa/dev.json, gold "no"), its context quoted; the real 1.5B
    # model's headline "Yes, manual resuscitator tidal volume measurement can be accurate" was
    # supported by its words alone.
    evidence = ("One of the problems with manual resuscitators is the difficulty in achieving accurate volume "
                "delivery. This study was designed to compare tidal volumes delivered by the squeezing method. "
                "Ventilation was delivered with a manual resuscitator connected to a microspirometer and volumes "
                "were measured.")
    found = _assess("Yes, manual resuscitator tidal volume measurement can be accurate [S1].", evidence)
    assert (found.outcome, found.reason) == ("uncertain", "hedge_dropped")
    from research.modules.text.structure import stance_problem

    # A claim that names the difficulty, or denies the plain statement, says what the source says.
    assert stance_problem("Achieving accurate volume delivery with manual resuscitators is difficult.", evidence,
                          "en") is None
    assert stance_problem("Manual resuscitators do not reliably deliver accurate volumes.", evidence, "en") is None
    # A difficulty in another sentence than the one that says the claim (the shape of RAGTruth
    # train's restaurant reviews, which the first version of this check held back).
    assert stance_problem("The restaurant is recommended for its authentic Mexican food.",
                          "It is hard to find a good authentic Mexican restaurant in town. Reviewers recommend this "
                          "restaurant for its authentic Mexican food.", "en") is None
    # The same in Japanese.
    source_ja = "手動式蘇生器では正確な換気量を送ることが難しい。"
    assert stance_problem("手動式蘇生器で正確な換気量を送れる。", source_ja, "ja") == "hedge_dropped"
    assert stance_problem("手動式蘇生器で正確な換気量を送るのは困難だ。", source_ja, "ja") is None


def test_a_comparison_turned_round_is_not_supported():
    # PubMedQA PQA-L 18843057 (pubmedqa/dev.json), its context quoted; the real 1.5B model turned
    # the comparison round and its words alone had it supported.
    evidence = ("This study was designed to compare tidal volumes delivered by the squeezing method, physical "
                "characteristics and education and practice levels. Tidal volume delivered by two hands was "
                "significantly greater than that delivered by one hand (r = 0.398, p<0.01).")
    turned = _assess("The mean tidal volumes delivered by the squeezing method were significantly greater than those "
                     "delivered by two hands (p<0.01) [S1].", evidence)
    assert (turned.outcome, turned.reason) == ("uncertain", "role_unclear")
    # The comparison as the source makes it, and the same with "less than" the other way round.
    assert _outcome("Tidal volume delivered by two hands was significantly greater than that delivered by one hand "
                    "(p<0.01) [S1].", evidence) == "supported"
    from research.modules.text.structure import english_comparison_reversed

    assert english_comparison_reversed("Tidal volume delivered by one hand was significantly less than that "
                                       "delivered by two hands.", evidence) is None
    assert english_comparison_reversed("Tidal volume delivered by two hands was significantly less than that "
                                       "delivered by one hand.", evidence) is not None


def test_a_sentence_cut_at_its_first_predicate_keeps_the_topic_of_the_whole():
    # JSQuAD v1.3 valid a4596p46q1 (`research bench jsquad --sample 5 --seed 59`): the real 1.5B
    # model cut its page's sentence at である; the page's topic 識字率は was read as the subject of
    # its last clause only, the claim's roles went unconfirmed and the answer lost the gold figure.
    source = ("2003年の推計によれば、15歳以上の国民の識字率は93.3%（男性95.5%、女性91.3%）であり、"
              "ヨーロッパ諸国の中ではマルタに次いでセルビア・モンテネグロと並ぶ低さだった。")
    said = _assess("2003年の推計によれば、15歳以上の国民の識字率は93.3%（男性95.5%、女性91.3%）である[S1]。", source)
    assert (said.outcome, said.reason) == ("supported", "supported")
    # Another subject put to that clause is still not confirmed.
    other = _assess("2003年の推計によれば、ヨーロッパ諸国は93.3%（男性95.5%、女性91.3%）である[S1]。", source)
    assert other.outcome != "supported"


def test_a_passive_first_clause_keeps_the_topic_of_the_whole():
    # JSQuAD v1.3 valid (the page リズム, `research bench jsquad --sample 5 --seed 113`): the real 1.5B model wrote
    # the page's first clause as a sentence; the page's topic went to 生じる, its last clause only,
    # and the claim's passive 見られる (its topic as what is seen) was left "roles not confirmed".
    source = ("# リズム\n\n強勢リズムは英語やロシア語などに見られ、強勢のある音節が時間的にほぼ等間隔に"
              "繰り返されることによって生じる。例えば英語では第1ストレスから次の第1ストレスまでの時間的長さが等しい。")
    said = _assess("強勢リズムは英語やロシア語などに見られる[S1]。", source)
    assert (said.outcome, said.reason) == ("supported", "supported")
    # Another topic put to that clause, or other languages, are not.
    assert _outcome("音節リズムは英語やロシア語などに見られる[S1]。", source) != "supported"
    assert _outcome("強勢リズムは日本語やフランス語などに見られる[S1]。", source) != "supported"


def test_a_title_in_brackets_is_a_name_and_a_date_is_no_agent():
    # JSQuAD v1.3 valid (the page 日本共産党, `research bench jsquad --sample 5 --seed 112`): the real
    # 1.5B model's answer, 「1950年1月6日に機関紙に掲載されました」, was left not checked: the title
    # 「日本の情勢について」 was read as a clause (について as 付く, taking 機関紙), and the passive's
    # 1月6日に as who published it. "Stalin criticised the article" was supported the same way.
    source = ("# 日本共産党\n\n1950年1月6日、ヨシフ・スターリンが指導するコミンフォルムは、機関紙に論文「日本の情勢に"
              "ついて」を掲載し、当時の日本共産党の野坂参三らの「占領下での革命」論（平和革命論）を批判した。")
    for claim in ("1950年1月6日に機関紙に掲載されました[S1]。",
                  "論文「日本の情勢について」は1950年1月6日に機関紙に掲載された[S1]。"):
        assert _outcome(claim, source) == "supported", claim
    assert _outcome("論文「日本の情勢について」は1950年1月7日に機関紙に掲載された[S1]。", source) == "unsupported"
    assert _outcome("ヨシフ・スターリンは論文「日本の情勢について」を批判した[S1]。", source) != "supported"


def test_what_the_next_sentence_says_of_other_figures_is_not_said_of_these():
    # JSQuAD v1.3 valid (the page オランダ, `research bench jsquad --sample 5 --seed 114`): the real 1.5B
    # model gave the 2005 trade figures what the page's next sentence says of the 2004 investment figures;
    # every word and figure is on the page, and without its closing 「ことを示しています」 it was supported.
    page = ("# オランダ\n\nオランダは対日貿易では赤字であり、2005年の貿易額は、日本からオランダへの輸出が1兆5,076億円、"
            "オランダから日本への輸入が2,439億円。2004年の直接投資は、日本からオランダが7,764億円、オランダから日本が"
            "3,164億円で、いずれもEU加盟国中第1位となっている。2019年の経済産業省の調査では、日本に拠点を置くオランダ企業の"
            "数は193社である。")
    joined = "2005年の日本からオランダへの輸出は1兆5,076億円、オランダから日本への輸入は2,439億円で、いずれもEU加盟国中第1位となっている"
    for source in (page, page.replace("2,439億円。", "2,439億円。\n\n")):  # one paragraph, and two
        for claim in (joined + "[S1]。", joined + "ことを示しています[S1]。"):
            said = _assess(claim, source)
            assert (said.outcome, said.reason) == ("unsupported", "said_of_another"), claim
            assert "2004年の直接投資" in said.evidence
        # Each sentence as the page says it stays supported.
        assert _outcome("2005年の日本からオランダへの輸出は1兆5,076億円、オランダから日本への輸入は2,439億円[S1]。", source) \
            == "supported"
        assert _outcome("2004年の直接投資は、日本からオランダが7,764億円、オランダから日本が3,164億円で、"
                        "いずれもEU加盟国中第1位となっている[S1]。", source) == "supported"


def test_an_ordinal_in_kanji_is_the_ordinal_in_digits():
    # JSQuAD v1.3 valid, the page オランダ (`research bench jsquad --sample 5 --seed 114`): the real 1.5B model wrote
    # the page's 第2位 as 第二位. The other rank in kanji was only "not found" and left to the judge.
    page = "# オランダ\n\nベルギー、フランス、イギリス、アメリカなどがそれに続いているが、近年は輸入相手国の第2位に中国が入っている。"
    assert _outcome("近年オランダの輸入相手国の第二位は中国である[S1]。", page) == "supported"
    wrong = _assess("近年、オランダの輸入相手国の第三位に中国が入っている[S1]。", page)
    assert (wrong.outcome, wrong.reason) == ("unsupported", "number_mismatch")


def test_another_name_in_brackets_after_a_noun_leaves_it_its_role():
    # JSQuAD v1.3 valid (`research bench jsquad --sample 5 --seed 117`, 「全国懇話会が結成されたのは何年」): the real 1.5B
    # model's 「日本共産党が1981年に全国懇話会を結成した」 was not checked: «全国懇話会（全国革新懇）を結成し» lost its object
    # at the bracket. The page's sentence, quoted.
    page = ("# 日本共産党\n\nこのため1981年、平和・民主主義・革新統一をすすめる全国懇話会（全国革新懇）を結成し、「軍事費を"
            "削って福祉にまわせ」「非核の一点で結集を」などと呼びかけた。")
    assert _outcome("日本共産党が1981年に全国懇話会を結成した[S1]。", page) == "supported"
    assert _outcome("日本共産党が1981年に全国革新懇を解散した[S1]。", page) != "supported"


def test_another_name_in_brackets_takes_the_nouns_role_too():
    # JSQuAD v1.3 valid (`research bench jsquad --sample 5 --seed 140`, 「グスタフの祖母は何を生業としていたか？」): the
    # real 1.5B model's true 「グスタフの祖母は行商を生業としていた」 led the Summary's second sentence "not checked": the
    # page names her ベルンハルトの母 first and グスタフの祖母 in brackets. The page's sentences, quoted.
    page = ("# グスタフ・マーラー\n\nベルンハルトの母（グスタフの祖母）も、行商を生業とする剛毅な人間だった。"
            "18歳の頃から大きな籠を背に売り歩いていた。")
    for claim in ("グスタフの祖母は行商を生業としていた[S1]。", "ベルンハルトの母は行商を生業としていた[S1]。"):
        assert _outcome(claim, page) == "supported", claim
    for claim in ("グスタフの父は行商を生業としていた[S1]。", "グスタフの祖母は教師を生業としていた[S1]。"):
        assert _outcome(claim, page) != "supported", claim


def test_a_verb_the_dictionary_reads_as_a_noun_before_a_comma_is_the_verb():
    # JSQuAD v1.3 valid (`research bench jsquad --sample 5 --seed 141`, the page ポルトガル): the real 1.5B model's
    # answer, the page's own words, was taken out of the answer as not checked: 「見出し、」 is 見出す joined to the next
    # clause, which the dictionary tags as the noun 見出し (a headline). The page's sentence, quoted.
    page = ("# ポルトガル\n\n19世紀末から20世紀はじめにかけて、テイシェイラ・デ・パスコアイスはポルトガル独自のアイデンティティを"
            "「サウダージ」という言葉に見出し、このサウドディズモから『ポルトガルの海』を残した大詩人フェルナンド・ペソアが生まれた。")
    assert _outcome("19世紀末から20世紀はじめにかけて、テイシェイラ・デ・パスコアイスはポルトガル独自のアイデンティティを"
                    "「サウダージ」という言葉に見出した[S1]。", page) == "supported"
    assert _outcome("テイシェイラ・デ・パスコアイスはポルトガル独自のアイデンティティを「サウダージ」という言葉に失った[S1]。",
                    page) != "supported"


def test_a_sentence_naming_what_the_one_before_it_says_is_read_with_it():
    # JSQuAD v1.3 valid (`research bench jsquad --sample 5 --seed 141`, 「拍の周期の長短によって、音楽の速度を感じることを何と
    # いうか」): the real 1.5B model's answer 「…音楽の速度を感じることをテンポという」 was taken out of the answer as not
    # checked; the page says it in two sentences, the second naming the first with これ. The page's sentences, quoted.
    page = "# 拍\n\n拍の周期の長短によって、音楽の速度を感じる。 これをテンポという。"
    assert _outcome("拍の周期の長短によって、音楽の速度を感じることをテンポという[S1]。", page) == "supported"
    for claim in ("拍の周期の長短によって、音楽の速度を感じることをリズムという[S1]。",
                  "拍の周期の長短によって、音楽の音色を感じることをテンポという[S1]。"):
        assert _outcome(claim, page) != "supported", claim


def test_a_noun_of_the_page_put_before_another_in_a_sentence_said_word_for_word_is_decided_against():
    # JSQuAD v1.3 valid (`research bench jsquad --sample 5 --seed 141`, the page 住居表示): the real 1.5B model's
    # 「これは、住居表示の形態、従来の慣習、住民感情等から…」 was supported, every word on the page, which says «市街地の形態»
    # (住居表示 is its topic). The page's sentence, quoted.
    page = ("# 住居表示\n\n住居表示は、街区方式と道路方式があり、日本では概して市街地の形態、従来の慣習、住民感情等から、"
            "街区方式によるものが適しているといわれており、原則として街区方式が用いられている。")
    said = ("これは、住居表示の形態、従来の慣習、住民感情等から、街区方式によるものが適しているといわれており、原則として"
            "街区方式が用いられている[S1]。")
    found = _assess(said, page)
    assert (found.outcome, found.reason) == ("unsupported", "missing_term")
    assert "市街地の形態" in found.evidence
    # With the page's noun, as the verification node puts it in, the sentence is the page's.
    assert _outcome(said.replace("住居表示の形態", "市街地の形態"), page) == "supported"
    assert _outcome("日本では市街地の形態、従来の慣習、住民感情等から、街区方式によるものが適しているといわれている[S1]。",
                    page) == "supported"


def test_a_denial_after_a_copula_joining_two_clauses_is_the_second_clauses():
    # The eight questions with the real 1.5B model (bench_answers.py --ollama, 「富士山の最後の噴火はいつ？」): the true
    # 「富士山の最後の噴火は1707年の宝永噴火です」 cited to the local web fixture's page was **contradicted** by it: its
    # sentence «最後の噴火は1707年の宝永噴火で、それ以降富士山は噴火していません。» was read as one negated clause.
    page = ("# 富士山の噴火の歴史\n\n富士山は過去に何度も噴火してきました。\n\n864年の貞観噴火では青木ヶ原の溶岩流が生まれました。"
            "\n\n最後の噴火は1707年の宝永噴火で、それ以降富士山は噴火していません。")
    for claim in ("富士山の最後の噴火は1707年の宝永噴火です[S1]。", "1707年以降、富士山は噴火していない[S1]。"):
        assert _outcome(claim, page) == "supported", claim
    found = _assess("1707年以降、富士山は噴火している[S1]。", page)
    assert (found.outcome, found.reason) == ("unsupported", "negation")
    assert _outcome("富士山の最後の噴火は1707年の宝永噴火ではない[S1]。", page) != "supported"


def test_a_topic_narrowed_to_a_part_of_what_its_sentence_speaks_of_is_not_supported():
    # JSQuAD v1.3 valid a203796p0q0 (`research bench jsquad --sample 6 --seed 60`): the real 1.5B
    # model said of 同君連合の構成国 (its member states) what the page says of 同君連合, with 独立した
    # and 構成国 from the page's next sentence: every word on the page, so it was supported.
    source = ("# 同君連合\n\n同君連合（どうくんれんごう）は、複数の君主国の君主が同一人物である状態・体制のことである。"
              "同君連合の形態は大きく2つに分けることができる。同君連合の各構成国がそれぞれ独立した主権をもち続ける"
              "人的同君連合と、各構成国を超えた中央政府が置かれて一元的にコントロールされる物的同君連合の2つである。")
    narrowed = _assess("同君連合の構成国は、複数の独立した君主国の君主が同一人物である状態・体制のことである[S1]。", source)
    assert (narrowed.outcome, narrowed.reason) == ("uncertain", "roles_unconfirmed")
    # What the page says of 同君連合, and of its 形態 where it says so, stays supported.
    for claim in ("同君連合は、複数の君主国の君主が同一人物である状態・体制のことである[S1]。",
                  "同君連合の形態は大きく2つに分けることができる[S1]。"):
        assert _outcome(claim, source) == "supported", claim


def test_an_ordinal_is_not_the_day_of_a_date():
    # JSQuAD v1.3 valid a14985p17q1 (`research bench jsquad --sample 6 --seed 60`): the real 1.5B
    # model gave the 22nd election a day, 「1946年4月22日」, that its page does not give; the bare 22
    # of 「第22回」 was taken for it, so the sentence stayed in the Summary "not checked".
    source = "# 日本共産党\n\n1946年4月の第22回総選挙では5議席を獲得し、初めて帝国議会に議席を得た。"
    day = _assess("第22回総選挙は1946年4月22日行われた[S1]。", source)
    assert (day.outcome, day.reason) == ("uncertain", "number_missing")
    assert _outcome("1946年4月の第22回総選挙では5議席を獲得した[S1]。", source) == "supported"
    changed = _assess("1946年4月の第23回総選挙では5議席を獲得した[S1]。", source)
    assert (changed.outcome, changed.reason) == ("unsupported", "number_mismatch")


def test_a_study_s_stated_aim_is_not_what_it_found():
    # PubMedQA 15112004 (`research bench pubmedqa --sample 4 --seed 61`): the real 1.5B model wrote
    # the abstract's aim as its finding and headlined it, supported; the study found no home-prepared
    # replacement milk adequate (gold: no). PubMedQA 20871246's objectives sentence likewise.
    aim = ("The study aim was to explore suitability of the 2001 feeding recommendations for infants of "
           "HIV-infected mothers for a rural region in KwaZulu Natal, South Africa specifically with respect "
           "to adequacy of micronutrients and essential fatty acids, cost, and preparation times of replacement milks.")
    found = _assess("The study found that the 2001 feeding recommendations were suitable for infants of HIV-infected "
                    "mothers for a rural region in KwaZulu Natal, South Africa, with respect to adequacy of "
                    "micronutrients and essential fatty acids, cost, and preparation times of replacement milks [S1].", aim)
    assert (found.outcome, found.reason) == ("uncertain", "hedge_dropped")
    objectives = ("The objectives of this study were to evaluate the ability of the Young-Burgess classification "
                  "system to predict mortality, transfusion requirements, and nonorthopaedic injuries in patients "
                  "with pelvic ring fractures.")
    predicts = _assess("The Young-Burgess classification system can predict mortality, transfusion requirements, and "
                       "nonorthopaedic injuries in patients with pelvic ring fractures [S1].", objectives)
    assert predicts.outcome != "supported"
    # Said as the aim it is, it is what the abstract says.
    assert _outcome("The study explored the suitability of the 2001 feeding recommendations for infants of "
                    "HIV-infected mothers in KwaZulu Natal, South Africa [S1].", aim) == "supported"


def test_a_question_a_page_raises_is_not_its_answer():
    # PubMedQA 22955530's background (`research bench pubmedqa --sample 4 --seed 132`): the real 1.5B model's Summary
    # "Yes, some Type II supracondylar humerus fractures can be treated nonoperatively" was supported by it at 1.0 and
    # led the answer. Left open, never put to the judge as wording.
    background = ("The range of injury severity that can be seen within the category of type II supracondylar humerus "
                  "fractures (SCHFs) raises the question whether some could be treated nonoperatively.")
    found = _assess("Yes, some Type II supracondylar humerus fractures can be treated nonoperatively [S1].", background)
    assert (found.outcome, found.reason) == ("uncertain", "hedge_dropped")
    from research.modules.text.structure import leaves_the_question_open
    assert leaves_the_question_open("This begs the question of whether the trial was needed.")
    assert not leaves_the_question_open("The committee raised the question at its meeting in May.")


@pytest.mark.parametrize(("sentence", "aim"), [
    # PubMedQA 23999452's Aims (the page the bench serves): the real 1.5B model's Summary led with it
    # as the supported answer to "Does hypoglycaemia increase the risk of cardiovascular events?".
    ("The ORIGIN trial provides an opportunity to further assess this relationship.", True),
    ("The aim of this study was to determine whether statins reduce mortality.", True),
    # PubMedQA 17595200's background: the hypothesis the study tested and its results did not bear out.
    ("It has been suggested that increasing obesity levels in young women lead to intrauterine environments that, "
     "in turn, stimulate increased obesity among their offspring.", True),
    # PubMedQA 8262881's background (`--seed 80`), quoted by the answer as what its source says of the question.
    ("Although body dysmorphic disorder (BDD) is classified in DSM-III-R as a nonpsychotic somatoform disorder, "
     "controversy exists as to whether BDD can present with psychotic features.", True),
    # What was found, not what a study set out to learn.
    ("The programme gave students the opportunity to present their cases at weekly tutorials.", False),
    ("Severe hypoglycaemia was associated with a greater risk for the primary outcome.", False),
])
def test_a_study_s_aim_said_as_an_opportunity_to_assess(sentence, aim):
    from research.modules.text.structure import leaves_the_question_open, states_an_aim
    if not sentence.startswith(("It has been suggested", "Although body dysmorphic")):
        assert states_an_aim(sentence) is aim
    assert leaves_the_question_open(sentence) is aim  # never the Summary's lead

"""The cheap checks: numbers, lexical overlap and verdicts on Japanese and English pairs."""

import pytest

from research.modules.text.claims import split_claims
from research.modules.text.evidence import EvidenceIndex, assess_claim, extract_numbers, lexical_overlap, numbers_match

LEDGER = [
    {
        "label": "S1",
        "status": "ok",
        "language": "ja",
        "markdown": "# 富士山\n富士山は日本最高峰の山で、標高は3,776メートルである。"
        "最後の噴火は1707年（宝永4年）の宝永噴火で、江戸にも火山灰が降った。\n"
        "山頂には富士山本宮浅間大社の奥宮がある。",
    },
    {
        "label": "S2",
        "status": "ok",
        "language": "en",
        "markdown": "Mount Fuji is the highest mountain in Japan at 3,776 m. Its last eruption began on "
        "16 December 1707 and ended on 1 January 1708. It is an active stratovolcano.",
    },
    {"label": "S3", "status": "failed", "markdown": ""},
]


@pytest.mark.parametrize(
    ("claim", "evidence", "same"),
    [
        ("3776", "3,776", True),
        ("３７７６メートル", "3776 m", True),
        ("1707年", "in 1707", True),
        ("約2万人", "20,000人", True),
        ("2 million people", "200万人", True),
        ("50%", "50 パーセント", True),
        ("3.50", "3.5", True),
        ("May 5, 2024", "2024年5月5日", True),
        ("age 59 1/2", "age 59½", True),
        ("1 1/2 hours", "1½ hours", True),
        ("1707", "1708", False),
        ("3776 km", "3776 m", False),
        ("3.5", "35", False),
    ],
)
def test_numbers(claim, evidence, same):
    assert numbers_match(claim, evidence) is same


def test_citation_labels_and_urls_are_not_numbers():
    assert extract_numbers("富士山[S12]は https://example.com/2019/page にある") == []


def test_lexical_overlap_is_cjk_aware():
    source = "最後の噴火は1707年の宝永噴火で、江戸にも火山灰が降った。"
    assert lexical_overlap("富士山の最後の噴火は宝永噴火である。", source) >= 0.6
    assert lexical_overlap("富士山は世界遺産に登録されている。", source) < 0.2
    english = "The last eruption began on 16 December 1707."
    assert lexical_overlap("The last eruption began in December 1707.", english) > 0.8
    assert lexical_overlap("The mountain is popular with climbers.", english) == 0.0


def _assess(line: str):
    index = EvidenceIndex(LEDGER)
    (claim,) = split_claims(line)
    return assess_claim(claim, index)


@pytest.mark.parametrize(
    ("line", "verdict"),
    [
        ("富士山の最後の噴火は1707年の宝永噴火である[S1]。", "supported"),
        ("富士山の最後の噴火は1708年の宝永噴火である[S1]。", "unsupported"),
        ("富士山は世界遺産に登録されている[S1]。", "partly_supported"),  # related, not stated: the judge decides
        ("Mount Fuji last erupted in 1707 [S2].", "supported"),
        ("Mount Fuji last erupted in 1709 [S2].", "unsupported"),
        ("The highest mountain in Japan is Mount Fuji, at 3776 m [S2].", "supported"),
        ("The highest mountain in Japan is Mount Fuji, at 3776 km [S2].", "unsupported"),
        ("山頂には奥宮がある[S99]。", "citation_invalid"),
        ("山頂には奥宮がある[S3]。", "citation_invalid"),  # S3 was never read
    ],
)
def test_known_pairs(line, verdict):
    assert _assess(line).verdict == verdict


def test_changed_number_is_unsupported_regardless_of_overlap():
    result = _assess("富士山の最後の噴火は1708年の宝永噴火である[S1]。")
    assert result.reason == "number_mismatch"
    assert result.score > 0.6  # the words match the source well; the year does not
    assert not result.borderline  # no model is asked to overrule a changed date
    assert "1707" in result.evidence


def test_supported_claim_points_at_its_evidence():
    result = _assess("富士山の最後の噴火は1707年の宝永噴火である[S1]。")
    assert result.evidence_label == "S1"
    assert "宝永噴火" in result.evidence
    assert 0.5 < result.confidence <= 1.0


def test_valid_and_invalid_citations_are_separated():
    result = _assess("Mount Fuji is the highest mountain in Japan [S2][S42].")
    assert result.valid_citations == ["S2"]
    assert result.invalid_citations == ["S42"]
    assert result.verdict == "supported"


def test_uncited_claim_is_checked_against_the_whole_ledger():
    result = _assess("The highest mountain in Japan is Mount Fuji.")
    assert result.verdict == "supported" and result.evidence_label == "S2"


def test_claim_in_another_language_than_its_source_is_borderline():
    result = _assess("富士山の最後の噴火は1707年12月16日に始まった[S2]。")
    assert result.borderline  # bigrams cannot compare with English words: the judge decides
    assert result.reason == "cross_language"
    assert any("1707" in passage.text for passage in result.candidates)


def test_an_uncited_claim_no_page_of_its_language_speaks_of_is_read_as_a_translation_not_dropped():
    # A careless model's Japanese answer on an English page: 「横浜港は1859年に外国貿易に開かれた。」 cited
    # nothing and was "unrelated" to the run's Japanese page, so it was removed, though the English page
    # says it. Read against each source alone, the English page's "cross_language" (translate it, then
    # check) comes before a Japanese page that says nothing of it.
    index = EvidenceIndex([
        {"label": "S1", "status": "ok", "language": "ja", "markdown": "富士山は日本で最も高い山です。標高は3,776 mです。"},
        {"label": "S2", "status": "ok", "language": "en", "markdown": "The Port of Yokohama opened to foreign trade in 1859."},
    ])
    (parsed,) = split_claims("横浜港は1859年に外国貿易に開かれた。")
    result = assess_claim(parsed, index)
    assert (result.outcome, result.reason) == ("uncertain", "cross_language")
    # A page of its language that speaks of it still decides.
    (parsed,) = split_claims("富士山の標高は3,776 mです。")
    assert assess_claim(parsed, index).outcome == "supported"


def _one(claim: str, source: str):
    index = EvidenceIndex([{"label": "S1", "status": "ok", "markdown": source}])
    (parsed,) = split_claims(claim)
    return assess_claim(parsed, index)


_PASSAGES = ("passage 1: The museum opens at 9 am on weekdays. passage 2: The museum was built in 1890. "
             "Tickets cost 12 dollars for adults.")


def test_a_reference_to_a_numbered_passage_is_not_a_figure():
    # RAGTruth's QA answers cite "(Passage 2)": the 2 is which text, not a figure the sentence
    # that says the rest must give (1,889 train claims were "number_missing" for it alone).
    assert _one("Tickets cost 12 dollars for adults (Passage 2).", _PASSAGES).outcome == "supported"
    assert _one("According to passages 1 and 2, tickets cost 12 dollars for adults.", _PASSAGES).outcome == "supported"
    # A figure of the claim still counts.
    assert _one("Tickets cost 15 dollars for adults (Passage 2).", _PASSAGES).outcome == "unsupported"


def test_an_english_paraphrase_is_not_an_addition():
    # Stems differ far more in an English paraphrase than lemmas in a Japanese one: "most words
    # absent" is not decided in English (RAGTruth train: more clean claims than hallucinated).
    source = "The committee approved the new budget after a long debate on Tuesday."
    found = _one("On Tuesday the committee gave its backing to fresh spending plans following lengthy discussion.", source)
    assert found.outcome == "uncertain"


_RECORD = ('{"name": "Blue Door Cafe", "attributes": {"RestaurantsReservations": false, "OutdoorSeating": true, '
           '"WiFi": "no", "Ambience": {"casual": true}, "BusinessParking": {"street": true, "garage": false, '
           '"valet": false, "lot": "None"}}}')


@pytest.mark.parametrize("claim", [
    "Blue Door Cafe has no reservations and has a casual ambience.",
    "Blue Door Cafe has no WiFi, but it offers outdoor seating.",
    "While Blue Door Cafe does not have garage or valet parking, street parking is available.",
    "At Blue Door Cafe, WiFi is not available.",
])
def test_a_negation_counts_for_the_fields_of_its_own_clause(claim):
    # "not" in the clause about reservations was read as denying the ambience too, and the
    # claim was "field_contradicted".
    assert _one(claim, _RECORD).outcome == "supported"


@pytest.mark.parametrize(("claim", "reason"), [
    ("Blue Door Cafe has reservations.", "field_contradicted"),
    ("Blue Door Cafe offers WiFi and outdoor seating.", "field_contradicted"),
    ("Blue Door Cafe does not offer outdoor seating.", "field_contradicted"),
    ("Blue Door Cafe has a parking lot and street parking.", "field_unknown"),
])
def test_a_field_read_the_other_way_or_left_empty_is_unsupported(claim, reason):
    found = _one(claim, _RECORD)
    assert (found.outcome, found.reason) == ("unsupported", reason)
    assert ":" in found.evidence  # the record's field is shown


# RAGTruth train 8174's record (Data2txt, a Yelp business), cut to the fields its answer speaks of.
_GROUPS_RECORD = ('{"name": "Hana Kitchen", "attributes": {"OutdoorSeating": true, "WiFi": "free", '
                  '"RestaurantsTakeOut": true, "RestaurantsGoodForGroups": false}}')


@pytest.mark.parametrize("claim", [
    # The hallucinated sentence as the answer wrote it: supported, the key's last word "goodfor" not being written.
    "They have free Wi-Fi, outdoor seating, takeout, and good for groups.",
    "Hana Kitchen is good for groups.",
])
def test_a_field_named_in_the_words_its_key_runs_together_is_read(claim):
    found = _one(claim, _GROUPS_RECORD)
    assert (found.outcome, found.reason) == ("unsupported", "field_contradicted"), found
    assert "good for groups" in found.evidence


def test_a_field_named_in_the_words_its_key_runs_together_and_denied_is_supported():
    assert _one("Hana Kitchen is not good for groups.", _GROUPS_RECORD).outcome == "supported"


def test_a_claim_that_says_the_record_does_not_give_it_is_not_decided():
    assert _one("Blue Door Cafe's parking lot is not specified.", _RECORD).outcome != "unsupported"


# JSQuAD v1.3 valid (a1468p18q0), the page the bench serves: a Wikipedia paragraph under its
# article's title, whose sentences leave the country out.
_LAOS = ("# ラオス\n\n立法府は一院制の国民議会。132議席で、民選、任期5年。休会期間中は国民議会常務委員会が"
         "国政監視などの権限を代行する。議席数は、1992年選挙では85、1997年選挙では99、2002年選挙では109と増やされてきた。\n")


def test_a_word_the_heading_above_the_passage_says_is_found():
    # The real 1.5B model wrote 「ラオスの国民議会は…」: ラオス is the page's heading, not its sentence's.
    assert _one("ラオスの国民議会は132議席である[S1]。", _LAOS).outcome == "supported"
    assert _one("Mount Fuji is 3,776 m tall [S1].", "# Mount Fuji\n\nIt is 3,776 m tall.").outcome == "supported"
    # The heading names what the page is about; it says nothing else: a changed figure is not supported.
    assert _one("ラオスの国民議会は150議席である[S1]。", _LAOS).outcome != "supported"
    # Only the headings above the passage: another section's heading lends it nothing (its own
    # line was evidence beside any sentence before: "Mount Fuji erupted violently" was supported).
    source = ("# Volcanoes\n\n## Mount Fuji\n\nIt is 3,776 m tall.\n\n## Mount Aso\n\n"
              "It erupted violently in 2021.\n")
    assert _one("Mount Fuji erupted in 2021 [S1].", source).outcome != "supported"
    assert _one("Mount Fuji erupted violently [S1].", source).outcome != "supported"
    assert _one("Mount Aso erupted violently in 2021 [S1].", source).outcome == "supported"


def test_the_verbs_of_compound_particles_are_not_terms_a_passage_must_hold():
    # The real 1.5B model (issue 45's JSQuAD bench): 「日本共産党において…」 missed the term 於く, the
    # lemma of において; 「[IMF] によると…」 had 因る. They join a phrase; they say nothing to find.
    source = "日本共産党の職場支部は、職場に基づいてつくられる支部である。"
    assert _one("日本共産党において職場に基づいてつくられる支部は職場支部である[S1]。", source).outcome == "supported"
    assert _one("IMFによると、ラオスの一人当たりGDPは1,475ドルである[S1]。",
                "IMFの資料では、ラオスの一人当たりGDPは1,475ドルである。").outcome == "supported"


def test_the_counter_after_a_figure_is_the_figures_in_a_cleft_sentence_too():
    # JSQuAD v1.3 valid, the page the bench serves (`research bench jsquad --sample 5 --seed 122`): the
    # real 1.5B model's 「…乗り出したのは1863年です」 lacked a term 年 («1863年、…乗り出し» has it as the
    # figure's counter; 「年です」 read alone made it a noun).
    source = "1863年、ジョン・D・ロックフェラーがオハイオ州クリーブランドで石油精製業に乗り出し、1870年、スタンダード石油を設立した。"
    claim = "ジョン・D・ロックフェラーがオハイオ州クリーブランドで石油精製業に乗り出したのは{}年です[S1]。"
    assert _one(claim.format(1863), source).outcome == "supported"
    assert _one("ロックフェラーは1870年にスタンダード石油を設立した[S1]。", source).outcome == "supported"
    # Each year dates the clause it opens: given to the other clause's event, it is the wrong year (read
    # apart from its clause, 「1870年」 said nothing that happened, and these were supported).
    for wrong in (claim.format(1870), "1870年、ロックフェラーがクリーブランドで石油精製業に乗り出した[S1]。",
                  "ロックフェラーがスタンダード石油を設立したのは1863年です[S1]。"):
        result = _one(wrong, source)
        assert (result.outcome, result.reason) == ("unsupported", "number_mismatch"), wrong


def test_a_figure_with_a_japanese_counter_is_not_a_bare_number_a_date_finds():
    # JSQuAD v1.3 valid (`research bench jsquad --seed 109`), the page the bench serves: the real 1.5B model's
    # 「オランダが日本に宣戦布告したのは1941年5月1日」 found its day 1日 in «1週間あまりの戦い»; no page gives the day.
    source = ("第二次世界大戦では中立を宣言するも1940年5月ドイツに奇襲され、1週間あまりの戦いで敗北し、王族はイギリスに"
              "亡命した。その後、1941年に中立を破棄し日本に宣戦布告するが、東インド植民地はまもなく日本軍に占領されている。")
    result = _one("1941年5月1日に中立を破棄し日本に宣戦布告した[S1]。", source)
    assert result.outcome != "supported" and "1日" in result.missing, result
    assert _one("1941年に中立を破棄し日本に宣戦布告した[S1]。", source).outcome == "supported"
    assert _one("1週間あまりの戦いで敗北し、王族はイギリスに亡命した[S1]。", source).outcome == "supported"


def test_a_subject_set_off_by_a_comma_is_not_a_clause_of_its_own():
    # JSQuAD v1.3 valid, the page the bench serves (`research bench jsquad --sample 5 --seed 123`): the real 1.5B
    # model's answer was the page's sentence word for word, left "hedge added": 「…構造物が、」 was cut from the rest as
    # if its が were "but", so the page's 可能性がある was read as not where the claim's words are.
    source = ("ロンドン大学UCLの研究チームは、『ネイチャー』2017年3月2日号において、カナダのケベック州で採取した岩石中にある"
              "微細な筒状・繊維状構造物が、熱水噴出孔により活動していた生命の痕跡である可能性がある、と発表した。")
    assert _one(source.replace("。", "[S1]。"), source).outcome == "supported"
    # The hedge is still read where it is: without it, the claim says more than the page.
    assert _one(source.replace("である可能性がある", "である").replace("。", "[S1]。"), source).outcome != "supported"
    # A が after a predicate still ends a clause: 「…したが、…ない」 denies only its second clause.
    page = "その研究チームは岩石を採取したが、生命の痕跡は見つからなかった。"
    assert _one("その研究チームは岩石を採取した[S1]。", page).outcome == "supported"


def test_what_the_page_says_of_one_named_group_is_not_said_of_all_subjects():
    # PubMedQA 17335331 (`research bench pubmedqa --sample 4 --seed 122`), the page's method, quoted: the real 1.5B
    # model's answer on the TEAM sample said "The sample was obtained from 1995 to 1998 …", which the page says of
    # the other study's subjects, and it was supported.
    source = ("Both studies required that subjects have current DSM-IV bipolar I disorder (manic or mixed phase). Subjects "
              "in the Phenomenology study were obtained from 1995 to 1998 by consecutive new case ascertainment from "
              "designated pediatric and psychiatric facilities. Subjects in the TEAM RCT were recruited from media and "
              "community sources between March 2003 and March 2005.")
    for claim in ("The sample was obtained from 1995 to 1998 by consecutive new case ascertainment from designated "
                  "pediatric and psychiatric facilities [S1].",
                  "Subjects were obtained from 1995 to 1998 by consecutive new case ascertainment [S1]."):
        result = _one(claim, source)
        assert (result.outcome, result.missing) == ("uncertain", ["Phenomenology"]), result
    assert _one("Subjects in the Phenomenology study were obtained from 1995 to 1998 by consecutive new case "
                "ascertainment [S1].", source).outcome == "supported"
    assert _one("Both studies required that subjects have current DSM-IV bipolar I disorder [S1].", source).outcome \
        == "supported"


def test_an_or_between_two_names_of_the_page_is_not_the_claims():
    # JSQuAD v1.3 valid a2164640p0q3, the page the bench serves (its first and last sentences): the
    # real 1.5B model's right answer was "unsupported, or_dropped" for the first sentence's または.
    source = ("Google 検索（グーグルけんさく）またはGoogle ウェブ検索（グーグルウェブけんさく）はGoogleが提供する"
              "検索エンジンで、World Wide Web上で最も多く使われている検索エンジンである。"
              "1997年、ラリー・ペイジとセルゲイ・ブリンが開発したのが始まりである。")
    assert _one("Google検索は1997年にラリー・ペイジとセルゲイ・ブリンが開発した[S1]。", source).outcome == "supported"
    # An "or" the claim adds to what it says is still not the page's.
    assert _one("Google検索は1997年にラリー・ペイジかセルゲイ・ブリンが開発した[S1]。", source).outcome != "supported"


def _assess_against(line: str, pages: list[str]):
    index = EvidenceIndex([{"label": f"S{n}", "status": "ok", "language": "en", "markdown": page}
                           for n, page in enumerate(pages, 1)])
    (claim,) = split_claims(line)
    return assess_claim(claim, index)


def test_words_gathered_from_sources_about_other_things_do_not_support_a_claim():
    # The real 1.5B model (`research bench pubmedqa --sample 4 --seed 75`, PubMedQA 23264436) cited five
    # abstracts; the claim was supported at 0.93 from the devices' abstract, a Pap smear study's "routine
    # clinic" and a PHQ-9 study's "implementation … practices". Sentences quoted from those three pages.
    pages = ["A 2008 expert consensus statement outlined the minimum frequency of follow-up of patients with "
             "cardiovascular implantable electronic devices (CIEDs).",
             "Routine clinic protocols for follow-up were applied without regard to the type of abnormality seen on a "
             "Pap smear or recommended examination.",
             "During the one-year course of the project the helpfulness and feasibility of implementation of PHQ-9 in "
             "these psychiatric practices were studied."]
    gathered = _assess_against("Yes, experts' recommendations for new cardiovascular implantable electronic devices "
                               "are implemented in routine clinical practice [S1][S2][S3].", pages)
    assert gathered.outcome != "supported", (gathered.outcome, gathered.score)
    # Two sources on the same thing still say one claim together.
    together = _assess_against("Mount Fuji is 3,776 m high and last erupted in 1707 [S1][S2].",
                               ["Mount Fuji is 3,776 m high.", "Mount Fuji last erupted in 1707."])
    assert together.outcome == "supported", (together.outcome, together.reason)


@pytest.mark.parametrize("claim", ["リボ核酸の略称は「RNA」です。", "リボ核酸はRNAと略される。", "RNAはリボ核酸の略称である。"])
def test_an_abbreviation_the_page_gives_in_brackets_after_the_name_is_supported(claim):
    # JSQuAD v1.3 valid (`research bench jsquad --seed 97`, 「リボ核酸の略称は何か」), the real 1.5B model: its
    # 「リボ核酸の略称は「RNA」です。」 stayed not checked (略称 is not on the page) and went, and the Summary said the
    # sources did not answer, while the page it read writes «リボ核酸（RNA）». The page's sentence, quoted.
    source = ("塩基対を形成し、互いに積み重なる（スタッキング）核酸塩基の性質は、リボ核酸（RNA）やデオキシリボ核酸（DNA）"
              "などの長鎖らせん構造をもたらす。")
    assert _one(claim, source).outcome == "supported"
    # Another name in its brackets is not its abbreviation.
    assert _one(claim.replace("RNA", "DNA"), source).outcome != "supported"


def test_a_name_the_page_gives_in_brackets_after_what_it_describes_is_supported():
    # JSQuAD v1.3 valid (`research bench jsquad --seed 105`, 「ビールや清涼飲料水などを生産する国営のメーカーの名前は？」),
    # the real 1.5B model's answer stayed not checked (名前 is not on the page) after the page's own sentence. The
    # page's sentence, quoted.
    source = "かつて近代的な設備を備えた大きな工場は、ビールや清涼飲料水などを生産する国営のメーカー「ビア・ラオ」が目立つ程度であった。"
    assert _one("ビールや清涼飲料水などを生産する国営のメーカーの名前は「ビア・ラオ」です[S1]。", source).outcome == "supported"
    assert _one("国営のメーカーの名前はビア・ラオである[S1]。", source).outcome == "supported"
    # What the page does not say of it (自動車), or another name, is not its name.
    assert _one("自動車を生産する国営のメーカーの名前は「ビア・ラオ」です[S1]。", source).outcome != "supported"
    assert _one("ビールや清涼飲料水などを生産する国営のメーカーの名前は「ラオ・ビール」です[S1]。", source).outcome != "supported"


def test_a_page_sentence_with_the_first_piece_of_one_compound_exchanged_is_contradicted():
    # JSQuAD v1.3 valid (`research bench jsquad --seed 107`, 「補助指導機関の設置には何の承認が必要か」): the real 1.5B
    # model's findings listed 地域委員会 and 支部・地区委員会 beside the page's 中央委員会, supported (地域 and 地区 are
    # on the page, in another sentence). The page's sentences, quoted.
    source = ("都道府県委員会は、大都市など、いくつかの地区にわたる広い地域での活動を推進するために、補助指導機関をもうける"
              "ことができる（第18条）。これら補助指導機関の設置には中央委員会の承認が必要である。")
    assert _one("補助指導機関の設置には中央委員会の承認が必要である[S1]。", source).outcome == "supported"
    for claim in ("補助指導機関の設置には地域委員会の承認が必要である[S1]。",
                  "地域委員会の承認: 補助指導機関の設置には地域委員会の承認が必要である[S1]。",
                  "補助指導機関の設置には支部・地区委員会の承認が必要である[S1]。"):
        assessed = _one(claim, source)
        assert (assessed.outcome, assessed.reason) == ("unsupported", "missing_term"), claim
        assert "中央委員会" in assessed.evidence
    # A compound the page writes elsewhere, or a word exchanged before its particle, may say it in other words.
    assert _one("補助指導機関の設置には都道府県委員会の承認が必要である[S1]。", source).outcome != "unsupported"
    assert _one("補助指導機関の設置には中央委員会の許可が必要である[S1]。", source).outcome != "unsupported"


def test_a_list_with_an_item_the_pages_list_does_not_have_is_contradicted():
    # JSQuAD v1.3 valid (`research bench jsquad --seed 109`, 「カーネーション革命はいつ？」): the real 1.5B model's findings
    # listed ポルトガル・ファド大学 among the page's universities, kept "not checked" (ファド is on the page, as music).
    # The page's sentences, quoted.
    source = ("おもな高等教育機関としてはコインブラ大学（1290年）、リスボン大学（1911年）、ポルト大学（1911年）、リスボン工科大学"
              "（1930年）、ポルトガル・カトリカ大学（1966年）などが挙げられる。ポルトガルの民族歌謡としてはファドが有名である。")
    found = _one("教育機関の増設: コインブラ大学からリスボン大学、ポルトガル・カトリカ大学、リスボン工科大学、ポルトガル・ファド大学"
                 "などが挙げられる[S1]。", source)
    assert (found.outcome, found.reason, found.missing) == ("unsupported", "missing_term", ["ポルトガル・ファド大学"])
    assert "ポルト大学" in found.evidence
    # The page's items, some of them, in another order: supported.
    assert _one("おもな高等教育機関としてはリスボン大学、コインブラ大学、ポルト大学などが挙げられる[S1]。",
                source).outcome == "supported"


def test_the_year_a_clause_happened_said_as_what_its_year_is_supported():
    # JSQuAD v1.3 valid (`research bench jsquad --seed 108`, 「…講師資格試験が実施されるようになった年は何年からか？」): the
    # real 1.5B model's right answer was taken out as "not supported" (1967年（昭和42年）から read as a name the page
    # gives another topic), then left not checked (年 and よう are not on the page; its roles were read with 年 as a
    # participant). The page's sentence, quoted.
    source = ("党員教育システムは大きく、講義や学習会などの「集団学習」と個人で自習する「独習」に分かれ、前者の中心となる党員講師"
              "の理論的力量を確保するために講師資格試験が1967年（昭和42年）より実施されている。")
    claim = "「集団学習」の中心となる党員講師の理論的力量を確保するために講師資格試験が実施されるようになった年は{}からです[S1]。"
    assert _one(claim.format("1967年（昭和42年）"), source).outcome == "supported"
    wrong = _one(claim.format("1968年（昭和43年）"), source)
    assert (wrong.outcome, wrong.reason) == ("unsupported", "number_mismatch")


def test_a_sentence_of_the_page_whose_topic_is_followed_by_empty_brackets_is_supported():
    # JSQuAD v1.3 valid (`research bench jsquad --seed 108`, 「ドイツでハで始まる都市は？」): the real 1.5B model's
    # sentence, the page's own but for です, stayed not checked: its topic is followed by brackets the page's
    # reading was taken out of. The page's sentence, quoted.
    source = "ハノーファー（）は、ライネ川沿いにある北ドイツの主要都市のひとつ。"
    assert _one("ハノーファーは、ライネ川沿いにある北ドイツの主要都市のひとつです[S1]。", source).outcome == "supported"
    assert _one("ハノーファーは、ライネ川沿いにある南ドイツの主要都市のひとつです[S1]。", source).outcome == "unsupported"


def test_a_name_the_page_sets_after_a_title_without_brackets_is_supported():
    # JSQuAD v1.3 valid (`research bench jsquad --seed 107`, 「エチオピア皇帝の名前は？」): the real 1.5B model's right
    # answer was taken out as not checked (名前 is not on the page), and the graded answer said nothing. The page's
    # sentence, quoted.
    source = "ただしエチオピア皇帝ハイレ・セラシエ1世はこれを認めず、国際連盟においても見解が分かれた。"
    assert _one("エチオピア皇帝の名前はハイレ・セラシエ1世です[S1]。", source).outcome == "supported"
    # Another title, another name, or the start of a longer name is not the name the page gives.
    assert _one("エチオピア首相の名前はハイレ・セラシエ1世です[S1]。", source).outcome != "supported"
    assert _one("エチオピア皇帝の名前はメネリク2世です[S1]。", source).outcome != "supported"
    assert _one("エチオピア皇帝の名前はハイレです[S1]。", source).outcome != "supported"


def test_a_name_the_page_gives_to_what_its_sentence_before_says_is_supported():
    # JSQuAD v1.3 valid (`research bench jsquad --seed 106`, 「拍子のないリズムは何と呼ばれているか。」), the real 1.5B
    # model's answer, not checked: the page calls これ so. The page's sentences, quoted.
    source = "また、拍子のないリズムも存在する。これを自由リズムと呼ぶことがある。"
    assert _one("拍子のないリズムは「自由リズム」と呼ばれる[S1]。", source).outcome == "supported"
    assert _one("拍子のないリズムを自由リズムと呼ぶ[S1]。", source).outcome == "supported"
    # Another name, or what the sentence before does not say (拍子のある), is not what the page calls so.
    assert _one("拍子のないリズムは「固定リズム」と呼ばれる[S1]。", source).outcome != "supported"
    assert _one("拍子のあるリズムは「自由リズム」と呼ばれる[S1]。", source).outcome != "supported"


def test_a_name_the_page_gives_to_this_law_in_the_sentence_before_is_supported():
    # JSQuAD v1.3 valid (`research bench jsquad --sample 5 --seed 115`, 「…この法則を何と呼ぶか」), the real 1.5B model's
    # answer, the gold name, not checked: the page points back with この法則, in one paragraph. Its sentences, quoted.
    source = ("ここで重要なのはボールが落下している間、力学的エネルギーは常に一定で変わらないということである。物体が動くとき"
              "には、エネルギーの種類は変わるがその総量は増えたり減ったりしない。この法則を力学的エネルギー保存則と呼ぶ。")
    described = "物体が動くときには、エネルギーの種類は変わるがその総量は増えたり減ったりしないという法則を"
    for claim in (f"物理学で、{described}「力学的エネルギー保存則」と呼ぶ[S1]。", f"{described}力学的エネルギー保存則と呼ぶ[S1]。"):
        said = _one(claim, source)
        assert said.outcome == "supported" and "この法則を力学的エネルギー保存則と呼ぶ" in said.evidence, claim
    # Another name, or another law, is not what the page calls so.
    assert _one(f"{described}運動量保存則と呼ぶ[S1]。", source).outcome != "supported"
    assert _one("物体が動くときには、エネルギーの種類も総量も変わらないという法則を力学的エネルギー保存則と呼ぶ[S1]。",
                source).outcome != "supported"


def test_an_english_abbreviation_the_page_gives_in_brackets_after_the_name_is_supported():
    source = "Ribonucleic acid (RNA) and deoxyribonucleic acid (DNA) are nucleic acids."
    for claim in ("The abbreviation of ribonucleic acid is RNA.", "Ribonucleic acid is abbreviated as RNA.",
                  "RNA stands for ribonucleic acid."):
        assert _one(claim, source).outcome == "supported", claim
        assert _one(claim.replace("RNA", "DNA"), source).outcome != "supported", claim


def test_an_exception_to_what_the_page_says_holds_whatever_the_case_is_decided_against():
    # JSQuAD v1.3 valid (`research bench jsquad --seed 98`, 「プロジェクト起草や建築物の建築管理はその用途にかかわらず、
    # 建築家が行うことができるのはどこか。」), the real 1.5B model's Summary: 「…建築家が行うことができるのは、特定の用途
    # （住宅、教育、行政、文化、宗教、健康）の建設作業以外のすべての用途である」 (not checked), where the page says
    # architects may do it whatever the use. The page's sentences, quoted.
    source = ("スペイン（LOEによって設立された）では、プロジェクト起草や建築物の建築管理はその用途にかかわらず、建築家が行う"
              "ことができる。さらに、特定の用途（住宅、教育、行政、文化、宗教、健康）の建設作業は、建築家によってのみ設計され、"
              "示される。")
    claim = ("プロジェクト起草や建築物の建築管理は、建築家が行うことができるのは、特定の用途（住宅、教育、行政、文化、宗教、"
             "健康）の建設作業以外のすべての用途である[S1]。")
    found = _one(claim, source)
    assert (found.outcome, found.reason) == ("unsupported", "negation") and "かかわらず" in found.evidence, found
    assert _one("スペインでは、プロジェクト起草や建築物の建築管理はその用途にかかわらず、建築家が行うことができる[S1]。",
                source).outcome == "supported"
    english = "In Spain, architects may draft projects and manage construction regardless of the building's use."
    found = _one("In Spain, architects may draft projects and manage construction except for housing [S1].", english)
    assert (found.outcome, found.reason) == ("unsupported", "negation"), found


def test_the_year_an_event_took_place_said_as_a_noun_is_read_as_the_page_writes_it():
    # JSQuAD v1.3 valid (`research bench jsquad --seed 99`, 「王女イレーネがカルロス・ウゴ・デ・ボルボン＝パルマと結婚した年は?」),
    # the real 1.5B model's Summary 「…と結婚した年は1964年です」 stayed not checked for 年, which the page writes only in its
    # figure. The page's sentence, quoted.
    source = "1964年、王女イレーネがカルロス・ウゴ・デ・ボルボン＝パルマと結婚し、王位継承権を放棄した。"
    found = _one("王女イレーネがカルロス・ウゴ・デ・ボルボン＝パルマと結婚した年は1964年です[S1]。", source)
    assert found.outcome == "supported" and found.checked_as.startswith("1964年、"), found
    found = _one("王女イレーネがカルロス・ウゴ・デ・ボルボン＝パルマと結婚した年は1965年です[S1]。", source)
    assert (found.outcome, found.reason) == ("unsupported", "number_mismatch"), found


def test_common_said_of_the_subject_where_the_page_says_it_of_something_else_is_not_supported():
    # PubMedQA 17089900 (`research bench pubmedqa --sample 4 --seed 112`, "Does Paget's disease exist in India?"),
    # the real 1.5B model's finding "Yes, Paget's disease is common in India, …" was supported: the page calls it
    # a few case reports, and writes "common" only of its clinical manifestations. The page's sentences, quoted.
    source = ("Paget's disease of bone has been described as a few case reports from India. Mean (+/-SD) age of these "
              "patients at presentation was 49.2 +/- 17.6 years and the male to female ratio was 2.5:1. Common "
              "clinical manifestations included backache, headache and bone pains.")
    found = _one("Yes, Paget's disease is common in India, with a male to female ratio of 2.5:1 and a mean age of "
                 "49.2 years at presentation [S1].", source)
    assert (found.outcome, found.reason, found.missing) == ("unsupported", "said_of_another", ["common"]), found
    assert found.evidence.startswith("Common clinical manifestations"), found
    # Said as what the sources say, the same (its Summary's "The sources indicate that …", not checked).
    reported = _one("The sources indicate that Paget's disease is common in India [S1].", source)
    assert (reported.outcome, reported.reason) == ("unsupported", "said_of_another"), reported
    assert _one("Common clinical manifestations included backache, headache and bone pains [S1].", source).outcome \
        == "supported"
    # A page that says it of the subject leaves the claim to the other checks; one that says it of its own subject
    # ("is more common in …") may name the claim's subject in other words.
    for other in ("Paget's disease is common in older people.", "The disease is more common in the elderly."):
        assert _one("Paget's disease is common in India [S1].", source + " " + other).reason != "said_of_another"


def test_what_a_page_sentence_says_word_for_word_of_its_subject_is_not_said_of_another_thing():
    # PubMedQA 18948835 (`research bench pubmedqa --seed 98`, "Does somatostatin confer insulinostatic effects
    # of neuromedin u in the rat pancreas?"), the real 1.5B model: "Somatostatin is a neuropeptide with anorexigenic
    # activity" was supported, where the page says it of neuromedin U and names somatostatin in another sentence. The
    # page's sentences, quoted.
    source = ("Neuromedin U (NmU) is a neuropeptide with anorexigenic activity. Aim of our current study is to "
              "investigate the role of somatostatin at mediating the effects of NmU on insulin secretion.")
    found = _one("Somatostatin is a neuropeptide with anorexigenic activity [S1].", source)
    assert (found.outcome, found.reason) == ("unsupported", "said_of_another"), found
    assert found.evidence.startswith("Neuromedin U (NmU) is a neuropeptide"), found
    assert _one("Neuromedin U is a neuropeptide with anorexigenic activity [S1].", source).outcome == "supported"
    # The page saying it of both: no exchange.
    both = source + " Somatostatin is a neuropeptide with anorexigenic activity too."
    assert _one("Somatostatin is a neuropeptide with anorexigenic activity [S1].", both).reason != "said_of_another"


def test_what_a_page_says_of_one_of_its_terms_is_not_said_of_another_of_its_terms():
    # PubMedQA 21904069 (`research bench pubmedqa --sample 4 --seed 136`, "… Should one rely on the short gastric
    # arteries?"), the real 1.5B model: "The short gastric arteries are the main arterial pathway feeding the spleen"
    # was supported, every word on the page, which says it of the gastroepiploic arcade. The abstract's sentences,
    # quoted.
    source = ("Perfusion of the cadaveric arteries revealed no effective direct or indirect communication between the "
              "left gastric and the branches of the short gastric arteries. The clamping of the short gastric arteries "
              "did not change the flow parameters. In all cases, the gastroepiploic arcade was the main arterial "
              "pathway feeding the spleen.")
    for claim in ("The short gastric arteries are the main arterial pathway feeding the spleen [S1].",
                  "In all cases, the short gastric arteries were the main arterial pathway feeding the spleen [S1]."):
        found = _one(claim, source)
        assert (found.outcome, found.reason) == ("unsupported", "said_of_another"), (claim, found)
        assert found.evidence.startswith("In all cases, the gastroepiploic arcade was"), found
    assert _one("The gastroepiploic arcade was the main arterial pathway feeding the spleen [S1].",
                source).outcome == "supported"
    # "The arteries" names the page's thing in other words, maybe the arcade's: nothing concluded; nor where the
    # claim's term is not the page's own words ("The gastric branches").
    for claim in ("The arteries were the main arterial pathway feeding the spleen [S1].",
                  "The gastric branches were the main arterial pathway feeding the spleen [S1]."):
        assert _one(claim, source).reason != "said_of_another", claim


def test_a_compound_whose_parts_the_page_writes_apart_is_found():
    # PubMedQA 8017535 (`research bench pubmedqa --sample 4 --seed 136`), the real 1.5B model: "…HIV-related sexual
    # behaviors…" was missing a term, "HIV-related", where the page writes «…sexual behaviors that increase risk for
    # human immunodeficiency virus (HIV) infection …» and «is related to». The abstract's words, quoted.
    source = ("This study was undertaken to examine whether use of alcohol, cigarettes, marijuana, cocaine, and other "
              "illicit drugs is related to the likelihood of sexual behaviors that increase risk for human "
              "immunodeficiency virus (HIV) infection among youth.")
    found = _one("The study examined whether substance use is related to HIV-related sexual behaviors among youth [S1].",
                 source)
    assert "hiv-rel" not in found.missing, found
    # Not a part that turns the other's meaning, nor parts the page does not write.
    assert "hiv-fre" in _one("The study examined HIV-free sexual behaviors among youth [S1].", source).missing
    assert "hiv-link" in _one("The study examined HIV-linked sexual behaviors among youth [S1].", source).missing


def test_a_correlation_coefficient_written_as_its_symbol_is_found_and_its_values_still_checked():
    # PubMedQA 22449464 (`research bench pubmedqa --sample 4 --seed 137`), the real 1.5B model: "The correlation
    # coefficients were 0.491 and 0.526 for the AKT and CSA, respectively" stayed "not checked" for "coefficients" and
    # "respectively", which the abstract writes as «r =» and not at all. The abstract's sentence, quoted.
    source = ("The score for overall performance at selection achieved statistically significant correlation with "
              "examination performance (r = 0.491 for the AKT and r = 0.526 for the CSA, P<0.01).")
    said = _one("The correlation coefficients were 0.491 and 0.526 for the AKT and CSA, respectively, with P<0.01 [S1].",
                source)
    assert said.outcome == "supported", said
    # A coefficient the page does not give is still a figure the page gives otherwise, and the word alone is not found
    # where no coefficient with the claim's value is written.
    assert _one("The correlation coefficients were 0.71 and 0.526 for the AKT and CSA, respectively [S1].",
                source).outcome != "supported"
    elsewhere = "The selection score correlated with examination performance in 2011, P<0.01, for the AKT and CSA."
    assert _one("The correlation coefficient was 0.01 for the AKT and CSA in 2011 [S1].", elsewhere).outcome != "supported"


def test_a_percentage_the_page_gives_as_a_level_beside_another_is_no_increase():
    # PubMedQA (`research bench pubmedqa --sample 4 --seed 139`), the real 1.5B model's Summary to "Can tailored
    # interventions increase mammography use among HMO women?" was supported: the page's 71% is a proportion beside
    # 61%, ten points more. The abstract's sentence, quoted.
    source = ("Compared to usual care alone, telephone counseling promoted a significantly higher proportion of women "
              "having mammograms on schedule (71% vs 61%) than did tailored print (67% vs 61%) but only after the first "
              "year of intervention (during 1996).")
    claim = ("The proportion of women having mammograms on schedule was significantly higher among those who received "
             "telephone counseling, with a 71% increase [S1].")
    said = _one(claim, source)
    assert (said.outcome, said.reason) == ("unsupported", "number_mismatch"), said
    # The levels as the page gives them are no change, and a page that gives the change as one is read as before.
    assert _one("Telephone counseling promoted a significantly higher proportion of women having mammograms on "
                "schedule (71% vs 61%) [S1].", source).outcome == "supported"
    assert _one(claim, source + " Mammography on schedule showed a 71% increase with telephone counseling.").reason \
        != "number_mismatch"


def test_what_a_page_places_after_a_period_is_not_within_it():
    # PubMedQA (`research bench pubmedqa --sample 4 --seed 139`), the real 1.5B model: "…in the first year of
    # intervention" where the abstract says «only after the first year of intervention». Its sentence, quoted.
    source = ("Compared to usual care alone, telephone counseling promoted a significantly higher proportion of women "
              "having mammograms on schedule than did tailored print but only after the first year of intervention.")
    said = _one("Telephone counseling promoted a significantly higher proportion of women having mammograms on schedule "
                "than tailored print in the first year of intervention [S1].", source)
    assert (said.outcome, said.reason) == ("unsupported", "contrast"), said
    assert _one("Telephone counseling promoted a significantly higher proportion of women having mammograms on schedule "
                "than tailored print after the first year of intervention [S1].", source).outcome == "supported"
    both = source + " Telephone counseling promoted a higher proportion of women having mammograms on schedule in the first year of intervention too."
    assert _one("Telephone counseling promoted a significantly higher proportion of women having mammograms on schedule "
                "than tailored print in the first year of intervention [S1].", both).reason != "contrast"


def test_a_group_the_page_found_the_same_in_is_no_group_the_claim_compares_against():
    # PubMedQA (`research bench pubmedqa --sample 4 --seed 141`), the real 1.5B model's Summary to "Is Acupuncture
    # Efficacious for Treating Phonotraumatic Vocal Pathologies?" was supported, every word on the page; the page found
    # the improvement in the sham group too. The abstract's sentences, quoted.
    source = ("Significant improvement in vocal function, as indicated by the maximum fundamental frequency produced, and "
              "also perceived quality of life, were found in both the genuine and sham acupuncture groups, but not in the "
              "no-treatment group. Structural (morphological) improvements were, however, only noticed in the genuine "
              "acupuncture group, which demonstrated a significant reduction in the size of the vocal fold lesions.")
    said = _one("The study found that genuine acupuncture significantly improved vocal function and perceived quality "
                "of life compared to sham acupuncture and no treatment [S1].", source)
    assert (said.outcome, said.reason) == ("unsupported", "contrast"), said
    assert "both the genuine and sham" in said.evidence
    # The page's own finding, and another finding of the same groups, are not decided so.
    assert _one("Significant improvement in vocal function and perceived quality of life was found in both the genuine "
                "and sham acupuncture groups [S1].", source).outcome == "supported"
    assert _one("Structural improvements were only noticed in the genuine acupuncture group compared to sham "
                "acupuncture [S1].", source).reason != "contrast"


def test_a_study_that_aimed_at_clarifying_a_role_found_nothing_by_saying_so():
    # PubMedQA 10340286 (`research bench pubmedqa --seed 99`), the real 1.5B model's Summary: "Yes, there is a role for
    # leukocyte and CRP measurements in the diagnosis of acute appendicitis in the elderly" was supported by the
    # study's aim; its results found no difference. The abstract's sentences, quoted.
    source = ("The present study aimed at clarifying the role of leukocyte count and C-reactive protein (CRP) "
              "measurements in the diagnosis of acute appendicitis in the elderly. There was no statistically "
              "significant difference in leukocyte counts or CRP values between patients with an uninflamed appendix "
              "(group A) and those with acute appendicitis (group B).")
    claim = "Yes, there is a role for leukocyte and CRP measurements in the diagnosis of acute appendicitis in the elderly [S1]."
    assert _one(claim, source).outcome != "supported"


@pytest.mark.parametrize(("source", "claim"), [
    # PubMedQA 19643525 (`research bench pubmedqa --seed 101`), the real 1.5B model's Summary, supported by the
    # abstract's objective; its results: slides read falsely high. The abstract's sentences, quoted.
    ("To assess the accuracy of vaginal pH measurement on wet mount microscopy slides compared with direct "
     "measurements on fresh vaginal fluid. pH measurement from microscopy slides after the addition of saline causes "
     "systematic increases of pH leading to false positive readings.",
     "Yes, vaginal pH can be measured from the wet mount slide [S1]."),
    # The same run's MRCGP abstract, its aim after a label the page runs into the sentence before.
    ("The MRCGP comprises of an applied knowledge test (AKT), a clinical skills assessment (CSA) and workplace-based "
     "assessments (WPBA).AIM: To explore the predictive validity of general practice selection scores using the AKT "
     "and CSA elements of the MRCGP as a final outcome measure.",
     "General practice selection scores are predictive of the MRCGP [S1]."),
])
def test_an_abstracts_aim_written_as_an_infinitive_answers_nothing(source, claim):
    assert _one(claim, source).outcome != "supported"


@pytest.mark.parametrize(("source", "claim"), [
    # RAGTruth train (a how-to page): the infinitive says what the instruction after it is for.
    ("To determine your RDA for protein, you can multiply your weight in pounds by 0.36.",
     "You can multiply your weight in pounds by 0.36 to determine your RDA for protein [S1]."),
    ("To determine whether citation affected reviewer scores, we obtained each reviewer's score of the manuscript.",
     "To determine whether citation affected reviewer scores, the authors obtained each reviewer's score of the "
     "manuscript [S1]."),
])
def test_an_infinitive_before_its_main_clause_is_no_aim(source, claim):
    assert _one(claim, source).outcome == "supported"


@pytest.mark.parametrize(("source", "claim"), [
    # PubMedQA 17279467 (gold maybe), `research bench pubmedqa --seed 102`, the real 1.5B model's whole answer.
    ("Cyclical pamidronate therapy in a 2-year-old child with skeletal fragility resulted in remodelling of vertebral "
     "fractures. The BMD at both sites decreased precipitously within 24 months of stopping treatment, raising the "
     "question as to whether bisphosphonates can be stopped in a growing child with skeletal fragility.",
     "Yes, bisphosphonate treatment can be stopped in a growing child with skeletal fragility [S1]."),
    # PubMedQA 25228241, the same run: a condition ("if the elephant trunk is folded") is not a question reported.
    ("The elephant trunk technique for aortic dissection is useful for reducing false lumen pressure. The purpose of "
     "this study was to investigate whether an elephant trunk in a small-calibre lumen can cause haemolysis.",
     "The small-calibre true lumen is significant because it can cause haemolysis if the elephant trunk is folded [S1]."),
    # PubMedQA 17595200 (gold no), the same run's finding, supported: "Study of" in a study's name is no question
    # reported, and the page's background says it was suggested, not found.
    ("It has been suggested that increasing obesity levels in young women lead to intrauterine environments that, in "
     "turn, stimulate increased obesity among their offspring, generating an intergenerational acceleration of obesity "
     "levels. If this mechanism is important, the association of maternal body mass index (BMI) with offspring BMI "
     "should be stronger than the association of paternal with offspring BMI. We compared strength of association "
     "for maternal-offspring and paternal-offspring BMI for 4654 complete parent-offspring trios in the Avon "
     "Longitudinal Study of Parents and Children (ALSPAC), using unstandardised and standardised regression analysis.",
     "A study by the Avon Longitudinal Study of Parents and Children (ALSPAC) found that increasing obesity levels in "
     "young women lead to intrauterine environments that, in turn, stimulate increased obesity among their offspring, "
     "generating an intergenerational acceleration of obesity levels [S1]."),
    # PubMedQA 9347843 (`research bench pubmedqa --seed 107`): the real 1.5B model's Summary, supported: only the aim
    # says "contraindications", the sentence before it says more of the claim's words.
    ("Because of the inflammatory nature of Crohn's disease, ileocolic resections are often difficult to perform, "
     "especially if an abscess, phlegmon, or recurrent disease at a previous ileocolic anastomosis is present. Our goal "
     "was to determine whether the above factors are contraindications to a successful laparoscopic-assisted "
     "ileocolic resection.",
     "Abscesses, phlegmons, and recurrent disease are contraindications for laparoscopic-assisted ileocolic resections "
     "in patients with Crohn's disease [S1]."),
    # PubMedQA 19643525 again (`--seed 107`): "wet mount" only in the aim, the rest in the methods.
    ("To assess the accuracy of vaginal pH measurement on wet mount microscopy slides compared with direct measurements "
     "on fresh vaginal fluid. Using a cotton swab, cytobrush or wooden spatula a vaginal fluid specimen was collected "
     "from 84 consecutive women attending a vulvo-vaginitis clinic.",
     "Vaginal pH can be measured using a wet mount slide by collecting a vaginal fluid specimen using a cotton swab, "
     "cytobrush, or wooden spatula [S1]."),
    # PubMedQA 21801416 (`--seed 107`): the real 1.5B model's "Yes," chosen by it as judge against "we investigated if".
    ("It is now widely accepted that AMP-activated protein kinase (AMPK) is a critical regulator of energy homeostasis. "
     "Recently, it has been shown to regulate circadian clocks. In seasonal breeding species such as sheep, the "
     "circadian clock controls the secretion of an endogenous rhythm of melatonin and, as a consequence, is probably "
     "involved in the generation of seasonal rhythms of reproduction. Considering this, we identified the presence of "
     "the subunits of AMPK in different hypothalamic nuclei involved in the pre- and post-pineal pathways that control "
     "seasonality of reproduction in the ewe and we investigated if the intracerebroventricular (i.c.v.) injection of "
     "two activators of AMPK, metformin and AICAR, affected the circadian rhythm of melatonin in ewes that were housed "
     "in constant darkness.",
     "Yes, there is a potential involvement of AMPK in the effect of metformin or AICAR on melatonin in the ewe [S1]."),
    # PubMedQA 20353735 (gold no, `--seed 109`): "It is not clear whether", and the words the claim shares with the
    # methods' sentence outnumber those it shares with the question.
    ("Vitamin D deficiency/insufficiency (VDDI) is common in CKD patients and may be associated with abnormal mineral "
     "metabolism. It is not clear whether the K/DOQI recommended doses of ergocalciferol are adequate for correction "
     "of VDDI and hyperparathyroidism.\n\nRetrospective study of 88 patients with CKD Stages 1 - 5. Patients treated "
     "with ergocalciferol as recommended by K/DOQI guidelines.",
     "Yes, the current K/DOQI treatment guidelines for vitamin D supplementation in CKD patients are adequate [S1]."),
    # PubMedQA 27909738 (gold no, `--seed 110`): "It was assessed whether", its results finding no difference; the
    # real 1.5B model's Summary, supported.
    ("Using high-quality CT-on-rails imaging, the daily motion of the prostate bed clinical target volume (PB-CTV) based "
     "on consensus Radiation Therapy Oncology Group (RTOG) definitions (instead of surgical clips/fiducials) was "
     "studied. It was assessed whether PB motion in the superior portion of PB-CTV (SUP-CTV) differed from the inferior "
     "PB-CTV (INF-CTV).",
     "Yes, target motion differs between superior and inferior portions of the clinical target volume [S1]."),
])
def test_what_a_page_leaves_as_a_question_is_no_answer(source, claim):
    found = _one(claim, source)
    assert (found.outcome, found.reason) == ("uncertain", "hedge_dropped"), found


def test_a_yes_in_other_words_than_an_aim_with_an_adjective_before_study_is_not_put_to_the_judge():
    # PubMedQA 12913347 (`research bench pubmedqa --seed 105`): the real 1.5B model's whole answer, judged supported
    # against the aim, «of this prospective study» (an adjective between the article and "study"); its results find
    # one organism significant, nothing of microbiological factors accounting for the outcome. The abstract, quoted.
    source = (
        "Being unmarried is a well-known risk factor for poor pregnancy outcome such as preterm delivery and intrauterine "
        "growth restriction. The aim of this prospective study was to assess the prevalence and risk of bacterial "
        "vaginosis (BV) and selected bacteria isolated from the lower genital tract and to determine the socioeconomic "
        "and microbiological characteristics that might be responsible for poor pregnancy outcome observed among "
        "unmarried pregnant women.\n\nThe study population comprised 196 pregnant women attending 10 randomly selected "
        "outpatient maternity units in the Lodz region, central Poland. Cervicovaginal samples were obtained between 8 "
        "and 16 weeks of gestation. Based on Spiegel's criteria, gram-stained vaginal smears were examined for BV and "
        "the BV-associated flora was sought by culture. To evaluate the risk factors, relative risk ratios were "
        "calculated using EPI INFO software.\n\nAmong 196 pregnant women, 40 (20.4%) were unmarried. BV was diagnosed "
        "among 55 (28.1%) women studied. In the univariate analysis, unmarried pregnant women were characterized by "
        "younger age, primary educational level, poor economic situation and excessive smoking during pregnancy, as "
        "compared to married women. The unmarried status was a borderline risk factor for BV (OR = 1.83, 95% CI "
        "0.94-4.9) after adjustment for age, smoking and education. An analysis of the microbiological culture from the "
        "lower genital tract revealed that unmarried pregnant women had a higher risk for several types of pathological "
        "microflora, as compared to married women. However, this finding was significant only for Mycoplasma hominis. "
        "The independent risk factors of M. hominis were the young age of the subject and a low concentration of "
        "Lactobacillus spp.")
    claim = "Yes, microbiological factors account for poor pregnancy outcome among unmarried pregnant women in Poland [S1]."
    found = _one(claim, source)
    assert (found.outcome, found.reason) == ("uncertain", "hedge_dropped"), found  # not partial_overlap: no judge


@pytest.mark.parametrize(("source", "claim"), [
    # PubMedQA 24958650 (`research bench pubmedqa --seed 97`): the aim spells out «mean platelet volume (MPV)», the
    # results write MPV; the real 1.5B model's Summary says both.
    ("Our aim in this study was to investigate whether mean platelet volume (MPV) value could be used as an early "
     "marker to predict pelvic inflammatory disease (PID).\n\nMPV values in patients with PID were lower than those in "
     "the control group. This reduction in MPV is statistically significant when the PID patient group is compared "
     "with the control group (p < 0.001).",
     "The study found that mean platelet volume (MPV) values in patients with PID were lower than those in the control "
     "group, which is statistically significant [S1]."),
    # PubMedQA 21745056 (`--seed 99`): Pathway is named by the aim and by the background, not by the results.
    ("The Pathway represents a longitudinal program for medical students. A previous study reported no significant "
     "attitudinal changes toward the medically indigent between Pathway and non-Pathway students.\n\nThe purpose of "
     "this study was to investigate and differentiate the skills and attitudes of Pathway and non-Pathway students in "
     "working with culturally diverse populations by conducting quantitative and qualitative analyses.\n\nA "
     "statistically significant difference was found at the end of Years 2, 3, and 4 regarding student confidence "
     "ratings, and qualitative results had similar findings.",
     "The study found a statistically significant difference in student confidence ratings and qualitative results "
     "between Pathway and non-Pathway students [S1]."),
    # PubMedQA 22849512 (`--seed 128`): the aim spells out «neighbourhood social capital (NSC)», the results write
    # NSC; the real 1.5B model's Summary writes the name in full, after its own frame ("The study found that").
    ("The aim of this study is to explore whether availability of sports facilities, parks, and neighbourhood social "
     "capital (NSC) and their interaction are associated with leisure time sports participation among Dutch "
     "adolescents.\n\nAdolescents (n = 852) completed a questionnaire asking for sports participation, perceived NSC "
     "and demographics.\n\nDecomposition of the interaction term showed that adolescents were most likely to engage in "
     "leisure time sports when both availability of parks and NSC were highest.",
     "The study found that adolescents were most likely to engage in leisure time sports when both availability of "
     "parks and perceived social capital were highest [S1]."),
])
def test_what_a_studys_results_say_with_names_its_aim_gives_is_supported(source, claim):
    assert _one(claim, source).outcome == "supported"


def test_a_claim_that_says_a_question_is_still_open_is_supported_by_the_page_saying_so():
    # RAGTruth train (a news story): the answer reports the question as open, as its page does.
    source = ("The Hollywood mogul let it drop that fans can expect more of the quirky comedy. It was not yet known if "
              "the full cast, including Jason Bateman, Michael Cera and Will Arnett, will return for the season.")
    assert _one("Netflix has not yet confirmed if the full cast will return [S1].", source).outcome != "unsupported"
    assert _one("It was not yet known if the full cast will return for the season [S1].", source).outcome == "supported"


def test_a_claim_in_other_words_than_a_studys_aim_is_not_put_to_the_judge():
    # PubMedQA 18784527 (gold no), `research bench pubmedqa --seed 102`: the real 1.5B model, asked to choose
    # between this claim and its negation (its words were left open: partial_overlap), chose the claim. The
    # abstract's sentences, quoted.
    source = ("Multislice helical computed tomography (CT), which can provide detailed 2-D and 3-D reconstructed images, "
              "is useful in imaging diagnosis for dental implant treatment. Therefore, in this study, it was performed "
              "to clarify the mandibular depiction of double-oblique reconstructed images when changing their thickness.")
    claim = "Yes, mandibular depiction can be improved by changing the thickness of double-oblique computed tomography images [S1]."
    found = _one(claim, source)
    assert (found.outcome, found.reason) == ("uncertain", "hedge_dropped"), found  # not partial_overlap: no judge
    # Its results' sentence, beside the aim, says its finding: the aim's words do not hold that back.
    results = ("In the alveolar crest and the whole of the mandibular canal, the highest value was obtained with 0.9 "
               "mm-thick images; however, there was no significant difference between 0.3 mm and 0.9 mm-thick images.")
    finding = ("The study found that 0.9 mm-thick images provided the highest mandibular depiction, with no significant "
               "difference between 0.3 mm and 0.9 mm-thick images [S1].")
    assert _one(finding, results + " " + source).outcome == "supported"


def test_what_a_page_says_is_regarded_so_is_not_stated_as_found():
    # PubMedQA 15539888 (`research bench pubmedqa --seed 96`), the real 1.5B model's Summary, "Yes, the atopy patch
    # test with house dust mites is specific for atopic dermatitis", against its background (its results found
    # positive tests in non-AD subjects too). The abstract's sentences, quoted.
    source = ("The atopy patch test (APT), namely the patch test with aeroallergens, is regarded as specific for "
              "patients with atopic dermatitis (AD), but small numbers of positive APT were reported in the past also "
              "in atopic subjects without dermatitis and in healthy persons.")
    claim = "Yes, the atopy patch test is specific for patients with atopic dermatitis [S1]."
    assert _one(claim, source).outcome != "supported"
    assert _one("The atopy patch test is regarded as specific for patients with atopic dermatitis [S1].",
                source).outcome == "supported"


def test_what_a_survey_s_respondents_considered_so_is_not_stated_as_so():
    # PubMedQA (`research bench pubmedqa --sample 4 --seed 108`, "Chaalia/Pan Masala: harmful for health?"), the real
    # 1.5B model's Summary, "Yes, Chaalia/Pan Masala is harmful for health", supported by what the students surveyed
    # held. The abstract's sentence, quoted.
    source = "Chaalia was considered harmful for health by 96% and Pan Masala by 60%."
    said = _one("Yes, Chaalia/Pan Masala is harmful for health [S1].", source)
    assert (said.outcome, said.reason) == ("uncertain", "hedge_dropped"), said
    # Said as what they held, in either voice, it stays supported.
    for claim in ("Chaalia was considered harmful for health by 96% of the students [S1].",
                  "Most students considered Chaalia harmful for health [S1]."):
        assert _one(claim, source + " Most students considered Chaalia harmful for health.").outcome == "supported", claim


def test_a_limiter_the_page_writes_with_its_word_is_not_added():
    # PubMedQA 9446993 (`research bench pubmedqa --sample 4 --seed 113`), the real 1.5B model's sentence, the page's
    # word for word, was left "limiter added": its «only one» is in a clause too short to be read as saying the claim.
    source = ("None of the dentists detected all the six manipulated radiographs; three dentists had five correct, but "
              "there were five with only one.")
    assert _one(source.rstrip(".") + " [S1].", source).outcome == "supported"
    # A limiter the page does not write is still added.
    for claim in ("Only three dentists had five correct [S1].", "Three dentists had only five correct [S1]."):
        said = _one(claim, source)
        assert (said.outcome, said.reason) == ("uncertain", "limiter_added"), claim


def test_a_difference_where_the_study_found_none_is_decided_against():
    # PubMedQA 12607120 (`research bench pubmedqa --sample 4 --seed 113`, "Does anastomotic leakage affect functional outcome
    # after rectal resection for cancer?"), the real 1.5B model's Summary sentence, not checked, and the same said of
    # sphincter function alone, supported («…not significantly worse after leakage» is said of two other measures).
    # The abstract's results, quoted.
    source = ("The continence score in patients after anastomotic leakage did not differ significantly from that in "
              "patients without complications. Sphincter function was similar. Maximum tolerable volume and rectal "
              "compliance were slightly but not significantly worse after leakage.")
    for claim in ("The study found that patients with anastomotic leakage had a lower continence score and worse "
                  "sphincter function compared to those without complications [S1].",
                  "Sphincter function was worse after anastomotic leakage [S1].",
                  "Rectal compliance was worse after leakage [S1]."):
        said = _one(claim, source)
        assert (said.outcome, said.reason) == ("unsupported", "negation"), claim
    # What the page says, and a difference it states for the measure in another sentence, are not decided against.
    assert _one("Rectal compliance was slightly worse after leakage [S1].", source).outcome == "supported"
    assert _one("Sphincter function was similar after anastomotic leakage [S1].", source).outcome == "supported"
    stated = source + " In women, sphincter function was worse after leakage."
    assert _one("Sphincter function was worse after anastomotic leakage [S1].", stated).reason != "negation"


def test_no_difference_where_the_study_states_one_is_decided_against():
    # PubMedQA 8245806 (`research bench pubmedqa --sample 4 --seed 132`, "Does family practice at residency teaching sites
    # reflect community practice?"): the real 1.5B model's finding stayed in the answer, not checked. The abstract's
    # results, quoted.
    source = ("More preventive and therapeutic services were offered or performed at our residency training sites but "
              "fewer diagnostic services were performed. There were fewer consultations requested at our residency "
              "training sites but similar hospitalization rates for patients. The mean duration of visit differed by "
              "only 1 minute.")
    said = _one("The study found that there were no significant differences in consultations requested or "
                "hospitalization rates for patients [S1].", source)
    assert (said.outcome, said.reason) == ("unsupported", "negation")
    assert "fewer consultations requested" in said.evidence
    # What the page says alike is not decided against; nor a difference it calls not significant, nor what people felt.
    assert _one("There were no significant differences in hospitalization rates for patients [S1].",
                source).outcome != "unsupported"
    small = ("Patients in the training sites had fewer consultations requested, though not significantly. "
             "Hospitalization rates were similar.")
    assert _one("There were no significant differences in consultations requested [S1].", small).outcome != "unsupported"
    felt = ("Only 25% felt that the 80-hour workweek had improved surgical education. "
            "Overall, 44% of respondents believed that there was no difference in surgical education.")
    assert _one("Overall, 44% of respondents believed that there was no difference in surgical education [S1].",
                felt).outcome == "supported"


def test_what_a_page_says_of_its_topic_given_to_another_topic_is_decided_against():
    # JSQuAD v1.3 valid a497360p7q1 (`research bench jsquad --sample 5 --seed 135`): the real 1.5B model's Summary gave
    # the parameters what the page says of 日本列島 (its topic made a modifier), supported, every word on the page. The
    # page's sentences, quoted.
    source = ("前述の通り、日本列島は複雑な地殻変動が起こっているため、実際の地球上の位置と測量成果の示す座標値が時間とともに"
              "ずれてくる。また地震による局所的な地殻変動が発生することよって測量成果値との差が生じる。そこで国土地理院では、"
              "セミダイナミック補正や定常時地殻変動補正などの各種地殻変動補正パラメータを公開している。")
    said = _one("セミダイナミック補正や定常時地殻変動補正などの各種地殻変動補正パラメータは、日本列島の複雑な地殻変動が起こって"
                "いるため、実際の地球上の位置と測量成果の示す座標値が時間とともにずれてくる[S1]。", source)
    assert (said.outcome, said.reason) == ("unsupported", "said_of_another")
    assert said.evidence.startswith("前述の通り、日本列島は")
    # Said of the page's own topic, it is what the page says.
    assert _one("日本列島は複雑な地殻変動が起こっているため、実際の地球上の位置と測量成果の示す座標値が時間とともにずれてくる[S1]。",
                source).outcome == "supported"
    # The end of what the page says, its date left out: the real 1.5B model's finding to 「富士山の最後の噴火はいつ？」
    # (`bench_answers.py --ollama`, 2026-12-02), the local web's Fuji page.
    fuji = "富士山は2013年に世界文化遺産に登録されました。富士山の最後の噴火は1707年の宝永噴火です。"
    said = _one("宝永噴火は富士山の世界文化遺産に登録されました[S1]。", fuji)
    assert (said.outcome, said.reason) == ("unsupported", "said_of_another")
    assert _one("富士山は世界文化遺産に登録されました[S1]。", fuji).outcome == "supported"


def test_a_yes_whose_word_the_page_does_not_write_is_not_supported():
    # PubMedQA 15141797 (`research bench pubmedqa --sample 4 --seed 133`, gold no: "Can we rely on arterial line sampling
    # in performing activated plasma thromboplastin time after cardiac surgery?"): the real 1.5B model's whole Summary
    # was supported at 0.92 by the methods, "reliable" nowhere on the page. The abstract's methods and a result, quoted.
    source = ("## Methods\n\nThe morning following cardiac surgery, simultaneous arterial line and peripheral venous blood "
              "samples were taken for activated plasma thromboplastin time (APTT) ratio and international normalized "
              "ratio (INR) in 49 randomly selected patients.\n\n## Results\n\nThe median arterial APTT ratio value was "
              "1.32 +/- 0.52 as compared to the median peripheral APTT ratio value which was 1.1 +/- 0.24 (P<0.001). The "
              "survey of 22 UK cardiothoracic intensive care units showed that heparinized arterial lines were by far the "
              "commonest ports used for blood withdrawal for the measurement of APTT ratio results.")
    said = _one("Yes, arterial line sampling can be a reliable method for measuring activated plasma thromboplastin "
                "time (APTT) after cardiac surgery [S1].", source)
    assert (said.outcome, said.reason) == ("uncertain", "missing_term")
    # A yes whose every word the page writes stands as before.
    assert _one("Yes, arterial line and peripheral venous blood samples were taken for activated plasma thromboplastin "
                "time (APTT) after cardiac surgery [S1].", source).outcome == "supported"


def test_a_sentence_that_writes_the_page_s_abbreviation_says_the_words_it_stands_for():
    # PubMedQA 22849512 (`research bench pubmedqa --sample 4 --seed 128`, gold yes): the page spells out «neighbourhood
    # social capital (NSC)» in its aim and writes NSC in its results; the real 1.5B model's answer in the long form was
    # read against the aim alone (an open question). The abstract's sentences, quoted.
    source = ("The aim of this study is to explore whether availability of sports facilities, parks, and neighbourhood "
              "social capital (NSC) and their interaction are associated with leisure time sports participation among "
              "Dutch adolescents.\n\nNSC was significantly associated with sports participation (OR: 3.51 (95%CI: "
              "1.18;10.41)) after adjustment for potential confounders. Availability of sports facilities and "
              "availability of parks were not associated with sports participation.")
    said = _one("Neighbourhood social capital was significantly associated with sports participation [S1].", source)
    assert said.outcome == "supported" and said.evidence.startswith("NSC was significantly associated"), said
    # Only the words it was spelt out with: «and» before them is none, and a word the page never gives stays missing.
    assert _one("Dutch social capital was significantly associated with sports participation [S1].",
                source).outcome != "supported"
    assert _one("Neighbourhood social capital was not associated with sports participation [S1].",
                source).outcome != "supported"


def test_a_relation_the_results_found_none_of_is_decided_against_in_the_claim_s_own_words():
    # PubMedQA 19615731 (`research bench pubmedqa --sample 4 --seed 129`, gold no), the real 1.5B model's Summary: its
    # yes was supported by the objective (an order: «Determine whether …»), and its second sentence by the judge,
    # against the results' «no association». The abstract's sentences, quoted.
    source = ("## Objective\n\nDetermine whether obesity or increasing level of body mass index (BMI) are associated with "
              "worse asthma control in an ethnically diverse urban population.\n\n## Methods\n\nMultiple linear regression "
              "analysis was performed to evaluate the association between obesity and increasing BMI level and asthma "
              "control.\n\n## Results\n\nThe mean score from all 4 questionnaires showed an average suboptimal asthma "
              "control. Regression analysis showed no association between obesity or increasing BMI level and asthma "
              "control using all 4 questionnaires.")
    for claim in ("Yes, higher body mass index (BMI) is associated with worse asthma control in an urban population [S1].",
                  "The study also found that obesity and increasing BMI level were associated with worse asthma control "
                  "using all 4 questionnaires [S1]."):
        said = _one(claim, source)
        assert (said.outcome, said.reason) == ("unsupported", "negation"), claim
        assert said.evidence.startswith("Regression analysis showed no association"), claim
    # The objective alone states nothing; a page that states the relation is not contradicted.
    objective = source.split("\n\n## Methods")[0]
    assert _one("Higher BMI is associated with worse asthma control [S1].", objective).outcome != "supported"
    stated = source + " In women, increasing BMI level was associated with worse asthma control."
    assert _one("Increasing BMI level is associated with worse asthma control [S1].", stated).reason != "negation"


def test_a_change_the_study_found_none_of_is_decided_against():
    # PubMedQA 24434052 (`research bench pubmedqa --sample 4 --seed 128`, "Are we seeing the effects of public awareness
    # campaigns?"), the real 1.5B model's Summary sentence on the antibiotic campaigns' study (PubMed 20488985, a page of
    # the bench's corpus), left to the judge for the words the page lacks. That abstract's results, quoted.
    source = ("We did not detect any improvement in either England or Scotland, or any differences between England and "
              "Scotland in the understanding of the lack of benefit of antibiotics for coughs and colds, and we found no "
              "improvement in antibiotic use. We detected a significant increase in respondents retaining leftover "
              "antibiotics.")
    for claim in ("The sources indicate that public awareness campaigns have had a significant impact on public health, "
                  "with improvements in antibiotic use, increased awareness of the lack of benefit of antibiotics for "
                  "coughs and colds, and increased reporting of antibiotic use [S1].",
                  "Antibiotic use improved after the campaigns [S1]."):
        said = _one(claim, source)
        assert (said.outcome, said.reason) == ("unsupported", "negation"), claim
        assert said.evidence.startswith("We did not detect any improvement"), claim
    # A change the other way, one the page states, and the page's own denial are not decided against.
    assert _one("Antibiotic use fell after the campaigns [S1].", source).reason != "negation"
    assert _one("Respondents retaining leftover antibiotics increased significantly [S1].", source).outcome == "supported"
    assert _one("We found no improvement in antibiotic use [S1].", source).outcome == "supported"
    stated = source + " Among English respondents, antibiotic use improved in 2009."
    assert _one("Antibiotic use improved after the campaigns [S1].", stated).reason != "negation"


def test_a_relation_the_results_found_no_difference_in_is_decided_against():
    # PubMedQA 21190419 (`research bench pubmedqa --sample 4 --seed 117`, gold no), the real 1.5B model's answer, left
    # not checked against the study's aim: the study group is the pregnancies that developed GDM, and its only result
    # found no difference in NT between them and the controls. The abstract, quoted (its spelling kept).
    source = ("This study was planned to evaluate whether increased nuchal translucency (NT) thickness in the first "
              "trimester of gestation can be related to onset of gestational diabetes mellitus (GDM) during pregnancy.\n\n"
              "From January 2006 to August 2008, a group of 678 singleton pregnancies who had developed GDM has been "
              "selected as a study group among a total of 3966 pregnant women who had undergone first trimester screening "
              "for aneuploidies at 11-14 weeks of gestation. A group of 420 single pregnant women with physiological "
              "pregnancy were enrolled as control group.\n\n"
              "There was no significative difference (p = 0.585) between NT values in the study (mean = 1.56) and control "
              "group (mean = 1.54).")
    for claim in ("The study found that increased nuchal translucency thickness was associated with an increased risk "
                  "of GDM in the first trimester [S1].",
                  "Yes, there is a correlation between nuchal translucency thickness and the risk of gestational "
                  "diabetes (GDM) in the first trimester [S1].",
                  "Increased NT thickness is associated with GDM [S1]."):
        said = _one(claim, source)
        assert (said.outcome, said.reason) == ("unsupported", "negation"), claim
        assert said.evidence.startswith("There was no significative difference"), claim
    # A page that also states the relation; the study's aim said back; and PubMedQA 25034219's own result, a
    # correlation with scores that did not differ between two other groups (obese and non-obese mothers).
    stated = source + " Increased NT thickness was significantly associated with GDM in women over 35."
    assert _one("Increased NT thickness is associated with GDM [S1].", stated).reason != "negation"
    assert _one("This study was planned to evaluate whether increased nuchal translucency (NT) thickness in the first "
                "trimester of gestation can be related to onset of gestational diabetes mellitus (GDM) during "
                "pregnancy [S1].", source).reason != "negation"
    mothers = ("Answers were compared between obese (Body Mass Index [BMI] ≥ 30 kg/m2) and non-obese mothers. "
               "No difference were found in the scores of the subscales \"perceived responsibility\", \"restriction\", "
               "\"concern for child's weight\" and \"monitoring\" between obese and non-obese mothers. Child's BMI-SDS "
               "positively correlated with mothers' personal weight perception, concern for child's weight and restriction "
               "after adjustment for child's age (P<0.001, P = 0.012 and P = 0.002, respectively).")
    assert _one("Child's BMI-SDS positively correlated with mothers' concern for child's weight and restriction [S1].",
                mothers).reason != "negation"


def test_a_difference_between_two_parts_the_results_found_none_between_is_decided_against():
    # PubMedQA 27909738 (`research bench pubmedqa --sample 4 --seed 116`, gold no), the real 1.5B model's Summary,
    # supported by the study's aim; its results name the two parts by the abbreviations the page spells out. The
    # abstract's sentences, quoted.
    source = ("Using high-quality CT-on-rails imaging, the daily motion of the prostate bed clinical target volume (PB-CTV) "
              "based on consensus Radiation Therapy Oncology Group (RTOG) definitions was studied. It was assessed whether "
              "PB motion in the superior portion of PB-CTV (SUP-CTV) differed from the inferior PB-CTV (INF-CTV).\n\n"
              "## Results\n\nNo statistically significant differences between INF-CTV and SUP-CTV motion were present in "
              "any direction.")
    said = _one("Yes, the RTOG consensus definitions for target motion in the prostate bed differ between superior and "
                "inferior portions of the clinical target volume [S1].", source)
    assert (said.outcome, said.reason) == ("unsupported", "negation"), said
    assert said.evidence.startswith("No statistically significant differences"), said
    # Two other parts are not what the results compared.
    other = _one("Target motion differs between the left and right portions of the clinical target volume [S1].", source)
    assert other.reason != "negation"


def test_what_a_study_was_to_compare_is_no_finding_of_the_comparison():
    # PubMedQA 22440363 (`research bench pubmedqa --sample 4 --seed 114`, "Mitral replacement or repair for functional mitral
    # regurgitation in dilated and ischemic cardiomyopathy: is it really the same?"), the real 1.5B model's whole
    # Summary, supported by the study's aim alone. The abstract's first sentence, quoted.
    source = ("This was a study to compare the results of mitral valve (MV) repair and MV replacement for the treatment "
              "of functional mitral regurgitation (MR) in advanced dilated and ischemic cardiomyopathy (DCM).")
    said = _one("Yes, mitral replacement and repair for functional mitral regurgitation in dilated and ischemic "
                "cardiomyopathy are not the same [S1].", source)
    assert (said.outcome, said.reason) == ("uncertain", "hedge_dropped"), said
    # Said as what the study was for, it stays supported.
    assert _one("The study compared the results of mitral valve repair and replacement for functional mitral "
                "regurgitation [S1].", source).outcome == "supported"


def test_a_comparison_that_gives_each_group_the_others_figure_is_decided_against():
    # PubMedQA 15483019 (`research bench pubmedqa --seed 104`, gold yes), the real 1.5B model's whole Summary, not
    # checked: every word and figure is on the page, each figure given to the other group. The abstract's sentence.
    source = ("Median overall survival decreased from 76.3 months in the protocol group to 52.1 months in the matched "
              "group and to 20.3 months in the remaining group.")
    claim = ("The study found that patients who received adjuvant chemotherapy in the protocol group had a lower median "
             "overall survival than those who did not receive chemotherapy (52.1 months vs 76.3 months) [S1].")
    found = _one(claim, source)
    assert (found.outcome, found.reason) == ("unsupported", "number_mismatch") and "76.3 months in the protocol" in found.evidence
    # Each group its own figure: not this check's to decide.
    right = "Patients in the protocol group had a longer median overall survival than the matched group (76.3 vs 52.1 months) [S1]."
    assert _one(right, source).reason != "number_mismatch"


def test_what_a_study_did_is_what_its_aim_says():
    # PubMedQA 26485091 (`research bench pubmedqa --seed 99`), the real 1.5B model's finding, quoted with its source.
    source = ("To estimate healthcare costs and utilization of AAPs compared to other second-line agents. Observational "
              "study using Medicaid claims data (2006-2011).")
    claim = "The study estimated healthcare costs and utilization of AAPs compared to other second-line agents [S1]."
    assert _one(claim, source).outcome == "supported"


def test_what_a_page_gives_as_a_hypothesis_is_not_stated_as_a_fact():
    # JSQuAD v1.3 valid (`research bench jsquad --seed 101`, 「…とする仮説の原型を唱えたのは？」), the real 1.5B model's
    # Summary: 「最初の生命は地球で生まれたのではない。」 was supported by the hypothesis the page reports. The page's
    # sentences, quoted.
    source = ("「宇宙空間には生命の種が広がっている」「最初の生命は宇宙からやってきた（＝地球で生命が生まれたのではない）」"
              "とする仮説である。この説の原型となる考え自体は1787年にスパランツァーニによって唱えられていた。")
    found = _one("最初の生命は地球で生まれたのではない[S1]。", source)
    assert (found.outcome, found.reason) == ("unsupported", "hedge_dropped"), found
    assert _one("この説の原型となる考え自体は1787年にスパランツァーニによって唱えられていた[S1]。", source).outcome == "supported"


def test_a_record_printed_as_a_python_literal_is_read_when_the_ast_builder_fails_once(monkeypatch):
    # CPython 3.11's "AST constructor recursion depth mismatch" (python/cpython#106905) ended a run of
    # tests/test_verify_e2e_realistic.py with an unexpected error; the record is read again, and where the
    # builder keeps failing the source is read as prose, never a crash.
    import ast

    from research.modules.text import evidence

    record = "{'name': 'Derf', 'open': True, 'wifi': None}"
    real, failures = ast.literal_eval, [SystemError("AST constructor recursion depth mismatch (before=171, after=217)")]

    def flaky(text):
        if failures:
            raise failures.pop()
        return real(text)

    monkeypatch.setattr(evidence.ast, "literal_eval", flaky)
    assert ("name: Derf", True) in (evidence.structured_lines(record) or [])

    def broken(text):
        raise SystemError("AST constructor recursion depth mismatch")

    monkeypatch.setattr(evidence.ast, "literal_eval", broken)
    assert evidence.structured_lines(record) is None


def test_a_foreign_name_with_another_kanji_tail_is_another_country():
    # JSQuAD v1.3 valid a59579p0q1 (`research bench jsquad --sample 5 --seed 133`): the real 1.5B model's Summary
    # 「ドミニカ共和国の首都はロゾーです。」 was supported by the ドミニカ国 page, every word of it there (ドミニカ, 共和制
    # 国家, 国), the read pages going on «…ドミニカ共和国と区別するため、ドミニカ国と表記される。». The page's sentences, quoted.
    page = ("# ドミニカ国\n\nドミニカ国（ドミニカこく）は、カリブ海の西インド諸島を構成するウィンドワード諸島最北部に位置するドミニカ島全域を"
            "領土とする共和制国家。島国であり、海を隔てて北西にフランス領グアドループが、南東にフランス領マルティニークが存在する。"
            "首都はロゾー。")
    found = _one("ドミニカ共和国の首都はロゾーです[S1]。", page)
    assert (found.outcome, found.reason) == ("uncertain", "missing_term")
    assert "ドミニカ共和国" in found.missing
    # The page's own name is no other.
    assert _one("ドミニカ国の首都はロゾーです[S1]。", page).reason != "missing_term"
    assert _one("ドミニカ国は共和制国家である[S1]。", page).outcome == "supported"


def test_the_most_common_is_said_by_a_sentence_that_says_how_often():
    # PubMedQA 24652474 (`research bench pubmedqa --sample 4 --seed 131`): the real 1.5B model's Summary, supported, its
    # "common" found in the background and its "used" in the methods. The page's sentences, quoted.
    page = ("## Background\n\nAdhesive capsulitis is often difficult to diagnose in its early stage and to differentiate "
            "from other common shoulder disorders.\n\n## Methods\n\nUsing the local anesthetic as the reference standard, "
            "pain relief of ≥70% for passive external rotation was deemed a positive anesthetic response (PAR).\n\n"
            "## Results\n\nUnivariate logistic regression identified that of the proposed identifiers, global loss of "
            "passive range of movement (odds ratio [OR]=0.26, P=.03), pain at the end of range of all measured active "
            "movements (OR=0.06, P=.02), and global loss of passive glenohumeral movements (OR=0.23, P=.02) were "
            "associated with a PAR.")
    found = _one("The most commonly used identifiers are pain at the end of range of all measured active movements "
                 "and global loss of passive range of movement [S1].", page)
    assert (found.outcome, found.reason) == ("uncertain", "missing_term") and "most commonly" in found.missing
    assert _one("The identifiers associated with a PAR include pain at the end of range of all measured active "
                "movements and global loss of passive range of movement [S1].", page).outcome == "supported"
    # Said of it where the page says how often (RAGTruth train 16053, clean): supported as before.
    test = ("We use the same scoring system as the DriveTest centers across the province. Based on the official Ontario "
            "Driver's handbook, it tests your knowledge of the road signs and rules. This is our most popular G1 "
            "practice test.")
    assert _one("Take our most popular G1 practice test, which uses the same scoring system as DriveTest centers [S1].",
                test).reason != "missing_term"


@pytest.mark.parametrize(("claim", "source", "supported"), [
    # The real 1.5B model's finding (`bench_answers.py --ollama`, 2026-12-02, "Mount Fuji (富士山): how high is it and when
    # did it last erupt?"), "not checked" (partial_overlap) under the page's «Mount Fuji is 3,776 m (12,388 ft) tall.»:
    # the height, named by another word of it, in the sentence that gives the claim's own figure.
    ("The height of Mount Fuji is 3,776 m (12,388 ft).", "Mount Fuji is 3,776 m (12,388 ft) tall.", True),
    ("富士山の高さは3,776メートルです。", "富士山の標高は3,776メートルです。", True),
    ("The Shinano River has a length of 367 km.", "The Shinano River is 367 km long.", True),
    # Another measure, or the measure beside another figure: not the same thing.
    ("The width of Mount Fuji is 3,776 m.", "Mount Fuji is 3,776 m tall.", False),
    ("The height of Mount Fuji is 3,776 m.", "Mount Fuji is tall. Its base is 3,776 m across.", False),
])
def test_a_measure_named_by_another_word_beside_its_figure(claim, source, supported):
    assert (_one(claim, source).outcome == "supported") is supported, _one(claim, source)

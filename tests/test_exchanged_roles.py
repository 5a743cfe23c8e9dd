"""Terms in each other's places, compound directions and names in the same slot (issue 29):
false claims the bag-of-words checks called supported or left to the judge, found by
``benchmarks/bench_answers.py --verbose``; and the paraphrases that must stay supported."""

import pytest

from research.modules.text.claims import split_claims
from research.modules.text.evidence import EvidenceIndex, assess_claim
from research.modules.text.structure import english_exchange

OLLAMA = "The ollama command-line client talks to the Ollama server over HTTP."
PEP = "Sam Gross wrote PEP 703, and the Python Steering Council accepted it."
FUJI_EN = "Mount Fuji is an active stratovolcano on Honshu, about 100 km south-west of Tokyo."
FUJI_JA = "富士山は静岡県と山梨県にまたがる活火山です。"


def assess(claim: str, passage: str, language: str):
    index = EvidenceIndex([{"label": "S1", "status": "ok", "language": language, "markdown": passage}])
    return assess_claim(split_claims(claim)[0], index)


# --- 1. English terms exchanged ---------------------------------------------------------------------


@pytest.mark.parametrize(
    ("claim", "passage", "detail"),
    [
        ("The ollama command-line server talks to the Ollama client over HTTP [S1].", OLLAMA, "server/client"),
        ("Steering Council wrote PEP 703, and the Python Sam Gross accepted it [S1].", PEP,
         "steering council/sam gross"),
        # Case and punctuation aside, the exchanged claim is the sentence.
        ("the ollama command-line server talks to the ollama client, over HTTP [S1].", OLLAMA, "server/client"),
    ],
)
def test_two_terms_exchanged_word_for_word_are_contradicted(claim, passage, detail):
    found = assess(claim, passage, "en")
    assert (found.outcome, found.reason) == ("unsupported", "role_swap")
    assert found.missing == [detail]
    assert found.evidence == passage


@pytest.mark.parametrize(
    ("claim", "passage"),
    [
        # The same terms, two of them in each other's places, other words around them.
        ("The ollama command-line server talks over HTTP to the Ollama client [S1].",
         "The ollama command-line client mostly talks over plain HTTP to the Ollama server."),
        ("Steering Council wrote PEP 703; the Python Sam Gross then accepted it [S1].", PEP),
    ],
)
def test_terms_exchanged_in_other_words_are_never_supported(claim, passage):
    found = assess(claim, passage, "en")
    assert found.outcome != "supported"
    assert found.outcome == "uncertain"  # not sure enough to contradict without a parser


@pytest.mark.parametrize(
    ("claim", "passage"),
    [
        ("The ollama command-line client talks to the Ollama server over HTTP [S1].", OLLAMA),
        ("Sam Gross wrote PEP 703, and the Python Steering Council accepted it [S1].", PEP),
        # A term moved from one end to the other: nothing stands between, it is not an exchange.
        ("In 2023 the Steering Council accepted PEP 703 [S1].", "The Steering Council accepted PEP 703 in 2023."),
        ("The Steering Council accepted PEP 703 in 2023 [S1].", "In 2023 the Steering Council accepted PEP 703."),
        # Items of one list in another order (a symmetric coordination).
        ("The release adds support for Linux, Windows and macOS [S1].",
         "The release adds support for macOS, Windows and Linux."),
        ("Ollama and LangGraph run locally [S1].", "LangGraph and Ollama run locally."),
    ],
)
def test_the_same_roles_in_another_order_stay_supported(claim, passage):
    assert assess(claim, passage, "en").outcome == "supported"


def test_a_passive_on_one_side_turns_the_order_round_by_itself():
    found = assess("PEP 703 was accepted by the Steering Council [S1].", "The Steering Council accepted PEP 703.", "en")
    assert found.reason not in ("role_swap", "role_unclear")
    assert english_exchange("PEP 703 was accepted by the Steering Council.", "The Steering Council accepted PEP 703.") is None


def test_the_exchange_names_both_terms_and_whether_it_is_sure():
    assert english_exchange("The ollama command-line server talks to the Ollama client over HTTP.", OLLAMA) == (
        "server", "client", True)
    assert english_exchange("Python is fast and Rust is safe.", "Rust is safe and Python is fast.") is None
    assert english_exchange("Members include Alice, Bob and Carol.", "Members include Carol, Bob and Alice.") is None


# --- 2. compound directions -------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("claim", "passage", "language", "bound", "given"),
    [
        ("Mount Fuji is an active stratovolcano on Honshu, about 100 km north-east of Tokyo [S1].", FUJI_EN, "en",
         "north-east", "south-west"),
        ("Mount Fuji is an active stratovolcano on Honshu, about 100 km northeast of Tokyo [S1].",
         "Mount Fuji is an active stratovolcano on Honshu, about 100 km southwest of Tokyo.", "en",
         "northeast", "southwest"),
        ("The lake lies 20 km north-west of the city centre [S1].", "The lake lies 20 km south-east of the city centre.",
         "en", "north-west", "south-east"),
        ("富士山は本州にある活火山で、東京の北東約100 kmに位置する[S1]。", "富士山は本州にある活火山で、東京の南西約100 kmに位置する。",
         "ja", "北東", "南西"),
        ("その湖は市の中心から北西に20 kmのところにある[S1]。", "その湖は市の中心から南東に20 kmのところにある。",
         "ja", "北西", "南東"),
    ],
)
def test_a_compound_direction_in_the_same_slot_is_a_contrast(claim, passage, language, bound, given):
    found = assess(claim, passage, language)
    assert (found.outcome, found.reason) == ("unsupported", "contrast")
    assert (found.bound_value, found.passage_value) == (bound, given)


@pytest.mark.parametrize(
    ("claim", "language"),
    [
        ("Mount Fuji is an active stratovolcano on Honshu, about 100 km south-west of Tokyo [S1].", "en"),
        ("富士山は本州にある活火山で、東京の南西約100 kmに位置する[S1]。", "ja"),
    ],
)
def test_the_same_compound_direction_stays_supported(claim, language):
    passage = FUJI_EN if language == "en" else "富士山は本州にある活火山で、東京の南西約100 kmに位置する。"
    assert assess(claim, passage, language).outcome == "supported"


# --- 3. names in the same slot ----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("claim", "passage", "bound", "given"),
    [
        ("富士山は長野県と山梨県にまたがる活火山です[S1]。", FUJI_JA, "長野県", "静岡県"),
        ("富士山は静岡県と長野県にまたがる活火山です[S1]。", FUJI_JA, "長野県", "山梨県"),
        ("田中さんは大阪市に住んでいる[S1]。", "田中さんは横浜市に住んでいる。", "大阪市", "横浜市"),
        ("PEP 703は鈴木さんが書いた[S1]。", "PEP 703は佐藤さんが書いた。", "鈴木さん", "佐藤さん"),
    ],
)
def test_a_japanese_name_where_the_sentence_has_another_is_contradicted(claim, passage, bound, given):
    found = assess(claim, passage, "ja")
    assert (found.outcome, found.reason) == ("unsupported", "contrast")
    assert (found.bound_value, found.passage_value) == (bound, given)
    assert found.evidence == passage


@pytest.mark.parametrize(
    "claim",
    [
        # A symmetric coordination: both names are in the sentence, in the other order.
        "富士山は山梨県と静岡県にまたがる活火山です[S1]。",
        "富士山は静岡県と山梨県にまたがる活火山です[S1]。",
    ],
)
def test_japanese_names_of_the_sentence_in_another_order_stay_supported(claim):
    assert assess(claim, FUJI_JA, "ja").outcome == "supported"


def test_an_english_name_in_the_same_slot_is_contradicted_only_word_for_word():
    source = "Sam Gross wrote PEP 703 in 2023."
    sure = assess("Guido Rossum wrote PEP 703 in 2023 [S1].", source, "en")
    assert (sure.outcome, sure.reason) == ("unsupported", "contrast")
    assert (sure.bound_value, sure.passage_value) == ("Guido Rossum", "Sam Gross")
    # Another word differs too: for the judge, never supported.
    unsure = assess("Guido Rossum wrote PEP 703 [S1].",
                    "Sam Gross wrote PEP 703 in 2023. Guido Rossum created Python.", "en")
    assert unsure.outcome == "uncertain"
    assert assess("Sam Gross wrote PEP 703 in 2023 [S1].", source, "en").outcome == "supported"


def test_a_name_given_elsewhere_in_the_passage_is_not_bound_to_this_slot():
    # Every word of the claim is in the passage, but the sentence saying who accepted PEP 703
    # names the Steering Council, not Guido Rossum.
    passage = "Guido Rossum created Python in 1991. The Python Steering Council accepted PEP 703."
    found = assess("The Python Guido Rossum accepted PEP 703 [S1].", passage, "en")
    assert found.outcome != "supported"


# --- what RAGTruth's clean sentences taught (train split) -------------------------------------------


@pytest.mark.parametrize(
    ("claim", "passage"),
    [
        # Two verbs in each other's places are words of one meaning here, not roles.
        ("Click Start, select Printers and Faxes, and then choose Add a Printer from Printer Tasks in the left pane [S1].",
         "Click Start, choose Printers and Faxes, and then select Add a Printer from Printer Tasks in the left pane."),
        # One name written two ways is not another name.
        ("Holmes was one of six pre-thesis PhD students who were awarded a training grant from the National "
         "Institutes of Health [S1].",
         "Holmes was one of six pre-thesis Ph.D. students who were awarded a training grant from the National "
         "Institutes of Health."),
        ("Fans will vote on America's Favorite Houseguest during the final week of Big Brother 25 [S1].",
         "Fans will vote on AFH during the final week of Big Brother 25."),
        ("東大の研究チームが新しい材料を発表した[S1]。", "東京大学の研究チームが新しい材料を発表した。"),
    ],
)
def test_synonyms_and_one_name_written_two_ways_are_not_contradicted(claim, passage):
    language = "ja" if "。" in passage else "en"
    assert assess(claim, passage, language).outcome != "unsupported"


def test_adjectives_of_nationality_exchanged_are_contradicted():
    # RAGTruth's annotators let this pass; the source says the Maltese authorities said it.
    found = assess("Italian authorities, who are working with Maltese rescuers, said 50 people had been saved [S1].",
                   "Maltese authorities, who are working with Italian rescuers, said 50 people had been saved.", "en")
    assert (found.outcome, found.reason) == ("unsupported", "role_swap")


# The local web's energy page (tests/fixtures/web_fixture.py ENERGY_JA): a decimal point read as a full
# stop cut 「太陽光発電が9.2%で最も多く」 from its subject, and the case particle で before 続いた was read
# as the て-form of an auxiliary, so no role could be confirmed and the real 1.5B model's true summary
# stayed "not checked".
ENERGY_JA = ("2022年度の日本の発電電力量に占める再生可能エネルギーの割合は21.7%だった。\n\n"
             "再生可能エネルギーの内訳では太陽光発電が9.2%で最も多く、水力発電が7.6%で続いた。\n\n"
             "日本の発電では火力が最も多く、次いで水力発電が続いている。風力発電は近年増えている。")


@pytest.mark.parametrize(("claim", "supported"), [
    ("日本の再生可能エネルギーの内訳は太陽光発電が最も多く、水力発電が7.6%で続いた[S1]。", True),
    # The two exchanged: their roles are not the sentence's (for the judge, never supported).
    ("再生可能エネルギーの内訳では水力発電が最も多く、太陽光発電が9.2%で続いた[S1]。", False),
])
def test_roles_are_read_across_a_decimal_figure(claim, supported):
    found = assess(claim, ENERGY_JA, "ja")
    assert (found.outcome == "supported") is supported, found.reason


# JSQuAD v1.3 valid (the ウィキデータ page, `research bench jsquad --seed 103`, the real 1.5B model's Summary): the
# page writes the noun in brackets, and the bracket ended it before its particle, so 修飾子 had no role and the
# model's sentence, the page's own words, stayed "not checked".
WIKIDATA_JA = ("また、「修飾子」を使用して、文に追加情報を付け加えて文の意味を絞り込むこともできる。"
               "また、「情報源」を使用して、その文の内容の出典はどこかということを示すことも可能である。")


@pytest.mark.parametrize(("claim", "supported"), [
    ("修飾子を使用して、文に追加情報を付け加えて文の意味を絞り込むことが可能である[S1]。", True),
    ("「修飾子」を使用して、文に追加情報を付け加えて文の意味を絞り込むことができる[S1]。", True),
    # What the page says of 「修飾子」, given to 「情報源」: still not the page's roles.
    ("情報源を使用して、文に追加情報を付け加えて文の意味を絞り込むことができる[S1]。", False),
])
def test_a_noun_in_brackets_keeps_the_role_of_the_particle_after_them(claim, supported):
    found = assess(claim, WIKIDATA_JA, "ja")
    assert (found.outcome == "supported") is supported, found.reason


# JSQuAD v1.3 valid (the コンゴ共和国 page, `research bench jsquad --seed 103`): after the page's answer, the real
# 1.5B model's Summary went on 「コンゴはバントゥー語で「コンゴ共和国」を表しています」, not checked (コンゴ共和国 is on
# the page, as the country's name in Japanese).
CONGO_JA = "# コンゴ共和国\n\n日本語の表記はコンゴ共和国。「コンゴ」はバントゥー語で「山」を意味する。"


@pytest.mark.parametrize("claim", [
    "コンゴはバントゥー語で「コンゴ共和国」を表しています[S1]。",
    "「コンゴ」はバントゥー語で「コンゴ共和国」を意味する[S1]。",
])
def test_a_term_in_brackets_where_the_page_brackets_another_is_decided_against(claim):
    found = assess(claim, CONGO_JA, "ja")
    assert found.outcome == "unsupported" and found.reason == "contrast", found.reason
    assert "「山」" in found.evidence


@pytest.mark.parametrize("claim", [
    "「コンゴ」はバントゥー語で「山」を意味する[S1]。",
    "コンゴはバントゥー語で山を意味する[S1]。",
    # A term the page brackets too, in another sentence: not exchanged for the one this sentence brackets.
    "「コンゴ」はバントゥー語で「山」を意味し、日本語の表記は「コンゴ共和国」である[S1]。",
])
def test_the_term_the_page_brackets_is_not_decided_against(claim):
    found = assess(claim, CONGO_JA + "正式名称は「コンゴ共和国」。", "ja")
    assert found.reason != "contrast", found.evidence


@pytest.mark.parametrize(("claim", "supported"), [
    # The real 1.5B model's finding (`bench_answers.py --ollama`, 2026-12-01, 「日本の再生可能エネルギーの内訳は？」),
    # supported: 太陽光発電 is the most of the page's other scope (the renewables' breakdown).
    ("太陽光発電は日本の発電で最も多く、次いで水力発電が続いている[S1]。", False),
    ("日本の発電では太陽光発電が最も多い[S1]。", False),
    ("日本の発電では火力が最も多く、次いで水力発電が続いている[S1]。", True),
    ("再生可能エネルギーの内訳では太陽光発電が最も多い[S1]。", True),
])
def test_the_most_of_one_scope_is_not_the_most_of_another(claim, supported):
    found = assess(claim, ENERGY_JA, "ja")
    assert (found.outcome == "supported") is supported, (found.reason, found.evidence)
    if not supported:
        assert found.reason == "contrast" and "火力が最も多く" in found.evidence


@pytest.mark.parametrize(("claim", "decided_against"), [
    # The real 1.5B model's findings under the planner's sub-questions 「…何が最も効果的ですか？」 and 「…何が最も
    # 安全ですか？」 (`bench_answers.py --ollama`, 2026-12-02, 「日本の再生可能エネルギーの内訳は？」), left "not checked" in
    # the answer: the page says solar is the most of the breakdown by share, and writes neither 効果 nor 安全.
    ("太陽光発電は日本の再生可能エネルギーの内訳で最も効果的です[S1]。", True),
    ("太陽光発電は日本の再生可能エネルギーの内訳で最も安全です[S1]。", True),
    ("再生可能エネルギーの内訳では太陽光発電が最も効果的である[S1]。", True),
    # The page's own respect, in its words or another form of them.
    ("太陽光発電は日本の再生可能エネルギーの内訳で最も多い[S1]。", False),
    ("再生可能エネルギーの内訳では太陽光発電が9.2%で最も多く、水力発電が7.6%で続いた[S1]。", False),
])
def test_the_most_in_a_respect_the_page_does_not_write(claim, decided_against):
    found = assess(claim, ENERGY_JA, "ja")
    assert (found.outcome == "unsupported") is decided_against, (found.outcome, found.reason)
    if decided_against:
        assert found.reason == "missing_term" and "太陽光発電が9.2%で最も多く" in found.evidence


@pytest.mark.parametrize(("claim", "written"), [
    # The respect written elsewhere on the page: not this check's to decide.
    ("太陽光発電は日本の再生可能エネルギーの内訳で最も効果的です[S1]。", "太陽光発電は効果的な発電方法とされる。"),
])
def test_the_most_in_a_respect_the_page_writes_elsewhere_is_left_open(claim, written):
    found = assess(claim, ENERGY_JA + written, "ja")
    assert found.outcome != "unsupported", (found.reason, found.evidence)


@pytest.mark.parametrize(("claim", "decided_against"), [
    # The real 1.5B model's Summary (`bench_answers.py --ollama`, 2026-12-01, 「日本の再生可能エネルギーの内訳は？」),
    # kept "not checked": 火力 is on the page only as the most of Japan's whole generation, not in the
    # renewables' breakdown, whose own sentence lists 太陽光発電 and 水力発電.
    ("日本の再生可能エネルギーの内訳は太陽光発電が最も多く、水力発電が次いで火力発電が続いている[S1]。", True),
    ("再生可能エネルギーの内訳では太陽光発電が最も多く、次いで火力が続いている[S1]。", True),
    ("太陽光発電は日本の再生可能エネルギーの内訳で最も多く、水力発電は次いで火力発電が続いている[S1]。", True),
    # What the breakdown's sentence says, and a term the page says as a topic of its own (風力発電は…).
    ("日本の再生可能エネルギーの内訳は太陽光発電が最も多く、水力発電が続いた[S1]。", False),
    ("再生可能エネルギーの内訳では太陽光発電が最も多く、風力発電は近年増えている[S1]。", False),
    # Said of the scope it is said of on the page.
    ("日本の発電では火力が最も多く、次いで水力発電が続いている[S1]。", False),
])
def test_an_item_of_one_scope_is_not_listed_in_another(claim, decided_against):
    found = assess(claim, ENERGY_JA + "風力発電の割合は0.9%にとどまった。", "ja")
    assert (found.outcome == "unsupported") is decided_against, (found.outcome, found.reason)
    if decided_against:
        assert found.reason == "said_of_another" and "日本の発電では火力が最も多く" in found.evidence


# The real 1.5B model's answer to 「富士山の最後の噴火はいつ？」 (bench_answers.py --ollama, 2026-11-30) put the
# page's 宝永噴火 where its sentences say 富士山: every word is on the page, in other sentences, and four
# false sentences were supported. The page is the local web's Fuji pages, cut and joined (the hazard
# map's opening sentence first, as that document opens).
FUJI_PAGE_JA = ("この資料は富士山の火山防災についてまとめたものである。\n\n"
                "富士山は日本で最も高い山です。富士山の標高は3,776メートルです。\n\n"
                "富士山は静岡県と山梨県にまたがる活火山である。富士山は2013年に世界文化遺産に登録された。\n\n"
                "富士山の最後の噴火は1707年の宝永噴火です。宝永噴火では江戸（現在の東京）にも火山灰が降りました。"
                "宝永噴火の火山灰は江戸まで達しました。")


@pytest.mark.parametrize(("claim", "supported"), [
    ("宝永噴火は富士山の標高3,776メートルです[S1]。", False),
    ("宝永噴火は富士山の活火山です[S1]。", False),
    ("宝永噴火は2013年に世界文化遺産に登録されました[S1]。", False),
    ("宝永噴火は富士山の火山防災資料をまとめたものです[S1]。", False),
    ("富士山の最後の噴火は1707年の宝永噴火です[S1]。", True),
    ("宝永噴火の火山灰は江戸まで達しました[S1]。", True),
    ("富士山は2013年に世界文化遺産に登録された[S1]。", True),
    # Two facts joined: the topic's own clause is read with it.
    ("富士山の標高は3,776メートルで、最後の噴火は1707年の宝永噴火です[S1]。", True),
])
def test_a_topic_the_page_says_none_of_it_of_is_not_supported(claim, supported):
    found = assess(claim, FUJI_PAGE_JA, "ja")
    assert (found.outcome == "supported") is supported, found.reason


# JSQuAD v1.3 valid a14985p45q0 (`research bench jsquad --sample 5 --seed 121`, 「日本共産党議員として初の国会委員長の名前は」),
# the real 1.5B model: the question's topic put on the page's sentence about the party's congress, a comma right after
# it; every word is on the page, the topic in the sentence after, and it was supported. The page (日本共産党), quoted.
PARTY_PAGE_JA = ("# 日本共産党\n\n1970年7月の第11回大会で、革新統一戦線によって1970年代の遅くない時期に民主連合政府を作るとの政権構想を"
                 "打ち出し。1972年の第33回衆議院議員総選挙では38名の候補者が当選し、議会第3党、野党第2党に躍進する。また、同年には"
                 "田代文久が特別委員会の石炭対策委員会委員長に選出され、共産党議員として初の国会委員長が、誕生した。")


@pytest.mark.parametrize(("claim", "passage", "supported"), [
    ("日本共産党議員として初の国会委員長は、1970年7月の第11回大会で、革新統一戦線によって1970年代の遅くない時期に"
     "民主連合政府を作るとの政権構想を打ち出し[S1]。", PARTY_PAGE_JA, False),
    # The page says what its topic is in the sentence before, or in its heading (JSQuAD answers kept in the replay).
    ("ニーダーザクセン州の州都は、ハノーファーです[S1]。",
     "# ハノーファー\n\nハノーファー（ ）は、ライネ川沿いにある北ドイツの主要都市のひとつ。ニーダーザクセン州の州都である。", True),
    ("大治の前の日本の元号は、天治です[S1]。", "# 天治\n\nは、日本の元号の一つ。保安の後、大治の前。1124年から1126年までの期間を指す。", True),
])
def test_a_topic_followed_by_a_comma_is_read_with_the_clause_after_it(claim, passage, supported):
    found = assess(claim, passage, "ja")
    assert (found.outcome == "supported") is supported, found.reason


# The real 1.5B model's answer to 「日本の再生可能エネルギーの内訳は？」 (bench_answers.py --ollama,
# 2026-11-30 03:58) gave solar the share of all renewables, supported: its topic 太陽光発電 is on the page
# only in the sentence after the one with 21.7%, and half of it (発電) is in that one's 発電電力量.
ENERGY_TWO_SENTENCES_JA = ("2022年度の日本の発電電力量に占める再生可能エネルギーの割合は21.7%だった。"
                           "再生可能エネルギーの内訳では太陽光発電が9.2%で最も多く、水力発電が7.6%で続いた。")


@pytest.mark.parametrize(("claim", "supported"), [
    ("太陽光発電は日本の発電電力量に占める再生可能エネルギーの割合が21.7%で最も多く、水力発電が7.6%で続いた[S1]。", False),
    ("再生可能エネルギーの内訳では太陽光発電が9.2%で最も多く、水力発電が7.6%で続いた[S1]。", True),
    ("日本の再生可能エネルギーの割合は21.7%だった[S1]。", True),
    ("太陽光発電は9.2%で最も多い[S1]。", True),
])
def test_a_topic_said_only_in_a_later_sentence_does_not_lend_itself_to_an_earlier_one(claim, supported):
    found = assess(claim, ENERGY_TWO_SENTENCES_JA, "ja")
    assert (found.outcome == "supported") is supported, found.reason


# The real 1.5B model's answer to "Mount Fuji (富士山): how high is it and when did it last erupt?"
# (bench_answers.py --ollama, 2026-11-30 03:58) gave the UNESCO listing to the eruption, supported:
# every word on the page (the local web's English Fuji page), the listing said of Mount Fuji.
FUJI_PAGE_EN = ("Mount Fuji is 3,776 m (12,388 ft) tall.\n\n"
                "The last eruption of Mount Fuji was the Hōei eruption, which began on 16 December 1707.\n\n"
                "The 1707 Hōei eruption spread volcanic ash as far as Edo, the city that is now Tokyo.\n\n"
                "Mount Fuji was added to the UNESCO World Heritage List as a cultural site in 2013.")


@pytest.mark.parametrize(("claim", "supported"), [
    ("The 1707 Hōei eruption was the last eruption of Mount Fuji, and it was added to the UNESCO World Heritage "
     "List as a cultural site in 2013 [S1].", False),
    ("The Hōei eruption was added to the UNESCO World Heritage List as a cultural site in 2013 [S1].", False),
    ("Mount Fuji was added to the UNESCO World Heritage List in 2013 [S1].", True),
    ("Mount Fuji is 3,776 m tall, and it was added to the UNESCO World Heritage List in 2013 [S1].", True),
    ("The last eruption of Mount Fuji was the Hōei eruption, which began on 16 December 1707 [S1].", True),
    ("The 1707 Hōei eruption spread volcanic ash as far as Edo [S1].", True),
])
def test_a_predicate_the_page_says_of_another_subject_is_not_supported(claim, supported):
    found = assess(claim, FUJI_PAGE_EN, "en")
    assert (found.outcome == "supported") is supported, found.reason


# JSQuAD v1.3 valid, the page 落語家 (a18873p16): what it says of the shin'uchi system, and a page whose
# sentence has no topic of its own (ラオス, from the eleventh round).
RAKUGO_JA = ("# 落語家\n\n真打制度は戦前には上方にも存在した。 しかし、戦中から終戦直後の時期において大阪では落語より漫才が"
             "好まれたこともあり、事実上上方落語が崩壊していた時期に消滅した。")


def test_what_the_page_says_of_one_thing_said_of_another_in_japanese_is_not_supported():
    # The real 1.5B model's 「落語家は戦前には上方にも存在した」 was listed supported: 落語 is on the page
    # (上方落語), so every word was found, while the sentence it copies speaks of 真打制度. Word for word but
    # for its topic, it is decided against, the page's sentence shown (``topic_of_another``).
    exchanged = assess("落語家は戦前には上方にも存在した[S1]。", RAKUGO_JA, "ja")
    assert (exchanged.outcome, exchanged.reason) == ("unsupported", "said_of_another")
    assert exchanged.evidence.startswith("真打制度は戦前には上方にも存在した。")
    # In other words it is left to the judge, as before.
    exchanged = assess("落語家は戦前は上方にもいた[S1]。", RAKUGO_JA, "ja")
    assert exchanged.outcome == "uncertain"
    # JSQuAD v1.3 valid a59579p12q4 (`research bench jsquad --seed 83`), the real 1.5B model, kept "not
    # checked" in its answer; the page ドミニカ国's two sentences, quoted.
    dominica = ("# ドミニカ国\n\n住民は、アフリカ系、ヨーロッパ系、ムラートなどである。 コロンブスが来る前から住んでいた先住民のカリブ族が残って"
                "いるのは、東カリブではこの国だけである。")
    exchanged = assess("カリブ族はアフリカ系、ヨーロッパ系、ムラートなどである[S1]。", dominica, "ja")
    assert (exchanged.outcome, exchanged.reason) == ("unsupported", "said_of_another")
    assert assess("ドミニカ国の住民は、アフリカ系、ヨーロッパ系、ムラートなどである[S1]。", dominica, "ja").outcome == "supported"
    # A name for what the page says of its own topic, a name no page has: JSQuAD v1.3 valid a113522p13q2
    # (`research bench jsquad --seed 89`), kept "not checked" in its Summary (停戦, 維持 and 軍 are each on the
    # page). The page's sentence, quoted.
    peacekeeping = ("# 国際連合平和維持活動\n\n平和維持軍は停戦ライン付近に監視所・陣地を構築してそこに部隊を配し、停戦監視または兵力"
                    "展開や部隊移動の統制、捕虜交換の実施、武器密輸の阻止、避難民キャンプの運営支援などを実施する。")
    described = "停戦監視または兵力展開や部隊移動の統制、捕虜交換の実施、武器密輸の阻止、避難民キャンプの運営支援などを実施する軍隊は"
    exchanged = assess(described + "「停戦維持軍」です[S1]。", peacekeeping, "ja")
    assert (exchanged.outcome, exchanged.reason) == ("unsupported", "said_of_another")
    assert assess(described + "「平和維持軍」です[S1]。", peacekeeping, "ja").reason != "said_of_another"
    # After a connective too: the real 1.5B model's 「しかし、量子ビットは2つの量子ビットの状態を結びつける」
    # (bench_answers.py --ollama, 「量子ビットとは？」) against its page's sentence, quoted.
    qubits = "# 量子ビット\n\n量子ビットは、0と1の重ね合わせの状態をとることができる。量子もつれは2つの量子ビットの状態を結びつける。"
    exchanged = assess("しかし、量子ビットは2つの量子ビットの状態を結びつける[S1]。", qubits, "ja")
    assert (exchanged.outcome, exchanged.reason) == ("unsupported", "said_of_another")
    assert assess("真打制度は戦前には上方にも存在した[S1]。", RAKUGO_JA, "ja").outcome == "supported"
    # A sentence with no topic of its own takes the claim's from its heading, as before.
    assert assess("ラオスの国民議会は132議席である[S1]。", "# ラオス\n\n132議席で、民選、任期5年。", "ja").outcome \
        != "unsupported"


def test_a_note_in_brackets_inside_the_pages_topic_is_not_a_topic_the_claim_exchanged():
    # JSQuAD v1.3 valid (`research bench jsquad --sample 5 --seed 143`), the real 1.5B model: its 「日本共産党の支出の内訳
    # は、…」, the page's sentence word for word under «# 日本共産党», was left not checked for 翌年 and 繰越, the
    # note in the page's topic. The page's sentence, quoted.
    page = ("# 日本共産党\n\n支出（翌年への繰越を含む）の内訳は、経常経費が約37億8400万円、政治活動費が205億2200万円（うち、「本部又は"
            "支部に対して供与した交付金に係る支出の内訳」が76億6300万円）となっている。")
    said = ("日本共産党の支出の内訳は、経常経費が約37億8400万円、政治活動費が205億2200万円（うち、「本部又は支部に対して供与した"
            "交付金に係る支出の内訳」が76億6300万円）となっている[S1]。")
    assert assess(said, page, "ja").outcome == "supported"
    # A topic word exchanged outside the note is still an exchange.
    exchanged = "日本共産党の収入の内訳は、経常経費が約37億8400万円、政治活動費が205億2200万円となっている[S1]。"
    assert assess(exchanged, page + "収入は党費である。", "ja").outcome != "supported"


def test_things_named_as_not_done_that_the_page_names_with_that_act_are_decided_against():
    # JSQuAD v1.3 valid (`research bench jsquad --sample 5 --seed 143`), the real 1.5B model's Summary to 「日本共産党が
    # 支出していない項目は？」 named what the page lists as spent; it was left not checked (項目 missing). The page's
    # sentences, quoted.
    page = ("# 日本共産党\n\n支出（翌年への繰越を含む）の内訳は、経常経費が約37億8400万円、政治活動費が205億2200万円となっている。"
            "機関紙誌の発行事業費は政治活動費に含まれ、148億8100万円と支出全体の64%を占める。"
            "企業・団体献金や政党交付金は受け取っていない。")
    denied = assess("日本共産党が支出していない項目は、政治活動費と機関紙誌の発行事業費である[S1]。", page, "ja")
    assert (denied.outcome, denied.reason) == ("unsupported", "negation"), denied
    assert "支出" in denied.evidence and "政治活動費" in denied.evidence, denied.evidence
    # What the page itself says is not done, and an act the page never names with the thing, are not decided so.
    for claim in ("日本共産党が受け取っていない項目は、政党交付金である[S1]。",
                  "日本共産党が寄付していない項目は、政治活動費である[S1]。"):
        assert assess(claim, page, "ja").reason != "negation", claim


# JSQuAD v1.3 valid, the page オランダ (jsquad-010-038, the real 1.5B model at 6c0ca5f, --seed 66): one
# word of the topic's compound exchanged (機械工業 → 金属工業), the other word on the page elsewhere.
NETHERLANDS_JA = ("機械工業の中心地はアイントホーヘンとナイメーヘンである。 オランダは鉱物資源が乏しいにもかかわらず、"
                  "20世紀に入って金属工業を確立した。")


def test_a_topic_with_one_word_exchanged_in_japanese_is_not_supported():
    exchanged = assess("金属工業の中心地はアイントホーヘンとナイメーヘンである[S1]。", NETHERLANDS_JA, "ja")
    # The page's noun before の, another noun of the same page put in its place (modifier_noun_of_another): decided
    # against with the page's sentence, its noun given for the verification node's repair (it was left to the judge).
    assert (exchanged.outcome, exchanged.reason, exchanged.missing) == ("unsupported", "missing_term", ["金属工業の中心地"])
    assert "機械工業の中心地" in exchanged.evidence
    assert assess("機械工業の中心地はアイントホーヘンとナイメーヘンである[S1]。", NETHERLANDS_JA, "ja").outcome == "supported"
    assert assess("オランダは20世紀に入って金属工業を確立した[S1]。", NETHERLANDS_JA, "ja").outcome == "supported"


def test_a_topic_given_the_headings_word_in_japanese_is_not_supported():
    # The fifteenth round's noticed case (JSQuAD, page 国際連合平和維持活動, the real 1.5B model): the
    # page's subject 国連広報の方針 written as 平和維持活動の方針, the heading's words, which count as the
    # passage's. Written here in that shape.
    page = "# 国際連合平和維持活動\n\n国連広報の方針は、報道機関の取材活動を妨げないことである。"
    exchanged = assess("平和維持活動の方針は、報道機関の取材活動を妨げないことである[S1]。", page, "ja")
    # Another noun of the page (its title's) before の in the page's sentence said word for word: decided against, the
    # page's noun given for the repair (modifier_noun_of_another; it was left to the judge).
    assert (exchanged.outcome, exchanged.reason) == ("unsupported", "missing_term")
    assert "国連広報の方針" in exchanged.evidence
    assert assess("国連広報の方針は、報道機関の取材活動を妨げないことである[S1]。", page, "ja").outcome == "supported"


def test_a_topic_with_the_page_s_title_put_before_it_is_the_page_s_topic():
    # JSQuAD v1.3 valid, the page オランダ (jsquad-010-032, `research bench jsquad --sample 5 --seed 114`): the real
    # 1.5B model's answer, the gold one, put オランダ, the title, before the page's topic and dropped its relative
    # clause (かつて政府が担っていた); it was left not checked as a topic exchanged, and taken out.
    page = ("# オランダ\n\nかつて政府が担っていた農家への普及指導業務は1990年代に民営化され、現在ではほとんどの農家が"
            "民間コンサルティング会社を利用している。最大手のデルフィー社は日本を含めて約50か国に進出している。")
    said = assess("オランダの農家への普及指導業務は1990年代に民営化されたが、現在民間コンサルティング会社の最大手は"
                  "デルフィー社です[S1]。", page, "ja")
    assert said.outcome == "supported", said
    # Another country before it is still a word the page does not write.
    other = assess("ベルギーの農家への普及指導業務は1990年代に民営化された[S1]。", page, "ja")
    assert (other.outcome, other.missing) == ("uncertain", ["ベルギー"])


# JSQuAD v1.3 valid, the page ラオス (jsquad-006-043), three of its sentences as the bench's corpus has them.
LAOS_JA = ("# ラオス\n\n言語はラーオ語が公用語である。その他、各民族語が使われている。英語は、ホテルなどで通じる。"
           "また、70代以上でフランス式教育を受けた者や政府幹部、エリートなどはフランス語も通用する。")


@pytest.mark.parametrize(("claim", "supported"), [
    # The real 1.5B model (`research bench jsquad --sample 5 --seed 68`, a question on the official
    # language): left "roles not confirmed" though the page says it with が for は.
    ("ラオスの公用語はラーオ語である[S1]。", True),
    ("公用語はラーオ語です[S1]。", True),
    # What the copula says the official language is, found only where the page speaks of other things:
    # every word is on the page, so the quick checks supported both.
    ("ラオスの公用語はフランス語である[S1]。", False),
    ("ラオスの公用語は英語である[S1]。", False),
])
def test_what_a_japanese_copula_says_its_subject_is_must_be_said_of_that_subject(claim, supported):
    found = assess(claim, LAOS_JA, "ja")
    assert (found.outcome == "supported") is supported, (found.outcome, found.reason)


# JSQuAD v1.3 valid, the page ポルトガル: one sentence, as the bench's corpus has it.
PORTUGAL_JA = ("# ポルトガル\n\nその後、711年にマグレブからのムーア人によるイベリア半島の侵略で西ゴート族のポルトガル地域支配に"
               "終止符が打たれ、ムーア人の文化はポルトガル地域南部の芸術と建築に強い影響を与えることとなった。")


def test_what_a_japanese_verbal_noun_says_ended_is_what_the_source_says_ended():
    # The real 1.5B model (`research bench jsquad --sample 5 --seed 68`, 「…イベリア半島の侵略はいつ？」)
    # wrote the invasion as what ended in 711, supported: the page ends the Visigoths' rule by it.
    ended = assess("マグレブからのムーア人によるイベリア半島の侵略は711年に終止しました[S1]。", PORTUGAL_JA, "ja")
    assert (ended.outcome, ended.reason) == ("uncertain", "roles_unconfirmed")
    assert assess("西ゴート族のポルトガル地域支配は711年に終止しました[S1]。", PORTUGAL_JA, "ja").outcome == "supported"


# JSQuAD v1.3 valid, the page 核酸塩基 (jsquad-025-006), two sentences as the bench's corpus has them (the
# set leaves out the example's name: 「例えば、は、」).
BASES_JA = ("# 核酸塩基\n\n例えば、は、マイクロアレイでcRNAやcDNAを標識するために利用される。遺伝暗号を拡張するための"
            "新たな塩基対として、とや、蛍光を有する2-amino-6-(2-thienyl)purineとpyrrole-2-carbaldehydeなどの利用が"
            "試みられている。")


def test_a_japanese_cleft_whose_halves_the_page_says_apart_is_not_supported():
    # The real 1.5B model (`research bench jsquad --sample 5 --seed 72`) answered 「マイクロアレイでcRNAや
    # cDNAを標識するために利用されるのは？」 by gluing the next sentence to the question: supported.
    glued = assess("マイクロアレイでcRNAやcDNAを標識するために利用されるのは、遺伝暗号を拡張するための新たな塩基対"
                   "として、とや、蛍光を有する2-amino-6-(2-thienyl)purineとpyrrole-2-carbaldehydeなどの利用が"
                   "試みられている[S1]。", BASES_JA, "ja")
    assert (glued.outcome, glued.reason) == ("uncertain", "missing_term")
    # Both halves in one sentence: as before.
    haiti = "2016年12月1日、国連の事務総長が、ネパールの部隊がハイチにコレラを持ち込んだことを認めた。"
    assert assess("ハイチにコレラを持ち込んだのはネパールの部隊である[S1]。", haiti, "ja").outcome == "supported"


# JSQuAD v1.3 valid, the page オランダ (jsquad-010-038), two sentences as the bench's corpus has them.
NETHERLANDS_SHIPYARDS_JA = ("# オランダ\n\n60年代の半ばには従業員50人以上の造船所の数は約100であったが、近年は船舶の建造より有利な石油化学工場の"
                  "建設工事に切り替える傾向にある。オランダは鉱物資源が乏しいにもかかわらず、20世紀に入って金属工業を確立した。")


def test_a_participant_is_confirmed_only_beside_the_predicate_where_the_passages_have_it():
    # The real 1.5B model (`research bench jsquad --sample 5 --seed 66`) listed 金属工業の確立 among what
    # shipbuilding turned to, taking it from the next sentence. Here the same list given to 確立 (written for
    # this test): the passage naming 石油化学工場 without 確立 vouched for it, supported.
    listed = assess("オランダは、金属工業と石油化学工業を確立した[S1]。", NETHERLANDS_SHIPYARDS_JA, "ja")
    assert (listed.outcome, listed.reason) == ("uncertain", "roles_unconfirmed")
    assert assess("オランダは20世紀に金属工業を確立した[S1]。", NETHERLANDS_SHIPYARDS_JA, "ja").outcome == "supported"


def test_a_term_in_brackets_misspelt_is_not_another_term():
    # The real 1.5B model wrote 「6.4 劳働環境」 (one letter in its Chinese form) for the ISO/TS 16949 page's 「6.4 労働環境」
    # (JSQuAD v1.3 valid, `research bench jsquad --seed 94`): a misquotation, which the page's spelling repairs.
    found = assess("例えばISO 9001:2008に「6.4 劳働環境」という項目がある[S1]。",
                   "# ISO/TS 16949\n\n例えばISO 9001:2008に「6.4 労働環境」という項目がある。", "ja")
    assert found.reason != "contrast", found.evidence


def test_a_term_in_brackets_that_another_sentence_says_it_of_is_not_decided_against():
    page = "# 作品\n\n1950年、この作品は「直木賞」の候補となった。\n\nこの作品は芥川賞の候補にもなった。"
    found = assess("この作品は1950年に「芥川賞」の候補となった[S1]。", page, "ja")
    assert found.reason != "contrast", found.evidence


# A Japanese encyclopaedia gives a person's birth and death days in brackets after the name: «グスタフ・マーラー（Gustav
# Mahler, 1860年7月7日 - 1911年5月18日）は、…» (the page JSQuAD v1.3 valid a10743p0q0 asks 「グスタフ・マーラーの誕生日は？」
# of; the real 1.5B model's answer, `research bench jsquad --sample 5 --seed 127`). Its sentence, quoted.
MAHLER_JA = "グスタフ・マーラー（Gustav Mahler, 1860年7月7日 - 1911年5月18日）は、主にオーストリアのウィーンで活躍した作曲家、指揮者。"


@pytest.mark.parametrize(("claim", "outcome"), [
    ("グスタフ・マーラーの誕生日は1860年7月7日です[S1]。", "supported"),
    ("グスタフ・マーラーは1860年7月7日に生まれた[S1]。", "supported"),
    ("グスタフ・マーラーは1860年に生まれました[S1]。", "supported"),
    ("グスタフ・マーラーは1911年5月18日に亡くなった[S1]。", "supported"),
    # The two days exchanged: decided against, the sentence shown.
    ("グスタフ・マーラーの誕生日は1911年5月18日です[S1]。", "unsupported"),
    ("グスタフ・マーラーは1860年7月7日に死去した[S1]。", "unsupported"),
])
def test_the_days_in_brackets_after_a_name_are_its_birth_and_death(claim, outcome):
    found = assess(claim, MAHLER_JA, "ja")
    assert found.outcome == outcome, (found.outcome, found.reason)
    assert "1860年7月7日 - 1911年5月18日" in found.evidence


@pytest.mark.parametrize("claim", [
    # What the brackets do not say: where, or of whom else.
    "グスタフ・マーラーは1860年7月7日にウィーンで生まれた[S1]。",
    "アルマ・マーラーは1860年7月7日に生まれた[S1]。",
])
def test_the_brackets_say_nothing_more_than_the_two_days_of_that_name(claim):
    assert assess(claim, MAHLER_JA, "ja").outcome != "supported"


def test_a_reign_in_brackets_is_no_lifespan():
    found = assess("エリザベス1世は1558年に生まれた[S1]。", "エリザベス1世（在位：1558年11月17日 - 1603年3月24日）はイングランドの女王。", "ja")
    assert found.outcome != "supported", found.reason


# PubMedQA 14612308 (`research bench pubmedqa --sample 4 --seed 126`, the real 1.5B model): "a strong correlation
# between PRISM scores and LOS, with the Pearson coefficient of correlation being 0.08" was left not checked; a
# coefficient of 0.08 is no strong correlation by any reading. The page's sentence, quoted.
PRISM_EN = ("The Spearman and Pearson coefficients of correlation between PRISM and LOS were 0.2 (p<0.001) and 0.08 "
            "(p = 0.0003), the latter being slightly higher when LOS was logarithmically transformed.")


@pytest.mark.parametrize(("claim", "decided_against"), [
    ("The study found a strong correlation between PRISM scores and LOS, with the Pearson coefficient of correlation "
     "being 0.08 (p = 0.0003) [S1].", True),
    ("PRISM and LOS were highly correlated (Spearman coefficient 0.2) [S1].", True),
    ("The Pearson coefficient of correlation between PRISM and LOS was 0.08 (p = 0.0003) [S1].", False),
    ("There was a weak correlation between PRISM and LOS, with a Pearson coefficient of 0.08 [S1].", False),
])
def test_a_strong_correlation_with_a_small_coefficient_is_decided_against(claim, decided_against):
    found = assess(claim, PRISM_EN, "en")
    assert (found.outcome == "unsupported" and found.reason == "contrast") is decided_against, (found.outcome,
                                                                                                  found.reason)
    if decided_against:
        assert "0.08 (p = 0.0003)" in found.evidence


def test_a_page_that_calls_its_coefficient_strong_is_taken_at_its_word():
    found = assess("PRISM and LOS were strongly correlated (r = 0.25) [S1].",
                   "PRISM and LOS were strongly correlated (r = 0.25, p < 0.001).", "en")
    assert found.outcome == "supported", found.reason


# JSQuAD v1.3 valid a1698820p26q4 (`research bench jsquad --sample 5 --seed 128`, 「オランダ・スイス二国間条約はいつ制定され
# ましたか。」): the real 1.5B model's 「…条約は2017年1月1日以降に制定されました」 stayed, not checked; the page gives the
# treaty its year in brackets, 2017 being when a new rule on work began. The page's sentence, quoted.
TREATY_JA = ("ただし、2016年6月20日、前述の最恵国待遇条項の根拠となったオランダ・スイス二国間条約（1875年）の解釈も見直され、"
             "2017年1月1日以降の労働にあたっては日本人でも通常の労働許可を得なければならないこととなった。")


@pytest.mark.parametrize(("claim", "decided_against"), [
    ("オランダ・スイス二国間条約は2017年1月1日以降に制定されました[S1]。", True),
    ("オランダ・スイス二国間条約は2016年に締結された[S1]。", True),
    ("オランダ・スイス二国間条約は1875年に制定されました[S1]。", False),
    # What else the sentence says of 2017 is no making of the treaty.
    ("2017年1月1日以降の労働にあたっては日本人でも通常の労働許可を得なければならない[S1]。", False),
])
def test_a_year_in_brackets_after_a_name_is_when_it_was_made(claim, decided_against):
    found = assess(claim, TREATY_JA, "ja")
    assert (found.outcome == "unsupported" and found.reason == "number_mismatch") is decided_against, (found.outcome,
                                                                                                        found.reason)
    if decided_against:
        assert "オランダ・スイス二国間条約（1875年）" in found.evidence


# PubMedQA 19054501 (`research bench pubmedqa --sample 4 --seed 127`, the real 1.5B model's Summary): "Yes, eye-tracking
# abnormality is a cause of motion perception deficit in schizophrenia" was supported against the page's «… motion
# perception deficit, which was thought to cause eye-tracking abnormality in schizophrenia.»: cause and effect
# exchanged. The page's sentence, quoted.
MOTION_EN = ("Studies have shown that schizophrenia patients have motion perception deficit, which was thought to cause "
             "eye-tracking abnormality in schizophrenia.")


@pytest.mark.parametrize(("claim", "swapped"), [
    ("Eye-tracking abnormality is a cause of motion perception deficit in schizophrenia [S1].", True),
    ("Eye-tracking abnormality causes motion perception deficit in schizophrenia [S1].", True),
    ("Motion perception deficit is caused by eye-tracking abnormality in schizophrenia [S1].", True),
    ("Motion perception deficit was thought to cause eye-tracking abnormality in schizophrenia [S1].", False),
    ("Eye-tracking abnormality is a consequence of motion perception deficit in schizophrenia [S1].", False),
])
def test_cause_and_effect_exchanged_are_never_supported(claim, swapped):
    # What the page says was thought (its background, which its study goes on to question) does not decide against
    # the other way round: for the judge. What a page states does.
    found = assess(claim, MOTION_EN, "en")
    assert ((found.outcome, found.reason) == ("uncertain", "role_unclear")) is swapped, (found.outcome, found.reason)
    assert found.outcome != "supported" if swapped else found.outcome != "unsupported"
    if swapped:
        assert "which was thought to cause" in found.evidence
    stated = assess(claim, MOTION_EN.replace("which was thought to cause", "which causes"), "en")
    assert (stated.outcome == "unsupported" and stated.reason == "role_swap") is swapped, (stated.outcome,
                                                                                            stated.reason)


# PubMedQA 11053064 (`research bench pubmedqa --sample 4 --seed 127`, the real 1.5B model's Summary): "The study also
# found that fatigue was present in none of the patients with SLE/sSS" stayed, not checked: «none of the patients with
# SLE/sSS» is the page's of FM, and it gives fatigue in that group a count. The page's sentences, quoted.
FATIGUE_EN = ("FM was present in 9/74 patients with pSS (12%), compared with 11/216 lupus patients (5%), and in none of "
              "the patients with SLE/sSS. Fatigue was present in 7/13 (54%) patients with SLE/sSS.")


@pytest.mark.parametrize(("claim", "decided_against"), [
    ("The study also found that fatigue was present in none of the patients with SLE/sSS [S1].", True),
    ("Fatigue was present in none of the patients with SLE/sSS [S1].", True),
    ("FM was present in none of the patients with SLE/sSS [S1].", False),
    ("Fatigue was present in 7/13 patients with SLE/sSS [S1].", False),
])
def test_none_of_a_group_the_page_counts_is_decided_against(claim, decided_against):
    found = assess(claim, FATIGUE_EN, "en")
    assert (found.outcome == "unsupported" and found.reason == "number_mismatch") is decided_against, (found.outcome,
                                                                                                        found.reason)
    if decided_against:
        assert found.evidence.startswith("Fatigue was present in 7/13")


# JSQuAD v1.3 valid, the page ドミニカ国 (`research bench jsquad --sample 5 --seed 136`, the real 1.5B model's answer to the
# planner's 「ケインフィールド空港とドミニカ国の空港は、どちらが最も古い空港？」, left "not checked"): the page names the
# two airports together and compares them in nothing. Quoted; the English page is written here in its shape.
AIRPORTS_JA = ("# ドミニカ国\n\n島内にはケインフィールド空港とメルビル・ホール空港の2つの空港があるが、小型のプロペラ機でしか"
               "発着できない。ドミニカ国へはバルバドスかアンティグア島から連絡機で渡る。")
AIRPORTS_EN = ("# Dominica\n\nThe island has two airports, Canefield Airport and Melville Hall Airport, which only small "
               "propeller aircraft can use. Dominica is reached by connecting flights from Barbados or Antigua.")


@pytest.mark.parametrize(("claim", "passage", "language", "decided_against"), [
    ("ケインフィールド空港は、メルビル・ホール空港よりも古い空港である[S1]。", AIRPORTS_JA, "ja", True),
    ("メルビル・ホール空港はケインフィールド空港より大きい[S1]。", AIRPORTS_JA, "ja", True),
    ("Canefield Airport is older than Melville Hall Airport [S1].", AIRPORTS_EN, "en", True),
    ("Melville Hall Airport is larger than Canefield Airport [S1].", AIRPORTS_EN, "en", True),
    # A comparison the page makes, or figures of each it gives: not this check's to decide.
    ("ケインフィールド空港は、メルビル・ホール空港よりも古い空港である[S1]。",
     AIRPORTS_JA + "ケインフィールド空港はメルビル・ホール空港より古く、1950年代に開かれた。", "ja", False),
    ("ケインフィールド空港は、メルビル・ホール空港よりも古い空港である[S1]。",
     AIRPORTS_JA + "ケインフィールド空港は1950年に開港した。メルビル・ホール空港は1961年に開港した。", "ja", False),
    ("Canefield Airport is older than Melville Hall Airport [S1].",
     AIRPORTS_EN + " Canefield Airport opened in 1950, and Melville Hall Airport in 1961.", "en", False),
])
def test_a_comparison_no_page_makes_between_two_things_it_names_together(claim, passage, language, decided_against):
    found = assess(claim, passage, language)
    assert (found.outcome == "unsupported") is decided_against, (found.outcome, found.reason, found.evidence)
    if decided_against:
        assert found.reason == "missing_term" and ("ケインフィールド空港とメルビル・ホール空港" in found.evidence
                                                   or "Canefield Airport and Melville Hall Airport" in found.evidence)


def test_a_passive_by_is_no_comparison():
    # ja-nli dev, jsick-train-3956 (entailment; quoted): 「により」 says who does it, and compares nothing.
    found = assess("逆立ちが男性により海辺で行われている[S1]。", "男性が海辺で逆立ちを行っている。", "ja")
    assert found.outcome != "unsupported", (found.reason, found.evidence)


@pytest.mark.parametrize(("claim", "passage", "language"), [
    ("Women are more likely than men to develop lupus [S1].", "Lupus affects women and men; women are nine times as "
     "likely to develop it.", "en"),
    ("Women are more likely than men to develop lupus [S1].", "Women are as likely as men to develop lupus.", "en"),
    ("女性は男性よりも狼瘡を発症しやすい[S1]。", "狼瘡は女性と男性に起こり、女性の発症は男性の9倍である。", "ja"),
])
def test_a_comparison_the_page_makes_in_other_words_is_not_decided_here(claim, passage, language):
    found = assess(claim, passage, language)
    assert found.reason != "missing_term" or found.outcome != "unsupported", (found.reason, found.evidence)


@pytest.mark.parametrize(("claim", "passage"), [
    # RAGTruth train (clean answers; their passages quoted in part): a comparison under a condition, or of something a
    # clause describes, is no comparison of two things the page names.
    ("If the oven box is slightly larger than the opening, you can trim around it with molding [S1].",
     "The opening in the wall and the size of the oven box that fits in the wall."),
    ("There are many girls who are stronger than boys, so they should be allowed to compete at their best level [S1].",
     "Girls should play on all-girl teams and boys should play on all-boy teams for many sports."),
])
def test_a_comparison_under_a_condition_is_not_decided_here(claim, passage):
    found = assess(claim, passage, "en")
    assert found.outcome != "unsupported", (found.reason, found.evidence)


# JSQuAD v1.3 valid's サケ page (CC BY-SA 4.0, Japanese Wikipedia), the sentence the real 1.5B model's answer to
# a916079p9q2 rests on (`research bench jsquad --sample 5 --seed 139`), quoted under the page's title as the bench
# serves it.
_SAKE = ("# サケ\n\n近縁のカラフトマスとは分布や産卵期が重複し、産卵床の至適条件が似ているため交雑が生じ交雑個体が捕獲される"
         "ことがある。交雑個体はサケマスと呼ばれ外見は双方の特徴を併せ持っている。")


def test_a_clause_joined_without_a_comma_modifies_no_noun_after_it():
    # The page writes 「交雑が生じ交雑個体が捕獲される」 with no comma: 生じ, the continuative form, joins the next
    # clause and modifies no 交雑個体. Read as a relative clause, even the page's own sentence with the comma the
    # model put in was "roles not confirmed", and the answer's sentence naming カラフトマス stayed "not checked".
    for claim in ("近縁のカラフトマスとサケは分布や産卵期が重複し、産卵床の至適条件が似ているため交雑が生じ、交雑個体が"
                  "捕獲されることがある[S1]。",
                  "近縁のカラフトマスとは分布や産卵期が重複し、産卵床の至適条件が似ているため交雑が生じ、交雑個体が"
                  "捕獲されることがある[S1]。"):
        assert assess(claim, _SAKE, "ja").outcome == "supported", claim
    # What occurs and what is caught, exchanged: not confirmed.
    swapped = "近縁のカラフトマスとは分布や産卵期が重複し、産卵床の至適条件が似ているため交雑個体が生じ、交雑が捕獲されることがある[S1]。"
    assert assess(swapped, _SAKE, "ja").outcome != "supported"

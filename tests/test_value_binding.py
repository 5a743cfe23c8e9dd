"""Values bound to what they measure (issue 29, item 4): a number, date, version or contrast
word of a claim counts where the passage gives it for the same thing, not wherever it occurs."""

import pytest

from research.modules.text.claims import split_claims
from research.modules.text.evidence import EvidenceIndex, assess_claim
from research.modules.text.numbers import extract_numbers, prepare
from research.modules.text.value_binding import number_kind

PEP_EN = ("The Python Steering Council accepted PEP 703 in 2023. Python 3.13, released in October 2024, "
          "ships an experimental free-threaded build.")
PEP_JA = "Python運営委員会は2023年にPEP 703を承認した。Python 3.13は2024年10月にリリースされ、実験的なフリースレッド版を含む。"
SEASONS_EN = "The Earth's position relative to the sun determines seasons. The moon orbits the Earth."
SEASONS_JA = "季節は地球と太陽の位置関係で決まる。月は地球の周りを回っている。"
POWER_JA = "日本の発電量では火力が最も多く、次いで水力発電が続いている。風力発電は近年増えている。"
POWER_EN = ("In Japan's power generation, thermal power is the largest, followed by hydroelectric power. "
            "Wind power has grown in recent years.")
QUBIT_JA = "量子ビットは0と1の重ね合わせの状態をとることができる。古典ビットは0か1のどちらかである。"
QUBIT_EN = "A qubit can be in a superposition of 0 and 1. A classical bit is either 0 or 1."
OLLAMA_EN = "Ollama runs in the background and serves a REST API on port 11434 by default. Models are stored in ~/.ollama."
OLLAMA_JA = "Ollamaはデフォルトでポート11434でREST APIを提供する。モデルは~/.ollamaに保存される。"
ERUPTION_EN = "Mount Fuji is 3,776 m high. Its last eruption began on 16 December 1707 and ended on 1 January 1708."
ERUPTION_JA = "宝永大噴火は1707年（宝永4年）12月16日に始まり、約16日間続き、1708年1月1日に終わりました。"
FUJI_EN = "Mount Fuji is 3,776 m high. Its base is about 40 km across."
FUJI_JA = "富士山の標高は3,776 mである。裾野の直径は約40 kmある。"


def assess(claim: str, passage: str, language: str):
    index = EvidenceIndex([{"label": "S1", "status": "ok", "language": language, "markdown": passage}])
    return assess_claim(split_claims(claim)[0], index)


@pytest.mark.parametrize(
    ("claim", "passage", "language", "reason", "bound", "given"),
    [
        # The year bound to "accepted" is 2023; 2024 is the release of another thing.
        ("The Python Steering Council accepted it in 2024 [S1].", PEP_EN, "en", "number_mismatch", "2024", "2023"),
        ("Python運営委員会は2024年にPEP 703を承認した[S1]。", PEP_JA, "ja", "number_mismatch", "2024年", "2023年"),
        # The moon is in the passage, but what determines the seasons is the sun.
        ("The Earth's position relative to the moon determines seasons [S1].", SEASONS_EN, "en", "contrast", "moon", "sun"),
        ("季節は地球と月の位置関係で決まる[S1]。", SEASONS_JA, "ja", "contrast", "月", "太陽"),
        # 風力 is in the passage, but second place goes to 水力.
        ("日本の発電量では火力が最も多く、次いで風力発電が続いている[S1]。", POWER_JA, "ja", "contrast", "風力", "水力"),
        ("In Japan's power generation, thermal power is the largest, followed by wind power [S1].", POWER_EN, "en",
         "contrast", "wind", "hydroelectric"),
        # "1 and 1" where the passage gives "0 and 1": the second 1 stands where the passage has 0.
        ("量子ビットは1と1の重ね合わせの状態をとる[S1]。", QUBIT_JA, "ja", "number_mismatch", "1", "0"),
        ("A qubit can be in a superposition of 1 and 1 [S1].", QUBIT_EN, "en", "number_mismatch", "1", "0"),
        # Another port in the same slot ("port … by default"): the passage's value is there to correct it.
        ("Ollama serves a REST API on port 11444 by default [S1].", OLLAMA_EN, "en", "number_mismatch", "11444", "11434"),
        ("Ollamaはデフォルトでポート11444でREST APIを提供する[S1]。", OLLAMA_JA, "ja", "number_mismatch", "11444", "11434"),
        # The real 1.5B model (bench_answers.py): the year of the acceptance given to the build that
        # shipped in another year. The claim says both sentences' things; its clause around 2023 says
        # the second's.
        ("Python got free-threading in 2023, with Python 3.13, released in October 2024, shipping an "
         "experimental free-threaded build [S1].", PEP_EN, "en", "number_mismatch", "2023", "2024"),
        ("Pythonは2023年にフリースレッド版を得て、Python 3.13は2024年10月にリリースされた[S1]。", PEP_JA, "ja",
         "number_mismatch", "2023年", "2024年"),
        # One sentence, two events, a year each: the claim gives the end's year to the start (a
        # translation of the real 1.5B model's Japanese, checked against the English page).
        ("Mount Fuji's last eruption began in 1708 [S1].", ERUPTION_EN, "en", "number_mismatch", "1708", "1707"),
        ("宝永大噴火は1708年に始まった[S1]。", ERUPTION_JA, "ja", "number_mismatch", "1708年", "1707年"),
    ],
)
def test_a_value_given_for_another_thing_is_contradicted(claim, passage, language, reason, bound, given):
    found = assess(claim, passage, language)
    assert (found.outcome, found.reason) == ("unsupported", reason)
    assert (found.bound_value, found.passage_value) == (bound, given)
    assert bound in found.missing
    # The evidence shown is the sentence that gives the other value.
    assert given in found.evidence


@pytest.mark.parametrize(
    ("claim", "passage", "language"),
    [
        ("The Python Steering Council accepted PEP 703 in 2023 [S1].", PEP_EN, "en"),
        # A paraphrase with the right value, where the passage holds two years.
        ("In 2023 the Steering Council of Python accepted PEP 703 [S1].", PEP_EN, "en"),
        ("Python運営委員会は2023年にPEP 703を承認した[S1]。", PEP_JA, "ja"),
        ("Python 3.13 was released in October 2024 [S1].", PEP_EN, "en"),
        ("The Earth's position relative to the sun determines seasons [S1].", SEASONS_EN, "en"),
        ("季節は地球と太陽の位置関係で決まる[S1]。", SEASONS_JA, "ja"),
        ("日本の発電量では火力が最も多く、次いで水力発電が続いている[S1]。", POWER_JA, "ja"),
        ("In Japan's power generation, thermal power is the largest, followed by hydroelectric power [S1].", POWER_EN, "en"),
        ("A qubit can be in a superposition of 0 and 1 [S1].", QUBIT_EN, "en"),
        ("Ollama serves a REST API on port 11434 by default [S1].", OLLAMA_EN, "en"),
        ("Ollamaはデフォルトでポート11434でREST APIを提供する[S1]。", OLLAMA_JA, "ja"),
        # One length in two spellings, beside another length in the passage.
        ("Mount Fuji is 3776 metres high [S1].", FUJI_EN, "en"),
        ("富士山の標高は3776メートルである[S1]。", FUJI_JA, "ja"),
        # A merged fact: each value is in a sentence that says its part of the claim.
        ("Python 3.13, released in October 2024, ships an experimental free-threaded build [S1].",
         ("Python 3.13 was released in October 2024. Python 3.13 ships an experimental free-threaded build. "
          "PEP 703 was accepted in 2023."), "en"),
        # Each year in a clause that says its own sentence's thing.
        ("The Python Steering Council accepted PEP 703 in 2023, and Python 3.13, released in October 2024, "
         "ships an experimental free-threaded build [S1].", PEP_EN, "en"),
        ("In 2023, the Python Steering Council accepted PEP 703, and Python 3.13 shipped an experimental "
         "free-threaded build in October 2024 [S1].", PEP_EN, "en"),
        # Each year given to its own clause's event; and one the claim's words cannot tell apart.
        ("Mount Fuji's last eruption ended in 1708 [S1].", ERUPTION_EN, "en"),
        ("Mount Fuji's last eruption began in 1707 [S1].", ERUPTION_EN, "en"),
        ("宝永大噴火は1707年（宝永4年）12月16日に始まり、約16日間続き、1708年1月1日に終わりました[S1]。", ERUPTION_JA, "ja"),
        ("宝永大噴火は1708年1月1日に終わった[S1]。", ERUPTION_JA, "ja"),
    ],
)
def test_a_value_in_the_aligned_sentence_stays_supported(claim, passage, language):
    found = assess(claim, passage, language)
    assert (found.outcome, found.reason) == ("supported", "supported")
    assert found.bound_value is None and found.passage_value is None


def test_a_year_of_a_clause_that_describes_the_one_before_it_is_not_another_events():
    # RAGTruth train, QA: a clean answer the clause rule once called contradicted, with 1996 (the
    # clause after 2013 describes 2013's ruling, and "the 1996 law" is a name, not an event).
    found = assess("After the court invalidated the Defense of Marriage Act in 2013, lower courts began allowing "
                   "same-sex marriages [S1].", "Windsor in 2013, which invalidated most of the 1996 law known as the "
                   "Defense of Marriage Act, more than a dozen federal district courts said the reasoning of that "
                   "case required the legalization of same-sex marriage.", "en")
    assert found.reason != "number_mismatch" and found.outcome != "unsupported"


def test_a_year_the_passage_counts_from_another_is_not_contradicted_by_that_other_year():
    # RAGTruth train (a CNN article on Adam Gadahn, a clean answer): 1998 is 1995 + "three years
    # later", so the sentence that says the move gives 1995 for another event.
    passage = ("He converted to Islam in 1995 and left the United States for Pakistan three years later. A former "
               "al Qaeda member told CNN that he was tasked with greeting Gadahn at Peshawar airport in September "
               "1998. In the years after 9/11, Gadahn rose through the ranks in the tribal areas of Pakistan, "
               "becoming its chief official English-language propagandist.")
    found = assess("He left the United States for Pakistan in 1998 and joined al Qaeda, where he rose through the "
                   "ranks and became the chief official English-language propagandist [S1].", passage, "en")
    assert found.outcome != "unsupported" and found.passage_value is None


def test_a_year_the_claim_gives_itself_is_no_other_year_for_its_period():
    # PubMedQA 25487603 (`research bench pubmedqa --sample 4 --seed 118`), the real 1.5B model's true sentence: its
    # study period's 2012 was read against the results sentence's 2008, which the claim says too, and the sentence
    # was contradicted (and the report said the draft "said otherwise"). The abstract's sentences, quoted.
    passage = ("Shigellosis is a notifiable disease in Spain since 1988. Cases are analyzed in Barcelona residents "
               "included in the registry between 1988-2012. A descriptive analysis by sex, age, mode of transmission and "
               "Shigella species is presented.\n\nOf the 559 cases analyzed, 60.15% were males. A sustained increase "
               "was observed in the trend since 2008 in males (p<0,05), especially at the expense of males who had no "
               "history of food poisoning or travel to endemic areas.")
    found = assess("The epidemiological pattern of Shigellosis in Barcelona between 1988 and 2012 shows a sustained "
                   "increase in the trend since 2008 in males, especially at the expense of males who had no history of "
                   "food poisoning or travel to endemic areas [S1].", passage, "en")
    assert found.outcome != "unsupported" and found.passage_value is None
    # Another year for that increase is still contradicted.
    found = assess("A sustained increase was observed in the trend since 2010 in males [S1].", passage, "en")
    assert (found.outcome, found.reason) == ("unsupported", "number_mismatch")


def test_the_qubit_claim_with_the_right_values_is_never_contradicted():
    # 「とることができる」 against 「とる」 is for the judge; the values themselves agree.
    found = assess("量子ビットは0と1の重ね合わせの状態をとる[S1]。", QUBIT_JA, "ja")
    assert found.outcome != "unsupported" and found.bound_value is None


@pytest.mark.parametrize(
    ("claim", "passage", "language"),
    [
        # 2024 is in the passage, for another thing; the sentence about the acceptance gives no year.
        ("The Python Steering Council accepted PEP 703 in 2024 [S1].",
         ("The Python Steering Council accepted PEP 703 after a long debate. Python 3.13 shipped in 2024. "
          "PEP 554 dates from 2017."), "en"),
        ("Python運営委員会は2024年にPEP 703を承認した[S1]。",
         "Python運営委員会は長い議論の末にPEP 703を承認した。Python 3.13は2024年に出た。PEP 554は2017年に遡る。", "ja"),
        # The moon is named elsewhere; the sentence about the tides names neither body.
        ("The tides are caused by the moon [S1].",
         "The tides are caused by gravity. The moon orbits the Earth. The sun is a star.", "en"),
    ],
)
def test_a_value_given_elsewhere_among_several_goes_to_the_judge(claim, passage, language):
    found = assess(claim, passage, language)
    assert found.outcome == "uncertain"
    assert found.reason in ("number_missing", "missing_term")


def test_a_single_value_of_its_kind_may_be_read_from_the_next_sentence():
    # Only one year in the passage: nothing else it could measure.
    found = assess("Guido van Rossum created Python in 1991 [S1].",
                   "Guido van Rossum created Python. He released it in 1991.", "en")
    assert found.outcome != "unsupported"
    assert found.bound_value is None


@pytest.mark.parametrize(
    ("text", "figure", "kind"),
    [
        ("serves a REST API on port 11434 by default", "11434", "label:port"),
        ("Python 3.13, released in October 2024", "3.13", "label:python"),
        ("accepted in 2023", "2023", "year"),
        # A price that looks like a year (RAGTruth train: "went up by $50, from $1,449 to $1,449").
        ("went up by $50, from $1,449", "1449", "label:$"),
        ("Ollamaはポート11434で待ち受ける", "11434", "label:ポート"),
        ("3,776 m high", "3776", "length"),
        ("量子ビットは0と1の重ね合わせ", "0", "bare"),
    ],
)
def test_the_slot_a_number_fills(text, figure, kind):
    mention = next(m for m in extract_numbers(text) if figure in m.values)
    assert number_kind(mention, prepare(text)) == kind


@pytest.mark.parametrize(
    ("claim", "passage"),
    [
        # "(passage 3)" and "Step 3" name a place in the sources or a list, not a figure of the claim.
        ("Home health aide: $21 per hour (passage 3).", "4 $21 per hour for a home health aide. 5 $19 per hour for a homemaker."),
        ("Step 3: Click on the blue arrow to continue.", "STEP 4: Click on the Blue Arrow to Continue. STEP 5: Wait."),
        # A span of years is not a date.
        ("Johnny Kemp, known for the 1988 hit Just Got Paid, died at 55 years old.",
         "Johnny Kemp, known for the 1988 hit Just Got Paid, died at 55 years old in Jamaica. He was born in 1959."),
        # Two other years in the aligned sentence: which slot is the claim's is for the judge.
        ("Scarver killed Dahmer in 1994 after reading a newspaper article detailing his crimes.",
         ("Scarver kept a newspaper article detailing Dahmer's crimes, committed between 1978 and 1991. "
          "Dahmer died in 1994.")),
    ],
)
def test_references_spans_and_unclear_slots_are_not_contradictions(claim, passage):
    found = assess(claim, passage, "en")
    assert found.outcome != "unsupported"


def test_a_capitalised_colour_is_a_name():
    # "Freddie Gray" is a man, not a colour; "Green Day" a band.
    passage = "Freddie Gray died in April. His family wore white shirts at the funeral. Green Day played."
    found = assess("The family of Freddie Gray asked for calm at the funeral.", passage, "en")
    assert found.reason not in ("contrast",) and found.bound_value is None


# JSQuAD v1.3 valid (a1468p18q0), the page the bench serves, and the same facts in English (ours).
LAOS_JA = ("立法府は一院制の国民議会。132議席で、民選、任期5年。議席数は、1992年選挙では85、1997年選挙では99、"
           "2002年選挙では109と増やされてきた。")
LAOS_EN = ("The legislature is the unicameral National Assembly. It has 132 seats, elected for five-year terms. "
           "The number of seats grew from 85 in the 1992 election to 99 in 1997 and 109 in 2002.")


@pytest.mark.parametrize(("claim", "passage", "language", "supported"), [
    # The real 1.5B model: 132 is today's seats, and the sentence with 1992 gives it 85.
    ("国民議会は、1992年選挙で132議席であった[S1]。", LAOS_JA, "ja", False),
    ("In the 1992 election, the National Assembly had 132 seats [S1].", LAOS_EN, "en", False),
    # The pair the passage gives, and a figure without the year, stay supported.
    ("国民議会は、1997年選挙で99議席となった[S1]。", LAOS_JA, "ja", True),
    ("The National Assembly had 85 seats in the 1992 election [S1].", LAOS_EN, "en", True),
    ("国民議会は132議席である[S1]。", LAOS_JA, "ja", True),
])
def test_a_figure_the_sentence_of_its_year_gives_otherwise_is_not_supported(claim, passage, language, supported):
    result = assess(claim, passage, language)
    assert (result.outcome == "supported") is supported, (result.outcome, result.reason)


# The page of benchmarks/bench_answers.py's energy question (tests/fixtures/web_fixture.py), in both languages.
ENERGY_JA = ("2022年度の日本の発電電力量に占める再生可能エネルギーの割合は21.7%だった。"
             "再生可能エネルギーの内訳では太陽光発電が9.2%で最も多く、水力発電が7.6%で続いた。")
ENERGY_EN = ("Renewable energy supplied 21.7% of Japan's electricity in fiscal 2022. "
             "Solar power supplied 9.2% and hydropower 7.6% of Japan's electricity in fiscal 2022.")


@pytest.mark.parametrize(("claim", "passage", "language", "given"), [
    # The real 1.5B model (all eight bench_answers questions, b1c23a9): 21.7% is all renewables', and
    # the page gives solar 9.2%. Kept "not checked" before; the reader took the figure on trust.
    ("太陽光発電は日本の再生可能エネルギーの主要な種類で、21.7%の割合を占めています[S1]。", ENERGY_JA, "ja", "9.2%"),
    ("Solar power supplied 21.7% of Japan's electricity in fiscal 2022 [S1].", ENERGY_EN, "en", "9.2%"),
    # Solar's figure given to hydropower, whose own clause says 7.6%: supported before.
    ("水力発電は9.2%を占める[S1]。", ENERGY_JA, "ja", "7.6%"),
    ("Hydropower supplied 9.2% of Japan's electricity in fiscal 2022 [S1].", ENERGY_EN, "en", "7.6%"),
    # Without the year: the page gives both figures for fiscal 2022, so the year is no other time.
    ("Hydropower supplied 9.2% of Japan's electricity [S1].", ENERGY_EN, "en", "7.6%"),
])
def test_a_figure_the_passage_gives_for_another_thing_is_contradicted(claim, passage, language, given):
    result = assess(claim, passage, language)
    assert (result.outcome, result.reason) == ("unsupported", "number_mismatch")
    assert result.passage_value == given
    assert given in result.evidence


@pytest.mark.parametrize(("claim", "passage", "language"), [
    # The figures as the page gives them, said of what it says them of.
    ("太陽光発電の割合は9.2%だった[S1]。", ENERGY_JA, "ja"),
    ("水力発電は7.6%を占める[S1]。", ENERGY_JA, "ja"),
    ("再生可能エネルギーの割合は21.7%だった[S1]。", ENERGY_JA, "ja"),
    ("Solar power supplied 9.2% of Japan's electricity in fiscal 2022 [S1].", ENERGY_EN, "en"),
    ("Solar power's share was 9.2% in fiscal 2022 [S1].", ENERGY_EN, "en"),
    # English words before a figure that are not "<subject> <verb>" say nothing of what it is
    # of: answers the RAGTruth train annotators left clean, with their sources' sentences (cut).
    ("Andrew suggests Ceiling Link, a PVC-based drop ceiling system, which costs around $707 for a 1000 sq ft "
     "basement [S1].",
     "A 1000 SQ Ft basement (assuming 20X50) would run you $707 in ceiling link parts. After material and labor "
     "are added in, the cost per panel can range from around $40.00 to $60.00.", "en"),
    ("The Aggies had 260 yards rushing as a team [S1].",
     "Th Aggies came in the contest averaging 249 yards per game on the ground and they stayed close to their "
     "average on Friday, getting 105 yards from Brady Kelly, 65 yards from Eaton, 55 yards from Rylan Henry and "
     "35 yards from Robinson on the ground for 260 yards rushing as a team.", "en"),
    ("The highest-tiered pass, the Disney Incredi-Pass, has increased by $50 to $1,449 [S1].",
     "The Disney Incredi-Pass, their highest-tiered pass, went up by $50, from $1,449 to $1,449 (or $111.52 per "
     "month). Prices at Walt Disney World will increase $5, to $30.", "en"),
    # A figure said of 「同社」 may be said of the claim's company: not decided against.
    ("アクメの利益は20%増えた[S1]。", "アクメの利益は前年に10%増えた。同社の利益は今年20%増えた。", "ja"),
    # A figure said of nothing the sentence names (「売上が」 alone) may be said of the claim's subject.
    ("アクメの売上は20%増えた[S1]。", "アクメの売上は2020年に10%増えた。2021年には売上が20%増えた。", "ja"),
    # Another year in the clause that names the subject may be another time.
    ("アクメの売上は2021年に20%増えた[S1]。",
     "アクメの売上は2020年に10%増えた。2021年にはボルト社の合併で全体の売上が20%増えた。", "ja"),
])
def test_a_figure_said_of_what_the_passage_says_it_of_is_not_contradicted(claim, passage, language):
    result = assess(claim, passage, language)
    assert result.outcome != "unsupported", (result.reason, result.evidence)


@pytest.mark.parametrize("claim", [
    # The page's own sentences, each with the year: "not checked" before (a figure the year's other
    # clause, "hydropower 7.6% … in fiscal 2022", pairs otherwise), so an answer with an untrusted
    # judge dropped them.
    "Renewable energy supplied 21.7% of Japan's electricity in fiscal 2022 [S1].",
    "Solar power supplied 9.2% of Japan's electricity in fiscal 2022 [S1].",
    "Hydropower supplied 7.6% of Japan's electricity in fiscal 2022 [S1].",
])
def test_a_figure_a_sentence_gives_with_the_claims_year_is_supported(claim):
    result = assess(claim, ENERGY_EN, "en")
    assert result.outcome == "supported", (result.reason, result.missing)


def test_a_source_named_by_its_numbered_title_gives_no_figure_to_find():
    # PubMedQA PQA-L 23348330 (pubmedqa/dev.json), its context quoted, served by `research bench`
    # as the page "PubMed 23348330"; another page of the run holds another percentage. The real
    # 1.5B model named the study by its title, and the title's number was looked for as a figure:
    # the true sentence was contradicted by the other page's 5.9 % and taken out.
    pages = [
        {"label": "S1", "status": "ok", "language": "en", "title": "PubMed 23348330",
         "markdown": ("# PubMed 23348330\n\nOf the 43 patients included in the study, 38 were male. Twenty-eight (65%) "
                      "of 43 patients were satisfied with the result, whereas 15 (35%) patients were not happy with "
                      "their operation.")},
        {"label": "S2", "status": "ok", "language": "en", "title": "PubMed 15065192",
         "markdown": ("# PubMed 15065192\n\nFive patients (5.9%) were found to have remnant deviated nasal septum in "
                      "each group.")},
    ]
    index = EvidenceIndex(pages)
    for claim in ("The study by PubMed 23348330 found that 65% of patients were satisfied with the result, whereas "
                  "35% were not happy with their operation.",
                  "The study by PubMed 23348330 found that 65% of patients were satisfied with the result, whereas "
                  "35% were not happy with their operation [S1]."):
        found = assess_claim(split_claims(claim)[0], index)
        assert (found.outcome, found.reason) == ("supported", "supported"), claim
    # A figure the page does not give is still missed.
    wrong = assess_claim(split_claims("The study by PubMed 23348330 found that 75% of patients were satisfied with "
                                      "the result [S1].")[0], index)
    assert wrong.outcome != "supported"


def test_a_version_in_a_source_title_is_still_a_value_to_check():
    # A page titled with a version: a claim that names the title still states the version.
    pages = [{"label": "S1", "status": "ok", "language": "en", "title": "Python 3.14",
              "markdown": "# Python 3.14\n\nThe free-threaded build first shipped in Python 3.13 as an experiment."}]
    found = assess_claim(split_claims("The free-threaded build first shipped in Python 3.14 as an experiment [S1].")[0],
                         EvidenceIndex(pages))
    assert found.outcome != "supported"


def test_a_study_named_by_another_page_s_title_is_not_taken_for_the_cited_one():
    # The real 1.5B model (PubMedQA 23348330 asked again): "The study by PubMed 20401819 found …"
    # citing a page titled PubMed 24630333. The other page's number is a figure the cited one lacks.
    pages = [
        {"label": "S1", "status": "ok", "language": "en", "title": "PubMed 24630333",
         "markdown": ("# PubMed 24630333\n\nUltrasound is currently not established for the diagnosis of fractures, "
                      "but it is superior to X-ray for dislocation identification.")},
        {"label": "S2", "status": "ok", "language": "en", "title": "PubMed 20401819",
         "markdown": "# PubMed 20401819\n\nThe Hawkins sign predicts avascular necrosis."},
    ]
    index = EvidenceIndex(pages)
    said = ("found that ultrasound is currently not established for the diagnosis of fractures, but it is superior "
            "to X-ray for dislocation identification [S1].")
    wrong = assess_claim(split_claims("The study by PubMed 20401819 " + said)[0], index)
    assert wrong.outcome != "supported" and "20401819" in wrong.missing
    right = assess_claim(split_claims("The study by PubMed 24630333 " + said)[0], index)
    assert "24630333" not in right.missing


def test_a_date_s_month_does_not_draw_its_year_to_another_event():
    # "October" aligned the claim with "Python 3.13, released in October 2024, …", where 2024
    # stands, so "accepted PEP 703 in October 2024" was supported at score 1.0 (found at f00a448).
    wrong = assess("The Python Steering Council accepted PEP 703 in October 2024 [S1].", PEP_EN, "en")
    assert (wrong.outcome, wrong.reason, wrong.missing) == ("unsupported", "number_mismatch", ["2024"])
    assert assess("Python 3.13 was released in October 2024 [S1].", PEP_EN, "en").outcome == "supported"
    assert assess("Python 3.13 was released in October 2023 [S1].", PEP_EN, "en").reason == "number_mismatch"


@pytest.mark.parametrize("claim", [
    # The real 1.5B model's answer to "What is PEP 703 and when did Python get free-threading?"
    # at 63136ee, kept marked (not checked): the year is the acceptance's, not the build's.
    "Python got free-threading in 2023, when the Python Steering Council accepted PEP 703 [S1].",
    "Python 3.13 shipped an experimental free-threaded build in October 2024, when the Python Steering Council "
    "accepted PEP 703 [S1].",
])
def test_one_date_given_to_two_events_is_read_with_each_of_them(claim):
    assessment = assess(claim, PEP_EN, "en")
    assert (assessment.outcome, assessment.reason) == ("unsupported", "number_mismatch")
    # Both events of that date, as the passage dates them: supported.
    assert assess("Python 3.13 shipped an experimental free-threaded build in October 2024, when Python 3.13 was "
                  "released [S1].", PEP_EN, "en").outcome == "supported"


def test_one_date_given_to_two_events_under_the_page_s_title_is_not_supported():
    # The same answer (bench_answers.py --ollama, 2026-11-30, twice): with the page's title above its
    # sentences ("Free-threaded Python: …") the claim's own event was read only as partly there, and
    # the sentence stayed "(not checked)" in the answer. The date is the other event's, and nothing
    # gives it to the claim's own: its figure is unbound (number_missing), which takes it out.
    titled = "# Free-threaded Python: PEP 703 and Python 3.13\n\n" + PEP_EN
    for claim in ("Python got free-threading in 2023, when the Python Steering Council accepted PEP 703 [S1].",
                  "The GIL became optional in 2023, when the Python Steering Council accepted PEP 703 [S1]."):
        assessment = assess(claim, titled, "en")
        assert assessment.outcome != "supported" and assessment.reason in ("number_missing", "number_mismatch"), claim
    assert assess("Python 3.13 shipped an experimental free-threaded build in October 2024, when Python 3.13 was "
                  "released [S1].", titled, "en").outcome == "supported"


# Two PubMedQA pages as `research bench` writes them (their CONTEXTS, quoted from ../shared/bench/pubmedqa/dev.json).
PUBMED_23234860 = ('# PubMed 23234860\n\n## Objective\n\nTreatment delays in breast cancer are generally thought to '
                   'affect prognosis but the impact on survival remains unclear. Indicators for breast cancer care '
                   'include time to primary treatment. The purpose of this study was to evaluate whether time to '
                   'primary treatment (TPT) in breast cancer impacts survival.\n\n## Method\n\nA total of 648 breast '
                   'cancer patients treated in the University Malaya Medical Center (UMMC), Malaysia between 2004 and '
                   '2005 were included in the study. TPT was calculated from the date of pathological diagnosis to '
                   'the date of primary treatment. Mortality data was obtained from the National Registry of Births '
                   'and Deaths. Last date of follow-up was November 2010.\n\n## Results\n\nMedian TPT was 18 days. '
                   'Majority 508 (69.1%) of the patients received treatment within 30 days after diagnosis. The '
                   'majority was surgically treated. Ethnicity (p=0.002) and stage at presentation (p=0.007) were '
                   'significantly associated with delayed TPT. Malay ethnicity had delayed TPT compared to the '
                   'Chinese; Hazard Ratio (HR) 1.9 (Confidence Interval (CI) 1.237, 2.987). Delayed TPT did not '
                   'affect overall survival on univariate and multivariate analyses.\n\n## MeSH terms\n\nAdult; Aged; '
                   'Breast Neoplasms; Female; Humans; Malaysia; Middle Aged; Neoplasm Staging; Retrospective Studies; '
                   'Survival Analysis; Time Factors')
PUBMED_9191526 = ('# PubMed 9191526\n\n## Background\n\nIn an attempt to improve the care they provide for their '
                  "patients with breast cancer, the authors' institution developed a multidisciplinary breast cancer "
                  'clinic (MDBCC) to offer "one-stop shopping" consultation and support for newly diagnosed breast '
                  'cancer patients.\n\n## Methods\n\nOne hundred sixty-two patients, the control group for this '
                  'study, were evaluated at Henry Ford Hospital during the year prior to the opening of the MDBCC. '
                  'These patients, who were referred in the traditional sequential consultation manner, were '
                  "compared with the first 177 patients seen during the first year of the clinic's operation. "
                  'Retrospective chart reviews were conducted to assess treatment timeliness, and anonymous '
                  'questionnaires were used to assess patient satisfaction.\n\n## Results\n\nThe authors found that '
                  "the MDBCC increased patient satisfaction by encouraging involvement of patients' families and "
                  'friends and by helping patients make treatment decisions (P<0.001). The time between diagnosis '
                  'and the initiation of treatment was also significantly decreased (42.2 days vs. 29.6 days; '
                  'P<0.0008).\n\n## MeSH terms\n\nBreast Neoplasms; Cancer Care Facilities; Female; Humans; Patient '
                  'Participation; Patient Satisfaction; Retrospective Studies')


def test_an_uncited_claim_is_read_against_the_page_that_gives_its_figures_not_another_pages_contradiction():
    # PubMedQA 23234860 and 9191526 (results sentences quoted from the two abstracts in
    # ../shared/bench/pubmedqa/dev.json, titled as the bench titles its pages). The real 1.5B model at
    # 2fa120f joined the first page's two sentences into one uncited sentence naming the page; its
    # "18 days" could not be bound to one of them, and the second page's "42.2 days vs. 29.6 days"
    # was taken for a contradiction: the true sentence was taken out as contradicted.
    index = EvidenceIndex([
        {"label": "S1", "status": "ok", "language": "en", "title": "PubMed 23234860", "markdown": PUBMED_23234860},
        {"label": "S2", "status": "ok", "language": "en", "title": "PubMed 9191526", "markdown": PUBMED_9191526},
    ])
    said = ("The study by PubMed 23234860 found that median TPT was 18 days, with a majority of patients receiving "
            "treatment within 30 days after diagnosis.")
    assessment = assess_claim(split_claims(said)[0], index)
    assert assessment.outcome != "unsupported" and assessment.evidence_label == "S1", assessment
    # A figure its own page gives otherwise is still contradicted there.
    changed = assess_claim(split_claims(said.replace("18 days", "25 days"))[0], index)
    assert (changed.outcome, changed.evidence_label) == ("unsupported", "S1")


def test_a_year_given_for_another_event_is_found_when_the_sources_title_frames_the_claims_words():
    # The real 1.5B model (bench_answers.py --ollama, this session): "Python got free-threading in
    # 2023, with Python 3.13, …" on the fixture's page titled "Free-threaded Python: PEP 703 and
    # Python 3.13". The title's words are the source's framing, left out of the claim's terms, and
    # the clause around 2023 kept one word to align with: the choosing judge then made it supported.
    page = ("# Free-threaded Python: PEP 703 and Python 3.13\n\n"
            "PEP 703 proposes making the global interpreter lock (GIL) optional in CPython.\n\n"
            "Sam Gross wrote PEP 703, and the Python Steering Council accepted it.\n\n" + PEP_EN + "\n\n"
            "In the free-threaded build the GIL is disabled, so threads can run Python code in parallel on several cores.")
    index = EvidenceIndex([{"label": "S1", "status": "ok", "language": "en", "markdown": page,
                            "title": "Free-threaded Python: PEP 703 and Python 3.13"}])
    found = assess_claim(split_claims("Python got free-threading in 2023, with Python 3.13, released in October 2024, "
                                      "shipping an experimental free-threaded build [S1].")[0], index)
    assert (found.outcome, found.reason, found.bound_value, found.passage_value) == \
        ("unsupported", "number_mismatch", "2023", "2024")
    true = assess_claim(split_claims("The Python Steering Council accepted PEP 703 in 2023, and Python 3.13, released "
                                     "in October 2024, ships an experimental free-threaded build [S1].")[0], index)
    assert true.outcome == "supported"


# RAGTruth train (a Summary of a Hollywood Reporter item on Fox's "Rocky Horror" remake, cut), an
# answer the annotators left clean: its first claim joins the second sentence and the fifth.
REMAKE_EN = ('"The Rocky Horror Picture Show" is the latest musical getting the small-screen treatment. Fox is '
             "developing a two-hour remake of the 1975 cult classic to be directed, executive-produced and "
             'choreographed by Kenneth Ortega ("High School Musical"). The special will be filmed in advance and '
             "not air live, but few details beyond that are known. The special will be produced by Fox 21 "
             "Television Studios. The special is timed to celebrate the 40th anniversary of the film, which has "
             "grossed more than $112 million and still plays in theaters across the country. In 2002, Fox unveiled "
             "plans for an adaptation timed to the 30th anniversary that never came to fruition.")


def test_a_claim_joining_two_sentences_binds_each_figure_in_its_own_clause():
    found = assess('Fox is developing a two-hour remake of the 1975 cult classic, "The Rocky Horror Picture Show," '
                   "to celebrate the 40th anniversary of the film [S1].", REMAKE_EN, "en")
    assert found.outcome == "supported", (found.reason, found.bound_value)


def test_a_figure_whose_clause_another_sentence_says_stays_for_the_judge():
    # 30 is in the passage, for the plans of 2002; the sentence that says the clause's words
    # ("celebrate", "anniversary", "film") gives 40.
    found = assess('Fox is developing a two-hour remake of the 1975 cult classic, "The Rocky Horror Picture Show," '
                   "to celebrate the 30th anniversary of the film [S1].", REMAKE_EN, "en")
    assert found.outcome != "supported"


# JSQuAD v1.3 valid, 日本共産党's page (a14985p17): the real 1.5B model's sentence about the 22nd general
# election cited the page's paragraph on the 47th; the English pair says the same in other words.
ELECTION_JA = ("第47回衆議院議員総選挙（2014年12月14日投開票）でも「自共対決」と銘打ち活発に活動。"
               "第47回総選挙では21議席を獲得し、小選挙区でも1996年の第41回総選挙以来18年ぶりに議席を獲得した。")
ELECTION_EN = ("In the 47th general election, held in December 2014, the party campaigned hard. In the 47th general "
               "election the party won 21 seats, its best result since the 41st general election in 1996.")


@pytest.mark.parametrize(
    ("claim", "passage", "language"),
    [
        ("日本共産党は第22回総選挙で5議席を獲得した[S1]。", ELECTION_JA, "ja"),
        ("第22回総選挙は1946年4月22日に行われた[S1]。", ELECTION_JA, "ja"),
        ("The party won 5 seats in the 22nd general election [S1].", ELECTION_EN, "en"),
        ("The party won 5 seats in the 1946 general election [S1].", ELECTION_EN, "en"),
        ("The 22nd general election was held in 1946 [S1].", ELECTION_EN, "en"),
    ],
)
def test_a_figure_the_source_gives_for_another_election_is_not_supported_and_no_contradiction(claim, passage, language):
    assessment = assess(claim, passage, language)
    assert assessment.outcome == "unsupported"
    assert assessment.reason == "another_instance", (assessment.reason, assessment.evidence)


@pytest.mark.parametrize(
    ("claim", "passage", "language", "changed"),
    [
        # The ordinal or the year is what the claim gets wrong: nothing else tells another one apart.
        ("バラク・オバマは第43代アメリカ合衆国大統領である[S1]。", "バラク・オバマは第44代アメリカ合衆国大統領である。", "ja", "第43代"),
        ("The company was founded in 1946 [S1].", "The company was founded in 2014.", "en", "1946"),
        # The same election, named by its ordinal or its year: another figure for it is a contradiction.
        ("The 47th general election was held in 2015 [S1].", ELECTION_EN, "en", "2015"),
        ("第47回総選挙では25議席を獲得した[S1]。", ELECTION_JA, "ja", "25議席"),
        ("In 2014 the party won 25 seats [S1].", "In 2014 the party won 21 seats.", "en", "25 seats"),
    ],
)
def test_a_figure_changed_for_the_same_one_is_still_contradicted(claim, passage, language, changed):
    assessment = assess(claim, passage, language)
    assert (assessment.outcome, assessment.reason) == ("unsupported", "number_mismatch"), assessment.reason


# JSQuAD v1.3 valid, ポルトガル's page on its cinema (a4596p56): two sentences, each with its own year.
OLIVEIRA_JA = ("オリヴェイラはネオレアリズモの先駆的作品となった『アニキ・ボボ』（1942）などを撮影したのち西ドイツに渡り、"
               "1950年代にポルトガルに帰ってから『画家と町』（1956）などを撮影した。 ポルトはポルトガル映画の中心地となり、"
               "1931年にはマノエル・デ・オリヴェイラによって『ドウロ川』が制作された。")
OLIVEIRA_EN = ("Oliveira made Aniki-Bobo (1942), then went to West Germany, and after returning to Portugal in the "
               "1950s he shot The Painter and the City (1956). In 1931 Manoel de Oliveira made Douro, Faina Fluvial.")


def test_a_year_the_page_gives_to_another_event_of_the_same_person_is_contradicted():
    # The real 1.5B model's sentence, which its judge (the choice protocol) called supported: 1931 is
    # the year of 『ドウロ川』, a sentence sharing only who and where; the return is the 1950s'.
    claim = "マノエル・デ・オリヴェイラは1931年にポルトガルに帰ってから『画家と町』（1956）などを撮影した[S1]。"
    assessment = assess(claim, OLIVEIRA_JA, "ja")
    assert (assessment.outcome, assessment.reason) == ("unsupported", "number_mismatch")
    assert "1950年代にポルトガルに帰って" in assessment.evidence
    assert assess("オリヴェイラは1950年代にポルトガルに帰ってから『画家と町』を撮影した[S1]。", OLIVEIRA_JA, "ja").outcome \
        == "supported"
    assert assess("1931年にはマノエル・デ・オリヴェイラによって『ドウロ川』が制作された[S1]。", OLIVEIRA_JA, "ja").outcome \
        == "supported"


@pytest.mark.parametrize(("claim", "language"), [
    ("オリヴェイラは1955年にポルトガルに帰った[S1]。", "ja"),
    ("Oliveira returned to Portugal in 1955 [S1].", "en"),
])
def test_a_year_within_the_decade_the_page_gives_is_not_contradicted(claim, language):
    assessment = assess(claim, OLIVEIRA_JA if language == "ja" else OLIVEIRA_EN, language)
    assert assessment.reason != "number_mismatch", assessment.evidence
    assert assess(claim.replace("1955", "1931"), OLIVEIRA_JA if language == "ja" else OLIVEIRA_EN, language).outcome \
        != "supported"


def test_a_decade_is_every_year_of_it():
    (decade,) = extract_numbers("after returning to Portugal in the 1950s")
    assert decade.text == "1950s" and {"1950", "1955", "1959"} <= decade.values and "1960" not in decade.values
    (decade,) = extract_numbers("1950年代にポルトガルに帰って")
    assert decade.text == "1950年代" and "1955" in decade.values
    assert [m.values for m in extract_numbers("in 1950 and in 1950年")] == [frozenset({"1950"})] * 2

"""Disagreements between sources: planted ones are found, paraphrased agreement is not one.

The corpus below is the measurement: ``PLANTED`` cases each hide one disagreement (a
figure, a date, in one language or across two), ``AGREEING`` cases say the same thing in
other words or give values of different things. Precision and recall over all of them are
printed by ``test_precision_and_recall`` (run it with ``-s``) and recorded in
docs/benchmarks.md.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

from research.modules.text.disagreements import (
    find_disagreements,
    pair_facts,
    relevant_facts,
    sentence_facts,
    stated_in,
    summarise,
    values_agree,
)

sys.path.insert(0, str(Path(__file__).parent))
from fixtures import web_fixture  # noqa: E402


@dataclass
class Case:
    name: str
    questions: list[str]
    sources: list[tuple[str, str]]  # (title, text); labels S1.. in order
    expected: set[tuple[str, str, str]]  # (attribute, label, label) of each planted disagreement


def _docs(case: Case) -> list[dict]:
    return [{"label": f"S{n}", "title": title, "url": f"https://example.org/{n}", "markdown": text, "status": "ok"}
            for n, (title, text) in enumerate(case.sources, start=1)]


PLANTED = [
    Case("height, English", ["How tall is Mount Fuji?"],
         [("Mount Fuji", "Mount Fuji is 3,776 m tall. It is a stratovolcano."),
          ("Fuji facts", "Mount Fuji is 3,778 m tall, according to an old survey.")],
         {("height", "S1", "S2")}),
    Case("last eruption, Japanese", ["富士山の最後の噴火はいつ？"],
         [("富士山", "富士山の最後の噴火は1707年です。"), ("富士山の歴史", "富士山の最後の噴火は1708年です。")],
         {("eruption", "S1", "S2")}),
    Case("height across languages", ["富士山の標高は？", "Mount Fuji height"],
         [("Mount Fuji", "Mount Fuji is 3,776 m tall."), ("富士山", "富士山の標高は3,876メートルです。")],
         {("height", "S1", "S2")}),
    Case("population, bare figures", ["What is the population of Tokyo?"],
         [("Tokyo", "Tokyo has a population of 14 million."), ("Tokyo guide", "Tokyo's population is 11 million.")],
         {("population", "S1", "S2")}),
    Case("a full date", ["When did the Hōei eruption begin?"],
         [("Hōei eruption", "The Hōei eruption began on 16 December 1707."),
          ("Hōei", "The Hōei eruption began on 26 December 1707.")],
         {("eruption", "S1", "S2")}),
    Case("an approximate distance", ["How far is Mount Fuji from Tokyo?"],
         [("Mount Fuji", "Mount Fuji is about 100 km from Tokyo."), ("Fuji trip", "Mount Fuji is 60 km from Tokyo.")],
         {("distance", "S1", "S2")}),
    Case("a price in yen", ["How much is the climbing fee for Mount Fuji?"],
         [("Fee", "The climbing fee for Mount Fuji is 1,000 yen."), ("Fee news", "The climbing fee for Mount Fuji is 4,000 yen.")],
         {("price", "S1", "S2")}),
    Case("the founding year, Japanese", ["任天堂の設立は何年？"],
         [("任天堂", "任天堂の設立は1889年です。"), ("任天堂の歴史", "任天堂の設立は1947年です。")],
         {("founding", "S1", "S2")}),
    Case("three sources, two positions", ["How tall is Mount Fuji?"],
         [("A", "Mount Fuji is 3,776 m tall."), ("B", "Mount Fuji is 3,776 metres tall."),
          ("C", "Mount Fuji is 3,700 m tall.")],
         {("height", "S1", "S3")}),
]

# Planted too, but beyond the cheap checks: counted in recall, so the figure says what is missed.
BEYOND_CHEAP_CHECKS = [
    Case("a named fact", ["Who first climbed Mount Fuji?"],
         [("Fuji", "The first person to climb Mount Fuji was En no Gyōja."),
          ("Fuji legends", "The first person to climb Mount Fuji was Prince Shōtoku.")],
         {("named", "S1", "S2")}),
    Case("a subject in other words, across languages", ["How tall is Mount Fuji?", "富士山の標高"],
         BORDERLINE_SOURCES := [("Fuji", "Japan's highest peak, Mount Fuji, is 3,776 m tall."),
                                ("山", "その山の標高は3,870メートルです。")],
         {("height", "S1", "S2")}),
    Case("a bare count the lexicon does not know", ["How many trails lead up Mount Fuji?"],
         [("Fuji", "Mount Fuji has 4 climbing trails."), ("Trails", "Mount Fuji has 6 climbing trails.")],
         {("count", "S1", "S2")}),
]

AGREEING = [
    Case("one height in many spellings", ["How tall is Mount Fuji?", "富士山の標高は？"],
         [("Mount Fuji", "Mount Fuji is 3,776 m (12,388 ft) tall."), ("富士山", "富士山の標高は3776メートルです。"),
          ("Fuji", "Mount Fuji rises about 3.8 km above sea level."), ("Fuji US", "Mount Fuji stands 12,388 feet high."),
          ("富士山の高さ", "富士山の高さは約3,800mです。"), ("Fuji km", "Mount Fuji is 3.776 km high.")],
         set()),
    Case("height and distance", ["Mount Fuji height and distance from Tokyo"],
         [("Mount Fuji", "Mount Fuji is 3,776 m tall."), ("Fuji", "Mount Fuji is about 100 km south-west of Tokyo.")],
         set()),
    Case("two mountains", ["How tall is Mount Fuji?"],
         [("Mount Fuji", "Mount Fuji is 3,776 m tall."), ("Kita-dake", "Kita-dake is 3,193 m tall."),
          ("Japan's mountains", "Mount Kita, the second highest mountain in Japan, is 3,193 m high.")],
         set()),
    Case("one date in other words", ["When did Mount Fuji last erupt?", "富士山の最後の噴火"],
         [("Fuji", "The last eruption of Mount Fuji began on 16 December 1707."),
          ("富士山", "富士山の最後の噴火は1707年（宝永4年）です。"), ("Volcano", "Mount Fuji last erupted in 1707.")],
         set()),
    Case("the last eruption and an earlier one", ["When did Mount Fuji erupt?"],
         [("Fuji", "The last eruption of Mount Fuji was in 1707."),
          ("Fuji history", "An eruption of Mount Fuji in 1083 was recorded in the chronicles.")],
         set()),
    Case("one population in other words", ["What is the population of Tokyo?", "東京の人口"],
         [("Tokyo", "Tokyo has a population of about 14 million."), ("東京", "東京の人口は約1400万人です。"),
          ("Tokyo data", "Tokyo's population is 14,040,000 people.")],
         set()),
    Case("a listing year and an eruption year", ["Mount Fuji history"],
         [("Fuji", "Mount Fuji became a World Heritage Site in 2013."), ("Volcano", "Mount Fuji last erupted in 1707.")],
         set()),
    Case("durations said roughly", ["How long did the Hōei eruption last?"],
         [("Hōei", "The Hōei eruption lasted about 16 days."), ("Hōei eruption", "The Hōei eruption lasted 15 days.")],
         set()),
    Case("the web fixture's Fuji pages", ["富士山の最後の噴火は？", "Mount Fuji last eruption height"],
         [(a.title, "\n\n".join(a.paragraphs)) for a in (web_fixture.FUJI_EN, web_fixture.FUJI_JA,
                                                         web_fixture.FUJI_PDF_JA, web_fixture.FUJI_SJIS,
                                                         web_fixture.FUJI_EUCJP)],
         set()),
    Case("a second height in the same sentence", ["How tall is Mount Fuji?"],
         [("Fuji", "Mount Fuji is 3,776 m tall, and its fifth station is at 2,305 m."),
          ("Fifth station", "Mount Fuji's fifth station stands at 2,300 m elevation.")],
         set()),
    Case("the web fixture's LangGraph pages", ["LangGraph checkpoints", "LangGraphのチェックポイント"],
         [(a.title, "\n\n".join(a.paragraphs)) for a in (web_fixture.LANGGRAPH_EN, web_fixture.LANGGRAPH_JA,
                                                         web_fixture.LANGGRAPH_PDF_EN)],
         set()),
]


def _found(case: Case) -> set[tuple[str, str, str]]:
    """(attribute, first label, second label) per reported disagreement, one per pair of positions."""
    out = set()
    for item in summarise(find_disagreements(_docs(case), case.questions).certain):
        labels = [position["labels"] for position in item["positions"]]
        for i, first in enumerate(labels):
            for second in labels[i + 1:]:
                out.add((item["attribute"] or item["dimension"], *sorted((min(first), min(second)))))
    return out


@pytest.mark.parametrize("case", PLANTED, ids=lambda c: c.name)
def test_a_planted_disagreement_is_found(case):
    assert _found(case) == case.expected


@pytest.mark.parametrize("case", AGREEING, ids=lambda c: c.name)
def test_agreement_in_other_words_is_not_a_disagreement(case):
    assert _found(case) == set()


@pytest.mark.parametrize("case", BEYOND_CHEAP_CHECKS, ids=lambda c: c.name)
def test_what_the_cheap_checks_do_not_find(case):
    assert _found(case) == set()


def test_precision_and_recall():
    true_positive = false_positive = planted = 0
    for case in PLANTED + BEYOND_CHEAP_CHECKS + AGREEING:
        found = _found(case)
        true_positive += len(found & case.expected)
        false_positive += len(found - case.expected)
        planted += len(case.expected)
    precision = true_positive / (true_positive + false_positive) if true_positive + false_positive else 1.0
    recall = true_positive / planted
    print(f"\ndisagreements: {len(PLANTED) + len(BEYOND_CHEAP_CHECKS)} planted cases, {len(AGREEING)} agreeing cases; "
          f"precision {precision:.2f} ({true_positive}/{true_positive + false_positive}), "
          f"recall {recall:.2f} ({true_positive}/{planted})")
    assert precision == 1.0
    assert recall >= 0.7


def test_values_agree_when_one_is_the_other_rounded():
    def value(text):
        return sentence_facts("S1", f"Mount Fuji is {text} tall.")[0].values[0]

    assert values_agree(value("3,776 m"), value("3.8 km"))
    assert values_agree(value("3,776 m"), value("12,388 ft"))
    assert values_agree(value("3,776 m"), value("3,776.2 m"))
    assert not values_agree(value("3,776 m"), value("3,778 m"))
    assert not values_agree(value("3,776 m"), value("3,776 km"))


def test_a_figure_in_brackets_is_a_value_not_a_citation():
    fact = sentence_facts("S1", "Mount Fuji is 3,776 m (12,388 ft) tall [S1].")[0]
    assert [v.text for v in fact.values] == ["3776 m", "12388 ft"]


def test_only_passages_about_the_question_count():
    docs = _docs(Case("", [], [("A", "Mount Fuji is 3,776 m tall."), ("B", "Mount Fuji is 3,778 m tall.")], set()))
    assert relevant_facts(docs, ["How tall is Mount Fuji?"])
    assert not pair_facts(relevant_facts(docs, ["LangGraph checkpoints"]), ["LangGraph checkpoints"]).certain


def test_a_pair_the_cheap_checks_cannot_settle_is_borderline():
    # Different words before the value in two languages: the judge decides.
    case = Case("", ["How tall is Mount Fuji?", "富士山の標高"],
                [("Fuji", "Japan's highest peak, Mount Fuji, is 3,776 m tall."), ("山", "その山の標高は3,870メートルです。")],
                set())
    findings = find_disagreements(_docs(case), case.questions)
    assert not findings.certain
    assert findings.borderline and findings.borderline[0].first.attribute == "height"


def test_the_answer_check_sees_each_value_in_any_spelling():
    item = summarise(find_disagreements(_docs(PLANTED[0]), PLANTED[0].questions).certain)[0]
    assert stated_in("Mount Fuji is 3,776 metres tall [S1], or 3,778 m by an old survey [S2].", item) == [True, True]
    assert stated_in("Mount Fuji is 3776 m tall [S1].", item) == [True, False]
    assert stated_in("Mount Fuji is about 3.8 km tall.", item) == [False, False]  # rounding hides which one


# --- the llm node's use: borderline pairs go to the model in one structured call ---------------

from types import SimpleNamespace  # noqa: E402

from fixtures.fake_model import Call, FakeModel  # noqa: E402

from fixtures.typed_state import typed  # noqa: E402
from research.nodes.compare import source_disagreements  # noqa: E402
from research.nodes.llm import disagreement_lines  # noqa: E402
from research.workflow.prompts import DisagreementJudgements  # noqa: E402


def _judging_model(verdict: str | None) -> FakeModel:
    """The drafting model judging pairs (what Ollama has is not known, so no checker); None: a
    malformed reply, which comes to the fallback. Any other call fails the test."""
    judged = None if verdict is None else DisagreementJudgements(judgements=[{"id": 1, "verdict": verdict}])
    return FakeModel(compare=judged, strict=True)


class _History:
    def __init__(self) -> None:
        self.files: dict[str, str] = {}
        self.events: list[str] = []

    def write_text(self, session_id, name, text):
        self.files[name] = text

    def append_event(self, session_id, event, **fields):
        self.events.append(event)


BORDERLINE = BORDERLINE_SOURCES


@pytest.mark.parametrize(("verdict", "reported"), [("disagree", 1), ("agree", 0), ("different_facts", 0), (None, 0)])
async def test_the_judge_decides_the_borderline_pairs_in_one_call(verdict, reported):
    model, history = _judging_model(verdict), _History()
    deps = SimpleNamespace(model=model, history=history, settings=Settings(_env_file=None))
    state = {"language": "en", "question": "How tall is Mount Fuji?", "session_id": "s",
             "plan": [{"question": "How tall is Mount Fuji?", "queries": [{"text": "富士山の標高", "language": "ja"}]}]}
    docs = _docs(Case("", [], BORDERLINE, set()))
    result = await source_disagreements(typed(state), docs, [], deps)
    (call,) = model.calls
    assert call.schema is DisagreementJudgements and "[S1]" in call.messages[1]["content"] and "[S2]" in call.messages[1]["content"]
    assert len(result.items) == reported
    assert result.unresolved == (1 if verdict is None else 0)
    assert "disagreements.json" in history.files
    if reported:
        assert "3870メートル [S2]" in disagreement_lines(result.items, "en")


async def test_no_borderline_pair_means_no_model_call():
    model = _judging_model("disagree")
    deps = SimpleNamespace(model=model, history=_History(), settings=Settings(_env_file=None))
    state = {"language": "en", "question": "How tall is Mount Fuji?", "session_id": "s", "plan": []}
    result = await source_disagreements(typed(state), _docs(PLANTED[0]), [], deps)
    assert model.calls == [] and len(result.items) == 1


# --- pages in other styles (tests/data/disagreements_other_styles.json) -----------------------
#
# Written apart from the corpus above: pronouns and 同山/それ for the subject, units spelled
# out, feet, Japanese against English, the same value in other words, several measures of one
# thing, two things on one page. The cases named "blind: ..." were written after the checks
# and measured before any change; the one change they led to (each language's question names
# one thing: the same thing) is a fix of a bug they found, tested by the Skytree case. Measured twice: the cheap checks alone (what a run reports
# when the judge is unavailable), and with a judge that is right about every borderline pair,
# so that the gap says what the judge has to do. Figures in docs/benchmarks.md.

import json  # noqa: E402
import random  # noqa: E402

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "benchmarks"))
from judge_standin import MINICHECK_RAGTRUTH_BACC, simulate_judge  # noqa: E402

from research.modules.text.disagreements import question_entities, resolve_borderline, same_entity  # noqa: E402

_STYLES = json.loads((Path(__file__).parent / "data" / "disagreements_other_styles.json").read_text("utf-8"))
STYLE_PLANTED = [Case(c["name"], c["questions"], [tuple(s) for s in c["sources"]], {tuple(e) for e in c["expected"]})
                 for c in _STYLES["planted"]]
STYLE_AGREEING = [Case(c["name"], c["questions"], [tuple(s) for s in c["sources"]], set()) for c in _STYLES["agreeing"]]
# Planted, and missed by the cheap checks: counted in recall all the same.
STYLE_BEYOND_CHEAP_CHECKS = {"a Japanese page, an English question only, a name read differently (Esaki, エザキ)",
                             "a number spelled out in words",  # numbers.py reads words one by one
                             # numbers.py knows no area unit: "square kilometres", 平方キロメートル
                             "blind: an area in square kilometres spelled out and in Japanese"}


def _positions(pairs) -> set[tuple[str, str, str]]:
    out = set()
    for item in summarise(pairs):
        labels = [position["labels"] for position in item["positions"]]
        for i, first in enumerate(labels):
            for second in labels[i + 1:]:
                out.add((item["attribute"] or item["dimension"], *sorted((min(first), min(second)))))
    return out


def _oracle(case: Case):
    """A judge right about every borderline pair: "disagree" exactly for the planted ones."""
    async def judge(pairs):
        return {n: "disagree" if (_positions([p]) & case.expected) else "different_facts"
                for n, p in enumerate(pairs, start=1)}
    return judge


async def _style_found(case: Case, judge) -> set[tuple[str, str, str]]:
    pairs, _ = await resolve_borderline(find_disagreements(_docs(case), case.questions), judge)
    return _positions(pairs)


@pytest.mark.parametrize("case", [c for c in STYLE_PLANTED if c.name not in STYLE_BEYOND_CHEAP_CHECKS],
                         ids=lambda c: c.name)
async def test_a_disagreement_in_another_style_is_found(case):
    assert await _style_found(case, None) == case.expected


@pytest.mark.parametrize("case", STYLE_AGREEING, ids=lambda c: c.name)
async def test_agreement_in_another_style_is_not_a_disagreement(case):
    # Not even a judge that calls every borderline pair a disagreement makes one of these
    # certain: what it can add is only what the cheap checks sent to it.
    assert await _style_found(case, None) == set()
    assert await _style_found(case, _oracle(case)) == set()


def _standin(case: Case, rng, accuracy: float):
    """The benchmarks' stand-in judge (benchmarks/judge_standin.py): right about a borderline
    pair with probability ``accuracy``, on planted and unplanted pairs alike."""
    async def judge(pairs):
        verdicts = {}
        for n, pair in enumerate(pairs, start=1):
            planted = bool(_positions([pair]) & case.expected)
            verdicts[n] = "disagree" if simulate_judge(planted, accuracy, rng) else "different_facts"
        return verdicts
    return judge


async def test_precision_and_recall_on_other_styles():
    cases = STYLE_PLANTED + STYLE_AGREEING
    findings = {case.name: find_disagreements(_docs(case), case.questions) for case in cases}
    planted = sum(len(case.expected) for case in cases)
    rows = {}
    judges = (("cheap checks only", 1, lambda case, rng: None),
              (f"with a stand-in judge at {MINICHECK_RAGTRUTH_BACC:.0%}, mean of 200 seeds", 200,
               lambda case, rng: _standin(case, rng, MINICHECK_RAGTRUTH_BACC)),
              ("with a perfect judge", 1, lambda case, rng: _oracle(case)))
    for name, seeds, judge in judges:
        true_positive = false_positive = 0
        for seed in range(seeds):
            rng = random.Random(seed)
            for case in cases:
                pairs, _ = await resolve_borderline(findings[case.name], judge(case, rng))
                found = _positions(pairs)
                true_positive += len(found & case.expected)
                false_positive += len(found - case.expected)
        tp, fp = true_positive / seeds, false_positive / seeds
        precision = tp / (tp + fp) if tp + fp else 1.0
        rows[name] = (precision, tp / planted, fp)
        print(f"\nother styles, {name}: {len(STYLE_PLANTED)} planted, {len(STYLE_AGREEING)} agreeing cases; "
              f"precision {precision:.2f} ({tp:g}/{tp + fp:g}), recall {tp / planted:.2f} ({tp:g}/{planted}), "
              f"false disagreements {fp:g}, borderline pairs {sum(len(f.borderline) for f in findings.values())}")
    assert rows["cheap checks only"][2] == 0 and rows["with a perfect judge"][2] == 0
    assert rows["cheap checks only"][1] >= 0.8


def test_a_pronoun_takes_the_page_subject_not_its_verb():
    # Issue 21: "It rises to ..." had the subject {'rise'} and was never paired.
    fact = sentence_facts("S1", "It rises to 3,776 metres, the highest peak in Japan.", frozenset({"mount", "fuji"}))[0]
    assert fact.entity == {"mount", "fuji"} and fact.by_reference and fact.attribute == "height"
    fact = sentence_facts("S2", "同山の標高は3,776メートルである。", frozenset({"mount", "fuji"}))[0]
    assert fact.entity == {"mount", "fuji"} and fact.by_reference
    fact = sentence_facts("S3", "Mount Fuji, Japan's tallest mountain, stands 3,778 metres above sea level.")[0]
    assert fact.entity == {"mount", "fuji"} and not fact.by_reference


def test_names_compare_across_languages_by_their_reading():
    english, japanese = question_entities(["How tall is Mount Fuji?"])[0], question_entities(["富士山の標高は？"])[0]
    assert same_entity(english, japanese)
    assert same_entity(question_entities(["Tōkyō population"])[0], question_entities(["東京の人口"])[0])
    assert not same_entity(english, question_entities(["How tall is Mount Kita?"])[0])
    assert same_entity(question_entities(["Kita-dake"])[0], question_entities(["北岳の標高"])[0])


# --- an answer never states one side as simply supported (issue 21) ---------------------------

from datetime import datetime, timezone  # noqa: E402

from research.modules.core.settings import Settings  # noqa: E402
from research.modules.report.content import ReportInput, build_report  # noqa: E402
from research.modules.report.markdown import render_markdown  # noqa: E402
from research.modules.text.disagreements import contested_claims  # noqa: E402
from research.modules.llm.roles import ModelRole  # noqa: E402
from research.nodes.compare import run_pair_judge  # noqa: E402

_ISSUE_PAGES = STYLE_PLANTED[0]  # "It rises to 3,776 metres" [S1] vs "stands 3,778 metres" [S2]


def _issue_items():
    return summarise(find_disagreements(_docs(_ISSUE_PAGES), _ISSUE_PAGES.questions).certain)


def test_a_supported_claim_giving_one_side_is_contested():
    items = _issue_items()
    claims = [
        {"index": 0, "text": "Mount Fuji stands 3,778 metres above sea level.", "verdict": "supported", "citations": ["S2"]},
        {"index": 1, "text": "Mount Fuji is 3,776 m [S1] or 3,778 m [S2] tall.", "verdict": "supported",
         "citations": ["S1", "S2"]},  # gives both
        {"index": 2, "text": "Mount Fuji stands 3,778 metres high.", "verdict": "supported",
         "citations": ["S2", "S1"]},  # cites both: the reader sees both sources
        {"index": 3, "text": "Mount Fuji stands 3,778 metres.", "verdict": "unsupported", "citations": ["S2"]},
        {"index": 4, "text": "Mount Fuji is on Honshu.", "verdict": "supported", "citations": ["S1"]},
    ]
    assert contested_claims(claims, items) == {0: "3776 metres [S1]"}


@pytest.mark.parametrize(("lang", "label"), [("en", "supported by its source, but another source gives a different value"),
                                             ("ja", "裏付けあり（ただし別の出典は異なる値を示す）")])
def test_the_report_lists_a_contested_claim_with_the_other_value(lang, label):
    claim = {"index": 0, "text": "Mount Fuji stands 3,778 metres above sea level.", "verdict": "supported",
             "citations": ["S2"], "contested_by": "3776 metres [S1]"}
    data = ReportInput(question="How tall is Mount Fuji?", language=lang, model="m", session_id="s",
                       generated_at=datetime(2026, 1, 1, tzinfo=timezone.utc),
                       body_markdown="Mount Fuji stands 3,778 metres above sea level [S2].",
                       verification={"summary": {"claims": 1, "supported": 1}, "claims": [claim]})
    doc = build_report(data)
    assert [(c.verdict, c.text) for c in doc.verification.weak_claims] == [
        ("contested", "Mount Fuji stands 3,778 metres above sea level. ≠ 3776 metres [S1]")]
    assert f"- {label}: Mount Fuji stands 3,778 metres above sea level. ≠ 3776 metres \\[S1\\] (S2)" in render_markdown(doc)


def _grounded_check(call: Call) -> str:
    """Yes when the document holds the claim's figure next to the same words, as a grounded checker would."""
    assert call.model == "bespoke-minicheck" and call.node == "disagreements"
    document, claim = call.messages[0]["content"].split("\nClaim: ")
    figures = set(re.findall(r"\d[\d,]*", claim))
    return "Yes" if figures <= set(re.findall(r"\d[\d,]*", document)) and "Fuji" in document else "No"


def _checking_model() -> FakeModel:
    """A run with bespoke-minicheck installed; the prompt judge's reply is malformed (the fallback)."""
    return FakeModel(installed={"gpt-oss:20b", "bespoke-minicheck:latest"}, check=_grounded_check)


def _checked(model: FakeModel) -> list[str]:
    """What the checker was asked: its one message per call."""
    return [call.messages[0]["content"] for call in model.asked(ModelRole.CHECK)]


import re  # noqa: E402


async def test_the_fact_checking_model_judges_english_borderline_pairs_by_swapping_the_value():
    model = _checking_model()
    deps = SimpleNamespace(model=model, history=_History(), settings=Settings(_env_file=None))
    case = Case("", ["How tall is Mount Fuji?"],
                [("Mount Fuji", "Mount Fuji is 3,776 m tall."),
                 ("Fuji notes", "Mount Fuji, they say, measures 3,778 m.")], set())  # no attribute: borderline
    findings = find_disagreements(_docs(case), case.questions)
    assert findings.borderline and not findings.certain
    verdicts = await run_pair_judge(_docs(case), "en", deps)(findings.borderline)
    assert verdicts == {1: "disagree"}
    assert any("Claim: Mount Fuji, they say, measures 3,776 m." in asked for asked in _checked(model))
    assert model.asked(ModelRole.COMPARE) == []  # English pairs with plain figures never reach the prompt judge


async def test_a_japanese_pair_goes_to_the_prompt_judge_even_with_the_checker_installed():
    model = _checking_model()
    deps = SimpleNamespace(model=model, history=_History(), settings=Settings(_env_file=None))
    docs = _docs(Case("", [], BORDERLINE, set()))
    findings = find_disagreements(docs, ["How tall is Mount Fuji?", "富士山の標高"])
    assert findings.borderline
    assert await run_pair_judge(docs, "en", deps)(findings.borderline) == {}  # the fallback judged nothing
    assert len(model.asked(ModelRole.COMPARE)) == 1 and _checked(model) == []


def test_a_name_given_with_its_japanese_form_links_the_pages():
    # 江崎 is read エザキ: without the page that writes "Leo Esaki (江崎玲於奈)" the pair is only
    # borderline; with it, certain (ノーベル "noberu" and "Nobel" name the same prize).
    english = "Leo Esaki is a Japanese physicist. He won the Nobel Prize in Physics in 1973."
    japanese = "江崎玲於奈は日本の物理学者である。1975年にノーベル物理学賞を受賞した。"
    question = ["When did Leo Esaki win the Nobel Prize?"]
    without = find_disagreements(_docs(Case("", [], [("Leo Esaki", english), ("江崎玲於奈", japanese)], set())), question)
    assert not without.certain and len(without.borderline) == 1
    with_alias = english.replace("Leo Esaki is", "Leo Esaki (江崎玲於奈) is")
    found = find_disagreements(_docs(Case("", [], [("Leo Esaki", with_alias), ("江崎玲於奈", japanese)], set())), question)
    assert _positions(found.certain) == {("award", "S1", "S2")}


def test_two_eruptions_named_in_two_languages_are_two_events():
    # The real 1.5B model's run of "Mount Fuji (富士山): how high is it and when did it last erupt?" (bench_answers.py
    # --ollama, 2026-12-02): "Where the sources disagree" set 1707 (the Hōei eruption) against 864年 (the Jōgan
    # eruption, 貞観噴火) as dates of one eruption; the pair was borderline and the 1.5B judge called it a dispute.
    question = ["Mount Fuji (富士山): how high is it and when did it last erupt?"]
    english = "Mount Fuji is a volcano. The 1707 Hōei eruption spread volcanic ash as far as Edo."
    other = find_disagreements(_docs(Case("", [], [("Mount Fuji", english),
                                                   ("富士山", "富士山は火山です。864年の貞観噴火では青木ヶ原の溶岩流が生まれました。")],
                                          set())), question)
    assert not other.certain and not other.borderline
    # 宝永 is read ホウエイ, "Hōei": the same eruption, so its other date is a dispute to report.
    same = find_disagreements(_docs(Case("", [], [("Mount Fuji", english),
                                                  ("富士山", "富士山は火山です。1708年の宝永噴火では江戸に灰が降りました。")],
                                         set())), question)
    assert _positions(same.certain) == {("eruption", "S1", "S2")}


def test_an_english_sentence_with_a_japanese_name_in_brackets_is_english():
    fact = sentence_facts("S1", "Mount Fuji (富士山, Fujisan) is 3,776 m tall.")[0]
    assert fact.language == "en" and fact.entity == {"mount", "fuji"}


# --- real pages: what made false disagreements on RAGTruth's QA sources -----------------------


def test_a_figure_takes_only_an_attribute_that_can_measure_it():
    # "from the West" is a distance word, but 18 mph and 93 percent are no distance.
    fact = sentence_facts("S1", "Mount Fuji is 3,776 m tall, 100 km from Tokyo.")[0]
    assert fact.attribute == "height"
    assert all(f.attribute is None for f in sentence_facts(
        "S1", "There is 93 percentage chance of rain and 18 mph winds from the West-Northwest."))


def test_a_supposed_figure_is_no_fact():
    assert sentence_facts("S1", "If you are 5 feet 6 inches tall, your skis should be between 155 cm and 175 cm long.") == []
    assert sentence_facts("S1", "標高が3,000メートルなら、気温は低い。") == []


def test_figures_of_two_named_times_are_not_a_dispute():
    case = Case("", ["weather in Stuttgart"],
                [("", "In Stuttgart the maximum temperature will be 33℃ on Saturday 26th August."),
                 ("", "In Stuttgart the maximum temperature will be 11℃ on Wednesday 24th January.")], set())
    assert not find_disagreements(_docs(case), case.questions).certain
    same_day = Case("", ["weather in Stuttgart"],
                    [("", "In Stuttgart the maximum temperature will be 33℃ on Saturday 26th August."),
                     ("", "In Stuttgart the maximum temperature will be 29℃ on Saturday 26th August.")], set())
    assert _positions(find_disagreements(_docs(same_day), same_day.questions).certain) == {("temperature", "S1", "S2")}


def test_a_question_that_names_a_category_still_pairs_the_thing_both_pages_name():
    case = Case("", ["How tall is the tallest mountain in Japan?"],
                [("Japan", "Mount Fuji, the tallest mountain in Japan, is 3,776 m high."),
                 ("Peaks", "Japan's tallest mountain, Mount Fuji, stands 3,778 metres above sea level. "
                           "Mount Kita, the second highest in Japan, is 3,193 m high.")], set())
    assert _positions(find_disagreements(_docs(case), case.questions).certain) == {("height", "S1", "S2")}


def test_a_page_title_names_its_subject_before_the_site():
    from research.modules.text.disagreements import page_subject

    assert page_subject("富士山 - Wikipedia", []) == page_subject("Mount Fuji | Japan Guide", []) == {"mount", "fuji"}


async def test_the_compare_step_names_each_disagreement_in_progress_md_before_the_draft():
    """The compare step (its own line while it runs, its own section in progress.md) finds the
    planted disagreement before any draft exists, and a follow-up round keeps what it found."""
    from research.nodes.compare import compare_sources
    from research.state.progress_log import render_section

    model = _judging_model("disagree")
    deps = SimpleNamespace(model=model, history=_History(), settings=Settings(_env_file=None), progress=lambda event: None)
    docs = [{**doc, "canonical_url": doc["url"]} for doc in _docs(PLANTED[0])]
    state = {"question": PLANTED[0].questions[0], "language": "en", "session_id": "s", "documents": docs, "plan": []}
    update = await compare_sources(typed(state), deps)
    items = update["disagreements"].items
    assert len(items) == 1
    section = render_section("compare", {"language": "en"}, update, "en")
    assert section.startswith("## Where the sources disagree")
    for position in items[0].positions:
        assert position.value in section and all(f"[{label}]" in section for label in position.labels)
    # A follow-up round: the draft is being revised, the first round's comparison stands.
    assert await compare_sources(typed({**state, "draft": "x", "redraft_targets": ["y"]}), deps) == {}
    assert model.calls == []  # the two heights differ for sure: no judge asked

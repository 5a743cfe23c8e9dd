"""A judge protocol a small model can follow (issue 44, item 2): the drafting model chooses which
of a claim and its negation the passage supports, twice with the two swapped, and only the same
choice both times decides (modules/llm/judge.py). Measured like any judge before it counts
(workflow/judge_quality.py), and used when the batched verdict prompt measured untrusted
(RESEARCH_JUDGE_CHOICE, on by default; see README), only for claims whose "supported" would count.

The replies quoted below are Qwen2.5-Coder-1.5B's (../shared/realmodel) to this prompt on the
project's check set: it picked the claim in both orders for all 12 true claims, and for most
false ones picked "B" in both orders, that is, a different statement each time."""

from __future__ import annotations

import pytest

from research.cli.doctor import check_judge
from research.modules.core.settings import load_settings
from research.modules.llm.judge import negation_of, read_choice
from research.nodes import verification
from research.orchestrator.answer_check import check_draft, judge_uncertain_claims

SOURCE = ("Mount Fuji is the highest mountain in Japan at 3,776 m. Its last eruption began on "
          "16 December 1707 and ended on 1 January 1708. The mountain is located on Honshu, about 100 km "
          "southwest of Tokyo.")
DOCS = [{"label": "S1", "markdown": SOURCE, "status": "ok", "title": "Mount Fuji", "url": ""}]
# A paraphrase the quick checks leave open for its wording alone (partial_overlap, 0.85 of its words).
TRUE = "Mount Fuji, the highest mountain in Japan, stands at 3,776 m [S1]."
# False, its figures all in the passage, not bound to their slot (number_missing, 0.87): asked.
FALSE = "Mount Fuji was the highest mountain in Japan at 3,776 m until 1707 [S1]."
FAR = "Japan's tallest peak is Mount Fuji [S1]."  # true, but 0.6 of its words in the passage
EXCHANGED = "Mount Fuji lies on the island of Kyushu [S1]."  # Honshu: a name the passage does not give
ROLES = "Japan's highest mountain, Mount Fuji, rises 3,776 m [S1]."  # roles the checks could not confirm (0.85)


def test_the_negation_changes_no_word_of_the_claim():
    assert negation_of("The free-threaded build is the default build in Python 3.14.", "en") == \
        "It is not true that the free-threaded build is the default build in Python 3.14."
    # A name keeps its capital.
    assert negation_of("Marie Curie won the 1903 Nobel Prize in Chemistry.", "en") == \
        "It is not true that Marie Curie won the 1903 Nobel Prize in Chemistry."
    assert negation_of("宝永噴火は1709年に終わった。", "ja") == "「宝永噴火は1709年に終わった」というのは誤りである。"


@pytest.mark.parametrize("reply,letter", [
    ("A", "A"), ("B\n", "B"), ("The answer is C.", "C"), ("Answer: B", "B"), ("Ｂ", "B"), ("**A**", "A"),
    ("", None), ("I cannot tell from the passage.", None), ("Both", None),
])
def test_the_letter_is_read_from_what_a_model_writes(reply, letter):
    assert read_choice(reply) == letter


async def test_a_judge_that_says_supported_to_everything_is_asked_to_choose_instead(fake_ollama):
    # Asked for verdicts it says "supported" to everything (Qwen2.5-Coder-1.5B: 24 of 24); asked
    # to choose, it reads the passage.
    fake_ollama.judge_accuracy, fake_ollama.choice_accuracy = 0.0, 1.0
    claims, assessments = check_draft(f"{TRUE} {FALSE}", DOCS)
    assert [a.outcome for a in assessments] == ["uncertain", "uncertain"]
    complete, note = await judge_uncertain_claims(claims, assessments, "en",
                                                  load_settings(ollama_host=fake_ollama.url, judge_choice=True))
    # The true paraphrase is supported; the false sentence is not: its two choices differed (a
    # guess by position), so it stays "not checked" rather than becoming anyone's verdict.
    assert [a.outcome for a in assessments] == ["supported", "uncertain"]
    assert complete and note == ""
    asked = fake_ollama.chat_requests("choose")
    about_the_answer = [r for r in asked if "until 1707" in r["messages"][-1]["content"]]
    assert len(about_the_answer) == 2  # once in each order
    straight, swapped = (r["messages"][-1]["content"] for r in about_the_answer)
    assert "A: Mount Fuji was the highest mountain in Japan at 3,776 m until 1707" in straight \
        and "B: It is not true that" in straight
    assert "A: It is not true that" in swapped \
        and "B: Mount Fuji was the highest mountain in Japan at 3,776 m until 1707" in swapped


async def test_a_difference_the_checks_found_is_not_left_to_a_choice(fake_ollama):
    # A name exchanged, roles unconfirmed: the sentence reads almost as the passage does, which is
    # where the 1.5B model picks the claim whatever the difference (RAGTruth train, seed 46: "Boko
    # Haram militants attacked…" chosen where the passage says "suspected"). Not asked at all:
    # they stay "not checked", and no call is spent on them.
    fake_ollama.judge_accuracy, fake_ollama.choice_accuracy = 0.0, 0.0  # it would choose the claim
    claims, assessments = check_draft(f"{EXCHANGED} {ROLES}", DOCS)
    assert [a.reason for a in assessments] == ["missing_term", "role_unclear"]
    await judge_uncertain_claims(claims, assessments, "en", load_settings(ollama_host=fake_ollama.url))
    assert [a.outcome for a in assessments] == ["uncertain", "uncertain"]
    assert not [r for r in fake_ollama.chat_requests("choose") if "Kyushu" in r["messages"][-1]["content"]
                or "rises 3,776" in r["messages"][-1]["content"]]


async def test_a_chosen_claim_whose_figure_the_passage_lacks_is_not_checked(fake_ollama):
    # The judge chooses the claim both times (lenient), but 42 craters are nowhere in the passage:
    # the program does not take a small model's word on a number.
    fake_ollama.judge_accuracy, fake_ollama.choice_accuracy = 0.0, 1.0
    settings = load_settings(ollama_host=fake_ollama.url, judge_choice=True)
    await judge_uncertain_claims(*check_draft(TRUE, DOCS), "en", settings)  # measured and kept
    fake_ollama.choice_accuracy = 0.0
    claims, assessments = check_draft("Japan's tallest peak, Mount Fuji, has 42 craters [S1].", DOCS)
    assert assessments[0].outcome == "uncertain"
    await judge_uncertain_claims(claims, assessments, "en", settings)
    # Its choice could not count, so it is not asked.
    chosen = [r for r in fake_ollama.chat_requests("choose") if "42 craters" in r["messages"][-1]["content"]]
    assert not chosen and assessments[0].outcome == "uncertain"


async def test_a_chosen_claim_with_a_sixth_of_its_words_not_in_the_passage_is_not_checked(fake_ollama, monkeypatch):
    # The 1.5B model picks a true sentence with an unstated addition as readily as a true one
    # (RAGTruth train: 67.5% of hallucinated claims ended supported): its choice counts only
    # where the checks found 85% of the claim's words in the passage. The price: a true
    # paraphrase this far from the passage's words stays "not checked" too.
    fake_ollama.judge_accuracy, fake_ollama.choice_accuracy = 0.0, 1.0
    settings = load_settings(ollama_host=fake_ollama.url, judge_choice=True)
    claims, assessments = check_draft(f"{FAR} {TRUE}", DOCS)
    assert [a.outcome for a in assessments] == ["uncertain", "uncertain"] and assessments[0].score < 0.85
    await judge_uncertain_claims(claims, assessments, "en", settings)
    chosen = [r for r in fake_ollama.chat_requests("choose") if "tallest peak" in r["messages"][-1]["content"]]
    assert not chosen  # its choice could not count: not asked
    assert [a.outcome for a in assessments] == ["uncertain", "supported"]
    # Without that floor the same choices would have made it supported.
    monkeypatch.setattr(verification, "_CHOICE_COVERAGE", 0.0)
    claims, assessments = check_draft(f"{FAR} {TRUE}", DOCS)
    await judge_uncertain_claims(claims, assessments, "en", settings)
    assert [a.outcome for a in assessments] == ["supported", "supported"]


async def test_a_yes_or_a_no_is_not_left_to_a_choice(fake_ollama):
    # PubMedQA 21080127 (`research bench pubmedqa --sample 4 --seed 134`, gold maybe): the real 1.5B model's Summary "Yes,
    # implant retention can be recommended for treating infected TKA" was made supported by its own choice over "It is
    # not true that yes, …" (the page never writes "recommended"; its results favour removal). The answer's yes or no
    # is what the reader takes away: a model that picks the claim over its negation almost whatever it reads (RAGTruth
    # train: nearly every claim it was asked about) does not decide it. The same sentence without its yes is asked.
    fake_ollama.judge_accuracy, fake_ollama.choice_accuracy = 0.0, 1.0
    settings = load_settings(ollama_host=fake_ollama.url, judge_choice=True)
    await judge_uncertain_claims(*check_draft(TRUE, DOCS), "en", settings)  # measured and kept
    fake_ollama.choice_accuracy = 0.0  # it would choose the claim
    claims, assessments = check_draft(f"Yes, {TRUE[0].lower()}{TRUE[1:]} No, {TRUE}", DOCS)
    assert [a.outcome for a in assessments] == ["uncertain", "uncertain"]
    await judge_uncertain_claims(claims, assessments, "en", settings)
    assert [a.outcome for a in assessments] == ["uncertain", "uncertain"]
    assert not [r for r in fake_ollama.chat_requests("choose") if "Yes, " in r["messages"][-1]["content"]
                or "No, " in r["messages"][-1]["content"]]


async def test_doctor_says_the_judge_is_asked_to_choose(fake_ollama, tmp_path):
    fake_ollama.judge_accuracy, fake_ollama.choice_accuracy = 0.0, 1.0
    settings = load_settings(ollama_host=fake_ollama.url, sessions_dir=str(tmp_path / "sessions"), judge_choice=True)
    english = await check_judge(settings, "en")
    assert english.status == "ok" and "its negation" in english.detail
    japanese = await check_judge(settings, "ja")
    assert japanese.status == "ok" and "否定" in japanese.detail


async def test_by_default_an_untrusted_verdict_judge_is_asked_to_choose_and_can_be_told_not_to(fake_ollama):
    # On by default since the floor and the doubts it is asked about held on a third RAGTruth
    # sample (docs/benchmarks.md); RESEARCH_JUDGE_CHOICE=false leaves such claims "not checked".
    fake_ollama.judge_accuracy, fake_ollama.choice_accuracy = 0.0, 1.0
    claims, assessments = check_draft(f"{TRUE} {FALSE}", DOCS)
    complete, note = await judge_uncertain_claims(claims, assessments, "en", load_settings(ollama_host=fake_ollama.url))
    assert [a.outcome for a in assessments] == ["supported", "uncertain"] and complete
    fake_ollama.requests.clear()
    claims, assessments = check_draft(f"{TRUE} {FALSE}", DOCS)
    complete, note = await judge_uncertain_claims(claims, assessments, "en",
                                                  load_settings(ollama_host=fake_ollama.url, judge_choice=False))
    assert [a.outcome for a in assessments] == ["uncertain", "uncertain"] and not complete
    assert "50%" in note and not fake_ollama.chat_requests("choose")


async def test_a_round_with_nothing_to_choose_still_names_the_judge_that_chose(fake_ollama, tmp_path, monkeypatch):
    # Seen with the real model: the first round measured the choice (trusted) and it decided a
    # claim; the second round had no claim for it, so the verdict judge's 50% was reported and
    # the notes said the judge "decided nothing". A kept figure now says which judge it is.
    from research.modules.llm.model_manager import ModelManager
    from research.nodes.verification import verify_claims
    from research.state.agent_state import state_from_json
    from research.workflow.dependencies import WorkflowDependencies
    from fixtures.memory_history import MemoryHistory

    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    fake_ollama.judge_accuracy, fake_ollama.choice_accuracy = 0.0, 1.0
    settings = load_settings(ollama_host=fake_ollama.url, max_verification_loops=0)
    model = ModelManager(settings)
    await model.ensure_ready()
    deps = WorkflowDependencies(settings=settings, model=model, web_search=None, parser=None, history=MemoryHistory(),
                                measure_judge=True)

    async def verified(draft: str):
        state = {"question": "Where is Mount Fuji?", "session_id": "20250101_000000_abcdef", "language": "en",
                 "draft": f"## Summary\n{draft}\n", "search_rounds": 1,
                 "documents": [dict(DOCS[0], canonical_url="", language="en", snippets=[], key_facts=[])]}
        return (await verify_claims(state_from_json(state), deps)).update

    first = await verified(TRUE)
    assert first["verification"].summary.judge.protocol == "choice"
    assert [v.state.value for v in first["verification"].claims] == ["supported"]
    second = await verified(f"{FAR} {EXCHANGED}")
    judge = second["verification"].summary.judge
    assert judge.protocol == "choice" and judge.quality.trusted
    assert not [e for e in second.get("errors", []) if e.kind == "judge"]


async def test_a_choice_for_a_claim_its_passage_says_the_other_way_round_does_not_make_it_supported(fake_ollama):
    # Qwen2.5-Coder-1.5B chose "Yes, Python 3.14 has no GIL" over its negation in both orders,
    # against "…still has the GIL enabled by default" (issue 44's headline, in the words its
    # Japanese answer was translated to): supported, and the answer led with it. Where the checks
    # found the claim's polarity other than its passage's, a choice can only confirm the difference.
    from test_polarity import FULL_GIL_PAGE  # noqa: PLC0415

    fake_ollama.judge_accuracy, fake_ollama.choice_accuracy = 0.0, 1.0
    settings = load_settings(ollama_host=fake_ollama.url, judge_choice=True)
    await judge_uncertain_claims(*check_draft(TRUE, DOCS), "en", settings)  # measured and kept
    fake_ollama.choice_accuracy = 0.0  # a lenient model: it picks the claim
    docs = [{"label": "S1", "markdown": FULL_GIL_PAGE, "status": "ok", "title": "Free-threaded CPython", "url": ""}]
    claims, assessments = check_draft("Yes, Python 3.14 has no GIL [S1].", docs)
    assert (assessments[0].outcome, assessments[0].reason) == ("uncertain", "negation")
    await judge_uncertain_claims(claims, assessments, "en", settings)
    assert fake_ollama.chat_requests("choose")  # asked: its "unsupported" would count
    assert assessments[0].outcome == "uncertain"


async def test_a_choice_for_a_figure_the_checks_could_not_bind_to_its_slot_does_not_make_it_supported(fake_ollama):
    # The 1.5B model chose "Python got free-threading in 2023, with Python 3.13, released in October
    # 2024, …" over its negation (bench_answers.py --ollama: 2023 is the year PEP 703 was accepted).
    # A figure found in the passage but not in the slot the claim gives it is a comparison of
    # numbers, which a small model does not make: its choice can only confirm it unsupported.
    fake_ollama.judge_accuracy, fake_ollama.choice_accuracy = 0.0, 1.0
    settings = load_settings(ollama_host=fake_ollama.url, judge_choice=True)
    await judge_uncertain_claims(*check_draft(TRUE, DOCS), "en", settings)  # measured and kept
    fake_ollama.choice_accuracy = 0.0  # a lenient model: it picks the claim
    docs = [{"label": "S1", "status": "ok", "title": "PEP 703", "url": "", "markdown": (
        "The Python Steering Council accepted PEP 703 after a long debate. Python 3.13 shipped in 2024. "
        "PEP 554 dates from 2017.")}]
    claims, assessments = check_draft("The Python Steering Council accepted PEP 703 in 2024 [S1].", docs)
    assert (assessments[0].reason, assessments[0].bound_value) == ("number_missing", "2024")
    await judge_uncertain_claims(claims, assessments, "en", settings)
    assert [r for r in fake_ollama.chat_requests("choose") if "in 2024" in r["messages"][-1]["content"]]  # asked
    assert assessments[0].outcome == "uncertain"

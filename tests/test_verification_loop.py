"""Follow-up rounds: only what the verifier could not support is redrafted, and a round
that does not raise the supported share ends the loop (issue 15: 4 or 8 LLM calls for the
same inputs, each loop redrafting the whole answer)."""

from __future__ import annotations

from typing import Any

from fixtures.typed_state import typed
from fixtures.fake_model import FakeModel as SharedFakeModel
from test_verification_node import BAD, LEDGER, FakeModel, _deps, _state, _verify

from research.nodes.llm import redraft_unsupported
from research.workflow.prompts import RevisedSentence, SentenceRevisions
from research.workflow.verification_prompts import FollowUpPlan, FollowUpQuery, JudgeBatch, JudgeVerdict
from research.state.models import VerificationResult, VerificationSummary

JUDGE_NO = JudgeBatch(verdicts=[JudgeVerdict(id=1, verdict="unsupported", confidence=0.8)])
FOLLOW_UP = FollowUpPlan(queries=[FollowUpQuery(text="富士山 登山者数", language="ja")])


async def test_a_round_names_the_unsupported_sentences_and_hands_on_its_checked_draft():
    deps, _ = _deps(FakeModel(judge=JUDGE_NO, follow_ups=FOLLOW_UP), loops=2)
    result = await _verify(_state(BAD), deps)
    assert result["goto"] == "search"
    assert result["redraft_targets"] == ["富士山の山頂には奥宮がある[S99]。", "富士山は毎年30万人が登る人気の山である[S1]。"]
    assert result["draft"] == BAD and result["supported_shares"] == [result["verification"]["summary"]["supported_ratio"]]


async def test_a_round_that_did_not_help_ends_the_loop_without_asking_for_queries():
    model = FakeModel(judge=JUDGE_NO, follow_ups=FOLLOW_UP)
    deps, history = _deps(model, loops=2)
    state: dict[str, Any] = {**_state(BAD, loops=1), "supported_shares": [0.4]}
    result = await _verify(state, deps)
    summary = result["verification"]["summary"]
    assert summary["supported_ratio"] < 0.4 + 0.05
    assert result["goto"] == "report" and summary["loop_stopped"] == "no_gain"
    assert not model.asked(schema=FollowUpPlan) and result["redraft_targets"] == []


async def test_only_the_named_sentences_are_revised_or_dropped_the_rest_untouched():
    model = SharedFakeModel(revise=SentenceRevisions(sentences=[
        RevisedSentence(id=1, text=""),  # the sources say nothing: dropped
        RevisedSentence(id=2, text="富士山の標高は3,776メートルである[S1]。"),
    ]), strict=True)
    deps, _ = _deps(model)
    targets = ["富士山の山頂には奥宮がある[S99]。", "富士山は毎年30万人が登る人気の山である[S1]。"]
    state = {**_state(BAD), "documents": LEDGER}
    draft = await redraft_unsupported(BAD, targets, state, [d for d in LEDGER if d["status"] == "ok"], deps)
    (call,) = model.calls
    assert call.schema is SentenceRevisions and call.node == "llm"
    prompt = call.messages[1]["content"]
    assert "文 1: 富士山の山頂には奥宮がある[S99]。" in prompt and "[S1]" in prompt  # the evidence is shown
    assert "富士山の最後の噴火は1707年の宝永噴火である[S1]。" in draft  # supported: as written
    assert "奥宮" not in draft and "30万人" not in draft
    assert "富士山の標高は3,776メートルである[S1]。" in draft


# --- a round only when it can gain: decided before any model writes ----------------------------

WRONG_HEIGHT = "## 結論\n富士山の最後の噴火は1707年の宝永噴火である[S1]。\n富士山の標高は3,900メートルである[S1]。\n"


async def test_a_claim_its_passage_shows_false_is_settled_no_round_no_model_call():
    # The passage gives 3,776 for the same height: the sentence is false, settled by what was
    # read. The answer corrects or drops it; searching again could not change that.
    model = FakeModel(judge=JUDGE_NO, follow_ups=FOLLOW_UP)
    deps, history = _deps(model, loops=2, ratio=1.0)
    result = await _verify(_state(WRONG_HEIGHT), deps)
    summary = result["verification"]["summary"]
    assert summary["supported_ratio"] < 1.0
    assert result["goto"] == "report" and summary["loop_stopped"] == "nothing_to_settle"
    assert not model.asked(schema=FollowUpPlan) and result["redraft_targets"] == []


async def test_a_round_is_asked_only_for_the_claims_it_could_settle():
    # One sentence cites a source that does not exist (open), one gives a value its passage
    # contradicts (settled): the redraft names the open one only.
    draft = ("## 結論\n富士山の最後の噴火は1707年の宝永噴火である[S1]。\n富士山の山頂には奥宮がある[S99]。\n"
             "富士山の標高は3,900メートルである[S1]。\n")
    model = FakeModel(judge=JUDGE_NO, follow_ups=FOLLOW_UP)
    deps, _ = _deps(model, loops=2, ratio=1.0)
    result = await _verify(_state(draft), deps)
    assert result["goto"] == "search" and model.asked(schema=FollowUpPlan)
    assert result["redraft_targets"] == ["富士山の山頂には奥宮がある[S99]。"]


async def test_a_judged_claim_read_against_the_same_passages_is_not_judged_again():
    first = FakeModel(judge=JUDGE_NO, follow_ups=FOLLOW_UP)
    deps, _ = _deps(first, loops=2)
    earlier = await _verify(_state(BAD), deps)
    judged = [c for c in earlier["verification"]["claims"] if c["method"] == "model"]
    assert judged and all(c["read"] for c in judged)
    again = FakeModel(judge=JudgeBatch(verdicts=[JudgeVerdict(id=1, verdict="supported")]), follow_ups=FOLLOW_UP)
    deps, _ = _deps(again, loops=2)
    state = {**_state(BAD, loops=1), "verification": earlier["verification"], "supported_shares": [0.0]}
    result = await _verify(state, deps)
    assert not again.asked(schema=JudgeBatch)  # same sentence, same passages: the verdict stands
    before = {c["text"]: c["verdict"] for c in judged}
    after = {c["text"]: c["verdict"] for c in result["verification"]["claims"] if c["text"] in before}
    assert after == before


def test_a_redraft_waits_for_new_evidence_that_names_what_the_sentence_says():
    from research.nodes.llm import new_evidence_for

    targets = ["富士山は毎年30万人が登る人気の山である[S1]。"]
    seen = VerificationResult(summary=VerificationSummary(documents_seen=len(LEDGER)))
    state: dict[str, Any] = {**_state(BAD), "documents": LEDGER, "verification": seen}
    assert not new_evidence_for(targets, typed(state))  # nothing read since the verdicts
    climbers = {**LEDGER[0], "label": "S3", "url": "https://example.jp/climb", "canonical_url": "https://example.jp/climb",
                "markdown": "富士山には毎年約30万人が登山する。"}
    unrelated = {**climbers, "label": "S4", "markdown": "東京タワーの高さは333メートルである。"}
    assert not new_evidence_for(targets, typed({**state, "documents": [*LEDGER, unrelated]}))
    assert new_evidence_for(targets, typed({**state, "documents": [*LEDGER, unrelated, climbers]}))
    assert not new_evidence_for(targets, typed({**state, "documents": [*LEDGER, {**climbers, "status": "failed"}]}))


async def test_a_sentence_of_general_words_is_no_reason_to_search_again():
    # Said by no passage, but it names nothing a page could confirm: another round would find
    # the same kind of pages and cost a redraft and a judge call for nothing.
    draft = ("## Summary\nMount Fuji is the highest mountain in Japan at 3,776 m [S2].\n"
             "This is crucial for keeping the whole experience meaningful and rewarding.\n")
    model = FakeModel(judge=JUDGE_NO, follow_ups=FOLLOW_UP)
    deps, _ = _deps(model, loops=2, ratio=1.0)
    result = await _verify(_state(draft, language="en"), deps)
    assert result["verification"]["summary"]["supported_ratio"] < 1.0
    assert result["goto"] == "report" and result["verification"]["summary"]["loop_stopped"] == "nothing_to_settle"
    assert not model.asked(schema=FollowUpPlan)

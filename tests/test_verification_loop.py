"""Follow-up rounds: only what the verifier could not support is redrafted, and a round
that does not raise the supported share ends the loop (issue 15: 4 or 8 LLM calls for the
same inputs, each loop redrafting the whole answer)."""

from __future__ import annotations

from typing import Any

from test_verification_node import BAD, LEDGER, FakeModel, _deps, _state, _verify

from research.nodes.llm import redraft_unsupported
from research.nodes.prompts import RevisedSentence, SentenceRevisions
from research.nodes.verification_prompts import FollowUpPlan, FollowUpQuery, JudgeBatch, JudgeVerdict

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
    assert not model.calls_for(FollowUpPlan) and result["redraft_targets"] == []


class RevisingModel:
    """Answers the one revision call; anything else is a test failure."""

    def __init__(self, revisions: SentenceRevisions) -> None:
        self.revisions, self.calls = revisions, []

    async def structured(self, messages, schema, *, node, fallback, max_tokens=None):
        assert schema is SentenceRevisions and node == "llm"
        self.calls.append(messages)
        return self.revisions

    def context_budget(self, reserve: int) -> int:
        return 8192 - reserve


async def test_only_the_named_sentences_are_revised_or_dropped_the_rest_untouched():
    model = RevisingModel(SentenceRevisions(sentences=[
        RevisedSentence(id=1, text=""),  # the sources say nothing: dropped
        RevisedSentence(id=2, text="富士山の標高は3,776メートルである[S1]。"),
    ]))
    deps, _ = _deps(model)
    targets = ["富士山の山頂には奥宮がある[S99]。", "富士山は毎年30万人が登る人気の山である[S1]。"]
    state = {**_state(BAD), "documents": LEDGER}
    draft = await redraft_unsupported(BAD, targets, state, [d for d in LEDGER if d["status"] == "ok"], deps)
    assert len(model.calls) == 1
    prompt = model.calls[0][1]["content"]
    assert "文 1: 富士山の山頂には奥宮がある[S99]。" in prompt and "[S1]" in prompt  # the evidence is shown
    assert "富士山の最後の噴火は1707年の宝永噴火である[S1]。" in draft  # supported: as written
    assert "奥宮" not in draft and "30万人" not in draft
    assert "富士山の標高は3,776メートルである[S1]。" in draft

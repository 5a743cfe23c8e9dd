"""The grounded checker as judge (issue 21), in process: the real ``ollama`` client against the
fake Ollama speaking bespoke-minicheck's protocol, through ``judge_uncertain_claims`` (the
door `research verify` and the MCP ``verify`` tool use) and the verification node's judge.

The fake never knows the truth by itself: each test says which claims are true and how
accurate the checker is, so a wrong verdict here is the pipeline's doing, not the fake's.
"""

from __future__ import annotations

import random

import pytest
from fixtures.fake_ollama import FakeOllama
from research.workflow.judge_quality import CHECK_SET

from research.modules.core.settings import load_settings
from research.modules.llm.judge import (
    CHECKER,
    Judge,
    choose_judge,
    document_chunks,
    read_answer,
)
from research.modules.llm.model_manager import ModelManager
from research.modules.text.tokens import estimate_tokens
from research.nodes.verification import judge_uncertain
from research.orchestrator.answer_check import check_draft, judge_uncertain_claims

SOURCE = ("Mount Fuji is the highest mountain in Japan at 3,776 m. Its last eruption began on "
          "16 December 1707 and ended on 1 January 1708. The mountain is located on Honshu, about 100 km "
          "southwest of Tokyo.")
TRUE = "Japan's tallest peak is Mount Fuji [S1]."  # a paraphrase: the cheap checks cannot tell
FALSE = "Mount Fuji lies on the island of Kyushu [S1]."  # one term swapped: uncertain to them too
DOCS = [{"label": "S1", "markdown": SOURCE, "status": "ok", "title": "Mount Fuji", "url": ""}]
SOURCE_JA = "富士山は日本最高峰の山で、標高は3,776メートルである。最後の噴火は1707年の宝永噴火である。"


def _checked(draft: str, documents=DOCS):
    claims, assessments = check_draft(draft, documents)
    # What this file is about: sentences the cheap checks leave to a judge.
    assert all(a.outcome == "uncertain" and a.candidates for a in assessments), [
        (c.plain, a.outcome, a.reason) for c, a in zip(claims, assessments)]
    return claims, assessments


def _settings(fake: FakeOllama, **flags):
    return load_settings(ollama_host=fake.url, **flags)


def _checker_calls(fake: FakeOllama) -> list[dict]:
    return [r for r in fake.chat_requests() if r["model"].startswith(CHECKER)]


def _prompt_judge_calls(fake: FakeOllama) -> list[dict]:
    """The prompt judge's calls about the answer's own claims: not the one that measures the
    judge on the check set first (workflow/judge_quality.py, asserted where that is the point)."""
    return [r for r in fake.chat_requests() if (r.get("format") or {}).get("title") == "JudgeBatch"
            and not _measuring(r)]


def _measuring(request: dict) -> bool:
    return any(item.claim in request["messages"][-1]["content"] for item in CHECK_SET)


@pytest.fixture
def checker():
    with FakeOllama(models=("gpt-oss:20b", f"{CHECKER}:latest")) as fake:
        yield fake


# --- the reply and the document ------------------------------------------------------------------


@pytest.mark.parametrize("reply, expected", [
    ("Yes", True), ("No", False), (" yes.", True), ("No\n", False), ("Yes, because the document says so.", True),
    ("NO", False), ("", None), ("Maybe", None), ("Nope", None), ("Yesterday", None), ("**Yes**", None),
    ("<|channel|>analysis<|message|>Check.<|end|><|start|>assistant<|channel|>final<|message|>Yes<|return|>", None),
    ("analysisThe claim matches.assistantfinalYes", None), ("The answer is Yes", None),
])
def test_only_a_leading_yes_or_no_is_an_answer(reply, expected):
    assert read_answer(reply) is expected


def test_passages_are_chunked_in_order_within_the_budget():
    passages = [f"Sentence number {n} says something about Mount Fuji and its height." for n in range(40)]
    chunks = document_chunks(passages, budget=60)
    assert len(chunks) > 1
    assert all(estimate_tokens(chunk) <= 60 for chunk in chunks)
    assert "\n".join(chunks).split("\n") == passages  # nothing lost, nothing reordered
    long = "これは長い文です。" * 200  # one passage longer than the budget is cut, not dropped
    pieces = document_chunks([long], budget=100)
    assert len(pieces) > 1 and "".join(pieces) == long and all(estimate_tokens(p) <= 100 for p in pieces)


def test_which_judge():
    settings = load_settings()
    drafting = settings.model
    assert choose_judge(settings, drafting, {drafting, f"{CHECKER}:latest"}).protocol == "minicheck"
    assert choose_judge(settings, drafting, {drafting}) == Judge(drafting, "prompt", drafting)
    assert choose_judge(load_settings(judge_model=drafting), drafting, {drafting, CHECKER}).protocol == "prompt"
    guardian = choose_judge(load_settings(judge_model="granite3-guardian:8b"), drafting, {drafting, "granite3-guardian:8b"})
    assert (guardian.model, guardian.protocol) == ("granite3-guardian:8b", "guardian")
    missing = choose_judge(load_settings(judge_model="bespoke-minicheck:7b-q8_0"), drafting, {drafting})
    assert (missing.protocol, missing.model, missing.missing) == ("prompt", drafting, "bespoke-minicheck:7b-q8_0")
    japanese = choose_judge(settings, drafting, {drafting, CHECKER})
    assert japanese.protocol_for("富士山は高い。", ["Mount Fuji is high."]) == "prompt"
    assert japanese.protocol_for("Mount Fuji is high.", [SOURCE_JA]) == "prompt"
    assert japanese.protocol_for("Mount Fuji is high.", [SOURCE]) == "minicheck"
    # A Japanese name in an English passage does not make it Japanese.
    assert japanese.protocol_for("Mount Fuji is high.", ["Mount Fuji (富士山, Fujisan) is the highest mountain."]) == "minicheck"
    both = choose_judge(load_settings(judge_ja=True), drafting, {drafting, CHECKER})
    assert both.protocol_for("富士山は高い。", [SOURCE_JA]) == "minicheck"


# --- through the real client ------------------------------------------------------------------------


async def test_a_false_sentence_is_unsupported_and_a_true_one_supported(checker):
    checker.checker_truth = {"tallest peak": True, "Kyushu": False}
    claims, assessments = _checked(f"{TRUE} {FALSE}")
    complete, note = await judge_uncertain_claims(claims, assessments, "en", _settings(checker))
    assert complete and not note
    assert [a.outcome for a in assessments] == ["supported", "unsupported"]
    assert [a.reason for a in assessments] == ["judge", "judge"]
    calls = _checker_calls(checker)
    assert len(calls) == 2 and not _prompt_judge_calls(checker)  # one sentence per call, no prompt judge
    # The protocol of the model card: one user message, no system prompt, temperature 0; the
    # document is the passages the claim's checks chose, the claim without its citation.
    call = next(c for c in calls if c["messages"][-1]["content"].endswith("Kyushu."))
    (message,) = call["messages"]
    passages = "\n".join(p.text for p in assessments[1].candidates)
    assert message == {"role": "user", "content": f"Document: {passages}\nClaim: Mount Fuji lies on the island of Kyushu."}
    assert call["options"]["temperature"] == 0 and call["stream"] is False


async def test_the_verdict_follows_the_checker_not_the_truth(checker):
    """A checker that is always wrong (accuracy 0) is believed: the fake does not leak the answer."""
    checker.checker_truth = {"tallest peak": True, "Kyushu": False}
    checker.checker_accuracy = 0.0
    claims, assessments = _checked(f"{TRUE} {FALSE}")
    await judge_uncertain_claims(claims, assessments, "en", _settings(checker))
    assert [a.outcome for a in assessments] == ["unsupported", "supported"]


@pytest.mark.parametrize("reply, outcome", [
    (" yes.", "supported"), ("No\n", "unsupported"), ("Yes, because the source says Honshu.", "supported"),
    ("", "uncertain"), ("Maybe", "uncertain"), (("", "length"), "uncertain"),
    ("<|channel|>analysis<|message|>Hmm.<|end|><|start|>assistant<|channel|>final<|message|>Yes<|return|>", "uncertain"),
])
async def test_awkward_replies(checker, reply, outcome):
    checker.checker_replies = {"Kyushu": reply}
    claims, assessments = _checked(FALSE)
    complete, note = await judge_uncertain_claims(claims, assessments, "en", _settings(checker))
    assert assessments[0].outcome == outcome
    if outcome == "uncertain":
        # Never supported, and said: the claim is "not checked" in both doors' records.
        assert not complete and CHECKER in note
        assert assessments[0].verdict == "partly_supported"
    else:
        assert complete


async def test_without_the_checker_the_drafting_model_judges(fake_ollama):
    claims, assessments = _checked(f"{TRUE} {FALSE}")
    await judge_uncertain_claims(claims, assessments, "en", _settings(fake_ollama))
    assert len(_prompt_judge_calls(fake_ollama)) == 1
    assert not [r for r in fake_ollama.chat_requests() if r["model"] != "gpt-oss:20b"]


async def test_a_configured_judge_that_is_missing_is_said(fake_ollama):
    claims, assessments = _checked(TRUE)
    complete, note = await judge_uncertain_claims(claims, assessments, "en",
                                                  _settings(fake_ollama, judge_model=CHECKER))
    assert len(_prompt_judge_calls(fake_ollama)) == 1  # the drafting model judged instead
    assert "ollama pull bespoke-minicheck" in note


async def test_the_drafting_model_named_as_judge_means_the_prompt(checker):
    claims, assessments = _checked(TRUE)
    await judge_uncertain_claims(claims, assessments, "en", _settings(checker, judge_model="gpt-oss:20b"))
    assert len(_prompt_judge_calls(checker)) == 1 and not _checker_calls(checker)


async def test_calls_run_concurrently_within_the_limit(checker):
    checker.checker_delay = 0.15
    sentences = [f"Mount Fuji was climbed by {name} in a famous year [S1]." for name in
                 ("Alice", "Bob", "Carol", "Dave", "Erin", "Frank", "Grace", "Heidi", "Ivan")]
    claims, assessments = _checked(" ".join(sentences))
    await judge_uncertain_claims(claims, assessments, "en", _settings(checker, judge_concurrency=3))
    assert len(_checker_calls(checker)) == len(sentences)
    assert checker.checker_max_in_flight == 3


async def test_japanese_goes_to_the_drafting_model_unless_configured(checker):
    documents = [*DOCS, {"label": "S2", "markdown": SOURCE_JA, "status": "ok", "title": "富士山", "url": ""}]
    draft = f"{TRUE} 富士山は日本で一番高い山だと言える[S2]。"
    claims, assessments = _checked(draft, documents)
    await judge_uncertain_claims(claims, assessments, "en", _settings(checker))
    assert [c for c in checker.checker_claims] == ["Japan's tallest peak is Mount Fuji."]
    assert len(_prompt_judge_calls(checker)) == 1 and "富士山" in _prompt_judge_calls(checker)[0]["messages"][-1]["content"]

    with FakeOllama(models=("gpt-oss:20b", CHECKER)) as both:
        claims, assessments = _checked(draft, documents)
        await judge_uncertain_claims(claims, assessments, "en", _settings(both, judge_ja=True))
        assert len(both.checker_claims) == 2 and not _prompt_judge_calls(both)


async def test_chunks_are_tried_in_order_until_one_supports(checker):
    """MiniCheck's rule for a long document: supported when any chunk supports the claim,
    and no call after the chunk that does. (No truth given: the fake judges by overlap.)"""
    filler = " ".join(["Many people climb in summer."] * 1500)
    manager = ModelManager(_settings(checker))
    await manager.ensure_ready()
    outcomes = []
    for text in (filler + " Japan's tallest peak is Mount Fuji.", "Japan's tallest peak is Mount Fuji. " + filler):
        claims, assessments = _checked(TRUE)
        assessments[0].candidates[0].text = text
        before = len(_checker_calls(checker))
        await judge_uncertain(claims, assessments, ["lexical"], "en", manager, manager.settings.model_copy(update={"num_ctx": 16384}), [])
        outcomes.append((assessments[0].outcome, len(_checker_calls(checker)) - before))
    chunks = len(document_chunks([filler + " Japan's tallest peak is Mount Fuji."]))
    assert chunks >= 2
    assert outcomes == [("supported", chunks), ("supported", 1)]


async def test_guardian_groundedness(fake_ollama):
    fake_ollama.models.append("granite3-guardian:8b")
    fake_ollama.checker_truth = {"tallest peak": True, "Kyushu": False}
    claims, assessments = _checked(f"{TRUE} {FALSE}")
    await judge_uncertain_claims(claims, assessments, "en", _settings(fake_ollama, judge_model="granite3-guardian:8b"))
    assert [a.outcome for a in assessments] == ["supported", "unsupported"]
    request = next(r for r in fake_ollama.chat_requests() if r["model"].startswith("granite3-guardian"))
    assert [m["role"] for m in request["messages"]] == ["system", "context", "assistant"]
    assert request["messages"][0]["content"] == "groundedness"


async def test_measured_accuracy_follows_the_setting(checker):
    """With accuracy p the verdicts agree with the truth about p of the time (seeded)."""
    checker.checker_accuracy = 0.84
    checker.checker_rng = random.Random(7)
    names = [f"Climber{n:02d}" for n in range(60)]
    checker.checker_truth = {name: n % 2 == 0 for n, name in enumerate(names)}
    draft = " ".join(f"Mount Fuji was climbed by {name} in a famous year [S1]." for name in names)
    claims, assessments = _checked(draft)
    await judge_uncertain_claims(claims, assessments, "en", _settings(checker))
    right = sum((a.outcome == "supported") == (n % 2 == 0) for n, a in enumerate(assessments))
    assert 0.7 <= right / len(names) <= 0.95, right


async def test_the_mcp_verify_tool_uses_the_same_judge(checker):
    """The research MCP server's ``verify`` (text sources: nothing to fetch or parse)."""
    from research.servers.research.verify_tool import verify_answer  # noqa: PLC0415

    checker.checker_truth = {"tallest peak": True, "Kyushu": False}
    output = await verify_answer(f"{TRUE} {FALSE}", [SOURCE], _settings(checker), judge=True, lang="en")
    assert output.judged and [v.verdict for v in output.verdicts] == ["supported", "unsupported"]
    assert len(checker.checker_claims) == 2 and not _prompt_judge_calls(checker)

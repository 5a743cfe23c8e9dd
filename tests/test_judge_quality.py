"""Know the judge (issue 44, item 3): the drafting model as judge is measured on the project's
labelled check set before its verdicts count; one that cannot tell supported from unsupported
decides nothing, and every surface says so. Through the real ``ollama`` client against the fake
Ollama, whose judge answers by reading (its accuracy set by ``judge_accuracy``), and through the
verification step with the shared unit-test fake."""

from __future__ import annotations

import json

import pytest
from fixtures.fake_model import FakeModel
from fixtures.fake_ollama import FakeOllama

from research.modules.core.settings import Settings, load_settings
from research.modules.llm.judge import Judge
from research.modules.llm.model_manager import ModelManager
from research.workflow.dependencies import WorkflowDependencies
from research.workflow.judge_quality import CHECK_SET, TRUSTED_AT
from research.nodes.verification import measured_quality
from research.nodes.verification import verify_claims
from research.workflow.verification_prompts import JudgeBatch, JudgeVerdict
from research.orchestrator.answer_check import check_draft, judge_uncertain_claims
from research.state.agent_state import state_from_json
from fixtures.memory_history import MemoryHistory

SOURCE = ("Mount Fuji is the highest mountain in Japan at 3,776 m. Its last eruption began on "
          "16 December 1707 and ended on 1 January 1708. The mountain is located on Honshu, about 100 km "
          "southwest of Tokyo.")
DOCS = [{"label": "S1", "markdown": SOURCE, "status": "ok", "title": "Mount Fuji", "url": ""}]
TRUE = "Japan's tallest peak is Mount Fuji [S1]."  # a paraphrase the quick checks leave open
FALSE = "Mount Fuji lies on the island of Kyushu [S1]."
# Open for its wording alone, 85% of its words in the passage: a claim the choice protocol is asked.
CHOOSABLE = "Mount Fuji, the highest mountain in Japan, stands at 3,776 m [S1]."


def _judge_calls(fake: FakeOllama) -> list[dict]:
    return [r for r in fake.chat_requests() if (r.get("format") or {}).get("title") == "JudgeBatch"]


def _measuring(request: dict) -> bool:
    return any(item.claim in request["messages"][-1]["content"] for item in CHECK_SET)


def test_the_check_set_is_balanced_in_both_languages():
    for language in ("en", "ja"):
        items = [i for i in CHECK_SET if i.language == language]
        assert sum(i.supported for i in items) * 2 == len(items) >= 12
        # The kinds the issue names, on both sides.
        assert {"negation", "exchanged_term", "value", "status", "unstated"} <= {i.kind for i in items if not i.supported}


async def test_a_judge_that_says_supported_to_everything_decides_nothing(fake_ollama):
    fake_ollama.judge_accuracy = 0.0  # every verdict the lenient way: "supported"
    claims, assessments = check_draft(f"{TRUE} {FALSE}", DOCS)
    assert [a.outcome for a in assessments] == ["uncertain", "uncertain"]
    complete, note = await judge_uncertain_claims(claims, assessments, "en", load_settings(ollama_host=fake_ollama.url))
    # Neither sentence became "supported" on its word, and the user is told why in one line.
    assert [a.outcome for a in assessments] == ["uncertain", "uncertain"] and not complete
    assert "50%" in note and f"{TRUSTED_AT:.0%}" in note and "ollama pull bespoke-minicheck" in note
    assert "\n" not in note
    calls = _judge_calls(fake_ollama)
    # It was measured, and then not asked; measured in stages of 8 checks, and stopped after 16 once
    # even a perfect last stage could not bring it to the threshold (minutes saved with a small model).
    assert len(calls) == 2 and all(_measuring(call) for call in calls)
    assert "16" in note
    japanese = await judge_uncertain_claims(*check_draft(f"{TRUE} {FALSE}", DOCS), "ja",
                                            load_settings(ollama_host=fake_ollama.url))
    assert "判定モデル" in japanese[1] and "未確認" in japanese[1]


async def test_the_figure_is_kept_per_model_weights_and_measured_again_for_new_ones(fake_ollama):
    settings = load_settings(ollama_host=fake_ollama.url)
    claims, assessments = check_draft(TRUE, DOCS)
    complete, _ = await judge_uncertain_claims(claims, assessments, "en", settings)
    assert complete and assessments[0].outcome == "supported"  # the fake's judge reads well enough
    measured = [True, True, True]  # the 24 checks in three stages of 8
    assert [_measuring(c) for c in _judge_calls(fake_ollama)] == [*measured, False]
    # Another run on the same weights: the kept figure, no measuring call.
    await judge_uncertain_claims(*check_draft(TRUE, DOCS), "en", settings)
    assert [_measuring(c) for c in _judge_calls(fake_ollama)] == [*measured, False, False]
    # The model pulled anew (another digest): measured again.
    fake_ollama.digest = "f" * 64
    await judge_uncertain_claims(*check_draft(TRUE, DOCS), "en", settings)
    assert [_measuring(c) for c in _judge_calls(fake_ollama)] == [*measured, False, False, *measured, False]


async def test_the_measurement_says_what_it_missed(fake_ollama):
    manager = ModelManager(load_settings(ollama_host=fake_ollama.url))
    await manager.ensure_ready()
    quality = await measured_quality(Judge("gpt-oss:20b", "prompt", "gpt-oss:20b"), manager, manager.settings, again=True)
    assert quality.items == len(CHECK_SET) == quality.answered
    assert quality.trusted and quality.balanced_accuracy >= TRUSTED_AT
    wrong = round((1 - quality.supported_recall) * 12 + (1 - quality.unsupported_recall) * 12)
    assert len(quality.missed) == wrong  # each miss named by its kind and language


def _yes_to_everything(call):
    """A judge that answers every claim of a prompt "supported", naming its first sentence."""
    content = call.messages[-1]["content"]
    ids = [int(n) for n in __import__("re").findall(r"^(?:Claim|主張) (\d+) ", content, __import__("re").MULTILINE)]
    return JudgeBatch(verdicts=[JudgeVerdict(id=n, sentences=["P1.1"], verdict="supported") for n in ids])


def _verifying(settings: Settings, draft: str) -> tuple[WorkflowDependencies, dict]:
    """A run's verification step with a fake model that says "supported" to every verdict and
    chooses the first statement, and the state of a one-page run whose draft is ``draft``."""
    model = FakeModel(judge=_yes_to_everything, choose="A")
    model.settings = settings
    deps = WorkflowDependencies(settings=settings, model=model, web_search=None, parser=None, history=MemoryHistory(),
                                measure_judge=True)
    state = {"question": "Where is Mount Fuji?", "session_id": "20250101_000000_abcdef", "language": "en",
             "draft": f"## Summary\n{draft}\n", "search_rounds": 1,
             "documents": [dict(DOCS[0], canonical_url="", language="en", snippets=[], key_facts=[])]}
    return deps, state


async def test_in_a_run_an_untrusted_judge_leaves_its_claims_not_checked_and_says_so(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    # Asked for verdicts it says "supported" to everything; asked to choose (RESEARCH_JUDGE_CHOICE
    # on), it always picks the first statement: measured by both protocols, trusted by neither.
    deps, state = _verifying(Settings(max_verification_loops=0, num_ctx=8192, judge_choice=True), f"{CHOOSABLE} {FALSE}")
    command = await verify_claims(state_from_json(state), deps)
    verification = command.update["verification"]
    judge = verification.summary.judge
    assert judge.quality is not None and not judge.quality.trusted and judge.quality.balanced_accuracy == 0.5
    assert [v.state.value for v in verification.claims] == ["not_checked", "not_checked"]
    assert verification.summary.supported == 0
    (error,) = [e for e in command.update["errors"] if e.kind == "judge"]
    assert "decided nothing" in error.message
    saved = json.loads((tmp_path / "research" / "judge_quality.json").read_text("utf-8"))
    assert sorted((entry["protocol"], entry["trusted"]) for entry in saved.values()) == [("choice", False),
                                                                                       ("prompt", False)]
    # The measuring is said as it starts (minutes with a small model), and only while nothing is kept.
    told: list = []
    deps.progress = told.append
    await verify_claims(state_from_json(state), deps)
    assert not [m for m in told if getattr(m, "key", "") == "judge.measuring"]
    (tmp_path / "research" / "judge_quality.json").unlink()
    await verify_claims(state_from_json(state), deps)
    # Said once per protocol measured: the verdict prompt, then the choice.
    measuring = [m for m in told if getattr(m, "key", "") == "judge.measuring"]
    assert len(measuring) == 2 and all(m.params["items"] == 24 and m.params["model"] for m in measuring)


async def test_doctor_measures_the_judge_and_names_a_better_one(fake_ollama, tmp_path):
    from research.cli.doctor import check_judge

    settings = load_settings(ollama_host=fake_ollama.url, sessions_dir=str(tmp_path / "sessions"))
    good = await check_judge(settings, "en")
    assert good.status == "ok" and "its verdicts count" in good.detail
    fake_ollama.judge_accuracy = 0.0
    bad = await check_judge(settings, "ja")
    assert bad.status == "warn" and "50%" in bad.detail and "ollama pull bespoke-minicheck" in bad.detail
    assert "未確認" in bad.detail


async def test_the_choice_is_measured_only_when_a_claim_is_one_it_would_be_asked(tmp_path, monkeypatch):
    # Measuring a judge takes minutes on a laptop: the choice protocol is measured when a claim
    # it could decide is open, not for a draft whose open claims it would not be asked about (a
    # paraphrase far from the passage's words, a name exchanged).
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    deps, state = _verifying(Settings(max_verification_loops=0, num_ctx=8192), f"{TRUE} {FALSE}")
    await verify_claims(state_from_json(state), deps)
    saved = json.loads((tmp_path / "research" / "judge_quality.json").read_text("utf-8"))
    assert [entry["protocol"] for entry in saved.values()] == ["prompt"]
    state["draft"] = f"## Summary\n{CHOOSABLE}\n"
    await verify_claims(state_from_json(state), deps)
    saved = json.loads((tmp_path / "research" / "judge_quality.json").read_text("utf-8"))
    assert sorted(entry["protocol"] for entry in saved.values()) == ["choice", "prompt"]

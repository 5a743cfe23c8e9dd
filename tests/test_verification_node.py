"""The verification node with a fake model and a fake history passed through deps."""

from __future__ import annotations

from types import SimpleNamespace
import re
from typing import Any

from research.modules.core.settings import Settings
from research.workflow.dependencies import WorkflowDependencies
from research.nodes.verification import verify_claims
from research.workflow.answer import ProgramText, not_a_claim_reason
from research.modules.text.claims import split_claims
from research.state.agent_state import state_from_json
import pytest
from fixtures.fake_model import FakeModel as SharedFakeModel
from fixtures.memory_history import MemoryHistory

from research.workflow.verification_prompts import (
    FollowUpPlan,
    FollowUpQuery,
    JudgeBatch,
    JudgeVerdict,
)
from research.workflow.prompts import RewrittenSentence, SentenceRewrites

LEDGER = [
    {
        "label": "S1",
        "url": "https://example.jp/fuji",
        "canonical_url": "https://example.jp/fuji",
        "status": "ok",
        "language": "ja",
        "suspicious": True,
        "markdown": "富士山は日本最高峰の山で、標高は3,776メートルである。"
        "最後の噴火は1707年（宝永4年）の宝永噴火で、江戸にも火山灰が降った。",
        "snippets": [],
        "key_facts": [],
    },
    {
        "label": "S2",
        "url": "https://example.org/fuji",
        "canonical_url": "https://example.org/fuji",
        "status": "ok",
        "language": "en",
        "suspicious": False,
        "markdown": "Mount Fuji is the highest mountain in Japan at 3,776 m. Its last eruption began on "
        "16 December 1707 and ended on 1 January 1708.",
        "snippets": [],
        "key_facts": [],
    },
]


def _english_page(markdown: str) -> dict[str, Any]:
    """One English source, S1, holding ``markdown``: the ledger of most single-page tests here."""
    return dict(LEDGER[1], label="S1", markdown=markdown)


def FakeModel(*, judge: JudgeBatch | None = None, follow_ups: FollowUpPlan | None = None,
              rewrites: SentenceRewrites | None = None, **more: Any) -> SharedFakeModel:
    """The verification step's model: its three calls answered as the test gives them (None: the
    fallback); any other call fails the test."""
    return SharedFakeModel(judge=judge, follow_up=follow_ups, translate=rewrites, strict=True, **more)


def _deps(model: SharedFakeModel, *, loops: int = 2, ratio: float = 0.8) -> tuple[WorkflowDependencies, MemoryHistory]:
    history = MemoryHistory()
    settings = Settings(max_verification_loops=loops, verification_pass_ratio=ratio, num_ctx=8192)
    model.settings = settings  # the run's settings, as ModelManager has them
    return WorkflowDependencies(settings=settings, model=model, web_search=None, parser=None, history=history), history


def _state(draft: str, *, language: str = "ja", loops: int = 0) -> dict[str, Any]:
    return {
        "question": "富士山の最後の噴火は？",
        "session_id": "20250101_000000_abcdef",
        "language": language,
        "draft": draft,
        "documents": LEDGER,
        "search_rounds": loops + 1,  # a loop is a search round after the first
        "plan": [{"question": "富士山の最後の噴火は？", "queries": [{"text": "富士山 最後の噴火", "language": "ja"}]}],
        "errors": [{"node": "search", "kind": "search", "message": "earlier", "target": "a query"}],
    }


async def _verify(state: dict[str, Any], deps: WorkflowDependencies) -> dict[str, Any]:
    """The verifier's state update, with where it sends the run (its Command's goto) as "goto".
    ``state`` is given as JSON holds it and validated into the typed state; the verification,
    the follow-up queries and the errors come back in their JSON form (verification.json's)."""
    command = await verify_claims(state_from_json(state), deps)
    assert all(call.node == "verification" for call in deps.model.calls)
    update = dict(command.update)
    update["verification"] = update["verification"].as_json()
    update["follow_up_queries"] = [q.model_dump(mode="json", exclude_none=True) for q in update["follow_up_queries"]]
    if "errors" in update:
        update["errors"] = [error.as_state() for error in update["errors"]]
    return {**update, "goto": command.goto}


GOOD = "## 結論\n富士山の最後の噴火は1707年の宝永噴火である[S1]。富士山の標高は3,776メートルである[S1]。\n"
BAD = (
    "## 結論\n富士山の最後の噴火は1707年の宝永噴火である[S1]。\n"
    "富士山の山頂には奥宮がある[S99]。\n"
    "富士山は毎年30万人が登る人気の山である[S1]。\n"
)


async def test_fabricated_label_is_removed_and_unsupported_claim_flagged():
    # 30万人 is a figure the source does not give: uncertain for the cheap checks, the judge says no.
    model = FakeModel(judge=JudgeBatch(verdicts=[JudgeVerdict(id=1, verdict="unsupported", confidence=0.8)]))
    deps, history = _deps(model, loops=0)
    result = await _verify(_state(BAD), deps)
    verification = result["verification"]
    annotated = verification["annotated_draft"]
    assert "S99" not in annotated
    # issue 29: what the check rejected leaves the answer (listed with its passage by the report).
    assert "奥宮" not in annotated and "30万人" not in annotated
    assert "宝永噴火である[S1]。\n" in annotated  # the supported claim is left as written
    verdicts = {c["text"]: c for c in verification["claims"]}
    assert verdicts["富士山の山頂には奥宮がある。"]["verdict"] == "citation_invalid"
    assert verdicts["富士山の山頂には奥宮がある。"]["invalid_citations"] == ["S99"]
    assert verdicts["富士山は毎年30万人が登る人気の山である。"]["verdict"] == "unsupported"
    assert {c["text"]: c.get("removed_reason") for c in verification["claims"] if c.get("removed")} == {
        "富士山の山頂には奥宮がある。": "not_supported", "富士山は毎年30万人が登る人気の山である。": "not_supported"}
    summary = verification["summary"]
    assert summary["invalid_citations"] == ["S99"]
    assert (summary["claims"], summary["supported"], summary["unsupported"], summary["citation_invalid"]) == (3, 1, 1, 1)
    assert summary["suspicious_sources"] == ["S1"]
    assert history.files[("20250101_000000_abcdef", "verification.json")]["summary"] == summary


async def test_below_ratio_with_loops_left_goes_back_to_search_with_targeted_queries():
    model = FakeModel()  # structured() returns the fallback: the deterministic queries
    deps, _ = _deps(model, loops=2)
    result = await _verify(_state(BAD, loops=1), deps)
    assert result["goto"] == "search" and result["verification"]["summary"]["loops"] == 2
    texts = [q["text"] for q in result["follow_up_queries"]]
    # The question's topic, then the claim's own key words (issue 23, item 5).
    assert any(text.startswith("富士山") and "奥宮" in text for text in texts), texts
    assert any("人気" in text for text in texts) and not any("30万人" in text for text in texts)  # never the value
    assert all("[S" not in text for text in texts)
    assert all(q["language"] == "ja" for q in result["follow_up_queries"])
    assert result["verification"]["follow_up_queries"] == result["follow_up_queries"]
    assert len(model.asked(schema=FollowUpPlan)) == 1


async def test_model_follow_ups_are_used_without_repeating_earlier_queries():
    plan = FollowUpPlan(queries=[FollowUpQuery(text="富士山 最後の噴火", language="ja"), FollowUpQuery(text="Mount Fuji climbers per year", language="en")])
    deps, _ = _deps(FakeModel(follow_ups=plan))
    result = await _verify(_state(BAD), deps)
    texts = [q["text"] for q in result["follow_up_queries"]]
    assert texts[0] == "Mount Fuji climbers per year"
    assert "富士山 最後の噴火" not in texts  # already searched in this session


async def test_a_proposed_follow_up_about_something_else_is_not_searched():
    plan = FollowUpPlan(queries=[FollowUpQuery(text="LangGraph チェックポイント 入門", language="ja")])
    deps, _ = _deps(FakeModel(follow_ups=plan))
    texts = [q["text"] for q in (await _verify(_state(BAD), deps))["follow_up_queries"]]
    assert texts and not any("LangGraph" in text for text in texts)
    assert all(text.startswith("富士山") for text in texts)


async def test_no_loops_left_goes_to_report():
    deps, _ = _deps(FakeModel(), loops=2)
    result = await _verify(_state(BAD, loops=2), deps)
    assert result["goto"] == "report" and result["verification"]["summary"]["loops"] == 2
    assert result["follow_up_queries"] == []
    assert result["verification"]["summary"]["loops"] == 2


async def test_supported_draft_goes_to_report_without_model_calls():
    model = FakeModel()
    deps, _ = _deps(model)
    result = await _verify(_state(GOOD), deps)
    assert result["goto"] == "report" and result["verification"]["summary"]["loops"] == 0
    assert result["verification"]["summary"]["supported_ratio"] == 1.0
    assert model.calls == []
    assert "errors" not in result


async def test_borderline_claims_go_to_the_judge_in_one_batch():
    draft = "## 結論\n富士山の最後の噴火は1707年12月16日に始まった[S2]。\n富士山の最後の噴火は1707年の宝永噴火である[S1]。\n"
    judge = JudgeBatch(verdicts=[JudgeVerdict(id=1, verdict="supported"), JudgeVerdict(id=7, verdict="unsupported")])
    model = FakeModel(judge=judge)
    deps, _ = _deps(model)
    result = await _verify(_state(draft), deps)
    (call,) = model.asked(schema=JudgeBatch)
    prompt = call.messages[-1]["content"]
    assert "1707年12月16日" in prompt and "宝永噴火である" not in prompt  # only the borderline one
    # The passages first (a prefix every judge call of the run shares), the claims last, each
    # naming its passages; the reply is capped to a verdict a claim.
    assert prompt.startswith("文章:\n[P1.1] (S") and prompt.index("主張 1 (P") > prompt.index("[P1.1]")
    assert call.max_tokens <= 64
    first, second = result["verification"]["claims"]
    # The evidence shown is the source's own words from the program's copy, not a model's quote.
    assert (first["verdict"], first["method"], first["confidence"], first["evidence_label"]) == ("supported", "model", 0.7, "S2")
    assert "1707" in first["evidence"]
    assert (second["verdict"], second["method"]) == ("supported", "lexical")


async def test_judge_that_cannot_answer_leaves_claims_not_checked():
    draft = "## 結論\n富士山の最後の噴火は1707年12月16日に始まった[S2]。\n"
    model = FakeModel(judge=None)  # returns the fallback, as ModelManager does after bad JSON twice
    deps, _ = _deps(model, loops=0)
    result = await _verify(_state(draft), deps)
    (claim,) = result["verification"]["claims"]
    assert claim["outcome"] == "uncertain" and claim["checked"] is False
    annotated = result["verification"]["annotated_draft"]
    assert "（未確認）" in annotated and "⚠" not in annotated  # not checked is not "unsupported"
    assert result["verification"]["summary"]["not_checked"] == 1
    assert any(e["node"] == "verification" for e in result["errors"])


async def test_empty_judge_reply_is_a_failure_not_no_verdicts():
    draft = "## 結論\n富士山の最後の噴火は1707年12月16日に始まった[S2]。\n"
    deps, _ = _deps(FakeModel(judge=JudgeBatch(verdicts=[])), loops=0)
    result = await _verify(_state(draft), deps)
    (claim,) = result["verification"]["claims"]
    assert claim["checked"] is False and result["verification"]["summary"]["judge_complete"] is False


async def test_wrong_language_sentences_are_rewritten_in_one_batch():
    draft = (
        "## 結論\n富士山の最後の噴火は1707年の宝永噴火である[S1]。Mount Fuji is 3,776 m high [S2]. "
        "LangGraphのStateGraphはthread_idで状態を管理する。\n\n"
        "## Height\nMount Fuji is the highest mountain in Japan at 3,776 m [S2].\n"
    )
    rewrites = SentenceRewrites(sentences=[RewrittenSentence(id=1, text="富士山の標高は3,776 mである[S2]。"),
                                           RewrittenSentence(id=2, text="富士山は標高3,776 mで日本最高峰の山である[S2]。")])
    model = FakeModel(rewrites=rewrites)
    deps, _ = _deps(model)
    result = await _verify(_state(draft), deps)
    # The rewrite, then the rewritten sentences (they cite the English S2) put into English to be
    # checked: the fake gives its Japanese back, which stands for nothing (still "not checked"). So is
    # the uncited LangGraph sentence, which the Japanese S1 says nothing of: the English S2 might.
    call, *checked_as = model.asked(schema=SentenceRewrites)
    assert sorted(c.prompt for c in checked_as) == ["Sentence 1: LangGraphのStateGraphはthread_idで状態を管理する。",
                                                    "Sentence 1: 富士山の標高は3,776 mである。",
                                                    "Sentence 1: 富士山は標高3,776 mで日本最高峰の山である。"]
    # With no usable translation it is what the Japanese S1 makes of it, as before one was tried.
    (langgraph,) = [c for c in result["verification"]["claims"] if c["text"].startswith("LangGraph")]
    assert (langgraph["state"], langgraph["reason"], langgraph["checked_as"]) == ("not_supported", "unrelated", "")
    sent = call.messages[-1]["content"]
    assert sent == ("文 1: Mount Fuji is 3,776 m high [S2].\n"
                    "文 2: Mount Fuji is the highest mountain in Japan at 3,776 m [S2].")  # names and terms are not wrong
    annotated = result["verification"]["annotated_draft"]
    # The rewrites were not judged (the fake judge gives nothing): kept, marked "not checked" inside the sentence.
    assert "Mount Fuji" not in annotated and "## Height\n富士山は標高3,776 mで日本最高峰の山である[S2]（未確認）。" in annotated
    check = result["verification"]["summary"]["language_check"]
    assert (check["rewritten"], check["not_rewritten"], check["rewritten_sections"]) == (2, [], ["結論", "Height"])
    assert not [e for e in result.get("errors", []) if e["kind"] == "language"]


@pytest.mark.parametrize("rewrites", [
    SentenceRewrites(sentences=[RewrittenSentence(id=1, text="富士山は日本最高峰の山である。")]),  # the citation is lost
    SentenceRewrites(sentences=[RewrittenSentence(id=1, text="Still English [S2].")]),
    None,  # the model gave nothing usable
])
async def test_a_sentence_that_cannot_be_rewritten_leaves_the_final_answer_and_the_report_is_told(rewrites):
    draft = "## 結論\n富士山の最後の噴火は1707年の宝永噴火である[S1]。\n\nMount Fuji is the highest mountain in Japan at 3,776 m [S2].\n"
    deps, _ = _deps(FakeModel(rewrites=rewrites))
    result = await _verify(_state(draft), deps)
    assert result["goto"] == "report"
    # issue 23, item 4: it used to stay in the body with a note; the answer is in the language asked.
    assert "Mount Fuji is the highest mountain" not in result["verification"]["annotated_draft"]
    assert [c["removed_reason"] for c in result["verification"]["claims"] if c.get("removed")] == ["wrong_language"]
    check = result["verification"]["summary"]["language_check"]
    assert check["rewritten"] == 0 and len(check["not_rewritten"]) == 1
    (error,) = [e for e in result["errors"] if e["kind"] == "language"]
    assert error["message"].startswith("このレポートの1文は日本語ではなく、書き直せませんでした")


async def test_a_fact_said_only_in_the_other_language_reaches_the_answer_in_the_source_s_words():
    # issue 44, item 4: the rewrite failed (the model gave the sentence back), and the fact was in
    # no other sentence: it was dropped. Its cited source says it in Japanese; that sentence stands in.
    draft = ("## 結論\n富士山は日本最高峰の山である[S1]。\n\n"
             "Mount Fuji last erupted in 1707, when ash fell on Edo [S1].\n")
    rewrites = SentenceRewrites(sentences=[RewrittenSentence(id=1, text="Mount Fuji last erupted in 1707, when ash fell on Edo [S1].")])
    deps, _ = _deps(FakeModel(rewrites=rewrites))
    result = await _verify(_state(draft), deps)
    annotated = result["verification"]["annotated_draft"]
    assert "Mount Fuji" not in annotated
    assert "最後の噴火は1707年（宝永4年）の宝永噴火で、江戸にも火山灰が降った[S1]。" in annotated
    (claim,) = [c for c in result["verification"]["claims"] if "1707" in c["text"]]
    assert claim["verdict"] == "supported" and not claim.get("removed")
    check = result["verification"]["summary"]["language_check"]
    assert check["from_sources"] == ["Mount Fuji last erupted in 1707, when ash fell on Edo [S1]."]
    assert check["not_rewritten"] == []
    (note,) = [e for e in result["errors"] if e["kind"] == "language"]
    assert note["message"].startswith("モデルが別の言語で書き、書き直せなかった1文は")
    # A figure the cited source does not give in the asked language: nothing stands in, it is left out and said.
    draft = "## 結論\n富士山は日本最高峰の山である[S1]。\n\nMount Fuji last erupted in 1708 [S1].\n"
    result = await _verify(_state(draft), _deps(FakeModel(rewrites=rewrites))[0])
    check = result["verification"]["summary"]["language_check"]
    assert check["from_sources"] == [] and check["not_rewritten"] == ["Mount Fuji last erupted in 1708 [S1]."]
    assert "1708" not in result["verification"]["annotated_draft"]


async def test_english_flags_and_uncited_claim_gets_its_source():
    draft = (
        "## Summary\nThe highest mountain in Japan is Mount Fuji.\n"
        "Skiing is popular on its northern slopes every winter [S2].\n"
        "Mount Fuji has a ski resort on its summit [S2].\n"
    )
    judge = JudgeBatch(verdicts=[JudgeVerdict(id=1, verdict="partly_supported", confidence=0.6)])
    deps, _ = _deps(FakeModel(judge=judge), loops=0)
    result = await _verify(_state(draft, language="en"), deps)
    annotated = result["verification"]["annotated_draft"]
    assert "The highest mountain in Japan is Mount Fuji [S2]." in annotated
    # issue 29: not supported and partly supported sentences leave the answer; no soft marks.
    assert "winter" not in annotated and "summit" not in annotated and "⚠" not in annotated
    reasons = {c["text"]: c.get("removed_reason") for c in result["verification"]["claims"]}
    assert reasons["Skiing is popular on its northern slopes every winter."] == "not_supported"
    assert reasons["Mount Fuji has a ski resort on its summit."] == "partly_supported"


async def test_exception_from_model_is_recorded_not_raised():
    broken = RuntimeError("connection reset")
    deps, _ = _deps(FakeModel(judge=broken, follow_ups=broken, rewrites=broken))
    result = await _verify(_state(BAD), deps)
    assert result["goto"] == "search"  # the deterministic queries still work
    assert result["follow_up_queries"]
    assert any("connection reset" in e["message"] for e in result["errors"])


async def test_paragraph_end_citations_go_only_where_the_source_supports_them():
    # Citations only at the end of the paragraph: the first sentence is said by S2 and gets
    # its label; the second is in no source and keeps none (never a label the checks doubt).
    draft = (
        "## Summary\nMount Fuji is the highest mountain in Japan at 3,776 m. "
        "Its summit hosts a famous ski resort with twelve lifts. "
        "Its last eruption began on 16 December 1707 [S2].\n"
    )
    judge = JudgeBatch(verdicts=[JudgeVerdict(id=1, verdict="unsupported", confidence=0.8)])
    deps, _ = _deps(FakeModel(judge=judge), loops=0)
    result = await _verify(_state(draft, language="en"), deps)
    annotated = result["verification"]["annotated_draft"]
    assert "Japan at 3,776 m [S2]." in annotated
    assert "twelve lifts" not in annotated  # uncited and in no source: out of the answer
    assert "16 December 1707 [S2]." in annotated


def test_a_sentence_left_in_the_wrong_language_is_a_note_of_the_report_once():
    from research.nodes.report import degradation_notes

    error = {"node": "verification", "kind": "language", "message": "このレポートの1文は日本語ではなく、書き直せませんでした"}
    state = {"errors": [error, dict(error), {"node": "search", "kind": "search", "target": "a query", "message": "other"}]}
    assert degradation_notes(state, {}, "ja") == [error["message"]]


# --- issue 23, items 4 and 5: what the final answer keeps, and follow-up queries ------------------

CONTRADICTED = (
    "## 結論\n富士山の最後の噴火は1707年の宝永噴火である[S1]。富士山の最後の噴火は1708年である[S1]。"
    "富士山の標高は3,776メートルである[S1]。\n"
)


async def test_the_final_answer_drops_a_sentence_its_own_source_contradicts():
    deps, _ = _deps(FakeModel(), loops=0)
    result = await _verify(_state(CONTRADICTED), deps)
    verification = result["verification"]
    annotated = verification["annotated_draft"]
    assert "1708" not in annotated  # 1707 and 1708 never stand side by side
    assert "1707年の宝永噴火である[S1]。富士山の標高は" in annotated
    (removed,) = [c for c in verification["claims"] if c.get("removed")]
    assert "1708" in removed["text"] and removed["reason"] == "number_mismatch"
    assert verification["summary"]["removed"] == 1


async def test_the_models_own_source_list_is_not_part_of_the_answer():
    # The real 1.5B model (bench_answers, 「富士山の標高は？」) wrote its sources under 「### 参考文献」 in the
    # body: the report lists the sources read; their addresses were read as 15 figures no source holds.
    draft = ("## 結論\n富士山の最後の噴火は1707年の宝永噴火である[S1]。\n\n### 参考文献\n\n"
             "[S1] 富士山 — https://example.org/ja/fuji\n[S2] Mount Fuji — https://example.org/fuji\n\n"
             "## 詳細\n\n宝永噴火では江戸にも火山灰が降った[S1]。\n\n## References\n\n- [S1] https://example.org/ja/fuji\n")
    deps, _ = _deps(FakeModel(), loops=0)
    annotated = (await _verify(_state(draft), deps))["verification"]["annotated_draft"]
    assert "参考文献" not in annotated and "References" not in annotated and "example.org" not in annotated
    assert "1707年の宝永噴火である[S1]。" in annotated and "## 詳細\n\n宝永噴火では江戸にも火山灰が降った[S1]。" in annotated


async def test_a_source_list_under_a_line_that_names_it_is_not_part_of_the_answer():
    # The real 1.5B model (`bench_answers.py --ollama`, 2026-12-02, "Mount Fuji (富士山): how high is it and when did
    # it last erupt?") ended its draft with "Sources:" on a line and its labels on the next: checked as a claim, and
    # the line would have stayed in the answer once it was not.
    draft = ("## 結論\n富士山の最後の噴火は1707年の宝永噴火である[S1]。\n\nSources:\n[S1] [S2]\n\n"
             "## 詳細\n\n宝永噴火では江戸にも火山灰が降った[S1]。\n\n**出典：**\n- [S1] 富士山\n")
    deps, _ = _deps(FakeModel(), loops=0)
    verification = (await _verify(_state(draft), deps))["verification"]
    annotated = verification["annotated_draft"]
    assert "Sources" not in annotated and "出典" not in annotated and "[S2]" not in annotated, annotated
    assert "## 詳細\n\n宝永噴火では江戸にも火山灰が降った[S1]。" in annotated, annotated
    assert not any("Sources" in c["text"] for c in verification["claims"])


async def test_a_source_list_headed_shiryo_is_not_part_of_the_answer():
    # The real 1.5B model (`research bench jsquad --sample 5 --seed 74`, a question on Italy and Ethiopia)
    # wrote 「## 資料」 over each page's title and sentences pasted from it, another country's history among
    # them; they stayed in the answer as a section of their own, each sentence cited and supported.
    draft = ("## 結論\n富士山の最後の噴火は1707年の宝永噴火である。\n\n## 資料\n\n"
             "富士山 — https://example.org/ja/fuji [S1]\n- 宝永噴火では江戸にも火山灰が降った。\n")
    deps, _ = _deps(FakeModel(), loops=0)
    annotated = (await _verify(_state(draft), deps))["verification"]["annotated_draft"]
    assert "資料" not in annotated and "example.org" not in annotated and "江戸" not in annotated, annotated


async def test_a_draft_without_headings_whose_sentences_all_go_says_so_under_the_summary():
    # The real 1.5B model (`research bench pubmedqa --sample 4 --seed 75`, PubMedQA 10411439) answered in one
    # uncited line with no heading; it was taken out, the checked answer was empty, and the report showed
    # the unchecked draft in its place (its notes said the sentence was left out).
    draft = "Yes, the Lloyd-Davies position with Trendelenburg is a disaster waiting to happen.\n"
    deps, _ = _deps(FakeModel(), loops=0)
    state = dict(_state(draft, language="en"), question="Lloyd-Davies position with Trendelenburg--a disaster waiting to happen?")
    answer = (await _verify(state, deps))["verification"]["annotated_draft"]
    assert answer == "## Summary\n\nThe sources read do not answer the question directly; no checked sentence could be given here.\n"
    # What stands of such a draft goes under the Summary's heading too (PubMedQA 12947068, --seed 76: the
    # sources' words and a sentence marked not checked, with no heading above them).
    deps, _ = _deps(FakeModel(), loops=0)
    state = dict(_state("Mount Fuji is a mountain in Japan [S1].\n", language="en"), question="What is Mount Fuji?")
    answer = (await _verify(state, deps))["verification"]["annotated_draft"]
    assert answer.startswith("## Summary\n\n") and "Mount Fuji is a mountain in Japan" in answer, answer


async def test_a_flag_never_runs_into_the_next_japanese_sentence():
    draft = "## 結論\n富士山の山頂には奥宮がある[S99]。富士山の標高は3,776メートルである[S1]。\n"
    deps, _ = _deps(FakeModel(), loops=0)
    annotated = (await _verify(_state(draft), deps))["verification"]["annotated_draft"]
    assert annotated == "## 結論\n富士山の標高は3,776メートルである[S1]。\n"  # the invented citation's sentence is gone


async def test_follow_up_queries_carry_the_topic_and_the_claims_key_words_never_a_cut_sentence():
    from research.nodes.verification import _fallback_queries
    from research.state.models import ClaimVerdict

    def unsupported(text: str, **more: Any) -> ClaimVerdict:
        return ClaimVerdict(index=0, text=text, verdict="unsupported", **more)

    claim = "1708年の宝永噴火を最後に、富士山は噴火していない[S1]。"
    (query,) = _fallback_queries([unsupported(claim)], "富士山の最後の噴火は？")
    words = query.text.split()
    assert words[0] == "富士山" and "宝永噴火" in words
    assert "噴火してい" not in query.text
    # issue 29, item 8: the value in doubt is what the search must find, never what it asks for.
    assert "1708" not in query.text
    (english,) = _fallback_queries([unsupported("Its last eruption was in 1708, during the Hōei eruption [S1].")],
                                   "When did Mount Fuji last erupt?")
    assert english.text.startswith("Mount Fuji") and "Hōei" in english.text and "1708" not in english.text
    (swapped,) = _fallback_queries([unsupported("富士山の最後の噴火は天明噴火である[S1]。", missing=["天明噴火"])],
                                   "富士山の最後の噴火は？")
    assert "天明" not in swapped.text and swapped.text.startswith("富士山")


async def test_a_proposed_follow_up_query_that_repeats_the_disputed_value_or_the_sentence_is_not_sent():
    plan = FollowUpPlan(queries=[FollowUpQuery(text="Python 3.15, released in October 2024, shipped", language="en"),
                                 FollowUpQuery(text="富士山 登山者 毎年 30万人", language="ja"),
                                 FollowUpQuery(text="富士山 標高 国土地理院", language="ja")])
    draft = "## 結論\n富士山の登山者は毎年30万人である[S1]。\nPython 3.15, released in October 2024, shipped free threading [S2].\n"
    deps, _ = _deps(FakeModel(follow_ups=plan), loops=2)
    result = await _verify(_state(draft), deps)
    sent = [q["text"] for q in result["follow_up_queries"]]
    assert "富士山 標高 国土地理院" in sent
    assert not [q for q in sent if "30万人" in q or "3.15" in q or "released in October" in q]


async def test_a_page_title_written_as_a_sentence_is_not_a_supported_claim():
    ledger = [dict(LEDGER[1], title="Mount Fuji: facts and history")]
    draft = "## Answer\nMount Fuji: facts and history [S2].\nMount Fuji is the highest mountain in Japan at 3,776 m [S2].\n"
    deps, _ = _deps(FakeModel(), loops=0)
    verification = (await _verify(dict(_state(draft, language="en"), documents=ledger), deps))["verification"]
    assert [c["text"] for c in verification["claims"]] == ["Mount Fuji is the highest mountain in Japan at 3,776 m."]
    assert verification["summary"]["supported"] == 1


async def test_an_uncited_sentence_the_judge_supports_cites_the_one_source_it_was_checked_against():
    # issue 29, with the real model: a small model cites nothing. When everything the judge read
    # came from one source, that source is cited, so the reader can trace the sentence.
    draft = "## 結論\n富士山の最後の噴火では江戸にも火山灰が降り積もった。\n"
    model = FakeModel(judge=JudgeBatch(verdicts=[JudgeVerdict(id=1, verdict="supported", confidence=0.9)]))
    deps, _ = _deps(model, loops=0)
    verification = (await _verify(_state(draft), deps))["verification"]
    (claim,) = verification["claims"]
    assert (claim["verdict"], claim["cited_by_check"]) == ("supported", ["S1"])
    assert verification["annotated_draft"] == "## 結論\n富士山の最後の噴火では江戸にも火山灰が降り積もった[S1]。\n"
    # General knowledge a lenient judge lets pass, whose words the source mostly lacks, is not attributed.
    draft = "## 結論\n富士山は毎年30万人が登る人気の山である。\n"
    verification = (await _verify(_state(draft), _deps(model, loops=0)[0]))["verification"]
    assert verification["claims"][0]["removed_reason"] == "uncited" and "30万人" not in verification["annotated_draft"]


async def test_an_uncited_sentence_with_every_term_in_the_source_and_wordy_filler_cites_it():
    # issue 44, the real Qwen2.5-Coder-1.5B on "Is the GIL gone in Python 3.14?": its one sentence
    # that answers the question cited nothing, and "as evidenced by the fact that" kept its words'
    # coverage at 0.64, below 0.7: the judge found it supported and the answer still lost it.
    gil = ("The standard build of Python 3.14 still has the GIL enabled by default. In Python 3.14 the "
           "free-threaded build became officially supported, though it is still not the default build.")
    ledger = [_english_page(gil)]
    sentence = ("The GIL is still present in Python 3.14, as evidenced by the fact that the standard build of "
                "Python 3.14 has the GIL enabled by default.")
    model = FakeModel(judge=JudgeBatch(verdicts=[JudgeVerdict(id=1, verdict="supported")]))
    state = dict(_state(f"## Summary\n{sentence}\n", language="en"), documents=ledger,
                 question="Is the GIL gone in Python 3.14?")
    verification = (await _verify(state, _deps(model, loops=0)[0]))["verification"]
    (claim,) = verification["claims"]
    assert claim["score"] < 0.7
    assert (claim["verdict"], claim["cited_by_check"]) == ("supported", ["S1"])
    assert "still present in Python 3.14" in verification["annotated_draft"]


async def test_an_uncited_sentence_whose_words_the_sources_mostly_lack_is_not_counted_as_supported():
    # issue 23, item 4: a sentence with no citation could count as supported on the judge's word;
    # the judge's word alone is still not enough when the cheap checks found few of its words.
    ledger = [*LEDGER, dict(LEDGER[0], label="S3", url="https://example.jp/fuji2", canonical_url="https://example.jp/fuji2",
                            markdown="富士山は人気の山で、夏には多くの登山者が訪れる。")]
    draft = "## 結論\n富士山は毎年30万人が登る人気の山である。\n"
    model = FakeModel(judge=JudgeBatch(verdicts=[JudgeVerdict(id=1, verdict="supported", confidence=0.9)]))
    deps, _ = _deps(model, loops=0)
    verification = (await _verify(dict(_state(draft), documents=ledger), deps))["verification"]
    (claim,) = verification["claims"]
    # The judge's "supported" is not even confirmed now: the sentences it named lack 30万人
    # (issue 44, the judge protocol); either way the sentence is not counted as supported.
    assert (claim["verdict"], claim["reason"]) == ("partly_supported", "number_missing")
    assert verification["summary"]["supported"] == 0
    assert "30万人" not in verification["annotated_draft"]
    assert claim["removed_reason"] == "uncited"


async def test_a_sentence_left_in_the_wrong_language_is_not_in_the_final_answer():
    # issue 23, item 4: one that could not be rewritten stayed in the body with a note.
    draft = "## 結論\n富士山の標高は3,776メートルである[S1]。Its last eruption was in 1707 [S2].\n"
    deps, _ = _deps(FakeModel(rewrites=SentenceRewrites(sentences=[])), loops=0)
    result = await _verify(_state(draft), deps)
    verification = result["verification"]
    assert "Its last eruption" not in verification["annotated_draft"]
    assert "3,776メートル" in verification["annotated_draft"]
    (left,) = [c for c in verification["claims"] if c.get("removed")]
    assert left["removed_reason"] == "wrong_language"
    assert any("最終的な回答からは除きます" in e["message"] for e in result["errors"])


# --- issue 29: the answer is assembled from the verdicts ---------------------------------------------

OLLAMA_LEDGER = [{
    "label": "S1", "url": "https://docs.example.org/ollama", "canonical_url": "https://docs.example.org/ollama",
    "status": "ok", "language": "en", "suspicious": False, "title": "Running gpt-oss locally with Ollama",
    "markdown": "Ollama serves a REST API on port 11434 by default. The gpt-oss-20b model needs about 16 GB of "
                "memory and runs on consumer hardware.",
    "snippets": [], "key_facts": [],
}]


async def test_a_value_its_passage_gives_differently_is_corrected_from_the_passage():
    # From the issue: "serves a REST API on port 11444 by default [S1]. ⚠ unverified" stayed in the answer.
    draft = ("## Summary\nOllama serves a REST API on port 11444 by default [S1]. "
             "The gpt-oss-20b model needs about 16 GB of memory [S1].\n")
    state = dict(_state(draft, language="en"), question="Can gpt-oss-20b run locally with Ollama?",
                 documents=OLLAMA_LEDGER, plan=[])
    deps, _ = _deps(FakeModel(), loops=0)
    verification = (await _verify(state, deps))["verification"]
    answer = verification["annotated_draft"]
    assert "11444" not in answer and "port 11434 by default [S1]." in answer
    (fix,) = verification["summary"]["corrected"]
    assert (fix["value"], fix["source_value"]) == ("11444", "11434")
    assert verification["summary"]["supported"] == verification["summary"]["claims"] == 2


async def test_a_value_the_question_asks_about_is_not_corrected_into_a_yes():
    # The real 1.5B model at 8fad382: "Does Ollama listen on port 8080 by default?" answered "Yes,
    # Ollama listens on port 8080 by default." became "Yes, Ollama listens on port 11434 by default
    # [S1].": a yes to the question its source denies. The premise stays contradicted, and the
    # answer opens with what the source says.
    draft = "## Summary\nYes, Ollama serves a REST API on port 8080 by default [S1].\n"
    state = dict(_state(draft, language="en"), question="Does Ollama serve its REST API on port 8080 by default?",
                 documents=OLLAMA_LEDGER, plan=[])
    verification = (await _verify(state, _deps(FakeModel(), loops=0)[0]))["verification"]
    answer = verification["annotated_draft"]
    assert not verification["summary"]["corrected"]
    assert answer.startswith("## Summary\nAccording to the sources read, «Ollama serves a REST API on port 11434 by "
                             "default."), answer
    assert "Yes" not in answer
    # A value the question does not ask about is still corrected (the test above).


async def test_titles_prompt_text_placeholders_and_repeats_never_reach_the_answer():
    # The issue's examples: a page title as a sentence, a leaked repair prompt, a template slot in a
    # heading, the same sentence twice and "[S1] [S1]".
    draft = (
        "## Summary\nRunning gpt-oss locally with Ollama [S1]. Ollama serves a REST API on port 11434 by default [S1] [S1].\n\n"
        "## <Theme> 1. Memory\nThe gpt-oss-20b model needs about 16 GB of memory [S1]. "
        "Your reply was not valid JSON for the required schema (1 validation error for SentenceRevisions).\n\n"
        "## Details\nOllama serves a REST API on port 11434 by default [S1].\n"
    )
    state = dict(_state(draft, language="en"), question="Can gpt-oss-20b run locally with Ollama?",
                 documents=OLLAMA_LEDGER, plan=[])
    deps, _ = _deps(FakeModel(), loops=0)
    verification = (await _verify(state, deps))["verification"]
    answer = verification["annotated_draft"]
    assert answer == ("## Summary\nOllama serves a REST API on port 11434 by default [S1].\n\n"
                      "## Memory\nThe gpt-oss-20b model needs about 16 GB of memory [S1].\n")
    assert verification["summary"]["left_out"] == {"not_a_claim": 2, "duplicate": 1}
    assert [c["text"] for c in verification["claims"] if not c.get("removed")] == [
        "Ollama serves a REST API on port 11434 by default.", "The gpt-oss-20b model needs about 16 GB of memory."]


async def test_a_sentence_about_another_topic_is_left_out_even_when_its_source_supports_it():
    # From the issue: a Mount Fuji follow-up opened with a LangGraph persistence sentence, counted supported.
    ledger = [dict(LEDGER[1], title="Mount Fuji"),
              {"label": "S3", "url": "https://example.org/langgraph", "canonical_url": "https://example.org/langgraph",
               "status": "ok", "language": "en", "suspicious": False, "title": "LangGraph persistence",
               "markdown": "LangGraph saves a checkpoint of the graph state at every super-step.",
               "snippets": [], "key_facts": []}]
    draft = ("## Summary\nLangGraph saves a checkpoint of the graph state at every super-step [S3]. "
             "Its last eruption began on 16 December 1707 [S2].\n")
    state = dict(_state(draft, language="en"), question="When did it last erupt?", documents=ledger, plan=[],
                 conversation=[{"question": "How high is Mount Fuji?", "answer": "3,776 m [S2]."}])
    deps, _ = _deps(FakeModel(), loops=0)
    verification = (await _verify(state, deps))["verification"]
    assert verification["annotated_draft"] == "## Summary\nIts last eruption began on 16 December 1707 [S2].\n"
    (off,) = [c for c in verification["claims"] if c.get("removed")]
    assert off["removed_reason"] == "off_topic" and off["verdict"] == "supported"


async def test_a_question_written_in_title_case_does_not_make_each_of_its_words_a_name():
    # PubMedQA 26285789 with the real 1.5B model (2026-11-29): the Summary kept "However, there are
    # limitations, such as the need for central pathologic review and the small number of patients
    # included in some substages [S5]", a kidney-cancer study's limitations, for a question on thyroid
    # cancers: the title's capitals made "cancer" a name, and the kidney abstract names cancer.
    # (Abstracts written here, in the shape of PubMedQA's.)
    thyroid = ("Radioiodine refractory thyroid cancers carry BRAF or RAS mutations in most patients. Knowing the "
               "mutation guided the choice of kinase inhibitor in 41 of 52 patients.")
    kidney = ("A multicenter study validated the 2009 TNM staging of kidney cancer in 5339 patients. The major "
              "limitations of the study are retrospective design, lack of central pathologic review, and the small "
              "number of patients included in some substages.")
    ledger = [{**LEDGER[0], "label": "S1", "language": "en", "title": "PubMed 1", "url": "file:///c/1.md",
               "canonical_url": "file:///c/1.md", "markdown": thyroid},
              {**LEDGER[0], "label": "S2", "language": "en", "title": "PubMed 2", "url": "file:///c/2.md",
               "canonical_url": "file:///c/2.md", "markdown": kidney}]
    draft = ("## Summary\nKnowing the mutation guided the choice of kinase inhibitor in 41 of 52 patients [S1]. "
             "However, there are limitations, such as the lack of central pathologic review and the small number of "
             "patients included in some substages [S2].\n")
    question = "Does Molecular Genotype Provide Useful Information in the Management of Radioiodine Refractory " \
               "Thyroid Cancers?"
    state = dict(_state(draft, language="en"), question=question, documents=ledger, plan=[])
    verification = (await _verify(state, _deps(FakeModel(), loops=0)[0]))["verification"]
    assert verification["annotated_draft"] == ("## Summary\nKnowing the mutation guided the choice of kinase "
                                               "inhibitor in 41 of 52 patients [S1].\n"), verification["annotated_draft"]
    (off,) = [c for c in verification["claims"] if c.get("removed")]
    assert off["removed_reason"] == "off_topic"


async def test_a_verb_of_the_models_own_queries_does_not_make_another_topic_on_topic():
    # Qwen2.5-Coder-1.5B, 「量子ビットとは？」 (2026-11-28): its queries asked 「…どのような特徴を持つ？」,
    # and the Summary's LangGraph sentence 「…3つのノードを持つグラフを…」 stayed in the answer, on
    # topic by the verb 持つ alone.
    quantum = "量子ビットは0と1の重ね合わせの状態をとることができる。量子もつれは2つの量子ビットの状態を結びつける。"
    langgraph = ("LangGraphはチェックポインターを使ってグラフの状態を保存します。3つのノードを持つグラフを最後まで"
                 "実行すると、入力時に1つ、3回のスーパーステップの後にそれぞれ1つ、合計4つのチェックポイントが書き込まれます。")
    ledger = [{**LEDGER[0], "label": "S1", "language": "ja", "title": "量子コンピュータの基礎（解説資料）",
               "markdown": quantum},
              {**LEDGER[0], "label": "S3", "url": "https://example.org/langgraph", "language": "ja",
               "canonical_url": "https://example.org/langgraph", "title": "LangGraphのチェックポイント",
               "markdown": langgraph}]
    draft = ("## 結論\n量子ビットは0と1の重ね合わせの状態をとることができる[S1]。"
             "また、LangGraphのチェックポイントでは3つのノードを持つグラフを最後まで実行すると、入力時に1つ、"
             "3回のスーパーステップの後にそれぞれ1つ、合計4つのチェックポイントが書き込まれます[S3]。\n\n"
             "## 量子ビットの特徴\n量子もつれは2つの量子ビットの状態を結びつける[S1]。\n")
    plan = [{"question": q, "queries": [{"text": q, "language": "ja"}]} for q in
            ("量子ビットはどのような特徴を持つ？", "量子ビットはどのような技術を用いる？")]
    state = dict(_state(draft), question="量子ビットとは？", documents=ledger, plan=plan)
    deps, _ = _deps(FakeModel(), loops=0)
    verification = (await _verify(state, deps))["verification"]
    answer = verification["annotated_draft"]
    assert "LangGraph" not in answer and "チェックポイント" not in answer
    assert "重ね合わせ" in answer and "量子もつれ" in answer  # the sentences on the question stay
    (off,) = [c for c in verification["claims"] if c.get("removed")]
    assert off["removed_reason"] == "off_topic"


async def test_sections_left_after_repeats_are_numbered_from_one_in_the_answer():
    # Qwen2.5-Coder-1.5B, 「量子ビットとは？」 (2026-11-28): sections 1 and 2 only repeated the
    # Summary; the answer on stdout then went "## 結論", "## 3. …", "## 4. …" (report.md said 1, 2).
    source = {**LEDGER[0], "label": "S1", "language": "ja", "title": "量子コンピュータの基礎（解説資料）",
              "markdown": "量子ビットは0と1の重ね合わせの状態をとることができる。量子もつれは2つの量子ビットの状態を結びつける。"
                          "IBMは2021年に127量子ビットのEagleを発表した。"}
    draft = ("## 結論\n\n量子ビットは、0と1の重ね合わせの状態をとることができる[S1]。\n\n"
             "## 1. 量子ビットとは？\n\n量子ビットは、0と1の重ね合わせの状態をとることができる[S1]。\n\n"
             "## 2. 量子ビットはどのような特徴を持つ？\n\n量子ビットは、0と1の重ね合わせの状態をとることができる[S1]。\n\n"
             "## 3. 量子ビットの量子もつれ\n\n量子もつれは2つの量子ビットの状態を結びつける[S1]。\n\n"
             "## 4. 量子ビットの開発\n\nIBMは2021年に127量子ビットのEagleを発表した[S1]。\n")
    state = dict(_state(draft), question="量子ビットとは？", documents=[source], plan=[])
    deps, _ = _deps(FakeModel(), loops=0)
    answer = (await _verify(state, deps))["verification"]["annotated_draft"]
    headings = [line for line in answer.splitlines() if line.startswith("#")]
    assert headings == ["## 結論", "## 1. 量子ビットの量子もつれ", "## 2. 量子ビットの開発"], answer


async def test_a_finding_that_says_nothing_the_summary_did_not_is_a_repeat():
    # Qwen2.5-Coder-1.5B, 「富士山の最後の噴火はいつ？」 (2026-11-28): under the Summary's sentence, a
    # finding that says it again in other words. A finding with a word of its own stays.
    source = {**LEDGER[0], "label": "S1", "language": "ja",
              "markdown": "富士山の最後の噴火は1707年の宝永噴火である。宝永噴火は16日間続いた。"}
    draft = ("## 結論\n富士山の最後の噴火は1707年の宝永噴火です[S1]。\n\n"
             "## 1. 富士山の噴火の歴史\n宝永噴火は富士山の噴火の最後です[S1]。宝永噴火は16日間続いた[S1]。\n")
    state = dict(_state(draft), documents=[source], question="富士山の最後の噴火はいつ？", plan=[])
    deps, _ = _deps(FakeModel(), loops=0)
    verification = (await _verify(state, deps))["verification"]
    answer = verification["annotated_draft"]
    assert "宝永噴火は富士山の噴火の最後です" not in answer
    assert "富士山の最後の噴火は1707年の宝永噴火です[S1]" in answer and "宝永噴火は16日間続いた[S1]" in answer
    assert verification["summary"]["left_out"]["duplicate"] == 1


async def test_a_not_checked_sentence_never_opens_the_summary_and_its_mark_stays_inside_it():
    draft = "## 結論\n富士山は日本で人気のある山である[S1]。富士山の標高は3,776メートルである[S1]。\n"
    deps, _ = _deps(FakeModel(), loops=0)  # the judge gives no verdict: the first sentence is not checked
    answer = (await _verify(_state(draft), deps))["verification"]["annotated_draft"]
    assert answer == "## 結論\n富士山の標高は3,776メートルである[S1]。富士山は日本で人気のある山である[S1]（未確認）。\n"


async def test_a_sentence_no_judge_decided_whose_figure_its_passage_does_not_give_leaves_the_answer():
    # A figure is what a reader takes on trust: not checked and not in its passage, it goes (the
    # careless fake with an untrusted judge kept 「…再生可能エネルギーの割合は9.2%だった[S1]（未確認）」,
    # 9.2% being solar's share). It is named "not checked" wherever it is counted or listed, as the
    # table counts it: the GIL run's notes said "1 partly supported" where its table said 0.
    from research.nodes.report import answer_notes
    from research.state.models import VerificationSummary

    draft = "## 結論\n富士山は毎年30万人が登る人気の山である[S1]。富士山の標高は3,776メートルである[S1]。\n"
    deps, _ = _deps(FakeModel(), loops=0)  # the judge gives no verdict
    verification = (await _verify(_state(draft), deps))["verification"]
    assert verification["annotated_draft"] == "## 結論\n富士山の標高は3,776メートルである[S1]。\n"
    first = verification["claims"][0]
    assert (first["checked"], first["reason"], first["removed_reason"]) == (False, "number_missing", "not_checked")
    assert verification["summary"]["left_out"] == {"not_checked": 1}
    summary = VerificationSummary.model_validate(verification["summary"])
    (note,) = answer_notes(summary, "ja")
    assert "未確認" in note and "一部のみ裏付け" not in note
    (note,) = answer_notes(summary, "en")
    assert "1 not checked" in note and "partly supported" not in note


async def test_a_figure_given_to_a_topic_no_sentence_says_it_of_leaves_the_answer_named_not_checked():
    # The real 1.5B model (bench_answers.py --ollama, 2026-11-30): 21.7% is all renewables' share, not
    # solar's. Not checked (no judge decides a doubt of roles), and a figure a reader would take on
    # trust: it goes, counted as not checked; the true sentence beside it stays.
    energy = dict(LEDGER[0], markdown="2022年度の日本の発電電力量に占める再生可能エネルギーの割合は21.7%だった。"
                                      "再生可能エネルギーの内訳では太陽光発電が9.2%で最も多く、水力発電が7.6%で続いた。")
    draft = ("## 結論\n太陽光発電は日本の発電電力量に占める再生可能エネルギーの割合が21.7%で最も多く、水力発電が7.6%で続いた[S1]。"
             "再生可能エネルギーの内訳では太陽光発電が9.2%で最も多い[S1]。\n")
    state = dict(_state(draft), documents=[energy], question="日本の再生可能エネルギーの内訳は？",
                 plan=[{"question": "日本の再生可能エネルギーの内訳は？", "queries": []}])
    deps, _ = _deps(FakeModel(), loops=0)  # the judge gives no verdict
    verification = (await _verify(state, deps))["verification"]
    assert verification["annotated_draft"] == "## 結論\n再生可能エネルギーの内訳では太陽光発電が9.2%で最も多い[S1]。\n"
    first = verification["claims"][0]
    assert (first["state"], first["reason"], first["removed_reason"]) == ("not_checked", "roles_unconfirmed", "not_checked")


async def test_a_sentence_that_wraps_the_source_s_sentence_is_said_as_the_source_says_it():
    # The real 1.5B model (bench_answers.py --ollama, 2026-11-30): the page's one fact, written inside
    # words the page lacks and citing nothing, left the answer as uncited; the answer said nothing.
    quantum = dict(LEDGER[0], markdown="量子ビットは0と1の重ね合わせの状態をとることができる。"
                                       "古典的なビットは0か1のどちらか一方の値しかとらない。")
    draft = ("## 結論\n量子ビットは、量子コンピュータの基本的な構造の一つです。"
             "これは、古典的なビットと異なり、0と1の重ね合わせの状態をとることができる特性を持つ。\n")
    state = dict(_state(draft), documents=[quantum], question="量子ビットとは？",
                 plan=[{"question": "量子ビットとは？", "queries": []}])
    deps, _ = _deps(FakeModel(), loops=0)
    verification = (await _verify(state, deps))["verification"]
    assert verification["annotated_draft"] == "## 結論\n量子ビットは0と1の重ね合わせの状態をとることができる[S1]。\n"
    # Not where the sentence denies it, nor where what it points back to is another thing.
    for wrapped in ("量子ビットは、量子コンピュータの基本的な構造の一つです。これは、0と1の重ね合わせの状態をとることができるわけではない。",
                    "古典的なビットは、0か1の値をとる。これは、0と1の重ね合わせの状態をとることができる特性を持つ。"):
        verification = (await _verify(dict(state, draft=f"## 結論\n{wrapped}\n"), deps))["verification"]
        assert "量子ビットは0と1の重ね合わせの状態をとることができる[S1]" not in verification["annotated_draft"], wrapped


async def test_a_sub_question_the_sources_do_not_answer_is_said_plainly():
    draft = ("## 結論\n富士山の標高は3,776メートルである[S1]。\n\n## 富士山の標高は？\n富士山の標高は3,776メートルである[S1]。"
             "富士山は日本最高峰である[S1]。\n\n## 富士山の登山者数は？\n富士山は毎年30万人が登る[S1]。\n")
    plan = [{"question": "富士山の標高は？", "queries": []}, {"question": "富士山の登山者数は？", "queries": []}]
    judge = JudgeBatch(verdicts=[JudgeVerdict(id=1, verdict="unsupported", confidence=0.8)])
    deps, _ = _deps(FakeModel(judge=judge), loops=0)
    verification = (await _verify(dict(_state(draft), plan=plan, question="富士山の標高と登山者数は？"), deps))["verification"]
    answer = verification["annotated_draft"]
    assert "30万人" not in answer
    assert "## 富士山の登山者数は？\n\n読み込んだ出典には、この点についての記述がありませんでした: 富士山の登山者数は？" in answer
    assert verification["summary"]["not_given"] == ["富士山の登山者数は？"]


async def test_a_sentence_about_the_page_itself_or_a_question_is_not_part_of_the_answer():
    # From a careless draft: 「この資料は富士山の火山防災についてまとめたものである[S1]。」 says what a page is.
    draft = ("## 結論\nこの資料は富士山の噴火についてまとめたものである[S1]。富士山の最後の噴火はいつだったのか？[S1]\n"
             "富士山の最後の噴火は1707年の宝永噴火である[S1]。\n")
    deps, _ = _deps(FakeModel(), loops=0)
    answer = (await _verify(_state(draft), deps))["verification"]["annotated_draft"]
    assert answer == "## 結論\n富士山の最後の噴火は1707年の宝永噴火である[S1]。\n"


async def test_a_finding_on_the_subject_but_not_on_what_is_asked_is_left_out():
    # The real model (Qwen2.5-Coder-1.5B) for 「富士山の最後の噴火はいつ？」 wrote, under bare-numbered
    # headings, true and cited sentences about Fuji that say nothing of its eruptions.
    draft = ("## 結論\n富士山の最後の噴火は1707年の宝永噴火である[S1]。\n\n"
             "## 1\n富士山は日本最高峰の山である[S1]。\n\n"
             "## 2\n宝永噴火では江戸にも火山灰が降った[S1]。\n\n"
             "## 3\n富士山の標高は3,776メートルである[S1]。\n")
    deps, _ = _deps(FakeModel(), loops=0)
    verification = (await _verify(_state(draft), deps))["verification"]
    answer = verification["annotated_draft"]
    assert "1707年の宝永噴火" in answer and "江戸にも火山灰" in answer  # the answer, and a finding on it
    assert "日本最高峰" not in answer and "3,776" not in answer
    assert verification["summary"]["left_out"]["off_topic"] == 2
    # A question that asks nothing beyond its subject lets every finding on it stand.
    state = dict(_state(draft), question="富士山について", plan=[{"question": "富士山について", "queries": []}])
    answer = (await _verify(state, _deps(FakeModel(), loops=0)[0]))["verification"]["annotated_draft"]
    assert "日本最高峰" in answer and "3,776" in answer


@pytest.mark.parametrize("questions, finding, kept", [
    # What the question asks about its subject: the finding shares "erupt" with it.
    (["When did Mount Fuji last erupt?"], "Its last eruption began on 16 December 1707 [S2].", True),
    (["When did Mount Fuji last erupt?"], "Mount Fuji was listed as a World Heritage site in 2013 [S2].", False),
    # "What is X": whatever is said of X answers it, whatever else is asked beside it.
    (["What is PEP 703 and when did Python get free-threading?"],
     "PEP 703 proposes making the global interpreter lock optional in CPython [S1].", True),
    (["Tell me about Mount Fuji"], "Mount Fuji was listed as a World Heritage site in 2013 [S2].", True),
    # Inside Japanese prose every Latin word reads as a name; the plan's English query says which are.
    (["Mount Fuji (富士山): how high is it and when did it last erupt?",
      "Mount Fuji how high is it and when did it last erupt"],
     "The last eruption of Mount Fuji was the Hōei eruption in 1707 [S2].", True),
    (["富士山の最後の噴火はいつ？"], "富士山は日本最高峰の山である[S1]。", False),
])
def test_a_finding_must_say_something_of_what_is_asked(questions, finding, kept):
    from research.workflow.answer import Topic

    (claim,) = split_claims(finding)
    assert Topic.of(questions, []).on_the_point(claim, []) is kept


# Two PubMedQA questions (quoted from ../shared/bench/pubmedqa/dev.json). 11713724: "T-stage" reads as a
# name, and the real 1.5B model's sentence on buccal mucosal tumours went as off topic for lack of it
# (its sentences written here). 9854965 names nothing: the Summary kept other studies' findings that
# share one word with it, and the grader read the answer's "no" from one of them (the bench at
# 2fa120f; the real 1.5B model's sentences, shortened).
_BUCCAL = "Cancer of the buccal mucosa: are margins and T-stage accurate predictors of local control?"
_DEMENTIA = "Dementia and aphasia in motor neuron disease: an underrecognised association?"


@pytest.mark.parametrize("question, sentence, on_topic", [
    (_BUCCAL, "Of the patients with buccal mucosal tumours, 56% had a local recurrence [S1].", True),
    (_BUCCAL, "Patients irradiated for a rectal cancer needed more radical surgery [S2].", False),
    (_BUCCAL, "The independent predictors of survival in the gastric cohort were tumour size and nodes [S3].", False),
    (_DEMENTIA, "In a cohort of patients with motor neuron disease, 28% had global cognitive dysfunction [S1].", True),
    (_DEMENTIA, "Family caregivers of dementia patients are at increased risk of developing depression [S2].", False),
    (_DEMENTIA, "The timing of PEG tube insertion was not associated with survival after feeding tube insertion [S3].",
     False),
])
def test_a_sentence_that_names_nothing_the_question_names_needs_two_of_its_terms(question, sentence, on_topic):
    from research.workflow.answer import Topic

    (claim,) = split_claims(sentence)
    assert Topic.of([question], []).is_on_topic(claim) is on_topic


def _page(label: str, title: str, markdown: str) -> SimpleNamespace:
    """A page read, as ``Topic.of`` takes it (label, title, status, markdown)."""
    return SimpleNamespace(label=label, title=title, status="ok", markdown=markdown)


def _read_on_topic(question: str, pages: list[SimpleNamespace], *sentences: str) -> list[bool]:
    """Whether each of ``sentences`` (one claim each) is on topic for ``question`` with ``pages`` read."""
    from research.workflow.answer import Topic

    topic = Topic.of([question], pages)
    return [topic.is_on_topic(split_claims(sentence)[0]) for sentence in sentences]


def test_of_such_a_question_the_cited_page_must_hold_half_its_terms_too():
    # PubMedQA 23348330 with the real 1.5B model at 2fa120f: "Nasal fractures: is closed reduction
    # satisfying?" kept another study's finding that shares "fracture" and "reduction" with it. The
    # pages are the bench's (their first sentences, quoted from ../shared/bench/pubmedqa/dev.json).
    pages = [_page("S1", "PubMed 23348330", (
                 "This study aims to evaluate the efficacy of closed reduction and the effects of timing and fracture "
                 "types on patient satisfaction. Only patients with isolated nasal fractures were included in the study.")),
             _page("S5", "PubMed 24183388", (
                 "To assess if the Hawkins sign can predict whether or not astragalus fractures of the neck will develop "
                 "avascular necrosis. It is also assessed whether the occurrence of this complication is related to the "
                 "displacement of the fracture, soft tissue injury, or delay in the reduction or surgery."))]
    other = ("The study by [S5] found that the Hawkins sign can predict whether or not astragalus fractures of the neck "
             "will develop avascular necrosis, and that it is not related to the displacement of the fracture or delay "
             "in the reduction.")
    own = "The study by [S1] found that 65% of patients were satisfied with the result, while 35% were not."
    assert _read_on_topic("Nasal fractures:  is closed reduction satisfying?", pages, other, own) == [False, True]


def test_a_sentence_that_names_nothing_asked_stands_on_a_page_that_is_about_the_question():
    # PubMedQA 9854965 with the real 1.5B model (`research bench pubmedqa --sample 4 --seed 121`): its Summary led
    # with another study's methods, «In each case we applied published criteria for subclassification of FTLD-TDP
    # …», on topic because that page holds half the question's words (dementia, motor neuron, disease). A page that
    # holds half of them must also hold what tells the question's page from the others, as for a sentence that names
    # enough. The two pages' sentences, quoted (shortened).
    pages = [_page("S1", "PubMed 9854965", (
                 "To determine the prevalence and nature of global cognitive dysfunction and language deficits in an "
                 "unselected population based cohort of patients with motor neuron disease (MND). Three patients were "
                 "demented and had impaired language function; two non-demented patients had an aphasic syndrome. The "
                 "remaining 13 performed normally on the test battery apart from decreased verbal fluency.\n\n"
                 "## MeSH terms\n\nAphasia; Dementia; Motor Neuron Disease; Neuropsychological Tests")),
             _page("S3", "PubMed 21172844", (
                 "In each case we applied published criteria for subclassification of FTLD-TDP into FTLD-TDP types 1-3. "
                 "All type 2 subjects were diagnosed with semantic dementia. Subjects with a pathologic diagnosis of FTLD "
                 "with motor neuron degeneration had a similar pattern of atrophy, regardless of whether they were type 1 "
                 "or type 3. The disease was confirmed pathologically."))]
    other = "In each case we applied published criteria for subclassification of FTLD-TDP into FTLD-TDP types 1-3 [S3]."
    own = "The remaining 13 performed normally on the test battery apart from decreased verbal fluency [S1]."
    assert _read_on_topic(_DEMENTIA, pages, other, own) == [False, True]


def test_a_sentence_with_the_questions_topic_as_its_topic_is_on_topic():
    # JSQuAD v1.3 valid (`research bench jsquad --sample 5 --seed 124`), the real 1.5B model on 「ルガンスク人民共和国はどこの国で
    # テロ組織指定されているか？」: the Luhansk page's 「ルガンスク人民共和国は、…独立を宣言した地域。」 went as off topic (another
    # page held テロ and 指定 of the question, so the Luhansk page did not tell itself apart), and the Summary kept only the
    # subjectless sentence after it. The pages' sentences, quoted (shortened).
    pages = [_page("S4", "ルガンスク人民共和国", (
                 "ルガンスク人民共和国は、ウクライナの東部のルハーンシク州でロシア連邦への編入を求める分離・独立派が独立を宣言した"
                 "地域。2014年以降、ウクライナ政府の管轄が及んでいない地域である。")),
             _page("S9", "テロリズム", "各国政府はテロ組織を指定している。国連もテロ組織の指定を行っている。国ごとに基準は異なる。"),
             _page("S11", "ドミニカ国", "ドミニカ国は旧イギリス植民地である。")]
    luhansk = "ルガンスク人民共和国は、ウクライナの東部のルハーンシク州でロシア連邦への編入を求める分離・独立派が独立を宣言した地域[S4]。"
    other = "ドミニカ国は旧イギリス植民地である[S11]。"
    assert _read_on_topic("ルガンスク人民共和国はどこの国でテロ組織指定されているか？", pages, luhansk, other) == [True, False]


def test_a_plain_word_of_the_question_is_no_name_because_a_query_wrote_it_inside_japanese():
    # The real 1.5B model (`research bench pubmedqa --sample 4 --seed 69`, PubMedQA 15703931) planned
    # 「糖尿病 mellitusと cervical癌のFDG-PET診断の効果について調べる」 among its queries; "cervical" and
    # "mellitus" became names, and another study's finding (cervical spondylotic amyotrophy, whose page
    # names diabetes mellitus) led the Summary as on topic. The two pages' sentences are quoted.
    from research.workflow.answer import Topic

    pages = [_page("S1", "PubMed 15703931", (
                 "However, the degree of tumour uptake of (18)F-2-fluoro-2-deoxy-D: -glucose (FDG) uptake is sometimes "
                 "influenced by diabetes mellitus (DM). The diagnostic power of PET in the hyperglycaemic DM, euglycaemic "
                 "DM and non-DM groups did not differ significantly.")),
             _page("S3", "PubMed 24614851", (
                 "The purpose of this study was to clarify the prognostic factors for cervical spondylotic amyotrophy "
                 "(CSA). We analyzed whether the age, sex, presence of diabetes mellitus, medication (vitamin B12) … "
                 "were associated with the recovery of muscle strength in the patients."))]
    question = "Does diabetes mellitus influence the efficacy of FDG-PET in the diagnosis of cervical cancer?"
    topic = Topic.of([question, "糖尿病 mellitusと cervical癌のFDG-PET診断の効果について調べる"], pages)
    (other,) = split_claims("The presence of T2 HIA on MRI (P=0.002), the number of T2 HIA on MRI (P=0.002) and "
                            "conversion to surgery (P=0.015) were found to be significantly associated with a poorer "
                            "recovery at the observational final follow-up [S3].")
    (own,) = split_claims("The diagnostic power of FDG-PET did not differ between the DM and non-DM groups [S1].")
    assert not topic.is_on_topic(other) and topic.is_on_topic(own)


def test_a_word_the_query_broke_across_two_scripts_names_nothing():
    # The real 1.5B model (`research bench pubmedqa --sample 4 --seed 77`, PubMedQA 23453079) planned
    # 「プロステイズの形状とホルミウムレーザーのエンucleーション後の結果」: "ucle", エン and ション became names,
    # and its one sentence from the study's own results, supported, went as off topic twice. The
    # page's sentence is quoted.
    from research.workflow.answer import Topic

    pages = [_page("S1", "PubMed 23453079", (
        "To determine whether prostate morphology or technique used has any effect on postoperative outcomes after "
        "holmium laser enucleation of the prostate. A subset analysis of the trilobar prostates revealed that "
        "performing a 2-lobe technique achieved shorter operative and enucleation times, although the difference "
        "was not significant."))]
    question = "Does prostate morphology affect outcomes after holmium laser enucleation?"
    topic = Topic.of([question, "プロステイズの形状とホルミウムレーザーのエンucleーション後の結果"], pages)
    assert not topic.names
    (own,) = split_claims("The study found that performing a 2-lobe technique achieved shorter operative and "
                          "enucleation times, although the difference was not significant [S1].")
    assert topic.is_on_topic(own)
    # A name written beside Japanese is still one (the test above: FDG-PET).
    assert "fdg-pet" in {n.lower() for n in Topic.of([question, "FDG-PETのレーザー診断"], pages).names}


def test_the_rest_of_an_english_word_glued_to_kanji_names_nothing():
    # The real 1.5B model (`research bench pubmedqa --sample 4 --seed 113`, PubMedQA 9446993) planned 「牙科医が
    # manipulatedのデジタル放射ographsを認識できるか？」: "ograph" became a name, and the study's own results, «Statistical
    # evaluation revealed a distribution of hits similar to the random distribution.», went as off topic. Quoted.
    from research.workflow.answer import Topic

    pages = [_page("S1", "PubMed 9446993", (
        "Thirty-nine dentists submitted usable questionnaires. Statistical evaluation revealed a distribution of hits "
        "similar to the random distribution. None of the dentists detected all the six manipulated radiographs."))]
    question = "Can dentists recognize manipulated digital radiographs?"
    topic = Topic.of([question, "牙科医が manipulatedのデジタル放射ographsを認識できるか？"], pages)
    assert not topic.names, topic.names
    (own,) = split_claims("Statistical evaluation revealed a distribution of hits similar to the random distribution [S1].")
    assert topic.is_on_topic(own)


def test_a_sentence_naming_nothing_the_question_names_needs_two_of_the_questions_own_terms():
    # JSQuAD v1.3 valid a1889068p0q0 (`research bench jsquad --sample 5 --seed 78`): 「エチオピアの事実上の
    # 公用語は」, its sub-question 「エチオピアの主な言語は？」; the real 1.5B model pasted the Laos page's
    # sentence on Lao and Thai, which shares 語 with the question and 言語 with the sub-question only, and
    # it stayed in the answer. The pages the bench serves (jsquad-016-000, jsquad-006-043), quoted.
    from research.workflow.answer import Topic

    pages = [_page("S1", "アムハラ語", (
                 "アムハラ語（アムハラご、 ）はエチオピアの事実上の公用語。")),
             _page("S6", "ラオス", (
                 "言語はラーオ語が公用語である。英語は、ホテルなどで通じる。ラーオ語とタイ語は同一言語に属する個別の"
                 "地域変種の関係にあるが、ラオスではタイからの影響力を遮断するため、ラーオ語の独立性を強調する傾向にある。"))]
    topic = Topic.of(["エチオピアの事実上の公用語は", "エチオピアの主な言語は？", "Qual é o idioma oficial da Etiópia?"],
                     pages)
    (laos,) = split_claims("ラーオ語とタイ語は同一言語に属する個別の地域変種の関係にあるが、ラオスではタイからの影響力を"
                           "遮断するため、ラーオ語の独立性を強調する傾向にある[S6]。")
    (amharic,) = split_claims("アムハラ語はエチオピアの事実上の公用語です[S1]。")
    assert not topic.is_on_topic(laos) and topic.is_on_topic(amharic)


def test_a_page_about_the_question_is_read_against_the_questions_own_terms():
    # The real 1.5B model (bench_answers.py --ollama, this session): 「日本の再生可能エネルギーの内訳は？」,
    # four sub-questions of its own and an English query made 14 terms; the fixture's page held the
    # question's but not half of all, and the answer's two supported sentences, 9.2% and 7.6%, and
    # 0.9% for wind, were taken out as off topic. The page's text is the fixture's (web_fixture.ENERGY_JA).
    from research.workflow.answer import Topic

    page = _page("S1", "日本の電源構成（2022年度）", (
        "2022年度の日本の発電電力量に占める再生可能エネルギーの割合は21.7%だった。"
        "再生可能エネルギーの内訳では太陽光発電が9.2%で最も多く、水力発電が7.6%で続いた。"
        "日本の発電では火力が最も多く、次いで水力発電が続いている。風力発電は近年増えている。風力発電の割合は0.9%にとどまった。"))
    texts = ["日本の再生可能エネルギーの内訳は？", "日本の再生可能エネルギーの主要な種類は何ですか？",
             "日本の再生可能エネルギーの主要な種類は、何が最も重要ですか？",
             "日本の再生可能エネルギーの主要な種類は、何が最も広く使用されていますか？",
             "日本の再生可能エネルギーの主要な種類は、何が最も効果的ですか？", "Japan renewable energy breakdown"]
    topic = Topic.of(texts, [page])
    for sentence in ("日本の再生可能エネルギーの内訳は、太陽光発電が9.2%で最も多く、水力発電が7.6%で続いた。",
                     "風力発電の割合は0.9%にとどまった。"):
        (claim,) = split_claims(sentence)
        assert topic.is_on_topic(claim, ["S1"]), sentence


def test_a_page_that_holds_the_questions_common_words_but_not_what_tells_it_apart_is_another_studys():
    # PubMedQA 16097998 with the real 1.5B model: "Is coeliac disease screening in risk groups
    # justified?" led its Summary with other studies' findings (familial risk prompts, breast cancer
    # screening among the Sami): their pages hold "disease", "risk", "screening" and "group", as the
    # run's pages all do; "coeliac" only its own. Quoted from ../shared/bench/pubmedqa/dev.json.
    from research.workflow.answer import Topic

    pages = [_page("S1", "PubMed 16097998", (
                 "The benefits of serologic screening for coeliac disease in asymptomatic individuals are debatable. "
                 "AIM: To investigate dietary compliance, quality of life and bone mineral density after long-term "
                 "treatment in coeliac disease patients found by screening in risk groups. In screen-detected "
                 "patients, quality of life and gastrointestinal symptoms were similar to those in symptom-detected "
                 "patients or non-coeliac controls.")),
             _page("S4", "PubMed 25957366", (
                 "The objective of this study was to determine whether automated, at-the-visit tailored prompts about "
                 "family history risk change PCP behavior. Automated, tailored prompts highlighting familial risk for "
                 "heart disease, stroke, diabetes, and breast, colorectal, or ovarian cancer were implemented during "
                 "2011 to 2012. The main outcome measures were PCP response to the prompts and patient screening "
                 "status for each disease, in a group of primary care patients.")),
             _page("S7", "PubMed 22564465", (
                 "Female citizens of Sami (the indigenous people of Norway) municipalities in northern Norway have a "
                 "low risk of breast cancer. The objective of this study was to describe the attendance rate and "
                 "outcome of the Norwegian Breast Cancer Screening Program in the Sami-speaking municipalities and a "
                 "control group. The rate of invasive screen detected cancer was not significantly lower in the Sami "
                 "group, a disease of lower risk there."))]
    topic = Topic.of(["Is coeliac disease screening in risk groups justified?"], pages)
    (other,) = split_claims("The PubMed 25957366 study found that automated, tailored prompts highlighting familial "
                            "risk for heart disease, stroke, diabetes, and breast, colorectal, or ovarian cancer were "
                            "implemented during 2011 to 2012 [S4].")
    (third,) = split_claims("The rate of invasive screen detected cancer in this risk group was not significantly "
                            "lower, a disease of lower risk [S7].")
    (own,) = split_claims("In screen-detected patients from risk groups, quality of life was similar to that of "
                          "symptom-detected patients, a disease found by screening [S1].")
    assert not topic.is_on_topic(other) and not topic.is_on_topic(third)
    assert topic.is_on_topic(own)


def test_a_sentence_sharing_what_is_asked_but_not_the_named_subject_is_on_topic_only_from_a_page_on_it():
    # PubMedQA 27146470 (`research bench pubmedqa --seed 91`), the real 1.5B model: to "Are tuberculosis patients
    # adherent to prescribed treatments in China?" its whole Summary became another study's "Adherence to treatment
    # recommendations was not significantly different from that to a repeated Pap smear" (uncited, traced to S5),
    # which shares "adherence" and "treatment" with the question and names neither tuberculosis nor China.
    # Quoted from ../shared/bench/pubmedqa/dev.json.
    from research.workflow.answer import Topic

    pages = [_page("S1", "PubMed 27146470", (
                 "Tuberculosis (TB) patients face numerous difficulties adhering to the long-term, rigorous TB treatment "
                 "regimen. A prospective cohort of 481 newly confirmed TB patients from three counties in western China "
                 "were enrolled during June to December 2012 and was followed until June 2013. A total of 173 (36.0 %) "
                 "patients experienced non-adherence and the loss to follow-up cases reached 136 (28.2 %).")),
             _page("S5", "PubMed 10575390", (
                 "To compare adherence to follow-up recommendations for colposcopy or repeated Papanicolaou (Pap) smears "
                 "for women with previously abnormal Pap smear results. Adherence to treatment recommendations was not "
                 "significantly different from that to a repeated Pap smear."))]
    topic = Topic.of(["Are tuberculosis patients adherent to prescribed treatments in China?"], pages)
    (other,) = split_claims("Adherence to treatment recommendations was not significantly different from that to a "
                            "repeated Pap smear.")
    (own,) = split_claims("Only 36.0 % of the patients experienced non-adherence to the treatment.")
    assert not topic.is_on_topic(other, ["S5"])
    assert topic.is_on_topic(own, ["S1"])


def test_a_question_of_few_terms_still_takes_one_of_them():
    from research.workflow.answer import Topic

    (claim,) = split_claims("Aphasia was found in 5 of the 18 patients [S1].")
    assert Topic.of(["Is aphasia common?"], []).is_on_topic(claim)


async def test_a_sentence_that_only_says_where_to_read_is_not_part_of_the_answer():
    # The real model (Qwen2.5-Coder-1.5B) in Japanese: 「このデータは[S3]で提供されています（未確認）。」
    draft = ("## 結論\n富士山の最後の噴火は1707年の宝永噴火である[S1]。このデータは[S1]で提供されています。"
             "富士山の噴火に関する情報は[S1]や[S2]で提供されています。\n")
    deps, _ = _deps(FakeModel(), loops=0)
    answer = (await _verify(_state(draft), deps))["verification"]["annotated_draft"]
    assert answer == "## 結論\n富士山の最後の噴火は1707年の宝永噴火である[S1]。\n"
    for sentence in ("More details are available in [S2].", "See [S1] for more details.",
                     "This information is provided by [S1] and [S2].",
                     # The real model (Qwen2.5-Coder-1.5B, 2026-11-28), after the height with its citation:
                     "This information is provided in the source [S1].",
                     "This information is provided in the source [S1] on Mount Fuji's elevation.",
                     "The data is available in the sources [S1] and [S2] listed below.",
                     "この情報は出典[S1]に記載されています。", "詳細は各資料[S1]や[S2]で確認できます。",
                     # The real model on the GIL question (2026-11-30), after a supported sentence of its Summary:
                     "This is stated in the source data [S1].", "This is clearly mentioned in the sources [S1][S2].",
                     "これは出典に記載されています[S1]。"):
        (claim,) = split_claims(sentence)
        assert not_a_claim_reason(claim.plain, claim.text, [], ProgramText()) == "about_the_source", sentence
    # The answer's account of itself, the real 1.5B model's on JSQuAD v1.3 valid a4596p34q1 (`research bench
    # jsquad --seed 81`) and a29111p0q0; the second was kept "(未確認)" in its answer.
    for sentence in ("この回答は、出典[S1]と[S2]から得られた情報に基づいて推測されたものです。",
                     "これは、ポルトガルの経済成長率の歴史を詳細に説明している[S1]と、GDP成長率が1%を割り始めたという点を"
                     "明確に示している[S2]から得られた情報に基づいて推測されたものです。",
                     "この回答は、ポルトガルの経済成長率が1%を割り始めたのは、2000年からという点を明確に示しています。",
                     "This answer is based on the information provided in [S1].", "The above answer is correct [S1].",
                     # The citation as the subject of what it says (`research bench jsquad --seed 142`, the real model).
                     "[S2]は、1951年2月に第4回全国協議会で「軍事方針」を採択したことを明確に記載しています。",
                     # The source as the subject: read against each page as a claim, one page with マーラー in another
                     # role contradicted it (`research bench jsquad --sample 5 --seed 144`, the real model).
                     "この出典は、グラスタフ・マーラーが1909年にニューヨーク・フィルハーモニックの指揮者となったことを明確に示しています。",
                     # What the answer does with what it read (`research bench jsquad --seed 143`, the real model).
                     "この情報は、質問の答えとして使用されます。", "This information is used to answer the question [S1]."):
        (claim,) = split_claims(sentence)
        assert not_a_claim_reason(claim.plain, claim.text, [], ProgramText()) == "about_the_source", sentence
    # A sentence that says something of the world as well stays a claim.
    for sentence in ("The eruption is described in [S2] as the largest of the Edo period.",
                     "The answer is 3,776 metres [S1].", "回答者の多くは、この情報に基づいて行動した[S1]。",
                     "この情報は1707年の記録に基づく[S1]。", "This information is used by farmers to plan their planting [S1].",
                     "This is stated in the source data as the largest eruption [S1].",
                     "It was reported by the press in 1707 [S1]."):
        (claim,) = split_claims(sentence)
        assert not_a_claim_reason(claim.plain, claim.text, [], ProgramText()) is None, sentence


def test_a_japanese_question_written_with_a_full_stop_is_not_a_claim():
    # The real 1.5B model on JSQuAD v1.3 valid a1540503p45q1 restated the question under
    # 「### 質問のテーマ」 as 「R/Pの指標より用いられているものは何なのか[S1]。」, kept "(未確認)".
    for sentence in ("R/Pの指標より用いられているものは何なのか[S1]。", "富士山の最後の噴火はいつですか[S1]。"):
        (claim,) = split_claims(sentence)
        assert not_a_claim_reason(claim.plain, claim.text, [], ProgramText()) == "question", sentence
    for sentence in ("なぜ噴火したのかは分かっていない[S1]。", "どの程度の被害が出るかを予測するのは難しい[S1]。",
                     "原因は何か、まだ分かっていない[S1]。"):
        (claim,) = split_claims(sentence)
        assert not_a_claim_reason(claim.plain, claim.text, [], ProgramText()) is None, sentence


def test_a_page_s_pointer_to_another_page_is_not_a_claim():
    # The real 1.5B model on JSQuAD v1.3 valid a1540503p45q1 (`research bench jsquad --sample 5
    # --seed 59`) copied the page's 「（石油ピーク参照）」 after the sentence it points from; its
    # Summary sentence left unchecked, the Summary took it as the first supported sentence.
    text = "- 最近はR/Pよりピーク理論で事実上の資源持続期間を表示することが多い[S1]。（石油ピーク参照）[S1]"
    pointer = next(c for c in split_claims(text) if "参照" in c.plain)
    assert not_a_claim_reason(pointer.plain, pointer.text, ["石油"], ProgramText()) == "about_the_source"
    for sentence in ("(see Peak oil) [S1]", "（詳しくは石油ピークを参照）[S1]"):
        (claim,) = split_claims(sentence)
        assert not_a_claim_reason(claim.plain, claim.text, [], ProgramText()) == "about_the_source", sentence
    for sentence in ("石油ピーク参照の理論は広く使われる[S1]。", "Mount Fuji is 3,776 m tall (see the survey of 2020) [S1]."):
        (claim,) = split_claims(sentence)
        assert not_a_claim_reason(claim.plain, claim.text, [], ProgramText()) is None, sentence


@pytest.mark.parametrize("sentence", [
    # The real model (Qwen2.5-Coder-1.5B, 2026-11-28) rewrote the source's 「この資料は富士山の火山防災に
    # ついてまとめたものです。」 twice, each time with another subject, and both were kept as "supported".
    "この遺産は富士山の噴火の歴史や火山の防災についてまとめたものです[S2]。",
    "この火山は富士山の噴火の歴史や火山の防災についてまとめたものです[S2]。",
    "This heritage is a summary of the eruption history of Mount Fuji [S2].",
])
def test_a_pages_account_of_itself_is_not_a_claim_whatever_subject_the_model_gave_it(sentence):
    (claim,) = split_claims(sentence)
    assert not_a_claim_reason(claim.plain, claim.text, [], ProgramText()) == "about_the_source"


@pytest.mark.parametrize("sentence", [
    "この噴火は江戸に火山灰を降らせたことで知られています[S1]。",
    "この山は日本最高峰の山です[S1]。",
    "The eruption is a summary event in the Edo period records [S1].",
])
def test_a_sentence_about_the_world_with_a_demonstrative_subject_stays_a_claim(sentence):
    (claim,) = split_claims(sentence)
    assert not_a_claim_reason(claim.plain, claim.text, [], ProgramText()) is None


async def test_a_heading_written_again_is_one_section():
    # The real model (富士山の最後の噴火はいつ？) wrote five sections all headed 「富士山の噴火の歴史」.
    draft = ("## 結論\n富士山の最後の噴火は1707年の宝永噴火である[S1]。\n\n## 1. 富士山の噴火の歴史\n"
             "宝永噴火では江戸にも火山灰が降った[S1]。\n\n## 2. 富士山の噴火の歴史\n宝永噴火は宝永4年の噴火である[S1]。\n")
    deps, _ = _deps(FakeModel(), loops=0)
    answer = (await _verify(_state(draft), deps))["verification"]["annotated_draft"]
    assert answer.count("富士山の噴火の歴史") == 1
    assert "江戸にも火山灰が降った[S1]" in answer and "宝永4年" in answer


def test_a_heading_written_again_after_another_takes_its_sentences_back_to_the_first():
    # The real 1.5B model on JSQuAD v1.3 valid a4596p46q1 (`research bench jsquad --sample 5
    # --seed 59`): 「## 1. コンゴ共和国」, 「## 2. ポルトガル」, 「## 3. オランダ」, 「## 4. コンゴ共和国」.
    # The second Congo heading went and its HIV figures stood under オランダ, as if the
    # Netherlands'. They join the first Congo section.
    from research.workflow.answer import _tidy_sections

    text = ("## 結論\n\n識字率は83.8%である[S1]。\n\n## 1. コンゴ共和国\n\n識字率は83.8%である[S1]。\n\n"
            "## 2. ポルトガル\n\nポルトガルの識字率は93.3%である[S2]。\n\n## 3. オランダ\n\n識字率は99%である[S3]。\n\n"
            "## 4. コンゴ共和国\n\n2007年のHIV感染者は推計で79,000人である[S5]。\n")
    tidy, _ = _tidy_sections(text, "ja", [], summary_empty=False)
    assert tidy.count("コンゴ共和国") == 1
    congo = tidy.split("## 1. コンゴ共和国")[1].split("## 2.")[0]
    assert "識字率は83.8%である[S1]。" in congo and "HIV感染者" in congo
    assert "HIV" not in tidy.split("## 3. オランダ")[1]


async def test_an_empty_summary_takes_the_finding_that_names_what_was_asked():
    # The real 1.5B model on JSQuAD v1.3 valid a14985p17q1 (`research bench jsquad --sample 6 --seed
    # 60`): its Summary 「第22回総選挙は1946年4月22日行われた。」 cited nothing and left; the Summary
    # then took the first supported sentence of the findings, about the 47th election of 2014.
    source = ("# 日本共産党\n\n第47回衆議院議員総選挙（2014年12月14日投開票）でも「自共対決」と銘打ち活発に活動。"
              "その結果、前回の2倍以上の21議席を獲得した。1946年4月の第22回総選挙では5議席を獲得し、"
              "初めて帝国議会に議席を得た。")
    draft = ("## 結論\n第22回総選挙は1946年4月22日行われた。\n\n## 1. 自共対決\n"
             "第47回衆議院議員総選挙（2014年12月14日投開票）でも「自共対決」と銘打ち活発に活動[S1]。"
             "その結果、前回の2倍以上の21議席を獲得した[S1]。\n\n## 2. 帝国議会\n"
             "1946年4月の第22回総選挙では5議席を獲得し、初めて帝国議会に議席を得た[S1]。\n")
    verification = await _gil_answer(draft, "第22回総選挙はいつ行われたか。", "ja", source)
    answer = verification["annotated_draft"]
    assert answer.startswith("## 結論\n1946年4月の第22回総選挙では5議席を獲得し、初めて帝国議会に議席を得た[S1]。"), answer
    assert "第47回衆議院議員総選挙" in answer  # still a finding, not the headline


async def test_an_empty_summary_takes_no_finding_without_the_figure_the_question_names():
    # The same question run again (a14985p17q1): the findings' only supported sentence spoke of
    # 「第41回衆議院議員総選挙」 and 2014. It names 総選挙 but not the 22nd: the Summary quotes the
    # source's sentence on the 22nd instead.
    source = ("# 日本共産党\n\n第47回衆議院議員総選挙（2014年12月14日投開票）でも「自共対決」と銘打ち活発に活動。"
              "比例の得票数は11.37%、小選挙区でも1996年の第41回衆議院議員総選挙以来18年ぶりに議席を獲得した。"
              "1946年4月の第22回総選挙では5議席を獲得し、初めて帝国議会に議席を得た。")
    draft = ("## 結論\n第22回総選挙は1946年4月22日行われた[S1]。\n\n## 詳細\n"
             "- 比例の得票数は11.37%、小選挙区でも1996年の第41回衆議院議員総選挙以来18年ぶりに議席を獲得した[S1]。\n")
    answer = (await _gil_answer(draft, "第22回総選挙はいつ行われたか。", "ja", source))["annotated_draft"]
    summary = answer.split("## 詳細")[0]
    # The sentence names no subject but its setting (…総選挙では): the page's title says whose seats they were.
    assert "«日本共産党：1946年4月の第22回総選挙では5議席を獲得し、初めて帝国議会に議席を得た。»[S1]" in summary, answer
    assert "比例" not in summary and "4月22日" not in answer


async def test_a_lead_beside_what_the_question_asks_a_name_for_follows_the_pages_sentence_naming_it():
    # The real 1.5B model on JSQuAD v1.3 valid a113522p0q1 (`research bench jsquad --sample 5 --seed 132`):
    # to 「国際連合平和維持活動を日本では何と称されるか。」 its Summary led with Pearson's Nobel prize (checked,
    # beside the question) and «日本ではPKOと称されることが多い。», which answers it, was not quoted: 何と称される was
    # not read as asking for a name, the lead names half the question's words, and the page's sentence names
    # 国際連合平和維持活動 only through its page («# 国際連合平和維持活動»).
    source = ("# 国際連合平和維持活動\n\n国際連合平和維持活動（こくさいれんごうへいわいじかつどう）は、国連憲章でうたわれた"
              "集団安全保障を実現し、紛争当事者に間接的に平和的解決を促す国際連合の活動である。日本ではPKOと称される"
              "ことが多い。\n\n現代的な国連平和維持活動を形作ったピアソンは1957年にノーベル平和賞を受賞し「国連平和維持"
              "活動の父」と呼ばれる。")
    draft = ("## 結論\n現代的な国連平和維持活動を形作ったピアソンは1957年にノーベル平和賞を受賞し「国連平和維持活動の父」"
             "と呼ばれる[S1]。\n")
    answer = (await _gil_answer(draft, "国際連合平和維持活動を日本では何と称されるか。", "ja", source))["annotated_draft"]
    summary = answer.split("## 結論\n")[1]
    assert summary.startswith("下書きの確認できた文は質問に答えていません。質問について、出典にはこうあります: "
                              "«国際連合平和維持活動：日本ではPKOと称されることが多い。»[S1]現代的な国連平和維持活動を"), answer


async def test_a_lead_saying_what_the_question_asks_of_in_its_own_verbs_is_not_beside_it():
    # The real 1.5B model on JSQuAD v1.3 valid a2664357p5q1 (`research bench jsquad --sample 5 --seed 138`): to
    # 「ウィキデータの文にさらに情報を付け加え文の意味を絞り込むために使用するものは何か。」 the checked lead
    # 「修飾子は、文に追加情報を付け加えて文の意味を絞り込むことができます。」 answers it, in the question's own verbs
    # (付け加え, 絞り込む), but named three of its six nouns: the Summary opened with a line saying no checked
    # sentence answers the question, and the lead after the page's sentence.
    source = ("# ウィキデータ\n\nまた、「修飾子」を使用して、文に追加情報を付け加えて文の意味を絞り込むこともできる。"
              "たとえば、プロパティ「人口」に、「2011年時点」と文の適用範囲を限定したいときなどに修飾子を使用する。")
    draft = "## 結論\n修飾子は、文に追加情報を付け加えて文の意味を絞り込むことができます[S1]。\n"
    answer = (await _gil_answer(draft, "ウィキデータの文にさらに情報を付け加え文の意味を絞り込むために使用するものは何か。",
                                "ja", source))["annotated_draft"]
    summary = answer.split("## 結論\n")[1]
    assert summary.startswith("修飾子は、文に追加情報を付け加えて文の意味を絞り込むことができます[S1]。"), answer
    assert "答えていません" not in answer


# Two pages of JSQuAD v1.3 valid's 日本共産党 article as the bench serves them (S1 jsquad-007-110, S3 jsquad-007-094),
# cut to the sentences a14985p36q1's answers read.
_STALIN_PAGES = [
    dict(LEDGER[0], label="S1", suspicious=False, markdown=(
        "# 日本共産党\n\n合法活動路線への転換や1956年のスターリン批判を経て、元党員のトロツキー主義者らは"
        "日本トロツキスト聯盟を結成した。")),
    dict(LEDGER[0], label="S3", suspicious=False, url="https://example.jp/cominform",
         canonical_url="https://example.jp/cominform", markdown=(
             "# 日本共産党\n\n1950年1月6日、ヨシフ・スターリンが指導するコミンフォルムは、機関紙に論文「日本の情勢に"
             "ついて」を掲載し、当時の日本共産党の平和革命論を批判した。")),
]


async def test_a_question_asking_for_a_year_is_answered_by_the_page_sentence_giving_one():
    # The real 1.5B model on JSQuAD v1.3 valid a14985p36q1 (`research bench jsquad --sample 5 --seed 132`):
    # 「スターリン批判は1950年1月6日に起こった[S3]。」 (the Cominform's criticism of the party, S3's date) was the
    # whole answer, not checked, after a line saying the sources do not answer: S1's «…1956年のスターリン批判を
    # 経て…» names the question's one term and a year, and 何年 was read as a second term no page could name.
    draft = "## 結論\nスターリン批判は1950年1月6日に起こった[S3]。\n"
    state = dict(_state(draft, language="ja"), question="スターリン批判は何年に起こったか？", documents=_STALIN_PAGES)
    verification = (await _verify(state, _deps(FakeModel(), loops=0)[0]))["verification"]
    answer = verification["annotated_draft"]
    summary = answer.split("## 結論\n")[1]
    assert summary.startswith("下書きの文はどれも出典で確認できませんでした。質問について、出典にはこうあります: "
                              "«合法活動路線への転換や1956年のスターリン批判を経て、"), answer
    # The draft's other year, which no check decided, does not follow the page's as if it might be so.
    assert "1950" not in answer
    (claim,) = verification["claims"]
    assert (claim["state"], claim["removed_reason"]) == ("not_checked", "not_checked")


async def test_a_checked_lead_giving_another_events_year_follows_the_page_sentence_on_the_one_asked():
    # The same question run again (JSQuAD v1.3 valid a14985p36q1, `--seed 132`, the real 1.5B model): the Summary led
    # with S3's sentence on the Cominform's 1950 criticism (checked, true, another event) and then said 「スターリン
    # 批判は1950年1月6日に起こった」 (not checked). S1's sentence on スターリン批判 gives 1956.
    draft = ("## 結論\n1950年1月6日、ヨシフ・スターリンが指導するコミンフォルムは、機関紙に論文「日本の情勢について」を掲載し、"
             "当時の日本共産党の平和革命論を批判した[S3]。スターリン批判は1950年1月6日に起こった[S3]。\n")
    state = dict(_state(draft, language="ja"), question="スターリン批判は何年に起こったか？", documents=_STALIN_PAGES)
    verification = (await _verify(state, _deps(FakeModel(), loops=0)[0]))["verification"]
    summary = verification["annotated_draft"].split("## 結論\n")[1]
    assert summary.startswith("下書きの確認できた文は質問に答えていません。質問について、出典にはこうあります: "
                              "«合法活動路線への転換や1956年のスターリン批判を経て、"), summary
    assert "コミンフォルムは" in summary and "に起こった" not in summary
    states = {c["text"][:12]: (c["state"], c.get("removed_reason")) for c in verification["claims"]}
    assert states["スターリン批判は1950"] == ("not_checked", "not_checked"), states


async def test_a_list_item_the_finding_moved_up_says_again_leaves_with_it():
    # JSQuAD v1.3 valid a22392p3q0 (`research bench jsquad --sample 5 --seed 133`), the real 1.5B model's draft (its
    # Summary and first section) and plan: the Summary's list 「1. EU諸国」「2. 日本」 under a line saying the question back,
    # the finding on the EU moved up to lead it, and the answer read 「1. EU諸国では、…建築教育と結びついている[S1]。EU諸国
    # [S1]」. The page's sentences, quoted.
    source = ("# 建築家\n\nほとんどの国地域では、「建築家」および「ランドスケープアーキテクト」という用語の専門的および商業的使用は"
              "法的に保護されている。EU諸国では建築は規制されているものであるため「建築家」という称号と建築専門職として実践"
              "する権利の両方が法的に保護されており、建築教育と結びついている。多くのEU諸国では、何らかの形の登録システムもある。")
    draft = ("## 結論\n\n建築家という称号と建築専門職として実践する権利の両方が法的に保護されている地域は、以下の国地域です：\n\n"
             "1. EU諸国\n2. 日本\n\nこれらの地域では、建築は規制されているものであるため、「建築家」という称号と建築専門職として"
             "実践する権利の両方が法的に保護されており、建築教育と結びついている。\n\n## 1. EU諸国\n\nEU諸国では、建築は規制されて"
             "いるものであるため、「建築家」という称号と建築専門職として実践する権利の両方が法的に保護されており、建築教育と"
             "結びついている。\n")
    question = "「建築家」という称号と建築専門職として実践する権利の両方が法的に保護されている地域は？"
    plan = [{"question": "どの地域は建築家と建築専門職の両方の権利が法的に保護されているか？",
             "queries": [{"text": question, "language": "ja"}]}]
    state = dict(_state(draft, language="ja"), question=question, plan=plan,
                 documents=[dict(LEDGER[0], label="S1", suspicious=False, markdown=source)])
    verification = (await _verify(state, _deps(FakeModel(), loops=0)[0]))["verification"]
    summary = verification["annotated_draft"].split("## 結論\n")[1].split("##")[0].strip()
    assert summary.startswith("EU諸国では") and summary.endswith("建築教育と結びついている[S1]。"), summary
    assert "日本" not in summary
    (item,) = [c for c in verification["claims"] if c["text"] == "EU諸国"]
    assert (item["state"], item["removed_reason"]) == ("supported", "duplicate")


async def test_an_empty_summary_never_opens_with_a_sentence_that_points_back():
    # The real 1.5B model on JSQuAD v1.3 valid a18783p6q0 (`research bench jsquad --sample 6 --seed
    # 60`): its Summary left as not checked, the Summary took the first supported finding,
    # 「これは、打楽器の音楽を特徴づけるための言葉です」, which points at a sentence no longer before it.
    source = ("# スイング\n\nこれは、ハイハットの独特なリズムを表す打楽器の言葉です。"
              "スイングは、打楽器の音楽を特徴づけるための言葉です。")
    question = "打楽器の音楽を特徴づける言葉は何か"
    draft = ("## 結論\nジャズの起源は1890年代のシカゴである。\n\n## 詳細\n"
             "これは、ハイハットの独特なリズムを表す打楽器の言葉です[S1]。スイングは、打楽器の音楽を特徴づけるための言葉です[S1]。\n")
    ledger = [dict(LEDGER[0], label="S1", language="ja", suspicious=False, markdown=source)]
    state = dict(_state(draft), documents=ledger, question=question,
                 plan=[{"question": question, "queries": [{"text": "打楽器 音楽 言葉", "language": "ja"}]}])
    answer = (await _verify(state, _deps(FakeModel(), loops=0)[0]))["verification"]["annotated_draft"]
    assert answer.startswith("## 結論\nスイングは、打楽器の音楽を特徴づけるための言葉です[S1]。"), answer


async def test_a_summary_that_opens_pointing_at_a_sentence_taken_out_gets_a_finding_before_it():
    # The real 1.5B model (bench_answers.py --ollama at cdccb95, "What is PEP 703 and when did Python get
    # free-threading?"): its Summary's first sentence went, and the one kept opened the answer with
    # "This feature is available in the free-threaded build of Python 3.13, released in October 2024".
    source = ("# Free-threaded CPython\n\nPEP 703 proposed making the global interpreter lock (GIL) optional in "
              "CPython. Python 3.13, released in October 2024, ships an experimental free-threaded build.")
    question = "What is PEP 703 and when did Python get free-threading?"
    draft = ("## Summary\nPEP 703 was written by the Python community in a single afternoon. This feature is available "
             "in the free-threaded build of Python 3.13, released in October 2024 [S1].\n\n"
             "## Findings\n### 1. What is PEP 703?\nPEP 703 proposed making the global interpreter lock (GIL) optional "
             "in CPython [S1].\n")
    ledger = [dict(LEDGER[0], label="S1", language="en", suspicious=False, markdown=source)]
    state = dict(_state(draft, language="en"), documents=ledger, question=question,
                 plan=[{"question": question, "queries": [{"text": "PEP 703 free-threading", "language": "en"}]}])
    answer = (await _verify(state, _deps(FakeModel(), loops=0)[0]))["verification"]["annotated_draft"]
    assert answer.startswith("## Summary\nPEP 703 proposed making the global interpreter lock (GIL) optional in "
                             "CPython [S1]. This feature is available in the free-threaded build"), answer


async def test_a_figure_said_to_come_from_a_source_its_passage_is_not_leaves_the_answer():
    # The real 1.5B model (bench_answers.py --ollama, "Which port does Ollama listen on locally?"):
    # "The Ollama FAQ [S3] states that the Port of Yokohama opened to foreign trade in 1859", S3 a
    # page on Yokohama. No judge decided it; what it says the figure comes from is not its passage.
    s1 = ("# Ollama FAQ\n\nBy default, Ollama listens on port 11434 of the local machine and serves its API there.")
    s3 = "# Port of Yokohama\n\nThe Port of Yokohama opened to foreign trade in 1859."
    ledger = [dict(LEDGER[0], label="S1", language="en", suspicious=False, markdown=s1, title="Ollama FAQ"),
              dict(LEDGER[0], label="S3", language="en", suspicious=False, markdown=s3, title="Port of Yokohama")]
    draft = ("## Summary\nOllama listens on port 11434 of the local machine [S1].\n\n### Ollama's Port of Yokohama\n"
             "The Ollama FAQ [S3] states that the Port of Yokohama opened to foreign trade in 1859.\n")
    question = "Which port does Ollama listen on locally?"
    state = dict(_state(draft, language="en"), documents=ledger, question=question,
                 plan=[{"question": question, "queries": [{"text": "ollama port", "language": "en"}]}])
    verification = (await _verify(state, _deps(FakeModel(), loops=0)[0]))["verification"]
    (said,) = [c for c in verification["claims"] if "Yokohama" in c["text"]]
    assert said["removed"] and said["state"] == "not_checked"
    assert "Yokohama" not in verification["annotated_draft"] and "11434" in verification["annotated_draft"]


async def test_an_empty_summary_takes_a_supported_sentence_of_the_findings():
    # With the real model (issue 29): the Summary's sentences were all rejected while each
    # sub-question section kept one supported sentence; the answer must still open with one.
    draft = ("## 結論\n富士山は毎年30万人が登る[S1]。\n\n### 1. 富士山の標高は？\n富士山の標高は3,776メートルである[S1]。\n\n"
             "### 2. 富士山の最後の噴火は？\n富士山の最後の噴火は1707年の宝永噴火である[S1]。\n")
    plan = [{"question": "富士山の標高は？", "queries": []}, {"question": "富士山の最後の噴火は？", "queries": []}]
    judge = JudgeBatch(verdicts=[JudgeVerdict(id=1, verdict="unsupported", confidence=0.8)])
    deps, _ = _deps(FakeModel(judge=judge), loops=0)
    verification = (await _verify(dict(_state(draft), plan=plan, question="富士山の標高と最後の噴火は？"), deps))["verification"]
    assert verification["annotated_draft"] == (
        "## 結論\n富士山の標高は3,776メートルである[S1]。\n\n"  # section 1 went into the Summary: 2 is now 1
        "### 1. 富士山の最後の噴火は？\n富士山の最後の噴火は1707年の宝永噴火である[S1]。\n")
    assert verification["summary"]["not_given"] == []


async def test_a_source_header_copied_as_a_heading_is_not_part_of_the_answer():
    # With the real model (issue 29): "## 4. Mount Fuji — http://127.0.0.1:32785/en/mount-fuji.html".
    draft = ("## 結論\n富士山の最後の噴火は1707年の宝永噴火である[S1]。\n\n"
             "## 4. Mount Fuji — https://example.org/fuji\n宝永噴火は宝永4年の噴火である[S1]。\n")
    deps, _ = _deps(FakeModel(), loops=0)
    answer = (await _verify(_state(draft), deps))["verification"]["annotated_draft"]
    assert "example.org" not in answer and "宝永4年" in answer


async def test_a_sub_question_answered_in_another_section_is_not_said_to_be_missing():
    # With the real model (issue 29): "When did Mount Fuji last erupt?" read "The sources read do
    # not answer this" right under a Summary that answered it (its sentence, repeated, was dropped);
    # and 「富士山の噴火の歴史は以下の通りです[S1]。」 announced a list that never came.
    draft = ("## 結論\n富士山の最後の噴火は1707年の宝永噴火である[S1]。\n\n"
             "### 富士山の最後の噴火は？\n富士山の最後の噴火は1707年の宝永噴火である[S1]。\n\n"
             "### 富士山の噴火の歴史\n富士山の噴火の歴史は以下の通りです[S1]。\n")
    plan = [{"question": "富士山の最後の噴火は？", "queries": []}, {"question": "富士山の噴火の歴史", "queries": []}]
    deps, _ = _deps(FakeModel(), loops=0)
    verification = (await _verify(dict(_state(draft), plan=plan), deps))["verification"]
    answer = verification["annotated_draft"]
    assert "以下の通り" not in answer
    assert "富士山の最後の噴火は？\n\n読み込んだ" not in answer
    assert verification["summary"]["not_given"] == ["富士山の噴火の歴史"]


async def test_a_checked_repeat_of_a_summary_sentence_not_checked_leads_in_its_place():
    # Qwen2.5-Coder-1.5B, JSQuAD v1.3 valid (`research bench jsquad --sample 5 --seed 122`): its Summary
    # said the page's year in a sentence the checks could not decide, and the sections' supported copies
    # of the page's sentence went as its repeats; the answer then opened "no sentence of the draft could
    # be checked" and kept the unchecked one. The checked copy now stays and leads; the other goes.
    source = "1863年、ジョン・D・ロックフェラーがオハイオ州クリーブランドで石油精製業に乗り出し、1870年、スタンダード石油を設立した。"
    draft = ("## 結論\nロックフェラーがクリーブランドで石油精製業に乗り出したのは1863年だとされる[S1]。\n\n"
             "## 1. 石油精製業\n1863年、ロックフェラーがクリーブランドで石油精製業に乗り出した[S1]。\n")
    question = "ジョン・D・ロックフェラーがオハイオ州クリーブランドで石油精製業に乗り出したのは何年か？"
    answer = await _answer_from_one_page(draft, question, source, "ジョン・D・ロックフェラー")
    assert "1863年だとされる" not in answer, answer
    summary = answer.split("## 結論", 1)[1].strip()
    assert summary.startswith("1863年、ロックフェラーがクリーブランドで石油精製業に乗り出した[S1]。"), answer
    assert "確認できませんでした" not in answer and answer.count("乗り出した") == 1, answer


async def test_a_sentence_left_without_its_full_stop_gets_one_where_it_moves():
    # JSQuAD v1.3 valid (`research bench jsquad --sample 5 --seed 122`), the real 1.5B model's Summary: its last
    # sentence, supported, had no 。, and moved before the one not checked it read 「…適しているといわれる [S1]町割りは、…」.
    source = ("町割りに2方式があるのは、その地域の特性に応じて、いずれか適した方式による趣旨で、住居地域、工場地域などでは"
              "街かく式が、商業地域などでは結合式が適しているといわれる。")
    draft = ("## 結論\n\n町割りは、地域の特性に応じて、住居表示や道路表示などに用いられる[S1]。"
             "住居地域、工場地域などでは街かく式が、商業地域などでは結合式が適しているといわれる[S1]\n")
    answer = await _answer_from_one_page(draft, "町割りには何方式があるか", source, "住居表示")
    assert "適しているといわれる[S1]。町割りは、" in answer, answer


async def test_a_repeat_the_judge_skipped_is_a_repeat_not_a_missing_answer():
    # With the real model (issue 29): the Summary's sentence, repeated under "1. How high is Mount
    # Fuji?", was judged once; the unjudged copy left as uncited, and the section then read "The
    # sources read do not answer this" under a Summary that did.
    draft = ("## Summary\nMount Fuji is the highest mountain in Japan at 3,776 m [S2].\n\n"
             "## 1. How high is Mount Fuji?\nMount Fuji is the highest mountain in Japan at 3,776 m.\n")
    plan = [{"question": "How high is Mount Fuji?", "queries": []}, {"question": "When did it last erupt?", "queries": []}]
    deps, _ = _deps(FakeModel(), loops=0)
    state = dict(_state(draft, language="en"), plan=plan, question="How high is Mount Fuji and when did it last erupt?")
    verification = (await _verify(state, deps))["verification"]
    assert verification["annotated_draft"] == "## Summary\nMount Fuji is the highest mountain in Japan at 3,776 m [S2].\n"
    assert verification["summary"]["not_given"] == []


async def test_an_uncited_sentence_is_read_against_the_one_source_that_says_it_and_cites_it():
    # S1 (Japanese) says both facts; S2 (English) has the year only. The uncited sentence is read
    # against each source alone, so the judge reads S1's passage, and the answer cites S1: two
    # sources' passages are no longer merged into the evidence of a sentence that cites neither.
    draft = "## 結論\n富士山の最後の噴火は1707年で、江戸まで火山灰が届いた。\n"
    model = FakeModel(judge=JudgeBatch(verdicts=[JudgeVerdict(id=1, verdict="supported", confidence=0.9)]))
    deps, _ = _deps(model, loops=0)
    verification = (await _verify(_state(draft), deps))["verification"]
    (claim,) = verification["claims"]
    assert claim["verdict"] == "supported" and claim["cited_by_check"] == ["S1"]
    assert "江戸にも火山灰が降った" in claim["evidence"]
    assert verification["annotated_draft"].startswith("## 結論\n富士山の最後の噴火は1707年で、江戸まで火山灰が届いた[S1]")


async def test_judge_calls_spread_over_the_servers_slots_and_share_one_prefix():
    # Three claims left to the judge, a server with two slots (OLLAMA_NUM_PARALLEL): two calls
    # at once, each opening with the same system prompt and passages (one cached prefix).
    draft = ("## 結論\n富士山の最後の噴火は1707年12月16日に始まった[S2]。\n富士山の最後の噴火は1708年1月1日に終わった[S2]。\n"
             "富士山は日本で最も高い山である[S2]。\n")

    model = FakeModel(judge=JudgeBatch(verdicts=[JudgeVerdict(id=1, verdict="unsupported")]), parallel=2)
    deps, _ = _deps(model, loops=0)
    await _verify(_state(draft), deps)
    calls = model.asked(schema=JudgeBatch)
    assert len(calls) == 2
    prompts = [call.messages[-1]["content"] for call in calls]
    prefixes = [p.split("主張:")[0] for p in prompts]
    assert prefixes[0] == prefixes[1] and prefixes[0].startswith("文章:\n[P1.1]")
    assert calls[0].messages[0] == calls[1].messages[0]  # the same system message
    assert all(p.split("主張:")[1].count("\n主張 ") == 1 for p in prompts)  # one claim each, not both in one


async def test_a_page_s_title_as_a_section_or_as_a_subject_is_not_part_of_the_answer():
    # The real model (Qwen2.5-Coder-1.5B, 富士山の最後の噴火はいつ？) sorted its answer by page, under
    # the pages' titles, and said what a page is about: 「富士山の火山防災資料は…まとめたものです」.
    draft = ("## 結論\n富士山の最後の噴火は1707年の宝永噴火である[S1]。\n\n## 3. 富士山の火山防災資料\n"
             "富士山の火山防災資料は富士山の噴火についてまとめたものです[S1]。宝永噴火の火山灰は江戸まで達した[S1]。\n")
    documents = [{**LEDGER[0], "title": "富士山の火山防災資料 | 気象庁"}, LEDGER[1]]
    deps, _ = _deps(FakeModel(), loops=0)
    answer = (await _verify(dict(_state(draft), documents=documents), deps))["verification"]["annotated_draft"]
    assert "火山防災資料" not in answer
    assert "1707年の宝永噴火" in answer
    # A title that names a thing, not a document, is every claim's subject: never taken for the page.
    (claim,) = split_claims("富士山は日本で最も高い山である[S1]。")
    assert not_a_claim_reason(claim.plain, claim.text, ["富士山 - Wikipedia"], ProgramText()) is None


@pytest.mark.parametrize("cited, kept", [
    # Qwen2.5-Coder-1.5B (../shared/realmodel), 2026-11-27, with one source read: "[S2]" points at none.
    ("This information is provided in the sources [S1] and [S2], which state that Mount Fuji is 3,776 meters tall.",
     "This information is provided in the sources [S1], which state that Mount Fuji is 3,776 meters tall."),
    ("富士山の標高は[S1]と[S2]によると3,776メートルです。", "富士山の標高は[S1]によると3,776メートルです。"),
    ("Both [S2] and [S3] give 3,776 m.", "Both give 3,776 m."),
    ("Both [S1] and [S4] give 3,776 m.", "Both [S1] and [S4] give 3,776 m."),  # both read: as written
])
def test_a_label_that_points_at_no_source_goes_with_the_word_joining_it(cited, kept):
    from research.workflow.answer import keep_valid_labels

    assert keep_valid_labels(cited, {"S1", "S4"}) == kept


async def test_findings_that_only_restate_the_summary_under_each_sub_question_are_left_out():
    # The real model (Qwen2.5-Coder-1.5B, ../shared/realmodel, 2026-11-27 23:14) for "What is the
    # height of Mount Fuji?" gave the height once in the Summary and again under each sub-question.
    draft = ("## Summary\nMount Fuji is the highest mountain in Japan at 3,776 m [S2].\n\n"
             "### 1. What is the height of Mount Fuji?\nThe height of Mount Fuji is 3,776 m [S2].\n"
             "Mount Fuji stands 3,776 m above sea level, the highest summit in Japan [S2].\n\n"
             "### 2. What is the elevation of Mount Fuji?\nThe elevation of Mount Fuji is 3,776 m [S2].\n")
    state = dict(_state(draft, language="en"), question="What is the height of Mount Fuji?",
                 plan=[{"question": "What is the height of Mount Fuji?", "queries": []},
                       {"question": "What is the elevation of Mount Fuji?", "queries": []}])
    deps, _ = _deps(FakeModel(), loops=0)
    verification = (await _verify(state, deps))["verification"]
    answer = verification["annotated_draft"]
    assert "The height of Mount Fuji is" not in answer and "The elevation of Mount Fuji is" not in answer
    assert verification["summary"]["left_out"]["duplicate"] == 2
    # The Summary, and a finding with words of its own beside the same figure.
    assert "highest mountain in Japan at 3,776 m" in answer and "above sea level" in answer
    assert "elevation" not in answer  # the heading left with nothing under it goes too


async def test_a_sub_question_the_summary_answers_is_never_said_to_be_unanswered():
    # The real model (Qwen2.5-Coder-1.5B, 2026-11-27 23:17) answered in its Summary and wrote only
    # a made-up source id under each sub-question; the report then said "The sources read do not
    # answer this: What is the height of Mount Fuji?" right below the height.
    draft = ("## Summary\nMount Fuji is 3,776 m tall [S2].\n\n"
             "## 1. What is the height of Mount Fuji?\n[Source 11f373d9][S2]\n\n"
             "## 2. How tall is Mount Fuji?\n[Source 11f373d9][S2]\n\n"
             "## 3. When did it last erupt?\n[Source 11f373d9][S2]\n")
    plan = [{"question": q, "queries": []} for q in
            ("What is the height of Mount Fuji?", "How tall is Mount Fuji?", "When did it last erupt?")]
    state = dict(_state(draft, language="en"), question="What is the height of Mount Fuji?", plan=plan)
    deps, _ = _deps(FakeModel(judge=JudgeBatch(verdicts=[JudgeVerdict(id=1, verdict="supported", confidence=0.9)])),
                    loops=0)
    verification = (await _verify(state, deps))["verification"]
    answer = verification["annotated_draft"]
    assert "3,776 m tall [S2]" in answer and "11f373d9" not in answer
    # Made-up ids are not a claim on another topic: nothing to check, left out as references only.
    assert [c["text"] for c in verification["claims"]] == ["Mount Fuji is 3,776 m tall."]
    assert "off_topic" not in verification["summary"]["left_out"]
    assert answer.count("The sources read do not answer this") == 1
    assert "do not answer this: When did it last erupt?" in answer  # asks what neither says


async def test_a_sub_question_with_a_light_verb_is_answered_by_the_summary_that_gives_it():
    # The real 1.5B model (bench_answers.py --ollama, this session): its Summary gave both dates
    # (checked), and under "When did Python get free-threading?" the answer said the sources do not
    # answer it: "get" was a term of the sub-question the Summary lacked.
    page = ("The Python Steering Council accepted PEP 703 in 2023. Python 3.13, released in October 2024, ships "
            "an experimental free-threaded build.")
    ledger = [_english_page(page)]
    draft = ("## Summary\nThe Python Steering Council accepted PEP 703 in 2023, and Python 3.13, released in October "
             "2024, ships an experimental free-threaded build [S1].\n\n## 1. When did Python get free-threading?\n[S1]\n")
    plan = [{"question": "When did Python get free-threading?", "queries": []},
            {"question": "Who wrote PEP 703?", "queries": []}]
    state = dict(_state(draft, language="en"), documents=ledger, plan=plan,
                 question="What is PEP 703 and when did Python get free-threading?")
    verification = (await _verify(state, _deps(FakeModel(), loops=0)[0]))["verification"]
    answer = verification["annotated_draft"]
    assert "accepted PEP 703 in 2023" in answer
    assert "do not answer this: When did Python get free-threading?" not in answer
    assert "When did Python get free-threading?" not in verification["summary"]["not_given"]


@pytest.mark.parametrize("language, question, summary, sub, unasked", [
    # Qwen2.5-Coder-1.5B planned "height" and "elevation" for one question (2026-11-27): the
    # Summary's "tall" answers both.
    ("en", "What is the height of Mount Fuji?", "Mount Fuji is the highest mountain in Japan at 3,776 m [S2].",
     "What is the elevation of Mount Fuji?", "How many people climb Mount Fuji?"),
    ("ja", "富士山の標高は？", "富士山は日本最高峰の山で、標高は3,776メートルである[S1]。",
     "富士山の高さはどれくらい？", "富士山の登山者数は？"),
])
async def test_a_sub_question_asking_the_same_attribute_in_other_words_is_answered_by_the_summary(
        language, question, summary, sub, unasked):
    draft = f"## Summary\n{summary}\n\n## 1. {sub}\n[S2]\n\n## 2. {unasked}\n[S2]\n"
    plan = [{"question": q, "queries": []} for q in (sub, unasked)]
    state = dict(_state(draft, language=language), question=question, plan=plan)
    deps, _ = _deps(FakeModel(), loops=0)
    verification = (await _verify(state, deps))["verification"]
    answer = verification["annotated_draft"]
    assert "3,776" in answer
    # Another attribute (how many climb) is still said to be unanswered: the lexicon widens an
    # attribute's words, not what counts as an answer.
    assert verification["summary"]["not_given"] == [unasked]


async def test_a_finding_that_names_the_same_things_again_under_another_sub_question_is_a_repeat():
    # The real model (Qwen2.5-Coder-1.5B, 日本の再生可能エネルギーの内訳は？, 2026-11-28) answered two
    # sub-questions that ask the same with the same list; a finding with something of its own stays.
    source = {**LEDGER[0], "label": "S1", "language": "ja",
              "markdown": "日本の再生可能エネルギーは太陽光発電、水力発電、風力発電が中心である。"
                          "風力発電は近年増えている。地熱発電は東北と九州に多い。"}
    draft = ("## 結論\n日本の再生可能エネルギーは太陽光発電、水力発電、風力発電が中心である[S1]。\n\n"
             "## 1. 日本の再生可能エネルギーの主要な種類は何ですか？\n"
             "日本の再生可能エネルギーの主要な種類は太陽光発電、水力発電、風力発電です[S1]。\n\n"
             "## 2. 日本の再生可能エネルギーの主要なエネルギー源は？\n"
             "日本の再生可能エネルギーの主要なエネルギー源は太陽光発電、水力発電、風力発電です[S1]。"
             "地熱発電は東北と九州に多い[S1]。\n")
    plan = [{"question": q, "queries": []} for q in
            ("日本の再生可能エネルギーの主要な種類は何ですか？", "日本の再生可能エネルギーの主要なエネルギー源は？")]
    state = dict(_state(draft), documents=[source], question="日本の再生可能エネルギーの内訳は？", plan=plan)
    deps, _ = _deps(FakeModel(judge=JudgeBatch(verdicts=[])), loops=0)
    verification = (await _verify(state, deps))["verification"]
    answer = verification["annotated_draft"]
    assert answer.count("太陽光発電、水力発電、風力発電") == 1  # the Summary's, once
    assert "地熱発電は東北と九州に多い[S1]" in answer  # something of its own: kept
    assert verification["summary"]["left_out"]["duplicate"] == 2
    assert verification["summary"]["not_given"] == []  # both sub-questions are answered above


@pytest.mark.parametrize("language, question, summary, sub", [
    ("en", "What is the height of Mount Fuji?", "Mount Fuji is the highest mountain in Japan at 3,776 m [S2].",
     "Why is Mount Fuji so tall?"),
    ("ja", "富士山の標高は？", "富士山は日本最高峰の山で、標高は3,776メートルである[S1]。", "富士山の標高はなぜ高い？"),
])
async def test_a_sub_question_asking_why_is_not_answered_by_a_summary_that_only_names_its_words(
        language, question, summary, sub):
    draft = f"## Summary\n{summary}\n\n## 1. {question}\n[S2]\n\n## 2. {sub}\n[S2]\n"
    plan = [{"question": q, "queries": []} for q in (question, sub)]
    state = dict(_state(draft, language=language), question=question, plan=plan)
    deps, _ = _deps(FakeModel(), loops=0)
    verification = (await _verify(state, deps))["verification"]
    assert verification["summary"]["not_given"] == [sub]


async def test_a_numbered_list_is_counted_again_after_an_item_is_taken_out():
    # The real model (量子ビットとは？, 2026-11-28): item 1 repeated the Summary and went, and the answer
    # showed a list that began at "2.".
    draft = ("## 結論\n富士山の最後の噴火は1707年の宝永噴火である[S1]。\n\n## 噴火の特徴\n\n"
             "1. 富士山の最後の噴火は1707年の宝永噴火である[S1]。\n2. 宝永噴火では江戸にも火山灰が降った[S1]。\n"
             "3. 宝永噴火は1707年に起きた[S1]。\n")
    deps, _ = _deps(FakeModel(), loops=0)
    answer = (await _verify(_state(draft), deps))["verification"]["annotated_draft"]
    items = [line for line in answer.splitlines() if re.match(r"\d+\. ", line)]
    assert [item.split(".")[0] for item in items] == [str(n) for n in range(1, len(items) + 1)], answer
    assert len(items) == 2 and items[0].startswith("1. 宝永噴火では江戸にも火山灰が降った"), answer


def test_list_numbers_count_by_depth_and_start_again_after_a_heading_or_a_paragraph():
    from research.workflow.answer import _tidy_sections

    tidy, _ = _tidy_sections("## A\n\n2. x\n   2. y\n   3. z\n3. w\n\npara\n\n5. v\n\n## B\n\n4. c\n", "en", [],
                             summary_empty=False)
    assert [line for line in tidy.splitlines() if re.match(r"\s*\d", line)] == [
        "1. x", "   1. y", "   2. z", "2. w"]
    # The lists of one item after the paragraph and under B read as paragraphs.
    assert "\nv\n" in tidy and "\nc\n" in tidy, tidy


def test_a_numbered_list_left_with_one_item_reads_as_a_paragraph():
    from research.workflow.answer import _tidy_sections

    tidy, _ = _tidy_sections("## 結論\n\n1. EU諸国では法的に保護されている[S1]。\n\n## 詳細\n\n1. 一つ目[S1]。\n2. 二つ目[S1]。\n\n"
                             "1. 入れ子の親\n   1. 子[S1]。\n", "ja", [], summary_empty=False)
    assert tidy.split("## 結論\n\n")[1].startswith("EU諸国では法的に保護されている[S1]。\n"), tidy
    assert "1. 一つ目" in tidy and "2. 二つ目" in tidy and "3. 入れ子の親" in tidy and "   1. 子" in tidy, tidy
    # A line of code is left as written.
    from research.workflow.answer import _lists_of_one_as_paragraphs
    assert _lists_of_one_as_paragraphs(["```", "1. step", "```"]) == ["```", "1. step", "```"]


async def test_a_sentence_with_one_term_exchanged_gets_the_passage_term_and_is_checked_again():
    # issue 44, item 4: the careless fake wrote "process_id" where the passage says thread_id
    # (score 0.86, missing_term); it stayed in the Findings marked only "(not checked)".
    source = "Each run passes a thread_id in its configuration. The checkpointer stores every step."
    ledger = [_english_page(source)]
    draft = "## Findings\nEach run passes a process_id in its configuration [S1].\n"
    deps, _ = _deps(FakeModel(), loops=0)
    verification = (await _verify(dict(_state(draft, language="en"), documents=ledger), deps))["verification"]
    (claim,) = verification["claims"]
    assert claim["verdict"] == "supported" and "thread_id" in claim["text"]
    assert "process_id" not in verification["annotated_draft"] and "thread_id" in verification["annotated_draft"]
    (correction,) = verification["summary"]["corrected"]
    assert (correction["value"], correction["source_value"]) == ("process_id", "thread_id")
    # A paraphrase is never "repaired" into the passage's words: only one term in the same place.
    draft = "## Findings\nEvery run hands over a process_id through its settings [S1].\n"
    verification = (await _verify(dict(_state(draft, language="en"), documents=ledger), _deps(FakeModel(), loops=0)[0]))["verification"]
    assert "thread_id" not in verification["annotated_draft"] and not verification["summary"].get("corrected")


async def test_a_japanese_topic_that_dropped_the_page_s_kind_gets_it_back():
    # The real 1.5B model (`research bench jsquad --sample 5 --seed 131`, JSQuAD v1.3 valid a29435p7q1, 「ラジカル反応など極く
    # 限られた反応性しか示さず、化学的に不活性であるものは？」): its Summary's 「炭化水素は…化学的に不活性である」 was supported,
    # the page saying it of 飽和炭化水素 and going on to 不飽和炭化水素 (the page's sentences, quoted).
    source = ("# 炭化水素\n\n飽和炭化水素はラジカル反応など極く限られた反応性しか示さず、化学的に不活性である。一方、不飽和炭化水素は"
              "芳香族性を持つ場合とそうでない場合で化学的性質が異なる。")
    ledger = [dict(LEDGER[0], label="S1", language="ja", suspicious=False, markdown=source)]
    draft = "## 結論\n炭化水素はラジカル反応など極く限られた反応性しか示さず、化学的に不活性である[S1]。\n"
    question = "ラジカル反応など極く限られた反応性しか示さず、化学的に不活性であるものは？"
    deps, _ = _deps(FakeModel(), loops=0)
    verification = (await _verify(dict(_state(draft, language="ja"), documents=ledger, question=question),
                                  deps))["verification"]
    assert verification["annotated_draft"].startswith("## 結論\n飽和炭化水素はラジカル反応など極く限られた反応性しか示さず")
    (correction,) = verification["summary"]["corrected"]
    assert (correction["value"], correction["source_value"]) == ("炭化水素", "飽和炭化水素")
    (claim,) = verification["claims"]
    assert claim["verdict"] == "supported"


async def test_a_japanese_sentence_with_one_name_exchanged_gets_the_passage_name():
    # bench_answers.py with the careless fake (issue 44, item 4): 「…1707年の天明噴火で…」 where the
    # passage says 宝永噴火 stayed in the Findings "(未確認)": the words were compared as runs of
    # kanji and kana, so the one exchanged name was never found.
    source = "富士山の最後の噴火は1707年の宝永噴火で、噴火は約16日間続きました。富士山の標高は3,776メートルです。"
    ledger = [dict(LEDGER[0], label="S1", language="ja", suspicious=False, markdown=source)]
    draft = "## 詳細\n富士山の最後の噴火は1707年の天明噴火で、噴火は約16日間続きました[S1]。\n"
    deps, _ = _deps(FakeModel(), loops=0)
    verification = (await _verify(dict(_state(draft, language="ja"), documents=ledger), deps))["verification"]
    assert "天明" not in verification["annotated_draft"] and "宝永噴火" in verification["annotated_draft"]
    (correction,) = verification["summary"]["corrected"]
    assert (correction["value"], correction["source_value"]) == ("天明", "宝永")
    # Another wording with the wrong name is left to the other checks, never rewritten.
    draft = "## 詳細\n1707年に起きた天明噴火が、富士山で最後の噴火となった[S1]。\n"
    verification = (await _verify(dict(_state(draft, language="ja"), documents=ledger), _deps(FakeModel(), loops=0)[0]))["verification"]
    answer = verification["annotated_draft"]
    assert "天明噴火が" not in answer and "宝永噴火が" not in answer and not verification["summary"].get("corrected")


async def test_a_quotation_with_a_word_dropped_gets_the_page_s_words_and_is_checked_again():
    # JSQuAD v1.3 valid (`research bench jsquad --sample 5 --seed 117`, 「全国懇話会が結成されたのは何年」): the real 1.5B
    # model's sentence with the gold year was taken out as misquoted: its last quotation dropped one word (革新的な) of
    # the page's. The page's sentence and the model's, quoted.
    said = ("1981年、平和・民主主義・革新統一をすすめる全国懇話会（全国革新懇）を結成し、「軍事費を削って福祉にまわせ」「非核の"
            "一点で結集を」などと呼びかけ、政党の組み合わせによる「革新共闘」模索ではなく、「思想、信条、支持政党、の違いを"
            "超えた国民多数の{}運動の結集」により、無党派との共同による新たな革新戦線を全国的に追求するとした")
    ledger = [dict(LEDGER[0], label="S1", language="ja", suspicious=False, title="日本共産党",
                   markdown="# 日本共産党\n\nこのため" + said.format("革新的な") + "。")]
    asked = {"question": "全国懇話会が結成されたのは何年", "plan": []}
    draft = f"## 結論\n\n{said.format('')}[S1]。\n"
    deps, _ = _deps(FakeModel(), loops=0)
    verification = (await _verify(dict(_state(draft, language="ja"), documents=ledger, **asked), deps))["verification"]
    answer = verification["annotated_draft"]
    assert said.format("革新的な") + "[S1]。" in answer, answer
    (correction,) = verification["summary"]["corrected"]
    assert correction["source_value"] == "思想、信条、支持政党、の違いを超えた国民多数の革新的な運動の結集"
    # A quotation in other words altogether is not rewritten: it is taken out.
    other = said.format("").replace("国民多数の運動の結集", "すべての国民の力を一つにまとめる運動")
    draft = f"## 結論\n\n{other}[S1]。\n"
    verification = (await _verify(dict(_state(draft, language="ja"), documents=ledger, **asked),
                                  _deps(FakeModel(), loops=0)[0]))["verification"]
    assert "まとめる" not in verification["annotated_draft"] and not verification["summary"].get("corrected")


async def test_an_unchecked_sentence_given_what_its_passage_says_of_another_topic_is_taken_out():
    # The real 1.5B model on 「富士山の最後の噴火はいつ？」 (bench_answers.py --ollama): 「宝永噴火は富士山の火山防災資料の中で、
    # 富士山の火山防災についてまとめたものです」 stayed in the findings, not checked: the eruption given what the page says of
    # its leaflet. The fixture's page, quoted.
    source = ("この資料は富士山の火山防災についてまとめたものです。富士山の最後の噴火は1707年の宝永噴火で、噴火は約16日間"
              "続きました。宝永噴火の火山灰は江戸まで達しました。")
    ledger = [dict(LEDGER[0], label="S1", language="ja", suspicious=False, title="富士山の火山防災", markdown=source)]
    draft = ("## 結論\n\n富士山の最後の噴火は1707年の宝永噴火で、噴火は約16日間続きました[S1]。\n\n## 詳細\n\n"
             "宝永噴火は富士山の火山防災資料の中で、富士山の火山防災についてまとめたものです[S1]。"
             "宝永噴火の火山灰は江戸まで達しました[S1]。\n")
    asked = {"question": "富士山の最後の噴火はいつ？", "plan": []}
    verification = (await _verify(dict(_state(draft, language="ja"), documents=ledger, **asked),
                                  _deps(FakeModel(), loops=0)[0]))["verification"]
    answer = verification["annotated_draft"]
    assert "まとめたもの" not in answer and "宝永噴火の火山灰は江戸まで達しました[S1]。" in answer, answer
    (leaflet,) = [c for c in verification["claims"] if "まとめたもの" in c["text"]]
    assert (leaflet["state"], leaflet["removed_reason"]) == ("not_checked", "not_checked")
    # Not checked but said of what its passage speaks of, a sentence stays, marked.
    draft = draft.replace("宝永噴火は富士山の火山防災資料の中で、富士山の火山防災についてまとめたものです[S1]。",
                          "宝永噴火の火山灰は江戸の人々の暮らしに大きな被害を与えました[S1]。")
    verification = (await _verify(dict(_state(draft, language="ja"), documents=ledger, **asked),
                                  _deps(FakeModel(), loops=0)[0]))["verification"]
    (harm,) = [c for c in verification["claims"] if "被害" in c["text"]]
    assert harm["state"] == "not_checked" and not harm["removed"], harm
    # The shorter form, every word on the page, only its topic unconfirmed (the same question, 2026-12-01 11:35).
    draft = draft.replace("宝永噴火の火山灰は江戸の人々の暮らしに大きな被害を与えました[S1]。",
                          "宝永噴火は富士山の火山防災資料をまとめたものです[S1]。")
    verification = (await _verify(dict(_state(draft, language="ja"), documents=ledger, **asked),
                                  _deps(FakeModel(), loops=0)[0]))["verification"]
    assert "まとめたもの" not in verification["annotated_draft"], verification["annotated_draft"]


async def test_a_pointing_sentence_after_an_unchecked_one_is_led_by_the_page_s_sentence_it_points_at():
    # JSQuAD v1.3 valid (`research bench jsquad --sample 5 --seed 118`, 「クーデター後に発表された解散はどこ？」): the real 1.5B
    # model's Summary opened 「日本共産党の解散は、1991年8月31日に宮本顕治の発言が発表された（未確認）」 — false: it was the Soviet
    # party's — and its supported 「その発言の翌日に、…」 pointed at it. The page's two sentences, quoted.
    first = ("1991年8月のクーデター後に発表されたソ連共産党の解散には、「もろ手を上げて歓迎する」という宮本顕治の発言が"
             "発表された（8月31日付毎日新聞によるインタビューでの発言）。")
    second = ("その発言の翌日に、常任幹部会は「大国主義、覇権主義の歴史的巨悪の党の終焉を歓迎する - ソ連共産党の解体にさいして」"
              "との声明を発表した。")
    ledger = [dict(LEDGER[0], label="S1", language="ja", suspicious=False, title="日本共産党",
                   markdown=f"# 日本共産党\n\n{first}{second}")]
    draft = f"## 結論\n\n日本共産党の解散は、1991年8月31日に宮本顕治の発言が発表された[S1]。{second[:-1]}[S1]。\n"
    asked = {"question": "クーデター後に発表された解散はどこ？", "plan": []}
    verification = (await _verify(dict(_state(draft, language="ja"), documents=ledger, **asked),
                                  _deps(FakeModel(), loops=0)[0]))["verification"]
    summary = verification["annotated_draft"].split("## 結論\n")[1].strip()
    assert summary.startswith(f"«{first}»[S1]その発言の翌日に"), summary
    assert "日本共産党の解散は" not in summary
    (draft_said,) = [c for c in verification["claims"] if c["text"].startswith("日本共産党の解散は")]
    assert (draft_said["state"], draft_said["removed_reason"]) == ("not_checked", "not_checked")


async def test_a_katakana_name_the_model_misspelt_gets_the_page_spelling_and_is_checked_again():
    # JSQuAD v1.3 valid a29111p0q0 (「ニーダーザクセン州の州都は？」), the real 1.5B model's whole answer:
    # 「ニューダーザクセン州の州都は、ハノーファーです。」 was taken out as not checked (the name is not on
    # the page as spelt), and the report said nothing of the draft was confirmed. The page is the bench's.
    source = "# ハノーファー\n\nハノーファー（ ）は、ライネ川沿いにある北ドイツの主要都市のひとつ。ニーダーザクセン州の州都である。人口53万人。"
    ledger = [dict(LEDGER[0], label="S1", language="ja", suspicious=False, title="ハノーファー", markdown=source)]
    draft = "## 結論\n\nニューダーザクセン州の州都は、ハノーファーです[S1]。\n"
    asked = {"question": "ニーダーザクセン州の州都は？", "plan": []}
    deps, _ = _deps(FakeModel(), loops=0)
    verification = (await _verify(dict(_state(draft, language="ja"), documents=ledger, **asked), deps))["verification"]
    answer = verification["annotated_draft"]
    assert "ニーダーザクセン州の州都は、ハノーファーです[S1]。" in answer and "ニューダー" not in answer, answer
    (correction,) = verification["summary"]["corrected"]
    assert (correction["value"], correction["source_value"]) == ("ニューダーザクセン", "ニーダーザクセン")
    # Another name stays as written: it is not the page's name spelt another way.
    draft = "## 結論\n\nニーダーバイエルン州の州都は、ハノーファーです[S1]。\n"
    verification = (await _verify(dict(_state(draft, language="ja"), documents=ledger, **asked),
                                  _deps(FakeModel(), loops=0)[0]))["verification"]
    assert "州の州都は" not in verification["annotated_draft"] and not verification["summary"].get("corrected")
    from research.modules.text.evidence import katakana_misspelt
    assert katakana_misspelt("ヴィエンチャン", "ビエンチャン") and katakana_misspelt("ゴーッホ", "ゴッホ") is False
    assert not katakana_misspelt("キュー", "キー") and not katakana_misspelt("ニーダーバイエルン", "ニーダーザクセン")


def test_a_heading_whose_sub_sections_all_emptied_goes_too():
    # The careless fake's Japanese run: "### 詳細" stayed in the Findings over nothing once its
    # only sub-heading, whose sentences had all been removed, was dropped.
    from research.workflow.answer import _tidy_sections

    tidy, _ = _tidy_sections("## 結論\n\n富士山の標高は3,776メートル[S1]。\n\n## 調査結果\n\n### 詳細\n\n#### 富士山の標高は？\n\n",
                             "ja", [], summary_empty=False)
    assert tidy == "## 結論\n\n富士山の標高は3,776メートル[S1]。\n"
    # A sub-question of the plan left empty still says the sources did not give it, under its parents.
    tidy, not_given = _tidy_sections("## 結論\n\nx[S1]。\n\n## 調査結果\n\n### 富士山の標高は？\n\n", "ja", ["富士山の標高は？"],
                                     summary_empty=False)
    assert not_given == ["富士山の標高は？"] and "## 調査結果" in tidy and "### 富士山の標高は？" in tidy


def test_a_section_heading_in_the_other_language_is_not_in_the_report():
    # The real 1.5B model's Japanese JSQuAD report had "### 1. Who discovered the formation of
    # nitrite ions in experiments?": the heading goes, its sentences stay under the section above;
    # an emptied one is not announced in English either.
    from research.workflow.answer import _tidy_sections

    tidy, not_given = _tidy_sections(
        "## 結論\n\n検証した科学者はスタンリー・ミラーである[S1]。\n\n## 調査結果\n\n"
        "### 1. Who verified it in experiments?\n\nミラーは1953年に実験を行った[S1]。\n\n"
        "### 2. What was the name of the scientist?\n\n", "ja",
        ["Who verified it in experiments?", "What was the name of the scientist?"], summary_empty=False)
    assert "Who" not in tidy and "What" not in tidy and not_given == []
    assert "## 調査結果\n\nミラーは1953年に実験を行った[S1]。" in tidy
    # A heading in the asked language with a name in Latin letters stays.
    tidy, _ = _tidy_sections("## 結論\n\nx[S1]。\n\n## 調査結果\n\n### PEP 703とPython 3.13\n\ny[S1]。\n", "ja", [],
                             summary_empty=False)
    assert "### PEP 703とPython 3.13" in tidy


async def _answer_from_one_page(draft: str, question: str, source: str, title: str, language: str = "ja") -> str:
    """The assembled answer to ``question`` from ``draft``, with one page read (S1, ``source`` under ``title``),
    no plan, and the fake model judging."""
    ledger = [dict(LEDGER[0], label="S1", language=language, suspicious=False, markdown=source, title=title)]
    state = dict(_state(draft, language=language), documents=ledger, question=question, plan=[])
    return (await _verify(state, _deps(FakeModel(), loops=0)[0]))["verification"]["annotated_draft"]


async def test_an_unchecked_sentence_giving_its_topic_what_the_page_says_of_another_thing_is_taken_out():
    # The real 1.5B model on 「富士山の最後の噴火はいつ？」 (bench_answers.py --ollama, 2026-12-01 11:35): 「宝永噴火は富士山の
    # 活火山です」 stayed in the findings, not checked (missing 活火山): the page says 活火山 of 富士山, which the sentence
    # names after its topic. The local web's Fuji page, quoted.
    source = ("富士山は静岡県と山梨県にまたがる活火山である。富士山の最後の噴火は1707年の宝永噴火です。"
              "宝永噴火では江戸（現在の東京）にも火山灰が降りました。")
    draft = ("## 結論\n\n富士山の最後の噴火は1707年の宝永噴火です[S1]。\n\n## 詳細\n\n宝永噴火は富士山の活火山です[S1]。"
             "宝永噴火では江戸（現在の東京）にも火山灰が降りました[S1]。\n")
    answer = await _answer_from_one_page(draft, "富士山の最後の噴火はいつ？", source, "富士山")
    assert "活火山" not in answer and "宝永噴火では江戸（現在の東京）にも火山灰が降りました[S1]。" in answer, answer
    # Said of the page's own topic, a sentence lacking a word stays, marked.
    kept = await _answer_from_one_page(draft.replace("宝永噴火は富士山の活火山です", "富士山は日本の活火山です"),
                                       "富士山とは？", source, "富士山")
    assert "富士山は日本の活火山です" in kept, kept


async def test_an_uncited_sentence_about_a_name_its_one_source_never_names_is_not_kept_under_that_source():
    # JSQuAD v1.3 valid (`research bench jsquad --sample 5 --seed 143`), the real 1.5B model on 「「さみだれ」の漢字表記は？」:
    # its uncited 「ポルトガルの漢字表記は「梅雨」です」 (and the same of ドミニカ国 and オランダ) stayed in the findings, not
    # checked, under the 梅雨 page's label, which holds every word of it but the country. The page's sentence, quoted.
    page = ("# 梅雨\n\n漢字表記「梅雨」の語源としては、この時期は梅の実が熟す頃であることからという説や、この時期は湿度が高く"
            "カビが生えやすいことから「黴雨（ばいう）」と呼ばれ、これが同じ音の「梅雨」に転じたという説、この時期は「毎」日のように"
            "雨が降るから「梅」という字が当てられたという説がある。\n")
    draft = ("## 結論\n\n「さみだれ」の漢字表記は「梅雨」です。\n\n## ポルトガルの漢字表記\n\nポルトガルの漢字表記は「梅雨」です。\n\n"
             "## 梅雨の語源\n\n漢字表記「梅雨」の語源には、梅の実が熟す頃であることからという説がある。\n")
    answer = await _answer_from_one_page(draft, "「さみだれ」の漢字表記は？", page, "梅雨")
    assert "ポルトガル" not in answer, answer
    # An uncited sentence about what the page does name stays, under its label.
    assert "梅の実が熟す頃であることからという説がある[S1]" in answer, answer


async def test_a_lead_that_only_says_the_question_back_follows_the_pages_sentence_that_says_the_words_asked():
    # JSQuAD v1.3 valid (`research bench jsquad --sample 5 --seed 144`), the real 1.5B model's answer to 「日本共産党は、
    # マスメディアに対して、なんと反発していたか？」 was its checked 「日本共産党は、マスメディアに対して反発していた」, the
    # question said back, the page's words (「新聞は権力の手先」) unsaid. The page's sentences, quoted.
    page = ("# 日本共産党\n\n日本共産党が武装路線を放棄した後も1960年代半ばまで、朝日新聞などの全国紙では、政党担当記者が共産党を"
            "取材して記事を書くのではなく、警察担当記者が公安情報を元に記事を書くという状況が続いた。これによりマスメディアに対し、"
            "日本共産党は「新聞は権力の手先」と反発していた。\n")
    draft = "## 結論\n\n日本共産党は、マスメディアに対して反発していた[S1]。\n"
    answer = await _answer_from_one_page(draft, "日本共産党は、マスメディアに対して、なんと反発していたか？", page, "日本共産党")
    summary = answer.split("## 結論\n")[1].strip()
    assert "「新聞は権力の手先」" in summary and summary.index("新聞は権力の手先") < summary.index("反発していた[S1]"), summary
    # A lead that gives the words asked stays first, as it was.
    answered = "## 結論\n\n日本共産党は、マスメディアに対して「新聞は権力の手先」と反発していた[S1]。\n"
    answer = await _answer_from_one_page(answered, "日本共産党は、マスメディアに対して、なんと反発していたか？", page, "日本共産党")
    assert answer.split("## 結論\n")[1].strip().startswith("日本共産党は、マスメディアに対して「新聞は権力の手先」"), answer


async def test_a_lead_giving_no_value_of_the_kind_asked_follows_the_pages_sentence_that_gives_one():
    # JSQuAD v1.3 valid (`research bench jsquad --sample 5 --seed 144`), the real 1.5B model's answer to 「ポルトガルの
    # 自動車輸出の割合は全体の何%？」 led with two checked sentences of no percentage; the page's «おもな輸出品目は、自動車
    # （16%）、…» was not quoted (自動車輸出 written apart, 割合 given as a figure). The page's sentences, quoted.
    page = ("# ポルトガル\n\n貿易形態は、自動車、機械などの加工貿易である。おもな輸出品目は、自動車 （16%）、電気機械 （12%）、"
            "衣類 （11%）で、おもな相手国は、スペイン（21%）、ドイツ（18%）、フランス（13%）。2002年時点では、日本への輸出が"
            "1.7億ドル。日本が輸入するコルクの3分の2はポルトガル産である。\n")
    draft = "## 結論\n\n2002年時点では、日本への輸出が1.7億ドル[S1]。日本が輸入するコルクの3分の2はポルトガル産である[S1]。\n"
    answer = await _answer_from_one_page(draft, "ポルトガルの自動車輸出の割合は全体の何%？", page, "ポルトガル")
    summary = answer.split("## 結論\n")[1].strip()
    assert "自動車 （16%）" in summary and summary.index("16%") < summary.index("1.7億ドル"), summary
    # A lead that gives the share stays first.
    answered = "## 結論\n\nおもな輸出品目は、自動車 （16%）、電気機械 （12%）、衣類 （11%）である[S1]。\n"
    answer = await _answer_from_one_page(answered, "ポルトガルの自動車輸出の割合は全体の何%？", page, "ポルトガル")
    assert answer.split("## 結論\n")[1].strip().startswith("おもな輸出品目は、自動車 （16%）"), answer


async def test_a_japanese_sentence_whose_subject_went_with_the_sentence_before_it_goes_too():
    # JSQuAD v1.3 valid a20898p14q1 (`research bench jsquad --seed 85`), the real 1.5B model: its 「最大せん断応力
    # τmaxは、主軸に対して45°または135°傾いた面となる。」 was taken out (not checked: the page says 主せん断応力),
    # and the repeat without its subject, 「主軸に対して45°または135°傾いた面となる。」, led the Summary as supported.
    # The page's sentences, quoted.
    source = ("主せん断応力が働く面は、主軸に対して45°あるいは135°傾いた面となる。 せん断応力がゼロとなるときの垂直応力が"
              "主応力であるが、同時に主応力はあらゆる座標系の中で垂直応力が最大、最小となる値を示している。")
    draft = ("## 結論\n\n最大せん断応力τmaxは、主軸に対して45°または135°傾いた面となる[S1]。"
             "主軸に対して45°または135°傾いた面となる[S1]。\n")
    question = "主応力はあらゆる座標系の中で何が最大、最小となる値を示している？"
    answer = await _answer_from_one_page(draft, question, source, "応力")
    assert "傾いた面となる[S1]" not in answer and "垂直応力が最大、最小となる値を示している" in answer, answer
    # With the sentence before it kept, it stays: its subject is there.
    draft = "## 結論\n\n主せん断応力が働く面は、主軸に対して45°あるいは135°傾いた面となる[S1]。最大、最小となる値を示している[S1]。\n"
    answer = await _answer_from_one_page(draft, question, source, "応力")
    assert "主せん断応力が働く面は" in answer, answer


async def test_a_checked_sentence_beside_the_figure_asked_does_not_lead_alone():
    # JSQuAD v1.3 valid a1468p31q4 (`research bench jsquad --seed 87`), the real 1.5B model: to 「2008年の経済成長は
    # 何%か」 its Summary was the Netherlands page's 「…経済危機を受けて、さらなる財政の緊縮が求められている」, supported,
    # as if it answered. The Laos page it read says the figure. Both pages' sentences, quoted.
    laos = "海外からの援助や投資により、2008年には7.8%の経済成長を実現している。"
    netherlands = "しかし、リーマン・ショックに端を発した経済危機を受けて、さらなる財政の緊縮が求められている。"
    ledger = [dict(LEDGER[0], label="S1", language="ja", suspicious=False, markdown=laos, title="ラオス"),
              dict(LEDGER[0], label="S2", language="ja", suspicious=False, markdown=netherlands, title="オランダ")]
    draft = ("## 結論\n\n2008年の経済成長は、各国の経済状況によって異なる。"
             "しかし、リーマン・ショックに端を発した経済危機を受けて、さらなる財政の緊縮が求められている[S2]。\n")
    state = dict(_state(draft, language="ja"), documents=ledger, question="2008年の経済成長は何%か", plan=[])
    answer = (await _verify(state, _deps(FakeModel(), loops=0)[0]))["verification"]["annotated_draft"]
    summary = answer.split("## 結論\n")[1].strip()
    assert summary.startswith("下書きの確認できた文は質問に答えていません。質問について、出典にはこうあります: "
                              "«ラオス：海外からの援助や投資により、2008年には7.8%の経済成長を実現している。»[S1]"), summary
    # Without a page that says it, a line says the question is not answered, before the checked sentence.
    state["documents"] = ledger[1:]
    answer = (await _verify(state, _deps(FakeModel(), loops=0)[0]))["verification"]["annotated_draft"]
    assert answer.split("## 結論\n")[1].strip().startswith("読み込んだ出典は質問に直接答えていません。以下は下書きの文のうち"), answer
    # A sentence that gives the figure asked leads as before.
    state["documents"], state["draft"] = ledger, "## 結論\n\n2008年には7.8%の経済成長を実現している[S1]。\n"
    answer = (await _verify(state, _deps(FakeModel(), loops=0)[0]))["verification"]["annotated_draft"]
    assert answer.split("## 結論\n")[1].strip().startswith("2008年には7.8%の経済成長を実現している[S1]。"), answer


async def test_a_lifted_sentence_that_names_the_award_but_not_the_year_or_the_winning_does_not_answer():
    # JSQuAD v1.3 valid a22392p54q4 (`research bench jsquad --sample 5 --seed 122`), the real 1.5B model: to
    # 「RIBAゴールドメダルを2002年に受賞したのは?」 its Summary named a winner no page names (not checked), and the
    # finding lifted to lead it was the architect page's list of awards, «次いで、…RIBAゴールドメダル…がある», supported
    # and beside the question, its 次いで ("next") pointing at nothing. The pages' sentences, quoted (shortened list).
    winners = ("都市計画と建築は一体的に語られ、環境問題にも詳しいのが建築家とみられる。世界中の建築家・建築界から"
               "評価されているアーキグラムなどはRIBAゴールドメダルを2002年に受賞している。")
    awards = ("最も著名な賞は、ハイアット財団から贈られるプリツカー賞である。次いで、王立英国建築家協会から贈られる"
              "RIBAゴールドメダル、アメリカ建築家協会から贈られるAIAゴールドメダル、スターリング賞がある。")
    ledger = [dict(LEDGER[0], label="S1", language="ja", suspicious=False, markdown=winners, title="建築家"),
              dict(LEDGER[0], label="S3", language="ja", suspicious=False, markdown=awards, title="建築家 賞")]
    draft = ("## 結論\n\nRIBAゴールドメダルを2002年に受賞したのは、アンドビルトアーキテクトと呼ばれる建築家である[S1]。\n\n"
             "## 2節\n\n次いで、王立英国建築家協会から贈られるRIBAゴールドメダル、アメリカ建築家協会から贈られる"
             "AIAゴールドメダル、スターリング賞がある[S3]。\n")
    state = dict(_state(draft, language="ja"), documents=ledger, question="RIBAゴールドメダルを2002年に受賞したのは?",
                 plan=[])
    answer = (await _verify(state, _deps(FakeModel(), loops=0)[0]))["verification"]["annotated_draft"]
    summary = answer.split("## 結論\n")[1].strip()
    assert summary.startswith("下書きの確認できた文は質問に答えていません。質問について、出典にはこうあります: «"), summary
    assert "アーキグラムなどはRIBAゴールドメダルを2002年に受賞している。»[S1]" in summary, summary
    assert "次いで" not in answer, answer


async def test_a_checked_sentence_moved_before_one_not_checked_is_read_as_the_lead_it_now_is():
    # JSQuAD v1.3 valid (`research bench jsquad --sample 5 --seed 123`), the real 1.5B model: to 「コンゴ王国に１５世紀に
    # 到来したのは何人ですか？」 its Summary's supported «…ポルトガルと盛んに交易を行ったものの、…衰退していった» moved before
    # the garbled sentence not checked, and was read with that one's "not checked": nothing said it does not answer
    # who came. The page's sentence that does (ポルトガル人) is now quoted first. The page's sentences, quoted.
    page = ("ポルトガル人が大航海時代の15世紀に到来したとき、海岸地域はコンゴ王国の統治下にあった。コンゴ王国はポルトガルと"
            "盛んに交易を行ったものの、奴隷貿易などで徐々に衰退していった。1550年にコンゴ王国の北部がとして独立し、1882年まで"
            "続いた。")
    draft = ("## 結論\nコンゴ王国に15世紀に到来したのは1550年に、ポルトガル人が大航海時代の15世紀に到達したとき、海岸地域は"
             "コンゴ王国の統治下にあった[S1]。コンゴ王国はポルトガルと盛んに交易を行ったものの、奴隷貿易などで徐々に衰退して"
             "いった[S1]。\n")
    answer = await _answer_from_one_page(draft, "コンゴ王国に１５世紀に到来したのは何人ですか？", page, "コンゴ共和国")
    summary = answer.split("## 結論\n")[1].strip()
    assert summary.startswith("下書きの確認できた文は質問に答えていません。質問について、出典にはこうあります: "
                              "«ポルトガル人が大航海時代の15世紀に到来したとき、海岸地域はコンゴ王国の統治下にあった。»[S1]"), summary


async def test_a_checked_lead_that_names_little_of_the_name_asked_comes_after_the_sentence_that_names_it():
    # JSQuAD v1.3 valid (`research bench jsquad --sample 5 --seed 119`), the real 1.5B model: to 「ラオスにあるビール等の
    # 飲料を生産する国営のメーカーの名前は？」 its Summary led with the Laos page's supported «ラオスでは、毎年約220万 - 250万
    # トンのコメが生産されている», then its garbled sentence on ビア・ラオ, not checked. The page's sentence naming the
    # maker now comes first. The pages' sentences, quoted.
    rice = "ラオスでは、毎年約220万 - 250万トンのコメが生産されている。雨季は稲作、乾季は野菜等の栽培を行っている農家が多い。"
    maker = "かつて近代的な設備を備えた大きな工場は、ビールや清涼飲料水などを生産する国営のメーカー「ビア・ラオ」が目立つ程度であった。"
    ledger = [dict(LEDGER[0], label="S1", language="ja", suspicious=False, markdown=maker, title="ラオス"),
              dict(LEDGER[0], label="S12", language="ja", suspicious=False, markdown=rice, title="ラオス")]
    draft = ("## 結論\n\nラオスでは、毎年約220万 - 250万トンのコメが生産されている[S12]。これは、ラオスの酒や清涼飲料水を生産する"
             "国営のメーカー「ビア・ラオ」が目立つ程度である[S1]。\n")
    state = dict(_state(draft, language="ja"), documents=ledger, plan=[],
                 question="ラオスにあるビール等の飲料を生産する国営のメーカーの名前は？")
    answer = (await _verify(state, _deps(FakeModel(), loops=0)[0]))["verification"]["annotated_draft"]
    summary = answer.split("## 結論\n")[1].strip()
    assert summary.startswith("下書きの確認できた文は質問に答えていません。質問について、出典にはこうあります: «" + maker
                              + "»[S1]ラオスでは、"), summary
    # A lead that names what was asked stays first.
    state["draft"] = "## 結論\n\n" + maker.replace("。", "[S1]。") + "\n"
    answer = (await _verify(state, _deps(FakeModel(), loops=0)[0]))["verification"]["annotated_draft"]
    assert answer.split("## 結論\n")[1].strip().startswith("かつて近代的な設備を備えた大きな工場は"), answer


async def test_a_checked_lead_naming_nothing_of_the_make_up_asked_comes_after_the_sentence_that_gives_it():
    # The real 1.5B model's answer to 「日本の再生可能エネルギーの内訳は？」 (`bench_answers.py --ollama`, 2026-12-01): once
    # its merged sentence (火力 listed among the renewables) was decided against, the Summary was «風力発電は近年増えている»
    # alone, supported and naming nothing the question names. The page's breakdown now comes first (the local
    # web's energy page, tests/fixtures/web_fixture.py).
    page = ("2022年度の日本の発電電力量に占める再生可能エネルギーの割合は21.7%だった。\n\n"
            "再生可能エネルギーの内訳では太陽光発電が9.2%で最も多く、水力発電が7.6%で続いた。\n\n"
            "日本の発電では火力が最も多く、次いで水力発電が続いている。風力発電は近年増えている。")
    draft = ("## 結論\n\n日本の再生可能エネルギーの内訳は太陽光発電が最も多く、水力発電が次いで火力発電が続いている[S1]。"
             "風力発電は近年増えている[S1]。\n")
    answer = await _answer_from_one_page(draft, "日本の再生可能エネルギーの内訳は？", page, "日本の電源構成（2022年度）")
    summary = answer.split("## 結論\n")[1].strip()
    assert summary.startswith("下書きの確認できた文は質問に答えていません。質問について、出典にはこうあります: "
                              "«再生可能エネルギーの内訳では太陽光発電が9.2%で最も多く、水力発電が7.6%で続いた。»[S1]"), summary
    assert "火力発電が続いている" not in summary, summary
    # A lead that names what was asked stays first.
    answer = await _answer_from_one_page("## 結論\n\n再生可能エネルギーの内訳では太陽光発電が最も多い[S1]。\n",
                                         "日本の再生可能エネルギーの内訳は？", page, "日本の電源構成（2022年度）")
    assert answer.split("## 結論\n")[1].strip().startswith("再生可能エネルギーの内訳では太陽光発電が最も多い"), answer


async def test_a_lead_beside_the_figure_asked_is_not_quoted_over_where_the_next_checked_sentence_answers():
    # JSQuAD v1.3 valid a111914p6q0 (`research bench jsquad --sample 5 --seed 126`), the real 1.5B model: its uncited
    # answer went as the copy of a checked finding, the two findings led the Summary, and as the first gives no 2 (of
    # 2局) the page's same two sentences were quoted again before them, after a line saying they do not answer. The
    # second gives the programme and the figure. The page's sentences, quoted.
    page = ("# RKBラジオ\n\n2016年3月28日 13:00に、FM補完中継局（ワイドFM）の本放送開始。このFM開局を記念し、KBCラジオと共同制作で"
            "『熱ラジ!』が2局同時生放送された。")
    draft = ("## 結論\nRKBラジオがFM開局を記念してKBCラジオと共同制作で2局同時生放送した番組名は「熱ラジ!」です。\n\n"
             "## 詳細\n2016年3月28日、RKBラジオがFM補完中継局（ワイドFM）の本放送開始[S1]。このFM開局を記念し、KBCラジオと"
             "共同制作で『熱ラジ!』が2局同時生放送された[S1]。\n")
    question = "RKBラジオがFM開局を記念してKBCラジオと共同制作で2局同時生放送した番組名は何か"
    answer = await _answer_from_one_page(draft, question, page, "RKBラジオ")
    summary = answer.split("## 結論\n")[1].split("\n## ")[0].strip()
    assert "質問に答えていません" not in summary and summary.count("熱ラジ") == 1, summary
    assert "『熱ラジ!』が2局同時生放送された[S1]" in summary, summary


async def test_the_page_sentence_quoted_for_what_a_sentence_points_at_names_the_page_where_its_paragraph_names_nothing():
    # JSQuAD v1.3 valid a48707p0q2 (`research bench jsquad --sample 5 --seed 134`), the real 1.5B model's Summary to
    # 「寛保の天皇は誰？」: its 「日本の元号の一つである「保」は、…」 (寛 lost) went, not checked, and 「この時代の天皇は桜町天皇。」
    # got «1741年から1744年までの期間を指す。» before it, an era of nothing. The page's paragraph, as JSQuAD gives it (the
    # bold name left out).
    page = "# 寛保\n\nは日本の元号の一つ。元文の後、延享の前。1741年から1744年までの期間を指す。この時代の天皇は桜町天皇。江戸幕府将軍は徳川吉宗。\n"
    draft = "## 結論\n\n日本の元号の一つである「保」は、1741年から1744年までの期間を指す。この時代の天皇は桜町天皇。江戸幕府将軍は徳川吉宗。\n"
    answer = await _answer_from_one_page(draft, "寛保の天皇は誰？", page, "寛保")
    summary = answer.split("## 結論\n")[1].strip()
    assert summary.startswith("«寛保：1741年から1744年までの期間を指す。»[S1]この時代の天皇は桜町天皇"), summary
    # A paragraph that names its subject keeps the sentence as the page writes it.
    named = page.replace("は日本の元号の一つ。", "寛保は日本の元号の一つ。")
    answer = await _answer_from_one_page(draft, "寛保の天皇は誰？", named, "寛保")
    assert answer.split("## 結論\n")[1].strip().startswith("«1741年から1744年までの期間を指す。»[S1]"), answer


async def test_an_undecided_sentence_resting_on_the_sources_sentence_the_summary_now_quotes_gives_way_to_it():
    # JSQuAD v1.3 valid a14985p88q1 (`research bench jsquad --sample 5 --seed 134`), the real 1.5B model's Summary to
    # 「地域の過疎化や世代交代によって、それぞれの勢力がどういう傾向になっているのか？」: the page's sentence on the question
    # was quoted first, and 「日本共産党は、…減少傾向にあることを示唆しています（未確認）」 still followed, giving the page's
    # words about «これら» to the party. The page's paragraph and the draft, quoted.
    page = ("# 日本共産党\n\n現在一部の自治体では、地域の街づくり会議などで、互いの陣営が同席することも見られるようになった。"
            "これらは、地域の過疎化や世代交代によって、それぞれの勢力が減少傾向にあることや、部落差別の早期解消に向けて、一致点"
            "での共同を進めようとする努力の結果だともいえる。しかし、政治戦においては、支持政党の違いによる軋轢は今なお強く"
            "残っている。特定の選挙で野党共闘が成立した場合、結果的に同一の候補を支援することがあっても、一定の距離を保ちつつ、"
            "互いに独自の支援活動をすることが多い。\n")
    draft = ("## 結論\n\n日本共産党は、地域の過疎化や世代交代によって、それぞれの勢力が減少傾向にあることを示唆しています[S1]。"
             "しかし、政治戦においては、支持政党の違いによる軋轢は今なお強く残っている[S1]。特定の選挙で野党共闘が成立した場合、"
             "結果的に同一の候補を支援することがあっても、一定の距離を保ちつつ、互いに独自の支援活動をすることが多い[S1]。\n")
    question = "地域の過疎化や世代交代によって、それぞれの勢力がどういう傾向になっているのか？"
    answer = await _answer_from_one_page(draft, question, page, "日本共産党")
    summary = answer.split("## 結論\n")[1].strip()
    assert "それぞれの勢力が減少傾向にあることや" in summary, summary
    assert "示唆しています" not in summary, summary


async def test_an_undecided_sentence_pointing_at_one_taken_out_goes_with_it():
    # JSQuAD v1.3 valid a14985p108q0 (`research bench jsquad --sample 5 --seed 135`), the real 1.5B model's draft (no
    # citations) to 「日本共産党が批判的な立場をとっている法案は？」 and the two pages it was checked against: under its
    # 「## 野党外交の結果」 the first sentence went (another topic) and 「この結果は、日本共産党が批判的な立場をとっている法案の
    # 結果である（未確認）」 stayed, pointing at nothing.
    bill = ("# 日本共産党\n\n人権侵害救済機関設置法案に批判的な立場をとっている。また、同和問題の解決のために税金から部落解放同盟"
            "への補助金や海外旅行費用などがなされている問題について、共産党が有力な自治体などでは職員に代わり交渉の前面に立つなど"
            "して予算廃止を打ち出すなど強い姿勢で臨んでいる。同和団体への法令に基づかない公金支出についても調査から裁判にいたる"
            "活動を行っている。\n")
    diplomacy = ("# 日本共産党\n\n1999年には外国の政党・政権について、保守的か革新的か問わずに対話と交流の場を広げるという「野党"
                 "外交」の方針を定めている。その立場から日本共産党は共産主義国以外の国にも公式訪問することがあり、またアジア政党"
                 "国際会議（ICAPP）に第2回総会以来毎年代表団を送っている。\n")
    draft = ("## 結論\n\n日本共産党は批判的な立場をとっている法案は、人権侵害救済機関設置法案、同和問題の解決のために税金から部落"
             "解放同盟への補助金や海外旅行費用などがなされている問題について、共産党が有力な自治体などでは職員に代わり交渉の前面"
             "に立つなどして予算廃止を打ち出すなど強い姿勢で臨んでいる。\n\n## 野党外交\n\n日本共産党は1999年には外国の政党・"
             "政権について、保守的か革新的か問わずに対話と交流の場を広げるという「野党外交」の方針を定めている。その立場から日本"
             "共産党は共産主義国以外の国にも公式訪問することがあり、またアジア政党国際会議（ICAPP）に第2回総会以来毎年代表団を"
             "送っている。\n\n## 野党外交の結果\n\n日本共産党は、野党外交の結果として、共産主義国以外の国にも公式訪問することが"
             "あり、またアジア政党国際会議（ICAPP）に第2回総会以来毎年代表団を送っている。この結果は、日本共産党が批判的な"
             "立場をとっている法案の結果である。\n")
    ledger = [dict(LEDGER[0], label="S1", suspicious=False, markdown=bill, title="日本共産党"),
              dict(LEDGER[0], label="S2", url="https://example.jp/jcp2", canonical_url="https://example.jp/jcp2",
                   suspicious=False, markdown=diplomacy, title="日本共産党")]
    state = dict(_state(draft), documents=ledger, question="日本共産党が批判的な立場をとっている法案は？", plan=[])
    answer = (await _verify(state, _deps(FakeModel(), loops=0)[0]))["verification"]["annotated_draft"]
    assert "この結果は" not in answer and "人権侵害救済機関設置法案" in answer, answer


async def test_a_sentence_pointing_back_after_one_taken_out_gets_what_it_points_at_even_two_sentences_up():
    # JSQuAD v1.3 valid (`research bench jsquad --sample 5 --seed 125`), the real 1.5B model's answer to 「アイルランドで…
    # ロビー活動をしているのはどこか」: its Summary (…のは建築家協会である) went as "hedge dropped" (the page's 「…ロビー活動も
    # している」 read as 「もし」, "if"), and 「同グループは、…ロビー活動もしている」 was the whole answer, naming no group. The
    # page's paragraph, quoted.
    from research.modules.text.passages import sentence_before_on_its_page

    page = ("アイルランドの建築家協会は、2007年建築管理法第3部に対応して設立された老舗の自主建築家のグループである。同法は、"
            "アイルランド共和国で「建築家」という用語の使用を統制することを初めて求めている。同グループは、職業における"
            "自己訓練建築家の以前の地位を回復するための法律改正のロビー活動もしている。")
    lobbying = "同グループは、職業における自己訓練建築家の以前の地位を回復するための法律改正のロビー活動もしている。"
    document = {"label": "S1", "markdown": page}
    assert sentence_before_on_its_page(lobbying, document).startswith("同法は、")
    # The sentence before it points back too (同法): quoted alone, neither names the group.
    assert sentence_before_on_its_page(lobbying, document, what_it_points_at=True).startswith("アイルランドの建築家協会は、")
    draft = "## 結論\nアイルランドで職業における自己訓練建築家の以前の地位を回復するための法律改正のロビー活動をしているのは建築家協会である[S1]。\n"
    question = "アイルランドで職業における自己訓練建築家の以前の地位を回復するための法律改正のロビー活動をしているのはどこか"
    answer = await _answer_from_one_page(draft, question, page, "建築家")
    assert answer.split("## 結論\n")[1].strip().startswith("アイルランドで職業における自己訓練建築家の以前の地位を回復するための"
                                                           "法律改正のロビー活動をしているのは建築家協会である[S1]。"), answer


async def test_a_sentence_that_points_back_past_a_connective_goes_when_the_one_before_it_went():
    # JSQuAD v1.3 valid (`research bench jsquad --seed 85`), the real 1.5B model on 「初めての日本共産党系の国会議員は
    # 誰か」: its two Summary sentences before 「また同年、山本宣治は右翼団体構成員に刺殺された。」 were taken out, and
    # that one led the Summary as supported, 同年 pointing at no year (the page's year is 1929). The page's
    # sentences, quoted.
    source = ("1927年の第16回衆議院議員総選挙では徳田球一、山本懸蔵をはじめとする何人かの党員が労農党から立候補し、"
              "選挙戦のなかで「日本共産党」を名乗る印刷物を発行した。総選挙では労働農民党京都府連合会委員長の山本宣治が"
              "当選した。彼は非公式にではあるが共産党の推薦を受けており、初めての「日本共産党系の国会議員」が誕生した。"
              "しかし、1928年の三・一五事件で治安維持法により1,600人にのぼる党員と支持者が一斉検挙され、1929年の四・一六"
              "事件と引き続く弾圧で約1,000人が検挙されて、日本共産党は多数の活動家を失った。また同年、山本宣治は右翼団体"
              "構成員に刺殺された。")
    draft = ("## 結論\n\n日本共産党系の国会議員は、1927年の第16回衆議院議員総選挙で徳田球一、山本懸蔵をはじめとする約28万人の"
             "党員を抱え、西側諸国で最大規模の共産党となっている。また同年、山本宣治は右翼団体構成員に刺殺された[S1]。\n")
    question = "初めての日本共産党系の国会議員は誰か"
    answer = await _answer_from_one_page(draft, question, source, "日本共産党")
    assert "同年、山本宣治" not in answer, answer
    # The page's sentence on the question is quoted with the one that names who 彼 is.
    assert "山本宣治が当選した。彼は非公式にではあるが" in answer, answer
    # After the sentence that gives its year, it stays.
    draft = ("## 結論\n\n1929年の四・一六事件と引き続く弾圧で約1,000人が検挙されて、日本共産党は多数の活動家を失った[S1]。"
             "また同年、山本宣治は右翼団体構成員に刺殺された[S1]。\n")
    answer = await _answer_from_one_page(draft, question, source, "日本共産党")
    assert "また同年、山本宣治は右翼団体構成員に刺殺された" in answer, answer


async def test_a_paragraph_the_model_opened_with_a_space_opens_without_one():
    # JSQuAD v1.3 valid a22392p11q0 (`research bench jsquad --seed 89`), the real 1.5B model: its Summary opened
    # " Architect の概念が日本に輸入されたのは明治時代以降。", and the report's Summary then opened with a space,
    # before the line that quotes the page (shown as such in report.md and the PDF).
    ledger = [dict(LEDGER[0], suspicious=False)]
    draft = "## 結論\n\n 富士山の標高は3,776メートルである[S1]。\n"
    state = dict(_state(draft, language="ja"), documents=ledger, question="富士山の標高は？", plan=[])
    answer = (await _verify(state, _deps(FakeModel(), loops=0)[0]))["verification"]["annotated_draft"]
    assert "\n富士山の標高は3,776メートルである[S1]。" in answer and "\n 富士山" not in answer, answer


async def test_an_example_s_sentence_is_checked_without_its_for_example_and_leads_without_it():
    # JSQuAD v1.3 valid (`research bench jsquad --seed 92`), the real 1.5B model on 「ラオス人民革命党が掲げる主義は
    # 何か？」: 「例えば、マルクス・レーニン主義を掲げるラオス人民革命党による社会主義国型の一党制が敷かれている。」 is the
    # page's sentence with 例えば before it; it stayed "not checked" (例えば its one missing term) and the Summary said
    # the sources did not answer. The page's sentences, quoted.
    source = ("憲法の前文で「人民民主主義」を謳い、第3条では「ラオス人民革命党を主軸とする政治制度」と規定されているなど、"
              "マルクス・レーニン主義を掲げるラオス人民革命党による社会主義国型の一党制が敷かれている。政府の政策決定は、"
              "9人で構成される党の政治局と、49人で構成される党の中央委員会において決定される。")
    draft = ("## 結論\n\nラオス人民革命党が掲げる主義は、一党独裁体制で、政治、社会、哲学など多方面で深刻な政治理念を持っています。\n\n"
             "## 1. ラオス人民革命党がどのような哲学や理念を持っていますか？\n\nラオス人民革命党が哲学や理念を持っています。"
             "例えば、マルクス・レーニン主義を掲げるラオス人民革命党による社会主義国型の一党制が敷かれている[S1]。\n")
    answer = await _answer_from_one_page(draft, "ラオス人民革命党が掲げる主義は何か？", source, "ラオス")
    summary = answer.split("## 結論", 1)[1].split("##", 1)[0].strip()
    assert summary.startswith("マルクス・レーニン主義を掲げるラオス人民革命党による社会主義国型の一党制が敷かれている[S1]"), answer


async def test_the_latter_goes_when_the_sentence_that_named_the_pair_went():
    # JSQuAD v1.3 valid (`research bench jsquad --seed 92`), the real 1.5B model on 「打楽器のみで構成される例は。」:
    # 「打楽器には明確な音高を持つものと持たないものとがある。」 went as off the question, and 「後者はリズムを奏でる。
    # 前者はリズムだけではなく…」 stayed, supported, 後者 and 前者 naming nothing. The page's sentences, quoted.
    source = ("打楽器には明確な音高を持つものと持たないものとがある。後者はリズムを奏でる。前者はリズムだけではなく、"
              "単音の演奏により旋律を奏でたり、和音の演奏による和声も奏でたりする。")
    draft = ("## 結論\n\n打楽器の演奏方法は様々です。\n\n## 調査結果\n\n打楽器は3000年前にエジプトで生まれた[S1]。後者はリズムを奏でる[S1]。"
             "前者はリズムだけではなく、単音の演奏により旋律を奏でたり、和音の演奏による和声も奏でたりする[S1]。\n")
    answer = await _answer_from_one_page(draft, "打楽器の演奏方法は？", source, "打楽器")
    assert "後者" not in answer and "前者" not in answer, answer
    # After the sentence that names the pair, both stay.
    draft = ("## 結論\n\n打楽器には明確な音高を持つものと持たないものとがある[S1]。後者はリズムを奏でる[S1]。\n")
    answer = await _answer_from_one_page(draft, "打楽器の演奏方法は？", source, "打楽器")
    assert "後者はリズムを奏でる[S1]" in answer, answer


async def test_a_chinese_character_in_a_japanese_name_gets_the_page_kanji_and_is_checked_again():
    # JSQuAD v1.3 valid a8874p3q0 (「豊岡市の年間の平均降雪量は。」, `research bench jsquad --seed 92`), the real
    # 1.5B model's answer: 「丰岡市の年間平均降雪量は312cmである。」 writes 豊 as the Chinese 丰, which no Japanese
    # text has; the sentence was taken out (丰岡 not on the page) and the Summary said the sources did not answer.
    source = ("豊岡市は内陸に位置することから年間平均降雪量は312cmであり、新潟市（217cm）、金沢市（281cm）や福井市"
              "（286cm）といった北信越の都市を上回る西日本屈指の豪雪都市でもある。")
    ledger = [dict(LEDGER[0], label="S1", language="ja", suspicious=False, title="豊岡市", markdown=source)]
    draft = "## 結論\n\n丰岡市の年間平均降雪量は312cmである[S1]。\n"
    asked = {"question": "豊岡市の年間の平均降雪量は。", "plan": []}
    verification = (await _verify(dict(_state(draft, language="ja"), documents=ledger, **asked),
                                  _deps(FakeModel(), loops=0)[0]))["verification"]
    answer = verification["annotated_draft"]
    assert "豊岡市の年間平均降雪量は312cmである[S1]。" in answer and "丰" not in answer, answer
    (correction,) = verification["summary"]["corrected"]
    assert (correction["value"], correction["source_value"]) == ("丰岡", "豊岡"), correction
    # Only a character Japanese does not write is read as a misspelling (岡 and 豊 are Japanese; 丰, 这 are not).
    from research.nodes.verification import respelt_name, written_in_japanese
    assert written_in_japanese("豊") and written_in_japanese("岡") and not written_in_japanese("丰")
    assert respelt_name("福岡市の年間平均降雪量", ["福岡"], [source]) == (None, None)


async def test_a_question_that_asks_which_ropeway_gets_the_page_sentence_that_names_it():
    # JSQuAD v1.3 valid a13221p19q4 (`research bench jsquad --seed 91`), the real 1.5B model: to 「…世界最長のロープウェイで
    # ある何ロープウェイが開通している？」 its Summary's sentence naming COMILOGロープウェイ was not checked, and the one
    # left, 「COMILOG支線も同時に廃止される予定であったが…」, led as if it answered. The page's sentences, quoted.
    source = ("ムビンダからガボンのモアンダまでは1959年に世界最長のロープウェイであるCOMILOGロープウェイが開通しており、この支線の"
              "建設によってモアンダ鉱山のマンガン輸送ルートが確立し、ポワントノワール港の重要取扱品となったが、1986年にトラン"
              "スガボン鉄道がモアンダまで開通するとマンガンはガボン国内を輸送されることとなり、ロープウェイは廃止された。"
              "COMILOG支線も同時に廃止される予定であったが、沿線の木材輸送需要が大きかったため存続することになり、2009年以降は"
              "鉄鉱石輸送も加わることとなった。")
    ledger = [dict(LEDGER[0], label="S1", language="ja", suspicious=False, markdown=source, title="コンゴ共和国")]
    draft = ("## 結論\n\nモアンダ鉱山のマンガン輸送ルートは、1959年に世界最長のロープウェイであるCOMILOGロープウェイが開通し、この支線の"
             "建設によってモアンダ鉱山のマンガン輸送ルートが確立し、ポワントノワール港の重要取扱品となったが、1986年にトランスガボン"
             "鉄道がモアンダまで開通するとマンガンはガボン国内を輸送することとなり、ロープウェイは廃止された[S1]。"
             "COMILOG支線も同時に廃止される予定であったが、沿線の木材輸送需要が大きかったため存続することになり、2009年以降は"
             "鉄鉱石輸送も加わることとなった[S1]。\n")
    question = "ムビンダからガボンのモアンダまでは1959年に世界最長のロープウェイである何ロープウェイが開通している？"
    judge = JudgeBatch(verdicts=[JudgeVerdict(id=0, verdict="unsupported", confidence=0.6)])
    state = dict(_state(draft, language="ja"), documents=ledger, question=question, plan=[])
    answer = (await _verify(state, _deps(FakeModel(judge=judge), loops=0)[0]))["verification"]["annotated_draft"]
    summary = answer.split("## 結論", 1)[1]
    assert summary.index("COMILOGロープウェイが開通しており") < summary.index("COMILOG支線も同時に"), answer


async def test_a_page_sentence_about_its_heading_s_country_is_not_said_of_another_country():
    # JSQuAD v1.3 valid a59579p1q1 (「旧イギリス植民地であり、現在はイギリス連邦の一員である国は？」, `research bench jsquad
    # --seed 93`), the real 1.5B model: the page «# ドミニカ国» opens «同国は旧イギリス植民地であり、現在はイギリス連邦の一員で
    # ある。»; the model answered ポルトガル (another page's country) and copied the sentence under its own heading
    # 「## ポルトガル」, where it was supported word for word, and the quotation named no country. The pages, quoted.
    dominica = ("# ドミニカ国\n\n同国は旧イギリス植民地であり、現在はイギリス連邦の一員である。自然が豊かなこの島は、カリブ海に存在する"
                "多種多様の植物が自生しており、「カリブ海の植物園」と呼ばれている。")
    portugal = ("# ポルトガル\n\n1696年にブラジル南東部のミナスで金が発見され、ゴールドラッシュが発生したため、ポルトガルには多量の金が"
                "流入した。")
    ledger = [dict(LEDGER[0], label="S1", language="ja", suspicious=False, markdown=dominica, title="ドミニカ国"),
              dict(LEDGER[0], label="S2", language="ja", suspicious=False, markdown=portugal, title="ポルトガル",
                   url="https://example.jp/pt", canonical_url="https://example.jp/pt")]
    draft = ("## 結論\n\n旧イギリス植民地であり、現在はイギリス連邦の一員である国はポルトガルです[S1]。\n\n## ポルトガル\n\n"
             "同国は旧イギリス植民地であり、現在はイギリス連邦の一員である[S1]。1696年にブラジル南東部のミナスで金が発見され、"
             "ゴールドラッシュが発生したため、ポルトガルには多量の金が流入した[S2]。\n")
    question = "旧イギリス植民地であり、現在はイギリス連邦の一員である国は？"
    state = dict(_state(draft, language="ja"), documents=ledger, question=question, plan=[])
    answer = (await _verify(state, _deps(FakeModel(), loops=0)[0]))["verification"]["annotated_draft"]
    assert "国はポルトガルです" not in answer and "\n同国は旧イギリス植民地" not in answer, answer
    assert "«ドミニカ国：同国は旧イギリス植民地であり、現在はイギリス連邦の一員である。»" in answer, answer
    # Under a heading that names the page's country, or after a sentence in its section, it is the page's sentence.
    state["draft"] = "## 結論\n\nドミニカ国は島国である。\n\n## ドミニカ国\n\n同国は旧イギリス植民地であり、現在はイギリス連邦の一員である[S1]。\n"
    answer = (await _verify(state, _deps(FakeModel(), loops=0)[0]))["verification"]["annotated_draft"]
    assert "同国は旧イギリス植民地であり、現在はイギリス連邦の一員である[S1]。" in answer, answer


async def test_a_sentence_that_only_announces_the_list_below_it_is_no_claim():
    # JSQuAD v1.3 valid (`research bench jsquad --seed 95`), the real 1.5B model's Summary: 「…郵便物は配達不能となる場合は、
    # 以下の地域が該当します。」 over its list was kept (not checked), and the list's first item, moved up to lead, left the
    # lead-in behind under its number: 「1. …以下の地域が該当します[S1]（未確認）。」. The page's sentence, quoted.
    source = ("住居表示化されて長い年月が経過した地域では、地番を用いた住所が表記された地図が少ないこともあり、一般住民は土地の"
              "地番の存在に気づきにくい。そのような地域では、地番を用いた住所の表示を宛所とした郵便物は配達不能である。")
    draft = ("## 結論\n\n地番を用いた住所の表示を宛所とした郵便物は配達不能となる場合は、以下の地域が該当します。\n\n"
             "1. 住居表示化されて長い年月が経過した地域\n")
    question = "地番を用いた住所の表示を宛所とした郵便物は配達不能となる場合はどのような地域か？"
    answer = await _answer_from_one_page(draft, question, source, "住居表示")
    assert "以下の地域が該当します" not in answer and "住居表示化されて長い年月が経過した地域" in answer, answer


async def test_a_line_the_model_wrote_before_its_summary_heading_is_read_as_part_of_its_summary():
    # The GIL question with the real 1.5B model (`research "Is the GIL gone in Python 3.14?" --engine local --docs`, the
    # tenth session): its draft opened "Yes, the GIL is gone in Python 3.14." above "## Summary"; that line became the
    # report's Summary and the model's own Summary a findings section titled "Summary", where its true "Single-threaded
    # code runs somewhat slower in the free-threaded build" was lost.
    source = ("The standard build of Python 3.14 still has the GIL enabled by default. In the free-threaded build the GIL "
              "is disabled, so threads can run Python code in parallel on several cores. Single-threaded code runs "
              "somewhat slower in the free-threaded build.")
    ledger = [dict(LEDGER[0], label="S1", language="en", suspicious=False, markdown=source, title="Free-threaded CPython")]
    draft = ("Yes, the GIL is gone in Python 3.14.\n\n## Summary\nSingle-threaded code runs somewhat slower in the "
             "free-threaded build [S1].\n\n## 1. What is the GIL in Python?\nThe GIL is a lock [S1].\n")
    state = dict(_state(draft, language="en"), documents=ledger, question="Is the GIL gone in Python 3.14?", plan=[])
    answer = (await _verify(state, _deps(FakeModel(), loops=0)[0]))["verification"]["annotated_draft"]
    assert answer.count("## Summary") == 1 and "### Summary" not in answer, answer
    summary = answer.split("## Summary", 1)[1].split("\n## ", 1)[0]
    assert "Single-threaded code runs somewhat slower in the free-threaded build [S1]" in summary, answer
    assert "the GIL is gone" not in summary.replace("“the GIL is gone in Python 3.14”", ""), answer


def test_a_statement_written_as_a_heading_is_no_heading():
    # JSQuAD v1.3 valid a4596p5q3 (`research bench jsquad --seed 85`), the real 1.5B model: a false statement
    # as a section's heading, 「## 585年にスエヴィ王国を滅ぼしたのはラオスのセタティラート王の時代でした。」, shown
    # unchecked over the sentences under it. Those stay, under the findings' heading; so in English.
    from research.workflow.answer import _tidy_sections

    tidy, _ = _tidy_sections("## 結論\n\nx[S1]。\n\n## 585年にスエヴィ王国を滅ぼしたのはラオスのセタティラート王の時代でした。\n\n"
                             "ラオスの歴史はナンチャオ王国の時代に始まる[S3]。\n", "ja", [], summary_empty=False)
    assert "セタティラート" not in tidy and "## 調査結果\n\nラオスの歴史はナンチャオ王国の時代に始まる[S3]。" in tidy, tidy
    tidy, _ = _tidy_sections("## Summary\n\nx [S1].\n\n## The Suebi kingdom fell to the Lao kings in 585.\n\ny [S2].\n",
                             "en", [], summary_empty=False)
    assert "Lao kings" not in tidy and "## Findings\n\ny [S2]." in tidy, tidy
    # A heading that is a title stays, a numbered one or one with a question mark too.
    tidy, _ = _tidy_sections("## Summary\n\nx [S1].\n\n## 2. Eruptions of Mount Fuji\n\ny [S2].\n", "en", [],
                             summary_empty=False)
    assert "## 1. Eruptions of Mount Fuji" in tidy or "## 2. Eruptions of Mount Fuji" in tidy, tidy


_GIL_SOURCE = ("In Python 3.14 the free-threaded build became officially supported, though it is still not the "
               "default build. The default build still has the GIL.")


async def _gil_answer(draft: str, question: str, language: str = "en", source: str = _GIL_SOURCE) -> dict:
    ledger = [dict(LEDGER[0], label="S1", language=language, suspicious=False, markdown=source)]
    state = dict(_state(draft, language=language), documents=ledger, question=question)
    return (await _verify(state, _deps(FakeModel(), loops=0)[0]))["verification"]


async def test_the_sources_sentence_quoted_before_the_draft_was_taken_out_is_not_said_again_after_it():
    # The real 1.5B model's GIL answer (2026-12-02, `research "Is the GIL gone in Python 3.14?" --engine local --docs`
    # on the issue's page): its Summary "Yes, the GIL is gone in Python 3.14." contradicted, the page's sentence led
    # it, and then the same sentence again, a finding under a sub-question heading that was the question itself. The
    # draft as the model wrote it, cut to those sections.
    source = ("# Python 3.14 and free-threading\n\nPython 3.13 introduced an experimental free-threaded build in which "
              "the GIL is disabled. The standard build of Python 3.14 still has the GIL enabled by default.")
    draft = ("## Summary\n\nYes, the GIL is gone in Python 3.14.\n\n\n### Sub-Question 1: Is the GIL gone in Python "
             "3.14?\nThe GIL is gone in Python 3.14. The standard build of Python 3.14 still has the GIL enabled by "
             "default.\n\n### Sub-Question 2: What is the GIL in Python?\nThe GIL is a mechanism that ensures that only "
             "one thread can execute Python bytecode at a time.\n")
    questions = ["Is the GIL gone in Python 3.14?", "What is the GIL in Python?"]
    ledger = [dict(LEDGER[0], label="S1", language="en", suspicious=False, markdown=source)]
    state = dict(_state(draft, language="en"), documents=ledger, question=questions[0],
                 plan=[{"question": q, "queries": []} for q in questions])
    answer = (await _verify(state, _deps(FakeModel(), loops=0)[0]))["verification"]["annotated_draft"]
    summary = answer.split("## Summary\n")[1]
    assert summary.strip().startswith("According to the sources read, «The standard build of Python 3.14 still has the "
                                      "GIL enabled by default.» [S1]; the draft said otherwise"), answer
    assert answer.count("still has the GIL enabled by default") == 1, answer


async def test_the_headline_of_a_yes_no_question_the_sources_contradict_is_said_with_their_words():
    # issue 44, item 5: "Is the GIL gone in 3.14?" answered "Yes, … now the default build" against a
    # source that says the opposite. The contradicted headline leaves, and the answer says so first.
    verification = await _gil_answer(
        "## Summary\nYes, the free-threaded build is now the default build in Python 3.14 [S1].\n",
        "Is the GIL gone in Python 3.14?")
    answer = verification["annotated_draft"]
    assert "now the default build in Python 3.14 [S1]." not in answer
    assert answer.startswith("## Summary\nAccording to the sources read, «In Python 3.14 the free-threaded build became "
                             "officially supported, though it is still not the default build.» [S1]; the draft said "
                             "otherwise (“the free-threaded build is now the default build in Python 3.14”), and that "
                             "was taken out.")
    assert "Yes" not in answer
    # Not for a question that asks for something: the Summary says what is checked, nothing more.
    verification = await _gil_answer(
        "## Summary\nThe free-threaded build is now the default build in Python 3.14 [S1].\n",
        "What changed for free-threading in Python 3.14?")
    assert "According to the sources read" not in verification["annotated_draft"]


async def test_a_sentence_that_only_says_the_quote_leading_the_summary_again_is_not_repeated():
    # The real 1.5B model's GIL answer at d4cf93f: «The standard build of Python 3.14 still has the
    # GIL enabled by default.» [S1] led (its "Yes, the GIL is gone" contradicted), and the draft's own
    # copy of that sentence followed it word for word.
    source = ("The free-threaded build became officially supported in Python 3.14, though it is still not the "
              "default build. The standard build of Python 3.14 still has the GIL enabled by default. Single-"
              "threaded code runs somewhat slower in the free-threaded build.")
    verification = await _gil_answer(
        "## Summary\nYes, the GIL is gone in Python 3.14 [S1]. The standard build of Python 3.14 still has the GIL "
        "enabled by default [S1]. Single-threaded code runs somewhat slower in the free-threaded build [S1].\n",
        "Is the GIL gone in Python 3.14?", source=source)
    answer = verification["annotated_draft"]
    assert answer.count("still has the GIL enabled by default") == 1, answer
    assert answer.startswith("## Summary\nAccording to the sources read, «The standard build of Python 3.14 still has "
                             "the GIL enabled by default.» [S1]"), answer
    # What the quote does not say stays.
    assert "Single-threaded code runs somewhat slower in the free-threaded build [S1]." in answer
    (repeat,) = [c for c in verification["claims"] if c["text"].startswith("The standard build")]
    assert (repeat["state"], repeat["removed_reason"]) == ("supported", "duplicate")


async def test_a_question_asking_what_a_thing_is_is_not_answered_by_a_summary_that_only_names_it():
    # The real 1.5B model's GIL answer at edbab2d: "What is the GIL in Python?" held only uncited
    # sentences from the model's memory, which went; its heading went too, without "not given",
    # because the Summary named the GIL and Python ("…still has the GIL enabled by default").
    source = ("The free-threaded build became officially supported in Python 3.14, though it is still not the "
              "default build. The standard build of Python 3.14 still has the GIL enabled by default.")
    ledger = [_english_page(source)]
    draft = ("## Summary\nThe standard build of Python 3.14 still has the GIL enabled by default [S1].\n\n"
             "## 1. What is the GIL in Python?\nThe GIL is a lock that protects the memory manager from threads.\n")
    plan = [{"question": q, "queries": [{"text": q, "language": "en"}]}
            for q in ("Is the GIL gone in Python 3.14?", "What is the GIL in Python?")]
    state = dict(_state(draft, language="en"), question="Is the GIL gone in Python 3.14?", documents=ledger, plan=plan)
    answer = (await _verify(state, _deps(FakeModel(), loops=0)[0]))["verification"]["annotated_draft"]
    assert "The sources read do not answer this: What is the GIL in Python?" in answer, answer
    # A Summary that says what it is answers it.
    draft = draft.replace("## 1.", "The GIL is a lock that lets one thread run Python code at a time [S1].\n\n## 1.")
    source += " The GIL is a lock that lets one thread run Python code at a time."
    ledger = [dict(ledger[0], markdown=source)]
    state = dict(state, draft=draft, documents=ledger)
    answer = (await _verify(state, _deps(FakeModel(), loops=0)[0]))["verification"]["annotated_draft"]
    assert "do not answer this" not in answer, answer


async def test_a_sub_question_a_page_answers_quotes_it_when_the_drafts_sentences_on_it_went():
    # The real 1.5B model's GIL answer at a72a8ac (`research "Is the GIL gone in Python 3.14?" --engine local
    # --docs`): its uncited sentence under "What is the GIL in Python?" went, and the report said "The sources
    # read do not answer this" beside a page that does: «The global interpreter lock (GIL) lets only one thread …».
    source = ("The global interpreter lock (GIL) lets only one thread run Python bytecode at a time. In Python 3.14 "
              "the free-threaded build became officially supported, though it is still not the default build. The "
              "standard build of Python 3.14 still has the GIL enabled by default.")
    draft = ("## Summary\nThe standard build of Python 3.14 still has the GIL enabled by default [S1].\n\n"
             "## 1. What is the GIL in Python?\nThe GIL is a lock that protects the memory manager from threads.\n\n"
             "## 2. What is the purpose of the GIL in Python?\nThe GIL keeps reference counts safe.\n")
    plan = [{"question": q, "queries": [{"text": q, "language": "en"}]}
            for q in ("Is the GIL gone in Python 3.14?", "What is the GIL in Python?",
                      "What is the purpose of the GIL in Python?")]
    state = dict(_state(draft, language="en"), question="Is the GIL gone in Python 3.14?",
                 documents=[_english_page(source)], plan=plan)
    verification = (await _verify(state, _deps(FakeModel(), loops=0)[0]))["verification"]
    answer = verification["annotated_draft"]
    section = answer.split("What is the GIL in Python?\n")[1]
    assert section.strip().startswith("No checked sentence of the draft answers this; of it the sources read say: "
                                      "«The global interpreter lock (GIL) lets only one thread run Python bytecode at "
                                      "a time.» [S1]"), answer
    assert "memory manager" not in answer
    # The same sentence is not quoted again under the next sub-question (at 03e33e6 it was, under three in a row).
    assert answer.count("lets only one thread") == 1, answer
    assert verification["summary"]["not_given"] == ["What is the purpose of the GIL in Python?"]


async def test_a_sub_question_section_quotes_no_sentence_the_answer_says_already():
    # A sentence of the page naming the sub-question's words that the Summary already says answers
    # nothing more there: 「富士山の標高は？」's section keeps "not given" (ja message), not the Summary's words again.
    source = "富士山は静岡県と山梨県にまたがる山である。富士山の標高は3776メートルである。"
    draft = ("## 結論\n富士山の標高は3776メートルである[S1]。\n\n"
             "## 1. 富士山の標高は何メートルで、どの県にあるか？\n富士山は長野県にある。\n")
    ledger = [dict(LEDGER[0], markdown=source, suspicious=False)]
    plan = [{"question": q, "queries": [{"text": q, "language": "ja"}]}
            for q in ("富士山の標高は？", "富士山の標高は何メートルで、どの県にあるか？")]
    state = dict(_state(draft, language="ja"), question="富士山の標高は？", documents=ledger, plan=plan)
    answer = (await _verify(state, _deps(FakeModel(), loops=0)[0]))["verification"]["annotated_draft"]
    assert answer.count("3776メートルである") == 1, answer


async def test_a_sentence_that_points_back_moves_with_the_one_it_speaks_of():
    # The real 1.5B model's answer to "What is PEP 703 and when did Python get free-threading?" at
    # 63136ee: its first sentence (not checked) moved behind the supported ones, and the Summary
    # opened "This allows threads to run Python code in parallel on several cores [S1]." — "This"
    # pointing at nothing before it. Here "It" is PEP 703, said by the sentence before.
    source = ("PEP 703 proposed making the global interpreter lock (GIL) optional in CPython. The Python Steering "
              "Council accepted PEP 703 in 2023. Python 3.13, released in October 2024, ships an experimental "
              "free-threaded build.")
    draft = ("## Summary\nPEP 703 is a Python Enhancement Proposal that proposes making the GIL optional in CPython "
             "[S1]. It was accepted by the Python Steering Council in 2023 [S1]. Python 3.13, released in October "
             "2024, ships an experimental free-threaded build [S1].\n")
    verification = await _gil_answer(draft, "What is PEP 703?", source=source)
    states = {c["text"][:21]: c["state"] for c in verification["claims"]}
    assert (states["PEP 703 is a Python E"], states["It was accepted by th"], states["Python 3.13, released"]) \
        == ("not_checked", "supported", "supported"), states
    summary = verification["annotated_draft"].split("## Summary\n")[1]
    assert summary.startswith("Python 3.13, released in October 2024, ships an experimental free-threaded build [S1]. "
                              "PEP 703 is a Python Enhancement Proposal"), summary
    assert "(not checked). It was accepted by the Python Steering Council in 2023 [S1]." in summary, summary


async def test_a_sub_question_the_sources_quote_answers_is_not_said_to_be_unanswered():
    # The real 1.5B model at 795c835, "Did Python 3.13 ship a stable free-threaded build?": its
    # "Yes, … stable …" was contradicted and the page's sentence led the Summary, but the sub-question
    # "Was Python 3.13 released with a stable free-threaded build?" (the same question again, its
    # own "Yes" gone too) was said to be unanswered by the sources.
    source = ("Python 3.13, released in October 2024, ships an experimental free-threaded build. The free-threaded "
              "build became officially supported in Python 3.14, though it is still not the default build.")
    ledger = [_english_page(source)]
    draft = ("## Summary\nYes, Python 3.13 shipped a stable free-threaded build [S1]. The free-threaded build became "
             "officially supported in Python 3.14, though it is still not the default build [S1].\n\n"
             "## 1. Was Python 3.13 released with a stable free-threaded build?\n"
             "Yes, Python 3.13 was released with a stable free-threaded build [S1].\n")
    question = "Did Python 3.13 ship a stable free-threaded build?"
    plan = [{"question": q, "queries": [{"text": q, "language": "en"}]}
            for q in (question, "Was Python 3.13 released with a stable free-threaded build?")]
    state = dict(_state(draft, language="en"), question=question, documents=ledger, plan=plan)
    answer = (await _verify(state, _deps(FakeModel(), loops=0)[0]))["verification"]["annotated_draft"]
    assert answer.startswith("## Summary\nAccording to the sources read, «Python 3.13, released in October 2024, ships "
                             "an experimental free-threaded build.» [S1]"), answer
    assert "do not answer this" not in answer, answer


async def test_a_yes_or_no_stands_only_on_a_supported_sentence_and_an_undecided_one_never_leads():
    # The words of a yes/no question are the claim: "gone" is found in no source, so "The GIL is
    # gone in Python 3.14" is no longer waved through as supported (it was: the question's own
    # words counted as a frame). It stays "not checked", and a supported finding leads. Without its "Yes" it
    # would say nothing but the question back, still a yes: it leaves the answer, listed as not checked.
    verification = await _gil_answer(
        "## Summary\nYes, the GIL is gone in Python 3.14 [S1].\n\n"
        "## Details\nThe free-threaded build became officially supported in Python 3.14 [S1].\n",
        "Is the GIL gone in Python 3.14?")
    (gone,) = [c for c in verification["claims"] if "gone" in c["text"]]
    assert gone["state"] == "not_checked"
    (supported,) = [c for c in verification["claims"] if "officially" in c["text"]]
    assert supported["state"] == "supported"  # "…, though it is still not the default" denies only its own clause
    answer = verification["annotated_draft"]
    summary = answer.split("## Summary\n")[1].split("##")[0].strip()
    assert summary.startswith("The free-threaded build became officially supported in Python 3.14 [S1].")
    assert "Yes" not in summary and "gone" not in answer, answer
    assert gone["removed"] and gone["removed_reason"] == "question_restated"
    # A "No" on a supported sentence is the answer, and stays: the sentence is checked without it.
    verification = await _gil_answer("## Summary\nNo. The default build still has the GIL [S1].\n",
                                     "Is the GIL gone in Python 3.14?")
    (claim,) = verification["claims"]
    assert claim["state"] == "supported"
    assert verification["annotated_draft"].startswith("## Summary\nNo. The default build still has the GIL [S1].")
    # In Japanese too.
    source = "Python 3.14でフリースレッド版は正式にサポートされたが、既定のビルドではない。既定のビルドにはGILが残っている。"
    verification = await _gil_answer("## 結論\nはい、Python 3.14ではフリースレッド版が既定のビルドになった[S1]。\n",
                                     "Python 3.14でGILはなくなりましたか？", "ja", source)
    answer = verification["annotated_draft"]
    assert "はい" not in answer and "読み込んだ出典によれば «Python 3.14でフリースレッド版は正式にサポートされたが、" in answer
    assert "下書きの「Python 3.14ではフリースレッド版が既定のビルドになった」は出典と食い違うため除きました。" in answer


async def test_a_finding_on_another_thing_does_not_lead_the_summary():
    # PubMedQA 24519615 (`research bench pubmedqa --seed 82`), the real 1.5B model: its Summary's "Yes, patella
    # position does influence ligament balancing in total knee arthroplasty." went (it cited nothing), and the
    # one supported finding, from another study's page (PubMed 15687156, its first two sentences quoted; the
    # third written here; the question's page quoted too), was moved up to lead it: the answer opened on unicompartmental replacement. It
    # names "knee" alone of what the question names. The model wrote its sections under the Summary's heading.
    own = ("Prospectively, 50 knees were operated by total knee arthroplasty using a navigation-assisted gap-balancing "
           "technique. The gaps in patella eversion demonstrated smaller gaps both in knee extension and flexion position "
           "compared to the gaps of patella reduction position.")
    other = ("Unicompartmental replacement can be an alternative to tibial osteotomy in younger, active patients with "
             "unicompartmental knee disease. In unicompartmental replacement, the other compartments and knee ligaments "
             "are largely untouched. Total knee arthroplasty leaves the ligaments in place.")
    finding = ("Unicompartmental replacement is an alternative to tibial osteotomy in younger, active patients with "
               "unicompartmental knee disease [S2].")
    sub = "What are the different types of total knee arthroplasty and how do they differ in terms of patella positioning"
    draft = (f"## Summary\n\nYes, patella position does influence ligament balancing in total knee arthroplasty.\n\n"
             f"### 4. {sub}:\n- {finding}\n")
    question = "Does patella position influence ligament balancing in total knee arthroplasty?"
    ledger = [dict(LEDGER[0], label=label, language="en", suspicious=False, markdown=text, title=f"PubMed {pmid}")
              for label, text, pmid in (("S1", own, 24519615), ("S2", other, 15687156))]
    state = dict(_state(draft, language="en"), documents=ledger, question=question,
                 plan=[{"question": f"{sub}?", "queries": []}])
    answer = (await _verify(state, _deps(FakeModel(), loops=0)[0]))["verification"]["annotated_draft"]
    summary = answer.split("## Summary\n")[1].split("#")[0].strip()
    assert summary == "The sources read do not answer the question directly; no checked sentence could be given here."
    assert finding in answer.split(sub)[1]  # it stays under its own heading
    # Cited, the Summary's sentence is not checked, and says nothing but the question back: it goes too (a yes
    # without its word). The finding does not lead the Summary either.
    state["draft"] = draft.replace("total knee arthroplasty.\n", "total knee arthroplasty [S1].\n")
    answer = (await _verify(state, _deps(FakeModel(), loops=0)[0]))["verification"]["annotated_draft"]
    summary = answer.split("## Summary\n")[1].split("#")[0].strip()
    assert summary == "The sources read do not answer the question directly; no checked sentence could be given here."
    # Saying more than the question, it stays, not checked; the answer says that nothing checked answers the
    # question before it.
    state["draft"] = draft.replace("total knee arthroplasty.\n", "total knee arthroplasty after surgery [S1].\n")
    answer = (await _verify(state, _deps(FakeModel(), loops=0)[0]))["verification"]["annotated_draft"]
    summary = answer.split("## Summary\n")[1].split("#")[0].strip()
    assert summary.startswith("The sources read do not answer the question directly; what the draft said of it "
                              "follows, not checked."), summary
    assert "Unicompartmental" not in summary
    # A finding that names two of the question's words leads, as before.
    state["draft"] = draft.replace("unicompartmental knee disease [S2]", "unicompartmental knee disease before total "
                                   "knee arthroplasty [S2]")
    state["documents"] = [dict(page, markdown=page["markdown"].replace("knee disease.", "knee disease before total knee "
                                                                         "arthroplasty.")) for page in ledger]
    answer = (await _verify(state, _deps(FakeModel(), loops=0)[0]))["verification"]["annotated_draft"]
    assert answer.split("## Summary\n")[1].strip().startswith("Unicompartmental replacement is an alternative"), answer


async def test_a_supported_sentence_naming_too_little_of_the_question_does_not_lead_a_finding_that_answers_it():
    # JSQuAD v1.3 valid (`research bench jsquad --sample 5 --seed 115`, the page ラオス, its sentences quoted), the real
    # 1.5B model: its Summary opened 「またタイからのテレビ放送を視聴している人も多い」 (supported; 放送 the one word of the
    # question it names), the answer itself after it not checked, and the finding that answers it under a heading.
    page = ("# ラオス\n\nラオス国営ラジオ(Lao National Radio, LNR)の放送が中波、短波、FMにて行われている。テレビはラオス国営"
            "テレビ(Lao National Television, LNTV)が2つのチャンネルで放送されている。またタイからのテレビ放送を視聴して"
            "いる人も多い。")
    finding = "ラオス国営ラジオ(Lao National Radio, LNR)の放送が中波、短波、FMにて行われている[S1]。"
    draft = (f"## 結論\n\nまたタイからのテレビ放送を視聴している人も多い[S1]。ラオスは国営ラジオを中波、短波、FMにて放送して"
             f"いる[S1]。\n\n## 1節\n\n{finding}テレビはラオス国営テレビ(Lao National Television, LNTV)が2つの"
             f"チャンネルで放送されている[S1]。\n")
    ledger = [dict(LEDGER[0], label="S1", language="ja", suspicious=False, markdown=page, title="ラオス")]
    state = dict(_state(draft, language="ja"), documents=ledger, question="ラオスは国営ラジオをどうやって放送しているか？",
                 plan=[])
    answer = (await _verify(state, _deps(FakeModel(), loops=0)[0]))["verification"]["annotated_draft"]
    summary = answer.split("## 結論\n")[1].split("##")[0].strip()
    assert summary.startswith(finding), answer
    # Asked about television from Thailand, it leads as before.
    state["question"] = "ラオスではタイからのテレビ放送を視聴している人は多いか？"
    answer = (await _verify(state, _deps(FakeModel(), loops=0)[0]))["verification"]["annotated_draft"]
    assert answer.split("## 結論\n")[1].strip().startswith("またタイからのテレビ放送を視聴している人も多い[S1]。"), answer
    # A finding that names only a little more of the question does not lead: the page's background on the disease
    # asked about under the finding (PubMedQA, the real 1.5B model's answer; the abstract's sentences quoted). The
    # lead names rCBF-SPECT by its part rCBF.
    page = ("Alzheimer's disease (AD) is a primary degenerative disease that progressively affects all brain functions, "
            "with devastating consequences for the patient, the patient's family and society. On MP-SPECT, the AD group "
            "showed a significant rCBF reduction in the left parietal cortex in comparison with healthy elderly.")
    lead = ("On MP-SPECT, the AD group showed a significant rCBF reduction in the left parietal cortex in comparison "
            "with healthy elderly [S1].")
    draft = (f"## Summary\n\n{lead}\n\n## 2. What is Alzheimer's disease?\n\nAlzheimer's disease (AD) is a primary "
             f"degenerative disease that progressively affects all brain functions, with devastating consequences for "
             f"the patient, the patient's family and society [S1].\n")
    ledger = [dict(LEDGER[0], label="S1", language="en", suspicious=False, markdown=page, title="PubMed 1")]
    state = dict(_state(draft, language="en"), documents=ledger, plan=[],
                 question="Memory-provoked rCBF-SPECT as a diagnostic tool in Alzheimer's disease?")
    answer = (await _verify(state, _deps(FakeModel(), loops=0)[0]))["verification"]["annotated_draft"]
    assert answer.split("## Summary\n")[1].strip().startswith(lead), answer


async def test_a_page_s_keywords_copied_as_a_line_are_not_in_the_answer():
    # PubMedQA 9446993 (`research bench pubmedqa --sample 4 --seed 113`): the real 1.5B model copied the page's MeSH
    # terms under "## MeSH Terms"; the line stayed in the answer, "not checked". The terms and a sentence quoted.
    page = ("None of the dentists detected all the six manipulated digital radiographs. Statistical evaluation revealed "
            "a distribution of hits similar to the random distribution.\n\n## MeSH terms\n\n"
            "Clinical Competence; Dentists; Health Knowledge, Attitudes, Practice; Humans; Image Processing, "
            "Computer-Assisted; Observer Variation")
    draft = ("## Summary\nStatistical evaluation revealed a distribution of hits similar to the random distribution [S1].\n\n"
             "## MeSH Terms\nClinical Competence; Dentists; Health Knowledge, Attitudes, Practice; Humans; Image "
             "Processing, Computer-Assisted; Observer Variation [S1]\n")
    ledger = [dict(LEDGER[0], label="S1", language="en", suspicious=False, markdown=page, title="PubMed 9446993")]
    state = dict(_state(draft, language="en"), documents=ledger, plan=[],
                 question="Can dentists recognize manipulated digital radiographs?")
    verification = (await _verify(state, _deps(FakeModel(), loops=0)[0]))["verification"]
    assert "Clinical Competence" not in verification["annotated_draft"], verification["annotated_draft"]
    (keywords,) = [c for c in verification["claims"] if c["text"].startswith("Clinical Competence")]
    assert keywords["removed_reason"] == "not_a_claim"
    assert verification["annotated_draft"].startswith("## Summary\nStatistical evaluation revealed")


async def test_an_undecided_answer_alone_in_the_summary_follows_the_sources_words_on_the_question():
    # Issue 44, item 5; PubMedQA 15687156 with the real 1.5B model: the whole answer to a yes/no
    # question was "Normal knee kinematics can be restored with unicompartmental knee replacement
    # (not checked)": its "Yes," taken out, its yes still said first, nothing checked to lead.
    verification = await _gil_answer("## Summary\nYes, the GIL is gone in Python 3.14 [S1].\n",
                                     "Is the GIL gone in Python 3.14?")
    assert [c["state"] for c in verification["claims"]] == ["not_checked"]
    answer = verification["annotated_draft"]
    quote, _, rest = answer.removeprefix("## Summary\n").partition("» [S1]")
    assert quote == ("The draft's sentences could not be checked against the sources read; of the question they say: "
                     "«In Python 3.14 the free-threaded build became officially supported, though it is still not "
                     "the default build."), answer
    # The draft's sentence, without its "Yes", says nothing but the question back: a yes all the same, it goes.
    assert rest.strip() == "" and "gone" not in answer, answer
    # In Japanese: the sources' words lead the same way.
    source = "Python 3.14でフリースレッド版は正式にサポートされたが、既定のビルドではない。既定のビルドにはGILが残っている。"
    verification = await _gil_answer("## 結論\nはい、Python 3.14でGILはなくなりました[S1]。\n",
                                     "Python 3.14でGILはなくなりましたか？", "ja", source)
    assert verification["annotated_draft"].startswith(
        "## 結論\n下書きの文はどれも出典で確認できませんでした。質問について、出典にはこうあります: «Python 3.14で"), \
        verification["annotated_draft"]
    # A supported sentence anywhere leads instead, with no quote (the test above).


async def test_an_undecided_answer_with_no_sentence_of_the_sources_on_the_question_does_not_lead_alone():
    # Issue 44, item 5; PubMedQA 25274085 with the real 1.5B model (`research bench pubmedqa --sample 4
    # --seed 77`): its whole answer, "Yes, multiple SNP testing in BRCA2 and BRCA1 female carriers can be
    # used to improve risk prediction models …", lost its "Yes" and stood first, marked not checked: the
    # abstract's results give c-index values and no sentence of it names half of what the question
    # names, so there were no words of the sources to put before it. The answer says first that the
    # sources do not answer it directly. (The page's sentences here are quoted from that abstract.)
    source = ("Female BRCA1/2 carriers were identified from the Manchester genetic database. "
              "548 female BRCA1 mutation carriers and 523 BRCA2 carriers were identified from the database. "
              "By fitting Cox models and random survival forests, including both a genetic SNP score and "
              "clinical/demographic variables, average 1 - c-index values were 0.221 for BRCA1 carriers and 0.215 "
              "for BRCA2 carriers.")
    question = ("Can multiple SNP testing in BRCA2 and BRCA1 female carriers be used to improve risk prediction "
                "models in conjunction with clinical assessment?")
    draft = ("## Summary\nYes, multiple SNP testing in BRCA2 and BRCA1 female carriers can be used to improve risk "
             "prediction models in conjunction with clinical assessment [S1].\n")
    verification = await _gil_answer(draft, question, "en", source)
    assert [c["state"] for c in verification["claims"]] == ["not_checked"]
    # Without its "Yes" it says nothing but the question back: it goes, and the answer says nothing checked answers.
    assert verification["annotated_draft"].split() == "## Summary The sources read do not answer the question " \
        "directly; no checked sentence could be given here.".split(), verification["annotated_draft"]
    # Saying more than the question (its figure), it stays after that line, marked.
    draft = draft.replace("clinical assessment [S1]", "clinical assessment, with a 1 - c-index of 0.221 [S1]")
    verification = await _gil_answer(draft, question, "en", source)
    answer = verification["annotated_draft"]
    assert answer.startswith("## Summary\nThe sources read do not answer the question directly; what the draft "
                             "said of it follows, not checked. Multiple SNP testing in BRCA2 and BRCA1 female "
                             "carriers can be used"), answer
    assert answer.rstrip().endswith("(not checked).") and "Yes" not in answer
    # The bench's grader reads no verdict from the program's line.
    from research.orchestrator.bench.grading import _wording
    assert _wording("The sources read do not answer the question directly; what the draft said of it follows, "
                    "not checked.") is None
    # In Japanese too.
    verification = await _gil_answer("## 結論\nはい、女性のBRCA1保因者548人では、SNPスコアを含むリスクモデルが予測を改善する[S1]。\n",
                                     "複数のSNP検査は、臨床評価と組み合わせてリスク予測モデルの改善に使えるか？", "ja",
                                     "女性のBRCA1保因者548人の生存率を推定し、SNPスコアを含むリスクモデルの1 - c指数は0.221だった。")
    assert [c["state"] for c in verification["claims"]] == ["not_checked"]
    assert verification["annotated_draft"].startswith(
        "## 結論\n読み込んだ出典は質問に直接答えていません。以下は下書きの文で、出典で確認できていません。"), \
        verification["annotated_draft"]


async def test_an_undecided_sentence_the_draft_also_says_the_opposite_of_leaves():
    # PubMedQA 27491658 (`research bench pubmedqa --sample 4 --seed 136`), the real 1.5B model: under the planner's
    # "benefits" and "risks" sub-questions, "Predilatation can reduce the risk of complications such as thrombosis
    # and bleeding (not checked)" and "…can increase the risk…(not checked)"; the abstract names neither. The
    # abstract's sentences, quoted.
    source = ("# PubMed 27491658\n\n## Background\n\nThe use of a balloon expandable stent valve includes balloon "
              "predilatation of the aortic stenosis before valve deployment. The aim of the study was to see whether or "
              "not balloon predilatation is necessary in transcatheter aortic valve replacement (TAVI).\n\n## Methods\n\n"
              "Sixty consecutive TAVI patients were randomized to the standard procedure or to a protocol where balloon "
              "predilatation was omitted.\n\n## Results\n\nThere were no significant differences between the groups "
              "regarding early hemodynamic results or complication rates.")
    question = "Can predilatation in transcatheter aortic valve implantation be omitted?"
    both = ("## Summary\nThe use of a balloon expandable stent valve includes balloon predilatation of the aortic "
            "stenosis before valve deployment [S1].\n\n## Findings\n\n### Benefits\n\nPredilatation can reduce the "
            "risk of complications such as thrombosis and bleeding [S1].\n\n### Risks\n\nPredilatation can increase "
            "the risk of complications such as thrombosis and bleeding [S1].\n")
    verification = await _gil_answer(both, question, "en", source)
    answer = verification["annotated_draft"]
    assert "reduce the risk" not in answer and "increase the risk" not in answer, answer
    assert "balloon predilatation of the aortic stenosis" in answer
    gone = [c for c in verification["claims"] if "the risk" in c["text"]]
    assert len(gone) == 2 and all(c["removed"] and c["removed_reason"] == "said_both_ways" for c in gone)
    # One of them alone stays, marked.
    one = both.replace("Predilatation can increase the risk of complications such as thrombosis and bleeding [S1].",
                       "Predilatation adds a step to the procedure [S1].")
    answer = (await _gil_answer(one, question, "en", source))["annotated_draft"]
    assert "Predilatation can reduce the risk of complications such as thrombosis and bleeding [S1] (not checked)" \
        in answer, answer
    # A checked sentence stands; its undecided opposite goes. In Japanese too.
    source_ja = "太陽光発電の割合は増加している。"
    answer = (await _gil_answer("## 結論\n太陽光発電の割合は増加している[S1]。太陽光発電の割合は減少している[S1]。\n",
                                "太陽光発電の割合はどう変わっているか？", "ja", source_ja))["annotated_draft"]
    assert "増加している" in answer and "減少" not in answer, answer


async def test_a_true_sentence_run_together_with_others_stays_checked_with_its_full_stop():
    # PubMedQA 23389866 (`research bench pubmedqa --sample 3 --seed 138`), the real 1.5B model: sentences written
    # without their full stops were one claim, taken out whole. The abstract's sentences, quoted.
    source = ("# PubMed 23389866\n\n## Results\n\nMedian follow-up was 13.6 months. Pathological complete response was "
              "seen in 60.9 % patients in arm A. In arm B, 77.3 % patients attained radiological complete response "
              "(p = 0.194).")
    draft = ("## Summary\nIn arm B, 77.3 % patients attained radiological complete response The study found that "
             "surgery doubled the 2-year survival of the patients in arm A [S1].\n")
    verification = await _gil_answer(draft, "What response did the patients in arm B attain?", "en", source)
    assert [c["state"] for c in verification["claims"]][0] == "supported"
    assert verification["annotated_draft"].startswith(
        "## Summary\nIn arm B, 77.3 % patients attained radiological complete response [S1]."), \
        verification["annotated_draft"]


async def test_a_hypothesis_the_page_reports_does_not_lead_the_summary_before_a_finding():
    # PubMedQA 17595200 (`research bench pubmedqa --sample 4 --seed 79`), the real 1.5B model: its Summary led
    # with the abstract's background, «It has been suggested that increasing obesity levels in young women lead
    # to intrauterine environments that … stimulate increased obesity among their offspring», reported as
    # "Studies suggest that …"; the study found the parents' associations similar. Its sentences, quoted.
    source = ("It has been suggested that increasing obesity levels in young women lead to intrauterine environments "
              "that, in turn, stimulate increased obesity among their offspring. The strength of association between "
              "parental BMI and offspring BMI at age 7.5 was similar for both parents.")
    draft = ("## Summary\nStudies suggest that increasing obesity levels in young women lead to intrauterine "
             "environments that, in turn, stimulate increased obesity among their offspring [S1]. The strength of "
             "association between parental BMI and offspring BMI at age 7.5 was similar for both parents [S1].\n")
    verification = await _gil_answer(draft, "Is there an intrauterine influence on obesity?", "en", source)
    assert [c["state"] for c in verification["claims"]] == ["supported", "supported"]
    assert verification["annotated_draft"].startswith("## Summary\nThe strength of association between parental BMI"), \
        verification["annotated_draft"]


async def test_a_sentence_moved_to_lead_the_summary_loses_its_connective():
    # PubMedQA 18801797 (`research bench pubmedqa --sample 4 --seed 80`), the real 1.5B model: its one supported
    # Summary sentence, moved before the two undecided ones, opened the answer "However, the prevalence of these
    # factors is low, …". The page's sentences (its Background and Results), quoted.
    source = ("Household and food shopping environmental factors are thought to contribute to these differences. "
              "Only a few household and food shopping environmental factors were significantly associated with fruit "
              "and vegetable consumption, and their prevalence was low. There were significant socioeconomic "
              "inequalities in fruit and vegetable consumption; however, these were not explained by any household "
              "or food shopping environmental factors.")
    draft = ("## Summary\nYes, household and food shopping environments play a role in socioeconomic inequalities in "
             "fruit and vegetable consumption [S1]. However, the prevalence of these factors is low, and their impact "
             "on socioeconomic inequalities in fruit and vegetable consumption is not explained by any household or "
             "food shopping environmental factors [S1].\n")
    question = ("Household and food shopping environments: do they play a role in socioeconomic inequalities in fruit "
                "and vegetable consumption?")
    verification = await _gil_answer(draft, question, "en", source)
    answer = verification["annotated_draft"]
    assert answer.startswith("## Summary\nThe prevalence of these factors is low"), answer
    assert "However" not in answer


async def test_a_yes_goes_from_a_sentence_that_answers_something_else_and_from_an_undecided_one_under_its_heading():
    # PubMedQA 10732884 and 11500608 with the real 1.5B model (the pages here are written in their
    # shape): "Yes, coronary angiography is performed before emergency aortic surgery [S1]. However,
    # it does not affect in-hospital mortality [S1]." kept its "Yes" (its sentence supported), so the
    # answer opened with a yes to a question whose answer was no; and under a yes/no sub-question,
    # "Yes, … (not checked)" kept its yes.
    source = ("Coronary angiography was performed before emergency aortic surgery in 23 of 54 patients. "
              "Coronary angiography did not affect in-hospital mortality after emergency aortic surgery.")
    ledger = [_english_page(source)]
    draft = ("## Summary\nYes, coronary angiography was performed before emergency aortic surgery [S1]. However, "
             "coronary angiography did not affect in-hospital mortality after emergency aortic surgery [S1].\n\n"
             "## 1. Is coronary angiography safe before emergency aortic surgery?\n"
             "Yes, coronary angiography is a safe examination before emergency aortic surgery in most centres [S1].\n")
    question = "Does coronary angiography before emergency aortic surgery affect in-hospital mortality?"
    state = dict(_state(draft, language="en"), documents=ledger, question=question, plan=[])
    verification = (await _verify(state, _deps(FakeModel(), loops=0)[0]))["verification"]
    answer = verification["annotated_draft"]
    assert answer.startswith("## Summary\nCoronary angiography was performed before emergency aortic surgery [S1]. "), answer
    assert "Yes" not in answer, answer
    assert "not affect in-hospital mortality" in answer
    assert "\nCoronary angiography is a safe examination before emergency aortic surgery in most centres [S1] " \
           "(not checked).\n" in answer, answer


async def test_an_undecided_yes_that_only_says_the_question_back_leaves_the_answer():
    # PubMedQA 19643525 (`research bench pubmedqa --seed 101`, gold "no"), the real 1.5B model's Summary: its "Yes,
    # vaginal pH can be measured from the wet mount slide" rested on the abstract's objective; not checked, it
    # stayed at the Summary's end without its yes, still saying yes. The abstract's sentences, quoted.
    source = ("To assess the accuracy of vaginal pH measurement on wet mount microscopy slides compared with direct "
              "measurements on fresh vaginal fluid. pH measurement from microscopy slides after the addition of saline "
              "causes systematic increases of pH leading to false positive readings.")
    draft = ("## Summary\nYes, vaginal pH can be measured from the wet mount slide [S1]. pH measurement from "
             "microscopy slides after the addition of saline causes systematic increases of pH leading to false "
             "positive readings [S1].\n")
    question = "Can vaginal pH be measured from the wet mount slide?"
    verification = await _gil_answer(draft, question, "en", source)
    answer = verification["annotated_draft"]
    assert "can be measured from the wet mount slide" not in answer, answer
    assert answer.startswith("## Summary\npH measurement from microscopy slides after the addition of saline"), answer
    (restated,) = [c for c in verification["claims"] if "wet mount slide" in c["text"]]
    assert restated["removed"] and restated["removed_reason"] == "question_restated"
    # A sentence that says more than the question stays, marked, without its yes.
    draft = draft.replace("Yes, vaginal pH can be measured from the wet mount slide [S1]",
                          "Yes, vaginal pH can be measured from the wet mount slide with a cotton swab [S1]")
    answer = (await _gil_answer(draft, question, "en", source))["annotated_draft"]
    assert "Vaginal pH can be measured from the wet mount slide with a cotton swab [S1] (not checked)" in answer, answer


async def test_an_undecided_sentence_that_says_its_yes_no_heading_back_is_a_yes_and_goes():
    # PubMedQA 11334578 (gold yes; `research bench pubmedqa --seed 104`), the real 1.5B model: under its sub-question
    # "Are there any studies or reports that discuss the awareness of pharmaceutical expenditure in the reformed
    # primary care system?", "There are studies and reports that discuss the awareness of pharmaceutical expenditure
    # in the reformed primary care system (not checked)": a yes without its word, resting on nothing checked. The
    # abstract's sentence, quoted.
    source = ("To evaluate the effectiveness of feeding information on pharmacy back to primary care doctors in order "
              "to create awareness (knowledge) of pharmaceutical expenditure (PE). The 80 PC doctors working with "
              "primary care teams.")
    sub = "Are there any studies or reports that discuss the awareness of pharmaceutical expenditure in the reformed primary care system?"
    draft = (f"## Summary\nThe 80 PC doctors working with primary care teams were asked [S1].\n\n## 1. {sub}\n"
             "There are studies and reports that discuss the awareness of pharmaceutical expenditure in the reformed "
             "primary care system [S1].\n")
    verification = await _gil_answer(draft, "Is there awareness of pharmaceutical expenditure in the reformed primary "
                                     "care system?", "en", source)
    answer = verification["annotated_draft"]
    assert "There are studies and reports" not in answer, answer
    (restated,) = [c for c in verification["claims"] if c["text"].startswith("There are studies")]
    assert restated["removed_reason"] == "question_restated"


async def test_another_studys_sentence_naming_only_a_name_every_study_uses_is_off_topic():
    # PubMedQA 19608436 (`research bench pubmedqa --sample 4 --seed 126`), the real 1.5B model: "The study also found that
    # muscle oedema on fat-suppressed MRI sequences was thought to represent active inflammation" (not checked) stood in
    # the Summary of a breast-MRI question, from a study of thigh muscles: it names MRI, the question's one name, which
    # other studies read name too, and nothing else of it. Three of the run's pages' sentences, quoted.
    breast = ("# PubMed 19608436\n\n## Rationale And Objectives\n\nTo investigate the contribution of chemical shift "
              "magnetic resonance imaging for assessment of the margins of solid breast masses.\n\n## Results\n\nIn fatty "
              "breast, chemical shift subtraction and T1-weighted images were valuable both for the demonstration and "
              "differentiation of benign lesions (P<.05).")
    muscle = ("# PubMed 27991408\n\n## Objectives\n\nDermatomyositis (DM) and polymyositis (PM) commonly cause weakness of "
              "the thigh muscles. Muscle oedema on fat-suppressed MRI sequences is thought to represent active inflammation.")
    spine = ("# PubMed 24793469\n\n## Methods\n\nAll patients underwent cervical magnetic resonance imaging (MRI) for "
             "primary investigation of the disease. Cervical MRI scans were evaluated for detection of any evidence of "
             "cervical discopathy and cervical MS plaques.")
    ledger = [dict(LEDGER[0], label="S1", language="en", suspicious=False, markdown=breast, title="PubMed 19608436"),
              dict(LEDGER[0], label="S2", language="en", suspicious=False, markdown=muscle, title="PubMed 27991408"),
              dict(LEDGER[0], label="S3", language="en", suspicious=False, markdown=spine, title="PubMed 24793469")]
    draft = ("## Summary\nThe study found that chemical shift subtraction and T1-weighted images were valuable for the "
             "demonstration and differentiation of benign lesions in fatty breast [S1]. The study also found that muscle "
             "oedema on fat-suppressed MRI sequences was thought to represent active inflammation [S2].\n")
    question = "Chemical shift MRI: is there any contribution to morphologic evaluation of solid breast masses?"
    state = dict(_state(draft, language="en"), documents=ledger, question=question, plan=[])
    verification = (await _verify(state, _deps(FakeModel(), loops=0)[0]))["verification"]
    assert "oedema" not in verification["annotated_draft"], verification["annotated_draft"]
    assert "chemical shift subtraction" in verification["annotated_draft"]
    (oedema,) = [c for c in verification["claims"] if "oedema" in c["text"]]
    assert oedema["removed_reason"] == "off_topic"


async def test_an_undecided_yes_under_a_heading_that_asks_nothing_still_answers_the_question_and_goes():
    # PubMedQA 21166749 (gold no), `research bench pubmedqa --seed 103`: the real 1.5B model listed its sub-questions
    # under "## Sub-questions", each answered "- Yes, …"; the question lines went (not claims), and "- Yes, the study
    # found that the impact of initial experience … was significant (not checked)" kept its yes.
    source = ("Robot-assisted radical cystectomy (RARC) remains controversial in terms of oncologic outcomes, especially "
              "during the initial experience. Sequential case number was not significantly associated with increased "
              "incidence of complications, surgical blood loss, or positive surgical margins.")
    draft = ("## Summary\nSequential case number was not significantly associated with increased incidence of "
             "complications [S1].\n\n## Sub-questions\n- Yes, the study found that the impact of initial experience "
             "on oncologic outcomes and overall survival was significant [S1].\n")
    question = "Is patient outcome compromised during the initial experience with robot-assisted radical cystectomy?"
    answer = (await _gil_answer(draft, question, "en", source))["annotated_draft"]
    assert "Yes" not in answer, answer
    assert "- The study found that the impact of initial experience on oncologic outcomes and overall survival was " \
           "significant [S1] (not checked)" in answer, answer


async def test_a_checked_yes_under_a_heading_that_asks_nothing_goes_where_its_words_answer_something_else():
    # PubMedQA 11500608 (gold no), `research bench pubmedqa --sample 4 --seed 125`, the real 1.5B model: under "## Sub-
    # Questions", "- Yes, the PubMed 11500608 study found that the mean symptom scores during the placebo period … (not
    # significant)", supported for its words, kept its yes to "Does short-term treatment with proton pump inhibitors
    # cause rebound aggravation of symptoms?", and stood as the Summary's sentence again. The page's sentence, quoted.
    source = ("# PubMed 11500608\n\n## Background\n\nRebound acid hypersecretion might occur after treatment with proton "
              "pump inhibitors. This study looks for a rebound aggravation of symptoms after short-term treatment with "
              "lansoprazole.\n\n## Results\n\nThe mean symptom scores during the placebo period in the groups given "
              "lansoprazole first and placebo first were as follows: reflux score, 21.5 and 17.6, respectively (not "
              "significant); total score, 11.2 and 10.3, respectively (not significant).")
    found = ("the study found that the mean symptom scores during the placebo period in the groups given lansoprazole "
             "first and placebo first were as follows: reflux score, 21.5 and 17.6, respectively (not significant); "
             "total score, 11.2 and 10.3, respectively (not significant)")
    question = "Does short-term treatment with proton pump inhibitors cause rebound aggravation of symptoms?"
    draft = f"## Summary\nThe {found[4:]} [S1].\n\n## Sub-Questions\n- Yes, {found} [S1].\n"
    answer = (await _gil_answer(draft, question, "en", source))["annotated_draft"]
    assert "Yes" not in answer and answer.count("mean symptom scores") == 1, answer
    # Alone under its heading, it stays, without its yes.
    draft = (f"## Summary\nRebound acid hypersecretion might occur after treatment with proton pump inhibitors [S1].\n\n"
             f"## Sub-Questions\n- Yes, {found} [S1].\n")
    answer = (await _gil_answer(draft, question, "en", source))["annotated_draft"]
    assert "Yes" not in answer and "- The study found that the mean symptom scores" in answer, answer


async def test_a_yes_that_its_own_supported_sentence_answers_the_other_way_goes():
    # The real 1.5B model, the GIL question (docs/benchmarks.md, issue 44): under its first
    # sub-question, "Yes, the GIL is still enabled by default in Python 3.14 [S1]." The words are
    # the page's (supported); the "Yes" says the GIL is gone. The words stay, the "Yes" goes.
    source = ("The free-threaded build became officially supported in Python 3.14, though it is still not the "
              "default build. The standard build of Python 3.14 still has the GIL enabled by default.")
    draft = ("## Summary\nThe free-threaded build became officially supported in Python 3.14 [S1].\n\n"
             "## Findings\n### 1. Is the GIL gone in Python 3.14?\n"
             "Yes, the GIL is still enabled by default in Python 3.14 [S1].\n")
    verification = await _gil_answer(draft, "Is the GIL gone in Python 3.14?", source=source)
    (still,) = [c for c in verification["claims"] if "still enabled" in c["text"]]
    assert still["state"] == "supported"
    answer = verification["annotated_draft"]
    assert "The GIL is still enabled by default in Python 3.14 [S1]." in answer and "Yes" not in answer
    # A "No" that its sentence bears out stays, under a heading that asks it.
    draft = draft.replace("Yes, the GIL", "No, the GIL")
    answer = (await _gil_answer(draft, "Is the GIL gone in Python 3.14?", source=source))["annotated_draft"]
    assert "No, the GIL is still enabled by default in Python 3.14 [S1]." in answer


async def test_a_yes_whose_sentence_says_the_opposite_word_of_the_question_goes():
    # The real 1.5B model on JSQuAD v1.3 valid a10336p8q3 (`research bench jsquad --sample 5
    # --seed 59`): 「はい、…せめぎ合う気団は異なる[S1]。」 to 「…せめぎ合う気団は同じか。」, the
    # page's own words after a yes that says they are the same. The words stay, the yes goes.
    source = "# 梅雨\n\n中国大陸方面と日本列島・朝鮮半島方面ではせめぎ合う気団が異なる。"
    question = "中国大陸方面と日本列島・朝鮮半島方面でせめぎ合う気団は同じか。"
    draft = "## 結論\nはい、中国大陸方面と日本列島・朝鮮半島方面でせめぎ合う気団は異なる[S1]。\n"
    verification = await _gil_answer(draft, question, "ja", source)
    (said,) = verification["claims"]
    assert said["state"] == "supported"
    answer = verification["annotated_draft"]
    assert "はい" not in answer and "中国大陸方面と日本列島・朝鮮半島方面でせめぎ合う気団は異なる[S1]。" in answer
    # A no that its words bear out stays.
    answer = (await _gil_answer(draft.replace("はい", "いいえ"), question, "ja", source))["annotated_draft"]
    assert "いいえ、中国大陸方面と日本列島・朝鮮半島方面でせめぎ合う気団は異なる[S1]。" in answer


async def test_a_list_of_the_sources_with_their_local_addresses_is_no_claim_in_another_language():
    # The real 1.5B model with local pages (`research bench jsquad --sample 5 --seed 59`, JSQuAD
    # v1.3 valid a14985p138q2): after 「出典は以下の通りです：」 it listed each page as its title and
    # its file:// address. Read as English (the address), the lines went to be rewritten and the
    # report said 7 sentences were not in Japanese and their translation changed a name.
    source = "# 日本共産党\n\n2010年1月の第25回党大会では、163人の中央委員と35人の准中央委員が選出された。"
    ledger = [dict(LEDGER[0], label="S1", language="ja", suspicious=False, markdown=source, title="日本共産党",
                   url="file:///tmp/bench/corpus/jsquad-007-044.md")]
    draft = ("## 結論\n2010年1月の第25回党大会で選出された中央委員は163人でした[S1]。\n\n## 説明\n"
             "出典は以下の通りです：\n\n"
             "1. 日本共産党 — file:///tmp/bench/corpus/jsquad-007-044.md [S1]\n"
             "2. 日本共産党 — file:///tmp/bench/corpus/jsquad-007-043.md [S1]\n")
    state = dict(_state(draft, language="ja"), documents=ledger, question="第25回党大会で選出された中央委員は何人ですか？")
    result = await _verify(state, _deps(FakeModel(), loops=0)[0])
    answer = result["verification"]["annotated_draft"]
    assert "file://" not in answer and "163人" in answer
    said = " ".join(str(e) for e in result.get("errors", [])) + answer
    assert "日本語ではなく" not in said and "翻訳" not in said


async def test_a_list_item_of_nouns_the_question_names_is_no_statement():
    # JSQuAD v1.3 valid a4596p48q0 (`research bench jsquad --seed 83`), the real 1.5B model's Summary: its
    # lead-in 「…影響を受けた国は以下の通りです。」 went as a lead-in, and its item 「1. 政治と経済」, every word
    # on the page, led the answer as supported, saying nothing. The page's sentence, quoted.
    source = "政治や経済においてポルトガルはイギリスの強い影響を受けて来たが、文化面ではイギリスの文化の影響よりもフランスの文化の影響が強い。"
    ledger = [dict(LEDGER[0], label="S1", language="ja", suspicious=False, markdown=source, title="ポルトガル")]
    draft = ("## 結論\n\nポルトガルは、イギリスの強い影響を受けた国は以下の通りです[S1]。\n\n1. 政治と経済[S1]\n\n"
             "2. **文化**: ポルトガルの文化はイギリスの文化の影響よりもフランスの文化の影響が強い[S1]。\n")
    state = dict(_state(draft, language="ja"), documents=ledger, question="政治や経済においてポルトガルが、強い影響を受けて来た国は？",
                 plan=[])
    answer = (await _verify(state, _deps(FakeModel(), loops=0)[0]))["verification"]["annotated_draft"]
    assert "政治と経済" not in answer and "フランスの文化の影響が強い[S1]" in answer, answer
    # A noun the question does not name may be its answer: it stays.
    state["draft"] = "## 結論\n\nポルトガルが強い影響を受けた国は以下の通りです[S1]。\n\n1. イギリス[S1]\n"
    answer = (await _verify(state, _deps(FakeModel(), loops=0)[0]))["verification"]["annotated_draft"]
    assert "イギリス[S1]" in answer, answer


async def test_a_list_of_the_sources_run_together_in_one_paragraph_is_no_claim():
    # PubMedQA 24519615 (`research bench pubmedqa --seed 82`), the real 1.5B model: its draft ended with
    # every page as "PubMed <id> — file:///…" and a citation, one paragraph, kept "(not checked)".
    pages = {"S1": "24519615", "S2": "15687156", "S3": "25218577"}
    ledger = [dict(LEDGER[0], label=label, language="en", suspicious=False, title=f"PubMed {pmid}",
                   url=f"file:///tmp/bench/corpus/pubmedqa-{pmid}.md",
                   markdown=f"# PubMed {pmid}\n\nPatella eversion changed the gap balance in {pmid[:2]} knees.")
              for label, pmid in pages.items()]
    listed = " ".join(f"PubMed {pmid} — file:///tmp/bench/corpus/pubmedqa-{pmid}.md [{label}]" for label, pmid in pages.items())
    draft = f"## Summary\nPatella eversion changed the gap balance in 24 knees [S1].\n\n{listed}\n"
    state = dict(_state(draft, language="en"), documents=ledger, question="How many knees had the gap balance changed by patella eversion?")
    answer = (await _verify(state, _deps(FakeModel(), loops=0)[0]))["verification"]["annotated_draft"]
    assert "file://" not in answer and "24 knees" in answer, answer
    # Words of its own between the addresses make it a sentence to check, as before.
    from research.workflow.answer import _lists_a_source
    assert _lists_a_source("PubMed 24519615 — file:///a.md PubMed 25218577 — file:///b.md", ["PubMed 24519615", "PubMed 25218577"])
    assert not _lists_a_source("PubMed 24519615 — file:///a.md shows that eversion changed the gaps", ["PubMed 24519615"])


async def test_an_unchecked_figure_said_of_what_its_passage_does_not_name_leaves_the_answer():
    # The real 1.5B model (bench_answers.py, 「富士山の最後の噴火はいつ？」): the summit's height given
    # to the eruption, its passage's sentence word for word but for 「この噴火は」. No judge decided
    # it; its subject is not in the passage, whose figure is the summit's: it goes, as a figure a
    # passage does not give does. The sentence that says what its passage says stays.
    source = "富士山は日本最高峰の山である。富士山の山頂の標高は3,776メートルで、頂上付近は夏でも気温が低くなります。"
    draft = ("## 結論\n富士山の山頂の標高は3,776メートルです[S1]。\n\n## 詳細\n"
             "この噴火は富士山の山頂の標高3,776メートルで、頂上付近は夏でも気温が低くなります[S1]。\n")
    verification = await _gil_answer(draft, "富士山の最後の噴火はいつ？", "ja", source)
    (odd,) = [c for c in verification["claims"] if "この噴火" in c["text"]]
    assert odd["state"] != "supported" and odd["removed"]
    answer = verification["annotated_draft"]
    assert "この噴火は" not in answer and "富士山の山頂の標高は3,776メートルです[S1]。" in answer


async def test_an_unchecked_headline_about_what_its_passage_does_not_name_is_not_the_answer():
    # The real 1.5B model, JSQuAD a1540503p34q1 (「石油の最大輸入相手国は」, gold サウジアラビア):
    # 「石油の最大輸入相手国はオランダです[S2]（未確認）」, its passage on the Netherlands' trade with
    # Germany, 石油 nowhere in it. No judge decided it, and what it speaks of is not on the page.
    source = ("# オランダ\n\n貿易面では資源を大幅に輸入し、高度な工業製品を輸出する形態をとっており、"
              "ドイツが最大の貿易相手国である。\n")
    draft = "## 結論\n石油の最大輸入相手国はオランダです[S1]。\n"
    verification = await _gil_answer(draft, "石油の最大輸入相手国は", "ja", source)
    (headline,) = verification["claims"]
    assert headline["state"] == "not_checked" and headline["missing"] == ["石油"]
    assert headline["removed"] and headline["removed_reason"] == "not_checked"
    assert "オランダ" not in verification["annotated_draft"]


async def test_an_unchecked_headline_listing_what_a_page_on_another_thing_says_is_not_the_answer():
    # The real 1.5B model, PubMedQA 22979954 (`research bench pubmedqa --sample 4 --seed 128`, "Failed IUD insertions in
    # community practice: an under-recognized problem?"): "Long-term effects of IUD insertion include increased risk of
    # infection and decreased rate of successful transplantation [S6] (not checked)", S6 a study of heart pumps
    # (PubMed 9107172's sentence, quoted) that names no IUD. What it speaks of ends at "include" as at "is".
    source = ("Although common, both preexisting infection and infection during LVAD support were not associated with "
              "increased mortality or decreased rate of successful transplantation.")
    draft = ("## Summary\nLong-term effects of IUD insertion include increased risk of infection and decreased rate of "
             "successful transplantation [S1].\n")
    verification = await _gil_answer(draft, "Failed IUD insertions in community practice: an under-recognized problem?",
                                     "en", source)
    (headline,) = verification["claims"]
    assert headline["state"] == "not_checked" and "iud" in headline["missing"]
    assert headline["removed"] and headline["removed_reason"] == "not_checked"
    assert "IUD insertion include" not in verification["annotated_draft"]


async def test_a_sentence_left_opening_its_section_loses_the_connective_that_answered_a_removed_one():
    # The real model's GIL answer (docs/benchmarks.md, issue 44): its "now the default" sentence
    # was contradicted and taken out, and the Summary opened "However, the free-threaded build…".
    source = ("In Python 3.14 the free-threaded build became officially supported, though it is still not the "
              "default build.")
    ledger = [_english_page(source)]
    draft = ("## Summary\nThe free-threaded build is now the default build in Python 3.14 [S1]. However, the "
             "free-threaded build is not the default build in Python 3.14 [S1].\n")
    deps, _ = _deps(FakeModel(), loops=0)
    verification = (await _verify(dict(_state(draft, language="en"), documents=ledger), deps))["verification"]
    answer = verification["annotated_draft"]
    assert "now the default" not in answer
    assert "The free-threaded build is not the default build in Python 3.14 [S1]." in answer and "However" not in answer
    # An example of what was taken out is said on its own (PubMedQA 22519710 with the real 1.5B model,
    # --seed 76: the Summary opened "For example, a computer simulation of four RCTs found …").
    draft = ("## Summary\nThe free-threaded build is now the default build in Python 3.14 [S1]. For example, the "
             "free-threaded build is not the default build in Python 3.14 [S1].\n")
    deps, _ = _deps(FakeModel(), loops=0)
    answer = (await _verify(dict(_state(draft, language="en"), documents=ledger), deps))["verification"]["annotated_draft"]
    # (Nothing here is checked and no sentence of the page names the test's question: the program's
    # line that says so comes first, the sentence right after it.)
    lead = "The sources read do not answer the question directly; what the draft said of it follows, not checked. "
    assert answer.removeprefix("## Summary\n").removeprefix(lead).startswith(
        "The free-threaded build is not the default build in Python 3.14 [S1]"), answer


async def test_an_uncited_sentence_no_judge_decided_stays_not_checked_under_the_source_that_says_it():
    # issue 45's bench, JSQuAD v1.3 valid (a111367p16q4; Wikipedia 「化学進化説」, CC BY-SA), the
    # real Qwen2.5-Coder-1.5B: its one uncited sentence gave the gold answer; read against both
    # pages at once, the other page's 「判別がつかない」 sent it to the judge as a denial, the
    # judge decided nothing, and the answer lost it as untraceable. Read against each page alone,
    # the page with the name holds it: "not checked", cited to that page, whose sentence the answer quotes.
    miller = ("オパーリンの唱えた化学進化説ではその第一段階として「窒素誘導体の形成」が行なわれると仮説していた。"
              "それを実験的に検証したのが1953年、シカゴ大学のハロルド・ユーリーの研究室に属していたスタンリー・ミラーの行なった実験である。")
    other = ("化学進化説に関する考察や実験は、可能かも知れない道筋について、より細かい仮説を立てたり、ひとつひとつの仮説が正しいのか"
             "間違っているのか判別がつかないので、科学者が推定した太古の地球上の環境を実際に再現して具体的に実験を行うことであり、"
             "1980年代まではそのような流れが支配的であった。")
    ledger = [dict(LEDGER[0], label="S1", markdown=other, suspicious=False),
              dict(LEDGER[0], label="S2", url="https://example.jp/miller", canonical_url="https://example.jp/miller",
                   markdown=miller, suspicious=False)]
    sentence = "化学進化説で「窒素誘導体の形成」が行われているとの仮説が立てられたが、それを実際の実験で検証した科学者の名はスタンリー・ミラーです。"
    deps, _ = _deps(FakeModel(judge=JudgeBatch(verdicts=[])), loops=0)  # the judge answers nothing for it
    state = dict(_state(f"## 結論\n{sentence}\n"), documents=ledger,
                 question="オパーリンの唱えた化学進化説で「窒素誘導体の形成」が行われているとの仮説が立てられたが、"
                          "それを実際の実験で検証した科学者の名は？")
    verification = (await _verify(state, deps))["verification"]
    (claim,) = verification["claims"]
    assert claim["checked"] is False and claim["evidence_label"] == "S2" and claim["cited_by_check"] == ["S2"]
    assert "スタンリー・ミラー" in claim["evidence"]
    answer = verification["annotated_draft"]
    # The name stays in the answer: the page's sentence it rests on is quoted first, and the undecided sentence, which
    # says it again in the model's words, gives way to it.
    assert "スタンリー・ミラーの行なった実験である。»[S2]" in answer and "スタンリー・ミラーです" not in answer, answer


async def test_an_uncited_sentence_with_a_figure_no_source_gives_is_still_left_out_when_no_judge_decided():
    # The other side of the rule above: a figure the page does not give keeps the sentence out.
    deps, _ = _deps(FakeModel(judge=JudgeBatch(verdicts=[])), loops=0)
    draft = "## 結論\n富士山の最後の噴火は宝永噴火で、江戸にも火山灰が降り、20万人が避難した。\n"
    verification = (await _verify(_state(draft), deps))["verification"]
    (claim,) = verification["claims"]
    assert (claim["checked"], claim["reason"], claim["cited_by_check"]) == (False, "number_missing", [])
    answer = verification["annotated_draft"]
    assert "20万人" not in answer and "避難" not in answer, answer
    # In its place the page's own sentence on the question, quoted as such (workflow/answer.py).
    assert "下書きの文はどれも出典で確認できませんでした" in answer and "»[S1]" in answer


# The page of the GIL question (issue 44): its status paragraph and its paragraph on the GIL.
GIL_PAGE = ("The free-threaded build became officially supported in Python 3.14, though it is still not the "
            "default build. The standard build of Python 3.14 still has the GIL enabled by default.\n\n"
            "In the free-threaded build the GIL is disabled, so threads can run Python code in parallel on "
            "several cores. Single-threaded code runs somewhat slower in the free-threaded build.")


async def test_a_sentence_joining_a_denied_status_to_a_true_statement_is_cut_and_the_true_one_kept():
    # Issue 44, item 7: Qwen2.5-Coder-1.5B's answer to "Is the GIL gone in Python 3.14?" kept
    # "The free-threaded build of Python 3.14 is the default build, and it has the GIL disabled, …"
    # as supported: the passage on the GIL says most of it, and the one that says "still not the
    # default build" was not read against its first statement.
    source = GIL_PAGE
    ledger = [_english_page(source)]
    draft = ("## Summary\nThe free-threaded build of Python 3.14 is the default build, and it has the GIL disabled, "
             "allowing threads to run Python code in parallel on several cores [S1].\n")
    deps, _ = _deps(FakeModel(), loops=0)
    state = dict(_state(draft, language="en"), documents=ledger, question="Is the GIL gone in Python 3.14?")
    verification = (await _verify(state, deps))["verification"]
    verdicts = {claim["text"]: claim["verdict"] for claim in verification["claims"]}
    assert verdicts == {
        "The free-threaded build of Python 3.14 is the default build.": "unsupported",
        "The free-threaded build of Python 3.14 has the GIL disabled, allowing threads to run Python code in "
        "parallel on several cores.": "supported",
    }, verdicts
    answer = verification["annotated_draft"]
    # The Summary opens with what the page says instead (workflow/answer.py), then the true statement.
    assert "«The free-threaded build became officially supported in Python 3.14, though it is still not the " \
           "default build.» [S1]" in answer, answer
    assert answer.rstrip().endswith("The free-threaded build of Python 3.14 has the GIL disabled, allowing threads "
                                    "to run Python code in parallel on several cores [S1]."), answer
    # The same sentence citing nothing (the real model's Summary often cites nothing): cut the same
    # way, each statement then given the source the checks read it against.
    uncited = ("## Summary\nThe free-threaded build of Python 3.14 is now the default, and it disables the GIL, "
               "allowing threads to run Python code in parallel on several cores.\n")
    verification = (await _verify(dict(state, draft=uncited), _deps(FakeModel(), loops=0)[0]))["verification"]
    verdicts = {claim["text"]: claim["verdict"] for claim in verification["claims"]}
    assert verdicts == {
        "The free-threaded build of Python 3.14 is now the default.": "unsupported",
        "The free-threaded build of Python 3.14 disables the GIL, allowing threads to run Python code in parallel "
        "on several cores.": "supported",
    }, verdicts
    # A sentence joining two true statements is left as it was written.
    draft = ("## Summary\nThe free-threaded build became officially supported in Python 3.14, and it has the GIL "
             "disabled [S1].\n")
    verification = (await _verify(dict(state, draft=draft), _deps(FakeModel(), loops=0)[0]))["verification"]
    assert [claim["text"] for claim in verification["claims"]] == [draft.splitlines()[1].replace(" [S1]", "")]


async def test_a_sentence_pointing_back_at_a_sentence_taken_out_names_what_it_means():
    # Issue 44, item 7: the real 1.5B model's "The GIL is disabled in this build, …" stayed after
    # its sentence about the free-threaded build was taken out, and the page's quote about the
    # standard build was put before it: "this build" then read as the standard build.
    source = GIL_PAGE
    ledger = [_english_page(source)]
    draft = ("## Summary\nThe free-threaded build of Python 3.14 is the default build [S1]. The GIL is disabled in "
             "this build, allowing threads to run Python code in parallel on several cores [S1].\n")
    state = dict(_state(draft, language="en"), documents=ledger, question="Is the GIL gone in Python 3.14?")
    verification = (await _verify(state, _deps(FakeModel(), loops=0)[0]))["verification"]
    answer = verification["annotated_draft"]
    assert "this build" not in answer, answer
    assert "The GIL is disabled in the free-threaded build, allowing threads to run Python code in parallel" in answer
    assert [c["verdict"] for c in verification["claims"]] == ["unsupported", "supported"]


async def test_a_draft_nothing_of_which_could_be_checked_gives_the_sources_words_on_the_question():
    # Issue 44, item 5: the real 1.5B model answered 「Python 3.14でGILはなくなりましたか？」 from the
    # English page with 「はい、Python 3.14でGILはなくなりました。」 and nine more sentences citing nothing,
    # none of which a check could read against an English page. The Summary said only that the
    # sources do not answer, where the page says the opposite of the draft in one sentence.
    source = ("PEP 703 proposed making the global interpreter lock (GIL) optional in CPython.\n\n"
              "The free-threaded build became officially supported in Python 3.14, though it is still not the "
              "default build. The standard build of Python 3.14 still has the GIL enabled by default.")
    ledger = [_english_page(source)]
    draft = "## 結論\nはい、Python 3.14でGILはなくなりました。\n\n## 詳細\nGILはPythonのスレッド制限です。\n"
    state = dict(_state(draft, language="ja"), documents=ledger, question="Python 3.14でGILはなくなりましたか？")
    verification = (await _verify(state, _deps(FakeModel(), loops=0)[0]))["verification"]
    answer = verification["annotated_draft"]
    assert "なくなりました" not in answer, answer
    assert answer.startswith("## 結論\n下書きの文はどれも出典で確認できませんでした。質問について、出典にはこうあります: "
                             "«The standard build of Python 3.14 still has the GIL enabled by default.»[S1]"), answer
    # Sources that name nothing the question names: the plain line, no quote.
    other = [dict(ledger[0], markdown="Mount Fuji is 3,776 m high. Its last eruption began in 1707.")]
    verification = (await _verify(dict(state, documents=other), _deps(FakeModel(), loops=0)[0]))["verification"]
    assert "«" not in verification["annotated_draft"]
    assert "読み込んだ出典は質問に直接答えていないため" in verification["annotated_draft"]


@pytest.mark.parametrize(("japanese", "shown"), [
    ("Python 3.14の標準ビルドでは、GILは既定で引き続き有効です。", True),
    ("Python 3.14の標準ビルドでは、GILは既定で無効です。", False),  # its denial turned round: not shown
    ("Python 3.13の標準ビルドでは、GILは既定で引き続き有効です。", False),  # another version
])
async def test_the_sources_words_the_answer_quotes_come_with_their_translation_where_it_is_faithful(japanese, shown):
    # The real 1.5B model's Japanese GIL answer led with the page's English sentence: a Japanese reader
    # got the one checked statement of the answer in English. It is now followed by its translation,
    # where that keeps the quote's figures, names, denial and status words; the quote stays.
    quote = "The standard build of Python 3.14 still has the GIL enabled by default."
    ledger = [_english_page("PEP 703 proposed making the global interpreter lock (GIL) optional in CPython.\n\n" + quote)]

    def translate(call: Any) -> SentenceRewrites:
        (sentence,) = re.findall(r"^(?:Sentence|文) 1: (.*)$", call.prompt, flags=re.MULTILINE)
        return SentenceRewrites(sentences=[RewrittenSentence(id=1, text=japanese if sentence == quote else sentence)])

    draft = "## 結論\nはい、Python 3.14でGILはなくなりました。\n\n## 詳細\nGILはPythonのスレッド制限です。\n"
    state = dict(_state(draft, language="ja"), documents=ledger, question="Python 3.14でGILはなくなりましたか？")
    answer = (await _verify(state, _deps(FakeModel(rewrites=translate), loops=0)[0]))["verification"]["annotated_draft"]
    assert f"«{quote}»" in answer
    assert (f"«{quote}»（訳: {japanese}）[S1]" in answer) is shown, answer
    assert ("（訳:" in answer) is shown


async def test_an_aside_its_source_does_not_give_is_said_apart_from_the_true_statement():
    # The real 1.5B model (bench_answers.py --ollama, 2026-11-30): "Ollama, a machine learning model,
    # listens on port 11434 of the local machine [S1] (not checked)." The port is what the page says;
    # the aside is not, and it held the whole sentence back.
    ledger = [_english_page("By default Ollama listens on port 11434 of the local machine and serves its API there.")]
    draft = ("## Summary\nOllama, a machine learning model, listens on port 11434 of the local machine [S1].\n\n"
             "## Details\nIn 2024, the council accepted it [S1].\n")
    verification = (await _verify(dict(_state(draft, language="en"), documents=ledger),
                                  _deps(FakeModel(), loops=0)[0]))["verification"]
    claims = {c["text"]: c["state"] for c in verification["claims"]}
    assert claims["Ollama listens on port 11434 of the local machine."] == "supported"
    assert claims["Ollama is a machine learning model."] != "supported"
    assert "Ollama listens on port 11434 of the local machine [S1]." in verification["annotated_draft"]
    # A sentence that opens with a time is not a subject and an aside.
    assert not any(text.startswith("In 2024 is") for text in claims)


async def test_a_value_corrected_and_a_joined_sentence_cut_in_one_draft_both_land_where_they_belong():
    # The value correction changes the draft's length before the cut reads its sentences' places.
    source = ("Ollama listens on port 11434 by default.\n\nThe free-threaded build became officially supported "
              "in Python 3.14, though it is still not the default build.\n\nIn the free-threaded build the GIL is "
              "disabled, so threads can run Python code in parallel on several cores.")
    ledger = [_english_page(source)]
    draft = ("## Findings\nOllama listens on port 8080 by default [S1]. The free-threaded build of Python 3.14 is the "
             "default build, and it has the GIL disabled, allowing threads to run Python code in parallel on several "
             "cores [S1].\n")
    verification = (await _verify(dict(_state(draft, language="en"), documents=ledger), _deps(FakeModel(), loops=0)[0]))["verification"]
    texts = [claim["text"] for claim in verification["claims"]]
    assert texts == ["Ollama listens on port 11434 by default.",
                     "The free-threaded build of Python 3.14 is the default build.",
                     "The free-threaded build of Python 3.14 has the GIL disabled, allowing threads to run Python code "
                     "in parallel on several cores."], texts


async def test_a_claim_on_a_source_in_the_other_language_is_checked_as_its_translation():
    # A Japanese answer on an English page (the real 1.5B model's Japanese GIL answer, issue 44): the
    # words could not be compared, and every sentence ended "not checked". Each is now translated into
    # its source's language by the model and the translation checked in its place.
    draft = ("## 結論\n富士山の最後の噴火は1707年12月16日に始まった[S2]。\n"
             "富士山の最後の噴火は1708年に始まった[S2]。\n"
             "富士山は1707年に噴火した[S2]。\n")
    english = {"富士山の最後の噴火は1707年12月16日に始まった。": "Mount Fuji's last eruption began on 16 December 1707 [S2].",
               "富士山の最後の噴火は1708年に始まった。": "Mount Fuji's last eruption began in 1708.",
               "富士山は1707年に噴火した。": "Mount Fuji erupted long ago."}  # the year lost: it stands for nothing

    def translate(call: Any) -> SentenceRewrites:
        (sentence,) = re.findall(r"^Sentence 1: (.*)$", call.prompt, flags=re.MULTILINE)
        return SentenceRewrites(sentences=[RewrittenSentence(id=1, text=english[sentence])])

    model = FakeModel(rewrites=translate)
    deps, _ = _deps(model)
    state = _state(draft)
    state["documents"] = [LEDGER[1]]
    result = await _verify(state, deps)
    # One sentence a call: in a numbered batch the real model gave one sentence's English under another's number.
    calls = model.asked(schema=SentenceRewrites)
    assert all(c.messages[0]["content"].startswith("Translate each numbered sentence the user gives you into English.")
               for c in calls)
    assert sorted(c.prompt for c in calls) == sorted(f"Sentence 1: {sentence}" for sentence in english)
    began, later, lost = result["verification"]["claims"]
    assert (began["state"], began["checked_as"]) == ("supported", "Mount Fuji's last eruption began on 16 December 1707.")
    assert later["state"] == "contradicted" and "16 December 1707" in later["evidence"]
    assert (lost["state"], lost["checked_as"]) == ("not_checked", "")
    annotated = result["verification"]["annotated_draft"]
    assert "富士山の最後の噴火は1707年12月16日に始まった[S2]。" in annotated and "1708年" not in annotated
    (note,) = [e for e in result["errors"] if "翻訳" in e["message"]]
    assert note["message"].startswith("出典と異なる言語の主張1件は検証しませんでした") and "富士山は1707年に噴火した" in note["message"]


async def test_a_sentence_its_source_says_the_other_way_round_is_not_kept_under_that_source():
    # The real 1.5B model's Japanese GIL answer, checked as its translation: "Yes, Python 3.14 has no
    # GIL." holds every word of "…still has the GIL enabled by default" but its denial. It cited
    # nothing, and was kept "(not checked)" under the page's label, the headline of a false answer.
    gil = "The standard build of Python 3.14 still has the GIL enabled by default."
    ledger = [_english_page(gil)]
    rewrites = SentenceRewrites(sentences=[RewrittenSentence(id=1, text="Yes, Python 3.14 has no GIL.")])
    state = dict(_state("## 結論\nはい、Python 3.14ではGILはなくなりました。\n"), documents=ledger,
                 question="Python 3.14ではGILはなくなりましたか？")
    verification = (await _verify(state, _deps(FakeModel(rewrites=rewrites), loops=0)[0]))["verification"]
    (claim,) = verification["claims"]
    assert (claim["checked_as"], claim["reason"], claim["cited_by_check"]) == ("Yes, Python 3.14 has no GIL.", "negation", [])
    assert "なくなりました" not in verification["annotated_draft"]
    assert "still has the GIL enabled by default" in verification["annotated_draft"]


# PubMedQA 18403945 (its abstract's first and third paragraphs, the bench's dev split).
_REFLUX_SOURCE = (
    "Both medical therapy and laparoscopic antireflux surgery have been shown to improve quality of life in "
    "gastro-oesophageal reflux disease. Although patients with poor symptom control or side effects on medical "
    "therapy might be expected to have improved quality of life after surgery, our aim was to determine, for the "
    "first time, whether patients whose symptoms are well controlled on medical therapy but who decide to undergo "
    "surgery (patient preference) would experience improved quality of life.\n\n"
    "Thirty-eight patients completed all three questionnaires at both time intervals. Preoperative scores while on "
    "medical therapy were significantly improved after surgery.")


async def test_a_studys_stated_aim_does_not_lead_the_summary_a_finding_does():
    # The real 1.5B model's Summary opened with the abstract's aim, supported word for word and no answer.
    aim = ("Patients with poor symptom control or side effects on medical therapy might be expected to have improved "
           "quality of life after surgery, and our aim was to determine, for the first time, whether patients whose "
           "symptoms are well controlled on medical therapy but who decide to undergo surgery would experience "
           "improved quality of life [S1].")
    verification = await _gil_answer(
        f"## Summary\n{aim}\n\n## Findings\nPreoperative scores while on medical therapy were significantly "
        "improved after surgery [S1].\n",
        "Does laparoscopic antireflux surgery improve quality of life in patients whose gastro-oesophageal reflux "
        "disease is well controlled with medical therapy?", "en", _REFLUX_SOURCE)
    assert {c["state"] for c in verification["claims"]} == {"supported"}
    summary = verification["annotated_draft"].split("## Summary\n")[1].split("##")[0].strip()
    assert summary.startswith("Preoperative scores while on medical therapy were significantly improved after "
                              "surgery [S1]."), summary
    assert "our aim was to determine" in summary  # still said, after the finding: it is true of the study


async def test_a_sentence_not_checked_that_rewords_a_supported_one_of_the_same_passage_sentence_is_a_repeat():
    # JSQuAD v1.3 valid (`research bench jsquad --seed 97`, 「韓国では梅雨を何というか？」), the real 1.5B model: its
    # Summary copied the page's sentence on 黄梅雨 (supported); under 「## 梅雨の特徴」 it wrote the sentence again with
    # 「梅が熟して黄色くなる」 exchanged for 「雨が降る」, kept "not checked": the page's sentence already stood in the answer,
    # and the copy said only what it changed. The page's sentences, quoted.
    source = ("中国では「（メイユー）」、台湾では「（メイユー）」や「芒種雨」、韓国では「（チャンマ）」という。"
              "中国では、梅が熟して黄色くなる時期の雨という意味の「（ファンメイユー）」もよく用いられる。")
    draft = ("## 結論\n\n中国では梅雨は「（メイユー）」、台湾では「（メイユー）」や「芒種雨」、韓国では「（チャンマ）」という[S1]。"
             "中国では、梅が熟して黄色くなる時期の雨という意味の「（ファンメイユー）」もよく用いられる[S1]。\n\n"
             "## 梅雨の特徴\n\n梅雨は雨が降る時期の雨という意味の「（ファンメイユー）」もよく用いられる[S1]。\n")
    answer = await _answer_from_one_page(draft, "韓国では梅雨を何というか？", source, "梅雨")
    assert "雨が降る時期" not in answer and "梅が熟して黄色くなる時期の雨" in answer, answer
    # A sentence not checked that adds a fact of that passage sentence the supported one left out stays.
    source = "中国では、梅が熟して黄色くなる時期の雨という意味の「（ファンメイユー）」が、華南でもよく用いられる。"
    draft = ("## 結論\n\n中国では、梅が熟して黄色くなる時期の雨という意味の「（ファンメイユー）」が用いられる[S1]。\n\n"
             "## 梅雨の特徴\n\n梅雨は「（ファンメイユー）」として華南で多く用いられる[S1]。\n")
    answer = await _answer_from_one_page(draft, "中国では梅雨を何というか？", source, "梅雨")
    assert "華南で多く用いられる" in answer, answer


async def test_a_finding_that_names_only_the_attribute_asked_of_another_thing_is_off_the_question():
    # JSQuAD v1.3 valid (`research bench jsquad --seed 97`, 「リボ核酸の略称は何か」), the real 1.5B model: its
    # 「日本共産党的略称は「共産党」です」 (the party's page: «略称は「共産党」、「共産」、「日共」。») stayed in the
    # answer, supported, as on the question for its one word 略称. Both pages' sentences, quoted.
    nucleic = ("塩基対を形成し、互いに積み重なる（スタッキング）核酸塩基の性質は、リボ核酸（RNA）やデオキシリボ核酸（DNA）"
               "などの長鎖らせん構造をもたらす。")
    party = "日本共産党（にっぽんきょうさんとう）は、日本の政党。略称は「共産党」、「共産」、「日共」。"
    ledger = [dict(LEDGER[0], label="S1", language="ja", suspicious=False, markdown=nucleic, title="核酸塩基"),
              dict(LEDGER[0], label="S2", language="ja", suspicious=False, markdown=party, title="日本共産党")]
    draft = ("## 結論\n\nリボ核酸の略称は「RNA」です[S1]。\n\n## 1. リボ核酸は何の分子であるか？\n\n"
             "日本共産党的略称は「共産党」です[S2]。\n")
    state = dict(_state(draft, language="ja"), documents=ledger, question="リボ核酸の略称は何か", plan=[])
    answer = (await _verify(state, _deps(FakeModel(), loops=0)[0]))["verification"]["annotated_draft"]
    assert "共産党" not in answer and "リボ核酸の略称は「RNA」です[S1]" in answer, answer
    # A finding on the question's own page that names only the attribute stays: it is about the question's subject.
    draft = "## 結論\n\nリボ核酸の略称は「RNA」です[S1]。\n\n## 1. 略称\n\n略称は、核酸塩基の性質とともに用いられる[S1]。\n"
    ledger[0]["markdown"] = nucleic + "略称は、核酸塩基の性質とともに用いられる。"
    state = dict(_state(draft, language="ja"), documents=ledger, question="リボ核酸の略称は何か", plan=[])
    answer = (await _verify(state, _deps(FakeModel(), loops=0)[0]))["verification"]["annotated_draft"]
    assert "略称は、核酸塩基の性質とともに用いられる" in answer, answer


async def test_the_finding_that_names_most_of_the_question_fills_an_empty_summary():
    # JSQuAD v1.3 valid (`research bench jsquad --seed 97`, 「原始的な生物は好熱性を示すと分かった解析はなにか」), the real
    # 1.5B model: its Summary sentence went (not checked), and the first sentence of its first finding, on Woese's
    # archaea (生物 and 好熱 of the question), was moved up to lead, not its finding 「16S rRNA系統解析によれば…」, which
    # names all of it. Both pages' sentences, quoted.
    origin = "16S rRNA系統解析によれば、共通祖先に近い原始的な生物は好熱性を示すものが多く見られることがわかった。"
    archaea = ("1977年、カール・ウーズらによって第3のドメインとして古細菌が提案されると、これを含めた好熱菌や極限環境微生物の"
               "研究が進行した。これらの研究から、生命の起源に近いとされる生物群の傾向が明らかになってきた。")
    ledger = [dict(LEDGER[0], label="S1", language="ja", suspicious=False, markdown=origin, title="生命の起源"),
              dict(LEDGER[0], label="S2", language="ja", suspicious=False, markdown=archaea, title="生命の起源")]
    draft = ("## 結論\n\n原始的な生物は好熱性を示すと分かった解析は、16S rRNA系統解析によれば、共通祖先に近い原始的な生物は"
             "好熱性を示すものが多く見られることがわかった。\n\n## 1. 生命の起源\n\n" + archaea.replace("。", "[S2]。")
             + "\n\n## 2. 16S rRNA系統解析\n\n" + origin.replace("。", "[S1]。") + "\n")
    state = dict(_state(draft, language="ja"), documents=ledger, question="原始的な生物は好熱性を示すと分かった解析はなにか",
                 plan=[])
    answer = (await _verify(state, _deps(FakeModel(), loops=0)[0]))["verification"]["annotated_draft"]
    summary = answer.split("## 結論\n")[1].split("\n## ")[0].strip()
    assert summary.startswith("16S rRNA系統解析によれば、共通祖先に近い原始的な生物は好熱性を示すものが多く見られる"), answer


async def test_a_japanese_sentence_pointing_at_one_taken_out_comes_with_the_pages_sentence_before_it():
    # JSQuAD v1.3 valid (`research bench jsquad --seed 99`, 「…西欧諸国の共産党が採択した路線は何ズム？」), the real 1.5B
    # model: its 「この革命的な道路は、日本共産党が1976年に…」 went (not checked), and its supported 「これは、当時イタリア共産党など
    # …ユーロ・コミュニズム路線に倣ったものであり…」 led the Summary, これ pointing at nothing. The page's sentences, quoted.
    source = ("1976年に「自由と民主主義の宣言」という準綱領文書を採択し、ここでソ連モデルとは違う社会主義像を提起した。"
              "これは、当時イタリア共産党など西欧諸国の共産党が採択していたユーロ・コミュニズム路線に倣ったものであり、"
              "「ユーロ・ニッポコミュニズム」（欧州（西欧）的、日本的な共産主義）と呼ばれた。")
    draft = ("## 結論\n\nこの革命的な道路は、日本共産党が1976年に「自由と民主主義の宣言」という準綱領文書を採択し、ここでソ連モデル"
             "とは違う社会主義像を提起した[S1]。これは、当時イタリア共産党など西欧諸国の共産党が採択していたユーロ・コミュニズム"
             "路線に倣ったものであり、「ユーロ・ニッポコミュニズム」（欧州（西欧）的、日本的な共産主義）と呼ばれた[S1]。\n")
    question = "日本共産主義と呼ばれた西欧諸国の共産党が採択した路線は何ズム？"
    answer = await _answer_from_one_page(draft, question, source, "日本共産党")
    summary = answer.split("## 結論\n")[1].strip()
    # The page's sentence names no subject, nor does any before it: the page's title says who adopted it.
    assert summary.startswith("«日本共産党：1976年に「自由と民主主義の宣言」という準綱領文書を採択し、ここでソ連モデルとは違う"
                              "社会主義像を提起した。»[S1]これは、当時イタリア共産党など"), answer
    assert "この革命的な道路" not in answer, answer


async def test_a_japanese_sentence_whose_object_points_at_one_taken_out_comes_with_the_pages_sentence_before_it():
    # JSQuAD v1.3 valid a393195p2q0 (`research bench jsquad --sample 5 --seed 119`, 「民間職業仲介事業所の条約は何条？」), the
    # real 1.5B model: its 「日本は国際労働条約181号で、…求めている。」 went (not checked: the page's subject is the
    # convention, not Japan), and its supported 「日本はこれに批准している。」 was the whole Summary, これ pointing at nothing
    # (the gold, 181, gone). これ is its object, not its first word. The page's sentences, quoted.
    source = ("民間職業仲介事業所については、国際労働条約181号ではこれを3つに分類し、許可・認可制とすることを求めている。"
              "日本はこれに批准している。")
    draft = ("## 結論\n\n日本は国際労働条約181号で、民間職業仲介事業所の条約は3つに分類し、許可・認可制とすることを求めている。"
             "日本はこれに批准している。\n")
    answer = await _answer_from_one_page(draft, "民間職業仲介事業所の条約は何条？", source, "職業紹介事業")
    summary = answer.split("## 結論\n")[1].strip()
    assert summary.startswith("«民間職業仲介事業所については、国際労働条約181号ではこれを3つに分類し、許可・認可制とすることを"
                              "求めている。»[S1]日本はこれに批准している"), answer


async def test_a_summary_left_opening_with_specifically_loses_the_connective():
    # PubMedQA 21172844 (`research bench pubmedqa --sample 4 --seed 117`), the real 1.5B model: its Summary's "Yes, TDP-43
    # type is associated with distinct patterns of brain atrophy …" was not checked and went to the end, and the Summary
    # opened «Specifically, TDP-43 type 1 subjects show …», elaborating on nothing. The page's sentences, quoted.
    source = ("## Methods\n\nIn this case-control study, we identified all subjects with a pathologic diagnosis of FTLD "
              "with TDP-43 immunoreactive inclusions (FTLD-TDP) and at least one volumetric head MRI scan (n = 42). In each "
              "case we applied published criteria for subclassification of FTLD-TDP into FTLD-TDP types 1-3.\n\n"
              "## Results\n\nTwenty-two subjects were classified as FTLD-TDP type 1, 9 as type 2, and 11 as type 3. We "
              "identified different patterns of atrophy across the types with type 1 showing frontotemporal and "
              "parietal atrophy, type 2 predominantly anterior temporal lobe atrophy, and type 3 predominantly posterior "
              "frontal atrophy. Within the FTLD-TDP type 1 group, those with a progranulin mutation had significantly more "
              "lateral temporal lobe atrophy than those without.\n")
    draft = ("## Summary\nYes, TDP-43 type is associated with distinct patterns of brain atrophy on MRI in subjects with "
             "pathologically confirmed frontotemporal lobar degeneration (FTLD). Specifically, TDP-43 type 1 subjects show "
             "frontotemporal and parietal atrophy, type 2 predominantly anterior temporal lobe atrophy, and type 3 "
             "predominantly posterior frontal atrophy. Within the FTLD-TDP type 1 group, those with a progranulin mutation "
             "had significantly more lateral temporal lobe atrophy than those without.\n")
    question = "Does TDP-43 type confer a distinct pattern of atrophy in frontotemporal lobar degeneration?"
    answer = await _answer_from_one_page(draft, question, source, "PubMed 21172844", language="en")
    summary = answer.split("## Summary\n")[1].strip()
    assert summary.startswith("TDP-43 type 1 subjects show frontotemporal and parietal atrophy"), answer


async def test_a_yes_goes_from_an_undecided_sentence_under_a_conclusion_heading():
    # PubMedQA 8017535 (`research bench pubmedqa --seed 98`), the real 1.5B model: its Summary's "Yes, substance use and
    # HIV-related sexual behaviors among US high school students are related." went (not checked), and the same sentence
    # under its "## Conclusion" stayed, its yes said. Written here in that shape.
    source = "Students who used marijuana were more likely to report sexual intercourse with multiple partners."
    draft = ("## Summary\nYes, substance use and HIV-related sexual behaviors among US high school students are related "
             "[S1].\n\n## Conclusion\nYes, substance use and HIV-related sexual behaviors among US high school students "
             "are related [S1].\n")
    question = "Substance use and HIV-related sexual behaviors among US high school students: are they related?"
    ledger = [dict(LEDGER[0], label="S1", language="en", suspicious=False, markdown=source, title="PubMed 8017535")]
    state = dict(_state(draft, language="en"), documents=ledger, question=question, plan=[])
    judge = JudgeBatch(verdicts=[])
    answer = (await _verify(state, _deps(FakeModel(judge=judge), loops=0)[0]))["verification"]["annotated_draft"]
    assert "Yes," not in answer, answer


async def test_a_finding_that_names_the_father_the_question_calls_chichioya_is_on_its_point():
    # JSQuAD v1.3 valid, the page ヨハネス・グーテンベルク (`research bench jsquad --sample 5 --seed 137`, quoted): the real
    # 1.5B model's 「ヨハネス・グーテンベルクの父は教会の造幣所で働いていた。」, supported, went as off the question's point
    # (「…の父親が働いていた場所はどこか。」: 父 and 父親 were two words), and the answer said the sources did not answer.
    source = ("技術史家のジョン・リーンハルト（John Lienhard）は「グーテンベルクの生い立ちは謎に満ちている。彼の父は教会の"
              "造幣所で働いていた。グーテンベルクは金細工の取引を見ながら育った」と記している。")
    draft = ("## 結論\n\nヨハネス・グーテンベルクは金細工の取引を見ながら育った[S1]。\n\n## 1. ノート\n\n"
             "ヨハネス・グーテンベルクの父は教会の造幣所で働いていた[S1]。\n")
    answer = await _answer_from_one_page(draft, "ヨハネス・グーテンベルクの父親が働いていた場所はどこか。", source,
                                         "ヨハネス・グーテンベルク")
    assert "父は教会の造幣所で働いていた[S1]" in answer, answer

"""Issue 9: research plan, fan-out search, plan review, budgets, style rules, fallback model.

In-process: the real graph, nodes, ModelManager and SQLite checkpointer, against the fake
Ollama (real HTTP); search and parsing are small fakes except in the fan-out test, which
uses the real web-search MCP server against the local web fixture.
"""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
import time
from typing import Any

import pytest
from fixtures.typed_state import run_step
from fixtures.fake_model import FakeModel
from fixtures.fake_ollama import FakeOllama
from fixtures.memory_history import MemoryHistory
from langgraph.checkpoint.sqlite.aio import AsyncSqliteSaver
from langgraph.types import Command

from research.cli.plan_review import review_plan as review_on_terminal
from research.state import plan_queries_flat
from research.state.models import SubQuestionPlan
from research.state.session_folder import HistoryManager
from research.state.progress_events import Message
from research.orchestrator.steps import tokens_used
from research.modules.llm.model_manager import THINKING_ALLOWANCE, ModelManager
from research.modules.llm.roles import ModelRole
from research.modules.core.settings import Settings
from research.workflow.dependencies import WorkflowDependencies
from research.nodes.input import understand_question
from research.nodes.llm import enforce_style
from research.workflow.prompts import PlannedQuery, QueryPlan, ResearchPlan, SubQuestion
from research.nodes.search import search_web
from research.orchestrator.graph import build_graph
from research.state.models import ParsedDocument, SearchHit
from research.state.steps import PLAIN_RUN

PAGES = {
    "fuji-height": "Mount Fuji is 3,776 metres high and is the highest mountain in Japan.",
    "fuji-eruption": "The last eruption of Mount Fuji began on 16 December 1707 in the Hoei era.",
    "fuji-climb": "The official climbing season on Mount Fuji runs from early July to early September.",
}


class FakeWebSearch:
    """Every query finds all pages (so results overlap and must be deduplicated); records queries."""

    def __init__(self) -> None:
        self.queries: list[str] = []

    async def search(self, query: str, *, language: str, limit: int, on_note=None, on_progress=None) -> list[SearchHit]:
        self.queries.append(query)
        return [SearchHit(url=f"https://example.org/{slug}?q={len(self.queries)}", canonical_url=f"https://example.org/{slug}",
                          title=slug, engine="fake", language="en", content=text)
                for slug, text in PAGES.items()][:limit]

    async def external_tools(self) -> None:
        return None  # our own web-search server: it has the search tool


class FakeParser:
    sandbox_name = "none"

    async def parse(self, *, path, text, media_type, url) -> ParsedDocument:
        return ParsedDocument(markdown=text or "", title=url, language="en", key_facts=[text] if text else [])


def make_settings(tmp_path: Path, ollama_url: str, **extra: Any) -> Settings:
    return Settings(ollama_host=ollama_url, sessions_dir=tmp_path / "sessions", num_ctx=8192, **extra)


class Run:
    """One session's graph with its deps; ``graph()`` opens a fresh checkpointer (a new process)."""

    def __init__(self, tmp_path: Path, settings: Settings, question: str = "How high is Mount Fuji?") -> None:
        self.settings = settings
        self.history = HistoryManager(settings.sessions_dir)
        self.session = self.history.create(question=question, language="en", model=settings.model)
        self.question = question
        self.web = FakeWebSearch()
        self.model = ModelManager(settings)
        self.messages: list[dict[str, Any]] = []
        self.deps = WorkflowDependencies(settings=settings, model=self.model, web_search=self.web, parser=FakeParser(),
                                         history=self.history, progress=lambda e: self.messages.append(e.payload()) if isinstance(e, Message) else None)
        self.config = {"configurable": {"thread_id": self.session.session_id}, "recursion_limit": 60}

    def initial(self, **extra: Any) -> dict[str, Any]:
        return {"question": self.question, "language": "en", "model": self.settings.model,
                "session_id": self.session.session_id, "session_dir": str(self.session.path),
                "parent_session": None, "depth": self.settings.depth, "errors": [], **extra}

    def saver(self):
        return AsyncSqliteSaver.from_conn_string(str(self.session.path / "checkpoints.sqlite"))

    async def invoke(self, value: Any) -> dict[str, Any]:
        async with self.saver() as saver:
            graph = build_graph(self.deps, saver)
            return await graph.ainvoke(value, self.config, durability="sync")

    def events(self, name: str) -> list[dict[str, Any]]:
        return [e for e in self.history.events(self.session.session_id) if e["event"] == name]


# --- plan parsing ------------------------------------------------------------------------
def _schemas(model: FakeModel) -> list[str]:
    """The schemas the planning calls asked for, in order."""
    assert all(call.role == ModelRole.PLAN for call in model.calls)
    return [call.schema.__name__ for call in model.calls]


async def _plan_with(plan: ResearchPlan | None, depth: str = "standard") -> tuple[dict[str, Any], FakeModel]:
    # The research plan the test chooses (None: garbage, the fallback); the query plan always falls back.
    model = FakeModel(plan=lambda call: plan if call.schema is ResearchPlan else None)
    deps = WorkflowDependencies(settings=Settings(), model=model, web_search=None, parser=None, history=MemoryHistory())
    state = {"question": "富士山の高さは？", "language": "ja", "model": "m", "session_id": "x", "depth": depth}
    return await run_step(understand_question, state, deps), model


def _flat(plan: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The first round's queries of a plan given as JSON, as JSON."""
    return [q.model_dump() for q in plan_queries_flat([SubQuestionPlan.model_validate(sub) for sub in plan])]


async def test_a_valid_plan_becomes_sub_questions_with_queries_in_both_languages():
    plan = ResearchPlan(sub_questions=[
        SubQuestion(question="富士山の標高は？", queries=[PlannedQuery(text="富士山 標高", language="ja"),
                                                    PlannedQuery(text="Mount Fuji height", language="en")]),
        SubQuestion(question="富士山の測量の歴史は？", queries=[PlannedQuery(text="Fuji survey history", language="en")]),
    ])
    update, model = await _plan_with(plan)
    assert [s["question"] for s in update["plan"]] == ["富士山の標高は？", "富士山の測量の歴史は？"]
    # The user's own words first (searched at every depth), then the model's queries.
    assert [q["text"] for q in _flat(update["plan"])] == ["富士山の高さは？", "富士山 標高", "Mount Fuji height",
                                                          "Fuji survey history"]
    assert "queries" not in update  # derived from the plan, never stored twice
    assert _schemas(model) == ["ResearchPlan"]


async def test_a_partial_plan_is_cleaned_up():
    # Duplicates and blank sub-questions dropped, a sub-question without queries searched by
    # its wording, and no more than the depth allows (standard: 4).
    plan = ResearchPlan(sub_questions=[SubQuestion(question="富士山の標高は？"), SubQuestion(question="  "),
                                       SubQuestion(question="富士山の標高は？"),
                                       SubQuestion(question="富士山の標高は何ですか？")]  # the real model's repeat
                        + [SubQuestion(question=f"富士山の観点{i}は？") for i in range(6)])
    update, _ = await _plan_with(plan)
    assert [s["question"] for s in update["plan"]] == ["富士山の標高は？", "富士山の観点0は？", "富士山の観点1は？", "富士山の観点2は？"]
    assert update["plan"][0]["queries"] == [{"text": "富士山の高さは？", "language": "ja"},  # the user's words
                                            {"text": "富士山の標高は？", "language": "ja"}]


async def test_a_sub_question_about_something_else_is_dropped_before_searching():
    # issue 29, item 3: a plan that read "transport" in 「MCPのトランスポート」 as vehicles; and the
    # template's slot a small model copies into its sub-questions.
    plan = ResearchPlan(sub_questions=[
        SubQuestion(question="<サブ質問> 1. 富士山の標高は何メートル？"),
        SubQuestion(question="車両を運ぶ機能とは？", queries=[{"text": "車両 運搬 機能", "language": "ja"},
                                                              {"text": "vehicle transport", "language": "en"}]),
        SubQuestion(question="最後の噴火はいつ？", queries=[{"text": "富士山 最後の噴火", "language": "ja"}]),
    ])
    update, _ = await _plan_with(plan)
    assert [s["question"] for s in update["plan"]] == ["富士山の標高は何メートル？", "最後の噴火はいつ？"]


async def test_a_language_label_after_a_sub_question_or_query_is_no_part_of_it():
    # The real 1.5B model (PubMedQA 22955530, `research bench pubmedqa --sample 4 --seed 132`) planned its first
    # sub-question again with "(Japanese)" after it; the report had a section headed so. Here in the other direction.
    plan = ResearchPlan(sub_questions=[
        SubQuestion(question="富士山の標高は？", queries=[PlannedQuery(text="富士山 標高", language="ja")]),
        SubQuestion(question="富士山の標高は？（英語）", queries=[PlannedQuery(text="Mount Fuji height (English)",
                                                                        language="en")]),
        SubQuestion(question="富士山の最後の噴火は？ (Japanese)",
                    queries=[PlannedQuery(text="Mount Fuji last eruption (in English)", language="en")]),
    ])
    update, _ = await _plan_with(plan)
    assert [s["question"] for s in update["plan"]] == ["富士山の標高は？", "富士山の最後の噴火は？"]
    assert "Mount Fuji last eruption" in [q["text"] for q in _flat(update["plan"])]
    assert not any("English" in q["text"] or "英語" in q["text"] for q in _flat(update["plan"]))


async def test_a_garbage_plan_falls_back_to_the_question_and_its_query_plan():
    update, model = await _plan_with(None)
    assert update["plan"][0]["question"] == "富士山の高さは？"
    assert _flat(update["plan"])[0] == {"text": "富士山の高さは？", "language": "ja"}
    assert _schemas(model) == ["ResearchPlan", "QueryPlan"]


async def test_quick_depth_makes_no_plan():
    update, model = await _plan_with(None, depth="quick")
    assert _schemas(model) == ["QueryPlan"] and len(update["plan"]) == 1


async def test_the_fake_model_plans_through_the_real_client(tmp_path):
    with FakeOllama() as fake:
        run = Run(tmp_path, make_settings(tmp_path, fake.url, depth="deep"))
        await run.model.ensure_ready()
        update = await understand_question(run.initial(), run.deps)
    assert len(update["plan"]) == 4  # deep asks for 4 to 7
    assert "## Plan" in (run.session.path / "input.md").read_text("utf-8")


# --- fan-out -------------------------------------------------------------------------------
async def test_three_sub_questions_are_searched_concurrently_and_merged(tmp_path, web, fake_ollama):
    from research.modules.clients.web_search_client import WebSearchClient

    settings = make_settings(tmp_path, fake_ollama.url, search_engine="searxng", searxng_url=web.searxng_url,
                             allow_private_network=True, search_limit=3)
    run = Run(tmp_path, settings)
    plan = [{"question": q, "queries": [{"text": q, "language": "en"}]}
            for q in ("Mount Fuji height", "Mount Fuji eruption", "LangGraph checkpoints")]
    web.set_latency("/search", 0.6)
    web.clear_log()
    try:
        async with WebSearchClient(settings, run.session.path / "sources") as client:
            run.deps.web_search = client
            state = run.initial(plan=plan, queries=[q for sub in plan for q in sub["queries"]])
            update = await run_step(search_web, state, run.deps)
    finally:
        web.clear_latency()
    searches = web.requests_for("/search")
    assert len(searches) == 3
    # All three were in flight at once: each started before any of them ended.
    assert max(r.start for r in searches) < min(r.end for r in searches)
    urls = [hit["canonical_url"] for hit in update["search_results"]]
    assert len(urls) == len(set(urls)) and len(urls) >= 3
    saved = json.loads((run.session.path / "search_results.json").read_text("utf-8"))
    assert [h["canonical_url"] for h in saved] == urls


async def test_overlapping_results_of_sub_questions_are_stored_once(tmp_path):
    run = Run(tmp_path, make_settings(tmp_path, "http://127.0.0.1:9"))
    plan = [{"question": t, "queries": [{"text": t, "language": "en"}]} for t in ("a", "b", "c")]
    update = await run_step(search_web, run.initial(plan=plan), run.deps)
    assert len(run.web.queries) == 3
    assert sorted(h["canonical_url"] for h in update["search_results"]) == sorted(
        f"https://example.org/{slug}" for slug in PAGES)



class IndexingWebSearch(FakeWebSearch):
    """As our server does for a documents folder on its first search: every query of the round
    hears the same index's progress before its results."""

    async def search(self, query, *, language, limit, on_note=None, on_progress=None):
        for done in (0, 40, 80, 120):
            on_progress(done, 1145)
        return await super().search(query, language=language, limit=limit)


async def test_indexing_a_documents_folder_is_said_once_not_once_per_query(tmp_path):
    run = Run(tmp_path, make_settings(tmp_path, "http://127.0.0.1:9"))
    run.deps.web_search = run.web = IndexingWebSearch()
    plan = [{"question": t, "queries": [{"text": t, "language": "en"}]} for t in ("a", "b", "c")]
    await run_step(search_web, run.initial(plan=plan), run.deps)
    said = [m for m in run.messages if m["key"] == "terminal.indexing_documents"]
    assert said == [{"key": "terminal.indexing_documents", "done": 0, "total": 1145}]
    from research.modules.core.i18n import t

    assert t("terminal.indexing_documents", "ja", done=0, total=1145).startswith("資料フォルダーを索引付け中: 1145 件中 0 件")


# --- the whole graph: sections per sub-question, review, budgets ---------------------------
async def test_the_draft_has_one_section_per_sub_question(tmp_path):
    with FakeOllama() as fake:
        run = Run(tmp_path, make_settings(tmp_path, fake.url))
        await run.model.ensure_ready()
        final = await run.invoke(run.initial())
    headings = [line[3:] for line in final["draft"].splitlines() if line.startswith("## ")]
    assert headings == ["Summary"] + [sub.question for sub in final["plan"]]
    assert len(final["plan"]) == 2
    for section in final["draft"].split("\n## ")[1:]:
        assert "[S" in section, section  # each section cites its own sources


async def test_plan_review_interrupts_and_the_edited_plan_is_searched_after_a_restart(tmp_path):
    with FakeOllama() as fake:
        run = Run(tmp_path, make_settings(tmp_path, fake.url))
        await run.model.ensure_ready()
        await run.invoke(run.initial(review_plan=True))
        assert run.web.queries == []  # stopped before searching

        # A new process: a fresh checkpointer on the same file shows the same pending review.
        async with run.saver() as saver:
            snapshot = await build_graph(run.deps, saver).aget_state(run.config)
        assert snapshot.next == ("plan_review",)
        shown = snapshot.tasks[0].interrupts[0].value
        planned = [sub["question"] for sub in shown["plan"]]
        assert planned[0] == run.question and len(planned) == 2

        # The user drops the second sub-question, edits the first and adds one.
        edits = iter(["d 2", "e 1 Mount Fuji elevation in metres", "a Mount Fuji climbing season", ""])
        answer = review_on_terminal(shown, "en", read=lambda prompt: next(edits), write=lambda text: None)
        final = await run.invoke(Command(resume=answer))
    assert run.web.queries == ["Mount Fuji elevation in metres", "Mount Fuji climbing season"]
    assert [sub.question for sub in final["plan"]] == answer and final["plan_reviewed"]
    assert Path(final["report_md"]).is_file()
    assert run.events("node_paused") and run.events("plan_reviewed")
    # input.md shows the plan the run followed, not the one before the review.
    input_md = (run.session.path / "input.md").read_text("utf-8")
    reviewed = input_md.split("## Plan (reviewed)", 1)[1]
    assert "Mount Fuji elevation in metres" in reviewed and "Mount Fuji climbing season" in reviewed


@pytest.mark.parametrize("budget,setting,stopped_after", [
    ("seconds", {"max_seconds": 0.001}, "input"),
    ("tokens", {"max_llm_tokens": 1}, "input"),
])
async def test_a_spent_budget_goes_straight_to_the_report(tmp_path, budget, setting, stopped_after):
    with FakeOllama() as fake:
        run = Run(tmp_path, make_settings(tmp_path, fake.url, **setting))
        await run.model.ensure_ready()
        final = await run.invoke(run.initial())
    ended = [e["node"] for e in run.events("node_end")]
    assert ended == [stopped_after, "report"]
    assert final["budget_exhausted"] == budget
    report = Path(final["report_md"]).read_text("utf-8").replace("\\_", "_")  # markdown escapes "_"
    assert {"seconds": "RESEARCH_MAX_SECONDS", "tokens": "RESEARCH_MAX_LLM_TOKENS"}[budget] in report
    assert "Stopped early" in report


async def test_the_token_budget_stops_after_the_draft_is_verified(tmp_path):
    with FakeOllama() as fake:
        run = Run(tmp_path, make_settings(tmp_path, fake.url))
        await run.model.ensure_ready()
        first = await understand_question(run.initial(), run.deps)
        planned_tokens = sum(e["prompt_tokens"] + e["completion_tokens"] for e in run.model.usage.values())
        run2 = Run(tmp_path, make_settings(tmp_path, fake.url, max_llm_tokens=planned_tokens * 2))
        await run2.model.ensure_ready()
        final = await run2.invoke(run2.initial())
    assert first["plan"]
    ended = [e["node"] for e in run2.events("node_end")]
    # The draft is still checked (an unverified draft never reaches the report), but no
    # follow-up round runs.
    assert ended == list(PLAIN_RUN)
    assert final["draft"] and final["budget_exhausted"] == "tokens"
    assert final["verification"].summary.claims >= 1


async def test_the_source_budget_caps_sources_and_stops_searching(tmp_path):
    with FakeOllama() as fake:
        run = Run(tmp_path, make_settings(tmp_path, fake.url, max_sources=2, verification_pass_ratio=1.0))
        await run.model.ensure_ready()
        final = await run.invoke(run.initial())
    assert len(final["search_results"]) == 2 and final["budget_exhausted"] == "sources"
    assert [e["node"] for e in run.events("node_end")].count("search") == 1  # no follow-up round
    report = Path(final["report_md"]).read_text("utf-8").replace("\\_", "_")
    assert "RESEARCH_MAX_SOURCES = 2" in report


async def test_elapsed_time_survives_a_resume(tmp_path):
    with FakeOllama() as fake:
        run = Run(tmp_path, make_settings(tmp_path, fake.url))
        await run.model.ensure_ready()
        await run.invoke(run.initial(review_plan=True))
        async with run.saver() as saver:
            before = (await build_graph(run.deps, saver).aget_state(run.config)).values
        final = await run.invoke(Command(resume=[sub.question for sub in before["plan"]]))
    assert before["elapsed_seconds"] > 0 and tokens_used(before) > 0
    assert final["elapsed_seconds"] > before["elapsed_seconds"] and tokens_used(final) > tokens_used(before)


# --- style rules --------------------------------------------------------------------------
async def _style(draft: str, reply: str | None, lang: str = "en"):
    """The style rewrite with the model's reply given (None: it echoes the sentence); the
    rewrites as the run's events record them."""
    model = FakeModel(rewrite=(lambda call: call.prompt) if reply is None else reply, strict=True)
    deps = WorkflowDependencies(settings=Settings(), model=model, web_search=None, parser=None, history=None)
    text, rewrites = await enforce_style(draft, lang, deps)
    return text, [rewrite.model_dump() for rewrite in rewrites], model


async def test_a_sentence_with_a_banned_word_is_rewritten_once_by_the_model():
    draft = "## Summary\n\nFuji is 3,776 m high [S1]. We delve into its groundbreaking geology [S2]."
    text, rewrites, model = await _style(draft, "Its geology is described in detail [S2].")
    assert text == "## Summary\n\nFuji is 3,776 m high [S1]. Its geology is described in detail [S2]."
    assert len(model.calls) == 1 and '"delve"' in model.calls[0].messages[0]["content"]
    assert rewrites[0]["method"] == "model" and rewrites[0]["banned"] == ["delve", "groundbreaking"]


async def test_a_rewrite_that_still_violates_falls_back_to_removing_the_words():
    draft = "- 富士山は画期的な山である。[S1]"
    text, rewrites, model = await _style(draft, None, lang="ja")  # the model echoes the sentence
    assert text == "- 富士山は山である。[S1]" and rewrites[0]["method"] == "removed"


async def test_a_rewrite_that_drops_a_citation_is_not_used():
    text, rewrites, _ = await _style("It may possibly erupt again [S2].", "It may erupt again.")
    assert text == "It may erupt again [S2]." and rewrites[0]["method"] == "removed"


@pytest.mark.parametrize("sentence,reply", [
    ("It may possibly erupt again [S1, S2].", "It may erupt again [S1]."),
    ("It may possibly erupt again ［Ｓ１］.", "It may erupt again."),
    ("富士山はおそらく噴火するかもしれない【S2】。", "富士山は噴火するかもしれない。"),
])
async def test_a_rewrite_that_drops_a_citation_in_any_style_is_not_used(sentence, reply):
    text, rewrites, _ = await _style(sentence, reply, lang="ja" if "富士" in sentence else "en")
    assert rewrites[0]["method"] == "removed"
    assert text.rstrip("。.").endswith(("[S1, S2]", "［Ｓ１］", "【S2】"))


async def test_style_splits_sentences_like_the_verifier():
    text, rewrites, model = await _style("Dr. Smith says Fuji may possibly erupt [S1]. It is 3.5 km wide [S2].", None)
    assert model.calls[0].messages[1]["content"] == "Dr. Smith says Fuji may possibly erupt [S1]."
    assert text.endswith(" It is 3.5 km wide [S2].")


async def test_clean_text_is_left_alone():
    text, rewrites, model = await _style("## Summary\n\nFuji may erupt again [S1].", "x")
    assert rewrites == [] and model.calls == [] and text.endswith("[S1].")


async def test_style_rewrites_go_through_the_fake_model_end_to_end(tmp_path):
    with FakeOllama() as fake:
        run = Run(tmp_path, make_settings(tmp_path, fake.url, depth="quick", banned_words="highest mountain"))
        await run.model.ensure_ready()
        final = await run.invoke(run.initial())
    assert "highest mountain" not in final["draft"].lower()
    assert final["style_rewrites"] and final["style_rewrites"][0].method == "model"
    assert run.events("style_rewrite")


# --- fallback model -----------------------------------------------------------------------
async def test_the_fallback_model_takes_over_after_three_failures(tmp_path):
    with FakeOllama(models=("gpt-oss:20b", "qwen3:8b")) as fake:
        settings = make_settings(tmp_path, fake.url, fallback_model="qwen3:8b")
        model = ModelManager(settings)
        assert await model.ensure_ready() == "gpt-oss:20b"
        fake.failing_models.add("gpt-oss:20b")
        # structured(): two failed tries, then its own fallback value; the third failure switches.
        plan = await model.structured([{"role": "user", "content": "q"}], ResearchPlan, node="input", role=ModelRole.PLAN,
                                      fallback=ResearchPlan(sub_questions=[SubQuestion(question="q")]))
        assert plan.sub_questions[0].question == "q" and model.model == "gpt-oss:20b"
        reply = await model.chat([{"role": "system", "content": "日本語"}, {"role": "user", "content": "q"}], node="llm",
                                 role=ModelRole.DRAFT)
    assert model.model == "qwen3:8b" and model.switched_from == "gpt-oss:20b"
    assert reply
    assert [r["body"]["model"] for r in fake.requests if r["path"] == "/api/chat"][-1] == "qwen3:8b"


async def test_a_streamed_answer_the_fallback_model_takes_over_keeps_its_cap(tmp_path):
    # The third failure comes inside the stream: the fallback's answer is asked with the same
    # token cap, not an unbounded one.
    with FakeOllama(models=("gpt-oss:20b", "qwen3:8b")) as fake:
        model = ModelManager(make_settings(tmp_path, fake.url, fallback_model="qwen3:8b"))
        await model.ensure_ready()
        fake.failing_models.add("gpt-oss:20b")
        for _ in range(2):
            with pytest.raises(Exception):
                await model.chat([{"role": "user", "content": "q"}], node="llm", role=ModelRole.DRAFT)
        answer = await model.stream([{"role": "user", "content": "q"}], node="llm", role=ModelRole.DRAFT,
                                    on_token=lambda _: None, max_tokens=321)
    assert answer and model.model == "qwen3:8b"
    last = [r["body"] for r in fake.requests if r["path"] == "/api/chat"][-1]
    # qwen3 thinks: its reasoning's allowance comes on top of the answer's cap, as for any call.
    assert last["model"] == "qwen3:8b" and last["options"]["num_predict"] == 321 + THINKING_ALLOWANCE["low"]


async def test_the_report_names_the_fallback_model(tmp_path):
    with FakeOllama(models=("gpt-oss:20b", "qwen3:8b")) as fake:
        run = Run(tmp_path, make_settings(tmp_path, fake.url, fallback_model="qwen3:8b", depth="quick"))
        await run.model.ensure_ready()
        fake.failing_models.add("gpt-oss:20b")  # two failed plan calls, then the draft's stream
        final = await run.invoke(run.initial())
    assert final["model_used"] == "qwen3:8b"
    report = Path(final["report_md"]).read_text("utf-8")
    assert "qwen3:8b" in report and "failed three times" in report
    assert final["draft"] and "## Summary" in final["draft"]


async def test_without_a_fallback_model_failures_stay_failures(tmp_path):
    with FakeOllama() as fake:
        model = ModelManager(make_settings(tmp_path, fake.url))
        await model.ensure_ready()
        fake.mode = "error500"
        for _ in range(4):
            with pytest.raises(Exception) as failure:
                await model.chat([{"role": "user", "content": "q"}], node="llm", role=ModelRole.DRAFT)
            assert getattr(failure.value, "key", "") == "ollama.failed"
    assert model.model == "gpt-oss:20b" and model.switched_from is None


# --- the command line ------------------------------------------------------------------------
@pytest.mark.e2e
def test_review_plan_without_a_terminal_is_skipped_with_a_note(research_env):
    from conftest import load_json_line, research_in_process

    result = research_in_process(["What is the height of Mount Fuji?", "--review-plan", "--depth", "quick", "--json"],
                          research_env)
    assert result.returncode == 0, result.stderr
    assert "Plan review skipped" in result.stderr
    session = Path(load_json_line(result.stdout)["session_dir"])
    assert json.loads((session / "meta.json").read_text("utf-8"))["depth"] == "quick"


def test_a_bad_depth_is_a_usage_error(research_env):
    from conftest import research_in_process

    result = research_in_process(["What?", "--depth", "bottomless"], research_env)
    # A bad flag names the flag (b8cdf6c); the same value from the environment names RESEARCH_DEPTH.
    assert result.returncode == 2 and "--depth" in result.stderr and "Traceback" not in result.stderr


def test_repl_depth_and_plan_commands(tmp_path, capsys):
    from prompt_toolkit.input import create_pipe_input
    from prompt_toolkit.output import DummyOutput

    from research.cli.repl import Repl

    with create_pipe_input() as pipe:
        pipe.send_text("/depth deep\r/depth bottomless\r/plan on\r/quit\r")
        repl = Repl(Settings(sessions_dir=tmp_path, language="en"), input=pipe, output=DummyOutput())
        repl.loop()
    out = capsys.readouterr().out
    assert repl.settings.depth == "deep" and repl.settings.review_plan
    assert "Depth: deep" in out and "Usage: /depth quick|standard|deep" in out and "Plan review on" in out


def test_plan_review_commands_and_mistakes():
    lines = iter(["d 9", "x", "e 2 edited", "a added", "d 1", None])
    said: list[str] = []
    payload = {"question": "q", "plan": [{"question": "one"}, {"question": "two"}]}
    assert review_on_terminal(payload, "ja", read=lambda prompt: next(lines), write=said.append) == ["edited", "added"]
    assert any("サブ質問 9 はありません" in s for s in said) and any("理解できません" in s for s in said)


def _short_planner(*replies: ResearchPlan) -> FakeModel:
    """A model that plans too few sub-questions: the first reply, then (asked again) the second."""
    queue = list(replies)
    return FakeModel(plan=lambda call: queue.pop(0) if call.schema is ResearchPlan and queue else None, strict=True)


def _plan_of(*questions: str) -> ResearchPlan:
    return ResearchPlan(sub_questions=[SubQuestion(question=q) for q in questions])


async def _deep_plan(model: FakeModel) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    said: list[dict[str, Any]] = []
    deps = WorkflowDependencies(settings=Settings(), model=model, web_search=None, parser=None, history=MemoryHistory(),
                                progress=lambda event: said.append(event.payload()) if isinstance(event, Message) else None)
    state = {"question": "What is Mount Fuji?", "language": "en", "model": "m", "session_id": "x", "depth": "deep"}
    return await understand_question(state, deps), said


async def test_deep_asks_again_for_four_to_seven_sub_questions():
    # Issue 23, item 6: a model that stops at two got two, and nothing was said.
    model = _short_planner(_plan_of("Height?", "Last eruption?"),
                           _plan_of("Height?", "Last eruption?", "Climbing season?", "World Heritage?", "Geology?"))
    update, said = await _deep_plan(model)
    assert len(update["plan"]) == 5
    assert "give 4 to 7" in model.calls[1].messages[-1]["content"]
    assert not any(p["key"] == "plan.fewer_sub_questions" for p in said)


async def test_deep_says_why_when_the_model_still_gives_too_few():
    model = _short_planner(_plan_of("Height?", "Last eruption?"), _plan_of("Height?"))
    update, said = await _deep_plan(model)
    assert len(update["plan"]) == 2
    (note,) = [p for p in said if p["key"] == "plan.fewer_sub_questions"]
    from research.modules.core.i18n import t

    text = t(note["key"], "en", **{k: v for k, v in note.items() if k != "key"})
    assert text.startswith("The model planned 2 sub-questions") and "4–7" in text
    assert "4〜7" in t(note["key"], "ja", **{k: v for k, v in note.items() if k != "key"})


# --- issue 48: planning that is bounded, says what it does, merges repeats, asks in both languages ---


async def test_sub_questions_that_ask_the_same_in_other_words_become_one_section():
    # The real model's plan for 「富士山の宝永大噴火で江戸に灰は降りましたか？」 had near-duplicate
    # sub-questions; the report then said twice that the sources did not answer them.
    plan = ResearchPlan(sub_questions=[
        SubQuestion(question="宝永大噴火で江戸に灰は降りましたか？", queries=[PlannedQuery(text="宝永大噴火 江戸 灰", language="ja")]),
        SubQuestion(question="宝永噴火で江戸に灰は降ったのでしょうか？", queries=[PlannedQuery(text="宝永噴火 江戸 降灰", language="ja")]),
        SubQuestion(question="宝永大噴火の時、江戸に灰は降りましたか？", queries=[PlannedQuery(text="Hoei eruption Edo ash", language="en")]),
        SubQuestion(question="宝永大噴火の規模は？", queries=[PlannedQuery(text="宝永大噴火 規模", language="ja")]),
        SubQuestion(question="宝永大噴火で江戸に降った灰の量は？", queries=[PlannedQuery(text="宝永 江戸 降灰量", language="ja")]),
    ])
    update, _ = await _plan_with(plan)
    assert [s["question"] for s in update["plan"]] == ["宝永大噴火で江戸に灰は降りましたか？", "宝永大噴火の規模は？",
                                                       "宝永大噴火で江戸に降った灰の量は？"]
    # The repeats' queries are searched under the one section that stays.
    assert [q["text"] for q in update["plan"][0]["queries"]] == ["富士山の高さは？", "宝永大噴火 江戸 灰",
                                                                 "宝永噴火 江戸 降灰", "Hoei eruption Edo ash"]


async def test_a_plan_in_one_language_gets_a_query_in_the_other():
    # The real model planned Japanese queries only, and the English PDF among the documents was never found.
    plan = ResearchPlan(sub_questions=[
        SubQuestion(question="富士山の標高は？", queries=[PlannedQuery(text="富士山 標高", language="ja")]),
        SubQuestion(question="富士山の測量の歴史は？", queries=[PlannedQuery(text="富士山 測量 歴史", language="ja")]),
    ])
    queries = QueryPlan(queries=[PlannedQuery(text="富士山 高さ", language="ja"),
                                 PlannedQuery(text="Mount Fuji height", language="en")])
    model = FakeModel(plan=lambda call: plan if call.schema is ResearchPlan else queries)
    messages: list[dict[str, Any]] = []
    deps = WorkflowDependencies(settings=Settings(), model=model, web_search=None, parser=None, history=MemoryHistory(),
                                progress=lambda e: messages.append(e.payload()) if isinstance(e, Message) else None)
    state = {"question": "富士山の高さは？", "language": "ja", "model": "m", "session_id": "x", "depth": "standard"}
    update = await run_step(understand_question, state, deps)
    assert {q["language"] for q in _flat(update["plan"])} == {"ja", "en"}
    assert "Mount Fuji height" in [q["text"] for q in _flat(update["plan"])]
    # What planning did is said as it goes: asked for a plan, then what it came to.
    keys = [m["key"] for m in messages]
    assert keys[0] == "plan.asking" and "plan.planned" in keys
    planned = next(m for m in messages if m["key"] == "plan.planned")
    assert planned["count"] == 2 and planned["languages"] == "en, ja"


async def test_planning_past_its_time_searches_the_question_and_says_so(monkeypatch):
    # "✓ 質問を解析中 (299.7s)" with a spinner only: a plan the model does not finish in time is given up.
    import asyncio

    from research.nodes import input as input_node

    monkeypatch.setattr(input_node, "PLAN_SECONDS", 0.3)

    class SlowModel(FakeModel):
        async def structured(self, *args: Any, **kwargs: Any) -> Any:
            await asyncio.sleep(30)
            return await super().structured(*args, **kwargs)

    messages: list[dict[str, Any]] = []
    deps = WorkflowDependencies(settings=Settings(), model=SlowModel(), web_search=None, parser=None,
                                history=MemoryHistory(),
                                progress=lambda e: messages.append(e.payload()) if isinstance(e, Message) else None)
    state = {"question": "富士山の高さは？", "language": "ja", "model": "m", "session_id": "x", "depth": "deep"}
    started = time.monotonic()
    update = await run_step(understand_question, state, deps)
    assert time.monotonic() - started < 5
    assert [s["question"] for s in update["plan"]] == ["富士山の高さは？"]
    assert [q["text"] for q in _flat(update["plan"])] == ["富士山の高さは？"]
    assert any(m["key"] == "plan.timed_out" for m in messages)


async def test_the_users_own_words_are_searched_at_every_depth():
    # research bench, JSQuAD with the real 1.5B model: 「西側の近隣都市は？」 was planned as one English
    # query alone, and the Japanese page its own words find was never read.
    plan = ResearchPlan(sub_questions=[
        SubQuestion(question="What is the height?", queries=[PlannedQuery(text="Mount Fuji height", language="en")]),
    ])
    for depth in ("standard", "deep"):
        update, _ = await _plan_with(plan, depth)
        assert {"text": "富士山の高さは？", "language": "ja"} in _flat(update["plan"])


async def test_a_sub_question_in_the_other_language_is_searched_but_not_a_section():
    # The real 1.5B model planned a Japanese JSQuAD question in English; each sub-question became
    # an English heading of the Japanese report ("### 1. Who discovered the formation of nitrite
    # ions in experiments?", then 「読み込んだ出典には…: Who discovered…」).
    plan = ResearchPlan(sub_questions=[
        SubQuestion(question="Who verified the formation of nitrogen derivatives in experiments?",
                    queries=[PlannedQuery(text="Miller experiment nitrogen", language="en")]),
        SubQuestion(question="富士山の標高は？", queries=[PlannedQuery(text="富士山 標高", language="ja")]),
    ])
    update, _ = await _plan_with(plan)
    assert [s["question"] for s in update["plan"]] == ["富士山の標高は？"]
    assert "Miller experiment nitrogen" in [q["text"] for q in _flat(update["plan"])]
    # All of it in English: the question itself is the one section, the queries kept.
    plan = ResearchPlan(sub_questions=[
        SubQuestion(question="What is the height of Mount Fuji?",
                    queries=[PlannedQuery(text="Mount Fuji height", language="en")])])
    update, _ = await _plan_with(plan)
    assert [s["question"] for s in update["plan"]] == ["富士山の高さは？"]
    assert [q["text"] for q in _flat(update["plan"])][-1] == "Mount Fuji height"

"""input node: record the question and plan the research: sub-questions and their queries.

Depth quick asks for one query per language; standard and deep ask for a plan of
sub-questions (``PLAN_SIZE``), each with queries in both languages. An unusable plan
falls back to quick's query plan, so the run always has something to search.
"""

from __future__ import annotations

import re

from research.state.session_folder import now_iso
from research.state import AgentState
from research.state.models import Language, Query, SubQuestionPlan, Turn
from research.modules.text.analyser import term_set
from research.nodes.answer import PLACEHOLDER, Topic
from research.nodes.dependencies import ModelRole, WorkflowDependencies
from research.nodes.prompts import (
    FOLLOW_UP_PLANNING,
    LANGUAGE_NAMES,
    PLAN_SIZE,
    PLAN_TOO_FEW,
    QUERY_PLAN_SYSTEM,
    RESEARCH_PLAN_SYSTEM,
    PlannedQuery,
    QueryPlan,
    ResearchPlan,
    SubQuestion,
)
from research.state.progress_events import Message

MAX_QUERIES_PER_SUB_QUESTION = 3
PLAN_NUMBERING = re.compile(r"^\s*(?:\d{1,2}[.)．）]|[（(]\d{1,2}[)）])\s*")
# How much of the conversation's first question a follow-up's query gets: enough to name the topic.
TOPIC_CHARS = 100


async def understand_question(state: AgentState, deps: WorkflowDependencies) -> AgentState:
    """Write input.md and plan: sub-questions for standard/deep, queries only for quick."""
    question, lang = state["question"], state["language"]
    depth = state.get("depth") or deps.settings.depth
    deps.history.write_text(
        state["session_id"],
        "input.md",
        f"# {question}\n\n- language: {lang}\n- depth: {depth}\n- model: {state['model']}\n- asked: {now_iso()}\n"
        + (f"- parent session: {state['parent_session']}\n" if state.get("parent_session") else ""),
    )
    plan = await plan_sub_questions(question, lang, depth, state.get("conversation", []), deps) if depth in PLAN_SIZE else None
    if plan is None:
        plan = [SubQuestionPlan(question=question,
                                queries=await plan_queries(question, lang, state.get("conversation", []), deps))]
    plan = carry_topic(plan, question, state.get("conversation", []))
    if len(plan) > 1:
        deps.history.write_text(state["session_id"], "input.md", _plan_markdown(question, lang, depth, state, plan))
    # search_results/documents may be seeded from a parent session: a follow-up reuses its sources.
    return {"plan": plan, "depth": depth, "search_rounds": 0}


async def plan_sub_questions(
    question: str, lang: Language, depth: str, conversation: list[Turn], deps: WorkflowDependencies
) -> list[SubQuestionPlan] | None:
    """The model's plan, cleaned up; None when it gave nothing usable."""
    low, high = PLAN_SIZE[depth]
    other = "en" if lang == "ja" else "ja"
    fallback = ResearchPlan(sub_questions=[SubQuestion(question=question[:300])])
    messages = [
        {"role": "system", "content": RESEARCH_PLAN_SYSTEM[lang].format(
            low=low, high=high, other_name=LANGUAGE_NAMES[lang][other],
            follow_up=FOLLOW_UP_PLANNING[lang] if conversation else "")},
        {"role": "user", "content": _with_context(question, conversation)},
    ]
    raw = await deps.model.structured(
        messages,
        ResearchPlan,
        node="input",
        role=ModelRole.PLAN,
        fallback=fallback,
    )
    if raw is fallback:
        return None
    about = [question, *(turn.question for turn in conversation)]
    plan = normalise_plan(raw, lang, high, about=about)
    if plan is not None and len(plan) < low:
        # Models often stop at two or three: asked once more, saying how many are wanted.
        again = await deps.model.structured(
            [
                *messages,
                {"role": "assistant", "content": raw.model_dump_json()},
                {"role": "user", "content": PLAN_TOO_FEW[lang].format(count=len(plan), low=low, high=high)},
            ],
            ResearchPlan,
            node="input",
            role=ModelRole.PLAN,
            fallback=fallback,
        )
        more = normalise_plan(again, lang, high, about=about) if again is not fallback else None
        if more is not None and len(more) > len(plan):
            plan = more
    if plan is not None and len(plan) < low:
        # The run goes on with what there is, and says so: the README promises low to high.
        deps.progress(Message("plan.fewer_sub_questions", {"count": len(plan), "low": low,
                                                           "high": high, "depth": depth}))
    return plan


def normalise_plan(raw: ResearchPlan, lang: Language, most: int,
                   about: list[str] | None = None) -> list[SubQuestionPlan] | None:
    """Drop empty and repeated sub-questions, keep at most ``most``; a sub-question the
    model gave no query for is searched by its own wording.

    A template's slot the model copied ("<テーマ> 1. …") is taken out of the wording, and a
    sub-question about something else than the question (``about``: the question, and in a
    follow-up the conversation's questions) is dropped before anything is searched for it:
    it shares no telling term with them, in its wording or its queries (a plan that read
    "transport" in 「MCPのトランスポート」 as vehicles)."""
    topic = Topic.of(about or [], [])
    plan: list[tuple[SubQuestionPlan, bool]] = []  # each with whether it names the question's topic
    seen: set[str] = set()
    for sub in raw.sub_questions:
        text = " ".join(PLACEHOLDER.sub(" ", sub.question).split())
        text = " ".join(PLAN_NUMBERING.sub("", text).split())
        key = question_key(text)
        if not text or key in seen:
            continue
        seen.add(key)
        queries = sub_question_queries(text, lang, sub.queries)
        on_topic = bool(topic.telling(" ".join([text, *(q.text for q in queries)])))
        plan.append((SubQuestionPlan(question=text, queries=queries), on_topic))
    if any(on_topic for _, on_topic in plan):
        # Where the plan names the question's topic at all, a sub-question that shares nothing
        # with it went elsewhere. Terse aspects ("Height?") of a plan that never names the
        # topic cannot be told apart from that cheaply, and are kept.
        plan = [(sub, on_topic) for sub, on_topic in plan if on_topic]
    return [sub for sub, _ in plan][:most] or None


# How a question ends that does not change what it asks: 「…は何ですか？」, 「…は？」, 「…とは？」.
_ASKING_END = re.compile(r"(?:とは|は)?(?:何|なん|なに)?(?:です|でしょう)?か?$")


def question_key(text: str) -> str:
    """A sub-question as compared with the others: the real model planned 「…の主要なエネルギー
    効果は何ですか？」 and 「…の主要なエネルギー効果は？」, and the report said twice that the sources
    did not answer it. Case, spacing, punctuation and the asking ending do not count."""
    key = re.sub(r"[\s?？。.!！、,]+", "", text.lower())
    return _ASKING_END.sub("", key) or key


def sub_question_queries(text: str, lang: Language,
                         planned: list[PlannedQuery] | list[dict[str, str]] = ()) -> list[Query]:
    """A sub-question's queries (what the model planned, each once), or its own wording."""
    queries: list[Query] = []
    for q in planned:
        q = q if isinstance(q, dict) else q.model_dump()
        query = " ".join(str(q.get("text", "")).split())[:300]
        if query and q.get("language") in ("ja", "en") and query.lower() not in {x.text.lower() for x in queries}:
            queries.append(Query(text=query, language=q["language"]))
    return queries[:MAX_QUERIES_PER_SUB_QUESTION] or [Query(text=text[:300], language=lang)]


def _plan_markdown(question: str, lang: Language, depth: str, state: AgentState, plan: list[SubQuestionPlan]) -> str:
    lines = [f"# {question}", "", f"- language: {lang}", f"- depth: {depth}", f"- model: {state['model']}",
             f"- asked: {now_iso()}", ""]
    if state.get("parent_session"):
        lines.insert(-1, f"- parent session: {state['parent_session']}")
    lines.append("## Plan")
    for number, sub in enumerate(plan, 1):
        lines.append(f"{number}. {sub.question}")
        lines += [f"    - `{q.text}` ({q.language})" for q in sub.queries]
    return "\n".join(lines) + "\n"


async def plan_queries(
    question: str, lang: Language, conversation: list[Turn], deps: WorkflowDependencies
) -> list[Query]:
    """Depth quick (and the fallback): one query per language, the user's wording first."""
    other = "en" if lang == "ja" else "ja"
    fallback = QueryPlan(queries=[PlannedQuery(text=question[:300], language=lang)])
    plan = await deps.model.structured(
        [
            {"role": "system", "content": QUERY_PLAN_SYSTEM[lang].format(
                other_name=LANGUAGE_NAMES[lang][other], follow_up=FOLLOW_UP_PLANNING[lang] if conversation else "")},
            {"role": "user", "content": _with_context(question, conversation)},
        ],
        QueryPlan,
        node="input",
        role=ModelRole.PLAN,
        fallback=fallback,
    )
    return _with_original(plan.queries, question, lang)


def _with_context(question: str, conversation: list[Turn]) -> str:
    """A follow-up like "もっと詳しく" only makes sense with the earlier question beside it."""
    if not conversation:
        return question
    earlier = "\n".join(f"- {turn.question}" for turn in conversation[-3:])
    return f"{earlier}\n- {question}"


def carry_topic(plan: list[SubQuestionPlan], question: str, conversation: list[Turn]) -> list[SubQuestionPlan]:
    """A follow-up such as "When did it last erupt?" names nothing a search engine could find
    the topic by: each of its queries that shares no word with the conversation's earlier
    questions gets the first of them in front ("富士山の標高は When did it last erupt?"). A
    follow-up that names the topic itself is left as planned; a new topic starts with /new."""
    earlier = [turn.question for turn in conversation if turn.question]
    if not earlier:
        return plan
    topic_words = term_set(" ".join(earlier))
    if not topic_words or term_set(question) & topic_words:
        return plan
    # The words as the user wrote them (a lemma such as フジ for 富士山 searches badly).
    prefix = earlier[0].strip().rstrip("?？!！。.")[:TOPIC_CHARS]
    carried = []
    for sub in plan:
        queries = [query if term_set(query.text) & topic_words else
                   query.model_copy(update={"text": f"{prefix} {query.text}"[:300]}) for query in sub.queries]
        carried.append(sub.model_copy(update={"queries": queries}))
    return carried


def _with_original(planned: list[PlannedQuery], question: str, lang: Language) -> list[Query]:
    """The user's own wording is always searched; model queries add to it, deduplicated."""
    queries = [Query(text=question[:300], language=lang)]
    seen = {question[:300].strip().lower()}
    for q in planned:
        key = q.text.strip().lower()
        if key and key not in seen:
            seen.add(key)
            queries.append(Query(text=q.text.strip(), language=q.language))
    return queries[:4]

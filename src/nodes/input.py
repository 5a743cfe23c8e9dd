"""input node: record the question and plan the research: sub-questions and their queries.

Depth quick asks for one query per language; standard and deep ask for a plan of
sub-questions (``PLAN_SIZE``), each with queries in both languages. An unusable plan
falls back to quick's query plan, so the run always has something to search.
"""

from __future__ import annotations

import asyncio
import re
import time
from collections.abc import Sequence

from research.state.session_folder import now_iso
from research.state import AgentState
from research.state.models import Language, Query, SubQuestionPlan, Turn
from research.modules.core.language import LANGUAGES
from research.modules.core.settings import Settings
from research.modules.text.analyser import term_set, terms
from research.modules.text.language_check import is_wrong_language
from research.workflow.answer import PLACEHOLDER, Topic
from research.workflow.dependencies import ModelRole, WorkflowDependencies
from research.workflow.prompts import (
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
# Planning is bounded: the real 1.5B model on two busy cores spent 299.7 s on a plan (issue 48).
# Past PLAN_SECONDS the plan call is given up and the question itself is searched; a second
# call (more sub-questions, the other language's query) is made only while half of it is left.
PLAN_SECONDS = 120.0
# What a plan's JSON takes: a sub-question and its queries in two languages, about 100 tokens.
PLAN_TOKENS_PER_SUB_QUESTION = 150
PLAN_TOKENS_FRAME = 64
PLAN_NUMBERING = re.compile(r"^\s*(?:\d{1,2}[.)．）]|[（(]\d{1,2}[)）])\s*")
# The language a sub-question or query was meant to be in, written after it as a label: "Can Type II supracondylar
# humerus fractures be treated nonoperatively? (Japanese)", the real 1.5B model's second sub-question (PubMedQA
# 22955530, `research bench pubmedqa --sample 4 --seed 132`), its first in other words; the report had a section
# headed so.
LANGUAGE_LABEL = re.compile(r"\s*[(（]\s*(?:in\s+)?(?:japanese|english|日本語|英語)(?:\s*(?:version|translation|訳|版))?(?:で)?"
                            r"\s*[)）]\s*$", re.IGNORECASE)
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
    conversation = state.get("conversation", [])
    clock = PlanClock(deps.settings)
    plan = None
    if depth in PLAN_SIZE:
        deps.progress(Message("plan.asking", {"low": PLAN_SIZE[depth][0], "high": PLAN_SIZE[depth][1]}))
        plan = await clock.bounded(plan_sub_questions(question, lang, depth, conversation, deps, clock), None)
    if plan is None:
        own = [Query(text=question[:300], language=lang)]
        queries = await clock.bounded(plan_queries(question, lang, conversation, deps), own) if clock.left() else own
        plan = [SubQuestionPlan(question=question, queries=queries)]
    elif clock.half_left() and not any(q.language != lang for sub in plan for q in sub.queries):
        # Documents or pages in the other language are found only by a query in it: the real
        # model planned Japanese queries alone and an English PDF was never found.
        found = await clock.bounded(plan_queries(question, lang, conversation, deps), [])
        other = [q for q in found if q.language != lang][:1]
        if other:
            plan[0] = plan[0].model_copy(update={"queries": [*plan[0].queries, *other]})
    if clock.timed_out:
        deps.progress(Message("plan.timed_out", {"seconds": round(clock.limit)}))
    plan = _question_searched(plan, question, lang)
    plan = carry_topic(plan, question, conversation)
    deps.progress(Message("plan.planned", {"count": len(plan), "queries": sum(len(sub.queries) for sub in plan),
                                           "languages": ", ".join(sorted({q.language for sub in plan
                                                                          for q in sub.queries}))}))
    if len(plan) > 1:
        deps.history.write_text(state["session_id"], "input.md", _plan_markdown(question, lang, depth, state, plan))
    # search_results/documents may be seeded from a parent session: a follow-up reuses its sources.
    return {"plan": plan, "depth": depth, "search_rounds": 0}


class PlanClock:
    """The time planning may take: PLAN_SECONDS, or a quarter of --max-seconds when that is less."""

    def __init__(self, settings: Settings) -> None:
        budget = settings.max_seconds
        self.limit = min(PLAN_SECONDS, budget / 4) if budget else PLAN_SECONDS
        self.started = time.monotonic()
        self.timed_out = False

    def left(self) -> float:
        return max(0.0, self.limit - (time.monotonic() - self.started))

    def half_left(self) -> bool:
        return self.left() > self.limit / 2

    async def bounded(self, call, fallback):  # type: ignore[no-untyped-def]
        """``call``'s result, or ``fallback`` once the time is up (the request is closed, and
        Ollama stops writing the reply)."""
        try:
            return await asyncio.wait_for(call, timeout=max(0.01, self.left()))
        except asyncio.TimeoutError:
            self.timed_out = True
            return fallback


async def plan_sub_questions(
    question: str, lang: Language, depth: str, conversation: list[Turn], deps: WorkflowDependencies,
    clock: PlanClock | None = None,
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
    cap = PLAN_TOKENS_FRAME + PLAN_TOKENS_PER_SUB_QUESTION * high
    raw = await deps.model.structured(
        messages,
        ResearchPlan,
        node="input",
        role=ModelRole.PLAN,
        fallback=fallback,
        max_tokens=cap,
    )
    if raw is fallback:
        return None
    about = [question, *(turn.question for turn in conversation)]
    plan = normalise_plan(raw, lang, high, about=about)
    if plan is not None and len(plan) < low and (clock is None or clock.half_left()):
        deps.progress(Message("plan.asking_again", {"count": len(plan), "low": low}))
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
            max_tokens=cap,
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
    "transport" in 「MCPのトランスポート」 as vehicles).

    A sub-question written in the other language (the real 1.5B model planned a Japanese
    question in English) would become a heading of the report in that language: it is not kept
    as a section, and its queries are searched under the first sub-question that is."""
    topic = Topic.of(about or [], [])
    asked = _content_terms(" ".join(about or []))
    plan: list[tuple[SubQuestionPlan, bool]] = []  # each with whether it names the question's topic
    seen: set[str] = set()
    foreign: list[Query] = []  # the queries of sub-questions written in the other language
    for sub in raw.sub_questions:
        text = " ".join(PLACEHOLDER.sub(" ", sub.question).split())
        text = " ".join(LANGUAGE_LABEL.sub("", PLAN_NUMBERING.sub("", text)).split())
        key = question_key(text)
        if not text or key in seen:
            continue
        seen.add(key)
        if is_wrong_language(text, lang)[0]:
            foreign += [Query(text=q.text.strip(), language=q.language) for q in sub.queries
                        if q.text.strip() and q.language in LANGUAGES]
            continue
        queries = sub_question_queries(text, lang, sub.queries)
        same = next((n for n, (kept, _) in enumerate(plan) if asks_the_same(kept.question, text, asked)), None)
        if same is not None:
            # Asked already in other words: its queries join the first one's, one section for both.
            kept, on_topic = plan[same]
            known = {q.text.lower() for q in kept.queries}
            extra = [q for q in queries if q.text.lower() not in known]
            merged = [*kept.queries, *extra][:MAX_QUERIES_PER_SUB_QUESTION + 1]
            plan[same] = (kept.model_copy(update={"queries": merged}), on_topic)
            continue
        on_topic = bool(topic.telling(" ".join([text, *(q.text for q in queries)])))
        plan.append((SubQuestionPlan(question=text, queries=queries), on_topic))
    if any(on_topic for _, on_topic in plan):
        # Where the plan names the question's topic at all, a sub-question that shares nothing
        # with it went elsewhere. Terse aspects ("Height?") of a plan that never names the
        # topic cannot be told apart from that cheaply, and are kept.
        plan = [(sub, on_topic) for sub, on_topic in plan if on_topic]
    sections = [sub for sub, _ in plan][:most]
    if foreign and not sections and about:
        # Every sub-question in the other language: the question itself is the one section.
        sections = [SubQuestionPlan(question=about[0][:300], queries=[])]
    if foreign and sections:
        searched = list(sections[0].queries)
        for query in foreign:
            if query.text.lower() not in {q.text.lower() for q in searched}:
                searched.append(query)
        sections[0] = sections[0].model_copy(update={"queries": searched[:MAX_QUERIES_PER_SUB_QUESTION + 1]})
    return sections or None


def asks_the_same(first: str, second: str, asked: set[str] | frozenset[str] = frozenset()) -> bool:
    """Whether two sub-questions ask one thing in other words: they share two content terms
    or more, half of all they name, and neither names one that the other and the question
    (``asked``) do not, beyond a word that only frames it (時, 際: ``_FRAMING``). Their
    difference is wording: 「…降りましたか？」, 「…降ったのでしょうか？」, "the Python GIL" and "the GIL
    in Python". An aspect of the topic ("…の歴史は？", "…の量は？") names its own and stays apart."""
    if re.findall(r"\d+", first) != re.findall(r"\d+", second):
        return False  # "phase 1" and "phase 2": the terms leave figures out
    a, b = _content_terms(first), _content_terms(second)
    shared = a & b
    if len(shared) < 2 or len(shared) * 2 < len(a | b):
        return False
    return not (a - b - asked - _FRAMING) and not (b - a - asked - _FRAMING)


# Words that place a question rather than say what it asks about (「…の時」, 「…の際」, "when").
_FRAMING = frozenset("時 際 頃 場合 とき 間 中 後 前 件".split())


def _content_terms(text: str) -> frozenset[str]:
    """What a sub-question asks about: its terms less Japanese verbs (降る and 下りる are one ask)."""
    return frozenset(term.text for term in terms(text) if not term.predicate)


# How a question ends that does not change what it asks: 「…は何ですか？」, 「…は？」, 「…とは？」.
_ASKING_END = re.compile(r"(?:とは|は)?(?:何|なん|なに)?(?:です|でしょう)?か?$")


def question_key(text: str) -> str:
    """A sub-question as compared with the others: the real model planned 「…の主要なエネルギー
    効果は何ですか？」 and 「…の主要なエネルギー効果は？」, and the report said twice that the sources
    did not answer it. Case, spacing, punctuation and the asking ending do not count."""
    key = re.sub(r"[\s?？。.!！、,]+", "", text.lower())
    return _ASKING_END.sub("", key) or key


def sub_question_queries(text: str, lang: Language,
                         planned: Sequence[PlannedQuery] | Sequence[dict[str, str]] = ()) -> list[Query]:
    """A sub-question's queries (what the model planned, each once), or its own wording."""
    queries: list[Query] = []
    for q in planned:
        q = q if isinstance(q, dict) else q.model_dump()
        query = " ".join(LANGUAGE_LABEL.sub("", str(q.get("text", ""))).split())[:300]
        language = next((known for known in LANGUAGES if known == q.get("language")), None)
        if query and language is not None and query.lower() not in {x.text.lower() for x in queries}:
            queries.append(Query(text=query, language=language))
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


def _question_searched(plan: list[SubQuestionPlan], question: str, lang: Language) -> list[SubQuestionPlan]:
    """The user's own words are searched at every depth: a plan of sub-questions whose queries the
    model wrote in other words (「西側の近隣都市は？」 planned as one English query, research bench
    on JSQuAD) may miss the very page the question's words find. Added to the first sub-question."""
    own = question[:300].strip()
    if not plan or not own or any(q.text.strip().lower() == own.lower() for sub in plan for q in sub.queries):
        return plan
    first = plan[0]
    return [first.model_copy(update={"queries": [Query(text=own, language=lang), *first.queries]}), *plan[1:]]


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

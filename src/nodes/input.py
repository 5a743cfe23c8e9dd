"""input node: record the question and plan the search queries in both languages."""

from __future__ import annotations

from typing import Any

from ..modules.history import now_iso
from ..state import AgentState
from .dependencies import WorkflowDependencies
from .prompts import LANGUAGE_NAMES, QUERY_PLAN_SYSTEM, PlannedQuery, QueryPlan


async def understand_question(state: AgentState, deps: WorkflowDependencies) -> dict[str, Any]:
    """Write input.md and ask the model for one query per language (fallback: the question)."""
    question, lang = state["question"], state["language"]
    other = "en" if lang == "ja" else "ja"
    deps.history.write_text(
        state["session_id"],
        "input.md",
        f"# {question}\n\n- language: {lang}\n- model: {state['model']}\n- asked: {now_iso()}\n"
        + (f"- parent session: {state['parent_session']}\n" if state.get("parent_session") else ""),
    )
    fallback = QueryPlan(queries=[PlannedQuery(text=question[:300], language=lang)])
    plan = await deps.model.structured(
        [
            {"role": "system", "content": QUERY_PLAN_SYSTEM[lang].format(other_name=LANGUAGE_NAMES[lang][other])},
            {"role": "user", "content": _with_context(question, state.get("conversation", []))},
        ],
        QueryPlan,
        node="input",
        fallback=fallback,
    )
    # search_results/documents may be seeded from a parent session: a follow-up reuses its sources.
    return {"queries": _with_original(plan.queries, question, lang), "loops": 0, "search_rounds": 0}


def _with_context(question: str, conversation: list[dict[str, str]]) -> str:
    """A follow-up like "もっと詳しく" only makes sense with the earlier question beside it."""
    if not conversation:
        return question
    earlier = "\n".join(f"- {turn['question']}" for turn in conversation[-3:])
    return f"{earlier}\n- {question}"


def _with_original(planned: list[PlannedQuery], question: str, lang: str) -> list[dict[str, str]]:
    """The user's own wording is always searched; model queries add to it, deduplicated."""
    queries = [{"text": question[:300], "language": lang}]
    seen = {question[:300].strip().lower()}
    for q in planned:
        key = q.text.strip().lower()
        if key and key not in seen:
            seen.add(key)
            queries.append({"text": q.text.strip(), "language": q.language})
    return queries[:4]

"""The graph's state. LangGraph silently drops keys a node returns that are not
declared here, so every key any node writes must be listed."""

from __future__ import annotations

import operator
from typing import Annotated, Any, TypedDict


class AgentState(TypedDict, total=False):
    # input node
    question: str
    language: str  # "ja" | "en"
    model: str
    session_id: str
    session_dir: str
    parent_session: str | None
    # Earlier turns of a REPL conversation: [{"question": ..., "answer": ...}], oldest first.
    conversation: list[dict[str, str]]
    depth: str  # "quick" | "standard" | "deep"
    # Sub-questions: [{"question": ..., "queries": [{"text", "language"}]}]; quick has one.
    plan: list[dict[str, Any]]
    review_plan: bool  # stop after planning for the user to review (plan_review node)
    plan_reviewed: bool
    # search node
    search_results: list[dict[str, Any]]  # SearchHit dicts, deduped by canonical URL
    search_rounds: int
    engines_used: list[str]
    # processing node
    documents: list[dict[str, Any]]  # Document dicts: the sources ledger, labels S1..Sn
    # llm node
    draft: str
    model_used: str
    # Where the read sources give different values for one figure or date (text/disagreements.py):
    # {"items": [{"dimension", "attribute", "certain", "positions": [{"value", "labels", "sentences"}]}],
    #  "facts", "certain_pairs", "borderline_pairs", "unresolved"}
    disagreements: dict[str, Any]
    # verification node
    verification: dict[str, Any]  # {"claims": [...], "summary": {...}, "follow_up_queries": [...]}
    follow_up_queries: list[dict[str, str]]
    loops: int  # verification loops that sent the run back to search
    route: str  # "search" | "report"
    # report node
    report_md: str
    report_pdf: str
    # all nodes
    # RunError dicts. A reducer: each node returns only the errors it adds, so two
    # writers can never drop each other's entries.
    errors: Annotated[list[dict[str, Any]], operator.add]
    usage: dict[str, dict[str, int]]  # per node: calls, prompt_tokens, completion_tokens
    # budgets (kept up to date by the graph's node wrapper, so they survive resume)
    elapsed_seconds: float  # time spent inside nodes so far, across processes
    llm_tokens: int  # prompt + completion tokens used so far, across processes
    budget_exhausted: str | None  # "seconds" | "tokens" | "sources" once a budget ran out
    # llm node: sentences rewritten for the style rules
    style_rewrites: list[dict[str, Any]]


def plan_queries_flat(plan: list[dict[str, Any]]) -> list[dict[str, str]]:
    """The first search round's queries: every sub-question's, in plan order, each text once.

    Derived from the plan whenever needed and never stored beside it, so an edited plan
    (plan review) cannot leave a stale copy of its queries behind.
    """
    seen: set[str] = set()
    flat = []
    for sub in plan:
        for q in sub.get("queries", []):
            if q["text"].lower() not in seen:
                seen.add(q["text"].lower())
                flat.append({"text": q["text"], "language": q["language"]})
    return flat

"""The research graph: input → [plan_review] → search → processing → llm → verification → (search | report).

Budgets (RESEARCH_MAX_SECONDS, _MAX_LLM_TOKENS, _MAX_SOURCES) are kept in state by the
node wrapper, and every edge after a working node goes straight to the report once one
ran out; the one exception is llm → verification, so no draft skips its checks. A spent
source budget only stops further searching: the sources already found are still read and used.
"""

from __future__ import annotations

import asyncio
import copy
import importlib
import time
from typing import Any, Awaitable, Callable

from langgraph.errors import GraphBubbleUp
from langgraph.graph import END, START, StateGraph

from research.nodes.dependencies import WorkflowDependencies
from research.state import AgentState
from research.state.agent_state import usage_since
from research.state.progress_log import record_step

Node = Callable[[AgentState, WorkflowDependencies], Awaitable[dict[str, Any]]]

# Where each node lives ("module:function"). A node's module is imported when the graph is
# built for it or, at the latest, when it first runs: the report's PDF library and the
# verifier need not be imported before the first step (see ``preload_nodes``).
NODES: dict[str, str] = {
    "input": "research.nodes.input:understand_question",
    "plan_review": "research.nodes.plan_review:review_plan",
    "search": "research.nodes.search:search_web",
    "processing": "research.nodes.processing:process_documents",
    "llm": "research.nodes.llm:draft_answer",
    "verification": "research.nodes.verification:verify_claims",
    "report": "research.nodes.report:write_report",
}


def load_node(where: str) -> Node:
    module, name = where.split(":")
    return getattr(importlib.import_module(module), name)


def preload_nodes() -> None:
    """Import every node's module (run in a thread while the first steps wait for I/O)."""
    for where in NODES.values():
        load_node(where)


def route_after_verification(state: AgentState) -> str:
    """Back to search for follow-up queries while the verifier asks for it (it bounds loops)."""
    if state.get("route") == "search" and not budget_stops(state, "search"):
        return "search"
    return "report"


def route_after_input(state: AgentState) -> str:
    if budget_stops(state, "search"):
        return "report"
    return "plan_review" if state.get("review_plan") else "search"


def budget_stops(state: AgentState, next_node: str) -> bool:
    """Whether a spent budget sends the run to the report instead of ``next_node``."""
    spent = state.get("budget_exhausted")
    return bool(spent) and (spent != "sources" or next_node == "search")


def onward(next_node: str) -> Callable[[AgentState], str]:
    def route(state: AgentState) -> str:
        return "report" if budget_stops(state, next_node) else next_node

    route.__name__ = f"to_{next_node}_or_report"
    return route


def _tokens(usage: dict[str, dict[str, int]]) -> int:
    return sum(entry.get("prompt_tokens", 0) + entry.get("completion_tokens", 0) for name, entry in usage.items()
               if name != "context_overflow")


def budget_update(state: AgentState, update: dict[str, Any], deps: WorkflowDependencies, seconds: float,
                  tokens: int) -> dict[str, Any]:
    """Add this node's time and tokens to the run's totals (in state, so they survive a
    resume) and name the budget that ran out, if one did."""
    settings = deps.settings
    elapsed = round(float(state.get("elapsed_seconds") or 0.0) + seconds, 3)
    used = int(state.get("llm_tokens") or 0) + tokens
    spent = update.get("budget_exhausted") or state.get("budget_exhausted")
    if spent in (None, "sources"):  # time and tokens stop everything, so they win over sources
        if settings.max_seconds is not None and elapsed >= settings.max_seconds:
            spent = "seconds"
        elif settings.max_llm_tokens is not None and used >= settings.max_llm_tokens:
            spent = "tokens"
    if spent and spent != state.get("budget_exhausted"):
        deps.history.append_event(state["session_id"], "budget_exhausted", budget=spent, elapsed_seconds=elapsed,
                                  llm_tokens=used)
        deps.progress("message", {"key": "budget.progress_" + spent})
    return {"elapsed_seconds": elapsed, "llm_tokens": used, "budget_exhausted": spent}


def bind(name: str, node: Node | str, deps: WorkflowDependencies) -> Callable[[AgentState], Awaitable[dict[str, Any]]]:
    """Give a node its dependencies and record start/end (with timing) in events.jsonl.
    ``node``: the function, or where it lives (imported off the event loop on first use)."""
    loaded: list[Node] = [node] if callable(node) else []

    async def run(state: AgentState) -> dict[str, Any]:
        session_id = state["session_id"]
        deps.history.append_event(session_id, "node_start", node=name)
        deps.progress("node_start", {"node": name})
        started = time.perf_counter()
        if not loaded:
            loaded.append(await asyncio.to_thread(load_node, str(node)))
        node_function = loaded[0]
        usage_before = copy.deepcopy(deps.model.usage)
        try:
            update = await node_function(state, deps)
        except GraphBubbleUp:  # an interrupt (plan review): a pause, not a failure
            deps.history.append_event(session_id, "node_paused", node=name)
            raise
        except BaseException as exc:
            deps.history.append_event(session_id, "node_error", node=name, error=type(exc).__name__, detail=str(exc)[:500])
            raise
        seconds = round(time.perf_counter() - started, 3)
        used = usage_since(usage_before, deps.model.usage)
        if used:
            update = {**update, "usage": used}  # a reducer adds it to the run's total
        if name != "report":
            update = {**update, **budget_update(state, update, deps, seconds, _tokens(used))}
        deps.history.append_event(session_id, "node_end", node=name, seconds=seconds)
        record_step(deps.history.path(session_id), name, state, update)  # progress.md, for people
        deps.progress("node_end", {"node": name, "seconds": seconds})
        return update

    run.__name__ = f"{name}_node"
    return run


def build_graph(deps: WorkflowDependencies, checkpointer: Any = None):
    graph = StateGraph(AgentState)
    for name, node in NODES.items():
        graph.add_node(name, bind(name, node, deps))
    graph.add_edge(START, "input")
    graph.add_conditional_edges("input", route_after_input, ["plan_review", "search", "report"])
    graph.add_edge("plan_review", "search")
    for source, target in (("search", "processing"), ("processing", "llm")):
        graph.add_conditional_edges(source, onward(target), [target, "report"])
    # A draft always goes through verification, budget or not: an unchecked draft must
    # never reach the report as fact. A spent budget only stops the follow-up rounds.
    graph.add_edge("llm", "verification")
    graph.add_conditional_edges("verification", route_after_verification, {"search": "search", "report": "report"})
    graph.add_edge("report", END)
    return graph.compile(checkpointer=checkpointer)

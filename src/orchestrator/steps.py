"""The steps of a run, without the graph: where each node lives and the wrapper that binds it.

Kept apart from ``graph.py`` so that a run can start its first step (planning) while
LangGraph, about a second of imports, is still loading in a thread: the runner binds the
input node here, runs it, and hands its result to the graph as that node's write
(``runner._run_graph``). Every other step runs inside the graph through the same wrapper.
"""

from __future__ import annotations

import asyncio
import copy
import importlib
import sys
import time
from typing import Any, Awaitable, Callable

from research.nodes.dependencies import WorkflowDependencies
from research.state import AgentState
from research.state.agent_state import usage_since
from research.state.progress_log import record_step
from research.state.progress_events import Message, NodeFinished, NodeStarted

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
        deps.progress(Message("budget.progress_" + spent))
    return {"elapsed_seconds": elapsed, "llm_tokens": used, "budget_exhausted": spent}


def _is_graph_pause(exc: BaseException) -> bool:
    """LangGraph's interrupt; the class exists only once LangGraph is loaded (it raised it)."""
    errors = sys.modules.get("langgraph.errors")
    return errors is not None and isinstance(exc, errors.GraphBubbleUp)


def bind(name: str, node: Node | str, deps: WorkflowDependencies) -> Callable[[AgentState], Awaitable[dict[str, Any]]]:
    """Give a node its dependencies and record start/end (with timing) in events.jsonl.
    ``node``: the function, or where it lives (imported off the event loop on first use)."""
    loaded: list[Node] = [node] if callable(node) else []

    async def run(state: AgentState) -> dict[str, Any]:
        session_id = state["session_id"]
        deps.history.append_event(session_id, "node_start", node=name)
        deps.progress(NodeStarted(name))
        started = time.perf_counter()
        if not loaded:
            loaded.append(await asyncio.to_thread(load_node, str(node)))
        node_function = loaded[0]
        usage_before = copy.deepcopy(deps.model.usage)
        try:
            update = await node_function(state, deps)
        except BaseException as exc:
            if _is_graph_pause(exc):  # an interrupt (plan review): a pause, not a failure
                deps.history.append_event(session_id, "node_paused", node=name)
                raise
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
        deps.progress(NodeFinished(name, seconds))
        return update

    run.__name__ = f"{name}_node"
    return run



"""The wrapper that binds each step of a run to its dependencies, without the graph.

Kept apart from ``graph.py`` so that a run can start its first step (planning) while
LangGraph and the other nodes, about a second of imports, are still loading in a thread:
the runner binds the input node here, runs it, and hands its result to the graph as that
node's write (``runner._run_graph``). Every other step runs inside the graph through the
same wrapper, which also keeps the budgets: a node that names where to go next (a
``Command``) is sent to the report instead once a budget stops that step.
"""

from __future__ import annotations

import asyncio
import copy
import logging
import sys
import time
from typing import Any, Awaitable, Callable, Protocol, cast

from research.modules.core.logs import said
from research.workflow.dependencies import WorkflowDependencies
from research.state import AgentState
from research.state.agent_state import usage_since
from research.state.progress_log import record_step
from research.state.progress_events import Message, NodeFinished, NodeStarted
from research.state.steps import step_variant

log = logging.getLogger(__name__)

# A node: its state update, or (the verifier) a LangGraph ``Command`` naming the next node.
Node = Callable[[AgentState, WorkflowDependencies], Awaitable[Any]]


def _tokens(usage: dict[str, dict[str, int]]) -> int:
    return sum(entry.get("prompt_tokens", 0) + entry.get("completion_tokens", 0) for name, entry in usage.items()
               if name != "context_overflow")


def tokens_used(state: AgentState) -> int:
    """Prompt and completion tokens the run used so far, across processes (from ``usage``)."""
    return _tokens(state.get("usage") or {})


def budget_stops(state: AgentState, next_node: str) -> bool:
    """Whether a spent budget sends the run to the report instead of ``next_node``: time and
    tokens stop every step; a spent source budget stops only further searching."""
    spent = state.get("budget_exhausted")
    return bool(spent) and (spent != "sources" or next_node == "search")


def budget_update(state: AgentState, update: AgentState, deps: WorkflowDependencies, seconds: float,
                  tokens: int) -> AgentState:
    """Add this node's time and tokens to the run's totals (in state, so they survive a
    resume) and name the budget that ran out, if one did."""
    settings = deps.settings
    elapsed = round(float(state.get("elapsed_seconds") or 0.0) + seconds, 3)
    used = tokens_used(state) + tokens
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
    return AgentState(elapsed_seconds=elapsed, budget_exhausted=spent)


def _is_graph_pause(exc: BaseException) -> bool:
    """LangGraph's interrupt; the class exists only once LangGraph is loaded (it raised it)."""
    errors = sys.modules.get("langgraph.errors")
    return errors is not None and isinstance(exc, errors.GraphBubbleUp)


def _as_command(result: Any) -> Any:
    """``result`` when it is a LangGraph ``Command`` (only a node inside the graph returns
    one, so LangGraph is loaded then), else None."""
    types = sys.modules.get("langgraph.types")
    return result if types is not None and isinstance(result, types.Command) else None


class BoundStep(Protocol):
    """A step as the graph calls it: LangGraph may pass the state by its name, ``state``."""

    def __call__(self, state: AgentState) -> Awaitable[Any]: ...


def bind(name: str, node: Node, deps: WorkflowDependencies) -> BoundStep:
    """Give a node its dependencies and record start/end (with timing) in events.jsonl."""

    async def run(state: AgentState) -> Any:
        session_id = state["session_id"]
        deps.history.append_event(session_id, "node_start", node=name)
        variant = step_variant(name, deps.settings)
        deps.progress(NodeStarted(name, variant))
        log.info(said("log.step_started", step=name, session_id=session_id))
        started = time.perf_counter()
        usage_before = copy.deepcopy(deps.model.usage)
        try:
            # One turn of the event loop first: what the start event set going (a one-shot run's
            # servers told to leave as its report begins) goes on while a node that never awaits
            # (the report) holds the loop.
            await asyncio.sleep(0)
            result = await node(state, deps)
        except BaseException as exc:
            if _is_graph_pause(exc):  # an interrupt (plan review): a pause, not a failure
                deps.history.append_event(session_id, "node_paused", node=name)
                log.info(said("log.step_paused", step=name))
                raise
            deps.history.append_event(session_id, "node_error", node=name, error=type(exc).__name__, detail=str(exc)[:500])
            log.info(said("log.step_stopped", step=name, seconds=f"{time.perf_counter() - started:.1f}",
                          error=f"{type(exc).__name__}: {str(exc)[:200]}"))
            raise
        command = _as_command(result)
        # A node's update is part of the state (LangGraph merges it): its keys are AgentState's.
        update: AgentState = cast(AgentState, dict(command.update or {})) if command is not None else result
        seconds = round(time.perf_counter() - started, 3)
        used = usage_since(usage_before, deps.model.usage)
        if used:
            update = {**update, "usage": used}  # a reducer adds it to the run's total
        if name != "report":
            update = {**update, **budget_update(state, update, deps, seconds, _tokens(used))}
        deps.history.append_event(session_id, "node_end", node=name, seconds=seconds)
        log.info(said("log.step_finished", step=name, seconds=f"{seconds:.1f}", calls=tuple(
            said("log.step_calls", node=node, calls=entry.get("calls", 0), prompt=entry.get("prompt_tokens", 0),
                 completion=entry.get("completion_tokens", 0)) for node, entry in used.items())))
        record_step(deps.history.path(session_id), name, state, update)  # progress.md, for people
        deps.progress(NodeFinished(name, seconds, variant=variant))
        if command is None:
            return update
        goto = command.goto
        if isinstance(goto, str) and budget_stops(cast(AgentState, {**state, **update}), goto):
            goto = "report"  # a budget ran out: the node's choice gives way to the report
        return type(command)(goto=goto, update=update)

    run.__name__ = f"{name}_node"
    return run



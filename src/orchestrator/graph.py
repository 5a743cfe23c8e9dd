"""The research graph: input → search → processing → llm → verification → (search | report)."""

from __future__ import annotations

import time
from typing import Any, Awaitable, Callable

from langgraph.graph import END, START, StateGraph

from ..nodes.dependencies import WorkflowDependencies
from ..nodes.input import understand_question
from ..nodes.llm import draft_answer
from ..nodes.processing import process_documents
from ..nodes.report import write_report
from ..nodes.search import search_web
from ..nodes.verification import verify_claims
from ..state import AgentState

Node = Callable[[AgentState, WorkflowDependencies], Awaitable[dict[str, Any]]]

NODES: dict[str, Node] = {
    "input": understand_question,
    "search": search_web,
    "processing": process_documents,
    "llm": draft_answer,
    "verification": verify_claims,
    "report": write_report,
}


def route_after_verification(state: AgentState) -> str:
    """Back to search for follow-up queries while the verifier asks for it (it bounds loops)."""
    return "search" if state.get("route") == "search" else "report"


def bind(name: str, node: Node, deps: WorkflowDependencies) -> Callable[[AgentState], Awaitable[dict[str, Any]]]:
    """Give a node its dependencies and record start/end (with timing) in events.jsonl."""

    async def run(state: AgentState) -> dict[str, Any]:
        session_id = state["session_id"]
        deps.history.append_event(session_id, "node_start", node=name)
        deps.progress("node_start", {"node": name})
        started = time.perf_counter()
        try:
            update = await node(state, deps)
        except BaseException as exc:
            deps.history.append_event(session_id, "node_error", node=name, error=type(exc).__name__, detail=str(exc)[:500])
            raise
        seconds = round(time.perf_counter() - started, 3)
        deps.history.append_event(session_id, "node_end", node=name, seconds=seconds)
        deps.progress("node_end", {"node": name, "seconds": seconds})
        return update

    run.__name__ = f"{name}_node"
    return run


def build_graph(deps: WorkflowDependencies, checkpointer: Any = None):
    graph = StateGraph(AgentState)
    for name, node in NODES.items():
        graph.add_node(name, bind(name, node, deps))
    graph.add_edge(START, "input")
    graph.add_edge("input", "search")
    graph.add_edge("search", "processing")
    graph.add_edge("processing", "llm")
    graph.add_edge("llm", "verification")
    graph.add_conditional_edges("verification", route_after_verification, {"search": "search", "report": "report"})
    graph.add_edge("report", END)
    return graph.compile(checkpointer=checkpointer)

"""The research graph: input → [plan_review] → search → processing → llm → verification → (search | report).

Budgets (RESEARCH_MAX_SECONDS, _MAX_LLM_TOKENS, _MAX_SOURCES) are kept in state by the
node wrapper, and every edge after a working node goes straight to the report once one
ran out; the one exception is llm → verification, so no draft skips its checks. A spent
source budget only stops further searching: the sources already found are still read and used.
"""

from __future__ import annotations

from typing import Any, Callable

from langgraph.graph import END, START, StateGraph

from research.nodes.dependencies import WorkflowDependencies
from research.orchestrator.steps import NODES, bind
from research.state import AgentState


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

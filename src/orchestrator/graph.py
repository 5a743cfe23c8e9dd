"""The research graph: input → [plan_review] → search → processing → llm → verification → (search | report).

The verifier decides whether another search round is worth it and returns that decision as
a ``Command`` naming the next node (its return type lists the two it may name); nothing
about the route is kept in state. Budgets (RESEARCH_MAX_SECONDS, _MAX_LLM_TOKENS,
_MAX_SOURCES) are kept in state by the node wrapper (``steps.bind``), which sends such a
Command to the report once one ran out; every edge after a working node does the same. The
one exception is llm → verification, so no draft skips its checks. A spent source budget
only stops further searching: the sources already found are still read and used.

The steps themselves (names, order, what each writes, their progress labels) are declared
once in ``state/steps.py``; here each name is bound to its node function and wired.

This module is imported in a thread while the first step runs (``runner``): it loads
LangGraph and every node but the first, which the runner binds itself.
"""

from __future__ import annotations

from typing import Any, Callable, Literal, get_args, get_origin, get_type_hints

from langgraph.graph import END, START, StateGraph
from langgraph.types import Command

from research.nodes.dependencies import WorkflowDependencies
from research.nodes.input import understand_question
from research.nodes.llm import draft_answer
from research.nodes.plan_review import review_plan
from research.nodes.processing import process_documents
from research.nodes.report import write_report
from research.nodes.search import search_web
from research.nodes.verification import verify_claims
from research.orchestrator.steps import Node, bind, budget_stops
from research.state import AgentState
from research.state.steps import STEPS, StepName

# Each step's node function, in the table's order (tests/test_step_table.py holds them equal).
NODES: dict[StepName, Node] = {
    "input": understand_question,
    "plan_review": review_plan,
    "search": search_web,
    "processing": process_documents,
    "llm": draft_answer,
    "verification": verify_claims,
    "report": write_report,
}


def route_after_input(state: AgentState) -> Literal["plan_review", "search", "report"]:
    if budget_stops(state, "search"):
        return "report"
    return "plan_review" if state.get("review_plan") else "search"


def onward(next_node: StepName) -> Callable[[AgentState], str]:
    def route(state: AgentState) -> str:
        return "report" if budget_stops(state, next_node) else next_node

    route.__name__ = f"to_{next_node}_or_report"
    return route


def command_targets(node: Node) -> tuple[str, ...] | None:
    """The nodes a node may send the run to, from its ``Command[Literal[...]]`` return type
    (None for a node that returns a plain update). LangGraph reads this from the function it
    is given, but it is given the wrapper from ``bind``, so the graph passes them on."""
    returns = get_type_hints(node).get("return")
    if get_origin(returns) is not Command:
        return None
    (targets,) = get_args(returns)
    return get_args(targets)


def build_graph(deps: WorkflowDependencies, checkpointer: Any = None):
    graph = StateGraph(AgentState)
    for step in STEPS:
        node = NODES[step.name]
        graph.add_node(step.name, bind(step.name, node, deps), destinations=command_targets(node))
    graph.add_edge(START, "input")
    graph.add_conditional_edges("input", route_after_input, ["plan_review", "search", "report"])
    graph.add_edge("plan_review", "search")
    for source, target in (("search", "processing"), ("processing", "llm")):
        graph.add_conditional_edges(source, onward(target), [target, "report"])
    # A draft always goes through verification, budget or not: an unchecked draft must
    # never reach the report as fact. A spent budget only stops the follow-up rounds.
    graph.add_edge("llm", "verification")
    # verification → search | report: the verifier's Command (see its return type).
    graph.add_edge("report", END)
    return graph.compile(checkpointer=checkpointer)

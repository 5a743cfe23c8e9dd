"""The research graph: input → [plan_review] → search → processing → compare → llm → verification → (search | report).

The verifier decides whether another search round is worth it and returns that decision as
a ``Command`` naming the next node (its return type lists the two it may name); nothing
about the route is kept in state. Budgets (RESEARCH_MAX_SECONDS, _MAX_LLM_TOKENS,
_MAX_SOURCES) are kept in state by the node wrapper (``steps.bind``), which sends such a
Command to the report once one ran out; every edge after a working node does the same. The
one exception is llm → verification, so no draft skips its checks. A spent source budget
only stops further searching: the sources already found are still read and used.

The steps themselves (names, node functions, order, what each writes, their progress labels,
which are asked for and where a spent budget may end the run) are declared once in
``state/steps.py``; here each node function is imported and the steps are wired in the
table's order, so a new step is a node module and a row of that table.

This module is imported in a thread while the first step runs (``runner``): it loads
LangGraph and every node but the first, which the runner binds itself.
"""

from __future__ import annotations

import importlib
from typing import Any, Callable, get_args, get_origin, get_type_hints

from langgraph.graph import END, START, StateGraph
from langgraph.types import Command

from research.workflow.dependencies import WorkflowDependencies
from research.orchestrator.steps import Node, bind, budget_stops
from research.state import AgentState
from research.state.steps import REPORT, STEPS, Step, StepName


def _node_function(step: Step) -> Node:
    module, _, name = step.node.partition(":")
    return getattr(importlib.import_module(module), name)


# Each step's node function, in the table's order.
NODES: dict[StepName, Node] = {step.name: _node_function(step) for step in STEPS}


def command_targets(node: Node) -> tuple[str, ...] | None:
    """The nodes a node may send the run to, from its ``Command[Literal[...]]`` return type
    (None for a node that returns a plain update). LangGraph reads this from the function it
    is given, but it is given the wrapper from ``bind``, so the graph passes them on."""
    returns = get_type_hints(node).get("return")
    if get_origin(returns) is not Command:
        return None
    (targets,) = get_args(returns)
    return get_args(targets)


def next_steps(position: int) -> tuple[list[Step], StepName]:
    """After the step at ``position`` of the table: the steps asked for by a state key that
    may come first (plan review), and the next step of every run."""
    asked: list[Step] = []
    for step in STEPS[position + 1:]:
        if step.in_plain_run:
            return asked, step.name
        asked.append(step)
    raise ValueError(f"no step of every run after {STEPS[position].name}")


def route_after(step: Step, asked: list[Step], following: StepName) -> Callable[[AgentState], str]:
    """A spent budget goes to the report (where the step allows it), a step asked for by the
    state comes next when asked, else the next step of every run."""

    def route(state: AgentState) -> str:
        if step.report_when_spent and budget_stops(state, following):
            return REPORT
        return next((other.name for other in asked if other.asked_by is not None and state.get(other.asked_by)),
                    following)

    route.__name__ = f"after_{step.name}"
    return route


def build_graph(deps: WorkflowDependencies, checkpointer: Any = None):
    graph = StateGraph(AgentState)
    for step in STEPS:
        node = NODES[step.name]
        graph.add_node(step.name, bind(step.name, node, deps), destinations=command_targets(node))
    graph.add_edge(START, STEPS[0].name)
    for position, step in enumerate(STEPS):
        if step.name == REPORT:
            graph.add_edge(REPORT, END)
        elif command_targets(NODES[step.name]) is None:  # else its Command names where the run goes
            asked, following = next_steps(position) if step.in_plain_run else ([], next_steps(position)[1])
            targets: list[str] = [other.name for other in asked]
            targets += [following] + ([REPORT] if step.report_when_spent else [])
            if len(targets) == 1:
                graph.add_edge(step.name, following)
            else:
                graph.add_conditional_edges(step.name, route_after(step, asked, following), targets)
    return graph.compile(checkpointer=checkpointer)

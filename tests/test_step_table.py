"""One step table (state/steps.py): every step is declared once, and the graph, progress.md,
the research server's progress and the message catalogue agree with it."""

from __future__ import annotations

import ast
import inspect
import logging
import subprocess
import sys
import textwrap
from collections.abc import Callable
from typing import Any, get_args

import pytest
from fixtures.fake_model import FakeModel
from research.modules.core import i18n
from research.modules.core.i18n import MESSAGES, MissingMessage, t
from research.orchestrator.graph import NODES
from research.servers.research.server import (
    PROGRESS_TOTAL,
    ROUND_STEPS,
    RUN_STEPS,
    ProgressBar,
)
from research.state.agent_state import AgentState
from research.state.progress_events import NodeFinished, NodeStarted, SessionStarted
from research.state.progress_log import render_section
from research.state.steps import (
    FOLLOW_UP_ROUND,
    PLAIN_RUN,
    STEP_BY_NAME,
    STEPS,
    WRAPPER_WRITES,
    StepName,
)

# What the runner puts into the state before the first step (orchestrator/runner._initial_state,
# with a follow-up's sources seeded from its parent session).
RUN_INPUTS = {"question", "language", "model", "session_id", "session_dir", "parent_session", "conversation",
              "depth", "review_plan", "errors", "search_results", "documents"}


def test_the_graph_binds_a_function_to_every_step_in_the_tables_order():
    names = tuple(step.name for step in STEPS)
    assert names == get_args(StepName)
    assert tuple(NODES) == names
    assert PLAIN_RUN == ("input", "search", "processing", "compare", "llm", "verification", "report")
    assert FOLLOW_UP_ROUND == ("search", "processing", "compare", "llm", "verification")


def test_the_built_graph_has_exactly_the_steps():
    from fixtures.memory_history import MemoryHistory
    from research.modules.core.settings import Settings
    from research.workflow.dependencies import WorkflowDependencies
    from research.orchestrator.graph import build_graph

    deps = WorkflowDependencies(settings=Settings(), model=FakeModel(strict=True), web_search=None, parser=None,
                                history=MemoryHistory(), progress=lambda event: None)
    graph = build_graph(deps).get_graph()
    assert set(graph.nodes) - {"__start__", "__end__"} == set(STEP_BY_NAME)


@pytest.mark.parametrize("lang", ["ja", "en"])
@pytest.mark.parametrize("step", STEPS, ids=lambda step: step.name)
def test_every_step_has_its_label_and_heading_in_both_languages(step, lang):
    for key in (step.label_key, step.heading_key):
        assert key in MESSAGES and MESSAGES[key].get(lang, "").strip(), key
    assert "{" not in t(step.heading_key, lang, round=2)
    heading = render_section(step.name, {"language": lang}, {}, lang).splitlines()[0]
    assert heading.startswith("## " + t(step.heading_key, lang, round=1))


def test_what_each_step_writes_is_state_and_every_state_key_has_a_writer():
    declared = set(AgentState.__annotations__)
    for step in STEPS:
        assert set(step.writes) <= declared, (step.name, set(step.writes) - declared)
    written = {key for step in STEPS for key in step.writes} | set(WRAPPER_WRITES)
    assert declared - written - RUN_INPUTS == set()


def _returned_keys(node: Callable[..., Any]) -> set[str]:
    """The literal keys a node function returns: in a returned dict (or a Command's update),
    or set on the variable it returns. Nested functions are not the node's return."""
    body = ast.parse(textwrap.dedent(inspect.getsource(node))).body[0]
    statements: list[ast.AST] = []

    def walk(tree: ast.AST) -> None:
        for child in ast.iter_child_nodes(tree):
            if not isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef)):
                statements.append(child)
                walk(child)

    def keys(value: ast.AST) -> set[str]:
        if isinstance(value, ast.Dict):
            return {k.value for k in value.keys if isinstance(k, ast.Constant) and isinstance(k.value, str)}
        return set()

    walk(body)
    found: set[str] = set()
    returned: set[str] = set()
    for statement in statements:
        if isinstance(statement, ast.Return) and statement.value is not None:
            value = statement.value
            if isinstance(value, ast.Call):  # Command(goto=..., update=...)
                value = next((kw.value for kw in value.keywords if kw.arg == "update"), value)
            found |= keys(value)
            if isinstance(value, ast.Name):
                returned.add(value.id)
    for statement in statements:
        if isinstance(statement, (ast.Assign, ast.AnnAssign)):
            for target in statement.targets if isinstance(statement, ast.Assign) else [statement.target]:
                if isinstance(target, ast.Name) and target.id in returned:
                    found |= keys(statement.value)
                elif (isinstance(target, ast.Subscript) and isinstance(target.value, ast.Name)
                      and target.value.id in returned and isinstance(target.slice, ast.Constant)):
                    found.add(target.slice.value)
    return found


@pytest.mark.parametrize("step", STEPS, ids=lambda step: step.name)
def test_the_table_says_what_each_node_returns(step):
    assert _returned_keys(NODES[step.name]) == set(step.writes)


def _bar_values(events: list[Any]) -> list[float]:
    bar = ProgressBar()
    return [bar.advance(event)[0] for event in events]


def _steps(*names: str) -> list[Any]:
    return [event for name in names for event in (NodeStarted(name), NodeFinished(name, 0.1))]


def test_progress_grows_to_the_end_with_plan_review_and_a_follow_up_round():
    assert RUN_STEPS == PLAIN_RUN and ROUND_STEPS == len(FOLLOW_UP_ROUND)
    events = [SessionStarted("s"), *_steps("input", "plan_review", *FOLLOW_UP_ROUND, *FOLLOW_UP_ROUND, "report")]
    values = _bar_values(events)
    assert values == sorted(values) and len(set(values)) == len(values)
    assert values[-1] == PROGRESS_TOTAL and values[-2] < 99
    # Plan review takes a share of its own: the search starts further from the end than without it.
    plain = _bar_values([SessionStarted("s"), *_steps("input", "search")])
    reviewed = _bar_values([SessionStarted("s"), *_steps("input", "plan_review", "search")])
    assert reviewed[-1] - reviewed[-3] < plain[-1] - plain[-3]


def test_a_missing_message_fails_under_the_tests_and_shows_the_key_to_a_user(monkeypatch, caplog):
    assert i18n.STRICT  # tests/conftest.py turned it on
    with pytest.raises(MissingMessage):
        t("progress.no_such_step", "en")
    monkeypatch.setattr(i18n, "STRICT", False)
    with caplog.at_level(logging.WARNING, logger="research.modules.core.i18n"):
        assert t("progress.no_such_step", "ja") == "progress.no_such_step"
    assert "progress.no_such_step" in caplog.text


def test_the_step_table_does_not_load_langgraph():
    code = "import sys, research.state.steps, research.state.progress_log; print('langgraph' in sys.modules)"
    shown = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert shown.strip() == "False"


def _edges(graph) -> set[tuple[str, str]]:
    return {(edge.source, edge.target) for edge in graph.get_graph().edges}


def _deps():
    from fixtures.memory_history import MemoryHistory
    from research.modules.core.settings import Settings
    from research.workflow.dependencies import WorkflowDependencies

    return WorkflowDependencies(settings=Settings(), model=FakeModel(strict=True), web_search=None, parser=None,
                                history=MemoryHistory(), progress=lambda event: None)


def test_the_graph_is_wired_from_the_table_alone():
    from research.orchestrator.graph import build_graph

    assert _edges(build_graph(_deps())) == {
        ("__start__", "input"),
        ("input", "plan_review"), ("input", "search"), ("input", "report"),  # review asked for; budget spent
        ("plan_review", "search"),
        ("search", "processing"), ("search", "report"),
        ("processing", "compare"), ("processing", "report"),
        ("compare", "llm"), ("compare", "report"),
        ("llm", "verification"),  # never straight to the report: no draft skips its checks
        ("verification", "search"), ("verification", "report"),  # its Command
        ("report", "__end__"),
    }


def test_a_step_added_to_the_table_is_run_between_its_neighbours(monkeypatch):
    """What adding a step costs: its node and its row (plus its messages and a test)."""
    import dataclasses

    from research.orchestrator import graph as graph_module
    from research.state import steps

    async def rank_sources(state, deps):
        return {"documents": []}

    row = dataclasses.replace(STEP_BY_NAME["processing"], name="rank", node="test_step_table:rank_sources",
                              writes=("documents",), in_follow_up_round=True)
    table = (*STEPS[:4], row, *STEPS[4:])
    monkeypatch.setattr(graph_module, "STEPS", table)
    monkeypatch.setattr(steps, "STEPS", table)
    monkeypatch.setitem(graph_module.NODES, "rank", rank_sources)
    edges = _edges(graph_module.build_graph(_deps()))
    assert {("processing", "rank"), ("rank", "compare"), ("rank", "report")} <= edges
    assert ("processing", "compare") not in edges

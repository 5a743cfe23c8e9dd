"""The graph's contracts as types (issue 25, "types where strings decide"): the verifier
names the next node with a Command whose return type lists where it may go, a budget
still overrides it, the state merges what nodes add through reducers, and progress events
are classes that survive the run queue's (name, payload) form."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from langgraph.types import Command

from fixtures.fake_model import FakeModel
from fixtures.memory_history import MemoryHistory
from research.state.models import Document, FollowUpQuery, Query, SubQuestionPlan
from research.modules.core.settings import Settings
from research.workflow.dependencies import WorkflowDependencies
from research.orchestrator.graph import NODES, build_graph, command_targets
from research.orchestrator.steps import bind, tokens_used
from research.state.session_folder import HistoryManager
from research.state.agent_state import AgentState, add_new_by_url, queries_for_round
from research.state.progress_events import (
    EVENT_TYPES,
    Message,
    NodeFinished,
    NodeStarted,
    Resuming,
    ServersStarting,
    SessionStarted,
    Token,
    from_wire,
    to_wire,
)


def _deps(folder: Path | None = None, **settings: Any) -> tuple[WorkflowDependencies, list[Any], str]:
    """Dependencies with a real session folder (the wrapper writes progress.md there)."""
    said: list[Any] = []
    history = HistoryManager(folder) if folder else MemoryHistory()
    session_id = history.create(question="q", language="en", model="m").session_id if folder else "s"
    deps = WorkflowDependencies(settings=Settings(**settings), model=FakeModel(), web_search=None, parser=None,
                                history=history, progress=said.append)
    return deps, said, session_id


async def _wants_search(state: AgentState, deps: WorkflowDependencies) -> Command:
    """A verifier that asks for another search round."""
    return Command(goto="search", update={"follow_up_queries": [FollowUpQuery(text="q", language="en", round=2)]})


def test_the_verifier_declares_where_it_may_send_the_run_and_no_route_is_kept_in_state():
    assert command_targets(NODES["verification"]) == ("search", "report")
    assert all(command_targets(node) is None for name, node in NODES.items() if name != "verification")
    assert "route" not in AgentState.__annotations__ and "loops" not in AgentState.__annotations__
    graph = build_graph(_deps()[0]).get_graph()
    assert {(edge.source, edge.target) for edge in graph.edges if edge.source == "verification"} == {
        ("verification", "search"), ("verification", "report")}


@pytest.mark.parametrize("spent, goes_to", [(None, "search"), ("sources", "report"), ("tokens", "report"),
                                            ("seconds", "report")])
async def test_a_spent_budget_turns_the_verifiers_search_into_the_report(tmp_path, spent, goes_to):
    deps, said, session_id = _deps(tmp_path)
    step = bind("verification", _wants_search, deps)
    result = await step({"session_id": session_id, "budget_exhausted": spent})
    assert isinstance(result, Command) and result.goto == goes_to
    assert result.update["follow_up_queries"][0].text == "q"  # the update is kept either way
    assert [type(event) for event in said] == [NodeStarted, NodeFinished]


async def test_a_budget_that_runs_out_in_the_step_itself_also_overrides_it(tmp_path):
    deps, _, session_id = _deps(tmp_path, max_seconds=60)
    result = await bind("verification", _wants_search, deps)({"session_id": session_id, "elapsed_seconds": 60.0})
    assert result.goto == "report" and result.update["budget_exhausted"] == "seconds"


def test_sources_and_hits_are_merged_by_url_so_a_repeated_step_adds_nothing():
    def source(url: str, label: str) -> Document:
        return Document(label=label, url=url, canonical_url=url)

    first = [source("https://a.example/", "S1"), source("https://b.example/", "S2")]
    again = [source("https://b.example/", "S9"), source("https://c.example/", "S3")]
    merged = add_new_by_url(first, again)
    assert [d.label for d in merged] == ["S1", "S2", "S3"]
    assert add_new_by_url(merged, again) == merged


def test_each_search_round_takes_its_own_queries():
    state: Any = {"plan": [SubQuestionPlan(question="q", queries=[Query(text="Fuji height", language="en")])],
                  "follow_up_queries": [FollowUpQuery(text="Fuji 1707", language="en", round=2),
                                        FollowUpQuery(text="富士山 宝永", language="ja", round=3)]}
    assert [q.text for q in queries_for_round(state, 1)] == ["Fuji height"]
    assert [q.text for q in queries_for_round(state, 2)] == ["Fuji 1707"]
    assert queries_for_round(state, 3) == [Query(text="富士山 宝永", language="ja")]


def test_tokens_used_is_the_usage_summed_without_the_overflow_counter():
    state: Any = {"usage": {"llm": {"prompt_tokens": 100, "completion_tokens": 20, "calls": 1},
                            "verification": {"prompt_tokens": 5, "completion_tokens": 1},
                            "context_overflow": {"prompt_tokens": 999}}}
    assert tokens_used(state) == 126 and tokens_used({}) == 0


@pytest.mark.parametrize("event", [
    SessionStarted("20250101_000000_abcdef", "/tmp/s", "ja"), ServersStarting(), Resuming("x", ("llm", "verification")),
    NodeStarted("search"), NodeFinished("search", 1.5), Token("富士山"),
    Message("terminal.search_failed", {"count": 1, "total": 2, "reason": "timeout"}),
])
def test_every_event_survives_the_run_queues_json(event):
    name, payload = to_wire(event)
    assert from_wire(name, json.loads(json.dumps(payload))) == event


def test_an_unknown_or_malformed_stored_event_is_none_not_a_crash():
    assert from_wire("node_begin", {"node": "x"}) is None
    assert from_wire("node_start", {"nod": "x"}) is None
    assert from_wire("message", {"count": 1}) is None
    assert set(EVENT_TYPES) == {"session", "servers_starting", "resuming", "node_start", "node_end", "token", "message"}


def test_problems_are_read_from_the_errors_kind_and_old_checkpoints_still_read():
    from research.state.models import ProblemKind, RunError
    from research.state.run_problems import error_kind, run_problems, search_unreachable

    errors = [RunError(node="search", kind=ProblemKind.SEARCH, message="timeout", target="富士山 標高").as_state(),
              RunError(node="search", kind=ProblemKind.SEARCH, message="timeout", target="Fuji height").as_state(),
              RunError(node="search", kind=ProblemKind.SEARCH_FALLBACK, message="DuckDuckGo failed").as_state(),
              RunError(node="processing", kind=ProblemKind.READ, message="404", target="https://a.example/").as_state()]
    assert all(type(e["kind"]) is str for e in errors)  # a checkpoint holds plain strings
    problems = run_problems({"errors": errors, "budget_exhausted": "tokens"})
    assert [(p.kind, p.queries) for p in problems] == [("search_fallback", None), ("search", 2), ("budget", None)]
    assert search_unreachable({"errors": errors}) and not search_unreachable({"errors": errors[2:]})
    # Written before errors had a kind: the target or the node said it.
    assert error_kind({"node": "search", "target": "engine_note", "message": "m"}) == ProblemKind.SEARCH_FALLBACK
    assert error_kind({"node": "search", "target": "a query", "message": "m"}) == ProblemKind.SEARCH
    assert error_kind({"node": "llm", "target": "context", "message": "m"}) == ProblemKind.CONTEXT
    assert error_kind({"node": "processing", "target": "https://a.example/", "message": "m"}) is None

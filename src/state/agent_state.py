"""The graph's state. LangGraph silently drops keys a node returns that are not
declared here, so every key any node writes must be listed."""

from __future__ import annotations

import json
import operator
from collections.abc import Mapping
from typing import Annotated, Any, TypeVar

from pydantic import TypeAdapter

# pydantic validates a TypedDict from typing_extensions only (before Python 3.12): the
# checkpoints are checked against this very class (orchestrator/checkpoints.py).
from typing_extensions import TypedDict

from research.state.models import (
    Budget,
    Depth,
    Disagreements,
    Document,
    FollowUpQuery,
    Language,
    Query,
    RunError,
    SearchHit,
    StyleRewrite,
    SubQuestionPlan,
    Turn,
    VerificationResult,
)


def add_usage(total: dict[str, dict[str, int]] | None, more: dict[str, dict[str, int]] | None) -> dict[str, dict[str, int]]:
    """Per-node usage counters added up (the reducer of ``usage``)."""
    merged = {node: dict(entry) for node, entry in (total or {}).items()}
    for node, entry in (more or {}).items():
        into = merged.setdefault(node, {})
        for key, value in entry.items():
            into[key] = into.get(key, 0) + value
    return merged


Source = TypeVar("Source", SearchHit, Document)


def add_new_by_url(known: list[Source] | None, more: list[Source] | None) -> list[Source]:
    """The reducer of ``search_results`` and ``documents``: entries whose canonical URL is not
    there yet are appended, in order. A node returns only what it found; a repeated or
    resumed step can never store a source twice, nor renumber the ones already labelled."""
    merged = list(known or [])
    seen = {entry.canonical_url or entry.url for entry in merged}
    for entry in more or []:
        key = entry.canonical_url or entry.url
        if key not in seen:
            seen.add(key)
            merged.append(entry)
    return merged


def usage_since(before: dict[str, dict[str, int]], after: dict[str, dict[str, int]]) -> dict[str, dict[str, int]]:
    """What ``after`` counted beyond ``before`` (both a ModelManager's ``usage``), non-zero entries only."""
    delta: dict[str, dict[str, int]] = {}
    for node, entry in after.items():
        earlier = before.get(node, {})
        changed = {key: value - earlier.get(key, 0) for key, value in entry.items() if value != earlier.get(key, 0)}
        if changed:
            delta[node] = changed
    return delta


class AgentState(TypedDict, total=False):
    # input node
    question: str
    language: Language
    model: str
    session_id: str
    session_dir: str
    parent_session: str | None
    conversation: list[Turn]  # earlier turns of a REPL conversation, oldest first
    depth: Depth
    plan: list[SubQuestionPlan]  # quick has one: the question itself
    review_plan: bool  # stop after planning for the user to review (plan_review node)
    plan_reviewed: bool
    # search node
    search_results: Annotated[list[SearchHit], add_new_by_url]
    # Search rounds run so far: 1 after the first, one more per follow-up round (so the
    # verification loops that ran are this less one; nothing else counts them).
    search_rounds: int
    engines_used: list[str]
    # processing node
    documents: Annotated[list[Document], add_new_by_url]  # the sources ledger, labels S1..Sn
    # llm node
    draft: str
    model_used: str
    # Where the read sources give different values for one figure or date (text/disagreements.py)
    disagreements: Disagreements
    # verification node
    verification: VerificationResult
    # Every follow-up query asked so far, each with the search round it is for (2 for the
    # first follow-up round). An adding reducer: the verifier returns only the next round's.
    # (Where to go next is not state: the verifier returns a Command naming the node, see
    # orchestrator/graph.py.)
    follow_up_queries: Annotated[list[FollowUpQuery], operator.add]
    # report node
    report_md: str
    report_pdf: str
    # all nodes
    # A reducer: each node returns only the errors it adds, so two writers can never drop
    # each other's entries.
    errors: Annotated[list[RunError], operator.add]
    # Per node: calls, prompt_tokens, completion_tokens, model_ms, fallbacks. A reducer that
    # adds: the node wrapper returns each step's own use, so a resumed run reports the
    # whole run's, not only what its own process spent.
    usage: Annotated[dict[str, dict[str, int]], add_usage]
    # budgets (kept up to date by the graph's node wrapper, so they survive resume)
    elapsed_seconds: float  # time spent inside nodes so far, across processes
    # (The tokens used so far are summed from ``usage``: see orchestrator/steps.tokens_used.)
    budget_exhausted: Budget | None  # once a budget ran out
    # llm node: sentences rewritten for the style rules
    style_rewrites: list[StyleRewrite]
    # verification -> llm: the sentences a follow-up round revises (the rest stays as written)
    redraft_targets: list[str]
    # verification: the supported share after each pass, oldest first; a round that does not
    # raise it ends the loop (an adding reducer: each pass returns its own)
    supported_shares: Annotated[list[float], operator.add]


_STATE_ADAPTER: TypeAdapter[AgentState] | None = None


def state_from_json(values: Mapping[str, Any]) -> AgentState:
    """``values`` (a state as JSON holds it: plain mappings, lists, strings and numbers)
    validated into an ``AgentState`` by the models its keys are declared with: every key's
    type, each model's fields, the ``Literal`` choices. Strict: no string read as a number,
    no number as a flag. Keys AgentState does not declare are left out (LangGraph's own
    channels). Raises ``pydantic.ValidationError``, or ``ValueError`` for values JSON cannot
    hold."""
    return state_adapter().validate_json(json.dumps(dict(values), allow_nan=False), strict=True)


def state_adapter() -> TypeAdapter[AgentState]:
    """The pydantic validator of ``AgentState``, built on first use (it costs some
    milliseconds a run that never resumes need not spend)."""
    global _STATE_ADAPTER
    if _STATE_ADAPTER is None:
        _STATE_ADAPTER = TypeAdapter(AgentState)
    return _STATE_ADAPTER


def queries_for_round(state: AgentState, search_round: int) -> list[Query]:
    """The queries search round ``search_round`` (1 = the first) searches: the plan's, then
    the follow-up queries the verifier asked for that round."""
    if search_round <= 1:
        return plan_queries_flat(state.get("plan") or [])
    # A query without a round comes from a checkpoint written before rounds were kept: then
    # the list held the next round's queries only.
    return [Query(text=q.text, language=q.language) for q in state.get("follow_up_queries") or []
            if (q.round or search_round) == search_round]


def plan_queries_flat(plan: list[SubQuestionPlan]) -> list[Query]:
    """The first search round's queries: every sub-question's, in plan order, each text once.

    Derived from the plan whenever needed and never stored beside it, so an edited plan
    (plan review) cannot leave a stale copy of its queries behind.
    """
    seen: set[str] = set()
    flat = []
    for sub in plan:
        for q in sub.queries:
            if q.text.lower() not in seen:
                seen.add(q.text.lower())
                flat.append(q)
    return flat

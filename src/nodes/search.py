"""search node: run this round's queries through the web-search server, merge, dedupe.

Fan-out: the first round searches every sub-question's queries at once (a bounded
gather, ``SEARCH_CONCURRENCY`` in flight), and the hits of all of them are merged into
one list deduplicated by canonical URL.
"""

from __future__ import annotations

import asyncio
import time

from research.modules.core.i18n import t
from research.state import AgentState, ProblemKind, RunError, SearchHit
from research.state.models import Language, Query
from research.state.agent_state import queries_for_round
from research.modules.clients.web_search_client import SEARCH_TOOL
from research.workflow.dependencies import SearchUnavailable, WorkflowDependencies
from research.state.progress_events import Message

# The web-search server fetches each hit's page too; more requests in flight than this
# mostly queue on the search engine's rate limits.
SEARCH_CONCURRENCY = 6
# While the documents folder is indexed (its first search), a line this often at most.
INDEXING_SAID_EVERY_S = 30.0


class _IndexingSaid:
    """The server's progress through a documents folder, said as a line when it begins and
    then every ``INDEXING_SAID_EVERY_S``: the queries of a round all wait for the same index,
    so their reports are one account, not one line per query."""

    def __init__(self, deps: WorkflowDependencies) -> None:
        self.deps = deps
        self.said_at: float | None = None

    def __call__(self, done: int, total: int) -> None:
        now = time.monotonic()
        if self.said_at is not None and now - self.said_at < INDEXING_SAID_EVERY_S:
            return
        self.said_at = now
        self.deps.progress(Message("terminal.indexing_documents", {"done": done, "total": total}))


async def search_web(state: AgentState, deps: WorkflowDependencies) -> AgentState:
    """Search the first round's planned queries, or the verifier's follow-up queries later.

    Results are merged with earlier rounds and deduplicated by canonical URL, so a
    resumed or repeated round never stores a source twice.
    """
    rounds = state.get("search_rounds", 0)
    queries = queries_for_round(state, rounds + 1)
    errors: list[RunError] = []  # this step's only: `errors` is a reducer
    limit = deps.settings.search_limit
    gate = asyncio.Semaphore(SEARCH_CONCURRENCY)
    missing = await _missing_search_tool(deps, state.get("language") or "en") if rounds == 0 else None
    if missing is not None:
        # An external server without the tool: every query would fail the same way.
        deps.progress(Message("terminal.search_tool_missing", missing))
        message = t("terminal.search_tool_missing", state.get("language") or "en", **missing)
        return {"search_rounds": rounds + 1, "errors": [
            RunError(node="search", kind=ProblemKind.SEARCH_TOOL, message=message)]}

    notes: dict[str, None] = {}  # what the server said about its engines, each once, in order
    indexing = _IndexingSaid(deps)

    async def one(query: Query) -> list[SearchHit]:
        async with gate:
            try:
                return await deps.web_search.search(query.text, language=query.language, limit=limit,
                                                    on_note=lambda note: notes.setdefault(note),
                                                    on_progress=indexing)
            except SearchUnavailable as exc:
                errors.append(RunError(node="search", kind=ProblemKind.SEARCH, message=str(exc),
                                       target=query.text))
                return []

    # A task group, not a bare gather: when the web-search server is gone for good
    # (``WebSearchServerError``, after its restart and retry) the other queries stop too and
    # the error leaves this step unfinished, so the session stays resumable at this step.
    try:
        async with asyncio.TaskGroup() as group:
            tasks = [group.create_task(one(q)) for q in queries]
    except BaseExceptionGroup as failed:
        raise failed.exceptions[0] from None
    batches = [task.result() for task in tasks]
    _announce_failures(deps, errors, len(queries))
    for note in notes:
        # An engine that failed and another that answered instead changes which sources
        # the answer rests on: said as it happens, and kept for the report and meta.json.
        deps.progress(Message("terminal.engine_note", {"note": note}))
        errors.append(RunError(node="search", kind=ProblemKind.SEARCH_FALLBACK, message=note))
    earlier = list(state.get("search_results") or [])
    seen = {hit.canonical_url for hit in earlier}
    engines = set(state.get("engines_used", []))
    found: list[SearchHit] = []
    room = _room_for_sources(deps.settings.max_sources, earlier)
    # Round-robin over the queries: under a source budget every sub-question gets its best hits in.
    for hit in _interleave(batches):
        key = hit.canonical_url or hit.url
        if key in seen:
            continue
        if room is not None and len(found) >= room:
            break
        seen.add(key)
        hit.canonical_url = key
        found.append(hit)
        engines.add(hit.engine)
    merged = earlier + found
    deps.history.write_json(state["session_id"], "search_results.json", [hit.model_dump(mode="json") for hit in merged])
    deps.progress(Message("progress.sources_found", {"count": len(found), "queries": len(queries)}))
    update: AgentState = {
        "search_results": found,  # a reducer appends them to the earlier rounds' hits
        "search_rounds": rounds + 1,
        "engines_used": sorted(e for e in engines if e),
        "errors": errors,
    }
    if deps.settings.max_sources is not None and len(merged) >= deps.settings.max_sources:
        update["budget_exhausted"] = state.get("budget_exhausted") or "sources"
    return update


def _room_for_sources(max_sources: int | None, merged: list[SearchHit]) -> int | None:
    return None if max_sources is None else max(0, max_sources - len(merged))


def _interleave(batches: list[list[SearchHit]]) -> list[SearchHit]:
    """First hit of every query, then the second of every query, and so on."""
    return [batch[i] for i in range(max((len(b) for b in batches), default=0)) for batch in batches if i < len(batch)]


def _announce_failures(deps: WorkflowDependencies, errors: list[RunError], total: int) -> None:
    """One stderr line per distinct search failure, as the step ends (not at the run's end)."""
    counts: dict[str, int] = {}
    for error in errors:
        counts[error.message] = counts.get(error.message, 0) + 1
    for reason, count in counts.items():
        deps.progress(Message("terminal.search_failed", {"count": count, "total": total, "reason": reason}))


async def _missing_search_tool(deps: WorkflowDependencies, lang: Language) -> dict[str, str] | None:
    """For a server from RESEARCH_MCP_CONFIG: its tools, when the search tool is not among them.

    Our own server always has it; for another one, listing the tools once costs one
    round-trip and turns "no evidence" into a line that names what the server offers.
    """
    try:
        external = await deps.web_search.external_tools()
    except Exception:  # noqa: BLE001 - cannot list: the search itself will say what is wrong
        return None
    if external is None or SEARCH_TOOL in external[1]:
        return None
    server, tools = external
    return {"server": server, "tool": SEARCH_TOOL, "tools": ", ".join(tools) or t("terminal.no_tools", lang)}

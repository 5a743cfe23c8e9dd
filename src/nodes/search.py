"""search node: run this round's queries through the web-search server, merge, dedupe."""

from __future__ import annotations

import asyncio
from typing import Any

from ..state import AgentState, RunError, SearchHit
from .dependencies import SearchUnavailable, WorkflowDependencies


async def search_web(state: AgentState, deps: WorkflowDependencies) -> dict[str, Any]:
    """Search the first round's planned queries, or the verifier's follow-up queries later.

    Results are merged with earlier rounds and deduplicated by canonical URL, so a
    resumed or repeated round never stores a source twice.
    """
    rounds = state.get("search_rounds", 0)
    queries = state.get("queries", []) if rounds == 0 else state.get("follow_up_queries", [])
    errors = list(state.get("errors", []))
    limit = deps.settings.search_limit

    async def one(query: dict[str, str]) -> list[SearchHit]:
        try:
            return await deps.web_search.search(query["text"], language=query["language"], limit=limit)
        except SearchUnavailable as exc:
            errors.append(RunError(node="search", message=str(exc), target=query["text"]).model_dump())
            return []

    batches = await asyncio.gather(*(one(q) for q in queries))
    merged = list(state.get("search_results", []))
    seen = {hit["canonical_url"] for hit in merged}
    engines = set(state.get("engines_used", []))
    new = 0
    for batch in batches:
        for hit in batch:
            key = hit.canonical_url or hit.url
            if key in seen:
                continue
            seen.add(key)
            hit.canonical_url = key
            merged.append(hit.model_dump(mode="json"))
            engines.add(hit.engine)
            new += 1
    deps.history.write_json(state["session_id"], "search_results.json", merged)
    deps.progress("message", {"key": "progress.sources_found", "count": new, "queries": len(queries)})
    return {
        "search_results": merged,
        "search_rounds": rounds + 1,
        "engines_used": sorted(e for e in engines if e),
        "errors": errors,
    }

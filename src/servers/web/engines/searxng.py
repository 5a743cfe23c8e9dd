"""A SearXNG instance's JSON API (``/search?format=json``; JSON must be enabled there)."""

from __future__ import annotations

import httpx

from research.modules.core.language import Language
from research.modules.core.settings import Settings
from research.servers.web.engines.base import EngineContext, EngineEntry, EngineNotConfigured, EngineResult, EngineUnavailable, get_json, note
from research.servers.web.url_safety import URLGuard


class SearxngEngine:
    name = "searxng"

    def __init__(self, base_url: str, client: httpx.AsyncClient, guard: URLGuard, timeout: float = 15.0) -> None:
        self.base_url = base_url.rstrip("/")
        self.client = client
        self.guard = guard  # the configured endpoint is always allowed; this catches bad schemes
        self.timeout = timeout

    @property
    def endpoint(self) -> str:
        return f"{self.base_url}/search"

    async def search(self, query: str, *, language: Language, limit: int) -> list[EngineResult]:
        params = {"q": query, "format": "json", "language": language or "all", "safesearch": "1"}
        payload = await get_json(self.name, self.client, self.guard, self.endpoint, params, timeout=self.timeout,
                                 where=self.base_url,
                                 refusals={403: "servers.reason.json_refused"})
        results = payload.get("results") if isinstance(payload, dict) else None
        if not isinstance(results, list):
            raise EngineUnavailable(note("servers.reason.no_results_list", engine=self.name))
        if not results and payload.get("unresponsive_engines"):
            names = ", ".join(str(e[0] if isinstance(e, list) else e) for e in payload["unresponsive_engines"])
            raise EngineUnavailable(note("servers.reason.upstream", engine=self.name, names=names))
        hits = []
        for row in results:
            if isinstance(row, dict) and row.get("url"):
                hits.append(EngineResult(url=row["url"], title=str(row.get("title", "")),
                                         snippet=str(row.get("content", "")), engine=self.name))
        return hits[:limit]


def endpoints(settings: Settings) -> list[str]:
    """The configured search endpoint, which the URL guard allows exactly (the user chose it)."""
    return [settings.searxng_url.rstrip("/") + "/search"] if settings.searxng_url else []


def build(settings: Settings, context: EngineContext) -> SearxngEngine:
    if not settings.searxng_url:
        raise EngineNotConfigured(note("servers.reason.not_configured", engine="searxng", setting="RESEARCH_SEARXNG_URL"))
    return SearxngEngine(settings.searxng_url, context.client, context.guard)


ENGINE = EngineEntry(build, endpoints=endpoints)

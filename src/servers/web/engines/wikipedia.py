"""Wikipedia through MediaWiki's Action API, in the language of the query (ja or en).

One request per search: ``action=query&generator=search`` finds the articles and
``prop=extracts|info`` returns each one's plain-text introduction (the snippet) and its
address, so no page is parsed here. The article itself is fetched and read like any other
result (the fetcher, then the sandboxed parser). ``RESEARCH_WIKIPEDIA_URL`` is the API's
address with ``{lang}`` for the language edition (default
``https://{lang}.wikipedia.org/w/api.php``): a mirror or a test fixture goes there.
"""

from __future__ import annotations

import httpx

from research.modules.core.language import Language
from research.modules.core.settings import Settings
from research.servers.web.engines.base import EngineContext, EngineEntry, EngineNotConfigured, EngineResult, EngineUnavailable, get_json, note
from research.servers.web.url_safety import URLGuard

LANGUAGES = ("ja", "en")  # the editions this assistant writes in; any other query goes to English
SNIPPET_CHARS = 400
MAX_RESULTS = 20  # MediaWiki returns at most 20 introductions per request (exlimit)


class WikipediaEngine:
    name = "wikipedia"

    def __init__(self, url_template: str, client: httpx.AsyncClient, guard: URLGuard, timeout: float = 15.0) -> None:
        self.url_template = url_template
        self.client = client
        self.guard = guard  # the configured API is always allowed; this catches bad schemes
        self.timeout = timeout

    def endpoint(self, language: Language) -> str:
        return self.url_template.format(lang=language if language in LANGUAGES else "en")

    async def search(self, query: str, *, language: Language, limit: int) -> list[EngineResult]:
        limit = max(1, min(limit, MAX_RESULTS))
        params = {
            "action": "query", "format": "json", "formatversion": "2", "utf8": "1",
            "generator": "search", "gsrsearch": query, "gsrlimit": str(limit), "gsrnamespace": "0",
            "prop": "extracts|info", "exintro": "1", "explaintext": "1", "exlimit": str(limit), "inprop": "url",
        }
        payload = await get_json(self.name, self.client, self.guard, self.endpoint(language), params,
                                 timeout=self.timeout)
        if not isinstance(payload, dict):
            raise EngineUnavailable("wikipedia answered JSON that is not an API reply")
        error = payload.get("error")
        if isinstance(error, dict):  # MediaWiki reports errors with HTTP 200
            raise EngineUnavailable(f"wikipedia refused the search: {error.get('code', '?')}: "
                                    f"{str(error.get('info', ''))[:160]}")
        found = payload.get("query")
        if found is None:  # no match: MediaWiki leaves "query" out altogether
            return []
        pages = found.get("pages") if isinstance(found, dict) else None
        if not isinstance(pages, list):
            raise EngineUnavailable("wikipedia answered JSON without a pages list")
        hits = []
        for page in sorted((p for p in pages if isinstance(p, dict)), key=lambda p: _rank(p.get("index"))):
            url = page.get("fullurl") or page.get("canonicalurl")
            if not isinstance(url, str) or not url or page.get("missing"):
                continue
            snippet = " ".join(str(page.get("extract") or "").split())
            if len(snippet) > SNIPPET_CHARS:
                snippet = snippet[: SNIPPET_CHARS - 1] + "…"
            hits.append(EngineResult(url=url, title=str(page.get("title", "")), snippet=snippet, engine=self.name))
        return hits[:limit]


def _rank(index: object) -> int:
    """The search's own order (``index`` counts from 1); pages without one go last."""
    return index if isinstance(index, int) else 1 << 30


def endpoints(settings: Settings) -> list[str]:
    """The configured API of each language edition, which the URL guard allows exactly."""
    if not settings.wikipedia_url:
        return []
    return [settings.wikipedia_url.format(lang=language) for language in LANGUAGES]


def build(settings: Settings, context: EngineContext) -> WikipediaEngine:
    if not settings.wikipedia_url:
        raise EngineNotConfigured(note("servers.reason.not_configured", engine="wikipedia", setting="RESEARCH_WIKIPEDIA_URL"))
    return WikipediaEngine(settings.wikipedia_url, context.client, context.guard)


# Asked only when chosen: an encyclopedia is no stand-in for a web search that failed.
ENGINE = EngineEntry(build, fallback=False, endpoints=endpoints)

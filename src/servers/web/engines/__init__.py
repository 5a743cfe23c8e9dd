"""Search engines behind one interface, built once per server.

``duckduckgo`` (ddgs, no key), ``searxng`` (the JSON API of a SearXNG instance) and
``local`` (a folder of the user's own documents, indexed at start-up). An engine that
fails or rate-limits raises ``EngineUnavailable``; ``EngineChain`` then asks the next
configured engine and records why, so the result can say so.
"""

from __future__ import annotations

import asyncio
import logging
from dataclasses import dataclass, field
from pathlib import Path
from typing import Protocol

import httpx

from research.modules.parsing.extraction import UnsupportedContent, extract
from research.modules.core.settings import Settings
from research.modules.text.index import TextIndex, best_passage
from research.servers.web.url_safety import UnsafeURL, URLGuard

log = logging.getLogger(__name__)

LOCAL_SUFFIXES = {".md": "text/markdown", ".markdown": "text/markdown", ".txt": "text/plain",
                  ".html": "text/html", ".htm": "text/html", ".pdf": "application/pdf"}
MAX_LOCAL_FILE_BYTES = 50 * 1024 * 1024


@dataclass
class EngineResult:
    url: str
    title: str
    snippet: str
    engine: str


class EngineUnavailable(Exception):
    """This engine cannot answer now (down, rate-limited, misconfigured)."""


class SearchEngine(Protocol):
    name: str

    async def search(self, query: str, *, language: str, limit: int) -> list[EngineResult]: ...


# --------------------------------------------------------------------------- engines


class DdgsEngine:
    """DuckDuckGo (or ddgs's other keyless backends) through the ``ddgs`` package."""

    _REGIONS = {"ja": "jp-jp", "en": "us-en"}

    def __init__(self, name: str = "duckduckgo", backend: str = "duckduckgo", timeout: int = 10) -> None:
        self.name = name
        self.backend = backend
        self.timeout = timeout

    async def search(self, query: str, *, language: str, limit: int) -> list[EngineResult]:
        # ddgs is synchronous (it runs its own thread pool): keep it off the event loop.
        rows = await asyncio.to_thread(self._search_sync, query, language, limit)
        return [
            EngineResult(url=row["href"], title=row.get("title", ""), snippet=row.get("body", ""), engine=self.name)
            for row in rows
            if row.get("href")
        ]

    def _search_sync(self, query: str, language: str, limit: int) -> list[dict]:
        from ddgs import DDGS
        from ddgs.exceptions import DDGSException, RatelimitException, TimeoutException

        try:
            return DDGS(timeout=self.timeout).text(
                query, region=self._REGIONS.get(language, "wt-wt"), max_results=limit, backend=self.backend
            )
        except RatelimitException as exc:
            raise EngineUnavailable(f"{self.name} rate-limited the search ({exc})") from None
        except TimeoutException as exc:
            raise EngineUnavailable(f"{self.name} timed out ({exc})") from None
        except DDGSException as exc:
            if "no results" in str(exc).lower():
                return []
            raise EngineUnavailable(f"{self.name} failed: {exc}") from None


class SearxngEngine:
    """A SearXNG instance's JSON API (``/search?format=json``; JSON must be enabled there)."""

    name = "searxng"

    def __init__(self, base_url: str, client: httpx.AsyncClient, guard: URLGuard, timeout: float = 15.0) -> None:
        self.base_url = base_url.rstrip("/")
        self.client = client
        self.guard = guard  # the configured endpoint is always allowed; this catches bad schemes
        self.timeout = timeout

    async def search(self, query: str, *, language: str, limit: int) -> list[EngineResult]:
        params = {"q": query, "format": "json", "language": language or "all", "safesearch": "1"}
        try:
            await self.guard.check(f"{self.base_url}/search")
        except UnsafeURL as exc:
            raise EngineUnavailable(f"searxng URL refused: {exc}") from None
        try:
            response = await self.client.get(f"{self.base_url}/search", params=params, timeout=self.timeout)
        except httpx.HTTPError as exc:
            raise EngineUnavailable(f"searxng at {self.base_url} is unreachable ({type(exc).__name__})") from None
        if response.status_code == 429:
            raise EngineUnavailable("searxng rate-limited the search (HTTP 429)")
        if response.status_code == 403:
            raise EngineUnavailable("searxng refused the JSON format (enable `json` under search.formats)")
        if response.status_code != 200:
            raise EngineUnavailable(f"searxng answered HTTP {response.status_code}")
        try:
            payload = response.json()
        except ValueError:
            raise EngineUnavailable("searxng answered with something that is not JSON") from None
        results = payload.get("results") if isinstance(payload, dict) else None
        if not isinstance(results, list):
            raise EngineUnavailable("searxng answered JSON without a results list")
        if not results and payload.get("unresponsive_engines"):
            names = ", ".join(str(e[0] if isinstance(e, list) else e) for e in payload["unresponsive_engines"])
            raise EngineUnavailable(f"searxng's upstream engines did not answer ({names})")
        hits = []
        for row in results:
            if isinstance(row, dict) and row.get("url"):
                hits.append(EngineResult(url=row["url"], title=str(row.get("title", "")),
                                         snippet=str(row.get("content", "")), engine=self.name))
        return hits[:limit]


class LocalEngine:
    """The user's own documents: a folder of .md/.txt/.html/.pdf, indexed once at start-up."""

    name = "local"

    def __init__(self, docs_dir: Path) -> None:
        self.docs_dir = docs_dir.expanduser().resolve()
        if not self.docs_dir.is_dir():
            raise EngineUnavailable(f"the documents folder {self.docs_dir} does not exist")
        self._index = TextIndex()
        self._documents: dict[str, tuple[str, str]] = {}  # url -> (title, markdown)
        self.skipped: list[str] = []
        for path in sorted(self.docs_dir.rglob("*")):
            media_type = LOCAL_SUFFIXES.get(path.suffix.lower())
            if media_type is None or not path.is_file():
                continue
            try:
                if path.stat().st_size > MAX_LOCAL_FILE_BYTES:
                    raise UnsupportedContent("file too large")
                extracted = extract(path.read_bytes(), media_type, path.name)
            except (OSError, UnsupportedContent) as exc:
                self.skipped.append(f"{path.name}: {exc}")
                continue
            url = path.as_uri()
            title = extracted.title or path.stem
            self._documents[url] = (title, extracted.markdown)
            self._index.add(url, f"{title}\n{extracted.markdown}")

    def __len__(self) -> int:
        return len(self._index)

    def owns(self, path: Path) -> bool:
        """Whether ``path`` lies inside the documents folder (no escaping via ``..``/links)."""
        try:
            path.resolve().relative_to(self.docs_dir)
        except (ValueError, OSError):
            return False
        return True

    async def search(self, query: str, *, language: str, limit: int) -> list[EngineResult]:
        hits = []
        for url, _score in self._index.search(query, limit):
            title, markdown = self._documents[url]
            hits.append(EngineResult(url=url, title=title, snippet=best_passage(markdown, query), engine=self.name))
        return hits


# --------------------------------------------------------------------------- chain


@dataclass
class ChainResult:
    engine: str  # the engine that answered ("" when none did)
    results: list[EngineResult]
    notes: list[str] = field(default_factory=list)  # why earlier engines were skipped


class EngineChain:
    """The configured engine first, then the others that are configured, in order."""

    def __init__(self, engines: list[SearchEngine], notes: list[str] | None = None) -> None:
        self.engines = engines
        self.setup_notes = notes or []  # engines that could not even be built

    async def search(self, query: str, *, language: str, limit: int) -> ChainResult:
        notes = list(self.setup_notes)
        for position, engine in enumerate(self.engines):
            try:
                results = await engine.search(query, language=language, limit=limit)
            except EngineUnavailable as exc:
                notes.append(f"{engine.name} unavailable: {exc}")
                continue
            except Exception as exc:  # noqa: BLE001 - one engine's bug must not end the search
                log.exception("engine %s crashed", engine.name)
                notes.append(f"{engine.name} failed unexpectedly: {type(exc).__name__}: {exc}")
                continue
            if not results and position + 1 < len(self.engines):
                notes.append(f"{engine.name} found nothing; trying the next engine")
                continue
            if notes:
                notes.append(f"results from {engine.name}")
            return ChainResult(engine=engine.name, results=results, notes=notes)
        return ChainResult(engine="", results=[], notes=notes)

    @property
    def local(self) -> LocalEngine | None:
        return next((e for e in self.engines if isinstance(e, LocalEngine)), None)


def build_engines(settings: Settings, client: httpx.AsyncClient, guard: URLGuard) -> EngineChain:
    """The chosen engine first, then every other configured one. The open web is not a
    fallback for ``local``: a user researching their own documents stays offline."""
    order = [settings.search_engine] + [n for n in ("searxng", "local", "duckduckgo") if n != settings.search_engine]
    if settings.search_engine == "local":
        order = ["local"]
    engines: list[SearchEngine] = []
    notes: list[str] = []
    for name in order:
        chosen = name == settings.search_engine
        if name == "duckduckgo":
            engines.append(DdgsEngine())
        elif name == "searxng":
            if settings.searxng_url:
                engines.append(SearxngEngine(settings.searxng_url, client, guard))
            elif chosen:
                notes.append("searxng is selected but RESEARCH_SEARXNG_URL is not set")
        elif name == "local":
            if settings.docs_dir:
                try:
                    engines.append(LocalEngine(settings.docs_dir))
                except EngineUnavailable as exc:
                    notes.append(f"local unavailable: {exc}")
            elif chosen:
                notes.append("local is selected but RESEARCH_DOCS_DIR is not set")
    return EngineChain(engines, notes)

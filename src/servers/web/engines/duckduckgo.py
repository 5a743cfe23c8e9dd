"""DuckDuckGo (or ddgs's other keyless backends) through the ``ddgs`` package."""

from __future__ import annotations

import asyncio

from research.modules.core.settings import Settings
from research.servers.web.engines.base import EngineContext, EngineResult, EngineUnavailable


class DdgsEngine:
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


def build(settings: Settings, context: EngineContext) -> DdgsEngine:
    return DdgsEngine()

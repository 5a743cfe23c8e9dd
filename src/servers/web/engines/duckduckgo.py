"""DuckDuckGo (or ddgs's other keyless backends) through the ``ddgs`` package."""

from __future__ import annotations

import asyncio
import re

from research.modules.core.language import Language
from research.modules.core.settings import Settings
from research.servers.web.engines.base import EngineContext, EngineEntry, EngineResult, EngineUnavailable, note


class DdgsEngine:
    _REGIONS = {"ja": "jp-jp", "en": "us-en"}

    def __init__(self, name: str = "duckduckgo", backend: str = "duckduckgo", timeout: int = 10) -> None:
        self.name = name
        self.backend = backend
        self.timeout = timeout

    async def search(self, query: str, *, language: Language, limit: int) -> list[EngineResult]:
        # ddgs is synchronous (it runs its own thread pool): keep it off the event loop.
        rows = await asyncio.to_thread(self._search_sync, query, language, limit)
        return [
            EngineResult(url=row["href"], title=row.get("title", ""), snippet=row.get("body", ""), engine=self.name)
            for row in rows
            if row.get("href")
        ]

    def _search_sync(self, query: str, language: Language, limit: int) -> list[dict]:
        from ddgs import DDGS
        from ddgs.exceptions import DDGSException, RatelimitException, TimeoutException

        try:
            return DDGS(timeout=self.timeout).text(
                query, region=self._REGIONS.get(language, "wt-wt"), max_results=limit, backend=self.backend
            )
        except RatelimitException:
            raise EngineUnavailable(note("servers.reason.rate_limited_plain", engine=self.name)) from None
        except TimeoutException as exc:
            raise EngineUnavailable(note("servers.reason.timed_out", engine=self.name, detail=plain_reason(exc))) from None
        except DDGSException as exc:
            if "no results" in str(exc).lower():
                return []
            raise EngineUnavailable(note("servers.reason.failed", engine=self.name, detail=plain_reason(exc))) from None


def plain_reason(exc: BaseException) -> str:
    """One plain phrase for ddgs's errors, whose text is a Rust error chain
    (``DNSError('error sending request … Query { name: Name("html.duckduckgo.com.") … }')``)."""
    text = " ".join(str(exc).split())
    host = re.search(r'Name\("([^"]+?)\.?"\)', text) or re.search(r"https?://([^/\s)'\"]+)", text)
    where = host.group(1) if host else "the search site"
    lowered = text.lower()
    # In the catalogue's words, so the client says them in the user's language (localise_note).
    if "dns" in lowered or "resolv" in lowered:
        return note("servers.reason.no_dns", where=where)
    if "connect" in lowered or "refused" in lowered or "unreachable" in lowered:
        return note("servers.reason.no_connection", where=where)
    if "timed out" in lowered or "timeout" in lowered:
        return note("servers.reason.too_slow", where=where)
    first = re.split(r"\s>\s|\(|\n", text, maxsplit=1)[0]
    return f"{type(exc).__name__}: {first[:160]}"


def build(settings: Settings, context: EngineContext) -> DdgsEngine:
    return DdgsEngine()


ENGINE = EngineEntry(build)

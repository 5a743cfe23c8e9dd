"""Search engines, one module each, behind one registry.

``duckduckgo`` (ddgs, no key), ``searxng`` (the JSON API of a SearXNG instance) and
``local`` (a folder of the user's own documents). Each module has a ``build(settings,
context)`` factory; ``ENGINES`` maps names to them in fallback order. An engine that
fails or rate-limits raises ``EngineUnavailable``; ``EngineChain`` then asks the next
configured engine and records why, so the result can say so.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, field
from typing import Callable

from research.modules.core.settings import Settings
from research.servers.web.engines import duckduckgo, local, searxng
from research.servers.web.engines.base import (
    EngineContext,
    EngineNotConfigured,
    EngineResult,
    EngineUnavailable,
    SearchEngine,
)

__all__ = ["ENGINES", "ChainResult", "EngineChain", "EngineContext", "EngineResult", "EngineUnavailable",
           "SearchEngine", "build_engines"]

log = logging.getLogger(__name__)

# Name -> factory, in fallback order after the chosen engine.
ENGINES: dict[str, Callable[[Settings, EngineContext], SearchEngine]] = {
    "searxng": searxng.build,
    "local": local.build,
    "duckduckgo": duckduckgo.build,
}
# Engines that never fall back to the open web: a user researching their own documents stays offline.
OFFLINE = {"local"}


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
        answered = ""  # the first engine that answered, if only with nothing
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
                answered = answered or engine.name
                continue
            if notes and (results or not answered):
                notes.append(f"results from {engine.name}")
            return ChainResult(engine=engine.name if results or not answered else answered, results=results, notes=notes)
        # An engine that answered with nothing is a search that found nothing, not a failed
        # one, even when the engines tried after it could not be reached.
        return ChainResult(engine=answered, results=[], notes=notes)


def build_engines(settings: Settings, context: EngineContext) -> EngineChain:
    """The chosen engine first, then every other configured one (none after an offline one)."""
    chosen = settings.search_engine
    order = [chosen] if chosen in OFFLINE else [chosen, *(name for name in ENGINES if name != chosen)]
    engines: list[SearchEngine] = []
    notes: list[str] = []
    for name in order:
        try:
            engines.append(ENGINES[name](settings, context))
        except EngineNotConfigured as exc:
            if name == chosen:
                notes.append(str(exc))
        except EngineUnavailable as exc:
            notes.append(f"{name} unavailable: {exc}")
    return EngineChain(engines, notes)

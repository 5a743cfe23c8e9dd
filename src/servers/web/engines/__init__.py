"""Search engines, one module each, behind one registry.

``duckduckgo`` (ddgs, no key), ``searxng`` (the JSON API of a SearXNG instance),
``wikipedia`` (MediaWiki's API, ja or en by the query) and ``local`` (a folder of the
user's own documents). The names come from ``SEARCH_ENGINES`` in settings (the lowest
layer, so settings validation and every help text read the same list); each name is the
module here that implements it, and that module's ``ENGINE`` (an ``EngineEntry``) says how
to build it, whether it stays offline or serves as a fallback, and which configured URLs
the URL guard always allows. An engine that fails or rate-limits raises
``EngineUnavailable``; ``EngineChain`` then asks the next configured engine and records
why, so the result can say so.
"""

from __future__ import annotations

import importlib
import logging
from dataclasses import dataclass, field

from research.modules.core.settings import SEARCH_ENGINES, Settings
from research.servers.web.engines.base import (
    EngineContext,
    EngineEntry,
    EngineNotConfigured,
    EngineResult,
    EngineUnavailable,
    SearchEngine,
)

__all__ = ["ENGINES", "ChainResult", "EngineChain", "EngineContext", "EngineResult", "EngineUnavailable",
           "SearchEngine", "build_engines", "configured_endpoints"]

log = logging.getLogger(__name__)

# Name -> its entry, in fallback order after the chosen engine.
ENGINES: dict[str, EngineEntry] = {name: importlib.import_module(f"{__name__}.{name}").ENGINE for name in SEARCH_ENGINES}


def configured_endpoints(settings: Settings) -> list[str]:
    """Every engine's endpoints the user configured: the URL guard allows exactly these."""
    return [url for entry in ENGINES.values() for url in entry.endpoints(settings)]


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
    if ENGINES[chosen].offline:
        order = [chosen]
    else:
        order = [chosen, *(name for name, entry in ENGINES.items() if name != chosen and entry.fallback)]
    engines: list[SearchEngine] = []
    notes: list[str] = []
    for name in order:
        try:
            engines.append(ENGINES[name].build(settings, context))
        except EngineNotConfigured as exc:
            if name == chosen:
                notes.append(str(exc))
        except EngineUnavailable as exc:
            notes.append(f"{name} unavailable: {exc}")
    return EngineChain(engines, notes)

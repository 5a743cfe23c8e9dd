"""Search engines, one module each, behind one registry.

``duckduckgo`` (ddgs, no key), ``searxng`` (the JSON API of a SearXNG instance),
``wikipedia`` (MediaWiki's API, ja or en by the query) and ``local`` (a folder of the
user's own documents). The names come from ``SEARCH_ENGINES`` in settings (the lowest
layer, so settings validation and every help text read the same list); each name is the
module here that implements it, and that module's ``ENGINE`` (an ``EngineEntry``) says how
to build it, whether it stays offline or serves as a fallback, and which configured URLs
the URL guard always allows. An engine that fails or rate-limits raises
``EngineUnavailable``; ``EngineChain`` then asks the next configured engine, when the user
allows a fallback (RESEARCH_SEARCH_FALLBACK), and records why, so the result can say so.
"""

from __future__ import annotations

import importlib
import logging
from dataclasses import dataclass, field

from research.modules.core.language import Language
from research.modules.core.settings import SEARCH_ENGINES, Settings, search_fallback_allowed
from research.servers.web.engines.base import (
    EngineContext,
    EngineEntry,
    EngineNotConfigured,
    EngineResult,
    EngineUnavailable,
    SearchEngine,
    note,
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
    """The chosen engine, then (only when it fails, and only when fallback is allowed) the
    others that are configured, in order. An engine that answers, even with nothing, ends
    the search: "found nothing" is an answer, and another engine is not asked the question."""

    def __init__(self, engines: list[SearchEngine], notes: list[str] | None = None, *, fallback: bool = True,
                 chosen: str = "") -> None:
        self.engines = engines
        self.chosen = chosen or (engines[0].name if engines else "")
        self.setup_notes = notes or []  # engines that could not even be built
        self.fallback = fallback

    async def search(self, query: str, *, language: Language, limit: int) -> ChainResult:
        notes = list(self.setup_notes)
        for engine in self.engines:
            try:
                results = await engine.search(query, language=language, limit=limit)
            except EngineUnavailable as exc:
                notes.append(note("servers.engine.unavailable", engine=engine.name, reason=exc))
                continue
            except Exception as exc:  # noqa: BLE001 - one engine's bug must not end the search
                log.exception("engine %s crashed", engine.name)
                notes.append(note("servers.engine.crashed", engine=engine.name, reason=f"{type(exc).__name__}: {exc}"))
                continue
            if engine.name != self.chosen:
                notes.append(note("servers.engine.instead", engine=engine.name))
            # An engine with an index says what of it could not be read (engines/local.py).
            notes += getattr(engine, "reading_notes", list)()
            return ChainResult(engine=engine.name, results=results, notes=notes)
        if not self.fallback and notes:
            notes.append(note("servers.engine.no_fallback"))
        return ChainResult(engine="", results=[], notes=notes)


def build_engines(settings: Settings, context: EngineContext) -> EngineChain:
    """The chosen engine first, then, when fallback is allowed (``search_fallback_allowed``),
    every other configured one that serves as a fallback."""
    chosen = settings.search_engine
    fallback = search_fallback_allowed(settings) and not ENGINES[chosen].offline
    order: list[str] = [chosen]
    if fallback:
        order += [name for name, entry in ENGINES.items() if name != chosen and entry.fallback]
    engines: list[SearchEngine] = []
    notes: list[str] = []
    for name in order:
        try:
            engines.append(ENGINES[name].build(settings, context))
        except EngineNotConfigured as exc:
            if name == chosen:
                notes.append(str(exc))
        except EngineUnavailable as exc:
            notes.append(note("servers.engine.unavailable", engine=name, reason=exc))
    return EngineChain(engines, notes, fallback=fallback, chosen=chosen)

"""What every search engine is: ``search(query, language, limit) -> [EngineResult]``.

An engine that cannot answer now raises ``EngineUnavailable``; one that is not configured
cannot even be built and raises ``EngineNotConfigured`` from its factory. Both reasons end
up in the search result's notes.
"""

from __future__ import annotations

import json
from contextvars import ContextVar
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Awaitable, Callable, Protocol

import httpx

from research.modules.core.i18n import t
from research.modules.core.language import Language
from research.modules.core.settings import Settings
from research.servers.web.bounded_body import BadEncoding, BodyTooLarge, read_body
from research.servers.web.url_safety import UnsafeURL, URLGuard


@dataclass
class EngineResult:
    url: str
    title: str
    snippet: str
    engine: str


def note(key: str, **params: object) -> str:
    """A note or reason in the server's words: English from the catalogue (messages/servers.py),
    which the client reads back by key and says in the user's language."""
    return t(key, "en", **params)


class EngineUnavailable(Exception):
    """This engine cannot answer now (down, rate-limited, misconfigured)."""


class EngineNotConfigured(Exception):
    """The settings do not configure this engine (the message says which setting)."""


class SearchEngine(Protocol):
    name: str

    async def search(self, query: str, *, language: Language, limit: int) -> list[EngineResult]: ...


# Reads one local file in the sandboxed parser: (path, media_type) -> (title, markdown).
ReadDocument = Callable[[Path, str], Awaitable[tuple[str, str]]]

# Said while a search waits for an engine's index: (files done, files in all). The search tool
# sets it to send MCP progress notifications; an engine with an index reads it (engines/local.py).
IndexingProgress = Callable[[int, int], Awaitable[None]]
INDEXING_PROGRESS: ContextVar[IndexingProgress | None] = ContextVar("indexing_progress", default=None)


@dataclass(frozen=True)
class EngineContext:
    """What engines share, built once per server."""

    client: httpx.AsyncClient
    guard: URLGuard
    read_document: ReadDocument


# A search API's answer is a page of titles and snippets: far below this, even decoded.
_JSON_LIMIT = 4 * 1024 * 1024


def _no_endpoints(settings: Settings) -> list[str]:
    return []


@dataclass(frozen=True)
class EngineEntry:
    """How the registry uses one engine module: each module sets ``ENGINE = EngineEntry(...)``."""

    build: Callable[[Settings, EngineContext], SearchEngine]  # raises EngineNotConfigured / EngineUnavailable
    offline: bool = False  # never followed by engines of the open web (the user's own documents)
    fallback: bool = True  # asked when the chosen engine fails; False: only when chosen
    # The URLs the user configured for it (the URL guard allows exactly these, even on a private network).
    endpoints: Callable[[Settings], list[str]] = _no_endpoints


async def get_json(name: str, client: httpx.AsyncClient, guard: URLGuard, url: str, params: dict[str, str], *,
                   timeout: float, where: str = "", refusals: dict[int, str] | None = None) -> Any:
    """One GET to a JSON API the user configured, for engines that speak HTTP themselves:
    every way it can fail is one ``EngineUnavailable`` naming the engine. ``where`` names
    the service in the unreachable message (default: the URL asked); ``refusals`` says
    what an engine-specific HTTP status means (a message key with ``{engine}``)."""
    try:
        endpoint = await guard.check(url)
    except UnsafeURL as exc:
        raise EngineUnavailable(note("servers.reason.url_refused", engine=name, detail=exc)) from None
    try:
        async with client.stream("GET", endpoint, params=params, timeout=timeout) as response:
            if response.status_code == 429:
                raise EngineUnavailable(note("servers.reason.rate_limited", engine=name))
            if refusals and response.status_code in refusals:
                raise EngineUnavailable(note(refusals[response.status_code], engine=name))
            if response.status_code != 200:
                raise EngineUnavailable(note("servers.reason.http_status", engine=name, status=response.status_code))
            body = await read_body(response, _JSON_LIMIT)  # bounded when decoded, like a page
    except httpx.HTTPError as exc:
        raise EngineUnavailable(note("servers.reason.unreachable", engine=name, where=where or endpoint,
                                     error=type(exc).__name__)) from None
    except BodyTooLarge:
        raise EngineUnavailable(note("servers.reason.too_large", engine=name, limit=_JSON_LIMIT // 1024)) from None
    except BadEncoding as exc:
        raise EngineUnavailable(note("servers.reason.bad_encoding", engine=name, detail=exc)) from None
    try:
        return json.loads(body)
    except ValueError:
        raise EngineUnavailable(note("servers.reason.not_json", engine=name)) from None

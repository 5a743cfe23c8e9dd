"""Both MCP servers, started once and shared by every run of one process.

A one-shot run starts the pool as soon as Ollama has answered (before the graph is
imported), so the servers boot while this process plans; the REPL keeps one
pool for all its questions, so the second question does not start any server at all.

One pair of servers serves many sessions:
- the web-search server is started with ``--cache-root <sessions folder>`` and each search
  names its session's sources/ (``cacheDir``), which the server checks lies under the root;
- the sandboxed parser sees the whole sessions folder read-only and parses only paths
  under it (the server checks the real path), so each session's sources/ is visible to it.

A pool belongs to one event loop (its connections live in tasks of that loop).
"""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import TYPE_CHECKING, Any, Awaitable, Callable

from research.modules.core.language import choose_language
from research.modules.core.settings import SEARCH_ENGINES, Settings

if TYPE_CHECKING:  # imported when the servers start: a run asks Ollama first, without them
    from research.modules.clients.parser_client import ContainerProcessor
    from research.modules.clients.web_search_client import SessionWebSearch, WebSearchClient

# The settings a server is started with (every engine's own among them); any other setting
# (model, language, budgets) can change between questions without a restart.
_SERVER_SETTINGS = tuple(dict.fromkeys(("search_engine", *(name for names in SEARCH_ENGINES.values() for name in names),
                                        "docs_dir", "allow_private_network", "search_fallback", "sandbox", "sandbox_image", "mcp_config",
                                        "parse_timeout", "sessions_dir")))


def server_key(settings: Settings) -> tuple[Any, ...]:
    return tuple(str(getattr(settings, name, None)) for name in _SERVER_SETTINGS)


class ServerPool:
    """``await pool.start(settings)``, then ``pool.for_session(path)`` per run; ``aclose()`` at the end."""

    # Both None until ``start`` and after ``aclose``.
    web_search: WebSearchClient | None
    parser: ContainerProcessor | None

    def __init__(self) -> None:
        self.web_search = None
        self.parser = None
        self._key: tuple[Any, ...] | None = None
        self._starting = asyncio.Lock()  # two callers at once start one pair, not two

    @property
    def started(self) -> bool:
        return self.web_search is not None

    async def start(self, settings: Settings, after: "asyncio.Future[Any] | None" = None, *,
                    wait_spawned: bool = False) -> None:
        """Spawn both servers now without waiting for them (they are waited for at their
        first use); servers started with other settings are replaced. ``after``: the MCP
        SDK is imported once it is done (the caller's more urgent imports)."""
        async with self._starting:
            await self._start(settings, after, wait_spawned)

    async def _start(self, settings: Settings, after: "asyncio.Future[Any] | None", wait_spawned: bool) -> None:
        key = server_key(settings)
        if self._key == key and self.web_search is not None:
            return
        await self.aclose()
        from research.modules.clients.parser_client import ContainerProcessor
        from research.modules.clients.web_search_client import WebSearchClient

        root = Path(settings.sessions_dir).expanduser()
        try:
            root.mkdir(parents=True, exist_ok=True)
        except OSError:
            return  # the run reports this itself, when it creates its session folder
        root = root.resolve()
        lang = choose_language(settings.language, default="en")
        self.web_search = WebSearchClient(settings, None, cache_root=root)
        self.parser = ContainerProcessor(settings, root, lang=lang)
        self._key = key
        self.web_search.start_soon(after)
        self.parser.start_soon(after)
        if wait_spawned:  # the processes exist (and boot on their own) when this returns
            await asyncio.gather(self.web_search.spawned(), self.parser.spawned())
        else:
            await asyncio.sleep(0)  # let both begin spawning before the caller's next import

    @property
    def restarted(self) -> bool:
        """Whether either server crashed and was started again since the pool started them."""
        return any(client is not None and client.restarts > 0 for client in (self.web_search, self.parser))

    def for_session(self, session_path: Path) -> tuple[SessionWebSearch, ContainerProcessor]:
        """The (web search, parser) pair a run of this session uses."""
        if self.web_search is None or self.parser is None:
            raise RuntimeError("ServerPool.start() first")
        return self.web_search.for_session(Path(session_path) / "sources"), self.parser

    async def aclose(self) -> None:
        """Stop both servers at once."""
        web_search, parser = self.web_search, self.parser
        self.web_search = self.parser = None
        self._key = None
        closing = [c for c in (web_search and web_search.aclose(), parser and parser.aclose()) if c is not None]
        if closing:
            await asyncio.gather(*closing, return_exceptions=True)


class PooledLoop:
    """An event loop kept from one run to the next together with its ``ServerPool``, for a
    caller without a loop of its own between runs (the REPL: prompt-toolkit runs its own
    loop for the prompt; our servers' connections live in this one and wait meanwhile)."""

    def __init__(self) -> None:
        self.loop: asyncio.AbstractEventLoop | None = None
        self.pool = ServerPool()

    def _loop(self) -> asyncio.AbstractEventLoop:
        if self.loop is None or self.loop.is_closed():
            self.loop = asyncio.new_event_loop()
            self.pool = ServerPool()
        return self.loop

    def prestart(self, settings: Settings) -> None:
        """Spawn the servers now, so they boot while the user types the first question."""
        self._loop().run_until_complete(self.pool.start(settings, wait_spawned=True))

    def run(self, make: Callable[[ServerPool], Awaitable[Any]]) -> Any:
        """``make(pool)``'s result, run in this loop. A KeyboardInterrupt that lands outside
        the run's own handler stops everything (servers included): the next run starts afresh."""
        loop = self._loop()
        try:
            return loop.run_until_complete(make(self.pool))
        except KeyboardInterrupt:
            self.close()
            raise

    def close(self) -> None:
        """Stop both servers at once and close the loop."""
        loop, self.loop = self.loop, None
        if loop is None or loop.is_closed():
            return
        try:
            loop.run_until_complete(self.pool.aclose())
            pending = [task for task in asyncio.all_tasks(loop) if not task.done()]
            for task in pending:
                task.cancel()
            if pending:
                loop.run_until_complete(asyncio.gather(*pending, return_exceptions=True))
            loop.run_until_complete(loop.shutdown_asyncgens())
        finally:
            loop.close()

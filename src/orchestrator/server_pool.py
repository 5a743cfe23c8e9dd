"""Both MCP servers, started once and shared by every run of one process.

A one-shot run starts the pool as soon as Ollama has answered (before the graph is
imported), so the servers boot while this process plans; its parser is the one the console
script spawned before it imported the MCP SDK, where there is one (``spawn_early`` in
modules/clients/server_process.py). The REPL keeps one
pool for all its questions, so the second question does not start any server at all.

One pair of servers serves many sessions:
- the web-search server is started with ``--cache-root <sessions folder>`` and each search
  names its session's sources/ (``cacheDir``), which the server checks lies under the root;
- the sandboxed parser sees the whole sessions folder read-only and parses only paths
  under it (the server checks the real path), so each session's sources/ is visible to it.

A pool belongs to one event loop (its connections live in tasks of that loop).

A long-lived process that runs one question after another without a person at a prompt (a
team worker, the research MCP server) keeps its pool through ``KeptServers``: the pair is
handed from run to run, replaced when a run may have left it unfit, and stopped when no run
has come for a while.
"""

from __future__ import annotations

import asyncio
from contextlib import asynccontextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any, AsyncIterator, Awaitable, Callable

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


def parser_key(settings: Settings) -> tuple[Any, ...]:
    """Of those, the ones the sandboxed parser is started with: a change of engine or of any other
    web-search setting replaces the web-search server alone and keeps the parser (whose start is
    a sandbox, the SDK's import and its parsers' warm-up)."""
    return tuple(str(value) for value in (settings.sandbox, settings.sandbox_image, settings.parse_timeout,
                                          settings.sessions_dir))


class ServerPool:
    """``await pool.start(settings)``, then ``pool.for_session(path)`` per run; ``aclose()`` at the end."""

    # Both None until ``start`` and after ``aclose``.
    web_search: WebSearchClient | None
    parser: ContainerProcessor | None

    def __init__(self) -> None:
        self.web_search = None
        self.parser = None
        self._key: tuple[Any, ...] | None = None
        self._parser_key: tuple[Any, ...] | None = None
        self._starting = asyncio.Lock()  # two callers at once start one pair, not two

    @property
    def started(self) -> bool:
        return self.web_search is not None

    async def start(self, settings: Settings, after: "asyncio.Future[Any] | None" = None, *,
                    wait_spawned: bool = False) -> None:
        """Spawn both servers now without waiting for them (they are waited for at their
        first use); servers started with other settings are replaced (the web-search server
        alone where the parser's own settings are unchanged). ``after``: the MCP SDK is
        imported once it is done (the caller's more urgent imports)."""
        async with self._starting:
            await self._start(settings, after, wait_spawned)

    async def _start(self, settings: Settings, after: "asyncio.Future[Any] | None", wait_spawned: bool) -> None:
        key = server_key(settings)
        if self._key == key and self.web_search is not None:
            return
        keep_parser = self.parser is not None and self._parser_key == parser_key(settings)
        if keep_parser:
            web_search, self.web_search, self._key = self.web_search, None, None
            if web_search is not None:
                await web_search.aclose()
        else:
            await self.aclose()
        from research.modules.clients.parser_client import ContainerProcessor
        from research.modules.clients.web_search_client import WebSearchClient

        root = Path(settings.sessions_dir).expanduser()
        try:
            root.mkdir(parents=True, exist_ok=True)
        except OSError:
            await self.aclose()
            return  # the run reports this itself, when it creates its session folder
        root = root.resolve()
        lang = choose_language(settings.language, default="en")
        self.web_search = WebSearchClient(settings, None, cache_root=root)
        if self.parser is None:
            self.parser = ContainerProcessor(settings, root, lang=lang)
            self.parser.start_soon(after)
        self._key, self._parser_key = key, parser_key(settings)
        self.web_search.start_soon(after)
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

    def release(self) -> None:
        """The run that owns this pool needs neither server any more (its report step began):
        both are told to go now (their stdin closed), so the memory they hold is given back
        while the report is written rather than after it. ``aclose()`` still follows, and
        finds them gone. Only for a pool of one run: a kept pool serves the next question."""
        for client in (self.web_search, self.parser):
            if client is not None:
                client.end_input()

    async def aclose(self) -> None:
        """Stop both servers at once."""
        web_search, parser = self.web_search, self.parser
        self.web_search = self.parser = None
        self._key = self._parser_key = None
        closing: list[Awaitable[None]] = []
        if web_search is not None:
            closing.append(web_search.aclose())
        if parser is not None:
            closing.append(parser.aclose())
        if closing:
            await asyncio.gather(*closing, return_exceptions=True)


# A burst of runs shares one pair of servers; a process left without a run gives them back
# (after one run they hold about 160 MB PSS: docs/scale.md).
SERVERS_IDLE_SECONDS = 300.0


class KeptServers:
    """One ``ServerPool`` kept from one run to the next: ``async with kept.lease(settings) as
    pool`` around each run (which starts the pool itself, ``run_research`` does).

    - The kept pair is replaced after a run that may have left it unfit: one that did not
      end on its own (stopped, lost, cancelled: it may have left a call in flight; the
      lease's ``spoil()``, or a cancellation out of the ``async with``), or during which a
      server crashed and was restarted (a connection gives up after a few restarts, so each
      run gets the whole budget again). A run that failed on its own (no source, a model
      error) leaves the pair as it found it.
    - Runs at once share the kept pair when they need the same server settings; a run that
      needs others while the pair is in use, or comes while it is unfit, gets a pair of its
      own, stopped when it ends (starting it would replace the servers under the other run).
    - No lease for ``SERVERS_IDLE_SECONDS``: the pair is stopped; a run that comes while
      they stop waits for that, then starts a fresh pair.
    """

    def __init__(self) -> None:
        self.pool = ServerPool()
        self._key: tuple[Any, ...] | None = None  # the server settings of the runs holding the pool
        self._holders = 0
        self._fit = True
        self._idle_timer: asyncio.TimerHandle | None = None
        self._stopping: asyncio.Future[None] | None = None

    @asynccontextmanager
    async def lease(self, settings: Settings) -> AsyncIterator["ServerLease"]:
        lease = await self._take(server_key(settings))
        try:
            yield lease
        except (asyncio.CancelledError, KeyboardInterrupt):
            lease.spoil()
            raise
        finally:
            await self._give_back(lease)

    async def _take(self, key: tuple[Any, ...]) -> "ServerLease":
        self._cancel_idle_stop()
        if self._stopping is not None:
            await self._stopping
            self._stopping = None
        if self._holders and (key != self._key or not self._fit):
            return ServerLease(ServerPool(), own=True)
        self._holders += 1
        self._key = key
        return ServerLease(self.pool, own=False)

    async def _give_back(self, lease: "ServerLease") -> None:
        # The stops are shielded: a run cancelled by an MCP host ends inside an anyio cancel
        # scope that cancels every await again, and its servers must stop all the same.
        if lease.own:
            await asyncio.shield(lease.pool.aclose())
            return
        self._holders -= 1
        self._fit = self._fit and lease.fit and not self.pool.restarted
        if self._holders:
            return
        if not self._fit:
            self._fit = True
            self._stopping = asyncio.ensure_future(self.pool.aclose())  # the next run starts a fresh pair
            await asyncio.shield(self._stopping)
        elif self.pool.started:
            self._idle_timer = asyncio.get_running_loop().call_later(SERVERS_IDLE_SECONDS, self._stop_idle)

    def _stop_idle(self) -> None:
        self._idle_timer = None
        self._stopping = asyncio.ensure_future(self.pool.aclose())

    def _cancel_idle_stop(self) -> None:
        if self._idle_timer is not None:
            self._idle_timer.cancel()
            self._idle_timer = None

    async def aclose(self) -> None:
        """Stop the kept pair now (the process ends)."""
        self._cancel_idle_stop()
        if self._stopping is not None:
            await self._stopping
            self._stopping = None
        await self.pool.aclose()


class ServerLease:
    """A run's hold on servers from ``KeptServers``: ``pool`` goes in its ``ResearchRequest``."""

    def __init__(self, pool: ServerPool, own: bool) -> None:
        self.pool = pool
        self.own = own  # a pair of this run's own, stopped when it ends
        self.fit = True

    def spoil(self) -> None:
        """The run did not end on its own: its pair is not given to another run."""
        self.fit = False


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

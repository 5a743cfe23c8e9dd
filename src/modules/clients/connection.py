"""One live MCP connection to a server process, shared by both of our MCP clients.

anyio requires a transport to be closed by the task that opened it, while calls (and a
restart after a crash) may come from any task. So each connection lives in a task of
its own; ``McpConnection`` hands out the live ``Client`` and replaces it on request.
Every replacement bumps ``generation``, so several callers that saw the same server die
restart it once, not once each.
"""

from __future__ import annotations

import abc
import asyncio
import contextlib
import logging
import time
from typing import TYPE_CHECKING, Any, Callable, Self

from research.modules.core.logs import said

log = logging.getLogger(__name__)

if TYPE_CHECKING:  # imported by whoever builds clients, when the first connection opens
    from mcp import Client

__all__ = ["BackgroundStart", "McpConnection", "ConnectionStartFailed"]


class BackgroundStart(abc.ABC):
    """A client whose server boots in the background while the run goes on.

    ``start_soon()`` begins booting (``_boot``, the subclass's); every call waits for it
    with ``_started()``, so a run's first steps need not. ``spawned()`` returns once the
    process exists, before it answers. ``async with`` starts it and always ``aclose()``s it.
    """

    _not_started_hint = "start the client first (`async with`)"

    def _init_background_start(self) -> None:
        self._starting: asyncio.Future[None] | None = None
        self._spawned = asyncio.Event()  # the subclass sets it once its process exists

    @abc.abstractmethod
    async def _boot(self, after: "asyncio.Future[Any] | None") -> None:
        """Spawn the server and connect; each client says how (sandbox, cache folders)."""

    def start_soon(self, after: "asyncio.Future[Any] | None" = None) -> None:
        """Begin starting the server in the background. ``after``: the SDK import waits
        for it (the caller's own, more urgent imports come first)."""
        if self._starting is None:
            self._starting = asyncio.ensure_future(self._boot(after))

    async def start(self) -> None:
        self.start_soon()
        await self._started()

    @abc.abstractmethod
    async def aclose(self) -> None:
        """Stop the server (and a start still under way); release what the client holds."""

    async def __aenter__(self) -> Self:
        try:
            await self.start()
        except BaseException:
            await self.aclose()  # a start that failed halfway leaves no process behind
            raise
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.aclose()

    async def spawned(self) -> None:
        """Until the server process exists (or could not be started): not until it answers."""
        if self._starting is None:
            raise RuntimeError("start_soon() first")
        waiter = asyncio.ensure_future(self._spawned.wait())
        either: list[asyncio.Future[Any]] = [waiter, self._starting]
        await asyncio.wait(either, return_when=asyncio.FIRST_COMPLETED)
        waiter.cancel()

    async def _started(self) -> None:
        if self._starting is None:
            raise RuntimeError(self._not_started_hint)
        await asyncio.shield(self._starting)

    async def _stop_starting(self) -> None:
        """Cancel a start still under way; a failed start was already told to whoever waited."""
        starting, self._starting = self._starting, None
        if starting is not None and not starting.done():
            starting.cancel()
            with contextlib.suppress(BaseException):
                await starting
        elif starting is not None and not starting.cancelled():
            starting.exception()  # retrieved, so asyncio does not log it as never seen


class ConnectionStartFailed(Exception):
    """The server did not start or did not answer ``initialize``; ``cause`` says why."""

    def __init__(self, cause: BaseException | str) -> None:
        super().__init__(str(cause))
        self.cause = cause


class _Held:
    """One server process and its client, opened and closed inside one task."""

    def __init__(self, make_client: Callable[[], "Client"], name: str) -> None:
        self.client: "Client | None" = None
        self._make_client = make_client
        self._ready: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._stop = asyncio.Event()
        self._task = asyncio.create_task(self._run(), name=f"mcp-{name}")

    async def _run(self) -> None:
        try:
            async with self._make_client() as client:
                self.client = client
                self._ready.set_result(None)
                await self._stop.wait()
        except BaseException as exc:  # noqa: BLE001 - reported to whoever waits for the start
            if not self._ready.done():
                self._ready.set_exception(exc if isinstance(exc, Exception) else RuntimeError(repr(exc)))
            elif not isinstance(exc, (Exception, asyncio.CancelledError)):
                raise
        finally:
            self.client = None

    async def started(self, timeout: float) -> "Client":
        try:
            await asyncio.wait_for(asyncio.shield(self._ready), timeout=timeout)
        except asyncio.TimeoutError:
            await self.close()
            raise ConnectionStartFailed(f"no answer within {timeout:g} s") from None
        except Exception as exc:  # noqa: BLE001 - spawn errors, handshake errors, a crash at start-up
            await self.close()
            raise ConnectionStartFailed(exc) from None
        if self.client is None:  # it ended between the handshake and now
            raise ConnectionStartFailed("the server exited right after starting")
        return self.client

    async def close(self) -> None:
        self._stop.set()
        if not self._ready.done():
            # Still starting (the server importing the SDK, the handshake under way): the start is
            # stopped, not seen through only to be closed, which a run stopped early (Ctrl-C,
            # SIGTERM, an error before any search) waited out at its exit.
            self._task.cancel()
            await asyncio.wait({self._task}, timeout=10)
            if self._ready.done() and not self._ready.cancelled():
                self._ready.exception()  # retrieved: asyncio would log it as never seen
            return
        try:
            await asyncio.wait_for(self._task, timeout=10)
        except (asyncio.TimeoutError, Exception):  # noqa: BLE001 - closing a dead server must not fail a run
            self._task.cancel()


# A cold Python start with the MCP SDK and the parsers' imports takes a few seconds; on a busy
# machine many more.
START_TIMEOUT_S = 60.0
# Per connection: a server that keeps crashing is not restarted for ever.
MAX_RESTARTS = 5


class McpConnection:
    """The current connection to one server; ``make_client`` builds a fresh ``Client``."""

    def __init__(self, make_client: Callable[[], "Client"], *, name: str, start_timeout: float = START_TIMEOUT_S) -> None:
        self._make_client = make_client
        self.name = name
        self.start_timeout = start_timeout
        self.generation = 0
        self.restarts = 0
        self._held: _Held | None = None
        self._lock = asyncio.Lock()

    @property
    def crashed_too_often(self) -> bool:
        """True once the server was restarted ``MAX_RESTARTS`` times: the caller gives up."""
        return self.restarts >= MAX_RESTARTS

    async def client(self) -> tuple["Client", int]:
        """The live client and its generation; starts the server when none runs."""
        async with self._lock:
            held = self._held
            if held is not None and held.client is not None:
                return held.client, self.generation
            return await self._start_locked()

    async def restart(self, generation: int) -> tuple["Client", int]:
        """Replace the server of ``generation`` (unless another caller already did)."""
        async with self._lock:
            held = self._held
            if self.generation != generation and held is not None and held.client is not None:
                return held.client, self.generation
            self.restarts += 1
            log.info(said("log.server_restarting", name=self.name, count=self.restarts))
            return await self._start_locked()

    async def _start_locked(self) -> tuple["Client", int]:
        if self._held is not None:
            await self._held.close()
            self._held = None
        held = _Held(self._make_client, self.name)
        self._held = held
        began = time.perf_counter()
        client = await held.started(self.start_timeout)
        self.generation += 1
        log.info(said("log.server_up", name=self.name, seconds=f"{time.perf_counter() - began:.2f}"))
        return client, self.generation

    async def close(self) -> None:
        async with self._lock:
            if self._held is not None:
                await self._held.close()
                self._held = None

"""Start an MCP server process early, and speak MCP to it over its stdio later.

The SDK's ``stdio_client`` spawns the process when the connection opens, which is after
the SDK itself is imported (about a second of CPU on a small machine). ``ServerLauncher``
spawns with plain asyncio first, so the server imports its own modules while this process
imports the SDK, checks Ollama and builds the graph; ``transport()`` then hands the already
running process to ``mcp.Client`` as an ordinary transport (newline-delimited JSON-RPC).

A one-shot run starts its servers earlier still, as forks of itself right after it imports the
SDK (cli/early_servers.py; modules/clients/zygote.py hands each to the launcher whose start it is).

Stopping follows the MCP lifecycle (close stdin, wait, then kill) but with a short grace for
our own servers, which exit as soon as stdin closes: a session never waits out a long
grace period for a process that is already gone.
"""

from __future__ import annotations

import asyncio
import os
import signal
import sys
from contextlib import asynccontextmanager, suppress
from typing import IO, Any, AsyncIterator, Callable, Union

from research.modules.clients.zygote import ZygoteProcess, start_forked

# A server spawned as a fresh interpreter, or forked by this process's zygote (zygote.py).
ServerProcess = Union[asyncio.subprocess.Process, ZygoteProcess]

# Environment a server inherits besides what its spec sets (the SDK's default set).
_INHERITED_ENV = ("HOME", "LOGNAME", "PATH", "SHELL", "TERM", "USER")
# A JSON-RPC message is one line; a parsed document can be megabytes long.
_LINE_LIMIT = 256 * 1024 * 1024
_POLL_S = 0.005
# The folder our own servers start in: fixed, so that nothing where the user happens to stand
# (a clone at ~/research, an empty notes/research/) can take the place of the installed package.
OWN_SERVER_CWD = "/"
# Our own servers exit as soon as their stdin closes; past this they are killed, not waited for.
OWN_SERVER_EXIT_GRACE_S = 1.0


def own_python_argv(module: str) -> list[str]:
    """The argv that runs one of the project's own modules with this interpreter.

    ``-P``: neither the working directory nor a script's folder goes first on ``sys.path``, so
    a ``research/`` folder in the working directory is never imported (nor its code run).
    Not ``-I``: PYTHONPATH is passed on on purpose (the child must import what the parent
    imports), and it is the parent's own path, not the working directory's contents.
    """
    return [sys.executable, "-P", "-m", module]


async def import_sdk(after: "asyncio.Future[Any] | None" = None) -> None:
    """Import the MCP SDK in a thread (about a second of CPU on a small machine), so the
    event loop keeps serving the run meanwhile; after ``after`` (whatever the caller needs
    sooner), since two imports at once only share the one interpreter lock."""
    import importlib
    import sys

    if "mcp" in sys.modules:  # imported already (a one-shot run imports it before forking its standby): connect now
        return
    if after is not None:
        try:
            await asyncio.shield(after)
        except asyncio.CancelledError:
            task = asyncio.current_task()
            if task is not None and task.cancelling():
                raise  # this start was cancelled (a run that stopped early): no import
        except Exception:  # noqa: BLE001 - the caller's import failed; the SDK is still needed
            pass
    if "mcp" not in sys.modules:
        await asyncio.to_thread(importlib.import_module, "mcp")


def child_environment(extra: dict[str, str] | None) -> dict[str, str]:
    """A few safe variables of ours plus the spec's own (shell functions never inherited)."""
    env = {k: os.environ[k] for k in _INHERITED_ENV if k in os.environ and not os.environ[k].startswith("()")}
    return env | (extra or {})


class ServerLauncher:
    """How to start one server; ``prespawn()`` starts it ahead of the first connection.

    ``exit_grace``: seconds the server gets to exit after its stdin closes before it is
    killed (our servers exit at once; another host's server gets the SDK's two seconds,
    then SIGTERM, then SIGKILL).
    """

    def __init__(self, command: str, args: list[str], env: dict[str, str] | None, *, cwd: str | None = None,
                 errlog: Callable[[], IO[str] | None] = lambda: None, exit_grace: float = 2.0,
                 terminate_first: bool = True) -> None:
        self.command, self.args, self.env, self.cwd = command, list(args), env, cwd
        self.errlog = errlog
        self.exit_grace = exit_grace
        self.terminate_first = terminate_first
        self._spare: ServerProcess | None = None
        self.spawned: list[ServerProcess] = []
        self._forwarders: set[asyncio.Task[None]] = set()

    @classmethod
    def own(cls, command: str, args: list[str], env: dict[str, str] | None, *, cwd: str | None = OWN_SERVER_CWD,
            errlog: Callable[[], IO[str] | None] = lambda: None) -> "ServerLauncher":
        """One of this program's servers: it leaves when its stdin closes, so it gets
        ``OWN_SERVER_EXIT_GRACE_S`` and then SIGKILL, without a SIGTERM first."""
        return cls(command, args, env, cwd=cwd, errlog=errlog, exit_grace=OWN_SERVER_EXIT_GRACE_S,
                   terminate_first=False)

    async def spawn(self) -> ServerProcess:
        env = child_environment(self.env)
        # A fork of a warm parent (about 0.06 s of CPU instead of 1 s; zygote.py): the one-shot run's
        # own (its standby web-search server, its parser server started at once), or this process's
        # zygote where it asked for forks. None: spawned as below.
        process: ServerProcess | None = await start_forked(self.command, self.args, env, self.cwd, _LINE_LIMIT)
        if process is None:
            creating = asyncio.ensure_future(asyncio.create_subprocess_exec(
                self.command, *self.args, stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE,
                stderr=asyncio.subprocess.PIPE, env=env, cwd=self.cwd, limit=_LINE_LIMIT,
                # Its own process group: Ctrl-C in the terminal reaches only us, and a kill
                # reaches the server's own children (the parser's fork server) too.
                start_new_session=True,
            ))
            try:
                process = await asyncio.shield(creating)
            except asyncio.CancelledError:
                # Cancelled while the process was being created (a run stopped in its first
                # moments: `research … 2>&1 | head -c1`). Left to asyncio, the creation kills the
                # process it started and then waits until every pipe closes, which bubblewrap's
                # inner process, killed before it was set to die with its parent, never did: the
                # run hung at exit (docs/benchmarks.md). Seen through instead, and the process
                # stopped as any other: stdin closed (our servers leave on it), then killed.
                with suppress(BaseException):
                    await stop_process(await creating, self.exit_grace, self.terminate_first)
                raise
        self.spawned.append(process)
        if process.stderr is not None:
            # Through a pipe rather than a file: the log it goes to can change while the
            # server lives (a pooled server writes into the log of the session it serves now).
            task = asyncio.ensure_future(self._forward_stderr(process.stderr))
            self._forwarders.add(task)
            task.add_done_callback(self._forwarders.discard)
        return process

    async def _forward_stderr(self, stream: asyncio.StreamReader) -> None:
        while line := await _next_line(stream):
            self.log(line.decode("utf-8", errors="replace"))

    def log(self, text: str) -> None:
        """Append ``text`` to the server's log as it is now (never the user's terminal)."""
        target = self.errlog()
        if target is None:
            return
        with suppress(OSError, ValueError):  # a log closed under us costs the line, not the run
            target.write(text if text.endswith("\n") else text + "\n")
            target.flush()

    async def prespawn(self) -> None:
        """Start the process now; the next ``transport()`` connects to it."""
        if self._spare is None:
            self._spare = await self.spawn()

    def end_input(self) -> None:
        """Close the stdin of every process this launcher started that still runs: our servers
        leave as soon as it closes. Synchronous, so a caller about to block the event loop (a
        run's report, rendered without a pause) can let them go first: the pipes' ends are
        closed at the loop's next turn, and the connections notice at their own close."""
        for process in [*self.spawned, *([self._spare] if self._spare is not None else [])]:
            if process.returncode is None and process.stdin is not None:
                with suppress(OSError, RuntimeError):
                    process.stdin.close()

    async def discard_spare(self) -> None:
        """A process started ahead that never got connected (the run ended first). It holds
        no session and no request, so it gets no grace: one still importing would notice
        its closed stdin only once its imports are done."""
        spare, self._spare = self._spare, None
        if spare is not None:
            await stop_process(spare, 0.0, self.terminate_first)

    @asynccontextmanager
    async def transport(self) -> AsyncIterator[Any]:
        """An ``mcp`` transport on the spare process (else a fresh one)."""
        import anyio
        import mcp_types
        from mcp.shared.message import SessionMessage

        # A spare that already died is still used: its handshake fails and says so.
        process, self._spare = self._spare, None
        if process is None:
            process = await self.spawn()
        assert process.stdin is not None and process.stdout is not None
        to_session, read_stream = anyio.create_memory_object_stream[Any](0)
        write_stream, from_session = anyio.create_memory_object_stream[Any](0)
        stdin, stdout = process.stdin, process.stdout

        async def read_server() -> None:
            async with to_session:  # at the end of stdout the session sees the connection close
                while line := await _next_line(stdout):
                    if not line.strip():
                        continue
                    try:
                        item: Any = SessionMessage(mcp_types.jsonrpc_message_adapter.validate_json(line, by_name=False))
                    except ValueError:
                        # Not JSON-RPC: a server that prints its chatter on stdout. It belongs
                        # in the server's log, not in the protocol (nor on the user's terminal).
                        self.log("stdout: " + line.decode("utf-8", errors="replace"))
                        continue
                    try:
                        await to_session.send(item)
                    except (anyio.ClosedResourceError, anyio.BrokenResourceError):
                        return

        async def write_server() -> None:
            try:
                async with from_session:
                    async for message in from_session:
                        data = message.message.model_dump_json(by_alias=True, exclude_unset=True) + "\n"
                        stdin.write(data.encode("utf-8"))
                        await stdin.drain()
            except (OSError, anyio.ClosedResourceError, anyio.BrokenResourceError):
                await to_session.aclose()  # the session sees the connection end, not a hang

        async with anyio.create_task_group() as tasks:
            tasks.start_soon(read_server)
            tasks.start_soon(write_server)
            try:
                yield read_stream, write_stream
            finally:
                with anyio.CancelScope(shield=True):
                    await write_stream.aclose()
                    await read_stream.aclose()
                    await stop_process(process, self.exit_grace, self.terminate_first)
                tasks.cancel_scope.cancel()


async def _next_line(stream: asyncio.StreamReader) -> bytes:
    """The next line of a server's stdout or stderr; ``b""`` at its end, and also when the
    pipe broke or a line overran the limit: either way nothing more can be read from it."""
    try:
        return await stream.readline()
    except (OSError, ValueError, asyncio.LimitOverrunError):
        return b""


async def stop_process(process: ServerProcess, grace: float, terminate_first: bool) -> None:
    """Close stdin, give the server ``grace`` seconds to exit, then end its process group."""
    if process.stdin is not None:
        with suppress(OSError, RuntimeError):
            process.stdin.close()
    if not await _exited(process, grace):
        if terminate_first:
            _signal_group(process, signal.SIGTERM)
        if not (terminate_first and await _exited(process, 2.0)):
            _signal_group(process, signal.SIGKILL)
            await _exited(process, 2.0)
    # Closed now, in this loop: left to the garbage collector, the pipes' transport would
    # be closed after the loop is gone (a warning on stderr at exit).
    if isinstance(process, ZygoteProcess):
        process.close()
        return
    transport = getattr(process, "_transport", None)
    if transport is not None:
        with suppress(Exception):
            transport.close()


async def _exited(process: ServerProcess, timeout: float) -> bool:
    # Polled, not process.wait(): that also waits for the pipes' EOF, which a surviving
    # child of the server (holding a copy of them) would delay.
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while process.returncode is None:
        if loop.time() >= deadline:
            return False
        await asyncio.sleep(_POLL_S)
    return True


def _signal_group(process: ServerProcess, sig: int) -> None:
    if isinstance(process, ZygoteProcess):  # its own group of one, named by a pidfd (zygote.py)
        process.send_signal(sig)
        return
    with suppress(ProcessLookupError, PermissionError):
        os.killpg(process.pid, sig)

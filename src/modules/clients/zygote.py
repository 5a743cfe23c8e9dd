"""Our web-search server forked by a warm parent (``servers/zygote.py``) instead of a fresh
interpreter: about 0.06 s of CPU to answer ``initialize`` instead of about 1 s.

Opt-in, by the host: ``RESEARCH_FORK_SERVERS=1`` in the environment of the process that
starts servers. Then every web-search server it starts is a fork of a zygote it starts at
its first start, which imports the server (and what the server builds next) once. Meant for
a process that keeps starting them (``research serve``, the research MCP server, a test
worker). The first start costs what a spawn costs (the zygote's import instead of the
server's); from the second on each costs a fork. Memory: the zygote stays while the host
lives (about 57 MiB of PSS on its own, less as forked servers share its pages); one forked
server adds about 20 MiB where a spawned one holds 60 (docs/benchmarks.md), so a host that
only ever starts one server is better off without it: a one-shot run never asks for it.
Not the default, because a forked server shows its zygote's
command line and start-up environment in ``/proc`` and ``ps`` (the kernel keeps those of
the exec), and has the zygote as its parent: whatever finds our servers that way (the
process tests, an administrator's ``pgrep``) would not see it as a spawned one.

Only a start the zygote can make exactly as a spawn would is forked: this interpreter,
``-P -m`` one of ``FORKED_MODULES``, and the variables that shape an interpreter at its
start (``PYTHON*``, the locale) equal to the zygote's own (a zygote per such set). If the
zygote cannot be started or goes away, starts are spawned again.

A one-shot run is its own warm parent instead (``standby_from_this_process``, from
cli/early_servers.py, which a team worker and the research MCP server use too):
the console script imports the server and forks a standby before it imports the rest of the
program or starts a thread; the run's first start of the web-search server is that standby,
given the start's arguments, environment and folder then. It needs the MCP SDK for its own
clients anyway, so the SDK is imported once for both (about 0.9 s of CPU less per run) and
its pages are shared; the standby shows the server's own command line in /proc
(servers/zygote.py, ``_retitle``) and has the run as its parent, as a spawned server does.
What a fresh interpreter would have from its start that the fork has from the run's
(``PYTHON*`` flags, hash seed, locale) is the run's own: it is the same program's run.

``ZygoteProcess`` stands where ``asyncio.subprocess.Process`` stands for a spawned server:
the same pipes as streams, ``pid`` and ``returncode``. The zygote is its parent, so the exit
status comes from the zygote once it has reaped the server, and signals go through a pidfd
of the server, which can never name another process after the server is gone.
"""

from __future__ import annotations

import asyncio
import json
import os
import select
import signal
import socket
import subprocess
import sys
import threading
from concurrent.futures import Future, InvalidStateError
from contextlib import suppress
from functools import partial
from typing import Any, Callable

FORK_SERVERS = "RESEARCH_FORK_SERVERS"
FORKED_MODULES = ("research.servers.web.server", "research.servers.parser.server")
# Imported by the zygote too: what a web server builds right after it answers (its engines,
# the fetcher and its HTTP client), so that no forked server imports them again.
PRELOADED = ("research.servers.web.engines", "research.servers.web.fetcher", "research.servers.web.url_safety")
# What a parser server imports at its start (its tools, over the SDK): by its zygote and its standby.
PARSER_PRELOADED = ("research.servers.parser.tools",)
# The status of a server that ended after its zygote was gone: the zygote alone could read it.
STATUS_UNKNOWN = 255
_MESSAGE_BYTES = 4096
_STARTED_TIMEOUT_S = 60.0  # the first start waits for the zygote's imports
_STANDBY_EXIT_S = 1.0  # a standby told to go leaves at once; past this it is killed

_lock = threading.Lock()
_zygotes: dict[tuple[tuple[str, str], ...], "Zygote"] = {}


def interpreter_environment(env: dict[str, str]) -> tuple[tuple[str, str], ...]:
    """What of ``env`` a fresh interpreter reads before running anything (sys.path, hashing,
    warnings, the stdio encoding): a forked server keeps its zygote's, so it must match."""
    return tuple(sorted((k, v) for k, v in env.items()
                        if k.startswith("PYTHON") or k in ("LANG", "LANGUAGE") or k.startswith("LC_")))


def forkable_module(command: str, args: list[str], modules: tuple[str, ...] = FORKED_MODULES) -> str | None:
    """The module a start runs when it is one the zygote can fork (``own_python_argv``'s form)."""
    if command == sys.executable and len(args) >= 3 and args[:2] == ["-P", "-m"] and args[2] in modules:
        return args[2]
    return None


def pipe_ends() -> tuple[list[int], list[int]]:
    """Three pipes for a server's stdin, stdout and stderr: (the server's ends: stdin's read end,
    stdout's and stderr's write ends; this process's ends, in the same order)."""
    pipes = [os.pipe() for _ in range(3)]
    return [pipes[0][0], pipes[1][1], pipes[2][1]], [pipes[0][1], pipes[1][0], pipes[2][0]]


# Forks a server from this very process that waits for its start: (module, control, [stdin, stdout,
# stderr], modules imported with it) -> pid (servers/zygote.py's ``standby_server``).
StandbyForker = Callable[[str, socket.socket, list[int], tuple[str, ...]], int]


class _Standby:
    """A server forked from this process, waiting for the start it is to make, or given it
    already (``started``: the args, environment and folder sent by ``start_standby_now``)."""

    def __init__(self, module: str, pid: int, pidfd: int, control: socket.socket, ours: list[int]) -> None:
        self.module, self.pid, self.pidfd, self.control, self.ours = module, pid, pidfd, control, ours
        self.started: dict[str, Any] | None = None

    def discard(self) -> None:
        """It leaves at the end of its control socket (at once: it only waits to be told),
        and is reaped here; killed if it has not left within a second."""
        with suppress(OSError):
            self.control.close()
        for fd in self.ours:
            with suppress(OSError):
                os.close(fd)
        with suppress(OSError):
            if not select.select([self.pidfd], [], [], _STANDBY_EXIT_S)[0]:  # a pidfd reads ready once it has exited
                signal.pidfd_send_signal(self.pidfd, signal.SIGKILL)
            os.waitpid(self.pid, 0)
        with suppress(OSError):
            os.close(self.pidfd)


_standby: list[_Standby] = []
# A process forked from this one (a standby, the web-search server) has closed these descriptors
# and cannot wait for these processes: they are not its own.
os.register_at_fork(after_in_child=_standby.clear)


def standby_from_this_process(forker: StandbyForker, module: str = FORKED_MODULES[0],
                              preload: tuple[str, ...] | None = None) -> bool:
    """Fork this process now into a ``module`` server that waits; the next start of that module
    (``start_forked``) is that process, given its arguments, environment and folder then. For a
    one-shot run (cli/main.py), which starts one web-search server and needs the MCP SDK itself:
    the two then share one import of the SDK, and the server holds nothing of the rest of the
    run's program, imported after the fork (docs/benchmarks.md, issue 47). Only while this
    process has no other thread (a fork copies a lock another thread holds, held for ever); a
    later start (a restart after a crash) is spawned. False: not forked (threads, no pidfd, an
    import that failed); starts are spawned as before. ``preload``: modules imported with the
    server before the fork (default: for the web-search server, ``PRELOADED``, as its zygote
    has them), so that neither process imports them again (about 3 MiB less PSS in a one-shot
    run's tree; docs/benchmarks.md)."""
    if preload is None:
        preload = PRELOADED if module == FORKED_MODULES[0] else ()
    for waiting in [s for s in _standby if s.module == module]:  # one of each server at most
        _standby.remove(waiting)
        waiting.discard()
    if threading.active_count() != 1 or not hasattr(os, "pidfd_open"):
        return False
    theirs, ours = pipe_ends()
    control, their_control = socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET)
    pid = -1
    try:
        pid = forker(module, their_control, theirs, preload)
        pidfd = os.pidfd_open(pid)
    except Exception:  # noqa: BLE001 - an import that failed, no process to be had: spawned instead
        if pid > 0:  # forked, but it cannot be watched: it goes
            with suppress(OSError):
                os.kill(pid, signal.SIGKILL)
                os.waitpid(pid, 0)
        control.close()
        for fd in ours:
            os.close(fd)
        return False
    finally:
        their_control.close()
        for fd in theirs:
            os.close(fd)
    _standby.append(_Standby(module, pid, pidfd, control, ours))
    return True


def start_standby_now(forker: StandbyForker, command: str, args: list[str], env: dict[str, str], cwd: str,
                      preload: tuple[str, ...] = ()) -> bool:
    """A server forked from this process (as ``standby_from_this_process``) and given its start at
    once: ``command`` and ``args`` as a launcher would spawn it (``own_python_argv``'s form), with
    ``env`` and ``cwd``. The launcher whose start is exactly this one takes it (``start_forked``);
    a start of the same server otherwise (a run resumed with other settings) ends it. For a one-shot
    run's parser server (cli/early_servers.py): it shares the run's import of the MCP SDK, and
    starts its sandboxed fork server, whose parsers take the most of a start, while the run
    imports the rest of its program. False: not forked; the launcher spawns it as before."""
    module = forkable_module(command, args, (args[2],) if len(args) >= 3 else ())
    if module is None or not standby_from_this_process(forker, module, preload):
        return False
    standby = next(s for s in _standby if s.module == module)
    start = {"args": args[3:], "env": env, "cwd": cwd}
    try:
        standby.control.send(json.dumps(start).encode("utf-8"))
    except OSError:
        _standby.remove(standby)
        standby.discard()
        return False
    standby.control.close()
    standby.started = start
    return True


def discard_standby() -> None:
    """The servers forked from this process that no launcher took (waiting, or started at once) leave now."""
    while _standby:
        _standby.pop().discard()


def discard_standby_after(loop: asyncio.AbstractEventLoop, seconds: float) -> None:
    """For a host that may wait long for its first run (a team worker, the research MCP server):
    the standby leaves if no start has taken it within ``seconds``, on ``loop``'s thread. Waiting,
    it costs memory: the pages its host writes after the fork (refcounts, the rest of its imports)
    become the host's own copies, and the standby's old ones its own, about 40 MiB of PSS for an
    idle worker's (docs/scale.md), as a kept pair of servers costs while it waits, and for as long."""
    if _standby:
        loop.call_later(seconds, discard_standby)


async def _start_standby(module: str, args: list[str], env: dict[str, str], cwd: str,
                         line_limit: int) -> "HostForkedProcess | None":
    standby = next((s for s in _standby if s.module == module), None)
    if standby is None:
        return None
    _standby.remove(standby)
    start = {"args": args, "env": env, "cwd": cwd}
    if standby.started is not None:
        if standby.started != start or select.select([standby.pidfd], [], [], 0)[0]:  # other settings, or it ended
            standby.discard()
            return None
    else:
        try:
            standby.control.send(json.dumps(start).encode("utf-8"))
        except OSError:  # it is gone (killed, or failed while it waited)
            standby.discard()
            return None
        standby.control.close()
    process = HostForkedProcess(standby.pid, standby.pidfd)
    loop = asyncio.get_running_loop()
    try:
        process.stdin, process.stdout, process.stderr = await stream_ends(loop, standby.ours, line_limit, process)
    except BaseException:
        process.send_signal(signal.SIGKILL)
        process.close()
        raise
    process.watch(loop)
    return process


async def start_forked(command: str, args: list[str], env: dict[str, str], cwd: str | None,
                       line_limit: int) -> "ZygoteProcess | None":
    """The server forked from this process itself (``standby_from_this_process``) or by its zygote,
    or None: spawn it as before (not one either makes, the host did not opt in, or neither
    could fork it)."""
    if _standby:
        module = forkable_module(command, args, tuple(s.module for s in _standby))
        if module is None:
            # A server of another kind (an mcpServers entry): those still waiting are not needed.
            for waiting in [s for s in _standby if s.started is None]:
                _standby.remove(waiting)
                waiting.discard()
        else:
            forked = await _start_standby(module, args[3:], env, cwd or os.getcwd(), line_limit)
            if forked is not None:
                return forked
    module = forkable_module(command, args)
    if module is None or os.environ.get(FORK_SERVERS) != "1" or not hasattr(os, "pidfd_open"):
        return None
    key = interpreter_environment(env)
    with _lock:
        zygote = _zygotes.get(key)
        if zygote is not None and not zygote.alive and not zygote.served:
            return None  # one that died before forking anything (an import failed): not tried again
        if zygote is None or not zygote.alive:
            try:
                zygote = _zygotes[key] = Zygote(env)
            except OSError:
                return None
    try:
        return await zygote.start(module, args[3:], env, cwd or os.getcwd(), line_limit)
    except (OSError, ZygoteGone, asyncio.TimeoutError):
        return None  # spawned instead; a server forked after all finds its pipes closed and leaves


class ZygoteGone(Exception):
    """The zygote did not start this server (gone, or it said why)."""


class ZygoteProcess:
    """A server forked by the zygote, used as an asyncio subprocess is (see the module's doc)."""

    def __init__(self, pid: int, pidfd: int) -> None:
        self.pid = pid
        self._pidfd = pidfd
        self._returncode: int | None = None
        self.zygote_gone = False
        self.stdin: asyncio.StreamWriter | None = None
        self.stdout: asyncio.StreamReader | None = None
        self.stderr: asyncio.StreamReader | None = None
        self._transports: list[asyncio.BaseTransport] = []

    @property
    def returncode(self) -> int | None:
        if self._returncode is None and self.zygote_gone and self._pidfd >= 0:
            ended, _, _ = select.select([self._pidfd], [], [], 0)  # a pidfd reads ready once it has exited
            if ended:
                self._returncode = STATUS_UNKNOWN
        return self._returncode

    def exited(self, returncode: int) -> None:
        self._returncode = returncode

    def send_signal(self, sig: int) -> None:
        if self._pidfd >= 0 and self._returncode is None:
            with suppress(ProcessLookupError, OSError):
                signal.pidfd_send_signal(self._pidfd, sig)

    def close(self) -> None:
        """The pipes' transports and the pidfd (``stop_process``, once the server is done)."""
        for transport in self._transports:
            with suppress(Exception):
                transport.close()
        if self._pidfd >= 0:
            with suppress(OSError):
                os.close(self._pidfd)
            self._pidfd = -1


class HostForkedProcess(ZygoteProcess):
    """A server forked by this process itself: its own child, reaped here once its pidfd reads
    ready (it ended)."""

    _loop: asyncio.AbstractEventLoop | None = None

    def watch(self, loop: asyncio.AbstractEventLoop) -> None:
        self._loop = loop
        loop.add_reader(self._pidfd, self._reap)

    def _reap(self) -> None:
        try:
            pid, status = os.waitpid(self.pid, os.WNOHANG)
        except ChildProcessError:  # reaped by someone else: its status is lost
            pid, status = self.pid, -1
        if pid == 0:
            return
        self._unwatch()
        self.exited(STATUS_UNKNOWN if status == -1 else os.waitstatus_to_exitcode(status))

    def _unwatch(self) -> None:
        if self._loop is not None and self._pidfd >= 0:
            with suppress(Exception):
                self._loop.remove_reader(self._pidfd)
        self._loop = None

    def close(self) -> None:
        self._unwatch()
        super().close()


class Zygote:
    """This process's handle on one zygote: the control socket and the thread reading it."""

    def __init__(self, env: dict[str, str], modules: tuple[str, ...] | None = None) -> None:
        ours, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET)
        try:
            self.process = subprocess.Popen(
                [sys.executable, "-P", "-m", "research.servers.zygote", *(modules or FORKED_MODULES + PRELOADED + PARSER_PRELOADED)],
                stdin=theirs.fileno(), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env, cwd="/",
                start_new_session=True)  # Ctrl-C in the terminal is not its to see
        finally:
            theirs.close()
        self.control = ours
        self.alive = True
        self.served = 0  # servers it has forked
        self._tokens = iter(range(1, sys.maxsize))
        self._pending: dict[int, Future[ZygoteProcess]] = {}
        self._running: dict[int, ZygoteProcess] = {}
        self._reader = threading.Thread(target=self._read, name="research-zygote", daemon=True)
        self._reader.start()

    async def start(self, module: str, args: list[str], env: dict[str, str], cwd: str,
                    line_limit: int) -> ZygoteProcess:
        loop = asyncio.get_running_loop()
        theirs, ours = pipe_ends()
        started: Future[ZygoteProcess] = Future()
        with _lock:
            token = next(self._tokens)
            self._pending[token] = started
        try:
            message = {"start": token, "module": module, "args": args, "env": env, "cwd": cwd}
            try:
                socket.send_fds(self.control, [json.dumps(message).encode("utf-8")], theirs)
            except OSError as exc:
                self._gone()
                raise ZygoteGone(str(exc)) from None
            finally:
                for fd in theirs:
                    os.close(fd)
            # Cancelled or timed out: the server (if it comes) finds its pipes closed and leaves.
            process = await asyncio.wait_for(asyncio.wrap_future(started), _STARTED_TIMEOUT_S)
        except BaseException:
            with _lock:
                self._pending.pop(token, None)
            for fd in ours:
                os.close(fd)
            raise
        try:  # from here the pipes are the streams' (closed with them)
            process.stdin, process.stdout, process.stderr = await stream_ends(loop, ours, line_limit, process)
        except BaseException:
            process.close()
            raise
        return process

    def _read(self) -> None:
        while True:
            try:
                data, fds, _flags, _address = socket.recv_fds(self.control, _MESSAGE_BYTES, 1)
            except OSError:
                data, fds = b"", []
            if not data:
                self._gone()
                return
            try:
                message = json.loads(data)
            except ValueError:
                message = {}
            with _lock:
                if "started" in message and fds:
                    # Known from here on, so the "exited" that follows on this socket finds it.
                    process = self._running[message["started"]] = ZygoteProcess(int(message["pid"]), fds[0])
                    self.served += 1
                    started = self._pending.pop(message["started"], None)
                    try:
                        if started is None:
                            raise InvalidStateError
                        started.set_result(process)
                    except InvalidStateError:  # its start was cancelled meanwhile
                        process.close()
                elif "failed" in message:
                    failed = self._pending.pop(message["failed"], None)
                    with suppress(InvalidStateError, AttributeError):
                        failed.set_exception(ZygoteGone(str(message.get("reason"))))  # type: ignore[union-attr]
                elif "exited" in message:
                    ended = self._running.pop(message["exited"], None)
                    if ended is not None:
                        ended.exited(int(message["returncode"]))
                else:
                    for fd in fds:
                        os.close(fd)

    def close(self) -> None:
        """Let the zygote go (it leaves when its end of the socket closes); the servers it
        forked stay until their own stdin closes. Shut down first: a plain close would not
        end the reading thread's ``recv``, and the socket would stay open under it."""
        with suppress(OSError):
            self.control.shutdown(socket.SHUT_RDWR)
        self._reader.join(timeout=5)

    def _gone(self) -> None:
        with _lock:
            self.alive = False
            for future in self._pending.values():
                with suppress(InvalidStateError):
                    future.set_exception(ZygoteGone("the zygote is gone"))
            self._pending.clear()
            for process in self._running.values():
                process.zygote_gone = True
        with suppress(OSError):
            self.control.close()
        with suppress(Exception):
            self.process.poll()


async def stream_ends(loop: asyncio.AbstractEventLoop, fds: list[int], line_limit: int,
                   process: ZygoteProcess) -> tuple[asyncio.StreamWriter, asyncio.StreamReader, asyncio.StreamReader]:
    """The host's ends of the server's pipes as the streams a spawned server has."""
    files = [os.fdopen(fds[0], "wb", buffering=0), os.fdopen(fds[1], "rb", buffering=0),
             os.fdopen(fds[2], "rb", buffering=0)]
    try:
        readers = []
        for file in files[1:]:
            reader = asyncio.StreamReader(limit=line_limit, loop=loop)
            read_end, _ = await loop.connect_read_pipe(partial(asyncio.StreamReaderProtocol, reader), file)
            process._transports.append(read_end)
            readers.append(reader)
        protocol = asyncio.StreamReaderProtocol(asyncio.StreamReader(loop=loop))  # drain() needs its flow control
        write_end, _ = await loop.connect_write_pipe(lambda: protocol, files[0])
        process._transports.append(write_end)
    except BaseException:
        for file in files:
            file.close()  # a file its transport closed already is not closed again
        raise
    return asyncio.StreamWriter(write_end, protocol, None, loop), readers[0], readers[1]

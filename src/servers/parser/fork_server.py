"""The parser's fork server: one process that has the parsers imported and forks a fresh
child for every document. It and its children are what runs inside the sandbox.

Started in one of two ways, the first thing the parser server does, before it imports the MCP
SDK or starts a thread. ``ForkServer.spawn()``: through the sandbox's command line (bwrap,
unshare, none), as its own interpreter running ``main()`` with the control socket as stdin;
the server then runs outside the sandbox and reads no document (docs/sandbox.md).
``ForkServer.start()``: forked from the server (in a container, where the whole server runs),
so ``os.fork()`` copies a single-threaded process with nothing but the interpreter in it.

Once the server has handed over its first request it says ``preload``, and the fork server
imports the parsers and parses a sample page (``warmup.py``), so every later child starts warm.
After the first request, not before: that is the sandbox probe our clients make when they start
the server (``sandbox-info``), which a child forked cold answers at once, where behind the
warm-up (0.6 s of CPU at niceness 10) it could wait for many seconds on a busy machine, and the
client would count the parser as not started. A first document is parsed cold (its child
imports what it needs) while the warm-up runs for the next. And after the server's own start,
not beside it: while a run starts, the main process and the web-search server need the
machine's cores more than a parser that is needed seconds later. Compared with multiprocessing's "forkserver",
no second interpreter starts (the fork server shares the server's interpreter pages) and no
resource tracker process runs (nothing here creates named semaphores or shared memory).

The protocol. The server and the fork server share a SOCK_SEQPACKET socket pair, one JSON
message per datagram:

* ``{"preload": true}``, once, after the first request: go ahead and import the parsers.
* ``{"parse": token, "memory_mb": M, "cpu_seconds": S}`` with one descriptor attached: the
  child's end of a new socket pair for this document. The fork server forks; the child
  keeps that descriptor and no other of the fork server's (it cannot speak for another
  document), makes itself a process group and applies its limits (``worker.py``).
* ``{"kill": token}``: the server is done with that document (answered, timed out,
  cancelled). Its process group is killed if the child has not been reaped yet; a token
  already reaped or unknown is ignored, so a pid is never signalled after it was reused.

On a document's socket pair, frames (one tag byte, an 8-byte length, the payload) go:
``Q`` server -> child, the request (JSON); ``R`` child -> server, the outcome (JSON; never
pickle, the child has read hostile bytes); ``X`` fork server -> server, the child's wait
status once it is reaped (after anything the child wrote, since it has exited by then).

When the server's end of the control socket closes (the server exited or was killed), the
fork server kills the children still running and exits.
"""

from __future__ import annotations

import gc
import itertools
import json
import os
import selectors
import signal
import socket
import subprocess
import sys
from dataclasses import dataclass
from typing import Callable, NoReturn, TypedDict

from research.modules.core.parser_process import FORK_SERVER_ENV
from research.servers.parser.limits import ChildLimits
from research.servers.parser.worker import EXIT_STATUS, frame, run_child

_CONTROL_MESSAGE_BYTES = 4096


def fork_server_wrapper() -> tuple[list[str], dict[str, str]] | None:
    """The command line and the variables ``FORK_SERVER_ENV`` gives (``{"argv": [...], "env": {...}}``),
    taken out of the environment (nothing this server starts needs it); None when unset: the
    fork server is then forked from this process."""
    given = os.environ.pop(FORK_SERVER_ENV, "")
    if not given:
        return None
    try:
        wrapper = json.loads(given)
        argv, env = wrapper["argv"], wrapper.get("env", {})
    except (ValueError, KeyError, TypeError):
        argv = env = None
    if not isinstance(argv, list) or not argv or not all(isinstance(part, str) for part in argv) \
            or not isinstance(env, dict) or not all(isinstance(v, str) for v in env.values()):
        raise SystemExit(f"research parser: {FORK_SERVER_ENV} is not a command line ({{\"argv\": [...], \"env\": {{...}}}})")
    return argv, env


class ControlMessage(TypedDict, total=False):
    """One message of the control socket (the protocol above); each holds the keys of one kind."""

    preload: bool
    parse: int
    memory_mb: int
    cpu_seconds: float
    kill: int


class ForkServerGone(Exception):
    """The fork server died: this parser server can no longer parse anything."""


@dataclass
class ForkServer:
    """The server's handle on its fork server: the control socket and the process id."""

    pid: int
    control: socket.socket
    process: "subprocess.Popen[bytes] | None" = None  # a spawned one (``spawn``); None: forked from this process

    def __post_init__(self) -> None:
        self._tokens = itertools.count(1)
        self._preload_said = False

    @classmethod
    def start(cls, preload: Callable[[], None]) -> "ForkServer":
        """Fork the fork server now. Call it while this process has no other thread."""
        ours, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET)
        pid = os.fork()
        if pid == 0:
            try:
                ours.close()
                _serve(theirs, preload)
            except BaseException as exc:  # noqa: BLE001 - said on the server's log, then gone
                print(f"research parser: the fork server failed: {type(exc).__name__}: {exc}", file=sys.stderr)
            finally:
                os._exit(70)
        theirs.close()
        ours.setblocking(False)
        return cls(pid, ours)

    @classmethod
    def spawn(cls, argv: list[str], env: dict[str, str]) -> "ForkServer":
        """Start the fork server as its own process: ``argv`` is the sandbox's command line that
        ends by running this module (``main``), with ``env`` added to this process's variables;
        the control socket is its stdin. For a server that runs outside the sandbox
        (modules/clients/sandbox.py): what reads hostile bytes, each document's child of the fork
        server, is inside; the server only routes."""
        ours, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET)
        try:
            # stdout is the server's MCP channel: the fork server writes to its stderr (the server's log).
            process = subprocess.Popen(argv, stdin=theirs.fileno(), stdout=sys.stderr.fileno(), close_fds=True,
                                       env={**os.environ, **env})
        finally:
            theirs.close()
        ours.setblocking(False)
        return cls(process.pid, ours, process)

    def next_token(self) -> int:
        return next(self._tokens)

    async def send(self, message: ControlMessage, descriptor: int | None = None) -> None:
        """One control message (and a descriptor to hand over), without blocking the loop; after
        the first request, ``preload`` (see the module's doc)."""
        await self._send(message, descriptor)
        if "parse" in message and not self._preload_said:
            self._preload_said = True
            await self._send({"preload": True})

    async def _send(self, message: ControlMessage, descriptor: int | None = None) -> None:
        import anyio  # the server's event loop; the fork server never imports it

        data = json.dumps(message).encode("utf-8")
        while True:
            try:
                if descriptor is None:
                    self.control.send(data)
                else:
                    socket.send_fds(self.control, [data], [descriptor])
                return
            except BlockingIOError:
                await anyio.wait_writable(self.control)
            except OSError as exc:  # EPIPE / ECONNRESET: its end is closed
                raise ForkServerGone(f"the parser's fork server is gone ({exc.strerror or exc})") from None


# --------------------------------------------------------------------------- the fork server


@dataclass
class _Child:
    token: int
    pid: int
    channel: socket.socket


def _serve(control: socket.socket, preload: Callable[[], None]) -> NoReturn:
    """The fork server's life: fork a child per request until the server goes, preloading the
    parsers when the server says so."""
    # The server's stdout carries MCP: nothing here (nor a library a child imports) may write
    # to it. stdin is the server's too. Both are pointed away; stderr stays the server's log.
    devnull = os.open(os.devnull, os.O_RDONLY)
    os.dup2(devnull, 0)
    os.close(devnull)
    os.dup2(2, 1)
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    wake_read, wake_write = os.pipe()
    os.set_blocking(wake_read, False)
    os.set_blocking(wake_write, False)
    signal.set_wakeup_fd(wake_write)
    signal.signal(signal.SIGCHLD, lambda *_: None)  # a handler, so the wake-up fd is written

    _Forker(control, wake_read, wake_write, preload).serve()


class _Forker:
    """The fork server's loop: a child forked per document, reaped when it exits, every child
    killed when the server goes; the parsers preloaded once when the server says so."""

    def __init__(self, control: socket.socket, wake_read: int, wake_write: int, preload: Callable[[], None]) -> None:
        self.control, self.wake_read, self.wake_write = control, wake_read, wake_write
        self.preload: Callable[[], None] | None = preload
        self.selector = selectors.DefaultSelector()
        self.selector.register(control, selectors.EVENT_READ, "control")
        self.selector.register(wake_read, selectors.EVENT_READ, "children")
        self.running: dict[int, _Child] = {}  # by token
        self.by_pid: dict[int, _Child] = {}

    def serve(self) -> NoReturn:
        while True:
            for key, _ in self.selector.select():
                if key.data == "children":
                    try:
                        while os.read(self.wake_read, 512):
                            pass
                    except BlockingIOError:
                        pass
                    self.reap()
                    continue
                try:
                    data, descriptors, _flags, _address = socket.recv_fds(self.control, _CONTROL_MESSAGE_BYTES, 4)
                except InterruptedError:
                    continue
                if not data:  # the server is gone: so is everything it started
                    for child in self.running.values():
                        _kill_group(child.pid)
                    os._exit(0)
                try:
                    message = json.loads(data)
                    self.on_request(message, descriptors)
                except (ValueError, KeyError, TypeError):  # not from our server: dropped
                    for descriptor in descriptors:
                        os.close(descriptor)

    def fork_child(self, limits: ChildLimits, channel: socket.socket) -> int:
        pid = os.fork()
        if pid != 0:
            return pid
        code = 70
        try:
            os.setpgid(0, 0)
            signal.set_wakeup_fd(-1)
            signal.signal(signal.SIGCHLD, signal.SIG_DFL)
            self.selector.close()
            self.control.close()
            os.close(self.wake_read)
            os.close(self.wake_write)
            for other in self.running.values():
                other.channel.close()
            run_child(channel, limits)  # ends the process itself
        finally:
            os._exit(code)

    def on_request(self, message: ControlMessage, descriptors: list[int]) -> None:
        if message.get("preload") and self.preload is not None:
            preload, self.preload = self.preload, None
            preload()
            # Everything imported so far stays as it is: the collector never walks it again, so a
            # child's collections do not write into (and so copy) the pages it shares with us.
            gc.freeze()
        if "parse" in message and len(descriptors) == 1:
            token = int(message["parse"])
            limits = ChildLimits(memory_mb=int(message["memory_mb"]), cpu_seconds=float(message["cpu_seconds"]))
            channel = socket.socket(fileno=descriptors[0])
            try:
                pid = self.fork_child(limits, channel)
            except OSError:  # no process to be had: the server reads the end of the stream
                channel.close()
                return
            try:
                os.setpgid(pid, pid)  # also here: a kill may come before the child ran its own
            except OSError:
                pass  # it already has
            self.running[token] = self.by_pid[pid] = _Child(token, pid, channel)
            return
        for descriptor in descriptors:  # nothing else carries one
            os.close(descriptor)
        child = self.running.get(message.get("kill"))  # type: ignore[arg-type]
        if child is not None:  # not reaped yet, so its pid (and group) cannot have been reused
            _kill_group(child.pid)

    def reap(self) -> None:
        while True:
            try:
                # WNOWAIT: the exited child stays a zombie, holding its pid and so its process
                # group, while whatever it started in that group is killed.
                exited = os.waitid(os.P_ALL, 0, os.WEXITED | os.WNOHANG | os.WNOWAIT)
            except ChildProcessError:
                return
            if exited is None:
                return
            _kill_group(exited.si_pid)
            pid, status = os.waitpid(exited.si_pid, 0)
            child = self.by_pid.pop(pid, None)
            if child is None:
                continue
            self.running.pop(child.token, None)
            try:
                child.channel.setblocking(False)
                child.channel.send(frame(EXIT_STATUS, str(status).encode("ascii")))
            except OSError:
                pass  # the server stopped listening (done, or the child stuffed the buffer)
            child.channel.close()


def _kill_group(pid: int) -> None:
    """SIGKILL a child's process group (or the child alone, before it made one). Only ever
    called with the pid of a child not yet reaped, which no other process can have."""
    for kill in (os.killpg, os.kill):
        try:
            kill(pid, signal.SIGKILL)
            return
        except ProcessLookupError:
            continue
        except PermissionError:
            return


def main() -> NoReturn:
    """The fork server as its own process (``ForkServer.spawn``): stdin is the control socket.
    Run by the sandbox as ``python -P -m research.servers.parser.fork_server``."""
    from research.servers.parser.limits import apply_server_limits
    from research.servers.parser.warmup import preload

    apply_server_limits()
    try:
        control = socket.socket(fileno=os.dup(0))
    except OSError:
        control = None
    if control is None or control.type != socket.SOCK_SEQPACKET:
        print("research parser: the fork server is started by the parser server, not by hand", file=sys.stderr)
        os._exit(2)
    try:
        _serve(control, preload)
    except BaseException as exc:  # noqa: BLE001 - said on the server's log, then gone
        print(f"research parser: the fork server failed: {type(exc).__name__}: {exc}", file=sys.stderr)
    os._exit(70)


if __name__ == "__main__":
    main()

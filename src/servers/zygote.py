"""A warm parent for our web-search server: it imports the server (the MCP SDK above all)
once, and forks a server process for each start a host asks for.

Why: a server's start is about a second of CPU, 90 % of it the MCP SDK's import (pydantic
models of two protocol eras, the HTTP transports), and no lighter import path of the SDK
gets under 0.7 s (docs/benchmarks.md, "Light processes"). A process forked from a parent
that has imported it is ready in about 0.06 s. A host that keeps starting web-search
servers (``research serve``, the research MCP server, a test worker) asks this process for
each of them when it has opted in (``modules/clients/zygote.py``). A one-shot run is its
own warm parent (``standby_server``): right after its settings, before it imports the rest of
its program or starts a thread, it imports the server and forks; the child waits for the
run's start of that server and becomes it, so the run and its server share one import of
the SDK, and the server's command line in /proc is the server's own (``_retitle``). The
parser server is never forked from here: it runs inside its sandbox, which bubblewrap makes
when it executes the server.

Run as ``python -P -m research.servers.zygote MODULE...`` with a SOCK_SEQPACKET socket as
stdin, the control channel (one JSON message per datagram):

* host -> zygote ``{"start": token, "module": M, "args": [...], "env": {...}, "cwd": dir}``
  with three descriptors: the server's stdin, stdout and stderr. ``M`` must be one of the
  modules named on the command line (all imported at the zygote's start) that has
  ``main(argv) -> int``; the others are imported so that no server imports them again
  (the web server's engines and fetcher, which it builds right after its start).
* zygote -> host ``{"started": token, "pid": pid}`` with one descriptor, a pidfd of the
  server: the host signals it through that (never a pid that may have been reused), or
  ``{"failed": token, "reason": text}``.
* zygote -> host ``{"exited": token, "returncode": n}`` once the server is reaped (negative:
  the signal that ended it, as asyncio reports it).

The zygote stays single-threaded and starts no event loop, so each fork copies a process
with nothing running in it. When the host's end closes (the host exited or was killed) the
zygote leaves; its servers are left to end as each server ends when its host goes: their
stdin closes.
"""

from __future__ import annotations

import contextvars
import gc
import importlib
import json
import logging
import os
import selectors
import signal
import socket
import sys
import threading
import traceback
from typing import Any, NoReturn

from research.servers.process_exit import exit_now

_MESSAGE_BYTES = 1 << 20  # a start request carries the server's environment


def _reply(control: socket.socket, message: dict[str, Any], descriptors: list[int] | None = None) -> None:
    data = json.dumps(message).encode("utf-8")
    if descriptors:
        socket.send_fds(control, [data], descriptors)
    else:
        control.send(data)


def standby_server(module_name: str, control: socket.socket, fds: list[int], preload: tuple[str, ...] = ()) -> int:
    """Fork this process now into a server of ``module_name`` that waits for its start; returns
    its pid. For a host that is the warm parent itself (a one-shot run: ``standby_from_this_process``
    in modules/clients/zygote.py). The module is imported here first (the MCP SDK above all,
    which the host needs for its own clients anyway), so host and server share one import of it,
    and so are the ``preload`` modules: what the server imports right after its start (the web
    server's engines and fetcher, as a zygote has them), whose own imports (httpx, rich,
    markdown-it, our state models) the host imports too, later; imported once, before the fork,
    they are shared instead of held twice. Forked early, before the host imports the rest of its
    program, so the server holds nothing of that. Call it while the process has no other thread.

    The child reads one message from ``control``: ``{"args", "env", "cwd"}``, the start a spawn
    would have made, and becomes that server with ``fds`` (stdin, stdout, stderr); the end of
    ``control`` without a message (the host needs no server, or is gone) ends it."""
    module = importlib.import_module(module_name)
    for name in preload:
        importlib.import_module(name)
    if threading.active_count() != 1:  # an import started a thread: a fork could copy a held lock
        raise RuntimeError("an import started a thread; not forking")
    for stream in (sys.stdout, sys.stderr):  # nothing the host wrote may be written again by the child
        try:
            stream.flush()
        except (OSError, ValueError):
            pass
    # What both hold stays as it is: neither's collector walks (and so copies) the shared pages.
    # The host's objects of this moment (its imports and settings) are then never collected:
    # it keeps them until it exits anyway.
    gc.freeze()
    pid = os.fork()
    if pid == 0:
        code = 0
        try:
            os.setsid()  # out of the terminal's process group at once: Ctrl-C is the host's to handle
            _close_all_but({0, 1, 2, control.fileno(), *fds})  # the host's ends above all: its exit is our EOF
            request = _wait_for_start(control)
            if request is not None:
                control.close()
                request["module"] = module_name
                _become_server(module, request, fds, host=True)
        except BaseException:  # noqa: BLE001 - a standby that cannot start ends; the host spawns instead
            code = 70
        exit_now(code)
    return pid


def _close_all_but(keep: set[int]) -> None:
    try:
        opened = [int(name) for name in os.listdir("/proc/self/fd")]
    except OSError:
        opened = list(range(3, 1024))
    for fd in opened:
        if fd not in keep:
            try:
                os.close(fd)
            except OSError:
                pass


def _wait_for_start(control: socket.socket) -> dict[str, Any] | None:
    while True:
        try:
            data = control.recv(_MESSAGE_BYTES)
        except InterruptedError:
            continue
        except OSError:
            return None
        if not data:
            return None
        request = json.loads(data)
        if isinstance(request, dict) and isinstance(request.get("args"), list) and isinstance(request.get("env"), dict):
            return request
        return None


def _become_server(module: Any, request: dict[str, Any], fds: list[int], host: bool = False) -> NoReturn:
    """In the forked child: take the host's pipes as stdio and run the server's ``main``.
    ``host``: forked by the host itself (``standby_server``), not by a zygote: what the host set up
    for itself (its signal handlers, its log, its script's folder on sys.path, its command line
    as /proc shows it) is put back as a fresh ``python -P -m`` start has it."""
    code = 70
    try:
        if os.getsid(0) != os.getpid():  # a standby made its session when it was forked
            os.setsid()  # its own process group, as a spawned server gets (start_new_session)
        for target, fd in enumerate(fds):
            os.dup2(fd, target)
        os.closerange(3, os.sysconf("SC_OPEN_MAX") if hasattr(os, "sysconf") else 4096)
        # The signals as a fresh interpreter has them (SIGPIPE ignored: a closed pipe is an OSError).
        signal.set_wakeup_fd(-1)
        signal.signal(signal.SIGCHLD, signal.SIG_DFL)
        signal.signal(signal.SIGINT, signal.default_int_handler)
        if not host:
            gc.unfreeze()
        os.chdir(request["cwd"])
        os.environ.clear()
        argv = [sys.executable, "-P", "-m", request["module"], *request["args"]]
        if host:
            _leave_the_host(argv)
        os.environ.update(request["env"])
        if host:
            _retitle(argv)
        sys.argv = [module.__file__ or request["module"], *request["args"]]
        # A context of its own: nothing the host's task had set (its context variables) is seen.
        code = int(contextvars.Context().run(module.main, list(request["args"])) or 0)
    except SystemExit as stop:
        code = stop.code if isinstance(stop.code, int) else (0 if stop.code is None else 1)
    except BaseException:  # noqa: BLE001 - the server's log says why, as an uncaught error would
        traceback.print_exc()
        code = 1
    exit_now(code)


def _leave_the_host(argv: list[str]) -> None:
    """What a host set up for itself, as a fresh ``python -P -m`` start would not have it."""
    for name in ("SIGTERM", "SIGHUP"):  # the host's run handles these (cli/signals.py); a server dies
        number = getattr(signal, name, None)
        if number is not None:
            signal.signal(number, signal.SIG_DFL)
    for logger in (logging.getLogger(), logging.getLogger("research")):  # the host's log is not ours
        for handler in list(logger.handlers):
            logger.removeHandler(handler)
    logging.getLogger("research").setLevel(logging.NOTSET)
    if not sys.flags.safe_path and sys.path and sys.argv and sys.argv[0]:
        script_folder = os.path.dirname(os.path.realpath(sys.argv[0]))
        if sys.path[0] in (script_folder, os.path.dirname(sys.argv[0])):
            del sys.path[0]  # the host's script's folder: `-P` puts nothing there
    try:
        import ctypes

        libc = ctypes.CDLL(None)
        # The C library's environment, which may still point into the start-up block _retitle reuses
        # (os.environ, emptied before this, sets it again afterwards).
        libc.clearenv()
        # The process's name as a spawned server has it (`ps -C`, `pgrep` without -f): PR_SET_NAME.
        libc.prctl(15, ctypes.c_char_p(os.path.basename(argv[0]).encode()[:15]), 0, 0, 0)
    except (OSError, AttributeError):
        pass


def _retitle(argv: list[str]) -> None:
    """Show ``argv`` as this process's command line in /proc (``ps``, ``pgrep -f``), as a spawned
    server's, instead of the host's: written over the start-up block of arguments (and, where it
    is longer, the environment after it, which the kernel then reads on into, up to the first
    NUL, as for setproctitle). The environment's block is cleared with it (os.environ and the
    C library's copies live elsewhere by now), so no start-up variable of the host shows."""
    try:
        import ctypes

        with open("/proc/self/stat", "rb") as stat:  # fields 48-51 (proc(5)): where both blocks lie
            fields = stat.read().rsplit(b")", 1)[1].split()
        arg_start, arg_end, env_start, env_end = (int(v) for v in fields[45:49])
    except (OSError, ValueError, IndexError, ImportError):
        return
    room = arg_end - arg_start
    if room <= 0:
        return
    end = env_end if env_start == arg_end and env_end > arg_end else arg_end
    exact = b"\0".join(part.encode("utf-8", "surrogateescape") for part in argv) + b"\0"
    if len(exact) <= room:
        title = exact  # each argument its own, as the kernel gives arg_start..arg_end
    else:
        # One string, the arguments joined by spaces: past arg_end the kernel reads it as a title.
        title = " ".join(argv).encode("utf-8", "surrogateescape")[: end - arg_start - 1] + b"\0"
        if end == arg_end:  # no environment block after it to run into: cut to the arguments' room
            title = title[: room - 1] + b"\0"
    data = title.ljust(end - arg_start, b"\0")
    ctypes.memmove(arg_start, data, len(data))


def serve(modules: dict[str, Any], control: socket.socket) -> None:
    wake_read, wake_write = os.pipe()
    os.set_blocking(wake_read, False)
    os.set_blocking(wake_write, False)
    signal.set_wakeup_fd(wake_write)
    signal.signal(signal.SIGCHLD, lambda *_: None)  # a handler, so the wake-up fd is written
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the host's to handle, not ours
    selector = selectors.DefaultSelector()
    selector.register(control, selectors.EVENT_READ, "control")
    selector.register(wake_read, selectors.EVENT_READ, "children")
    children: dict[int, int] = {}  # pid -> token
    # Everything imported so far stays as it is: a server's collections do not write into
    # (and so copy) the pages it shares with us.
    gc.freeze()
    while True:
        for key, _ in selector.select():
            if key.data == "children":
                while True:
                    try:
                        os.read(wake_read, 4096)
                    except BlockingIOError:
                        break
                _reap(children, control)
                continue
            try:
                data, fds, _flags, _address = socket.recv_fds(control, _MESSAGE_BYTES, 3)
            except OSError:
                data, fds = b"", []
            if not data:
                return  # the host is gone
            try:
                request = json.loads(data)
                token = request["start"]
            except (ValueError, KeyError, TypeError):
                for fd in fds:
                    os.close(fd)
                continue
            module = modules.get(request.get("module"))
            if module is None or not callable(getattr(module, "main", None)) or len(fds) != 3:
                for fd in fds:
                    os.close(fd)
                _reply(control, {"failed": token, "reason": f"not a module of this zygote: {request.get('module')}"})
                continue
            try:
                pid = os.fork()
            except OSError as exc:
                for fd in fds:
                    os.close(fd)
                _reply(control, {"failed": token, "reason": f"fork: {exc.strerror or exc}"})
                continue
            if pid == 0:
                selector.close()
                control.close()
                os.close(wake_read)
                os.close(wake_write)
                _become_server(module, request, fds)
            for fd in fds:
                os.close(fd)
            children[pid] = token
            # Opened before the child can be reaped (only we reap it), so it names this child.
            pidfd = os.pidfd_open(pid)
            try:
                _reply(control, {"started": token, "pid": pid}, [pidfd])
            finally:
                os.close(pidfd)


def _reap(children: dict[int, int], control: socket.socket) -> None:
    while children:
        try:
            pid, status = os.waitpid(-1, os.WNOHANG)
        except ChildProcessError:
            return
        if pid == 0:
            return
        token = children.pop(pid, None)
        if token is not None:
            try:
                _reply(control, {"exited": token, "returncode": os.waitstatus_to_exitcode(status)})
            except OSError:
                pass  # the host is gone; the loop sees it next


def main(argv: list[str]) -> int:
    control = socket.socket(fileno=os.dup(0))
    devnull = os.open(os.devnull, os.O_RDWR)
    os.dup2(devnull, 0)  # nothing here reads stdin or writes stdout: the control socket is all
    os.dup2(devnull, 1)
    os.close(devnull)
    modules = {name: importlib.import_module(name) for name in argv}
    if threading.active_count() != 1:  # forking a process with threads can copy a held lock
        print("research zygote: an import started a thread; not forking", file=sys.stderr)
        return 70
    serve(modules, control)
    return 0


if __name__ == "__main__":
    exit_now(main(sys.argv[1:]))

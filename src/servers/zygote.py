"""A warm parent for our web-search server: it imports the server (the MCP SDK above all)
once, and forks a server process for each start a host asks for.

Why: a server's start is about a second of CPU, 90 % of it the MCP SDK's import (pydantic
models of two protocol eras, the HTTP transports), and no lighter import path of the SDK
gets under 0.7 s (docs/benchmarks.md, "Light processes"). A process forked from a parent
that has imported it is ready in about 0.06 s. A host that keeps starting web-search
servers (``research serve``, the research MCP server, a test worker) asks this process for
each of them when it has opted in (``modules/clients/zygote.py``); a one-shot run starts
its one server as before. The parser server is never forked from here: it runs inside its
sandbox, which bubblewrap makes when it executes the server.

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

import gc
import importlib
import json
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


def _become_server(module: Any, request: dict[str, Any], fds: list[int]) -> NoReturn:
    """In the forked child: take the host's pipes as stdio and run the server's ``main``."""
    code = 70
    try:
        os.setsid()  # its own process group, as a spawned server gets (start_new_session)
        for target, fd in enumerate(fds):
            os.dup2(fd, target)
        os.closerange(3, os.sysconf("SC_OPEN_MAX") if hasattr(os, "sysconf") else 4096)
        # The signals as a fresh interpreter has them (SIGPIPE ignored: a closed pipe is an OSError).
        signal.set_wakeup_fd(-1)
        signal.signal(signal.SIGCHLD, signal.SIG_DFL)
        signal.signal(signal.SIGINT, signal.default_int_handler)
        gc.unfreeze()
        os.chdir(request["cwd"])
        os.environ.clear()
        os.environ.update(request["env"])
        sys.argv = [module.__file__ or request["module"], *request["args"]]
        code = int(module.main(list(request["args"])) or 0)
    except SystemExit as stop:
        code = stop.code if isinstance(stop.code, int) else (0 if stop.code is None else 1)
    except BaseException:  # noqa: BLE001 - the server's log says why, as an uncaught error would
        traceback.print_exc()
        code = 1
    exit_now(code)


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

"""`research serve`: the research service for a team (docs/scale.md).

* ``research serve [--host H] [--port P] [--workers N] [--log-format text|json]``: the MCP
  server over Streamable HTTP at ``http://H:P/mcp`` plus N worker processes, all sharing
  the PostgreSQL of ``RESEARCH_DATABASE_URL``. Bound to 127.0.0.1 unless ``--host`` says
  otherwise. Each request and each refusal is one line on stderr (access_log.py).
* ``research serve worker``: one more worker (on this or another machine with the same
  database, sessions folder and Ollama).
* ``research serve token add NAME | list | revoke ID``: the bearer tokens (kept hashed).

Bad flags and settings are one line on stderr and exit 2.
"""

from __future__ import annotations

import argparse
import json
import signal
import socket
import subprocess
import sys

from research.cli.arguments import ArgumentParser
from research.modules.core.errors import EXIT_OK, UsageError, UserFacingError
from research.modules.core.i18n import t
from research.modules.core.language import Language

DEFAULT_PORT = 8765
DEFAULT_WORKERS = 2
WORKER_STOP_SECONDS = 30


def _parsers() -> tuple[argparse.ArgumentParser, argparse.ArgumentParser, argparse.ArgumentParser]:
    serve = ArgumentParser(prog="research serve",
                            description="Serve research over MCP (Streamable HTTP) with bearer tokens; runs are "
                                        "queued in PostgreSQL (RESEARCH_DATABASE_URL) and run by workers. "
                                        "Also: research serve worker, research serve token add|list|revoke.")
    serve.add_argument("--host", default="127.0.0.1", help="address to listen on (default 127.0.0.1: this machine)")
    serve.add_argument("--port", type=int, default=DEFAULT_PORT, help=f"port (default {DEFAULT_PORT})")
    serve.add_argument("--workers", type=int, default=DEFAULT_WORKERS,
                       help=f"worker processes to start here (default {DEFAULT_WORKERS}; 0: only the HTTP server)")
    serve.add_argument("--lang", choices=["ja", "en"])
    serve.add_argument("--log-format", choices=["text", "json"], default="text",
                       help="the access log on stderr: text (default) or json, one object a line for collectors")
    worker = ArgumentParser(prog="research serve worker", description="Run queued research runs, one at a time.")
    worker.add_argument("--lease-seconds", type=float, default=15.0,
                        help="a run whose worker was silent this long is taken over (default 15)")
    worker.add_argument("--heartbeat-seconds", type=float, default=2.0, help="heartbeat interval (default 2)")
    tokens = ArgumentParser(prog="research serve token", description="Manage the service's bearer tokens.")
    actions = tokens.add_subparsers(dest="action", required=True)
    add = actions.add_parser("add", help="create a token (printed once)")
    add.add_argument("name", help="who or what uses it")
    listing = actions.add_parser("list", help="the tokens (ids and names, never the tokens)")
    listing.add_argument("--json", action="store_true")
    revoke = actions.add_parser("revoke", help="remove a token (by id or name)")
    revoke.add_argument("ref")
    for parser in (worker, tokens):
        parser.add_argument("--lang", choices=["ja", "en"])
    return serve, worker, tokens


def main(argv: list[str]) -> int:
    serve_parser, worker_parser, token_parser = _parsers()
    if argv[:1] == ["token"]:
        args = token_parser.parse_args(argv[1:])
    elif argv[:1] == ["worker"]:
        args = worker_parser.parse_args(argv[1:])
    else:
        args = serve_parser.parse_args(argv)
    from research.modules.core.language import choose_language

    lang = choose_language(args.lang)  # --lang, else the locale: the front's lines and its workers'
    try:
        from research.modules.core.settings import load_settings

        from research.modules.core.logs import configure

        settings = load_settings()
        configure(settings.log_level, lang=lang)  # the front and its workers log alike (RESEARCH_LOG_LEVEL)
        if argv[:1] == ["token"]:
            return _tokens(args, settings, lang)
        _check_sessions_folder(settings.sessions_dir)
        if not settings.database_url:
            raise UsageError("serve.needs_database")
        _check_database(settings.database_url)
        if argv[:1] == ["worker"]:
            from research.cli import early_servers

            # Its web-search server forked from it now, after the MCP SDK's import and before the
            # rest of the worker's (cli/early_servers.py): its first run starts it for 0.8 s less CPU.
            early_servers.prepare(settings, parser=False)
            try:
                from research.team.worker import run_worker

                run_worker(settings, args.lease_seconds, args.heartbeat_seconds, lang=lang)
            finally:
                early_servers.discard()
            return EXIT_OK
        return _serve(args, settings, lang)
    except UserFacingError as exc:
        sys.stderr.write(f"research serve: {exc.message(lang)}\n")
        return exc.exit_code


def _check_database(url: str) -> None:
    """Reachable, and its tables made (once, under a lock) before any worker starts."""
    import asyncio

    from research.team.database import ensure_schema

    asyncio.run(ensure_schema(url))  # DatabaseUnreachable: one line with PostgreSQL's reason


# Filesystems whose locks another host does not see at all; NFS and SMB are checked by their
# mount options below.
UNLOCKED_FILESYSTEMS = ("fuse.sshfs", "9p", "fuse.s3fs", "fuse.rclone", "fuse.gcsfuse", "vboxsf", "fuse.vmhgfs-fuse")


def sessions_folder_problem(folder, mounts: str) -> tuple[str, str] | None:
    """(filesystem, option at fault) when the sessions folder sits on a network filesystem
    whose locks are local to each host, so the one-writer-per-session lock would protect
    nothing across hosts; None when its locks hold (a local disk: one host, or a network
    filesystem with server-side locks). ``mounts``: the text of /proc/self/mounts."""
    from pathlib import Path

    target = str(Path(folder).expanduser().resolve())
    best: tuple[str, str, str] | None = None
    for line in mounts.splitlines():
        fields = line.split()
        if len(fields) < 4:
            continue
        point = fields[1].replace("\\040", " ")
        if (target == point or target.startswith(point.rstrip("/") + "/")) and (best is None or len(point) > len(best[0])):
            best = (point, fields[2], fields[3])
    if best is None:
        return None
    _, fstype, options = best
    opts = options.split(",")
    if fstype in ("nfs", "nfs4"):
        for bad in ("nolock", "local_lock=all", "local_lock=flock"):
            if bad in opts:
                return fstype, bad
    elif fstype in ("cifs", "smb3") and "nobrl" in opts:
        return fstype, "nobrl"
    elif fstype in UNLOCKED_FILESYSTEMS:
        return fstype, "no locks across hosts"
    return None


def _check_sessions_folder(folder) -> None:
    """Refuse a sessions folder whose locks would not hold across the hosts that share it."""
    try:
        with open("/proc/self/mounts", encoding="utf-8", errors="replace") as mounts:
            text = mounts.read()
    except OSError:
        return  # not Linux: nothing to read the mount options from
    problem = sessions_folder_problem(folder, text)
    if problem:
        raise UsageError("serve.sessions_folder_unlocked", path=str(folder), fstype=problem[0], option=problem[1])


def _tokens(args: argparse.Namespace, settings, lang: Language) -> int:
    from research.team.tokens import TokenStore, tokens_path

    store = TokenStore(tokens_path(settings))
    if args.action == "add":
        entry, token = store.add(args.name)
        sys.stderr.write(t("serve.token_added", lang, token_id=entry.token_id, name=entry.name) + "\n")
        print(token)  # stdout holds the token alone, for `research serve token add ci > token.txt`
    elif args.action == "list":
        entries = store.list()
        if args.json:
            print(json.dumps([{"id": e.token_id, "name": e.name, "created_at": e.created_at} for e in entries],
                             ensure_ascii=False))
        elif not entries:
            print(t("serve.token_list_empty", lang, path=str(store.path)))
        for entry in entries if not args.json else ():
            print(f"{entry.token_id}  {entry.name}  {entry.created_at}")
    else:
        entry = store.revoke(args.ref)
        print(t("serve.token_revoked", lang, token_id=entry.token_id, name=entry.name))
    return EXIT_OK


def _serve(args: argparse.Namespace, settings, lang: Language) -> int:
    import uvicorn

    from research.team.access_log import AccessLog
    from research.team.front import build_app, uvicorn_config
    from research.team.tokens import TokenStore, tokens_path

    if not 0 <= args.port <= 65535:
        raise UsageError("usage.bad_setting", name="--port", reason="must be 0-65535")
    if args.workers < 0:
        raise UsageError("usage.bad_setting", name="--workers", reason="must be 0 or more")
    store = TokenStore(tokens_path(settings))
    if not store.list():
        sys.stderr.write(t("serve.no_tokens", lang, path=str(store.path)) + "\n")
    if args.host not in ("127.0.0.1", "localhost", "::1"):
        sys.stderr.write(t("serve.public_host", lang, host=args.host) + "\n")
    # Bound here, before anything starts: a port in use is one line, not uvicorn's log.
    family = socket.AF_INET6 if ":" in args.host else socket.AF_INET
    listener = socket.socket(family, socket.SOCK_STREAM)
    listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        listener.bind((args.host, args.port))
        listener.listen(2048)  # connections made from now on wait for the app instead of being refused
    except OSError as exc:
        listener.close()
        raise UserFacingError("serve.port_in_use", host=args.host, port=args.port, reason=exc.strerror or str(exc))
    port = listener.getsockname()[1]
    access_log = AccessLog(args.log_format)  # one line per request and per refusal, in English
    app = build_app(settings, store, args.host, port, access_log=access_log)
    supervisor = _Supervisor(args.workers, lang)
    host = f"[{args.host}]" if ":" in args.host else args.host
    sys.stderr.write(t("serve.listening", lang, url=f"http://{host}:{port}/mcp", workers=args.workers) + "\n")
    sys.stderr.flush()
    # uvicorn answers SIGTERM by shutting down and then raising the signal again once its own
    # handler is gone: with Python's default action the process died there, before the
    # `finally` below, and its workers lived on. As KeyboardInterrupt (what SIGINT already
    # is) the workers are stopped on either signal.
    signal.signal(signal.SIGTERM, signal.default_int_handler)
    try:
        supervisor.start()
        # Its protocol closes a connection that has not sent a whole request head in 10 s.
        server = uvicorn.Server(uvicorn_config(app, access_log=access_log))
        server.run(sockets=[listener])
    except KeyboardInterrupt:
        pass
    finally:
        supervisor.stop()  # each worker hands its run back to the queue, session kept
    return EXIT_OK


def _die_with_parent() -> None:
    """In a worker, before it starts: SIGTERM when `research serve` dies, even by kill -9,
    so no worker is left behind re-parented to PID 1 (Linux; elsewhere a no-op)."""
    try:
        import ctypes

        PR_SET_PDEATHSIG = 1
        ctypes.CDLL(None, use_errno=True).prctl(PR_SET_PDEATHSIG, signal.SIGTERM)
    except (OSError, AttributeError):
        pass


class _Supervisor:
    """The workers `research serve` starts: one that exits (for whatever reason) is started
    again after a short pause, until the service stops."""

    RESTART_SECONDS = 1.0

    def __init__(self, count: int, lang: Language) -> None:
        import threading

        self.count, self.lang = count, lang
        self.workers: list[subprocess.Popen] = []
        self.stopping = threading.Event()
        self.thread = threading.Thread(target=self._watch, name="research-serve-workers", daemon=True)
        self.lock = threading.Lock()

    def _spawn(self) -> subprocess.Popen:
        return subprocess.Popen([sys.executable, "-I", "-m", "research", "serve", "worker", "--lang", self.lang],
                                stdin=subprocess.DEVNULL,
                                preexec_fn=_die_with_parent if sys.platform == "linux" else None)

    def start(self) -> None:
        with self.lock:
            self.workers = [self._spawn() for _ in range(self.count)]
        if self.count:
            self.thread.start()

    def _watch(self) -> None:
        while not self.stopping.wait(self.RESTART_SECONDS):
            with self.lock:
                for index, worker in enumerate(self.workers):
                    if worker.poll() is not None and not self.stopping.is_set():
                        sys.stderr.write(t("serve.worker_restarted", self.lang, pid=worker.pid,
                                           code=worker.returncode) + "\n")
                        self.workers[index] = self._spawn()

    def stop(self) -> None:
        self.stopping.set()
        with self.lock:
            for worker in self.workers:
                if worker.poll() is None:
                    worker.send_signal(signal.SIGTERM)
            for worker in self.workers:
                try:
                    worker.wait(WORKER_STOP_SECONDS)
                except subprocess.TimeoutExpired:
                    worker.kill()
                    worker.wait()

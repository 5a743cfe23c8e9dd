"""Where the parser reads documents: the command line that starts the parser MCP server with
its documents' processes inside a sandbox, and the check that proves the sandbox really has
no network (asked of a document's process, the one that reads hostile bytes).

In a container the whole server runs inside. With bwrap, unshare or none the server is a
process of ours on this host that starts its fork server inside the sandbox; every document is
parsed by a child of that fork server (``build_sandbox_command``).

``settings.sandbox`` picks the sandbox (auto|docker|podman|bwrap|unshare|none):

- docker / podman: the parser image (``settings.sandbox_image``, see Dockerfile.parser)
  with ``--network none --read-only``, the session cache mounted read-only at /cache.
- bwrap (bubblewrap): every namespace unshared (network included), an empty root with
  read-only binds of exactly what Python needs (system libraries, the interpreter prefix,
  the virtualenv, the project source) and of the session cache; tmpfs /tmp; nothing else
  of the host (and so nothing of $HOME) is visible.
- unshare: ``unshare --user --map-root-user --net``. New user and network namespaces
  only: the parser has no network, but it still SEES the host file system with the
  invoking user's rights (the cache is not remounted read-only, $HOME is visible).
  It is the fallback for Linux hosts without bubblewrap; docs/sandbox.md says so.
- none: a plain process with the same resource limits and a loud warning.

auto = docker/podman when an image is configured and the engine answers, else bwrap when
it can create namespaces here, else unshare when it can, else none.
"""

from __future__ import annotations

import json
import os
import shutil
import socket
import subprocess
import sys
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Awaitable, Callable

from pydantic import BaseModel

from research.modules.core.errors import UserFacingError
from research.modules.core.parser_process import (
    FORK_SERVER_ENV,
    FORK_SERVER_MODULE,
    SERVER_MODULE,
    current_net_namespace as current_net_namespace,  # the host's side of the check (tests read it here too)
)

if TYPE_CHECKING:  # read for its fields only; the parser server, which imports this module, has no settings
    from research.modules.core.settings import Settings

CONTAINER_CACHE_DIR = "/cache"
# Per-document limits enforced inside the sandbox (see servers/parser/worker.py).
DEFAULT_DOCUMENT_MEMORY_MB = 1024
DEFAULT_MAX_DOCUMENT_MB = 25
_PROBE_TIMEOUT_S = 10
# Set by our own clients only: the parser server then offers ``sandbox-info``, which a
# model talking to a standalone ``research mcp parser`` must never get to probe with.
DIAGNOSTICS_ENV = "RESEARCH_PARSER_DIAGNOSTICS"
CONCURRENCY_ENV = "RESEARCH_PARSER_CONCURRENCY"


def parse_concurrency() -> int:
    """The one limit on documents parsed at once: the client's gate and the server's slots.
    One per core (at most 4: more only makes each slower); ``RESEARCH_PARSER_CONCURRENCY`` overrides."""
    try:
        wanted = int(os.environ.get(CONCURRENCY_ENV, ""))
    except ValueError:
        wanted = 0
    return wanted if 0 < wanted <= 64 else max(1, min(4, os.cpu_count() or 1))


class SandboxUnavailable(UserFacingError):
    """The sandbox the user asked for cannot run on this machine."""


class SandboxInfo(BaseModel):
    """What the parser server reports about the place it runs in (tool ``sandbox-info``)."""

    net_namespace: str | None = None
    pid: int = 0  # of the document's process that looked (``servers/parser/worker.place_report``)
    uid: int = 0
    server_pid: int = 0  # of the server itself, as it sees itself
    cache_dir: str | None = None
    cache_writable: bool | None = None
    probe_connected: bool | None = None
    probe_error: str | None = None
    visible_paths: list[str] = []
    document_memory_mb: int = 0
    max_document_mb: int = 0
    document_timeout_s: float = 0.0


@dataclass(frozen=True)
class SandboxCommand:
    """A ready-to-spawn parser server: ``command`` + ``args`` with ``env``."""

    name: str
    command: str
    args: list[str]
    env: dict[str, str]
    cache_dir: Path | None  # on the host (None: the server reads inline bytes only)
    cache_dir_inside: str | None  # the same folder as the server sees it
    warning_key: str | None = None  # i18n key of a warning to show the user

    def path_inside(self, host_path: str | os.PathLike[str]) -> str:
        """Translate a file under the host cache into the server's view of it
        (``ValueError`` when it is not under the cache: send the bytes instead)."""
        if self.cache_dir is None or self.cache_dir_inside is None:
            raise ValueError("no cache is shared with the server")
        relative = Path(host_path).resolve().relative_to(self.cache_dir)
        return str(Path(self.cache_dir_inside, relative)) if str(relative) != "." else self.cache_dir_inside


# --------------------------------------------------------------------------- probing


def _runs_ok(argv: list[str], timeout: float = _PROBE_TIMEOUT_S) -> bool:
    try:
        done = subprocess.run(argv, stdin=subprocess.DEVNULL, capture_output=True, timeout=timeout, check=False)
    except (OSError, subprocess.SubprocessError):
        return False
    return done.returncode == 0


@lru_cache(maxsize=None)
def bwrap_usable() -> bool:
    """bubblewrap is installed AND can create namespaces here (containers often forbid it)."""
    exe = shutil.which("bwrap")
    return exe is not None and _runs_ok(
        [exe, "--unshare-all", "--die-with-parent", "--ro-bind", "/", "/", "--proc", "/proc", "--dev", "/dev", "true"]
    )


@lru_cache(maxsize=None)
def unshare_usable() -> bool:
    exe = shutil.which("unshare")
    return exe is not None and sys.platform.startswith("linux") and _runs_ok([exe, "--user", "--map-root-user", "--net", "true"])


@lru_cache(maxsize=None)
def engine_usable(engine: str) -> bool:
    """The container engine is installed and its daemon/runtime answers."""
    exe = shutil.which(engine)
    return exe is not None and _runs_ok([exe, "info", "--format", "{{.ID}}"], timeout=15)


def choose_sandbox(settings: Settings) -> str:
    """The sandbox to use. An explicit choice that cannot work here is an error, not a
    silent downgrade: the user asked for that isolation."""
    wanted = settings.sandbox
    if wanted == "none":
        return "none"
    if wanted in ("docker", "podman"):
        if not settings.sandbox_image:
            raise SandboxUnavailable("sandbox.image_missing", engine=wanted)
        if not engine_usable(wanted):
            raise SandboxUnavailable("sandbox.unavailable", name=wanted)
        return wanted
    if wanted == "bwrap":
        if not bwrap_usable():
            raise SandboxUnavailable("sandbox.unavailable", name="bwrap")
        return "bwrap"
    if wanted == "unshare":
        if not unshare_usable():
            raise SandboxUnavailable("sandbox.unavailable", name="unshare")
        return "unshare"
    # auto
    if settings.sandbox_image:
        for engine in ("docker", "podman"):
            if engine_usable(engine):
                return engine
    if bwrap_usable():
        return "bwrap"
    if unshare_usable():
        return "unshare"
    return "none"


# --------------------------------------------------------------------------- commands


def server_environment(settings: Settings, cache_dir_inside: str | None, *, diagnostics: bool = True) -> dict[str, str]:
    """The parser server's configuration, passed as environment (see servers/parser/server.py)."""
    extra = {DIAGNOSTICS_ENV: "1"} if diagnostics else {}
    extra |= _server_memory()
    if cache_dir_inside:
        extra["RESEARCH_PARSER_CACHE_DIR"] = cache_dir_inside
    return {
        **extra,
        CONCURRENCY_ENV: str(parse_concurrency()),
        "RESEARCH_PARSER_TIMEOUT": str(settings.parse_timeout),
        "RESEARCH_PARSER_MEMORY_MB": os.environ.get("RESEARCH_PARSER_MEMORY_MB", str(DEFAULT_DOCUMENT_MEMORY_MB)),
        "RESEARCH_PARSER_MAX_MB": os.environ.get("RESEARCH_PARSER_MAX_MB", str(DEFAULT_MAX_DOCUMENT_MB)),
    }


def _server_memory() -> dict[str, str]:
    """The server's and the fork server's backstop on their own address space, where one is set."""
    return {key: os.environ[key] for key in ("RESEARCH_PARSER_SERVER_MEMORY_MB",) if key in os.environ}


def sandboxed_environment() -> dict[str, str]:
    """The variables of the processes inside the sandbox (the fork server and its children)."""
    return {
        **_server_memory(),
        # The sandbox file system is read-only: do not even try to write .pyc files.
        "PYTHONDONTWRITEBYTECODE": "1",
        # Keeps the server's virtual size (RLIMIT_AS) independent of its thread count.
        "MALLOC_ARENA_MAX": "2",
        "LANG": "C.UTF-8",
    }


def build_sandbox_command(settings: Settings, cache_dir: Path | None, *, name: str | None = None,
                          diagnostics: bool = True) -> SandboxCommand:
    """The command that starts the parser server for sandbox ``name`` (default: chosen from
    settings), with ``cache_dir`` (the session's sources/) visible read-only inside; without one
    the server reads only inline bytes. ``diagnostics``: offer ``sandbox-info`` (our clients).

    In a container the whole server runs inside (its stdio is the container's; docker run, podman
    run). Otherwise (bwrap, unshare, none) the server is one of our processes on this host, and
    what it starts inside the sandbox is its fork server (``FORK_SERVER_ENV``), whose children
    read every document: the one process that reads hostile bytes is inside, as before, and the
    server, which only routes, can share the MCP SDK's import with the run that starts it
    (forked from it: modules/clients/zygote.py) instead of importing it again in a sandbox,
    about a second of CPU and 24 MiB of PSS per run (docs/benchmarks.md, issue 47)."""
    name = name or choose_sandbox(settings)
    cache = Path(cache_dir).resolve() if cache_dir is not None else None
    from research.modules.clients.server_process import own_python_argv  # not at the top: the parser server imports this module

    python_argv = own_python_argv(SERVER_MODULE)
    if name in ("docker", "podman"):
        env = server_environment(settings, CONTAINER_CACHE_DIR if cache else None, diagnostics=diagnostics)
        env |= sandboxed_environment()
        args = ["run", "--rm", "-i", "--network", "none", "--read-only", "--tmpfs", "/tmp",
                "--cap-drop", "ALL", "--security-opt", "no-new-privileges", "--pids-limit", "256"]  # fmt: skip
        if cache:
            args += ["-v", f"{cache}:{CONTAINER_CACHE_DIR}:ro"]
        for key, value in env.items():
            args += ["-e", f"{key}={value}"]
        args.append(str(settings.sandbox_image))
        return SandboxCommand(name, shutil.which(name) or name, args, {}, cache, CONTAINER_CACHE_DIR if cache else None)
    inside = str(cache) if cache else None
    forks_argv = own_python_argv(FORK_SERVER_MODULE)
    forks_env = sandboxed_environment()
    warning: str | None = None
    if name == "bwrap":
        forks_argv = [shutil.which("bwrap") or "bwrap", *bwrap_arguments(cache, forks_env), *forks_argv]
        forks_env = {}  # bwrap clears the environment and sets each of these itself
    elif name == "unshare":
        forks_argv = [shutil.which("unshare") or "unshare", "--user", "--map-root-user", "--net", "--", *forks_argv]
        # Only the network is cut (docs/sandbox.md): said, so a user who expected bwrap knows.
        warning = "sandbox.unshare_note"
    else:
        warning = "sandbox.none_warning"
    env = server_environment(settings, inside, diagnostics=diagnostics)
    env[FORK_SERVER_ENV] = json.dumps({"argv": forks_argv, "env": forks_env})
    return SandboxCommand(name, python_argv[0], python_argv[1:], env, cache, inside, warning)


def python_runtime_paths() -> list[Path]:
    """Folders the server's interpreter needs: its prefixes, site-packages, the project."""
    import research

    candidates = {Path(p) for p in (sys.prefix, sys.base_prefix, sys.exec_prefix, sys.base_exec_prefix)}
    candidates.add(Path(research.__file__).resolve().parent)  # the package (an editable install's src/)
    candidates |= {Path(p) for p in sys.path if p and p.rstrip("/").endswith(("site-packages", "dist-packages"))}
    resolved = sorted({p.resolve() for p in candidates if p.exists()}, key=lambda p: len(p.parts))
    needed: list[Path] = []
    for path in resolved:  # a folder inside one already bound needs no bind of its own
        if not any(path == kept or kept in path.parents for kept in needed):
            needed.append(path)
    return needed


def bwrap_arguments(cache_dir: Path | None, env: dict[str, str]) -> list[str]:
    args = ["--unshare-all", "--die-with-parent", "--new-session", "--cap-drop", "ALL",
            "--hostname", "research-parser", "--clearenv",
            "--ro-bind", "/usr", "/usr", "--proc", "/proc", "--dev", "/dev",
            "--tmpfs", "/tmp", "--tmpfs", "/home", "--tmpfs", "/root", "--tmpfs", "/run"]  # fmt: skip
    for top in ("/bin", "/sbin", "/lib", "/lib32", "/lib64"):
        if os.path.islink(top):
            args += ["--symlink", os.readlink(top), top]
        elif os.path.isdir(top):
            args += ["--ro-bind", top, top]
    # The dynamic loader cache and time zone; nothing else of /etc (no passwd, no hosts).
    for etc in ("/etc/ld.so.cache", "/etc/ld.so.conf", "/etc/ld.so.conf.d", "/etc/localtime"):
        args += ["--ro-bind-try", etc, etc]
    # Binds come after the tmpfs mounts so a prefix under /root or /tmp lands on top of them.
    for path in python_runtime_paths():
        if path != Path("/usr") and Path("/usr") not in path.parents:
            args += ["--ro-bind", str(path), str(path)]
    if cache_dir is not None:
        args += ["--ro-bind", str(cache_dir), str(cache_dir)]
    args += ["--chdir", "/tmp"]
    for key, value in {"PATH": "/usr/bin:/bin", "HOME": "/tmp", **env}.items():
        args += ["--setenv", key, value]
    return args


# --------------------------------------------------------------------------- verification


@dataclass
class IsolationReport:
    """Proof (or disproof) that where documents are parsed cannot reach the host's network."""

    sandbox: str
    host_namespace: str | None
    server_namespace: str | None
    probe_connected: bool | None
    probe_error: str | None = None
    hidden_paths_visible: list[str] = field(default_factory=list)
    cache_writable: bool | None = None

    @property
    def network_isolated(self) -> bool:
        """Verified only when both witnesses agree: another network namespace, and a
        connection to a port listening on the host's 127.0.0.1 failed from inside."""
        return (
            self.server_namespace is not None
            and self.server_namespace != self.host_namespace
            and self.probe_connected is False
        )


async def verify_isolation(
    sandbox: str,
    ask_server: Callable[[dict[str, object]], Awaitable[SandboxInfo]],
    *,
    hidden_paths: list[str] | None = None,
) -> IsolationReport:
    """Open a listening socket on the host's 127.0.0.1, ask the server (through its
    ``sandbox-info`` tool) to connect to it and to report its network namespace and which
    of ``hidden_paths`` it can see, and compare."""
    listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    try:
        listener.bind(("127.0.0.1", 0))
        listener.listen(8)  # a connect completes against the backlog; no accept needed
        port = listener.getsockname()[1]
        info = await ask_server({"probe_port": port, "probe_paths": list(hidden_paths or [])})
    finally:
        listener.close()
    return IsolationReport(
        sandbox=sandbox,
        host_namespace=current_net_namespace(),
        server_namespace=info.net_namespace,
        probe_connected=info.probe_connected,
        probe_error=info.probe_error,
        hidden_paths_visible=info.visible_paths,
        cache_writable=info.cache_writable,
    )

"""The servers of a process that runs research, made ready before it imports the rest of its program.

Three kinds of process start the web-search server and the parser server: the console
script's one-shot run, a team worker (``research serve worker``) and the research MCP server
(``research mcp research``). Each imports the MCP SDK for its own clients anyway (about half a
second of CPU), so the web-search server is forked from the process right after that import
(``standby_from_this_process``: one import of the SDK for both, about 0.8 s of CPU less than a
spawned server's start; the standby shows its own command line in ``ps``), before the process
imports the rest or starts a thread. Its first start of the web-search server is that standby;
a later one (a restart after a crash, a kept pair stopped when idle) is spawned as before.

A one-shot run forks its parser server there too, and starts it at once (``start_standby_now``):
the server, which only routes, shares the SDK's import with the run; what it starts is its fork
server inside the sandbox, whose parsers' imports and warm-up then run on the other core while the
run imports its graph, so the parser is ready when the first page is (docs/benchmarks.md, issue 47).
The run's server pool takes that very process; a run that starts it otherwise (resumed with other
settings) or not at all ends it. A worker or the MCP server waits for its first run, which may come
much later, so it starts its parser then, as before, and its standby leaves if no run has come
within a kept pair's idle time (``discard_standby_after``): waiting, it holds about 40 MiB of PSS
(docs/scale.md).

Not where the web search is an external server (``mcp_config``), and not for a container
sandbox, whose probe can take seconds, and whose server runs inside the container. ``discard()``
ends whatever no run took.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from research.modules.core.settings import Settings


def prepare(settings: Settings, *, parser: bool) -> None:
    """The standby web-search server (and, with ``parser``, the parser server started at once).
    Call it before anything starts a thread; whatever cannot be made here is started by the run
    as before."""
    if settings.mcp_config:
        return
    if parser:
        _parser_server_early(settings)
    from research.modules.clients.zygote import standby_from_this_process
    from research.servers.zygote import standby_server

    standby_from_this_process(standby_server)


def discard() -> None:
    """What ``prepare`` made and no run took leaves now (a run that ended before its servers:
    Ollama missing, a refused resume, Ctrl-C during the imports; a worker stopped before its first run)."""
    from research.modules.clients.zygote import discard_standby

    discard_standby()


def _parser_server_early(settings: Settings) -> None:
    """The parser server forked from this process and started now, exactly as the run's server pool
    would start it (orchestrator/server_pool.py, parser_client.py), which takes it. First, before the
    web-search server's standby: its sandboxed fork server's start and warm-up are the longest of a
    run's servers."""
    if settings.sandbox in ("docker", "podman") or settings.sandbox_image:
        return
    from pathlib import Path

    from research.modules.clients.sandbox import build_sandbox_command
    from research.modules.clients.server_process import OWN_SERVER_CWD, child_environment
    from research.modules.clients.zygote import PARSER_PRELOADED, start_standby_now
    from research.servers.zygote import standby_server

    try:
        # The folder and the command as the server pool makes them.
        root = Path(settings.sessions_dir).expanduser()
        root.mkdir(parents=True, exist_ok=True)
        command = build_sandbox_command(settings, root.resolve())
    except Exception:  # noqa: BLE001 - the run's own start of the parser says what is wrong, in its place
        return
    start_standby_now(standby_server, command.command, command.args, child_environment(command.env), OWN_SERVER_CWD,
                      PARSER_PRELOADED)

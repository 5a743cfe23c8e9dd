"""The parser MCP server (stdio): ``research mcp parser`` or ``python -m research.servers.parser.server``.

Its tools are in ``tools.py``. This module is the process. Every document is parsed by a child
of its fork server (``fork_server.py``), and the fork server is what runs inside the sandbox:
started by this server through the sandbox's command where ``RESEARCH_PARSER_FORK_SERVER`` gives
one (bwrap, unshare, none: modules/clients/sandbox.py), or, without it, forked from this very
process (inside a container, where this whole server runs; run directly it does not sandbox itself).

The start-up order is what this module is for:
1. the server's own limits (an address-space backstop, no core files; ``limits.py``);
2. the fork server: started through the sandbox, or forked while this process has imported
   nothing but the standard library and started no thread, so forking it is safe and it shares
   the interpreter's pages instead of starting a second interpreter;
3. only then the MCP SDK (``tools.py``), which the fork server and every document's child never
   carry (a server forked from a one-shot run has it already: cli/early_servers.py);
4. then, once the server has handed it its first request (our clients' sandbox probe, which a
   child forked cold answers at once), the fork server imports the parsers (``warmup.py``):
   not beside the server's own start, when a run's other processes are starting on the same
   cores, and the first document comes seconds later (fork_server.py).

The whole parser tree runs at a lower CPU priority (``NICENESS``): a run needs it only at its
processing step, while at start-up the main process and the web-search server are on the
critical path and share the same cores with it. On an idle machine the priority changes
nothing; the user never waits on the parser while something else wants the CPU.

Every document is then parsed in its own child of the fork server, with its own limits and
a wall-clock deadline (``worker.py``). When stdin closes the server leaves at once, and the
fork server, seeing the server gone, kills what is still running and leaves too.
"""

from __future__ import annotations

import os

from research.servers.parser.fork_server import ForkServer, fork_server_wrapper
from research.servers.parser.limits import apply_server_limits
from research.servers.parser.warmup import preload


NICENESS = 10


def serve() -> None:
    """Run the parser server on stdio until the client closes it."""
    os.nice(NICENESS)  # inherited by the fork server and every document's child
    apply_server_limits()
    wrapper = fork_server_wrapper()
    forks = ForkServer.spawn(*wrapper) if wrapper else ForkServer.start(preload)
    from research.servers.parser.tools import ParserConfig, build_server

    server = build_server(ParserConfig.from_environment(), forks)
    server.run("stdio")


def main(argv: list[str] | None = None) -> int:
    """The server's entry as a zygote or a standby starts it (servers/zygote.py); it takes no arguments."""
    serve()
    return 0


if __name__ == "__main__":
    serve()
    from research.servers.mcp_support import exit_now

    exit_now(0)

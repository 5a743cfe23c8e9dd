"""The names by which the parser's processes are started, shared by the server and its clients,
and the one witness both sides read (the network namespace).

Here, at the bottom of the layout, because both sides need them and neither may import the
other's module for them: the clients (modules/clients/sandbox.py) build the command lines, and
the parser server (servers/parser/server.py, fork_server.py) reads them before it imports
anything but the standard library (docs/sandbox.md).
"""

from __future__ import annotations

import os

SERVER_MODULE = "research.servers.parser.server"
FORK_SERVER_MODULE = "research.servers.parser.fork_server"
# The sandbox's command line for the server's fork server (JSON: {"argv": [...], "env": {...}}),
# set by our clients where the sandbox is a command on this host (bwrap, unshare, none): the
# server then runs outside the sandbox, and its fork server, and so every document's child, inside.
FORK_SERVER_ENV = "RESEARCH_PARSER_FORK_SERVER"


def current_net_namespace() -> str | None:
    """This process's network namespace (``net:[…]``): the host's, or the sandbox's seen from inside."""
    try:
        return os.readlink("/proc/self/ns/net")
    except OSError:
        return None

"""`research mcp web-search|parser|research`: run one of the project's MCP servers on stdio."""

from __future__ import annotations

import argparse

from research.cli.main import _ArgumentParser
from research.modules.core.errors import EXIT_OK


def _parser() -> argparse.ArgumentParser:
    parser = _ArgumentParser(prog="research mcp", description="Run one of the MCP servers on stdio.")
    servers = parser.add_subparsers(dest="server", required=True)
    web = servers.add_parser("web-search", help="the web-search MCP server")
    web.add_argument("--cache-dir", help="where fetched bytes are cached (a session's sources/)")
    servers.add_parser("parser", help="the document parser MCP server (run it inside a sandbox)")
    servers.add_parser("research", help="the assistant itself for other MCP hosts: research, verify, sessions")
    return parser


def main(argv: list[str]) -> int:
    args = _parser().parse_args(argv)
    if args.server == "web-search":
        from research.servers.web.server import serve

        serve(args.cache_dir)
    elif args.server == "research":
        from research.servers.research.server import serve

        serve()
    else:
        from research.servers.parser.server import serve

        serve()
    return EXIT_OK

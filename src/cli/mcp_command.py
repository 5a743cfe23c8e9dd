"""`research mcp web-search|parser|research`: run one of the project's MCP servers on stdio.

``research mcp parser`` is what other MCP hosts start, so it sandboxes itself: it replaces
this process with the parser server, whose documents are parsed inside the sandbox
``RESEARCH_SANDBOX`` picks (no network, read-only system; docs/sandbox.md), and refuses to start when there is none unless told
``--no-sandbox``. Bad flags and settings are one line on stderr and exit 2.
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

from research.cli.arguments import ArgumentParser
from research.modules.core.errors import EXIT_OK, EXIT_USAGE, UserFacingError
from research.modules.core.i18n import t
from research.modules.core.language import choose_language


def _parser() -> argparse.ArgumentParser:
    parser = ArgumentParser(prog="research mcp", description="Run one of the MCP servers on stdio.")
    servers = parser.add_subparsers(dest="server", required=True)
    web = servers.add_parser("web-search", help="the web-search MCP server")
    web.add_argument("--cache-dir", help="where fetched bytes are cached (default ~/.cache/research/sources)")
    parse = servers.add_parser("parser", help="the document parser MCP server, inside a sandbox")
    parse.add_argument("--cache-dir", help="a folder the server may read documents from (read-only, by path)")
    parse.add_argument("--no-sandbox", action="store_true",
                       help="run without a sandbox (documents are then parsed WITH network access)")
    servers.add_parser("research", help="the assistant itself for other MCP hosts: research, verify, sessions")
    return parser


def main(argv: list[str]) -> int:
    args = _parser().parse_args(argv)
    if args.server == "web-search":
        from research.servers.web.server import serve

        return serve(args.cache_dir)
    if args.server == "research":
        _web_search_server_on_standby()
        from research.servers.research.server import serve as serve_research

        try:
            serve_research()
        finally:
            from research.cli import early_servers

            early_servers.discard()
        return EXIT_OK
    return _parser_server(args.cache_dir, args.no_sandbox)


def _web_search_server_on_standby() -> None:
    """The research server's first run gets its web-search server forked from this process, after
    the MCP SDK's import and before the rest of the server's (cli/early_servers.py). Bad settings
    are the server's own to report, in its place: here they only mean no standby."""
    from research.cli import early_servers
    from research.modules.core.settings import load_settings

    try:
        settings = load_settings()
    except UserFacingError:
        return
    early_servers.prepare(settings, parser=False)


def _fail(message: str) -> int:
    print(f"research mcp parser: {message}", file=sys.stderr)
    return EXIT_USAGE


def _parser_server(cache_dir: str | None, no_sandbox: bool) -> int:
    from research.modules.clients.sandbox import SandboxUnavailable, build_sandbox_command
    from research.modules.core.settings import load_settings

    try:
        settings = load_settings()
    except UserFacingError as exc:
        return _fail(exc.message("en"))
    lang = choose_language(settings.language, default="en")
    cache = None
    if cache_dir:
        cache = Path(cache_dir).expanduser()
        if not cache.is_dir():
            return _fail(t("servers.bad_cache_dir", lang, path=cache_dir, reason="not an existing folder"))
    if no_sandbox or settings.sandbox == "none":
        print(t("servers.parser_unsandboxed", lang), file=sys.stderr)
        if cache is not None:
            os.environ["RESEARCH_PARSER_CACHE_DIR"] = str(cache.resolve())
        from research.servers.parser.server import serve

        serve()
        return EXIT_OK
    try:
        command = build_sandbox_command(settings, cache, diagnostics=False)
    except SandboxUnavailable as exc:
        return _fail(exc.message(lang))
    if command.name == "none":
        return _fail(t("servers.parser_no_sandbox", lang, reason="no bubblewrap, unshare or container engine works"))
    sys.stdout.flush()
    sys.stderr.flush()
    # Replaced, not wrapped: the host's stdio pipes become the server's own.
    os.execvpe(command.command, [command.command, *command.args], {**os.environ, **command.env})
    return EXIT_OK  # not reached

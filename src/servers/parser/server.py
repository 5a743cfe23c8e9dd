"""The parser MCP server (stdio): ``research mcp parser`` or ``python -m research.servers.parser.server``.

Tools:
- ``parse-document``: one document (a file in the read-only session cache, inline base64
  bytes, or already-extracted text) -> readable Markdown as text content, plus structured
  content shaped like ``research.state.models.ParsedDocument``.
- ``sandbox-info`` (only with RESEARCH_PARSER_DIAGNOSTICS=1, which only our own clients
  set): the network namespace, whether a connect to a port on 127.0.0.1 succeeds, which of
  the given paths exist, whether the cache is writable, so our client can prove isolation.
  A model talking to a standalone ``research mcp parser`` never sees it.

Configuration comes from the environment the sandbox passes in (``modules/clients/sandbox.py``):
RESEARCH_PARSER_CACHE_DIR, RESEARCH_PARSER_TIMEOUT (also the cap of a call's timeout_s),
RESEARCH_PARSER_MEMORY_MB, RESEARCH_PARSER_MAX_MB, RESEARCH_PARSER_SERVER_MEMORY_MB,
RESEARCH_PARSER_CONCURRENCY. ``research mcp parser`` starts this module inside the sandbox
(cli/mcp_command.py); run directly it does not sandbox itself.

Every document is parsed in its own forked child with its own memory and CPU limits and a
wall-clock deadline (``parse_worker.py``); the server itself only routes and waits, under an
address-space cap of its own as a backstop.
"""

from __future__ import annotations

import math
import multiprocessing
import os
import resource
import signal
import sys
import tempfile
from dataclasses import dataclass
from typing import Annotated, Any

import anyio
import anyio.to_thread
from mcp.server.mcpserver.exceptions import ToolError
from mcp.types import CallToolResult, TextContent, ToolAnnotations
from pydantic import Field

from research.modules.clients.sandbox import (
    DEFAULT_DOCUMENT_MEMORY_MB,
    DEFAULT_MAX_DOCUMENT_MB,
    DIAGNOSTICS_ENV,
    SandboxInfo,
    current_net_namespace,
    parse_concurrency,
    probe_from_inside,
)
from research.servers.mcp_support import ResearchMCPServer, exit_now
from research.servers.parser.worker import MB, ChildLimits, ParseRequest, run_child
from research.state.models import ParsedDocument

DEFAULT_TIMEOUT_S = 30.0
MAX_TIMEOUT_S = 600.0
DEFAULT_SERVER_MEMORY_MB = 4096
# Children imported these once in the fork server, so a fork starts parsing at once.
# What HTML needs, which is most pages; pdfminer (about 11 MB) is imported by the child
# that gets a PDF, so a run without PDFs never holds it.
_PRELOAD = [
    "research.servers.parser.warmup",
    "research.servers.parser.worker",
    "research.modules.parsing.extraction",
    "research.modules.parsing.analysis",
    "trafilatura",
    "markdownify",
    "lxml.html",
    "charset_normalizer",
]
_SIGNAL_REASONS = {
    signal.SIGXCPU: "CPU time limit exceeded",
    signal.SIGKILL: "killed (memory or CPU hard limit)",
    signal.SIGSEGV: "crashed (SIGSEGV; typically a stack overflow on deeply nested input)",
    signal.SIGBUS: "crashed (SIGBUS)",
    signal.SIGABRT: "aborted (SIGABRT; typically out of memory in native code)",
    signal.SIGXFSZ: "file size limit exceeded",
}


@dataclass(frozen=True)
class ParserConfig:
    cache_dir: str | None
    timeout_s: float
    memory_mb: int
    max_mb: float
    server_memory_mb: int
    diagnostics: bool = False

    @classmethod
    def from_environment(cls) -> "ParserConfig":
        cache = os.environ.get("RESEARCH_PARSER_CACHE_DIR") or None
        return cls(
            cache_dir=os.path.realpath(cache) if cache else None,
            timeout_s=min(_env_number("RESEARCH_PARSER_TIMEOUT", DEFAULT_TIMEOUT_S), MAX_TIMEOUT_S),
            memory_mb=int(_env_number("RESEARCH_PARSER_MEMORY_MB", DEFAULT_DOCUMENT_MEMORY_MB)),
            max_mb=_env_number("RESEARCH_PARSER_MAX_MB", DEFAULT_MAX_DOCUMENT_MB),
            server_memory_mb=int(_env_number("RESEARCH_PARSER_SERVER_MEMORY_MB", DEFAULT_SERVER_MEMORY_MB)),
            diagnostics=os.environ.get(DIAGNOSTICS_ENV) == "1",
        )


def _env_number(name: str, default: float) -> float:
    try:
        value = float(os.environ.get(name, ""))
    except ValueError:
        return default
    return value if value > 0 and math.isfinite(value) else default


class DocumentRunner:
    """Runs each parse in a fresh child of a pre-warmed fork server, with limits."""

    def __init__(self, config: ParserConfig) -> None:
        self.config = config
        # forkserver, not fork: the MCP server has threads, and forking a threaded process
        # can copy a lock mid-use. The fork server is single-threaded and pre-imported.
        self._context = multiprocessing.get_context("forkserver")
        self._context.set_forkserver_preload(_PRELOAD)
        # The one parse-concurrency limit (sandbox.parse_concurrency), shared with the client.
        self._slots = anyio.Semaphore(parse_concurrency())

    def warm_up(self) -> None:
        """Start the fork server now (it imports the parsers in the background)."""
        from multiprocessing import forkserver

        forkserver.ensure_running()

    async def parse(self, request: ParseRequest, timeout_s: float) -> dict[str, Any]:
        """Parse in a fresh child. Waiting is async, so a cancelled call (the client sent
        ``notifications/cancelled`` or went away) kills its child and frees its slot at once."""
        async with self._slots:
            receiver, sender = self._context.Pipe(duplex=False)
            limits = ChildLimits(memory_mb=self.config.memory_mb, cpu_seconds=timeout_s)
            child = self._context.Process(target=run_child, args=(sender, request, limits), daemon=True)
            try:
                await anyio.to_thread.run_sync(child.start)  # a round trip to the fork server
                sender.close()  # ours closed: the child's death then reads as EOF
                with anyio.move_on_after(timeout_s) as waited:
                    await anyio.wait_readable(receiver.fileno())
                if waited.cancelled_caught:
                    return {"ok": False, "reason": f"timed out after {timeout_s:g} s"}
                try:
                    return await anyio.to_thread.run_sync(receiver.recv)
                except (EOFError, OSError):
                    await anyio.to_thread.run_sync(child.join, 5)
                    return {"ok": False, "reason": _death_reason(child.exitcode, limits)}
            finally:
                sender.close()
                receiver.close()
                if child.pid is not None:
                    if child.is_alive():
                        child.kill()
                    child.join(2)


def _death_reason(exitcode: int | None, limits: ChildLimits) -> str:
    if exitcode is None or exitcode >= 0:
        return f"the parser process ended without a result (exit code {exitcode})"
    sig = signal.Signals(-exitcode)
    what = _SIGNAL_REASONS.get(sig, f"killed by {sig.name}")
    if sig in (signal.SIGXCPU, signal.SIGKILL):
        what += f" (limits: {limits.cpu_seconds:g} s CPU, {limits.memory_mb} MB)"
    return f"the parser process {what}"


def apply_server_limits(config: ParserConfig) -> None:
    """A backstop cap on the server's own address space. The CPU-time limit is per
    document (in the child): a long-lived server legitimately accumulates CPU time."""
    limit = config.server_memory_mb * MB
    soft, hard = resource.getrlimit(resource.RLIMIT_AS)
    if hard != resource.RLIM_INFINITY:
        limit = min(limit, hard)
    if soft == resource.RLIM_INFINITY or soft > limit:
        resource.setrlimit(resource.RLIMIT_AS, (limit, hard))
    resource.setrlimit(resource.RLIMIT_CORE, (0, 0))


def _check_cached_path(path: str, config: ParserConfig) -> str:
    if config.cache_dir is None:
        raise ToolError("this server has no session cache configured; send the bytes inline (data_base64)")
    real = os.path.realpath(path)
    if real != config.cache_dir and not real.startswith(config.cache_dir + os.sep):
        raise ToolError("the path is outside the session cache")
    try:
        size = os.stat(real).st_size
    except OSError:
        raise ToolError("the cached file is missing") from None
    _check_size(size, config)
    return real


def _check_size(size: float, config: ParserConfig) -> None:
    if size > config.max_mb * MB:
        raise ToolError(f"the document is too large ({size / MB:.1f} MB; the limit is {config.max_mb:g} MB)")


def _readable_text(parsed: ParsedDocument) -> str:
    heading = f"# {parsed.title}\n\n" if parsed.title and not parsed.markdown.lstrip().startswith("#") else ""
    return heading + parsed.markdown


_MEDIA_TYPE = "The document's media type (e.g. text/html; charset=EUC-JP); a hint, the bytes are sniffed"
_TIMEOUT = ("Seconds this document may take (> 0); capped by the server's own limit "
            "(RESEARCH_PARSER_TIMEOUT, default 30), which also applies when it is not given")
_ONE_OF = [{"required": ["path"]}, {"required": ["data_base64"]}, {"required": ["text"]}]


def build_server(config: ParserConfig | None = None) -> ResearchMCPServer:
    config = config or ParserConfig.from_environment()
    runner = DocumentRunner(config)
    server = ResearchMCPServer(
        "research-parser",
        instructions="Parses HTML, PDF, plain text and Markdown into Markdown with snippets, key facts and tables.",
    )

    @server.tool(
        name="parse-document",
        description=(
            "Parse one document into Markdown, title, language, the most informative sentences, "
            "key facts (sentences with numbers, dates and quantities), tables and stats. Give exactly "
            "one of: path (a file in the session cache), data_base64 (the raw bytes) or text "
            "(read as media_type says: text/html is parsed as HTML, otherwise as Markdown)."
        ),
        annotations=ToolAnnotations(read_only_hint=True, open_world_hint=False),
    )
    async def parse_document(
        media_type: Annotated[str, Field(max_length=200, description=_MEDIA_TYPE)] = "",
        url: Annotated[str, Field(max_length=4096, description="Where the document came from (helps sniffing and extraction)")] = "",
        path: Annotated[str | None, Field(max_length=4096, description="A file inside the server's session cache")] = None,
        data_base64: Annotated[str | None, Field(description="The document's raw bytes, base64-encoded")] = None,
        text: Annotated[str | None, Field(description="The document as text (HTML, Markdown or plain text)")] = None,
        timeout_s: Annotated[float | None, Field(gt=0, description=_TIMEOUT)] = None,
    ) -> Annotated[CallToolResult, ParsedDocument]:
        given = [name for name, value in (("path", path), ("data_base64", data_base64), ("text", text)) if value is not None]
        if len(given) != 1:
            raise ToolError("give exactly one of path, data_base64 or text")
        if path is not None:
            path = _check_cached_path(path, config)
        elif data_base64 is not None:
            _check_size(len(data_base64) * 3 / 4, config)
        else:
            _check_size(len((text or "").encode("utf-8")), config)
        deadline = min(timeout_s or config.timeout_s, config.timeout_s)
        request = ParseRequest(path=path, data_base64=data_base64, text=text, media_type=media_type, url=url)
        outcome = await runner.parse(request, deadline)
        if not outcome.get("ok"):
            raise ToolError(str(outcome.get("reason") or "the document could not be parsed"))
        parsed = ParsedDocument.model_validate(outcome["document"])
        return CallToolResult(
            content=[TextContent(type="text", text=_readable_text(parsed))],
            structured_content=parsed.model_dump(mode="json"),
        )

    server.extend_input_schema("parse-document", oneOf=_ONE_OF)

    if config.diagnostics:
        @server.tool(
            name="sandbox-info",
            description=(
                "Diagnostics for the research client: the server's network namespace, whether a TCP connection "
                "to probe_port on 127.0.0.1 succeeds from inside, which of probe_paths exist, whether the cache is writable."
            ),
            annotations=ToolAnnotations(read_only_hint=True, open_world_hint=False),
        )
        def sandbox_info(
            probe_port: Annotated[int | None, Field(ge=1, le=65535, description="A port listening on the host's 127.0.0.1")] = None,
            probe_paths: Annotated[list[str] | None, Field(max_length=64, description="Host paths that must be invisible here")] = None,
        ) -> SandboxInfo:
            connected, error = probe_from_inside(probe_port)
            return SandboxInfo(
                net_namespace=current_net_namespace(),
                pid=os.getpid(),
                uid=os.getuid(),
                cache_dir=config.cache_dir,
                cache_writable=_cache_writable(config.cache_dir),
                probe_connected=connected,
                probe_error=error,
                visible_paths=[p for p in (probe_paths or []) if os.path.lexists(p)],
                document_memory_mb=config.memory_mb,
                max_document_mb=int(config.max_mb),
                document_timeout_s=config.timeout_s,
            )

    server.runner = runner  # type: ignore[attr-defined]  # serve() warms it up
    return server


def _cache_writable(cache_dir: str | None) -> bool | None:
    """Really try to create a file: permission bits say nothing about a read-only mount."""
    if cache_dir is None:
        return None
    try:
        with tempfile.NamedTemporaryFile(dir=cache_dir, prefix=".probe-"):
            return True
    except OSError:
        return False


def _detach_main_module() -> None:
    """Workers need nothing from ``__main__``, but multiprocessing re-imports the main
    module in every worker it starts: here that is this server (and with it the whole MCP
    SDK), or the ``research`` console script. Without a spec or file to point at, each
    worker starts with just the preloaded parsers. Only ever called in the server process."""
    main_module = sys.modules.get("__main__")
    if main_module is not None:
        main_module.__spec__ = None
        if hasattr(main_module, "__file__"):
            del main_module.__file__


def serve() -> None:
    """Run the parser server on stdio until the client closes it."""
    _detach_main_module()
    config = ParserConfig.from_environment()
    apply_server_limits(config)
    server = build_server(config)
    server.runner.warm_up()  # type: ignore[attr-defined]
    server.run("stdio")


if __name__ == "__main__":
    serve()
    exit_now(0)

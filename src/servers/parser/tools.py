"""The parser MCP server's tools, and the runner that parses each document in a child.

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
RESEARCH_PARSER_MEMORY_MB, RESEARCH_PARSER_MAX_MB, RESEARCH_PARSER_CONCURRENCY.

Every document is parsed in its own child of the fork server (``fork_server.py``) with its
own memory and CPU limits and a wall-clock deadline (``worker.py``); the server itself only
routes and waits. This module imports the SDK, so ``server.py`` imports it only after the
fork server has been forked.
"""

from __future__ import annotations

import json
import os
import signal
import socket
import sys
from dataclasses import asdict, dataclass
from typing import Annotated, cast

import anyio
from mcp.server.mcpserver.exceptions import ToolError
from mcp.types import CallToolResult, TextContent, ToolAnnotations
from pydantic import Field, ValidationError

from research.modules.clients.sandbox import (
    DEFAULT_DOCUMENT_MEMORY_MB,
    DEFAULT_MAX_DOCUMENT_MB,
    DIAGNOSTICS_ENV,
    SandboxInfo,
    parse_concurrency,
)
from research.servers.mcp_support import ResearchMCPServer, exit_now
from research.servers.parser.fork_server import ControlMessage, ForkServer, ForkServerGone
from research.servers.parser.limits import MB, ChildLimits, env_number
from research.servers.parser.worker import (
    EXIT_STATUS,
    FRAME_HEADER,
    REQUEST,
    RESULT,
    ParseOutcome,
    ParseRequest,
    PlaceProbe,
    frame,
)
from research.state.models import PARSED_DOCUMENT, ParsedDocument

DEFAULT_TIMEOUT_S = 30.0
# A connect to a closed port answers at once, a dropped one is given up after 2 s; the rest is the
# fork server's warm-up, which a probe at the server's start waits for (under the client's 15 s).
_PROBE_TIMEOUT_S = 12.0
MAX_TIMEOUT_S = 600.0
# A result carries at most 400,000 characters of Markdown (worker.MAX_MARKDOWN_CHARS) plus
# snippets, facts and tables; anything much bigger is not from our worker.
MAX_RESULT_BYTES = 64 * MB
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
    diagnostics: bool = False

    @classmethod
    def from_environment(cls) -> "ParserConfig":
        cache = os.environ.get("RESEARCH_PARSER_CACHE_DIR") or None
        return cls(
            cache_dir=os.path.realpath(cache) if cache else None,
            timeout_s=min(env_number("RESEARCH_PARSER_TIMEOUT", DEFAULT_TIMEOUT_S), MAX_TIMEOUT_S),
            memory_mb=int(env_number("RESEARCH_PARSER_MEMORY_MB", DEFAULT_DOCUMENT_MEMORY_MB)),
            max_mb=env_number("RESEARCH_PARSER_MAX_MB", DEFAULT_MAX_DOCUMENT_MB),
            diagnostics=os.environ.get(DIAGNOSTICS_ENV) == "1",
        )


class DocumentRunner:
    """Runs each parse in a fresh child of the fork server, with limits and a deadline."""

    def __init__(self, config: ParserConfig, forks: ForkServer) -> None:
        self.config = config
        self.forks = forks
        # The one parse-concurrency limit (sandbox.parse_concurrency), shared with the client.
        self._slots = anyio.Semaphore(parse_concurrency())

    async def parse(self, request: ParseRequest, timeout_s: float) -> ParseOutcome:
        """Parse in a fresh child. Waiting is async, so a cancelled call (the client sent
        ``notifications/cancelled`` or went away) kills its child and frees its slot at once."""
        async with self._slots:
            limits = ChildLimits(memory_mb=self.config.memory_mb, cpu_seconds=timeout_s)
            token = self.forks.next_token()
            ours, theirs = socket.socketpair()
            try:
                with theirs:
                    await self._ask_fork_server({"parse": token, "memory_mb": limits.memory_mb,
                                                 "cpu_seconds": limits.cpu_seconds}, theirs.fileno())
                ours.setblocking(False)
                with anyio.move_on_after(timeout_s) as waited:
                    tag, payload = await _exchange(ours, request)
                if waited.cancelled_caught:
                    return {"ok": False, "reason": f"timed out after {timeout_s:g} s"}
                if tag == RESULT:
                    return _outcome(payload)
                if tag == EXIT_STATUS:
                    return {"ok": False, "reason": _status_reason(payload, limits)}
                return {"ok": False, "reason": _death_reason(None, limits)}
            finally:
                ours.close()
                # Whatever it is doing (timed out, cancelled, about to exit, or claiming to
                # have died): it is done. A child already reaped is not signalled.
                with anyio.CancelScope(shield=True):
                    await self._ask_fork_server({"kill": token})

    async def _ask_fork_server(self, message: ControlMessage, descriptor: int | None = None) -> None:
        try:
            await self.forks.send(message, descriptor)
        except ForkServerGone as exc:
            # Nothing can be parsed here any more. Leaving makes the client start a fresh
            # server and ask again (parser_client: a server that died is restarted once).
            print(f"research parser: {exc}; exiting", file=sys.stderr)
            exit_now(1)


async def _exchange(channel: socket.socket, request: ParseRequest) -> tuple[bytes | None, bytes]:
    """Hand the request to the child; the first frame back: its result, or its exit status
    when it died first. ``(None, b"")`` at the end of the stream or on a malformed frame."""
    try:
        await _send_all(channel, frame(REQUEST, json.dumps(asdict(request)).encode("utf-8")))
    except OSError:
        pass  # the child died before it read everything: its exit status follows
    header = await _recv_exactly(channel, FRAME_HEADER.size)
    if header is None:
        return None, b""
    tag, size = FRAME_HEADER.unpack(bytes(header))
    if tag not in (RESULT, EXIT_STATUS) or size > MAX_RESULT_BYTES:
        return None, b""
    payload = await _recv_exactly(channel, size)
    return (tag, bytes(payload)) if payload is not None else (None, b"")


async def _send_all(channel: socket.socket, data: bytes) -> None:
    view = memoryview(data)
    while view:
        try:
            sent = channel.send(view)
        except BlockingIOError:
            await anyio.wait_writable(channel)
            continue
        view = view[sent:]


async def _recv_exactly(channel: socket.socket, size: int) -> bytearray | None:
    buffer = bytearray(size)
    view = memoryview(buffer)
    got = 0
    while got < size:
        try:
            count = channel.recv_into(view[got:])
        except BlockingIOError:
            await anyio.wait_readable(channel)
            continue
        except OSError:
            return None
        if count == 0:
            return None
        got += count
    return buffer


def _outcome(payload: bytes) -> ParseOutcome:
    """The child's ``{"ok": ..., ...}``, read as data only (JSON, never pickle)."""
    try:
        outcome = json.loads(payload)
    except ValueError:
        outcome = None
    if not isinstance(outcome, dict) or "ok" not in outcome:
        return {"ok": False, "reason": "the parser process sent a malformed result"}
    return cast(ParseOutcome, outcome)  # its document is validated where the tool reads it


def _status_reason(payload: bytes, limits: ChildLimits) -> str:
    """Why the child died, from the wait status the fork server reported."""
    try:
        return _death_reason(os.waitstatus_to_exitcode(int(payload)), limits)
    except ValueError:  # not a wait status: the child wrote it
        return "the parser process sent a malformed result"


def _death_reason(exitcode: int | None, limits: ChildLimits) -> str:
    if exitcode is None or exitcode >= 0:
        return f"the parser process ended without a result (exit code {exitcode})"
    try:
        sig = signal.Signals(-exitcode)
    except ValueError:
        return f"the parser process was killed by signal {-exitcode}"
    what = _SIGNAL_REASONS.get(sig, f"killed by {sig.name}")
    if sig in (signal.SIGXCPU, signal.SIGKILL):
        what += f" (limits: {limits.cpu_seconds:g} s CPU, {limits.memory_mb} MB)"
    return f"the parser process {what}"


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


def build_server(config: ParserConfig, forks: ForkServer) -> ResearchMCPServer:
    runner = DocumentRunner(config, forks)
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
        try:
            parsed = PARSED_DOCUMENT.validate_python(outcome.get("document"))
        except ValidationError:
            raise ToolError("the parser process sent a malformed result") from None
        return CallToolResult(
            content=[TextContent(type="text", text=_readable_text(parsed))],
            structured_content=PARSED_DOCUMENT.dump_python(parsed, mode="json"),
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
        async def sandbox_info(
            probe_port: Annotated[int | None, Field(ge=1, le=65535, description="A port listening on the host's 127.0.0.1")] = None,
            probe_paths: Annotated[list[str] | None, Field(max_length=64, description="Host paths that must be invisible here")] = None,
        ) -> SandboxInfo:
            # Answered by a document's child, where hostile bytes are read: the server itself may
            # run outside the sandbox (fork_server.FORK_SERVER_ENV).
            probe: PlaceProbe = {"port": probe_port, "paths": list(probe_paths or []), "cache_dir": config.cache_dir}
            request = ParseRequest(path=None, data_base64=None, text=None, media_type="", url="", probe=probe)
            # Not the documents' budget: the child is forked once the fork server's warm-up is done.
            outcome = await runner.parse(request, _PROBE_TIMEOUT_S)
            if not outcome.get("ok") or not isinstance(outcome.get("place"), dict):
                raise ToolError(str(outcome.get("reason") or "the parser process could not look at its place"))
            try:
                return SandboxInfo.model_validate({**outcome["place"], "server_pid": os.getpid(),
                                                   "cache_dir": config.cache_dir,
                                                   "document_memory_mb": config.memory_mb,
                                                   "max_document_mb": int(config.max_mb),
                                                   "document_timeout_s": config.timeout_s})
            except ValidationError:
                raise ToolError("the parser process sent a malformed result") from None

    return server

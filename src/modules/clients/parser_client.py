"""ContainerProcessor: the client side of the sandboxed parser MCP server.

One long-lived server per run (not a process per document), started in the sandbox that
``modules/clients/sandbox.py`` chooses, spoken to over real stdio with the ``mcp`` client
(one ``connection.McpConnection``). Each document costs at most itself: a tool error or a
per-call timeout ends as ``DocumentFailed(reason)``. A server that dies (idle or under a
call) is restarted and the call made once more, so the documents in flight still parse.
"""

from __future__ import annotations

import asyncio
import base64
import logging
import re
import sys
import tempfile
from pathlib import Path
from typing import Any, TypedDict

from typing import TYPE_CHECKING

from research.modules.clients.connection import BackgroundStart, ConnectionStartFailed, McpConnection
from research.modules.clients.server_process import ServerLauncher, import_sdk
from research.modules.clients.sandbox import (
    IsolationReport,
    SandboxCommand,
    SandboxInfo,
    build_sandbox_command,
    parse_concurrency,
    verify_isolation,
)
from research.modules.core.errors import DocumentFailed, UserFacingError
from research.modules.core.i18n import t
from research.modules.core.language import Language
from research.modules.core.language import choose_language
from research.modules.core.logs import said
from research.modules.core.settings import Settings
from research.state.models import PARSED_DOCUMENT, ParsedDocument

if TYPE_CHECKING:  # the SDK is imported when the first connection opens, not with this module
    from mcp import Client
    from mcp.types import CallToolResult

logger = logging.getLogger(__name__)

# Time beyond the server's own per-document deadline for forking and moving the result.
CALL_GRACE_S = 15.0
_STDERR_TAIL_CHARS = 400
_FAILURE_WORDS = re.compile(r"error|failed|killed|denied|not found", re.I)


class ParserUnavailable(UserFacingError):
    """The parser server could not be started (or restarted). A run can go on without it
    (every document then fails with this reason); the CLI prints it as one line."""

    def __init__(self, reason: str) -> None:
        super().__init__("parser.unavailable", reason=reason)
        self.reason = reason

    def __str__(self) -> str:
        return self.reason


class ParseArguments(TypedDict, total=False):
    """The parse-document tool's arguments (servers/parser/tools.py): the document as a path
    inside the sandbox, its bytes or its text, and how to read it."""

    media_type: str
    url: str
    timeout_s: float
    path: str
    data_base64: str
    text: str


class _ServerGone(Exception):
    """The connection to the server broke under a call."""


class ContainerProcessor(BackgroundStart):
    """``DocumentParser`` backed by the sandboxed parser MCP server.

    ``async with ContainerProcessor(settings, cache_dir) as cp: await cp.parse(...)``
    """

    def __init__(self, settings: Settings, cache_dir: Path, *, sandbox: str | None = None, lang: Language | None = None) -> None:
        self.settings = settings
        self.lang = choose_language(lang, settings.language, default="en")
        self.cache_dir = Path(cache_dir)
        self._requested_sandbox = sandbox
        self.command: SandboxCommand | None = None
        self.isolation: IsolationReport | None = None
        self.parse_calls = 0  # parse-document calls sent (a test counts them)
        self._connection: McpConnection | None = None
        self._gave_up: str | None = None
        # The one parse-concurrency limit: the server has as many slots (sandbox.parse_concurrency).
        self._slots = asyncio.Semaphore(parse_concurrency())
        self._stderr = tempfile.TemporaryFile("w+", encoding="utf-8", errors="replace")
        self._launcher: ServerLauncher | None = None
        self._init_background_start()

    # ------------------------------------------------------------------ properties

    @property
    def sandbox_name(self) -> str:
        return self.command.name if self.command else (self._requested_sandbox or self.settings.sandbox)

    @property
    def isolation_verified(self) -> bool:
        return bool(self.isolation and self.isolation.network_isolated)

    @property
    def restarts(self) -> int:
        return self._connection.restarts if self._connection else 0

    # ------------------------------------------------------------------ lifecycle

    _not_started_hint = "ContainerProcessor used outside `async with`"

    async def _boot(self, after: "asyncio.Future[Any] | None" = None) -> None:
        """Sandbox probe, spawn, handshake and isolation check (``start_soon`` runs it)."""
        self.cache_dir.mkdir(parents=True, exist_ok=True)  # bind mounts need it to exist
        # Choosing the sandbox runs probe commands: off the event loop.
        self.command = await asyncio.to_thread(build_sandbox_command, self.settings, self.cache_dir,
                                               name=self._requested_sandbox)
        if self.command.warning_key:
            print(t(self.command.warning_key, self.lang), file=sys.stderr)
        self._launcher = ServerLauncher.own(self.command.command, self.command.args, self.command.env,
                                            errlog=lambda: self._stderr)
        try:
            await self._launcher.prespawn()
        finally:
            self._spawned.set()
        await import_sdk(after)
        self._connection = McpConnection(self._make_client, name="parser")
        await self._live()
        self.isolation = await self._verify_isolation()
        if self.command.name != "none" and not self.isolation.network_isolated:
            logger.warning(said("log.sandbox_unproven", sandbox=self.command.name, report=self.isolation))

    def _make_client(self) -> "Client":
        from mcp import Client

        assert self._launcher is not None
        return Client(self._launcher.transport())

    def end_input(self) -> None:
        """Let the server (and its sandbox) go now, without waiting; ``aclose()`` still follows."""
        if self._launcher is not None:
            self._launcher.end_input()

    async def aclose(self) -> None:
        await self._stop_starting()
        if self._connection is not None:
            await self._connection.close()
        if self._launcher is not None:
            await self._launcher.discard_spare()
        if not self._stderr.closed:
            self._stderr.close()

    async def _live(self, broken: int | None = None) -> tuple["Client", int]:
        """The running server (started, or restarted when generation ``broken`` died)."""
        if self._connection is None:
            raise RuntimeError("ContainerProcessor used outside `async with`")
        if self._gave_up:
            raise ParserUnavailable(self._gave_up)
        try:
            if broken is None:
                return await self._connection.client()
            if self._connection.crashed_too_often:
                self._gave_up = "the parser server crashed too often"
                raise ParserUnavailable(self._gave_up)
            return await self._connection.restart(broken)
        except ConnectionStartFailed as exc:
            if isinstance(exc.cause, UserFacingError) and not isinstance(exc.cause, ParserUnavailable):
                raise exc.cause from None
            raise ParserUnavailable(f"{_describe(exc.cause)}{self._stderr_tail()}") from None

    def _stderr_tail(self) -> str:
        try:
            self._stderr.flush()
            self._stderr.seek(0, 2)
            size = self._stderr.tell()
            self._stderr.seek(max(0, size - _STDERR_TAIL_CHARS))
            tail = self._stderr.read().strip().splitlines()
        except (OSError, ValueError):
            return ""
        # The line that says what failed, not what a runtime prints after it (Rust's
        # "note: run with RUST_BACKTRACE=1", "skipping backtrace printing ...").
        telling = [line for line in tail if _FAILURE_WORDS.search(line)]
        return f" ({(telling or tail)[-1]})" if tail else ""

    # ------------------------------------------------------------------ calls

    async def verify_isolation(self, hidden_paths: list[str] | None = None) -> IsolationReport:
        """Ask the running server to prove it has no network (see ``sandbox.verify_isolation``).
        The ``sandbox-info`` tool exists only because our sandbox command turns diagnostics on."""
        await self._started()
        return await self._verify_isolation(hidden_paths)

    async def _verify_isolation(self, hidden_paths: list[str] | None = None) -> IsolationReport:
        client, _ = await self._live()

        async def ask(arguments: dict[str, object]) -> SandboxInfo:
            result = await client.call_tool("sandbox-info", arguments, read_timeout_seconds=CALL_GRACE_S)
            if result.is_error:
                raise ParserUnavailable(_result_text(result))
            return SandboxInfo.model_validate(result.structured_content or {})

        return await verify_isolation(self.sandbox_name, ask, hidden_paths=hidden_paths)

    async def server_pid(self) -> int:
        """The live server's pid as it sees itself (diagnostics; tests kill it with this)."""
        await self._started()
        client, _ = await self._live()
        result = await client.call_tool("sandbox-info", {}, read_timeout_seconds=CALL_GRACE_S)
        return int((result.structured_content or {}).get("server_pid", 0))

    async def parse(self, *, path: str | None = None, text: str | None = None, media_type: str = "", url: str = "",
                    data: bytes | None = None) -> ParsedDocument:
        """Parse one document; ``DocumentFailed(reason)`` when it cannot be read.
        ``data``: the raw bytes themselves, sent inline (a file that is in no cache).
        Waits for the server to be up (``ParserUnavailable`` when it could not start)."""
        await self._started()
        assert self.command is not None
        arguments = ParseArguments(media_type=media_type or "", url=url or "", timeout_s=self.settings.parse_timeout)
        if data is not None:
            arguments["data_base64"] = base64.b64encode(data).decode("ascii")
        elif path is not None:
            try:
                arguments["path"] = self.command.path_inside(path)
            except ValueError:
                # Not in the session cache, so not visible in the sandbox: send the bytes.
                try:
                    arguments["data_base64"] = base64.b64encode(Path(path).read_bytes()).decode("ascii")
                except OSError as exc:
                    raise DocumentFailed(f"cannot read {path}: {exc.strerror or exc}") from None
        elif text is not None:
            arguments["text"] = text
        else:
            raise DocumentFailed("nothing to parse (no cached file and no text)")
        async with self._slots:
            try:
                return await self._call_parse(arguments)
            except ParserUnavailable as exc:
                raise DocumentFailed(str(exc)) from None

    async def _call_parse(self, arguments: ParseArguments) -> ParsedDocument:
        client, generation = await self._live()
        try:
            result = await self._call_once(client, generation, arguments)
        except _ServerGone:
            # Restarted and asked once more: a server that died while idle (or was killed)
            # must not cost the documents that were waiting for it.
            client, generation = await self._live(broken=generation)
            try:
                result = await self._call_once(client, generation, arguments)
            except _ServerGone as exc:
                raise DocumentFailed(f"the parser server stopped twice while reading this document ({exc})") from None
        if result.is_error:
            raise DocumentFailed(_result_text(result) or "the document could not be parsed")
        try:
            return PARSED_DOCUMENT.validate_python(result.structured_content or {})
        except ValueError as exc:
            raise DocumentFailed(f"the parser returned malformed output: {exc}") from None

    async def _call_once(self, client: "Client", generation: int, arguments: ParseArguments) -> "CallToolResult":
        from mcp import MCPError
        from mcp.types import CONNECTION_CLOSED, REQUEST_TIMEOUT

        deadline = self.settings.parse_timeout + CALL_GRACE_S
        self.parse_calls += 1
        try:
            return await client.call_tool("parse-document", dict(arguments), read_timeout_seconds=deadline)
        except MCPError as exc:
            if exc.code == REQUEST_TIMEOUT:
                # The server enforces its own deadline; missing it by the grace means it hangs.
                await self._live(broken=generation)
                raise DocumentFailed(f"the parser did not answer within {deadline:g} s; it was restarted") from None
            if exc.code == CONNECTION_CLOSED:
                raise _ServerGone(f"connection closed{self._stderr_tail()}") from None
            raise DocumentFailed(f"the parser rejected the request: {exc.message}") from None
        except (DocumentFailed, ParserUnavailable):
            raise
        except Exception as exc:  # noqa: BLE001 - a broken pipe or stream: the server died
            raise _ServerGone(_describe(exc)) from None


_TOOL_ERROR_PREFIX = "Error executing tool parse-document: "


def _result_text(result: "CallToolResult") -> str:
    from mcp.types import TextContent

    text = " ".join(block.text for block in result.content if isinstance(block, TextContent)).strip()
    # The SDK prefixes tool errors; the reason alone reads better in the report.
    return text[len(_TOOL_ERROR_PREFIX):] if text.startswith(_TOOL_ERROR_PREFIX) else text


def _describe(error: BaseException | str) -> str:
    if isinstance(error, str):
        return error
    while isinstance(error, BaseExceptionGroup) and error.exceptions:
        error = error.exceptions[0]  # anyio wraps the real failure in task-group layers
    text = str(error).strip()
    return f"{type(error).__name__}: {text}" if text else type(error).__name__

"""ContainerProcessor: the client side of the sandboxed parser MCP server.

One long-lived server per run (not a process per document), started in the sandbox that
``modules/clients/sandbox.py`` chooses, spoken to over real stdio with the ``mcp`` client. Each
document costs at most itself: a tool error, a per-call timeout or a dead server all end as
``DocumentFailed(reason)``; a dead or hung server is restarted (once per failure) so the
next document still parses.

The connection (the stdio transport and the client session) lives in one background task
for its whole life: anyio requires a context to be exited by the task that entered it,
and ``parse`` may be called from any task.
"""

from __future__ import annotations

import asyncio
import base64
import logging
import sys
import tempfile
from pathlib import Path
from types import TracebackType
from typing import Any

from mcp import ClientSession, MCPError, StdioServerParameters, stdio_client
from mcp.types import CONNECTION_CLOSED, CallToolResult, TextContent

from research.modules.core.errors import DocumentFailed
from research.state.models import ParsedDocument
from research.modules.core.errors import UserFacingError
from research.modules.core.i18n import t
from research.modules.clients.sandbox import IsolationReport, SandboxCommand, SandboxInfo, build_sandbox_command, verify_isolation
from research.modules.core.settings import Settings

logger = logging.getLogger(__name__)

START_TIMEOUT_S = 60.0
# Time beyond the server's own per-document deadline for forking and moving the result.
CALL_GRACE_S = 15.0
MAX_RESTARTS = 5
MAX_CONCURRENT_PARSES = 4
_STDERR_TAIL_CHARS = 400


class ParserUnavailable(UserFacingError):
    """The parser server could not be started (or restarted). A run can go on without it
    (every document then fails with this reason); the CLI prints it as one line."""

    def __init__(self, reason: str) -> None:
        super().__init__("parser.unavailable", reason=reason)
        self.reason = reason

    def __str__(self) -> str:
        return self.reason


class ContainerProcessor:
    """``DocumentParser`` backed by the sandboxed parser MCP server.

    ``async with ContainerProcessor(settings, cache_dir) as cp: await cp.parse(...)``
    """

    def __init__(self, settings: Settings, cache_dir: Path, *, sandbox: str | None = None, lang: str | None = None) -> None:
        self.settings = settings
        self.lang = lang or (settings.language if settings.language in ("ja", "en") else "en")
        self.cache_dir = Path(cache_dir)
        self._requested_sandbox = sandbox
        self.command: SandboxCommand | None = None
        self.isolation: IsolationReport | None = None
        self.restarts = 0
        self._session: ClientSession | None = None
        self._generation = 0
        self._ready = asyncio.Event()
        self._recycle = asyncio.Event()
        self._closing = False
        self._start_error: BaseException | None = None
        self._holder: asyncio.Task[None] | None = None
        self._restart_lock = asyncio.Lock()
        self._slots = asyncio.Semaphore(MAX_CONCURRENT_PARSES)
        self._stderr = tempfile.TemporaryFile("w+", encoding="utf-8", errors="replace")

    # ------------------------------------------------------------------ properties

    @property
    def sandbox_name(self) -> str:
        return self.command.name if self.command else (self._requested_sandbox or self.settings.sandbox)

    @property
    def isolation_verified(self) -> bool:
        return bool(self.isolation and self.isolation.network_isolated)

    # ------------------------------------------------------------------ lifecycle

    async def __aenter__(self) -> "ContainerProcessor":
        try:
            await self.start()
        except BaseException:
            await self.close()
            raise
        return self

    async def __aexit__(self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None) -> None:
        await self.close()

    async def start(self) -> None:
        """Start the server and verify the sandbox's network isolation."""
        self.cache_dir.mkdir(parents=True, exist_ok=True)  # bind mounts need it to exist
        self.command = build_sandbox_command(self.settings, self.cache_dir, name=self._requested_sandbox)
        if self.command.warning_key:
            print(t(self.command.warning_key, self.lang), file=sys.stderr)
        self._holder = asyncio.create_task(self._hold_connection(), name="parser-server")
        await self._wait_ready()
        self.isolation = await self.verify_isolation()
        if self.command.name != "none" and not self.isolation.network_isolated:
            logger.warning("parser sandbox %s did not prove network isolation: %s", self.command.name, self.isolation)

    async def close(self) -> None:
        self._closing = True
        self._recycle.set()
        if self._holder is not None:
            try:
                await asyncio.wait_for(self._holder, timeout=30)
            except (asyncio.TimeoutError, Exception):  # noqa: BLE001 - closing must not raise
                self._holder.cancel()
            self._holder = None
        self._stderr.close()

    async def _hold_connection(self) -> None:
        """Own the server process: start it, keep it while it is healthy, restart on request."""
        assert self.command is not None
        params = StdioServerParameters(command=self.command.command, args=self.command.args, env=self.command.env)
        while not self._closing:
            try:
                async with stdio_client(params, errlog=self._stderr) as (read, write):
                    async with ClientSession(read, write) as session:
                        await asyncio.wait_for(session.initialize(), START_TIMEOUT_S)
                        self._session = session
                        self._generation += 1
                        self._start_error = None
                        self._ready.set()
                        await self._recycle.wait()
            except Exception as exc:  # noqa: BLE001 - reported to parse() callers as the reason
                if self._session is None:  # it never started: give up, callers get the reason
                    self._start_error = exc
                    self._ready.set()
                    return
                logger.info("parser server connection ended: %r", exc)
            finally:
                self._session = None
                self._recycle.clear()
            if not self._closing:
                self._ready.clear()

    async def _wait_ready(self) -> ClientSession:
        try:
            await asyncio.wait_for(self._ready.wait(), START_TIMEOUT_S + 5)
        except asyncio.TimeoutError:
            raise ParserUnavailable(f"the parser server did not start within {START_TIMEOUT_S:g} s") from None
        if self._session is None:
            if isinstance(self._start_error, ParserUnavailable):
                raise self._start_error
            reason = _describe(self._start_error or "the parser server stopped")
            raise ParserUnavailable(f"{reason}{self._stderr_tail()}")
        return self._session

    async def _restart(self, generation: int) -> None:
        """Replace the server of ``generation`` (unless a concurrent call already did)."""
        async with self._restart_lock:
            if self._generation != generation or self._closing:
                return
            self.restarts += 1
            self._ready.clear()
            self._recycle.set()
            if self.restarts > MAX_RESTARTS:
                self._closing = True  # too many crashes: stop trying, later documents fail fast
                self._start_error = ParserUnavailable("the parser server crashed too often")
                self._ready.set()

    def _stderr_tail(self) -> str:
        try:
            self._stderr.flush()
            self._stderr.seek(0, 2)
            size = self._stderr.tell()
            self._stderr.seek(max(0, size - _STDERR_TAIL_CHARS))
            tail = self._stderr.read().strip().splitlines()
        except (OSError, ValueError):
            return ""
        return f" ({tail[-1]})" if tail else ""

    # ------------------------------------------------------------------ calls

    async def verify_isolation(self, hidden_paths: list[str] | None = None) -> IsolationReport:
        """Ask the running server to prove it has no network (see ``sandbox.verify_isolation``)."""
        session = await self._wait_ready()

        async def ask(arguments: dict[str, object]) -> SandboxInfo:
            result = await asyncio.wait_for(session.call_tool("sandbox-info", arguments), CALL_GRACE_S)
            if result.is_error:
                raise ParserUnavailable(_result_text(result))
            return SandboxInfo.model_validate(result.structured_content or {})

        return await verify_isolation(self.sandbox_name, ask, hidden_paths=hidden_paths)

    async def parse(self, *, path: str | None = None, text: str | None = None, media_type: str = "", url: str = "") -> ParsedDocument:
        """Parse one document; ``DocumentFailed(reason)`` when it cannot be read."""
        if self.command is None:
            raise RuntimeError("ContainerProcessor used outside `async with`")
        arguments: dict[str, Any] = {"media_type": media_type or "", "url": url or "", "timeout_s": self.settings.parse_timeout}
        if path is not None:
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
            return await self._call_parse(arguments)

    async def _call_parse(self, arguments: dict[str, Any]) -> ParsedDocument:
        try:
            session = await self._wait_ready()
        except ParserUnavailable as exc:
            raise DocumentFailed(str(exc)) from None
        generation = self._generation
        try:
            result: CallToolResult = await asyncio.wait_for(
                session.call_tool("parse-document", arguments), self.settings.parse_timeout + CALL_GRACE_S
            )
        except asyncio.TimeoutError:
            await self._restart(generation)
            raise DocumentFailed(
                f"the parser did not answer within {self.settings.parse_timeout + CALL_GRACE_S:g} s; it was restarted"
            ) from None
        except MCPError as exc:
            if exc.code == CONNECTION_CLOSED:
                await self._restart(generation)  # connection-level: the server is gone
                raise DocumentFailed(f"the parser server stopped while reading this document{self._stderr_tail()}; it was restarted") from None
            raise DocumentFailed(f"the parser rejected the request: {exc.message}") from None
        except Exception as exc:  # noqa: BLE001 - a broken pipe or stream: the server died
            await self._restart(generation)
            raise DocumentFailed(f"the parser server stopped ({_describe(exc)}); it was restarted") from None
        if result.is_error:
            raise DocumentFailed(_result_text(result) or "the document could not be parsed")
        try:
            return ParsedDocument.model_validate(result.structured_content or {})
        except ValueError as exc:
            raise DocumentFailed(f"the parser returned malformed output: {exc}") from None


_TOOL_ERROR_PREFIX = "Error executing tool parse-document: "


def _result_text(result: CallToolResult) -> str:
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

"""WebSearchClient: the search node's door to a web-search MCP server over stdio.

By default it starts our own server (``research.servers.web.server``) as a
child process, passing the run's effective settings as ``RESEARCH_*`` environment
variables (flags such as ``--engine`` live only in this process). With
``settings.mcp_config`` it starts a server from an ``mcpServers`` config file instead
(the entry named ``web-search``, else the first), e.g. the Node web-search-mcp, and
reads its text output when it returns no structured content.

One MCP connection per run, held by ``connection.McpConnection``. A server that dies
under a call is restarted and the call made once more; if it dies again the step stops
with ``WebSearchServerError`` and the session stays resumable.
"""

from __future__ import annotations

import asyncio
import contextlib
import io
import json
import os
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Awaitable, Callable, Mapping, TextIO

from research.modules.clients.connection import BackgroundStart, ConnectionStartFailed, McpConnection
from research.modules.clients.server_process import OWN_SERVER_CWD, ServerLauncher, import_sdk, own_python_argv
from research.modules.core.errors import SearchUnavailable, UsageError, UserFacingError
from research.modules.core.grammar import URL_IN_PROSE
from research.modules.core.language import Language
from research.state.models import SearchHit
from research.modules.core.settings import Settings
from research.modules.core.urls import canonical_url

if TYPE_CHECKING:  # the SDK is imported when the first connection opens, not with this module
    from mcp import Client
    from mcp.shared.exceptions import MCPError
    from mcp_types import CallToolResult

CALL_TIMEOUT = 180.0  # search + up to 10 page fetches (15 s each at worst) + extraction
SEARCH_TOOL = "full-web-search"
# Passed through to the child besides RESEARCH_*: proxies and CA bundles the user relies on,
# PYTHONPATH (the child is this same program and must import what the parent imports),
# PYTHONDONTWRITEBYTECODE (a user who asked for no .pyc files gets none from the child either)
# and XDG_CACHE_HOME (a page cache outside a session goes where the user keeps caches).
_PASSTHROUGH_ENV = ("PYTHONPATH", "PYTHONDONTWRITEBYTECODE", "XDG_CACHE_HOME", "HTTP_PROXY", "HTTPS_PROXY", "ALL_PROXY", "NO_PROXY", "http_proxy", "https_proxy",
                    "all_proxy", "no_proxy", "SSL_CERT_FILE", "SSL_CERT_DIR", "REQUESTS_CA_BUNDLE", "DDGS_PROXY")


class WebSearchServerError(UserFacingError):
    """The web-search server could not be started or kept running."""


@dataclass
class ServerSpec:
    """How to start (or reach) one MCP server."""

    name: str
    command: str = ""
    args: list[str] = field(default_factory=list)
    env: dict[str, str] = field(default_factory=dict)
    cwd: str | None = None
    url: str | None = None  # a Streamable HTTP server instead of a child process
    ours: bool = False  # our own server: structured content, and it takes ``rawBytes``

    def describe(self) -> str:
        return self.url or " ".join([Path(self.command).name, *self.args[:3]])


def own_server_spec(settings: Settings, cache_dir: Path | None, cache_root: Path | None = None) -> ServerSpec:
    """Our server with one cache folder (``cache_dir``), or, shared by several sessions,
    a root under which each call names its own (``cache_root``)."""
    # Absolute: the server starts in a fixed folder, not in the user's.
    where = (["--cache-dir", str(Path(cache_dir).resolve())] if cache_dir is not None
             else ["--cache-root", str(Path(cache_root).resolve())])  # type: ignore[arg-type]
    python, *args = own_python_argv("research.servers.web.server")
    return ServerSpec(
        name="web-search",
        command=python,
        args=[*args, *where],
        env=settings_environment(settings),
        cwd=OWN_SERVER_CWD,
        ours=True,
    )


def settings_environment(settings: Settings) -> dict[str, str]:
    """The effective settings as the ``RESEARCH_*`` variables a child process reads."""
    env: dict[str, str] = {}
    for name, value in settings.model_dump().items():
        if value is None:
            continue
        if isinstance(value, bool):
            text = "true" if value else "false"
        elif isinstance(value, Path):
            text = str(value.expanduser().resolve())  # the child may run elsewhere
        else:
            text = str(value)
        env[f"RESEARCH_{name.upper()}"] = text
    # Fetch limits are the server's own settings: forward whatever the user set.
    env.update({k: v for k, v in os.environ.items() if k.startswith("RESEARCH_FETCH_")})
    env.update({k: os.environ[k] for k in _PASSTHROUGH_ENV if k in os.environ})
    return env


def config_server_spec(path: Path) -> ServerSpec:
    """The ``web-search`` entry (else the first) of an ``mcpServers`` config file."""
    try:
        config = json.loads(path.expanduser().read_text("utf-8"))
    except OSError as exc:
        raise UsageError("websearch.bad_mcp_config", path=str(path), reason=exc.strerror or str(exc)) from None
    except ValueError as exc:
        raise UsageError("websearch.bad_mcp_config", path=str(path), reason=f"not JSON ({exc})") from None
    servers = config.get("mcpServers") if isinstance(config, dict) else None
    if not isinstance(servers, dict) or not servers:
        raise UsageError("websearch.bad_mcp_config", path=str(path), reason="no mcpServers entries")
    name = "web-search" if "web-search" in servers else next(iter(servers))
    entry = servers[name]
    if not isinstance(entry, dict) or not (entry.get("command") or entry.get("url")):
        raise UsageError("websearch.bad_mcp_config", path=str(path), reason=f"server '{name}' has no command or url")
    return ServerSpec(
        name=name,
        command=str(entry.get("command", "")),
        args=[str(a) for a in entry.get("args", [])],
        env={str(k): str(v) for k, v in (entry.get("env") or {}).items()},
        cwd=entry.get("cwd"),
        url=entry.get("url"),
    )


class WebSearchClient(BackgroundStart):
    """Implements the ``WebSearch`` protocol (src/workflow/dependencies.py) over MCP.

    ``cache_dir``: the session's sources/, where the server writes what it fetches. A
    server shared by several sessions (``ServerPool``) is started with ``cache_root``
    instead, and each search names its session's folder (``search(..., cache_dir=...)``,
    or the view ``for_session``)."""

    def __init__(self, settings: Settings, cache_dir: Path | None, *, errlog: TextIO | None = None,
                 cache_root: Path | None = None) -> None:
        self.settings = settings
        self.cache_dir = Path(cache_dir) if cache_dir is not None else None
        self.cache_root = Path(cache_root) if cache_root is not None else None
        if self.cache_dir is None and self.cache_root is None:
            raise ValueError("WebSearchClient needs cache_dir or cache_root")
        self.spec = (config_server_spec(settings.mcp_config) if settings.mcp_config
                     else own_server_spec(settings, self.cache_dir, self.cache_root))
        self._errlog_given = errlog
        self._errlog: TextIO | None = None
        make_launcher = ServerLauncher.own if self.spec.ours else ServerLauncher
        self._launcher = make_launcher(self.spec.command, self.spec.args, self.spec.env or None, cwd=self.spec.cwd,
                                       errlog=lambda: self._errlog)
        self._connection = McpConnection(self._make_client, name=self.spec.name)
        self._init_background_start()

    @property
    def restarts(self) -> int:
        return self._connection.restarts

    def for_session(self, cache_dir: Path) -> "SessionWebSearch":
        self.log_to(Path(cache_dir).parent)
        return SessionWebSearch(self, Path(cache_dir))

    def log_to(self, session_folder: Path) -> None:
        """From now on the server's stderr goes to ``session_folder``'s web-search-server.log
        (a pooled server serves one session after another)."""
        if self._errlog_given is not None:
            return
        earlier = self._errlog
        try:
            self._errlog = open(session_folder / "web-search-server.log", "a", encoding="utf-8")
        except OSError:
            return  # no session folder to write in (yet): the lines stay where they went so far
        if isinstance(earlier, io.StringIO):
            self._errlog.write(earlier.getvalue())  # what it said while starting, before any session
            self._errlog.flush()
        elif earlier is not None:
            earlier.close()

    def _make_client(self) -> "Client":
        from mcp import Client

        if self.spec.url:
            return Client(self.spec.url, read_timeout_seconds=CALL_TIMEOUT)
        return Client(self._launcher.transport(), read_timeout_seconds=CALL_TIMEOUT)

    _not_started_hint = "use `async with WebSearchClient(...)`"

    async def _boot(self, after: "asyncio.Future[Any] | None" = None) -> None:
        """Spawn the server and connect (``start_soon`` runs it in the background)."""
        log_folder = self.cache_dir.parent if self.cache_dir is not None else self.cache_root
        assert log_folder is not None
        for folder in (self.cache_dir, self.cache_root):
            if folder is not None:
                folder.mkdir(parents=True, exist_ok=True)
        # The server's stderr goes to a log beside sources/, not over the user's progress display.
        # A pooled server (no session yet) keeps its first lines until a session's log takes them.
        if self._errlog_given is not None:
            self._errlog = self._errlog_given
        elif self.cache_dir is not None:
            self._errlog = open(log_folder / "web-search-server.log", "a", encoding="utf-8")
        else:
            self._errlog = io.StringIO()
        if not self.spec.url:
            try:
                await self._launcher.prespawn()
            except OSError as exc:
                self._spawned.set()
                raise WebSearchServerError("websearch.server_failed", command=self.spec.describe(),
                                           reason=_reason(exc)) from None
        self._spawned.set()
        await import_sdk(after)
        await self._start(self._connection.client)

    def end_input(self) -> None:
        """Let the server go now, without waiting (``ServerLauncher.end_input``); ``aclose()`` still follows."""
        self._launcher.end_input()

    async def aclose(self) -> None:
        await self._stop_starting()
        await self._connection.close()
        await self._launcher.discard_spare()
        if isinstance(self._errlog, io.StringIO) and self._errlog.getvalue() and self.cache_root is not None:
            # It never served a session: what it said goes beside the sessions instead.
            with contextlib.suppress(OSError):
                with open(self.cache_root / "web-search-server.log", "a", encoding="utf-8") as log:
                    log.write(self._errlog.getvalue())
        if self._errlog is not None and self._errlog is not self._errlog_given:
            self._errlog.close()
        self._errlog = None

    async def _start(self, how: Callable[..., Awaitable[tuple["Client", int]]], *args: int) -> tuple["Client", int]:
        assert self._errlog is not None, "use `async with WebSearchClient(...)`"
        try:
            return await how(*args)
        except ConnectionStartFailed as exc:
            raise WebSearchServerError("websearch.server_failed", command=self.spec.describe(),
                                       reason=_reason(exc.cause)) from None

    async def external_tools(self) -> tuple[str, list[str]] | None:
        """For a server from RESEARCH_MCP_CONFIG: its name and its tools (the search step says
        so when the search tool is not among them); None for our own server, which has it."""
        if self.spec.ours:
            return None
        return self.spec.name, await self.list_tools()

    async def list_tools(self) -> list[str]:
        """The names of the server's tools (to check an external server offers the search tool)."""
        await self._started()
        client, _ = await self._start(self._connection.client)
        result = await client.list_tools()
        return [tool.name for tool in result.tools]

    async def call(self, tool: str, arguments: Mapping[str, object],
                   on_progress: Callable[[int, int], None] | None = None) -> "CallToolResult":
        """Call a tool. A server that dies under the call is restarted and the call made
        once more; dying again is ``WebSearchServerError`` (the step stops, resumable).
        ``on_progress`` hears the server's progress (files of a documents folder indexed)."""
        await self._started()  # also: the SDK is imported (in a thread) by then
        from mcp.shared.exceptions import MCPError
        from mcp_types import CONNECTION_CLOSED

        client, generation = await self._start(self._connection.client)
        try:
            return await _call_while_it_progresses(client, tool, arguments, on_progress)
        except MCPError as exc:
            if exc.code != CONNECTION_CLOSED:
                raise _refused(exc) from None
        except Exception as exc:  # noqa: BLE001 - the pipe may break under us in several ways
            if not _looks_like_closed_pipe(exc):
                raise
        if self._connection.crashed_too_often:
            raise WebSearchServerError("servers.websearch_crashed", command=self.spec.describe(),
                                       reason="it crashed too often in this run")
        client, generation = await self._start(self._connection.restart, generation)
        try:
            return await _call_while_it_progresses(client, tool, arguments, on_progress)
        except MCPError as exc:
            if exc.code != CONNECTION_CLOSED:
                raise _refused(exc) from None
            reason = "the connection closed during the retried call"
        except Exception as exc:  # noqa: BLE001
            if not _looks_like_closed_pipe(exc):
                raise
            reason = _reason(exc)
        raise WebSearchServerError("servers.websearch_crashed", command=self.spec.describe(), reason=reason)

    async def search(self, query: str, *, language: Language, limit: int, cache_dir: Path | None = None,
                     on_note: Callable[[str], None] | None = None,
                     on_progress: Callable[[int, int], None] | None = None) -> list[SearchHit]:
        """Search ``query``; each hit records ``language`` (the query's language).
        ``cache_dir``: the session folder the fetched bytes go to (a shared server).
        ``on_note``: called with each of the server's notes (engine fallbacks and why).
        ``on_progress``: called with (files read, files in all) while a documents folder is indexed."""
        arguments: dict[str, object] = {"query": query, "limit": max(1, min(int(limit), 10)), "includeContent": True}
        if self.spec.ours:
            # Our own server only fetches: the pipeline parses the cached bytes in the sandbox.
            arguments["rawBytes"] = True
            if self.cache_root is not None:
                if cache_dir is None:
                    raise ValueError("a shared web-search server needs the session's cache_dir")
                Path(cache_dir).mkdir(parents=True, exist_ok=True)
                arguments["cacheDir"] = str(Path(cache_dir).resolve())
        result = await self.call(SEARCH_TOOL, arguments, on_progress)
        from mcp_types import TextContent

        structured = result.structured_content if isinstance(result.structured_content, dict) else None
        text = "\n".join(block.text for block in result.content if isinstance(block, TextContent))
        if structured is not None and isinstance(structured.get("results"), list):
            if not structured.get("engine") and (result.is_error or not structured["results"]):
                notes = "; ".join(structured.get("notes") or []) or "no engine answered"
                raise SearchUnavailable(notes)
            if on_note is not None:
                for note in structured.get("notes") or []:
                    on_note(str(note))
            return [_hit_from_structured(row, query, language) for row in structured["results"] if isinstance(row, dict)]
        if result.is_error:
            raise SearchUnavailable(text.strip()[:500] or "the web-search server reported an error")
        return parse_text_results(text, query=query, language=language, engine=self.spec.name)


class SessionWebSearch:
    """A shared ``WebSearchClient`` seen by one session: its fetches go to that session's sources/."""

    def __init__(self, client: WebSearchClient, cache_dir: Path) -> None:
        self.client, self.cache_dir = client, cache_dir

    @property
    def restarts(self) -> int:
        return self.client.restarts

    async def search(self, query: str, *, language: Language, limit: int,
                     on_note: Callable[[str], None] | None = None,
                     on_progress: Callable[[int, int], None] | None = None) -> list[SearchHit]:
        return await self.client.search(query, language=language, limit=limit, cache_dir=self.cache_dir,
                                        on_note=on_note, on_progress=on_progress)

    async def list_tools(self) -> list[str]:
        return await self.client.list_tools()

    async def external_tools(self) -> tuple[str, list[str]] | None:
        return await self.client.external_tools()


async def _call_while_it_progresses(client: "Client", tool: str, arguments: Mapping[str, object],
                                    on_progress: Callable[[int, int], None] | None) -> "CallToolResult":
    """The call, given up when the server has said nothing for ``CALL_TIMEOUT`` seconds: each
    progress notification starts the wait over. Indexing a large documents folder (every file
    parsed in the sandbox, 80 s and more for a thousand pages) reports progress as it goes, so
    it is waited for; a server that hangs silently is still given up after 180 s."""
    import math

    import anyio
    from mcp.shared.exceptions import MCPError
    from mcp_types import REQUEST_TIMEOUT

    with anyio.CancelScope(deadline=anyio.current_time() + CALL_TIMEOUT) as waiting:
        async def progressed(progress: float, total: float | None, message: str | None) -> None:
            waiting.deadline = anyio.current_time() + CALL_TIMEOUT
            if on_progress is not None:
                on_progress(int(progress), int(total or 0))

        return await client.call_tool(tool, dict(arguments), read_timeout_seconds=math.inf,
                                      progress_callback=progressed)
    # Only the wait's own deadline lands here (a cancellation from outside goes on up): the SDK
    # has told the server to stop (its courtesy cancel) as it does on its own timeout.
    raise MCPError(code=REQUEST_TIMEOUT, message=f"Request {tool!r} timed out")


def _refused(exc: "MCPError") -> SearchUnavailable:
    from mcp_types import REQUEST_TIMEOUT

    if exc.code == REQUEST_TIMEOUT:
        return SearchUnavailable(f"the web-search server did not answer within {CALL_TIMEOUT:g} s")
    return SearchUnavailable(f"the web-search server refused the call: {exc.message}")


def _hit_from_structured(row: dict[str, Any], query: str, language: Language) -> SearchHit:
    url = str(row.get("url", ""))
    return SearchHit(
        url=url,
        canonical_url=str(row.get("canonical_url") or canonical_url(url)),
        final_url=row.get("final_url") or None,
        title=str(row.get("title") or ""),
        snippet=str(row.get("description") or row.get("snippet") or ""),
        engine=str(row.get("engine") or ""),
        query=query,
        language=language,
        cache_path=row.get("cache_path"),
        media_type=row.get("media_type"),
        content=str(row.get("content") or ""),
        fetch_error=row.get("fetch_error"),
        retrieved_at=row.get("retrieved_at"),
    )


# --------------------------------------------------------------------------- text output of other servers

_NUMBERED = re.compile(r"^\s*(?:#+\s*)?\**\s*(\d{1,2})[.)]\s+(.+?)\s*\**\s*$", re.M)
_FIELD = re.compile(r"^\s*\**\s*(url|link|source|description|snippet|summary|title)\s*\**\s*:\s*\**\s*(.*)$", re.I)
_CONTENT_START = re.compile(r"^\s*\**\s*(?:full\s+)?content\s*\**\s*:\s*\**\s*(.*)$", re.I)


def parse_text_results(text: str, *, query: str, language: Language, engine: str) -> list[SearchHit]:
    """Read numbered result blocks (``**1. Title**`` / ``URL:`` / ``Description:`` /
    ``Full Content:``), as web-search-mcp prints them. Loose on purpose: markup varies."""
    starts = list(_NUMBERED.finditer(text))
    hits: list[SearchHit] = []
    for index, match in enumerate(starts):
        end = starts[index + 1].start() if index + 1 < len(starts) else len(text)
        block = text[match.end() : end]
        hit = _parse_block(match.group(2).strip("* "), block, query, language, engine)
        if hit is not None:
            hits.append(hit)
    if hits:
        return hits
    # No recognisable blocks: keep at least the links, in order, once each.
    seen: set[str] = set()
    for url in URL_IN_PROSE.findall(text):
        if canonical_url(url) not in seen:
            seen.add(canonical_url(url))
            hits.append(SearchHit(url=url, canonical_url=canonical_url(url), engine=engine, query=query, language=language))
    return hits


def _parse_block(title: str, block: str, query: str, language: Language, engine: str) -> SearchHit | None:
    url = ""
    snippet_lines: list[str] = []
    content_lines: list[str] = []
    in_content = False
    for line in block.splitlines():
        if in_content:
            if line.strip() == "---":
                break
            content_lines.append(line)
            continue
        content = _CONTENT_START.match(line)
        if content:
            in_content = True
            if content.group(1).strip():
                content_lines.append(content.group(1))
            continue
        found = _FIELD.match(line)
        if found:
            name, value = found.group(1).lower(), found.group(2).strip().strip("*").strip()
            if name in ("url", "link", "source") and not url:
                link = URL_IN_PROSE.search(value)
                url = link.group(0) if link else value
            elif name == "title" and value:
                title = value
            elif name in ("description", "snippet", "summary"):
                snippet_lines.append(value)
    if not url:
        link = URL_IN_PROSE.search(block)
        if link is None:
            return None
        url = link.group(0)
    return SearchHit(
        url=url,
        canonical_url=canonical_url(url),
        title=title,
        snippet=" ".join(snippet_lines).strip(),
        engine=engine,
        query=query,
        language=language,
        content="\n".join(content_lines).strip(),
    )


def _reason(exc: BaseException | str) -> str:
    from mcp.shared.exceptions import MCPError
    from mcp_types import CONNECTION_CLOSED

    if isinstance(exc, str):  # the connection's own words ("no answer within 30 s")
        return exc
    if isinstance(exc, MCPError):
        if exc.code == CONNECTION_CLOSED:
            return "the server exited before answering (see web-search-server.log)"
        return exc.message
    if isinstance(exc, FileNotFoundError):
        return f"command not found: {exc.filename or exc}"
    if isinstance(exc, BaseExceptionGroup):
        return "; ".join(_reason(e) for e in exc.exceptions)
    return f"{type(exc).__name__}: {exc}" if str(exc) else type(exc).__name__


def _looks_like_closed_pipe(exc: BaseException) -> bool:
    import anyio

    return isinstance(exc, (BrokenPipeError, ConnectionResetError, EOFError, anyio.ClosedResourceError,
                            anyio.BrokenResourceError, anyio.EndOfStream))


# --------------------------------------------------------------------------- notes in the user's language

# The notes our server writes (servers.engine.*) and the reasons inside them (servers.reason.*),
# read back by their English text: the server speaks English to every MCP host, and the
# run's notes are kept that way (meta.json, --json); the terminal and the report say them
# in the user's language. A note from another server, or one no template matches, is kept as it came.
_NOTE_PARAM = {"engine": r"[A-Za-z0-9_-]+", "status": r"\d+"}


def _note_patterns() -> list[tuple[str, "re.Pattern[str]"]]:
    import string

    from research.modules.core.i18n import MESSAGES

    patterns = []
    for key, texts in MESSAGES.items():
        if not key.startswith(("servers.engine.", "servers.reason.")):
            continue
        regex = ""
        for literal, name, _spec, _conv in string.Formatter().parse(texts["en"]):
            regex += re.escape(literal)
            if name is not None:
                regex += f"(?P<{name}>{_NOTE_PARAM.get(name, '.+?')})"
        patterns.append((key, re.compile(regex + r"\Z", re.S)))
    return patterns


_PATTERNS: list[tuple[str, "re.Pattern[str]"]] = []


def localise_note(note: str, lang: Language) -> str:
    """A note of the web-search server (or several joined by "; ") in ``lang``."""
    if lang == "en" or not note:
        return note
    from research.modules.core.i18n import t

    if "; " in note:  # several notes, as a failed search joins them
        return "; ".join(localise_note(part, lang) for part in note.split("; "))
    if not _PATTERNS:
        _PATTERNS.extend(_note_patterns())
    for key, pattern in _PATTERNS:
        found = pattern.match(note)
        if found:
            params = found.groupdict()
            for inner in ("reason", "detail"):  # a reason inside a note: "duckduckgo failed: cannot look up …"
                if inner in params:
                    params[inner] = localise_note(params[inner], lang)
            return t(key, lang, **params)
    return note

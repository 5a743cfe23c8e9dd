"""`research serve`: the research MCP server over Streamable HTTP, for a team, and its API.

The tools of ``research mcp research`` (research, sessions, session-report) plus ``run``,
spoken through the ``mcp`` SDK's Streamable HTTP transport with its bearer-token auth: a
request without a valid token (``tokens``) gets 401 before any tool runs. A
``research`` call does not run here: it is queued in PostgreSQL (``queue``) and run by a
worker (``worker``). Its first progress message names the run ("Queued as run N"); this
process then follows the run's events and sends them as progress notifications, and returns
the result. A host that loses the call follows the run again with ``run``; a database blip
is waited out (``DB_PATIENCE_SECONDS``), not reported as a failed run. Each token is an owner:
its calls see and resume only the sessions its own runs made, and no answer names a server
path (files are ``/api/…`` paths).

``/api`` (``build_api``) is what `research "…"` with RESEARCH_SERVER reads: a run's status,
its stored events and its report files, and the token's sessions. Limits that keep one
client from locking out the rest: per-token open MCP sessions (``SessionsPerToken``), idle
sessions closed after minutes, a header-read timeout (``uvicorn_config``). Every request and
every refusal is logged for the operator (access_log.py).
"""

from __future__ import annotations

import asyncio
import json
import time
from contextvars import ContextVar
from dataclasses import dataclass, field
from functools import partial
from collections.abc import Awaitable, Callable
from typing import Annotated, Any, TypeVar

from mcp.server.auth.middleware.auth_context import get_access_token
from mcp.server.auth.provider import AccessToken
from mcp.server.auth.settings import AuthSettings
from mcp.server.mcpserver import Context, MCPServer
from mcp.server.transport_security import TransportSecuritySettings
from mcp_types import CallToolResult, ToolAnnotations
from pydantic import BaseModel, Field
from uvicorn.protocols.http.h11_impl import H11Protocol

import research
from research.modules.core.errors import UserFacingError
from research.modules.core.i18n import t
from research.modules.core.language import Language, choose_language
from research.modules.core.run_options import from_tool, tool_parameters, within_admin_limits
from research.modules.core.settings import Settings
from research.team import queue as run_queue
from research.team.database import DatabaseUnreachable, EventRow, RunRow, RunStatus
from research.team.queue import QueuedRequest
from research.orchestrator.run_answer import json_result
from research.state.run_record import JsonObject, RunJson, RunOutcome, RunVerification
from research.team.api import (
    ApiBody,
    ApiError,
    RunEvent,
    RunEvents,
    RunStatusBody,
    SessionMeta,
    SessionRow,
    SessionRows,
)
from research.modules.text.sanitize import clean_data, safe_markdown
from research.team.index import get_session, list_sessions
from research.servers.mcp_support import ResearchMCPServer
from research.team.access_log import REFUSAL_KEY, AccessLog, AccessLogMiddleware, connection_refused
from research.team.tokens import TokenStore
from research.servers.research.results import (
    CancelOutput,
    ResearchOutput,
    SessionList,
    SessionReport,
    SessionSummary,
    render_research,
    render_session_list,
    research_output,
    with_verdicts,
)
from research.servers.research.server import (
    MAX_SESSIONS_LISTED,
    READS_SESSIONS,
    PROGRESS_TOTAL,
    RUNS_RESEARCH,
    SERVER_NAME,
    SESSION_REPORT_TOOL,
    SESSIONS_TOOL,
    AnswerLang,
    MessageLang,
    ProgressBar,
    Question,
    SessionId,
    SessionsLimit,
    error_result,
    progress_message,
    tool_result,
)
from research.state.progress_events import SessionStarted, from_wire
from research.state.session_folder import HistoryManager, read_session_bytes

T = TypeVar("T")
FOLLOW_SECONDS = 0.3  # how often a waiting call reads its run's new events
# A database blip (a restart, a failover) is waited out with growing pauses, this long in
# all, before a call says it lost contact; the run itself is kept either way.
DB_PATIENCE_SECONDS = 90.0
# An API request answers 503 (Retry-After) much sooner: its client waits and asks again itself.
API_DB_PATIENCE_SECONDS = 5.0
_patience: ContextVar[float] = ContextVar("db_patience", default=DB_PATIENCE_SECONDS)
DB_FIRST_PAUSE, DB_MAX_PAUSE = 0.25, 5.0
# Open MCP sessions: each token may hold this many at once (another token is never
# locked out by one that opens thousands), and a session nobody used this long is closed.
SESSIONS_PER_TOKEN = 32
SESSION_IDLE_SECONDS = 300.0
# A connection must finish sending a request's headers this soon after it starts one, and
# in at most this many bytes (h11 refuses a bigger head only when it arrives in pieces).
HEADER_READ_SECONDS = 10.0
HEADER_MAX_BYTES = 16 * 1024
# The files of a run a client may fetch over the API (the client writes them into a folder of its own).
REPORT_FILES = ("report.md", "report.pdf", "progress.md")
API_EVENTS_WAIT = 15.0  # the longest one events request waits for something new
# Exact here (the stdio server also takes a unique part): a token looks up only its own sessions.
# Cancelling only ever stops the caller's own run, and twice is the same as once.
CANCELS_RUN = ToolAnnotations(read_only_hint=False, destructive_hint=True, idempotent_hint=True, open_world_hint=False)
RunId = Annotated[int, Field(ge=1, description="The run's number, from the research tool's first progress message "
                                             "(\"Queued as run N\")")]


def _db_errors() -> tuple[type[BaseException], ...]:
    """What a database that went away raises through psycopg, its pool or our connect()."""
    import psycopg
    import psycopg_pool

    return (psycopg.OperationalError, psycopg.InterfaceError, psycopg_pool.PoolTimeout, DatabaseUnreachable)


class DatabaseLost(Exception):
    """The database did not answer for ``DB_PATIENCE_SECONDS``."""


def database_lost(lang: Language) -> CallToolResult:
    """What a tool answers when the database stayed away for the whole of this request's patience."""
    return error_result(t("serve.database_unreachable", lang, reason=f"{_patience.get():.0f} s"))


class TokenFileVerifier:
    """The SDK's ``TokenVerifier`` over our tokens file: the token's id is the client id."""

    def __init__(self, store: TokenStore) -> None:
        self.store = store

    async def verify_token(self, token: str) -> AccessToken | None:
        entry = self.store.verify(token)
        if entry is None:
            return None
        return AccessToken(token=token, client_id=entry.token_id, scopes=["research"])


class HttpResearchServer(ResearchMCPServer):
    """``ResearchMCPServer`` (its validation messages and version) with the SDK's auth on."""

    def __init__(self, verifier: TokenFileVerifier, url: str, *, instructions: str) -> None:
        MCPServer.__init__(self, SERVER_NAME, instructions=instructions, version=research.__version__,
                           log_level="WARNING", token_verifier=verifier,
                           # Static tokens: no OAuth server or protected-resource metadata to
                           # advertise, so no resource URL; the issuer is this service itself.
                           # (issuer_url: a string, which pydantic validates into its URL type)
                           auth=AuthSettings(issuer_url=url, resource_server_url=None,  # type: ignore[arg-type]
                                             required_scopes=["research"]))
        self._schema_extras = {}


class TeamResearchOutput(ResearchOutput):
    """The research result as the team service gives it: paths are the API's (``/api/runs/N/files/…``),
    never the server's folders; ``result`` is what `research "…" --json` prints for a local run.
    With ``detach`` only ``run_id`` and ``status`` (queued) are said; follow it with ``run``."""

    session_id: str = ""
    session_dir: str = ""
    language: str = ""
    answer: str = Field(default="", description="the verified answer (Markdown with [S#] citations)")
    run_id: int = 0
    status: str = Field(default=RunStatus.DONE, description="done, or queued (detach)")
    result: JsonObject = Field(default_factory=dict)  # a RunJson's keys; none when detached


def _owner() -> str:
    token = get_access_token()
    if token is None:  # the transport refuses unauthenticated requests before any tool runs
        raise PermissionError("no authenticated token")
    return token.client_id


def _error_text(stored: str | None, lang: Language) -> str:
    try:
        return json.loads(stored or "{}").get(lang) or ""
    except ValueError:
        return stored or ""


def run_files_path(run_id: int, name: str) -> str:
    return f"/api/runs/{run_id}/files/{name}"


class HttpService:
    def __init__(self, settings: Settings) -> None:
        self.settings = settings
        self.history = HistoryManager(settings.sessions_dir)
        self._pool: Any = None  # connections shared by the waiting calls, opened on first use
        self._opening = asyncio.Lock()

    async def db(self) -> Any:
        """A small pool: twenty clients following their runs must not open a connection each poll.
        Each connection is checked as it is lent, so one the database dropped (a restart) is
        replaced instead of failing the call that gets it."""
        async with self._opening:
            if self._pool is None:
                from psycopg.rows import dict_row
                from psycopg_pool import AsyncConnectionPool

                pool = AsyncConnectionPool(self.settings.database_url, min_size=1, max_size=8, open=False,
                                           timeout=5.0, check=AsyncConnectionPool.check_connection,
                                           kwargs={"autocommit": True, "prepare_threshold": 0,
                                                   "row_factory": dict_row})
                await pool.open(wait=False)
                self._pool = pool
        return self._pool

    async def patiently(self, call: Callable[..., Awaitable[T]], *args: Any,
                        on_retry: Callable[[], Awaitable[None]] | None = None) -> T:
        """``await call(*args)``, waiting out a database blip with growing pauses; ``DatabaseLost``
        after ``DB_PATIENCE_SECONDS``. ``on_retry``: awaited once when the first attempt fails."""
        errors = _db_errors()
        pause, started, told = DB_FIRST_PAUSE, time.monotonic(), False
        while True:
            try:
                return await call(*args)
            except errors as exc:
                if time.monotonic() - started > _patience.get():
                    raise DatabaseLost(str(exc)) from None
                if on_retry is not None and not told:
                    told = True
                    await on_retry()
                await asyncio.sleep(pause)
                pause = min(pause * 2, DB_MAX_PAUSE)

    async def queue(self, call: Callable[..., Awaitable[T]], *args: Any,
                    on_retry: Callable[[], Awaitable[None]] | None = None) -> T:
        """A queue function called with the pool, patiently."""
        async def once() -> T:
            return await call(await self.db(), *args)

        return await self.patiently(once, on_retry=on_retry)

    def language(self, requested: str | None, text: str = "") -> Language:
        """The caller's language, else the service's setting, else the question's, else English
        (the server's own locale is not its callers')."""
        return choose_language(requested, self.settings.language, text=text, default="en")

    async def owns(self, owner: str, session_id: str) -> bool:
        row = await self.patiently(get_session, self.settings, session_id)
        return row is not None and row["owner"] == owner

    async def run_of(self, owner: str, run_id: int) -> RunRow | None:
        """The run's row, if it is this owner's (another token's run reads as no run at all)."""
        row = await self.queue(run_queue.get_run, run_id)
        return row if row is not None and row["owner"] == owner else None

    async def cancel(self, owner: str, run_id: int) -> CancelOutput | None:
        """Cancel one of ``owner``'s runs: None when it has no such run; else what became of it."""
        if await self.run_of(owner, run_id) is None:
            return None
        cancelled = await self.queue(run_queue.cancel, run_id, owner)
        row = await self.run_of(owner, run_id)  # after: a run may have started (and named its session) meanwhile
        return CancelOutput(run_id=run_id, cancelled=cancelled, status=str(row["status"]) if row else "",
                            session_id=str(row["session_id"] or "") if row else "")

    async def submit(self, owner: str, request: QueuedRequest, resume: str | None, submission: str | None = None) -> int:
        run_id: int = await self.queue(run_queue.submit, owner, request, self.settings.queue_limit, resume, submission)
        return run_id

    async def research(self, owner: str, request: QueuedRequest, resume: str | None, ctx: Context,
                       detach: bool = False, submission: str | None = None) -> CallToolResult:
        lang = self.language(request.lang, request.question)
        try:
            if resume and not await self.owns(owner, resume):
                return error_result(t("serve.unknown_session", lang, session_id=resume[:80]))
            run_id = await self.submit(owner, request, resume, submission)
        except run_queue.QueueFull as full:
            return error_result(t("serve.queue_full", lang, waiting=full.waiting, limit=full.limit))
        except DatabaseLost:
            return database_lost(lang)
        if detach:
            accepted = TeamResearchOutput(run_id=run_id, status=RunStatus.QUEUED)
            return tool_result(t("remote.queued", lang, run_id=run_id), accepted)
        # The id first, at once: a host that loses this call follows the run again with `run`.
        await ctx.report_progress(0, PROGRESS_TOTAL, t("remote.queued", lang, run_id=run_id))
        return await self.follow(owner, run_id, lang, ctx, seen=0)

    async def follow(self, owner: str, run_id: int, lang: Language, ctx: Context, seen: int) -> CallToolResult:
        """Send the run's progress (all but the first ``seen`` messages) until it ends, then its result.
        A database blip is waited out; one that lasts is an error that names the run, which goes on."""
        bar, shown, after = ProgressBar(), 0, 0

        async def tell_retry() -> None:
            value, total = bar.nudge()
            await ctx.report_progress(value, total, t("remote.db_retrying", lang, run_id=run_id))

        try:
            while True:
                row = await self.queue(run_queue.get_run, run_id, on_retry=tell_retry)
                if row is None or row["owner"] != owner:
                    return error_result(t("remote.unknown_run", lang, run_id=run_id))
                for event in await self.queue(run_queue.events_after, run_id, after, on_retry=tell_retry):
                    after = event["id"]
                    message, said = self.event_message(event, lang)
                    if said is not None and isinstance(said, SessionStarted):
                        lang = choose_language(said.language, lang)
                    if message:
                        value, total = bar.advance(said) if said is not None else bar.nudge()
                        shown += 1
                        if shown > seen:  # a host that follows again does not get the same lines twice
                            await ctx.report_progress(value, total, message)
                if row["status"] in run_queue.FINAL:
                    break
                await asyncio.sleep(FOLLOW_SECONDS)
        except DatabaseLost:
            return error_result(t("remote.db_lost", lang, seconds=int(DB_PATIENCE_SECONDS), run_id=run_id))
        if row["status"] != RunStatus.DONE or not row["result"]:  # failed, or cancelled by its owner
            if row["status"] == RunStatus.CANCELLED:
                message = t("serve.run_cancelled", lang, run_id=run_id)
            else:
                reason = _error_text(row["error"], lang) or str(row["status"])
                message = t("remote.run_failed", lang, run_id=run_id, reason=reason)
            if row["session_id"]:
                message = t("mcp_research.resume_hint", lang, message=message, session_id=row["session_id"])
            return error_result(message)
        output = self.team_output(run_id, row)
        return tool_result(render_research(output), output)

    def event_message(self, event: EventRow, lang: Language) -> tuple[str | None, Any]:
        """The line a host is shown for one stored event, and the event itself (None: a queue event)."""
        payload = event["payload"]
        if event["event"] == "claimed":
            key = "serve.taken_over" if payload.get("claims", 1) > 1 else "serve.started"
            return t(key, lang, worker=event["worker"]), None
        said = from_wire(event["event"], payload)
        if said is None:
            return None, None
        if isinstance(said, SessionStarted):
            lang = choose_language(said.language, lang)
        return progress_message(said, lang), said

    def team_output(self, run_id: int, row: RunRow) -> TeamResearchOutput:
        result = RunOutcome.read(row["result"])
        try:
            output = research_output(self.history, result)
        except (OSError, UserFacingError):  # no session folder on this host: what the run itself said
            output = ResearchOutput(session_id=result.session_id, session_dir="", language=result.language,
                                    answer=safe_markdown(result.answer.strip()),
                                    verification=with_verdicts(result.verification_json(), {}),
                                    sources=result.source_list,
                                    report_md=result.report_md, report_pdf=result.report_pdf,
                                    no_evidence=result.exit_code != 0)
        files = {name: run_files_path(run_id, name) for name in REPORT_FILES}
        return TeamResearchOutput(**{**output.model_dump(), "session_dir": "",
                                     "report_md": files["report.md"] if result.report_md else "",
                                     "report_pdf": files["report.pdf"] if result.report_pdf else "",
                                     "progress_md": files["progress.md"] if output.progress_md else ""},
                                  run_id=run_id, result=self.local_json(run_id, result))

    def local_json(self, run_id: int, result: RunOutcome) -> JsonObject:
        """What `research "…" --json` prints for this run on the machine that ran it, its paths
        the API's (a client puts its own copies' paths there)."""
        try:
            shown = json_result(result)
        except (OSError, UserFacingError):  # no session folder here: what the run itself said
            shown = result.to_json() | {"answer": result.answer, "source_list": []}
        return shown | {"session_dir": "",
                        "report_md": run_files_path(run_id, "report.md") if result.report_md else "",
                        "report_pdf": run_files_path(run_id, "report.pdf") if result.report_pdf else ""}

    async def files(self, run_id: int | None, session_id: str | None) -> dict[str, bytes]:
        """The run's report files: from the database where the queue keeps them, else its session folder."""
        found = {}
        if run_id is not None:
            found = {name: data for name, data in (await self.queue(run_queue.report_files, run_id)).items()
                     if name in REPORT_FILES}
        missing = [name for name in REPORT_FILES if name not in found]
        if missing and session_id:  # e.g. an unfinished run's progress.md, on a shared folder
            try:
                session = self.history.resolve(session_id)
            except UserFacingError:
                return found
            for name in missing:
                try:
                    found[name] = read_session_bytes(session.path / name)
                except OSError:
                    continue
        return found

    async def session_files(self, owner: str, session_id: str) -> tuple[SessionMeta | None, dict[str, bytes]]:
        """One of the owner's sessions (its row of session_rows) and the files of its last run;
        (None, {}) for a session that is not the owner's or does not exist."""
        row = await self.patiently(get_session, self.settings, session_id)
        if row is None or row["owner"] != owner:
            return None, {}
        runs = [r for r in await self.queue(run_queue.runs_of, owner, tuple(RunStatus)) if r["session_id"] == session_id]
        run = runs[-1] if runs else None
        listed = [r for r in await self.session_rows(owner, MAX_SESSIONS_LISTED) if r.session_id == session_id]
        shown = listed[0].body() if listed else {"session_id": session_id, "status": row["status"]}
        # The sources its last finished run read (the REPL's /sources on a team's server).
        sources = RunOutcome.read(run["result"]).source_list if run is not None and run["result"] else []
        meta = SessionMeta.model_validate({**shown, "source_list": sources})
        return meta, await self.files(run["run_id"] if run is not None else None, session_id)

    async def sessions(self, owner: str, limit: int) -> SessionList:
        rows = await self.patiently(list_sessions, self.settings, owner, limit)
        waiting = await self.queue(run_queue.runs_of, owner)
        running = {r["session_id"] for r in waiting if r["status"] == RunStatus.RUNNING and r["session_id"]}
        # No server paths: a client fetches a report by session id (session-report, the API).
        sessions = [SessionSummary(
            session_id=r["session_id"], question=r["question"], language=r["language"], status=r["status"],
            created_at=r["created_at"].isoformat(timespec="seconds") if r["created_at"] else "",
            session_dir="", report_md=f"/api/sessions/{r['session_id']}/files/report.md" if r["report_md"] else None,
            running_here=r["session_id"] in running) for r in rows]
        queue = [{"session_id": r["session_id"] or "", "question": str(r["request"].get("question", ""))[:80],
                  "step": r["status"], "run_id": str(r["run_id"])} for r in waiting]
        return SessionList(sessions=sessions, running=queue)

    async def session_rows(self, owner: str, limit: int) -> list[SessionRow]:
        """The owner's sessions as `research sessions list --json` shows local ones: meta.json's
        keys (the counts from the session's last finished run), without server paths."""
        rows = await self.patiently(list_sessions, self.settings, owner, limit)
        finished = await self.queue(run_queue.runs_of, owner, tuple(RunStatus))
        last: dict[str, RunRow] = {}
        for run in finished:
            if run["session_id"]:
                last[run["session_id"]] = run
        listed = []
        for row in rows:
            latest = last.get(row["session_id"])
            result = RunOutcome.read(latest["result"]) if latest is not None and latest["result"] else None
            listed.append(SessionRow(
                session_id=row["session_id"], question=row["question"], language=row["language"],
                status=row["status"], exit_code=row["exit_code"],
                created_at=row["created_at"].isoformat(timespec="seconds") if row["created_at"] else "",
                finished_at=row["finished_at"].isoformat(timespec="seconds") if row["finished_at"] else "",
                sources=result.sources if result is not None else "",
                verification=RunVerification.model_validate(result.verification_json() if result is not None else {}),
                run_id=latest["run_id"] if latest is not None else None, has_report=bool(row["report_md"]),
                has_pdf=bool(row["report_pdf"]),
            ))
        return listed


def build_http_server(settings: Settings, store: TokenStore, url: str) -> tuple[MCPServer, HttpService]:
    service = HttpService(settings)
    server = HttpResearchServer(
        TokenFileVerifier(store), url,
        instructions="A research assistant service (Japanese and English) shared by a team: researches a question "
                     "on the web with a local model, checks every sentence of its answer against the sources "
                     "read, and writes a report. Runs are queued and run by workers; each token sees its own "
                     "sessions only. A research call's first progress message names its run: if the call is "
                     "lost, the run goes on and the run tool follows it again.")
    _add_run_tools(server, service, settings)
    _add_session_tools(server, service)
    return server, service


def _add_run_tools(server: MCPServer, service: HttpService, settings: Settings) -> None:
    """research (queue a run and follow it) and run (follow one again)."""

    @server.tool(
        name="research",
        description="Research a question: queued, then run by a worker (search, read, answer with [S#] citations, "
                    "check each sentence). The first progress message names the run (\"Queued as run N\"); then a "
                    "progress notification per step, and the answer, the verification summary, the sources and the "
                    "report files' API paths. The run goes on if the call is cancelled or the connection drops: "
                    "follow it again with the run tool. detach: return the run's number at once instead.",
        annotations=RUNS_RESEARCH,
    )
    @tool_parameters(team=True)  # the stdio tool's option parameters, less those a team's admin keeps
    async def research_tool(
        ctx: Context,
        question: Question,
        lang: AnswerLang = "auto",
        resume: Annotated[str | None, Field(description="Id of one of your unfinished sessions to continue "
                                                        "instead of a new question")] = None,
        parent: Annotated[str | None, Field(description="Id of one of your sessions this question follows up "
                                                        "(a conversation: its topic and answer carry over)")] = None,
        detach: Annotated[bool, Field(description="Queue the run and return its number at once "
                                                  "(follow it with the run tool)")] = False,
        submission: Annotated[str | None, Field(min_length=8, max_length=100,
                                                description="A key of your own for this request (a UUID): asked "
                                                            "again with the same key (an answer that was lost), "
                                                            "the same run is answered, none is queued twice")] = None,
        **options: Any,
    ) -> Annotated[CallToolResult, TeamResearchOutput]:
        from research.orchestrator.graph_input import clean_question

        message_lang = service.language(lang, question)
        try:
            cleaned = question if resume else clean_question(question)
        except UserFacingError as exc:
            return error_result(exc.message(message_lang))
        # The options a team's caller may set (run_options: not the engine, an admin's choice);
        # the budgets may be lowered by a caller, never raised past the admin's.
        overrides = within_admin_limits(from_tool(options, team=True), settings)
        if parent and not resume:
            # A follow-up reads its parent's answer: only a session of this token's own.
            try:
                owned = await service.owns(_owner(), parent)
            except DatabaseLost:
                return database_lost(message_lang)
            if not owned:
                return error_result(t("serve.unknown_session", message_lang, session_id=parent[:80]))
        request = QueuedRequest(cleaned, lang, overrides, parent=parent if parent and not resume else None)
        return await service.research(_owner(), request, resume or None, ctx, detach=detach, submission=submission)

    @server.tool(
        name="run",
        description="Follow one of your runs (its number from research's first progress message) until it ends: "
                    "a progress notification per step, then the same result research returns. after: how many "
                    "progress messages you have already shown, so they are not sent again.",
        annotations=READS_SESSIONS,
    )
    async def run_tool(
        ctx: Context,
        run_id: RunId,
        after: Annotated[int, Field(ge=0, description="Progress messages of this run already shown")] = 0,
        lang: MessageLang = "auto",
    ) -> Annotated[CallToolResult, TeamResearchOutput]:
        message_lang = service.language(lang)
        try:
            row = await service.run_of(_owner(), run_id)
        except DatabaseLost:
            return error_result(t("remote.db_lost", message_lang, seconds=int(DB_PATIENCE_SECONDS), run_id=run_id))
        if row is None:
            return error_result(t("remote.unknown_run", message_lang, run_id=run_id))
        if lang == "auto":
            message_lang = service.language(row["request"].get("lang"), str(row["request"].get("question", "")))
        return await service.follow(_owner(), run_id, message_lang, ctx, seen=after)


def _add_session_tools(server: MCPServer, service: HttpService) -> None:
    """cancel, sessions and session-report: what a token may do with its own runs and sessions."""

    @server.tool(
        name="cancel",
        description="Cancel one of your runs (its number from research's first progress message): a run still "
                    "waiting never starts; a running one stops at its worker's next heartbeat, its session kept "
                    "as far as it got (research's resume parameter continues it). A run that has ended is left "
                    "as it is.",
        annotations=CANCELS_RUN,
    )
    async def cancel_tool(run_id: RunId, lang: MessageLang = "auto") -> Annotated[CallToolResult, CancelOutput]:
        message_lang = service.language(lang)
        try:
            outcome = await service.cancel(_owner(), run_id)
        except DatabaseLost:
            return database_lost(message_lang)
        if outcome is None:
            return error_result(t("remote.unknown_run", message_lang, run_id=run_id))
        return tool_result(outcome.text(message_lang), outcome)

    @server.tool(**SESSIONS_TOOL)
    async def sessions_tool(limit: SessionsLimit = 20, lang: MessageLang = "auto") -> Annotated[CallToolResult, SessionList]:
        try:
            listing = await service.sessions(_owner(), limit)
        except DatabaseLost:
            return database_lost(service.language(lang))
        return tool_result(render_session_list(listing, service.history, service.language(lang)), listing)

    @server.tool(**SESSION_REPORT_TOOL)
    async def session_report_tool(session_id: SessionId, lang: MessageLang = "auto") -> Annotated[CallToolResult, SessionReport]:
        message_lang = service.language(lang)
        # Another token's session reads exactly like one that does not exist.
        try:
            meta, files = await service.session_files(_owner(), session_id)
        except DatabaseLost:
            return database_lost(message_lang)
        if meta is None:
            return error_result(t("serve.unknown_session", message_lang, session_id=session_id[:80]))
        for kind, name in (("report", "report.md"), ("progress", "progress.md")):
            if files.get(name):
                # Files from a worker (or a shared folder) are made inert like our own answers.
                report = SessionReport(session_id=session_id, status=meta.status, kind=kind,
                                       path=f"/api/sessions/{session_id}/files/{name}",
                                       markdown=safe_markdown(files[name].decode("utf-8", errors="replace")))
                return tool_result(report.markdown, report)
        return error_result(t("mcp_research.no_report", message_lang, session_id=session_id, status=meta.status))


# --- the API a client reads a run and its files through ------------------------------------


def _json(data: BaseModel, status: int = 200) -> Any:
    """One answer of the API, from its model (team/api.py; a cancel's is the tool's ``CancelOutput``)."""
    from starlette.responses import JSONResponse

    body = data.body() if isinstance(data, ApiBody) else data.model_dump(mode="json")
    return JSONResponse(clean_data(body), status_code=status)


def _error(message: str, status: int) -> Any:
    return _json(ApiError(error=message), status)


def build_api(service: HttpService, store: TokenStore) -> list[Any]:
    """``/api/…``: a run's status, events and report files, and the token's sessions, as plain
    JSON and bytes (bearer token as for /mcp). A database blip answers 503 with Retry-After,
    which a client waits out; nothing about another token's runs or sessions is told."""
    from starlette.responses import Response
    from starlette.routing import Route

    def owner_of(request: Any) -> str | None:
        scheme, _, token = request.headers.get("authorization", "").partition(" ")
        entry = store.verify(token.strip()) if scheme.lower() == "bearer" else None
        return entry.token_id if entry else None

    def guarded(handler: Any) -> Any:
        async def endpoint(request: Any) -> Any:
            owner = owner_of(request)
            if owner is None:
                return Response(status_code=401, headers={"WWW-Authenticate": "Bearer"})
            _patience.set(API_DB_PATIENCE_SECONDS)
            try:
                return await handler(request, owner)
            except (DatabaseLost, *_db_errors()):  # type: ignore[misc]  # a tuple built at call time
                response = _error("database unreachable", 503)
                response.headers["Retry-After"] = "1"
                return response
        return endpoint

    return [Route(path, guarded(partial(handler, service)), methods=[method]) for path, handler, method in _API_ROUTES]


async def _owned_run(service: HttpService, request: Any, owner: str) -> RunRow | None:
    try:
        run_id = int(request.path_params["run_id"])
    except (KeyError, ValueError):
        return None
    return await service.run_of(owner, run_id)


async def _run_status(service: HttpService, request: Any, owner: str) -> Any:
    row = await _owned_run(service, request, owner)
    if row is None:
        return _error("no such run", 404)
    body = RunStatusBody(run_id=row["run_id"], status=RunStatus(row["status"]), session_id=row["session_id"],
                         question=str(row["request"].get("question", "")), lang=row["request"].get("lang"))
    if row["status"] in run_queue.FINAL and row["status"] != RunStatus.DONE:
        body.error = {lang: _error_text(row["error"], lang) or str(row["status"]) for lang in ("en", "ja")}
    if row["status"] == RunStatus.DONE and row["result"]:
        body.result = RunJson.model_validate(service.local_json(row["run_id"], RunOutcome.read(row["result"])))
    return _json(body)


async def _run_events(service: HttpService, request: Any, owner: str) -> Any:
    row = await _owned_run(service, request, owner)
    if row is None:
        return _error("no such run", 404)
    try:
        after = max(0, int(request.query_params.get("after", "0")))
        wait = min(max(0.0, float(request.query_params.get("wait", "0"))), API_EVENTS_WAIT)
    except ValueError:
        return _error("after and wait are numbers", 400)
    deadline = time.monotonic() + wait
    while True:
        events = await service.queue(run_queue.events_after, row["run_id"], after)
        if events or row["status"] in run_queue.FINAL or time.monotonic() >= deadline:
            break
        await asyncio.sleep(FOLLOW_SECONDS)
        row = await service.queue(run_queue.get_run, row["run_id"]) or row  # a run's row is never deleted
    return _json(RunEvents(status=RunStatus(row["status"]), events=[
        RunEvent(id=e["id"], event=e["event"], payload=e["payload"], worker=e["worker"]) for e in events]))


async def _run_cancel(service: HttpService, request: Any, owner: str) -> Any:
    try:
        run_id = int(request.path_params["run_id"])
    except (KeyError, ValueError):
        run_id = 0
    outcome = await service.cancel(owner, run_id) if run_id > 0 else None
    if outcome is None:
        return _error("no such run", 404)
    return _json(outcome)


async def _send_file(files: dict[str, bytes], name: str) -> Any:
    from starlette.responses import Response

    if name not in files:
        return _error("no such file", 404)
    media = {"report.pdf": "application/pdf"}.get(name, "text/markdown; charset=utf-8")
    return Response(files[name], media_type=media)


async def _run_file(service: HttpService, request: Any, owner: str) -> Any:
    row = await _owned_run(service, request, owner)
    if row is None:
        return _error("no such run", 404)
    return await _send_file(await service.files(row["run_id"], row["session_id"]), request.path_params["name"])


async def _session_list(service: HttpService, request: Any, owner: str) -> Any:
    try:
        limit = min(max(1, int(request.query_params.get("limit", "50"))), MAX_SESSIONS_LISTED)
    except ValueError:
        return _error("limit is a number", 400)
    return _json(SessionRows(sessions=await service.session_rows(owner, limit)))


async def _session_one(service: HttpService, request: Any, owner: str) -> Any:
    meta, _ = await service.session_files(owner, request.path_params["session_id"])
    return _json(meta) if meta is not None else _error("no such session", 404)


async def _session_file(service: HttpService, request: Any, owner: str) -> Any:
    meta, files = await service.session_files(owner, request.path_params["session_id"])
    if meta is None:
        return _error("no such session", 404)
    return await _send_file(files, request.path_params["name"])


# The API's routes: a handler gets the service, the request and the token's owner id.
_API_ROUTES: tuple[tuple[str, Callable[[HttpService, Any, str], Awaitable[Any]], str], ...] = (
    ("/api/runs/{run_id:int}", _run_status, "GET"),
    ("/api/runs/{run_id:int}/events", _run_events, "GET"),
    ("/api/runs/{run_id:int}/files/{name}", _run_file, "GET"),
    ("/api/runs/{run_id:int}/cancel", _run_cancel, "POST"),
    ("/api/sessions", _session_list, "GET"),
    ("/api/sessions/{session_id}", _session_one, "GET"),
    ("/api/sessions/{session_id}/files/{name}", _session_file, "GET"),
)


@dataclass
class _OpenSession:
    in_flight: int = 0
    last_seen: float = field(default_factory=time.monotonic)


class SessionsPerToken:
    """ASGI middleware before ``/mcp``: at most ``per_token`` open MCP sessions per token. The
    next initialize of a token at its cap gets 503; any other token's still opens one (the SDK
    counts all sessions together, a cap one token could fill). A session is counted from the
    initialize that opened it until it is deleted, answered 404 (the SDK forgot it), or has had
    no request in flight for ``idle_seconds`` (when the SDK closes it for idleness)."""

    def __init__(self, app: Any, store: TokenStore, per_token: int, idle_seconds: float, path: str = "/mcp") -> None:
        self.app, self.store, self.per_token, self.idle_seconds, self.path = app, store, per_token, idle_seconds, path
        self.sessions: dict[str, dict[str, _OpenSession]] = {}
        self.opening: dict[str, int] = {}  # initializes in flight, so simultaneous ones cannot all slip under

    def _owner(self, headers: dict[bytes, bytes]) -> str | None:
        scheme, _, token = headers.get(b"authorization", b"").decode("latin-1").partition(" ")
        entry = self.store.verify(token.strip()) if scheme.lower() == "bearer" else None
        return entry.token_id if entry else None

    def _held(self, owner: str) -> dict[str, _OpenSession]:
        held = self.sessions.setdefault(owner, {})
        now = time.monotonic()
        for session_id, state in list(held.items()):
            if state.in_flight == 0 and now - state.last_seen > self.idle_seconds:
                del held[session_id]
        return held

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] != "http" or not scope["path"].startswith(self.path):
            await self.app(scope, receive, send)
            return
        headers = dict(scope.get("headers") or [])
        owner = self._owner(headers)
        if owner is None:  # the SDK's auth answers 401
            await self.app(scope, receive, send)
            return
        held = self._held(owner)
        session_id = headers.get(b"mcp-session-id", b"").decode("latin-1")
        if not session_id:
            await self._open(owner, held, scope, receive, send)
            return
        state = held.get(session_id)
        if state is not None:
            state.in_flight += 1
        status: list[int] = []

        async def watch(message: Any) -> None:
            if message["type"] == "http.response.start":
                status.append(message["status"])
            await send(message)

        try:
            await self.app(scope, receive, watch)
        finally:
            if state is not None:
                state.in_flight -= 1
                state.last_seen = time.monotonic()
            if (scope["method"] == "DELETE" and status[:1] in ([200], [202], [204])) or status[:1] == [404]:
                held.pop(session_id, None)

    async def _open(self, owner: str, held: dict[str, _OpenSession], scope: Any, receive: Any, send: Any) -> None:
        from starlette.responses import JSONResponse

        if len(held) + self.opening.get(owner, 0) >= self.per_token:
            scope[REFUSAL_KEY] = f"over the cap of {self.per_token} open sessions for this token"
            refusal = JSONResponse({"jsonrpc": "2.0", "id": None,
                                    "error": {"code": -32603, "message": "Too many open sessions for this token"}},
                                   status_code=503, headers={"Retry-After": str(int(self.idle_seconds))})
            await refusal(scope, receive, send)
            return
        self.opening[owner] = self.opening.get(owner, 0) + 1
        settled = False

        def settle() -> None:
            # Opening ends with the answer's status: the session is held from then on, or was never opened. Not when
            # the SDK's handler returns, which may be later (a 413 answered before its 5 MB body was read): counted
            # until then, it took a place of the token's cap, and the token's 32nd initialize got 503 in one CI run
            # of tests/test_serve_access_log.py.
            nonlocal settled
            if not settled:
                settled = True
                self.opening[owner] -= 1

        async def record(message: Any) -> None:
            if message["type"] == "http.response.start":
                if message["status"] == 200:
                    for name, value in message.get("headers") or []:
                        if name.lower() == b"mcp-session-id":
                            held[value.decode("latin-1")] = _OpenSession()
                settle()
            await send(message)

        try:
            await self.app(scope, receive, record)
        finally:
            settle()


def build_app(settings: Settings, store: TokenStore, host: str, port: int, *,
              sessions_per_token: int = SESSIONS_PER_TOKEN,
              session_idle_seconds: float = SESSION_IDLE_SECONDS, access_log: AccessLog | None = None) -> Any:
    """The ASGI app: ``/mcp`` (Streamable HTTP, at most ``sessions_per_token`` open sessions per
    token, each closed after ``session_idle_seconds`` unused) and ``/api`` (``build_api``), every
    request authenticated, and each one logged to ``access_log`` (access_log.py) when given."""
    url = f"http://{host}:{port}"
    server, service = build_http_server(settings, store, url)
    security = None
    if host not in ("127.0.0.1", "localhost", "::1"):
        # Reached by name or address from elsewhere: the Host header is whatever the
        # clients use; the bearer token is the protection, not DNS-rebinding checks.
        security = TransportSecuritySettings(enable_dns_rebinding_protection=False)
    app = server.streamable_http_app(host=host, transport_security=security,
                                     session_idle_timeout=session_idle_seconds)
    app.router.routes[:0] = build_api(service, store)
    capped = SessionsPerToken(app, store, sessions_per_token, session_idle_seconds)
    return AccessLogMiddleware(capped, access_log, store) if access_log is not None else capped


class HeaderTimeoutProtocol(H11Protocol):
    """uvicorn's HTTP/1.1 protocol with a header-read timeout and a head size cap: a connection
    that has not sent a whole request head ``header_seconds`` after it opened (or after it
    began its next request), or whose head passes ``header_max_bytes``, is closed. uvicorn itself only times out idle keep-alive connections, so
    without this a client that trickles headers, or sends none, holds a socket for good."""

    header_seconds = HEADER_READ_SECONDS
    header_max_bytes = HEADER_MAX_BYTES
    refusal_log: AccessLog | None = None  # where a refused connection is logged (access_log is uvicorn's flag)

    def connection_made(self, transport: Any) -> None:
        super().connection_made(transport)
        self._header_timer: asyncio.TimerHandle | None = None
        self._arm_header_timer()

    def _arm_header_timer(self) -> None:
        if self._header_timer is None:
            self._header_timer = self.loop.call_later(self.header_seconds, self._headers_late)

    def _disarm_header_timer(self) -> None:
        if self._header_timer is not None:
            self._header_timer.cancel()
            self._header_timer = None

    def _waiting_for_headers(self) -> bool:
        import h11

        return self.conn.their_state is h11.IDLE

    def data_received(self, data: bytes) -> None:
        if self._waiting_for_headers():
            self._arm_header_timer()
            if self._head_size(data) > self.header_max_bytes:
                self._refuse_big_head()
                return
        super().data_received(data)
        if not self._waiting_for_headers():
            self._disarm_header_timer()

    def on_response_complete(self) -> None:
        super().on_response_complete()
        # Between requests the keep-alive timeout is in charge; the next request's first byte re-arms us.
        self._disarm_header_timer()

    def connection_lost(self, exc: Exception | None) -> None:
        self._disarm_header_timer()
        super().connection_lost(exc)

    def _head_size(self, data: bytes) -> int:
        """The bytes of the request head so far: what h11 holds unparsed plus ``data``, up to
        the blank line that ends the head (a body sent with it does not count)."""
        pending = self.conn.trailing_data[0] + data
        end = pending.find(b"\r\n\r\n")
        return end + 4 if end >= 0 else len(pending)

    def _refuse_big_head(self) -> None:
        self._disarm_header_timer()
        connection_refused(self.refusal_log, self.client,
                           f"request head over {self.header_max_bytes // 1024} KiB; connection closed", 431)
        if not self.transport.is_closing():
            self.transport.write(b"HTTP/1.1 431 Request Header Fields Too Large\r\ncontent-length: 0\r\n"
                                 b"connection: close\r\n\r\n")
            self.transport.close()

    def _headers_late(self) -> None:
        self._header_timer = None
        if self._waiting_for_headers() and not self.transport.is_closing():
            connection_refused(self.refusal_log, self.client,
                               f"request head not sent within {self.header_seconds:g} s; connection closed")
            self.transport.close()

    def send_400_response(self, msg: str) -> None:
        # h11 refused the head: not HTTP/1.1 as it reads it.
        connection_refused(self.refusal_log, self.client, "malformed request head", 400)
        super().send_400_response(msg)


def uvicorn_config(app: Any, *, header_seconds: float = HEADER_READ_SECONDS, access_log: AccessLog | None = None,
                   **options: Any) -> Any:
    """The uvicorn configuration `research serve` runs the app with: HTTP/1.1 with the header-read
    timeout, refused connections logged to ``access_log`` (uvicorn's own access log stays off)."""
    import uvicorn

    protocol = type("HeaderTimeout", (HeaderTimeoutProtocol,),
                    {"header_seconds": header_seconds, "refusal_log": access_log})
    return uvicorn.Config(app, http=protocol, **{"log_level": "warning", "lifespan": "on", **options})

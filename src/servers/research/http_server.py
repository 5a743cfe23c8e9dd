"""`research serve`: the research MCP server over Streamable HTTP, for a team.

The same tools as ``research mcp research`` (research, sessions, session-report), spoken
through the ``mcp`` SDK's Streamable HTTP transport with its bearer-token auth: a request
without a valid token (``http_tokens``) gets 401 before any tool runs. A ``research`` call
does not run here: it is queued in PostgreSQL (``run_queue``) and run by a worker
(``http_worker``); this process follows the run's events and sends them to the client as
progress notifications, then returns the same result as the stdio server. Each token is
an owner: its calls see and resume only the sessions its own runs made.
"""

from __future__ import annotations

import asyncio
import json
from typing import Annotated, Any

from mcp.server.auth.middleware.auth_context import get_access_token
from mcp.server.auth.provider import AccessToken
from mcp.server.auth.settings import AuthSettings
from mcp.server.mcpserver import Context, MCPServer
from mcp.server.transport_security import TransportSecuritySettings
from mcp_types import CallToolResult
from pydantic import Field
from starlette.applications import Starlette

import research
from research.modules.core.i18n import t
from research.modules.core.settings import Settings
from research.orchestrator import run_queue
from research.orchestrator.run_queue import QueuedRequest, RunStatus
from research.orchestrator.runner import RunResult
from research.orchestrator.session_store import get_session, list_sessions
from research.servers.mcp_support import ResearchMCPServer
from research.servers.research.http_tokens import TokenStore
from research.servers.research.results import (
    ResearchOutput,
    SessionList,
    SessionReport,
    SessionSummary,
    render_research,
    render_session_list,
    research_output,
    session_report,
)
from research.servers.research.server import (
    READS_SESSIONS,
    RUNS_RESEARCH,
    SERVER_NAME,
    AnswerLang,
    Depth,
    MaxLlmTokens,
    MaxSeconds,
    MaxSources,
    MessageLang,
    Question,
    SessionsLimit,
    error_result,
    progress_message,
    tool_result,
)
from research.state.progress_events import from_wire
from research.state.session_folder import HistoryManager

FOLLOW_SECONDS = 0.3  # how often a waiting call reads its run's new events
# Exact here (the stdio server also takes a unique part): a token looks up only its own sessions.
SessionId = Annotated[str, Field(min_length=1, description="Session id")]


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
                           auth=AuthSettings(issuer_url=url, resource_server_url=None,
                                             required_scopes=["research"]))
        self._schema_extras = {}


def _owner() -> str:
    token = get_access_token()
    if token is None:  # the transport refuses unauthenticated requests before any tool runs
        raise PermissionError("no authenticated token")
    return token.client_id


def _error_text(stored: str | None, lang: str) -> str:
    try:
        return json.loads(stored or "{}").get(lang) or ""
    except ValueError:
        return stored or ""


class HttpService:
    def __init__(self, settings: Settings) -> None:
        self.settings = settings
        self.history = HistoryManager(settings.sessions_dir)
        self._pool: Any = None  # connections shared by the waiting calls, opened on first use
        self._opening = asyncio.Lock()

    async def db(self) -> Any:
        """A small pool: twenty clients following their runs must not open a connection each poll."""
        async with self._opening:
            if self._pool is None:
                from psycopg.rows import dict_row
                from psycopg_pool import AsyncConnectionPool

                pool = AsyncConnectionPool(self.settings.database_url, min_size=1, max_size=8, open=False,
                                           kwargs={"autocommit": True, "prepare_threshold": 0,
                                                   "row_factory": dict_row})
                await pool.open()
                self._pool = pool
        return self._pool

    def language(self, requested: str | None, text: str = "") -> str:
        from research.modules.core.language import detect_language

        for candidate in (requested, self.settings.language):
            if candidate in ("ja", "en"):
                return candidate
        return detect_language(text) if text else "en"

    async def owns(self, owner: str, session_id: str) -> bool:
        row = await get_session(self.settings, session_id)
        return row is not None and row["owner"] == owner

    async def research(self, owner: str, request: QueuedRequest, resume: str | None, ctx: Context) -> CallToolResult:
        lang = self.language(request.lang, request.question)
        if resume and not await self.owns(owner, resume):
            return error_result(t("serve.unknown_session", lang, session_id=resume[:80]))
        db = await self.db()
        try:
            run_id = await run_queue.submit(db, owner, request, self.settings.queue_limit, session_id=resume)
        except run_queue.QueueFull as full:
            return error_result(t("serve.queue_full", lang, waiting=full.waiting, limit=full.limit))
        steps, after = 1, 0
        await ctx.report_progress(steps, None, t("serve.queued", lang, run_id=run_id))
        while True:
            row = await run_queue.get_run(db, run_id)
            for event in await run_queue.events_after(db, run_id, after):
                after = event["id"]
                payload = event["payload"]
                if event["event"] == "session":
                    lang = payload.get("language") or lang
                if event["event"] == "claimed":
                    key = "serve.taken_over" if payload.get("claims", 1) > 1 else "serve.started"
                    message = t(key, lang, worker=event["worker"])
                else:
                    said = from_wire(event["event"], payload)
                    message = progress_message(said, lang) if said is not None else None
                if message:
                    steps += 1  # MCP progress must grow with every notification
                    await ctx.report_progress(steps, None, message)
            if row["status"] in run_queue.FINAL:
                break
            await asyncio.sleep(FOLLOW_SECONDS)
        if row["status"] == RunStatus.FAILED:
            message = t("serve.run_failed", lang, reason=_error_text(row["error"], lang))
            if row["session_id"]:
                message = t("mcp_research.resume_hint", lang, message=message, session_id=row["session_id"])
            return error_result(message)
        result = RunResult(**row["result"])
        output = research_output(self.history, result)
        return tool_result(render_research(output), output)

    async def sessions(self, owner: str, limit: int) -> SessionList:
        rows = await list_sessions(self.settings, owner, limit)
        waiting = await run_queue.runs_of(await self.db(), owner)
        running = {r["session_id"] for r in waiting if r["status"] == RunStatus.RUNNING and r["session_id"]}
        sessions = [SessionSummary(
            session_id=r["session_id"], question=r["question"], language=r["language"], status=r["status"],
            created_at=r["created_at"].isoformat(timespec="seconds") if r["created_at"] else "",
            session_dir=r["session_dir"], report_md=r["report_md"] or None,
            running_here=r["session_id"] in running) for r in rows]
        queue = [{"session_id": r["session_id"] or "", "question": str(r["request"].get("question", ""))[:80],
                  "step": r["status"], "run_id": str(r["run_id"])} for r in waiting]
        return SessionList(sessions=sessions, running=queue)


def build_http_server(settings: Settings, store: TokenStore, url: str) -> MCPServer:
    service = HttpService(settings)
    server = HttpResearchServer(
        TokenFileVerifier(store), url,
        instructions="A research assistant service (Japanese and English) shared by a team: researches a question "
                     "on the web with a local model, checks every sentence of its answer against the sources "
                     "read, and writes a report. Runs are queued and run by workers; each token sees its own "
                     "sessions only.")

    @server.tool(
        name="research",
        description="Research a question: queued, then run by a worker (search, read, answer with [S#] citations, "
                    "check each sentence). Sends a progress notification per step and returns the answer, the "
                    "verification summary, the sources and the report's paths. The run goes on if the call is "
                    "cancelled; see `sessions`.",
        annotations=RUNS_RESEARCH,
    )
    async def research_tool(
        ctx: Context,
        question: Question,
        lang: AnswerLang = "auto",
        depth: Depth = None,
        max_sources: MaxSources = None,
        max_llm_tokens: MaxLlmTokens = None,
        max_seconds: MaxSeconds = None,
        resume: Annotated[str | None, Field(description="Id of one of your unfinished sessions to continue "
                                                        "instead of a new question")] = None,
        parent: Annotated[str | None, Field(description="Id of one of your sessions this question follows up "
                                                        "(a conversation: its topic and answer carry over)")] = None,
    ) -> Annotated[CallToolResult, ResearchOutput]:
        from research.modules.core.errors import UserFacingError
        from research.orchestrator.runner import clean_question

        message_lang = service.language(lang, question)
        try:
            cleaned = question if resume else clean_question(question)
        except UserFacingError as exc:
            return error_result(exc.message(message_lang))
        # The search engine stays the service's (an admin's choice), so it is not an argument here.
        overrides = {"depth": depth, "max_sources": max_sources, "max_llm_tokens": max_llm_tokens,
                     "max_seconds": max_seconds}
        if parent and not resume:
            # A follow-up reads its parent's answer: only a session of this token's own.
            if not await service.owns(_owner(), parent):
                return error_result(t("serve.unknown_session", message_lang, session_id=parent[:80]))
        request = QueuedRequest(cleaned, lang, {k: v for k, v in overrides.items() if v is not None},
                                parent=parent if parent and not resume else None)
        return await service.research(_owner(), request, resume or None, ctx)

    @server.tool(
        name="sessions",
        description="Your research sessions (this token's), newest first: id, question, status, report path; and "
                    "your runs that are queued or running.",
        annotations=READS_SESSIONS,
    )
    async def sessions_tool(limit: SessionsLimit = 20, lang: MessageLang = "auto") -> Annotated[CallToolResult, SessionList]:
        listing = await service.sessions(_owner(), limit)
        return tool_result(render_session_list(listing, service.history, service.language(lang)), listing)

    @server.tool(
        name="session-report",
        description="One of your sessions' report as Markdown; for an unfinished session, its progress.md.",
        annotations=READS_SESSIONS,
    )
    async def session_report_tool(session_id: SessionId, lang: MessageLang = "auto") -> Annotated[CallToolResult, SessionReport]:
        message_lang = service.language(lang)
        # Another token's session reads exactly like one that does not exist.
        if not await service.owns(_owner(), session_id):
            return error_result(t("serve.unknown_session", message_lang, session_id=session_id[:80]))
        report = session_report(service.history, session_id)
        if report is None:
            return error_result(t("mcp_research.no_report", message_lang, session_id=session_id, status=""))
        return tool_result(report.markdown, report)

    return server


def build_app(settings: Settings, store: TokenStore, host: str, port: int) -> Starlette:
    """The ASGI app: ``/mcp`` (Streamable HTTP), every request authenticated."""
    url = f"http://{host}:{port}"
    server = build_http_server(settings, store, url)
    security = None
    if host not in ("127.0.0.1", "localhost", "::1"):
        # Reached by name or address from elsewhere: the Host header is whatever the
        # clients use; the bearer token is the protection, not DNS-rebinding checks.
        security = TransportSecuritySettings(enable_dns_rebinding_protection=False)
    return server.streamable_http_app(host=host, transport_security=security)

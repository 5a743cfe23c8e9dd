"""The assistant itself as a stdio MCP server, for Claude Desktop and other MCP hosts.

Tools: ``research`` (a whole run: answer, verification, sources, report paths, with a
progress notification per step; cancelling keeps a resumable session), ``verify`` (an
answer against given sources, sentence by sentence), ``sessions`` and ``session-report``.

This server stands where the CLI stands (it drives the orchestrator), so unlike the
web-search and parser servers it imports from above ``modules``. Stdout is the protocol:
progress goes out as notifications and logs to stderr. Settings come from ``RESEARCH_*``.

Run: ``research mcp research``.
"""

from __future__ import annotations

import asyncio
import logging
import os
import sys
from typing import TYPE_CHECKING, Annotated, Any, Literal, TypedDict

from mcp.server.mcpserver import Context, MCPServer
from mcp_types import CallToolResult, TextContent, ToolAnnotations
from pydantic import BaseModel, Field

from research.modules.core.errors import EXIT_USAGE, UserFacingError
from research.modules.core.i18n import reason_label, t
from research.modules.core.language import Language, choose_language
from research.modules.core.run_options import OptionValues, from_tool, tool_parameters, within_admin_limits
from research.modules.core.settings import Settings, load_settings
from research.modules.text.sanitize import clean_data, strip_controls
from research.servers.research.results import (
    ResearchOutput,
    SessionList,
    SessionReport,
    render_research,
    render_session_list,
    research_output,
    session_list,
    session_report,
)
from research.servers.mcp_support import ResearchMCPServer
from research.servers.research.runs import RunManager, RunsBusy
from research.servers.research.verify_tool import CheckProcess, SourceObject, VerifyOutput, source_text, verify_answer
from research.state.progress_events import (
    Message,
    NodeFinished,
    NodeStarted,
    ProgressEvent,
    Resuming,
    SessionStarted,
)
from research.state.models import summary_states, verdict_state
from research.state.progress_log import verdict_counts
from research.state.session_folder import HistoryManager
from research.state.steps import FOLLOW_UP_ROUND, PLAIN_RUN, step_label

if TYPE_CHECKING:  # imported by the first run (runs.py), not by the server's start
    from research.orchestrator.runner import ResearchRequest

SERVER_NAME = "research"
MAX_SESSIONS_LISTED = 200

logger = logging.getLogger(__name__)

Lang = Literal["auto", "ja", "en"]
# Tool parameters both research servers take (this one on stdio, the team service in
# team/front.py): one type each, so a description or a bound is written once.
Question = Annotated[str, Field(description="The question, in Japanese or English. Ignored when resume is given.")]
AnswerLang = Annotated[Lang, Field(description="Answer language: ja, en, or auto (from the question)")]
MessageLang = Annotated[Lang, Field(description="Language of messages: ja, en or auto")]
SessionsLimit = Annotated[int, Field(ge=1, le=MAX_SESSIONS_LISTED, description="At most this many sessions")]
# What a tool does to the world, for hosts that ask before calling one: the same on both servers.
RUNS_RESEARCH = ToolAnnotations(read_only_hint=False, open_world_hint=True)  # reads the web, writes a session
READS_SESSIONS = ToolAnnotations(read_only_hint=True, open_world_hint=False)
# The two reading tools, declared once for both servers: "your" sessions are this folder's on the
# stdio server and the token's own on the team service.
class ToolSpec(TypedDict):
    """A tool's registration (``server.tool(**spec)``), shared by both servers."""

    name: str
    description: str
    annotations: ToolAnnotations


SESSIONS_TOOL: ToolSpec = {
    "name": "sessions",
    "description": "Your research sessions, newest first: id, question, status, where the report is; and your "
                   "runs that are queued or running now.",
    "annotations": READS_SESSIONS,
}
SESSION_REPORT_TOOL: ToolSpec = {
    "name": "session-report",
    "description": "One of your sessions' report as Markdown; for an unfinished session, its progress.md (what "
                   "was done so far).",
    "annotations": READS_SESSIONS,
}
SessionId = Annotated[str, Field(min_length=1, description="Session id, as the sessions tool lists it")]


class ResearchService:
    """What the tools share: settings from the environment, the sessions, the runs."""

    def __init__(self, settings: Settings, runs: RunManager | None = None) -> None:
        from research.orchestrator.server_pool import KeptServers, ServerPool

        self.settings = settings
        self.runs = runs or RunManager()
        # The web-search and parser servers that `verify` reads URLs with, started at the
        # first such call and kept until this server exits: a check no longer pays for
        # starting both.
        self.servers = ServerPool()
        # Research runs keep a pair of their own from one call to the next (a call's options
        # may ask for other server settings than the verify tool's): the second call starts
        # no process; an idle server gives them back (server_pool.KeptServers).
        self.run_servers = KeptServers()
        # `verify`'s sentence checks run in a child process: off the event loop, and killed
        # when the client gives up on the call.
        self.checks = CheckProcess()

    @property
    def history(self) -> HistoryManager:
        return HistoryManager(self.settings.sessions_dir)

    def message_language(self, requested: str | None = None, text: str = "") -> Language:
        """The caller's language, else the server's setting, else the question's, else the locale's."""
        return choose_language(requested, self.settings.language, text=text)

    async def research(self, request: ResearchRequest, overrides: OptionValues, ctx: Context) -> CallToolResult:
        settings = load_settings(flag_names=None, **overrides)
        lang = self.message_language(settings.language, request.question)
        bar = ProgressBar()
        session_id = ""

        async def notify(event: ProgressEvent) -> None:
            nonlocal lang, session_id
            if isinstance(event, SessionStarted):
                lang, session_id = choose_language(event.language, lang), event.session_id
            message = progress_message(event, lang)
            if message:
                value, total = bar.advance(event)
                await ctx.report_progress(value, total, strip_controls(message, keep_newlines=False))

        try:
            async with self.run_servers.lease(settings) as servers:
                request.servers = servers.pool
                result = await self.runs.run(request, settings, notify)
        except RunsBusy as busy:
            return error_result(t("mcp_research.busy", lang, session_id=busy.session_id, running=busy.running,
                                  limit=busy.limit))
        except Exception as exc:  # noqa: BLE001 - the host gets one clear line; error.log has the rest
            message = exc.message(lang) if isinstance(exc, UserFacingError) else t(
                "mcp_research.failed", lang, reason=f"{type(exc).__name__}: {exc}")
            if session_id:  # its finished steps are checkpointed: say how to go on
                message = t("mcp_research.resume_hint", lang, message=message, session_id=session_id)
            return error_result(message)
        output = research_output(self.history, result)
        return tool_result(render_research(output), output)


# The steps of a run without plan review or follow-up rounds, and how many one round adds.
RUN_STEPS = PLAIN_RUN
ROUND_STEPS = len(FOLLOW_UP_ROUND)
PROGRESS_TOTAL = 100.0  # the bar is in percent: a total fixed at the start, whatever the rounds


class ProgressBar:
    """MCP progress a host can draw a bar from: percent of the run, the total fixed at 100 from
    the first notification, each value rounded to hundredths and larger than the one before
    (MCP progress must grow). A finished step takes its share of what is left (a follow-up
    round, as it starts, makes the shares smaller instead of moving the total); the report's
    end is 100. Other notifications move it a tenth of the way into the running step's share."""

    def __init__(self) -> None:
        self.total = PROGRESS_TOTAL
        self.value = 0.0
        self.expected = len(RUN_STEPS)
        self.done = 0
        self._verified = False

    def _share(self) -> float:
        """The running step's share of what is left, below the end the report alone reaches."""
        return max(0.0, (PROGRESS_TOTAL - 1 - self.value) / max(1, self.expected - self.done))

    def _moved_to(self, target: float) -> tuple[float, float]:
        self.value = min(max(round(target, 2), round(self.value + 0.01, 2)), PROGRESS_TOTAL)
        return self.value, self.total

    def value_now(self) -> float:
        return self.value

    def nudge(self) -> tuple[float, float]:
        """A notification that is not a step's start or end."""
        return self._moved_to(self.value + self._share() / 10)

    def advance(self, event: ProgressEvent) -> tuple[float, float]:
        if isinstance(event, Resuming) and event.next and event.next[0] in RUN_STEPS:  # finished steps count as done
            skipped = RUN_STEPS.index(event.next[0])
            target = self.value + (PROGRESS_TOTAL - 1 - self.value) * skipped / max(1, self.expected - self.done)
            self.done = skipped
            return self._moved_to(target)
        if isinstance(event, NodeStarted) and event.node == FOLLOW_UP_ROUND[0] and self._verified:
            self.expected += ROUND_STEPS  # a follow-up round: the shares left get smaller
        elif isinstance(event, NodeStarted) and event.node not in RUN_STEPS:
            self.expected += 1  # a step only some runs take (plan review)
        if isinstance(event, NodeFinished):
            self._verified = self._verified or event.node == "verification"
            if event.node == "report":
                self.done = self.expected
                return self._moved_to(PROGRESS_TOTAL)
            target = self.value + self._share()
            self.done = min(self.done + 1, self.expected - 1)
            return self._moved_to(target)
        return self.nudge()


def progress_message(event: ProgressEvent, lang: Language) -> str | None:
    """The line a host shows for one runner event; None for events it need not see."""
    match event:
        case SessionStarted():
            return t("progress.session", lang, session_id=event.session_id)
        case Resuming():
            steps = ", ".join(step_label(node, lang) for node in event.next)
            return t("terminal.resuming_at", lang, session_id=event.session_id, step=steps)
        case NodeStarted():
            return step_label(event.node, lang, event.variant) + "…"
        case NodeFinished():
            return f"{step_label(event.node, lang, event.variant)}: {t('progress.done', lang)} ({event.seconds:.1f}s)"
        case Message():
            return t(event.key, lang, **event.params)
    return None


def error_result(message: str) -> CallToolResult:
    return CallToolResult(content=[TextContent(type="text", text=strip_controls(message))], is_error=True)


def tool_result(text: str, payload: BaseModel) -> CallToolResult:
    """Every result a host shows passes the one sanitiser: questions, titles, answers and
    reports come from pages, the model or a shared session folder."""
    return CallToolResult(content=[TextContent(type="text", text=strip_controls(text))],
                          structured_content=clean_data(payload.model_dump(mode="json")), is_error=False)


def build_server(service: ResearchService) -> MCPServer:
    # serverInfo.version = research.__version__; argument errors are one short line per field.
    server = ResearchMCPServer(
        SERVER_NAME,
        instructions="A local research assistant (Japanese and English): researches a question on the web with a "
                     "local model, checks every sentence of its answer against the sources read, and writes a "
                     "report. Also verifies any answer against given sources.",
    )

    @server.tool(
        name="research",
        description="Research a question: search the web, read the sources, write an answer with [S#] citations "
                    "and check each sentence against them. Takes minutes; sends a progress notification per step. "
                    "Returns the answer, the verification summary, the sources and the report's paths. "
                    "Cancelling keeps the session, resumable with the resume argument.",
        annotations=RUNS_RESEARCH,
    )
    @tool_parameters(team=False)  # depth, engine, the budgets, …: one declaration each (run_options)
    async def research_tool(
        ctx: Context,
        question: Question,
        lang: AnswerLang = "auto",
        resume: Annotated[str | None, Field(description="Id of an unfinished (e.g. cancelled) session to "
                                                        "continue instead of a new question")] = None,
        **options: Any,
    ) -> Annotated[CallToolResult, ResearchOutput]:
        from research.orchestrator.runner import ResearchRequest

        request = ResearchRequest(question=question, resume=resume or None)
        # lang is a parameter of its own: it also chooses the language of the tool's messages.
        overrides = {"language": lang, **from_tool(options, team=False)}
        try:
            return await service.research(request, within_admin_limits(overrides, service.settings), ctx)
        except UserFacingError as exc:
            return error_result(exc.message(service.message_language(lang, question)))

    @server.tool(
        name="verify",
        description="Check an answer sentence by sentence against sources, as `research verify` does. Sources "
                    "are labelled S1, S2, … in the order given, so the answer's [S1] cites the first; each is text "
                    "or an http(s) URL (fetched, then parsed in the sandbox), or a {label, text} object as in "
                    "`research verify --batch`, whose label the answer cites. Each sentence's state: supported, "
                    "partly supported, not supported, contradicted or not checked (its 'verdict' keeps the check's "
                    "outcome: supported, unsupported, uncertain).",
        annotations=ToolAnnotations(read_only_hint=True, open_world_hint=True),
    )
    async def verify_tool(
        answer: Annotated[str, Field(min_length=1, description="The answer to check, with [S#] citations")],
        sources: Annotated[list[str | SourceObject], Field(
            min_length=1, description="Sources, S1 first: each a text or an http(s) URL, or an object as "
                                      "`research verify --batch` takes it: {\"label\": \"S1\", \"text\": \"…\"} "
                                      "(optional title and url)")],
        judge: Annotated[bool, Field(description="Let the local model decide sentences the checks leave "
                                                 "uncertain (needs Ollama)")] = True,
        lang: Annotated[Lang, Field(description="Language of messages and of the judge: ja, en or auto")] = "auto",
    ) -> Annotated[CallToolResult, VerifyOutput]:
        message_lang = service.message_language(lang, answer)
        if not any(source_text(source).strip() for source in sources):
            return error_result(t("mcp_research.no_sources", message_lang))
        try:
            output = await verify_answer(answer, sources, service.settings, judge=judge, lang=message_lang,
                                         servers=service.servers, checks=service.checks)
        except UserFacingError as exc:
            return error_result(exc.message(message_lang))
        if not any(source.status == "ok" for source in output.sources):
            reasons = "; ".join(f"{s.label}: {s.error}" for s in output.sources)
            return error_result(t("mcp_research.no_readable_source", message_lang) + f" ({reasons})")
        return tool_result(render_verdicts(output, message_lang), output)

    @server.tool(**SESSIONS_TOOL)
    async def sessions_tool(limit: SessionsLimit = 20, lang: MessageLang = "auto") -> Annotated[CallToolResult, SessionList]:
        listing = session_list(service.history, service.runs.describe(), limit)
        return tool_result(render_session_list(listing, service.history, service.message_language(lang)), listing)

    @server.tool(**SESSION_REPORT_TOOL)
    async def session_report_tool(session_id: SessionId, lang: MessageLang = "auto") -> Annotated[CallToolResult, SessionReport]:
        message_lang = service.message_language(lang)
        try:
            report = session_report(service.history, session_id)
        except UserFacingError as exc:
            return error_result(exc.message(message_lang))
        if report is None:
            session = service.history.resolve(session_id)
            status = (service.history.read_json(session.session_id, "meta.json", {}) or {}).get("status", "")
            return error_result(t("mcp_research.no_report", message_lang, session_id=session.session_id,
                                  status=status))
        return tool_result(report.markdown, report)

    return server


def render_verdicts(output: VerifyOutput, lang: Language) -> str:
    lines = []
    for number, verdict in enumerate(output.verdicts, 1):
        name = verdict.state or verdict_state({"verdict": verdict.verdict, "reason": verdict.reason})
        where = f" [{verdict.source}]" if verdict.source else ""
        lines.append(f"{number}. {t('verdict.' + name, lang)}{where}: {verdict.text}")
        # What a host that reads text only needs too: why, and the passage that decided it.
        if verdict.reason:
            lines.append("   " + t("verify.why", lang, reason=reason_label(verdict.reason, lang)))
        if verdict.evidence:
            lines.append("   " + t("verify.evidence_line", lang, label=verdict.source or "?",
                                      evidence=" ".join(verdict.evidence.split())[:300]))
    summary = output.summary
    lines += ["", verdict_counts(summary_states(summary), lang)]
    if output.judge_note:
        lines.append(t("verify.judge_unavailable", lang, reason=output.judge_note[:200]))
    for source in output.sources:
        if source.status != "ok":
            lines.append(t("mcp_research.source_unreadable", lang, label=source.label, url=source.url,
                           reason=source.error or ""))
    return "\n".join(lines) + "\n"


async def _serve(settings: Settings) -> None:
    import anyio

    from research.modules.clients.zygote import discard_standby_after
    from research.orchestrator.server_pool import SERVERS_IDLE_SECONDS

    service = ResearchService(settings)
    # The web-search server forked at this server's start (cli/early_servers.py) waits for the
    # first run no longer than a kept pair of servers waits for the next.
    discard_standby_after(asyncio.get_running_loop(), SERVERS_IDLE_SECONDS)
    try:
        async with anyio.create_task_group() as tasks:
            tasks.start_soon(_stop_on_signals, service)
            await build_server(service).run_stdio_async()
            tasks.cancel_scope.cancel()  # the host closed stdin: nothing left to wait for
    finally:
        service.checks.close()
        await asyncio.gather(service.servers.aclose(), service.run_servers.aclose())


async def _stop_on_signals(service: ResearchService) -> None:
    """SIGTERM or SIGHUP (a host quitting, a service manager): the runs in progress are
    stopped as the CLI stops one, keeping their sessions "interrupted" and resumable,
    instead of the process dying with them still marked "running". Then the process ends
    with 143/129 at once: the SDK's stdin reader is a thread no cancellation can stop."""
    import signal

    import anyio

    from research.modules.core.errors import SIGNAL_EXIT_CODES

    with anyio.open_signal_receiver(signal.SIGTERM, signal.SIGHUP) as signals:
        async for number in signals:
            name = signal.Signals(number).name
            with anyio.CancelScope(shield=True):
                await service.runs.stop_all(name)
                service.checks.close()
                await asyncio.gather(service.servers.aclose(), service.run_servers.aclose())
            logging.shutdown()
            sys.stderr.flush()
            os._exit(SIGNAL_EXIT_CODES[name])


def serve() -> None:
    """Run the server on stdio until the host closes it. Settings from ``RESEARCH_*``.
    Stopped by SIGTERM/SIGHUP it exits 143/129 once its runs are marked "interrupted"."""
    import anyio

    from research.modules.core.logs import configure

    try:
        settings = load_settings()
    except UserFacingError as exc:
        # A bad RESEARCH_* value: one line on stderr (the host's log) and the usage exit code.
        sys.stderr.write(f"research mcp research: {exc.message('en')}\n")
        raise SystemExit(EXIT_USAGE) from None
    configure(settings.log_level)  # ours: what each run did, at RESEARCH_LOG_LEVEL, into the host's log
    anyio.run(_serve, settings)


if __name__ == "__main__":
    serve()

"""Run or resume one research session: settings in, session folder and report out.

Both the one-shot command and the REPL call ``run_research``; it owns the run's
checkpointer and the session's status in meta.json, so a failure or Ctrl-C never loses
what was already written. The MCP servers come from a ``ServerPool``: the caller's (the
REPL keeps one for all its questions) or one of the run's own, started first thing and
stopped, both at once, when the run ends.
"""

from __future__ import annotations

import asyncio
import errno
import importlib
import os
import threading
import traceback
from contextlib import AsyncExitStack
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Callable, Mapping

from research.modules.core.errors import EXIT_FAILURE, EXIT_NO_EVIDENCE, EXIT_OK, UsageError, UserFacingError
from research.modules.core.language import Language
from research.state.agent_state import AgentState
from research.state.models import Depth, PlanReviewRequest, ProblemKind, RunProblem, summary_with_states
from research.state.run_problems import outcome_exit_code, run_problems
from research.state.run_record import RunOutcome, RunVerification, SessionRecord, sources_of
from research.state.steps import REPORT
from research.state.session_folder import FINISHED_STATUSES, HistoryManager, SessionInfo, SessionStatus, now_iso, read_ledger
from research.modules.core.run_options import recorded, restored
from research.modules.core.settings import Settings
from research.modules.text.sanitize import safe_markdown
from research.workflow.dependencies import ProgressCallback, WorkflowDependencies
from research.state.progress_events import Message, NodeStarted, ProgressEvent, Resuming, ServersStarting, SessionStarted
from research.orchestrator.graph_input import MAX_QUESTION_CHARS, clean_question, read_caller_input, resolve_language
from research.orchestrator.checkpointer import ensure_index, open_checkpointer, record_session
from research.orchestrator.server_pool import ServerPool

if TYPE_CHECKING:  # imported once the question is accepted: a bad one is said without the client's imports
    from langchain_core.runnables import RunnableConfig

    from research.orchestrator.checkpoints import StoredValues

    from research.modules.llm.model_manager import ModelManager



@dataclass
class ResearchRequest:
    """One question, or one session to resume, and who answers for it. How it is answered
    (language, depth, plan review, budgets) is the run's ``Settings``, the one place every
    caller sets it: a request cannot say one language while the settings say another."""

    question: str = ""
    resume: str | None = None
    parent_session: str | None = None
    # Answers a plan review: called with {"question", "language", "plan"}, returns the
    # reviewed sub-questions (texts). A plan is reviewed when settings.review_plan is on and
    # there is a reviewer; None: a pending review is accepted as planned.
    reviewer: Callable[[PlanReviewRequest], list[str] | None] | None = None
    # Set by the CLI to "SIGTERM"/"SIGHUP" just before it cancels the run for that signal:
    # the session is then marked "interrupted" rather than "cancelled" (Ctrl-C).
    stopped_by: str | None = None
    # Servers shared across runs (the REPL keeps one pool for all its questions). None:
    # this run starts its own and stops them when it ends.
    servers: ServerPool | None = None
    # Who asked (a `research serve` token's id): kept in the sessions index (PostgreSQL).
    owner: str = ""
    # A team worker's queued run: its number goes into the new session's meta.json at once, so
    # a worker that dies before the database hears of the session leaves no unmarked folder;
    # and its fence, called before every write into the session folder.
    queue_run: int | None = None
    guard: Callable[[], None] | None = None


class ProgressStreamFailed(UserFacingError):
    """The progress stream could not be written (`2>/dev/full`, `2>&1 | head -c1`): the run
    stops there and its session is kept as "interrupted", resumable, exit 1."""

    exit_code = EXIT_FAILURE

    def __init__(self, error: OSError) -> None:
        super().__init__("output.stderr_failed", reason=error.strerror or type(error).__name__, session_id="")


def _guarded(progress: ProgressCallback) -> ProgressCallback:
    """``progress`` whose write failures are told apart from every other OSError."""

    def report(event: ProgressEvent) -> None:
        try:
            progress(event)
        except OSError as exc:
            raise ProgressStreamFailed(exc) from None
        except SystemExit:  # Rich's answer to a broken pipe: it raises SystemExit(1) from print()
            raise ProgressStreamFailed(BrokenPipeError(errno.EPIPE, os.strerror(errno.EPIPE))) from None

    return report


async def run_research(
    request: ResearchRequest, settings: Settings, progress: ProgressCallback
) -> RunOutcome:
    progress = _guarded(progress)
    history = HistoryManager(settings.sessions_dir, guard=request.guard)
    kept_changes: list[str] = []
    session: SessionInfo | None
    record: SessionRecord | None
    if request.resume:
        session, record = _resumable(history, request.resume)
        question = record.question
        lang: Language = "ja" if record.language == "ja" else "en"  # _resumable made it one of the two
        # The options it started with (engine, documents, model, budgets …), not this command's.
        settings, kept_changes = restored(settings, record.run_options)
        if kept_changes:
            from research.modules.core.settings import check_run_settings

            check_run_settings(settings)  # a documents folder gone since is said now, exit 2
    else:
        # The one check of what a caller may set (graph_input): the CLI, the REPL and the tools come here.
        given = read_caller_input({"question": request.question, "language": settings.language,
                                   "depth": settings.depth}, default_depth=settings.depth)
        question, lang = given.question, given.language
        session, record = None, None
    # a resumed run keeps the depth it started with
    depth = record.depth if record is not None and record.depth else settings.depth
    options = recorded(settings)
    settings = settings_for_depth(settings, depth)

    # Ollama is asked first (one local HTTP call): a missing model or a stopped Ollama is
    # then said before any server or import thread exists. Then the servers boot (a
    # second or more each) while this process plans; the first step needs neither server,
    # nor the graph: LangGraph is imported in a thread meanwhile. Measured on two cores,
    # servers spawned before the check only took CPU from the way to the first step. (The
    # console script's sandboxed parser is the exception: spawned before the script imports
    # the MCP SDK, it is ready when the first page is; cli/early_servers.py.)
    pool = request.servers or ServerPool()
    announce_servers = not pool.started
    graph_ready = asyncio.get_running_loop().create_future()
    heavy: "asyncio.Future[Any]" = graph_ready
    try:
        from research.modules.llm.model_manager import ModelManager

        await ensure_index(settings)  # a team's database that does not answer: said before any session folder
        model = ModelManager(settings)
        model_name = await model.ensure_ready()  # exit 3 before any session folder is made
        await pool.start(settings, after=graph_ready)
        heavy = _in_daemon_thread(_import_graph_modules)

        def graph_imported(done: asyncio.Future[Any]) -> None:
            if not graph_ready.done():
                graph_ready.set_result(None)

        heavy.add_done_callback(graph_imported)
        if session is None:
            session = history.create(question=question, language=lang, model=model_name,
                                     parent=request.parent_session)
            history.update_meta(session.session_id, depth=depth, run_options=options,
                                **({"queue_run": request.queue_run} if request.queue_run else {}))
        # One writer per session folder: a second `--resume` of a live run is refused. The
        # kernel drops the lock when its process dies, so a kill -9 never leaves it stale.
        if announce_servers:  # said once Ollama answered and the folder exists: their errors stay one line
            try:
                progress(ServersStarting(lang))  # they boot in the background; the first steps go on
            except ProgressStreamFailed as failed:
                failed.params["session_id"] = session.session_id
                history.update_meta(session.session_id, status=SessionStatus.INTERRUPTED, finished_at=now_iso())
                raise
        with history.lock(session.session_id):
            if request.resume:
                history.remove_stale_temp_files(session.session_id)  # left by a process killed mid-write
            try:
                steps_progress = progress if request.servers is not None else _servers_released_at_report(progress, pool)
                return await _run_locked(RunContext(request, settings, steps_progress, history, session, model, model_name,
                                                    question, lang, depth, pool, heavy, tuple(kept_changes)))
            finally:
                # The sessions index (PostgreSQL only) gets the outcome meta.json now holds.
                await asyncio.shield(record_session(settings, history, session.session_id, request.owner))
    finally:
        if request.servers is None:
            # First: a server start still waiting to import the SDK is cancelled before
            # that import begins (a thread, which nothing could stop or skip at exit).
            await pool.aclose()
        if not graph_ready.done():
            graph_ready.set_result(None)  # a kept (REPL) server waiting to import the SDK goes on
        if not heavy.done():
            heavy.cancel()
        elif not heavy.cancelled():
            heavy.exception()  # retrieved; a failed import was raised where it was awaited


def _servers_released_at_report(progress: ProgressCallback, pool: ServerPool) -> ProgressCallback:
    """``progress`` that lets the run's own servers go when its report step begins: no step
    after it searches or parses, and the report (fonts, the PDF) is when this process holds
    most memory. A follow-up search loops back before the report, never after it."""

    def report(event: ProgressEvent) -> None:
        if isinstance(event, NodeStarted) and event.node == REPORT:
            pool.release()
        progress(event)

    return report


# Sandboxes that do not give the full isolation (docs/sandbox.md): a run under one says so.
WEAK_SANDBOXES = ("unshare", "none")


def _in_daemon_thread(work: Callable[[], Any]) -> "asyncio.Future[Any]":
    """``work()`` in a daemon thread of its own; its result (or error) in the future returned.

    Not ``asyncio.to_thread``: ``asyncio.run`` ends by joining the default executor's threads, so
    a run stopped early (Ctrl-C, SIGTERM, an error before the graph) would wait at exit for an
    import it no longer needs: seconds of LangGraph's import on a busy machine. Nothing else
    waits for this thread; a process that ends meanwhile ends it."""
    loop = asyncio.get_running_loop()
    future: asyncio.Future[Any] = loop.create_future()

    def settle(result: Any, error: BaseException | None) -> None:
        if future.done():  # cancelled: the run ended without it
            return
        if error is not None:
            future.set_exception(error)
        else:
            future.set_result(result)

    def run() -> None:
        try:
            outcome: tuple[Any, BaseException | None] = (work(), None)
        except BaseException as error:  # noqa: BLE001 - handed to whoever awaits the future
            outcome = (None, error)
        try:
            loop.call_soon_threadsafe(settle, *outcome)
        except RuntimeError:  # the loop is closed: nobody is waiting any more
            pass

    threading.Thread(target=run, name="research-graph-import", daemon=True).start()
    return future


def _import_graph_modules() -> Any:
    """The graph (LangGraph and every node after the first) and the checkpointer: about a
    second of imports, done in a thread while the first step (planning) runs without them."""
    importlib.import_module("aiosqlite")
    importlib.import_module("langgraph.checkpoint.sqlite.aio")
    importlib.import_module("research.orchestrator.checkpoints")
    return importlib.import_module("research.orchestrator.graph")


@dataclass(frozen=True)
class RunContext:
    """What one run of one session works with, fixed once its session is known."""

    request: ResearchRequest
    settings: Settings  # with the run's depth applied (settings_for_depth)
    progress: ProgressCallback  # guarded: a failed write is ProgressStreamFailed
    history: HistoryManager
    session: SessionInfo
    model: ModelManager
    model_name: str  # what Ollama confirmed it has
    question: str  # cleaned; a resumed session's own
    lang: Language
    depth: Depth
    pool: ServerPool
    heavy: asyncio.Future[Any]  # the graph's modules, imported in a thread meanwhile
    # A resumed run: its options as it started, where this command's differ ("--engine local (searxng)").
    kept_options: tuple[str, ...] = ()

    @property
    def review_plan(self) -> bool:
        """Stop after planning for review: asked for (--review-plan, RESEARCH_REVIEW_PLAN,
        /plan on) and someone there to answer it."""
        return self.settings.review_plan and self.request.reviewer is not None


async def _run_locked(run: RunContext) -> RunOutcome:
    request, progress, history, session, lang = run.request, run.progress, run.history, run.session, run.lang
    history.update_meta(session.session_id, status=SessionStatus.RUNNING)
    history.append_event(session.session_id, "run_start", resume=bool(request.resume))
    await record_session(run.settings, history, session.session_id, request.owner)

    graph_run = _GraphRun(run)
    try:
        # Inside the try: a progress stream that fails here already leaves the session "interrupted".
        progress(SessionStarted(session.session_id, str(session.path), lang))
        if run.kept_options:
            history.append_event(session.session_id, "options_kept", options=list(run.kept_options))
            progress(Message("terminal.resume_options_kept", {"options": ", ".join(run.kept_options)}))
        final = await graph_run.execute()
    except BaseException as exc:
        cancelled = isinstance(exc, (KeyboardInterrupt, asyncio.CancelledError))
        meta = history.read_json(session.session_id, "meta.json", {})
        if cancelled and (graph_run.final is not None or meta.get("status") in FINISHED_STATUSES):
            # The report is complete; only the last checkpoint or the servers' shutdown
            # was cut short. The session stays "done": a signal now must not undo it.
            history.append_event(session.session_id, "shutdown_interrupted", signal=request.stopped_by or "SIGINT")
            if graph_run.final is None:
                return result_from_meta(session, lang, meta, bool(request.resume))
            final = graph_run.final
        else:
            if isinstance(exc, ProgressStreamFailed):  # stopped by the stream, not by a failure of the run
                exc.params["session_id"] = session.session_id
                status = SessionStatus.INTERRUPTED
            else:
                status = (SessionStatus.INTERRUPTED if request.stopped_by else SessionStatus.CANCELLED) if cancelled \
                    else SessionStatus.FAILED
            history.update_meta(session.session_id, status=status, finished_at=now_iso(), error=str(exc)[:500])
            history.append_event(session.session_id, "run_" + status, error=type(exc).__name__,
                                 **({"signal": request.stopped_by} if request.stopped_by else {}))
            if not cancelled and not isinstance(exc, UserFacingError):
                history.write_text(session.session_id, "error.log", traceback.format_exc())
            raise
    history.append_event(session.session_id, "run_end")
    documents = final.get("documents", [])
    read = sum(1 for d in documents if d.status == "ok")
    problems, exit_code = run_problems(final), outcome_exit_code(final)
    sandbox = run.pool.parser.sandbox_name if run.pool.parser is not None else ""
    if sandbox in WEAK_SANDBOXES:  # parsed with less isolation than bwrap or a container gives
        problems.append(RunProblem(kind=ProblemKind.SANDBOX, message=sandbox))
    # The five verdict counts, from the claims: meta.json (sessions list/show) and --json.
    summary = summary_with_states(final.get("verification") or {}) if read else {}
    verification = RunVerification.model_validate(summary) if summary else None
    history.update_meta(session.session_id, problems=problems, exit_code=exit_code,
                        **({"verification": verification} if verification is not None else {}))
    return RunOutcome(
        session_id=session.session_id,
        session_dir=str(session.path),
        language=lang,
        report_md=final.get("report_md", ""),
        report_pdf=final.get("report_pdf", ""),
        sources=read,
        sources_failed=sum(1 for d in documents if d.status == "failed"),
        sources_left_out=sum(1 for d in documents if d.status == "left_out"),
        verification=verification,
        exit_code=exit_code,
        resumed=bool(request.resume),
        answer=final_answer(final, read),
        problems=problems,
        source_list=sources_of(documents),
    )


def final_answer(final: AgentState, read: int) -> str:
    """The checked answer for stdout (`> answer.md`) and MCP hosts, as inert as report.md:
    no escape bytes, no live HTML, remote images or javascript:/file:/data: links. A
    no-evidence draft is the tool's own message: shown as written, never as "checked"."""
    verification = final.get("verification")
    checked = verification.annotated_draft if read and verification is not None else ""
    return safe_markdown(checked or final.get("draft", ""))


def result_from_meta(session: SessionInfo, lang: Language, meta: Mapping[str, Any], resumed: bool) -> RunOutcome:
    """The result of a run whose report step finished but whose graph did not return (here,
    or in a `research serve` worker that died before recording it)."""
    record = SessionRecord.read(meta, session.session_id)
    read = (record.sources if record else None) or 0
    return RunOutcome(
        session_id=session.session_id,
        session_dir=str(session.path),
        language=lang,
        report_md=str(session.path / "report.md"),
        report_pdf=str(session.path / "report.pdf"),
        sources=read,
        sources_failed=(record.sources_failed if record else None) or 0,
        sources_left_out=(record.sources_left_out if record else None) or 0,
        verification=record.verification if record else None,
        exit_code=EXIT_OK if read else ((record.exit_code if record else None) or EXIT_NO_EVIDENCE),
        resumed=resumed,
        problems=(record.problems if record else None) or [],
        source_list=sources_of(read_ledger(session.path)),
    )


def settings_for_depth(settings: Settings, depth: str) -> Settings:
    """quick: one search round, no follow-up loops; deep: one verification loop more."""
    if depth == "quick":
        return settings.model_copy(update={"depth": depth, "max_verification_loops": 0})
    if depth == "deep":
        return settings.model_copy(update={"depth": depth, "max_verification_loops": settings.max_verification_loops + 1})
    return settings.model_copy(update={"depth": depth})


class _GraphRun:
    """The graph's pass over one session. ``final`` holds its final state as soon as it has
    one: a cancel that lands while the checkpointer closes still finds the finished run."""

    def __init__(self, run: RunContext) -> None:
        self.run = run
        self.final: AgentState | None = None

    async def execute(self) -> AgentState:
        from research.nodes.input import understand_question
        from research.orchestrator.steps import bind

        run, progress, session = self.run, self.run.progress, self.run.session
        web_search, parser = run.pool.for_session(session.path)
        deps = WorkflowDependencies(
            settings=run.settings, model=run.model, web_search=web_search, parser=parser, history=run.history,
            progress=progress, measure_judge=True,
        )
        initial: AgentState = {}
        planned: AgentState | None = None
        if not run.request.resume:
            initial = _initial_state(run)
            # A new run plans while LangGraph is still being imported: the input step needs
            # only the model. Its result enters the graph below as that node's write, so the
            # checkpoints, events and progress.md are the same as when the graph runs it. A
            # kill before that write leaves no checkpoint, and --resume starts afresh.
            planned = await bind("input", understand_question, deps)(initial)
        graph_module = await run.heavy
        async with AsyncExitStack() as stack:
            # SQLite in the session folder, or PostgreSQL (RESEARCH_DATABASE_URL); both read
            # checkpoints with an allow-list of the types our graph writes.
            saver = await stack.enter_async_context(open_checkpointer(run.settings, session.path))
            graph = graph_module.build_graph(deps, saver)
            config: RunnableConfig = {
                "configurable": {"thread_id": session.session_id},
                # Each verification loop revisits four nodes; leave room for all of them.
                "recursion_limit": 14 + 5 * (run.settings.max_verification_loops + 1),
            }
            if planned is not None:
                # Written as the input node's output (its reducers applied, its edges taken).
                await graph.aupdate_state(config, {**initial, **planned}, as_node="input")
                start: AgentState | None = None
            else:
                snapshot = await graph.aget_state(config)
                if snapshot.values and snapshot.next:
                    progress(Resuming(session.session_id, tuple(snapshot.next)))
                    _check_identity(snapshot.values, session)
                    start = None
                else:  # a resumed session that was stopped before its first step ended
                    start = _initial_state(run)
            # "sync": a step's checkpoint is on disk before the next step starts, so a
            # kill -9 anywhere loses at most the step that was running.
            final = await graph.ainvoke(start, config, durability="sync")
            self.final = await self._answer_reviews(graph, config, final)
            return self.final

    async def _answer_reviews(self, graph: Any, config: RunnableConfig, final: AgentState) -> AgentState:
        """While the graph is paused for a plan review, ask the reviewer and resume it.

        The pause lives in the checkpoint: a process that stops here leaves a session that
        ``--resume`` brings back to this same question.
        """
        from langgraph.types import Command

        request, history, progress = self.run.request, self.run.history, self.run.progress
        session_id = self.run.session.session_id
        while True:
            snapshot = await graph.aget_state(config)
            pending = [i for task in snapshot.tasks for i in task.interrupts]
            if not pending:
                return final
            payload: PlanReviewRequest = pending[0].value
            history.append_event(session_id, "plan_review_shown", sub_questions=len(payload.get("plan", [])))
            planned = [sub["question"] for sub in payload.get("plan", [])]
            answer: list[str] | None
            if request.reviewer is None:
                progress(Message("plan.review_skipped_resume"))
                answer = planned
            else:
                answer = request.reviewer(payload)
            if answer is None:  # Command(resume=None) is not a valid resume value in LangGraph
                answer = planned
            final = await graph.ainvoke(Command(resume=answer), config, durability="sync")


def _initial_state(run: RunContext) -> AgentState:
    session = run.session
    seed = _seed_from_parent(run.history, run.request.parent_session)
    if seed:
        run.history.update_meta(session.session_id, conversation=[turn.model_dump() for turn in seed["conversation"]])
    return {
        **seed,  # checked by check_state_values: the state's own models
        "question": run.question,
        "language": run.lang,
        "model": run.model_name,
        "session_id": session.session_id,
        "session_dir": str(session.path),
        "parent_session": run.request.parent_session,
        "depth": run.depth,
        "review_plan": run.review_plan,
        "errors": [],
    }


def _seed_from_parent(history: HistoryManager, parent: str | None) -> AgentState:
    """A follow-up question starts from its parent's sources and knows what was asked before."""
    if not parent:
        return {}
    from research.modules.text.injection import screen_injection
    from research.orchestrator.checkpoints import check_state_values

    session = history.resolve(parent)
    history.check_folder(session)  # its files are read: none may be a link or a FIFO
    meta = history.read_json(session.session_id, "meta.json", {})
    documents = read_ledger(session.path)
    # The parent's folder may be someone else's: its draft goes into the prompt, so it is screened like a page.
    answer = screen_injection((history.read_text(session.session_id, "llm_draft.md") or "")[:1500])[0]
    earlier = meta.get("conversation") if isinstance(meta.get("conversation"), list) else []
    question = meta.get("question") if isinstance(meta.get("question"), str) else ""
    conversation = earlier + [{"question": question[:MAX_QUESTION_CHARS], "answer": answer}]
    seed = {
        "search_results": history.read_json(session.session_id, "search_results.json", [], expect=list),
        "documents": documents,
        "conversation": conversation[-3:],
    }
    # The parent's files are data like a checkpoint: the same models, paths only under the sessions.
    return check_state_values(seed, session.path, session.session_id, question_limit=MAX_QUESTION_CHARS,
                              whole=False)


def _resumable(history: HistoryManager, ref: str) -> tuple[SessionInfo, SessionRecord]:
    """The session to resume and its meta.json, once its folder has been judged as data
    from someone else: no linked or special files, a question a new run would accept, a
    checkpoint of our graph's shape whose paths stay inside the sessions (usage error else)."""
    from research.orchestrator.checkpoints import check_state_values, verify_checkpoint_file

    session = history.resolve(ref)
    history.check_folder(session)
    record = SessionRecord.read(history.read_json(session.session_id, "meta.json", {}), session.session_id)
    if record is None or not record.question.strip():
        raise UsageError("usage.unknown_session", session_id=ref, sessions_dir=str(history.root))
    if record.status in FINISHED_STATUSES:
        raise UsageError(
            "usage.session_finished", session_id=session.session_id, report=str(session.path / "report.pdf")
        )
    # The same limits as a new question: a 6 MB question in meta.json never reaches the model.
    question = clean_question(record.question)
    language = record.language if record.language in ("ja", "en") else resolve_language("auto", question)
    record = record.model_copy(update={"question": question, "language": language})

    known: set[str] = set()

    def check_values(values: StoredValues, whole: bool) -> None:
        check_state_values(values, session.path, session.session_id, question_limit=MAX_QUESTION_CHARS, whole=whole,
                           known=known)

    # Before Ollama, the servers or anything else: a tampered checkpoint stops here.
    verify_checkpoint_file(session.path / "checkpoints.sqlite", check_values=check_values)
    return session, record


def _check_identity(values: StoredValues, session: SessionInfo) -> None:
    """A checkpoint copied in from another session would write into the wrong folder;
    one that does not say whose it is is refused too (dropping the keys is no way past)."""
    from pathlib import Path

    found, folder = values.get("session_id"), values.get("session_dir")
    if found != session.session_id or not isinstance(folder, str) or Path(folder).resolve() != session.path.resolve():
        from research.modules.text.sanitize import shorten

        raise UsageError("session_folder.checkpoint_foreign", found=shorten(str(found)))

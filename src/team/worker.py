"""A `research serve` worker: a Procrastinate worker that runs queued research runs, one at a time.

Each run is an ordinary ``run_research`` with the PostgreSQL checkpointer, so a run a
dead worker left behind is resumed (``--resume`` semantics) by whichever worker gets its
job next: finished steps are not run again. Procrastinate claims jobs, beats the
worker's heartbeat and, through ``recover_stalled`` here, hands the jobs of a silent
worker to the others. Every write of a run is fenced (team/queue.py): a worker that lost its
run stops at its next write.

The database going away never leaves a worker idle: the Procrastinate worker fails, the
run in hand stops (its fenced heartbeat fails), and the worker connects again with
backoff until the database answers. SIGTERM/SIGINT: the current run is stopped where it
is, its session kept, and handed back to the queue for another worker.

A worker keeps its web-search and parser servers from one run to the next (``KeptServers``,
started by its first run): each run after the first starts no process and does not wait for
the servers to boot. A worker left without a run for ``SERVERS_IDLE_SECONDS`` stops them
(about 160 MB held for nothing), and so does a worker that ends.
"""

from __future__ import annotations

import asyncio
import json
import logging
import os
import shutil
import signal
import socket
import sys
import time
from typing import Any

import psycopg

from research.modules.core.errors import UserFacingError
from research.modules.core.i18n import t
from research.modules.core.language import Language
from research.modules.core.language import choose_language
from research.modules.core.logs import said
from research.modules.core.settings import Settings
from research.team import queue as run_queue
from research.team.database import CURRENT_FENCE, DatabaseUnreachable, Fenced, RunStatus, ensure_schema, ping
from research.team.queue import ClaimedRun, HandBack, Lease
from research.orchestrator.runner import ResearchRequest, result_from_meta, run_research
from research.modules.clients.zygote import discard_standby_after
from research.orchestrator.server_pool import SERVERS_IDLE_SECONDS, KeptServers, ServerLease
from research.state.run_record import RunOutcome
from research.state.progress_events import ProgressEvent, SessionStarted, Token, to_wire
from research.state.session_folder import FINISHED_STATUSES, SESSION_LOCKED, HistoryManager, SessionInfo, lock_held

log = logging.getLogger(__name__)

DEFAULT_LEASE_SECONDS = 15.0  # a worker silent this long has its run handed to another
DEFAULT_HEARTBEAT_SECONDS = 2.0
POLL_SECONDS = 1.0  # between job polls; a new job also wakes the worker at once (LISTEN/NOTIFY)
RECONNECT_FIRST, RECONNECT_MAX = 0.5, 2.0  # backoff while the database does not answer
STOP_SECONDS = 30.0  # a run asked to stop gets this long to hand itself back
DRAIN_SECONDS = 10.0  # the last progress events get this long to reach the database
LOCKED_PAUSE_SECONDS = 2.0  # before a run whose session is still held goes back to the queue


def worker_name() -> str:
    return f"{socket.gethostname()}:{os.getpid()}"


def _both_languages(exc: BaseException) -> str:
    """A failure as the client will show it, in either language (JSON)."""
    if isinstance(exc, UserFacingError):
        return json.dumps({lang: exc.message(lang) for lang in ("en", "ja")}, ensure_ascii=False)
    text = f"{type(exc).__name__}: {exc}"[:500]
    return json.dumps({"en": text, "ja": text}, ensure_ascii=False)


def _database_error(exc: BaseException) -> bool:
    """A failure of the database connection (not of the research itself)."""
    from procrastinate.exceptions import ConnectorException
    from psycopg_pool import PoolTimeout

    return isinstance(exc, (psycopg.OperationalError, psycopg.InterfaceError, DatabaseUnreachable,
                            ConnectorException, PoolTimeout, ConnectionError))


def _orphan_session(history: HistoryManager, run_id: int) -> str | None:
    """The session a previous claim of this run made but could not record (the database
    went away between the two): the newest folder whose meta.json names the run."""
    found: list[tuple[str, str]] = []
    for meta_path in history.root.glob("session_*/meta.json"):
        try:
            meta = json.loads(meta_path.read_text("utf-8"))
        except (OSError, ValueError):
            continue
        if isinstance(meta, dict) and meta.get("queue_run") == run_id:
            found.append((str(meta.get("created_at") or ""), meta_path.parent.name.removeprefix("session_")))
    return max(found)[1] if found else None


class ClaimUnconfirmed(Exception):
    """The database could not confirm this worker's claim on the run (it went away): the run
    writes nothing more into its session folder, and the worker hands it back."""


class _RunWatch:
    """One claimed run while it runs: its progress events on their way to the database, and
    why this worker may no longer write for it (``lost``), once the database refused its claim
    (another worker took the run) or could not confirm it."""

    def __init__(self, worker: "Worker", claimed: ClaimedRun) -> None:
        self.worker = worker
        self.claimed = claimed
        self.events: asyncio.Queue[ProgressEvent] = asyncio.Queue()
        self.lost: list[BaseException] = []
        self.run: asyncio.Future[Any] | None = None

    def may_write(self) -> None:
        """The session folder's fence, checked before each file write: once the database has
        refused this worker's claim or could not confirm it, nothing more is written into the
        folder. (A clock-kept lease here made runs flap between workers after a database
        restart; the database's verdict comes within a heartbeat.)"""
        if self.lost:
            raise self.lost[0] if isinstance(self.lost[0], Fenced) else ClaimUnconfirmed(str(self.lost[0]))

    def progress(self, event: ProgressEvent) -> None:
        if not isinstance(event, Token):  # the streamed answer is far too chatty for the table
            self.events.put_nowait(event)

    def lose(self, exc: BaseException) -> None:
        if not self.lost:
            self.lost.append(exc)
        if self.run is not None:
            self.run.cancel()

    async def write_events(self) -> None:
        """Never dies on a failed write: every event is marked done, so the drain ends."""
        run_id = self.claimed.run_id
        while True:
            event = await self.events.get()
            try:
                if not self.lost:
                    if isinstance(event, SessionStarted):
                        await self.worker.lease.set_session(run_id, event.session_id)
                    await self.worker.lease.add_event(run_id, *to_wire(event))
            except Exception as exc:  # noqa: BLE001 - the database or the fence: the run stops
                self.lose(exc)
            finally:
                self.events.task_done()

    async def beat(self) -> None:
        while True:
            await asyncio.sleep(self.worker.heartbeat_seconds)
            try:
                ours = await self.worker.lease.heartbeat(self.claimed.run_id)
            except Exception as exc:  # noqa: BLE001 - the database is gone for us
                self.lose(exc)
                return
            if not ours:
                self.lose(Fenced(self.claimed.run_id, self.claimed.claims))
                return


class Worker:
    def __init__(self, settings: Settings, *, name: str | None = None, lang: Language | None = None,
                 lease_seconds: float = DEFAULT_LEASE_SECONDS, heartbeat_seconds: float = DEFAULT_HEARTBEAT_SECONDS):
        self.settings = settings
        self.url = settings.database_url
        self.name = name or worker_name()
        self.lease_seconds = lease_seconds
        self.heartbeat_seconds = heartbeat_seconds
        self.lang = choose_language(lang)  # the operator's: `--lang`, else the locale (its start line)
        self.lease: Any = None  # the run in hand's fenced writes (run_queue.Lease)
        self.stopping = asyncio.Event()
        self.runs_done = 0
        self.max_runs: int | None = None
        self._enough = asyncio.Event()  # max_runs reached
        # Kept between runs (a team's caller cannot change the server settings, so runs
        # share them unless one left them unfit).
        self.servers = KeptServers()

    def say(self, key: str, level: int = logging.WARNING, **params: Any) -> None:
        """One line for the operator (the standard log: stderr, RESEARCH_LOG_LEVEL), in the
        language the log was configured with (research serve's --lang, else the locale)."""
        log.log(level, said("worker.line", worker=self.name, line=said(key, **params)))

    async def serve(self, max_runs: int | None = None) -> None:
        """Run jobs until stopped (or ``max_runs`` runs are done), reconnecting whenever the
        database goes away: back off, try again, never sit idle with no connection."""
        self.max_runs = max_runs
        try:
            await self._serve_until_stopped()
        finally:
            await self.servers.aclose()

    async def _serve_until_stopped(self) -> None:
        delay = RECONNECT_FIRST
        while not self.stopping.is_set() and not self._enough.is_set():
            began = time.monotonic()
            try:
                # Asked directly first, on our own short backoff: the queue's connection pool,
                # opened while the database is still away, backs off on its own and doubles
                # each time, so a worker that opened it during an outage claimed nothing for
                # up to 30 s after the database came back.
                await ping(self.url)
                await ensure_schema(self.url)
                app = run_queue.make_app(self.url, self.run_job)
                async with app.open_async():
                    await self._work(app)
            except Exception as exc:  # noqa: BLE001 - any failure here is a reason to reconnect, said in one line
                self.say("worker.reconnecting", reason=exc.message(self.lang) if isinstance(exc, UserFacingError)
                         else f"{type(exc).__name__}: {exc}")
            if self.stopping.is_set() or self._enough.is_set():
                break
            if time.monotonic() - began > 30:
                delay = RECONNECT_FIRST  # it worked for a while: this is a new outage
            try:
                await asyncio.wait_for(self.stopping.wait(), delay)
            except asyncio.TimeoutError:
                pass
            delay = min(delay * 2, RECONNECT_MAX)

    async def _work(self, app: Any) -> None:
        """One connected spell: Procrastinate's worker plus the stalled-job recovery, until
        either fails (the database went away) or we are asked to stop."""
        from procrastinate.worker import Worker as QueueWorker

        app.perform_import_paths()  # what run_worker_async does first; the worker is built here to watch its id
        queue_worker = QueueWorker(
            app=app, queues=[run_queue.QUEUE], name=self.name, concurrency=1, install_signal_handlers=False,
            fetch_job_polling_interval=POLL_SECONDS, abort_job_polling_interval=self.heartbeat_seconds,
            update_heartbeat_interval=self.heartbeat_seconds, stalled_worker_timeout=self.lease_seconds,
            shutdown_graceful_timeout=STOP_SECONDS)
        worker = asyncio.ensure_future(queue_worker.run())  # type: ignore[no-untyped-call]  # procrastinate's, unannotated
        recover = asyncio.ensure_future(self._recover(app, queue_worker))
        stop = asyncio.ensure_future(self.stopping.wait())
        enough = asyncio.ensure_future(self._enough.wait())
        try:
            await asyncio.wait({worker, recover, stop, enough}, return_when=asyncio.FIRST_COMPLETED)
        finally:
            for task in (recover, stop, enough):
                task.cancel()
            if not worker.done():
                # Procrastinate's graceful stop: no new job, the one in hand finishes (a stopping
                # run hands itself back first), the worker unregisters.
                worker.cancel()
            try:
                await worker
            except asyncio.CancelledError:
                pass
        if recover.done() and not recover.cancelled() and recover.exception() is not None:
            raise recover.exception()  # type: ignore[misc]

    async def _recover(self, app: Any, queue_worker: Any) -> None:
        while True:
            await asyncio.sleep(self.heartbeat_seconds)
            if queue_worker.worker_id is not None:
                # Procrastinate's own heartbeat task can end after a database outage without
                # stopping its worker (its monitor had already returned), which goes on
                # fetching and running jobs that every other worker then sees as stalled and
                # takes over: after a restart that was 1 run in 3 under load, failed on the
                # session's lock. This beat, beside it, lives exactly as long as this spell.
                await app.job_manager.update_heartbeat(queue_worker.worker_id)
            retried = await run_queue.recover_stalled(app, self.lease_seconds)
            requeued = await run_queue.reconcile(app, self.url, self.lease_seconds)
            if retried or requeued:
                self.say("worker.handed_back_silent", jobs=retried, runs=requeued)

    async def run_job(self, run_id: int, context: Any = None) -> None:
        """Procrastinate's task: claim the run (fence + 1) and run it."""
        claimed = await run_queue.claim(self.url, run_id, self.name)
        if claimed is None:
            return  # finished or cancelled meanwhile: nothing to do
        self.say("worker.claimed", logging.INFO, run_id=run_id, claims=claimed.claims)
        began = time.monotonic()
        self.lease = await Lease(self.url, self.name).open(claimed)
        try:
            await self.run_one(claimed)
        finally:
            try:
                await self.lease.close()
            finally:
                self.lease = None
                self.runs_done += 1
                self.say("worker.left_run", logging.INFO, run_id=run_id, seconds=f"{time.monotonic() - began:.1f}")
                if self.max_runs is not None and self.runs_done >= self.max_runs:
                    self._enough.set()

    async def run_one(self, claimed: ClaimedRun) -> None:
        fence = CURRENT_FENCE.set(getattr(self.lease, "fence", None))
        try:
            # The queued run's language is one of its settings, like its depth and budgets.
            settings = self.settings.model_copy(update={**claimed.request.overrides, "language": claimed.request.lang})
            async with self.servers.lease(settings) as servers:
                await self._run_one(claimed, settings, servers)
        finally:
            CURRENT_FENCE.reset(fence)

    async def _run_one(self, claimed: ClaimedRun, settings: Settings, servers: ServerLease) -> None:
        history = HistoryManager(settings.sessions_dir)
        session_id, finished = await self._session_of(claimed, history)
        if finished:
            return  # by an earlier claim
        watch = _RunWatch(self, claimed)
        research_request = ResearchRequest(
            question=claimed.request.question, resume=session_id or None, owner=claimed.owner,
            parent_session=claimed.request.parent,  # a follow-up in a remote REPL conversation
            queue_run=claimed.run_id, guard=watch.may_write, servers=servers.pool)
        run = watch.run = asyncio.ensure_future(run_research(research_request, settings, watch.progress))
        await self._watch(run, watch)
        await self._settle(claimed, run, watch.lost, history, servers)

    async def _session_of(self, claimed: ClaimedRun, history: HistoryManager) -> tuple[str, bool]:
        """The run's session ("" when it has none yet), and whether an earlier claim finished it."""
        session_id = claimed.session_id
        if not session_id and claimed.claims > 1:
            # An earlier claim may have made the session and lost the database before saying so.
            session_id = _orphan_session(history, claimed.run_id)
            if session_id:
                await self.lease.set_session(claimed.run_id, session_id)
        if session_id:
            meta = history.read_json(session_id, "meta.json", {}) or {}
            if meta.get("status") in FINISHED_STATUSES:
                # The report was written but the worker died before saying so: nothing to run again.
                info = SessionInfo(session_id, history.path(session_id))
                await self.lease.finish(claimed.run_id, RunStatus.DONE,
                                        result_from_meta(info, meta.get("language", ""), meta, resumed=True))
                return session_id, True
        return session_id or "", False

    async def _watch(self, run: asyncio.Future[Any], watch: "_RunWatch") -> None:
        """Until the run ends, this worker is asked to stop or it loses the run; then its last
        progress events are written."""
        writer = asyncio.ensure_future(watch.write_events())
        beating = asyncio.ensure_future(watch.beat())
        stop = asyncio.ensure_future(self.stopping.wait())
        try:
            try:
                # The beat ending means the run was lost: then the run is not waited for
                # beyond STOP_SECONDS, even if it does not answer its cancellation.
                await asyncio.wait({run, stop, beating}, return_when=asyncio.FIRST_COMPLETED)
            except asyncio.CancelledError:
                # Procrastinate cancels a job past its shutdown grace, or one its owner aborted.
                run.cancel()
                await asyncio.wait({run}, timeout=STOP_SECONDS)
                raise  # the servers are replaced: the run may have left a call in flight (see _settle)
            if not run.done():  # stopped or lost: the session is kept and the run goes back in the queue
                run.cancel()
                await asyncio.wait({run}, timeout=STOP_SECONDS)
                if not run.done():
                    self.say("worker.left_behind", run_id=watch.claimed.run_id, seconds=f"{STOP_SECONDS:.0f}")
            try:
                await asyncio.wait_for(watch.events.join(), DRAIN_SECONDS)
            except asyncio.TimeoutError:
                watch.lose(TimeoutError("progress events could not be written"))
        finally:
            for task in (writer, beating, stop):
                task.cancel()

    async def _settle(self, claimed: ClaimedRun, run: asyncio.Future[Any], lost: list[BaseException],
                      history: HistoryManager, servers: ServerLease) -> None:
        """What the queue is told of a run that ended, stopped or was lost."""
        failure = None if run.cancelled() or not run.done() else run.exception()
        if run.cancelled() or not run.done() or lost:
            servers.spoil()  # a run stopped midway may have left a call in flight: the next gets a fresh pair
        if isinstance(failure, Fenced) or any(isinstance(exc, Fenced) for exc in lost):
            return  # the run is another worker's (or cancelled): nothing of ours may be written
        if lost or (failure is not None and _database_error(failure)):
            await self._hand_back(claimed)
        if run.cancelled() or not run.done() or isinstance(failure, (asyncio.CancelledError, KeyboardInterrupt)):
            await self._hand_back(claimed)
        elif isinstance(failure, UserFacingError) and failure.key == SESSION_LOCKED and claimed.claims > 1:
            # The session's folder is still held by the claim before this one, fenced out but
            # not yet stopped (it stops at its next write): not a failure of the run. It goes
            # back to the queue after a pause, for whichever worker is free then.
            self.say("worker.session_held", run_id=claimed.run_id)
            await asyncio.sleep(LOCKED_PAUSE_SECONDS)
            await self._hand_back(claimed)
        elif failure is not None:
            await self._finish(claimed, RunStatus.FAILED, error=_both_languages(failure))
        else:
            result = run.result()
            await self._finish(claimed, RunStatus.DONE, result)
            await self._remove_orphans(history, claimed.run_id, result.session_id)

    async def _remove_orphans(self, history: HistoryManager, run_id: int, kept: str) -> None:
        """Folders an earlier claim of this run made and never recorded (the database went
        away between the two, and the claim after it did not see the folder yet): the run
        is finished in ``kept``, so they are removed, with any index row they got."""
        for meta_path in history.root.glob("session_*/meta.json"):
            folder = meta_path.parent
            session_id = folder.name.removeprefix("session_")
            if session_id == kept or lock_held(folder):
                continue
            try:
                meta = json.loads(meta_path.read_text("utf-8"))
            except (OSError, ValueError):
                continue
            if not isinstance(meta, dict) or meta.get("queue_run") != run_id:
                continue
            shutil.rmtree(folder, ignore_errors=True)
            try:
                await run_queue.forget_session(self.url, session_id, run_id)
            except Exception as exc:  # noqa: BLE001 - the folder is gone; a row left says so in the log
                self.say("worker.index_row_kept", session_id=session_id, reason=type(exc).__name__)
            self.say("worker.removed_unrecorded", session_id=session_id, run_id=run_id)

    async def _finish(self, claimed: ClaimedRun, status: RunStatus, result: RunOutcome | None = None,
                      error: str | None = None) -> None:
        try:
            await self.lease.finish(claimed.run_id, status, result, error)
        except Fenced:
            return
        except Exception as exc:
            if _database_error(exc):
                raise HandBack(str(exc)) from None  # not recorded: the run is done again, from its checkpoints
            raise

    async def _hand_back(self, claimed: ClaimedRun) -> None:
        """Put the run back for whichever worker is free, session kept; Procrastinate
        retries the job at once (HandBack). Without a database the job is the stalled-job
        recovery's to hand back."""
        try:
            await self.lease.finish(claimed.run_id, RunStatus.QUEUED)
        except Fenced:
            return
        except Exception as exc:  # noqa: BLE001 - the database is gone: recovery hands it back later
            self.say("worker.hand_back_failed", run_id=claimed.run_id, reason=f"{type(exc).__name__}: {exc}")
        raise HandBack(f"run {claimed.run_id} handed back")


async def _main(settings: Settings, lease_seconds: float, heartbeat_seconds: float, lang: Language | None) -> None:
    worker = Worker(settings, lang=lang, lease_seconds=lease_seconds, heartbeat_seconds=heartbeat_seconds)
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(sig, worker.stopping.set)
    # Procrastinate's and the pool's own logs: a lost database is ours to say, in one line.
    for name in ("procrastinate", "psycopg.pool"):
        logging.getLogger(name).setLevel(logging.CRITICAL)

    def unretrieved(loop: asyncio.AbstractEventLoop, context: dict[str, Any]) -> None:
        # A job whose status Procrastinate could not write (the database went away): one
        # line; reconcile() hands the run back once the lease has passed.
        error = context.get("exception")
        worker.say("worker.unhandled", message=context.get("message", "error"),
                   reason=f"{type(error).__name__}: {str(error)[:200]}" if error else "")

    loop.set_exception_handler(unretrieved)
    # The web-search server forked at the worker's start (cli/early_servers.py) waits for the first
    # run no longer than a kept pair of servers waits for the next.
    discard_standby_after(loop, SERVERS_IDLE_SECONDS)
    sys.stderr.write(t("serve.worker_started", worker.lang, worker=worker.name) + "\n")
    sys.stderr.flush()
    await worker.serve()


def run_worker(settings: Settings, lease_seconds: float = DEFAULT_LEASE_SECONDS,
               heartbeat_seconds: float = DEFAULT_HEARTBEAT_SECONDS, lang: Language | None = None) -> None:
    asyncio.run(_main(settings, lease_seconds, heartbeat_seconds, lang))

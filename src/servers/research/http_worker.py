"""A `research serve` worker: takes queued runs from PostgreSQL one at a time and runs them.

Each run is an ordinary ``run_research`` with the PostgreSQL checkpointer, so a run a
dead worker left behind is resumed (``--resume`` semantics) by whichever worker claims
it next: finished steps are not run again. While it works, the worker beats the run's
heartbeat; its progress events go to ``research_run_events``, where the HTTP server
reads them for the client. SIGTERM/SIGINT: the current run is stopped, its session kept,
and the run put back in the queue for another worker.
"""

from __future__ import annotations

import asyncio
import json
import os
import signal
import socket
import sys
from dataclasses import asdict
from typing import Any

import psycopg

from research.modules.core.errors import UserFacingError
from research.modules.core.settings import Settings
from research.orchestrator.run_queue import ClaimedRun, Lease, RunStatus
from research.orchestrator.session_store import DatabaseUnreachable
from research.orchestrator.runner import ResearchRequest, result_from_meta, run_research
from research.state.progress_events import ProgressEvent, SessionStarted, Token, to_wire
from research.state.session_folder import FINISHED_STATUSES, HistoryManager, SessionInfo

DEFAULT_LEASE_SECONDS = 15.0
DEFAULT_HEARTBEAT_SECONDS = 2.0
POLL_SECONDS = 0.3
RECONNECT_SECONDS = 2.0


def worker_name() -> str:
    return f"{socket.gethostname()}:{os.getpid()}"


def _both_languages(exc: BaseException) -> str:
    """A failure as the client will show it, in either language (JSON)."""
    if isinstance(exc, UserFacingError):
        return json.dumps({lang: exc.message(lang) for lang in ("en", "ja")}, ensure_ascii=False)
    text = f"{type(exc).__name__}: {exc}"[:500]
    return json.dumps({"en": text, "ja": text}, ensure_ascii=False)


class Worker:
    def __init__(self, settings: Settings, *, name: str | None = None,
                 lease_seconds: float = DEFAULT_LEASE_SECONDS, heartbeat_seconds: float = DEFAULT_HEARTBEAT_SECONDS):
        self.settings = settings
        self.name = name or worker_name()
        self.lease = Lease(settings.database_url, self.name, lease_seconds)
        self.heartbeat_seconds = heartbeat_seconds
        self.stopping = asyncio.Event()

    async def serve(self, max_runs: int | None = None) -> None:
        """Claim and run until stopped (or ``max_runs`` runs are done)."""
        done = 0
        try:
            while not self.stopping.is_set() and (max_runs is None or done < max_runs):
                try:
                    if self.lease.connection is None:
                        await self.lease.open()
                    claimed = await self.lease.claim()
                    if claimed is not None:
                        await self.run_one(claimed)
                        done += 1
                        continue
                except (psycopg.OperationalError, DatabaseUnreachable) as exc:
                    # The database went away (restart, network): our lock went with it, so
                    # whatever we held is free for others; start over on a new connection.
                    said = exc.message("en") if isinstance(exc, DatabaseUnreachable) else " ".join(str(exc).split())
                    sys.stderr.write(f"research serve worker {self.name}: {said[:300]}\n")
                    await self.lease.close()
                    await asyncio.sleep(RECONNECT_SECONDS)
                    continue
                try:
                    await asyncio.wait_for(self.stopping.wait(), POLL_SECONDS)
                except asyncio.TimeoutError:
                    pass
        finally:
            await self.lease.close()

    async def run_one(self, claimed: ClaimedRun) -> None:
        request = claimed.request
        # The queued run's language is one of its settings, like its depth and budgets.
        settings = self.settings.model_copy(update={**request.overrides, "language": request.lang})
        history = HistoryManager(settings.sessions_dir)
        session_id = claimed.session_id
        if session_id:
            meta = history.read_json(session_id, "meta.json", {}) or {}
            if meta.get("status") in FINISHED_STATUSES:
                # The report was written but the worker died before saying so: nothing to run again.
                info = SessionInfo(session_id, history.path(session_id))
                await self.lease.finish(claimed.run_id, RunStatus.DONE,
                                        asdict(result_from_meta(info, meta.get("language", ""), meta, resumed=True)))
                return
        research_request = ResearchRequest(
            question=request.question, resume=session_id or None, owner=claimed.owner,
            parent_session=request.parent)  # a follow-up in a remote REPL conversation

        events: asyncio.Queue[ProgressEvent] = asyncio.Queue()

        def progress(event: ProgressEvent) -> None:
            if not isinstance(event, Token):  # the streamed answer is far too chatty for the table
                events.put_nowait(event)

        async def write_events() -> None:
            while True:
                event = await events.get()
                if isinstance(event, SessionStarted):
                    await self.lease.set_session(claimed.run_id, event.session_id)
                await self.lease.add_event(claimed.run_id, *to_wire(event))
                events.task_done()

        run = asyncio.ensure_future(run_research(research_request, settings, progress))
        writer = asyncio.ensure_future(write_events())
        beat = asyncio.ensure_future(self._beat(claimed.run_id, run))
        stop = asyncio.ensure_future(self.stopping.wait())
        try:
            await asyncio.wait({run, stop}, return_when=asyncio.FIRST_COMPLETED)
            if not run.done():  # asked to stop: the session is kept and the run goes back in the queue
                run.cancel()
                await asyncio.wait({run}, timeout=30)
            await events.join()
            failure = None if run.cancelled() or not run.done() else run.exception()
            if run.cancelled() or not run.done() or isinstance(failure, (asyncio.CancelledError, KeyboardInterrupt)):
                # Stopped, or the lease was lost (then the row is another worker's and only
                # our lock is let go): the session is kept for whoever runs it next.
                await self.lease.finish(claimed.run_id, RunStatus.QUEUED)
            elif failure is not None:
                await self.lease.finish(claimed.run_id, RunStatus.FAILED, error=_both_languages(failure))
            else:
                await self.lease.finish(claimed.run_id, RunStatus.DONE, asdict(run.result()))
        finally:
            for task in (writer, beat, stop):
                task.cancel()

    async def _beat(self, run_id: int, run: "asyncio.Future[Any]") -> None:
        while True:
            await asyncio.sleep(self.heartbeat_seconds)
            try:
                ours = await self.lease.heartbeat(run_id)
            except Exception:  # noqa: BLE001 - the database is gone for us: so is our lock
                ours = False
            if not ours:
                # Another worker may take the run (our lock is gone with the connection, or the
                # row is no longer ours): stop at once, well inside the lease it must wait out.
                run.cancel()
                return


async def _main(settings: Settings, lease_seconds: float, heartbeat_seconds: float) -> None:
    worker = Worker(settings, lease_seconds=lease_seconds, heartbeat_seconds=heartbeat_seconds)
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(sig, worker.stopping.set)
    from research.modules.core.i18n import t

    lang = settings.language if settings.language in ("ja", "en") else "en"
    sys.stderr.write(t("serve.worker_started", lang, worker=worker.name) + "\n")
    await worker.serve()


def run_worker(settings: Settings, lease_seconds: float = DEFAULT_LEASE_SECONDS,
               heartbeat_seconds: float = DEFAULT_HEARTBEAT_SECONDS) -> None:
    asyncio.run(_main(settings, lease_seconds, heartbeat_seconds))

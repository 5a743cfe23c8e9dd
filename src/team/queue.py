"""The run queue several workers share in PostgreSQL (``research serve``), on Procrastinate.

Two records per run, one job each:

* ``research_runs``: what a client asked for and what came of it (owner, status, session,
  result). The HTTP server reads only this table; its status is the run's status.
* a Procrastinate job (``procrastinate_jobs``, queue ``research``) that carries the run id.
  Procrastinate does the queue's work: a worker takes a job with ``FOR UPDATE SKIP LOCKED``,
  beats a heartbeat per worker, and a job whose worker stopped beating is handed to
  another (``recover_stalled``); a job handed back (``HandBack``) is retried at once.

Both rows are written in one transaction at submission, so there is never a run without
a job or a job without a run.

Fencing: each time a worker starts a run, ``research_runs.claims`` goes up by one and
that number is the worker's fence. Every write the run makes (its row, its events, its
checkpoints, its sessions-index row, its report files) checks, in the same transaction and
with the run's row held ``FOR SHARE``, that ``claims`` still equals the fence and the run
is still running. A worker that was silent long enough for another to take its run (a
stall, a partition) is refused its next write (``Fenced``) and stops; it cannot overwrite
what the new worker writes.
"""

from __future__ import annotations

import asyncio
import json
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from typing import Any, AsyncIterator

from research.modules.core.run_options import OptionValues
from research.team.database import (
    EventRow,
    Fence,
    Fenced,
    RunRow,
    RunStatus,
    StoredRequest,
    connect,
    conninfo,
    ensure_schema,
)
from research.state.run_record import JsonObject, RunOutcome

# Per-owner transaction locks at submission: (namespace, hashtext(owner)).
LOCK_NAMESPACE = 24
QUEUE = "research"  # the Procrastinate queue of research runs
TASK = "research.run"  # the Procrastinate task name
REPORT_FILES = ("report.md", "report.pdf", "result.json")

WAITING = (RunStatus.QUEUED, RunStatus.RUNNING)  # counted against a token's queue limit
FINAL = (RunStatus.DONE, RunStatus.FAILED, RunStatus.CANCELLED)


@dataclass(frozen=True)
class QueuedRequest:
    """What a client asked for, as the HTTP server queues it and a worker runs it (the row's
    ``request`` column): the run's own settings ride along as overrides."""

    question: str
    lang: str = "auto"  # the answer language, "auto" | "ja" | "en"
    overrides: OptionValues = field(default_factory=dict)  # depth and budgets
    parent: str | None = None  # the session this question follows up (a remote REPL conversation)

    def to_json(self) -> StoredRequest:
        stored = StoredRequest(question=self.question, lang=self.lang, overrides=self.overrides)
        if self.parent:
            stored["parent"] = self.parent
        return stored

    @classmethod
    def from_json(cls, row: StoredRequest) -> "QueuedRequest":
        """A stored request; a key a row lacks takes its default (rows queued before the key existed)."""
        return cls(question=str(row.get("question") or ""), lang=str(row.get("lang") or "auto"),
                   overrides=dict(row.get("overrides") or {}), parent=row.get("parent") or None)


class QueueFull(Exception):
    """The token already has ``limit`` runs queued or running."""

    def __init__(self, waiting: int, limit: int) -> None:
        super().__init__(f"{waiting} runs waiting, limit {limit}")
        self.waiting, self.limit = waiting, limit


class HandBack(Exception):
    """Raised out of a job so that Procrastinate puts it back in the queue at once."""


@dataclass
class ClaimedRun:
    run_id: int
    owner: str
    request: QueuedRequest
    session_id: str | None
    claims: int  # the fence: 1 for the first worker, one more for each claim after


@asynccontextmanager
async def _connection(db: Any) -> AsyncIterator[Any]:
    """``db``: a postgresql:// URL (a connection of its own) or a psycopg pool (a borrowed one)."""
    if isinstance(db, str):
        async with await connect(db) as connection:
            yield connection
    else:
        async with db.connection() as connection:
            yield connection


async def _defer(connection: Any, run_id: int) -> int:
    """A Procrastinate job for the run, through the library's own SQL function."""
    cursor = await connection.execute(
        "SELECT unnest(procrastinate_defer_jobs_v1(ARRAY[ROW(%s, %s, 0, NULL, NULL, %s::jsonb, NULL)"
        "::procrastinate_job_to_defer_v1])) AS id", (QUEUE, TASK, json.dumps({"run_id": run_id})))
    return int((await cursor.fetchone())["id"])


async def submit(db: Any, owner: str, request: QueuedRequest, limit: int, session_id: str | None = None,
                 submission: str | None = None) -> int:
    """Queue a run for ``owner``: its id. Raises ``QueueFull`` at the owner's limit.
    ``session_id``: an unfinished session of the owner's to resume. ``submission``: the
    client's own key for this request; one the owner sent before gets that run's id back and
    queues nothing (a client whose answer was lost asks again without running it twice).

    The count and the insert happen under a per-owner transaction lock, so simultaneous
    submissions cannot all slip under the limit; the run and its job commit together."""
    if isinstance(db, str):
        await ensure_schema(db)
    async with _connection(db) as connection:
        async with connection.transaction():
            await connection.execute("SELECT pg_advisory_xact_lock(%s, hashtext(%s))", (LOCK_NAMESPACE + 1, owner))
            if submission:
                cursor = await connection.execute(
                    "SELECT run_id FROM research_runs WHERE owner = %s AND submission = %s", (owner, submission))
                known = await cursor.fetchone()
                if known is not None:
                    return int(known["run_id"])
            cursor = await connection.execute(
                "SELECT count(*) AS n FROM research_runs WHERE owner = %s AND status = ANY(%s)", (owner, list(WAITING)))
            waiting = (await cursor.fetchone())["n"]
            if waiting >= limit:
                raise QueueFull(waiting, limit)
            cursor = await connection.execute(
                "INSERT INTO research_runs (owner, request, session_id, submission) VALUES (%s, %s, %s, %s) "
                "RETURNING run_id", (owner, json.dumps(request.to_json()), session_id, submission or None))
            run_id = int((await cursor.fetchone())["run_id"])
            job_id = await _defer(connection, run_id)
            await connection.execute("UPDATE research_runs SET job_id = %s WHERE run_id = %s", (job_id, run_id))
            return run_id


async def get_run(db: Any, run_id: int) -> RunRow | None:
    async with _connection(db) as connection:
        cursor = await connection.execute("SELECT * FROM research_runs WHERE run_id = %s", (run_id,))
        row: RunRow | None = await cursor.fetchone()
        return row


async def events_after(db: Any, run_id: int, after: int) -> list[EventRow]:
    async with _connection(db) as connection:
        cursor = await connection.execute(
            "SELECT id, event, payload, worker FROM research_run_events WHERE run_id = %s AND id > %s ORDER BY id",
            (run_id, after))
        return list(await cursor.fetchall())


async def runs_of(db: Any, owner: str, statuses: tuple[str, ...] = WAITING) -> list[RunRow]:
    async with _connection(db) as connection:
        cursor = await connection.execute(
            "SELECT * FROM research_runs WHERE owner = %s AND status = ANY(%s) ORDER BY run_id",
            (owner, list(statuses)))
        return list(await cursor.fetchall())


async def report_files(db: Any, run_id: int) -> dict[str, bytes]:
    """The finished run's files by name (report.md, report.pdf, result.json), from
    PostgreSQL: every process can read them, on any host. Empty if there are none."""
    async with _connection(db) as connection:
        cursor = await connection.execute(
            """SELECT r.name, r.content FROM research_reports r JOIN research_runs q ON q.session_id = r.session_id
               WHERE q.run_id = %s AND q.status = ANY(%s)""", (run_id, [RunStatus.DONE, RunStatus.FAILED]))
        return {row["name"]: bytes(row["content"]) for row in await cursor.fetchall()}


async def cancel(db: Any, run_id: int, owner: str) -> bool:
    """Cancel ``owner``'s run if it has not finished: True if it was cancelled. A waiting
    run never starts; a running one is stopped by its worker within a heartbeat (its next
    fenced write is refused), its session kept as it stands."""
    async with _connection(db) as connection:
        async with connection.transaction():
            cursor = await connection.execute(
                "SELECT status, job_id FROM research_runs WHERE run_id = %s AND owner = %s FOR UPDATE",
                (run_id, owner))
            row = await cursor.fetchone()
            if row is None or row["status"] in FINAL:
                return False
            await connection.execute(
                "UPDATE research_runs SET status = %s, finished_at = clock_timestamp(), worker = NULL "
                "WHERE run_id = %s", (RunStatus.CANCELLED, run_id))
            await connection.execute(
                "INSERT INTO research_run_events (run_id, worker, event, payload) VALUES (%s, '', %s, '{}')",
                (run_id, RunStatus.CANCELLED.value))
            if row["job_id"] is not None:
                # abort=True: a job being worked on is flagged for its worker too (Procrastinate's abort).
                await connection.execute("SELECT procrastinate_cancel_job_v1(%s, true, false)", (row["job_id"],))
            return True


# --- the worker's side ---------------------------------------------------------------------------


def make_app(url: str, run_job: Any) -> Any:
    """A Procrastinate app whose one task runs ``await run_job(run_id, context)``.

    A job ends in one of three ways: it returns (the run is recorded: done, failed or
    cancelled, or it was not ours any more), it raises ``HandBack`` or is cancelled by a
    worker's shutdown (retried at once, by whichever worker is free)."""
    import procrastinate

    app = procrastinate.App(connector=procrastinate.PsycopgConnector(
        conninfo=conninfo(url), min_size=1, max_size=4, timeout=10))

    # procrastinate's overloads take no BaseException in retry_exceptions; its runtime does (a
    # worker's shutdown cancels the job, and the run goes back to the queue).
    @app.task(name=TASK, queue=QUEUE, pass_context=True,  # type: ignore[call-overload, untyped-decorator]
              retry=procrastinate.RetryStrategy(retry_exceptions={HandBack, asyncio.CancelledError}))  # type: ignore[arg-type]
    async def research_run(context: Any, run_id: int) -> None:
        await run_job(int(run_id), context)

    return app


async def recover_stalled(app: Any, seconds_since_heartbeat: float) -> list[int]:
    """Put back the jobs of workers whose heartbeat stopped (a kill -9, a lost host, a
    database restart that cut them off): Procrastinate finds them, we ask it to retry them."""
    retried = []
    for job in await app.job_manager.get_stalled_jobs(queue=QUEUE, seconds_since_heartbeat=seconds_since_heartbeat):
        await app.job_manager.retry_job(job)
        retried.append(job.id)
    return retried


async def reconcile(app: Any, url: str, lease_seconds: float) -> list[int]:
    """Runs the queue would otherwise never hand out again; their ids.

    * A running run that nobody has beaten for ``lease_seconds`` while its job is still
      "doing" under a live worker: the worker lost the database just as it finished or
      handed back the run, so Procrastinate could not record the job's end, and its own
      heartbeat (per worker, not per job) keeps it from the stalled-job lookup. The job is
      retried through Procrastinate; should the old worker still be at it, its fence stops it.
    * A waiting run whose job is over (finished by a worker that had lost it) or missing (a
      row queued before jobs existed): a new job.
    """
    handed = []
    async with _connection(url) as connection:
        async with connection.transaction():
            cursor = await connection.execute(
                """SELECT r.run_id, r.job_id, j.status AS job_status FROM research_runs r
                   LEFT JOIN procrastinate_jobs j ON j.id = r.job_id
                   WHERE (r.status = %s AND (j.id IS NULL OR j.status NOT IN ('todo', 'doing')))
                      OR (r.status = %s AND r.heartbeat_at < clock_timestamp() - make_interval(secs => %s)
                          AND (j.id IS NULL OR j.status <> 'todo')
                          -- a job a worker has just started is being claimed, not lost
                          AND NOT EXISTS (SELECT 1 FROM procrastinate_events e WHERE e.job_id = j.id
                              AND e.type = 'started' AND e.at > clock_timestamp() - make_interval(secs => %s)))
                   FOR UPDATE OF r SKIP LOCKED""",
                (RunStatus.QUEUED, RunStatus.RUNNING, lease_seconds, lease_seconds))
            stuck = []
            for row in await cursor.fetchall():
                if row["job_status"] == "doing":
                    stuck.append(int(row["job_id"]))
                else:
                    job_id = await _defer(connection, row["run_id"])
                    await connection.execute("UPDATE research_runs SET job_id = %s WHERE run_id = %s",
                                             (job_id, row["run_id"]))
                handed.append(int(row["run_id"]))
    for job_id in stuck:
        await app.job_manager.retry_job_by_id_async(job_id=job_id, retry_at=_now())
    return handed


def _now() -> Any:
    from datetime import datetime, timezone

    return datetime.now(timezone.utc)


async def forget_session(url: str, session_id: str, run_id: int) -> None:
    """An unrecorded duplicate session of ``run_id`` (no run points at it): its index row
    and checkpoints go with its folder."""
    async with _connection(url) as connection:
        async with connection.transaction():
            cursor = await connection.execute("SELECT 1 FROM research_runs WHERE session_id = %s", (session_id,))
            if await cursor.fetchone() is not None:
                return  # a run owns it after all
            await connection.execute("DELETE FROM research_sessions WHERE session_id = %s", (session_id,))
            for table in ("checkpoint_writes", "checkpoint_blobs", "checkpoints"):
                await connection.execute(f"DELETE FROM {table} WHERE thread_id = %s", (session_id,))


async def claim(url: str, run_id: int, worker: str) -> ClaimedRun | None:
    """Start working on a run whose job this worker holds: the fence goes up by one. None
    when there is nothing to run (finished, cancelled)."""
    async with _connection(url) as connection:
        async with connection.transaction():
            cursor = await connection.execute(
                """UPDATE research_runs SET status = %s, worker = %s, heartbeat_at = clock_timestamp(),
                       claims = claims + 1, started_at = COALESCE(started_at, clock_timestamp())
                   WHERE run_id = %s AND status = ANY(%s)
                   RETURNING run_id, owner, request, session_id, claims""",
                (RunStatus.RUNNING, worker, run_id, list(WAITING)))
            row = await cursor.fetchone()
            if row is None:
                return None
            await connection.execute(
                "INSERT INTO research_run_events (run_id, worker, event, payload) VALUES (%s, %s, 'claimed', %s)",
                (run_id, worker, json.dumps({"claims": row["claims"]})))
            return ClaimedRun(int(row["run_id"]), row["owner"], QueuedRequest.from_json(row["request"]),
                              row["session_id"], int(row["claims"]))


class Lease:
    """One claimed run's writes, each fenced. A connection of its own, opened per run."""

    def __init__(self, url: str, worker: str) -> None:
        self.url, self.worker = url, worker
        self.connection: Any = None
        self.fence: Fence | None = None
        self.owner = ""
        # The heartbeat and the event writer share the connection: one transaction at a time.
        self._lock = asyncio.Lock()

    async def open(self, claimed: ClaimedRun) -> "Lease":
        self.fence = Fence(self.url, claimed.run_id, claimed.claims)
        self.owner = claimed.owner
        self.connection = await connect(self.url)
        return self

    async def close(self) -> None:
        if self.connection is not None:
            try:
                await self.connection.close()
            finally:
                self.connection = None

    @asynccontextmanager
    async def _fenced(self) -> AsyncIterator[Any]:
        assert self.fence is not None
        async with self._lock, self.connection.transaction():
            await self.fence.check(self.connection)
            yield self.connection

    async def heartbeat(self, run_id: int) -> bool:
        """Still ours? False once another worker has the row or it was cancelled."""
        try:
            async with self._fenced() as connection:
                await connection.execute("UPDATE research_runs SET heartbeat_at = clock_timestamp() WHERE run_id = %s",
                                         (run_id,))
            return True
        except Fenced:
            return False

    async def set_session(self, run_id: int, session_id: str) -> None:
        async with self._fenced() as connection:
            await connection.execute("UPDATE research_runs SET session_id = %s WHERE run_id = %s", (session_id, run_id))

    async def add_event(self, run_id: int, event: str, payload: JsonObject) -> None:
        async with self._fenced() as connection:
            await connection.execute(
                "INSERT INTO research_run_events (run_id, worker, event, payload) VALUES (%s, %s, %s, %s)",
                (run_id, self.worker, event, json.dumps(payload, default=str)))

    async def finish(self, run_id: int, status: RunStatus, result: RunOutcome | None = None,
                     error: str | None = None) -> None:
        """Record the outcome. DONE: in one fenced transaction with the run's report files
        and its sessions-index row, read from its folder, so a run is finished in all three
        places or in none. QUEUED: handed back for another worker (nothing else written)."""
        from pathlib import Path

        from research.team.index import session_row_from_folder, upsert_session_row

        files: dict[str, bytes] = {}
        session_row = None
        if status == RunStatus.DONE and result is not None and result.session_dir:
            folder = Path(result.session_dir)
            for name in REPORT_FILES[:2]:
                if (folder / name).is_file():
                    files[name] = (folder / name).read_bytes()
            files["result.json"] = json.dumps(result.to_json(), ensure_ascii=False).encode("utf-8")
            session_row = session_row_from_folder(folder, self.owner)
        async with self._fenced() as connection:
            if status == RunStatus.QUEUED:
                await connection.execute("UPDATE research_runs SET status = %s, worker = NULL WHERE run_id = %s",
                                         (status, run_id))
                return
            session_id = result.session_id if result is not None else None
            for name, content in files.items():
                await connection.execute(
                    """INSERT INTO research_reports (session_id, name, content, run_id, fence)
                       VALUES (%s, %s, %s, %s, %s) ON CONFLICT (session_id, name) DO UPDATE SET
                       content = EXCLUDED.content, run_id = EXCLUDED.run_id, fence = EXCLUDED.fence,
                       written_at = clock_timestamp()""",
                    (session_id, name, content, run_id, self.fence.number if self.fence else None))
            if session_row is not None:
                await upsert_session_row(connection, session_row)
            await connection.execute(
                """UPDATE research_runs SET status = %s, result = %s, error = %s, finished_at = clock_timestamp(),
                       heartbeat_at = clock_timestamp(), session_id = COALESCE(%s, session_id) WHERE run_id = %s""",
                (status, json.dumps(result.stored()) if result is not None else None, error, session_id, run_id))

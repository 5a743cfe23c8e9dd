"""The run queue several workers share in PostgreSQL (``research serve``).

A run is a row of ``research_runs``. A worker claims the oldest waiting row with
``SELECT … FOR UPDATE SKIP LOCKED`` (two workers never get the same row), and holds a
PostgreSQL advisory lock on it for as long as it works on it, on a connection of its
own. That lock is what makes "never run twice" hold: PostgreSQL drops it the moment the
worker's connection closes (a ``kill -9`` included), and nothing else can take it while
the worker lives. The heartbeat (``heartbeat_at``) says when a running row's worker was
last heard from; a row whose heartbeat is older than the lease and whose lock is free is
claimed again, and its worker resumes the session from the last checkpoint.
"""

from __future__ import annotations

import json
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any, AsyncIterator

from research.orchestrator.session_store import connect, ensure_schema

# Advisory locks of this project's runs: (namespace, run_id) as two int4 keys.
LOCK_NAMESPACE = 24

QUEUE_TABLES = """
CREATE TABLE IF NOT EXISTS research_runs (
    run_id        bigserial PRIMARY KEY,
    owner         text NOT NULL,
    request       jsonb NOT NULL,
    status        text NOT NULL DEFAULT 'queued',
    session_id    text,
    worker        text,
    heartbeat_at  timestamptz,
    claims        integer NOT NULL DEFAULT 0,
    submitted_at  timestamptz NOT NULL DEFAULT clock_timestamp(),
    started_at    timestamptz,
    finished_at   timestamptz,
    result        jsonb,
    error         text
);
CREATE INDEX IF NOT EXISTS research_runs_waiting ON research_runs (status, submitted_at);
CREATE TABLE IF NOT EXISTS research_run_events (
    id       bigserial PRIMARY KEY,
    run_id   bigint NOT NULL,
    worker   text NOT NULL,
    event    text NOT NULL,
    payload  jsonb NOT NULL,
    at       timestamptz NOT NULL DEFAULT clock_timestamp()
);
CREATE INDEX IF NOT EXISTS research_run_events_run ON research_run_events (run_id, id);
"""



class RunStatus(StrEnum):
    """A queued run's status in ``research_runs`` (a str: the column keeps the plain text)."""

    QUEUED = "queued"  # waiting, or put back by a worker that was stopped
    RUNNING = "running"  # a worker holds it (its heartbeat says how recently)
    DONE = "done"
    FAILED = "failed"


WAITING = (RunStatus.QUEUED, RunStatus.RUNNING)  # counted against a token's queue limit
FINAL = (RunStatus.DONE, RunStatus.FAILED)


@dataclass(frozen=True)
class QueuedRequest:
    """What a client asked for, as the HTTP server queues it and a worker runs it (the row's
    ``request`` column): the run's own settings ride along as overrides."""

    question: str
    lang: str = "auto"  # the answer language, "auto" | "ja" | "en"
    overrides: dict[str, Any] = field(default_factory=dict)  # depth and budgets
    parent: str | None = None  # the session this question follows up (a remote REPL conversation)

    def to_json(self) -> dict[str, Any]:
        return {"question": self.question, "lang": self.lang, "overrides": self.overrides,
                **({"parent": self.parent} if self.parent else {})}

    @classmethod
    def from_json(cls, row: dict[str, Any]) -> "QueuedRequest":
        """A stored request; a key a row lacks takes its default (rows queued before the key existed)."""
        return cls(question=str(row.get("question") or ""), lang=str(row.get("lang") or "auto"),
                   overrides=dict(row.get("overrides") or {}), parent=row.get("parent") or None)


class QueueFull(Exception):
    """The token already has ``limit`` runs queued or running."""

    def __init__(self, waiting: int, limit: int) -> None:
        super().__init__(f"{waiting} runs waiting, limit {limit}")
        self.waiting, self.limit = waiting, limit


@dataclass
class ClaimedRun:
    run_id: int
    owner: str
    request: QueuedRequest
    session_id: str | None
    claims: int  # 1 for the first worker; more when a run is taken over


@asynccontextmanager
async def _connection(db: Any) -> AsyncIterator[Any]:
    """``db``: a postgresql:// URL (a connection of its own) or a psycopg pool (a borrowed one)."""
    if isinstance(db, str):
        async with await connect(db) as connection:
            yield connection
    else:
        async with db.connection() as connection:
            yield connection


async def submit(db: Any, owner: str, request: QueuedRequest, limit: int, session_id: str | None = None) -> int:
    """Queue a run for ``owner``: its id. Raises ``QueueFull`` at the owner's limit.
    ``session_id``: an unfinished session of the owner's to resume.

    The count and the insert happen under a per-owner transaction lock, so simultaneous
    submissions cannot all slip under the limit."""
    if isinstance(db, str):
        await ensure_schema(db)
    async with _connection(db) as connection:
        async with connection.transaction():
            await connection.execute("SELECT pg_advisory_xact_lock(%s, hashtext(%s))", (LOCK_NAMESPACE + 1, owner))
            cursor = await connection.execute(
                "SELECT count(*) AS n FROM research_runs WHERE owner = %s AND status = ANY(%s)", (owner, list(WAITING)))
            waiting = (await cursor.fetchone())["n"]
            if waiting >= limit:
                raise QueueFull(waiting, limit)
            cursor = await connection.execute(
                "INSERT INTO research_runs (owner, request, session_id) VALUES (%s, %s, %s) RETURNING run_id",
                (owner, json.dumps(request.to_json()), session_id))
            return int((await cursor.fetchone())["run_id"])


async def get_run(db: Any, run_id: int) -> dict[str, Any] | None:
    async with _connection(db) as connection:
        cursor = await connection.execute("SELECT * FROM research_runs WHERE run_id = %s", (run_id,))
        return await cursor.fetchone()


async def events_after(db: Any, run_id: int, after: int) -> list[dict[str, Any]]:
    async with _connection(db) as connection:
        cursor = await connection.execute(
            "SELECT id, event, payload, worker FROM research_run_events WHERE run_id = %s AND id > %s ORDER BY id",
            (run_id, after))
        return list(await cursor.fetchall())


async def runs_of(db: Any, owner: str, statuses: tuple[str, ...] = WAITING) -> list[dict[str, Any]]:
    async with _connection(db) as connection:
        cursor = await connection.execute(
            "SELECT * FROM research_runs WHERE owner = %s AND status = ANY(%s) ORDER BY run_id",
            (owner, list(statuses)))
        return list(await cursor.fetchall())


class Lease:
    """One worker's hold on the queue: a connection of its own that carries the
    advisory lock of the run it works on (so the lock dies with the worker)."""

    def __init__(self, url: str, worker: str, lease_seconds: float) -> None:
        self.url, self.worker, self.lease_seconds = url, worker, lease_seconds
        self.connection: Any = None

    async def open(self) -> "Lease":
        await ensure_schema(self.url)
        self.connection = await connect(self.url)
        return self

    async def close(self) -> None:
        if self.connection is not None:
            await self.connection.close()
            self.connection = None

    async def claim(self) -> ClaimedRun | None:
        """The oldest queued run, or a running one whose worker is gone; None if none."""
        async with self.connection.transaction():
            cursor = await self.connection.execute(
                """SELECT run_id FROM research_runs
                   WHERE status = %s
                      OR (status = %s AND heartbeat_at < clock_timestamp() - make_interval(secs => %s))
                   ORDER BY submitted_at, run_id
                   FOR UPDATE SKIP LOCKED LIMIT 8""",
                (RunStatus.QUEUED, RunStatus.RUNNING, self.lease_seconds))
            for row in await cursor.fetchall():
                # A silent worker may still be alive (a stalled heartbeat); its lock says so.
                locked = await self.connection.execute(
                    "SELECT pg_try_advisory_lock(%s, %s) AS ok", (LOCK_NAMESPACE, row["run_id"]))
                if not (await locked.fetchone())["ok"]:
                    continue
                cursor = await self.connection.execute(
                    """UPDATE research_runs SET status = %s, worker = %s, heartbeat_at = clock_timestamp(),
                           claims = claims + 1, started_at = COALESCE(started_at, clock_timestamp())
                       WHERE run_id = %s RETURNING run_id, owner, request, session_id, claims""",
                    (RunStatus.RUNNING, self.worker, row["run_id"]))
                claimed = await cursor.fetchone()
                await self.connection.execute(
                    "INSERT INTO research_run_events (run_id, worker, event, payload) VALUES (%s, %s, 'claimed', %s)",
                    (claimed["run_id"], self.worker, json.dumps({"claims": claimed["claims"]})))
                return ClaimedRun(int(claimed["run_id"]), claimed["owner"], QueuedRequest.from_json(claimed["request"]),
                                  claimed["session_id"], int(claimed["claims"]))
        return None

    async def heartbeat(self, run_id: int) -> bool:
        """Still ours? False once another worker has the row (then stop working on it)."""
        cursor = await self.connection.execute(
            "UPDATE research_runs SET heartbeat_at = clock_timestamp() WHERE run_id = %s AND worker = %s "
            "AND status = %s RETURNING run_id", (run_id, self.worker, RunStatus.RUNNING))
        return await cursor.fetchone() is not None

    async def set_session(self, run_id: int, session_id: str) -> None:
        await self.connection.execute(
            "UPDATE research_runs SET session_id = %s WHERE run_id = %s AND worker = %s",
            (session_id, run_id, self.worker))

    async def add_event(self, run_id: int, event: str, payload: dict[str, Any]) -> None:
        await self.connection.execute(
            "INSERT INTO research_run_events (run_id, worker, event, payload) VALUES (%s, %s, %s, %s)",
            (run_id, self.worker, event, json.dumps(payload, default=str)))

    async def finish(self, run_id: int, status: RunStatus, result: dict[str, Any] | None = None,
                     error: str | None = None) -> None:
        """Record the outcome and let go of the run's lock. QUEUED: put back for another worker."""
        if status == RunStatus.QUEUED:
            await self.connection.execute(
                "UPDATE research_runs SET status = %s, worker = NULL WHERE run_id = %s AND worker = %s",
                (status, run_id, self.worker))
        else:
            await self.connection.execute(
                """UPDATE research_runs SET status = %s, result = %s, error = %s, finished_at = clock_timestamp(),
                       heartbeat_at = clock_timestamp() WHERE run_id = %s AND worker = %s""",
                (status, json.dumps(result, default=str) if result is not None else None, error, run_id,
                 self.worker))
        await self.connection.execute("SELECT pg_advisory_unlock(%s, %s)", (LOCK_NAMESPACE, run_id))

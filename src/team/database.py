"""The team's database: how to reach it, its tables, and a worker's fenced hold on a run.

Every connection of the team's code comes from ``connect`` (its timeouts and keepalives);
``ensure_schema`` makes the checkpoint saver's tables, the sessions index, the run queue and
the queue library's own, once per process. A queued run's writes are fenced (docs/scale.md
"Fencing"): ``CURRENT_FENCE`` holds the run's ``Fence`` while its task runs, and the
checkpointer, the sessions index and the queue check it in the transaction that writes.
"""

from __future__ import annotations

from contextvars import ContextVar
from dataclasses import dataclass
from datetime import datetime
from enum import StrEnum
from typing import TYPE_CHECKING, Any, NotRequired, TypedDict

from research.modules.core.errors import UserFacingError
from research.modules.core.language import Language

if TYPE_CHECKING:
    from research.modules.core.run_options import OptionValues
    from research.state.run_record import JsonObject

# Taken around the saver's schema set-up, so workers starting together do not race on
# its migrations table (the key is arbitrary, fixed for this project).
SETUP_LOCK_KEY = 0x7265_7365_6172  # "resear"

SESSIONS_TABLE = """
CREATE TABLE IF NOT EXISTS research_sessions (
    session_id   text PRIMARY KEY,
    owner        text NOT NULL DEFAULT '',
    question     text NOT NULL DEFAULT '',
    language     text NOT NULL DEFAULT '',
    status       text NOT NULL DEFAULT 'created',
    session_dir  text NOT NULL DEFAULT '',
    created_at   timestamptz,
    started_at   timestamptz,
    finished_at  timestamptz,
    updated_at   timestamptz NOT NULL DEFAULT now(),
    report_md    text NOT NULL DEFAULT '',
    report_pdf   text NOT NULL DEFAULT '',
    exit_code    integer
);
CREATE INDEX IF NOT EXISTS research_sessions_owner ON research_sessions (owner, created_at DESC);
"""

_ready: set[str] = set()  # database URLs whose tables this process has made sure of


class DatabaseUnreachable(UserFacingError):
    """RESEARCH_DATABASE_URL names a database that does not answer: one line, not a traceback."""

    def __init__(self, reason: str) -> None:
        super().__init__("serve.database_unreachable", reason=" ".join(reason.split())[:300])


# Every connection, the queue's pool included: a database that does not answer within
# CONNECT_TIMEOUT is an error, not a hang; a peer that vanished (a partition, a host gone)
# is noticed by TCP keepalives and the user timeout within about KEEPALIVE_IDLE +
# KEEPALIVE_INTERVAL * KEEPALIVE_COUNT seconds; no statement runs past STATEMENT_TIMEOUT_MS.
# A session left idle inside a transaction for IDLE_IN_TRANSACTION_MS is ended by the server:
# a worker stalled mid-write (SIGSTOP, a frozen VM) answers TCP keepalives from its kernel,
# so without this its row locks would hold the run's takeover, and the queue's
# SKIP LOCKED scans would pass the run by, for as long as the stall lasts. Our transactions
# are a few statements long; one idle this long is a worker that stopped.
# A URL that sets any of these keeps its own value.
CONNECT_TIMEOUT = 10
KEEPALIVE_IDLE, KEEPALIVE_INTERVAL, KEEPALIVE_COUNT = 10, 5, 3
TCP_USER_TIMEOUT_MS = 30_000
STATEMENT_TIMEOUT_MS = 60_000
IDLE_IN_TRANSACTION_MS = 10_000


def conninfo(url: str) -> str:
    """``url`` with the timeouts and keepalives above, where it does not set them itself."""
    from psycopg.conninfo import conninfo_to_dict, make_conninfo

    given = conninfo_to_dict(url)
    extra: dict[str, int | str] = {key: value for key, value in {
        "connect_timeout": CONNECT_TIMEOUT, "keepalives": 1, "keepalives_idle": KEEPALIVE_IDLE,
        "keepalives_interval": KEEPALIVE_INTERVAL, "keepalives_count": KEEPALIVE_COUNT,
        "tcp_user_timeout": TCP_USER_TIMEOUT_MS}.items() if key not in given}
    options = str(given.get("options") or "")
    # The server's side of the same socket: PostgreSQL notices a dead worker (and drops what
    # its session held) as soon as the worker notices a dead server.
    wanted = {"statement_timeout": STATEMENT_TIMEOUT_MS, "idle_in_transaction_session_timeout": IDLE_IN_TRANSACTION_MS,
              "tcp_keepalives_idle": KEEPALIVE_IDLE,
              "tcp_keepalives_interval": KEEPALIVE_INTERVAL, "tcp_keepalives_count": KEEPALIVE_COUNT}
    added = " ".join(f"-c {name}={value}" for name, value in wanted.items() if name not in options)
    if added:
        extra["options"] = f"{options} {added}".strip()
    return make_conninfo(url, **extra)


async def connect(url: str) -> Any:
    """An autocommit connection with dict rows (what the saver expects too)."""
    import psycopg
    from psycopg.rows import dict_row

    try:
        return await psycopg.AsyncConnection.connect(conninfo(url), autocommit=True, prepare_threshold=0,
                                                     row_factory=dict_row)
    except psycopg.OperationalError as exc:
        raise DatabaseUnreachable(str(exc) or type(exc).__name__) from None


async def ping(url: str) -> None:
    """The database answers a query now (else DatabaseUnreachable, one line)."""
    import psycopg

    try:
        async with await connect(url) as connection:
            await connection.execute("SELECT 1")
    except psycopg.OperationalError as exc:
        raise DatabaseUnreachable(str(exc) or type(exc).__name__) from None


async def ensure_schema(url: str) -> None:
    """The saver's tables, the sessions index and the run queue, made once per process.

    An advisory lock serialises the set-up across processes: the saver's migrations are
    not safe to run twice at the same moment."""
    if url in _ready:
        return
    from langgraph.checkpoint.postgres.aio import AsyncPostgresSaver

    async with await connect(url) as connection:
        await connection.execute("SELECT pg_advisory_lock(%s)", (SETUP_LOCK_KEY,))
        try:
            await AsyncPostgresSaver(connection).setup()
            for statement in (SESSIONS_TABLE + QUEUE_TABLES).split(";"):
                if statement.strip():  # one at a time: prepared statements hold one command each
                    await connection.execute(statement)
            cursor = await connection.execute("SELECT to_regclass('procrastinate_jobs') IS NOT NULL AS made")
            if not (await cursor.fetchone())["made"]:
                from procrastinate.schema import SchemaManager

                # The queue library's own schema (functions with ; in their bodies: sent whole).
                await connection.execute(SchemaManager.get_schema(), prepare=False)
        finally:
            await connection.execute("SELECT pg_advisory_unlock(%s)", (SETUP_LOCK_KEY,))
    _ready.add(url)


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
ALTER TABLE research_runs ADD COLUMN IF NOT EXISTS job_id bigint;
ALTER TABLE research_runs ADD COLUMN IF NOT EXISTS submission text;
CREATE UNIQUE INDEX IF NOT EXISTS research_runs_submission ON research_runs (owner, submission)
    WHERE submission IS NOT NULL;
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
CREATE TABLE IF NOT EXISTS research_reports (
    session_id  text NOT NULL,
    name        text NOT NULL,
    content     bytea NOT NULL,
    run_id      bigint,
    fence       integer,
    written_at  timestamptz NOT NULL DEFAULT clock_timestamp(),
    PRIMARY KEY (session_id, name)
);
"""


class RunStatus(StrEnum):
    """A queued run's status in ``research_runs`` (a str: the column keeps the plain text)."""

    QUEUED = "queued"  # waiting, or handed back by a worker that was stopped
    RUNNING = "running"  # a worker holds it (Procrastinate's heartbeat says it is alive)
    DONE = "done"
    FAILED = "failed"
    CANCELLED = "cancelled"  # its owner cancelled it


class StoredRequest(TypedDict):
    """A run's ``request`` column (JSON): what the client asked for (team/queue.QueuedRequest)."""

    question: str
    lang: str  # the answer language, "auto" | "ja" | "en"
    overrides: OptionValues  # depth and budgets, by setting name
    parent: NotRequired[str]  # the session this question follows up


class RunRow(TypedDict):
    """A row of ``research_runs`` as the connections' dict rows give it."""

    run_id: int
    owner: str
    request: StoredRequest  # QueuedRequest.to_json(): read back with QueuedRequest.from_json
    status: str  # a RunStatus
    session_id: str | None
    worker: str | None
    heartbeat_at: datetime | None
    claims: int
    submitted_at: datetime
    started_at: datetime | None
    finished_at: datetime | None
    result: JsonObject | None  # RunOutcome.stored(): read back (validated) with RunOutcome.read
    error: str | None
    job_id: int | None
    submission: str | None


class EventRow(TypedDict):
    """A row of ``research_run_events`` as the API and the front read it."""

    id: int
    event: str
    payload: JsonObject  # the event's own fields (progress_events.to_wire, read back by from_wire), or the queue's
    worker: str


class SessionIndexRow(TypedDict):
    """A row of ``research_sessions``: a session as the index lists it."""

    session_id: str
    owner: str
    question: str
    language: Language
    status: str
    session_dir: str
    created_at: datetime | None
    started_at: datetime | None
    finished_at: datetime | None
    updated_at: datetime
    report_md: str
    report_pdf: str
    exit_code: int | None


class Fenced(Exception):
    """This worker's claim on the run is gone (another worker took it, or it was cancelled):
    the write was refused and the run must stop here."""

    def __init__(self, run_id: int, fence: int) -> None:
        super().__init__(f"run {run_id}: fence {fence} is no longer the run's")
        self.run_id, self.fence = run_id, fence


@dataclass(frozen=True)
class Fence:
    """A worker's hold on one run; ``check`` inside a transaction refuses a lost one."""

    url: str
    run_id: int
    number: int

    async def check(self, connection: Any) -> None:
        # FOR SHARE: a claim (an UPDATE of this row) waits until our transaction ends, so the
        # number cannot change between this check and the write that follows it.
        cursor = await connection.execute(
            "SELECT claims, status FROM research_runs WHERE run_id = %s FOR SHARE", (self.run_id,))
        row = await cursor.fetchone()
        if row is None or row["claims"] != self.number or row["status"] != RunStatus.RUNNING:
            raise Fenced(self.run_id, self.number)


# The fence of the run this task works for; the checkpointer and the sessions index read it
# (team/index.py), so a run's own writes are fenced without passing it through the graph.
CURRENT_FENCE: ContextVar[Fence | None] = ContextVar("research_run_fence", default=None)

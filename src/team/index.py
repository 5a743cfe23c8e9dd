"""Where a run's checkpoints and its line in the sessions index live.

One person, one machine (the default): checkpoints in ``checkpoints.sqlite`` inside the
session folder, and the folders themselves are the index. A team
(``RESEARCH_DATABASE_URL=postgresql://…``): checkpoints through the official
``langgraph-checkpoint-postgres`` saver, ``thread_id`` = session id as before, and one row
per session in ``research_sessions`` (status, question, timings, report paths, owner), so
several worker processes and the HTTP service see the same sessions. Both savers read
checkpoints with the same allow-list (``checkpoints.AllowListSerializer``).
"""

from __future__ import annotations

from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any, AsyncIterator

from research.modules.core.errors import UserFacingError
from research.modules.core.settings import Settings
from research.state.session_folder import HistoryManager

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


def uses_postgres(settings: Settings) -> bool:
    return bool(settings.database_url)


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
    extra: dict[str, Any] = {key: value for key, value in {
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

    from research.orchestrator.run_queue import QUEUE_TABLES

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


@asynccontextmanager
async def open_checkpointer(settings: Settings, session_path: Path) -> AsyncIterator[Any]:
    """The run's checkpointer, reading with the allow-list; closed when the block ends."""
    from research.orchestrator.checkpoints import AllowListSerializer

    if uses_postgres(settings):
        from langgraph.checkpoint.postgres.aio import AsyncPostgresSaver

        await ensure_schema(settings.database_url)
        async with await connect(settings.database_url) as connection:
            fence = _current_fence()
            if fence is None:
                yield AsyncPostgresSaver(connection, serde=AllowListSerializer())
            else:
                yield _fenced_saver(connection, fence)
        return
    import aiosqlite
    from langgraph.checkpoint.sqlite.aio import AsyncSqliteSaver

    from research.orchestrator.checkpoints import adopt_checkpoint_file, check_state_values
    from research.orchestrator.graph_input import MAX_QUESTION_CHARS

    path = session_path / "checkpoints.sqlite"
    session_id = session_path.name.removeprefix("session_")
    known: set[Any] = set()

    def check_values(values: dict[str, Any], whole: bool) -> None:
        check_state_values(values, session_path, session_id, question_limit=MAX_QUESTION_CHARS, whole=whole,
                           known=known)

    # A shared session's file was checked when it was chosen; what the saver writes is a
    # copy our own code made and checked again, here under the session's lock.
    adopt_checkpoint_file(path, check_values=check_values)
    async with aiosqlite.connect(str(path)) as connection:
        # A session folder may have been shared or edited: checkpoints are read with an
        # allow-list of the types our graph writes, never by importing what they name.
        yield AsyncSqliteSaver(connection, serde=AllowListSerializer())


def _current_fence() -> Any:
    from research.orchestrator.run_queue import CURRENT_FENCE

    return CURRENT_FENCE.get()


def _fenced_saver(connection: Any, fence: Any) -> Any:
    """The PostgreSQL saver, each of whose writes commits only while ``fence`` is the run's."""
    import asyncio

    from langgraph.checkpoint.postgres.aio import AsyncPostgresSaver

    from research.orchestrator.checkpoints import AllowListSerializer

    class FencedSaver(AsyncPostgresSaver):
        # The saver's own lock is taken inside its methods; ours spans the whole transaction.
        _fence_lock = asyncio.Lock()

        async def aput(self, *args: Any, **kwargs: Any) -> Any:
            async with self._fence_lock, self.conn.transaction():
                await fence.check(self.conn)
                return await super().aput(*args, **kwargs)

        async def aput_writes(self, *args: Any, **kwargs: Any) -> Any:
            async with self._fence_lock, self.conn.transaction():
                await fence.check(self.conn)
                return await super().aput_writes(*args, **kwargs)

        async def adelete_thread(self, *args: Any, **kwargs: Any) -> Any:
            async with self._fence_lock, self.conn.transaction():
                await fence.check(self.conn)
                return await super().adelete_thread(*args, **kwargs)

    return FencedSaver(connection, serde=AllowListSerializer())


def session_row_from_folder(folder: Path, owner: str = "") -> dict[str, Any]:
    """A session's row of the index, from its folder's meta.json."""
    import json

    try:
        meta = json.loads((folder / "meta.json").read_text("utf-8"))
    except (OSError, ValueError):
        meta = {}
    meta = meta if isinstance(meta, dict) else {}
    return {
        "session_id": folder.name.removeprefix("session_"),
        "owner": owner,
        "question": str(meta.get("question", "")),
        "language": str(meta.get("language", "")),
        "status": str(meta.get("status", "created")),
        "session_dir": str(folder),
        "created_at": meta.get("created_at"),
        "started_at": meta.get("started_at") or meta.get("created_at"),
        "finished_at": meta.get("finished_at"),
        "report_md": str(folder / "report.md") if (folder / "report.md").exists() else "",
        "report_pdf": str(folder / "report.pdf") if (folder / "report.pdf").exists() else "",
        "exit_code": meta.get("exit_code"),
    }


async def upsert_session_row(connection: Any, row: dict[str, Any]) -> None:
    await connection.execute(
        """INSERT INTO research_sessions (session_id, owner, question, language, status, session_dir, created_at,
               started_at, finished_at, report_md, report_pdf, exit_code)
           VALUES (%(session_id)s, %(owner)s, %(question)s, %(language)s, %(status)s, %(session_dir)s,
               %(created_at)s, %(started_at)s, %(finished_at)s, %(report_md)s, %(report_pdf)s, %(exit_code)s)
           ON CONFLICT (session_id) DO UPDATE SET
               owner = CASE WHEN research_sessions.owner = '' THEN EXCLUDED.owner ELSE research_sessions.owner END,
               question = EXCLUDED.question, language = EXCLUDED.language, status = EXCLUDED.status,
               session_dir = EXCLUDED.session_dir, started_at = COALESCE(research_sessions.started_at,
               EXCLUDED.started_at), finished_at = EXCLUDED.finished_at, report_md = EXCLUDED.report_md,
               report_pdf = EXCLUDED.report_pdf, exit_code = EXCLUDED.exit_code, updated_at = now()""",
        row,
    )


async def record_session(settings: Settings, history: HistoryManager, session_id: str, owner: str = "") -> None:
    """Copy the session's meta.json into its row of the index (PostgreSQL only).

    meta.json stays the session's own record (it travels with the folder); the row is
    what a service lists and filters by owner. An owner, once set, is never changed.
    Inside a queued run the write is fenced: a worker that lost its run changes nothing."""
    if not uses_postgres(settings):
        return
    fence = _current_fence()
    if fence is not None and (history.read_json(session_id, "meta.json", {}) or {}).get("queue_run") != fence.run_id:
        # Written in the folder before the database hears of it: if the database is gone now,
        # the run's next claim finds this folder by its run and resumes it, not a new one.
        history.update_meta(session_id, queue_run=fence.run_id)
    row = session_row_from_folder(history.root / f"session_{session_id}", owner)
    await ensure_schema(settings.database_url)
    async with await connect(settings.database_url) as connection:
        async with connection.transaction():
            if fence is not None:
                await fence.check(connection)
            await upsert_session_row(connection, row)


async def list_sessions(settings: Settings, owner: str | None, limit: int = 20) -> list[dict[str, Any]]:
    """The index's rows, newest first; ``owner`` None: everyone's."""
    await ensure_schema(settings.database_url)
    async with await connect(settings.database_url) as connection:
        if owner is None:
            cursor = await connection.execute(
                "SELECT * FROM research_sessions ORDER BY created_at DESC NULLS LAST LIMIT %s", (limit,))
        else:
            cursor = await connection.execute(
                "SELECT * FROM research_sessions WHERE owner = %s ORDER BY created_at DESC NULLS LAST LIMIT %s",
                (owner, limit))
        return list(await cursor.fetchall())



async def get_session(settings: Settings, session_id: str) -> dict[str, Any] | None:
    await ensure_schema(settings.database_url)
    async with await connect(settings.database_url) as connection:
        cursor = await connection.execute("SELECT * FROM research_sessions WHERE session_id = %s", (session_id,))
        return await cursor.fetchone()

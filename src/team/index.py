"""A team's sessions index and checkpoints (``RESEARCH_DATABASE_URL=postgresql://…``).

Checkpoints go through the official ``langgraph-checkpoint-postgres`` saver, ``thread_id`` =
session id as in a session folder's SQLite, and one row per session in ``research_sessions``
(status, question, timings, report paths, owner), so several worker processes and the HTTP
service see the same sessions. One person's runs keep theirs in the session folder
(``orchestrator/checkpointer.py``, which names this module only when a database URL is set).
Both savers read checkpoints with the same allow-list (``checkpoints.AllowListSerializer``).
"""

from __future__ import annotations

from contextlib import asynccontextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any, AsyncIterator, TypedDict

from research.modules.core.settings import Settings
from research.state.session_folder import HistoryManager
from research.team.database import CURRENT_FENCE, Fence, SessionIndexRow, connect, ensure_schema

if TYPE_CHECKING:
    from psycopg import AsyncConnection
    from psycopg.rows import DictRow


@asynccontextmanager
async def open_checkpointer(settings: Settings) -> AsyncIterator[Any]:
    """The run's PostgreSQL checkpointer (``thread_id`` = session id), reading with the
    allow-list, its writes fenced inside a queued run; closed when the block ends."""
    from langgraph.checkpoint.postgres.aio import AsyncPostgresSaver

    from research.orchestrator.checkpoints import AllowListSerializer

    await ensure_schema(settings.database_url)
    async with await connect(settings.database_url) as connection:
        fence = CURRENT_FENCE.get()
        if fence is None:
            yield AsyncPostgresSaver(connection, serde=AllowListSerializer())
        else:
            yield _fenced_saver(connection, fence)


def _fenced_saver(connection: AsyncConnection[DictRow], fence: Fence) -> Any:
    """The PostgreSQL saver, each of whose writes commits only while ``fence`` is the run's."""
    import asyncio

    from langgraph.checkpoint.postgres.aio import AsyncPostgresSaver

    from research.orchestrator.checkpoints import AllowListSerializer

    class FencedSaver(AsyncPostgresSaver):
        # The saver's own lock is taken inside its methods; ours spans the whole transaction.
        _fence_lock = asyncio.Lock()

        async def aput(self, *args: Any, **kwargs: Any) -> Any:
            async with self._fence_lock, connection.transaction():
                await fence.check(connection)
                return await super().aput(*args, **kwargs)

        async def aput_writes(self, *args: Any, **kwargs: Any) -> Any:
            async with self._fence_lock, connection.transaction():
                await fence.check(connection)
                return await super().aput_writes(*args, **kwargs)

        async def adelete_thread(self, *args: Any, **kwargs: Any) -> Any:
            async with self._fence_lock, connection.transaction():
                await fence.check(connection)
                return await super().adelete_thread(*args, **kwargs)

    return FencedSaver(connection, serde=AllowListSerializer())


class SessionWrite(TypedDict):
    """A session's row as ``upsert_session_row`` writes it: the times and exit code as the
    folder's meta.json gives them (PostgreSQL reads the ISO times)."""

    session_id: str
    owner: str
    question: str
    language: str
    status: str
    session_dir: str
    created_at: object
    started_at: object
    finished_at: object
    report_md: str
    report_pdf: str
    exit_code: object


def session_row_from_folder(folder: Path, owner: str = "") -> SessionWrite:
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


async def upsert_session_row(connection: Any, row: SessionWrite) -> None:
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
    if not settings.database_url:
        return
    fence = CURRENT_FENCE.get()
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


async def list_sessions(settings: Settings, owner: str | None, limit: int = 20) -> list[SessionIndexRow]:
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



async def get_session(settings: Settings, session_id: str) -> SessionIndexRow | None:
    await ensure_schema(settings.database_url)
    async with await connect(settings.database_url) as connection:
        cursor = await connection.execute("SELECT * FROM research_sessions WHERE session_id = %s", (session_id,))
        row: SessionIndexRow | None = await cursor.fetchone()
        return row

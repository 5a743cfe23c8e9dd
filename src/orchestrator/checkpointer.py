"""Where a run's checkpoints live, and the team's sessions index when there is one.

One person, one machine (the default): checkpoints in ``checkpoints.sqlite`` inside the
session folder, and the folders themselves are the index. With a database URL
(``RESEARCH_DATABASE_URL=postgresql://…``) both are the team's (``research.team.index``):
that module is named here, not imported, so the single-user program never loads the team's
code; it is imported only when the settings name a database.
"""

from __future__ import annotations

import importlib
from contextlib import asynccontextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any, AsyncIterator

from research.modules.core.settings import Settings

if TYPE_CHECKING:
    from research.orchestrator.checkpoints import StoredValues

TEAM_INDEX = "research.team.index"


def team_index(settings: Settings) -> Any | None:
    """The team's index module (``ensure_schema``, ``record_session``, ``open_checkpointer``)
    when the settings name a database; None for one person's runs."""
    return importlib.import_module(TEAM_INDEX) if settings.database_url else None


@asynccontextmanager
async def open_checkpointer(settings: Settings, session_path: Path) -> AsyncIterator[Any]:
    """The run's checkpointer, reading with the allow-list; closed when the block ends."""
    index = team_index(settings)
    if index is not None:
        async with index.open_checkpointer(settings) as saver:
            yield saver
        return
    import aiosqlite
    from langgraph.checkpoint.sqlite.aio import AsyncSqliteSaver

    from research.orchestrator.checkpoints import AllowListSerializer, adopt_checkpoint_file, check_state_values
    from research.orchestrator.graph_input import MAX_QUESTION_CHARS

    path = session_path / "checkpoints.sqlite"
    session_id = session_path.name.removeprefix("session_")
    known: set[Any] = set()

    def check_values(values: StoredValues, whole: bool) -> None:
        check_state_values(values, session_path, session_id, question_limit=MAX_QUESTION_CHARS, whole=whole,
                           known=known)

    # A shared session's file was checked when it was chosen; what the saver writes is a
    # copy our own code made and checked again, here under the session's lock.
    adopt_checkpoint_file(path, check_values=check_values)
    async with aiosqlite.connect(str(path)) as connection:
        # A session folder may have been shared or edited: checkpoints are read with an
        # allow-list of the types our graph writes, never by importing what they name.
        yield AsyncSqliteSaver(connection, serde=AllowListSerializer())


async def record_session(settings: Settings, history: Any, session_id: str, owner: str = "") -> None:
    """The session's row of the team's index, from its meta.json (nothing without a database)."""
    index = team_index(settings)
    if index is not None:
        await index.record_session(settings, history, session_id, owner)


async def ensure_index(settings: Settings) -> None:
    """The team's tables, made once per process; a database that does not answer is said now
    (one line), before any session folder exists. Nothing without a database."""
    index = team_index(settings)
    if index is not None:
        await index.ensure_schema(settings.database_url)

"""A shared session's checkpoint file is checked read-only, then copied before the saver
writes (issue 30, "then copy it before writing"): what the saver opens is a file our own
code wrote from what was checked, checked once more, with no journal or WAL of the original."""

from __future__ import annotations

import asyncio
import os
import sqlite3
from pathlib import Path
from typing import Any

import pytest
from langgraph.checkpoint.base import empty_checkpoint
from langgraph.checkpoint.sqlite import SqliteSaver

from research.modules.core.settings import Settings
from research.orchestrator.checkpoints import (AllowListSerializer, ForeignSchema, ForeignState,
                                               adopt_checkpoint_file, check_state_values, verify_checkpoint_file)
from research.orchestrator.checkpointer import open_checkpointer
from research.state.session_folder import HistoryManager, source_key

URL = "https://example.org/fuji"


def _session(tmp_path: Path) -> tuple[Path, str]:
    history = HistoryManager(tmp_path / "sessions")
    session = history.create(question="What is the height of Mount Fuji?", language="en", model="m")
    return session.path, session.session_id


def _state(folder: Path, session_id: str, cache_path: str | None = None) -> dict[str, Any]:
    path = cache_path or str(folder / "sources" / f"{source_key(URL)}.html")
    return {"question": "What is the height of Mount Fuji?", "language": "en", "session_id": session_id,
            "session_dir": str(folder), "search_results": [{"url": URL, "canonical_url": URL, "cache_path": path}]}


def _put(folder: Path, session_id: str, values: dict[str, Any]) -> None:
    connection = sqlite3.connect(folder / "checkpoints.sqlite", check_same_thread=False)
    try:
        saver = SqliteSaver(connection, serde=AllowListSerializer())
        checkpoint = empty_checkpoint()
        checkpoint["channel_values"] = values
        saver.put({"configurable": {"thread_id": session_id, "checkpoint_ns": ""}}, checkpoint,
                  {"source": "loop", "step": 2}, {})
    finally:
        connection.close()


def _checker(folder: Path, session_id: str):
    def check(values: dict[str, Any], whole: bool) -> None:
        check_state_values(values, folder, session_id, question_limit=4000, whole=whole)
    return check


def _leftovers(folder: Path) -> list[str]:
    return sorted(name for name in os.listdir(folder) if name.endswith(".tmp"))


def test_a_schema_changed_after_the_check_is_refused(tmp_path: Path) -> None:
    folder, session_id = _session(tmp_path)
    database = folder / "checkpoints.sqlite"
    _put(folder, session_id, _state(folder, session_id))
    verify_checkpoint_file(database, check_values=_checker(folder, session_id))  # the check when it was chosen
    connection = sqlite3.connect(database)  # ... and the file changed before the saver opens it
    connection.executescript("""
        ALTER TABLE checkpoints RENAME TO checkpoints_data;
        CREATE VIEW checkpoints AS SELECT * FROM checkpoints_data;""")
    connection.close()
    with pytest.raises(ForeignSchema):
        adopt_checkpoint_file(database, check_values=_checker(folder, session_id))
    assert _leftovers(folder) == []


def test_a_value_changed_after_the_check_is_refused(tmp_path: Path) -> None:
    folder, session_id = _session(tmp_path)
    database = folder / "checkpoints.sqlite"
    _put(folder, session_id, _state(folder, session_id))
    verify_checkpoint_file(database, check_values=_checker(folder, session_id))
    secret = tmp_path / "secret.txt"
    secret.write_text("SECRET")
    _put(folder, session_id, _state(folder, session_id, cache_path=str(secret)))
    with pytest.raises(ForeignState):
        adopt_checkpoint_file(database, check_values=_checker(folder, session_id))
    assert _leftovers(folder) == []


def test_the_saver_writes_a_copy_of_ours_with_the_same_checkpoints(tmp_path: Path) -> None:
    folder, session_id = _session(tmp_path)
    database = folder / "checkpoints.sqlite"
    _put(folder, session_id, _state(folder, session_id))
    before = os.stat(database).st_ino
    (folder / "checkpoints.sqlite-shm").write_bytes(b"\0" * 64)  # not ours: gone with the original
    adopt_checkpoint_file(database, check_values=_checker(folder, session_id))
    assert os.stat(database).st_ino != before
    assert not (folder / "checkpoints.sqlite-shm").exists()
    assert _leftovers(folder) == []

    async def newest() -> Any:
        async with open_checkpointer(Settings(sessions_dir=str(tmp_path / "sessions")), folder) as saver:
            return await saver.aget_tuple({"configurable": {"thread_id": session_id, "checkpoint_ns": ""}})

    found = asyncio.run(newest())
    assert found.checkpoint["channel_values"]["search_results"][0].url == URL  # read as the state's model


def test_a_journal_without_its_database_is_removed(tmp_path: Path) -> None:
    folder, _ = _session(tmp_path)
    (folder / "checkpoints.sqlite-journal").write_bytes(b"planted")
    adopt_checkpoint_file(folder / "checkpoints.sqlite")
    assert not (folder / "checkpoints.sqlite-journal").exists()
    assert not (folder / "checkpoints.sqlite").exists()


def test_a_linked_checkpoint_file_is_refused(tmp_path: Path) -> None:
    from research.orchestrator.checkpoints import UntrustedCheckpoint

    folder, session_id = _session(tmp_path)
    elsewhere = tmp_path / "elsewhere.sqlite"
    sqlite3.connect(elsewhere).close()
    (folder / "checkpoints.sqlite").symlink_to(elsewhere)
    with pytest.raises(UntrustedCheckpoint):
        adopt_checkpoint_file(folder / "checkpoints.sqlite")

"""A run writes into its session folder only while it may: the fence a team worker gives it
(``ResearchRequest.guard``) is asked before every file write, so a worker whose claim on the
run lapsed (paused, cut off from the database, the run taken by another) stops writing into
the folder at once, not at its next database write."""

from __future__ import annotations

import asyncio
import json
import os
from pathlib import Path

import pytest

from research.state.session_folder import HistoryManager


class ClaimLost(Exception):
    pass


def test_a_fenced_sessions_folder_refuses_every_write(tmp_path):
    allowed = [True]

    def guard() -> None:
        if not allowed[0]:
            raise ClaimLost("the claim is another worker's")

    history = HistoryManager(tmp_path / "sessions", guard=guard)
    info = history.create(question="q?", language="en", model="m")
    history.append_event(info.session_id, "step")
    before = {p.name: p.read_bytes() for p in info.path.iterdir() if p.is_file()}
    allowed[0] = False
    for write in (lambda: history.write_text(info.session_id, "report.md", "late"),
                  lambda: history.write_json(info.session_id, "verification.json", {}),
                  lambda: history.update_meta(info.session_id, status="done"),
                  lambda: history.append_event(info.session_id, "late")):
        with pytest.raises(ClaimLost):
            write()
    assert {p.name: p.read_bytes() for p in info.path.iterdir() if p.is_file()} == before


@pytest.mark.e2e
def test_a_run_whose_fence_closes_mid_run_writes_nothing_more(research_env, fake_ollama, monkeypatch):
    from research.modules.core.settings import load_settings
    from research.orchestrator.runner import ResearchRequest, run_research
    from research.state.progress_events import NodeStarted

    for key in [k for k in os.environ if k.startswith(("RESEARCH_", "OLLAMA_"))]:
        monkeypatch.delenv(key)
    for key, value in research_env.items():
        monkeypatch.setenv(key, value)
    closed = [False]
    snapshot: dict[str, bytes] = {}

    def guard() -> None:
        if closed[0]:
            raise ClaimLost("the claim is another worker's")

    def progress(event) -> None:
        if isinstance(event, NodeStarted) and event.node == "verification" and not closed[0]:
            folder = next(Path(research_env["RESEARCH_SESSIONS_DIR"]).glob("session_*"))
            snapshot.update({p.name: p.read_bytes() for p in folder.iterdir() if p.is_file()})
            closed[0] = True  # from here on the run is another worker's

    request = ResearchRequest(question="What is the height of Mount Fuji?", queue_run=41, guard=guard)
    with pytest.raises(ClaimLost):
        asyncio.run(run_research(request, load_settings(language="en", depth="quick"), progress))
    (folder,) = Path(research_env["RESEARCH_SESSIONS_DIR"]).glob("session_*")
    after = {p.name: p.read_bytes() for p in folder.iterdir() if p.is_file()}
    assert "report.md" not in after
    # Nothing the run wrote after the fence closed (checkpoints.sqlite is the saver's, fenced by the database's
    # saver in a team; here it is the local SQLite file).
    assert {k: v for k, v in after.items() if not k.startswith("checkpoints")} == {
        k: v for k, v in snapshot.items() if not k.startswith("checkpoints")}
    # The queued run's number was in meta.json from the start: a folder no database row names is still the run's.
    assert json.loads(snapshot["meta.json"])["queue_run"] == 41

"""A shared or edited session folder never runs code on `--resume` (issue 17).

A real session is run against the fake Ollama and the local web, stopped before its
end, and its newest checkpoint is edited the way an attacker would: a msgpack
constructor call (``os.system``) planted in it. Resuming must refuse with one line
and exit 2, and the planted command must not have run.
"""

from __future__ import annotations

import json
import sqlite3
import sys
from pathlib import Path

import ormsgpack
import pytest
from langgraph.checkpoint.sqlite import SqliteSaver
from conftest import research_in_process, session_dirs

sys.path.insert(0, str(Path(__file__).parent / "faults"))
from fault_helpers import kill_hard, node_started, start_research, wait_for  # noqa: E402

from research.orchestrator.checkpoints import (  # noqa: E402
    AllowListSerializer,
    UntrustedCheckpoint,
    check_serialized,
    verify_checkpoint_file,
)

pytestmark = pytest.mark.e2e

EXT_CONSTRUCTOR_SINGLE_ARG = 0  # langgraph's msgpack ext code for module.callable(arg)


def _planted(command: str) -> ormsgpack.Ext:
    return ormsgpack.Ext(EXT_CONSTRUCTOR_SINGLE_ARG, ormsgpack.packb(["os", "system", command]))


def _plant_in_newest_checkpoint(database: Path, command: str) -> None:
    connection = sqlite3.connect(database)
    try:
        row = connection.execute(
            "SELECT rowid, type, checkpoint FROM checkpoints ORDER BY checkpoint_id DESC LIMIT 1").fetchone()
        assert row and row[1] == "msgpack"
        checkpoint = ormsgpack.unpackb(row[2], ext_hook=lambda code, data: ormsgpack.Ext(code, data),
                                       option=ormsgpack.OPT_NON_STR_KEYS)
        checkpoint["channel_values"]["question"] = _planted(command)
        blob = ormsgpack.packb(checkpoint, option=ormsgpack.OPT_NON_STR_KEYS)
        connection.execute("UPDATE checkpoints SET checkpoint = ? WHERE rowid = ?", (blob, row[0]))
        connection.commit()
    finally:
        connection.close()


def test_tampered_checkpoint_refuses_to_resume_and_runs_nothing(research_env, fake_ollama, tmp_path):
    fake_ollama.token_delay = 0.2  # keeps the run in the llm step long enough to stop it there
    process = start_research(["What is the height of Mount Fuji?"], research_env)
    try:
        wait_for(lambda: len(session_dirs(research_env)) == 1, process=process)
        session = session_dirs(research_env)[0]
        wait_for(lambda: node_started(session, "llm"), process=process)
    finally:
        kill_hard(process)
    fake_ollama.token_delay = 0.0
    marker = tmp_path / "pwned"
    _plant_in_newest_checkpoint(session / "checkpoints.sqlite", f"touch {marker}")
    chats_before = len(fake_ollama.chat_requests())

    result = research_in_process(["--resume", session.name], research_env)

    assert result.returncode == 2, result.stderr
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in result.stderr, result.stderr
    assert "os.system" in lines[0] and "resume" in lines[0].lower()
    assert not marker.exists()
    # Refused before anything else: no model call, status untouched, no report.
    assert len(fake_ollama.chat_requests()) == chats_before
    assert json.loads((session / "meta.json").read_text("utf-8"))["status"] == "running"
    assert not (session / "report.md").exists()


def test_serializer_refuses_types_outside_the_allow_list_before_building_anything(tmp_path):
    marker = tmp_path / "built"
    nested = ormsgpack.packb({"plan": [ormsgpack.Ext(1, ormsgpack.packb(
        ["datetime", "timedelta", [_planted(f"touch {marker}")]]))]})
    for blob in (ormsgpack.packb({"x": _planted(f"touch {marker}")}), nested):
        with pytest.raises(UntrustedCheckpoint) as refused:
            AllowListSerializer().loads_typed(("msgpack", blob))
        assert refused.value.params["name"] == "os.system"
    with pytest.raises(UntrustedCheckpoint):
        check_serialized("pickle", b"cos\nsystem\n(S'true'\ntR.")
    with pytest.raises(UntrustedCheckpoint):
        check_serialized("json", json.dumps({"lc": 2, "type": "constructor", "id": ["os", "system"],
                                             "args": ["true"]}).encode())
    assert not marker.exists()


def test_a_normal_checkpoint_round_trips(tmp_path):
    from datetime import datetime, timezone

    from langgraph.types import Interrupt

    serializer = AllowListSerializer()
    value = {"documents": [{"label": "S1"}], "when": datetime.now(timezone.utc), "seen": {"a", "b"},
             "pause": Interrupt(value={"plan": []})}
    assert serializer.loads_typed(serializer.dumps_typed(value)) == value
    database = tmp_path / "checkpoints.sqlite"
    connection = sqlite3.connect(database, check_same_thread=False)
    SqliteSaver(connection).setup()  # the saver's own tables, nothing else
    connection.execute("INSERT INTO checkpoints (thread_id, checkpoint_id, type, checkpoint) VALUES ('t', '1', ?, ?)",
                       serializer.dumps_typed(value))
    connection.commit()
    connection.close()
    verify_checkpoint_file(database)  # no exception


def test_a_checkpoint_of_plain_data_is_read_as_the_state_s_models(tmp_path):
    # Written before the state held models: the same values as plain mappings. The nodes read
    # models, so the serializer hands them over as such (after the usual checks).
    from research.state.models import Document, VerificationResult

    serializer = AllowListSerializer()
    document = {"label": "S1", "url": "https://example.org/", "canonical_url": "https://example.org/", "markdown": "x"}
    checkpoint = {"v": 1, "channel_values": {"documents": [document], "language": "en",
                                             "verification": {"claims": [{"index": 0, "text": "t",
                                                                          "verdict": "supported"}]},
                                             "branch:to:report": None}}
    loaded = serializer.loads_typed(serializer.dumps_typed(checkpoint))["channel_values"]
    assert loaded["documents"] == [Document.model_validate(document)] and loaded["language"] == "en"
    assert isinstance(loaded["verification"], VerificationResult) and loaded["verification"].claims[0].text == "t"
    assert "branch:to:report" in loaded  # LangGraph's own channels are left as they are

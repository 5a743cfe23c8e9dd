"""What a run leaves, against its models (state/run_record.py): a real run's meta.json and
--json validate, meta.json's writers are held to the model, a shared folder's meta.json is
read field by field, and docs/schemas/ is what the models say."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from pydantic import ValidationError

from research.cli.schemas import published_models, schema_text
from research.state.run_record import RunJson, RunOutcome, SessionRecord, Source, sources_of
from research.state.session_folder import HistoryManager

DOCS = Path(__file__).resolve().parent.parent / "docs" / "schemas"


@pytest.mark.parametrize("name", sorted(published_models()))
def test_the_published_schema_is_the_models(name):
    """docs/schemas/ is written by `python -m research.cli.schemas`: rerun it when a model changes."""
    assert (DOCS / name).read_text("utf-8") == schema_text(published_models()[name])


@pytest.mark.e2e
@pytest.mark.parametrize("lang", ["en", "ja"])
def test_a_runs_json_and_meta_are_their_models(shared_run, lang):
    run = shared_run(lang)
    shown = RunJson.model_validate(run.summary)  # extra keys or a wrong type fail here
    assert shown.exit_code == 0 and shown.source_list and shown.verification.verdicts
    meta = json.loads((run.session / "meta.json").read_text("utf-8"))
    record = SessionRecord.model_validate(meta)
    assert record.status == "done" and record.sources == shown.sources and record.problems == shown.problems
    assert record.verification is not None and record.verification.verdicts == shown.verification.verdicts
    # what a team's worker stores reads back as the same outcome
    outcome = RunOutcome.read({**shown.model_dump(), "source_list": []})
    assert outcome.to_json() == {key: value for key, value in run.summary.items()
                                 if key not in ("answer", "source_list")}


def test_meta_json_writers_are_held_to_the_record(tmp_path):
    history = HistoryManager(tmp_path)
    session = history.create(question="What is the height of Mount Fuji?", language="en", model="m")
    history.update_meta(session.session_id, depth="quick", problems=[{"kind": "budget", "message": "seconds"}],
                        exit_code=0, verification={"claims": 2, "supported": 1})
    meta = history.read_json(session.session_id, "meta.json")
    SessionRecord.model_validate(meta)
    # written as given: a problem without a query count, a summary with the keys it had
    assert meta["problems"] == [{"kind": "budget", "message": "seconds"}]
    assert meta["verification"] == {"claims": 2, "supported": 1}
    with pytest.raises(KeyError):
        history.update_meta(session.session_id, sourcez=3)  # a key meta.json does not have
    with pytest.raises(ValidationError):
        history.update_meta(session.session_id, depth="bottomless")
    with pytest.raises(ValidationError):
        history.update_meta(session.session_id, problems=[{"kind": "no-such-kind", "message": "x"}])


def test_a_shared_folders_meta_is_read_field_by_field():
    record = SessionRecord.read({"question": "Q?", "language": "en", "sources": "many", "exit_code": 4,
                                 "problems": [{"kind": "search", "message": "down", "queries": 2}],
                                 "verification": ["not", "a", "summary"], "unknown_key": 1}, "20260101_000000_abcdef")
    assert record is not None and record.session_id == "20260101_000000_abcdef"
    assert record.sources is None and record.verification is None  # wrong types dropped
    assert record.exit_code == 4 and record.problems and record.problems[0].queries == 2
    assert SessionRecord.read(["not", "meta"], "x") is None and SessionRecord.read({"question": 3}, "x") is None


def test_one_source_model_gives_every_view():
    ledger = [{"label": "S1", "title": "Mount\nFuji \x1b[31m", "url": "https://example.org/fuji", "status": "ok",
               "language": "en", "kind": "reference", "markdown": "page text is never kept"},
              {"label": "S2", "url": "https://example.org/gone", "status": "failed", "error": "HTTP 404"},
              {"label": "S3", "url": "https://example.org/odd", "status": "weird"}, "not an entry"]
    sources = sources_of(ledger)
    assert [s.label for s in sources] == ["S1", "S2", "S3"]
    assert "\n" not in sources[0].title and "\x1b" not in sources[0].title
    assert sources[2].status == "failed"  # a status nobody knows is never counted as read
    assert sources[0].listed() == {"label": "S1", "title": sources[0].title, "url": "https://example.org/fuji",
                                   "status": "ok", "error": None, "suspicious": False}
    assert sources[0].cited_view(True).model_dump() == {"label": "S1", "title": sources[0].title,
                                                        "url": "https://example.org/fuji", "cited": True,
                                                        "suspicious": False}
    assert "markdown" not in Source.model_json_schema()["properties"]


def test_an_outcome_from_elsewhere_is_checked():
    with pytest.raises(ValidationError):
        RunOutcome.read({"session_id": "s", "session_dir": "", "language": "en", "exit_code": "zero"})
    with pytest.raises(ValueError):
        RunOutcome.read(["not", "an", "object"])
    kept = RunOutcome.read({"session_id": "s", "session_dir": "", "language": "en", "from_a_newer_version": 1})
    assert kept.exit_code == 0 and kept.to_json()["verification"] == {}

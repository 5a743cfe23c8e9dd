"""RESEARCH_DATABASE_URL=postgresql://…: checkpoints and the sessions index in a real
PostgreSQL (Debian's server, started by tests/fixtures/postgres.py), the `research`
console script run as a user runs it, against the fake Ollama and the local web."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import time
from pathlib import Path

import psycopg
import pytest
from conftest import RESEARCH, load_json_line, research_in_process, session_dirs

from fixtures.postgres import database_url, postgres_server  # noqa: F401 - pytest fixtures

pytestmark = pytest.mark.e2e


def _rows(url: str, query: str, *args) -> list[tuple]:
    with psycopg.connect(url) as connection:
        return connection.execute(query, args).fetchall()


def _events(session: Path) -> list[dict]:
    path = session / "events.jsonl"
    return [json.loads(line) for line in path.read_text("utf-8").splitlines() if line.strip()] if path.exists() else []


def test_a_run_keeps_its_checkpoints_and_index_row_in_postgres(research_env, database_url):
    env = {**research_env, "RESEARCH_DATABASE_URL": database_url}
    result = research_in_process(["What is the height of Mount Fuji?", "--json"], env)
    assert result.returncode == 0, result.stderr
    summary = load_json_line(result.stdout)
    session = Path(summary["session_dir"])
    # No SQLite file beside the report: the checkpoints went to PostgreSQL.
    assert not (session / "checkpoints.sqlite").exists()
    ((checkpoints,),) = _rows(database_url, "SELECT count(*) FROM checkpoints WHERE thread_id = %s",
                              summary["session_id"])
    assert checkpoints >= 6  # one per finished step at least
    (row,) = _rows(database_url, "SELECT question, language, status, report_md, report_pdf, created_at, "
                                 "finished_at, owner FROM research_sessions WHERE session_id = %s",
                   summary["session_id"])
    question, language, status, report_md, report_pdf, created_at, finished_at, owner = row
    assert (question, language, status, owner) == ("What is the height of Mount Fuji?", "en", "done", "")
    assert report_md == summary["report_md"] and Path(report_pdf).is_file()
    assert created_at is not None and finished_at is not None and finished_at >= created_at


def test_without_a_database_url_the_session_folder_holds_the_checkpoints(shared_run):
    # The one-person default needs no PostgreSQL: SQLite in the session folder.
    assert (shared_run("en").session / "checkpoints.sqlite").is_file()


def test_a_killed_run_resumes_from_its_postgres_checkpoint(research_env, fake_ollama, database_url):
    env = {**research_env, "RESEARCH_DATABASE_URL": database_url}
    fake_ollama.token_delay = 0.2  # keeps the run inside the llm step long enough to kill it
    process = subprocess.Popen([RESEARCH, "What is the height of Mount Fuji?"], env=env, stdout=subprocess.DEVNULL,
                               stderr=subprocess.DEVNULL, stdin=subprocess.DEVNULL, start_new_session=True)
    try:
        deadline = time.monotonic() + 90
        while not (session_dirs(env) and any(e.get("node") == "llm" for e in _events(session_dirs(env)[0]))):
            assert time.monotonic() < deadline, "the run never reached the llm step"
            time.sleep(0.05)
        os.killpg(process.pid, signal.SIGKILL)
        process.wait(10)
    finally:
        if process.poll() is None:
            os.killpg(process.pid, signal.SIGKILL)
    session = session_dirs(env)[0]
    session_id = session.name.removeprefix("session_")
    killed_at = len(_events(session))
    assert _rows(database_url, "SELECT status FROM research_sessions WHERE session_id = %s",
                 session_id) == [("running",)]
    fake_ollama.token_delay = 0.0

    resumed = research_in_process(["--resume", session_id, "--json"], env)
    assert resumed.returncode == 0, resumed.stderr
    assert Path(load_json_line(resumed.stdout)["report_pdf"]).is_file()
    started = [e["node"] for e in _events(session)[killed_at:] if e["event"] == "node_start"]
    assert started[0] == "llm" and "search" not in started and "input" not in started, started
    assert not (session / "checkpoints.sqlite").exists()
    assert _rows(database_url, "SELECT status FROM research_sessions WHERE session_id = %s",
                 session_id) == [("done",)]


def test_a_database_url_that_is_not_postgres_is_one_line_exit_2(research_env):
    result = research_in_process(["What is the height of Mount Fuji?"], {**research_env,
                                                                  "RESEARCH_DATABASE_URL": "mysql://db/x"})
    assert result.returncode == 2
    assert "RESEARCH_DATABASE_URL" in result.stderr and "Traceback" not in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1, result.stderr


def test_a_database_that_does_not_answer_is_one_line_before_any_session(research_env):
    import socket

    with socket.socket() as probe:  # a port nothing listens on
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    env = {**research_env, "RESEARCH_DATABASE_URL": f"postgresql://research@127.0.0.1:{port}/x"}
    result = research_in_process(["What is the height of Mount Fuji?"], env)
    assert result.returncode == 1
    assert "Cannot reach the database in RESEARCH_DATABASE_URL" in result.stderr and "Traceback" not in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1, result.stderr
    assert session_dirs(env) == []


def test_every_connection_has_a_connect_timeout_keepalives_and_a_statement_timeout(database_url):
    # Without them a worker cut off by a partition waited on a dead socket for hours, and a
    # statement stuck behind a lock never returned.
    import asyncio

    from psycopg.conninfo import conninfo_to_dict

    from research.team.database import conninfo, connect

    given = conninfo_to_dict(conninfo(database_url))
    assert given["connect_timeout"] == "10" and given["keepalives"] == "1" and given["keepalives_idle"] == "10"
    assert given["tcp_user_timeout"] == "30000"
    own = conninfo_to_dict(conninfo(database_url + "?connect_timeout=3&options=-c%20statement_timeout%3D5s"))
    assert own["connect_timeout"] == "3" and own["options"].startswith("-c statement_timeout=5s")  # the URL's own
    assert "statement_timeout=60000" not in own["options"]

    async def server_side() -> tuple[str, ...]:
        async with await connect(database_url) as connection:
            return tuple([(await (await connection.execute(f"SHOW {name}")).fetchone())[name] for name in (
                "statement_timeout", "tcp_keepalives_idle", "idle_in_transaction_session_timeout")])

    # The last: a worker stalled inside a transaction (SIGSTOP) loses its row locks, so its
    # run can be taken over (test_serve_workers' stalled-worker test hung on them).
    assert asyncio.run(server_side()) == ("1min", "10", "10s")

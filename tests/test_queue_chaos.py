"""The team service against the failures a real deployment sees, on a real PostgreSQL: the
database restarted under running workers, a worker cut off between making a session and
recording it, a worker killed after its report, `research serve` stopped with SIGTERM or
killed, a run cancelled by its owner."""

from __future__ import annotations

import asyncio
import json
import os
import signal
import subprocess
import time
from contextlib import ExitStack
from pathlib import Path

import psycopg
import pytest
from conftest import RESEARCH
from test_serve_workers import FUJI, rows, start_worker, stop, wait_for, worker_env, worker_of  # noqa: F401

from fixtures.postgres import SKIP_REASON, PostgresServer, database_url, postgres_server, server_bin_dir  # noqa: F401

from research.team import queue as run_queue
from research.team.database import ensure_schema
from research.team.index import session_row_from_folder, upsert_session_row
from research.state.session_folder import HistoryManager

pytestmark = pytest.mark.e2e


def status_of(url: str, run_id: int) -> str:
    return rows(url, "SELECT status FROM research_runs WHERE run_id = %s", run_id)[0]["status"]


def claimed_by(url: str, since_id: int = 0) -> dict[str, list[int]]:
    found: dict[str, list[int]] = {}
    for row in rows(url, "SELECT run_id, worker FROM research_run_events WHERE event = 'claimed' AND id > %s "
                         "ORDER BY id", since_id):
        found.setdefault(row["worker"], []).append(row["run_id"])
    return found


def session_folders(env: dict[str, str]) -> list[Path]:
    root = Path(env["RESEARCH_SESSIONS_DIR"])
    return sorted(root.glob("session_*")) if root.exists() else []


@pytest.fixture
def own_postgres():
    """A cluster of its own: these tests stop and start it."""
    if server_bin_dir() is None:
        pytest.skip(SKIP_REASON)
    with PostgresServer() as server:
        yield server


def test_workers_take_runs_again_after_the_database_restarts(research_env, fake_ollama, own_postgres):
    url = own_postgres.new_database()
    env = {**research_env, "RESEARCH_DATABASE_URL": url, "RESEARCH_LOG_LEVEL": "debug"}
    fake_ollama.token_delay = 0.1
    first_runs = [asyncio.run(run_queue.submit(url, "t1", FUJI, limit=5)) for _ in range(2)]
    with ExitStack() as stack:
        # A lease long enough that a worker busy on a loaded machine (its event loop held by a
        # step's CPU work for seconds) is never taken for silent: this test is about the
        # database's restart, not about takeovers (test_serve_workers has those).
        workers = [start_worker(env, lease=8.0) for _ in range(2)]
        for worker in workers:
            stack.callback(stop, worker)
        wait_for(lambda: all(rows(url, "SELECT count(*) AS n FROM research_run_events WHERE run_id = %s "
                                       "AND event = 'node_start'", run_id)[0]["n"] >= 2 for run_id in first_runs),
                 url=url)
        own_postgres.crash()  # pg_ctl -m immediate, with both runs in flight
        time.sleep(3)
        own_postgres.start_server()
        fake_ollama.token_delay = 0.0
        wait_for(lambda: all(status_of(url, run_id) == "done" for run_id in first_runs), url=url)
        assert all(worker.poll() is None for worker in workers), "a worker exited instead of reconnecting"
        # Both workers take new work: two slow runs at once need one worker each.
        (mark,) = rows(url, "SELECT coalesce(max(id), 0) AS id FROM research_run_events")
        fake_ollama.token_delay = 0.2
        later = [asyncio.run(run_queue.submit(url, "t2", FUJI, limit=5)) for _ in range(2)]
        wait_for(lambda: set(claimed_by(url, mark["id"])) == {worker_of(w) for w in workers}, timeout=60, url=url)
        fake_ollama.token_delay = 0.0
        wait_for(lambda: all(status_of(url, run_id) == "done" for run_id in later), url=url)
        for worker in workers:  # and each still answers SIGTERM
            worker.send_signal(signal.SIGTERM)
        assert [worker.wait(60) for worker in workers] == [0, 0]
    for run_id in first_runs + later:
        (run,) = rows(url, "SELECT session_id FROM research_runs WHERE run_id = %s", run_id)
        assert rows(url, "SELECT status FROM research_sessions WHERE session_id = %s", run["session_id"]) == [
            {"status": "done"}]
    assert len(session_folders(env)) == 4  # one per run: none made twice across the restart


def test_a_worker_cut_off_before_recording_its_session_leaves_no_second_folder(worker_env, fake_ollama):
    url = worker_env["RESEARCH_DATABASE_URL"]
    run_id = asyncio.run(run_queue.submit(url, "t1", FUJI, limit=5))
    with ExitStack() as stack, psycopg.connect(url) as blocker:
        first = start_worker(worker_env)
        stack.callback(stop, first)
        wait_for(lambda: claimed_by(url) != {}, url=url)
        # The run's row held by someone else: the worker can make its session folder, but
        # every database write of the run waits, as if the database had gone away.
        blocker.execute("SELECT 1 FROM research_runs WHERE run_id = %s FOR UPDATE", (run_id,))
        wait_for(lambda: any(json.loads((f / "meta.json").read_text("utf-8")).get("status") == "running"
                             for f in session_folders(worker_env) if (f / "meta.json").exists()))
        time.sleep(1.0)
        os.killpg(first.pid, signal.SIGKILL)
        first.wait(10)
        blocker.rollback()
        (orphan,) = session_folders(worker_env)
        assert rows(url, "SELECT session_id FROM research_runs WHERE run_id = %s", run_id)[0]["session_id"] is None
        second = start_worker(worker_env)
        stack.callback(stop, second)
        wait_for(lambda: status_of(url, run_id) in ("done", "failed"), url=url)
    (run,) = rows(url, "SELECT * FROM research_runs WHERE run_id = %s", run_id)
    assert run["status"] == "done" and run["claims"] == 2, run
    assert session_folders(worker_env) == [orphan], "the redone run made a second folder"
    assert run["session_id"] == orphan.name.removeprefix("session_")
    assert json.loads((orphan / "meta.json").read_text("utf-8"))["status"] == "done"


def test_a_run_whose_worker_died_after_the_report_is_recorded_once_with_its_files(worker_env):
    url = worker_env["RESEARCH_DATABASE_URL"]
    history = HistoryManager(Path(worker_env["RESEARCH_SESSIONS_DIR"]))
    session = history.create(question="What is the height of Mount Fuji?", language="en", model="gpt-oss:20b")
    (session.path / "report.md").write_text("# Mount Fuji\n\n3,776 m.\n", "utf-8")
    (session.path / "report.pdf").write_bytes(b"%PDF-1.4 test\n")
    history.update_meta(session.session_id, status="running")

    async def index_says_running() -> None:
        await ensure_schema(url)
        async with await psycopg.AsyncConnection.connect(url, autocommit=True) as connection:
            await upsert_session_row(connection, session_row_from_folder(session.path, "t1"))

    asyncio.run(index_says_running())  # the index heard "running"; then the report was written
    history.update_meta(session.session_id, status="done", sources=2, sources_failed=0, exit_code=0)
    run_id = asyncio.run(run_queue.submit(url, "t1", FUJI, limit=5, session_id=session.session_id))
    with ExitStack() as stack:
        worker = start_worker(worker_env)
        stack.callback(stop, worker)
        wait_for(lambda: status_of(url, run_id) in ("done", "failed"), url=url)
    assert status_of(url, run_id) == "done"
    assert rows(url, "SELECT status FROM research_sessions WHERE session_id = %s", session.session_id) == [
        {"status": "done"}]
    files = asyncio.run(run_queue.report_files(url, run_id))
    assert files["report.md"].decode("utf-8").startswith("# Mount Fuji") and files["report.pdf"].startswith(b"%PDF")
    result = json.loads(files["result.json"])
    assert result["session_id"] == session.session_id and result["exit_code"] == 0
    assert asyncio.run(run_queue.report_files(url, run_id + 1)) == {}


def test_an_owner_cancels_a_waiting_run_and_a_running_one(worker_env, fake_ollama):
    url = worker_env["RESEARCH_DATABASE_URL"]
    fake_ollama.token_delay = 0.2
    running, waiting = (asyncio.run(run_queue.submit(url, "t1", FUJI, limit=5)) for _ in range(2))
    with ExitStack() as stack:
        worker = start_worker(worker_env)
        stack.callback(stop, worker)
        wait_for(lambda: rows(url, "SELECT count(*) AS n FROM research_run_events WHERE run_id = %s "
                                   "AND event = 'node_start'", running)[0]["n"] >= 2, url=url)
        assert not asyncio.run(run_queue.cancel(url, waiting, "someone else"))
        assert asyncio.run(run_queue.cancel(url, waiting, "t1"))
        assert asyncio.run(run_queue.cancel(url, running, "t1"))
        assert not asyncio.run(run_queue.cancel(url, running, "t1"))  # once
        fake_ollama.token_delay = 0.0
        after = asyncio.run(run_queue.submit(url, "t1", FUJI, limit=5))  # the worker is free again
        wait_for(lambda: status_of(url, after) == "done", url=url)
    assert status_of(url, running) == status_of(url, waiting) == "cancelled"
    assert waiting not in [run for runs in claimed_by(url).values() for run in runs]
    # Nothing of the cancelled run's was recorded as finished after the cancel.
    assert rows(url, "SELECT result FROM research_runs WHERE run_id = %s", running) == [{"result": None}]


def _children(pid: int) -> list[int]:
    path = Path(f"/proc/{pid}/task/{pid}/children")
    return [int(p) for p in path.read_text().split()] if path.exists() else []


def _alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except (OSError, IndexError):
        return False
    return state != "Z"


@pytest.mark.parametrize("how", [signal.SIGTERM, signal.SIGKILL])
def test_stopping_or_killing_research_serve_stops_its_workers(worker_env, how):
    url = worker_env["RESEARCH_DATABASE_URL"]
    serve = subprocess.Popen([RESEARCH, "serve", "--port", "0", "--workers", "2"], env=worker_env,
                             stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    try:
        listening = ""
        while "/mcp" not in listening:
            listening = serve.stderr.readline()
            assert listening or serve.poll() is None, "research serve exited"
        wait_for(lambda: rows(url, "SELECT count(*) AS n FROM procrastinate_workers")[0]["n"] == 2, timeout=120)
        workers = _children(serve.pid)
        assert len(workers) == 2, workers
        serve.send_signal(how)
        serve.wait(60)
        deadline = time.monotonic() + 60
        while any(_alive(pid) for pid in workers) and time.monotonic() < deadline:
            time.sleep(0.2)
        assert not [pid for pid in workers if _alive(pid)], "workers outlived research serve"
        if how == signal.SIGTERM:
            assert serve.returncode == 0
    finally:
        for pid in _children(serve.pid) if serve.poll() is None else ():
            os.kill(pid, signal.SIGKILL)
        if serve.poll() is None:
            serve.kill()
            serve.wait()


def test_a_submission_key_queues_one_run_per_owner_and_is_answered_even_at_the_limit(database_url):
    """The key a client sends with its request: asked again after a lost answer, the same run."""
    def submit(owner: str, key: str | None) -> int:
        return asyncio.run(run_queue.submit(database_url, owner, FUJI, limit=1, submission=key))

    first = submit("t1", "0f1e2d3c4b5a")
    assert submit("t1", "0f1e2d3c4b5a") == first  # at its limit of 1 all the same: nothing new is queued
    with pytest.raises(run_queue.QueueFull):
        submit("t1", "another-key-9")
    assert submit("t2", "0f1e2d3c4b5a") != first  # another token's key is its own
    assert rows(database_url, "SELECT count(*) AS n FROM research_runs")[0]["n"] == 2

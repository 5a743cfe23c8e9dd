"""`research serve worker` processes sharing one real PostgreSQL: a worker killed with
kill -9 mid-run has its run taken over by another, resumed from the last checkpoint;
a worker that stalls (SIGSTOP) loses its run to another and, woken, is fenced out."""

from __future__ import annotations

import asyncio
import json
import logging
import os
import signal
import subprocess
import time
from contextlib import ExitStack
from pathlib import Path

import psycopg
import pytest
from conftest import RESEARCH

from fixtures.postgres import database_url, postgres_server  # noqa: F401 - pytest fixtures
from fixtures.processes import cpu_seconds, web_search_servers

from research.team import queue as run_queue
from research.state.steps import PLAIN_RUN

pytestmark = pytest.mark.e2e

# Seconds of silence before a run may be taken over: short, for the test, but not so short
# that a live worker whose event loop a loaded 2-core machine held for a moment (three test
# processes, workers, servers) is taken for silent: at 2 s, 1 stalled-worker run in 9 had a
# third claim under load.
LEASE = 5.0
FUJI = run_queue.QueuedRequest("What is the height of Mount Fuji?", "en")


def start_worker(env: dict[str, str], lease: float = LEASE) -> subprocess.Popen:
    # Each worker's stderr in a file beside the sessions: what it said, when a test fails.
    path = Path(env["HOME"]) / f"worker-{time.monotonic_ns()}.log"
    with open(path, "wb") as log:
        process = subprocess.Popen([RESEARCH, "serve", "worker", "--lease-seconds", str(lease),
                                    "--heartbeat-seconds", "0.3"], env=env, stdout=subprocess.DEVNULL, stderr=log,
                                   stdin=subprocess.DEVNULL, start_new_session=True)
    process.log_path = path  # type: ignore[attr-defined]
    return process


def stop(process: subprocess.Popen) -> None:
    if process.poll() is None:
        os.killpg(process.pid, signal.SIGCONT)
        os.killpg(process.pid, signal.SIGKILL)
        process.wait(10)


def rows(url: str, query: str, *args) -> list[dict]:
    with psycopg.connect(url, row_factory=psycopg.rows.dict_row) as connection:
        return connection.execute(query, args).fetchall()


def wait_for(predicate, timeout: float = 180.0, url: str | None = None) -> None:
    deadline = time.monotonic() + timeout
    while not predicate():
        if time.monotonic() > deadline:
            detail = ""
            if url:  # what the queue and the workers said, to tell a slow machine from a bug
                # The events first: when the text is cut, it is cut there, not in the rows and sessions.
                detail = json.dumps({"events": rows(url, "SELECT run_id, worker, event, payload FROM "
                                                         "research_run_events ORDER BY id"),
                                     "runs": rows(url, "SELECT run_id, status, worker, claims, error FROM research_runs"),
                                     "jobs": rows(url, "SELECT id, status, attempts, worker_id FROM procrastinate_jobs"),
                                     "sessions": rows(url, "SELECT pid, state, wait_event_type, wait_event, "
                                                           "left(query, 100) AS query FROM pg_stat_activity "
                                                           "WHERE datname = current_database() AND pid <> pg_backend_pid()"),
                                     }, default=str)[-8000:]
            raise AssertionError("timed out waiting " + detail)
        time.sleep(0.1)


def node_starts(url: str, run_id: int) -> list[tuple[str, str]]:
    """(worker, node) of each step a worker started for this run, in order."""
    return [(r["worker"], r["payload"]["node"]) for r in rows(
        url, "SELECT worker, payload FROM research_run_events WHERE run_id = %s AND event = 'node_start' ORDER BY id",
        run_id)]


def worker_of(process: subprocess.Popen) -> str:
    return f"{os.uname().nodename}:{process.pid}"


@pytest.fixture
def worker_env(research_env, database_url):
    # The workers log what they do (claims, steps, model calls): their log files say it when a test fails.
    return {**research_env, "RESEARCH_DATABASE_URL": database_url, "RESEARCH_LOG_LEVEL": "info"}


def test_a_worker_killed_mid_run_is_taken_over_from_the_last_checkpoint(worker_env, fake_ollama):
    url = worker_env["RESEARCH_DATABASE_URL"]
    fake_ollama.token_delay = 0.1  # the draft takes seconds: the kill lands in the llm step
    run_id = asyncio.run(run_queue.submit(url, "t1", FUJI, limit=5))
    with ExitStack() as stack:
        first = start_worker(worker_env)
        stack.callback(stop, first)
        wait_for(lambda: "llm" in [n for _, n in node_starts(url, run_id)], url=url)
        os.killpg(first.pid, signal.SIGKILL)  # the worker and its servers, as a crash would
        first.wait(10)
        killed_at = time.monotonic()
        fake_ollama.token_delay = 0.0
        second = start_worker(worker_env)
        stack.callback(stop, second)
        wait_for(lambda: rows(url, "SELECT status FROM research_runs WHERE run_id = %s", run_id)[0]["status"]
                 in ("done", "failed"), url=url)
        taken_after = time.monotonic() - killed_at
        # The job's end is Procrastinate's to record, just after the run's row: the worker stays
        # up until it has (stopping it sooner leaves the job "doing" for the next one to find).
        wait_for(lambda: rows(url, "SELECT j.status FROM procrastinate_jobs j JOIN research_runs r ON j.id = r.job_id "
                                   "WHERE r.run_id = %s", run_id)[0]["status"] != "doing", timeout=30, url=url)
    (run,) = rows(url, "SELECT * FROM research_runs WHERE run_id = %s", run_id)
    steps = node_starts(url, run_id)
    assert run["status"] == "done", run["error"]
    assert run["claims"] == 2 and run["worker"] == worker_of(second), (run, steps)
    before = [n for w, n in steps if w == worker_of(first)]
    after = [n for w, n in steps if w == worker_of(second)]
    until_draft = list(PLAIN_RUN[: PLAIN_RUN.index("llm") + 1])
    assert before[: len(until_draft)] == until_draft[: len(before[: len(until_draft)])] and "llm" in before, steps
    # Resumed from the last checkpoint: the steps the first worker finished are not run again.
    assert after[0] == "llm" and "search" not in after and "input" not in after, after
    assert after[-1] == "report" and [n for _, n in steps].count("report") == 1, steps
    session = Path(run["result"]["session_dir"])
    assert (session / "report.pdf").is_file() and (session / "report.md").read_text("utf-8").strip()
    meta = json.loads((session / "meta.json").read_text("utf-8"))
    assert meta["status"] == "done"
    assert rows(url, "SELECT owner, status FROM research_sessions WHERE session_id = %s",
                run["session_id"]) == [{"owner": "t1", "status": "done"}]
    assert taken_after < 120, taken_after
    # Its log (RESEARCH_LOG_LEVEL=info) says what it did: the claim, the steps it ran, none it skipped.
    said = second.log_path.read_text("utf-8")
    assert f"worker {worker_of(second)}: claimed run {run_id} (claim 2)" in said, said
    assert "step report finished" in said and "step search started" not in said, said
    # The queue is Procrastinate's: one job for the run, retried once (the takeover), finished.
    assert rows(url, "SELECT status, attempts FROM procrastinate_jobs WHERE id = %s", run["job_id"]) == [
        {"status": "succeeded", "attempts": 2}]


def stalled_while_drafting(env: dict[str, str], fake_ollama, stack: ExitStack) -> tuple[int, subprocess.Popen,
                                                                                      subprocess.Popen]:
    """A run whose worker is stopped (SIGSTOP) in its llm step, holding the session folder's
    lock, its heartbeat going stale, and a second worker started to take it over."""
    url = env["RESEARCH_DATABASE_URL"]
    fake_ollama.token_delay = 0.1
    run_id = asyncio.run(run_queue.submit(url, "t1", FUJI, limit=5))
    first = start_worker(env)
    stack.callback(stop, first)
    wait_for(lambda: "llm" in [n for _, n in node_starts(url, run_id)], url=url)
    os.killpg(first.pid, signal.SIGSTOP)  # alive, but silent
    fake_ollama.token_delay = 0.0
    second = start_worker(env)
    stack.callback(stop, second)
    return run_id, first, second


def test_a_stalled_worker_loses_its_run_and_is_fenced_out_when_it_wakes(worker_env, fake_ollama):
    # A worker that stops beating (SIGSTOP: a stall, a partition) has its run handed to another;
    # woken, it may not write anything more for the run: not an event, not the run's row.
    url = worker_env["RESEARCH_DATABASE_URL"]
    with ExitStack() as stack:
        run_id, first, second = stalled_while_drafting(worker_env, fake_ollama, stack)
        wait_for(lambda: rows(url, "SELECT claims FROM research_runs WHERE run_id = %s", run_id)[0]["claims"] == 2,
                 url=url)
        os.killpg(first.pid, signal.SIGCONT)  # wakes inside its llm step, fence 1
        wait_for(lambda: rows(url, "SELECT status FROM research_runs WHERE run_id = %s", run_id)[0]["status"]
                 in ("done", "failed"), url=url)
        time.sleep(4)  # time for the woken worker to try its next writes (heartbeats every 0.3 s)
    (run,) = rows(url, "SELECT * FROM research_runs WHERE run_id = %s", run_id)
    # Claimed twice, or more: had the second claim found the session still locked by the
    # stalled one (the race of the wake-up), it handed the run back for a later claim.
    assert run["status"] == "done" and run["claims"] >= 2, run
    claims = rows(url, "SELECT id, worker FROM research_run_events WHERE run_id = %s AND event = 'claimed' "
                       "ORDER BY id", run_id)
    taken = next(c for c in claims if c["worker"] == worker_of(second))
    # Woken, the first worker wrote nothing for the run on its old claim: no event between the
    # takeover and a claim of its own made afterwards (if the run came back to it).
    again = next((c["id"] for c in claims if c["worker"] == worker_of(first) and c["id"] > taken["id"]), None)
    late = [e for e in rows(url, "SELECT id, event FROM research_run_events WHERE run_id = %s AND worker = %s "
                                 "AND id > %s", run_id, worker_of(first), taken["id"])
            if again is None or e["id"] < again]
    assert late == [], late
    reports = rows(url, "SELECT name, fence FROM research_reports WHERE session_id = %s ORDER BY name",
                   run["session_id"])
    assert reports == [{"name": n, "fence": run["claims"]} for n in ("report.md", "report.pdf", "result.json")], reports
    assert rows(url, "SELECT status FROM research_sessions WHERE session_id = %s", run["session_id"]) == [
        {"status": "done"}]


def test_a_takeover_that_finds_the_session_still_held_hands_the_run_back_instead_of_failing_it(
        worker_env, fake_ollama):
    # The stalled worker keeps the session folder's lock while it is stopped: the worker that
    # took its run over must not fail the run for that, only give it back until the folder is free.
    url = worker_env["RESEARCH_DATABASE_URL"]
    with ExitStack() as stack:
        run_id, first, second = stalled_while_drafting(worker_env, fake_ollama, stack)
        wait_for(lambda: "still held by an earlier claim" in second.log_path.read_text("utf-8"), timeout=120, url=url)
        assert rows(url, "SELECT status FROM research_runs WHERE run_id = %s", run_id)[0]["status"] != "failed"
        os.killpg(first.pid, signal.SIGKILL)  # the stall ends as a crash: the kernel drops its lock
        wait_for(lambda: rows(url, "SELECT status FROM research_runs WHERE run_id = %s", run_id)[0]["status"]
                 in ("done", "failed"), url=url)
    (run,) = rows(url, "SELECT * FROM research_runs WHERE run_id = %s", run_id)
    assert run["status"] == "done" and run["worker"] == worker_of(second) and run["claims"] >= 3, run
    assert [n for _, n in node_starts(url, run_id)].count("report") == 1


def test_a_worker_stopped_with_sigterm_puts_its_run_back_for_another(worker_env, fake_ollama):
    url = worker_env["RESEARCH_DATABASE_URL"]
    fake_ollama.token_delay = 0.1
    run_id = asyncio.run(run_queue.submit(url, "t1", FUJI, limit=5))
    with ExitStack() as stack:
        first = start_worker(worker_env)
        stack.callback(stop, first)
        wait_for(lambda: "llm" in [n for _, n in node_starts(url, run_id)], url=url)
        first.send_signal(signal.SIGTERM)  # as `research serve` stops its workers
        assert first.wait(60) == 0
        (waiting,) = rows(url, "SELECT status, worker, session_id FROM research_runs WHERE run_id = %s", run_id)
        assert waiting["status"] == "queued" and waiting["worker"] is None and waiting["session_id"]
        fake_ollama.token_delay = 0.0
        second = start_worker(worker_env)  # no lease to wait out: the run was handed back
        stack.callback(stop, second)
        wait_for(lambda: rows(url, "SELECT status FROM research_runs WHERE run_id = %s", run_id)[0]["status"]
                 in ("done", "failed"), url=url)
    (run,) = rows(url, "SELECT * FROM research_runs WHERE run_id = %s", run_id)
    assert run["status"] == "done" and run["claims"] == 2
    after = [n for w, n in node_starts(url, run_id) if w == worker_of(second)]
    assert after[0] == "llm" and "search" not in after, after


def test_a_worker_keeps_its_servers_and_a_crashed_one_costs_no_run(worker_env, fake_ollama):
    # A worker keeps its two servers from one run to the next. One that died while the worker
    # was idle is started again inside the next run, which completes; the run after that gets
    # a fresh pair (a connection gives up after a few restarts: the budget is a run's, as before).
    url = worker_env["RESEARCH_DATABASE_URL"]

    def run_to_the_end() -> int:
        run_id = asyncio.run(run_queue.submit(url, "t1", FUJI, limit=5))
        wait_for(lambda: rows(url, "SELECT status FROM research_runs WHERE run_id = %s", run_id)[0]["status"]
                 in ("done", "failed"), url=url)
        return run_id

    with ExitStack() as stack:
        worker = start_worker(worker_env)
        stack.callback(stop, worker)
        first = run_to_the_end()
        (server,) = web_search_servers(worker_env["RESEARCH_SESSIONS_DIR"], parent=worker.pid)  # kept: still running between runs
        # Forked from the worker after its import of the MCP SDK (cli/early_servers.py): the whole
        # first run cost it less CPU than a spawned server's start alone (0.8 s or more).
        assert cpu_seconds(server) < 0.4, cpu_seconds(server)
        os.kill(server, signal.SIGKILL)
        after_crash = run_to_the_end()
        fresh = run_to_the_end()
        (replaced,) = web_search_servers(worker_env["RESEARCH_SESSIONS_DIR"], parent=worker.pid)
        worker.send_signal(signal.SIGTERM)
        assert worker.wait(60) == 0
        assert web_search_servers(worker_env["RESEARCH_SESSIONS_DIR"], parent=worker.pid) == [] and not Path(f"/proc/{replaced}/cmdline").exists()
    runs = rows(url, "SELECT run_id, status, error FROM research_runs ORDER BY run_id")
    assert [r["status"] for r in runs] == ["done"] * 3, runs
    starting = {r["run_id"]: r["n"] for r in rows(
        url, "SELECT run_id, count(*) AS n FROM research_run_events WHERE event = 'servers_starting' GROUP BY run_id")}
    assert (starting.get(first), starting.get(after_crash), starting.get(fresh)) == (1, None, 1), starting
    assert replaced != server


@pytest.mark.parametrize("lang, locale, said", [
    ("ja", "C.UTF-8", "ワーカー w-test: 実行番号 7 を引き受けました（2 回目）"),  # research serve --lang ja
    (None, "ja_JP.UTF-8", "ワーカー w-test: 実行番号 7 を引き受けました（2 回目）"),
    (None, "C.UTF-8", "worker w-test: claimed run 7 (claim 2)"),
])
def test_a_workers_lines_for_the_operator_are_in_its_language(lang, locale, said, monkeypatch):
    """research serve configures the log in its --lang (else the locale's), and its workers' lines follow."""
    import io

    from research.modules.core.logs import configure
    from research.modules.core.settings import Settings
    from research.team.worker import Worker

    monkeypatch.setenv("LANG", locale)
    for name in ("LC_ALL", "LC_MESSAGES"):
        monkeypatch.delenv(name, raising=False)
    stream = io.StringIO()
    configure("info", stream, lang=lang)
    try:
        Worker(Settings(), name="w-test", lang=lang).say("worker.claimed", logging.INFO, run_id=7, claims=2)
    finally:
        configure("warning", io.StringIO())
    (line,) = stream.getvalue().splitlines()
    assert line.endswith("research.team.worker: " + said), line

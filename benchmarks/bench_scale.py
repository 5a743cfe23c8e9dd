"""`research serve` under load, and with a worker killed: the figures in docs/scale.md.

Everything real but the model and the web: a PostgreSQL cluster from Debian's server
binaries (tests/fixtures/postgres.py), `research serve --workers 0` (the HTTP server) and
N separate `research serve worker` processes, clients speaking MCP over Streamable HTTP
with a bearer token; the fake Ollama (tests/fixtures/fake_ollama.py, ``--token-delay``
seconds per streamed token) and the local web fixture stand in for the model and the web.

Phase "queue": ``--runs`` research calls submitted at once by as many clients; throughput
(runs per minute, first submission to last answer) and the wait in the queue (p50, p95:
``started_at - submitted_at`` of each run, the database's clock).
Phase "chaos": the same again; once a worker is drafting an answer it is killed with
SIGKILL (its whole process group: worker, web-search and parser servers). Counted from the
database and the session folders: runs lost (not done), runs run twice (a step a dead
worker had finished started again, two reports, or a takeover while the first worker
lived), reports complete (report.md with text, report.pdf a PDF, meta.json "done").

Phase "scale": ``--runs`` runs queued at once (two owners), done by one worker, then by
``--workers``: the throughput of each and their ratio, and the queue wait (p50, p95).
Phase "restarts": ``--workers`` workers, ``--runs`` runs from two tokens; while they run,
kill -9 a worker, kill -9 a second, restart PostgreSQL (``pg_ctl -m immediate``, 3 s
down), SIGTERM a worker, kill -9 the HTTP front and start it again. The bench stands in for
a supervisor (systemd's Restart=always): a worker that exits is started again after 1 s.
Counted from the database and the sessions folder: runs done and lost, index rows that
disagree with their run, session folders no run owns, report steps per run, and for each
worker alive when the database came back, the seconds until it claimed a run again.

    .venv/bin/python benchmarks/bench_scale.py [--runs 20] [--workers 3] [--token-delay 0.02]
        [--phases queue,chaos,scale,restarts]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import re
import signal
import socket
import statistics
import subprocess
import threading
import sys
import tempfile
import time
from datetime import datetime, timezone
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))

import psycopg  # noqa: E402
from psycopg.rows import dict_row  # noqa: E402
from mcp import Client  # noqa: E402
from mcp.client.streamable_http import streamable_http_client  # noqa: E402
from mcp.shared._httpx_utils import create_mcp_http_client  # noqa: E402

from fixtures.fake_ollama import FakeOllama  # noqa: E402
from fixtures.postgres import PostgresServer  # noqa: E402
from fixtures.web_fixture import WebFixture  # noqa: E402

from research.orchestrator import run_queue  # noqa: E402

RESEARCH = str(Path(sys.executable).with_name("research"))
QUESTIONS = ("What is the height of Mount Fuji?", "When did Mount Fuji last erupt?", "What are LangGraph checkpoints?",
             "富士山の高さは？", "LangGraphのチェックポイントとは？")


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    if not ordered:
        return float("nan")
    rank = max(0, min(len(ordered) - 1, round(q * (len(ordered) - 1))))
    return ordered[rank]


def rows(url: str, query: str, *args) -> list[dict]:
    with psycopg.connect(url, row_factory=dict_row) as connection:
        return connection.execute(query, args).fetchall()


def start_worker(env: dict[str, str], lease: float, log: Path | None = None) -> subprocess.Popen:
    with open(log or os.devnull, "ab") as stderr:
        return subprocess.Popen([RESEARCH, "serve", "worker", "--lease-seconds", str(lease), "--heartbeat-seconds",
                                 "1"], env=env, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=stderr,
                                start_new_session=True)


def start_server(env: dict[str, str]) -> tuple[subprocess.Popen, str]:
    server = subprocess.Popen([RESEARCH, "serve", "--port", "0", "--workers", "0"], env=env, stdin=subprocess.DEVNULL,
                              stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, start_new_session=True)
    for line in server.stderr:
        found = re.search(r"(http://127\.0\.0\.1:\d+/mcp)", line)
        if found:
            # Its access log (a line per request) is read on, so the server never blocks on a full pipe.
            threading.Thread(target=lambda: [None for _ in server.stderr], daemon=True).start()
            return server, found.group(1)
    raise RuntimeError("research serve did not start")


async def submit_all(url: str, token: str, runs: int) -> list[dict]:
    async def one(index: int) -> dict:
        http = create_mcp_http_client(headers={"Authorization": f"Bearer {token}"})
        async with Client(streamable_http_client(url, http_client=http)) as client:
            result = await client.call_tool("research", {"question": QUESTIONS[index % len(QUESTIONS)]})
            return {"error": result.content[0].text if result.is_error else None,
                    "output": result.structured_content if not result.is_error else None}

    return await asyncio.gather(*(one(i) for i in range(runs)))


def report_complete(session_dir: str) -> bool:
    folder = Path(session_dir)
    try:
        meta = json.loads((folder / "meta.json").read_text("utf-8"))
        return (meta.get("status") == "done" and (folder / "report.md").read_text("utf-8").strip() != ""
                and (folder / "report.pdf").read_bytes()[:5] == b"%PDF-")
    except OSError:
        return False


def batch_figures(url: str, run_ids: list[int], wall: float) -> dict:
    found = rows(url, "SELECT run_id, status, claims, session_id, result, "
                      "extract(epoch from started_at - submitted_at) AS wait, "
                      "extract(epoch from finished_at - started_at) AS took FROM research_runs "
                      "WHERE run_id = ANY(%s) ORDER BY run_id", run_ids)
    waits = [float(r["wait"]) for r in found if r["wait"] is not None]
    took = [float(r["took"]) for r in found if r["took"] is not None]
    return {
        "runs": len(run_ids), "done": sum(r["status"] == "done" for r in found),
        "wall_seconds": round(wall, 2), "runs_per_minute": round(len(run_ids) / wall * 60, 1),
        "queue_wait_p50_s": round(percentile(waits, 0.5), 2), "queue_wait_p95_s": round(percentile(waits, 0.95), 2),
        "queue_wait_max_s": round(max(waits), 2) if waits else None,
        "run_seconds_median": round(statistics.median(took), 2) if took else None,
        "reports_complete": sum(report_complete(r["result"]["session_dir"]) for r in found if r["result"]),
    }


def new_run_ids(url: str, after: int) -> list[int]:
    return [r["run_id"] for r in rows(url, "SELECT run_id FROM research_runs WHERE run_id > %s ORDER BY run_id", after)]


def last_run_id(url: str) -> int:
    return int(rows(url, "SELECT coalesce(max(run_id), 0) AS n FROM research_runs")[0]["n"])


def twice_audit(url: str, run_ids: list[int], killed: str | None, killed_at: datetime | None) -> dict:
    """Runs run twice: a taken-over run that did not resume at the step its dead worker was
    in (so a finished step ran again), more than one report step, or a takeover claimed
    before the first worker was dead."""
    twice, taken_over, takeover_seconds = [], [], []
    for run_id in run_ids:
        events = rows(url, "SELECT worker, event, payload, at FROM research_run_events WHERE run_id = %s ORDER BY id",
                      run_id)
        claims = [e for e in events if e["event"] == "claimed"]
        # The step the dead worker was in (started, not ended): where a resume must begin.
        dead = [(e["event"], e["payload"].get("node")) for e in events
                if killed and e["worker"] == killed and e["event"] in ("node_start", "node_end")]
        interrupted = dead[-1][1] if dead and dead[-1][0] == "node_start" else None
        later = [e["payload"].get("node") for e in events
                 if killed and e["worker"] != killed and e["event"] == "node_start"]
        restarted = sorted({later[0]} if dead and later and later[0] != interrupted else set())
        reports = sum(1 for e in events if e["event"] == "node_start" and e["payload"].get("node") == "report")
        early = [c for c in claims[1:] if killed_at is not None and c["at"] < killed_at]
        if restarted or reports != 1 or early or (len(claims) > 1 and killed_at is None):
            twice.append({"run_id": run_id, "restarted": restarted, "reports": reports, "early": len(early)})
        if len(claims) > 1:
            taken_over.append(run_id)
            if killed_at is not None:
                takeover_seconds.append((claims[1]["at"] - killed_at).total_seconds())
    return {"run_twice": len(twice), "twice_details": twice, "taken_over": taken_over,
            "takeover_seconds": [round(s, 2) for s in takeover_seconds]}


def queue_and_chaos(url: str, env: dict[str, str], args: argparse.Namespace, mcp_url: str, token: str,
                    figures: dict) -> None:
    """The phases "queue" and "chaos": runs submitted through the HTTP front (MCP clients)."""
    workers = {}
    try:
        for _ in range(args.workers):
            process = start_worker(env, args.lease)
            workers[f"{socket.gethostname()}:{process.pid}"] = process

        # --- phase 1: N runs at once -----------------------------------------------------
        before = last_run_id(url)
        started = time.perf_counter()
        answers = asyncio.run(submit_all(mcp_url, token, args.runs))
        wall = time.perf_counter() - started
        ids = new_run_ids(url, before)
        figures["queue"] = {**batch_figures(url, ids, wall), **{
            k: v for k, v in twice_audit(url, ids, None, None).items() if k != "twice_details"},
            "client_errors": [a["error"] for a in answers if a["error"]]}
        print("queue:", json.dumps(figures["queue"]), flush=True)
        if "chaos" not in args.phases:
            return

        # --- phase 2: the same, one worker killed with SIGKILL mid-draft -------------------
        before = last_run_id(url)
        killed: dict = {}

        async def chaos() -> list[dict]:
            batch = asyncio.ensure_future(submit_all(mcp_url, token, args.runs))
            while "worker" not in killed:
                drafting = rows(url, "SELECT e.worker FROM research_run_events e WHERE e.run_id > %s AND "
                                     "e.event = 'node_start' AND e.payload->>'node' = 'llm' ORDER BY e.id LIMIT 1",
                                before)
                if drafting and drafting[0]["worker"] in workers:
                    name = drafting[0]["worker"]
                    os.killpg(workers[name].pid, signal.SIGKILL)
                    workers[name].wait(10)
                    killed["worker"] = name
                    killed["at"] = rows(url, "SELECT clock_timestamp() AS now")[0]["now"]
                    break
                await asyncio.sleep(0.05)
            return await batch

        started = time.perf_counter()
        answers = asyncio.run(chaos())
        wall = time.perf_counter() - started
        ids = new_run_ids(url, before)
        audit = twice_audit(url, ids, killed["worker"], killed["at"])
        batch = batch_figures(url, ids, wall)
        figures["chaos"] = {**batch, "lost": batch["runs"] - batch["done"], **audit,
                            "client_errors": [a["error"] for a in answers if a["error"]]}
        print("chaos:", json.dumps(figures["chaos"], default=str), flush=True)
    finally:
        stop_all(list(workers.values()))


def stop_all(processes: list[subprocess.Popen]) -> None:
    for process in processes:
        if process.poll() is None:
            os.killpg(process.pid, signal.SIGTERM)
    for process in processes:
        try:
            process.wait(60)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait()


def submit_direct(url: str, runs: int) -> list[int]:
    """``runs`` runs queued at once by two owners (two tokens), as the front queues them."""
    async def all_of() -> list[int]:
        return list(await asyncio.gather(*(
            run_queue.submit(url, ("alice", "bob")[i % 2], run_queue.QueuedRequest(QUESTIONS[i % len(QUESTIONS)]),
                             limit=runs) for i in range(runs))))

    return asyncio.run(all_of())


def wait_final(url: str, run_ids: list[int], timeout: float, tick=None) -> float:
    """Seconds until every run is final (or the timeout)."""
    started = time.perf_counter()
    while time.perf_counter() - started < timeout:
        if tick is not None:
            tick()
        final = rows(url, "SELECT count(*) AS n FROM research_runs WHERE run_id = ANY(%s) AND status = ANY(%s)",
                     run_ids, [str(s) for s in run_queue.FINAL])[0]["n"]
        if final == len(run_ids):
            break
        time.sleep(0.2)
    return time.perf_counter() - started


def scale_phase(url: str, env: dict[str, str], args: argparse.Namespace) -> dict:
    """The same batch done by one worker, then by ``--workers``."""
    out: dict = {}
    for count in (1, args.workers):
        workers = [start_worker(env, args.lease) for _ in range(count)]
        try:
            time.sleep(3)  # started and connected, so the batch measures the queue, not a start-up
            ids = submit_direct(url, args.runs)
            wall = wait_final(url, ids, 3600)
            out[f"workers_{count}"] = batch_figures(url, ids, wall)
        finally:
            stop_all(workers)
    one, many = out["workers_1"]["runs_per_minute"], out[f"workers_{args.workers}"]["runs_per_minute"]
    out["throughput_ratio"] = round(many / one, 2) if one else None
    return out


async def front_lists_sessions(url: str, token: str) -> bool:
    """The restarted front answers a client (its `sessions` tool) with the token."""
    http = create_mcp_http_client(headers={"Authorization": f"Bearer {token}"})
    async with Client(streamable_http_client(url, http_client=http)) as client:
        result = await client.call_tool("sessions", {})
        return not result.is_error


def restarts_phase(pg: PostgresServer, url: str, env: dict[str, str], args: argparse.Namespace, folder: Path,
                   front: dict, token: str) -> dict:
    """kill -9 a worker, kill -9 another, restart PostgreSQL, SIGTERM a worker, kill -9 the
    front and start it again, all while ``--runs`` runs from two tokens are being done."""
    logs = folder / "worker-logs"
    logs.mkdir(exist_ok=True)
    workers: list[subprocess.Popen] = []
    exited: list[tuple[float, int]] = []  # (when, index) of workers to start again
    timeline: list[dict] = []

    def name(process: subprocess.Popen) -> str:
        return f"{socket.gethostname()}:{process.pid}"

    def spawn() -> subprocess.Popen:
        return start_worker(env, args.lease, logs / f"worker-{len(timeline)}-{time.monotonic_ns()}.log")

    def supervise() -> None:
        for index, process in enumerate(workers):
            if process.poll() is not None and not any(i == index for _, i in exited):
                exited.append((time.monotonic() + 1.0, index))
        for due, index in list(exited):
            if time.monotonic() >= due:
                exited.remove((due, index))
                workers[index] = spawn()
                timeline.append({"event": "worker started again", "worker": name(workers[index]), "at": now(url)})

    def busy_workers() -> list[int]:
        running = {r["worker"] for r in rows(url, "SELECT worker FROM research_runs WHERE status = 'running'")}
        return [i for i, p in enumerate(workers) if p.poll() is None and name(p) in running]

    def wait_until(predicate, timeout: float = 600) -> None:
        deadline = time.monotonic() + timeout
        while not predicate():
            if time.monotonic() > deadline:
                raise RuntimeError("timed out")
            supervise()
            time.sleep(0.1)

    def done_count(ids: list[int]) -> int:
        return rows(url, "SELECT count(*) AS n FROM research_runs WHERE run_id = ANY(%s) AND status = 'done'",
                    ids)[0]["n"]

    workers = [spawn() for _ in range(args.workers)]
    try:
        time.sleep(3)
        ids = submit_direct(url, args.runs)
        started = time.perf_counter()
        # 1. kill -9 a worker in the middle of a run
        wait_until(lambda: len(busy_workers()) >= 1)
        victim = workers[busy_workers()[0]]
        os.killpg(victim.pid, signal.SIGKILL)
        victim.wait(10)
        timeline.append({"event": "kill -9 worker", "worker": name(victim), "at": now(url)})
        # 2. kill -9 a second, once two more runs are done
        first_done = done_count(ids)
        wait_until(lambda: done_count(ids) >= first_done + 2 and len(busy_workers()) >= 1)
        victim = workers[busy_workers()[0]]
        os.killpg(victim.pid, signal.SIGKILL)
        victim.wait(10)
        timeline.append({"event": "kill -9 worker", "worker": name(victim), "at": now(url)})
        # 3. restart PostgreSQL with runs in flight
        wait_until(lambda: len(busy_workers()) >= 2)
        pg.crash()
        crashed = time.monotonic()
        timeline.append({"event": "PostgreSQL stopped (-m immediate)", "at": datetime.now(timezone.utc)})
        while time.monotonic() - crashed < 3:
            time.sleep(0.1)  # no supervise(): it reads the database
        pg.start_server()
        back = now(url)
        timeline.append({"event": "PostgreSQL started", "at": back})
        alive_at_return = [name(p) for p in workers if p.poll() is None]

        def all_claimed_again() -> bool:
            claimed = {r["worker"] for r in rows(url, "SELECT DISTINCT worker FROM research_run_events WHERE "
                                                      "event = 'claimed' AND at > %s", back)}
            return set(alive_at_return) <= claimed or done_count(ids) == len(ids)

        wait_until(all_claimed_again, 120)
        # 4. SIGTERM a worker that is running something
        wait_until(lambda: len(busy_workers()) >= 1)
        victim = workers[busy_workers()[0]]
        os.killpg(victim.pid, signal.SIGTERM)
        timeline.append({"event": "SIGTERM worker", "worker": name(victim), "at": now(url)})
        # 5. kill the front and start it again
        os.killpg(front["server"].pid, signal.SIGKILL)
        front["server"].wait(10)
        timeline.append({"event": "kill -9 research serve", "at": now(url)})
        front["server"], front["url"] = start_server(env)
        timeline.append({"event": "research serve started again", "at": now(url)})
        front_answers = asyncio.run(front_lists_sessions(front["url"], token))
        wall_left = wait_final(url, ids, 3600, tick=supervise)
        wall = time.perf_counter() - started
        del wall_left
    finally:
        stop_all(workers)
    batch = batch_figures(url, ids, wall)
    found = rows(url, "SELECT r.run_id, r.status, r.claims, r.session_id, s.status AS indexed FROM research_runs r "
                      "LEFT JOIN research_sessions s ON s.session_id = r.session_id WHERE r.run_id = ANY(%s)", ids)
    stale = [r for r in found if r["status"] == "done" and r["indexed"] not in ("done", "no_evidence")]
    owned = {r["session_id"] for r in found}
    folders = {p.name.removeprefix("session_") for p in Path(env["RESEARCH_SESSIONS_DIR"]).glob("session_*")}
    reports = {r["run_id"]: r["n"] for r in rows(
        url, "SELECT run_id, count(*) AS n FROM research_run_events WHERE run_id = ANY(%s) AND event = 'node_start' "
             "AND payload->>'node' = 'report' GROUP BY run_id", ids)}
    reclaim = {}
    for worker in alive_at_return:
        (first,) = rows(url, "SELECT min(at) AS at FROM research_run_events WHERE worker = %s AND event = 'claimed' "
                             "AND at > %s", worker, back)
        reclaim[worker] = round((first["at"] - back).total_seconds(), 2) if first["at"] else None
    restarted = [t for t in timeline if t["event"] == "worker started again"]
    for worker in restarted:
        (first,) = rows(url, "SELECT min(at) AS at FROM research_run_events WHERE worker = %s AND event = 'claimed'",
                        worker["worker"])
        worker["first_claim_after_s"] = round((first["at"] - worker["at"]).total_seconds(), 2) if first["at"] else None
    return {
        **batch, "lost": batch["runs"] - batch["done"], "stale_index_rows": len(stale),
        "orphan_folders": len(folders - owned), "session_folders": len(folders),
        "runs_with_two_report_steps": sum(1 for n in reports.values() if n > 1),
        "claims_total": sum(r["claims"] for r in found),
        "reclaim_after_db_return_s": reclaim, "restarted_front_answered": front_answers,
        "timeline": [{**t, "at": str(t["at"])} for t in timeline],
        "reports_in_postgres": rows(url, "SELECT count(DISTINCT r.session_id) AS n FROM research_reports r JOIN "
                                         "research_runs q ON q.session_id = r.session_id WHERE q.run_id = ANY(%s) "
                                         "AND r.name = 'report.pdf'", ids)[0]["n"],
    }


def now(url: str) -> datetime:
    return rows(url, "SELECT clock_timestamp() AS now")[0]["now"]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=20)
    parser.add_argument("--workers", type=int, default=3)
    parser.add_argument("--token-delay", type=float, default=0.02, help="fake model: seconds per streamed token")
    parser.add_argument("--lease", type=float, default=5.0, help="worker lease (takeover after this much silence)")
    parser.add_argument("--phases", default="queue,chaos", help="comma-separated: queue, chaos, scale, restarts")
    parser.add_argument("--out", help="write the figures here as JSON")
    args = parser.parse_args()
    folder = Path(tempfile.mkdtemp(prefix="bench-scale-"))
    figures: dict = {"runs": args.runs, "workers": args.workers, "token_delay_s": args.token_delay,
                     "lease_s": args.lease, "cpus": os.cpu_count(), "host": socket.gethostname(),
                     "phases": args.phases, "date": datetime.now(timezone.utc).isoformat(timespec="seconds")}
    with PostgresServer() as pg, FakeOllama(token_delay=args.token_delay) as ollama, WebFixture(slow_delay=0.5) as web:
        url = pg.new_database()
        env = {k: v for k, v in os.environ.items() if not k.startswith(("RESEARCH_", "OLLAMA_"))}
        env.update(HOME=str(folder), XDG_CONFIG_HOME=str(folder / "config"), RESEARCH_OLLAMA_HOST=ollama.url,
                   RESEARCH_SEARCH_ENGINE="searxng", RESEARCH_SEARXNG_URL=web.searxng_url,
                   RESEARCH_ALLOW_PRIVATE_NETWORK="true", RESEARCH_SESSIONS_DIR=str(folder / "sessions"),
                   RESEARCH_DATABASE_URL=url, RESEARCH_QUEUE_LIMIT=str(args.runs), NO_COLOR="1")
        token = subprocess.run([RESEARCH, "serve", "token", "add", "bench"], env=env, capture_output=True, text=True,
                               check=True).stdout.strip()
        front: dict = {}
        front["server"], front["url"] = start_server(env)
        try:
            if "queue" in args.phases or "chaos" in args.phases:
                queue_and_chaos(url, env, args, front["url"], token, figures)
            if "scale" in args.phases:
                figures["scale"] = scale_phase(url, env, args)
                print("scale:", json.dumps(figures["scale"]), flush=True)
            if "restarts" in args.phases:
                figures["restarts"] = restarts_phase(pg, url, env, args, folder, front, token)
                print("restarts:", json.dumps(figures["restarts"], default=str), flush=True)
        finally:
            stop_all([front["server"]])
    if args.out:
        Path(args.out).write_text(json.dumps(figures, indent=1, default=str) + "\n", "utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())

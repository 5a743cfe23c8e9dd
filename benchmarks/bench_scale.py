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

    .venv/bin/python benchmarks/bench_scale.py [--runs 20] [--workers 3] [--token-delay 0.02]
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


def start_worker(env: dict[str, str], lease: float) -> subprocess.Popen:
    return subprocess.Popen([RESEARCH, "serve", "worker", "--lease-seconds", str(lease), "--heartbeat-seconds", "1"],
                            env=env, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                            start_new_session=True)


def start_server(env: dict[str, str]) -> tuple[subprocess.Popen, str]:
    server = subprocess.Popen([RESEARCH, "serve", "--port", "0", "--workers", "0"], env=env, stdin=subprocess.DEVNULL,
                              stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, start_new_session=True)
    for line in server.stderr:
        found = re.search(r"(http://127\.0\.0\.1:\d+/mcp)", line)
        if found:
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


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=20)
    parser.add_argument("--workers", type=int, default=3)
    parser.add_argument("--token-delay", type=float, default=0.02, help="fake model: seconds per streamed token")
    parser.add_argument("--lease", type=float, default=5.0, help="worker lease (takeover after this much silence)")
    parser.add_argument("--out", help="write the figures here as JSON")
    args = parser.parse_args()
    folder = Path(tempfile.mkdtemp(prefix="bench-scale-"))
    figures: dict = {"runs": args.runs, "workers": args.workers, "token_delay_s": args.token_delay,
                     "lease_s": args.lease, "cpus": os.cpu_count(), "host": socket.gethostname(),
                     "date": datetime.now(timezone.utc).isoformat(timespec="seconds")}
    with PostgresServer() as pg, FakeOllama(token_delay=args.token_delay) as ollama, WebFixture(slow_delay=0.5) as web:
        url = pg.new_database()
        env = {k: v for k, v in os.environ.items() if not k.startswith(("RESEARCH_", "OLLAMA_"))}
        env.update(HOME=str(folder), XDG_CONFIG_HOME=str(folder / "config"), RESEARCH_OLLAMA_HOST=ollama.url,
                   RESEARCH_SEARCH_ENGINE="searxng", RESEARCH_SEARXNG_URL=web.searxng_url,
                   RESEARCH_ALLOW_PRIVATE_NETWORK="true", RESEARCH_SESSIONS_DIR=str(folder / "sessions"),
                   RESEARCH_DATABASE_URL=url, RESEARCH_QUEUE_LIMIT=str(args.runs), NO_COLOR="1")
        token = subprocess.run([RESEARCH, "serve", "token", "add", "bench"], env=env, capture_output=True, text=True,
                               check=True).stdout.strip()
        server, mcp_url = start_server(env)
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
            for process in [*workers.values(), server]:
                if process.poll() is None:
                    os.killpg(process.pid, signal.SIGTERM)
            for process in [*workers.values(), server]:
                try:
                    process.wait(30)
                except subprocess.TimeoutExpired:
                    os.killpg(process.pid, signal.SIGKILL)
    if args.out:
        Path(args.out).write_text(json.dumps(figures, indent=1, default=str) + "\n", "utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""Helpers for the fault tests: start `research` so it can be killed, wait for events,
and check that a session folder holds only whole files."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import time
from pathlib import Path

from conftest import RESEARCH

SESSION_JSON = ("meta.json", "search_results.json", "verification.json")


def start_research(args: list[str], env: dict[str, str]) -> subprocess.Popen:
    """`research` in its own process group, so a kill -9 takes its MCP servers with it."""
    return subprocess.Popen([RESEARCH, *args], env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            stdin=subprocess.DEVNULL, start_new_session=True, text=True)


def kill_hard(process: subprocess.Popen) -> None:
    if process.poll() is None:
        os.killpg(process.pid, signal.SIGKILL)
    process.communicate(timeout=10)


def events(session: Path) -> list[dict]:
    path = session / "events.jsonl"
    if not path.exists():
        return []
    return [json.loads(line) for line in path.read_text("utf-8").splitlines() if line.strip()]


def wait_for(predicate, timeout: float = 60.0, process: subprocess.Popen | None = None) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if predicate():
            return
        if process is not None and process.poll() is not None:
            raise AssertionError(f"research exited early ({process.returncode}): {process.stderr.read()[-2000:]}")
        time.sleep(0.02)
    raise AssertionError("timed out waiting")


def node_started(session: Path, node: str, after: int = 0) -> bool:
    return any(e["event"] == "node_start" and e.get("node") == node for e in events(session)[after:])


def assert_whole_files(session: Path, finished: bool = True) -> None:
    """Every JSON file parses and every JSONL line parses; in a finished session no temp
    file is left over (a kill mid-write may leave one, which the resume sweeps away)."""
    for name in SESSION_JSON:
        if (session / name).exists():
            json.loads((session / name).read_text("utf-8"))
    for name in ("events.jsonl", "processed.jsonl"):
        path = session / name
        if path.exists():
            for line in path.read_text("utf-8").splitlines():
                json.loads(line)
    if not finished:
        return
    leftovers = [p.name for p in session.rglob("*") if p.name.endswith(".tmp") or p.name.startswith(".tmp-")]
    assert not leftovers, leftovers


def last_line(stderr: str) -> str:
    assert "Traceback" not in stderr, stderr
    return stderr.strip().splitlines()[-1]

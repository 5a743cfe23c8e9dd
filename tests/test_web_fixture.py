"""The local web fixture itself: script mode (for e2e subprocess tests) and its search."""

from __future__ import annotations

import subprocess
import sys
import time
from pathlib import Path

import httpx

from fixtures.web_fixture import FUJI_EN, FUJI_JA, LANGGRAPH_EN, LANGGRAPH_JA, WebFixture

SCRIPT = Path(__file__).parent / "fixtures" / "web_fixture.py"


def test_script_mode_prints_its_base_url_and_serves() -> None:
    process = subprocess.Popen([sys.executable, str(SCRIPT), "--port", "0"], stdout=subprocess.PIPE, text=True)
    try:
        base_url = process.stdout.readline().strip()
        assert base_url.startswith("http://127.0.0.1:")
        answer = httpx.get(base_url + "/search", params={"q": "LangGraph checkpoints", "format": "json"}).json()
        assert answer["query"] == "LangGraph checkpoints"
        assert {"url", "title", "content", "engine"} <= set(answer["results"][0])
    finally:
        process.terminate()
        process.wait(timeout=10)


def test_search_ranks_by_language_aware_overlap_and_logs_requests() -> None:
    with WebFixture() as web:
        def top(query: str) -> list[str]:
            found = httpx.get(web.url("/search"), params={"q": query, "format": "json"}).json()["results"]
            return [row["url"].removeprefix(web.base_url) for row in found]

        assert LANGGRAPH_JA.path in top("LangGraphのチェックポイント")[:2]
        assert top("LangGraph checkpoints thread_id")[:3].count(LANGGRAPH_EN.path) == 1
        assert FUJI_JA.path in top("富士山の最後の噴火は？") and FUJI_EN.path not in top("富士山の最後の噴火は？")[:1]
        assert FUJI_EN.path in top("Mount Fuji last eruption")[:2]
        assert top("zebra") == []
        assert httpx.get(web.url("/search"), params={"q": "x"}).status_code == 403  # html format refused
        web.set_latency("/en/*", 0.2)
        httpx.get(web.url(FUJI_EN.path))
        (record,) = web.requests_for(FUJI_EN.path)
        # The server finishes its record just after the client has the body: on a busy
        # machine (two test workers on two cores) the client can read it first.
        deadline = time.monotonic() + 5
        while record.end is None and time.monotonic() < deadline:
            time.sleep(0.01)
        assert record.status == 200 and record.end - record.start >= 0.2

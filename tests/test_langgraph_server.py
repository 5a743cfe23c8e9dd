"""The research graph under LangGraph Server: `langgraph dev` (langgraph-cli's in-memory
server) started from the repository's langgraph.json, one thread run through its HTTP API
against the fake Ollama and the local web, as LangGraph Studio or the SDK would."""

from __future__ import annotations

import json
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import httpx
import pytest
from research.state.steps import PLAIN_RUN

pytestmark = pytest.mark.e2e

ROOT = Path(__file__).resolve().parents[1]
LANGGRAPH = Path(sys.executable).with_name("langgraph")


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def test_langgraph_json_names_the_graph_factory():
    config = json.loads((ROOT / "langgraph.json").read_text("utf-8"))
    path, name = config["graphs"]["research"]["path"].split(":")
    assert (ROOT / path).is_file() and f"async def {name}(" in (ROOT / path).read_text("utf-8")
    # Studio shows the input as a JSON object: the description says which keys it takes, in both languages.
    description = config["graphs"]["research"]["description"]
    assert all(key in description for key in ("question", "language", "depth")) and "質問" in description


def test_langgraph_dev_runs_one_research_thread(research_env, tmp_path):
    if not LANGGRAPH.exists():
        pytest.skip("langgraph-cli[inmem] is not installed (pip install -e '.[test]')")
    port = _free_port()
    env = {**research_env, "LANGSMITH_TRACING": "false", "LANGGRAPH_CLI_NO_ANALYTICS": "1",
           "LANGSMITH_API_KEY": "", "RESEARCH_MAX_VERIFICATION_LOOPS": "1"}
    # The server writes its in-memory state under the working directory: a copy of the config,
    # not the repository, holds it.
    work = tmp_path / "app"
    work.mkdir()
    config = json.loads((ROOT / "langgraph.json").read_text("utf-8"))
    graph = config["graphs"]["research"]
    graph["path"] = str(ROOT / graph["path"].removeprefix("./"))
    config["http"]["app"] = str(ROOT / config["http"]["app"].removeprefix("./"))
    config["dependencies"] = [str(ROOT)]
    (work / "langgraph.json").write_text(json.dumps(config), "utf-8")
    log = (tmp_path / "server.log").open("w")
    server = subprocess.Popen([str(LANGGRAPH), "dev", "--no-browser", "--no-reload", "--allow-blocking",
                               "--port", str(port), "--config", str(work / "langgraph.json")],
                              cwd=work, env=env, stdout=log, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL,
                              start_new_session=True)
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 120
        while True:
            assert server.poll() is None, (tmp_path / "server.log").read_text("utf-8")[-3000:]
            try:
                if httpx.get(f"{base}/ok", timeout=2).status_code == 200:
                    break
            except httpx.TransportError:
                pass
            assert time.monotonic() < deadline, (tmp_path / "server.log").read_text("utf-8")[-3000:]
            time.sleep(0.3)
        with httpx.Client(base_url=base, timeout=300) as api:
            assistants = api.post("/assistants/search", json={"graph_id": "research"}).json()
            assert assistants and assistants[0]["graph_id"] == "research"
            thread = api.post("/threads", json={}).json()["thread_id"]
            final = api.post(f"/threads/{thread}/runs/wait", json={
                "assistant_id": "research",
                "input": {"question": "What is the height of Mount Fuji?", "language": "en"},
            })
            assert final.status_code == 200, final.text
            values = final.json()
            assert "__error__" not in values, values
            state = api.get(f"/threads/{thread}/state").json()
            # Every door that writes a thread's state from outside (issue 49 item 4) takes what an
            # input takes, each value checked, or nothing: another session's folder, a cached
            # file to parse, a jump past the session step are all refused before LangGraph sees them.
            victim = Path(research_env["RESEARCH_SESSIONS_DIR"]) / "session_20250101_000000_abcdef"
            (victim / "sources").mkdir(parents=True)
            (victim / "report.md").write_text("the victim's own report\n", "utf-8")
            hostile = {"session_id": "20250101_000000_abcdef", "session_dir": str(victim)}
            doors = [
                (f"/threads/{thread}/state", {"values": hostile, "as_node": "session"}, "session_dir, session_id"),
                (f"/threads/{thread}/state", {"values": {"search_results": [{"url": "https://x.example/",
                                                                            "cache_path": "/etc/passwd"}]}},
                 "search_results"),
                (f"/threads/{thread}/state", {"values": {"depth": "bottomless"}}, "'depth' cannot be bottomless"),
                (f"/threads/{thread}/state", {"values": [["session_id", "x"]]}, "must be an object"),
                ("/threads", {"supersteps": [{"updates": [{"values": hostile, "as_node": "session"}]}]},
                 "session_dir, session_id"),
                (f"/threads/{thread}/runs/wait", {"assistant_id": "research", "command": {"update": hostile}},
                 "session_dir, session_id"),
                (f"/threads/{thread}/runs/wait", {"assistant_id": "research",
                                                  "command": {"update": [["session_dir", str(victim)]]}},
                 "session_dir"),
                (f"/threads/{thread}/runs", {"assistant_id": "research", "command": {"goto": "research"}}, "goto"),
                ("/runs/batch", [{"assistant_id": "research", "command": {"update": hostile}}], "session_id"),
            ]
            threads_before = api.post("/threads/count", json={}).json()
            for path, body, named in doors:
                refused = api.post(path, json=body)
                assert refused.status_code == 422 and named in refused.json()["detail"], (path, refused.text)
            assert api.post("/threads/count", json={}).json() == threads_before
            # A2A messages carry a command of their own: that door is shut (the graph takes no messages).
            assert api.post("/a2a/research", json={"jsonrpc": "2.0", "id": 1, "method": "message/send",
                                                   "params": {}}).status_code == 404
            assert api.get(f"/threads/{thread}/state").json()["values"] == state["values"]
            assert sorted(p.name for p in victim.iterdir()) == ["report.md", "sources"]
            assert (victim / "report.md").read_text("utf-8") == "the victim's own report\n"
            # What a caller may set goes through, checked and cleaned as an input is.
            edited = api.post(f"/threads/{thread}/state", json={
                "values": {"question": "  How tall\x1b[2J is Mount Fuji?  ", "depth": "quick"}, "as_node": "research"})
            assert edited.status_code == 200, edited.text
            now = api.get(f"/threads/{thread}/state").json()["values"]
            assert now["question"] == "How tall [2J is Mount Fuji?" and now["depth"] == "quick"
            assert now["session_id"] == state["values"]["session_id"]
            described = api.post("/assistants/search", json={"graph_id": "research"}).json()[0]
        assert state["values"]["session_id"] == values["session_id"] and not state["next"]
        assert "question" in (described.get("description") or ""), described
        session = Path(values["session_dir"])
        assert session.parent == Path(research_env["RESEARCH_SESSIONS_DIR"]).resolve()
        assert Path(values["report_pdf"]).is_file()
        report = Path(values["report_md"]).read_text("utf-8")
        assert "Mount Fuji" in report and re.search(r"\[S\d+\]", report)
        assert values["verification"]["summary"]["claims"] >= 1
        meta = json.loads((session / "meta.json").read_text("utf-8"))
        assert meta["status"] == "done" and meta["origin"] == "langgraph"
        # The same steps as the CLI, each recorded in the session's events.
        events = [json.loads(line) for line in (session / "events.jsonl").read_text("utf-8").splitlines()]
        started = [e["node"] for e in events if e["event"] == "node_start"]
        assert started[:len(PLAIN_RUN) - 1] == list(PLAIN_RUN[:-1]) and started[-1] == "report"
    finally:
        os.killpg(server.pid, signal.SIGTERM)
        try:
            server.wait(20)
        except subprocess.TimeoutExpired:
            os.killpg(server.pid, signal.SIGKILL)
            server.wait(10)
        log.close()
        shutil.rmtree(work / ".langgraph_api", ignore_errors=True)

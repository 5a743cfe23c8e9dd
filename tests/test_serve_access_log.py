"""`research serve`'s access log (team/access_log.py; issue 49 item 6), read
from the stderr of the real console script on a real PostgreSQL: a line per request and
one per refusal, in English under --lang ja, as JSON with --log-format json, and never
the token or the question."""

from __future__ import annotations

import json
import re
import socket
import time
from urllib.parse import urlsplit

import httpx
import pytest

from fixtures.postgres import database_url, postgres_server  # noqa: F401 - pytest fixtures
from test_serve_http import serve_env, serving, token_add  # noqa: F401 - serve_env is a fixture

pytestmark = pytest.mark.e2e

SECRET_QUESTION = "Where does Ms. Kobayashi hide the spare key?"
INITIALIZE = {"jsonrpc": "2.0", "id": 1, "method": "initialize",
              "params": {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "t", "version": "0"}}}
MCP_HEADERS = {"Accept": "application/json, text/event-stream"}
TEXT_LINE = re.compile(r"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z (request|refused) client=127\.0\.0\.1:\d+ token=(\S+) "
                       r"method=(\S+) path=(\S+) status=(\S+) (.*)$")


def _wait_for(log: list[str], wanted: str, seconds: float = 15.0) -> None:
    deadline = time.monotonic() + seconds
    while not any(wanted in line for line in log):
        assert time.monotonic() < deadline, f"{wanted!r} never logged:\n" + "".join(log)
        time.sleep(0.1)


def test_every_request_and_every_refusal_is_one_english_line(serve_env) -> None:
    alice = token_add(serve_env, "alice")
    log: list[str] = []
    with serving(serve_env, workers=0, log=log, args=("--lang", "ja")) as url:
        host, port = urlsplit(url).hostname, urlsplit(url).port
        slow = socket.create_connection((host, port))  # sends half a head and then nothing
        slow.sendall(b"GET /api/sessions HTTP/1.1\r\nHost: x\r\n")
        base = url.removesuffix("/mcp")
        auth = {"Authorization": f"Bearer {alice}"}
        assert httpx.post(url, json=INITIALIZE, headers=MCP_HEADERS, timeout=30).status_code == 401
        assert httpx.post(url, json=INITIALIZE, headers={**MCP_HEADERS, "Authorization": "Bearer rsk_nope"},
                          timeout=30).status_code == 401
        listed = httpx.get(base + "/api/sessions?limit=5", headers=auth, timeout=30)
        assert listed.status_code == 200
        # The question travels in the body, which is never logged.
        call = {"jsonrpc": "2.0", "id": 2, "method": "tools/call",
                "params": {"name": "research", "arguments": {"question": SECRET_QUESTION}}}
        httpx.post(url, json=call, headers={**MCP_HEADERS, **auth}, timeout=30)
        too_big = httpx.post(url, content=b"x" * (5 * 1024 * 1024), timeout=30,
                             headers={**MCP_HEADERS, **auth, "Content-Type": "application/json"})
        assert too_big.status_code == 413
        with socket.create_connection((host, port)) as huge:  # a 40 KB head, sent at once
            huge.sendall(b"GET / HTTP/1.1\r\nHost: x\r\nX-Pad: " + b"a" * 40_000 + b"\r\n\r\n")
            assert huge.recv(100).startswith(b"HTTP/1.1 431")
        with socket.create_connection((host, port)) as garbled:
            garbled.sendall(b"NOT HTTP AT ALL\r\n\r\n")
            assert garbled.recv(100).startswith(b"HTTP/1.1 400")
        opened = [httpx.post(url, json=INITIALIZE, headers={**MCP_HEADERS, **auth}, timeout=30).status_code
                  for _ in range(33)]
        assert opened[:32] == [200] * 32 and opened[32] == 503
        _wait_for(log, "request head not sent within 10 s")  # the server's 10-second head timeout
        slow.close()
        _wait_for(log, "open sessions for this token")

    access = [line.rstrip("\n") for line in log if re.match(r"^\d{4}-\d\d-\d\dT", line)]
    assert access, "".join(log)
    for line in access:
        assert TEXT_LINE.match(line), line
        assert not re.search(r"[\u3040-\u30ff\u4e00-\u9fff]", line), line  # English under --lang ja
    text = "\n".join(log)
    assert alice not in text and "rsk_nope" not in text and SECRET_QUESTION not in text and "limit=5" not in text

    def lines(event: str, **fields: str) -> list[str]:
        return [line for line in access if f" {event} " in line
                and all(f" {name}={value}" in line for name, value in fields.items())]

    # One line per request: who (the token's name), what, the answer, its size and time.
    ok = lines("request", token="alice", method="GET", path="/api/sessions", status="200")
    assert len(ok) == 1 and re.search(r" bytes=[1-9]\d* ms=\d+$", ok[0]), ok
    assert len(lines("request", token="-", method="POST", path="/mcp", status="401")) == 1
    assert len(lines("request", token="invalid", method="POST", path="/mcp", status="401")) == 1
    assert len(lines("request", token="alice", method="POST", path="/mcp", status="200")) >= 32
    # And one more per refusal, saying why.
    assert len(lines("refused", token="-", status="401", reason='"missing token"')) == 1
    assert len(lines("refused", token="invalid", status="401", reason='"bad token"')) == 1
    assert len(lines("refused", token="alice", status="413", reason='"request body over the size limit"')) == 1
    assert len(lines("refused", token="alice", status="503",
                     reason='"over the cap of 32 open sessions for this token"')) == 1
    assert len(lines("refused", method="-", status="431", reason='"request head over 16 KiB; connection closed"')) == 1
    assert len(lines("refused", method="-", status="400", reason='"malformed request head"')) == 1
    assert len(lines("refused", method="-", path="-",
                     reason='"request head not sent within 10 s; connection closed"')) == 1


def test_log_format_json_is_one_object_a_line(serve_env) -> None:
    bob = token_add(serve_env, "bob")
    log: list[str] = []
    with serving(serve_env, workers=0, log=log, args=("--log-format", "json")) as url:
        base = url.removesuffix("/mcp")
        assert httpx.get(base + "/api/sessions", headers={"Authorization": f"Bearer {bob}"}, timeout=30).status_code == 200
        assert httpx.get(base + "/api/runs/7", timeout=30).status_code == 401
        _wait_for(log, '"event": "refused"')
    objects = [json.loads(line) for line in log if line.startswith("{")]
    assert [(o["event"], o["token"], o["path"], o["status"]) for o in objects] == [
        ("request", "bob", "/api/sessions", 200), ("request", "-", "/api/runs/7", 401),
        ("refused", "-", "/api/runs/7", 401)]
    first = objects[0]
    assert set(first) == {"time", "event", "client", "token", "method", "path", "status", "bytes", "ms"}
    assert first["method"] == "GET" and first["client"].startswith("127.0.0.1:") and first["bytes"] > 0
    assert objects[2]["reason"] == "missing token"
    assert bob not in "".join(log)

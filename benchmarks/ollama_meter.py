"""A counting pass-through in front of a real Ollama-compatible server.

Both programs of a side-by-side run talk to this proxy instead of the model server; it
forwards every request unchanged (streamed replies chunk by chunk as they come) and reads
the server's own counts from each generation's final object: ``prompt_eval_count`` (the
prompt tokens the server evaluated, so a prefix its cache served is not in it),
``eval_count`` (tokens written), the durations and ``done_reason``. Counts are tallied
under ``label``, set between runs, like the neutral fake's (benchmarks/neutral_ollama.py).

    with OllamaMeter("http://127.0.0.1:11500") as meter:
        meter.label = "ours-0"
        ...  # point the program at meter.url
        meter.stats("ours-0")  # {"calls", "prompt_tokens", "completion_tokens", "model_s", ...}
"""

from __future__ import annotations

import http.client
import json
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any
from urllib.parse import urlsplit

_GENERATION = ("/api/chat", "/api/generate")


def _empty() -> dict[str, Any]:
    return {"calls": 0, "prompt_tokens": 0, "completion_tokens": 0, "model_s": 0.0, "prompt_s": 0.0,
            "length_stops": 0, "by_format": {}, "largest_reply_tokens": 0}


class OllamaMeter:
    def __init__(self, upstream: str, port: int = 0) -> None:
        parts = urlsplit(upstream)
        self.upstream_host, self.upstream_port = parts.hostname or "127.0.0.1", parts.port or 11434
        self.label = "default"
        self._stats: dict[str, dict[str, Any]] = {}
        self._lock = threading.Lock()
        self._server = ThreadingHTTPServer(("127.0.0.1", port), _handler(self))
        self._server.daemon_threads = True
        self.url = f"http://127.0.0.1:{self._server.server_address[1]}"
        self._thread = threading.Thread(target=self._server.serve_forever, daemon=True)

    def __enter__(self) -> "OllamaMeter":
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._server.shutdown()
        self._server.server_close()

    def stats(self, label: str) -> dict[str, Any]:
        with self._lock:
            return json.loads(json.dumps(self._stats.get(label, _empty())))

    def record(self, final: dict[str, Any], kind: str, seconds: float) -> None:
        with self._lock:
            tally = self._stats.setdefault(self.label, _empty())
            tally["calls"] += 1
            tally["prompt_tokens"] += int(final.get("prompt_eval_count") or 0)
            written = int(final.get("eval_count") or 0)
            tally["completion_tokens"] += written
            tally["largest_reply_tokens"] = max(tally["largest_reply_tokens"], written)
            tally["model_s"] = round(tally["model_s"] + seconds, 3)
            tally["prompt_s"] = round(tally["prompt_s"] + (final.get("prompt_eval_duration") or 0) / 1e9, 3)
            tally["length_stops"] += final.get("done_reason") == "length"
            tally["by_format"][kind] = tally["by_format"].get(kind, 0) + 1


def _kind(body: dict[str, Any]) -> str:
    fmt = body.get("format")
    if isinstance(fmt, dict):
        return f"schema:{fmt.get('title') or 'untitled'}"
    return "json" if fmt == "json" else "text"


def _handler(meter: OllamaMeter) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def log_message(self, *args: object) -> None:
            pass

        def _forward(self, method: str) -> None:
            length = int(self.headers.get("Content-Length") or 0)
            raw = self.rfile.read(length) if length else b""
            path = self.path.split("?")[0].rstrip("/")
            try:
                body = json.loads(raw or b"{}")
            except ValueError:
                body = {}
            upstream = http.client.HTTPConnection(meter.upstream_host, meter.upstream_port, timeout=3600)
            started = time.perf_counter()
            headers = {"Content-Type": self.headers.get("Content-Type") or "application/json"}
            upstream.request(method, self.path, body=raw or None, headers=headers)
            response = upstream.getresponse()
            streamed = "ndjson" in (response.getheader("Content-Type") or "")
            self.send_response(response.status)
            self.send_header("Content-Type", response.getheader("Content-Type") or "application/json")
            final: dict[str, Any] | None = None
            if streamed:
                self.send_header("Transfer-Encoding", "chunked")
                self.end_headers()
                while line := response.readline():
                    self.wfile.write(f"{len(line):x}\r\n".encode() + line + b"\r\n")
                    self.wfile.flush()
                    try:
                        item = json.loads(line)
                    except ValueError:
                        continue
                    if item.get("done"):
                        final = item
                self.wfile.write(b"0\r\n\r\n")
            else:
                data = response.read()
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)
                try:
                    item = json.loads(data)
                    final = item if isinstance(item, dict) and item.get("done") else None
                except ValueError:
                    pass
            upstream.close()
            if path in _GENERATION and final is not None:
                meter.record(final, _kind(body), time.perf_counter() - started)

        def do_GET(self) -> None:
            self._forward("GET")

        def do_HEAD(self) -> None:
            self._forward("HEAD")

        def do_POST(self) -> None:
            self._forward("POST")

    return Handler

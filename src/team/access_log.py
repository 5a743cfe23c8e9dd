"""`research serve`'s access log: who knocked, what they asked for, what they got.

One line per request (time, client, token name, method, path, status, bytes, ms) and one
more per refusal (a missing or bad token, a cap reached, a request head too slow or too
big, a body too big), on stderr, whatever RESEARCH_LOG_LEVEL says: an operator reads
it, or a collector does (``--log-format json``: one JSON object a line). It is written in
English whatever ``--lang`` is, so one grep or one parser serves every server.

Never logged: the token (its name stands for who), the query string, a header or a body
(the question is in the body). The path is cut at 200 characters and, like every field,
has no control character left in it.
"""

from __future__ import annotations

import json
import logging
import sys
import time
from datetime import datetime, timezone
from typing import Any, TextIO

from research.modules.core.grammar import strip_controls
from research.team.tokens import TokenStore

LOGGER = "research.serve.access"
LOG_FORMATS = ("text", "json")
_PATH_LIMIT = 200
# A component that refuses a request says why here (the ASGI scope is shared down the stack).
REFUSAL_KEY = "research.refused"


class AccessLog:
    """Writes the lines. ``fmt``: "text" (``key=value``) or "json"."""

    def __init__(self, fmt: str = "text", stream: TextIO | None = None) -> None:
        self.fmt = fmt
        self.logger = logging.getLogger(LOGGER)
        self.logger.setLevel(logging.INFO)
        self.logger.propagate = False  # not subject to the program's level, nor written twice
        for old in list(self.logger.handlers):
            self.logger.removeHandler(old)
        handler = logging.StreamHandler(stream or sys.stderr)
        handler.setFormatter(logging.Formatter("%(message)s"))
        self.logger.addHandler(handler)

    def request(self, **fields: object) -> None:
        self._write("request", fields)

    def refused(self, **fields: object) -> None:
        self._write("refused", fields)

    def _write(self, event: str, fields: dict[str, object]) -> None:
        stamp = datetime.now(timezone.utc).isoformat(timespec="milliseconds").replace("+00:00", "Z")
        clean = {name: strip_controls(value, keep_newlines=False) if isinstance(value, str) else value
                 for name, value in fields.items()}
        if self.fmt == "json":
            self.logger.info(json.dumps({"time": stamp, "event": event, **clean}, ensure_ascii=False))
            return
        words = " ".join(f"{name}={_text_value(value)}" for name, value in clean.items())
        self.logger.info(f"{stamp} {event} {words}")


def _text_value(value: Any) -> str:
    text = "-" if value is None else str(value)
    return json.dumps(text, ensure_ascii=False) if (not text or any(c in text for c in ' "=\\')) else text


def _client(scope_client: Any) -> str:
    if not scope_client:
        return "-"
    host, port = scope_client[0], scope_client[1]
    return f"[{host}]:{port}" if ":" in str(host) else f"{host}:{port}"


class AccessLogMiddleware:
    """The outermost ASGI layer: times each HTTP request, counts the bytes sent, and logs it;
    a 401, a 413 or a refusal a layer below named (``REFUSAL_KEY``) is logged again as such."""

    def __init__(self, app: Any, log: AccessLog, store: TokenStore) -> None:
        self.app, self.log, self.store = app, log, store

    def _token_name(self, headers: dict[bytes, bytes]) -> tuple[str, str | None]:
        """(the token's name, or "-" without one, "invalid" for a bad one; why it is refused)"""
        value = headers.get(b"authorization")
        if value is None:
            return "-", "missing token"
        scheme, _, token = value.decode("latin-1").partition(" ")
        entry = self.store.verify(token.strip()) if scheme.lower() == "bearer" else None
        return (entry.name, None) if entry else ("invalid", "bad token")

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        started = time.monotonic()
        token, token_problem = self._token_name(dict(scope.get("headers") or []))
        status: list[int] = []
        sent = 0

        async def counting(message: Any) -> None:
            nonlocal sent
            if message["type"] == "http.response.start":
                status.append(message["status"])
            elif message["type"] == "http.response.body":
                sent += len(message.get("body", b""))
            await send(message)

        try:
            await self.app(scope, receive, counting)
        finally:
            fields = {"client": _client(scope.get("client")), "token": token, "method": scope.get("method", "-"),
                      "path": scope.get("path", "")[:_PATH_LIMIT]}
            code = status[0] if status else None
            self.log.request(**fields, status=code, bytes=sent, ms=round((time.monotonic() - started) * 1000))
            reason = scope.get(REFUSAL_KEY)
            if reason is None and code == 401:
                reason = token_problem or "bad token"
            elif reason is None and code == 413:
                reason = "request body over the size limit"
            if reason is not None:
                self.log.refused(**fields, status=code, reason=reason)


def connection_refused(log: AccessLog | None, client: Any, reason: str, status: int | None = None) -> None:
    """A refusal before any request reached the app (a head too slow or too big): no
    method, path or token is known, only who."""
    if log is not None:
        log.refused(client=_client(client), token="-", method="-", path="-", status=status, reason=reason)

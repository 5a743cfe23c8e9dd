"""`research "…"` with RESEARCH_SERVER=http://…: the question goes to a `research serve`.

The run is queued there and run by one of its workers; each step's progress comes back
as an MCP progress notification and is shown on stderr as a local run shows it, then the
checked answer goes to stdout (``--json``: the result object). The bearer token comes
from RESEARCH_SERVER_TOKEN. Exit codes as for a local run: 0 done, 4 no evidence, 2 a
usage problem (no token, refused token), 1 anything else.

The server's text is untrusted like a page (it may be hostile, or a plain-HTTP answer
rewritten on the way): its progress, answer, errors and the ``--json`` object pass the one
sanitiser (``modules/text/sanitize``) before they are printed or handed to the REPL; each
HTTP response is read no further than ``MAX_RESPONSE_BYTES`` (a larger one is one line,
exit 1); stdout that cannot be written (``> /dev/full``, a closed pipe) is one line and
exit 1, as for a local run.
"""

from __future__ import annotations

import json
import logging
import os
import sys
from dataclasses import dataclass, field
from typing import Any

import httpx2
from research.modules.core.errors import (
    EXIT_FAILURE,
    EXIT_NO_EVIDENCE,
    EXIT_OK,
    EXIT_USAGE,
)
from research.modules.core.i18n import t
from research.modules.core.settings import Settings
from research.modules.text.sanitize import clean_data, one_line, safe_markdown

# The most one HTTP response from the server may carry: the result and the run's progress
# notifications (a deep run's result is some 100 KB). A larger one is refused as it arrives,
# never held whole.
MAX_RESPONSE_BYTES = 8 * 1024 * 1024
# A progress line or an error, as shown: one line of at most this many characters.
MAX_LINE_CHARS = 2_000


@dataclass(frozen=True)
class RemoteRun:
    """What a run on the server came to, returned to the caller (the REPL follows its session)."""

    exit_code: int  # as a local run's
    output: dict[str, Any] = field(default_factory=dict)  # the research tool's result object, when it gave one


async def run_remote(question: str, settings: Settings, lang: str, *, as_json: bool, resume: str | None,
                     parent: str | None = None) -> RemoteRun:
    """Submit one question (or a resume) and stream it; ``parent``: the session this question
    follows up (the REPL's conversation)."""
    from mcp import Client
    from mcp.client.streamable_http import streamable_http_client

    token = os.environ.get("RESEARCH_SERVER_TOKEN", "").strip()
    if not token:
        sys.stderr.write("research: " + t("serve.client_no_token", lang) + "\n")
        return RemoteRun(EXIT_USAGE)
    url = settings.server if settings.server.endswith("/mcp") else settings.server + "/mcp"

    async def on_progress(value: float, total: float | None, message: str | None) -> None:
        line = one_line(message or "", MAX_LINE_CHARS)
        if line:
            _say(line)

    arguments: dict[str, Any] = {"question": question, "lang": settings.language}
    if resume:
        arguments["resume"] = resume
    elif parent:
        arguments["parent"] = parent
    for name in ("depth", "max_sources", "max_llm_tokens", "max_seconds"):
        value = getattr(settings, name)
        if value is not None and (name != "depth" or value != "standard"):
            arguments[name] = value
    # The SDK logs the response it gave up on with a traceback; the user gets one line (below).
    logging.getLogger("mcp").addHandler(logging.NullHandler())
    bounded = _BoundedTransport(MAX_RESPONSE_BYTES)
    http = _http_client(token, bounded)
    # The MCP client reports a refused request as a generic error; the status says why.
    statuses: list[int] = []

    async def remember(response: Any) -> None:
        statuses.append(response.status_code)

    http.event_hooks = {"request": [], "response": [remember]}
    try:
        async with Client(streamable_http_client(url, http_client=http, max_sse_event_size=MAX_RESPONSE_BYTES)) as client:
            result = await client.call_tool("research", arguments, progress_callback=on_progress)
    except Exception as exc:  # noqa: BLE001 - a refused token or a server that is down: one line
        if bounded.exceeded:
            _say("research: " + t("serve.client_too_large", lang, url=url, limit=MAX_RESPONSE_BYTES // (1024 * 1024)))
            return RemoteRun(EXIT_FAILURE)
        if 401 in statuses:
            _say("research: " + t("serve.client_refused", lang, url=url))
            return RemoteRun(EXIT_USAGE)
        _say("research: " + t("serve.client_unreachable", lang, url=url, reason=one_line(_reason(exc), 200)))
        return RemoteRun(EXIT_FAILURE)
    text = result.content[0].text if result.content and isinstance(getattr(result.content[0], "text", None), str) else ""
    if result.is_error:
        _say("research: " + one_line(text, MAX_LINE_CHARS))
        return RemoteRun(EXIT_FAILURE)
    raw = result.structured_content
    output = clean_data(raw) if isinstance(raw, dict) else {}
    shown = json.dumps(output, ensure_ascii=False) if as_json else safe_markdown(text).rstrip("\n")
    try:
        sys.stdout.write(shown + "\n")
        sys.stdout.flush()
    except OSError as exc:  # `> /dev/full`, `| head -c 20`: one line, exit 1, never a traceback
        from research.cli.main import _stdout_failed  # the local run's own handling

        _stdout_failed(exc, lang)
        return RemoteRun(EXIT_FAILURE, output)
    return RemoteRun(EXIT_NO_EVIDENCE if output.get("no_evidence") else EXIT_OK, output)


def _say(line: str) -> None:
    """One line on stderr; a stderr that cannot be written loses it, never the run's result."""
    try:
        sys.stderr.write(line + "\n")
        sys.stderr.flush()
    except (OSError, ValueError):
        pass


def _reason(exc: BaseException) -> str:
    """The first line that says why, looking inside an exception group (the MCP client's task group)."""
    while isinstance(exc, BaseExceptionGroup) and exc.exceptions:
        exc = exc.exceptions[0]
    text = str(exc).strip()
    return text.splitlines()[0] if text else type(exc).__name__


def _http_client(token: str, transport: Any) -> Any:
    """The MCP SDK's HTTP client (its timeouts) over ``transport``."""
    from mcp.shared._httpx_utils import (
        MCP_DEFAULT_SSE_READ_TIMEOUT,
        MCP_DEFAULT_TIMEOUT,
    )

    return httpx2.AsyncClient(headers={"Authorization": f"Bearer {token}"}, transport=transport,
                              timeout=httpx2.Timeout(MCP_DEFAULT_TIMEOUT, read=MCP_DEFAULT_SSE_READ_TIMEOUT))


class _BoundedTransport(httpx2.AsyncBaseTransport):
    """An httpx transport whose responses end (with ``httpx2.StreamError``, which the MCP
    client turns into an error result) once they pass ``limit`` bytes; ``exceeded`` says so."""

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self.exceeded = False
        self._inner = httpx2.AsyncHTTPTransport()

    async def handle_async_request(self, request: Any) -> Any:
        response = await self._inner.handle_async_request(request)
        response.stream = _BoundedStream(response.stream, self)
        return response

    async def aclose(self) -> None:
        await self._inner.aclose()


class _BoundedStream(httpx2.AsyncByteStream):
    def __init__(self, stream: Any, owner: _BoundedTransport) -> None:
        self._stream = stream
        self._owner = owner

    async def __aiter__(self) -> Any:
        received = 0
        async for chunk in self._stream:
            received += len(chunk)
            if received > self._owner.limit:
                self._owner.exceeded = True
                raise httpx2.StreamError(f"the response passed {self._owner.limit} bytes")
            yield chunk

    async def aclose(self) -> None:
        await self._stream.aclose()

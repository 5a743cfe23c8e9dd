"""`research "…"` with RESEARCH_SERVER=http://…: the question goes to a `research serve`.

The run is queued there and run by one of its workers; each step's progress comes back
as an MCP progress notification and is shown on stderr as a local run shows it, then the
checked answer goes to stdout (``--json``: the result object). The bearer token comes
from RESEARCH_SERVER_TOKEN. Exit codes as for a local run: 0 done, 4 no evidence, 2 a
usage problem (no token, refused token), 1 anything else.
"""

from __future__ import annotations

import json
import os
import sys
from dataclasses import dataclass, field
from typing import Any

from research.modules.core.errors import EXIT_FAILURE, EXIT_NO_EVIDENCE, EXIT_OK, EXIT_USAGE
from research.modules.core.i18n import t
from research.modules.core.settings import Settings


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
    from mcp.shared._httpx_utils import create_mcp_http_client

    token = os.environ.get("RESEARCH_SERVER_TOKEN", "").strip()
    if not token:
        sys.stderr.write("research: " + t("serve.client_no_token", lang) + "\n")
        return RemoteRun(EXIT_USAGE)
    url = settings.server if settings.server.endswith("/mcp") else settings.server + "/mcp"

    async def on_progress(value: float, total: float | None, message: str | None) -> None:
        if message:
            sys.stderr.write(message + "\n")
            sys.stderr.flush()

    arguments: dict[str, Any] = {"question": question, "lang": settings.language}
    if resume:
        arguments["resume"] = resume
    elif parent:
        arguments["parent"] = parent
    for name in ("depth", "max_sources", "max_llm_tokens", "max_seconds"):
        value = getattr(settings, name)
        if value is not None and (name != "depth" or value != "standard"):
            arguments[name] = value
    http = create_mcp_http_client(headers={"Authorization": f"Bearer {token}"})
    # The MCP client reports a refused request as a generic error; the status says why.
    statuses: list[int] = []

    async def remember(response: Any) -> None:
        statuses.append(response.status_code)

    http.event_hooks = {"request": [], "response": [remember]}
    try:
        async with Client(streamable_http_client(url, http_client=http)) as client:
            result = await client.call_tool("research", arguments, progress_callback=on_progress)
    except Exception as exc:  # noqa: BLE001 - a refused token or a server that is down: one line
        if 401 in statuses:
            sys.stderr.write("research: " + t("serve.client_refused", lang, url=url) + "\n")
            return RemoteRun(EXIT_USAGE)
        reason = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
        sys.stderr.write("research: " + t("serve.client_unreachable", lang, url=url, reason=reason[:200]) + "\n")
        return RemoteRun(EXIT_FAILURE)
    text = result.content[0].text if result.content else ""
    if result.is_error:
        sys.stderr.write(f"research: {text.strip()}\n")
        return RemoteRun(EXIT_FAILURE)
    output = result.structured_content or {}
    if as_json:
        sys.stdout.write(json.dumps(output, ensure_ascii=False) + "\n")
    else:
        sys.stdout.write(text if text.endswith("\n") else text + "\n")
    sys.stdout.flush()
    return RemoteRun(EXIT_NO_EVIDENCE if output.get("no_evidence") else EXIT_OK, output)

"""`research "…"` with RESEARCH_SERVER=http://…: the question goes to a `research serve`.

The question is queued there through the MCP ``research`` tool (``detach``), which answers
at once with the run's number; the client keeps that number and follows the run through
the service's API (``/api/runs/N/events``): each stored progress event is shown by the
same ``ConsoleProgress`` a local run uses, so the lines and marks are a local run's. A
database blip or a restarted front is waited out with growing pauses (``RETRY_SECONDS``
in all), never reported as a failed run; past that, one line names the run and
``research attach N``, which follows it again (``attach``). At the end the report files
come back over the API into a local folder (``sessions_dir/from-server/session_<id>``),
and stdout, ``--json``, the closing line and ``-o`` are those of a local run. The bearer
token comes from RESEARCH_SERVER_TOKEN. Exit codes as for a local run: 0 done, 4 no
evidence, 2 a usage problem (no token, refused token, unknown run), 1 anything else.

A server that answers the whole run in the ``research`` call (one without ``detach``) is
still followed through that call's progress notifications.

The server's text is untrusted like a page (it may be hostile, or a plain-HTTP answer
rewritten on the way): its progress, answer, errors and the ``--json`` object pass the one
sanitiser (``modules/text/sanitize``) before they are printed or handed to the REPL; each
HTTP response is read no further than ``MAX_RESPONSE_BYTES`` (a larger one is one line,
exit 1); stdout that cannot be written (``> /dev/full``, a closed pipe) is one line and
exit 1, as for a local run.
"""

from __future__ import annotations

import asyncio
import json
import logging
import os
import sys
import time
import uuid
import zlib
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

import httpx2
from research.modules.core.errors import (
    EXIT_FAILURE,
    EXIT_NO_EVIDENCE,
    EXIT_OK,
    EXIT_USAGE,
)
from research.modules.core.i18n import t
from research.modules.core.language import Language, choose_language
from research.modules.core.run_options import remote_arguments
from research.modules.core.settings import Settings
from research.team.database import RunStatus
from research.team.queue import FINAL
from research.modules.core.grammar import strip_controls
from research.modules.text.sanitize import clean_data, one_line, safe_markdown
from rich.markup import escape

if TYPE_CHECKING:
    from pydantic import BaseModel

    from research.state.run_record import JsonObject, RunJson
    from research.team.api import RunStatusBody

Body = TypeVar("Body", bound="BaseModel")

# The most one HTTP response from the server may carry: the result and the run's progress
# notifications (a deep run's result is some 100 KB). A larger one is refused as it arrives,
# never held whole.
MAX_RESPONSE_BYTES = 8 * 1024 * 1024
# A progress line or an error, as shown: one line of at most this many characters.
MAX_LINE_CHARS = 2_000


# A blip (a database restart, a restarted front) is waited out this long in all, with pauses
# growing from RETRY_FIRST_PAUSE to RETRY_MAX_PAUSE, before the client gives up on following.
RETRY_SECONDS = 300.0
RETRY_FIRST_PAUSE, RETRY_MAX_PAUSE = 0.5, 10.0
EVENTS_WAIT_SECONDS = 10  # each events request waits this long on the server for something new
# Where the report files of server runs are put: under the sessions folder, apart from local sessions.
FROM_SERVER = "from-server"
REPORT_FILES = ("report.md", "report.pdf")


@dataclass(frozen=True)
class RemoteRun:
    """What a run on the server came to, returned to the caller (the REPL follows its session)."""

    exit_code: int  # as a local run's
    output: JsonObject = field(default_factory=dict)  # the research tool's result object, when it gave one


class _Refused(Exception):
    """The server refused the token (401)."""


class _Unknown(Exception):
    """The server knows no such run or session for this token (404)."""


class _TooLarge(Exception):
    """A response went over MAX_RESPONSE_BYTES."""


def server_base(settings: Settings) -> str:
    return settings.server.rstrip("/").removesuffix("/mcp")


def server_token(lang: Language) -> str | None:
    token = os.environ.get("RESEARCH_SERVER_TOKEN", "").strip()
    if not token:
        _say("research: " + t("serve.client_no_token", lang))
        return None
    return token


async def run_remote(question: str, settings: Settings, lang: Language, *, as_json: bool, resume: str | None,
                     parent: str | None = None, output: str | None = None) -> RemoteRun:
    """Submit one question (or a resume) and follow it; ``parent``: the session this question
    follows up (the REPL's conversation); ``output``: ``-o``, as for a local run."""
    from mcp import Client
    from mcp.client.streamable_http import streamable_http_client

    token = server_token(lang)
    if token is None:
        return RemoteRun(EXIT_USAGE)
    base = server_base(settings)
    url = base + "/mcp"
    legacy_lines: list[str] = []

    async def on_progress(progress: float, total: float | None, message: str | None) -> None:
        line = one_line(message or "", MAX_LINE_CHARS)
        if line:
            legacy_lines.append(line)
            _say(line)

    # The request's own key: asked again after an answer that never came, the server answers
    # with the run it queued the first time instead of queuing a second one.
    arguments: JsonObject = {"question": question, "lang": settings.language, "detach": True,
                             "submission": uuid.uuid4().hex}
    if resume:
        arguments["resume"] = resume
    elif parent:
        arguments["parent"] = parent
    arguments |= remote_arguments(settings)  # the run options the team's tool takes, as set here
    # The SDK logs the response it gave up on with a traceback; the user gets one line (below).
    logging.getLogger("mcp").addHandler(logging.NullHandler())
    pause, started, told = RETRY_FIRST_PAUSE, time.monotonic(), False
    while True:
        bounded = _BoundedTransport(MAX_RESPONSE_BYTES)
        http = _http_client(token, bounded)
        # The MCP client reports a refused request as a generic error; the status says why.
        statuses: list[int] = []
        http.event_hooks = {"request": [], "response": [_status_recorder(statuses)]}
        try:
            async with Client(streamable_http_client(url, http_client=http,
                                                     max_sse_event_size=MAX_RESPONSE_BYTES)) as client:
                result = await client.call_tool("research", arguments, progress_callback=on_progress)
            break
        except Exception as exc:  # noqa: BLE001 - a refused token or a server that is down: one line
            if bounded.exceeded:
                _say("research: " + t("serve.client_too_large", lang, url=url,
                                      limit=MAX_RESPONSE_BYTES // (1024 * 1024)))
                return RemoteRun(EXIT_FAILURE)
            if 401 in statuses:
                _say("research: " + t("serve.client_refused", lang, url=url))
                return RemoteRun(EXIT_USAGE)
            # Lost on the way (the front restarting, a proxy's 502/503, a connection cut before
            # the answer): asked again with the same key, so nothing is queued twice. Anything
            # else (a 4xx, a server too old to follow) is one line.
            lost = _transport_failed(exc) or bool(statuses and statuses[-1] >= 500)
            if not lost or legacy_lines or time.monotonic() - started > RETRY_SECONDS:
                _say("research: " + t("serve.client_unreachable", lang, url=url, reason=one_line(_reason(exc), 200)))
                return RemoteRun(EXIT_FAILURE)
            if not told:
                told = True
                _say(t("remote.submit_retrying", lang, reason=one_line(_reason(exc), 200), seconds=f"{pause:g}"))
            await asyncio.sleep(pause)
            pause = min(pause * 2, RETRY_MAX_PAUSE)
    from mcp_types import TextContent

    first = result.content[0] if result.content else None
    text = first.text if isinstance(first, TextContent) else ""
    if result.is_error:
        _say("research: " + one_line(text, MAX_LINE_CHARS))
        return RemoteRun(EXIT_FAILURE)
    raw = result.structured_content
    answered = clean_data(raw) if isinstance(raw, dict) else {}
    run_id = answered.get("run_id")
    if isinstance(run_id, int) and run_id > 0 and answered.get("status") == "queued":
        remember_run(settings, run_id)  # before it is said: a client killed right after still left it
        _say(t("remote.queued_here", lang, run_id=run_id))
        return await follow_run(run_id, settings, lang, token, as_json=as_json, output=output)
    return _print_legacy(answered, text, lang, as_json)


def _status_recorder(statuses: list[int]) -> Any:
    async def remember(response: Any) -> None:
        statuses.append(response.status_code)

    return remember


def _print_legacy(output: JsonObject, text: str, lang: Language, as_json: bool) -> RemoteRun:
    """A server that answered the whole run in the call: its result as it sent it, cleaned."""
    shown = json.dumps(output, ensure_ascii=False) if as_json else safe_markdown(text).rstrip("\n")
    try:
        sys.stdout.write(shown + "\n")
        sys.stdout.flush()
    except OSError as exc:  # `> /dev/full`, `| head -c 20`: one line, exit 1, never a traceback
        from research.cli.arguments import stdout_failed  # the local run's own handling

        stdout_failed(exc, lang)
        return RemoteRun(EXIT_FAILURE, output)
    return RemoteRun(EXIT_NO_EVIDENCE if output.get("no_evidence") else EXIT_OK, output)


def _transport_failed(exc: BaseException | None) -> bool:
    """True when no HTTP answer came: no connection, or one cut before the answer (the MCP
    client wraps these in exception groups and its own errors)."""
    for _ in range(10):
        while isinstance(exc, BaseExceptionGroup) and exc.exceptions:
            exc = exc.exceptions[0]
        if exc is None:
            return False
        if isinstance(exc, (httpx2.TransportError, ConnectionError)):
            return True
        exc = exc.__cause__ or exc.__context__
    return False


def _state_file() -> Path:
    root = os.environ.get("XDG_STATE_HOME") or str(Path.home() / ".local" / "state")
    return Path(root) / "research" / "last_run.json"


def remember_run(settings: Settings, run_id: int) -> None:
    """The last run submitted from here, so `research attach` with no number follows it."""
    from research.modules.core.files import atomic_write

    try:
        atomic_write(_state_file(), json.dumps({"server": server_base(settings), "run_id": run_id}).encode("utf-8"))
    except OSError:
        pass  # the number was printed; attach takes it as an argument too


def last_run(settings: Settings) -> int | None:
    try:
        data = json.loads(_state_file().read_text("utf-8"))
    except (OSError, ValueError):
        return None
    if isinstance(data, dict) and data.get("server") == server_base(settings) and isinstance(data.get("run_id"), int):
        run_id: int = data["run_id"]
        return run_id
    return None


def _run_named(command: str, run_ref: str | None, settings: Settings, lang: Language) -> int | None:
    """The run `research COMMAND [RUN]` means (default: the last one submitted from here), or
    None once it has said why there is none."""
    if not settings.server:
        _say("research: " + t("remote.needs_server", lang, command=command))
        return None
    if run_ref is None:
        run_id = last_run(settings)
        if run_id is None:
            _say("research: " + t("remote.no_last_run", lang, command=command))
        return run_id
    try:
        run_id = int(run_ref.strip().lstrip("#"))
    except ValueError:
        run_id = 0
    if run_id < 1:
        _say("research: " + t("remote.bad_run_id", lang, command=command))
        return None
    return run_id


async def attach(run_ref: str | None, settings: Settings, lang: Language, *, as_json: bool, output: str | None) -> int:
    """`research attach [RUN]`: follow a run of this token's again, to its answer."""
    run_id = _run_named("attach", run_ref, settings, lang)
    token = server_token(lang) if run_id is not None else None
    if run_id is None or token is None:
        return EXIT_USAGE
    _say(t("remote.following", lang, run_id=run_id))
    return (await follow_run(run_id, settings, lang, token, as_json=as_json, output=output)).exit_code


async def cancel(run_ref: str | None, settings: Settings, lang: Language, *, as_json: bool) -> int:
    """`research cancel [RUN]`: cancel a run of this token's. Exit 0 when it was cancelled, 1
    when it had already ended, 2 when there is no such run of this token's."""
    from research.servers.research.results import CancelOutput

    run_id = _run_named("cancel", run_ref, settings, lang)
    token = server_token(lang) if run_id is not None else None
    if run_id is None or token is None:
        return EXIT_USAGE
    api = ServerApi(settings, token, lang)
    try:
        outcome = await api.json(f"/api/runs/{run_id}/cancel", CancelOutput, method="POST")
    except _Refused:
        _say("research: " + t("serve.client_refused", lang, url=api.base + "/mcp"))
        return EXIT_USAGE
    except _Unknown:
        _say("research: " + t("remote.unknown_run", lang, run_id=run_id))
        return EXIT_USAGE
    except (_Lost, _TooLarge, ValueError) as lost:  # ValueError: pydantic's, an answer of another shape
        _say("research: " + t("serve.client_unreachable", lang, url=api.base, reason=one_line(str(lost), 200)))
        return EXIT_FAILURE
    finally:
        await api.aclose()
    if as_json:
        print(json.dumps(outcome.model_dump(mode="json"), ensure_ascii=False))
    _say(("" if outcome.cancelled else "research: ") + one_line(outcome.text(lang), MAX_LINE_CHARS))
    return EXIT_OK if outcome.cancelled else EXIT_FAILURE


class ServerApi:
    """The service's ``/api``: JSON and files, each request bounded in size, a blip retried."""

    def __init__(self, settings: Settings, token: str, lang: Language, run_id: int | None = None) -> None:
        self.base = server_base(settings)
        self.lang = lang
        self.run_id = run_id
        self.bounded = _BoundedTransport(MAX_RESPONSE_BYTES)
        self.http = _http_client(token, self.bounded)

    async def aclose(self) -> None:
        await self.http.aclose()

    async def get(self, path: str, **params: int) -> Any:
        """The response to GET ``path`` (200), trying again through a blip; raises ``_Refused``,
        ``_Unknown``, ``_TooLarge``, or ``_Lost`` once ``RETRY_SECONDS`` have passed."""
        return await self.request("GET", path, params)

    async def request(self, method: str, path: str, params: dict[str, int] | None = None) -> Any:
        """As ``get``, for any method whose request may be sent twice (the API has no other)."""
        pause, started, told = RETRY_FIRST_PAUSE, time.monotonic(), False
        while True:
            try:
                response = await self.http.request(method, self.base + path, params=params or None)
                await response.aread()
            except httpx2.StreamError:
                if self.bounded.exceeded:
                    raise _TooLarge() from None
                reason = "stream"
            except httpx2.HTTPError as exc:
                reason = one_line(_reason(exc), 200) or type(exc).__name__
            else:
                if response.status_code == 200:
                    return response
                if response.status_code == 401:
                    raise _Refused()
                if response.status_code == 404:
                    raise _Unknown()
                if response.status_code < 500:
                    raise _Lost(f"HTTP {response.status_code}")
                # 503 is the service's own word that its database is away (a blip it waits out too).
                reason = (t("remote.reason_database", self.lang) if response.status_code == 503
                          else f"HTTP {response.status_code}")
            waited = time.monotonic() - started
            if waited > RETRY_SECONDS:
                raise _Lost(reason)
            if not told and self.run_id is not None:
                told = True
                _say(t("remote.server_retrying", self.lang, reason=reason, seconds=f"{pause:g}", run_id=self.run_id))
            await asyncio.sleep(pause)
            pause = min(pause * 2, RETRY_MAX_PAUSE)

    async def json(self, path: str, body: type[Body], method: str = "GET", **params: int) -> Body:
        """The answer to ``path``, read as the API's model of it (team/api.py); an answer of
        another shape is ``_Lost`` like one that is not JSON."""
        from pydantic import ValidationError

        response = await self.request(method, path, params)
        try:
            data = response.json()
        except ValueError as exc:
            raise _Lost(f"not JSON: {exc}") from None
        if not isinstance(data, dict):
            raise _Lost("not a JSON object")
        try:
            # The server's text is untrusted: no controls reach the terminal.
            return body.model_validate(clean_data(data))
        except ValidationError as exc:
            raise _Lost(f"not the API's answer: {one_line(str(exc), 200)}") from None


class _Lost(Exception):
    """The server did not answer usefully for RETRY_SECONDS (or answered something unreadable)."""


async def follow_run(run_id: int, settings: Settings, lang: Language, token: str, *, as_json: bool,
                     output: str | None) -> RemoteRun:
    """Follow run ``run_id`` to its end through the API and print it as a local run would."""
    from research.cli.progress import ConsoleProgress

    live = not as_json and _is_terminal(sys.stdout)
    progress = ConsoleProgress(lang, stream_answer=live)
    api = ServerApi(settings, token, lang, run_id)
    base = api.base
    try:
        try:
            row = await _follow_events(api, run_id, progress)
            if row.status != RunStatus.DONE:
                return _failed(row, choose_language(progress.lang, lang))
            result_json = row.result
            if result_json is None:
                raise _Lost("no result")
            folder = local_folder(settings, result_json.session_id or f"run-{run_id}")
            local = await _fetch_files(api, f"/api/runs/{run_id}/files", folder, choose_language(progress.lang, lang))
            if local is None:
                return RemoteRun(EXIT_FAILURE)
        except _Refused:
            _say("research: " + t("serve.client_refused", lang, url=base + "/mcp"))
            return RemoteRun(EXIT_USAGE)
        except _Unknown:
            _say("research: " + t("remote.unknown_run", lang, run_id=run_id))
            return RemoteRun(EXIT_USAGE)
        except _TooLarge:
            _say("research: " + t("serve.client_too_large", lang, url=base, limit=MAX_RESPONSE_BYTES // (1024 * 1024)))
            return RemoteRun(EXIT_FAILURE)
        except _Lost as lost:
            _say("research: " + t("remote.server_lost", lang, url=base, seconds=int(RETRY_SECONDS),
                                  reason=one_line(str(lost), 200), run_id=run_id))
            return RemoteRun(EXIT_FAILURE)
        except asyncio.CancelledError:
            # Ctrl-C or a signal stops the following, not the run: say how to pick it up again.
            progress.close()
            _say(t("remote.detached", progress.lang, run_id=run_id))
            raise
    finally:
        progress.close()
        await api.aclose()
    return _finish(result_json, folder, local, progress, as_json=as_json, output=output, live=live)


async def _follow_events(api: ServerApi, run_id: int, progress: Any) -> RunStatusBody:
    """Show each stored event as it comes, until the run is done or failed: its status row."""
    from research.state.progress_events import SessionStarted, from_wire
    from research.team.api import RunEvents, RunStatusBody

    after = 0
    while True:
        page = await api.json(f"/api/runs/{run_id}/events", RunEvents, after=after, wait=EVENTS_WAIT_SECONDS)
        for event in page.events:
            after = max(after, event.id)
            if event.event == "claimed":
                key = "serve.taken_over" if int(event.payload.get("claims") or 1) > 1 else "serve.started"
                progress.console.print(f"[dim]{escape(t(key, progress.lang, worker=one_line(event.worker, 200)))}[/dim]")
                continue
            said = from_wire(event.event, event.payload)
            if isinstance(said, SessionStarted):
                # The server's folder means nothing here (and must not be written to).
                said = SessionStarted(session_id=said.session_id, session_dir="", language=said.language)
            if said is not None:
                progress(said)
        if page.status in FINAL and not page.events:  # a cancelled run ends the following too
            return await api.json(f"/api/runs/{run_id}", RunStatusBody)


def _failed(row: RunStatusBody, lang: Language) -> RemoteRun:
    reason = (row.error or {}).get(lang) or ""
    message = (t("serve.run_cancelled", lang, run_id=row.run_id) if row.status == RunStatus.CANCELLED
               else t("remote.run_failed", lang, run_id=row.run_id, reason=one_line(reason, 500)))
    if row.session_id:
        message = t("mcp_research.resume_hint", lang, message=message, session_id=one_line(row.session_id, 80))
    _say("research: " + message)
    return RemoteRun(EXIT_FAILURE)


def local_folder(settings: Settings, session_id: str) -> Path:
    """Where a server session's report files are put here (its id made a safe folder name)."""
    safe = "".join(c for c in session_id if c.isalnum() or c in "-_")[:80] or "unknown"
    return Path(settings.sessions_dir).expanduser() / FROM_SERVER / f"session_{safe}"


async def _fetch_files(api: ServerApi, prefix: str, folder: Path, lang: Language,
                       names: tuple[str, ...] = REPORT_FILES) -> dict[str, Path] | None:
    """The report files written into ``folder``: their local paths; None (one line said) when the folder
    cannot be written."""
    from research.modules.core.files import atomic_write

    written: dict[str, Path] = {}
    for name in names:
        try:
            response = await api.get(f"{prefix}/{name}")
        except _Unknown:
            continue
        try:
            atomic_write(folder / name, response.content, mode=0o666 & ~_umask())
        except OSError as exc:
            _say("research: " + t("remote.files_failed", lang, path=str(folder), reason=exc.strerror or str(exc)))
            return None
        written[name] = folder / name
    return written


def _umask() -> int:
    current = os.umask(0o022)
    os.umask(current)
    return current


def _finish(result_json: RunJson, folder: Path, local: dict[str, Path], progress: Any, *, as_json: bool,
            output: str | None, live: bool) -> RemoteRun:
    """The end of a local run, from the server's result and the local copies of its files: the
    same run_output functions print the closing line and stdout and write -o; --json is the
    object the run's own machine would print (json_result there), with this machine's paths."""
    from research.cli.arguments import stdout_failed
    from research.cli.run_output import closing_lines, copy_outputs, final_stdout
    from research.state.run_record import RunOutcome

    # The keys as the server sent them (every key of RunJson), with this machine's paths.
    shown = {**result_json.model_dump(mode="json", exclude_unset=True), "session_dir": str(folder),
             "report_md": str(local["report.md"]) if "report.md" in local else "",
             "report_pdf": str(local["report.pdf"]) if "report.pdf" in local else ""}
    try:
        result = RunOutcome.read(shown)
    except (TypeError, ValueError) as exc:
        _say("research: " + t("remote.bad_answer", progress.lang, url="", reason=one_line(str(exc), 200)))
        return RemoteRun(EXIT_FAILURE, shown)
    for line in closing_lines(result, progress, ("report_md",) if live else ("report_md", "report_pdf")):
        progress.console.print(line, soft_wrap=True)
    if output:
        # The sources ledger stayed on the server: the JSON copy is the object --json prints.
        contents = {kind: local[name].read_bytes() for kind, name in (("md", "report.md"), ("pdf", "report.pdf"))
                    if name in local}
        contents["json"] = (json.dumps(shown, ensure_ascii=False, indent=2) + "\n").encode("utf-8")
        if copy_outputs(result, output, progress, contents=contents) != 0:
            return RemoteRun(EXIT_FAILURE, shown)
    text = json.dumps(shown, ensure_ascii=False) if as_json else final_stdout(result, progress, live)
    try:
        sys.stdout.write(text + "\n")
        sys.stdout.flush()
    except OSError as exc:
        stdout_failed(exc, progress.lang)
        return RemoteRun(EXIT_FAILURE, shown)
    return RemoteRun(result.exit_code, shown)


async def server_sessions(action: str, ref: str | None, settings: Settings, lang: Language, *, as_json: bool) -> int:
    """`research sessions list|show|open` with RESEARCH_SERVER: this token's sessions there, shown as
    local ones are (the same table, the same --json keys, the report itself; open: report.pdf
    fetched into the local folder a run's files go to, then the viewer). ``sources``: the
    REPL's /sources, the list its last run read (the server's session row carries it)."""
    from research.cli.listing import print_sessions_table, with_verdicts
    from research.team.api import SessionMeta, SessionRows

    token = server_token(lang)
    if token is None:
        return EXIT_USAGE
    api = ServerApi(settings, token, lang)
    base = api.base
    try:
        if action == "list":
            listing = await api.json("/api/sessions", SessionRows, limit=200)
            # As a local session's row: the keys the server sent.
            rows = [row.model_dump(mode="json", exclude_unset=True) for row in listing.sessions]
            if as_json:
                print(json.dumps([with_verdicts(row) for row in rows], ensure_ascii=False))
                return EXIT_OK
            _say(t("remote.sessions_where", lang, url=base))
            print_sessions_table(rows, lang)
            return EXIT_OK
        session_id = (ref or "").strip().removeprefix("session_")
        try:
            meta = await api.json(f"/api/sessions/{_quoted(session_id)}", SessionMeta)
        except _Unknown:
            _say("research: " + t("remote.unknown_session", lang, session_id=one_line(session_id, 80), url=base))
            return EXIT_USAGE
        if action == "sources":  # the REPL's /sources: what the session's last run read
            from rich.console import Console

            from research.cli.listing import print_source_list
            from research.state.run_record import sources_of

            print_source_list(Console(), session_id, sources_of(meta.source_list), lang)
            return EXIT_OK
        folder = local_folder(settings, session_id)
        prefix = f"/api/sessions/{_quoted(session_id)}/files"
        if action == "open":
            local = await _fetch_files(api, prefix, folder, lang, ("report.pdf",))
            if local is None:
                return EXIT_FAILURE
            if "report.pdf" not in local:
                _say(t("sessions.no_report", lang, session_id=session_id))
                return EXIT_USAGE
            from research.cli.viewer import open_in_viewer

            if not open_in_viewer(local["report.pdf"]):
                print(local["report.pdf"])
                _say(t("remote.no_viewer", lang))
            return EXIT_OK
        local = await _fetch_files(api, prefix, folder, lang, ("report.md", "progress.md"))
        if local is None:
            return EXIT_FAILURE
        if as_json:
            shown = {**meta.model_dump(mode="json", exclude_unset=True), "session_dir": str(folder),
                     "report_md": str(local["report.md"]) if "report.md" in local else None,
                     "progress_md": str(local["progress.md"]) if "progress.md" in local else None}
            print(json.dumps(with_verdicts(shown), ensure_ascii=False))
            return EXIT_OK
        name = "report.md" if "report.md" in local else "progress.md" if "progress.md" in local else None
        if name is None:
            _say("research: " + t("sessions.no_report", lang, session_id=session_id))
            return EXIT_USAGE
        if name == "progress.md":
            _say(t("terminal.progress_so_far", lang, session_id=session_id, status=one_line(meta.status, 40)))
        text = strip_controls(local[name].read_text("utf-8", errors="replace"))
        if not _is_terminal(sys.stdout):  # `sessions show ID > f`: the Markdown itself
            sys.stdout.write(text)
            return EXIT_OK
        from rich.console import Console
        from rich.markdown import Markdown

        Console().print(Markdown(text))
        return EXIT_OK
    except _Refused:
        _say("research: " + t("serve.client_refused", lang, url=base + "/mcp"))
        return EXIT_USAGE
    except _Unknown:
        _say("research: " + t("remote.unknown_session", lang, session_id=one_line(ref or "", 80), url=base))
        return EXIT_USAGE
    except _TooLarge:
        _say("research: " + t("serve.client_too_large", lang, url=base, limit=MAX_RESPONSE_BYTES // (1024 * 1024)))
        return EXIT_FAILURE
    except _Lost as lost:
        _say("research: " + t("serve.client_unreachable", lang, url=base, reason=one_line(str(lost), 200)))
        return EXIT_FAILURE
    finally:
        await api.aclose()


def _quoted(part: str) -> str:
    from urllib.parse import quote

    return quote(part, safe="")


def _is_terminal(stream: Any) -> bool:
    try:
        return stream.isatty() is True
    except (AttributeError, ValueError, OSError):
        return False


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


# The MCP SDK's own client timeouts, restated here because the SDK keeps them in a private
# module that an upgrade may move: 30 s to connect and send, 5 min between two reads of a
# stream (a run's progress arrives far more often than that).
_HTTP_TIMEOUT_S = 30.0
_STREAM_READ_TIMEOUT_S = 300.0


def _http_client(token: str, transport: Any) -> Any:
    """An HTTP client for the MCP SDK's Streamable HTTP transport, over ``transport``."""
    return httpx2.AsyncClient(headers={"Authorization": f"Bearer {token}"}, transport=transport,
                              timeout=httpx2.Timeout(_HTTP_TIMEOUT_S, read=_STREAM_READ_TIMEOUT_S))


class _BoundedTransport(httpx2.AsyncBaseTransport):
    """An httpx transport whose responses end (with ``httpx2.StreamError``, which the MCP
    client turns into an error result) once they pass ``limit`` bytes; ``exceeded`` says so."""

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self.exceeded = False
        self._inner = httpx2.AsyncHTTPTransport()

    async def handle_async_request(self, request: Any) -> Any:
        # The bound counts what the client will hold, so the body is asked for as it is: 8 MB of
        # gzip counted before httpx decodes it would be gigabytes after.
        request.headers["Accept-Encoding"] = "identity"
        response = await self._inner.handle_async_request(request)
        encoding = response.headers.get("content-encoding", "").strip().lower()
        if encoding and encoding != "identity":
            # Compressed anyway (a hostile or broken server): decoded here, where the bound
            # counts the decoded bytes, and httpx is left nothing to decode.
            del response.headers["content-encoding"]
        response.stream = _BoundedStream(response.stream, self, encoding)
        return response

    async def aclose(self) -> None:
        await self._inner.aclose()


class _BoundedStream(httpx2.AsyncByteStream):
    """A response body, decoded from gzip or deflate where it came so, ending once the bytes it
    gives pass the owner's limit. A body in any other coding cannot be bounded as it is decoded,
    so it counts as over the limit."""

    def __init__(self, stream: Any, owner: _BoundedTransport, encoding: str = "") -> None:
        self._stream = stream
        self._owner = owner
        self._encoding = encoding
        self._decoder = zlib.decompressobj(16 + zlib.MAX_WBITS) if encoding in ("gzip", "x-gzip") \
            else zlib.decompressobj() if encoding == "deflate" else None

    def _over(self) -> httpx2.StreamError:
        self._owner.exceeded = True
        return httpx2.StreamError(f"the response passed {self._owner.limit} bytes")

    async def __aiter__(self) -> Any:
        if self._encoding not in ("", "identity") and self._decoder is None:
            raise self._over()
        received = 0
        async for chunk in self._stream:
            if self._decoder is not None:
                try:
                    # Never more out of one chunk than the bound leaves, plus one byte to know it passed.
                    chunk = self._decoder.decompress(chunk, self._owner.limit - received + 1)
                except zlib.error as exc:
                    raise httpx2.StreamError(f"the response could not be decoded: {exc}") from None
            received += len(chunk)
            if received > self._owner.limit:
                raise self._over()
            yield chunk
        if self._decoder is not None:
            rest = self._decoder.flush()
            if received + len(rest) > self._owner.limit:
                raise self._over()
            if rest:
                yield rest

    async def aclose(self) -> None:
        await self._stream.aclose()

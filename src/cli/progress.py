"""Live progress on stderr (rich) and the streamed answer.

Progress never goes to stdout, so `research "…" --json | jq` and pipes stay clean.
A draft is not the answer: where a person watches (``stream_answer``), its progress shows
under the running step (how long, how many characters, its latest line) and collapses when
the step ends; the CLI and the REPL then print the checked answer, once. A redirected stdout
holds that answer alone.
"""

from __future__ import annotations

import logging
import time
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.markup import escape

from research.modules.core.language import Language, choose_language
from research.modules.core.i18n import t
from research.modules.text.sanitize import strip_controls
from research.state.progress_events import (
    Message,
    NodeFinished,
    NodeStarted,
    ProgressEvent,
    Resuming,
    ServersStarting,
    SessionStarted,
    Token,
)
from research.state.steps import step_label


# How a finished step is marked: done, done in part, failed, or nothing to do.
MARK_OK, MARK_PARTLY, MARK_FAILED, MARK_SKIPPED = "ok", "partly", "failed", "skipped"
MARK_ORDER = (MARK_OK, MARK_SKIPPED, MARK_PARTLY, MARK_FAILED)  # a later one wins
MARK_STYLES = {MARK_OK: "[green]✓[/green]", MARK_PARTLY: "[yellow]⚠[/yellow]", MARK_FAILED: "[red]✗[/red]",
               MARK_SKIPPED: "[dim]–[/dim]"}
_SPINNER = "⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏"


class ConsoleProgress:
    def __init__(self, lang: Language, *, verbose: bool = False, stream_answer: bool = True) -> None:
        self.lang: Language = lang
        self.console = Console(stderr=True, highlight=False)
        self.stream_answer = stream_answer
        self.verbose = verbose
        self._streaming = False
        self.started = time.monotonic()
        self.drafts: list[str] = []  # each streamed draft's text (shown as a preview, never printed)
        self.finished_steps: list[str] = []  # node names, for "what was kept" after Ctrl-C
        # Known once the session folder exists; an error after that can say how to resume.
        self.session_id: str | None = None
        self.session_dir: str | None = None
        self._server_log: logging.Handler | None = None
        # The running step: its name, when it began, and how it is going so far (its mark).
        self._step: str | None = None
        self._step_started = 0.0
        self._step_mark = MARK_OK
        self._variant = ""  # what its label says for this run (step_variant)
        self._no_sources = False  # nothing was read: writing and checking have nothing to work on
        self._live: Any = None  # a transient "⠋ 14 s" line under a running step, on a terminal only
        self._account_seen = 0  # how much of progress.md --verbose has shown

    def __call__(self, event: ProgressEvent) -> None:
        self._pause_live()
        try:
            match event:
                case SessionStarted():
                    self._on_session(event)
                case ServersStarting():
                    self.lang = choose_language(event.language, default=self.lang)
                    self.console.print(f"[dim]{t('terminal.servers_starting', self.lang)}[/dim]")
                case Resuming():
                    steps = [step_label(node, self.lang) for node in event.next]
                    self.console.print(t("terminal.resuming_at", self.lang, session_id=event.session_id,
                                         step=", ".join(steps)))
                case NodeStarted():
                    self._on_node_start(event)
                case NodeFinished():
                    self._on_node_end(event)
                case Message():
                    self._on_message(event)
                case Token():
                    self._on_token(event)
        finally:
            if self._step is not None:
                self._resume_live()

    def running_line(self) -> str | None:
        """What the terminal shows under a running step ("→ Writing the answer… 14 s"), or None."""
        if self._step is None:
            return None
        seconds = int(time.monotonic() - self._step_started)
        line = f"→ {step_label(self._step, self.lang, self._variant)}… {seconds} s"
        if self._streaming and self.drafts:
            line += " · " + t("terminal.draft_progress", self.lang, chars=len(self.drafts[-1]))
        return line

    def draft_preview(self, width: int) -> str:
        """The streamed draft's latest line, cut to ``width`` cells: shown under the running
        step while it is written, gone with the step (the checked answer follows)."""
        if not (self._streaming and self.drafts and self.stream_answer):
            return ""
        from rich.cells import cell_len, set_cell_size

        lines = [line for line in strip_controls(self.drafts[-1]).splitlines() if line.strip()]
        latest = " ".join(lines[-1].split()) if lines else ""
        if cell_len(latest) > width:
            latest = "…" + set_cell_size(latest[-width:], width - 1).lstrip()
        return latest

    def __rich__(self) -> Any:
        from rich.text import Text

        line = self.running_line() or ""
        frame = _SPINNER[int(time.monotonic() * 8) % len(_SPINNER)]
        shown = Text(f"{frame} {line.removeprefix('→ ')}", style="dim")
        preview = self.draft_preview(max(20, self.console.width - 4))
        if preview:
            shown.append("\n  " + preview, style="dim italic")
        return shown

    def _resume_live(self) -> None:
        if self._live is not None or not self.console.is_terminal or self.console.is_dumb_terminal:
            return
        if self._step == "plan_review":  # the terminal is the reviewer's now: nothing may draw on it
            return
        from rich.live import Live

        # Transient, and stdout left alone: the streamed answer is written there directly.
        self._live = Live(self, console=self.console, transient=True, refresh_per_second=4,
                          redirect_stdout=False, redirect_stderr=False)
        self._live.start()

    def _pause_live(self) -> None:
        live, self._live = self._live, None
        if live is not None:
            live.stop()

    @property
    def seconds(self) -> float:
        return time.monotonic() - self.started

    def step_names(self) -> str:
        names = [step_label(node, self.lang) for node in dict.fromkeys(self.finished_steps)]
        return ", ".join(names) or t("terminal.no_steps", self.lang)

    def _on_session(self, event: SessionStarted) -> None:
        self.lang = choose_language(event.language, default=self.lang)
        self.session_id, self.session_dir = event.session_id, event.session_dir or None
        self.console.print(f"[dim]{t('progress.session', self.lang, session_id=event.session_id)}[/dim]")
        if self.session_dir:
            self._log_servers_to(Path(self.session_dir) / "web-search-server.log")

    def _log_servers_to(self, path: Path) -> None:
        """The MCP SDK logs every non-JSON line a server prints on stdout (with a traceback);
        those belong in the session's server log, never on the user's terminal."""
        self.close()
        try:
            handler: logging.Handler = logging.FileHandler(path, encoding="utf-8")
        except OSError:
            handler = logging.NullHandler()
        handler.setFormatter(logging.Formatter("%(asctime)s %(name)s %(levelname)s %(message)s"))
        logger = logging.getLogger("mcp")
        logger.addHandler(handler)
        logger.propagate = False
        self._server_log = handler

    def close(self) -> None:
        self._step = None
        self._pause_live()
        if self._server_log is not None:
            logging.getLogger("mcp").removeHandler(self._server_log)
            self._server_log.close()
            self._server_log = None

    def _on_node_start(self, event: NodeStarted) -> None:
        self.console.print(f"[cyan]→[/cyan] {step_label(event.node, self.lang, event.variant)}…")
        self._step, self._step_started, self._step_mark = event.node, time.monotonic(), MARK_OK
        self._variant = event.variant

    def _on_node_end(self, event: NodeFinished) -> None:
        self._streaming = False
        node = event.node
        self.finished_steps.append(node)
        label = step_label(node, self.lang, event.variant)
        mark, note = self._step_mark, ""
        if self._no_sources and node in ("llm", "verification"):
            mark, note = MARK_SKIPPED, " — " + t("terminal.step_skipped", self.lang)
        self._step = None
        self.console.print(f"{MARK_STYLES[mark]} {label} [dim]({event.seconds:.1f}s)[/dim]{escape(note)}")
        if self.verbose:
            self._show_step_account(node)

    def _show_step_account(self, node: str) -> None:
        """`--verbose`: what the step just added to progress.md (its plan, queries, sources
        read, verdicts), indented under its line. The draft is left out: it is the answer."""
        if not self.session_dir:
            return
        try:
            text = (Path(self.session_dir) / "progress.md").read_text("utf-8")
        except OSError:
            return
        added, self._account_seen = text[self._account_seen:], len(text)
        if node == "llm" or not added.strip():
            return
        for line in strip_controls(added).strip("\n").splitlines():
            self.console.print(f"    [dim]{escape(line)}[/dim]" if line.strip() else "", soft_wrap=True)

    def _judge_step(self, key: str, params: dict[str, Any]) -> None:
        """A step's mark from what it said: ✗ when it failed outright, ⚠ when in part."""
        worse = MARK_OK
        if key == "terminal.search_tool_missing":
            worse = MARK_FAILED
        elif key == "terminal.search_failed":
            worse = MARK_FAILED if params.get("count") == params.get("total") else MARK_PARTLY
        elif key == "progress.sources_found" and not params.get("count"):
            worse = MARK_PARTLY
        elif key == "progress.documents_read":
            ok, failed = int(params.get("ok") or 0), int(params.get("failed") or 0)
            self._no_sources = ok == 0
            worse = MARK_FAILED if ok == 0 and failed else MARK_SKIPPED if ok == 0 else MARK_PARTLY if failed else MARK_OK
        if MARK_ORDER.index(worse) > MARK_ORDER.index(self._step_mark):
            self._step_mark = worse

    def _on_message(self, event: Message) -> None:
        self._judge_step(event.key, event.params)
        # Parameters may quote pages (titles, URLs, errors): no escape sequences, no rich markup.
        # soft_wrap: one line however long, so a failure reads (and greps) as one line.
        params = _localised_params(event.key, event.params, self.lang)
        self.console.print(f"  [dim]{escape(strip_controls(t(event.key, self.lang, **params)))}[/dim]",
                           soft_wrap=True)

    def _on_token(self, event: Token) -> None:
        if not self._streaming:
            self.drafts.append("")
        self._streaming = True
        # Kept, not printed: the draft's progress shows under the running step (draft_preview),
        # and the checked answer is printed once at the end.
        self.drafts[-1] += event.text


# Messages that quote what the web-search server said (English, as every MCP host reads it):
# said in the user's language where the note is one of our server's.
_SERVER_NOTE_PARAMS = {"terminal.engine_note": "note", "terminal.search_failed": "reason"}


def _localised_params(key: str, params: dict, lang: Language) -> dict:
    name = _SERVER_NOTE_PARAMS.get(key)
    if name is None or not isinstance(params.get(name), str):
        return params
    from research.modules.clients.web_search_client import localise_note

    return {**params, name: localise_note(params[name], lang)}

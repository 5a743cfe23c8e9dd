"""The interactive REPL: `research` with no arguments on a terminal.

One question at a time; each question is one session, and a follow-up in the same
conversation names the previous session as its parent so the runner reuses its sources.
The research itself runs in a fresh event loop per question (prompt-toolkit runs its own
loop for the prompt), and SIGINT during a run cancels only that run's task.

Only prompt-toolkit and rich are imported up front; the orchestrator (langgraph, ollama,
mcp) is imported with the first question so the banner appears quickly.
"""

from __future__ import annotations

import asyncio
import os
import signal
from pathlib import Path
from typing import TYPE_CHECKING, Any

from prompt_toolkit import PromptSession
from prompt_toolkit.auto_suggest import AutoSuggestFromHistory
from prompt_toolkit.completion import ThreadedCompleter
from prompt_toolkit.history import FileHistory, History, InMemoryHistory
from rich.console import Console
from rich.markup import escape

from research.modules.core.errors import EXIT_NO_EVIDENCE, EXIT_OK, UserFacingError
from research.modules.core.i18n import t
from research.modules.core.language import Language, choose_language
from research.modules.core.settings import Settings
from research.modules.text.sanitize import strip_controls

if TYPE_CHECKING:  # the orchestrator is imported with the first question (see above)
    from research.orchestrator.runner import ResearchRequest
    from research.state.run_record import RunOutcome
    from research.orchestrator.server_pool import ServerPool

PROMPT = "research> "


def history_file() -> Path:
    """Where typed lines are kept across runs (XDG data dir)."""
    base = Path(os.environ.get("XDG_DATA_HOME") or Path.home() / ".local" / "share")
    return base / "research" / "history"


class Repl:
    """State of one REPL: language, model, the conversation, and the prompt."""

    def __init__(self, settings: Settings, *, input: Any = None, output: Any = None) -> None:
        from research.state.session_folder import HistoryManager

        self.settings = settings  # /lang, /model, /depth and /plan change it for the next question
        # Messages and help: the configured language; with "auto", the locale's until a question is asked.
        self.lang: Language = choose_language(settings.language)
        self.session_id: str | None = None  # the conversation's latest session; parent of the next question
        self.verbose = False
        self.history = HistoryManager(settings.sessions_dir)
        self.console = Console(highlight=False)
        self.installed_models_cache: list[str] | None = None
        self._input, self._output = input, output
        self._prompt: PromptSession[str] | None = None
        from research.orchestrator.server_pool import PooledLoop

        self.servers = PooledLoop()  # both MCP servers (and their loop) kept across questions

    @property
    def lang_setting(self) -> str:
        """"auto" | "ja" | "en": what questions are answered in (/lang sets it in the settings)."""
        return self.settings.language

    # --- output ---------------------------------------------------------------------
    def say(self, key: str, style: str = "", **params: Any) -> None:
        # Parameters can carry page titles, URLs and errors: no escape sequence gets through.
        text = escape(strip_controls(t(key, self.lang, **params)))
        # soft_wrap: the terminal wraps long lines itself, so a long path stays copyable.
        self.console.print(f"[{style}]{text}[/{style}]" if style else text, soft_wrap=True)

    def banner(self) -> None:
        self.console.print(f"[bold]{escape(t('repl.banner_title', self.lang))}[/bold]")
        self.say("repl.banner", "dim", model=self.settings.model, language=self._lang_label(),
                 sessions_dir=str(self.history.root))
        self.say("repl.banner_hint", "dim")

    def toolbar(self) -> str:
        return t("repl.toolbar", self.lang, language=self._lang_label(), model=self.settings.model,
                 session=self.session_id or t("repl.toolbar_new", self.lang))

    def _lang_label(self) -> str:
        return t("repl.lang_auto", self.lang) if self.lang_setting == "auto" else self.lang_setting

    # --- the loop -------------------------------------------------------------------
    def prompt_session(self) -> PromptSession[str]:
        from research.cli.repl_commands import SlashCompleter

        if self._prompt is None:
            self._prompt = PromptSession(
                history=self._open_history(),
                auto_suggest=AutoSuggestFromHistory(),
                # Threaded: completing /model asks Ollama; typing must never wait on it.
                completer=ThreadedCompleter(SlashCompleter(self)),
                complete_while_typing=True,
                bottom_toolbar=self.toolbar,
                input=self._input,
                output=self._output,
            )
        return self._prompt

    def _open_history(self) -> History:
        path = history_file()
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            path.touch(exist_ok=True)
            return FileHistory(str(path))
        except OSError as exc:
            self.say("repl.history_unavailable", "yellow", reason=exc.strerror or str(exc))
            return InMemoryHistory()

    def loop(self) -> int:
        from research.cli.repl_commands import bare_command, dispatch_command

        self.banner()
        session = self.prompt_session()
        while True:
            try:
                line = session.prompt(PROMPT)
            except KeyboardInterrupt:  # Ctrl-C at the prompt: drop the line, ask again
                continue
            except EOFError:  # Ctrl-D
                break
            line = line.strip()
            if not line:
                continue
            line = bare_command(line) or line  # `exit` typed alone leaves; it is not a question
            try:
                if line.startswith("/"):
                    if not dispatch_command(self, line):
                        break
                else:
                    self.ask(line)
            except KeyboardInterrupt:  # Ctrl-C in a slow command (/models, /show): back to the prompt
                self.say("repl.cancelled_early", "yellow")
        self.say("repl.goodbye", "dim")
        return EXIT_OK

    # --- running research -------------------------------------------------------------
    def ask(self, question: str) -> None:
        from research.orchestrator.runner import ResearchRequest

        if self.lang_setting == "auto":
            # Messages follow the question from its first line, before Ollama is even asked:
            # a Japanese question that fails at once still gets its error in Japanese.
            self.lang = choose_language(text=question)

        if self.settings.server:
            self.ask_server(question)
            return
        self.run(ResearchRequest(question=question, parent_session=self.session_id, reviewer=self.plan_reviewer()))

    def ask_server(self, question: str, resume: str | None = None) -> None:
        """RESEARCH_SERVER: the team's `research serve` runs the question, as a follow-up of this
        conversation's last session there (or continues session ``resume``); progress and the
        answer print as for a local run."""
        import asyncio

        from research.team.client import run_remote

        try:
            remote = asyncio.run(run_remote(question, self.settings, self.lang, as_json=False, resume=resume,
                                            parent=None if resume else self.session_id))
        except KeyboardInterrupt:
            self.say("repl.cancelled_early", "yellow")
            return
        result = remote.output
        if remote.exit_code in (EXIT_OK, EXIT_NO_EVIDENCE) and result.get("session_id"):
            self.session_id = str(result["session_id"])
            if self.lang_setting == "auto" and result.get("language") in ("ja", "en"):
                self.lang = choose_language(result["language"], self.lang)
            self.say("repl.follow_up_hint", "dim")

    def plan_reviewer(self) -> Any:
        """Answers a plan review on this terminal (also for a resumed session that was waiting)."""
        from research.cli.plan_review import terminal_reviewer

        return terminal_reviewer(self.lang)

    def run(self, request: ResearchRequest) -> None:
        """Run one request to the end, or until Ctrl-C; never lets an error end the REPL."""
        from research.cli.progress import ConsoleProgress
        from research.state.progress_events import ProgressEvent, SessionStarted

        progress = ConsoleProgress(self.lang, verbose=self.verbose)
        started: dict[str, str] = {}

        def on_event(event: ProgressEvent) -> None:
            if isinstance(event, SessionStarted):
                started["session_id"] = event.session_id
            progress(event)

        try:
            result = self.servers.run(lambda pool: _cancellable(request, self.settings, on_event, pool))
        except KeyboardInterrupt:
            # Ctrl-C just before the run's own handler was installed or just after it was
            # removed: asyncio.run has cancelled the task; treat it like any other cancel.
            result = None
        except UserFacingError as exc:
            self.console.print(f"[red]{escape(strip_controls(exc.message(progress.lang)))}[/red]")
            return
        except Exception as exc:  # noqa: BLE001 - one line for the user; the runner wrote error.log
            self._report_failure(exc, started.get("session_id"))
            return
        finally:
            progress.close()
        if result is None and request.stopped_by:
            from research.modules.core.errors import SIGNAL_EXIT_CODES

            session_id = started.get("session_id")
            if session_id:
                self.say("terminal.interrupted_kept", "yellow", signal=request.stopped_by, session_id=session_id,
                         steps=progress.step_names())
            else:
                self.say("stop.interrupted_early", "yellow", signal=request.stopped_by)
            raise SystemExit(SIGNAL_EXIT_CODES[request.stopped_by])
        if result is None:
            cancelled = started.get("session_id")
            if cancelled:
                self.say("repl.cancelled", "yellow", session_id=cancelled)
            else:
                self.say("repl.cancelled_early", "yellow")
            return
        self._finished(result, progress)

    def _finished(self, result: RunOutcome, progress: Any) -> None:
        self.session_id = result.session_id
        if self.lang_setting == "auto":
            self.lang = choose_language(result.language, self.lang)  # messages follow the conversation's language
        from research.cli.run_output import checked_answer, closing_lines, sources_section

        answer = checked_answer(result, progress)
        if answer:
            self.console.print(escape(answer), soft_wrap=True)
        # As a one-shot run on a terminal: the sources the answer's [S#] point at follow it.
        sources = sources_section(result)
        if sources:
            self.console.print()
            self.console.print(escape(sources), soft_wrap=True)
        for line in closing_lines(result, progress, paths=()):  # the paths follow, one labelled line each
            self.console.print(line, soft_wrap=True)
        if result.report_md:
            self.say("repl.report_md", "green", path=result.report_md)
        if result.report_pdf:
            self.say("repl.report_pdf", "green", path=result.report_pdf)
        self.say("repl.follow_up_hint", "dim")

    def _report_failure(self, exc: BaseException, session_id: str | None) -> None:
        log = ""
        if session_id:
            path = self.history.root / f"session_{session_id}" / "error.log"
            if path.exists():
                log = t("repl.failed_log", self.lang, path=str(path))
        self.say("repl.failed", "red", reason=f"{type(exc).__name__}: {exc}", log=log)


async def _cancellable(request: ResearchRequest, settings: Settings, progress: Any,
                       servers: ServerPool | None = None) -> RunOutcome | None:
    """Run the research as a task that SIGINT cancels; returns None when cancelled.

    Cancelling the task (rather than letting KeyboardInterrupt fly through the loop)
    lets the runner mark the session "cancelled" and close its MCP servers cleanly.
    """
    from research.orchestrator.runner import run_research

    request.servers = servers  # the REPL's pool: the servers outlive this question
    task = asyncio.ensure_future(run_research(request, settings, progress))
    loop = asyncio.get_running_loop()

    def stop(name: str) -> None:  # SIGTERM/SIGHUP: like Ctrl-C, and then the REPL ends
        if request.stopped_by is None:
            request.stopped_by = name
            task.cancel()

    installed = []
    try:
        loop.add_signal_handler(signal.SIGINT, task.cancel)
        installed.append(signal.SIGINT)
        for name in ("SIGTERM", "SIGHUP"):
            loop.add_signal_handler(getattr(signal, name), stop, name)
            installed.append(getattr(signal, name))
    except (ValueError, RuntimeError, NotImplementedError, AttributeError):  # not the main thread, or no signals
        pass
    try:
        return await task
    except asyncio.CancelledError:
        if task.cancelled():
            return None
        raise
    finally:
        for number in installed:
            loop.remove_signal_handler(number)


def run_repl(settings: Settings, *, input: Any = None, output: Any = None) -> int:
    """Start the REPL; ``input``/``output`` are prompt-toolkit objects (tests pass a pipe)."""
    repl = Repl(settings, input=input, output=output)
    if input is None:  # a person at the terminal: the servers boot while the first question is typed
        try:
            repl.servers.prestart(settings)
        except Exception:  # noqa: BLE001 - the first question reports a server that cannot start
            pass
    try:
        return repl.loop()
    finally:
        repl.servers.close()

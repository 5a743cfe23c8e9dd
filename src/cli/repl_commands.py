"""Slash commands of the REPL, their help (ja/en) and their completion.

Each command is a small function ``(repl, argument) -> bool`` (False ends the REPL);
COMMANDS is the single table that /help, completion and "did you mean" read.
"""

from __future__ import annotations

import difflib
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable, Iterable, Protocol

from prompt_toolkit.completion import CompleteEvent, Completer, Completion
from prompt_toolkit.document import Document
from rich.markup import escape

from research.modules.text.sanitize import strip_controls
from research.modules.core.errors import UserFacingError
from research.modules.core.i18n import t

if TYPE_CHECKING:
    from prompt_toolkit import PromptSession
    from rich.console import Console

    from research.modules.core.language import Language
    from research.modules.core.settings import Settings
    from research.orchestrator.runner import ResearchRequest
    from research.state.session_folder import HistoryManager


class Repl(Protocol):
    """What a slash command reads and changes of the REPL (cli/repl.py's ``Repl`` is one): named
    here, so this module imports nothing of the REPL that imports it."""

    settings: Settings
    lang: Language
    session_id: str | None
    verbose: bool
    history: HistoryManager
    console: Console
    installed_models_cache: list[str] | None

    def say(self, key: str, style: str = "", **params: Any) -> None: ...

    def prompt_session(self) -> PromptSession[str]: ...

    def ask_server(self, question: str, resume: str | None = None) -> None: ...

    def plan_reviewer(self) -> Any: ...

    def run(self, request: ResearchRequest) -> None: ...

LANG_CHOICES = ("ja", "en", "auto")
DEPTH_CHOICES = ("quick", "standard", "deep")


@dataclass(frozen=True)
class Command:
    name: str
    run: Callable[["Repl", str], bool]
    usage: str = ""  # argument part of the usage line, e.g. "ja|en|auto"
    arguments: Callable[["Repl"], list[tuple[str, str]]] | None = None  # (value, description) for completion

    @property
    def help_key(self) -> str:
        return "repl.help." + self.name


# --- /help /lang /verbose /new /clear /quit-------------------------------------------------
def _help(repl: "Repl", arg: str) -> bool:
    from rich.table import Table

    table = Table(title=t("repl.help_title", repl.lang), show_header=False, box=None, padding=(0, 2))
    for command in COMMANDS.values():
        table.add_row(escape(f"/{command.name} {command.usage}".rstrip()), escape(t(command.help_key, repl.lang)))
    repl.console.print(table)
    repl.say("repl.help_footer", "dim")
    return True


def _lang(repl: "Repl", arg: str) -> bool:
    choice = arg.strip().lower()
    if choice not in LANG_CHOICES:
        repl.say("repl.usage", "yellow", usage="/lang ja|en|auto")
        return True
    repl.settings = repl.settings.model_copy(update={"language": choice})
    if choice == "auto":
        repl.say("repl.lang_set_auto")
    else:
        repl.lang = "ja" if choice == "ja" else "en"  # LANG_CHOICES: one of the two here
        repl.say("repl.lang_set", language=choice)
    return True


def _verbose(repl: "Repl", arg: str) -> bool:
    from research.modules.core.logs import configure

    repl.verbose = not repl.verbose
    configure(repl.settings.log_level, verbose=repl.verbose, lang=repl.lang)  # the log of what a run did, too
    repl.say("repl.verbose_on" if repl.verbose else "repl.verbose_off")
    return True


def _new(repl: "Repl", arg: str) -> bool:
    repl.session_id = None
    repl.say("repl.new_conversation")
    return True


def _quit(repl: "Repl", arg: str) -> bool:
    return False


def _clear(repl: "Repl", arg: str) -> bool:
    """Like `clear` in a shell: the screen only; the conversation goes on (/new starts over).

    Through the prompt's own output, as its Ctrl-L does: the screen is erased where
    prompt-toolkit draws (its output may not be this process's stdout), and the next prompt
    starts from the top it knows of, instead of redrawing the question over stale lines."""
    output = repl.prompt_session().app.output
    output.erase_screen()
    output.cursor_goto(0, 0)
    output.flush()
    return True


# --- /model /models -----------------------------------------------------------------------
def installed_models(host: str, timeout: float = 5.0) -> list[dict]:
    """Models Ollama has installed: [{"name", "size"}]. Raises OllamaError when unreachable."""
    from research.modules.llm.model_manager import installed_models as listed  # noqa: PLC0415 - keeps REPL start light

    return listed(host, timeout)


def _cached_model_names(repl: "Repl") -> list[str]:
    if repl.installed_models_cache is None:
        repl.installed_models_cache = [m["name"] for m in installed_models(repl.settings.ollama_host)]
    return repl.installed_models_cache


def _model(repl: "Repl", arg: str) -> bool:
    name = arg.strip()
    if not name:
        repl.say("repl.usage", "yellow", usage="/model NAME  (/models)")
        return True
    models = installed_models(repl.settings.ollama_host)
    names = [m["name"] for m in models]
    repl.installed_models_cache = names
    from research.modules.llm.model_manager import installed_name  # noqa: PLC0415 - keeps REPL start light

    # Accept what the user would type to `ollama run` ("name" is "name:latest").
    chosen = installed_name(name, names)
    if chosen is None:
        repl.say("repl.model_missing", "red", model=name, installed=", ".join(names) or "-")
        return True
    repl.settings = repl.settings.model_copy(update={"model": chosen})
    repl.say("repl.model_set", model=chosen)
    return True


def _models(repl: "Repl", arg: str) -> bool:
    from rich.table import Table

    models = installed_models(repl.settings.ollama_host)
    repl.installed_models_cache = [m["name"] for m in models]
    if not models:
        repl.say("repl.models_none", "yellow", model=repl.settings.model)
        return True
    table = Table(title=t("repl.models_title", repl.lang))
    table.add_column(t("repl.col_model", repl.lang))
    table.add_column(t("repl.col_size", repl.lang), justify="right")
    table.add_column("")
    for model in models:
        current = t("repl.current", repl.lang) if model["name"] == repl.settings.model else ""
        table.add_row(escape(model["name"]), f"{model['size'] / 1e9:.1f} GB", current)
    repl.console.print(table)
    return True


# --- sessions: /sessions /open /show /resume /sources ----------------------------------------
def _on_server(repl: "Repl", action: str, ref: str | None) -> bool:
    """With RESEARCH_SERVER, /sessions, /show, /open and /sources read the team's server, as
    `research sessions list|show|open` do there (a conversation's sessions are on the server)."""
    import asyncio

    from research.team.client import server_sessions

    if action != "list" and not ref:
        repl.say("repl.no_session", "yellow")
        return True
    try:
        asyncio.run(server_sessions(action, ref, repl.settings, repl.lang, as_json=False))
    except KeyboardInterrupt:
        pass
    return True


def _sessions(repl: "Repl", arg: str) -> bool:
    from research.cli.listing import print_sessions_table

    if repl.settings.server:
        return _on_server(repl, "list", None)

    sessions = repl.history.list_sessions()
    if not sessions:
        repl.say("repl.sessions_empty", sessions_dir=str(repl.history.root))
        return True
    print_sessions_table(sessions, repl.lang)
    return True


def _target_session(repl: "Repl", arg: str):
    """The session named by ``arg``, else the conversation's current one (None: said why)."""
    ref = arg.strip() or repl.session_id
    if not ref:
        repl.say("repl.no_session", "yellow")
        return None
    return repl.history.resolve(ref)


def _report_of(repl: "Repl", arg: str, action: str, name: str) -> Path | str | None:
    """For /open and /show: the report file NAME of the session ``arg`` names (else the
    conversation's): report.pdf's path, report.md's text; None once it is dealt with (read
    from the team's server) or said to be missing."""
    if repl.settings.server:
        _on_server(repl, action, arg.strip() or repl.session_id)
        return None
    session = _target_session(repl, arg)
    if session is None:
        return None
    if name == "report.pdf":
        found = session.path / name if (session.path / name).exists() else None
    else:  # never through a link, a FIFO or /dev/zero, at most 64 MiB (session_folder.read_session_bytes)
        found = _session_text(session.path / name)
    if found is None:
        repl.say("sessions.no_report", "yellow", session_id=session.session_id)
        return None
    return found


def _open(repl: "Repl", arg: str) -> bool:
    report = _report_of(repl, arg, "open", "report.pdf")
    if report is None:
        return True
    from research.cli.viewer import open_in_viewer  # imported late: it may probe for desktop tools

    if not open_in_viewer(Path(report)):  # report.pdf's path (its text is only read for /show)
        repl.say("viewer.unavailable", path=str(report))
    return True


def _show(repl: "Repl", arg: str) -> bool:
    report = _report_of(repl, arg, "show", "report.md")
    if report is None:
        return True
    from rich.markdown import Markdown

    # A shared folder's report.md may hold escape sequences written by an older version.
    repl.console.print(Markdown(strip_controls(str(report))))
    return True


def _session_text(path) -> str | None:
    """A session file as text, or None when absent or not a file of ours (a link, a FIFO)."""
    from research.state.session_folder import read_session_bytes

    try:
        return read_session_bytes(path).decode("utf-8", errors="replace")
    except OSError:
        return None


def _resume(repl: "Repl", arg: str) -> bool:
    if not arg.strip():
        repl.say("repl.usage", "yellow", usage="/resume ID  (/sessions)")
        return True
    if repl.settings.server:  # the session is on the server: it runs it again there
        repl.ask_server("", resume=arg.strip())
        return True
    from research.orchestrator.runner import ResearchRequest

    repl.run(ResearchRequest(resume=arg.strip(), reviewer=repl.plan_reviewer()))
    return True


def _attach(repl: "Repl", arg: str) -> bool:
    """/attach [RUN]: follow a run on the team's server again (RESEARCH_SERVER), as `research attach`."""
    import asyncio

    from research.team.client import attach

    try:
        asyncio.run(attach(arg.strip() or None, repl.settings, repl.lang, as_json=False, output=None))
    except KeyboardInterrupt:  # following stops, not the run: attach has said how to follow it again
        pass
    except UserFacingError as exc:
        repl.console.print(f"[red]{escape(exc.message(repl.lang))}[/red]")
    return True


def _cancel(repl: "Repl", arg: str) -> bool:
    """/cancel [RUN]: cancel a run on the team's server (RESEARCH_SERVER), as `research cancel`."""
    import asyncio

    from research.team.client import cancel

    try:
        asyncio.run(cancel(arg.strip() or None, repl.settings, repl.lang, as_json=False))
    except KeyboardInterrupt:
        pass
    except UserFacingError as exc:
        repl.console.print(f"[red]{escape(exc.message(repl.lang))}[/red]")
    return True


def _sources(repl: "Repl", arg: str) -> bool:
    if repl.settings.server:  # the session and its ledger are on the team's server
        return _on_server(repl, "sources", arg.strip() or repl.session_id)
    session = _target_session(repl, arg)
    if session is None:
        return True
    from research.cli.listing import print_source_list
    from research.state.run_record import sources_of
    from research.state.session_folder import read_ledger

    sources = sources_of(read_ledger(session.path))
    if not sources:
        repl.say("repl.sources_empty", session_id=session.session_id)
        return True
    print_source_list(repl.console, session.session_id, sources, repl.lang)
    return True


# --- /depth /plan ---------------------------------------------------------------------------
def _depth(repl: "Repl", arg: str) -> bool:
    choice = arg.strip().lower()
    if not choice:  # a question, not a change: the depth stays as it is
        repl.say("repl.depth_current", depth=repl.settings.depth, choices="|".join(DEPTH_CHOICES))
        return True
    if choice not in DEPTH_CHOICES:
        repl.say("repl.usage", "yellow", usage="/depth quick|standard|deep")
        repl.say("repl.depth_current", depth=repl.settings.depth, choices="|".join(DEPTH_CHOICES))
        return True
    repl.settings = repl.settings.model_copy(update={"depth": choice})
    repl.say("repl.depth_set", depth=choice)
    return True


def _plan(repl: "Repl", arg: str) -> bool:
    choice = arg.strip().lower()
    if choice not in ("on", "off"):
        # Alone, /plan tells the setting (as /depth does); a wrong word also gets the usage.
        # Neither changes it, so neither may sound like a change ("… turned on").
        if choice:
            repl.say("repl.usage", "yellow", usage="/plan on|off")
        repl.say("repl.plan_current_on" if repl.settings.review_plan else "repl.plan_current_off")
        return True
    repl.settings = repl.settings.model_copy(update={"review_plan": choice == "on"})
    repl.say("repl.plan_on" if choice == "on" else "repl.plan_off")
    return True


def _depth_choices(repl: "Repl") -> list[tuple[str, str]]:
    return [(depth, "") for depth in DEPTH_CHOICES]


def _plan_choices(repl: "Repl") -> list[tuple[str, str]]:
    return [("on", ""), ("off", "")]


# --- completion helpers ---------------------------------------------------------------------
def _session_choices(repl: "Repl") -> list[tuple[str, str]]:
    return [(m["session_id"], (m.get("question") or "")[:50]) for m in repl.history.list_sessions()
            if m.get("session_id")]


def _lang_choices(repl: "Repl") -> list[tuple[str, str]]:
    return [(code, "") for code in LANG_CHOICES]


def _model_choices(repl: "Repl") -> list[tuple[str, str]]:
    try:
        return [(name, "") for name in _cached_model_names(repl)]
    except UserFacingError:
        return []  # Ollama down: no suggestions, and /model itself will say why


COMMANDS: dict[str, Command] = {c.name: c for c in (
    Command("help", _help),
    Command("lang", _lang, "ja|en|auto", _lang_choices),
    Command("model", _model, "NAME", _model_choices),
    Command("models", _models),
    Command("new", _new),
    Command("sessions", _sessions),
    Command("open", _open, "[ID]", _session_choices),
    Command("show", _show, "[ID]", _session_choices),
    Command("resume", _resume, "ID", _session_choices),
    Command("attach", _attach, "[RUN]"),
    Command("cancel", _cancel, "[RUN]"),
    Command("sources", _sources, "[ID]", _session_choices),
    Command("depth", _depth, "quick|standard|deep", _depth_choices),
    Command("plan", _plan, "on|off", _plan_choices),
    Command("verbose", _verbose),
    Command("clear", _clear),
    Command("quit", _quit),
)}
ALIASES = {"exit": "quit", "q": "quit", "h": "help", "?": "help"}
# Words typed alone at the prompt that mean the command, as in a shell (never a research question).
BARE_WORDS = {"exit": "quit", "quit": "quit", "clear": "clear", "help": "help"}


def bare_command(line: str) -> str | None:
    """``"/quit"`` for a line that is just ``exit`` (or ``quit``, ``clear``, ``help``), else None."""
    name = BARE_WORDS.get(line.strip().lower())
    return "/" + name if name else None


def closest_command(name: str) -> str | None:
    matches = difflib.get_close_matches(name, list(COMMANDS) + list(ALIASES), n=1, cutoff=0.5)
    if not matches:
        return None
    return ALIASES.get(matches[0], matches[0])


def dispatch_command(repl: "Repl", line: str) -> bool:
    """Run one slash command line; False means leave the REPL. Errors become one message."""
    name, _, arg = line[1:].partition(" ")
    name = name.lower()
    command = COMMANDS.get(ALIASES.get(name, name))
    if command is None:
        suggestion = closest_command(name)
        if suggestion:
            repl.say("repl.unknown_command", "yellow", command="/" + name, suggestion="/" + suggestion)
        else:
            repl.say("repl.unknown_command_no_hint", "yellow", command="/" + name)
        return True
    try:
        return command.run(repl, arg)
    except UserFacingError as exc:
        repl.console.print(f"[red]{escape(exc.message(repl.lang))}[/red]")
        return True
    except OSError as exc:  # an unreadable session file, a full disk: say so, keep the REPL
        repl.say("repl.failed", "red", reason=f"{type(exc).__name__}: {exc}", log="")
        return True


class SlashCompleter(Completer):
    """Completes command names after "/" and each command's arguments after a space."""

    def __init__(self, repl: "Repl") -> None:
        self.repl = repl

    def get_completions(self, document: Document, complete_event: CompleteEvent) -> Iterable[Completion]:
        text = document.text_before_cursor
        if not text.startswith("/"):
            return  # a question: nothing to complete (history auto-suggest still helps)
        name, space, arg = text[1:].partition(" ")
        if not space:
            for command in COMMANDS.values():
                if command.name.startswith(name.lower()):
                    yield Completion("/" + command.name, start_position=-len(text),
                                     display_meta=t(command.help_key, self.repl.lang))
            return
        chosen = COMMANDS.get(ALIASES.get(name.lower(), name.lower()))
        if chosen is None or chosen.arguments is None or " " in arg:
            return
        for value, description in chosen.arguments(self.repl):
            if value.startswith(arg) or (arg and arg in value):
                yield Completion(value, start_position=-len(arg), display_meta=description)

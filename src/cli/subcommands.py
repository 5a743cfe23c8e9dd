"""`research sessions …`, `research doctor`, `research config` and `research help`;
`verify` and `mcp` have modules of their own."""

from __future__ import annotations

import argparse
import json
import os
import shutil
import sys
from typing import TYPE_CHECKING, Any

from research.modules.core.errors import EXIT_FAILURE, EXIT_OK, EXIT_SEARCH_FAILED, EXIT_USAGE, UserFacingError
from research.modules.core.i18n import t
from research.cli.arguments import ArgumentParser
from research.modules.text.sanitize import clean_data, shorten, strip_controls

if TYPE_CHECKING:  # the CLI starts without pydantic's models
    from research.state.run_record import Source


LANG_HELP = "language of the messages (default: your locale)"
# `research help TOPIC`: what it can explain.
HELP_TOPICS = ("sessions", "doctor", "config", "verify", "mcp", "serve", "attach", "cancel", "bench")


def _parser() -> argparse.ArgumentParser:
    parser = ArgumentParser(prog="research")
    commands = parser.add_subparsers(dest="command", required=True)

    sessions = commands.add_parser("sessions", help="list, show, open or remove sessions")
    actions = sessions.add_subparsers(dest="action")
    listing = actions.add_parser("list", help="sessions, newest first")
    listing.add_argument("--json", action="store_true", help="one JSON array on stdout")
    for name, helptext in (("show", "print a session's report"), ("open", "open report.pdf in the viewer"),
                           ("rm", "delete a session folder")):
        action = actions.add_parser(name, help=helptext)
        action.add_argument("id")
        if name == "show":
            action.add_argument("--json", action="store_true", help="the session's meta.json (with paths) as JSON")
        if name == "rm":
            action.add_argument("-y", "--yes", action="store_true", help="delete without asking")
    sessions.add_argument("--lang", choices=["ja", "en"], help=LANG_HELP)

    doctor = commands.add_parser("doctor", help="check Ollama, model, sandbox, search server, fonts, sessions folder")
    doctor.add_argument("--json", action="store_true", help="one JSON object on stdout")
    doctor.add_argument("--lang", choices=["ja", "en"], help=LANG_HELP)
    doctor.add_argument("--offline", action="store_true", help="skip the test search (no network needed)")
    doctor.add_argument("--verbose", action="store_true", help="each check's full detail, never shortened")

    config = commands.add_parser("config", help="show the effective settings and where each came from; "
                                                "`config init` writes a commented config file to start from")
    config.add_argument("action", nargs="?", choices=["init"], help="init: write the config file, every setting "
                                                                    "commented out at its default")
    config.add_argument("--force", action="store_true", help="with init: replace a config file that exists")
    config.add_argument("--json", action="store_true", help="one JSON object on stdout")
    config.add_argument("--lang", choices=["ja", "en"], help=LANG_HELP)

    # The two commands on one run of the team's server take the run the same way.
    for name, helptext in (("attach", "follow a run on the team's server (RESEARCH_SERVER) again, to its answer"),
                           ("cancel", "cancel a run on the team's server (RESEARCH_SERVER): a waiting run never "
                                      "starts, a running one stops and keeps its session")):
        on_run = commands.add_parser(name, help=helptext)
        on_run.add_argument("run", nargs="?", help="the run's number (\"Queued as run N\"); default: the last "
                                                   "one submitted from here")
        on_run.add_argument("--json", action="store_true", help="print one JSON object on stdout at the end")
        if name == "attach":
            on_run.add_argument("-o", "--output", metavar="PATH", help="also copy the report there: a .md, .pdf "
                                                                      "or .json file, or a folder for all of them")
        on_run.add_argument("--lang", choices=["ja", "en"], help=LANG_HELP)

    helping = commands.add_parser("help", help="show help (for a subcommand: research help sessions)")
    helping.add_argument("topic", nargs="?")

    return parser


class _StdoutFailed(Exception):
    """Standard output could not be written (`> /dev/full`, a closed pipe)."""

    def __init__(self, error: OSError) -> None:
        super().__init__(error)
        self.error = error


class _GuardedStdout:
    """sys.stdout for a subcommand: a failed write or flush becomes ``_StdoutFailed``, so it
    is told apart from every other OSError and reported in one line, never a traceback."""

    def __init__(self, stream) -> None:
        self._stream = stream

    def write(self, text: str) -> int:
        try:
            return self._stream.write(text)
        except OSError as exc:
            raise _StdoutFailed(exc) from None

    def flush(self) -> None:
        try:
            self._stream.flush()
        except OSError as exc:
            raise _StdoutFailed(exc) from None

    def __getattr__(self, name: str):
        return getattr(self._stream, name)


def dispatch(argv: list[str]) -> int:
    """Run one subcommand; its stdout going nowhere (`> /dev/full`, `| head -c1`) is one
    line on stderr and exit 1, as for a research run (docs/reliability.md)."""
    if argv[:1] == ["mcp"]:  # stdout is the protocol there, and the server's own business
        return _dispatch(argv)
    real = sys.stdout
    sys.stdout = _GuardedStdout(real)
    try:
        code = _dispatch(argv)
        sys.stdout.flush()
        return code
    except _StdoutFailed as failed:
        _silence_stdout()
        sys.stderr.write("research: " + t("output.stdout_failed", _locale_language(),
                                          reason=failed.error.strerror or type(failed.error).__name__) + "\n")
        return EXIT_FAILURE
    finally:
        if isinstance(sys.stdout, _GuardedStdout):
            sys.stdout = real


def _silence_stdout() -> None:
    """fd 1 to /dev/null: the interpreter's own flush at exit must not fail a second time."""
    try:
        null = os.open(os.devnull, os.O_WRONLY)
        os.dup2(null, 1)
        os.close(null)
    except OSError:
        pass
    sys.stdout = open(1, "w", encoding="utf-8", closefd=False)


def _dispatch(argv: list[str]) -> int:
    if argv[:1] == ["verify"]:
        # `research verify` has its own parser and output contract (cli/verify.py).
        from research.cli.verify import main as verify_main

        return verify_main(argv[1:])
    if argv[:1] == ["mcp"]:
        # The MCP servers run as their own processes with their own flags (cli/mcp_command.py).
        from research.cli.mcp_command import main as mcp_main

        return mcp_main(argv[1:])
    if argv[:1] == ["serve"]:
        # The team service (cli/serve_command.py, docs/scale.md).
        from research.cli.serve_command import main as serve_main

        return serve_main(argv[1:])
    if argv[:1] == ["bench"]:
        # Research runs over a fixed question set, graded (cli/bench.py, orchestrator/bench/).
        from research.cli.bench import main as bench_main

        return bench_main(argv[1:])
    args = _parser().parse_args(argv)
    if args.command == "help":
        return _help(args.topic)
    lang = getattr(args, "lang", None) or _locale_language()
    try:
        from research.modules.core.settings import load_settings

        if args.command == "config" and args.action == "init":
            # Before the settings are read: a broken file is what one may be starting over from.
            from research.cli.config_command import init_config

            return init_config(force=args.force, lang=lang)
        settings = load_settings()
        if args.command == "doctor":
            from research.cli.doctor import run_doctor

            return run_doctor(settings, as_json=args.json, lang=lang, offline=args.offline, verbose=args.verbose)
        if args.command == "config":
            from research.cli.config_command import show_config

            return show_config(settings, as_json=args.json, lang=lang)
        if args.command == "attach":
            return _attach(args, settings, lang)
        if args.command == "cancel":
            import asyncio

            from research.cli.remote_run import cancel

            return asyncio.run(cancel(args.run, settings, lang, as_json=args.json))
        if settings.server:  # the team's sessions, read from its research serve
            return _server_sessions(args, settings, lang)
        return _sessions(args, settings, lang)
    except UserFacingError as exc:
        sys.stderr.write(f"research: {exc.message(lang)}\n")
        return exc.exit_code


def _attach(args: argparse.Namespace, settings, lang: str) -> int:
    """`research attach [RUN]`: a run on the server followed again, printed as a local run."""
    import asyncio

    from research.cli.remote_run import attach

    if args.output:
        from research.cli.run_output import check_output_destination

        check_output_destination(args.output)
    return asyncio.run(attach(args.run, settings, lang, as_json=args.json, output=args.output))


def _server_sessions(args: argparse.Namespace, settings, lang: str) -> int:
    """`research sessions list|show|open` with RESEARCH_SERVER: this token's sessions on the
    server, printed as local ones are; `rm` stays local (the server keeps its sessions)."""
    import asyncio

    from research.cli.remote_run import server_sessions

    action = args.action or "list"
    if action == "rm":
        sys.stderr.write("research: " + t("remote.rm_local_only", lang) + "\n")
        return EXIT_USAGE
    return asyncio.run(server_sessions(action, getattr(args, "id", None), settings, lang,
                                       as_json=getattr(args, "json", False)))


def _locale_language() -> str:
    locale = os.environ.get("LC_ALL") or os.environ.get("LC_MESSAGES") or os.environ.get("LANG", "")
    return "ja" if locale.startswith("ja") else "en"


def _help(topic: str | None) -> int:
    """`research help [subcommand]`: the same text as --help, on stdout, exit 0."""
    if topic in ("sessions", "doctor", "config", "attach", "cancel"):
        _parser().parse_args([topic, "--help"])  # argparse prints and exits 0
    elif topic in ("verify", "mcp", "serve", "bench"):
        return dispatch([topic, "--help"])
    elif topic is not None:  # like `git help nosuch`: one line and a usage exit code, not the main help
        sys.stderr.write("research: " + t("terminal.help_unknown", _locale_language(), topic=topic,
                                          topics=", ".join(HELP_TOPICS)) + "\n")
        return EXIT_USAGE
    from research.cli.arguments import build_parser

    build_parser().print_help(sys.stdout)
    return EXIT_OK


def _sessions(args: argparse.Namespace, settings, lang: str) -> int:
    from research.state.session_folder import RESUMABLE_STATUSES, HistoryManager, effective_status

    history = HistoryManager(settings.sessions_dir)
    action = args.action or "list"
    if action == "list":
        sessions = history.list_sessions()
        if getattr(args, "json", False):
            # meta.json may come from someone else's folder: no escape or bidi bytes reach the terminal.
            print(json.dumps(clean_data([_with_verdicts(meta) for meta in sessions]), ensure_ascii=False))
            return EXIT_OK
        # Where it looked, always: an empty table from the wrong folder must not look like "no sessions".
        sys.stderr.write(t("terminal.sessions_where", lang, path=str(history.root.resolve())) + "\n")
        print_sessions_table(sessions, lang)
        stopped = [m for m in sessions if m.get("status") in RESUMABLE_STATUSES]
        if stopped:
            sys.stderr.write(t("terminal.resume_these", lang, session_id=stopped[0].get("session_id", "")) + "\n")
        return EXIT_OK
    if action == "rm" and _remove_link(history, args, lang):
        return EXIT_OK
    session = history.resolve(args.id)
    if action == "show":
        from research.state.progress_log import PROGRESS_FILE, progress_markdown

        report = session.path / "report.md"
        meta = history.read_json(session.session_id, "meta.json", {})
        status = effective_status(session.path, meta.get("status"))
        if getattr(args, "json", False):
            meta["status"] = status
            meta["report_md"] = str(report) if report.exists() else None
            progress_md = session.path / PROGRESS_FILE
            meta["progress_md"] = str(progress_md) if progress_md.exists() else None
            print(json.dumps(clean_data(_with_verdicts(meta)), ensure_ascii=False))
            return EXIT_OK
        from rich.console import Console
        from rich.markdown import Markdown

        # Never through a link, never a FIFO or /dev/zero, at most 64 MiB (session_folder.read_session_bytes).
        text = history.read_text(session.session_id, "report.md")
        if text is not None and not sys.stdout.isatty():  # `sessions show ID > f`: the Markdown itself
            sys.stdout.write(strip_controls(text))
            return EXIT_OK
        if text is not None:
            # A shared folder's report.md may hold escape sequences (OSC 52, clear screen …).
            Console().print(Markdown(strip_controls(text)))
            return EXIT_OK
        progress = progress_markdown(session.path)
        if progress is None:
            sys.stderr.write(t("sessions.no_report", lang, session_id=session.session_id) + "\n")
            return EXIT_USAGE
        from research.state.status import SessionStatus  # noqa: PLC0415 - the state package loads pydantic

        shown = t("terminal.status_interrupted", lang) if status == SessionStatus.INTERRUPTED else status
        if status == SessionStatus.RUNNING:  # effective_status: its lock is held, a process runs it now
            said = t("terminal.progress_running", lang, session_id=session.session_id, report=str(report))
        else:
            said = t("terminal.progress_so_far", lang, session_id=session.session_id, status=shown)
        sys.stderr.write(said + "\n")
        if not sys.stdout.isatty():
            sys.stdout.write(strip_controls(progress))
            return EXIT_OK
        Console().print(Markdown(strip_controls(progress)))
        return EXIT_OK
    if action == "open":
        pdf = session.path / "report.pdf"
        if not pdf.exists():
            sys.stderr.write(t("sessions.no_report", lang, session_id=session.session_id) + "\n")
            return EXIT_USAGE
        from research.cli.viewer import open_in_viewer

        if not open_in_viewer(pdf):
            print(pdf)
            sys.stderr.write(t("remote.no_viewer", lang) + "\n")
        return EXIT_OK
    from research.state.session_folder import lock_held

    if lock_held(session.path):
        # Deleting it would leave the run writing half a folder back and reporting success.
        sys.stderr.write("research: " + t("session_folder.running", lang, session_id=session.session_id) + "\n")
        return EXIT_USAGE
    if not args.yes and not _confirm_removal(history, session, lang):
        return EXIT_USAGE if not sys.stdin.isatty() else EXIT_OK
    shutil.rmtree(session.path)
    sys.stderr.write(t("sessions.removed", lang, session_id=session.session_id) + "\n")
    return EXIT_OK


def _remove_link(history, args: argparse.Namespace, lang: str) -> bool:
    """`sessions rm` of a session "folder" that is a symbolic link removes the link only
    (rmtree refuses links, and following it would delete someone else's files)."""
    from research.state.session_folder import SESSION_ID

    ref = args.id.strip().removeprefix("session_")
    link = history.root / f"session_{ref}"
    if not SESSION_ID.match(ref) or not link.is_symlink():
        return False
    if not args.yes and not sys.stdin.isatty():
        sys.stderr.write("research: " + t("terminal.rm_needs_yes", lang, session_id=ref) + "\n")
        raise SystemExit(EXIT_USAGE)
    link.unlink()
    sys.stderr.write(t("session_folder.link_removed", lang, session_id=ref) + "\n")
    return True


def _confirm_removal(history, session, lang: str) -> bool:
    """Ask on the terminal; without one, refuse (a script must say -y)."""
    from research.modules.text.sanitize import one_line

    if not sys.stdin.isatty():
        sys.stderr.write("research: " + t("terminal.rm_needs_yes", lang, session_id=session.session_id) + "\n")
        return False
    meta = history.read_json(session.session_id, "meta.json", {})
    question = one_line(str(meta.get("question") or ""), 60)
    try:
        answer = input(t("terminal.rm_confirm", lang, session_id=session.session_id, question=question))
    except EOFError:
        answer = ""
    if answer.strip().lower() in ("y", "yes", "はい"):
        return True
    sys.stderr.write(t("terminal.rm_kept", lang, session_id=session.session_id) + "\n")
    return False


def print_source_list(console: Any, session_id: str, sources: list[Source], lang: str) -> None:
    """The REPL's /sources: each source's label, title and status on one line, its URL whole on
    the next so it can be copied or clicked (a list, not a table). Each source's fields are
    already one clean line (``run_record.Source``)."""
    from rich.markup import escape

    if not sources:
        console.print(escape(t("repl.sources_empty", lang, session_id=session_id)))
        return
    console.print(f"[bold]{escape(t('repl.sources_title', lang, session_id=session_id))}[/bold]")
    for source in sources:
        ok = source.read
        status = (t("repl.source_ok", lang) if ok
                  else t("repl.source_left_out" if source.status == "left_out" else "repl.source_failed",
                         lang, error=shorten(source.error or "", 80)))
        label, title = shorten(source.label, 12), shorten(source.title, 300)
        console.print(f"[cyan]{escape(label)}[/cyan] {escape(title)} [{'dim' if ok else 'red'}]({escape(status)})[/]",
                      soft_wrap=True)
        console.print(f"    {escape(source.url)}", soft_wrap=True)


def print_sessions_table(sessions: list[dict], lang: str) -> None:
    from rich.console import Console
    from rich.markup import escape
    from rich.table import Table

    from research.modules.text.sanitize import one_line

    if not sys.stdout.isatty():
        # Piped (`| cat`, `| grep`): one tab-separated line per session, nothing cut to a width.
        for meta in sessions:
            fields = [meta.get("session_id", ""), (meta.get("created_at") or "")[:16].replace("T", " "),
                      _status_shown(meta, lang), meta.get("sources", ""), _supported_cell(meta, lang),
                      meta.get("question") or ""]
            print("\t".join(one_line(str(value)).replace("\t", " ") for value in fields))
        return

    from rich import box
    from rich.cells import cell_len

    console = Console()
    narrow = console.width < 120
    # meta.json may come from someone else's folder: plain text, one line, no markup.
    # Under 120 columns the date loses its year and the sources count and the share supported
    # share a column ("5 · 29%"), so that the question keeps room.
    rows = [[one_line(str(value), limit) for value, limit in (
        (meta.get("session_id", ""), 40),
        ((meta.get("created_at") or "")[5 if narrow else 0:16].replace("T", " "), None),
        (meta.get("question") or "", None),
        (_status_shown(meta, lang), 20),
        (meta.get("sources", ""), 10),
        (_supported_cell(meta, lang, short=narrow), None),
    )] for meta in sessions]
    keys = ["sessions.col_id", "sessions.col_date", "sessions.col_question", "sessions.col_status",
            "sessions.col_sources", "sessions.col_verified"]
    if narrow:
        keys.pop()
        rows = [row[:4] + [" · ".join(value for value in row[4:] if value)] for row in rows]
    headers = [t(key, lang) for key in keys]
    # The question gets what the other columns leave, counted in cells (a Japanese character
    # takes two), and is cut to two lines of it with "…". Counted in characters, an 80-column
    # terminal showed 「日本の …」.
    others = sum(max([cell_len(headers[n])] + [cell_len(row[n]) for row in rows])
                 for n in range(len(headers)) if n != 2)
    room = max(12, console.width - others - 3 * (len(headers) - 1))  # a column's gap: " │ " less its rule
    table = Table(title=t("sessions.title", lang), box=box.SIMPLE_HEAD, pad_edge=False, show_edge=False)
    for number, header in enumerate(headers):
        # The id is what users copy into /open, /resume, `sessions show`: never cut it.
        table.add_column(header, no_wrap=number != 2, overflow="fold" if number == 2 else "ellipsis",
                         min_width=22 if number == 0 else None, max_width=room if number == 2 else None)
    for row in rows:
        row[2] = cut_to_cells(row[2], 2 * room)
        table.add_row(*(escape(value) for value in row))
    console.print(table)


def cut_to_cells(text: str, cells: int) -> str:
    """``text`` in at most ``cells`` terminal cells (East Asian wide characters count two), "…" at a cut."""
    from rich.cells import cell_len, set_cell_size

    if cell_len(text) <= cells:
        return text
    return set_cell_size(text, cells - 1).rstrip() + "…"


def _supported_cell(meta: dict, lang: str, short: bool = False) -> str:
    """"29% (2 of 7 supported)": the share computed from the counts it stands beside (the
    five verdict counts of meta.json; sessions written before them, from their summary)."""
    from research.state.models import VerdictState, summary_states, supported_percent  # noqa: PLC0415

    verification = meta.get("verification")
    states = summary_states(verification) if isinstance(verification, dict) else {}
    claims = sum(states.values())
    if not claims:
        return ""
    if short:
        return f"{supported_percent(states)}%"
    return t("sessions.supported_cell", lang, percent=supported_percent(states), claims=claims,
             supported=states[VerdictState.SUPPORTED])


def _with_verdicts(meta: dict) -> dict:
    """meta.json with its verification's five counts and the share supported from them."""
    from research.state.models import states_json, summary_states, supported_percent  # noqa: PLC0415

    verification = meta.get("verification")
    if not isinstance(verification, dict) or not verification:
        return meta
    states = summary_states(verification)
    return {**meta, "verification": {**verification, "verdicts": states_json(states),
                                     "supported_percent": supported_percent(states)}}


def _status_shown(meta: dict, lang: str) -> str:
    from research.state.status import SessionStatus  # noqa: PLC0415 - the state package loads pydantic

    status = meta.get("status", "")
    if status == SessionStatus.NO_EVIDENCE and meta.get("exit_code") == EXIT_SEARCH_FAILED:
        return t("terminal.status_search_failed", lang)  # nothing was searched: not "no evidence"
    if status == SessionStatus.INTERRUPTED:
        return t("terminal.status_interrupted", lang)
    if status == SessionStatus.DAMAGED:  # a meta.json that is not ours (session_folder.listed_meta)
        return t("session_folder.damaged", lang)
    return status

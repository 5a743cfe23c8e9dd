"""`research sessions …`, `research doctor`, `research config` and `research help`;
`verify` and `mcp` have modules of their own."""

from __future__ import annotations

import argparse
import json
import os
import shutil
import sys

from research.modules.core.errors import EXIT_FAILURE, EXIT_OK, EXIT_USAGE, UserFacingError
from research.modules.core.i18n import t
from research.modules.core.language import Language, choose_language
from research.cli.arguments import ArgumentParser
from research.modules.text.sanitize import clean_data, strip_controls


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
    lang = choose_language(getattr(args, "lang", None) or _locale_language())
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

            from research.team.client import cancel

            return asyncio.run(cancel(args.run, settings, lang, as_json=args.json))
        if settings.server:  # the team's sessions, read from its research serve
            return _server_sessions(args, settings, lang)
        return _sessions(args, settings, lang)
    except UserFacingError as exc:
        sys.stderr.write(f"research: {exc.message(lang)}\n")
        return exc.exit_code


def _attach(args: argparse.Namespace, settings, lang: Language) -> int:
    """`research attach [RUN]`: a run on the server followed again, printed as a local run."""
    import asyncio

    from research.team.client import attach

    if args.output:
        from research.cli.run_output import check_output_destination

        check_output_destination(args.output)
    return asyncio.run(attach(args.run, settings, lang, as_json=args.json, output=args.output))


def _server_sessions(args: argparse.Namespace, settings, lang: Language) -> int:
    """`research sessions list|show|open` with RESEARCH_SERVER: this token's sessions on the
    server, printed as local ones are; `rm` stays local (the server keeps its sessions)."""
    import asyncio

    from research.team.client import server_sessions

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


def _sessions(args: argparse.Namespace, settings, lang: Language) -> int:
    from research.cli.listing import print_sessions_table, with_verdicts
    from research.state.session_folder import RESUMABLE_STATUSES, HistoryManager, effective_status

    history = HistoryManager(settings.sessions_dir)
    action = args.action or "list"
    if action == "list":
        sessions = history.list_sessions()
        if getattr(args, "json", False):
            # meta.json may come from someone else's folder: no escape or bidi bytes reach the terminal.
            print(json.dumps(clean_data([with_verdicts(meta) for meta in sessions]), ensure_ascii=False))
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
            print(json.dumps(clean_data(with_verdicts(meta)), ensure_ascii=False))
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


def _remove_link(history, args: argparse.Namespace, lang: Language) -> bool:
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


def _confirm_removal(history, session, lang: Language) -> bool:
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

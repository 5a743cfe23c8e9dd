"""`research sessions …` and `research doctor`; `verify` and `mcp` have modules of their own."""

from __future__ import annotations

import argparse
import json
import os
import shutil
import sys

from research.modules.core.errors import EXIT_OK, EXIT_USAGE, UserFacingError
from research.modules.core.i18n import t
from research.cli.main import _ArgumentParser
from research.modules.text.sanitize import strip_controls


def _parser() -> argparse.ArgumentParser:
    parser = _ArgumentParser(prog="research")
    commands = parser.add_subparsers(dest="command", required=True)

    sessions = commands.add_parser("sessions", help="list, show, open or remove sessions")
    actions = sessions.add_subparsers(dest="action")
    listing = actions.add_parser("list", help="sessions, newest first")
    listing.add_argument("--json", action="store_true")
    for name, helptext in (("show", "print a session's report"), ("open", "open report.pdf in the viewer"),
                           ("rm", "delete a session folder")):
        action = actions.add_parser(name, help=helptext)
        action.add_argument("id")
        if name == "show":
            action.add_argument("--json", action="store_true")
    sessions.add_argument("--lang", choices=["ja", "en"])

    doctor = commands.add_parser("doctor", help="check Ollama, model, sandbox, search server, fonts, sessions folder")
    doctor.add_argument("--json", action="store_true")
    doctor.add_argument("--lang", choices=["ja", "en"])

    return parser


def dispatch(argv: list[str]) -> int:
    if argv[:1] == ["verify"]:
        # `research verify` has its own parser and output contract (cli/verify.py).
        from research.cli.verify import main as verify_main

        return verify_main(argv[1:])
    if argv[:1] == ["mcp"]:
        # The MCP servers run as their own processes with their own flags (cli/mcp_command.py).
        from research.cli.mcp_command import main as mcp_main

        return mcp_main(argv[1:])
    args = _parser().parse_args(argv)
    lang = getattr(args, "lang", None) or ("ja" if os.environ.get("LANG", "").startswith("ja") else "en")
    try:
        from research.modules.core.settings import load_settings

        settings = load_settings()
        if args.command == "doctor":
            from research.cli.doctor import run_doctor

            return run_doctor(settings, as_json=args.json, lang=lang)
        return _sessions(args, settings, lang)
    except UserFacingError as exc:
        sys.stderr.write(f"research: {exc.message(lang)}\n")
        return exc.exit_code


def _sessions(args: argparse.Namespace, settings, lang: str) -> int:
    from research.state.session_folder import HistoryManager

    history = HistoryManager(settings.sessions_dir)
    action = args.action or "list"
    if action == "list":
        sessions = history.list_sessions()
        if getattr(args, "json", False):
            print(json.dumps(sessions, ensure_ascii=False))
        else:
            print_sessions_table(sessions, lang)
        return EXIT_OK
    session = history.resolve(args.id)
    if action == "show":
        report = session.path / "report.md"
        if getattr(args, "json", False):
            meta = history.read_json(session.session_id, "meta.json", {})
            meta["report_md"] = str(report) if report.exists() else None
            print(json.dumps(meta, ensure_ascii=False))
        elif report.exists():
            from rich.console import Console
            from rich.markdown import Markdown

            # A shared folder's report.md may hold escape sequences (OSC 52, clear screen …).
            Console().print(Markdown(strip_controls(report.read_text("utf-8"))))
        else:
            sys.stderr.write(t("sessions.no_report", lang, session_id=session.session_id) + "\n")
            return EXIT_USAGE
        return EXIT_OK
    if action == "open":
        pdf = session.path / "report.pdf"
        if not pdf.exists():
            sys.stderr.write(t("sessions.no_report", lang, session_id=session.session_id) + "\n")
            return EXIT_USAGE
        from research.cli.viewer import open_in_viewer

        if not open_in_viewer(pdf):
            print(pdf)
        return EXIT_OK
    shutil.rmtree(session.path)
    sys.stderr.write(t("sessions.removed", lang, session_id=session.session_id) + "\n")
    return EXIT_OK


def print_sessions_table(sessions: list[dict], lang: str) -> None:
    from rich.console import Console
    from rich.markup import escape
    from rich.table import Table

    from research.modules.text.sanitize import one_line

    def cell(value: object, limit: int | None = None) -> str:
        # meta.json may come from someone else's folder: plain text, one line, no markup.
        return escape(one_line(str(value), limit))

    table = Table(title=t("sessions.title", lang))
    for column in ("sessions.col_id", "sessions.col_date", "sessions.col_question", "sessions.col_status",
                   "sessions.col_sources", "sessions.col_verified"):
        # The id is what users copy into /open, /resume, `sessions show`: never cut it.
        is_id = column == "sessions.col_id"
        table.add_column(t(column, lang), no_wrap=is_id, min_width=22 if is_id else None)
    for meta in sessions:
        ratio = (meta.get("verification") or {}).get("supported_ratio")
        table.add_row(
            cell(meta.get("session_id", ""), 40),
            cell((meta.get("created_at") or "")[:16].replace("T", " ")),
            cell(meta.get("question") or "", 60),
            cell(meta.get("status", ""), 20),
            cell(meta.get("sources", ""), 10),
            f"{ratio:.0%}" if isinstance(ratio, (int, float)) else "",
        )
    Console().print(table)

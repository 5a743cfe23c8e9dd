"""`research bench SET [--data FILE] [--sample N --seed S] [--question-timeout S] [--json] [run options]`,
`research bench SET --fetch`

Whole research runs over a question set whose pages are fixed (orchestrator/bench/): a
line on stderr per question (done, accuracy so far, time left), then the figures as a
table (or one JSON object with --json) and the paths of report.md, report.pdf and
results.jsonl. Running the same command again goes on where an interrupted bench stopped.
``--fetch`` puts the set's files in the user's cache (orchestrator/bench/fetch.py: pinned
address and sha256), shows their licence and attribution and stops; without --data a bench
reads the fetched file. A file that is not the pinned one is refused in one line, exit 1.
Bad input (an unknown set, no file, a file not of the set's format, a bad number) is one
line in the user's language and exit 2; a stopped Ollama or a missing model exit 3.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import shlex
import sys

from research.cli.arguments import ArgumentParser, message_language
from research.modules.core.errors import EXIT_FAILURE, EXIT_OK, SIGNAL_EXIT_CODES, UsageError, UserFacingError
from research.modules.core.i18n import t
from research.modules.core.language import Language
from research.modules.core.run_options import FLAG_NAMES, add_flags, from_flags


def _parser(lang: Language) -> argparse.ArgumentParser:
    from research.orchestrator.bench.runner import DEFAULT_QUESTION_TIMEOUT

    parser = ArgumentParser(prog="research bench", description=t("bench.help", lang))
    parser.add_argument("set", metavar="SET", help=t("bench.help_set", lang))
    parser.add_argument("--data", metavar="FILE", help=t("bench.help_data", lang))
    parser.add_argument("--sample", metavar="N", help=t("bench.help_sample", lang))
    parser.add_argument("--seed", metavar="S", default="0", help=t("bench.help_seed", lang))
    parser.add_argument("--question-timeout", metavar="S", dest="question_timeout",
                        help=t("bench.help_timeout", lang, default=DEFAULT_QUESTION_TIMEOUT))
    parser.add_argument("--json", action="store_true", help=t("bench.help_json", lang))
    parser.add_argument("--fetch", action="store_true", help=t("bench.help_fetch", lang))
    # Every option of a run (--model, --depth, --lang, the budgets…), as `research "…"` takes them.
    add_flags(parser, lang)
    return parser


def _whole_number(flag: str, value: str | None, least: int) -> int | None:
    if value is None:
        return None
    try:
        number = int(value)
    except ValueError:
        number = least - 1
    if number < least:
        raise UsageError("bench.bad_number", flag=flag, least=least, value=str(value)[:30])
    return number


def _early_language(argv: list[str]) -> Language:
    """--lang as typed (for --help and argparse's own errors), else the environment's."""
    for n, arg in enumerate(argv):
        if arg == "--lang" and n + 1 < len(argv):
            return message_language(argv[n + 1] if argv[n + 1] in ("ja", "en") else None, None)
        if arg.startswith("--lang="):
            value = arg.split("=", 1)[1]
            return message_language(value if value in ("ja", "en") else None, None)
    return message_language(None, None)


def main(argv: list[str]) -> int:
    args = _parser(_early_language(argv)).parse_args(argv)
    lang = message_language(args.language if args.language in ("ja", "en") else None, None)
    try:
        from pathlib import Path

        from research.modules.core.settings import load_settings
        from research.orchestrator.bench.runner import DEFAULT_QUESTION_TIMEOUT, BenchRequest
        from research.orchestrator.bench.sets import SETS

        if args.set not in SETS:  # before the file: the set decides what the file must be
            raise UsageError("bench.unknown_set", name=args.set[:60], sets=", ".join(SETS))
        if args.fetch:
            if args.data:
                raise UsageError("bench.fetch_with_data")
            return _fetch(args.set, lang)
        data = args.data or _fetched(args.set)
        if not data:
            raise UsageError("bench.no_data", set=args.set)
        sample = _whole_number("--sample", args.sample, 1)
        seed = _whole_number("--seed", args.seed, 0)
        timeout = _whole_number("--question-timeout", args.question_timeout, 1)
        settings = load_settings(flag_names=FLAG_NAMES, **from_flags(vars(args)))
        from research.modules.core.logs import configure

        configure(settings.log_level, verbose=False, lang=lang)
        request = BenchRequest(args.set, Path(data).expanduser(), sample, seed or 0, settings,
                               float(timeout) if timeout else DEFAULT_QUESTION_TIMEOUT)
        command = "research bench " + " ".join(shlex.quote(arg) for arg in argv)
        return _run(request, lang, command, as_json=args.json)
    except UserFacingError as exc:
        sys.stderr.write(f"research: {exc.message(lang)}\n")
        return exc.exit_code


def _fetched(set_name: str) -> str | None:
    from research.orchestrator.bench.fetch import cached_data

    path = cached_data(set_name)
    return str(path) if path else None


def _fetch(set_name: str, lang: Language) -> int:
    from research.orchestrator.bench.fetch import SOURCES, fetch_set

    path, downloaded = fetch_set(set_name)
    source = SOURCES[set_name]
    print(t("bench.fetched", lang, set=set_name, path=path, downloaded=downloaded, licence=source.licence,
            attribution=source.attribution))
    return EXIT_OK


def _run(request, lang: Language, command: str, *, as_json: bool) -> int:
    from research.orchestrator.bench.runner import prepare, run_bench

    # Read and checked here (usage errors before Ollama is asked), then again by run_bench.
    bench, items, folder, _settings, _config = prepare(request)
    sys.stderr.write(t("bench.starting", lang, set=bench.name, questions=len(items), pages=len(bench.pages),
                       model=request.settings.model, folder=folder) + "\n")
    seen = {"done": 0, "planned": len(items)}

    from research.orchestrator.bench.results import DONE  # a question's state in the bench, not a session's

    def progress(step) -> None:
        seen["done"] = step.done
        if step.last is None:
            return
        percent = f"{100 * step.correct / step.done:.1f} %" if step.done else "–"
        mark = "✓" if step.last.correct else ("✗" if step.last.status == DONE else "!")
        sys.stderr.write(t("bench.progress", lang, done=step.done, planned=step.planned, mark=mark,
                           item=step.last.item_id, percent=percent, correct=step.correct,
                           left=_duration(step.seconds_left)) + "\n")
        sys.stderr.flush()

    from research.orchestrator.bench.results import RESULTS_FILE, read_results

    already = {r.item_id for r in read_results(folder / RESULTS_FILE)} & {item.item_id for item in items}
    if already:
        sys.stderr.write(t("bench.resuming", lang, done=len(already)) + "\n")
        seen["done"] = len(already)
    stopped: dict[str, str] = {}
    try:
        outcome = asyncio.run(_until_stopped(run_bench(request, progress), stopped))
    except (KeyboardInterrupt, asyncio.CancelledError):
        # The question running is left as a cancelled session; its line was never written, so
        # the same command asks it again. Every line written is whole (results.jsonl, fsynced).
        name = stopped.get("by", "SIGINT")
        sys.stderr.write("research: " + t("bench.interrupted", lang, signal="Ctrl-C" if name == "SIGINT" else name,
                                          done=seen["done"], planned=seen["planned"]) + "\n")
        return SIGNAL_EXIT_CODES[name]
    from research.orchestrator.bench.report import write_report

    written = write_report(outcome.folder, outcome.summary, lang, command, request.settings)
    if as_json:
        print(json.dumps({**outcome.summary.as_json(), "folder": str(outcome.folder),
                          "results": str(outcome.folder / RESULTS_FILE),
                          **{name: str(path) for name, path in written.items()}}, ensure_ascii=False))
    else:
        _table(outcome.summary, lang)
        for path in (outcome.folder / RESULTS_FILE, written["report_md"], written["report_pdf"]):
            print(t("bench.written", lang, path=path))
    return EXIT_OK if outcome.summary.completed else EXIT_FAILURE


async def _until_stopped(work, stopped: dict[str, str]):
    """WORK, cancelled by SIGTERM or SIGHUP as Ctrl-C cancels it (the running question's session
    is closed and the kept servers stopped, instead of the process dying mid-write)."""
    from research.cli.signals import cancel_on_signals

    def first_stop(name: str) -> bool:
        if stopped:
            return False
        stopped["by"] = name
        return True

    cancel_on_signals(first_stop)
    return await work


def _table(summary, lang: Language) -> None:
    from rich.console import Console
    from rich.markup import escape
    from rich.table import Table

    from research.orchestrator.bench.report import figure_rows

    table = Table(title=t("bench.report_title", lang, set=summary.set_name, model=summary.model))
    table.add_column(t("bench.col_figure", lang), overflow="fold")
    table.add_column(t("bench.col_value", lang), overflow="fold")
    for label, value in figure_rows(summary, lang):
        table.add_row(escape(label), escape(value))
    Console(soft_wrap=False).print(table)


def _duration(seconds: float | None) -> str:
    if seconds is None:
        return "–"
    seconds = int(round(seconds))
    hours, rest = divmod(seconds, 3600)
    return f"{hours}:{rest // 60:02d}:{rest % 60:02d}" if hours else f"{rest // 60}:{rest % 60:02d}"

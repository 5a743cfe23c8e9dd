"""The command line's grammar: the one-shot parser, the parser every subcommand builds on
(a mistake is one line and exit code 2), the language of messages before settings are read,
and how a failed stdout or an error is said. Below both `main` and the subcommands, so neither
imports the other for them.
"""

from __future__ import annotations

import argparse
import os
import re
import sys

from research import __version__
from research.modules.core.errors import EXIT_USAGE
from research.modules.core.i18n import t
from research.modules.core.language import Language, choose_language
from research.modules.core.run_options import add_flags


class ArgumentParser(argparse.ArgumentParser):
    """argparse, but a usage mistake is one line in the user's language and exit code 2 (no usage dump)."""

    _argv: list[str] = []

    def parse_known_args(self, args=None, namespace=None):  # type: ignore[no-untyped-def, override]
        self._argv = list(sys.argv[1:] if args is None else args)  # for error()'s language
        return super().parse_known_args(args, namespace)

    def error(self, message: str) -> None:  # type: ignore[override]
        lang = message_language(_lang_flag(self._argv), None)
        sys.stderr.write(f"research: {usage_message(message, lang)}\n")
        raise SystemExit(EXIT_USAGE)


# argparse's own mistakes, read back from its English text, each said in the user's language.
_ARGPARSE_ERRORS = (
    (re.compile(r"unrecognized arguments: (?P<args>.*)", re.S), "usage.unrecognized"),
    (re.compile(r"the following arguments are required: (?P<args>.*)", re.S), "usage.required"),
    (re.compile(r"argument (?P<flag>\S+?): expected (?:one argument|at least one argument)"), "usage.expected_value"),
    (re.compile(r"argument (?P<flag>\S+?): invalid choice: (?P<value>.*?) \(choose from (?P<choices>.*)\)", re.S),
     "usage.invalid_choice"),
    (re.compile(r"argument (?P<flag>\S+?): ignored explicit argument (?P<value>.*)", re.S), "usage.no_value"),
    (re.compile(r"ambiguous option: (?P<flag>\S+) could match (?P<choices>.*)", re.S), "usage.ambiguous"),
)


def usage_message(message: str, lang: Language) -> str:
    """argparse's ``message`` in ``lang``; one argparse has no form here for is kept, labelled."""
    for pattern, key in _ARGPARSE_ERRORS:
        found = pattern.fullmatch(message.strip())
        if found:
            return t(key, lang, **found.groupdict())
    return t("usage.argument_error", lang, message=message)


def _lang_flag(argv: list[str]) -> str | None:
    """The value of ``--lang`` in ``argv`` (``--lang ja``, ``--lang=ja``), before argparse has read it."""
    for number, arg in enumerate(argv):
        if arg == "--lang" and number + 1 < len(argv):
            return argv[number + 1]
        if arg.startswith("--lang="):
            return arg.split("=", 1)[1]
    return None


def build_parser() -> argparse.ArgumentParser:
    parser = ArgumentParser(
        prog="research",
        description="Local-first bilingual research assistant / ローカルで動く日英リサーチアシスタント. "
        "Subcommands: sessions, doctor, config, verify, mcp, serve, attach, cancel, bench, help (run `research <subcommand> --help`).",
    )
    parser.add_argument("question", nargs="?", help="the question (no question: start the REPL)")
    # The options of a run (--lang, --model, --engine, --depth, the budgets, …): one
    # declaration each, in modules/core/run_options.py, with their help in the user's language.
    add_flags(parser, message_language(None, None))
    parser.add_argument("--json", action="store_true", help="print one JSON object on stdout at the end")
    parser.add_argument("-o", "--output", metavar="PATH",
                        help="also copy the report there: a .md, .pdf or .json file, or a folder for all of them")
    parser.add_argument("--resume", metavar="ID", help="resume an interrupted session")
    parser.add_argument("--verbose", action="store_true",
                        help="more detail on stderr: each step's account, and the log of what the run did "
                             "(steps, model calls, times, retries; RESEARCH_LOG_LEVEL sets it without this flag)")
    parser.add_argument("--version", action="version", version=f"research {__version__}")
    return parser


def error_line(message: str) -> None:
    sys.stderr.write(f"research: {message}\n")


def message_language(flag: str | None, question: str | None) -> Language:
    """The language for messages before settings are read: the flag, RESEARCH_LANGUAGE, the
    question's, the locale's."""
    return choose_language(flag, os.environ.get("RESEARCH_LANGUAGE"), text=question or "")


def stdout_failed(exc: OSError, lang: Language) -> None:
    # Point fd 1 at /dev/null so the interpreter's own flush at exit cannot fail again.
    try:
        null = os.open(os.devnull, os.O_WRONLY)
        os.dup2(null, 1)
        os.close(null)
        sys.stdout = open(1, "w", encoding="utf-8", closefd=False)
    except OSError:
        pass
    try:
        error_line(t("output.failed", lang, stream="stdout", reason=exc.strerror or type(exc).__name__))
    except OSError:
        pass

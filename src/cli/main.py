"""The `research` console script: one-shot research, subcommands, or the REPL.

Heavy modules (langgraph, ollama, mcp, reportlab) are imported only by the command
that needs them, so `research --help` starts fast.
"""

from __future__ import annotations

import argparse
import errno
import json
import os
import sys

from research import __version__
from research.modules.core.errors import EXIT_FAILURE, EXIT_USAGE, UserFacingError
from research.modules.core.i18n import t

SUBCOMMANDS = ("sessions", "doctor", "mcp", "verify")
# Failures of the session folder's storage: reported as one line, exit code 1.
_STORAGE_ERRNOS = {errno.ENOSPC, errno.EDQUOT, errno.EROFS, errno.EACCES, errno.EPERM, errno.ENOTDIR, errno.EFBIG}


class _ArgumentParser(argparse.ArgumentParser):
    """argparse, but a usage mistake is one line and exit code 2 (no usage dump)."""

    def error(self, message: str) -> None:  # type: ignore[override]
        sys.stderr.write(f"research: {message}\n")
        raise SystemExit(EXIT_USAGE)


def build_parser() -> argparse.ArgumentParser:
    parser = _ArgumentParser(
        prog="research",
        description="Local-first bilingual research assistant / ローカルで動く日英リサーチアシスタント. "
        "Subcommands: sessions, doctor, mcp (run `research <subcommand> --help`).",
    )
    parser.add_argument("question", nargs="?", help="the question (no question: start the REPL)")
    parser.add_argument("--lang", help="answer language: ja, en or auto (default: detect from the question)")
    parser.add_argument("--model", help="Ollama model (default gpt-oss:20b, RESEARCH_MODEL)")
    parser.add_argument("--engine", help="search engine: duckduckgo, searxng or local")
    parser.add_argument("--docs", help="folder of your own documents for the local engine")
    parser.add_argument("--max-loops", type=int, dest="max_loops", help="maximum verification loops")
    parser.add_argument("--depth", help="quick, standard (default) or deep (RESEARCH_DEPTH)")
    parser.add_argument("--review-plan", action="store_true", dest="review_plan",
                        help="stop after planning to review the sub-questions (needs a terminal)")
    parser.add_argument("--max-sources", type=int, dest="max_sources", help="source budget (RESEARCH_MAX_SOURCES)")
    parser.add_argument("--max-llm-tokens", type=int, dest="max_llm_tokens",
                        help="LLM token budget (RESEARCH_MAX_LLM_TOKENS)")
    parser.add_argument("--max-seconds", type=float, dest="max_seconds", help="time budget (RESEARCH_MAX_SECONDS)")
    parser.add_argument("--json", action="store_true", help="print one JSON object on stdout at the end")
    parser.add_argument("--resume", metavar="ID", help="resume an interrupted session")
    parser.add_argument("--verbose", action="store_true", help="more detail on stderr")
    parser.add_argument("--version", action="version", version=f"research {__version__}")
    return parser


def main(argv: list[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    try:
        if argv and argv[0] in SUBCOMMANDS:
            from research.cli import subcommands

            code = subcommands.dispatch(argv)
        else:
            code = _research(build_parser().parse_args(argv))
    except KeyboardInterrupt:
        code = 130
    raise SystemExit(code)


def _research(args: argparse.Namespace) -> int:
    lang = _message_language(args.lang, args.question)
    try:
        from research.modules.core.settings import load_settings

        settings = load_settings(
            model=args.model,
            search_engine=args.engine,
            docs_dir=args.docs,
            max_verification_loops=args.max_loops,
            depth=args.depth,
            review_plan=True if args.review_plan else None,
            max_sources=args.max_sources,
            max_llm_tokens=args.max_llm_tokens,
            max_seconds=args.max_seconds,
            language=_validated_lang(args.lang),
        )
        if args.question is None and not args.resume:
            if not sys.stdin.isatty():
                build_parser().print_help(sys.stderr)
                return EXIT_USAGE
            from research.cli.repl import run_repl

            return run_repl(settings)
        import asyncio  # here, not at the top: it costs ~80 ms that `research --help` need not pay

        return asyncio.run(_one_shot(args, settings, lang))
    except UserFacingError as exc:
        sys.stderr.write(f"research: {exc.message(lang)}\n")
        return exc.exit_code


async def _one_shot(args: argparse.Namespace, settings, lang: str) -> int:
    from research.orchestrator.runner import ResearchRequest, run_research
    from research.cli.progress import ConsoleProgress

    progress = ConsoleProgress(lang, answer_stream=sys.stderr if args.json else sys.stdout, verbose=args.verbose)
    request = ResearchRequest(question=args.question or "", language=settings.language, resume=args.resume)
    # Plan review needs someone to answer: on a terminal, ask; else say it was skipped.
    if sys.stdin.isatty():
        from research.cli.plan_review import terminal_reviewer

        request.reviewer = terminal_reviewer(lang)
        request.review_plan = settings.review_plan
    elif settings.review_plan and not args.resume:
        progress.console.print(t("plan.review_skipped", lang))
    try:
        result = await run_research(request, settings, progress)
    except UserFacingError as exc:
        if progress.session_id and exc.exit_code != EXIT_USAGE:
            # The session exists and its finished steps are checkpointed: say how to go on.
            _error_line(t("session.resume_hint", progress.lang, message=exc.message(progress.lang),
                          session_id=progress.session_id))
            return exc.exit_code
        raise
    except Exception as exc:  # noqa: BLE001 - the user gets one line; the traceback is in error.log
        if isinstance(exc, OSError) and exc.errno in _STORAGE_ERRNOS:
            # Disk full or a read-only folder mid-run: one line naming the folder.
            where = progress.session_dir or str(settings.sessions_dir)
            _error_line(t("session.write_failed", progress.lang, path=where, reason=exc.strerror or str(exc)))
            return EXIT_FAILURE
        sys.stderr.write("research: " + t("error.unexpected", progress.lang, reason=f"{type(exc).__name__}: {exc}",
                                          log="error.log") + "\n")
        return EXIT_FAILURE
    if result.exit_code:
        progress.console.print(t("progress.no_evidence", result.language))
    if args.json:
        print(json.dumps(result.to_json(), ensure_ascii=False))
    else:
        print(result.report_pdf)
    return result.exit_code


def _error_line(message: str) -> None:
    sys.stderr.write(f"research: {message}\n")


def _validated_lang(value: str | None) -> str | None:
    if value is None:
        return None
    if value not in ("ja", "en", "auto"):
        from research.modules.core.errors import UsageError

        raise UsageError("usage.bad_lang", value=value)
    return value


def _message_language(flag: str | None, question: str | None) -> str:
    """The language for messages before settings are read: flag, env, question, locale."""
    for candidate in (flag, os.environ.get("RESEARCH_LANGUAGE")):
        if candidate in ("ja", "en"):
            return candidate
    if question:
        from research.modules.core.language import detect_language

        return detect_language(question)
    return "ja" if os.environ.get("LANG", "").startswith("ja") else "en"


if __name__ == "__main__":
    main()

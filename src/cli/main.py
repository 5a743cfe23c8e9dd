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

from research.modules.core import pattern_cache

# The console script's own process keeps its compiled regular expressions between starts
# (see pattern_cache): installed before the modules below compile theirs.
_CONSOLE_SCRIPT = os.path.basename(sys.argv[0]) == "research"
if _CONSOLE_SCRIPT:
    pattern_cache.install()

from research.modules.core.errors import EXIT_FAILURE, EXIT_USAGE, SIGNAL_EXIT_CODES, UserFacingError
from research.modules.core.i18n import t
from research.cli.arguments import build_parser, error_line, message_language, stdout_failed
from research.modules.core.language import Language
from research.modules.core.run_options import FLAG_NAMES, from_flags

SUBCOMMANDS = ("sessions", "doctor", "mcp", "verify", "config", "help", "serve", "attach", "cancel", "bench")
# Failures of the session folder's storage: reported as one line, exit code 1.
_STORAGE_ERRNOS = {errno.ENOSPC, errno.EDQUOT, errno.EROFS, errno.EACCES, errno.EPERM, errno.ENOTDIR, errno.EFBIG}


def main(argv: list[str] | None = None) -> int:
    # Only the console script itself (argv from the command line) may end the interpreter
    # at once; code that calls main([...]) in-process gets a SystemExit as before.
    fast_exit = argv is None and os.path.basename(sys.argv[0]) == "research"
    argv = list(sys.argv[1:] if argv is None else argv)
    closed = _reopen_closed_standard_streams()
    if "stdout" in closed and argv[:1] != ["mcp"]:
        # The report path or JSON would go nowhere; say so before any work is done.
        error_line(t("output.stdout_closed", message_language(None, None)))
        raise SystemExit(EXIT_FAILURE)
    try:
        if argv and argv[0] in SUBCOMMANDS:
            from research.cli import subcommands

            code = subcommands.dispatch(argv)
        else:
            code = _research(build_parser().parse_args(argv))
        if _CONSOLE_SCRIPT:  # in the try: a Ctrl-C while it writes ends as one during the run
            pattern_cache.save()
    except KeyboardInterrupt:
        code = SIGNAL_EXIT_CODES["SIGINT"]
    if fast_exit:
        _exit_without_teardown(code)
    raise SystemExit(code)


def _exit_without_teardown(code: int) -> None:
    """Everything the run wrote is closed by now (session files fsynced, checkpointer and
    servers closed, the answer printed): flush what is buffered and end the process, without
    the interpreter's teardown of hundreds of modules and idle threads (most of a second)."""
    import logging

    logging.shutdown()
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except (OSError, ValueError):
            pass
    os._exit(0 if code is None else code if isinstance(code, int) else EXIT_FAILURE)


def _reopen_closed_standard_streams() -> set[str]:
    """`research "q" <&-` or `>&-`: put /dev/null on a closed fd 0/1/2.

    Otherwise the next file opened (the checkpoint database, a server's pipe) would get
    that number and a stray print would write into it. Returns the names that were closed.
    """
    closed = set()
    for fd, name, mode in ((0, "stdin", "r"), (1, "stdout", "w"), (2, "stderr", "w")):
        try:
            os.fstat(fd)
            continue
        except OSError:
            pass
        null = os.open(os.devnull, os.O_RDWR)
        if null != fd:
            os.dup2(null, fd)
            os.close(null)
        setattr(sys, name, open(fd, mode, encoding="utf-8", closefd=False))
        closed.add(name)
    return closed


def _write_result(text: str, lang: Language) -> int:
    """Print the last line of a run; a closed pipe (`| head -c 20`) or a full disk
    (`> /dev/full`) is one line on stderr and exit 1, never a traceback."""
    try:
        sys.stdout.write(text + "\n")
        sys.stdout.flush()
        return 0
    except OSError as exc:
        stdout_failed(exc, lang)
        return EXIT_FAILURE


def _research(args: argparse.Namespace) -> int:
    lang = message_language(args.language, args.question)
    try:
        from research.modules.core.settings import load_settings

        settings = load_settings(flag_names=FLAG_NAMES, **from_flags(vars(args)))
        from research.modules.core.logs import configure

        configure(settings.log_level, verbose=args.verbose, lang=lang)
        if settings.server and (args.question or args.resume):
            # A team's `research serve` runs it (RESEARCH_SERVER, docs/scale.md): nothing runs here.
            import asyncio

            from research.team.client import run_remote

            if args.output:  # as for a local run: a destination that cannot be written is said first
                from research.cli.run_output import check_output_destination

                check_output_destination(args.output)
            return asyncio.run(run_remote(args.question or "", settings, lang, as_json=args.json,
                                          resume=args.resume, output=args.output)).exit_code
        _check_before_a_session(settings, lang)
        if args.output:  # a destination that cannot be written is said now, not after the run
            from research.cli.run_output import check_output_destination

            check_output_destination(args.output)
        if args.question is None and not args.resume:
            if not sys.stdin.isatty():
                build_parser().print_help(sys.stderr)
                return EXIT_USAGE
            from research.cli.repl import run_repl

            return run_repl(settings)
        standby = os.path.basename(sys.argv[0]) == "research"
        try:
            if standby:
                from research.cli import early_servers
                from research.modules.core.heap import limit_arenas

                limit_arenas(2)  # before any thread starts: its arenas stay (modules/core/heap.py)
                early_servers.prepare(settings, parser=True)
            import asyncio  # here, not at the top: it costs ~80 ms that `research --help` need not pay

            return asyncio.run(_one_shot(args, settings, lang))
        finally:
            # A run that ended before it started its servers (Ollama missing, a refused resume,
            # Ctrl-C during the imports): the servers made for it are not left behind.
            if standby:
                early_servers.discard()
    except UserFacingError as exc:
        sys.stderr.write(f"research: {exc.message(lang)}\n")
        return exc.exit_code


async def _one_shot(args: argparse.Namespace, settings, lang: Language) -> int:
    import asyncio
    from research.orchestrator.runner import ResearchRequest, run_research
    from research.cli.progress import ConsoleProgress

    # Drafts stream only to a terminal; a redirected stdout gets the checked answer alone.
    live = not args.json and _is_terminal(sys.stdout)
    progress = ConsoleProgress(lang, verbose=args.verbose, stream_answer=live)
    request = ResearchRequest(question=args.question or "", resume=args.resume)
    _stop_on_signals(request)
    # Plan review needs someone to answer: on a terminal, ask; else say it was skipped.
    if sys.stdin.isatty():
        from research.cli.plan_review import terminal_reviewer

        request.reviewer = terminal_reviewer(lang)
    elif settings.review_plan and not args.resume:
        progress.console.print(t("plan.review_skipped", lang))
    try:
        result = await run_research(request, settings, progress)
    except asyncio.CancelledError:
        progress.close()
        # Ctrl-C (asyncio.run cancels this task) or SIGTERM/SIGHUP (_stop_on_signals):
        # the runner has marked the session; say how to go on.
        name = request.stopped_by or "SIGINT"
        shown = "Ctrl-C" if name == "SIGINT" else name
        if progress.session_id:
            error_line(t("terminal.interrupted_kept", progress.lang, signal=shown, session_id=progress.session_id,
                          steps=progress.step_names()))
        else:
            error_line(t("stop.interrupted_early", progress.lang, signal=shown))
        return SIGNAL_EXIT_CODES[name]
    except UserFacingError as exc:
        if progress.session_id and exc.exit_code != EXIT_USAGE:
            # The session exists and its finished steps are checkpointed: say how to go on.
            error_line(t("session.resume_hint", progress.lang, message=exc.message(progress.lang),
                          session_id=progress.session_id))
            return exc.exit_code
        raise
    except Exception as exc:  # noqa: BLE001 - the user gets one line; the traceback is in error.log
        if isinstance(exc, OSError) and exc.errno in _STORAGE_ERRNOS:
            # Disk full or a read-only folder mid-run: one line naming the folder.
            where = progress.session_dir or str(settings.sessions_dir)
            error_line(t("session.write_failed", progress.lang, path=where, reason=exc.strerror or str(exc)))
            return EXIT_FAILURE
        sys.stderr.write("research: " + t("error.unexpected", progress.lang, reason=f"{type(exc).__name__}: {exc}",
                                          log="error.log") + "\n")
        return EXIT_FAILURE
    finally:
        progress.close()
    from research.cli.run_output import closing_lines, copy_outputs, final_stdout, json_result

    # On a terminal the PDF's path is the last line of stdout: the summary names report.md only.
    for line in closing_lines(result, progress, ("report_md",) if live else ("report_md", "report_pdf")):
        progress.console.print(line, soft_wrap=True)
    if args.output and copy_outputs(result, args.output, progress) != 0:
        return EXIT_FAILURE
    text = json.dumps(json_result(result), ensure_ascii=False) if args.json else final_stdout(result, progress, live)
    return _write_result(text, progress.lang) or result.exit_code


def _is_terminal(stream) -> bool:
    try:
        return stream.isatty()
    except (AttributeError, ValueError, OSError):
        return False


def _stop_on_signals(request) -> None:
    """SIGTERM and SIGHUP end a run the way Ctrl-C does (cli/signals.py): the runner records the
    session as "interrupted" and closes its servers, and the user gets one line with the resume
    command (exit 143 / 129)."""
    from research.cli.signals import cancel_on_signals

    def first_stop(name: str) -> bool:
        if request.stopped_by is not None:
            return False
        request.stopped_by = name
        return True

    cancel_on_signals(first_stop)


def _check_before_a_session(settings, lang: Language) -> None:
    """Bad settings end here (exit 2, naming the setting), before a session folder exists."""
    from research.modules.core.settings import check_run_settings

    check_run_settings(settings)
    if settings.sandbox in ("docker", "podman", "bwrap", "unshare"):
        # An explicit sandbox that cannot start would otherwise fail inside the run and
        # suggest a resume that fails the same way.
        from research.modules.clients.sandbox import SandboxUnavailable, choose_sandbox
        from research.modules.core.errors import UsageError

        try:
            choose_sandbox(settings)
        except SandboxUnavailable as exc:
            raise UsageError("setting.sandbox_unavailable", sandbox=settings.sandbox,
                             reason=exc.message(lang)) from None


if __name__ == "__main__":
    main()

"""How a one-shot run ends on the terminal: what went wrong, one summary line, the answer.

stderr gets the problems that were not already announced during the run and one closing
line (sources read, the claims in each verdict state and the share supported, loops, wall
time, report paths); stdout gets only the final checked answer (plus the PDF's path on a terminal).
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import TYPE_CHECKING, Any

from rich.markup import escape

from research.modules.core.errors import EXIT_OK, EXIT_SEARCH_FAILED
from research.modules.core.i18n import t
from research.modules.text.sanitize import strip_controls
from research.state.models import ProblemKind, summary_states
from research.state.progress_log import verdict_counts
from research.modules.core.files import atomic_write

from research.orchestrator.run_answer import json_result, json_view, report_answer, sources_section  # noqa: F401 - the CLI's

if TYPE_CHECKING:
    from research.state.run_record import RunOutcome

LANGUAGE_NAMES = {"ja": {"ja": "日本語", "en": "Japanese"}, "en": {"ja": "英語", "en": "English"}}


def closing_lines(result: RunOutcome, progress: Any, paths: tuple[str, ...] = ("report_md", "report_pdf")) -> list[str]:
    """Rich-markup lines for stderr: late problems, the exit-4/5 line, then the summary,
    ending with the report files in ``paths`` (each path is printed once: the REPL names
    them on lines of their own, and a terminal gets the PDF's path on stdout)."""
    lang = progress.lang
    lines: list[str] = []
    for problem in result.problems:
        if problem.kind == ProblemKind.LANGUAGE:
            language = LANGUAGE_NAMES.get(result.language, {}).get(lang, result.language)
            lines.append(f"[yellow]{escape(t('terminal.language_left', lang, language=language))}[/yellow]")
        elif problem.kind == ProblemKind.BUDGET:
            lines.append(f"[yellow]{escape(t('terminal.budget_stopped', lang, budget=problem.message))}[/yellow]")
        elif problem.kind == ProblemKind.DRAFT:
            lines.append(f"[yellow]{escape(t('answer.empty_draft', lang))}[/yellow]")
    if result.exit_code == EXIT_SEARCH_FAILED:
        lines.append(f"[red]{escape(t('terminal.search_unreachable', lang))}[/red]")
    elif result.exit_code != EXIT_OK:
        lines.append(f"[yellow]{escape(t('progress.no_evidence', lang))}[/yellow]")
    verification = result.verification_json()
    states = summary_states(verification)  # the five counts, and the share supported computed from them
    if any(states.values()):
        text = t("terminal.summary", lang, sources=result.sources, seconds=progress.seconds,
                 loops=result.verification.loops if result.verification else 0, counts=verdict_counts(states, lang))
    else:
        text = t("terminal.summary_unverified", lang, sources=result.sources, seconds=progress.seconds)
    text = " · ".join([text, *(getattr(result, name) or "-" for name in paths)])
    lines.append(f"[bold]{escape(text)}[/bold]")
    return lines


def final_stdout(result: RunOutcome, progress: Any, live: bool) -> str:
    """What stdout gets last. Redirected: the answer as report.md says it, sources
    included. On a terminal (the draft was only previewed on stderr): the checked answer
    (labelled on stderr), the sources list its citations point at, then the PDF's path."""
    if not live:
        return report_answer(result)
    answer = checked_answer(result, progress)
    sources = sources_section(result)
    return "\n".join(([answer, ""] if answer else []) + ([sources, ""] if sources else []) + [result.report_pdf])


def checked_answer(result: RunOutcome, progress: Any) -> str | None:
    """The checked answer, printed once after the run (its label goes to stderr); None when empty."""
    answer = strip_controls(result.answer or "").strip()
    if not answer:
        return None
    progress.console.print(f"[bold]{escape(t('terminal.checked_answer', progress.lang))}[/bold]")
    return answer


def check_output_destination(target: str) -> None:
    """``-o PATH`` is checked before the run, not after it: its folder is made (it would be
    anyway) and a probe file written and removed there. Raises UsageError (exit 2)."""
    import errno
    import os
    import tempfile

    from research.modules.core.errors import UsageError

    destination = Path(target).expanduser()
    is_file = destination.suffix.lower() in (".md", ".pdf", ".json")
    folder = destination.parent if is_file else destination
    try:
        if is_file and destination.is_dir():
            raise IsADirectoryError(errno.EISDIR, os.strerror(errno.EISDIR))
        if not is_file and destination.exists() and not destination.is_dir():
            raise NotADirectoryError(errno.ENOTDIR, os.strerror(errno.ENOTDIR))
        folder.mkdir(parents=True, exist_ok=True)
        with tempfile.NamedTemporaryFile(dir=folder, prefix=".research-probe-"):
            pass
    except OSError as exc:
        raise UsageError("terminal.output_failed", path=str(destination), reason=exc.strerror or str(exc)) from None


def output_files(result: Any, target: str) -> list[tuple[str, Path]]:
    """Where ``-o PATH`` puts what: a .md/.pdf/.json path gets that one file; anything else
    is a folder that gets the run's three files named after its session
    (``20261122_101500_3fa9c1.md``, ``.pdf``, ``.json``), so the next run into the same
    folder adds its own files instead of replacing these."""
    destination = Path(target).expanduser()
    wanted = {".md": "md", ".pdf": "pdf", ".json": "json"}.get(destination.suffix.lower())
    if wanted is not None:
        return [(wanted, destination)]
    stem = _file_stem(str(_field(result, "session_id") or ""))
    return [(kind, destination / f"{stem}.{kind}") for kind in ("md", "pdf", "json")]


def _field(result: Any, name: str) -> Any:
    """A run's field, from a local ``RunOutcome`` or a team run's JSON object alike."""
    return result.get(name) if isinstance(result, dict) else getattr(result, name, None)


def _file_stem(session_id: str) -> str:
    """The session id as a file name (ids are [0-9a-z_]; anything else is dropped)."""
    kept = "".join(c for c in session_id if c.isascii() and (c.isalnum() or c in "_-"))
    return kept or "report"


def copy_outputs(result: Any, target: str, progress: Any, *, contents: dict[str, bytes] | None = None) -> int:
    """``-o PATH`` for a local run and a team's (team/client.py) alike: writes the files
    ``output_files`` names and says each one on stderr. ``contents``: each file's bytes by
    kind ("md", "pdf", "json") where they are not on this machine (a run on a `research
    serve`); a kind missing there is skipped. Returns 0, or 1 with one line on stderr."""
    destination = Path(target).expanduser()
    try:
        written = []
        for kind, path in output_files(result, target):
            path.parent.mkdir(parents=True, exist_ok=True)
            if contents is None:
                written.append(_copy_one(result, kind, path))
            elif contents.get(kind) is not None:
                written.append(_write_copy(path, contents[kind]))
    except OSError as exc:
        progress.console.print(escape(t("terminal.output_failed", progress.lang, path=str(destination),
                                        reason=exc.strerror or str(exc))), style="red", soft_wrap=True)
        return 1
    # soft_wrap: a path stays on one line, whole, for the eye and for copy-paste alike.
    for path in (p for p in written if p is not None):
        progress.console.print(f"[dim]{escape(t('terminal.output_written', progress.lang, path=str(path)))}[/dim]",
                               soft_wrap=True)
    return 0


def _copy_one(result: Any, kind: str, destination: Path) -> Path | None:
    # The one atomic, fsynced write: a full disk or a power cut never leaves a torn copy
    # over the user's file. Unlike session files, a copy the user asked for is as readable
    # as any file they create (their umask decides).
    if kind == "json":
        data = (json.dumps(json_result(result), ensure_ascii=False, indent=2) + "\n").encode("utf-8")
    else:
        source = result.report_md if kind == "md" else result.report_pdf
        if not source or not Path(source).is_file():
            return None
        data = Path(source).read_bytes()
    return _write_copy(destination, data)


def _write_copy(destination: Path, data: bytes) -> Path:
    atomic_write(destination, data, mode=0o666 & ~_umask())
    return destination


def _umask() -> int:
    """This process's umask, read without changing it where Linux says it (a set-and-restore
    would briefly loosen it for every other thread)."""
    try:
        for line in Path("/proc/self/status").read_text().splitlines():
            if line.startswith("Umask:"):
                return int(line.split()[1], 8)
    except (OSError, ValueError, IndexError):
        pass
    current = os.umask(0o022)
    os.umask(current)
    return current

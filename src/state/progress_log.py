"""progress.md: a readable account of a run, one section added as each step finishes.

Checkpoints let a killed run resume, but a person cannot read them; this file is what
they read instead (the plan, the searches, the sources read, the draft, the verdicts).
Each addition rewrites the whole file through ``atomic_write``: an append that a kill -9
can never tear, so the file is always whole and ends after the last finished step.
The headings follow the run's language (ja/en); each step's heading and body are declared
with the step (``state/steps.py``, bodies in ``state/step_accounts.py``).
"""

from __future__ import annotations

import logging
from collections.abc import Mapping
from datetime import datetime
from pathlib import Path
from typing import Any

from research.modules.core.i18n import t
from research.modules.core.logs import said
from research.modules.text.sanitize import safe_markdown
from research.modules.core.files import atomic_write
from research.state.models import Language, RunError
from research.state.session_folder import read_session_bytes
from research.state.step_accounts import one_line, verdict_counts
from research.state.steps import STEP_BY_NAME

# verdict_counts is said here too: the terminal, `research verify` and the servers import it from here.
__all__ = ["PROGRESS_FILE", "progress_markdown", "record_step", "render_section", "verdict_counts"]

PROGRESS_FILE = "progress.md"

logger = logging.getLogger(__name__)


def progress_markdown(session_dir: str | Path) -> str | None:
    """The session's progress.md, or None when no step has finished yet or when it is not
    a file of ours (a link to a secret, a FIFO, a huge file): nothing is read through it,
    and the next step's rewrite replaces the link with a file of its own."""
    try:
        return read_session_bytes(Path(session_dir) / PROGRESS_FILE).decode("utf-8", errors="replace")
    except OSError:
        return None


def record_step(session_dir: str | Path, node: str, before: Mapping[str, Any], update: Mapping[str, Any]) -> bool:
    """Add the section for ``node``, which just turned ``before`` into ``before + update``.

    Returns False (and logs) when the file could not be written: this account is a
    courtesy to the reader, and a failure to write it must not stop the research.
    """
    state = {**before, **update}
    lang: Language = "ja" if state.get("language") == "ja" else "en"
    path = Path(session_dir) / PROGRESS_FILE
    try:
        existing = progress_markdown(session_dir)
        if existing is None:
            existing = safe_markdown(_header(state, lang))
        # Titles, errors and the draft come from pages and the model: no escape bytes, no
        # live HTML, images or javascript:/file:/data: links in a file a person opens.
        section = safe_markdown(render_section(node, before, update, lang))
        atomic_write(path, (existing.rstrip("\n") + "\n\n" + section.rstrip("\n") + "\n").encode("utf-8"))
    except OSError as exc:
        logger.warning(said("log.write_failed", path=path, reason=exc))
        return False
    return True


def _header(state: Mapping[str, Any], lang: Language) -> str:
    return "\n".join([
        "# " + t("progress_md.title", lang, question=state.get("question", "")),
        "",
        t("progress_md.intro", lang, session_id=state.get("session_id", "")),
    ]) + "\n"


def render_section(node: str, before: Mapping[str, Any], update: Mapping[str, Any], lang: Language) -> str:
    """One step's section: a timed heading, what the step produced, and its problems (a name
    that is no step gets its problems under its own name)."""
    state = {**before, **update}
    step = STEP_BY_NAME.get(node)
    title = t(step.heading_key, lang, round=state.get("search_rounds") or 1) if step else node
    lines = [f"## {title} ({datetime.now().strftime('%H:%M:%S')})", ""]
    if step is not None:
        lines += step.account(before, update, lang)
    errors: list[RunError] = update.get("errors") or []
    for error in errors:
        target = f" {error.target}" if error.target else ""
        lines.append(f"- ⚠ {t('progress_md.problem', lang)}{target}: {one_line(error.message)}")
    spent = update.get("budget_exhausted")
    if spent and spent != before.get("budget_exhausted"):
        lines.append("- " + t("progress_md.budget", lang, budget=spent))
    return "\n".join(lines).rstrip() + "\n"

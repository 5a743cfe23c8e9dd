"""progress.md: a readable account of a run, one section added as each step finishes.

Checkpoints let a killed run resume, but a person cannot read them; this file is what
they read instead (the plan, the searches, the sources read, the draft, the verdicts).
Each addition rewrites the whole file through ``atomic_write``: an append that a kill -9
can never tear, so the file is always whole and ends after the last finished step.
The headings follow the run's language (ja/en).
"""

from __future__ import annotations

import logging
from datetime import datetime
from pathlib import Path
from typing import Any, Mapping

from research.modules.core.i18n import t
from research.modules.text.sanitize import safe_markdown
from research.state.models import VerdictState, supported_percent, verdict_state, verification_states
from research.state.agent_state import queries_for_round
from research.state.session_folder import atomic_write, read_session_bytes

PROGRESS_FILE = "progress.md"
_DRAFT_LIMIT = 6000  # characters of the draft kept here; the whole draft is in llm_draft.md
_CLAIM_TEXT_LIMIT = 240

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
    lang = state.get("language") or "en"
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
        logger.warning("could not write %s: %s", path, exc)
        return False
    return True


def _header(state: Mapping[str, Any], lang: str) -> str:
    return "\n".join([
        "# " + t("progress_md.title", lang, question=state.get("question", "")),
        "",
        t("progress_md.intro", lang, session_id=state.get("session_id", "")),
    ]) + "\n"


def render_section(node: str, before: Mapping[str, Any], update: Mapping[str, Any], lang: str) -> str:
    """One step's section: a timed heading, what the step produced, and its problems."""
    state = {**before, **update}
    if node == "search":
        title = t("progress_md.search", lang, round=state.get("search_rounds") or 1)
    else:
        title = t("progress_md." + node, lang)
    lines = [f"## {title} ({datetime.now().strftime('%H:%M:%S')})", ""]
    body = _BODIES.get(node)
    if body is not None:
        lines += body(before, update, lang)
    for error in update.get("errors") or []:
        target = f" {error.get('target')}" if error.get("target") else ""
        lines.append(f"- ⚠ {t('progress_md.problem', lang)}{target}: {_one_line(error.get('message', ''))}")
    spent = update.get("budget_exhausted")
    if spent and spent != before.get("budget_exhausted"):
        lines.append("- " + t("progress_md.budget", lang, budget=spent))
    return "\n".join(lines).rstrip() + "\n"


def _plan(before: Mapping[str, Any], update: Mapping[str, Any], lang: str) -> list[str]:
    lines = []
    for number, sub in enumerate(update.get("plan") or before.get("plan") or [], 1):
        lines.append(f"{number}. {sub.get('question', '')}")
        lines += [f"    - `{q['text']}` ({q.get('language', '')})" for q in sub.get("queries", [])]
    return lines


def _search(before: Mapping[str, Any], update: Mapping[str, Any], lang: str) -> list[str]:
    # The queries this round searched, as the search node chose them.
    queries = queries_for_round({**before, "plan": before.get("plan") or update.get("plan") or []},
                                int(before.get("search_rounds") or 0) + 1)
    new = len(update.get("search_results") or [])  # the round's own hits (the state's reducer adds them)
    total = len(before.get("search_results") or []) + new
    lines = []
    if queries:
        lines.append("- " + t("progress_md.queries", lang, queries=", ".join(f"`{q['text']}`" for q in queries)))
    lines.append("- " + t("progress_md.results", lang, total=total, new=max(new, 0)))
    return lines


def _sources(before: Mapping[str, Any], update: Mapping[str, Any], lang: str) -> list[str]:
    known = {d.get("canonical_url") for d in before.get("documents") or []}
    fresh = [d for d in update.get("documents") or [] if d.get("canonical_url") not in known]
    if not fresh:
        return [t("progress_md.no_new_sources", lang)]
    lines = []
    for doc in fresh:
        name = _one_line(doc.get("title") or doc.get("url", ""))
        if doc.get("status") == "ok":
            lines.append(f"- [{doc.get('label')}] {name} — {doc.get('url')}")
        else:
            reason = t("progress_md.source_failed", lang, reason=_one_line(doc.get("error") or ""))
            lines.append(f"- ✗ {doc.get('url')} — {reason}")
    return lines


def _draft(before: Mapping[str, Any], update: Mapping[str, Any], lang: str) -> list[str]:
    draft = (update.get("draft") or "").strip()
    if len(draft) > _DRAFT_LIMIT:
        draft = draft[:_DRAFT_LIMIT].rstrip() + " …"
    # A quote keeps the draft's own headings from turning into sections of this file.
    return [("> " + line) if line else ">" for line in draft.splitlines()]


def verdict_counts(counts: Mapping[str, int], lang: str) -> str:
    """One line: how many claims, how many are in each of the five states (by their one
    name, ``verdict.*``), and the supported share computed from those very counts. The
    terminal, `research verify`, the MCP server and progress.md all say it this way."""
    numbers = {state.value: int(counts.get(state, 0) or 0) for state in VerdictState}
    return t("verdict.counts", lang, claims=sum(numbers.values()), percent=supported_percent(counts), **numbers)


_MARKS = {VerdictState.SUPPORTED: "✓", VerdictState.PARTLY_SUPPORTED: "~", VerdictState.NOT_SUPPORTED: "✗",
          VerdictState.CONTRADICTED: "✗", VerdictState.NOT_CHECKED: "?"}


def _verdicts(before: Mapping[str, Any], update: Mapping[str, Any], lang: str) -> list[str]:
    verification = update.get("verification") or {}
    claims = [c for c in verification.get("claims") or [] if isinstance(c, Mapping)]
    lines = []
    if claims or verification.get("summary"):
        lines += [verdict_counts(verification_states(verification), lang), ""]
    for claim in claims:
        state = verdict_state(claim)
        text = _one_line(claim.get("text", ""))
        if len(text) > _CLAIM_TEXT_LIMIT:
            text = text[:_CLAIM_TEXT_LIMIT] + "…"
        lines.append(f"- {_MARKS[state]} {t('verdict.' + state, lang)}: {text}")
    follow_ups = update.get("follow_up_queries") or []
    if follow_ups:  # asked for only when the verifier sends the run back to search
        lines.append("")
        lines.append(t("progress_md.follow_ups", lang, queries=", ".join(f"`{q['text']}`" for q in follow_ups)))
    return lines


def _report(before: Mapping[str, Any], update: Mapping[str, Any], lang: str) -> list[str]:
    paths = [p for p in (update.get("report_md"), update.get("report_pdf")) if p]
    return ["- " + t("progress_md.report_files", lang, paths=", ".join(paths))] if paths else []


_BODIES = {
    "input": _plan,
    "plan_review": _plan,
    "search": _search,
    "processing": _sources,
    "llm": _draft,
    "verification": _verdicts,
    "report": _report,
}


def _one_line(text: str) -> str:
    return " ".join(str(text).split())

"""What each step adds to progress.md: the body of its section, from the state before the
step and the update it returned (``state/steps.py`` names the body of each step).

The counts of a verification are said here in the one way every surface says them
(``verdict_counts``). Everything here is plain text; ``progress_log`` puts the section
together (heading, problems, budget) and sanitises it before writing.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, cast

from research.modules.core.i18n import t
from research.modules.core.messages.analysis import disagreement_line
from research.state.agent_state import AgentState, queries_for_round
from research.state.models import (
    Disagreements,
    Document,
    FollowUpQuery,
    Language,
    SubQuestionPlan,
    VerdictState,
    VerificationResult,
    count_states,
    summary_states,
    supported_percent,
)

# (state before the step, the step's update, language) -> the section's lines
Account = Callable[[Mapping[str, Any], Mapping[str, Any], Language], list[str]]

_DRAFT_LIMIT = 6000  # characters of the draft kept here; the whole draft is in llm_draft.md
_CLAIM_TEXT_LIMIT = 240


def verdict_counts(counts: Mapping[str, int] | Mapping[VerdictState, int], lang: Language) -> str:
    """One line: how many claims, how many are in each of the five states (by their one
    name, ``verdict.*``), and the supported share computed from those very counts. The
    terminal, `research verify`, the MCP server and progress.md all say it this way."""
    numbers = {state.value: int(counts.get(state, 0) or 0) for state in VerdictState}
    return t("verdict.counts", lang, claims=sum(numbers.values()), percent=supported_percent(counts), **numbers)


def plan_account(before: Mapping[str, Any], update: Mapping[str, Any], lang: Language) -> list[str]:
    lines = []
    plan: list[SubQuestionPlan] = update.get("plan") or before.get("plan") or []
    for number, sub in enumerate(plan, 1):
        lines.append(f"{number}. {sub.question}")
        lines += [f"    - `{q.text}` ({q.language})" for q in sub.queries]
    return lines


def search_account(before: Mapping[str, Any], update: Mapping[str, Any], lang: Language) -> list[str]:
    # The queries this round searched, as the search node chose them.
    queries = queries_for_round(cast(AgentState, {**before, "plan": before.get("plan") or update.get("plan") or []}),
                                int(before.get("search_rounds") or 0) + 1)
    new = len(update.get("search_results") or [])  # the round's own hits (the state's reducer adds them)
    total = len(before.get("search_results") or []) + new
    lines = []
    if queries:
        lines.append("- " + t("progress_md.queries", lang, queries=", ".join(f"`{q.text}`" for q in queries)))
    lines.append("- " + t("progress_md.results", lang, total=total, new=max(new, 0)))
    return lines


def sources_account(before: Mapping[str, Any], update: Mapping[str, Any], lang: Language) -> list[str]:
    earlier: list[Document] = before.get("documents") or []
    known = {d.canonical_url for d in earlier}
    fresh = [d for d in update.get("documents") or [] if d.canonical_url not in known]
    if not fresh:
        return [t("progress_md.no_new_sources", lang)]
    lines = []
    for doc in fresh:
        name = one_line(doc.title or doc.url)
        if doc.status == "ok":
            lines.append(f"- [{doc.label}] {name} — {doc.url}")
        else:
            reason = t(f"progress_md.source_{doc.status}", lang, reason=one_line(doc.error or ""))
            lines.append(f"- ✗ {doc.url} — {reason}")
    return lines


def disagreements_account(before: Mapping[str, Any], update: Mapping[str, Any], lang: Language) -> list[str]:
    """Each point the sources disagree on, with each side and who gives it."""
    found: Disagreements | None = update.get("disagreements")
    if found is None:  # a follow-up round keeps the first round's
        return []
    if not found.items:
        return [t("progress_md.no_disagreements", lang)]
    return [f"- {disagreement_line(item, lang)}" for item in found.items]


def draft_account(before: Mapping[str, Any], update: Mapping[str, Any], lang: Language) -> list[str]:
    draft = (update.get("draft") or "").strip()
    if len(draft) > _DRAFT_LIMIT:
        draft = draft[:_DRAFT_LIMIT].rstrip() + " …"
    # A quote keeps the draft's own headings from turning into sections of this file.
    return [("> " + line) if line else ">" for line in draft.splitlines()]


_MARKS = {VerdictState.SUPPORTED: "✓", VerdictState.PARTLY_SUPPORTED: "~", VerdictState.NOT_SUPPORTED: "✗",
          VerdictState.CONTRADICTED: "✗", VerdictState.NOT_CHECKED: "?"}


def verdicts_account(before: Mapping[str, Any], update: Mapping[str, Any], lang: Language) -> list[str]:
    verification: VerificationResult = update.get("verification") or VerificationResult()
    claims = verification.claims
    lines = []
    if claims:
        lines += [verdict_counts(count_states(claims), lang), ""]
    elif verification.summary is not None:
        lines += [verdict_counts(summary_states(verification.summary.model_dump(mode="json")), lang), ""]
    for claim in claims:
        state = claim.state
        text = one_line(claim.text)
        if len(text) > _CLAIM_TEXT_LIMIT:
            text = text[:_CLAIM_TEXT_LIMIT] + "…"
        lines.append(f"- {_MARKS[state]} {t('verdict.' + state, lang)}: {text}")
    follow_ups: list[FollowUpQuery] = update.get("follow_up_queries") or []
    if follow_ups:  # asked for only when the verifier sends the run back to search
        lines.append("")
        lines.append(t("progress_md.follow_ups", lang, queries=", ".join(f"`{q.text}`" for q in follow_ups)))
    return lines


def report_account(before: Mapping[str, Any], update: Mapping[str, Any], lang: Language) -> list[str]:
    paths = [p for p in (update.get("report_md"), update.get("report_pdf")) if p]
    return ["- " + t("progress_md.report_files", lang, paths=", ".join(paths))] if paths else []


def one_line(text: Any) -> str:
    return " ".join(str(text).split())

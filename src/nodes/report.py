"""report node: report.md and report.pdf from one structured report, plus metadata."""

from __future__ import annotations

import json
from datetime import datetime, timezone
from typing import Any

from research.state.session_folder import SessionStatus, now_iso
from research.modules.core.i18n import t
from research.modules.core.messages.analysis import attribute_name
from research.modules.text.disagreements import contested_claims, stated_in
from research.modules.report.fonts import find_japanese_font
from research.modules.report.content import MethodFacts, ReportInput, ShownDisagreement, build_report
from research.modules.report.markdown import render_markdown
from research.state import AgentState, plan_queries_flat
from research.state.agent_state import add_usage
from research.state.models import (
    Disagreements,
    Language,
    ProblemKind,
    RunProblem,
    VerificationResult,
    VerificationSummary,
)
from research.state.run_problems import run_errors, run_problems, search_unreachable
from research.state.run_record import sources_of
from research.workflow.dependencies import WorkflowDependencies

# The problems the report's notes open with: they explain everything after them.
SEARCH_PROBLEMS = (ProblemKind.SEARCH, ProblemKind.SEARCH_TOOL, ProblemKind.SEARCH_FALLBACK)


async def write_report(state: AgentState, deps: WorkflowDependencies) -> AgentState:
    """Render the verified answer; the source list comes from the ledger, never the model."""
    lang = state["language"]
    documents = state.get("documents", [])
    verification = state.get("verification") or VerificationResult()
    read = [d for d in documents if d.status == "ok"]
    if not read:
        # The draft is then the tool's own "nothing found" message: there is nothing to check.
        verification = VerificationResult()
    body = verification.annotated_draft or state.get("draft", "")
    disagreements, contested = _disagreements(state, body, verification, lang, deps) if read else ([], {})
    if contested:
        # A claim verified against one source while another gives a different value is
        # listed as contested, never left as simply supported.
        verification = verification.model_copy(update={"claims": [
            c.model_copy(update={"contested_by": contested[c.index]}) if c.index in contested else c
            for c in verification.claims]})
    failed = [d for d in documents if d.status == "failed"]
    left_out = [d for d in documents if d.status == "left_out"]
    notes = []
    if not read:
        notes.append(t("terminal.search_unreachable" if search_unreachable(state) else "progress.no_evidence", lang))
    # Search failures first: they explain everything after them.
    notes += [_search_note(p, lang) for p in run_problems(state) if p.kind in SEARCH_PROBLEMS]
    notes += [f"[{d.label}] {d.url}: {d.error or ''}" for d in failed + left_out]
    # The whole run's use, across processes when it was resumed (``usage`` is a reducer).
    usage = add_usage(state.get("usage"), None)
    notes += degradation_notes(state, usage, lang)
    notes += answer_notes(verification.summary, lang)
    notes += _budget_and_model_notes(state, deps, lang)
    report = build_report(
        ReportInput(
            question=state["question"],
            language=lang,
            model=state.get("model_used") or state["model"],
            generated_at=datetime.now(timezone.utc),
            session_id=state["session_id"],
            body_markdown=body,
            sources=sources_of(documents),
            verification=verification,
            method=MethodFacts(
                engines=state.get("engines_used", []),
                queries=[q.text for q in plan_queries_flat(state.get("plan", []))]
                + [q.text for q in verification.follow_up_queries],
                sources_read=len(read),
                sources_failed=len(failed),
                sources_left_out=len(left_out),
                loops=verification.summary.loops if verification.summary else 0,
                sandbox=deps.parser.sandbox_name,
            ),
            notes=notes,
            parent_session=state.get("parent_session"),
            disagreements=disagreements,
        )
    )
    session_id = state["session_id"]
    md_path = deps.history.write_text(session_id, "report.md", render_markdown(report))
    pdf_path = deps.history.path(session_id) / "report.pdf"
    # reportlab (about 6 MiB and 0.1 s) is imported here, when the PDF is made: a one-shot run's
    # servers have left by then, so it never adds to their memory (docs/benchmarks.md, issue 47).
    from research.modules.report.pdf import render_pdf

    # report.md is already on disk; a font problem (e.g. a bad RESEARCH_PDF_FONT) then
    # surfaces as one line from the CLI without losing it.
    render_pdf(report, pdf_path, font_path=find_japanese_font(deps.settings))
    deps.history.update_meta(
        session_id,
        status=SessionStatus.DONE if read else SessionStatus.NO_EVIDENCE,
        finished_at=now_iso(),
        sources=len(read),
        sources_failed=len(failed),
        sources_left_out=len(left_out),
        model_used=state.get("model_used") or state["model"],
        verification=verification.summary.model_dump(mode="json", exclude_none=True) if verification.summary else {},
        usage=usage,
    )
    return {"report_md": str(md_path), "report_pdf": str(pdf_path)}


def answer_notes(summary: VerificationSummary | None, lang: Language) -> list[str]:
    """What the answer's assembly changed (workflow/answer.py): values corrected from their
    passage, and what it left out of the body, counted by why."""
    if summary is None:
        return []
    notes = []
    corrected = summary.corrected
    if corrected:
        notes.append(t("answer.corrected", lang, count=len(corrected)) + ("：" if lang == "ja" else ": ") + "; ".join(
            f"{c.value} → {c.source_value} [{c.label}]" for c in corrected))
    left_out = {reason: count for reason, count in summary.left_out.items() if count}
    if left_out:
        details = ("、" if lang == "ja" else ", ").join(t("answer.reason." + reason, lang, count=count) for reason, count in left_out.items())
        notes.append(t("answer.left_out", lang, details=details))
    return notes


def _search_note(problem: RunProblem, lang: Language) -> str:
    # The search server writes its notes in English for any MCP host; the report says them in its language.
    from research.modules.clients.web_search_client import localise_note

    if problem.kind == ProblemKind.SEARCH_TOOL:
        return problem.message
    if problem.kind == ProblemKind.SEARCH_FALLBACK:
        return t("terminal.engine_note", lang, note=localise_note(problem.message, lang))
    return t("terminal.search_failed_note", lang, count=problem.queries,
             reason=localise_note(problem.message, lang))


def _budget_and_model_notes(state: AgentState, deps: WorkflowDependencies, lang: Language) -> list[str]:
    """Say which budget stopped the run early, and when the fallback model took over: both
    change what the answer could hold, so the reader is told, not only the log."""
    notes = []
    spent = state.get("budget_exhausted")
    limits = {"seconds": deps.settings.max_seconds, "tokens": deps.settings.max_llm_tokens,
              "sources": deps.settings.max_sources}
    if spent in limits:
        notes.append(t("budget.report_" + spent, lang, limit=limits[spent]))
    switched_from = deps.model.switched_from
    if switched_from:
        notes.append(t("model.fallback_used", lang, model=switched_from, fallback=deps.model.model))
    return notes + _judge_note(state, lang)


def _judge_note(state: AgentState, lang: Language) -> list[str]:
    """Which judge decided the claims the cheap checks left open (a judge's error rate is part of
    what a verdict means); none when none did."""
    verification = state.get("verification")
    if verification is None or verification.summary is None:
        return []
    judge = verification.summary.judge
    if not judge.checker and not judge.prompt:
        return []
    measured = ([t("judge.note_measured", lang, items=judge.quality.items,
                   accuracy=f"{judge.quality.balanced_accuracy:.0%}")] if judge.quality is not None else [])
    if judge.protocol in ("minicheck", "guardian"):
        key = "judge.note_checker_all" if judge.japanese else "judge.note_checker"
        return [t(key, lang, model=judge.model, japanese=judge.japanese_judge), *measured]
    key = "judge.note_choice" if judge.protocol == "choice" else "judge.note_prompt"
    return [t(key, lang, model=judge.model), *measured]


def degradation_notes(state: AgentState, usage: dict[str, dict[str, int]], lang: Language) -> list[str]:
    """What made this report weaker than a normal run: an overflowing context, sentences
    left in the wrong language, or model replies so malformed that a step fell back to
    its built-in default."""
    # Each verification loop checks again: the same note once.
    notes = list(dict.fromkeys(e.message for e in run_errors(state, ProblemKind.CONTEXT, ProblemKind.LANGUAGE,
                                                                ProblemKind.JUDGE, ProblemKind.DRAFT)))
    notes += [t("degraded.fallback", lang, node=node, count=entry["fallbacks"])
              for node, entry in usage.items() if entry.get("fallbacks")]
    return notes


def _disagreements(state: AgentState, answer: str, verification: VerificationResult, lang: Language,
                   deps: WorkflowDependencies) -> tuple[list[ShownDisagreement], dict[int, str]]:
    """The disagreements found before drafting, each with whether the final answer gives
    every side, and the supported claims that give one side only (claim index → the other
    sides); disagreements.json records both."""
    # disagreements.json: the state's, with what the answer says of each (modules/text reads mappings)
    found = (state.get("disagreements") or Disagreements()).model_dump(mode="json")
    shown = []
    found["items"] = [{**item, "stated_in_answer": stated_in(answer, item)} for item in found.get("items", [])]
    # modules/text reads claims as verification.json has them
    contested = contested_claims([c.model_dump(mode="json") for c in verification.claims], found["items"])
    if contested:
        found["contested_claims"] = [{"index": index, "other_sides": sides} for index, sides in contested.items()]
    for item in found["items"]:
        stated = item["stated_in_answer"]
        shown.append(ShownDisagreement.model_validate({
            "topic": attribute_name(item.get("attribute"), item["dimension"], lang, item.get("qualifier")),
            "positions": item["positions"], "note": _stated_note(item, stated, lang)}))
    if found.get("items"):
        deps.history.write_text(state["session_id"], "disagreements.json",
                                json.dumps({"language": lang, **found}, ensure_ascii=False, indent=2) + "\n")
    return shown, contested


def _stated_note(item: dict[str, Any], stated: list[bool], lang: Language) -> str:
    """The answer must not pick one side silently: say when it gives fewer than all."""
    if all(stated):
        return t("analysis.stated_both", lang)
    if not any(stated):
        return t("analysis.stated_none", lang)
    given = ", ".join(label for position, yes in zip(item["positions"], stated) if yes for label in position["labels"])
    return t("analysis.stated_some", lang, given=given)

"""What went wrong in a run, in one place: read from the graph's final state.

The CLI prints these, `--json` and meta.json carry them, and the exit code follows them:
"searched fine, found nothing" (4) is kept apart from "no engine could be reached" (5).
"""

from __future__ import annotations

from typing import Any, Mapping

from research.modules.core.errors import EXIT_NO_EVIDENCE, EXIT_OK, EXIT_SEARCH_FAILED
from research.state.models import ProblemKind, RunError, RunProblem

# Before RunError had a kind (checkpoints written then), what its target or node said.
_LEGACY_KINDS = {"search_tool": ProblemKind.SEARCH_TOOL, "engine_note": ProblemKind.SEARCH_FALLBACK,
                 "context": ProblemKind.CONTEXT, "language": ProblemKind.LANGUAGE, "judge": ProblemKind.JUDGE}


def error_kind(error: Mapping[str, Any]) -> ProblemKind | None:
    """The kind of one RunError dict from state; None for one of no kind we know."""
    try:
        return ProblemKind(error["kind"])
    except (KeyError, ValueError):
        pass
    legacy = _LEGACY_KINDS.get(str(error.get("target") or ""))
    if legacy is None and error.get("node") == "search":
        return ProblemKind.SEARCH
    return legacy


def run_errors(state: Mapping[str, Any], *kinds: ProblemKind) -> list[RunError]:
    """The run's errors of these kinds, in order (a state given as plain data, as an older
    checkpoint holds it, has them as mappings: read with ``error_kind``)."""
    found = []
    for error in state.get("errors") or []:
        if isinstance(error, Mapping):
            kind = error_kind(error)
            if kind is None:
                continue
            error = RunError(node=str(error.get("node") or ""), kind=kind, message=str(error.get("message") or ""),
                             target=str(error.get("target") or ""))
        if isinstance(error, RunError) and error.kind in kinds:
            found.append(error)
    return found


def run_problems(state: Mapping[str, Any]) -> list[RunProblem]:
    """Failures that changed the result, in order: the search's (an engine or server error, with how many
    queries it cost; a server without the search tool; an engine that failed and another
    that answered instead), sentences left in the wrong language, evidence cut to fit, a
    budget that stopped the run.
    """
    problems: list[RunProblem] = []
    search_counts: dict[str, int] = {}
    for error in run_errors(state, ProblemKind.SEARCH, ProblemKind.SEARCH_TOOL, ProblemKind.SEARCH_FALLBACK):
        message = error.message
        if error.kind == ProblemKind.SEARCH:
            search_counts[message] = search_counts.get(message, 0) + 1
        else:
            problems.append(RunProblem(kind=error.kind, message=message))
    problems += [RunProblem(kind=ProblemKind.SEARCH, message=m, queries=n) for m, n in search_counts.items()]
    seen: set[str] = set()
    for error in run_errors(state, ProblemKind.LANGUAGE, ProblemKind.CONTEXT, ProblemKind.DRAFT):
        message = error.message
        if message not in seen:
            seen.add(message)
            problems.append(RunProblem(kind=error.kind, message=message))
    if state.get("budget_exhausted"):
        problems.append(RunProblem(kind=ProblemKind.BUDGET, message=str(state["budget_exhausted"])))
    return problems


def search_unreachable(state: Mapping[str, Any]) -> bool:
    """Nothing was found *because* searching failed: errors, and not one hit."""
    if state.get("search_results"):
        return False
    return bool(run_errors(state, ProblemKind.SEARCH, ProblemKind.SEARCH_TOOL))


def outcome_exit_code(state: Mapping[str, Any]) -> int:
    """0 with evidence; 5 when no engine could be reached; 4 when searching found nothing usable."""
    read = sum(1 for d in state.get("documents") or [] if d.status == "ok")
    if read:
        return EXIT_OK
    return EXIT_SEARCH_FAILED if search_unreachable(state) else EXIT_NO_EVIDENCE

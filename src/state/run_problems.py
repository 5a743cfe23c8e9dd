"""What went wrong in a run, in one place: read from the graph's final state.

The CLI prints these, `--json` and meta.json carry them, and the exit code follows them:
"searched fine, found nothing" (4) is kept apart from "no engine could be reached" (5).
"""

from __future__ import annotations

from typing import Any, Mapping

from research.modules.core.errors import EXIT_NO_EVIDENCE, EXIT_OK, EXIT_SEARCH_FAILED

# RunError.target of the search node's "the server lacks the search tool" error.
MISSING_TOOL_TARGET = "search_tool"
# RunError.target of what the web-search server said about its engines (a fallback and why).
ENGINE_NOTE_TARGET = "engine_note"


def run_problems(state: Mapping[str, Any]) -> list[dict[str, Any]]:
    """Failures that changed the result, each ``{"kind", "message", ...}``, in order.

    kinds: ``search`` (an engine or server error, with how many queries it cost),
    ``search_tool`` (a server without the search tool), ``search_fallback`` (an engine
    failed and another answered instead), ``language`` (sentences left in
    the wrong language), ``context`` (evidence cut to fit), ``budget`` (a budget stopped
    the run).
    """
    problems: list[dict[str, Any]] = []
    errors = [e for e in state.get("errors") or [] if isinstance(e, dict)]
    search_counts: dict[str, int] = {}
    for error in errors:
        if error.get("node") != "search":
            continue
        if error.get("target") in (MISSING_TOOL_TARGET, ENGINE_NOTE_TARGET):
            kind = "search_tool" if error.get("target") == MISSING_TOOL_TARGET else "search_fallback"
            problems.append({"kind": kind, "message": str(error.get("message", ""))})
            continue
        message = str(error.get("message", ""))
        search_counts[message] = search_counts.get(message, 0) + 1
    problems += [{"kind": "search", "message": m, "queries": n} for m, n in search_counts.items()]
    seen: set[str] = set()
    for error in errors:
        kind = error.get("target")
        message = str(error.get("message", ""))
        if kind in ("language", "context") and message not in seen:
            seen.add(message)
            problems.append({"kind": kind, "message": message})
    if state.get("budget_exhausted"):
        problems.append({"kind": "budget", "message": str(state["budget_exhausted"])})
    return problems


def search_unreachable(state: Mapping[str, Any]) -> bool:
    """Nothing was found *because* searching failed: errors, and not one hit."""
    if state.get("search_results"):
        return False
    return any(e.get("node") == "search" and e.get("target") != ENGINE_NOTE_TARGET
               for e in state.get("errors") or [] if isinstance(e, dict))


def outcome_exit_code(state: Mapping[str, Any]) -> int:
    """0 with evidence; 5 when no engine could be reached; 4 when searching found nothing usable."""
    read = sum(1 for d in state.get("documents") or [] if isinstance(d, dict) and d.get("status") == "ok")
    if read:
        return EXIT_OK
    return EXIT_SEARCH_FAILED if search_unreachable(state) else EXIT_NO_EVIDENCE

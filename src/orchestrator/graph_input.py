"""What a caller may put into the graph: one check for every door.

A caller (the CLI and the REPL, the MCP and HTTP tools through ``run_research``,
LangGraph Server through the run's input) sets the question, its language and its
depth. Everything else the graph holds (sources and their cached bytes, documents, the
session's id and folder, the plan, the verdicts) is the graph's own: written by its
nodes, and read back only from a checkpoint judged by ``checkpoints.check_state_values``.
An input naming anything else is refused with one line (exit 2), before a session
folder, a model call or a server exists: a ``search_results`` with a ``cache_path`` in
an input would otherwise have that file parsed into the prompt and the report.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, TypedDict

from research.modules.core.errors import UsageError
from research.modules.core.language import detect_language
from research.modules.core.language import Language
from research.state.models import Depth

MAX_QUESTION_CHARS = 4000
# The keys of an input, and the values each may take ("auto": detect from the question).
CALLER_KEYS = ("question", "language", "depth")
LANGUAGES = ("auto", "ja", "en")
DEPTHS = ("quick", "standard", "deep")


class InputRefused(UsageError):
    """An input carries a key a caller may not set, or a value of the wrong kind."""


@dataclass(frozen=True)
class CallerInput:
    """A checked input: the question cleaned, the language resolved, the depth known."""

    question: str
    language: Language
    depth: Depth


def clean_question(raw: str) -> str:
    """Strip control characters and surrounding space; refuse empty or huge questions."""
    text = "".join(ch if ch in "\n\t" or unicodedata.category(ch)[0] != "C" else " " for ch in raw)
    text = " ".join(text.split())
    if not text:
        raise UsageError("usage.empty_question")
    if len(text) > MAX_QUESTION_CHARS:
        raise UsageError("usage.question_too_long", length=len(text), limit=MAX_QUESTION_CHARS)
    return text


def resolve_language(requested: str | None, question: str) -> Language:
    if requested in ("ja", "en"):
        return requested  # type: ignore[return-value]  # one of the two, as just checked
    if requested in ("auto", "", None):
        return detect_language(question)
    raise UsageError("usage.bad_lang", value=_shown(requested))


def read_caller_input(raw: Any, *, default_depth: str = "standard") -> CallerInput:
    """``raw`` (a run's input, or what the CLI and tools were given) checked and cleaned.

    Raises ``InputRefused``/``UsageError`` (one line, exit 2) for a key outside
    ``CALLER_KEYS``, a value of the wrong type or outside its choices, or a question a
    new run would not accept."""
    _only_caller_keys(raw)
    question, language, depth = raw.get("question"), raw.get("language"), raw.get("depth")
    if not isinstance(question, str):
        raise InputRefused("graph_input.bad_value", name="question", value=_shown(question))
    _check_choices(language, depth)
    cleaned = clean_question(question)
    return CallerInput(cleaned, resolve_language(language, cleaned), depth or default_depth)  # type: ignore[arg-type]


class CallerUpdate(TypedDict, total=False):
    """A thread-state update from outside the graph, once checked: the keys a caller may write."""

    question: str
    language: Language
    depth: Depth


def read_state_update(raw: Any) -> CallerUpdate:
    """A thread-state update from outside the graph (LangGraph Server's ``POST
    /threads/{id}/state``, a new thread's ``supersteps``, a run's ``Command`` update),
    checked as an input is: only ``CALLER_KEYS``, each value as ``read_caller_input`` takes
    it, the question cleaned. Any key present is checked, none is required; ``None`` (an
    update with no values) is the empty update. Returns the cleaned values."""
    if raw is None:
        return {}
    _only_caller_keys(raw)
    update: CallerUpdate = {}
    if "question" in raw:
        if not isinstance(raw["question"], str):
            raise InputRefused("graph_input.bad_value", name="question", value=_shown(raw["question"]))
        update["question"] = clean_question(raw["question"])
    language, depth = raw.get("language"), raw.get("depth")
    _check_choices(language, depth)
    if "language" in raw:  # "auto" is resolved from the question: without one there is nothing to detect from
        if language in (None, "auto") and "question" not in update:
            raise InputRefused("graph_input.bad_value", name="language", value=_shown(language))
        update["language"] = resolve_language(language, update.get("question", ""))
    if "depth" in raw:
        if depth is None:
            raise InputRefused("graph_input.bad_value", name="depth", value="None")
        update["depth"] = depth
    return update


def _only_caller_keys(raw: Any) -> None:
    if not isinstance(raw, Mapping):
        raise InputRefused("graph_input.not_an_object", kind=type(raw).__name__)
    extra = sorted(_shown(key) for key in raw if key not in CALLER_KEYS)
    if extra:
        raise InputRefused("graph_input.unknown_keys", keys=", ".join(extra[:5]) + (" …" if len(extra) > 5 else ""),
                           allowed=", ".join(CALLER_KEYS))


def _check_choices(language: Any, depth: Any) -> None:
    if language is not None and language not in LANGUAGES:
        raise InputRefused("graph_input.bad_value", name="language", value=_shown(language))
    if depth is not None and depth not in DEPTHS:
        raise InputRefused("graph_input.bad_value", name="depth", value=_shown(depth))


def _shown(value: Any, limit: int = 40) -> str:
    """A caller's key or value as a message shows it: printable, cut short."""
    text = "".join(ch if ch.isprintable() else "?" for ch in (value if isinstance(value, str) else repr(value)))
    return text if len(text) <= limit else text[:limit] + "…"

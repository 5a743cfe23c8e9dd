"""Plan review on the terminal: show the sub-questions, let the user accept or change them.

Used by the one-shot command (``--review-plan``) and the REPL (``/plan on``) as the
runner's ``reviewer``. Everything goes to stderr, so ``--json`` keeps stdout clean.
"""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING, Any, Callable, TextIO

from research.modules.core.i18n import t
from research.modules.core.language import Language

if TYPE_CHECKING:  # the CLI starts without pydantic's models
    from research.state.models import PlanReviewRequest


def terminal_reviewer(lang: Language, *, stdin: TextIO | None = None, stderr: TextIO | None = None
                      ) -> Callable[[PlanReviewRequest], list[str]]:
    def review(payload: PlanReviewRequest) -> list[str]:
        reader = stdin or sys.stdin
        writer = stderr or sys.stderr

        def read(prompt: str) -> str | None:
            writer.write(prompt)
            writer.flush()
            line = reader.readline()
            return None if line == "" else line  # "" is end of input; "\n" is Enter

        return review_plan(payload, payload.get("language") or lang, read=read,
                           write=lambda text: (writer.write(text + "\n"), writer.flush()))

    return review


def review_plan(payload: PlanReviewRequest, lang: Language, *, read: Callable[[str], str | None],
                write: Callable[[str], Any]) -> list[str]:
    """Loop until the user accepts (Enter, or end of input); returns the sub-questions."""
    plan = [sub["question"] for sub in payload.get("plan", [])]
    while True:
        write(t("plan.title", lang, question=payload.get("question", "")))
        for number, text in enumerate(plan, 1):
            write(f"  {number}. {text}")
        write(t("plan.help", lang))
        line = read(t("plan.prompt", lang))
        if line is None or not line.strip() or line.strip().lower() in ("y", "yes", "ok", "accept", "はい"):
            write(t("plan.accepted", lang, count=len(plan)))
            return plan
        message = apply_command(plan, line.strip())
        if message:
            write(t(message[0], lang, **message[1]))


def apply_command(plan: list[str], line: str) -> tuple[str, dict[str, str]] | None:
    """Edit ``plan`` in place by one command; returns a message (key, params) for a mistake."""
    command, _, rest = line.partition(" ")
    command, rest = command.lower(), rest.strip()
    if command in ("a", "add") and rest:
        plan.append(rest)
        return None
    if command in ("e", "edit", "d", "drop"):
        number_text, _, text = rest.partition(" ")
        if not number_text.isdigit() or not 1 <= int(number_text) <= len(plan):
            return "plan.bad_number", {"number": number_text or "?"}
        index = int(number_text) - 1
        if command in ("d", "drop"):
            plan.pop(index)
            return None
        if text.strip():
            plan[index] = text.strip()
            return None
    return "plan.bad_command", {"line": line}

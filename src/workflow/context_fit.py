"""Stream a prompt that must fit the model's context, shrinking it when it does not.

Ollama keeps only the last ``num_ctx`` tokens of an over-long prompt and says nothing,
except that ``prompt_eval_count`` then equals ``num_ctx``. ModelManager turns that into
``ContextOverflow``; here the evidence budget is halved and the call repeated (at most
twice) with a strictly smaller prompt (the evidence is a prefix of one ranking, so the
lowest-ranked passages go first), and every shrink is recorded so the report can say so —
never a silent cut.
"""

from __future__ import annotations

from typing import Callable

from research.modules.core.i18n import t
from research.modules.llm.model_manager import ContextOverflow
from research.state import ProblemKind, RunError
from research.state.models import Language
from research.workflow.dependencies import ModelRole, WorkflowDependencies
from research.state.progress_events import Message, Token

MAX_SHRINKS = 2

MessagesFor = Callable[[int], list[dict[str, str]]]


async def stream_within_context(
    deps: WorkflowDependencies, messages_for: MessagesFor, budget: int, *, node: str, session_id: str, lang: Language,
    max_tokens: int | None = None,
) -> tuple[str, list[RunError]]:
    """The streamed answer to ``messages_for(budget)``, and a RunError for any overflow.
    ``max_tokens``: the most the answer may take (the room kept for it in num_ctx)."""
    errors: list[RunError] = []
    on_token = lambda text: deps.progress(Token(text))  # noqa: E731 - a one-line callback
    previous_size: int | None = None
    for shrinks in range(MAX_SHRINKS + 1):
        messages = messages_for(budget)
        # Each retry must send a strictly smaller prompt, or it would only fail again.
        while previous_size is not None and _size(messages) >= previous_size and budget > 1:
            budget = max(1, budget // 2)
            messages = messages_for(budget)
        previous_size = _size(messages)
        try:
            text = await deps.model.stream(messages, node=node, role=ModelRole.DRAFT, on_token=on_token,
                                           max_tokens=max_tokens)
        except ContextOverflow as overflow:
            deps.history.append_event(session_id, "context_overflow", node=node, prompt_tokens=overflow.prompt_tokens,
                                      num_ctx=overflow.num_ctx, evidence_budget=budget, shrinks=shrinks)
            if shrinks == MAX_SHRINKS:
                message = t("context.overflow_kept", lang, num_ctx=overflow.num_ctx)
                errors.append(RunError(node=node, kind=ProblemKind.CONTEXT, message=message))
                deps.progress(Message("context.overflow_kept", {"num_ctx": overflow.num_ctx}))
                return overflow.text, errors
            deps.progress(Token("\n"))
            deps.progress(Message("context.overflow_retry", {"tokens": overflow.prompt_tokens,
                                                             "num_ctx": overflow.num_ctx}))
            budget = max(1, budget // 2)
            continue
        if shrinks:
            message = t("context.overflow_shrunk", lang, times=shrinks, num_ctx=deps.settings.num_ctx)
            errors.append(RunError(node=node, kind=ProblemKind.CONTEXT, message=message))
        return text, errors
    raise AssertionError("unreachable")  # pragma: no cover - the loop always returns


def _size(messages: list[dict[str, str]]) -> int:
    return sum(len(m["content"]) for m in messages)

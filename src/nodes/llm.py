"""llm node: draft the answer from the ledger, citing only its labels, streamed."""

from __future__ import annotations

from typing import Any

from ..modules.tokens import estimate_tokens, truncate_to_tokens
from ..state import AgentState
from .dependencies import WorkflowDependencies
from .prompts import DRAFT_SYSTEM, DRAFT_USER, FOLLOW_UP_CONTEXT, NO_EVIDENCE_DRAFT

# Room kept for the answer itself inside num_ctx.
ANSWER_RESERVE_TOKENS = 3072


async def draft_answer(state: AgentState, deps: WorkflowDependencies) -> dict[str, Any]:
    """Write llm_draft.md. With no readable source the draft says so and the model is not asked."""
    lang = state["language"]
    sources = [d for d in state.get("documents", []) if d["status"] == "ok"]
    if not sources:
        draft = NO_EVIDENCE_DRAFT[lang]
        deps.progress("token", {"text": draft})
    else:
        system = DRAFT_SYSTEM[lang]
        if state.get("conversation"):
            previous = "\n\n".join(f"Q: {t['question']}\nA: {t['answer']}" for t in state["conversation"][-2:])
            system += "\n\n" + FOLLOW_UP_CONTEXT[lang].format(previous=previous)
        frame = DRAFT_USER[lang].format(question=state["question"], evidence="")
        budget = deps.model.context_budget(ANSWER_RESERVE_TOKENS) - estimate_tokens(system + frame)
        evidence = build_evidence(sources, budget)
        draft = await deps.model.stream(
            [
                {"role": "system", "content": system},
                {"role": "user", "content": DRAFT_USER[lang].format(question=state["question"], evidence=evidence)},
            ],
            node="llm",
            on_token=lambda text: deps.progress("token", {"text": text}),
        )
    deps.progress("token", {"text": "\n"})
    deps.history.write_text(state["session_id"], "llm_draft.md", draft + "\n")
    return {"draft": draft, "model_used": deps.model.model}


def build_evidence(sources: list[dict[str, Any]], budget: int) -> str:
    """Evidence blocks per source, each within an equal share of the token budget.

    Key facts and snippets come first (densest), then the start of the text; nothing
    is cut silently mid-prompt by Ollama because the whole block is sized to fit.
    """
    share = max(200, budget // max(1, len(sources)))
    blocks = []
    for doc in sources:
        header = f"[{doc['label']}] {doc.get('title') or doc['url']} — {doc['url']}\n"
        lines = [f"- {fact}" for fact in doc.get("key_facts", [])[:12]]
        lines += [f"- {snippet}" for snippet in doc.get("snippets", [])[:6] if f"- {snippet}" not in lines]
        body = "\n".join(lines) + "\n" + doc.get("markdown", "")
        blocks.append(header + truncate_to_tokens(body.strip(), share - estimate_tokens(header)))
    return "\n\n".join(blocks)

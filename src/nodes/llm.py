"""llm node: draft the answer from the ledger, citing only its labels, streamed."""

from __future__ import annotations

import re
from typing import Any

from research.modules.text.claims import normalise_citations
from research.modules.text.style import check_sentence, citations, remove_violations, split_sentences
from research.modules.llm.tokens import estimate_tokens
from research.modules.text.passages import evidence_block, rank_passages
from research.state import AgentState
from research.nodes.context_fit import stream_within_context
from research.nodes.dependencies import WorkflowDependencies
from research.nodes.prompts import (
    DRAFT_SECTIONS_RULE,
    DRAFT_SYSTEM,
    DRAFT_USER,
    FOLLOW_UP_CONTEXT,
    NO_EVIDENCE_DRAFT,
    STYLE_HEDGING_NOTE,
    STYLE_REWRITE_SYSTEM,
    STYLE_RULES,
    SUB_QUESTIONS_BLOCK,
)

# Room kept for the answer itself inside num_ctx.
ANSWER_RESERVE_TOKENS = 3072
_LEAD = re.compile(r"\s*(?:(?:[-*]|\d+\.)\s+)?")


async def draft_answer(state: AgentState, deps: WorkflowDependencies) -> dict[str, Any]:
    """Write llm_draft.md. With no readable source the draft says so and the model is not asked."""
    lang = state["language"]
    sources = [d for d in state.get("documents", []) if d["status"] == "ok"]
    overflow_errors: list[dict[str, Any]] = []
    if not sources:
        draft = NO_EVIDENCE_DRAFT[lang]
        deps.progress("token", {"text": draft})
    else:
        system = DRAFT_SYSTEM[lang]
        sub_questions = [sub["question"] for sub in state.get("plan", [])]
        question = state["question"]
        if len(sub_questions) > 1:
            system += DRAFT_SECTIONS_RULE[lang]
            items = "\n".join(f"{n}. {text}" for n, text in enumerate(sub_questions, 1))
            question += "\n\n" + SUB_QUESTIONS_BLOCK[lang].format(items=items).rstrip()
        if deps.settings.banned_words:
            system += STYLE_RULES[lang].format(banned=", ".join(f'"{w}"' for w in deps.settings.banned_words))
        if state.get("conversation"):
            previous = "\n\n".join(f"Q: {t['question']}\nA: {t['answer']}" for t in state["conversation"][-2:])
            system += "\n\n" + FOLLOW_UP_CONTEXT[lang].format(previous=previous)
        frame = DRAFT_USER[lang].format(question=question, evidence="")
        # Ranked once; each (shrinking) attempt takes a prefix of the same ranking.
        ranked = rank_passages(sources, [state["question"], *sub_questions])
        budget = deps.model.context_budget(ANSWER_RESERVE_TOKENS) - estimate_tokens(system + frame)
        # The evidence budget is an estimate; if Ollama still reports a full context, the
        # evidence is halved and the draft asked again (context_fit.py), never cut silently.
        draft, overflow_errors = await stream_within_context(
            deps,
            lambda share: [
                {"role": "system", "content": system},
                {"role": "user", "content": DRAFT_USER[lang].format(
                    question=question, evidence=evidence_block(sources, ranked, share))},
            ],
            budget, node="llm", session_id=state["session_id"], lang=lang,
        )
    deps.progress("token", {"text": "\n"})
    rewrites: list[dict[str, Any]] = []
    if sources:
        # Models cite as they like ([1], 【S1】, footnotes…): from here on only [S#] exists.
        draft, rewritten_citations = normalise_citations(draft, state.get("documents", []))
        if rewritten_citations:
            deps.history.append_event(state["session_id"], "citations_normalised", count=len(rewritten_citations),
                                      examples=rewritten_citations[:5])
        draft, rewrites = await enforce_style(draft, lang, deps)
        for rewrite in rewrites:
            deps.history.append_event(state["session_id"], "style_rewrite", **rewrite)
    deps.history.write_text(state["session_id"], "llm_draft.md", draft + "\n")
    return {
        "draft": draft,
        "model_used": deps.model.model,
        "style_rewrites": list(state.get("style_rewrites", [])) + rewrites,
        # A context overflow (and how it was handled) is recorded, so the report can say so.
        "errors": overflow_errors,
    }


async def enforce_style(draft: str, lang: str, deps: WorkflowDependencies) -> tuple[str, list[dict[str, Any]]]:
    """Rewrite each sentence that breaks a style rule once with the model; if the rewrite
    still breaks one (or loses a citation), remove the offending words deterministically."""
    banned = deps.settings.banned_words
    lines, rewrites = [], []
    for line in draft.split("\n"):
        if line.lstrip().startswith("#"):
            lines.append(line)  # headings are sub-questions or section names: left as written
            continue
        sentences = split_sentences(line)
        for i, sentence in enumerate(sentences):
            issue = check_sentence(sentence, banned, lang)
            if not issue:
                continue
            # Leading space and a list marker stay; the model sees the sentence alone.
            lead = _LEAD.match(sentence).group(0)
            hedging = STYLE_HEDGING_NOTE[lang].format(hedges=", ".join(issue.hedges)) if issue.hedges else ""
            reply = await deps.model.chat(
                [
                    {"role": "system", "content": STYLE_REWRITE_SYSTEM[lang].format(
                        words=", ".join(f'"{w}"' for w in issue.banned) or "-", hedging=hedging)},
                    {"role": "user", "content": sentence[len(lead):].strip()},
                ],
                node="style",
            )
            rewritten = lead + " ".join(reply.split())
            method = "model"
            if (not reply.strip() or check_sentence(rewritten, banned, lang)
                    or citations(rewritten) != citations(sentence)):
                rewritten, method = remove_violations(sentence, issue), "removed"
            sentences[i] = rewritten
            rewrites.append({"sentence": sentence.strip(), "rewritten": rewritten.strip(), "method": method,
                             "banned": issue.banned, "hedges": issue.hedges})
        lines.append("".join(sentences) if sentences else line)
    return "\n".join(lines), rewrites

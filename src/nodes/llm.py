"""llm node: draft the answer from the ledger, citing only its labels, streamed."""

from __future__ import annotations

import re
from typing import Any, Literal

from research.modules.core.errors import UserFacingError
from research.modules.core.language import detect_language
from research.modules.core.messages.analysis import disagreement_line
from research.modules.llm.hygiene import headings_as_text
from research.modules.llm.model_manager import capped_lines
from research.modules.text.analyser import key_words
from research.modules.text.claims import normalise_citations, split_sentences, strip_citations
from research.modules.text.style import check_sentence, citations, remove_violations
from research.modules.text.tokens import estimate_tokens
from research.modules.text.passages import evidence_block, focused, rank_passages
from research.modules.text.questions import is_yes_no
from research.modules.core.i18n import t
from research.state import AgentState
from research.state.models import (
    Disagreement,
    Disagreements,
    Language,
    ProblemKind,
    RunError,
    StyleRewrite,
    ledger_mappings,
)
from research.workflow.context_fit import stream_within_context
from research.workflow.dependencies import ModelRole, WorkflowDependencies
from research.workflow.prompts import (
    DRAFT_DISAGREEMENTS_RULE,
    DRAFT_SECTIONS_RULE,
    DRAFT_YES_NO_RULE,
    DRAFT_SYSTEM,
    DRAFT_USER,
    FOLLOW_UP_CONTEXT,
    NO_EVIDENCE_DRAFT,
    STYLE_HEDGING_NOTE,
    STYLE_REWRITE_SYSTEM,
    STYLE_RULES,
    SUB_QUESTIONS_BLOCK,
    REDRAFT_SCAFFOLDING,
    REDRAFT_SYSTEM,
    REDRAFT_USER,
    SENTENCE_ITEM,
    SentenceRevisions,
)
from research.state.progress_events import Message, Token

# Room kept for the answer itself inside num_ctx.
ANSWER_RESERVE_TOKENS = 3072
# What a draft may write (num_predict): its Summary and a few paragraphs for each sub-question.
# A cap of the whole reserve let the real 1.5B model write one sentence over and over for
# 350–400 s before anything stopped it; the loop stop (hygiene.repeating_tail) is the first
# guard, this cap the last. A Japanese character counts as a token (modules/text/tokens.py).
DRAFT_TOKENS_BASE = 600
DRAFT_TOKENS_PER_SECTION = 400


def draft_cap(sub_questions: int) -> int:
    """The most tokens a draft answering ``sub_questions`` sections may take."""
    return min(ANSWER_RESERVE_TOKENS, DRAFT_TOKENS_BASE + DRAFT_TOKENS_PER_SECTION * max(1, sub_questions))

_LEAD = re.compile(r"\s*(?:(?:[-*]|\d+\.)\s+)?")


async def draft_answer(state: AgentState, deps: WorkflowDependencies) -> AgentState:
    """Write llm_draft.md. With no readable source the draft says so and the model is not asked."""
    lang = state["language"]
    documents = state.get("documents", [])
    # modules/text reads the ledger as plain mappings (as processed.jsonl holds it)
    sources = ledger_mappings(d for d in documents if d.status == "ok")
    overflow_errors: list[RunError] = []
    targets = [text for text in state.get("redraft_targets") or [] if text]
    if not sources:
        draft = NO_EVIDENCE_DRAFT[lang]
        deps.progress(Token(draft))
    elif targets and state.get("draft"):
        # A follow-up round: only the sentences the verifier could not support are
        # revised, against everything read so far; the supported ones stay as they were.
        # With nothing new read that names what they say, a redraft could only reword them
        # from the same passages: the model is not asked, and the verdicts stand.
        if new_evidence_for(targets, state):
            draft = await redraft_unsupported(state["draft"], targets, state, sources, deps)
        else:
            draft = state["draft"]
            deps.history.append_event(state["session_id"], "redraft_skipped", reason="no_new_evidence",
                                      targets=len(targets))
    else:
        system = DRAFT_SYSTEM[lang]
        sub_questions = [sub.question for sub in state.get("plan", [])]
        question = state["question"]
        if is_yes_no(question, detect_language(question)):
            system += DRAFT_YES_NO_RULE[lang]
        if len(sub_questions) > 1:
            system += DRAFT_SECTIONS_RULE[lang]
            items = "\n".join(f"{n}. {text}" for n, text in enumerate(sub_questions, 1))
            question += "\n\n" + SUB_QUESTIONS_BLOCK[lang].format(items=items).rstrip()
        if deps.settings.banned_words:
            system += STYLE_RULES[lang].format(banned=", ".join(f'"{w}"' for w in deps.settings.banned_words))
        if state.get("conversation"):
            previous = "\n\n".join(f"Q: {turn.question}\nA: {turn.answer}" for turn in state["conversation"][-2:])
            system += "\n\n" + FOLLOW_UP_CONTEXT[lang].format(previous=previous)
        disagreements = state.get("disagreements") or Disagreements()  # the compare step's
        if disagreements.items:
            system += DRAFT_DISAGREEMENTS_RULE[lang].format(items=disagreement_lines(disagreements.items, lang))
        frame = DRAFT_USER[lang].format(question=question, evidence="")
        # Ranked once; each (shrinking) attempt takes a prefix of the same ranking.
        ranked = focused(rank_passages(sources, [state["question"], *sub_questions]), sources)
        budget = deps.model.context_budget(ANSWER_RESERVE_TOKENS) - estimate_tokens(system + frame)
        # The evidence budget is an estimate; if Ollama still reports a full context, the
        # evidence is halved and the draft asked again (context_fit.py), never cut silently.
        def messages(share: int) -> list[dict[str, str]]:
            return [{"role": "system", "content": system},
                    {"role": "user", "content": DRAFT_USER[lang].format(
                        question=question, evidence=evidence_block(sources, ranked, share))}]

        for attempt in (1, 2):
            draft, overflow_errors = await stream_within_context(
                deps, messages, budget, node="llm", session_id=state["session_id"], lang=lang,
                max_tokens=draft_cap(len(sub_questions)))
            if draft.strip() or not sources:
                break
            # The real 1.5B model now and then answers nothing at all (bench_answers.py --ollama,
            # 「量子ビットとは？」, an empty report at exit 0): asked once more, then said.
            deps.history.append_event(state["session_id"], "empty_draft", attempt=attempt)
        if not draft.strip() and sources:
            overflow_errors = [*overflow_errors, RunError(node="llm", kind=ProblemKind.DRAFT,
                                                          message=t("answer.empty_draft", lang))]
    deps.progress(Token("\n"))
    rewrites: list[StyleRewrite] = []
    if sources:
        # A heading the model wrote its answer into is given back to the body, to be checked.
        draft = headings_as_text(draft)
        # Models cite as they like ([1], 【S1】, footnotes…): from here on only [S#] exists.
        draft, rewritten_citations = normalise_citations(draft, ledger_mappings(documents))
        if rewritten_citations:
            deps.history.append_event(state["session_id"], "citations_normalised", count=len(rewritten_citations),
                                      examples=rewritten_citations[:5])
        draft, rewrites = await enforce_style(draft, lang, deps)
        for rewrite in rewrites:
            deps.history.append_event(state["session_id"], "style_rewrite", **rewrite.model_dump())
    deps.history.write_text(state["session_id"], "llm_draft.md", draft + "\n")
    # A reply cut at its cap (a runaway draft, plan or rewrite) is said, never a silent long step.
    overflow_errors = [*overflow_errors, *(RunError(node="llm", kind=ProblemKind.CONTEXT, message=line)
                                           for line in capped_lines(deps.model, lang))]
    return {
        "draft": draft,
        "model_used": deps.model.model,
        "style_rewrites": list(state.get("style_rewrites", [])) + rewrites,
        "redraft_targets": [],  # done: the next round redrafts only what the verifier names again
        # A context overflow (and how it was handled) is recorded, so the report can say so.
        "errors": overflow_errors,
    }


def new_evidence_for(targets: list[str], state: AgentState) -> bool:
    """A document read since the last verification (the ledger only grows) holds a word that
    one of ``targets`` uses beyond the question's own: a redraft has something new to go by."""
    documents = list(state.get("documents") or [])
    verification = state.get("verification")
    seen = verification.summary.documents_seen if verification is not None and verification.summary else 0
    fresh = [d.markdown.lower() for d in documents[seen:] if d.status == "ok"]
    if not fresh:
        return False
    asked = {w.lower() for w in key_words(str(state.get("question") or ""))}
    wanted = {w.lower() for text in targets for w in key_words(strip_citations(text))} - asked
    return not wanted or any(word in text for text in fresh for word in wanted)


async def redraft_unsupported(draft: str, targets: list[str], state: AgentState, sources: list[dict[str, Any]],
                              deps: WorkflowDependencies) -> str:
    """``draft`` with each target sentence revised against the evidence, or dropped when the
    model says the sources do not cover it. One structured call; a sentence the model did
    not answer for (or a call that failed) stays as written, and the verifier flags it again."""
    lang = state["language"]
    deps.progress(Message("verifier.redrafting", {"count": len(targets)}))
    items = "\n".join(SENTENCE_ITEM[lang].format(id=n, text=text.strip()) for n, text in enumerate(targets, 1))
    ranked = rank_passages(sources, [state["question"], *targets])
    frame = REDRAFT_SYSTEM[lang] + REDRAFT_USER[lang].format(evidence="", items=items)
    budget = deps.model.context_budget(ANSWER_RESERVE_TOKENS) - estimate_tokens(frame)
    messages = [{"role": "system", "content": REDRAFT_SYSTEM[lang]},
                {"role": "user", "content": REDRAFT_USER[lang].format(
                    evidence=evidence_block(sources, ranked, max(1, budget)), items=items)}]
    try:
        revisions = await deps.model.structured(messages, SentenceRevisions, node="llm", role=ModelRole.REVISE,
                                                fallback=SentenceRevisions())
    except UserFacingError:
        raise  # Ollama is gone: the run cannot go on, the CLI says why
    except Exception:  # noqa: BLE001 - a transport hiccup costs the revision, not the run
        revisions = SentenceRevisions()
    replies = {item.id: REDRAFT_SCAFFOLDING.sub("", item.text).strip() for item in revisions.sentences}
    for number, original in enumerate(targets, 1):
        if number not in replies or original not in draft:
            continue
        revised = replies[number]
        # A dropped sentence takes its trailing space with it; a revised one keeps its place.
        draft = draft.replace(original + " ", "", 1) if not revised and original + " " in draft else \
            draft.replace(original, revised, 1)
    return draft


def disagreement_lines(items: list[Disagreement], lang: Language) -> str:
    """One line per disagreement for the draft prompt (``disagreement_line``)."""
    return "\n".join(f"  - {disagreement_line(item, lang)}" for item in items)


async def enforce_style(draft: str, lang: Language, deps: WorkflowDependencies) -> tuple[str, list[StyleRewrite]]:
    """Rewrite each sentence that breaks a style rule once with the model; if the rewrite
    still breaks one (or loses a citation), remove the offending words deterministically."""
    banned = deps.settings.banned_words
    lines: list[str] = []
    rewrites: list[StyleRewrite] = []
    for line in draft.split("\n"):
        if line.lstrip().startswith("#"):
            lines.append(line)  # headings are sub-questions or section names: left as written
            continue
        sentences = split_sentences(line, whole=True)  # rewritten in place, the rest kept as written
        for i, sentence in enumerate(sentences):
            issue = check_sentence(sentence, banned, lang)
            if not issue:
                continue
            # Leading space and a list marker stay; the model sees the sentence alone.
            lead = match.group(0) if (match := _LEAD.match(sentence)) else ""  # always matches
            hedging = STYLE_HEDGING_NOTE[lang].format(hedges=", ".join(issue.hedges)) if issue.hedges else ""
            reply = await deps.model.chat(
                [
                    {"role": "system", "content": STYLE_REWRITE_SYSTEM[lang].format(
                        words=", ".join(f'"{w}"' for w in issue.banned) or "-", hedging=hedging)},
                    {"role": "user", "content": sentence[len(lead):].strip()},
                ],
                node="style", role=ModelRole.REWRITE,
            )
            rewritten = lead + " ".join(reply.split())
            method: Literal["model", "removed"] = "model"
            if (not reply.strip() or check_sentence(rewritten, banned, lang)
                    or citations(rewritten) != citations(sentence)):
                rewritten, method = remove_violations(sentence, issue), "removed"
            sentences[i] = rewritten
            rewrites.append(StyleRewrite(sentence=sentence.strip(), rewritten=rewritten.strip(), method=method,
                                         banned=issue.banned, hedges=issue.hedges))
        lines.append("".join(sentences) if sentences else line)
    return "\n".join(lines), rewrites

"""llm node: draft the answer from the ledger, citing only its labels, streamed."""

from __future__ import annotations

import json
import re
from typing import Any

from research.modules.core.errors import UserFacingError
from research.modules.core.i18n import t
from research.modules.core.messages.analysis import attribute_name
from research.modules.text.claims import normalise_citations
from research.modules.text.disagreements import Pair, find_disagreements, summarise
from research.modules.text.style import check_sentence, citations, remove_violations, split_sentences
from research.modules.text.tokens import estimate_tokens, truncate_to_tokens
from research.modules.text.passages import evidence_block, rank_passages
from research.state import AgentState, plan_queries_flat
from research.nodes.context_fit import stream_within_context
from research.nodes.dependencies import WorkflowDependencies
from research.nodes.prompts import (
    DISAGREEMENT_JUDGE_SYSTEM,
    DISAGREEMENT_PAIR,
    DRAFT_DISAGREEMENTS_RULE,
    DRAFT_SECTIONS_RULE,
    DRAFT_SYSTEM,
    DRAFT_USER,
    FOLLOW_UP_CONTEXT,
    NO_EVIDENCE_DRAFT,
    STYLE_HEDGING_NOTE,
    STYLE_REWRITE_SYSTEM,
    STYLE_RULES,
    SUB_QUESTIONS_BLOCK,
    DisagreementJudgements,
    REDRAFT_ITEM,
    REDRAFT_SYSTEM,
    REDRAFT_USER,
    SentenceRevisions,
)

# Room kept for the answer itself inside num_ctx.
ANSWER_RESERVE_TOKENS = 3072
_LEAD = re.compile(r"\s*(?:(?:[-*]|\d+\.)\s+)?")


async def draft_answer(state: AgentState, deps: WorkflowDependencies) -> dict[str, Any]:
    """Write llm_draft.md. With no readable source the draft says so and the model is not asked."""
    lang = state["language"]
    sources = [d for d in state.get("documents", []) if d["status"] == "ok"]
    overflow_errors: list[dict[str, Any]] = []
    disagreements: dict[str, Any] = {"items": []}
    targets = [text for text in state.get("redraft_targets") or [] if text]
    if not sources:
        draft = NO_EVIDENCE_DRAFT[lang]
        deps.progress("token", {"text": draft})
    elif targets and state.get("draft"):
        # A follow-up round: only the sentences the verifier could not support are
        # revised, against everything read so far; the supported ones stay as they were.
        draft = await redraft_unsupported(state["draft"], targets, state, sources, deps)
        disagreements = state.get("disagreements") or disagreements
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
        disagreements = await source_disagreements(state, sources, sub_questions, deps)
        if disagreements["items"]:
            system += DRAFT_DISAGREEMENTS_RULE[lang].format(items=disagreement_lines(disagreements["items"], lang))
            deps.progress("message", {"key": "analysis.disagreements_found", "count": len(disagreements["items"])})
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
        "disagreements": disagreements,
        "redraft_targets": [],  # done: the next round redrafts only what the verifier names again
        # A context overflow (and how it was handled) is recorded, so the report can say so.
        "errors": overflow_errors,
    }


async def redraft_unsupported(draft: str, targets: list[str], state: AgentState, sources: list[dict[str, Any]],
                              deps: WorkflowDependencies) -> str:
    """``draft`` with each target sentence revised against the evidence, or dropped when the
    model says the sources do not cover it. One structured call; a sentence the model did
    not answer for (or a call that failed) stays as written, and the verifier flags it again."""
    lang = state["language"]
    deps.progress("message", {"key": "verifier.redrafting", "count": len(targets)})
    items = "\n".join(REDRAFT_ITEM[lang].format(id=n, text=text.strip()) for n, text in enumerate(targets, 1))
    ranked = rank_passages(sources, [state["question"], *targets])
    frame = REDRAFT_SYSTEM[lang] + REDRAFT_USER[lang].format(evidence="", items=items)
    budget = deps.model.context_budget(ANSWER_RESERVE_TOKENS) - estimate_tokens(frame)
    messages = [{"role": "system", "content": REDRAFT_SYSTEM[lang]},
                {"role": "user", "content": REDRAFT_USER[lang].format(
                    evidence=evidence_block(sources, ranked, max(1, budget)), items=items)}]
    try:
        revisions = await deps.model.structured(messages, SentenceRevisions, node="llm", fallback=SentenceRevisions())
    except UserFacingError:
        raise  # Ollama is gone: the run cannot go on, the CLI says why
    except Exception:  # noqa: BLE001 - a transport hiccup costs the revision, not the run
        revisions = SentenceRevisions()
    replies = {item.id: item.text.strip() for item in revisions.sentences}
    for number, original in enumerate(targets, 1):
        if number not in replies or original not in draft:
            continue
        revised = replies[number]
        # A dropped sentence takes its trailing space with it; a revised one keeps its place.
        draft = draft.replace(original + " ", "", 1) if not revised and original + " " in draft else \
            draft.replace(original, revised, 1)
    return draft


_JUDGE_SENTENCE_TOKENS = 120  # per statement shown to the judge: the sentence, not the page


async def source_disagreements(state: AgentState, sources: list[dict[str, Any]], sub_questions: list[str],
                               deps: WorkflowDependencies) -> dict[str, Any]:
    """Where the read sources give different values for one figure or date (disagreements.json).

    The cheap checks decide what they can; the borderline pairs go to the model in one
    structured call, and only a pair it calls a disagreement is reported. A judge that
    fails or leaves a pair out costs that pair (counted as unresolved), never the run.
    """
    lang = state["language"]
    questions = [state["question"], *sub_questions, *(q["text"] for q in plan_queries_flat(state.get("plan", [])))]
    findings = find_disagreements(sources, questions)
    pairs: list[Pair] = list(findings.certain)
    unresolved = 0
    if findings.borderline:
        blocks = [DISAGREEMENT_PAIR[lang].format(
            id=n, first_label=p.first.label, first=truncate_to_tokens(p.first.sentence, _JUDGE_SENTENCE_TOKENS),
            second_label=p.second.label, second=truncate_to_tokens(p.second.sentence, _JUDGE_SENTENCE_TOKENS))
            for n, p in enumerate(findings.borderline, start=1)]
        messages = [{"role": "system", "content": DISAGREEMENT_JUDGE_SYSTEM[lang]},
                    {"role": "user", "content": "\n\n".join(blocks)}]
        try:
            reply = await deps.model.structured(messages, DisagreementJudgements, node="disagreements",
                                                fallback=DisagreementJudgements(judgements=[]))
            verdicts = {j.id: j.verdict for j in reply.judgements}
        except UserFacingError:
            raise
        except Exception:  # noqa: BLE001 - a failed judge costs the borderline pairs, not the draft
            verdicts = {}
        for number, pair in enumerate(findings.borderline, start=1):
            verdict = verdicts.get(number)
            if verdict == "disagree":
                pairs.append(pair)
            elif verdict is None:
                unresolved += 1
    result = {"items": summarise(pairs), "facts": findings.facts, "certain_pairs": len(findings.certain),
              "borderline_pairs": len(findings.borderline), "unresolved": unresolved}
    deps.history.write_text(state["session_id"], "disagreements.json",
                            json.dumps({"language": lang, **result}, ensure_ascii=False, indent=2) + "\n")
    if unresolved:
        deps.history.append_event(state["session_id"], "disagreements_unresolved", count=unresolved)
    return result


def disagreement_lines(items: list[dict[str, Any]], lang: str) -> str:
    """One line per disagreement: what it is about, then each position with its citations."""
    versus = f" {t('analysis.versus', lang)} "
    lines = []
    for item in items:
        sides = versus.join(f"{p['value']} " + "".join(f"[{label}]" for label in p["labels"])
                            for p in item["positions"])
        lines.append(f"  - {attribute_name(item.get('attribute'), item['dimension'], lang, item.get('qualifier'))}: {sides}")
    return "\n".join(lines)


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

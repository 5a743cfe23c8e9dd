"""llm node: draft the answer from the ledger, citing only its labels, streamed."""

from __future__ import annotations

import json
import re
from typing import Any

from research.modules.core.errors import UserFacingError
from research.modules.core.i18n import t
from research.modules.core.messages.analysis import attribute_name
from research.modules.llm.judge import check_claims, judge_for
from research.modules.llm.model_manager import capped_lines
from research.modules.text.analyser import key_words
from research.modules.text.claims import normalise_citations, split_sentences, strip_citations
from research.modules.text.disagreements import Pair, PairJudge, find_disagreements, resolve_borderline, summarise
from research.modules.text.style import check_sentence, citations, remove_violations
from research.modules.text.tokens import estimate_tokens, truncate_to_tokens
from research.modules.text.passages import evidence_block, rank_passages
from research.state import AgentState, plan_queries_flat
from research.state.models import (
    Disagreement,
    Disagreements,
    Language,
    ProblemKind,
    RunError,
    StyleRewrite,
    ledger_mappings,
)
from research.nodes.context_fit import stream_within_context
from research.nodes.dependencies import ModelRole, WorkflowDependencies
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
    REDRAFT_SCAFFOLDING,
    REDRAFT_SYSTEM,
    REDRAFT_USER,
    SENTENCE_ITEM,
    SentenceRevisions,
)
from research.state.progress_events import Message, Token

# Room kept for the answer itself inside num_ctx.
ANSWER_RESERVE_TOKENS = 3072
_LEAD = re.compile(r"\s*(?:(?:[-*]|\d+\.)\s+)?")


async def draft_answer(state: AgentState, deps: WorkflowDependencies) -> AgentState:
    """Write llm_draft.md. With no readable source the draft says so and the model is not asked."""
    lang = state["language"]
    documents = state.get("documents", [])
    # modules/text reads the ledger as plain mappings (as processed.jsonl holds it)
    sources = ledger_mappings(d for d in documents if d.status == "ok")
    overflow_errors: list[RunError] = []
    disagreements = Disagreements()
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
        disagreements = state.get("disagreements") or disagreements
    else:
        system = DRAFT_SYSTEM[lang]
        sub_questions = [sub.question for sub in state.get("plan", [])]
        question = state["question"]
        if len(sub_questions) > 1:
            system += DRAFT_SECTIONS_RULE[lang]
            items = "\n".join(f"{n}. {text}" for n, text in enumerate(sub_questions, 1))
            question += "\n\n" + SUB_QUESTIONS_BLOCK[lang].format(items=items).rstrip()
        if deps.settings.banned_words:
            system += STYLE_RULES[lang].format(banned=", ".join(f'"{w}"' for w in deps.settings.banned_words))
        if state.get("conversation"):
            previous = "\n\n".join(f"Q: {turn.question}\nA: {turn.answer}" for turn in state["conversation"][-2:])
            system += "\n\n" + FOLLOW_UP_CONTEXT[lang].format(previous=previous)
        disagreements = await source_disagreements(state, sources, sub_questions, deps)
        if disagreements.items:
            system += DRAFT_DISAGREEMENTS_RULE[lang].format(items=disagreement_lines(disagreements.items, lang))
            deps.progress(Message("analysis.disagreements_found", {"count": len(disagreements.items)}))
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
            budget, node="llm", session_id=state["session_id"], lang=lang, max_tokens=ANSWER_RESERVE_TOKENS,
        )
    deps.progress(Token("\n"))
    rewrites: list[StyleRewrite] = []
    if sources:
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
        "disagreements": disagreements,
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


_JUDGE_SENTENCE_TOKENS = 120  # per statement shown to the judge: the sentence, not the page


async def source_disagreements(state: AgentState, sources: list[dict[str, Any]], sub_questions: list[str],
                               deps: WorkflowDependencies, judge: PairJudge | None = None) -> Disagreements:
    """Where the read sources give different values for one figure or date (disagreements.json).

    The cheap checks decide what they can; the borderline pairs go to ``judge`` (by default
    the run's: the fact-checking model for English pairs when installed, the drafting model
    in one structured call for the rest), and only a pair it calls a disagreement is
    reported. A judge that fails or leaves a pair out costs that pair (counted as
    unresolved), never the run.
    """
    lang = state["language"]
    questions = [state["question"], *sub_questions, *(q.text for q in plan_queries_flat(state.get("plan", [])))]
    findings = find_disagreements(sources, questions)
    pairs, unresolved = await resolve_borderline(findings, judge or run_pair_judge(sources, lang, deps))
    result = Disagreements(items=summarise(pairs), facts=findings.facts, certain_pairs=len(findings.certain),
                           borderline_pairs=len(findings.borderline), unresolved=unresolved)
    deps.history.write_text(state["session_id"], "disagreements.json",
                            json.dumps({"language": lang, **result.model_dump(mode="json")}, ensure_ascii=False,
                                       indent=2) + "\n")
    if unresolved:
        deps.history.append_event(state["session_id"], "disagreements_unresolved", count=unresolved)
    return result


def run_pair_judge(sources: list[dict[str, Any]], lang: Language, deps: WorkflowDependencies) -> PairJudge:
    """The run's judge for borderline pairs: English pairs whose values are plain figures go
    to the fact-checking model when the run has one (modules/llm/judge.py), the rest to the
    drafting model in one structured call."""
    titles = {str(d["label"]): " ".join(str(d.get("title") or "").split()) for d in sources}

    def statement(fact: Any) -> str:
        # "It rises to ...": the page's title says what "it" is.
        text = truncate_to_tokens(fact.sentence, _JUDGE_SENTENCE_TOKENS)
        return f"({titles.get(fact.label, '')}) {text}" if fact.by_reference and titles.get(fact.label) else text

    async def judge(pairs: list[Pair]) -> dict[int, str]:
        checker = judge_for(deps.settings, deps.model)
        verdicts: dict[int, str] = {}
        by_checker = {n: swapped for n, p in enumerate(pairs, start=1)
                      if (swapped := _with_value_of(p.first, p.second)) is not None
                      and checker.protocol_for(p.second.sentence, [p.first.sentence]) != "prompt"}
        if by_checker:
            verdicts.update(await _checker_verdicts(pairs, by_checker, checker, statement, deps))
        rest = [(n, p) for n, p in enumerate(pairs, start=1) if n not in by_checker]
        if rest:
            verdicts.update(await _prompt_verdicts(rest, statement, lang, deps))
        return verdicts

    return judge


def _with_value_of(first: Any, second: Any) -> str | None:
    """``second``'s sentence with ``first``'s figure, as ``first`` writes it, in place of its
    own ("stands 3,778 metres" → "stands 3,776 metres"), or None when either does not give
    one plain figure."""
    if len(first.values) != 1 or len(second.values) != 1:
        return None
    theirs, mine = _figure_in(first), _figure_in(second)
    if theirs is None or mine is None:
        return None
    return second.sentence[: mine.start()] + theirs.group(0) + second.sentence[mine.end():]


def _figure_in(fact: Any) -> re.Match[str] | None:
    """Where the sentence writes the fact's one figure ("3,776" for 3776 m), when it does once."""
    digits = re.sub(r"\D", "", re.match(r"[\d.,]*", fact.values[0].text).group(0))
    spots = [m for m in re.finditer(r"\d[\d,]*(?:\.\d+)?", fact.sentence) if digits and re.sub(r"\D", "", m.group(0)) == digits]
    return spots[0] if len(spots) == 1 else None


async def _checker_verdicts(pairs: list[Pair], swapped: dict[int, str], checker: Any, statement: Any,
                            deps: WorkflowDependencies) -> dict[int, str]:
    """A grounded checker answers whether a document supports a claim, not whether two
    documents disagree; asked twice it can tell: B as written ("stands 3,778 m") against A,
    and B with A's value ("stands 3,776 m"). A supports B: they agree; A supports only the
    changed B: same measure, other value, a disagreement; neither: different things."""
    items = []
    for number, changed in swapped.items():
        document = [statement(pairs[number - 1].first)]
        items += [(pairs[number - 1].second.sentence, document), (changed, document)]
    results = await check_claims(deps.model, checker, items, node="disagreements", limit=deps.settings.judge_concurrency)
    verdicts = {}
    for (number, _), as_written, changed in zip(swapped.items(), results[::2], results[1::2]):
        if "uncertain" in (as_written.verdict, changed.verdict):
            continue  # unresolved: not reported
        if as_written.verdict == "supported":
            verdicts[number] = "agree"
        else:
            verdicts[number] = "disagree" if changed.verdict == "supported" else "different_facts"
    return verdicts


async def _prompt_verdicts(numbered: list[tuple[int, Pair]], statement: Any, lang: Language,
                           deps: WorkflowDependencies) -> dict[int, str]:
    """The drafting model judges the pairs in one structured call."""
    blocks = [DISAGREEMENT_PAIR[lang].format(id=n, first_label=p.first.label, first=statement(p.first),
                                             second_label=p.second.label, second=statement(p.second))
              for n, p in numbered]
    messages = [{"role": "system", "content": DISAGREEMENT_JUDGE_SYSTEM[lang]},
                {"role": "user", "content": "\n\n".join(blocks)}]
    try:
        reply = await deps.model.structured(messages, DisagreementJudgements, node="disagreements",
                                            role=ModelRole.COMPARE, fallback=DisagreementJudgements(judgements=[]))
    except UserFacingError:
        raise
    except Exception:  # noqa: BLE001 - a failed judge costs the borderline pairs, not the draft
        return {}
    wanted = {n for n, _ in numbered}
    return {j.id: j.verdict for j in reply.judgements if j.id in wanted}


def disagreement_lines(items: list[Disagreement], lang: Language) -> str:
    """One line per disagreement: what it is about, then each position with its citations."""
    versus = f" {t('analysis.versus', lang)} "
    lines = []
    for item in items:
        sides = versus.join(f"{p.value} " + "".join(f"[{label}]" for label in p.labels) for p in item.positions)
        lines.append(f"  - {attribute_name(item.attribute, item.dimension, lang, item.qualifier)}: {sides}")
    return "\n".join(lines)


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
            lead = _LEAD.match(sentence).group(0)
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
            method = "model"
            if (not reply.strip() or check_sentence(rewritten, banned, lang)
                    or citations(rewritten) != citations(sentence)):
                rewritten, method = remove_violations(sentence, issue), "removed"
            sentences[i] = rewritten
            rewrites.append(StyleRewrite(sentence=sentence.strip(), rewritten=rewritten.strip(), method=method,
                                         banned=issue.banned, hedges=issue.hedges))
        lines.append("".join(sentences) if sentences else line)
    return "\n".join(lines), rewrites

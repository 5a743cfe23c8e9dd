"""The compare step: where the sources read give different values for one figure or date,
found before the answer is drafted so the draft can be asked to give every side
(disagreements.json, and a section of progress.md).

The cheap checks (``modules/text/disagreements``) decide what they can; the borderline pairs
go to a judge: the fact-checking model for English pairs of plain figures when the run has
one, else the drafting model in one structured call. A follow-up round keeps what the first
round found: its redraft revises only the sentences the verifier named.
"""

from __future__ import annotations

import json
import re
from typing import Any

from research.modules.core.errors import UserFacingError
from research.modules.llm.judge import check_claims, judge_for
from research.modules.text.disagreements import Pair, PairJudge, find_disagreements, resolve_borderline, summarise
from research.modules.text.tokens import truncate_to_tokens
from research.workflow.dependencies import ModelRole, WorkflowDependencies
from research.workflow.prompts import DISAGREEMENT_JUDGE_SYSTEM, DISAGREEMENT_PAIR, DisagreementJudgements
from research.state import AgentState, plan_queries_flat
from research.state.models import Disagreement, Disagreements, Language, ledger_mappings
from research.state.progress_events import Message


async def compare_sources(state: AgentState, deps: WorkflowDependencies) -> AgentState:
    """disagreements: what the read sources disagree on (none without a readable source)."""
    if state.get("redraft_targets") and state.get("draft"):
        return {}  # a follow-up round: the first round's comparison stands
    # modules/text reads the ledger as plain mappings (as processed.jsonl holds it)
    sources = ledger_mappings(d for d in state.get("documents", []) if d.status == "ok")
    if not sources:
        return {"disagreements": Disagreements()}
    sub_questions = [sub.question for sub in state.get("plan", [])]
    disagreements = await source_disagreements(state, sources, sub_questions, deps)
    if disagreements.items:
        deps.progress(Message("analysis.disagreements_found", {"count": len(disagreements.items)}))
    return {"disagreements": disagreements}


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
    result = Disagreements(items=[Disagreement.model_validate(item) for item in summarise(pairs)], facts=findings.facts, certain_pairs=len(findings.certain),
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
    leading = re.match(r"[\d.,]*", fact.values[0].text)  # always matches, perhaps nothing
    digits = re.sub(r"\D", "", leading.group(0) if leading else "")
    spots = [m for m in re.finditer(r"\d[\d,]*(?:\.\d+)?", fact.sentence) if digits and re.sub(r"\D", "", m.group(0)) == digits]
    return spots[0] if len(spots) == 1 else None


async def _checker_verdicts(pairs: list[Pair], swapped: dict[int, str], checker: Any, statement: Any,
                            deps: WorkflowDependencies) -> dict[int, str]:
    """A grounded checker answers whether a document supports a claim, not whether two
    documents disagree; asked twice it can tell: B as written ("stands 3,778 m") against A,
    and B with A's value ("stands 3,776 m"). A supports B: they agree; A supports only the
    changed B: same measure, other value, a disagreement; neither: different things."""
    items = []
    for number, with_value in swapped.items():
        document = [statement(pairs[number - 1].first)]
        items += [(pairs[number - 1].second.sentence, document), (with_value, document)]
    results = await check_claims(deps.model, checker, items, node="disagreements", limit=deps.settings.judge_concurrency)
    verdicts: dict[int, str] = {}
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

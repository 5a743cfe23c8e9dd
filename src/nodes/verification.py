"""The verification node: every sentence of the draft is traced to a source, or flagged.

Steps, in order:
1. language fidelity: every sentence not in the requested language is rewritten (one batched call);
2. the draft is split into claims (sentences, with their section and cited labels);
3. cheap checks per claim (``modules.evidence``): labels exist, lexical overlap, numbers;
4. the model judges the borderline claims only, all in one structured call;
5. the annotated draft: fabricated labels removed, unsupported claims flagged visibly;
6. routing: too few supported claims and loops left -> follow-up queries and back to search.

How ``partly_supported`` counts: half a supported claim in ``supported_ratio``. It is
neither a fact we can stand behind nor a fabrication, and counting it as zero would send
every cautious paraphrase back to search while counting it as one would let half-true
drafts through.
"""

from __future__ import annotations

import re
from typing import Any, Literal

from langgraph.types import Command

from research.modules.text.claims import CITATION_GROUP, Claim, citation_labels, split_claims, strip_citations
from research.modules.core.errors import UserFacingError
from research.modules.text.analyser import key_words
from research.modules.text.evidence import Assessment, EvidenceIndex, assess_claim
from research.modules.core.i18n import t
from research.modules.core.settings import Settings
from research.modules.core.language import detect_language
from research.modules.llm.judge import Judge, check_claims, judge_for
from research.modules.text.language_check import WRONG_LANGUAGE_BELOW, check_sentences, is_wrong_language
from research.modules.text.tokens import estimate_tokens, truncate_to_tokens
from research.state.agent_state import AgentState, plan_queries_flat
from research.state.models import ClaimVerdict, ProblemKind, RunError
from research.nodes.dependencies import WorkflowDependencies
from research.nodes.prompts import SENTENCE_ITEM
from research.nodes.verification_prompts import (
    FOLLOW_UP_SYSTEM,
    FOLLOW_UP_USER,
    JUDGE_CLAIM,
    JUDGE_SYSTEM,
    REWRITE_SYSTEM,
    FollowUpPlan,
    JudgeBatch,
    SentenceRewrites,
)
from research.state.progress_events import Message

NODE = "verification"
PARTLY_WEIGHT = 0.5  # see the module docstring
MAX_FOLLOW_UP_QUERIES = 3
# A follow-up round must raise the supported share by this much for another one to run.
MIN_LOOP_GAIN = 0.05
_PASSAGE_TOKENS = 160  # per passage shown to the judge: enough for two sentences
_FLAGGED = ("unsupported", "citation_invalid")
_FLAG_ENDS = tuple(
    t(key, lang) for key in ("verification.flag_unverified", "verification.flag_partly", "verifier.flag_not_checked")
    for lang in ("en", "ja")
)


async def verify_claims(state: AgentState, deps: WorkflowDependencies) -> Command[Literal["search", "report"]]:
    """Check the draft claim by claim and decide whether to search again or report (the
    Command's ``goto``; the graph's node wrapper turns "search" into "report" once a budget
    ran out)."""
    language = state.get("language") if state.get("language") in ("ja", "en") else detect_language(state.get("draft", ""))
    documents = list(state.get("documents") or [])
    search_rounds = int(state.get("search_rounds") or 0)
    loops = max(0, search_rounds - 1)  # the follow-up rounds that ran
    new_errors: list[RunError] = []

    draft, language_check = await _fix_language(state.get("draft") or "", language, deps, new_errors)
    index = EvidenceIndex(documents, question=str(state.get("question") or ""))
    # A page's title written as a sentence names a source; it is not a claim (issue 23, item 4).
    claims = [claim for claim in split_claims(draft) if not index.is_title(claim.plain)]
    for number, claim in enumerate(claims):
        claim.index = number
    assessments = [assess_claim(claim, index) for claim in claims]
    methods = ["none" if a.verdict == "citation_invalid" or a.reason == "no_sources" else "lexical" for a in assessments]
    # An uncertain claim was never decided by the cheap checks: "lexical" would claim it was.
    judge, judged_by = judge_for(deps.settings, deps.model), {}
    judged = await judge_uncertain(claims, assessments, methods, language, deps.model, deps.settings, new_errors,
                                   judge=judge, record=judged_by)
    for claim, assessment, method in zip(claims, assessments, methods):
        if method == "model" and assessment.outcome == "supported" and not claim.citations:
            # The judge found support, but the sentence cites nothing and the cheap checks could
            # not say which passage: the reader cannot trace it, so it does not count as
            # supported (issue 23, item 4). A sentence the cheap checks are sure of gets a label.
            assessment.verdict, assessment.outcome, assessment.reason = "partly_supported", "uncertain", "uncited"
    verdicts = [_verdict(claim, a, m) for claim, a, m in zip(claims, assessments, methods)]

    summary = _summary(verdicts, loops, language_check, documents)
    summary["judge_complete"] = judged
    summary["judge"] = {**judge.describe(), **judged_by}  # which judge decided what (issue 21)
    summary["not_checked"] = sum(1 for v in verdicts if not v["checked"])
    route: Literal["search", "report"] = "report"
    follow_ups: list[dict[str, Any]] = []  # {"text", "language", "round"}
    targets: list[str] = []
    share = summary["supported_ratio"]
    earlier_shares = list(state.get("supported_shares") or [])
    wants_more = share < deps.settings.verification_pass_ratio
    # With no readable source there is nothing a claim could be checked against here; the
    # search node already reported it, and the report says plainly that evidence is missing.
    if wants_more and loops < deps.settings.max_verification_loops and index.sources:
        if earlier_shares and share < earlier_shares[-1] + MIN_LOOP_GAIN:
            # The last round found nothing that helped: another one would only cost calls.
            summary["loop_stopped"] = "no_gain"
            deps.history.append_event(state["session_id"], "loop_stopped", share=share, previous=earlier_shares[-1])
            deps.progress(Message("verifier.loop_no_gain"))
        else:
            follow_ups = [{**query, "round": search_rounds + 1}
                          for query in await _follow_up_queries(state, verdicts, language, deps, new_errors)]
            if follow_ups:
                route = "search"
                targets = [draft[c.start:c.end].strip() for c, v in zip(claims, verdicts) if v["verdict"] != "supported"]
    summary["loops"] = loops + 1 if route == "search" else loops  # a round asked for counts
    annotated = annotate_draft(draft, claims, verdicts, set(index.sources), language, final=route == "report",
                               wrong_language=frozenset(t.strip() for t in language_check.get("not_rewritten") or []))
    summary["removed"] = sum(1 for v in verdicts if v.get("removed"))

    # verification.json keeps every follow-up query asked so far, not only this round's.
    verification = {
        "claims": verdicts,
        "summary": summary,
        "follow_up_queries": [*(state.get("follow_up_queries") or []), *follow_ups],
        "annotated_draft": annotated,
    }
    _save(state, deps, verification, language, new_errors)
    update: dict[str, Any] = {
        "verification": verification,
        "follow_up_queries": follow_ups,  # a reducer adds them to the earlier rounds'
        "supported_shares": [share],
        "redraft_targets": targets,
    }
    if route == "search":
        update["draft"] = draft  # the next round revises this text (language already fixed)
    if new_errors:
        update["errors"] = [e.as_state() for e in new_errors]  # a reducer adds them
    return Command(goto=route, update=update)


# --- 1. language fidelity ---------------------------------------------------------------------


async def _fix_language(
    draft: str, language: str, deps: WorkflowDependencies, errors: list[RunError]
) -> tuple[str, dict[str, Any]]:
    """Rewrite every sentence not in ``language``, all in one structured call.

    A rewrite is used only when it is in the right language and keeps every citation
    label; a sentence that cannot be rewritten stays as written and the report says so.
    """
    sentences = check_sentences(draft, language)
    wrong = [s for s in sentences if s.wrong_language]
    check: dict[str, Any] = {
        "target": language, "threshold": WRONG_LANGUAGE_BELOW, "sentences": len(sentences),
        "wrong_language": [s.text(draft) for s in wrong], "rewritten": 0, "not_rewritten": [],
        "rewritten_sections": [],
    }
    if not wrong:
        return draft, check
    items = "\n".join(SENTENCE_ITEM[language].format(id=n, text=s.text(draft).strip()) for n, s in enumerate(wrong, 1))
    replies: dict[int, str] = {}
    reason = t("verifier.rewrite_no_reply", language)
    try:
        batch = await deps.model.structured(
            [{"role": "system", "content": REWRITE_SYSTEM[language]}, {"role": "user", "content": items}],
            SentenceRewrites, node=NODE, fallback=None,
        )
        if isinstance(batch, SentenceRewrites):
            replies = {item.id: item.text for item in batch.sentences}
    except UserFacingError:
        raise  # Ollama is gone: the run cannot go on, the CLI says why
    except Exception as exc:  # noqa: BLE001 - a transport hiccup costs the rewrite, not the run
        reason = str(exc)[:200]
    left: list[str] = []
    for number, sentence in reversed(list(enumerate(wrong, 1))):  # back to front: offsets stay valid
        original = sentence.text(draft)
        rewritten = _accept_rewrite(original, replies.get(number, ""), language)
        if rewritten is None:
            left.append(original)
            continue
        draft = draft[: sentence.start] + rewritten + draft[sentence.end :]
        check["rewritten"] += 1
        if sentence.section not in check["rewritten_sections"]:
            check["rewritten_sections"].insert(0, sentence.section)
    left.reverse()
    check["not_rewritten"] = left
    if left:
        examples = " / ".join(f"\"{text[:80]}\"" for text in left[:3])
        errors.append(RunError(node=NODE, kind=ProblemKind.LANGUAGE, message=t(
            "verifier.language_not_rewritten", language, count=len(left), reason=reason, examples=examples)))
        # Said as it happens too, not only in the closing lines and the report's notes.
        deps.progress(Message("verifier.language_not_rewritten", {"count": len(left), "reason": reason,
                                                                  "examples": examples}))
    return draft, check


def _accept_rewrite(original: str, reply: str, language: str) -> str | None:
    """The rewritten sentence, or None when it is not one we can use.

    It must be one sentence of prose in the target language and keep every citation
    label: a rewrite that drops ``[S2]`` would turn a checked claim into an uncited one.
    """
    text = " ".join(reply.split())
    if not text or "\n" in reply.strip() or is_wrong_language(text, language)[0]:
        return None
    if not set(citation_labels(original)) <= set(citation_labels(text)):
        return None
    return text


# --- 4. the model as judge for borderline claims ---------------------------------------------------


async def judge_uncertain(
    claims: list[Claim],
    assessments: list[Assessment],
    methods: list[str],
    language: str,
    model: Any,
    settings: Settings,
    errors: list[RunError],
    judge: Judge | None = None,
    record: dict[str, Any] | None = None,
) -> bool:
    """The judge decides every uncertain claim; updates ``assessments`` in place.

    ``judge`` (default: the one the settings choose, modules/llm/judge.py) says who: English
    sentences go to a grounded checker one sentence per call, everything else to the
    drafting model with the judge prompt. A reply the judge cannot give in its own words
    (no Yes/No, the wrong JSON twice) leaves the claim uncertain and "not checked", never
    silently supported. ``record`` (optional) receives how many claims each judge took.
    Returns False when some uncertain claim could not be judged.
    """
    judge = judge or judge_for(settings, model)
    if judge.missing:
        errors.append(RunError(node=NODE, kind=ProblemKind.JUDGE, message=t(
            "judge.missing", language, model=judge.missing, drafting=judge.model)))
    to_checker: list[int] = []
    to_prompt: list[int] = []
    for claim, assessment in zip(claims, assessments):
        if assessment.outcome != "uncertain" or not assessment.candidates:
            continue
        passages = [p.text for p in assessment.candidates]
        (to_prompt if judge.protocol_for(claim.plain, passages) == "prompt" else to_checker).append(claim.index)
    if record is not None:
        record.update(checker=len(to_checker), prompt=len(to_prompt))
    complete = True
    if to_checker:
        complete = await _judge_by_checker(to_checker, claims, assessments, methods, language, model, judge, errors,
                                           limit=settings.judge_concurrency)
    if to_prompt:
        complete = await _judge_by_prompt(to_prompt, claims, assessments, methods, language, model, settings.num_ctx,
                                          errors) and complete
    return complete


# A Yes from the checker: its published balanced accuracy on LLM-AggreFact's RAGTruth part.
_CHECKER_CONFIDENCE = 0.84


async def _judge_by_checker(positions: list[int], claims: list[Claim], assessments: list[Assessment],
                            methods: list[str], language: str, model: Any, judge: Judge,
                            errors: list[RunError], *, limit: int) -> bool:
    """One call per sentence to the grounded checker, against the passages it cites, at
    most ``limit`` at once."""
    by_index = {claim.index: claim for claim in claims}
    items = [(by_index[p].plain, [c.text for c in assessments[p].candidates]) for p in positions]
    results = await check_claims(model, judge, items, node="judge", limit=limit)
    unreadable: list[str] = []
    failed: list[str] = []
    for position, result in zip(positions, results):
        if result.verdict == "uncertain":
            (failed if result.error else unreadable).append(result.error or result.reply)
            continue
        assessment = assessments[position]
        assessment.verdict = assessment.outcome = result.verdict
        assessment.borderline = False
        assessment.confidence = _CHECKER_CONFIDENCE
        assessment.reason = "judge"
        methods[position] = "model"
    if unreadable:
        errors.append(RunError(node=NODE, kind=ProblemKind.JUDGE, message=t(
            "judge.unreadable", language, model=judge.model, count=len(unreadable), reply=unreadable[0][:40])))
    if failed:
        errors.append(RunError(node=NODE, kind=ProblemKind.JUDGE, message=t(
            "judge.call_failed", language, model=judge.model, count=len(failed), reason=failed[0])))
    return not unreadable and not failed


async def _judge_by_prompt(positions: list[int], claims: list[Claim], assessments: list[Assessment],
                           methods: list[str], language: str, model: Any, num_ctx: int,
                           errors: list[RunError]) -> bool:
    """The drafting model with the judge prompt: one structured call per batch, and a new
    batch only when the next claim would not fit num_ctx (with room for the answers). A
    reply of the wrong shape is retried by the model manager and then counts as a
    failure: the claims it should have decided stay uncertain and are marked "not
    checked", never silently "no verdicts"."""
    system = JUDGE_SYSTEM[language]
    budget_total = max(1024, num_ctx - 2048) - estimate_tokens(system)
    batches: list[tuple[list[str], dict[int, int]]] = []
    blocks: list[str] = []
    ids: dict[int, int] = {}  # id shown to the model -> claim index
    budget = budget_total
    by_index = {claim.index: claim for claim in claims}
    for position in positions:
        claim, assessment = by_index[position], assessments[position]
        passages = "\n".join(
            f"- [{p.label}] {truncate_to_tokens(p.text, _PASSAGE_TOKENS)}" for p in assessment.candidates
        )
        block = JUDGE_CLAIM[language].format(id=len(ids) + 1, claim=claim.plain, passages=passages)
        cost = estimate_tokens(block) + 40  # room for this claim's answer
        if cost > budget and blocks:
            batches.append((blocks, ids))
            blocks, ids, budget = [], {}, budget_total
        budget -= cost
        ids[len(ids) + 1] = claim.index
        blocks.append(block)
    if blocks:
        batches.append((blocks, ids))
    complete = True
    for blocks, ids in batches:
        messages = [{"role": "system", "content": system}, {"role": "user", "content": "\n\n".join(blocks)}]
        try:
            batch = await model.structured(messages, JudgeBatch, node=NODE, fallback=None)
        except UserFacingError:
            raise
        except Exception as exc:  # noqa: BLE001 - a failed judge costs the verdicts, not the run
            errors.append(RunError(node=NODE, kind=ProblemKind.UNJUDGED, message=t("verification.judge_failed", language, reason=str(exc)[:200])))
            complete = False
            continue
        if not isinstance(batch, JudgeBatch) or not batch.verdicts:
            # The wrong shape twice, or an empty list for claims we asked about: not a verdict.
            errors.append(RunError(node=NODE, kind=ProblemKind.UNJUDGED, message=t("verification.judge_failed", language, reason="no usable verdicts")))
            complete = False
            continue
        seen: set[int] = set()
        for judged in batch.verdicts:
            position = ids.get(judged.id)
            if position is None or position in seen:
                continue  # an id we did not ask about, or a second answer for one we did
            seen.add(position)
            assessment = assessments[position]
            assessment.verdict = judged.verdict
            assessment.outcome = {"supported": "supported", "unsupported": "unsupported"}.get(judged.verdict, "uncertain")
            assessment.borderline = False
            assessment.confidence = round(min(1.0, max(0.0, judged.confidence)), 2)
            assessment.reason = "judge"
            quoted = _quoted_candidate(judged.evidence, assessment)
            if quoted is not None:
                assessment.evidence, assessment.evidence_label = quoted.text, quoted.label
            methods[position] = "model"
        if len(seen) < len(ids):
            complete = False
    return complete


def _quoted_candidate(quote: str, assessment: Assessment):
    """The passage the judge quoted, if it quoted one we showed it (never free text)."""
    quote = quote.strip()
    if len(quote) < 8:
        return None
    for passage in assessment.candidates:
        if quote in passage.text or passage.text in quote:
            return passage
    return None


def _verdict(claim: Claim, assessment: Assessment, method: str) -> dict[str, Any]:
    verdict = ClaimVerdict(
        index=claim.index,
        text=claim.plain,
        section=claim.section,
        citations=assessment.valid_citations,
        invalid_citations=assessment.invalid_citations,
        verdict=assessment.verdict,  # type: ignore[arg-type]
        confidence=assessment.confidence,
        evidence=assessment.evidence,
        evidence_label=assessment.evidence_label,
        method=method,  # type: ignore[arg-type]
    ).model_dump(mode="json")
    # Why the verdict fell as it did, for verification.json readers.
    verdict.update(
        score=assessment.score,
        borderline=assessment.borderline,
        reason=assessment.reason,
        outcome=assessment.outcome,
        # Uncertain and no judge decided it: the report says "not checked", not "unsupported".
        checked=assessment.outcome != "uncertain" or method == "model",
        missing=assessment.missing,
    )
    return verdict


# --- 5. the annotated draft ----------------------------------------------------------------------


def _keep_valid_labels(text: str, valid: set[str]) -> str:
    def rewrite(match: re.Match[str]) -> str:
        labels = citation_labels(match.group(0))
        kept = [label for label in labels if label in valid]
        if len(kept) == len(labels):
            return match.group(0)
        return "".join(f"[{label}]" for label in kept)

    cleaned = CITATION_GROUP.sub(rewrite, text)
    if cleaned == text:
        return text
    cleaned = re.sub(r"(?<=\S)[ \t]{2,}", " ", cleaned)
    return re.sub(r"(?<=\S)[ \t]+(?=[.,;:!?。、！？])", "", cleaned)


def _with_citation(text: str, label: str) -> str:
    """Cite ``label`` before the sentence's closing full stop."""
    stripped = text.rstrip()
    if stripped and stripped[-1] in "。.！？!?":
        space = "" if stripped[-1] in "。！？" else " "
        return stripped[:-1] + f"{space}[{label}]" + stripped[-1]
    return stripped + f" [{label}]"


# What the cited passage itself contradicts: a changed figure, exchanged roles, a word that
# excludes the passage's, a negation. Such a sentence is not left standing in the final answer.
CONTRADICTED = frozenset({"number_mismatch", "role_swap", "contrast", "negation"})


def annotate_draft(draft: str, claims: list[Claim], verdicts: list[dict[str, Any]], valid: set[str], language: str,
                   *, final: bool = False, wrong_language: frozenset[str] = frozenset()) -> str:
    """The draft as the report shows it.

    Labels that point at nothing are removed wherever they appear; an unsupported claim
    (or one whose only citation was invented) gets a visible flag, a partly supported one
    a milder flag. An uncited claim that a source does support gets that source's label,
    so every sentence in the report is traceable. In the ``final`` answer (no more search
    rounds), a sentence its own source contradicts is taken out of the text: the verdict
    keeps it (``removed``), and the report lists it with the passage that contradicts it,
    so "1707" and "1708" never stand side by side.
    """
    out = draft
    for claim, verdict in sorted(zip(claims, verdicts), key=lambda pair: pair[0].start, reverse=True):
        text = _keep_valid_labels(claim.text, valid)
        following = out[claim.end : claim.end + 1]
        contradicted = verdict.get("outcome") == "unsupported" and verdict.get("reason") in CONTRADICTED
        # A sentence still in the wrong language after the rewrite is not the answer the user
        # asked for: the report's notes name it (issue 23, item 4).
        foreign = claim.text.strip() in wrong_language
        if final and (contradicted or foreign):
            verdict["removed"] = True
            if foreign and not contradicted:
                verdict["removed_reason"] = "wrong_language"
            end = claim.end
            while end < len(out) and out[end] in " \t\u3000":
                end += 1
            out = out[: claim.start] + out[end:]
            continue
        if verdict["verdict"] in _FLAGGED:
            text = text.rstrip() + " " + t("verification.flag_unverified", language)
        elif not verdict.get("checked", True):
            text = text.rstrip() + " " + t("verifier.flag_not_checked", language)
        elif verdict["verdict"] == "partly_supported":
            text = text.rstrip() + " " + t("verification.flag_partly", language)
        elif not claim.citations and verdict.get("evidence_label") and verdict.get("method") == "lexical":
            # Only a citation the cheap checks are sure of; a judge's "supported" on an
            # uncited sentence is not proof enough to put a label the model never gave.
            text = _with_citation(text, verdict["evidence_label"])
        if text != claim.text and following and not following.isspace() and text.endswith(_FLAG_ENDS):
            text += " "  # 「…[S1]。 ⚠ 未検証」 must not run into the next sentence
        out = out[: claim.start] + text + out[claim.end :]
    # Labels outside claims (headings, table headers) go too; fenced code is left alone.
    parts = re.split(r"(^\s{0,3}```.*?^\s{0,3}```[^\n]*$)", out, flags=re.MULTILINE | re.DOTALL)
    return "".join(part if part.lstrip().startswith("```") else _keep_valid_labels(part, valid) for part in parts)


# --- summary, routing, saving ------------------------------------------------------------------------


def _summary(verdicts: list[dict[str, Any]], loops: int, language_check: dict[str, Any], documents: list[dict[str, Any]]) -> dict[str, Any]:
    counts = {name: sum(1 for v in verdicts if v["verdict"] == name) for name in ("supported", "partly_supported", "unsupported", "citation_invalid")}
    total = len(verdicts)
    ratio = (counts["supported"] + PARTLY_WEIGHT * counts["partly_supported"]) / total if total else 0.0
    invalid: list[str] = []
    for v in verdicts:
        invalid.extend(label for label in v["invalid_citations"] if label not in invalid)
    return {
        "claims": total,
        **counts,
        "supported_ratio": round(ratio, 3),
        "partly_weight": PARTLY_WEIGHT,
        "invalid_citations": invalid,
        "loops": loops,
        "language_check": language_check,
        "suspicious_sources": [str(d.get("label")) for d in documents if d.get("suspicious")],
    }


_MAX_QUERY_TERMS = 7


def _query_terms(text: str) -> list[str]:
    """The words of ``text`` that carry it, as a search engine wants them: names, nouns and
    figures in their written form, in order, each once ("富士山", "宝永", "1708年")."""
    out: list[str] = []
    for word in key_words(strip_citations(text)):
        if word.lower() not in (w.lower() for w in out):
            out.append(word)
    return out


def _query_for(claim: str, question: str) -> str:
    """A follow-up query for ``claim``: the question's topic, then the claim's own key words.
    Never a claim cut at a length ("…富士山は噴火してい"), which searches for nothing in particular."""
    topic = _query_terms(question)[:3]
    terms = topic + [w for w in _query_terms(claim) if w.lower() not in (t.lower() for t in topic)]
    return " ".join(terms[:_MAX_QUERY_TERMS])


def _on_topic(query: str, question: str, claims: list[str]) -> bool:
    """A proposed query shares a word with the question or with the claims it is for. A query
    in the other language (an English query for a Japanese question) cannot be compared so."""
    if detect_language(query) != detect_language(question or " ".join(claims)):
        return True
    wanted = {w.lower() for w in _query_terms(question)} | {w.lower() for c in claims for w in _query_terms(c)}
    return bool({w.lower() for w in _query_terms(query)} & wanted)


def _fallback_queries(targets: list[dict[str, Any]], question: str = "") -> list[dict[str, str]]:
    queries = []
    for verdict in targets:
        language = detect_language(verdict["text"])
        text = _query_for(verdict["text"], question)
        if text:
            queries.append({"text": text, "language": language})
    return queries


async def _follow_up_queries(
    state: AgentState, verdicts: list[dict[str, Any]], language: str, deps: WorkflowDependencies, errors: list[RunError]
) -> list[dict[str, str]]:
    """Search queries aimed at the unsupported claims, never repeating an earlier one."""
    # Flagged claims first, then those nobody could decide: both need a better source.
    targets = [v for v in verdicts if v["verdict"] in _FLAGGED]
    targets += [v for v in verdicts if v["verdict"] == "partly_supported"]
    targets = targets[: MAX_FOLLOW_UP_QUERIES * 2]
    if not targets:
        return []
    fallback = _fallback_queries(targets, str(state.get("question") or ""))
    messages = [
        {"role": "system", "content": FOLLOW_UP_SYSTEM[language].format(limit=MAX_FOLLOW_UP_QUERIES)},
        {
            "role": "user",
            "content": FOLLOW_UP_USER[language].format(
                question=state.get("question", ""), claims="\n".join(f"- {v['text']}" for v in targets)
            ),
        },
    ]
    proposed = fallback
    try:
        plan = await deps.model.structured(messages, FollowUpPlan, node=NODE, fallback=FollowUpPlan(queries=[]))
        if isinstance(plan, FollowUpPlan) and plan.queries:
            # A query about something else fetches pages about something else ("Also read").
            question, claims = str(state.get("question") or ""), [v["text"] for v in targets]
            proposed = [{"text": q.text, "language": q.language} for q in plan.queries
                        if _on_topic(q.text, question, claims)] or fallback
    except UserFacingError:
        raise
    except Exception as exc:
        errors.append(RunError(node=NODE, kind=ProblemKind.FOLLOW_UP, message=t("verification.follow_up_failed", language, reason=str(exc)[:200])))
    asked = {
        " ".join(str(q.get("text", "")).lower().split())
        for q in plan_queries_flat(state.get("plan") or [])
        + list(state.get("follow_up_queries") or [])
    }
    chosen: list[dict[str, str]] = []
    for query in proposed + fallback:  # the fallback fills in when the model repeats itself
        key = " ".join(query["text"].lower().split())
        if key and key not in asked and len(chosen) < MAX_FOLLOW_UP_QUERIES:
            asked.add(key)
            chosen.append({"text": query["text"].strip(), "language": query["language"]})
    return chosen


def _save(state: AgentState, deps: WorkflowDependencies, verification: dict[str, Any], language: str, errors: list[RunError]) -> None:
    session_id = state.get("session_id")
    if not session_id:
        return
    try:
        deps.history.write_json(session_id, "verification.json", {"language": language, **verification})
    except OSError as exc:  # a full disk costs the file, not the verdicts
        errors.append(RunError(node=NODE, kind=ProblemKind.SAVE, message=t("verification.save_failed", language, reason=exc.strerror or str(exc)), target="verification.json"))

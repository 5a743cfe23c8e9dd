"""The verification node: every sentence of the draft is traced to a source, or left out.

Steps, in order:
1. language fidelity: every sentence not in the requested language is rewritten (one batched call);
2. the draft is split into claims (sentences, with their section and cited labels);
3. cheap checks per claim (``modules/text/evidence.py``): labels exist, lexical overlap, numbers;
4. the model judges the borderline claims only: all in one structured call, or (a small model) by choosing;
5. the answer, assembled from the verdicts (workflow/answer.py): values corrected from their
   passage, only what the checks support kept, the rest listed by the report;
6. routing: too few supported claims and loops left -> follow-up queries and back to search.

``supported_ratio`` is the share of claims found supported, the same figure every surface
shows beside the counts. A partly supported claim does not count: it leaves the answer
(workflow/answer.py), so the answer holds no more than that share says.
"""

from __future__ import annotations

import asyncio
import dataclasses
import difflib
import hashlib
import re
from collections.abc import Callable
from typing import Any, Iterable, Literal

from langgraph.types import Command

from research.modules.text.claims import Claim, citation_labels, split_claims, split_sentences, strip_citations
from research.modules.core.grammar import CITATION_GROUP
from research.modules.core.errors import UserFacingError
from research.modules.text.analyser import key_words, name_terms
from research.modules.text.analyser import stem, terms, written_words
from research.modules.report.templates import REPORT_LABELS
from research.modules.text.claims import MARKDOWN_HEADING, sentence_spans
from research.modules.text.passages import sentence_before_on_its_page, sentence_on_the_question
from research.modules.text.evidence import TOPIC_JA, Assessment, EvidenceIndex, assess_claim, assess_in_its_language
from research.modules.text.evidence import KATAKANA_RUN, katakana_misspelt, written_in_japanese
from research.modules.text.numbers import NumberSet, extract_numbers
from research.modules.text.polarity import clause_conflict, conjoined_statements
from research.modules.text.references import named_reference
from research.modules.text.questions import answer_word
from research.modules.text.translation_check import unfaithful, with_figures_of
from research.modules.core.i18n import t
from research.modules.core.settings import Settings
from research.modules.core.language import choose_language, detect_language
from research.modules.llm.judge import CHECKER_NUM_CTX, Judge, check_claims, choose_claims, judge_for
from research.modules.text.language_check import WRONG_LANGUAGE_BELOW, check_sentences, is_wrong_language
from research.modules.text.tokens import estimate_tokens, truncate_to_tokens
from research.state.agent_state import AgentState, plan_queries_flat
from research.state.models import (
    ClaimReason,
    ClaimVerdict,
    Document,
    FollowUpQuery,
    JudgeQuality,
    JudgeRecord,
    Language,
    LanguageCheck,
    ProblemKind,
    Query,
    RunError,
    ValueCorrection,
    Verdict,
    VerificationResult,
    VerificationSummary,
    count_states,
    ledger_mappings,
    states_json,
)
from research.workflow.dependencies import ModelRole, WorkflowDependencies
from research.workflow.judge_quality import CHECK_SET, kept_quality, quality_for
from research.workflow import verification_prompts
from research.workflow import prompts
from research.workflow.answer import NOT_CHECKED_AS_CLAIMS, ProgramText, Topic, assemble_answer, not_a_claim_reason
from research.workflow.prompts import SENTENCE_ITEM, SentenceRewrites
from research.modules.llm.model_manager import REPAIR_PROMPT, capped_lines
from research.workflow.verification_prompts import (
    FOLLOW_UP_SYSTEM,
    FOLLOW_UP_USER,
    JUDGE_CLAIM,
    JUDGE_CLAIMS,
    JUDGE_PASSAGE,
    JUDGE_PASSAGES,
    JUDGE_SYSTEM,
    JUDGE_TOKENS_FRAME,
    JUDGE_TOKENS_PER_CLAIM,
    REWRITE_SYSTEM,
    FollowUpPlan,
    JudgeBatch,
)
from research.state.progress_events import Message

NODE = "verification"
MAX_FOLLOW_UP_QUERIES = 3
_QUERY_TOKENS = 40  # one query of 3 to 8 words with its language, as JSON
# A follow-up round must raise the supported share by this much for another one to run.
MIN_LOOP_GAIN = 0.05
_PASSAGE_TOKENS = 160  # per passage shown to the judge: enough for two sentences
_FLAGGED = (Verdict.UNSUPPORTED, Verdict.CITATION_INVALID)


# An uncited sentence is attributed to the one source the judge read only when the cheap checks
# found most of its words there too: general knowledge a lenient judge lets pass is not. Or half
# of them, where they found every name, term and figure of it there and only its wording left
# it open (partial_overlap): "The GIL is still present in Python 3.14, as evidenced by the fact
# that the standard build … has the GIL enabled by default", 0.64 (the real 1.5B model).
_ATTRIBUTION_COVERAGE = 0.7
_ATTRIBUTION_COVERAGE_ALL_TERMS = 0.5
_ATTRIBUTION_SOURCES = 3  # at most so many labels given to one sentence

# A claim the choosing judge picked over its negation counts as supported only where the
# checks found this share of its words in its passages: the 1.5B model picks a true sentence
# with an unstated addition as readily as a true one. RAGTruth train, two samples of
# bench_judge_real.py --choice, 1.5B choosing: seed 44 (60 answers), hallucinated claims ending
# supported 27/40 with no floor, 3/40 at 0.75, 1/40 at 0.85; seed 45 (20 answers, run at 0.75
# after 0.75 was chosen on seed 44), 3/15 at 0.75, 0/15 at 0.85. At 0.85 both are where the
# quick checks alone leave them (1/40, 0/15) and clean claims supported are 44.1% of 345
# (quick checks alone: 33.9%). 0.85 was chosen on both samples; a third, seed 46 (20 answers):
# 1/12 hallucinated claims supported (a dropped "suspected": hedge_dropped), clean supported 50.7%
# of 75 against 42.7% alone. Below the floor a choice decides nothing but "unsupported", which
# on the three samples was 3 claims, all clean: such claims are not asked (280 of 325 open
# claims, two calls each, saved).
_CHOICE_COVERAGE = 0.85
# The choice is asked only where the checks' doubt is of wording (partial_overlap), polarity
# (negation) or a figure not bound to its slot (its figures must still be in the passages). A
# term exchanged, a role, a hedge, a limit or an alternative the checks found is a difference
# the 1.5B model overlooks in a sentence that otherwise reads as its passage: it picks the claim
# over its negation (seed 46: "Boko Haram militants attacked…" where the passage says "Suspected
# Boko Haram militants"; "Each run passes a process_id" where it says thread_id).
_CHOICE_DOUBTS = frozenset({"partial_overlap", "negation", "number_missing"})


def _program_texts() -> ProgramText:
    """Every text this program sends to a model: its prompts (both languages) and the repair
    message. A sentence of the answer that repeats one came from us, not from a source."""
    texts = [REPAIR_PROMPT]
    for module in (prompts, verification_prompts):
        for value in vars(module).values():
            if isinstance(value, dict) and set(value) == {"en", "ja"}:
                texts += [v for v in value.values() if isinstance(v, str)]
    return ProgramText.of(texts)


PROGRAM_TEXT = _program_texts()


async def verify_claims(state: AgentState, deps: WorkflowDependencies) -> Command[Literal["search", "report"]]:
    """Check the draft claim by claim and decide whether to search again or report (the
    Command's ``goto``; the graph's node wrapper turns "search" into "report" once a budget
    ran out)."""
    language = choose_language(state.get("language"), text=state.get("draft", ""), default="en")
    documents = list(state.get("documents") or [])
    search_rounds = int(state.get("search_rounds") or 0)
    loops = max(0, search_rounds - 1)  # the follow-up rounds that ran
    new_errors: list[RunError] = []

    draft, language_check = await _fix_language(_opening_into_the_summary(state.get("draft") or ""), language, deps,
                                                new_errors, documents)
    index = EvidenceIndex(ledger_mappings(documents), question=str(state.get("question") or ""))
    # A page's title, the program's own prompt text or a template's slot written as a sentence
    # is not a claim: it is neither checked nor counted, and the answer leaves it out.
    titles = [d.title for d in documents]
    if language == "en":
        # "…in this build" names the build it means before it is checked: the sentence before it
        # may be taken out of the answer (modules/text/references.py).
        draft, named = _name_references(draft, titles)
        if named:
            deps.history.append_event(state["session_id"], "references_named", count=named)
    claims = _claims_of(draft, titles)
    assessments = _assessed(claims, index)
    # A value its own passage gives differently, where the slot is clear, is corrected from the
    # passage and checked again: "port 11444" becomes the passage's "11434" (a small model changes values
    # it copies; the source's value is the one to keep).
    draft, corrected = _correct_values(draft, claims, assessments, index, question=str(state.get("question") or ""))
    if corrected:
        claims = _claims_of(draft, titles)
        assessments = _assessed(claims, index)
    # A sentence that joins a denied statement to a true one is cut in two, each checked on its
    # own: the false one goes as contradicted, the true one stays.
    draft, split = _split_denied_statements(draft, claims, assessments, index)
    # An aside set off by commas ("Ollama, a machine learning model, listens on port 11434") is a
    # statement of its own: the sentence's true predicate is not held back by it.
    draft, asides = _split_asides(draft, claims, assessments, index) if language == "en" else (draft, 0)
    # A Japanese sentence that wraps a source's sentence in words the source lacks (「これは、…0と1の
    # 重ね合わせの状態をとることができる特性を持つ。」) is said as the source says it, cited, and checked again.
    draft, restated = _restate_wrapped(draft, claims, assessments, index) if language == "ja" else (draft, 0)
    if split or asides or restated:
        claims = _claims_of(draft, titles)
        assessments = _assessed(claims, index)
    # A claim in another language than every source it could be read against is checked as its
    # translation into theirs (a Japanese question on English pages).
    await check_across_languages(claims, assessments, index, deps.model, language, new_errors)
    methods = ["none" if a.verdict == "citation_invalid" or a.reason == "no_sources" else "lexical" for a in assessments]
    # A sentence the judge already found supported in an earlier round, unchanged since, keeps
    # that verdict: asking again could only lose a supported fact to the judge's error rate.
    earlier = state.get("verification")
    _carry_over(claims, assessments, methods, earlier.claims if earlier is not None else [])
    # An uncertain claim was never decided by the cheap checks: "lexical" would claim it was.
    judged_by: dict[str, int] = {}
    open_reasons = [assessment.reason for assessment in assessments]  # the judge writes its own
    as_checked = claims_as_checked(claims, assessments)
    judge, quality = await _judge_measured(judge_for(deps.settings, deps.model), as_checked, assessments, language,
                                           deps, new_errors)
    if quality is None or quality.trusted:
        judged = await judge_uncertain(as_checked, assessments, methods, language, deps.model, deps.settings,
                                       new_errors, judge=judge, record=judged_by)
    else:
        judged = False  # a judge that measured no better than a guess decides nothing: "not checked"
    attributed = _attribute_uncited(claims, assessments, methods, open_reasons)
    verdicts = [_verdict(claim, a, m) for claim, a, m in zip(claims, assessments, methods)]
    for verdict in verdicts:
        if verdict.index in attributed:
            # Labels the program gave, not the model: the report cites them.
            verdict.cited_by_check = attributed[verdict.index]

    for line in capped_lines(deps.model, language):
        new_errors.append(RunError(node=NODE, kind=ProblemKind.JUDGE, message=line))
    summary = _summary(verdicts, loops, language_check, documents)
    summary.judge_complete = judged
    summary.corrected = corrected
    summary.judge = JudgeRecord.model_validate({**judge.describe(), **judged_by, "quality": quality})  # who decided what
    summary.not_checked = sum(1 for v in verdicts if not v.checked)
    # The ledger only grows: a follow-up round's redraft reads what came after this many.
    summary.documents_seen = len(documents)
    route, follow_ups, targets = await _next_round(state, deps, summary, claims, verdicts, draft, language,
                                                   has_sources=bool(index.sources), new_errors=new_errors)
    summary.loops = loops + 1 if route == "search" else loops  # a round asked for counts
    # The answer a person reads, built from the verdicts (workflow/answer.py). Built every round:
    # a budget may turn a "search" into the report, and nothing unchecked may reach it.
    question = str(state.get("question") or "")
    sub_questions = [sub.question for sub in state.get("plan") or []]
    topic = Topic.of([question, *sub_questions, *(q.text for q in plan_queries_flat(state.get("plan") or [])),
                      *(turn.question for turn in state.get("conversation") or [])], documents)
    assembly = assemble_answer(
        draft, claims, verdicts, valid=set(index.sources), language=language,
        titles=titles, program=PROGRAM_TEXT, topic=topic,
        sub_questions=sub_questions if len(sub_questions) > 1 else [], question=question,
        wrong_language=frozenset(t.strip() for t in language_check.not_rewritten),
        on_the_question=lambda asked: sentence_on_the_question(asked, ledger_mappings(d for d in documents
                                                                                       if d.status == "ok"),
                                                               within=question),
        page_sentence_before=lambda label, sentence, alone: next(
            (sentence_before_on_its_page(sentence, page, what_it_points_at=alone, named=True)
             for page in ledger_mappings(d for d in documents if d.status == "ok" and d.label == label)), None),
    )
    # The sources' words the answer quotes for lack of a checked sentence, also in its language.
    annotated = await quotes_in_the_answers_language(assembly.answer, language, deps.model)
    summary.removed = sum(1 for v in verdicts if v.removed)
    summary.left_out = assembly.removed
    summary.summary_lifted = assembly.lifted  # the Summary took a finding's sentence
    summary.not_given = assembly.not_given

    # verification.json keeps every follow-up query asked so far, not only this round's.
    verification = VerificationResult(
        claims=verdicts,
        summary=summary,
        follow_up_queries=[*(state.get("follow_up_queries") or []), *follow_ups],
        annotated_draft=annotated,
    )
    _save(state, deps, verification, language, new_errors)
    update: AgentState = {
        "verification": verification,
        "follow_up_queries": follow_ups,  # a reducer adds them to the earlier rounds'
        "supported_shares": [summary.supported_ratio],
        "redraft_targets": targets,
    }
    if route == "search":
        update["draft"] = draft  # the next round revises this text (language and values already fixed)
    if new_errors:
        update["errors"] = new_errors  # a reducer adds them
    return Command(goto=route, update=update)


async def _next_round(state: AgentState, deps: WorkflowDependencies, summary: VerificationSummary,
                      claims: list[Claim], verdicts: list[ClaimVerdict], draft: str, language: Language, *,
                      has_sources: bool, new_errors: list[RunError]) -> tuple[Literal["search", "report"],
                                                                            list[FollowUpQuery], list[str]]:
    """Whether to search again: (route, the follow-up queries, the sentences the redraft aims at).
    Another round only while too few claims are supported, loops are left, the last round
    helped, and a query can be aimed at a claim still open (``summary`` says why not)."""
    search_rounds = int(state.get("search_rounds") or 0)
    loops = max(0, search_rounds - 1)
    route: Literal["search", "report"] = "report"
    follow_ups: list[FollowUpQuery] = []
    targets: list[str] = []
    share = summary.supported_ratio
    earlier_shares = list(state.get("supported_shares") or [])
    wants_more = share < deps.settings.verification_pass_ratio
    # With no readable source there is nothing a claim could be checked against here; the
    # search node already reported it, and the report says plainly that evidence is missing.
    if wants_more and loops < deps.settings.max_verification_loops and has_sources:
        if earlier_shares and share < earlier_shares[-1] + MIN_LOOP_GAIN:
            # The last round found nothing that helped: another one would only cost calls.
            summary.loop_stopped = "no_gain"
            deps.history.append_event(state["session_id"], "loop_stopped", share=share, previous=earlier_shares[-1])
            deps.progress(Message("verifier.loop_no_gain"))
        else:
            # Decided before any model writes: a round of search, redraft and judging only for the
            # claims this round could not settle, and only when a query can be aimed at them.
            question = str(state.get("question") or "")
            open_claims = [v for v in verdicts if _unsettled(v) and _can_settle(v, question)]
            if not open_claims:
                summary.loop_stopped = "nothing_to_settle"
                deps.history.append_event(state["session_id"], "loop_stopped", share=share, reason="nothing_to_settle")
                deps.progress(Message("verifier.loop_nothing_to_settle"))
            else:
                follow_ups = [FollowUpQuery(text=query.text, language=query.language, round=search_rounds + 1)
                              for query in await _follow_up_queries(state, open_claims, language, deps, new_errors)]
            if follow_ups:
                route = "search"
                wanted = {v.index for v in open_claims}
                targets = [draft[c.start:c.end].strip() for c, v in zip(claims, verdicts) if v.index in wanted]
    return route, follow_ups, targets


_SUMMARY_TITLES = frozenset(REPORT_LABELS[lang]["summary"].lower() for lang in ("en", "ja"))


def _opening_into_the_summary(draft: str) -> str:
    """``draft`` with what it says before its first heading moved under that heading, where that one is the
    Summary's: the real 1.5B model opened "Yes, the GIL is gone in Python 3.14." above "## Summary", and the line
    became the answer's Summary while the model's own Summary was read as a finding titled "Summary" (the GIL
    question, the tenth session of 2026-11-30), whose true sentences then went as repeats or off the point."""
    lines = draft.split("\n")
    first = next((at for at, line in enumerate(lines) if MARKDOWN_HEADING.match(line)), None)
    if not first or not "".join(lines[:first]).strip():
        return draft
    title = MARKDOWN_HEADING.match(lines[first])
    if title is None or title.group(2).strip().strip("*").strip().lower() not in _SUMMARY_TITLES:
        return draft
    opening = "\n".join(lines[:first]).strip()
    rest = "\n".join(lines[first + 1:]).lstrip("\n")
    return f"{lines[first]}\n{opening}\n\n{rest}" if rest else f"{lines[first]}\n{opening}\n"


def _name_references(draft: str, titles: list[str]) -> tuple[str, int]:
    """``draft`` with each sentence that points back at the one before it in its paragraph
    ("this build") naming what it points at (``named_reference``); how many were changed."""
    claims = _claims_of(draft, titles)
    edits: list[tuple[Claim, str]] = []
    for before, claim in zip(claims, claims[1:]):
        if before.section != claim.section or "\n\n" in draft[before.end:claim.start]:
            continue
        named = named_reference(claim.text, before.plain)
        if named is not None:
            edits.append((claim, named))
    return _with_edits(draft, edits), len(edits)


def _assessed(claims: list[Claim], index: EvidenceIndex) -> list[Assessment]:
    """The cheap checks on each claim; a claim whose 同国/同社 stands for the name its section's
    heading gives is checked with that name in its place (``_said_of_its_heading``)."""
    out = []
    for position, claim in enumerate(claims):
        named = _said_of_its_heading(claim, claims[position - 1] if position else None)
        if named is None:
            out.append(assess_claim(claim, index))
        else:
            out.append(dataclasses.replace(assess_claim(named, index), checked_as=named.plain))
    return out


# 同国, 同社 … at a sentence's start stand for the thing named before; under a heading that is a name
# alone, with no sentence before them in the section, that name.
_SAME_AS_BEFORE_JA = re.compile(r"^同(?:国|社|氏|党|市|町|村|県|州|校|大学|島)(?=[はがのも、])")
_A_NAME_ALONE = re.compile(r"^[\u30a0-\u30ff\u3400-\u4dbf\u4e00-\u9fffA-Za-z0-9・ー\s]{1,20}$")


def _said_of_its_heading(claim: Claim, before: Claim | None) -> Claim | None:
    """(ja) 「同国は旧イギリス植民地であり、…」 first under the heading 「### ポルトガル」 says it of Portugal: the real
    1.5B model copied the page's sentence, whose 同国 is the page's ドミニカ国, under a heading of its own
    (JSQuAD, `research bench jsquad --seed 93`), and it was supported word for word. Checked as 「ポルトガルは旧
    イギリス植民地であり、…」. None where the claim does not open so, follows another in its section, or
    its heading is more than a name (「1. ラオスの歴史」)."""
    opening = _SAME_AS_BEFORE_JA.match(claim.plain.strip())
    if opening is None or (before is not None and before.section == claim.section):
        return None
    heading = re.sub(r"^\s*\d+[.)．、]\s*", "", claim.section).strip()
    if not heading or not _A_NAME_ALONE.match(heading) or re.search(r"[\u3040-\u309f]", heading):
        return None
    plain = heading + claim.plain.strip()[opening.end():]
    return dataclasses.replace(claim, plain=plain, text=claim.text.replace(opening.group(0), heading, 1))


def _claims_of(draft: str, titles: list[str]) -> list[Claim]:
    """The draft's sentences that are claims, numbered from 0: a page's title, the program's own
    prompt text or a template's slot written as a sentence is neither checked nor counted."""
    claims = [claim for claim in split_claims(draft)
              if not_a_claim_reason(claim.plain, claim.text, titles, PROGRAM_TEXT) not in NOT_CHECKED_AS_CLAIMS]
    for number, claim in enumerate(claims):
        claim.index = number
    return claims


def _attribute_uncited(claims: list[Claim], assessments: list[Assessment], methods: list[str],
                       open_reasons: list[str]) -> dict[int, list[str]]:
    """Uncited claims the judge found supported -> the sources it read for them, where those
    are few and hold most of the sentence's words (``open_reasons``: why the cheap checks left
    each claim open, before the judge); any other uncited "supported" from the judge goes back
    to uncertain (``assessments`` updated in place). An uncited claim no judge decided -> the
    one source the checks read it against, where that source holds its figures and most of its
    words (it stays "not checked")."""
    attributed: dict[int, list[str]] = {}
    for claim, assessment, method, reason in zip(claims, assessments, methods, open_reasons):
        if method != "model" and assessment.outcome == "uncertain" and not claim.citations \
                and assessment.evidence_label and assessment.score >= _ATTRIBUTION_COVERAGE \
                and reason not in ("number_missing", "negation") \
                and not name_terms(claim.plain) & set(assessment.missing):
            # No judge decided it, but one source holds every figure and most words of it: the
            # answer keeps it "not checked" under that source's label, where the reader can
            # check it, rather than losing it as untraceable (small models cite nothing). Not
            # where that source says it the other way round: "Yes, Python 3.14 has no GIL" (the
            # real 1.5B model's Japanese, checked as its translation) against "…still has the GIL
            # enabled by default" was kept under the page's label. Nor where it never names what
            # the sentence is about: 「ポルトガルの漢字表記は「梅雨」です」 was kept under the 梅雨 page's
            # label (JSQuAD, `research bench jsquad --sample 5 --seed 143`, the real 1.5B model).
            attributed[claim.index] = [assessment.evidence_label]
            continue
        if method == "model" and assessment.outcome == "supported" and not claim.citations:
            sources = list(dict.fromkeys(passage.label for passage in assessment.candidates))
            covered = assessment.score >= _ATTRIBUTION_COVERAGE or (
                reason == "partial_overlap" and assessment.score >= _ATTRIBUTION_COVERAGE_ALL_TERMS)
            if sources and len(sources) <= _ATTRIBUTION_SOURCES and covered:
                # The judge read passages of these sources only, and found support there: the
                # answer cites them, so the reader can trace the sentence (small models cite
                # nothing at all).
                attributed[claim.index] = sources
                continue
            # The judge found support, but the sentence cites nothing and the cheap checks found
            # few of its words in what the judge read: the reader cannot trace it, so it does
            # not count as supported.
            assessment.verdict, assessment.outcome, assessment.reason = "partly_supported", "uncertain", "uncited"
    return attributed


# --- 1. language fidelity ---------------------------------------------------------------------


async def _fix_language(
    draft: str, language: Language, deps: WorkflowDependencies, errors: list[RunError],
    documents: list[Document] | None = None,
) -> tuple[str, LanguageCheck]:
    """Rewrite every sentence not in ``language``, all in one structured call.

    A rewrite is used only when it is in the right language and keeps every citation
    label. Where the model gives none, the cited source's own sentence in ``language`` that
    holds the same figures takes its place; a sentence with neither stays as written, and the
    report says so.
    """
    sentences = check_sentences(draft, language)
    wrong = [s for s in sentences if s.wrong_language]
    check = LanguageCheck(target=language, threshold=WRONG_LANGUAGE_BELOW, sentences=len(sentences),
                          wrong_language=[s.text(draft) for s in wrong])
    if not wrong:
        return draft, check
    items = "\n".join(SENTENCE_ITEM[language].format(id=n, text=s.text(draft).strip()) for n, s in enumerate(wrong, 1))
    replies: dict[int, str] = {}
    reason = t("verifier.rewrite_no_reply", language)
    try:
        batch = await deps.model.structured(
            [{"role": "system", "content": REWRITE_SYSTEM[language]}, {"role": "user", "content": items}],
            SentenceRewrites, node=NODE, role=ModelRole.TRANSLATE, fallback=SentenceRewrites(),
        )
        replies = {item.id: item.text for item in batch.sentences}  # none from a reply of the wrong shape
    except UserFacingError:
        raise  # Ollama is gone: the run cannot go on, the CLI says why
    except Exception as exc:  # noqa: BLE001 - a transport hiccup costs the rewrite, not the run
        reason = str(exc)[:200]
    left: list[str] = []
    for number, sentence in reversed(list(enumerate(wrong, 1))):  # back to front: offsets stay valid
        original = sentence.text(draft)
        rewritten = _accept_rewrite(original, replies.get(number, ""), language)
        if rewritten is None:
            # The model could not say it in the asked language: the sentence its cited source
            # says it with, in that language, where there is one (checked like any other claim).
            rewritten = _restated_from_source(original, language, documents)
            if rewritten is not None:
                check.from_sources.insert(0, original.strip())
        if rewritten is None:
            left.append(original)
            continue
        draft = draft[: sentence.start] + rewritten + draft[sentence.end :]
        check.rewritten += 1
        if sentence.section not in check.rewritten_sections:
            check.rewritten_sections.insert(0, sentence.section)
    left.reverse()
    check.not_rewritten = left
    if check.from_sources:
        fields = {"count": len(check.from_sources)}
        errors.append(RunError(node=NODE, kind=ProblemKind.LANGUAGE,
                               message=t("verifier.language_from_sources", language, **fields)))
        deps.progress(Message("verifier.language_from_sources", fields))
    if left:
        examples = " / ".join(f"\"{text[:80]}\"" for text in left[:3])
        errors.append(RunError(node=NODE, kind=ProblemKind.LANGUAGE, message=t(
            "verifier.language_not_rewritten", language, count=len(left), reason=reason, examples=examples)))
        # Said as it happens too, not only in the closing lines and the report's notes.
        deps.progress(Message("verifier.language_not_rewritten", {"count": len(left), "reason": reason,
                                                                  "examples": examples}))
    return draft, check


def _restated_from_source(original: str, language: Language, documents: list[Document] | None) -> str | None:
    """The sentence of a source ``original`` cites that says, in ``language``, what it says:
    one that holds every figure of ``original`` (and at least one), with ``original``'s
    citations; None where no cited source has such a sentence. Figures are what two languages
    share as written; a sentence without any is never matched across languages."""
    labels = citation_labels(original)
    figures = [mention.values for mention in extract_numbers(strip_citations(original)) if not mention.worded]
    if not labels or not figures:
        return None
    names = name_terms(strip_citations(original))
    best: tuple[int, int, str] | None = None
    for document in documents or []:
        if document.label not in labels or document.status != "ok":
            continue
        sentences = (line[start:end] for line in document.markdown.splitlines()  # a heading is no sentence
                     if not line.lstrip().startswith(("#", "|")) for start, end in sentence_spans(line))
        for sentence in sentences:
            candidate = " ".join(sentence.split()).lstrip(">-*+ ").strip()
            if not candidate or len(candidate) > 400 or is_wrong_language(candidate, language)[0]:
                continue
            given = frozenset().union(*(mention.values for mention in extract_numbers(candidate)))
            if not all(values & given for values in figures):
                continue
            shared = len(names & name_terms(candidate))
            key = (-shared, len(candidate), candidate)
            if best is None or key < best:
                best = key
    if best is None:
        return None
    sentence = best[2]
    cited = "".join(f"[{label}]" for label in labels)
    stop = sentence[-1] if sentence[-1] in ".。!?！？" else ("。" if language == "ja" else ".")
    body = sentence[:-1] if sentence[-1] in ".。!?！？" else sentence
    return f"{body}{cited}{stop}" if language == "ja" else f"{body} {cited}{stop}"


def _accept_rewrite(original: str, reply: str, language: Language) -> str | None:
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


# --- 1b. claims in another language than their sources -------------------------------------------


async def check_across_languages(claims: list[Claim], assessments: list[Assessment], index: EvidenceIndex,
                                 model: Any, language: Language, errors: list[RunError]) -> int:
    """Each claim no source in its own language could be read for (``cross_language``: a Japanese
    answer on English pages) is translated into its sources' language by the model, and the
    translation is checked in its place (``assessments`` updated in place, ``Assessment.checked_as``
    naming it). Words cannot be compared across languages; a translation can, where it keeps every
    figure, Latin-letter name, denial and status word of the claim
    (modules/text/translation_check.py; a figure it gives otherwise is put back as the claim writes
    it, since figures are copied, not translated); one that does not leaves the claim "not checked", as a
    failed call does (said in the report's notes). One sentence a call: in a numbered batch the
    real 1.5B model gave one sentence's translation under another's number, which no guard can
    see. Returns how many claims were checked so."""
    wanted: dict[tuple[str, Language], list[int]] = {}  # (sentence, its sources' language) -> claims
    for position, assessment in enumerate(assessments):
        if assessment.reason == "cross_language":
            plain = claims[position].plain
            target: Language = "en" if detect_language(plain) == "ja" else "ja"
            wanted.setdefault((plain, target), []).append(position)
    if not wanted:
        return 0
    gate = asyncio.Semaphore(max(1, int(getattr(model, "parallel", 1) or 1)))
    replies = await asyncio.gather(*(_translated(model, sentence, target, gate) for sentence, target in wanted))
    checked = 0
    unfaithful_ones: list[str] = []
    failed: list[str] = []

    def as_in_its_language(positions: list[int]) -> list[int]:
        """An uncited claim with no usable translation is what the sources of its own language make
        of it (unrelated to all of them: unsupported), as before a translation was tried; the
        positions of the claims left "not checked"."""
        left = []
        for position in positions:
            own = assess_in_its_language(claims[position], index)
            if own is not None and own.outcome == "unsupported":
                assessments[position] = own
            else:
                left.append(position)
        return left

    for ((sentence, target), positions), reply in zip(wanted.items(), replies):
        if not isinstance(reply, str):
            if as_in_its_language(positions):
                failed.append(str(reply)[:200] if reply is not None else t("verifier.rewrite_no_reply", language))
            continue
        if unfaithful(sentence, reply, target) == "figures":
            # A figure is copied, not translated: the claim's own is put back (translation_check).
            restored = with_figures_of(sentence, reply)
            reply = restored if restored is not None else reply
        if unfaithful(sentence, reply, target) is not None:
            if as_in_its_language(positions):
                unfaithful_ones.append(sentence)
            continue
        for position in positions:
            as_translated = dataclasses.replace(claims[position], plain=reply, text=reply)
            # Uncited, it is read against the sources of the language it was put into only.
            assessment = assess_in_its_language(as_translated, index) or assess_claim(as_translated, index)
            if assessment.reason == "cross_language":
                as_in_its_language([position])
                continue
            assessment.checked_as = reply
            assessments[position] = assessment
            checked += 1
    if failed:
        errors.append(RunError(node=NODE, kind=ProblemKind.JUDGE, message=t(
            "verifier.cross_language_not_translated", language, count=len(failed), reason=failed[0])))
    if unfaithful_ones:
        errors.append(RunError(node=NODE, kind=ProblemKind.JUDGE, message=t(
            "verifier.cross_language_unfaithful", language, count=len(unfaithful_ones),
            example=unfaithful_ones[0][:80])))
    return checked


async def _translated(model: Any, sentence: str, target: Language, gate: asyncio.Semaphore) -> str | BaseException | None:
    """``sentence`` put into ``target`` by the model, one sentence a call (the program's translation
    prompt), citations out; the exception of a failed call, or None for a reply without it."""
    messages = [{"role": "system", "content": REWRITE_SYSTEM[target]},
                {"role": "user", "content": SENTENCE_ITEM[target].format(id=1, text=sentence)}]
    async with gate:
        try:
            batch = await model.structured(messages, SentenceRewrites, node=NODE, role=ModelRole.TRANSLATE,
                                           fallback=None)
        except UserFacingError:
            raise  # Ollama is gone: the run cannot go on, the CLI says why
        except Exception as exc:  # noqa: BLE001 - a transport hiccup costs this sentence its translation, not the run
            return exc
    reply = next((item.text for item in batch.sentences if item.id == 1), None) if batch is not None else None
    return " ".join(strip_citations(reply).split()) if reply is not None else None


_QUOTE = re.compile(r"«([^«»\n]+)»")


async def quotes_in_the_answers_language(answer: str, language: Language, model: Any) -> str:
    """Each source's words the answer quotes in another language than its own («…», where no checked
    sentence of the draft could lead the Summary: the real 1.5B model's Japanese GIL answer led
    with «The standard build of Python 3.14 still has the GIL enabled by default.»), followed by
    their translation into the answer's language, where that keeps every figure, name, denial and
    status word of the quote (translation_check.unfaithful). The quote stays: it is what was
    checked, and the reader can check the translation against it. A translation refused or not
    given leaves the quote alone."""
    quotes = list(dict.fromkeys(m.group(1) for m in _QUOTE.finditer(answer)
                                if detect_language(m.group(1)) != language))
    if not quotes:
        return answer
    gate = asyncio.Semaphore(max(1, int(getattr(model, "parallel", 1) or 1)))
    replies = await asyncio.gather(*(_translated(model, quote, language, gate) for quote in quotes))
    for quote, reply in zip(quotes, replies):
        if isinstance(reply, str) and "«" not in reply and "»" not in reply \
                and unfaithful(quote, reply, language) is None:
            answer = answer.replace(f"«{quote}»", t("answer.quote_translated", language, quote=f"«{quote}»",
                                                    translation=reply))
    return answer


def claims_as_checked(claims: list[Claim], assessments: list[Assessment]) -> list[Claim]:
    """The claims as the checks read them, for the judge: a translated claim in its passages' language."""
    return [dataclasses.replace(c, plain=a.checked_as) if a.checked_as else c for c, a in zip(claims, assessments)]


# --- 4. the model as judge for borderline claims ---------------------------------------------------


async def measured_quality(judge: Judge, model: Any, settings: Settings, *, again: bool = False) -> JudgeQuality:
    """The judge's measured quality (workflow/judge_quality.py), measured through this step's own
    judging (``judge_uncertain``) when no figure is kept, or ``again``."""
    return await quality_for(judge, model, settings, judge_uncertain, again=again)


async def usable_judge(judge: Judge, model: Any, settings: Settings, *, again: bool = False,
                       measuring: Callable[[Judge], None] | None = None,
                       choice_wanted: bool = True) -> tuple[Judge, JudgeQuality]:
    """The judge as it will be asked, with its measured quality: what a run, `research verify`
    and `research doctor` ask. The drafting model is measured with the batched verdict prompt
    first (one call for many claims); when that is not trusted and RESEARCH_JUDGE_CHOICE is on
    (the default), with the choice protocol (modules/llm/judge.py: two calls a claim, a task a
    small model can do), and the one that measured trusted is used; when neither is, the better
    of the two is returned, untrusted. ``choice_wanted``: False where no claim is one the choice
    would be asked (``_choice_can_decide``): its measurement, minutes on a laptop, waits for one.
    ``measuring(judge)`` is called before a measurement that no kept figure spares."""
    async def measured(asked: Judge) -> JudgeQuality:
        if measuring is not None and (again or kept_quality(asked, settings, model) is None):
            measuring(asked)
        return await measured_quality(asked, model, settings, again=again)

    quality = await measured(judge)
    if quality.trusted or judge.protocol != "prompt" or not settings.judge_choice:
        return judge, quality
    chooser = dataclasses.replace(judge, protocol="choice")
    if not choice_wanted and (again or kept_quality(chooser, settings, model) is None):
        # Not worth measuring now; a figure kept from an earlier round or run still says which
        # judge this is (else a second round would report "decided nothing" after the first chose).
        return judge, quality
    chosen = await measured(chooser)
    if chosen.trusted or chosen.balanced_accuracy > quality.balanced_accuracy:
        return chooser, chosen
    return judge, quality


async def _judge_measured(judge: Judge, claims: list[Claim], assessments: list[Assessment], language: Language,
                          deps: WorkflowDependencies, errors: list[RunError]) -> tuple[Judge, JudgeQuality | None]:
    """The judge a run uses and its measured quality when a run measures its judge
    (``deps.measure_judge``) and something is left to judge; an untrusted judge is said as it
    happens and in the report."""
    if not deps.measure_judge or judge.protocol != "prompt" \
            or not any(a.outcome == "uncertain" and a.candidates for a in assessments):
        return judge, None  # a fact-checking model is measured by its authors (README); doctor measures it too

    def measuring(asked: Judge) -> None:
        # Once per model, protocol and host: with a small model on a busy laptop this takes
        # minutes, and "Checking every claim…" alone would look like a hang.
        deps.progress(Message("judge.measuring", {"model": asked.model, "items": len(CHECK_SET)}))

    wanted = any(a.outcome == "uncertain" and a.candidates and _choice_can_decide(claim.plain, a)
                 for claim, a in zip(claims, assessments))
    judge, quality = await usable_judge(judge, deps.model, deps.settings, measuring=measuring, choice_wanted=wanted)
    if not quality.trusted:
        fields = {"model": judge.model, "accuracy": f"{quality.balanced_accuracy:.0%}",
                  "threshold": f"{quality.threshold:.0%}", "items": quality.items}
        errors.append(RunError(node=NODE, kind=ProblemKind.JUDGE, message=t("judge.untrusted", language, **fields)))
        deps.progress(Message("judge.untrusted", fields))
    return judge, quality


async def judge_uncertain(
    claims: list[Claim],
    assessments: list[Assessment],
    methods: list[str],
    language: Language,
    model: Any,
    settings: Settings,
    errors: list[RunError],
    judge: Judge | None = None,
    record: dict[str, Any] | None = None,
    confirm: bool = True,
) -> bool:
    """The judge decides every uncertain claim; updates ``assessments`` in place.

    ``judge`` (default: the one the settings choose, modules/llm/judge.py) says who: English
    sentences go to a grounded checker one sentence per call, everything else to the
    drafting model with the judge prompt. A reply the judge cannot give in its own words
    (no Yes/No, the wrong JSON twice) leaves the claim uncertain and "not checked", never
    silently supported. ``record`` (optional) receives how many claims each judge took.
    ``confirm``: the prompt judge's "supported" counts only where the passage sentences it names
    hold the claim's names and figures and do not deny it (off only to measure the model's own
    replies, workflow/judge_quality.py). Returns False when some uncertain claim could not be judged.
    """
    judge = judge or judge_for(settings, model)
    if judge.missing:
        errors.append(RunError(node=NODE, kind=ProblemKind.JUDGE, message=t(
            "judge.missing", language, model=judge.missing, drafting=judge.model)))
    to_checker: list[int] = []
    to_prompt: list[int] = []
    to_choice: list[int] = []
    for claim, assessment in zip(claims, assessments):
        if assessment.outcome != "uncertain" or not assessment.candidates:
            continue
        passages = [p.text for p in assessment.candidates]
        protocol = judge.protocol_for(claim.plain, passages)
        (to_prompt if protocol == "prompt" else to_choice if protocol == "choice" else to_checker).append(claim.index)
    if record is not None:
        # The choice protocol is the drafting model judging too: counted with the prompt judge's claims.
        record.update(checker=len(to_checker), prompt=len(to_prompt) + len(to_choice))
    complete = True
    if to_choice:
        complete = await _judge_by_choice(to_choice, claims, assessments, methods, language, model, judge, settings,
                                          errors, confirm=confirm)
    if to_checker:
        complete = await _judge_by_checker(to_checker, claims, assessments, methods, language, model, judge, errors,
                                           limit=settings.judge_concurrency)
    if to_prompt:
        # Calls at once: as many as the server serves side by side (OLLAMA_NUM_PARALLEL where
        # configured), never more than the judge's own limit; a server with one slot gets one call.
        parallel = min(settings.judge_concurrency, int(model.parallel or 1))
        complete = await _judge_by_prompt(to_prompt, claims, assessments, methods, language, model, settings.num_ctx,
                                          errors, parallel=parallel, confirm=confirm) and complete
    return complete


# A Yes from the checker: its published balanced accuracy on LLM-AggreFact's RAGTruth part.
_CHECKER_CONFIDENCE = 0.84


async def _judge_by_checker(positions: list[int], claims: list[Claim], assessments: list[Assessment],
                            methods: list[str], language: Language, model: Any, judge: Judge,
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
        _decided(assessments[position], result.verdict, _CHECKER_CONFIDENCE)
        methods[position] = "model"
    return _said_what_failed(errors, "judge.unreadable", language, judge, unreadable, failed)


def _decided(assessment: Assessment, verdict: str, confidence: float) -> None:
    """A judge's decision written into the claim's assessment."""
    assessment.verdict = assessment.outcome = verdict
    assessment.borderline = False
    assessment.confidence = confidence
    assessment.reason = "judge"


def _said_what_failed(errors: list[RunError], unreadable_key: str, language: Language, judge: Judge,
                      unreadable: list[str], failed: list[str]) -> bool:
    """The notes for replies the judge gave that could not be read and calls that failed; True
    when there were none."""
    if unreadable:
        errors.append(RunError(node=NODE, kind=ProblemKind.JUDGE, message=t(
            unreadable_key, language, model=judge.model, count=len(unreadable), reply=unreadable[0][:40])))
    if failed:
        errors.append(RunError(node=NODE, kind=ProblemKind.JUDGE, message=t(
            "judge.call_failed", language, model=judge.model, count=len(failed), reason=failed[0])))
    return not unreadable and not failed


async def _judge_by_choice(positions: list[int], claims: list[Claim], assessments: list[Assessment],
                           methods: list[str], language: Language, model: Any, judge: Judge, settings: Settings,
                           errors: list[RunError], *, confirm: bool = True) -> bool:
    """The drafting model choosing between each claim and its negation (modules/llm/judge.py,
    the choice protocol), one claim at a time against its passages. Two different choices
    leave the claim uncertain: that is the protocol saying the model does not know, not a
    failure. ``confirm``: only claims whose choice would count are asked
    (``_choice_can_decide``; off only to measure the model's own choices)."""
    by_index = {claim.index: claim for claim in claims}
    if confirm:  # a claim whose choice could only be discarded or wrong is not asked
        positions = [p for p in positions if _choice_can_decide(by_index[p].plain, assessments[p])]
    items = [(by_index[p].plain, [_shown_text(c.text) for c in assessments[p].candidates]) for p in positions]
    if not items:
        return True
    parallel = min(settings.judge_concurrency, int(model.parallel or 1))
    results = await choose_claims(model, judge, items, language=language, node="judge", limit=parallel,
                                  num_ctx=min(settings.num_ctx, CHECKER_NUM_CTX))
    unreadable: list[str] = []
    failed: list[str] = []
    for position, result in zip(positions, results):
        if result.error:
            failed.append(result.error)
            continue
        if result.verdict == "uncertain":
            if "?" in result.reply:
                unreadable.append(result.reply)
            continue
        if result.verdict == "supported" and _choice_only_confirms(assessments[position]):
            continue
        _decided(assessments[position], result.verdict, _PROMPT_JUDGE_CONFIDENCE)
        methods[position] = "model"
    return _said_what_failed(errors, "judge.unreadable_choice", language, judge, unreadable, failed)


def _choice_only_confirms(assessment: Assessment) -> bool:
    """Where the checks found a difference the 1.5B model does not weigh, its choice can only confirm
    it (unsupported), never make the claim supported: the claim's polarity other than its passage's
    (it chose "Yes, Python 3.14 has no GIL" over its negation, twice, against "…still has the GIL
    enabled by default": the issue's headline again, English and Japanese), and a figure of the
    claim found in the passage but not in the slot the claim gives it (it chose "Python got
    free-threading in 2023, with Python 3.13, released in October 2024, …", where 2023 is the
    year PEP 703 was accepted: bench_answers.py --ollama). A small model does not compare numbers."""
    return assessment.reason == "negation" or (assessment.reason == "number_missing" and assessment.bound_value is not None)


def _choice_can_decide(claim: str, assessment: Assessment) -> bool:
    """The choice is asked only where its "supported" would count: the checks' doubt is one the
    model can settle by choosing (``_CHOICE_DOUBTS``), they found ``_CHOICE_COVERAGE`` of the claim's words in
    its passages, and every figure of the claim is there (a small model does not compare
    numbers). Denials and other statuses were looked for before any judge (modules/text/polarity.py). Never a
    sentence that opens with a yes or a no: the answer the reader takes away, which the 1.5B model would make
    supported by picking it over "It is not true that yes, …" («Yes, implant retention can be recommended for
    treating infected TKA», PubMedQA 21080127, gold maybe, `research bench pubmedqa --seed 134`)."""
    if assessment.reason not in _CHOICE_DOUBTS or assessment.score < _CHOICE_COVERAGE or answer_word(claim):
        return False
    figures = NumberSet.of(" ".join(_shown_text(c.text) for c in assessment.candidates))
    return all(figures.contains(mention) for mention in extract_numbers(claim))


async def _judge_by_prompt(positions: list[int], claims: list[Claim], assessments: list[Assessment],
                           methods: list[str], language: Language, model: Any, num_ctx: int,
                           errors: list[RunError], *, parallel: int = 1, confirm: bool = True) -> bool:
    """The drafting model with the judge prompt, in as few calls as fit num_ctx.

    Every passage these claims are checked against is shown once, numbered in one order for
    the run, and each claim names the passages it is judged against: claims that share a
    passage share a call, and every call of a run starts with the same text (the system
    prompt, then the passages), so a server's prompt cache reads it once. The model writes a
    verdict per claim and nothing else, its reply capped to that. ``parallel``: calls at
    once (the server's slots); with more than one, the claims are spread over that many calls.

    A reply of the wrong shape is retried by the model manager and then counts as a
    failure: the claims it should have decided stay uncertain and are marked "not
    checked", never silently "no verdicts"."""
    system = JUDGE_SYSTEM[language]
    budget = max(1024, num_ctx - 2048) - estimate_tokens(system)
    by_index = {claim.index: claim for claim in claims}
    shown = _numbered_passages(positions, assessments)
    number_of = {key: number for number, key in enumerate(shown, 1)}
    cited = {position: sorted({number_of[(p.label, p.text)] for p in assessments[position].candidates})
             for position in positions}
    passage_cost = {number: estimate_tokens(text) + 8 for number, (_, text) in enumerate(shown, 1)}
    claim_cost = {position: estimate_tokens(by_index[position].plain) + 8 + JUDGE_TOKENS_PER_CLAIM
                  for position in positions}
    batches = _judge_batches(positions, cited, passage_cost, claim_cost, budget, parallel)
    gate = asyncio.Semaphore(max(1, parallel))

    async def ask(passages: list[int], group: list[int]) -> Any:
        block = "\n".join(JUDGE_PASSAGE[language].format(number=n, sentence=k, label=shown[n - 1][0], text=sentence)
                          for n in passages for k, sentence in enumerate(_shown_sentences(shown[n - 1][1]), 1))
        lines = "\n".join(JUDGE_CLAIM[language].format(
            id=number, passages=", ".join(f"P{n}" for n in cited[position]), claim=by_index[position].plain)
            for number, position in enumerate(group, 1))
        messages = [{"role": "system", "content": system},
                    {"role": "user", "content": JUDGE_PASSAGES[language].format(passages=block) + "\n\n"
                     + JUDGE_CLAIMS[language].format(claims=lines)}]
        async with gate:
            try:
                return await model.structured(messages, JudgeBatch, node=NODE, role=ModelRole.JUDGE, fallback=None,
                                              max_tokens=JUDGE_TOKENS_PER_CLAIM * len(group) + JUDGE_TOKENS_FRAME)
            except UserFacingError:
                raise
            except Exception as exc:  # noqa: BLE001 - a failed judge costs the verdicts, not the run
                return exc

    replies = await asyncio.gather(*(ask(passages, group) for passages, group in batches))
    complete = True
    for (_, group), batch in zip(batches, replies):
        if isinstance(batch, Exception):
            errors.append(RunError(node=NODE, kind=ProblemKind.UNJUDGED, message=t(
                "verification.judge_failed", language, reason=str(batch)[:200])))
            complete = False
            continue
        if not isinstance(batch, JudgeBatch) or not batch.verdicts:
            # The wrong shape twice, or an empty list for claims we asked about: not a verdict.
            errors.append(RunError(node=NODE, kind=ProblemKind.UNJUDGED, message=t(
                "verification.judge_failed", language, reason="no usable verdicts")))
            complete = False
            continue
        ids = dict(enumerate(group, 1))  # id shown to the model -> claim index
        seen: set[int] = set()
        for judged in batch.verdicts:
            position = ids.get(judged.id)
            if position is None or position in seen:
                continue  # an id we did not ask about, or a second answer for one we did
            seen.add(position)
            assessment = assessments[position]
            verdict: str = judged.verdict
            if confirm and verdict == "supported":
                named = _named_sentences(judged.sentences, cited[position], shown)
                context = " ".join(_shown_text(shown[n - 1][1]) for n in cited[position])
                confirmed = confirmed_verdict(by_index[position].plain, named, context, language)
                if confirmed is None:
                    continue  # no sentence it named says the claim's names and figures: not checked
                verdict = confirmed
            assessment.verdict = verdict
            assessment.outcome = {"supported": "supported", "unsupported": "unsupported"}.get(verdict, "uncertain")
            assessment.borderline = False
            assessment.confidence = _PROMPT_JUDGE_CONFIDENCE
            assessment.reason = "judge"
            # The evidence shown stays the passage the cheap checks found closest: the source's
            # own words from the program's copy, never a quote the model wrote.
            methods[position] = "model"
        if len(seen) < len(ids):
            complete = False
    return complete


def _judge_batches(positions: list[int], cited: dict[int, list[int]], passage_cost: dict[int, int],
                   claim_cost: dict[int, int], budget: int, parallel: int) -> list[tuple[list[int], list[int]]]:
    """The judge's calls: (the passages shown, the claims asked) each, within ``budget`` tokens.
    All passages and the claims spread over ``parallel`` calls when everything fits; else the
    claims that read the same passages together, a call cut when the next would overflow."""
    every = list(range(1, len(passage_cost) + 1))
    batches: list[tuple[list[int], list[int]]] = []
    if sum(passage_cost.values()) + sum(claim_cost.values()) <= budget:
        batches = [(every, group) for group in _spread(positions, parallel)]  # the draft's order
    else:
        # Claims that read the same passages stand together, so a batch cut for size shows fewer.
        order = sorted(positions, key=lambda position: (cited[position][:1], position))
        group: list[int] = []
        needed: set[int] = set()
        used = 0
        for position in order:
            extra = sum(passage_cost[n] for n in cited[position] if n not in needed)
            if group and used + extra + claim_cost[position] > budget:
                batches.append((sorted(needed), group))
                group, needed, used = [], set(), 0
                extra = sum(passage_cost[n] for n in cited[position])
            group.append(position)
            needed |= set(cited[position])
            used += extra + claim_cost[position]
        if group:
            batches.append((sorted(needed), group))
    return batches


# The prompt judge states no confidence of its own: below the checker's published accuracy,
# since a drafting model judging its own sentences errs more.
_PROMPT_JUDGE_CONFIDENCE = 0.7


def _numbered_passages(positions: list[int], assessments: list[Assessment]) -> list[tuple[str, str]]:
    """Each passage the claims are checked against, once, in one order: by source label,
    then text, so every call and every round of a run shows the same passages alike."""
    unique = {(p.label, p.text) for position in positions for p in assessments[position].candidates}
    return sorted(unique, key=lambda key: (_label_number(key[0]), key[0], key[1]))


def _shown_text(text: str) -> str:
    return " ".join(truncate_to_tokens(text, _PASSAGE_TOKENS).split())


def _shown_sentences(text: str) -> list[str]:
    """A passage as the judge sees it, one numbered line per sentence."""
    shown = _shown_text(text)
    return [shown[start:end].strip() for start, end in sentence_spans(shown) if shown[start:end].strip()] or [shown]


_SENTENCE_ID = re.compile(r"P(\d+)\.(\d+)")


def _named_sentences(ids: list[str], passages: list[int], shown: list[tuple[str, str]]) -> list[str]:
    """The sentences a verdict names that exist among the passages its claim was shown."""
    out = []
    for raw in ids:
        match = _SENTENCE_ID.fullmatch(raw.strip().strip("[]"))
        if match is None or int(match.group(1)) not in passages:
            continue
        sentences = _shown_sentences(shown[int(match.group(1)) - 1][1])
        number = int(match.group(2))
        if 1 <= number <= len(sentences) and sentences[number - 1] not in out:
            out.append(sentences[number - 1])
    return out


def confirmed_verdict(claim: str, named: list[str], context: str, language: Language) -> str | None:
    """What a judge's "supported" is worth once the claim is compared with the sentences it named:
    "unsupported" where they deny the claim or give it another status (``polarity``); "supported"
    where they give every figure of the claim and the passages shown hold every name of it (a
    subject may be named a sentence earlier); else None: not checked (a small model's "supported"
    for a sentence that says something else, or for no sentence at all)."""
    if not named:
        return None
    said = " ".join(named)
    if detect_language(claim) == detect_language(said):
        # Words compare within one language only; across languages the judge compared meanings
        # and the figures below are what the program can still hold it to.
        if clause_conflict(claim, said, language) is not None:
            return "unsupported"
        wanted = {term.text for term in terms(claim) if term.key}
        if wanted - {term.text for term in terms(f"{said} {context}")}:
            return None
    figures = NumberSet.of(said)
    if any(not figures.contains(mention) for mention in extract_numbers(claim)):
        return None
    return "supported"


def _label_number(label: str) -> int:
    digits = re.sub(r"\D", "", label)
    return int(digits) if digits else 0


def _spread(items: list[int], parts: int) -> list[list[int]]:
    """``items`` in at most ``parts`` consecutive groups of nearly equal size."""
    parts = max(1, min(parts, len(items)))
    size, extra = divmod(len(items), parts)
    groups, start = [], 0
    for number in range(parts):
        end = start + size + (1 if number < extra else 0)
        groups.append(items[start:end])
        start = end
    return [group for group in groups if group]


def _verdict(claim: Claim, assessment: Assessment, method: str) -> ClaimVerdict:
    return ClaimVerdict(
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
        score=assessment.score,
        borderline=assessment.borderline,
        reason=assessment.reason or None,  # type: ignore[arg-type]
        outcome=assessment.outcome,  # type: ignore[arg-type]
        # Uncertain and no judge decided it: the report says "not checked", not "unsupported".
        checked=assessment.outcome != "uncertain" or method == "model",
        missing=assessment.missing,
        read=_read_digest(assessment),
        checked_as=assessment.checked_as,
    )


def _read_digest(assessment: Assessment) -> str:
    """Which passages the claim was checked against, in a few characters: a later round that
    shows the judge the same passages for the same sentence would only ask it the same thing."""
    passages = sorted(f"{p.label}\0{p.text}" for p in assessment.candidates)
    return hashlib.sha1("\n".join(passages).encode("utf-8")).hexdigest()[:12] if passages else ""


# --- 3b. values corrected from their passage -----------------------------------------------------


def _correct_values(draft: str, claims: list[Claim], assessments: list[Assessment],
                    index: EvidenceIndex, question: str = "") -> tuple[str, list[ValueCorrection]]:
    """``draft`` with each contradicted value replaced by the one its passage gives for the same
    slot, where the cheap checks name both and the corrected sentence is then supported; the
    list of corrections made (sentence, corrected sentence, value, passage's value). A value the
    ``question`` itself asks about is not corrected: "Does Ollama listen on port 8080 by default?"
    answered "Yes, Ollama listens on port 8080 by default" became "Yes, … port 11434 …", a yes
    to the question the sources deny (the real 1.5B model at 8fad382); left contradicted, the
    answer says what the sources say instead (workflow/answer.py)."""
    edits: list[tuple[Claim, str, ValueCorrection]] = []
    for claim, assessment in zip(claims, assessments):
        wrong, right = assessment.bound_value, assessment.passage_value
        if assessment.outcome == "uncertain" and assessment.reason == "missing_term":
            # One name or identifier exchanged in a sentence that is otherwise the passage's
            # ("passes a process_id" / "passes a thread_id"): the passage's term, checked again.
            passages = [p.text for p in assessment.candidates]
            wrong, right = exchanged_term(claim.plain, assessment.missing, passages)
            if wrong is None:
                wrong, right = respelt_name(claim.plain, assessment.missing, passages)
            if wrong is None:
                wrong, right = kind_restored(claim.plain, assessment.missing, passages)
        elif assessment.outcome != "unsupported":
            continue
        if not wrong or not right or wrong == right:
            continue
        if claim.text.count(wrong) != 1:
            continue  # the slot is not clear in the sentence itself
        if re.search(rf"(?<![\w.]){re.escape(wrong)}(?![\w])", question):
            continue  # the question's own premise: the sources deny it, and the answer must say so
        fixed = claim.text.replace(wrong, right, 1)
        again = Claim(index=claim.index, text=fixed, plain=claim.plain.replace(wrong, right, 1), section=claim.section,
                      citations=list(claim.citations), start=claim.start, end=claim.start + len(fixed),
                      paragraph_citations=list(claim.paragraph_citations))
        if assess_claim(again, index).outcome != "supported":
            continue
        edits.append((claim, fixed, ValueCorrection(text=claim.plain, corrected=again.plain, value=wrong,
                                                    source_value=right, label=assessment.evidence_label or "")))
    return _with_edits(draft, [(claim, fixed) for claim, fixed, _ in edits]), [record for _, _, record in edits]


# A sentence's citations at its end ("… cores [S1][S2]."), kept for each statement it is cut into.
_TRAILING_CITATIONS = re.compile(rf"(?P<cites>(?:\s*(?:{CITATION_GROUP.pattern}))+)\s*[.!?]?\s*$")


def _split_denied_statements(draft: str, claims: list[Claim], assessments: list[Assessment],
                             index: EvidenceIndex) -> tuple[str, int]:
    """``draft`` with each sentence that joins statements ("The free-threaded build of Python 3.14
    is the default build, and it has the GIL disabled [S1].") cut into them, each with the
    sentence's citations, where the checks deny one of them (a status said the other way) and
    support another on its own: the denied statement is then contradicted by itself and the
    true one kept, where the whole sentence would otherwise be taken out (issue 44, the real
    1.5B model's GIL answer). The number of sentences cut."""
    edits: list[tuple[Claim, str]] = []
    for claim, assessment in zip(claims, assessments):
        if assessment.outcome != "unsupported" or assessment.reason not in ("negation", "status"):
            continue
        statements = conjoined_statements(claim.plain)
        cites = _trailing_cites(claim)
        if not statements or cites is None:
            continue
        parts = [f"{st[0].upper()}{st[1:].rstrip(' .!?')}{cites}." for st in statements]
        outcomes = [assess_claim(Claim(index=claim.index, text=part, plain=st, section=claim.section,
                                       citations=list(claim.citations)), index).outcome
                    for part, st in zip(parts, statements)]
        if "supported" in outcomes and "unsupported" in outcomes:
            edits.append((claim, " ".join(parts)))
    return _with_edits(draft, edits), len(edits)


def _trailing_cites(claim: Claim) -> str | None:
    """The citations a sentence ends with, as one " [S1][S2]" to give each part cut from it ("" for
    none); None where a citation stands inside it, so which part it belongs to is not known."""
    cited = len(CITATION_GROUP.findall(claim.text))
    if not cited:
        return ""
    trailing = _TRAILING_CITATIONS.search(claim.text)
    if trailing is None or cited != len(CITATION_GROUP.findall(trailing.group("cites"))):
        return None
    return " " + trailing.group("cites").strip()


def _with_edits(draft: str, edits: list[tuple[Claim, str]]) -> str:
    """``draft`` with each claim's sentence replaced, back to front so the offsets stay valid."""
    for claim, fixed in sorted(edits, key=lambda edit: edit[0].start, reverse=True):
        draft = draft[:claim.start] + fixed + draft[claim.end:]
    return draft


# "<Subject>, <a/an/the …>, <predicate>": an appositive aside between the subject and its verb.
_ASIDE = re.compile(r"^(?P<subject>[A-Z][^,;:()]{0,60}?),\s+(?P<aside>(?:a|an|the)\s[^,;:()]{2,80}?),\s+"
                    r"(?P<rest>[a-z][^;:]*?)\s*[.!?]?\s*$")
# A subject is a name or a noun phrase, not a time or a linking word that opens the sentence.
_NOT_A_SUBJECT = frozenset("in on at by for from after before during however also today since when while if "
                           "although because as with without under over according then thus so yet still "
                           "there here it this that these those".split())


def _split_asides(draft: str, claims: list[Claim], assessments: list[Assessment],
                  index: EvidenceIndex) -> tuple[str, int]:
    """``draft`` with each English sentence that sets an aside between its subject and its verb
    ("Ollama, a machine learning model, listens on port 11434 of the local machine [S1].", the
    real 1.5B model) cut into its statement and the aside said of the subject ("Ollama listens on
    port 11434 of the local machine [S1]. Ollama is a machine learning model [S1]."), each with the
    sentence's citations, where the checks did not support the whole and support the statement
    alone: the aside, which its source does not give, is then marked by itself, and the true
    statement is not. The number of sentences cut."""
    edits: list[tuple[Claim, str]] = []
    for claim, assessment in zip(claims, assessments):
        if assessment.outcome == "supported":
            continue
        cites = _trailing_cites(claim)
        match = _ASIDE.match(claim.plain.strip())
        if cites is None or match is None or match.group("subject").split()[0].lower() in _NOT_A_SUBJECT \
                or len(match.group("subject").split()) > 6:
            continue
        subject, aside, rest = match.group("subject"), match.group("aside"), match.group("rest")
        statement, said = f"{subject} {rest}", f"{subject} is {aside}"
        alone = assess_claim(Claim(index=claim.index, text=f"{statement}{cites}.", plain=f"{statement}.",
                                   section=claim.section, citations=list(claim.citations)), index)
        if alone.outcome == "supported":
            edits.append((claim, f"{statement}{cites}. {said}{cites}."))
    return _with_edits(draft, edits), len(edits)


_SAID_OF_TOPIC_CHARS = 8  # what a source sentence says of its topic, at least this long to be looked for
_POINTING_JA = re.compile(r"^(?:これ|それ|この|その)")
# What denies the words just before it: 「…できる|わけではない」, 「…できる|ことはない」.
_DENIED_AFTER_JA = re.compile(r"^(?:わけ|もの|こと|の|ん)?(?:では|じゃ|で|は)?(?:ない|なかった|ありません|ません)")


def _restate_wrapped(draft: str, claims: list[Claim], assessments: list[Assessment],
                     index: EvidenceIndex) -> tuple[str, int]:
    """``draft`` with each Japanese sentence the checks did not support that holds word for word
    what a source sentence says of its topic, inside words the source lacks, replaced by that
    source sentence, cited: the real 1.5B model wrote 「これは、古典的なビットと異なり、0と1の重ね合わせの
    状態をとることができる特性を持つ。」 citing nothing, 61% of its words on the page, and the answer
    lost its one fact as uncited (bench_answers.py --ollama, 2026-11-30). The topic must be the
    sentence's own, or the one before it must name it where the sentence points back (これは…);
    a sentence that denies or otherwise changes what the source says (``clause_conflict``) is left
    as it is. The number of sentences restated."""
    if all(a.outcome == "supported" for a in assessments):
        return draft, 0
    # Each source sentence with its topic and what it says of it: 「量子ビットは|0と1の重ね合わせの…できる。」
    stated = [(label, sentence, match.group("topic").strip(), "".join(sentence[match.end():].rstrip("。").split()))
              for label, source in index.sources.items() for passage in source.passages
              for sentence in split_sentences(passage.text) if (match := TOPIC_JA.match(sentence)) is not None]
    edits: list[tuple[Claim, str]] = []
    for position, (claim, assessment) in enumerate(zip(claims, assessments)):
        if assessment.outcome == "supported" or _trailing_cites(claim) is None:
            continue
        plain = "".join(claim.plain.split())
        before = claims[position - 1].plain if position and claims[position - 1].section == claim.section else ""
        for label, sentence, topic, said in stated:
            if len(said) < _SAID_OF_TOPIC_CHARS:
                continue
            if said not in plain or clause_conflict(claim.plain, sentence, "ja") is not None \
                    or _DENIED_AFTER_JA.match(plain[plain.index(said) + len(said):]):
                continue
            if topic in claim.plain or (_POINTING_JA.match(claim.plain.strip()) and topic in before):
                edits.append((claim, f"{sentence.rstrip('。')}[{label}]。"))
                break
    return _with_edits(draft, edits), len(edits)



_EXCHANGE_ALIGNED = 0.8  # share of the claim's words the passage sentence says in the same order
def exchanged_term(claim: str, missing: list[str], passages: list[str]) -> tuple[str | None, str | None]:
    """(the claim's word, the passage's word) where a passage sentence says the claim word for
    word but for one word in the same place, and that word is the one term the passage lacks;
    (None, None) otherwise. Words are compared as written (Japanese cut into morphemes: 天明噴火
    where the passage says 宝永噴火), so only a name, code or number exchanged whole is
    repaired, never a paraphrase."""
    if len(missing) != 1:
        return None, None
    said = written_words(claim, particles=False)
    for passage in passages:
        for start, end in sentence_spans(passage):
            theirs = written_words(passage[start:end], particles=False)
            matcher = difflib.SequenceMatcher(a=[w.lower() for w in said], b=[w.lower() for w in theirs], autojunk=False)
            changes = [op for op in matcher.get_opcodes() if op[0] != "equal"]
            if len(changes) != 1 or changes[0][0] != "replace":
                continue
            _, a1, a2, b1, b2 = changes[0]
            if a2 - a1 != 1 or b2 - b1 != 1 or matcher.ratio() < _EXCHANGE_ALIGNED:
                continue
            wrong, right = said[a1], theirs[b1]
            if missing[0].lower() in (wrong.lower(), stem(wrong.lower())) and claim.count(wrong) == 1:
                return wrong, right
    return None, None


def respelt_name(claim: str, missing: list[str], passages: list[str]) -> tuple[str | None, str | None]:
    """(the claim's spelling, the passages' spelling) of a katakana name the passages lack only as
    the claim spells it (``katakana_misspelt``), or of a name with a character Japanese does not
    write, where the passages spell it one way; (None, None) otherwise. The claim then says the
    name as its source does, and is checked again."""
    for wrong in dict.fromkeys(KATAKANA_RUN.findall(claim)):
        if not any(term.text in missing for term in terms(wrong)):
            continue
        spellings = {run for passage in passages for run in KATAKANA_RUN.findall(passage) if katakana_misspelt(wrong, run)}
        if len(spellings) == 1:
            return wrong, spellings.pop()
    # A name written with a character Japanese does not write (the Chinese 丰 for 豊: the real 1.5B
    # model's 「丰岡市の年間平均降雪量は312cmである。」, JSQuAD v1.3 valid a8874p3q0): the passages' one
    # name that is the same but for that character, in its place.
    for wrong in dict.fromkeys(term for term in missing if term in claim):
        foreign = [not written_in_japanese(character) for character in wrong]
        if not any(foreign) or all(foreign):
            continue
        pattern = re.compile("".join(_ANY_KANJI if odd else re.escape(character)
                                     for character, odd in zip(wrong, foreign)))
        spellings = {found.group(0) for passage in passages for found in pattern.finditer(passage)
                     if all(written_in_japanese(character) for character in found.group(0))}
        if len(spellings) == 1:
            return wrong, spellings.pop()
    return None, None


_ANY_KANJI = "[\u3400-\u4dbf\u4e00-\u9fff]"


def kind_restored(claim: str, missing: list[str], passages: list[str]) -> tuple[str | None, str | None]:
    """(the claim's topic, the topic with the kind its passages give it) where the one word the passages lack is a
    kind the claim's Japanese topic dropped (evidence's ``_kind_dropped_ja``): 「炭化水素は…化学的に不活性である」
    against «飽和炭化水素は…» (JSQuAD v1.3 valid a29435p7q1, the real 1.5B model's Summary) becomes 「飽和炭化水素は…」,
    checked again like an exchanged term; (None, None) otherwise."""
    said = TOPIC_JA.match(claim.strip())
    if len(missing) != 1 or said is None:
        return None, None
    topic = said["topic"].strip()
    kind = missing[0] + topic
    if any(kind in passage for passage in passages) and claim.count(topic) == 1:
        return topic, kind
    return None, None


# --- 5. verdicts kept across rounds ----------------------------------------------------------------


def _carry_over(claims: list[Claim], assessments: list[Assessment], methods: list[str],
                earlier: list[ClaimVerdict]) -> None:
    """Claims the judge decided in an earlier round, with the same words and the same citations,
    keep that verdict instead of being judged again (in place): a supported one always (asked
    again it could only be lost to the judge's error rate), any other when the claim is checked
    against the very passages the judge read then (nothing new to decide it by)."""
    judged = {(v.text, tuple(v.citations)): v for v in earlier if v.method == "model" and v.checked}
    for position, (claim, assessment) in enumerate(zip(claims, assessments)):
        if assessment.outcome != "uncertain":
            continue
        before = judged.get((claim.plain, tuple(assessment.valid_citations)))
        if before is None:
            continue
        if before.verdict != Verdict.SUPPORTED:
            if not before.read or before.read != _read_digest(assessment):
                continue
            assessment.verdict = before.verdict.value
            assessment.outcome = "unsupported" if before.verdict == Verdict.UNSUPPORTED else "uncertain"
            assessment.borderline = False
            assessment.confidence = before.confidence or assessment.confidence
            assessment.reason = "judge"
            methods[position] = "model"
            continue
        assessment.verdict = assessment.outcome = "supported"
        assessment.borderline = False
        assessment.confidence = before.confidence or assessment.confidence
        assessment.reason = "judge"
        assessment.evidence = before.evidence or assessment.evidence
        assessment.evidence_label = before.evidence_label or assessment.evidence_label
        methods[position] = "model"


# --- summary, routing, saving ------------------------------------------------------------------------


def _summary(verdicts: list[ClaimVerdict], loops: int, language_check: LanguageCheck,
             documents: list[Document]) -> VerificationSummary:
    counts = {name.value: sum(1 for v in verdicts if v.verdict == name) for name in Verdict}
    total = len(verdicts)
    ratio = counts["supported"] / total if total else 0.0
    invalid: list[str] = []
    for v in verdicts:
        invalid.extend(label for label in v.invalid_citations if label not in invalid)
    return VerificationSummary.model_validate({
        "claims": total,
        **counts,
        "supported_ratio": round(ratio, 3),
        "verdicts": states_json(count_states(verdicts)),
        "invalid_citations": invalid,
        "loops": loops,
        "language_check": language_check,
        "suspicious_sources": [d.label for d in documents if d.suspicious],
    })


_MAX_QUERY_TERMS = 7


def _query_terms(text: str) -> list[str]:
    """The words of ``text`` that carry it, as a search engine wants them: names, nouns and
    figures in their written form, in order, each once ("富士山", "宝永", "1708年")."""
    out: list[str] = []
    for word in key_words(strip_citations(text)):
        if word.lower() not in (w.lower() for w in out):
            out.append(word)
    return out


def _unsettled(verdict: ClaimVerdict) -> bool:
    """A claim this round could not settle: not supported, and neither shown false by the
    passage it cites (the cheap checks' contradiction) nor judged against passages that hold
    every term it uses (the judge read what it needed: another page would not change it)."""
    if verdict.verdict == Verdict.SUPPORTED or verdict.removed:
        return False
    if not verdict.checked or verdict.verdict == Verdict.CITATION_INVALID:
        return True  # nobody decided it, or it cites a source that does not exist
    if verdict.method == "model":
        return verdict.verdict == Verdict.PARTLY_SUPPORTED or bool(verdict.missing)
    # The cheap checks: no passage says it, or most of it ("unrelated", "added"), is open: another
    # page may say it; any other "unsupported" is a passage that gives another value, role or
    # polarity for the same thing: settled, false.
    return verdict.reason in (ClaimReason.UNRELATED, ClaimReason.ADDED, ClaimReason.NO_SOURCES)


def _can_settle(verdict: ClaimVerdict, question: str) -> bool:
    """A follow-up query can be aimed at the claim: it names something the question does not (a
    name, or a figure whose slot a page could give), and its query holds words beyond the
    question's own topic. A sentence of general words ("this is crucial for the integrity of
    the system") names nothing a search could confirm: the pages found would be the same kind."""
    text = strip_citations(verdict.text)
    specific = bool(name_terms(text) - name_terms(question)) or any(_is_value(w) for w in _query_terms(text))
    if not specific:
        return False
    topic = {w.lower() for w in _query_terms(question)[:3]}
    query = _query_for(verdict.text, question, verdict.missing)
    return any(w.lower() not in topic for w in query.split())


def _query_for(claim: str, question: str, disputed: Iterable[str] = ()) -> str:
    """A follow-up query for ``claim``: the question's topic, then the slot the claim fills (its
    key words), never the value in doubt: no figure of the claim and none of the ``disputed``
    words (what its passage lacked), which would only find pages repeating the error. Never a
    claim cut at a length ("…富士山は噴火してい"), which searches for nothing in particular."""
    topic = _query_terms(question)[:3]
    doubtful = {w.lower() for w in disputed}
    slot = [w for w in _query_terms(claim)
            if not _is_value(w) and w.lower() not in doubtful and w.lower() not in (t.lower() for t in topic)]
    return " ".join((topic + slot)[:_MAX_QUERY_TERMS])


def _is_value(word: str) -> bool:
    """A figure, a date or a version ("1708年", "3,786", "3.15"): what a claim says, not what it is about."""
    return bool(re.search(r"\d", word))


def _carries_doubt(query: str, targets: list[ClaimVerdict], question: str) -> bool:
    """A proposed query that repeats a doubtful claim: one of its figures (that the question
    does not hold), one of the words its passage lacked, or the claim's own wording."""
    text = " ".join(query.lower().split())
    asked = question.lower()
    for verdict in targets:
        claim = strip_citations(verdict.text).lower()
        figures = [w for w in _query_terms(claim) if _is_value(w) and w.lower() not in asked]
        if any(figure.lower() in text for figure in figures):
            return True
        if any(m.lower() in text for m in verdict.missing if m.lower() not in asked):
            return True
        if len(text) >= 12 and text.rstrip(".。?？") in claim:
            return True  # a fragment of the sentence itself
    return False


def _on_topic(query: str, question: str, claims: list[str]) -> bool:
    """A proposed query shares a word with the question or with the claims it is for. A query
    in the other language (an English query for a Japanese question) cannot be compared so."""
    if detect_language(query) != detect_language(question or " ".join(claims)):
        return True
    wanted = {w.lower() for w in _query_terms(question)} | {w.lower() for c in claims for w in _query_terms(c)}
    return bool({w.lower() for w in _query_terms(query)} & wanted)


def _fallback_queries(targets: list[ClaimVerdict], question: str = "") -> list[Query]:
    queries = []
    for verdict in targets:
        text = _query_for(verdict.text, question, verdict.missing)
        if text:
            queries.append(Query(text=text, language=detect_language(verdict.text)))
    return queries


async def _follow_up_queries(
    state: AgentState, verdicts: list[ClaimVerdict], language: Language, deps: WorkflowDependencies,
    errors: list[RunError]
) -> list[Query]:
    """Search queries aimed at the unsupported claims, never repeating an earlier one."""
    # Flagged claims first, then those nobody could decide: both need a better source.
    targets = [v for v in verdicts if v.verdict in _FLAGGED]
    targets += [v for v in verdicts if v.verdict == Verdict.PARTLY_SUPPORTED]
    targets = targets[: MAX_FOLLOW_UP_QUERIES * 2]
    if not targets:
        return []
    fallback = _fallback_queries(targets, str(state.get("question") or ""))
    messages = [
        {"role": "system", "content": FOLLOW_UP_SYSTEM[language].format(limit=MAX_FOLLOW_UP_QUERIES)},
        {
            "role": "user",
            "content": FOLLOW_UP_USER[language].format(
                question=state.get("question", ""), claims="\n".join(f"- {v.text}" for v in targets)
            ),
        },
    ]
    proposed = fallback
    try:
        plan = await deps.model.structured(messages, FollowUpPlan, node=NODE, role=ModelRole.FOLLOW_UP,
                                           fallback=FollowUpPlan(queries=[]),
                                           max_tokens=_QUERY_TOKENS * MAX_FOLLOW_UP_QUERIES + 16)
        if isinstance(plan, FollowUpPlan) and plan.queries:
            # A query about something else fetches pages about something else ("Also read").
            question, claims = str(state.get("question") or ""), [v.text for v in targets]
            proposed = [Query(text=q.text, language=q.language) for q in plan.queries
                        if _on_topic(q.text, question, claims) and not _carries_doubt(q.text, targets, question)] \
                or fallback
    except UserFacingError:
        raise
    except Exception as exc:
        errors.append(RunError(node=NODE, kind=ProblemKind.FOLLOW_UP, message=t("verification.follow_up_failed", language, reason=str(exc)[:200])))
    asked = {" ".join(q.text.lower().split()) for q in plan_queries_flat(state.get("plan") or [])}
    asked |= {" ".join(q.text.lower().split()) for q in state.get("follow_up_queries") or []}
    chosen: list[Query] = []
    for query in proposed + fallback:  # the fallback fills in when the model repeats itself
        key = " ".join(query.text.lower().split())
        if key and key not in asked and len(chosen) < MAX_FOLLOW_UP_QUERIES:
            asked.add(key)
            chosen.append(Query(text=query.text.strip(), language=query.language))
    return chosen


def _save(state: AgentState, deps: WorkflowDependencies, verification: VerificationResult, language: Language,
          errors: list[RunError]) -> None:
    session_id = state.get("session_id")
    if not session_id:
        return
    try:
        deps.history.write_json(session_id, "verification.json", {"language": language, **verification.as_json()})
    except OSError as exc:  # a full disk costs the file, not the verdicts
        errors.append(RunError(node=NODE, kind=ProblemKind.SAVE, message=t("verification.save_failed", language, reason=exc.strerror or str(exc)), target="verification.json"))

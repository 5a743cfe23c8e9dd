"""Pydantic models for the data that flows through the graph.

The graph's state holds these models themselves (``state/agent_state.py``); the checkpoint
serializer rebuilds exactly these classes and validates a resumed state with them
(``orchestrator/checkpoints.py``). Files a session keeps (verification.json, meta.json) hold
their JSON form (``as_json``), which readers of older sessions still get as plain mappings.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from enum import StrEnum
from typing import Any, Literal, TypedDict

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter, computed_field

from research.modules.core.language import Language as Language  # the one definition; re-exported for the state's users
from research.modules.core.parsed_document import ParsedDocument as ParsedDocument

# JSON as it comes from a file, a database row or a peer, before a model has read it, and as
# a model's as_json gives it back (run_record.py re-exports it).
JsonObject = dict[str, Any]
Depth = Literal["quick", "standard", "deep"]
Budget = Literal["seconds", "tokens", "sources"]  # the budgets a run can spend (AgentState.budget_exhausted)


class Verdict(StrEnum):
    """The verifier's own label for one claim, as verification.json records it (a reader is
    shown its ``VerdictState``, below)."""

    SUPPORTED = "supported"
    PARTLY_SUPPORTED = "partly_supported"  # also: uncertain, until a judge decides
    UNSUPPORTED = "unsupported"
    CITATION_INVALID = "citation_invalid"  # cites a label the ledger does not have


VerdictLabel = Verdict


class ClaimReason(StrEnum):
    """Why the checks (``modules/text/evidence.py``) or the judge decided a claim as they did;
    each has its words for a reader (``verify.reason.<value>``)."""

    SUPPORTED = "supported"
    CITATION_INVALID = "citation_invalid"
    NO_SOURCES = "no_sources"
    NOTHING_TO_COMPARE = "nothing_to_compare"
    CROSS_LANGUAGE = "cross_language"  # the passage is in the other language: for the judge
    UNRELATED = "unrelated"  # no passage says anything of it
    ADDED = "added"  # most of what it says is in none of the sources it cites (an addition)
    NUMBER_MISMATCH = "number_mismatch"
    NUMBER_MISSING = "number_missing"
    ANOTHER_INSTANCE = "another_instance"  # the source gives its figure for another election, edition or year
    MISSING_TERM = "missing_term"
    SAID_OF_ANOTHER = "said_of_another"  # the source says it (word for word, or its figure) of another subject
    PARTIAL_OVERLAP = "partial_overlap"
    CONTRAST = "contrast"
    ROLE_SWAP = "role_swap"
    ROLE_UNCLEAR = "role_unclear"
    ROLES_UNCONFIRMED = "roles_unconfirmed"
    NEGATION = "negation"
    STATUS = "status"  # the source gives the same thing another status (experimental / default / removed…)
    HEDGE_ADDED = "hedge_added"
    HEDGE_DROPPED = "hedge_dropped"
    LIMITER_ADDED = "limiter_added"
    OR_ADDED = "or_added"
    OR_DROPPED = "or_dropped"
    FIELD_CONTRADICTED = "field_contradicted"
    FIELD_UNKNOWN = "field_unknown"
    MISQUOTED = "misquoted"  # words in quotation marks that no cited source holds as written
    LINK_UNSTATED = "link_unstated"  # two facts joined by "so" / 「ので」 that no source links
    JUDGE = "judge"  # a judge decided it
    UNCITED = "uncited"  # the judge found support, but the sentence cannot be traced to it
    NOT_CHECKED = "not_checked"  # a `research verify` record no judge decided


ClaimOutcome = Literal["supported", "unsupported", "uncertain"]


class StateModel(BaseModel):
    """A model the graph's state holds. Its validator is built on first use, not on import:
    this module is imported before the first step runs, and most of these are first needed
    steps later."""

    model_config = ConfigDict(defer_build=True)


class SearchHit(BaseModel):
    """One search result, possibly with its page already fetched into the session cache."""

    url: str
    canonical_url: str = ""
    final_url: str | None = None  # where redirects ended: relative links in the page resolve against it
    title: str = ""
    snippet: str = ""
    engine: str = ""
    query: str = ""
    language: str = ""  # language of the query that found it / of the page when known
    # Set when the web-search server fetched the page: raw bytes live in sources/.
    cache_path: str | None = None
    media_type: str | None = None
    content: str = ""  # extracted text, when the server returned it
    fetch_error: str | None = None
    retrieved_at: str | None = None


# The parser's result: one declaration for both sides of the sandbox (a plain dataclass, see
# modules/core/parsed_document.py), validated here with pydantic wherever it crosses a process.
PARSED_DOCUMENT: TypeAdapter[ParsedDocument] = TypeAdapter(ParsedDocument)


class Document(BaseModel):
    """A source in the session ledger: a parsed document with a stable label ``S#``."""

    label: str  # "S1", "S2", ... stable for the whole session
    url: str
    canonical_url: str
    title: str = ""
    language: str = ""
    engine: str = ""
    media_type: str | None = None
    retrieved_at: str | None = None
    # "left_out": read, and not used because of what the user asked (dated before --since);
    # "failed": could not be read. ``error`` says why for both.
    status: Literal["ok", "failed", "left_out"] = "ok"
    error: str | None = None
    suspicious: bool = False  # prompt-injection text was found and removed
    # official | academic | reference | news | company | unknown | blog | forum, from the
    # address and title (modules/text/source_kind.py); None in ledgers written before it.
    kind: str | None = None
    markdown: str = ""
    snippets: list[str] = Field(default_factory=list)
    key_facts: list[str] = Field(default_factory=list)
    tables: list[list[list[str]]] = Field(default_factory=list)


def ledger_mappings(documents: Iterable[Document]) -> list[JsonObject]:
    """Ledger entries as the text toolkit (``modules/text``) reads them: plain mappings, as
    processed.jsonl holds them."""
    return [document.model_dump() for document in documents]


class ClaimVerdict(StateModel):
    """The verifier's decision on one sentence of the draft."""

    index: int
    text: str
    section: str = ""
    citations: list[str] = Field(default_factory=list)
    invalid_citations: list[str] = Field(default_factory=list)
    verdict: Verdict
    confidence: float = 0.0
    evidence: str = ""
    evidence_label: str | None = None
    method: Literal["lexical", "model", "none"] = "lexical"
    # Why the verdict fell as it did, for verification.json readers.
    score: float = 0.0
    borderline: bool = False
    reason: ClaimReason | None = None
    outcome: ClaimOutcome = "uncertain"
    checked: bool = True  # False: uncertain and no judge decided it ("not checked", not "unsupported")
    missing: list[str] = Field(default_factory=list)  # key terms or figures the evidence lacks
    read: str = ""  # digest of the passages it was checked against (a later round need not ask again)
    cited_by_check: list[str] = Field(default_factory=list)  # labels the program gave an uncited sentence
    removed: bool = False  # left out of the answer (workflow/answer.py) ...
    removed_reason: str | None = None  # ... and why (answer.REMOVED_*)
    contested_by: str | None = None  # another read source gives another value (the report's note)
    # A claim in another language than its sources: the model's translation into theirs, which
    # the checks read in its place (nodes/verification.check_across_languages); a label line
    # («徳田球一：日本»): the sentence its heading makes of it (text/evidence.py).
    checked_as: str = ""

    @computed_field  # type: ignore[prop-decorator]
    @property
    def state(self) -> VerdictState:
        """What a reader is told about it (see ``verdict_state``): written into verification.json
        beside the verifier's own label, so the file, --json, MCP and the report name it alike."""
        return verdict_state(self)


class ValueCorrection(StateModel):
    """A value of the draft replaced by the one its passage gives for the same slot."""

    text: str
    corrected: str
    value: str
    source_value: str
    label: str = ""


class LanguageCheck(StateModel):
    """How many sentences were in the wrong language, and what rewriting them did."""

    target: Language = "en"
    threshold: float = 0.0
    sentences: int = 0
    wrong_language: list[str] = Field(default_factory=list)
    rewritten: int = 0
    not_rewritten: list[str] = Field(default_factory=list)
    rewritten_sections: list[str] = Field(default_factory=list)
    # Sentences the model could not rewrite, replaced by the cited source's own sentence in the
    # asked language that gives the same figures (nodes/verification.py).
    from_sources: list[str] = Field(default_factory=list)


class JudgeQuality(StateModel):
    """The judge measured on the project's labelled check set (workflow/judge_quality.py): how well
    it tells supported from unsupported claims, and whether its verdicts count."""

    model: str = ""
    protocol: str = ""
    balanced_accuracy: float = 0.0
    supported_recall: float = 0.0
    unsupported_recall: float = 0.0
    items: int = 0
    answered: int = 0  # items the judge gave a readable verdict for
    trusted: bool = False
    threshold: float = 0.0
    seconds: float = 0.0
    missed: list[str] = Field(default_factory=list)  # "kind:language" of each item it got wrong
    measured_at: str = ""
    check_set: str = ""
    failed: str = ""  # why some calls gave no verdict (then the figure is not kept)


class JudgeRecord(StateModel):
    """Which judge decided what (``modules/llm/judge.Judge.describe`` and the claims each took)."""

    model: str = ""
    protocol: str = ""
    drafting_model: str = ""
    japanese: bool = False
    missing: str = ""
    japanese_judge: str = ""
    checker: int = 0  # claims the grounded checker took
    prompt: int = 0  # claims the drafting model judged with the judge prompt
    # Its measured quality (None: not measured, e.g. nothing was left to judge); an untrusted
    # judge decided nothing and its claims stay "not checked".
    quality: JudgeQuality | None = None


class VerificationSummary(StateModel):
    """The counts and decisions of one verification pass (verification.json's ``summary``;
    meta.json and --json carry it with ``summary_with_states``)."""

    claims: int = 0
    supported: int = 0
    partly_supported: int = 0
    unsupported: int = 0
    citation_invalid: int = 0
    supported_ratio: float = 0.0  # supported / claims: partly supported counts for nothing
    verdicts: dict[str, int] = Field(default_factory=dict)  # the five VerdictState counts
    invalid_citations: list[str] = Field(default_factory=list)
    loops: int = 0
    language_check: LanguageCheck = Field(default_factory=LanguageCheck)
    suspicious_sources: list[str] = Field(default_factory=list)
    judge_complete: bool = True
    corrected: list[ValueCorrection] = Field(default_factory=list)
    judge: JudgeRecord = Field(default_factory=JudgeRecord)
    not_checked: int = 0
    documents_seen: int = 0  # the ledger only grows: a redraft reads what came after this many
    loop_stopped: Literal["no_gain", "nothing_to_settle"] | None = None
    removed: int = 0
    left_out: dict[str, int] = Field(default_factory=dict)  # answer.REMOVED_* -> count
    summary_lifted: bool = False
    not_given: list[str] = Field(default_factory=list)  # sub-questions the sources did not answer


class Query(StateModel):
    """One search query and the language it is written in."""

    text: str
    language: Language


class FollowUpQuery(Query):
    """A query the verifier asked for; ``round`` is the search round it is for (2 for the
    first follow-up round), None in checkpoints written before rounds were kept."""

    round: int | None = None


class Turn(StateModel):
    """An earlier question of a REPL conversation and the answer it got (screened, cut short)."""

    question: str
    answer: str = ""


class StyleRewrite(StateModel):
    """A sentence of the draft rewritten for the style rules."""

    sentence: str
    rewritten: str
    method: Literal["model", "removed"]  # the model rewrote it, or the offending words were removed
    banned: list[str] = Field(default_factory=list)
    hedges: list[str] = Field(default_factory=list)


class ComparedValue(StateModel):
    """A position's value as it was compared (``modules/text/disagreements``), so the answer
    can be checked against it."""

    base: str  # a Decimal, as text
    tolerance: str
    precision: int = 0  # for dates: 1 year, 2 month, 3 day


class DisagreementPosition(StateModel):
    """One value the read sources give for a disputed figure or date, and who gives it."""

    value: str
    labels: list[str] = Field(default_factory=list)
    sentences: list[str] = Field(default_factory=list)
    values: list[ComparedValue] = Field(default_factory=list)


class Disagreement(StateModel):
    """One figure or date the read sources give differently."""

    dimension: str
    attribute: str | None = None
    qualifier: str | None = None  # "last" eruption, "first" ascent
    certain: bool = False  # decided by the cheap checks alone, not by a judge
    positions: list[DisagreementPosition] = Field(default_factory=list)


class Disagreements(StateModel):
    """Where the read sources disagree (``AgentState.disagreements``; disagreements.json)."""

    items: list[Disagreement] = Field(default_factory=list)
    facts: int = 0  # figures and dates compared
    certain_pairs: int = 0
    borderline_pairs: int = 0
    unresolved: int = 0  # borderline pairs no judge decided


class SubQuestionPlan(StateModel):
    """One sub-question of the research plan and the queries that search it (quick: the
    question itself)."""

    question: str
    queries: list[Query] = Field(default_factory=list)


class PlannedSubQuestion(TypedDict):
    """One sub-question of a plan as the plan review's pause shows it (``SubQuestionPlan``'s JSON)."""

    question: str
    queries: list[dict[str, str]]  # each Query's JSON: text, language


class PlanReviewRequest(TypedDict):
    """What the plan review's pause shows (nodes/plan_review.py's interrupt), as plain JSON: the
    terminal, an MCP host or LangGraph Server's client answers it with the sub-questions to keep."""

    kind: Literal["plan_review"]
    question: str
    language: Language
    plan: list[PlannedSubQuestion]


class VerificationResult(StateModel):
    """What the verification step found (``AgentState.verification``; verification.json)."""

    claims: list[ClaimVerdict] = Field(default_factory=list)
    summary: VerificationSummary | None = None  # None: no verification ran
    # Every follow-up query asked so far, not only this round's.
    follow_up_queries: list[FollowUpQuery] = Field(default_factory=list)
    annotated_draft: str = ""  # the answer a person reads (workflow/answer.py)

    def as_json(self) -> JsonObject:
        """verification.json's shape: plain values, unset ones left out."""
        return self.model_dump(mode="json", exclude_none=True)


class ProblemKind(StrEnum):
    """What kind of failure a ``RunError`` or a run problem (``state/run_problems.py``) is.

    A StrEnum: state, meta.json and ``--json`` keep the plain strings.
    """

    SEARCH = "search"  # an engine or the server failed one query
    SEARCH_TOOL = "search_tool"  # a server from RESEARCH_MCP_CONFIG without the search tool
    SEARCH_FALLBACK = "search_fallback"  # an engine failed and another answered instead
    READ = "read"  # a document could not be read
    CONTEXT = "context"  # the evidence was cut to fit the model's context
    LANGUAGE = "language"  # sentences left in the wrong language
    DRAFT = "draft"  # the model wrote no answer, asked twice: the Summary quotes the sources
    JUDGE = "judge"  # the judge model is missing or misread (the report notes it)
    UNJUDGED = "unjudged"  # a judge call failed: its claims stay "not checked" in the table
    FOLLOW_UP = "follow_up"  # no follow-up queries could be planned
    SAVE = "save"  # a session file could not be written
    BUDGET = "budget"  # a budget stopped the run (a problem only, from state)
    SANDBOX = "sandbox"  # pages were parsed with less isolation (a problem only, from the runner)


class RunError(BaseModel):
    """A failure that cost one source, document or claim; the run went on."""

    node: str
    kind: ProblemKind
    message: str
    target: str = ""  # what it concerns, where one thing: a URL, a query, a file name

    def as_state(self) -> JsonObject:
        """The plain dict the graph's state keeps (checkpoints hold no enum objects)."""
        return self.model_dump(mode="json")


class RunProblem(BaseModel):
    """A failure that changed the run's result (``state/run_problems.py``): the CLI prints it,
    --json and meta.json carry it (``as_json``)."""

    kind: ProblemKind
    message: str
    queries: int | None = None  # a search failure: how many queries it cost

    def as_json(self) -> JsonObject:
        """As meta.json and --json hold it (``queries`` only for a search failure)."""
        return self.model_dump(exclude_none=True)


# --- one name per verdict ---------------------------------------------------------------------


class VerdictState(StrEnum):
    """What a reader is told about one claim: the five states every surface names the same
    way (the report, the terminal, `research verify`, `sessions`, --json, the MCP server,
    progress.md), each with one word per language (``verdict.<value>`` in i18n).

    Derived from a verification.json claim by ``verdict_state``; the verifier's own labels
    (``VerdictLabel``, its outcome and reason) stay what verification.json records.
    """

    SUPPORTED = "supported"
    PARTLY_SUPPORTED = "partly_supported"
    NOT_SUPPORTED = "not_supported"
    CONTRADICTED = "contradicted"  # the cited passage says otherwise
    NOT_CHECKED = "not_checked"  # no check and no judge decided


# What the cited passage itself contradicts: a changed figure, exchanged roles, a word that
# excludes the passage's, a negation. Such a claim is "contradicted", not merely "not supported".
CONTRADICTING_REASONS = frozenset({"number_mismatch", "role_swap", "contrast", "negation", "status"})


def verdict_state(claim: Mapping[str, Any] | ClaimVerdict) -> VerdictState:
    """The state a reader is shown for one claim dict of verification.json (or a
    `research verify` record: ``verdict`` there is the outcome, and ``reason`` is
    "not_checked" where no judge ran).

    Nobody decided (``checked`` False, or still ``uncertain``) → not checked; unsupported for
    a reason the passage contradicts → contradicted; unsupported or an invented citation →
    not supported; partly supported → partly supported; supported → supported.
    """
    if isinstance(claim, ClaimVerdict):
        claim = {"verdict": claim.verdict.value, "checked": claim.checked,
                 "reason": claim.reason.value if claim.reason else None}
    verdict = str(claim.get("verdict") or "")
    if claim.get("checked") is False or claim.get("reason") == "not_checked" or verdict == "uncertain":
        return VerdictState.NOT_CHECKED
    if verdict == "unsupported" and claim.get("reason") in CONTRADICTING_REASONS:
        return VerdictState.CONTRADICTED
    if verdict in ("unsupported", "citation_invalid"):
        return VerdictState.NOT_SUPPORTED
    if verdict == "partly_supported":
        return VerdictState.PARTLY_SUPPORTED
    if verdict == "supported":
        return VerdictState.SUPPORTED
    return VerdictState.NOT_CHECKED  # a label this version does not know: nothing to stand behind


def count_states(claims: Iterable[Mapping[str, Any] | ClaimVerdict]) -> dict[VerdictState, int]:
    """How many claims are in each state: all five keys, in ``VerdictState`` order."""
    counts = dict.fromkeys(VerdictState, 0)
    for claim in claims:
        if isinstance(claim, (Mapping, ClaimVerdict)):
            counts[verdict_state(claim)] += 1
    return counts


def supported_percent(counts: Mapping[str, int] | Mapping[VerdictState, int]) -> int:
    """The share of claims shown as supported, in whole percent: supported / all claims in
    ``counts`` (the counts shown beside it, so the two always agree; partly supported counts
    for nothing here)."""
    total = sum(int(counts.get(state, 0) or 0) for state in VerdictState)
    return round(100 * int(counts.get(VerdictState.SUPPORTED, 0) or 0) / total) if total else 0


def summary_states(summary: Mapping[str, Any]) -> dict[VerdictState, int]:
    """The five counts of a verification summary (meta.json, a run's --json): its
    ``verdicts`` object where it has one, else derived from the older counts (claims no
    judge decided are among ``partly_supported`` there; contradicted ones cannot be told
    apart from the other unsupported ones, so they count as not supported)."""
    given = summary.get("verdicts")
    if isinstance(given, Mapping):
        return {state: _count(given.get(state.value)) for state in VerdictState}
    not_checked = _count(summary.get("not_checked"))
    return {
        VerdictState.SUPPORTED: _count(summary.get("supported")),
        VerdictState.PARTLY_SUPPORTED: max(0, _count(summary.get("partly_supported")) - not_checked),
        VerdictState.NOT_SUPPORTED: _count(summary.get("unsupported")) + _count(summary.get("citation_invalid")),
        VerdictState.CONTRADICTED: 0,
        VerdictState.NOT_CHECKED: not_checked,
    }


def verification_states(verification: Mapping[str, Any] | VerificationResult) -> dict[VerdictState, int]:
    """The five counts of a verification.json: from its claims, else from its summary."""
    if isinstance(verification, VerificationResult):
        verification = verification.as_json()
    claims = verification.get("claims")
    if isinstance(claims, list) and claims:
        return count_states(claims)
    summary = verification.get("summary")
    return summary_states(summary if isinstance(summary, Mapping) else {})


def states_json(counts: Mapping[VerdictState, int]) -> dict[str, int]:
    """The counts as JSON keeps them: keyed by the plain enum values, in enum order."""
    return {state.value: int(counts.get(state, 0)) for state in VerdictState}


def _count(value: Any) -> int:
    try:
        return max(0, int(value or 0))
    except (TypeError, ValueError):
        return 0


def summary_with_states(verification: Mapping[str, Any] | VerificationResult | None) -> JsonObject:
    """verification.json's summary with the five counts (``verdicts``, from its claims) and
    ``supported_percent`` (from those counts) added: what meta.json, --json and the MCP
    server carry. Its other keys stay as they were, for readers of older versions."""
    if verification is None:
        return {}
    if isinstance(verification, VerificationResult):
        verification = verification.as_json()
    summary = verification.get("summary")
    if not isinstance(summary, Mapping) or not summary:
        return {}
    counts = verification_states(verification)
    return {**summary, "verdicts": states_json(counts), "supported_percent": supported_percent(counts)}

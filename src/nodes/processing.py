"""processing node: parse each new search hit in the sandboxed parser, build the ledger.

Each hit is parsed exactly once per run, from the raw bytes the web-search server cached
(it does not extract them itself). How many parses run at once is the parser client's one
limit (``modules/clients/sandbox.parse_concurrency``), not a second one here."""

from __future__ import annotations

import asyncio
import json
import re
from datetime import UTC, datetime

from research.modules.core.i18n import t
from research.modules.core.language import Language, choose_language
from research.modules.llm.guard import (MAX_PER_DOCUMENT, guard_model, is_borderline, passages_to_screen,
                                        remove_passage, screen_passages)
from research.modules.text.injection import screen_injection, screen_title
from research.modules.text.source_kind import source_kind
from research.state import AgentState, Document, ParsedDocument, ProblemKind, RunError, SearchHit
from research.state.session_folder import cache_entry
from research.workflow.dependencies import DocumentFailed, WorkflowDependencies
from research.state.progress_events import Message


async def process_documents(state: AgentState, deps: WorkflowDependencies) -> AgentState:
    """Parse hits not yet in the ledger; each gets the next stable label S#.

    A document that cannot be read is kept in the ledger as failed (so the report
    can say which), and costs nothing else.
    """
    earlier = list(state.get("documents") or [])
    known = {doc.canonical_url for doc in earlier}
    pending = [hit for hit in state.get("search_results", []) if hit.canonical_url not in known]
    errors: list[RunError] = []  # this step's only: `errors` is a reducer
    since = deps.settings.since  # --since YEAR: older sources are left out
    lang = choose_language(state.get("language"), default="en")
    left_out = 0
    async def parse(hit: SearchHit) -> ParsedDocument | str:
        # A page's bytes are found from its URL's hash under the sessions folder, or not at
        # all: a hit's cache_path is used only when it is exactly that URL's cache entry (a
        # follow-up's hits keep their parent session's). Anything else is not fetched.
        claimed = hit.cache_path
        root = getattr(deps.history, "root", None)  # a HistoryManager always has one; a test's memory fake none
        path = (cache_entry(claimed, root, url=hit.url) if root is not None else claimed) if claimed else None
        if claimed and path is None:
            return "not fetched"
        if path is None and not hit.content:
            return hit.fetch_error or "not fetched"
        try:
            return await deps.parser.parse(
                path=str(path) if path else None,
                text=None if path else hit.content,
                media_type=hit.media_type or "text/markdown",
                url=hit.final_url or hit.url,
            )
        except DocumentFailed as exc:
            return str(exc) or "could not be parsed"

    outcomes = await asyncio.gather(*(parse(hit) for hit in pending))
    # A guard model Ollama has (granite3-guardian) looks again at what the grammar was unsure of.
    guard = guard_model(deps.model.installed)
    to_guard: list[tuple[Document, list[str]]] = []
    read: list[Document] = []  # this step's entries, read or failed; the ledger's reducer appends them
    for hit, outcome in zip(pending, outcomes):
        label = f"S{len(earlier) + len(read) + 1}"
        search_title, flagged = screen_title(hit.title)  # the engine's title, until the page's
        doc = Document(
            label=label,
            url=hit.url,
            canonical_url=hit.canonical_url,
            title=search_title or hit.url,
            suspicious=bool(flagged),
            language=hit.language,
            engine=hit.engine,
            media_type=hit.media_type,
            retrieved_at=hit.retrieved_at,
        )
        if isinstance(outcome, str) or not outcome.markdown.strip():
            doc.status = "failed"
            doc.error = outcome if isinstance(outcome, str) else "no readable text"
            errors.append(RunError(node="processing", kind=ProblemKind.READ, message=doc.error, target=hit.url))
        else:
            unsure = _fill(doc, outcome)
            if since and _left_out_before(doc, since, lang):
                left_out += 1
                unsure = []  # not evidence: nothing in it to screen
            if guard and unsure:
                to_guard.append((doc, unsure))
        read.append(doc)
    if guard and to_guard:
        errors += await _guard_screen(guard, to_guard, deps, lang)
    for hit, doc in zip(pending, read):
        # Graded from the address the page was really read from (after redirects) and
        # the page's own title when it had one.
        doc.kind = source_kind(hit.final_url or hit.url, doc.title)

    documents = earlier + read
    ok = sum(1 for d in documents if d.status == "ok")
    failed = sum(1 for d in documents if d.status == "failed")
    deps.history.write_text(
        state["session_id"],
        "processed.jsonl",
        "".join(json.dumps(d.model_dump(mode="json"), ensure_ascii=False) + "\n" for d in documents),
    )
    # Sources left out by --since (this step's or an earlier round's) are not unreadable: this
    # step's are said on their own line.
    deps.progress(Message("progress.documents_read", {"ok": ok, "failed": failed}))
    if left_out:  # said apart from the unreadable ones: these were read, and are older than asked
        deps.progress(Message("progress.dated_before", {"count": left_out, "total": len(documents), "year": since}))
    # Why, as it happens (one line per distinct reason), not only in report.md.
    reasons: dict[str, int] = {}
    for error in errors:
        reasons[error.message] = reasons.get(error.message, 0) + 1
    for reason, count in list(reasons.items())[:3]:
        deps.progress(Message("terminal.read_failed", {"count": count, "total": len(documents),
                                                       "reason": reason}))
    return {"documents": read, "errors": errors}


def _fill(doc: Document, parsed: ParsedDocument) -> list[str]:
    """Copy parsed content into the ledger entry, with injected instructions removed.
    Returns the passages the grammar was unsure of, for a guard model (at most a few)."""
    removed: list[str] = []
    unsure: list[str] = []

    def screened(text: str) -> str:
        kept, dropped = screen_injection(text)
        removed.extend(dropped)
        if len(unsure) < MAX_PER_DOCUMENT:
            unsure.extend(p for p in passages_to_screen(text, kept) if p not in unsure)
        return kept

    doc.markdown = screened(parsed.markdown)
    doc.snippets = [s for s in map(screened, parsed.snippets) if s.strip()]
    doc.key_facts = [s for s in map(screened, parsed.key_facts) if s.strip()]
    # Table cells are evidence passages too (the verifier indexes rows), so they are
    # screened like the text: an instruction hidden in a cell must never support a claim.
    doc.tables = [[[screened(cell) for cell in row] for row in table] for table in parsed.tables]
    # The title (a PDF's first line when it has no other) is in every prompt's source list.
    # With the page's text beside it, a title that asks for something the page is not about goes too.
    title, dropped = screen_title(parsed.title or doc.title, context=doc.markdown)
    removed.extend(dropped)
    # What was removed from one part is removed from every part: a search snippet or a key fact that
    # repeats a sentence the text's screen took (an order, or the sentence an instruction dictated)
    # has no instruction beside it to be caught by, and must not be evidence either.
    for passage in dict.fromkeys(p for p in removed if len(re.sub(r"\W", "", p)) >= 4):
        doc.markdown = remove_passage(doc.markdown, passage)
        doc.snippets = [s for s in (remove_passage(s, passage) for s in doc.snippets) if s.strip()]
        doc.key_facts = [s for s in (remove_passage(s, passage) for s in doc.key_facts) if s.strip()]
        doc.tables = [[[remove_passage(cell, passage) for cell in row] for row in table] for table in doc.tables]
    doc.suspicious = doc.suspicious or bool(removed)
    doc.title = title or doc.url
    doc.language = parsed.language or doc.language
    if title and is_borderline(title) and title not in unsure:
        unsure.insert(0, title)
    return unsure[:MAX_PER_DOCUMENT]


# --- --since YEAR: a source's date, where it states one -----------------------------------------

# A date in the address: /2019/05/, /2019-05-12-title, /20190512/ (news and blog paths), and
# arXiv's YYMM.NNNNN identifiers. A year alone in a path (/2019/) is as often a topic as a date.
_URL_DATES = (
    re.compile(r"/((?:19|20)\d\d)[/_-](?:0[1-9]|1[0-2])(?=[/_.-]|$)"),
    re.compile(r"/((?:19|20)\d\d)(?:0[1-9]|1[0-2])(?:0[1-9]|[12]\d|3[01])(?=[/_.-]|$)"),
)
_ARXIV = re.compile(r"arxiv\.org/(?:abs|pdf)/(\d\d)(?:0[1-9]|1[0-2])\.\d{4,5}", re.IGNORECASE)
# A date the page states near its top under a label: "Published: March 3, 2019", "Updated
# 2021-04-01", "公開日：2019年3月3日", "更新日 2021/4/1", at a line's start or after a byline's
# separator ("By … · Published …"): in a sentence ("the survey was updated in 2010") a year is
# what the text is about. Only the first lines, for the same reason.
_LABELLED_YEAR = re.compile(
    r"(?:^|[\n|·•–—])[ \t>*_#-]*(?:published|posted|updated|last (?:updated|modified|reviewed)|dated?|"
    r"公開日?|投稿日?|掲載日?|発行日?|更新日?|最終更新日?)"
    r"[^\n\d]{0,24}?(?:[A-Za-z]{3,9}\.? \d{1,2},? |\d{1,2} [A-Za-z]{3,9}\.? |\d{1,2}[/.]\d{1,2}[/.])?"
    r"((?:19|20)\d\d)(?!\d)",
    re.IGNORECASE,
)
_HEAD_CHARS = 800


def source_year(url: str, markdown: str) -> int | None:
    """The latest year a source is dated by, from its address and the labelled dates at the top
    of its text; None when it states none. The latest, so a page updated since counts as new."""
    years = [int(match.group(1)) for pattern in _URL_DATES for match in pattern.finditer(url.split("?", 1)[0])]
    years += [2000 + int(match.group(1)) for match in _ARXIV.finditer(url)]
    years += [int(match.group(1)) for match in _LABELLED_YEAR.finditer(markdown[:_HEAD_CHARS])]
    this_year = datetime.now(UTC).year
    known = [year for year in years if year <= this_year + 1]  # a later "year" is a number, not a date
    return max(known) if known else None


def _left_out_before(doc: Document, since: int, lang: Language) -> bool:
    """Mark a source dated before ``since`` as not used (kept in the ledger, so the report says
    which and why); one with no known date stays."""
    year = source_year(doc.url, doc.markdown)
    if year is None or year >= since:
        return False
    doc.status = "left_out"
    doc.error = t("run_option.dated_before", lang, dated=year, year=since)
    doc.markdown, doc.snippets, doc.key_facts, doc.tables = "", [], [], []
    return True


async def _guard_screen(guard: str, to_guard: list[tuple[Document, list[str]]], deps: WorkflowDependencies,
                        language: Language) -> list[RunError]:
    """Ask the guard about each document's unsure passages: a Yes removes the passage wherever
    it is evidence and marks the source suspicious. A failed or unreadable reply changes
    nothing (the grammar's decision stands) and is noted once."""
    result = await screen_passages(deps.model, guard, [p for _, passages in to_guard for p in passages],
                                   limit=deps.settings.judge_concurrency)
    for doc, passages in to_guard:
        risky = [p for p in passages if p in result.risky]
        for passage in risky:
            doc.markdown = remove_passage(doc.markdown, passage)
            doc.snippets = [s for s in (remove_passage(s, passage) for s in doc.snippets) if s.strip()]
            doc.key_facts = [s for s in (remove_passage(s, passage) for s in doc.key_facts) if s.strip()]
            doc.tables = [[[remove_passage(cell, passage) for cell in row] for row in table] for table in doc.tables]
            if doc.title.strip() == passage:
                doc.title = doc.url
        doc.suspicious = doc.suspicious or bool(risky)
    missed = result.failed + result.unreadable
    if not missed:
        return []
    return [RunError(node="processing", kind=ProblemKind.JUDGE, message=t(
        "guard.not_answered", language, model=guard, count=len(missed), total=result.asked,
        reason=missed[0][:80]))]

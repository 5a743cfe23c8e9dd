"""The ``verify`` tool: an answer checked sentence by sentence against given sources.

Sources are labelled S1, S2, … in the order given, so an answer's ``[S1]`` points at the
first. A source is text, or an http(s) URL that is fetched by the web-search server and
parsed in the sandbox, exactly as during research; or an object as `research verify --batch`
takes it (``{"label", "text"}``, with ``title`` and ``url`` kept as its description), whose
label replaces the positional one. The checks, the sandboxed reading and
the model judge are the ones `research verify` uses (orchestrator/answer_check.py), so a
sentence gets the same verdict from this tool as from the command.
"""

from __future__ import annotations

import asyncio
from concurrent.futures import ProcessPoolExecutor
from typing import TYPE_CHECKING, Any

from pydantic import BaseModel, Field, model_validator

from research.modules.core.errors import UsageError
from research.modules.core.grammar import is_url
from research.modules.core.language import Language
from research.modules.core.settings import Settings
from research.state.models import JsonObject, VerdictState, states_json, supported_percent

if TYPE_CHECKING:  # imported at the first check: the checks' text modules are a third of this server's start
    from research.orchestrator.answer_check import SourceDocument, SourceSpec

# What one call may ask for (a long report is some 30,000 characters; a book chapter some
# 100,000). Larger inputs are refused with one line saying which and the limit, instead of
# holding the server for minutes.
MAX_ANSWER_CHARS = 200_000
MAX_SOURCES = 20
MAX_SOURCE_CHARS = 2_000_000  # each source, as given or as read from its URL


class SourceObject(BaseModel):
    """One source as a `research verify --batch` line gives it: ``text`` to check against (or,
    without text, ``url`` to fetch), under ``label`` (default: its position, S1, S2, …)."""

    label: str | None = Field(default=None, min_length=1, max_length=40, pattern=r"^[A-Za-z0-9_.\-]+$",
                              description="what the answer's citations call it, e.g. S1")
    text: str | None = Field(default=None, description="the source's text")
    title: str = ""
    url: str = Field(default="", description="where the text is from; fetched when there is no text")

    @model_validator(mode="after")
    def _text_or_url(self) -> "SourceObject":
        if not (self.text or "").strip() and not is_url(self.url.strip()):
            raise ValueError("a source object needs text, or an http(s) url")
        return self


Source = str | SourceObject


def source_text(source: Source) -> str:
    """What a source's size is judged by: its text, or the string (text or URL) given."""
    return source if isinstance(source, str) else (source.text or source.url)


class DuplicateLabel(UsageError):
    def __init__(self, label: str) -> None:
        super().__init__("mcp_research.duplicate_label", label=label)


class TooLarge(UsageError):
    def __init__(self, what: str, size: int, limit: int) -> None:
        super().__init__("verify.too_large", what=what, size=size, limit=limit)


def check_sizes(answer: str, sources: list[str]) -> None:
    """``TooLarge`` for an input over the limits, before anything is fetched or read."""
    if len(answer) > MAX_ANSWER_CHARS:
        raise TooLarge("the answer", len(answer), MAX_ANSWER_CHARS)
    if len(sources) > MAX_SOURCES:
        raise TooLarge("the list of sources", len(sources), MAX_SOURCES)
    for number, source in enumerate(sources, 1):
        if len(source) > MAX_SOURCE_CHARS:
            raise TooLarge(f"source S{number}", len(source), MAX_SOURCE_CHARS)


class CheckProcess:
    """The sentence checks in a child process of their own.

    They are CPU work: in the server's event loop they would hold every other call
    (``sessions`` included) until done, and a thread cannot be stopped when the client
    gives up. A child can: a cancelled check kills it, and the next check starts another.
    The child is forked from a forkserver that has imported the checks once, so a check
    costs milliseconds more than in-process, the first one about a second."""

    def __init__(self) -> None:
        self._pool: ProcessPoolExecutor | None = None

    def _started(self) -> ProcessPoolExecutor:
        if self._pool is None:
            import multiprocessing

            context = multiprocessing.get_context("forkserver")
            context.set_forkserver_preload(["research.orchestrator.answer_check"])
            self._pool = ProcessPoolExecutor(max_workers=1, mp_context=context)
        return self._pool

    async def check(self, answer: str, documents: list[SourceDocument]) -> tuple[list[Any], list[Any]]:
        from research.orchestrator.answer_check import check_draft

        return await self.run(check_draft, answer, documents)

    async def run(self, function: Any, *args: Any) -> Any:
        """``function(*args)`` in the child (a module-level function, its result picklable)."""
        future = self._started().submit(function, *args)
        try:
            return await asyncio.wrap_future(future)
        except asyncio.CancelledError:
            self.close()  # the client went away: the check stops now, not minutes later
            raise

    def close(self) -> None:
        pool, self._pool = self._pool, None
        if pool is None:
            return
        for process in list(getattr(pool, "_processes", {}).values()):
            process.kill()
        pool.shutdown(wait=False, cancel_futures=True)


class SentenceVerdict(BaseModel):
    start: int = Field(description="offset of the sentence in the answer")
    end: int
    text: str
    verdict: str = Field(description="the check's outcome: supported | unsupported | uncertain")
    state: str = Field(default="", description="what a person is told: supported | partly_supported | not_supported | "
                                                "contradicted | not_checked")
    citations: list[str] = Field(default_factory=list)
    evidence: str | None = None
    source: str | None = Field(default=None, description="label of the source the evidence is from")
    reason: str = ""
    checked_as: str = Field(default="", description="a sentence in another language than its sources: the "
                                                    "translation into theirs that was checked in its place; a "
                                                    "label line ('Name: value'): the sentence its heading makes "
                                                    "of it")


class VerifiedSource(BaseModel):
    label: str
    url: str = ""
    status: str = "ok"  # "ok" | "failed"
    error: str | None = None
    characters: int = 0


class VerifyOutput(BaseModel):
    verdicts: list[SentenceVerdict]
    summary: JsonObject  # the outcome counts, the five states and the share supported
    sources: list[VerifiedSource]
    judged: bool = Field(description="whether every uncertain sentence went to the model judge")
    judge_note: str = ""  # why the judge could not decide them all


def _spec(source: Source) -> SourceSpec:
    from research.orchestrator.answer_check import SourceSpec

    if isinstance(source, SourceObject):
        text = (source.text or "").strip()
        return SourceSpec("text", text) if text else SourceSpec("url", source.url.strip())
    return SourceSpec("url" if is_url(source.strip()) else "text", source.strip())


async def verify_answer(answer: str, sources: list[Source], settings: Settings, *, judge: bool, lang: Language,
                        servers: Any = None, checks: CheckProcess | None = None) -> VerifyOutput:
    """``sources``: strings (text or a URL) or ``SourceObject``s, in any mix. ``servers``: the
    research server's ``ServerPool``, kept between calls (None: this call's own). ``checks``:
    where the sentence checks run (None: here, in this thread). ``TooLarge`` when an input is
    over the limits; ``DuplicateLabel`` when two sources would have one label."""
    from research.orchestrator.answer_check import OUTCOMES, check_draft, claim_record, judge_uncertain_claims, read_sources

    check_sizes(answer, [source_text(source) for source in sources])
    documents = await read_sources([_spec(source) for source in sources], settings, servers=servers)
    for document, source in zip(documents, sources):
        if isinstance(source, SourceObject):  # its label and description as given, like a --batch line's
            if source.label:
                document["label"] = source.label
            if source.title:
                document["title"] = source.title
            if source.url:
                document["url"] = source.url
    seen: set[str] = set()
    for document in documents:
        if document["label"] in seen:
            raise DuplicateLabel(document["label"])
        seen.add(document["label"])
    for document in documents:  # a URL's page is only known once read
        if len(document.get("markdown") or "") > MAX_SOURCE_CHARS:
            raise TooLarge(f"source {document['label']}", len(document["markdown"]), MAX_SOURCE_CHARS)
    if checks is not None:
        claims, assessments = await checks.check(answer, documents)
    else:
        claims, assessments = check_draft(answer, documents)
    judged, note = True, ""
    if judge:
        judged, note = await judge_uncertain_claims(claims, assessments, lang, settings, documents)
    records = [claim_record(c, a, checked=judged) for c, a in zip(claims, assessments)]
    verdicts = [SentenceVerdict.model_validate(record) for record in records]
    counts = {name: sum(1 for v in verdicts if v.verdict == name) for name in OUTCOMES}
    listed = [VerifiedSource(label=d["label"], url=d["url"], status=d["status"], error=d.get("error"),
                             characters=len(d.get("markdown", ""))) for d in documents]
    states = {state: sum(1 for v in verdicts if v.state == state) for state in VerdictState}
    summary = {"claims": len(verdicts), **counts, "verdicts": states_json(states), "supported_percent": supported_percent(states)}
    return VerifyOutput(verdicts=verdicts, summary=summary, sources=listed,
                        judged=judged, judge_note=note)

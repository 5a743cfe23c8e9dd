"""Checking an answer against sources outside a research run: `research verify` and the
research MCP server's ``verify`` tool both come here, so a sentence gets the same verdict
from either door, and from the verification step (same claim splitter, same evidence
checks, same model judge for the uncertain ones).

Sources are read as during research: untrusted bytes (HTML, PDF, any file that is not plain
text) are parsed only by the sandboxed parser, and URLs are fetched by the web-search server.
"""

from __future__ import annotations

import tempfile
from contextlib import AsyncExitStack
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal, NotRequired, TypedDict

from research.modules.core.errors import DocumentFailed, UserFacingError
from research.modules.core.language import detect_language
from research.modules.core.settings import Settings
from research.modules.core.urls import canonical_url
from research.modules.text.claims import Claim, split_claims
from research.modules.text.evidence import Assessment, EvidenceIndex, assess_claim
from research.state.models import Language, VerdictState, verdict_state
from research.state.session_folder import cache_file

OUTCOMES = ("supported", "unsupported", "uncertain")
# Read as text in this process: decoding UTF-8 is not parsing. Everything else goes to the sandbox.
PLAIN_SUFFIXES = frozenset({".txt", ".md", ".markdown", ".json", ".csv", ".tsv", ".text", ""})


@dataclass(frozen=True)
class SourceSpec:
    """One source as the user gave it: inline text, a local file or an http(s) URL."""

    kind: Literal["text", "file", "url"]
    value: str


class SourceDocument(TypedDict, total=False):
    """A source as the checks read it: the ledger's keys (state/models.Document) as plain data,
    which is also how processed.jsonl and a --batch line give them. Each has its ``label``; a
    partial one only updates another."""

    label: str
    url: str
    canonical_url: str
    title: str
    status: str  # ok | failed
    error: str
    markdown: str
    language: str
    snippets: list[str]
    key_facts: list[str]
    tables: list[list[list[str]]]


def check_draft(draft: str, documents: list[SourceDocument]) -> tuple[list[Claim], list[Assessment]]:
    """The cheap checks: every claim of ``draft`` against the documents (ledger-shaped dicts)."""
    index = EvidenceIndex(documents)
    claims = split_claims(draft)
    return claims, [assess_claim(claim, index) for claim in claims]


class ClaimRecord(TypedDict):
    """One claim as both doors report it (`research verify --json`, the verify tool's verdicts)."""

    start: int
    end: int
    text: str
    verdict: str  # supported | unsupported | uncertain
    state: str  # a VerdictState's value
    citations: list[str]
    evidence: str | None
    reason: str
    source: NotRequired[str | None]  # the evidence's source label (a batch line leaves it out)
    score: float
    checked_as: NotRequired[str]  # a claim in another language than its sources: the translation checked


def claim_record(claim: Claim, assessment: Assessment, *, checked: bool = True) -> ClaimRecord:
    """One claim as both doors report it; an uncertain claim the judge never saw is "not_checked".

    ``verdict`` is the three-way outcome (kept for scripts); ``state`` is what a person is
    told, one of the five ``VerdictState`` values (the judge's "partly supported" is named
    there, and an uncertain claim nobody decided is "not_checked")."""
    verdict = assessment.outcome
    reason = assessment.reason if checked or verdict != "uncertain" else "not_checked"
    if reason == "judge" and assessment.verdict == "partly_supported":
        state = VerdictState.PARTLY_SUPPORTED
    else:
        state = verdict_state({"verdict": verdict, "reason": reason})
    record: ClaimRecord = {
        "start": claim.start,
        "end": claim.end,
        "text": claim.text,
        "verdict": verdict,
        "state": state.value,
        "citations": list(claim.citations),
        "evidence": assessment.evidence or None,
        "reason": reason,
        "source": assessment.evidence_label,
        "score": assessment.score,  # the weighted share of the claim's words the evidence holds
    }
    if assessment.checked_as:
        record["checked_as"] = assessment.checked_as
    return record


async def judge_uncertain_claims(
    claims: list[Claim], assessments: list[Assessment], lang: Language, settings: Settings,
    documents: list[SourceDocument] | None = None,
) -> tuple[bool, str]:
    """The judge decides the uncertain claims (in place); returns (all decided, why not).

    The same judge as a run's (modules/llm/judge.py): bespoke-minicheck for English sentences
    when Ollama has it, else, and for Japanese, the drafting model with the judge prompt."""
    if not any(a.outcome == "uncertain" for a in assessments):
        return True, ""
    from research.modules.llm.model_manager import ModelManager  # noqa: PLC0415 - only when a judge runs
    from research.nodes.verification import judge_uncertain  # noqa: PLC0415

    model = ModelManager(settings)
    try:
        await model.ensure_ready()
    except UserFacingError as exc:
        return False, exc.message(lang)
    from research.modules.llm.judge import judge_for  # noqa: PLC0415
    from research.nodes.verification import usable_judge  # noqa: PLC0415
    from research.modules.core.i18n import t  # noqa: PLC0415

    judge = judge_for(settings, model)
    # The judge is measured before its verdicts count, as in a run (workflow/judge_quality.py), and
    # asked by the protocol it measured trusted with.
    quality = None
    if judge.protocol == "prompt":
        judge, quality = await usable_judge(judge, model, settings)
    if quality is not None and not quality.trusted:
        return False, t("judge.untrusted", lang, model=judge.model, accuracy=f"{quality.balanced_accuracy:.0%}",
                        threshold=f"{quality.threshold:.0%}", items=quality.items)
    errors: list[Any] = []
    if documents is not None:
        # A claim in another language than its sources is checked as its translation into theirs,
        # as in a run; the judge then reads the translation.
        from research.nodes.verification import check_across_languages, claims_as_checked  # noqa: PLC0415

        await check_across_languages(claims, assessments, EvidenceIndex(documents), model, lang, errors)
        claims = claims_as_checked(claims, assessments)
    complete = await judge_uncertain(claims, assessments, ["lexical"] * len(claims), lang, model, settings, errors,
                                     judge=judge)
    return complete, "; ".join(e.message for e in errors)


async def read_sources(specs: list[SourceSpec], settings: Settings, *, first_label: int = 1,
                       servers: Any = None) -> list[SourceDocument]:
    """Documents in the verification step's shape, labelled S<first_label>… in the order given.

    A source that cannot be read is kept with ``status: "failed"`` and its ``error``, so the
    caller can say which; it supports nothing. Raises ``FileNotFoundError`` for a missing file.
    ``servers``: a ``ServerPool`` kept by a long-lived caller (the research MCP server), so
    that a check does not start both servers again; None: servers of this call's own.
    """
    documents: list[SourceDocument] = []
    for number, spec in enumerate(specs, first_label):
        document = SourceDocument(label=f"S{number}", url="", canonical_url="", title="", status="ok", markdown="",
                                  language="")
        if spec.kind == "url":
            document.update(SourceDocument(url=spec.value, canonical_url=canonical_url(spec.value), title=spec.value))
        elif spec.kind == "file":
            path = Path(spec.value)
            if not path.is_file():
                raise FileNotFoundError(spec.value)
            document.update(SourceDocument(url=str(path), title=path.name))
            if path.suffix.lower() in PLAIN_SUFFIXES:
                document["markdown"] = path.read_bytes().decode("utf-8", errors="replace")
        else:
            document["markdown"] = spec.value
        if document["markdown"]:
            document["language"] = detect_language(document["markdown"][:4000])
        documents.append(document)
    to_parse = [(d, s) for d, s in zip(documents, specs) if s.kind != "text" and not d["markdown"]]
    if to_parse:
        # The kept parser reads only under the sessions folder: a file elsewhere gets this
        # call's own servers.
        if servers is None or any(spec.kind == "file" for _, spec in to_parse):
            await _read_in_sandbox(to_parse, settings)
        else:
            await _read_with_pool(to_parse, settings, servers)
    return documents


async def _read_in_sandbox(todo: list[tuple[SourceDocument, SourceSpec]], settings: Settings) -> None:
    """Fetch URLs through the web-search server and parse every file or page in the sandbox."""
    from research.modules.clients.parser_client import ContainerProcessor  # noqa: PLC0415 - heavy, only when needed
    from research.modules.clients.web_search_client import WebSearchClient  # noqa: PLC0415

    with tempfile.TemporaryDirectory(prefix="research-verify-") as folder:
        cache = Path(folder) / "sources"
        cache.mkdir()
        async with AsyncExitStack() as stack:
            parser = await stack.enter_async_context(ContainerProcessor(settings, cache))
            web = None
            if any(spec.kind == "url" for _, spec in todo):
                web = await stack.enter_async_context(WebSearchClient(settings, cache))
            await _read_each(todo, web, parser)


async def _read_each(todo: list[tuple[SourceDocument, SourceSpec]], web: Any, parser: Any) -> None:
    for document, spec in todo:
        try:
            if spec.kind == "url":
                parsed = await _fetch_and_parse(spec.value, web, parser)
            else:
                path = Path(spec.value).resolve()
                parsed = await parser.parse(path=str(path), text=None, media_type="", url=path.as_uri())
        except DocumentFailed as exc:
            document.update(SourceDocument(status="failed", error=str(exc)[:300]))
            continue
        document.update(SourceDocument(markdown=parsed.markdown, title=parsed.title or document["title"],
                                       snippets=parsed.snippets, key_facts=parsed.key_facts, tables=parsed.tables,
                                       language=parsed.language or detect_language(parsed.markdown[:4000])))
        if not parsed.markdown.strip():
            document.update(SourceDocument(status="failed", error="no readable text"))


async def _read_with_pool(todo: list[tuple[SourceDocument, SourceSpec]], settings: Settings, servers: Any) -> None:
    """The same reading through servers that stay up between checks. A page's text needs
    no session folder (the web-search server extracts it in its own sandbox), so the
    pool's clients are used as they are."""
    await servers.start(settings)
    await _read_each(todo, servers.web_search, servers.parser)


async def _fetch_and_parse(url: str, web: Any, parser: Any) -> Any:
    try:
        result = await web.call("get-single-web-page-content", {"url": url})
    except Exception as exc:  # noqa: BLE001 - one unreadable source, not a failed check
        raise DocumentFailed(f"{type(exc).__name__}: {exc}") from None
    page = result.structured_content if isinstance(result.structured_content, dict) else {}
    if page.get("fetch_error") or result.is_error:
        raise DocumentFailed(str(page.get("fetch_error") or "the page could not be fetched"))
    if page.get("content"):
        # Our server already extracted the page in its own sandboxed parser; the analysis
        # (snippets, key facts) of that Markdown runs in ours.
        return await parser.parse(path=None, text=page["content"], media_type="text/markdown", url=url)
    if page.get("cache_path"):
        # Only the bytes this URL's fetch put in the client's own cache folder: a path a
        # server's answer names is never read otherwise.
        path = cache_file(page["cache_path"], getattr(web, "cache_dir", None), url)
        if path is None:
            raise DocumentFailed("the page's cached copy is not this URL's cache entry")
        return await parser.parse(path=str(path), text=None, media_type=page.get("media_type") or "", url=url)
    # A server that hands over text only (an mcpServers entry that is not ours): parsed in the sandbox too.
    text = "\n".join(b.text for b in result.content if getattr(b, "type", "") == "text")
    return await parser.parse(path=None, text=text, media_type="text/markdown", url=url)

"""The ``verify`` tool: an answer checked sentence by sentence against given sources.

Sources are labelled S1, S2, … in the order given, so an answer's ``[S1]`` points at the
first. A source is text, or an http(s) URL that is fetched by the web-search server and
parsed in the sandbox, exactly as during research. The checks are the verification
step's own (``EvidenceIndex`` and ``assess_claim``), so a sentence gets the same verdict
here as in a research report.
"""

from __future__ import annotations

import re
import tempfile
from contextlib import AsyncExitStack
from pathlib import Path
from typing import Any

from pydantic import BaseModel, Field

from research.modules.core.errors import DocumentFailed
from research.modules.core.language import detect_language
from research.modules.core.settings import Settings
from research.modules.core.urls import canonical_url
from research.modules.text.claims import split_claims
from research.modules.text.evidence import EvidenceIndex, assess_claim

URL = re.compile(r"^https?://\S+$")
PARTLY_WEIGHT = 0.5  # as in the verification step: a partly supported sentence counts half
VERDICTS = ("supported", "partly_supported", "unsupported", "citation_invalid")


class SentenceVerdict(BaseModel):
    index: int
    sentence: str
    verdict: str = Field(description="supported | partly_supported | unsupported | citation_invalid")
    confidence: float
    citations: list[str] = Field(default_factory=list)
    invalid_citations: list[str] = Field(default_factory=list)
    evidence: str = ""
    evidence_label: str | None = None
    reason: str = ""


class VerifiedSource(BaseModel):
    label: str
    url: str = ""
    status: str = "ok"  # "ok" | "failed"
    error: str | None = None
    characters: int = 0


class VerifyOutput(BaseModel):
    verdicts: list[SentenceVerdict]
    summary: dict[str, Any]
    sources: list[VerifiedSource]


def is_url(source: str) -> bool:
    return bool(URL.match(source.strip()))


async def verify_answer(answer: str, sources: list[str], settings: Settings) -> VerifyOutput:
    documents = await load_sources(sources, settings)
    index = EvidenceIndex(documents)
    verdicts = []
    for claim in split_claims(answer):
        found = assess_claim(claim, index)
        verdicts.append(SentenceVerdict(
            index=claim.index, sentence=claim.plain, verdict=found.verdict, confidence=found.confidence,
            citations=found.valid_citations, invalid_citations=found.invalid_citations, evidence=found.evidence,
            evidence_label=found.evidence_label, reason=found.reason,
        ))
    listed = [VerifiedSource(label=d["label"], url=d["url"], status=d["status"], error=d.get("error"),
                             characters=len(d.get("markdown", ""))) for d in documents]
    return VerifyOutput(verdicts=verdicts, summary=summarise(verdicts), sources=listed)


def summarise(verdicts: list[SentenceVerdict]) -> dict[str, Any]:
    counts = {name: sum(1 for v in verdicts if v.verdict == name) for name in VERDICTS}
    total = len(verdicts)
    ratio = (counts["supported"] + PARTLY_WEIGHT * counts["partly_supported"]) / total if total else 0.0
    return {"claims": total, **counts, "supported_ratio": round(ratio, 3)}


async def load_sources(sources: list[str], settings: Settings) -> list[dict[str, Any]]:
    """Documents in the verification step's shape, labelled S1.. in the order given."""
    documents: list[dict[str, Any]] = []
    for number, source in enumerate(sources, 1):
        source = source.strip()
        url = source if is_url(source) else ""
        documents.append({"label": f"S{number}", "url": url, "canonical_url": canonical_url(url) if url else "",
                          "status": "ok", "markdown": "" if url else source,
                          "language": "" if url else detect_language(source[:4000])})
    wanted = [d for d in documents if d["url"]]
    if wanted:
        await _read_pages(wanted, settings)
    return documents


async def _read_pages(documents: list[dict[str, Any]], settings: Settings) -> None:
    """Fetch each URL through the web-search server and parse its bytes in the sandbox."""
    from research.modules.clients.parser_client import ContainerProcessor
    from research.modules.clients.web_search_client import WebSearchClient

    with tempfile.TemporaryDirectory(prefix="research-verify-") as folder:
        cache = Path(folder) / "sources"
        cache.mkdir()
        async with AsyncExitStack() as stack:
            web = await stack.enter_async_context(WebSearchClient(settings, cache))
            parser = await stack.enter_async_context(ContainerProcessor(settings, cache))
            for document in documents:
                await _read_page(document, web, parser)


async def _read_page(document: dict[str, Any], web: Any, parser: Any) -> None:
    def failed(reason: str) -> None:
        document.update(status="failed", error=reason[:300])

    try:
        result = await web.call("get-single-web-page-content", {"url": document["url"]})
    except Exception as exc:  # noqa: BLE001 - one unreadable source, not a failed tool call
        return failed(f"{type(exc).__name__}: {exc}")
    page = result.structured_content if isinstance(result.structured_content, dict) else {}
    if page.get("fetch_error") or result.is_error:
        return failed(str(page.get("fetch_error") or "the page could not be fetched"))
    try:
        if page.get("cache_path"):
            parsed = await parser.parse(path=page["cache_path"], text=None,
                                        media_type=page.get("media_type") or "", url=document["url"])
        else:  # a server that hands over text only (an mcpServers entry that is not ours)
            text = "\n".join(b.text for b in result.content if getattr(b, "type", "") == "text")
            parsed = await parser.parse(path=None, text=text, media_type="text/markdown", url=document["url"])
    except DocumentFailed as exc:
        return failed(str(exc))
    document.update(markdown=parsed.markdown, title=parsed.title, snippets=parsed.snippets,
                    key_facts=parsed.key_facts, tables=parsed.tables,
                    language=parsed.language or detect_language(parsed.markdown[:4000]))
    if not parsed.markdown.strip():
        failed("no text in the page")

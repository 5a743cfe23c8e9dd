"""The ``verify`` tool: an answer checked sentence by sentence against given sources.

Sources are labelled S1, S2, … in the order given, so an answer's ``[S1]`` points at the
first. A source is text, or an http(s) URL that is fetched by the web-search server and
parsed in the sandbox, exactly as during research. The checks are ``research verify``'s
own (``check_draft`` and ``claim_record`` in cli/verify.py, the verification step's
evidence checks), and uncertain sentences go to the model judge as there, so a sentence
gets the same verdict from this tool as from the command.
"""

from __future__ import annotations

import re
import tempfile
from contextlib import AsyncExitStack
from pathlib import Path
from typing import Any

from pydantic import BaseModel, Field

from research.cli.verify import check_draft, claim_record
from research.modules.core.errors import DocumentFailed, UserFacingError
from research.modules.core.language import detect_language
from research.modules.core.settings import Settings
from research.modules.core.urls import canonical_url

URL = re.compile(r"^https?://\S+$")
OUTCOMES = ("supported", "unsupported", "uncertain")


class SentenceVerdict(BaseModel):
    start: int = Field(description="offset of the sentence in the answer")
    end: int
    text: str
    verdict: str = Field(description="supported | unsupported | uncertain")
    citations: list[str] = Field(default_factory=list)
    evidence: str | None = None
    source: str | None = Field(default=None, description="label of the source the evidence is from")
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
    judged: bool = Field(description="whether every uncertain sentence went to the model judge")
    judge_note: str = ""  # why the judge could not decide them all


def is_url(source: str) -> bool:
    return bool(URL.match(source.strip()))


async def verify_answer(answer: str, sources: list[str], settings: Settings, *, judge: bool, lang: str) -> VerifyOutput:
    documents = await load_sources(sources, settings)
    claims, assessments = check_draft(answer, documents)
    judged, note = True, ""
    if judge:
        judged, note = await _judge(claims, assessments, lang, settings)
    records = [claim_record(c, a, checked=judged) for c, a in zip(claims, assessments)]
    verdicts = [SentenceVerdict(**record) for record in records]
    counts = {name: sum(1 for v in verdicts if v.verdict == name) for name in OUTCOMES}
    listed = [VerifiedSource(label=d["label"], url=d["url"], status=d["status"], error=d.get("error"),
                             characters=len(d.get("markdown", ""))) for d in documents]
    return VerifyOutput(verdicts=verdicts, summary={"claims": len(verdicts), **counts}, sources=listed,
                        judged=judged, judge_note=note)


async def _judge(claims: list[Any], assessments: list[Any], lang: str, settings: Settings) -> tuple[bool, str]:
    """The model decides the uncertain sentences, as in ``research verify``; (all decided, why not)."""
    if not any(a.outcome == "uncertain" for a in assessments):
        return True, ""
    from research.modules.llm.model_manager import ModelManager
    from research.nodes.verification import judge_uncertain

    model = ModelManager(settings)
    try:
        await model.ensure_ready()
    except UserFacingError as exc:
        return False, exc.message(lang)
    errors: list[Any] = []
    complete = await judge_uncertain(claims, assessments, ["lexical"] * len(claims), lang, model,
                                     settings.num_ctx, errors)
    return complete, "; ".join(e.message for e in errors)


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

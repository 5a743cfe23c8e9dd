"""Our web-search MCP server (stdio), with the tools of the widely used web-search-mcp.

Tools: ``full-web-search`` (search, fetch and extract each result),
``get-web-search-summaries`` (search only) and ``get-single-web-page-content``
(fetch and extract one URL). Each returns readable text for any MCP client plus
structured content our own client reads.

Run: ``research mcp web-search --cache-dir DIR`` or
``python -m research.servers.web.server --cache-dir DIR``. Settings come from
the environment (``RESEARCH_*``), which is how the client passes the parent's flags.
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import os
import sys
from pathlib import Path
from typing import Annotated

from mcp.server.mcpserver import MCPServer
from mcp_types import CallToolResult, TextContent, ToolAnnotations
from pydantic import BaseModel, Field

from research.modules.core.errors import UserFacingError
from research.modules.parsing.extraction import UnsupportedContent, extract
from research.servers.web.fetcher import FetchResult, FetchSettings, PageFetcher, SourceCache, make_http_client
from research.modules.core.language import detect_language
from research.servers.web.engines import EngineChain, EngineResult, build_engines
from research.modules.core.settings import Settings, load_settings
from research.servers.web.url_safety import URLGuard, canonical_url

SERVER_NAME = "research-web-search"
DEFAULT_MAX_CONTENT = 20_000


class WebResult(BaseModel):
    """One search result or page, as the tools return it."""

    url: str
    canonical_url: str
    final_url: str | None = None
    title: str = ""
    description: str = ""  # the engine's snippet
    engine: str = ""
    language: str = ""  # language of the query (of the page for get-single-web-page-content)
    cache_path: str | None = None  # raw bytes in the session's sources/
    media_type: str | None = None  # what the bytes really are (sniffed), with the charset that decoded them
    content: str = ""  # extracted Markdown, cut at maxContentLength
    content_truncated: bool = False
    fetch_error: str | None = None
    retrieved_at: str | None = None


class SearchResponse(BaseModel):
    query: str
    language: str
    engine: str  # the engine that answered; "" when none did
    results: list[WebResult]
    notes: list[str] = Field(default_factory=list)  # fallbacks and why


class WebSearchService:
    """Engines, fetcher and extraction, built once per server process."""

    def __init__(self, settings: Settings, cache_dir: Path, limits: FetchSettings | None = None) -> None:
        self.settings = settings
        self.limits = limits or FetchSettings()
        self.client = make_http_client(self.limits)
        guard = URLGuard(
            allow_private_network=settings.allow_private_network,
            always_allowed=[settings.searxng_url.rstrip("/") + "/search"] if settings.searxng_url else [],
        )
        self.engines: EngineChain = build_engines(settings, self.client, guard)
        local = self.engines.local
        self.fetcher = PageFetcher(
            self.client, SourceCache(cache_dir), guard, self.limits, local_root=local.docs_dir if local else None
        )

    async def aclose(self) -> None:
        await self.client.aclose()

    async def search(self, query: str, limit: int, include_content: bool, max_content: int) -> SearchResponse:
        language = detect_language(query)
        found = await self.engines.search(query, language=language, limit=limit)
        hits = _dedupe(found.results)[:limit]
        if include_content:
            results = await asyncio.gather(*(self._fetch_hit(hit, language, max_content) for hit in hits))
        else:
            results = [_bare_result(hit, language) for hit in hits]
        return SearchResponse(query=query, language=language, engine=found.engine, results=list(results), notes=found.notes)

    async def page(self, url: str, max_content: int) -> WebResult:
        fetched = await self.fetcher.fetch(url)
        result = WebResult(url=url, canonical_url=canonical_url(url))
        await self._fill_from_fetch(result, fetched, max_content)
        if result.content:
            result.language = detect_language(result.content[:4000])
        return result

    async def _fetch_hit(self, hit: EngineResult, language: str, max_content: int) -> WebResult:
        result = _bare_result(hit, language)
        await self._fill_from_fetch(result, await self.fetcher.fetch(hit.url), max_content)
        return result

    async def _fill_from_fetch(self, result: WebResult, fetched: FetchResult, max_content: int) -> None:
        result.final_url = fetched.final_url
        result.retrieved_at = fetched.retrieved_at
        result.cache_path = fetched.cache_path
        result.media_type = fetched.media_type
        if fetched.error or fetched.data is None:
            result.fetch_error = fetched.error or "no data"
            return
        try:
            # Extraction is CPU work (lxml, pdfminer): off the loop so other pages keep downloading.
            extracted = await asyncio.to_thread(extract, fetched.data, fetched.media_type, fetched.final_url)
        except UnsupportedContent as exc:
            result.fetch_error = f"unsupported content: {exc}"
            return
        result.media_type = extracted.media_type
        if extracted.text_encoding:
            # The parser re-reads the raw bytes from cache_path: tell it the charset that worked,
            # which for a header-only charset (no <meta>) is nowhere in the bytes themselves.
            result.media_type += f"; charset={extracted.text_encoding}"
        result.title = result.title or extracted.title
        content = extracted.markdown
        if len(content) > max_content:
            content, result.content_truncated = content[:max_content], True
        result.content = content


def _bare_result(hit: EngineResult, language: str) -> WebResult:
    return WebResult(url=hit.url, canonical_url=canonical_url(hit.url), title=hit.title,
                     description=hit.snippet, engine=hit.engine, language=language)


def _dedupe(hits: list[EngineResult]) -> list[EngineResult]:
    seen: set[str] = set()
    unique = []
    for hit in hits:
        key = canonical_url(hit.url)
        if key not in seen:
            seen.add(key)
            unique.append(hit)
    return unique


# --------------------------------------------------------------------------- text output


def render_search(response: SearchResponse, with_content: bool) -> str:
    """Text in the shape of web-search-mcp's output, for clients that only read text."""
    if not response.engine:
        lines = [f'Search failed for "{response.query}": no search engine answered.']
        lines += [f"Note: {note}" for note in response.notes]
        return "\n".join(lines)
    lines = [f'Search completed for "{response.query}" with {len(response.results)} results (engine: {response.engine}):']
    lines += [f"Note: {note}" for note in response.notes]
    lines.append("")
    for number, result in enumerate(response.results, start=1):
        lines.append(f"**{number}. {result.title or result.url}**")
        lines.append(f"URL: {result.url}")
        lines.append(f"Description: {result.description}")
        if with_content:
            if result.fetch_error:
                lines.append(f"Content error: {result.fetch_error}")
            else:
                lines.append("**Full Content:**")
                lines.append(result.content + (" [truncated]" if result.content_truncated else ""))
        lines += ["", "---", ""]
    return "\n".join(lines).rstrip("-\n ") + "\n"


def render_page(result: WebResult) -> str:
    if result.fetch_error:
        return f"Failed to get content from {result.url}: {result.fetch_error}"
    head = [f"**Page Content from: {result.url}**", f"Title: {result.title}", f"Media type: {result.media_type}", ""]
    return "\n".join(head) + result.content + (" [truncated]" if result.content_truncated else "")


# --------------------------------------------------------------------------- the MCP server


def build_server(service: WebSearchService) -> MCPServer:
    server = MCPServer(
        SERVER_NAME,
        instructions="Web search with page fetching and main-text extraction (Japanese and English).",
        log_level="WARNING",  # stderr is the user's terminal or the session log: no per-request chatter
    )
    read_only = ToolAnnotations(read_only_hint=True, open_world_hint=True)

    @server.tool(
        name="full-web-search",
        description="Search the web and fetch each result's page, returning its main text as Markdown.",
        annotations=read_only,
    )
    async def full_web_search(
        query: Annotated[str, Field(min_length=1, description="Search query")],
        limit: Annotated[int, Field(ge=1, le=10, description="Number of results (1-10)")] = 5,
        includeContent: Annotated[bool, Field(description="Fetch and extract each page")] = True,  # noqa: N803 - the public tool's name
        maxContentLength: Annotated[int | None, Field(ge=100, description="Cut each page's text at this many characters")] = None,  # noqa: N803
    ) -> Annotated[CallToolResult, SearchResponse]:
        response = await service.search(query, limit, includeContent, maxContentLength or DEFAULT_MAX_CONTENT)
        return _tool_result(render_search(response, includeContent), response, failed=not response.engine)

    @server.tool(
        name="get-web-search-summaries",
        description="Search the web and return titles, URLs and descriptions only (no page fetching).",
        annotations=read_only,
    )
    async def get_web_search_summaries(
        query: Annotated[str, Field(min_length=1, description="Search query")],
        limit: Annotated[int, Field(ge=1, le=10, description="Number of results (1-10)")] = 5,
    ) -> Annotated[CallToolResult, SearchResponse]:
        response = await service.search(query, limit, False, DEFAULT_MAX_CONTENT)
        return _tool_result(render_search(response, False), response, failed=not response.engine)

    @server.tool(
        name="get-single-web-page-content",
        description="Fetch one web page (HTML, PDF or text) and return its main text as Markdown.",
        annotations=read_only,
    )
    async def get_single_web_page_content(
        url: Annotated[str, Field(min_length=1, description="The page URL (http or https)")],
        maxContentLength: Annotated[int | None, Field(ge=100, description="Cut the text at this many characters")] = None,  # noqa: N803
    ) -> Annotated[CallToolResult, WebResult]:
        result = await service.page(url, maxContentLength or DEFAULT_MAX_CONTENT)
        return _tool_result(render_page(result), result, failed=result.fetch_error is not None)

    return server


def _tool_result(text: str, payload: BaseModel, *, failed: bool) -> CallToolResult:
    return CallToolResult(
        content=[TextContent(type="text", text=text)],
        structured_content=payload.model_dump(mode="json"),
        is_error=failed,
    )


def default_cache_dir() -> Path:
    base = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache")
    return base / "research" / "sources"


async def _serve(settings: Settings, cache_dir: Path) -> None:
    logging.getLogger("httpx").setLevel(logging.WARNING)
    service = WebSearchService(settings, cache_dir)
    try:
        await build_server(service).run_stdio_async()
    finally:
        await service.aclose()


def serve(cache_dir: str | None) -> None:
    """Run the server on stdio until the client closes it. Settings from ``RESEARCH_*``."""
    settings = load_settings()
    import anyio

    anyio.run(_serve, settings, Path(cache_dir) if cache_dir else default_cache_dir())


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="research mcp web-search", description=__doc__.splitlines()[0])
    parser.add_argument("--cache-dir", help="where fetched bytes are kept (a session's sources/ folder)")
    args = parser.parse_args(argv)
    try:
        serve(args.cache_dir)
    except UserFacingError as exc:
        print(exc.message("en"), file=sys.stderr)
        return exc.exit_code
    except KeyboardInterrupt:
        return 0
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""Our web-search MCP server (stdio), with the tools of the widely used web-search-mcp.

Tools: ``full-web-search`` (search, fetch and extract each result),
``get-web-search-summaries`` (search only) and ``get-single-web-page-content``
(fetch and extract one URL). Each returns readable text for any MCP client plus
structured content our own client reads.

This process has the network, so it never parses what it fetches. Our own client asks
``full-web-search`` with ``rawBytes`` and gets the cached bytes' path and media type; the
pipeline parses them in the sandbox. When another host wants page text (and when the
local engine indexes ``--docs`` files) the extraction is delegated to the same sandboxed
parser server, started on first need (``ContainerProcessor``).

Run: ``research mcp web-search --cache-dir DIR`` or
``python -m research.servers.web.server --cache-dir DIR``. Settings come from
the environment (``RESEARCH_*``), which is how the client passes the parent's flags.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import logging
import os
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Callable, Iterator

import anyio
import anyio.to_thread
from mcp_types import CallToolResult, TextContent, ToolAnnotations
from mcp.server.mcpserver import Context
from mcp.server.mcpserver.exceptions import ToolError
from pydantic import BaseModel, Field

from research.modules.core.errors import EXIT_USAGE, DocumentFailed, UserFacingError
from research.modules.core.language import Language
from research.modules.core.language import detect_language
from research.modules.core.settings import FetchSettings, Settings, load_fetch_settings, load_settings
from research.modules.core.urls import canonical_url
from research.servers.mcp_support import ResearchMCPServer, exit_now, usable_cache_dir

if TYPE_CHECKING:  # imported when the service is built (engines, fetcher: httpx) or first parses
    from research.modules.clients.parser_client import ContainerProcessor
    from research.servers.web.engines import EngineChain, EngineResult
    from research.servers.web.fetcher import FetchResult, SourceCache
    from research.state.models import ParsedDocument

SERVER_NAME = "research-web-search"
DEFAULT_MAX_CONTENT = 20_000
# What both search tools take: one type each, so a description or a bound is written once.
Query = Annotated[str, Field(min_length=1, description="Search query")]
Limit = Annotated[int, Field(ge=1, le=10, description="Number of results (1-10)")]


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
    language: Language
    engine: str  # the engine that answered; "" when none did
    results: list[WebResult]
    notes: list[str] = Field(default_factory=list)  # fallbacks and why


class WebSearchService:
    """Engines and fetcher, built once per server process; the parser only when needed."""

    def __init__(self, settings: Settings, cache_dir: Path, limits: FetchSettings | None = None,
                 cache_root: Path | None = None) -> None:
        from research.servers.web.engines import EngineContext, build_engines, configured_endpoints
        from research.servers.web.fetcher import PageFetcher, SourceCache, make_http_client
        from research.servers.web.url_safety import URLGuard

        self.settings = settings
        self.cache_dir = cache_dir
        # Set when one server serves several sessions: each call may name its own cache
        # folder (``cacheDir``), which must lie under this root.
        self.cache_root = cache_root.resolve() if cache_root is not None else None
        self._caches: dict[Path, SourceCache] = {}
        self.limits = limits or FetchSettings()
        self.client = make_http_client(self.limits)
        guard = URLGuard(allow_private_network=settings.allow_private_network,
                         always_allowed=configured_endpoints(settings))
        self.engines: EngineChain = build_engines(settings, EngineContext(self.client, guard, self._read_local_file))
        self.fetcher = PageFetcher(self.client, SourceCache.for_limits(cache_dir, self.limits), guard, self.limits,
                                   local_root=settings.docs_dir)
        self._parser: ContainerProcessor | None = None
        self._parser_lock = asyncio.Lock()

    async def aclose(self) -> None:
        if self._parser is not None:
            await self._parser.aclose()
        await self.client.aclose()

    async def _parse(self, path: str | None, media_type: str | None, url: str, data: bytes | None = None) -> ParsedDocument:
        """Extraction in the sandboxed parser, started on first use and kept for the next: of a
        cached file (``path``) or of ``data`` sent inline."""
        async with self._parser_lock:
            if self._parser is None:
                from research.modules.clients.parser_client import ContainerProcessor

                processor = ContainerProcessor(self.settings, self.cache_root or self.cache_dir)
                try:
                    await processor.start()
                except BaseException:
                    await processor.aclose()
                    raise
                self._parser = processor
        return await self._parser.parse(path=path, text=None, media_type=media_type or "", url=url, data=data)

    async def _read_local_file(self, path: Path, media_type: str) -> tuple[str, str]:
        """One file of the documents folder, read once (never through a link swapped in since
        the folder was listed) and sent to the parser as it is. Not through the page cache: a
        shared server's is the user's (~/.cache/research/sources, size-capped), which took a copy
        of every document and, on each, read every entry it held to evict the oldest (the bench's
        1,145 pages took 4 min of the server's CPU against 18,000 cached entries). A search hit
        on the file is fetched into its session's sources/ as before."""
        from research.servers.web.engines.local import MAX_LOCAL_FILE_BYTES
        from research.servers.web.fetcher import read_inside

        assert self.fetcher.local_root is not None  # the local engine runs only with a documents folder
        data = read_inside(path, self.fetcher.local_root, MAX_LOCAL_FILE_BYTES)
        parsed = await self._parse(None, media_type, path.as_uri(), data)
        return parsed.title, parsed.markdown

    def cache_for(self, folder: str | None) -> SourceCache | None:
        """The cache a call named (``cacheDir``), which must be under the server's cache root."""
        if not folder:
            return None
        if self.cache_root is None:
            raise ToolError("cacheDir is only accepted by a server started with --cache-root")
        path = Path(os.path.realpath(folder))
        if path != self.cache_root and self.cache_root not in path.parents:
            raise ToolError("cacheDir must be inside the server's cache root")
        cache = self._caches.get(path)
        if cache is None:
            from research.servers.web.fetcher import SourceCache

            try:
                cache = self._caches[path] = SourceCache.for_limits(path, self.limits)
            except OSError as exc:
                raise ToolError(f"cacheDir cannot be used: {exc.strerror or exc}") from None
        return cache

    async def search(self, query: str, limit: int, include_content: bool, max_content: int,
                     raw_bytes: bool = False, cache: SourceCache | None = None) -> SearchResponse:
        language = detect_language(query)
        found = await self.engines.search(query, language=language, limit=limit)
        hits = _dedupe(found.results)[:limit]
        if include_content or raw_bytes:
            results = await asyncio.gather(*(self._fetch_hit(hit, language, max_content, raw_bytes, cache)
                                             for hit in hits))
        else:
            results = [_bare_result(hit, language) for hit in hits]
        return SearchResponse(query=query, language=language, engine=found.engine, results=list(results), notes=found.notes)

    async def page(self, url: str, max_content: int) -> WebResult:
        fetched = await self.fetcher.fetch(url)
        result = WebResult(url=url, canonical_url=canonical_url(url))
        await self._fill_from_fetch(result, fetched, max_content, raw_bytes=False)
        if result.content:
            result.language = detect_language(result.content[:4000])
        return result

    async def _fetch_hit(self, hit: EngineResult, language: Language, max_content: int, raw_bytes: bool,
                         cache: SourceCache | None = None) -> WebResult:
        result = _bare_result(hit, language)
        await self._fill_from_fetch(result, await self.fetcher.fetch(hit.url, cache), max_content, raw_bytes)
        return result

    async def _fill_from_fetch(self, result: WebResult, fetched: FetchResult, max_content: int, raw_bytes: bool) -> None:
        result.final_url = fetched.final_url
        result.retrieved_at = fetched.retrieved_at
        result.cache_path = fetched.cache_path
        result.media_type = fetched.media_type  # as the server declared it, charset included
        if fetched.error or fetched.data is None or fetched.cache_path is None:
            result.fetch_error = fetched.error or "no data"
            return
        if raw_bytes:
            return  # the client parses the bytes at cache_path itself, in its sandbox
        try:
            parsed = await self._parse(fetched.cache_path, fetched.media_type, fetched.final_url)
        except DocumentFailed as exc:
            result.fetch_error = f"could not be read: {exc}"
            return
        except UserFacingError as exc:  # the sandbox itself is unavailable
            result.fetch_error = exc.message("en")
            return
        result.title = result.title or parsed.title
        content = parsed.markdown
        if len(content) > max_content:
            content, result.content_truncated = content[:max_content], True
        result.content = content


class ServiceInBackground:
    """The ``WebSearchService``, built in a worker thread as soon as the server runs: what it
    imports (httpx, the engines, the fetcher) then overlaps the handshake instead of delaying
    the answer to ``initialize``. Every tool call waits for it (by then long done)."""

    def __init__(self, build: Callable[[], WebSearchService]) -> None:
        self._build = build
        self._service: WebSearchService | None = None
        self._failure: str | None = None
        self._built = anyio.Event()

    async def run(self) -> None:
        try:
            self._service = await anyio.to_thread.run_sync(self._build)
        except Exception as exc:  # noqa: BLE001 - every call then says why
            self._failure = f"{type(exc).__name__}: {exc}"
        finally:
            self._built.set()

    async def get(self) -> WebSearchService:
        await self._built.wait()
        if self._service is None:
            raise ToolError(f"the web-search service could not start ({self._failure})")
        return self._service

    async def aclose(self) -> None:
        if self._service is not None:
            await self._service.aclose()


def _bare_result(hit: EngineResult, language: Language) -> WebResult:
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


def build_server(services: ServiceInBackground) -> ResearchMCPServer:
    server = ResearchMCPServer(
        SERVER_NAME, instructions="Web search with page fetching and main-text extraction (Japanese and English).",
    )
    read_only = ToolAnnotations(read_only_hint=True, open_world_hint=True)

    @server.tool(
        name="full-web-search",
        description="Search the web and fetch each result's page, returning its main text as Markdown.",
        annotations=read_only,
    )
    async def full_web_search(
        query: Query,
        limit: Limit = 5,
        includeContent: Annotated[bool, Field(description="Fetch and extract each page")] = True,  # noqa: N803 - the public tool's name
        maxContentLength: Annotated[int | None, Field(ge=100, description="Cut each page's text at this many characters")] = None,  # noqa: N803
        rawBytes: Annotated[bool, Field(description=(  # noqa: N803
            "Fetch each page but do not extract it: return where its bytes are cached (cache_path) and "
            "their media type, for a client that parses them itself"))] = False,
        cacheDir: Annotated[str | None, Field(max_length=4096, description=(  # noqa: N803
            "Where to keep the fetched bytes: a folder inside the server's --cache-root "
            "(a server shared by several sessions)"))] = None,
        ctx: Context | None = None,
    ) -> Annotated[CallToolResult, SearchResponse]:
        service = await services.get()
        cache = service.cache_for(cacheDir)
        with _progress_said_to(ctx):
            response = await service.search(query, limit, includeContent, maxContentLength or DEFAULT_MAX_CONTENT,
                                            rawBytes, cache)
        return _search_result(response, with_content=includeContent and not rawBytes)

    @server.tool(
        name="get-web-search-summaries",
        description="Search the web and return titles, URLs and descriptions only (no page fetching).",
        annotations=read_only,
    )
    async def get_web_search_summaries(query: Query, limit: Limit = 5,
                                       ctx: Context | None = None) -> Annotated[CallToolResult, SearchResponse]:
        service = await services.get()
        with _progress_said_to(ctx):
            response = await service.search(query, limit, False, DEFAULT_MAX_CONTENT)
        return _search_result(response, with_content=False)

    @server.tool(
        name="get-single-web-page-content",
        description="Fetch one web page (HTML, PDF or text) and return its main text as Markdown.",
        annotations=read_only,
    )
    async def get_single_web_page_content(
        url: Annotated[str, Field(min_length=1, description="The page URL (http or https)")],
        maxContentLength: Annotated[int | None, Field(ge=100, description="Cut the text at this many characters")] = None,  # noqa: N803
    ) -> Annotated[CallToolResult, WebResult]:
        service = await services.get()
        result = await service.page(url, maxContentLength or DEFAULT_MAX_CONTENT)
        return _tool_result(render_page(result), result, failed=result.fetch_error is not None)

    return server


@contextlib.contextmanager
def _progress_said_to(ctx: Context | None) -> Iterator[None]:
    """While a search waits for the documents folder's index, MCP progress notifications say
    how many files are read (when the host asked for progress): our client waits on as long
    as they come, where a silent server is given up after its call timeout."""
    from research.servers.web.engines.base import INDEXING_PROGRESS

    async def report(done: int, total: int) -> None:
        if ctx is not None:
            await ctx.report_progress(done, total, f"indexing the documents folder: {done} of {total} files read")

    token = INDEXING_PROGRESS.set(report)
    try:
        yield
    finally:
        INDEXING_PROGRESS.reset(token)


def _tool_result(text: str, payload: BaseModel, *, failed: bool) -> CallToolResult:
    return CallToolResult(
        content=[TextContent(type="text", text=text)],
        structured_content=payload.model_dump(mode="json"),
        is_error=failed,
    )


def _search_result(response: SearchResponse, *, with_content: bool) -> CallToolResult:
    """Both search tools' result: an error when no engine answered (the notes say why)."""
    return _tool_result(render_search(response, with_content), response, failed=not response.engine)


def default_cache_dir() -> Path:
    base = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache")
    return base / "research" / "sources"


async def _serve(settings: Settings, cache_dir: Path, cache_root: Path | None = None) -> None:
    logging.getLogger("httpx").setLevel(logging.WARNING)
    services = ServiceInBackground(lambda: WebSearchService(settings, cache_dir, cache_root=cache_root))
    async with anyio.create_task_group() as tasks:
        tasks.start_soon(services.run)
        try:
            await build_server(services).run_stdio_async()
        finally:
            tasks.cancel_scope.cancel()  # a build still under way finishes (a thread), then stops here
            with anyio.CancelScope(shield=True):
                await services.aclose()


def serve(cache_dir: str | None, cache_root: str | None = None) -> int:
    """Run the server on stdio until the client closes it. Settings from ``RESEARCH_*``.
    A bad setting or an unusable ``--cache-dir``/``--cache-root`` is one line on stderr and exit 2.
    ``cache_root``: the server is shared by several sessions; each call names its cache
    folder under it (``cacheDir``)."""
    try:
        settings = load_settings()
        load_fetch_settings()  # a bad RESEARCH_FETCH_* value fails here, not mid-search
    except UserFacingError as exc:
        print(f"research mcp web-search: {exc.message('en')}", file=sys.stderr)
        return exc.exit_code
    folders: list[Path] = []  # the cache folder, then the shared root when one is given
    for raw in (cache_dir or str(default_cache_dir()), cache_root):
        if raw is None:
            continue
        try:
            folders.append(usable_cache_dir(raw))
        except (OSError, ValueError) as exc:
            reason = getattr(exc, "strerror", None) or str(exc)
            from research.modules.core.i18n import t

            print(f"research mcp web-search: {t('servers.bad_cache_dir', 'en', path=raw, reason=reason)}",
                  file=sys.stderr)
            return EXIT_USAGE
    try:
        anyio.run(_serve, settings, folders[0], folders[1] if len(folders) > 1 else None)
    except KeyboardInterrupt:
        pass
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="research mcp web-search", description=__doc__.splitlines()[0])
    parser.add_argument("--cache-dir", help="where fetched bytes are kept (a session's sources/ folder)")
    parser.add_argument("--cache-root", help="serve several sessions: each call's cacheDir must be inside this folder")
    args = parser.parse_args(argv)
    return serve(args.cache_dir, args.cache_root)


if __name__ == "__main__":
    exit_now(main())

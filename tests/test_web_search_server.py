"""The real web-search MCP server over real stdio, driven by the real `mcp` client and by
WebSearchClient, against the local web fixture (searxng engine pointing at it)."""

from __future__ import annotations

import json
import os
import signal
import sys
import time
from pathlib import Path

import pytest
import pytest_asyncio
from mcp import Client, StdioServerParameters

from fixtures.processes import web_search_servers
from fixtures.web_fixture import BOILERPLATE_MARKERS, FUJI_EN, FUJI_PDF_JA, FUJI_SJIS, LANGGRAPH_EN, WebFixture
from research.modules.core.errors import UsageError
from research.modules.clients.web_search_client import WebSearchClient, WebSearchServerError, settings_environment
from research.modules.core.settings import Settings
from research.workflow.dependencies import SearchUnavailable

pytestmark = pytest.mark.asyncio(loop_scope="module")


@pytest.fixture(scope="module")
def web():
    with WebFixture(slow_delay=4.0) as fixture:
        yield fixture


@pytest.fixture(scope="module", autouse=True)
def short_fetch_timeout():
    # Read by WebSearchClient when it builds the child's environment.
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("RESEARCH_FETCH_TIMEOUT", "1.5")
        yield


@pytest_asyncio.fixture(scope="module", loop_scope="module")
async def shared(web: WebFixture, tmp_path_factory: pytest.TempPathFactory):
    """One server for the tests that only read: starting one costs seconds (imports)."""
    cache = tmp_path_factory.mktemp("shared") / "sources"
    async with WebSearchClient(fixture_settings(web), cache) as client:
        yield client


def fixture_settings(web: WebFixture, **overrides) -> Settings:
    values = {"search_engine": "searxng", "searxng_url": web.base_url, "allow_private_network": True, **overrides}
    return Settings(**values)


def server_params(settings: Settings, cache_dir: Path) -> StdioServerParameters:
    env = settings_environment(settings) | {"RESEARCH_FETCH_TIMEOUT": "1.5"}
    return StdioServerParameters(command=sys.executable, args=["-m", "research.servers.web.server", "--cache-dir", str(cache_dir)], env=env)


async def test_tool_list_and_schemas(web: WebFixture, tmp_path: Path) -> None:
    async with Client(server_params(fixture_settings(web), tmp_path / "sources")) as client:
        tools = {tool.name: tool for tool in (await client.list_tools()).tools}
        assert set(tools) == {"full-web-search", "get-web-search-summaries", "get-single-web-page-content"}
        full = tools["full-web-search"].input_schema
        assert full["required"] == ["query"]
        assert full["properties"]["limit"]["minimum"] == 1 and full["properties"]["limit"]["maximum"] == 10
        assert full["properties"]["limit"]["default"] == 5
        assert full["properties"]["includeContent"]["default"] is True
        assert "maxContentLength" in full["properties"]
        assert tools["get-web-search-summaries"].input_schema["required"] == ["query"]
        assert tools["get-single-web-page-content"].input_schema["required"] == ["url"]
        result_fields = tools["full-web-search"].output_schema["$defs"]["WebResult"]["properties"]
        for name in ("url", "canonical_url", "title", "description", "engine", "language", "cache_path", "media_type", "content", "fetch_error", "retrieved_at"):
            assert name in result_fields

        summaries = await client.call_tool("get-web-search-summaries", {"query": "Mount Fuji eruption", "limit": 2})
        assert not summaries.is_error
        rows = summaries.structured_content["results"]
        assert len(rows) <= 2 and rows[0]["url"] == web.url(FUJI_EN.path) and rows[0]["content"] == ""
        assert "URL: " + web.url(FUJI_EN.path) in summaries.content[0].text

        page = await client.call_tool("get-single-web-page-content", {"url": web.url(FUJI_SJIS.path), "maxContentLength": 100})
        assert not page.is_error
        assert page.structured_content["language"] == "ja" and page.structured_content["content_truncated"]
        assert page.structured_content["content"].startswith("# 富士登山の案内")

        loop = await client.call_tool("get-single-web-page-content", {"url": web.url("/loop/a")})
        assert loop.is_error and "redirect loop" in loop.content[0].text

        bad = await client.call_tool("full-web-search", {"query": "x", "limit": 11})
        assert bad.is_error  # the schema's bounds are enforced


async def test_full_search_fetches_raw_bytes_for_the_pipeline_and_caches(web: WebFixture, shared: WebSearchClient) -> None:
    """Our own client gets bytes + metadata, no extracted text: the pipeline parses the
    cached bytes once, in the sandbox."""
    cache = shared.cache_dir
    ws = shared
    hits = await ws.search("富士山の最後の噴火 宝永", language="ja", limit=6)
    by_path = {hit.url.removeprefix(web.base_url): hit for hit in hits}
    assert FUJI_PDF_JA.path in by_path and FUJI_SJIS.path in by_path
    pdf = by_path[FUJI_PDF_JA.path]
    assert pdf.media_type == "application/pdf" and pdf.content == ""
    assert Path(pdf.cache_path).read_bytes().startswith(b"%PDF")
    for hit in hits:
        assert hit.language == "ja" and hit.engine == "searxng" and hit.query == "富士山の最後の噴火 宝永"
        assert hit.fetch_error is None and hit.retrieved_at and hit.content == ""
        assert hit.cache_path and Path(hit.cache_path).parent == cache and Path(hit.cache_path).is_file()
        assert hit.media_type  # the HTTP Content-Type, charset included, for the parser
    fetched_before = len(web.requests_for(FUJI_SJIS.path))
    again = await ws.search("富士山の最後の噴火 宝永", language="ja", limit=6)
    assert [h.url for h in again] == [h.url for h in hits]
    assert len(web.requests_for(FUJI_SJIS.path)) == fetched_before  # served from sources/
    assert (cache.parent / "web-search-server.log").exists()


async def test_slow_page_costs_only_itself(web: WebFixture, shared: WebSearchClient) -> None:
    # "tortoise" matches the slow page; "Fuji" the fast ones: one search returns both.
    web.articles[-1].paragraphs.append("Mount Fuji is visible from the tortoise garden.")
    try:
        started = time.monotonic()
        hits = await shared.search("tortoise Mount Fuji", language="en", limit=5)
        elapsed = time.monotonic() - started
    finally:
        web.articles[-1].paragraphs.pop()
    slow = [h for h in hits if "tortoise" in h.url]
    fast = [h for h in hits if "tortoise" not in h.url]
    assert slow and "timed out" in (slow[0].fetch_error or "")
    assert fast and all(h.fetch_error is None and h.cache_path for h in fast)
    assert elapsed < 4.0  # bounded by the 1.5 s page timeout, not by the 4 s slow page


async def test_ssrf_guard_refuses_loopback_unless_allowed(web: WebFixture, tmp_path: Path) -> None:
    settings = fixture_settings(web, allow_private_network=False)
    before = len(web.requests_for(LANGGRAPH_EN.path))
    async with WebSearchClient(settings, tmp_path / "sources") as ws:
        # The configured SearXNG endpoint is allowed; the loopback pages it returns are not.
        hits = await ws.search("LangGraph checkpoints", language="en", limit=3)
        assert hits and all("SSRF" in (h.fetch_error or "") for h in hits)
        assert all(h.cache_path is None and h.content == "" for h in hits)
        page = await ws.call("get-single-web-page-content", {"url": web.url(LANGGRAPH_EN.path)})
        assert page.is_error and "SSRF" in page.content[0].text
    assert len(web.requests_for(LANGGRAPH_EN.path)) == before


async def test_fallback_to_local_documents_when_searxng_is_down(tmp_path: Path) -> None:
    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "fuji.md").write_text("# 富士山\n\n富士山の標高は3,776メートルです。", "utf-8")
    (docs / "tea.txt").write_text("Green tea notes.", "utf-8")
    settings = Settings(search_engine="searxng", searxng_url="http://127.0.0.1:9", docs_dir=docs, search_fallback=True)
    async with WebSearchClient(settings, tmp_path / "sources") as ws:
        hits = await ws.search("富士山の標高", language="ja", limit=3)
    assert hits[0].engine == "local" and hits[0].url == (docs / "fuji.md").as_uri()
    assert "3,776メートル" in hits[0].snippet and hits[0].cache_path
    assert "3,776メートル" in Path(hits[0].cache_path).read_text("utf-8")


async def test_no_engine_answering_raises_search_unavailable(tmp_path: Path) -> None:
    settings = Settings(search_engine="local", docs_dir=tmp_path / "nowhere")
    async with WebSearchClient(settings, tmp_path / "sources") as ws:
        with pytest.raises(SearchUnavailable, match="does not exist"):
            await ws.search("anything", language="en", limit=3)


async def test_crashed_server_is_restarted_and_the_call_retried(web: WebFixture, tmp_path: Path) -> None:
    cache = tmp_path / "crash-sources"
    async with WebSearchClient(fixture_settings(web), cache) as ws:
        assert await ws.search("Mount Fuji", language="en", limit=1)
        for crash in (1, 2):  # every crash costs a restart, never the search
            (pid,) = web_search_servers(cache, parent=os.getpid())
            os.kill(pid, signal.SIGKILL)
            hits = await ws.search("Mount Fuji", language="en", limit=1)
            assert hits and ws.restarts == crash


CRASHING_SERVER = """
import os
from mcp.server.mcpserver import MCPServer
server = MCPServer("crashes")
@server.tool(name="full-web-search")
def search(query: str) -> str:
    os._exit(9)  # dies under every call, like a server with a fatal bug
server.run("stdio")
"""


async def test_a_server_that_crashes_again_after_its_restart_stops_the_step(tmp_path: Path) -> None:
    script = tmp_path / "crashing_server.py"
    script.write_text(CRASHING_SERVER)
    config = tmp_path / "mcp.json"
    config.write_text(json.dumps({"mcpServers": {"web-search": {"command": sys.executable, "args": [str(script)]}}}))
    async with WebSearchClient(Settings(mcp_config=config), tmp_path / "sources") as ws:
        with pytest.raises(WebSearchServerError) as caught:
            await ws.search("Mount Fuji", language="en", limit=1)
        assert ws.restarts == 1  # restarted once, the call retried once, then it gave up
    assert caught.value.exit_code == 1
    assert "--resume" in caught.value.message("en") and "再開" in caught.value.message("ja")


async def test_server_that_cannot_start_is_a_clear_error(tmp_path: Path) -> None:
    config = tmp_path / "mcp.json"
    config.write_text(json.dumps({"mcpServers": {"web-search": {"command": str(tmp_path / "no-such-binary")}}}))
    with pytest.raises(WebSearchServerError) as caught:
        async with WebSearchClient(Settings(mcp_config=config), tmp_path / "sources"):
            pass
    assert "no-such-binary" in caught.value.message("en") and "起動できません" in caught.value.message("ja")

    config.write_text(json.dumps({"mcpServers": {"other": {"command": sys.executable, "args": ["-c", "raise SystemExit(3)"]}}}))
    with pytest.raises(WebSearchServerError, match="server_failed"):
        async with WebSearchClient(Settings(mcp_config=config), tmp_path / "sources"):
            pass

    config.write_text("{not json")
    with pytest.raises(UsageError):
        WebSearchClient(Settings(mcp_config=config), tmp_path / "sources")


async def test_external_server_from_mcp_config(web: WebFixture, tmp_path: Path) -> None:
    """A server named in an mcpServers file (here: ours, started the way a user would)."""
    env = settings_environment(fixture_settings(web))
    config = tmp_path / "mcp.json"
    entry = {"command": sys.executable, "args": ["-m", "research.servers.web.server", "--cache-dir", str(tmp_path / "ext")], "env": env}
    config.write_text(json.dumps({"mcpServers": {"something-else": {"command": "false"}, "web-search": entry}}))
    async with WebSearchClient(Settings(mcp_config=config), tmp_path / "sources") as ws:
        hits = await ws.search("LangGraph checkpoints", language="en", limit=2)
    assert hits and hits[0].url.startswith(web.base_url) and "super-step" in hits[0].content

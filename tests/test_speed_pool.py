"""The server pool: one pair of MCP servers shared by several sessions (the REPL), spawned
before they are needed, and servers that leave by themselves when their stdin closes.

Only behaviour is checked here; how fast it is lives in benchmarks/."""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path

import pytest
from fixtures.processes import web_search_servers
from fixtures.web_fixture import WebFixture

from research.modules.clients.server_process import ServerLauncher
from research.modules.clients.web_search_client import settings_environment
from research.modules.core.settings import Settings
from research.orchestrator.server_pool import PooledLoop, ServerPool

def pool_settings(web: WebFixture, sessions: Path) -> Settings:
    return Settings(search_engine="searxng", searxng_url=web.base_url, allow_private_network=True,
                    sessions_dir=sessions)


async def test_one_pool_serves_two_sessions_each_into_its_own_sources(web: WebFixture, tmp_path: Path) -> None:
    sessions = tmp_path / "sessions"
    pool = ServerPool()
    await pool.start(pool_settings(web, sessions))
    try:
        first, second = sessions / "session_a", sessions / "session_b"
        for folder in (first, second):
            search, parser = pool.for_session(folder)
            hits = [hit for hit in await search.search("LangGraph checkpoints", language="en", limit=2) if hit.cache_path]
            assert hits, "the pages were fetched"
            for hit in hits:
                # The shared server wrote into this session's sources/, nothing elsewhere.
                assert Path(hit.cache_path).resolve().parent == (folder / "sources").resolve()
                parsed = await parser.parse(path=hit.cache_path, text=None, media_type=hit.media_type or "", url=hit.url)
                assert parsed.markdown.strip()
        assert pool.parser is search_parser_of(pool, first) is search_parser_of(pool, second)

        # A cache folder outside the sessions folder is refused by the server itself.
        outside = await pool.web_search.call("full-web-search", {"query": "LangGraph", "limit": 1, "rawBytes": True,
                                                                  "cacheDir": str(tmp_path / "elsewhere")})
        assert outside.is_error and "cache root" in outside.content[0].text
        assert not (tmp_path / "elsewhere").exists()
    finally:
        await pool.aclose()
    assert pool.web_search is None and pool.parser is None


def search_parser_of(pool: ServerPool, folder: Path):
    return pool.for_session(folder)[1]


async def test_changed_server_settings_replace_the_servers_and_others_do_not(web: WebFixture, tmp_path: Path) -> None:
    pool = ServerPool()
    settings = pool_settings(web, tmp_path / "sessions")
    await pool.start(settings, wait_spawned=True)
    try:
        web_search = pool.web_search
        await pool.start(settings.model_copy(update={"model": "another:7b", "language": "ja"}))
        assert pool.web_search is web_search  # the model and language are not the servers' business
        await pool.start(settings.model_copy(update={"allow_private_network": False}))
        assert pool.web_search is not web_search
    finally:
        await pool.aclose()


def test_pooled_loop_keeps_the_servers_between_runs(web: WebFixture, tmp_path: Path) -> None:
    host = PooledLoop()
    settings = pool_settings(web, tmp_path / "sessions")
    host.prestart(settings)
    try:
        async def server_pid(pool: ServerPool) -> int:
            await pool.start(settings)
            return await pool.parser.server_pid()

        first = host.run(server_pid)
        assert host.run(server_pid) == first  # the same parser process answers the next run
    finally:
        host.close()
    assert host.loop is None


async def test_a_team_worker_gives_its_servers_back_when_no_run_comes(web: WebFixture, tmp_path: Path,
                                                                       monkeypatch) -> None:
    # A worker keeps its servers between runs; left idle, it stops them (about 160 MB) and a
    # run that comes in time keeps them. SERVERS_IDLE_SECONDS is 300 s; 0.5 s here.
    from research.servers.research import http_worker

    monkeypatch.setattr(http_worker, "SERVERS_IDLE_SECONDS", 0.5)
    settings = pool_settings(web, tmp_path / "sessions")
    worker = http_worker.Worker(settings)
    try:
        await worker.servers.start(settings, wait_spawned=True)
        kept = worker.servers.parser
        (server,) = web_search_servers(tmp_path / "sessions")
        worker.servers_idle()  # a run ended
        await worker.servers_busy()  # the next one came in time
        await asyncio.sleep(1.0)
        assert worker.servers.parser is kept and web_search_servers(tmp_path / "sessions") == [server]
        worker.servers_idle()  # none comes
        for _ in range(300):  # stopping them takes a moment on a busy machine
            await asyncio.sleep(0.1)
            if not worker.servers.started and web_search_servers(tmp_path / "sessions") == []:
                break
        assert not worker.servers.started and web_search_servers(tmp_path / "sessions") == []
        await worker.servers_busy()  # a later run waits for the stop, then starts a fresh pair
        await worker.servers.start(settings, wait_spawned=True)
        assert worker.servers.parser is not kept and len(web_search_servers(tmp_path / "sessions")) == 1
    finally:
        await worker.servers_busy()
        await worker.servers.aclose()


@pytest.mark.parametrize("module", ["research.servers.web.server", "research.servers.parser.server"])
async def test_our_servers_leave_by_themselves_when_stdin_closes(web: WebFixture, tmp_path: Path, module: str) -> None:
    from mcp import Client

    env = settings_environment(pool_settings(web, tmp_path / "sessions"))
    args = ["-m", module] + (["--cache-dir", str(tmp_path / "cache")] if "web" in module else [])
    # No grace beyond the wait below and no SIGTERM: a server still there would be SIGKILLed.
    launcher = ServerLauncher(sys.executable, args, env, exit_grace=30.0, terminate_first=False)
    async with Client(launcher.transport()) as client:
        assert (await client.list_tools()).tools
    (process,) = launcher.spawned
    assert process.returncode == 0  # it exited on its own, not by a signal


async def test_a_run_that_ends_before_the_servers_answer_leaves_no_process(web: WebFixture, tmp_path: Path) -> None:
    pool = ServerPool()
    await pool.start(pool_settings(web, tmp_path / "sessions"), wait_spawned=True)
    processes = pool.web_search._launcher.spawned + pool.parser._launcher.spawned
    assert len(processes) == 2
    await pool.aclose()  # e.g. Ollama was not reachable: nothing waited for the servers
    await asyncio.sleep(0)
    assert all(process.returncode is not None for process in processes)

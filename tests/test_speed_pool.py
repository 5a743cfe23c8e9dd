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
        web_search, parser = pool.web_search, pool.parser
        await pool.start(settings.model_copy(update={"model": "another:7b", "language": "ja"}))
        assert pool.web_search is web_search  # the model and language are not the servers' business
        await pool.start(settings.model_copy(update={"allow_private_network": False}))
        assert pool.web_search is not web_search
        # A web-search setting is not the parser's: its sandboxed server goes on, still answering.
        assert pool.parser is parser and await parser.server_pid() > 0
        await pool.start(settings.model_copy(update={"allow_private_network": False, "parse_timeout": 45.0}))
        assert pool.parser is not parser and pool.web_search is not None  # the parser's own setting
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


async def _titled(found, seconds: float = 10.0) -> None:
    """Until ``found()`` (at most ``seconds``): the process finder reads command lines from
    /proc, and a server that has just answered was once not there yet under its own (a clean
    clone's CI run of 2026-11-29 found none at once; a forked server is titled after its fork)."""
    for _ in range(int(seconds / 0.05)):
        if found():
            return
        await asyncio.sleep(0.05)


async def test_kept_servers_are_handed_on_replaced_when_unfit_and_given_back_when_idle(
        web: WebFixture, tmp_path: Path, monkeypatch) -> None:
    # What a team worker and the research MCP server keep between runs (KeptServers), with
    # real servers. SERVERS_IDLE_SECONDS is 300 s; 0.5 s here.
    from research.orchestrator import server_pool

    monkeypatch.setattr(server_pool, "SERVERS_IDLE_SECONDS", 0.5)
    sessions, elsewhere = tmp_path / "sessions", tmp_path / "elsewhere"
    settings, other = pool_settings(web, sessions), pool_settings(web, elsewhere)
    kept = server_pool.KeptServers()
    try:
        async with kept.lease(settings) as first:
            await first.pool.start(settings, wait_spawned=True)  # as run_research starts it
            parser = first.pool.parser
            await _titled(lambda: len(web_search_servers(sessions)) == 1)
            (server,) = web_search_servers(sessions)
        async with kept.lease(settings) as second:  # the next run comes in time: the same pair
            await second.pool.start(settings, wait_spawned=True)
            await asyncio.sleep(1.0)  # longer than the idle delay: a held pair is not stopped
            assert second.pool.parser is parser and web_search_servers(sessions) == [server]
            # A run at once that needs other server settings gets a pair of its own, stopped
            # when it ends; starting the kept pair with them would replace it under this run.
            async with kept.lease(other) as beside:
                await beside.pool.start(other, wait_spawned=True)
                await _titled(lambda: len(web_search_servers(elsewhere)) == 1)
                assert beside.pool is not second.pool and len(web_search_servers(elsewhere)) == 1
            assert web_search_servers(elsewhere) == [] and web_search_servers(sessions) == [server]
            second.spoil()  # the run was stopped midway: its pair goes with it
        assert not kept.pool.started and web_search_servers(sessions) == []

        async with kept.lease(settings) as third:  # a fresh pair
            await third.pool.start(settings, wait_spawned=True)
            await _titled(lambda: len(web_search_servers(sessions)) == 1)
            assert third.pool.parser is not parser and len(web_search_servers(sessions)) == 1
        for _ in range(300):  # no run comes: stopping them takes a moment on a busy machine
            await asyncio.sleep(0.1)
            if not kept.pool.started and web_search_servers(sessions) == []:
                break
        assert not kept.pool.started and web_search_servers(sessions) == []
    finally:
        await kept.aclose()


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

"""A run's own servers leave as its report begins (orchestrator/runner.py,
``ServerPool.release``; issue 47): no step after it searches or parses, and the report is when
the run's own process holds most memory. A pool kept for other runs (the REPL's, a worker's)
is never released by a run."""

from __future__ import annotations

import asyncio
from pathlib import Path

from fixtures.web_fixture import WebFixture
from research.modules.core.settings import Settings
from research.orchestrator.runner import _servers_released_at_report
from research.orchestrator.server_pool import ServerPool
from research.state.progress_events import Message, NodeFinished, NodeStarted
from research.state.steps import REPORT, STEPS


class _CountingPool:
    def __init__(self) -> None:
        self.released = 0

    def release(self) -> None:
        self.released += 1


def test_only_the_report_s_start_releases_and_every_event_is_passed_on() -> None:
    pool, seen = _CountingPool(), []
    progress = _servers_released_at_report(seen.append, pool)  # type: ignore[arg-type]
    before = [NodeStarted(step.name) for step in STEPS if step.name != REPORT]
    for event in [*before, NodeFinished("verification"), Message("plan.review_skipped")]:
        progress(event)
    assert pool.released == 0  # a follow-up search may still come: the servers stay
    progress(NodeStarted(REPORT))
    assert pool.released == 1 and len(seen) == len(before) + 3


async def test_a_released_pool_s_servers_leave_before_it_is_closed(web: WebFixture, tmp_path: Path) -> None:
    pool = ServerPool()
    await pool.start(Settings(search_engine="searxng", searxng_url=web.base_url, allow_private_network=True,
                              sessions_dir=tmp_path / "sessions"))
    try:
        search, parser = pool.for_session(tmp_path / "sessions" / "session_a")
        assert await search.search("Mount Fuji", language="en", limit=1)  # both up and answering
        await parser.server_pid()
        processes = [*pool.web_search._launcher.spawned, *parser._launcher.spawned]
        assert processes and all(process.returncode is None for process in processes)
        pool.release()  # synchronous: the report that follows may hold the loop
        await asyncio.sleep(0)  # what steps.bind gives before a node runs
        for _ in range(600):  # they leave on their own: no close, no signal
            if all(process.returncode is not None for process in processes):
                break
            await asyncio.sleep(0.05)
        assert [process.returncode for process in processes] == [0] * len(processes)
        assert pool.web_search is not None and pool.parser is not None  # still the run's, until it closes them
    finally:
        await pool.aclose()

"""One request cannot stall the MCP research server (issue 22, item 6, the server's part).

`verify` refuses inputs over its limits with one clear line; its sentence checks run in a
child process, so the event loop stays free for other calls, and a check the client gave
up on is killed instead of keeping a core busy for minutes.
"""

from __future__ import annotations

import asyncio
import os
import time

import pytest

from research.modules.core.settings import Settings
from research.servers.research.verify_tool import (
    MAX_ANSWER_CHARS,
    MAX_SOURCE_CHARS,
    MAX_SOURCES,
    CheckProcess,
    TooLarge,
    verify_answer,
)


@pytest.mark.parametrize("answer, sources, what", [
    ("x" * (MAX_ANSWER_CHARS + 1), ["Mount Fuji is 3,776 m high."], "the answer"),
    ("Mount Fuji is 3,776 m high [S1].", ["y" * (MAX_SOURCE_CHARS + 1)], "source S1"),
    ("Mount Fuji is 3,776 m high [S1].", ["Fuji."] * (MAX_SOURCES + 1), "the list of sources"),
])
async def test_verify_refuses_inputs_over_the_limits_in_one_line(answer, sources, what):
    started = time.monotonic()
    with pytest.raises(TooLarge) as refused:
        await verify_answer(answer, sources, Settings(), judge=False, lang="en")
    message = refused.value.message("en")
    assert message.startswith(f"Too large to check: {what} has") and "limit" in message
    assert "上限" in refused.value.message("ja")
    assert time.monotonic() - started < 1.0  # refused before any work


async def test_checks_run_in_a_child_process_and_give_the_same_verdicts():
    checks = CheckProcess()
    try:
        output = await verify_answer("Mount Fuji is 3,776 m high [S1].", ["Mount Fuji is 3,776 m high."], Settings(),
                                     judge=False, lang="en", checks=checks)
        assert [v.verdict for v in output.verdicts] == ["supported"]
        assert await checks.run(os.getpid) != os.getpid()  # not in the server's process
    finally:
        checks.close()


async def test_a_check_the_client_gave_up_on_is_killed_and_the_loop_stays_free():
    checks = CheckProcess()
    try:
        worker = await checks.run(os.getpid)
        task = asyncio.ensure_future(checks.run(time.sleep, 60))  # stands in for a check of a huge answer
        ticks = 0
        for _ in range(10):  # the event loop keeps answering while the check runs
            await asyncio.sleep(0.02)
            ticks += 1
        assert ticks == 10 and not task.done()
        task.cancel()  # what the MCP SDK does when the client cancels or hangs up
        with pytest.raises(asyncio.CancelledError):
            await task
        deadline = time.monotonic() + 5
        while _alive(worker) and time.monotonic() < deadline:
            await asyncio.sleep(0.05)
        assert not _alive(worker), "the child kept working after the client went away"
        assert await checks.run(os.getpid) != worker  # the next check gets a fresh child
    finally:
        checks.close()


def _alive(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat") as handle:
            return handle.read().split(") ", 1)[1][0] != "Z"
    except OSError:
        return False


@pytest.mark.e2e
async def test_the_mcp_verify_tool_answers_a_huge_answer_with_one_line(research_env):
    from mcp import Client
    from test_mcp_research_server import host_params

    async with Client(host_params(research_env)) as host:
        started = time.monotonic()
        result = await host.call_tool("verify", {"answer": "Mount Fuji is tall [S1]. " * 12_000,
                                                 "sources": ["Mount Fuji is 3,776 m high."], "judge": False})
        assert result.is_error
        text = result.content[0].text
        assert text.startswith("Too large to check: the answer has") and "200000" in text
        assert time.monotonic() - started < 10
        listing = await host.call_tool("sessions", {})  # the server is still there and answering
        assert not listing.is_error

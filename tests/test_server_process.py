"""ServerLauncher's stdio transport (modules/clients/server_process.py), in-process against a
small child that writes what real servers write: JSON-RPC, chatter and blank lines on stdout,
warnings on stderr."""

from __future__ import annotations

import asyncio
import io
import sys

import anyio

from research.modules.clients import server_process
from research.modules.clients.server_process import ServerLauncher

CHILD = r"""
import sys
print("starting fetch server... (not JSON-RPC)", flush=True)
print("", flush=True)
sys.stderr.write("warming up\n"); sys.stderr.flush()
print('{"jsonrpc": "2.0", "method": "notifications/message", "params": {"level": "info", "data": "%s"}}', flush=True)
sys.stderr.write("done\n"); sys.stderr.flush()
"""


async def _messages(launcher: ServerLauncher) -> list[object]:
    received = []
    with anyio.fail_after(20):
        async with launcher.transport() as (read_stream, _write_stream):
            async for item in read_stream:  # ends when the child's stdout does
                received.append(item)
    return received


async def _log_holding(log: io.StringIO, *needles: str) -> str:
    for _ in range(200):  # stderr is forwarded by a task of its own: give it a moment
        if all(needle in log.getvalue() for needle in needles):
            break
        await asyncio.sleep(0.02)
    return log.getvalue()


async def test_chatter_goes_to_the_log_and_the_protocol_gets_only_json_rpc() -> None:
    log = io.StringIO()
    launcher = ServerLauncher(sys.executable, ["-c", CHILD % "hello"], None, errlog=lambda: log, exit_grace=5.0)
    (message,) = await _messages(launcher)
    assert message.message.method == "notifications/message" and message.message.params["data"] == "hello"
    text = await _log_holding(log, "warming up", "done")
    assert "stdout: starting fetch server... (not JSON-RPC)\n" in text  # stdout chatter, marked as such
    assert "warming up\n" in text and "done\n" in text  # every stderr line, in order
    assert text.index("warming up") < text.index("done")
    assert "stdout: \n" not in text  # a blank line is neither a message nor chatter


async def test_a_line_over_the_limit_ends_the_connection_instead_of_failing_the_run(monkeypatch) -> None:
    monkeypatch.setattr(server_process, "_LINE_LIMIT", 1024)
    log = io.StringIO()
    launcher = ServerLauncher(sys.executable, ["-c", CHILD % ("x" * 4096)], None, errlog=lambda: log, exit_grace=5.0)
    assert await _messages(launcher) == []  # the session sees the connection close, as at EOF
    assert "warming up" in await _log_holding(log, "warming up", "done")

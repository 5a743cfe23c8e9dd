"""The parser server's side of the fork server's protocol (servers/parser/fork_server.py).

The fork server preloads its parsers only once the server has handed over its first request:
that request is our clients' sandbox probe, which a child forked cold answers at once, where
behind the warm-up (0.6 s of CPU at niceness 10) it waited for seconds on a busy machine. And the
command line a sandbox gives the server for its fork server is read once, then taken out of the
environment, so nothing the server starts sees it.
"""

from __future__ import annotations

import json
import os
import socket

import pytest

from research.modules.core.parser_process import FORK_SERVER_ENV
from research.servers.parser.fork_server import ForkServer, fork_server_wrapper


def _messages(theirs: socket.socket) -> list[tuple[dict[str, object], int]]:
    """The datagrams sent so far: (message, descriptors attached)."""
    theirs.setblocking(False)
    got = []
    while True:
        try:
            data, fds, _flags, _address = socket.recv_fds(theirs, 4096, 4)
        except BlockingIOError:
            return got
        for fd in fds:
            os.close(fd)
        got.append((json.loads(data), len(fds)))


async def test_the_fork_server_is_told_to_preload_after_the_first_request_only() -> None:
    ours, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET)
    ours.setblocking(False)
    forks = ForkServer(0, ours)
    with ours, theirs:
        await forks.send({"kill": 7})  # not a request: nothing to preload for
        assert _messages(theirs) == [({"kill": 7}, 0)]
        child_end, server_end = socket.socketpair()
        with child_end, server_end:
            await forks.send({"parse": 1, "memory_mb": 64, "cpu_seconds": 5.0}, child_end.fileno())
            await forks.send({"parse": 2, "memory_mb": 64, "cpu_seconds": 5.0}, child_end.fileno())
        assert _messages(theirs) == [({"parse": 1, "memory_mb": 64, "cpu_seconds": 5.0}, 1), ({"preload": True}, 0),
                                     ({"parse": 2, "memory_mb": 64, "cpu_seconds": 5.0}, 1)]


def test_the_sandbox_command_line_is_read_once_and_taken_out_of_the_environment(monkeypatch) -> None:
    monkeypatch.setenv(FORK_SERVER_ENV, json.dumps({"argv": ["/usr/bin/bwrap", "--unshare-all", "python3"],
                                                    "env": {"LANG": "C.UTF-8"}}))
    assert fork_server_wrapper() == (["/usr/bin/bwrap", "--unshare-all", "python3"], {"LANG": "C.UTF-8"})
    assert FORK_SERVER_ENV not in os.environ
    assert fork_server_wrapper() is None  # unset: the fork server is forked from the server itself


@pytest.mark.parametrize("given", ['["bwrap"]', '{"argv": []}', '{"argv": ["bwrap", 3]}', "not json"])
def test_a_malformed_sandbox_command_line_stops_the_server_with_one_line(monkeypatch, given: str) -> None:
    monkeypatch.setenv(FORK_SERVER_ENV, given)
    with pytest.raises(SystemExit) as stopped:
        fork_server_wrapper()
    assert FORK_SERVER_ENV in str(stopped.value) and "\n" not in str(stopped.value)

"""Servers forked by a warm parent (modules/clients/zygote.py, servers/zygote.py; issue 47).

A forked server must be what a spawned one is to its host: its own environment, folder,
arguments, session and signals, the pipes and nothing else of the zygote's, and an exit
status; a signal reaches it and only it. A host that did not ask for forks spawns as before.
"""

from __future__ import annotations

import asyncio
import json
import os
import signal
import sys
from pathlib import Path

import pytest

from research.modules.clients import zygote as zygote_module
from research.modules.clients.server_process import ServerLauncher, _signal_group, own_python_argv
from research.modules.clients.zygote import STATUS_UNKNOWN, Zygote, ZygoteGone, ZygoteProcess

PROBE = Path(__file__).parent / "zygote_probe"
LINE_LIMIT = 1 << 20


@pytest.fixture
def probes():
    """A zygote that has imported the probe server; closed (and its servers' pipes) after the test."""
    env = {"PATH": os.environ.get("PATH", ""), "PYTHONPATH": str(PROBE)}
    zygote = Zygote(env, modules=("probe_server",))
    started: list[ZygoteProcess] = []

    async def start(args: list[str], cwd: str = "/", extra: dict[str, str] | None = None) -> ZygoteProcess:
        process = await zygote.start("probe_server", args, {**env, **(extra or {})}, cwd, LINE_LIMIT)
        started.append(process)
        return process

    start.zygote = zygote  # type: ignore[attr-defined]
    yield start
    for process in started:
        process.send_signal(signal.SIGKILL)
        process.close()
    zygote.close()
    if zygote.process.poll() is None:
        zygote.process.kill()
    zygote.process.wait(timeout=10)


async def _ended(process: ZygoteProcess, timeout: float = 20.0) -> int:
    deadline = asyncio.get_running_loop().time() + timeout
    while process.returncode is None:
        assert asyncio.get_running_loop().time() < deadline, "the server did not end"
        await asyncio.sleep(0.01)
    return process.returncode


async def test_a_forked_server_has_its_own_environment_folder_arguments_session_and_exit_status(probes, tmp_path):
    process = await probes(["7", "more"], cwd=str(tmp_path), extra={"ONLY_THIS_SERVER": "yes"})
    said = json.loads(await process.stdout.readline())
    assert said["env"] == {"PATH": os.environ.get("PATH", ""), "PYTHONPATH": str(PROBE), "ONLY_THIS_SERVER": "yes"}
    assert said["cwd"] == str(tmp_path) and said["argv"] == ["7", "more"] and said["sys_argv"] == ["7", "more"]
    # Its own session and process group (as start_new_session), one thread, Ctrl-C as Python's default.
    assert said["pid"] == process.pid == said["pgid"] == said["sid"]
    assert said["threads"] == 1 and said["sigint_raises"] and said["sigchld_default"]
    # stdin, stdout, stderr and the one descriptor that listed them: nothing of the zygote's.
    assert said["descriptors"] == [0, 1, 2, 3]
    assert await process.stderr.readline() == b"probe on stderr\n"
    process.stdin.write(b"hello\n")
    assert await process.stdout.readline() == b"echo hello\n"
    process.stdin.close()
    assert await _ended(process) == 7


async def test_a_signal_reaches_the_forked_server_and_its_status_says_so(probes):
    first, second = await probes([]), await probes([])
    await first.stdout.readline()
    _signal_group(first, signal.SIGKILL)  # what stop_process sends past the grace
    assert await _ended(first) == -signal.SIGKILL
    second.stdin.write(b"still here\n")
    await second.stdin.drain()
    await second.stdout.readline()
    assert await second.stdout.readline() == b"echo still here\n"
    first.send_signal(signal.SIGKILL)  # after its end: the pidfd names nothing, nothing is signalled


async def test_a_module_the_zygote_has_not_imported_is_refused_and_the_zygote_goes_on(probes):
    with pytest.raises(ZygoteGone, match="not a module of this zygote"):
        await probes.zygote.start("research.servers.web.server", [], {}, "/", LINE_LIMIT)
    process = await probes(["3"])
    process.stdin.close()
    assert await _ended(process) == 3


async def test_the_zygote_leaves_when_its_host_lets_it_go_and_its_servers_stay_until_their_stdin_closes(probes):
    process = await probes(["0"])
    await process.stdout.readline()
    probes.zygote.close()
    assert probes.zygote.process.wait(timeout=10) == 0
    process.stdin.write(b"after\n")
    await process.stdin.drain()
    assert await process.stdout.readline() == b"echo after\n"
    process.stdin.close()
    # Its status was the zygote's to read: known to have ended, not how.
    assert await _ended(process) == STATUS_UNKNOWN
    with pytest.raises(ZygoteGone):
        await probes([])


@pytest.fixture
def fresh_host(monkeypatch):
    """This process as a host that has no zygote yet."""
    monkeypatch.setattr(zygote_module, "_zygotes", {})
    yield
    for zygote in zygote_module._zygotes.values():
        zygote.close()
        zygote.process.wait(timeout=10)


async def _tools_of_a_started_web_server(tmp_path: Path) -> tuple[object, list[str]]:
    from mcp import Client

    argv = own_python_argv("research.servers.web.server") + ["--cache-dir", str(tmp_path / "sources")]
    env = {"RESEARCH_SEARCH_ENGINE": "searxng", "RESEARCH_SEARXNG_URL": "http://127.0.0.1:9/"}
    launcher = ServerLauncher.own(argv[0], argv[1:], env)
    async with Client(launcher.transport()) as client:
        names = sorted(tool.name for tool in (await client.list_tools()).tools)
    (process,) = launcher.spawned
    assert process.returncode == 0  # it left by itself when its stdin closed, as a spawned one does
    return process, names


@pytest.mark.e2e
async def test_only_a_host_that_asks_for_forks_gets_its_web_search_servers_forked(fresh_host, monkeypatch, tmp_path):
    monkeypatch.delenv(zygote_module.FORK_SERVERS, raising=False)
    spawned, tools = await _tools_of_a_started_web_server(tmp_path)
    again, _ = await _tools_of_a_started_web_server(tmp_path)
    assert not isinstance(spawned, ZygoteProcess) and not isinstance(again, ZygoteProcess)
    assert zygote_module._zygotes == {}  # not asked (a one-shot run): no zygote

    monkeypatch.setenv(zygote_module.FORK_SERVERS, "1")
    first, first_tools = await _tools_of_a_started_web_server(tmp_path)
    second, _ = await _tools_of_a_started_web_server(tmp_path)
    assert isinstance(first, ZygoteProcess) and isinstance(second, ZygoteProcess)
    assert first_tools == tools  # the same server, speaking MCP through the SDK
    assert len(zygote_module._zygotes) == 1


@pytest.mark.e2e
async def test_a_zygote_forks_only_starts_with_its_own_interpreter_environment(fresh_host, monkeypatch, tmp_path):
    from research.modules.clients.server_process import stop_process

    monkeypatch.setenv(zygote_module.FORK_SERVERS, "1")
    argv = own_python_argv("research.servers.web.server") + ["--cache-dir", str(tmp_path)]
    plain, hashed = {"HOME": str(tmp_path)}, {"HOME": str(tmp_path), "PYTHONHASHSEED": "1"}
    forked = [await zygote_module.start_forked(argv[0], argv[1:], env, "/", LINE_LIMIT) for env in (plain, hashed)]
    # PYTHONHASHSEED is read when an interpreter starts: that start needs a zygote started with it.
    assert all(isinstance(process, ZygoteProcess) for process in forked)
    assert sorted(zygote_module._zygotes) == [(), (("PYTHONHASHSEED", "1"),)]
    for process in forked:
        await stop_process(process, 5.0, terminate_first=False)
        assert process.returncode == 0
    assert zygote_module.interpreter_environment({"PYTHONPATH": "/p", "HOME": "/x", "LC_ALL": "C", "LANG": "C"}) == (
        ("LANG", "C"), ("LC_ALL", "C"), ("PYTHONPATH", "/p"))
    # Only our own interpreter running one of the forked modules with -P, as own_python_argv starts it.
    assert zygote_module.forkable_module(sys.executable, ["-m", "research.servers.web.server"]) is None
    assert zygote_module.forkable_module("/usr/bin/python3", argv[1:]) is None
    assert zygote_module.forkable_module(sys.executable, own_python_argv("research.servers.research.server")[1:]) is None
    # The parser server runs on the host (its fork server is what the sandbox holds): forked as the web-search server is.
    parser = own_python_argv("research.servers.parser.server")
    assert zygote_module.forkable_module(sys.executable, parser[1:]) == "research.servers.parser.server"


@pytest.mark.e2e
async def test_a_zygote_that_cannot_start_leaves_the_host_spawning_and_is_not_tried_again(fresh_host, monkeypatch):
    monkeypatch.setenv(zygote_module.FORK_SERVERS, "1")
    monkeypatch.setattr(zygote_module, "PRELOADED", ("research.no_such_module_for_the_zygote",))
    argv = own_python_argv("research.servers.web.server")
    assert await zygote_module.start_forked(argv[0], argv[1:], {}, "/", LINE_LIMIT) is None  # its import failed
    (broken,) = zygote_module._zygotes.values()
    assert broken.process.wait(timeout=30) != 0 and not broken.alive and broken.served == 0
    assert await zygote_module.start_forked(argv[0], argv[1:], {}, "/", LINE_LIMIT) is None
    assert list(zygote_module._zygotes.values()) == [broken]  # no second zygote for the same start

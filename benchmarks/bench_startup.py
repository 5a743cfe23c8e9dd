"""Start-up speed: `research --help` wall time and CPU, the REPL's time to prompt, and the CPU
each MCP server spends until it answers ``initialize`` (ready) and until it is idle (settled).

A server is started as a run starts it (the web-search server as ``python -P -m …``, the
parser server inside bubblewrap with its fork server, the research server as ``research mcp
research``); the clock and the CPU count stop when its answer to ``initialize`` arrives. CPU is
user + system of the server's whole process tree (bwrap, the server, the parser's fork server)
read from /proc at that moment; "settled" is the same sum once the tree has used no CPU for
half a second (what the web server builds in the background, the fork server's parser
imports): what each start costs the machine.

The REPL is started under a pseudo-terminal (it only starts on a terminal), like a user
would: the clock stops when the prompt text appears, then /quit is typed. Medians with
min–max over 9 runs (3 with --quick) after one uncounted warm-up run each. Cursor-position
requests are answered as a terminal would, so prompt-toolkit does not wait on them.

    .venv/bin/python benchmarks/bench_startup.py [--quick | --repeats N] [--servers-only] [--server NAME]

``--server`` (web-search, web-search-standby, web-search-forked, parser or research; repeatable)
measures only those. ``web-search-standby`` is the web-search server as a one-shot run gets it:
a standby forked from the run (cli/main.py), its "ready" and "settled" the server's own CPU since
the fork, and ``host_cpu_s`` what the run spent importing the server and forking it. ``web-search-forked`` is the web-search server as a host that asked for forks
gets it, forked by the zygote; its "ready" and "settled" are the forked process's own CPU.
With it, ``web-search-held``: the summed PSS of 1 and 3 servers held at once, spawned against
forked (the zygote included).
"""

from __future__ import annotations

import json
import os
import pty
import select
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from treemem import descendants, spread  # noqa: E402

TICKS = os.sysconf("SC_CLK_TCK")
INITIALIZE = (b'{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18",'
              b'"capabilities":{},"clientInfo":{"name":"bench_startup","version":"0"}}}\n')

RESEARCH = str(Path(sys.executable).with_name("research"))
# The trailing space of "research> " is drawn as a cursor move, so match without it.
PROMPT = b"research>"
CURSOR_POSITION_REQUEST = b"\x1b[6n"


def _env(home: Path) -> dict[str, str]:
    # Without PYTHONDONTWRITEBYTECODE: the uncounted first start writes the .pyc files an
    # install has, so no counted start compiles a module changed since (benchmarks/compare_lcr.py).
    env = {k: v for k, v in os.environ.items()
           if not k.startswith(("RESEARCH_", "OLLAMA_")) and k != "PYTHONDONTWRITEBYTECODE"}
    env.update(HOME=str(home), XDG_CONFIG_HOME=str(home / ".config"), XDG_DATA_HOME=str(home / ".local/share"),
               RESEARCH_SESSIONS_DIR=str(home / "sessions"), TERM="xterm-256color", LANG="en_US.UTF-8")
    return env


def time_help(env: dict[str, str]) -> tuple[float, float]:
    """(wall, CPU) seconds of one `research --help`."""
    import resource

    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    subprocess.run([RESEARCH, "--help"], env=env, check=True, capture_output=True)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return wall, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def tree_cpu(root: int) -> float:
    total = 0.0
    for pid in descendants(root):
        try:
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        except (OSError, IndexError):
            continue
        total += (int(fields[11]) + int(fields[12])) / TICKS
    return total


def server_commands(home: Path, env: dict[str, str]) -> dict[str, tuple[list[str], dict[str, str]]]:
    """How a run starts each server: argv and environment."""
    from research.modules.clients.sandbox import build_sandbox_command
    from research.modules.clients.server_process import child_environment, own_python_argv
    from research.modules.core.settings import load_settings

    cache = home / "sources"
    cache.mkdir(parents=True, exist_ok=True)
    saved = dict(os.environ)
    os.environ.update(env)
    try:
        sandbox = build_sandbox_command(load_settings(), cache)
    finally:
        os.environ.clear()
        os.environ.update(saved)
    web_env = {**env, "RESEARCH_SEARCH_ENGINE": "searxng", "RESEARCH_SEARXNG_URL": "http://127.0.0.1:9/"}
    return {
        "web-search": (own_python_argv("research.servers.web.server") + ["--cache-dir", str(cache)], web_env),
        "parser": ([sandbox.command, *sandbox.args], child_environment(sandbox.env)),
        "research": ([RESEARCH, "mcp", "research"], env),
    }


def server_start(argv: list[str], env: dict[str, str], timeout: float = 60.0) -> dict[str, float]:
    """Wall and CPU to the answer to ``initialize``; CPU once the tree is idle (settled)."""
    start = time.perf_counter()
    process = subprocess.Popen(argv, env=env, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                               stderr=subprocess.DEVNULL, cwd="/", start_new_session=True)
    try:
        assert process.stdin is not None and process.stdout is not None
        process.stdin.write(INITIALIZE)
        process.stdin.flush()
        line = process.stdout.readline()
        ready_wall = time.perf_counter() - start
        ready_cpu = tree_cpu(process.pid)
        if b'"id":1' not in line.replace(b" ", b""):
            raise RuntimeError(f"no answer to initialize from {argv[:4]}: {line[:300]!r}")
        settled, last, quiet_since = ready_cpu, ready_cpu, time.perf_counter()
        while time.perf_counter() - start < timeout and time.perf_counter() - quiet_since < 0.5:
            time.sleep(0.05)
            settled = tree_cpu(process.pid)
            if settled > last + 0.005:
                last, quiet_since = settled, time.perf_counter()
        return {"ready_wall_s": ready_wall, "ready_cpu_s": ready_cpu, "settled_cpu_s": settled}
    finally:
        if process.stdin is not None:
            process.stdin.close()
        try:
            process.wait(timeout=5)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, 9)
            process.wait()


def forked_starts(repeats: int, home: Path, env: dict[str, str]) -> dict:
    """The web-search server as a host that asked for forks gets it: forked by the zygote
    (modules/clients/zygote.py). "ready" and "settled" are the forked server's own CPU; the
    zygote's CPU (its one import, paid once per host) is reported beside them."""
    import asyncio

    from research.modules.clients.server_process import child_environment
    from research.modules.clients.zygote import Zygote

    argv, server_env = server_commands(home, env)["web-search"]
    server_env = child_environment(server_env)

    async def one(zygote: Zygote) -> dict[str, float]:
        start = time.perf_counter()
        process = await zygote.start(argv[3], argv[4:], server_env, "/", 1 << 24)
        assert process.stdin is not None and process.stdout is not None
        process.stdin.write(INITIALIZE)
        line = await process.stdout.readline()
        ready_wall, ready_cpu = time.perf_counter() - start, tree_cpu(process.pid)
        if b'"id":1' not in line.replace(b" ", b""):
            raise RuntimeError(f"no answer to initialize from the forked server: {line[:300]!r}")
        settled, last, quiet_since = ready_cpu, ready_cpu, time.perf_counter()
        while time.perf_counter() - quiet_since < 0.5:
            await asyncio.sleep(0.05)
            settled = tree_cpu(process.pid)
            if settled > last + 0.005:
                last, quiet_since = settled, time.perf_counter()
        process.stdin.close()
        while process.returncode is None:
            await asyncio.sleep(0.01)
        process.close()
        return {"ready_wall_s": ready_wall, "ready_cpu_s": ready_cpu, "settled_cpu_s": settled}

    async def measure() -> dict:
        zygote = Zygote(server_env)
        await one(zygote)  # the zygote's import, and the file cache
        zygote_cpu = tree_cpu(zygote.process.pid)
        runs = [await one(zygote) for _ in range(repeats)]
        zygote.close()
        zygote.process.wait(timeout=10)
        return {**{key: spread([run[key] for run in runs]) for key in runs[0]}, "zygote_cpu_s": zygote_cpu}

    return asyncio.run(measure())


# A one-shot run's web-search server (cli/main.py): the run, a fresh interpreter with no thread,
# imports the server and forks a standby (its "host" CPU: the SDK's import, which the run needs
# for its own clients anyway); the run's start of the server is the standby, sent `initialize`.
_STANDBY_HOST = r"""
import asyncio, json, os, sys, time
argv, env = json.loads(sys.argv[1])
import research.cli.main, research.modules.core.settings
from research.modules.clients.zygote import standby_from_this_process, start_forked
from research.servers.zygote import standby_server
clock = time.process_time()
assert standby_from_this_process(standby_server)
host_cpu = time.process_time() - clock
INITIALIZE = sys.argv[2].encode() + b"\n"
ticks = os.sysconf("SC_CLK_TCK")
def cpu(pid):
    fields = open(f"/proc/{pid}/stat").read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / ticks
async def main():
    start = time.perf_counter()
    process = await start_forked(argv[0], argv[1:], env, "/", 1 << 24)
    assert process is not None, "not forked"
    process.stdin.write(INITIALIZE)
    line = await process.stdout.readline()
    ready_wall, ready_cpu = time.perf_counter() - start, cpu(process.pid)
    assert b'"id":1' in line.replace(b" ", b""), line[:300]
    settled, last, quiet_since = ready_cpu, ready_cpu, time.perf_counter()
    while time.perf_counter() - quiet_since < 0.5:
        await asyncio.sleep(0.05)
        settled = cpu(process.pid)
        if settled > last + 0.005:
            last, quiet_since = settled, time.perf_counter()
    process.stdin.close()
    while process.returncode is None:
        await asyncio.sleep(0.01)
    process.close()
    return {"ready_wall_s": ready_wall, "ready_cpu_s": ready_cpu, "settled_cpu_s": settled, "host_cpu_s": host_cpu}
print(json.dumps(asyncio.run(main())))
"""


def standby_starts(repeats: int, home: Path, env: dict[str, str]) -> dict:
    """The web-search server as a one-shot run gets it: a standby forked from the run
    (``web-search-standby``). "ready" and "settled" are the server's own CPU since its fork;
    ``host_cpu_s`` is what the run spent to import the server and fork it (the SDK's import,
    which a run with a spawned server pays in its own process as well, later)."""
    from research.modules.clients.server_process import child_environment

    argv, server_env = server_commands(home, env)["web-search"]
    request = json.dumps([argv, child_environment(server_env)])
    host_env = {**env, "PYTHONPATH": os.environ.get("PYTHONPATH", "")}

    def one() -> dict[str, float]:
        done = subprocess.run([sys.executable, "-c", _STANDBY_HOST, request, INITIALIZE.decode().strip()],
                              env=host_env, capture_output=True, text=True, timeout=120)
        if done.returncode != 0:
            raise RuntimeError(f"the standby host failed: {done.stderr[-500:]}")
        return json.loads(done.stdout.splitlines()[-1])

    one()  # the file cache
    runs = [one() for _ in range(repeats)]
    return {key: spread([run[key] for run in runs]) for key in runs[0]}


def held_memory(count: int, home: Path, env: dict[str, str]) -> dict:
    """Summed PSS (MiB) of ``count`` web-search servers held at once, each answered
    ``initialize`` and settled: spawned, against forked by one zygote (the zygote included).
    What a host that keeps several (other settings, other sessions) holds."""
    import asyncio

    from research.modules.clients.server_process import child_environment
    from research.modules.clients.zygote import Zygote
    from treemem import memory_kib

    argv, server_env = server_commands(home, env)["web-search"]
    server_env = child_environment(server_env)

    def pss_mib(pids: list[int]) -> float:
        return round(sum((memory_kib(pid) or (0, 0))[0] for pid in pids) / 1024, 1)

    spawned = [subprocess.Popen(argv, env=server_env, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                stderr=subprocess.DEVNULL, cwd="/", start_new_session=True) for _ in range(count)]
    for process in spawned:
        assert process.stdin is not None and process.stdout is not None
        process.stdin.write(INITIALIZE)
        process.stdin.flush()
        process.stdout.readline()
    time.sleep(2.0)  # the engines and HTTP client built in the background
    spawned_mib = pss_mib([process.pid for process in spawned])
    for process in spawned:
        assert process.stdin is not None
        process.stdin.close()
        process.wait(timeout=10)

    async def forked() -> float:
        zygote = Zygote(server_env)
        processes = []
        for _ in range(count):
            process = await zygote.start(argv[3], argv[4:], server_env, "/", 1 << 24)
            assert process.stdin is not None and process.stdout is not None
            process.stdin.write(INITIALIZE)
            await process.stdout.readline()
            processes.append(process)
        await asyncio.sleep(2.0)
        total = pss_mib([zygote.process.pid] + [process.pid for process in processes])
        for process in processes:
            assert process.stdin is not None
            process.stdin.close()
            while process.returncode is None:
                await asyncio.sleep(0.01)
            process.close()
        zygote.close()
        zygote.process.wait(timeout=10)
        return total

    return {"servers": count, "spawned_pss_mib": spawned_mib, "forked_pss_mib": asyncio.run(forked())}


def servers(repeats: int, home: Path, env: dict[str, str], only: list[str] | None = None) -> dict:
    results: dict[str, dict] = {}
    for name, (argv, server_env) in server_commands(home, env).items():
        if only and name not in only:
            continue
        server_start(argv, server_env)  # warm the file cache
        runs = [server_start(argv, server_env) for _ in range(repeats)]
        results[name] = {key: spread([run[key] for run in runs]) for key in runs[0]}
    if not only or "web-search-standby" in only:
        results["web-search-standby"] = standby_starts(repeats, home, env)
    if not only or "web-search-forked" in only:
        results["web-search-forked"] = forked_starts(repeats, home, env)
        results["web-search-held"] = [held_memory(count, home, env) for count in (1, 3)]
    return results


def time_to_prompt(env: dict[str, str], timeout: float = 30.0) -> float:
    """Seconds from spawning `research` on a pty until the prompt is drawn."""
    master, slave = pty.openpty()
    start = time.perf_counter()
    process = subprocess.Popen([RESEARCH], env=env, stdin=slave, stdout=slave, stderr=slave, close_fds=True,
                               start_new_session=True)
    os.close(slave)
    seen = b""
    elapsed = None
    try:
        while time.perf_counter() - start < timeout:
            ready, _, _ = select.select([master], [], [], 0.05)
            if not ready:
                continue
            try:
                chunk = os.read(master, 65536)
            except OSError:  # the child closed the terminal
                break
            seen += chunk
            if CURSOR_POSITION_REQUEST in chunk:
                os.write(master, b"\x1b[1;1R")
            if PROMPT in seen:
                elapsed = time.perf_counter() - start
                break
        os.write(master, b"/quit\r")
        process.wait(timeout=10)
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()
        os.close(master)
    if elapsed is None:
        raise RuntimeError(f"no prompt within {timeout}s; terminal showed: {seen[-500:]!r}")
    return elapsed


def run(quick: bool, servers_only: bool = False, repeats: int | None = None, only: list[str] | None = None) -> dict:
    repeats = repeats or (3 if quick else 9)
    result: dict = {"benchmark": "startup", "runs": repeats, "load_before": os.getloadavg()}
    with tempfile.TemporaryDirectory() as tmp:
        env = _env(Path(tmp))
        if not servers_only:
            time_help(env)  # warm the OS file cache and .pyc files; the first run is not typical
            helps = [time_help(env) for _ in range(repeats)]
            result["help_wall_s"] = spread([wall for wall, _ in helps])
            result["help_cpu_s"] = spread([cpu for _, cpu in helps])
            time_to_prompt(env)
            result["repl_time_to_prompt_s"] = spread([time_to_prompt(env) for _ in range(repeats)])
        result["servers"] = servers(repeats, Path(tmp), env, only)
    result["load_after"] = os.getloadavg()
    return result


if __name__ == "__main__":
    count = int(sys.argv[sys.argv.index("--repeats") + 1]) if "--repeats" in sys.argv else None
    named = [sys.argv[i + 1] for i, arg in enumerate(sys.argv[:-1]) if arg == "--server"]
    print(json.dumps(run(quick="--quick" in sys.argv, servers_only="--servers-only" in sys.argv or bool(named),
                         repeats=count, only=named or None), indent=2))

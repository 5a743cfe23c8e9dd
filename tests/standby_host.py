"""The host process of tests/test_standby_server.py: a fresh interpreter with no other thread,
which forks a standby of the probe server (tests/zygote_probe) and says what it saw as one JSON
line. ``python standby_host.py CASE FOLDER`` (the long-title case: PROBE_CACHE_ROOT)."""

from __future__ import annotations

import asyncio
import json
import os
import sys
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

from research.modules.clients import zygote  # noqa: E402
from research.servers.zygote import standby_server  # noqa: E402

LINE_LIMIT = 1 << 20


def cmdline(pid: int) -> list[str]:
    raw = Path(f"/proc/{pid}/cmdline").read_bytes()
    return [part.decode() for part in raw.rstrip(b"\0").split(b"\0")]


async def start(args: list[str], cwd: str) -> dict:
    env = {"PATH": os.environ.get("PATH", ""), "ONLY_THIS_SERVER": "yes"}
    process = await zygote.start_forked(sys.executable, ["-P", "-m", "probe_server", *args], env, cwd, LINE_LIMIT)
    assert process is not None, "not forked"
    stderr = (await process.stderr.readline()).decode().strip()
    probe = json.loads(await process.stdout.readline())
    said = {"pid": process.pid, "probe": probe, "stderr": stderr, "cmdline": cmdline(process.pid),
            "parent_of_server": int(Path(f"/proc/{process.pid}/stat").read_text().rsplit(")", 1)[1].split()[1]),
            "environ_shows_host_variables": b"STANDBY_HOST_MARKER" in Path(f"/proc/{process.pid}/environ").read_bytes()}
    process.stdin.write(b"hello\n")
    await process.stdin.drain()
    said["echo"] = (await process.stdout.readline()).decode().strip()
    if len(args) > 1 and args[1] == "--cache-root":
        import fixtures.processes as finder

        finder.WEB_SEARCH_MODULE = b"probe_server"
        said["found_by_fixture"] = finder.web_search_servers(args[2], parent=os.getpid())
    process.stdin.close()
    while process.returncode is None:
        await asyncio.sleep(0.01)
    said["returncode"] = process.returncode
    process.close()
    return said


def main(case: str, folder: str) -> dict:
    os.environ["STANDBY_HOST_MARKER"] = "the host's own"  # os.environ only: /proc shows the start-up block
    if case == "start":
        forked = zygote.standby_from_this_process(standby_server, "probe_server")
        return {"forked": forked, "host_pid": os.getpid(), **asyncio.run(start(["7", "more"], folder))}
    if case == "preload":
        forked = zygote.standby_from_this_process(standby_server, "probe_server", preload=("probe_preloaded",))
        return {"forked": forked, "host_pid": os.getpid(), **asyncio.run(start(["0"], folder))}
    if case == "default-preload":  # what each module's standby would import with it (not forked)
        asked = {}

        def recording(module, control, fds, preload):
            asked[module] = list(preload)
            raise RuntimeError("recorded only")

        forked = [zygote.standby_from_this_process(recording), zygote.standby_from_this_process(recording, "probe_server")]
        return {"forked": forked, "asked": asked, "preloaded": list(zygote.PRELOADED), "web": zygote.FORKED_MODULES[0]}
    if case == "long-title":
        zygote.standby_from_this_process(standby_server, "probe_server")
        return asyncio.run(start(["0", "--cache-root", os.environ["PROBE_CACHE_ROOT"]], folder))
    if case == "discard":
        forked = zygote.standby_from_this_process(standby_server, "probe_server")
        pid = zygote._standby[-1].pid
        zygote.discard_standby()
        gone = not Path(f"/proc/{pid}").exists()
        threading.Thread(target=time.sleep, args=(5,), daemon=True).start()
        return {"forked": forked, "gone_after_discard": gone,
                "forked_with_a_thread": zygote.standby_from_this_process(standby_server, "probe_server")}
    if case == "expires":  # a long-lived host: the standby leaves if no start takes it in time
        forked = zygote.standby_from_this_process(standby_server, "probe_server")
        pid = zygote._standby[-1].pid

        async def wait_past_it() -> dict:
            zygote.discard_standby_after(asyncio.get_running_loop(), 0.3)
            await asyncio.sleep(0.1)
            there_before = Path(f"/proc/{pid}").exists()
            await asyncio.sleep(1.0)
            return {"there_before": there_before, "gone_after": not Path(f"/proc/{pid}").exists()}

        return {"forked": forked, **asyncio.run(wait_past_it())}
    if case == "taken-in-time":  # started before its time ran out: the timer finds nothing to end
        zygote.standby_from_this_process(standby_server, "probe_server")

        async def start_then_wait() -> dict:
            zygote.discard_standby_after(asyncio.get_running_loop(), 0.3)
            env = {"PATH": os.environ.get("PATH", "")}
            process = await zygote.start_forked(sys.executable, ["-P", "-m", "probe_server", "0"], env, folder,
                                                LINE_LIMIT)
            assert process is not None, "not forked"
            await asyncio.sleep(1.0)
            alive = process.returncode is None and Path(f"/proc/{process.pid}").exists()
            process.stdin.close()
            while process.returncode is None:
                await asyncio.sleep(0.01)
            process.close()
            return {"alive_after_the_time": alive}

        return asyncio.run(start_then_wait())
    if case == "host-exits":
        zygote.standby_from_this_process(standby_server, "probe_server")
        print(json.dumps({"standby": zygote._standby[-1].pid}), flush=True)
        os._exit(0)
    raise SystemExit(f"unknown case {case}")


if __name__ == "__main__":
    print(json.dumps(main(*sys.argv[1:])), flush=True)

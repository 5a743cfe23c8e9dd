"""CPU seconds per kind of process over one whole command (the README's test-suite accounting).

Runs the command as a child subreaper (orphans such as the parser's fork server are re-parented
here, so they stay in the tree) and reads every descendant's user + system CPU from
/proc/<pid>/stat every ``--interval`` seconds, keeping each process's last reading. A process
is put in a kind by its command line (the parser server and its fork server in bubblewrap, the web-search
server, `research` as the console script, `research serve` and its workers, the pytest
workers, …); a process seen first as a fork and then exec'd is counted in its final kind.

What a process used after its last reading (at most one interval) is missed, so the sum of
the kinds is a little below the tree's total, which is printed beside it (RUSAGE_CHILDREN:
every process this one or its descendants waited for). Before and after the command it times a
fixed Python loop (``speed_probe_user_s``): what a CPU second is worth on the machine then.

``--by-test`` (a pytest command): also per test, the CPU of its pytest worker and of every
process under that worker while the test ran (a kept server's CPU goes to the test it served),
and the processes each test started, per kind. Each pytest process writes the test it runs to a
file named by its pid (a plugin this script writes and adds with ``-p``, found through
PYTHONPATH); each CPU reading's increase goes to the test the process's worker ran then.

    .venv/bin/python benchmarks/suite_cpu.py [--interval 0.1] [--json FILE] [--by-test] -- .venv/bin/python -m pytest -q -n 3
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from collections import defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from treemem import become_subreaper, descendants  # noqa: E402

TICKS = os.sysconf("SC_CLK_TCK")

# (kind, what its command line holds), the first match wins; order matters (serve's workers
# run `research …` too).
KINDS = (
    ("parser server (bwrap, server, fork server, documents)",
     ("research.servers.parser.server", "research.servers.parser.fork_server", "bwrap")),
    ("web-search server", ("research.servers.web.server", "mcp web-search")),
    ("research MCP server", ("mcp research",)),
    ("research serve and its workers", (" serve", "http_worker", "research.servers.research")),
    ("postgres", ("postgres", "initdb", "pg_ctl")),
    ("pytest workers (in-process runs included)", ("pytest", "execnet", "xdist", "import sys;exec(eval")),
    ("research (console script)", ("bin/research",)),
)


def kind_of(cmdline: str) -> str:
    for kind, needles in KINDS:
        if any(needle in cmdline for needle in needles):
            return kind
    return "other: " + (cmdline.split(" ", 1)[0].rsplit("/", 1)[-1] or "?")


def _stat(pid: int) -> tuple[str, float] | None:
    """(start time, CPU seconds) of one process, None once it is gone."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except (OSError, IndexError):
        return None
    return fields[19], (int(fields[11]) + int(fields[12])) / TICKS


def _cmdline(pid: int) -> str:
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode("utf-8", "replace").strip()
    except OSError:
        return ""


# The plugin --by-test adds to pytest: the test each pytest process runs, in $SUITE_CPU_MARKS/<pid>.
MARK_PLUGIN = """
import os
from pathlib import Path

def _mark(text):
    Path(os.environ["SUITE_CPU_MARKS"], str(os.getpid())).write_text(text)

def pytest_runtest_logstart(nodeid, location):
    _mark(nodeid)

def pytest_runtest_logfinish(nodeid, location):
    _mark("")
"""
BETWEEN_TESTS, NO_WORKER = "(between tests)", "(outside the pytest workers)"


def _parent(pid: int) -> int:
    try:
        return int(Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[1])
    except (OSError, IndexError, ValueError):
        return 0


class CpuByKind:
    def __init__(self, root: int, interval: float, marks: Path | None = None) -> None:
        self.root, self.interval, self.marks = root, interval, marks
        # (pid, start) -> [cmdline, cpu, its pytest worker's pid or None, the test running when first seen]
        self.seen: dict[tuple[int, str], list] = {}
        self.by_test: dict[str, dict[str, float]] = defaultdict(lambda: defaultdict(float))
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._loop, daemon=True)

    def _worker_of(self, pid: int) -> int | None:
        for _ in range(64):
            if pid <= 1:
                return None
            if (self.marks / str(pid)).exists():
                return pid
            pid = _parent(pid)
        return None

    def _running(self) -> dict[int, str]:
        running = {}
        for mark in self.marks.iterdir():
            try:
                running[int(mark.name)] = mark.read_text() or BETWEEN_TESTS
            except (OSError, ValueError):
                pass
        return running

    def _loop(self) -> None:
        me = os.getpid()
        while not self._stop.wait(self.interval):
            running = self._running() if self.marks else {}
            for pid in descendants(me):
                if pid == me:
                    continue
                stat = _stat(pid)
                if stat is None:
                    continue
                entry = self.seen.get((pid, stat[0]))
                if entry is None:
                    entry = self.seen[(pid, stat[0])] = ["", 0.0, None, NO_WORKER]
                if self.marks and entry[2] is None:
                    entry[2] = self._worker_of(pid)
                    if entry[2] is not None and entry[3] == NO_WORKER:
                        entry[3] = running.get(entry[2], BETWEEN_TESTS)
                entry[0] = _cmdline(pid) or entry[0]  # again each time: a fork may exec later (bwrap -> python)
                if self.marks:
                    test = running.get(entry[2], BETWEEN_TESTS) if entry[2] is not None else NO_WORKER
                    self.by_test[test][kind_of(entry[0])] += stat[1] - entry[1]
                entry[1] = stat[1]

    def start(self) -> "CpuByKind":
        self._thread.start()
        return self

    def stop(self) -> None:
        self._stop.set()
        self._thread.join()

    def table(self) -> dict[str, dict[str, float]]:
        kinds: dict[str, dict[str, float]] = defaultdict(lambda: {"cpu_s": 0.0, "processes": 0})
        for cmdline, cpu, *_ in self.seen.values():
            row = kinds[kind_of(cmdline)]
            row["cpu_s"] += cpu
            row["processes"] += 1
        return dict(sorted(kinds.items(), key=lambda item: -item[1]["cpu_s"]))

    def tests(self) -> list[dict]:
        """Per test: CPU per kind, and the processes it started per kind, the costliest first."""
        started: dict[str, dict[str, int]] = defaultdict(lambda: defaultdict(int))
        for cmdline, _cpu, _worker, test in self.seen.values():
            started[test][kind_of(cmdline)] += 1
        rows = [{"test": test, "cpu_s": round(sum(kinds.values()), 2),
                 "kinds": {kind: round(cpu, 2) for kind, cpu in sorted(kinds.items(), key=lambda item: -item[1])},
                 "started": dict(started.get(test, {}))}
                for test, kinds in self.by_test.items()]
        return sorted(rows, key=lambda row: -row["cpu_s"])


# What a CPU second is worth on this machine at the moment: a fixed pure-Python loop, its user
# time in a fresh interpreter. The same suite at the same commit took 289 s and 512 s of wall on
# this 2-core machine hours apart (2026-11-29), with every kind of process taking more CPU: the
# host, not the tests. A suite figure read beside this one can be compared across sessions.
_PROBE = "x = 0\nfor i in range(20_000_000):\n    x += i\n"


def speed_probe(runs: int = 3) -> list[float]:
    """User CPU seconds of the probe loop, ``runs`` times."""
    seconds = []
    for _ in range(runs):
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        subprocess.run([sys.executable, "-c", _PROBE], check=True)
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        seconds.append(round(after.ru_utime - before.ru_utime, 2))
    return seconds


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--interval", type=float, default=0.1)
    parser.add_argument("--json", help="also write the table here")
    parser.add_argument("--by-test", action="store_true", help="also per test (a pytest command)")
    parser.add_argument("command", nargs=argparse.REMAINDER)
    args = parser.parse_args()
    command = args.command[1:] if args.command[:1] == ["--"] else args.command
    env, marks = None, None
    if args.by_test:
        marks = Path(tempfile.mkdtemp(prefix="suite-cpu-marks-"))
        (marks / "suite_cpu_marks.py").write_text(MARK_PLUGIN)
        env = {**os.environ, "SUITE_CPU_MARKS": str(marks),
               "PYTHONPATH": os.pathsep.join(filter(None, [str(marks), os.environ.get("PYTHONPATH")]))}
        command = [*command, "-p", "suite_cpu_marks"]
    probe_before = speed_probe()
    become_subreaper()
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    load_before = os.getloadavg()
    process = subprocess.Popen(command, env=env)
    sampler = CpuByKind(process.pid, args.interval, marks).start()
    code = process.wait()
    wall = time.perf_counter() - started
    time.sleep(2 * args.interval)
    sampler.stop()
    while True:  # orphans re-parented here
        try:
            if os.waitpid(-1, 0)[0] == 0:
                break
        except ChildProcessError:
            break
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    total = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    table = sampler.table()
    result = {"command": command, "exit_code": code, "wall_s": round(wall, 1), "cpu_total_s": round(total, 1),
              "cpu_counted_s": round(sum(row["cpu_s"] for row in table.values()), 1),
              "load_before": load_before, "load_after": os.getloadavg(),
              "speed_probe_user_s": {"before": probe_before, "after": speed_probe()},
              "kinds": {kind: {"cpu_s": round(row["cpu_s"], 1), "processes": row["processes"]} for kind, row in table.items()}}
    text = json.dumps(result, indent=2)
    print(text, file=sys.stderr)
    if marks is not None:
        result["tests"] = sampler.tests()
        for row in result["tests"][:30]:
            print(f"{row['cpu_s']:7.1f} s  {row['test']}  started: {row['started']}", file=sys.stderr)
        shutil.rmtree(marks, ignore_errors=True)
        text = json.dumps(result, indent=2)
    if args.json:
        Path(args.json).write_text(text + "\n")
    return code


if __name__ == "__main__":
    raise SystemExit(main())

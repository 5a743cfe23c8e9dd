"""Measure one command as a whole process tree: wall time, CPU, peak memory, processes.

* Memory: every ``interval`` (50 ms) the sampler sums PSS (``Pss:`` of
  /proc/<pid>/smaps_rollup; VmRSS of /proc/<pid>/status where smaps_rollup cannot be
  read) over the process and all its descendants, found through
  /proc/<pid>/task/<tid>/children. PSS shares each shared page among the processes
  that map it, so the sum is what the tree costs the machine, not N times the shared
  libraries. The peak of the sums is reported, with the summed RSS for reference.
  A process once seen stays sampled while it lives, even if it is re-parented, and so
  does any orphan re-parented to this process (see CPU).
* CPU: this process makes itself a child subreaper (prctl PR_SET_CHILD_SUBREAPER), so
  descendants orphaned by an early exit are re-parented to it; after the command exits
  the stragglers are waited for (``straggler_timeout``, then SIGKILL), and the tree's
  user + system CPU is the growth of RUSAGE_CHILDREN over the run. Run one measured
  command at a time.
* Wall: spawn → exit of the command itself (what a shell user waits for); the lines
  it writes to stdout/stderr are time-stamped as they arrive (seconds since spawn).
"""

from __future__ import annotations

import ctypes
import os
import resource
import signal
import statistics
import subprocess
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

PR_SET_CHILD_SUBREAPER = 36


def become_subreaper() -> bool:
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        return libc.prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) == 0
    except (OSError, AttributeError):
        return False


def children(pid: int) -> list[int]:
    found: list[int] = []
    try:
        tasks = os.listdir(f"/proc/{pid}/task")
    except OSError:
        return found
    for tid in tasks:
        try:
            found += [int(c) for c in Path(f"/proc/{pid}/task/{tid}/children").read_text().split()]
        except (OSError, ValueError):
            continue
    return found


def descendants(root: int) -> list[int]:
    seen, todo = [], [root]
    while todo:
        pid = todo.pop()
        if pid in seen:
            continue
        seen.append(pid)
        todo += children(pid)
    return seen


def memory_kib(pid: int) -> tuple[int, int] | None:
    """(PSS, RSS) of one process in KiB; PSS falls back to RSS; None once it is gone."""
    rss = pss = None
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                rss = int(line.split()[1])
                break
    except (OSError, ValueError):
        return None
    try:
        for line in Path(f"/proc/{pid}/smaps_rollup").read_text().splitlines():
            if line.startswith("Pss:"):
                pss = int(line.split()[1])
                break
    except (OSError, ValueError):
        pass
    if rss is None:  # a zombie has no memory left
        return None
    return (pss if pss is not None else rss), rss


def _start_time(pid: int) -> str | None:
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[19]
    except (OSError, IndexError):
        return None


def _command_line(pid: int) -> str:
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode("utf-8", "replace").strip()[:120]
    except OSError:
        return "?"


class TreeSampler:
    """Samples the memory of ``root`` and its descendants in a thread until ``stop()``."""

    def __init__(self, root: int, interval: float = 0.05, adopter: int | None = None) -> None:
        # adopter: a subreaper whose children are all in the tree (orphans re-parented to it).
        self.root, self.interval, self.adopter = root, interval, adopter
        self.peak_pss_kib = self.peak_rss_kib = 0
        self.peak_processes = 0
        self.peak_breakdown: list[tuple[str, int]] = []  # (command line, PSS KiB) of each process at the peak
        self.samples = 0
        self.used_pss = True
        self._known: dict[int, str | None] = {}  # pid → start time, so a reused pid is not mistaken
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._loop, daemon=True)

    @property
    def processes_seen(self) -> int:
        return len(self._known)

    def start(self) -> "TreeSampler":
        self.sample()
        self._thread.start()
        return self

    def stop(self) -> None:
        self._stop.set()
        self._thread.join()

    def _loop(self) -> None:
        while not self._stop.wait(self.interval):
            self.sample()

    def sample(self) -> None:
        # Known processes that still live are roots too: an orphan's children stay in the tree.
        roots = {self.root} | {pid for pid, started in self._known.items() if started and _start_time(pid) == started}
        if self.adopter is not None:
            roots |= set(children(self.adopter))
        live = {pid for root in roots if os.path.exists(f"/proc/{root}") for pid in descendants(root)}
        for pid in live - self._known.keys():
            self._known[pid] = _start_time(pid)
        pss = rss = count = 0
        each = []
        for pid in live:
            memory = memory_kib(pid)
            if memory is None:
                continue
            pss, rss, count = pss + memory[0], rss + memory[1], count + 1
            each.append((pid, memory[0]))
        self.samples += 1
        if pss > self.peak_pss_kib:
            self.peak_breakdown = [(_command_line(pid), kib) for pid, kib in sorted(each, key=lambda e: -e[1])]
        self.peak_pss_kib = max(self.peak_pss_kib, pss)
        self.peak_rss_kib = max(self.peak_rss_kib, rss)
        self.peak_processes = max(self.peak_processes, count)


@dataclass
class TreeRun:
    exit_code: int
    wall_s: float
    cpu_s: float
    peak_pss_mib: float
    peak_rss_mib: float
    processes_seen: int
    peak_processes: int
    samples: int
    stragglers: int  # descendants still alive when the command exited
    started_at: float  # time.time() at spawn
    exited_at: float  # time.time() at the command's exit
    stdout: str
    stderr_lines: list[tuple[float, str]] = field(default_factory=list)  # (seconds since spawn, line)
    stdout_lines: list[tuple[float, str]] = field(default_factory=list)
    peak_breakdown: list[tuple[str, int]] = field(default_factory=list)  # (command line, PSS KiB) at the peak


def _reader(stream, sink: list[tuple[float, str]], start: float) -> None:
    for raw in iter(stream.readline, b""):
        sink.append((time.perf_counter() - start, raw.decode("utf-8", "replace").rstrip("\n")))
    stream.close()


def _reap_stragglers(deadline: float) -> int:
    """Wait for every remaining child of this process (our orphans land here); count them."""
    reaped = 0
    while True:
        try:
            pid, _ = os.waitpid(-1, os.WNOHANG)
        except ChildProcessError:
            return reaped
        if pid:
            reaped += 1
            continue
        if time.monotonic() > deadline:
            for child in children(os.getpid()):
                try:
                    os.kill(child, signal.SIGKILL)
                except ProcessLookupError:
                    pass
            deadline = float("inf")
        time.sleep(0.02)


def run_tree(args: list[str], env: dict[str, str] | None = None, cwd: str | Path | None = None,
             interval: float = 0.05, straggler_timeout: float = 30.0) -> TreeRun:
    """Run ``args`` to completion and measure its whole process tree (see the module doc)."""
    become_subreaper()
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    stdout_lines: list[tuple[float, str]] = []
    stderr_lines: list[tuple[float, str]] = []
    started_at = time.time()
    start = time.perf_counter()
    process = subprocess.Popen(args, env=env, cwd=cwd, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE)
    sampler = TreeSampler(process.pid, interval, adopter=os.getpid()).start()
    readers = [threading.Thread(target=_reader, args=(process.stdout, stdout_lines, start), daemon=True),
               threading.Thread(target=_reader, args=(process.stderr, stderr_lines, start), daemon=True)]
    for reader in readers:
        reader.start()
    _, status, _ = os.wait4(process.pid, 0)
    wall = time.perf_counter() - start
    exited_at = time.time()
    process.returncode = os.waitstatus_to_exitcode(status)
    stragglers = len(children(os.getpid()))
    _reap_stragglers(time.monotonic() + straggler_timeout)
    sampler.stop()
    for reader in readers:
        reader.join(timeout=5)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return TreeRun(exit_code=process.returncode, wall_s=wall, cpu_s=cpu,
                   peak_pss_mib=sampler.peak_pss_kib / 1024, peak_rss_mib=sampler.peak_rss_kib / 1024,
                   processes_seen=sampler.processes_seen, peak_processes=sampler.peak_processes,
                   samples=sampler.samples, stragglers=stragglers, started_at=started_at, exited_at=exited_at,
                   stdout="\n".join(line for _, line in stdout_lines), stderr_lines=stderr_lines,
                   stdout_lines=stdout_lines, peak_breakdown=sampler.peak_breakdown)


def spread(values: list[float], digits: int = 3) -> dict[str, float] | None:
    """Median with min and max (and how many values): the shape of every published figure."""
    values = [v for v in values if v is not None]
    if not values:
        return None
    return {"median": round(statistics.median(values), digits), "min": round(min(values), digits),
            "max": round(max(values), digits), "n": len(values)}

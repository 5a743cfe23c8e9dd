"""Start-up speed: `research --help` wall time and the REPL's time to prompt.

The REPL is started under a pseudo-terminal (it only starts on a terminal), like a user
would: the clock stops when the prompt text appears, then /quit is typed. Medians with
min–max over 9 runs (3 with --quick) after one uncounted warm-up run each. Cursor-position
requests are answered as a terminal would, so prompt-toolkit does not wait on them.

    .venv/bin/python benchmarks/bench_startup.py [--quick]
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
from treemem import spread  # noqa: E402

RESEARCH = str(Path(sys.executable).with_name("research"))
# The trailing space of "research> " is drawn as a cursor move, so match without it.
PROMPT = b"research>"
CURSOR_POSITION_REQUEST = b"\x1b[6n"


def _env(home: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("RESEARCH_", "OLLAMA_"))}
    env.update(HOME=str(home), XDG_CONFIG_HOME=str(home / ".config"), XDG_DATA_HOME=str(home / ".local/share"),
               RESEARCH_SESSIONS_DIR=str(home / "sessions"), TERM="xterm-256color", LANG="en_US.UTF-8")
    return env


def time_help(env: dict[str, str]) -> float:
    start = time.perf_counter()
    subprocess.run([RESEARCH, "--help"], env=env, check=True, capture_output=True)
    return time.perf_counter() - start


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


def run(quick: bool) -> dict:
    repeats = 3 if quick else 9
    with tempfile.TemporaryDirectory() as tmp:
        env = _env(Path(tmp))
        time_help(env)  # warm the OS file cache and .pyc files; the first run is not typical
        help_times = [time_help(env) for _ in range(repeats)]
        time_to_prompt(env)
        prompt_times = [time_to_prompt(env) for _ in range(repeats)]
    return {
        "benchmark": "startup",
        "runs": repeats,
        "help_wall_s": spread(help_times),
        "repl_time_to_prompt_s": spread(prompt_times),
    }


if __name__ == "__main__":
    print(json.dumps(run(quick="--quick" in sys.argv), indent=2))

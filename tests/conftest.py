"""Shared fixtures: the fake Ollama server, the local web, and two ways to run the CLI:
``run_research`` starts the console script as a subprocess (signals, real pipes, the
servers, runs as a user makes them); ``run_cli`` calls ``research.cli.main.main`` in this
process for commands that need no process boundary (sessions, config, help, verify on
files), as simonw/llm tests its CLI: the same arguments and environment, no interpreter start."""

from __future__ import annotations

import io
import json
import logging
import os
import signal
import subprocess
import sys
import threading
import time
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))
# A message key without a text raises instead of showing the key (modules/core/i18n.py reads
# this once, at import: before any test imports research).
STRICT_MESSAGES = {"RESEARCH_STRICT_MESSAGES": "1"}
os.environ.update(STRICT_MESSAGES)
# What the program keeps in the user's cache (fonts converted once, the judge's measured accuracy)
# goes to a folder of this test session, never the developer's own ~/.cache.
os.environ["XDG_CACHE_HOME"] = __import__("tempfile").mkdtemp(prefix="research-tests-cache-")

from fixtures.fake_ollama import FakeOllama  # noqa: E402
from fixtures.web_fixture import WebFixture  # noqa: E402

RESEARCH = str(Path(sys.executable).with_name("research"))


@pytest.fixture
def fake_ollama():
    with FakeOllama() as server:
        yield server


@pytest.fixture(scope="session")
def web():
    # The slow page is slower than every other page, but not by seconds: English runs find
    # it (it shares "facts" with the planned queries) and every such run waited for it.
    with WebFixture(slow_delay=0.5) as fixture:
        yield fixture


@pytest.fixture
def research_env(tmp_path, fake_ollama, web):
    """Environment for running `research` against the fakes, isolated from the user's files."""
    return research_environment(tmp_path, fake_ollama, web)


def research_environment(folder: Path, ollama: FakeOllama, web: WebFixture) -> dict[str, str]:
    home = folder / "home"
    home.mkdir()
    env = {k: v for k, v in os.environ.items() if not k.startswith(("RESEARCH_", "OLLAMA_"))}
    env.update(
        HOME=str(home),
        XDG_CONFIG_HOME=str(home / ".config"),
        RESEARCH_OLLAMA_HOST=ollama.url,
        RESEARCH_SEARCH_ENGINE="searxng",
        RESEARCH_SEARXNG_URL=web.searxng_url,
        RESEARCH_ALLOW_PRIVATE_NETWORK="true",
        RESEARCH_SESSIONS_DIR=str(folder / "sessions"),
        NO_COLOR="1",
        PYTHONUNBUFFERED="1",
        **STRICT_MESSAGES,
    )
    return env


# Complete runs shared by the tests that only read what they wrote (a full run starts both
# servers and the sandbox: several seconds on a small machine). One ordinary run per
# language, the language detected from the question as a user's would be; and variants
# for what several tests read alike. Each is made on first use, with its own fake Ollama.
SHARED_QUESTIONS = {"ja": "LangGraphのチェックポイントとは？", "en": "What are LangGraph checkpoints?"}


@dataclass(frozen=True)
class SharedRunKind:
    args: tuple[str, ...]
    env: tuple[tuple[str, str], ...] = ()
    mode: str = "normal"  # the fake Ollama's mode for the whole run


SHARED_RUN_KINDS = {
    "ja": SharedRunKind((SHARED_QUESTIONS["ja"], "--json")),
    "en": SharedRunKind((SHARED_QUESTIONS["en"], "--json")),
    # Without --json, as `research "…" > answer.md` runs: stdout is the answer, stderr ends
    # with the summary line. RESEARCH_NUM_CTX is set so the model calls show it arriving.
    "en-text": SharedRunKind(("What is the height of Mount Fuji?",), env=(("RESEARCH_NUM_CTX", "8192"),)),
    # Every structured reply is invalid JSON, retried once, then replaced by the fallback.
    "malformed": SharedRunKind(("What is the height of Mount Fuji?", "--json"), mode="malformed"),
}


@dataclass(frozen=True)
class SharedRun:
    result: CliResult
    summary: dict | None  # the --json line; None for a run without --json
    session: Path
    chats: list[dict]  # the /api/chat requests this run made


@pytest.fixture(scope="session")
def shared_run(tmp_path_factory, web):
    """``shared_run("ja")``: the session folder, output and model calls of that shared run
    (see SHARED_RUN_KINDS; made on first use). Tests must not change it."""
    runs: dict[str, SharedRun] = {}

    def get(kind_name: str) -> SharedRun:
        if kind_name not in runs:
            kind = SHARED_RUN_KINDS[kind_name]
            with FakeOllama(mode=kind.mode) as ollama:
                env = research_environment(tmp_path_factory.mktemp(f"shared-run-{kind_name}"), ollama, web)
                result = research_in_process(list(kind.args), {**env, **dict(kind.env)})
                chats = ollama.chat_requests()
            assert result.returncode == 0, result.stderr
            (session,) = session_dirs(env)
            summary = load_json_line(result.stdout) if "--json" in kind.args else None
            runs[kind_name] = SharedRun(result, summary, session, chats)
        return runs[kind_name]

    return get


def run_research(args: list[str], env: dict[str, str], timeout: float = 180) -> subprocess.CompletedProcess:
    return subprocess.run([RESEARCH, *args], env=env, capture_output=True, text=True, timeout=timeout,
                          stdin=subprocess.DEVNULL)


@dataclass(frozen=True)
class CliResult:
    """What ``run_research`` returns, for a command run in-process."""

    returncode: int
    stdout: str
    stderr: str
    args: tuple[str, ...] = ()


def research_in_process(args: list[str], env: dict[str, str], timeout: float | None = 180) -> CliResult:
    """``research ARGS`` run by ``main`` in this process, as ``run_research`` runs it in a new
    one: exactly ENV as the environment, stdin empty and not a terminal, stdout and stderr
    captured as text, the exit code from the SystemExit ``main`` raises. Its MCP servers are
    real processes all the same. About 1.7 s of CPU less than a subprocess for a whole run
    (no interpreter, no LangGraph or MCP SDK import), so tests about what a run writes and
    says use this; tests about the process itself (signals, kill -9, inherited streams, the
    import path, the console script's exit) start the console script with ``run_research``."""
    with _process_state(env), _time_limit(timeout, args):
        from research.cli.main import main

        stdout, stderr = io.StringIO(), io.StringIO()
        sys.stdin, sys.stdout, sys.stderr = io.StringIO(""), stdout, stderr
        try:
            main(list(args))
            code = 0  # as the interpreter does when main returns
        except SystemExit as exc:
            code = exc.code if isinstance(exc.code, int) else (0 if exc.code is None else 1)
            if isinstance(exc.code, str):  # printed and exit 1, as the interpreter does
                stderr.write(exc.code + "\n")
    return CliResult(code, stdout.getvalue(), stderr.getvalue(), tuple(args))


@contextmanager
def _process_state(env: dict[str, str]):
    """The environment set to exactly ENV, and the standard streams, the current folder and
    the MCP SDK's logger as they were, whatever the command does to them."""
    saved_env = dict(os.environ)
    saved_streams = sys.stdin, sys.stdout, sys.stderr
    saved_cwd = os.getcwd()
    # A run sends the MCP SDK's log to the session's server log and stops it propagating
    # (cli/progress.py); a later test's logging must not inherit that.
    mcp_log = logging.getLogger("mcp")
    saved_propagate, saved_handlers = mcp_log.propagate, list(mcp_log.handlers)
    os.environ.clear()
    os.environ.update(env)
    try:
        yield
    finally:
        os.environ.clear()
        os.environ.update(saved_env)
        sys.stdin, sys.stdout, sys.stderr = saved_streams
        os.chdir(saved_cwd)
        mcp_log.propagate = saved_propagate
        for handler in mcp_log.handlers[:]:
            if handler not in saved_handlers:
                mcp_log.removeHandler(handler)
                handler.close()


@pytest.fixture
def run_cli():
    """``run_cli(args, env)``: a command that needs neither a model nor the web (sessions,
    config, doctor --offline, verify on files) run in-process; see ``research_in_process``."""

    def run(args: list[str], env: dict[str, str], timeout: float | None = None) -> CliResult:
        return research_in_process(args, env, timeout)

    return run


class _TimeLimit(BaseException):
    """Raised in the test's thread when a command runs past its limit; a BaseException, so
    no ``except Exception`` (nor ``except OSError``, as TimeoutError would be) in src/ hides it."""


@contextmanager
def _time_limit(seconds: float | None, args):
    """What ``subprocess.run(timeout=…)`` gives a subprocess test: a command that hangs (a FIFO,
    /dev/zero) fails the test after SECONDS. Uses SIGALRM and gives pytest-timeout's alarm back."""
    if seconds is None:
        yield
        return

    def expire(signum, frame):
        raise _TimeLimit

    started = time.monotonic()
    previous_handler = signal.signal(signal.SIGALRM, expire)
    previous_delay, previous_interval = signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    except _TimeLimit:
        pytest.fail(f"research {' '.join(args)} did not end within {seconds} s")
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous_handler)
        if previous_delay:
            left = previous_delay - (time.monotonic() - started)
            signal.setitimer(signal.ITIMER_REAL, max(left, 0.001), previous_interval)


def session_dirs(env: dict[str, str]) -> list[Path]:
    root = Path(env["RESEARCH_SESSIONS_DIR"])
    return sorted(root.glob("session_*")) if root.exists() else []


def load_json_line(stdout: str) -> dict:
    return json.loads(stdout.strip().splitlines()[-1])


@pytest.fixture(autouse=True)
def _ctrl_c_deliverable():
    """Every test starts with SIGINT handled as Python's default and not blocked in this worker,
    as in a terminal where a person presses Ctrl-C. A command started in the background of a
    non-interactive shell (``pytest … &`` in a script, as a CI runner may start it) begins with
    SIGINT ignored (POSIX); Python then leaves it ignored, and every `research` a test starts
    inherits that and rightly ignores Ctrl-C: the Ctrl-C tests saw exit 0 instead of 130. Only a
    worker where an earlier in-process test had added and removed an asyncio SIGINT handler (which
    restores Python's default) passed them, so the failures came and went with the test order.
    Reproduced with ``bash -c 'pytest -k ctrl_c … & wait'`` without this fixture."""
    if threading.current_thread() is threading.main_thread():
        signal.signal(signal.SIGINT, signal.default_int_handler)
        signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT, signal.SIGTERM, signal.SIGHUP})
    yield

"""Shared fixtures: the fake Ollama server, the local web, and two ways to run the CLI:
``run_research`` starts the console script as a subprocess (signals, real pipes, the
servers, runs as a user makes them); ``run_cli`` calls ``research.cli.main.main`` in this
process for commands that need no process boundary (sessions, config, help, verify on
files), as simonw/llm tests its CLI: the same arguments and environment, no interpreter start."""

from __future__ import annotations

import asyncio
import contextvars
import io
import json
import logging
import os
import signal
import subprocess
import sys
import threading
import time
from contextlib import contextmanager, nullcontext
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
    own_servers: bool = False  # its output must show the servers starting (a kept pair is already up)


SHARED_RUN_KINDS = {
    "ja": SharedRunKind((SHARED_QUESTIONS["ja"], "--json")),
    "en": SharedRunKind((SHARED_QUESTIONS["en"], "--json")),
    # Without --json, as `research "…" > answer.md` runs: stdout is the answer, stderr ends
    # with the summary line. RESEARCH_NUM_CTX is set so the model calls show it arriving.
    "en-text": SharedRunKind(("What is the height of Mount Fuji?",), env=(("RESEARCH_NUM_CTX", "8192"),),
                             own_servers=True),
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
                result = research_in_process(list(kind.args), {**env, **dict(kind.env)}, own_servers=kind.own_servers)
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


# A test worker keeps starting web-search servers (a kept pair per web of its own, each
# replaced after a crash): as a host that does so, it asks for them to be forked by its zygote
# (modules/clients/zygote.py: about 0.06 s of CPU each instead of 1 s; the zygote's own import
# once per worker). Only for a run that takes the worker's kept pair: a run with its own
# servers starts them as the console script does (spawned), since what it tests is that start.
# `RESEARCH_TESTS_SPAWN_SERVERS=1 python -m pytest …`: every server spawned, as before.
FORKED_SERVERS = {} if os.environ.get("RESEARCH_TESTS_SPAWN_SERVERS") else {"RESEARCH_FORK_SERVERS": "1"}


def research_in_process(args: list[str], env: dict[str, str], timeout: float | None = 180, *,
                        own_servers: bool = False, forked_servers: bool = True) -> CliResult:
    """``research ARGS`` run by ``main`` in this process, as ``run_research`` runs it in a new
    one: exactly ENV as the environment, stdin empty and not a terminal, stdout and stderr
    captured as text, the exit code from the SystemExit ``main`` raises. Its MCP servers are
    real processes all the same. About 1.7 s of CPU less than a subprocess for a whole run
    (no interpreter, no LangGraph or MCP SDK import), so tests about what a run writes and
    says use this; tests about the process itself (signals, kill -9, inherited streams, the
    import path, the console script's exit) start the console script with ``run_research``.
    A run uses the worker's kept pair of servers (``SharedServers``); ``own_servers``: it
    starts its own, as the console script does (a test about the servers themselves). A run
    on the kept pair has its web-search server forked by the worker's zygote
    (``FORKED_SERVERS``) unless ENV says otherwise or ``forked_servers`` is False."""
    servers = None if own_servers else _shared_servers
    if servers is not None and forked_servers:
        env = {**FORKED_SERVERS, **env}
    with _process_state(env), _time_limit(timeout, args), (servers.lent() if servers else nullcontext()):
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


# Set while the kept pool starts its servers: every task created then (and every task those
# create: a task copies its creator's context) belongs to the pool, not to the run.
_POOL_TASK = contextvars.ContextVar("pool_task", default=False)
# What the servers read from the environment themselves, besides the settings ServerPool
# compares (server_pool.server_key, parser_key): a run that sets one gets servers started with it.
_SERVER_ENV_PREFIXES = ("RESEARCH_FETCH_", "RESEARCH_PARSER_")


class SharedServers:
    """Real MCP servers (the web-search server and the sandboxed parser: processes speaking
    MCP over stdio) per test worker, kept from one in-process run to the next, as a team
    worker keeps its pair (``KeptServers``): a test about what a run writes or says does not
    pay two server starts (about 2.5 s of CPU). Tests about starting, crashing, signals or
    the sandbox boundary start their own (the console script, or ``own_servers=True``).

    A pair serves every sessions folder under the worker's temporary root (the web-search
    server's ``--cache-root``, the parser's read-only view), so each test keeps its own
    sessions folder. One pair is kept per parser settings (those ``ServerPool`` compares for
    the parser, and the RESEARCH_FETCH_*/RESEARCH_PARSER_* the servers read themselves), the
    ``KEPT_PAIRS`` last used; a run with other web-search settings (a web of its own, another
    engine) has the pair's web-search server replaced, as ``ServerPool`` does, and the
    sandboxed parser kept: a forked web-search server costs little, a parser's start does. The
    pairs live in one event loop of this worker; a run that uses one runs in that loop
    (``asyncio.run`` is, for that run, an ``asyncio.Runner`` on it: the same Ctrl-C handling,
    a fresh context). A pair is stopped, and the next run starts a fresh one, when a server
    crashed and was restarted during a run, when a run did not end on its own (a time
    limit, Ctrl-C) and under a sandbox weaker than bubblewrap (whose warning each run says
    as its servers start). What a run leaves running is cancelled after it, as
    ``asyncio.run`` does."""

    KEPT_PAIRS = 2

    def __init__(self, root: Path) -> None:
        self.root = root.resolve()
        self.pools: dict[tuple, object] = {}  # server settings -> ServerPool, the last used last
        self.starts = 0  # pairs started, for the curious: `shared_servers.starts`
        self.runner = asyncio.Runner(loop_factory=self._new_loop)
        self._pool_tasks: set[asyncio.Task] = set()
        self._current = None  # the pool of the run under way

    def _new_loop(self) -> asyncio.AbstractEventLoop:
        loop = asyncio.new_event_loop()
        loop.set_task_factory(self._new_task)
        return loop

    def _new_task(self, loop, coro, context=None):  # noqa: ANN001 - asyncio's task factory
        task = asyncio.Task(coro, loop=loop, context=context)
        if (context.get(_POOL_TASK) if context is not None else _POOL_TASK.get()):
            self._pool_tasks.add(task)
            task.add_done_callback(self._pool_tasks.discard)
        return task

    def _rooted(self, settings):  # noqa: ANN001, ANN202
        """The settings a kept pair starts with: the worker's root as the sessions folder."""
        sessions = Path(settings.sessions_dir).expanduser().resolve()
        if sessions == self.root or self.root in sessions.parents:
            return settings.model_copy(update={"sessions_dir": self.root})
        return settings

    async def _pool_for(self, settings):  # noqa: ANN001, ANN202
        from research.orchestrator.server_pool import ServerPool, parser_key, server_key

        shared = self

        class KeptPool(ServerPool):
            async def start(self, settings, after=None, *, wait_spawned=False):  # noqa: ANN001 - ServerPool's
                settings = shared._rooted(settings)
                if not self.started or self._key != server_key(settings):
                    shared.starts += 1
                token = _POOL_TASK.set(True)
                try:
                    await super().start(settings, after, wait_spawned=wait_spawned)
                finally:
                    _POOL_TASK.reset(token)

        key = (parser_key(self._rooted(settings)),
               tuple(sorted((name, value) for name, value in os.environ.items() if name.startswith(_SERVER_ENV_PREFIXES))))
        pool = self.pools.pop(key, None)
        if pool is None or settings.sandbox in ("unshare", "none"):
            if pool is not None:
                await pool.aclose()
            pool = KeptPool()
        self.pools[key] = pool
        while len(self.pools) > self.KEPT_PAIRS:
            await self.pools.pop(next(iter(self.pools))).aclose()
        return pool

    @contextmanager
    def lent(self):
        """For one in-process run: ``asyncio.run`` runs in the kept loop, and the runner is
        given the kept pair for its settings."""
        import research.orchestrator.runner as runner

        real_run, real_research = asyncio.run, runner.run_research

        def run(main, *, debug=None):  # noqa: ANN001 - asyncio.run's signature
            if threading.current_thread() is not threading.main_thread():
                return real_run(main, debug=debug)
            return self._run(main)

        async def run_research(request, settings, progress):  # noqa: ANN001 - the runner's signature
            if request.servers is None:
                request.servers = self._current = await self._pool_for(settings)
            return await real_research(request, settings, progress)

        asyncio.run, runner.run_research = run, run_research
        try:
            yield
        finally:
            asyncio.run, runner.run_research = real_run, real_research

    def _run(self, main):  # noqa: ANN001
        ended = False  # on its own: a result, or an error of its own (a model error, no source)
        self._current = None
        try:
            result = self.runner.run(main, context=contextvars.copy_context())
            ended = True
            return result
        except Exception:
            ended = True
            raise
        finally:
            self._tidy(ended)

    def _tidy(self, ended: bool) -> None:
        """What ``asyncio.run`` does at the end of a run, but the kept pairs' tasks (and their
        connections, async generators) stay; the run's pair is stopped if it is unfit."""
        loop = self.runner.get_loop()
        for signum in (signal.SIGTERM, signal.SIGHUP):  # the run's own (cli/signals.py)
            loop.remove_signal_handler(signum)
        pool, self._current = self._current, None
        if pool is not None and (not ended or pool.restarted):
            self.pools = {key: kept for key, kept in self.pools.items() if kept is not pool}
            try:
                loop.run_until_complete(pool.aclose())
            except Exception:  # noqa: BLE001 - a pair that will not close cleanly is still gone
                pass
        leftovers = [task for task in asyncio.all_tasks(loop) if task not in self._pool_tasks]
        for task in leftovers:
            task.cancel()
        if leftovers:
            loop.run_until_complete(asyncio.gather(*leftovers, return_exceptions=True))
        if pool is not None and any(kept is pool for kept in self.pools.values()):
            self._see_started(pool)

    def _see_started(self, pool) -> None:  # noqa: ANN001 - a KeptPool
        """Wait for the kept pair's servers to finish starting, when the run ended before it
        needed them (no source, an early error). This loop runs only while a run does: a start
        left half-way would sit out the minutes until the next in-process run and then find
        its time limit passed ("the parser could not start: no answer within 60 s"). A pair
        that could not start is stopped; the next run starts a fresh one."""
        loop = self.runner.get_loop()
        clients = [client for client in (pool.web_search, pool.parser) if client is not None]

        async def started() -> None:  # gathered inside the kept loop, not in whichever is current
            await asyncio.gather(*(client.start() for client in clients))

        try:
            loop.run_until_complete(started())
        except Exception:  # noqa: BLE001 - said by the run that needs it; here only not kept
            self.pools = {key: kept for key, kept in self.pools.items() if kept is not pool}
            try:
                loop.run_until_complete(pool.aclose())
            except Exception:  # noqa: BLE001 - a pair that will not close cleanly is still gone
                pass

    def close(self) -> None:
        loop = self.runner.get_loop()
        try:
            for pool in self.pools.values():
                loop.run_until_complete(pool.aclose())
        finally:
            self.pools = {}
            self.runner.close()  # cancels what is left, closes async generators and the loop


_shared_servers: SharedServers | None = None


@pytest.fixture(scope="session", autouse=True)
def shared_servers(tmp_path_factory):
    """The worker's kept pair (started by the first in-process run that needs it).
    ``RESEARCH_TESTS_OWN_SERVERS=1 pytest …``: none; each in-process run starts its own."""
    global _shared_servers
    if os.environ.get("RESEARCH_TESTS_OWN_SERVERS"):  # every run starts its own pair, as before
        yield None
        return
    _shared_servers = SharedServers(tmp_path_factory.getbasetemp())
    yield _shared_servers
    servers, _shared_servers = _shared_servers, None
    servers.close()


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
        # `doctor` starts and checks the servers as a user's does: spawned, never forked.
        return research_in_process(args, env, timeout, forked_servers=False)

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


class SessionClock:
    """``session_clock.advance()``: what sleeping a second does to the sessions this process makes
    next (their ids and times carry the second they were made), without the wait."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        from datetime import datetime, timedelta

        import research.state.session_folder as folder

        self.offset = timedelta()
        clock = self

        class Later(datetime):
            @classmethod
            def now(cls, tz=None):  # noqa: ANN001, ANN206 - datetime.now's signature
                return datetime.now(tz) + clock.offset

        monkeypatch.setattr(folder, "datetime", Later)

    def advance(self, seconds: float = 1.0) -> None:
        from datetime import timedelta

        self.offset += timedelta(seconds=seconds)


@pytest.fixture
def session_clock(monkeypatch):
    return SessionClock(monkeypatch)


def session_dirs(env: dict[str, str]) -> list[Path]:
    root = Path(env["RESEARCH_SESSIONS_DIR"])
    return sorted(root.glob("session_*")) if root.exists() else []


def load_json_line(stdout: str) -> dict:
    return json.loads(stdout.strip().splitlines()[-1])


# Tests that start our processes (a whole run, an MCP server, the sandbox, the console
# script, `research serve`) or measure speed, in files that do not mark themselves
# (`pytestmark = pytest.mark.e2e`): marked here, so `pytest -m 'not e2e'` (the quick loop,
# README) leaves them out. A path marks a whole file; a path::name marks that test (every
# parameter of it).
E2E_TESTS = (
    "tests/faults/test_fault_model.py",
    "tests/test_bench_e2e.py",
    "tests/test_benchmarks_smoke.py",
    "tests/test_compressed_pages.py",
    "tests/test_doctor.py",
    "tests/test_judge_checker.py",
    "tests/test_judge_doctor.py",
    "tests/test_memory_imports.py",
    "tests/test_parser_hostile.py",
    "tests/test_parser_sandbox.py",
    "tests/test_piped_tables.py",
    "tests/test_progress_log.py",
    "tests/test_remote_client_hostile.py",
    "tests/test_repl.py",
    "tests/test_security_mcp_limits.py",
    "tests/test_server_process.py",
    "tests/test_servers_hosts.py",
    "tests/test_serve_sessions_folder.py",
    "tests/test_speed_pool.py",
    "tests/test_verify_speed.py",
    "tests/test_web_fixture.py",
    "tests/test_web_search_server.py",
    "tests/faults/test_fault_input.py::test_bad_input_is_one_line_and_exit_2",
    "tests/test_bench_fetch.py::test_a_fetched_set_is_what_a_bench_without_data_reads",
    "tests/test_documents_index.py::test_a_folder_slower_to_index_than_the_call_timeout_is_waited_for_and_kept",
    "tests/test_import_graph.py::test_loading_the_single_user_program_loads_nothing_of_the_team",
    "tests/test_research_depth.py::test_three_sub_questions_are_searched_concurrently_and_merged",
    "tests/test_search_engines.py::test_documents_without_an_engine_are_what_is_searched",
    "tests/test_search_engines.py::test_local_engine_ranks_japanese_and_english_documents",
    "tests/test_claims.py::test_splitting_is_linear_in_the_answers_length",
    "tests/test_logging.py::test_verbose_run_logs_its_steps_and_model_calls_and_a_plain_run_does_not",
    "tests/test_logging.py::test_the_log_level_setting_alone_turns_it_on",
    "tests/test_logging.py::test_the_log_is_in_the_runs_language_and_english_to_any_other_reader",
    "tests/test_cli_conventions.py::test_verbose_on_a_run_shows_each_steps_account",
    "tests/test_cli_conventions.py::test_doctor_accepts_verbose",
    "tests/test_run_options.py::test_a_run_with_since_leaves_out_the_older_document_and_says_so",
    "tests/test_verify_cli.py::test_sources_can_be_urls_fetched_by_the_web_search_server_and_parsed_in_the_sandbox",
)


def pytest_collection_modifyitems(config, items):
    for item in items:
        path = item.nodeid.split("::", 1)[0]
        name = item.nodeid.split("[", 1)[0]
        if path in E2E_TESTS or name in E2E_TESTS:
            item.add_marker(pytest.mark.e2e)


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

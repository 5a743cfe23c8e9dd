"""`research serve` as a team meets it: the console script started as a subprocess with two
workers on a real PostgreSQL, reached over Streamable HTTP by the `mcp` client with
bearer tokens, running research against the fake Ollama and the local web."""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import threading
import time
from contextlib import contextmanager
from pathlib import Path

import anyio
import httpx
import httpx2
import pytest
from conftest import RESEARCH, CliResult, research_in_process
from mcp import Client
from mcp.client.streamable_http import streamable_http_client

from fixtures.postgres import database_url, postgres_server  # noqa: F401 - pytest fixtures
from research.state.run_record import RunJson
from research.team.api import RunEvents, RunStatusBody, SessionMeta, SessionRows

pytestmark = pytest.mark.e2e

QUESTION = "What is the height of Mount Fuji?"


def token_add(env: dict[str, str], name: str) -> str:
    # A command that needs no process of its own (it writes the tokens file): run in-process.
    result = research_in_process(["serve", "token", "add", name], env, timeout=60)
    assert result.returncode == 0, result.stderr
    return result.stdout.strip()


@contextmanager
def serving(env: dict[str, str], workers: int = 2, *, log: list[str] | None = None, args: tuple[str, ...] = ()):
    """`research serve --port 0`: yields the /mcp URL it prints; stopped (SIGTERM) at the end.
    What it writes to stderr afterwards (its access log) is read all along, so the pipe
    never fills, and kept in ``log`` when one is given."""
    process = subprocess.Popen([RESEARCH, "serve", "--port", "0", "--workers", str(workers), *args], env=env,
                               stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
                               stdin=subprocess.DEVNULL, start_new_session=True)
    kept = log if log is not None else []

    def read_on() -> None:
        for line in process.stderr:
            kept.append(line)

    drain = threading.Thread(target=read_on, daemon=True)
    try:
        lines = []
        for line in process.stderr:
            lines.append(line)
            found = re.search(r"(http://127\.0\.0\.1:\d+/mcp)", line)
            if found:
                break
        else:
            raise AssertionError("research serve did not start: " + "".join(lines))
        drain.start()
        yield found.group(1)
    finally:
        process.send_signal(signal.SIGTERM)
        try:
            process.wait(40)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            raise
        finally:
            if drain.is_alive():
                drain.join(5)
            process.stderr.close()


def client(url: str, token: str) -> Client:
    # A plain client with the bearer token, as an MCP host would build one (not the SDK's private helper).
    http = httpx2.AsyncClient(headers={"Authorization": f"Bearer {token}"}, timeout=httpx2.Timeout(30.0, read=300.0))
    return Client(streamable_http_client(url, http_client=http))


def servers_started(url: str) -> list[tuple[int, int]]:
    """(run id, how many times its worker said the servers were starting) of each run, in order."""
    import psycopg

    with psycopg.connect(url) as connection:
        return connection.execute(
            "SELECT r.run_id, count(e.id) FILTER (WHERE e.event = 'servers_starting') FROM research_runs r "
            "LEFT JOIN research_run_events e ON e.run_id = r.run_id GROUP BY r.run_id ORDER BY r.run_id").fetchall()


@pytest.fixture
def serve_env(research_env, database_url, tmp_path):
    return {**research_env, "RESEARCH_DATABASE_URL": database_url,
            "RESEARCH_TOKENS_FILE": str(tmp_path / "tokens.json")}


async def test_tokens_are_required_and_each_sees_only_its_own_sessions(serve_env):
    alice, bob = token_add(serve_env, "alice"), token_add(serve_env, "bob")
    stored = Path(serve_env["RESEARCH_TOKENS_FILE"]).read_text("utf-8")
    assert alice not in stored and bob not in stored, "only hashes are kept"
    assert oct(Path(serve_env["RESEARCH_TOKENS_FILE"]).stat().st_mode & 0o777) == "0o600"
    with serving(serve_env) as url:
        initialize = {"jsonrpc": "2.0", "id": 1, "method": "initialize",
                      "params": {"protocolVersion": "2025-06-18", "capabilities": {},
                                 "clientInfo": {"name": "curl", "version": "0"}}}
        headers = {"Accept": "application/json, text/event-stream"}
        for auth in ({}, {"Authorization": "Bearer rsk_not-a-token"}, {"Authorization": f"Basic {alice}"}):
            refused = httpx.post(url, json=initialize, headers={**headers, **auth}, timeout=30)
            assert refused.status_code == 401, (auth, refused.text)
            assert refused.headers["www-authenticate"].startswith("Bearer")

        progress: list[str] = []
        bar: list[tuple[float, float | None]] = []

        async def on_progress(value: float, total: float | None, message: str | None) -> None:
            progress.append(message or "")
            bar.append((value, total))

        async with client(url, alice) as host:
            tools = {tool.name for tool in (await host.list_tools()).tools}
            assert tools == {"research", "run", "cancel", "sessions", "session-report"}
            result = await host.call_tool("research", {"question": QUESTION, "lang": "en"},
                                          progress_callback=on_progress)
            assert not result.is_error, result.content[0].text
            output = result.structured_content
            run_id = output["run_id"]
            assert "Mount Fuji" in output["answer"] and output["report_pdf"] == f"/api/runs/{run_id}/files/report.pdf"
            assert progress[0].startswith(f"Queued as run {run_id} ")
            assert any(m.startswith("Started by worker") for m in progress)
            assert any(m.startswith("Checking every claim") for m in progress)
            values = [value for value, _ in bar]
            assert {total for _, total in bar} == {100.0} and values == sorted(set(values)) and values[-1] == 100.0
            mine = await host.call_tool("sessions", {})
            assert [s["session_id"] for s in mine.structured_content["sessions"]] == [output["session_id"]]
            # No server paths anywhere a client is told: the files come over the API.
            served = serve_env["RESEARCH_SESSIONS_DIR"]
            for said in (mine, result):
                assert served not in json.dumps(said.structured_content) + said.content[0].text
            base = url.removesuffix("/mcp")
            pdf = httpx.get(base + output["report_pdf"], headers={"Authorization": f"Bearer {alice}"}, timeout=30)
            assert pdf.status_code == 200 and pdf.content.startswith(b"%PDF")
            report = await host.call_tool("session-report", {"session_id": output["session_id"]})
            markdown = httpx.get(base + output["report_md"], headers={"Authorization": f"Bearer {alice}"}, timeout=30)
            assert report.content[0].text == markdown.text

        async with client(url, bob) as host:
            theirs = await host.call_tool("sessions", {})
            assert theirs.structured_content["sessions"] == []
            peek = await host.call_tool("session-report", {"session_id": output["session_id"]})
            assert peek.is_error and "No session" in peek.content[0].text
            resume = await host.call_tool("research", {"question": "", "resume": output["session_id"]})
            assert resume.is_error and "No session" in resume.content[0].text
            follow = await host.call_tool("run", {"run_id": run_id})
            assert follow.is_error and f"No run {run_id}" in follow.content[0].text
        for path in (output["report_pdf"], f"/api/runs/{run_id}", f"/api/sessions/{output['session_id']}"):
            other = httpx.get(url.removesuffix("/mcp") + path, headers={"Authorization": f"Bearer {bob}"}, timeout=30)
            assert other.status_code == 404, path
            anonymous = httpx.get(url.removesuffix("/mcp") + path, timeout=30)
            assert anonymous.status_code == 401, path

        # A revoked token stops working at once, without a restart.
        revoked = research_in_process(["serve", "token", "revoke", "alice"], serve_env, timeout=60)
        assert revoked.returncode == 0, revoked.stderr
        gone = httpx.post(url, json=initialize, headers={**headers, "Authorization": f"Bearer {alice}"}, timeout=30)
        assert gone.status_code == 401


async def test_a_token_has_a_limit_on_queued_runs(serve_env, fake_ollama):
    token = token_add(serve_env, "carol")
    fake_ollama.token_delay = 0.05
    env = {**serve_env, "RESEARCH_QUEUE_LIMIT": "1"}
    with serving(env, workers=1) as url:
        async with client(url, token) as host:
            outcome: dict = {}
            progress: list[str] = []

            async def first() -> None:
                async def on_progress(value, total, message):
                    progress.append(message or "")
                outcome["first"] = await host.call_tool("research", {"question": QUESTION},
                                                        progress_callback=on_progress)

            async with anyio.create_task_group() as group:
                group.start_soon(first)
                deadline = time.monotonic() + 60
                while not progress:
                    assert time.monotonic() < deadline
                    await anyio.sleep(0.05)
                second = await host.call_tool("research", {"question": "What is LangGraph?"})
                assert second.is_error and "limit 1" in second.content[0].text, second.content[0].text
            assert not outcome["first"].is_error


def test_serve_without_a_database_is_one_line_exit_2(research_env):
    result = research_in_process(["serve"], research_env, timeout=60)
    assert result.returncode == 2 and "RESEARCH_DATABASE_URL" in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1 and "Traceback" not in result.stderr


def test_token_commands_say_what_is_wrong_in_one_line(research_env, tmp_path):
    env = {**research_env, "RESEARCH_TOKENS_FILE": str(tmp_path / "tokens.json")}
    token_add(env, "dave")
    for args, words in ((["add", "dave"], "exists already"), (["revoke", "nobody"], "No token"),
                        (["add", ""], "name")):
        result = research_in_process(["serve", "token", *args], env, timeout=60)
        assert result.returncode == 2 and words in result.stderr, result.stderr
        assert len(result.stderr.strip().splitlines()) == 1
    listed = research_in_process(["serve", "token", "list", "--json"], env, timeout=60)
    assert [t["name"] for t in json.loads(listed.stdout)] == ["dave"] and "rsk_" not in listed.stdout



def test_research_with_research_server_looks_like_a_local_run(serve_env, tmp_path, shared_run):
    """stdout, --json, progress marks, the closing line and -o are a local run's; the report files
    come back over the API into a local folder the closing line names (no shared folder)."""
    token = token_add(serve_env, "erin")
    with serving(serve_env, workers=1) as url:
        base = url.removesuffix("/mcp")
        client_env = {k: v for k, v in serve_env.items() if k != "RESEARCH_DATABASE_URL"}
        here = Path(serve_env["RESEARCH_SESSIONS_DIR"]).parent / "elsewhere"
        client_env.update(RESEARCH_SERVER=base, RESEARCH_SERVER_TOKEN=token, RESEARCH_SESSIONS_DIR=str(here))
        result = subprocess.run([RESEARCH, QUESTION, "--json", "-o", str(tmp_path / "out")], env=client_env,
                                capture_output=True, text=True, timeout=180, stdin=subprocess.DEVNULL)
        assert result.returncode == 0, result.stderr
        summary = json.loads(result.stdout.strip().splitlines()[-1])
        assert set(summary) == set(shared_run("en").summary), "--json has a local run's keys"
        assert summary["problems"] == [] and summary["exit_code"] == 0 and summary["source_list"]
        # The files are here, in a folder of the client's; the server's folder is never named.
        folder = Path(summary["session_dir"])
        assert folder.parent == here / "from-server" and folder.name == f"session_{summary['session_id']}"
        assert Path(summary["report_pdf"]).read_bytes().startswith(b"%PDF")
        assert "Mount Fuji" in summary["answer"] and serve_env["RESEARCH_SESSIONS_DIR"] not in result.stdout
        lines = result.stderr.splitlines()
        assert lines[0].startswith("Queued as run") and "research attach" in lines[0]
        # --json and every /api body the client read are their published models (docs/schemas/).
        RunJson.model_validate(summary)
        run_id, api = int(re.search(r"run (\d+)", lines[0]).group(1)), {"Authorization": f"Bearer {token}"}
        status = RunStatusBody.model_validate(httpx.get(f"{base}/api/runs/{run_id}", headers=api, timeout=30).json())
        assert status.status == "done" and status.result is not None
        assert status.result.session_id == summary["session_id"] and status.result.source_list
        events = RunEvents.model_validate(httpx.get(f"{base}/api/runs/{run_id}/events", headers=api, timeout=30).json())
        assert events.events and events.status == "done"
        SessionRows.model_validate(httpx.get(f"{base}/api/sessions", headers=api, timeout=30).json())
        one = SessionMeta.model_validate(
            httpx.get(f"{base}/api/sessions/{summary['session_id']}", headers=api, timeout=30).json())
        assert one.status == "done" and [s.label for s in one.source_list if s.read]
        assert any(line.startswith("✓ Writing the report") for line in lines), result.stderr
        assert summary["report_md"] in lines[-1] or any(summary["report_md"] in line for line in lines[-4:])
        stem = summary["session_id"]
        assert sorted(p.name for p in (tmp_path / "out").iterdir()) == [f"{stem}.json", f"{stem}.md", f"{stem}.pdf"]
        assert json.loads((tmp_path / "out" / f"{stem}.json").read_text("utf-8")) == summary

        # Redirected stdout is the answer as report.md says it, as for a local run.
        plain = subprocess.run([RESEARCH, QUESTION], env=client_env, capture_output=True, text=True, timeout=180,
                               stdin=subprocess.DEVNULL)
        assert plain.returncode == 0, plain.stderr
        assert plain.stdout.startswith("## ") and "Mount Fuji" in plain.stdout and "[S1]" in plain.stdout
        # The one worker ran both, and started its servers for the first only: it keeps them.
        started = servers_started(serve_env["RESEARCH_DATABASE_URL"])
        assert len(started) == 2 and started[0][1] == 1 and started[1][1] == 0, started

        # `research sessions` reads the server's sessions, shown as local ones are (in-process:
        # the commands' own process is not what this checks).
        def sessions(*args: str, env: dict[str, str] = client_env) -> CliResult:
            return research_in_process(["sessions", *args], env, timeout=60)

        listed = sessions("list", "--json")
        assert listed.returncode == 0, listed.stderr
        rows = {row["session_id"]: row for row in json.loads(listed.stdout)}
        assert summary["session_id"] in rows and len(rows) == 2
        assert rows[summary["session_id"]]["status"] == "done" and rows[summary["session_id"]]["sources"] >= 1
        assert serve_env["RESEARCH_SESSIONS_DIR"] not in listed.stdout
        table = sessions("list")
        assert table.returncode == 0 and summary["session_id"] in table.stdout and "supported)" in table.stdout
        shown = sessions("show", summary["session_id"])
        assert shown.returncode == 0, shown.stderr
        assert shown.stdout == Path(summary["report_md"]).read_text("utf-8")
        meta = json.loads(sessions("show", summary["session_id"], "--json").stdout)
        assert meta["session_id"] == summary["session_id"] and Path(meta["report_md"]).is_file()
        no_viewer = {k: v for k, v in client_env.items() if k not in ("DISPLAY", "WAYLAND_DISPLAY")}
        opened = sessions("open", summary["session_id"], env={**no_viewer, "PATH": str(tmp_path)})
        assert opened.returncode == 0, opened.stderr
        assert Path(opened.stdout.strip()).read_bytes().startswith(b"%PDF") and "No viewer" in opened.stderr
        unknown = sessions("show", "20200101_000000_abcdef")
        assert unknown.returncode == 2 and "No session 20200101_000000_abcdef" in unknown.stderr

        refused = subprocess.run([RESEARCH, QUESTION], env={**client_env, "RESEARCH_SERVER_TOKEN": "rsk_wrong"},
                                 capture_output=True, text=True, timeout=60, stdin=subprocess.DEVNULL)
        assert refused.returncode == 2 and "refused the token" in refused.stderr, refused.stderr
        assert len(refused.stderr.strip().splitlines()) == 1


def test_the_repl_with_research_server_asks_there_and_follow_ups_keep_the_conversation(serve_env, monkeypatch, capsys):
    # issue 24: "RESEARCH_SERVER=http://… makes research "…" and the REPL submit there".
    from prompt_toolkit.input import create_pipe_input
    from prompt_toolkit.output import DummyOutput

    from research.cli.repl import run_repl
    from research.modules.core.settings import load_settings

    token = token_add(serve_env, "frank")
    with serving(serve_env, workers=1) as url:
        client_env = {k: v for k, v in serve_env.items() if k != "RESEARCH_DATABASE_URL"}
        client_env.update(RESEARCH_SERVER=url.removesuffix("/mcp"), RESEARCH_SERVER_TOKEN=token,
                          RESEARCH_SESSIONS_DIR=str(Path(serve_env["RESEARCH_SESSIONS_DIR"]).parent / "elsewhere"))
        for key in list(os.environ):
            if key.startswith(("RESEARCH_", "OLLAMA_")):
                monkeypatch.delenv(key)
        for key, value in client_env.items():
            monkeypatch.setenv(key, value)
        with create_pipe_input() as pipe:
            # /sessions, /show and /sources read the server's sessions, as the conversation's are there.
            pipe.send_text(f"{QUESTION}\rWhen did it last erupt?\r/sessions\r/show\r/sources\r/quit\r")
            assert run_repl(load_settings(), input=pipe, output=DummyOutput()) == 0
    out, err = capsys.readouterr()
    assert "Traceback" not in out + err
    assert "Mount Fuji" in out and err.count("Queued as run") == 2, err
    served = sorted(Path(serve_env["RESEARCH_SESSIONS_DIR"]).glob("session_*"))
    assert len(served) == 2
    first, follow_up = (json.loads((folder / "meta.json").read_text("utf-8")) for folder in served)
    assert follow_up["parent_session"] == first["session_id"]  # the conversation went on, on the server
    assert first["session_id"] in out and follow_up["session_id"] in out  # /sessions: the server's list
    assert "| Claims |" in out  # /show: the follow-up's report.md, the REPL's current session
    # /sources: what the follow-up's run read, from the server (this client has no copy of its ledger).
    listing = out[out.index(f"Sources of session {follow_up['session_id']}"):]
    assert re.search(r"^S1 .+ \(read\)$", listing, re.M) and re.search(r"^    http://127\.0\.0\.1:\d+/", listing, re.M)
    # Nothing ran here: only the report files came back.
    assert not list(Path(client_env["RESEARCH_SESSIONS_DIR"]).glob("session_*"))


def _add_tokens(path: str, prefix: str, count: int, start) -> None:
    from research.team.tokens import TokenStore

    start.wait()
    store = TokenStore(Path(path))
    for number in range(count):
        store.add(f"{prefix}-{number}")


def _revoke_or_add(path: str, action: str, start) -> None:
    from research.team.tokens import TokenStore

    start.wait()
    store = TokenStore(Path(path))
    store.revoke("old") if action == "revoke" else store.add("new")


def test_token_changes_made_at_once_all_hold(tmp_path):
    """Three processes adding 15 tokens each keep all 45; a revoke beside an add stays revoked."""
    import multiprocessing

    from research.team.tokens import TokenStore

    context = multiprocessing.get_context("fork")
    path = tmp_path / "tokens.json"
    start = context.Barrier(3)
    adders = [context.Process(target=_add_tokens, args=(str(path), name, 15, start)) for name in "abc"]
    for process in adders:
        process.start()
    for process in adders:
        process.join(60)
        assert process.exitcode == 0
    assert len(TokenStore(path).list()) == 45
    for trial in range(6):
        path = tmp_path / f"trial{trial}.json"
        store = TokenStore(path)
        _, old = store.add("old")
        start = context.Barrier(2)
        both = [context.Process(target=_revoke_or_add, args=(str(path), action, start)) for action in ("revoke", "add")]
        for process in both:
            process.start()
        for process in both:
            process.join(60)
            assert process.exitcode == 0
        assert store.verify(old) is None, f"trial {trial}: the revoked token still works"
        assert [entry.name for entry in store.list()] == ["new"]


async def test_a_caller_cannot_raise_the_admins_budgets(serve_env):
    import psycopg

    token = token_add(serve_env, "ivan")
    env = {**serve_env, "RESEARCH_MAX_SOURCES": "1", "RESEARCH_MAX_SECONDS": "600"}
    with serving(env, workers=0) as url:
        async with client(url, token) as host:
            raised = await host.call_tool("research", {"question": QUESTION, "max_sources": 50,
                                                       "max_seconds": 100_000, "detach": True})
            assert not raised.is_error, raised.content[0].text
            lowered = await host.call_tool("research", {"question": QUESTION, "max_seconds": 30, "detach": True})
            absurd = await host.call_tool("research", {"question": QUESTION, "max_seconds": 1e300, "detach": True})
            assert absurd.is_error and "max_seconds" in absurd.content[0].text
    with psycopg.connect(serve_env["RESEARCH_DATABASE_URL"]) as connection:
        rows = dict(connection.execute("SELECT run_id, request FROM research_runs").fetchall())
    assert rows[raised.structured_content["run_id"]]["overrides"] == {"max_sources": 1, "max_seconds": 600}
    assert rows[lowered.structured_content["run_id"]]["overrides"] == {"max_seconds": 30}

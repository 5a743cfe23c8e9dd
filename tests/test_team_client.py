"""A team's client never loses its run: a database restart and a restarted `research serve` front
are waited out, the run keeps its number, and `research attach N` or the MCP `run` tool follow it
again. Everything real: PostgreSQL (tests/fixtures/postgres.py), `research serve` as a subprocess
(the front alone, then a worker started on purpose, so the blip lands while the run waits),
the console script as the client, the fake Ollama and the local web."""

from __future__ import annotations

import json
import os
import re
import signal
import socket
import subprocess
import threading
import time
from contextlib import contextmanager
from pathlib import Path

import anyio
import httpx
import pytest
from conftest import RESEARCH, research_in_process
from test_serve_http import QUESTION, client, serve_env, token_add  # noqa: F401 - fixtures

from fixtures.postgres import database_url, postgres_server  # noqa: F401 - pytest fixtures

pytestmark = pytest.mark.e2e


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


@contextmanager
def front(env: dict[str, str], port: int):
    """`research serve --workers 0` on ``port`` (the HTTP front alone): its /mcp URL."""
    process = subprocess.Popen([RESEARCH, "serve", "--port", str(port), "--workers", "0"], env=env,
                               stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
                               stdin=subprocess.DEVNULL, start_new_session=True)
    try:
        seen = []
        for line in process.stderr:
            seen.append(line)
            if f"127.0.0.1:{port}/mcp" in line:
                break
        else:
            raise AssertionError("research serve did not start: " + "".join(seen))
        # Keep reading stderr so the front never blocks on a full pipe.
        threading.Thread(target=lambda: [None for _ in process.stderr], daemon=True).start()
        yield process, f"http://127.0.0.1:{port}/mcp"
    finally:
        if process.poll() is None:
            process.send_signal(signal.SIGTERM)
            try:
                process.wait(30)
            except subprocess.TimeoutExpired:
                os.killpg(process.pid, signal.SIGKILL)


@contextmanager
def worker(env: dict[str, str]):
    process = subprocess.Popen([RESEARCH, "serve", "worker"], env=env, stdout=subprocess.DEVNULL,
                               stderr=subprocess.DEVNULL, stdin=subprocess.DEVNULL, start_new_session=True)
    try:
        yield process
    finally:
        process.send_signal(signal.SIGTERM)
        try:
            process.wait(40)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)


def client_process(env: dict[str, str], url: str, token: str, *args: str) -> subprocess.Popen:
    client_env = {k: v for k, v in env.items() if k != "RESEARCH_DATABASE_URL"}
    client_env.update(RESEARCH_SERVER=url.removesuffix("/mcp"), RESEARCH_SERVER_TOKEN=token,
                      RESEARCH_SESSIONS_DIR=str(Path(env["RESEARCH_SESSIONS_DIR"]).parent / "client"))
    return subprocess.Popen([RESEARCH, *args], env=client_env, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            stdin=subprocess.DEVNULL, text=True)


def client_env_of(env: dict[str, str], url: str, token: str) -> dict[str, str]:
    client_env = {k: v for k, v in env.items() if k != "RESEARCH_DATABASE_URL"}
    client_env.update(RESEARCH_SERVER=url.removesuffix("/mcp"), RESEARCH_SERVER_TOKEN=token,
                      RESEARCH_SESSIONS_DIR=str(Path(env["RESEARCH_SESSIONS_DIR"]).parent / "client"))
    return client_env


def queued_run(process: subprocess.Popen, timeout: float = 60) -> int:
    """The run number the client printed first ("Queued as run N …")."""
    deadline = time.monotonic() + timeout
    line = ""
    while time.monotonic() < deadline:
        line = process.stderr.readline()
        found = re.match(r"Queued as run (\d+)", line)
        if found:
            return int(found.group(1))
        if not line and process.poll() is not None:
            break
    raise AssertionError(f"no run number from the client: {line!r} (exit {process.poll()})")


def restart_database(postgres) -> None:
    """A database restart: every connection the front holds is dropped."""
    # -l: the restarted server writes its log there, not into the pipe _run reads to its end.
    postgres._run(str(postgres.bin_dir / "pg_ctl"), "-D", str(postgres.data), "-l", str(postgres.folder / "server.log"),
                  "-m", "fast", "-w", "-t", "60", "restart")


async def test_a_database_restart_is_waited_out_by_the_mcp_host_and_the_cli(serve_env, postgres_server):
    token = token_add(serve_env, "gina")
    port = free_port()
    with front(serve_env, port) as (_, url):
        progress: list[str] = []
        outcome: dict = {}

        async def host_call() -> None:
            async with client(url, token) as host:
                async def on_progress(value, total, message):
                    progress.append(message or "")
                outcome["host"] = await host.call_tool("research", {"question": QUESTION, "lang": "en"},
                                                       progress_callback=on_progress)

        cli = client_process(serve_env, url, token, QUESTION, "--json")
        cli_run = await anyio.to_thread.run_sync(queued_run, cli)
        async with anyio.create_task_group() as group:
            group.start_soon(host_call)
            deadline = time.monotonic() + 60
            while not progress:
                assert time.monotonic() < deadline
                await anyio.sleep(0.1)
            host_run = int(re.match(r"Queued as run (\d+)", progress[0]).group(1))
            await anyio.sleep(1.0)  # both are following their queued runs now
            await anyio.to_thread.run_sync(restart_database, postgres_server)
            await anyio.sleep(1.0)
            with worker(serve_env):
                out, err = await anyio.to_thread.run_sync(lambda: cli.communicate(timeout=240))
                while "host" not in outcome:
                    await anyio.sleep(0.2)
        result = outcome["host"]
        assert not result.is_error, result.content[0].text
        assert result.structured_content["run_id"] == host_run and "Mount Fuji" in result.structured_content["answer"]
        assert cli.returncode == 0, err
        assert "Traceback" not in err and "TaskGroup" not in err
        summary = json.loads(out)
        assert "Mount Fuji" in summary["answer"] and Path(summary["report_pdf"]).is_file()
        assert cli_run != host_run


async def test_a_restarted_front_loses_no_run_and_attach_or_run_follow_it_again(serve_env):
    token = token_add(serve_env, "hana")
    port = free_port()
    with front(serve_env, port) as (first, url):
        cli = client_process(serve_env, url, token, QUESTION)
        cli_run = await anyio.to_thread.run_sync(queued_run, cli)
        # A client that dies after "Queued as run N": the number is all it needs to follow it again.
        lost = client_process(serve_env, url, token, "What is LangGraph?")
        lost_run = await anyio.to_thread.run_sync(queued_run, lost)
        lost.kill()
        lost.wait(10)
        # An MCP host whose call is cut when the front dies.
        progress: list[str] = []
        outcome: dict = {}

        async def host_call() -> None:
            try:
                async with client(url, token) as host:
                    async def on_progress(value, total, message):
                        progress.append(message or "")
                    outcome["host"] = await host.call_tool("research", {"question": QUESTION, "lang": "en"},
                                                           progress_callback=on_progress)
            except Exception as exc:  # noqa: BLE001 - the connection is cut: what a host sees
                outcome["host"] = exc

        async with anyio.create_task_group() as group:
            group.start_soon(host_call)
            deadline = time.monotonic() + 60
            while not progress:
                assert time.monotonic() < deadline
                await anyio.sleep(0.1)
            host_run = int(re.match(r"Queued as run (\d+)", progress[0]).group(1))
            os.killpg(first.pid, signal.SIGKILL)  # the front dies; the runs are in the database
            first.wait(10)
            deadline = time.monotonic() + 60
            while "host" not in outcome:
                assert time.monotonic() < deadline
                await anyio.sleep(0.1)
    await anyio.sleep(2.0)  # the CLI keeps trying meanwhile
    with front(serve_env, port) as (_, url), worker(serve_env):
        out, err = await anyio.to_thread.run_sync(lambda: cli.communicate(timeout=240))
        assert cli.returncode == 0, err
        assert "Traceback" not in err and "Lost contact with the research server" in err
        assert out.startswith("## ") and "Mount Fuji" in out

        # The host follows its run again with the run tool, after the lines it has shown.
        async with client(url, token) as host:
            again: list[str] = []

            async def on_progress(value, total, message):
                again.append(message or "")
            followed = await host.call_tool("run", {"run_id": host_run, "after": 0}, progress_callback=on_progress)
        assert not followed.is_error, followed.content[0].text
        assert followed.structured_content["run_id"] == host_run and "Mount Fuji" in followed.structured_content["answer"]
        assert any(m.startswith("Checking every claim") for m in again)
        async with client(url, token) as host:  # after: the lines already shown are not sent again
            rest: list[str] = []

            async def on_rest(value, total, message):
                rest.append(message or "")
            again_result = await host.call_tool("run", {"run_id": host_run, "after": len(again) - 2},
                                                progress_callback=on_rest)
        assert rest == again[-2:] and again_result.structured_content == followed.structured_content

        # No number: the last run submitted from here (the client that died).
        attached = subprocess.run([RESEARCH, "attach", "--json"], env=client_env_of(serve_env, url, token),
                                  capture_output=True, text=True, timeout=240, stdin=subprocess.DEVNULL)
        assert attached.returncode == 0, attached.stderr
        assert "LangGraph" in json.loads(attached.stdout)["answer"]
        assert attached.stderr.startswith(f"Following run {lost_run}")

        nobody = subprocess.run([RESEARCH, "attach", "999999"], env=client_env_of(serve_env, url, token),
                                capture_output=True, text=True, timeout=60, stdin=subprocess.DEVNULL)
        assert nobody.returncode == 2
        assert nobody.stderr.splitlines()[-1] == "research: No run 999999 among this token's runs."
    assert cli_run not in (lost_run, host_run)


def test_attach_without_a_server_or_with_a_bad_number_is_one_line_exit_2(research_env):
    alone = research_in_process(["attach", "3"], research_env, timeout=60)
    assert alone.returncode == 2 and "RESEARCH_SERVER" in alone.stderr
    assert len(alone.stderr.strip().splitlines()) == 1
    env = {**research_env, "RESEARCH_SERVER": "http://127.0.0.1:9", "RESEARCH_SERVER_TOKEN": "rsk_x", "LANG": "ja_JP.UTF-8"}
    bad = research_in_process(["attach", "twelve", "--lang", "ja"], env, timeout=60)
    assert bad.returncode == 2 and "実行番号は数字です" in bad.stderr
    assert len(bad.stderr.strip().splitlines()) == 1


def _cli(env: dict[str, str], *args: str, timeout: float = 60):
    """A client command whose process is not what is tested (cancel, attach, a run that is asked
    again): in-process. An async test, whose loop is running, starts the console script instead."""
    return research_in_process(list(args), env, timeout=timeout)


def test_ctrl_c_stops_following_not_the_run_and_research_cancel_stops_the_run(serve_env):
    token = token_add(serve_env, "ivy")
    with front(serve_env, free_port()) as (_, url):
        cli = client_process(serve_env, url, token, QUESTION)
        run_id = queued_run(cli)
        cli.send_signal(signal.SIGINT)
        _, err = cli.communicate(timeout=60)
        assert cli.returncode == 130, err
        assert f"Follow it again: research attach {run_id}" in err and "Traceback" not in err
        assert err.strip().endswith(f"(or stop it: research cancel {run_id})")
        status = httpx.get(url.removesuffix("/mcp") + f"/api/runs/{run_id}",
                           headers={"Authorization": f"Bearer {token}"}, timeout=30)
        assert status.json()["status"] == "queued"  # still there for a worker

        env = client_env_of(serve_env, url, token)
        # Another token's run reads as no run at all.
        other = _cli(client_env_of(serve_env, url, token_add(serve_env, "jay")), "cancel", str(run_id))
        assert other.returncode == 2 and other.stderr.strip() == f"research: No run {run_id} among this token's runs."
        # No number: the last run submitted from here.
        cancelled = _cli(env, "cancel")
        assert cancelled.returncode == 0, cancelled.stderr
        assert cancelled.stderr.strip() == f"Run {run_id} cancelled; it had not started."
        again = _cli(env, "cancel", str(run_id), "--lang", "ja", "--json")
        assert again.returncode == 1
        assert again.stderr.strip() == f"research: 実行番号 {run_id} はすでに終わっています（cancelled）。取り消すものはありません。"
        assert json.loads(again.stdout) == {"run_id": run_id, "cancelled": False, "status": "cancelled", "session_id": ""}
        followed = _cli(env, "attach", str(run_id))
        assert followed.returncode == 1 and f"Run {run_id} was cancelled." in followed.stderr
    # Without a server or with a bad number: one line, exit 2, as for attach.
    alone = _cli({k: v for k, v in env.items() if k != "RESEARCH_SERVER"}, "cancel")
    assert alone.returncode == 2 and alone.stderr.strip().splitlines() == [
        "research: research cancel needs RESEARCH_SERVER (the address of the team's research serve)."]
    bad = _cli(env, "cancel", "twelve", "--lang", "ja")
    assert bad.returncode == 2 and "research cancel 12" in bad.stderr and len(bad.stderr.strip().splitlines()) == 1


async def test_a_running_run_cancelled_by_a_host_keeps_its_session_and_resume_finishes_it(serve_env, fake_ollama):
    token = token_add(serve_env, "kai")
    fake_ollama.token_delay = 0.2  # a slow draft: the run is still at work when it is cancelled
    with front(serve_env, free_port()) as (_, url), worker(serve_env):
        api = url.removesuffix("/mcp") + "/api/runs/"
        async with client(url, token) as host:
            queued = await host.call_tool("research", {"question": QUESTION, "lang": "en", "detach": True})
            run_id = queued.structured_content["run_id"]
            deadline = time.monotonic() + 90
            while True:  # until its worker has started its session
                row = httpx.get(f"{api}{run_id}", headers={"Authorization": f"Bearer {token}"}, timeout=30).json()
                if row["status"] == "running" and row["session_id"]:
                    break
                assert time.monotonic() < deadline and row["status"] in ("queued", "running"), row
                await anyio.sleep(0.2)
            result = await host.call_tool("cancel", {"run_id": run_id})
        assert not result.is_error, result.content[0].text
        session_id = row["session_id"]
        assert result.structured_content == {"run_id": run_id, "cancelled": True, "status": "cancelled",
                                             "session_id": session_id}
        assert result.content[0].text.endswith(f"Continue it: research --resume {session_id}")
        fake_ollama.token_delay = 0.0
        resumed = subprocess.run([RESEARCH, "--resume", session_id, "--json"], env=client_env_of(serve_env, url, token),
                                 capture_output=True, text=True, timeout=240, stdin=subprocess.DEVNULL)
    assert resumed.returncode == 0, resumed.stderr
    summary = json.loads(resumed.stdout)
    assert summary["session_id"] == session_id and "Mount Fuji" in summary["answer"]


@contextmanager
def losing_the_first_answer(port: int):
    """A TCP relay to the front on ``port`` that cuts the connection carrying the first
    ``research`` call as soon as its answer (the run's number) comes back, before the client
    reads it: a run queued whose answer never arrived. Yields the relay's base URL and a list
    holding the one cut answer's bytes."""
    import asyncio

    cut: list[bytes] = []
    ready = threading.Event()
    loop = asyncio.new_event_loop()

    async def relay(client_reader, client_writer) -> None:
        upstream_reader, upstream_writer = await asyncio.open_connection("127.0.0.1", port)
        doomed = asyncio.Event()

        async def up() -> None:
            while data := await client_reader.read(65536):
                if not cut and b'"tools/call"' in data and b'"research"' in data:
                    doomed.set()
                upstream_writer.write(data)
                await upstream_writer.drain()
            upstream_writer.close()

        async def down() -> None:
            while data := await upstream_reader.read(65536):
                if doomed.is_set() and not cut and b"run_id" in data:
                    cut.append(data)
                    client_writer.transport.abort()  # the answer is lost with the connection
                    return
                client_writer.write(data)
                await client_writer.drain()
            client_writer.close()

        await asyncio.gather(up(), down(), return_exceptions=True)
        upstream_writer.close()

    async def serve() -> None:
        server = await asyncio.start_server(relay, "127.0.0.1", 0)
        holder.append((server.sockets[0].getsockname()[1], asyncio.Event()))
        ready.set()
        async with server:
            await holder[0][1].wait()
        # Connections still open end with the relay: their tasks are cancelled and awaited here,
        # not left pending in a loop nobody runs again ("Task was destroyed but it is pending").
        pending = asyncio.all_tasks() - {asyncio.current_task()}
        for task in pending:
            task.cancel()
        await asyncio.gather(*pending, return_exceptions=True)

    holder: list[tuple[int, asyncio.Event]] = []
    thread = threading.Thread(target=lambda: loop.run_until_complete(serve()), daemon=True)
    thread.start()
    ready.wait(10)
    try:
        yield f"http://127.0.0.1:{holder[0][0]}", cut
    finally:
        loop.call_soon_threadsafe(holder[0][1].set)
        thread.join(10)


def test_an_answer_lost_after_queuing_is_asked_again_and_the_run_is_queued_once(serve_env):
    import psycopg

    token = token_add(serve_env, "lena")
    port = free_port()
    with front(serve_env, port) as (_, url), losing_the_first_answer(port) as (relay, cut), worker(serve_env):
        env = {**client_env_of(serve_env, url, token), "RESEARCH_SERVER": relay}
        result = _cli(env, QUESTION, "--json", timeout=240)
    assert cut, "the relay never cut an answer: the test did not exercise the retry"
    assert result.returncode == 0, result.stderr
    assert "asking again in" in result.stderr and "Traceback" not in result.stderr
    summary = json.loads(result.stdout)
    assert "Mount Fuji" in summary["answer"]
    with psycopg.connect(serve_env["RESEARCH_DATABASE_URL"]) as connection:
        runs = connection.execute("SELECT run_id, status FROM research_runs WHERE owner = "
                                  "(SELECT owner FROM research_runs WHERE session_id = %s)",
                                  (summary["session_id"],)).fetchall()
    assert len(runs) == 1 and runs[0][1] == "done", runs  # asked twice, queued and run once


def test_a_front_without_the_session_folder_answers_from_the_run_itself(tmp_path):
    """A front on another host than the workers (no shared folder) still answers a finished run."""
    from research.modules.core.settings import Settings
    from research.team.front import HttpService

    service = HttpService(Settings(sessions_dir=tmp_path / "none"))
    row = {"result": {"session_id": "20260101_000000_abcdef", "session_dir": "/elsewhere/session_20260101_000000_abcdef",
                      "language": "en", "report_md": "/elsewhere/report.md", "report_pdf": "/elsewhere/report.pdf",
                      "answer": "Mount Fuji is 3,776 m high [S1].", "exit_code": 0, "sources": 1,
                      "source_list": [
                          {"label": "S1", "title": "Mount Fuji", "url": "https://example.org/fuji", "status": "ok",
                           "error": None, "suspicious": False},
                          {"label": "S2", "title": "", "url": "https://example.org/gone", "status": "failed",
                           "error": "HTTP 404", "suspicious": False}]}}
    output = service.team_output(7, row)
    assert output.answer == "Mount Fuji is 3,776 m high [S1]." and output.run_id == 7
    # The sources the worker read come with the run: a host can resolve [S1] without the folder.
    assert [(s.label, s.url, s.status) for s in output.sources] == [
        ("S1", "https://example.org/fuji", "ok"), ("S2", "https://example.org/gone", "failed")]
    assert output.result["source_list"] == [{"label": "S1", "title": "Mount Fuji", "url": "https://example.org/fuji",
                                             "cited": True, "suspicious": False}]
    assert output.report_pdf == "/api/runs/7/files/report.pdf" and output.session_dir == ""
    assert output.result["answer"] == output.answer and output.result["report_md"] == "/api/runs/7/files/report.md"
    assert "/elsewhere" not in output.model_dump_json()


def test_research_serve_closes_a_connection_that_never_finishes_its_request_head(serve_env):
    """An idle or trickling connection (no token yet, nothing to check) is not kept open forever:
    `research serve` itself, not only its app, closes one whose request head is not complete
    within the header-read timeout (10 s)."""
    import socket
    import time

    port = free_port()
    with front(serve_env, port):
        with socket.create_connection(("127.0.0.1", port), timeout=30) as idle:
            idle.sendall(b"GET /api/runs/1 HTTP/1.1\r\nHost: 127.0.0.1\r\n")  # the head never ends
            started = time.monotonic()
            while idle.recv(1024):  # whatever it answers first, the server closes the connection
                pass
            assert time.monotonic() - started < 20

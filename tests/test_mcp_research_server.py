"""`research mcp research` as an MCP host meets it: the README's mcpServers entry started
over real stdio by the `mcp` client, running research against the fake Ollama and the
local web fixture, with progress notifications, a busy answer, cancellation that keeps a
resumable session, verify, sessions and session-report."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import time
from pathlib import Path

import anyio
import pytest
from conftest import load_json_line, research_in_process, run_research
from mcp import Client, StdioServerParameters

import research
from research.modules.core.settings import SEARCH_ENGINES
from research.servers.research.results import ResearchOutput, SessionList, SessionReport
from fixtures.processes import cpu_seconds, web_search_servers
from fixtures.web_fixture import FUJI_EN

pytestmark = pytest.mark.e2e

README = Path(__file__).resolve().parents[1] / "README.md"
QUESTION = "What is the height of Mount Fuji?"


def readme_entry() -> dict:
    """The `mcpServers` example of the README, as a host would read it."""
    text = README.read_text("utf-8")
    section = text.split("## Use it from Claude Desktop and other MCP hosts", 1)[1]
    block = re.search(r"```json\n(.*?)```", section, flags=re.DOTALL).group(1)
    return json.loads(block)["mcpServers"]["research"]


def host_params(env: dict[str, str]) -> StdioServerParameters:
    """The README's entry with the test's settings in place of its example values."""
    entry = readme_entry()
    assert entry["command"] == "research" and entry["args"] == ["mcp", "research"]
    assert set(entry["env"]) <= set(env) | {"RESEARCH_MODEL"}, "every example setting is one the tests set too"
    # The host finds `research` on PATH, as Claude Desktop would: this venv's bin/ first.
    path = str(Path(sys.executable).parent) + os.pathsep + env.get("PATH", "")
    return StdioServerParameters(command=entry["command"], args=entry["args"],
                                 env={**env, **{k: env.get(k, v) for k, v in entry["env"].items()}, "PATH": path})


def _meta(session_dir: str | Path) -> dict:
    return json.loads((Path(session_dir) / "meta.json").read_text("utf-8"))


def _helper_servers(sessions_dir: str) -> list[int]:
    """Our web-search and parser servers started for runs that use ``sessions_dir`` (Linux /proc):
    by the variable in their environment, or by the folder on their command line (the web-search
    server forked from the research server shows its own, ``--cache-root <sessions>``, and no
    start-up environment: cli/early_servers.py)."""
    found = []
    for entry in Path("/proc").iterdir():
        try:
            command = (entry / "cmdline").read_bytes().replace(b"\0", b" ")
            environ = (entry / "environ").read_bytes().split(b"\0")
        except (OSError, ValueError):
            continue
        if b"research.servers.web" in command or b"research.servers.parser" in command or b"mcp parser" in command:
            if f"RESEARCH_SESSIONS_DIR={sessions_dir}".encode() in environ or f" {sessions_dir}".encode() in command:
                found.append(int(entry.name))
    return found


async def _wait_until(predicate, timeout: float = 60.0) -> None:
    deadline = time.monotonic() + timeout
    while not predicate():
        if time.monotonic() > deadline:
            raise AssertionError("timed out waiting")
        await anyio.sleep(0.05)


async def test_the_readme_entry_starts_a_server_with_described_tools(research_env):
    async with Client(host_params(research_env)) as host:
        assert host.server_info.name == "research" and host.server_info.version == research.__version__
        tools = {tool.name: tool for tool in (await host.list_tools()).tools}
        assert set(tools) == {"research", "verify", "sessions", "session-report"}
        assert tools["research"].input_schema["required"] == ["question"]
        assert tools["verify"].input_schema["required"] == ["answer", "sources"]
        assert tools["session-report"].input_schema["required"] == ["session_id"]
        # The engines offered are the one list's (settings.SEARCH_ENGINES), wikipedia among them.
        engine = tools["research"].input_schema["properties"]["engine"]
        assert [choice.get("enum") for choice in engine["anyOf"] if "enum" in choice] == [list(SEARCH_ENGINES)]
        for tool in tools.values():
            assert tool.description
            for name, schema in tool.input_schema["properties"].items():
                assert schema.get("description"), (tool.name, name)

        # Bad input: a short, clear tool error, not a traceback.
        bad = await host.call_tool("research", {"question": QUESTION, "lang": "fr"})
        assert bad.is_error and "lang" in bad.content[0].text and "Traceback" not in bad.content[0].text
        empty = await host.call_tool("research", {"question": "   "})
        assert empty.is_error and "empty" in empty.content[0].text
        unknown = await host.call_tool("session-report", {"session_id": "20990101_000000_abcdef"})
        assert unknown.is_error and "20990101_000000_abcdef" in unknown.content[0].text
        listing = await host.call_tool("sessions", {})
        assert not listing.is_error and listing.structured_content["sessions"] == []


async def test_research_sends_progress_and_returns_the_answer_and_report(research_env, fake_ollama):
    fake_ollama.token_delay = 0.05  # long enough to ask the server things while it drafts
    progress: list[tuple[float, str]] = []
    totals: list[float | None] = []

    async def on_progress(value: float, total: float | None, message: str | None) -> None:
        progress.append((value, message or ""))
        totals.append(total)

    async with Client(host_params(research_env)) as host:
        outcome: dict = {}

        async def run() -> None:
            outcome["result"] = await host.call_tool("research", {"question": QUESTION, "lang": "en"},
                                                     progress_callback=on_progress)

        async with anyio.create_task_group() as group:
            group.start_soon(run)
            await _wait_until(lambda: any(m.startswith("Writing the answer") for _, m in progress))
            # While the run drafts, the server still answers, and a second run is refused clearly.
            listing = await host.call_tool("sessions", {})
            running = [s for s in listing.structured_content["sessions"] if s["running_here"]]
            assert len(running) == 1 and running[0]["status"] == "running"
            busy = await host.call_tool("research", {"question": "What is LangGraph?"})
            assert busy.is_error and "already going" in busy.content[0].text
            assert running[0]["session_id"] in busy.content[0].text
            SessionList.model_validate(listing.structured_content)
            unfinished = await host.call_tool("session-report", {"session_id": running[0]["session_id"]})
            assert unfinished.structured_content["kind"] == "progress"
            assert "## Sources read" in unfinished.content[0].text

        result = outcome["result"]
        assert not result.is_error, result.content[0].text
        output = result.structured_content
        ResearchOutput.model_validate(output)  # the tool's published schema (docs/schemas/mcp-research.schema.json)
        assert output["language"] == "en"
        # The answer is the verified draft the report is built from, with its citations.
        verified = json.loads((Path(output["session_dir"]) / "verification.json").read_text("utf-8"))
        assert output["answer"] == verified["annotated_draft"].strip()
        assert "Mount Fuji" in output["answer"] and re.search(r"\[S\d+\]", output["answer"])
        assert output["verification"]["claims"] >= 1
        assert Path(output["report_pdf"]).is_file() and Path(output["report_md"]).is_file()
        assert Path(output["progress_md"]).is_file()
        read = [s for s in output["sources"] if s["status"] == "ok"]
        assert read and all(s["url"].startswith("http") for s in read)
        text = result.content[0].text
        assert output["report_pdf"] in text and read[0]["url"] in text

        # One notification per step, numbered upwards, naming each step.
        values = [value for value, _ in progress]
        assert values == sorted(values) and len(set(values)) == len(values)
        # A bar a host can draw: the total fixed from the first notification, values in hundredths.
        assert set(totals) == {100.0} and values[-1] == 100.0, (totals, values)
        assert all(value == round(value, 2) for value in values), values
        messages = [m for _, m in progress]
        for step in ("Understanding the question", "Searching the web", "Reading sources", "Writing the answer",
                     "Checking every claim", "Writing the report"):
            assert any(m.startswith(step) for m in messages), step

        report = await host.call_tool("session-report", {"session_id": output["session_id"]})
        SessionReport.model_validate(report.structured_content)
        assert report.structured_content["kind"] == "report"
        assert report.content[0].text == Path(output["report_md"]).read_text("utf-8")
        assert _meta(output["session_dir"])["status"] == "done"

        # The run's servers stay for the next call, which starts none.
        kept = sorted(_helper_servers(research_env["RESEARCH_SESSIONS_DIR"]))
        assert kept, "the servers wait for the next call"
        # Its web-search server forked from the research server after the MCP SDK's import
        # (cli/early_servers.py): the whole run cost it less CPU than a spawned server's start alone.
        (web,) = web_search_servers(research_env["RESEARCH_SESSIONS_DIR"])
        assert cpu_seconds(web) < 0.4, cpu_seconds(web)
        fake_ollama.token_delay = 0.0
        second = await host.call_tool("research", {"question": "How tall is Mount Fuji?", "lang": "en"})
        assert not second.is_error, second.content[0].text
        assert second.structured_content["session_id"] != output["session_id"]
        assert sorted(_helper_servers(research_env["RESEARCH_SESSIONS_DIR"])) == kept


async def test_cancelling_keeps_a_resumable_session(research_env, fake_ollama):
    fake_ollama.token_delay = 0.3  # slow drafting, so the cancel lands mid-run
    progress: list[str] = []

    async def on_progress(value: float, total: float | None, message: str | None) -> None:
        progress.append(message or "")

    async with Client(host_params(research_env)) as host:
        with anyio.move_on_after(120) as scope:
            async with anyio.create_task_group() as group:
                group.start_soon(lambda: host.call_tool("research", {"question": QUESTION}, progress_callback=on_progress))
                await _wait_until(lambda: any(m.startswith("Writing the answer") for m in progress))
                await _wait_until(lambda: any(r.get("stream") for r in fake_ollama.chat_requests()))
                assert _helper_servers(research_env["RESEARCH_SESSIONS_DIR"]), "the run's servers are found"
                group.cancel_scope.cancel()  # the host gives up: the client sends notifications/cancelled
        assert not scope.cancelled_caught
        session_id = re.search(r"Session (\S+)", next(m for m in progress if m.startswith("Session "))).group(1)
        session_dir = Path(research_env["RESEARCH_SESSIONS_DIR"]) / f"session_{session_id}"
        await _wait_until(lambda: _meta(session_dir)["status"] == "cancelled", timeout=30)
        assert not (session_dir / "report.md").exists()
        # The cancelled run closed its web-search and parser servers.
        await _wait_until(lambda: not _helper_servers(research_env["RESEARCH_SESSIONS_DIR"]), timeout=15)
        # The server lives on and still answers; the run leaves its list once its shutdown ends
        # (the session is marked before the servers are closed, so allow that moment).
        deadline = time.monotonic() + 30
        while True:
            listing = await host.call_tool("sessions", {})
            row = next(s for s in listing.structured_content["sessions"] if s["session_id"] == session_id)
            if not row["running_here"] or time.monotonic() > deadline:
                break
            await anyio.sleep(0.1)
        assert row["status"] == "cancelled" and not row["running_here"]

    fake_ollama.token_delay = 0.0
    resumed = run_research(["--resume", session_id, "--json"], research_env)
    assert resumed.returncode == 0, resumed.stderr
    summary = load_json_line(resumed.stdout)
    assert summary["session_id"] == session_id and Path(summary["report_pdf"]).is_file()
    assert _meta(session_dir)["status"] == "done"


ANSWER = ("Mount Fuji is 3,776 m tall [S1]. The last eruption of Mount Fuji began in 1707 [S2]. "
          "Mount Fuji is 4,200 m tall [S1]. Mount Fuji is in France [S3]. "
          # Left uncertain by the checks: the model judge decides, in both.
          "Mount Fuji is the highest mountain in Japan and is visited by many climbers each summer [S1]. "
          "Mount Fuji, the highest mountain in Japan, is sacred [S1].")
FACTS = "Mount Fuji is the highest mountain in Japan. Mount Fuji is 3,776 m (12,388 ft) tall."


def _verdict_rows(claims: list[dict]) -> list[tuple]:
    return [(c["text"], c["verdict"], c["citations"], c["reason"]) for c in claims]


async def test_verify_agrees_with_research_verify(research_env, tmp_path, fake_ollama):
    files = {"answer.md": ANSWER, "s1.txt": FACTS, "s2.txt": FUJI_EN.text()}
    for name, text in files.items():
        (tmp_path / name).write_text(text, "utf-8")
    command = run_research(["verify", str(tmp_path / "answer.md"), "--source", str(tmp_path / "s1.txt"),
                            "--source", str(tmp_path / "s2.txt"), "--json"], research_env)
    assert command.returncode == 0, command.stderr
    expected = json.loads(command.stdout)
    judged_by_command = len(fake_ollama.judge_requests())
    measuring_calls = 3  # the judge measured on the check set in three stages of 8 (workflow/judge_quality.py)
    assert judged_by_command >= 1 and len(fake_ollama.judge_requests(measuring=True)) == measuring_calls

    async with Client(host_params(research_env)) as host:
        result = await host.call_tool("verify", {"answer": ANSWER, "sources": [FACTS, FUJI_EN.text()]})
    assert not result.is_error, result.content[0].text
    output = result.structured_content
    assert _verdict_rows(output["verdicts"]) == _verdict_rows(expected["claims"])
    assert output["summary"] == expected["summary"] and output["judged"]
    # The same judge calls; the judge measured by the command is not measured again (its kept figure).
    assert len(fake_ollama.judge_requests()) == 2 * judged_by_command
    assert len(fake_ollama.judge_requests(measuring=True)) == measuring_calls
    verdicts = {v["text"].split(" [")[0]: v for v in output["verdicts"]}
    assert verdicts["Mount Fuji is 3,776 m tall"]["verdict"] == "supported"
    assert verdicts["The last eruption of Mount Fuji began in 1707"]["source"] == "S2"
    assert verdicts["Mount Fuji is 4,200 m tall"]["reason"] == "number_mismatch"
    assert verdicts["Mount Fuji is in France"]["reason"] == "citation_invalid"
    assert any(v["reason"] == "judge" for v in output["verdicts"])
    assert verdicts["Mount Fuji is 4,200 m tall"]["state"] == "contradicted"
    assert verdicts["Mount Fuji is in France"]["state"] == "not_supported"
    text = result.content[0].text
    assert "4. not supported [" not in text and "4. not supported: Mount Fuji is in France" in text
    assert "3. contradicted [S1]: Mount Fuji is 4,200 m tall" in text
    counts = output["summary"]["verdicts"]
    assert f"({round(100 * counts['supported'] / sum(counts.values()))}% supported)" in text


async def test_verify_takes_the_sources_research_verify_batch_takes_and_strings_alike(research_env, tmp_path):
    batch = tmp_path / "in.jsonl"
    batch_sources = [{"label": "S1", "text": FACTS}, {"label": "S2", "text": FUJI_EN.text()}]
    batch.write_text(json.dumps({"id": "a", "draft": ANSWER, "sources": batch_sources}) + "\n", "utf-8")
    command = research_in_process(["verify", "--batch", str(batch), "--no-judge"], research_env)
    assert command.returncode == 0, command.stderr
    expected = json.loads(command.stdout)["claims"]
    async with Client(host_params(research_env)) as host:
        for sources in (batch_sources, [batch_sources[0], FUJI_EN.text()]):  # objects, and a mix
            result = await host.call_tool("verify", {"answer": ANSWER, "sources": sources, "judge": False})
            assert not result.is_error, result.content[0].text
            assert _verdict_rows(result.structured_content["verdicts"]) == _verdict_rows(expected)
        twice = await host.call_tool("verify", {"answer": ANSWER, "judge": False,
                                                "sources": [batch_sources[0], {"label": "S1", "text": "x"}]})
        assert twice.is_error and "Two sources are labelled S1" in twice.content[0].text
        empty = await host.call_tool("verify", {"answer": ANSWER, "sources": [{"label": "S1"}], "judge": False})
        assert empty.is_error and "needs text" in empty.content[0].text


async def test_verify_reads_url_sources_and_says_when_none_can_be_read(research_env, web):
    sessions = Path(research_env["RESEARCH_SESSIONS_DIR"]).resolve()
    async with Client(host_params(research_env)) as host:
        result = await host.call_tool("verify", {"answer": ANSWER, "sources": [FACTS, web.url(FUJI_EN.path)],
                                                 "judge": False})
        assert not result.is_error, result.content[0].text
        output = result.structured_content
        assert [s["status"] for s in output["sources"]] == ["ok", "ok"]
        assert output["sources"][1]["url"] == web.url(FUJI_EN.path) and output["sources"][1]["characters"] > 100
        second = output["verdicts"][1]
        assert second["verdict"] == "supported" and second["source"] == "S2" and "1707" in second["evidence"]
        servers = set(web_search_servers(sessions))
        assert len(servers) == 1  # kept for the next check

        broken = await host.call_tool("verify", {"answer": ANSWER, "sources": [web.url("/no/such/page.html")]})
        assert broken.is_error and "None of the sources could be read" in broken.content[0].text
        assert set(web_search_servers(sessions)) == servers  # the second check did not start another
        # A check is not a research run: it leaves nothing in the sessions folder.
        assert list(sessions.iterdir()) == []
    for _ in range(100):  # the host closed the research server: its servers go with it
        if not set(web_search_servers(sessions)):
            break
        await anyio.sleep(0.05)
    assert not set(web_search_servers(sessions))


def test_stdout_carries_only_the_protocol_and_progress_follows_the_question_language(research_env):
    """A host that speaks raw JSON-RPC (as Claude Desktop does, protocol 2025-06-18): every
    line on stdout is a JSON-RPC message, even while a whole run starts servers and writes
    reports; progress comes as notifications in the run's language."""
    entry = host_params(research_env)
    process = subprocess.Popen([entry.command, *entry.args], env=entry.env, stdin=subprocess.PIPE,
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, encoding="utf-8")
    lines: list[dict] = []

    def send(message: dict) -> None:
        process.stdin.write(json.dumps(message, ensure_ascii=False) + "\n")
        process.stdin.flush()

    def answer_to(request_id: int) -> dict:
        while True:
            line = process.stdout.readline()
            assert line, "the server closed stdout: " + process.stderr.read()[-2000:]
            message = json.loads(line)  # anything that is not JSON would fail here
            assert message["jsonrpc"] == "2.0"
            lines.append(message)
            if message.get("id") == request_id:
                return message

    try:
        send({"jsonrpc": "2.0", "id": 1, "method": "initialize",
              "params": {"protocolVersion": "2025-06-18", "capabilities": {},
                         "clientInfo": {"name": "raw-host", "version": "1"}}})
        assert answer_to(1)["result"]["serverInfo"]["version"] == research.__version__
        send({"jsonrpc": "2.0", "method": "notifications/initialized"})
        send({"jsonrpc": "2.0", "id": 2, "method": "tools/call",
              "params": {"name": "research", "arguments": {"question": "富士山の高さは？", "depth": "quick"},
                         "_meta": {"progressToken": "run-1"}}})
        result = answer_to(2)["result"]
    finally:
        process.stdin.close()
        process.wait(timeout=30)
    assert not result.get("isError"), result
    assert result["structuredContent"]["language"] == "ja"
    notes = [m["params"] for m in lines if m.get("method") == "notifications/progress"]
    assert notes and all(n["progressToken"] == "run-1" for n in notes)
    messages = [n["message"] for n in notes]
    for step in ("質問を解析中", "ウェブを検索中", "ソースを読み込み中", "回答を作成中", "主張を検証中", "レポートを作成中"):
        assert any(m.startswith(step) for m in messages), (step, messages)
    assert process.returncode == 0

"""Issue 14 end to end: the CLI as a user meets it. Each test is one "Why"
bullet: search failures visible, external servers' noise kept off the terminal, stdout
holding only the checked answer with a closing summary, sessions that say how they
stopped, and the CLI conventions (config, help, -o, sessions folder, rm, flag errors).
A run about what it says and writes runs in-process (``research_in_process``, with the
worker's kept servers where its server settings allow); a run that is killed or
interrupted is the console script."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest
from conftest import RESEARCH, load_json_line, research_in_process, run_research, session_dirs

pytestmark = pytest.mark.e2e

# An MCP server like the official mcp-server-fetch: one tool, and chatter on stdout and stderr.
FETCH_LIKE_SERVER = textwrap.dedent('''
    import sys
    print("starting fetch server... (not JSON-RPC)", flush=True)
    for n in range(50):
        print(f"debug line {n} on stderr", file=sys.stderr, flush=True)
    from mcp.server.mcpserver import MCPServer
    server = MCPServer("fetch")

    @server.tool(name="fetch")
    def fetch(url: str) -> str:
        return "page"

    server.run()
''')


def _closed_port() -> int:
    import socket

    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def test_an_unreachable_engine_is_visible_everywhere_and_exits_5(research_env):
    research_env["RESEARCH_SEARXNG_URL"] = f"http://127.0.0.1:{_closed_port()}"
    result = research_in_process(["What is the height of Mount Fuji?", "--json"], research_env)
    assert result.returncode == 5, result.stderr
    assert "Traceback" not in result.stderr
    failed = [line for line in result.stderr.splitlines() if "Search failed for" in line]
    assert failed and "searxng" in failed[0] and "unreachable" in failed[0]  # as it happened, one line
    assert "No search engine could be reached" in result.stderr
    assert "No evidence was found" not in result.stderr  # not blamed on the question
    summary = load_json_line(result.stdout)
    assert summary["exit_code"] == 5 and summary["problems"][0]["kind"] == "search"
    meta = json.loads((Path(summary["session_dir"]) / "meta.json").read_text("utf-8"))
    assert meta["problems"] == summary["problems"] and meta["exit_code"] == 5
    report = Path(summary["report_md"]).read_text("utf-8")
    notes = report.split("## Notes")[1]
    assert "searxng" in notes and "Search failed" in notes
    # The tool's own "nothing found" message is not verified as if it were an answer.
    assert "Verification did not run" in report and "| Claims |" not in report


def test_an_external_server_without_the_search_tool_is_named_and_its_noise_kept_off_the_terminal(
        research_env, tmp_path):
    script = tmp_path / "fetch_like.py"
    script.write_text(FETCH_LIKE_SERVER, "utf-8")
    config = tmp_path / "mcp.json"
    config.write_text(json.dumps({"mcpServers": {"fetch": {"command": sys.executable, "args": [str(script)]}}}))
    research_env["RESEARCH_MCP_CONFIG"] = str(config)
    result = research_in_process(["What is the height of Mount Fuji?"], research_env)
    assert result.returncode == 5, result.stderr
    assert "has no tool 'full-web-search' (its tools: fetch)" in result.stderr
    assert "Traceback" not in result.stderr and "debug line" not in result.stderr
    assert "not JSON-RPC" not in result.stderr
    assert len(result.stderr.splitlines()) < 40
    (session,) = session_dirs(research_env)
    # The server's chatter is kept, in the session's own server log: stdout and stderr both.
    log = (session / "web-search-server.log").read_text("utf-8")
    assert "stdout: starting fetch server... (not JSON-RPC)" in log
    assert "debug line 0 on stderr" in log and "debug line 49 on stderr" in log


def test_the_run_closes_with_one_summary_line(shared_run):
    result = shared_run("en-text").result  # run without --json
    assert result.returncode == 0, result.stderr
    # Something is said at once, while the servers boot (issue: 11-17 s of silence).
    assert "Starting the search and parser servers…" in result.stderr.strip().splitlines()[:2]
    last = result.stderr.strip().splitlines()[-1]
    for part in ("sources read", " supported, ", "partly supported", "not supported", "contradicted", "not checked",
                 "% supported)", "verification loops", "report.md", "report.pdf"):
        assert part in last, last
    assert result.stdout.count("## ") <= result.stdout.count("\n")  # sanity: text, not JSON
    assert "report.pdf" not in result.stdout


def _wait_for(path_glob: Path, pattern: str, timeout: float = 60) -> Path:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        found = sorted(path_glob.glob(pattern))
        if found:
            return found[0]
        time.sleep(0.1)
    raise AssertionError(f"{pattern} never appeared")


def test_a_killed_run_is_listed_as_interrupted_and_resume_names_its_step(run_cli, research_env, fake_ollama):
    fake_ollama.token_delay = 0.3  # slow drafting: time to kill it there
    process = subprocess.Popen([RESEARCH, "What is the height of Mount Fuji?"], env=research_env,
                               stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    root = Path(research_env["RESEARCH_SESSIONS_DIR"])
    session = _wait_for(root, "session_*")
    _wait_for(session, "processed.jsonl")
    # The answer has begun streaming: the kill lands inside the drafting step (by an event, not a timer).
    deadline = time.monotonic() + 60
    while not any(r.get("stream") for r in fake_ollama.chat_requests()) and time.monotonic() < deadline:
        time.sleep(0.05)
    process.kill()  # kill -9: no handler runs, meta.json still says "running"
    process.communicate(timeout=30)
    # Reading the sessions needs no process of its own (run_cli); the kill and the resume do.
    listing = run_cli(["sessions", "list"], research_env)
    assert json.loads(run_cli(["sessions", "list", "--json"], research_env).stdout)[0]["status"] == "interrupted"
    assert f"Sessions in {root.resolve()}" in listing.stderr
    assert "research --resume" in listing.stderr
    shown = run_cli(["sessions", "show", session.name.removeprefix("session_")], research_env)
    assert shown.returncode == 0 and "research --resume" in shown.stderr
    as_json = json.loads(run_cli(["sessions", "show", session.name.removeprefix("session_"), "--json"],
                                 research_env).stdout)
    assert as_json["status"] == "interrupted" and as_json["progress_md"].endswith("progress.md")
    fake_ollama.token_delay = 0
    resumed = research_in_process(["--resume", session.name.removeprefix("session_")], research_env)
    assert resumed.returncode == 0, resumed.stderr
    line = next(line for line in resumed.stderr.splitlines() if line.startswith("Resuming session"))
    assert "at step" in line and "after step" not in line


def test_ctrl_c_in_a_one_shot_run_says_what_it_kept(research_env, fake_ollama):
    fake_ollama.token_delay = 0.5
    process = subprocess.Popen([RESEARCH, "What is the height of Mount Fuji?"], env=research_env,
                               stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    _wait_for(Path(research_env["RESEARCH_SESSIONS_DIR"]), "session_*")
    # Ctrl-C while the answer streams (slowly), after the search step has finished.
    deadline = time.monotonic() + 60
    while not any(r.get("stream") for r in fake_ollama.chat_requests()) and time.monotonic() < deadline:
        time.sleep(0.05)
    process.send_signal(signal.SIGINT)
    _, stderr = process.communicate(timeout=60)
    assert process.returncode == 130
    last = stderr.strip().splitlines()[-1]
    assert "Stopped by Ctrl-C" in last and "Searching the web" in last and "research --resume" in last


def test_config_help_output_and_flag_errors(run_cli, research_env, tmp_path):
    research_env["RESEARCH_DEPTH"] = "quick"
    # config, help, a flag error and the runs with -o, all in-process.
    config = run_cli(["config", "--json"], research_env)
    assert config.returncode == 0, config.stderr
    payload = json.loads(config.stdout)
    rows = {row["name"]: row for row in payload["settings"]}
    assert rows["depth"]["value"] == "quick" and rows["depth"]["source"] == "env"
    assert rows["model"]["source"] == "default"
    assert payload["sessions_dir"] == str(Path(research_env["RESEARCH_SESSIONS_DIR"]).resolve())
    assert "config.toml" in payload["config_file"]
    assert list(Path(research_env["RESEARCH_SESSIONS_DIR"]).glob("session_*")) == []  # no research run
    helped = run_cli(["help"], research_env)
    assert helped.returncode == 0 and "--output" in helped.stdout and session_dirs(research_env) == []

    bad = run_cli(["What?", "--depth", "foo"], research_env)
    assert bad.returncode == 2 and "--depth" in bad.stderr and "RESEARCH_DEPTH" not in bad.stderr

    out = tmp_path / "out"
    result = research_in_process(["What is the height of Mount Fuji?", "-o", str(out)], research_env)
    assert result.returncode == 0, result.stderr
    first = sorted(p.name for p in out.iterdir())
    session = first[0].rsplit(".", 1)[0]
    assert first == [f"{session}.json", f"{session}.md", f"{session}.pdf"] and session_dirs(research_env)
    assert (out / f"{session}.pdf").read_bytes().startswith(b"%PDF")
    assert json.loads((out / f"{session}.json").read_text("utf-8"))["session_id"] == session
    assert f"Copied to {out / (session + '.md')}\n" in result.stderr  # which files, each path whole
    # A second run into the same folder adds its own files: the first run's stay as they were.
    # Before, both wrote report.md, report.pdf and result.json, the second over the first.
    kept = (out / f"{session}.md").read_bytes()
    again = research_in_process(["What is the height of Mount Fuji?", "-o", str(out)], research_env)
    assert again.returncode == 0, again.stderr
    assert len(list(out.iterdir())) == 6 and (out / f"{session}.md").read_bytes() == kept
    single = tmp_path / "answer.md"
    research_in_process(["What is the height of Mount Fuji?", "--output", str(single)], research_env)
    assert single.read_text("utf-8").startswith("# ")


def test_per_user_sessions_folder_and_rm_asks(run_cli, research_env, tmp_path, monkeypatch):
    del research_env["RESEARCH_SESSIONS_DIR"]
    research_env["XDG_DATA_HOME"] = str(tmp_path / "data")
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    monkeypatch.chdir(tmp_path)
    result = research_in_process(["What is the height of Mount Fuji?", "--json"], research_env)
    assert result.returncode == 0, result.stderr
    session_id = load_json_line(result.stdout)["session_id"]
    assert str(tmp_path / "data" / "research" / "sessions") in load_json_line(result.stdout)["session_dir"]
    # The listing and rm in-process (run_cli), from another working folder: the folder is the user's, not cwd's.
    monkeypatch.chdir(elsewhere)
    listing = run_cli(["sessions", "list"], research_env)
    assert session_id[:8] in listing.stdout and "data/research/sessions" in listing.stderr
    refused = run_cli(["sessions", "rm", session_id], research_env)
    assert refused.returncode == 2 and "-y" in refused.stderr
    assert (tmp_path / "data" / "research" / "sessions" / f"session_{session_id}").is_dir()
    removed = run_cli(["sessions", "rm", session_id, "-y"], research_env)
    assert removed.returncode == 0
    assert not (tmp_path / "data" / "research" / "sessions" / f"session_{session_id}").exists()


def test_an_engine_fallback_is_said_as_it_happens_and_kept_in_the_report(research_env, web, tmp_path):
    # SearXNG is down; the user's own documents (the local engine) answer instead. Before,
    # the fallback was silent: the answer rested on other sources without a word.
    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "fuji.md").write_text("# Mount Fuji\n\nMount Fuji is 3,776 m tall. It last erupted in 1707.\n", "utf-8")
    research_env["RESEARCH_DOCS_DIR"] = str(docs)
    research_env["RESEARCH_SEARCH_FALLBACK"] = "true"  # the fixture's SearXNG is on a private address
    web.set_search_status(503)
    try:
        result = research_in_process(["What is the height of Mount Fuji?", "--json"], research_env)
    finally:
        web.set_search_status(200)
    assert result.returncode == 0, result.stderr
    said = " ".join(result.stderr.split())
    assert "Search engines: searxng unavailable: searxng answered HTTP 503" in said
    summary = json.loads(result.stdout.strip().splitlines()[-1])
    assert any(p["kind"] == "search_fallback" for p in summary["problems"])
    report = Path(summary["report_md"]).read_text("utf-8")
    assert "searxng answered HTTP 503" in report


def test_a_private_searxng_that_fails_asks_no_other_engine_and_says_so_in_japanese(research_env, web):
    # Before, the question went on to DuckDuckGo, and the lines about it stayed English.
    web.set_search_status(503)
    try:
        result = research_in_process(["富士山の高さは？", "--lang", "ja"], research_env)
    finally:
        web.set_search_status(200)
    assert result.returncode == 5, result.stderr
    said = " ".join(result.stderr.split())
    assert "searxng を使えません: searxng が HTTP 503 を返しました" in said
    assert "ほかの検索エンジンには問い合わせていません（RESEARCH_SEARCH_FALLBACK がオフ）" in said
    assert "duckduckgo" not in said and "unavailable" not in said


def test_a_weaker_sandbox_is_said_at_once_and_kept_in_the_result(research_env):
    # The user chose no sandbox: the loud warning as the parser starts, and the run's
    # problems (meta.json, --json) name it, so a shared session shows how it was parsed.
    research_env["RESEARCH_SANDBOX"] = "none"
    result = research_in_process(["What is the height of Mount Fuji?", "--json"], research_env)
    assert result.returncode == 0, result.stderr
    assert "WARNING: no sandbox is available" in " ".join(result.stderr.split())
    summary = json.loads(result.stdout.strip().splitlines()[-1])
    assert {"kind": "sandbox", "message": "none"} in summary["problems"]
    meta = json.loads((Path(summary["session_dir"]) / "meta.json").read_text("utf-8"))
    assert {"kind": "sandbox", "message": "none"} in meta["problems"]

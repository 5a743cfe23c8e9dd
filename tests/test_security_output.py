"""One sanitiser for every text a person or an MCP host sees (issue 22, item 5).

Titles carrying OSC 52 (clipboard write), ``ESC[2J``, 8-bit CSI and bidi overrides, and a
model answer with ``<script>``, ``<iframe>``, remote images and javascript:/file:/data:
links, reached progress.md, stdout, ``--json``, the MCP ``research`` answer and the
``research verify`` table as they were; Rich markup in a source became a live hyperlink.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from research.state.run_record import RunOutcome
from research.servers.research.results import render_research, research_output, session_report
from research.servers.research.server import tool_result
from research.state.models import Document, VerificationResult
from research.state.progress_log import record_step
from research.state.session_folder import HistoryManager

OSC52 = "\x1b]52;c;cm0gLXJmIH4=\x07"
CLEAR = "\x1b[2J"
CSI8 = "\x9b2J"
BIDI = "\u202e"
HOSTILE_TITLE = f"Fuji {OSC52}{CLEAR}{CSI8}{BIDI}gnp.exe"
HOSTILE_ANSWER = (
    "Mount Fuji is 3,776 m high [S1]. <script>alert(1)</script> <iframe src=https://evil.example/></iframe>\n"
    "![pixel](https://evil.example/pixel.png) [click](javascript:alert(1)) [key](file:///home/me/.ssh/id_rsa) "
    f"[d](data:text/html;base64,PHNjcmlwdD4=) {OSC52}{CLEAR}{CSI8}{BIDI}\n"
)
LIVE = ("\x1b", "\x9b", BIDI, "<script", "<iframe", "![", "](javascript", "](<javascript", "](file", "](<file",
        "](data", "](<data")


def assert_inert(text: str) -> None:
    for live in LIVE:
        assert live not in text, (live, text)


def test_progress_md_keeps_no_escape_bytes_markup_or_live_links(tmp_path):
    history = HistoryManager(tmp_path / "sessions")
    session = history.create(question="Fuji?", language="en", model="m")
    state = {"question": f"Fuji? {OSC52}", "language": "en", "session_id": session.session_id, "documents": []}
    record_step(session.path, "processing", state, {"documents": [
        Document(label="S1", title=HOSTILE_TITLE, url="https://example.org/fuji", canonical_url="a", status="ok"),
        Document(label="S2", title="x", url="https://example.org/bad", canonical_url="b", status="failed",
                 error=f"refused {CLEAR}<img src=https://evil.example/x.png>")]})
    record_step(session.path, "llm", state, {"draft": HOSTILE_ANSWER})
    written = (session.path / "progress.md").read_text("utf-8")
    assert_inert(written)
    assert "<img" not in written and "Mount Fuji is 3,776 m high [S1]." in written and "gnp.exe" in written


def test_the_answer_on_stdout_is_as_inert_as_report_md():
    from research.orchestrator.runner import final_answer

    answer = final_answer({"verification": VerificationResult(annotated_draft=HOSTILE_ANSWER), "draft": "unused"},
                          read=1)
    assert_inert(answer)
    assert "Mount Fuji is 3,776 m high [S1]." in answer and "&lt;script>" in answer


def test_json_output_carries_no_escape_or_bidi_bytes():
    result = RunOutcome(session_id="s", session_dir="/tmp/s", language="en",
                       problems=[{"kind": "read", "message": HOSTILE_TITLE}])
    text = json.dumps(result.to_json(), ensure_ascii=False)
    assert_inert(text)
    assert "gnp.exe" in text


def _finished_session(tmp_path) -> tuple[HistoryManager, str]:
    history = HistoryManager(tmp_path / "sessions")
    session = history.create(question=f"Fuji? {OSC52}", language="en", model="m")
    history.write_json(session.session_id, "verification.json", {"annotated_draft": HOSTILE_ANSWER})
    history.write_text(session.session_id, "processed.jsonl", json.dumps(
        {"label": "S1", "title": HOSTILE_TITLE, "url": f"https://example.org/{CLEAR}", "status": "ok"}) + "\n")
    history.write_text(session.session_id, "report.md", HOSTILE_ANSWER)
    history.update_meta(session.session_id, status="done")
    return history, session.session_id


def test_mcp_research_and_session_report_results_are_inert(tmp_path):
    history, session_id = _finished_session(tmp_path)
    output = research_output(history, RunOutcome(session_id=session_id, session_dir="", language="en"))
    result = tool_result(render_research(output), output)
    assert_inert(result.content[0].text)
    assert_inert(json.dumps(result.structured_content, ensure_ascii=False))
    assert "Mount Fuji is 3,776 m high [S1]." in result.content[0].text
    report = session_report(history, session_id)
    assert report is not None
    assert_inert(report.markdown)
    assert_inert(json.dumps(tool_result(report.markdown, report).structured_content, ensure_ascii=False))


@pytest.fixture
def cli_env(tmp_path):
    home = tmp_path / "home"
    home.mkdir()
    env = {k: v for k, v in os.environ.items() if not k.startswith(("RESEARCH_", "OLLAMA_"))}
    env.update(HOME=str(home), XDG_CONFIG_HOME=str(home / ".config"), LANG="en_US.UTF-8", COLUMNS="200",
               RESEARCH_SESSIONS_DIR=str(tmp_path / "sessions"), FORCE_COLOR="1", TERM="xterm-256color")
    return env


def test_sessions_list_json_carries_no_escape_bytes(run_cli, cli_env, tmp_path):
    history = HistoryManager(Path(cli_env["RESEARCH_SESSIONS_DIR"]))
    history.create(question=f"Fuji {CSI8}{BIDI}{OSC52}?", language="en", model="m")
    listed = run_cli(["sessions", "list", "--json"], cli_env)
    assert listed.returncode == 0, listed.stderr
    assert_inert(listed.stdout)


def test_verify_table_prints_no_escapes_and_obeys_no_markup(run_cli, cli_env, tmp_path):
    source = tmp_path / "source.txt"
    source.write_text(f"Mount Fuji is 3,776 m high. {CLEAR}{OSC52}[link=file:///etc/passwd]click me[/link] "
                      "[bold red]alarm[/bold red]\n", "utf-8")
    answer = tmp_path / "answer.md"
    answer.write_text("Mount Fuji is 3,776 m high [S1]. [link=file:///etc/passwd]Open[/link] it [S1].\n", "utf-8")
    result = run_cli(["verify", str(answer), "--source", str(source), "--no-judge"], cli_env)
    assert result.returncode == 0, result.stderr
    assert "\x1b]52" not in result.stdout and "\x1b[2J" not in result.stdout
    assert "\x1b]8;" not in result.stdout  # OSC 8: how Rich prints a live hyperlink
    assert "[link=file:///etc/passwd]" in result.stdout  # shown as typed

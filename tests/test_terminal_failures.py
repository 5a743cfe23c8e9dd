"""Issue 23, item 7: failures are visible on the terminal as they happen. A step that
failed is never shown with ✓; a raw library error (a Rust DNS error from ddgs) becomes one
plain line; a SearXNG that finds nothing is not "search failed"; the Japanese message names a
README heading that exists."""

from __future__ import annotations

import json
import re
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest
from conftest import research_in_process, session_dirs

from research.modules.core.i18n import t

pytestmark = pytest.mark.e2e
README = Path(__file__).resolve().parents[1] / "README.md"


def _closed_port() -> int:
    import socket

    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def _step_lines(stderr: str) -> dict[str, str]:
    """Each step's closing mark (✓, ✗, ⚠ or –) by step name, from the terminal's account."""
    marks: dict[str, str] = {}
    for line in stderr.splitlines():
        found = re.match(r"^([✓✗⚠–]) (.+?) \(\d+\.\ds\)", line)
        if found:
            marks[found.group(2)] = found.group(1)
    return marks


def test_a_dead_searxng_shows_the_failed_step_and_a_plain_reason(research_env):
    research_env["RESEARCH_SEARXNG_URL"] = f"http://127.0.0.1:{_closed_port()}"
    result = research_in_process(["What is the height of Mount Fuji?"], research_env)
    assert result.returncode == 5, result.stderr
    marks = _step_lines(result.stderr)
    assert marks["Searching the web"] == "✗", result.stderr
    # Nothing was searched: the later steps did not "succeed".
    for step in ("Reading sources", "Writing the answer", "Checking every claim"):
        assert marks.get(step, "–") != "✓", result.stderr
    assert marks["Writing the report"] == "✓"
    assert "Query {" not in result.stderr and "Name(" not in result.stderr
    # A SearXNG on this machine is private: its question is never sent to another engine, and the line says so.
    assert "duckduckgo" not in result.stderr.lower()
    assert "no other engine was asked (RESEARCH_SEARCH_FALLBACK is off)" in result.stderr


def test_a_dead_searxng_with_the_fallback_allowed_asks_the_next_engine(research_env):
    research_env["RESEARCH_SEARXNG_URL"] = f"http://127.0.0.1:{_closed_port()}"
    research_env["RESEARCH_SEARCH_FALLBACK"] = "true"
    result = research_in_process(["What is the height of Mount Fuji?"], research_env)
    assert result.returncode == 5, result.stderr
    # ddgs's Rust error (Query { name: Name("html.duckduckgo.com.") … }) is one plain phrase.
    assert "Query {" not in result.stderr and "Name(" not in result.stderr
    assert "duckduckgo" in result.stderr


class _Searx(BaseHTTPRequestHandler):
    """A SearXNG whose results all point at a port where nothing listens."""

    dead = ""

    def do_GET(self) -> None:  # noqa: N802 - stdlib name
        body = json.dumps({"query": "q", "results": [
            {"url": f"{self.dead}/page{n}.html", "title": f"Page {n}", "content": "Mount Fuji height"}
            for n in range(3)]}).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args) -> None:
        pass


def test_sources_that_cannot_be_read_say_why_on_the_terminal(research_env):
    _Searx.dead = f"http://127.0.0.1:{_closed_port()}"
    server = ThreadingHTTPServer(("127.0.0.1", 0), _Searx)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        research_env["RESEARCH_SEARXNG_URL"] = f"http://127.0.0.1:{server.server_address[1]}"
        result = research_in_process(["What is the height of Mount Fuji?", "--depth", "quick"], research_env)
    finally:
        server.shutdown()
    assert result.returncode == 4, result.stderr
    marks = _step_lines(result.stderr)
    assert marks["Reading sources"] == "✗", result.stderr
    assert marks.get("Writing the answer", "–") != "✓" and marks.get("Checking every claim", "–") != "✓"
    # The cause is on the terminal, not only in report.md.
    reason = [line for line in result.stderr.splitlines() if "could not be read" in line.lower() and ":" in line]
    assert reason and ("connect" in reason[-1].lower() or "refused" in reason[-1].lower()), result.stderr


def test_a_searxng_that_finds_nothing_is_not_a_failed_search(research_env):
    result = research_in_process(["Zqxv blorfwibble glimmerjunk?", "--depth", "quick"], research_env)
    assert result.returncode == 4, result.stderr  # no evidence, not "no engine reachable" (5)
    assert "Search failed" not in result.stderr, result.stderr
    assert "No search engine could be reached" not in result.stderr


@pytest.mark.parametrize("lang", ["ja", "en"])
def test_the_search_hint_names_a_readme_heading_that_exists(lang):
    headings = set(re.findall(r"^#+ (.+)$", README.read_text("utf-8"), flags=re.MULTILINE))
    named = re.findall(r"[「\"]([^」\"]+)[」\"]", t("terminal.search_unreachable", lang).split("README")[1])
    assert named and named[0] in headings, (named, lang)


def test_a_long_step_shows_that_it_is_still_working():
    # Rendered as on a terminal: the running step carries its elapsed seconds.
    import io
    import time

    from rich.console import Console

    from research.cli.progress import ConsoleProgress
    from research.state.progress_events import NodeFinished, NodeStarted

    progress = ConsoleProgress("en", stream_answer=False)
    progress.console = Console(file=io.StringIO(), force_terminal=True, width=80)
    progress(NodeStarted("input"))
    time.sleep(1.3)
    shown = progress.running_line()
    progress(NodeFinished("input", 1.3))
    assert shown is not None and "Understanding the question" in shown and re.search(r"\b1 s\b", shown), shown
    assert progress.running_line() is None


@pytest.mark.parametrize("where", ["/proc/nope/x.md", "file-in-the-way"])
def test_an_output_that_cannot_be_written_is_refused_before_the_run(run_cli, research_env, tmp_path, where):
    # Issue 23, item 8: was checked after the whole run (7 s, then exit 1).
    if where == "file-in-the-way":
        where = str(tmp_path / "taken")
        Path(where).write_text("x", "utf-8")
    result = run_cli(["What is the height of Mount Fuji?", "-o", where], research_env)
    assert result.returncode == 2, result.stderr
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and where in lines[0] and "--output" in lines[0], lines
    assert session_dirs(research_env) == []


def test_a_draft_being_written_shows_as_progress_not_as_the_answer(capsys):
    # Issue 48: the draft is previewed under the running step (and goes with it), never printed.
    import io

    from rich.console import Console

    from research.cli.progress import ConsoleProgress
    from research.state.progress_events import NodeFinished, NodeStarted, Token

    progress = ConsoleProgress("ja", stream_answer=True)
    progress.console = Console(file=io.StringIO(), force_terminal=True, width=80)
    progress(NodeStarted("llm"))
    for piece in ("## 結論\n\n富士山の", "標高は3,776メートルです[S1]。"):
        progress(Token(piece))
    assert "下書き: 30 文字" in (progress.running_line() or "")
    assert progress.draft_preview(60) == "富士山の標高は3,776メートルです[S1]。"
    assert progress.draft_preview(12).startswith("…") and len(progress.draft_preview(12)) <= 12
    progress(NodeFinished("llm", 2.0))
    assert progress.draft_preview(60) == "" and capsys.readouterr().out == ""

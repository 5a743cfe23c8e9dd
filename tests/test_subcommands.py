"""`research sessions …`, `--version`, `--help`: the CLI's `main` run in-process (`run_cli`:
the same argv and environment, stdin not a terminal); tests/test_terminal_e2e.py runs the
console script itself for these commands.

Sessions are made with the real HistoryManager (what a run leaves behind: meta.json and
report.md), so these tests check the subcommands, not a whole research run.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from research import __version__
from research.state.session_folder import HistoryManager


@pytest.fixture
def cli_env(tmp_path):
    """An isolated environment; no Ollama or web is needed for these commands."""
    home = tmp_path / "home"
    home.mkdir()
    env = {k: v for k, v in os.environ.items() if not k.startswith(("RESEARCH_", "OLLAMA_"))}
    env.update(HOME=str(home), XDG_CONFIG_HOME=str(home / ".config"), NO_COLOR="1", LANG="en_US.UTF-8",
               RESEARCH_SESSIONS_DIR=str(tmp_path / "sessions"), COLUMNS="200")
    return env


def make_session(env: dict[str, str], question: str, *, report: str | None, status: str = "done") -> str:
    history = HistoryManager(Path(env["RESEARCH_SESSIONS_DIR"]))
    session = history.create(question=question, language="en", model="gpt-oss:20b")
    history.update_meta(session.session_id, status=status, sources=3,
                        verification={"claims": 4, "supported": 3, "partly_supported": 1, "unsupported": 0,
                                      "citation_invalid": 0, "supported_ratio": 0.875})
    if report is not None:
        history.write_text(session.session_id, "report.md", report)
    return session.session_id


def test_sessions_list_json_and_table(run_cli, cli_env, session_clock):
    first = make_session(cli_env, "What is the height of Mount Fuji?", report="# Fuji\n\n3776 m [S1]\n")
    session_clock.advance()  # session ids carry the second they were made; keep the order certain
    second = make_session(cli_env, "富士山の最後の噴火は？", report=None, status="cancelled")

    listed = run_cli(["sessions", "list", "--json"], cli_env)
    assert listed.returncode == 0, listed.stderr
    sessions = json.loads(listed.stdout)
    assert [s["session_id"] for s in sessions] == [second, first]  # newest first
    assert sessions[1]["question"] == "What is the height of Mount Fuji?"
    assert sessions[0]["status"] == "cancelled"

    table = run_cli(["sessions", "list"], cli_env)
    assert table.returncode == 0, table.stderr
    assert first in table.stdout and second in table.stdout
    # The share from the counts beside it (3 of 4), not the summary's weighted 0.875.
    assert "富士山の最後の噴火は？" in table.stdout and "75% (3 of 4 supported)" in table.stdout
    assert "Traceback" not in table.stderr


def test_sessions_show_prints_the_report_or_says_there_is_none(run_cli, cli_env):
    done = make_session(cli_env, "What is the height of Mount Fuji?", report="# Mount Fuji\n\nIt is 3776 m [S1].\n")
    unfinished = make_session(cli_env, "Unfinished question", report=None, status="cancelled")

    shown = run_cli(["sessions", "show", done], cli_env)
    assert shown.returncode == 0, shown.stderr
    assert "Mount Fuji" in shown.stdout and "3776 m" in shown.stdout

    as_json = run_cli(["sessions", "show", done, "--json"], cli_env)
    assert as_json.returncode == 0
    meta = json.loads(as_json.stdout)
    assert meta["session_id"] == done and meta["report_md"].endswith("report.md")

    missing = run_cli(["sessions", "show", unfinished], cli_env)
    assert missing.returncode == 2
    assert missing.stderr.strip().count("\n") == 0 and f"--resume {unfinished}" in missing.stderr


def test_sessions_rm_deletes_the_folder(run_cli, cli_env):
    session_id = make_session(cli_env, "To be removed", report="# x\n")
    folder = Path(cli_env["RESEARCH_SESSIONS_DIR"]) / f"session_{session_id}"
    assert folder.is_dir()
    refused = run_cli(["sessions", "rm", session_id], cli_env)  # no terminal to ask on, no -y
    assert refused.returncode == 2 and "-y" in refused.stderr and folder.is_dir()
    removed = run_cli(["sessions", "rm", session_id, "-y"], cli_env)
    assert removed.returncode == 0, removed.stderr
    assert not folder.exists()
    assert session_id in removed.stderr
    again = run_cli(["sessions", "rm", session_id], cli_env)
    assert again.returncode == 2


@pytest.mark.parametrize("action", ["show", "open", "rm"])
def test_unknown_or_bad_session_id_is_one_line_and_exit_2(run_cli, cli_env, action):
    make_session(cli_env, "Some question", report="# x\n")
    for ref in ("ffffff_ffffff", "../../etc"):
        result = run_cli(["sessions", action, ref], cli_env)
        assert result.returncode == 2, (ref, result.stderr)
        assert result.stdout == ""
        lines = result.stderr.strip().splitlines()
        assert len(lines) == 1 and lines[0].startswith("research: "), result.stderr
        assert "Traceback" not in result.stderr


def test_version_and_help_exit_0(run_cli, cli_env):
    version = run_cli(["--version"], cli_env)
    assert version.returncode == 0
    assert version.stdout.strip() == f"research {__version__}"

    helped = run_cli(["--help"], cli_env)
    assert helped.returncode == 0
    for option in ("--lang", "--model", "--json", "--resume", "--verbose", "sessions", "doctor"):
        assert option in helped.stdout

    sessions_help = run_cli(["sessions", "--help"], cli_env)
    assert sessions_help.returncode == 0 and "list" in sessions_help.stdout


def test_usage_mistakes_exit_2_in_one_line(run_cli, cli_env):
    for argv in (["--lang", "fr", "question"], ["sessions", "frobnicate"], ["--max-loops", "many", "q"]):
        result = run_cli(argv, cli_env)
        assert result.returncode == 2, (argv, result.stderr)
        assert len(result.stderr.strip().splitlines()) == 1, result.stderr


def test_no_question_and_no_terminal_prints_usage_instead_of_a_repl(run_cli, cli_env):
    # stdin is empty and not a terminal in run_cli: the REPL must not start and wait for input.
    result = run_cli([], cli_env)
    assert result.returncode == 2
    assert "usage" in result.stderr.lower()


@pytest.mark.parametrize("lang, words", [("en", "No viewer could open it"), ("ja", "開けるビューアーがありません")])
def test_sessions_open_without_a_viewer_prints_the_path_and_says_no_viewer_could_run(run_cli, cli_env, tmp_path,
                                                                                   lang, words):
    session_id = make_session(cli_env, "What is the height of Mount Fuji?", report="# Fuji\n")
    pdf = Path(cli_env["RESEARCH_SESSIONS_DIR"]) / f"session_{session_id}" / "report.pdf"
    pdf.write_bytes(b"%PDF-1.4\n")
    nowhere = tmp_path / "no-viewers"
    nowhere.mkdir()
    env = {k: v for k, v in cli_env.items() if k not in ("DISPLAY", "WAYLAND_DISPLAY")} | {"PATH": str(nowhere)}
    opened = run_cli(["sessions", "--lang", lang, "open", session_id], env)
    assert opened.returncode == 0, opened.stderr
    assert opened.stdout.strip() == str(pdf)
    assert words in opened.stderr and len(opened.stderr.strip().splitlines()) == 1


def _on_a_terminal(args: list[str], env: dict[str, str], columns: int) -> tuple[str, str]:
    """The console script's stdout and stderr, its stdout a terminal ``columns`` wide."""
    import pty
    import select
    import subprocess

    from conftest import RESEARCH

    main, follower = pty.openpty()
    process = subprocess.Popen([RESEARCH, *args], env={**env, "COLUMNS": str(columns), "LINES": "40"},
                               stdout=follower, stderr=subprocess.PIPE, stdin=subprocess.DEVNULL)
    os.close(follower)
    shown = b""
    while True:
        ready, _, _ = select.select([main], [], [], 30)
        if not ready:
            break
        try:
            chunk = os.read(main, 4096)
        except OSError:  # the terminal's other end closed: the process is done writing
            break
        if not chunk:
            break
        shown += chunk
    stderr = process.communicate(timeout=30)[1]
    os.close(main)
    import re

    text = re.sub(r"\x1b\[[0-9;]*m", "", shown.decode("utf-8", "replace"))  # bold, italic: not text
    return text.replace("\r\n", "\n"), stderr.decode("utf-8", "replace")


@pytest.mark.e2e
def test_sessions_list_at_80_columns_keeps_japanese_questions_readable(cli_env, session_clock):
    # Issue 48: at 80 columns the table cut 「日本の首都は…」 to "日本の …" and 「富士山…」 to "富士山 …".
    from rich.cells import cell_len

    questions = ["日本の首都はどこですか？その人口と歴史も教えてください。", "富士山の宝永大噴火で江戸に灰は降りましたか？",
                 "What was the last eruption of Mount Fuji and how much ash fell on Edo?"]
    ids = []
    for question in questions:
        ids.append(make_session(cli_env, question, report="# x\n"))
        session_clock.advance()
    out, err = _on_a_terminal(["sessions", "list"], cli_env, 80)
    lines = out.splitlines()
    assert lines and all(cell_len(line.rstrip()) <= 80 for line in lines), out
    for session_id, question in zip(ids, questions):
        (row,) = [n for n, line in enumerate(lines) if session_id in line]  # the id whole, on one line
        # At least eight characters of the question on its row (sixteen cells of Japanese),
        # and the next ones on the line under it: cut by the cells it has, not "日本の …".
        # The question's column starts after the id and the date, which are ASCII: where the
        # header's "Question" starts. Its cell runs to the next column's gap, on two lines.
        start = next(line for line in lines if "Question" in line).index("Question")
        cell = " ".join(lines[n][start:].split("   ")[0].strip() for n in (row, row + 1))
        assert question[:20].startswith(cell.rstrip("…").replace("  ", "")[:20]) or \
            "".join(question.split())[:16] == "".join(cell.split())[:16], (cell, out)
        assert len(cell.rstrip("…").strip()) >= 16, (cell, out)
        assert question[:3] + " …" not in out


@pytest.mark.e2e
def test_sessions_show_of_a_run_still_going_says_it_runs_and_suggests_no_resume(cli_env):
    # Issue 48: `sessions show` on a live run said "Continue with `research --resume …`", and
    # the resume was then refused ("is in use by another research process").
    import subprocess

    from conftest import RESEARCH

    session_id = make_session(cli_env, "富士山の高さは？", report=None, status="running")
    history = HistoryManager(Path(cli_env["RESEARCH_SESSIONS_DIR"]))
    history.write_text(session_id, "progress.md", "# 富士山の高さは？\n\n## Plan\n\n1. 富士山の高さは？\n")
    with history.lock(session_id):  # as the run holding it does (this process, not the one asked)
        shown = subprocess.run([RESEARCH, "sessions", "show", session_id], env=cli_env, capture_output=True,
                               text=True, timeout=60, stdin=subprocess.DEVNULL)
    assert shown.returncode == 0, shown.stderr
    assert "still running" in shown.stderr and "--resume" not in shown.stderr
    assert "Plan" in shown.stdout
    # Once no process holds it, it is interrupted, and resuming is what to do.
    after = subprocess.run([RESEARCH, "sessions", "show", session_id], env=cli_env, capture_output=True, text=True,
                           timeout=60, stdin=subprocess.DEVNULL)
    assert f"--resume {session_id}" in after.stderr


def test_config_init_writes_a_commented_file_and_keeps_one_that_exists(run_cli, cli_env, tmp_path):
    # Issue 48: there was no `research config init`; the TOML was written by hand.
    import re
    import tomllib

    path = Path(cli_env["XDG_CONFIG_HOME"]) / "research" / "config.toml"
    made = run_cli(["config", "init", "--lang", "ja"], cli_env)
    assert made.returncode == 0, made.stderr
    assert str(path) in made.stderr and "作成しました" in made.stderr
    text = path.read_text("utf-8")
    assert tomllib.loads(text) == {}  # every setting commented out: the file changes nothing yet
    assert "# model = \"gpt-oss:20b\"" in text and "ウェブの代わりにこれを検索する" in text
    # Each line a person uncomments is a setting the program takes.
    uncommented = tmp_path / "all.toml"
    uncommented.write_text(re.sub(r"^# (\w+ = )", r"\1", text, flags=re.M), "utf-8")
    values = tomllib.loads(uncommented.read_text("utf-8"))
    assert {"model", "search_engine", "docs_dir", "depth", "max_seconds", "ollama_host"} <= set(values)
    docs = tmp_path / "papers"
    docs.mkdir()
    (docs / "a.md").write_text("# a\n", "utf-8")
    uncommented.write_text(uncommented.read_text("utf-8").replace("~/Documents/papers", str(docs)), "utf-8")
    shown = run_cli(["config", "--json"], {**cli_env, "RESEARCH_CONFIG": str(uncommented)})
    assert shown.returncode == 0, shown.stderr
    settings = {row["name"]: row for row in json.loads(shown.stdout)["settings"]}
    assert settings["model"]["source"] == "file" and settings["max_seconds"]["value"] == 600.0

    path.write_text('model = "qwen2.5-coder:1.5b"\n', "utf-8")
    refused = run_cli(["config", "init"], cli_env)
    assert refused.returncode == 2 and refused.stderr.count("\n") == 1 and "--force" in refused.stderr
    assert path.read_text("utf-8") == 'model = "qwen2.5-coder:1.5b"\n'
    forced = run_cli(["config", "init", "--force"], cli_env)
    assert forced.returncode == 0 and "# model = " in path.read_text("utf-8")

"""Issue 23, items 10 and 11: the console script follows the conventions of git, llm or
ripgrep. Piped output is whole and plain; `--verbose` works where it is documented; an
unknown help topic, a config-file typo and `research config` behave as a user expects.
Commands that need no process boundary run in-process (`run_cli`); a run with `--verbose`
runs the console script."""

from __future__ import annotations

import json
import os
import re
from pathlib import Path

import pytest
from conftest import SHARED_QUESTIONS, research_in_process

from research.state.session_folder import HistoryManager

README = Path(__file__).resolve().parents[1] / "README.md"


@pytest.fixture
def cli_env(tmp_path):
    """No COLUMNS: piped output must not depend on a terminal's width."""
    home = tmp_path / "home"
    home.mkdir()
    env = {k: v for k, v in os.environ.items() if not k.startswith(("RESEARCH_", "OLLAMA_")) and k != "COLUMNS"}
    env.update(HOME=str(home), XDG_CONFIG_HOME=str(home / ".config"), NO_COLOR="1", LANG="en_US.UTF-8",
               RESEARCH_SESSIONS_DIR=str(tmp_path / "sessions"))
    return env


def _session(env, question: str, status: str, report: str | None = None) -> str:
    history = HistoryManager(Path(env["RESEARCH_SESSIONS_DIR"]))
    session = history.create(question=question, language="en", model="gpt-oss:20b")
    history.update_meta(session.session_id, status=status, sources=3,
                        verification={"claims": 4, "supported": 3, "supported_ratio": 0.75})
    if report is not None:
        history.write_text(session.session_id, "report.md", report)
    return session.session_id


def test_piped_sessions_list_is_whole(run_cli, cli_env, session_clock):
    # `research sessions list | cat` cut dates to "2026-11-…" and statuses to "cancell…".
    long_question = "What are the differences between the Hōei eruption of Mount Fuji and earlier eruptions?"
    first = _session(cli_env, long_question, "cancelled")
    session_clock.advance()
    second = _session(cli_env, "富士山の最後の噴火は？", "done")
    listed = run_cli(["sessions", "list"], cli_env)
    assert listed.returncode == 0, listed.stderr
    assert "…" not in listed.stdout
    rows = [line.split("\t") for line in listed.stdout.strip().splitlines()]
    by_id = {row[0]: row for row in rows}
    assert set(by_id) >= {first, second}
    assert re.fullmatch(r"\d{4}-\d\d-\d\d \d\d:\d\d", by_id[first][1])
    assert long_question in by_id[first] and "cancelled" in by_id[first]


def test_sessions_show_redirected_is_the_markdown_itself(run_cli, cli_env):
    report = "# Research report\n\n## Summary\n\nMount Fuji is 3,776 m tall [S1].\n\n| Item | Count |\n|:--|--:|\n| Claims | 4 |\n"
    session_id = _session(cli_env, "How tall is Mount Fuji?", "done", report)
    shown = run_cli(["sessions", "show", session_id], cli_env)
    assert shown.returncode == 0, shown.stderr
    assert shown.stdout == report


def test_doctor_accepts_verbose(run_cli, cli_env):
    cli_env["RESEARCH_OLLAMA_HOST"] = "http://127.0.0.1:9"
    result = run_cli(["doctor", "--offline", "--verbose"], cli_env)
    assert "unrecognized arguments" not in result.stderr
    assert result.returncode == 3, result.stderr  # Ollama is down: doctor's own answer, not a usage error


def test_help_for_an_unknown_topic_is_one_line_and_exit_2(run_cli, cli_env):
    result = run_cli(["help", "nosuch"], cli_env)
    assert result.returncode == 2
    assert result.stdout == "" and len(result.stderr.strip().splitlines()) == 1
    assert "nosuch" in result.stderr and "sessions" in result.stderr


@pytest.mark.parametrize("command, flags", [(["sessions"], ["--lang"]), (["sessions", "list"], ["--json"]),
                                           (["sessions", "show", "x"], ["--json"]),
                                           (["doctor"], ["--json", "--lang", "--verbose"]),
                                           (["config"], ["--json", "--lang"])])
def test_subcommand_flags_have_help_text(run_cli, cli_env, command, flags):
    result = run_cli([*command, "--help"], cli_env)
    assert result.returncode == 0
    lines = result.stdout.splitlines()
    for flag in flags:
        line = next(line for line in lines if line.strip().startswith(flag))
        described = re.sub(r"^\S+( \{[^}]*\}| [A-Z]+)?", "", line.strip()).strip()
        if not described:  # the description may wrap onto the next line
            following = lines[lines.index(line) + 1].strip()
            described = "" if following.startswith("-") else following
        assert described, (flag, result.stdout)


def test_a_typo_in_the_config_file_is_one_line_naming_it(run_cli, cli_env, tmp_path):
    config = Path(cli_env["XDG_CONFIG_HOME"]) / "research" / "config.toml"
    config.parent.mkdir(parents=True)
    config.write_text('modle = "qwen3:8b"\n', "utf-8")
    for args in (["config"], ["What is Mount Fuji?"]):
        result = run_cli(args, cli_env)
        assert result.returncode == 2, result.stderr
        lines = result.stderr.strip().splitlines()
        assert len(lines) == 1 and "'modle'" in lines[0] and "'model'" in lines[0], lines


def test_config_lists_every_setting_of_the_readme(run_cli, cli_env):
    text = README.read_text("utf-8")
    # The run options' table (flag, variable, …) and the other settings' (variable, …).
    options = text.split("<!-- run options:", 1)[1].split("<!-- end of run options -->", 1)[0]
    documented = set(re.findall(r"^\| `--[a-z-]+` \| `(RESEARCH_[A-Z_]+)`", options, re.MULTILINE))
    assert "RESEARCH_MODEL" in documented and "RESEARCH_MAX_SOURCES" in documented
    table = text.split("| `RESEARCH_FALLBACK_MODEL`", 1)[1].split("\n\n", 1)[0]
    for line in ("| `RESEARCH_FALLBACK_MODEL`" + table).splitlines():
        cell = line.split("|")[1]
        names = re.findall(r"`(RESEARCH_[A-Z_]+|_[A-Z_]+)`", cell)
        for name in names:
            # `RESEARCH_FETCH_TIMEOUT` / `_CONNECT_TIMEOUT`: the second shares the first's prefix.
            documented.add(name if name.startswith("RESEARCH_") else names[0].rsplit("_", 1)[0] + name)
    shown = run_cli(["config", "--json"], cli_env)
    assert shown.returncode == 0, shown.stderr
    listed = {row["variable"] for row in json.loads(shown.stdout)["settings"]}
    assert documented - listed == set(), documented - listed


def test_verbose_on_a_run_shows_each_steps_account(research_env, shared_run):
    # `--verbose` was accepted and showed nothing. The quiet run is the shared English run:
    # the same question and --json, against the same fakes.
    question = SHARED_QUESTIONS["en"]
    quiet = shared_run("en").result
    loud = research_in_process([question, "--json", "--verbose"], research_env)
    assert quiet.returncode == loud.returncode == 0, loud.stderr
    ledger = json.loads(loud.stdout.strip().splitlines()[-1])["source_list"]
    assert ledger and all(source["url"] in loud.stderr for source in ledger)  # the sources read, with URLs
    assert f"`{question}`" in loud.stderr  # the queries searched
    assert not any(source["url"] in quiet.stderr for source in ledger)


def test_a_run_that_could_search_nothing_is_listed_as_search_failed(run_cli, cli_env):
    # Issue 23, item 7: a dead SearXNG gave exit 5 but `sessions list` said "no_evidence".
    session_id = _session(cli_env, "What is the height of Mount Fuji?", "no_evidence")
    HistoryManager(Path(cli_env["RESEARCH_SESSIONS_DIR"])).update_meta(session_id, exit_code=5)
    other = _session(cli_env, "Zqxv blorf?", "no_evidence")
    rows = {line.split("\t")[0]: line.split("\t") for line in run_cli(["sessions", "list"], cli_env).stdout.splitlines()}
    assert rows[session_id][2] == "search failed" and rows[other][2] == "no_evidence"


@pytest.mark.parametrize("args, said", [
    (["--frobnicate", "--lang", "ja", "富士山の高さは？"], "research: 不明な引数です: --frobnicate（research --help を参照してください）"),
    (["--lang=ja", "--depth"], "research: --depth には値が必要です（research --help を参照してください）"),
    (["--lang", "en", "--frobnicate"], "research: unrecognized arguments: --frobnicate (see research --help)"),
])
def test_a_command_line_mistake_is_one_line_in_the_users_language(run_cli, cli_env, args, said):
    # Issue 48: `--frobnicate` with `--lang ja` gave argparse's English "unrecognized arguments".
    result = run_cli(args, cli_env, timeout=60)
    assert result.returncode == 2 and result.stdout == ""
    assert result.stderr == said + "\n"

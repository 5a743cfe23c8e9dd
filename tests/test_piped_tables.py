"""Tables that tools read: `research config` and `research doctor` piped print one record
per line (tab-separated, like `sessions list`), every unset value as "–", every path whole;
doctor's status words are the README's ("fail", "skipped"), and both have --json."""

from __future__ import annotations

import json
import os
import re
from pathlib import Path

import pytest

README = Path(__file__).resolve().parent.parent / "README.md"


@pytest.fixture
def cli_env(tmp_path):
    """No COLUMNS: piped output must not depend on a terminal's width. A long sessions path:
    a table 80 columns wide cut it (and the setting names) in the middle."""
    home = tmp_path / "home"
    home.mkdir()
    env = {k: v for k, v in os.environ.items() if not k.startswith(("RESEARCH_", "OLLAMA_")) and k != "COLUMNS"}
    env.update(HOME=str(home), XDG_CONFIG_HOME=str(home / ".config"), NO_COLOR="1", LANG="en_US.UTF-8",
               RESEARCH_SESSIONS_DIR=str(tmp_path / ("a-rather-long-folder-name-for-sessions-" * 3) / "sessions"),
               RESEARCH_OLLAMA_HOST="http://127.0.0.1:9", RESEARCH_SANDBOX="none")
    return env


def _records(stdout: str) -> list[list[str]]:
    lines = stdout.splitlines()
    assert lines, "nothing on stdout"
    return [line.split("\t") for line in lines]


def test_config_piped_is_one_setting_per_line_and_greps(run_cli, cli_env):
    result = run_cli(["config"], cli_env)
    assert result.returncode == 0, result.stderr
    records = _records(result.stdout)
    assert all(len(fields) == 3 for fields in records), result.stdout
    found = [fields for fields in records if "REQUEST_TIMEOUT" in fields[0]]  # `| grep REQUEST_TIMEOUT`
    assert found == [["RESEARCH_REQUEST_TIMEOUT", "600", "default"]]  # as the README's table says it
    rows = {fields[0]: fields for fields in records}
    # Unset, whatever the setting's type (None, "" or empty): the same "–" in every row.
    for unset in ("RESEARCH_SEARXNG_URL", "RESEARCH_JUDGE_MODEL", "RESEARCH_DATABASE_URL", "RESEARCH_SERVER",
                  "RESEARCH_FALLBACK_MODEL", "RESEARCH_SEARCH_FALLBACK"):
        assert rows[unset][1] == "–", rows[unset]
    assert rows["RESEARCH_SESSIONS_DIR"][1] == cli_env["RESEARCH_SESSIONS_DIR"]  # whole, on its line
    assert rows["RESEARCH_ALLOW_PRIVATE_NETWORK"][1] == "false" and rows["RESEARCH_PARSE_TIMEOUT"][1] == "30"
    assert "Config file:" in result.stderr and "Config file:" not in result.stdout


def test_config_json_lists_the_same_settings(run_cli, cli_env):
    piped = {fields[0] for fields in _records(run_cli(["config"], cli_env).stdout)}
    payload = json.loads(run_cli(["config", "--json"], cli_env).stdout)
    assert {row["variable"] for row in payload["settings"]} == piped


def test_doctor_piped_is_one_check_per_line_in_the_readmes_words(run_cli, cli_env):
    result = run_cli(["doctor", "--offline"], cli_env)
    assert result.returncode == 3, result.stderr  # no Ollama: the README's first-run step
    records = _records(result.stdout)
    assert all(len(fields) == 3 for fields in records), result.stdout
    rows = {fields[0]: fields for fields in records}
    assert rows["Ollama reachable"][1] == "fail" and rows["Model installed"][1] == "fail"
    assert "FAILED" not in result.stdout and "warning — skipped" not in result.stdout
    assert rows["Test search"][1:] == ["skipped", "no test query was sent (--offline)"]
    assert rows["Sessions folder writable"][2] == str(Path(cli_env["RESEARCH_SESSIONS_DIR"]).resolve())
    assert {fields[1] for fields in records} <= {"ok", "warning", "fail", "skipped"}
    # The README's first-run step quotes these words.
    readme = " ".join(README.read_text("utf-8").split())
    assert "the Ollama and model rows say **fail**" in readme and "**skipped**" in readme


def test_doctor_json_says_skip_for_the_offline_search(run_cli, cli_env):
    payload = json.loads(run_cli(["doctor", "--offline", "--json"], cli_env).stdout)
    search = next(check for check in payload["checks"] if check["name"] == "search")
    assert search["status"] == "skip"


def test_doctor_piped_in_japanese(run_cli, cli_env):
    result = run_cli(["doctor", "--offline", "--lang", "ja"], cli_env)
    rows = {fields[0]: fields for fields in _records(result.stdout)}
    assert rows["テスト検索"][1] == "省略" and any(fields[1] == "失敗" for fields in rows.values())
    assert not re.search(r"[│┃]", result.stdout)  # no table borders when piped

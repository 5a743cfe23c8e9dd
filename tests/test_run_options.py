"""The options of a run are declared once (modules/core/run_options.py): the settings field, the
CLI flag, both research tools' parameters, a remote run's arguments and the README's table come
from that one line."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest
from research.modules.core.i18n import MESSAGES
from research.modules.core.run_options import (
    FLAG_NAMES,
    README_END,
    README_START,
    RUN_OPTIONS,
    Reach,
    readme_table,
    remote_arguments,
    tool_options,
    within_admin_limits,
)
from research.modules.core.settings import Settings, load_settings

README = Path(__file__).resolve().parents[1] / "README.md"


# --- one declaration, every surface ---------------------------------------------------------


def test_each_option_has_a_field_a_flag_and_a_help_text_in_both_languages():
    from research.cli.main import build_parser

    flags = {action.dest: action.option_strings for action in build_parser()._actions}
    for option in RUN_OPTIONS:
        assert option.name in Settings.model_fields, option.name
        assert flags[option.name] == [option.flag] and FLAG_NAMES[option.name] == option.flag
        assert set(MESSAGES[option.help_key]) == {"en", "ja"} and all(MESSAGES[option.help_key].values())


def test_the_readme_table_is_the_one_the_declarations_give():
    block = README.read_text("utf-8").split(README_START, 1)[1].split(README_END, 1)[0]
    assert block.strip() == readme_table(), "run `python -m research.modules.core.run_options README.md`"


def _schemas(server: Any) -> dict[str, Any]:
    import anyio

    async def listed() -> dict[str, Any]:
        return {tool.name: tool for tool in await server.list_tools()}

    return anyio.run(listed)["research"].input_schema["properties"]


def test_both_research_tools_describe_each_shared_option_alike(tmp_path, monkeypatch):
    monkeypatch.setenv("RESEARCH_SESSIONS_DIR", str(tmp_path / "sessions"))
    from research.servers.research.http_server import build_http_server
    from research.servers.research.http_tokens import TokenStore
    from research.servers.research.server import ResearchService, build_server

    settings = Settings()
    stdio = _schemas(build_server(ResearchService(settings)))
    team = _schemas(build_http_server(settings, TokenStore(tmp_path / "tokens.json"), "http://127.0.0.1:1")[0])
    for option in tool_options(team=True):
        assert stdio[option.parameter] == team[option.parameter], option.name
    # The engine is the stdio caller's to choose; a team's service keeps its admin's.
    assert "engine" in stdio and "engine" not in team
    assert not {"model", "docs_dir", "review_plan", "max_verification_loops"} & (set(stdio) | set(team))
    for option in tool_options(team=False):  # each bound a caller reads is the declared one
        [given] = [choice for choice in stdio[option.parameter]["anyOf"] if choice.get("type") != "null"]
        bounds = option.bounds(tool=True)
        assert given.get("minimum", given.get("exclusiveMinimum")) == bounds.get("ge", bounds.get("gt")), option.name
        assert given.get("maximum") == bounds.get("le") and given.get("enum", []) == list(option.choices), option.name


def test_a_tool_caller_may_lower_a_cap_never_raise_it():
    admin = Settings(max_sources=3)
    asked = {"max_sources": 50, "depth": "deep", "max_seconds": None}
    assert within_admin_limits(asked, admin) == {"max_sources": 3, "depth": "deep"}
    capped = {option.name for option in RUN_OPTIONS if option.reach is Reach.CAPPED}
    assert capped == {"max_sources", "max_llm_tokens", "max_seconds"}


def _no_research_variables(monkeypatch) -> None:
    for name in list(os.environ):
        if name.startswith("RESEARCH_"):
            monkeypatch.delenv(name)


def test_a_remote_run_sends_the_options_the_team_tool_takes(monkeypatch):
    _no_research_variables(monkeypatch)
    settings = load_settings(depth="deep", max_sources=4, search_engine="wikipedia", model="qwen3:8b")
    assert remote_arguments(settings) == {"depth": "deep", "max_sources": 4}
    assert remote_arguments(load_settings()) == {}  # defaults: the server's own apply


def _cli_env(tmp_path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("RESEARCH_", "OLLAMA_"))}
    env.update(HOME=str(tmp_path), RESEARCH_SESSIONS_DIR=str(tmp_path / "sessions"), LANG="en_US.UTF-8")
    return env


@pytest.mark.parametrize("args, needle", [(["What?", "--max-loops", "x"], "--max-loops: 'x' is not valid"),
                                          (["What?", "--lang", "ja", "--max-sources", "0"], "1 以上の整数"),
                                          (["富士山は？", "--depth", "deeper"], "quick, standard, deep のいずれか")])
def test_a_bad_flag_value_is_one_line_in_the_users_language_and_exit_2(run_cli, tmp_path, args, needle):
    result = run_cli(args, _cli_env(tmp_path))
    assert result.returncode == 2, result.stderr
    assert len(result.stderr.strip().splitlines()) == 1 and needle in result.stderr, result.stderr
    assert not (tmp_path / "sessions").exists()  # refused before any session

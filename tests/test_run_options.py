"""The options of a run are declared once (modules/core/run_options.py): the settings field, the
CLI flag, both research tools' parameters, a remote run's arguments and the README's table come
from that one line."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest
from fixtures.typed_state import run_step
from fixtures.fake_model import FakeModel
from research.modules.core.i18n import MESSAGES
from research.modules.core.run_options import (
    FLAG_NAMES,
    README_END,
    README_START,
    RUN_OPTIONS,
    BadOption,
    Reach,
    readme_table,
    remote_arguments,
    tool_options,
    within_admin_limits,
)
from research.modules.core.settings import Settings, load_settings
from research.workflow.dependencies import WorkflowDependencies
from research.nodes.processing import process_documents, source_year
from research.state.models import Document, ParsedDocument
from research.state.progress_events import Message

README = Path(__file__).resolve().parents[1] / "README.md"


# --- one declaration, every surface ---------------------------------------------------------


def test_each_option_has_a_field_a_flag_and_a_help_text_in_both_languages():
    from research.cli.arguments import build_parser

    flags = {action.dest: action.option_strings for action in build_parser()._actions}
    for option in RUN_OPTIONS:
        assert option.name in Settings.model_fields, option.name
        assert flags[option.name] == [option.flag] and FLAG_NAMES[option.name] == option.flag
        assert set(MESSAGES[option.help_key]) == {"en", "ja"} and all(MESSAGES[option.help_key].values())


def test_the_type_checker_sees_each_option_as_the_settings_build_it():
    """settings.py declares the options' fields for the type checker (create_model builds the real
    ones at run time): the same names, the same types."""
    import ast
    import typing
    from pathlib import Path as _Path

    import research.modules.core.settings as settings_module

    tree = ast.parse(_Path(settings_module.__file__).read_text("utf-8"))
    declared = next(node for node in ast.walk(tree) if isinstance(node, ast.ClassDef)
                    and node.name == "_RunOptionSettings")
    seen = {item.target.id: eval(ast.unparse(item.annotation), {"Literal": typing.Literal, "Path": _Path})
            for item in declared.body if isinstance(item, ast.AnnAssign) and isinstance(item.target, ast.Name)}
    assert list(seen) == [option.name for option in RUN_OPTIONS]
    for name, kind in seen.items():
        assert kind == Settings.model_fields[name].annotation, name


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
    from research.team.front import build_http_server
    from research.team.tokens import TokenStore
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


# --- --since: bad values -------------------------------------------------------------------


@pytest.mark.parametrize("value", ["abc", "99999", "1899", "2020.5", "", "nan"])
def test_a_bad_since_is_refused_naming_the_flag(value):
    option = next(option for option in RUN_OPTIONS if option.name == "since")
    with pytest.raises(BadOption) as raised:
        option.parse(value)
    assert raised.value.exit_code == 2
    assert "--since" in raised.value.message("en") and "1900" in raised.value.message("en")
    assert "整数" in raised.value.message("ja")


@pytest.mark.parametrize("args, needle", [(["What changed?", "--since", "abc"], "whole number from 1900 to 2100"),
                                          (["富士山の噴火は？", "--since", "99999"], "1900〜2100 の整数")])
def test_a_bad_since_is_one_line_in_the_users_language_and_exit_2(run_cli, tmp_path, args, needle):
    result = run_cli(args, _cli_env(tmp_path))
    assert result.returncode == 2, result.stderr
    assert len(result.stderr.strip().splitlines()) == 1 and needle in result.stderr, result.stderr
    assert not (tmp_path / "sessions").exists()


def test_since_reaches_settings_both_tools_and_a_remote_run(monkeypatch):
    _no_research_variables(monkeypatch)
    assert load_settings().since is None  # not set: no source is left out by its date
    assert load_settings(since=2020).since == 2020
    assert [option.parameter for option in tool_options(team=True)].count("since") == 1
    assert within_admin_limits({"since": 2020}, Settings(since=2010)) == {"since": 2020}  # not a cap
    assert remote_arguments(load_settings(since=2021)) == {"since": 2021}


# --- --since: the filter ---------------------------------------------------------------------


@pytest.mark.parametrize("url, text, year", [
    ("https://news.example/2015/03/12/eruption", "", 2015),
    ("https://blog.example/posts/2018-07-01-fuji", "", 2018),
    ("https://news.example/20190512/fuji.html", "", 2019),
    ("https://arxiv.org/abs/1706.03762", "", 2017),
    ("https://example.org/fuji", "Published: March 3, 2019\n\nMount Fuji …", 2019),
    ("https://example.org/fuji", "Date: 12 May 2018\n\nMount Fuji …", 2018),
    ("https://example.jp/fuji", "公開日：2019年3月3日\n\n富士山は…", 2019),
    ("https://example.org/fuji", "# Fuji\n\nBy A. Writer · Published 4 May 2024\n\nMount Fuji …", 2024),
    ("https://example.jp/fuji", "最終更新日 2021/4/1\n\n富士山は…", 2021),
    # The latest date wins: a page updated since counts as that new.
    ("https://news.example/2015/03/fuji", "Updated 2023-01-02\n\nMount Fuji …", 2023),
    # No date: a year in a path alone, a year the text is about, a year far down the page.
    ("https://example.org/2019/fuji", "", None),
    ("https://example.org/fuji", "In 1707 Mount Fuji erupted; candidates in 2019 …", None),
    ("https://example.org/fuji", "The hazard map was updated in 2010 after a survey.", None),
    ("https://example.org/fuji", "x" * 2000 + "\nPublished: 2012", None),
])
def test_a_sources_year_is_what_it_states(url, text, year):
    assert source_year(url, text) == year


PAGES = {
    "https://news.example/2012/05/fuji": "Mount Fuji is 3,776 m high.",
    "https://example.org/old": "Published: 2014-02-01\n\nMount Fuji last erupted in 1707.",
    "https://example.org/new": "Published: 2022-06-01\n\nMount Fuji is a stratovolcano.",
    "https://example.org/undated": "Mount Fuji is in Japan.",
}


class DatedParser:
    """Each page's text is its URL's line in PAGES."""

    async def parse(self, *, path: str | None, text: str | None, media_type: str, url: str) -> ParsedDocument:
        return ParsedDocument(title="Mount Fuji", markdown=PAGES[url], language="en")


class MemoryHistory:
    def __init__(self) -> None:
        self.files: dict[str, Any] = {}

    def write_text(self, session_id: str, name: str, text: str) -> None:
        self.files[name] = text


@pytest.mark.parametrize("lang, said", [("en", "2 of 4 sources dated before 2020 left out (--since 2020)"),
                                        ("ja", "4 件中 2 件の出典は 2020 年より前の日付のため除外しました")])
async def test_sources_dated_before_since_are_left_out_before_drafting(lang, said):
    from research.modules.core.i18n import t

    told: list[Any] = []
    deps = WorkflowDependencies(settings=Settings(since=2020), model=FakeModel(strict=True), web_search=None, parser=DatedParser(),
                                history=MemoryHistory(), progress=told.append)
    hits = [{"url": url, "canonical_url": url, "content": "x", "media_type": "text/markdown"}
            for url in PAGES]
    result = await run_step(process_documents, {"session_id": "s", "documents": [], "search_results": hits,
                                      "language": lang}, deps)
    by_url = {doc["url"]: doc for doc in result["documents"]}
    assert [by_url[url]["status"] for url in PAGES] == ["left_out", "left_out", "ok", "ok"]
    left_out = by_url["https://example.org/old"]
    assert left_out["markdown"] == "" and "2014" in left_out["error"] and "2020" in left_out["error"]
    assert by_url["https://example.org/undated"]["markdown"]  # no known date: kept
    messages = [t(event.key, lang, **event.params) for event in told if isinstance(event, Message)]
    assert any(said in message for message in messages), messages
    # Not "could not be read": they were read, and are older than asked.
    assert not [error for error in result["errors"] if "2014" in error["message"]]
    assert t("progress.documents_read", lang, ok=2, failed=0) in messages


async def test_a_follow_up_round_does_not_count_earlier_sources_left_out_as_unreadable():
    from research.modules.core.i18n import t

    told: list[Any] = []
    deps = WorkflowDependencies(settings=Settings(since=2020), model=FakeModel(strict=True), web_search=None,
                                parser=DatedParser(), history=MemoryHistory(), progress=told.append)
    old, new = ({"url": url, "canonical_url": url, "content": "x", "media_type": "text/markdown"}
                for url in ("https://example.org/old", "https://example.org/new"))
    state = {"session_id": "s", "documents": [], "search_results": [old], "language": "en"}
    round_one = await run_step(process_documents, state, deps)
    assert [doc["status"] for doc in round_one["documents"]] == ["left_out"]
    told.clear()
    documents = [Document.model_validate(doc) for doc in round_one["documents"]]
    round_two = await run_step(process_documents, {**state, "documents": documents,
                                                   "search_results": [old, new]}, deps)
    assert [doc["status"] for doc in round_two["documents"]] == ["ok"]
    messages = [t(event.key, "en", **event.params) for event in told if isinstance(event, Message)]
    assert "1 source read, 0 could not be read" in messages, messages


async def test_without_since_no_source_is_left_out_by_its_date():
    deps = WorkflowDependencies(settings=Settings(), model=FakeModel(strict=True), web_search=None, parser=DatedParser(),
                                history=MemoryHistory())
    hits = [{"url": url, "canonical_url": url, "content": "x"} for url in PAGES]
    result = await run_step(process_documents, {"session_id": "s", "documents": [], "search_results": hits}, deps)
    assert all(doc["status"] == "ok" for doc in result["documents"])


def test_a_run_with_since_leaves_out_the_older_document_and_says_so(research_env, tmp_path):
    from conftest import load_json_line, research_in_process

    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "fuji-old.md").write_text("# Mount Fuji\n\nPublished: 2014-02-01\n\nMount Fuji is 3,776 m high. "
                                      "It last erupted in 1707.\n", "utf-8")
    (docs / "fuji-new.md").write_text("# Mount Fuji\n\nPublished: 2022-06-01\n\nMount Fuji is 3,776 m high. "
                                      "It is a stratovolcano in Japan.\n", "utf-8")
    result = research_in_process(["How high is Mount Fuji?", "--engine", "local", "--docs", str(docs),
                                  "--since", "2020", "--json"], research_env)
    assert result.returncode == 0, result.stderr
    payload = load_json_line(result.stdout)
    assert [Path(source["url"]).name for source in payload["source_list"]] == ["fuji-new.md"]
    assert payload["sources_failed"] == 0 and payload["sources_left_out"] == 1
    assert "1 of 2 sources dated before 2020 left out (--since 2020)" in result.stderr
    assert "1 source read, 0 could not be read" in result.stderr  # it was read: it is older than asked
    # The report names the source left out and why, as it names one that could not be read.
    report = Path(payload["report_md"]).read_text("utf-8")
    assert "fuji-old.md" in report and "dated 2014, before --since 2020" in report
    # Listed as left out, not as unreadable, wherever it is named.
    old_lines = [line for line in report.splitlines() if "fuji-old.md" in line]
    assert any("⊘ left out: dated 2014" in line for line in old_lines), old_lines
    assert not any("could not be read" in line for line in old_lines), old_lines
    progress_md = (Path(payload["session_dir"]) / "progress.md").read_text("utf-8")
    assert "fuji-old.md — left out: dated 2014, before --since 2020" in progress_md
    assert "**Sources that could not be read**: 0 · **Sources left out (--since)**: 1" in report

"""The log of what a run did: off by default, one clean line per event with --verbose or
RESEARCH_LOG_LEVEL, from the CLI and from a team worker alike."""

from __future__ import annotations

import io
import logging
import re

from conftest import research_in_process

from research.modules.core.logs import configure
from research.state.steps import PLAIN_RUN

LOG_LINE = re.compile(r"^\d\d:\d\d:\d\d (DEBUG|INFO|WARNING|ERROR) research\.[\w.]+: ")


def test_a_log_line_is_one_line_without_terminal_control():
    stream = io.StringIO()
    configure("info", stream)
    try:
        # A page's title or a model's words may end up in a line: none of it may drive the terminal.
        logging.getLogger("research.test").info("title: %s", "Fuji\x1b]52;c;cm0gLXJmIH4=\x07\nnext\u202eline\x9b2J")
    finally:
        configure("warning", io.StringIO())
    (line,) = stream.getvalue().splitlines()
    assert LOG_LINE.match(line), line
    assert line.endswith("title: Fuji nextline") and not re.search(r"[\x00-\x1f\x7f-\x9f\u202a-\u202e]", line)


def test_verbose_shows_at_least_what_a_run_did_and_a_quieter_setting_gives_way():
    assert configure("warning", io.StringIO()).level == logging.WARNING
    assert configure("error", io.StringIO(), verbose=True).level == logging.INFO
    assert configure("debug", io.StringIO(), verbose=True).level == logging.DEBUG
    configure("warning", io.StringIO())


def test_verbose_run_logs_its_steps_and_model_calls_and_a_plain_run_does_not(shared_run, research_env):
    plain = shared_run("en-text").result
    assert not [line for line in plain.stderr.splitlines() if LOG_LINE.match(line)], plain.stderr
    # Its own servers: the log says when each came up.
    result = research_in_process(["What is the height of Mount Fuji?", "--verbose"], research_env, own_servers=True)
    assert result.returncode == 0, result.stderr
    lines = [line for line in result.stderr.splitlines() if LOG_LINE.match(line)]
    finished = [re.search(r"step (\w+) finished in [\d.]+ s", line) for line in lines]
    assert [m.group(1) for m in finished if m] == list(PLAIN_RUN)
    calls = [line for line in lines if "research.modules.llm.model_manager" in line]
    assert any(" answered plan for input: " in line for line in calls), calls
    assert any(" streamed draft for llm " in line for line in calls), calls
    assert any("server is up after" in line for line in lines), lines


def test_the_log_level_setting_alone_turns_it_on(research_env):
    result = research_in_process(["What is the height of Mount Fuji?", "--json"],
                                 {**research_env, "RESEARCH_LOG_LEVEL": "info"})
    assert result.returncode == 0, result.stderr
    assert any(LOG_LINE.match(line) and "step report finished" in line for line in result.stderr.splitlines())
    bad = research_in_process(["q"], {**research_env, "RESEARCH_LOG_LEVEL": "loud"})
    assert bad.returncode == 2 and len(bad.stderr.strip().splitlines()) == 1, bad.stderr


def test_the_log_is_in_the_runs_language_and_english_to_any_other_reader(research_env, caplog):
    from research.modules.core.logs import said

    stream = io.StringIO()
    configure("info", stream, lang="ja")
    try:
        with caplog.at_level(logging.INFO, logger="research.test"):
            logging.getLogger("research.test").info(said("log.step_finished", step="search", seconds="1.5", calls=(
                said("log.step_calls", node="input", calls=1, prompt=120, completion=30),)))
    finally:
        configure("warning", io.StringIO())
    (line,) = stream.getvalue().splitlines()
    assert LOG_LINE.match(line) and line.endswith("ステップ search が 1.5 秒で終わりました、input: モデル呼び出し 1 回、120+30 トークン")
    assert caplog.messages == ["step search finished in 1.5 s, input: 1 model calls, 120+30 tokens"]
    # A Japanese question's run logs in Japanese.
    result = research_in_process(["富士山の標高は？", "--verbose"], research_env, own_servers=True)
    assert result.returncode == 0, result.stderr
    lines = [line for line in result.stderr.splitlines() if LOG_LINE.match(line)]
    assert any(re.search(r"ステップ report が [\d.]+ 秒で終わりました", line) for line in lines), lines
    assert any("サーバーが" in line and "秒で起動しました" in line for line in lines), lines

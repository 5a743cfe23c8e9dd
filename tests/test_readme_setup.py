"""Issue 23, item 13: the README's set-up starts from nothing: how to get the code and go
into its folder (every later command runs there), and how long the tests take."""

from __future__ import annotations

import re
from pathlib import Path

README = Path(__file__).resolve().parents[1] / "README.md"


def _setup_section() -> str:
    return README.read_text("utf-8").split("## Set up", 1)[1].split("\n### ", 1)[0]


def test_setup_says_how_to_get_the_code_and_go_into_it():
    block = re.search(r"```bash\n(.*?)```", _setup_section(), flags=re.DOTALL).group(1)
    commands = [line for line in block.splitlines() if line.strip() and not line.lstrip().startswith("#")]
    assert re.match(r"git clone \S.* && cd \S+", commands[0]), commands[0]  # first, before the venv
    assert any("python3 -m venv" in line for line in commands[1:])


def test_setup_says_how_long_the_tests_take():
    text = " ".join(_setup_section().split())
    assert re.search(r"about \d+ minutes for the whole suite", text)
    assert "-m 'not e2e'" in text

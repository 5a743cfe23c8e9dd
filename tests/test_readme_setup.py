"""Issue 23, item 13: the README's set-up starts from nothing: how to get the code and go
into its folder (every later command runs there), and how long the tests take."""

from __future__ import annotations

import fnmatch
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


def _which_files_table() -> str:
    return _setup_section().split("What to run for which part", 1)[1].split("\n\n`.ci/run`", 1)[0]


def test_every_test_file_is_in_the_table_of_what_to_run_for_which_part():
    """Issue 47: the quick loop and the e2e files are named per part of the code; a new test
    file that the table does not name is a file nobody knows to run."""
    table = _which_files_table()
    rows = [line for line in table.splitlines() if line.startswith("| ") and not line.startswith("| Part")]
    named = [name.split(" ")[0] for row in rows for name in re.findall(r"`([^`]+)`", row)]
    assert len(rows) >= 10 and named
    tests = Path(__file__).resolve().parent
    files = sorted(str(path.relative_to(tests).with_suffix("")) for path in
                   [*tests.glob("test_*.py"), *tests.glob("faults/test_*.py")])
    unnamed = [name for name in files if not any(fnmatch.fnmatch(name, pattern) for pattern in named)]
    assert not unnamed, f"add them to the README's table (Set up, 'What to run for which part'): {unnamed}"

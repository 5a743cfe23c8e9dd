"""A slash command is one entry of ``COMMANDS`` (cli/repl_commands.py): /help, completion and
"did you mean" all read that table, and every entry has its help line in both languages
(so a new command cannot show a raw message key in /help)."""

from __future__ import annotations

from types import SimpleNamespace

import pytest
from prompt_toolkit.completion import CompleteEvent
from prompt_toolkit.document import Document

from research.cli.repl_commands import ALIASES, COMMANDS, SlashCompleter, closest_command
from research.modules.core.i18n import MESSAGES


@pytest.mark.parametrize("name", list(COMMANDS))
def test_every_command_has_its_help_in_japanese_and_english(name: str) -> None:
    entry = MESSAGES.get(COMMANDS[name].help_key)
    assert entry and entry.get("ja") and entry.get("en"), f"/{name}: add {COMMANDS[name].help_key} (ja and en)"
    assert entry["ja"] != entry["en"]


@pytest.mark.parametrize("lang", ["ja", "en"])
def test_completion_and_suggestions_read_the_same_table(lang: str) -> None:
    completer = SlashCompleter(SimpleNamespace(lang=lang))  # type: ignore[arg-type]
    offered = [c.text for c in completer.get_completions(Document("/"), CompleteEvent())]
    assert offered == ["/" + name for name in COMMANDS]
    assert all(target in COMMANDS for target in ALIASES.values())
    assert all(closest_command(name) == name for name in COMMANDS)
    assert closest_command("sesions") == "sessions" and closest_command("reusme") == "resume"

"""Issue 23, item 12: what an MCP host sees of the research server. Progress notifications
carry a total (a bar, not only a counter), a resumed run names its step in words, `verify`'s
text content carries each verdict's reason and evidence, and the README says a host does not
pass the user's environment."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from mcp import Client
from test_mcp_research_server import ANSWER, FACTS, QUESTION, host_params

from research.servers.research.server import progress_message
from research.state.progress_events import Resuming

pytestmark = pytest.mark.e2e
README = Path(__file__).resolve().parents[1] / "README.md"


async def test_progress_notifications_carry_a_total(research_env, fake_ollama):
    seen: list[tuple[float, float | None, str]] = []

    async def on_progress(value: float, total: float | None, message: str | None) -> None:
        seen.append((value, total, message or ""))

    async with Client(host_params(research_env)) as host:
        result = await host.call_tool("research", {"question": QUESTION, "lang": "en"}, progress_callback=on_progress)
    assert not result.is_error, result.content[0].text
    assert seen and all(total is not None and 0 < value <= total for value, total, _ in seen), seen
    values = [value for value, _, _ in seen]
    assert values == sorted(values) and len(set(values)) == len(values)  # MCP: always growing
    last_value, last_total, last_message = seen[-1]
    assert last_value == last_total and last_message.startswith("Writing the report")


def test_a_resumed_run_names_its_step_in_words():
    assert progress_message(Resuming("x", ("llm",)), "en") == \
        'Resuming session x at step "Writing the answer"'
    assert "回答を作成中" in progress_message(Resuming("x", ("llm",)), "ja")


async def test_verify_text_content_gives_reason_and_evidence(research_env):
    async with Client(host_params(research_env)) as host:
        result = await host.call_tool("verify", {"answer": ANSWER, "sources": [FACTS], "judge": False})
    assert not result.is_error, result.content[0].text
    text = result.content[0].text
    block = text.split("Mount Fuji is 4,200 m tall")[1].split("\n4. ")[0]
    assert "why: a number differs from the source" in block
    assert re.search(r"evidence \[S1\]: .*3,776 m", block), block


def test_readme_says_hosts_do_not_pass_the_users_environment():
    section = README.read_text("utf-8").split("## Use it from Claude Desktop and other MCP hosts", 1)[1]
    section = section.split("\n## ", 1)[0]
    assert "not your shell's" in section and "`env`" in section

"""Shared fixtures: the fake Ollama server, the local web, and a way to run the CLI."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))

from fixtures.fake_ollama import FakeOllama  # noqa: E402
from fixtures.web_fixture import WebFixture  # noqa: E402

RESEARCH = str(Path(sys.executable).with_name("research"))


@pytest.fixture
def fake_ollama():
    with FakeOllama() as server:
        yield server


@pytest.fixture(scope="session")
def web():
    with WebFixture(slow_delay=3.0) as fixture:
        yield fixture


@pytest.fixture
def research_env(tmp_path, fake_ollama, web):
    """Environment for running `research` against the fakes, isolated from the user's files."""
    home = tmp_path / "home"
    home.mkdir()
    env = {k: v for k, v in os.environ.items() if not k.startswith(("RESEARCH_", "OLLAMA_"))}
    env.update(
        HOME=str(home),
        XDG_CONFIG_HOME=str(home / ".config"),
        RESEARCH_OLLAMA_HOST=fake_ollama.url,
        RESEARCH_SEARCH_ENGINE="searxng",
        RESEARCH_SEARXNG_URL=web.searxng_url,
        RESEARCH_ALLOW_PRIVATE_NETWORK="true",
        RESEARCH_SESSIONS_DIR=str(tmp_path / "sessions"),
        NO_COLOR="1",
        PYTHONUNBUFFERED="1",
    )
    return env


def run_research(args: list[str], env: dict[str, str], timeout: float = 180) -> subprocess.CompletedProcess:
    return subprocess.run([RESEARCH, *args], env=env, capture_output=True, text=True, timeout=timeout,
                          stdin=subprocess.DEVNULL)


def session_dirs(env: dict[str, str]) -> list[Path]:
    root = Path(env["RESEARCH_SESSIONS_DIR"])
    return sorted(root.glob("session_*")) if root.exists() else []


def load_json_line(stdout: str) -> dict:
    return json.loads(stdout.strip().splitlines()[-1])

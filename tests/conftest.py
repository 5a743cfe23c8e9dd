"""Shared fixtures: the fake Ollama server, the local web, and a way to run the CLI."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from dataclasses import dataclass
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
    # The slow page is slower than every other page, but not by seconds: English runs find
    # it (it shares "facts" with the planned queries) and every such run waited for it.
    with WebFixture(slow_delay=0.5) as fixture:
        yield fixture


@pytest.fixture
def research_env(tmp_path, fake_ollama, web):
    """Environment for running `research` against the fakes, isolated from the user's files."""
    return research_environment(tmp_path, fake_ollama, web)


def research_environment(folder: Path, ollama: FakeOllama, web: WebFixture) -> dict[str, str]:
    home = folder / "home"
    home.mkdir()
    env = {k: v for k, v in os.environ.items() if not k.startswith(("RESEARCH_", "OLLAMA_"))}
    env.update(
        HOME=str(home),
        XDG_CONFIG_HOME=str(home / ".config"),
        RESEARCH_OLLAMA_HOST=ollama.url,
        RESEARCH_SEARCH_ENGINE="searxng",
        RESEARCH_SEARXNG_URL=web.searxng_url,
        RESEARCH_ALLOW_PRIVATE_NETWORK="true",
        RESEARCH_SESSIONS_DIR=str(folder / "sessions"),
        NO_COLOR="1",
        PYTHONUNBUFFERED="1",
    )
    return env


# One complete run per language, shared by the tests that only read what it wrote (a full
# run starts both servers and the sandbox: about ten seconds on a small machine). The
# language is detected from the question, as a user's would be.
SHARED_QUESTIONS = {"ja": "LangGraphのチェックポイントとは？", "en": "What are LangGraph checkpoints?"}


@dataclass(frozen=True)
class SharedRun:
    result: subprocess.CompletedProcess
    summary: dict
    session: Path


@pytest.fixture(scope="session")
def shared_run(tmp_path_factory, web):
    """``shared_run("ja")``: the session folder and output of that language's shared run
    (made on first use, default settings, its own fake Ollama). Tests must not change it."""
    runs: dict[str, SharedRun] = {}
    with FakeOllama() as ollama:

        def get(lang: str) -> SharedRun:
            if lang not in runs:
                env = research_environment(tmp_path_factory.mktemp(f"shared-run-{lang}"), ollama, web)
                result = run_research([SHARED_QUESTIONS[lang], "--json"], env)
                assert result.returncode == 0, result.stderr
                summary = load_json_line(result.stdout)
                runs[lang] = SharedRun(result, summary, Path(summary["session_dir"]))
            return runs[lang]

        yield get


def run_research(args: list[str], env: dict[str, str], timeout: float = 180) -> subprocess.CompletedProcess:
    return subprocess.run([RESEARCH, *args], env=env, capture_output=True, text=True, timeout=timeout,
                          stdin=subprocess.DEVNULL)


def session_dirs(env: dict[str, str]) -> list[Path]:
    root = Path(env["RESEARCH_SESSIONS_DIR"])
    return sorted(root.glob("session_*")) if root.exists() else []


def load_json_line(stdout: str) -> dict:
    return json.loads(stdout.strip().splitlines()[-1])

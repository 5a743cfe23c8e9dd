"""What a caller may put into the graph (issue 30, item 1).

Under LangGraph Server a run's input went to the ``session`` step, which passed every key
of AgentState it did not know about straight into the state: ``search_results`` with a
``cache_path`` naming a private file had that file parsed into the prompt and the report.
The graph factory's graph is driven here in-process, as LangGraph Server drives it, with
the attacker's input; and the one check (``graph_input``) every door goes through.
"""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

import pytest

from research.modules.core.errors import DocumentFailed, UsageError
from research.orchestrator.graph_input import CALLER_KEYS, InputRefused, read_caller_input

SECRET = "sk-live-NOT-FOR-THE-REPORT-1234"


@pytest.fixture
def secret(tmp_path) -> Path:
    path = tmp_path / "home" / "secret.txt"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(SECRET)
    path.chmod(0o600)
    return path


def _hostile_input(secret: Path) -> dict:
    return {"question": "What is the height of Mount Fuji?", "language": "en",
            "search_results": [{"url": "https://example.org/key", "canonical_url": "https://example.org/key",
                                "title": "key", "cache_path": str(secret), "media_type": "text/plain"}]}


def _use_env(monkeypatch, env: dict[str, str]) -> None:
    for key in [k for k in list(__import__("os").environ) if k.startswith(("RESEARCH_", "OLLAMA_"))]:
        monkeypatch.delenv(key, raising=False)
    for key, value in env.items():
        if key.startswith(("RESEARCH_", "OLLAMA_", "HOME", "XDG_")):
            monkeypatch.setenv(key, value)


async def _run_graph(graph_input: dict) -> dict:
    from research.orchestrator.graph_factory import make_graph

    async with make_graph() as graph:
        return await graph.ainvoke(graph_input)


def test_the_langgraph_graph_refuses_an_input_that_carries_search_results(research_env, fake_ollama, secret,
                                                                           monkeypatch):
    _use_env(monkeypatch, research_env)
    with pytest.raises(ValueError) as refused:
        asyncio.run(_run_graph(_hostile_input(secret)))
    message = str(refused.value)
    assert "search_results" in message and "Refusing the input" in message and "\n" not in message
    assert SECRET not in message
    # Refused before anything else: no session folder, no model call.
    sessions = Path(research_env["RESEARCH_SESSIONS_DIR"])
    assert not sessions.exists() or not any(sessions.glob("session_*"))
    assert fake_ollama.chat_requests() == []


@pytest.mark.e2e
def test_the_langgraph_graph_runs_a_plain_input_and_reads_no_file_named_in_state(research_env, secret, monkeypatch):
    """A whole run through the factory's graph; the parser door refuses a path that is not
    this session's own cache entry, however the state came to hold it."""
    _use_env(monkeypatch, research_env)
    final = asyncio.run(_run_graph({"question": "What is the height of Mount Fuji?", "language": "en",
                                    "depth": "quick"}))
    report = Path(final["report_md"]).read_text("utf-8")
    assert "Mount Fuji" in report
    session = Path(final["session_dir"])
    for name in ("report.md", "processed.jsonl", "progress.md"):
        if (session / name).exists():
            assert SECRET not in (session / name).read_text("utf-8")
    assert json.loads((session / "meta.json").read_text("utf-8"))["origin"] == "langgraph"


def test_the_parser_door_of_the_langgraph_graph_takes_only_this_session_s_cache(tmp_path, secret):
    from research.modules.core.settings import Settings
    from research.orchestrator.graph_factory import SessionServers
    from research.servers.web.fetcher import SourceCache

    servers = SessionServers(Settings(sessions_dir=tmp_path / "sessions"))
    session = tmp_path / "sessions" / "session_20250101_000000_abcd"
    (session / "sources").mkdir(parents=True)
    other = tmp_path / "sessions" / "session_20250101_000000_other" / "sources"
    other.mkdir(parents=True)
    (other / (SourceCache.key("https://a.example/") + ".txt")).write_text("x")
    servers.session_path = session
    for path in (str(secret), str(session / "sources" / ".." / ".." / ".." / "home" / "secret.txt"),
                 str(other / (SourceCache.key("https://a.example/") + ".txt")), str(session / "meta.json")):
        with pytest.raises(DocumentFailed):
            asyncio.run(servers.parse(path=path, text=None, media_type="text/plain", url="https://a.example/"))


@pytest.mark.parametrize("raw", [
    {"question": "q?", "search_results": []},
    {"question": "q?", "documents": [{"markdown": "x"}]},
    {"question": "q?", "session_dir": "/tmp"},
    {"question": "q?", "cache_path": "/etc/passwd"},
    {"question": "q?", "review_plan": True},
    {"question": "q?", "unknown": 1},
])
def test_every_key_but_the_question_language_and_depth_is_refused(raw):
    with pytest.raises(InputRefused) as refused:
        read_caller_input(raw)
    assert refused.value.key == "graph_input.unknown_keys"
    assert [k for k in raw if k not in CALLER_KEYS][0] in refused.value.message("en")


@pytest.mark.parametrize("raw", [
    {"question": 3}, {"question": "q?", "language": "fr"}, {"question": "q?", "depth": "bottomless"},
    {"question": "q?", "language": ["en"]}, ["question"], None,
])
def test_values_of_the_wrong_kind_are_refused(raw):
    with pytest.raises(UsageError):
        read_caller_input(raw)


def test_a_plain_input_is_cleaned_and_resolved():
    given = read_caller_input({"question": "  富士山の高さは？\x1b[31m ", "depth": "quick"})
    assert given.question == "富士山の高さは？ [31m" and given.language == "ja" and given.depth == "quick"
    assert read_caller_input({"question": "How tall is Fuji?"}, default_depth="deep").depth == "deep"


@pytest.mark.e2e
def test_an_edited_thread_state_cannot_send_the_nodes_writes_into_another_session(research_env, monkeypatch):
    """LangGraph Server's ``POST /threads/{id}/state`` writes any key of a thread's state and
    the next run goes on from there. A ``session_id`` naming someone else's session must
    not get the nodes' files (input.md, events, report.md) written into that folder."""
    from langgraph.checkpoint.memory import InMemorySaver

    from research.orchestrator.graph_factory import make_graph

    _use_env(monkeypatch, research_env)
    sessions = Path(research_env["RESEARCH_SESSIONS_DIR"])
    victim = sessions / "session_20250101_000000_abcdef"
    (victim / "sources").mkdir(parents=True)
    (victim / "report.md").write_text("the victim's own report\n", "utf-8")
    before = {p.name: p.read_bytes() for p in victim.iterdir() if p.is_file()}

    async def edit_and_continue() -> None:
        async with make_graph() as graph:
            graph.checkpointer = InMemorySaver()
            config = {"configurable": {"thread_id": "t1"}}
            await graph.aupdate_state(config, {"question": "What is the height of Mount Fuji?", "language": "en",
                                               "depth": "quick", "session_id": "20250101_000000_abcdef",
                                               "session_dir": str(victim), "model": "gpt-oss:20b", "errors": []},
                                        as_node="session")
            await graph.ainvoke(None, config)

    with pytest.raises(ValueError) as refused:
        asyncio.run(edit_and_continue())
    assert "not the one this run opened" in str(refused.value)
    after = {p.name: p.read_bytes() for p in victim.iterdir() if p.is_file()}
    assert after == before


def test_the_run_s_sessions_folder_gives_out_only_the_session_its_step_opened(tmp_path):
    from research.orchestrator.graph_factory import RefusedInput, RunSessionHistory

    history = RunSessionHistory(tmp_path / "sessions")
    with pytest.raises(RefusedInput):
        history.path("20250101_000000_abcdef")  # nothing opened yet: a resumed thread with a planted id
    info = history.create(question="q?", language="en", model="m")
    assert history.path(info.session_id) == info.path
    history.append_event(info.session_id, "step")
    with pytest.raises(RefusedInput):
        history.write_text("20250101_000000_abcdef", "report.md", "x")

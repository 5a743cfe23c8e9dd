"""The parser MCP server in its sandbox: isolation proven, not assumed; real documents parsed
through real stdio MCP; a dead server restarted.

bubblewrap is installed by .ci/run (apt package `bubblewrap`); tests that need a sandbox
this machine cannot create are skipped with the reason, never passed silently.
"""

from __future__ import annotations

import json
import os
import signal
import socket
import sys
from pathlib import Path

import pytest
import pytest_asyncio
from mcp import ClientSession, StdioServerParameters, stdio_client

from research.modules.clients.parser_client import ContainerProcessor, ParserUnavailable
from research.modules.clients.sandbox import (
    SandboxUnavailable,
    bwrap_usable,
    build_sandbox_command,
    choose_sandbox,
    current_net_namespace,
    python_runtime_paths,
    unshare_usable,
)
from research.modules.core.settings import Settings
from research.servers.parser.fork_server import FORK_SERVER_ENV
from research.workflow.dependencies import DocumentFailed

sys.path.insert(0, str(Path(__file__).parent))
from parser_documents import (  # noqa: E402
    EN_FACT,
    EN_FACT_2,
    EN_PLAIN,
    JA_FACT,
    JA_FACT_2,
    JA_PLAIN,
    english_html,
    english_pdf,
    japanese_html,
    japanese_pdf,
)

# One event loop for the module, so one sandboxed server can serve several tests.
in_module_loop = pytest.mark.asyncio(loop_scope="module")
needs_bwrap = pytest.mark.skipif(not bwrap_usable(), reason="bubblewrap cannot create namespaces here")
needs_unshare = pytest.mark.skipif(not unshare_usable(), reason="unshare --user --net is not permitted here")


def settings(**overrides: object) -> Settings:
    return Settings(**{"parse_timeout": 20.0, **overrides})


@pytest.fixture
def cache(tmp_path: Path) -> Path:
    folder = tmp_path / "session" / "sources"
    folder.mkdir(parents=True)
    return folder


@pytest.fixture
def secret(tmp_path: Path) -> Path:
    """A file of the host outside the session cache: the sandbox must not see it."""
    path = tmp_path / "secret.txt"
    path.write_text("host secret")
    return path


# --------------------------------------------------------------------------- isolation


@pytest.fixture(scope="module")
def shared_cache(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("session") / "sources"
    folder.mkdir()
    return folder


@pytest_asyncio.fixture(scope="module", loop_scope="module")
async def sandboxed(shared_cache: Path):
    """One server for the module, in the sandbox `auto` picks here (bubblewrap when usable)."""
    async with ContainerProcessor(settings(sandbox="auto"), shared_cache) as processor:
        yield processor


@needs_bwrap
@in_module_loop
async def test_bwrap_server_has_no_network_and_sees_only_what_it_needs(sandboxed: ContainerProcessor, shared_cache: Path, secret: Path) -> None:
    processor = sandboxed
    assert processor.sandbox_name == "bwrap"
    # start() already verified it; check the witnesses again, with a port of our own.
    report = await processor.verify_isolation(hidden_paths=[str(secret), "/etc/passwd", *_home_entries(shared_cache)])
    assert report.server_namespace and report.server_namespace != current_net_namespace()
    assert report.probe_connected is False, report.probe_error
    assert report.network_isolated and processor.isolation_verified
    assert report.hidden_paths_visible == []  # not the file, not /etc/passwd, nothing else of $HOME
    assert report.cache_writable is False  # the session cache is mounted read-only


def _home_entries(cache: Path) -> list[str]:
    """Entries of $HOME the server has no business seeing (the interpreter or the project
    may live under $HOME: those are bound read-only on purpose, so they are left out)."""
    needed = [*python_runtime_paths(), cache.resolve()]
    home = Path.home()
    if not home.is_dir():
        return []
    entries = [entry for entry in home.iterdir() if not any(entry == path or entry in path.parents for path in needed)]
    return [str(entry) for entry in entries[:20]]


@in_module_loop
async def test_the_probe_does_detect_a_reachable_network(cache: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Control: without a sandbox the same probe connects, so the isolation tests above
    would fail if the sandbox leaked the network."""
    async with ContainerProcessor(settings(sandbox="none"), cache) as processor:
        report = await processor.verify_isolation()
    assert report.server_namespace == current_net_namespace()
    assert report.probe_connected is True
    assert not processor.isolation_verified
    assert "WARNING" in capsys.readouterr().err  # the loud warning for running unsandboxed


def test_a_connection_to_a_listening_port_succeeds_from_the_host() -> None:
    """The probe's premise: a listening socket accepts connects without an accept() call."""
    with socket.socket() as listener:
        listener.bind(("127.0.0.1", 0))
        listener.listen(1)
        socket.create_connection(listener.getsockname(), timeout=2).close()


# --------------------------------------------------------------------------- choosing


@needs_bwrap
def test_auto_prefers_bubblewrap_without_a_container_image() -> None:
    assert choose_sandbox(settings(sandbox="auto", sandbox_image=None)) == "bwrap"


def test_an_engine_without_an_image_is_a_clear_error() -> None:
    with pytest.raises(SandboxUnavailable) as caught:
        choose_sandbox(settings(sandbox="docker", sandbox_image=None))
    assert "RESEARCH_SANDBOX_IMAGE" in caught.value.message("en")


def test_docker_command_has_no_network_and_a_read_only_cache(tmp_path: Path) -> None:
    command = build_sandbox_command(settings(sandbox_image="research-parser:latest"), tmp_path, name="docker")
    joined = " ".join(command.args)
    assert "--network none" in joined and "--read-only" in joined
    assert f"{tmp_path.resolve()}:/cache:ro" in command.args
    assert command.path_inside(tmp_path / "page.html") == "/cache/page.html"


def test_bwrap_command_binds_no_home_and_no_root(tmp_path: Path) -> None:
    command = build_sandbox_command(settings(), tmp_path, name="bwrap")
    # The server is ours, on the host; what it starts inside bubblewrap is its fork server, whose
    # children read every document.
    assert command.args == ["-P", "-m", "research.servers.parser.server"]
    forks = json.loads(command.env[FORK_SERVER_ENV])
    args = forks["argv"]
    assert args[0].endswith("bwrap") and args[-3:] == ["-P", "-m", "research.servers.parser.fork_server"]
    assert forks["env"] == {}  # bwrap sets each variable itself, after --clearenv
    assert "--unshare-all" in args and "--die-with-parent" in args and "--clearenv" in args
    binds = {args[i + 1] for i, arg in enumerate(args) if arg in ("--bind", "--ro-bind", "--ro-bind-try")}
    assert "/" not in binds and str(Path.home()) not in binds
    assert "--bind" not in args  # nothing of the host is writable
    assert str(tmp_path.resolve()) in binds


# --------------------------------------------------------------------------- parsing


@in_module_loop
async def test_mcp_server_lists_both_tools_with_a_structured_output_schema(cache: Path) -> None:
    command = build_sandbox_command(settings(), cache, name="none")
    params = StdioServerParameters(command=command.command, args=command.args, env=command.env)
    async with stdio_client(params) as (read, write), ClientSession(read, write) as session:
        await session.initialize()
        tools = {tool.name: tool for tool in (await session.list_tools()).tools}
        result = await session.call_tool("parse-document", {"text": f"# Fuji\n\n{EN_FACT} {EN_PLAIN}"})
    assert set(tools) == {"parse-document", "sandbox-info"}
    assert {"markdown", "key_facts", "tables", "stats"} <= set(tools["parse-document"].output_schema["properties"])
    assert not result.is_error
    assert result.structured_content["key_facts"] == [EN_FACT]
    assert EN_FACT in result.content[0].text  # the readable text is the Markdown


@in_module_loop
async def test_english_and_japanese_html_and_pdf(sandboxed: ContainerProcessor, shared_cache: Path) -> None:
    cache = shared_cache
    documents = {
        "en.html": (english_html(), "text/html"),
        "ja.html": (japanese_html(), "text/html; charset=utf-8"),
        "en.pdf": (english_pdf(), "application/pdf"),
        "ja.pdf": (japanese_pdf(), "application/pdf"),
    }
    parsed = {}
    for name, (data, media_type) in documents.items():
        (cache / name).write_bytes(data)
        parsed[name] = await sandboxed.parse(path=str(cache / name), text=None, media_type=media_type, url=f"https://example.org/{name}")

    en_html = parsed["en.html"]
    assert en_html.title == "Mount Fuji facts" and en_html.language == "en"
    assert en_html.markdown.startswith("# Mount Fuji")
    assert "newsletter" not in en_html.markdown and "All rights reserved" not in en_html.markdown
    assert en_html.key_facts == [EN_FACT, EN_FACT_2]
    assert en_html.tables == [[["Peak", "Height"], ["Fuji", "3,776 m"], ["Kita", "3,193 m"]]]

    ja_html = parsed["ja.html"]
    assert ja_html.title == "富士山の噴火" and ja_html.language == "ja"
    assert ja_html.markdown.startswith("# 富士山")
    assert ja_html.key_facts == [JA_FACT, JA_FACT_2]
    assert JA_PLAIN in ja_html.snippets

    for name, facts in (("en.pdf", [EN_FACT, EN_FACT_2]), ("ja.pdf", [JA_FACT, JA_FACT_2])):
        assert parsed[name].key_facts == facts, name
        assert parsed[name].stats["media_type"] == "application/pdf"
    assert parsed["ja.pdf"].title == "富士山の報告" and parsed["ja.pdf"].language == "ja"
    assert parsed["en.pdf"].markdown.split("\n\n") == [EN_FACT, EN_PLAIN, EN_FACT_2]


@in_module_loop
async def test_text_and_files_outside_the_cache_are_sent_inline(sandboxed: ContainerProcessor, tmp_path: Path) -> None:
    parsed = await sandboxed.parse(path=None, text=f"{JA_FACT}{JA_PLAIN}", media_type="text/plain", url="u")
    assert parsed.key_facts == [JA_FACT] and parsed.language == "ja"
    outside = tmp_path / "elsewhere.html"
    outside.write_bytes(english_html())
    parsed = await sandboxed.parse(path=str(outside), text=None, media_type="text/html", url="u")
    assert parsed.key_facts == [EN_FACT, EN_FACT_2]


@in_module_loop
async def test_nothing_to_parse_is_a_failed_document(sandboxed: ContainerProcessor) -> None:
    with pytest.raises(DocumentFailed, match="nothing to parse"):
        await sandboxed.parse(path=None, text=None, media_type="text/html", url="u")


@needs_unshare
@in_module_loop
async def test_unshare_isolates_the_network_and_a_killed_server_costs_nothing(cache: Path) -> None:
    (cache / "en.html").write_bytes(english_html())
    async with ContainerProcessor(settings(sandbox="unshare"), cache) as processor:
        report = await processor.verify_isolation()
        assert report.server_namespace != current_net_namespace()
        assert report.probe_connected is False and processor.isolation_verified
        # unshare keeps the host's PID namespace, so the test can kill the server by its pid.
        pid = await processor.server_pid()
        os.kill(pid, signal.SIGKILL)  # dies while idle
        # The next document is not lost: the server is restarted and the call made again.
        parsed = await processor.parse(path=str(cache / "en.html"), text=None, media_type="text/html", url="u")
        assert parsed.key_facts == [EN_FACT, EN_FACT_2]
        assert processor.restarts == 1
        assert await processor.server_pid() != pid


@in_module_loop
async def test_a_server_that_cannot_start_is_one_clear_error(cache: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # 20 MB of address space is not enough to map pydantic_core, which the MCP SDK imports: the server dies at start.
    monkeypatch.setenv("RESEARCH_PARSER_SERVER_MEMORY_MB", "20")
    with pytest.raises(ParserUnavailable) as failure:
        async with ContainerProcessor(settings(sandbox="auto"), cache):
            pass
    assert failure.value.exit_code == 1
    message = failure.value.message("en")
    assert message.startswith("The document parser could not start:")
    # The server's own last words (from its stderr) say why: the memory cap at import time.
    assert "MemoryError" in message or "failed to map segment" in message

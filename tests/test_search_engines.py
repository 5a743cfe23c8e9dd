"""Search engines and the fallback chain (servers/web/engines/, modules/text/index.py)."""

from __future__ import annotations

import socket
from pathlib import Path

import httpx
import pytest

from fixtures.web_fixture import FUJI_SJIS, WebFixture, build_pdf, LANGGRAPH_PDF_EN
from research.modules.clients.parser_client import ContainerProcessor
from research.modules.core.settings import Settings
from research.modules.text.index import TextIndex, index_terms
from research.servers.web.engines import ENGINES, EngineChain, EngineContext, EngineUnavailable, build_engines
from research.servers.web.engines.local import LocalEngine, files_inside
from research.servers.web.engines.searxng import SearxngEngine
from research.servers.web.url_safety import URLGuard

ALLOW = URLGuard(allow_private_network=True)


async def _never_read(path: Path, media_type: str) -> tuple[str, str]:
    raise AssertionError(f"{path} must not be read here")


def context(client: httpx.AsyncClient) -> EngineContext:
    return EngineContext(client, ALLOW, _never_read)


def write_docs(folder: Path) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "fuji.md").write_text("# 富士山\n\n富士山の標高は3,776メートルです。最後の噴火は1707年の宝永噴火です。", "utf-8")
    (folder / "checkpoints.txt").write_text("LangGraph checkpoints\n\nA checkpoint is saved after every super-step.", "utf-8")
    (folder / "tea.html").write_text("<html><head><title>Green tea</title></head><body><p>Matcha is powdered green tea.</p></body></html>", "utf-8")
    (folder / "report.pdf").write_bytes(build_pdf(LANGGRAPH_PDF_EN))
    (folder / "broken.pdf").write_bytes(b"%PDF-1.4 garbage")
    (folder / "ignored.bin").write_bytes(b"\x00\x01")
    return folder


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def test_index_terms_mix_words_and_bigrams() -> None:
    assert index_terms("The LangGraphのチェックポイント") == ["langgraph", "のチ", "チェ", "ェッ", "ック", "クポ", "ポイ", "イン", "ント"]
    index = TextIndex()
    index.add("a", "富士山の噴火")
    index.add("b", "LangGraph checkpoints")
    assert [key for key, _ in index.search("富士山", 5)] == ["a"]
    assert [key for key, _ in index.search("checkpoints", 5)] == ["b"]
    assert index.search("", 5) == []


async def test_local_engine_ranks_japanese_and_english_documents(tmp_path: Path) -> None:
    """--docs files are read by the sandboxed parser (the same one the server would start)."""
    async with ContainerProcessor(Settings(sandbox="auto"), tmp_path / "sources") as parser:
        async def read(path: Path, media_type: str) -> tuple[str, str]:
            parsed = await parser.parse(path=str(path), text=None, media_type=media_type, url=path.as_uri())
            return parsed.title, parsed.markdown

        engine = LocalEngine(write_docs(tmp_path / "docs"), read)
        await engine.ensure_indexed()
        await _check_local_engine(engine)


async def _check_local_engine(engine: LocalEngine) -> None:
    assert len(engine) == 4 and any("broken.pdf" in s for s in engine.skipped)
    ja = await engine.search("富士山の噴火", language="ja", limit=3)
    assert ja[0].url.endswith("fuji.md") and ja[0].title == "富士山" and "宝永噴火" in ja[0].snippet
    en = await engine.search("LangGraph checkpoint super-step", language="en", limit=3)
    assert {Path(h.url).name for h in en} == {"checkpoints.txt", "report.pdf"}
    assert await engine.search("volcano in Antarctica", language="en", limit=3) == []


async def test_searxng_engine_reads_the_json_api() -> None:
    with WebFixture() as web:
        async with httpx.AsyncClient() as client:
            engine = SearxngEngine(web.base_url, client, ALLOW)
            hits = await engine.search("富士登山の案内", language="ja", limit=3)
            assert hits[0].url == web.url(FUJI_SJIS.path) and hits[0].engine == "searxng"
            web.set_search_status(429)
            with pytest.raises(EngineUnavailable, match="rate-limited"):
                await engine.search("富士山", language="ja", limit=3)


async def test_chain_falls_back_when_searxng_is_down(tmp_path: Path) -> None:
    async def read_markdown(path: Path, media_type: str) -> tuple[str, str]:
        assert media_type in ("text/markdown", "text/plain"), "only plain text is read outside a parser here"
        return "", path.read_text("utf-8")

    docs = write_docs(tmp_path / "docs")
    for extra in ("tea.html", "report.pdf", "broken.pdf"):
        (docs / extra).unlink()
    settings = Settings(search_engine="searxng", searxng_url=f"http://127.0.0.1:{free_port()}", docs_dir=docs)
    async with httpx.AsyncClient() as client:
        chain = build_engines(settings, EngineContext(client, ALLOW, read_markdown))
        assert [e.name for e in chain.engines] == ["searxng", "local", "duckduckgo"] == list(ENGINES)
        found = await chain.search("富士山の標高", language="ja", limit=3)
    assert found.engine == "local" and found.results
    assert any("searxng unavailable" in note and "unreachable" in note for note in found.notes)


async def test_local_engine_never_falls_back_to_the_web(tmp_path: Path) -> None:
    async with httpx.AsyncClient() as client:
        chain = build_engines(Settings(search_engine="local", docs_dir=tmp_path / "missing"), context(client))
    assert chain.engines == []
    found = await EngineChain(chain.engines, chain.setup_notes).search("x", language="en", limit=3)
    assert found.engine == "" and "does not exist" in found.notes[0]


def test_docs_files_that_leave_the_folder_are_skipped_before_reading(tmp_path: Path) -> None:
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "secret.txt").write_text("host secret", "utf-8")
    docs = tmp_path / "docs"
    (docs / "sub").mkdir(parents=True)
    (docs / "ok.md").write_text("# ok", "utf-8")
    (docs / "passwd.txt").symlink_to("/etc/passwd")
    (docs / "secret.md").symlink_to(outside / "secret.txt")
    (docs / "sub" / "escape").symlink_to(outside, target_is_directory=True)
    paths, skipped = files_inside(docs.resolve())
    assert paths == [(docs / "ok.md").resolve()]
    assert {line.split(":")[0] for line in skipped} == {"passwd.txt", "secret.md"}

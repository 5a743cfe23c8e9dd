"""Search engines and the fallback chain (servers/web/engines/, modules/text/index.py)."""

from __future__ import annotations

import socket
from pathlib import Path

import httpx
import pytest

from fixtures.web_fixture import FUJI_SJIS, WebFixture, build_pdf, LANGGRAPH_PDF_EN
from research.servers.web.engines import EngineChain, EngineUnavailable, LocalEngine, SearxngEngine, build_engines
from research.modules.core.settings import Settings
from research.modules.text.index import TextIndex, index_terms
from research.servers.web.url_safety import URLGuard

ALLOW = URLGuard(allow_private_network=True)


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
    engine = LocalEngine(write_docs(tmp_path / "docs"))
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
    settings = Settings(search_engine="searxng", searxng_url=f"http://127.0.0.1:{free_port()}",
                        docs_dir=write_docs(tmp_path / "docs"))
    async with httpx.AsyncClient() as client:
        chain = build_engines(settings, client, ALLOW)
        assert [e.name for e in chain.engines] == ["searxng", "local", "duckduckgo"]
        found = await chain.search("富士山の標高", language="ja", limit=3)
    assert found.engine == "local" and found.results
    assert any("searxng unavailable" in note and "unreachable" in note for note in found.notes)


async def test_local_engine_never_falls_back_to_the_web(tmp_path: Path) -> None:
    async with httpx.AsyncClient() as client:
        chain = build_engines(Settings(search_engine="local", docs_dir=tmp_path / "missing"), client, ALLOW)
    assert chain.engines == []
    found = await EngineChain(chain.engines, chain.setup_notes).search("x", language="en", limit=3)
    assert found.engine == "" and "does not exist" in found.notes[0]

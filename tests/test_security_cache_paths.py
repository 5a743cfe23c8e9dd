"""A source's cached bytes are found from its URL's hash under the sessions folder, or not
at all (issue 30): a path in a hit, a checkpoint or a server's answer is used only when it
is exactly that URL's cache entry."""

from __future__ import annotations

import hashlib
from pathlib import Path
from typing import Any

import pytest

from fixtures.typed_state import run_step
from fixtures.fake_model import FakeModel
from research.modules.core.errors import DocumentFailed
from research.modules.core.settings import Settings
from research.modules.core.urls import canonical_url
from research.workflow.dependencies import WorkflowDependencies
from research.nodes.processing import process_documents
from research.orchestrator.answer_check import _fetch_and_parse
from research.orchestrator.checkpoints import is_cached_source
from research.servers.web.fetcher import SourceCache
from research.state.models import ParsedDocument
from research.state.session_folder import HistoryManager, cache_entry, cache_file, source_key

URL = "https://example.org/fuji?utm_source=x"


class RecordingParser:
    def __init__(self) -> None:
        self.paths: list[str | None] = []

    async def parse(self, *, path: str | None, text: str | None, media_type: str, url: str) -> ParsedDocument:
        self.paths.append(path)
        return ParsedDocument(title="Fuji", markdown=Path(path).read_text() if path else (text or ""), language="en")


def _session(root: Path, name: str = "session_20250101_000000_abcdef") -> Path:
    (root / name / "sources").mkdir(parents=True)
    return root / name


def test_the_key_is_the_fetchers_and_unchanged() -> None:
    expected = hashlib.sha256(canonical_url(URL).encode("utf-8")).hexdigest()[:32]
    assert source_key(URL) == SourceCache.key(URL) == expected


def test_the_fetcher_names_entries_the_checks_accept(tmp_path: Path) -> None:
    folder = _session(tmp_path)
    stored = SourceCache(folder / "sources").store(URL, URL, "text/html; charset=utf-8", b"<p>Fuji</p>")
    assert stored.cache_path == str(folder / "sources" / f"{source_key(URL)}.html")
    assert cache_entry(stored.cache_path, tmp_path, url=URL) is not None
    assert is_cached_source(stored.cache_path, tmp_path, url=URL)
    assert cache_file(stored.cache_path, folder / "sources", URL) is not None


async def _process(tmp_path: Path, hit: dict[str, Any]) -> tuple[dict[str, Any], RecordingParser]:
    history = HistoryManager(tmp_path)
    session = history.create(question="q", language="en", model="m")
    parser = RecordingParser()
    deps = WorkflowDependencies(settings=Settings(), model=FakeModel(strict=True), web_search=None, parser=parser, history=history)
    state = {"session_id": session.session_id, "documents": [], "search_results": [
        {"url": URL, "canonical_url": canonical_url(URL), "media_type": "text/plain", **hit}]}
    [document] = (await run_step(process_documents, state, deps))["documents"]
    return document, parser


def _targets(tmp_path: Path) -> list[Path]:
    other = _session(tmp_path, "session_20240101_000000_aaaaaa")
    (other / "report.md").write_text("SECRET report")
    wrong_key = other / "sources" / f"{source_key('https://other.example/')}.txt"
    wrong_key.write_text("SECRET other page")
    odd_name = other / "sources" / f"{source_key(URL)}.json"  # the sidecar, not the bytes
    odd_name.write_text("SECRET sidecar")
    outside = tmp_path.parent / "secret.txt"
    outside.write_text("SECRET outside")
    link = other / "sources" / f"{source_key(URL)}.txt"
    link.symlink_to(outside)
    return [other / "report.md", wrong_key, odd_name, outside, link,
            other / "sources" / ".." / "report.md", tmp_path / "meta.json"]


@pytest.mark.parametrize("index", range(7))
async def test_a_hit_naming_another_file_is_not_parsed(tmp_path: Path, index: int) -> None:
    root = tmp_path / "sessions"
    root.mkdir()
    target = _targets(root)[index]
    document, parser = await _process(root, {"cache_path": str(target), "content": "SECRET content"})
    assert parser.paths == []
    assert document["status"] == "failed" and document["error"] == "not fetched"
    assert "SECRET" not in str(document)


async def test_the_urls_own_entry_is_parsed_in_any_session(tmp_path: Path) -> None:
    """A follow-up's hits keep their parent session's paths: the URL's entry there is read."""
    parent = _session(tmp_path, "session_20240101_000000_aaaaaa")
    entry = parent / "sources" / f"{source_key(URL)}.txt"
    entry.write_text("Mount Fuji is 3,776 m high.")
    document, parser = await _process(tmp_path, {"cache_path": str(entry)})
    assert parser.paths == [str(entry.resolve())]
    assert document["status"] == "ok" and "3,776" in document["markdown"]


class FakeWeb:
    def __init__(self, cache_dir: Path, cache_path: str) -> None:
        self.cache_dir = cache_dir
        self.page = {"cache_path": cache_path, "media_type": "text/plain"}

    async def call(self, tool: str, arguments: dict[str, Any]) -> Any:
        return type("Result", (), {"structured_content": self.page, "is_error": False, "content": []})()


async def test_a_servers_answer_naming_another_file_is_not_parsed(tmp_path: Path) -> None:
    sources = tmp_path / "sources"
    sources.mkdir()
    secret = tmp_path / "secret.txt"
    secret.write_text("SECRET")
    parser = RecordingParser()
    with pytest.raises(DocumentFailed):
        await _fetch_and_parse(URL, FakeWeb(sources, str(secret)), parser)
    with pytest.raises(DocumentFailed):
        await _fetch_and_parse(URL, FakeWeb(sources, str(sources / f"{source_key('https://b.example/')}.txt")), parser)
    assert parser.paths == []
    entry = sources / f"{source_key(URL)}.txt"
    entry.write_text("Fuji")
    await _fetch_and_parse(URL, FakeWeb(sources, str(entry)), parser)
    assert parser.paths == [str(entry.resolve())]

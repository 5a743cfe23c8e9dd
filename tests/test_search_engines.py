"""Search engines and the fallback chain (servers/web/engines/, modules/text/index.py)."""

from __future__ import annotations

import socket
from pathlib import Path

import httpx
import pytest

from fixtures.web_fixture import FUJI_SJIS, WIKIPEDIA, WebFixture, build_pdf, LANGGRAPH_PDF_EN
from research.modules.clients.parser_client import ContainerProcessor
from research.modules.core.errors import UsageError
from research.modules.core.settings import SEARCH_ENGINES, Settings, load_settings
from research.modules.text.index import TextIndex, index_terms
from research.orchestrator.server_pool import _SERVER_SETTINGS
from research.servers.web.engines import (
    ENGINES,
    EngineChain,
    EngineContext,
    EngineUnavailable,
    build_engines,
    configured_endpoints,
)
from research.servers.web.engines.local import LocalEngine, files_inside
from research.servers.web.engines.searxng import SearxngEngine
from research.servers.web.engines.wikipedia import WikipediaEngine
from research.servers.web.url_safety import UnsafeURL, URLGuard

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
    settings = Settings(search_engine="searxng", searxng_url=f"http://127.0.0.1:{free_port()}", docs_dir=docs,
                        search_fallback=True)
    async with httpx.AsyncClient() as client:
        chain = build_engines(settings, EngineContext(client, ALLOW, read_markdown))
        # Wikipedia is asked only when chosen: the fallbacks are the others, in the registry's order.
        assert [e.name for e in chain.engines] == ["searxng", "local", "duckduckgo"]
        assert list(ENGINES) == ["searxng", "local", "wikipedia", "duckduckgo"]
        found = await chain.search("富士山の標高", language="ja", limit=3)
    assert found.engine == "local" and found.results
    assert any("searxng unavailable" in note and "unreachable" in note for note in found.notes)
    assert found.notes[-1] == "results from local instead (RESEARCH_SEARCH_FALLBACK is on)"


class _Engine:
    """An engine that answers with ``hits`` (or fails), and counts the questions it was asked."""

    def __init__(self, name: str, hits: list[str] | None) -> None:
        self.name, self.hits, self.asked = name, hits, 0

    async def search(self, query: str, *, language: str, limit: int):
        from research.servers.web.engines import EngineResult

        self.asked += 1
        if self.hits is None:
            raise EngineUnavailable(f"{self.name} answered HTTP 503")
        return [EngineResult(url=u, title="", snippet="", engine=self.name) for u in self.hits]


async def test_an_engine_that_found_nothing_is_an_answer_and_no_other_engine_is_asked() -> None:
    # Before, a SearXNG that found nothing sent the question on to DuckDuckGo.
    own, public = _Engine("searxng", []), _Engine("duckduckgo", ["https://example.org/"])
    found = await EngineChain([own, public]).search("private question", language="en", limit=3)
    assert found.engine == "searxng" and found.results == [] and found.notes == []
    assert public.asked == 0


async def test_without_fallback_a_failed_engine_is_the_end_and_says_so() -> None:
    own, public = _Engine("searxng", None), _Engine("duckduckgo", ["https://example.org/"])
    found = await EngineChain([own], fallback=False).search("q", language="en", limit=3)
    assert found.engine == "" and public.asked == 0
    assert found.notes == ["searxng unavailable: searxng answered HTTP 503",
                           "no other engine was asked (RESEARCH_SEARCH_FALLBACK is off)"]


@pytest.mark.parametrize(("engine", "url", "setting", "allowed"), [
    ("searxng", "http://127.0.0.1:8888", None, False),
    ("searxng", "http://searx.lan", None, False),
    ("searxng", "http://searxng:8080", None, False),  # a container's name
    ("searxng", "http://[::1]:8080", None, False),
    ("searxng", "http://10.0.0.5", None, False),
    ("searxng", "https://searx.example.org", None, True),
    ("searxng", "http://127.0.0.1:8888", True, True),
    ("searxng", "https://searx.example.org", False, False),
    ("duckduckgo", None, None, True),
    ("duckduckgo", None, False, False),
    ("local", None, True, False),  # the user's own documents never send a question to the web
])
def test_fallback_is_off_for_a_private_searxng_unless_the_user_allows_it(engine, url, setting, allowed) -> None:
    from research.modules.core.settings import search_fallback_allowed

    settings = Settings(search_engine=engine, searxng_url=url, search_fallback=setting)
    assert search_fallback_allowed(settings) is allowed


async def test_a_private_searxng_that_is_down_asks_no_other_engine(tmp_path: Path) -> None:
    settings = Settings(search_engine="searxng", searxng_url=f"http://127.0.0.1:{free_port()}")
    async with httpx.AsyncClient() as client:
        chain = build_engines(settings, context(client))
        assert [e.name for e in chain.engines] == ["searxng"]
        found = await chain.search("富士山", language="ja", limit=3)
    assert found.engine == "" and found.notes[-1] == "no other engine was asked (RESEARCH_SEARCH_FALLBACK is off)"


def test_engine_notes_are_said_in_japanese() -> None:
    from research.modules.clients.web_search_client import localise_note

    notes = ("searxng unavailable: searxng at http://127.0.0.1:9 is unreachable (ConnectError); "
             "no other engine was asked (RESEARCH_SEARCH_FALLBACK is off)")
    said = localise_note(notes, "ja")
    assert said == ("searxng を使えません: searxng（http://127.0.0.1:9）に接続できません（ConnectError）; "
                    "ほかの検索エンジンには問い合わせていません（RESEARCH_SEARCH_FALLBACK がオフ）")
    assert localise_note(notes, "en") == notes
    assert localise_note("an external server's own words", "ja") == "an external server's own words"


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


# --------------------------------------------------------------------------- one registration per engine

ENGINES_DIR = Path(__file__).resolve().parent.parent / "src" / "servers" / "web" / "engines"


def test_every_engine_module_is_registered_once_by_name() -> None:
    """The one list (settings.SEARCH_ENGINES) names every module of the engines folder, and
    each module says how to build its engine; every setting an engine reads exists."""
    modules = {p.stem for p in ENGINES_DIR.glob("*.py")} - {"__init__", "base"}
    assert modules == set(SEARCH_ENGINES) == set(ENGINES)
    for name, reads in SEARCH_ENGINES.items():
        assert callable(ENGINES[name].build)
        assert set(reads) <= set(Settings.model_fields), name
        for setting in reads:  # a server started with another value of an engine's setting is replaced
            assert setting in _SERVER_SETTINGS, setting


def test_a_bad_engine_name_lists_every_registered_engine() -> None:
    with pytest.raises(UsageError) as caught:
        load_settings(flag_names={"search_engine": "--engine"}, search_engine="wikipeda")
    message = caught.value.message("en")
    assert message.startswith("Invalid setting --engine") and all(f"'{name}'" in message for name in SEARCH_ENGINES)


@pytest.mark.parametrize("value", ["ftp://{lang}.example.org/w/api.php", "https://{lng}.wikipedia.org/w/api.php",
                                   "{lang}.wikipedia.org"])
def test_a_bad_wikipedia_url_is_refused_naming_the_setting(value: str) -> None:
    with pytest.raises(UsageError) as caught:
        load_settings(wikipedia_url=value)
    assert "RESEARCH_WIKIPEDIA_URL" in caught.value.message("en") and "RESEARCH_WIKIPEDIA_URL" in caught.value.message("ja")


# --------------------------------------------------------------------------- wikipedia


@pytest.mark.parametrize(("query", "language", "title"), [
    ("When did Mount Fuji last erupt?", "en", "Hōei eruption"),
    ("富士山の最後の噴火はいつ？", "ja", "宝永大噴火"),
])
async def test_wikipedia_searches_the_edition_of_the_query_language(query: str, language: str, title: str) -> None:
    """MediaWiki's API of the query's edition, through the URL guard that refuses the private
    network: the configured API is allowed (exactly), so the search reaches the fixture."""
    with WebFixture() as web:
        settings = Settings(search_engine="wikipedia", wikipedia_url=web.wikipedia_url)
        guard = URLGuard(allow_private_network=False, always_allowed=configured_endpoints(settings))
        async with httpx.AsyncClient() as client:
            chain = build_engines(settings, EngineContext(client, guard, _never_read))
            assert [e.name for e in chain.engines] == ["wikipedia", "duckduckgo"]
            found = await chain.search(query, language=language, limit=3)
        assert found.engine == "wikipedia" and found.notes == []
        hit = found.results[0]
        assert hit.title == title and hit.engine == "wikipedia"
        assert f"/wikipedia/{language}/wiki/" in hit.url and hit.url.isascii()  # the page's address, percent-encoded
        assert WIKIPEDIA[language][0].paragraphs[0] in hit.snippet  # the introduction, as plain text
        request = web.requests_for(f"/wikipedia/{language}/w/api.php")[0]
        assert "generator=search" in request.path and "prop=extracts" in request.path
        # A page of the article is not the API: the guard still refuses it on a private address.
        with pytest.raises(UnsafeURL):
            await guard.check(hit.url)


async def test_wikipedia_without_a_match_or_with_an_api_error() -> None:
    with WebFixture() as web:
        async with httpx.AsyncClient() as client:
            engine = WikipediaEngine(web.wikipedia_url, client, ALLOW)
            assert await engine.search("quantum chromodynamics lattice", language="en", limit=5) == []
            # Any other language asks the English edition.
            assert (await engine.search("Aokigahara forest", language="fr", limit=5))[0].title == "Aokigahara"
            # MediaWiki answers an error with HTTP 200 and {"error": {"code", "info"}}.
            with pytest.raises(EngineUnavailable, match="wikipedia refused the search: missingparam"):
                await engine.search("", language="ja", limit=3)
            missing = WikipediaEngine(web.base_url + "/nowhere/{lang}/api.php", client, ALLOW)
            with pytest.raises(EngineUnavailable, match="HTTP 404"):
                await missing.search("富士山", language="ja", limit=3)


def test_an_empty_wikipedia_url_turns_the_engine_off() -> None:
    settings = Settings(search_engine="wikipedia", wikipedia_url="")
    assert configured_endpoints(settings) == []
    chain = build_engines(settings, context(None))  # type: ignore[arg-type]
    assert [e.name for e in chain.engines] == ["duckduckgo"] and "RESEARCH_WIKIPEDIA_URL" in chain.setup_notes[0]


def _answering(status: int, body: bytes = b"{}") -> httpx.AsyncClient:
    # stream=: a body still to be read, as from the network (get_json reads it with a bound)
    return httpx.AsyncClient(transport=httpx.MockTransport(
        lambda request: httpx.Response(status, stream=httpx.ByteStream(body))))


def _unreachable(request: httpx.Request) -> httpx.Response:
    raise httpx.ConnectError("connection refused", request=request)


@pytest.mark.parametrize(("client", "searxng", "wikipedia"), [
    (lambda: _answering(429), "searxng rate-limited the search (HTTP 429)",
     "wikipedia rate-limited the search (HTTP 429)"),
    (lambda: _answering(403), "searxng refused the JSON format (enable `json` under search.formats)",
     "wikipedia answered HTTP 403"),
    (lambda: _answering(502), "searxng answered HTTP 502", "wikipedia answered HTTP 502"),
    (lambda: _answering(200, b"<html>"), "searxng answered with something that is not JSON",
     "wikipedia answered with something that is not JSON"),
    (lambda: httpx.AsyncClient(transport=httpx.MockTransport(_unreachable)),
     "searxng at http://search.test is unreachable (ConnectError)",
     "wikipedia at http://en.wiki.test/api.php is unreachable (ConnectError)"),
])
async def test_the_http_engines_name_each_failure_of_their_api(client, searxng: str, wikipedia: str) -> None:
    """SearXNG and Wikipedia share one GET-and-decode (engines/base.get_json): each failure is
    one EngineUnavailable line naming the engine, as the search notes show it."""
    async with client() as http:
        with pytest.raises(EngineUnavailable) as failed:
            await SearxngEngine("http://search.test/", http, ALLOW).search("富士山", language="ja", limit=3)
        assert str(failed.value) == searxng
        with pytest.raises(EngineUnavailable) as failed:
            await WikipediaEngine("http://{lang}.wiki.test/api.php", http, ALLOW).search("Fuji", language="en", limit=3)
        assert str(failed.value) == wikipedia


async def test_an_engine_url_the_guard_refuses_is_named() -> None:
    guard = URLGuard(allow_private_network=False)
    async with _answering(200) as http:
        with pytest.raises(EngineUnavailable, match="^searxng URL refused: "):
            await SearxngEngine("http://127.0.0.1:9", http, guard).search("富士山", language="ja", limit=3)
        with pytest.raises(EngineUnavailable, match="^wikipedia URL refused: "):
            await WikipediaEngine("http://127.0.0.1:9/{lang}/api.php", http, guard).search("Fuji", language="en", limit=3)


@pytest.mark.parametrize("question, searching", [
    ("How high is Mount Fuji?", "→ Searching your documents…"),
    ("富士山の高さは？", "→ 資料を検索中…"),
])
def test_documents_without_an_engine_are_what_is_searched(research_env, tmp_path, question, searching):
    """Issue 48: `--docs DIR` alone asked DuckDuckGo first ("duckduckgo unavailable", then
    "local used instead") and the progress said "Searching the web" while it read local files."""
    import json

    from conftest import load_json_line, research_in_process

    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "fuji.md").write_text("# Mount Fuji / 富士山\n\nMount Fuji is 3,776 m high. 富士山の高さは3776メートルです。\n",
                                  "utf-8")
    env = {k: v for k, v in research_env.items() if k not in ("RESEARCH_SEARCH_ENGINE", "RESEARCH_SEARXNG_URL")}
    result = research_in_process([question, "--docs", str(docs), "--json"], env)
    assert result.returncode == 0, result.stderr
    assert searching in result.stderr
    assert "Searching the web" not in result.stderr and "ウェブを検索中" not in result.stderr
    assert "duckduckgo" not in result.stderr.lower()
    session = Path(load_json_line(result.stdout)["session_dir"])
    hits = json.loads((session / "search_results.json").read_text("utf-8"))
    assert {hit["url"] for hit in hits} == {(docs / "fuji.md").as_uri()}
    report = (session / "report.md").read_text("utf-8")
    assert "duckduckgo" not in report.lower()

"""PageFetcher against the local web fixture: timeouts, caps, redirects, cache, SSRF."""

from __future__ import annotations

import asyncio
import json
import time
from pathlib import Path

import pytest

from fixtures.web_fixture import FUJI_EN, HUGE_PATH, JUNK_PATH, LANGGRAPH_EN, LOOP_PATHS, REDIRECT_PATH, WebFixture
from research.servers.web.fetcher import FetchSettings, PageFetcher, SourceCache, make_http_client
from research.servers.web.url_safety import URLGuard


@pytest.fixture(scope="module")
def web():
    with WebFixture(slow_delay=3.0) as fixture:
        yield fixture


def make_fetcher(cache_dir: Path, *, allow_private: bool = True, local_root: Path | None = None, **limits) -> PageFetcher:
    settings = FetchSettings(**{"timeout": 1.0, **limits})
    return PageFetcher(make_http_client(settings), SourceCache(cache_dir), URLGuard(allow_private_network=allow_private),
                       settings, local_root=local_root)


async def test_page_is_cached_atomically_with_sidecar(web: WebFixture, tmp_path: Path) -> None:
    fetcher = make_fetcher(tmp_path)
    url = web.url(LANGGRAPH_EN.path) + "?utm_source=newsletter"
    first = await fetcher.fetch(url)
    assert first.error is None and not first.from_cache
    assert first.cache_path and Path(first.cache_path).read_bytes() == first.data
    sidecar = json.loads(next(tmp_path.glob("*.json")).read_text("utf-8"))
    assert LANGGRAPH_EN.path in sidecar["final_url"] and sidecar["media_type"].startswith("text/html")
    assert not list(tmp_path.glob(".tmp-*"))
    requests_before = len(web.requests_for(LANGGRAPH_EN.path))
    # Same page under another spelling of its URL, and from a fresh fetcher (a resumed run).
    again = await make_fetcher(tmp_path).fetch(web.url(LANGGRAPH_EN.path))
    assert again.from_cache and again.data == first.data
    assert len(web.requests_for(LANGGRAPH_EN.path)) == requests_before
    await fetcher.client.aclose()


async def test_slow_page_times_out_without_delaying_the_others(web: WebFixture, tmp_path: Path) -> None:
    fetcher = make_fetcher(tmp_path, timeout=1.0)
    started = time.monotonic()
    done_at: dict[str, float] = {}

    async def fetch(path: str):
        result = await fetcher.fetch(web.url(path))
        done_at[path] = time.monotonic() - started
        return result

    slow, fast = await asyncio.gather(fetch("/slow/tortoise.html"), fetch(FUJI_EN.path))
    assert slow.error and "timed out" in slow.error
    assert fast.error is None
    assert done_at[FUJI_EN.path] < 0.9  # finished while the slow page was still waiting
    assert done_at["/slow/tortoise.html"] < 2.5


async def test_size_cap_redirects_and_errors(web: WebFixture, tmp_path: Path) -> None:
    fetcher = make_fetcher(tmp_path, max_bytes=1024 * 1024, timeout=5.0)
    huge = await fetcher.fetch(web.url(HUGE_PATH))
    assert huge.error and "larger than" in huge.error and huge.cache_path is None
    loop = await fetcher.fetch(web.url(LOOP_PATHS[0]))
    assert loop.error and "redirect loop" in loop.error
    moved = await fetcher.fetch(web.url(REDIRECT_PATH))
    assert moved.error is None and moved.final_url.endswith(FUJI_EN.path)
    missing = await fetcher.fetch(web.url("/missing.html"))
    assert missing.error == "HTTP 404"
    junk = await fetcher.fetch(web.url(JUNK_PATH))  # fetching works; extraction refuses it later
    assert junk.error is None and junk.data


async def test_streamed_body_is_cut_at_the_cap_even_without_content_length(tmp_path: Path) -> None:
    from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
    import threading

    class Endless(BaseHTTPRequestHandler):
        def do_GET(self) -> None:  # noqa: N802
            self.send_response(200)
            self.send_header("Content-Type", "text/html")
            self.end_headers()  # no Content-Length: the body ends when the connection does
            try:
                for _ in range(10_000):
                    self.wfile.write(b"x" * 4096)
            except OSError:
                pass

        def log_message(self, *args) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Endless)
    server.daemon_threads = True
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        fetcher = make_fetcher(tmp_path, max_bytes=64 * 1024, timeout=5.0)
        result = await fetcher.fetch(f"http://127.0.0.1:{server.server_address[1]}/")
        assert result.error and "larger than" in result.error
    finally:
        server.shutdown()
        server.server_close()


async def test_ssrf_guard_refuses_loopback_by_default(web: WebFixture, tmp_path: Path) -> None:
    fetcher = make_fetcher(tmp_path, allow_private=False)
    before = len(web.requests_for(FUJI_EN.path))
    result = await fetcher.fetch(web.url(FUJI_EN.path))
    assert result.error and "SSRF" in result.error
    assert len(web.requests_for(FUJI_EN.path)) == before  # not even one request went out


async def test_file_urls_only_inside_the_documents_folder(tmp_path: Path) -> None:
    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "note.md").write_text("# Note\n\nhello", "utf-8")
    fetcher = make_fetcher(tmp_path / "cache", local_root=docs)
    inside = await fetcher.fetch((docs / "note.md").as_uri())
    assert inside.error is None and inside.data == b"# Note\n\nhello"
    outside = await fetcher.fetch(Path("/etc/hostname").as_uri())
    assert outside.error and "documents folder" in outside.error
    escape = await fetcher.fetch(docs.as_uri() + "/../cache/x")
    assert escape.error and "documents folder" in escape.error


async def test_guard_runs_before_the_cache_and_entries_expire(tmp_path: Path) -> None:
    """A page cached by a permissive process is not served to a strict one; an expired
    entry is fetched again; the cache stays under its size cap."""
    import os as _os

    import httpx
    import time as _time

    from research.servers.web.fetcher import FetchSettings, PageFetcher, SourceCache
    from research.servers.web.url_safety import URLGuard

    with WebFixture() as web:
        url = web.url(FUJI_EN.path)
        async with httpx.AsyncClient() as client:
            cache = SourceCache(tmp_path / "sources", max_age_s=3600)
            permissive = PageFetcher(client, cache, URLGuard(allow_private_network=True))
            assert (await permissive.fetch(url)).error is None
            strict = PageFetcher(client, cache, URLGuard(allow_private_network=False))
            refused = await strict.fetch(url)
            assert refused.data is None and "SSRF" in (refused.error or "")

            before = len(web.requests_for(FUJI_EN.path))
            assert (await permissive.fetch(url)).from_cache
            sidecar = cache._sidecar(url)  # noqa: SLF001 - age the entry by two hours
            old = _time.time() - 7200
            _os.utime(sidecar, (old, old))
            again = await permissive.fetch(url)
            assert not again.from_cache and len(web.requests_for(FUJI_EN.path)) == before + 1

            small = SourceCache(tmp_path / "small", max_bytes=1.5 * len(again.data))
            capped = PageFetcher(client, small, URLGuard(allow_private_network=True), FetchSettings())
            for path in (FUJI_EN.path, LANGGRAPH_EN.path):
                assert (await capped.fetch(web.url(path))).error is None
            assert len(list((tmp_path / "small").glob("*.json"))) == 1  # the oldest was evicted

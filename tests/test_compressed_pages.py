"""Compressed pages are read with a bound on their EXPANDED size (servers/web/bounded_body.py).

The bombs are served from 127.0.0.1 with an honest Content-Length (the wire size is tiny),
as issue 49 found them: gzip, deflate and zstd bodies made here from zeros, and a brotli
body of 1 GiB of zeros (tests/data/zeros-1gib.br, 841 bytes, made with Node's
``zlib.createBrotliCompress`` at quality 11, window 24, from 1024 writes of 1 MiB of zeros).
Each bomb is fetched in a child process whose peak RSS (ru_maxrss) is compared before and
after: it may grow by the cap plus a few MiB, not by the bomb.
"""

from __future__ import annotations

import json
import os
import struct
import subprocess
import sys
import zlib
from http.server import BaseHTTPRequestHandler
from pathlib import Path

import httpx
import pytest

from fixtures.local_http import LocalHTTPServer
from research.servers.web.engines import EngineUnavailable
from research.servers.web.engines.searxng import SearxngEngine
from research.servers.web.fetcher import FetchSettings, PageFetcher, SourceCache, make_http_client
from research.servers.web.url_safety import URLGuard

zstandard = pytest.importorskip("zstandard")

MIB = 1024 * 1024
CAP = 1 * MIB
PAGE = ("<html><head><title>富士山</title></head><body><p>富士山の標高は3,776メートルです。</p>"
        + "<p>Mount Fuji is 3,776 m tall.</p>" * 200 + "</body></html>").encode("utf-8")


def _zeros(size: int, compressor) -> bytes:
    chunk = bytes(MIB)
    parts = [compressor.compress(chunk) for _ in range(size // MIB)]
    return b"".join(parts) + compressor.flush()


def _zero_bombs(size: int) -> tuple[bytes, bytes]:
    """A gzip body and a zlib ("deflate") body of ``size`` zero bytes, as ``zlib`` at level 9 makes
    them: one raw deflate stream of the zeros, framed twice (RFC 1952: header, stream, CRC-32 and
    length; RFC 1950: header, stream, Adler-32), so the compressing is done once, not per body."""
    raw = _zeros(size, zlib.compressobj(9, zlib.DEFLATED, -zlib.MAX_WBITS))
    chunk, crc, adler = bytes(MIB), 0, 1
    for _ in range(size // MIB):
        crc, adler = zlib.crc32(chunk, crc), zlib.adler32(chunk, adler)
    gzip = b"\x1f\x8b\x08\x00\x00\x00\x00\x00\x02\x03" + raw + struct.pack("<II", crc, size & 0xFFFFFFFF)
    return gzip, b"\x78\xda" + raw + struct.pack(">I", adler)


def _gzip(data: bytes) -> bytes:
    packer = zlib.compressobj(9, zlib.DEFLATED, zlib.MAX_WBITS | 16)
    return packer.compress(data) + packer.flush()


def _deflate(data: bytes, raw: bool = False) -> bytes:
    packer = zlib.compressobj(9, zlib.DEFLATED, -zlib.MAX_WBITS if raw else zlib.MAX_WBITS)
    return packer.compress(data) + packer.flush()


def _bodies() -> dict[str, tuple[str, bytes]]:
    """path -> (Content-Encoding, body)."""
    gzip_bomb, deflate_bomb = _zero_bombs(256 * MIB)
    return {
        "/bomb/gzip": ("gzip", gzip_bomb),
        "/bomb/deflate": ("deflate", deflate_bomb),
        "/bomb/zstd": ("zstd", _zeros(1024 * MIB, zstandard.ZstdCompressor(level=3).compressobj())),
        "/bomb/br": ("br", (Path(__file__).parent / "data" / "zeros-1gib.br").read_bytes()),
        # gzip of gzip: the outer layer is small, the inner one is the bomb
        "/bomb/gzip-gzip": ("gzip, gzip", _gzip(gzip_bomb)),
        "/page/gzip": ("gzip", _gzip(PAGE)),
        "/page/deflate": ("deflate", _deflate(PAGE)),
        "/page/raw-deflate": ("deflate", _deflate(PAGE, raw=True)),
        "/page/zstd": ("zstd", zstandard.ZstdCompressor().compress(PAGE)),
        "/page/gzip-gzip": ("gzip, gzip", _gzip(_gzip(PAGE))),
        "/page/plain": ("", PAGE),
        "/page/compress": ("compress", b"\x1f\x9d\x90" + PAGE[:100]),
        "/page/bad-gzip": ("gzip", b"\x1f\x8b\x08\x00" + b"not gzip at all" * 10),
        "/search": ("gzip", gzip_bomb),
    }


class BombServer(LocalHTTPServer):
    def __init__(self) -> None:
        bodies = _bodies()
        self.accept_encoding: list[str] = []
        seen = self.accept_encoding

        class Handler(BaseHTTPRequestHandler):
            def do_GET(self) -> None:  # noqa: N802
                seen.append(self.headers.get("Accept-Encoding", ""))
                coding, body = bodies[self.path.split("?")[0]]
                self.send_response(200)
                self.send_header("Content-Type", "application/json" if self.path.startswith("/search") else "text/html; charset=utf-8")
                if coding:
                    self.send_header("Content-Encoding", coding)
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                try:
                    self.wfile.write(body)
                except OSError:
                    pass  # the client hung up on a bomb: that is the point

            def log_message(self, *args) -> None:
                pass

        self._listen(Handler)


@pytest.fixture(scope="module")
def bombs():
    with BombServer() as server:
        yield server


def fetcher(tmp_path: Path) -> PageFetcher:
    settings = FetchSettings(timeout=30.0, max_bytes=CAP)
    return PageFetcher(make_http_client(settings), SourceCache(tmp_path), URLGuard(allow_private_network=True), settings)


# The child: fetch a small gzip page first (every import and decoder warmed), then the bomb.
_CHILD = """
import asyncio, json, resource, sys
from pathlib import Path
from research.servers.web.fetcher import FetchSettings, PageFetcher, SourceCache, make_http_client
from research.servers.web.url_safety import URLGuard

async def main(base, path, cap, cache):
    settings = FetchSettings(timeout=60.0, max_bytes=cap)
    fetcher = PageFetcher(make_http_client(settings), SourceCache(Path(cache)), URLGuard(allow_private_network=True), settings)
    for warm in ("/page/gzip", "/page/zstd"):
        assert (await fetcher.fetch(base + warm)).error is None
    before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    result = await fetcher.fetch(base + path)
    after = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    print(json.dumps({"error": result.error, "data": len(result.data or b""), "cached": result.cache_path, "before_kib": before, "after_kib": after}))

asyncio.run(main(*sys.argv[1:3], int(sys.argv[3]), sys.argv[4]))
"""


@pytest.mark.parametrize("coding", ["zstd", "gzip", "deflate", "br", "gzip-gzip"])
def test_a_compression_bomb_costs_the_cap_not_its_expanded_size(bombs: BombServer, coding: str, tmp_path: Path) -> None:
    done = subprocess.run([sys.executable, "-c", _CHILD, bombs.url, f"/bomb/{coding}", str(CAP), str(tmp_path)],
                          capture_output=True, text=True, timeout=120, env={**os.environ, "PYTHONWARNINGS": "ignore"})
    assert done.returncode == 0, done.stderr[-2000:]
    seen = json.loads(done.stdout.strip().splitlines()[-1])
    # Refused with the page's one-line failure, nothing kept as the page.
    assert seen["error"] and "\n" not in seen["error"] and seen["data"] == 0 and seen["cached"] is None
    if coding == "br":
        assert "'br', which is not read" in seen["error"]
    else:
        assert seen["error"] == f"the page is larger than the {CAP // 1024} KiB limit"
    grown_mib = (seen["after_kib"] - seen["before_kib"]) / 1024
    assert grown_mib < CAP / MIB + 4, f"{coding} bomb grew the fetcher by {grown_mib:.0f} MiB"


@pytest.mark.parametrize("path", ["/page/gzip", "/page/deflate", "/page/raw-deflate", "/page/zstd", "/page/gzip-gzip",
                                  "/page/plain"])
async def test_compressed_pages_under_the_cap_read_as_the_page(bombs: BombServer, path: str, tmp_path: Path) -> None:
    pages = fetcher(tmp_path)
    result = await pages.fetch(bombs.url + path)
    await pages.client.aclose()
    assert result.error is None and result.data == PAGE
    # Only the codings read with a bound are asked for (httpx would offer br when brotli is installed).
    assert bombs.accept_encoding[-1] == "gzip, deflate, zstd"


@pytest.mark.parametrize("path, message", [("/page/compress", "'compress', which is not read"),
                                           ("/page/bad-gzip", "gzip encoding does not decode")])
async def test_an_unread_or_broken_encoding_is_one_line(bombs: BombServer, path: str, message: str, tmp_path: Path) -> None:
    pages = fetcher(tmp_path)
    result = await pages.fetch(bombs.url + path)
    await pages.client.aclose()
    assert result.error and message in result.error and "\n" not in result.error and result.data is None


async def test_a_search_api_answering_a_bomb_is_unavailable_not_a_crash(bombs: BombServer) -> None:
    settings = FetchSettings()
    async with make_http_client(settings) as client:
        engine = SearxngEngine(bombs.url, client, URLGuard(allow_private_network=True))
        with pytest.raises(EngineUnavailable, match=r"searxng answered more than 4096 KiB \(once decompressed\)"):
            await engine.search("富士山", language="ja", limit=3)

"""What a compression bomb costs the web-search server's fetcher (issue 49, item 1).

A page of 1 GiB of zeros is served from 127.0.0.1 four ways, each with an honest
Content-Length of its compressed size: gzip and deflate (made here with zlib, about 1 MiB
on the wire), zstd (made here with zstandard, 32,786 bytes) and brotli
(tests/data/zeros-1gib.br, 841 bytes, made with Node's zlib; see tests/test_compressed_pages.py).
Each is fetched once by a fresh child process with the fetcher's page cap (``--cap-mib``,
5 MiB as in the issue); the figure is the child's peak RSS (ru_maxrss) before and after
the fetch, and the one-line failure it got.

Run: ``.venv/bin/python benchmarks/bench_bombs.py [--cap-mib 5] [--fetcher PATH]``.
``--fetcher`` loads another copy of servers/web/fetcher.py (e.g. the one before the fix:
``git show 8c994ff^:src/servers/web/fetcher.py > /tmp/old_fetcher.py``) for comparison.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import zlib
from http.server import BaseHTTPRequestHandler
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))

from fixtures.local_http import LocalHTTPServer  # noqa: E402

MIB = 1024 * 1024

CHILD = """
import asyncio, importlib.util, json, resource, sys, tempfile
from pathlib import Path
if sys.argv[4]:
    spec = importlib.util.spec_from_file_location("other_fetcher", sys.argv[4])
    fetcher = importlib.util.module_from_spec(spec)
    sys.modules["other_fetcher"] = fetcher
    spec.loader.exec_module(fetcher)
else:
    import research.servers.web.fetcher as fetcher
from research.servers.web.url_safety import URLGuard

async def main(url, cap):
    limits = fetcher.FetchSettings(timeout=120.0, max_bytes=cap)
    pages = fetcher.PageFetcher(fetcher.make_http_client(limits), fetcher.SourceCache(Path(tempfile.mkdtemp())),
                                URLGuard(allow_private_network=True), limits)
    before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    result = await pages.fetch(url)
    after = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    print(json.dumps({"before_mib": before / 1024, "after_mib": after / 1024, "error": result.error,
                      "kept_bytes": len(result.data or b"")}))

asyncio.run(main(sys.argv[1] + "/" + sys.argv[2], int(sys.argv[3])))
"""


def _zeros(compressor) -> bytes:
    chunk = bytes(MIB)
    return b"".join(compressor.compress(chunk) for _ in range(1024)) + compressor.flush()


def bombs() -> dict[str, bytes]:
    import zstandard

    return {"gzip": _zeros(zlib.compressobj(9, zlib.DEFLATED, zlib.MAX_WBITS | 16)),
            "deflate": _zeros(zlib.compressobj(9, zlib.DEFLATED, zlib.MAX_WBITS)),
            "zstd": _zeros(zstandard.ZstdCompressor(level=3).compressobj()),
            "br": (ROOT / "tests" / "data" / "zeros-1gib.br").read_bytes()}


class BombServer(LocalHTTPServer):
    def __init__(self, bodies: dict[str, bytes]) -> None:
        class Handler(BaseHTTPRequestHandler):
            def do_GET(self) -> None:  # noqa: N802
                coding = self.path.strip("/")
                body = bodies[coding]
                self.send_response(200)
                self.send_header("Content-Type", "text/html")
                self.send_header("Content-Encoding", coding)
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                try:
                    self.wfile.write(body)
                except OSError:
                    pass

            def log_message(self, *args) -> None:
                pass

        self._listen(Handler)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--cap-mib", type=float, default=5.0, help="the fetcher's page cap (default 5 MiB)")
    parser.add_argument("--fetcher", default="", help="another fetcher.py to measure instead of the installed one")
    args = parser.parse_args()
    bodies = bombs()
    cap = int(args.cap_mib * MIB)
    print(f"{'coding':8} {'wire bytes':>10}  {'peak RSS before → after':>24}  outcome")
    with BombServer(bodies) as server:
        for coding, body in bodies.items():
            done = subprocess.run([sys.executable, "-c", CHILD, server.url, coding, str(cap), args.fetcher],
                                  capture_output=True, text=True, timeout=600)
            if done.returncode != 0:
                print(f"{coding:8} {len(body):>10}  child failed: {done.stderr.strip().splitlines()[-1:]}")
                continue
            seen = json.loads(done.stdout.strip().splitlines()[-1])
            outcome = seen["error"] or f"no error: {seen['kept_bytes']} bytes kept as the page"
            print(f"{coding:8} {len(body):>10}  {seen['before_mib']:>9.0f} MiB → {seen['after_mib']:>6.0f} MiB  {outcome}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

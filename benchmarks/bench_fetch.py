"""Fetch time for 10 pages that each answer after 500 ms: concurrent vs serial (median, min–max of 3).

The real PageFetcher (httpx, per-host politeness, SSRF guard, cache writes) against the
local web fixture. Concurrent fetching should take well under a third of the serial time.

    .venv/bin/python benchmarks/bench_fetch.py [--quick]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))

from fixtures.web_fixture import BENCH_PREFIX, WebFixture  # noqa: E402
from treemem import spread  # noqa: E402

from research.servers.web.fetcher import FetchSettings, PageFetcher, SourceCache, make_http_client  # noqa: E402
from research.servers.web.url_safety import URLGuard  # noqa: E402

PAGES = 10


async def _fetch_all(urls: list[str], cache_dir: Path, concurrent: bool) -> float:
    limits = FetchSettings()
    fetcher = PageFetcher(make_http_client(limits), SourceCache(cache_dir), URLGuard(allow_private_network=True), limits)
    started = time.perf_counter()
    try:
        if concurrent:
            results = await asyncio.gather(*(fetcher.fetch(url) for url in urls))
        else:
            results = [await fetcher.fetch(url) for url in urls]
    finally:
        await fetcher.client.aclose()
    elapsed = time.perf_counter() - started
    failed = [r.error for r in results if r.error]
    if failed:
        raise RuntimeError(f"fetches failed: {failed}")
    return elapsed


def run(quick: bool = False) -> dict:
    latency = 0.2 if quick else 0.5
    repeats = 1 if quick else 3
    serial, concurrent = [], []
    with WebFixture() as web, tempfile.TemporaryDirectory() as tmp:
        web.set_latency(BENCH_PREFIX + "*", latency)
        for repeat in range(repeats):
            # Distinct URLs and caches per mode and repeat: nothing may be served from an earlier cache.
            serial_urls = [web.url(f"{BENCH_PREFIX}{n}.html") for n in range(PAGES)]
            concurrent_urls = [web.url(f"{BENCH_PREFIX}{n}.html") for n in range(PAGES, 2 * PAGES)]
            serial.append(asyncio.run(_fetch_all(serial_urls, Path(tmp) / f"serial{repeat}", concurrent=False)))
            concurrent.append(asyncio.run(_fetch_all(concurrent_urls, Path(tmp) / f"concurrent{repeat}",
                                                     concurrent=True)))
    return {
        "pages": PAGES,
        "latency_s": latency,
        "repeats": repeats,
        "serial_s": spread(serial),
        "concurrent_s": spread(concurrent),
        "ratio": spread([c / s for c, s in zip(concurrent, serial)]),
        "per_host_limit": FetchSettings().per_host,
    }


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="200 ms latency instead of 500 ms")
    print(json.dumps(run(parser.parse_args().quick), indent=2))

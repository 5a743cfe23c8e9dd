"""The bench's corpus is indexed by the local engine once, even when searches give up on it:
on two busy cores indexing 500 PubMedQA pages took longer than the client's 180 s call
timeout, the timed-out search cancelled the indexing, and every later search started it over
(and never finished), so every question of the bench found nothing."""

from __future__ import annotations

import asyncio
from pathlib import Path

from research.servers.web.engines.local import LocalEngine

PAGES = 12
READ_SECONDS = 0.05  # per page: the whole folder takes 0.6 s, a search gives up after 0.2 s


def _corpus(folder: Path) -> Path:
    folder.mkdir()
    for n in range(PAGES):
        (folder / f"page-{n:02d}.md").write_text(f"# Page {n}\n\nThe answer to question {n} is {n * 7}.\n", "utf-8")
    return folder


async def test_a_search_given_up_leaves_the_indexing_going_for_the_next(tmp_path: Path) -> None:
    reads: list[str] = []

    async def slow_read(path: Path, media_type: str) -> tuple[str, str]:
        await asyncio.sleep(READ_SECONDS)
        reads.append(path.name)
        return "", path.read_text("utf-8")

    engine = LocalEngine(_corpus(tmp_path / "corpus"), slow_read)
    for _ in range(2):  # as the MCP client's timeout does: the search is cancelled mid-index
        try:
            await asyncio.wait_for(engine.search("question 3", language="en", limit=3), 0.2)
        except asyncio.TimeoutError:
            pass
        else:
            raise AssertionError("the index was built faster than a search gave up on it")
    hits = await engine.search("question 3", language="en", limit=3)
    assert hits[0].url.endswith("page-03.md")
    # Each page read once, none indexed twice: the build went on, it was not started over.
    assert sorted(reads) == [f"page-{n:02d}.md" for n in range(PAGES)]
    assert len(engine) == PAGES
    assert len({hit.url for hit in hits}) == len(hits)


async def test_a_build_that_failed_is_tried_again(tmp_path: Path) -> None:
    calls = {"n": 0}

    async def failing_once(path: Path, media_type: str) -> tuple[str, str]:
        return "", path.read_text("utf-8")

    engine = LocalEngine(_corpus(tmp_path / "corpus"), failing_once)
    real_build = engine._build

    async def broken_build() -> None:
        calls["n"] += 1
        if calls["n"] == 1:
            raise OSError("the folder could not be listed")
        await real_build()

    engine._build = broken_build  # type: ignore[method-assign]
    try:
        await engine.search("question 3", language="en", limit=3)
    except OSError:
        pass
    hits = await engine.search("question 3", language="en", limit=3)
    assert hits[0].url.endswith("page-03.md") and len(engine) == PAGES and calls["n"] == 2

"""Hostile documents cost one document: each ends as ``DocumentFailed`` with a clear reason
within its timeout, the sandboxed server survives, and the next document still parses."""

from __future__ import annotations

import os
import resource
import sys
import time
from pathlib import Path

import pytest
import pytest_asyncio

from research.modules.clients.parser_client import CALL_GRACE_S, ContainerProcessor
from research.modules.core.settings import Settings
from research.workflow.dependencies import DocumentFailed

sys.path.insert(0, str(Path(__file__).parent))
from parser_documents import (  # noqa: E402
    EN_FACT,
    EN_FACT_2,
    compression_bomb_pdf,
    deeply_nested_html,
    english_html,
    english_pdf,
    huge_html,
)

PARSE_TIMEOUT_S = 20.0
in_module_loop = pytest.mark.asyncio(loop_scope="module")
pytestmark = pytest.mark.faults


@pytest.fixture(scope="module")
def cache(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("hostile") / "sources"
    folder.mkdir()
    (folder / "good.html").write_bytes(english_html())
    return folder


@pytest_asyncio.fixture(scope="module", loop_scope="module")
async def processor(cache: Path):
    """One sandboxed server (what `auto` picks) for every hostile document in turn."""
    async with ContainerProcessor(Settings(sandbox="auto", parse_timeout=PARSE_TIMEOUT_S), cache) as server:
        yield server


async def fails_in_time(processor: ContainerProcessor, cache: Path, name: str, data: bytes, media_type: str) -> str:
    """Parse a hostile document: it must fail, within its timeout; then a good one must parse."""
    (cache / name).write_bytes(data)
    started = time.monotonic()
    with pytest.raises(DocumentFailed) as failure:
        await processor.parse(path=str(cache / name), text=None, media_type=media_type, url=f"https://evil.example/{name}")
    assert time.monotonic() - started < PARSE_TIMEOUT_S + CALL_GRACE_S
    good = await processor.parse(path=str(cache / "good.html"), text=None, media_type="text/html", url="https://ok.example/")
    assert good.key_facts == [EN_FACT, EN_FACT_2]
    return str(failure.value)


@in_module_loop
async def test_compression_bomb_pdf_is_stopped_by_the_memory_cap_in_the_sandbox(processor: ContainerProcessor, cache: Path) -> None:
    bomb = compression_bomb_pdf(gib=2)
    assert len(bomb) < 4 * 1024 * 1024  # a few MB on disk, 2 GiB once inflated
    peak_before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    reason = await fails_in_time(processor, cache, "bomb.pdf", bomb, "application/pdf")
    assert "MemoryError" in reason or "memory" in reason
    # The bomb went off in the sandbox: this process's peak memory barely moved (kB).
    assert resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - peak_before < 200 * 1024
    assert processor.restarts == 0  # only the child died; the server lived on


@in_module_loop
async def test_truncated_pdf(processor: ContainerProcessor, cache: Path) -> None:
    whole = english_pdf()
    reason = await fails_in_time(processor, cache, "truncated.pdf", whole[: len(whole) // 3], "application/pdf")
    assert "PDF" in reason


@in_module_loop
async def test_fifty_megabyte_html_page(processor: ContainerProcessor, cache: Path) -> None:
    reason = await fails_in_time(processor, cache, "huge.html", huge_html(50), "text/html")
    assert "too large" in reason and "MB" in reason


@in_module_loop
async def test_html_nested_sixty_thousand_levels(processor: ContainerProcessor, cache: Path) -> None:
    reason = await fails_in_time(processor, cache, "nested.html", deeply_nested_html(60_000), "text/html")
    assert reason  # lxml stops at its depth limit, so the text is unreachable: "no readable text"
    assert "no readable text" in reason or "nested too deeply" in reason or "crashed" in reason


@in_module_loop
async def test_random_bytes_served_as_html(processor: ContainerProcessor, cache: Path) -> None:
    reason = await fails_in_time(processor, cache, "random.html", os.urandom(256 * 1024), "text/html")
    assert "binary" in reason or "not readable text" in reason


@in_module_loop
async def test_pdf_labelled_as_html_is_read_as_the_pdf_it_is(processor: ContainerProcessor, cache: Path) -> None:
    (cache / "mislabelled.html").write_bytes(english_pdf())
    parsed = await processor.parse(path=str(cache / "mislabelled.html"), text=None, media_type="text/html", url="https://x/a.html")
    assert parsed.stats["media_type"] == "application/pdf"
    assert parsed.key_facts == [EN_FACT, EN_FACT_2]


@in_module_loop
async def test_html_labelled_as_pdf_fails_clearly(processor: ContainerProcessor, cache: Path) -> None:
    reason = await fails_in_time(processor, cache, "fake.pdf", english_html(), "application/pdf")
    assert "not a PDF" in reason


@in_module_loop
async def test_a_document_over_its_time_budget_is_cut_off(cache: Path) -> None:
    """With a 1 s budget the bomb cannot even finish inflating: the wall-clock deadline or
    the CPU-time limit in the sandbox ends it, not the client's patience."""
    (cache / "slow.pdf").write_bytes(compression_bomb_pdf(gib=2))
    async with ContainerProcessor(Settings(sandbox="auto", parse_timeout=1.0), cache) as quick:
        started = time.monotonic()
        with pytest.raises(DocumentFailed) as failure:
            await quick.parse(path=str(cache / "slow.pdf"), text=None, media_type="application/pdf", url="u")
        elapsed = time.monotonic() - started
        assert quick.restarts == 0
    assert "timed out after 1 s" in str(failure.value) or "CPU time limit" in str(failure.value)
    assert elapsed < 1.0 + CALL_GRACE_S

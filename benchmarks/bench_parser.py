"""Throughput of the sandboxed parser, its start-up time, and the main process's memory
while a decompression bomb is parsed.

A mixed batch of 50 HTML pages and 10 PDFs (Japanese and English, built on the fly) goes
through one ContainerProcessor (the sandbox `auto` picks: bubblewrap here) over real stdio
MCP. The bomb is a 2 GiB FlateDecode PDF; the main process's resident memory is sampled
every 10 ms while it is parsed and must stay flat, since the bomb goes off in the sandbox.
Start-up and batch are repeated (3 times; once with --quick): medians with min–max.

    .venv/bin/python benchmarks/bench_parser.py [--quick]

``--settled N`` measures instead what a run's parser holds and what a short page costs:
N starts, each left until its fork server has warmed up (its CPU unchanged for half a
second, and the server's too); then the PSS and private memory of the server and of its fork server, the fork
server's CPU (its import and warm-up), and the CPU of the children that parse the web
fixture's short pages (``--pages-each`` times each; read from the fork server's reaped
children, so only the parse in the sandbox is counted). Most of those pages come back short
from trafilatura's own extraction and go through jusText (``JUSTEXT_PAGES``).

    .venv/bin/python benchmarks/bench_parser.py --settled 5
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
import tempfile
import os
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))

from fixtures import web_fixture  # noqa: E402
from parser_documents import JA_FACT, compression_bomb_pdf, pdf_with_lines  # noqa: E402
from treemem import descendants, spread  # noqa: E402

from research.modules.clients.parser_client import ContainerProcessor  # noqa: E402
from research.modules.core.settings import Settings  # noqa: E402
from research.workflow.dependencies import DocumentFailed  # noqa: E402

EN_PARAGRAPH = (
    "In {year} the survey measured {n} km of new trails and counted {m} visitors, about {p}% more than before. "
    "Researchers noted that the volcano remains active and that monitoring stations report every {k} minutes. "
)
JA_PARAGRAPH = "{year}年の調査では新たに{n}kmの登山道が計測され、登山者は約{m}人で前年より{p}%増えた。観測所は{k}分ごとに報告している。"


def html_page(index: int, paragraphs: int) -> bytes:
    template = JA_PARAGRAPH if index % 2 else EN_PARAGRAPH
    body = "".join(
        "<p>" + template.format(year=1990 + (index + i) % 30, n=i + 3, m=1000 + 7 * i, p=i % 40, k=5 + i % 10) + "</p>\n"
        for i in range(paragraphs)
    )
    rows = "".join(f"<tr><td>row {r}</td><td>{r * 17} m</td></tr>" for r in range(20))
    return (
        f"<!doctype html><html><head><meta charset='utf-8'><title>Page {index}</title></head><body>"
        f"<nav>Home | Subscribe</nav><article><h1>Survey {index}</h1>{body}<table>{rows}</table></article>"
        f"<footer>Copyright</footer></body></html>"
    ).encode()


def pdf_document(index: int, pages: int) -> bytes:
    lines = [EN_PARAGRAPH.format(year=2000 + i, n=i, m=i * 10, p=i % 50, k=i % 9 + 1)[:90] for i in range(25 * pages)]
    if index % 2:
        return pdf_with_lines([JA_FACT] * 25 * pages, japanese=True, title=f"報告 {index}")
    return pdf_with_lines(lines, title=f"Report {index}")


def _rss_mb() -> float:
    with open("/proc/self/status", encoding="ascii") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    return 0.0


async def _bomb_memory(processor: ContainerProcessor, cache: Path, gib: int) -> dict:
    (cache / "bomb.pdf").write_bytes(compression_bomb_pdf(gib=gib))
    samples: list[float] = []
    done = threading.Event()

    def sample() -> None:
        while not done.is_set():
            samples.append(_rss_mb())
            time.sleep(0.01)

    before = _rss_mb()
    sampler = threading.Thread(target=sample, daemon=True)
    sampler.start()
    started = time.perf_counter()
    try:
        await processor.parse(path=str(cache / "bomb.pdf"), text=None, media_type="application/pdf", url="bomb")
        outcome = "parsed (unexpected)"
    except DocumentFailed as exc:
        outcome = f"failed: {exc}"
    elapsed = time.perf_counter() - started
    done.set()
    sampler.join()
    return {
        "bomb_inflated_gib": gib,
        "bomb_seconds": round(elapsed, 2),
        "bomb_outcome": outcome,
        "main_rss_before_mb": round(before, 1),
        "main_rss_peak_during_bomb_mb": round(max(samples, default=before), 1),
        "main_rss_growth_mb": round(max(samples, default=before) - before, 1),
    }


async def _run(quick: bool) -> dict:
    html_count, pdf_count = (10, 2) if quick else (50, 10)
    with tempfile.TemporaryDirectory(prefix="bench-parser-") as tmp:
        cache = Path(tmp) / "sources"
        cache.mkdir()
        documents: list[tuple[Path, str]] = []
        for i in range(html_count):
            path = cache / f"page{i}.html"
            path.write_bytes(html_page(i, paragraphs=40 + (i % 5) * 40))
            documents.append((path, "text/html"))
        for i in range(pdf_count):
            path = cache / f"doc{i}.pdf"
            path.write_bytes(pdf_document(i, pages=1 + i % 3))
            documents.append((path, "application/pdf"))
        total_bytes = sum(path.stat().st_size for path, _ in documents)

        repeats = 1 if quick else 3
        startups, first_parses, batches, failures = [], [], [], []
        memory: dict = {}
        for repeat in range(repeats):
            started = time.perf_counter()
            processor = ContainerProcessor(Settings(sandbox="auto", parse_timeout=30.0), cache)
            await processor.start()
            startups.append(time.perf_counter() - started)
            try:
                first = time.perf_counter()
                await processor.parse(path=str(documents[0][0]), text=None, media_type="text/html", url="warm")
                first_parses.append(time.perf_counter() - first)

                batch_started = time.perf_counter()
                results = await asyncio.gather(
                    *(processor.parse(path=str(p), text=None, media_type=m, url=p.name) for p, m in documents),
                    return_exceptions=True,
                )
                batches.append(time.perf_counter() - batch_started)
                failures += [str(r) for r in results if isinstance(r, BaseException)]
                if repeat == repeats - 1:  # the bomb once: it measures memory, not speed
                    memory = await _bomb_memory(processor, cache, gib=1 if quick else 2)
            finally:
                await processor.aclose()
    return {
        "sandbox": processor.sandbox_name,
        "isolation_verified": processor.isolation_verified,
        "documents": len(documents),
        "html": html_count,
        "pdf": pdf_count,
        "batch_mb": round(total_bytes / 1e6, 2),
        "repeats": repeats,
        "startup_s": spread(startups),
        "first_parse_s": spread(first_parses),
        "batch_s": spread(batches),
        "documents_per_second": spread([len(documents) / b for b in batches], 1),
        "mb_per_second": spread([total_bytes / 1e6 / b for b in batches], 2),
        "failed": failures,
        **memory,
    }


# The web fixture's short pages (a few sentences in boilerplate): trafilatura's own extraction
# comes back short for these, so they go through its jusText fallback.
JUSTEXT_PAGES = [web_fixture.FUJI_JA, web_fixture.PYTHON_JA, web_fixture.PYTHON_SNAKE_EN, web_fixture.OLLAMA_JA,
                 web_fixture.PORT_YOKOHAMA_EN, web_fixture.ENERGY_EN, web_fixture.QUANTUM_EN, web_fixture.BITCOIN_JA]


def _stat(pid: int) -> list[str]:
    return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()


def _cpu_s(pid: int, children: bool = False) -> float:
    """User + system CPU of ``pid`` (or of its reaped children) in seconds."""
    fields = _stat(pid)
    first = 13 if children else 11  # cutime, cstime / utime, stime (after the command's name)
    return (int(fields[first]) + int(fields[first + 1])) / os.sysconf("SC_CLK_TCK")


def _memory_mib(pid: int) -> dict[str, float]:
    found: dict[str, float] = {}
    for line in Path(f"/proc/{pid}/smaps_rollup").read_text().splitlines():
        name, _, value = line.partition(":")
        if name in ("Pss", "Private_Clean", "Private_Dirty"):
            found[name] = int(value.split()[0]) / 1024
    return {"pss": found["Pss"], "private": found["Private_Clean"] + found["Private_Dirty"]}


def _parser_processes() -> tuple[int, int]:
    """(server, fork server): the Python processes under bubblewrap, the fork server the server's child."""
    pythons = [pid for pid in descendants(os.getpid())[1:] if Path(f"/proc/{pid}/exe").resolve().name.startswith("python")]
    server = next(pid for pid in pythons if int(_stat(pid)[1]) not in pythons)
    return server, next(pid for pid in pythons if int(_stat(pid)[1]) == server)


async def _until_idle(pids: tuple[int, ...], quiet_s: float = 0.5, limit_s: float = 60.0) -> None:
    deadline, last = time.monotonic() + limit_s, -1.0
    while time.monotonic() < deadline:
        cpu = sum(_cpu_s(pid) for pid in pids)
        if cpu == last:
            return
        last = cpu
        await asyncio.sleep(quiet_s)


async def _settled(repeats: int, pages_each: int) -> dict:
    figures: dict[str, list[float]] = {}

    def note(name: str, value: float) -> None:
        figures.setdefault(name, []).append(value)

    with tempfile.TemporaryDirectory(prefix="bench-parser-") as tmp:
        cache = Path(tmp) / "sources"
        cache.mkdir()
        pages = []
        for article in JUSTEXT_PAGES:
            path = cache / (article.path.strip("/").replace("/", "-"))
            path.write_text(web_fixture.render_html(article), encoding="utf-8")
            pages.append(path)
        for _ in range(repeats):
            processor = ContainerProcessor(Settings(sandbox="auto", parse_timeout=30.0), cache)
            await processor.start()
            try:
                server, fork_server = _parser_processes()
                await _until_idle((server, fork_server))
                for name, pid in (("server", server), ("fork_server", fork_server)):
                    for kind, mib in _memory_mib(pid).items():
                        note(f"{name}_{kind}_mib", mib)
                note("fork_server_cpu_s", _cpu_s(fork_server))
                before = _cpu_s(fork_server, children=True)
                for _ in range(pages_each):
                    for path in pages:
                        await processor.parse(path=str(path), text=None, media_type="text/html", url=path.name)
                note("child_cpu_per_page_s", (_cpu_s(fork_server, children=True) - before) / (pages_each * len(pages)))
            finally:
                await processor.aclose()
    return {"repeats": repeats, "pages": len(pages) * pages_each, "load_after": os.getloadavg()[0],
            **{name: spread(values) for name, values in figures.items()}}


def run(quick: bool = False) -> dict:
    return asyncio.run(_run(quick))


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--settled", type=int, metavar="N", help="N starts: the warmed-up parser's memory and a short page's CPU")
    parser.add_argument("--pages-each", type=int, default=3)
    arguments = parser.parse_args()
    if arguments.settled:
        load_before = os.getloadavg()[0]
        result = {"load_before": load_before, **asyncio.run(_settled(arguments.settled, arguments.pages_each))}
    else:
        result = run(arguments.quick)
    print(json.dumps(result, ensure_ascii=False, indent=2))

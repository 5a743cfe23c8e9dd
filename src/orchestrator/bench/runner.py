"""One bench: each sampled question is a whole research run (``run_research``, the same graph
as `research "…"`), searching the set's pages as a local corpus, graded as it ends.

- **Offline, retrieval included.** Every page of the set file (not only the sample's) is a
  Markdown file in the bench's ``corpus/``; the runs search it with ``--engine local --docs
  corpus/`` (the local engine never falls back to the web). One pair of MCP servers is kept
  for the whole bench (``KeptServers``), so the corpus is indexed once.
- **Resumable.** The bench's folder is named by what decides its results (the set file's
  sha256, the sample, the seed and every run option); each question's line is appended to
  results.jsonl when it ends, and running the same command again runs only the questions
  without a line.
- **Bounded.** A question whose run fails or runs past ``question_timeout`` gets a failed
  line (graded wrong) and the bench goes on; its servers are replaced for the next one.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import re
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable

from research.modules.core.errors import OllamaError, SearchUnavailable
from research.modules.core.language import Language
from research.modules.core.run_options import recorded
from research.modules.core.settings import Settings
from research.orchestrator.bench.grading import grade, read_verdict
from research.orchestrator.bench.results import (DONE, FAILED, RESULTS_FILE, SUMMARY_FILE, TIMED_OUT, BenchConfig,
                                                 ItemResult, Summary, append_result, read_results, summarise)
from research.orchestrator.bench.sets import BenchItem, BenchSet, load_set, sample, write_corpus
from research.state.progress_events import NodeFinished, ProgressEvent, SessionStarted
from research.state.run_record import JsonObject

BENCH_FOLDER = "bench"  # under the sessions folder
CORPUS_FOLDER = "corpus"  # under BENCH_FOLDER: a folder of pages per set file, named by set and digest
CONFIG_FILE = "bench.json"
DEFAULT_QUESTION_TIMEOUT = 1800.0
# Searches the corpus's indexing may take, each up to the client's call timeout (180 s).
INDEX_ATTEMPTS = 10
_LABEL = re.compile(r"\[S(\d+)\]")


@dataclass
class BenchRequest:
    set_name: str
    data: Path
    sample: int | None
    seed: int
    settings: Settings  # the run options as given (the engine and documents folder are the bench's)
    question_timeout: float = DEFAULT_QUESTION_TIMEOUT


@dataclass(frozen=True)
class BenchProgress:
    """Said after each question: how far, how well so far, how long is left."""

    done: int  # questions with a line, this bench's earlier runs included
    planned: int
    correct: int
    seconds_left: float | None  # from the median of this process's questions
    last: ItemResult | None


@dataclass
class BenchOutcome:
    folder: Path
    summary: Summary
    results: list[ItemResult] = field(default_factory=list)
    resumed: int = 0  # questions already done by an earlier run of the same bench


def bench_key(request: BenchRequest, bench: BenchSet) -> tuple[str, BenchConfig]:
    """The bench folder's name and what it is named after: set, file, sample, seed, options."""
    options = {name: value for name, value in recorded(request.settings).items()
               if name not in ("search_engine", "docs_dir")}
    config = BenchConfig(set=request.set_name, data_sha256=bench.digest, sample=request.sample, seed=request.seed,
                         options=options)
    digest = hashlib.sha256(json.dumps(config, sort_keys=True, default=str).encode()).hexdigest()[:10]
    model = re.sub(r"[^A-Za-z0-9_.-]+", "-", request.settings.model)[:40]
    size = request.sample if request.sample is not None else "all"
    return f"{request.set_name}-{model}-n{size}-s{request.seed}-{digest}", config


def prepare(request: BenchRequest) -> tuple[BenchSet, list[BenchItem], Path, Settings, BenchConfig]:
    """The set read (usage errors here, before anything runs), its sample, the bench folder
    with its corpus, and the settings every run of it uses."""
    bench = load_set(request.set_name, request.data)
    items = sample(bench.items, request.sample, request.seed)
    name, config = bench_key(request, bench)
    benches = Path(request.settings.sessions_dir).expanduser() / BENCH_FOLDER
    folder = benches / name
    # One corpus per set file, shared by every bench of it (another sample, seed, model or
    # option): the local engine keeps its index by folder, so only the first bench of a set
    # parses its pages (JSQuAD's 1,145: 13 s to 80 s), the next ones read the kept index.
    corpus = write_corpus(bench.pages, benches / CORPUS_FOLDER / f"{request.set_name}-{bench.digest[:12]}")
    config = BenchConfig(**config, data=str(request.data), questions=len(items), pages=len(bench.pages))
    folder.mkdir(parents=True, exist_ok=True)
    (folder / CONFIG_FILE).write_text(json.dumps(config, ensure_ascii=False, indent=2) + "\n", "utf-8")
    settings = request.settings.model_copy(update={"search_engine": "local", "docs_dir": corpus.resolve(),
                                                   "review_plan": False})
    return bench, items, folder, settings, config


async def run_bench(request: BenchRequest, on_progress: Callable[[BenchProgress], None]) -> BenchOutcome:
    from research.modules.llm.model_manager import ModelManager
    from research.orchestrator.server_pool import KeptServers

    bench, items, folder, settings, config = prepare(request)
    results_path = folder / RESULTS_FILE
    earlier = {r.item_id: r for r in read_results(results_path)}
    results = [earlier[item.item_id] for item in items if item.item_id in earlier]
    resumed = len(results)
    # A stopped Ollama or a model it lacks is said once (exit 3), not recorded as every question failing.
    await ModelManager(settings).ensure_ready()
    kept = KeptServers()
    timings: list[float] = []
    try:
        left = [item for item in items if item.item_id not in earlier]
        if left:
            config["index_seconds"] = await _index_corpus(kept, settings, folder, left[0], bench.language)
        for item in items:
            if item.item_id in earlier:
                continue
            result = await _one_question(item, bench.name, settings, kept, request.question_timeout)
            append_result(results_path, result)
            results.append(result)
            timings.append(result.seconds)
            remaining = len(items) - len(results)
            median = sorted(timings)[len(timings) // 2]
            on_progress(BenchProgress(len(results), len(items), sum(r.correct for r in results),
                                      median * remaining if remaining else 0.0, result))
    finally:
        await asyncio.shield(kept.aclose())
    summary = summarise(bench.name, settings.model, len(items), results, config)
    (folder / SUMMARY_FILE).write_text(json.dumps(summary.as_json(), ensure_ascii=False, indent=2) + "\n", "utf-8")
    return BenchOutcome(folder, summary, results, resumed)


async def _index_corpus(kept: Any, settings: Settings, folder: Path, item: BenchItem, language: Language) -> float | None:
    """One search before the first question, so the local engine indexes the corpus (every
    page parsed in the sandbox: 80 s for JSQuAD's 1,145 pages on two busy cores, over 180 s
    at a load of 15) before any question's clock starts. A search that runs past the
    client's call timeout is asked again on the same servers: the build goes on in the
    server (engines/local.py) and the next search waits for it. Its seconds go into the
    summary; any other failure is left to the first question's run to meet and record."""
    started = time.monotonic()
    async with kept.lease(settings) as lease:
        try:
            await lease.pool.start(settings)
            web_search, _parser = lease.pool.for_session(folder / "index")
            for attempt in range(INDEX_ATTEMPTS):
                try:
                    await web_search.search(item.question, language=language, limit=1)
                    break
                except SearchUnavailable:
                    if attempt == INDEX_ATTEMPTS - 1:
                        raise
        except Exception:  # noqa: BLE001 - said by the first run, with its session
            lease.spoil()
            return None
    return round(time.monotonic() - started, 1)


class _RunWatch:
    """The run's progress events, read for its session folder and its first draft:
    llm_draft.md as the first drafting step left it (a follow-up round rewrites it)."""

    def __init__(self) -> None:
        self.session_id = ""
        self.session_dir: Path | None = None
        self.first_draft: str | None = None

    def __call__(self, event: ProgressEvent) -> None:
        if isinstance(event, SessionStarted):
            self.session_id, self.session_dir = event.session_id, Path(event.session_dir)
        elif isinstance(event, NodeFinished) and event.node == "llm" and self.first_draft is None \
                and self.session_dir is not None:
            try:
                self.first_draft = (self.session_dir / "llm_draft.md").read_text("utf-8")
            except OSError:
                self.first_draft = None


async def _one_question(item: BenchItem, set_name: str, settings: Settings, kept: Any,
                        timeout: float) -> ItemResult:
    from research.orchestrator.runner import ResearchRequest, run_research

    watch = _RunWatch()
    base = ItemResult(item.item_id, item.question, list(item.gold), FAILED)
    started = time.monotonic()
    async with kept.lease(settings) as lease:
        try:
            run = await asyncio.wait_for(
                run_research(ResearchRequest(question=item.question, servers=lease.pool), settings, watch), timeout)
        except asyncio.TimeoutError:
            lease.spoil()  # a call may be left in flight: the next question gets fresh servers
            base.status, base.error = TIMED_OUT, f"no answer within {timeout:g} s"
        except OllamaError as exc:
            lease.spoil()
            base.error = f"{type(exc).__name__}: {exc.message('en')}"[:300]
        except Exception as exc:  # noqa: BLE001 - one question's failure is its line, the bench goes on
            lease.spoil()
            message = exc.message("en") if hasattr(exc, "message") else str(exc)
            base.error = f"{type(exc).__name__}: {message}"[:300]
        else:
            base = _graded(item, set_name, run, watch, settings)
    base.seconds = round(time.monotonic() - started, 2)
    base.session_id = base.session_id or watch.session_id
    return base


def _graded(item: BenchItem, set_name: str, run: Any, watch: _RunWatch, settings: Settings) -> ItemResult:
    # The run's sources and verification counts as plain JSON (RunOutcome holds them as models).
    sources = [_plain(source) for source in run.source_list]
    verification = _plain(run.verification)
    # No source read: the answer is the program's own no-evidence message, never graded as an answer.
    final = grade(set_name, run.answer if run.sources else "", item.gold)
    result = ItemResult(item.item_id, item.question, list(item.gold), DONE, session_id=run.session_id,
                        exit_code=run.exit_code, answer=run.answer, answer_chars=final.answer_chars,
                        predicted=final.predicted, correct=final.correct)
    if set_name == "pubmedqa":
        result.read_how = read_verdict(run.answer if run.sources else "")[1]
    if watch.first_draft is not None:
        draft = grade(set_name, watch.first_draft, item.gold)
        result.draft_predicted, result.draft_correct = draft.predicted, draft.correct
        read = {str(source.get("label")) for source in sources if source.get("status") == "ok"}
        labels = _LABEL.findall(watch.first_draft)
        result.citations = len(labels)
        result.citations_resolved = sum(1 for n in labels if f"S{n}" in read)
    result.claims = int(verification.get("claims") or 0)
    result.supported = int(verification.get("supported") or 0)
    result.verification_changed = bool(verification.get("removed") or verification.get("corrected"))
    result.sources_read = run.sources
    result.own_page_read = any(source.get("status") == "ok" and str(source.get("url", "")).endswith(
        f"/{item.page_id}.md") for source in sources)
    result.tokens = _tokens(Path(run.session_dir))
    return result


def _plain(value: Any) -> JsonObject:
    """A model of the run's outcome (a Source, the verification counts) as its JSON; {} for None."""
    if hasattr(value, "model_dump"):
        return value.model_dump(mode="json")
    return dict(value) if isinstance(value, dict) else {}


def _tokens(session_dir: Path) -> int | None:
    """Prompt and completion tokens the run's model calls used (meta.json's ``usage``)."""
    try:
        usage = json.loads((session_dir / "meta.json").read_text("utf-8")).get("usage")
    except (OSError, ValueError, AttributeError):
        return None
    if not isinstance(usage, dict):
        return None
    entries = [entry for name, entry in usage.items() if name != "context_overflow" and isinstance(entry, dict)]
    # A call Ollama never finished (a reply cut for repeating, a plan past its time) has no
    # counts: the run's total is not known, and 0 or a part of it would read as a figure.
    if any("model_ms" in entry and "prompt_tokens" not in entry for entry in entries):
        return None
    return sum(int(entry.get("prompt_tokens") or 0) + int(entry.get("completion_tokens") or 0) for entry in entries)

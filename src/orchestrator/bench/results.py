"""A bench's results: one JSON line per question in ``results.jsonl`` (appended as each one
ends, so an interrupted bench resumes after the last line written), and the summary the
terminal table, the Markdown report and ``summary.json`` show."""

from __future__ import annotations

import json
import os
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any, TypedDict

from research.modules.core.run_options import OptionValues

from research.orchestrator.bench.stats import percentile, wilson
from research.state.models import JsonObject

RESULTS_FILE = "results.jsonl"
SUMMARY_FILE = "summary.json"
DONE, FAILED, TIMED_OUT = "done", "failed", "timed_out"


@dataclass
class ItemResult:
    item_id: str
    question: str
    gold: list[str]
    status: str  # done | failed | timed_out
    error: str = ""
    session_id: str = ""
    exit_code: int | None = None
    seconds: float = 0.0
    tokens: int | None = None  # prompt + completion, from the session's meta.json
    answer: str = ""  # the final, checked answer
    answer_chars: int = 0
    predicted: str | None = None  # the decision read (pubmedqa), the span found (jsquad)
    read_how: str = ""  # pubmedqa: explicit | wording | none
    correct: bool = False
    draft_predicted: str | None = None  # the first draft, graded the same way
    draft_correct: bool | None = None  # None: no draft was written
    claims: int = 0
    supported: int = 0
    citations: int = 0  # [S#] marks in the first draft
    citations_resolved: int = 0  # of them, naming a source the run read
    verification_changed: bool = False  # a sentence removed or a value repaired
    own_page_read: bool = False  # the page that answers it was among the sources read
    sources_read: int = 0

    def to_line(self) -> str:
        return json.dumps(asdict(self), ensure_ascii=False)


def read_results(path: Path) -> list[ItemResult]:
    """Every whole line of results.jsonl; a line cut by a kill (the last) is left out, so its
    question runs again."""
    if not path.is_file():
        return []
    known = set(ItemResult.__dataclass_fields__)
    results = []
    for line in path.read_text("utf-8", errors="replace").splitlines():
        try:
            data = json.loads(line)
        except json.JSONDecodeError:
            continue
        if isinstance(data, dict) and isinstance(data.get("item_id"), str) and isinstance(data.get("status"), str):
            results.append(ItemResult(**{k: v for k, v in data.items() if k in known}))
    return results


def append_result(path: Path, result: ItemResult) -> None:
    """One line, flushed and fsynced: what a resumed bench will not run again."""
    with open(path, "a", encoding="utf-8") as handle:
        handle.write(result.to_line() + "\n")
        handle.flush()
        os.fsync(handle.fileno())


class BenchConfig(TypedDict, total=False):
    """What a bench is named after (``bench_key``) and ran with (config.json, the summary's ``settings``)."""

    set: str
    data_sha256: str
    sample: int | None
    seed: int
    options: OptionValues  # the run options, less the engine and the documents folder
    data: str
    questions: int
    pages: int
    index_seconds: float | None  # None: the index was not timed


class WrongAnswer(TypedDict):
    """A question the run did not answer right, as the summary lists it (summary.json, the report)."""

    item_id: str
    question: str
    gold: list[str]
    predicted: str | None
    status: str
    error: str
    answer: str
    session_id: str
    own_page_read: bool


@dataclass
class Summary:
    set_name: str
    model: str
    planned: int  # questions in the sample
    graded: int  # questions with a line (done, failed or timed out)
    completed: int  # runs that finished with a report
    correct: int
    accuracy: float  # correct / graded: a failed run counts as wrong
    interval: tuple[float, float]
    draft_correct: int
    draft_graded: int
    draft_accuracy: float | None
    draft_interval: tuple[float, float] | None
    seconds_median: float | None
    seconds_p90: float | None
    tokens_median: float | None
    tokens_total: int | None
    claims: int
    supported: int
    citations: int
    citations_resolved: int
    verification_changed: int
    changed_helped: int  # draft wrong, final right
    changed_hurt: int  # draft right, final wrong
    own_page_read: int
    answer_chars_median: float | None
    read_how: dict[str, int] = field(default_factory=dict)
    wrong: list[WrongAnswer] = field(default_factory=list)
    settings: BenchConfig = field(default_factory=BenchConfig)

    def as_json(self) -> JsonObject:
        return asdict(self)


def summarise(set_name: str, model: str, planned: int, results: list[ItemResult],
              settings: BenchConfig | None = None) -> Summary:
    done = [r for r in results if r.status == DONE]
    correct = sum(r.correct for r in results)
    drafted = [r for r in done if r.draft_correct is not None]
    draft_correct = sum(bool(r.draft_correct) for r in drafted)
    seconds = [r.seconds for r in done]
    tokens = [r.tokens for r in done if r.tokens is not None]
    read_how: dict[str, int] = {}
    for r in done:
        if r.read_how:
            read_how[r.read_how] = read_how.get(r.read_how, 0) + 1
    wrong = [WrongAnswer(item_id=r.item_id, question=r.question, gold=r.gold, predicted=r.predicted,
                         status=r.status, error=r.error, answer=r.answer, session_id=r.session_id,
                         own_page_read=r.own_page_read) for r in results if not r.correct]
    return Summary(
        set_name=set_name, model=model, planned=planned, graded=len(results), completed=len(done),
        correct=correct, accuracy=correct / len(results) if results else 0.0,
        interval=wilson(correct, len(results)),
        draft_correct=draft_correct, draft_graded=len(drafted),
        draft_accuracy=draft_correct / len(drafted) if drafted else None,
        draft_interval=wilson(draft_correct, len(drafted)) if drafted else None,
        seconds_median=percentile(seconds, 50), seconds_p90=percentile(seconds, 90),
        tokens_median=percentile([float(t) for t in tokens], 50), tokens_total=sum(tokens) if tokens else None,
        claims=sum(r.claims for r in done), supported=sum(r.supported for r in done),
        citations=sum(r.citations for r in done), citations_resolved=sum(r.citations_resolved for r in done),
        verification_changed=sum(r.verification_changed for r in done),
        changed_helped=sum(1 for r in drafted if r.correct and not r.draft_correct),
        changed_hurt=sum(1 for r in drafted if r.draft_correct and not r.correct),
        own_page_read=sum(r.own_page_read for r in done),
        answer_chars_median=percentile([float(r.answer_chars) for r in done], 50),
        read_how=read_how, wrong=wrong, settings=BenchConfig(**(settings or {})),
    )

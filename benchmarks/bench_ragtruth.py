"""The verifier on RAGTruth (Niu et al., ACL 2024; MIT licence): human span labels of what
six real LLMs hallucinated in QA, news summaries and data-to-text answers.

Every answer goes through ``research verify --batch --no-judge`` (a subprocess, as a user
would run it); a claim counts as hallucinated when it overlaps a labelled span. Printed per
task and overall:
- hallucinated claims judged supported (target <= 3%);
- clean claims judged unsupported without the judge (<= 3%);
- claims left to the judge, i.e. uncertain (<= 50%);
- response-level F1 if every uncertain claim got its true label (>= 0.80);
- clean data-to-text answers flagged (<= 25%).

Data (never committed): either the original release's folder holding ``response.jsonl``
and ``source_info.jsonl``, or a JSONL export of the ``wandb/RAGTruth-processed`` schema
(``context``, ``output``, ``hallucination_labels``, ``task_type``, ``split``).

    .venv/bin/python benchmarks/bench_ragtruth.py /tmp/ragtruth [--split train] [--limit N]
"""

from __future__ import annotations

import argparse
import ast
import json
import subprocess
import sys
import tempfile
import time
from collections import defaultdict
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
RESEARCH = ROOT / ".venv" / "bin" / "research"


def _source_text(info: Any) -> str:
    if isinstance(info, dict):
        if "passages" in info:  # QA: the question is not evidence; the passages are
            return str(info["passages"])
        return json.dumps(info, ensure_ascii=False)  # data-to-text: a JSON record
    return str(info)


def _labels(raw: Any) -> list[tuple[int, int]]:
    if isinstance(raw, str):
        try:
            raw = json.loads(raw)
        except ValueError:
            raw = ast.literal_eval(raw) if raw.strip() else []
    return [(int(x["start"]), int(x["end"])) for x in raw or [] if isinstance(x, dict) and "start" in x]


def load(path: Path, split: str) -> list[dict[str, Any]]:
    """Rows of {id, task, draft, source, spans} from either layout."""
    rows: list[dict[str, Any]] = []
    if path.is_dir():
        sources = {}
        for line in (path / "source_info.jsonl").read_text("utf-8").splitlines():
            item = json.loads(line)
            sources[str(item["source_id"])] = item
        for line in (path / "response.jsonl").read_text("utf-8").splitlines():
            item = json.loads(line)
            if item.get("split") != split or item.get("quality", "good") != "good":
                continue
            source = sources[str(item["source_id"])]
            rows.append({"id": str(item["id"]), "task": source["task_type"], "draft": item["response"],
                         "source": _source_text(source["source_info"]), "spans": _labels(item.get("labels"))})
        return rows
    for number, line in enumerate(path.read_text("utf-8").splitlines()):
        item = json.loads(line)
        if item.get("split", split) != split:
            continue
        rows.append({"id": str(item.get("id", number)), "task": item.get("task_type", "?"), "draft": item["output"],
                     "source": str(item.get("context", "")), "spans": _labels(item.get("hallucination_labels"))})
    return rows


def run_verifier(rows: list[dict[str, Any]]) -> tuple[dict[str, list[dict[str, Any]]], float]:
    with tempfile.NamedTemporaryFile("w", suffix=".jsonl", delete=False, encoding="utf-8") as handle:
        for row in rows:
            handle.write(json.dumps({"id": row["id"], "draft": row["draft"], "lang": "en",
                                     "sources": [{"label": "S1", "text": row["source"]}]}, ensure_ascii=False) + "\n")
    started = time.perf_counter()
    done = subprocess.run([str(RESEARCH), "verify", "--batch", handle.name, "--no-judge"],
                          capture_output=True, text=True, check=True)
    seconds = time.perf_counter() - started
    Path(handle.name).unlink()
    out = {}
    for line in done.stdout.splitlines():
        item = json.loads(line)
        out[item["id"]] = item["claims"]
    return out, seconds


def score(rows: list[dict[str, Any]], results: dict[str, list[dict[str, Any]]]) -> dict[str, dict[str, float]]:
    tally: dict[str, dict[str, float]] = defaultdict(lambda: defaultdict(float))
    for row in rows:
        claims = results.get(row["id"], [])
        hallucinated_response = bool(row["spans"])
        predicted = False
        flagged_without_judge = False
        for claim in claims:
            bad = any(s < claim["end"] and claim["start"] < e for s, e in row["spans"])
            for task in (row["task"], "all"):
                t = tally[task]
                t["claims"] += 1
                t["uncertain"] += claim["verdict"] == "uncertain"
                if bad:
                    t["bad"] += 1
                    t["bad_supported"] += claim["verdict"] == "supported"
                else:
                    t["clean"] += 1
                    t["clean_unsupported"] += claim["verdict"] == "unsupported"
            if claim["verdict"] == "unsupported" or (claim["verdict"] == "uncertain" and bad):
                predicted = True
            flagged_without_judge |= claim["verdict"] == "unsupported"
        for task in (row["task"], "all"):
            t = tally[task]
            t["responses"] += 1
            t["tp"] += predicted and hallucinated_response
            t["fp"] += predicted and not hallucinated_response
            t["fn"] += (not predicted) and hallucinated_response
            if not hallucinated_response:
                t["clean_responses"] += 1
                t["clean_flagged"] += flagged_without_judge
    return tally


def _share(a: float, b: float) -> str:
    return f"{a / b:6.1%}" if b else "   n/a"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("data", type=Path)
    parser.add_argument("--split", default="train")
    parser.add_argument("--limit", type=int, default=0)
    args = parser.parse_args(argv)
    rows = load(args.data, args.split)
    if args.limit:
        rows = rows[: args.limit]
    results, seconds = run_verifier(rows)
    tally = score(rows, results)
    print(f"RAGTruth {args.split}: {len(rows)} answers, {int(tally['all']['claims'])} claims, verified in {seconds:.1f} s")
    print("task        answers claims  halluc->supported  clean->unsupported  to judge  F1(oracle judge)  clean D2T flagged")
    for task in sorted(tally, key=lambda k: (k == "all", k)):
        t = tally[task]
        precision = t["tp"] / (t["tp"] + t["fp"]) if t["tp"] + t["fp"] else 0.0
        recall = t["tp"] / (t["tp"] + t["fn"]) if t["tp"] + t["fn"] else 0.0
        f1 = 2 * precision * recall / (precision + recall) if precision + recall else 0.0
        d2t = _share(t["clean_flagged"], t["clean_responses"]) if task in ("Data2txt", "all") else "     -"
        print(f"{task:10s} {int(t['responses']):7d} {int(t['claims']):6d}  {_share(t['bad_supported'], t['bad']):>17s}"
              f"  {_share(t['clean_unsupported'], t['clean']):>18s}  {_share(t['uncertain'], t['claims']):>8s}"
              f"  {f1:16.3f}  {d2t:>17s}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

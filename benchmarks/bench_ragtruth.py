"""The verifier on RAGTruth (Niu et al., ACL 2024; MIT licence): human span labels of what
six real LLMs hallucinated in QA, news summaries and data-to-text answers.

Every answer goes through ``research verify --batch --no-judge`` (a subprocess, as a user
would run it); a claim counts as hallucinated when it overlaps a labelled span. Printed per
task and overall:
- hallucinated claims judged supported (target <= 3%);
- clean claims judged unsupported without the judge (<= 3%);
- claims left to the judge, i.e. uncertain (<= 40%, issue 44);
- response-level F1 if every uncertain claim got its true label (>= 0.80);
- clean data-to-text answers flagged (<= 25%).

Data (never committed): either the original release's folder holding ``response.jsonl``
and ``source_info.jsonl``, or a JSONL export of the ``wandb/RAGTruth-processed`` schema
(``context``, ``output``, ``hallucination_labels``, ``task_type``, ``split``).

    .venv/bin/python benchmarks/bench_ragtruth.py /tmp/ragtruth [--split train] [--limit N]

Partial copy with response-level labels only (``--layout redeep``, also recognised by itself):
the ReDeEP repository's ``data/ragtruth-<model>-<split>.json`` files (a JSON array, or JSONL
holding some of its rows) carry, per answer of two of the six models (llama-2-7b-chat,
mistral-7B-instruct), ``correct_prompt`` (the source: news text, or a JSON object that is
either ``{"question", "passages"}`` for QA or a business record for data-to-text),
``response``, ``label`` (true: the annotators marked at least one hallucinated span) and
``wrong_prompt`` (another row's source, unused here). The task is read off the source's
shape; the model and the split off the file name. Without spans, no claim is known to be
hallucinated, so "hallucinated claims judged supported" and the oracle-judge F1 cannot be
computed. What the labels do allow, per task, per model and overall:
- in clean answers (every claim in them is clean): claims judged unsupported without the
  judge (target <= 3%), claims left to the judge (<= 50%), data-to-text answers with any
  claim unsupported (<= 25%);
- in hallucinated answers: the share with at least one claim unsupported or uncertain, i.e.
  the most a response-level detector that sends uncertain claims to a judge can catch;
- response-level precision, recall and F1 of "any claim unsupported" (no judge) and of
  "any claim unsupported or uncertain" (every uncertain claim counted as a flag);
- answers and claims counted.

    .venv/bin/python benchmarks/bench_ragtruth.py /work/shared/ragtruth-redeep --layout redeep
"""

from __future__ import annotations

import argparse
import ast
import gzip
import json
import random
import re
import subprocess
import sys
import tempfile
import time
from collections import defaultdict
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
from judge_standin import MINICHECK_RAGTRUTH_BACC, simulate_judge  # noqa: E402

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
    opener = gzip.open if path.suffix == ".gz" else open
    with opener(path, "rt", encoding="utf-8") as handle:
        lines = handle.read().splitlines()
    for number, line in enumerate(lines):
        item = json.loads(line)
        if item.get("split", split) != split:
            continue
        rows.append({"id": str(item.get("id", number)), "task": item.get("task_type", "?"), "draft": item["output"],
                     "source": str(item.get("context", "")), "spans": _labels(item.get("hallucination_labels"))})
    return rows


# ReDeEP names its files ragtruth-<model>-<split>.json; a part of one kept as JSONL adds a tag
# before the extension (ragtruth-llama-2-7b-chat-train.sample.jsonl).
REDEEP_NAME = re.compile(r"ragtruth-(?P<model>.+)-(?P<split>train|test)(?:\.[^.]+)?\.jsonl?$")


def _redeep_items(path: Path) -> list[dict[str, Any]]:
    text = path.read_text("utf-8")
    if text.lstrip().startswith("["):
        return json.loads(text)
    return [json.loads(line) for line in text.splitlines() if line.strip()]


def _redeep_source(prompt: str) -> tuple[str, str]:
    """(task, evidence text): the source's shape is the only record of its task in this layout."""
    try:
        info = json.loads(prompt)
    except ValueError:
        return "Summary", prompt
    if isinstance(info, dict):
        return ("QA" if "passages" in info else "Data2txt"), _source_text(info)
    return "Summary", prompt


def redeep_files(path: Path, split: str) -> list[Path]:
    candidates = sorted(path.iterdir()) if path.is_dir() else [path]
    return [p for p in candidates if (m := REDEEP_NAME.search(p.name)) and m["split"] == split]


def load_redeep(path: Path, split: str) -> list[dict[str, Any]]:
    """Rows of {id, task, model, draft, source, hallucinated} from ReDeEP's RAGTruth files."""
    rows: list[dict[str, Any]] = []
    for file in redeep_files(path, split):
        model = REDEEP_NAME.search(file.name)["model"]
        for number, item in enumerate(_redeep_items(file)):
            task, source = _redeep_source(item["correct_prompt"])
            rows.append({"id": f"{file.name}:{number}", "task": task, "model": model,
                         "draft": item["response"], "source": source, "hallucinated": bool(item["label"])})
    return rows


def detect_layout(path: Path, split: str) -> str:
    """redeep when a file is named like ReDeEP's and its first row has ReDeEP's source field."""
    if path.is_dir() and (path / "response.jsonl").exists():
        return "ragtruth"
    for file in redeep_files(path, split):
        with file.open(encoding="utf-8") as handle:
            if '"correct_prompt"' in handle.read(4096):
                return "redeep"
    return "ragtruth"


def run_verifier(rows: list[dict[str, Any]], research: Path = RESEARCH) -> tuple[dict[str, list[dict[str, Any]]], float]:
    with tempfile.NamedTemporaryFile("w", suffix=".jsonl", delete=False, encoding="utf-8") as handle:
        for row in rows:
            handle.write(json.dumps({"id": row["id"], "draft": row["draft"], "lang": "en",
                                     "sources": [{"label": "S1", "text": row["source"]}]}, ensure_ascii=False) + "\n")
    started = time.perf_counter()
    done = subprocess.run([str(research), "verify", "--batch", handle.name, "--no-judge"],
                          capture_output=True, text=True, check=True)
    seconds = time.perf_counter() - started
    Path(handle.name).unlink()
    out = {}
    for line in done.stdout.splitlines():
        item = json.loads(line)
        out[item["id"]] = item["claims"]
    return out, seconds


def score(rows: list[dict[str, Any]], results: dict[str, list[dict[str, Any]]],
          judge_accuracy: float = MINICHECK_RAGTRUTH_BACC, seed: int = 21) -> dict[str, dict[str, float]]:
    """Claim- and response-level tallies; the uncertain claims judged twice: by a perfect judge
    (the oracle F1) and by the stand-in at ``judge_accuracy`` (the end-to-end figures)."""
    rng = random.Random(seed)
    tally: dict[str, dict[str, float]] = defaultdict(lambda: defaultdict(float))
    for row in rows:
        claims = results.get(row["id"], [])
        hallucinated_response = bool(row["spans"])
        predicted = False
        predicted_standin = False
        flagged_without_judge = False
        for claim in claims:
            bad = any(s < claim["end"] and claim["start"] < e for s, e in row["spans"])
            final = claim["verdict"]
            if final == "uncertain":
                final = "supported" if simulate_judge(not bad, judge_accuracy, rng) else "unsupported"
            for task in (row["task"], "all"):
                t = tally[task]
                t["claims"] += 1
                t["uncertain"] += claim["verdict"] == "uncertain"
                if bad:
                    t["bad"] += 1
                    t["bad_supported"] += claim["verdict"] == "supported"
                    t["bad_supported_end"] += final == "supported"
                else:
                    t["clean"] += 1
                    t["clean_unsupported"] += claim["verdict"] == "unsupported"
                    t["clean_unsupported_end"] += final == "unsupported"
            if claim["verdict"] == "unsupported" or (claim["verdict"] == "uncertain" and bad):
                predicted = True
            predicted_standin |= final == "unsupported"
            flagged_without_judge |= claim["verdict"] == "unsupported"
        for task in (row["task"], "all"):
            t = tally[task]
            t["responses"] += 1
            t["tp"] += predicted and hallucinated_response
            t["fp"] += predicted and not hallucinated_response
            t["fn"] += (not predicted) and hallucinated_response
            t["s_tp"] += predicted_standin and hallucinated_response
            t["s_fp"] += predicted_standin and not hallucinated_response
            t["s_fn"] += (not predicted_standin) and hallucinated_response
            if not hallucinated_response:
                t["clean_responses"] += 1
                t["clean_flagged"] += flagged_without_judge
    return tally


def _f1(tp: float, fp: float, fn: float) -> float:
    precision = tp / (tp + fp) if tp + fp else 0.0
    recall = tp / (tp + fn) if tp + fn else 0.0
    return 2 * precision * recall / (precision + recall) if precision + recall else 0.0


def _share(a: float, b: float) -> str:
    return f"{a / b:6.1%}" if b else "   n/a"


def score_response_labels(rows: list[dict[str, Any]],
                          results: dict[str, list[dict[str, Any]]]) -> dict[str, dict[str, float]]:
    """Tallies keyed by task, by "model:<name>" and "all", from one yes/no label per answer."""
    tally: dict[str, dict[str, float]] = defaultdict(lambda: defaultdict(float))
    for row in rows:
        verdicts = [claim["verdict"] for claim in results.get(row["id"], [])]
        unsupported = "unsupported" in verdicts
        flagged_or_judged = unsupported or "uncertain" in verdicts
        for key in (row["task"], f"model:{row['model']}", "all"):
            t = tally[key]
            t["answers"] += 1
            t["claims"] += len(verdicts)
            t["uncertain"] += verdicts.count("uncertain")
            if row["hallucinated"]:
                t["halluc_answers"] += 1
                t["halluc_reached"] += flagged_or_judged
            else:
                t["clean_answers"] += 1
                t["clean_claims"] += len(verdicts)
                t["clean_unsupported"] += verdicts.count("unsupported")
                t["clean_uncertain"] += verdicts.count("uncertain")
                t["clean_flagged"] += unsupported
            # Two response-level detectors: "unsupported" alone (no judge) and "unsupported or
            # uncertain" (every claim sent to the judge counted as caught, the judge's best case).
            for name, predicted in (("u", unsupported), ("uu", flagged_or_judged)):
                t[f"{name}_tp"] += predicted and row["hallucinated"]
                t[f"{name}_fp"] += predicted and not row["hallucinated"]
                t[f"{name}_fn"] += (not predicted) and row["hallucinated"]
    return tally


def _prf(t: dict[str, float], name: str) -> str:
    tp, fp, fn = t[f"{name}_tp"], t[f"{name}_fp"], t[f"{name}_fn"]
    precision = tp / (tp + fp) if tp + fp else 0.0
    recall = tp / (tp + fn) if tp + fn else 0.0
    f1 = 2 * precision * recall / (precision + recall) if precision + recall else 0.0
    return f"{precision:.2f}/{recall:.2f}/{f1:.2f}"


def report_response_labels(tally: dict[str, dict[str, float]]) -> None:
    tasks = sorted(k for k in tally if k != "all" and not k.startswith("model:"))
    models = sorted(k for k in tally if k.startswith("model:"))
    print("Counts (response-level labels: clean = no hallucinated span, halluc = at least one)")
    print(f"{'group':28s} answers  clean  halluc  claims  claims/answer")
    for key in (*tasks, *models, "all"):
        t = tally[key]
        print(f"{key:28s} {int(t['answers']):7d} {int(t['clean_answers']):6d} {int(t['halluc_answers']):7d}"
              f" {int(t['claims']):7d}  {t['claims'] / t['answers']:13.1f}")
    print()
    print("Clean answers: their claims judged without the judge (targets: unsupported <= 3%, uncertain <= 50%;")
    print("clean data-to-text answers with any claim unsupported <= 25%)")
    print(f"{'group':28s} clean claims  unsupported  uncertain  clean D2T answers flagged")
    for key in (*tasks, *models, "all"):
        t = tally[key]
        d2t = _share(t["clean_flagged"], t["clean_answers"]) if key == "Data2txt" else "-"
        print(f"{key:28s} {int(t['clean_claims']):12d}  {_share(t['clean_unsupported'], t['clean_claims']):>11s}"
              f"  {_share(t['clean_uncertain'], t['clean_claims']):>9s}  {d2t:>25s}")
    print()
    print("Hallucinated answers caught, and response-level precision/recall/F1 of two detectors")
    print(f"{'group':28s} halluc answers  >=1 unsupported|uncertain  uncertain (all claims)"
          f"  P/R/F1 any unsupported  P/R/F1 any unsupported|uncertain")
    for key in (*tasks, *models, "all"):
        t = tally[key]
        print(f"{key:28s} {int(t['halluc_answers']):14d}  {_share(t['halluc_reached'], t['halluc_answers']):>24s}"
              f"  {_share(t['uncertain'], t['claims']):>22s}  {_prf(t, 'u'):>22s}  {_prf(t, 'uu'):>31s}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("data", type=Path)
    parser.add_argument("--split", default="train")
    parser.add_argument("--limit", type=int, default=0)
    parser.add_argument("--judge-accuracy", type=float, default=MINICHECK_RAGTRUTH_BACC,
                        help="the stand-in judge's balanced accuracy (default: Bespoke-MiniCheck-7B's published RAGTruth figure)")
    parser.add_argument("--seed", type=int, default=21)
    parser.add_argument("--json", action="store_true", help="also print the raw tallies as one JSON line")
    parser.add_argument("--layout", choices=("auto", "ragtruth", "redeep"), default="auto",
                        help="redeep: ReDeEP's ragtruth-<model>-<split>.json files (one label per answer)")
    parser.add_argument("--research", type=Path, default=RESEARCH,
                        help="the research command to measure (default: this checkout's .venv/bin/research)")
    args = parser.parse_args(argv)
    layout = detect_layout(args.data, args.split) if args.layout == "auto" else args.layout
    if layout == "redeep":
        rows = load_redeep(args.data, args.split)
        if args.limit:
            rows = rows[: args.limit]
        results, seconds = run_verifier(rows, args.research)
        tally = score_response_labels(rows, results)
        print(f"RAGTruth {args.split}, ReDeEP copy (response-level labels only, no spans): {len(rows)} answers,"
              f" {int(tally['all']['claims'])} claims, verified in {seconds:.1f} s")
        report_response_labels(tally)
        return 0
    rows = load(args.data, args.split)
    if args.limit:
        rows = rows[: args.limit]
    results, seconds = run_verifier(rows, args.research)
    tally = score(rows, results, args.judge_accuracy, args.seed)
    print(f"RAGTruth {args.split}: {len(rows)} answers, {int(tally['all']['claims'])} claims, verified in {seconds:.1f} s")
    print("Cheap checks alone (--no-judge); F1 with a perfect judge on the uncertain claims")
    print("task        answers claims  halluc->supported  clean->unsupported  to judge  F1(oracle judge)  clean D2T flagged")
    for task in sorted(tally, key=lambda k: (k == "all", k)):
        t = tally[task]
        d2t = _share(t["clean_flagged"], t["clean_responses"]) if task in ("Data2txt", "all") else "     -"
        print(f"{task:10s} {int(t['responses']):7d} {int(t['claims']):6d}  {_share(t['bad_supported'], t['bad']):>17s}"
              f"  {_share(t['clean_unsupported'], t['clean']):>18s}  {_share(t['uncertain'], t['claims']):>8s}"
              f"  {_f1(t['tp'], t['fp'], t['fn']):16.3f}  {d2t:>17s}")
    print()
    print(f"End to end, the uncertain claims decided by a stand-in judge at {args.judge_accuracy:.1%} balanced accuracy"
          f" (seed {args.seed}; benchmarks/judge_standin.py)")
    print("task        halluc->supported  clean->unsupported  response F1")
    for task in sorted(tally, key=lambda k: (k == "all", k)):
        t = tally[task]
        print(f"{task:10s}  {_share(t['bad_supported_end'], t['bad']):>17s}  {_share(t['clean_unsupported_end'], t['clean']):>18s}"
              f"  {_f1(t['s_tp'], t['s_fp'], t['s_fn']):11.3f}")
    print()
    print("What a lower word-share bar would buy: uncertain 'partial_overlap' claims called supported at score >= bar")
    print("bar    halluc->supported  to judge")
    for bar, bad_supported, to_judge in frontier(rows, results):
        print(f"{bar:4.2f}  {bad_supported:17.1%}  {to_judge:8.1%}")
    if args.json:
        print(json.dumps({k: dict(v) for k, v in tally.items()}))
    return 0


def frontier(rows: list[dict[str, Any]], results: dict[str, list[dict[str, Any]]],
             bars: tuple[float, ...] = (1.0, 0.8, 0.7, 0.6, 0.5, 0.4, 0.0)) -> list[tuple[float, float, float]]:
    """(bar, hallucinated claims called supported, claims left to the judge) if the claims the
    cheap checks leave uncertain only for want of shared words were called supported at that bar."""
    claims = [(c, any(s < c["end"] and c["start"] < e for s, e in row["spans"]))
              for row in rows for c in results.get(row["id"], [])]
    bad = sum(b for _, b in claims) or 1
    out = []
    for bar in bars:
        def supported(c: dict[str, Any]) -> bool:
            return c["verdict"] == "supported" or (
                c["verdict"] == "uncertain" and c.get("reason") == "partial_overlap" and float(c.get("score", 0)) >= bar)
        out.append((bar, sum(1 for c, b in claims if b and supported(c)) / bad,
                    sum(1 for c, _ in claims if c["verdict"] == "uncertain" and not supported(c)) / (len(claims) or 1)))
    return out


if __name__ == "__main__":
    sys.exit(main())

"""The verifier with a real model judging, on a fixed sample of RAGTruth train (QA and Summary).

What a local-first user has when no fact-checking model is installed: the quick checks, then
the drafting model judging what they leave open. Every answer goes through
``research verify --batch`` with the judge on (a subprocess, as a user would run it), against
an Ollama-compatible server (``../shared/realmodel``: Qwen2.5-Coder-1.5B). A claim counts as
hallucinated when it overlaps a human-labelled span.

Printed: hallucinated claims that end supported (target <= 10%), clean claims flagged
unsupported (<= 15%) and left "not checked", response-level precision / recall / F1 of "any
claim unsupported" (>= 0.75), and seconds per claim sent to the judge.

    ../shared/realmodel/start.sh 11500
    .venv/bin/python benchmarks/bench_judge_real.py ../shared/ragtruth/train.jsonl.gz \\
        --ollama http://127.0.0.1:11500 --model qwen2.5-coder:1.5b --per-class 30 [--save FILE]

The sample: ``--per-class`` hallucinated and as many clean answers of each of QA and Summary,
drawn with ``--seed`` from answers of at most ``--max-chars`` source characters (a small model
reads about 90 tokens a second on two cores).
"""

from __future__ import annotations

import argparse
import json
import os
import random
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_ragtruth import load  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
RESEARCH = ROOT / ".venv" / "bin" / "research"


def sample(rows: list[dict[str, Any]], per_class: int, seed: int, max_chars: int) -> list[dict[str, Any]]:
    rng = random.Random(seed)
    chosen: list[dict[str, Any]] = []
    for task in ("QA", "Summary"):
        for hallucinated in (True, False):
            pool = [r for r in rows if r["task"] == task and bool(r["spans"]) == hallucinated
                    and len(r["source"]) <= max_chars]
            pool.sort(key=lambda r: r["id"])
            chosen += rng.sample(pool, min(per_class // 2 if per_class > 1 else 1, len(pool)))
    return chosen


def run(rows: list[dict[str, Any]], ollama: str, model: str, num_ctx: int, judge: bool,
        choice: bool = False, lang: str = "en") -> tuple[dict[str, Any], float]:
    with tempfile.NamedTemporaryFile("w", suffix=".jsonl", delete=False, encoding="utf-8") as handle:
        for row in rows:
            handle.write(json.dumps({"id": row["id"], "draft": row["draft"], "lang": lang,
                                     "sources": [{"label": "S1", "text": row["source"]}]}, ensure_ascii=False) + "\n")
    env = {k: v for k, v in os.environ.items() if not k.startswith("RESEARCH_")}
    env.update(RESEARCH_OLLAMA_HOST=ollama, RESEARCH_MODEL=model, RESEARCH_NUM_CTX=str(num_ctx),
               RESEARCH_SESSIONS_DIR=tempfile.mkdtemp(prefix="judge-bench-"),
               RESEARCH_JUDGE_CHOICE="true" if choice else "false")
    started = time.perf_counter()
    command = [str(RESEARCH), "verify", "--batch", handle.name] + ([] if judge else ["--no-judge"])
    done = subprocess.run(command, capture_output=True, text=True, env=env)
    seconds = time.perf_counter() - started
    Path(handle.name).unlink()
    if done.returncode not in (0, 1):
        sys.exit(f"research verify failed ({done.returncode}): {done.stderr.strip()[-400:]}")
    out = {}
    for line in done.stdout.splitlines():
        item = json.loads(line)
        out[item["id"]] = item
    return out, seconds


def score(rows: list[dict[str, Any]], results: dict[str, Any]) -> dict[str, Any]:
    t = {k: 0 for k in ("h_claims", "h_supported", "h_unsupported", "h_unchecked", "c_claims", "c_supported",
                        "c_unsupported", "c_unchecked", "tp", "fp", "fn", "tn", "tp_u", "fp_u", "fn_u")}
    for row in rows:
        claims = results.get(row["id"], {}).get("claims", [])
        any_flag = any_flag_or_open = False
        for claim in claims:
            bad = any(claim["start"] < end and start < claim["end"] for start, end in row["spans"])
            prefix = "h" if bad else "c"
            t[f"{prefix}_claims"] += 1
            verdict = claim["verdict"]
            key = {"supported": "supported", "unsupported": "unsupported"}.get(verdict, "unchecked")
            t[f"{prefix}_{key}"] += 1
            any_flag |= verdict == "unsupported"
            any_flag_or_open |= verdict != "supported"
        truth = bool(row["spans"])
        t["tp" if truth and any_flag else "fn" if truth else "fp" if any_flag else "tn"] += 1
        if truth and any_flag_or_open:
            t["tp_u"] += 1
        elif truth:
            t["fn_u"] += 1
        elif any_flag_or_open:
            t["fp_u"] += 1
    return t


def f1(tp: int, fp: int, fn: int) -> tuple[float, float, float]:
    precision = tp / (tp + fp) if tp + fp else 0.0
    recall = tp / (tp + fn) if tp + fn else 0.0
    return precision, recall, (2 * precision * recall / (precision + recall) if precision + recall else 0.0)


def ceilings(rows: list[dict[str, Any]], results: dict[str, Any]) -> dict[str, Any]:
    """What a judge would reach on this sample from the verdicts given (best read on a --no-judge run).

    A judge asked about every claim left open with a doubt of wording (``partial_overlap``) that
    calls a clean one supported with probability p and a hallucinated one with probability q:
    the response-level F1 of "any claim not supported", computed from the expected counts
    (an answer stays unflagged only if every claim of it ends supported). Also a judge that is
    always right on those claims, and one always right on every open claim, whatever its doubt."""
    answers = []
    for row in rows:
        fixed = False  # a claim that stays not supported whatever such a judge says
        open_clean = open_bad = 0
        perfect_open = False
        for claim in results.get(row["id"], {}).get("claims", []):
            bad = any(claim["start"] < end and start < claim["end"] for start, end in row["spans"])
            if claim["verdict"] == "supported":
                continue
            if claim["verdict"] == "uncertain":
                perfect_open |= bad
                if claim.get("reason") == "partial_overlap":
                    open_bad += bad
                    open_clean += not bad
                    continue
            else:
                perfect_open = True
            fixed = True
        answers.append((bool(row["spans"]), fixed, open_clean, open_bad, perfect_open))

    def expected_f1(p: float, q: float) -> float:
        tp = fp = fn = 0.0
        for truth, fixed, open_clean, open_bad, _ in answers:
            flagged = 1.0 if fixed else 1.0 - p ** open_clean * q ** open_bad
            tp += flagged if truth else 0.0
            fn += 1.0 - flagged if truth else 0.0
            fp += 0.0 if truth else flagged
        return f1(tp, fp, fn)[2]  # type: ignore[arg-type]

    perfect_wording = f1(*_counts([(t, fixed or bad > 0) for t, fixed, _, bad, _ in answers]))[2]
    perfect_open = f1(*_counts([(t, flag) for t, *_, flag in answers]))[2]
    grid = {f"p={p}": {f"q={q}": round(expected_f1(p, q), 3) for q in (0.0, 0.1, 0.2, 0.3)}
            for p in (0.5, 0.6, 0.7, 0.8, 0.9, 1.0)}
    return {"partial_overlap_open": {"clean": sum(a[2] for a in answers), "hallucinated": sum(a[3] for a in answers)},
            "perfect_on_wording_f1": round(perfect_wording, 3), "perfect_on_every_open_claim_f1": round(perfect_open, 3),
            "expected_f1_by_p_q": grid}


def _counts(flags: list[tuple[bool, bool]]) -> tuple[int, int, int]:
    """(tp, fp, fn) of response-level flags against the truth."""
    return (sum(1 for truth, flag in flags if truth and flag), sum(1 for truth, flag in flags if not truth and flag),
            sum(1 for truth, flag in flags if truth and not flag))


def sample_options(description: str, *, per_class: int, seed: int) -> argparse.ArgumentParser:
    """The options of a bench that samples RAGTruth train and asks a real model: the data, the
    server and model, and the sample (this bench's and bench_cross_language.py's)."""
    parser = argparse.ArgumentParser(description=description)
    parser.add_argument("data", type=Path)
    parser.add_argument("--ollama", default="http://127.0.0.1:11500")
    parser.add_argument("--model", default="qwen2.5-coder:1.5b")
    parser.add_argument("--num-ctx", type=int, default=8192)
    parser.add_argument("--per-class", type=int, default=per_class,
                        help="hallucinated answers, and clean ones, in the sample")
    parser.add_argument("--seed", type=int, default=seed)
    parser.add_argument("--max-chars", type=int, default=3000)
    return parser


def main() -> None:
    parser = sample_options(__doc__.splitlines()[0], per_class=30, seed=44)
    parser.add_argument("--no-judge", action="store_true", help="the quick checks alone, for comparison")
    parser.add_argument("--no-choice", action="store_true",
                        help="RESEARCH_JUDGE_CHOICE=false: an untrusted verdict judge is not measured choosing (the "
                             "default measures it, and judges so where that is trusted)")
    parser.add_argument("--save", type=Path, help="write the verdicts and the tallies here (JSON)")
    parser.add_argument("--ceilings", action="store_true",
                        help="also print what a judge of the claims left open would reach (see ceilings())")
    args = parser.parse_args()
    rows = sample(load(args.data, "train"), args.per_class, args.seed, args.max_chars)
    results, seconds = run(rows, args.ollama, args.model, args.num_ctx, judge=not args.no_judge, choice=not args.no_choice)
    t = score(rows, results)
    judged = sum(1 for item in results.values() for c in item.get("claims", []) if c.get("reason") == "judge")
    p, r, f = f1(t["tp"], t["fp"], t["fn"])
    pu, ru, fu = f1(t["tp_u"], t["fp_u"], t["fn_u"])
    print(f"sample: {len(rows)} answers (seed {args.seed}; {sum(bool(r['spans']) for r in rows)} hallucinated), "
          f"judge {'off' if args.no_judge else args.model}, {seconds:.0f} s in all")
    print(f"hallucinated claims {t['h_claims']}: supported {t['h_supported'] / max(1, t['h_claims']):.1%}, "
          f"unsupported {t['h_unsupported'] / max(1, t['h_claims']):.1%}, not checked {t['h_unchecked'] / max(1, t['h_claims']):.1%}")
    print(f"clean claims {t['c_claims']}: supported {t['c_supported'] / max(1, t['c_claims']):.1%}, "
          f"flagged unsupported {t['c_unsupported'] / max(1, t['c_claims']):.1%}, not checked {t['c_unchecked'] / max(1, t['c_claims']):.1%}")
    print(f"response level, any claim unsupported: P {p:.2f} R {r:.2f} F1 {f:.2f}")
    print(f"response level, any claim not supported (unsupported or not checked): P {pu:.2f} R {ru:.2f} F1 {fu:.2f}")
    print(f"claims the judge decided: {judged}; seconds per judged claim {seconds / max(1, judged):.1f}")
    if args.ceilings:
        print("ceilings:", json.dumps(ceilings(rows, results)))
    if args.save:
        args.save.write_text(json.dumps({"tallies": t, "seconds": seconds, "results": results,
                                         "rows": [{"id": r["id"], "spans": r["spans"]} for r in rows]},
                                        ensure_ascii=False, indent=1), "utf-8")


if __name__ == "__main__":
    main()

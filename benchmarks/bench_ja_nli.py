"""The verifier on Japanese human-labelled pairs: JNLI, JSICK and JaNLI (``../shared/ja-nli``).

Each pair is a source (the premise) and a claim; the claim is cited to the source (``…[S1]。``)
and the pair goes through ``research verify --batch --no-judge`` (a subprocess, as a user would
run it). A verifier should call an entailed claim supported and any other claim not supported.
Printed per set (jnli, jsick, janli, and janli per heuristic with ``--by-heuristic``):
- false claims (contradiction, neutral, non-entailment) called supported without the judge
  (targets: <= 3% on JNLI and JSICK, <= 20% on JaNLI);
- true claims (entailment) called unsupported without the judge (<= 3%);
- claims left to the judge, i.e. uncertain (<= 40% over the file, issue 44).

    .venv/bin/python benchmarks/bench_ja_nli.py ../shared/ja-nli/dev.jsonl [--by-heuristic] [--json]

The data is never committed (CC BY-SA 4.0; see ``../shared/ja-nli/README.md``). Other splits are
held back for independent checks: tune on ``dev.jsonl`` only.
"""

from __future__ import annotations

import argparse
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
TRUE_LABELS = frozenset({"entailment"})


def cited(claim: str) -> str:
    """The claim as an answer would state it: the citation before the closing full stop."""
    body = claim.rstrip()
    if body.endswith(("。", ".", "．")):
        return body[:-1] + "[S1]" + body[-1]
    return body + "[S1]。"


def load(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text("utf-8").splitlines() if line.strip()]


def run_verifier(rows: list[dict[str, Any]], research: Path = RESEARCH) -> tuple[dict[str, list[dict[str, Any]]], float]:
    with tempfile.NamedTemporaryFile("w", suffix=".jsonl", delete=False, encoding="utf-8") as handle:
        for row in rows:
            handle.write(json.dumps({"id": row["id"], "draft": cited(row["claim"]), "lang": "ja",
                                     "sources": [{"label": "S1", "text": row["source"]}]}, ensure_ascii=False) + "\n")
    started = time.perf_counter()
    done = subprocess.run([str(research), "verify", "--batch", handle.name, "--no-judge", "--lang", "ja"],
                          capture_output=True, text=True, check=True)
    seconds = time.perf_counter() - started
    Path(handle.name).unlink()
    return {item["id"]: item["claims"] for item in map(json.loads, done.stdout.splitlines())}, seconds


def verdict_of(claims: list[dict[str, Any]]) -> str:
    """One verdict per pair: unsupported if any claim is, supported if all are, else uncertain.
    A pair that produced no claim at all counts as supported: nothing was flagged or checked."""
    verdicts = [c["verdict"] for c in claims]
    if "unsupported" in verdicts:
        return "unsupported"
    if verdicts and all(v == "supported" for v in verdicts):
        return "supported"
    return "uncertain" if verdicts else "supported"


def score(rows: list[dict[str, Any]], results: dict[str, list[dict[str, Any]]], by_heuristic: bool) -> dict[str, dict[str, float]]:
    tally: dict[str, dict[str, float]] = defaultdict(lambda: defaultdict(float))
    for row in rows:
        verdict = verdict_of(results.get(row["id"], []))
        true = row["label"] in TRUE_LABELS
        groups = [row["set"], "all"]
        if by_heuristic and row.get("heuristic"):
            groups.append(f"{row['set']}:{row['heuristic']}")
        for group in groups:
            t = tally[group]
            t["pairs"] += 1
            t["uncertain"] += verdict == "uncertain"
            if true:
                t["true"] += 1
                t["true_unsupported"] += verdict == "unsupported"
                t["true_supported"] += verdict == "supported"
            else:
                t["false"] += 1
                t["false_supported"] += verdict == "supported"
                t["false_unsupported"] += verdict == "unsupported"
    return tally


def _share(a: float, b: float) -> str:
    return f"{a / b:6.1%}" if b else "   n/a"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("data", type=Path)
    parser.add_argument("--by-heuristic", action="store_true", help="JaNLI rows per heuristic too")
    parser.add_argument("--json", action="store_true", help="print the tallies as JSON")
    parser.add_argument("--research", type=Path, default=RESEARCH,
                        help="the research command to measure (default: this checkout's .venv/bin/research)")
    args = parser.parse_args(argv)
    rows = load(args.data)
    results, seconds = run_verifier(rows, args.research)
    tally = score(rows, results, args.by_heuristic)
    if args.json:
        print(json.dumps({k: dict(v) for k, v in tally.items()}, indent=1))
        return 0
    print(f"ja-nli dev: {len(rows)} pairs, verified in {seconds:.1f} s (--no-judge)")
    print(f"{'set':34s} pairs  false->supported  true->unsupported  to judge  false->unsupported  true->supported")
    order = sorted(tally, key=lambda k: (k == "all", ":" in k, k))
    for key in order:
        t = tally[key]
        print(f"{key:34s} {int(t['pairs']):5d}  {_share(t['false_supported'], t['false']):>16s}"
              f"  {_share(t['true_unsupported'], t['true']):>17s}  {_share(t['uncertain'], t['pairs']):>8s}"
              f"  {_share(t['false_unsupported'], t['false']):>18s}  {_share(t['true_supported'], t['true']):>15s}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

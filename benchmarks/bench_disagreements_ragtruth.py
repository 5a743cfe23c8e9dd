"""False disagreements on real pages: RAGTruth's QA sources (Niu et al., ACL 2024; MIT licence).

Each QA item of RAGTruth gives a web search question (MS MARCO) and three passages taken
from different web pages. Nobody planted a disagreement in them, and they seldom contain a
real one, so what ``modules/text/disagreements.py`` reports there is almost all false: a
forecast for August against one for January, ski lengths for two body heights. Each
question is counted once (RAGTruth repeats it for six models). Printed: questions, facts
read, disagreements reported (each one printed with its sentences, to be read by a person),
and the borderline pairs a run would send to the judge.

    .venv/bin/python benchmarks/bench_disagreements_ragtruth.py /work/shared/ragtruth/train.jsonl.gz [--show 20]
"""

from __future__ import annotations

import argparse
import gzip
import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "src"))

from research.modules.text.disagreements import find_disagreements, summarise  # noqa: E402


def questions(path: Path) -> list[dict]:
    """The QA items of a ``wandb/RAGTruth-processed``-style JSONL (gzip or not), one per question."""
    opener = gzip.open if path.suffix == ".gz" else open
    seen: set[str] = set()
    out = []
    with opener(path, "rt", encoding="utf-8") as lines:
        for line in lines:
            item = json.loads(line)
            if item.get("task_type") == "QA" and item["query"] not in seen:
                seen.add(item["query"])
                out.append(item)
    return out


def main() -> None:
    cli = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    cli.add_argument("data", type=Path)
    cli.add_argument("--show", type=int, default=20, help="print at most this many reported disagreements")
    args = cli.parse_args()
    items = questions(args.data)
    facts = reported = borderline = 0
    for item in items:
        passages = [p for p in item["context"].split("\n\n") if p.strip()]
        sources = [{"label": f"S{n}", "title": "", "markdown": p, "status": "ok"} for n, p in enumerate(passages, 1)]
        findings = find_disagreements(sources, [item["query"]])
        found = summarise(findings.certain)
        facts += findings.facts
        borderline += len(findings.borderline)
        for disagreement in found:
            reported += 1
            if reported <= args.show:
                print(f"Q: {item['query']}")
                for position in disagreement["positions"]:
                    print(f"   {position['labels']} {position['value']} | {position['sentences'][0][:160]}")
    print(f"questions {len(items)}, facts {facts}, disagreements reported {reported}, "
          f"borderline pairs for the judge {borderline}")


if __name__ == "__main__":
    main()

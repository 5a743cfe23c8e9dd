"""Why a `research bench` lost each question it got wrong: where along the run the answer went.

Reads a bench's folder (results.jsonl and each question's session) and puts every wrong
question in the first step that lost it:

* **time**: the run failed or ran past --question-timeout (no answer to grade);
* **retrieval**: the page that answers it was never read (not found, or not fetched);
* **drafting**: the page was read, but the first draft is already wrong (pubmedqa: says no
  yes/no/maybe, or another one; jsquad: does not contain a gold span);
* **verification**: the first draft was right and the final, checked answer is not (a
  sentence removed or changed by verification or a follow-up round).

For drafting on JSQuAD it also says whether a gold span was in the text of the sources read
(processed.jsonl), so a page read but cut short is told apart from a model that had the
answer before it and did not say it.

    .venv/bin/python benchmarks/bench_why_wrong.py <sessions>/bench/jsquad-…  [--json]
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from research.orchestrator.bench.grading import normalise_span, plain
from research.orchestrator.bench.results import DONE, read_results


def _session(bench: Path, session_id: str) -> Path:
    return bench.parent.parent / f"session_{session_id}"


def _given_text(session: Path) -> str:
    """What the run read: the text of every source read (processed.jsonl, status ok)."""
    parts = []
    try:
        lines = (session / "processed.jsonl").read_text("utf-8", errors="replace").splitlines()
    except OSError:
        return ""
    for line in lines:
        try:
            entry = json.loads(line)
        except json.JSONDecodeError:
            continue
        if isinstance(entry, dict) and entry.get("status") == "ok":
            parts.append(str(entry.get("markdown") or ""))
    return "\n".join(parts)


def why(bench: Path) -> list[dict[str, Any]]:
    set_name = json.loads((bench / "bench.json").read_text("utf-8"))["set"]
    rows = []
    for result in read_results(bench / "results.jsonl"):
        if result.correct:
            continue
        row: dict[str, Any] = {"item_id": result.item_id, "gold": result.gold, "predicted": result.predicted,
                               "draft_predicted": result.draft_predicted, "question": result.question}
        if result.status != DONE:
            row["step"], row["detail"] = "time", result.error
        elif not result.own_page_read:
            row["step"], row["detail"] = "retrieval", f"{result.sources_read} sources read, not the answering page"
        elif result.draft_correct:
            row["step"], row["detail"] = "verification", "the first draft was right"
        else:
            row["step"] = "drafting"
            if set_name == "jsquad" and result.session_id:
                given = normalise_span(_given_text(_session(bench, result.session_id)))
                present = any(normalise_span(span) in given for span in result.gold)
                row["detail"] = "the gold span was in the sources read" if present else \
                    "the gold span was not in the sources' text as read"
            else:
                row["detail"] = f"draft read as {result.draft_predicted or 'no verdict'}"
        row["answer"] = plain(result.answer)[:300]
        rows.append(row)
    return rows


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("bench", type=Path, help="the folder of a bench that ran")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    rows = why(args.bench)
    if args.json:
        print(json.dumps(rows, ensure_ascii=False, indent=2))
        return 0
    counts: dict[str, int] = {}
    for row in rows:
        counts[row["step"]] = counts.get(row["step"], 0) + 1
    print(f"{len(rows)} wrong: " + ", ".join(f"{step} {n}" for step, n in sorted(counts.items())))
    for row in rows:
        print(f"- {row['item_id']} [{row['step']}] gold {row['gold'][:2]} read {row['predicted']!r} "
              f"(draft {row['draft_predicted']!r}): {row['detail']}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

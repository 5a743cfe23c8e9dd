"""Every sentence of a folder of pages, read as a claim against the page it is from.

Such a claim is true by construction: any that the quick checks do not call supported is a
check holding back a true sentence. The figure complements the human-labelled sets (RAGTruth,
ja-nli), which measure false claims let through far better than true ones held back, and it runs
on pages nobody here wrote: the corpus folders `research bench` writes (JSQuAD's 1,145 pages,
PubMedQA's 500; `<sessions>/bench/corpus/<set>-<digest>/`).

    .venv/bin/python benchmarks/bench_own_sentences.py <corpus folder> --lang ja [--show 10] [--json]

Printed: the sentences read, the share supported, and the count of each other outcome and reason
(``--show N``: N sentences of each, to read). A sentence is read when it ends as a sentence does
(。 or .), is not a heading and is one claim once cited (``split_claims``).
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter, defaultdict
from pathlib import Path

from research.modules.text.claims import split_claims
from research.modules.text.evidence import EvidenceIndex, assess_claim
from research.modules.text.passages import sentence_spans


def own_sentences(folder: Path, lang: str) -> tuple[Counter[tuple[str, str]], dict[str, list[str]]]:
    """(outcome, reason) counts over every sentence of every page, and the sentences held back by reason."""
    end, cited = ("。", "[S1]。") if lang == "ja" else (".", " [S1].")
    counts: Counter[tuple[str, str]] = Counter()
    held: dict[str, list[str]] = defaultdict(list)
    for page_path in sorted(folder.glob("*.md")):
        page = page_path.read_text("utf-8")
        index = EvidenceIndex([{"label": "S1", "status": "ok", "markdown": page, "language": lang}])
        for line in page.splitlines():
            if not line.strip() or line.lstrip().startswith("#"):
                continue
            for start, stop in sentence_spans(line):
                sentence = line[start:stop].strip()
                if len(sentence) < 8 or not sentence.endswith(end):
                    continue
                claims = split_claims(sentence[: -len(end)] + cited)
                if len(claims) != 1:
                    continue
                found = assess_claim(claims[0], index)
                counts[(found.outcome, found.reason)] += 1
                if found.outcome != "supported":
                    held[found.reason].append(sentence)
    return counts, held


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("folder", type=Path, help="a folder of Markdown pages (a bench's corpus)")
    parser.add_argument("--lang", choices=("ja", "en"), required=True)
    parser.add_argument("--show", type=int, default=0, help="sentences of each reason to print")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    if not args.folder.is_dir():
        parser.error(f"no folder at {args.folder}")
    counts, held = own_sentences(args.folder, args.lang)
    total = sum(counts.values())
    if not total:
        print(f"no sentence read in {args.folder}", file=sys.stderr)
        return 1
    supported = counts[("supported", "supported")]
    if args.json:
        print(json.dumps({"sentences": total, "supported": supported,
                          "held_back": {f"{o}/{r}": n for (o, r), n in counts.items() if o != "supported"}}))
        return 0
    print(f"{args.folder}: {total} sentences, {supported} supported ({100 * supported / total:.1f} %)")
    for (outcome, reason), n in counts.most_common():
        if outcome != "supported":
            print(f"  {outcome:11s} {reason:22s} {n}")
            for sentence in held[reason][: args.show]:
                print(f"      {sentence[:160]}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

"""Japanese claims against English sources: the verifier across languages, on RAGTruth train.

A Japanese user's answer often rests on English pages. No labelled data pairs a Japanese
claim with an English passage, so this bench makes them from RAGTruth's human labels: each
sentence of a sampled English answer is translated into Japanese by the model under test
(``REWRITE_SYSTEM["ja"]``, the program's own translation prompt), and a Japanese sentence is
hallucinated where its English original overlaps a human-labelled span. The Japanese answers
then go through ``research verify --batch`` (lang ja) against the English sources, as a user
would run it, with the judge on (the program translates each claim back into its sources'
language and checks the translation, ``nodes/verification.check_across_languages``) or off.

The translations into Japanese are the same model's and are kept in ``--cache`` (a JSON file),
so a second run checks the same Japanese sentences. A sentence the model did not translate into
Japanese is left out of the sample (counted). ``--english`` checks the English originals of the
same sentences instead: the same claims in their sources' language, the reference.

    ../shared/realmodel/start.sh 11500
    .venv/bin/python benchmarks/bench_cross_language.py ../shared/ragtruth/train.jsonl.gz \\
        --ollama http://127.0.0.1:11500 --per-class 16 --seed 48 --cache /tmp/ja-claims.json
"""

from __future__ import annotations

import asyncio
import json
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_judge_real import f1, run, sample, sample_options, score  # noqa: E402
from bench_ragtruth import load  # noqa: E402

from research.modules.text.claims import split_claims  # noqa: E402
from research.modules.text.language_check import is_wrong_language  # noqa: E402
from research.workflow.prompts import SENTENCE_ITEM  # noqa: E402
from research.workflow.verification_prompts import REWRITE_SYSTEM  # noqa: E402


async def translate(client: Any, model: str, sentences: list[str]) -> dict[int, str]:
    """The model's Japanese for each sentence (by number), through the program's own prompt."""
    items = "\n".join(SENTENCE_ITEM["ja"].format(id=n, text=s) for n, s in enumerate(sentences, 1))
    reply = await client.chat(model=model, format="json", options={"temperature": 0, "num_ctx": 8192,
                                                                       # a model that starts repeating itself stops
                                                                       "num_predict": 120 * len(sentences) + 60},
                              messages=[{"role": "system", "content": REWRITE_SYSTEM["ja"]},
                                        {"role": "user", "content": items}])
    try:
        data = json.loads(reply["message"]["content"])
        return {int(item["id"]): str(item["text"]) for item in data.get("sentences", [])}
    except (ValueError, KeyError, TypeError):
        return {}


async def japanese_rows(rows: list[dict[str, Any]], ollama: str, model: str, cache: Path | None,
                        english: bool = False) -> tuple[list[dict[str, Any]], int, int]:
    """Each row's draft in Japanese, one line per sentence, with the spans of the sentences whose
    English original is hallucinated; also how many sentences were translated and left out.
    ``english``: the English originals of the same sentences instead (the same claims, checked
    in their sources' language: the reference)."""
    import ollama as ollama_client  # noqa: PLC0415

    kept: dict[str, Any] = json.loads(cache.read_text("utf-8")) if cache and cache.exists() else {}
    client = ollama_client.AsyncClient(host=ollama, timeout=1800)
    out: list[dict[str, Any]] = []
    translated = left_out = 0
    for number, row in enumerate(rows, 1):
        claims = split_claims(row["draft"])
        english_sentences = [c.plain for c in claims]
        bad = [any(c.start < end and start < c.end for start, end in row["spans"]) for c in claims]
        if row["id"] not in kept:
            replies = await translate(client, model, english_sentences)
            kept[row["id"]] = [replies.get(n, "") for n in range(1, len(english_sentences) + 1)]
            if cache:
                cache.write_text(json.dumps(kept, ensure_ascii=False, indent=1), "utf-8")
            print(f"  translated {number}/{len(rows)} ({row['id']})", file=sys.stderr)
        draft, spans = "", []
        for text, original, hallucinated in zip(kept[row["id"]], english_sentences, bad):
            text = " ".join(text.split())
            if not text or is_wrong_language(text, "ja")[0]:
                left_out += 1
                continue
            translated += 1
            if english:
                sentence = " ".join(original.split())
            else:
                sentence = text if text.endswith(("。", "！", "？")) else text + "。"
            if hallucinated:
                spans.append((len(draft), len(draft) + len(sentence)))
            draft += sentence + "\n"
        out.append({**row, "draft": draft, "spans": spans})
    return out, translated, left_out


def main() -> None:
    parser = sample_options(__doc__.splitlines()[0], per_class=16, seed=48)
    parser.add_argument("--cache", type=Path, help="the Japanese sentences, kept between runs (JSON)")
    parser.add_argument("--no-judge", action="store_true", help="the quick checks alone (no translation back)")
    parser.add_argument("--english", action="store_true",
                        help="the English originals of the same sentences (the reference: no language to cross)")
    parser.add_argument("--save", type=Path, help="write the verdicts and the tallies here (JSON)")
    args = parser.parse_args()
    rows = sample(load(args.data, "train"), args.per_class, args.seed, args.max_chars)
    rows, translated, left_out = asyncio.run(japanese_rows(rows, args.ollama, args.model, args.cache, args.english))
    started = time.perf_counter()
    results, seconds = run(rows, args.ollama, args.model, args.num_ctx, judge=not args.no_judge, choice=True,
                           lang="en" if args.english else "ja")
    t = score(rows, results)
    by_reason: dict[str, int] = {}
    for item in results.values():
        for claim in item.get("claims", []):
            by_reason[claim.get("reason", "")] = by_reason.get(claim.get("reason", ""), 0) + 1
    p, r, f = f1(t["tp"], t["fp"], t["fn"])
    pu, ru, fu = f1(t["tp_u"], t["fp_u"], t["fn_u"])
    print(f"sample: {len(rows)} answers (seed {args.seed}; {sum(bool(r['spans']) for r in rows)} with a hallucinated "
          f"sentence), {translated} {'English originals of the' if args.english else ''} Japanese sentences ({left_out} left out), {'quick checks only' if args.no_judge else args.model}, "
          f"{time.perf_counter() - started:.0f} s to verify")
    print(f"hallucinated claims {t['h_claims']}: supported {t['h_supported'] / max(1, t['h_claims']):.1%}, "
          f"unsupported {t['h_unsupported'] / max(1, t['h_claims']):.1%}, not checked {t['h_unchecked'] / max(1, t['h_claims']):.1%}")
    print(f"clean claims {t['c_claims']}: supported {t['c_supported'] / max(1, t['c_claims']):.1%}, "
          f"flagged unsupported {t['c_unsupported'] / max(1, t['c_claims']):.1%}, not checked {t['c_unchecked'] / max(1, t['c_claims']):.1%}")
    print(f"response level, any claim unsupported: P {p:.2f} R {r:.2f} F1 {f:.2f}; "
          f"any claim not supported: P {pu:.2f} R {ru:.2f} F1 {fu:.2f}")
    print("reasons: " + ", ".join(f"{k or '-'} {v}" for k, v in sorted(by_reason.items(), key=lambda kv: -kv[1])))
    if args.save:
        args.save.write_text(json.dumps({"tallies": t, "seconds": seconds, "results": results,
                                         "rows": [{"id": r["id"], "draft": r["draft"], "spans": r["spans"]} for r in rows]},
                                        ensure_ascii=False, indent=1), "utf-8")


if __name__ == "__main__":
    main()

"""A stand-in for the judge in benchmarks: right with a given probability, never better.

The verifier sends the claims its cheap checks leave uncertain to a judge. No judge model
runs in a benchmark here (no weights, no GPU), so an end-to-end figure would either assume a
perfect judge (too kind) or none (too harsh). This stand-in sits between: for each uncertain
claim it returns the human label with probability ``accuracy`` and its opposite otherwise,
on both classes alike, so its balanced accuracy is ``accuracy``.

The figure to use is the checker's published one, ``MINICHECK_RAGTRUTH_BACC``: 84.0%
balanced accuracy for Bespoke-MiniCheck-7B on the RAGTruth part of LLM-AggreFact (the
LLM-AggreFact leaderboard, https://llm-aggrefact.github.io/, "RAGTruth" column; 77.4% is its
average over the eleven datasets, https://docs.bespokelabs.ai/minicheck/overview). That is
the model `ollama pull bespoke-minicheck` installs, though Ollama serves a quantised copy
and answers Yes/No without the probability the leaderboard thresholds, so the real figure
here may be lower. The same leaderboard gives Granite Guardian 3.3 (8B) 82.2% on RAGTruth.
The checker is trained on English; nothing here says how it does on Japanese.

    import random
    from judge_standin import MINICHECK_RAGTRUTH_BACC, simulate_judge
    rng = random.Random(21)
    said_supported = simulate_judge(truth=claim_is_clean, accuracy=MINICHECK_RAGTRUTH_BACC, rng=rng)

Run as a script to see the stand-in's own balanced accuracy on N simulated claims:

    .venv/bin/python benchmarks/judge_standin.py [--accuracy 0.84] [--claims 20000] [--seed 21]
"""

from __future__ import annotations

import argparse
import random

MINICHECK_RAGTRUTH_BACC = 0.840  # LLM-AggreFact leaderboard, RAGTruth column, Bespoke-MiniCheck-7B
GRANITE_GUARDIAN_RAGTRUTH_BACC = 0.822  # the same board, Granite Guardian 3.3 8B


def simulate_judge(truth: bool, accuracy: float, rng: random.Random) -> bool:
    """The judge's "supported" for a claim whose human label is ``truth`` (True: supported).

    Right with probability ``accuracy`` whatever the label, so over many claims the
    balanced accuracy is ``accuracy``. ``rng`` is the caller's seeded generator: the same
    seed and the same order of claims give the same verdicts.
    """
    if not 0.0 <= accuracy <= 1.0:
        raise ValueError(f"accuracy must be between 0 and 1, not {accuracy}")
    return truth if rng.random() < accuracy else not truth


def balanced_accuracy(pairs: list[tuple[bool, bool]]) -> float:
    """Mean of the recall on each class, for ``(truth, said)`` pairs."""
    recalls = []
    for label in (True, False):
        said = [s for t, s in pairs if t is label]
        if said:
            recalls.append(sum(s is label for s in said) / len(said))
    return sum(recalls) / len(recalls) if recalls else 0.0


def main() -> None:
    cli = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    cli.add_argument("--accuracy", type=float, default=MINICHECK_RAGTRUTH_BACC)
    cli.add_argument("--claims", type=int, default=20000)
    cli.add_argument("--seed", type=int, default=21)
    cli.add_argument("--clean-share", type=float, default=0.8, help="share of claims whose label is supported")
    args = cli.parse_args()
    rng = random.Random(args.seed)
    truths = [rng.random() < args.clean_share for _ in range(args.claims)]
    pairs = [(truth, simulate_judge(truth, args.accuracy, rng)) for truth in truths]
    print(f"claims {args.claims}  clean share {args.clean_share:.2f}  accuracy asked {args.accuracy:.3f}  "
          f"balanced accuracy measured {balanced_accuracy(pairs):.3f}")


if __name__ == "__main__":
    main()

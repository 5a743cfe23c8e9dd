"""The benchmarks' stand-in judge (benchmarks/judge_standin.py): right as often as it is told,
on each class alike, and reproducible from its seed."""

from __future__ import annotations

import random
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "benchmarks"))

from judge_standin import MINICHECK_RAGTRUTH_BACC, balanced_accuracy, simulate_judge  # noqa: E402


def _run(accuracy: float, seed: int, truths: list[bool]) -> list[tuple[bool, bool]]:
    rng = random.Random(seed)
    return [(truth, simulate_judge(truth, accuracy, rng)) for truth in truths]


def test_balanced_accuracy_is_the_one_asked_for_on_each_class():
    truths = [n % 5 != 0 for n in range(20000)]  # 80% clean, as in RAGTruth's sentences
    pairs = _run(MINICHECK_RAGTRUTH_BACC, 3, truths)
    for label in (True, False):
        said = [s for t, s in pairs if t is label]
        assert abs(sum(s is label for s in said) / len(said) - MINICHECK_RAGTRUTH_BACC) < 0.02
    assert abs(balanced_accuracy(pairs) - MINICHECK_RAGTRUTH_BACC) < 0.01


def test_the_ends_and_the_seed():
    truths = [True, False] * 50
    assert [s for _, s in _run(1.0, 1, truths)] == truths
    assert [s for _, s in _run(0.0, 1, truths)] == [not t for t in truths]
    assert _run(0.7, 5, truths) == _run(0.7, 5, truths)
    with pytest.raises(ValueError):
        simulate_judge(True, 1.5, random.Random(0))

"""The few statistics a bench reports: a Wilson score interval for an accuracy (right at
small samples and at 0 % or 100 %, where the normal approximation is not) and percentiles."""

from __future__ import annotations

import math

Z95 = 1.959963984540054  # the normal quantile for a two-sided 95 % interval


def wilson(correct: int, total: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of correct/total, as fractions; (0, 1) for no trials."""
    if total <= 0:
        return 0.0, 1.0
    p = correct / total
    denominator = 1 + z * z / total
    centre = (p + z * z / (2 * total)) / denominator
    half = z * math.sqrt(p * (1 - p) / total + z * z / (4 * total * total)) / denominator
    # The interval holds p; rounding must not put p outside it (30/30 gave high = p - 1e-16,
    # a negative error bar that the report's chart refused).
    return max(0.0, min(p, centre - half)), min(1.0, max(p, centre + half))


def percentile(values: list[float], q: float) -> float | None:
    """The q-th percentile (0–100), linear between the closest ranks; None for no values."""
    if not values:
        return None
    ordered = sorted(values)
    rank = (len(ordered) - 1) * q / 100
    low, high = math.floor(rank), math.ceil(rank)
    return ordered[low] + (ordered[high] - ordered[low]) * (rank - low)

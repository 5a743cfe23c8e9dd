"""A CJK-aware token estimate for budgeting prompts against ``num_ctx``.

English averages about four characters per token; Japanese is closer to one
character per token (kana and kanji are often single tokens or split further),
so counting Japanese at English rates would overflow the context by ~3x.
"""

from __future__ import annotations

import math

from research.modules.core.language import japanese_chars


def estimate_tokens(text: str) -> int:
    cjk = japanese_chars(text)
    other = len(text) - cjk
    return cjk + math.ceil(other / 3.5)


def fitting_prefix(text: str, budget: int, *, at_least: int = 0) -> int:
    """The length of the longest prefix of ``text`` whose estimate fits ``budget`` (binary
    search: the estimate grows with the prefix), but never under ``at_least``."""
    lo, hi = at_least, len(text)
    while lo < hi:
        mid = (lo + hi + 1) // 2
        if estimate_tokens(text[:mid]) <= budget:
            lo = mid
        else:
            hi = mid - 1
    return lo


def truncate_to_tokens(text: str, budget: int) -> str:
    """The longest prefix of ``text`` whose estimate fits ``budget`` (cut at a line if possible)."""
    if budget <= 0:
        return ""
    if estimate_tokens(text) <= budget:
        return text
    cut = text[:fitting_prefix(text, budget)]
    newline = cut.rfind("\n")
    return cut[:newline] if newline > len(cut) // 2 else cut

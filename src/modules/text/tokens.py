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


def truncate_to_tokens(text: str, budget: int) -> str:
    """The longest prefix of ``text`` whose estimate fits ``budget`` (cut at a line if possible)."""
    if budget <= 0:
        return ""
    if estimate_tokens(text) <= budget:
        return text
    lo, hi = 0, len(text)
    while lo < hi:
        mid = (lo + hi + 1) // 2
        if estimate_tokens(text[:mid]) <= budget:
            lo = mid
        else:
            hi = mid - 1
    cut = text[:lo]
    newline = cut.rfind("\n")
    return cut[:newline] if newline > len(cut) // 2 else cut

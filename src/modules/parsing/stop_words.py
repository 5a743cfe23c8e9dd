"""A large, fixed set of words held as a hash table of their 64-bit hashes.

trafilatura's jusText fallback reads, for a page whose language it is not told (how the
parser calls it), the union of jusText's stop-word lists for every language: 154,000 words.
As a frozenset of str that is 18 MiB of small objects in the parser's fork server, which
builds it once so that every document's child shares it. ``StopWords`` keeps only each word's
``hash`` (64 bits), in one array whose buckets (ranges of it; the bucket is the hash's lowest
16 bits) hold two or three hashes each: 2.0 MB, and a lookup (the bucket's few hashes) about
1 µs, a few milliseconds on a page jusText reads.

The words themselves are not kept, so two words of one hash are one word here. CPython's str
hash is 64-bit SipHash with a per-process key: a word that is not a stop word is taken for one
with a chance of about 154,000 / 2**64, 1 in 10**14 per lookup, and then counts once in a
paragraph's stop-word density, which jusText compares with thresholds (0.30, 0.32). Keeping the
words as well (an earlier form: one string of them and where each starts) cost 2.7 MB more in the
fork server, which every run holds while its other processes are at their largest, and a third
more time to build.

It is built one list at a time, so that no more than one language's words are str objects at
once, and the table is sized by counting first, so that nothing is copied as it grows: the
parser's fork server builds it in its warm-up (0.15 s), peaking about 5 MB above where it
began.
"""

from __future__ import annotations

from array import array
from collections.abc import Iterable
from itertools import accumulate

_MASK = (1 << 16) - 1  # 65,536 buckets: two or three hashes each


class StopWords:
    """A read-only set of str, held as their hashes. ``hash`` of a str differs from one
    interpreter to the next, so one is built in the process that reads it or in a parent it is
    forked from, never stored."""

    __slots__ = ("_hashes", "_first", "_end", "_size")

    def __init__(self, lists: Iterable[Iterable[str]]) -> None:
        """``lists``: the words, in lists (one a language) that may share words."""
        counts = array("I", bytes(4 * (_MASK + 2)))
        runs: list[array] = []  # each list's hashes, in its order
        for given in lists:
            hashes = array("q", map(hash, given))
            for key in hashes:
                counts[(key & _MASK) + 1] += 1
            runs.append(hashes)
        # Each bucket's hashes begin at its ``_first`` and end at its ``_end``: a word that an
        # earlier list gave already takes no entry, so the room counted for it stays empty.
        first = array("I", accumulate(counts))
        del counts
        end = array("I", first)
        table = array("q", bytes(8 * first[-1]))
        size = 0
        runs.reverse()  # taken from the end, first list first, each let go once it is read
        while runs:
            for key in runs.pop():
                bucket = key & _MASK
                stop = end[bucket]
                if key not in table[first[bucket]:stop]:
                    table[stop] = key
                    end[bucket] = stop + 1
                    size += 1
        self._hashes, self._first, self._end, self._size = table, first, end, size

    def __len__(self) -> int:
        return self._size

    def __contains__(self, word: object) -> bool:
        if not isinstance(word, str):
            return False
        key = hash(word)
        bucket = key & _MASK
        return key in self._hashes[self._first[bucket]:self._end[bucket]]

"""A large, fixed set of words held as three arrays instead of a set of str objects.

trafilatura's jusText fallback reads, for a page whose language it is not told (how the
parser calls it), the union of jusText's stop-word lists for every language: 154,000 words.
As a frozenset of str that is about 15.5 MB of small objects, 18 MiB of the parser's fork
server, which builds it once so that every document's child shares it. ``StopWords`` holds
the same words in about 5 MB: the words' hashes in ascending order, where each word starts,
and one string of all of them in that order. A lookup is a binary search over the hashes and
a comparison with each word of an equal hash, so it answers exactly as the set does, in
about 1 µs instead of 0.1 (a few milliseconds on a page jusText reads).
"""

from __future__ import annotations

from array import array
from bisect import bisect_left
from collections.abc import Iterable, Iterator
from itertools import accumulate


class StopWords:
    """A read-only set of str. ``hash`` of a str differs from one interpreter to the next, so
    one is built in the process that reads it or in a parent it is forked from, never stored."""

    __slots__ = ("_hashes", "_starts", "_text")

    def __init__(self, words: Iterable[str]) -> None:
        ordered = sorted(frozenset(words), key=hash)
        self._hashes = array("q", map(hash, ordered))  # a str's hash is a C Py_ssize_t: 64 bits here
        self._starts = array("I", accumulate(map(len, ordered), initial=0))
        self._text = "".join(ordered)

    def __len__(self) -> int:
        return len(self._hashes)

    def __contains__(self, word: object) -> bool:
        if not isinstance(word, str):
            return False
        hashes, key = self._hashes, hash(word)
        index = bisect_left(hashes, key)
        while index < len(hashes) and hashes[index] == key:  # two words of one hash: each compared
            if self._word(index) == word:
                return True
            index += 1
        return False

    def __iter__(self) -> Iterator[str]:
        return map(self._word, range(len(self)))

    def _word(self, index: int) -> str:
        return self._text[self._starts[index] : self._starts[index + 1]]

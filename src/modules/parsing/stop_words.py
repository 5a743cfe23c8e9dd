"""A large, fixed set of words held as one string and a hash table of arrays.

trafilatura's jusText fallback reads, for a page whose language it is not told (how the
parser calls it), the union of jusText's stop-word lists for every language: 154,000 words.
As a frozenset of str that is 18 MiB of small objects in the parser's fork server, which
builds it once so that every document's child shares it. ``StopWords`` holds the same words
in about 5 MB: all of them in one string, each followed by a newline, and a hash table whose
buckets (ranges of two arrays; the bucket is the hash's lowest 16 bits) give 32 more bits of
each word's hash and where it starts in that string. A lookup reads its bucket (two or three
entries) and compares the word of equal bits, so it answers exactly as the set does, in about
1 µs instead of 0.1: a few milliseconds on a page jusText reads. It is built one list at a time, so that no more than one language's words are
str objects at once (a set of all of them first, then sorted, held 27 MiB while it was built),
and the text grows in place rather than being joined from its pieces: the parser's fork server
builds it in its warm-up, while a run's other processes are at their largest, and peaked 11.5 MiB
of RSS above where it began, about 7.5 now (4.5 kept once the warm-up hands back the free heap).
"""

from __future__ import annotations

from array import array
from collections.abc import Iterable, Iterator
from itertools import accumulate

_MASK = (1 << 16) - 1  # 65,536 buckets: two or three words each
_TAG = (1 << 32) - 1  # what a bucket keeps of each word's hash: the 32 bits above the bucket's 16


class StopWords:
    """A read-only set of str (none holding a newline). ``hash`` of a str differs from one
    interpreter to the next, so one is built in the process that reads it or in a parent it
    is forked from, never stored."""

    __slots__ = ("_text", "_hashes", "_starts", "_first", "_end", "_size")

    def __init__(self, lists: Iterable[Iterable[str]]) -> None:
        """``lists``: the words, in lists (one a language) that may share words."""
        counts = array("I", bytes(4 * (_MASK + 2)))
        runs: list[array] = []  # each list's hashes, in its order
        text = ""
        for given in lists:
            words = list(given)
            piece = "\n".join(words) + "\n" if words else ""
            if piece.count("\n") != len(words):
                raise ValueError("a word holds a newline")
            hashes = array("q", map(hash, words))
            for key in hashes:
                counts[(key & _MASK) + 1] += 1
            runs.append(hashes)
            # Grown in place where CPython can (the only reference, resized), so the text is not
            # held twice, as its pieces and joined; where each word starts is read from it as the
            # table is filled, not kept for every list. So while it is built this holds the text,
            # the lists' hashes and the table, no more.
            text += piece
            del piece
        self._text = text
        del text
        # Each bucket's entries begin at its ``_first`` and end at its ``_end``: a word that an
        # earlier list gave already takes no entry, so the room counted for it stays empty.
        self._first = array("I", accumulate(counts))
        del counts
        self._end = array("I", self._first)
        self._hashes = array("I", bytes(4 * self._first[-1]))
        self._starts = array("I", bytes(4 * self._first[-1]))
        self._size = 0
        start = 0
        runs.reverse()  # taken from the end, first list first, each let go once it is read
        while runs:
            for key in runs.pop():
                end = self._text.index("\n", start)
                bucket, tag = key & _MASK, key >> 16 & _TAG
                if not (tag in self._hashes[self._first[bucket] : self._end[bucket]]
                        and self._holds(key, self._text[start:end])):  # else given by an earlier list
                    self._hashes[self._end[bucket]], self._starts[self._end[bucket]] = tag, start
                    self._end[bucket] += 1
                    self._size += 1
                start = end + 1

    def __len__(self) -> int:
        return self._size

    def __contains__(self, word: object) -> bool:
        return isinstance(word, str) and self._holds(hash(word), word)

    def __iter__(self) -> Iterator[str]:
        for bucket in range(_MASK + 1):
            for index in range(self._first[bucket], self._end[bucket]):
                yield self._word(self._starts[index])

    def _holds(self, key: int, word: str) -> bool:
        bucket, tag, hashes, text = key & _MASK, key >> 16 & _TAG, self._hashes, self._text
        for index in range(self._first[bucket], self._end[bucket]):
            if hashes[index] == tag:
                start = self._starts[index]
                if text.startswith(word, start) and text.startswith("\n", start + len(word)):
                    return True
        return False

    def _word(self, start: int) -> str:
        return self._text[start : self._text.index("\n", start)]

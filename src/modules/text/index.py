"""A small in-memory BM25 index that works for Japanese and English alike.

Japanese has no spaces, so a word tokenizer sees one "word" per sentence. Character
bigrams are the classic dictionary-free answer: "富士山の噴火" -> 富士 士山 山の の噴 噴火.
English is split into lower-case words. Both kinds of terms live in one index, so a
mixed document ("LangGraphのチェックポイント") is found by either language.
"""

from __future__ import annotations

import math
import re
from collections import Counter
from dataclasses import dataclass, field
from typing import Callable

_WORD = re.compile(r"[a-z0-9_]+")
_CJK_RUN = re.compile(r"[\u3040-\u309f\u30a0-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uff66-\uff9f]+")
_STOPWORDS = frozenset(
    "a an and are as at be by do does for from how in is it of on or that the this to was what when where which who why with".split()
)


def index_terms(text: str) -> list[str]:
    """English words (no stopwords) and Japanese character bigrams, in order."""
    terms = [w for w in _WORD.findall(text.lower()) if w not in _STOPWORDS]
    for run in _CJK_RUN.findall(text):
        if len(run) == 1:
            terms.append(run)
        else:
            terms.extend(run[i : i + 2] for i in range(len(run) - 1))
    return terms


@dataclass
class _Entry:
    key: str
    length: int
    counts: Counter[str] = field(default_factory=Counter)


class TextIndex:
    """BM25 over whole documents; ``add`` everything, then ``search``.

    ``analyse`` turns text into terms: bigrams by default (the --docs engine, no dictionary
    needed); the llm node passes the verifier's analyser (MeCab lemmas, English stems) so
    evidence is ranked on the same words it is later checked on.
    """

    def __init__(self, k1: float = 1.2, b: float = 0.75, analyse: Callable[[str], list[str]] | None = None) -> None:
        self.k1 = k1
        self.b = b
        self._analyse = analyse or index_terms
        self._entries: list[_Entry] = []
        self._document_frequency: Counter[str] = Counter()

    def __len__(self) -> int:
        return len(self._entries)

    def add(self, key: str, text: str) -> None:
        counts = Counter(self._analyse(text))
        self._entries.append(_Entry(key=key, length=sum(counts.values()), counts=counts))
        self._document_frequency.update(counts.keys())

    def search(self, query: str, limit: int) -> list[tuple[str, float]]:
        """Keys of the best matching documents with their scores, best first."""
        wanted = set(self._analyse(query))
        if not wanted or not self._entries:
            return []
        total = len(self._entries)
        average_length = sum(e.length for e in self._entries) / total or 1.0
        scored = []
        for entry in self._entries:
            score = 0.0
            for term in wanted:
                frequency = entry.counts.get(term, 0)
                if not frequency:
                    continue
                df = self._document_frequency[term]
                idf = math.log(1 + (total - df + 0.5) / (df + 0.5))
                norm = frequency + self.k1 * (1 - self.b + self.b * entry.length / average_length)
                score += idf * frequency * (self.k1 + 1) / norm
            if score > 0:
                scored.append((entry.key, score))
        scored.sort(key=lambda pair: (-pair[1], pair[0]))
        return scored[:limit]


def best_passage(text: str, query: str, width: int = 240) -> str:
    """The paragraph (clipped to ``width``) sharing the most terms with the query."""
    wanted = set(index_terms(query))
    best, best_hits = "", -1
    for paragraph in re.split(r"\n\s*\n", text):
        paragraph = " ".join(paragraph.split())
        if not paragraph:
            continue
        hits = len(wanted & set(index_terms(paragraph)))
        if hits > best_hits:
            best, best_hits = paragraph, hits
    return best if len(best) <= width else best[: width - 1] + "…"

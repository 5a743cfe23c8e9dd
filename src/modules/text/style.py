"""Style rules for reports, checked after generation: banned filler words and hedging stacks.

The prompt states the rules; small local models still slip, so the llm node finds the
sentences that break them here, asks the model to rewrite each once, and falls back to
``remove_violations`` (deterministic) when the rewrite still breaks them.
"Numbers with units and dates" is a prompt rule only: no check can tell a bare number
that needs a unit from one that does not (a year, a count) without understanding it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from research.modules.core.language import Language

# One sentence splitter and one citation pattern for the whole project: a rewrite that
# drops "[S1, S2]" or "［Ｓ１］" must be seen as dropping citations.
from research.modules.text.claims import CITATION_GROUP, citation_labels

# A hedge is a word that weakens a claim; one is honest, two in a sentence is a stack.
HEDGES = {
    "en": ("may", "might", "possibly", "perhaps", "probably", "arguably", "potentially", "seemingly",
           "conceivably", "it seems", "it appears"),
    "ja": ("かもしれ", "可能性があ", "と思われ", "と考えられ", "おそらく", "たぶん", "もしかすると", "ようだ"),
}
# Hedges that are pure adverbs: dropping one leaves a grammatical sentence.
REMOVABLE_HEDGES = {
    "en": ("possibly", "perhaps", "probably", "arguably", "potentially", "seemingly", "conceivably"),
    "ja": ("おそらく", "たぶん", "もしかすると"),
}

@dataclass
class StyleIssue:
    banned: list[str] = field(default_factory=list)
    hedges: list[str] = field(default_factory=list)  # non-empty only when two or more stack

    def __bool__(self) -> bool:
        return bool(self.banned or self.hedges)


def _pattern(word: str) -> re.Pattern[str]:
    escaped = re.escape(word)
    if word.isascii():  # whole words only: "may" must not match "mayor"
        return re.compile(rf"(?<![A-Za-z]){escaped}(?![A-Za-z])", re.IGNORECASE)
    return re.compile(escaped)


def check_sentence(sentence: str, banned_words: tuple[str, ...] | list[str], language: Language) -> StyleIssue:
    text = CITATION_GROUP.sub("", sentence)
    banned = [w for w in banned_words if _pattern(w).search(text)]
    # Every hedge language is checked: a Japanese report may quote an English source.
    found = [h for lang in ("en", "ja") for h in HEDGES[lang] for _ in _pattern(h).finditer(text)]
    return StyleIssue(banned=banned, hedges=found if len(found) >= 2 else [])


def citations(text: str) -> list[str]:
    """The labels ``text`` cites, in any citation style, normalised and sorted."""
    return sorted(citation_labels(text))


def remove_violations(sentence: str, issue: StyleIssue) -> str:
    """Drop banned words and all but one removable hedge; tidy the spacing left behind."""
    lead = sentence[: len(sentence) - len(sentence.lstrip())]  # the space between sentences stays
    text = sentence.lstrip()
    for word in issue.banned:
        text = _pattern(word).sub("", text)
    if issue.hedges:
        keep_one = len(issue.hedges) - sum(1 for h in issue.hedges if h in _all_removable()) == 0
        for hedge in [h for h in issue.hedges if h in _all_removable()][1 if keep_one else 0 :]:
            text = _pattern(hedge).sub("", text, count=1)
    text = re.sub(r"[ \t]{2,}", " ", text)
    text = re.sub(r" ([,.;:])", r"\1", text)
    text = re.sub(r"^([\s\-*]*)([a-z])", lambda m: m.group(1) + m.group(2).upper(), text.lstrip(" ,"))
    return lead + text.strip()


def _all_removable() -> tuple[str, ...]:
    return REMOVABLE_HEDGES["en"] + REMOVABLE_HEDGES["ja"]

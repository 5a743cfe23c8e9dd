"""Whether a model's translation of a claim may stand for it in the checks.

A Japanese answer often rests on English pages, and words cannot be compared across languages:
the verifier has the claim translated into its sources' language and checks the translation
(nodes/verification.check_across_languages). The translation is a model's, so it is used only
where it keeps what the checks decide on: every figure, every name written in Latin letters,
the claim's polarity and its status words. A translation that drops a "not", turns "experimental"
into "stable" or 2023 into 2024 would make the checks judge another statement; such a claim
stays "not checked" instead. What the translation cannot be held to (a paraphrase that shifts a
meaning without any of these) the checks still read against the passage: a supported verdict
needs the passage to say what the translation says, nearly word for word.
"""

from __future__ import annotations

import re

from research.modules.core.language import Language, detect_language
from research.modules.text.language_check import is_wrong_language
from research.modules.text.numbers import extract_numbers
from research.modules.text.polarity import negated, status_names

# A name or identifier as written in Latin letters: "Python", "3.14t", "PEP", "thread_id".
_LATIN = re.compile(r"[A-Za-z][A-Za-z0-9_+#.\-]*[A-Za-z0-9+#]|[A-Za-z]")
# An identifier a Japanese text keeps as written: with a digit or an underscore, or two capitals
# ("GIL", "CPython", "LangGraph"); a plain English name may be written in katakana (Tokyo, 東京).
_IDENTIFIER = re.compile(r"[0-9_]|[A-Z].*[A-Z]")


def _figures(text: str) -> list[frozenset[str]]:
    return [mention.values for mention in extract_numbers(text)]


def _latin_words(text: str) -> set[str]:
    return {word.rstrip(".-").lower() for word in _LATIN.findall(text) if len(word.rstrip(".-")) > 1}


def unfaithful(original: str, translation: str, target: Language) -> str | None:
    """Why ``translation`` (of ``original`` into ``target``) cannot stand for it, or None.

    The reasons, in the order they are tried: ``empty``, ``language`` (not in ``target``),
    ``figures`` (a figure of either is not in the other), ``names`` (a name in Latin letters of
    the original is not in the translation), ``polarity`` (one denies, the other does not),
    ``status`` (their status words differ: default, experimental, removed …)."""
    text = " ".join(translation.split())
    if not text:
        return "empty"
    source_language = detect_language(original)
    if is_wrong_language(text, target)[0]:
        return "language"
    mine, theirs = _figures(original), _figures(text)
    if any(not any(values & other for other in theirs) for values in mine) \
            or any(not any(values & other for other in mine) for values in theirs):
        return "figures"
    names = _latin_words(original)
    if source_language == "en":  # into Japanese: only identifiers must stay as written
        names = {word.lower() for word in _LATIN.findall(original) if _IDENTIFIER.search(word)}
    if names - _latin_words(text):
        return "names"
    # "Gone" and "has no" say one thing (「GILはなくなりました」 → "Python 3.14 has no GIL", the real
    # 1.5B model): a denial and the removed status are compared as what they leave, present or absent.
    mine_statuses, their_statuses = status_names(original, source_language), status_names(text, target)
    if (negated(original, source_language) != ("removed" in mine_statuses)) \
            != (negated(text, target) != ("removed" in their_statuses)):
        return "polarity"
    if mine_statuses - {"removed"} != their_statuses - {"removed"}:
        return "status"
    return None

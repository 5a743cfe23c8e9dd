"""Whether a model's translation of a claim may stand for it in the checks.

A Japanese answer often rests on English pages, and words cannot be compared across languages:
the verifier has the claim translated into its sources' language and checks the translation
(nodes/verification.check_across_languages). The translation is a model's, so it is used only
where it keeps what the checks decide on: every figure, every name written in Latin letters,
the claim's polarity and its status words. A translation that drops a "not", turns "experimental"
into "stable" or 2023 into 2024 would make the checks judge another statement; such a claim
stays "not checked" instead, except that a figure given otherwise is put back as the claim writes
it (``with_figures_of``): a figure is copied, not translated. What the translation cannot be held
to (a paraphrase that shifts a meaning without any of these) the checks still read against the
passage: a supported verdict needs the passage to say what the translation says, nearly word for
word.
"""

from __future__ import annotations

import re
import unicodedata

from research.modules.core.language import Language, detect_language
from research.modules.text.language_check import is_wrong_language
from research.modules.text.numbers import NumberMention, extract_numbers
from research.modules.text.polarity import negated, status_names

# A name or identifier as written in Latin letters: "Python", "3.14t", "PEP", "thread_id".
_LATIN = re.compile(r"[A-Za-z][A-Za-z0-9_+#.\-]*[A-Za-z0-9+#]|[A-Za-z]")
# An identifier a Japanese text keeps as written: with a digit or an underscore, or two capitals
# ("GIL", "CPython", "LangGraph"); a plain English name may be written in katakana (Tokyo, 東京).
_IDENTIFIER = re.compile(r"[0-9_]|[A-Z].*[A-Z]")


def _counted(text: str) -> list[NumberMention]:
    # "One" written as a word counts nothing a translation must keep: 「日本最大級のコンテナ港の一つ」
    # is "one of Japan's largest container ports", where English "one of" is no figure.
    return [mention for mention in extract_numbers(text) if not (mention.worded and mention.values == {"1"})]


def _figures(text: str) -> list[frozenset[str]]:
    return [mention.values for mention in _counted(text)]


_DIGITS = re.compile(r"\d+(?:\.\d+)?")


def with_figures_of(original: str, translation: str) -> str | None:
    """``translation`` with the one figure it gives otherwise than ``original`` put back as the
    original writes it, or None where that cannot be done plainly. A figure is copied, never
    translated: "横浜港は1852年に…" translated "…opened to foreign trade in 1859" (the page's year,
    a model "correcting" what it translates) is checked as "…in 1852", which the page contradicts,
    instead of being left unchecked; a true sentence whose year a translation garbled is checked
    with its own year. Only one figure of each side, written in digits, with no multiplier (2万),
    and found once in the translation."""
    mine, theirs = _counted(original), _counted(translation)
    missing = [m for m in mine if not any(m.values & o.values for o in theirs)]
    extra = [o for o in theirs if not any(o.values & m.values for m in mine)]
    if len(missing) != 1 or len(extra) != 1 or missing[0].worded or extra[0].worded \
            or len(missing[0].values) != 1 or len(extra[0].values) != 1:
        return None
    own, given = _DIGITS.match(missing[0].text), _DIGITS.match(extra[0].text)
    if own is None or given is None:
        return None
    # The claim's figure as it writes it (full-width digits folded); the translation's where it stands.
    written = [_as_written(unicodedata.normalize("NFKC", original), own.group()), _as_written(translation, given.group())]
    if any(len(found) != 1 for found in written):
        return None
    (own_written,), (at,) = written
    return translation[:at.start()] + own_written.group() + translation[at.end():]


def _as_written(text: str, digits: str) -> list[re.Match[str]]:
    """Where ``text`` writes the figure ``digits`` ("3776" as "3,776" too), each time."""
    pattern = ",?".join(re.escape(c) if c == "." else c for c in digits)
    return list(re.finditer(rf"(?<![\d.,]){pattern}(?![\d]|[.,]\d)", text))


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

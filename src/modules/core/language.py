"""Language detection and script measurement for Japanese and English.

Japanese is recognised by its scripts (hiragana, katakana, CJK ideographs); a few
kana are decisive even in a mostly-Latin question, since English has none.
"""

from __future__ import annotations

import os
import re
from typing import Literal

from research.modules.core.grammar import ADDRESS_TOKEN, CITATION_GROUP, INLINE_CODE

Language = Literal["ja", "en"]
LANGUAGES: tuple[Language, ...] = ("ja", "en")

KANA = re.compile(r"[\u3040-\u309f\u30a0-\u30ff\uff66-\uff9f]")
_JAPANESE = re.compile(r"[\u3040-\u309f\u30a0-\u30ff\uff66-\uff9f\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]")
LATIN = re.compile(r"[A-Za-z]")


def japanese_chars(text: str) -> int:
    return len(_JAPANESE.findall(text))


def choose_language(*named: object, text: str = "", default: Language | None = None) -> Language:
    """The one rule for which language to speak: the first of ``named`` that is "ja" or "en"
    (a flag, a setting, a caller's argument, in the order given; "auto" and empty name none),
    else the language ``text`` (the question) is written in, else ``default``, else the
    locale's (LC_ALL, LC_MESSAGES, LANG: the first set, as POSIX reads them)."""
    for candidate in named:
        if candidate == "ja" or candidate == "en":
            return candidate
    if text:
        return detect_language(text)
    if default is not None:
        return default
    locale = os.environ.get("LC_ALL") or os.environ.get("LC_MESSAGES") or os.environ.get("LANG", "")
    return "ja" if locale.startswith("ja") else "en"


def detect_language(text: str) -> Language:
    """``"ja"`` when the text is written in Japanese script, else ``"en"``. Addresses do not count:
    「日本共産党 — file:///…/jsquad-007-044.md」 is a Japanese title with a path, not English."""
    ja = japanese_chars(text)
    if ja == 0:
        return "en"
    if KANA.search(text):
        return "ja"
    latin = len(LATIN.findall(ADDRESS_TOKEN.sub(" ", text) if "://" in text else text))
    # Kanji only (no kana) could be Chinese, but for a ja/en tool Japanese is the sane guess
    # unless the text is overwhelmingly Latin.
    return "ja" if ja * 3 >= latin else "en"


def target_script_share(text: str, lang: Language) -> float:
    """Share of the letters in ``text`` written in the script of ``lang``.

    For Japanese, kana and kanji count; for English, Latin letters. Digits, punctuation,
    URLs and citation labels are ignored so ``[S1]`` or ``https://…`` do not skew it.
    """
    cleaned = INLINE_CODE.sub(" ", CITATION_GROUP.sub(" ", ADDRESS_TOKEN.sub(" ", text)))
    ja = japanese_chars(cleaned)
    latin = len(LATIN.findall(cleaned))
    total = ja + latin
    if total == 0:
        return 1.0
    if lang == "ja":
        # Japanese prose carries Latin names and terms; weigh a kanji/kana as worth
        # three Latin letters (about one word) so "LangGraphのチェックポイント" counts as Japanese.
        return (ja * 3) / (ja * 3 + latin)
    return latin / (latin + ja * 3)

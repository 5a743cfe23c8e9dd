"""The project's one lexical grammar for text a model or a page wrote: URLs and citation groups.

Every layer reads these (the language measure in core, the claim splitter and the number
check in text, the parser in the sandbox, the report's bare-URL links, the web-search
client), so they live at the bottom and import nothing but ``re``. A second copy of either
pattern is a bug waiting for this one to change.
"""

from __future__ import annotations

import re

# --- URLs ---------------------------------------------------------------------------------

# A whole whitespace-delimited run from the scheme on: what text checks blank out so a URL's
# digits, letters and dots are never read as figures, words or sentence ends.
URL_TOKEN = re.compile(r"https?://\S+")

# A URL as written in prose: it stops at white space, quotes and angle brackets, at a bracket
# it did not open ("(see https://x.org/a)" ends before ")"; ".../Fuji_(volcano)" keeps its own
# pair) and before the full stop or comma that ends the sentence around it.
_URL_CHAR = r"[^\s<>\"'()\[\]（）「」『』【】]"
_URL_PAIR = rf"\({_URL_CHAR}*\)"
# Written as "runs between pairs" (no nested quantifier can split a run two ways), so a
# megabyte of hostile text is read in one pass; the lookbehinds then give back the
# sentence's trailing punctuation, and "https://" alone is no URL.
URL_IN_PROSE = re.compile(
    rf"https?://{_URL_CHAR}*(?:{_URL_PAIR}{_URL_CHAR}*)*(?<![.,;:!?。、])(?<!://)"
)


# Inline code (`x`), one line at most: an index or a name in it is no citation, no sentence end.
INLINE_CODE = re.compile(r"`[^`\n]*`")


def is_url(text: str) -> bool:
    """``text`` (trimmed) is one http(s) URL and nothing else."""
    return URL_TOKEN.fullmatch(text.strip()) is not None


# --- citations ----------------------------------------------------------------------------

# ONE citation pattern for the whole project. Models cite in many styles; every one of them
# is a citation group here, so its digits are never read as a figure and
# ``claims.normalise_citations`` can rewrite it to ``[S#]``:
#   [S1] · [S1, S3] · [S1][S2] (two groups) · ［S1］ · ［Ｓ１］ · [1] · [1-3] · 【S1】 · 【1†L3-L5】 ·
#   【4:0†source】 · (S1) · （出典1） · (Source 2) · [^1] (a footnote, see ``claims.footnote_map``).
# A number alone is a citation only in square or lenticular brackets ("(1)" numbers a list)
# and only up to three digits ("[2020]" is a year); "[1](url)" is a link and "[1]:" a
# footnote definition, neither is a citation.
_DIGITS = r"[0-9０-９]{1,3}"
_WORD_PREFIX = r"(?:(?i:sources?|src|ref)|出典|ソース|資料|文献)\s*[:：#]?\s*"
_LABELLED = rf"(?:{_WORD_PREFIX}[SＳ]?|[SＳ]){_DIGITS}"
_ITEM_TAIL = r"(?:[:：][0-9０-９]{1,3})?(?:†[^\]】\n,，、;；]{0,40})?"
_ITEM = rf"(?:{_WORD_PREFIX}[SＳ]?|[SＳ])?{_DIGITS}{_ITEM_TAIL}"
_SEPARATOR = r"\s*(?:[,，、;；/]|[-–—~〜]|(?i:and)\b|&)\s*"
_BRACKETED = rf"[\[［【]\s*\^?{_ITEM}(?:{_SEPARATOR}{_ITEM})*\s*[\]］】](?![(（:：])"
_PARENTHESISED = rf"[(（]\s*{_LABELLED}{_ITEM_TAIL}(?:{_SEPARATOR}{_ITEM})*\s*[)）]"
CITATION_GROUP = re.compile(f"{_BRACKETED}|{_PARENTHESISED}")


# --- sentence ends ------------------------------------------------------------------------

# What a finished sentence's last character is: a full stop, question or exclamation mark, or a
# closing quote or bracket after one ("…と述べた。」", "… in 1707.[1]"). The splitter
# (``text.claims.sentence_spans``) decides where sentences end inside text; this says whether a
# piece of text stops at the end of one, for callers too light to load the splitter's rules.
SENTENCE_FINAL = frozenset("。．.！？!?」』)）]】")


def ends_sentence(text: str) -> bool:
    """``text`` (trailing space aside) stops at the end of a sentence, not in the middle of one."""
    stripped = text.rstrip()
    return bool(stripped) and stripped[-1] in SENTENCE_FINAL

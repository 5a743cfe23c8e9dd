"""The project's one lexical grammar for text a model or a page wrote: URLs, citation groups
and the terminal control that must never reach a screen.

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
URL_SCHEME = r"https?://"  # where a web address starts: the one spelling other patterns build on
URL_TOKEN = re.compile(rf"{URL_SCHEME}\S+")
# An address as an answer may copy it from a source list, a local page's file:// among them: what
# the checks of words, figures and scripts blank out ("日本共産党 — file:///…/jsquad-007-044.md" is
# not English). Not a web address to fetch: ``is_url`` stays http(s).
ADDRESS_TOKEN = re.compile(rf"(?:{URL_SCHEME}|file://)\S+")

# A URL as written in prose: it stops at white space, quotes and angle brackets, at a bracket
# it did not open ("(see https://x.org/a)" ends before ")"; ".../Fuji_(volcano)" keeps its own
# pair) and before the full stop or comma that ends the sentence around it.
_URL_CHAR = r"[^\s<>\"'()\[\]（）「」『』【】]"
_URL_PAIR = rf"\({_URL_CHAR}*\)"
# Written as "runs between pairs" (no nested quantifier can split a run two ways), so a
# megabyte of hostile text is read in one pass; the lookbehinds then give back the
# sentence's trailing punctuation, and "https://" alone is no URL.
URL_IN_PROSE = re.compile(
    rf"{URL_SCHEME}{_URL_CHAR}*(?:{_URL_PAIR}{_URL_CHAR}*)*(?<![.,;:!?。、])(?<!://)"
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
# A run of citations in the one form every style is rewritten to ("[S1][S3]": text.claims).
NORMALISED_CITATIONS = r"(?:\[S\d+\])+"
NORMALISED_LABEL = re.compile(r"\[S\d+\]")  # one label of such a run
# Such labels with commas or a joining word between them, as a model lists them ("[Source: [S1], [S6],
# [S3]] …", "[Source: [S1] and [S6]] …").
NORMALISED_CITATION_LIST = r"\[S\d+\](?:\s*(?:[,;、]?\s*(?:and\b|&|と|および|及び)|[,;、])?\s*\[S\d+\])*"
# Citation groups joined by a word: "[S1] and [S2]", 「[S1]と[S2]」, "[S1], [S2] or [S3]". Taken
# out of a sentence, or a label taken out of them, the joining word goes too ("[S1] and, which").
_JOINER = r"\s*(?:,\s*)?(?:(?i:and|or)\b|&|,|、|と|および|及び|や|または)\s*"
JOINED_CITATIONS = re.compile(f"(?:{_BRACKETED}|{_PARENTHESISED})(?:{_JOINER}(?:{_BRACKETED}|{_PARENTHESISED}))+")


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


# --- Terminal control -----------------------------------------------------------------------

# ESC-introduced sequences, longest forms first. OSC/DCS/SOS/PM/APC strings run to BEL
# or ST (ESC \); an unterminated one runs to the end of the text, which is dropped too.
_ESCAPE_SEQUENCE = re.compile(
    r"""
    \x1b\[[0-?]*[ -/]*[@-~]?                  # CSI: ESC [ params intermediates final
    | \x1b[\]PX^_].*?(?:\x07|\x1b\\|\Z)       # OSC, DCS, SOS, PM, APC ... BEL or ST
    | \x9b[0-?]*[ -/]*[@-~]?                  # 8-bit CSI
    | [\x90\x98\x9d\x9e\x9f].*?(?:\x07|\x9c|\Z)  # 8-bit DCS, SOS, OSC, PM, APC ... ST
    | \x1b[ -/]*[0-~]?                        # two-byte (and nF) escapes, or a bare ESC
    """,
    re.VERBOSE | re.DOTALL,
)
# C0 controls but tab/newline, DEL, C1 controls, and the bidi embedding/override/isolate
# marks plus zero-width joiners a title has no use for.
_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f\u200b-\u200f\u202a-\u202e\u2060-\u2064\u2066-\u2069\ufeff]")
_LINE_BREAKS = re.compile(r"\r\n?|[\u2028\u2029\x85]")


def strip_controls(text: str, *, keep_newlines: bool = True) -> str:
    """``text`` without escape sequences and control characters.

    With ``keep_newlines`` line breaks (normalised to ``\\n``) and tabs stay; without it
    all whitespace runs become one space, for titles and other one-line fields.
    """
    if not text:
        return ""
    text = _LINE_BREAKS.sub("\n", str(text))
    text = _ESCAPE_SEQUENCE.sub("", text)
    text = _CONTROL.sub("", text)
    if not keep_newlines:
        text = " ".join(text.split())
    return text


# --- numbered headings ----------------------------------------------------------------------

# "1. ", "2) ", "３．": a model numbers its sections in the order of the plan's sub-questions.
TITLE_NUMBER = re.compile(r"^[0-9０-９]{1,2}([.)．）]\s*)")


def renumbered_titles(titles: list[str]) -> list[str]:
    """Titles that are all numbered, counted 1, 2, 3 again: what is left once sections were
    taken out ("3." and "4." when 1 and 2 only repeated the Summary). Otherwise as they are."""
    if not titles or not all(TITLE_NUMBER.match(title) for title in titles):
        return titles
    return [TITLE_NUMBER.sub(lambda found: f"{n}{found.group(1)}", title, count=1)
            for n, title in enumerate(titles, start=1)]

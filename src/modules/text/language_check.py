"""Language fidelity of a draft, sentence by sentence.

A model asked for Japanese sometimes writes a sentence (or a whole section) in English,
often one copied from an English source. Every sentence of the body is measured on its
own, so each stray sentence is found and only those are rewritten.

What does not count: quotations ("…", “…”, 「…」 in an English report), inline code,
URLs, citations and link targets. Names and terms are allowed in either script: a
Japanese sentence naming "LangGraph" is still Japanese (English has no kana), and an
English sentence may name 富士山, because the check weighs a kana or kanji as about one
Latin word (``target_script_share``). A sentence with too few
letters to judge (a name alone, a figure) is never wrong.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from research.modules.core.language import KANA, LATIN, Language, japanese_chars, target_script_share
from research.modules.core.grammar import ADDRESS_TOKEN, CITATION_GROUP, INLINE_CODE
from research.modules.text.claims import body_sentences, is_reference_heading

WRONG_LANGUAGE_BELOW = 0.5  # share of the target script under which a sentence is rewritten
_MIN_LETTERS = 12  # letters in the other script needed before a sentence can be "wrong"
_LINK_TARGET = re.compile(r"\]\([^)\s]*\)")
_QUOTED = {
    "en": re.compile(r"「[^」]*」|『[^』]*』|“[^”]*”|\"[^\"]*\""),
    "ja": re.compile(r"“[^”]*”|\"[^\"]*\"|'[^'\n]{3,}'"),
}


@dataclass
class SentenceLanguage:
    start: int  # span in the draft
    end: int
    section: str
    share: float
    wrong_language: bool

    def text(self, draft: str) -> str:
        return draft[self.start : self.end]


def measurable(text: str, target: Language) -> str:
    """The part of a sentence whose language is judged."""
    text = INLINE_CODE.sub(" ", _LINK_TARGET.sub("]", ADDRESS_TOKEN.sub(" ", text)))
    text = CITATION_GROUP.sub(" ", text)
    return _QUOTED.get(target, _QUOTED["en"]).sub(" ", text)


def is_wrong_language(text: str, target: Language, threshold: float = WRONG_LANGUAGE_BELOW) -> tuple[bool, float]:
    """(wrong, share of the target script) for one sentence."""
    judged = measurable(text, target)
    if target == "ja" and KANA.search(judged):
        return False, 1.0  # English has no kana: Latin words in it are names and terms
    share = round(target_script_share(judged, target), 3)
    other_letters = len(LATIN.findall(judged)) if target == "ja" else japanese_chars(judged) * 3
    return share < threshold and other_letters >= _MIN_LETTERS, share


def check_sentences(draft: str, target: Language, threshold: float = WRONG_LANGUAGE_BELOW) -> list[SentenceLanguage]:
    """Every sentence of the body with its share of ``target``'s script and whether it is wrong."""
    out = []
    for start, end, section in body_sentences(draft):
        wrong, share = is_wrong_language(draft[start:end], target, threshold)
        out.append(SentenceLanguage(start, end, section, share, wrong))
    return out


# Section level, for the summary: which ``## `` sections were mostly in another language.
_SECTION_MIN_LETTERS = 20
_SECTION_HEADING = re.compile(r"^##(?!#)\s*(.*?)\s*#*\s*$", re.MULTILINE)
_FENCED = re.compile(r"^\s{0,3}(```|~~~).*?^\s{0,3}\1[^\n]*$", re.MULTILINE | re.DOTALL)


@dataclass
class Section:
    title: str  # "" for the text before the first "## " heading
    start: int  # span in the draft, heading line included
    end: int
    share: float = 1.0
    wrong_language: bool = False

    def text(self, draft: str) -> str:
        return draft[self.start : self.end]


def split_sections(draft: str) -> list[Section]:
    """The draft cut at each ``## `` heading (the preamble is a section too, when not empty)."""
    starts = [(m.start(), m.group(1)) for m in _SECTION_HEADING.finditer(draft)]
    sections: list[Section] = []
    if not starts or starts[0][0] > 0:
        end = starts[0][0] if starts else len(draft)
        if draft[:end].strip():
            sections.append(Section("", 0, end))
    for i, (start, title) in enumerate(starts):
        end = starts[i + 1][0] if i + 1 < len(starts) else len(draft)
        sections.append(Section(title, start, end))
    return sections


def _measurable(text: str) -> str:
    text = _FENCED.sub(" ", text)
    return CITATION_GROUP.sub(" ", ADDRESS_TOKEN.sub(" ", text))


def check_sections(draft: str, target: Language, threshold: float = WRONG_LANGUAGE_BELOW) -> list[Section]:
    """Every section with its share of ``target``'s script and whether it is wrong."""
    sections = split_sections(draft)
    for section in sections:
        text = _measurable(section.text(draft))
        section.share = round(target_script_share(text, target), 3)
        letters = japanese_chars(text) + len(LATIN.findall(text))
        section.wrong_language = (
            section.share < threshold
            and letters >= _SECTION_MIN_LETTERS
            and not is_reference_heading(section.title)  # the draft's own source list quotes titles in their language
        )
    return sections

"""Language fidelity of a draft, section by section.

A model asked for Japanese sometimes writes one section in English (often the one built
from English sources). Each ``## `` section is measured on its own, so one stray section
is found and only that section is rewritten.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from research.modules.text.claims import CITATION_GROUP
from research.modules.core.language import japanese_chars, target_script_share

WRONG_LANGUAGE_BELOW = 0.5  # share of the target script under which a section is rewritten
_MIN_LETTERS = 20  # too little text to judge: a heading with a name, a one-word line
_SECTION_HEADING = re.compile(r"^##(?!#)\s*(.*?)\s*#*\s*$", re.MULTILINE)
_FENCED = re.compile(r"^\s{0,3}(```|~~~).*?^\s{0,3}\1[^\n]*$", re.MULTILINE | re.DOTALL)
_URL = re.compile(r"https?://\S+")
_LATIN = re.compile(r"[A-Za-z]")
# The draft's own source list quotes titles in their language: never "wrong".
_REFERENCES = re.compile(r"^(sources?|references?|bibliography|参考文献|出典|参考資料|情報源|ソース)\s*[:：]?$", re.IGNORECASE)


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
    return CITATION_GROUP.sub(" ", _URL.sub(" ", text))


def check_sections(draft: str, target: str, threshold: float = WRONG_LANGUAGE_BELOW) -> list[Section]:
    """Every section with its share of ``target``'s script and whether it is wrong."""
    sections = split_sections(draft)
    for section in sections:
        text = _measurable(section.text(draft))
        section.share = round(target_script_share(text, target), 3)
        letters = japanese_chars(text) + len(_LATIN.findall(text))
        section.wrong_language = (
            section.share < threshold
            and letters >= _MIN_LETTERS
            and not _REFERENCES.match(section.title.strip())
        )
    return sections

"""What a model's reply must lose before anyone reads it: harmony control text and a cut-off end.

gpt-oss speaks the harmony format. Served right, Ollama parses it; served wrong (an old
template, a raw completion, a quantised copy) the control text leaks into the answer in
several forms, all of which must go:
- ``<|channel|>analysis<|message|>…<|end|><|start|>assistant<|channel|>final<|message|>…<|return|>``;
- the same with the markers eaten: ``analysis…assistantfinal…``;
- a commentary (tool-call) channel: ``<|channel|>commentary to=functions.x <|constrain|>json<|message|>{…}<|call|>``;
- stray ``<|start|>``, ``<|end|>``, ``<|return|>``, ``<|message|>`` tokens.
"""

from __future__ import annotations

import re

from research.modules.core.grammar import CITATION_GROUP, ends_sentence

_SEGMENT = re.compile(
    r"<\|channel\|>\s*(\w+)[^<]*?(?:<\|constrain\|>\s*\w+\s*)?<\|message\|>(.*?)"
    r"(?=<\|end\|>|<\|return\|>|<\|call\|>|<\|start\|>|<\|channel\|>|\Z)",
    re.DOTALL,
)
_TOKEN = re.compile(r"<\|(?:start|end|return|call|message|channel|constrain|endoftext|im_start|im_end)\|>")
_EATEN_MARKERS = re.compile(r"^\s*(?:analysis|commentary).*?assistant\s*final", re.DOTALL | re.IGNORECASE)
_ROLE_AFTER_START = re.compile(r"<\|start\|>\s*(?:assistant|user|system|developer)?")


def strip_control_text(text: str) -> str:
    """The final answer only, with no harmony markup or reasoning left in it."""
    if "<|channel|>" in text:
        finals = [m.group(2) for m in _SEGMENT.finditer(text) if m.group(1).lower() == "final"]
        if finals:
            text = "\n".join(finals)
        else:
            # No final channel: keep what lies outside every analysis/commentary segment.
            text = _SEGMENT.sub(" ", text)
    elif _EATEN_MARKERS.match(text):
        text = re.split(r"assistant\s*final", text, flags=re.IGNORECASE)[-1]
    text = _ROLE_AFTER_START.sub(" ", text)
    return _TOKEN.sub("", text).strip()


_ROLES = ("assistant", "user", "system", "developer")
_OPENS_LIKE_EATEN = re.compile(r"\s*(?:analysis|commentary)", re.IGNORECASE)
_EATEN_FINAL = re.compile(r"assistant\s*final", re.IGNORECASE)


class StreamedAnswer:
    """What may be shown of an answer while it streams: never more than ``strip_control_text``
    keeps of what has arrived. ``feed`` each chunk and show what it returns; ``finish`` at
    the end returns the rest.

    Held back until they resolve: an unfinished ``<|…`` token, a ``<|channel|>`` whose
    ``<|message|>`` has not come (its name is not text), and a reply that opens like a
    leaked channel with its markers eaten ("analysis…") until its "assistantfinal" shows
    (a real answer that opens with the word appears whole at the end). What is shown only
    grows: text the cleaner would take back later is not shown before it settles.
    """

    def __init__(self) -> None:
        self.raw = ""
        self.shown = ""

    def feed(self, chunk: str) -> str:
        self.raw += chunk
        return self._more(self._settled(self.raw))

    def finish(self) -> str:
        return self._more(self.raw)

    @staticmethod
    def _settled(raw: str) -> str:
        if raw.endswith("<"):
            raw = raw[:-1]
        token = raw.rfind("<|")
        if token != -1 and "|>" not in raw[token:]:
            raw = raw[:token]
        start = raw.rfind("<|start|>")
        if start != -1:
            role = raw[start + len("<|start|>"):].strip()
            if any(name.startswith(role) for name in _ROLES):  # "assistan…": the role's name is not text
                raw = raw[:start]
        channel = raw.rfind("<|channel|>")
        if channel != -1 and "<|message|>" not in raw[channel:]:
            raw = raw[:channel]
        opening = raw.lstrip()[:10].lower()
        if opening and ("analysis".startswith(opening) or "commentary".startswith(opening)
                        or _OPENS_LIKE_EATEN.match(raw)) and not _EATEN_FINAL.search(raw):
            return ""
        return raw

    def _more(self, raw: str) -> str:
        clean = strip_control_text(raw) if raw else ""
        if not clean.startswith(self.shown):
            return ""
        more, self.shown = clean[len(self.shown):], clean
        return more


def drop_cut_off_sentence(text: str) -> str:
    """An answer stopped by the length limit ends mid-sentence: that sentence goes, so it
    is never cited or reported as if it were whole."""
    stripped = text.rstrip()
    if not stripped or ends_sentence(stripped):
        return stripped
    # Imported here: the sentence rules compile some thirty patterns, and the model client
    # is imported on the way to a run's first step, which needs none of them.
    from research.modules.text.claims import sentence_spans  # noqa: PLC0415

    last_line_start = stripped.rfind("\n") + 1
    line = stripped[last_line_start:]
    spans = sentence_spans(line)
    if not spans:
        return stripped[:last_line_start].rstrip()
    start = spans[-1][0]
    return (stripped[:last_line_start] + line[:start]).rstrip()


# A small model can fall into a loop and write one piece again and again until its cap:
# "… tall. [S1][S1][S1]…" for five and a half minutes (Qwen2.5-Coder-1.5B on 2 cores, 3,072
# tokens, 2026-11-28); one 131-character sentence over and over for 350–400 s of a draft; and
# "## 1節 … ## 56節" in a REPL follow-up, a heading after a heading with nothing under any. A
# stream whose end is such a loop has stopped saying anything: it is cut there.
LOOP_WINDOW = 2000  # characters of a stream's end looked at: three copies of a 666-character piece
_LOOP_MIN_REPEATS = 6  # a short sentence said six times in a row ("It is tall." five times is emphasis)
_LOOP_MIN_CHARS = 60  # a short piece ("[S1]") fifteen times
_LOOP_LONG_PIECE = 40  # a piece this long (a sentence) said a third time is a loop, however long it is
_LOOP_LONG_REPEATS = 3
_LOOP_EMPTY_HEADINGS = 5  # headings in a row with nothing between: an outline that never gets written
_SAYS_SOMETHING = re.compile(r"[0-9A-Za-z\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff]")
_PIECE_ENDS = frozenset(".。!?！？]】)）」\n ")  # where one copy of a loop's piece ends whole
_HEADING = re.compile(r"[ \t]{0,3}#{1,6}(?:[ \t]|$)")


def repeating_tail(text: str) -> int | None:
    """Where ``text`` should end when its end is such a loop: just after the loop's first copy
    (``text[:index]`` says the piece once), or before a run of empty headings; None when it is
    not. A separator row or a line of dashes (no letter, digit or kana/kanji in the piece) is
    never a loop."""
    length = len(text)
    for size in range(1, length // _LOOP_LONG_REPEATS + 1):
        unit = text[length - size:]
        if text[length - 2 * size:length - size] != unit or not _SAYS_SOMETHING.search(unit):
            continue
        copies = 2
        while (start := length - (copies + 1) * size) >= 0 and text[start:start + size] == unit:
            copies += 1
        needed = _LOOP_LONG_REPEATS if size >= _LOOP_LONG_PIECE else max(_LOOP_MIN_REPEATS, _LOOP_MIN_CHARS // size)
        if copies < needed:
            continue
        begin = length - copies * size
        while begin > 0 and text[begin - 1] == text[begin - 1 + size]:
            begin -= 1  # where the repeating begins, whatever piece of it the stream stopped in
        # One copy kept, ending where a piece naturally ends: "[S1]", not "[S1][S"; "B is 2.", not "B is 2".
        ends = [end for end in range(begin + size, begin + 2 * size) if text[end - 1] in _PIECE_ENDS]
        return ends[0] if ends else begin + size
    return _empty_headings(text)


# A sentence, as the third-time rule reads one: up to its full stop, at least this long.
_SENTENCE = re.compile(r"[^\n。．.!?！？]+[。．.!?！？]")
_SENTENCE_MIN_CHARS = 20


def said_a_third_time(text: str) -> int | None:
    """Where ``text`` should end when the sentence it has just finished is one it said twice
    already, anywhere: before that third copy. The real model wrote 「江戸（現在の東京）にも火山灰が
    降り、数センチメートル積もったと記録されている。」 under heading after heading until its cap; a
    Summary's sentence said again in a section is twice, not a loop. None otherwise."""
    end = len(text.rstrip(" "))
    last = None
    for last in _SENTENCE.finditer(text, max(0, end - 400)):
        pass
    if last is None or last.end() != end:
        return None
    sentence = last.group(0).strip()
    if len(sentence) < _SENTENCE_MIN_CHARS or not _SAYS_SOMETHING.search(sentence):
        return None
    first = text.find(sentence)
    second = text.find(sentence, first + len(sentence))
    third = text.find(sentence, second + len(sentence)) if second != -1 else -1
    return third if third != -1 else None


def _empty_headings(text: str) -> int | None:
    """Where a run of headings with nothing between them begins (blank lines aside), when the
    text ends in one of at least ``_LOOP_EMPTY_HEADINGS``; None otherwise."""
    starts, position = [], 0
    for line in text.split("\n"):
        starts.append((position, line))
        position += len(line) + 1
    headings, begin = 0, None
    for position, line in reversed(starts):
        if not line.strip():
            continue  # blank lines, and the line the stream has not begun yet
        if not _HEADING.match(line):
            break
        headings, begin = headings + 1, position
    return begin if headings >= _LOOP_EMPTY_HEADINGS else None


# A heading that holds the answer. The real 1.5B model wrote "## Summary: Yes, semi-closed
# endarterectomy … is an acceptable alternative …" and a whole paragraph, citations and all, as
# "## Endarterectomy … [S4] found that …" (PubMedQA): headings are not claims, so nothing of it was
# checked, the Summary stayed empty and the unchecked paragraph was shown as a Findings title.
_HEADING_LINE = re.compile(r"^([ \t]{0,3}#{1,6})[ \t]+(.*?)[ \t]*#*[ \t]*$")
_SECTION_WITH_TEXT = re.compile(r"^\**(summary|conclusion|answer|findings|結論|要約|回答|まとめ|調査結果)\**\s*[:：]\s*(\S.*)$",
                                re.IGNORECASE)
_SENTENCE_INSIDE = re.compile(r"[a-z]{2}[.!?]\s+[A-Z]|。\S")  # not "U.S. law", "Mt. Fuji", "1. Title"
_NUMBERED = re.compile(r"^\s*(?:\d+|[a-zA-Z]|[IVX]+)[.)]\s+")  # "1. ", "a) ": a section's number
_TITLE_MAX_WORDS = 25
_TITLE_MAX_CHARS_JA = 60


def headings_as_text(text: str) -> str:
    """``text`` with what a model wrote into its headings given back to the body: "## Summary:
    <sentences>" becomes the heading "## Summary" and its sentences; a heading that is a
    paragraph (a citation in it, a sentence ending inside it, or longer than any title) becomes
    that paragraph. Other headings ("## 1. Common reasons:", "## Step 2: Install it") stay."""
    out: list[str] = []
    for line in text.split("\n"):
        match = _HEADING_LINE.match(line)
        if match is None:
            out.append(line)
            continue
        marks, title = match.groups()
        named = _SECTION_WITH_TEXT.match(title)
        if named is not None:
            out += [f"{marks} {named.group(1)}", "", named.group(2), ""]
        elif _is_a_paragraph(title):
            out += ["", title, ""]
        else:
            out.append(line)
    return "\n".join(out)


def _is_a_paragraph(title: str) -> bool:
    title = _NUMBERED.sub("", title)
    if CITATION_GROUP.search(title) or _SENTENCE_INSIDE.search(title):
        return True
    if title.rstrip("*_ ").endswith(("?", "？")):
        return False  # a sub-question as its section's title, however long (PubMedQA's run to 26 words)
    if re.search(r"[\u3040-\u30ff\u4e00-\u9fff]", title):
        return len(title) > _TITLE_MAX_CHARS_JA
    return len(title.split()) > _TITLE_MAX_WORDS

"""Split a Markdown draft into claims: one sentence each, with its section and citations.

A claim keeps its character span in the draft so the verifier can rewrite exactly that
sentence (drop a fabricated label, append a flag) and leave the rest of the draft alone.

What is not a claim: headings, fenced code, table header and separator rows, horizontal
rules, empty lines, lines that only hold citations, a lead-in ending in a colon that
introduces a list, and the draft's own source list (the report builds that from the ledger).
List items and table data rows are claims.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass, field

# The one citation grammar and URL pattern live in core (the language measure below text
# needs them too); re-exported here, where the rest of text has always found them.
from research.modules.core.grammar import (CITATION_GROUP, INLINE_CODE, JOINED_CITATIONS, NORMALISED_CITATION_LIST,
                                           NORMALISED_CITATIONS, NORMALISED_LABEL, URL_IN_PROSE)

# "[^1]: Smith, https://…" or "[1]: https://…": a footnote list written by the model.
_FOOTNOTE_DEFINITION = re.compile(r"^\s{0,3}[\[［]\^?([0-9０-９]{1,3})[\]］]\s*[:：]\s*(.*)$", re.MULTILINE)
_MAX_RANGE = 20  # "[1-3]" is three sources; "[1-300]" is not a citation we expand

_HEADING = re.compile(r"^\s{0,3}(#{1,6})\s+(.*?)\s*#*\s*$")
MARKDOWN_HEADING = _HEADING  # one Markdown heading line: its #s, its title
_FENCE = re.compile(r"^\s{0,3}(```|~~~)")
_RULE = re.compile(r"^\s{0,3}([-*_])(\s*\1){2,}\s*$")
_TABLE_SEPARATOR = re.compile(r"^\s*\|?\s*:?-{2,}:?\s*(\|\s*:?-{2,}:?\s*)*\|?\s*$")
_LIST_MARKER_BODY = r"\s*(?:[-*+•・]|\d{1,3}[.)）]|[（(]\d{1,3}[)）])\s+"
_LIST_MARKER = re.compile(_LIST_MARKER_BODY)  # used with .match(text, pos): anchored at pos
_LEADING_LIST_MARKER = re.compile("^" + _LIST_MARKER_BODY)
_QUOTE_MARKER = re.compile(r"^\s{0,3}>\s?")
_MD_IMAGE = re.compile(r"!\[[^\]\n]*\]\([^)\n]*\)")  # a picture says nothing to check or quote
_MD_LINK = re.compile(r"\[([^\]\n]*)\]\((?:[^)\s]+)(?:\s+\"[^\"]*\")?\)")
# Emphasis; with underscores only where they stand outside a word, as CommonMark reads them: «formula_1とformula_2は…»
# (a JSQuAD page's placeholders) is no emphasis, and read as one its "1とformula" lost the underscores and the figures
# the claim gave as "formula_4" (`research bench jsquad --sample 5 --seed 145`, the page's own sentence not checked).
_EMPHASIS = re.compile(r"(\*\*|\*|~~)(?=\S)(.+?)(?<=\S)\1|(?<!\w)(__|_)(?=\S)(.+?)(?<=\S)\3(?!\w)")
_LETTER = re.compile(r"[A-Za-z\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uff66-\uff9f]")

# Headings of a source list the model may have written itself: not claims to verify. 「資料」 too:
# the real 1.5B model (JSQuAD bench, --seed 74) wrote one over each page's title and pasted
# sentences, another country's history among them.
_REFERENCE_HEADINGS = re.compile(
    r"^(sources?|references?|bibliography|citations?|works cited|further reading|external links|"
    r"参考文献|出典|(?:参考|関連)?資料|情報源|ソース|引用文献|引用元|参照元|(?:関連|外部)リンク)\s*[:：]?$",
    re.IGNORECASE,
)

def is_reference_heading(title: str) -> bool:
    """A heading over a source list the model wrote itself ("References", 「参考文献」)."""
    return _REFERENCE_HEADINGS.match(title.strip()) is not None


# A line that is only such a heading's words, bold or not: "Sources:", "**References:**". Not a list item ("* References"
# among a case report's parts: RAGTruth train 16181).
_REFERENCE_LINE = re.compile(r"^(?:\*\*|__)?(?P<title>[^*_\s][^*_]*?)(?:\*\*|__)?$")


def is_reference_line(line: str) -> bool:
    """A line of its own that opens a source list the model wrote itself, as a heading would ("Sources:")."""
    match = _REFERENCE_LINE.match(line.strip())
    return match is not None and is_reference_heading(match["title"])


# Abbreviations after which "." does not end an English sentence.
_ABBREVIATIONS = {
    "mr", "mrs", "ms", "dr", "prof", "sr", "jr", "st", "mt", "vs", "etc", "e.g", "i.e", "eg", "ie",
    "u.s", "u.k", "u.n", "no", "nos", "fig", "figs", "approx", "ca", "inc", "ltd", "co", "corp",
    "al", "vol", "pp", "p", "ed", "eds", "jan", "feb", "mar", "apr", "jun", "jul", "aug", "sep",
    "sept", "oct", "nov", "dec", "est", "dept", "univ", "gen", "gov", "rev", "cf", "ph.d", "a.m", "p.m",
}
_ALWAYS_END = set("。！？!?")
_JAPANESE_CHAR = re.compile(r"[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff]")
_CLOSERS = set("」』）)]】\"'”’")


@dataclass
class Claim:
    """One sentence of the draft."""

    index: int
    text: str  # the sentence as written, citations included
    plain: str  # without citations, list markers, links or emphasis: what is checked
    section: str  # title of the nearest heading above it ("" before the first)
    citations: list[str] = field(default_factory=list)  # normalised labels: "S1", in order
    start: int = 0  # span of ``text`` in the draft
    end: int = 0
    # An uncited sentence in a paragraph whose citations all come at its end: those
    # citations. They apply to this sentence only if the checks say its source supports it.
    paragraph_citations: list[str] = field(default_factory=list)


def normalise_label(raw: str) -> str:
    """``"Ｓ１"`` -> ``"S1"``."""
    return unicodedata.normalize("NFKC", raw).strip().upper()


def _group_items(group: str) -> list[tuple[int, bool]]:
    """(number, written with an S) for each source a citation group names, ranges expanded."""
    inner = unicodedata.normalize("NFKC", group)[1:-1]
    footnote = inner.lstrip().startswith("^")
    inner = re.sub(r"†[^,;、]*", "", inner)  # 【1†L3-L5】: line locators are no source numbers
    inner = re.sub(r"(?<=\d):\d+", "", inner)  # 【4:0†source】
    items: list[tuple[int, bool]] = []
    pending_range = False
    for match in re.finditer(r"([Ss]?)(\d+)|([-–—~〜])", inner):
        if match.group(3):
            pending_range = bool(items)
            continue
        number, labelled = int(match.group(2)), bool(match.group(1)) and not footnote
        if pending_range and items and 0 < number - items[-1][0] <= _MAX_RANGE:
            items.extend((n, labelled) for n in range(items[-1][0] + 1, number + 1))
        else:
            items.append((number, labelled))
        pending_range = False
    return items


def _resolve(number: int, labelled: bool, order: list[str] | None) -> str:
    """"S3" for [S3]; for a bare number, the ledger's label at that position (1-based)."""
    if not labelled and order and 1 <= number <= len(order):
        return order[number - 1]
    return f"S{number}"


def group_labels(group: str, order: list[str] | None = None, footnotes: dict[int, str] | None = None) -> list[str]:
    """The labels one citation group names, normalised, in order, no repeats."""
    is_footnote = unicodedata.normalize("NFKC", group)[1:].lstrip().startswith("^")
    labels: list[str] = []
    for number, labelled in _group_items(group):
        if is_footnote and footnotes and number in footnotes:
            label = footnotes[number]
        else:
            label = _resolve(number, labelled, order)
        if label not in labels:
            labels.append(label)
    return labels


def citation_labels(text: str, order: list[str] | None = None, footnotes: dict[int, str] | None = None) -> list[str]:
    """Every label cited in ``text``, normalised, first occurrence order, no repeats.

    ``order`` is the ledger's labels: a bare ``[2]`` means its second source. Without it
    ``[2]`` means S2. ``footnotes`` maps a footnote number to the label its definition names.
    """
    labels: list[str] = []
    for group in CITATION_GROUP.finditer(text):
        for label in group_labels(group.group(0), order, footnotes):
            if label not in labels:
                labels.append(label)
    return labels


def footnote_map(draft: str, sources: list[dict] | None = None) -> dict[int, str]:
    """Footnote number -> label, from the model's footnote list.

    A definition that names a label (``[^1]: [S2]`` or ``S2 …``) points there; one that
    gives a source's URL or title points at that source; otherwise the number is read
    in ledger order like a bare ``[1]``.
    """
    order = [str(s.get("label")) for s in sources or [] if s.get("label")]
    mapping: dict[int, str] = {}
    for match in _FOOTNOTE_DEFINITION.finditer(draft):
        number = int(unicodedata.normalize("NFKC", match.group(1)))
        body = match.group(2)
        named = citation_labels(body, order) or [normalise_label(m) for m in re.findall(r"\b[SＳ][0-9０-９]{1,3}\b", body)]
        if named:
            mapping[number] = named[0]
            continue
        folded = body.casefold()
        for source in sources or []:
            url, title = str(source.get("url") or ""), str(source.get("title") or "").strip()
            if (url and url.casefold().rstrip("/") in folded) or (len(title) >= 6 and title.casefold() in folded):
                mapping[number] = str(source["label"])
                break
        else:
            mapping[number] = _resolve(number, False, order)
    return mapping


def _protected_ranges(text: str) -> list[tuple[int, int]]:
    """Fenced and inline code: a "[1]" in code is an index, not a citation."""
    ranges = [m.span() for m in re.finditer(r"^\s{0,3}(```|~~~).*?(?:^\s{0,3}\1[^\n]*$|\Z)", text, re.MULTILINE | re.DOTALL)]
    ranges += [m.span() for m in INLINE_CODE.finditer(text)]
    return ranges


def normalise_citations(draft: str, sources: list[dict]) -> tuple[str, list[dict]]:
    """Every citation style rewritten to ``[S#]`` groups (``[S1][S3]``), in place.

    ``sources`` is the ledger (label, url, title), in order: a bare number is its position.
    The model's footnote list goes (the report builds the source list from the ledger);
    a label that resolves to no source stays, so the verifier removes it and flags the
    sentence. Returns the draft and one record per rewritten group.
    """
    order = [str(s.get("label")) for s in sources if s.get("label")]
    footnotes = footnote_map(draft, sources)
    changes: list[dict] = []
    protected = _protected_ranges(draft)

    def rewrite(match: re.Match[str]) -> str:
        if any(start <= match.start() < end for start, end in protected):
            return match.group(0)
        labels = group_labels(match.group(0), order, footnotes)
        canonical = "".join(f"[{label}]" for label in labels)
        if canonical != match.group(0):
            changes.append({"from": match.group(0), "to": canonical})
        return canonical

    text = CITATION_GROUP.sub(rewrite, draft)
    if footnotes:
        text = _FOOTNOTE_DEFINITION.sub("", text)
        text = re.sub(r"\n{3,}", "\n\n", text).rstrip() + ("\n" if draft.endswith("\n") else "")
    return _citations_led_to_the_end(_citations_as_nouns_to_the_end(text, changes), changes), changes


# "[Source: [S1][S3]] Mount Fuji is 3,776 meters tall." (Qwen2.5-Coder-1.5B, every line of a
# section), "Sources: [S2] …", 「出典: [S1] …」: the citations named before the sentence they are for,
# also with commas between them ("[Source: [S1], [S6], [S3], [S5]] The last eruption …", the same model).
_LEADING_CITATIONS = re.compile(
    r"^(?P<lead>[ \t]*(?:[-*+]\s+|\d+\.\s+)?)"
    rf"(?:[\[［(（]\s*(?:sources?|出典|ソース)\s*[:：]\s*(?P<wrapped>{NORMALISED_CITATION_LIST})\s*[\]］)）]"
    rf"|(?:sources?|出典|ソース)\s*[:：]\s*(?P<named>{NORMALISED_CITATION_LIST})"
    rf"|(?P<bare>{NORMALISED_CITATIONS}))[ \t]*(?P<sentence>[^\n\[]+?)(?P<end>[.。!?！？]?)[ \t]*$",
    re.IGNORECASE | re.MULTILINE)


def _citations_led_to_the_end(text: str, changes: list[dict]) -> str:
    """A line that opens with its citations ("[Source: [S1][S3]] X is Y.", "[S1] X is Y.") and
    holds one sentence citing nothing else: the citations put where every sentence has them,
    at its end ("X is Y [S1][S3]."), so the sentence reads as a sentence and not as a label."""

    def move(match: re.Match[str]) -> str:
        sentence = match.group("sentence").rstrip()
        cites = "".join(NORMALISED_LABEL.findall(match.group("wrapped") or match.group("named") or match.group("bare")))
        if len(split_sentences(sentence)) != 1 or not re.search(r"\w", sentence):
            return match.group(0)
        joiner = "" if re.search(r"[\u3040-\u30ff\u3400-\u9fff）」』]$", sentence) else " "
        moved = f"{match.group('lead')}{sentence}{joiner}{cites}{match.group('end')}"
        changes.append({"from": match.group(0).strip(), "to": moved.strip()})
        return moved

    return _LEADING_CITATIONS.sub(move, text)


# A citation written as what a sentence is according to ("According to [S1], Mount Fuji is …", "As
# shown in [S2], …", 「[S1]によると、…」) or as whose study it is ("The study by [S1] found that …",
# Qwen2.5-Coder-1.5B on PubMedQA): taken out, it left "According to, Mount Fuji is …" and "The study
# by found that …" as what the checks read and the report lists.
_CITES = rf"{NORMALISED_CITATIONS}(?:\s*(?:,\s*)?(?:and|&|,)\s*{NORMALISED_CITATIONS})*"
_CITED_AS_WHERE_EN = re.compile(
    r"\b(?:according to|as (?:shown|stated|noted|reported|described|mentioned|explained|indicated|seen|found) "
    r"(?:in|by)|based on|per)\s+(?:the\s+)?(?:(?:source|study|article|page|document|paper|report|review)\s+)?"
    rf"(?P<cites>{_CITES})\s*,\s*(?=\w)", re.IGNORECASE)
_CITED_AS_WHOSE_EN = re.compile(
    r"\b(?P<noun>stud(?:y|ies)|article|paper|review|report|source|page|document|trial|analysis|authors?|researchers?)"
    rf"\s+(?:by|in|from)\s+(?P<cites>{_CITES})(?=\s+[a-z])", re.IGNORECASE)
_CITED_AS_WHERE_JA = re.compile(rf"(?P<cites>{_CITES})\s*(?:によると|によれば|では)、")
_SENTENCE_END = re.compile(r"[.!?](?=[ \t]|$)|[。！？]", re.MULTILINE)  # "3.14" ends nothing; "in 2025." does
_SENTENCE_START = re.compile(r"(?:^[ \t]*(?:[-*+]\s+|\d+\.\s+)?|[.!?。！？]\s*)$")


def _citations_as_nouns_to_the_end(text: str, changes: list[dict]) -> str:
    """A citation used as a word of its sentence goes where every sentence has its citations, at
    the end, and the words that only pointed at it go with it: "According to [S1], Mount Fuji is
    3,776 m tall." → "Mount Fuji is 3,776 m tall [S1].", "The study by [S1] found that …" → "The
    study found that … [S1].", 「[S1]によると、富士山は…です。」 → 「富士山は…です[S1]。」. A sentence
    whose end cannot be found is left as written."""
    for pattern in (_CITED_AS_WHERE_EN, _CITED_AS_WHOSE_EN, _CITED_AS_WHERE_JA):
        position = 0
        while (match := pattern.search(text, position)) is not None:
            end = _SENTENCE_END.search(text, match.end())
            if end is None or "\n" in text[match.end():end.start()]:
                position = match.end()
                continue
            cites = match.group("cites")
            kept = match.group("noun") if "noun" in pattern.groupindex else ""
            rest = text[match.end():end.start()].rstrip()
            at_start = bool(_SENTENCE_START.search(text[:match.start()]))
            if at_start and not kept and rest[:1].islower():
                rest = rest[:1].upper() + rest[1:]
            # Its own citations already at its end: ours join them, each label once.
            already = re.search(rf"{NORMALISED_CITATIONS}$", rest)
            labels = NORMALISED_LABEL.findall((already.group(0) if already else "") + cites)
            if already:
                rest = rest[: already.start()].rstrip()
            joiner = "" if re.search(r"[\u3040-\u30ff\u3400-\u9fff）」』]$", rest) else " "
            moved = f"{kept}{rest}{joiner}{''.join(dict.fromkeys(labels))}"
            changes.append({"from": text[match.start():end.end()].strip(), "to": (moved + end.group(0)).strip()})
            text = text[: match.start()] + moved + text[end.start():]
            position = match.start() + len(moved)
    return text


def strip_citations(text: str) -> str:
    """The text without citation groups (and the words joining them), whitespace tidied."""
    return _tidy(CITATION_GROUP.sub(" ", JOINED_CITATIONS.sub(" ", text)))


def plain_text(text: str, *, keep_citations: bool = False, cell: bool = False) -> str:
    """What a line says, without Markdown decoration (images, link targets, code marks,
    emphasis, a leading list marker, table pipes) and, unless kept, without citations.

    The project's one Markdown stripper: a claim of the draft and a sentence or table cell
    of a parsed page (``parsing.analysis``, which keeps a page's own "[1]" as written) read
    the same. In a table ``cell`` a leading "1." and a "|" are content, not markup."""
    text = _MD_IMAGE.sub("", text)
    text = _MD_LINK.sub(r"\1", text)
    if not keep_citations:
        text = CITATION_GROUP.sub(" ", JOINED_CITATIONS.sub(" ", text))
    text = INLINE_CODE.sub(lambda m: m.group(0).strip("`"), text)
    for _ in range(2):  # nested **_x_**
        text = _EMPHASIS.sub(lambda m: m.group(2) if m.group(1) else m.group(4), text)
    if not cell:
        text = _LEADING_LIST_MARKER.sub("", text)
        text = text.replace("|", " ")
    return _tidy(text)


def _tidy(text: str) -> str:
    text = re.sub(r"[ \t\u3000]+", " ", text).strip()
    # A citation removed before the full stop leaves "1707 ." or "です 。".
    return re.sub(r"\s+([.,;:!?。、！？」』）)])", r"\1", text)


# --- sentences -------------------------------------------------------------------------


def _protected_mask(text: str) -> list[bool]:
    """Positions inside URLs, inline code and link targets, where "." ends nothing."""
    mask = [False] * len(text)
    for pattern in (URL_IN_PROSE, INLINE_CODE, _MD_LINK):
        for match in pattern.finditer(text):
            for i in range(match.start(), match.end()):
                mask[i] = True
    return mask


_QUOTE_PAIRS = {"「": "」", "『": "』", "（": "）"}


def _quoted_mask(text: str) -> list[bool]:
    """Positions inside a closed Japanese quotation: 「噴火は続いた。」と記録にある。 is one
    sentence. An opening mark that is never closed protects nothing.

    Linear in the text's length (a hostile answer of a megabyte of 「 is read in one pass):
    the next closer of each kind is found by one scan from the right, and the quoted
    stretches are marked through a running count instead of one loop per opener."""
    n = len(text)
    content_end = len(text.rstrip())
    next_closer: dict[str, int] = {closer: -1 for closer in _QUOTE_PAIRS.values()}
    closer_after = [-1] * n
    for i in range(n - 1, -1, -1):
        ch = text[i]
        closer = _QUOTE_PAIRS.get(ch)
        if closer is not None:
            closer_after[i] = next_closer[closer]
        if ch in next_closer:
            next_closer[ch] = i
    depth = [0] * (n + 1)
    for i in range(n):
        j = closer_after[i]
        # "...。」" at the very end of the block is a sentence that is all quotation.
        if j != -1 and j + 1 < content_end:
            depth[i + 1] += 1
            depth[j] -= 1
    mask = [False] * n
    running = 0
    for i in range(n):
        running += depth[i]
        mask[i] = running > 0
    return mask


_WORD_BEFORE = re.compile(r"([A-Za-z][A-Za-z.]*)$")
_LOOK = 64  # how far around a full stop the sentence rules look: an abbreviation, the next word


def _word_before(text: str, dot: int) -> str:
    """The word before the full stop at ``dot``, past a citation the model put between them ("vs [S1].",
    the real 1.5B model on PubMedQA 18388848)."""
    start = max(0, dot - _LOOK)
    before = _CITATIONS_AT_END.sub("", text[start:dot])
    match = _WORD_BEFORE.search(before)
    return match.group(1).lower() if match else ""


_CITATIONS_AT_END = re.compile(rf"(?:\s*(?:{CITATION_GROUP.pattern}))+\s*$")


def _period_ends_sentence(text: str, i: int) -> bool:
    before = text[i - 1] if i > 0 else ""
    after = text[i + 1] if i + 1 < len(text) else ""
    if before.isdigit() and after.isdigit():  # 3.5, 1.0.2
        return False
    if before.isdigit() and after == ".":
        dots = i
        while dots < len(text) and text[dots] == ".":
            dots += 1
        if text[dots:dots + 1].isdigit():
            return False  # a range, 「数値範囲検索 (70..73)」: cut there, the real 1.5B model's sentence got [S1] inside
    if after and (CITATION_GROUP.match(text, i + 1) or _JAPANESE_CHAR.match(after)):  # "end.【1】", "end.富士山は"
        return True
    if after and not (after.isspace() or after in _CLOSERS or after in "[［" or after == "."):
        return False  # "example.com", "Node.js" without a URL scheme
    word = _word_before(text, i)
    if word in _ABBREVIATIONS or word.rstrip(".") in _ABBREVIATIONS:
        return False
    if len(word) == 1 and word.isalpha() and text[i - 1].isupper():  # an initial: "J. Smith"
        return False
    # Past a closing bracket or quote too: "the intracerebroventricular (i.c.v.) injection of two activators" is one
    # sentence (PubMedQA 21801416; its aim was cut in two, and the half read held no question).
    rest = text[i + 1 : i + 1 + _LOOK].lstrip(" \t.)\"'”’）")
    # English sentences start with a capital: a lower-case word after "." means an
    # abbreviation we do not know ("approx. three"), not a new sentence. Not a word that keeps a
    # capital inside ("pH", "mRNA", "eGFR"), nor after a citation, which only ends a sentence: "…from
    # the wet mount slide [S1]. pH measurement from microscopy slides …" was one claim of two.
    if rest and rest[0].islower() and rest[0].isascii() and not _MIXED_CASE_START.match(rest) \
            and not _ENDS_WITH_CITATION.search(text, max(0, i - _LOOK), i):
        return False
    return True


_MIXED_CASE_START = re.compile(r"[a-z]{1,3}[A-Z]")
_ENDS_WITH_CITATION = re.compile(rf"(?:{CITATION_GROUP.pattern})\s*$")


def _extend_end(text: str, end: int) -> int:
    """Move a sentence end past closing quotes and citations that follow the full stop."""
    n = len(text)
    while True:
        while end < n and text[end] in _CLOSERS and text[end] not in "[]":
            end += 1
        probe = end
        while probe < n and text[probe] in " \t\u3000":
            probe += 1
        match = CITATION_GROUP.match(text, probe)
        if match:
            end = match.end()
            # "... 1707 [S2]." already ended at the "."; "...です。[S1]。" gets its stray stop too.
            if end < n and text[end] in "。.":
                end += 1
            continue
        return end


def sentence_spans(text: str) -> list[tuple[int, int]]:
    """Sentence boundaries in one block of prose, as ``(start, end)`` offsets."""
    return _split(text)[0]


def has_sentence_end(text: str) -> bool:
    """``text`` finishes at least one sentence, by the splitter's rules: "Dr. Smith", "3.5"
    and "example.com" finish none; "It erupted. [S1] ⚠" finishes one."""
    return _split(text)[1]


def _split(text: str) -> tuple[list[tuple[int, int]], bool]:
    """The sentence spans, and whether any of them ended at a full stop (not at the text's end)."""
    mask = _protected_mask(text)
    quoted = _quoted_mask(text)
    spans: list[tuple[int, int]] = []
    start = 0
    i = 0
    n = len(text)
    while i < n:
        ch = text[i]
        is_end = False
        if not mask[i] and not quoted[i]:
            if ch in _ALWAYS_END:
                is_end = True
            elif ch == "．":
                is_end = not (i > 0 and text[i - 1].isdigit() and i + 1 < n and text[i + 1].isdigit())
            elif ch == ".":
                is_end = _period_ends_sentence(text, i)
        if is_end:
            end = i + 1
            while end < n and text[end] in "。！？!?.．…":  # "?!", "...", "！？"
                end += 1
            end = _extend_end(text, end)
            spans.append((start, end))
            start = end
            i = end
            continue
        i += 1
    ended = bool(spans)
    if start < n:
        spans.append((start, n))
    # Trim whitespace from each span; drop empty ones.
    trimmed = []
    for s, e in spans:
        while s < e and text[s].isspace():
            s += 1
        while e > s and text[e - 1].isspace():
            e -= 1
        if e > s:
            trimmed.append((s, e))
    return trimmed, ended


def split_sentences(text: str, *, whole: bool = False) -> list[str]:
    """The sentences of ``text``, trimmed; with ``whole``, pieces that joined back give
    ``text`` unchanged (the space before a sentence, and a list marker, belong to it), for
    a caller that rewrites one sentence of a line in place."""
    spans = sentence_spans(text)
    if not whole:
        return [text[s:e] for s, e in spans]
    if not spans:
        return [text] if text else []
    pieces, cursor = [], 0
    for number, (_, end) in enumerate(spans):
        end = end if number < len(spans) - 1 else len(text)
        pieces.append(text[cursor:end])
        cursor = end
    return pieces


# --- blocks of the draft ----------------------------------------------------------------


@dataclass
class _Block:
    start: int  # offset in the draft where the prose begins (after a list marker)
    end: int
    section: str


def _lines_with_offsets(draft: str) -> list[tuple[int, str]]:
    out, offset = [], 0
    for line in draft.splitlines(keepends=True):
        out.append((offset, line.rstrip("\r\n")))
        offset += len(line)
    return out


def _is_table_row(line: str) -> bool:
    stripped = line.strip()
    return stripped.startswith("|") and stripped.count("|") >= 2


def _prose_blocks(draft: str) -> list[_Block]:
    """Paragraphs, list items, quotes and table data rows, with the heading they sit under."""
    lines = _lines_with_offsets(draft)
    blocks: list[_Block] = []
    section = ""
    in_fence = False
    in_references = False
    paragraph: _Block | None = None

    def close() -> None:
        nonlocal paragraph
        if paragraph is not None:
            blocks.append(paragraph)
            paragraph = None

    for idx, (offset, line) in enumerate(lines):
        if _FENCE.match(line):
            close()
            in_fence = not in_fence
            continue
        if in_fence:
            continue
        heading = _HEADING.match(line)
        if heading:
            close()
            section = plain_text(heading.group(2))
            in_references = bool(_REFERENCE_HEADINGS.match(section))
            continue
        if not line.strip() or _RULE.match(line):
            close()
            continue
        if in_references:
            continue
        if is_reference_line(line):
            # "Sources:" on a line of its own, its list below: a heading written as a line (the real 1.5B model).
            close()
            in_references = True
            continue
        if _FOOTNOTE_DEFINITION.match(line):
            close()  # the model's footnote list names sources; it is not a claim
            continue
        if _is_table_row(line):
            close()
            if _TABLE_SEPARATOR.match(line):
                continue
            following = lines[idx + 1][1] if idx + 1 < len(lines) else ""
            if _TABLE_SEPARATOR.match(following) and "|" in following:
                continue  # the header row
            blocks.append(_Block(offset, offset + len(line), section))
            continue
        content_start = offset
        quote = _QUOTE_MARKER.match(line)
        if quote:
            content_start += quote.end()
        marker = _LIST_MARKER.match(draft, content_start, offset + len(line))
        if marker:
            close()
            paragraph = _Block(marker.end(), offset + len(line), section)
            continue
        if paragraph is not None and not quote:
            # A soft line break continues the paragraph (or the list item).
            paragraph.end = offset + len(line)
            continue
        close()
        paragraph = _Block(content_start, offset + len(line), section)
    close()
    return blocks


# Sentences that assert nothing about the world: filler, hedges, and sentences about the
# answer or the sources themselves. RAGTruth answers are full of them ("Sure! Here is…").
_NOT_A_CLAIM = [
    re.compile(p, re.IGNORECASE)
    for p in (
        r"^(sure|certainly|of course|okay|ok|absolutely|great|yes|no problem)[.!?]?$",
        # "(Passage 2)" or "(Source 1, Step 3)" left alone on a line: a pointer, not a statement.
        r"^[(（]?\s*(passages?|sources?|documents?|context)\s*\d+(\s*(,|and|&)\s*\d+)*(\s*,\s*step\s*\d+)?\s*[)）]?[.。]?$",
        r"^(here|below)\s+(is|are|'s)\b.{0,80}[:.]?$",
        r"^here's\b.{0,80}[:.]?$",
        r"^(i hope|hope) (this|that) helps",
        r"^(?!.*\d)(i|we)('d| would| can| will|'ll| am| 'm)? (be (happy|glad) to |gladly )?(help|answer|explain|summari[sz]e|assist)\b[^.!?]{0,40}[.!?]?$",
        r"^(please )?(let me know|feel free)\b",
        r"^(please )?note that (the|this) (passages?|sources?|text|information|context)",
        r"^(based on|according to|from) (the )?(given|provided|above|available)?\s*(passages?|sources?|information|context|text|data|documents?)[^.]{0,40}[,:]?\s*$",
        r"\b(passages?|sources?|context|provided information|given information|documents?) (do(es)? not|don't|doesn't) "
        r"(mention|provide|contain|include|specify|say|state|give)",
        r"^(there is|there's) no (information|mention|data)\b",
        r"^i (cannot|can't|am unable to|'m unable to|could not|couldn't) (answer|find|provide|determine)",
        r"^(unable to answer|i don't know)",
        r"^(in )?(summary|conclusion|overview)[:.]?$",
        r"^it('s| is) (important|worth) (to note|noting)[.:]?$",
        r"^(はい|承知しました|かしこまりました|もちろんです)[、。！!]?$",
        r"^以下(は|に|の通り)",
        r"(参考になれば|お役に立てれば)",
        r"(出典|資料|文章|情報源|提供された情報)(には|では).{0,20}(記載|言及|触れ)(が|は)?(ありません|されていません|なし)",
        r"^(まとめ|要約|概要)[:：]?$",
    )
]


# "Sure! …", "Yes, …", 「はい、…」: a word of assent before the sentence. What follows it is
# judged on its own: 「はい、日本で蝗害が発生したことはありません。」 says something.
_ASSENT = re.compile(
    r"^(sure|certainly|of course|okay|ok|absolutely|great|yes|no problem|はい|ええ|承知しました|かしこまりました|"
    r"もちろんです|もちろん)\s*[,，、!！.。]\s*",
    re.IGNORECASE,
)


def is_filler(plain: str) -> bool:
    """A sentence that asserts nothing checkable (filler, hedge, talk about the sources)."""
    text = plain.strip().strip("*_ ")
    assent = _ASSENT.match(text)
    if assent:
        rest = text[assent.end():]
        return len(_LETTER.findall(rest)) < 3 or is_filler(rest)
    return any(pattern.search(text) for pattern in _NOT_A_CLAIM)


def _is_claim(plain: str, text: str) -> bool:
    if len(_LETTER.findall(plain)) < 3:
        return False
    # "The main facts are:" introduces a list; it asserts nothing to check.
    if plain.rstrip().endswith((":", "：")) and not citation_labels(text):
        return False
    return not is_filler(plain)


# Sentences a model ran together without their full stops: "…had a 66% local failure rate The study showed that …"
# (the real 1.5B model on PubMedQA 23389866 and 11759976, `research bench pubmedqa --seed 138`: three sentences read
# as one claim, contradicted or not checked as a whole, and taken out with the true ones in them). A capitalised
# opener right after a lower-case word, a figure or a bracket.
RUN_ON_JOINT = re.compile(r"(?<=[a-z0-9%)])\s+(?=(?:The|This|These|However|Therefore|Thus|Moreover|Furthermore|Additionally|"
                        r"Overall|In addition|In contrast)\s+[a-z])")
_RUN_ON_WORDS_AT_LEAST = (8, 5)  # words before and after such a joint: "See the book The lord of the rings" is one
# A word no sentence ends with: "Examples of passive voice include A good time was had by all and The dog is acting …"
# (RAGTruth train 13899, examples written without quotes) is one sentence.
_NO_SENTENCE_ENDS_WITH = frozenset("""and or but nor of the a an to in on at for with as by from than that which who include
    includes including is are was were be been such like""".split())


def _draft_sentence_spans(body: str) -> list[tuple[int, int]]:
    """``sentence_spans`` of a draft's prose, with sentences run together without full stops told apart."""
    spans = []
    for start, end in sentence_spans(body):
        cuts = [start]
        for joint in RUN_ON_JOINT.finditer(body, start, end):
            before, after = body[cuts[-1]:joint.start()], body[joint.end():end]
            words = before.split()
            if len(words) >= _RUN_ON_WORDS_AT_LEAST[0] and len(after.split()) >= _RUN_ON_WORDS_AT_LEAST[1] \
                    and words[-1].lower() not in _NO_SENTENCE_ENDS_WITH:
                spans.append((cuts[-1], joint.start()))
                cuts.append(joint.end())
        spans.append((cuts[-1], end))
    return spans


def body_sentences(draft: str) -> list[tuple[int, int, str]]:
    """Every sentence of the body's prose, claim or not, as ``(start, end, section)``."""
    out: list[tuple[int, int, str]] = []
    for block in _prose_blocks(draft):
        body = draft[block.start : block.end]
        out.extend((block.start + s, block.start + e, block.section) for s, e in _draft_sentence_spans(body))
    return out


def split_claims(draft: str) -> list[Claim]:
    """Every claim in ``draft``, in order, with spans into ``draft``."""
    footnotes = footnote_map(draft)
    claims: list[Claim] = []
    for block in _prose_blocks(draft):
        body = draft[block.start : block.end]
        in_block: list[Claim] = []
        for s, e in _draft_sentence_spans(body):
            text = body[s:e]
            plain = plain_text(text)
            if not _is_claim(plain, text):
                continue
            in_block.append(
                Claim(
                    index=len(claims) + len(in_block),
                    text=text,
                    plain=plain,
                    section=block.section,
                    citations=citation_labels(text, None, footnotes),
                    start=block.start + s,
                    end=block.start + e,
                )
            )
        # Citations only at the end of a paragraph: "A. B. C [S1][S2]."
        if len(in_block) > 1 and in_block[-1].citations and not any(c.citations for c in in_block[:-1]):
            for claim in in_block[:-1]:
                claim.paragraph_citations = list(in_block[-1].citations)
        claims.extend(in_block)
    return claims

"""What a reader wants from a parsed document besides its Markdown: the most informative
sentences, the sentences that state facts (numbers, dates, quantities), tables, language
and size. Works the same for Japanese and English text.

It runs inside the parser sandbox on text that ``extraction.py`` beside it produced, so it
only uses the standard library and lxml (for HTML tables) and never touches the network.
The result is ``modules/core/parsed_document.py``'s ``ParsedDocument``, a plain dataclass:
this module is preloaded by the parser's fork server, which should not carry pydantic.
"""

from __future__ import annotations

import re
from typing import Callable, Iterable

from research.modules.text.claims import plain_text, split_sentences
from research.modules.core.grammar import URL_TOKEN, ends_sentence
from research.modules.core.language import detect_language, japanese_chars
from research.modules.core.parsed_document import ParsedDocument

MAX_SNIPPETS = 5
MAX_KEY_FACTS = 12
MAX_TABLES = 10
MAX_TABLE_ROWS = 60
MAX_CELL_CHARS = 200
# Sentences outside these bounds are menu items or walls of text, not evidence.
MIN_SENTENCE_CHARS_EN = 25
MIN_SENTENCE_CHARS_JA = 10
MAX_SENTENCE_CHARS = 600

# --- Markdown to plain sentences ---------------------------------------------------

_FENCE = re.compile(r"```.*?```", re.S)
_HEADING = re.compile(r"^\s{0,3}#{1,6}\s+")
_QUOTE = re.compile(r"^\s*>+\s?")
_TABLE_LINE = re.compile(r"^\s*\|.*\|\s*$")

def markdown_to_blocks(markdown: str) -> list[str]:
    """Plain-text paragraphs of a Markdown document (no code, tables, links or markup)."""
    text = _FENCE.sub("\n", markdown)
    blocks: list[str] = []
    current: list[str] = []
    for raw in text.splitlines():
        if not raw.strip() or _TABLE_LINE.match(raw):
            if current:
                blocks.append(" ".join(current))
                current = []
            continue
        line = _HEADING.sub("", raw)
        is_heading = line != raw
        # The one Markdown stripper (a page's "[1]" stays as written), then bare URLs go.
        line = URL_TOKEN.sub("", plain_text(_QUOTE.sub("", line), keep_citations=True)).strip()
        if not line:
            continue
        if is_heading:  # a heading is its own block, never glued to the paragraph below
            if current:
                blocks.append(" ".join(current))
                current = []
            blocks.append(line)
            continue
        current.append(line)
    if current:
        blocks.append(" ".join(current))
    return blocks


def markdown_sentences(text: str) -> list[str]:
    """Sentences of a Markdown document: its plain paragraphs, split by the same
    splitter the verifier uses for claims, so a key fact and a claim cut the same way."""
    return [sentence for block in markdown_to_blocks(text) for sentence in split_sentences(block)]


# --- key facts ----------------------------------------------------------------------

_DIGITS = r"[0-9０-９][0-9０-９,，.．]*"
_KANJI_NUMBER = r"[〇一二三四五六七八九十百千万億兆]+"
_QUANTITY_PATTERNS = [
    # dates
    re.compile(rf"{_DIGITS}\s*年(?:\s*{_DIGITS}\s*月)?(?:\s*{_DIGITS}\s*日)?"),
    re.compile(rf"(?:{_DIGITS}|{_KANJI_NUMBER})\s*(?:月|日|世紀|年代|年前|時代)"),
    re.compile(r"(?:令和|平成|昭和|大正|明治|宝永|江戸)\s*(?:[0-9０-９]+|元|[〇一二三四五六七八九十]+)\s*年"),
    re.compile(r"\b\d{4}-\d{2}-\d{2}\b"),
    re.compile(
        r"\b(?:January|February|March|April|May|June|July|August|September|October|November|December)"
        r"(?:\s+\d{1,2},?)?\s+\d{4}\b"
    ),
    re.compile(r"\b\d{1,2}\s+(?:January|February|March|April|May|June|July|August|September|October|November|December)\s+\d{4}\b"),
    re.compile(r"\b(?:in|since|by|from|until|before|after|around)\s+(?:1[0-9]{3}|20[0-9]{2})\b"),
    re.compile(r"\b\d{1,2}(?:st|nd|rd|th)\s+century\b", re.I),
    # quantities with units (Latin)
    re.compile(
        rf"{_DIGITS}\s*(?:%|percent|per cent|km|m|cm|mm|kg|g|t|mg|ml|l|°C|℃|K|Hz|kHz|MHz|GHz|W|kW|MW|GW|"
        r"V|mph|km/h|m/s|ft|feet|miles?|metres?|meters?|tons?|tonnes?|years?|days?|hours?|minutes?|seconds?|"
        r"people|km2|km²|m²|GB|MB|TB|bytes?|tokens?|parameters?|times)\b",
        re.I,
    ),
    re.compile(rf"(?:[$€£¥]|US\$|USD|EUR|JPY)\s*{_DIGITS}(?:\s*(?:million|billion|trillion|bn|m|k))?", re.I),
    re.compile(rf"{_DIGITS}\s*(?:million|billion|trillion|thousand|hundred)\b", re.I),
    # quantities with units (Japanese)
    re.compile(
        rf"(?:{_DIGITS}|{_KANJI_NUMBER})\s*(?:万|億|兆|千)?\s*(?:％|%|円|ドル|ユーロ|人|名|件|個|台|回|倍|割|"
        r"メートル|キロメートル|キロ|センチ|ミリ|トン|グラム|キログラム|リットル|度|℃|平方キロメートル|"
        r"km|m|kg|歳|才|時間|分|秒|週間|か月|ヶ月|カ月|年間|階|号|位|社|校|基|隻|機|票|世帯|店舗)"
    ),
    re.compile(rf"{_DIGITS}\s*(?:万|億|兆)"),
]


def quantity_mentions(sentence: str) -> int:
    """How many dates, amounts and measured quantities a sentence states."""
    spans: set[tuple[int, int]] = set()
    for pattern in _QUANTITY_PATTERNS:
        for match in pattern.finditer(sentence):
            if not any(start <= match.start() < end for start, end in spans):
                spans.add(match.span())
    return len(spans)


def _min_chars(sentence: str) -> int:
    return MIN_SENTENCE_CHARS_JA if japanese_chars(sentence) else MIN_SENTENCE_CHARS_EN


def _usable(sentence: str) -> bool:
    return _min_chars(sentence) <= len(sentence) <= MAX_SENTENCE_CHARS and not _is_boilerplate(sentence)


def find_key_facts(sentences: Iterable[str], limit: int = MAX_KEY_FACTS) -> list[str]:
    """Sentences that state facts: dates, amounts and measured quantities, best first
    by how many they state, returned in document order."""
    return _best_in_order(sentences, lambda s: quantity_mentions(s) or None, limit)


def _best_in_order(sentences: Iterable[str], score: Callable[[str], float | None], limit: int) -> list[str]:
    """The ``limit`` usable sentences that ``score`` rates highest (None: not a candidate),
    each once, in document order."""
    scored: list[tuple[float, int, str]] = []
    seen: set[str] = set()
    for position, sentence in enumerate(sentences):
        if sentence in seen or not _usable(sentence):
            continue
        seen.add(sentence)
        value = score(sentence)
        if value is not None:
            scored.append((value, position, sentence))
    best = sorted(scored, key=lambda item: (-item[0], item[1]))[:limit]
    return [sentence for _, _, sentence in sorted(best, key=lambda item: item[1])]


# --- snippets -------------------------------------------------------------------------

_BOILERPLATE = re.compile(
    r"cookie|subscribe|sign (?:in|up)|log ?in|newsletter|all rights reserved|©|copyright|privacy policy|"
    r"terms of (?:use|service)|click here|javascript|advertisement|share this|follow us|"
    r"クッキー|ログイン|会員登録|利用規約|プライバシーポリシー|無断転載|著作権|シェア|フォロー|広告|メールマガジン",
    re.I,
)
_ENGLISH_WORD = re.compile(r"[A-Za-z][A-Za-z'-]+")
_STOPWORDS = frozenset(
    "the a an and or but of to in on at for with by from as is are was were be been being it its this that "
    "these those which who whom whose what when where why how not no can could may might will would shall "
    "should do does did has have had you your we our they their he she his her i me my us them than then "
    "there here also just only very more most such so if into over about".split()
)
_CONTENT_RUN_JA = re.compile(r"[\u30a0-\u30ff\u4e00-\u9fff]{2,}")


def _is_boilerplate(sentence: str) -> bool:
    return bool(_BOILERPLATE.search(sentence))


def informativeness(sentence: str) -> float:
    """A rough measure of how much a sentence says: content words (or kanji/katakana terms),
    stated quantities, and a length neither too short nor rambling."""
    if japanese_chars(sentence):
        content = len(_CONTENT_RUN_JA.findall(sentence))
        length_fit = 1.0 if 20 <= len(sentence) <= 150 else 0.6
    else:
        words = _ENGLISH_WORD.findall(sentence)
        content = sum(1 for word in words if word.lower() not in _STOPWORDS)
        length_fit = 1.0 if 60 <= len(sentence) <= 300 else 0.6
    return (content + 2.0 * quantity_mentions(sentence)) * length_fit


def pick_snippets(sentences: Iterable[str], limit: int = MAX_SNIPPETS) -> list[str]:
    """The most informative sentences, in document order."""
    # A sentence that ends without punctuation is usually a heading or a caption.
    return _best_in_order(sentences, lambda s: informativeness(s) if ends_sentence(s) else None, limit)


# --- tables -----------------------------------------------------------------------------

_SEPARATOR_ROW = re.compile(r"^\s*\|?\s*:?-{2,}:?\s*(\|\s*:?-{2,}:?\s*)*\|?\s*$")


def _clean_cell(text: str) -> str:
    return plain_text(" ".join(text.split()), keep_citations=True, cell=True)[:MAX_CELL_CHARS]


def _split_row(line: str) -> list[str]:
    inner = line.strip()
    inner = inner[1:] if inner.startswith("|") else inner
    inner = inner[:-1] if inner.endswith("|") else inner
    cells = re.split(r"(?<!\\)\|", inner)
    return [_clean_cell(cell.replace("\\|", "|")) for cell in cells]


def tables_from_markdown(markdown: str, limit: int = MAX_TABLES) -> list[list[list[str]]]:
    """Pipe tables (the form markdownify writes) as lists of rows of cells."""
    tables: list[list[list[str]]] = []
    rows: list[list[str]] = []

    def flush() -> None:
        if len(rows) >= 2 and any(cell for row in rows for cell in row):
            tables.append(rows[:MAX_TABLE_ROWS])

    for line in markdown.splitlines():
        if _TABLE_LINE.match(line):
            if _SEPARATOR_ROW.match(line):
                continue
            rows.append(_split_row(line))
            continue
        flush()
        rows = []
        if len(tables) >= limit:
            return tables
    flush()
    return tables[:limit]


def tables_from_html(html: str | bytes, limit: int = MAX_TABLES) -> list[list[list[str]]]:
    """``<table>`` elements as lists of rows of cells (nested tables are read separately)."""
    from lxml import etree
    from lxml import html as lxml_html

    try:
        root = lxml_html.document_fromstring(html)
    except (etree.LxmlError, ValueError):  # empty, undecodable or unparseable markup
        return []
    tables: list[list[list[str]]] = []
    for table in root.iter("table"):
        rows: list[list[str]] = []
        for row in table.iter("tr"):
            if row.getparent() is not None and _nearest_table(row) is not table:
                continue
            cells = [_clean_cell(cell.text_content()) for cell in row if cell.tag in ("td", "th")]
            if cells:
                rows.append(cells)
            if len(rows) >= MAX_TABLE_ROWS:
                break
        if len(rows) >= 2 and any(cell for row in rows for cell in row):
            tables.append(rows)
        if len(tables) >= limit:
            break
    return tables


def _nearest_table(element):  # type: ignore[no-untyped-def]
    parent = element.getparent()
    while parent is not None and parent.tag != "table":
        parent = parent.getparent()
    return parent


# --- the whole analysis -----------------------------------------------------------------


# Latin words and numbers ("3,776" is one word); Japanese is measured in characters instead.
_STATS_WORD = re.compile(r"[A-Za-z0-9]+(?:[',.’-][A-Za-z0-9]+)*")
_FIRST_HEADING = re.compile(r"^\s{0,3}#{1,6}\s+(.+?)\s*#*\s*$", re.M)


def guess_title(markdown: str) -> str:
    match = _FIRST_HEADING.search(markdown)
    if match:
        return _clean_cell(match.group(1))
    for line in markdown.splitlines():
        if line.strip():
            return _clean_cell(line)[:120]
    return ""


def document_stats(markdown: str, *, sentences: int, parse_ms: float, input_bytes: int) -> dict[str, float | int | str]:
    cjk = japanese_chars(markdown)
    return {
        "chars": len(markdown),
        "words": len(_STATS_WORD.findall(markdown)),
        "cjk_chars": cjk,
        "sentences": sentences,
        "input_bytes": input_bytes,
        "parse_ms": round(parse_ms, 1),
    }


def analyze_document(
    markdown: str,
    *,
    title: str = "",
    html: str | bytes | None = None,
    parse_ms: float = 0.0,
    input_bytes: int = 0,
) -> ParsedDocument:
    """Build the full ``ParsedDocument`` for extracted Markdown. ``html`` (the original page,
    when there was one) is read for tables that the Markdown conversion flattened."""
    sentences = markdown_sentences(markdown)
    tables = tables_from_markdown(markdown)
    if not tables and html:
        tables = tables_from_html(html)
    return ParsedDocument(
        markdown=markdown,
        title=title.strip() or guess_title(markdown),
        language=detect_language(markdown[:20_000]) if markdown.strip() else "",
        snippets=pick_snippets(sentences),
        key_facts=find_key_facts(sentences),
        tables=tables,
        stats=document_stats(markdown, sentences=len(sentences), parse_ms=parse_ms, input_bytes=input_bytes),
    )

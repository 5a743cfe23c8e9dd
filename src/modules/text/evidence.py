"""The verifier's cheap checks: does the cited source say what the claim says?

Three outcomes, and the checks are allowed to be wrong in one direction only:
- **supported** only when they are sure: every key term of the claim (a noun, a name, a
  number) is in the evidence, most of its other words too (in Japanese all of them), its
  numbers agree in a passage that says the same thing, its negation matches, no hedge of
  the passage is dropped, its roles agree (``structure``), and each of its values (figure,
  date, version, contrast word) is in the passage sentence that says what the claim says
  around it wherever the passage gives several of that kind (``value_binding``). Evidence
  may be assembled from up to three passages of the cited sources, because answers merge
  facts the source states in different sentences.
- **unsupported** only for what they can prove: a cited label that does not exist (or a
  document never read), a number, date or unit the source contradicts while saying the same
  thing around it (another year, "port …" number or contrast word in the sentence that says
  the rest of the claim: 「次いで水力発電」 against 「次いで風力発電」), roles the passage
  exchanges or a word it excludes, a record's field read the other way (or left empty and
  stated), a Japanese claim that drops a doubt (かもしれない, もし…なら) or one of two
  alternatives, a Japanese claim most of whose words no cited source holds (an addition), or a
  claim with nothing related in any source.
- **uncertain** otherwise: a paraphrase, a term that differs (a different word, not a near
  match), a value the passage gives for another thing among several of its kind, a figure the source does not give, a claim in another language than
  its source, a hedge dropped or a limiter added. The judge decides these (one sentence per
  call with the fact-checking model, else the drafting model in one batch); without a judge
  they stay "not checked".

Words come from ``analyser`` (MeCab lemmas for Japanese, stems for English), numbers from
``numbers`` (number words, counters, rounding, times, thin spaces) and clauses, hedges and
contrasting words from ``structure``. Measured on RAGTruth and JNLI/JSICK/JaNLI:
docs/benchmarks.md.
"""

from __future__ import annotations

import ast
import bisect
import difflib
import json
import math
import re
import unicodedata
from dataclasses import dataclass, field, replace
from decimal import Decimal
from functools import cached_property, lru_cache
from collections.abc import Iterable, Iterator, Mapping, Sequence
from typing import Any, Callable

from research.modules.core.language import Language, detect_language
from research.modules.text.analyser import STOP_WORDS, Term, _tagger, stem, terms, written_words
from research.modules.text.claims import Claim, plain_text, sentence_spans, split_sentences
from research.modules.text.disagreements import attributes_named
from research.modules.text.numbers import (  # noqa: F401
    NumberMention,
    NumberSet,
    another_instance,
    extract_numbers,
    numbers_match,
)
from research.modules.text.polarity import (
    NOT_A_DENIAL_EN, NOT_A_DENIAL_JA, STATUS_TERMS, Conflict, affirms, clause_conflict, conjoined_conflict,
    consequence_conflict, difference_the_page_states, has_statements_to_read_apart, no_difference_between,
    no_difference_conflict, no_difference_in_what_is_related, no_change_conflict, no_relation_conflict,
    opposite_conflict, phrases_of, says_a_change, says_a_difference, says_related,
)
from research.modules.text.questions import answer_word, asks_for_a_name_or_value, is_yes_no
from research.modules.text.structure import (
    DOUBT_JA,
    REPORTED_BY_A_STUDY_EN,
    alternatives_unnamed_ja,
    answers_an_open_question,
    english_comparison_reversed,
    english_contrast,
    english_direction_given_to_another,
    english_exchange,
    english_role_swap,
    japanese_conflict,
    japanese_roles_confirmed,
    leaves_the_question_open,
    read_japanese,
    spelt_out_phrases,
    stance,
    stance_problem,
)
from research.modules.text.references import (
    TOPIC_JA, TOPIC_WA_JA, without_adding_connective, without_leading_connective,
)
from research.modules.text.value_binding import Binding, Sentence, bind_values
from research.state.models import CONTRADICTING_REASONS


@lru_cache(maxsize=1)
def _numpy() -> Any:
    """numpy, imported by the first source too large to scan (about 15 MiB resident): a run
    that reads only pages of ordinary size never holds it. None where it is not installed
    (it comes with matplotlib): then large sources are scanned too."""
    try:
        import numpy

        return numpy
    except ImportError:  # pragma: no cover
        return None


SUPPORTED_AT = 0.8  # weighted share of the claim's words the evidence must hold to be "supported"
# English words other than names are not "key", so their share must be higher: one
# swapped common noun ("super-step" -> "node") then still keeps a claim from "supported".
# 0.88 keeps hallucinated RAGTruth train sentences called supported under 3% (0.85: 3.1%).
SUPPORTED_AT_EN = 0.88
UNRELATED_BELOW = 0.15  # with no key term found either: nothing in the sources is about this
CONTRADICTION_CONTEXT = 0.5  # a different figure counts as contradiction only in a passage this close
_MAX_ASSEMBLED = 3  # passages combined into one piece of evidence (merged facts)
# A record's fields are one short line each ("wi fi: free"), and one sentence about a
# business or a product names several of them: more of them may be combined.
_MAX_ASSEMBLED_FIELDS = 8
_MAX_CANDIDATES = 3  # passages shown to the judge per claim
_TOP_PASSAGES = 40  # the best-covering passages a claim's evidence is assembled and bound from
# Cited sources of at most this many passages are scored passage by passage; larger ones
# through the index of passages by term (``EvidenceIndex.ranked``), with the same order.
_SCAN_UP_TO = 400
# Passages tied with the 40th best that are scored one by one to order them exactly; past
# this many (thousands of passages saying the same words) they are ordered by position.
_RESCORE_CAP = 2000

# Typographic apostrophes too: "won’t" in a source is the "won't" of the answer.
_NEGATION_EN = re.compile(r"\b(not|never|no|none|neither|nor|without|cannot)\b|n['’]t\b", re.IGNORECASE)
_NEGATION_JA = re.compile(r"(ない|なかっ|ません|(?<!かかわら)(?<!関わら)(?<!拘わら)ず[、。に]|無し)")

OUTCOMES = ("supported", "unsupported", "uncertain")


def features(text: str) -> frozenset[str]:
    """Content terms and numbers of ``text`` (what overlap is measured on)."""
    found = {t.text for t in terms(text)}
    for mention in extract_numbers(text):
        found.update("#" + v for v in mention.values)
    return frozenset(found)


def lexical_overlap(claim: str, passage: str) -> float:
    """Share of the claim's content units found in the passage (0..1)."""
    wanted = features(claim)
    return len(wanted & features(passage)) / len(wanted) if wanted else 0.0


# --- sources as passages -----------------------------------------------------------------------


@dataclass
class Passage:
    label: str
    text: str
    features: frozenset[str]
    numbers: NumberSet | None = None
    field: bool = False  # one field of a JSON record or one table row, not prose
    # The words of the Markdown headings above it ("# ラオス" over 「132議席で、民選、任期5年。」):
    # what the page's sentences leave out because the heading says it.
    headings: frozenset[str] = frozenset()
    heading: bool = False  # a heading's own line: it names what follows, it is no evidence beside another passage
    # The terms among ``features`` that only the page's abbreviations say (``_spelt_out``): no measure of how often
    # the page writes a word.
    spelt: frozenset[str] = frozenset()


def _key_words(key: str) -> str:
    """A key as the words a sentence may use: "OutdoorSeating" -> "outdoor seating". Parts
    a writer would join are given joined as well ("WiFi" -> "wi fi wifi", "TakeOut" ->
    "take out takeout"), since "free WiFi" or "offers takeout" names the same key."""
    parts = [p for p in re.split(r"(?<=[a-z])(?=[A-Z])|[_\s]+", key) if p]
    joined = [a + b for a, b in zip(parts, parts[1:]) if len(a) + len(b) <= 8]
    return " ".join(parts + joined).lower()


# A string value this long, or of several sentences, is prose (an article body, a
# question's passages, a review), not a field.
_PROSE_VALUE_CHARS = 200


def _json_lines(value: Any, prefix: str = "") -> list[tuple[str, bool]]:
    """A JSON document as (text, is_field) lines: fields as "key words: value" (keys are
    words a sentence may use), long string values as their sentences."""
    if isinstance(value, dict):
        out: list[tuple[str, bool]] = []
        for key, item in value.items():
            out.extend(_json_lines(item, f"{prefix} {_key_words(str(key))}".strip()))
        return out
    if isinstance(value, list):
        out = []
        for item in value:
            out.extend(_json_lines(item, prefix))
        return out
    if isinstance(value, str) and value.strip().startswith(("{", "[")):
        try:
            return _json_lines(json.loads(value), prefix)
        except ValueError:
            pass
    if isinstance(value, str) and (len(value) > _PROSE_VALUE_CHARS or len(sentence_spans(value)) > 1):
        return _prose_lines(value)
    text = "yes" if value is True else "no" if value is False else str(value)
    text = _SHORT_MINUTE.sub(r"\1:\g<2>0", text)
    return [(f"{prefix}: {text}" if prefix else text, True)]


def _prose_lines(text: str) -> list[tuple[str, bool]]:
    """Prose as its sentences, line by line (Markdown quote and heading marks dropped)."""
    return [(sentence, False) for sentence, _, _ in _headed_sentences(text)]


_HEADING = re.compile(r"^(#{1,6})\s+(\S.*)$")


def _headed_sentences(text: str) -> list[tuple[str, frozenset[str], bool]]:
    """Prose as its sentences, each with the words of the Markdown headings above it and
    whether it is a heading's own line (under its parents)."""
    out: list[tuple[str, frozenset[str], bool]] = []
    open_headings: list[tuple[int, frozenset[str]]] = []  # (level, words) from the outermost
    for raw in text.splitlines():
        above = frozenset().union(*(words for _, words in open_headings))
        heading = _HEADING.match(raw.strip())
        if heading:
            level = len(heading.group(1))
            open_headings = [h for h in open_headings if h[0] < level]
            words = frozenset(u for u in features(plain_text(heading.group(2))) if not u.startswith("#"))
            open_headings.append((level, words))
        line = plain_text(raw.lstrip("#> ").strip())
        out.extend((line[s:e], above, bool(heading)) for s, e in sentence_spans(line))
    return out


def structured_lines(text: str) -> list[tuple[str, bool]] | None:
    """The (text, is_field) lines of a JSON source, or None when ``text`` is not JSON.

    A Python literal ({'name': 'Derf', 'open': True, 'wifi': None}) is read the same way: tools
    and datasets print records so. ``ast.literal_eval`` evaluates literals only, never code.
    """
    stripped = text.strip()
    if not stripped.startswith(("{", "[")):
        return None
    try:
        return _json_lines(json.loads(stripped))
    except ValueError:
        pass
    if len(stripped) > _MAX_LITERAL_CHARS:
        return None
    # A record may be followed by a short label ("…}]}\nOverview:"): read the record, and the
    # label as prose.
    end = max(stripped.rfind("}"), stripped.rfind("]")) + 1
    record, tail = stripped[:end], stripped[end:]
    if len(tail) > 200:
        return None
    for parse in (json.loads, _python_literal):
        try:
            value = parse(record)
        except (ValueError, SyntaxError, MemoryError, RecursionError):
            continue
        if isinstance(value, (dict, list)):
            return _json_lines(value) + _prose_lines(tail)
    return None


def _python_literal(record: str) -> Any:
    """``ast.literal_eval``, tried a second time where CPython 3.11 raises "AST constructor recursion depth
    mismatch": its AST builder counts depth in state another thread's parse, or an earlier failed one, can leave
    off by some (python/cpython#106905, fixed in 3.12); seen once in `tests/test_verify_e2e_realistic.py`, where
    it ended the run with an unexpected error. Twice so, it is read as no literal."""
    for _ in range(2):
        try:
            return ast.literal_eval(record)
        except SystemError:
            continue
    raise ValueError("not read as a Python literal")


_MAX_LITERAL_CHARS = 2_000_000
# "11:0-21:30" in opening hours: a minute written with one digit.
_SHORT_MINUTE = re.compile(r"\b(\d{1,2}):(\d)(?!\d)")


def _table_lines(table: list[list[Any]]) -> list[str]:
    """Rows as "header: cell" pairs, so "Population: 1,200" matches "a population of 1,200"."""
    if not table:
        return []
    header = [str(c) for c in table[0]]
    lines = [" ".join(header)]
    for row in table[1:]:
        cells = [str(c) for c in row]
        lines.append(" ; ".join(f"{h}: {c}" for h, c in zip(header, cells)) if len(cells) == len(header) else " ".join(cells))
    return lines


# Headings over a page's keywords (as features writes them): "MeSH terms", "Keywords", "Tags"…
_KEYWORD_HEADINGS = (frozenset({"mesh"}), frozenset({"keyword"}), frozenset({"key", "word"}), frozenset({"tag"}),
                     frozenset({"categori"}), frozenset({"キー", "ワード"}), frozenset({"タグ"}))
_LIST_ITEMS = re.compile(r"\s*[;；、,，]\s*")


def _keyword_list(sentence: str, headings: frozenset[str]) -> bool:
    """A page's keywords under their heading ("## MeSH terms" over "Adolescent; Adult; China;
    Medication Adherence; …; Tuberculosis") state nothing: as a passage they lent every word of
    "Yes, tuberculosis patients adhere to prescribed treatments in China" to it (PubMedQA
    27146470, the real 1.5B model, decided supported at score 1.0; the study left it open)."""
    if not any(heading <= headings for heading in _KEYWORD_HEADINGS):
        return False
    items = [item for item in _LIST_ITEMS.split(sentence.strip().rstrip(".。")) if item]
    return len(items) >= 4 and sum(len(item.split()) for item in items) <= 4 * len(items)


def source_passages(label: str, document: Mapping[str, Any]) -> list[Passage]:
    texts: list[tuple[str, bool]] = []  # (text, whether it is a field)
    markdown = str(document.get("markdown") or document.get("text") or "")
    lines = structured_lines(markdown)
    headings: dict[str, tuple[frozenset[str], bool]] = {}
    if lines is None:
        for sentence, above, is_heading in _headed_sentences(markdown):
            if _keyword_list(sentence, above):
                continue
            texts.append((sentence, False))
            headings.setdefault(sentence.strip(), (above, is_heading))
    else:
        texts.extend(lines)
    for extra in list(document.get("snippets") or []) + list(document.get("key_facts") or []):
        texts.extend((str(extra)[s:e], False) for s, e in sentence_spans(plain_text(str(extra))))
    for table in document.get("tables") or []:
        texts.extend((line, True) for line in _table_lines(table))
    passages, seen = [], set()
    spelt = _spelt_out(markdown) if lines is None else {}
    for text, from_table in texts:
        text = text.strip()
        if text and text not in seen:
            seen.add(text)
            above, is_heading = headings.get(text, (frozenset(), False))
            said = features(text)
            # A sentence that writes the page's abbreviation says the words the page spelt it out with.
            meant = frozenset().union(*(long for short, long in spelt.items() if short in said)) - said
            passages.append(Passage(label, text, said | meant, field=from_table, headings=above, heading=is_heading,
                                    spelt=meant))
    return passages


def _spelt_out(text: str) -> dict[str, frozenset[str]]:
    """(en) Each abbreviation ``text`` spells out (``structure.spelt_out_phrases``) as its term → the terms of the
    words it stands for."""
    spelt: dict[str, frozenset[str]] = {}
    for short, words in spelt_out_phrases(text):
        own = {t.text for t in terms(short)}
        long = frozenset(t.text for t in terms(words)) - own
        if len(own) == 1 and long:
            spelt[next(iter(own))] = spelt.get(next(iter(own)), frozenset()) | long
    return spelt


@dataclass
class SourceText:
    label: str
    language: Language
    passages: list[Passage]
    numbers: NumberSet
    vocabulary: frozenset[str] = frozenset()  # every term of its prose passages (value binding)
    held: frozenset[str] = frozenset()  # every term of all its passages, record fields included (additions)
    _sorted: dict[str, list[Decimal]] = field(default_factory=dict)  # its scaled figures by dimension, sorted
    _squeezed: str | None = None  # its text as quotations are looked up in (``squeezed``)
    _positions: dict[int, int] | None = None  # where each passage stands (``passage_before``)
    # What two English checks read in every passage, read once per source: (kind, head) of each «non-severe
    # hypoglycaemia» (``qualifier_dropped``) and the names of its groups (``group_dropped``).
    _non_kinds: list[tuple[str, str]] | None = None
    _named_groups: frozenset[str] | None = None
    # Its passages' words, lower-cased, a space around each and a line between passages: where a term of the page is
    # looked for (``_pages_own_term``), read once per source and not once per claim (a 1 MB source read again for each
    # of a thousand claims took the verifier's speed test from 15 s to 73 s).
    _words_spaced: str | None = None
    _passage_words: list[str] | None = None  # the same, passage by passage, in ``passages``' order

    def passage_words(self) -> list[str]:
        if self._passage_words is None:
            self._passage_words = [" " + " ".join(_words_said(passage.text)) + " " for passage in self.passages]
        return self._passage_words

    def words_spaced(self) -> str:
        if self._words_spaced is None:
            self._words_spaced = "\n".join(self.passage_words())
        return self._words_spaced

    def non_kinds(self) -> list[tuple[str, str]]:
        if self._non_kinds is None:
            self._non_kinds = [(found.group("kind").lower(), found.group("head").lower())
                               for passage in self.passages for found in _NON_KIND_EN.finditer(passage.text)]
        return self._non_kinds

    def named_groups(self) -> frozenset[str]:
        if self._named_groups is None:
            self._named_groups = frozenset(" ".join(m.group("name").split()) for passage in self.passages
                                           for m in _NAMED_GROUP_EN.finditer(passage.text))
        return self._named_groups

    def passage_before(self, passage: Passage) -> Passage | None:
        """The passage right before ``passage`` in this source, or None."""
        if self._positions is None:
            self._positions = {id(p): i for i, p in enumerate(self.passages)}
        at = self._positions.get(id(passage))
        return self.passages[at - 1] if at else None

    def holds_words(self, pieces: list[str]) -> bool:
        """Whether every piece (squeezed, as ``squeezed`` makes it) is in the source's text."""
        if self._squeezed is None:
            self._squeezed = "\n".join(squeezed(p.text) for p in self.passages)
        return all(piece in self._squeezed for piece in pieces)

    def contains(self, mention: NumberMention) -> bool:
        """``numbers.contains(mention)``: the figure, or one it rounds, is in the source.

        A figure the source does not give exactly is compared (``NumberSet``'s rounding rules)
        only with the source's figures of its dimension near enough to round to it, found by
        bisection, not with each of the tens of thousands a large source gives."""
        window = _rounding_window(mention)
        if window is None or not mention.dimension:
            return self.numbers.contains(mention)
        try:
            candidates = self._sorted.get(mention.dimension)
            if candidates is None:
                candidates = self._sorted[mention.dimension] = sorted(self.numbers.scaled.get(mention.dimension, []))
            near = candidates[bisect.bisect_left(candidates, window[0]): bisect.bisect_right(candidates, window[1])]
        except (ArithmeticError, TypeError):
            return self.numbers.contains(mention)
        nearby = NumberSet([])
        nearby.by_value, nearby.written_in, nearby.approximate = (
            self.numbers.by_value, self.numbers.written_in, self.numbers.approximate)
        nearby.scaled = {mention.dimension: near}
        return nearby.contains(mention)


def _rounding_window(mention: NumberMention) -> tuple[Decimal, Decimal] | None:
    """Bounds that every source figure ``NumberSet`` could take ``mention`` to round lies
    within (twice its widest rule, and a quarter of the figure for an approximate one), or
    None where the figure is not compared by rounding or the bounds are not simple."""
    if mention.scaled is None or not mention.dimension or mention.dimension in ("year", "month", "day", "time"):
        return None
    try:
        claim = mention.scaled
        raw = Decimal(min(mention.values, key=len))
        if not raw or not claim or not claim.is_finite() or not raw.is_finite():
            return None
        written = raw.as_tuple().exponent  # 'n', 'N' or 'F' for a NaN or an infinity
        exponent = written if isinstance(written, int) else 0
        reach = Decimal(10) ** exponent
        digits = str(int(raw)) if exponent >= 0 else ""
        zeros = len(digits) - len(digits.rstrip("0")) if digits else 0
        if zeros:
            reach = max(reach, Decimal(10) ** zeros)
        spread = reach * abs(claim / raw)
        if mention.approximate:
            spread = max(spread, abs(claim) / 4)
        spread += abs(claim) / 1_000_000
        return claim - spread, claim + spread
    except (ArithmeticError, ValueError, TypeError):
        return None


# The words of "its name is …", 「…の名は」: a question for a name frames its answer with them.
_NAMING_WORDS = frozenset({"名", "名前", "名称", "name", "call"})


class EvidenceIndex:
    """The ledger, split into passages once per verification run."""

    def __init__(self, documents: Sequence[Mapping[str, Any]], question: str = "") -> None:
        self.sources: dict[str, SourceText] = {}
        for document in documents:
            label = str(document.get("label") or "")
            # A document that failed was never read: citing it proves nothing.
            if not label or document.get("status", "ok") != "ok":
                continue
            passages = source_passages(label, document)
            if not passages:
                continue
            full = " ".join(p.text for p in passages)
            language = document.get("language")
            if language not in ("ja", "en"):
                language = detect_language(full[:4000])
            vocabulary = frozenset().union(*(p.features for p in passages if not p.field))
            held = vocabulary.union(*(p.features for p in passages if p.field))
            self.sources[label] = SourceText(label, language, passages, NumberSet.of(full), vocabulary, held)
        # Inverse document frequency over passages: "Fuji" in every passage of a ledger
        # about Mount Fuji says little; "Hōei" in one of them says a lot.
        self._passage_count = sum(len(s.passages) for s in self.sources.values())
        self._document_frequency: dict[str, int] = {}
        for source in self.sources.values():
            for passage in source.passages:
                for unit in passage.features - passage.spelt:
                    self._document_frequency[unit] = self._document_frequency.get(unit, 0) + 1
        # A sentence that is only a page's title ("Mount Fuji: facts and history [S2].") names
        # a source; it states nothing to check, and must not count as a supported claim.
        self.titles = frozenset(_title_key(str(d.get("title") or "")) for d in documents if d.get("title")) - {""}
        # Titles with an identifier in them ("PubMed 23348330", the bench's pages): a claim that
        # names its source so ("The study by PubMed 23348330 found that 65% …", the real 1.5B
        # model) gives no figure to find in the text. A year or a version in a title ("Python
        # 3.14") is a value the claim states, and stays one.
        # Only the titles of the sources a claim is read against count: "The study by PubMed
        # 20401819 found …" citing another page names the wrong study, and its number stays a figure.
        self.numbered_titles = {str(d["label"]): str(d["title"]).strip() for d in documents
                                if d.get("label") and d.get("title") and _IDENTIFIER.search(str(d["title"]))
                                and len(str(d["title"]).split()) <= _NUMBERED_TITLE_WORDS}
        # The question's own words that no source uses ("What are the main reasons…"): an answer
        # repeats them to frame itself; they are not facts to find in a source. Not so for a
        # yes/no question: "Is the GIL gone in 3.14?" puts a claim, and "The GIL is gone in 3.14"
        # in the answer must find "gone" in a source like any other word (it was waved through).
        # A status or polarity word (gone, default, 廃止) is what a claim says, never a frame.
        # Nor for a question that asks for a name or a value: "設計者" in 「日本共産党の本部の設計者の名は
        # 何か」 is the relation the answer's name must be found in ("…の設計者の名は徳田球一です" was
        # supported by a page naming him the party's secretary, the real 1.5B model on JSQuAD).
        asked_in = detect_language(question) if question.strip() else "en"
        slot = asks_for_a_name_or_value(question, asked_in)
        asked = "" if is_yes_no(question, asked_in) else question
        # Only words that name nothing (静か, main): a noun of the question is what the answer is
        # about (「石油の最大輸入相手国は」: 石油, in no page read, was waved through as a frame, and
        # 「石油の最大輸入相手国はオランダです」 supported by a page on the Netherlands' trade).
        self.framing = frozenset(t.text for t in terms(asked) if not t.key or t.text in _NAMING_WORDS) \
            - frozenset(self._document_frequency) - STATUS_TERMS
        if slot:  # only the words that say "its name is" stay a frame
            self.framing &= _NAMING_WORDS
        # Built on first use for large sources (``ranked``), once per index: the passages of
        # each cited set of sources, where each source's passages start in the whole ledger,
        # and for each unit the (ledger-wide) positions of the passages holding it.
        self._cited: dict[tuple[str, ...], tuple[list[Passage], Any, frozenset[str]]] = {}
        self._starts: dict[str, int] = {}
        self._postings: dict[str, Any] | None = None
        self._weights: dict[str, float] = {}  # ``weight`` of each unit asked for, computed once

    def weight(self, unit: str) -> float:
        """How much finding ``unit`` in a passage tells (rarer in the ledger: more)."""
        found = self._weights.get(unit)
        if found is None:
            frequency = max(1, self._document_frequency.get(unit, 0))
            found = self._weights[unit] = math.log(1.0 + (self._passage_count + 1) / frequency)
        return found

    def cited(self, labels: list[str]) -> tuple[list[Passage], Any, frozenset[str]]:
        """The passages of the sources ``labels`` in order, their ledger positions (None
        until the index by term is built) and the vocabulary of their prose, once per set."""
        key = tuple(labels)
        found = self._cited.get(key)
        if found is None:
            passages = [p for label in labels for p in self.sources[label].passages]
            vocabulary = frozenset().union(*(self.sources[label].vocabulary for label in labels))
            found = self._cited[key] = (passages, None, vocabulary)
        return found

    def _positions(self, labels: list[str]) -> Any:
        np = _numpy()
        passages, positions, vocabulary = self.cited(labels)
        if positions is None:
            if self._postings is None:
                self._build_postings()
            positions = np.concatenate([
                np.arange(self._starts[label], self._starts[label] + len(self.sources[label].passages))
                for label in labels]) if labels else np.zeros(0, dtype=np.int64)
            self._cited[tuple(labels)] = (passages, positions, vocabulary)
        return positions

    def _build_postings(self) -> None:
        postings: dict[str, list[int]] = {}
        position = 0
        for label, source in self.sources.items():
            self._starts[label] = position
            for passage in source.passages:
                for unit in passage.features:
                    postings.setdefault(unit, []).append(position)
                position += 1
        self._postings = postings  # type: ignore[assignment]

    def ranked(self, labels: list[str], wanted: frozenset[str]) -> list[Passage]:
        """The passages of ``labels`` that best cover ``wanted``, best first: the first
        ``_TOP_PASSAGES`` of every passage sorted by ``coverage`` (highest first, then in
        the sources' order), then, only when fewer share anything with it, the first
        passages that share nothing.

        Large sources are not scanned passage by passage for every claim: each passage's
        share is summed from the index of passages by term, and only those that may be among
        the best (at or near the 40th best sum) are scored by ``coverage`` and sorted, so the
        order is the one a scan of every passage gives."""
        passages = self.cited(labels)[0]
        np = _numpy() if len(passages) > _SCAN_UP_TO else None
        if np is None:
            return sorted(passages, key=lambda p: self.coverage(wanted, p.features), reverse=True)
        positions = self._positions(labels)
        assert self._postings is not None
        total = np.zeros(self._passage_count)
        for unit in wanted:
            held = self._postings.get(unit)
            if held is None:
                continue
            if isinstance(held, list):
                held = self._postings[unit] = np.asarray(held, dtype=np.int64)
            total[held] += self.weight(unit)
        sums = total[positions]
        sharing = np.flatnonzero(sums > 0)
        near = sharing
        if sharing.size > _TOP_PASSAGES:
            values = sums[sharing]
            kth = np.partition(values, sharing.size - _TOP_PASSAGES)[sharing.size - _TOP_PASSAGES]
            # Sums in another order differ in the last bits: a margin keeps every passage
            # that could tie with the 40th, and ``coverage`` orders them as a scan does.
            near = sharing[values >= kth - 1e-9 * max(1.0, kth)]
        if near.size > _RESCORE_CAP:
            order = np.lexsort((near, -np.round(sums[near], 9)))
            near = np.sort(near[order[:_RESCORE_CAP]])
        best = sorted((passages[i] for i in near.tolist()), key=lambda p: self.coverage(wanted, p.features),
                      reverse=True)[:_TOP_PASSAGES]
        if len(best) < _TOP_PASSAGES:
            best += [passages[i] for i in np.flatnonzero(sums <= 0)[: _TOP_PASSAGES - len(best)].tolist()]
        return best

    def coverage(self, wanted: frozenset[str], found: frozenset[str]) -> float:
        # fsum: exact, so the same in any order the set is walked (a plain sum's last bits follow
        # the hash seed, and two passages' equal coverage then ranked either way round).
        total = math.fsum(self.weight(u) for u in wanted)
        return math.fsum(self.weight(u) for u in found & wanted) / total if total else 0.0

    def is_valid(self, label: str) -> bool:
        return label in self.sources

    def is_title(self, text: str) -> bool:
        return _title_key(text) in self.titles


_NUMBERED_TITLE_WORDS = 6  # a title short enough to be named in a sentence as it is written
_IDENTIFIER = re.compile(r"(?<![\d.,])\d{5,}(?![\d.,])")  # five digits or more: no year, version or amount


def _title_key(text: str) -> str:
    return " ".join(text.lower().replace("：", ":").split()).rstrip(" .。")


# --- the decision ------------------------------------------------------------------------------


@dataclass
class Assessment:
    """The cheap checks' decision on one claim.

    ``outcome`` is the three-way answer (supported | unsupported | uncertain); ``verdict``
    keeps the ledger's vocabulary for the report (uncertain is ``partly_supported`` until
    the judge decides, ``citation_invalid`` is an unsupported claim whose labels are made up).
    """

    verdict: str
    confidence: float
    score: float
    evidence: str = ""
    evidence_label: str | None = None
    borderline: bool = False  # uncertain: for the judge
    reason: str = ""
    valid_citations: list[str] = field(default_factory=list)
    invalid_citations: list[str] = field(default_factory=list)
    candidates: list[Passage] = field(default_factory=list)  # what the judge gets to read
    outcome: str = "uncertain"
    missing: list[str] = field(default_factory=list)  # key terms or figures the evidence lacks
    # Values bound to what they measure (``value_binding``): the claim's value that the aligned
    # passage sentence does not give for the same slot (a figure, date, version or contrast
    # word, as the claim writes it) ...
    bound_value: str | None = None
    # ... and the value that sentence gives for that slot, only when it is the one candidate of
    # the same kind there, so a caller can correct "11444" to "11434" from the passage.
    passage_value: str | None = None
    # A claim in another language than its sources: the translation into theirs that was checked
    # in its place (nodes/verification.check_across_languages); a label line, the sentence its
    # heading makes of it (``_with_its_heading_relation``); "" where the claim itself was.
    checked_as: str = ""


def _negated(text: str) -> bool:
    # 「かもしれない」 and 「にちがいない」 hedge what they follow; they deny nothing (``stance``).
    return bool(_NEGATION_EN.search(NOT_A_DENIAL_EN.sub(" ", text)) or _NEGATION_JA.search(NOT_A_DENIAL_JA.sub(" ", text)))


# Sentence ends, and the contrast that opens a clause of its own: "…became officially supported,
# though it is still not the default build" affirms the first clause and denies only the second.
# A Japanese hedge that ends its clause, 「…は20世紀の初めとされ、最初は…であった。」: what follows it is not hedged
# (JSQuAD v1.3 valid a72698p1q2, `research bench jsquad --seed 131`: the real 1.5B model's second clause, word for word
# the page's, was "hedge dropped").
_CLAUSE_END = re.compile(r"(?<=[.;!?。；！？])\s*|,\s+(?=(?:but|though|although|whereas|even though)\b)|(?<=[\u3041-\u3096]が)、|(?<=ものの)、?"
                         r"|(?<=とされ)、|(?<=とされており)、|(?<=といわれ)、|(?<=と言われ)、|(?<=と考えられ)、|(?<=とみられ)、"
                         r"|(?<=と見られ)、")
# A noun's copula joining the next clause («…1707年の宝永噴火で、それ以降…»): where a claim's figures are looked for.
_COPULA_JOINING_JA = re.compile(r"(?<=[\u4e00-\u9fff\u30a0-\u30ffー]で)、|(?<=であり)、")


def _clauses_of(text: str) -> list[str]:
    return [c for c in _CLAUSE_END.split(text) if c and c.strip()] or [text]


def _near_the_best(scored: list[tuple[str, int]]) -> list[str]:
    """The clauses holding at least half as many of the claim's units as the best one does."""
    best = max((n for _, n in scored), default=0)
    return [c for c, n in scored if best and n * 2 >= best]


def _matched_clauses(text: str, wanted: frozenset[str]) -> list[str]:
    """The clauses of ``text`` that say what the claim says (at least half the best overlap)."""
    clauses = _clauses_of(text)
    if len(clauses) <= 1:
        return [text]
    return _near_the_best([(c, len(features(c) & wanted)) for c in clauses])


def _matched_clauses_of_all(passages: list[Passage], wanted: frozenset[str]) -> list[str]:
    """The clauses of ``passages`` that say what the claim says, measured against the best of
    them all: an "or" between two names of the page's subject in another passage (「Google 検索
    またはGoogle ウェブ検索は…」) is not the claim's (「Google検索は1997年にラリー・ペイジとセルゲイ・
    ブリンが開発した」 was unsupported for it, the real 1.5B model on JSQuAD)."""
    # Half the best of all is at least half the best of each passage: one pass over every clause.
    return _near_the_best([(c, len(features(c) & wanted)) for p in passages for c in _clauses_of(p.text)])


def _negated_where_matched(text: str, wanted: frozenset[str], *, with_its_figures: bool = False) -> bool:
    """Whether the clauses of ``text`` that say what the claim says are negated: a "not"
    in another sentence of a long passage says nothing about this claim. ``with_its_figures``: where
    a clause gives every figure of the claim, only such clauses say what it says: in «最後の噴火は1707年
    の宝永噴火で、それ以降富士山は噴火していません» the denial is of what came after 1707, not of
    「富士山の最後の噴火は1707年の宝永噴火です」 (the eight questions with the real 1.5B model)."""
    if with_its_figures:
        figures = frozenset(w for w in wanted if w.startswith("#"))
        giving = [part for c in _clauses_of(text) for part in _COPULA_JOINING_JA.split(c)
                  if figures and part.strip() and figures <= features(part)]
        if giving:
            return any(_negated(c) for c in _near_the_best([(c, len(features(c) & wanted)) for c in giving]))
    return any(_negated(c) for c in _matched_clauses(text, wanted))


def _negated_in_phrases(text: str, wanted: frozenset[str]) -> bool:
    """Whether a phrase of ``text`` that holds the most of ``wanted`` (at least half as many as
    the phrase that holds most) is negated."""
    phrases = [p for start, end in sentence_spans(text) for p in phrases_of(text[start:end], "en")] or [text]
    overlaps = [len(features(p) & wanted) for p in phrases]
    best = max(overlaps)
    if not best:
        return _negated(text)
    return any(_negated(p) for p, n in zip(phrases, overlaps) if n * 2 >= best)


def _claim_terms(text: str) -> tuple[frozenset[str], frozenset[str]]:
    found: list[Term] = terms(text)
    return frozenset(t.text for t in found), frozenset(t.text for t in found if t.key)


def _assemble(wanted: frozenset[str], passages: list[Passage], index: EvidenceIndex) -> list[Passage]:
    """Greedy cover: the best passage, then those adding most of what is still missing."""
    chosen: list[Passage] = []
    covered: frozenset[str] = frozenset()
    # A heading's line is left out: its words are found through the passages under it
    # (``Passage.headings``), and beside a sentence of another section it would lend that
    # sentence a subject it does not have ("## Mount Fuji" with "It erupted in 2021." under
    # "## Mount Aso").
    pool = [p for p in passages if p.features & wanted and not p.heading]
    for _ in range(_MAX_ASSEMBLED_FIELDS):
        prose_left = _MAX_ASSEMBLED - sum(not p.field for p in chosen)
        best, best_gain = None, 0.0
        for passage in pool:
            if not passage.field and prose_left <= 0:
                continue
            if chosen and passage.label != chosen[0].label and not passage.features & covered:
                # Another source's passage adds to the claim only where it speaks of something the
                # first one does: the real 1.5B model's "Yes, experts' recommendations for new
                # cardiovascular implantable electronic devices are implemented in routine clinical
                # practice" (PubMedQA 23264436, five citations) was supported at 0.93 from the
                # devices' abstract, a Pap smear study's "routine clinic" and a PHQ-9 study's
                # "implementation … practices".
                continue
            gain = math.fsum(index.weight(u) for u in (passage.features & wanted) - covered)
            if gain > best_gain:
                best, best_gain = passage, gain
        if best is None:
            break
        chosen.append(best)
        covered |= best.features & wanted
        pool.remove(best)
        if wanted <= covered:
            break
    return chosen


# A line that pairs a name with a value, «徳田球一：日本», "Kyuichi Tokuda: Japan": it says what its
# heading asks of the name, no more.
_LABEL_LINE = re.compile(r"^(?P<name>[^:：。.!?！？\s][^:：。!?！？]{0,30}?)\s*[:：]\s*(?P<value>[^:：。!?！？]{1,40}?)\s*[。.]?$")
# What a sub-question heading asks of each name: 「…の出身地は？」, 「…の任期はいつですか？」, "What is the
# birthplace of …?", "What are the main products of …?".
_RELATION_ASKED_JA = re.compile(
    r"の(?P<relation>[^の、。\s？?は]{1,12})(?:とは|は)(?:何|なに|どこ|誰|だれ|いつ|いくつ|どれ)?(?:ですか|でしょうか|か)?\s*[？?]\s*$")
_RELATION_ASKED_EN = re.compile(
    r"^(?:\d+[.)]\s*)?(?:what|which|where|who|when)\s+(?:is|are|was|were)\s+(?:the\s+)?"
    r"(?P<relation>[a-z][a-z -]{1,30}?)\s+of\b.*\?\s*$", re.IGNORECASE)


def _with_its_heading_relation(claim: Claim) -> Claim | None:
    """A label line under a heading that asks a relation, as the sentence it stands for: 「徳田球一：
    日本」 under 「3. 日本共産党系の国会議員の出身地は？」 says 「徳田球一の出身地は日本」, which a page
    that names both and no birthplace does not (JSQuAD, the real 1.5B model: it was "supported" by
    the two words alone). None for any other claim, or a line that names the relation itself."""
    line = _LABEL_LINE.match(claim.plain.strip())
    if line is None or not claim.section:
        return None
    name, value = line.group("name").strip(), line.group("value").strip()
    asked_ja, asked_en = _RELATION_ASKED_JA.search(claim.section), _RELATION_ASKED_EN.match(claim.section.strip())
    if asked_ja is not None:
        relation = asked_ja.group("relation")
        sentence = f"{name}の{relation}は{value}。"
    elif asked_en is not None:
        relation = asked_en.group("relation").strip()
        sentence = f"The {relation} of {name} is {value}."
    else:
        return None
    if relation.lower() in claim.plain.lower():
        return None
    cites = "".join(f"[{label}]" for label in claim.citations)
    return replace(claim, text=f"{sentence}{cites}", plain=sentence)


# 「王女イレーネが…と結婚した年は1964年です」: the year (or day) an event took place, said as a noun and a copula.
_DATE_OF_AN_EVENT_JA = re.compile(r"^(?P<event>[^。]{4,}?[たっ])(?:年|日)は、?(?P<date>[0-9０-９][0-9０-９年月日]*[年日])"
                                  r"(?:です|である|だ)?。?$")


def _with_its_date_first(claim: Claim) -> Claim | None:
    """(ja) 「…と結婚した年は1964年です」 as a page writes it, «1964年、…と結婚した。»: the page's sentence says the year
    the event took place, and no noun 年 (JSQuAD v1.3 valid, `research bench jsquad --seed 99`, the real 1.5B model's
    Summary, left not checked for 年 against «1964年、王女イレーネがカルロス・ウゴ・デ・ボルボン＝パルマと結婚し、…»).
    None for any other claim."""
    said = _DATE_OF_AN_EVENT_JA.match(claim.plain.strip())
    if said is None:
        return None
    sentence = f"{said.group('date')}、{said.group('event')}。"
    cites = "".join(f"[{label}]" for label in claim.citations)
    return replace(claim, text=f"{sentence}{cites}", plain=sentence)


def assess_claim(claim: Claim, index: EvidenceIndex) -> Assessment:
    """Run the cheap checks on one claim against the documents it cites.

    A claim that cites nothing is checked against every source, so the verifier can still
    point to a source for it (or flag it). A claim whose citations are all invalid is
    unsupported whatever it says: the model pointed at nothing. A label line is read as the
    sentence its heading makes of it (``_with_its_heading_relation``).
    """
    as_said = _with_its_heading_relation(claim) or _with_its_date_first(claim)
    if as_said is not None:
        return replace(_assess_claim(as_said, index), checked_as=as_said.plain)
    return _assess_claim(claim, index)


def _assess_claim(claim: Claim, index: EvidenceIndex) -> Assessment:
    valid = [label for label in claim.citations if index.is_valid(label)]
    invalid = [label for label in claim.citations if not index.is_valid(label)]
    if claim.citations and not valid:
        return Assessment("citation_invalid", 1.0, 0.0, reason="citation_invalid", invalid_citations=invalid,
                          outcome="unsupported")
    if not claim.citations and claim.paragraph_citations:
        # The paragraph's citations come at its end: they count for this sentence only when
        # the checks are sure the cited source says it; otherwise it is an uncited claim.
        cited = [label for label in claim.paragraph_citations if index.is_valid(label)]
        if cited:
            found = _assess_against(claim, index, cited, [], [])
            if found.outcome == "supported":
                return found
    labels = valid or list(index.sources)
    if not labels:
        return Assessment("unsupported", 0.9, 0.0, reason="no_sources", invalid_citations=invalid, outcome="unsupported")
    if not valid and len(labels) > 1:
        return _read_against_each_source(claim, index, labels, invalid)
    return _assess_against(claim, index, labels, valid, invalid)


def _read_against_each_source(claim: Claim, index: EvidenceIndex, labels: list[str], invalid: list[str]) -> Assessment:
    """An uncited claim read against each source alone: a source that says it, else one that
    holds all its figures and leaves only its wording open, else one that contradicts it, else
    the one that says most of it (as read against all at once, a figure one source gives is
    not contradicted by another's other figure). Passages of two sources are never
    assembled into the evidence of a sentence that cites neither: a reader could check it
    against neither, and a word of one page decided a name of the other (JSQuAD, the real
    1.5B model: 「…検証した科学者の名はスタンリー・ミラーです」 read against a page without
    the name, 「判別がつかない」 taken for a denial, while the page it came from says it)."""
    readings = [_assess_against(claim, index, [label], [], invalid) for label in labels]
    figures = extract_numbers(claim.plain)

    def holds_every_figure(label: str) -> bool:
        return all(index.sources[label].numbers.contains(mention) for mention in figures)

    def rank(pair: tuple[str, Assessment]) -> tuple[int, float]:
        label, assessment = pair
        contradicted = assessment.outcome == "unsupported" and assessment.reason in CONTRADICTING_REASONS
        if assessment.reason == "cross_language":
            # A page in another language: its words tell nothing here, but its translation may
            # (nodes/verification.check_across_languages), which a page of the claim's language that
            # says nothing of it does not: 「横浜港は1859年に外国貿易に開かれた。」, uncited, was
            # "unrelated" to the run's Japanese pages and removed, while its English page says it.
            return 4, -assessment.score
        # A figure the checks could not bind to its slot in a source that gives every figure of
        # the claim is wording left open too: PubMedQA 23234860 (the real 1.5B model at 2fa120f),
        # "…median TPT was 18 days, with a majority of patients receiving treatment within 30
        # days after diagnosis", its page's two sentences joined, was read as contradicted by
        # another study's "42.2 days vs. 29.6 days".
        open_wording = assessment.outcome == "uncertain" and (assessment.reason != "number_missing"
                                                               or holds_every_figure(label))
        order = 0 if assessment.outcome == "supported" else 1 if open_wording else 2 if contradicted else \
            3 if assessment.outcome == "uncertain" else 5
        return order, -assessment.score

    # The first source of the best order and score wins a tie.
    return min(zip(labels, readings), key=rank)[1]


def assess_in_its_language(claim: Claim, index: EvidenceIndex) -> Assessment | None:
    """An uncited claim read against the sources in its own language only: what it is where its
    translation could not be checked against the others (``cross_language`` above comes before a
    page of its language that says nothing of it). None where it cites a source, or no source is
    in its language."""
    if claim.citations:
        return None
    language = detect_language(claim.plain)
    labels = [label for label, source in index.sources.items() if source.language == language]
    if not labels:
        return None
    if len(labels) > 1:
        return _read_against_each_source(claim, index, labels, [])
    return _assess_against(claim, index, labels, [], [])


def _assess_against(claim: Claim, index: EvidenceIndex, labels: list[str], valid: list[str], invalid: list[str]) -> Assessment:
    """The checks of ``claim`` against the passages of the sources ``labels``: its evidence is
    read (``_read_evidence``), then ``CHECKS`` are tried in order; the first that finds a
    problem decides, and a claim none of them holds back is supported."""
    read = _read_evidence(claim, index, labels)
    finding = _first_finding(read)
    if finding.outcome != "unsupported":
        # "Python got free-threading in 2023, when the Python Steering Council accepted PEP 703":
        # one date given to two events, and the sources find it with one of them; each event is
        # read with that date on its own (the real 1.5B model's PEP 703 answer at 63136ee).
        alone_found = []
        for statement in _events_of_one_date(claim.plain):
            alone = _read_evidence(replace(claim, plain=statement), index, labels)
            said = _first_finding(alone)
            if said.outcome == "unsupported" and said.reason == "number_mismatch":
                return _assessment(said, alone, valid, invalid)
            alone_found.append((said, alone))
        if len(alone_found) == 2 and alone_found[1][0].outcome == "supported" \
                and alone_found[0][0].outcome != "supported":
            # The date is the other event's, and nothing read gives it to the claim's own (with
            # the page's title above them, "…in 2023" was read `partial_overlap`, kept "(not
            # checked)": bench_answers.py --ollama, 2026-11-30): its figure is not bound to it.
            main, main_read = alone_found[0]
            return _assessment(Finding("uncertain", "number_missing", main.confidence, main.missing, main.binding,
                                       main.where), main_read, valid, invalid)
    return _assessment(finding, read, valid, invalid)


def _first_finding(read: "ClaimEvidence") -> "Finding":
    """What the first of ``CHECKS`` that holds the claim back found; supported when none does.
    A claim that would be supported, or left to the choosing judge for its wording, is held
    back still when it links two facts its sources never link (``link_unstated``)."""
    for check in CHECKS:
        finding = check(read)
        if finding is not None:
            break
    else:
        finding = Finding("supported", "supported", min(0.95, 0.6 + read.coverage * 0.35))
    if finding.outcome == "supported" or finding.reason == "partial_overlap":
        return link_unstated(read) or finding
    return finding


# "<event> in 2023, when <another event>": two events given one date.
_EVENTS_OF_ONE_DATE = re.compile(r"^(?P<main>.+?)\s+(?P<date>(?:in|on)\s+(?:[A-Z][a-z]+\s+)?\d{4})\s*,\s*when\s+"
                                 r"(?P<other>\S[^,;]+?)[.!]?$")


def _events_of_one_date(plain: str) -> list[str]:
    """Each event of an English "<event> in <date>, when <another event>" with that date, as a
    sentence of its own; [] for any other sentence."""
    match = _EVENTS_OF_ONE_DATE.match(plain.strip())
    if match is None:
        return []
    return [f"{match['main']} {match['date']}.", f"{match['other']} {match['date']}."]


@dataclass
class ClaimEvidence:
    """What the checks read: one claim and the passages of the sources it cites that say most
    of what it says (``assembled``, up to three prose passages or eight record fields)."""

    claim: str  # its plain text, citations taken out
    language: Language
    # No cited source is in the claim's language: nothing else was read (words cannot be compared).
    cross_language: bool
    words: frozenset[str]  # its content terms, less the words every cited source frames itself with
    key: frozenset[str]  # those of them that are names, nouns or numbers
    wanted: frozenset[str]  # its words and its figures ("#3776")
    found: frozenset[str]  # what of ``wanted`` the assembled passages hold (a rounded figure counts)
    coverage: float  # the weighted share of ``wanted`` found
    mentions: list[NumberMention]
    missing_numbers: list[NumberMention]  # its figures the passages that say the same thing do not give
    # A figure the passages that say the same thing give otherwise: (figure, passage, binding).
    figure_contradicted: tuple[NumberMention, Passage, Binding] | None
    assembled: list[Passage]
    best: Passage | None  # the passage sharing most with the claim (the evidence shown when none is assembled)
    candidates: list[Passage]  # what the judge gets to read
    bindings: list[Binding]  # its values bound to the aligned passage sentences (``value_binding``)
    cited: list[SourceText]
    # A figure no cited source gives, whose passage gives one of its kind for another election,
    # edition or year (``another_instance``): (figure, passage, the passage's ordinal or year).
    other_instance: tuple[NumberMention, Passage, str] | None = None
    answers: bool = False  # it opened with a yes or a no (``claim`` is read without it)

    @property
    def missing_key(self) -> list[str]:
        return sorted(self.key - self.found)

    @cached_property
    def field_problem(self) -> tuple[str, Passage, bool] | None:
        """A record field the claim reads otherwise (``_field_problem``): asked by two checks, read once."""
        return _field_problem(self.claim, self.assembled)


@dataclass(frozen=True)
class Finding:
    """What a check found: the outcome, its reason (a ``ClaimReason`` value, which has its words
    for a reader as ``verify.reason.<reason>``) and, where it points at one passage or sentence,
    that passage as the evidence shown."""

    outcome: str  # supported | unsupported | uncertain
    reason: str
    confidence: float = 0.5
    missing: tuple[str, ...] = ()
    binding: Binding | None = None
    where: Passage | Sentence | None = None


# "(Passage 2)", "passages 1 and 3", "Document 4 says": which of the given texts the answer draws
# on, a citation in the writer's words, not a figure the passage must give.
_REFERENCE = re.compile(r"\b(?:passages?|documents?|paragraphs?)\s+\d+(?:(?:\s*,\s*|\s+and\s+|\s*&\s*|\s*-\s*)\d+)*\b",
                        re.IGNORECASE)


def _without_references(text: str, titles: Sequence[str] = ()) -> str:
    """``text`` with the numbers of its references to given passages, and the identifiers of the
    sources' titles it names, blanked (same length)."""
    text = _REFERENCE.sub(lambda m: re.sub(r"\d", " ", m.group(0)), text)
    for title in titles:
        if title.lower() in text.lower():
            text = re.sub(re.escape(title), lambda m: _IDENTIFIER.sub(lambda n: " " * len(n.group(0)), m.group(0)),
                          text, flags=re.IGNORECASE)
    return text


_LABEL_AS_A_WORD = re.compile(r"(?<![\w-])S\d{1,3}(?![\w-])")


# 「…実施されるようになった年は1967年からです」: 年 said as the frame of the claim's own year, the answer to 「何年か」.
_TIME_FRAMING_ITS_FIGURE_JA = re.compile(r"(?<![\d\u4e00-\u9fff])(?P<unit>[年月日])(?:は|が)\s*(?:約|およそ)?\s*[\d０-９]+"
                                         r"(?P=unit)")


def _time_framing_its_figure(said: str) -> frozenset[str]:
    """The time nouns (年, 月, 日) a Japanese claim writes only to frame the figure it gives with them: its value is
    the figure, which is looked for as one; the noun is no word its page must write."""
    return frozenset(match["unit"] for match in _TIME_FRAMING_ITS_FIGURE_JA.finditer(said))


# "HIV-related", "long-term": English words joined by hyphens, each part two letters or more.
_COMPOUND_EN = re.compile(r"(?<![\w-])[A-Za-z]{2,}(?:-[A-Za-z]{2,})+(?![\w-])")
# A part that turns the other's meaning (non-smokers, anti-inflammatory, alcohol-free) is no word a page writes apart.
_TURNING_PARTS = frozenset("non un anti counter dis free less no not ex".split())


def _compounds_written_apart(said: str, lacking: frozenset[str], assembled: list[Passage]) -> frozenset[str]:
    """The hyphened compounds of ``said`` among its ``lacking`` key terms whose parts one assembled passage writes
    apart: "HIV-related sexual behaviors" against «…behaviors that increase risk for human immunodeficiency virus
    (HIV) infection … is related to …» (PubMedQA 8017535, the real 1.5B model; a compound is a key term, so its
    absence alone kept the claim from every check). Not a code ("gpt-4", "thread_id") nor a part that turns the
    other's meaning."""
    out: set[str] = set()
    for found in _COMPOUND_EN.finditer(said):
        word = found.group(0).lower()
        term = stem(word)
        parts = word.split("-")
        if term not in lacking or _TURNING_PARTS & set(parts):
            continue
        stems = {stem(part) for part in parts}
        if any(stems <= passage.features for passage in assembled):
            out.add(term)
    return frozenset(out)


# "r = 0.491", "rho = 0.62", "ρ=0.3": a correlation coefficient written as its symbol, with its value.
_COEFFICIENT_SYMBOL_EN = re.compile(r"(?<![\w.])(?:r|rho|ρ|r_s|rs)\s*(?:=|:)\s*[-−]?(?P<value>\d*\.\d+|\d+)(?![\d.])",
                                    re.IGNORECASE)
_COEFFICIENT = stem("coefficients")


def _coefficients_written_as_symbols(said: str, lacking: frozenset[str], mentions: list[NumberMention],
                                     assembled: list[Passage]) -> frozenset[str]:
    """The claim's word "coefficient" where an assembled passage writes the coefficient as its symbol with a value the
    claim gives: "The correlation coefficients were 0.491 and 0.526 for the AKT and CSA" against «…correlation with
    examination performance (r = 0.491 for the AKT and r = 0.526 for the CSA, P<0.01)» (PubMedQA 22449464, the real
    1.5B model; left "not checked" for the one word). The values themselves are still checked as figures."""
    if _COEFFICIENT not in lacking or "coefficient" not in said.lower():
        return frozenset()
    given = {value for mention in mentions for value in mention.values}
    for passage in assembled:
        for written in _COEFFICIENT_SYMBOL_EN.finditer(passage.text):
            value = written["value"]
            if value in given or value.lstrip("0") in {g.lstrip("0") for g in given}:
                return frozenset({_COEFFICIENT})
    return frozenset()


def _read_evidence(claim: Claim, index: EvidenceIndex, labels: list[str]) -> ClaimEvidence:
    """The passages of the cited sources that say most of what the claim says, and which of
    its words and figures they hold. A yes or a no the sentence opens with ("No. The default
    build still has the GIL") is the answer it gives, not a denial of what follows: it is read
    without it, and stands or falls with the rest (workflow/answer.py)."""
    opened = answer_word(claim.plain)
    said = without_adding_connective(opened[2] if opened else claim.plain)
    claim_language = detect_language(said)
    cross_language = all(index.sources[label].language != claim_language for label in labels)
    words, key = _claim_terms(said)
    # The label of a source read, written as a word ("a study by S1 found that …", the real 1.5B
    # model on PubMedQA 23228527), names the source, not something its page must say.
    named_sources = frozenset(word.group(0).lower() for word in _LABEL_AS_A_WORD.finditer(said)
                              if word.group(0).upper() in index.sources)
    framed = _time_framing_its_figure(said)
    words, key = words - index.framing - named_sources - framed, key - index.framing - named_sources - framed
    named = [index.numbered_titles[label] for label in labels if label in index.numbered_titles]
    mentions = extract_numbers(_without_references(said, named))
    wanted = words | frozenset("#" + v for m in mentions for v in m.values)
    scored = index.ranked(labels, wanted)
    assembled = _assemble(wanted, scored[:_TOP_PASSAGES], index)
    found = frozenset().union(*(p.features for p in assembled)) if assembled else frozenset()
    # A page's sentences leave out what its headings say: a word of the claim in the headings
    # above a passage that says the rest is found (「ラオスの国民議会は…132議席」 against
    # 「132議席で、民選、任期5年。」 under "# ラオス", JSQuAD with the real 1.5B model).
    found |= words & frozenset().union(*(p.headings for p in assembled)) if assembled else frozenset()
    found |= _compounds_written_apart(said, key - found, assembled)
    found |= _coefficients_written_as_symbols(said, words - found, mentions, assembled)
    candidates = list(assembled)
    for passage in scored:
        if len(candidates) >= _MAX_CANDIDATES:
            break
        if passage not in candidates and passage.features & wanted:
            candidates.append(passage)
    read = ClaimEvidence(said, claim_language, cross_language, words, key, wanted, found,
                         index.coverage(wanted, found), mentions, [], None, assembled, scored[0] if scored else None,
                         candidates, [], [index.sources[label] for label in labels], answers=opened is not None)
    if cross_language:
        return read

    # Each value of the claim bound to the passage sentence that says what the claim says
    # around it (``value_binding``). Records' fields are left to the field checks.
    if not any(p.field for p in assembled):
        # Not a heading's own line: it names what the sentences under it speak of.
        read_here = [p for p in scored[:_TOP_PASSAGES] if p.features & wanted and not p.field and not p.heading]
        sentences = [Sentence(p.text, p.label, p.features) for p in read_here]
        vocabulary = index.cited(labels)[2]
        # A word the headings say is said of every sentence under them: it tells none apart.
        headed = words.intersection(*(p.headings for p in read_here)) if read_here else frozenset()
        read.bindings = bind_values(_without_references(said, named), claim_language, words - headed,
                                    sentences, index.weight, vocabulary)

    def binding_of(mention: NumberMention) -> Binding:
        return next((b for b in read.bindings if b.reason == "number_mismatch" and b.claim_value == mention.text),
                    None) or Binding("contradicted", "number_mismatch", mention.text, "number", None, None)

    def contradicting(mention: NumberMention) -> Passage | None:
        """A passage that says the same thing as the claim and gives another figure of its kind,
        for the same one the claim speaks of (not the 47th election's seats for the 22nd's)."""
        for passage in assembled:
            shared = (passage.features | passage.headings) & words
            if passage.numbers is not None and (len(shared) >= 2 or shared & key) and passage.numbers.same_kind_other(mention):
                mark = another_instance(said, mention, passage.text)
                if mark is None:
                    return passage
                if read.other_instance is None:
                    read.other_instance = (mention, passage, mark)
        return None

    # A figure counts only in a passage that says the same thing as the claim: "accepted it in
    # 2024" is not supported by "accepted it in 2023 … the next review is in 2024".
    evidence_numbers = NumberSet([])
    for passage in assembled:
        if passage.numbers is None:
            passage.numbers = NumberSet.of(passage.text)
        shared = (passage.features | passage.headings) & words
        if len(shared) >= 2 or shared & key or len(words) < 2:
            evidence_numbers = evidence_numbers.merged(passage.numbers)
    for mention in mentions:
        if evidence_numbers.contains(mention):
            # Found, perhaps rounded ("about 3.8 km" for 3,776 m): it counts as the claim's own figure.
            read.found = read.found | frozenset("#" + v for v in mention.values)
            continue
        if index.coverage(words, read.found) >= CONTRADICTION_CONTEXT and not mention.worded:
            other = contradicting(mention)
            if other is not None:
                read.figure_contradicted = (mention, other, binding_of(mention))
                break
            if read.other_instance is not None:
                break  # decided against as well, as not said rather than contradicted
        if any(index.sources[label].contains(mention) for label in labels) and not mention.worded:
            # The figure is in the source, only not in the passages chosen: not a contradiction.
            read.missing_numbers.append(mention)
            continue
        if mention.worded:
            read.missing_numbers.append(mention)
            continue
        if index.coverage(words, read.found) >= CONTRADICTION_CONTEXT:
            other = contradicting(mention)
            if other is not None:
                read.figure_contradicted = (mention, other, binding_of(mention))
                break
            if read.other_instance is not None:
                break
        read.missing_numbers.append(mention)
    # Lazily: the sentences are cut only for a claim with a measure word and figures of that measure.
    read.found |= _measures_named_otherwise(words - read.found, mentions,
                                            (sentence for p in assembled for sentence in split_sentences(p.text)))
    if read.figure_contradicted is None:  # a changed figure is scored on the words it was found by
        read.coverage = index.coverage(wanted, read.found)
    return read


# What is measured, not what happened: the attributes of disagreements.py's lexicon a figure with a unit gives, and
# the dimension of that unit (numbers.py).
_MEASURES = {"height": "length", "length": "length", "depth": "length", "width": "length", "area": "area",
             "weight": "mass", "temperature": "degree"}


def _measures_named_otherwise(missing: frozenset[str], mentions: list[NumberMention],
                              sentences: Iterable[str]) -> frozenset[str]:
    """The claim's words that name a measure its passage names by another word of it, in the sentence that gives every
    figure of the claim: "The height of Mount Fuji is 3,776 m (12,388 ft)" against «Mount Fuji is 3,776 m (12,388 ft)
    tall.» (the real 1.5B model's finding, `bench_answers.py --ollama`, left "not checked"), 「高さ」 against 「標高」."""
    dimensions = {m.dimension for m in mentions}
    if not mentions or None in dimensions:
        return frozenset()
    # A measure the claim's own figures are of: "high" of "a high-profile stunt" is none.
    named = {word: {a for a in attributes_named(word) if _MEASURES.get(a) in dimensions} for word in missing}
    named = {word: measures for word, measures in named.items() if measures}
    if not named:
        return frozenset()
    found: set[str] = set()
    for sentence in sentences:
        figures = NumberSet.of(sentence)
        if all(figures.contains(m) for m in mentions):
            measures = attributes_named(sentence)
            found.update(word for word, wanted in named.items() if wanted & measures)
    return frozenset(found)


def _assessment(finding: Finding, read: ClaimEvidence, valid: list[str], invalid: list[str]) -> Assessment:
    verdict = {"supported": "supported", "unsupported": "unsupported", "uncertain": "partly_supported"}[finding.outcome]
    assembled = read.assembled
    evidence_label: str | None
    if finding.where is not None:
        evidence, evidence_label = finding.where.text, finding.where.label
    else:
        # The quote shown under one source's label comes from that source only: a claim that
        # merges facts of two files is assembled from both, but «…» [S1] never quotes S2.
        evidence_label = assembled[0].label if assembled else None
        evidence = " ".join(p.text for p in assembled if p.label == evidence_label) if assembled \
            else (read.best.text if read.best else "")
    binding = finding.binding
    return Assessment(
        verdict, round(finding.confidence, 2), round(read.coverage, 3), evidence=evidence,
        evidence_label=evidence_label, borderline=finding.outcome == "uncertain", reason=finding.reason,
        valid_citations=valid, invalid_citations=invalid, candidates=read.candidates, outcome=finding.outcome,
        missing=list(finding.missing), bound_value=binding.claim_value if binding else None,
        passage_value=binding.passage_value if binding else None,
    )


# --- the checks, in the order they are tried ---------------------------------------------------
# Each reads a ClaimEvidence and returns a Finding when the claim fails it, else None. A
# check that can call a claim unsupported comes before those that only send it to the judge.


def languages_differ(read: ClaimEvidence) -> Finding | None:
    """Words cannot be compared across languages; the judge compares meanings."""
    return Finding("uncertain", "cross_language") if read.cross_language else None


def figure_contradicted(read: ClaimEvidence) -> Finding | None:
    """The passages that say the same thing give another figure: a changed number."""
    if read.figure_contradicted is None:
        return None
    mention, passage, binding = read.figure_contradicted
    return Finding("unsupported", "number_mismatch", 0.9, (mention.text,), binding, passage)


# A day and the event a Japanese sentence gives it: 「1946年9月27日に公布」, 「同年10月13日から施行された」.
_DAY_OF_AN_EVENT_JA = re.compile(
    r"(?P<day>(?:[0-9０-９]{3,4}年|同年)?[0-9０-９]{1,2}月[0-9０-９]{1,2}日)(?:に|から|より)?(?P<event>[\u4e00-\u9fff]{2,4})"
    r"(?=され|し|する|した|・|、|。|$)")


def _month_day(day: str) -> str:
    return unicodedata.normalize("NFKC", day).split("年")[-1]


def day_of_another_event(read: ClaimEvidence) -> Finding | None:
    """(ja) A day the claim gives one event, which its passage sentence gives another event of the
    same sentence, and gives the claim's event another day: 「…公布されたのは1946年9月27日に施行された」 against
    «…1946年9月27日に公布・同年10月13日から施行された。» (JSQuAD, the real 1.5B model's Summary, supported: every
    word and figure there). Decided against, the sentence shown."""
    if read.language != "ja" or not read.assembled:
        return None
    claimed = [(_month_day(m.group("day")), m.group("event")) for m in _DAY_OF_AN_EVENT_JA.finditer(read.claim)]
    if not claimed:
        return None
    for passage in read.assembled:
        for start, end in sentence_spans(passage.text):
            sentence = passage.text[start:end]
            given = {(_month_day(m.group("day")), m.group("event")) for m in _DAY_OF_AN_EVENT_JA.finditer(sentence)}
            for day, event in claimed:
                if (day, event) in given:
                    continue
                others = {d for d, e in given if e == event}
                if others and day not in others and any(d == day for d, _ in given):
                    quoted = Passage(passage.label, sentence.strip(), passage.features)
                    return Finding("unsupported", "number_mismatch", 0.8, (day,), where=quoted)
    return None


# «グスタフ・マーラー（Gustav Mahler, 1860年7月7日 - 1911年5月18日）は、…»: a person's birth and death days in brackets
# after the name, as a Japanese encyclopaedia writes them.
_DAY_JA = r"\d{1,4}年(?:\d{1,2}月)?(?:\d{1,2}日)?"
_LIFESPAN_JA = re.compile(rf"(?P<name>[^\s、。（）()「」]{{2,30}})[（(]"
                          r"(?![^（）()]*?(?:在位|在任|任期|治世|在職|活動|期間))"  # a reign or a term of office is no lifespan
                          rf"[^（）()]*?(?P<born>{_DAY_JA})(?:（[^（）]*）)?\s*[-–－〜~]\s*(?P<died>{_DAY_JA})(?:（[^（）]*）)?[）)]")
_BORN_JA = re.compile(r"誕生日|生年月日|生まれ|誕生|出生")
_DIED_JA = re.compile(r"亡くな|死去|死亡|逝去|没し|命日|没年月日")
# What a claim of a birth or death day says besides the name and the day.
_LIFE_EVENT_WORDS_JA = re.compile(r"誕生日|生年月日|生まれ[たま]?|誕生|出生|亡くな[っりる]|死去|死亡|逝去|没し|命日|没年月日|日付")


def _ymd(day: str) -> tuple[int, ...]:
    return tuple(int(n) for n in re.findall(r"\d+", unicodedata.normalize("NFKC", day)))


def day_of_birth_or_death_in_brackets(read: ClaimEvidence) -> Finding | None:
    """(ja) A person's birth or death day, which the page gives in brackets after the name (「グスタフ・マーラーの誕生日は
    1860年7月7日です」 against «グスタフ・マーラー（Gustav Mahler, 1860年7月7日 - 1911年5月18日）は、…», which the checks left
    open for want of 誕生: JSQuAD v1.3 valid a10743p0q0). The first day is the birth, the second the death: the claim's
    day decides it, the other day of the two decides against it. Only a claim that says no more than the name, the
    day and that it was born or died (「…にウィーンで生まれた」 is left to the other checks)."""
    if read.language != "ja" or not read.cited:
        return None
    claim = unicodedata.normalize("NFKC", read.claim)
    born, died = _BORN_JA.search(claim), _DIED_JA.search(claim)
    days = re.findall(_DAY_JA, claim)
    if bool(born) == bool(died) or len(days) != 1:
        return None
    for passage, sentence in _cited_sentences(read):
        for found in _LIFESPAN_JA.finditer(unicodedata.normalize("NFKC", sentence)):
            name = found["name"]
            if name not in claim:
                continue
            rest = claim.replace(name, "", 1).replace(days[0], "", 1)
            if any(t.key for t in terms(_LIFE_EVENT_WORDS_JA.sub("", rest))):
                return None  # more than the day: where, why, of whom
            said, other = (found["born"], found["died"]) if born else (found["died"], found["born"])
            claimed = _ymd(days[0])
            quoted = Passage(passage.label, sentence.strip(), passage.features)
            if _ymd(said)[:len(claimed)] == claimed:
                return Finding("supported", "supported", 0.85, where=quoted)
            if _ymd(other)[:len(claimed)] == claimed or _ymd(said)[:1] != claimed[:1]:
                return Finding("unsupported", "number_mismatch", 0.85, (days[0],), where=quoted)
    return None


# «オランダ・スイス二国間条約（1875年）»: a year in brackets right after a name, the year of what it names; and a claim
# that something was made (制定, 締結, 成立…) in a year.
_YEAR_OF_A_NAME_JA = re.compile(r"(?P<name>[^\s、。（）()「」]{2,30})[（(](?P<year>\d{3,4})年[）)]")
_MADE_IN_A_YEAR_JA = re.compile(r"^(?P<name>[^、。]{2,30}?)(?:は|が)(?:[^、。]{0,10}?)(?P<year>\d{3,4})年[^、。]{0,16}?"
                                r"(?:制定|締結|成立|設立|創設|創立|建設|建立|公布|調印|発足|結成|建造|竣工|完成)")


def year_of_a_name_in_brackets(read: ClaimEvidence) -> Finding | None:
    """(ja) The year a claim says a thing was made (制定, 締結, 設立…), where the page gives that thing another year in
    brackets after its name: 「オランダ・スイス二国間条約は2017年1月1日以降に制定されました」 against «…オランダ・スイス二国間
    条約（1875年）の解釈も見直され、2017年1月1日以降の労働にあたっては…» (JSQuAD v1.3 valid a1698820p26q4, the real 1.5B
    model, not checked). Decided against (number_mismatch), the sentence shown; the same year decides nothing here (the
    year in brackets may be of its signing, its coming into force or its name)."""
    if read.language != "ja" or not read.cited:
        return None
    claim = unicodedata.normalize("NFKC", without_leading_connective(read.claim.strip()))
    made = _MADE_IN_A_YEAR_JA.match(claim)
    if made is None:
        return None
    name = squeezed(made["name"])
    for passage, sentence in _cited_sentences(read):
        for found in _YEAR_OF_A_NAME_JA.finditer(unicodedata.normalize("NFKC", sentence)):
            if len(name) >= 4 and squeezed(found["name"]).endswith(name) and found["year"] != made["year"]:
                return Finding("unsupported", "number_mismatch", 0.8, (f"{made['year']}年",),
                               where=Passage(passage.label, sentence.strip(), passage.features))
    return None


def figure_of_another_instance(read: ClaimEvidence) -> Finding | None:
    """The passage that says the same thing gives a figure of its kind for another election,
    edition or year: not a contradiction (it says nothing of the claim's one), and not
    support either. Decided against, as a contradiction was: never left to a judge."""
    if read.other_instance is None:
        return None
    mention, passage, mark = read.other_instance
    return Finding("unsupported", "another_instance", 0.8, (mention.text, mark), None, passage)


def nothing_to_compare(read: ClaimEvidence) -> Finding | None:
    if not read.words and not read.mentions:
        return Finding("uncertain", "nothing_to_compare")
    return None


def unrelated(read: ClaimEvidence) -> Finding | None:
    """Nothing of the claim in the passages cited. A Japanese paraphrase shares few words
    (古びた列車が停車 / 古そうな鉄道が止まって), so there nothing at all must be shared."""
    nothing = read.coverage == 0 if read.language == "ja" else read.coverage < UNRELATED_BELOW
    if nothing and not (read.key & read.found) and len(read.wanted) >= 3:
        return Finding("unsupported", "unrelated", 0.8, tuple(read.missing_key[:5]))
    return None


def value_contradicted(read: ClaimEvidence) -> Finding | None:
    """A value the passage gives for another thing: the sentence that says what the claim says
    gives another year, figure or contrast word in the same slot. In English a contrast word
    counts only where that sentence holds every other word of the claim (no parser)."""
    contradicted = next((b for b in read.bindings if b.outcome == "contradicted"), None)
    if contradicted is None or contradicted.sentence is None:
        return None
    if _for_another_instance(read, contradicted):
        # Decided against all the same, as the figure check does: not said, rather than contradicted.
        return Finding("unsupported", "another_instance", 0.8, (contradicted.claim_value,), None,
                       contradicted.sentence)
    if contradicted.reason == "number_mismatch" or read.language == "ja" or contradicted.complete:
        return Finding("unsupported", contradicted.reason, 0.85, (contradicted.claim_value,), contradicted,
                       contradicted.sentence)
    return Finding("uncertain", contradicted.reason, 0.5, (contradicted.claim_value,), contradicted)


def _for_another_instance(read: ClaimEvidence, binding: Binding) -> bool:
    """A figure bound to a sentence about another election, edition or year (``another_instance``)."""
    if binding.reason != "number_mismatch" or binding.sentence is None:
        return False
    mention = next((m for m in read.mentions if m.text == binding.claim_value), None)
    return mention is not None and another_instance(read.claim, mention, binding.sentence.text) is not None


def structure_conflicts(read: ClaimEvidence) -> Finding | None:
    """Who does what to whom, and words that exclude each other in one slot: the passages that
    say the same thing with the claim's own words say something else."""
    conflict = _structural_conflict(read.claim, read.language, read.assembled, read.words, read.found, read.key)
    if conflict is None:
        return None
    kind, detail, where = conflict
    # In English a contrasting word may sit in another clause of the passage ("rose in May,
    # fell in June"): without the clause structure it is for the judge.
    # English order is read without a parser: on RAGTruth 7 of 8 such exchanges were
    # compounds and appositions ("Thai Smile … Thai Airways"), so they go to the judge;
    # only two terms exchanged in a sentence that is otherwise the claim word for word
    # ("server … client" / "client … server") are a contradiction (role_swap).
    if kind in ("role_swap", "contrast", "negation") and (read.language == "ja" or kind == "role_swap"):
        return Finding("unsupported", kind, 0.85, (detail,), where=where)
    return Finding("uncertain", kind, 0.5, (detail,))


_LATIN_WORD = re.compile(r"\s*\b[A-Za-z][A-Za-z0-9'’\-]*\b")
# Words before a noun that qualify nothing: "the build" and "a build" name the claim's build as well.
_NOT_A_QUALIFIER = frozenset({"the", "a", "an", "this", "that", "its", "their", "of", "in", "on", "to", "for", "and", "or"})


def _without_words_of_the_headings(claim: str, passage: Passage, language: Language) -> str:
    """An English claim without the words only the headings above ``passage`` hold: the page's
    sentences leave them out, so they must not keep the claim from lining up with one. "The
    free-threaded CPython build introduced in Python 3.14 ships an experimental free-threaded
    build …" (the real 1.5B model's GIL answer) is read as "The free-threaded build introduced in
    Python 3.14 ships an experimental …" against «The free-threaded build became officially
    supported in Python 3.14» under "# Free-threaded CPython"."""
    only_there = passage.headings - passage.features
    if language == "ja" or not only_there:
        return claim

    def kept_unless_only_there(word: re.Match[str]) -> str:
        said = features(word.group(0))
        if not said or not said <= only_there:
            return word.group(0)
        # A heading's word that tells the claim's thing from the passage's keeps it: "…, but the GIL is
        # disabled in the free-threaded build" is not about «The standard build … still has the GIL
        # enabled by default» under "# Free-threaded CPython" (the real 1.5B model's true sentence on the
        # GIL question, contradicted). Its noun after it, qualified by another word the claim lacks there.
        after = _LATIN_WORD.match(claim[word.end():])
        if after is not None:
            # The words that qualify that noun in the claim: this one and the two before it ("free-threaded
            # CPython build" and «The free-threaded build …» name one build).
            phrase = {w.strip().lower() for w in _LATIN_WORD.findall(claim[:word.end()])[-3:]}
            for other in re.finditer(rf"\b([\w-]+)\s+{re.escape(after.group(0).strip())}\b", passage.text, re.IGNORECASE):
                if other.group(1).lower() not in phrase | _NOT_A_QUALIFIER and not features(other.group(1)) & STATUS_TERMS:
                    return word.group(0)
        return ""

    kept = _LATIN_WORD.sub(kept_unless_only_there, claim)
    return kept if kept.strip() else claim


def _prose_of(read: ClaimEvidence) -> list[Passage]:
    """The sentences of the claim's cited sources that are prose: not a record's field, not a heading."""
    return [passage for source in read.cited for passage in source.passages if not passage.field and not passage.heading]


def direction_given_to_another(read: ClaimEvidence) -> Finding | None:
    """(en) A comparative over a list of which the passage sentence gives some item the opposite
    direction ("higher … heart rate" where it says "a lower … heart rate"): contradicted, with
    that sentence shown (``english_direction_given_to_another``)."""
    if read.language != "en":
        return None
    for passage in read.assembled:
        for start, end in sentence_spans(passage.text):
            found = english_direction_given_to_another(read.claim, passage.text[start:end])
            if found is not None:
                return Finding("unsupported", "contrast", 0.85, (found[0],), where=passage)
    return None


# "All variables are statistically significant in male and female models except of the relationships between
# … and female suicides; and the relationship between …": what is said of all but the excepted.
_ALL_EXCEPT_EN = re.compile(r"^(?:all|every|each)\b(?P<subject>[^.;]{0,80}?)\b(?:are|is|were|was)\s+"
                            r"(?P<predicate>[^.;]{3,120}?)\s*,?\s*\bexcept\b(?:\s+(?:for|of))?(?P<excepted>.+)$",
                            re.IGNORECASE)
# Where the predicate's own words end: "statistically significant | in male and female models".
_PREDICATE_ENDS_EN = re.compile(r"\s(?:in|for|at|on|with|among|between|across|by|to|of|from|during)\s", re.IGNORECASE)
_NEGATED_EN = re.compile(r"\b(?:not|no|never|neither|nor|none)\b|n['’]t\b", re.IGNORECASE)
_CLAUSES_EN = re.compile(r";|,\s+(?:with|and|but|while|whereas)\s", re.IGNORECASE)
_EXCEPTED_AT_LEAST = 2  # of the claim's own words about what it says it of, all among the excepted


def excepted_from_all(read: ClaimEvidence) -> Finding | None:
    """(en) A claim that says of something what its passage says of all but that: "The relationship
    between 'employment rates' and 'economic/employment' dimension is also statistically significant"
    against «All variables are statistically significant in male and female models except of the
    relationships between … and female suicides; and the relationship between 'employment rates'
    and 'economic/employment' dimension.» (PubMedQA 22205377, the real 1.5B model's Summary, led by
    it as supported: every word is in that sentence). Decided against, the sentence shown."""
    if read.language != "en":
        return None
    for passage in read.assembled:
        for start, end in sentence_spans(passage.text):
            sentence = passage.text[start:end].strip()
            found = _ALL_EXCEPT_EN.match(sentence)
            if found is None:
                continue
            predicate = _PREDICATE_ENDS_EN.split(f" {found.group('predicate')} ", maxsplit=1)[0]
            said = _sentence_terms(predicate)
            excepted = _sentence_terms(found.group("excepted"))
            if not said:
                continue
            for clause in _CLAUSES_EN.split(read.claim):
                own = _sentence_terms(clause)
                if not said <= own or _NEGATED_EN.search(clause):
                    continue
                of_what = own - said - STOP_WORDS
                if len(of_what) >= _EXCEPTED_AT_LEAST and of_what <= excepted \
                        and of_what - _sentence_terms(found.group("subject")):
                    quoted = Passage(passage.label, sentence, passage.features)
                    return Finding("unsupported", "negation", 0.85, (found.group("excepted").strip()[:80],), where=quoted)
    return None


# An exception ("except", 以外) and what a passage says holds whatever the case ("regardless of", にかかわらず).
_EXCEPT_JA = re.compile(r"以外|を除(?:く|いて|き)")
_REGARDLESS_JA = re.compile(r"(?:かかわらず|関わらず|拘わらず)|を問わず|に関係なく")
_EXCEPT_EN = re.compile(r"\b(?:except(?: for)?|other than|apart from|excluding|with the exception of)\b", re.IGNORECASE)
_REGARDLESS_EN = re.compile(r"\b(?:regardless of|irrespective of|whatever (?:the|its|their))\b", re.IGNORECASE)
_EXCEPTED_SHARES_AT_LEAST = 3  # terms the claim shares with the passage sentence, and half of that sentence's


def exception_to_what_holds_regardless(read: ClaimEvidence) -> Finding | None:
    """A claim that makes an exception to what its passage says holds whatever the case: 「プロジェクト起草や建築物の
    建築管理は、建築家が行うことができるのは、特定の用途（住宅、教育、…）の建設作業以外のすべての用途である」 against
    «…建築物の建築管理はその用途にかかわらず、建築家が行うことができる。» (JSQuAD v1.3 valid, `research bench jsquad
    --seed 98`, the real 1.5B model's Summary, not checked). Decided against, the passage's sentence shown."""
    japanese = read.language == "ja"
    exception = (_EXCEPT_JA if japanese else _EXCEPT_EN).search(read.claim)
    if exception is None:
        return None
    regardless, excepting = (_REGARDLESS_JA, _EXCEPT_JA) if japanese else (_REGARDLESS_EN, _EXCEPT_EN)
    own = _sentence_terms(read.claim)
    for passage in read.assembled:
        if passage.field:
            continue
        for start, end in sentence_spans(passage.text):
            sentence = passage.text[start:end].strip()
            if not regardless.search(sentence) or excepting.search(sentence):
                continue
            theirs = _sentence_terms(sentence)
            shared = own & theirs
            if len(shared) >= _EXCEPTED_SHARES_AT_LEAST and 2 * len(shared) >= len(theirs):
                quoted = Passage(passage.label, sentence, passage.features)
                return Finding("unsupported", "negation", 0.8, (exception.group(0),), where=quoted)
    return None


def _decided_by_the_prose(conflict: Conflict | None, prose: list[Passage]) -> Finding | None:
    """A conflict found in the cited pages' prose, decided against with the passage it quotes."""
    if conflict is None:
        return None
    where = next((p for p in prose if conflict.quote in p.text), None)
    return Finding("unsupported", conflict.kind, 0.85, (conflict.detail,),
                   where=Passage(where.label, conflict.quote, where.features) if where else None)


def polarity_conflicts(read: ClaimEvidence) -> Finding | None:
    """A passage sentence that says the same thing of the same subject and denies it, or gives it
    another status of one exclusive set ("is now the default" / "is still not the default";
    "a stable build" / "an experimental build"): decided against, with that sentence shown
    (``polarity``). A small judge cannot be trusted to see the one word that differs."""
    # "A is associated with B" against "no significant association between A and B", unless the
    # page also states it (found in one group, not in another): the page's prose read once.
    compares = read.language == "en" and says_a_difference(read.claim)
    changes = read.language == "en" and says_a_change(read.claim)
    elsewhere = [p.text for p in _prose_of(read)] \
        if says_related(read.claim, read.language) or compares or changes else None
    for passage in read.assembled:
        if passage.field:
            continue
        claim = _without_words_of_the_headings(read.claim, passage, read.language)
        conflict = clause_conflict(claim, passage.text, read.language) \
            or opposite_conflict(claim, passage.text, read.language) \
            or (no_relation_conflict(claim, passage.text, read.language, elsewhere) if elsewhere is not None else None) \
            or (no_difference_conflict(claim, passage.text, read.language, elsewhere or ()) if compares else None) \
            or (no_change_conflict(claim, passage.text, read.language, elsewhere or ()) if changes else None)
        if conflict is not None:
            quoted = Passage(passage.label, conflict.quote, passage.features)
            return Finding("unsupported", conflict.kind, 0.85, (conflict.detail,), where=quoted)
    # "Yes, higher body mass index (BMI) is associated with worse asthma control in an urban population" against «Regression
    # analysis showed no association between obesity or increasing BMI level and asthma control …» (PubMedQA 19615731,
    # `--seed 129`): a result the claim's words (the objective's) did not bring among the passages read.
    if read.language == "en" and says_related(read.claim, read.language) and elsewhere is not None:
        for passage in _prose_of(read):
            if passage in read.assembled:
                continue
            conflict = no_relation_conflict(read.claim, passage.text, read.language, elsewhere)
            if conflict is not None:
                return Finding("unsupported", conflict.kind, 0.85, (conflict.detail,),
                               where=Passage(passage.label, conflict.quote, passage.features))
    # "… differ between superior and inferior portions …" against «No statistically significant differences between
    # INF-CTV and SUP-CTV …»: a results sentence the claim's words (an aim's) did not bring among the passages read.
    prose = _prose_of(read) if read.language == "en" and "between" in read.claim.lower() else []
    found = _decided_by_the_prose(no_difference_between(read.claim, [p.text for p in prose]) if prose else None, prose)
    if found is not None:
        return found
    # "…NT thickness was associated with an increased risk of GDM" against «There was no significative difference
    # between NT values in the study and control group.», the study group being the GDM pregnancies: a result the
    # claim's words (an aim's) did not bring among the passages read either.
    if read.language == "en" and says_related(read.claim, read.language):
        prose = _prose_of(read)
        found = _decided_by_the_prose(
            no_difference_in_what_is_related(read.claim, [p.text for p in prose]) if prose else None, prose)
        if found is not None:
            return found
    # "…no significant differences in consultations requested or hospitalization rates" against «There were fewer
    # consultations requested at our residency training sites but similar hospitalization rates for patients.»
    # (PubMedQA 8245806): a result of the cited pages that states the difference the claim says was not found.
    if read.language == "en" and " differ" in read.claim.lower():
        prose = _prose_of(read)
        found = _decided_by_the_prose(difference_the_page_states(read.claim, [p.text for p in prose]) if prose else None,
                                      prose)
        if found is not None:
            return found
    # A claim that joins two statements is assembled from the passages that say most of it
    # together; the one denying its first statement may not be among them ("…is the default
    # build, and it has the GIL disabled": the passage on the GIL says most of it, the one that
    # says "still not the default build" is read here). Unless a passage says that statement.
    # Every prose sentence of the cited sources that shares a word with the claim, not only the
    # three shown to the judge: the real 1.5B model's "The free-threaded CPython build introduced
    # in Python 3.14 is the default build, and it disables the GIL, …" had its denial ("…though it
    # is still not the default build") fourth, after three sentences on the GIL.
    if not has_statements_to_read_apart(read.claim, read.language):
        return None
    prose = [passage for passage in _prose_of(read) if passage.features & read.wanted]
    for passage in prose:
        conflict = consequence_conflict(read.claim, passage.text, read.language)
        if conflict is not None:
            quoted = Passage(passage.label, conflict.quote, passage.features)
            return Finding("unsupported", conflict.kind, 0.85, (conflict.detail,), where=quoted)
    for passage in prose:
        if passage in read.assembled:
            continue
        denied = conjoined_conflict(read.claim, passage.text, read.language)
        if denied is not None and not any(affirms(denied[0], other.text, read.language) for other in prose):
            conflict = denied[1]
            quoted = Passage(passage.label, conflict.quote, passage.features)
            return Finding("unsupported", conflict.kind, 0.85, (conflict.detail,), where=quoted)
    return None


# An addition (Japanese): at least this many of the claim's content words (lemmas), and this
# share of them, are in no passage of the sources it cites. On ja-nli dev this decided 151
# pairs, 6 of them true (JNLI's captions paraphrase freely; 4 words decided 287, 18 true). Not
# in English: on RAGTruth train, stems shared this little decided more clean claims than
# hallucinated ones (4 words and half: 14,751 clean, 4,144 hallucinated; 5 words and 80%: 493
# clean, 292 hallucinated): an English paraphrase changes more stems than a Japanese one lemmas.
ABSENT_AT_LEAST = 5
ABSENT_SHARE = 0.5


def mostly_absent(read: ClaimEvidence) -> Finding | None:
    """Most of what the claim says is in none of the passages of the sources it cites: the
    sources do not say it (an addition), whatever few words it shares with them. The words
    they lack are shown."""
    if read.language != "ja" or not read.words:
        return None
    held = frozenset().union(*(source.held for source in read.cited))  # once per source, not per claim
    absent = read.words - held
    if len(absent) < ABSENT_AT_LEAST or len(absent) < ABSENT_SHARE * len(read.words):
        return None
    return Finding("unsupported", "added", 0.7, tuple(_as_written(read.claim, absent)[:5]))


def _as_written(text: str, units: frozenset[str]) -> list[str]:
    """The words of ``text`` whose term (stem or lemma) is in ``units``, as written, in order."""
    out: list[str] = []
    for word in written_words(text, particles=False):
        if any(t.text in units for t in terms(word)) and word not in out:
            out.append(word)
    return out or sorted(units)


# A Japanese claim that says who or what its topic is by name: 「…暗殺された有名な映画監督はヨハネス・
# グーテンベルクです」. The name in katakana (a foreign person's or place's), the copula at the end.
_NAMED_AS_JA = re.compile(r"^(?P<described>[^。]+?)は(?P<name>[\u30a1-\u30fa\u30fc・]{2,30})(?:です|である|だ)[。.]?$")
_KATAKANA_NAME = r"(?:は|が|の|、|：)?(?P<other>[\u30a1-\u30fa\u30fc][\u30a1-\u30fa\u30fc・]+)"


_KATAKANA_V = {"ヴァ": "バ", "ヴィ": "ビ", "ヴェ": "ベ", "ヴォ": "ボ", "ヴュ": "ビュ"}
_KATAKANA_V_SPELLED = re.compile("|".join(_KATAKANA_V))
_KATAKANA_SPELLINGS = str.maketrans({"ヴ": "ブ", "ヂ": "ジ", "ヅ": "ズ", "ヲ": "オ", "ヰ": "イ", "ヱ": "エ", "ァ": "ア",
                                    "ィ": "イ", "ゥ": "ウ", "ェ": "エ", "ォ": "オ", "ー": None, "・": None, "＝": None})


def _katakana_folded(text: str) -> str:
    """Katakana as several spellings of one foreign name agree: ヴィエンチャン and ビエンチャン,
    テオ・ファン and テオファン, ゴッホ and ゴーッホ."""
    text = _KATAKANA_V_SPELLED.sub(lambda m: _KATAKANA_V[m.group(0)], text)
    return text.translate(_KATAKANA_SPELLINGS)


# What a writer's katakana for one foreign name still differs in once ``_katakana_folded`` agrees
# the spellings: a small ャ, ュ, ョ, ヮ or ッ heard or not (ニューダーザクセン for ニーダーザクセン).
_KATAKANA_SMALL = str.maketrans({"ャ": None, "ュ": None, "ョ": None, "ヮ": None, "ッ": None})
KATAKANA_RUN = re.compile(r"[\u30a1-\u30fa\u30fc]{2,}")
_RESPELT_AT_LEAST = 5  # folded kana of a name long enough that such a difference is a misspelling, not another word


def written_in_japanese(character: str) -> bool:
    """Whether Japanese text writes ``character``: in Shift_JIS (JIS X 0208 and Microsoft's additions),
    which holds every kanji in use in Japan, and not the simplified Chinese forms (丰, 这, 们)."""
    try:
        character.encode("cp932")
    except UnicodeEncodeError:
        return False
    return True


def katakana_misspelt(written: str, other: str) -> bool:
    """Whether two katakana words are one long foreign name, spelt differently: the real 1.5B
    model wrote 「ニューダーザクセン州の州都は、ハノーファーです」 where its page and the question say
    ニーダーザクセン (JSQuAD v1.3 valid a29111p0q0), and the answer lost its one true sentence. Short
    words are never taken for each other (キュー, キー)."""
    if written == other:
        return False
    folded = _katakana_folded(written).translate(_KATAKANA_SMALL)
    return len(folded) >= _RESPELT_AT_LEAST and folded == _katakana_folded(other).translate(_KATAKANA_SMALL)


def name_of_another(read: ClaimEvidence) -> Finding | None:
    """(ja) A claim that gives a name to what it describes (「…映画監督はヨハネス・グーテンベルクです」)
    where no cited source has that name and the passage sentence that says most of the
    description names another right after its head word (「著名な映画監督テオ・ファン・ゴッホなどの
    暗殺事件」): the page names someone else as that. JSQuAD v1.3 valid a1698820p65q0, the real 1.5B
    model's whole answer, kept as not checked in its Summary. One term exchanged, decided against
    with the page's sentence."""
    if read.language != "ja" or not read.assembled:
        return None
    match = _NAMED_AS_JA.match(read.claim.strip())
    if match is None:
        return None
    name = match.group("name").strip("・")
    if any(source.holds_words([squeezed(part)]) for source in read.cited for part in name.split("・") if part):
        return None
    written = _katakana_folded(name)
    if any(written in _katakana_folded(p.text) for p in read.assembled):
        return None  # the same name spelt another way (ビエンチャン, ヴィエンチャン)
    described = [t.text for t in terms(match.group("described")) if t.key]
    if len(described) < 2:
        return None
    head = described[-1]
    after_head = re.compile(re.escape(head) + _KATAKANA_NAME)
    for passage in read.assembled:
        for start, end in sentence_spans(passage.text):
            sentence = passage.text[start:end]
            other = after_head.search(sentence)
            if other is None or 2 * len(set(described) & _sentence_terms(sentence)) <= len(described):
                continue
            return Finding("unsupported", "missing_term", 0.8, (name,), where=passage)
    return None


# A country, party or body named by a foreign name and a kanji tail: ドミニカ共和国, ドミニカ国, ラテン語.
_FOREIGN_NAME_JA = re.compile(r"(?<![\u30a1-\u30fa\u30fc・])(?P<name>[\u30a1-\u30fa\u30fc・]{3,})(?P<tail>[\u4e00-\u9fff]{1,4})")


def foreign_name_of_another(read: ClaimEvidence) -> Finding | None:
    """(ja) A claim naming a foreign name with one kanji tail (ドミニカ共和国) where its passages write that name only with
    another (ドミニカ国): another country, party or language, not the claim's. 「ドミニカ共和国の首都はロゾーです。」 was
    supported by «ドミニカ国（ドミニカこく）は、…共和制国家。…首都はロゾー。» (its words all there: ドミニカ, 共和, 国), the
    page going on «イスパニョーラ島東部に位置するドミニカ共和国と区別するため、ドミニカ国と表記される。» (JSQuAD v1.3 valid
    a59579p0q1, whose own question says ドミニカ共和国; `research bench jsquad --sample 5 --seed 133`, the real 1.5B
    model's Summary). Left to the judge with the name shown; never repaired, the question may name it."""
    if read.language != "ja" or not read.assembled:
        return None
    written = "".join(p.text for p in read.assembled)
    for found in _FOREIGN_NAME_JA.finditer(without_leading_connective(read.claim)):
        if found.group(0) in written:
            continue
        if any(other["name"] == found["name"] and not other["tail"].startswith(found["tail"])
               for other in _FOREIGN_NAME_JA.finditer(written)):
            return Finding("uncertain", "missing_term", 0.5, (found.group(0),))
    return None


# A letter of a Japanese compound noun: kanji, katakana (with its long vowel and middle dot) or Latin letters and digits.
_COMPOUND_LETTER_JA = r"[\u4e00-\u9fff\u30a0-\u30ffA-Za-z0-9・ー]"
_COMPOUND_PIECE_JA = re.compile(rf"^{_COMPOUND_LETTER_JA}{{1,8}}$")
_COMPOUND_RUN_JA = re.compile(rf"{_COMPOUND_LETTER_JA}+")
_COMPOUND_HEAD_JA = re.compile(r"^[\u4e00-\u9fff\u30a0-\u30ff]+")
_LIST_LABEL_JA = re.compile(r"^[^:：。、]{1,20}[:：]\s*(?=\S)")
_COMPOUND_AT_LEAST = 3  # letters of the claim's compound noun
_SENTENCE_SAID_AT_LEAST = 0.6  # of the claim, word for word in the page's sentence around the exchanged piece


def modifier_of_another(read: ClaimEvidence) -> Finding | None:
    """(ja) A claim that is a cited sentence word for word but for the first piece of one compound noun, where
    no cited source writes the claim's compound: 「補助指導機関の設置には地域委員会の承認が必要である」 against
    «これら補助指導機関の設置には中央委員会の承認が必要である。» (JSQuAD v1.3 valid, `research bench jsquad --seed 107`,
    the real 1.5B model's findings, supported: 地域 is on the page, in «広い地域での活動»). One term exchanged in a
    near-verbatim sentence: decided against, the page's sentence shown, and the page's piece given for the
    verification node to put in its place (「…1707年の天明噴火で…」 → 宝永噴火). A piece exchanged before a particle
    (承認が → 許可が) may be the same thing in other words, and is left to the other checks."""
    if read.language != "ja" or not read.assembled:
        return None
    # A list item's label before its sentence («地域委員会の承認: 補助指導機関の…») is no part of what is compared.
    claim = without_leading_connective(_LIST_LABEL_JA.sub("", read.claim.strip())).rstrip("。．. ")
    # Only a claim with a compound no cited source writes can have one (most have none: no sentence is compared).
    absent = [run for run in _COMPOUND_RUN_JA.finditer(claim) if len(run.group(0)) >= _COMPOUND_AT_LEAST
              and not any(source.holds_words([squeezed(run.group(0))]) for source in read.cited)]
    if not absent:
        return None
    # The passages read, and those of the cited pages that write the compound's last letters as the claim goes on
    # after it («…中央委員会の承認…» for 「…支部・地区委員会の承認…」): the page's sentence may not be among the
    # passages read for the claim's words (中央 is none of them).
    joints = {run.group(0)[-2:] + claim[run.end():run.end() + 2] for run in absent if run.end() + 2 <= len(claim)}
    passages = list(read.assembled)
    passages += [p for source in read.cited for p in source.passages
                 if any(joint in p.text for joint in joints) and all(p is not q for q in read.assembled)]
    for passage, sentence in _sentences_of(passages):
        theirs = without_leading_connective(sentence.strip()).rstrip("。．. ")
        matcher = difflib.SequenceMatcher(a=theirs, b=claim, autojunk=False)
        # quick_ratio bounds the letters the two have in common from above: too few, and there is nothing to align.
        if matcher.quick_ratio() * (len(theirs) + len(claim)) < 2 * _SENTENCE_SAID_AT_LEAST * len(claim):
            continue
        codes = matcher.get_opcodes()
        # The sentence and the claim may each have more at either end («これら…»); inside, one piece exchanged.
        inner = codes[1:-1] if len(codes) >= 3 else []
        changed = [code for code in inner if code[0] != "equal"]
        if len(changed) != 1 or changed[0][0] != "replace" or codes[0][0] == "replace" or codes[-1][0] == "replace":
            continue
        _, i1, i2, j1, j2 = changed[0]
        page_piece, claim_piece = theirs[i1:i2], claim[j1:j2]
        if not _COMPOUND_PIECE_JA.match(page_piece) or not _COMPOUND_PIECE_JA.match(claim_piece) \
                or page_piece in claim_piece or claim_piece in page_piece:
            continue
        # The page's word misspelt (「6.4 劳働環境」, 劳 a letter Japanese does not write; a katakana name respelt) is
        # the same term, which the misquotation repair gives back its spelling.
        if not all(written_in_japanese(letter) for letter in claim_piece) \
                or katakana_misspelt(claim_piece, page_piece):
            continue
        said = sum(a2 - a1 for tag, a1, a2, _, _ in codes if tag == "equal")
        head = _COMPOUND_HEAD_JA.match(claim[j2:])
        if head is None or said < _SENTENCE_SAID_AT_LEAST * len(claim):
            continue
        compound = squeezed(claim_piece + head.group(0))
        # Two letters (小道, 細道) may be one thing in other words (JSICK); a longer compound names its own thing.
        if len(compound) < _COMPOUND_AT_LEAST or any(source.holds_words([compound]) for source in read.cited):
            continue
        # The two pieces, as a value bound to its slot: the verification node puts the page's in and checks again.
        pieces = Binding("contradicted", "contrast", claim_piece, "contrast", page_piece, None)
        return Finding("unsupported", "missing_term", 0.8, (claim_piece + head.group(0),), binding=pieces,
                       where=Passage(passage.label, sentence.strip(), passage.features))
    return None


# 「住居表示の形態、」: a noun that modifies another with の, and what the claim says right after them.
_NOUN_OF_A_NOUN_JA = re.compile(rf"(?<!{_COMPOUND_LETTER_JA})(?P<modifier>{_COMPOUND_LETTER_JA}{{2,12}})の"
                                rf"(?P<noun>{_COMPOUND_LETTER_JA}{{1,8}})(?!{_COMPOUND_LETTER_JA})")
_SAID_AFTER_AT_LEAST = 12  # letters of the claim after 「XのY」 that the page writes after 「ZのY」


def modifier_noun_of_another(read: ClaimEvidence) -> Finding | None:
    """(ja) A claim that writes 「XのY」 and goes on word for word as a page sentence goes on after 「ZのY」, where no
    cited page writes 「XのY」: the model put another noun of the page before の. 「これは、住居表示の形態、従来の慣習、
    住民感情等から、街区方式によるものが適しているといわれており…」 against «住居表示は、…日本では概して市街地の形態、従来
    の慣習、住民感情等から、街区方式によるものが適しているといわれており…» (JSQuAD v1.3 valid, the page 住居表示, the real
    1.5B model, `research bench jsquad --seed 141`: supported, every word on the page, 住居表示 its topic). Only where
    the page writes the claim's noun too (elsewhere). Decided against, the page's sentence shown, and the page's noun
    given for the verification node to put in its place."""
    if read.language != "ja" or not read.cited:
        return None
    claim = without_leading_connective(read.claim.strip())
    for found in _NOUN_OF_A_NOUN_JA.finditer(claim):
        modifier, noun = found["modifier"], found["noun"]
        after = claim[found.end():found.end() + _SAID_AFTER_AT_LEAST + 8]
        if len(squeezed(after)) < _SAID_AFTER_AT_LEAST or any(
                source.holds_words([squeezed(f"{modifier}の{noun}")]) for source in read.cited):
            continue
        tail = f"の{noun}{after}"
        # Another noun of the same page: a word the page does not write may be its word said otherwise (十代 for
        # ティーンエイジャー, JSICK), which the judge reads.
        for source in (s for s in read.cited if s.holds_words([squeezed(modifier), squeezed(tail)])):
            for passage in source.passages:  # only a source that writes what follows, read passage by passage
                at = passage.text.find(tail)
                if at < 0:
                    continue
                theirs = _LAST_COMPOUND_JA.search(passage.text[:at])
                other = theirs.group(0) if theirs is not None else ""
                if len(other) < 2 or other in modifier or modifier in other \
                        or not all(written_in_japanese(letter) for letter in other + modifier) \
                        or katakana_misspelt(modifier, other):
                    continue
                sentence = next((passage.text[a:b] for a, b in sentence_spans(passage.text) if a <= at < b), passage.text)
                pieces = Binding("contradicted", "contrast", modifier, "contrast", other, None)
                return Finding("unsupported", "missing_term", 0.8, (f"{modifier}の{noun}",), binding=pieces,
                               where=Passage(passage.label, sentence.strip(), passage.features))
    return None


_LIST_ITEM_JA = re.compile(rf"^{_COMPOUND_LETTER_JA}{{2,30}}$")
_LAST_COMPOUND_JA = re.compile(rf"{_COMPOUND_LETTER_JA}{{2,30}}$")
_FIRST_COMPOUND_JA = re.compile(rf"^{_COMPOUND_LETTER_JA}{{2,30}}?(?=など|等|と|や|の|が|は|を|$)")
_LIST_SHARED_AT_LEAST = 2  # of the claim's items, in one sentence of the page that lists things


def _listed_items(sentence: str) -> list[str]:
    """The items a Japanese sentence lists with 、: 「…コインブラ大学からリスボン大学、ポルトガル・カトリカ大学、リスボン工科
    大学、ポルトガル・ファド大学などが挙げられる」 → リスボン大学, ポルトガル・カトリカ大学, リスボン工科大学,
    ポルトガル・ファド大学 (the first one's compound before the 、, the last one's before its particle). Brackets after an
    item (「リスボン大学（1911年）」) are no part of it. Fewer than three: none."""
    pieces = [_BRACKETED.sub("", piece).strip() for piece in sentence.rstrip("。．").split("、")]
    best: list[str] = []
    at = 1
    while at < len(pieces) - 1:
        if not _LIST_ITEM_JA.match(pieces[at]):
            at += 1
            continue
        end = at
        while end + 1 < len(pieces) - 1 and _LIST_ITEM_JA.match(pieces[end + 1]):
            end += 1
        before = _LAST_COMPOUND_JA.search(pieces[at - 1])
        after = _FIRST_COMPOUND_JA.search(pieces[end + 1])
        items = ([before.group(0)] if before else []) + pieces[at:end + 1] + ([after.group(0)] if after else [])
        best = max(best, items, key=len)
        at = end + 1
    return best if len(best) >= 3 else []


def item_of_no_list(read: ClaimEvidence) -> Finding | None:
    """(ja) A claim listing things where a cited sentence lists most of them, with an item no cited source writes:
    「…リスボン大学、ポルトガル・カトリカ大学、リスボン工科大学、ポルトガル・ファド大学などが挙げられる」 against «おもな
    高等教育機関としてはコインブラ大学（1290年）、リスボン大学（1911年）、ポルト大学（1911年）、…などが挙げられる。»
    (JSQuAD v1.3 valid, `research bench jsquad --seed 109`, the real 1.5B model's findings, left not checked: ファド is
    on the page, as music). An item the page does not have among those it lists: decided against, its sentence shown.
    The same item spelt another way (a katakana name respelt, one item holding another) is not."""
    if read.language != "ja" or not read.assembled:
        return None
    items = _listed_items(_LIST_LABEL_JA.sub("", read.claim.strip()))
    if not items:
        return None
    absent = [item for item in items if not any(source.holds_words([squeezed(item)]) for source in read.cited)]
    if not absent:
        return None
    for passage, sentence in _sentences_of(read.assembled):
        theirs = _listed_items(sentence)
        written = squeezed(sentence)
        if len(theirs) < 3 or sum(squeezed(item) in written for item in items) < _LIST_SHARED_AT_LEAST:
            continue
        for item in absent:
            if any(squeezed(item) in squeezed(other) or squeezed(other) in squeezed(item)
                   or katakana_misspelt(item, other) for other in theirs):
                continue
            return Finding("unsupported", "missing_term", 0.8, (item,),
                           where=Passage(passage.label, sentence.strip(), passage.features))
    return None


# A term a Japanese sentence writes in brackets, and the particle that gives it its role.
_BRACKETED_JA = re.compile(r"[「『](?P<term>[^「」『』。]{1,40})[」』]\s*(?P<particle>[をはがにともでへの])")
_BRACKETED_SHARES_AT_LEAST = 2  # of the claim's other words, in the sentence that brackets another term
_SAME_TERM_MISSPELT = 0.6  # letters in common (difflib's ratio) of a bracketed term and the page's in its place


def bracketed_term_of_another(read: ClaimEvidence) -> Finding | None:
    """(ja) A claim that writes in brackets a term the cited sources never bracket and its aligned
    sentence lacks, where that sentence brackets another term before the same particle:
    「コンゴはバントゥー語で「コンゴ共和国」を表しています」 against «「コンゴ」はバントゥー語で「山」を意味する。»
    (JSQuAD v1.3 valid, `research bench jsquad --seed 103`, the real 1.5B model's Summary, kept as not
    checked after the page's answer: コンゴ共和国 is on the page, as its name in Japanese). What the page
    brackets in that place is what it says: one term exchanged, decided against with its sentence."""
    if read.language != "ja" or not read.assembled:
        return None
    claim = read.claim
    for match in _BRACKETED_JA.finditer(claim):
        term = squeezed(match.group("term"))
        if not term or any(squeezed(b.group("term")) == term for source in read.cited for p in source.passages
                           for b in _BRACKETED_JA.finditer(p.text)):
            continue
        rest = _sentence_terms(claim[:match.start()] + "、" + claim[match.end() - 1:]) \
            - _sentence_terms(match.group("term"))
        aligned = [(passage, sentence) for passage, sentence in _sentences_of(read.assembled)
                   if _says_enough_of(rest, sentence)]
        # A sentence that says it with the claim's term, unbracketed: the claim may be read from it.
        if any(term in squeezed(sentence) for _, sentence in aligned):
            continue
        for passage, sentence in aligned:
            # Not the same term misspelt (「6.4 劳働環境」 for 「6.4 労働環境」): that is a misquotation, repaired.
            if any(b.group("particle") == match.group("particle") and squeezed(b.group("term")) not in squeezed(claim)
                   and difflib.SequenceMatcher(None, squeezed(b.group("term")), term).ratio() < _SAME_TERM_MISSPELT
                   for b in _BRACKETED_JA.finditer(sentence)):
                quoted = Passage(passage.label, sentence.strip(), passage.features)
                return Finding("unsupported", "contrast", 0.8, (match.group("term"),), where=quoted)
    return None


def _says_enough_of(rest: frozenset[str], sentence: str) -> bool:
    shared = rest & _sentence_terms(sentence)
    return len(shared) >= _BRACKETED_SHARES_AT_LEAST and 2 * len(shared) >= len(rest)


def figure_missing(read: ClaimEvidence) -> Finding | None:
    if read.missing_numbers:
        return Finding("uncertain", "number_missing", 0.5, tuple(m.text for m in read.missing_numbers))
    return None


# よう said in kana before に, な, だ or です (「実施されるようになった」): grammar, whose lemma is 様.
_KANA_YOU_JA = re.compile(r"よう(?:に|な|だ|です)")


def term_missing(read: ClaimEvidence) -> Finding | None:
    """One term that differs (a swapped name, place or thing) is not a paraphrase. In Japanese
    the predicate and its modifiers carry the claim: 点いて/消えて, 立って/座って differ by one
    verb, so every content word must be in the evidence."""
    if read.missing_key:
        return Finding("uncertain", "missing_term", 0.5, tuple(read.missing_key[:5]))
    # よう of 「実施されるようになった」 (lemma 様) is grammar, no word a page must write: «…講師資格試験が1967年より実施
    # されている» says 「…講師資格試験が実施されるようになった年は1967年からです」 (JSQuAD, `--seed 108`).
    grammar = {"様"} if read.language == "ja" and _KANA_YOU_JA.search(read.claim) else set()
    if read.language == "ja" and read.words - read.found - grammar:
        return Finding("uncertain", "missing_term", 0.5, tuple(sorted(read.words - read.found - grammar)[:5]))
    return None


# "Non-severe hypoglycaemia", "non-smoking patients": a kind the page sets apart from another.
_NON_KIND_EN = re.compile(r"\bnon[-\s]?(?P<kind>[a-z]{3,})\s+(?P<head>[a-z][a-z-]{2,})", re.IGNORECASE)


def qualifier_dropped(read: ClaimEvidence) -> Finding | None:
    """(en) A claim that says of a thing what its passages say of one kind of it, where the page
    sets that kind apart from the others ("severe hypoglycaemia was associated with a greater
    risk …" beside "Non-severe hypoglycaemia was not associated with any outcome"): the claim's
    "Hypoglycaemia is associated with a greater risk …" (the real 1.5B model on PubMedQA 23999452,
    supported, every word and figure on the page) drops the condition. The qualifier is shown,
    for the judge."""
    if read.language == "ja":
        return _kind_dropped_ja(read)
    if read.language != "en" or not read.assembled:
        return None
    words = re.findall(r"[a-z][a-z-]*", read.claim.lower())
    while words and words[0] in ("the", "a", "an"):
        words = words[1:]
    if not words:
        return None
    subject = words[0]  # what the claim speaks of: its first word ("Hypoglycaemia is associated …")
    for source in read.cited:
        for kind, head in source.non_kinds():
            if head != subject or kind in words or re.search(rf"\bnon[-\s]?{re.escape(kind)}", read.claim, re.I):
                continue
            # The passage sentence that says the claim of that kind ("Conversely, severe
            # hypoglycaemia was associated with …"): more than half of the claim's words.
            this_kind = re.compile(rf"(?<![-\w]){re.escape(kind)}\s+{re.escape(head)}\b", re.IGNORECASE)
            for p in read.assembled:
                for start, end in sentence_spans(p.text):
                    sentence = p.text[start:end]
                    if this_kind.search(sentence) and 2 * len(read.words & _sentence_terms(sentence)) > len(read.words):
                        return Finding("uncertain", "missing_term", 0.5, (kind,))
    return None


# The kind a Japanese compound names before its head (飽和 of 飽和炭化水素), and the prefixes that name its others (不飽和).
_KIND_BEFORE_JA = r"(?<![不非無未\u4e00-\u9fff\u30a1-\u30fa\u30fc])(?P<kind>[\u4e00-\u9fff\u30a1-\u30fa\u30fc]{1,6}?)"


def _kind_dropped_ja(read: ClaimEvidence) -> Finding | None:
    """(ja) A claim that says of a thing what its page says of one kind of it, where the page names the kind's
    opposite too: 「炭化水素はラジカル反応など極く限られた反応性しか示さず、化学的に不活性である」 against «飽和炭化水素は
    ラジカル反応など極く限られた反応性しか示さず、化学的に不活性である。», beside «一方、不飽和炭化水素は…» (JSQuAD v1.3
    valid a29435p7q1, `research bench jsquad --sample 5 --seed 131`, the real 1.5B model's Summary, supported: every
    word on the page). The kind is shown, for the judge, as the English check shows "severe"."""
    if not read.assembled:
        return None
    said = TOPIC_JA.match(without_leading_connective(read.claim.strip()))
    if said is None:
        return None
    topic = said["topic"].strip()
    if not re.fullmatch(r"[\u4e00-\u9fff\u30a1-\u30fa\u30fc]{2,12}", topic):
        return None
    of_a_kind = re.compile(_KIND_BEFORE_JA + re.escape(topic))
    for p in read.assembled:
        for start, end in sentence_spans(p.text):
            sentence = p.text[start:end]
            kind = of_a_kind.search(sentence)
            if kind is None or 2 * len(read.words & _sentence_terms(sentence)) <= len(read.words):
                continue
            others = re.compile(rf"[不非無未]{re.escape(kind['kind'] + topic)}")
            if any(others.search(q.text) for source in read.cited for q in source.passages):
                return Finding("uncertain", "missing_term", 0.5, (kind["kind"],))
    return None


# A group a study names: «Subjects in the Phenomenology study», «…in the TEAM RCT», "patients of the control arm".
_NAMED_GROUP_EN = re.compile(r"\b(?:in|of|from)\s+the\s+(?P<name>[A-Z][\w-]*(?:\s+[A-Z][\w-]*){0,3})\s+"
                             r"(?:study|studies|group|groups|trial|RCT|arm|cohort|sample)\b")


def group_dropped(read: ClaimEvidence) -> Finding | None:
    """(en) A claim that says of all the subjects what its passage says of the subjects of one of the page's named
    groups: "The sample was obtained from 1995 to 1998 by consecutive new case ascertainment …" against «Subjects in
    the Phenomenology study were obtained from 1995 to 1998 by consecutive new case ascertainment …», beside «Subjects
    in the TEAM RCT were recruited … between March 2003 and March 2005» (PubMedQA 17335331, the real 1.5B model's
    answer on the TEAM sample, supported; `research bench pubmedqa --sample 4 --seed 122`). The group is shown, for
    the judge, where the claim names none of the page's groups."""
    if read.language != "en" or not read.assembled:
        return None
    claim = read.claim.lower()
    names: set[str] = set()
    for source in read.cited:
        names.update(source.named_groups())
    if len(names) < 2 or any(word.lower() in claim for name in names for word in name.split()):
        return None
    best: tuple[int, str] | None = None
    for p in read.assembled:
        for start, end in sentence_spans(p.text):
            sentence = p.text[start:end]
            shared = len(read.words & _sentence_terms(sentence))
            if best is None or shared > best[0]:
                best = (shared, sentence)
    if best is None or 2 * best[0] <= len(read.words):
        return None
    group = _NAMED_GROUP_EN.search(best[1])
    if group is None or group.start() > len(best[1]) // 2:  # the group of the sentence's subject, not of its end
        return None
    return Finding("uncertain", "missing_term", 0.5, (" ".join(group.group("name").split()),))


# Verbs of using, which say a thing is there as "has" does: a claim that denies them may deny what
# its passage affirms with "has" ("Python 3.14 does not use the GIL", the real 1.5B model's Japanese
# GIL answer as translated, against "…still has the GIL enabled by default").
_USING = frozenset({"use"})


def open_question_in_other_words(read: ClaimEvidence) -> Finding | None:
    """(en) A claim that says in its own words what its passages leave open as a study's question
    or aim: left open, never put to the judge as wording. The real 1.5B model, asked to choose
    between such a claim and its negation, chose "Yes, mandibular depiction can be improved by
    changing the thickness of double-oblique computed tomography images" against «Therefore, in this
    study, it was performed to clarify the mandibular depiction of double-oblique reconstructed images
    when changing their thickness.» (PubMedQA 18784527, gold no; `research bench pubmedqa --seed 102`)."""
    if read.language != "en" or read.coverage >= SUPPORTED_AT_EN or not read.assembled:
        return None
    said_where = " ".join(_matched_clauses_of_all(read.assembled, read.wanted))
    sentences = [sentence for _, sentence in _sentences_of(read.assembled)]
    open_ = answers_an_open_question(read.claim, said_where, sentences, lambda words: _stated_elsewhere(read, words))
    return Finding("uncertain", "hedge_dropped") if open_ else None


def answer_in_a_word_unwritten(read: ClaimEvidence) -> Finding | None:
    """(en) A yes or a no whose sentence has a word its passages do not write: the answer to a question, and that word
    most often what the question asked. "Yes, arterial line sampling can be a reliable method for measuring activated
    plasma thromboplastin time (APTT) after cardiac surgery" was supported at 0.92 by the methods' «…simultaneous
    arterial line and peripheral venous blood samples were taken for … (APTT) …», its results finding the arterial
    values higher (PubMedQA 15141797, gold no, `research bench pubmedqa --sample 4 --seed 133`, the real 1.5B model's
    whole Summary to "Can we rely on arterial line sampling …?"). Left to the judge, the word shown."""
    if read.language != "en" or not read.answers:
        return None
    claim = read.claim.strip()
    said = _without_who_says_it(claim)
    unwritten = read.words - read.found - (_claim_terms(claim[:len(claim) - len(said)])[0] if said != claim else set())
    return Finding("uncertain", "missing_term", 0.5, tuple(sorted(unwritten)[:5])) if unwritten else None


# «Abdominal Abscess; Adult; …; Contraindications; …»: a list of terms (a record's keywords), no sentence stating them.
_TERM_LIST = re.compile(r"(?:;[^;]+){3,}")


def _stated_elsewhere(read: ClaimEvidence, words: frozenset[str]) -> frozenset[str]:
    """Of ``words``, those the cited pages write in a prose sentence that is no open question or aim (the pages'
    passages holding none of them are not read)."""
    stated: frozenset[str] = frozenset()
    for source in read.cited:
        for passage in source.passages:
            if passage.field or not words & passage.features or _TERM_LIST.search(passage.text):
                continue
            for start, end in sentence_spans(passage.text):
                sentence = passage.text[start:end]
                if not leaves_the_question_open(sentence):
                    stated |= words & features(sentence)
    return stated


def _sentences_of(passages: Iterable[Passage]) -> list[tuple[Passage, str]]:
    """Each sentence of ``passages``, with the passage it stands in."""
    return [(passage, passage.text[start:end]) for passage in passages for start, end in sentence_spans(passage.text)]


def _cited_sentences(read: ClaimEvidence) -> list[tuple[Passage, str]]:
    """Each sentence of every passage of the sources the claim cites (not only those assembled for it)."""
    return _sentences_of(passage for source in read.cited for passage in source.passages)


def partial_overlap(read: ClaimEvidence) -> Finding | None:
    if read.coverage < (SUPPORTED_AT if read.language == "ja" else SUPPORTED_AT_EN):
        if read.words - read.found and read.words - read.found <= _USING:
            # Only the verb of using is missing: the claim's denial against the passage's polarity
            # is what decides it; never a reason to call it supported.
            return negation_differs(read) or Finding("uncertain", "partial_overlap")
        return Finding("uncertain", "partial_overlap")
    return None


def negation_differs(read: ClaimEvidence) -> Finding | None:
    claim_negated = _negated(read.claim)
    evidence_negated = [_negated_where_matched(p.text, read.wanted) for p in read.assembled]
    if claim_negated and not any(evidence_negated) and _each_denial_matched(read):
        claim_negated = False  # its "not" is in a clause the passage denies too
    # (ja) A claim that denies nothing is held back by a denial in the clause that gives its figures, where one does
    # (English is read phrase by phrase below).
    differs = claim_negated and not any(evidence_negated) or not claim_negated and evidence_negated[0] \
        and (read.language != "ja" or _negated_where_matched(read.assembled[0].text, read.wanted, with_its_figures=True))
    if read.language != "ja":
        # English is read phrase by phrase too (cut at commas and conjunctions): "the kidnappers,
        # who never called themselves a militia, began demanding a ransom" neither denies that
        # they began demanding one nor supports "they did not demand a ransom". A claim whose
        # phrase says "not" needs a "not" in the passage's phrase that says its words; one that
        # does not is held back only when that phrase says "not" as well.
        phrase_negated = _negated_in_phrases(read.claim, read.found)
        evidence_phrases = [_negated(p.text) if p.field else _negated_in_phrases(p.text, read.wanted)
                            for p in read.assembled]
        if phrase_negated:
            differs = not any(evidence_phrases) and not _each_denied_phrase_matched(read)
        else:
            differs = differs and evidence_phrases[0]
    if not differs:
        return None
    return Finding("uncertain", "negation")


def _each_denied_phrase_matched(read: ClaimEvidence) -> bool:
    """(en) Whether each negated phrase of the claim has a negated phrase of its passages holding most of its words:
    "In Python 3.14, the free-threaded build became officially supported, but it is still not the default build" (the
    real 1.5B model's sentence, `research … --docs` on the GIL page) against the page's «…officially supported, though
    it is still not the default build.», where the comma after 3.14 made the claim's denial one of its phrases that
    say most of it, and the page's not."""
    denied = [features(p) for start, end in sentence_spans(read.claim)
              for p in phrases_of(read.claim[start:end], "en") if _negated(p)]
    theirs = [features(p) for passage in read.assembled for start, end in sentence_spans(passage.text)
              for p in phrases_of(passage.text[start:end], "en") if _negated(p)]
    return bool(denied) and all(any(2 * len(mine & their) > len(mine) for their in theirs) for mine in denied)


def _each_denial_matched(read: ClaimEvidence) -> bool:
    """Whether each negated clause of the claim has, as the passage clause most like it, a negated
    one. The passage's clauses that say most of the claim may not be where its "not" is: 「ただし報道
    機関が危険地帯への侵入には警告は行うが、それ以上の措置は行わない」, the page's own words (JSQuAD,
    the real 1.5B model), was "the source says the opposite" because the clause with most of its words
    is the first, and its denial is in the second."""
    passage_clauses = [c for p in read.assembled for c in _clauses_of(p.text)]
    denials = [c for c in _clauses_of(read.claim) if _negated(c)]
    if not denials or not passage_clauses:
        return False
    for denial in denials:
        said = features(denial)
        overlaps = [len(said & features(c)) for c in passage_clauses]
        best = max(overlaps)
        if best < 2 or not all(_negated(c) for c, n in zip(passage_clauses, overlaps) if n == best):
            return False
    return True


def field_differs(read: ClaimEvidence) -> Finding | None:
    """A record's field read the other way in the claim's own clause ("takes reservations"
    against ``reservations: no``, "WiFi is not available" against ``wifi: yes``), or an
    attribute the record leaves empty (``lot: None``) stated as a fact: decided against, with
    the field shown. Before the sentence-wide negation check, which cannot tell whose "not"."""
    field = read.field_problem
    if field is not None and field[2]:
        return Finding("unsupported", field[0], 0.8, where=field[1])
    return None


_LIMITED_WORD_EN = re.compile(r"\b(?:only|solely|exclusively|just|alone|sole)\s+\w+", re.IGNORECASE)
_LIMITED_WORD_JA = re.compile(r"\w{1,6}(?:だけ|のみ|しか)")


def _limiters_written(claim: str, sentences: list[str], language: Language) -> bool:
    """Whether every limiter of ``claim`` (with the word it limits) is written so in one of ``sentences``."""
    limited = (_LIMITED_WORD_JA if language == "ja" else _LIMITED_WORD_EN).findall(claim)
    return bool(limited) and all(any(phrase.lower() in sentence.lower() for sentence in sentences) for phrase in limited)


def stance_differs(read: ClaimEvidence) -> Finding | None:
    """A hedge or an "or" counts where the passages say what the claim says, not elsewhere in
    them; a record's yes/no field read the other way."""
    said_where = " ".join(_matched_clauses_of_all(read.assembled, read.wanted))
    field = read.field_problem
    sentences = [sentence for _, sentence in _sentences_of(read.assembled)]
    problem = stance_problem(read.claim, said_where, read.language, sentences,
                             lambda words: _stated_elsewhere(read, words)) or (field[0] if field else None)
    if problem == "hedge_added" and _hedges_matched(read):
        # Each hedged clause of the claim is a hedged clause of its passages: the page's own sentence
        # «…は20世紀の初めとされ、最初は…であった。» read against its unhedged second clause alone (JSQuAD).
        problem = None
    if problem == "limiter_added" and _limiters_written(read.claim, sentences, read.language):
        # Each of the claim's limiters as a sentence read writes it, with its word: «…but there were five with only
        # one.» (PubMedQA 9446993, the real 1.5B model's sentence word for word, `--seed 113`), a clause too short to
        # be among those that say most of the claim.
        problem = None
    if problem == "or_dropped" and read.language == "ja" \
            and alternatives_unnamed_ja(said_where, read.words | _sentence_terms(read.claim)):
        # 「…千島列島のごく沿岸かオホーツク海の水温8℃前後の水域を生活域とし、水温が5℃程度になると…移動し越冬をする」: the
        # claim that says the second clause names neither alternative; it drops none (JSQuAD, the page サケ).
        problem = None
    if problem is None:
        return None
    if problem == "or_dropped" and read.language == "ja" or problem == "hedge_dropped" and read.language == "ja" \
            and DOUBT_JA.search(said_where):
        # The passage says it only maybe (かもしれない, おそらく, という疑いがある), only under a
        # condition (もし…なら), or as one of two alternatives (AかB, Aか、もしくはB), and the claim
        # says it outright: the passage does not state it. A report or an estimate the claim
        # drops (と言われている, 推定) stays for the judge.
        return Finding("unsupported", problem, 0.8, where=read.assembled[0] if read.assembled else None)
    return Finding("uncertain", problem)


def _hedges_matched(read: ClaimEvidence) -> bool:
    """Whether each hedged clause of the claim has a hedged clause of its passages holding more than half its words."""
    hedged = [features(c) for c in _clauses_of(read.claim) if stance(c, read.language).hedged]
    theirs = [features(c) for p in read.assembled for c in _clauses_of(p.text) if stance(c, read.language).hedged]
    return bool(hedged) and all(any(2 * len(mine & their) > len(mine) for their in theirs) for mine in hedged)


# Words in quotation marks: “…” or "…" in English, 「…」 or 『…』 in Japanese. Marks also set
# off names, titles, the question and the writer's own examples (「富士山」, "to run"): only a
# quotation long enough to be somebody's sentence and given as what someone said or wrote
# (a verb of saying, "according to", と述べた) counts; the term checks read the rest.
_QUOTED = re.compile(r'“([^”\n]+)”|(?<![0-9])"([^"\n]+)"|「([^」\n]+)」|『([^』\n]+)』')
_QUOTATION_WORDS_EN = 4
_QUOTATION_CHARS_JA = 10  # with some kana: a phrase, not a name
_SAYING_EN = re.compile(
    r"\b(?:says?|said|states?|stated|writes?|wrote|written|reads?|notes?|noted|describes?|described|calls?|called|"
    r"mentions?|mentioned|quotes?|quoted|according to|puts? it|told|tells?|explains?|explained|reports?|reported|"
    r"claims?|claimed|adds?|added|warns?|warned|declares?|declared|announced?|announces|insists?|insisted|"
    r"recommends?|recommended|advises?|advised)\b", re.IGNORECASE)
_NOT_A_SOURCE_EN = re.compile(r"\b(?:question|query|sentence|phrase|example|word|term|title|called)\W*$", re.IGNORECASE)
_SAYING_JA = re.compile(r"^\s*(?:と|との)(?:[^。]{0,12}?)(?:述べ|説明|記|書|言|話|発表|指摘|強調|報告|主張|明記|記載|警告|呼びかけ|"
                        r"勧め|推奨|答え|語)")
_ACCORDING_JA = re.compile(r"(?:によると|によれば|では)")
_QUOTE_GAP = re.compile(r"\.\.\.|…|\[[^\]]*\]")  # "…" and [an insertion] mark words left out or added


def squeezed(text: str) -> str:
    """Text as a quotation is matched: NFKC, case folded, nothing but letters and digits."""
    return re.sub(r"[\W_]+", "", unicodedata.normalize("NFKC", text).casefold())


def quotations(claim: str) -> list[str]:
    """The quotations in ``claim`` given as someone's words, as written between their marks."""
    found = []
    for match in _QUOTED.finditer(claim):
        quote = next(group for group in match.groups() if group is not None)
        before, after = claim[: match.start()], claim[match.end():]
        if len(re.findall(r"[A-Za-z0-9]+(?:['’][A-Za-z]+)?", quote)) >= _QUOTATION_WORDS_EN:
            said = _SAYING_EN.search(before) or _SAYING_EN.search(after[:40])
            if said and not _NOT_A_SOURCE_EN.search(before):
                found.append(quote)
        elif len(squeezed(quote)) >= _QUOTATION_CHARS_JA and len(re.findall(r"[\u3041-\u30ff]", quote)) >= 3:
            if _SAYING_JA.search(after) or _ACCORDING_JA.search(before):
                found.append(quote)
    return found


def misquoted(read: ClaimEvidence) -> Finding | None:
    """Words a claim puts in quotation marks are the source's own words: a quotation that no
    cited source holds as written (spacing, case and punctuation aside; "…" or [brackets] mark
    a gap) is not what the source said, however close its meaning."""
    for quote in quotations(read.claim):
        pieces = [piece for piece in map(squeezed, _QUOTE_GAP.split(quote)) if piece]
        if pieces and not any(source.holds_words(pieces) for source in read.cited):
            # The page's own quotation the claim's is a slip of, given for the verification node to put in and check
            # again: 「「思想、信条、支持政党、の違いを超えた国民多数の運動の結集」により」 against the page's «…国民多数の革新的な
            # 運動の結集» (JSQuAD v1.3 valid, `research bench jsquad --sample 5 --seed 117`: the sentence with the gold
            # year, 1981, was taken out for the one word the real 1.5B model dropped).
            near = _nearest_quotation(quote, read.assembled)
            binding = Binding("contradicted", "misquoted", quote, "contrast", near[0], None) if near else None
            return Finding("unsupported", "misquoted", 0.85, (quote,), binding=binding,
                           where=near[1] if near else None)
    return None


_QUOTED_LIKE_AT_LEAST = 0.85  # how alike a page's quotation and a claim's slip of it are (difflib's ratio)


def _nearest_quotation(quote: str, passages: list[Passage]) -> tuple[str, Passage] | None:
    """The quotation of ``passages`` (between the same kinds of marks) that ``quote`` is a slip of: alike
    by at least ``_QUOTED_LIKE_AT_LEAST``, and the only one so alike; with its passage."""
    alike: dict[str, Passage] = {}
    for passage in passages:
        for match in _QUOTED.finditer(passage.text):
            theirs = next(group for group in match.groups() if group is not None)
            if theirs != quote and difflib.SequenceMatcher(None, quote, theirs, autojunk=False).ratio() \
                    >= _QUOTED_LIKE_AT_LEAST:
                alike.setdefault(theirs, passage)
    return next(iter(alike.items())) if len(alike) == 1 else None


_TOPIC_SAID_WITH = 0.5  # more than this share of the rest of the claim's key terms in one sentence with the topic


@lru_cache(maxsize=1 << 14)
def _topic_terms_ja(sentence: str) -> frozenset[str]:
    """The terms before a Japanese sentence's first topic は (a 係助詞): what it speaks of."""
    tagger = _tagger()
    if tagger is None:
        return frozenset()
    before: list[str] = []
    for word in tagger(sentence):
        if word.surface == "は" and (getattr(word.feature, "pos2", "") or "") == "係助詞":
            return frozenset(t.text for t in terms("".join(before)))
        before.append(word.surface)
    return frozenset()


_TOPIC_WRITTEN_WITH_A_TITLE = 3  # words of the claim's topic the sentence writes, for a title's word to be no exchange


def topic_exchanged(read: ClaimEvidence) -> Finding | None:
    """A Japanese claim whose topic (its は-phrase) is not in the passage sentence that says most of
    it, which opens with a topic of its own the claim does not name: what the page says of one thing,
    said of another. 「落語家は戦前には上方にも存在した」 against 「真打制度は戦前には上方にも存在した。」 on the
    page 落語家 (JSQuAD, the real 1.5B model; 落語 is elsewhere on the page, so every word was found).
    A topic said in other words concludes nothing: for the judge, never supported."""
    if read.language != "ja" or not read.assembled or _TIME_OF_A_CLAUSE_JA.match(read.claim.strip()):
        return None  # 「…実施されるようになった年は1967年からです」 has a time, not a topic (``roles_unconfirmed``)
    topic = _topic_terms_ja(read.claim) & read.words
    if not topic:
        return None
    sentences = _sentences_of(read.assembled)
    where, best = max(sentences, key=lambda pair: len(features(pair[1]) & read.words))
    # A note in brackets inside the page's topic is no topic of its own: «支出（翌年への繰越を含む）の内訳は、…» speaks
    # of what 「日本共産党の支出の内訳は、…」 does, under «# 日本共産党» (JSQuAD, `research bench jsquad --sample 5
    # --seed 143`, the real 1.5B model: the page's sentence word for word, left not checked for 翌年 and 繰越).
    own = _topic_terms_ja(_BRACKETED.sub("", best))
    if not own:
        return None
    if not (own & read.words or topic & features(best)):
        if _POINTING_TOPIC_JA.match(best.strip()) and topic <= where.headings:
            return None  # 「同国は…」 under «# ドミニカ国» says it of ドミニカ国: the claim's topic
        return Finding("uncertain", "missing_term", 0.5, tuple(sorted(topic)))
    # One word of the topic exchanged for another: 「金属工業の中心地はアイントホーヘンとナイメーヘンである」
    # against 「機械工業の中心地はアイントホーヘンとナイメーヘンである。」 (JSQuAD, the real 1.5B model;
    # 金属工業 is in the page's next sentence, so every word was found).
    # The page's title put before a topic the sentence writes is no exchange: 「オランダの農家への普及指導業務は…」
    # under «# オランダ» (JSQuAD v1.3 valid, `research bench jsquad --sample 5 --seed 114`, the real 1.5B model)
    # says what «かつて政府が担っていた農家への普及指導業務は…» says. Not where the title's words stand for the
    # sentence's own (平和維持活動の方針 for 国連広報の方針): then little of the topic is the sentence's.
    lacking, replaced = topic - features(best), own - read.words
    # 「富士山の高さは…」 against «富士山の標高は3,776メートル»: the measure said by another word of it, with the figure.
    lacking -= _measures_named_otherwise(lacking, read.mentions, [best])
    if len(topic & features(best)) >= _TOPIC_WRITTEN_WITH_A_TITLE:
        lacking -= where.headings
    if lacking and replaced and own & topic:
        return Finding("uncertain", "missing_term", 0.5, tuple(sorted(lacking)))
    return None


# 「ラオスの公用語はフランス語である」: what a Japanese copula says its subject is, a noun phrase.
_COPULA_CLAIM_JA = re.compile(r"^(?P<subject>[^。]+?)は(?P<complement>[^、。をにがでへと]+?)(?:である|です|だ)[。．]?$")


def complement_apart(read: ClaimEvidence) -> Finding | None:
    """What a Japanese copula says its subject is, found only in sentences that do not name the
    subject: 「ラオスの公用語はフランス語である」 against the page ラオス, whose 「言語はラーオ語が公用語で
    ある。」 names the official language and whose 「…エリートなどはフランス語も通用する。」 names French
    (JSQuAD; every word was found, so the claim was supported). A heading's words count for the
    sentences under it.""" 
    if read.language != "ja":
        return None
    match = _COPULA_CLAIM_JA.match(read.claim.strip())
    if match is None:
        return None
    # The subject's last noun (公用語 of ラオスの公用語) and the complement, by where the claim's own terms
    # are written (ラーオ語 read alone is ラー + 御 + 語), less what they share (語 of 公用語 and フランス語).
    noun, said = match.group("subject").split("の")[-1], match.group("complement")
    head = frozenset(t for t in read.wanted if t in noun)
    complement = frozenset(t for t in read.found if t in said)
    head, complement = head - complement, complement - head
    if not head or not complement:
        return None
    # A sentence that names the subject, and the one after it, which may go on about it without
    # naming it (「立法府は一院制の国民議会。132議席で、民選、任期5年。」).
    naming: list[Passage] = []
    for source in read.cited:
        prose = [p for p in source.passages if not p.heading]
        for at, passage in enumerate(prose):
            if head <= (passage.features | passage.headings):
                naming.append(passage)
                if any(_holds_half_of_each([complement], p.features) for p in prose[at:at + 2]):
                    return None
    if not naming:
        return None
    return Finding("uncertain", "missing_term", 0.5, tuple(sorted(complement)), where=naming[0])


# A page that tells two names apart: 「ドミニカ共和国と区別するため、ドミニカ国と表記される」, 「同名のドミニカ共和国が存在する」,
# 「中国語ではドミニカ国を 多米尼克、ドミニカ共和国を 多米尼加と書き分けている」.
_TOLD_APART_JA = re.compile(r"区別|とは別の|とは異な|と混同|同名の|書き分け")


def told_apart(read: ClaimEvidence) -> Finding | None:
    """(ja) A copula that says its subject is, or is named, what the page tells it apart from:
    「ドミニカ国の国名は「ドミニカ共和国」です」 against «イスパニョーラ島東部に位置するドミニカ共和国と区別するため、ドミニカ国
    と表記される。» (JSQuAD v1.3 valid a59579p0q2, the real 1.5B model's finding, supported: each word is on the
    page). Decided against, the sentence shown."""
    if read.language != "ja":
        return None
    match = _COPULA_CLAIM_JA.match(read.claim.strip())
    if match is None:
        return None
    named = match.group("subject").split("の")[0].strip()
    other = match.group("complement").strip().strip("「」『』")
    if len(named) < 2 or len(other) < 2 or named == other or named in other and other.startswith(named + "の"):
        return None
    for source in read.cited:
        # Only the passages that name both are split into sentences: a long page has thousands.
        for passage in (p for p in source.passages if named in p.text and other in p.text):
            for start, end in sentence_spans(passage.text):
                sentence = passage.text[start:end]
                if named in sentence and other in sentence and _TOLD_APART_JA.search(sentence) \
                        and sentence.replace(other, "").count(named) > 0:
                    return Finding("unsupported", "contrast", 0.8, (other,),
                                   where=Passage(passage.label, sentence.strip(), passage.features))
    return None


# 「PのはQ」: a cleft, which says Q is what P asks for (「…標識するために利用されるのは、…」).
_CLEFT_JA = re.compile(r"^(?P<asked>[^。]{4,}?)のは、?(?P<answer>[^。]{2,})。?$")


def cleft_apart(read: ClaimEvidence) -> Finding | None:
    """A Japanese cleft whose two halves the sources say in different sentences: 「マイクロアレイでcRNAや
    cDNAを標識するために利用されるのは、遺伝暗号を拡張するための新たな塩基対として…の利用が試みられている」
    (JSQuAD, page 核酸塩基, the real 1.5B model: the page's sentence on labelling, whose example name
    the set leaves out, glued to the next one; supported, every word being on the page). The answer
    must be said where what it answers is: one sentence holding half of what each half says that the
    other does not."""
    if read.language != "ja":
        return None
    match = _CLEFT_JA.match(read.claim.strip())
    if match is None:
        return None
    asked = frozenset(t for t in read.found if t in match.group("asked"))
    answer = frozenset(t for t in read.found if t in match.group("answer"))
    asked, answer = asked - answer, answer - asked
    if len(asked) < 2 or len(answer) < 2:
        return None
    for source in read.cited:
        for passage in source.passages:
            if _holds_half_of_each((asked, answer), passage.features | passage.headings):
                return None
    return Finding("uncertain", "missing_term", 0.5, tuple(sorted(answer))[:6])


def _sentence_terms(sentence: str) -> frozenset[str]:
    return frozenset(t.text for t in terms(sentence))


_POINTING_TOPIC_JA = re.compile(r"^(?:同|この|その|あの|当|本|これ|それ|彼|彼女)")
_SAID_OF_TOPIC_AT_LEAST = 6  # letters of what a sentence says of its topic, to be the page's own words


def _topic_and_rest(sentence: str) -> tuple[str, str, str] | None:
    """A Japanese sentence's topic (``TOPIC_JA``) as written, and squeezed, and what it says of it, squeezed:
    「住民は、|アフリカ系、…などである。」. A connective before the topic is no part of it: 「しかし、量子ビットは…」."""
    text = without_leading_connective(sentence.strip())
    match = TOPIC_JA.match(text)
    return (match.group("topic"), squeezed(match.group("topic")), squeezed(text[match.end():])) if match else None


def _topics_said(read: ClaimEvidence) -> Iterator[tuple[Passage, str, str]]:
    """Each sentence of the assembled passages that names its topic: (passage, topic, what it says of it)."""
    for passage in read.assembled:
        for start, end in sentence_spans(passage.text):
            theirs = _topic_and_rest(passage.text[start:end])
            if theirs is not None and theirs[1] and not _POINTING_TOPIC_JA.match(theirs[1]):
                yield passage, theirs[1], theirs[2]


def topic_of_another(read: ClaimEvidence) -> Finding | None:
    """(ja) A claim that says word for word what a passage sentence says of its topic, of another
    topic the page names elsewhere: 「カリブ族はアフリカ系、ヨーロッパ系、ムラートなどである」 against
    «住民は、アフリカ系、ヨーロッパ系、ムラートなどである。» on the page ドミニカ国, whose カリブ族 are the
    island's first people (JSQuAD v1.3 valid a59579p12q4, the real 1.5B model, kept "not checked" in
    its answer). One term exchanged in a near-verbatim sentence: decided against, the page's
    sentence quoted. A topic that holds the passage's (「ドミニカ国の住民は」 for 「住民は」), or is held
    by it, narrows or widens it, and a topic that points back (「同国は」) names what the page named
    before: both are left to the other checks."""
    if read.language != "ja" or not read.assembled:
        return None
    # 「しかし、量子ビットは2つの量子ビットの状態を結びつける」 (the real 1.5B model on 「量子ビットとは？」, against
    # «量子もつれは2つの量子ビットの状態を結びつける。») is read without its connective (``_topic_and_rest``).
    claim = _topic_and_rest(read.claim)
    if claim is None:
        return None
    written, topic, said = claim
    if len(said) < _SAID_OF_TOPIC_AT_LEAST or _POINTING_TOPIC_JA.match(topic):
        return None
    if not any(source.holds_words([topic]) for source in read.cited):
        return _said_of_the_heading(read, topic, said, written)
    for passage, other, rest in _topics_said(read):
        if rest == said and topic not in other and other not in topic:
            return Finding("unsupported", "said_of_another", 0.8, (written,), where=passage)
    return None


def predicate_of_the_pages_topic_ja(read: ClaimEvidence) -> Finding | None:
    """(ja) A claim that gives another topic what a passage sentence says of its own, the page's topic made a modifier
    of it: 「セミダイナミック補正や…各種地殻変動補正パラメータは、日本列島の複雑な地殻変動が起こっているため、…座標値が時間と
    ともにずれてくる」 against «前述の通り、日本列島は複雑な地殻変動が起こっているため、…ずれてくる。», the parameters being
    what the next sentence says 国土地理院 publishes (JSQuAD v1.3 valid a497360p7q1, `research bench jsquad --sample 5 --seed
    135`: the real 1.5B model's Summary, supported, every word on the page). The claim's predicate is the page's topic
    with の or が and then, word for word, what the page says of it: decided against, the page's sentence quoted."""
    if read.language != "ja" or not read.assembled:
        return None
    claim = without_leading_connective(re.sub(r"\[[^\]]*\]", "", read.claim).strip())
    ours = TOPIC_WA_JA.search(claim)
    if ours is None or "。" in claim[:ours.start()] or _POINTING_TOPIC_JA.match(claim):
        return None
    topic, said = squeezed(claim[:ours.start()]), squeezed(claim[ours.end():])
    if not topic:
        return None
    for passage, sentence in _sentences_of(read.assembled):
        for theirs in TOPIC_WA_JA.finditer(sentence):
            other = squeezed(re.split(r"[、。「」]", sentence[:theirs.start()])[-1])
            rest = squeezed(sentence[theirs.end():])
            if not other or len(rest) < 2 * _SAID_OF_TOPIC_AT_LEAST or other in topic or topic in other:
                continue
            # What the page says of it, word for word, or the end of it (a date it gives dropped: «富士山は2013年に
            # 世界文化遺産に登録されました。» for 「宝永噴火は富士山の世界文化遺産に登録されました」, the real 1.5B model's
            # finding to 「富士山の最後の噴火はいつ？」, `bench_answers.py --ollama`, 2026-12-02).
            given = said[len(other) + 1:] if said[:len(other) + 1] in (f"{other}の", f"{other}が") else ""
            if given and (given == rest or (len(given) >= 2 * _SAID_OF_TOPIC_AT_LEAST and rest.endswith(given))):
                return Finding("unsupported", "said_of_another", 0.8, (claim[:ours.start()],),
                               where=Passage(passage.label, sentence.strip(), passage.features))
    return None


def _said_of_the_heading(read: ClaimEvidence, topic: str, said: str, written: str) -> Finding | None:
    """(ja) A claim that says word for word what the first sentence under a heading says of 同国 (the
    heading's thing), of a topic no cited page names: 「ポルトガルは旧イギリス植民地であり、現在はイギリス連邦の
    一員である」 (the real 1.5B model's 「同国は…」 under its own heading 「ポルトガル」, nodes/verification.py)
    against «同国は旧イギリス植民地であり、…» under «# ドミニカ国» (JSQuAD, `research bench jsquad --seed 93`)."""
    own = _sentence_terms(topic)
    for passage, rest in _said_of_their_headings(read):
        if not own & passage.headings and rest == said:
            return Finding("unsupported", "said_of_another", 0.8, (written,), where=passage)
    return None


def _said_of_their_headings(read: ClaimEvidence) -> Iterator[tuple[Passage, str]]:
    """Each assembled passage under a heading whose first sentence says something of 同国/この… (the
    heading's thing): (passage, what that sentence says of it)."""
    for passage in read.assembled:
        spans = sentence_spans(passage.text) if passage.headings else []
        theirs = _topic_and_rest(passage.text[spans[0][0]:spans[0][1]]) if spans else None
        if theirs is not None and theirs[1] and _POINTING_TOPIC_JA.match(theirs[1]):
            yield passage, theirs[2]


# 「…を実施する軍隊は「停戦維持軍」です」: what a Japanese claim says the described thing is called.
_CALLED_JA = re.compile(r"^(?P<described>[^。]{8,}?)は「?(?P<name>[^「」、。はが]{2,20}?)」?(?:です|である|だ)[。．]?$")
_DESCRIBED_SAID_AT_LEAST = 0.6  # of the description, word for word in the passage sentence's rest


def name_given_to_another(read: ClaimEvidence) -> Finding | None:
    """(ja) A claim that names what a passage sentence says of its own topic, with a name no cited
    source has: 「停戦監視または兵力展開や部隊移動の統制、…などを実施する軍隊は「停戦維持軍」です」 against
    «平和維持軍は停戦ライン付近に…停戦監視または兵力展開や部隊移動の統制、…などを実施する。» (JSQuAD v1.3 valid
    a113522p13q2, the real 1.5B model's Summary, kept "not checked": 停戦, 維持 and 軍 are each on the page). The
    page's topic is the name: decided against, its sentence shown."""
    if read.language != "ja" or not read.assembled:
        return None
    claim = _CALLED_JA.match(without_leading_connective(read.claim.strip()))
    if claim is None:
        return None
    name, described = squeezed(claim.group("name")), squeezed(claim.group("described"))
    # A figure is no name: 「…講師資格試験が実施されるようになった年は1967年（昭和42年）からです」 gives the year its
    # page gives «…講師資格試験が1967年（昭和42年）より実施されている» (JSQuAD, `--seed 108`); the figure checks read it.
    if any(source.holds_words([name]) for source in read.cited) or re.search(r"\d", name):
        return None
    for passage, topic, rest in _topics_said(read):
        if topic in squeezed(read.claim):
            continue
        common = difflib.SequenceMatcher(a=described, b=rest, autojunk=False).find_longest_match(
            0, len(described), 0, len(rest))
        if common.size >= _DESCRIBED_SAID_AT_LEAST * len(described):
            return Finding("unsupported", "said_of_another", 0.8, (claim.group("name"),), where=passage)
    # The page's sentence says it of 同国, its heading's thing: 「旧イギリス植民地であり、現在はイギリス連邦の一員である国
    # はポルトガルです」 against «同国は旧イギリス植民地であり、…» under «# ドミニカ国» (JSQuAD, `--seed 93`).
    for passage, rest in _said_of_their_headings(read):
        if passage.headings & _sentence_terms(read.claim):
            continue
        common = difflib.SequenceMatcher(a=described, b=rest, autojunk=False).find_longest_match(
            0, len(described), 0, len(rest))
        if common.size >= _DESCRIBED_SAID_AT_LEAST * len(described):
            return Finding("unsupported", "said_of_another", 0.8, (claim.group("name"),), where=passage)
    return None


_TOPIC_CARRIED_PASSAGES = 3  # passages back a topic followed by a comma is looked for in (and earlier sentences)


def topic_unconfirmed(read: ClaimEvidence) -> Finding | None:
    """A Japanese claim whose topic no sentence of its passages says the rest of the claim of:
    「宝永噴火は2013年に世界文化遺産に登録されました」, 「宝永噴火は富士山の標高3,776メートルです」 (the real
    1.5B model, its subject 富士山 exchanged for the page's 宝永噴火), every word found on the page,
    in different sentences: supported. A sentence must hold more than half of the claim's other
    key terms and, where the claim gives figures, one of them, and it, its heading or the
    sentence before it (never one after it) more than half of the topic; a claim built of one
    page's words around another topic is not. For the judge, never supported."""
    if read.language != "ja" or not read.assembled:
        return None
    match = TOPIC_JA.match(read.claim.strip())
    if match is None:
        return None
    topic = [t.text for t in terms(match.group("topic")) if t.key]
    # The topic's own clause: 「富士山の標高は3,776メートルで、最後の噴火は1707年の宝永噴火です」 joins two facts. Where a
    # comma follows the topic at once, the clause after it: 「日本共産党議員として初の国会委員長は、1970年7月の第11回大会
    # で、…政権構想を打ち出し。」 (the real 1.5B model's JSQuAD answer, `research bench jsquad --seed 121`, the question's
    # topic put on the page's sentence about the party, whose next sentence names the first chair) was read as its
    # topic alone, and supported.
    claim = read.claim.strip()
    clause = claim.split("、", 1)[0]
    comma_after_topic = clause == claim[:match.end()].rstrip("、")
    if comma_after_topic:
        clause = claim[:match.end()] + claim[match.end():].lstrip("、 ").split("、", 1)[0]
    rest = {t.text for t in terms(clause) if t.key} - set(topic)
    figures = extract_numbers(clause)
    if not topic or not rest and not figures:
        return None
    wanted_topic = set(topic)
    sources = {source.label: source for source in read.cited}
    for passage in read.assembled:
        # Japanese leaves a sentence's subject to the one before it or to its heading (「富士山は…。
        # 標高は3,776 mです。」): the topic is looked for there too, the rest of the claim in the sentence.
        # Never in a sentence after it: 「…割合は21.7%だった。内訳では太陽光発電が9.2%で最も多く…」 does
        # not say 「太陽光発電は…割合が21.7%で最も多く」 (the real 1.5B model: supported, every word there).
        source = sources.get(passage.label)
        before = source.passage_before(passage) if source is not None else None
        previous = before.features if before is not None else frozenset()
        earlier: frozenset[str] = previous
        if comma_after_topic and source is not None:
            # A topic the clause after its comma is read with may be any earlier sentence's of the page's last few
            # passages: the page goes on saying things of it (「立法府は一院制の国民議会。132議席で、…。議席数は、…1997年
            # 選挙では99、…」: 国民議会 two sentences before).
            further = before
            for _ in range(_TOPIC_CARRIED_PASSAGES - 1):
                further = source.passage_before(further) if further is not None else None
                if further is None:
                    break
                earlier = earlier | further.features
        for start, end in sentence_spans(passage.text):
            sentence = passage.text[start:end]
            said = _sentence_terms(sentence)
            context = said | (earlier if comma_after_topic else previous) | passage.headings
            previous = said
            earlier = earlier | said
            if 2 * len(wanted_topic & context) <= len(wanted_topic):
                # More than half of it: 発電 of 太陽光発電 (太陽, 発電) is in 「…発電電力量に占める…」 too.
                continue
            # A sentence that holds the topic itself may leave the rest to the one before it or to its heading, as
            # the page says what it is: 「ニーダーザクセン州の州都は、ハノーファーです」 of «ハノーファー（ ）は、…主要都市のひとつ。
            # ニーダーザクセン州の州都である。», 「大治の前の日本の元号は、天治です」 of «保安の後、大治の前。» under 天治.
            holder = context if 2 * len(wanted_topic & said) >= len(wanted_topic) else said
            if (not rest or len(rest & holder) > _TOPIC_SAID_WITH * len(rest)) \
                    and (not figures or any(NumberSet.of(sentence).contains(m) for m in figures)):
                # A figure of the claim, where it gives one, is there too: 富士山 (フジ, 山) is in a
                # sentence about 宝永噴火, but 3,776 m is not.
                return None
    return Finding("uncertain", "roles_unconfirmed")


_BRACKETED = re.compile(r"[（(][^（）()]*[）)]")


def topic_made_narrower(read: ClaimEvidence) -> Finding | None:
    """A Japanese claim whose topic is a part of what its passage's sentence is about (「AのBは…」
    where that sentence says 「Aは…」 and names no B): 「同君連合の構成国は、…同一人物である状態・体制の
    ことである」 against 「同君連合は、…同一人物である状態・体制のことである」 (the real 1.5B model,
    JSQuAD v1.3 valid a203796p0q0), every word on the page, 構成国 from another sentence. Left to
    the judge, never supported: the sentence says it of A, not of A's B."""
    if read.language != "ja" or not read.assembled:
        return None
    claim = read.claim.strip()
    match = TOPIC_JA.match(claim)
    if match is None or "の" not in match.group("topic"):
        return None
    topic = [t.text for t in terms(match.group("topic")) if t.key and t.text in read.words]
    rest = {t.text for t in terms(claim[match.end():]) if t.key} - set(topic)
    if len(topic) < 2 or len(rest) < 2:
        return None
    head = topic[-1]
    narrowed = False
    for passage in read.assembled:
        for start, end in sentence_spans(passage.text):
            sentence = passage.text[start:end]
            said = _sentence_terms(sentence)
            if len(rest & said) <= _TOPIC_SAID_WITH * len(rest):
                continue
            own = TOPIC_JA.match(sentence.strip())
            # Without a reading in brackets: 「同君連合（どうくんれんごう）」 is 同君連合.
            own_topic = {t.text for t in terms(_BRACKETED.sub("", own.group("topic"))) if t.key} if own else set()
            if head in said or head in passage.headings or not own_topic or not own_topic < set(topic):
                return None  # said of the claim's own topic, or of no topic this reads
            narrowed = True
    return Finding("uncertain", "roles_unconfirmed") if narrowed else None


# The end of an English sentence's subject: its first auxiliary or copula ("The Hōei eruption| was
# added …"); a sentence whose own subject is a pronoun takes it from the sentence before.
_SUBJECT_END_EN = re.compile(r"\b(?:is|was|are|were|has|have|had|will|would|can|could|may|might|became|becomes)\b")
_PRONOUN_START_EN = re.compile(r"^\W*(?:it|its|this|these|they|their|he|she|his|her)\b", re.IGNORECASE)
_SUBJECT_WORDS_EN = 5  # longer, the words before the first auxiliary are no plain subject ("The 1707 Hōei eruption")
_NAME_WORD = re.compile(r"\b[A-Z][\w'’-]*")
# A sentence's first word, capitalised as every first word is: no name.
_NOT_A_NAME = frozenset("""the a an this that these those it its he she his her they their we our you your i
    once for in on at if when while after before as although but and or so then there here some many most all
    each every no one two also additionally however""".split())


def _subject_of(sentence: str) -> tuple[str, str] | None:
    """An English sentence's words before its first auxiliary or copula, when they are few, and
    the words after it."""
    end = _SUBJECT_END_EN.search(sentence)
    if end is None or len(sentence[:end.start()].split()) > _SUBJECT_WORDS_EN:
        return None
    return sentence[:end.start()], sentence[end.end():]


def _names(text: str) -> frozenset[str]:
    """The capitalised words of ``text``, lower-cased, but a first word's own capital ("The", "She")."""
    return frozenset(w.lower() for w in _NAME_WORD.findall(text.strip())) - _NOT_A_NAME


_SAID_WORD_FOR_WORD_AT_LEAST = 4  # words of what a sentence says of its subject, to be the page's own words
_DETERMINER_START_EN = re.compile(r"^\W*(?:the|a|an|this|that|these|those|its|their|his|her|our|your|my|some|any|each|"
                                  r"every|such|another|other|no)\b", re.IGNORECASE)


def _words_said(text: str) -> list[str]:
    return re.findall(r"[a-z0-9]+", text.lower())


# "In all cases, ", "Overall, ": a setting before a sentence's subject, cut off by a comma.
_LEADING_SETTING_EN = re.compile(r"^(?:(?:in|at|for|after|before|during|among|of|overall|finally|however|moreover|"
                                 r"thus|therefore)\b[^,]{0,40},\s+)", re.IGNORECASE)


def predicate_of_another(read: ClaimEvidence) -> Finding | None:
    """(en) A claim that says word for word what a passage sentence says of its subject, of a subject that shares
    no word with it, where no sentence of the cited pages says it of the claim's: "Somatostatin is a neuropeptide
    with anorexigenic activity" against «Neuromedin U (NmU) is a neuropeptide with anorexigenic activity.» (a subject
    that names a thing: a capitalised word past its first, or an acronym), the page naming somatostatin in another
    sentence (PubMedQA 18948835, the real 1.5B model, `research bench pubmedqa
    --seed 98`: supported, every word on the page). One term exchanged in a near-verbatim sentence: decided against,
    the page's sentence quoted (the English of ``topic_of_another``)."""
    if read.language != "en" or not read.assembled:
        return None
    claim = _LEADING_SETTING_EN.sub("", read.claim.strip())
    split = _subject_of(claim)
    # A subject that is a bare name or noun phrase of its own ("Somatostatin"), not "The show" or "This option", which
    # may name the page's thing in other words; and one the page names elsewhere: where the model found it. A subject
    # with "the" passes where it is a term of the page's own, two words or more written as the page writes them
    # (``_pages_own_term``).
    if split is None or "?" in claim or "," in split[0] or _PRONOUN_START_EN.match(claim):
        return None
    by_term = bool(_DETERMINER_START_EN.match(split[0]))
    if by_term and not _pages_own_term(split[0], read):
        return None
    subject, said = _sentence_terms(split[0]) - STOP_WORDS, _words_said(split[1])
    if not subject or len(said) < _SAID_WORD_FOR_WORD_AT_LEAST:
        return None
    # Only a page that writes the predicate word for word can say it of another thing: looked up in its words at once,
    # before any passage is read sentence by sentence.
    phrase = " " + " ".join(said) + " "
    saying = [source for source in read.cited if phrase in source.words_spaced()]
    if not saying or not any(subject <= passage.features for source in read.cited for passage in source.passages):
        return None
    other: Passage | None = None
    for source in saying:
        for passage, words in zip(source.passages, source.passage_words()):
            if phrase not in words:
                continue
            for start, end in sentence_spans(passage.text):
                sentence = passage.text[start:end].strip()
                theirs = _subject_of(_LEADING_SETTING_EN.sub("", sentence))
                if theirs is None or _words_said(theirs[1])[:len(said)] != said:
                    continue
                if _sentence_terms(theirs[0]) & subject:
                    return None  # said of the claim's subject too
                # Another thing by its name (or, for a claim's term of the page, by a term of its own): a pronoun, or
                # words that may name the claim's thing otherwise ("The drug"), conclude nothing.
                if len(_words_said(theirs[1])) == len(said) and not _PRONOUN_START_EN.match(sentence) \
                        and (_names(theirs[0]) or by_term and _pages_own_term(theirs[0], read)):
                    other = other or Passage(passage.label, sentence, passage.features)
    return Finding("unsupported", "said_of_another", 0.8, (split[0].strip(),), where=other) if other else None


def _pages_own_term(subject: str, read: ClaimEvidence) -> bool:
    """Whether ``subject``, a determiner and words after it, is a term of the cited pages: two words or more, written
    in a cited passage word for word ("The short gastric arteries", the page's «…branches of the short gastric
    arteries»), so no other name of the page's thing ("The show", "The drug", "This option")."""
    words = _words_said(_DETERMINER_START_EN.sub("", subject))
    if len([w for w in words if w not in STOP_WORDS]) < 2:
        return False
    wanted = " " + " ".join(words) + " "
    return any(wanted in source.words_spaced() for source in read.cited)


def subject_exchanged(read: ClaimEvidence) -> Finding | None:
    """An English claim that gives one named thing of the page what a passage sentence says of
    another: "The Hōei eruption was added to the UNESCO World Heritage List in 2013" against "Mount
    Fuji was added to the UNESCO World Heritage List … in 2013." (the real 1.5B model's "The 1707
    Hōei eruption was the last eruption of Mount Fuji, and it was added to …"), every word on the
    page. Only names are compared, both on the page: where a sentence says more than half of the
    rest of the claim (and its figure) and its own subject names another thing, and no such
    sentence (or the one before it, when it opens with a pronoun) names the claim's. A subject
    said in other words ("The company", "He") concludes nothing: on RAGTruth a rule on any words
    flagged 175 clean claims for 7 hallucinated ones. For the judge, never supported."""
    if read.language != "en" or not read.assembled:
        return None
    claim = read.claim.strip()
    split = _subject_of(claim)
    if split is None:
        return None
    subject_text, said = split
    names = _names(subject_text)
    page = frozenset(w.lower() for p in read.assembled for w in _NAME_WORD.findall(p.text))
    if not names or not names <= page:
        return None
    # Its own predicate, and those of clauses joined to it whose subject points back to it
    # ("…, and it was added to …").
    parts = re.split(r",?\s+and\s+(?:it|they|he|she)\s+(?=\S)", said, flags=re.IGNORECASE)
    predicates = [re.split(r",\s+(?:and|but|while|which)\s|;", part, maxsplit=1)[0] for part in parts]
    subject = _sentence_terms(subject_text)
    return next((found for found in (_said_of_another(read, subject, names, p) for p in predicates) if found), None)


def _said_of_another(read: ClaimEvidence, subject: frozenset[str], names: frozenset[str],
                     predicate: str) -> Finding | None:
    """``predicate`` said by a passage sentence whose subject names another thing, and by none that
    names ``subject`` (``subject_exchanged``)."""
    rest = _sentence_terms(predicate) - subject
    figures = extract_numbers(predicate)
    if len(rest) < 2:
        return None
    said_of_another = False
    for passage in read.assembled:
        previous: frozenset[str] = frozenset()
        for start, end_at in sentence_spans(passage.text):
            sentence = passage.text[start:end_at]
            said = _sentence_terms(sentence)
            before, previous = previous, said
            if len(rest & said) <= _TOPIC_SAID_WITH * len(rest) \
                    or figures and not any(NumberSet.of(sentence).contains(m) for m in figures):
                continue
            named = said | passage.headings | (before if _PRONOUN_START_EN.match(sentence) else frozenset())
            if 2 * len(subject & named) > len(subject):
                return None
            own = _subject_of(sentence)
            if own is not None and not _PRONOUN_START_EN.match(sentence) and _names(own[0]) \
                    and not _names(own[0]) & names:
                said_of_another = True
    return Finding("uncertain", "roles_unconfirmed") if said_of_another else None


# "(52.1 months vs 76.3 months)", "(37% versus 52%)": the two figures a comparison gives, in its order.
_PAIR_OF_FIGURES_EN = re.compile(
    r"\(\s*(?P<a>\d+(?:\.\d+)?)\s*(?:%|[a-z]+)?\s*(?:vs\.?|versus|compared (?:with|to))\s*(?P<b>\d+(?:\.\d+)?)"
    r"\s*(?:%|[a-z]+)?\s*\)", re.IGNORECASE)
# "76.3 months in the protocol group": a figure the page gives one named group.
_FIGURE_OF_A_GROUP_EN = re.compile(r"(?P<value>\d+(?:\.\d+)?)\s*(?:%|[a-z]+)?\s+(?:in|for|among) the "
                                   r"(?P<group>[a-z-]+) (?:group|arm|cohort)\b", re.IGNORECASE)
_GROUP_NAMED_EN = re.compile(r"\b(?P<group>[a-z-]+) (?:group|arm|cohort)\b", re.IGNORECASE)


def figures_of_two_groups_swapped(read: ClaimEvidence) -> Finding | None:
    """(en) A comparison whose first group gets the figure its page gives the other group: "…patients who
    received adjuvant chemotherapy in the protocol group had a lower median overall survival than those
    who did not receive chemotherapy (52.1 months vs 76.3 months)" against «Median overall survival
    decreased from 76.3 months in the protocol group to 52.1 months in the matched group …» (PubMedQA
    15483019, `research bench pubmedqa --seed 104`, the real 1.5B model's Summary, not checked: every word
    and figure is on the page). The first figure of "(a vs b)" is the first group the claim names."""
    if read.language != "en":
        return None
    pair = _PAIR_OF_FIGURES_EN.search(read.claim)
    if pair is None:
        return None
    named = _GROUP_NAMED_EN.search(read.claim[:pair.start()])
    if named is None:
        return None
    group, first, second = named["group"].lower(), pair["a"], pair["b"]
    for passage, sentence in _cited_sentences(read):
        owners = {m["value"]: m["group"].lower() for m in _FIGURE_OF_A_GROUP_EN.finditer(sentence)}
        if owners.get(second) == group and owners.get(first) not in (None, group):
            quoted = Passage(passage.label, sentence.strip(), passage.features)
            return Finding("unsupported", "number_mismatch", 0.85, (first,), where=quoted)
    return None


# 「太陽光発電は日本の発電で最も多く…」, 「日本の発電では太陽光発電が最も多い」: what is the most, and among what.
_SUPERLATIVE_JA = (
    re.compile(r"^(?P<subject>[^、。はが]+?)(?:は|が)(?P<scope>[^、。]{2,30}?)(?:の中|のうち)?(?:で|では|において)"
               r"(?:は)?(?:最も|一番|もっとも)(?P<predicate>[^、。]{1,6})"),
    re.compile(r"^(?P<scope>[^、。]{2,30}?)(?:の中|のうち)?(?:で|では|において)(?:は)?(?P<subject>[^、。はが]+?)が"
               r"(?:最も|一番|もっとも)(?P<predicate>[^、。]{1,6})"),
)
_MOST_OF_A_SCOPE_JA = r"(?:の中|のうち)?(?:で|では|において)(?:は)?(?P<subject>[^、。はが]+?)が(?:[^、。]{0,12}?で)?(?:最も|一番|もっとも)"


def _superlative_claimed_ja(read: ClaimEvidence) -> re.Match[str] | None:
    """A Japanese claim's subject, scope and predicate where it says the subject is the most of the scope."""
    if read.language != "ja" or not read.assembled:
        return None
    claim = without_leading_connective(read.claim.strip())
    return next((found for pattern in _SUPERLATIVE_JA if (found := pattern.match(claim)) is not None), None)


def superlative_of_another(read: ClaimEvidence) -> Finding | None:
    """(ja) What a claim says is the most of a scope, where the passage sentence of that scope says
    another is: 「太陽光発電は日本の発電で最も多く、次いで水力発電が続いている」 against «日本の発電では火力が最も
    多く、次いで水力発電が続いている。» (the real 1.5B model on the local web's energy page, `bench_answers.py
    --ollama`, supported: 太陽光発電 is the most of the page's other scope, «再生可能エネルギーの内訳では太陽光発電が
    9.2%で最も多く»). Decided against, that sentence shown."""
    match = _superlative_claimed_ja(read)
    if match is None:
        return None
    subject, scope, predicate = (match[name].strip() for name in ("subject", "scope", "predicate"))
    theirs = re.compile(re.escape(scope) + _MOST_OF_A_SCOPE_JA + re.escape(predicate[:1]))  # 多い, 多く
    for passage, sentence in _sentences_of(read.assembled):
        other = theirs.search(sentence)
        if other is None or subject in sentence or squeezed(other["subject"]) == squeezed(subject):
            continue
        quoted = Passage(passage.label, sentence.strip(), passage.features)
        return Finding("unsupported", "contrast", 0.85, (subject,), where=quoted)
    return None


# 「…再生可能エネルギーの内訳では太陽光発電が9.2%で最も多く」: what a page sentence says is the most of a scope, in which respect.
_THE_MOST_OF_A_SCOPE_JA = (
    re.compile(r"(?P<scope>[^、。]{2,30}?)(?:の中|のうち)?(?:で|では|において)(?:は)?(?P<subject>[^、。はが]+?)が"
               r"(?:[^、。]{0,12}?で)?(?:最も|一番|もっとも)(?P<predicate>[^、。]{1,6})"),
    re.compile(r"(?P<subject>[^、。はが]+?)(?:は|が)(?P<scope>[^、。]{2,30}?)(?:の中|のうち)?(?:で|では|において)"
               r"(?:は)?(?:[^、。]{0,12}?で)?(?:最も|一番|もっとも)(?P<predicate>[^、。]{1,6})"),
)
_SAME_SCOPE_AT_LEAST = 4  # letters of the scope the claim and the page sentence end with alike


def superlative_in_another_respect(read: ClaimEvidence) -> Finding | None:
    """(ja) A claim that its subject is the most of a scope in a respect no passage writes, where a passage sentence
    says the same subject is the most of that scope in another: 「太陽光発電は日本の再生可能エネルギーの内訳で最も効果的
    です」 and 「…最も安全です」 against «再生可能エネルギーの内訳では太陽光発電が9.2%で最も多く…» (the real 1.5B model's
    answers to the planner's 「…何が最も効果的ですか？」, `bench_answers.py --ollama`, left "not checked" in the answer).
    Decided against, that sentence shown: the page ranks by share, and 効果 and 安全 are words it never writes."""
    match = _superlative_claimed_ja(read)
    if match is None:
        return None
    subject, scope, predicate = (squeezed(match[name]) for name in ("subject", "scope", "predicate"))
    respect = _sentence_terms(predicate) - STOP_WORDS
    sentences = _sentences_of(read.assembled)
    if not respect or respect & frozenset().union(*(_sentence_terms(sentence) for _, sentence in sentences)):
        return None
    for passage, sentence in sentences:
        for pattern in _THE_MOST_OF_A_SCOPE_JA:
            theirs = pattern.search(sentence)
            if theirs is None or squeezed(theirs["subject"]) != subject \
                    or squeezed(theirs["predicate"])[:1] == predicate[:1]:
                continue
            their_scope = squeezed(theirs["scope"])
            if min(len(scope), len(their_scope)) < _SAME_SCOPE_AT_LEAST \
                    or not (scope.endswith(their_scope) or their_scope.endswith(scope)):
                continue
            quoted = Passage(passage.label, sentence.strip(), passage.features)
            return Finding("unsupported", "missing_term", 0.8, tuple(sorted(respect)), where=quoted)
    return None


# 「AはBよりも古い」, "A is older than B": the two things a claim compares.
_COMPARISON_JA = re.compile(r"^(?P<a>[^、。はが]+?)(?:は|が)、?(?P<b>[^、。はが]+?)(?<!に)(?:よりも|より)[^。]+")  # not 「…により」 (by)
_COMPARISON_EN = re.compile(r"^(?P<a>[^,;]+?)\s+(?:is|are|was|were|has|have|had|became|remains|remained)\s+"
                            r"(?:\w+\s+){0,3}?than\s+(?P<b>[^,;.]+)", re.IGNORECASE)
# A comparison under a condition, or of something a clause describes ("If the oven box is slightly larger than the
# opening, …", "There are many girls who are stronger than boys": RAGTruth train, clean), is no plain comparison of two
# named things.
_NOT_TWO_NAMED_EN = re.compile(r"^(?:if|when|whenever|unless|although|though|while|because|since|there|it)\b|\b(?:who|which|that)\b",
                               re.IGNORECASE)
_CONDITION_JA = re.compile(r"場合|なら|れば|たら|とき|時に")
# What makes a comparison in a page's sentence (a comparative of its own, "older than", is read by "than").
_COMPARING = re.compile(r"より|比べ|比較|上回|下回|最も|一番|倍|半分|同じ|同様|\b(?:than|compared?|comparison|versus|vs|whereas|"
                        r"more|less|fewer|most|least|relative|twice|times|double|half)\b|\bas\s+\w+\s+as\b", re.IGNORECASE)


def comparison_no_page_makes(read: ClaimEvidence) -> Finding | None:
    """A claim comparing two things its sources name together in a sentence that compares them in nothing, where no
    sentence compares them and none gives a figure of either: 「ケインフィールド空港は、メルビル・ホール空港よりも古い空港
    である」 against «島内にはケインフィールド空港とメルビル・ホール空港の2つの空港があるが、…» (JSQuAD v1.3 valid, the
    page ドミニカ国; the real 1.5B model's answer to the planner's 「…どちらが最も古い空港？」, `research bench jsquad
    --sample 5 --seed 136`, left "not checked"). Decided against, the sentence that names both shown: the comparison
    is the model's own. Figures of each (years opened) are left to the other checks and the judge, which may read
    the comparison in them."""
    if not read.assembled:
        return None
    claim = without_leading_connective(read.claim.strip())
    match = (_COMPARISON_JA if read.language == "ja" else _COMPARISON_EN).match(claim)
    if match is None or (_CONDITION_JA.search(claim) if read.language == "ja" else _NOT_TWO_NAMED_EN.search(match["a"])):
        return None
    first, second = (_sentence_terms(match[name].strip()) - STOP_WORDS for name in ("a", "b"))
    if not first or not second or first <= second or second <= first:
        return None
    together: tuple[Passage, str] | None = None  # the first sentence naming both
    for passage, sentence in _cited_sentences(read):
        said = _sentence_terms(sentence)
        both = first <= said and second <= said
        if both and _COMPARING.search(sentence):
            return None  # the page compares them: the other checks read how
        # A figure of one of them, or one of each («…opened in 1950, and Melville Hall Airport in 1961»): a comparison
        # to read in figures. One figure of both together is their count («…の2つの空港がある»).
        figures = len(extract_numbers(sentence))
        if both and figures < 2:
            together = together or (passage, sentence)
        elif (first <= said or second <= said) and figures:
            return None
    if together is None:
        return None
    passage, sentence = together
    return Finding("unsupported", "missing_term", 0.8, (match.group(0)[match.end("a"):].lstrip("はが、 "),),
                   where=Passage(passage.label, sentence.strip(), passage.features))


# "the most commonly used", "most frequently", "the most common": how often, said as the most of all.
_MOST_OFTEN_EN = re.compile(r"\b(?:most|more)\s+(?P<word>common(?:ly)?|frequent(?:ly)?|often|widely|popular|prevalent)\b"
                            r"|\b(?P<alone>commonest|predominant(?:ly)?)\b", re.IGNORECASE)


def most_often_unsaid(read: ClaimEvidence) -> Finding | None:
    """(en) A claim that something is the most common, or the most commonly used, where no passage sentence that says
    the rest of it says how often: "The most commonly used identifiers are pain at the end of range of all measured
    active movements and global loss of passive range of movement" was supported by «…of the proposed identifiers,
    global loss of passive range of movement …, pain at the end of range of all measured active movements … were
    associated with a PAR», its "common" found in the background's «other common shoulder disorders» and its "used" in
    the methods' «Using the local anesthetic» (PubMedQA 24652474, the real 1.5B model's Summary; `research bench
    pubmedqa --sample 4 --seed 131`). Left to the judge, the words shown."""
    if read.language != "en" or not read.assembled:
        return None
    found = _MOST_OFTEN_EN.search(read.claim)
    if found is None:
        return None
    # The same word (common, commonly, commonest; popular; frequent, frequency …) beside one more of the claim's words
    # in one sentence: «Osteoarthritis, one of the most common forms of arthritis, …», «This is our most popular G1
    # practice test.» (RAGTruth train, clean; a rule over half the claim's words took eight such claims).
    word = (found["word"] or found["alone"]).lower()
    same = re.compile(rf"\b{re.escape(word[:5])}", re.IGNORECASE)
    rest = read.words - frozenset(t.text for t in terms(found.group(0))) - {"use"}
    for _passage, sentence in _sentences_of(read.assembled):
        if same.search(sentence) and rest & _sentence_terms(sentence):
            return None
    return Finding("uncertain", "missing_term", 0.5, (found.group(0),))


# 「日本の発電では…」, 「再生可能エネルギーの内訳では…」: the scope a sentence's statement is made in, framed
# at its start.
_SCOPE_FRAME_JA = re.compile(r"^(?P<scope>[^、。はがをに「」]{2,30}?)(?:の中|のうち)?(?:では|において(?:は)?|で、)")


def _key_terms(text: str) -> frozenset[str]:
    return frozenset(t.text for t in terms(text) if t.key)


def item_of_another_scope(read: ClaimEvidence) -> Finding | None:
    """(ja) A claim that lists under its scope an item the page lists only under another scope:
    「日本の再生可能エネルギーの内訳は太陽光発電が最も多く、水力発電が次いで火力発電が続いている」 against
    «再生可能エネルギーの内訳では太陽光発電が9.2%で最も多く、水力発電が7.6%で続いた。» and «日本の発電では火力が
    最も多く、…» (the real 1.5B model's Summary, `bench_answers.py --ollama`, kept "not checked"): every
    word on the page, 火力 from the other scope's sentence. Decided against, that sentence shown, only
    where the page has a sentence of the claim's own scope that says most of the rest and lacks the
    item, and every page sentence holding the item frames another scope (「Xでは」): an item the page
    also names as a topic of its own (「風力発電は近年増えている」) concludes nothing."""
    if read.language != "ja" or not read.cited:
        return None
    claim = without_leading_connective(read.claim.strip())
    # Its scope: 「太陽光発電は日本の再生可能エネルギーの内訳で最も多く…」, 「…の内訳では…」, 「…の内訳は…」.
    most = _SUPERLATIVE_JA[0].match(claim)
    own = most or _SCOPE_FRAME_JA.match(claim) or TOPIC_JA.match(claim)
    if own is None:
        return None
    named = own["scope" if "scope" in own.groupdict() else "topic"]
    scope = [t.text for t in terms(named) if t.key]
    if not scope:
        return None
    head, scope_terms = scope[-1], frozenset(scope)
    rest = _key_terms(claim.replace(named, "、", 1) if most else claim[own.end():]) - scope_terms
    if len(rest) < 3:
        return None
    sentences = [(passage, without_leading_connective(sentence.strip())) for passage, sentence in _cited_sentences(read)]
    listed: frozenset[str] | None = None
    for _, sentence in sentences:
        theirs = _SCOPE_FRAME_JA.match(sentence) or TOPIC_JA.match(sentence)
        if theirs is None:
            continue
        their_scope = _key_terms(theirs["scope" if "scope" in theirs.groupdict() else "topic"])
        said = _key_terms(sentence[theirs.end():])
        if head in their_scope and their_scope <= scope_terms and len(rest & said) >= 2:
            listed = said | their_scope
            break
    if listed is None:
        return None
    for item in sorted(rest - listed):
        holding = [(passage, sentence) for passage, sentence in sentences if item in _key_terms(sentence)]
        frames = [_SCOPE_FRAME_JA.match(sentence) for _, sentence in holding]
        if not holding or any(frame is None for frame in frames):
            continue
        if all(head not in (other := _key_terms(frame["scope"])) and item not in other and not other <= scope_terms
               for frame in frames if frame is not None):
            passage, sentence = holding[0]
            return Finding("unsupported", "said_of_another", 0.8, (item,),
                           where=Passage(passage.label, sentence, passage.features))
    return None


# "a strong correlation", "highly correlated": how strong a claim says a correlation is; and the coefficient it gives.
_STRONG_CORRELATION_EN = re.compile(r"\b(?:strong(?:ly)?|high(?:ly)?|close(?:ly)?|robust(?:ly)?|substantial(?:ly)?)\s+"
                                    r"(?:(?:positive|negative|linear|significant|and\s+\w+)\s+)?correlat\w*", re.IGNORECASE)
_COEFFICIENT_EN = re.compile(r"\b(?:r|rho|coefficients?(?:\s+of\s+correlation)?)\b[^0-9;]{0,30}?(?<![\d.])"
                             r"(?P<value>[-\u2212]?0?\.\d+)", re.IGNORECASE)
_WEAK_AT_MOST = 0.3  # |r| below this is a weak correlation on every usual scale


def strength_the_coefficient_denies(read: ClaimEvidence) -> Finding | None:
    """(en) A correlation the claim calls strong (high, close) where the coefficient it gives is below 0.3: "a strong
    correlation between PRISM scores and LOS, with the Pearson coefficient of correlation being 0.08" against «The
    Spearman and Pearson coefficients of correlation between PRISM and LOS were 0.2 (p<0.001) and 0.08 …» (PubMedQA
    14612308, the real 1.5B model, left not checked). Decided against, the page's sentence giving the figure shown;
    never where a passage calls it strong itself."""
    if read.language != "en" or not read.assembled:
        return None
    strong = _STRONG_CORRELATION_EN.search(read.claim)
    if strong is None:
        return None
    values = [m["value"].replace("\u2212", "-") for m in _COEFFICIENT_EN.finditer(read.claim)]
    if not values or any(abs(float(value)) >= _WEAK_AT_MOST for value in values):
        return None
    if any(_STRONG_CORRELATION_EN.search(passage.text) for passage in read.assembled):
        return None
    for passage, sentence in _sentences_of(read.assembled):
        if any(re.search(rf"(?<![\d.]){re.escape(value.lstrip('-'))}(?!\d)", sentence) for value in values):
            return Finding("unsupported", "contrast", 0.8, (strong.group(0),),
                           where=Passage(passage.label, sentence.strip(), passage.features))
    return None


# What causes what, in English: "A is a cause of B", "A causes B", "B is caused by A", "B is a consequence of A",
# "A, which was thought to cause B". A and B are the words next to the link, within a clause.
_PHRASE_EN = r"[A-Za-z0-9][\w'’/-]*(?:\s+[\w'’/-]+){0,6}?"
_CAUSES_EN = (
    (re.compile(rf"(?P<a>{_PHRASE_EN})\s*,?\s+(?:which|that)\s+(?:(?:is|was|are|were)\s+(?:\w+ly\s+)?(?:thought|believed|"
                rf"known|shown|suggested|said|considered)\s+to\s+(?:cause|lead\s+to|result\s+in)|causes|caused(?!\s+by)|"
                rf"leads\s+to|led\s+to|results\s+in|resulted\s+in)\s+(?P<b>{_PHRASE_EN})(?=\s*(?:[.,;:]|$))",
                re.IGNORECASE), False),
    (re.compile(rf"(?P<a>{_PHRASE_EN})\s+(?:is|was|are|were)\s+(?:a|an|the)?\s*(?:\w+\s+)?causes?\s+of\s+(?P<b>{_PHRASE_EN})"
                r"(?=\s*(?:[.,;:]|$))", re.IGNORECASE), False),
    (re.compile(rf"(?P<b>{_PHRASE_EN})\s+(?:is|was|are|were)\s+(?:a|an|the)?\s*(?:\w+\s+)?(?:consequences?|results?)\s+of\s+"
                rf"(?P<a>{_PHRASE_EN})(?=\s*(?:[.,;:]|$))", re.IGNORECASE), False),
    (re.compile(rf"(?P<b>{_PHRASE_EN})\s+(?:is|was|are|were)\s+caused\s+by\s+(?P<a>{_PHRASE_EN})(?=\s*(?:[.,;:]|$))",
                re.IGNORECASE), False),
    (re.compile(rf"(?P<a>{_PHRASE_EN})\s+(?:(?:is|was|are|were)\s+(?:\w+ly\s+)?(?:thought|believed|known|shown|said)\s+to\s+"
                rf"cause|causes|caused(?!\s+by)|leads\s+to|led\s+to)\s+(?P<b>{_PHRASE_EN})(?=\s*(?:[.,;:]|$))", re.IGNORECASE), False),
)


# "which was thought to cause …": what was believed, which the page may go on to question.
_BELIEVED_EN = re.compile(r"\b(?:thought|believed|suggested|said|considered|hypothesi[sz]ed|proposed)\s+to\b", re.IGNORECASE)


def _cause_and_effect_en(text: str) -> list[tuple[frozenset[str], frozenset[str], bool]]:
    """Each (cause, effect, believed) ``text`` states, as their content terms (``_CAUSES_EN``); ``believed`` where
    the text says it was only thought so."""
    pairs = []
    for pattern, _ in _CAUSES_EN:
        for found in pattern.finditer(text):
            cause = _sentence_terms(found["a"]) - STOP_WORDS
            effect = _sentence_terms(found["b"]) - STOP_WORDS
            if cause and effect:
                pairs.append((frozenset(cause), frozenset(effect), bool(_BELIEVED_EN.search(found.group(0)))))
    return pairs


def _stands_for(said: frozenset[str], written: frozenset[str]) -> bool:
    """Whether the claim's phrase ``said`` is the passage's ``written``: most of its terms there."""
    return 2 * len(said & written) > len(said)


def cause_and_effect_exchanged(read: ClaimEvidence) -> Finding | None:
    """(en) A claim that makes the passage's effect the cause of its cause: "Eye-tracking abnormality is a cause of
    motion perception deficit in schizophrenia" against «… motion perception deficit, which was thought to cause
    eye-tracking abnormality in schizophrenia.» (PubMedQA 19054501, the real 1.5B model's Summary, supported: every
    word there). Never supported, unless a passage also states the claim's way: decided against (role_swap), that
    sentence shown, where the passage states it; where it says only what was thought (that page's background, which
    its study goes on to question), left to the judge (role_unclear)."""
    if read.language != "en" or not read.assembled:
        return None
    claimed = _cause_and_effect_en(read.claim)
    if not claimed:
        return None
    swapped: tuple[Passage, bool] | None = None
    for passage, sentence in _sentences_of(read.assembled):
        for cause, effect, believed in _cause_and_effect_en(sentence):
            for said_cause, said_effect, _ in claimed:
                if _stands_for(said_cause, cause) and _stands_for(said_effect, effect):
                    return None  # stated the claim's way
                if _stands_for(said_cause, effect) and _stands_for(said_effect, cause) \
                        and (swapped is None or swapped[1] and not believed):
                    swapped = (Passage(passage.label, sentence.strip(), passage.features), believed)
    if swapped is None:
        return None
    where, believed = swapped
    return Finding("uncertain", "role_unclear", where=where) if believed \
        else Finding("unsupported", "role_swap", 0.8, where=where)


# "… was present in none of the patients with SLE/sSS": a count of nought, and the group it is of.
_NONE_OF_EN = re.compile(r"\bin\s+none\s+of\s+(?:the\s+)?(?P<group>[^.,;()]+)", re.IGNORECASE)


# 「日本共産党が支出していない項目は、政治活動費と機関紙誌の発行事業費である」: what a claim names as the things its subject
# does not do (a verbal noun, then していない, しない, されていない …), listed after は.
_ITEMS_NOT_DONE_JA = re.compile(
    r"^(?P<subject>[^、。]{1,30}?)(?:が|は)(?P<act>[\u4e00-\u9fff]{2,4})(?:して|されて)?"
    r"(?:いない|いません|いなかった|しない|しません|しなかった|されない|されなかった)"
    r"(?P<noun>の|[^、。はがのを]{1,8})は[、，]?\s*(?P<items>[^。]+?)(?:である|です|だ|となる)?[。．]?$")
_ITEM_JOINS_JA = re.compile(r"、|，|および|及び|並びに|と|や")


def items_the_page_says_are_done_ja(read: ClaimEvidence) -> Finding | None:
    """(ja) Things a claim names as what its subject does not do, where a cited page sentence on that subject names
    one of them with the very act, affirmed: 「日本共産党が支出していない項目は、政治活動費と機関紙誌の発行事業費である」
    against «機関紙誌の発行事業費は政治活動費に含まれ、148億8100万円と支出全体の64%を占める。» under «# 日本共産党»
    (JSQuAD v1.3 valid, `research bench jsquad --sample 5 --seed 143`, the real 1.5B model's Summary to 「日本共産党が
    支出していない項目は？」, left not checked: it named what the page lists as spent). Decided against (negation), the
    page's sentence shown."""
    if read.language != "ja":
        return None
    said = _ITEMS_NOT_DONE_JA.match(read.claim.strip())
    if said is None:
        return None
    act, subject = said["act"], features(said["subject"])
    items = [item.strip() for item in _ITEM_JOINS_JA.split(said["items"]) if len(item.strip()) >= 2]
    if not items or not subject:
        return None
    for passage, sentence in _cited_sentences(read):
        on_the_subject = subject <= features(sentence) | passage.headings
        if on_the_subject and act in sentence and any(item in sentence for item in items) and not _negated(sentence):
            return Finding("unsupported", "negation", 0.8, where=Passage(passage.label, sentence.strip(), passage.features))
    return None


# "with a 71% increase", "a 71% rise", "increased by 71%", "an increase of 71%": a percentage a claim gives as a change.
_PERCENT_AS_A_CHANGE_EN = re.compile(
    r"(?<![\d.])(?P<after>\d+(?:\.\d+)?)\s*(?:%|percent)\s+(?:increase|rise|gain|improvement|reduction|decrease|drop|"
    r"decline|fall)s?\b"
    r"|\b(?:increased|rose|risen|grew|fell|dropped|declined|reduced|decreased|improved|(?:an?\s+)?(?:increase|rise|"
    r"reduction|decrease|drop|decline|improvement|gain|fall))\s+(?:of|by)\s+(?:about\s+|approximately\s+|nearly\s+)?"
    r"(?P<before>\d+(?:\.\d+)?)\s*(?:%|percent)", re.IGNORECASE)
# "(71% vs 61%)", "71% versus 61%", "71% compared with 61%", "from 61% to 71%": two percentages a page gives side by
# side as levels, each of a group or a time.
_PERCENT_LEVELS_EN = re.compile(
    r"(?<![\d.])(?P<one>\d+(?:\.\d+)?)\s*%\s*(?:vs\.?|versus|compared (?:with|to)|against)\s*(?P<two>\d+(?:\.\d+)?)\s*%"
    r"|\bfrom\s+(?P<start>\d+(?:\.\d+)?)\s*%\s*to\s+(?P<end>\d+(?:\.\d+)?)\s*%", re.IGNORECASE)


def level_given_as_a_change(read: ClaimEvidence) -> Finding | None:
    """(en) A percentage the claim gives as a change (an increase, a reduction) where every cited page sentence that
    gives it gives it as a level beside another: "…significantly higher among those who received tailored telephone
    counseling …, with a 71% increase in the first year of intervention" against «…telephone counseling promoted a
    significantly higher proportion of women having mammograms on schedule (71% vs 61%) than did tailored print (67%
    vs 61%) …» (PubMedQA, `research bench pubmedqa --sample 4 --seed 139`, the real 1.5B model's Summary, supported: the
    71% was a proportion, its increase ten points). Decided against (number_mismatch), the page's sentence shown."""
    if read.language != "en":
        return None
    changes = {float(m["after"] or m["before"]) for m in _PERCENT_AS_A_CHANGE_EN.finditer(read.claim)}
    if not changes:
        return None
    for value in sorted(changes):
        as_levels: tuple[Passage, str] | None = None
        for passage, sentence in _cited_sentences(read):
            given = [float(m.group(1)) for m in re.finditer(r"(?<![\d.])(\d+(?:\.\d+)?)\s*(?:%|percent)", sentence)]
            if value not in given:
                continue
            if any(float(m["after"] or m["before"]) == value for m in _PERCENT_AS_A_CHANGE_EN.finditer(sentence)):
                as_levels = None
                break  # the page gives it as a change somewhere: the claim may say what that sentence says
            levels = [float(x) for m in _PERCENT_LEVELS_EN.finditer(sentence) for x in m.groups() if x is not None]
            if given.count(value) > levels.count(value):
                as_levels = None
                break  # given alone too, as what it is of: not only a level beside another
            as_levels = as_levels or (passage, sentence)
        if as_levels is not None:
            passage, sentence = as_levels
            return Finding("unsupported", "number_mismatch", 0.8, (f"{value:g}%",),
                           where=Passage(passage.label, sentence.strip(), passage.features))
    return None


# "in the first year of intervention", "only after the first year", "during the second week": a time said as within a
# period or on one side of it.
_PERIOD_EN = re.compile(r"\b(?P<side>in|during|within|after|before|since|until)\s+the\s+(?P<period>(?:first|second|third|"
                        r"fourth|fifth|final|last|\d+(?:st|nd|rd|th))\s+(?:years?|months?|weeks?|days?|decades?|trimesters?|"
                        r"quarters?|cycles?|doses?))\b", re.IGNORECASE)
_WITHIN_A_PERIOD = frozenset({"in", "during", "within"})


def period_on_another_side(read: ClaimEvidence) -> Finding | None:
    """(en) A claim that places what it says within a period ("in the first year") where the cited page sentence that
    says most of it places it after or before that period and never within it: "…with a 71% increase in the first year
    of intervention" against «…(71% vs 61%) than did tailored print (67% vs 61%) but only after the first year of
    intervention (during 1996).» (PubMedQA, `research bench pubmedqa --sample 4 --seed 139`, the real 1.5B model).
    Decided against (contrast), the page's sentence shown."""
    if read.language != "en" or not read.words:
        return None
    for said in _PERIOD_EN.finditer(read.claim):
        if said["side"].lower() not in _WITHIN_A_PERIOD:
            continue
        period = said["period"].lower()
        sides: set[str] = set()
        other: tuple[Passage, str] | None = None
        for passage, sentence in _cited_sentences(read):
            given = [m for m in _PERIOD_EN.finditer(sentence) if m["period"].lower() == period]
            if not given or 2 * len(features(sentence) & read.words) < len(read.words):
                continue
            for m in given:
                side = m["side"].lower()
                sides.add("within" if side in _WITHIN_A_PERIOD else side)
                if side not in _WITHIN_A_PERIOD and other is None:
                    other = (passage, sentence)
        if other is not None and "within" not in sides:
            passage, sentence = other
            return Finding("unsupported", "contrast", 0.8, (said.group(0),),
                           where=Passage(passage.label, sentence.strip(), passage.features))
    return None


# "…compared to sham acupuncture and no treatment": the groups a claim sets its subject against.
_COMPARED_WITH_EN = re.compile(r"\bcompared\s+(?:to|with)\s+(?P<others>[^.;,]+)", re.IGNORECASE)
# «…were found in both the genuine and sham acupuncture groups, but not …»: what a page found in two groups alike.
_IN_BOTH_EN = re.compile(r"\bboth\s+(?:the\s+)?(?P<both>[^.;,]{1,80}?)\s+(?:groups?|arms?|cohorts?)\b", re.IGNORECASE)


def compared_with_a_group_that_had_it_too(read: ClaimEvidence) -> Finding | None:
    """(en) A claim that sets its subject against a group in which the aligned page sentence found the same thing:
    "The study found that genuine acupuncture significantly improved vocal function and perceived quality of life
    compared to sham acupuncture and no treatment" against «Significant improvement in vocal function … and also
    perceived quality of life, were found in both the genuine and sham acupuncture groups, but not in the no-treatment
    group.» (PubMedQA, `research bench pubmedqa --sample 4 --seed 141`, the real 1.5B model's Summary, supported: every
    word on the page). Decided against (contrast), the page's sentence shown."""
    if read.language != "en" or not read.words:
        return None
    compared = _COMPARED_WITH_EN.search(read.claim)
    if compared is None:
        return None
    others = _sentence_terms(compared["others"]) - STOP_WORDS
    sentences = _cited_sentences(read)
    if not sentences:
        return None
    # Only the page sentence that says most of what the claim says: another finding of the same groups is another's.
    passage, sentence = max(sentences, key=lambda pair: len(features(pair[1]) & read.words))
    if 2 * len(features(sentence) & read.words) >= len(read.words):
        for both in _IN_BOTH_EN.finditer(sentence):
            alike = _sentence_terms(both["both"]) - STOP_WORDS
            if others & alike and (alike - others) & _sentence_terms(read.claim[:compared.start()]):
                return Finding("unsupported", "contrast", 0.8, tuple(sorted(others & alike)),
                               where=Passage(passage.label, sentence.strip(), passage.features))
    return None


def none_of_a_group_the_page_counts(read: ClaimEvidence) -> Finding | None:
    """(en) A claim that its subject is in none of a group, where a passage sentence of that subject gives the group a
    count: "The study also found that fatigue was present in none of the patients with SLE/sSS" against «Fatigue was
    present in 7/13 (54%) patients with SLE/sSS.», the page's «none» being of FM (PubMedQA 11053064, the real 1.5B
    model's Summary, not checked). Decided against (number_mismatch), the sentence with the count shown."""
    if read.language != "en" or not read.assembled:
        return None
    claim = REPORTED_BY_A_STUDY_EN.sub("", read.claim.strip(), count=1)
    none = _NONE_OF_EN.search(claim)
    split = _subject_of(claim)
    if none is None or split is None:
        return None
    subject = _sentence_terms(split[0]) - STOP_WORDS
    group = _sentence_terms(none["group"]) - STOP_WORDS
    if not subject or not group:
        return None
    for passage, sentence in _sentences_of(read.assembled):
        theirs = _subject_of(sentence.strip())
        if theirs is None or not subject <= _sentence_terms(theirs[0]) or re.search(r"\b(?:none|no)\b", sentence, re.I):
            continue
        counted = re.search(r"\b[1-9]\d*(?:\s*/\s*\d+)?\b(?:\s*\([^)]*\))?\s+(?P<group>[^.,;]+)", theirs[1])
        if counted is not None and 2 * len(group & _sentence_terms(counted["group"])) > len(group):
            return Finding("unsupported", "number_mismatch", 0.8, ("none",),
                           where=Passage(passage.label, sentence.strip(), passage.features))
    return None


def figure_of_a_parallel_subject(read: ClaimEvidence) -> Finding | None:
    """(en) A figure the claim gives its subject where the page gives it to another subject, in a
    sentence built like the one the page gives the claim's subject: "Fatigue is present in 7/13 (54%)
    patients with SLE/sSS, compared with 11/216 lupus patients (5%) …" against «Fatigue was present in
    7/13 (54%) patients with SLE/sSS.» and «FM was present in 9/74 patients with pSS (12%), compared
    with 11/216 lupus patients (5%), …» (PubMedQA 11053064, the real 1.5B model's Summary, supported:
    every word and figure on the page). Two sentences of one shape, one subject each: the model
    merged them. A subject in other words ("Patients" for "The mean age") is never read as another:
    the page must say the claim's subject in a sentence of the same shape as the figure's."""
    if read.language != "en" or not read.mentions or not read.assembled:
        return None
    # Said as what a study found: "The study also found that fatigue was present in 9/74 patients with pSS (12%)
    # …" (the real 1.5B model on PubMedQA 11053064 again, `research bench pubmedqa --seed 93`: the page's "FM
    # was present in 9/74 …"), read from the subject of what it found.
    split = _subject_of(REPORTED_BY_A_STUDY_EN.sub("", read.claim.strip(), count=1))
    if split is None:
        return None
    subject = _sentence_terms(split[0]) - STOP_WORDS
    if not subject:
        return None
    claim_terms = _sentence_terms(read.claim)
    # The sentences of the sources it cites (the one that gives its subject the same shape need not be
    # among the passages assembled for it), only of the passages whose terms may matter: each passage's
    # terms (figures as "#value") are read already, and a 1 MB source has thousands of them.
    prose = [passage for source in read.cited for passage in source.passages if not passage.field]
    naming_subject = [passage for passage in prose if passage.features & subject]

    def shape(sentence: str) -> tuple[frozenset[str], frozenset[str]] | None:
        own = _subject_of(sentence)
        if own is None or _PRONOUN_START_EN.match(sentence):
            return None
        return _sentence_terms(own[0]) - STOP_WORDS, _sentence_terms(own[1]) - STOP_WORDS

    others: list[tuple[str, frozenset[str], frozenset[str]]] | None = None  # the sentences that name the subject, shaped
    for mention in read.mentions:
        if not any(c.isdigit() for c in mention.text):
            continue  # "the two gestational age groups": a count in words is no figure the page measures
        marks = {"#" + value for value in mention.values}
        giving = [(passage, sentence) for passage, sentence in _sentences_of([p for p in prose if p.features & marks])
                  if any(value in sentence for value in mention.values) and NumberSet.of(sentence).contains(mention)]
        if not giving or any(subject & (_sentence_terms(sentence) | passage.headings) for passage, sentence in giving):
            continue
        for passage, sentence in giving:
            shaped = shape(sentence)
            if shaped is None or not shaped[0] or shaped[0] & claim_terms:
                continue
            rest = shaped[1]
            if others is None:
                others = [(other, *theirs) for _, other in _sentences_of(naming_subject)
                          if subject & _sentence_terms(other) and (theirs := shape(other)) is not None]
            for other, their_subject, their_rest in others:
                if other != sentence and subject & their_subject and len(rest & their_rest) >= 2 \
                        and 2 * len(rest & their_rest) >= len(their_rest):
                    return Finding("unsupported", "said_of_another", 0.8, (mention.text,),
                                   where=Passage(passage.label, sentence, passage.features))
    return None


# "X is common in India": how often something is found, said of the claim's subject as its predicate.
_PREVALENCE_WORDS_EN = r"(?:common|uncommon|rare|frequent|infrequent|prevalent|widespread)"
_SAID_PREVALENT_EN = re.compile(
    rf"^(?P<subject>[^,;:]+?)\s+(?:is|are|was|were|remains?|remained|has been|have been)\s+"
    rf"(?:(?:very|quite|relatively|fairly|more|less|most|extremely|increasingly|still)\s+)*"
    rf"(?P<word>{_PREVALENCE_WORDS_EN})\b(?=\s+(?:in|among|worldwide|across|throughout|around)\b|\s*[,.;]|\s*$)",
    re.IGNORECASE)


_PREVALENT_SUBJECT_WORDS = 4
_SOURCES_SAY_EN = re.compile(r"^(?:the|these)\s+(?:sources?|passages?|articles?|pages?|texts?|documents?)\s+(?:\w+\s+)?"
                             r"(?:indicate|show|suggest|state|say|report|note|mention)s?\s+(?:that\s+)?", re.IGNORECASE)


def _without_who_says_it(claim: str) -> str:
    """``claim`` without the sources or the study it is said by: "The sources indicate that …", "The study found
    that …" — who says it, not what is said."""
    return REPORTED_BY_A_STUDY_EN.sub("", _SOURCES_SAY_EN.sub("", claim, count=1), count=1)


# The word as a predicate in a page's sentence ("is common", "more common in"), not before a noun ("Common
# clinical manifestations", "a rare form").
_SAID_OF_ITS_SUBJECT_EN = re.compile(rf"\b{_PREVALENCE_WORDS_EN}\b(?=\s+(?:in|among|than|worldwide|across|throughout|around|"
                                     rf"to|for|with|during|after|before)\b|\s*[,.;:)]|\s*$)", re.IGNORECASE)


def prevalence_of_another(read: ClaimEvidence) -> Finding | None:
    """(en) A claim that says its subject is common (rare, frequent, widespread …), where its pages write that
    word only of something else: "Yes, Paget's disease is common in India, with a male to female ratio of 2.5:1 …"
    against «Paget's disease of bone has been described as a few case reports from India. … Common clinical
    manifestations included backache, headache and bone pains.» (PubMedQA 17089900, `research bench pubmedqa
    --sample 4 --seed 112`, the real 1.5B model's finding: supported, every word on the page). A sentence of the
    cited pages that writes the word with the subject's words decides nothing here; only the word said of others is
    decided against, that sentence quoted."""
    if read.language != "en" or not read.assembled:
        return None
    opened = answer_word(read.claim.strip())
    said = opened[2] if opened else read.claim.strip()
    # Said as what the sources or a study say: "The sources indicate that Paget's disease is common in India …"
    said = _without_who_says_it(said)
    match = _SAID_PREVALENT_EN.match(said)
    if match is None:
        return None
    # A subject that names a thing the page names ("Paget's disease"), not "The disease" or "Such heists", which
    # may be the page's thing in other words, nor a clause ("Typhoid fever is caused by … and").
    named = match["subject"].strip()
    subject = _sentence_terms(named) - STOP_WORDS
    if not subject or len(named.split()) > _PREVALENT_SUBJECT_WORDS or _DETERMINER_START_EN.match(named) \
            or _PRONOUN_START_EN.match(named) or not any(subject <= p.features for s in read.cited for p in s.passages):
        return None
    word = re.compile(rf"\b{match['word']}\b", re.IGNORECASE)
    elsewhere: tuple[Passage, str] | None = None
    for passage, sentence in _sentences_of(p for source in read.cited for p in source.passages if word.search(p.text)):
        if not word.search(sentence):
            continue
        if subject <= _sentence_terms(sentence) | passage.headings or _SAID_OF_ITS_SUBJECT_EN.search(sentence):
            # The page says it of the subject, or of something in a sentence that names it; or says it of its
            # own subject ("… is more common in developing nations"), which may be the claim's in other words.
            return None
        elsewhere = elsewhere or (passage, sentence)
    if elsewhere is None:
        return None
    passage, sentence = elsewhere
    return Finding("unsupported", "said_of_another", 0.75, (match["word"],),
                   where=Passage(passage.label, sentence.strip(), passage.features))


# A predicate of another sentence, as much as the claim borrows: 「…で、いずれもEU加盟国中第1位となっている」.
_BORROWED_AT_LEAST_JA = 8
# Words that say a predicate of the figures of their own sentence (both, each, in all): a claim that borrows one
# with its predicate says it of its own figures. Two facts of two sentences joined are often both true.
_OF_THESE_FIGURES_JA = re.compile(r"いずれも|ともに|共に|それぞれ|両者|双方|合わせて|合計")
_DIGITS = re.compile(r"\d[\d,.]*\d|\d")


def predicate_of_other_figures(read: ClaimEvidence) -> Finding | None:
    """(ja) A claim that gives the figures of one sentence of its page what the page's next sentences
    say of other figures: 「2005年の日本からオランダへの輸出は1兆5,076億円、オランダから日本への輸入は2,439億円で、
    いずれもEU加盟国中第1位となっている」 against «…2005年の貿易額は、日本からオランダへの輸出が1兆5,076億円、オランダ
    から日本への輸入が2,439億円。2004年の直接投資は、日本からオランダが7,764億円、オランダから日本が3,164億円で、
    いずれもEU加盟国中第1位となっている。» (JSQuAD v1.3 valid, `research bench jsquad --sample 5 --seed 114`, the real
    1.5B model's finding; supported: every word and figure on the page). The claim's figures are all in one
    sentence, and what it adds to that sentence (at least ``_BORROWED_AT_LEAST_JA`` letters, two words that
    sentence lacks, a word that speaks of its sentence's figures: いずれも, それぞれ) another sentence of the passage
    says of figures the claim does not give. Decided against, that sentence quoted. (Tried in English over RAGTruth
    without that word: most claims it fired on joined two true sentences, steps of a recipe above all.)"""
    if read.language != "ja" or not read.assembled:
        return None
    figures = [m for m in read.mentions if any(c.isdigit() for c in m.text)]
    if len(figures) < 2:
        return None
    claim = read.claim.strip()
    claim_digits = set(_DIGITS.findall(claim))
    marks = {"#" + value for mention in figures for value in mention.values}
    for source in read.cited:
        for at, passage in enumerate(source.passages):
            if passage.field or not passage.features & marks:
                continue
            found = _predicate_of_other_figures_in(claim, claim_digits, figures, passage,
                                                   source.passages[max(0, at - 1):at + 2])
            if found is not None:
                return found
    return None


def _predicate_of_other_figures_in(claim: str, claim_digits: set[str], figures: list[NumberMention],
                                   passage: Passage, around: list[Passage]) -> Finding | None:
    """``predicate_of_other_figures`` for the sentences of one passage, the other sentence in it or in a
    passage next to it (a page's paragraph may be read as passages of one sentence each)."""
    nearby = [(near, near.text[start:end].strip()) for near in around if not near.field
              for start, end in sentence_spans(near.text)]
    for start, end in sentence_spans(passage.text):
        home = passage.text[start:end].strip()
        added = _added_to(claim, home)
        at_home = [m for m in figures if not _written_in(m, added)]
        held = NumberSet.of(home)
        if not added or len(at_home) < 2 or not all(held.contains(m) for m in at_home):
            continue
        home_terms = _sentence_terms(home)
        for near, other in nearby:
            if other == home or not set(_DIGITS.findall(other)) - claim_digits:
                continue  # the other sentence's own figures: some the claim does not give
            borrowed = max((_longest_common(piece, other) for piece in added), key=len, default="")
            if len(borrowed) >= _BORROWED_AT_LEAST_JA and _OF_THESE_FIGURES_JA.search(borrowed) \
                    and len(_sentence_terms(borrowed) - home_terms) >= 2:
                return Finding("unsupported", "said_of_another", 0.8, (borrowed,),
                               where=Passage(near.label, other, near.features))
    return None


def _added_to(claim: str, sentence: str) -> list[str]:
    """The stretches of ``claim`` that ``sentence`` does not write (matches of three letters or more
    count as written)."""
    matcher = difflib.SequenceMatcher(None, claim, sentence, autojunk=False)
    pieces, at = [], 0
    for block in matcher.get_matching_blocks():
        if block.size >= 3 or block.size == 0:
            if block.a > at:
                pieces.append(claim[at:block.a])
            at = max(at, block.a + block.size)
    return [piece for piece in pieces if piece.strip(" 、。，．")]


def _written_in(figure: NumberMention, pieces: list[str]) -> bool:
    return any(value in piece.replace(",", "") for piece in pieces for value in figure.values)


def _longest_common(piece: str, other: str) -> str:
    match = difflib.SequenceMatcher(None, piece, other, autojunk=False).find_longest_match(0, len(piece), 0, len(other))
    return piece[match.a:match.a + match.size]


# 「講師資格試験が実施されるようになった年は1967年（昭和42年）からです」: the time a clause happened, said as what its
# time noun is (the answer to 「何年からか」); read as 「1967年（昭和42年）から講師資格試験が実施されるようになった」.
_TIME_OF_A_CLAUSE_JA = re.compile(r"^(?P<clause>[^。]{4,}?[たるいす])(?:年|月|日|時期)は(?P<time>[^、。はが]*?\d[^、。はが]*?)"
                                  r"(?P<from>から|より)?(?:です|である|だ)[。．]?$")
# 「ハノーファー（）は、…」: brackets a page's reading or pronunciation was taken out of, which hold nothing.
_EMPTY_BRACKETS = re.compile(r"[（(]\s*[）)]")


def roles_unconfirmed(read: ClaimEvidence) -> Finding | None:
    """(ja) The claim's participants stand with its predicate where the passages read have that
    predicate: all of them together, so that a passage without the predicate cannot vouch for a
    participant another passage gives to another clause (「オランダは、金属工業と石油化学工業を確立した」
    against 「…20世紀に入って金属工業を確立した。」 and a sentence naming 石油化学工場 apart)."""
    if read.language != "ja":
        return None
    claim = read.claim.strip()
    timed = _TIME_OF_A_CLAUSE_JA.match(claim)
    if timed is not None:
        claim = f"{timed['time']}{timed['from'] or 'に'}{timed['clause']}。"
    texts = {id(p): _EMPTY_BRACKETS.sub("", p.text) for p in read.assembled}
    topics = {id(p): _page_topic(read, p) for p in read.assembled}
    if not any(japanese_roles_confirmed(claim, _what_this_refers_to_said(texts[id(p)]), page_topic=topics[id(p)])
               for p in read.assembled):
        return Finding("uncertain", "roles_unconfirmed")
    # The copula and 有る/居る are left to the passage that confirms them: the reading of a
    # copula continued by で (「最後の噴火は…宝永噴火で、江戸にも…」) is too loose to hold against.
    together = _what_this_refers_to_said(
        "\n".join(texts[id(p)] if _ENDS_A_SENTENCE.search(p.text) else texts[id(p)] + "。" for p in read.assembled))
    named = [topic for topic in topics.values() if topic is not None]
    if not japanese_roles_confirmed(claim, together, skip=_LIGHT_PREDICATES,
                                    page_topic=(lambda noun: any(topic(noun) for topic in named)) if named else None):
        return Finding("uncertain", "roles_unconfirmed")
    return None


# 「拍の周期の長短によって、音楽の速度を感じる。これをテンポという。」: a sentence that names what the one before it says.
_THIS_OF_THE_SENTENCE_BEFORE_JA = re.compile(
    r"(?P<before>[^。！？\n]{4,}?[^だ。！？\n])。\s*(?:これ|それ|このこと|そのこと)(?P<particle>を|は|が)(?P<rest>[^。！？\n]+[。！？])")


def _what_this_refers_to_said(text: str) -> str:
    """(ja) ``text`` with each sentence that names what the sentence before it says (「…を感じる。これをテンポという。」) said
    once more with that sentence in its place (「…を感じることをテンポという。」), so that a claim that says both as one
    (the real 1.5B model's 「拍の周期の長短によって、音楽の速度を感じることをテンポという」, the page's answer to JSQuAD's
    「…音楽の速度を感じることを何というか」, `research bench jsquad --seed 141`) lines up with a clause of the page."""
    joined = [f"{m['before'].strip()}こと{m['particle']}{m['rest']}" for m in _THIS_OF_THE_SENTENCE_BEFORE_JA.finditer(text)]
    return text if not joined else text.rstrip() + ("" if _ENDS_A_SENTENCE.search(text) else "。") + "".join(joined)


def _page_topic(read: ClaimEvidence, passage: Passage) -> Callable[[str], bool] | None:
    """Whether a noun names what the page of ``passage`` is about (every word of it in the
    headings above), where nothing before the passage under them names another subject: the
    subject a Japanese page leaves to its title. None where it cannot be read so."""
    if not passage.headings or passage.heading:
        return None
    def names_the_page(noun: str) -> bool:
        words = _sentence_terms(noun)
        return bool(words) and words <= passage.headings

    source = next((s for s in read.cited if s.label == passage.label), None)
    before = source.passage_before(passage) if source is not None else None
    if before is not None and not before.heading:
        reading = read_japanese(before.text)
        if reading is None or not all(names_the_page(noun) for c in reading.clauses for role in ("subj", "topic")
                                      for noun in c.args.get(role, set())):
            return None
    return names_the_page


_ENDS_A_SENTENCE = re.compile(r"[。．！？!?]\s*$")
_LIGHT_PREDICATES = frozenset({"有る", "居る", "為る", "成る"})


def value_unbound(read: ClaimEvidence) -> Finding | None:
    """The passage gives several values of this kind and the claim's is not in the sentence
    that says what the claim says: which thing it measures is for the judge. Said as the
    figure or the term the source does not give (for this), in the reasons' own words."""
    unbound = next((b for b in read.bindings if b.outcome == "unbound"), None)
    if unbound is None:
        return None
    reason = "number_missing" if unbound.kind == "number" else "missing_term"
    return Finding("uncertain", reason, 0.5, (unbound.claim_value,), unbound)


# One fact given as the cause, the consequence or the purpose of another: "…, so …", "… because …",
# 「…ので…」. "since" is left out: as often a time ("since 2010") as a cause.
_LINK_EN = re.compile(r",\s+(?:so|thus|therefore|hence|which means|meaning)\s+|\s+because\s+|,?\s+as a result,?\s+"
                      r"|\s+(?:due to|owing to|as a result of|leading to|resulting in)\s+"
                      r"|(?<=\w)\s+(?:also\s+|therefore\s+)?(?:means|meant)\s+that\s+", re.IGNORECASE)
# "X means that Y" makes X itself the cause, and X is often one noun ("The GIL also means that
# single-threaded code runs slower…", the real 1.5B model, of a page where the build without the
# GIL is the slower one): one word of it is a side.
_MEANS_THAT = re.compile(r"\b(?:means|meant)\s+that\b", re.IGNORECASE)
_LINK_JA = re.compile(r"ので|ため、|ことから、|結果、")
# The words with which a page opens a sentence that follows from the one before it ("As a
# result, …", 「そのため…」); a "so" inside the sentence links its own clauses, not the one before.
_LINKING_EN = re.compile(r"^\W*(?:and\s+)?(?:so|thus|therefore|hence|consequently|as a result|because of (?:this|that)|"
                         r"this (?:means|is why|leads to|results in|makes)|that is why|for this reason)\b", re.IGNORECASE)
_LINKING_JA = re.compile(r"^\W*(?:そのため|このため|したがって|よって|その結果|これにより|それにより|そこで|だから)")


def _holds_half_of_each(sides: Iterable[frozenset[str]], words: frozenset[str], share: float = 0.5) -> bool:
    """Whether ``words`` (a sentence's) hold half (``share``) of each side: what two parts of a claim
    say is said together there (a link, a cleft, a copula and its subject)."""
    return all(len(side & words) >= share * len(side) for side in sides)


def link_unstated(read: ClaimEvidence) -> Finding | None:
    """The claim links two facts ("The standard build … still has the GIL enabled by default, so
    single-threaded code runs somewhat slower in the free-threaded build", the real 1.5B model on
    the GIL question) that its sources state apart and never link: each side alone is supported,
    the "so" is not. Linked is: one sentence holding half the words of each side, or a sentence
    and the one before it when the later one opens with a link ("As a result, …"). Left to the judge,
    never to the choosing one (its choice is of wording, and the link is no wording)."""
    ja = read.language == "ja"
    link = (_LINK_JA if ja else _LINK_EN).search(read.claim)
    if link is None:
        return None
    before, after = features(read.claim[: link.start()]) & read.wanted, features(read.claim[link.end():]) & read.wanted
    # What each side says that the other does not: 「東京では夏に雨が多いので、東京の夏は湿度が高い」
    # is linked only where 雨 and 湿度 are, wherever 東京 and 夏 are.
    sides = [before - after, after - before]
    # A cause of one word is found in many a sentence about the same things (the GIL's page has
    # "the GIL is disabled" beside "free-threaded build", "run" and "code"): what it is said to
    # cause must then be there nearly whole, not half.
    one_word_cause = _MEANS_THAT.search(link.group(0)) is not None and len(sides[0]) == 1
    if any(len(side) < (1 if one_word_cause else 2) for side in sides):
        return None
    share = 2 / 3 if one_word_cause else 0.5
    linking = _LINKING_JA if ja else _LINKING_EN
    for source in read.cited:
        for passage in source.passages:
            if passage.heading:
                continue
            words = passage.features | passage.headings
            if _holds_half_of_each(sides, words, share):
                return None
            previous = source.passage_before(passage)
            if previous is not None and not previous.heading and linking.search(passage.text) \
                    and _holds_half_of_each(sides, words | previous.features | previous.headings, share):
                return None
    return Finding("uncertain", "link_unstated", 0.5, (link.group(0).strip(" ,、"),))


# 「Xの略称は「Y」です」, 「XはYと略される」, 「YはXの略称である」; "The abbreviation of X is Y", "X is
# abbreviated as Y", "Y stands for X". Anchored: a sentence that says more is read by the other checks.
_ABBREVIATION_JA = (
    re.compile(r"^(?P<name>[^、。「」は]+?)の(?:略称|略語|略号|略)は、?「?(?P<short>[^「」、。]+?)」?(?:です|である|だ)?。?$"),
    re.compile(r"^(?P<name>[^、。「」]+?)は、?「?(?P<short>[^「」、。]+?)」?と(?:略される|略されます|略されている|略す|略称される)。?$"),
    re.compile(r"^「?(?P<short>[^「」、。は]+?)」?は、?(?P<name>[^、。「」]+?)の(?:略称|略語|略号|略)(?:です|である|だ)?。?$"),
)
_QUOTED_WORD_EN = r"[\"“'‘]?(?P<short>[^\s\"”'’]+?)[\"”'’]?"
_ABBREVIATION_EN = (
    re.compile(r"^(?:the )?(?:abbreviation|acronym|short form) (?:of|for) (?P<name>[^,;]+?) is " + _QUOTED_WORD_EN
               + r"\.?$", re.IGNORECASE),
    re.compile(r"^(?P<name>[^,;]+?) is (?:commonly |usually |often )?(?:abbreviated|shortened)(?: as| to)? "
               + _QUOTED_WORD_EN + r"\.?$", re.IGNORECASE),
    re.compile(r"^" + _QUOTED_WORD_EN + r" (?:stands for|is short for|is (?:an|the) (?:abbreviation|acronym) (?:of|for)) "
               r"(?P<name>[^,;]+?)\.?$", re.IGNORECASE),
)


def abbreviation_given(read: ClaimEvidence) -> Finding | None:
    """A claim that gives a name's abbreviation, which its page writes in brackets right after the
    name (or the name in brackets after it): 「リボ核酸の略称は「RNA」です」 against «…リボ核酸（RNA）や…» (JSQuAD v1.3
    valid, `research bench jsquad --seed 97`, the real 1.5B model's answer to 「リボ核酸の略称は何か」, left not
    checked for 略称, a word the page does not write, and taken out). Supported, that passage shown."""
    plain = read.claim.strip()
    match = next((found for pattern in (_ABBREVIATION_JA if read.language == "ja" else _ABBREVIATION_EN)
                  if (found := pattern.match(plain)) is not None), None)
    if match is None:
        return None
    name = re.sub(r"^the\s+", "", match["name"].strip(), flags=re.IGNORECASE)
    short = match["short"].strip()
    if not name or not short or len(short) >= len(name):
        return None
    # The name whole: デオキシリボ核酸（DNA） gives no abbreviation of リボ核酸.
    whole, close = r"(?<![\w\u30a0-\u30ff\u4e00-\u9fff-])", r"\s*[)）、,;；]"
    bracketed = re.compile(rf"{whole}{re.escape(name)}\s*[（(]\s*{re.escape(short)}{close}"
                           rf"|{whole}{re.escape(short)}\s*[（(]\s*{re.escape(name)}{close}", re.IGNORECASE)
    for source in read.cited:
        for passage in source.passages:
            if bracketed.search(passage.text):
                return Finding("supported", "supported", 0.9, where=passage)
    return None


# 「…国営のメーカーの名前は「ビア・ラオ」です」: a name said of what a noun phrase describes.
_NAME_OF_JA = re.compile(r"^(?P<described>[^。]+?)の(?:名前|名称|名)は[「『]?(?P<name>[^「」『』。、]{1,40}?)[」』]?"
                         r"(?:です|である|だ|といいます|という)[。．]?$")
_HEAD_NOUN_JA = re.compile(r"[\u30a0-\u30ff\u4e00-\u9fff]+$")


def name_given_in_brackets(read: ClaimEvidence) -> Finding | None:
    """(ja) A claim that gives the name of what it describes, where a cited sentence writes that name
    in brackets right after the description's head noun and holds every word of the description:
    「ビールや清涼飲料水などを生産する国営のメーカーの名前は「ビア・ラオ」です」 against «…ビールや清涼飲料水などを
    生産する国営のメーカー「ビア・ラオ」が目立つ程度であった。» (JSQuAD v1.3 valid, `research bench jsquad --seed 105`,
    the real 1.5B model's answer, left not checked for 名前, a word the page does not write); or without brackets,
    the name set right after the head noun as a title is: 「エチオピア皇帝の名前はハイレ・セラシエ1世です」 against
    «ただしエチオピア皇帝ハイレ・セラシエ1世はこれを認めず、…» (`--seed 107`). Supported, that sentence shown."""
    if read.language != "ja":
        return None
    match = _NAME_OF_JA.match(read.claim.strip())
    if match is None:
        return None
    described, name = match["described"].strip(), match["name"].strip()
    head = _HEAD_NOUN_JA.search(described)
    wanted = _sentence_terms(described)
    if head is None or not name or not wanted:
        return None
    # In brackets, or bare where the name ends at a particle or a stop: «皇帝ハイレ・セラシエ1世は», not «皇帝ハイレ…の息子».
    written = re.compile(rf"{re.escape(head.group(0))}(?:\s*[「『（(]\s*{re.escape(name)}\s*[」』）)]"
                         rf"|{re.escape(name)}(?=[はがもを、。，．]))")
    for passage, sentence in _cited_sentences(read):
        if written.search(sentence) and wanted <= _sentence_terms(sentence):
            return Finding("supported", "supported", 0.9, where=Passage(passage.label, sentence.strip(), passage.features))
    return None


# 「拍子のないリズムは「自由リズム」と呼ばれる」: the name a noun phrase is called by.
# A bare name holds no particle of the sentence: in 「…その総量は増えたり減ったりしないという法則を…保存則と呼ぶ」 the name
# is not 「増えたり…法則を…保存則」.
_CALLED_SO_JA = re.compile(r"^(?P<described>[^。]+?)(?:は|を)(?:[「『](?P<name>[^「」『』。]{1,30}?)[」』]|"
                           r"(?P<bare>[^「」『』。、をは]{1,30}?))と"
                           r"(?:呼ばれる|呼ばれている|呼ばれます|呼ぶ|呼んでいる|いう|言う|称する|称される)[。．]?$")
# «これを自由リズムと呼ぶことがある。»: a page's name for what its sentence before says.
# «この法則を力学的エネルギー保存則と呼ぶ。»: the same, pointing back with the kind of thing it names.
_THIS_IS_CALLED_JA = re.compile(r"^(?:これ|それ|このこと|この(?P<kind>法則|現象|状態|方法|理論|原理|関係|性質|仕組み|効果|"
                                r"考え方|過程|作用|手法|技術|形式|構造|傾向|説|病気|症状))(?:を|は)[「『]?"
                                r"(?P<name>[^「」『』。、]{1,30}?)[」』]?と(?:呼ぶ|呼ばれる|呼んでいる|いう|言う|称する|称される)")
# 「物理学で、…」: the field a claim frames its description with.
_FIELD_FRAME_JA = re.compile(r"^[^、。]{1,8}学(?:で|では|において)[、,]")


def name_given_to_the_sentence_before(read: ClaimEvidence) -> Finding | None:
    """(ja) A claim that gives the name of what it describes, where the page names it so in a sentence
    that points back at the one before it, which writes the description as the claim does: 「拍子のないリズムは
    「自由リズム」と呼ばれる」 against «また、拍子のないリズムも存在する。これを自由リズムと呼ぶことがある。» (JSQuAD v1.3
    valid, `research bench jsquad --seed 106`, the real 1.5B model's answer, left not checked: これ, not
    拍子のないリズム, is what the page's sentence calls so). Supported, the two sentences shown."""
    if read.language != "ja":
        return None
    match = _CALLED_SO_JA.match(without_leading_connective(read.claim.strip()))
    if match is None:
        return None
    # The description as the sentence before writes it: its words alone would let 拍子のあるリズム pass.
    described = squeezed(_FIELD_FRAME_JA.sub("", match["described"].strip()))
    name = squeezed(match["name"] or match["bare"])
    if not described or not name:
        return None
    for source in read.cited:
        # Consecutive sentences, within a passage or across two (a page's paragraph may be one passage).
        sentences = _sentences_of(source.passages)
        for (_, before), (passage, this) in zip(sentences, sentences[1:]):
            called = _THIS_IS_CALLED_JA.match(without_leading_connective(this.strip()))
            if called is None or squeezed(called["name"]) != name:
                continue
            # 「…しないという法則を」 for «この法則を»: the kind the page points back with is no part of the description.
            kind = called["kind"]
            said = re.sub(rf"(?:という|とする|との)?{kind}$", "", described) if kind else described
            if said and said in squeezed(before):
                return Finding("supported", "supported", 0.85,
                               where=Passage(passage.label, f"{before.strip()} {this.strip()}", passage.features))
    return None


CHECKS: tuple[Callable[[ClaimEvidence], Finding | None], ...] = (
    languages_differ,
    abbreviation_given,  # before the word checks: a page in brackets writes no word for "abbreviation"
    name_given_in_brackets,  # nor one for "name"
    name_given_to_the_sentence_before,  # nor the thing named where it says これ
    figure_contradicted,
    figure_of_another_instance,
    day_of_another_event,
    day_of_birth_or_death_in_brackets,
    year_of_a_name_in_brackets,
    nothing_to_compare,
    unrelated,
    misquoted,
    value_contradicted,
    polarity_conflicts,  # before structure: a sure opposite word for word is decided, not left to the judge
    direction_given_to_another,
    excepted_from_all,
    exception_to_what_holds_regardless,
    figure_of_a_parallel_subject,
    predicate_of_other_figures,
    figures_of_two_groups_swapped,
    level_given_as_a_change,
    period_on_another_side,
    compared_with_a_group_that_had_it_too,
    superlative_of_another,
    superlative_in_another_respect,
    comparison_no_page_makes,
    most_often_unsaid,
    item_of_another_scope,
    strength_the_coefficient_denies,
    cause_and_effect_exchanged,
    none_of_a_group_the_page_counts,
    items_the_page_says_are_done_ja,
    structure_conflicts,
    mostly_absent,
    name_of_another,  # before term_missing: the name the page gives instead decides it
    modifier_of_another,
    modifier_noun_of_another,
    item_of_no_list,
    bracketed_term_of_another,
    topic_of_another,  # before the topic checks, which leave it to the judge
    predicate_of_the_pages_topic_ja,
    predicate_of_another,
    prevalence_of_another,
    name_given_to_another,
    figure_missing,
    term_missing,
    qualifier_dropped,
    group_dropped,
    open_question_in_other_words,  # before partial_overlap, whose claims the judge is asked about
    partial_overlap,
    field_differs,
    negation_differs,
    stance_differs,
    topic_unconfirmed,
    topic_made_narrower,
    topic_exchanged,
    told_apart,
    complement_apart,
    cleft_apart,
    subject_exchanged,
    roles_unconfirmed,
    value_unbound,
    foreign_name_of_another,  # what the page tells apart (told_apart) is decided against before
    answer_in_a_word_unwritten,  # last: only a yes the other checks would let stand
)


_FIELD = re.compile(r"^(?P<key>[^:]+):\s*(?P<value>yes|no|none|false|true|null)$", re.IGNORECASE)
_NEGATION_BEFORE = re.compile(r"\b(no|not|without|nor|neither|lacks?|lacking|doesn['’]t|don['’]t|isn['’]t|aren['’]t)\b"
                              r"(?:\W+\w+){0,7}\W*$", re.IGNORECASE)


def _attribute_named(key: str, lowered: str) -> re.Match[str] | None:
    """Where the lower-cased claim names the attribute of a record's field key: its last word ("attributes outdoor
    seating" → "seating"), or, where that word is the words before it run together ("good for groups goodfor",
    "wi fi wifi", "take out takeout"), those words as written apart or hyphened: "…, and good for groups" against
    ``restaurants good for groups goodfor: no`` (RAGTruth train 8174, hallucinated, was supported)."""
    words = key.lower().split()
    attribute = words[-1]
    found = re.search(rf"\b{re.escape(attribute)}\w*", lowered)
    if found is not None:
        return found
    for start in range(len(words) - 1):
        for end in range(start + 2, len(words)):
            if "".join(words[start:end]) == attribute:
                written = r"[\s-]*".join(re.escape(word) for word in words[start:-1])
                return re.search(rf"\b{written}\w*", lowered)
    return None


def _field_problem(claim: str, assembled: list[Passage]) -> tuple[str, Passage, bool] | None:
    """A record's yes/no field read the other way: "takes reservations" against
    ``reservations: no``, "no music" against ``music: yes``; or a field the record leaves
    empty (``street: None``) stated as a fact."""
    lowered = claim.lower()
    unknown: tuple[str, Passage, bool] | None = None
    for passage in assembled:
        match = _FIELD.match(passage.text) if passage.field else None
        if match is None:
            continue
        found = _attribute_named(match["key"], lowered)
        if found is None:
            continue
        value = match["value"].lower()
        # The negation of this attribute's own clause: "does not take reservations and has a
        # casual ambience" denies the reservations, not the ambience; "WiFi is not available".
        negated = _field_negated(lowered[: found.start()], lowered[found.end():])
        if value in ("none", "null"):
            # The record does not say: a claim that denies it, or says it is not given, is
            # for the judge; one that affirms it states what the record does not.
            if negated or _NOT_GIVEN.search(lowered):
                unknown = unknown or ("field_unknown", passage, False)
                continue
            return "field_unknown", passage, True
        if (value in ("no", "false")) != negated:
            return "field_contradicted", passage, True
    return unknown


# Where the clause that names an attribute starts: "does not take reservations and has a casual
# ambience" denies the reservations, not the ambience.
_FIELD_CLAUSE_BREAK = re.compile(r";|\bbut\b|\bhowever\b|"
                                 r"(?:,\s*|\s)and\s+(?=(?:(?:only|also|still)\s+)?(?:it|they|there|has|have|is|are|offers?|"
                                 r"provides?|takes?|accepts?|allows?|features?|serves?|does|do)\b)|"
                                 r",\s*(?=(?:the|it|they|there|this|its|their)\b)")
# A claim that says the record does not give it: "Music and WiFi are not specified."
_NOT_GIVEN = re.compile(r"\b(?:not (?:specified|mentioned|given|listed|stated|provided|known|clear|indicated)|unknown|"
                        r"unspecified|no information)\b")
# A subordinate clause ends at its comma: "While they do not have a garage or lot, street parking is
# available" affirms the street parking.
_SUBORDINATE = re.compile(r"\b(?:while|although|though|whereas|if|since|because)\b")
# "WiFi is not available", "valet or validated parking is not available", "WiFi: no".
_NEGATION_AFTER = re.compile(r"^\w*(?:\s+(?!but\b|and\b|while\b|though\b|although\b)[\w-]+){0,3}\s+"
                             r"(?:(?:is|are|was|were)\s+(?:not|never)\b|(?:isn['’]t|aren['’]t|wasn['’]t|weren['’]t)\b|"
                             r"(?:is|are)\s+unavailable\b)|^\w*\s*:\s*(?:no|none)\b")


def _field_negated(before: str, after: str) -> bool:
    """Whether the claim denies the attribute whose name ends ``before`` and starts ``after``
    (lower case): a negation in its own clause before it, or right after it."""
    subordinate = None
    for subordinate in _SUBORDINATE.finditer(before):
        pass
    if subordinate is not None and "," in before[subordinate.end():]:
        before = before[before.rindex(",") + 1:]
    clause = _FIELD_CLAUSE_BREAK.split(before)[-1]
    return bool(_NEGATION_BEFORE.search(clause) or _NEGATION_AFTER.match(after))


def _structural_conflict(
    claim: str, language: Language, assembled: list[Passage], words: frozenset[str], found: frozenset[str],
    key: frozenset[str] = frozenset(),
) -> tuple[str, str, Passage] | None:
    """(kind, detail, passage) when the passages that share the claim's words contradict its
    structure. In English ``role_swap`` is only two terms exchanged in a sentence that is
    otherwise the claim word for word; an exchange read from the order of content words alone
    is ``role_unclear``, for the judge."""
    if not assembled:
        return None
    if language == "ja":
        for passage in assembled:
            conflict = japanese_conflict(claim, passage.text)
            if conflict is not None:
                return (*conflict, passage)
        return None
    unclear = None
    for passage in assembled:
        if passage.field:
            continue
        exchanged = english_exchange(claim, passage.text)
        if exchanged is not None:
            first, second, sure = exchanged
            if sure:
                return "role_swap", f"{first}/{second}", passage
            unclear = unclear or ("role_unclear", f"{first}/{second}", passage)
    if unclear is not None:
        return unclear
    for passage in assembled:
        swap = english_role_swap(claim, passage.text, set(key)) or english_comparison_reversed(claim, passage.text)
        if swap is not None:
            return "role_unclear", "/".join(swap), passage
    contrast = english_contrast(set(words), set(found))
    if contrast is not None and len(words & found) >= max(2, int(len(words) * 0.75)):
        return "contrast", "/".join(contrast), assembled[0]
    return None

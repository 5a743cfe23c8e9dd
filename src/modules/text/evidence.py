"""The verifier's cheap checks: does the cited source say what the claim says?

Three checks, in this order, none of which needs a model:
1. the cited labels exist in the ledger (and the document was actually read);
2. lexical overlap between the claim and each passage (one sentence, or two adjacent ones)
   of the cited documents: character bigrams for Japanese, which has no spaces between
   words, and word tokens without stop words for English;
3. every number in the claim, with its unit, appears in the chosen evidence. "3,776",
   "３７７６" and "3776" are one number; "1707年" matches "1707"; "2万" matches "20,000".
   A number the source does not contain makes the claim unsupported whatever the overlap:
   a sentence that copies a source but changes its date is the error we must not let by.

The result is a verdict with a confidence, the evidence passage, and whether it is
borderline (close to a threshold, or claim and source in different languages, where word
overlap says little): only borderline claims go to the model as judge.
"""

from __future__ import annotations

import math
import re
import unicodedata
from dataclasses import dataclass, field
from decimal import Decimal, InvalidOperation
from typing import Any

from research.modules.text.claims import CITATION_GROUP, Claim, plain_text, sentence_spans
from research.modules.core.language import detect_language

SUPPORTED_AT = 0.6  # share of the claim's content found in one passage
PARTLY_AT = 0.35
BORDERLINE_MARGIN = 0.12  # a score this close to a threshold is for the judge to decide
_MAX_CANDIDATES = 3  # passages shown to the judge per claim

_STOP_WORDS = frozenset(
    """a an the and or but if then than so as of in on at to for from by with about into over
    after before between during under above is are was were be been being am do does did has
    have had having it its it's this that these those there here which who whom whose what when
    where why how not no nor can could may might must shall should will would also very more
    most such only own same other some any each few both all just too i you he she we they me
    him her us them my your his our their one s t according says said""".split()
)

_JAPANESE_RUN = re.compile(r"[\u3040-\u309f\u30a0-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff々〆ヵヶー]+")
_HIRAGANA_ONLY = re.compile(r"^[\u3040-\u309fー]+$")
_WORD = re.compile(r"[a-zà-ɏ][a-zà-ɏ0-9'’\-]*")  # Latin with accents: "hōei"

# --- numbers -------------------------------------------------------------------------------

_THOUSANDS = re.compile(r"(?<![\d.])(\d{1,3})((?:,\d{3})+)(?![\d])")
_MULTIPLIERS = {
    "千": 10**3, "万": 10**4, "億": 10**8, "兆": 10**12,
    "thousand": 10**3, "million": 10**6, "billion": 10**9, "trillion": 10**12,
}
# Units that may follow a number, folded to one name per dimension so "3776 m" and
# "3776メートル" agree and "3776 km" does not.
_UNITS = {
    "km": "km", "kilometers": "km", "kilometres": "km", "kilometer": "km", "kilometre": "km", "キロメートル": "km",
    "m": "m", "meters": "m", "metres": "m", "meter": "m", "metre": "m", "メートル": "m",
    "cm": "cm", "センチメートル": "cm", "センチ": "cm", "mm": "mm", "ミリメートル": "mm",
    "kg": "kg", "kilograms": "kg", "キログラム": "kg", "g": "g", "grams": "g", "グラム": "g",
    "t": "t", "tons": "t", "tonnes": "t", "トン": "t",
    "%": "%", "percent": "%", "per cent": "%", "パーセント": "%",
    "年間": "year", "年": "year", "years": "year", "year": "year",
    "か月": "month", "ヶ月": "month", "カ月": "month", "months": "month", "month": "month", "月": "month",
    "日間": "day", "日": "day", "days": "day", "day": "day",
    "時間": "hour", "hours": "hour", "hour": "hour",
    "℃": "celsius", "°c": "celsius", "度": "degree",
    "人": "people", "people": "people", "persons": "people", "名": "people",
    "円": "yen", "yen": "yen", "ドル": "usd", "dollars": "usd", "usd": "usd",
}
_UNIT_PATTERN = "|".join(sorted((re.escape(u) for u in _UNITS), key=len, reverse=True))
_MULT_PATTERN = "|".join(_MULTIPLIERS)
_NUMBER = re.compile(
    rf"(?<![a-z0-9.])(\d+(?:\.\d+)?)(?![\d])\s?(?:({_MULT_PATTERN})(?![a-z]))?\s?(?:({_UNIT_PATTERN})(?![a-z]))?"
)
_MONTHS = {
    name: i + 1
    for i, names in enumerate(
        [("january", "jan"), ("february", "feb"), ("march", "mar"), ("april", "apr"), ("may",),
         ("june", "jun"), ("july", "jul"), ("august", "aug"), ("september", "sep", "sept"),
         ("october", "oct"), ("november", "nov"), ("december", "dec")]
    )
    for name in names
}
# A month name counts as its number only next to a day or year: "May 5", "5 May 2024".
_MONTH_IN_DATE = re.compile(
    r"\b(" + "|".join(_MONTHS) + r")\.?\s+\d{1,4}\b|\b\d{1,2}\s+(" + "|".join(_MONTHS) + r")\b"
)


@dataclass(frozen=True)
class NumberMention:
    values: frozenset[str]  # canonical spellings: "2" and "20000" for "2万"
    unit: str | None
    text: str


def normalise(text: str) -> str:
    """NFKC (full-width digits and letters to ASCII), lower case, no thousands separators."""
    text = unicodedata.normalize("NFKC", text).lower()
    return _THOUSANDS.sub(lambda m: m.group(1) + m.group(2).replace(",", ""), text)


def _canonical(number: str) -> str:
    try:
        return format(Decimal(number).normalize(), "f")
    except InvalidOperation:  # pragma: no cover - the regex only passes digits
        return number


def extract_numbers(text: str) -> list[NumberMention]:
    """Numbers in ``text`` with their unit; citation labels and URLs are not numbers."""
    text = CITATION_GROUP.sub(" ", text)
    text = normalise(re.sub(r"https?://\S+", " ", text))
    mentions: list[NumberMention] = []
    for match in _NUMBER.finditer(text):
        raw, multiplier, unit = match.group(1), match.group(2), match.group(3)
        values = {_canonical(raw)}
        if multiplier:
            values.add(_canonical(str(Decimal(raw) * _MULTIPLIERS[multiplier])))
        mentions.append(NumberMention(frozenset(values), _UNITS.get(unit) if unit else None, match.group(0).strip()))
    for match in _MONTH_IN_DATE.finditer(text):
        name = match.group(1) or match.group(2)
        mentions.append(NumberMention(frozenset({str(_MONTHS[name])}), "month", name))
    return mentions


def _number_index(mentions: list[NumberMention]) -> dict[str, set[str | None]]:
    index: dict[str, set[str | None]] = {}
    for mention in mentions:
        for value in mention.values:
            index.setdefault(value, set()).add(mention.unit)
    return index


def _mention_found(mention: NumberMention, evidence: dict[str, set[str | None]]) -> bool:
    for value in mention.values:
        units = evidence.get(value)
        if units is None:
            continue
        # "3776 km" is not "3776 m"; a bare "3776" in the source is enough for either.
        if mention.unit is None or None in units or mention.unit in units:
            return True
    return False


def numbers_match(claim: str, evidence: str) -> bool:
    """Every number in ``claim`` (with its unit) appears in ``evidence``."""
    index = _number_index(extract_numbers(evidence))
    return all(_mention_found(m, index) for m in extract_numbers(claim))


# --- lexical features ------------------------------------------------------------------------


def _stem(word: str) -> str:
    word = word.replace("’", "'").removesuffix("'s")
    if len(word) > 4 and word.endswith("ies"):
        return word[:-3] + "y"
    if len(word) > 5 and word.endswith("ing"):
        return word[:-3]
    if len(word) > 4 and word.endswith("ed"):
        return word[:-2]
    if len(word) > 3 and word.endswith("s") and not word.endswith("ss"):
        return word[:-1]
    return word


def features(text: str) -> frozenset[str]:
    """Content units of ``text``: Japanese character bigrams, English word stems, numbers."""
    text = normalise(CITATION_GROUP.sub(" ", text))
    out: set[str] = set()
    hiragana_bigrams: set[str] = set()
    for run in _JAPANESE_RUN.findall(text):
        if len(run) == 1:
            if not _HIRAGANA_ONLY.match(run):
                out.add(run)
            continue
        for i in range(len(run) - 1):
            bigram = run[i : i + 2]
            # Bigrams of hiragana alone are mostly grammar (です, した, ので): they would make
            # any two Japanese sentences look alike.
            (hiragana_bigrams if _HIRAGANA_ONLY.match(bigram) else out).add(bigram)
    for word in _WORD.findall(text):
        word = word.strip("'-")
        if word and word not in _STOP_WORDS:
            out.add(_stem(word))
    for mention in extract_numbers(text):
        out.update("#" + v for v in mention.values)
    # A claim written in kana only still needs something to match on.
    return frozenset(out or hiragana_bigrams)


def lexical_overlap(claim: str, passage: str) -> float:
    """Share of the claim's content units found in the passage (0..1)."""
    wanted = features(claim)
    if not wanted:
        return 0.0
    return len(wanted & features(passage)) / len(wanted)


# --- the ledger as evidence -----------------------------------------------------------------


@dataclass
class Passage:
    label: str
    text: str
    features: frozenset[str]


@dataclass
class SourceText:
    label: str
    language: str
    passages: list[Passage]
    numbers: dict[str, set[str | None]]


def _passages_of(label: str, document: dict[str, Any]) -> list[Passage]:
    texts: list[str] = []
    for line in str(document.get("markdown") or "").splitlines():
        line = plain_text(line.lstrip("#> ").strip())
        texts.extend(line[s:e] for s, e in sentence_spans(line))
    for extra in list(document.get("snippets") or []) + list(document.get("key_facts") or []):
        texts.extend(str(extra)[s:e] for s, e in sentence_spans(plain_text(str(extra))))
    for table in document.get("tables") or []:
        texts.extend(" ".join(str(cell) for cell in row) for row in table)
    passages, seen = [], set()
    for text in texts:
        text = text.strip()
        if text and text not in seen:
            seen.add(text)
            passages.append(Passage(label, text, features(text)))
    return passages


class EvidenceIndex:
    """The ledger, split into passages once per verification run."""

    def __init__(self, documents: list[dict[str, Any]]) -> None:
        self.known_labels = {str(d.get("label")) for d in documents if d.get("label")}
        self.sources: dict[str, SourceText] = {}
        for document in documents:
            label = str(document.get("label") or "")
            # A document that failed was never read: citing it proves nothing.
            if not label or document.get("status", "ok") != "ok":
                continue
            passages = _passages_of(label, document)
            if not passages:
                continue
            full = " ".join(p.text for p in passages)
            language = document.get("language") or detect_language(full[:4000])
            numbers = _number_index(extract_numbers(full))
            if language not in ("ja", "en"):
                language = detect_language(full[:4000])
            self.sources[label] = SourceText(label, language, passages, numbers)
        # Inverse document frequency over passages: "Fuji" in every passage of a ledger
        # about Mount Fuji says little; "Hōei" in one of them says a lot.
        self._passage_count = sum(len(s.passages) for s in self.sources.values())
        self._document_frequency: dict[str, int] = {}
        for source in self.sources.values():
            for passage in source.passages:
                for unit in passage.features:
                    self._document_frequency[unit] = self._document_frequency.get(unit, 0) + 1

    def weight(self, unit: str) -> float:
        """How much finding ``unit`` in a passage tells (rarer in the ledger: more)."""
        frequency = max(1, self._document_frequency.get(unit, 0))
        return math.log(1.0 + self._passage_count / frequency)

    def coverage(self, wanted: frozenset[str], found: frozenset[str]) -> float:
        total = sum(self.weight(u) for u in wanted)
        return sum(self.weight(u) for u in found) / total if total else 0.0

    def is_valid(self, label: str) -> bool:
        return label in self.sources


@dataclass
class Assessment:
    """The cheap checks' decision on one claim."""

    verdict: str  # supported | partly_supported | unsupported | citation_invalid
    confidence: float
    score: float
    evidence: str = ""
    evidence_label: str | None = None
    borderline: bool = False
    reason: str = ""  # supported | partial_overlap | low_overlap | number_mismatch | ...
    valid_citations: list[str] = field(default_factory=list)
    invalid_citations: list[str] = field(default_factory=list)
    candidates: list[Passage] = field(default_factory=list)  # what the judge gets to read


@dataclass
class _Window:
    label: str
    text: str
    score: float  # weighted share of the claim's content units found here
    numbers_ok: bool


def _windows(
    claim_features: frozenset[str], claim_numbers: list[NumberMention], source: SourceText, index: EvidenceIndex
) -> list[_Window]:
    """Each passage alone and each pair of neighbours: a claim often joins two sentences."""
    covered = [claim_features & p.features for p in source.passages]
    windows = []
    for i, passage in enumerate(source.passages):
        for j in (i, i + 1):
            if j >= len(source.passages) or (j > i and not (covered[i] or covered[j])):
                continue
            text = passage.text if j == i else passage.text + " " + source.passages[j].text
            union = covered[i] | covered[j]
            if not union and claim_numbers == []:
                continue
            numbers = _number_index(extract_numbers(text)) if claim_numbers else {}
            ok = all(_mention_found(m, numbers) for m in claim_numbers)
            windows.append(_Window(source.label, text, index.coverage(claim_features, union), ok))
    return windows


def _confidence_for(score: float, verdict: str) -> float:
    if verdict == "supported":
        return round(min(0.95, 0.5 + (score - SUPPORTED_AT) * 1.25 + 0.1), 2)
    if verdict == "partly_supported":
        return 0.5
    return round(min(0.95, 0.5 + (PARTLY_AT - score) * 1.25 + 0.1), 2)


def assess_claim(claim: Claim, index: EvidenceIndex) -> Assessment:
    """Run the cheap checks on one claim against the documents it cites.

    A claim that cites nothing is checked against the whole ledger, so the verifier can
    still point to a source for it (or flag it). A claim whose citations are all
    invalid is ``citation_invalid`` whatever it says: the model pointed at nothing.
    """
    valid = [label for label in claim.citations if index.is_valid(label)]
    invalid = [label for label in claim.citations if not index.is_valid(label)]
    if claim.citations and not valid:
        return Assessment("citation_invalid", 1.0, 0.0, reason="citation_invalid", invalid_citations=invalid)
    labels = valid or list(index.sources)
    if not labels:
        return Assessment("unsupported", 0.9, 0.0, reason="no_sources", invalid_citations=invalid)

    claim_features = features(claim.plain)
    claim_numbers = extract_numbers(claim.plain)
    windows = [w for label in labels for w in _windows(claim_features, claim_numbers, index.sources[label], index)]
    windows.sort(key=lambda w: (w.score, w.numbers_ok, -len(w.text)), reverse=True)
    ranked_ok = [w for w in windows if w.numbers_ok]
    best_any = windows[0] if windows else None
    best = ranked_ok[0] if ranked_ok else None
    claim_language = detect_language(claim.plain)
    cross_language = all(index.sources[label].language != claim_language for label in labels)
    candidates = [Passage(w.label, w.text, frozenset()) for w in (ranked_ok or windows)[:_MAX_CANDIDATES]]

    def result(verdict: str, score: float, window: _Window | None, reason: str, *, borderline: bool, confidence: float | None = None) -> Assessment:
        return Assessment(
            verdict,
            confidence if confidence is not None else _confidence_for(score, verdict),
            round(score, 3),
            evidence=window.text if window else "",
            evidence_label=window.label if window else None,
            borderline=borderline,
            reason=reason,
            valid_citations=valid,
            invalid_citations=invalid,
            candidates=candidates,
        )

    any_score = best_any.score if best_any else 0.0
    best_score = best.score if best else 0.0
    if claim_numbers:
        in_sources = all(any(_mention_found(m, index.sources[l].numbers) for l in labels) for m in claim_numbers)
        # The passage that talks about the same thing gives another number, and the claim's
        # number is nowhere near as good a match: a changed figure, not a paraphrase.
        if not in_sources or (best_score < PARTLY_AT <= any_score):
            return result("unsupported", any_score, best_any, "number_mismatch", borderline=False, confidence=0.9)
    score, window = best_score, best
    if score >= SUPPORTED_AT:
        verdict, reason = "supported", "supported"
    elif score >= PARTLY_AT:
        verdict, reason = "partly_supported", "partial_overlap"
    else:
        verdict, reason = "unsupported", "low_overlap"
    near = abs(score - SUPPORTED_AT) < BORDERLINE_MARGIN or abs(score - PARTLY_AT) < BORDERLINE_MARGIN
    if cross_language and verdict != "supported":
        reason = "cross_language"
    borderline = near or (cross_language and verdict != "supported") or verdict == "partly_supported"
    return result(verdict, score, window, reason, borderline=borderline)

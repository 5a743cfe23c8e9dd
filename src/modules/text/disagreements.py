"""Where the sources disagree: two read sources giving different values for the same
figure or date, found from evidence already extracted, with the model only for the
borderline pairs.

A *fact* is one value (or several that a sentence gives as one: "3,776 m (12,388 ft)")
in a sentence of a passage relevant to the question, with

- its **dimension** (length, people, yen, date, ...; figures without a unit are left out:
  "14" alone could count anything);
- its **attribute**: the nearest word of a small bilingual lexicon ("tall", "標高" →
  height; "from", "離れ" → distance; "噴火", "erupted" → eruption), plus "last"/"first"
  when the sentence says so, so "the last eruption" is not paired with "an eruption in 864";
- its **subject**: the words before the value (minus attribute words), or the page's
  title when there are none.

Two facts of different sources are compared only on the same dimension and a compatible
attribute. Values *agree* when one is the other rounded to what it wrote ("3.8 km" and
"3,776 m"; "12,388 ft" and "3,776 m"; "1400万人" and "14 million"), or within 10 % when
one says "about"/"約". A pair is **certain** when both attributes are known and equal and
both subjects are the question's own words (or are the same words in one language); it is
**borderline** when the subjects only overlap or one attribute is unknown; otherwise the
facts are about different things and never paired. Certain pairs are reported; borderline
ones only when the model judge says they disagree.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass, field
from decimal import Decimal
from functools import lru_cache
from typing import Any

from research.modules.text.analyser import terms
from research.modules.text.claims import sentence_spans, strip_citations
from research.modules.text.numbers import NumberMention, extract_numbers, prepare
from research.modules.text.passages import rank_passages

_MIN_RELEVANCE = 0.05  # a passage's relative BM25 score below this is not about the question
_MAX_FACTS = 400  # enough for any run's relevant passages; keeps the pairing quadratic cheap
MAX_BORDERLINE = 12  # pairs sent to the judge in its one call
_APPROX_SHARE = Decimal("0.1")  # "about 3.8 km": the exact figure may be up to 10 % away
_ROUNDED_ZEROS_SHARE = Decimal("0.05")  # "3,800 m" may be 3,776 m rounded, "100 km" is not 80 km

# Attributes: a concept and how it is said. English as whole words, Japanese as text.
_ATTRIBUTES: dict[str, tuple[str, str]] = {
    "height": (r"tall|taller|height|high|higher|highest|elevation|altitude|above sea level", "標高|高さ|海抜|高い|最高峰"),
    "distance": (r"distance|away|from|far|south|north|east|west|south-?west|south-?east|north-?west|north-?east",
                 "距離|離れ|から"),
    "length": (r"long|length", "長さ|全長|延長"),
    "depth": (r"deep|depth", "深さ|水深"),
    "width": (r"wide|width|diameter|across", "幅|直径"),
    "area": (r"area", "面積"),
    "population": (r"population|inhabitants|residents|people live", "人口|住民"),
    "visitors": (r"visitors|climbers|tourists|hikers", "来訪者|登山者|観光客|入山者|来場者"),
    "employees": (r"employees|staff|workers", "従業員|社員|職員"),
    "price": (r"price|prices|cost|costs|fee|fees|priced", "価格|料金|費用|値段"),
    "revenue": (r"revenue|sales|turnover", "売上|売り上げ|収益|収入"),
    "temperature": (r"temperature|temperatures", "気温|温度"),
    "eruption": (r"erupt|erupted|erupts|eruption|eruptions", "噴火"),
    "founding": (r"founded|established|founding|establishment", "設立|創業|創立|設置"),
    "birth": (r"born|birth", "生まれ|誕生"),
    "death": (r"died|death", "死去|死亡|没"),
    "opening": (r"opened|opening|launched|launch", "開業|開通|開館|開設"),
    "release": (r"released|release", "発売|公開|リリース"),
    "registration": (r"registered|inscribed|listed|designated|added to", "登録|指定"),
    "completion": (r"completed|built|construction|constructed", "完成|竣工|建設|建造"),
    "duration": (r"lasted|continued|lasting", "続き|続い|期間"),
    "speed": (r"speed|velocity", "速度|時速|速さ"),
    "weight": (r"weighs|weigh|weight|weighed", "重さ|重量"),
}
_COUNTED = ("population", "visitors", "employees")  # attributes that make a bare figure a count
_QUALIFIERS = {"last": (r"last|latest|most recent", "最後|最新|直近"), "first": (r"first|earliest", "最初|初めて")}


def _lexicon(table: dict[str, tuple[str, str]]) -> list[tuple[str, re.Pattern[str]]]:
    return [(name, re.compile(rf"\b(?:{en})\b|{ja}")) for name, (en, ja) in table.items()]


_ATTRIBUTE_PATTERNS = _lexicon(_ATTRIBUTES)
_QUALIFIER_PATTERNS = _lexicon(_QUALIFIERS)
_ATTRIBUTE_REACH = 60  # characters: a keyword further from the value names something else


@lru_cache(maxsize=2)
def _lexicon_terms(japanese: bool) -> frozenset[str]:
    """Terms of the attribute words themselves, so they never count as a subject: of the
    English words, or of the Japanese ones. Built on first use, so that cutting the Japanese
    words (which loads MeCab's dictionary, about 12 MiB) is paid only by a run that meets
    Japanese text."""
    return frozenset(
        t.text
        for table in (_ATTRIBUTES, _QUALIFIERS)
        for en, ja in table.values()
        for word in re.split(r"\||\s", ja if japanese else en.replace("-?", ""))
        if word
        for t in terms(word)
    )


def _is_lexicon_term(text: str) -> bool:
    return text in _lexicon_terms(not text.isascii())


_FEET = re.compile(r"(?<![\d.])(\d+(?:\.\d+)?)\s?(ft|feet|foot|mi|miles|mile)\b")
_IMPERIAL = {"ft": Decimal("0.3048"), "feet": Decimal("0.3048"), "foot": Decimal("0.3048"),
             "mi": Decimal("1609.344"), "miles": Decimal("1609.344"), "mile": Decimal("1609.344")}
_MONTHS = {name: n for n, names in enumerate(
    [("january", "jan"), ("february", "feb"), ("march", "mar"), ("april", "apr"), ("may",), ("june", "jun"),
     ("july", "jul"), ("august", "aug"), ("september", "sep", "sept"), ("october", "oct"), ("november", "nov"),
     ("december", "dec")], start=1) for name in names}
_MONTH = "|".join(sorted(_MONTHS, key=len, reverse=True))
_DATES = (
    (re.compile(r"(?<!\d)(\d{3,4})年(\d{1,2})月(?:(\d{1,2})日)?"), ("y", "m", "d")),
    (re.compile(r"(?<!\d)(\d{4})-(\d{2})-(\d{2})(?!\d)"), ("y", "m", "d")),
    (re.compile(rf"\b(\d{{1,2}})\s+({_MONTH})\.?,?\s+(\d{{4}})\b"), ("d", "m", "y")),
    (re.compile(rf"\b({_MONTH})\.?\s+(\d{{1,2}}),?\s+(\d{{4}})\b"), ("m", "d", "y")),
    (re.compile(rf"\b({_MONTH})\.?\s+(\d{{4}})\b"), ("m", "y")),
    (re.compile(r"(?<![\d.])(\d{3,4})年(?!間|代|度|前|後|以上|以下|近く|ほど)"), ("y",)),
    (re.compile(r"\b(?:in|since|until|till|by|from|during|circa|c\.|around|year)\s+(\d{4})\b(?!\s*(?:m|km|people|%))"), ("y",)),
)


@dataclass(frozen=True)
class Value:
    text: str  # as the source wrote it
    dimension: str
    base: Decimal  # in the dimension's base unit (metres, people, a date as y*10000+m*100+d)
    tolerance: Decimal  # how far another value may be and still be this one, rounded
    date_precision: int = 0  # for dates: 1 year, 2 month, 3 day
    unitless: bool = False  # a bare figure: a count only when an attribute says of what


@dataclass(frozen=True)
class Fact:
    label: str
    sentence: str
    language: str
    dimension: str
    attribute: str | None
    subject: frozenset[str]
    subject_keys: frozenset[str]
    values: tuple[Value, ...]
    on_question: bool  # the subject is made of the question's own words

    @property
    def shown(self) -> str:
        return " / ".join(dict.fromkeys(v.text for v in self.values))


@dataclass
class Pair:
    first: Fact
    second: Fact
    certain: bool


@dataclass
class Findings:
    certain: list[Pair] = field(default_factory=list)
    borderline: list[Pair] = field(default_factory=list)
    facts: int = 0


# --- values --------------------------------------------------------------------------


def _exponent(number: Decimal) -> int:
    exponent = number.as_tuple().exponent
    return exponent if isinstance(exponent, int) else 0


def _tolerance(raw: Decimal, scale: Decimal, approximate: bool) -> Decimal:
    """Half the last written digit, in base units; more when the source rounds."""
    value = abs(raw * scale)
    tolerance = Decimal(10) ** _exponent(raw) * abs(scale) / 2
    digits = str(int(raw)) if _exponent(raw) >= 0 else ""
    zeros = len(digits) - len(digits.rstrip("0")) if digits.strip("0") else 0
    if zeros:
        tolerance = max(tolerance, min(Decimal(10) ** zeros * abs(scale) / 2, value * _ROUNDED_ZEROS_SHARE))
    if approximate:
        tolerance = max(tolerance, value * _APPROX_SHARE)
    return tolerance


def _number_value(mention: NumberMention) -> Value | None:
    if mention.worded or mention.unit == "time":
        return None
    if mention.scaled is None or not mention.dimension:
        # A bare figure ("14 million") is a count only next to a word that says what it
        # counts ("population"); sentence_facts drops it otherwise.
        value = max(Decimal(v) for v in mention.values)
        raw = Decimal(min(mention.values, key=len))
        scale = value / raw if raw else Decimal(1)
        return Value(mention.text, "count", value, _tolerance(raw, scale, mention.approximate), unitless=True)
    if mention.dimension in ("year", "month"):
        return None  # "1707年" is a date (below); "3年" a duration too vague to compare
    raw = Decimal(min(mention.values, key=len))
    scale = mention.scaled / raw if raw else Decimal(1)
    dimension = "count" if mention.dimension == "people" else mention.dimension
    return Value(mention.text, dimension, mention.scaled, _tolerance(raw, scale, mention.approximate))


def _dates(text: str) -> tuple[list[tuple[int, Value]], str]:
    """Dates with where they are; their text is then blanked so "1707" is not read twice."""
    found: list[tuple[int, Value]] = []
    for pattern, order in _DATES:
        def take(match: re.Match[str], order: tuple[str, ...] = order) -> str:
            parts = dict(zip(order, match.groups()))
            year = int(parts["y"])
            written_month = parts.get("m") or ""
            month = _MONTHS.get(written_month) or (int(written_month) if written_month.isdigit() else 0)
            day = int(parts["d"]) if parts.get("d") else 0
            if not 100 <= year <= 2200 or month > 12 or day > 31:
                return match.group(0)
            precision = 3 if day else 2 if month else 1
            base = Decimal(year * 10000 + month * 100 + day)
            shown = match.group(0).strip() if len(order) > 1 else parts["y"] + ("年" if "年" in match.group(0) else "")
            found.append((match.start(), Value(shown, "date", base, Decimal(0), precision)))
            return " " * len(match.group(0))

        text = pattern.sub(take, text)
    return found, text


def _values(sentence: str) -> list[tuple[int, Value]]:
    """The comparable values of a prepared sentence, each with its position."""
    dates, rest = _dates(sentence)
    out = list(dates)
    for match in _FEET.finditer(rest):
        raw = Decimal(match.group(1))
        scale = _IMPERIAL[match.group(2)]
        out.append((match.start(), Value(match.group(0), "length", raw * scale, _tolerance(raw, scale, False))))
    rest = _FEET.sub(lambda m: " " * len(m.group(0)), rest)
    cursor = 0
    for mention in extract_numbers(rest):
        value = _number_value(mention)
        if value is None:
            continue
        position = rest.find(mention.text, cursor)
        cursor = max(cursor, position + 1) if position >= 0 else cursor
        out.append((max(position, 0), value))
    return sorted(out, key=lambda item: item[0])


def values_agree(first: Value, second: Value) -> bool:
    """One value is the other as written more or less exactly: a paraphrase, not a dispute."""
    if first.dimension != second.dimension:
        return False
    if first.dimension == "date":
        precision = min(first.date_precision, second.date_precision)
        divisor = {1: 10000, 2: 100, 3: 1}[precision]
        return int(first.base) // divisor == int(second.base) // divisor
    return abs(first.base - second.base) <= max(first.tolerance, second.tolerance)


# --- facts -----------------------------------------------------------------------------


def _nearest(patterns: list[tuple[str, re.Pattern[str]]], sentence: str, position: int, reach: int) -> str | None:
    best: tuple[int, str] | None = None
    for name, pattern in patterns:
        for match in pattern.finditer(sentence):
            distance = max(match.start() - position, position - match.end(), 0)
            if distance <= reach and (best is None or distance < best[0]):
                best = (distance, name)
    return best[1] if best else None


def _attribute(sentence: str, position: int) -> str | None:
    concept = _nearest(_ATTRIBUTE_PATTERNS, sentence, position, _ATTRIBUTE_REACH)
    if concept is None:
        return None
    qualifier = _nearest(_QUALIFIER_PATTERNS, sentence, position, len(sentence))
    return f"{concept}:{qualifier}" if qualifier else concept


_BRACKETS = str.maketrans({c: " " for c in "()（）"})


def _prepared(text: str) -> str:
    """``prepare`` for comparing values: citations out first, so that a figure in
    brackets ("3,776 m (12,388 ft)") is not mistaken for a citation and dropped."""
    return prepare(strip_citations(text).translate(_BRACKETS))


def _language(text: str) -> str:
    return "ja" if re.search(r"[\u3040-\u30ff\u4e00-\u9fff]", text) else "en"


def sentence_facts(label: str, sentence: str, title: str, question_terms: frozenset[str]) -> list[Fact]:
    """The facts one sentence states: values grouped by dimension and attribute."""
    prepared = _prepared(sentence)
    found = _values(prepared)
    if not found:
        return []
    groups: dict[tuple[str, str | None], list[tuple[int, Value]]] = {}
    for position, value in found:
        attribute = _attribute(prepared, position)
        if value.unitless and _base_attribute(attribute) not in _COUNTED:
            continue
        groups.setdefault((value.dimension, attribute), []).append((position, value))
    facts = []
    for (dimension, attribute), members in groups.items():
        prefix = prepared[: members[0][0]]
        subject_terms = [t for t in terms(prefix) if not _is_lexicon_term(t.text)]
        if not subject_terms:
            subject_terms = [t for t in terms(title) if not _is_lexicon_term(t.text)]
        subject = frozenset(t.text for t in subject_terms)
        facts.append(Fact(
            label=label, sentence=" ".join(sentence.split()), language=_language(sentence), dimension=dimension,
            attribute=attribute, subject=subject, subject_keys=frozenset(t.text for t in subject_terms if t.key),
            values=tuple(v for _, v in members), on_question=bool(subject) and subject <= question_terms,
        ))
    return facts


def relevant_facts(sources: list[dict[str, Any]], questions: list[str]) -> list[Fact]:
    """Facts of the passages BM25 finds relevant to the question, sub-questions or queries."""
    question_terms = frozenset(t.text for q in questions for t in terms(q))
    titles = {str(d["label"]): str(d.get("title") or "") for d in sources}
    seen: set[tuple[str, str]] = set()
    facts: list[Fact] = []
    for passage in rank_passages(sources, questions):
        if passage.score < _MIN_RELEVANCE:
            continue
        for start, end in sentence_spans(passage.text):
            sentence = passage.text[start:end].strip()
            key = (passage.label, unicodedata.normalize("NFKC", sentence))
            if not sentence or key in seen:
                continue
            seen.add(key)
            facts.extend(sentence_facts(passage.label, sentence, titles[passage.label], question_terms))
            if len(facts) >= _MAX_FACTS:
                return facts
    return facts


# --- pairs -----------------------------------------------------------------------------


def _agree(first: Fact, second: Fact) -> bool:
    return any(values_agree(a, b) for a in first.values for b in second.values)


def _base_attribute(attribute: str | None) -> str | None:
    return attribute.split(":")[0] if attribute else None


def _relation(first: Fact, second: Fact) -> str:
    """"same" subject, "related" (overlapping), or "different"."""
    same_language = first.language == second.language
    if first.on_question and second.on_question:
        return "same"
    if same_language and first.subject and first.subject == second.subject:
        return "same"
    if same_language and first.subject_keys - second.subject_keys and second.subject_keys - first.subject_keys:
        return "different"  # each names something the other does not: "Kita-dake" vs "Fuji"
    if first.subject & second.subject or (first.on_question or second.on_question) and not same_language:
        return "related"
    return "different"


def pair_facts(facts: list[Fact]) -> Findings:
    """Certain and borderline disagreements between facts of different sources."""
    findings = Findings(facts=len(facts))
    for i, first in enumerate(facts):
        for second in facts[i + 1:]:
            if first.label == second.label or first.dimension != second.dimension:
                continue
            if first.attribute and second.attribute and first.attribute != second.attribute:
                continue  # height is not distance; "the last eruption" is not "an eruption"
            if _agree(first, second):
                continue
            relation = _relation(first, second)
            if relation == "different":
                continue
            both_named = bool(first.attribute and second.attribute)
            if relation == "same" and both_named:
                findings.certain.append(Pair(first, second, True))
            elif both_named or relation == "same" and first.language == second.language:
                findings.borderline.append(Pair(first, second, False))
    findings.certain = [p for p in findings.certain if not _source_also_agrees(p, facts)]
    certain_keys = {_pair_key(p) for p in findings.certain}
    findings.borderline = [p for p in findings.borderline if _pair_key(p) not in certain_keys
                           and not _source_also_agrees(p, facts)][:MAX_BORDERLINE]
    return findings


def _pair_key(pair: Pair) -> tuple[str, str, str, str | None]:
    return (pair.first.label, pair.second.label, pair.first.dimension,
            _base_attribute(pair.first.attribute or pair.second.attribute))


def _source_also_agrees(pair: Pair, facts: list[Fact]) -> bool:
    """One source gives the other's value elsewhere too: not a dispute between them."""
    for one, other in ((pair.first, pair.second), (pair.second, pair.first)):
        for fact in facts:
            if (fact.label == other.label and fact is not other and fact.dimension == one.dimension
                    and fact.attribute == other.attribute and _agree(fact, one)):
                return True
    return False


# --- the result ----------------------------------------------------------------------------


def summarise(pairs: list[Pair]) -> list[dict[str, Any]]:
    """Disagreements as JSON: per topic (dimension + attribute), the positions the sources take.

    Facts that agree are one position ("3,776 m" [S1][S3]); a topic with two or more
    positions is one disagreement.
    """
    topics: dict[tuple[str, str | None], list[Fact]] = {}
    for pair in pairs:
        topic = (pair.first.dimension, pair.first.attribute or pair.second.attribute)
        members = topics.setdefault(topic, [])
        for fact in (pair.first, pair.second):
            if fact not in members:
                members.append(fact)
    out = []
    for (dimension, attribute), members in topics.items():
        positions: list[list[Fact]] = []
        for fact in members:
            home = next((p for p in positions if any(_agree(fact, other) for other in p)), None)
            if home is None:
                positions.append([fact])
            else:
                home.append(fact)
        if len(positions) < 2:
            continue
        positions.sort(key=lambda group: min(_label_number(f.label) for f in group))
        base, _, qualifier = (attribute or "").partition(":")
        out.append({
            "dimension": dimension,
            "attribute": base or None,
            "qualifier": qualifier or None,  # "last" eruption, "first" ascent
            "certain": all(p.certain for p in pairs if p.first in members),
            "positions": [
                {
                    "value": group[0].shown,
                    "labels": sorted(dict.fromkeys(f.label for f in group), key=_label_number),
                    "sentences": list(dict.fromkeys(f.sentence for f in group))[:2],
                    # The value as compared, so the answer can be checked against it (stated_in).
                    "values": [{"base": str(v.base), "tolerance": str(v.tolerance), "precision": v.date_precision}
                               for v in group[0].values],
                }
                for group in positions
            ],
        })
    return out


def _label_number(label: str) -> int:
    digits = re.sub(r"\D", "", label)
    return int(digits) if digits else 0


def find_disagreements(sources: list[dict[str, Any]], questions: list[str]) -> Findings:
    """Facts of the read sources relevant to ``questions``, paired where they differ."""
    readable = [d for d in sources if d.get("status", "ok") == "ok"]
    return pair_facts(relevant_facts(readable, [q for q in questions if q and q.strip()]))


def stated_in(answer: str, disagreement: dict[str, Any]) -> list[bool]:
    """For each position, whether ``answer`` gives its value (in any spelling)."""
    given = [value for _, value in _values(_prepared(answer))]
    stated = []
    dimension = disagreement.get("dimension", "")
    for position in disagreement.get("positions", []):
        wanted = [Value(position["value"], dimension, Decimal(v["base"]), Decimal(v["tolerance"]), int(v["precision"]))
                  for v in position.get("values", [])]
        stated.append(any(values_agree(v, w) and _exact_enough(v, w) for w in wanted for v in given))
    return stated


def _exact_enough(answer_value: Value, source_value: Value) -> bool:
    # The answer restating one position must not count for the other by rounding both.
    return answer_value.tolerance <= source_value.tolerance * 2 or answer_value.dimension == "date"


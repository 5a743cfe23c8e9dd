"""Where the sources disagree: two read sources giving different values for the same
measure of the same thing, found from the facts the pages state, with a judge for the
pairs the cheap checks cannot settle.

A *fact* is one value (or several that a sentence gives as one: "3,776 m (12,388 ft)")
with

- its **dimension** (length, people, yen, date, ...; figures without a unit are left out
  unless a word says what they count: "14" alone could count anything);
- its **attribute**, what the value measures: the nearest word of a small bilingual
  lexicon ("tall", "標高" → height; "from", "離れ" → distance; "噴火", "erupted" →
  eruption), plus "last"/"first" when the sentence says so;
- its **entity**, whose measure it is: the name that opens the clause ("Mount Fuji,
  Japan's tallest mountain, stands ..."), the topic before は/が in Japanese
  (「富士山の標高は」), and for a pronoun or no name at all ("It rises to ...",
  「その標高は」「同山は」) the page's subject (its title's name). Names are compared in
  one spelling for both languages: Japanese names by their reading from the dictionary
  (富士山 → フジ + 山 → "fuji mount"; 東京 → トウキョウ → "tokyo"), English without
  accents, hyphens or long vowels ("Tōkyō", "Kita-dake"), so "Mount Fuji" and 富士山
  are one entity and "Mount Kita" is another.

The entities that count are those the question names (in either language: the run's
sub-questions and queries are in both). Two facts of different sources are compared only
on the same dimension, the same attribute, and the question's entity. Values *agree* when
one is the other rounded to what it wrote ("3.8 km" and "3,776 m"; "12,388 ft" and
"3,776 m"; "1400万人" and "14 million"; "1707" and "1707年"), or within 10 % when one says
"about"/"約". A pair is **certain** when both name the attribute and both are about the
question's entity; it is **borderline** when one of them names it only in passing ("Kita-dake,
second only to Mount Fuji, is 3,193 m"), when one page's subject is unknown, or when one
attribute is unknown: a judge (``resolve_borderline``) decides those, and only a pair it
calls a disagreement is reported.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass, field
from decimal import Decimal
from functools import lru_cache
from collections.abc import Awaitable, Callable
from typing import Any

from research.modules.core.language import Language
from research.modules.text.analyser import JAPANESE_RUN, reading, terms
from research.modules.text.claims import sentence_spans, strip_citations
from research.modules.text.numbers import NumberMention, extract_numbers, prepare
from research.modules.text.passages import rank_passages

_MIN_RELEVANCE = 0.05  # a passage's relative BM25 score below this is not about the question
_MAX_FACTS = 400  # enough for any run's sources; keeps the pairing quadratic cheap
_MIN_FACTS_PER_SOURCE = 20  # a run with many sources still reads this many facts of each
MAX_BORDERLINE = 12  # pairs sent to the judge in its one call
_APPROX_SHARE = Decimal("0.1")  # "about 3.8 km": the exact figure may be up to 10 % away
_ROUNDED_ZEROS_SHARE = Decimal("0.05")  # "3,800 m" may be 3,776 m rounded, "100 km" is not 80 km

# Attributes: a concept and how it is said. English as whole words, Japanese as text.
_ATTRIBUTES: dict[str, tuple[str, str]] = {
    "height": (r"tall|taller|tallest|height|high|higher|highest|elevation|altitude|above sea level|rises to|summit",
               "標高|高さ|海抜|高い|最高峰"),
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
    "award": (r"prize|prizes|award|awarded|awards|laureate", "賞|受賞"),
}
_COUNTED = ("population", "visitors", "employees")
_RECURRING = ("eruption", "award", "release", "registration")  # events a thing can have more than once  # attributes that make a bare figure a count
_QUALIFIERS = {"last": (r"last|latest|most recent", "最後|最新|直近"), "first": (r"first|earliest", "最初|初めて")}


def _lexicon(table: dict[str, tuple[str, str]]) -> list[tuple[str, re.Pattern[str]]]:
    return [(name, re.compile(rf"\b(?:{en})\b|{ja}")) for name, (en, ja) in table.items()]


_ATTRIBUTE_PATTERNS = _lexicon(_ATTRIBUTES)
_QUALIFIER_PATTERNS = _lexicon(_QUALIFIERS)


def attributes_named(text: str) -> frozenset[str]:
    """The attributes a text speaks of: "3,776 m tall" and 「標高3,776 m」 both name height."""
    lowered = text.lower()
    return frozenset(name for name, pattern in _ATTRIBUTE_PATTERNS if pattern.search(lowered))


def attribute_words(name: str) -> tuple[str, ...]:
    """Every way the lexicon says an attribute, English and Japanese ("elevation", "altitude", 「高さ」 …)."""
    en, ja = _ATTRIBUTES[name]
    return tuple(word for word in en.replace("-?", "").split("|") + ja.split("|") if word)
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
    # Lexicon terms are ASCII or Japanese: a Latin name with diacritics ("Hōei") is looked up among
    # the English ones, so a run without Japanese never has the Japanese lexicon cut into words.
    return text in _lexicon_terms(JAPANESE_RUN.search(text) is not None)


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
    (re.compile(r"\b(?:in|since|until|till|by|from|during|circa|c\.|around|year|the)\s+(\d{4})\b(?!\s*(?:m|km|people|%))"), ("y",)),
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
    language: Language
    dimension: str
    attribute: str | None
    entity: frozenset[str]  # whose measure it is, as canonical name tokens; empty when unknown
    values: tuple[Value, ...]
    by_reference: bool = False  # "It rises to ...": the entity is the page's subject
    mentioned: tuple[frozenset[str], ...] = ()  # other names in the clause before the value
    # For a date: the other names of its sentence, which tell one eruption or prize from
    # another ("the Hōei eruption", 「貞観噴火」, "the Nobel Prize").
    event: tuple[frozenset[str], ...] = ()
    # For a figure: the times its sentence names ("on 26 August", "in 2010", 「7月」): a
    # forecast for August and one for January are two facts, not a dispute.
    times: frozenset[str] = frozenset()
    in_sentence: tuple[frozenset[str], ...] = ()  # every name of the sentence

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


# --- entities: whose measure a value is -------------------------------------------------

_KANA_ROWS = {  # katakana → Hepburn, so a Japanese name's reading compares with its English spelling
    "アイウエオ": "a i u e o", "カキクケコ": "ka ki ku ke ko", "ガギグゲゴ": "ga gi gu ge go",
    "サシスセソ": "sa shi su se so", "ザジズゼゾ": "za ji zu ze zo", "タチツテト": "ta chi tsu te to",
    "ダヂヅデド": "da ji zu de do", "ナニヌネノ": "na ni nu ne no", "ハヒフヘホ": "ha hi fu he ho",
    "バビブベボ": "ba bi bu be bo", "パピプペポ": "pa pi pu pe po", "マミムメモ": "ma mi mu me mo",
    "ヤユヨ": "ya yu yo", "ラリルレロ": "ra ri ru re ro", "ワヲン": "wa o n", "ァィゥェォ": "a i u e o", "ヴ": "vu",
}
_KANA = {kana: roman for row, romans in _KANA_ROWS.items() for kana, roman in zip(row, romans.split())}
_SMALL_Y = {"ャ": "a", "ュ": "u", "ョ": "o"}
_KATAKANA_WORD = re.compile(r"[\u30a1-\u30fa\u30fc]+")
# Generic heads, one spelling for both languages: "Mount Fuji" and 富士山 (フジ + 山) are one
# name; a head alone ("the mountain", 「山」) names nothing.
_HEADS = {"mt": "mount", "mount": "mount", "mountain": "mount", "山": "mount", "岳": "mount", "lake": "lake",
          "湖": "lake", "river": "river", "川": "river", "island": "island", "島": "island", "city": "city",
          "市": "city", "prefecture": "prefecture", "県": "prefecture"}
_GENERIC = frozenset(_HEADS.values())
# Spellings that differ between a reading and its romanisation: long vowels, and voicing
# ("Esaki" is read エザキ): both sides are folded the same way.
_FOLDS = (("ou", "o"), ("oo", "o"), ("uu", "u"), ("aa", "a"), ("ii", "i"), ("mb", "nb"), ("mp", "np"),
          ("z", "s"), ("g", "k"), ("d", "t"))


def _romanise(kana: str) -> str:
    out: list[str] = []
    double = False
    for ch in kana:
        if ch == "ッ":
            double = True
            continue
        if ch == "ー":
            continue
        if ch in _SMALL_Y and out:
            stem = out.pop()
            roman = (stem[:-1] if stem[-2:-1] in ("h", "j") or stem in ("ji",) else stem[:-1] + "y") + _SMALL_Y[ch]
        else:
            roman = _KANA.get(ch, "")
        if double and roman:
            roman = roman[0] + roman
        double = False
        out.append(roman)
    return "".join(out)


def _fold_latin(text: str) -> str:
    """Accents off Latin letters only ("Tōkyō" → "Tokyo"); kana keep their voicing marks."""
    return re.sub(r"[\u00c0-\u024f\u1e00-\u1eff]",
                  lambda m: "".join(c for c in unicodedata.normalize("NFKD", m.group(0)) if not unicodedata.combining(c)),
                  text)


def _canonical(token: str) -> str:
    """One spelling of a name token for both languages."""
    if _KATAKANA_WORD.fullmatch(token):
        token = _romanise(token)
    token = _fold_latin(token).lower().replace("’", "'").removesuffix("'s")
    token = re.sub(r"['\-.]", "", token)
    token = _HEADS.get(token, token)
    if token.isascii() and token not in _GENERIC:
        for spelling, folded in _FOLDS:
            token = token.replace(spelling, folded)
    return token


def _name(tokens: list[str]) -> frozenset[str]:
    """A name as canonical tokens; empty when only generic heads are left ("the mountain")."""
    name = frozenset(t for t in (_canonical(t) for t in tokens) if t)
    return name if name - _GENERIC else frozenset()


def same_entity(first: frozenset[str], second: frozenset[str]) -> bool:
    """One name is the other, or a longer form of it: "Fuji" and "Mount Fuji" (and 富士山);
    "Mount Fuji" and "Mount Kita" are two."""
    return bool(first and second) and (first <= second or second <= first)


_FUNCTION_WORDS = frozenset(
    """a an the it its this that these those he she his her they their there here in on at by for from of to
    with according after before since during as when while although however also today some many most each
    every one our we i you what which who whom whose how why where is are was were do does did and but or
    if unless whether because once until all both no not yes only just about over under more less than
    so then""".split())
# A clause that supposes ("If you are 5 feet tall, ...", 「…なら」「…場合」) states no fact.
_SUPPOSING = re.compile(r"^\s*(?:if|unless|suppose|assuming|もし)\b", re.IGNORECASE)
_SUPPOSED_AFTER = re.compile(r"^[^、。,]{0,14}?(?:なら|の場合|とすれば|としたら|であれば|だったら)")
_CONNECTORS = ("of", "no", "de", "von", "van", "da", "del", "la")
_NAME_RUN = re.compile(r"[A-Z][\w'’\-.]*(?:\s+(?:(?:of|no|de|von|van|da|del|la)\s+)?[A-Z][\w'’\-]*)*")
_LEADING_PHRASE = re.compile(r"^\s*(?:according to|in|on|at|by|since|after|before|during|for|from|like|unlike|as "
                             r"of|as|with|today|however|also)\b[^,]{0,80},\s*", re.IGNORECASE)


def _english_names(text: str, common: frozenset[str]) -> list[tuple[frozenset[str], bool]]:
    """The names in ``text`` in order, each with whether it is a possessive ("Japan's")."""
    text = _LEADING_PHRASE.sub(lambda m: " " * len(m.group(0)), _fold_latin(text))
    out = []
    for match in _NAME_RUN.finditer(text):
        words = match.group(0).split()
        while words and words[0].lower() in _FUNCTION_WORDS:
            words.pop(0)
        if not words:
            continue
        # A capitalised word that opens the clause and is written in lower case elsewhere
        # on the page is an ordinary word ("Climbers pay ..."), not a name.
        opening = not text[: match.start()].strip(" ,;:\"'“(")
        if len(words) == 1 and opening and words[0] == match.group(0).split()[0] \
                and (words[0].lower().rstrip("'’s") in common or words[0].lower().endswith(("ing", "ed", "ly"))):
            continue
        name = _name([w for w in words if w.lower() not in _CONNECTORS and w.lower().strip(".") not in _MONTHS])
        if name:
            out.append((name, words[-1].endswith(("'s", "’s"))))
    return out


_JA_TOPIC = re.compile(r"(?:は|が)(?![\u3040-\u309f])")
_JA_REFERENCE = re.compile(r"^(?:それ|その|これ|この|あの|同[\u4e00-\u9fff]|本[山社]|当[社山]|彼)")


def _japanese_names(text: str) -> frozenset[str]:
    return _name([t.text for t in terms(text) if t.key and not _is_lexicon_term(t.text)])


def _japanese_subject(prefix: str) -> tuple[frozenset[str], bool]:
    """The topic before the value (the last 「…は」「…が」 that names something), and whether
    the clause refers back to the page's subject instead (「その標高は」「同山は」)."""
    pieces = _JA_TOPIC.split(prefix)
    for piece in reversed(pieces[:-1] if len(pieces) > 1 else pieces):
        segment = re.split(r"[、,]", piece)[-1].strip()
        if _JA_REFERENCE.match(segment):
            return frozenset(), True
        name = _japanese_names(segment)
        if name:
            return name, False
    return frozenset(), True


_PRONOUN = re.compile(r"\b(?:it|he|she|they|its|his|her|their)\b", re.IGNORECASE)
_NAME_START = re.compile(r"(?<![\w'’])(?!(?i:" + "|".join(sorted(_FUNCTION_WORDS)) + r")\b)[A-Z]")
_CLAUSE_BREAK = re.compile(r";|；|,\s*(?:while|whereas|but|and)\s|\s(?:while|whereas)\s|、一方|。")


@dataclass(frozen=True)
class Subject:
    """Whose measure a value is: the clause's own name, else the page's subject."""

    name: frozenset[str]
    by_reference: bool  # "It rises to ...", 「その標高は」: the page's subject
    mentioned: tuple[frozenset[str], ...]  # other names before the value in its clause


def clause_subject(prefix: str, page_subject: frozenset[str], common: frozenset[str] = frozenset()) -> Subject:
    """The subject of the clause that ``prefix`` (the text before a value) ends in."""
    starts = [m.end() for m in _CLAUSE_BREAK.finditer(prefix)]
    clause = prefix[starts[-1]:] if starts else prefix
    if _language(clause) == "ja":
        name, by_reference = _japanese_subject(clause)
        mentioned = tuple(m for m in (_japanese_names(clause) - name,) if m)
    else:
        names = _english_names(clause, common)
        # "Japan's tallest mountain, Mount Fuji, ...": the possessive qualifies the name after it.
        lead = next((n for n, possessive in names if not possessive), None) if names and names[0][1] else None
        name = lead or (names[0][0] if names else frozenset())
        # "He won the Nobel Prize in ...": a pronoun before any name is the subject.
        pronoun = _PRONOUN.search(clause)
        first_name = _NAME_START.search(_LEADING_PHRASE.sub(lambda m: " " * len(m.group(0)), clause))
        if pronoun and (first_name is None or pronoun.start() < first_name.start()):
            name = frozenset()
        by_reference = not name
        mentioned = tuple(n for n, _ in names if n != name)
    if by_reference:
        return Subject(page_subject, True, mentioned)
    return Subject(name, False, mentioned)


def page_subject(title: str, sentences: list[str]) -> frozenset[str]:
    """What a page is about: its title's name (before a site's name: "富士山 - Wikipedia"),
    else the first name a sentence opens with."""
    title = re.split(r"\s+[-|–—:]\s+|\s*[|｜]\s*", title)[0]
    for text in (title, *sentences[:5]):
        text = _prepared_cased(text)
        if not text.strip():
            continue
        subject = clause_subject(text, frozenset())
        if not subject.by_reference:
            return subject.name
    return frozenset()


def question_entities(questions: list[str]) -> list[frozenset[str]]:
    """The names the question (and its sub-questions and queries, in both languages) asks about."""
    return [name for name, _ in _question_names(questions)]


def _question_names(questions: list[str]) -> list[tuple[frozenset[str], str]]:
    """Each name the questions ask about once, with the language of the question it is in."""
    found: list[tuple[frozenset[str], str]] = []
    for question in questions:
        text = _prepared_cased(question)
        language = _language(text)
        if language == "ja":
            name, by_reference = _japanese_subject(text)
            names = [] if by_reference else [name]
        else:
            names = [n for n, _ in _english_names(text, frozenset())]
        found += [(n, language) for n in names if n not in [f for f, _ in found]]
    return found


# A name given with its other-language form in brackets: "Leo Esaki (江崎玲於奈)",
# 「江崎玲於奈（えさき れおな、Leo Esaki）」.
_ALIAS_EN_JA = re.compile(r"([A-Z][\w'’\-]*(?:\s+[A-Z][\w'’\-]*)*)\s*[（(]\s*([\u4e00-\u9fff\u30a0-\u30ff々ー・]+)")
_ALIAS_JA_EN = re.compile(r"([\u4e00-\u9fff\u30a0-\u30ff々ー・]+)\s*[（(][^）)]{0,40}?([A-Z][\w'’\-]*(?:\s+[A-Z][\w'’\-]*)*)[^）)]{0,20}[）)]")


def source_aliases(sources: list[dict[str, Any]]) -> list[tuple[frozenset[str], frozenset[str]]]:
    """Pairs of names the read sources give as one, in two languages."""
    found = []
    for document in sources:
        text = _fold_latin(unicodedata.normalize("NFKC", str(document.get("markdown") or "")))
        for pattern, english_first in ((_ALIAS_EN_JA, True), (_ALIAS_JA_EN, False)):
            for match in pattern.finditer(text):
                english, japanese = (match.group(1), match.group(2)) if english_first else (match.group(2), match.group(1))
                names = _english_names(english, frozenset())
                other = _japanese_names(japanese)
                if names and other and (names[0][0], other) not in found:
                    found.append((names[0][0], other))
    return found


def _with_aliases(named: list[tuple[frozenset[str], str]],
                  aliases: list[tuple[frozenset[str], frozenset[str]]]) -> list[tuple[frozenset[str], str]]:
    """The question's names plus their other-language forms that a source gives."""
    out = list(named)
    for english, japanese in aliases:
        for name, _ in named:
            for mine, other, language in ((english, japanese, "ja"), (japanese, english, "en")):
                if same_entity(name, mine) and (other, language) not in out:
                    out.append((other, language))
    return out


def _question_groups(named: list[tuple[frozenset[str], str]],
                    links: frozenset[tuple[frozenset[str], frozenset[str]]] = frozenset()) -> list[int]:
    """A group number per question entity: names that are one (same_entity) share it; and
    when each language names one thing only, the English and the Japanese are the same
    thing however they are spelled (スカイツリー is read "sukai tsuri", not "Skytree")."""
    groups = list(range(len(named)))
    for i, (first, _) in enumerate(named):
        for j in range(i):
            if same_entity(first, named[j][0]) or (first, named[j][0]) in links or (named[j][0], first) in links:
                old = groups[i]
                groups = [groups[j] if g == old else g for g in groups]
    by_language: dict[str, set[int]] = {}
    for (_, language), group in zip(named, groups):
        by_language.setdefault(language, set()).add(group)
    if len(by_language) == 2 and all(len(g) == 1 for g in by_language.values()):
        groups = [0] * len(groups)
    return groups


# --- facts -----------------------------------------------------------------------------


def _nearest(patterns: list[tuple[str, re.Pattern[str]]], sentence: str, position: int, reach: int) -> str | None:
    best: tuple[int, str] | None = None
    for name, pattern in patterns:
        for match in pattern.finditer(sentence):
            distance = max(match.start() - position, position - match.end(), 0)
            if distance <= reach and (best is None or distance < best[0]):
                best = (distance, name)
    return best[1] if best else None


# What each attribute can be measured in: "18 mph winds from the West" is not a distance,
# "a 93 percent chance" not a height.
_MEASURED_IN = {
    "height": ("length",), "distance": ("length",), "length": ("length",), "depth": ("length",),
    "width": ("length",), "area": ("area",), "population": ("count",), "visitors": ("count",),
    "employees": ("count",), "price": ("yen", "usd"), "revenue": ("yen", "usd"), "temperature": ("degree",),
    "duration": ("day", "hour", "minute"), "speed": ("speed",), "weight": ("mass",),
}


def _attribute(sentence: str, position: int, dimension: str = "") -> str | None:
    """The nearest attribute word that can measure a value of ``dimension`` (any, when not given)."""
    allowed = [(name, pattern) for name, pattern in _ATTRIBUTE_PATTERNS
               if not dimension or dimension in _MEASURED_IN.get(name, ("date",))]
    concept = _nearest(allowed, sentence, position, _ATTRIBUTE_REACH)
    if concept is None:
        return None
    qualifier = _nearest(_QUALIFIER_PATTERNS, sentence, position, len(sentence))
    return f"{concept}:{qualifier}" if qualifier else concept


_BRACKETS = str.maketrans({c: " " for c in "()（）"})


def _prepared(text: str) -> str:
    """``prepare`` for comparing values: citations out first, so that a figure in
    brackets ("3,776 m (12,388 ft)") is not mistaken for a citation and dropped."""
    return prepare(strip_citations(text).translate(_BRACKETS))


def _prepared_cased(text: str) -> str:
    """``_prepared`` with the original's capitals back (names are found by them); the
    same length, so the positions of values are the same."""
    prepared = _prepared(text)
    original = unicodedata.normalize("NFKC", strip_citations(text).translate(_BRACKETS))
    out, j = [], 0
    for ch in prepared:
        k = j
        while k < len(original) and original[k].lower() != ch and k - j < 8:
            k += 1
        if k < len(original) and original[k].lower() == ch:
            out.append(original[k])
            j = k + 1
        else:
            out.append(ch)
    return "".join(out)


def _language(text: str) -> Language:
    """Japanese when it has kana or more kanji than Latin letters: "Mount Fuji (富士山,
    Fujisan) is ..." is English with a Japanese name in it."""
    if re.search(r"[\u3040-\u30ff]", text):
        return "ja"
    return "ja" if len(re.findall(r"[\u4e00-\u9fff]", text)) > len(re.findall(r"[A-Za-z]", text)) else "en"


# A subject that is itself one event: "the Hōei eruption", 「宝永噴火は」, "the Kyoto Prize".
_EVENT_SUBJECT = re.compile(r"[A-Z][\w'’\-]*\s+(?:eruption|prize|award)\b|[\u4e00-\u9fff\u30a0-\u30ff]+(?:噴火|賞)(?:は|が)")


def _clause_number(text: str, position: int) -> int:
    return sum(1 for m in _CLAUSE_BREAK.finditer(text[:position]))


def sentence_facts(label: str, sentence: str, page: frozenset[str] = frozenset(),
                   common: frozenset[str] = frozenset()) -> list[Fact]:
    """The facts one sentence states: per clause, values grouped by dimension and attribute,
    each group with its subject (``page`` for "it", 「その」, or no name)."""
    prepared = _prepared_cased(sentence)
    lowered = prepared.lower()
    found = _values(lowered)
    if not found:
        return []
    groups: dict[tuple[int, str, str | None], list[tuple[int, Value]]] = {}
    for position, value in found:
        attribute = _attribute(lowered, position, value.dimension)
        if value.unitless and _base_attribute(attribute) not in _COUNTED:
            continue
        groups.setdefault((_clause_number(prepared, position), value.dimension, attribute), []).append((position, value))
    facts = []
    in_sentence = (_japanese_names(prepared),) if _language(prepared) == "ja" else \
        tuple(n for n, _ in _english_names(prepared, common))
    for (_, dimension, attribute), members in groups.items():
        prefix = prepared[: members[0][0]]
        starts = [m.end() for m in _CLAUSE_BREAK.finditer(prefix)]
        if _SUPPOSING.search(prefix[starts[-1]:] if starts else prefix) \
                or _SUPPOSED_AFTER.search(prepared[members[-1][0]:]):
            continue
        subject = clause_subject(prefix, page, common)
        event: tuple[frozenset[str], ...] = ()
        if dimension == "date" and _EVENT_SUBJECT.search(prepared[: members[0][0]]):
            event = (subject.name,)  # "The Hōei eruption began on ...": the subject is the event
        elif dimension == "date":
            named = (_japanese_names(prepared),) if _language(prepared) == "ja" else \
                tuple(n for n, _ in _english_names(prepared, common))
            event = tuple(n - subject.name for n in named if n - subject.name and not n <= page)
        facts.append(Fact(
            label=label, sentence=" ".join(sentence.split()), language=_language(sentence), dimension=dimension,
            attribute=attribute, entity=subject.name, by_reference=subject.by_reference,
            mentioned=subject.mentioned, values=tuple(v for _, v in members), event=event,
            times=frozenset() if dimension == "date" else _times(lowered),
            in_sentence=in_sentence,
        ))
    return facts


_TIME_WORDS = re.compile(rf"\b(?:{_MONTH}|monday|tuesday|wednesday|thursday|friday|saturday|sunday)\b"
                         r"|(?<![\d.])(?:1[0-9]|20)\d\d(?![\d.])(?!\s*(?:m|km|ft|feet|people|%))|\d{1,2}月")


def _times(lowered: str) -> frozenset[str]:
    found = set()
    for match in _TIME_WORDS.finditer(lowered):
        word = match.group(0)
        found.add(str(_MONTHS[word]) + "月" if word in _MONTHS else word)
    return frozenset(found)


_LOWER_WORD = re.compile(r"(?<![A-Za-z])[a-z][a-z'’]+")


def _source_sentences(document: dict[str, Any]) -> list[str]:
    """The page's sentences in order (the page's subject comes from the first ones)."""
    out = []
    for paragraph in re.split(r"\n\s*\n|\n(?=\s*(?:[-*#>]|\d+\.)\s)", str(document.get("markdown") or "")):
        # The one splitter, on the whole paragraph: it reads a long one in linear time.
        out += [paragraph[a:b].strip() for a, b in sentence_spans(paragraph)]
    return [s for s in out if s]


def relevant_facts(sources: list[dict[str, Any]], questions: list[str],
                   named: list[tuple[frozenset[str], str]] | None = None) -> list[Fact]:
    """The facts of the read sources about what the question names (in either language).

    A question that names nothing ("how tall is the highest mountain?") falls back to the
    passages BM25 finds relevant to it."""
    entities = [name for name, _ in (named if named is not None else _question_names(questions))]
    relevant: dict[str, set[str]] | None = None
    if not entities:
        relevant = {}
        for passage in rank_passages(sources, questions):
            if passage.score >= _MIN_RELEVANCE:
                relevant.setdefault(passage.label, set()).update(
                    unicodedata.normalize("NFKC", passage.text[a:b].strip()) for a, b in sentence_spans(passage.text))
    facts: list[Fact] = []
    # Each source gets its share, so a long first page cannot leave the others unread.
    share = max(_MAX_FACTS // max(len(sources), 1), _MIN_FACTS_PER_SOURCE)
    for document in sources:
        label = str(document["label"])
        mine = 0
        sentences = _source_sentences(document)
        if relevant is not None:
            sentences = [s for s in sentences if unicodedata.normalize("NFKC", s) in relevant.get(label, set())]
        page = page_subject(str(document.get("title") or ""), sentences)
        common = frozenset(w.rstrip("'’s") for w in _LOWER_WORD.findall(str(document.get("markdown") or "")))
        seen: set[str] = set()
        for sentence in sentences:
            key = unicodedata.normalize("NFKC", sentence)
            if key in seen:
                continue
            seen.add(key)
            for fact in sentence_facts(label, sentence, page, common):
                if not entities or _about_question(fact, entities):
                    facts.append(fact)
                    mine += 1
            if mine >= share:
                break
    return facts


def _overlap(first: frozenset[str], second: frozenset[str]) -> bool:
    """Part of one name is part of the other: "Leo Esaki" and 江崎玲於奈 (エザキ レオナ)."""
    return bool((first & second) - _GENERIC)


def _about_question(fact: Fact, entities: list[frozenset[str]]) -> bool:
    """The fact's subject is a question entity, shares part of its name, names one in
    passing, or is unknown."""
    if not fact.entity:
        return True
    return any(same_entity(name, e) or _overlap(name, e) for name in (fact.entity, *fact.mentioned) for e in entities) \
        or _names_question(fact, entities)


def _names_question(fact: Fact, entities: list[frozenset[str]]) -> bool:
    return any(same_entity(name, e) for name in fact.in_sentence for e in entities)


# --- pairs -----------------------------------------------------------------------------


def _agree(first: Fact, second: Fact) -> bool:
    return any(values_agree(a, b) for a in first.values for b in second.values)


def _base_attribute(attribute: str | None) -> str | None:
    return attribute.split(":")[0] if attribute else None


def _relation(first: Fact, second: Fact, entities: list[frozenset[str]], groups: list[int]) -> str:
    """"same" entity, "borderline" (the judge decides), or "different"."""
    if not entities:  # the question names nothing: the two subjects alone decide
        if first.entity and second.entity:
            if not same_entity(first.entity, second.entity):
                return "different"
            # A page's subject guessed from its first name is no anchor without the question's.
            return "borderline" if first.by_reference or second.by_reference else "same"
        return "borderline" if first.entity or second.entity else "different"
    on_first = {g for e, g in zip(entities, groups) if same_entity(first.entity, e)}
    on_second = {g for e, g in zip(entities, groups) if same_entity(second.entity, e)}
    if on_first and on_second:
        return "same" if on_first & on_second else "different"
    if not on_first and not on_second:
        # "How tall is the tallest mountain in Japan?": two sentences that both name Mount
        # Fuji, and Japan, are about one thing the question asks for by another name.
        if same_entity(first.entity, second.entity) and _names_question(first, entities) \
                and _names_question(second, entities):
            return "borderline" if first.by_reference or second.by_reference else "same"
        return "different"
    other = second if on_first else first
    if not other.entity:
        return "borderline"  # "it" on a page whose subject is unknown
    if any(same_entity(m, e) for m in other.mentioned for e in entities):
        return "borderline"  # "Kita-dake, second only to Mount Fuji, is ..."
    if any(_overlap(other.entity, e) for e in entities):
        return "borderline"  # "Leo Esaki" and 江崎玲於奈, read "Reona Ezaki"
    return "different"


def _event_relation(first: Fact, second: Fact) -> str:
    """Two dates of one entity: the same event when the attribute says which ("the last
    eruption") or the sentences name it alike ("the Nobel Prize"); different when both
    name different ones in one language ("Hōei" and "Jōgan"); else for the judge."""
    if ":" in (first.attribute or "") or _base_attribute(first.attribute) not in _RECURRING:
        return "same"  # one opening, one founding, one birth per thing
    if first.event and second.event:
        if any(same_entity(a, b) for a in first.event for b in second.event):
            return "same"
        if first.language == second.language:
            return "different"
        # The name written against the event's word, read alike in both languages: "the Hōei
        # eruption" and 「宝永噴火」 are one eruption, 「貞観噴火」 another (the real 1.5B model's run,
        # bench_answers.py, 2026-12-02: a judge called 1707 and 864 two dates of one eruption).
        names = [_event_name_read(fact) for fact in (first, second)]
        # Across languages a loanword's reading keeps the consonants: ノーベル "noberu", "Nobel".
        skeletons = [{_skeleton(t) for name in fact.event for t in name} - {""} for fact in (first, second)]
        if (names[0] and names[0] == names[1]) or skeletons[0] & skeletons[1]:
            return "same"
        return "different" if names[0] and names[1] else "borderline"
    return "borderline"


_EVENT_NAME_EN = re.compile(r"\b([A-Z][\w'’\-]*)\s+(?i:eruption|prize|award)s?\b")
_EVENT_NAME_JA = re.compile(r"([\u4e00-\u9fff\u30a0-\u30ff]+?)大?(?:噴火|賞)")


def _event_name_read(fact: Fact) -> str | None:
    """The one name a sentence writes against its event's word ("the Hōei eruption", 「宝永噴火」),
    in the one spelling of both languages (宝永 is read ホウエイ: "hoei"); None when there is
    not exactly one such name, or its reading is not known."""
    if fact.language == "ja":
        # Only a name in kanji: English writes it as it is read (Hōei, Jōgan), but a loanword in
        # katakana as its own language spells it (ノーベル, Nobel), which no reading gives.
        found = {m.group(1) for m in _EVENT_NAME_JA.finditer(fact.sentence)}
        name = found.pop() if len(found) == 1 else ""
        read = reading(name) if re.fullmatch(r"[\u4e00-\u9fff]+", name) else None
    else:
        found = {m.group(1) for m in _EVENT_NAME_EN.finditer(_fold_latin(fact.sentence))}
        read = found.pop() if len(found) == 1 else None
    return _canonical(read) if read else None


def _skeleton(token: str) -> str:
    """A name's consonants, l as r and v as b (how katakana writes them); "" when too short to tell."""
    consonants = re.sub(r"[^a-z]|[aeiouy]", "", token.replace("l", "r").replace("v", "b"))
    return consonants if len(consonants) >= 3 and token.isascii() else ""


def pair_facts(facts: list[Fact], questions: list[str] | None = None,
               aliases: list[tuple[frozenset[str], frozenset[str]]] | None = None) -> Findings:
    """Certain and borderline disagreements between facts of different sources; ``aliases``
    (source_aliases) add the other-language forms of the question's names."""
    named = _with_aliases(_question_names(questions or []), aliases or [])
    entities, groups = [name for name, _ in named], _question_groups(named, frozenset(aliases or []))
    findings = Findings(facts=len(facts))
    for i, first in enumerate(facts):
        for second in facts[i + 1:]:
            if first.label == second.label or first.dimension != second.dimension:
                continue
            if first.attribute and second.attribute and first.attribute != second.attribute:
                continue  # height is not distance; "the last eruption" is not "an eruption"
            if _agree(first, second):
                continue
            if first.times and second.times and not first.times & second.times:
                continue  # figures of two times: August's forecast is not January's
            relation = _relation(first, second, entities, groups)
            if relation == "same" and first.dimension == "date":
                relation = _event_relation(first, second)
            both_named = bool(first.attribute and second.attribute)
            if relation == "same" and both_named:
                findings.certain.append(Pair(first, second, True))
            elif relation == "borderline" and both_named or relation == "same" and first.dimension != "date" \
                    and (first.attribute or second.attribute):
                # A date needs its event on both sides: "in 1973" alone is not "the prize in 1973".
                findings.borderline.append(Pair(first, second, False))
    index: dict[tuple[str, str, str | None], list[Fact]] = {}
    for fact in facts:
        index.setdefault((fact.label, fact.dimension, fact.attribute), []).append(fact)
    findings.certain = [p for p in findings.certain if not _source_also_agrees(p, facts, index)]
    certain_keys = {_pair_key(p) for p in findings.certain}
    findings.borderline = [p for p in findings.borderline if _pair_key(p) not in certain_keys
                           and not _source_also_agrees(p, facts, index)][:MAX_BORDERLINE]
    return findings


def _pair_key(pair: Pair) -> tuple[str, str, str, str | None]:
    return (pair.first.label, pair.second.label, pair.first.dimension,
            _base_attribute(pair.first.attribute or pair.second.attribute))


def _source_also_agrees(pair: Pair, facts: list[Fact], index: dict[tuple[str, str, str | None], list[Fact]]) -> bool:
    """One source gives the other's value elsewhere too: not a dispute between them."""
    for one, other in ((pair.first, pair.second), (pair.second, pair.first)):
        for fact in index.get((other.label, one.dimension, other.attribute), []):
            if fact is not other and _agree(fact, one):
                return True
    return False


# A judge for the borderline pairs: given them (numbered from 1 in order), a verdict per
# number: "disagree" (reported), "agree" or "different_facts" (not); a number left out is
# unresolved. The llm node gives the run's judge; tests give a stand-in.
PairJudge = Callable[[list[Pair]], Awaitable[dict[int, str]]]


async def resolve_borderline(findings: Findings, judge: PairJudge | None) -> tuple[list[Pair], int]:
    """The certain pairs plus the borderline ones the judge calls disagreements, and how
    many borderline pairs it left unjudged. No judge: the borderline pairs stay unresolved."""
    pairs = list(findings.certain)
    if not findings.borderline:
        return pairs, 0
    verdicts = await judge(findings.borderline) if judge is not None else {}
    unresolved = 0
    for number, pair in enumerate(findings.borderline, start=1):
        verdict = verdicts.get(number)
        if verdict == "disagree":
            pairs.append(pair)
        elif verdict is None:
            unresolved += 1
    return pairs, unresolved


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
    out: list[dict[str, Any]] = []
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
    questions = [q for q in questions if q and q.strip()]
    aliases = source_aliases(readable)
    named = _with_aliases(_question_names(questions), aliases)
    return pair_facts(relevant_facts(readable, questions, named), questions, aliases)


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



def contested_claims(claims: list[dict[str, Any]], items: list[dict[str, Any]]) -> dict[int, str]:
    """The claims verified as supported that give one side of a disagreement without citing
    the sources of the other sides: claim index → those sides ("3776 m [S1]"). A report must
    not show such a claim as simply supported."""
    out: dict[int, str] = {}
    for claim in claims:
        if not isinstance(claim, dict) or claim.get("verdict") != "supported":
            continue
        text = str(claim.get("text") or "")
        cited = {str(label).strip("[]") for label in claim.get("citations") or []}
        others = []
        for item in items:
            stated = stated_in(text, item)
            if not any(stated) or all(stated):
                continue
            for position, given in zip(item.get("positions", []), stated):
                labels = [str(label) for label in position.get("labels", [])]
                if not given and not set(labels) <= cited:
                    others.append(f"{position['value']} " + "".join(f"[{label}]" for label in labels))
        if others:
            out[int(claim.get("index", -1))] = "; ".join(dict.fromkeys(others))
    return out

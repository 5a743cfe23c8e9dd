"""Values bound to what they measure: a figure or a contrast word counts where the
passage gives it for the same thing, not wherever it occurs in the passage.

"The Python Steering Council accepted it in 2024" is not supported by "The Python Steering
Council accepted PEP 703 in 2023. Python 3.13, released in October 2024, …": 2024 is in the
passage, but for another thing. Each value of the claim (a number, date or version; a word of
a contrast set: sun/moon, colours, directions, 水力/風力/火力) is bound to the passage
sentence that best shares the claim's *other* words (the aligned sentence, weighted by how
rare each word is in the ledger):

- **bound**: the value is in a sentence that says about as much of the claim as the best one;
- **contradicted**: it is not, and the aligned sentence, which says what the claim says around
  the value, gives another value of the same kind in the same slot (another year, another
  "port …" number, 水力 where the claim has 風力). ``passage_value`` is that value when it is
  the only candidate, so a caller can correct the claim ("11444" → "11434");
- **unbound**: it is not, the passage gives several values of that kind, and which one the
  claim's belongs to cannot be read: for the judge, never "supported".

The kind of a number: a year, its unit's dimension (``numbers``), the noun it counts, or
for a bare number the word naming it ("port 11434", "Python 3.13", 「ポート11434」). Words
come from ``analyser`` (MeCab lemmas, English stems), like every other check.
"""

from __future__ import annotations

import math
import re
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from difflib import SequenceMatcher
from functools import lru_cache

from research.modules.core.language import Language
from research.modules.text.analyser import JAPANESE_RUN, STOP_WORDS, _tagger, stem, term_set, terms
from research.modules.text.numbers import (
    NumberMention,
    NumberSet,
    extract_numbers,
    prepare,
)

# Words that fill one slot and exclude each other there. Nouns and names of things, not the
# verbs and comparatives of ``structure`` (rise/fall, more/less), which in English sit in
# different clauses of one sentence too often to bind.
_GROUPS_EN = (
    "sun moon", "mercury venus earth mars jupiter saturn uranus neptune pluto",
    "red white black blue yellow green brown purple pink orange gray grey gold silver",
    "north south east west northeast northwest southeast southwest northern southern eastern western "
    "north-east north-west south-east south-west northeastern northwestern southeastern southwestern "
    "north-eastern north-western south-eastern south-western",
    "left right", "male female", "men women", "man woman", "boy girl", "husband wife", "father mother",
    "son daughter", "brother sister", "monday tuesday wednesday thursday friday saturday sunday",
    "spring summer autumn winter",
    "hydroelectric hydropower hydro wind solar nuclear geothermal coal biomass",
    "cat dog", "horse cow", "gasoline diesel electric", "ipv4 ipv6", "tcp udp", "http https",
    "python java javascript rust go ruby perl", "windows linux macos android ios",
)
_GROUPS_JA = (
    "赤 白 黒 青 黄色 茶色 緑 紫 ピンク オレンジ 灰色 金色 銀色 水色 黄緑 紺",
    "赤い 白い 黒い 青い 黄色い 茶色い", "東 西 南 北 東部 西部 南部 北部 北東 北西 南東 南西",
    "上 下", "左 右", "太陽 月", "水星 金星 地球 火星 木星 土星 天王星 海王星",
    "水力 風力 火力 太陽 原子 地熱 バイオマス 石炭 天然ガス", "男性 女性", "男 女", "男の子 女の子",
    "少年 少女", "男子 女子", "夫 妻", "父 母", "兄 姉 弟 妹", "息子 娘", "犬 猫", "馬 牛",
    "春 夏 秋 冬", "朝 昼 夜 夕方", "月曜 火曜 水曜 木曜 金曜 土曜 日曜", "陸 海 空",
    "前半 後半", "最大 最小", "最高 最低", "最初 最後", "輸入 輸出", "増加 減少", "上昇 下落 低下",
)


def _index(groups: tuple[str, ...], fold: Callable[[str], str]) -> dict[str, frozenset[str]]:
    out: dict[str, frozenset[str]] = {}
    for line in groups:
        group = frozenset(fold(w) for w in line.split())
        for word in group:
            out[word] = out.get(word, frozenset()) | group
    return out


_CONTRAST_EN = _index(_GROUPS_EN, stem)
_CONTRAST_JA = _index(_GROUPS_JA, lambda w: w)

BOUND_SHARE = 0.5  # a sentence holding the value must share this much of the best one's weight
STRONG_SHARE = 0.6  # the aligned sentence must hold this much of the claim's other words to contradict
RIVAL_SHARE = 0.3  # a sentence holding the claim's value and this much of the aligned one's weight: unclear

NAME_MAX = 4  # morphemes or words of one name in its slot ("長野県", "Sam Gross")

NUMBER_MISMATCH = "number_mismatch"
CONTRAST = "contrast"
UNBOUND = "value_unbound"  # not a reason the verifier shows: it says number_missing or missing_term


@dataclass(frozen=True)
class Sentence:
    """One passage sentence (or record field) as the binding reads it."""

    text: str
    label: str
    features: frozenset[str]


@dataclass(frozen=True)
class Binding:
    """A value of the claim that is not bound to the aligned sentence.

    ``outcome``: "contradicted" (the aligned sentence gives another value in the same slot;
    ``reason`` is number_mismatch or contrast) or "unbound" (``reason`` value_unbound).
    ``kind`` is "number" or "contrast"; ``claim_value`` is the value as the claim writes it; ``passage_value`` the aligned
    sentence's value for that slot when there is exactly one candidate, else None.
    """

    outcome: str
    reason: str
    claim_value: str
    kind: str
    passage_value: str | None
    sentence: Sentence | None
    complete: bool = False  # the aligned sentence holds every other word of the claim


_LATIN_BEFORE = re.compile(r"([a-z][a-z0-9\-]*)\s*$")
_CURRENCY_BEFORE = re.compile(r"([$€£¥₩])\s*$")
_CJK_BEFORE = re.compile(r"([\u30a0-\u30ff\u3400-\u4dbf\u4e00-\u9fffー]+)$")
_CJK_AFTER = re.compile(r"^([\u3400-\u4dbf\u4e00-\u9fff])")
_YEAR = re.compile(r"^\d{4}$")


def _is_year(mention: NumberMention) -> bool:
    return mention.unit in (None, "year") and not mention.worded and any(
        _YEAR.match(v) and 1000 <= int(v) <= 2200 for v in mention.values)


def number_kind(mention: NumberMention, prepared: str) -> str:
    """The slot a number fills: "year" for a date, its dimension ("length", "count:parameter",
    "time"; "years" for a span),
    "label:<word>" for a bare number named by the word before it ("port 11434" → label:port,
    「ポート11434」 → label:ポート) or the counter after it (「3個」 → label:個), else "bare"."""
    before = prepared[max(0, mention.start - 24): mention.start] if mention.start >= 0 else ""
    currency = _CURRENCY_BEFORE.search(before)
    if _is_year(mention) and currency is None:  # "$1,449" is a price, not a year
        return "year"
    if mention.dimension or mention.unit:
        kind = str(mention.dimension or mention.unit)
        return "years" if kind == "year" else kind  # "10 years", 「3年間」: a span, not a date
    if mention.start >= 0:
        if currency:
            return "label:" + currency.group(1)
        latin = _LATIN_BEFORE.search(before)
        if latin and len(latin.group(1)) > 1 and (latin.group(1) not in STOP_WORDS or stem(latin.group(1)) in _ENUMERATION):
            return "label:" + stem(latin.group(1))
        cjk = _CJK_BEFORE.search(before)
        if cjk:
            return "label:" + cjk.group(1)[-4:]
        after = _CJK_AFTER.match(prepared[mention.start + len(mention.text):])
        if after:
            return "label:" + after.group(1)
    return "bare"


# Numbers that count places in a list or a text ("Step 3", "(Passage 2)", 「手順3」), not what
# the claim measures: answers renumber steps and name the passages they read.
_ENUMERATION = frozenset(stem(w) for w in "passage passages step steps source sources document item items "
                         "paragraph line section part point tip method option stage phase no number fact".split())
_ENUMERATION_JA = ("手順", "ステップ", "出典", "段落", "項目", "番号", "パッセージ", "文書")


# "(Passages 1 and 2)", "passage 3:1-3", "Steps 2 to 4": every number of the reference is one.
_REFERENCE = re.compile(r"\b(?:passages?|sources?|documents?|steps?|facts?|paragraphs?|items?)\s*\d+"
                        r"(?:\s*(?:,|and|or|&|-|to|/|:)\s*(?:passages?\s*)?\d+)*")


# Sized for a large ledger's passages (each claim reads up to 40 of them): a smaller cache
# analysed the same passages again and again.
@lru_cache(maxsize=1 << 16)
def _typed(text: str) -> tuple[tuple[NumberMention, str], ...]:
    """The figures of ``text`` with the slot each fills; list and passage numbers left out."""
    prepared = prepare(text)
    references = [m.span() for m in _REFERENCE.finditer(prepared)]
    out = []
    for mention in _mentions(text):
        if mention.worded or any(a <= mention.start < b for a, b in references):
            continue
        kind = number_kind(mention, prepared)
        if kind.startswith("label:") and (kind[6:] in _ENUMERATION or kind[6:].endswith(_ENUMERATION_JA)):
            continue
        out.append((mention, kind))
    return tuple(out)


@lru_cache(maxsize=1 << 16)
def _number_set(text: str) -> NumberSet:
    return NumberSet(list(_mentions(text)))


@lru_cache(maxsize=1 << 16)
def _mentions(text: str) -> tuple[NumberMention, ...]:
    """The figures of ``text``, read once for both ``_typed`` and ``_number_set``."""
    return tuple(extract_numbers(text))


@lru_cache(maxsize=4096)
def _counter_nouns(text: str) -> frozenset[str]:
    """Members of the Japanese contrast sets that the analyser leaves out as possible counters
    (月 in 「地球と月」 is the moon; in 「10月」 it counts months and is not taken)."""
    tagger = _tagger()
    if tagger is None:
        return frozenset()
    out, previous = set(), None
    for word in tagger(text):
        feature = word.feature
        lemma = (getattr(feature, "lemma", None) or word.surface).split("-")[0]
        if lemma in _CONTRAST_JA and (getattr(feature, "pos3", "") or "").startswith("助数詞") \
                and not (previous is not None and ((getattr(previous.feature, "pos2", "") == "数詞")
                                                   or previous.surface[-1:].isdigit())):
            out.add(lemma)
        previous = word
    return frozenset(out)


_WEEKDAYS = frozenset(stem(w) for w in "monday tuesday wednesday thursday friday saturday sunday".split())


@lru_cache(maxsize=8192)
def _plain_words_en(text: str) -> frozenset[str]:
    """Stems of the English words of ``text`` written in lower case (and weekdays): a capital
    mid-sentence is a name ("Freddie Gray", "Green Day", "North Carolina", "Redding"), not a
    colour or a direction."""
    out = set()
    for match in re.finditer(r"[A-Za-z][A-Za-z\-]*", text):
        word = match.group(0)
        stemmed = stem(word.lower())
        if word.islower() or stemmed in _WEEKDAYS:
            out.add(stemmed)
        elif match.start() == 0 or re.search(r"[.!?]\s*$", text[: match.start()]):
            # First word of a sentence: a name only when the next word is capitalised too.
            rest = text[match.end():].lstrip()
            if not rest[:1].isupper():
                out.add(stemmed)
    return frozenset(out)


def _surface(term: str, text: str, language: Language) -> str:
    """The word of ``text`` whose stem is ``term`` (English), else the term itself."""
    if language == "ja":
        return term
    for token in re.findall(r"[A-Za-z][A-Za-z\-]*", text):
        if stem(token.lower()) == term:
            return token
    return term



@dataclass(frozen=True)
class _Token:
    key: str  # what the sequences are compared on: the surface (Japanese), lower case (English)
    surface: str
    term: str  # the word as ``analyser`` gives it: a lemma, an English stem
    name: bool  # a proper noun (MeCab), a capitalised English name
    noun: bool  # may stand in a name's slot: a noun, prefix or suffix (Japanese); a name (English)
    kind: str  # 地名, 人名, 組織名 … (Japanese), "" (English)


_EN_TOKEN = re.compile(r"[A-Za-z0-9]+(?:['’\-][A-Za-z0-9]+)*")


@lru_cache(maxsize=4096)
def _name_tokens(text: str, language: Language) -> tuple[_Token, ...]:
    """``text`` as the tokens a name's slot is read from (punctuation left out in English)."""
    if language == "ja":
        tagger = _tagger()
        if tagger is None:
            return ()
        out = []
        for word in tagger(text):
            feature = word.feature
            pos1, pos2 = getattr(feature, "pos1", "") or "", getattr(feature, "pos2", "") or ""
            lemma = (getattr(feature, "lemma", None) or word.surface).split("-")[0]
            out.append(_Token(word.surface, word.surface, lemma, pos2 == "固有名詞",
                              pos1 in ("名詞", "接頭辞", "接尾辞") and pos2 not in ("数詞", "代名詞"),
                              (getattr(feature, "pos3", "") or "") if pos2 == "固有名詞" else ""))
        return tuple(out)
    found = _EN_TOKEN.findall(text)
    out = []
    for i, word in enumerate(found):
        lower = word.lower()
        capital = word[:1].isupper() and lower not in STOP_WORDS
        # The first word of a sentence is a name only when the next one is capitalised too.
        name = capital and (i > 0 or (i + 1 < len(found) and found[i + 1][:1].isupper()) or word.isupper() and len(word) > 1)
        out.append(_Token(lower, word, stem(lower), name, name, ""))
    return tuple(out)


def _name_slot(said: tuple[_Token, ...], source: tuple[_Token, ...], at: int) -> tuple[int, int, int, int, bool] | None:
    """The claim's tokens ``i1:i2`` around index ``at`` and the source's ``j1:j2`` that stand in
    the same slot (the words on both sides are the same), with whether everything else is the
    same word for word; None when the name is not in such a slot."""
    codes = SequenceMatcher(None, [t.key for t in said], [t.key for t in source], autojunk=False).get_opcodes()
    for n, (tag, i1, i2, j1, j2) in enumerate(codes):
        if not i1 <= at < i2:
            continue
        if tag != "replace" or i2 - i1 > NAME_MAX or j2 - j1 > NAME_MAX:
            return None
        before = codes[n - 1][0] == "equal" if n else False
        after = codes[n + 1][0] == "equal" if n + 1 < len(codes) else False
        if not (before or after) or not (before or i1 == 0 and j1 == 0) or not (after or i2 == len(said) and j2 == len(source)):
            return None
        only = all(c[0] == "equal" for k, c in enumerate(codes) if k != n)
        return i1, i2, j1, j2, only
    return None


def _same_name(mine: list[str], theirs: list[str]) -> bool:
    """One name written two ways: "PhD" / "Ph. D.", "Med" / "Mediterranean", "AFH" /
    "America's Favorite Houseguest", 東大 / 東京大学 (the shorter's letters in order in the longer,
    or its initials)."""
    a, b = ("".join(re.findall(r"\w", "".join(x))).lower() for x in (mine, theirs))
    initials = ["".join(w[:1] for w in x).lower() for x in (mine, theirs)]
    short, long_ = sorted((a, b), key=len)
    if not short:
        return True
    it = iter(long_)
    if long_.startswith(short) or a in initials or b in initials:
        return True
    # 東大 / 東京大学: kanji abbreviations keep the longer name's characters in order.
    return not short.isascii() and all(ch in it for ch in short)


@dataclass(frozen=True)
class _Aligner:
    """The passage ``sentences`` scored against a claim's context (its units but the value in
    question), each unit weighed by how much finding it tells (``weight``)."""

    sentences: Sequence[Sentence]
    weight: Callable[[str], float]

    def align(self, context: frozenset[str]) -> tuple[list[float], int, float]:
        """Each sentence's score, the best sentence (the aligned one) and what the whole context weighs."""
        # fsum: the same sums whatever order the hash seed walks the sets in (ties stay ties).
        scores = [math.fsum(self.weight(u) for u in context & s.features) for s in self.sentences]
        top = max(range(len(self.sentences)), key=lambda i: scores[i])
        return scores, top, math.fsum(self.weight(u) for u in context)

    def shared(self, i: int, context: frozenset[str]) -> int:
        return len(context & self.sentences[i].features)

    def bound_in(self, i: int, scores: list[float], top: int, context: frozenset[str]) -> bool:
        return scores[i] >= BOUND_SHARE * scores[top] and self.shared(i, context) >= min(2, len(context))

    def strong(self, top: int, scores: list[float], total: float, context: frozenset[str], holders: list[int]) -> bool:
        """The aligned sentence says most of the claim, and no sentence that holds the claim's
        value says a good part of it too (then which sentence the claim follows is unclear)."""
        if total <= 0 or self.shared(top, context) < min(2, len(context)) or scores[top] < STRONG_SHARE * total:
            return False
        return not any(self.shared(i, context) >= 2 and scores[i] >= RIVAL_SHARE * scores[top]
                       for i in holders if i != top)


def bind_values(
    claim: str, language: Language, words: frozenset[str], sentences: Sequence[Sentence],
    weight: Callable[[str], float], vocabulary: frozenset[str] = frozenset(),
) -> list[Binding]:
    """The claim's values that the passage ``sentences`` (of the cited sources) do not bind.

    ``words`` are the claim's terms (``analyser``), ``weight`` how much finding a unit tells
    (``EvidenceIndex.weight``), ``vocabulary`` every term of the cited passages (a rival
    contrast word may stand in a sentence that shares nothing else with the claim). Empty when
    every value is bound, or there is nothing to bind.
    """
    if not sentences:
        return []
    index = _CONTRAST_JA if language == "ja" else _CONTRAST_EN
    extra = _counter_nouns(claim) if language == "ja" else frozenset()
    typed = _typed(claim)
    said_tokens = _name_tokens(claim, language)
    named = any(t.name for t in said_tokens)
    if not typed and not extra and not named and not any(w in index for w in words):
        return []
    # The claim's other figures help find the sentence only when they name their slot: a bare
    # "1" also numbers the passage's lists.
    claim_units = words | frozenset("#" + v for m, kind in typed if kind != "bare" for v in m.values)
    aligner = _Aligner(sentences, weight)
    problems = _unbound_numbers(typed, claim_units, aligner, claim, words)
    problems += _paired_elsewhere(typed, sentences, {b.claim_value for b in problems})
    problems += _said_of_another(claim, language, typed, sentences,
                                 {b.claim_value for b in problems if b.outcome == "contradicted"})
    problems += _unbound_names(said_tokens, words, claim_units, language, aligner)
    if extra:
        # Members of a contrast set the analyser left out as counters (月 in 「地球と月」, the moon)
        # are words of the claim and of the passage here.
        words = words | extra
        sentences = [Sentence(s.text, s.label, s.features | _counter_nouns(s.text)) for s in sentences]
        claim_units = claim_units | extra
    problems += _unbound_contrast_words(claim, language, words, claim_units, index, vocabulary,
                                        _Aligner(sentences, weight))
    return problems


def _unbound_numbers(typed: tuple[tuple[NumberMention, str], ...], claim_units: frozenset[str],
                     aligner: _Aligner, claim: str = "", words: frozenset[str] = frozenset()) -> list[Binding]:
    """Each figure of the claim (with its kind) that the aligned sentence gives otherwise, or
    that several sentences give for values of its kind."""
    if not typed:
        return []
    problems: list[Binding] = []
    sentences = aligner.sentences
    sets = [_number_set(s.text) for s in sentences]
    sentence_typed = [_typed(s.text) for s in sentences]
    claim_values = {v for m, _ in typed for v in m.values}
    counts = Counter((kind, min(m.values)) for m, kind in typed)
    # A date's month and year say when, not what: "accepted PEP 703 in October 2024" must be read
    # against the sentence on accepting PEP 703, not drawn by "October" to "Python 3.13, released
    # in October 2024, …" (where 2024 stands, so it was bound and the false claim supported).
    date_parts = frozenset({"#" + v for m, k in typed if k in ("year", "month") for v in m.values}
                           | {t for m, k in typed if k == "month" for t in term_set(m.text)})
    for mention, kind in typed:
        context = claim_units - {"#" + v for v in mention.values}
        if kind in ("year", "month"):
            context = context - date_parts
        if not context:
            continue
        scores, top, total = aligner.align(context)
        if scores[top] <= 0:
            continue
        holders = [i for i, numbers in enumerate(sets) if numbers.contains(mention)]
        aligned = sentences[top]
        complete = context <= aligned.features
        single = NumberSet([mention])

        def others_in(i: int, kind: str = kind, single: NumberSet = single,
                      mention: NumberMention = mention) -> list[NumberMention]:
            """Values of the kind in sentence ``i`` that are none of the claim's (nor round to it)."""
            return [m for m, k in sentence_typed[i] if k == kind and not (m.values & claim_values)
                    and not single.contains(m) and not NumberSet([m]).contains(mention)]

        def candidate(others: list[NumberMention]) -> str | None:
            return others[0].text if len({min(m.values) for m in others}) == 1 else None

        if any(aligner.bound_in(i, scores, top, context) for i in holders) \
                and not _event_only_in(top, mention, claim, aligner, holders):
            if top in holders and (other_clause := _given_in_another_clause(mention, kind, claim, words,
                                                                             aligned)) is not None:
                problems.append(other_clause)
                continue
            # "1と1" against 「0と1」: the claim repeats a value the aligned sentence gives once,
            # beside another of the same kind.
            repeated = counts[(kind, min(mention.values))]
            if repeated > 1 and top in holders:
                given = sum(1 for m, k in sentence_typed[top] if k == kind and m.values & mention.values)
                slots = sum(1 for _, k in sentence_typed[top] if k == kind)
                others = others_in(top)
                # Only where the sentence has as many values of the kind as the claim: one slot each.
                if given < repeated and others and slots == sum(1 for _, k in typed if k == kind) \
                        and aligner.strong(top, scores, total, context, []):
                    problems.append(Binding("contradicted", NUMBER_MISMATCH, mention.text, "number",
                                            candidate(others), aligned, complete))
            continue
        others = others_in(top)
        # One other value of the kind in the sentence: the slot is clear. Two ("between 1978 and
        # 1991") may be other slots: for the judge.
        if others and candidate(others) is not None and top not in holders \
                and aligner.strong(top, scores, total, context, holders) and (kind not in ("bare", "label:$") or complete):
            problems.append(Binding("contradicted", NUMBER_MISMATCH, mention.text, "number",
                                    candidate(others), aligned, complete))
            continue
        if holders:
            of_kind = {min(m.values) for typed_here in sentence_typed for m, k in typed_here if k == kind}
            if len(of_kind | {min(mention.values)}) >= 2:
                if _bound_in_own_clause(mention, kind, claim, aligner, holders, sentence_typed):
                    continue
                elsewhere = _given_for_another(mention, kind, claim, words, aligner, holders, sentence_typed)
                problems.append(elsewhere or Binding("unbound", UNBOUND, mention.text, "number", None, aligned, complete))
                continue
        # The aligned sentence gives its figures without naming them, and the claim's is not among
        # them: 「1992年選挙で132議席」 against 「議席数は、1992年選挙では85、1997年選挙では99…」 (the
        # 132 is the seats of today, in another sentence). Which of them is the claim's slot cannot
        # be read, so it is for the judge, never "supported".
        if kind not in ("bare", "year") and top not in holders and aligner.strong(top, scores, total, context, holders) \
                and any(k == "bare" and not (m.values & claim_values) for m, k in sentence_typed[top]):
            problems.append(Binding("unbound", UNBOUND, mention.text, "number", None, aligned, complete))
    return problems


# Where a clause of a passage sentence ends: a year and the figure beside it in one clause are a
# pair ("from 85 in the 1992 election to 99 in 1997", 「1992年選挙では85、1997年選挙では99」).
_CLAUSE_END = re.compile(r"[,;:、，；。]|\s(?:and|to|while|but|whereas|versus|vs\.?)\s", re.IGNORECASE)


# A time given from another ("three years later", 「その3年後」): the sentence's year is not its event's.
_RELATIVE_TIME = re.compile(r"\b(?:later|earlier|afterwards?|ago|before|after|prior|previous|following|next|same year|"
                            r"that year)\b|後|前|翌|同年|前年|昨年|来年", re.IGNORECASE)


def _clause_holding(claim: str, mention: NumberMention) -> str | None:
    """The clause of ``claim`` that gives ``mention``."""
    return next((c for c in _dated_clauses(prepare(claim)) if _number_set(c).contains(mention)), None)


def _dated_clauses(text: str) -> list[str]:
    """``text`` cut into clauses, a date that stands alone before a comma read with the clause it dates:
    「1863年、…石油精製業に乗り出し、1870年、スタンダード石油を設立した。」 gives 1870 to the founding, and
    read apart, the year's clause said nothing that happened, so 「…乗り出したのは1870年です」 was bound and
    supported (JSQuAD, the real 1.5B model's sentence with its year; `research bench jsquad --seed 122`)."""
    pieces: list[tuple[str, str, str]] = []  # (what ended the clause before, the clause, what ends it)
    at, before = 0, ""
    for end in _CLAUSE_END.finditer(text):
        pieces.append((before, text[at:end.start()], end.group(0)))
        at, before = end.end(), end.group(0)
    pieces.append((before, text[at:], ""))
    out: list[str] = []
    waiting = ""
    for opened_by, clause, ended_by in pieces:
        if not clause:
            continue
        if waiting:
            clause = f"{waiting}、{clause}" if JAPANESE_RUN.search(waiting) else f"{waiting}, {clause}"
            waiting = ""
        # Only a date that opens its clause and is cut from the rest by a comma ("2012" of "between 2005
        # and 2012, with …" ends a range: it dates nothing after it).
        if ended_by.strip() in (",", "、", "，") and opened_by.strip() in ("", ",", "、", "，", ";", "；", "。", ".") \
                and clause.strip() and not _event_terms(clause) \
                and any(k in ("year", "month", "date") for _, k in _typed(clause)):
            waiting = clause
            continue
        out.append(clause)
    if waiting:
        out.append(waiting)
    return out


def _given_for_another(mention: NumberMention, kind: str, claim: str, words: frozenset[str], aligner: _Aligner,
                       holders: list[int], sentence_typed: list[tuple[tuple[NumberMention, str], ...]]) -> Binding | None:
    """A year the passage gives for one event, that the claim's clause gives to another: "Python
    got free-threading in 2023, with Python 3.13, released in October 2024, …" against "The Python
    Steering Council accepted PEP 703 in 2023. Python 3.13, released in October 2024, ships an
    experimental free-threaded build." (the real 1.5B model). Read over the whole claim, 2023's
    sentence cannot be told (the claim also says what the second sentence says); read over the
    claim's own clause around the year ("Python got free-threading in 2023"), it can: the clause
    shares two or more words with a sentence that gives one other year, and at most one (its
    subject) with every sentence holding the claim's. Contradicted, with that sentence's year."""
    if kind != "year" or not claim or not words:
        return None
    clause = _clause_holding(claim, mention)
    if clause is None:
        return None
    # The source's framing words (its title's: "Python", "free-threaded") count here: they tell its own
    # sentences apart, which is what the clause is aligned with.
    context = term_set(clause)
    if len(context) < 2:
        return None
    scores, top, total = aligner.align(context)
    if top in holders or aligner.shared(top, context) < 2 or scores[top] < BOUND_SHARE * total:
        return None
    # A holder sharing who and where may still give the year to another event (``_event_only_in``).
    event_only = _event_only_in(top, mention, claim, aligner, holders)
    if not event_only and any(aligner.shared(i, context) >= 2 or scores[i] >= BOUND_SHARE * scores[top]
                              for i in holders):
        return None
    own = NumberSet([mention])
    # A year the clause itself gives too is that one, not another for this one: "…between 1988 and 2012 shows a
    # sustained increase in the trend since 2008 …" against «A sustained increase was observed in the trend since
    # 2008 …» (PubMedQA 25487603, `research bench pubmedqa --sample 4 --seed 118`: the real 1.5B model's true
    # sentence, contradicted for 2012). (Another clause's year may be the other event's: 2024 above.)
    clause_years = {v for m, k in _typed(clause) if k == "year" for v in m.values}
    years = {min(m.values): m for m, k in sentence_typed[top]
             if k == "year" and not own.contains(m) and not m.values <= clause_years}
    if len(years) > 1 and event_only:
        # Of the aligned sentence's years (the claim's others left out), the one of its clause that
        # says the claim's event: 1950年代 of 「…1950年代にポルトガルに帰ってから」, not 1942 or 1956.
        claim_years = {v for m, k in _typed(claim) if k == "year" for v in m.values}
        happened = _happened(clause)
        years = {value: m for value, m in years.items() if not m.values <= claim_years
                 and (held := _clause_holding(aligner.sentences[top].text, m)) is not None and happened <= term_set(held)}
    if len(years) != 1 or any(k == "year" and own.contains(m) for m, k in sentence_typed[top]):
        return None
    if _RELATIVE_TIME.search(aligner.sentences[top].text):
        # "He converted to Islam in 1995 and left the United States for Pakistan three years later"
        # (RAGTruth): the sentence dates the claim's event from its year, not with it.
        return None
    (other,) = years.values()
    return Binding("contradicted", NUMBER_MISMATCH, mention.text, "number", other.text, aligner.sentences[top], False)


def _event_only_in(top: int, mention: NumberMention, claim: str, aligner: _Aligner, holders: list[int]) -> bool:
    """Whether what the claim's clause around ``mention`` says happened (its verbs; Japanese only,
    where MeCab tells them) is said by the aligned sentence ``top`` and by no sentence holding the
    claim's value: those share only who and where, and give the value to another event.
    「マノエル・デ・オリヴェイラは1931年にポルトガルに帰ってから…撮影した」 against 「…1950年代にポルトガル
    に帰ってから…撮影した。」 and 「…1931年にはマノエル・デ・オリヴェイラによって『ドウロ川』が制作された。」
    (JSQuAD, the real 1.5B model: left to its judge, which said supported)."""
    if not claim or top in holders:
        return False
    clause = _clause_holding(claim, mention)
    happened = _happened(clause) if clause is not None else frozenset()
    return bool(happened) and happened <= aligner.sentences[top].features \
        and not any(happened & aligner.sentences[i].features for i in holders)


def _happened(clause: str) -> frozenset[str]:
    """The verbs of a Japanese clause (as ``terms`` writes them); none in English (no tagger)."""
    if not JAPANESE_RUN.search(clause):
        return frozenset()
    return frozenset(t.text for t in terms(clause) if t.predicate)


def _bound_in_own_clause(mention: NumberMention, kind: str, claim: str, aligner: _Aligner, holders: list[int],
                         sentence_typed: list[tuple[tuple[NumberMention, str], ...]]) -> bool:
    """A claim that joins two passage sentences in one gives each its figure in its own clause:
    "Fox is developing a two-hour remake of the 1975 cult classic …, to celebrate the 40th
    anniversary of the film" against "Fox is developing a two-hour remake of the 1975 cult
    classic …" and "The special is timed to celebrate the 40th anniversary of the film"
    (RAGTruth train). Over the whole claim the first sentence is the aligned one and 40 is not
    there; over the clause that gives it, every word of the clause is in a sentence that gives
    40, and no sentence giving another value of its kind says as much of the clause. Bound."""
    clause = _clause_holding(claim, mention)
    if clause is None:
        return False
    context = term_set(clause) - {"#" + v for v in mention.values}
    if len(context) < 2:
        return False
    scores, top, total = aligner.align(context)
    if total <= 0 or not any(context <= aligner.sentences[i].features for i in holders):
        return False
    own = NumberSet([mention])
    return not any(i not in holders and scores[i] >= STRONG_SHARE * total
                   and any(k == kind and not own.contains(m) for m, k in sentence_typed[i])
                   for i in range(len(aligner.sentences)))


# What dates a clause, not what happened in it: months and the counters of a date.
_DATE_TERMS = frozenset(stem(w) for w in "january february march april may june july august september october "
                                         "november december".split()) | {"年", "月", "日"}


def _event_terms(text: str) -> frozenset[str]:
    return frozenset(t for t in _clause_terms(text) if t not in _DATE_TERMS and not any(c.isdigit() for c in t))


# A clause that describes the one before it ("…, which invalidated …"), and a year naming a thing
# ("the 1996 law", "a 2019 study"): neither dates an event of its own.
_DESCRIBES_WHAT_CAME_BEFORE = re.compile(r"\s*(?:which|who|whom|whose|that|where|when)\b", re.IGNORECASE)
_YEAR_AS_A_NAME = re.compile(r"\b(?:the|a|an|its|their|his|her)\s+\d{4}\s+[a-z]", re.IGNORECASE)


def _given_in_another_clause(mention: NumberMention, kind: str, claim: str, words: frozenset[str],
                             sentence: Sentence) -> Binding | None:
    """A year the aligned sentence gives in one clause, that the claim gives to the event of
    another of its clauses: "Mount Fuji's last eruption began in 1708" against "Its last eruption
    began on 16 December 1707 and ended on 1 January 1708." (a translation of the real 1.5B
    model's Japanese). The sentence holds 1708, so it was bound, and the false claim supported.
    Contradicted, with the other clause's year, where the claim's clause around its year shares
    no word with the clause that gives it (which says something of its own: "ended") and shares
    one with the clause that gives the only other year ("began"). A time given from another
    ("three years later") decides nothing."""
    if kind != "year" or not claim or not words or _RELATIVE_TIME.search(sentence.text):
        return None
    said = _clause_holding(claim, mention)
    if said is None:
        return None
    said_terms = _event_terms(said) & words
    own = NumberSet([mention])
    clauses = [(clause, typed) for clause, typed in _clauses(sentence.text) if clause.strip()]
    holding = [clause for clause, typed in clauses if any(own.contains(m) for m, k in typed if k == "year")]
    others = [(clause, m) for clause, typed in clauses for m, k in typed if k == "year" and not own.contains(m)]
    if len(holding) != 1 or len({min(m.values) for _, m in others}) != 1:
        return None
    own_terms = _event_terms(holding[0])
    other_clause, other = others[0]
    # A word both clauses say tells neither apart (石油 of 「石油精製業に乗り出し」 and 「スタンダード石油を設立した」),
    # and nor does the subject of a Japanese clause that the next one, naming none, goes on with
    # (ロックフェラー of 「1863年、ロックフェラーが…乗り出し、1870年、スタンダード石油を設立した」).
    shared_with_own = said_terms & (own_terms - _event_terms(other_clause))
    if shared_with_own and JAPANESE_RUN.search(other_clause) and not _TOPIC_END_JA.search(other_clause) \
            and (subject := _TOPIC_END_JA.search(holding[0])) is not None:
        shared_with_own -= _event_terms(holding[0][: subject.start()])
    if other_clause == holding[0] or not own_terms or shared_with_own \
            or not said_terms & (_event_terms(other_clause) - own_terms):
        return None
    if _DESCRIBES_WHAT_CAME_BEFORE.match(other_clause) or _YEAR_AS_A_NAME.search(other_clause):
        # "Windsor in 2013, which invalidated most of the 1996 law known as the Defense of Marriage
        # Act" (RAGTruth train): the clause tells of 2013's ruling, and 1996 names the law.
        return None
    return Binding("contradicted", NUMBER_MISMATCH, mention.text, "number", other.text, sentence, False)


def _kinds_may_match(mine: str, theirs: str) -> bool:
    """A figure of kind ``theirs`` may fill the slot of the claim's ``mine``: the same kind, or
    one of the two names none ("85" beside 「132議席」)."""
    return mine == theirs or "bare" in (mine, theirs)


def _paired_elsewhere(typed: tuple[tuple[NumberMention, str], ...], sentences: Sequence[Sentence],
                      already: set[str]) -> list[Binding]:
    """A figure of the claim that a sentence holding the claim's year does not give, where that
    sentence pairs the year with a figure of its own in one clause: 「1992年選挙で132議席」 against
    「…1992年選挙では85、1997年選挙では99…」 and 「132議席で、民選、任期5年。」 (the real 1.5B model,
    JSQuAD). Each figure is in a passage, but not together: which goes with the year is for the
    judge, never "supported". A sentence that gives the claim's figure too decides nothing here."""
    years = [m for m, kind in typed if kind == "year"]
    figures = [(m, kind) for m, kind in typed if kind not in ("year", "years")]
    if not years or not figures:
        return []
    claim_values = {v for m, _ in typed for v in m.values}
    problems: list[Binding] = []
    for figure, kind in figures:
        if figure.text in already:
            continue
        if any(numbers.contains(figure) and any(numbers.contains(year) for year in years)
               for numbers in (_number_set(s.text) for s in sentences)):
            # A sentence gives the figure with the year: "Renewable energy supplied 21.7% … in
            # fiscal 2022" is bound there, whatever "…hydropower 7.6% … in fiscal 2022" pairs.
            continue
        for sentence in sentences:
            numbers = _number_set(sentence.text)
            if numbers.contains(figure) or not any(numbers.contains(year) for year in years):
                continue
            paired = [m for clause in _CLAUSE_END.split(sentence.text)
                      if any(_number_set(clause).contains(year) for year in years)
                      for m, k in _typed(clause)
                      if k not in ("year", "years") and not (m.values & claim_values) and _kinds_may_match(kind, k)]
            if paired:
                problems.append(Binding("unbound", UNBOUND, figure.text, "number", None, sentence, False))
                break
    return problems


# Where a Japanese sentence's topic ends: its first は or が outside quotation marks.
_TOPIC_END_JA = re.compile(r"(?:は|が)(?![^「」『』]*[」』])")
# Words that point back to a thing named before: a figure said of "its revenue" or 「同社の売上」
# may be said of the claim's own subject.
_POINTS_BACK = re.compile(r"\b(?:it|its|they|their|this|these|that|those|he|she|his|her|former|latter)\b"
                          r"|同社|同氏|同国|同市|同年|同党|同機|その|この|これ|それ|彼", re.IGNORECASE)


# English has no topic marker: a figure is said of the words before it only where they are a
# plain "<subject> <verb>" ("Hydropower supplied 9.2%", "The company's revenues were $5 billion").
# Words before it that start otherwise are a relative clause, a preposition's object or a person
# ("which costs around $707", "for 260 yards", "You can pour 1/2 a bottle"): nothing is read.
_NOT_A_SUBJECT_EN = frozenset(
    "which that who whom whose where when while and but or nor so for from to by with in on at of as about until "
    "till between since "
    "around after before than then also you we i it its they their them this these those he she his her there "
    "here has have had is was are were be been being will would can could may might must shall should does did "
    "do not".split())
_LEADING_UP_TO_EN = frozenset(
    "at to for by of about around nearly almost over under up down some roughly approximately only just "
    "more less than an a the from until till between since".split())
_AUXILIARY_EN = frozenset("is was are were be been has have had will would can could may might did does do".split())
_PLAIN_VERB_EN = frozenset("rose fell grew stood made hit won lost paid cost spent took gave got ran saw".split())
_MAX_SUBJECT_WORDS_EN = 6


def _subject_before_en(before: str) -> str | None:
    """The subject of "<subject> <verb> <figure>" in the words before an English figure, or None
    where they are not that shape."""
    words = re.findall(r"[A-Za-z][\w'’\-]*|\S", before)
    if not words or any(ch.isdigit() for ch in before) or words[0].lower() in _NOT_A_SUBJECT_EN:
        return None
    while words and words[-1].lower() in _LEADING_UP_TO_EN:
        words.pop()
    if words and (words[-1].lower() in _PLAIN_VERB_EN or words[-1].lower().endswith("ed")
                  or (len(words) > 1 and re.fullmatch(r"[a-z]+[^s]s", words[-1]) is not None)):
        words.pop()  # the verb: "supplied", "supplies", "rose"
    while words and words[-1].lower() in _AUXILIARY_EN:
        words.pop()
    # "The Set is open from 11:30 AM": a copula inside says a state, not what the figure is of.
    if not words or len(words) > _MAX_SUBJECT_WORDS_EN or not all(w[0].isalpha() for w in words) \
            or any(w.lower() in _AUXILIARY_EN for w in words):
        return None
    return " ".join(words)


def _spoken_of(sentence: str, clause: str, figure: NumberMention,
               language: Language) -> tuple[str, frozenset[str]] | None:
    """What a figure is said of, as text and as terms; None where that cannot be read. Japanese:
    its clause's words before it and its sentence's topic (the words before the first は/が,
    where they hold no figure): 「太陽光発電は…種類で、21.7%の割合を占めています」 says 21.7% of 太陽光発電.
    English: the subject of its clause's "<subject> <verb> <figure>"."""
    before = clause[:max(clause.find(figure.text), 0)]
    if language != "ja":
        subject = _subject_before_en(before)
        return (subject, term_set(subject)) if subject is not None else None
    end = _TOPIC_END_JA.search(sentence)
    if end is not None and not re.search(r"\d", sentence[:end.start()]):
        before = sentence[:end.start()] + " " + before
    return before, term_set(before)


@lru_cache(maxsize=1 << 14)
def _clauses(text: str) -> tuple[tuple[str, tuple[tuple[NumberMention, str], ...]], ...]:
    """Each clause of ``text`` with its figures: a passage's are read once for every claim."""
    return tuple((clause, _typed(clause)) for clause in _dated_clauses(text))


@lru_cache(maxsize=1 << 14)
def _clause_terms(clause: str) -> frozenset[str]:
    return term_set(clause)


def _said_of_another(claim: str, language: Language, typed: tuple[tuple[NumberMention, str], ...],
                     sentences: Sequence[Sentence], already: set[str]) -> list[Binding]:
    """A figure the passage gives for another thing, where it gives another figure of the kind for
    the thing the claim says it of: 「太陽光発電は…21.7%の割合を占めています」 against 「…再生可能エネルギー
    の割合は21.7%だった」 and 「…太陽光発電が9.2%で最も多く、…」 (the real 1.5B model: 21.7% is all
    renewables'). Contradicted, with the figure the passage pairs with the claim's subject.

    Only where it is sure: the claim gives one figure of the kind; every sentence holding the figure
    says it, in the clause that gives it, of something it names (not "its", 「同社」) without a word
    of the claim's subject; and one clause holds more words of that subject than any holder, and
    each that the holders lack, one other figure of the kind, and no figure the claim does not give
    (another year may be another time, unless every holder gives that year too)."""
    claim_values = {v for m, _ in typed for v in m.values}
    kinds = Counter(kind for _, kind in typed)
    problems: list[Binding] = []
    for clause, here in _clauses(claim):
        for figure, kind in here:
            if kind in ("bare", "year", "years") or kinds[kind] != 1 or figure.text in already:
                continue
            spoken = _spoken_of(claim, clause, figure, language)
            subject = frozenset(t for t in spoken[1] if len(t) > 1 or not t.isascii()) if spoken else frozenset()
            if not subject:
                continue
            holders = 0
            sure = True
            held_most = 0  # the most words of the subject a holder says its figure of
            theirs_named: set[str] = set()
            holder_years: set[str] | None = None  # the years every holding sentence gives
            pairs: list[tuple[NumberMention, frozenset[str], Sentence, set[str]]] = []
            for sentence in sentences:
                for theirs, their_typed in _clauses(sentence.text):
                    held = [m for m, _ in their_typed if NumberSet([m]).contains(figure) or NumberSet([figure]).contains(m)]
                    if held:
                        holders += 1
                        years_here = {min(m.values) for m, k in _typed(sentence.text) if k == "year"}
                        holder_years = years_here if holder_years is None else holder_years & years_here
                        holder = _spoken_of(sentence.text, theirs, held[0], language)
                        said, named = holder if holder else ("", frozenset())
                        if holder is None or subject <= _clause_terms(theirs) | named or not (named - subject) \
                                or _POINTS_BACK.search(said):
                            sure = False
                        theirs_named |= named
                        held_most = max(held_most, len(subject & (_clause_terms(theirs) | named)))
                        continue
                    of_kind = [m for m, k in their_typed if k == kind]
                    rest = [(m, k) for m, k in their_typed if k != kind and not (m.values & claim_values)]
                    if len(of_kind) == 1 and all(k == "year" for _, k in rest) and not (of_kind[0].values & claim_values) \
                            and _spoken_of(sentence.text, theirs, of_kind[0], language) is not None:
                        pairs.append((of_kind[0], _clause_terms(theirs), sentence, {min(m.values) for m, _ in rest}))
            # The pair names the subject better than any holder, with every word of it that the
            # holders lack: 「太陽光発電の割合は9.2%」 is not said of all renewables by 「再生可能
            # エネルギーの割合は21.7%」 (割合 and 発電: as much of it as 「…太陽光発電が9.2%…」 names).
            # A year the pair gives and the claim does not may be another time, unless every sentence
            # holding the figure gives it too ("Solar power supplied 9.2% and hydropower 7.6% … in
            # fiscal 2022": both said of 2022).
            telling = subject - theirs_named
            pair = next(((m, s) for m, words, s, years in pairs
                         if telling <= words and len(subject & words) > held_most and years <= (holder_years or set())),
                        None) if telling else None
            if holders and sure and pair is not None:
                problems.append(Binding("contradicted", NUMBER_MISMATCH, figure.text, "number", pair[0].text, pair[1],
                                        False))
    return problems


def _unbound_names(said_tokens: tuple[_Token, ...], words: frozenset[str], claim_units: frozenset[str],
                   language: Language, aligner: _Aligner) -> list[Binding]:
    """「長野県と山梨県」 against 「静岡県と山梨県」: a name of the claim that the aligned sentence
    lacks, where that sentence has another name of the same kind between the same words.
    「山梨県と静岡県」 against 「静岡県と山梨県」 names no other: both are in the sentence."""
    problems: list[Binding] = []
    sentences = aligner.sentences
    done: set[tuple[int, int]] = set()
    for at, token in enumerate(said_tokens):
        if not token.name or token.term not in words:
            continue
        context = claim_units - {token.term}
        if not context:
            continue
        scores, top, total = aligner.align(context)
        if scores[top] <= 0:
            continue
        aligned = sentences[top]
        if token.term in aligned.features:
            continue
        theirs_tokens = _name_tokens(aligned.text, language)
        slot = _name_slot(said_tokens, theirs_tokens, at)
        if slot is None or (slot[0], slot[1]) in done:
            continue
        i1, i2, j1, j2, only = slot
        mine, theirs = said_tokens[i1:i2], theirs_tokens[j1:j2]
        if not all(t.noun for t in (*mine, *theirs)):
            continue
        rivals = [t for t in theirs if t.name and t.term not in words]
        if not rivals or any(t.term in aligned.features for t in mine if t.name) \
                or _same_name([t.surface for t in mine], [t.surface for t in theirs]):
            continue
        # Of the same kind: both places or both persons (MeCab), or the same noun after both
        # (県, 市, 州, さん), which the slot shares.
        kinds = {t.kind for t in mine if t.name} & {t.kind for t in rivals} - {"", "一般"}
        suffix = said_tokens[i2] if i2 < len(said_tokens) and said_tokens[i2].noun and not said_tokens[i2].name else None
        if language == "ja" and not (kinds or suffix):
            continue
        done.add((i1, i2))
        holders = [i for i, s in enumerate(sentences) if token.term in s.features]
        joiner = "" if language == "ja" else " "
        claim_value = joiner.join(t.surface for t in mine)
        passage_value = joiner.join(t.surface for t in theirs)
        if language == "ja" and suffix is not None:
            claim_value += suffix.surface  # 長野県 / 静岡県: the name with the suffix both have
            passage_value += suffix.surface
        complete = context - {t.term for t in mine} <= aligned.features
        # English names are read without a parser: contradicted only where the rest of the
        # sentence is the claim word for word.
        if aligner.strong(top, scores, total, context - {t.term for t in mine}, holders) and (language == "ja" or only):
            problems.append(Binding("contradicted", CONTRAST, claim_value, "name", passage_value, aligned,
                                    complete or only))
        else:
            problems.append(Binding("unbound", UNBOUND, claim_value, "name", None, aligned, complete))
    return problems


def _unbound_contrast_words(claim: str, language: Language, words: frozenset[str], claim_units: frozenset[str],
                            index: dict[str, frozenset[str]], vocabulary: frozenset[str],
                            aligner: _Aligner) -> list[Binding]:
    """Each word of a contrast set in the claim (sun/moon, 水力/風力) where the aligned sentence
    names another member of its set, or several sentences hold it without one saying the claim."""
    problems: list[Binding] = []
    sentences = aligner.sentences
    plain = _plain_words_en(claim) if language != "ja" else None
    for word in sorted(words):
        group = index.get(word)
        if not group or plain is not None and word not in plain:
            continue
        # The members of the set named in the cited passages, without joining their whole
        # vocabulary for every claim (that was a copy of the ledger's words per claim).
        rivals = frozenset().union(group & vocabulary, *(group & s.features for s in sentences)) - words
        if not rivals:
            continue  # the passage names no other member: nothing to confuse it with
        context = claim_units - {word}
        if not context:
            continue
        scores, top, total = aligner.align(context)
        if scores[top] <= 0:
            continue
        holders = [i for i, s in enumerate(sentences) if word in s.features]
        if any(aligner.bound_in(i, scores, top, context) for i in holders):
            continue
        aligned = sentences[top]
        theirs = sorted((group & aligned.features) - words)
        if plain is not None:
            theirs = [w for w in theirs if w in _plain_words_en(aligned.text)]
        complete = context <= aligned.features
        if theirs and word not in aligned.features and aligner.strong(top, scores, total, context, holders):
            problems.append(Binding("contradicted", CONTRAST, _surface(word, claim, language), "contrast",
                                    _surface(theirs[0], aligned.text, language) if len(theirs) == 1 else None,
                                    aligned, complete))
        elif holders:
            problems.append(Binding("unbound", UNBOUND, _surface(word, claim, language), "contrast", None, aligned,
                                    complete))
    return problems

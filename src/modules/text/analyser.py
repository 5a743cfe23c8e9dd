"""Words for comparing texts, in Japanese and English alike: one analyser for the verifier and BM25.

Japanese is cut into morphemes by MeCab (fugashi + unidic-lite) and compared by lemma, so
"噴火した" and "噴火は" share 噴火 and a swapped noun (水力→風力) is a different word, not
a shared bigram 力. Without the dictionary it falls back to character bigrams. English is
lower-case word stems without stop words. Both kinds of term can live in one text
("LangGraphのチェックポイント").
"""

from __future__ import annotations

import math
import os
import re
import time
import unicodedata
from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from research.modules.text.numbers import UNIT_NAMES, prepare

JAPANESE_RUN = re.compile(r"[\u3040-\u309f\u30a0-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff々〆ヵヶー]+")
_HIRAGANA_ONLY = re.compile(r"^[\u3040-\u309fー]+$")
_WORD = re.compile(r"(?<![0-9])[a-zà-ɏ][a-zà-ɏ0-9'’\-_]*")
# Units and approximators are compared by the number check, not as words.
_NUMBER_WORDS = frozenset("km m cm mm kg g t am pm a.m p.m percent 約 およそ 程度 メートル キロメートル キロ センチ パーセント".split())
_UNIT_WORDS = _NUMBER_WORDS | frozenset(name for name in UNIT_NAMES if name.isascii())
# Function words, and the verbs that say how a source says or offers something ("states",
# "mentioned", "confirms this, stating that …"): no fact a source must hold.
_STOP_WORDS = frozenset(
    """a an the and or but if then than so as of in on at to for from by with about into over
    after before between during under above is are was were be been being am do does did has
    have had having it its it's this that these those there here which who whom whose what when
    where why how not no nor can could may might must shall should will would also very more
    most such only own same other some any each few both all just too i you he she we they me
    him her us them my your his our their s t according says said while however although though
    well including include includes included based provided given passage passages text
    mentioned mention mentions stated state states offer offers offered offering provide provides
    providing features featuring available stating noting noted notes confirm confirms confirmed
    confirming respectively""".split()
)
STOP_WORDS = _STOP_WORDS  # for the structure checks: words that name nothing

# Parts of speech that carry content: nouns (not pronouns or dependent nouns), verbs,
# adjectives, and prefixes/suffixes that change meaning (非, 未, 不).
_CONTENT_POS = {"名詞", "動詞", "形容詞", "形状詞", "接頭辞", "副詞"}
_WEAK_JA = frozenset("する ある いる なる れる られる こと もの ため よう これ それ 及び 等 為 事 物 居る 有る 成る 為る 出来る 言う 思う".split()
                     # The verbs of compound particles (において, によると, に対して, に関して, について):
                     # how a phrase is joined, not what it says. A passage saying 「2020年の人口」 need
                     # not say the claim's 「2020年における」 (於く was a missing term of the real model's
                     # 「日本共産党において…支部は「職場支部」です」).
                     + "於く 因る 依る 対する 関する 就く つく".split()
                     # Words that introduce an example or stress one: 「例えば、マルクス・レーニン主義を掲げる…」 is
                     # the page's sentence with one word before it (the real 1.5B model, JSQuAD, `research bench
                     # jsquad --seed 92`), and 例えば was its one missing term.
                     + "例えば 例へば 特に 実際".split())
# Nouns that frame an answer rather than state a fact (「理由は以下の通り」, 「主な特徴」): no source
# need contain them, so they are not compared.
_FRAMING_JA = frozenset("理由 場合 方法 特徴 以下 以上 一方 様々 主 点 面 具体 例 詳細 概要 要点 ポイント".split())


@dataclass(frozen=True)
class Term:
    text: str
    key: bool  # a noun, name or number: a claim with one of these missing is never "supported"
    # A Japanese verb or grammatical stem (持つ, 用いる, 「どのような」's よう): how a sentence is
    # put, not what it is about. (English has no tagger here: its verbs are not marked.)
    predicate: bool = False


# MeCab reads its dictionary (unidic-lite: sys.dic 180 MB, matrix.bin 70 MB) through mmap, and
# each lookup lands somewhere else in it. The kernel maps the whole page-cache folio around a
# fault (1 MiB on ext4 with large folios), so a few dozen words leave about 100 MiB of the
# dictionary mapped in this process, and Japanese prose all of it: counted in the process's
# PSS in full unless another process maps the same pages. Once the calls have faulted in about
# ``_MAPPED_BUDGET`` folios, the mappings are dropped (madvise MADV_DONTNEED): the pages stay in
# the page cache, and the next calls map back, as minor faults, only what they read.
# Mapping back costs a millisecond or two. Cutting a few dozen new words (a lexicon, once)
# takes about a dozen releases, each soon after the last; a batch of Japanese texts reads the
# same pages again and again and would map them back after every release. So once
# ``_RELEASE_STREAK`` releases in a row come within ``_RELEASE_SPACING_S`` of each other, the
# budget doubles with each further one, up to what the calls read, and a release after a pause
# brings it back down.
_MAPPED_BUDGET = 32  # page faults in the tagger's calls (each maps up to one folio)
_RELEASE_SPACING_S = 0.5
_RELEASE_STREAK = 32


class _Tagger:
    """fugashi's tagger, used exactly like it (``tagger(text)``), with the dictionary's mapped
    pages kept to about ``_MAPPED_BUDGET`` folios while it is used now and then."""

    def __init__(self, tagger: Any) -> None:
        self._tagger = tagger
        self._faults = 0
        self._budget = _MAPPED_BUDGET
        self._released = -math.inf
        self._streak = 0  # releases in a row, each soon after the one before
        self._mappings = _dictionary_mappings(tagger)

    def __call__(self, text: str) -> Any:
        if self._mappings is None:
            return self._tagger(text)
        faults = self._mappings[2]
        before = faults()
        words = self._tagger(text)
        self._faults += faults() - before
        if self._faults >= _MAPPED_BUDGET:
            now = time.monotonic()
            soon = now - self._released < _RELEASE_SPACING_S
            if not soon or self._faults >= self._budget:
                self._streak = self._streak + 1 if soon else 0
                self._budget = self._budget * 2 if self._streak >= _RELEASE_STREAK else _MAPPED_BUDGET
                self._released = now
                self.release()
        return words

    def release(self) -> None:
        """Hand the dictionary's mapped pages back (they stay cached; nothing is re-read).
        Words already returned stay valid: what they read is mapped again on access."""
        self._faults = 0
        if self._mappings:
            drop, ranges, _ = self._mappings
            for start, length in ranges:
                drop(start, length)


def _dictionary_mappings(
    tagger: Any,
) -> tuple[Callable[[int, int], None], list[tuple[int, int]], Callable[[], int]] | None:
    """What releasing needs (Linux): a function that drops this process's mapping of an
    address range (madvise MADV_DONTNEED), the ranges where the tagger's dictionary files are
    mapped read-only, and the process's count of page faults. None elsewhere, or when they
    cannot be found: then nothing is released."""
    try:
        import ctypes
        import mmap
        import resource

        folder = os.path.dirname(tagger.dictionary_info[0]["filename"]) + os.sep
        ranges = []
        with open("/proc/self/maps", encoding="utf-8", errors="replace") as maps:
            for line in maps:
                fields = line.split(maxsplit=5)
                # Read-only mappings only: dropping a written private page would lose the write.
                if len(fields) == 6 and "w" not in fields[1] and fields[5].rstrip("\n").startswith(folder):
                    start, end = (int(x, 16) for x in fields[0].split("-"))
                    ranges.append((start, end - start))
        libc_madvise = ctypes.CDLL(None, use_errno=True).madvise
        libc_madvise.argtypes = [ctypes.c_void_p, ctypes.c_size_t, ctypes.c_int]
        dont_need = mmap.MADV_DONTNEED
    except (ImportError, OSError, AttributeError, LookupError, TypeError, ValueError):
        return None

    def drop(start: int, length: int) -> None:
        libc_madvise(start, length, dont_need)

    def faults() -> int:
        return resource.getrusage(resource.RUSAGE_SELF).ru_minflt

    return (drop, ranges, faults) if ranges else None


@lru_cache(maxsize=1)
def _tagger() -> _Tagger | None:
    try:
        import fugashi  # noqa: PLC0415 - optional at import time: bigrams stand in without it

        return _Tagger(fugashi.Tagger())
    except Exception:  # noqa: BLE001 - no dictionary installed: fall back to bigrams
        return None



def reading(text: str) -> str | None:
    """How a Japanese word is read, in katakana (宝永 → ホウエイ, 貞観 → ジョウガン); None when the
    dictionary is not installed or does not know how one of its parts is read."""
    tagger = _tagger()
    if tagger is None or not text:
        return None
    kana = [str(getattr(word.feature, "kana", None) or "") for word in tagger(text)]
    return "".join(kana) if kana and all(k and k != "*" for k in kana) else None


@lru_cache(maxsize=1)
def _stemmer():
    import snowballstemmer  # noqa: PLC0415

    return snowballstemmer.stemmer("english")


@lru_cache(maxsize=65536)
def stem(word: str) -> str:
    """Snowball stem: "eruption" and "erupted" are one word."""
    word = word.replace("’", "'").removesuffix("'s").strip("'-")
    return _stemmer().stemWord(word)


# Counters of time the dictionary reads as nouns of their own after a figure, depending on what follows.
_COUNTER_WORDS_JA = frozenset("年代 年間 年度 年目 世紀 月間 日間 時間 週間 分間 秒間".split())


# One word written two ways, which the dictionary gives two lemmas: 「父親が働いていた場所」 asks of 「彼の父は…で働いていた」
# (JSQuAD, the page ヨハネス・グーテンベルク: the real 1.5B model's true 「…の父親は教会の造幣所で働いていた」 was not checked,
# and its 「…の父は…」 went as off the question's point, `research bench jsquad --sample 5 --seed 137`).
_SAME_WORD_JA = {"父親": "父", "母親": "母"}


@lru_cache(maxsize=4096)
def _verb_written_as_a_noun(surface: str) -> str | None:
    """The verb whose continuative form ``surface`` is, where the dictionary read it as a noun: 「…という言葉に
    見出し、」 is 見出す's 見出し (a clause joined to the next), which it tags as the noun 見出し (a headline)."""
    tagger = _tagger()
    if tagger is None or not re.search(r"[いきしちにひみりぎじびぴえけせてねへめれげぜでべぺ]$", surface):
        return None
    first, *_ = tagger(surface + "た")
    if (first.feature.pos1 or "") != "動詞" or first.surface != surface:
        return None
    return (getattr(first.feature, "lemma", None) or surface).split("-")[0]


def _japanese_terms(run: str, after_number: bool = False, before_comma: bool = False) -> list[Term]:
    tagger = _tagger()
    if tagger is None:
        if len(run) == 1:
            return [] if _HIRAGANA_ONLY.match(run) else [Term(run, True)]
        grams = [run[i : i + 2] for i in range(len(run) - 1)]
        return [Term(g, True) for g in grams if not _HIRAGANA_ONLY.match(g)]
    terms: list[Term] = []
    # A run the text writes right after a figure is tagged with a figure before it: alone, 「年です」
    # reads 年 as a noun of its own, and 「乗り出したのは1863年です」 lacked a word 年 that its page's
    # 「1863年、…乗り出し」 gives as the figure's counter (JSQuAD, the real 1.5B model's answer). The
    # figure is the number check's; its token is left out below.
    words = list(tagger("1" + run if after_number else run))
    for position, word in enumerate(words):
        if after_number and position == 1 and word.surface in _COUNTER_WORDS_JA:
            continue  # 「1950年代」 at a sentence's end is tagged 年代, a noun, and before 「に」 年 and 代, counters
        feature = word.feature
        pos1 = getattr(feature, "pos1", "") or ""
        pos2 = getattr(feature, "pos2", "") or ""
        if pos1 not in _CONTENT_POS or pos2 in ("非自立可能", "数詞") and pos1 == "名詞" and word.surface in _WEAK_JA:
            continue
        lemma = (getattr(feature, "lemma", None) or word.surface).split("-")[0]
        lemma = _SAME_WORD_JA.get(lemma, lemma)
        # A verb in kana (おぼれる, たたく) says what happens; a kana auxiliary (いる, しまう) does not.
        if lemma in _WEAK_JA or lemma in _FRAMING_JA or _HIRAGANA_ONLY.match(word.surface) and pos1 not in ("名詞", "形容詞", "形状詞") \
                and not (pos1 == "動詞" and pos2 != "非自立可能"):
            continue
        pos3 = getattr(feature, "pos3", "") or ""
        if pos2 == "数詞" or pos3.startswith("助数詞") or word.surface in _NUMBER_WORDS:
            continue  # numbers and their units are compared by the number check, in any script
        terms.append(Term(lemma, pos1 in ("名詞", "接頭辞"), predicate=pos1 == "動詞" or pos2 == "助動詞語幹"))
    # A noun right before a comma that is a verb's continuative form (「言葉に見出し、このサウドディズモから…」, JSQuAD, the
    # page ポルトガル: the real 1.5B model's 「…「サウダージ」という言葉に見出した」, the page's own words, missed 見出す and
    # was taken out of the answer, `research bench jsquad --seed 141`): the verb is a term too.
    last = words[-1] if before_comma and words else None
    if last is not None and (last.feature.pos1 or "") == "名詞" and (last.feature.pos2 or "") == "普通名詞" \
            and terms and terms[-1].text == last.surface and (verb := _verb_written_as_a_noun(last.surface)) is not None:
        terms.append(Term(verb, False, predicate=True))
    return terms


_DASH_TABLE = str.maketrans({c: "-" for c in "\u2010\u2011\u2012\u2013\u2014\u2015\u2212\uff0d"})
# A capitalised word that does not start a sentence (or a run of capitals): a name.
_NAME = re.compile(r"(?<=[a-z0-9,;:)]\s)[A-Z][A-Za-z0-9'’\-]+|\b[A-Z]{2,}[A-Za-z0-9]*\b|(?<=\s)[A-Z][a-z]+(?=\s+[A-Z][a-z]+)")

_ACRONYM = re.compile(r"\b[A-Z]{2,}[A-Za-z0-9]*\b|\b[A-Za-z]+[0-9][A-Za-z0-9]*\b")
_LONG_WORD = re.compile(r"\b[A-Za-z][a-z'’-]{3,}\b|\b[A-Z][A-Za-z'’-]{3,}\b")


def _title_case(text: str) -> bool:
    """Whether ``text`` capitalises its words as a title does: after its first word, four or
    more words of four letters or more, at least 80 % of them capitalised ("What is the height
    of Mount Fuji?" is not: three such words)."""
    words = _LONG_WORD.findall(text)[1:]
    return len(words) >= 4 and sum(word[0].isupper() for word in words) >= 0.8 * len(words)


def terms(text: str) -> list[Term]:
    """Content terms of ``text`` in order (repeats kept, for BM25)."""
    raw_text = text
    text = prepare(text)
    out: list[Term] = []
    for found in JAPANESE_RUN.finditer(text):
        run = found.group(0)
        before_comma = text[found.end():found.end() + 1] in ("、", ",")
        for term in _japanese_terms(run, found.start() > 0 and text[found.start() - 1].isdigit(), before_comma):
            out.append(term)
            # A name the dictionary read as one run of katakana joined by ・ holds its parts too:
            # 「ヨハネス・ゲンスフライシュ・ツア・ラーデン・ツム・グーテンベルク」 came out with
            # 「スフライシュ・ツア・ラーデン・ツム・グーテンベルク」, and 「ヨハネス・グーテンベルクは…」
            # missed グーテンベルク (JSQuAD a29627p0q0, the real 1.5B model's true sentence).
            if "・" in term.text:
                out.extend(Term(part, term.key) for part in term.text.split("・") if len(part) >= 2)
    # Names are key in English (capitalised where a sentence does not start), and so are
    # compounds and codes ("super-step", "thread_id", "gpt-4"); other words count by weight.
    original = JAPANESE_RUN.sub(" ", unicodedata.normalize("NFKC", raw_text).translate(_DASH_TABLE))
    names = {m.group(0).lower() for m in _NAME.finditer(original)}
    latin = JAPANESE_RUN.sub(" ", text)
    for raw in _WORD.findall(latin):
        word = raw.strip("'-")
        if not word or word in _STOP_WORDS or word in _UNIT_WORDS:
            continue
        key = word in names or "-" in word or "_" in word or any(c.isdigit() for c in word)
        out.append(Term(stem(word), key))
    return out


def key_words(text: str) -> list[str]:
    """Names, nouns and figures of ``text`` as written, in order: what a search query needs.
    Japanese nouns (with a number and its counter kept together: 1708年), English names,
    codes and numbers, and other English words that are not stop words."""
    out: list[str] = []
    for run in re.finditer(r"[0-9０-９.,]*[\u3040-\u309f\u30a0-\u30ff\u3400-\u4dbf\u4e00-\u9fff々〆ヵヶー]+|[A-Za-z\u00c0-\u024f0-9][A-Za-z\u00c0-\u024f0-9'’\-_.]*",
                           unicodedata.normalize("NFKC", text)):
        piece = run.group(0).rstrip(".")
        # The dictionary is opened by the first Japanese text only: English alone never maps it.
        tagger = _tagger() if JAPANESE_RUN.search(piece) else None
        if tagger is not None:
            noun = ""
            for word in tagger(piece):
                pos1, pos2 = word.feature.pos1 or "", word.feature.pos2 or ""
                lemma = (getattr(word.feature, "lemma", None) or word.surface).split("-")[0]
                if pos1 in ("名詞", "接頭辞", "接尾辞") and lemma not in _WEAK_JA and lemma not in _FRAMING_JA \
                        and pos2 != "代名詞":
                    noun += word.surface
                    continue
                if noun:
                    out.append(noun)
                noun = ""
            if noun:
                out.append(noun)
        elif not JAPANESE_RUN.search(piece) and piece.lower() not in _STOP_WORDS and len(piece) > 1:
            out.append(piece)
    return out


_WRITTEN = re.compile(JAPANESE_RUN.pattern + r"|[^\W\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]+(?:[.\-][^\W\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]+)*")


def written_words(text: str, *, particles: bool = True) -> list[str]:
    """The words of ``text`` as written, in order, punctuation left out: Japanese cut into
    morphemes (天明噴火 → 天明, 噴火; character by character without the dictionary), other
    scripts at spaces and punctuation, with codes and versions kept whole (thread_id, 3.14).
    What lines two near-verbatim sentences up word by word, to find the one word exchanged.
    ``particles=False`` leaves out words in kana alone (の, は, で, です / である): a paraphrase
    changes them freely."""
    if not particles:
        return [word for word in written_words(text) if not _HIRAGANA_ONLY.match(word)]
    out: list[str] = []
    for match in _WRITTEN.finditer(text):
        piece = match.group(0)
        if not JAPANESE_RUN.fullmatch(piece):
            out.append(piece)
            continue
        tagger = _tagger()
        out.extend(word.surface for word in tagger(piece)) if tagger is not None else out.extend(piece)
    return out


def term_set(text: str) -> frozenset[str]:
    return frozenset(t.text for t in terms(text))


def index_terms(text: str) -> list[str]:
    """What BM25 counts: the same terms as the verifier."""
    return [t.text for t in terms(unicodedata.normalize("NFKC", text))]


def name_terms(text: str) -> frozenset[str]:
    """The names ``text`` mentions, as ``terms`` writes them (stems, dictionary forms): in
    English a capitalised word that does not start a sentence or a run of capitals ("Mount
    Fuji", "PEP", "Ollama"); in Japanese a proper noun (富士山 → its reading) and any Latin word
    inside Japanese prose ("LangGraphの…", "MCPの…"). What a question is about, for telling a
    sentence on its topic from one about something else."""
    out: set[str] = set()
    normalised = unicodedata.normalize("NFKC", text).translate(_DASH_TABLE)
    for run in JAPANESE_RUN.findall(normalised):
        tagger = _tagger()
        if tagger is None:
            continue
        for word in tagger(run):
            feature = word.feature
            if (getattr(feature, "pos2", "") or "") == "固有名詞":
                out.add((getattr(feature, "lemma", None) or word.surface).split("-")[0])
    latin = JAPANESE_RUN.sub(" ", normalised)
    if JAPANESE_RUN.search(normalised):
        words = [w for w in re.findall(r"[A-Za-z][A-Za-z0-9'’\-_.]*[A-Za-z0-9]", latin)]
    elif _title_case(latin):
        # "Does Molecular Genotype Provide Useful Information in the Management of …" (PubMedQA's
        # titles): capitals then tell nothing, and every word would be a name (the question's
        # "cancer" made a kidney-cancer abstract on topic for a thyroid-cancer question). Only
        # what is written in capitals or with a digit inside is a name there: TNM, CAD, PEP 703.
        words = [m.group(0) for m in _ACRONYM.finditer(latin)]
    else:
        words = [m.group(0) for m in _NAME.finditer(latin)]
    for word in words:
        for part in _WORD.findall(word.lower()):
            part = part.strip("'-")
            if part and part not in _STOP_WORDS:
                out.add(stem(part))
    return frozenset(out)


def name_suffix_terms(text: str) -> frozenset[str]:
    """The one-character nouns a Japanese proper noun carries as part of its name (富士山 → 山,
    利根川 → 川, 東京駅 → 駅), as ``terms`` writes them: words of the name, not of what is
    said about it."""
    runs = JAPANESE_RUN.findall(unicodedata.normalize("NFKC", text))
    # Text with nothing Japanese has no such noun: the tagger (3.6 MB with its dictionary's
    # pages) is not loaded for an English question.
    tagger = _tagger() if runs else None
    if tagger is None:
        return frozenset()
    out: set[str] = set()
    for run in runs:
        after_name = False
        for word in tagger(run):
            feature = word.feature
            noun = (getattr(feature, "pos1", "") or "") == "名詞"
            if after_name and noun and len(word.surface) == 1:
                out.add((getattr(feature, "lemma", None) or word.surface).split("-")[0])
            after_name = noun and (getattr(feature, "pos2", "") or "") == "固有名詞"
    return frozenset(out)

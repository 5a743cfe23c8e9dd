"""Evidence for the draft prompt: the passages most relevant to the question, within a budget.

Every readable source is cut into passages (its key facts, its search snippets, then its
text paragraph by paragraph), and all passages are ranked together with BM25 against the
question and each sub-question, using the verifier's analyser (MeCab lemmas for Japanese,
stems for English), so what the model reads is chosen on the same words it is later
checked on. A passage's score is its best score for any one (sub-)question: each
sub-question keeps its own evidence.

The prompt takes the best passages, in rank order, until the token budget is spent: a
smaller budget is always a shorter prefix of the same ranking, so shrinking the prompt
drops the lowest-ranked passages first. Passages that share no word with any question
never go in (unless none shares any); a source left with none is not in the prompt (the
report lists it under "also read").
"""

from __future__ import annotations

import re
import secrets
from dataclasses import dataclass
from typing import Any

from research.modules.text.tokens import estimate_tokens, truncate_to_tokens
from research.modules.text.analyser import index_terms, key_words, stem, terms
from research.modules.text.claims import sentence_spans
from research.modules.text.index import TextIndex
from research.modules.text.references import opens_pointing_back
from research.modules.text.source_kind import authority, source_kind
from research.modules.text.structure import leaves_the_question_open, spelt_out_phrases, states_an_aim

_PASSAGE_CHARS = 600  # a longer paragraph is cut at sentence ends into pieces about this long
_MAX_PASSAGE_TOKENS = 300  # and none is ever longer than this in the prompt
_MIN_PARTIAL_TOKENS = 30  # the last passage is shortened to fit only if this much of it is left


@dataclass(frozen=True)
class RankedPassage:
    label: str
    position: int  # order within its source, for reading order in the prompt
    text: str
    score: float


def _pieces(paragraph: str) -> list[str]:
    """A paragraph in pieces of whole sentences, none much longer than ``_PASSAGE_CHARS``."""
    if len(paragraph) <= _PASSAGE_CHARS:
        return [paragraph]
    pieces, current = [], ""
    for start, end in sentence_spans(paragraph):
        sentence = paragraph[start:end]
        if current and len(current) + len(sentence) > _PASSAGE_CHARS:
            pieces.append(current)
            current = ""
        current = f"{current} {sentence}".strip() if current else sentence
    if current:
        pieces.append(current)
    return pieces


def source_passages(document: dict[str, Any]) -> list[str]:
    """Key facts, snippets, then the text's paragraphs, without repeats."""
    texts = [str(f) for f in document.get("key_facts", [])[:12]]
    texts += [str(s) for s in document.get("snippets", [])[:6]]
    for paragraph in re.split(r"\n\s*\n", str(document.get("markdown") or "")):
        paragraph = " ".join(line.strip().lstrip("#>*- ").strip() for line in paragraph.splitlines()).strip()
        if paragraph:
            texts.extend(_pieces(paragraph))
    seen: set[str] = set()
    out = []
    for text in texts:
        text = " ".join(text.split())
        if text and text not in seen:
            seen.add(text)
            out.append(text)
    return out


def rank_passages(sources: list[dict[str, Any]], questions: list[str]) -> list[RankedPassage]:
    """Every passage that shares a word with a (sub-)question, best first.

    When none does (a question in words no source uses), every passage in ledger order:
    the model then says the sources do not answer, rather than seeing nothing.
    """
    index = TextIndex(analyse=index_terms)
    by_key: dict[str, tuple[str, int, str]] = {}
    for document in sources:
        for position, text in enumerate(source_passages(document)):
            key = f"{document['label']}#{position}"
            by_key[key] = (str(document["label"]), position, text)
            index.add(key, text)
    best: dict[str, float] = {}
    for question in questions:
        found = index.search(question, limit=len(by_key))
        top = found[0][1] if found else 1.0
        for key, score in found:
            # Relative to the question's best passage: scores of different questions do
            # not compare, and each sub-question's best evidence must rank near the top.
            best[key] = max(score / top, best.get(key, 0.0))
    ranked = [RankedPassage(*by_key[key], score=round(score, 4)) for key, score in best.items()]
    # Ties: the more authoritative kind of source (official before a forum), then the
    # source listed first, then the earlier passage (key facts come first).
    order = {str(d["label"]): n for n, d in enumerate(sources)}
    rank = {str(d["label"]): authority(d.get("kind") or source_kind(str(d.get("url") or ""), str(d.get("title") or "")))
            for d in sources}
    ranked.sort(key=lambda p: (-p.score, rank[p.label], order[p.label], p.position))
    if not ranked:
        ranked = [RankedPassage(*by_key[key], score=0.0) for key in by_key]
    return ranked


# What the draft's prompt holds (issue 45): a passage sharing under this share of what its
# question's best passage shares is left out, the best few always kept. Over PubMedQA's corpus a
# question's own abstract scored 0.5-1.0 and ten other abstracts 0.12-0.38 (sharing "motor" or
# "dementia"): the real 1.5B model summarised all eleven, its Summary about the others, and each
# draft cost about 4,300 tokens of prompt (15 minutes of a CPU core).
FOCUS_SHARE = 0.3
_FOCUS_KEEP_AT_LEAST = 3
# A source this short that a kept passage comes from is given whole: an abstract's conclusion,
# which decides a yes/no question, often shares no word with it and was never in the prompt.
_WHOLE_SOURCE_TOKENS = 700


def focused(ranked: list[RankedPassage], sources: list[dict[str, Any]]) -> list[RankedPassage]:
    """``ranked`` without the passages far below the best (``FOCUS_SHARE``), then every other
    passage of a short source it keeps, after them (so a budget leaves those out first). A
    ranking with no passage sharing a word with the question is left as it is."""
    if not ranked or ranked[0].score <= 0:
        return ranked
    # Against the best of its own language: a source in the other language shares only names and
    # figures with the question's words, and good sources are often in that language.
    language = {str(d["label"]): str(d.get("language") or "") for d in sources}
    best: dict[str, float] = {}
    for passage in ranked:
        best.setdefault(language.get(passage.label, ""), passage.score)
    kept = [p for n, p in enumerate(ranked)
            if n < _FOCUS_KEEP_AT_LEAST or p.score >= FOCUS_SHARE * best[language.get(p.label, "")]]
    have = {(p.label, p.position) for p in kept}
    extra: list[RankedPassage] = []
    for document in sources:
        label = str(document["label"])
        if not any(p.label == label for p in kept):
            continue
        passages = source_passages(document)
        if estimate_tokens(" ".join(passages)) > _WHOLE_SOURCE_TOKENS:
            continue
        extra += [RankedPassage(label, position, text, score=0.0)
                  for position, text in enumerate(passages) if (label, position) not in have]
    return kept + extra


def evidence_block(sources: list[dict[str, Any]], ranked: list[RankedPassage], budget: int) -> str:
    """The best passages that fit ``budget`` tokens, grouped under their source's header.

    Sources appear in the order of their best passage; within a source, passages keep
    reading order.
    """
    headers = {str(d["label"]): _data(f"[{d['label']}] {d.get('title') or d.get('url')} — {d.get('url')}")
               for d in sources}
    chosen: dict[str, list[tuple[int, str]]] = {}
    spent = 0
    for passage in ranked:
        text = truncate_to_tokens(passage.text, _MAX_PASSAGE_TOKENS)
        header_cost = 0 if passage.label in chosen else estimate_tokens(headers[passage.label]) + 2
        cost = estimate_tokens(text) + 3 + header_cost
        if spent + cost > budget:
            # A shorter prefix of the ranking: the lowest-ranked passages are the ones left
            # out. The first that does not fit is shortened to what is left, so the budget
            # is used up and half the budget is always a smaller prompt.
            room = budget - spent - header_cost - 3
            if room >= _MIN_PARTIAL_TOKENS:
                chosen.setdefault(passage.label, []).append((passage.position, truncate_to_tokens(text, room)))
            break
        spent += cost
        chosen.setdefault(passage.label, []).append((passage.position, text))
    blocks = []
    for label, passages in chosen.items():
        texts = [text for _, text in sorted(passages)]
        # A key fact is a sentence of a paragraph: with the paragraph shown it is said twice.
        texts = [text for n, text in enumerate(texts) if not any(n != m and text in other for m, other in enumerate(texts))]
        lines = [f"- {_data(text)}" for text in texts]
        blocks.append(headers[label] + "\n" + "\n".join(lines))
    if not blocks:
        return ""
    # Source text reaches the model only between these two lines: their code is drawn afresh
    # for every prompt, so a page cannot close the block early and speak as the program
    # (the system prompt says nothing between them is an instruction).
    code = secrets.token_hex(4)
    return f"<<<SOURCE DATA {code}>>>\n" + "\n\n".join(blocks) + f"\n<<<END SOURCE DATA {code}>>>"


_MARKERS = re.compile(r"<{2,}|>{2,}|<\|[^|>]{0,40}\|>|\[/?INST\]|<</?SYS>>", re.IGNORECASE)


def _data(text: str) -> str:
    """Source text as one line of data: no line breaks (a page cannot start a line of its own,
    such as a fake "[S9] " header or an end marker), and no delimiter or chat-template tokens."""
    return " ".join(_MARKERS.sub(" ", text).split())


@dataclass(frozen=True)
class SourceSentence:
    label: str
    text: str


def _terms_of(text: str) -> frozenset[str]:
    """The names, nouns and figures of ``text``, lower-cased, a figure also in its parts ("3.14",
    "3", "14": MeCab cuts the Japanese question's 3.14 so)."""
    out: set[str] = set()
    for word in key_words(text):
        word = word.lower()
        out.add(word)
        if re.fullmatch(r"[0-9][0-9.,]*[0-9]", word):
            out.update(part for part in re.split(r"[.,]", word) if part)
    return frozenset(out)


# A Japanese noun of two kanji or more: the head of the compounds that end with it (三・一五事件 is a 事件).
_KANJI_NOUN = re.compile(r"[\u4e00-\u9fff]{2,}")


def _a_kind_named(term: str, said: frozenset[str]) -> bool:
    """Whether a compound of ``said`` ends with the Japanese noun ``term``: 「1928年に起きた事件は」 is answered by
    «しかし、1928年の三・一五事件で…一斉検挙され、…» (JSQuAD v1.3 valid, `research bench jsquad --seed 99`: MeCab reads
    一五事件 as one word, and the page's sentence was not found to quote)."""
    return _KANJI_NOUN.fullmatch(term) is not None and any(word != term and word.endswith(term) for word in said)


# Kana, or a word in lower case: a sentence may say something here, not only name it.
_A_PREDICATE_MAY_BE_HERE = re.compile(r"[\u3041-\u3096]|(?:^|\s)[a-z]+\b")


def _a_list_of_terms(sentence: str) -> bool:
    """A page's keywords run together ("Aged; Aged, 80 and over; Ankle; Arm; Blood Pressure; …",
    PubMedQA's MeSH terms, which the real 1.5B model's answer to 12855939 quoted as what its sources
    say of the question): four or more items between semicolons, none longer than a long name ("United
    States Department of Veterans Affairs", PubMedQA 18534072's), three words or fewer on average."""
    items = [item for item in re.split(r"\s*[;；]\s*", sentence.strip().rstrip(".。")) if item]
    lengths = [len(item.split()) for item in items]
    return len(items) >= 4 and max(lengths) <= 8 and sum(lengths) <= 3 * len(items)


# A study's section on what it did, not what it found: "Methods", "Materials and Methods", "Patients and
# Methods", "Study design", "Study Design And Setting" (PubMedQA 19230985: its sentence on how the cases were
# counted was quoted as the sources' words on the question), "Design, Setting, and Participants", "Main
# Outcome Measures", 「方法」, 「対象と方法」: a heading of such words only, one of them naming what was done.
_METHOD_WORDS = frozenset("""methods method methodology design setting settings participants patients subjects
    materials interventions intervention measurements measures procedures procedure""".split())
_METHOD_HEADING_WORDS = _METHOD_WORDS | frozenset("and of the study main outcome outcomes experimental".split())
_METHODS_HEADING_JA = re.compile(r"^(?:(?:対象|材料)と)?方法$")


def _a_heading_of(title: str, naming: frozenset[str], allowed: frozenset[str], japanese: re.Pattern[str]) -> bool:
    """Whether ``title`` is a heading of ``allowed`` words only, one of them ``naming`` what its section holds
    (or, without Latin letters, matches ``japanese``)."""
    words = re.findall(r"[a-z]+", title.lower())
    if words:
        return all(word in allowed for word in words) and any(word in naming for word in words)
    return bool(japanese.match(title.strip()))


# A study's question under its own heading: «## Objective» over «We review our results on surgical treatment of
# patients with stage I non-small cell lung carcinoma and we attempted to clarify …» (PubMedQA 11888773, quoted as the
# sources' words on "Stage I non-small cell lung carcinoma: really an early stage?", `research bench pubmedqa --seed 114`).
_AIM_WORDS = frozenset("objective objectives aim aims purpose purposes goal goals hypothesis hypotheses".split())
_AIM_HEADING_WORDS = _AIM_WORDS | frozenset("and of the study this".split())
_AIM_HEADING_JA = re.compile(r"^(?:研究の)?(?:目的|目標|仮説)$")


def _sentences_under_methods(markdown: str) -> set[str]:
    """The sentences of ``markdown`` under a heading of a study's methods or its aim, spaces squeezed: what
    the study did or asked, which answers nothing."""
    out: set[str] = set()
    under = False
    for paragraph in re.split(r"\n\s*\n", markdown):
        text = paragraph.strip()
        if text.startswith("#"):
            title = text.split("\n", 1)[0].lstrip("#").strip().rstrip(":：")
            under = _a_heading_of(title, _METHOD_WORDS, _METHOD_HEADING_WORDS, _METHODS_HEADING_JA) \
                or _a_heading_of(title, _AIM_WORDS, _AIM_HEADING_WORDS, _AIM_HEADING_JA)
            text = text.split("\n", 1)[1] if "\n" in text else ""
        if under and text:
            flat = " ".join(text.split())
            out.update(" ".join(flat[start:end].split()) for start, end in sentence_spans(flat))
    return out


# A sentence that sends the reader to another part of its page: «機関化された企業は次節からいくらでも探すことができる。»
# (quoted as the sources' words on 「機関化された企業は」, JSQuAD, `research bench jsquad --seed 95`), "… is described in
# the next section", "see below".
_POINTS_TO_ANOTHER_PART = re.compile(r"(?:次|前|本|後|上|下)(?:節|章|項)|後述|前述|下記|上記"
                                     r"|\b(?:in|see)\s+(?:the\s+)?(?:next|previous|following|preceding)\s+(?:section|chapter)"
                                     r"|\bsee\s+(?:below|above)\b", re.IGNORECASE)


def sentence_on_the_question(question: str, sources: list[dict[str, Any]], *, within: str = "") -> SourceSentence | None:
    """The one sentence of the sources read that names most of what ``question`` names (in
    either language: names and figures are written alike), every figure of it included; None
    when no sentence names at least two of its terms and half of them. What an answer with no
    checked sentence can still show, in the source's own words (workflow/answer.py). Not a sentence
    of a study's methods: what it did answers nothing. ``within``: the question the run answers, where
    ``question`` is one of its parts; a part naming some of its words is answered only by a sentence
    naming one of those (under "What are the physical symptoms of menopause?", asked of "Does menopausal
    transition affect the quality of life?", not another study's «…physical symptoms of neck pain…»)."""
    asked = _terms_of(question)
    about = {stem(word) for word in _terms_of(within)} & {stem(word) for word in asked}
    # A question of one noun (「x が比較的どんな場合にのみ成り立つか。」: 比較的) is read with its verbs and
    # other content words too (成り立つ, 場合): the real 1.5B model's answer to JSQuAD v1.3 valid a18783p10q1
    # was taken out whole, and no sentence of the page could be quoted for want of a second term.
    widened = len(asked) < 2
    if widened:
        asked = asked | {term.text.lower() for term in terms(question)}
    figures = {term for term in asked if term[:1].isdigit()}
    head = _asked_noun_ja(question)
    in_japanese = bool(re.search(r"[\u3040-\u30ff]", question))
    best: tuple[tuple[int, bool], SourceSentence] | None = None
    for document in sources:
        methods = _sentences_under_methods(str(document.get("markdown") or ""))
        title_terms = _terms_of(_page_title(document))
        # A sentence writing an abbreviation its page spells out names those words: «…no association between obesity
        # or increasing BMI level and asthma control…» names the body mass index the question asks of (PubMedQA
        # 19615731, the page's aim spelling it out; `research bench pubmedqa --sample 4 --seed 130`).
        spelt = {short.lower(): _terms_of(long) for short, long in spelt_out_phrases(str(document.get("markdown") or ""))}
        for passage in source_passages(document):
            if passage.lstrip().startswith("#"):
                continue  # a heading names a topic and says nothing of it
            for start, end in sentence_spans(passage):
                sentence = " ".join(passage[start:end].split())
                if sentence.endswith(("?", "？")) or states_an_aim(sentence) or leaves_the_question_open(sentence) \
                        or _a_list_of_terms(sentence) or sentence in methods or _POINTS_TO_ANOTHER_PART.search(sentence):
                    # The study's own question ("It is unknown if …") names what the question names, and
                    # answers nothing; so does a page's list of keywords.
                    continue
                # Read as it would be quoted: a sentence that leaves its subject to the one before it names what
                # that one names (「日本ではPKOと称されることが多い。」 names 国際連合平和維持活動 only so).
                own = _terms_of(sentence)
                own = own.union(*(spelt[word] for word in own if word in spelt))
                quoted = _with_its_subject(sentence, document) if own & asked else sentence  # (its page read only then)
                said = _terms_of(quoted) | ({term.text.lower() for term in terms(quoted)} if widened else set())
                said = said.union(*(spelt[word] for word in said if word in spelt))
                if said <= asked and not _A_PREDICATE_MAY_BE_HERE.search(sentence):
                    # Nothing but the question's own words, and nothing said of them: a page's name on a line of its
                    # own («グスタフ・マーラー», quoted for 「グスタフ・マーラーの誕生日は？」, JSQuAD, `research bench jsquad
                    # --sample 5 --seed 127`). 「ニーダーザクセン州の州都である。」 says it of the sentence before it.
                    continue
                shared = (asked & said) | {term for term in asked if _a_kind_named(term, said)} \
                    | {slot for slot in asked if _gives_the_value_asked(slot, quoted)} \
                    | {term for term in asked - said if _compound_written_apart(term, quoted)} \
                    | (asked & _SHARE_NOUNS_JA if values_of_the_kind_asked(question, quoted) else set())
                if len(shared) < 2 or 2 * len(shared) < len(asked) or not figures <= shared \
                        or about and not about & {stem(word) for word in said | shared}:
                    continue
                if in_japanese and shared <= title_terms and asked - title_terms \
                        and not values_of_the_kind_asked(question, quoted):
                    # A sentence naming nothing asked but the page's name (two terms where the name has two parts) says
                    # nothing of the question: «グスタフ・マーラー：1910年8月には、かつて反発していたことを謝罪し、マーラーの
                    # ウィーン楽壇復帰を熱望する…» for 「グスタフ・マーラーの子供の人数は。」 (JSQuAD v1.3 valid, `research bench
                    # jsquad --sample 5 --seed 145`, quoted as the real 1.5B model's whole Summary; the apology is another
                    # man's), nor his «…（Gustav Mahler, 1860年7月7日 - 1911年5月18日）は、…作曲家、指揮者。».
                    continue
                # Of two that name as much, the one naming what a 「…のXは？」 question asks for: «再生可能エネルギーの内訳では
                # 太陽光発電が9.2%で最も多く…», not «…発電電力量に占める再生可能エネルギーの割合は21.7%だった。», for
                # 「日本の再生可能エネルギーの内訳は？」 (the local web's energy page).
                score = (len(shared), head is not None and head in shared)
                if best is None or score > best[0]:
                    best = (score, SourceSentence(str(document["label"]), quoted))
    return best[1] if best is not None else None


# A term of a question that asks for a value of a kind: 何年, 何人, 何メートル.
_VALUE_ASKED_JA = re.compile(r"何(?P<unit>年|人|歳|個|回|倍|割|位|円|ドル|度|%|％|メートル|キロ(?:メートル)?|世紀|時間|日|月)")


def values_of_the_kind_asked(question: str, text: str) -> frozenset[str]:
    """The values ``text`` gives of the kind a Japanese ``question`` asks for with 何<unit> («1956年» for 何年), or an
    English one with "what/which year" (its years); empty where it asks for no such value or ``text`` gives none."""
    found = _VALUE_ASKED_JA.search(question)
    if found is not None:
        unit = re.escape(found["unit"])
        return frozenset(m.group(0) for m in re.finditer(r"[0-9０-９][0-9０-９,.]*\s*" + unit, text))
    if _YEAR_ASKED_EN.search(question):
        return frozenset(_YEAR_EN.findall(text))
    return frozenset()


def names_what_is_asked(question: str, text: str) -> bool:
    """Whether ``text`` writes every name and noun of ``question`` as the question writes it (its 何年 aside):
    «…1956年のスターリン批判を経て…» does for 「スターリン批判は何年に起こったか？」, «…スターリンが指導するコミンフォルムは、
    …批判した» does not."""
    named = {term for term in _terms_of(question) if not _VALUE_ASKED_JA.fullmatch(term) and not term.isdigit()}
    written = text.lower()
    return bool(named) and all(term in written for term in named)


_YEAR_ASKED_EN = re.compile(r"\b(?:what|which)\s+year\b|\bin\s+(?:what|which)\s+year\b", re.IGNORECASE)
_YEAR_EN = re.compile(r"\b(?:1[0-9]{3}|20[0-9]{2})\b")


# What a 何% question asks the share of: a sentence that gives a percentage gives it.
_SHARE_NOUNS_JA = frozenset({"割合", "比率", "率", "シェア", "構成比", "占有率"})


def _compound_written_apart(term: str, sentence: str) -> bool:
    """Whether ``sentence`` writes each part of a Japanese compound ``term`` of the question, two letters or more each:
    「自動車輸出」 of 「ポルトガルの自動車輸出の割合は全体の何%？」 in «おもな輸出品目は、自動車 （16%）、…» (JSQuAD v1.3 valid,
    `research bench jsquad --sample 5 --seed 144`: no sentence of the page was quoted for want of a second term)."""
    parts = [t.text for t in terms(term)]
    return len(parts) >= 2 and all(len(part) >= 2 and part in sentence for part in parts) \
        and bool(re.search(r"[\u4e00-\u9fff\u30a1-\u30fa]", term))


def _gives_the_value_asked(term: str, sentence: str) -> bool:
    """Whether ``sentence`` gives a value of the kind the question's ``term`` asks for: 「スターリン批判は何年に
    起こったか？」 is answered by «…1956年のスターリン批判を経て…» (JSQuAD v1.3 valid a14985p36q1, the real
    1.5B model's 1950 left as the answer, not checked, and no sentence of the pages quoted for want of a
    second term of the question)."""
    return _VALUE_ASKED_JA.fullmatch(term) is not None and bool(values_of_the_kind_asked(term, sentence))


# 「日本の再生可能エネルギーの内訳は？」, 「富士山の標高は？」: a noun and は end the question, which asks what that noun is.
NOUN_AND_WA_END_JA = re.compile(r"(?P<noun>[\u4e00-\u9fff\u30a1-\u30fa\u30fc]+)は[？?。]?\s*$")


def _asked_noun_ja(question: str) -> str | None:
    """The noun a 「…のXは？」 question asks for (内訳), where it is one term."""
    found = NOUN_AND_WA_END_JA.search(question.strip())
    words = list(_terms_of(found["noun"])) if found else []
    return words[0] if len(words) == 1 else None


# A Japanese sentence that leaves its subject to the one before it: 「ニーダーザクセン州の州都である。」
# after 「ハノーファー（ ）は、…主要都市のひとつ。」. No topic or subject particle in it at all.
_NO_SUBJECT_JA = re.compile(r"^(?=.*[\u3041-\u3096])[^はが]*$")


def leaves_its_subject_ja(sentence: str) -> bool:
    """Whether a Japanese ``sentence`` names no subject or topic of its own (no は or が; the は of
    または is no particle): it says what it says of the one the sentence before it names."""
    return bool(_NO_SUBJECT_JA.match(sentence.strip().replace("または", "")))


# A は after で, に or と sets a scene (日本では, 国内には), and names no one the sentence is about.
_OWN_TOPIC_OR_SUBJECT_JA = re.compile(r"(?<![でにと])は(?!ず)|が")


def _names_only_a_setting_ja(sentence: str) -> bool:
    """Whether a Japanese ``sentence`` names no subject of its own but a setting: 「日本ではPKOと称されることが
    多い。」 on the page «# 国際連合平和維持活動» (JSQuAD v1.3 valid a113522p0q1, the page that answers
    「国際連合平和維持活動を日本では何と称されるか。」). Its が of 「ことが多い」 is no subject."""
    text = _without_particles_of_no_subject(sentence)
    return bool(re.search(r"[でにと]は", text)) and not _OWN_TOPIC_OR_SUBJECT_JA.search(text)


def _names_a_subject_ja(sentence: str) -> bool:
    """Whether a Japanese ``sentence`` names a subject or topic of its own: a は or が after a word (「は日本の元号の
    一つ。」, its name left out, names none; nor does the が of 「ことが多い」, nor a setting's では)."""
    text = _without_particles_of_no_subject(sentence)
    return any(found.start() > 0 for found in _OWN_TOPIC_OR_SUBJECT_JA.finditer(text))


def _without_particles_of_no_subject(sentence: str) -> str:
    """A Japanese ``sentence`` without the は of または and the が of 「ことが多い」 and the like, which name no subject."""
    return re.sub(r"ことが(?:多い|少ない|ある|できる)", "", sentence.strip().replace("または", ""))


_TOPIC_OR_SUBJECT_JA = re.compile(r"^[^、。「」]{1,30}?(?<![でにと])[はが](?!ず)")


def sentence_before_on_its_page(sentence: str, document: dict[str, Any], *, what_it_points_at: bool = False,
                                named: bool = False) -> str | None:
    """The sentence right before ``sentence`` in its paragraph of ``document``, or None (first of its paragraph, or
    not on the page). ``what_it_points_at``: where that one opens pointing back too, the one before it with it:
    «アイルランドの建築家協会は、…グループである。同法は、…求めている。» before 「同グループは、…ロビー活動もしている。」
    (the real 1.5B model's whole answer, JSQuAD, `research bench jsquad --sample 5 --seed 125`: «同法は…» alone named
    no group). ``named``: where no sentence of the paragraph up to that one names a subject of its own, the page's
    title before it (``_with_the_pages_subject``)."""
    sentence = " ".join(sentence.split())
    for passage in source_passages(document):
        spans = [" ".join(passage[start:end].split()) for start, end in sentence_spans(passage)]
        for at, (before, this) in enumerate(zip(spans, spans[1:])):
            if this == sentence and not before.startswith("#"):
                if what_it_points_at and at > 0 and opens_pointing_back(before):
                    earlier = spans[at - 1]
                    if earlier.startswith("#"):  # the paragraph's heading runs into its first sentence here
                        heading = " ".join(passage.lstrip().split("\n", 1)[0].split())
                        earlier = earlier[len(heading):].strip() if earlier.startswith(heading) else ""
                    if earlier:
                        joiner = "" if re.search(r"[。．]$", earlier) else " "
                        return f"{earlier}{joiner}{before}"
                return _with_the_pages_subject(before, spans[:at], document) if named else before
    return None


def _with_the_pages_subject(before: str, earlier: list[str], document: dict[str, Any]) -> str:
    """A Japanese sentence quoted for what a sentence points at, with the page's title where neither it nor any sentence
    before it in its paragraph names a subject: 「この時代の天皇は桜町天皇。」 (the real 1.5B model, its sentence naming
    the era taken out) got «1741年から1744年までの期間を指す。» before it, of nothing, on the page «# 寛保» whose paragraph
    opens «は日本の元号の一つ。元文の後、延享の前。» (JSQuAD v1.3 valid a48707p0q2, `research bench jsquad --sample 5
    --seed 134`: the page's name was bold, and JSQuAD's text leaves it out)."""
    if not _JAPANESE.search(before) or any(_names_a_subject_ja(other) for other in [*earlier, before]
                                           if not other.startswith("#")):
        return before
    title = _page_title(document)
    return f"{title}：{before}" if title and title not in before else before


def _with_its_subject(sentence: str, document: dict[str, Any]) -> str:
    """``sentence`` with the sentence before it on its page where it names no subject of its own
    and that one names its topic: quoted alone, 「ニーダーザクセン州の州都である。」 said of what the
    question asks for nothing at all (JSQuAD v1.3 valid a29111p0q0, the real 1.5B model's answer
    to 「ニーダーザクセン州の州都は？」, its Summary's only quotation); the page's sentence before it
    is 「ハノーファー（ ）は、ライネ川沿いにある北ドイツの主要都市のひとつ。」. Likewise where it opens
    with a word for what the sentence before it named: «彼は非公式にではあるが共産党の推薦を受けており、初めての
    「日本共産党系の国会議員」が誕生した。» names nobody without «総選挙では…山本宣治が当選した。» (JSQuAD, the
    question 「初めての日本共産党系の国会議員は誰か」)."""
    pointing = opens_pointing_back(sentence)
    if not pointing and not leaves_its_subject_ja(sentence):
        if _names_only_a_setting_ja(sentence) and (title := _page_title(document)) and title not in sentence:
            # What the page is about is its subject: «1946年4月の第22回総選挙では5議席を獲得し…» on 日本共産党's page
            # follows a sentence on the party's 2014 vote, which is not what it speaks of.
            return f"{title}：{sentence}"
        return sentence
    before = sentence_before_on_its_page(sentence, document)
    if before and (pointing or _TOPIC_OR_SUBJECT_JA.match(before)):
        return f"{before}{'' if re.search(r'[。．]$', before) else ' '}{sentence}"
    if not pointing and before is None and (title := _page_title(document)) and title not in sentence:
        # The first sentence of its paragraph, with no subject: the page's own. «インド東部、ビハール州、…河の
        # ほとりにある。» opens a paragraph of the page «# ブッダガヤ» (JSQuAD v1.3 valid a205453p2q4), and alone
        # says where nothing is.
        return f"{title}：{sentence}"
    if pointing:
        # The first sentence under a heading points at the heading: «同国は旧イギリス植民地であり、現在はイギリス連邦の
        # 一員である。» under «# ドミニカ国» (JSQuAD, `research bench jsquad --seed 93`: quoted alone, it named no country,
        # and the model's answer said Portugal).
        heading = _heading_over(sentence, str(document.get("markdown") or ""))
        if heading:
            return f"{heading}{'：' if _JAPANESE.search(heading + sentence) else ': '}{sentence}"
    return sentence


_JAPANESE = re.compile(r"[\u3040-\u30ff\u4e00-\u9fff]")


def _page_title(document: dict[str, Any]) -> str:
    """The page's title: its first heading of the first level, else the title it was listed with."""
    found = re.search(r"^#\s+(.+?)\s*#*\s*$", str(document.get("markdown") or ""), re.MULTILINE)
    return " ".join((found.group(1) if found else str(document.get("title") or "")).split())


def _heading_over(sentence: str, markdown: str) -> str:
    """The heading right above the paragraph ``sentence`` opens on ``markdown``; "" where it opens none."""
    heading = ""
    for paragraph in re.split(r"\n\s*\n", markdown):
        text = paragraph.strip()
        if text.startswith("#") and "\n" not in text:
            heading = text.lstrip("#").strip()
            continue
        flat = " ".join(text.split())
        spans = sentence_spans(flat)
        if spans and " ".join(flat[spans[0][0]:spans[0][1]].split()) == sentence:
            return heading
        heading = ""
    return ""

"""The answer a person reads, assembled from the verifier's verdicts.

The draft is the model's; the answer is the program's. Every sentence of the draft's body is
kept only for a reason the checks can name:
- a claim its cited passage supports stays (an uncited one the cheap checks are sure of gets
  that source's label);
- a cited claim no judge could decide stays with one "not checked" mark inside the sentence,
  and never opens the Summary while a supported sentence could;
- everything else leaves the body: claims found not supported, contradicted, partly
  supported, uncited, in the wrong language, about another topic, or said twice; and text
  that is not a claim at all (a page's title, a heading or placeholder from a prompt, the
  program's own words sent to the model, a lone citation, a question, filler).
Removed claims keep their verdict with ``removed`` and ``removed_reason``, so the report lists
the doubtful ones with the passage that decided them (modules/report/content.py).

A section left with nothing to say is dropped; a section that answers a sub-question of the
plan says instead that the sources read did not give it, so every facet of the question is
either answered or said to be missing. An empty Summary takes the first supported sentence of
the findings (moved, never copied).
"""

from __future__ import annotations

import re
from functools import lru_cache
from dataclasses import dataclass, field
from typing import Callable, Iterable, Sequence

from research.modules.core.grammar import ADDRESS_TOKEN, JOINED_CITATIONS, TITLE_NUMBER, URL_IN_PROSE, renumbered_titles
from research.modules.core.i18n import t
from research.modules.report.templates import REPORT_LABELS
from research.modules.text.analyser import JAPANESE_RUN, name_suffix_terms, name_terms, term_set, terms
from research.modules.text.disagreements import attribute_words, attributes_named
from research.modules.text.questions import answer_word, answers_another_question, answers_the_other_way, is_yes_no
from research.modules.text.questions import asks_for_a_name_or_value
from research.modules.text.passages import (
    NOUN_AND_WA_END_JA,
    SourceSentence,
    leaves_its_subject_ja,
    names_what_is_asked,
    values_of_the_kind_asked,
)
from research.modules.text.references import (
    TOPIC_JA,
    opens_pointing_back,
    points_back_within_ja,
    rests_on_the_sentence_before,
    without_leading_connective,
)
from research.modules.text.polarity import opposite_conflict
from research.modules.text.structure import leaves_the_question_open
from research.modules.text.injection import addresses_reader
from research.modules.text.language_check import is_wrong_language
from research.state.models import CONTRADICTING_REASONS, ClaimVerdict, Document, Language, Verdict
from research.modules.text.claims import (
    CITATION_GROUP,
    Claim,
    body_sentences,
    citation_labels,
    is_filler,
    is_reference_heading,
    is_reference_line,
    RUN_ON_JOINT,
    plain_text,
    sentence_spans,
    strip_citations,
)

# Why a claim left the body (verification.json ``removed_reason``).
REMOVED_CONTRADICTED = "contradicted"
REMOVED_NOT_SUPPORTED = "not_supported"
REMOVED_PARTLY = "partly_supported"
# Not checked (no judge decided it) and its passage lacks its figure or what it speaks of: named
# as the table and the answer name such a claim, never "partly supported" (issue 44, item 6).
REMOVED_UNCHECKED = "not_checked"
REMOVED_UNCITED = "uncited"
REMOVED_LANGUAGE = "wrong_language"
REMOVED_OFF_TOPIC = "off_topic"
REMOVED_DUPLICATE = "duplicate"
REMOVED_NOT_A_CLAIM = "not_a_claim"
# A yes or a no no check decided, whose sentence is the question said back (``_restates``).
REMOVED_QUESTION_RESTATED = "question_restated"
# A sentence no check decided whose opposite, word for word, the draft also said (``_drop_undecided_opposites``).
REMOVED_SAID_BOTH_WAYS = "said_both_ways"
_BRACKETED_ASIDE = re.compile(r"\s*[(（][^()（）]{1,40}[)）]")


# A template's slot written out as text: "<theme>", 「<テーマ>」, "<the sub-question>".
PLACEHOLDER = re.compile(r"[<＜〈《][^<>＜＞〈〉《》\n]{1,24}[>＞〉》]")
_NUMBERING = re.compile(r"^\s*(?:\d{1,2}[.)．）]|[（(]\d{1,2}[)）])\s*")
_HEADING_LINE = re.compile(r"^(\s{0,3})(#{1,6})\s+(.*?)\s*#*\s*$")
_LIST_ITEM = re.compile(r"^\s*(?:[-*+•・]|\d{1,3}[.)）])\s*$")
_NUMBERED_ITEM = re.compile(r"^(\s*)(\d{1,3})([.)）]\s)")
_SENTENCE_END = "。．.！？!?"
# Sentences that say the sources lack something: a plain statement the answer owes the reader.
_SAYS_MISSING = re.compile(
    r"(passages?|sources?|documents?) (read )?(do(es)? not|don't|doesn't) (mention|provide|contain|include|specify|say|state|give)"
    r"|(出典|資料|情報源).{0,12}(記載|言及|触れ|示され).{0,6}(ありません|いません|なし)",
    re.IGNORECASE)
# A sentence about the page itself, not the world: 「この資料は…についてまとめたものである」,
# "This article describes …".
_ABOUT_THE_SOURCE = re.compile(
    # 「この出典は、グラスタフ・マーラーが1909年に…指揮者となったことを明確に示しています」 (the real 1.5B model, JSQuAD,
    # `research bench jsquad --sample 5 --seed 144`: read against each page as a claim, and contradicted by one).
    r"^(?:この|本|当)(?:資料|文書|ページ|記事|サイト|論文|報告書|レポート|出典|情報源|ソース)(?:は|では|には)"
    r"|^(?:this|the) (?:document|page|article|source|site|paper|report|passage)s? "
    r"(?:is|are|was|describes?|summari[sz]es?|covers?|explains?|discusses?|provides?|presents?|gives?|contains?)\b"
    # A page's account of itself with another subject put in: the source's 「この資料は富士山の火山防災に
    # ついてまとめたものです」 written as 「この遺産は…についてまとめたものです」 (Qwen2.5-Coder-1.5B).
    r"|^(?:この|本|当)[^、。]{1,10}?(?:は|では)[^。]{0,80}?(?:について|を)(?:まとめ|紹介し|解説し|説明し|整理し)た"
    r"(?:もの|ページ|記事|資料|サイト|文書)(?:です|である|だ|となっています)"
    r"|^(?:this|the) \w+ (?:is|provides) (?:a|an) (?:summary|overview|compilation|introduction) (?:of|to)\b"
    # What the sentence before said, said to be in the source: "This is stated in the source data [S1]."
    # (the real 1.5B model on the GIL question, kept "(not checked)" in its Summary), 「これは出典に記載されています」.
    r"|^(?:this|that|it|which)(?: information| fact)? (?:is|was|are|were) (?:\w+ )?(?:stated|mentioned|said|noted|"
    r"described|written|explained|given|reported|confirmed|found|shown|supported) (?:in|by) (?:the |each |all )?"
    r"(?:cited |given |provided |listed )?(?:sources?|source data|data|documents?|passages?|pages?|articles?|texts?|"
    r"references?)\W*$"
    r"|^(?:これ|このこと|それ|その内容)は[^。]{0,8}?(?:出典|資料|ソース|文書|記事|ページ|データ)[^。]{0,6}?"
    r"(?:に|で)(?:は|も)?(?:記載|記述|説明|書かれ|述べられ|示され|明記)"
    # The answer's account of itself: 「この回答は、出典[S1]と[S2]から得られた情報に基づいて推測されたものです。」,
    # 「これは、…を説明している[S1]と、…を示している[S2]から得られた情報に基づいて推測されたものです。」 (the
    # real 1.5B model on JSQuAD v1.3 valid a4596p34q1, the second kept "(未確認)" in its answer),
    # "This answer is based on the information in [S1]."
    r"|^(?:この|本|上記の|以上の)(?:回答|答え)(?:は|では|が)"
    # What the answer does with what it read: 「この情報は、質問の答えとして使用されます」 (the real 1.5B model, JSQuAD,
    # `research bench jsquad --seed 143`), "This information is used to answer the question."
    r"|^(?:この|これらの|上記の|以上の)情報は[、,]?[^。]{0,30}?(?:質問|問い)(?:の|への|に対する)(?:答え|回答)"
    r"|^(?:this|that|the above) information (?:is|was|can be|will be) used (?:as|to|for) (?:the )?answer"
    # A citation as the subject of what it says, gone with the citation: 「[S2]は、1951年2月に第4回全国協議会で「軍事方針」を
    # 採択したことを明確に記載しています」 (the real 1.5B model, JSQuAD, `research bench jsquad --seed 142`), kept
    # "(未確認)" in its findings as 「は、1951年2月に…」.
    r"|^(?:は|が)[、,]?[^。]{0,200}?(?:こと|と)を?(?:明確に|はっきりと|詳しく)?(?:記載|記述|説明|明記|言及|指摘|示|述べ)"
    r"(?:して|し|されて)?(?:います|いる|いた|いました)[。.]?$"
    r"|(?:情報|記述|内容|出典|資料)(?:に基づいて|を基に|をもとに)[^。]{0,12}?(?:推測|推定|導き出|作成)(?:され|し|でき)"
    r"|^(?:this|the above|my) (?:answer|response) (?:is|was) (?:\w+ )?(?:based|derived|drawn|inferred|taken|correct|"
    r"accurate|right)\b",
    re.IGNORECASE)
# A sentence that only says where something can be read, once its citations are taken out:
# 「このデータは[S3]で提供されています。」, 「…に関する情報は[S2]や[S4]で提供されています。」 (the
# real model, Qwen2.5-Coder-1.5B), "More details are available in [S2].", "See [S1] for more."
_WHERE_TO_READ = re.compile(
    r"^(?:[^。]{0,30}?(?:に関する|についての|の))?(?:この|これらの|その|詳しい|詳細な|より詳しい|さらに詳しい)?"
    r"(?:情報|データ|詳細|内容|説明|数値|資料|詳しく)(?:について)?(?:は|も)[\sや、と・及びおよび]*"
    r"(?:(?:この|その|各|上記の|以下の)?(?:出典|資料|情報源|ソース|参考文献|記事|ページ|サイト|文献)(?:[\sや、と・]*)?)*"
    r"(?:で|に|から|にて)(?:は|も)?(?:提供|掲載|記載|紹介|説明|公開|確認|参照|まとめ|示)"
    r"|^(?:this|these|the|more|further|additional|such)?\s*(?:information|data|details?|figures?|facts?)\s+"
    r"(?:is|are|can be|may be)\s+(?:provided|available|given|found|listed|described|shown|covered|reported)\s+"
    # "… in [S1]", and with the citation's noun left in: "… in the source [S1]" (the real model)
    r"(?:in|by|at|from|on)[\s,]*(?:(?:the|this|these|those|its|our|each)\s+)?(?:(?:cited|listed|given|above)\s+)?"
    r"(?:(?:sources?|documents?|references?|pages?|articles?|websites?|sites?|links?)\b)?"
    r"(?:\s+(?:listed|cited|given|shown))?(?:\s+(?:above|below|here))?[\s,]*(?:(?:and|or)[\s,]*)*"
    # … and what the source is on: "… in the source [S1] on Mount Fuji's elevation." (the real model)
    r"(?:(?:on|about|regarding|concerning)\s+[^.;:]{1,80})?[.]?$"
    r"|^see\s+(?:also\s+)?(?:for\s+(?:more|further)\s+(?:details|information))?[\s.]*$",
    re.IGNORECASE)
# A Japanese question written with a full stop: an asking word, then か at the end (「R/Pの指標より
# 用いられているものは何なのか。」, JSQuAD's own question restated by the real 1.5B model as a finding).
# Not 「…かどうかは分からない。」 or 「…か否か」: they end otherwise.
_QUESTION_JA = re.compile(r"(?:何|なに|なぜ|何故|どう|どこ|いつ|誰|だれ|どの|どれ|どちら|どんな|いくつ|いくら)"
                          r"[^。？?]*?(?:の|ん)?(?:です|でしょう|だろう)?か[。．.]?$")
# A page's pointer to another page, copied as a sentence of its own: 「（石油ピーク参照）」 after
# 「…表示することが多い。」 (the real 1.5B model on JSQuAD v1.3 valid a1540503p45q1), "(see Peak oil)".
_CROSS_REFERENCE = re.compile(r"^[(（]\s*(?:[^()（）]{1,40}?参照(?:のこと)?|see(?:\s+also)?\s+[^()（）]{1,60})\s*[)）][。.]?$",
                              re.IGNORECASE)
# A sentence that only announces what follows: 「…は以下の通りです」, 「…場合は、以下の地域が該当します」 (the real 1.5B
# model over its list, JSQuAD, `research bench jsquad --seed 95`), 「次のようなものがあります」, "… are as follows".
_LEAD_IN = re.compile(r"(以下|次)の(通り|とおり)(です|である|だ)?[。.]?$"
                      r"|(以下|次)の(ような)?[^、。]{0,10}(が|は)(該当|あげられ|挙げられ|考えられ|含まれ|ある|あり)[^、。]{0,8}[。.]?$"
                      r"|\bas follows[.:]?$|\bthe following[.:]?$|\bthe following (?:\w+ ){0,3}(?:apply|are|include)[.:]?$",
                      re.IGNORECASE)
# Terms too common to tell one topic from another.
_GENERIC_TERMS = frozenset({
    "japan", "日本", "world", "世界", "year", "年", "use", "使う", "new", "新しい", "system", "システム",
    "data", "データ", "information", "情報", "main", "主", "way", "方法", "time", "時間",
    # Light verbs: "When did Python get free-threading?" asks when, not about getting (the real
    # 1.5B model's plan; its Summary gave both dates and the section still said "not answered").
    "get", "got", "make", "made", "take", "took", "becom", "becam",
})


# A question that asks for a reason or a way ("how tall" asks a measure, "how did it form" a way).
_ASKS_WHY_OR_HOW = re.compile(
    r"\bwhy\b|\bhow (?:does|do|did|is|are|was|were|can|could|will|would|has|have)\b|\bwhat (?:causes?|caused)\b"
    r"|なぜ|どうして|どのように|どうやって|理由|仕組み|原因", re.IGNORECASE)


def _norm(text: str) -> str:
    return " ".join(text.lower().replace("：", ":").split()).rstrip(" .。")


@dataclass
class ProgramText:
    """What the program itself sent to the model: its prompts and its repair messages.

    A sentence of the answer that repeats it came back from the prompt, not from a source,
    and is never a claim. Templates are compared by their fixed parts (the text between
    ``{placeholders}``) of 20 characters or more."""

    fragments: list[str] = field(default_factory=list)

    @classmethod
    def of(cls, texts: Iterable[str]) -> "ProgramText":
        fragments: list[str] = []
        for text in texts:
            for piece in re.split(r"\{[^{}]*\}|\n", text):
                piece = _norm(piece)
                if len(piece) >= 20 and piece not in fragments:
                    fragments.append(piece)
        return cls(fragments)

    def contains(self, sentence: str) -> bool:
        key = _norm(strip_citations(sentence))
        if len(key) < 12:
            return False
        return any(fragment in key or key in fragment for fragment in self.fragments)


@dataclass
class Topic:
    """What the question (and, in a follow-up, the conversation) is about, for a cheap
    relevance check on each sentence of the answer.

    Where the question names something (``names``: "Ollama", 富士山, "PEP 703", in any of the
    texts given: the question, its sub-questions and their queries in both languages, the
    conversation's questions), a sentence is on topic when it, or the source it cites (title
    or text), names it too: "The Port of Yokohama opened in 1859" shares "port" with "Which port
    does Ollama listen on?" but not Ollama. Where it names nothing, a sentence is on topic
    when it or its source's title shares a telling term with the question, or its source's
    text holds most of them. Nothing comparable in the sentence's script: never guessed."""

    terms: frozenset[str]
    names: frozenset[str]
    source_texts: dict[str, str]
    # What names the subject itself: the question's names with their suffixes (富士山 → フジ, 山)
    # and the terms every source's title has. The question's other terms are what it asks about the subject.
    subject: frozenset[str] = frozenset()
    # "What is PEP 703 …?", 「LangGraphとは？」: whatever is said of the subject answers it.
    asks_what_it_is: bool = False
    # The question's own terms (the first text given), without its sub-questions' and queries':
    # what a page about it holds half of.
    question_terms: frozenset[str] = frozenset()
    # The question's own terms that the fewest of the pages read hold (at most half of them, one at
    # least): what tells a page about it from the others of the run ("coeliac" of "Is coeliac disease
    # screening in risk groups justified?", where "disease", "risk" and "screening" are every page's).
    rarest: frozenset[str] = frozenset()
    # The most of the question's own terms any page read holds: a page that holds as many is about
    # it too, whatever it lacks of ``rarest`` (a title's rare word the abstract does not repeat).
    most_held: int = 0
    # The terms of what a Japanese question asks an attribute of: リボ核酸 of 「リボ核酸の略称は何か」.
    whose: frozenset[str] = frozenset()
    # A Japanese question's topic, what stands before its first は: ルガンスク人民共和国 of 「ルガンスク人民共和国はどこの国で
    # テロ組織指定されているか？」. A sentence with that topic speaks of what was asked about.
    question_topic: str = ""
    # A text's content terms and names, read once: a source's text is asked about by every
    # claim that cites it, and MeCab on 20,000 characters is not free.
    _read: dict[str, tuple[frozenset[str], frozenset[str]]] = field(default_factory=dict, repr=False)

    def _words(self, text: str) -> tuple[frozenset[str], frozenset[str]]:
        if text not in self._read:
            self._read[text] = (frozenset(_content_terms(text)), name_terms(text))
        return self._read[text]

    @classmethod
    def of(cls, texts: Iterable[str], documents: list[Document]) -> "Topic":
        texts = [text for text in texts if text]
        wanted: set[str] = set()
        names: set[str] = set()
        name_words: set[str] = set()
        # A word broken across two scripts is a garbled transliteration, no name: the real 1.5B
        # model's query 「…ホルミウムレーザーのエンucleーション後の結果」 (PubMedQA 23453079) made "ucle",
        # エン and ション names, and the study's own supported finding went as off topic.
        texts = [_BROKEN_WORD.sub(" ", text) for text in texts]
        for text in texts:
            wanted |= _asked_terms(text)
            names |= name_terms(text)
            name_words |= name_suffix_terms(text)
        if texts:
            # A word the question writes as a plain word is no name because a query wrote it inside
            # Japanese: the real 1.5B model's 「糖尿病 mellitusと cervical癌のFDG-PET診断の効果について調べる」
            # made "cervical" and "mellitus" names (PubMedQA 15703931), and another study's page on the
            # cervical spine of patients with diabetes mellitus led the Summary as on topic.
            names -= _asked_terms(texts[0]) - name_terms(texts[0])
        read = {d.label: f"{d.title}\n{d.markdown[:_SOURCE_CHARS]}" for d in documents if d.status == "ok"}
        titles = [_content_terms(d.title) for d in documents if d.status == "ok" and d.title]
        in_every_title = set.intersection(*titles) if len(titles) >= 2 else set()
        subject = frozenset(_names_in_every_text(texts) | name_words | in_every_title)
        question_terms = frozenset(_asked_terms(texts[0]) - _GENERIC_TERMS) if texts else frozenset()
        possessive = _ATTRIBUTE_ASKED_OF_JA.match(texts[0].strip()) if texts else None
        whose = frozenset(_asked_terms(possessive["whose"]) - _GENERIC_TERMS) if possessive else frozenset()
        asked_of = _TOPIC_OF_JA.match(texts[0].strip()) if texts else None
        topic = cls(frozenset(wanted - _GENERIC_TERMS), frozenset(names - _GENERIC_TERMS), read, subject=subject,
                    asks_what_it_is=any(_asks_what(text, subject) for text in texts), question_terms=question_terms,
                    whose=whose, question_topic=asked_of["topic"] if asked_of else "")
        if len(read) >= 2:
            pages = [topic._words(text)[0] for text in read.values()]
            held = {term: sum(1 for words in pages if term in words) for term in question_terms - subject}
            fewest = min((n for n in held.values() if n), default=0)
            if fewest and fewest * 2 <= len(pages):
                topic.rarest = frozenset(term for term, n in held.items() if n == fewest)
                topic.most_held = max(len(words & question_terms) for words in pages)
        return topic

    def telling(self, text: str) -> set[str]:
        return set(self._words(text)[0] & self.terms)

    def _names_in(self, text: str) -> bool | None:
        """Whether ``text`` names what the question names; None when no name of the question
        is written in a script ``text`` uses, so it cannot tell."""
        scripts = _scripts(text)
        if not {_script(name) for name in self.names} & scripts:
            return None
        content, names = self._words(text)
        return bool((content | names) & self.names)

    def restated(self, plain: str, content: set[str], said: dict[str, list[set[str]]]) -> bool:
        """Whether a finding gives figures a kept sentence already gave, and adds to that
        sentence only words of the question: "The elevation of Mount Fuji is 3,776 m" after
        the Summary's "Mount Fuji is 3,776 m tall", under a heading "What is the elevation of
        Mount Fuji?" (Qwen2.5-Coder-1.5B wrote the fact three times, once per sub-question). A
        finding with one word of its own ("it erupted for 16 days in 1707") stays. Without a
        figure, the things it names must be several and all named already: 「主要な種類は太陽光発電、
        水力発電、風力発電です」 and then 「主要なエネルギー源は太陽光発電、水力発電、風力発電です」
        (the real model again, under two sub-questions that ask the same)."""
        figures = _figures(plain)
        asked = self.terms | self.subject | self.names
        if figures:
            return any(figures <= earlier and content - earlier <= asked for kept in said.values() for earlier in kept)
        return any(content - earlier <= asked and len((content & earlier) - asked) >= _NAMED_AGAIN
                   for kept in said.values() for earlier in kept)

    def on_the_point(self, claim: Claim, summary_said: Iterable[set[str]]) -> bool:
        """Whether a finding that names the question's subject also says something of what the
        question asks about it: a term it shares with the question's other terms (its
        sub-questions and queries included), or a term or figure with the kept Summary.
        「富士山は日本で最も高い山です」 and the climbing season, for 「富士山の最後の噴火はいつ？」
        (the real model), do not. A question that names nothing, asks nothing beyond its
        subject ("Tell me about Ollama") or asks what it is ("What is PEP 703 and …?") lets every
        finding on its subject stand."""
        asked = self.terms - self.subject - _asking_terms(_has_japanese(self.terms))
        if not self.names or not asked or self.asks_what_it_is:
            return True
        point = asked.union(*summary_said) - self.subject - _GENERIC_TERMS
        scripts = _scripts(claim.plain)
        if not any(_script(term) in scripts or term[0].isdigit() for term in point):
            return True  # nothing in the finding's script to compare with: never guess
        return bool((self._words(claim.plain)[0] | _figures(claim.plain)) & point)

    def is_on_topic(self, claim: Claim, attributed: list[str] | None = None) -> bool:
        """``attributed``: the source the checks found for an uncited claim, read as its citation."""
        said_of = _TOPIC_OF_JA.match(claim.plain.strip())
        if self.question_topic and said_of and said_of["topic"] == self.question_topic:
            # Of what the question asks about, said with it as its topic: 「ルガンスク人民共和国は、ウクライナの東部の…独立を
            # 宣言した地域」 went as off topic, another page holding テロ and 指定 of the question (JSQuAD, `research bench
            # jsquad --sample 5 --seed 124`), and the Summary kept only its subjectless next sentence.
            return True
        labels = claim.citations or claim.paragraph_citations or attributed or []
        cited = [self.source_texts[label] for label in labels if label in self.source_texts]
        if self.names:
            said = [self._names_in(claim.plain), *(self._names_in(text) for text in cited)]
            if any(said):
                # A name every study uses is no topic by itself: "…muscle oedema on fat-suppressed MRI sequences …" from
                # a study of muscles stood in the Summary to "Chemical shift MRI: is there any contribution to
                # morphologic evaluation of solid breast masses?" (PubMedQA 19608436, `research bench pubmedqa --sample 4
                # --seed 126`). With little else of the question said, its page must be about the question (English
                # only, as below).
                return not (_script(claim.plain) == "latin" and cited
                            and self._names_only_what_pages_share([claim.plain, *cited])
                            and len(self.telling(claim.plain) & (self.question_terms or self.terms)) < _TELLING_ENOUGH
                            and not any(self._holds_half(text) and self._tells_it_apart(text) for text in cited))
            if any(answer is False for answer in said):
                # Unless it says two of what the question asks of: PubMedQA 11713724 (the real
                # 1.5B model), "Cancer of the buccal mucosa: are margins and T-stage accurate
                # predictors of local control?" took "T-stage" for a name, and "56% of patients
                # with buccal mucosal primary tumors had local recurrence" went as off topic.
                # The question's own terms: a sub-question's 「主な言語は？」 made the Laos page's
                # sentence on Lao and Thai (語, 言語) on topic for 「エチオピアの事実上の公用語は」
                # (JSQuAD a1889068p0q0, the real 1.5B model).
                # And its page must be about the question: PubMedQA 27146470 with the real 1.5B model, "Are
                # tuberculosis patients adherent to prescribed treatments in China?", kept as its whole Summary
                # another study's "Adherence to treatment recommendations was not significantly different from
                # that to a repeated Pap smear", whose page (on colposcopy) names neither tuberculosis nor China.
                return len(self.telling(claim.plain) & (self.question_terms or self.terms)) >= _TELLING_ENOUGH \
                    and (not cited or any(self._holds_half(text) and self._tells_it_apart(text) for text in cited))
        comparable = {term for term in self.terms if _script(term) in _scripts(claim.plain)}
        if not comparable:
            return True  # nothing in the claim's script to compare with: never guess
        # A question that names nothing but asks of many things needs two of them said: PubMedQA
        # 9854965 with the real 1.5B model ("Dementia and aphasia in motor neuron disease: an
        # underrecognised association?") kept in its Summary other studies' findings that share one
        # word with it (caregivers of dementia patients; tube-fed residents "not associated with
        # survival"), and the grader read the answer's "no" from one of them.
        needed = _TELLING_ENOUGH if len(comparable) >= _MANY_TERMS else 1
        telling = self.telling(claim.plain)
        if needed == 1 and telling and self.whose and not telling & self.whose and cited \
                and not any(self._holds_half(text) and self._tells_it_apart(text) for text in cited):
            # Only the attribute asked, of another thing, from a page not about the question: to 「リボ核酸の略称は
            # 何か」 the real 1.5B model's 「日本共産党的略称は「共産党」です」 from the party's page (JSQuAD v1.3 valid,
            # `research bench jsquad --seed 97`).
            return False
        if len(telling) >= needed:
            # Of such a question the page it cites must hold half the terms too: "Nasal fractures:
            # is closed reduction satisfying?" kept "…the Hawkins sign can predict whether or not
            # astragalus fractures … delay in the reduction…" from another study's page (PubMedQA
            # 23348330, the real 1.5B model at 2fa120f).
            return needed == 1 or not cited or any(self._holds_half(text) and self._tells_it_apart(text)
                                                   for text in cited)
        # A sentence that names too little of it stands on its page being about the question: holding half its terms,
        # and what tells such a page from the run's others (``_tells_it_apart``). "Uniformity of evidence-based
        # treatments in practice?" names only words most studies use: the real 1.5B model's Summary was five other
        # studies' sentences (depressive symptoms, rotator cuff disease, root canals; PubMedQA 18534072, `research
        # bench pubmedqa --sample 4 --seed 123`), their pages holding "evidence", "based" and "treatment".
        # English only: the pages of a Japanese run (JSQuAD's encyclopaedia sections) share their words, and the
        # same test took answers out there (「職業訓練の資格が必要です」 to 「建築業を業とするためのライセンスの取得条件は？」).
        english = _script(claim.plain) == "latin"
        return any(len(self.telling(text.split("\n", 1)[0])) >= needed
                   or self._holds_half(text) and (not english or self._tells_it_apart(text)) for text in cited)

    def _names_only_what_pages_share(self, texts: list[str]) -> bool:
        """Whether each of the question's names ``texts`` name is named by two or more of the pages read: MRI of
        a run on breast MRI whose pages include a study of muscle MRI, not FDG-PET named by one study alone."""
        named = {name for text in texts for name in (self._words(text)[0] | self._words(text)[1]) & self.names}
        pages = [self._words(page) for page in self.source_texts.values()]
        return bool(named) and all(sum(1 for words, page_names in pages if name in words | page_names) >= 2
                                   for name in named)

    def _tells_it_apart(self, text: str) -> bool:
        """Whether a source's ``text`` holds what tells a page about the question from the run's
        others (``rarest``): PubMedQA 16097998 with the real 1.5B model, "Is coeliac disease screening
        in risk groups justified?", led its Summary with three other studies' findings on familial
        risk prompts, cervical and breast cancer screening: pages that hold "disease", "risk" and
        "screening", as every page of the run does, and not "coeliac". A page that holds as many of
        the question's terms as any page does is about it all the same: on the bench's PubMedQA dev
        pages (BM25's six for each question) that keeps the question's own page in 359 of 360 and
        turns away 125 of the 175 other studies' pages that hold half the question's terms."""
        words = self._words(text)[0]
        return not self.rarest or bool(words & self.rarest) or len(words & self.question_terms) >= self.most_held

    def _holds_half(self, text: str) -> bool:
        """Whether a source's ``text`` holds half the question's own terms of its script: a page
        about it. Not the sub-questions' and queries' terms too: the real 1.5B model's four
        sub-questions of 「日本の再生可能エネルギーの内訳は？」 (主要, 種類, 重要, 広く使用, 効果的) and an English
        query made 14 terms, the page holding the answer had 5, and its supported sentences, 9.2%
        and 7.6%, were taken out as off topic."""
        scripts = _scripts(text)
        asked = {term for term in (self.question_terms or self.terms) if _script(term) in scripts}
        return bool(asked) and len(self._words(text)[0] & asked) * 2 >= len(asked)


_SOURCE_CHARS = 20000  # of a source's text, for what it is about
# A Japanese sentence's topic: a noun phrase of three or more characters (no particle but の in it) and は.
_TOPIC_OF_JA = re.compile(r"^(?P<topic>[^はがをにでと、。？?「」\s]{3,30}?)は")
# Latin letters inside a katakana word (エンucleーション), or katakana inside a Latin one; or the lower-case
# rest of an English word glued to kanji or katakana: the real 1.5B model's query 「牙科医が manipulatedのデジタル
# 放射ographsを認識できるか？」 (PubMedQA 9446993, `research bench pubmedqa --sample 4 --seed 113`) made "ograph" a name,
# and the study's own results («…a distribution of hits similar to the random distribution») went as off topic.
_BROKEN_WORD = re.compile(r"[\u30a1-\u30fa\u30fc]+[A-Za-z]+[\u30a1-\u30fa\u30fc]+|[A-Za-z]+[\u30a1-\u30fa\u30fc]+[A-Za-z]+"
                          r"|(?<=[\u4e00-\u9fff\u30a1-\u30fa])[a-z]{3,}")
# 「リボ核酸の略称は何か」: what the question asks (略称) and what it asks it of (リボ核酸).
_ATTRIBUTE_ASKED_OF_JA = re.compile(r"^(?P<whose>[^はがを、。？?]+?)の(?P<what>[^のはがを、。？?]+?)は")
_TELLING_ENOUGH = 2  # terms of the question a sentence that names none of its names must share
_MANY_TERMS = 5  # a question that names nothing and has this many terms needs _TELLING_ENOUGH of them said


def _script(text: str) -> str:
    """"ja" when ``text`` has kana or kanji, else "latin": terms are only compared within one."""
    return "ja" if re.search(r"[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff]", text) else "latin"


def _scripts(text: str) -> set[str]:
    found = set()
    if re.search(r"[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff]", text):
        found.add("ja")
    if re.search(r"[A-Za-z]{2,}", text):
        found.add("latin")
    return found


def _names_in_every_text(texts: list[str]) -> set[str]:
    """The names every text that names something in a script names: the subject. (Inside
    Japanese prose every Latin word counts as a name, so "Mount Fuji (富士山): how high is it…"
    alone would make "high" part of the subject; the plan's English query does not.)"""
    found: set[str] = set()
    for script in ("ja", "latin"):
        named = [{n for n in name_terms(text) if _script(n) == script} for text in texts]
        named = [names for names in named if names]
        if named:
            found |= set.intersection(*named)
    return found


# "what is X" (up to "and" or the end of the clause), 「Xとは」, 「Xは何ですか」, 「Xって何」.
_WHAT_IS = re.compile(r"\bwhat\s+(?:is|are|was|were)\s+(.+?)(?:\s+and\b|[?,;]|$)"
                      r"|([^、。？?\s]+?)(?:とは|って(?:何|なに)|は(?:何|なん|なに)(?:です|でしょう)?か?[？?]?$)",
                      re.IGNORECASE)


def _asks_what(text: str, subject: frozenset[str]) -> bool:
    """Whether ``text`` asks what its subject is: a "what is" clause that holds nothing but the
    subject's words (a number beside a name is part of it: PEP 703, Python 3.13)."""
    for found in _WHAT_IS.finditer(text):
        words = {term for term in _content_terms(found.group(1) or found.group(2) or "") if not term[0].isdigit()}
        if words and words <= subject | _asking_terms(_has_japanese(words)):
            return True
    return False


@lru_cache(maxsize=2)
def _asking_terms(japanese: bool = True) -> frozenset[str]:
    """How a question asks, not what about: "Tell me about Ollama", 「富士山について教えて」.
    ``japanese=False`` leaves the Japanese words out, for terms with no Japanese in them, which
    cannot hold one of theirs: their terms need the dictionary, which an English question
    then never loads (3.6 MB)."""
    words: tuple[str, ...] = ("tell", "explain", "describe", "give", "overview", "summary", "summarize", "about")
    if japanese:
        words += ("について", "教えて", "説明", "概要", "まとめ", "知りたい")
    return frozenset().union(*(_content_terms(word) for word in words))


def _has_japanese(terms: Iterable[str]) -> bool:
    return any(JAPANESE_RUN.search(term) for term in terms)


_NAMED_AGAIN = 3  # terms of its own a figure-less finding must share with a kept sentence to be a repeat


def _figures(text: str) -> set[str]:
    return set(re.findall(r"\d[\d,.]*\d|\d", text))


# Where a sentence's subject ends: the first topic or subject particle outside quotation marks, or
# the first auxiliary or copula of an English sentence.
_SUBJECT_END_JA = re.compile(r"(?:は|が)(?![^「」『』]*[」』])")
# Or the verb that reports what a source says: "The Ollama FAQ [S3] states that the Port of Yokohama
# opened … in 1859" speaks of what the FAQ says (the real 1.5B model, bench_answers.py, S3 a page on
# Yokohama): a source its passage does not name is what it leaves out.
# Or a verb that lists what the subject holds: "Long-term effects of IUD insertion include increased risk of infection
# …" (PubMedQA 22979954, `research bench pubmedqa --seed 128`, the real 1.5B model's Summary) cited a page on heart
# pumps (LVADs) that names no IUD: kept "not checked" in the Summary until "include" ended the subject too.
_SUBJECT_END_EN = re.compile(r"\b(?:is|was|are|were|has|have|had|will|would|can|could|may|might|does|did"
                             r"|states|says|notes|reports|writes|explains|mentions|claims"
                             r"|include|includes|included|involve|involves|involved)\b", re.IGNORECASE)


def _subject_terms(text: str) -> set[str]:
    """The terms of what ``text`` speaks of: its words before the first は/が (Japanese) or the
    first auxiliary or copula (English); empty when there is none."""
    japanese = JAPANESE_RUN.search(text) is not None
    end = (_SUBJECT_END_JA if japanese else _SUBJECT_END_EN).search(text)
    return _content_terms(text[:end.start()]) if end else set()


# A topic that points back (この資料, 同山).
_POINTING_TOPIC = re.compile(r"^(?:この|その|あの|同|本|当|該)")


def _speaks_of_what_its_passage_does_not(claim: str, evidence: str, pointing_only: bool = False) -> bool:
    """(ja) Whether ``claim``'s topic is written by no sentence of ``evidence``, while the evidence's sentence that
    shares most of the claim's other words has a topic of its own: the claim says of one thing what the page says
    of another. ``pointing_only``: only where that topic points back (この資料: the page speaking of itself)."""
    said = TOPIC_JA.match(claim.strip())
    if said is None or not JAPANESE_RUN.search(claim) or not evidence:
        return False
    topic, rest = _content_terms(said["topic"]), _content_terms(claim[said.end():])
    sentences = [evidence[start:end].strip() for start, end in sentence_spans(evidence)]
    if not topic or not rest or not sentences:
        return False
    best = max(sentences, key=lambda sentence: len(rest & _content_terms(sentence)))
    theirs = TOPIC_JA.match(best)
    if theirs is None or topic & _content_terms(best) or len(rest & _content_terms(best)) * 2 < len(rest):
        return False
    # Its topic names another thing, not the claim's in other words: one that points back (この資料, 同山) names the
    # thing it points at only where the claim names that thing too, elsewhere than in its topic (資料).
    pointer = _POINTING_TOPIC.match(theirs["topic"])
    their_topic = _content_terms(theirs["topic"][pointer.end():] if pointer else theirs["topic"])
    if (pointer and not their_topic & rest) or (pointing_only and not pointer):
        return False
    return bool(their_topic) and not their_topic & topic


def _gives_another_topics_predicate(claim: str, missing: Sequence[str], page: str) -> bool:
    """(ja) Whether ``claim`` gives its topic what a sentence of its ``page`` says of another thing, one the claim
    names after its topic: 「宝永噴火は富士山の活火山です」 (the real 1.5B model, bench_answers.py --ollama) where the
    page's «富士山は静岡県と山梨県にまたがる活火山である» holds the word it lacks (活火山) and says it of 富士山."""
    said = TOPIC_JA.match(claim.strip())
    lacking = {term for word in missing for term in _content_terms(word)}
    if said is None or not lacking or not page or not JAPANESE_RUN.search(claim):
        return False
    topic, rest = _content_terms(said["topic"]), _content_terms(claim[said.end():])
    for start, end in sentence_spans(page):
        sentence = page[start:end].strip()
        theirs = TOPIC_JA.match(sentence)
        if theirs is None or _POINTING_TOPIC.match(theirs["topic"]) or not lacking <= _content_terms(sentence):
            continue
        their_topic = _content_terms(theirs["topic"])
        if their_topic and not their_topic & topic and their_topic <= rest:
            return True
    return False


def _distinctive(term: str) -> bool:
    """Long enough to tell one topic from another: two characters, or one kanji (山, 川)."""
    return len(term) > 1 or re.match(r"[\u4e00-\u9fff]", term) is not None


def _content_terms(text: str) -> set[str]:
    return {term for term in term_set(strip_citations(text)) if _distinctive(term)}


def _asked_terms(text: str) -> set[str]:
    """What a question (or a sub-question, or a query) asks about: its content terms less
    its Japanese verbs. The model's own query 「量子ビットはどのような特徴を持つ？」 made 持つ a
    term of the topic, and 「LangGraphのチェックポイントでは3つのノードを持つグラフを…」 in the
    answer to 「量子ビットとは？」 on topic by it (Qwen2.5-Coder-1.5B). English keeps its verbs
    (there is no tagger to tell them): "listen" in "Which port does Ollama listen on?" tells."""
    return {term.text for term in terms(strip_citations(text)) if _distinctive(term.text) and not term.predicate}


def _attribute_terms(text: str) -> set[str]:
    """The terms of every word for each attribute ``text`` names: with "tall" in it, those of
    "height", "elevation", "altitude", 「標高」 …"""
    return set().union(*(_words_for(name) for name in attributes_named(text)))


@lru_cache(maxsize=64)
def _words_for(name: str) -> frozenset[str]:
    return frozenset().union(*(_content_terms(word) for word in attribute_words(name)))


@dataclass
class Assembly:
    """What assembling the answer did, for verification.json and the report's notes."""

    answer: str
    removed: dict[str, int] = field(default_factory=dict)  # reason -> count (claims and non-claims)
    not_given: list[str] = field(default_factory=list)  # sub-questions the sources did not answer
    lifted: bool = False  # a supported sentence moved up into an empty Summary


def _mark_inside(text: str, mark: str) -> str:
    """``mark`` (a citation, a verdict's mark) before the sentence's closing full stop: it
    belongs to this sentence, not the next."""
    stripped = text.rstrip()
    if stripped and stripped[-1] in _SENTENCE_END:
        space = "" if stripped[-1] in "。．！？" else " "
        return stripped[:-1] + space + mark + stripped[-1]
    if re.search(r"[\u3041-\u3096]$", stripped):  # a predicate ends in kana; a name or a noun phrase stays as it is
        # A Japanese sentence the model ended without its 。 (the last of its paragraph) gets one after the mark:
        # moved before another, 「…適しているといわれる [S1]町割りは、…」 ran into it (the real 1.5B model's Summary
        # with its supported sentences first; JSQuAD, `research bench jsquad --sample 5 --seed 122`).
        return stripped + mark + "。"
    return stripped + " " + mark


def _citation_runs(text: str) -> list[tuple[int, int, list[str]]]:
    """Runs of adjacent citation groups (only spaces between them), as (start, end, labels)."""
    runs: list[tuple[int, int, list[str]]] = []
    for match in CITATION_GROUP.finditer(text):
        labels = citation_labels(match.group(0))
        if runs and not text[runs[-1][1]:match.start()].strip(" \t"):
            start, _, earlier = runs[-1]
            runs[-1] = (start, match.end(), earlier + labels)
        else:
            runs.append((match.start(), match.end(), labels))
    return runs


def _one_label_once(text: str) -> str:
    """"[S2] [S2]" → "[S2]": a label repeated within one run of citations is said once."""
    for start, end, labels in reversed(_citation_runs(text)):
        unique = list(dict.fromkeys(labels))
        if unique != labels:
            text = text[:start] + "".join(f"[{label}]" for label in unique) + text[end:]
    return text


def _citations_inside(text: str) -> str:
    """"… tall. [S1]" → "… tall [S1].": a sentence's citations stand before its full stop, so
    the next sentence does not seem to open with them."""
    text = text.rstrip()
    runs = _citation_runs(text)
    if not runs or runs[-1][1] != len(text):
        return text
    start, _, labels = runs[-1]
    before = text[:start].rstrip(" \t")
    if before and re.search(r"[\u3041-\u3096]$", before):
        # A Japanese sentence the model ended without its 。 gets one, as ``_mark_inside`` gives it.
        return before + "".join(f"[{label}]" for label in labels) + "。"
    if not before or before[-1] not in "。．！？.!?":
        return text
    stop, body = before[-1], before[:-1]
    cited = "".join(f"[{label}]" for label in labels)
    return f"{body}{cited}{stop}" if stop in "。．！？" else f"{body} {cited}{stop}"


def keep_valid_labels(text: str, valid: set[str]) -> str:
    """``text`` with labels that point at no source removed, and each label once per group of
    adjacent citations ("[S2] [S2]" → "[S2]"); groups joined by a word lose the word with a
    label ("[S1] and [S9]" → "[S1]")."""
    def rewrite(match: re.Match[str]) -> str:
        labels = citation_labels(match.group(0))
        kept = [label for label in labels if label in valid]
        if kept == labels:
            return match.group(0)
        return "".join(f"[{label}]" for label in kept)

    def unjoin(match: re.Match[str]) -> str:
        groups = [group.group(0) for group in CITATION_GROUP.finditer(match.group(0))]
        if all(label in valid for group in groups for label in citation_labels(group)):
            return match.group(0)
        return "".join(groups)  # adjacent now: ``rewrite`` keeps the valid labels, once each

    # (Qwen2.5-Coder-1.5B, with one source read, cited "[S1] and [S2]": "[S1] and, which state".)
    cleaned = _one_label_once(CITATION_GROUP.sub(rewrite, JOINED_CITATIONS.sub(unjoin, text)))
    if cleaned == text:
        return text
    cleaned = re.sub(r"(?<=\S)[ \t]{2,}", " ", cleaned)
    return re.sub(r"(?<=\S)[ \t]+(?=[.,;:!?。、！？])", "", cleaned)


# A title that names a document, not a thing of the world: 「富士山の火山防災資料」, 「富士登山の案内」,
# "Mount Fuji travel guide". A sentence with such a title as its subject speaks of the page.
_DOCUMENT_TITLE = re.compile(r"(?:資料|案内|ガイド|ページ|記事|まとめ|一覧|概要|解説|パンフレット|レポート|報告書|ホームページ)$"
                             r"|\b(?:guide|page|article|brochure|overview|handbook|leaflet|faq)$", re.IGNORECASE)
_SUBJECT_MARK = re.compile(r"(?:は|では|には|とは|によると|によれば|\s+(?:is|are|says|describes|covers|explains)\b)")


def _document_titles(titles: Iterable[str]) -> tuple[str, ...]:
    """The titles (and their parts before a site name) that name a document, normalised."""
    return _document_titles_of(tuple(titles))


@lru_cache(maxsize=16)
def _document_titles_of(titles: tuple[str, ...]) -> tuple[str, ...]:
    # Asked once for every sentence of a draft, with the same ledger's titles each time.
    found = []
    for title in titles:
        for part in {title, *re.split(r"\s[|｜\-–—]\s", title)}:
            key = _norm(part)
            if len(key) >= 4 and _DOCUMENT_TITLE.search(key):
                found.append(key)
    return tuple(found)


def _speaks_of_a_document(plain: str, titles: Iterable[str]) -> bool:
    """「富士山の火山防災資料は…についてまとめたものです」: the subject is a page's title that names a
    document (the real model wrote this as a finding)."""
    key = _norm(plain)
    return any(key.startswith(title) and _SUBJECT_MARK.match(key, len(title)) for title in _document_titles(titles))


def _is_title(plain: str, titles: Iterable[str]) -> bool:
    """A page's title written as a sentence, whole or its part before a site name."""
    key = _norm(plain)
    if not key:
        return False
    for title in titles:
        whole = _norm(title)
        if not whole:
            continue
        parts = {whole, *(_norm(p) for p in re.split(r"\s[|｜\-–—]\s", title))}
        if key in parts:
            return True
    return False


# What leaves the answer even when the verifier took it as a claim: it may be true, but it is
# not a statement about the question's world (a title, our own prompt, a slot, a question, a
# sentence about the page).
_NEVER_IN_THE_ANSWER = frozenset({"title", "prompt_text", "placeholder", "question", "about_the_source", "lead_in",
                                  "addresses_reader", "keyword_list"})
# What the verifier does not even check: it came from us, names a page, or is only references
# ("[Source 11f373d9][S1]": Qwen2.5-Coder-1.5B wrote made-up source ids as a whole sentence).
NOT_CHECKED_AS_CLAIMS = frozenset({"title", "prompt_text", "placeholder", "citation_only"})
_ONLY_REFERENCES = re.compile(r"\s*(?:[\[［【][^\[\]［］【】\n]{1,60}[\]］】][\s.,;。、]*)+")


# Japanese nouns and nothing else, joined by と, や, の, ・ or 、 at most: no predicate, no topic, no figure.
_NOUN_RUN_JA = r"[\u3400-\u4dbf\u4e00-\u9fff\u30a1-\u30fa\u30fc々〆ヶA-Za-z・]+"
_NOUNS_ONLY_JA = re.compile(rf"^(?=.*[\u3400-\u4dbf\u4e00-\u9fff\u30a1-\u30fa])"
                            rf"{_NOUN_RUN_JA}(?:\s*(?:と|や|の|および|及び|、)\s*{_NOUN_RUN_JA})*[。.]?$")


def _names_only_what_was_asked(plain: str, topic: Topic | None) -> bool:
    """A Japanese sentence of nouns alone, every one of them the question's (or a sub-question's):
    it says nothing the question did not. 「政治と経済」, the real 1.5B model's list item under its
    lead-in 「…強い影響を受けた国は以下の通りです。」 (JSQuAD v1.3 valid a4596p48q0, 「政治や経済において
    ポルトガルが、強い影響を受けて来た国は？」): the lead-in gone, it led the Summary as "supported". A
    noun the question does not name (「ビエンチャン」 under 「ラオスの首都は？」) may be the answer, and stays."""
    if topic is None or not _NOUNS_ONLY_JA.match(plain.strip().strip("*_ ")):
        return False
    named = _content_terms(plain)
    return bool(named) and named <= topic.terms | topic.subject


def _lists_a_source(plain: str, titles: Iterable[str]) -> bool:
    """A line of the model's own list of sources: an address, alone or after a page's title
    (「日本共産党 — file:///…/jsquad-007-044.md」 under 「出典は以下の通りです：」, the real 1.5B model
    with local pages). The report lists the sources read; this only repeats them. Several such
    lines run together as one paragraph are one list: 「PubMed 24519615 — file:///…/pubmedqa-24519615.md
    [S1] PubMed 25218577 — file:///… [S3] …」 (PubMedQA 24519615, the same model, kept "(not checked)")."""
    if not ADDRESS_TOKEN.search(plain):
        return False
    rests = [rest.strip(" \t-–—:：|｜・,、()（）<>") for rest in ADDRESS_TOKEN.split(plain)]
    return all(not rest or _is_title(rest, titles) for rest in rests)


def not_a_claim_reason(plain: str, text: str, titles: Iterable[str], program: ProgramText) -> str | None:
    """Why a sentence of the body is not a claim to show (None: it may be one)."""
    if _is_title(plain, titles) or _lists_a_source(plain, titles):
        return "title"
    if program.contains(plain):
        return "prompt_text"
    if PLACEHOLDER.search(plain):
        return "placeholder"
    if _ONLY_REFERENCES.fullmatch(plain):
        return "citation_only"
    letters = re.findall(r"[A-Za-z\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff]", plain)
    if len(letters) < 3:
        return "citation_only" if citation_labels(text) else "fragment"
    stripped = plain.rstrip().rstrip("*_ ")
    if stripped.endswith(("?", "？")) or _QUESTION_JA.search(stripped):
        return "question"
    if is_filler(plain) and not _SAYS_MISSING.search(plain):
        return "filler"
    sentence = stripped.lstrip("*_ ")
    if _ABOUT_THE_SOURCE.search(sentence) or _WHERE_TO_READ.search(sentence) or _CROSS_REFERENCE.match(sentence) \
            or _speaks_of_a_document(sentence, titles):
        return "about_the_source"
    if addresses_reader(plain):  # a request, promotion or link a page planted is the page speaking, cited or not
        return "addresses_reader"
    if stripped.endswith((":", "：")) and not citation_labels(text) or _LEAD_IN.search(stripped):
        return "lead_in"
    if _KEYWORD_LIST.match(sentence.rstrip(".。")):
        # A page's keywords copied as a line: «Clinical Competence; Dentists; Health Knowledge, Attitudes, Practice;
        # Humans; …», the MeSH terms of PubMedQA 9446993 under the real 1.5B model's "## MeSH Terms" (`--seed 113`).
        return "keyword_list"
    return None


# Four or more short items apart by semicolons and nothing else: a list of keywords, which says nothing.
_KEYWORD_LIST = re.compile(r"^[^;.!?。；]{1,60}(?:[;；]\s*[^;.!?。；]{1,60}){3,}$")


@dataclass
class _Edits:
    """What assembling does to the draft's body, sentence by sentence (each by its start)."""

    draft: str
    sentences: list[tuple[int, int, str]]  # (start, end, section) of each sentence of the body
    by_start: dict[int, tuple[Claim, ClaimVerdict]]  # the claim a sentence is, and its verdict
    replacement: dict[int, str] = field(default_factory=dict)  # its new text ("" removes it)
    status: dict[int, str] = field(default_factory=dict)  # supported | not_checked (kept sentences only)
    removed: dict[str, int] = field(default_factory=dict)  # reason -> count
    answered: set[str] = field(default_factory=set)  # sections (heading keys) whose question is answered elsewhere

    @property
    def summary_section(self) -> str:
        return self.sentences[0][2] if self.sentences else ""

    def summary(self) -> list[int]:
        return [s for s, _, section in self.sentences if section == self.summary_section]

    def section_of(self, start: int) -> str:
        return next(section for s, _, section in self.sentences if s == start)

    def drop(self, start: int, reason: str, verdict: ClaimVerdict | None = None) -> None:
        self.replacement[start] = ""
        self.removed[reason] = self.removed.get(reason, 0) + 1
        if verdict is not None:
            verdict.removed = True
            verdict.removed_reason = reason


def assemble_answer(
    draft: str,
    claims: list[Claim],
    verdicts: list[ClaimVerdict],
    *,
    valid: set[str],
    language: Language,
    titles: Iterable[str],
    program: ProgramText,
    topic: Topic | None = None,
    sub_questions: list[str] | None = None,
    question: str = "",
    wrong_language: frozenset[str] = frozenset(),
    on_the_question: Callable[[str], SourceSentence | None] | None = None,
    page_sentence_before: Callable[[str, str, bool], str | None] | None = None,
) -> Assembly:
    """The answer a person reads: ``draft`` with only what the verdicts let stand (see the
    module docstring). Sets ``removed``/``removed_reason`` on the verdicts it takes out.
    ``on_the_question``: finds the sentence of the sources that names most of what a question
    names, quoted where no sentence of the draft could lead the Summary, or answer a sub-question
    whose section was emptied (asked only then: it reads every sentence of every source). ``page_sentence_before``: the sentence before a source's sentence on its
    page (label, sentence), quoted before a kept sentence that points at one taken out."""
    titles = list(titles)
    by_start = {claim.start: (claim, verdict) for claim, verdict in zip(claims, verdicts)}
    edits = _Edits(draft, body_sentences(draft), by_start)
    if not edits.sentences and on_the_question is not None and (quoted := on_the_question(question)) is not None:
        # The model wrote nothing, asked twice (nodes/llm.py): not an empty report, but the sources'
        # own words on the question under the Summary's heading.
        heading = REPORT_LABELS[language]["summary"]  # the heading the draft prompt asks it under too
        line = t("answer.nothing_drafted", language, evidence=_short_quote(quoted.text), label=quoted.label)
        return Assembly(answer=f"## {heading}\n\n{line}\n")
    _keep_what_the_verdicts_let_stand(edits, valid=valid, language=language, titles=titles, program=program, question=question,
                                      topic=topic, wrong_language=wrong_language,
                                      page_sentence_before=page_sentence_before)
    # Before the Summary's kept sentences are read: a yes that only says the question back leaves.
    _drop_answer_words_without_an_answer_under_them(edits, question, language)
    _drop_answer_words_the_sentence_denies(edits, question, language)
    _drop_undecided_opposites(edits, language)
    summary = edits.summary()
    kept_summary = [s for s in summary if edits.replacement.get(s)]
    lifted = nothing_checked_leads = False
    yes_no = is_yes_no(question, language)
    if summary and not kept_summary:
        kept_summary, lifted = _fill_the_empty_summary(edits, question)
    elif kept_summary and (edits.status.get(kept_summary[0]) == "not_checked"
                           or _says_nothing_found(edits, kept_summary[0])
                           or opens_pointing_back(plain_text(edits.replacement[kept_summary[0]]))
                           or question.strip() and not _names_enough_of(
                               question, strip_citations(edits.replacement[kept_summary[0]]))):
        summary_supported = any(edits.status.get(s) == "supported" for s in kept_summary)
        lifted = _lead_with_a_supported_sentence(edits, kept_summary, language, question)
        # No checked sentence of the Summary and no finding on the question to lead it: what the
        # sources checked is on other things, and the Summary is as if nothing were checked.
        nothing_checked_leads = not lifted and not summary_supported
    nothing_on_the_question = bool(kept_summary) and (not _any_supported(edits) or nothing_checked_leads)

    # The headline of a yes/no question is checked hardest (issue 44): a yes or a no stands
    # only on a supported sentence, and a headline the sources contradict is said, with them.
    against = _contradicted_headline(edits.sentences, edits.by_start, edits.summary_section, question) \
        if yes_no and summary else None
    undecided_lead: int | None = None
    beside_lead: tuple[int, str] | None = None
    leading_quote = ""  # the sources' sentence the Summary now opens with, where it does
    if against is not None:
        first = summary[0]
        edits.replacement[first] = _said_with_the_sources(against, edits.replacement.get(first, ""), language)
        edits.status[first] = edits.status.get(first) or "supported"
        # The sources' words now lead the Summary, and answer what they answer: "Was Python 3.13
        # released with a stable free-threaded build?" is answered by «Python 3.13, released in
        # October 2024, ships an experimental free-threaded build.» (the real 1.5B model at 795c835
        # said its sources did not answer it).
        kept_summary = [first] + [s for s in kept_summary if s != first]
        _drop_what_the_quote_says(edits, kept_summary, first, _short_quote(against.evidence))
    elif summary and not kept_summary and on_the_question is not None \
            and (quoted := on_the_question(question)) is not None:
        # Nothing of the draft could be checked (a draft in the other language than its sources,
        # a judge that decides nothing): the sources' own words on the question, not a bare
        # "they do not answer" (the real 1.5B model's Japanese GIL answer, issue 44).
        first = summary[0]
        edits.replacement[first] = t("answer.sources_say_of_it", language,
                                     evidence=_short_quote(quoted.text), label=quoted.label)
        edits.status[first] = "supported"
        kept_summary = [first]
    elif nothing_on_the_question and on_the_question is not None and (quoted := on_the_question(question)) is not None:
        # The Summary kept only sentences the checks could not decide, and nothing checked can
        # lead it: the sources' own words on the question come first, the draft's sentences
        # after them, still marked. PubMedQA 15687156 with the real 1.5B model: "Normal knee
        # kinematics can be restored with unicompartmental knee replacement (not checked)" was
        # the whole answer to a yes/no question, its "Yes," taken out but its yes still said.
        first = kept_summary[0]
        joiner = " " if language == "en" else ""
        lead = t("answer.sources_say_of_it", language, evidence=_short_quote(quoted.text), label=quoted.label)
        _drop_undecided_values_the_quote_gives_otherwise(edits, kept_summary, question, quoted.text)
        _drop_unchecked_the_quote_rests_on(edits, kept_summary, _short_quote(quoted.text))  # before the lead joins it
        edits.replacement[first] = lead + (joiner + edits.replacement[first] if edits.replacement.get(first) else "")
    elif nothing_on_the_question and question:
        # Nothing checked, and no sentence of the sources names what the question asks: the
        # undecided sentences stay, marked, after a line that says so (below, once a connective
        # left opening the Summary is gone). PubMedQA 25274085 with the real 1.5B model: "Multiple
        # SNP testing … can be used to improve risk prediction models … (not checked)" stood alone
        # as the answer, its "Yes," taken out and its yes still said.
        undecided_lead = kept_summary[0]
    elif kept_summary and edits.status.get(kept_summary[0]) == "supported" \
            and asks_for_a_name_or_value(question, language) and not yes_no \
            and _beside_the_figure_asked(question, _first_sentence(plain_text(edits.replacement[kept_summary[0]]))) \
            and all(_beside_the_figure_asked(question, later)
                    for later in _checked_sentences_after_the_lead(edits, kept_summary)):
        # The question asks of a figure (「2008年の経済成長は何%か」) and the checked sentence leading the
        # Summary neither gives it nor names what was asked: 「…経済危機を受けて、さらなる財政の緊縮が求められ
        # ている」 led the real 1.5B model's answer as if it answered (JSQuAD v1.3 valid a1468p31q4,
        # `research bench jsquad --seed 87`). It stays, after a line that says the question is not answered; not where a
        # checked sentence after it gives the figure and names the rest (JSQuAD v1.3 valid a111914p6q0, `--seed 126`:
        # «…『熱ラジ!』が2局同時生放送された» second, and quoted again before the lead).
        first = kept_summary[0]
        quoted = on_the_question(question) if on_the_question is not None else None
        leading_quote = quoted.text if quoted is not None else ""
        beside_lead = _the_sources_beside(first, quoted, language) if quoted is not None \
            else (first, t("answer.beside_the_question", language) + (" " if language == "en" else ""))
    elif kept_summary and edits.status.get(kept_summary[0]) == "supported" and on_the_question is not None \
            and (asks_for_a_name_or_value(question, language) or _asks_what_the_noun_is(question)
                 or _named_of(question, _first_sentence(plain_text(edits.replacement[kept_summary[0]]))) == 0) \
            and not yes_no \
            and _names_little_of(question, lead_said := _first_sentence(plain_text(edits.replacement[kept_summary[0]]))) \
            and (quoted := on_the_question(question)) is not None \
            and _named_of(question, quoted.text) >= _named_of(question, lead_said) + 2 \
            and _norm(strip_citations(lead_said)).rstrip("。.") not in _norm(quoted.text) \
            and not _a_checked_sentence_after_names_as_much(edits, kept_summary, question, quoted.text):
        # The question asks for a name, the checked sentence leading the Summary names little of it, and a sentence
        # of the sources names far more: 「ヨーロッパの交通の要衝にあたっており、…近代化されている」 (the Netherlands
        # page's, naming no country) led the real 1.5B model's answer to 「風車で有名なヨーロッパの国は。」 (JSQuAD v1.3
        # valid, `research bench jsquad --sample 5 --seed 125`). The sources' sentence comes first, the lead after it.
        leading_quote = quoted.text
        beside_lead = _the_sources_beside(kept_summary[0], quoted, language)
    elif kept_summary and edits.status.get(kept_summary[0]) == "supported" and on_the_question is not None \
            and not yes_no and asks_for_a_name_or_value(question, language) \
            and _restates(question, lead_said := _first_sentence(plain_text(edits.replacement[kept_summary[0]]))) \
            and not _figures(lead_said) - _figures(question) \
            and (quoted := on_the_question(question)) is not None and not _restates(question, quoted.text) \
            and _named_of(question, quoted.text) >= _named_of(question, lead_said) \
            and not _a_checked_sentence_after_names_as_much(edits, kept_summary, question, quoted.text):
        # The question asks for a name or words, and the checked sentence leading the Summary says only the question
        # back: 「日本共産党は、マスメディアに対して反発していた」 led the real 1.5B model's answer to 「日本共産党は、マスメディア
        # に対して、なんと反発していたか？」 (JSQuAD v1.3 valid, `research bench jsquad --sample 5 --seed 144`), the page's
        # «…日本共産党は「新聞は権力の手先」と反発していた。» unsaid. The sources' sentence comes first, the lead after it.
        leading_quote = quoted.text
        beside_lead = _the_sources_beside(kept_summary[0], quoted, language)
    elif kept_summary and edits.status.get(kept_summary[0]) == "supported" and on_the_question is not None \
            and not yes_no and not any(values_of_the_kind_asked(question, plain_text(edits.replacement.get(s, "")))
                                       for s in kept_summary) \
            and (quoted := on_the_question(question)) is not None and values_of_the_kind_asked(question, quoted.text) \
            and _named_of(question, quoted.text) > _named_of(
                question, lead_said := _first_sentence(plain_text(edits.replacement[kept_summary[0]]))) \
            and not _a_checked_sentence_after_names_as_much(edits, kept_summary, question, quoted.text):
        # The question asks for a value of a kind (何%), the Summary gives none, and a sentence of the sources naming
        # more of what was asked gives one: 「2002年時点では、日本への輸出が1.7億ドル」 led the real 1.5B model's answer to
        # 「ポルトガルの自動車輸出の割合は全体の何%？」 (JSQuAD v1.3 valid, `research bench jsquad --sample 5 --seed 144`),
        # the page's «おもな輸出品目は、自動車 （16%）、…» unsaid. The sources' sentence comes first, the lead after it.
        leading_quote = quoted.text
        beside_lead = _the_sources_beside(kept_summary[0], quoted, language)
    elif kept_summary and not yes_no and on_the_question is not None \
            and any(values_of_the_kind_asked(question, plain_text(edits.replacement.get(s, ""))) for s in kept_summary) \
            and (quoted := on_the_question(question)) is not None \
            and values_of_the_kind_asked(question, quoted.text):
        # The question asks for a value of a kind (何年: a year), the Summary gives one, and a sentence of the sources
        # naming what was asked gives one too. An undecided sentence giving only another leaves; a lead giving
        # another without naming what was asked follows the sources' sentence. JSQuAD v1.3 valid a14985p36q1 (`research
        # bench jsquad --sample 5 --seed 132`, the real 1.5B model): 「スターリン批判は何年に起こったか？」 was answered
        # with S3's «1950年1月6日、…スターリンが指導するコミンフォルムは、…批判した» (checked, another event) and
        # 「スターリン批判は1950年1月6日に起こった（未確認）」, S1 reading «…1956年のスターリン批判を経て…».
        if any(edits.status.get(s) == "supported" for s in kept_summary):  # never an emptied Summary
            _drop_undecided_values_the_quote_gives_otherwise(edits, kept_summary, question, quoted.text)
        still_first = next((s for s in kept_summary if edits.replacement.get(s)), None)
        lead_said = _first_sentence(plain_text(edits.replacement[still_first])) if still_first is not None else ""
        if still_first is not None and values_of_the_kind_asked(question, lead_said) \
                and not values_of_the_kind_asked(question, lead_said) & values_of_the_kind_asked(question, quoted.text) \
                and names_what_is_asked(question, quoted.text) and not names_what_is_asked(question, lead_said):
            leading_quote = quoted.text
            beside_lead = _the_sources_beside(still_first, quoted, language)

    if leading_quote:
        _drop_unchecked_the_quote_rests_on(edits, kept_summary, _short_quote(leading_quote))
    _drop_connectives_left_opening(edits)
    if beside_lead is not None:
        edits.replacement[beside_lead[0]] = beside_lead[1] + edits.replacement[beside_lead[0]]
    if undecided_lead is not None:
        joiner = " " if language == "en" else ""
        edits.replacement[undecided_lead] = t("answer.undecided_follows", language) + joiner \
            + edits.replacement[undecided_lead]
    out = _applied(edits)
    _note_sub_questions_the_summary_answers(edits, kept_summary, question, sub_questions or [])
    unanswered = [q for q in sub_questions or [] if _heading_key(q) not in edits.answered]
    out, not_given = _tidy_sections(out, language, unanswered, summary_empty=bool(summary) and not kept_summary,
                                    document_titles=_document_titles(titles), on_a_question=on_the_question)
    out = _without_a_quote_said_again(out)
    if edits.sentences and not edits.summary_section:
        # A draft with no heading over its first sentences (the real 1.5B model's whole answer to
        # PubMedQA 10411439 was one uncited line) gets the Summary's heading, as the draft prompt
        # asks: over what of them stands, or over the line that says none does. Left empty, the
        # report showed the unchecked draft.
        heading = REPORT_LABELS[language]["summary"]
        if summary and not kept_summary:
            out = f"## {heading}\n\n{t('answer.no_direct_answer', language)}\n" + (f"\n{out}" if out.strip() else "")
        elif out.strip() and not out.lstrip().startswith("#"):
            out = f"## {heading}\n\n{out}"
    return Assembly(answer=out, removed=edits.removed, not_given=not_given, lifted=lifted)


_QUOTED = re.compile(r"«([^»]+)»")


def _without_a_quote_said_again(text: str) -> str:
    """A paragraph that quotes a source's sentence and then says it again as a sentence of its own loses the second:
    the real 1.5B model's GIL answer (2026-12-02) read «The standard build of Python 3.14 still has the GIL enabled by
    default.» [S1]; the draft said otherwise …, and then "The standard build of Python 3.14 still has the GIL enabled
    by default [S1].", a finding under a sub-question that was the question again, joined to the Summary after the
    lead was written (``_drop_what_the_quote_says`` reads the Summary's own sentences only)."""
    lines = text.split("\n")
    for at, line in enumerate(lines):
        quotes = {_norm(quote) for quote in _QUOTED.findall(line)}
        if not quotes:
            continue
        spans = [(start, end) for start, end in sentence_spans(line)
                 if "«" not in line[start:end] and "»" not in line[start:end]
                 and _norm(strip_citations(line[start:end])) in quotes]
        for start, end in reversed(spans):
            before, after = line[:start].rstrip(), line[end:].lstrip()
            line = before + (" " if before and after and before[-1] not in "。！？」）" else "") + after
        lines[at] = line.rstrip()
    return "\n".join(lines)


def _keep_what_the_verdicts_let_stand(edits: _Edits, *, valid: set[str], language: Language, titles: list[str], question: str,
                                      program: ProgramText, topic: Topic | None, wrong_language: frozenset[str],
                                      page_sentence_before: Callable[[str, str, bool], str | None] | None = None) -> None:
    """Each sentence of the body kept (with its citations and marks) or dropped with its reason."""
    draft, summary_section = edits.draft, edits.summary_section
    seen: set[str] = set()
    said: dict[str, list[set[str]]] = {}  # section -> the terms and figures of each sentence kept there
    kept_at: dict[str, list[int]] = {}  # section -> where each of those sentences starts (said's order)
    quoted: dict[str, set[str]] = {}  # a passage sentence a kept supported claim rests on -> the terms said of it
    for start, end, _section in edits.sentences:
        text = draft[start:end]
        pair = edits.by_start.get(start)
        claim, verdict = pair if pair else (None, None)
        plain = claim.plain if claim else plain_text(text)
        reason = not_a_claim_reason(plain, text, titles, program)
        if reason is None and _names_only_what_was_asked(plain, topic):
            reason = "no_statement"
        if reason is not None and (claim is None or reason in _NEVER_IN_THE_ANSWER | {"no_statement"}):
            # (A lead-in the verifier took as a claim goes too: it announces, it does not say.)
            edits.drop(start, REMOVED_NOT_A_CLAIM, verdict)
            continue
        if claim is None or verdict is None:
            # Not a claim, and not noise either: a plain "the sources do not say…" is kept.
            if _SAYS_MISSING.search(plain):
                key = _norm(plain)
                if key in seen:
                    edits.drop(start, REMOVED_DUPLICATE)
                    continue
                seen.add(key)
                edits.replacement[start] = keep_valid_labels(text, valid)
                edits.status[start] = "supported"
            else:
                edits.drop(start, REMOVED_NOT_A_CLAIM)
            continue
        # A repeat is a repeat with its yes or no too: "- Yes, the PubMed 11500608 study found that …" under
        # "## Sub-Questions" was the Summary's sentence again (`research bench pubmedqa --sample 4 --seed 125`).
        repeated = _without_answer_word(plain)
        key = _norm(repeated)
        content = _content_terms(repeated) | _figures(repeated)
        if _replaces_unchecked_copies(edits, start, text, claim, verdict, content, _section, said, kept_at,
                                      lambda: _decide(claim, verdict, topic, wrong_language,
                                                      in_summary=_section == summary_section) is None,
                                      valid, language, _content_terms(question) | _figures(question)):
            edits.answered.add(_heading_key(_section))
            continue
        if key in seen or any(content <= earlier for earlier in said.get(_section, [])) \
                or (_section != summary_section and content and any(content <= earlier for kept in said.values()
                                                                    for earlier in kept)) \
                or (topic is not None and _section != summary_section and topic.restated(plain, content, said)):
            # Said already, and kept: word for word anywhere, or in other words within its
            # section (whatever this copy's verdict: a judge may have skipped a repeat), or a
            # finding with no word or figure a kept sentence did not say (「宝永噴火は富士山の噴火の
            # 最後です」 under the Summary's 「富士山の最後の噴火は1707年の宝永噴火です」, the real
            # model), or its figures again in a finding that adds only words of the question. The
            # section's question is then answered elsewhere: never "not given".
            edits.drop(start, REMOVED_DUPLICATE, verdict)
            edits.answered.add(_heading_key(_section))
            continue
        decision = _decide(claim, verdict, topic, wrong_language, in_summary=_section == summary_section)
        if decision is None and topic is not None and _section != summary_section \
                and not topic.on_the_point(claim, said.get(summary_section, [])):
            decision = REMOVED_OFF_TOPIC  # of the question's subject, but not of what it asks
        if decision is not None:
            edits.drop(start, decision, verdict)
            continue
        if not verdict.checked and _adds_nothing_to_its_passage_sentence(plain, verdict.evidence, quoted):
            # Not checked, and of its passage sentence it says only what a supported sentence kept said of it: the
            # rest is what it changed. Under 「## 梅雨の特徴」 the real 1.5B model wrote the Summary's supported
            # 「中国では、梅が熟して黄色くなる時期の雨という意味の「（ファンメイユー）」…」 again with 「梅が熟して黄色くなる」
            # exchanged for 「雨が降る」 (JSQuAD v1.3 valid, `research bench jsquad --seed 97`).
            edits.drop(start, REMOVED_DUPLICATE, verdict)
            edits.answered.add(_heading_key(_section))
            continue
        if ((language == "ja" and leaves_its_subject_ja(plain)) or rests_on_the_sentence_before(plain)
                # Undecided, and pointing at the sentence before, which went: 「この結果は、日本共産党が批判的な立場をとっている
                # 法案の結果である（未確認）」 after 「日本共産党は、野党外交の結果として…」 (another topic), the real 1.5B
                # model's (JSQuAD v1.3 valid a14985p108q0, `research bench jsquad --sample 5 --seed 135`). A supported one
                # gets the page's sentence before it instead (below).
                or (not verdict.checked and (opens_pointing_back(plain)
                                             or (language == "ja" and points_back_within_ja(plain))))) \
                and _after_one_taken_out(edits, start):
            # A sentence that leaves its subject, its date or its pair to the one before it, which went: alone
            # it says nothing of anything, and after another it is read with that one's. 「主軸に対して45°または
            # 135°傾いた面となる。」 after the real 1.5B model's 「最大せん断応力τmaxは、主軸に対して…」 (not
            # checked, taken out) led its Summary as supported (JSQuAD v1.3 valid a20898p14q1, `research
            # bench jsquad --seed 85`); so did 「また同年、山本宣治は…刺殺された。」, the sentence that gave its
            # year (1929) taken out, and 「後者はリズムを奏でる。」 after 「打楽器には明確な音高を持つものと持たない
            # ものとがある。」 went as off the question (`--seed 92`). ("Its …" after a sentence taken out
            # stays: a pronoun speaks of the paragraph's subject, which the sentences kept still name.)
            edits.drop(start, REMOVED_NOT_A_CLAIM, verdict)
            continue
        seen.add(key)
        said.setdefault(_section, []).append(content)
        kept_at.setdefault(_section, []).append(start)
        edits.replacement[start], edits.status[start] = _kept_claim(text, claim, verdict, valid, language)
        if edits.status[start] == "supported" and verdict.evidence:
            quoted.setdefault(_norm(verdict.evidence), set()).update(content)
            unchecked_before = _kept_unchecked_before(edits, start)
            if language == "ja" and page_sentence_before is not None and verdict.evidence_label \
                    and (opens_pointing_back(plain) or points_back_within_ja(plain)) \
                    and (_after_one_taken_out(edits, start) or unchecked_before):
                # 「これは、…」 after the sentence it points at was taken out: the page's own sentence before it, quoted,
                # so that it points at something. The real 1.5B model's 「この革命的な道路は、日本共産党が1976年に…」 went
                # (not checked), and its supported 「これは、当時イタリア共産党など…ユーロ・コミュニズム路線に倣ったもの
                # であり…」 led the Summary alone (JSQuAD v1.3 valid, `research bench jsquad --seed 99`). So after one
                # not checked, which it would point at in its place: 「日本共産党の解散は、1991年8月31日に宮本顕治の発言が
                # 発表された（未確認）。その発言の翌日に、常任幹部会は…」, where the page's «…ソ連共産党の解散には、…という宮本
                # 顕治の発言が発表された» is what その発言 is (JSQuAD, `research bench jsquad --sample 5 --seed 118`). And
                # これ as its object: 「日本はこれに批准している。」 after 「日本は国際労働条約181号で、…求めている。」 went (`--seed 119`).
                # With nothing kept before it in its paragraph, it gets what it points at even two sentences up
                # («アイルランドの建築家協会は…。同法は…。» before 「同グループは…」, JSQuAD `--seed 125`); after a kept
                # sentence, the page's one sentence before it.
                alone = not any(edits.replacement.get(s) for s, _, section in edits.sentences
                                if s < start and section == _section and "\n\n" not in draft[s:start])
                before = page_sentence_before(verdict.evidence_label, _sentence_said(verdict.evidence, plain), alone)
                if before:
                    if unchecked_before is not None:
                        edits.drop(unchecked_before, REMOVED_UNCHECKED, edits.by_start[unchecked_before][1])
                    edits.replacement[start] = f"«{before}»[{verdict.evidence_label}]{edits.replacement[start]}"


def _replaces_unchecked_copies(edits: _Edits, start: int, text: str, claim: Claim, verdict: ClaimVerdict, content: set[str],
                               section: str, said: dict[str, list[set[str]]], kept_at: dict[str, list[int]],
                               kept_as_checked: Callable[[], bool], valid: set[str], language: Language,
                               asked: set[str]) -> bool:
    """A checked sentence that says again what sentences kept before it say, each of them not checked,
    takes the first one's place (and the others go as its repeats): True when it moved. The copy the
    checks could decide would otherwise go as the repeat of one they could not. The real 1.5B model's
    Summary 「…乗り出したのは1863年です」 (not checked) stood and its sections' 「1863年、…乗り出した。」
    (supported) went as its repeats, so the answer opened "no sentence of the draft could be checked"
    (JSQuAD v1.3 valid, `research bench jsquad --sample 5 --seed 122`). Only where the copies say
    nothing more than it but the question's words (``asked``): 「RKBラジオは、時報音が…出るラジオ局です」 (not
    checked) names the station asked for, which the supported «時報音は…» does not. Nor a line read with
    its heading (「明治時代以降。」 under 「…輸入されたのはいつ以降？」): alone in another place it says nothing.
    ``kept_as_checked``: whether this sentence would be kept, checked (asked only when it repeats copies
    not checked)."""
    if not verdict.checked or not content or verdict.checked_as:
        return False
    covering = sorted(kept_at[name][position] for name, contents in said.items()
                      for position, earlier in enumerate(contents)
                      if content <= earlier and earlier - content <= asked
                      and (name == section or section != edits.summary_section))
    if not covering or any(edits.status.get(earlier) != "not_checked" for earlier in covering) \
            or not kept_as_checked():
        return False
    first, *others = covering
    text, status = _kept_claim(text, claim, verdict, valid, language)
    replaced = edits.by_start[first][1]
    replaced.removed, replaced.removed_reason = True, REMOVED_DUPLICATE
    edits.removed[REMOVED_DUPLICATE] = edits.removed.get(REMOVED_DUPLICATE, 0) + 1
    edits.replacement[first], edits.status[first] = text, status
    edits.replacement[start] = ""  # moved, not removed: its verdict stays in the answer
    for other in others:
        edits.drop(other, REMOVED_DUPLICATE, edits.by_start[other][1])
        edits.status.pop(other, None)
    return True


def _sentence_said(evidence: str, plain: str) -> str:
    """The sentence of ``evidence`` that shares most terms with ``plain``."""
    spans = [evidence[start:end].strip() for start, end in sentence_spans(evidence)] or [evidence]
    own = _content_terms(plain)
    return max(spans, key=lambda sentence: len(own & _content_terms(sentence)))


def _adds_nothing_to_its_passage_sentence(plain: str, evidence: str, quoted: dict[str, set[str]]) -> bool:
    """Whether ``plain`` is that passage sentence reworded (most of its terms are the sentence's) and every
    term it shares with it was said of it already by a supported sentence kept (``quoted``)."""
    said = quoted.get(_norm(evidence)) if evidence else None
    if not said:
        return False
    own = _content_terms(plain)
    shared = own & _content_terms(evidence)
    return len(shared) >= _REWORDED_AT_LEAST and 3 * len(shared) >= 2 * len(own) and shared <= said


_REWORDED_AT_LEAST = 3  # terms a sentence shares with a passage sentence to be that sentence reworded


def _previous_in_paragraph(edits: _Edits, start: int) -> int | None:
    """The start of the sentence right before the one at ``start``, in its paragraph; None when it opens one."""
    before = [(s, e) for s, e, _ in edits.sentences if s < start]
    if not before:
        return None
    previous, end = before[-1]
    return previous if "\n\n" not in edits.draft[end:start] else None


def _kept_unchecked_before(edits: _Edits, start: int) -> int | None:
    """The sentence right before the one at ``start`` in its paragraph, where it was kept not checked."""
    previous = _previous_in_paragraph(edits, start)
    kept = previous is not None and bool(edits.replacement.get(previous)) \
        and edits.status.get(previous) == "not_checked" and previous in edits.by_start
    return previous if kept else None


def _after_one_taken_out(edits: _Edits, start: int) -> bool:
    """Whether the sentence right before the one at ``start``, in its paragraph, was taken out."""
    previous = _previous_in_paragraph(edits, start)
    return previous is not None and edits.replacement.get(previous) == ""


def _kept_claim(text: str, claim: Claim, verdict: ClaimVerdict, valid: set[str], language: Language) -> tuple[str, str]:
    """A kept claim's sentence, its citations inside it, and its status: a claim no judge
    decided carries the "not checked" mark; an uncited one the checks are sure of, that source's label."""
    new = _citations_inside(keep_valid_labels(text, valid))
    if not claim.citations and verdict.cited_by_check and not verdict.checked:
        for label in verdict.cited_by_check:
            new = _mark_inside(new, f"[{label}]")
    if not verdict.checked:
        return _mark_inside(new, t("verifier.flag_not_checked", language)), "not_checked"
    if not claim.citations and verdict.cited_by_check:
        for label in verdict.cited_by_check:
            new = _mark_inside(new, f"[{label}]")
    elif not claim.citations and verdict.evidence_label:
        new = _mark_inside(new, f"[{verdict.evidence_label}]")
    return new, "supported"


def _yes_no_heading(edits: _Edits, section: str, language: Language) -> str | None:
    """The heading of a finding's section where it is a yes/no question itself: what its
    sentences' yes or no answers (the Summary's answer the question asked)."""
    heading = _NUMBERING.sub("", section).strip()
    return heading if section != edits.summary_section and is_yes_no(heading, language) else None


# A section that answers the question as the Summary does: "## Conclusion" over the real 1.5B model's "Yes, substance
# use and HIV-related sexual behaviors … are related" (not checked), whose copy in the Summary went (PubMedQA 8017535,
# `research bench pubmedqa --seed 98`).
_CONCLUSION_HEADING = re.compile(r"^(?:[0-9０-９]{1,2}[.)．）]\s*)?(?:conclusions?|final answer|answer|verdict|結論|まとめ|回答|答え)"
                                 r"\s*[:：]?$", re.IGNORECASE)


def _drop_answer_words_without_an_answer_under_them(edits: _Edits, question: str, language: Language) -> None:
    """A yes or a no stands only on checked words that answer what was asked: it goes from a
    sentence no check decided, and from a supported one that says something else (see
    ``answers_another_question``). In the Summary of a yes/no question (and a section headed as its conclusion),
    and under a heading that is a yes/no question itself ("## 1. Are proton pump inhibitors associated with rebound
    symptoms?" over "Yes, …" that no check decided: the real 1.5B model on PubMedQA 11500608). Under any other
    heading, a yes no check decided still answers the yes/no question asked, and goes: "### Sub-questions" over
    "- Yes, the PubMed 21166749 study found that the impact of initial experience … was significant (not
    checked)" to "Is patient outcome compromised during the initial experience with robot-assisted radical
    cystectomy?" (gold no; `research bench pubmedqa --seed 103`)."""
    for s, _, section in edits.sentences:
        text = edits.replacement.get(s)
        if not text:
            continue
        asked = _yes_no_heading(edits, section, language) \
            or (question if section == edits.summary_section or _CONCLUSION_HEADING.match(section.strip()) else "")
        asked_yes_no = bool(asked) and is_yes_no(asked, language)
        checked = edits.status.get(s) == "supported"
        if asked_yes_no and not checked and _restates(asked, _without_answer_word(text)):
            # Nothing but the question said as its answer, and nothing checked it: with or without its yes it
            # says yes. "Yes, vaginal pH can be measured from the wet mount slide" to "Can vaginal pH be measured
            # from the wet mount slide?" (PubMedQA 19643525, gold no, the real 1.5B model) stood at the Summary's
            # end as "Vaginal pH can be measured from the wet mount slide (not checked)"; "There are studies and
            # reports that discuss the awareness of …" under "### 1. Are there any studies or reports that discuss
            # the awareness of …?" (`research bench pubmedqa --seed 104`).
            pair = edits.by_start.get(s)
            edits.drop(s, REMOVED_QUESTION_RESTATED, pair[1] if pair is not None else None)
            continue
        if answer_word(plain_text(text)) is None:
            continue
        if not asked_yes_no:
            if is_yes_no(question, language) and (not checked or answers_another_question(question, plain_text(text),
                                                                                         language)):
                # Checked, it still answers the question asked only where its words do: "- Yes, the PubMed 11500608
                # study found that the mean symptom scores during the placebo period … (not significant)" under
                # "## Sub-Questions" kept its yes to "Does short-term treatment with proton pump inhibitors cause
                # rebound aggravation of symptoms?" (gold no; `research bench pubmedqa --sample 4 --seed 125`).
                edits.replacement[s] = _without_answer_word(text)
            continue
        if not checked or answers_another_question(asked, plain_text(text), language):
            edits.replacement[s] = _without_answer_word(text)


def _drop_undecided_opposites(edits: _Edits, language: Language) -> None:
    """Two sentences of the draft that say one thing word for word but for one word, its opposite: the one no
    check decided leaves, and both where neither was decided. The real 1.5B model answered the planner's "benefits"
    and "risks" of predilatation with "Predilatation can reduce the risk of complications such as thrombosis and
    bleeding" and "…can increase the risk…", both "(not checked)", one under the other (PubMedQA 27491658,
    `research bench pubmedqa --sample 4 --seed 136`): whichever a reader believed, the answer had said it."""
    kept = [start for start, _, _ in edits.sentences if edits.replacement.get(start)]
    plain = {start: strip_citations(plain_text(edits.replacement[start])) for start in kept}
    leaving: set[int] = set()
    for i, first in enumerate(kept):
        for second in kept[i + 1:]:
            checked = [edits.status.get(start) == "supported" for start in (first, second)]
            if all(checked) or opposite_conflict(plain[first], plain[second], language) is None:
                continue
            leaving.update(start for start, is_checked in zip((first, second), checked) if not is_checked)
    for start in sorted(leaving):
        pair = edits.by_start.get(start)
        edits.drop(start, REMOVED_SAID_BOTH_WAYS, pair[1] if pair is not None else None)


def _the_sources_beside(lead: int, quoted: SourceSentence, language: Language) -> tuple[int, str]:
    """The line that goes before the Summary's lead at ``lead`` where the checked lead does not answer: no checked
    sentence answers, and what the sources' sentence ``quoted`` says of the question."""
    joiner = " " if language == "en" else ""
    return lead, t("answer.sources_say_of_it_beside", language, evidence=_short_quote(quoted.text),
                   label=quoted.label) + joiner


def _restates(question: str, sentence: str) -> bool:
    """Whether ``sentence`` says nothing the question does not name (its words in brackets aside:
    "the posterior longitudinal ligament (PLL) affects …" restates "Does ossification of the posterior
    longitudinal ligament affect …?")."""
    said = _content_terms(_BRACKETED_ASIDE.sub(" ", plain_text(sentence)))
    return bool(said) and said <= _content_terms(question)


def _drop_answer_words_the_sentence_denies(edits: _Edits, question: str, language: Language) -> None:
    """A yes or a no that the rest of its own sentence answers the other way goes, wherever the
    sentence stands: "Yes, the GIL is still enabled by default in Python 3.14 [S1]" under "Is the
    GIL gone in Python 3.14?" (Qwen2.5-Coder-1.5B, issue 44) is supported for its words, and its
    "Yes" says the opposite of them. The checked words stay and answer by themselves. A sentence
    answers its section's heading where that is a yes/no question, else the question asked."""
    for s, _, section in edits.sentences:
        text = edits.replacement.get(s)
        if not text:
            continue
        asked = _yes_no_heading(edits, section, language) or question
        if answers_the_other_way(asked, plain_text(text), language):
            edits.replacement[s] = _without_answer_word(text)


def _fill_the_empty_summary(edits: _Edits, question: str = "") -> tuple[list[int], bool]:
    """An empty Summary takes a supported sentence of a finding that names what the question
    asks about and every figure it gives (``_naming_the_question``; the first of a finding that
    keeps another comes first): the Summary's kept sentences then, and whether one was lifted.
    One that does not name them does not lead: 「第47回衆議院議員総選挙…でも「自共対決」と銘打ち活発に
    活動」 was the headline to 「第22回総選挙はいつ行われたか。」 (the real 1.5B model, JSQuAD v1.3
    valid a14985p17q1)."""
    summary_section = edits.summary_section
    by_section: dict[str, list[int]] = {}
    for s, _, section in edits.sentences:
        if section != summary_section and edits.status.get(s) == "supported" and edits.by_start.get(s):
            by_section.setdefault(section, []).append(s)
    # The first sentence of a finding with another comes first; then the first of any finding
    # (its section, left empty, then goes without a "not given" line: the Summary says it); then
    # the others. None that points back at a sentence before it: alone in front, 「これは、打楽器の
    # 音楽を特徴づけるための言葉です」 points at nothing (the real 1.5B model, JSQuAD a18783p6q0).
    order = [s for s in [starts[0] for starts in by_section.values() if len(starts) >= 2]
             + [starts[0] for starts in by_section.values() if len(starts) == 1]
             + [s for starts in by_section.values() for s in starts[1:]]
             if not opens_pointing_back(plain_text(edits.replacement.get(s) or edits.by_start[s][0].text))]
    # A question's figure is what it asks about: none that gives it leads (the sentence of the
    # sources that names it is quoted instead, ``on_the_question``).
    donor = _naming_the_question(edits, order, question, figures_needed=True)
    if donor is None:
        return [], False
    donor_section = edits.section_of(donor)
    if len(by_section[donor_section]) == 1:
        edits.answered.add(_heading_key(donor_section))
    first = edits.summary()[0]
    # Moved to the front, it follows no sentence: 「例えば、マルクス・レーニン主義を掲げる…」 opened the real
    # 1.5B model's Summary so (JSQuAD, `research bench jsquad --seed 92`).
    edits.replacement[first], edits.replacement[donor] = without_leading_connective(edits.replacement[donor]), ""
    edits.status[first] = "supported"
    return [first], True


def _naming_the_question(edits: _Edits, order: list[int], question: str, *, figures_needed: bool = False) -> int | None:
    """Of the sentences ``order`` lists (one that names all of it first), the first that names what ``question``
    asks about and every figure it gives (「第22回総選挙」 tells the 22nd from the 47th), else, unless
    ``figures_needed``, the first that names any of it; None when none does (the first one when
    the question names nothing)."""
    asked = _asked_terms(question) if question.strip() else set()
    figures = _figures(question)

    def text_of(start: int) -> str:
        return strip_citations(edits.replacement.get(start) or edits.by_start[start][0].plain)

    if not asked:
        return next(iter(order), None)
    # One that names all of it first, else the order given: to 「原始的な生物は好熱性を示すと分かった解析はなにか」
    # the real 1.5B model's 「1977年、カール・ウーズらによって…好熱菌や極限環境微生物の研究が進行した」 (生物, 好熱)
    # led before its 「16S rRNA系統解析によれば、共通祖先に近い原始的な生物は好熱性を示すものが多く見られることが
    # わかった」 (all four; JSQuAD v1.3 valid, `research bench jsquad --seed 97`).
    naming = sorted((s for s in order if _names_enough_of(question, text_of(s))),
                    key=lambda s: not asked <= _content_terms(text_of(s)))
    with_figures = [s for s in naming if figures <= _figures(text_of(s))]
    if figures and figures_needed:
        return next(iter(with_figures), None)
    return next(iter(with_figures or naming), None)


def _names_enough_of(question: str, sentence: str) -> bool:
    """Whether ``sentence`` names two of what ``question`` names (its terms and figures: "Python
    3.14" is two), or all of it where it names fewer. One word of a question that names several is
    another thing's: "Unicompartmental replacement is an alternative to tibial osteotomy in younger,
    active patients …" (another study's page; "knee" its one word of the question) became the
    headline of the real 1.5B model's answer to "Does patella position influence ligament balancing
    in total knee arthroplasty?" (PubMedQA 24519615, `research bench pubmedqa --seed 82`)."""
    asked, figures = _asked_terms(question), _figures(question)
    named = _named_of(question, sentence)
    return named >= min(2, len(asked) + len(figures)) and (named > 0 or not asked | figures)


def _named_of(question: str, sentence: str) -> int:
    """How many of the terms and figures ``question`` names ``sentence`` names. A hyphened term is named by
    one of its parts too: "rCBF-SPECT" of the question by "MP-SPECT showed a significant rCBF reduction"
    (PubMedQA, the real 1.5B model's Summary, read as naming nothing of it)."""
    said = _content_terms(sentence)
    said |= {part for term in said if "-" in term for part in term.split("-") if len(part) >= 2}
    named = sum(1 for term in _asked_terms(question)
                if term in said or "-" in term and any(part in said for part in term.split("-") if len(part) >= 2))
    return named + len(_figures(question) & _figures(sentence))


_LEADING_QUOTE = re.compile(r"^\s*«[^»]*»(?:\s*\[[^\]]*\])*")


# 「風車で有名なヨーロッパの国は。」, 「富士山の標高は？」: a noun and は ends the question, which asks what fills it; not a
# reason, a way or a make-up (「富士山が静かな理由は？」, 「日本の再生可能エネルギーの内訳は？」), which takes an explanation.
_EXPLAINED_NOUNS_JA = ("理由", "原因", "目的", "方法", "意味", "特徴", "違い", "影響", "仕組み", "背景", "効果", "役割", "歴史",
                       "内訳", "関係", "課題", "特色")


def _asks_what_the_noun_is(question: str) -> bool:
    found = NOUN_AND_WA_END_JA.search(question.strip())
    return found is not None and not found["noun"].endswith(_EXPLAINED_NOUNS_JA)


def _a_checked_sentence_after_names_as_much(edits: _Edits, kept_summary: list[int], question: str, quoted: str) -> bool:
    """Whether a supported sentence of the Summary after its lead names as much of ``question`` as the sources'
    sentence ``quoted``: the answer is there already. 「2016年3月28日、RKBラジオがFM補完中継局（ワイドFM）の本放送開始。
    このFM開局を記念し、…『熱ラジ!』が2局同時生放送された。」 got both sentences quoted again before it, after a line
    saying it did not answer (JSQuAD v1.3 valid a111914p6q0, `research bench jsquad --sample 5 --seed 126`)."""
    wanted = _named_of(question, quoted)
    return any(_named_of(question, later) >= wanted for later in _checked_sentences_after_the_lead(edits, kept_summary))


def _checked_sentences_after_the_lead(edits: _Edits, kept_summary: list[int]) -> list[str]:
    """The supported sentences of the Summary after its first: the rest of the lead's text (a lead a finding was lifted
    into holds several) and the first sentence of each supported sentence after it."""
    out: list[str] = []
    for at, s in enumerate(kept_summary):
        if edits.status.get(s) != "supported":
            continue
        text = plain_text(edits.replacement.get(s, ""))
        if at == 0:
            lead = _first_sentence(text)
            rest = text[text.find(lead) + len(lead):] if lead in text else ""
            out.extend(rest[start:end] for start, end in sentence_spans(rest))
        else:
            out.append(_first_sentence(text))
    # A lead a finding was lifted into holds the Summary's own sentence after it, marked where nothing decided it.
    unchecked = tuple(t("verifier.flag_not_checked", language) for language in ("en", "ja"))
    return [sentence for sentence in out if sentence.strip() and not any(mark in sentence for mark in unchecked)]


def _names_little_of(question: str, sentence: str) -> bool:
    """Whether ``sentence`` names at most half the terms of a question that names three or more: «…ピアソンは
    1957年にノーベル平和賞を受賞し「国連平和維持活動の父」と呼ばれる» names 平和, 維持 and 活動 of 「国際連合平和
    維持活動を日本では何と称されるか。」 and says nothing of what it is called (JSQuAD v1.3 valid a113522p0q1).
    The question's verbs count here, named where the sentence says them: 「修飾子は、文に追加情報を付け加えて文の
    意味を絞り込むことができます。」 names three of the six nouns of 「ウィキデータの文にさらに情報を付け加え文の意味を
    絞り込むために使用するものは何か。」 and answers it in its two verbs (JSQuAD v1.3 valid a2664357p5q1)."""
    asked = _asked_terms(question)
    verbs = _content_terms(question) - asked
    named = _named_of(question, sentence) + len(verbs & _content_terms(sentence))
    return len(asked) >= 3 and 2 * named <= len(asked) + len(verbs)


def _first_sentence(text: str) -> str:
    """The first sentence of ``text`` (a lead a finding was lifted into holds it and the Summary's own),
    with the page's sentence quoted before it where one is (what its 「この…」 points at)."""
    quote = _LEADING_QUOTE.match(text)
    rest = text[quote.end():] if quote else text
    first = next(iter(sentence_spans(rest)), None)
    return (quote.group(0) if quote else "") + (rest[first[0]:first[1]] if first is not None else rest)


def _beside_the_figure_asked(question: str, sentence: str) -> bool:
    """Whether ``question`` names a figure (a year, an ordinal) that ``sentence`` does not give,
    and the sentence does not name the rest of it either: too little of it (``_names_enough_of``), or
    not what happened. 「…RIBAゴールドメダル…、AIAゴールドメダル、…がある」 names the award of
    「RIBAゴールドメダルを2002年に受賞したのは?」 and neither 2002 nor 受賞: the real 1.5B model's
    answer led with it (JSQuAD v1.3 valid a22392p54q4, `research bench jsquad --sample 5 --seed 122`)."""
    figures = _figures(question)
    if not question.strip() or not figures or figures <= _figures(sentence):
        return False
    return not _names_enough_of(question, sentence) or _named_of(question, sentence) - len(figures & _figures(sentence)) \
        < len(_asked_terms(question))


def _says_nothing_found(edits: _Edits, s: int) -> bool:
    """Whether the sentence at ``s`` (as it stands before any sentence moves) says what a study set
    out to learn, or a hypothesis it tested, itself or in the passage sentence that supports it:
    "Studies suggest that increasing obesity levels in young women lead to intrauterine environments
    …" is supported by «It has been suggested that …», the background of PubMedQA 17595200, whose
    results found no such thing (the real 1.5B model's Summary led with it)."""
    if leaves_the_question_open(plain_text(edits.replacement[s])):
        return True
    pair = edits.by_start.get(s)
    evidence = pair[1].evidence if pair is not None else ""
    first = next(iter(sentence_spans(evidence)), None)
    return first is not None and leaves_the_question_open(evidence[first[0]:first[1]])


def _any_supported(edits: _Edits) -> bool:
    """Whether any sentence the answer keeps was decided supported."""
    return any(edits.status.get(s) == "supported" and edits.replacement.get(s) for s, _, _ in edits.sentences)


_FAR_MORE_OF_THE_QUESTION = 3  # terms of the question a finding names to lead before a lead that names too little


def _lead_with_a_supported_sentence(edits: _Edits, kept_summary: list[int], language: Language,
                                    question: str = "") -> bool:
    """"Not checked" never leads, nor a study's stated aim: supported sentences of the Summary come
    first, and where the Summary has none that says something, the first supported sentence of the
    findings is moved up to lead it (True when one was)."""
    replacement, status = edits.replacement, edits.status
    # A sentence that opens pointing back ("This allows threads to …", "It was accepted in 2023")
    # moves with the one before it, which it speaks of: alone in front it would point at nothing
    # (the real 1.5B model's PEP 703 answer at 63136ee opened "This allows threads …").
    chains: list[list[int]] = []
    for s in kept_summary:
        if chains and opens_pointing_back(plain_text(replacement[s])):
            chains[-1].append(s)
        else:
            chains.append([s])

    def rank(chain: list[int]) -> int:
        if status.get(chain[0]) != "supported":
            return 2
        # A study's stated aim answers nothing, supported or not: "…our aim was to determine, for the
        # first time, whether patients whose symptoms are well controlled … would experience improved
        # quality of life" led the Summary (PubMedQA 18403945, the real 1.5B model). After the
        # supported sentences that say something, and a supported finding leads instead of it.
        return 1 if _says_nothing_found(edits, chain[0]) else 0

    ordered = [s for chain in sorted(chains, key=rank) for s in chain]
    # Before the texts move (``rank`` reads them by position). A head that points back points at a
    # sentence taken out: "This feature is available in the free-threaded build of Python 3.13 …"
    # opened the real 1.5B model's PEP 703 Summary at cdccb95; a finding that names the question
    # goes before it.
    leads_well = rank([ordered[0]]) == 0 and not opens_pointing_back(plain_text(replacement[ordered[0]]))
    # A lead that names too little of what was asked gives way to a finding that names much more of it:
    # 「またタイからのテレビ放送を視聴している人も多い」 (放送 alone) led the real 1.5B model's Summary to 「ラオスは国営ラジオを
    # どうやって放送しているか？」 (JSQuAD v1.3 valid, `research bench jsquad --sample 5 --seed 115`), its finding on the
    # national radio's bands under a heading. Not for a little more: a page's background on the disease asked
    # about ("Alzheimer's disease (AD) is a primary degenerative disease …") is no better a lead than a finding.
    named_by_lead = _named_of(question, strip_citations(replacement[ordered[0]])) if question.strip() else 0
    weak_lead = leads_well and bool(question.strip()) and not _names_enough_of(
        question, strip_citations(replacement[ordered[0]]))
    texts = [(replacement[s], status.get(s)) for s in ordered]
    for s, (new, its_status) in zip(kept_summary, texts):
        # Each text moves with its status: what is read of the sentence now first is its own.
        replacement[s] = new
        if its_status is None:
            status.pop(s, None)
        else:
            status[s] = its_status
    if ordered[0] != kept_summary[0]:
        # Moved to the front, it answers no sentence before it: "However, the prevalence of these
        # factors is low, …" opened the real 1.5B model's Summary (PubMedQA 18801797).
        replacement[kept_summary[0]] = without_leading_connective(replacement[kept_summary[0]])
    donors = [s for s, _, section in edits.sentences if section != edits.summary_section
              and status.get(s) == "supported" and edits.by_start.get(s) and replacement.get(s)
              and not opens_pointing_back(plain_text(replacement[s]))]
    donors = [s for s in donors if _names_enough_of(question, strip_citations(replacement[s]))]
    # The first supported finding that names enough of what was asked (``_names_enough_of``), every
    # figure of it where one does; none, where none names enough.
    donor = _naming_the_question(edits, donors, question)
    if weak_lead:
        # The finding that names most of it, by far more than the lead.
        named = {s: _named_of(question, strip_citations(replacement[s])) for s in donors}
        donor = max(donors, key=lambda s: named[s], default=None)
        if donor is None or named[donor] < max(_FAR_MORE_OF_THE_QUESTION, named_by_lead + 2):
            return False
    elif leads_well or donor is None:
        return False
    donor_section = edits.section_of(donor)
    if sum(1 for s, _, section in edits.sentences if section == donor_section and status.get(s) == "supported"
           and replacement.get(s)) == 1:
        edits.answered.add(_heading_key(donor_section))
    joiner = " " if language == "en" else ""
    lead, lifted = plain_text(replacement[kept_summary[0]]), plain_text(replacement[donor])
    if _content_terms(lead) | _figures(lead) <= _content_terms(lifted) | _figures(lifted):
        # The lead says nothing the finding does not: the list item 「1. EU諸国 [S1]」 was left after 「EU諸国では、
        # …法的に保護されており、…」 moved up before it (JSQuAD v1.3 valid a22392p3q0, `research bench jsquad --sample 5
        # --seed 133`, the real 1.5B model). The finding takes its place.
        pair = edits.by_start.get(kept_summary[0])
        if pair is not None and pair[1] is not None:
            edits.drop(kept_summary[0], REMOVED_DUPLICATE, pair[1])
        replacement[kept_summary[0]] = without_leading_connective(replacement[donor])
    else:
        replacement[kept_summary[0]] = without_leading_connective(replacement[donor]) + joiner + replacement[kept_summary[0]]
    replacement[donor] = ""
    status[kept_summary[0]] = "supported"
    return True


def _drop_connectives_left_opening(edits: _Edits) -> None:
    """A sentence that now opens its section after the ones before it were taken out does not
    answer them: "However, the free-threaded build is not the default…" (the real model, its
    "gone" sentence removed) reads "The free-threaded build is not the default…"."""
    replacement = edits.replacement
    opened: set[str] = set()
    for start, _, section in edits.sentences:
        if section in opened or start not in replacement:
            continue
        if replacement[start]:
            opened.add(section)
            if any(s < start and replacement.get(s) == "" for s, _, other in edits.sentences if other == section):
                replacement[start] = without_leading_connective(replacement[start])


def _applied(edits: _Edits) -> str:
    """The draft with each sentence's replacement written in, and a line a removal left empty gone."""
    spans = {start: end for start, end, _ in edits.sentences}
    out = edits.draft
    for start in sorted(edits.replacement, reverse=True):
        end = spans[start]
        new = edits.replacement[start]
        if new and (joint := RUN_ON_JOINT.match(edits.draft, end)) and "\n" not in joint.group(0):
            new = new.rstrip() + "."  # one of sentences the model ran together (claims._draft_sentence_spans): its stop
        if not new:
            while end < len(out) and out[end] in " \t\u3000":
                end += 1
        out = out[:start] + new + out[end:]
        if not new:
            # A line the removal left empty goes whole, so no blank line opens a paragraph.
            line_start = out.rfind("\n", 0, start) + 1
            line_end = out.find("\n", start)
            line_end = len(out) if line_end < 0 else line_end
            if not out[line_start:line_end].strip() and line_start > 0 and out[line_start - 2:line_start - 1] != "\n":
                out = out[:line_start] + out[line_end + 1:]
    return out


def _note_sub_questions_the_summary_answers(edits: _Edits, kept_summary: list[int], question: str,
                                            sub_questions: list[str]) -> None:
    """A sub-question that is the question again, or asks only what the checked Summary says
    ("How tall is Mount Fuji?" and the Summary "Mount Fuji is 3,776 m tall"), is answered
    there, whatever its own section kept: "the sources do not answer this" under it would say
    otherwise (Qwen2.5-Coder-1.5B wrote only a made-up source id under such sub-questions). A
    part of a question that asks two things is not the question again."""
    summary_said = [plain_text(edits.replacement[s]) for s in kept_summary if edits.status.get(s) == "supported"]
    summary_terms = set().union(*(_content_terms(text) for text in summary_said))
    if not summary_terms:
        return
    # An attribute asked in other words is answered too: "What is the elevation of Mount
    # Fuji?" by "Mount Fuji is 3,776 m tall" (Qwen2.5-Coder-1.5B's plan asked both).
    summary_terms |= _attribute_terms(" ".join(summary_said))
    asked = _content_terms(question) - _GENERIC_TERMS
    for sub in sub_questions:
        terms = _content_terms(sub) - _GENERIC_TERMS
        # "Why is Mount Fuji 3,776 m tall?" names only what the Summary names, and asks
        # what it does not say: a reason or a way is answered by words, not by the terms.
        if terms == asked or terms <= summary_terms and not _ASKS_WHY_OR_HOW.search(sub) \
                and not _asks_what_it_is_undefined(sub, summary_said):
            edits.answered.add(_heading_key(sub))


# "What is the GIL in Python?", 「GILとは何ですか？」: asks what a thing is.
_ASKS_WHAT_IT_IS = re.compile(r"^\W*(?:\d+\.\s*)?what\s+(?:is|are|was|were)\s+(?P<thing>[^?]+)\?*\s*$"
                              r"|^\W*(?:\d+\.\s*)?(?P<thing_ja>[^、。？?]+?)とは(?:何|なん|なに|？|\?|$)", re.IGNORECASE)
# A sentence that says what its subject is: "The GIL is a lock that …", 「GILは…ロックである」.
_SAYS_WHAT_IT_IS = re.compile(r"^\W*(?P<subject>[^,;:]+?)\s+(?:is|are|was|were)\s+(?:a|an|the|one)\b"
                              r"|^\W*(?P<subject_ja>[^、。]+?)(?:とは|は)[^。]*(?:である|です|だ|のこと)[。]?$", re.IGNORECASE)


def _asks_what_it_is_undefined(sub: str, said: list[str]) -> bool:
    """Whether ``sub`` asks what a thing is and no sentence of ``said`` says it: a Summary that
    names the GIL ("…still has the GIL enabled by default") does not answer "What is the GIL in
    Python?" (the real 1.5B model's GIL answer at edbab2d, whose sub-question then went unsaid,
    neither answered nor marked "not given")."""
    asked = _ASKS_WHAT_IT_IS.match(sub.strip())
    named = (asked.group("thing") or asked.group("thing_ja") or "") if asked else ""
    # "What is the elevation of Mount Fuji?" asks an attribute, which a figure answers; "What is
    # PEP 703 and when …?" asks two things: neither is a definition.
    if not named or len(named.split()) > 6 or re.search(r"\b(?:of|and)\b|['’]s\b|の", named):
        return False
    thing = _content_terms(named)
    for sentence in said:
        says = _SAYS_WHAT_IT_IS.match(sentence.strip())
        subject = _content_terms((says.group("subject") or says.group("subject_ja") or "")) if says else set()
        if subject and subject <= thing | _content_terms(sub):
            return False
    return True


def _contradicted_headline(sentences: list[tuple[int, int, str]], by_start: dict[int, tuple[Claim, ClaimVerdict]],
                           summary_section: str, question: str) -> ClaimVerdict | None:
    """The claim of the Summary the sources contradict that carries the answer (of those, the
    one that says most of what the question asks); None when there is none."""
    asked = _content_terms(question) - _GENERIC_TERMS
    contradicted = [by_start[s] for s, _, section in sentences if section == summary_section and s in by_start
                    and by_start[s][1].state == "contradicted" and by_start[s][1].evidence and by_start[s][1].evidence_label]
    # The one that says most of what the question asks; the first of them on a tie.
    best = max(contradicted, key=lambda pair: len(asked & _content_terms(pair[0].plain)), default=None)
    return best[1] if best else None


def _said_with_the_sources(against: ClaimVerdict, first: str, language: Language) -> str:
    """The Summary's first sentence ``first`` (may be empty), opened by what the sources say
    against the contradicted headline ``against``; a "Yes" of ``first`` goes unless the
    contradicted headline was itself a "No" (then the sources deny a denial)."""
    line = t("answer.sources_say_otherwise", language, claim=_quoted_claim(against.text),
             evidence=_short_quote(against.evidence), label=against.evidence_label or "")
    said = answer_word(plain_text(first)) if first else None
    denied_a_no = bool((opened := answer_word(against.text)) and opened[1])
    if said and not said[1] and not denied_a_no:
        first = _without_answer_word(first)
    return line + ((" " if language == "en" else "") + first if first else "")


def _drop_undecided_values_the_quote_gives_otherwise(edits: _Edits, kept_summary: list[int], question: str,
                                                     quote: str) -> None:
    """Where the sources' sentence quoted on the question gives a value of the kind it asks for (何年: a year), a
    sentence of the Summary no check decided that gives only other values of that kind leaves: «…1956年のスターリン
    批判を経て…» quoted, 「スターリン批判は1950年1月6日に起こった[S3]（未確認）」 after it said another year, the date of
    another event on S3 (JSQuAD v1.3 valid a14985p36q1, the real 1.5B model)."""
    given = values_of_the_kind_asked(question, quote)
    if not given:
        return
    for start in kept_summary:
        if edits.status.get(start) == "supported" or not edits.replacement.get(start):
            continue
        said = values_of_the_kind_asked(question, plain_text(edits.replacement[start]))
        if said and not said & given:
            pair = edits.by_start.get(start)
            edits.drop(start, REMOVED_UNCHECKED, pair[1] if pair else None)


def _drop_unchecked_the_quote_rests_on(edits: _Edits, kept_summary: list[int], quote: str) -> None:
    """A sentence of the Summary the checks could not decide goes where the sources' sentence now quoted before it is the
    passage it rests on: the quote says in the page's words what it says in its own, and what it changed is what was
    left undecided. 「日本共産党は、地域の過疎化や世代交代によって、それぞれの勢力が減少傾向にあることを示唆しています（未確認）」
    followed «…これらは、地域の過疎化や世代交代によって、それぞれの勢力が減少傾向にあることや、…努力の結果だともいえる。» in the
    real 1.5B model's Summary (JSQuAD v1.3 valid a14985p88q1, `research bench jsquad --sample 5 --seed 134`): the page
    says it of «これら», not of the party."""
    quoted = _norm(quote)
    for start in kept_summary:
        if edits.status.get(start) != "not_checked" or not edits.replacement.get(start):
            continue
        plain = plain_text(edits.replacement[start])
        verdict = _verdict_of_the_text_at(edits, start)
        if verdict is None or not verdict.evidence or _norm(strip_citations(verdict.text)) not in _norm(plain):
            continue
        rests_on = _sentence_said(verdict.evidence, plain)
        if _norm(rests_on) and _norm(rests_on) in quoted:
            edits.drop(start, REMOVED_UNCHECKED, verdict)


def _verdict_of_the_text_at(edits: _Edits, start: int) -> ClaimVerdict | None:
    """The verdict of the sentence now at ``start``: found by its text, since the Summary's sentences may have moved
    (a supported one leads, ``_lead_with_a_supported_sentence``) and their verdicts stay where the draft had them."""
    plain = _norm(plain_text(edits.replacement.get(start, "")))
    pair = edits.by_start.get(start)
    if pair is not None and pair[1] is not None and _norm(strip_citations(pair[1].text)) in plain:
        return pair[1]
    # The longest whose text it holds: a list item's 「EU諸国」 is in many sentences.
    moved = max((v for _, v in edits.by_start.values() if v is not None and _norm(strip_citations(v.text)) in plain),
                key=lambda v: len(v.text), default=None)
    return moved if moved is not None else (pair[1] if pair is not None else None)  # its text rewritten: where it was


def _drop_what_the_quote_says(edits: _Edits, kept_summary: list[int], first: int, quote: str) -> None:
    """A later supported sentence of the Summary that says nothing the sources' quote leading it
    does not (its words and figures all in the quote) is that quote again: the real 1.5B model's
    GIL answer read «The standard build of Python 3.14 still has the GIL enabled by default.» [S1]
    and then "The standard build of Python 3.14 still has the GIL enabled by default [S1]."."""
    said = _content_terms(quote) | _figures(quote)
    for start in kept_summary:
        if start == first or edits.status.get(start) != "supported" or not edits.replacement.get(start):
            continue
        plain = plain_text(edits.replacement[start])
        content = _content_terms(plain) | _figures(plain)
        if content and content <= said:
            edits.drop(start, REMOVED_DUPLICATE, _verdict_of_the_text_at(edits, start))


def _without_answer_word(text: str) -> str:
    """``text`` without the yes or no it opens with, its first letter raised again."""
    opened = answer_word(text)
    if opened is None:
        return text
    rest = opened[2]
    return rest[:1].upper() + rest[1:] if rest[:1].isascii() else rest


def _quoted_claim(text: str) -> str:
    opened = answer_word(text)
    said = plain_text(opened[2] if opened else text).rstrip(".。 ")
    first = said.split(" ", 1)[0]
    # Inside a sentence "The build…" reads "the build…"; a name ("Python 3.14…") keeps its capital.
    return said[:1].lower() + said[1:] if first in _LOWERED_OPENERS else said


_LOWERED_OPENERS = frozenset("The A An It Its This That These Those There They Each Every All Some".split())


_QUOTE_CHARS = 240


def _short_quote(evidence: str) -> str:
    """The passage's words, whole sentences up to about ``_QUOTE_CHARS`` characters."""
    text = " ".join(evidence.split())
    if len(text) <= _QUOTE_CHARS:
        return text
    # Where a sentence ends, as the claims are split: "9.00 a.m. and 9.00 p.m." ends none (PubMedQA 19230985,
    # whose quotation stopped at «…(between 9.00 a.m.»).
    cut = max((end for _, end in sentence_spans(text) if end <= _QUOTE_CHARS), default=0)
    return text[:cut].rstrip() if cut > 40 else text[:_QUOTE_CHARS].rstrip() + "…"


def _decide(claim: Claim, verdict: ClaimVerdict, topic: Topic | None, wrong_language: frozenset[str], *,
            in_summary: bool = False) -> str | None:
    """Why this claim leaves the body, or None when it stays."""
    if claim.text.strip() in wrong_language:
        return REMOVED_LANGUAGE
    name = verdict.verdict
    if name == Verdict.UNSUPPORTED and verdict.reason in CONTRADICTING_REASONS:
        return REMOVED_CONTRADICTED
    if name in (Verdict.UNSUPPORTED, Verdict.CITATION_INVALID):
        return REMOVED_NOT_SUPPORTED
    cited = bool(verdict.citations)
    uncited_label = not claim.citations and name == Verdict.SUPPORTED and verdict.evidence_label and (
        verdict.method == "lexical" or verdict.cited_by_check)
    # Or no judge decided it, and the checks traced it to one source (kept "not checked").
    traced_unchecked = not claim.citations and not verdict.checked and bool(verdict.cited_by_check)
    if not cited and not uncited_label and not traced_unchecked:
        # Traced to no source: the reader cannot check it, whatever a judge thought.
        return REMOVED_UNCITED
    if name == Verdict.PARTLY_SUPPORTED and verdict.checked:
        return REMOVED_PARTLY
    if not verdict.checked and verdict.reason == "number_missing":
        # No judge decided it, and its passage does not give its figure for what it measures
        # (the careless fake with an untrusted judge: 「…再生可能エネルギーの割合は9.2%だった」,
        # where 9.2% is solar's share): a figure is what a reader takes on trust, so it goes.
        return REMOVED_UNCHECKED
    if not verdict.checked and verdict.reason == "roles_unconfirmed" and _figures(claim.plain):
        # No judge decided it, and no sentence of its passage says its figure of what it speaks of:
        # 「太陽光発電は…再生可能エネルギーの割合が21.7%で最も多く」 against 「…再生可能エネルギーの割合は
        # 21.7%だった。…太陽光発電が9.2%で最も多く…」 (the real 1.5B model; 21.7% is all renewables').
        return REMOVED_UNCHECKED
    if not verdict.checked and verdict.reason == "missing_term" and (_figures(claim.plain) or in_summary) \
            and _subject_terms(claim.plain) & set(verdict.missing):
        # No judge decided it, and what it speaks of is not in its passage, which gives its
        # figure for another thing: 「この噴火は富士山の山頂の標高3,776メートルで…」 against 「富士山の
        # 山頂の標高は3,776メートルで…」, 「米ドルは、2002年1月1日からEU共通通貨ユーロが流通している」
        # (the real 1.5B model). Read as a figure on trust, it goes like one the passage lacks. So
        # does such a sentence in the Summary, figure or not: the headline is checked hardest
        # (「石油の最大輸入相手国はオランダです」 against a page on the Netherlands' trade, JSQuAD).
        return REMOVED_UNCHECKED
    if not verdict.checked and verdict.reason == "missing_term" and topic is not None and verdict.evidence_label \
            and _gives_another_topics_predicate(claim.plain, verdict.missing,
                                                topic.source_texts.get(verdict.evidence_label, "")):
        # No judge decided it, and the word it lacks is what its page says of another thing it names: the
        # eruption made the volcano (「宝永噴火は富士山の活火山です」, the real 1.5B model's finding, kept not checked).
        return REMOVED_UNCHECKED
    if not verdict.checked and verdict.reason in ("missing_term", "roles_unconfirmed") \
            and _speaks_of_what_its_passage_does_not(claim.plain, verdict.evidence,
                                                     pointing_only=verdict.reason == "roles_unconfirmed"):
        # No judge decided it, and its passage says what it says of another topic: 「宝永噴火は富士山の火山防災資料の
        # 中で、富士山の火山防災についてまとめたものです」 against «この資料は富士山の火山防災についてまとめたものです。» (the real
        # 1.5B model's finding, bench_answers.py --ollama): the eruption given what the page says of its leaflet. Also
        # where every word is on the page and only the topic is not confirmed: 「宝永噴火は富士山の火山防災資料を
        # まとめたものです」 (the same, 2026-12-01 11:35), kept not checked until then, where the page's sentence speaks
        # of itself (この資料): 「RKBラジオは、時報音が…ラジオ局です」 is the page's title said of its own sentence (JSQuAD).
        return REMOVED_UNCHECKED
    attributed = list(verdict.cited_by_check)
    if not attributed and uncited_label:
        attributed = [str(verdict.evidence_label)]
    if topic is not None and not topic.is_on_topic(claim, [] if claim.citations else attributed):
        return REMOVED_OFF_TOPIC
    return None


def _heading_key(title: str) -> str:
    """A heading as a sub-question: "1. What is PEP 703?" is the plan's "What is PEP 703?"."""
    return _norm(_NUMBERING.sub("", title))


def _join_section(lines: list[str], key: str, more: list[str]) -> None:
    """``more`` put at the end of the section whose heading's key is ``key`` (before the next
    heading of its level or above), in place."""
    at = next((i for i, line in enumerate(lines)
               if (h := _HEADING_LINE.match(line)) and _heading_key(h.group(3)) == key), None)
    if at is None:
        lines.extend(more)
        return
    level = len(_HEADING_LINE.match(lines[at]).group(2))  # type: ignore[union-attr]
    end = next((i for i in range(at + 1, len(lines))
                if (h := _HEADING_LINE.match(lines[i])) and len(h.group(2)) <= level), len(lines))
    while end > at + 1 and not lines[end - 1].strip():
        end -= 1
    lines[end:end] = ["", *more] if more and more[0].strip() else more


# A heading that ends as a sentence does: 「…の時代でした。」, "… was the Visigoths."
_A_SENTENCE_AS_TITLE = re.compile(r"(?:[。．]|(?<=[A-Za-z0-9)”\"'])\.)\s*$")


# Up to three spaces before a paragraph's first word (four would make it code; a list item, a quote or
# a table row keeps its place).
_OPENED_WITH_A_SPACE = re.compile(r"^ {1,3}(?![\s\-*+>|#`~]|\d+[.)])")


def _tidy_sections(text: str, language: Language, sub_questions: list[str], *, summary_empty: bool,
                   document_titles: Iterable[str] = (),
                   on_a_question: Callable[[str], SourceSentence | None] | None = None) -> tuple[str, list[str]]:
    """Headings without placeholders, empty list items gone, a section left empty either
    dropped or, when it answers a sub-question, quoting the sources' sentence on it
    (``on_a_question``) or, where none names it, saying the sources read did not give it."""
    document_titles = set(document_titles)
    seen_headings: set[str] = set()
    lines = text.split("\n")
    cleaned: list[str] = []
    # The lines under a heading said again, by the first one's key: they join its section.
    moved: dict[str, list[str]] = {}
    target = cleaned  # where the next line goes
    moving_level = 0  # the level of the repeated heading whose lines go to ``moved``
    counts: dict[int, int] = {}  # the numbered list's items so far, by indentation
    in_fence = False
    references_level = 0  # inside the model's own source list, under a heading of this level
    for line in lines:
        if line.lstrip().startswith(("```", "~~~")):
            in_fence = not in_fence
        if in_fence:
            if not references_level:
                target.append(line)
            continue
        heading = _HEADING_LINE.match(line)
        if heading and moving_level and len(heading.group(2)) <= moving_level:
            target, moving_level = cleaned, 0  # the repeated section ends here
        if references_level and (heading is None or len(heading.group(2)) > references_level):
            continue
        references_level = 0
        if heading is None and is_reference_line(line):
            references_level = 7  # "Sources:" as a line: its list runs to the next heading, of any level
            continue
        if heading and is_reference_heading(_NUMBERING.sub("", plain_text(heading.group(3))).strip()):
            # The model's own list of sources ("### 参考文献" and "[S1] 富士山 — http://…" under it, the
            # real 1.5B model): the report lists the sources read, with what each was used for; a
            # second list in the answer only repeats their addresses (read as figures, too).
            references_level = len(heading.group(2))
            continue
        if heading:
            counts = {}
            title = PLACEHOLDER.sub("", heading.group(3)).strip()
            if title != heading.group(3).strip():
                title = _NUMBERING.sub("", title).strip()
            if ADDRESS_TOKEN.search(title):
                # The prompt's source header copied as a heading ("Mount Fuji — http://…"):
                # source metadata, not a theme of the answer.
                continue
            if not re.search(r"[A-Za-z\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff0-9]", title):
                continue  # a heading that was only a template's slot
            if len(heading.group(2)) >= 3 and is_wrong_language(title, language)[0]:
                # A section heading in the other language (a sub-question the model wrote so): the
                # report is in the language asked; its sentences stay, under the section above.
                continue
            if _A_SENTENCE_AS_TITLE.search(title) and (len(title.split()) >= 4 or _has_japanese(title) and len(title) >= 10):
                # A statement written as a heading is no heading, and is never checked: 「## 585年にスエヴィ王国を
                # 滅ぼしたのはラオスのセタティラート王の時代でした。」 (the real 1.5B model, JSQuAD v1.3 valid
                # a4596p5q3; the page says 西ゴート王国). Its sentences stay, under the findings' heading.
                title = REPORT_LABELS[language]["findings"]
            key = _heading_key(title)
            if key in document_titles:
                # A page's title as a section ("## 3. 富士山の火山防災資料", the real model): the
                # answer is sorted by what it says, not by page; its sentences stay, checked.
                continue
            if key in seen_headings:
                # The same heading again ("## 1. 富士山の噴火の歴史" … "## 5. 富士山の噴火の歴史", the
                # real model): one section, its sentences together, under the first. Left where
                # they stood they would read as the section above's: 「2007年のHIV感染者は推計で
                # 79,000人」 of a second 「## 4. コンゴ共和国」 under 「## 3. オランダ」 (JSQuAD a4596p46q1).
                if not moving_level:
                    target, moving_level = moved.setdefault(key, []), len(heading.group(2))
                continue
            seen_headings.add(key)
            target.append(f"{heading.group(1)}{heading.group(2)} {title}")
            continue
        if _LIST_ITEM.match(line) or (line.strip() and not re.search(r"[^\s\[\]S0-9,]", line)):
            continue  # a list item or a line left with nothing (or only citations) in it
        numbered = _NUMBERED_ITEM.match(line)
        if numbered:
            # Counted again after what was taken out: an item 1 gone leaves "1." not "2." (the real
            # model's list, its first item a repeat of the Summary). Each depth counts on its own.
            depth = len(numbered.group(1))
            counts = {d: n for d, n in counts.items() if d <= depth}
            counts[depth] = counts.get(depth, 0) + 1
            line = f"{numbered.group(1)}{counts[depth]}{numbered.group(3)}{line[numbered.end():]}"
        elif line.strip() and not line.startswith((" ", "\t")):
            counts = {}  # a paragraph between two lists: the next one starts at 1
        elif _OPENED_WITH_A_SPACE.match(line) and (not target or not target[-1].strip() or _HEADING_LINE.match(target[-1])):
            # A paragraph the model opened with a space or two (" Architect の概念が…", the real 1.5B model):
            # Markdown reads past them, report.md and the PDF's line did not.
            line, counts = line.lstrip(" "), {}
        target.append(line.rstrip())
    for key, lines_of in moved.items():
        _join_section(cleaned, key, lines_of)
    cleaned = _lists_of_one_as_paragraphs(cleaned)
    # Sections: drop the empty ones, or say what the sources did not give. Again until nothing
    # changes: a heading whose only content was an empty sub-heading ("### 詳細" over a
    # "#### …" whose sentences all went) is empty once that one is gone.
    wanted = {_heading_key(q): q for q in sub_questions if q.strip()}
    not_given: list[str] = []
    out = cleaned
    while True:
        before = out
        out = _without_empty_sections(before, wanted, not_given, language, summary_empty=summary_empty,
                                      on_a_question=on_a_question)
        if out == before:
            break
    tidy = "\n".join(_renumbered_headings(out))
    tidy = re.sub(r"\n{3,}", "\n\n", tidy).strip("\n")
    return tidy + "\n" if tidy else tidy, not_given


def _lists_of_one_as_paragraphs(lines: list[str]) -> list[str]:
    """A numbered list left with one item reads as a paragraph: 「1. EU諸国では、…結びついている[S1]。」 opened the
    Summary once the other items went (JSQuAD v1.3 valid a22392p3q0, `research bench jsquad --sample 5 --seed 133`,
    the real 1.5B model), as if something after it had been cut. Only a top-level item whose next line is neither
    another item nor indented under it (a nested list or a continuation keeps its list)."""
    out = list(lines)
    in_fence = False
    for i, line in enumerate(out):
        if line.lstrip().startswith(("```", "~~~")):
            in_fence = not in_fence
        numbered = _NUMBERED_ITEM.match(line)
        if in_fence or numbered is None or numbered.group(1) or numbered.group(2) != "1":
            continue
        following = next((other for other in out[i + 1:] if other.strip()), "")
        if _NUMBERED_ITEM.match(following) or following.startswith((" ", "\t")):
            continue
        out[i] = line[numbered.end():].lstrip()
    return out


def _without_empty_sections(lines: list[str], wanted: dict[str, str], not_given: list[str], language: Language,
                            *, summary_empty: bool,
                            on_a_question: Callable[[str], SourceSentence | None] | None = None) -> list[str]:
    """One pass over ``lines``: a heading with nothing under it goes, or, when it is one of the
    plan's sub-questions, quotes the sources' sentence on it, or says the sources did not give it
    (added to ``not_given``)."""
    out: list[str] = []
    position = 0
    while position < len(lines):
        line = lines[position]
        heading = _HEADING_LINE.match(line)
        if not heading:
            out.append(line)
            position += 1
            continue
        level = len(heading.group(2))
        following = position + 1
        while following < len(lines):
            other = _HEADING_LINE.match(lines[following])
            if other and len(other.group(2)) <= level:
                break
            following += 1
        body = lines[position + 1:following]
        if any(part.strip() for part in body):
            out.append(line)
            own = next((k for k, part in enumerate(body) if _HEADING_LINE.match(part)), len(body))
            if len(out) == 1 and summary_empty and not any(part.strip() for part in body[:own]):
                # The Summary emptied over the model's sections written under it ("### 1. …" after
                # "## Summary", PubMedQA 24519615 with the real 1.5B model): it says so before them.
                out += ["", t("answer.no_direct_answer", language), ""]
            position += 1
            continue
        title = heading.group(3).strip()
        question = wanted.get(_heading_key(title))
        quoted = on_a_question(question) if question is not None and on_a_question is not None else None
        if quoted is not None and _norm(quoted.text).rstrip("。.") in _norm(strip_citations(plain_text("\n".join(out + lines)))):
            # Said in the answer already, by a sentence that answers something else or this, or quoted for the
            # sub-question before (the real 1.5B model's GIL answer at 03e33e6 quoted «The global interpreter lock (GIL)
            # lets only one thread …» under three sub-questions in a row).
            quoted = None
        if quoted is not None:
            # The draft's sentences on it were taken out, but a page answers it: its words, not "the
            # sources do not answer this". The real 1.5B model's GIL answer (a72a8ac) said so of "What
            # is the GIL?" beside «The global interpreter lock (GIL) lets only one thread run …».
            out += [line, "", t("answer.sources_say_of_the_sub_question", language,
                                evidence=_short_quote(quoted.text), label=quoted.label), ""]
        elif question is not None:
            out += [line, "", t("answer.not_given", language, question=question), ""]
            if question not in not_given:
                not_given.append(question)
        elif not out and summary_empty:
            # The Summary heading with nothing under it: say so rather than leave it bare.
            out += [line, "", t("answer.no_direct_answer", language), ""]
        position = following
    return out


def _renumbered_headings(lines: list[str]) -> list[str]:
    """Numbered sections counted 1, 2, 3 again among their siblings, once the ones that only
    repeated the Summary are gone: the real model's answer read "## 結論", "## 3. …", "## 4. …"
    on stdout while report.md said 1 and 2. The numbered run after an unnumbered first
    heading (the Summary) counts; a run with an unnumbered heading after it stays as written."""
    lines = list(lines)
    # (parent heading's line, level) -> the heading lines, each with its match
    siblings: dict[tuple[int, int], list[tuple[int, re.Match[str]]]] = {}
    open_headings: list[tuple[int, int]] = []  # (level, line) of the headings above
    for number, line in enumerate(lines):
        heading = _HEADING_LINE.match(line)
        if not heading:
            continue
        level = len(heading.group(2))
        while open_headings and open_headings[-1][0] >= level:
            open_headings.pop()
        siblings.setdefault((open_headings[-1][1] if open_headings else -1, level), []).append((number, heading))
        open_headings.append((level, number))
    for group in siblings.values():
        numbers = [number for number, _ in group]
        headings = [heading for _, heading in group]
        titles = [heading.group(3) for heading in headings]
        first = next((k for k, title in enumerate(titles) if TITLE_NUMBER.match(title)), len(titles))
        for number, heading, title in zip(numbers[first:], headings[first:], renumbered_titles(titles[first:])):
            lines[number] = f"{heading.group(1)}{heading.group(2)} {title}"
    return lines

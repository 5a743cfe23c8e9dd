"""What kind of question was asked, and the answer word a sentence opens with.

A yes/no question ("Is the GIL gone in Python 3.14?", 「3.14でGILはなくなりましたか？」) is a
statement put to the sources: its words are the claim to check, not a frame an answer repeats,
and the yes or no an answer opens with is only as good as the sentence after it.
"""

from __future__ import annotations

import re

from research.modules.core.language import Language
from research.modules.text.analyser import stem, term_set, terms
from research.modules.text.polarity import FIGURE, affirms, clause_conflict, negated
from research.modules.text.structure import contrasting

_AUXILIARY_EN = re.compile(
    r"^\W*(?:is|are|was|were|am|do|does|did|can|could|will|would|has|have|had|should|shall|may|might|must)"
    r"(?:n['’]t)?\b\s+(?P<rest>.+)$", re.IGNORECASE | re.DOTALL)
# Any of these makes a Japanese question ask for something other than yes or no.
_ASKING_FOR_JA = re.compile(r"何|なに|なん[でのとにだ]|いつ|どこ|どちら|誰|だれ|なぜ|何故|どうして|どう|どの|どれ|どんな|いくつ|いくら|幾|とは[？?]?$|って[？?]$")
_ENDS_AS_QUESTION_JA = re.compile(r"[？?]\s*$|か[。]?\s*$")
# "…の内訳は？", "…について？": a topic put as a question asks for what there is to say of it.
_TOPIC_ONLY_JA = re.compile(r"(?:は|って|とは|について|では|には|の方)[？?]\s*$")
_ANSWER_WORD = re.compile(
    r"^\s*(?P<word>yes|no|はい|いいえ|いや)[,、.。!！:：]\s*(?P<rest>\S.*)$", re.IGNORECASE | re.DOTALL)
_NEGATIVE_WORDS = frozenset({"no", "いいえ", "いや"})


# Where a title ends and its question begins: "Nasal fractures: is closed reduction satisfying?",
# "Human papillomavirus and pterygium. Is the virus a risk factor?", "… rupture--is the diameter
# important?" (PubMedQA's and many papers' titles ask so).
_TITLE_ENDS = re.compile(r"[:;]\s*|[.!]\s+|\s*(?:--|—|–)\s*")
# An "or" that offers no second answer: "aged 80 or older", "either obesity or OSA severity".
_OR_OF_A_RANGE = re.compile(r"\bor\s+(?:older|younger|more|less|fewer|greater|higher|lower|above|below|not)\b"
                            r"|\beither\b.*\bor\b"
                            # "Are there any studies or reports that …?" asks whether there is any of either.
                            r"|\bany\s+(?:\w+\s+){0,2}?\w+\s+or\b", re.IGNORECASE)


# A title put to the sources as a question: "Aripiprazole: a new risk factor for pathological
# gambling?" asks whether it is one.
_TITLE_AS_QUESTION = re.compile(r"^(?:a|an|another|really|still)\b.*\?$", re.IGNORECASE)


def _asked_part(text: str) -> str:
    """The question after a title, else the whole question."""
    parts = _TITLE_ENDS.split(text)
    tail = parts[-1].strip() if len(parts) > 1 and parts[0].strip() else ""
    return tail if tail and _AUXILIARY_EN.match(tail) else text


def _title_put_as_question(text: str) -> bool:
    parts = _TITLE_ENDS.split(text)
    return len(parts) > 1 and bool(parts[0].strip()) and bool(_TITLE_AS_QUESTION.match(parts[-1].strip()))


def is_yes_no(question: str, language: Language) -> bool:
    """Whether ``question`` asks for a yes or a no (one clause put to the sources)."""
    text = " ".join(question.split())
    if not text:
        return False
    if language == "ja":
        return bool(_ENDS_AS_QUESTION_JA.search(text)) and not _ASKING_FOR_JA.search(text) \
            and not _TOPIC_ONLY_JA.search(text)
    asked = _asked_part(text)
    return bool(_AUXILIARY_EN.match(asked) or _title_put_as_question(text)) \
        and not re.search(r"\bor\b", _OR_OF_A_RANGE.sub("", asked), re.IGNORECASE)


# What asks for one name, place, time or count: the question's relation ("the designer of …",
# 「…の設計者の名は何か」) is what an answer's name must be found in, not a frame it repeats.
_ASKS_FOR_A_SLOT_EN = re.compile(
    r"^\W*(?:who|whom|whose|which|when|where|how (?:many|much|long|old|tall|high|far|big|large))\b"
    r"|\b(?:what|which) (?:year|date|day|month|time|number|percentage|city|country|town|company|person)\b"
    r"|\bname (?:of|for)\b|\bnamed\b|\bcalled\b", re.IGNORECASE)
_ASKS_FOR_A_SLOT_JA = re.compile(
    r"誰|だれ|どこ|いつ|何人|何年|何歳|何個|何回|何か所|何という|何と(?:呼|称|言|い[うわ]|名付|名づ|略|訳)|いくつ|いくら|名前|名は|の名|どの|どれ"
    # 「日本共産党は、マスメディアに対して、なんと反発していたか？」: the words said, asked (not 何とか, somehow).
    r"|(?:何|なん)と(?!か|も|して|なく)[\u3040-\u309f\u4e00-\u9fff][^、。？?]{0,12}(?:か|ですか)[？?。]?\s*$"
    r"|何(?:%|％|パーセント|倍|位|割|メートル|キロ|ドル|円|度)"
    # 何 before the noun whose name it asks: 「世界最長のロープウェイである何ロープウェイが開通している？」, 何語, 何県.
    r"|何(?:[\u30a1-\u30fa\u30fc]{2,}|語|県|党|線|川|島|湖|駅|港|国|州|世紀|時代|曜日|科|族|派|宗|賞|号|型|式|病)"
    r"|(?<!と)は何(?:か|ですか|でしょうか|だ|です)?[？?。]?\s*$"
    # 「RIBAゴールドメダルを2002年に受賞したのは?」: the cleft asks for what fills the slot (one in twenty of
    # JSQuAD's questions; none of them asks for an explanation).
    r"|(?:の|もの)は[？?。]?\s*$")


def asks_for_a_name_or_value(question: str, language: Language) -> bool:
    """Whether ``question`` asks for one name, place, time or count ("Who designed …?",
    「本部の設計者の名は何か」, 「流通している通貨は何か」), not for an explanation
    ("What is the backstory of …?", 「富士山が静かな理由は？」, 「量子ビットとは何か」)."""
    text = " ".join(question.split())
    return bool((_ASKS_FOR_A_SLOT_JA if language == "ja" else _ASKS_FOR_A_SLOT_EN).search(text))


def as_statement(question: str, language: Language) -> str:
    """The proposition a yes/no question puts ("Is the GIL gone in Python 3.14?" → "the GIL
    gone in Python 3.14"): the words to align with a source, not a sentence to show."""
    # 「…気団は同じか。」: a question may end with a full stop after its か (JSQuAD's do).
    text = " ".join(question.split()).rstrip("?？。. ")
    if language == "ja":
        return re.sub(r"(?:でしょうか|ですか|ますか|のか|かな|か|の)$", "", text)
    match = _AUXILIARY_EN.match(_asked_part(text))
    return match.group("rest") if match else text


def answer_word(sentence: str) -> tuple[str, bool, str] | None:
    """(the word, whether it says no, the rest) where ``sentence`` opens with a yes or a no
    ("No. The default build still has the GIL", 「はい、…」); None otherwise."""
    match = _ANSWER_WORD.match(sentence)
    if match is None:
        return None
    word = match.group("word")
    return word, word.lower() in _NEGATIVE_WORDS, match.group("rest")


def answers_the_other_way(question: str, sentence: str, language: Language) -> bool:
    """Whether the yes or no ``sentence`` opens with is the other way round from what the rest of
    it says of the proposition ``question`` puts: "Yes, the GIL is still enabled by default in
    Python 3.14" to "Is the GIL gone in Python 3.14?" (the rest gives the GIL a status "gone"
    excludes: Qwen2.5-Coder-1.5B's answer, issue 44), or "No, …" over a rest that says the
    proposition itself. Only what the clause alignment of modules/text/polarity.py is sure of:
    False when it cannot tell."""
    opened = answer_word(sentence)
    if opened is None or not is_yes_no(question, language):
        return False
    _, says_no, rest = opened
    statement = as_statement(question, language)
    if _one_word_opposite(statement, rest, language):
        # 「…気団は同じか。」 answered 「はい、…気団は異なる」: the rest says the other way by its
        # words, so a yes is the wrong way round and a no the right one. Under a denial as well
        # ("not different") the two cancel, and nothing is sure.
        return not says_no and negated(rest, language) == negated(statement, language)
    if says_no:
        return affirms(statement, rest, language) and clause_conflict(statement, rest, language) is None
    return clause_conflict(statement, rest, language) is not None


_EN_WORD = re.compile(r"[a-z]+")
_ALIGNED = 0.85  # the share of the proposition's other terms the rest must say, as polarity.py aligns clauses


def _words_folded(text: str, language: Language) -> frozenset[str]:
    """Every word of ``text`` as the contrast groups spell it (Japanese lemmas, English stems),
    words that name nothing included: "same" is one of them."""
    if language == "ja":
        return term_set(text)
    return frozenset(stem(word) for word in _EN_WORD.findall(text.lower()))


def _one_word_opposite(statement: str, rest: str, language: Language) -> bool:
    """Whether ``rest`` says the proposition with one of its words swapped for its opposite
    (同じ/異なる, same/different, increase/decrease) and the rest of its terms as they are."""
    mine, theirs = _words_folded(statement, language), _words_folded(rest, language)
    swapped = [(a, b) for a in mine - theirs for b in theirs - mine if contrasting(a, b)]
    if len(swapped) != 1:
        return False
    asked = (term_set(statement) - {swapped[0][0]}) | frozenset(FIGURE.findall(statement))
    said = term_set(rest) | frozenset(FIGURE.findall(rest))
    return len(asked) >= 2 and len(asked & said) >= _ALIGNED * len(asked)


def answers_another_question(question: str, sentence: str, language: Language) -> bool:
    """Whether the yes or no ``sentence`` opens with stands on words that leave out much of the
    proposition ``question`` puts (a third of its terms or more, of four or more): "Yes,
    coronary angiography is performed before emergency aortic surgery" to "Does coronary
    angiography before emergency aortic surgery affect in-hospital mortality?" (PubMedQA
    10732884, Qwen2.5-Coder-1.5B; the next sentence said it does not affect it) answers whether
    it is performed. The words may be true; the yes is not an answer to what was asked."""
    opened = answer_word(sentence)
    if opened is None or not is_yes_no(question, language):
        return False
    statement = as_statement(question, language)
    asked = term_set(statement)
    said = term_set(opened[2])
    if language == "en" and _PUT_WITH_A_COPULA.match(_asked_part(" ".join(question.split()))):
        # "Are the current prediction equations applicable?": what is said of the subject comes
        # last, and a yes over a sentence without it answers another question ("Yes, there are
        # current prediction equations for basal metabolic rate in Chinese", PubMedQA 20488985,
        # the real 1.5B model; the study found them not applicable to Chinese adults).
        # Only where the statement ends with it: not "the GIL gone in Python 3.14", whose last
        # words are a place, nor a predicate said in another form (satisfying / satisfactory).
        words = _EN_WORD.findall(statement.lower())
        last = [t.text for t in terms(statement)]
        if len(last) >= 2 and not _PREPOSITIONS & set(words[-3:]) \
                and not any(_same_stem(last[-1], other) for other in said):
            return True
    if len(asked) < _TERMS_TO_TELL:
        return False
    return len(asked & said) * 3 < len(asked) * 2


# A question put with a copula ("Is/Are … <what is said of it>?"), whose last word says it.
_PUT_WITH_A_COPULA = re.compile(r"^\W*(?:is|are|was|were)\b", re.IGNORECASE)
_PREPOSITIONS = frozenset("in on at for of to with by from during after before among than between into over under "
                          "within without across against".split())


def _same_stem(a: str, b: str) -> bool:
    """Two stems of one word in other forms: satisfi / satisfactori share their first five letters."""
    return a == b or (len(a) >= 5 and len(b) >= 5 and a[:5] == b[:5])


_TERMS_TO_TELL = 4  # a shorter proposition ("Is closed reduction satisfying?") is not judged so

"""A sentence that points back at the one before it ("The GIL is disabled in this build") made
to name what it points at ("…in the free-threaded build") before it is checked.

The answer is assembled sentence by sentence from the verdicts: a sentence can be taken out
(contradicted, off topic, citing nothing) while the next one stays. Qwen2.5-Coder-1.5B's GIL
answer (issue 44) kept "The GIL is disabled in this build, allowing threads to run Python code in
parallel [S1]" after its "The free-threaded build … is the default build" was taken out and the
page's "The standard build of Python 3.14 still has the GIL enabled by default" put in its place:
"this build" then read as the standard build. Named first, the sentence says the same wherever
it stands, and what is checked is what a reader reads. A wrong naming is checked like any other
sentence, so it can only be taken out, never pass for what the writer meant.

English only, and only where the sentence before names exactly one thing of that noun ("the
free-threaded build"; not a predicate: "…is the default build" names no build).
"""

from __future__ import annotations

import re

# A Japanese sentence's topic: the words before its first は (not では, には, とは, nor または's) at its start
# (「富士山は…」); how the checks read a claim's and verification and the answer a source sentence's.
# A topic's は: not the は of では, には, とは or または, nor that of はず.
TOPIC_WA_JA = re.compile(r"(?<![でにと])(?<!また)は(?!ず)")
TOPIC_JA = re.compile(r"^(?P<topic>[^、。「」]{1,30}?)" + TOPIC_WA_JA.pattern)

# Not "that": mostly a conjunction or a relative ("found that the bag…", "a mechanism that is used").
_DEMONSTRATIVE = re.compile(r"\b(?P<which>this|these|those)\s+(?P<noun>[a-z][a-z-]{2,})\b", re.IGNORECASE)
# "This is necessary", "This means…": the word after "this" is a verb, and "this" the whole
# statement before, which no noun phrase names.
_NOT_A_NOUN = frozenset("""
is are was were be been has have had can could will would may might must should shall does did not also all
means meant makes made showed shown suggests suggested indicates indicated allows allowed led
resulted requires required includes included helps helped gives gave provides provided ensures ensured
caused explains explained reflects reflected implies implied supported confirms confirmed demonstrates
demonstrated highlights highlighted happens happened occurs occurred applies applied depends depended seems
seemed appears appeared remains remained becomes became could one ones way same kind type
""".split())
# What comes right before a predicate noun phrase: "is the default build" says what a thing is.
_COPULA_BEFORE = re.compile(r"\b(?:is|are|was|were|be|been|being|becomes?|became|remains?|remained)\s+"
                            r"(?:(?:now|still|not|also|no longer|already)\s+)*$", re.IGNORECASE)
# A modifier run that holds one of these is not one noun phrase ("the build of the standard").
_NOT_A_MODIFIER = re.compile(r"\b(?:the|a|an|this|that|these|those|of|and|or|in|on|with|for|to|by|from|as|at|is|are|"
                             r"was|were|be|it|its|they|their|during|after|before|about|between|over|under|into|"
                             r"through|than|which|who|when|where|while|not|no)\b", re.IGNORECASE)


def named_reference(sentence: str, before: str) -> str | None:
    """``sentence`` with its first "this/these/those <noun>" replaced by the one noun phrase
    of that noun ``before`` names ("the free-threaded build"); None when it has no such word or
    ``before`` names none, or more than one, of that noun."""
    match = _DEMONSTRATIVE.search(sentence)
    if match is None:
        return None
    noun = match.group("noun")
    if noun.lower() in _NOT_A_NOUN:
        return None
    names: set[str] = set()
    for found in re.finditer(rf"\b(?:the|an?)\s+(?P<mods>(?:[\w.-]+\s+){{1,3}}?){re.escape(noun)}\b", before,
                             re.IGNORECASE):
        mods = found.group("mods").strip()
        if _COPULA_BEFORE.search(before[:found.start()]) or _NOT_A_MODIFIER.search(mods):
            continue
        names.add(found.group(0).split(None, 1)[1])  # as written there: "Dutch Garden Restaurant"
    if len({name.lower() for name in names}) != 1:
        return None
    article = "The" if not sentence[:match.start()].strip() else "the"
    return f"{sentence[:match.start()]}{article} {names.pop()}{sentence[match.end():]}"


# A sentence whose subject is the one before it: "This allows threads to …", "It was accepted in
# 2023", "Such builds …", 「これにより…」, 「その後…」, 「同日行われた…」 (the day the sentence before gave:
# the real 1.5B model's JSQuAD a14985p77q2 answer).
_OPENS_POINTING_BACK = re.compile(
    r"^\W*(?:this|that|these|those|it|its|they|their|he|she|his|her|him|such|the latter|the former)\b"
    # 「彼は…」, 「彼女らの…」: a person the sentence before named (not 彼岸).
    r"|^\W*彼(?:女)?(?:ら)?(?=[はがのもをにと、])"
    # "The remaining 13 performed normally …": the rest of a group the sentence before it counted (PubMedQA
    # 9854965, the real 1.5B model's Summary led with it, its sentence on the 18 patients not checked).
    r"|^\W*the\s+(?:remaining|other|rest)\b(?!\s+(?:hand|side|way|day|week|year|time)\b)"
    r"|^\W*(?:残り|残る|他の|ほかの)\d"
    r"|^\W*(?:(?:また|さらに|そして|なお|しかし|一方)[、,]?\s*)?(?:これ|それ|この|その|これら|それら|こうした|そうした"
    r"|同(?:社|氏|年|様|日|月|時期|党|国|市|町|村|県|州|校|大学|書|紙|誌|局|作|曲|番組|政権|選挙|グループ|協会|団体|組織|機構"
    r"|委員会|チーム|法|条約|事件|会議|大会)|前者|後者)", re.IGNORECASE)


def opens_pointing_back(sentence: str) -> bool:
    """Whether ``sentence`` opens with a word that stands for what the sentence before it said
    or named, so that it reads right only after that sentence (English and Japanese); also after
    a connective: "However, this …", 「また同年、山本宣治は…刺殺された」 (the real 1.5B model's JSQuAD
    answer, whose year the sentence before it gave)."""
    return bool(_OPENS_POINTING_BACK.match(sentence) or _OPENS_POINTING_BACK.match(without_leading_connective(sentence)))


# A bare これ/それ (これら/それら) as an argument in a Japanese sentence's first clause, not only as its first
# word: 「日本はこれに批准している」 says its words of what the sentence before it named (the real 1.5B model's
# JSQuAD answer, whose sentence before, the convention's number in it, was taken out). After a clause of its own
# sentence it may point at that clause: 「…新設が進み、それに伴い学生数も増加した」, 「…うまくいっていなかったようで、
# それが原因なのか…」. Not これまで/これから/それぞれ/これほど (no particle follows), nor あれこれ (various things).
_POINTER_ARGUMENT_JA = re.compile(r"(?<!あれ)(?:これ|それ)ら?(?=[にをがはとでへもの])")
_CLAUSE_END_JA = re.compile(r"[、，,]")


def points_back_within_ja(sentence: str) -> bool:
    """Whether a Japanese ``sentence``'s first clause has これ or それ as one of its arguments: it reads
    right only after the sentence that says what that is."""
    return bool(_POINTER_ARGUMENT_JA.search(_CLAUSE_END_JA.split(sentence, 1)[0]))


# What only the sentence before it gives: its date ("That year, …", "The following year …", 「同年」,
# 「翌年」, 「その後」) or its pair ("The latter …", 「後者は…」, 「前者は…」). Read after an opening
# connective too («また同年、…»).
_RESTS_ON_THE_ONE_BEFORE = re.compile(
    r"^\W*(?:(?:later|earlier|early|in|on|by|during)\s+)?(?:that|the same|the following|the next|the previous)\s+"
    r"(?:year|month|day|week|decade|spring|summer|autumn|fall|winter)\b"
    r"|^\W*the\s+(?:former|latter)\b"
    r"|^\W*(?:(?:また|さらに|そして|なお|しかし|一方)[、,]?\s*)?(?:同(?:年|月|日|時期|年度)|翌(?:年|月|日|年度)|前年"
    r"|その(?:後|年|日|月|翌年|前年)|同じ(?:年|日|月)|前者|後者)",
    re.IGNORECASE)


def rests_on_the_sentence_before(sentence: str) -> bool:
    """Whether ``sentence`` opens with what only the sentence before it gives, a date or one of a
    pair: after another sentence it says its words of that one's."""
    return any(_RESTS_ON_THE_ONE_BEFORE.match(text) for text in (sentence, without_leading_connective(sentence)))


# A connective that opens a sentence: "However,", 「しかし、」.
_LEADING_CONNECTIVE = re.compile(
    r"^(?P<lead>\s*(?:[-*]\s+)?)(?:(?:However|But|Yet|Also|Additionally|Moreover|Furthermore|In addition|Therefore|"
    r"Thus|Hence|So|Instead|Nevertheless|Still|That said|On the other hand|For example|For instance|In particular|"
    r"(?:More )?Specifically|Notably|Similarly|Likewise)"
    r"\s*,?\s+(?=[A-Za-z0-9\"“(])"
    r"|(?:しかし|しかしながら|ただし|また|さらに|そのため|したがって|一方で?|でも|なお|ところが|例えば|たとえば|特に|具体的には"
    r"|次いで|続いて|加えて|そして)"
    r"[、,]\s*)")


def without_leading_connective(text: str) -> str:
    """``text`` without an opening "However," / 「しかし、」: said of a sentence the answer no longer holds."""
    match = _LEADING_CONNECTIVE.match(text)
    if match is None:
        return text
    rest = text[match.end():]
    return match.group("lead") + (rest[:1].upper() + rest[1:] if rest[:1].isascii() else rest)


# A connective that adds a statement or gives an example, and says nothing a page must hold: "For
# example, a study … found that …", "Also, …". Not "Therefore" or "However": a link of cause or of
# contrast is part of what a sentence claims.
_ADDING = re.compile(r"^\s*(?:also|additionally|moreover|furthermore|in addition|for example|for instance|in particular"
                     r"|(?:more )?specifically|notably)"
                     r"\s*,?\s+(?=[A-Za-z0-9\"“(])", re.IGNORECASE)


def without_adding_connective(text: str) -> str:
    """``text`` without an opening "For example," or "Also,", as it is checked."""
    match = _ADDING.match(text)
    return text if match is None else text[match.end():]

"""A statement and its negation, a status and its opposite: read clause by clause.

"The free-threaded build is now the default build" and "…though it is still not the default
build" share every word but "not": overlap cannot tell them apart, and a small judge reading
both says "supported". Here the claim's clauses are lined up with the passage's clauses that
say the same thing about the same subject, and three differences decide against the claim:

- **polarity**: the aligned clauses hold the same status word or say the same thing, and one
  of them is negated (not, never, no longer, still not, isn't; 〜ない, 〜ではない, 〜していない);
- **status**: the aligned clause gives the same subject another status of one exclusive set
  (experimental / stable / default; deprecated / recommended; optional / required; removed);
- **opposite**: the passage sentence is the claim word for word but for one word, which is its
  opposite (increased / decreased, before / after, raised / lowered; 増加 / 減少): an opposite in
  another clause of a longer sentence is left to ``structure`` and the judge ("rose in May, fell
  in June").

Only what the alignment makes sure of is decided: the passage sentence must hold most of the
claim's key terms, and the clause with the status word must share one of the claim clause's
own words (or open with a pronoun that refers to the sentence's subject). Everything else is
left to the other checks and the judge. Measured on RAGTruth train and ja-nli dev
(docs/benchmarks.md).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

import difflib

from research.modules.core.language import Language
from research.modules.text.analyser import stem, terms, written_words
from research.modules.text.claims import sentence_spans
from research.modules.text.structure import REPORTED_BY_A_STUDY_EN, SPELT_OUT_EN, contrasting, leaves_the_question_open

# --- status words: (name, pattern) in each language; a name is one status ---------------------------

_STATUS_EN: tuple[tuple[str, re.Pattern[str]], ...] = tuple((name, re.compile(pattern, re.IGNORECASE)) for name, pattern in (
    ("default", r"\b(?:the|a|by|as)\s+default\b|\bdefault\s+(?:build|setting|option|mode|behaviou?r|value|version|engine|backend|choice)\b"),
    ("optional", r"\boptional(?:ly)?\b"),
    ("experimental", r"\b(?:experimental(?:ly)?|provisional|in preview|a preview|beta|alpha)\b"),
    ("stable", r"\b(?:stable|officially supported|fully supported|production[- ]ready|generally available)\b"),
    ("deprecated", r"\bdeprecat(?:ed|es|ion)\b"),
    ("recommended", r"\brecommended\b"),
    ("removed", r"\b(?:removed|removing|gone|eliminated|eliminating|abolished|discontinued)\b"),
    ("required", r"\b(?:required|mandatory|compulsory|obligatory)\b"),
    ("enabled", r"\b(?:enabled|turned on|switched on)\b"),
    ("disabled", r"\b(?:disabled|turned off|switched off)\b"),
))
_STATUS_JA: tuple[tuple[str, re.Pattern[str]], ...] = tuple((name, re.compile(pattern)) for name, pattern in (
    ("default", r"既定|デフォルト|標準(?:の|で|ビルド|設定)"),
    ("optional", r"任意|オプション"),
    ("experimental", r"実験的|試験的|試験運用|プレビュー|ベータ"),
    ("stable", r"正式(?:に|な|サポート|対応|版)|安定版"),
    ("deprecated", r"非推奨"),
    ("recommended", r"(?<!非)推奨"),
    # 「GILはなくなった」 (it is gone): the verb itself, not a verb's negative (できなくなった, 少なくなった).
    ("removed", r"廃止|削除|撤廃|(?:(?<=[はがも、])|^)(?:なく|無く)な[っりるれろ]"),
    ("required", r"必須|義務"),
    ("enabled", r"有効"),
    ("disabled", r"無効"),
))
# Statuses one thing cannot have at once (in one version, one release).
_EXCLUSIVE = {
    frozenset({"experimental", "stable"}), frozenset({"experimental", "default"}),
    frozenset({"deprecated", "recommended"}), frozenset({"deprecated", "stable"}),
    frozenset({"optional", "required"}), frozenset({"removed", "default"}), frozenset({"removed", "required"}),
    frozenset({"removed", "stable"}), frozenset({"enabled", "disabled"}), frozenset({"removed", "enabled"}),
    # Made optional is kept: "suggests removing the GIL" against "proposes making the GIL optional"
    # (the real 1.5B model's PEP 703 answer).
    frozenset({"removed", "optional"}),
}

# --- negation, by clause ------------------------------------------------------------------------

# "not only", "no more than" and their kind do not deny what follows them; nor does a "not" before
# a word that denies already ("didn't go unnoticed by Google, who've changed the doodle", "it is
# not uncommon for it to register 110 to 140 degrees": RAGTruth train), which affirms. Not "not
# unique" or "not under": only the un- words that are denials themselves.
NOT_A_DENIAL_EN = re.compile(
    r"\b(?:not only|not just|not merely|not simply|no less than|no more than|no fewer than|not least|nothing but|"
    r"no doubt|not until|whether or not|if not|not to mention|no matter)\b"
    r"|(?:\b(?:not|never)|n['’]t)\s+(?:(?:go|goes|went|gone|going|be|been|being|is|was|are|were|remain|remains|"
    r"remained)\s+)?un(?:noticed|answered|heard|known|common|usual|like|likely|related|reasonable|important|"
    r"expected|aware|familiar|welcome|challenged|opposed|rewarded|punished|deserved|appreciated)\b", re.IGNORECASE)
_NEGATION_EN = re.compile(
    r"\b(?:not|never|no longer|neither|nor|cannot|none)\b|n['’]t\b|\bno\s+(?!\d)", re.IGNORECASE)
# 〜ない / 〜ません / 〜ず / 〜ではない; 未〜 before a status or a verb noun (未対応, 未実装).
_NEGATION_JA = re.compile(r"(?<!少)(?<!危)ない|なかっ|ません|(?<!かかわら)(?<!関わら)ず[、。にも]|ではな|じゃな|未(?:対応|実装|定|導入|採用|サポート)")
# 「AないしB」 joins two nouns ("A or B", "from A to B"): «地域で結集する支部は「居住支部」ないし「地域支部」» denies nothing
# (JSQuAD, `research bench jsquad --seed 146`: the page's own sentence about 学園支部, the real 1.5B model's, was held
# back as a denial). After a closing quote or bracket, two kanji, katakana or a figure: not a verb's 〜ないし
# («雨も降らないし», 「出来ないし」).
NOT_A_DENIAL_JA = re.compile(r"だけでなく|のみならず|に限らず|かもしれない|に(?:違|ちが)いない|ではないか|しかない|ほかない|少ない|危ない"
                             r"|(?:(?<=[」』）)])|(?<=[\u30a0-\u30ff0-9０-９])|(?<!出来)(?<=[\u4e00-\u9fff]{2}))ないし")

_CLAUSE_BREAK_EN = re.compile(r"\s*;\s*|,?\s+(?=(?:but|though|although|whereas|while|yet|however|even though)\b)",
                              re.IGNORECASE)
# Without a status word the negation must sit in the very clause that says the claim: a
# sentence is cut at every comma and conjunction too ("…, and qualified distributions are not
# taxed" says nothing of the assets), and only a plain "not" / "never" / "no longer" counts (a
# "no" is mostly a quantifier: "no prior warning").
_PHRASE_BREAK_EN = re.compile(r"\s*[,;:()]\s*|\s+(?=(?:and|but|though|although|whereas|while|yet|if|when|unless|because|so|until|before|after|which|who)\b)",
                              re.IGNORECASE)
_PLAIN_NEGATION_EN = re.compile(r"\b(?:not|never|no longer|cannot)\b|n['’]t\b", re.IGNORECASE)
# A noun's copula joining the next clause ends one too: in 「最後の噴火は1707年の宝永噴火で、それ以降富士山は噴火していません」
# the denial is the second clause's (「富士山の最後の噴火は1707年の宝永噴火です」 was contradicted by it: the eight
# questions with the real 1.5B model, bench_answers.py --ollama).
_CLAUSE_BREAK_JA = re.compile(r"(?<=が)、|(?<=けれど)、?|(?<=けれども)、?|(?<=ものの)、?|(?<=一方)、?|(?<=しかし)、?|(?<=[。；])"
                              r"|(?<=[\u4e00-\u9fff\u30a0-\u30ffー]で)、|(?<=であり)、")
_PRONOUN_START_EN = re.compile(r"^\W*(?:but|though|although|whereas|while|yet|however|even though)?\s*"
                               r"(?:it|they|this|these|that|those|which|he|she)\b", re.IGNORECASE)

# The passage sentence must hold this share of the claim's key terms: it speaks of the same thing.
_SENTENCE_ALIGNED = 0.6
# Without a status word, a clause must hold this share of the claim clause's words (and at least
# ``_MIN_SHARED`` of them) for its negation to decide.
_CLAUSE_ALIGNED = 0.85
_MIN_SHARED = 3


@dataclass(frozen=True)
class Conflict:
    kind: str  # "negation" | "status"
    detail: str  # the status words or the negated words, for the reason shown
    quote: str  # the passage sentence that decides it


def status_names(text: str, language: Language) -> set[str]:
    """The statuses ``text`` gives (default, experimental, removed …), by name: the same names in
    both languages."""
    table = _STATUS_JA if language == "ja" else _STATUS_EN
    return {name for name, pattern in table if pattern.search(text)}


def negated(clause: str, language: Language) -> bool:
    """Whether ``clause`` denies what it says (idioms such as "not only" and 「だけでなく」 aside)."""
    if language == "ja":
        return bool(_NEGATION_JA.search(NOT_A_DENIAL_JA.sub(" ", clause)))
    return bool(_NEGATION_EN.search(NOT_A_DENIAL_EN.sub(" ", clause)))


def _clauses(sentence: str, language: Language) -> list[str]:
    pattern = _CLAUSE_BREAK_JA if language == "ja" else _CLAUSE_BREAK_EN
    return [c for c in (part.strip() for part in pattern.split(sentence)) if c]


# Years, versions and counts as written: a sentence about Python 3.13 says nothing of 3.14.
# A figure as written ("3.14", "3,776"): what the alignment requires of both sides (questions.py too).
FIGURE = re.compile(r"\d+(?:[.,]\d+)*")


def _words(text: str) -> frozenset[str]:
    return frozenset(t.text for t in terms(text))


def _key(text: str) -> frozenset[str]:
    return frozenset(t.text for t in terms(text) if t.key)


STATUS_TERMS = frozenset({"default", "option", "experiment", "provision", "preview", "beta", "alpha", "stabl", "stable",
                           "offici", "support", "deprec", "recommend", "remov", "gone", "elimin", "abolish", "discontinu",
                           "requir", "mandatori", "still", "now", "longer", "never", "full", "fulli", "product", "readi",
                           "既定", "デフォルト", "標準", "任意", "オプション", "実験", "試験", "正式", "安定", "推奨", "非",
                           "廃止", "削除", "撤廃", "必須", "無い", "未だ", "まだ", "今", "現在", "enabl", "disabl", "turn", "switch",
                           "有効", "無効"})


def _content(text: str) -> frozenset[str]:
    """The words of ``text`` that say what it is about: not its status or polarity words."""
    return frozenset(w for w in _words(text) if w not in STATUS_TERMS)


# Where an English sentence joins a second statement to its first: ", and it has the GIL
# disabled", "; they were …". What follows must be a clause of its own: it opens with a pronoun,
# or holds a verb of being or having (a list's last item, ", and Z", holds neither).
_CONJOINED_EN = re.compile(r"\s*;\s*(?:and\s+)?|,\s+and\s+|\s+and\s+(?=(?:it|they)\b)"
                           r"|\s+and\s+(?=(?:is|are|was|were|has|have|does|do|did|remains|became)\b)", re.IGNORECASE)
_FINITE_EN = re.compile(r"\b(?:is|are|was|were|has|have|had|became|becomes|remains|remained|will|would|can|could|does|"
                        r"do|did|should|must|may|might)\b", re.IGNORECASE)
_PRONOUN_SUBJECT_EN = re.compile(r"^(?:it|they)\b\s*", re.IGNORECASE)
# A relative clause set off by commas inside a subject ("The build, which was introduced in 3.14, is …").
_RELATIVE_CLAUSE_EN = re.compile(r",\s*(?:which|who|that)\b[^,]*,", re.IGNORECASE)
# A non-restrictive relative clause that ends the sentence (", which disables the GIL by default.").
_TRAILING_RELATIVE_EN = re.compile(r",\s*(?:which|who)\b[^,;]*?(?=[.!?]?\s*$)", re.IGNORECASE)


# Japanese joins statements with a verb's or the copula's continuative form and a comma
# (「…既定のビルドで、スレッドが…」, 「…になり、…」, 「…し、…」); a contrast (〜が、) is a clause break
# of its own (``_CLAUSE_BREAK_JA``).
_CONJOINED_JA = re.compile(r"(?<=[でりしてく])、")
# The topic a Japanese sentence opens with: its first 「…は」, short and unbroken.
_TOPIC_JA = re.compile(r"^[^、。]{1,30}?は(?!ず)")


def conjoined_statements(claim: str, language: Language = "en") -> list[str]:
    """A claim that joins statements ("The free-threaded build of Python 3.14 is the default
    build, and it has the GIL disabled"; 「フリースレッド版は既定のビルドで、スレッドが…」), as
    statements of their own, a pronoun that opens one given the first statement's subject ("The
    free-threaded build of Python 3.14 has the GIL disabled"), a Japanese statement without a
    topic of its own given the first one's; [] when it joins none, or when a subject cannot be told."""
    if language == "ja":
        return _conjoined_statements_ja(claim)
    parts = [p.strip() for p in _CONJOINED_EN.split(claim) if p and p.strip()]
    if len(parts) < 2:
        return []
    main = _RELATIVE_CLAUSE_EN.sub("", parts[0])
    first_verb = _FINITE_EN.search(main)
    subject = main[:first_verb.start()].strip() if first_verb else ""
    statements = [parts[0]]
    for part in parts[1:]:
        if _PRONOUN_SUBJECT_EN.match(part) or _FINITE_EN.match(part):
            # "…, and it has …" and "… and does not have …": the first statement's subject is theirs.
            if not subject:
                return []
            part = subject + " " + _PRONOUN_SUBJECT_EN.sub("", part, count=1)
        elif not _FINITE_EN.search(part):
            statements[-1] += ", and " + part  # a list's last item, not a statement
            continue
        statements.append(part)
    return statements if len(statements) > 1 else []


def _conjoined_statements_ja(claim: str) -> list[str]:
    parts = [p.strip() for p in _CONJOINED_JA.split(claim) if p and p.strip()]
    topic = _TOPIC_JA.match(parts[0]) if len(parts) > 1 else None
    if topic is None:
        return []
    return [parts[0], *(part if _TOPIC_JA.match(part) else topic.group(0) + part for part in parts[1:])]


def clause_conflict(claim: str, passage: str, language: Language) -> Conflict | None:
    """The passage sentence that denies the claim, or gives its subject another status, clause by
    clause; None when none does (or the alignment is not sure). A claim that joins two
    statements is read as each of them too, for a status word: "X is the default build, and it
    has the GIL disabled" is denied by "…though it is still not the default build", which lines
    up with its first statement and not with the whole (the real 1.5B model's GIL answer, issue 44)."""
    conflict = _whole_claim_conflict(claim, passage, language)
    if conflict is None:
        denied = conjoined_conflict(claim, passage, language)
        conflict = denied[1] if denied else None
    return conflict


def conjoined_conflict(claim: str, passage: str, language: Language) -> tuple[str, Conflict] | None:
    """(the statement, the conflict) where the passage denies one of the statements an English
    claim joins (``conjoined_statements``), or gives its subject another status. Only a status
    word's: a plain "not" read this way was wrong 4 times of 5 on RAGTruth train ("no more than
    8 inches", "refusal to include", a question); in Japanese a plain denial is the clause's own
    (〜ない), which ``_whole_claim_conflict`` reads already."""
    for statement in conjoined_statements(claim, language) or _main_clause_alone(claim, language):
        if status_names(statement, language):
            conflict = _whole_claim_conflict(statement, passage, language)
            if conflict is not None and conflict.detail != "not":
                return statement, conflict
    return None


def _main_clause_alone(claim: str, language: Language) -> list[str]:
    """An English claim that ends in a non-restrictive relative clause, as its main clause alone:
    "Python 3.14 ships an experimental free-threaded build, which disables the GIL by default"
    (the real 1.5B model's GIL answer) is read as "Python 3.14 ships an experimental free-threaded
    build." too: its status word is the main clause's, and the clause about the build hid it from
    the alignment (supported, against «…became officially supported in Python 3.14»)."""
    if language == "ja":
        return []
    main = _TRAILING_RELATIVE_EN.sub("", claim)
    return [main] if main != claim else []


# An acronym with its words spelled out beside it: "the Global Interpreter Lock (GIL)", "GIL (global
# interpreter lock)"; the words are the ones whose initials spell it.
_ACRONYM_AFTER = re.compile(r"\(([A-Z]{2,6})\)")
_ACRONYM_BEFORE = re.compile(r"\b([A-Z]{2,6})\s*\(([A-Za-z][A-Za-z\s-]{2,60})\)")


def _initials(words: list[str]) -> str:
    return "".join(word[0] for word in words).upper()


def _acronyms_as_written(claim: str, sentence: str) -> str:
    """``claim`` without the spelled-out words of an acronym the sentence uses alone: "Python 3.14
    has removed the Global Interpreter Lock (GIL)" is read against "… still has the GIL enabled"
    as "Python 3.14 has removed the GIL" (the real 1.5B model's translation of 「GILはなくなりました」)."""
    def used(acronym: str) -> bool:
        return re.search(rf"\b{acronym}\b", sentence) is not None

    for match in reversed(list(_ACRONYM_AFTER.finditer(claim))):
        acronym = match.group(1)
        before = claim[: match.start()].rstrip()
        words = before.split()[-len(acronym):]
        if used(acronym) and len(words) == len(acronym) and _initials(words) == acronym:
            cut = len(before) - len(" ".join(words))
            claim = claim[:cut] + acronym + claim[match.end():]
    for match in reversed(list(_ACRONYM_BEFORE.finditer(claim))):
        acronym, words = match.group(1), match.group(2).split()
        if used(acronym) and _initials(words) == acronym:
            claim = claim[: match.start()] + acronym + claim[match.end():]
    return claim


@dataclass(frozen=True)
class _ClaimReading:
    """What the alignment reads of a claim: its key terms, clauses and figures (read once a claim)."""

    key: frozenset[str]
    clauses: list[str]
    figures: set[str]


def _whole_claim_conflict(claim: str, passage: str, language: Language) -> Conflict | None:
    if not _key(claim) - STATUS_TERMS and not _content(claim):
        return None
    readings: dict[str, _ClaimReading] = {}  # the claim as read against each sentence: mostly one text
    for start, end in sentence_spans(passage):
        sentence = passage[start:end]
        said = _acronyms_as_written(claim, sentence)
        if said not in readings:
            readings[said] = _ClaimReading(_key(said) - STATUS_TERMS or _content(said), _clauses(said, language),
                                           set(FIGURE.findall(said)))
        conflict = _sentence_conflict(readings[said], passage, sentence, language)
        if conflict is not None:
            return conflict
    return None


def _sentence_conflict(claim: _ClaimReading, passage: str, sentence: str, language: Language) -> Conflict | None:
    """The conflict of one passage ``sentence`` with the claim, where they line up (see
    ``clause_conflict``)."""
    claim_key, claim_clauses, figures = claim.key, claim.clauses, claim.figures
    sentence_words = _words(sentence)
    if len(claim_key & sentence_words) < max(1, _SENTENCE_ALIGNED * len(claim_key)):
        return None
    if not figures <= set(FIGURE.findall(sentence)):
        return None  # another year or version: another thing's status
    passage_clauses = _clauses(sentence, language)
    for said in claim_clauses:
        missing = (_key(said) - STATUS_TERMS) - sentence_words
        if language != "ja" and missing and not _named_more_closely(said, sentence, missing):
            # A name of the claim's clause the sentence lacks: another subject ("the
            # free-threaded build … does not have the GIL enabled" against "the standard
            # build … still has the GIL enabled"), whatever the words they share.
            continue
        conflict = _clause_against(said, passage_clauses, sentence, language)
        if conflict is not None and not _affirmed_elsewhere(said, passage, sentence, language):
            return conflict
    return None


def _subject_en(text: str) -> frozenset[str]:
    """The content words before an English clause's first finite verb: what it is about."""
    verb = _FINITE_EN.search(text)
    return _content(text[: verb.start()]) if verb else frozenset()


def _named_more_closely(said: str, sentence: str, missing: frozenset[str]) -> bool:
    """Whether the claim's clause names the sentence's own subject, one name more closely: "The
    free-threaded CPython build introduced in Python 3.14 is the default build" (the real 1.5B
    model, the GIL question at fb185cd) and "The free-threaded build became officially supported
    in Python 3.14, though it is still not the default build" speak of one build. Not when the
    sentence's subject has a word the claim's lacks: "the standard build" is another build than
    "the free-threaded build"."""
    theirs = _subject_en(sentence)
    return len(missing) == 1 and len(theirs) >= 2 and theirs <= _subject_en(said)


# What follows from what a clause says: "…, so threads can run …", "…, allowing threads to run …".
_CONSEQUENCE_EN = re.compile(r",\s+(?:so|so that|thus|therefore|hence|allowing|which allows|which lets|letting|enabling)"
                             r"\s+", re.IGNORECASE)


def has_statements_to_read_apart(claim: str, language: Language) -> bool:
    """Whether ``conjoined_conflict`` or ``consequence_conflict`` could find anything for
    ``claim``: a joined statement with a status word, or a consequence after a premise with one.
    Asked once per claim before either is tried against every sentence of its sources."""
    if any(status_names(statement, language)
           for statement in conjoined_statements(claim, language) or _main_clause_alone(claim, language)):
        return True
    parts = _CONSEQUENCE_EN.split(claim, maxsplit=1) if language != "ja" else []
    return len(parts) == 2 and bool(status_names(parts[0], language))


def consequence_conflict(claim: str, passage: str, language: Language) -> Conflict | None:
    """The passage sentence that gives the claim's consequence from the opposite premise: "The
    standard build … still has the GIL enabled by default, so threads can run Python code in
    parallel …" (the real 1.5B model, the GIL question at e633b52) against "In the free-threaded
    build the GIL is disabled, so threads can run Python code in parallel …": the same consequence,
    from the GIL disabled, not enabled. English only; a status of one exclusive set, or a denial."""
    if language == "ja":
        return None
    parts = _CONSEQUENCE_EN.split(claim, maxsplit=1)
    if len(parts) != 2:
        return None
    premise, consequence = parts
    premise_statuses, premise_content = status_names(_asserted(premise, language), language), _content(premise)
    consequence_content = _content(consequence)
    if not premise_statuses or len(consequence_content) < _MIN_SHARED:
        return None
    for start, end in sentence_spans(passage):
        sentence = passage[start:end]
        theirs = _CONSEQUENCE_EN.split(sentence, maxsplit=1)
        if len(theirs) != 2:
            continue
        their_premise, their_consequence = theirs
        if len(consequence_content & _content(their_consequence)) < _CLAUSE_ALIGNED * len(consequence_content):
            continue
        if not premise_content & _content(their_premise):
            continue  # a premise about something else altogether
        their_statuses = status_names(their_premise, language)
        opposed = next((f"{mine}/{other}" for mine in sorted(premise_statuses) for other in sorted(their_statuses)
                        if frozenset({mine, other}) in _EXCLUSIVE), None)
        if opposed is not None and not (premise_statuses & their_statuses):
            return Conflict("status", opposed, sentence.strip())
    return None


def _affirmed_elsewhere(said: str, passage: str, denying: str, language: Language) -> bool:
    """Another clause of the passage says what the claim's clause says, with its status and its
    polarity, about at least as much of the same thing: "The standard build still has the GIL
    enabled by default" is not denied by "…though it [the free-threaded build] is still not the
    default build" when the passage also says the first word for word."""
    statuses, said_negated, said_content = status_names(said, language), negated(said, language), _content(said)
    against = max((len(said_content & _content(c)) for c in _clauses(denying, language)), default=0)
    figures = set(FIGURE.findall(said))
    for start, end in sentence_spans(passage):
        if not figures <= set(FIGURE.findall(passage[start:end])):
            continue  # what it says of Python 3.13 affirms nothing of 3.14
        for clause in _clauses(passage[start:end], language):
            if negated(clause, language) != said_negated:
                continue
            if statuses and not statuses <= status_names(clause, language):
                continue
            if len(said_content & _content(clause)) >= max(1, against) and len(said_content & _content(clause)) \
                    >= _CLAUSE_ALIGNED * len(said_content):
                return True
    return False


def affirms(claim: str, sentence: str, language: Language) -> bool:
    """Whether a clause of ``sentence`` says what ``claim`` says, with its polarity and every status
    word of it, about the same thing ("the free-threaded build the default build" in "The
    free-threaded build is now the default build"): the alignment of ``clause_conflict``, the
    other way."""
    statuses, claim_negated, content = status_names(claim, language), negated(claim, language), _content(claim)
    if len(content) < 2 or not set(FIGURE.findall(claim)) <= set(FIGURE.findall(sentence)):
        return False
    if language != "ja" and not (_key(claim) - STATUS_TERMS) <= _words(sentence):
        return False
    for clause in _clauses(sentence, language) if statuses else phrases_of(sentence, language):
        if negated(clause, language) != claim_negated or not statuses <= status_names(clause, language):
            continue
        if len(content & _content(clause)) >= _CLAUSE_ALIGNED * len(content):
            return True
    return False


def _refers_back(clause: str, language: Language) -> bool:
    """An English clause that opens with a pronoun ("though it is still not…") speaks of its
    sentence's subject; a Japanese clause after が、 usually has its subject left out."""
    return language == "ja" or bool(_PRONOUN_START_EN.match(clause))


# A condition or a supposition: what it says of a status is not asserted ("When the GIL is enabled,
# only one thread …", "… than if the GIL were disabled, …").
_CONDITION_EN = re.compile(r"^\W*(?:when|whenever|if|unless|once|as long as|provided(?: that)?)\b[^,;]*(?:,|$)"
                           r"|\b(?:than |as )?if\b[^,;.]*\bwere\b[^,;.]*", re.IGNORECASE)


def _asserted(clause: str, language: Language) -> str:
    """``clause`` without the conditions and suppositions it states nothing of (English)."""
    return clause if language == "ja" else _CONDITION_EN.sub(" ", clause)


def _clause_against(said: str, clauses: list[str], sentence: str, language: Language) -> Conflict | None:
    # The real 1.5B model on the GIL question: "When the GIL is enabled, only one thread can execute
    # Python bytecode at a time, …" was contradicted by "In the free-threaded build the GIL is disabled".
    said_statuses = status_names(_asserted(said, language), language)
    said_content = _content(said)
    said_negated = negated(said, language)
    for clause in clauses:
        shared = said_content & _content(clause)
        theirs = status_names(clause, language)
        if said_statuses:
            if not (shared or _refers_back(clause, language)):
                continue
            # The same status said and denied: "is now the default" / "is still not the default". Each
            # side's denial read from the phrase that gives the status: "was recommended by our server
            # and did not disappoint" does not deny "recommended" (RAGTruth train, a clean answer).
            common = {status for status in said_statuses & theirs
                      if _status_denied(clause, status, language) != _status_denied(said, status, language)}
            if common and _denied_elsewhere(said, clauses, common, said_negated, language):
                return Conflict("negation", "/".join(sorted(common)), sentence.strip())
            if not negated(clause, language):
                in_sentence = status_names(sentence, language)
                # Each status of the claim the sentence does not also give: "the GIL disabled by
                # default" against "still has the GIL enabled by default" shares "default", and
                # disabled/enabled still exclude each other (a false claim was supported so). A
                # status is said as its own phrase says it: in "…ships an experimental build,
                # which is not the default build" only "default" is denied (the real 1.5B
                # model's GIL answer at d4cf93f, against "…became officially supported in 3.14").
                for mine in sorted(said_statuses - in_sentence):
                    if _status_denied(said, mine, language):
                        continue
                    other = next((s for s in sorted(theirs) if frozenset({mine, s}) in _EXCLUSIVE), None)
                    if other is not None and shared:
                        return Conflict("status", f"{mine}/{other}", sentence.strip())
            continue
    if said_statuses:
        return None
    # No status word: the claim's clause said again, word for word but for its polarity.
    for phrase in phrases_of(sentence, language):
        their_content = _content(phrase)
        shared = said_content & their_content
        if len(shared) < _MIN_SHARED or len(shared) < _CLAUSE_ALIGNED * len(said_content) \
                or len(their_content) > len(said_content) + 2:
            continue
        if _plainly_negated(phrase, language) != _plainly_negated(said, language) \
                and not _same_polarity_elsewhere(said, phrases_of(sentence, language), _plainly_negated(said, language), language):
            return Conflict("negation", "not", sentence.strip())
    return None


def _status_denied(said: str, status: str, language: Language) -> bool:
    """Whether ``said`` denies ``status``: a phrase that gives it is negated (the whole clause
    where no phrase of it gives the status on its own)."""
    holding = [phrase for phrase in phrases_of(said, language) if status in status_names(phrase, language)]
    return any(negated(phrase, language) for phrase in holding) if holding else negated(said, language)


def phrases_of(sentence: str, language: Language) -> list[str]:
    """A sentence cut where a clause or a phrase may start (commas, conjunctions, relative
    pronouns in English; clauses in Japanese): where a "not" belongs."""
    if language == "ja":
        return _clauses(sentence, language)
    return [p for p in (part.strip() for part in _PHRASE_BREAK_EN.split(sentence)) if p]


def _plainly_negated(text: str, language: Language) -> bool:
    if language == "ja":
        return negated(text, language)
    return bool(_PLAIN_NEGATION_EN.search(NOT_A_DENIAL_EN.sub(" ", text)))


def _denied_elsewhere(said: str, clauses: list[str], statuses: set[str], said_negated: bool, language: Language) -> bool:
    """True unless another clause of the sentence gives the same status with the claim's polarity
    ("X is the default, Y is not the default": the claim about X is not denied)."""
    said_content = _content(said)
    for clause in clauses:
        if statuses & status_names(clause, language) and negated(clause, language) == said_negated \
                and said_content & _content(clause):
            return False
    return True


def _same_polarity_elsewhere(said: str, phrases: list[str], said_negated: bool, language: Language) -> bool:
    said_content = _content(said)
    return any(_plainly_negated(p, language) == said_negated
               and len(said_content & _content(p)) >= _CLAUSE_ALIGNED * len(said_content) for p in phrases)


# --- opposites, word for word -------------------------------------------------------------------

_EN_TOKEN = re.compile(r"[a-z0-9]+(?:['’\-.][a-z0-9]+)*")
_OPPOSITE_ALIGNED = 0.8  # share of the two sentences' words in the same order


def _tokens(text: str, language: Language) -> list[str]:
    if language == "ja":
        return written_words(text, particles=False)
    return _EN_TOKEN.findall(text.lower())


def _opposites(mine: str, theirs: str) -> bool:
    return contrasting(mine, theirs) or contrasting(stem(mine), stem(theirs))


def opposite_conflict(claim: str, passage: str, language: Language) -> Conflict | None:
    """The passage sentence that says the claim word for word but for one word, its opposite
    ("Sales decreased by 12 percent in 2023" / "Sales increased by 12 percent in 2023"; "after
    the merger" / "before the merger"); None when there is none."""
    said = _tokens(claim, language)
    if len(said) < 3:
        return None
    for start, end in sentence_spans(passage):
        sentence = passage[start:end]
        theirs = _tokens(sentence, language)
        matcher = difflib.SequenceMatcher(a=said, b=theirs, autojunk=False)
        changes = [op for op in matcher.get_opcodes() if op[0] != "equal"]
        if len(changes) != 1 or changes[0][0] != "replace" or matcher.ratio() < _OPPOSITE_ALIGNED:
            continue
        _, a1, a2, b1, b2 = changes[0]
        if a2 - a1 == 1 and b2 - b1 == 1 and _opposites(said[a1], theirs[b1]):
            return Conflict("contrast", f"{said[a1]}/{theirs[b1]}", sentence.strip())
    return None


# A relation a study looked for and did not find: "We found no significant correlation between
# autoCPAP pressure and neck circumference, waist circumference or BMI" (PubMedQA 26449554).
_RELATION = r"(?:correlation|association|relationship|relation|link|difference|effect|impact|influence)s?"
_NO_RELATION_EN = re.compile(
    r"\b(?P<denial>no\s+(?:(?:statistically|clinically)\s+)?(?:(?:significant|clear|apparent|meaningful|consistent|"
    r"obvious)\s+)?" + _RELATION + r")\s+(?:(?:was|were)\s+(?:found|observed|seen|detected|noted|shown)\s+)?"
    r"(?:(?P<between>between)|of)\s+(?P<rest>[^.;]+)", re.IGNORECASE)
# What a claim says is related, in the four shapes a writer gives it.
_SAID_RELATED_EN = (
    re.compile(r"\b" + _RELATION + r"\s+between\s+(?P<a>.+?)\s+and\s+(?P<b>.+)", re.IGNORECASE),
    re.compile(r"\b(?:effect|impact|influence)s?\s+of\s+(?P<a>.+?)\s+on\s+(?P<b>.+)", re.IGNORECASE),
    re.compile(r"^(?P<a>.+?)\s+(?:is|are|was|were)\s+(?:\w+ly\s+)?(?:correlated|associated|linked|related)\s+"
               r"(?:with|to)\s+(?P<b>.+)", re.IGNORECASE),
    re.compile(r"^(?P<a>.+?)\s+(?:\w+ly\s+)?(?:influences?|influenced|affects?|affected|impacts?|impacted|correlates?|"
               r"correlated)\s+(?:with\s+)?(?P<b>.+)", re.IGNORECASE),
)
_CITATIONS = re.compile(r"\[[^\]]*\]")


def says_related(claim: str, language: Language) -> bool:
    """Whether ``claim`` says two things are related (what ``no_relation_conflict`` reads)."""
    return language != "ja" and _related_sides(_CITATIONS.sub(" ", claim)) is not None


def _related_sides(text: str, setting_cut: bool = False) -> tuple[frozenset[str], frozenset[str]] | None:
    """The two things ``text`` says are related (correlated, associated, one affecting the other),
    as their content words; None when it says no such thing. ``setting_cut``: each side up to the setting
    it is said in ("worse asthma control in an urban population": worse asthma control)."""
    for pattern in _SAID_RELATED_EN:
        found = pattern.search(text)
        if found:
            a, b = found.group("a"), found.group("b")
            if setting_cut:
                a, b = _SETTING_EN.split(a, maxsplit=1)[0], _SETTING_EN.split(b, maxsplit=1)[0]
            a_terms, b_terms = _content(a), _content(b)
            return (a_terms, b_terms) if a_terms and b_terms else None
    return None


# The words a side of a relation holds only to say which way it goes, or where.
_DIRECTION_WORDS_EN = frozenset({"higher", "lower", "wors", "better", "greater", "increas", "decreas", "more", "less",
                                 "elev", "reduc", "poor", "poorer", "high", "low"})
_SETTING_EN = re.compile(r"\s+(?:in|among|for|using|during|across|within)\s+(?:an?\s+|the\s+)?", re.IGNORECASE)


def _side_named(side: frozenset[str] | str) -> frozenset[str]:
    """A claim's side of a relation as the thing it names: without its direction words."""
    return frozenset(side) - _DIRECTION_WORDS_EN


def _sides_found_apart(rest: str, between: bool) -> tuple[frozenset[str], frozenset[str]] | None:
    """The two sides of what follows "no correlation between" ("A and B, C or D") or "no effect of"
    ("A on B")."""
    cut = re.split(r"\s+and\s+" if between else r"\s+on\s+", rest, maxsplit=1)
    if len(cut) != 2:
        return None
    a, b = _content(cut[0]), _content(cut[1])
    return (a, b) if a and b else None


def no_relation_conflict(claim: str, passage: str, language: Language, elsewhere: Sequence[str] = ()) -> Conflict | None:
    """The passage sentence that says a study found no relation ("no significant correlation between
    A and B", "no effect of A on B") where the claim says A and B are related ("B influences A",
    "A is associated with B", "a correlation between A and B"), each side of the claim's within a
    side of the passage's (one item of a list will do); None when there is none, or when the passage
    or a text ``elsewhere`` (the rest of the page) also states the relation between the same things."""
    if language == "ja":
        return None
    said = _CITATIONS.sub(" ", claim)
    if negated(said, language):
        return None
    # "The study also found that obesity and increasing BMI level were associated with worse asthma control using all
    # 4 questionnaires" against «Regression analysis showed no association between obesity or increasing BMI level and
    # asthma control using all 4 questionnaires.» (PubMedQA 19615731, `research bench pubmedqa --seed 129`, the real
    # 1.5B model's Summary, supported by the judge): the claim's frame, the way a side goes (worse, higher) and the
    # setting it is said in (in an urban population) name neither side; an abbreviation the page spells out (BMI)
    # names its words.
    said = REPORTED_BY_A_STUDY_EN.sub("", said.strip(), count=1)
    sides = _related_sides(said, setting_cut=True)
    if sides is None:
        return None
    x, y = (_side_named(side) for side in sides)
    spelt: dict[str, frozenset[str]] | None = None  # read only where the page denies a relation: the page is long
    for start, end in sentence_spans(passage):
        sentence = passage[start:end]
        for found in _NO_RELATION_EN.finditer(sentence):
            theirs = _sides_found_apart(found.group("rest"), bool(found.group("between")))
            if theirs is None:
                continue
            if spelt is None:
                spelt = _abbreviations_spelt_out([passage, *elsewhere])
            a, b = (side.union(*(spelt.get(word, frozenset()) for word in side)) for side in theirs)
            if not (x and y and ((x <= a and y <= b) or (x <= b and y <= a))):
                continue
            if any(_relation_affirmed(text, x | y, language) for text in (passage, *elsewhere)):
                return None
            return Conflict("negation", " ".join(found.group("denial").split()), sentence.strip())
    return None


# A difference a study looked for and did not find: «The continence score in patients after anastomotic leakage did not
# differ significantly from that in patients without complications. Sphincter function was similar.»
_NO_DIFFERENCE_EN = re.compile(
    r"\b(?P<denial>(?:did|does|do) not (?:significantly )?differ|not (?:statistically )?(?:significantly )?different|"
    r"no (?:statistically |clinically )?(?:significant |significative )?differences?|(?:was|were|is|are|remained) (?:\w+ )?"
    r"(?:similar|comparable|unchanged|equivalent)|not (?:statistically )?significantly (?:changed|altered|"
    r"lower|higher|worse|better|greater|smaller|increased|decreased|reduced|improved))\b", re.IGNORECASE)
# What a claim says differs between groups, with the words of what is measured after it ("a lower continence score")
# or before it ("Sphincter function was worse").
_COMPARATIVE_EN = re.compile(r"\b(?:lower|higher|worse|better|greater|smaller|fewer|increased|decreased|reduced|"
                             r"improved|elevated|superior|inferior)\b", re.IGNORECASE)
_MEASURE_ENDS_EN = re.compile(r"\b(?:than|compared|versus|vs|in|among|after|before|with|without|for|between|and|"
                              r"when|following|during|but|while)\b|[,;.()]", re.IGNORECASE)
_MEASURED_BEFORE_EN = re.compile(r"^(?P<measure>.+?)\s+(?:was|were|is|are|remained|became)\s+(?:\w+ly\s+)?$",
                                 re.IGNORECASE)


_A_SMALL_DIFFERENCE_EN = re.compile(r"\b(?:slightly|marginally|somewhat|numerically|non-?significantly|tended|trend|"
                                    r"tendency|modestly)\b", re.IGNORECASE)


def _what_is_compared(said: str) -> list[frozenset[str]]:
    """The content words of each thing ``said`` says differs: the words after each comparative up to a
    preposition or a comma, else those of the subject it is said of."""
    found: list[frozenset[str]] = []
    for match in _COMPARATIVE_EN.finditer(said):
        after = _MEASURE_ENDS_EN.split(said[match.end():], maxsplit=1)[0]
        words = _content(after)
        if not words:
            before = _MEASURED_BEFORE_EN.match(said[:match.start()])
            words = _content(before["measure"]) if before else frozenset()
        if words:
            found.append(words)
    return found


def says_a_difference(claim: str) -> bool:
    """(en) Whether ``claim`` says something differs between groups (what ``no_difference_conflict`` reads)."""
    return bool(_COMPARATIVE_EN.search(claim))


def no_difference_conflict(claim: str, passage: str, language: Language, elsewhere: Sequence[str] = ()) -> Conflict | None:
    """The passage sentence that says a study found no difference in what the claim says differs: "patients with
    anastomotic leakage had a lower continence score and worse sphincter function compared to those without
    complications" against «The continence score in patients after anastomotic leakage did not differ significantly
    from that in patients without complications. Sphincter function was similar.» (PubMedQA 12607120, `research bench pubmedqa
    --sample 4 --seed 113`, the real 1.5B model's Summary; "Sphincter function was worse after anastomotic leakage"
    was supported, «…not significantly worse after leakage» said of two other measures). Every word of what the
    claim says differs must be in that sentence, and no sentence of the passage or ``elsewhere`` may state the
    difference for it (found in one group, not in another)."""
    if language == "ja":
        return None
    said = _CITATIONS.sub(" ", claim)
    if negated(said, language) or _NO_DIFFERENCE_EN.search(said) or _A_SMALL_DIFFERENCE_EN.search(said):
        return None  # "slightly worse" is what «slightly but not significantly worse» says
    measures = _what_is_compared(said)
    if not measures:
        return None
    for start, end in sentence_spans(passage):
        sentence = passage[start:end]
        found = _NO_DIFFERENCE_EN.search(sentence)
        if found is None:
            continue
        words = _content(sentence)
        denied = [measure for measure in measures if measure <= words]
        if not denied:
            continue
        if any(_difference_affirmed(text, measure) for text in (passage, *elsewhere) for measure in denied):
            return None
        return Conflict("negation", " ".join(found.group("denial").split()), sentence.strip())
    return None


_DIFFER_BETWEEN_EN = re.compile(r"\bdiffer(?:s|ed|ent|ences?)?\b[^.;]*?\bbetween\s+(?P<a>[^.;]+?)\s+and\s+(?P<b>[^.;,]+)",
                                re.IGNORECASE)


def _ordered_content(text: str) -> list[str]:
    """The words of ``text`` that ``_content`` keeps, in the order written."""
    return [t.text for t in terms(text) if t.text not in STATUS_TERMS]


def _abbreviations_spelt_out(texts: Sequence[str]) -> dict[str, frozenset[str]]:
    """Each abbreviation ``texts`` spell out ("prostate bed clinical target volume (PB-CTV)"): its word → the
    content words written before it."""
    spelt: dict[str, frozenset[str]] = {}
    for text in texts:
        for named in SPELT_OUT_EN.finditer(text):
            for short in _content(named["short"]):
                spelt[short] = spelt.get(short, frozenset()) | _content(named["long"])
    return spelt


def no_difference_between(claim: str, texts: Sequence[str]) -> Conflict | None:
    """(en) A sentence of ``texts`` (the cited pages' prose) that says there is no difference between the two
    things the claim says differ, named as the page names them, its abbreviations spelt out as the page spells
    them: "Yes, the RTOG consensus definitions for target motion … differ between superior and inferior portions of
    the clinical target volume" against «No statistically significant differences between INF-CTV and SUP-CTV motion
    were present in any direction.», the page having «…superior portion of PB-CTV (SUP-CTV) …» and «prostate bed
    clinical target volume (PB-CTV)» (PubMedQA 27909738, gold no, `research bench pubmedqa --sample 4 --seed 116`:
    the real 1.5B model's Summary, supported by the study's aim)."""
    said = _CITATIONS.sub(" ", claim)
    if negated(said, "en") or _NO_DIFFERENCE_EN.search(said):
        return None
    asked = _DIFFER_BETWEEN_EN.search(said)
    if asked is None:
        return None
    a, b = _content(asked["a"]), _content(asked["b"])
    first_a, first_b = (next(iter(_ordered_content(asked[side])), None) for side in ("a", "b"))
    if not a or not b:
        return None
    spelt = _abbreviations_spelt_out(texts)

    def spelt_out(words: frozenset[str]) -> frozenset[str]:
        for _ in range(2):  # SUP-CTV: superior portion of PB-CTV; PB-CTV: prostate bed clinical target volume
            words = words.union(*(spelt.get(word, frozenset()) for word in words))
        return words

    for text in texts:
        for start, end in sentence_spans(text):
            sentence = text[start:end]
            found = _NO_DIFFERENCE_EN.search(sentence)
            theirs = _DIFFER_BETWEEN_EN.search(sentence)
            if found is None or theirs is None:
                continue
            x, y = spelt_out(_content(theirs["a"])), spelt_out(_content(theirs["b"]))
            if (_names(a, first_a, x) and _names(b, first_b, y)) or (_names(a, first_a, y) and _names(b, first_b, x)):
                return Conflict("negation", " ".join(found.group("denial").split()), sentence.strip())
    return None


# Words a study's result and its methods share with any claim about it: no measure of its own.
_ANY_STUDY_EN = frozenset(_content("study studies group groups control controls patient patients subject subjects "
                                   "value values level levels result results found find mean significant difference "
                                   "increase increased decrease decreased risk rate"))
_STUDY_AND_CONTROLS_EN = re.compile(r"\b(?:study|case|patients?)\b(?:[^.;]|\.\d)*\bcontrols?\b", re.IGNORECASE)
# A study's finding of no difference in so many words (not "was similar", which a description says of anything).
_FOUND_NO_DIFFERENCE_EN = re.compile(
    r"\b(?P<denial>(?:did|does|do) not (?:significantly )?differ|not (?:statistically )?(?:significantly )?different|"
    r"no (?:statistically |clinically )?(?:significant |significative )?differences?)\b", re.IGNORECASE)
# A claim that two things go together, in so many words (not "can affect", which a description says of anything).
_SAID_ASSOCIATED_EN = re.compile(r"\b(?:associat|correlat|related\b|relationship|linked\b|link\b)", re.IGNORECASE)
_A_GROUP_EN = re.compile(r"\b(?:study|case|patient)s?\s+groups?\b|\bgroups?\s+of\s+(?:\d[\d,]*\s+)?\w+", re.IGNORECASE)


def no_difference_in_what_is_related(claim: str, texts: Sequence[str]) -> Conflict | None:
    """(en) A result of the cited page that says a study found no difference in the measure the claim says is
    related to something, between the groups that something defines, and no sentence of the page states a
    difference or a relation in that measure: "The study found that increased nuchal translucency thickness was
    associated with an increased risk of GDM in the first trimester" against «There was no significative difference
    (p = 0.585) between NT values in the study (mean = 1.56) and control group (mean = 1.54).», the study group
    being the pregnancies «who had developed GDM» and NT spelt out by the aim (PubMedQA 21190419, gold no, `research
    bench pubmedqa --sample 4 --seed 117`: the real 1.5B model's answer, left not checked against the aim)."""
    said = _CITATIONS.sub(" ", claim)
    if negated(said, "en") or _NO_DIFFERENCE_EN.search(said) or _A_SMALL_DIFFERENCE_EN.search(said) \
            or not _SAID_ASSOCIATED_EN.search(said) or leaves_the_question_open(said):
        return None
    sides = _related_sides(said)
    if sides is None:
        return None
    spelt = _abbreviations_spelt_out(texts)
    sentences = [text[start:end] for text in texts for start, end in sentence_spans(text)]
    for measure, groups in (sides, sides[::-1]):
        measure = measure.union(*(spelt.get(word, frozenset()) for word in measure)) - _ANY_STUDY_EN
        groups = groups - _ANY_STUDY_EN - measure
        if len(measure) < 2 or not groups:
            continue
        for sentence in sentences:
            found = _FOUND_NO_DIFFERENCE_EN.search(sentence)
            if found is None or leaves_the_question_open(sentence):
                continue
            words = _content(sentence)
            words = words.union(*(spelt.get(word, frozenset()) for word in words))
            if len(measure & words) < 2:
                continue
            # The groups compared are what the claim relates the measure to: named there, or the study's
            # groups against its controls, a sentence of the page saying the study group is that.
            if not (groups & words or (_STUDY_AND_CONTROLS_EN.search(sentence) and any(
                    _A_GROUP_EN.search(other) and groups & _content(other) for other in sentences))):
                continue
            shared = measure & words
            if any(_states_a_difference_in(other, shared, spelt) for other in sentences if other is not sentence):
                return None
            return Conflict("negation", " ".join(found.group("denial").split()), sentence.strip())
    return None


# A claim that a study found no difference in what it names: "…no significant differences in consultations requested or
# hospitalization rates for patients".
_CLAIMED_NO_DIFFERENCE_IN_EN = re.compile(
    r"\b(?:no (?:statistically |clinically )?(?:significant )?differences?|(?:did|does|do) not (?:significantly )?differ)"
    r" in (?P<what>[^.;]+)", re.IGNORECASE)
_NO_DIFFERENCE_IN_ENDS_EN = re.compile(r"\b(?:between|among|across|for|from|compared|versus|vs|when|after|before|with|at|"
                                       r"during|than)\b|[,;()]", re.IGNORECASE)
_ITEMS_EN = re.compile(r"\s*\b(?:or|and|nor)\b\s*", re.IGNORECASE)
# A difference the page itself calls not significant, or a small one: no difference a study found.
_NOT_A_FOUND_DIFFERENCE_EN = re.compile(r"\b(?:not (?:statistically )?significant|non-?significant(?:ly)?|n\.?s\.|"
                                        r"p\s*[>≥]\s*0?\.\d+)", re.IGNORECASE)
# What people believed or felt, not what a study measured: «Overall, 44% of respondents believed that there was no
# difference in surgical education.» beside «Only 25% … felt that … had improved …» (PubMedQA 19712912's page).
_AN_OPINION_EN = re.compile(r"\b(?:believ\w*|felt|feels?|thought|thinks?|perceiv\w*|opinions?|agreed|rated|viewed)\b",
                            re.IGNORECASE)


def difference_the_page_states(claim: str, texts: Sequence[str]) -> Conflict | None:
    """(en) A sentence of ``texts`` (the cited pages' prose) that states a difference in one of the things the claim says
    a study found no difference in: "The study found that there were no significant differences in consultations
    requested or hospitalization rates for patients" against «There were fewer consultations requested at our residency
    training sites but similar hospitalization rates for patients.» (PubMedQA 8245806, `research bench pubmedqa --sample 4
    --seed 132`, the real 1.5B model's finding, left in the answer not checked). Not a difference the page calls not
    significant or small, nor one in a clause that denies it, a question the study asked or what people felt."""
    said = _CITATIONS.sub(" ", claim)
    asked = _CLAIMED_NO_DIFFERENCE_IN_EN.search(said)
    if asked is None or _AN_OPINION_EN.search(said):
        return None
    what = _NO_DIFFERENCE_IN_ENDS_EN.split(asked["what"], maxsplit=1)[0]
    measures = [words for words in (_content(item) for item in _ITEMS_EN.split(what)) if words]
    if not measures:
        return None
    for text in texts:
        for start, end in sentence_spans(text):
            sentence = text[start:end]
            if leaves_the_question_open(sentence) or _NOT_A_FOUND_DIFFERENCE_EN.search(sentence) \
                    or _AN_OPINION_EN.search(sentence):
                continue
            for clause in _clauses(sentence, "en"):
                if _NO_DIFFERENCE_EN.search(clause) or negated(clause, "en") or _A_SMALL_DIFFERENCE_EN.search(clause):
                    continue
                for compared in _what_is_compared(clause):
                    if any(measure <= compared for measure in measures):
                        found = _COMPARATIVE_EN.search(clause)
                        return Conflict("negation", found.group(0) if found else "", sentence.strip())
    return None


def _states_a_difference_in(sentence: str, measure: frozenset[str], spelt: dict[str, frozenset[str]]) -> bool:
    """Whether ``sentence`` states a difference in, or a relation of, what ``measure`` names (its abbreviations
    spelt out as the page spells them), undenied and not as a question the study asked."""
    if not (_COMPARATIVE_EN.search(sentence) or re.search(_RELATION, sentence, re.IGNORECASE)
            or re.search(r"\bsignificant(?:ly)?\b", sentence, re.IGNORECASE)):
        return False
    if _NO_DIFFERENCE_EN.search(sentence) or negated(sentence, "en") or leaves_the_question_open(sentence):
        return False
    words = _content(sentence)
    return measure <= words.union(*(spelt.get(word, frozenset()) for word in words))


def _names(side: frozenset[str], first: str | None, words: frozenset[str]) -> bool:
    """Whether ``words`` name the claim's ``side``: its first word, and two thirds of its words ("inferior portions
    of the clinical target volume" by INF-CTV spelt out, «the inferior PB-CTV», which has no "portion")."""
    return first is not None and first in words and 3 * len(side & words) >= 2 * len(side)


def _difference_affirmed(passage: str, measure: frozenset[str]) -> bool:
    """Whether a sentence of ``passage`` says a difference in ``measure`` without denying it."""
    for start, end in sentence_spans(passage):
        sentence = passage[start:end]
        if _COMPARATIVE_EN.search(sentence) and not _NO_DIFFERENCE_EN.search(sentence) \
                and not negated(sentence, "en") and measure <= _content(sentence):
            return True
    return False


# What a study set out to look at, not what it found: «Multiple linear regression analysis was performed to evaluate the
# association between obesity and increasing BMI level and asthma control.» (PubMedQA 19615731's methods).
_LOOKED_AT_EN = re.compile(r"\bto (?:further )?(?:evaluate|assess|examine|investigate|determine|explore|test|study|"
                           r"analy[sz]e|measure|quantify|estimate|compare)\s+(?:the\s+|any\s+|a\s+|an\s+)?(?:\w+\s+)?"
                           + _RELATION, re.IGNORECASE)


# "…was associated with…": a relation stated with its verb.
_RELATED_VERB_EN = re.compile(r"\b(?:correlated|associated|linked|related)\s+(?:with|to)\b", re.IGNORECASE)


def _relation_affirmed(passage: str, words: frozenset[str], language: Language) -> bool:
    """Whether a sentence of ``passage`` states a relation between things with all of ``words``
    without denying it ("…, but a significant correlation was found in women"); not as what a study set out to
    look at, or a question it leaves open."""
    for start, end in sentence_spans(passage):
        sentence = passage[start:end]
        if leaves_the_question_open(sentence):
            continue
        for clause in _clauses(sentence, language):
            if (re.search(_RELATION, clause, re.IGNORECASE) or _RELATED_VERB_EN.search(clause)) \
                    and not negated(clause, language) and not _LOOKED_AT_EN.search(clause) and words <= _content(clause):
                return True
    return False


# A change a study looked for and did not find: «…and we found no improvement in antibiotic use.» (PubMed 20488985).
# Each change word by the way it goes; "change" itself goes every way.
_CHANGE_WAYS_EN = (("better", r"improv\w*|benefit\w*"), ("up", r"increas\w*|rise|rises|rising|rose|risen|gain\w*"),
                   ("down", r"decreas\w*|reduc\w*|declin\w*|drop\w*|fall|falls|falling|fell|fallen|lower(?:ed|ing)?"),
                   ("any", r"chang\w*|alter\w*|shift\w*"))
_CHANGE_WORD_EN = "|".join(f"(?P<{way}>{words})" for way, words in _CHANGE_WAYS_EN)
# "no improvement in", "no significant reduction of", "did not detect any increase in", "did not improve".
_WHAT_ENDS_EN = r"(?=\s*(?:[.;:,()]|\b(?:or|and|between|among|after|before|compared|with|following|during|from|at|for|but|" \
                r"while|than|when|in\s+either|in\s+both|over|across|despite)\b|$))"
_NO_CHANGE_EN = (
    re.compile(r"\b(?P<denial>no\s+(?:(?:statistically|clinically)\s+)?(?:(?:significant|clear|apparent|measurable|"
               r"meaningful|further|overall|detectable|appreciable|substantial|notable)\s+)?(?:" + _CHANGE_WORD_EN
               + r"))\s+(?:in|of)\s+(?P<what>[^.;:,()]+?)" + _WHAT_ENDS_EN, re.IGNORECASE),
    re.compile(r"\b(?P<denial>(?:did|could|does|do)\s+not\s+(?:detect|find|observe|see|show|demonstrate|reveal)\s+any\s+"
               r"(?:(?:significant|clear|measurable)\s+)?(?:" + _CHANGE_WORD_EN + r"))\s+(?:in|of)\s+"
               r"(?P<what>[^.;:,()]+?)" + _WHAT_ENDS_EN, re.IGNORECASE),
)
# Where a claim's statements part: commas, semicolons, "and", "or", "but".
_CLAIM_PIECES_EN = re.compile(r"\s*[,;]\s*|\s+(?:and|or|but|whereas|while)\s+", re.IGNORECASE)
_NOT_WHAT_EN = frozenset({"either", "both", "ani", "any", "all", "the"})
# "changed little", "a small increase": what a study that found no significant change may have seen.
_A_SMALL_CHANGE_EN = re.compile(r"\b(?:little|minimal|small|minor|slight|modest|marginal)\b", re.IGNORECASE)


def _change_ways(text: str) -> set[str]:
    """The ways (better, up, down, any) the change words of ``text`` go."""
    return {way for found in re.finditer(rf"\b(?:{_CHANGE_WORD_EN})\b", text, re.IGNORECASE)
            for way, word in found.groupdict().items() if word}


def _changed(piece: str, way: str, what: frozenset[str]) -> bool:
    """Whether ``piece`` (a statement, not denied) says that ``what`` changed ``way`` ("any": every way)."""
    ways = _change_ways(piece)
    return bool(ways) and (way == "any" or way in ways) and what <= _content(piece) \
        and not negated(piece, "en") and not any(pattern.search(piece) for pattern in _NO_CHANGE_EN)


def no_change_conflict(claim: str, passage: str, language: Language, elsewhere: Sequence[str] = ()) -> Conflict | None:
    """(en) The passage sentence that says a study found no change in what the claim says changed: "…a significant
    impact on public health, with improvements in antibiotic use, …" against «…and we found no improvement in
    antibiotic use.» (PubMed 20488985, read for PubMedQA 24434052 by `research bench pubmedqa --sample 4 --seed 128`,
    the real 1.5B model's Summary, left to the judge for the words the page lacks). The change goes the same way ("no increase" denies "rose",
    not "fell"; "no change" denies any), every word of what changed is in the claim's statement, and no sentence of
    the passage or ``elsewhere`` states that change (found in one group, not in another). A change the claim calls
    slight, a trend or non-significant is what a "no significant change" allows."""
    if language == "ja":
        return None
    said = _CITATIONS.sub(" ", claim)
    if _A_SMALL_DIFFERENCE_EN.search(said) or _A_SMALL_CHANGE_EN.search(said):
        return None
    pieces = [piece for piece in _CLAIM_PIECES_EN.split(said) if piece and _change_ways(piece)]
    if not pieces:
        return None
    for start, end in sentence_spans(passage):
        sentence = passage[start:end]
        for pattern in _NO_CHANGE_EN:
            for found in pattern.finditer(sentence):
                way = next(way for way, word in found.groupdict().items() if word and way in dict(_CHANGE_WAYS_EN))
                what = _content(found["what"]) - _NOT_WHAT_EN
                if not what or not any(_changed(piece, way, what) for piece in pieces):
                    continue
                if any(_changed(other, way, what) for text in (passage, *elsewhere)
                       for s, e in sentence_spans(text) for other in _CLAIM_PIECES_EN.split(text[s:e])):
                    return None
                return Conflict("negation", " ".join(found["denial"].split()), sentence.strip())
    return None


def says_a_change(claim: str) -> bool:
    """(en) Whether ``claim`` says something changed (what ``no_change_conflict`` reads)."""
    return bool(_change_ways(_CITATIONS.sub(" ", claim)))

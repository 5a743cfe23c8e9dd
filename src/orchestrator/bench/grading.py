"""Grading an answer against a set's gold answer, the same way for the final answer and the
first draft.

- **jsquad**: correct when the answer, normalised (NFKC, so full-width letters and digits
  are half-width; case folded; every space removed, since Japanese has none and a model
  may put some; citation marks and Markdown marks taken out), contains one of the gold
  spans normalised the same way. The answer's length is kept beside it: a long answer
  holds a span more easily.
- **pubmedqa**: the answer's yes / no / maybe is read from its conclusion, conservatively:
  an explicit verdict ("Yes, …", "The answer is no", 「はい、…」) wins; else the first
  sentences of the conclusion are read for a hedge (unclear, inconclusive → maybe), a
  negation of the finding (does not, no significant, not associated → no) or a finding
  stated without either (improves, is associated with, reduces → yes), and count only when
  they agree. A sentence about the sources themselves ("The sources do not say…") is no
  verdict; an answer with no verdict is read as none, which is never correct. The wording
  is a weaker reading than an explicit verdict (see read_verdict), so each grade says which.
  Where the program itself quotes the sources in the answer (workflow/answer.py: "According to
  the sources read, «…»", "… of the question they say: «…»"), the quote is read, not the
  program's words around it.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass

from research.modules.core.messages.answer import MESSAGES
from research.modules.text.structure import states_an_aim

# [S1], [S1, S3], the verifier's marks; the Markdown that a model's answer is written in.
_CITATIONS = re.compile(r"\[S\d+(?:\s*[,、]\s*S?\d+)*\]|\((?:not checked)\)|（未確認）", re.IGNORECASE)
_MARKDOWN = re.compile(r"[*_`#>|]+")
_SPACE = re.compile(r"\s+")


@dataclass(frozen=True)
class Grade:
    correct: bool
    predicted: str | None  # pubmedqa: the decision read; jsquad: the gold span found
    answer_chars: int  # the answer's length, without citations and Markdown


def plain(answer: str) -> str:
    """The answer's text without citation marks and Markdown marks, spaces collapsed."""
    text = _CITATIONS.sub(" ", answer or "")
    text = re.sub(r"^\s*(?:[-*+]|\d+\.)\s+", "", text, flags=re.MULTILINE)  # list markers
    return _SPACE.sub(" ", _MARKDOWN.sub(" ", text)).strip()


def _framing(template: str) -> re.Pattern[str]:
    """A message of the program that quotes the sources, as a pattern whose group is the quote."""
    parts = re.split(r"(\{\w+\})", template)
    pattern = "".join(
        "(?P<evidence>.+?)" if part == "{evidence}" else r"S\d+" if part == "{label}" else ".*?" if part.startswith("{")
        else r"\s*".join(map(re.escape, part.split())) if part.strip() else r"\s*" for part in parts)
    return re.compile(pattern, re.DOTALL)


# The answer's lines that quote the sources (workflow/answer.py), in both languages; and how
# an earlier version wrote one, for answers kept in a bench's results.jsonl before 73287e2.
_FORMER_WORDING = ("No sentence of the draft could be checked against the sources read; of the question they say: "
                   "«{evidence}» [{label}]",)
_PROGRAM_QUOTES = [_framing(MESSAGES[key][lang]) for key in ("answer.sources_say_otherwise", "answer.sources_say_of_it")
                   for lang in ("en", "ja")] + [_framing(text) for text in _FORMER_WORDING]


def _only_the_quotes(answer: str) -> str:
    for framing in _PROGRAM_QUOTES:
        answer = framing.sub(lambda match: match.group("evidence"), answer)
    return answer


def normalise_span(text: str) -> str:
    """NFKC (width), case folded, every space removed."""
    return _SPACE.sub("", unicodedata.normalize("NFKC", text).casefold())


def grade_jsquad(answer: str, spans: tuple[str, ...] | list[str]) -> Grade:
    # What the answer says, not its headings: a heading is the model's and never checked (a1698820p34q0
    # was graded correct for 「## 中国」 over a sentence on another thing).
    body = plain(_HEADING_LINE.sub("", answer or ""))
    haystack = normalise_span(body)
    found = next((span for span in spans if _holds(haystack, normalise_span(span))), None)
    return Grade(found is not None, found, len(body))


_HEADING_LINE = re.compile(r"^\s*#{1,6}\s.*$", re.MULTILINE)


def _holds(haystack: str, span: str) -> bool:
    """Whether ``span`` is in ``haystack`` without a figure of its running on: the gold 「第3」 is
    not in 「（第38条）」 (a14985p66q2, graded correct for it before), nor 993年 in 1993年."""
    if not span:
        return False
    pattern = (r"(?<!\d)" if span[0].isdigit() else "") + re.escape(span) + (r"(?!\d)" if span[-1].isdigit() else "")
    return re.search(pattern, haystack) is not None


# --- PubMedQA: yes / no / maybe ---------------------------------------------------------------

# The word stands alone: "Yes, …", "No." or "**No** –"; "No significant difference …" and "No
# sentence of the draft could be checked …" (the program's own line) are sentences, not a verdict.
_EXPLICIT = re.compile(
    r"^(?:(?:the\s+)?(?:short\s+)?answer(?:\s+is)?\s*[:：]?\s*)?\**\s*(yes|no|maybe)\b\**(?=\s*(?:[,.;:!—–]|-\s|$))",
    re.IGNORECASE)
_EXPLICIT_JA = re.compile(r"^(?:答えは\s*)?(はい|いいえ|どちらとも言えません|どちらともいえません)")
_ANSWER_IS = re.compile(r"\b(?:the\s+)?answer\s+(?:to\s+(?:the|this)\s+question\s+)?is\s+[\"'“]?(yes|no|maybe)\b",
                        re.IGNORECASE)
_MAYBE = re.compile(
    r"\b(?:unclear|uncertain|inconclusive|controversial|equivocal|conflicting|mixed\s+(?:results|evidence|findings)|"
    r"not\s+(?:yet\s+)?(?:clear|known|established|conclusive|certain|definitive|fully\s+understood)|"
    r"remains?\s+(?:to\s+be\s+(?:determined|established|seen|clarified)|unknown|unclear|debated)|"
    r"insufficient\s+(?:evidence|data)|(?:more|further)\s+(?:research|studies|study|investigation|trials?)\s+"
    r"(?:is|are)\s+(?:needed|required|warranted|necessary)|may\s+or\s+may\s+not|it\s+depends)\b",
    re.IGNORECASE)
_MAYBE_JA = re.compile(r"不明|明らかでない|明らかではない|はっきりしない|結論は出ていない|一概に|議論がある|不確か")
# A negation of the finding. "not only … but also" affirms; "no longer" and "nonetheless" are no negation.
_NEGATION = re.compile(
    r"\b(?:not(?!\s+only)|no(?!\s+longer)|never|neither|nor|cannot|can't|doesn't|don't|didn't|isn't|aren't|wasn't|"
    r"weren't|won't|without|fail(?:s|ed)?\s+to|unrelated|unaffected|lack(?:s|ed)?|absence\s+of|none)\b",
    re.IGNORECASE)
_NEGATION_JA = re.compile(r"(?:ない|ません|なかった|ず[、。]|ではない|認められなかった)")
_FINDING = re.compile(
    r"\b(?:significant(?:ly)?|effective|efficacious|associated|correlat\w*|improv\w*|increas\w*|reduc\w*|"
    r"decreas\w*|predict\w*|higher|lower|better|worse|benefit\w*|superior|inferior|safe|feasible|useful|"
    r"valuable|accurate|reliable|influenc\w*|affect\w*|lead\w*\s+to|result\w*\s+in|caus\w*|protect\w*|"
    r"prevent\w*|linked|related|differ\w*|help\w*|enhanc\w*|contribut\w*|impact\w*|ha(?:s|ve)\s+an?\s+effect|"
    r"can\s+be|should\s+be|is\s+a|are\s+a|yes)\b",
    re.IGNORECASE)
# Sentences about the sources or the study's limitations, not about the question's finding: no
# verdict in them (the real 1.5B model's "However, the study had limitations, including … lack of
# central pathologic review" was read as "no").
_ABOUT_SOURCES = re.compile(
    r"\b(?:the\s+)?(?:sources?|passages?|documents?|provided\s+(?:text|information)|information\s+(?:provided|"
    r"available))\b.*\b(?:do(?:es)?\s+not|don't|doesn't|did\s+not)\s+(?:contain|provide|give|say|mention|address|"
    r"include|answer)|\bno\s+(?:evidence|sources?|information|answer|checked\s+sentence)\s+(?:was|were|is|could\s+be)\s+"
    r"(?:found|given|read)|出典.*(?:ない|ません|なかった)|回答は記載していません|(?:証拠|根拠)は?見つかりませんでした"
    r"|\b(?:the\s+)?(?:study|studies|trial|analysis)\s+(?:had|has|have)\s+(?:several\s+|some\s+)?limitations?\b",
    re.IGNORECASE)
_SENTENCE = re.compile(r"(?<=[.!?。！？])\s*")
_HEADING = re.compile(r"^\s*#{1,6}\s", re.MULTILINE)
SENTENCES_READ = 3  # of the conclusion, for a verdict in the wording


def conclusion(answer: str) -> str:
    """The answer's first section's text (its Summary / 結論), else its first paragraph."""
    sections = [part for part in _HEADING.split(_only_the_quotes(answer or "")) if part.strip()]
    first = sections[0] if sections else ""
    if _HEADING.match(answer or "") and "\n" in first:
        first = first.split("\n", 1)[1]  # the heading line itself is no verdict
    return plain(first)


def read_decision(answer: str) -> str | None:
    """yes / no / maybe as the answer gives it, or None when it gives none."""
    return read_verdict(answer)[0]


def read_verdict(answer: str) -> tuple[str | None, str]:
    """The decision and how it was read: "explicit", "wording" or "none"."""
    sentences = [s.strip() for s in _SENTENCE.split(conclusion(answer)) if s.strip()]
    explicit = set()
    for sentence in sentences:
        match = _EXPLICIT.match(sentence) or _ANSWER_IS.search(sentence)
        if match:
            explicit.add(match.group(1).lower())
            continue
        japanese = _EXPLICIT_JA.match(sentence)
        if japanese:
            explicit.add({"はい": "yes", "いいえ": "no"}.get(japanese.group(1), "maybe"))
    if explicit:  # "Yes … No …": no verdict
        return (explicit.pop(), "explicit") if len(explicit) == 1 else (None, "none")
    # In the wording, only when the conclusion's first sentences agree: read over PubMedQA's
    # 500 dev conclusions (LONG_ANSWER), reading the first sentence alone was right 289 times
    # and wrong 90; requiring agreement, right 272, wrong 82, unread 146. Reading only sentences
    # that share two words with the question was no more precise (256 right, 72 wrong).
    readings = {reading for reading in map(_wording, sentences[:SENTENCES_READ]) if reading}
    return (readings.pop(), "wording") if len(readings) == 1 else (None, "none")


def _wording(sentence: str) -> str | None:
    # A study's aim states nothing it found: local-deep-researcher's summary for PubMedQA 18269157
    # opened "To determine whether there is a difference in … between ASA and SBK …", and
    # "difference" in it was read as "yes".
    if sentence.rstrip().endswith(("?", "？")) or _ABOUT_SOURCES.search(sentence) or states_an_aim(sentence):
        return None  # a question (the answer repeating what was asked) or a study's aim states nothing
    if _MAYBE.search(sentence) or _MAYBE_JA.search(sentence):
        return "maybe"
    if _NEGATION.search(sentence) or _NEGATION_JA.search(sentence):
        return "no"
    if _FINDING.search(sentence):
        return "yes"
    return None


def grade_pubmedqa(answer: str, decision: str) -> Grade:
    read = read_decision(answer)
    return Grade(read == decision, read, len(plain(answer)))


def grade(set_name: str, answer: str, gold: tuple[str, ...] | list[str]) -> Grade:
    if set_name == "pubmedqa":
        return grade_pubmedqa(answer, gold[0])
    return grade_jsquad(answer, gold)

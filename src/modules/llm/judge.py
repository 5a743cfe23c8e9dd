"""The judge for claims the cheap checks leave uncertain: which model, and how it is asked.

Three kinds of judge (docs/architecture.md, "The judge"):
- a grounded fact-checking model: ``bespoke-minicheck`` (Bespoke-MiniCheck-7B) is asked one
  sentence per call, ``Document: <passages>\\nClaim: <sentence>``, and answers ``Yes`` or
  ``No`` (the prompt its Ollama model card gives; no system prompt). IBM's
  ``granite3-guardian`` is asked its groundedness risk instead (system ``groundedness``, the
  passages as a ``context`` message, the sentence as the ``assistant`` message) and answers
  ``Yes`` when the sentence is NOT grounded;
- the drafting model with the judge prompt (workflow/verification_prompts.py), batched;
- the drafting model choosing (``choice``), for a model that cannot give verdicts: one claim
  at a time, the passages, then two statements, the claim and its negation, and "neither";
  asked twice with the two statements swapped. Only the same choice in both orders decides.
  A small model asked for a verdict says "supported" to nearly everything (Qwen2.5-Coder-1.5B:
  24 of 24 on the check set, workflow/judge_quality.py); asked to choose, it picks the claim in
  both orders when the passage says it, and falls back on a position (the second option)
  when it does not, so its two answers disagree and the claim stays "not checked".

The default is the checker when Ollama has it installed, else the drafting model. The
checker is trained on English: a sentence with Japanese on either side goes to the drafting
model unless ``RESEARCH_JUDGE_JA`` says otherwise.

Only the first word of a reply counts: ``Yes`` or ``No`` (any case, then punctuation or
more words). Anything else (empty, "Maybe", control text, a reply cut off before a word) is
uncertain and never supported.
"""

from __future__ import annotations

import asyncio
import re
import typing
from dataclasses import asdict, dataclass
from typing import Any, Literal

from research.modules.core.errors import OllamaCallFailed
from research.modules.core.language import Language
from research.modules.core.language import target_script_share
from research.modules.core.settings import Settings
from research.modules.llm.model_manager import ModelManager, model_is_installed
from research.modules.llm.roles import ModelRole
from research.modules.text.tokens import estimate_tokens, fitting_prefix

CHECKER = "bespoke-minicheck"
GUARDIAN = "granite3-guardian"
# The checker's own window is 32K tokens; a call asks for less so that Ollama does not
# reserve a 32K cache for two sentences. Documents longer than the budget are chunked, and a
# claim is supported when any chunk supports it (MiniCheck's max over chunks).
CHECKER_NUM_CTX = 8192
DOCUMENT_TOKENS = CHECKER_NUM_CTX - 512  # room for the claim, the template and the answer
ANSWER_TOKENS = 16  # "Yes" is one token; a chatty reply is cut, its first word still counts

Protocol = Literal["minicheck", "guardian", "prompt", "choice"]
Verdict = Literal["supported", "unsupported", "uncertain"]
_ANSWER = re.compile(r"\s*(yes|no)\b", re.IGNORECASE)


@dataclass(frozen=True)
class Judge:
    """Who decides the uncertain claims of a run, ``research verify`` or the MCP ``verify``."""

    model: str  # the model asked; the drafting model when ``protocol`` is "prompt"
    protocol: Protocol
    drafting_model: str  # the prompt judge for what the checker does not take (Japanese)
    japanese: bool = False  # the checker takes Japanese sentences too (RESEARCH_JUDGE_JA)
    missing: str = ""  # a configured judge that Ollama does not have: the drafting model judged instead

    def protocol_for(self, claim: str, passages: list[str]) -> Protocol:
        """The checker for English; Japanese on either side (the claim or a passage written
        in Japanese) goes to the prompt judge unless configured."""
        if self.protocol in ("prompt", "choice"):
            return self.protocol
        if not self.japanese and any(_mostly_japanese(text) for text in (claim, *passages)):
            return "prompt"
        return self.protocol

    def describe(self) -> dict[str, object]:
        """For verification.json: which judge, and who took the Japanese sentences."""
        out = asdict(self)
        out["japanese_judge"] = self.model if self.protocol == "prompt" or self.japanese else self.drafting_model
        return out


def _mostly_japanese(text: str) -> bool:
    """Written in Japanese: a Japanese name in parentheses in an English passage is not."""
    return target_script_share(text, "ja") >= 0.5


def choose_judge(settings: Settings, drafting_model: str, installed: set[str] | None) -> Judge:
    """``RESEARCH_JUDGE_MODEL`` when set (the drafting model's name means the judge prompt),
    else ``bespoke-minicheck`` when installed, else the drafting model with the judge prompt.
    ``installed``: Ollama's model names (/api/tags); None when not known (then only an
    explicit judge is used, and trusted to exist)."""
    wanted = settings.judge_model.strip()
    if wanted and wanted not in (drafting_model, settings.model):
        if installed is not None and not model_is_installed(wanted, installed):
            return Judge(drafting_model, "prompt", drafting_model, missing=wanted)
        protocol: Protocol = "guardian" if wanted.split(":")[0] == GUARDIAN else "minicheck"
        return Judge(wanted, protocol, drafting_model, japanese=settings.judge_ja)
    if not wanted and installed is not None and model_is_installed(CHECKER, installed):
        return Judge(CHECKER, "minicheck", drafting_model, japanese=settings.judge_ja)
    return Judge(drafting_model, "prompt", drafting_model)


class KnowsInstalled(typing.Protocol):
    """What choosing a judge reads of a model client: its drafting model and Ollama's models."""

    @property
    def model(self) -> str: ...

    @property
    def installed(self) -> set[str] | None: ...


def judge_for(settings: Settings, manager: KnowsInstalled) -> Judge:
    """The judge of a run with these settings, once ``manager.ensure_ready()`` has said what
    Ollama has installed (before it, only an explicit RESEARCH_JUDGE_MODEL is used)."""
    return choose_judge(settings, manager.model, manager.installed)


def read_answer(content: str) -> bool | None:
    """True for a leading "Yes", False for a leading "No", None for anything else."""
    match = _ANSWER.match(content or "")
    return None if match is None else match.group(1).lower() == "yes"


def document_chunks(passages: list[str], budget: int = DOCUMENT_TOKENS) -> list[str]:
    """The passages joined into as few documents as fit ``budget`` tokens each, in order; a
    passage longer than the budget is cut into pieces (at a line or sentence end if it can)."""
    pieces: list[str] = []
    for passage in (p.strip() for p in passages):
        while passage and estimate_tokens(passage) > budget:
            cut = _cut_at(passage, budget)
            pieces.append(passage[:cut].strip())
            passage = passage[cut:].strip()
        if passage:
            pieces.append(passage)
    chunks: list[str] = []
    current: list[str] = []
    used = 0
    for piece in pieces:
        cost = estimate_tokens(piece) + 1
        if current and used + cost > budget:
            chunks.append("\n".join(current))
            current, used = [], 0
        current.append(piece)
        used += cost
    if current:
        chunks.append("\n".join(current))
    return chunks


def _cut_at(text: str, budget: int) -> int:
    """Where to cut ``text`` so the first part fits ``budget``: the last line or sentence end before it."""
    lo = fitting_prefix(text, budget, at_least=1)
    head = text[:lo]
    ends = [head.rfind(mark) + len(mark) for mark in ("\n", "。", ". ", "! ", "? ")]
    best = max(ends)
    return best if best > lo // 2 else lo


@dataclass
class CheckResult:
    verdict: Verdict
    reply: str = ""  # the reply that decided (or the last one), for verification.json readers
    calls: int = 0
    error: str = ""  # a failed call, said in the run's notes


def messages_for(protocol: Protocol, document: str, claim: str) -> list[dict[str, str]]:
    """The checker's own prompt: exactly what its Ollama model card shows."""
    if protocol == "guardian":
        return [{"role": "system", "content": "groundedness"}, {"role": "context", "content": document},
                {"role": "assistant", "content": claim}]
    return [{"role": "user", "content": f"Document: {document}\nClaim: {claim}"}]


async def check_claims(manager: Any, judge: Judge, items: list[tuple[str, list[str]]], *, node: str,
                       limit: int) -> list[CheckResult]:
    """Each ``(sentence, passages)`` checked by ``judge``'s checker, at most ``limit`` calls at once.

    The passages' chunks are tried in order until one supports the sentence. A chunk whose
    reply cannot be read leaves the sentence uncertain unless another chunk supports it.
    """
    gate = asyncio.Semaphore(max(1, limit))

    async def one(claim: str, passages: list[str]) -> CheckResult:
        result = CheckResult("unsupported")
        unreadable = False
        for document in document_chunks(passages) or [""]:
            async with gate:
                try:
                    content = await manager.ask(
                        judge.model, messages_for(judge.protocol, document, claim), node=node, role=ModelRole.CHECK,
                        num_ctx=CHECKER_NUM_CTX, num_predict=ANSWER_TOKENS)
                except OllamaCallFailed as exc:  # one failed call costs this sentence's verdict only
                    return CheckResult("uncertain", calls=result.calls + 1, error=str(exc)[:200])
            result.calls += 1
            result.reply = content[:80]
            answer = read_answer(content)  # a reply cut by the length limit counts if its first word is there
            if answer is None:
                unreadable = True
                continue
            grounded = answer if judge.protocol == "minicheck" else not answer  # guardian: Yes = risk
            if grounded:
                result.verdict = "supported"
                return result
        if unreadable:
            result.verdict = "uncertain"
        return result

    return list(await asyncio.gather(*(one(claim, passages) for claim, passages in items)))


# --- the choice protocol -------------------------------------------------------------------------

CHOICE_QUESTION = {
    "en": "Passage:\n{passage}\n\nWhich statement does the passage support?\nA: {first}\nB: {second}\n"
          "C: neither (the passage does not say)\n\nAnswer with one letter.",
    "ja": "文章:\n{passage}\n\n文章が裏付けているのはどれですか。\nA: {first}\nB: {second}\n"
          "C: どちらでもない（文章には書かれていない）\n\n記号を一文字で答えてください。",
}
# A letter is one token; a chatty model's "The answer is B." still has its letter in the first few.
CHOICE_TOKENS = 8
_LETTER = re.compile(r"(?<![A-Za-z])([ABC])(?![A-Za-z])|([ＡＢＣ])")
# Lower-cased after "It is not true that": a leading function word, never a name ("Marie Curie").
_LEADING_WORDS = frozenset("the a an in on at this that these those it its there some many most each every "
                           "all both one two several".split())


def negation_of(claim: str, language: Language) -> str:
    """The claim denied as a whole, in its own language: no word of it is changed, so the two
    statements differ only by the denial."""
    core = claim.strip().rstrip("。.!！?？")
    if language == "ja":
        return f"「{core}」というのは誤りである。"
    first, _, rest = core.partition(" ")
    if first.lower() in _LEADING_WORDS:
        core = f"{first.lower()} {rest}".strip()
    return f"It is not true that {core}."


def read_choice(content: str) -> str | None:
    """The letter a reply chose (A, B or C; the first one written), or None."""
    match = _LETTER.search(content or "")
    if match is None:
        return None
    return match.group(1) or "ABC"["ＡＢＣ".index(match.group(2))]


async def choose_claims(manager: Any, judge: Judge, items: list[tuple[str, list[str]]], *, language: Language, node: str,
                        limit: int, num_ctx: int) -> list[CheckResult]:
    """Each ``(sentence, passages)`` decided by the choice protocol, at most ``limit`` calls at once:
    supported when both orders chose the claim, unsupported when both chose its negation or both
    chose "neither", uncertain otherwise (two different letters: a guess by position; or a reply
    with no letter)."""
    gate = asyncio.Semaphore(max(1, limit))
    budget = max(256, num_ctx - 512)

    async def once(passage: str, first: str, second: str) -> str | None:
        prompt = CHOICE_QUESTION[language].format(passage=passage, first=first, second=second)
        async with gate:
            content = await manager.ask(judge.model, [{"role": "user", "content": prompt}], node=node,
                                        role=ModelRole.CHOOSE, num_ctx=num_ctx, num_predict=CHOICE_TOKENS)
        return read_choice(content)

    async def one(claim: str, passages: list[str]) -> CheckResult:
        negation = negation_of(claim, "ja" if _mostly_japanese(claim) else "en")
        passage = "\n\n".join(p.strip() for p in passages if p.strip())
        passage = passage[:fitting_prefix(passage, budget - estimate_tokens(claim) * 2, at_least=1)]
        try:
            straight, swapped = await asyncio.gather(once(passage, claim, negation), once(passage, negation, claim))
        except OllamaCallFailed as exc:
            return CheckResult("uncertain", calls=2, error=str(exc)[:200])
        # Read as what was chosen: the claim, its negation, or neither.
        said = ({"A": "claim", "B": "negation", "C": "neither"}.get(straight or ""),
                {"A": "negation", "B": "claim", "C": "neither"}.get(swapped or ""))
        reply = f"{straight or '?'}/{swapped or '?'}"
        if None in said:
            return CheckResult("uncertain", reply=reply, calls=2)
        if said == ("claim", "claim"):
            return CheckResult("supported", reply=reply, calls=2)
        if said in (("negation", "negation"), ("neither", "neither")):
            return CheckResult("unsupported", reply=reply, calls=2)
        return CheckResult("uncertain", reply=reply, calls=2, error="")

    return list(await asyncio.gather(*(one(claim, passages) for claim, passages in items)))

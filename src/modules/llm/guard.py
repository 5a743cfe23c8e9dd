"""A second opinion on page text from a guard model, where Ollama has one.

The grammar (modules/text/injection.py) removes the sentences of a page that address the
model. When Ollama lists IBM's ``granite3-guardian`` (Apache-2.0, any tag), the processing
node also asks it about the passages the grammar was unsure of:

- *flagged*: what is left of a line the grammar cut an instruction out of, and the line after
  it (the rest of an instruction is often beside it);
- *borderline*: a sentence the grammar kept that speaks to a model or a reader, or mentions
  instructions, a prompt, an AI or an assistant (「指示」「プロンプト」「AI」「アシスタント」).

Each passage is one call with the guardian's own protocol (its Ollama model card): the system
message names the risk, ``jailbreak``, the passage is the ``user`` message, and the reply is
``Yes`` when the passage is a jailbreak attempt. A Yes removes the sentence and marks the source
suspicious, as the grammar does. A No never brings back what the grammar removed, and a failed
or unreadable reply costs nothing: the grammar's decision stands, and the run notes it once.
"""

from __future__ import annotations

import asyncio
import re
from collections.abc import Collection
from dataclasses import dataclass, field
from typing import Any

from research.modules.core.errors import OllamaCallFailed, OllamaError
from research.modules.llm.judge import GUARDIAN, read_answer
from research.modules.llm.roles import ModelRole
from research.modules.text.claims import sentence_spans
from research.modules.text.injection import addresses_reader, normalise

GUARD_RISK = "jailbreak"
GUARD_PULL = f"ollama pull {GUARDIAN}"
GUARD_NUM_CTX = 2048  # one passage and the guardian's template
GUARD_ANSWER_TOKENS = 8
MAX_PASSAGE_CHARS = 1200  # a longer "sentence" is a paragraph the splitter could not cut: its start
MAX_PER_DOCUMENT = 8  # a page about prompt injection has many borderline sentences: the first ones
MAX_PER_RUN = 64

_MARKERS_EN = re.compile(
    r"\b(?:instructions?|prompts?|ai|assistants?|chatbots?|language models?|llms?|chat\s?gpt|gpt-?\d*|claude|gemini|"
    r"copilot|jailbreak\w*)\b"
    r"|\byou (?:must|should|need to|have to|are required to|will now)\b|^\W*(?:please|kindly)\s+\w+"
    r"|\b(?:dear|hey|attention,?) (?:reader|user|visitor)s?\b")
_MARKERS_JA = re.compile(r"指示|プロンプト|(?<![a-z0-9])ai(?![a-z0-9])|アシスタント|チャットボット|言語モデル|命令|脱獄|読者の(?:皆|方)")


def guard_model(installed: Collection[str] | None) -> str | None:
    """The guard Ollama lists: ``granite3-guardian`` under any tag (``:latest`` first, then the
    smallest name), or None (also when the installed models are not known)."""
    if not installed:
        return None
    names = sorted(name for name in installed if name.split(":")[0] == GUARDIAN)
    if not names:
        return None
    return next((name for name in names if name in (GUARDIAN, f"{GUARDIAN}:latest")), names[0])


def is_borderline(sentence: str) -> bool:
    """A kept sentence worth a second look: it addresses a reader or a model, or mentions
    instructions, a prompt, an AI or an assistant."""
    folded = normalise(sentence)
    return bool(_MARKERS_EN.search(folded) or _MARKERS_JA.search(folded) or addresses_reader(sentence))


def passages_to_screen(original: str, kept: str) -> list[str]:
    """The sentences of ``kept`` (``original`` after the grammar) the guard should see: those
    of a line the grammar cut something from and of the line after it, then the borderline
    ones, each once, in order."""
    before = original.splitlines()
    after = kept.splitlines()
    near_removal: set[int] = set()
    previous_changed = False
    for index, line in enumerate(after):
        changed = index < len(before) and before[index].strip() != line.strip()
        if line.strip() and (changed or previous_changed):
            near_removal.add(index)
        if line.strip() or changed:
            previous_changed = changed
    out: list[str] = []
    for index, line in enumerate(after):
        for start, end in sentence_spans(line) or [(0, len(line))]:
            sentence = line[start:end].strip()
            if len(re.sub(r"\W", "", sentence)) < 4 or sentence in out:
                continue
            if index in near_removal or is_borderline(sentence):
                out.append(sentence)
    return out


def messages_for(passage: str) -> list[dict[str, str]]:
    """The guardian's protocol for one risk: the risk as the system message, the text as the user's."""
    return [{"role": "system", "content": GUARD_RISK}, {"role": "user", "content": passage[:MAX_PASSAGE_CHARS]}]


@dataclass
class GuardResult:
    risky: set[str] = field(default_factory=set)  # passages the guard answered Yes for
    asked: int = 0
    failed: list[str] = field(default_factory=list)  # why a call failed
    unreadable: list[str] = field(default_factory=list)  # replies that were neither Yes nor No


async def screen_passages(manager: Any, model: str, passages: list[str], *, limit: int,
                          node: str = "guard") -> GuardResult:
    """Each passage asked once, at most ``limit`` calls at once; what the guard said Yes to."""
    gate = asyncio.Semaphore(max(1, limit))
    result = GuardResult()

    async def one(passage: str) -> None:
        async with gate:
            try:
                content = await manager.ask(model, messages_for(passage), node=node, role=ModelRole.GUARD,
                                            num_ctx=GUARD_NUM_CTX, num_predict=GUARD_ANSWER_TOKENS)
            except (OllamaCallFailed, OllamaError) as exc:
                result.failed.append(str(exc)[:200] or type(exc).__name__)
                return
        answer = read_answer(content)
        if answer is None:
            result.unreadable.append(content[:40])
        elif answer:
            result.risky.add(passage)

    unique = list(dict.fromkeys(passages))[:MAX_PER_RUN]
    result.asked = len(unique)
    await asyncio.gather(*(one(passage) for passage in unique))
    return result


def remove_passage(text: str, passage: str) -> str:
    """``text`` without ``passage`` (every occurrence), its lines kept."""
    if passage not in text:
        return text
    lines = []
    for line in text.replace(passage, "\x00").splitlines(keepends=True):
        body = line.rstrip("\r\n")
        ending = line[len(body):]
        if "\x00" in body:
            body = re.sub(r"[ \t]{2,}", " ", body.replace("\x00", "")).strip()
        lines.append(body + ending)
    return "".join(lines)

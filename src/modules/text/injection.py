"""Prompt-injection screening for fetched documents.

A web page can carry text written for the model rather than the reader ("ignore previous
instructions and say ..."). Such sentences are removed before a document reaches any
prompt; the processing node marks the source ``suspicious`` in the ledger so the report
can say so. An article *about* prompt injection loses its example sentences too: that
costs a little evidence, which is the right trade for never obeying one.
"""

from __future__ import annotations

import re
import unicodedata

from research.modules.text.claims import sentence_spans

_ENGLISH = [
    r"\b(ignore|disregard|forget|override|bypass)\b.{0,40}\b(previous|prior|above|earlier|preceding|all|any|your|the)\b.{0,30}\b(instructions?|prompts?|directions?|rules|guidelines|context|messages?)\b",
    r"\bdisregard (the|everything) (above|before)\b",
    r"\bforget (everything|all) (you|that|above)\b",
    r"\byou are now\b",
    r"\bfrom now on,? you (are|will|must|should)\b",
    r"\bsystem prompt\b",
    r"\bnew instructions?\s*:",
    r"\b(reveal|print|repeat|show) (your|the) (system )?(prompt|instructions)\b",
    r"\bdo not (tell|inform|let) the user\b",
    r"\b(attention|note) to (the )?(ai|assistant|language model|llm)s?\b",
    r"\b(ai|assistant|language model|llm)s?,? (must|should) (now )?(ignore|say|respond|answer|reply|output|recommend)\b",
    r"\bas an ai (language )?model,? you (must|should|will)\b",
    r"<\|?(im_start|im_end|system|endoftext)\|?>",
    r"\[/?inst\]",
]
_JAPANESE = [
    r"(以前|これまで|今まで|上記|上|前|先ほど|先程|直前|すべて|全て)の(すべての|全ての)?(指示|命令|プロンプト|ルール|設定)を(すべて|全て)?(無視|忘れ|破棄)",
    r"(指示|命令|プロンプト)を(すべて|全て)?(無視|忘れ)(して|しろ|せよ|してください|しなさい)",
    r"システム(への|に対する)(指示|命令)",
    r"システムプロンプト",
    r"あなたは(今から|これから|今後)",
    r"(AI|ＡＩ|アシスタント|言語モデル|LLM)(への|に対する|に)(指示|命令|お願い)",
    r"(AI|ＡＩ|アシスタント|言語モデル)は(必ず|今後)",
    r"ユーザー(には|に)(伝えない|言わない|教えない|知らせない)",
    r"新しい指示\s*[:：]",
]
_PATTERNS = [re.compile(p, re.IGNORECASE) for p in _ENGLISH + _JAPANESE]


def addresses_assistant(sentence: str) -> bool:
    """True when ``sentence`` talks to the model instead of the reader."""
    normalised = unicodedata.normalize("NFKC", sentence)
    return any(p.search(normalised) for p in _PATTERNS)


def screen_injection(text: str) -> tuple[str, list[str]]:
    """Remove the sentences of ``text`` that address the assistant.

    Returns the cleaned text (line structure kept) and the removed snippets, in order.
    """
    removed: list[str] = []
    kept_lines: list[str] = []
    for line in text.splitlines(keepends=True):
        body = line.rstrip("\r\n")
        ending = line[len(body) :]
        if not addresses_assistant(body):
            kept_lines.append(line)
            continue
        spans = sentence_spans(body)
        bad = [(s, e) for s, e in spans if addresses_assistant(body[s:e])]
        if not bad:  # the pattern straddles a sentence boundary: drop the whole line
            removed.append(body.strip())
            kept_lines.append(ending)
            continue
        pieces, cursor = [], 0
        for s, e in bad:
            removed.append(body[s:e].strip())
            pieces.append(body[cursor:s])
            cursor = e
        pieces.append(body[cursor:])
        cleaned = re.sub(r"[ \t]{2,}", " ", "".join(pieces)).strip()
        kept_lines.append(cleaned + ending if cleaned else ending)
    return "".join(kept_lines), removed

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
    r"\b(ignore|disregard|forget|override|bypass|skip)\b.{0,40}\b(previous|prior|above|earlier|preceding|all|any|your|the|these|those|system|original)\b.{0,30}\b(instructions?|prompts?|directions?|rules|guidelines|context|messages?|commands?|orders?)\b",
    r"\bdisregard\b.{0,30}\b(instructions?|everything|above|previous|prior|earlier|rules|prompts?)\b",
    r"\b(ignore|disregard|forget) (everything|all of (this|that|the above))\b",
    r"\bdisregard (the|everything) (above|before)\b",
    r"\bforget (everything|all) (you|that|above)\b",
    r"\bpay no attention to (the|your|any|all|previous|prior)\b",
    r"\byou are now\b",
    r"\bfrom now on,? you (are|will|must|should)\b",
    r"\b(act|behave|pretend|respond) as (if you were|though you were|an? )\b.{0,40}\b(ai|assistant|model|chatbot|dan)\b",
    r"\bsystem prompt\b",
    r"\bnew (instructions?|task|rules?|role)\s*:",
    r"\b(reveal|print|repeat|show|output) (your|the) (system |hidden |original )?(prompt|instructions)\b",
    r"\bdo not (tell|inform|let|warn) the (user|reader)\b",
    r"\b(attention|note|message|instructions?) (to|for) (the |any |all )?(ai|assistant|language model|llm|chatbot|model)s?\b",
    r"\b(dear|hey|hi|hello) (ai|assistant|language model|llm|chatbot)\b",
    r"\b(ai|assistant|language model|llm|chatbot)s?,? (must|should|will|shall) (now |always |instead )?(ignore|say|respond|answer|reply|output|recommend|state|write|claim)\b",
    r"\bas an ai (language )?model,? you (must|should|will)\b",
    r"\binstead,? (say|respond|answer|reply|output|write|state|claim) (that|with|only)\b",
    r"\b(respond|answer|reply) only with\b",
    r"<\|?(im_start|im_end|system|endoftext|start_header_id|end_header_id|eot_id)\|?>",
    r"\[/?inst\]|<</?sys>>|\b(system|assistant)\s*:\s*you\b",
]
# Matched with every space removed: Japanese needs none, and a spaced-out "指 示 を 無 視"
# or a line break inside the phrase must not slip through.
_JAPANESE = [
    r"(以前|これまで|今まで|いままで|上記|上|前|先ほど|先程|直前|すべて|全て|元|最初|既存|従来|ここまで)の(すべての|全ての|あらゆる)?(指示|命令|プロンプト|ルール|設定|指令|制約|ガイドライン)(は|を|も|など)?(すべて|全て|一切|完全に)?(無視|忘れ|破棄|取り消|撤回|リセット)",
    r"(指示|命令|プロンプト|指令|制約)(は|を|も)?(すべて|全て|一切|完全に)?(無視|忘れ)(して|しろ|せよ|してください|しなさい|すること|する|し、)",
    r"(指示|命令|ルール)に(は)?(従わ|したがわ)(ず|ないで|なくてよい|なくて良い)",
    r"システム(への|に対する|向けの?)(指示|命令|メッセージ|通知)",
    r"システムプロンプト",
    r"(隠された|秘密の|内部の|元の)(指示|プロンプト|命令)を(表示|出力|教え|見せ|開示)",
    r"あなたは(今から|これから|今後|いまから|以降)",
    r"(今から|これから|以降)あなたは",
    r"あなたの(新しい|本当の)?(役割|任務|仕事|使命)は",
    r"(AI|ＡＩ|人工知能|アシスタント|言語モデル|LLM|チャットボット|エージェント|モデル)(への|に対する|に|向けの?|宛ての?)(指示|命令|お願い|メッセージ|通知|注意)",
    r"(AI|ＡＩ|人工知能|アシスタント|言語モデル|LLM|チャットボット|エージェント)[^。:：]{0,10}?(へ|宛て|殿|様|さん|各位)(の(方|かた))?[:：、,!！]",
    r"(AI|ＡＩ|アシスタント|言語モデル|LLM|チャットボット)(は|も)(必ず|今後|常に|代わりに)",
    r"ユーザー(には|に|へは|へ)(伝えない|言わない|教えない|知らせない|伝えず|言わず|教えず|知らせず|秘密)",
    r"新しい(指示|命令|ルール|役割)\s*[:：]",
    r"代わりに.{0,30}と(答え|回答|出力|返答|述べ|書い|言っ)(て|なさい|ろ)",
]
_PATTERNS = [re.compile(p, re.IGNORECASE) for p in _ENGLISH]
_JAPANESE_PATTERNS = [re.compile(p, re.IGNORECASE) for p in _JAPANESE]
# Spaced-out English ("I g n o r e  p r e v i o u s"), matched on the letters alone.
_SQUASHED = re.compile(
    r"(ignore|disregard|forget|override|bypass)(all|any|the|your|of|these|those)*(previous|prior|above|earlier|preceding|system)?"
    r"(instructions?|prompts?|rules|directions|guidelines|commands)|youarenow|systemprompt|newinstructions?|fromnowonyou"
)

# Look-alikes a page uses so "Іgnore" (Cyrillic І) or "ignοre" (Greek ο) escapes an ASCII
# pattern. NFKC already folds fullwidth and most compatibility forms; these are the
# Cyrillic and Greek letters it leaves alone (after lower-casing).
_CONFUSABLES = str.maketrans({
    "а": "a", "в": "b", "с": "c", "ԁ": "d", "е": "e", "ё": "e", "һ": "h", "і": "i", "ї": "i", "ј": "j",
    "к": "k", "ӏ": "l", "м": "m", "н": "h", "о": "o", "р": "p", "ԛ": "q", "г": "r", "ѕ": "s", "т": "t",
    "у": "y", "х": "x", "ԝ": "w", "ү": "y", "ɡ": "g", "ո": "n", "ս": "u",
    "α": "a", "β": "b", "ε": "e", "η": "n", "ι": "i", "κ": "k", "ν": "v", "ο": "o", "ρ": "p", "τ": "t",
    "υ": "u", "χ": "x", "γ": "y", "ω": "w", "ϲ": "c", "ı": "i", "ȷ": "j", "ℓ": "l",
    "¡": "i",
})
_FORMAT_CHARS = re.compile(r"[\u00ad\u034f\u061c\u115f\u1160\u17b4\u17b5\u180e\u200b-\u200f\u202a-\u202e\u2060-\u206f\u3164\ufeff\uffa0]")
# Three or more single letters each followed by one separator: letter-spaced text.
_LETTER_SPACED = re.compile(r"(?<![^\W_])(?:[^\W\d_][ \t.\-_·*|/]{1,3}){3,}[^\W\d_](?![^\W_])")


def normalise(text: str) -> str:
    """``text`` folded for matching: NFKC (fullwidth, ligatures), lower case, invisible
    characters dropped, Cyrillic/Greek look-alikes mapped to Latin, and letter-spaced
    runs ("I g n o r e") closed up (a wider gap stays a word break)."""
    folded = unicodedata.normalize("NFKC", text)
    folded = _FORMAT_CHARS.sub("", folded).lower().translate(_CONFUSABLES)
    folded = unicodedata.normalize("NFKC", folded)

    def close_up(match: re.Match[str]) -> str:
        words = re.split(r"\s{2,}|[ \t]*[/|][ \t]*", match.group(0))
        return " ".join(re.sub(r"[\W_]", "", word) for word in words)

    return _LETTER_SPACED.sub(close_up, folded)


def addresses_assistant(sentence: str) -> bool:
    """True when ``sentence`` talks to the model instead of the reader."""
    normalised = normalise(sentence)
    if any(p.search(normalised) for p in _PATTERNS):
        return True
    unspaced = re.sub(r"\s+", "", normalised)
    if any(p.search(unspaced) for p in _JAPANESE_PATTERNS):
        return True
    # Only letter-spaced runs are read squashed; ordinary prose keeps its word breaks.
    spaced = "".join(re.sub(r"[^a-z]", "", m.group(0)) for m in _LETTER_SPACED.finditer(unicodedata.normalize(
        "NFKC", _FORMAT_CHARS.sub("", sentence)).lower().translate(_CONFUSABLES)))
    return bool(spaced and _SQUASHED.search(spaced))


def screen_injection(text: str) -> tuple[str, list[str]]:
    """Remove the sentences of ``text`` that address the assistant.

    Returns the cleaned text (line structure kept) and the removed snippets, in order.
    Text from PDFs and narrow columns breaks lines mid-phrase, so two neighbouring lines
    are also read as one; when only together they address the assistant, both go.
    """
    lines = text.splitlines(keepends=True)
    split_across = _phrases_split_across_lines(lines)
    removed: list[str] = []
    kept_lines: list[str] = []
    for index, line in enumerate(lines):
        body = line.rstrip("\r\n")
        ending = line[len(body) :]
        if index in split_across:
            removed.append(body.strip())
            kept_lines.append(ending)
            continue
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


def _phrases_split_across_lines(lines: list[str]) -> set[int]:
    """Indexes of line pairs that address the assistant only when joined."""
    bodies = [line.strip() for line in lines]
    alone = [bool(body) and addresses_assistant(body) for body in bodies]
    flagged: set[int] = set()
    for index in range(len(bodies) - 1):
        first, second = bodies[index], bodies[index + 1]
        if not first or not second or alone[index] or alone[index + 1]:
            continue
        if addresses_assistant(first + " " + second):
            flagged.update((index, index + 1))
    return flagged

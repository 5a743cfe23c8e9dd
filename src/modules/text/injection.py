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
    # Role headers a page fakes: "[SYSTEM]: new instructions", "(admin note)", "<developer>".
    r"[\[(<{]\s*(system|sys|admin|administrator|developer|operator|root)\s*(message|note|prompt|override)?\s*[\])>}]",
    r"^\W*(system|admin|developer|operator)\s*(message|note|prompt|override)\s*:",
    r"\b(previous|prior|above|earlier|original) (instructions?|prompts?|directives?|rules) (are|is) (void|cancell?ed|revoked|obsolete|no longer)",
    r"\b(ignore|disregard|forget)\b.{0,30}\b(what|everything) (you were|you've been|you have been) (told|given|instructed)\b",
    r"\boverride (your|the) (programming|instructions|guidelines|safety)\b",
    r"\b(ignore|disregard|forget|bypass)\b.{0,40}\bdirectives?\b",
    r"\b(ignore|forget) (the|everything) (above|before|preceding)\b",
    r"\bstop (following|obeying) (your|the|all|any|previous|prior|earlier) (instructions|rules|guidelines|prompts?|orders)\b",
    r"\byour (new|real|true|actual) (task|instructions?|purpose|mission) (is|are)\b",
    r"\b(ai|ai model|ai system|language model|llm|chatbot|assistant)s? (reading|processing|summari[sz]ing|parsing|crawling) this\b",
    r"\bif you are (an? )?(ai|language model|llm|chatbot|ai assistant|bot|large language model)\b",
    r"\bwhen (summari[sz]ing|reading|processing|answering (questions )?about) this (page|document|text|article|site)\b.{0,40}\b(say|state|write|respond|claim|mention|include|tell)\b",
    r"\b(begin|start|end) your (answer|response|reply|summary) with\b",
    # Assistants by name: "ChatGPT, say …", "Dear Claude", "Gemini: respond …".
    r"\b(dear|hey|hi|hello|attention|note to|message to)\s+(chat\s?gpt|gpt-?\d*|claude|gemini|bard|copilot|llama|grok)\b",
    r"\b(chat\s?gpt|gpt-?\d+|claude|gemini|bard|copilot|llama|grok)\s*[,:]\s*(you |please )?(must|should|ignore|say|respond|answer|reply|output|write|forget|disregard|recommend|tell)\b",
]
# German and French phrasings of the same few instructions.
_OTHER = [
    # de
    r"\b(ignorier\w*|vergiss|vergessen sie|missacht\w*)\b.{0,40}\b(anweisung\w*|instruktion\w*|befehl\w*|regeln|vorgaben|prompts?)\b",
    r"\b(du bist|sie sind) (jetzt|ab sofort|nun) (ein|eine|der|die|das|mein|dein)\b",
    r"\bneue (anweisung\w*|aufgabe|regeln|rolle)\s*:",
    r"\b(sag|antworte|schreib)e? (nur|stattdessen|ausschließlich)\b",
    r"\bvergiss (alles|das obige|alle)\b|\b(was|das) dir (gesagt|befohlen|aufgetragen) wurde\b",
    # fr
    r"\b(ignore[rsz]?|ignorez|oublie[rsz]?|oubliez|néglige[rsz]?|négligez)\b.{0,40}\b(instructions?|consignes?|directives?|règles|ordres|prompts?)\b",
    r"\b(tu es|vous êtes) (maintenant|désormais|dorénavant)\b",
    r"\b(ignore[rsz]?|ignorez|oublie[rsz]?|oubliez) tout ce qu",
    r"\b(à partir de maintenant|désormais),? (tu|vous) (es|êtes|dois|devez)\b",
    r"\bnouvelles? (instructions?|consignes?|règles|tâche|rôle)\s*:",
    r"\b(réponds|répondez|dis|dites)[- ](seulement|uniquement|plutôt)\b",
]
# Chinese and Korean, matched with spaces removed as Japanese is.
_UNSPACED_OTHER = [
    # zh (simplified and traditional)
    r"(忽略|无视|無視|忘记|忘記|忽视|忽視|不要理会|不要理會|放弃|放棄)(掉)?(之前|以前|先前|上面|上述|前面|所有|全部|以上|此前|原来|原來|原有)?(的)?(所有|全部|一切)?(的)?(指令|指示|命令|提示|规则|規則|设定|設定)",
    r"(你|您)(现在|現在|从现在起|從現在起|今后|今後)(是|扮演|必须|必須)",
    r"新的?(指令|指示|任务|任務|规则|規則|角色)[:：]",
    r"系统提示|系統提示|系统指令|系統指令",
    r"不要(遵循|遵守|理会|理會|听从|聽從)(之前|以前|先前|上面|上述|前面|原来|原來)的?(所有)?(指令|指示|命令|提示|规则|規則)",
    # ko
    r"(이전|이전의|앞의|위의|위|기존|모든|지금까지의?)(모든)?(지시|지침|명령|프롬프트|규칙|설정)(사항)?(을|를|은|는|들을)?(모두|전부)?(무시|잊어|잊고|잊으|폐기)",
    r"(지시|지침|명령|프롬프트)(사항)?(을|를)?(무시|잊어)(하고|하라|해라|하세요|해|하십시오)",
    r"(지금부터|이제부터|앞으로)(당신|너|넌)(은|는)?",
    r"새로운(지시|지침|명령|규칙|역할)[:：]",
    r"시스템프롬프트",
    r"(앞의|위의|이전의?)(내용|지시|명령|지침)(은|는|을|를)?(모두|전부)?무시(하고|하라|해라|하세요|해)",
]
# Leetspeak ("1gn0r3 pr3v10u5 1n57ruc710n5") read as letters: a second pass only, so the
# digits of ordinary prose are never changed.
_LEET = str.maketrans({"0": "o", "1": "i", "3": "e", "4": "a", "5": "s", "7": "t", "8": "b", "@": "a", "$": "s",
                       "!": "i"})
_LEETISH = re.compile(r"[a-z][013457@$!]|[013457@$][a-z]")  # a digit inside a word: worth the second pass
# The order an instruction's first sentence introduces ("IGNORE PREVIOUS INSTRUCTIONS.
# SAY X."): a sentence right after a flagged one that is itself an order goes with it.
_ORDER = re.compile(
    r"^\W*(say|respond|answer|reply|output|write|print|state|claim|tell|recommend|praise|only|instead|just|"
    r"sag|antworte|schreib|dis|dites|réponds|répondez|écris|écrivez)\b"
    r"|と?(答え|回答し|出力し|返答し|述べ|書い|言っ|推薦し)(て|なさい|ろ|よ)"
    r"|^(请|請)?(回答|说|說|输出|輸出|写|寫)|(말하|답하|출력하|작성하)(라|세요|십시오)",
    re.IGNORECASE,
)
# Matched with every space removed: Japanese needs none, and a spaced-out "指 示 を 無 視"
# or a line break inside the phrase must not slip through.
_JAPANESE = [
    r"(以前|これまで|今まで|いままで|上記|上|前|先ほど|先程|直前|すべて|全て|元|最初|既存|従来|ここまで)の(すべての|全ての|あらゆる)?(指示|命令|プロンプト|ルール|設定|指令|制約|ガイドライン)(は|を|も|など)?(すべて|全て|一切|完全に)?(無視|忘れ|破棄|取り消|撤回|リセット)",
    r"(指示|命令|プロンプト|指令|制約)(は|を|も)?(すべて|全て|一切|完全に)?(無視|忘れ)(して|しろ|せよ|してください|しなさい|すること|する|し、)",
    r"(以前|これまで|今まで|上記|前|先ほど|先程|直前|元|最初|従来|ここまで)(まで)?の(すべての|全ての|あらゆる)?(指示|命令|プロンプト|ルール|指令|設定|制約)(は|を|も|など)?(すべて|全て|一切|完全に)?(気にせ|気にしな|無視|忘れ|破棄|取り消|撤回|リセット|なかったこと)",
    r"(ChatGPT|GPT|Claude|Gemini|Bard|Copilot|Llama|Grok|ジェミニ|クロード)[^。:：]{0,10}?(へ|宛て|殿|様|さん|各位)(の(方|かた))?[:：、,!！]",
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
    r"(AI|ＡＩ|人工知能|アシスタント|言語モデル|LLM|チャットボット)(は|が)(以下|次|これ以降|これから)の(指示|命令)に",
    r"この(文章|ページ|記事|文書|テキスト)を(読んだ|読む|読んでいる|処理する|要約する)(AI|ＡＩ|人工知能|アシスタント|言語モデル|LLM|チャットボット)",
    r"(これまで|今まで|以前|前|上記)の(会話|やり取り|やりとり|文脈|コンテキスト)(は|を)(すべて|全て)?(忘れ|無視)",
    r"代わりに.{0,30}と(答え|回答|出力|返答|述べ|書い|言っ)(て|なさい|ろ)",
]
_PATTERNS = [re.compile(p, re.IGNORECASE) for p in _ENGLISH + _OTHER]
_LEET_PATTERNS = _PATTERNS[: len(_ENGLISH)]
_JAPANESE_PATTERNS = [re.compile(p, re.IGNORECASE) for p in _JAPANESE + _UNSPACED_OTHER]
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
    if _LEETISH.search(normalised) and any(p.search(normalised.translate(_LEET)) for p in _LEET_PATTERNS):
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
    split_across, alone = _phrases_split_across_lines(lines)
    removed: list[str] = []
    kept_lines: list[str] = []
    follows_instruction = False  # the last non-empty line ended with a removed instruction
    for index, line in enumerate(lines):
        body = line.rstrip("\r\n")
        ending = line[len(body) :]
        if not body.strip():
            kept_lines.append(line)
            continue
        if index in split_across:
            removed.append(body.strip())
            kept_lines.append(ending)
            follows_instruction = True
            continue
        if not follows_instruction and not alone[index]:
            kept_lines.append(line)
            continue
        spans = sentence_spans(body) or [(0, len(body))]
        flagged = [addresses_assistant(body[s:e]) for s, e in spans]
        if not any(flagged) and alone[index]:  # it straddles a sentence boundary: the whole line
            removed.append(body.strip())
            kept_lines.append(ending)
            follows_instruction = True
            continue
        # The order that follows an instruction goes with it, on the same line or the next.
        previous = follows_instruction
        for number, span in enumerate(spans):
            if not flagged[number] and previous and _is_order(body[slice(*span)]):
                flagged[number] = True
            previous = flagged[number]
        follows_instruction = flagged[-1]
        if not any(flagged):
            kept_lines.append(line)
            continue
        bad = [span for span, is_bad in zip(spans, flagged) if is_bad]
        pieces, cursor = [], 0
        for s, e in bad:
            removed.append(body[s:e].strip())
            pieces.append(body[cursor:s])
            cursor = e
        pieces.append(body[cursor:])
        cleaned = re.sub(r"[ \t]{2,}", " ", "".join(pieces)).strip()
        kept_lines.append(cleaned + ending if cleaned else ending)
    return "".join(kept_lines), removed


def screen_title(title: str) -> tuple[str, list[str]]:
    """A page title (or a PDF's first line, which stands in for one) screened as a whole:
    a title that addresses the assistant is dropped entirely ("" is returned, so the
    caller shows the address instead) rather than cut to a misleading half."""
    _kept, removed = screen_injection(" ".join(title.split()))
    return ("", [title.strip()]) if removed else (title, [])


def _is_order(sentence: str) -> bool:
    """True for a short imperative sentence ("SAY X.", "と答えてください。"): the second half
    of an instruction whose first half was flagged."""
    text = normalise(sentence).strip()
    return bool(text) and len(text) <= 200 and bool(_ORDER.search(text))


# How much of each line around a line break is read as one: every pattern spans far less,
# so a phrase broken across the lines lies within it, and long lines are not read twice.
_ACROSS_WINDOW = 160


def _phrases_split_across_lines(lines: list[str]) -> tuple[set[int], list[bool]]:
    """Indexes of line pairs that address the assistant only when joined, and whether
    each line does on its own."""
    bodies = [line.strip() for line in lines]
    alone = [bool(body) and addresses_assistant(body) for body in bodies]
    flagged: set[int] = set()
    for index in range(len(bodies) - 1):
        first, second = bodies[index], bodies[index + 1]
        if not first or not second or alone[index] or alone[index + 1]:
            continue
        if addresses_assistant(first[-_ACROSS_WINDOW:] + " " + second[:_ACROSS_WINDOW]):
            flagged.update((index, index + 1))
    return flagged, alone

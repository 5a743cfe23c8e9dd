"""What a model's reply must lose before anyone reads it: harmony control text and a cut-off end.

gpt-oss speaks the harmony format. Served right, Ollama parses it; served wrong (an old
template, a raw completion, a quantised copy) the control text leaks into the answer in
several forms, all of which must go:
- ``<|channel|>analysis<|message|>…<|end|><|start|>assistant<|channel|>final<|message|>…<|return|>``;
- the same with the markers eaten: ``analysis…assistantfinal…``;
- a commentary (tool-call) channel: ``<|channel|>commentary to=functions.x <|constrain|>json<|message|>{…}<|call|>``;
- stray ``<|start|>``, ``<|end|>``, ``<|return|>``, ``<|message|>`` tokens.
"""

from __future__ import annotations

import re

_SEGMENT = re.compile(
    r"<\|channel\|>\s*(\w+)[^<]*?(?:<\|constrain\|>\s*\w+\s*)?<\|message\|>(.*?)"
    r"(?=<\|end\|>|<\|return\|>|<\|call\|>|<\|start\|>|<\|channel\|>|\Z)",
    re.DOTALL,
)
_TOKEN = re.compile(r"<\|(?:start|end|return|call|message|channel|constrain|endoftext|im_start|im_end)\|>")
_EATEN_MARKERS = re.compile(r"^\s*(?:analysis|commentary).*?assistant\s*final", re.DOTALL | re.IGNORECASE)
_ROLE_AFTER_START = re.compile(r"<\|start\|>\s*(?:assistant|user|system|developer)?")


def strip_control_text(text: str) -> str:
    """The final answer only, with no harmony markup or reasoning left in it."""
    if "<|channel|>" in text:
        finals = [m.group(2) for m in _SEGMENT.finditer(text) if m.group(1).lower() == "final"]
        if finals:
            text = "\n".join(finals)
        else:
            # No final channel: keep what lies outside every analysis/commentary segment.
            text = _SEGMENT.sub(" ", text)
    elif _EATEN_MARKERS.match(text):
        text = re.split(r"assistant\s*final", text, flags=re.IGNORECASE)[-1]
    text = _ROLE_AFTER_START.sub(" ", text)
    return _TOKEN.sub("", text).strip()


def drop_cut_off_sentence(text: str) -> str:
    """An answer stopped by the length limit ends mid-sentence: that sentence goes, so it
    is never cited or reported as if it were whole."""
    stripped = text.rstrip()
    if not stripped or stripped[-1] in "。.！？!?」』)）]":
        return stripped
    # Imported here: the sentence rules compile some thirty patterns, and the model client
    # is imported on the way to a run's first step, which needs none of them.
    from research.modules.text.claims import sentence_spans  # noqa: PLC0415

    last_line_start = stripped.rfind("\n") + 1
    line = stripped[last_line_start:]
    spans = sentence_spans(line)
    if not spans:
        return stripped[:last_line_start].rstrip()
    start = spans[-1][0]
    return (stripped[:last_line_start] + line[:start]).rstrip()

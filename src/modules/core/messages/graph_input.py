"""Messages about what a caller put into the graph (orchestrator/graph_input.py): the
question, language and depth, and nothing else."""

from __future__ import annotations

MESSAGES: dict[str, dict[str, str]] = {
    "graph_input.unknown_keys": {
        "en": "Refusing the input: '{keys}' cannot be set by a caller (only {allowed}). Nothing was run.",
        "ja": "入力を拒否しました: '{keys}' は呼び出し側が指定できません（指定できるのは {allowed} のみ）。"
        "何も実行していません。",
    },
    "graph_input.bad_value": {
        "en": "Refusing the input: '{name}' cannot be {value}. Nothing was run.",
        "ja": "入力を拒否しました: '{name}' に {value} は指定できません。何も実行していません。",
    },
    "graph_input.not_an_object": {
        "en": "Refusing the input: it must be an object with a question (not {kind}). Nothing was run.",
        "ja": "入力を拒否しました: question を含むオブジェクトが必要です（{kind} ではありません）。何も実行していません。",
    },
}

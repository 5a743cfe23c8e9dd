"""The counting pass-through of the real-model comparison (benchmarks/ollama_meter.py): it
forwards every request unchanged, streamed or not, and tallies the server's own counts per
label. No timing is asserted."""

from __future__ import annotations

import sys
from pathlib import Path

import ollama

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "benchmarks"))

from neutral_ollama import NeutralOllama  # noqa: E402
from ollama_meter import OllamaMeter  # noqa: E402

PROMPT = "[S1] Mount Fuji is 3,776 metres tall and it is the highest mountain in Japan.\n\nWrite the answer."


def test_the_meter_forwards_and_counts_what_the_server_reports():
    with NeutralOllama(models=("m",)) as server, OllamaMeter(server.url) as meter:
        client = ollama.Client(host=meter.url)
        assert [m.model for m in client.list().models] == ["m"]  # other endpoints pass through
        meter.label = "a"
        plain = client.chat(model="m", messages=[{"role": "user", "content": PROMPT}])
        streamed = list(client.chat(model="m", messages=[{"role": "user", "content": PROMPT}], stream=True))
        meter.label = "b"
        capped = client.chat(model="m", messages=[{"role": "user", "content": PROMPT}], options={"num_predict": 3},
                             format={"title": "Plan", "type": "object", "properties": {"x": {"type": "string"}}})
    assert "3,776" in plain.message.content and "".join(c.message.content for c in streamed) == plain.message.content
    a, b = meter.stats("a"), meter.stats("b")
    server_a = server.stats()
    assert a["calls"] == 2 and b["calls"] == 1
    assert a["prompt_tokens"] == 2 * plain.prompt_eval_count and a["completion_tokens"] == 2 * plain.eval_count
    assert b["by_format"] == {"schema:Plan": 1} and b["completion_tokens"] == capped.eval_count
    assert sum(t["calls"] for t in server_a.values()) == 3  # the server saw each request once

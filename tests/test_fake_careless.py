"""The fake model's careless behaviours (issue 29) plant what they say they plant.

One draft request per language, as the llm step sends it (a system prompt asking for the
language, a user prompt with the question, the sub-questions and the sources), one sentence
revision request and one judge batch: fast, no whole research run.
"""

from __future__ import annotations

import json
import re
import urllib.request
from pathlib import Path

import pytest
from fixtures.fake_ollama import CARELESS, REALISTIC, REPAIR_LEAK, FakeOllama

from research.modules.llm.roles import ROLE_HEADER, ModelRole

EN_PROMPT = """Question: Mount Fuji: how high is it and when did it last erupt?

Sub-questions:
1. How high is Mount Fuji?
2. When did Mount Fuji last erupt?

Sources:
[S1] Mount Fuji: facts and history — http://127.0.0.1:1/en/mount-fuji.html
- Mount Fuji is 3,776 m (12,388 ft) tall.
- Mount Fuji is an active stratovolcano on Honshu, about 100 km south-west of Tokyo.
- The last eruption of Mount Fuji was the Hōei eruption, which began on 16 December 1707.
- Mount Fuji was added to the UNESCO World Heritage List as a cultural site in 2013.

[S2] LangGraph persistence — http://127.0.0.1:1/en/langgraph.html
- SqliteSaver stores checkpoints in a SQLite database file, while InMemorySaver keeps them in memory only.

Write the answer in English with [S#] citations."""

JA_PROMPT = """質問: 日本の再生可能エネルギーの内訳は？

サブ質問:
1. 日本の再生可能エネルギーの内訳は？
2. 日本の再生可能エネルギーの主な事実と数値は？

出典:
[S1] 日本の電源構成（2022年度） — http://127.0.0.1:1/ja/energy-mix.html
- 2022年度の日本の発電電力量に占める再生可能エネルギーの割合は21.7%だった。
- 再生可能エネルギーの内訳では太陽光発電が9.2%で最も多く、水力発電が7.6%で続いた。
- 日本の発電では火力が最も多く、次いで水力発電が続いている。風力発電は近年増えている。

[S2] ビットコインの仕組み — http://127.0.0.1:1/ja/bitcoin.html
- ビットコインは2009年に運用が始まった暗号資産である。

[#] の引用を付けて、日本語で回答を書いてください。"""

SYSTEM = {"en": "You are a careful research assistant. Answer the user's question in English.",
          "ja": "あなたは慎重な調査アシスタントです。質問に日本語で答えてください。"}
NEW = CARELESS - REALISTIC


def chat(fake: FakeOllama, system: str, user: str, fmt: dict | None = None, role: ModelRole = ModelRole.DRAFT) -> str:
    """One request as ModelManager sends it: the call's role declared in its header."""
    body = {"model": "gpt-oss:20b", "stream": False,
            "messages": [{"role": "system", "content": system}, {"role": "user", "content": user}]}
    if fmt is not None:
        body["format"] = fmt
    request = urllib.request.Request(fake.url + "/api/chat", json.dumps(body).encode(),
                                     {"Content-Type": "application/json", ROLE_HEADER: str(role)})
    with urllib.request.urlopen(request, timeout=10) as response:
        return json.loads(response.read())["message"]["content"]


def plain(text: str) -> str:
    """Text without citations, marks or spacing differences."""
    return " ".join(re.sub(r"\s*\[S\d+\]", "", text).split())


@pytest.fixture
def careless():
    with FakeOllama() as fake:
        fake.behaviours = set(NEW)  # only the new ones: no paraphrase or citation styles to see through
        yield fake


def test_careless_is_realistic_and_more():
    assert REALISTIC < CARELESS
    assert NEW == {"both_values", "swap_roles", "title_sentence", "template_heading", "off_topic",
                   "repair_leak", "uncited", "drop_fact", "duplicate"}


def test_the_repair_leak_is_the_programs_own_repair_message():
    source = (Path(__file__).parents[1] / "src/modules/llm/model_manager.py").read_text("utf-8")
    assert REPAIR_LEAK.startswith("Your reply was not valid JSON for the required schema (")
    assert "Your reply was not valid JSON for the required schema " in source


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_each_draft_behaviour_plants_a_sentence_that_is_in_the_draft(careless, lang):
    draft = chat(careless, SYSTEM[lang], EN_PROMPT if lang == "en" else JA_PROMPT)
    planted = careless.planted
    assert careless.drafts == [draft]
    flat = plain(draft)
    for name in ("both_values", "swap_roles", "title_sentence", "off_topic", "uncited", "repair_leak"):
        assert planted.get(name), (name, planted)
        for sentence in planted[name]:
            assert plain(sentence) in flat, (name, sentence, draft)
    (heading,) = planted["template_heading"]
    assert heading in draft.splitlines()
    duplicated, doubled = planted["duplicate"]
    assert flat.count(plain(duplicated)) >= 2 and doubled in draft
    assert re.search(r"\[S(\d)\] \[S\1\]", doubled)
    # What each one is.
    if lang == "en":
        assert heading == "### <Sub-question> 1."
        assert planted["title_sentence"] == ["Mount Fuji: facts and history."]
        assert "Mount Fuji: facts and history [S1]." in draft
        assert planted["uncited"] == ["Mount Fuji is a popular subject of Japanese art."]
        assert re.search(r"^(- )?Mount Fuji is a popular subject of Japanese art\.$", draft, flags=re.MULTILINE)
        assert planted["off_topic"] == ["SqliteSaver stores checkpoints in a SQLite database file, while "
                                        "InMemorySaver keeps them in memory only."]
        # Both years are in the source; the fact gets the other one.
        (both,) = planted["both_values"]
        assert both not in EN_PROMPT and re.sub(r"\d{4}", "", both) in re.sub(r"\d{4}", "", EN_PROMPT)
        # Two names of one sentence exchanged rather than a contrast word turned ("south-west").
        assert planted["swap_roles"] == ["InMemorySaver stores checkpoints in a SQLite database file, while "
                                         "SqliteSaver keeps them in memory only."]
    else:
        assert heading == "### <テーマ> 1. 日本の再生可能エネルギーの内訳は？"
        assert planted["title_sentence"] == ["日本の電源構成（2022年度）。"]
        assert planted["uncited"] == ["再生可能エネルギーは今後さらに普及すると期待されている。"]
        assert planted["off_topic"] == ["ビットコインは2009年に運用が始まった暗号資産である。"]
        assert planted["both_values"] == ["2022年度の日本の発電電力量に占める再生可能エネルギーの割合は9.2%だった。"]
        assert planted["swap_roles"] == ["日本の発電では水力が最も多く、次いで火力発電が続いている。風力発電は近年増えている。"]
    assert REPAIR_LEAK in draft.splitlines()


def test_without_the_new_behaviours_nothing_new_is_planted():
    with FakeOllama() as fake:
        fake.behaviours = set(REALISTIC)
        chat(fake, SYSTEM["en"], EN_PROMPT)
        assert not set(fake.planted) & (NEW | {"judge_lenient"}), fake.planted


def test_a_call_is_what_it_declares_not_what_its_prompt_says(careless):
    # The draft's prompt declared as a style rewrite is no draft: nothing planted, no draft kept.
    chat(careless, SYSTEM["en"], EN_PROMPT, role=ModelRole.REWRITE)
    assert careless.drafts == [] and not careless.planted
    # A draft asked in other words is a draft, with every behaviour.
    draft = chat(careless, "Use only the numbered sources below.", EN_PROMPT)
    assert careless.drafts == [draft] and set(careless.planted) >= {"uncited", "title_sentence", "off_topic"}
    assert [r["role"] for r in careless.requests if r["path"] == "/api/chat"] == ["rewrite", "draft"]


def test_drop_fact_leaves_the_figure_out_of_a_revision(careless):
    user = EN_PROMPT.split("Sources:\n")[1].split("\n\nWrite")[0]
    user = f"Sources:\n{user}\n\nSentences to revise:\nSentence 1: Mount Fuji is 3,779 m (12,388 ft) tall [S1]."
    schema = {"title": "SentenceRevisions", "type": "object"}
    reply = json.loads(chat(careless, "Revise each sentence. Reply with JSON only, in English.", user, schema,
                            role=ModelRole.REVISE))
    (item,) = reply["sentences"]
    assert careless.planted["drop_fact"] == [plain(item["text"])]
    assert "3,776" not in item["text"] and "Mount Fuji" in item["text"] and "[S1]" in item["text"]


def test_the_judge_is_wrong_only_leniently_and_as_often_as_told():
    # The judge prompt's shape: the passage once, then every claim naming it.
    claims = "Passages:\n[P1] (S1) Mount Fuji is 3,776 m tall.\n\nClaims:\n" + "\n".join(
        f"Claim {n} (P1): Mount Fuji is {3000 + n} m tall." for n in range(1, 201))
    schema = {"title": "JudgeBatch", "type": "object"}
    with FakeOllama() as fake:
        fake.behaviours = {"paraphrase"}
        fake.judge_accuracy = 0.85
        verdicts = json.loads(chat(fake, "You check claims.", claims, schema, role=ModelRole.JUDGE))["verdicts"]
        lenient = [v for v in verdicts if v["verdict"] == "supported"]
        assert 15 <= len(lenient) <= 45  # about 15% of 200, all of them wrong the lenient way
        assert len(fake.planted["judge_lenient"]) == len(lenient)
    with FakeOllama() as fake:  # accuracy 1.0 by default: the judge as before
        fake.behaviours = {"paraphrase"}
        verdicts = json.loads(chat(fake, "You check claims.", claims, schema, role=ModelRole.JUDGE))["verdicts"]
        assert all(v["verdict"] == "unsupported" for v in verdicts)

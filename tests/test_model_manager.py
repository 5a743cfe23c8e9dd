"""ModelManager against the fake Ollama server, through the real `ollama` client."""

from __future__ import annotations

import asyncio
import time

import pytest
from fixtures.fake_ollama import THINKING_MARKER, FakeOllama

from research.modules.core.errors import OllamaError
from research.modules.llm.model_manager import (STRUCTURED_DEFAULT_TOKENS, THINKING_ALLOWANCE, ModelManager, _ThinkFilter,
                                               capped_lines)
from research.modules.core.settings import load_settings
from research.modules.llm.roles import ModelRole
from research.modules.text.tokens import estimate_tokens, truncate_to_tokens
from research.workflow.prompts import PlannedQuery, QueryPlan
from research.workflow.verification_prompts import JudgeBatch

FALLBACK = QueryPlan(queries=[PlannedQuery(text="fallback", language="en")])


# A model that does not reason: its reply alone meets the cap.
NOT_THINKING = {"model": "qwen2.5-coder:1.5b", "think": "off"}


def _manager(fake: FakeOllama, **flags) -> ModelManager:
    if flags.get("model") == NOT_THINKING["model"] and flags["model"] not in fake.models:
        fake.models.append(flags["model"])  # installed, as it is on a machine that uses it
    return ModelManager(load_settings(ollama_host=fake.url, **flags))


async def test_structured_reply_is_validated(fake_ollama):
    plan = await _manager(fake_ollama).structured(
        [{"role": "user", "content": "LangGraphのチェックポイントとは？"}], QueryPlan, node="input", role=ModelRole.PLAN,
        fallback=FALLBACK,
    )
    assert [q.language for q in plan.queries] == ["ja", "en"]
    request = fake_ollama.chat_requests()[-1]
    assert request["format"]["title"] == "QueryPlan" and request["stream"] is False


async def test_malformed_json_is_retried_once_then_falls_back(fake_ollama):
    fake_ollama.mode = "malformed"
    plan = await _manager(fake_ollama).structured([{"role": "user", "content": "q"}], QueryPlan,
                                                  node="input", role=ModelRole.PLAN, fallback=FALLBACK)
    assert plan is FALLBACK
    assert len(fake_ollama.chat_requests()) == 2  # the first try and one repair
    assert "not valid JSON" in fake_ollama.chat_requests()[-1]["messages"][-1]["content"]


async def test_a_capped_structured_reply_asks_ollama_for_at_most_that_many_tokens(fake_ollama):
    # issue 29, with the real model: a 1.5B model held to the judge's grammar wrote until the
    # 600 s request timeout and the run ended "Ollama unreachable".
    manager = _manager(fake_ollama)
    await manager.structured([{"role": "user", "content": "q"}], QueryPlan, node="input", role=ModelRole.PLAN, fallback=FALLBACK,
                             max_tokens=184)
    # gpt-oss thinks at "low" (it cannot stop): its reasoning counts against num_predict, so the
    # cap is the reply's need plus the reasoning's allowance, never the reply's alone.
    allowance = THINKING_ALLOWANCE["low"]
    assert fake_ollama.chat_requests()[-1]["options"]["num_predict"] == 184 + allowance
    fake_ollama.mode = "malformed"
    await manager.structured([{"role": "user", "content": "q"}], QueryPlan, node="input", role=ModelRole.PLAN, fallback=FALLBACK)
    # Without a cap of its own a structured call still has one: no call may write unbounded.
    assert fake_ollama.chat_requests()[-1]["options"]["num_predict"] == STRUCTURED_DEFAULT_TOKENS + allowance
    assert manager.usage["input"]["repairs"] == 2  # each reply that did not fit its schema is counted


async def test_server_error_falls_back_for_structured_steps(fake_ollama):
    fake_ollama.mode = "error500"
    plan = await _manager(fake_ollama).structured([{"role": "user", "content": "q"}], QueryPlan,
                                                  node="input", role=ModelRole.PLAN, fallback=FALLBACK)
    assert plan is FALLBACK


async def test_streaming_never_shows_thinking_and_counts_usage(fake_ollama):
    manager = _manager(fake_ollama, num_ctx=4096)
    tokens: list[str] = []
    answer = await manager.stream(
        [{"role": "system", "content": "Answer in English."},
         {"role": "user", "content": "Q\n[S1] Fuji — http://x\n- Mount Fuji is 3,776 metres high.\n"}],
        node="llm", role=ModelRole.DRAFT, on_token=tokens.append,
    )
    assert "3,776" in answer and "[S1]" in answer
    assert THINKING_MARKER not in answer and THINKING_MARKER not in "".join(tokens)
    assert len(tokens) > 1  # it really streamed
    request = fake_ollama.chat_requests()[-1]
    assert request["options"]["num_ctx"] == 4096 and request["think"] == "low"
    assert manager.usage["llm"]["calls"] == 1 and manager.usage["llm"]["completion_tokens"] > 0


async def test_missing_model_and_fallback_model(fake_ollama):
    with pytest.raises(OllamaError) as missing:
        await _manager(fake_ollama, model="nope:1b").ensure_ready()
    assert missing.value.exit_code == 3
    assert "ollama pull nope:1b" in missing.value.message("en")
    assert await _manager(fake_ollama, model="nope:1b", fallback_model="gpt-oss:20b").ensure_ready() == "gpt-oss:20b"


async def test_unreachable_ollama_is_a_one_line_error():
    manager = ModelManager(load_settings(ollama_host="http://127.0.0.1:9"))
    with pytest.raises(OllamaError) as down:
        await manager.ensure_ready()
    assert down.value.message("ja") == "Ollama に接続できません（http://127.0.0.1:9）— `ollama serve` で起動してください"


def test_inline_think_tags_are_filtered_across_chunks():
    visible = _ThinkFilter()
    out = "".join(visible.feed(c) for c in ["Hel", "lo <thi", "nk>secret</th", "ink> world"])
    assert out == "Hello  world"


def test_token_estimate_is_cjk_aware():
    assert estimate_tokens("富士山の標高は3776メートル") > estimate_tokens("Mount Fuji 3776 m") / 2
    assert estimate_tokens("あ" * 100) == 100
    cut = truncate_to_tokens("line one\n" * 200, 50)
    assert estimate_tokens(cut) <= 50 and cut.endswith("one")


# Every form in which gpt-oss's harmony text leaks, each around the same final answer.
LEAKED_FORMS = [
    "<|channel|>analysis<|message|>User wants X. Let me think.<|end|><|start|>assistant<|channel|>final<|message|>Mount Fuji is 3,776 m high [S1].<|return|>",
    "analysisUser wants X. Let me think.assistantfinalMount Fuji is 3,776 m high [S1].",
    "<|channel|>commentary to=functions.search <|constrain|>json<|message|>{\"q\": \"fuji\"}<|call|>"
    "<|start|>assistant<|channel|>final<|message|>Mount Fuji is 3,776 m high [S1].<|end|>",
    "Mount Fuji is 3,776 m high [S1].<|return|>",
]


@pytest.mark.parametrize("leaked", LEAKED_FORMS)
def test_every_harmony_form_is_stripped(leaked):
    from research.modules.llm.hygiene import strip_control_text

    assert strip_control_text(leaked) == "Mount Fuji is 3,776 m high [S1]."


def test_cut_off_sentence_is_dropped():
    from research.modules.llm.hygiene import drop_cut_off_sentence

    assert drop_cut_off_sentence("Fuji is high [S1]. Its last eruption was in") == "Fuji is high [S1]."
    assert drop_cut_off_sentence("富士山は高い[S1]。最後の噴火は") == "富士山は高い[S1]。"
    assert drop_cut_off_sentence("Complete sentence.") == "Complete sentence."


def test_gpt_oss_gets_only_thinking_levels():
    from research.modules.llm.model_manager import _think_for

    assert _think_for("gpt-oss:20b", False) == "low" and _think_for("gpt-oss:20b", "high") == "high"
    assert _think_for("qwen3:8b", "low") is True and _think_for("qwen3:8b", False) is False


@pytest.mark.parametrize("size", [1, 3, 7, 40])
@pytest.mark.parametrize("leaked", LEAKED_FORMS)
def test_a_streamed_answer_never_shows_control_text_or_reasoning(leaked, size):
    # What the terminal shows while the answer streams, chunk by chunk, for every leak form.
    from research.modules.llm.hygiene import StreamedAnswer

    stream = StreamedAnswer()
    shown = [stream.feed(leaked[i:i + size]) for i in range(0, len(leaked), size)]
    shown.append(stream.finish())
    text = "".join(shown)
    assert text == "Mount Fuji is 3,776 m high [S1]."
    assert all("<|" not in part and "analysis" not in part and "User wants" not in part for part in shown)


def test_a_streamed_answer_that_opens_with_the_word_analysis_is_shown_whole():
    from research.modules.llm.hygiene import StreamedAnswer

    stream = StreamedAnswer()
    answer = "Analysis of the sources shows that Mount Fuji is 3,776 m high [S1]."
    shown = "".join(stream.feed(answer[i:i + 5]) for i in range(0, len(answer), 5)) + stream.finish()
    assert shown == answer


@pytest.mark.parametrize("turns", [1, 2])  # the fake leaks the marked form, then the eaten one
async def test_streaming_a_harmony_leak_shows_only_the_final_answer(fake_ollama, turns):
    fake_ollama.behaviours = {"harmony"}
    manager = _manager(fake_ollama)
    messages = [{"role": "system", "content": "Answer in English."},
                {"role": "user", "content": "Q\n[S1] Fuji — http://x\n- Mount Fuji is 3,776 metres high.\n"}]
    for _ in range(turns):
        tokens: list[str] = []
        answer = await manager.stream(messages, node="llm", role=ModelRole.DRAFT, on_token=tokens.append)
    shown = "".join(tokens)
    assert "3,776" in shown and shown.strip() == answer.strip()
    assert "<|" not in shown and "We need to answer" not in shown and "The user wants" not in shown


def test_one_answer_to_is_this_model_installed():
    # The REPL's /model and the run's start-up check ask the same function (issue 25).
    from research.modules.llm.model_manager import installed_name, model_is_installed

    listed = ["qwen3:latest", "gpt-oss:20b"]
    assert installed_name("qwen3", listed) == "qwen3:latest"
    assert installed_name("gpt-oss:20b", listed) == "gpt-oss:20b"
    assert installed_name("gpt-oss", listed) is None  # "gpt-oss" means gpt-oss:latest, not :20b
    assert installed_name("qwen3:8b", listed) is None
    assert model_is_installed("qwen3", set(listed)) and not model_is_installed("qwen3:8b", set(listed))


async def test_a_streamed_answer_asks_for_at_most_the_room_left_for_it(fake_ollama):
    # With the real 1.5B model a draft repeated itself for eleven minutes: the stream is capped,
    # and a thinking model's reasoning has its allowance on top (it counts against num_predict).
    await _manager(fake_ollama, **NOT_THINKING).stream([{"role": "user", "content": "q"}], node="llm",
                                                       role=ModelRole.DRAFT, on_token=lambda _: None, max_tokens=1000)
    assert fake_ollama.chat_requests()[-1]["options"]["num_predict"] == 1000
    await _manager(fake_ollama).stream([{"role": "user", "content": "q"}], node="llm", role=ModelRole.DRAFT,
                                       on_token=lambda _: None, max_tokens=1000)
    assert fake_ollama.chat_requests()[-1]["options"]["num_predict"] == 1000 + THINKING_ALLOWANCE["low"]


async def test_a_judge_reply_cut_at_its_cap_keeps_the_verdicts_it_finished_and_is_said(fake_ollama):
    # Three claims, a cap that leaves room for about one verdict: the whole verdicts before the
    # cut count, no repair call writes them all again, and the run gets a problem line.
    manager = _manager(fake_ollama, **NOT_THINKING)  # gpt-oss's reasoning has an allowance on top
    user = ("Passages:\n[P1.1] (S1) Mount Fuji is 3,776 m tall.\n\nClaims:\n"
            + "\n".join(f"Claim {n} (P1): Mount Fuji is 3,776 m tall." for n in (1, 2, 3)))
    batch = await manager.structured([{"role": "user", "content": user}], JudgeBatch, node="verification", role=ModelRole.JUDGE,
                                     fallback=None, max_tokens=40)
    assert [v.id for v in batch.verdicts] == [1] and batch.verdicts[0].verdict == "supported"
    assert batch.verdicts[0].sentences == ["P1.1"]  # the sentence it named survives the cut with it
    assert len(fake_ollama.chat_requests()) == 1  # no repair round
    (line,) = capped_lines(manager, "en")
    assert "40 tokens" in line and "verification" in line
    assert capped_lines(manager, "en") == []  # said once


async def test_a_runaway_free_text_reply_stops_at_the_cap_without_a_second_try(fake_ollama):
    manager = _manager(fake_ollama, **NOT_THINKING)  # gpt-oss's reasoning has an allowance on top
    reply = await manager.chat([{"role": "system", "content": "Rewrite the sentence."},
                                {"role": "user", "content": "Mount Fuji is 3,776 m tall. " * 40}], node="style", role=ModelRole.REWRITE,
                               max_tokens=10)
    assert len(fake_ollama.chat_requests()) == 1 and fake_ollama.chat_requests()[0]["options"]["num_predict"] == 10
    assert len(reply) <= 30
    assert capped_lines(manager, "ja")[0].startswith("style の段階で")


_LONG_SENTENCE = ("The risk of cardiovascular events is higher in the tamoxifen arm compared to the AI arm, "
                  "and the risk is not significantly different between the two arms. ")


@pytest.mark.parametrize("written, kept", [
    # The real model's loop, stopped in the middle of a copy: one citation kept, ending whole.
    ("The height of Mount Fuji is 3,776 m tall. " + "[S1]" * 20 + "[S", "The height of Mount Fuji is 3,776 m tall. [S1]"),
    ("Fuji is in Japan. " + "It is 3,776 m tall. " * 6, "Fuji is in Japan. It is 3,776 m tall."),
    ("富士山の標高は3,776メートルです" + "[S1]。" * 16, "富士山の標高は3,776メートルです[S1]。"),
    # Issue 48: the sentence the real model wrote over and over (PubMed abstracts), said a third time.
    ("Both were compared [S1]. " + _LONG_SENTENCE * 3, "Both were compared [S1]. " + _LONG_SENTENCE.strip()),
    ("Both were compared [S1].\n\n" + (_LONG_SENTENCE + "\n") * 3 + _LONG_SENTENCE[:50],
     "Both were compared [S1].\n\n" + _LONG_SENTENCE.strip()),
    # A REPL follow-up: "## 1節 … ## 56節" with nothing under any heading; the headings go.
    ("## 結論\n\n富士山は日本一高い山です[S1]。\n\n" + "".join(f"## {n}節 詳細\n\n" for n in range(1, 7)) + "## 7",
     "## 結論\n\n富士山は日本一高い山です[S1]。"),
])
def test_a_stream_that_repeats_one_piece_is_cut_after_its_first_copy(written, kept):
    from research.modules.llm.hygiene import repeating_tail

    assert written[:repeating_tail(written)].rstrip() == kept


@pytest.mark.parametrize("written", [
    "| a | b | c |\n|---|---|---|" + "---|" * 40,  # a wide table's separator row: no word in it
    "Step 1. Step 2. Step 3. Step 4. Step 5. Step 6. Step 7.",  # a count, not a loop
    "[S1]" * 12,  # a long citation run is not yet a loop
    "It is tall. " * 5,  # five times: a model's emphasis, not yet a loop
    _LONG_SENTENCE * 2,  # a paragraph written under two headings: a repeat, not a loop
    "## Summary\n\nA [S1].\n\n## 1. A\n### 1.1 B\n### 1.2 C\n## 2. D\n",  # four headings in a row
    "=" * 300,
])
def test_repeated_text_that_is_not_a_loop_is_left_alone(written):
    from research.modules.llm.hygiene import repeating_tail

    assert repeating_tail(written) is None


async def test_a_structured_reply_cut_at_its_cap_is_not_asked_again(fake_ollama):
    # Written to the cap without closing its JSON: a repair call would run away the same way.
    manager = _manager(fake_ollama, **NOT_THINKING)  # gpt-oss's reasoning has an allowance on top
    plan = await manager.structured([{"role": "user", "content": "LangGraphのチェックポイントとは？" * 5}], QueryPlan,
                                    node="input", role=ModelRole.PLAN, fallback=FALLBACK, max_tokens=4)
    assert plan is FALLBACK and len(fake_ollama.chat_requests()) == 1
    assert manager.usage["input"]["fallbacks"] == 1 and capped_lines(manager, "en")


async def test_a_thinking_model_gets_its_verdict_out_under_the_judge_s_cap(fake_ollama):
    """The judge's reply is capped at a few tokens; gpt-oss reasons first (the fake too, and
    like Ollama it counts that against num_predict). The reply still arrives whole, not cut in
    the reasoning; a model that does not think gets the bare cap."""
    from research.workflow.verification_prompts import JUDGE_TOKENS_FRAME, JUDGE_TOKENS_PER_CLAIM

    cap = JUDGE_TOKENS_PER_CLAIM + JUDGE_TOKENS_FRAME
    manager = _manager(fake_ollama)
    plan = await manager.structured([{"role": "user", "content": "LangGraphのチェックポイントとは？"}], QueryPlan,
                                    node="verification", role=ModelRole.PLAN, fallback=FALLBACK, max_tokens=cap)
    assert plan is not FALLBACK and not manager.capped
    plain = _manager(fake_ollama, **NOT_THINKING)
    await plain.structured([{"role": "user", "content": "q"}], QueryPlan, node="verification", role=ModelRole.PLAN, fallback=FALLBACK,
                           max_tokens=cap)
    assert fake_ollama.chat_requests()[-1]["options"]["num_predict"] == cap


# --- the model client's contract and the roles ------------------------------------------------
@pytest.mark.parametrize("shared_fake", [False, True])
def test_the_model_manager_and_the_tests_fake_are_model_clients(fake_ollama, shared_fake):
    import inspect

    from fixtures.fake_model import FakeModel

    from research.workflow.dependencies import ModelClient

    client = FakeModel() if shared_fake else _manager(fake_ollama)
    assert isinstance(client, ModelClient)
    # isinstance only sees the names: each method also takes what the protocol says, by name and kind.
    methods = [name for name, member in vars(ModelClient).items()
               if inspect.isfunction(member) and not name.startswith("_")]
    assert {"chat", "stream", "structured", "ask", "context_budget", "take_capped", "ensure_ready"} <= set(methods)
    for name in methods:
        wanted = [(p.name, p.kind) for p in inspect.signature(getattr(ModelClient, name)).parameters.values()]
        given = [(p.name, p.kind) for p in inspect.signature(getattr(type(client), name)).parameters.values()]
        assert given == wanted, name
        assert inspect.iscoroutinefunction(getattr(type(client), name)) == inspect.iscoroutinefunction(
            getattr(ModelClient, name)), name


async def test_each_call_declares_its_role_where_ollama_ignores_it(fake_ollama):
    from research.modules.llm.roles import ROLE_HEADER

    manager = _manager(fake_ollama)
    messages = [{"role": "user", "content": "Q\n[S1] Fuji — http://x\n- Mount Fuji is 3,776 metres high.\n"}]
    await manager.structured(messages, QueryPlan, node="input", role=ModelRole.PLAN, fallback=FALLBACK)
    await manager.stream(messages, node="llm", role=ModelRole.DRAFT, on_token=lambda _: None)  # sent when first read
    await manager.chat(messages, node="style", role=ModelRole.REWRITE)
    await manager.ask("gpt-oss:20b", messages, node="judge", role=ModelRole.CHECK, num_ctx=2048, num_predict=8)
    chats = [r for r in fake_ollama.requests if r["path"] == "/api/chat"]
    assert [r["role"] for r in chats] == ["plan", "draft", "rewrite", "check"]
    # In a header only: the body has nothing Ollama's chat endpoint does not define.
    known = {"model", "messages", "tools", "stream", "think", "format", "options", "keep_alive", "logprobs",
             "top_logprobs"}
    assert all(set(r["body"]) <= known and "role" not in r["body"]["options"] for r in chats)
    assert ROLE_HEADER == "X-Research-Role"


async def test_concurrent_calls_each_send_their_own_role(fake_ollama):
    import asyncio

    manager = _manager(fake_ollama)
    messages = [{"role": "user", "content": "q"}]
    roles = [ModelRole.PLAN, ModelRole.JUDGE, ModelRole.FOLLOW_UP, ModelRole.REVISE] * 3
    await asyncio.gather(*(manager.structured(messages, QueryPlan, node="input", role=role, fallback=FALLBACK)
                           for role in roles))
    sent = sorted(r["role"] for r in fake_ollama.requests if r["path"] == "/api/chat")
    assert sent == sorted(str(role) for role in roles)


async def test_the_fake_answers_by_the_declared_role_not_the_prompt_wording(fake_ollama):
    manager = _manager(fake_ollama, **NOT_THINKING)
    evidence = "Q\n[S1] Fuji — http://x\n- Mount Fuji is 3,776 metres high.\n"
    # A style rewrite whose instructions say nothing the fake could match still drops the banned word.
    reply = await manager.chat([{"role": "system", "content": 'Please avoid "basically" here.'},
                                {"role": "user", "content": "Fuji is basically tall [S1]."}],
                               node="style", role=ModelRole.REWRITE)
    assert reply == "Fuji is tall [S1]."
    # A draft whose system prompt reads like the old rewrite prompt is still a draft.
    draft = await manager.stream([{"role": "system", "content": "Rewrite the sentence."},
                                  {"role": "user", "content": evidence}],
                                 node="llm", role=ModelRole.DRAFT, on_token=lambda _: None)
    assert draft.startswith("## Summary") and "3,776" in draft
    # The answer's language is the one its instructions are written in, whatever they say.
    japanese = await manager.stream([{"role": "system", "content": "出典だけを使って答えてください。"},
                                     {"role": "user", "content": "質問\n[S1] 富士山 — http://x\n- 富士山の標高は3,776メートルです。\n"}],
                                    node="llm", role=ModelRole.DRAFT, on_token=lambda _: None)
    assert japanese.startswith("## 結論")
    # The same schema asked for another purpose gets only what its schema demands.
    user = "Passages:\n[P1.1] (S1) Mount Fuji is 3,776 m tall.\n\nClaims:\nClaim 1 (P1): Mount Fuji is 3,776 m tall."
    judged = await manager.structured([{"role": "user", "content": user}], JudgeBatch, node="verification",
                                      role=ModelRole.JUDGE, fallback=None)
    unjudged = await manager.structured([{"role": "user", "content": user}], JudgeBatch, node="verification",
                                        role=ModelRole.PLAN, fallback=None)
    assert [v.verdict for v in judged.verdicts] == ["supported"] and unjudged.verdicts == []


async def test_a_stream_to_a_model_without_thinking_drops_the_parameter_and_answers(fake_ollama):
    # Issue 48's walk: a session resumed at the draft step, whose first call is the stream, failed
    # with 'Ollama returned an error: "qwen2.5-coder:1.5b" does not support thinking'.
    fake_ollama.models = ("qwen2.5-coder:1.5b",)
    fake_ollama.no_thinking_models = {"qwen2.5-coder:1.5b"}
    manager = _manager(fake_ollama, model="qwen2.5-coder:1.5b", think="low")
    answer = await manager.stream([{"role": "user", "content": "What is the height of Mount Fuji?"}], node="llm",
                                  role=ModelRole.DRAFT, on_token=lambda _: None, max_tokens=500)
    assert answer
    sent = [body.get("think") for body in fake_ollama.chat_requests()]
    assert sent[0] and not sent[-1]  # asked once with it, then without it for good


# The real model's follow-up draft in issue 48's walk (qwen2.5-coder:1.5b, the REPL, 2026-11-28):
# one sentence of the source under heading after heading, until its cap.
_WALK_DRAFT = ("## 結論\n宝永大噴火は1707年12月16日に始まった富士山の噴火である。江戸（現在の東京）にも火山灰が降り、"
               "数センチメートル積もったと記録されている。\n\n## 1. 宝永大噴火の概要\n噴火は約2週間続いた。"
               "江戸（現在の東京）にも火山灰が降り、数センチメートル積もったと記録されている。\n\n## 3. 江戸の灰の影響\n"
               "江戸（現在の東京）にも火山灰が降り、数センチメートル積もったと記録されている。")


def test_a_sentence_said_a_third_time_anywhere_ends_the_stream_before_it():
    from research.modules.llm.hygiene import said_a_third_time

    end = said_a_third_time(_WALK_DRAFT)
    assert end is not None and _WALK_DRAFT[:end].endswith("## 3. 江戸の灰の影響\n")
    assert _WALK_DRAFT[:end].count("数センチメートル積もったと記録されている。") == 2
    twice = _WALK_DRAFT[:end].rstrip()
    assert said_a_third_time(twice) is None  # the Summary's sentence said again in a section: not a loop
    assert said_a_third_time("It is tall. " * 3) is None  # a short sentence: emphasis, not a loop


async def test_a_stream_that_says_a_sentence_a_third_time_is_closed_there(fake_ollama, monkeypatch):
    # Streamed through the real client: the walk's draft, its sentence said again and again to the cap.
    repeated = _WALK_DRAFT + "".join(f"\n\n## {n}. 噴火の影響\n江戸（現在の東京）にも火山灰が降り、数センチメートル"
                                     "積もったと記録されている。" for n in range(4, 60))
    monkeypatch.setattr(fake_ollama, "reply", lambda body, role="": (repeated, ""))
    fake_ollama.token_delay = 0.005
    manager = _manager(fake_ollama, **NOT_THINKING)
    answer = await manager.stream([{"role": "user", "content": "q"}], node="llm", role=ModelRole.DRAFT,
                                  on_token=lambda _: None, max_tokens=3000)
    assert answer.count("数センチメートル積もったと記録されている。") == 2, answer
    # The server learns the client went away at its next write or the one after (a token later).
    deadline = time.monotonic() + 5
    while not fake_ollama.streams_abandoned and time.monotonic() < deadline:
        await asyncio.sleep(0.01)
    (sent,) = fake_ollama.streams_abandoned
    assert sent < len(_WALK_DRAFT) + 100, sent  # closed at the third copy, not read to the end
    assert manager.usage["repetition_cut"]["calls"] == 1

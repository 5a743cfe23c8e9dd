"""Faults on the model side: Ollama dying mid-stream, a 500 on the draft, replies that
are never valid JSON, and a prompt that overflows the context window."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from conftest import load_json_line, research_in_process, session_dirs
from fault_helpers import assert_whole_files, events, last_line
from fixtures.fake_model import Call, FakeModel
from fixtures.memory_history import MemoryHistory

from research.modules.llm.model_manager import ContextOverflow, ModelManager
from research.modules.core.settings import Settings
from research.modules.llm.roles import ModelRole
from research.workflow.context_fit import MAX_SHRINKS, stream_within_context
from research.workflow.dependencies import WorkflowDependencies

pytestmark = pytest.mark.faults


@pytest.mark.e2e
def test_ollama_dying_mid_stream_is_one_line_then_resume_completes(research_env, fake_ollama):
    fake_ollama.mode = "die_midstream"
    result = research_in_process(["What is the height of Mount Fuji?", "--json"], research_env)
    assert result.returncode == 3, result.stderr
    (session,) = session_dirs(research_env)
    line = last_line(result.stderr)
    assert "stopped answering in the middle of a reply" in line
    assert f"research --resume {session.name.removeprefix('session_')}" in line
    assert not (session / "llm_draft.md").exists(), "a partial answer is never kept"
    assert json.loads((session / "meta.json").read_text("utf-8"))["status"] == "failed"
    assert_whole_files(session)

    fake_ollama.mode = "normal"  # Ollama is back
    resumed = research_in_process(["--resume", session.name, "--json"], research_env)
    assert resumed.returncode == 0, resumed.stderr
    assert Path(load_json_line(resumed.stdout)["report_pdf"]).is_file()
    assert_whole_files(session)


@pytest.mark.e2e
def test_a_500_on_the_draft_is_one_line_in_japanese_with_exit_3(research_env, fake_ollama):
    fake_ollama.mode = "error500_stream"
    result = research_in_process(["富士山の高さは？", "--lang", "ja"], research_env)
    assert result.returncode == 3, result.stderr
    line = last_line(result.stderr)
    assert "Ollama がエラーを返しました" in line and "llama runner process has terminated" in line
    assert "--resume" in line
    (session,) = session_dirs(research_env)
    assert [e for e in events(session) if e["event"] == "node_error"][0]["node"] == "llm"


@pytest.mark.e2e
def test_json_that_never_validates_falls_back_and_the_report_says_so(shared_run):
    run = shared_run("malformed")  # the fake's structured replies are never valid JSON
    assert run.result.returncode == 0, run.result.stderr
    session = Path(run.summary["session_dir"])
    structured = [r for r in run.chats if r.get("format")]
    assert structured and any("not valid JSON" in r["messages"][-1]["content"] for r in structured)
    usage = json.loads((session / "meta.json").read_text("utf-8"))["usage"]
    degraded = {node: entry["fallbacks"] for node, entry in usage.items() if entry.get("fallbacks")}
    assert degraded, usage
    # One retry with the validation error, then the fallback: two requests per fallback.
    assert len(structured) == 2 * sum(degraded.values())
    report = (session / "report.md").read_text("utf-8")
    assert "Degraded" in report and next(iter(degraded)) in report


async def test_structured_call_falls_back_after_a_repair_attempt(fake_ollama):
    from pydantic import BaseModel

    class Answer(BaseModel):
        value: int

    fake_ollama.mode = "malformed"
    model = ModelManager(Settings(ollama_host=fake_ollama.url))
    fallback = Answer(value=-1)
    assert await model.structured([{"role": "user", "content": "2+2?"}], Answer, node="t", role=ModelRole.PLAN,
                                  fallback=fallback) is fallback
    requests = fake_ollama.chat_requests()
    assert len(requests) == 2 and "not valid JSON" in requests[1]["messages"][-1]["content"]
    assert model.usage["t"]["fallbacks"] == 1 and model.usage["t"]["calls"] == 2


@pytest.mark.e2e
def test_context_overflow_shrinks_the_evidence_and_says_so(research_env, fake_ollama):
    # The fake's tokenizer counts far more tokens than the client's estimate, so the
    # first prompt fills num_ctx: Ollama would silently drop its beginning.
    fake_ollama.chars_per_token = 0.5
    research_env["RESEARCH_NUM_CTX"] = "2048"
    result = research_in_process(["What is the height of Mount Fuji?", "--json"], research_env)
    assert result.returncode == 0, result.stderr
    session = Path(load_json_line(result.stdout)["session_dir"])
    drafts = [r for r in fake_ollama.chat_requests() if r.get("stream")]
    sizes = [len(r["messages"][-1]["content"]) for r in drafts]
    # Asked again with less evidence each time, at most twice more.
    # Each retry sends a strictly smaller prompt: lower-ranked passages leave first.
    assert len(sizes) == MAX_SHRINKS + 1 and all(a > b for a, b in zip(sizes, sizes[1:])), sizes
    overflows = [e for e in events(session) if e["event"] == "context_overflow"]
    assert [e["shrinks"] for e in overflows] == [0, 1, 2]
    # At least halved; halved again when half would still send the same passages.
    assert overflows[1]["evidence_budget"] <= overflows[0]["evidence_budget"] // 2
    # Never silent: progress, the report and meta.json all say so.
    assert "retrying with half the evidence" in " ".join(result.stderr.split())  # rich wraps lines
    report = (session / "report.md").read_text("utf-8")
    assert "context still overflowed" in report and "NUM\\_CTX (now 2048)" in report  # Markdown-escaped
    usage = json.loads((session / "meta.json").read_text("utf-8"))["usage"]
    assert usage["context_overflow"]["calls"] == 3


@pytest.mark.e2e
def test_a_draft_caught_in_a_loop_is_stopped_and_the_report_says_so(research_env, fake_ollama):
    # Qwen2.5-Coder-1.5B (2026-11-28) wrote "… tall. [S1][S1][S1]…" to its 3,072-token cap: five
    # and a half minutes of one citation. Here the fake loops the same way, slowly enough that
    # reading it to the cap would take over 7 s.
    fake_ollama.behaviours = {"loop"}
    fake_ollama.token_delay = 0.01
    result = research_in_process(["What is the height of Mount Fuji?", "--json"], research_env)
    assert result.returncode == 0, result.stderr
    summary = load_json_line(result.stdout)
    # The stream was closed soon after the loop began, not read to the cap (9,216 characters).
    (sent,) = fake_ollama.streams_abandoned
    assert sent < 600, sent
    answer = summary["answer"].split("## Notes")[0]
    (first,) = fake_ollama.planted["loop"]
    assert answer.count("[S") == 1 and "[S1][S1]" not in summary["answer"]
    assert first.split("\n")[-1].split("[S")[0].strip() in answer  # the sentence before the loop is kept
    report = (Path(summary["session_dir"]) / "report.md").read_text("utf-8")
    assert "the same thing over and over in the llm step" in " ".join(report.split())
    usage = json.loads((Path(summary["session_dir"]) / "meta.json").read_text("utf-8"))["usage"]
    assert usage["repetition_cut"]["calls"] == 1


@pytest.mark.e2e
def test_a_long_sentence_said_over_and_over_is_stopped_at_its_third_time(research_env, fake_ollama):
    # Issue 48: the real 1.5B model wrote one long sentence (longer than the 100 characters the
    # stop looked for) over and over, for 350–400 s of the draft step. Streamed through the real
    # client, slowly enough that reading it to the cap would take over 10 s.
    fake_ollama.behaviours = {"loop_sentence"}
    fake_ollama.token_delay = 0.01
    result = research_in_process(["What is the height of Mount Fuji?", "--json"], research_env)
    assert result.returncode == 0, result.stderr
    summary = load_json_line(result.stdout)
    (sent,) = fake_ollama.streams_abandoned
    assert sent < 1200, sent  # three copies and the line before them, not 30,000 characters
    draft = (Path(summary["session_dir"]) / "llm_draft.md").read_text("utf-8")
    assert draft.count("tamoxifen arm") == 1, draft
    # The draft's cap fits its job: a one-section answer does not get the whole 3,072-token reserve.
    caps = [body["options"]["num_predict"] for body in fake_ollama.chat_requests() if body.get("stream")]
    assert caps and max(caps) < 3072, caps
    usage = json.loads((Path(summary["session_dir"]) / "meta.json").read_text("utf-8"))["usage"]
    assert usage["repetition_cut"]["calls"] == 1


def _overflowing(fits_after: int | None = None) -> FakeModel:
    """A model whose context is full (what a far too small num_ctx looks like): every draft
    overflows, or only those before the ``fits_after``-th, which fits."""
    def draft(call: Call) -> str | ContextOverflow:
        count = len(model.asked(ModelRole.DRAFT))
        if fits_after is None:
            return ContextOverflow(f"answer {count}", 9999, 4096)
        return "fits" if count > fits_after else ContextOverflow("truncated answer", 4096, 4096)

    model = FakeModel(Settings(), draft=draft, strict=True)
    return model


def _prompts(model: FakeModel) -> list[str]:
    return [call.prompt for call in model.asked(ModelRole.DRAFT)]


async def test_overflow_is_retried_twice_then_kept_with_a_recorded_warning():
    model, history = _overflowing(), MemoryHistory()
    deps = WorkflowDependencies(settings=model.settings, model=model, web_search=None, parser=None, history=history)
    budgets: list[int] = []

    def messages_for(budget: int) -> list[dict[str, str]]:
        budgets.append(budget)
        return [{"role": "user", "content": "x" * budget}]

    text, errors = await stream_within_context(deps, messages_for, 4000, node="llm", session_id="s", lang="en")
    assert budgets == [4000, 2000, 1000]
    assert text == "answer 3"
    assert len(errors) == 1 and errors[0].kind == "context" and "RESEARCH_NUM_CTX" in errors[0].message
    assert [e for e, _ in history.events] == ["context_overflow"] * 3


async def test_overflow_once_then_fits_keeps_the_second_answer_and_records_the_shrink():
    model, history = _overflowing(fits_after=1), MemoryHistory()
    deps = WorkflowDependencies(settings=model.settings, model=model, web_search=None, parser=None, history=history)
    text, errors = await stream_within_context(
        deps, lambda budget: [{"role": "user", "content": "y" * budget}], 3000, node="llm", session_id="s", lang="ja")
    assert text == "fits" and [len(p) for p in _prompts(model)] == [3000, 1500]
    assert len(errors) == 1 and "1 回縮小" in errors[0].message

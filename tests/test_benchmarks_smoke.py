"""The benchmark instruments themselves: the neutral fake Ollama speaks the protocol to the
official client and favours no program; the tree sampler sees a whole process tree; the
comparison's ratios and verdicts come out of the measured numbers. No timing is asserted:
speed lives in benchmarks/."""

from __future__ import annotations

import json
import subprocess
import sys
import time
from pathlib import Path

import ollama
import pytest
from pydantic import BaseModel, Field

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "benchmarks"))

import compare_lcr  # noqa: E402
from neutral_ollama import NeutralOllama, count_tokens  # noqa: E402
from treemem import TreeSampler, spread  # noqa: E402

SOURCES = (
    "Question: How tall is Mount Fuji?\n\n"
    "[S1] Mount Fuji is 3,776 metres tall and it is the highest mountain in Japan.\n"
    "[S2] 富士山の最後の噴火は1707年の宝永噴火であり、江戸にも火山灰が降った。\n\n"
    "Write the answer."
)


class Finding(BaseModel):
    text: str = Field(min_length=1, max_length=40)
    verdict: str = Field(json_schema_extra={"enum": ["yes", "no"]})


class Answer(BaseModel):
    findings: list[Finding] = Field(min_length=2)
    confident: bool
    count: int = Field(ge=3)


@pytest.fixture
def fake():
    with NeutralOllama(models=("m",)) as server:
        yield server


def test_chat_answers_from_the_prompt_with_the_labels_it_shows(fake):
    client = ollama.Client(host=fake.url)
    fake.label = "one"
    reply = client.chat(model="m", messages=[{"role": "user", "content": SOURCES}])
    assert "Mount Fuji is 3,776 metres tall and it is the highest mountain in Japan [S1]." in reply.message.content
    assert "宝永噴火であり、江戸にも火山灰が降った [S2]。" in reply.message.content
    assert reply.done_reason == "stop" and reply.eval_count == count_tokens(reply.message.content)
    assert reply.prompt_eval_count == count_tokens(SOURCES) + 4

    plain = client.chat(model="m", messages=[{"role": "user", "content": "Mount Fuji is a tall volcano in Japan."}])
    assert plain.message.content == "Mount Fuji is a tall volcano in Japan." and "[" not in plain.message.content

    streamed = list(client.chat(model="m", messages=[{"role": "user", "content": SOURCES}], stream=True))
    assert "".join(c.message.content for c in streamed) == reply.message.content
    assert streamed[-1].done and streamed[-1].done_reason == "stop" and len(streamed) > 10

    capped = client.chat(model="m", messages=[{"role": "user", "content": SOURCES}], options={"num_predict": 5})
    assert capped.done_reason == "length" and capped.eval_count == 5

    generated = client.generate(model="m", prompt="Mount Fuji is a tall volcano in Japan.")
    assert generated.response == "Mount Fuji is a tall volcano in Japan."

    assert fake.stats("one")["calls"] == 5 and fake.stats("one")["by_endpoint"] == {"/api/chat": 4, "/api/generate": 1}
    with pytest.raises(ollama.ResponseError) as missing:
        client.chat(model="absent", messages=[{"role": "user", "content": "hi"}])
    assert missing.value.status_code == 404


def test_structured_answers_follow_the_schema_and_ignore_its_names(fake):
    client = ollama.Client(host=fake.url)
    schema = Answer.model_json_schema()
    reply = client.chat(model="m", messages=[{"role": "user", "content": SOURCES}], format=schema)
    answer = Answer.model_validate_json(reply.message.content)
    assert len(answer.findings) == 2 and answer.count == 3 and answer.findings[0].verdict == "yes"
    assert answer.findings[0].text == "How tall is Mount Fuji?"  # a question asked in the prompt comes first

    # Neutral: renaming every title and description changes nothing in the answer.
    renamed = json.loads(json.dumps(schema).replace('"title": "', '"title": "Other').replace("Finding", "Thing"))
    again = client.chat(model="m", messages=[{"role": "user", "content": SOURCES}], format=renamed)
    assert json.loads(again.message.content) == json.loads(reply.message.content)

    example = 'Reply like this example:\n{"query": "some words", "reasons": ["a"], "score": 2}'
    shaped = client.chat(model="m", format="json", messages=[{"role": "system", "content": example},
                                                             {"role": "user", "content": "What is the height of Fuji?"}])
    assert json.loads(shaped.message.content) == {"query": "What is the height of Fuji?",
                                                  "reasons": ["What is the height of Fuji?"], "score": 2}


def test_tree_sampler_sees_a_child_process():
    code = ("import subprocess, sys, time; b = bytearray(40 * 2**20); "
            "c = subprocess.Popen([sys.executable, '-c', 'import time; b = bytearray(60 * 2**20); time.sleep(1.5)']); "
            "c.wait()")
    process = subprocess.Popen([sys.executable, "-c", code])
    sampler = TreeSampler(process.pid, interval=0.05).start()
    process.wait()
    sampler.stop()
    assert sampler.processes_seen == 2 and sampler.peak_processes == 2
    assert sampler.peak_pss_kib > 100 * 1024 and sampler.peak_rss_kib >= sampler.peak_pss_kib


def test_run_tree_counts_an_orphan_left_running():
    # In a child interpreter: run_tree makes its process a subreaper, which pytest's must not become.
    script = (
        "import json, sys; sys.path.insert(0, 'benchmarks'); from treemem import run_tree; "
        "r = run_tree([sys.executable, '-c', \"import subprocess, sys; "
        "subprocess.Popen([sys.executable, '-c', 'sum(range(3 * 10**7))']); print('parent done')\"]); "
        "print(json.dumps({'code': r.exit_code, 'seen': r.processes_seen, 'left': r.stragglers, 'cpu': r.cpu_s, "
        "'out': r.stdout}))"
    )
    result = subprocess.run([sys.executable, "-c", script], cwd=ROOT, capture_output=True, text=True, timeout=60)
    figures = json.loads(result.stdout.strip().splitlines()[-1])
    assert figures["code"] == 0 and figures["out"] == "parent done"
    assert figures["seen"] == 2 and figures["left"] == 1
    assert figures["cpu"] > 0.2  # the orphan's loop is in the tree's CPU


def test_comparison_ratios_and_verdicts_come_from_the_runs():
    ours = [{"wall_s": w, "cpu_s": 2.0, "peak_pss_mib": 300.0, "peak_rss_mib": 400.0, "processes": 9, "llm_calls": 3,
             "prompt_tokens": 600, "completion_tokens": 100, "last_report_file_to_exit_s": 0.3,
             "first_node_s": 0.4, "session_line_s": 0.1, "last_session_file_to_exit_s": 0.2, "own_count_calls": 3,
             "stragglers": 0} for w in (2.0, 3.0, 4.0)]
    theirs = [{"wall_s": w, "cpu_s": 4.0, "peak_pss_mib": 100.0, "peak_rss_mib": 110.0, "processes": 1,
               "llm_calls": 9, "prompt_tokens": 15000, "completion_tokens": 600, "last_report_file_to_exit_s": 0.4,
               "spawn_to_graph_imported_s": 2.0, "import_s": 1.9} for w in (4.0, 6.0, 5.0)]
    # A failed run is counted and leaves out its whole pair.
    ours.append({"failed": True, "exit_code": 1, "wall_s": 0.5, "stderr_tail": ["boom"]})
    theirs.append({**theirs[0], "wall_s": 1.0})
    result = compare_lcr.summarise(ours, theirs, {"pairs": 4, "question": "q", "language": "en",
                                                  "tokens_per_second": 0.0, "warmup_runs_each": 1})
    assert result["ratios"]["wall_ratio"] == {"ratio": 0.6, "pair_min": 0.5, "pair_max": 0.8}
    assert result["ours"]["wall_s"] == spread([2.0, 3.0, 4.0])
    assert result["targets"]["wall_ratio"]["pass"] is True
    assert result["targets"]["tree_memory_ratio"] == {"limit": 1.5, "measured": 3.0, "pass": False}
    assert result["targets"]["first_node_vs_lcr_import"]["measured"] == 0.2
    assert result["targets"]["last_file_to_exit_s"]["pass"] is True
    assert result["complete_pairs"] == 3 and result["failed_runs"] == {"ours": 1, "lcr": 0}
    table = compare_lcr.markdown(result)
    assert "Failed runs, left out with their pair: ours 1, LCR 0" in table
    assert "| Tree memory (PSS), ours / LCR | ≤ 1.5 | 3.00 | FAIL |" in table
    assert "3.00 s (2.00–4.00)" in table


def test_judge_ceilings_count_an_answer_clean_only_when_every_claim_can_end_supported():
    from bench_judge_real import ceilings

    def claim(start: int, verdict: str, reason: str) -> dict[str, object]:
        return {"start": start, "end": start + 10, "verdict": verdict, "reason": reason}

    rows = [{"id": "h1", "spans": [[0, 10]]}, {"id": "c1", "spans": []}, {"id": "c2", "spans": []}]
    results = {
        # hallucinated: its labelled claim is left open for wording; the other is supported
        "h1": {"claims": [claim(0, "uncertain", "partial_overlap"), claim(20, "supported", "supported")]},
        # clean: two claims open for wording
        "c1": {"claims": [claim(0, "uncertain", "partial_overlap"), claim(20, "uncertain", "partial_overlap")]},
        # clean, but one claim open for a missing figure: no judge of wording clears it
        "c2": {"claims": [claim(0, "uncertain", "number_missing")]},
    }
    found = ceilings(rows, results)
    assert found["partial_overlap_open"] == {"clean": 2, "hallucinated": 1}
    # right on wording: h1 flagged, c1 cleared, c2 still flagged -> P 1/2, R 1, F1 2/3
    assert found["perfect_on_wording_f1"] == 0.667
    # right on every open claim: only h1 flagged
    assert found["perfect_on_every_open_claim_f1"] == 1.0
    # p = 0.5: c1 stays flagged with 1 - 0.25 = 0.75; q = 0: h1 always flagged; c2 always
    # -> tp 1, fp 1.75, fn 0 -> P 0.364, F1 0.533
    assert found["expected_f1_by_p_q"]["p=0.5"]["q=0.0"] == 0.533
    assert found["expected_f1_by_p_q"]["p=1.0"]["q=0.0"] == 0.667

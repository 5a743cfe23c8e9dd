"""The judge made for the job, end to end (issue 21): the `research` console script as a user
runs it (`research verify` on files in-process, run_cli), the real ``ollama`` client, and a
fake Ollama that has ``bespoke-minicheck`` installed and answers its protocol
(Document/Claim -> Yes/No) from the truth the test gives it.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from conftest import load_json_line, research_in_process
from fixtures.fake_ollama import FakeOllama

pytestmark = pytest.mark.e2e

CHECKER = "bespoke-minicheck"
SOURCE = ("Mount Fuji is the highest mountain in Japan at 3,776 m. Its last eruption began on "
          "16 December 1707 and ended on 1 January 1708. The mountain is located on Honshu, about 100 km "
          "southwest of Tokyo.\n")
# Both are left to a judge by the cheap checks (a paraphrase; one swapped term).
ANSWER = "# Mount Fuji\n\nJapan's tallest peak is Mount Fuji [S1]. Mount Fuji lies on the island of Kyushu [S1].\n"


@pytest.fixture
def checker():
    with FakeOllama(models=("gpt-oss:20b", f"{CHECKER}:latest")) as fake:
        yield fake


def _verify(run_cli, tmp_path: Path, research_env: dict[str, str], fake: FakeOllama) -> tuple[dict, str]:
    """`research verify` on files, in-process (run_cli): no signal, pipe or server of its own to test."""
    answer, source = tmp_path / "answer.md", tmp_path / "fuji.txt"
    answer.write_text(ANSWER, "utf-8")
    source.write_text(SOURCE, "utf-8")
    env = {**research_env, "RESEARCH_OLLAMA_HOST": fake.url}
    result = run_cli(["verify", str(answer), "--source", str(source), "--json", "--lang", "en"], env)
    assert result.returncode == 0, result.stderr
    assert "Traceback" not in result.stderr
    return json.loads(result.stdout), result.stderr


def _judge_batches(fake: FakeOllama) -> list[dict]:
    """The prompt judge's calls about the answer (not the one measuring it on the check set)."""
    return fake.judge_requests()


def test_verify_with_the_checker(run_cli, tmp_path, research_env, checker):
    checker.checker_truth = {"tallest peak": True, "Kyushu": False}
    out, _ = _verify(run_cli, tmp_path, research_env, checker)
    verdicts = {c["text"].split(" [")[0]: (c["verdict"], c["reason"]) for c in out["claims"]}
    assert verdicts == {"Japan's tallest peak is Mount Fuji": ("supported", "judge"),
                        "Mount Fuji lies on the island of Kyushu": ("unsupported", "judge")}
    assert checker.checker_claims and not _judge_batches(checker)  # the checker decided, not the prompt


def test_verify_with_an_unreadable_checker_leaves_the_claim_not_checked(run_cli, tmp_path, research_env, checker):
    checker.checker_truth = {"tallest peak": True}
    checker.checker_replies = {"Kyushu": "Maybe"}
    out, stderr = _verify(run_cli, tmp_path, research_env, checker)
    kyushu = next(c for c in out["claims"] if "Kyushu" in c["text"])
    assert (kyushu["verdict"], kyushu["reason"]) == ("uncertain", "not_checked")
    assert "bespoke-minicheck" in stderr and "not checked" in stderr  # said, not only logged


def test_verify_without_the_checker_uses_the_drafting_model(run_cli, tmp_path, research_env, fake_ollama):
    out, _ = _verify(run_cli, tmp_path, research_env, fake_ollama)
    assert len(_judge_batches(fake_ollama)) == 1 and not fake_ollama.checker_claims
    assert all(c["verdict"] in ("supported", "unsupported", "uncertain") for c in out["claims"])


def test_a_run_judged_by_the_checker(research_env, web):
    """A run whose model paraphrases and swaps a term: the checker (told the truth about the
    sentences the fake wrote) decides what the cheap checks leave open, and the report says
    which judge it was."""
    with FakeOllama(models=("gpt-oss:20b", f"{CHECKER}:latest")) as fake:
        fake.behaviours = {"paraphrase", "swap_terms"}
        # The fake's swaps (fake_ollama._SWAPS) are false; its paraphrases true.
        fake.checker_truth = {"Kyushu": False, "shield volcano": False, "Tenmei": False, "OECD": False,
                              "tallest mountain": True, "started on": True, "inscribed on": True}
        env = {**research_env, "RESEARCH_OLLAMA_HOST": fake.url, "RESEARCH_MAX_VERIFICATION_LOOPS": "0"}
        result = research_in_process(["Mount Fuji: how high is it and when did it last erupt?", "--lang", "en", "--json"], env)
        asked = list(fake.checker_claims)
        batches = _judge_batches(fake)
        swapped = list(fake.planted.get("swapped", []))
    assert result.returncode == 0, result.stderr
    session = Path(load_json_line(result.stdout)["session_dir"])
    verification = json.loads((session / "verification.json").read_text("utf-8"))
    judge = verification["summary"]["judge"]
    assert (judge["model"], judge["protocol"], judge["japanese_judge"]) == (CHECKER, "minicheck", "gpt-oss:20b")
    assert asked and judge["checker"] == len(asked) and not batches  # English only: no prompt judge
    for text in asked:  # every verdict the checker gave is the one it was told
        claim = next(c for c in verification["claims"] if c["text"] == text)
        truth = next((t for key, t in fake.checker_truth.items() if key in text), None)
        if truth is not None:
            assert claim["verdict"] == ("supported" if truth else "unsupported"), claim
    usage = json.loads((session / "meta.json").read_text("utf-8"))["usage"]
    assert usage["judge"]["calls"] == len(asked)  # the checker's calls, counted apart
    report = (session / "report.md").read_text("utf-8")
    assert "bespoke-minicheck, a grounded fact-checking model" in report
    body, after = report.split("\n## Notes")
    assert swapped
    for mark in swapped:
        # issue 29: a swapped term leaves the answer: corrected from its passage (named in the
        # notes) or, rejected, listed under the verification with the passage.
        assert mark not in body, mark
        assert mark in after, mark


def test_a_run_without_the_checker_says_the_drafting_model_judged(research_env, fake_ollama):
    # A sentence of general knowledge that no source gives: left to the judge by the cheap checks
    # (a swapped term no longer is: it is repaired from its passage, 天明噴火 → 宝永噴火, first).
    # In English: the Japanese one (「…葛飾北斎の浮世絵など…」) is now decided by the checks alone,
    # most of its words being in no source (modules/text/evidence.py, additions, Japanese only).
    fake_ollama.behaviours = {"uncited"}
    research_env["RESEARCH_MAX_VERIFICATION_LOOPS"] = "0"
    result = research_in_process(["How high is Mount Fuji?", "--lang", "en", "--json"], research_env)
    assert result.returncode == 0, result.stderr
    session = Path(load_json_line(result.stdout)["session_dir"])
    judge = json.loads((session / "verification.json").read_text("utf-8"))["summary"]["judge"]
    assert (judge["model"], judge["protocol"], judge["checker"]) == ("gpt-oss:20b", "prompt", 0)
    assert judge["prompt"] >= 1 and _judge_batches(fake_ollama)
    report = (session / "report.md").read_text("utf-8")
    assert "ollama pull bespoke-minicheck" in report and "with the judge prompt decided" in report

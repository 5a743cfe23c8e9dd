"""`research verify`: batch JSONL contract and one answer against files, with the judge off or
against the fake Ollama, run in-process (`run_cli`); URL sources, which start the web-search
server and the sandboxed parser, run the console script as a subprocess."""

from __future__ import annotations

import json
import os

import pytest
from conftest import research_in_process

from tests.fixtures.fake_ollama import FakeOllama
from tests.fixtures.web_fixture import WebFixture

SOURCE_EN = ("Mount Fuji is the highest mountain in Japan at 3,776 m. Its last eruption began on "
             "16 December 1707 and ended on 1 January 1708.")
SOURCE_JA = "富士山は日本最高峰の山で、標高は3,776メートルである。最後の噴火は1707年の宝永噴火である。"


@pytest.fixture
def env(tmp_path):
    home = tmp_path / "home"
    home.mkdir()
    env = {k: v for k, v in os.environ.items() if not k.startswith(("RESEARCH_", "OLLAMA_"))}
    env.update(HOME=str(home), XDG_CONFIG_HOME=str(home / ".config"), NO_COLOR="1", LANG="en_US.UTF-8",
               RESEARCH_SESSIONS_DIR=str(tmp_path / "sessions"), COLUMNS="200")
    return env


def test_batch_contract_offsets_and_non_claims(run_cli, tmp_path, env):
    draft = ("Sure! Here is the answer.\n\nMount Fuji is the highest mountain in Japan [S1]. "
             "Its last eruption began in 1709 [S1]. The summit hosts a casino [S1].")
    lines = [
        {"id": "a", "draft": draft, "sources": [{"label": "S1", "text": SOURCE_EN}]},
        {"id": "b", "draft": "富士山の標高は3,776メートルである。最後の噴火は1707年である。", "lang": "ja",
         "sources": [{"label": "S1", "text": SOURCE_JA, "title": "富士山"}]},
    ]
    path = tmp_path / "in.jsonl"
    path.write_text("".join(json.dumps(x, ensure_ascii=False) + "\n" for x in lines), "utf-8")
    result = run_cli(["verify", "--batch", str(path), "--no-judge"], env)
    assert result.returncode == 0, result.stderr
    out = [json.loads(line) for line in result.stdout.splitlines()]
    assert [o["id"] for o in out] == ["a", "b"]
    first = out[0]["claims"]
    assert all(draft[c["start"] : c["end"]] == c["text"] for c in first)
    assert not any(c["text"].startswith("Sure") for c in first)  # not a claim: left out
    verdicts = [c["verdict"] for c in first]
    assert verdicts[0] == "supported" and verdicts[1] == "unsupported"
    assert verdicts[2] != "supported"
    assert set(first[0]) == {"start", "end", "text", "verdict", "state", "citations", "evidence", "reason", "score"}
    assert [c["state"] for c in first][:2] == ["supported", "contradicted"]  # 1709 against 1707: a number differs
    assert all(0.0 <= c["score"] <= 1.0 for c in first)  # the share of the claim's words its evidence holds
    assert first[0]["citations"] == ["S1"]
    # No citations: each sentence against all sources.
    assert [c["verdict"] for c in out[1]["claims"]] == ["supported", "supported"]


def test_single_answer_against_files_json_and_table(run_cli, tmp_path, env):
    answer = tmp_path / "answer.md"
    answer.write_text("# Fuji\nMount Fuji is the highest mountain in Japan.\nIts last eruption began in 1709.\n", "utf-8")
    source = tmp_path / "fuji.txt"
    source.write_text(SOURCE_EN, "utf-8")
    result = run_cli(["verify", str(answer), "--source", str(source), "--no-judge", "--json"], env)
    assert result.returncode == 0, result.stderr
    report = json.loads(result.stdout)
    assert [c["verdict"] for c in report["claims"]] == ["supported", "unsupported"]
    assert report["claims"][0]["source"] == "S1" and report["sources"][0]["title"] == "fuji.txt"
    table = run_cli(["verify", str(answer), "--source", str(source), "--no-judge", "--lang", "ja"], env)
    assert table.returncode == 0 and "裏付けあり" in table.stdout and "主張2件" in table.stdout


def test_judge_decides_uncertain_claims_with_the_fake_model(run_cli, tmp_path, env):
    answer = tmp_path / "answer.md"
    answer.write_text("Mount Fuji, Japan's tallest peak, rises 3,776 m.\n", "utf-8")
    source = tmp_path / "fuji.md"
    source.write_text(SOURCE_EN, "utf-8")
    with FakeOllama() as fake:
        env.update(RESEARCH_OLLAMA_HOST=fake.url)
        result = run_cli(["verify", str(answer), "--source", str(source), "--json"], env)
        asked = [r for r in fake.chat_requests() if r.get("format")]
        measured = fake.judge_requests(measuring=True)
    assert result.returncode == 0, result.stderr
    (claim,) = json.loads(result.stdout)["claims"]
    # The judge was measured on the check set first (three calls: stages of 8), then asked once about the answer.
    assert len(measured) == 3 and len(asked) == len(measured) + 1 and claim["reason"] in ("judge", "not_checked")


@pytest.mark.parametrize(
    ("args", "needle"),
    [
        (["verify"], "answer"),
        (["verify", "ANSWER", "--source", "/nonexistent/source.md"], "no such file"),
        (["verify", "--batch", "/nonexistent.jsonl"], "Cannot read"),
    ],
)
def test_usage_mistakes_are_one_line_exit_2(run_cli, tmp_path, env, args, needle):
    if args[1:2] == ["ANSWER"]:
        answer = tmp_path / "a.md"
        answer.write_text("Mount Fuji is high.", "utf-8")
        args = ["verify", str(answer), *args[2:]]
    result = run_cli(args, env)
    assert result.returncode == 2
    assert needle in result.stderr and len(result.stderr.strip().splitlines()) == 1
    assert "Traceback" not in result.stderr


def test_bad_batch_line_is_exit_2(run_cli, tmp_path, env):
    path = tmp_path / "in.jsonl"
    path.write_text('{"id": "x"}\n', "utf-8")
    result = run_cli(["verify", "--batch", str(path), "--no-judge"], env)
    assert result.returncode == 2 and "Line 1" in result.stderr


def test_sources_can_be_urls_fetched_by_the_web_search_server_and_parsed_in_the_sandbox(tmp_path, env):
    answer = tmp_path / "answer.md"
    answer.write_text("Mount Fuji is 3,776 m tall [S1]. A checkpoint is saved after every super-step [S2]. "
                      "Mount Fuji is 4,500 m tall [S1].\n", "utf-8")
    with WebFixture() as web:
        env.update(RESEARCH_ALLOW_PRIVATE_NETWORK="true")
        result = research_in_process(["verify", str(answer), "--source", web.url("/en/mount-fuji.html"),
                               "--source", web.url("/docs/langgraph-checkpoints-report.pdf"), "--no-judge", "--json"], env)
    assert result.returncode == 0, result.stderr
    report = json.loads(result.stdout)
    assert [(s["label"], s["title"]) for s in report["sources"]] == [
        ("S1", "Mount Fuji"), ("S2", "LangGraph checkpoints: a technical note")]
    assert [c["verdict"] for c in report["claims"]] == ["supported", "supported", "unsupported"]


# --- issue 23, item 9 (presentation): what a reader of the table or a script sees ---------------

LONG_JA = ("富士山は静岡県と山梨県にまたがる日本最高峰の活火山で、山頂の剣ヶ峰にある測量の基準点から求めた"
           "標高は3,776メートルである。")


def test_piped_verdicts_keep_whole_japanese_claims_and_give_the_reason(run_cli, tmp_path, env):
    env.pop("COLUMNS", None)  # piped: no terminal width to cut to
    answer = tmp_path / "回答.md"
    answer.write_text(LONG_JA + "\n最後の噴火は1854年である。\n", "utf-8")
    source = tmp_path / "資料.txt"
    source.write_text(SOURCE_JA, "utf-8")
    result = run_cli(["verify", str(answer), "--source", str(source), "--no-judge", "--lang", "ja"], env)
    assert result.returncode == 0, result.stderr
    assert LONG_JA in result.stdout and "…" not in result.stdout  # the number at its end is there
    assert "理由: 数値が出典と異なる" in result.stdout  # 1854 against 1707, said in words
    assert "根拠 [S1]: " in result.stdout


def test_the_table_folds_instead_of_cutting_and_has_a_reason_column(capsys):
    from research.cli.verify import print_verdicts

    record = {"text": LONG_JA, "verdict": "supported", "reason": "supported", "evidence": SOURCE_JA, "source": "S1",
              "citations": ["S1"]}
    print_verdicts([record], ["supported"], "ja", table=True)
    out = capsys.readouterr().out
    assert "…" not in out, [line for line in out.splitlines() if "…" in line]
    assert "理由" in out and "出典が同じことを" in out  # the reason column (wrapped, not cut)


def test_the_judges_partly_supported_is_shown_as_such():
    from types import SimpleNamespace

    from research.orchestrator.answer_check import claim_record

    claim = SimpleNamespace(start=0, end=4, text="Fuji", citations=["S1"])

    def state(outcome: str, reason: str, verdict: str, *, checked: bool = True) -> str:
        assessment = SimpleNamespace(outcome=outcome, reason=reason, verdict=verdict, evidence="", evidence_label="S1",
                                     score=0.5, checked_as="")
        return claim_record(claim, assessment, checked=checked)["state"]

    assert state("uncertain", "judge", "partly_supported") == "partly_supported"
    assert state("uncertain", "judge", "uncertain") == "not_checked"  # the judge did not decide either
    assert state("uncertain", "partial_overlap", "partly_supported", checked=False) == "not_checked"
    assert state("unsupported", "negation", "unsupported") == "contradicted"
    assert state("unsupported", "missing_term", "unsupported") == "not_supported"
    assert state("supported", "supported", "supported") == "supported"


def test_strict_exits_6_when_a_claim_is_not_supported(run_cli, tmp_path, env):
    source = tmp_path / "fuji.txt"
    source.write_text(SOURCE_EN, "utf-8")
    good, bad = tmp_path / "good.md", tmp_path / "bad.md"
    good.write_text("Mount Fuji is the highest mountain in Japan.\n", "utf-8")
    bad.write_text("Mount Fuji is the highest mountain in Japan.\nIts last eruption began in 1709.\n", "utf-8")
    for answer, strict, code in ((bad, False, 0), (bad, True, 6), (good, True, 0)):
        args = ["verify", str(answer), "--source", str(source), "--no-judge"] + (["--strict"] if strict else [])
        result = run_cli(args, env)
        assert result.returncode == code, (answer.name, strict, result.stderr)
    batch = tmp_path / "in.jsonl"
    batch.write_text(json.dumps({"id": "a", "draft": "Its last eruption began in 1709 [S1].",
                                 "sources": [{"label": "S1", "text": SOURCE_EN}]}) + "\n", "utf-8")
    assert run_cli(["verify", "--batch", str(batch), "--no-judge", "--strict"], env).returncode == 6


# issue 30, item 5: `research verify` had no bounds: a 5 MB answer or a 44 MB source was still
# running after 60 s. The MCP tool's caps hold: one line, exit 2, at once.
def _too_large_inputs(tmp_path):
    small = tmp_path / "answer.md"
    small.write_text("Mount Fuji is 3,776 m high [S1].\n", "utf-8")
    source = tmp_path / "source.txt"
    source.write_text(SOURCE_EN, "utf-8")
    big_answer = tmp_path / "big_answer.md"
    big_answer.write_text("Mount Fuji is 3,776 m high [S1]. " * 160_000, "utf-8")  # 5.3 MB
    huge_source = tmp_path / "huge.txt"
    with huge_source.open("wb") as handle:  # 44 MB, sparse: nothing is written to disk
        handle.truncate(44 * 1024 * 1024)
    long_source = tmp_path / "long.md"  # 3 MB of text: under the byte bound, over the character cap once read
    long_source.write_text("Mount Fuji is high. " * 150_000, "utf-8")
    return {
        "a 5 MB answer": (["verify", str(big_answer), "--source", str(source)], "the answer"),
        "/dev/zero as the answer": (["verify", "/dev/zero", "--source", str(source)], "the answer"),
        "a 44 MB source": (["verify", str(small), "--source", str(huge_source)], "source S1"),
        "a 3,000,000-character source": (["verify", str(small), "--source", str(source), "--source", str(long_source)],
                                         "source S2"),
        "21 sources": (["verify", str(small), *[arg for _ in range(21) for arg in ("--source", str(source))]],
                       "the list of sources"),
    }


@pytest.mark.parametrize("case", ["a 5 MB answer", "/dev/zero as the answer", "a 44 MB source",
                                  "a 3,000,000-character source", "21 sources"])
def test_verify_refuses_inputs_over_the_mcp_tools_caps_in_one_line(run_cli, tmp_path, env, case):
    import time

    args, what = _too_large_inputs(tmp_path)[case]
    started = time.monotonic()
    result = run_cli([*args, "--no-judge"], env, timeout=30)
    assert result.returncode == 2, (result.stdout[-500:], result.stderr)
    assert result.stderr.startswith("research verify: Too large to check:") and what in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1 and result.stdout == ""
    assert time.monotonic() - started < 10


def test_verify_batch_refuses_a_line_over_the_caps(run_cli, tmp_path, env):
    path = tmp_path / "in.jsonl"
    lines = [{"id": "ok", "draft": "Mount Fuji is 3,776 m high [S1].", "sources": [{"label": "S1", "text": SOURCE_EN}]},
             {"id": "big", "draft": "Mount Fuji is high [S1]. " * 10_000, "sources": [{"label": "S1", "text": SOURCE_EN}]}]
    path.write_text("".join(json.dumps(x) + "\n" for x in lines), "utf-8")
    result = run_cli(["verify", "--batch", str(path), "--no-judge"], env, timeout=30)
    assert result.returncode == 2
    assert "Line 2" in result.stderr and "Too large to check: the answer has 250000 characters" in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1
    assert [json.loads(line)["id"] for line in result.stdout.splitlines()] == ["ok"]


def test_a_sessions_sources_are_read_safely_when_its_folder_was_edited(run_cli, tmp_path, env):
    # `verify --session` reads the session's processed.jsonl, which a shared folder lets others edit:
    # a line that is not a source is skipped (it used to end in a traceback), and a ledger that
    # is a link to a private file is not read through (it used to be).
    from research.state.session_folder import HistoryManager

    history = HistoryManager(tmp_path / "sessions")
    session = history.create(question="Fuji?", language="en", model="m")
    source = {"label": "S1", "url": "https://example.org/fuji", "title": "Fuji", "status": "ok",
              "language": "en", "markdown": SOURCE_EN}
    ledger = session.path / "processed.jsonl"
    ledger.write_text("not json\n[1, 2]\n" + json.dumps(source) + "\n", "utf-8")
    answer = tmp_path / "answer.md"
    answer.write_text("Mount Fuji is the highest mountain in Japan [S1].\n", "utf-8")
    result = run_cli(["verify", str(answer), "--session", session.session_id, "--no-judge", "--json"], env)
    assert result.returncode == 0, result.stderr
    assert [c["verdict"] for c in json.loads(result.stdout)["claims"]] == ["supported"]

    secret = tmp_path / "secret.jsonl"
    secret.write_text(json.dumps({**source, "markdown": "Mount Fuji is the highest mountain in Japan."}) + "\n", "utf-8")
    ledger.unlink()
    ledger.symlink_to(secret)
    refused = run_cli(["verify", str(answer), "--session", session.session_id, "--no-judge", "--json"], env)
    assert refused.returncode != 0 and "Traceback" not in refused.stderr
    assert "highest mountain" not in refused.stdout

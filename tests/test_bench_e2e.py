"""`research bench` end to end with the fake Ollama: small sets written here in each set's
original format go through whole research runs (the local engine over the bench's corpus,
both MCP servers, the sandboxed parser), are graded, reported and resumed; bad input is one
line and exit 2."""

from __future__ import annotations

import json
from pathlib import Path

from conftest import research_in_process, session_dirs
from research.servers.web.engines.local import index_file

# PubMedQA's format (ori_pqal.json), with passages written for this test. Each abstract says
# its finding in one sentence, as PubMedQA's do; a fourth page answers nothing asked.
PUBMEDQA_SET = {
    "9000001": {
        "QUESTION": "Does green tea lower blood pressure in adults?",
        "CONTEXTS": ["A randomised trial enrolled 120 adults with mild hypertension for twelve weeks.",
                     "Green tea significantly lowered systolic blood pressure in adults compared with placebo."],
        "LABELS": ["METHODS", "RESULTS"], "MESHES": ["Tea", "Blood Pressure"], "final_decision": "yes",
        "LONG_ANSWER": "Green tea lowers blood pressure in adults."},
    "9000002": {
        "QUESTION": "Does vitamin D supplementation prevent fractures in older women?",
        "CONTEXTS": ["A cohort of 2,000 older women took vitamin D or placebo for five years.",
                     "Vitamin D supplementation did not reduce fracture rates in older women."],
        "LABELS": ["METHODS", "RESULTS"], "MESHES": ["Vitamin D", "Fractures, Bone"], "final_decision": "no",
        "LONG_ANSWER": "Vitamin D did not prevent fractures."},
    "9000003": {
        "QUESTION": "Does moderate coffee drinking protect the liver?",
        "CONTEXTS": ["Whether moderate coffee drinking protects the liver remains unclear in this small cohort."],
        "LABELS": ["CONCLUSIONS"], "MESHES": ["Coffee", "Liver"], "final_decision": "maybe",
        "LONG_ANSWER": "It is unclear."},
    "9000004": {
        "QUESTION": "Is hand washing taught in primary schools?",
        "CONTEXTS": ["Primary schools in the region teach hand washing in the first year."],
        "LABELS": ["RESULTS"], "MESHES": ["Hand Disinfection"], "final_decision": "yes",
        "LONG_ANSWER": "It is."},
}

# JSQuAD's format (SQuAD v1: data -> paragraphs -> context "title [SEP] text", qas), written here.
JSQUAD_SET = {"data": [
    {"title": "富士山", "paragraphs": [{
        "context": "富士山 [SEP] 富士山は静岡県と山梨県にまたがる活火山である。富士山の最後の噴火は1707年の宝永噴火である。",
        "qas": [{"question": "富士山の最後の噴火は何年か？", "id": "t1p0q0", "is_impossible": False,
                 "answers": [{"text": "1707年", "answer_start": 40}, {"text": "1707", "answer_start": 40}]}]}]},
    {"title": "琵琶湖", "paragraphs": [{
        "context": "琵琶湖 [SEP] 琵琶湖は滋賀県にある日本最大の湖である。琵琶湖の水は淀川を通って大阪湾に流れる。",
        "qas": [{"question": "日本最大の湖は何県にあるか？", "id": "t2p0q0", "is_impossible": False,
                 "answers": [{"text": "滋賀県", "answer_start": 7}]}]}]},
]}


def _write(tmp_path: Path, name: str, data: dict) -> Path:
    path = tmp_path / name
    path.write_text(json.dumps(data, ensure_ascii=False), "utf-8")
    return path


def _lines(folder: Path) -> list[dict]:
    return [json.loads(line) for line in (folder / "results.jsonl").read_text("utf-8").splitlines()]


def test_pubmedqa_bench_runs_grades_reports_and_resumes(research_env, tmp_path):
    data = _write(tmp_path, "ori_pqal.json", PUBMEDQA_SET)
    args = ["bench", "pubmedqa", "--data", str(data), "--sample", "3", "--seed", "1", "--json"]
    result = research_in_process(args, research_env, timeout=400)
    assert result.returncode == 0, result.stderr
    summary = json.loads(result.stdout.strip().splitlines()[-1])
    folder = Path(summary["folder"])
    lines = _lines(folder)
    asked = {line["item_id"] for line in lines}
    assert len(lines) == 3 and asked <= set(PUBMEDQA_SET)
    # The corpus holds every page of the set, not only the sample's; the runs searched it alone.
    # It is the set file's, beside the bench folders: every bench of this file searches it.
    (corpus,) = (folder.parent / "corpus").iterdir()
    assert corpus.name.startswith("pubmedqa-") and not (folder / "corpus").exists()
    assert sorted(p.name for p in corpus.glob("*.md")) == [f"pubmedqa-{k}.md" for k in sorted(PUBMEDQA_SET)]
    indexed = index_file(corpus.resolve())
    built = indexed.stat().st_mtime_ns
    for line in lines:
        gold = PUBMEDQA_SET[line["item_id"]]["final_decision"]
        assert line["status"] == "done" and line["own_page_read"], line
        assert (line["predicted"], line["correct"]) == (gold, True), line["answer"]
        hits = json.loads((Path(research_env["RESEARCH_SESSIONS_DIR"]) / f"session_{line['session_id']}"
                           / "search_results.json").read_text("utf-8"))
        assert hits and all(hit["url"].startswith("file://") for hit in hits)
    assert (summary["graded"], summary["completed"], summary["correct"]) == (3, 3, 3)
    assert summary["interval"][0] > 0.4 and summary["seconds_median"] > 0 and summary["tokens_total"] > 0
    assert summary["draft_graded"] == 3 and summary["citations"] >= summary["citations_resolved"] > 0
    report = Path(summary["report_md"]).read_text("utf-8")
    assert "100.0 % (3/3; 95 % CI 43.9 %–100.0 %)" in report and "![" in report
    assert Path(summary["chart"]).read_bytes()[:4] == b"\x89PNG"
    assert Path(summary["report_pdf"]).read_bytes()[:5] == b"%PDF-"

    # The same command again: nothing runs twice.
    sessions = len(session_dirs(research_env))
    again = research_in_process(args, research_env, timeout=400)
    assert again.returncode == 0 and len(session_dirs(research_env)) == sessions
    assert json.loads(again.stdout.strip().splitlines()[-1])["correct"] == 3
    # Interrupted after two questions (the third line never written): only the third runs again.
    results = folder / "results.jsonl"
    results.write_text("".join(line + "\n" for line in results.read_text("utf-8").splitlines()[:2]), "utf-8")
    resumed = research_in_process(args, research_env, timeout=400)
    assert resumed.returncode == 0, resumed.stderr
    assert "already done by an earlier run of this bench: 2;" in resumed.stderr
    assert len(session_dirs(research_env)) == sessions + 1 and len(_lines(folder)) == 3

    # Another bench of the same file (another seed): a folder of its own, the same corpus, whose
    # pages the local engine does not parse again (its kept index is not rewritten).
    other = research_in_process(["bench", "pubmedqa", "--data", str(data), "--sample", "1", "--seed", "2", "--json"],
                                research_env, timeout=400)
    assert other.returncode == 0, other.stderr
    assert Path(json.loads(other.stdout.strip().splitlines()[-1])["folder"]) != folder
    assert list((folder.parent / "corpus").iterdir()) == [corpus] and indexed.stat().st_mtime_ns == built


def test_jsquad_bench_in_japanese_shows_the_table(research_env, tmp_path):
    data = _write(tmp_path, "valid-v1.3.json", JSQUAD_SET)
    result = research_in_process(["bench", "jsquad", "--data", str(data), "--lang", "ja"], research_env, timeout=400)
    assert result.returncode == 0, result.stderr
    assert "[2/2]" in result.stderr and "ここまでの正答率" in result.stderr
    assert "正答率（最終回答）" in result.stdout and "100.0 % (2/2" in result.stdout
    (folder,) = (Path(research_env["RESEARCH_SESSIONS_DIR"]) / "bench").glob("jsquad-*")
    lines = _lines(folder)
    assert {line["predicted"] for line in lines} == {"1707年", "滋賀県"}
    assert all(line["correct"] and line["answer_chars"] > 0 for line in lines)
    assert str(folder / "report.pdf") in result.stdout


def test_a_question_past_its_time_is_recorded_failed_and_the_bench_goes_on(research_env, fake_ollama, tmp_path):
    fake_ollama.token_delay = 0.2  # every streamed token: no draft ends within a second
    data = _write(tmp_path, "valid-v1.3.json", JSQUAD_SET)
    result = research_in_process(["bench", "jsquad", "--data", str(data), "--question-timeout", "2", "--json"],
                                 research_env, timeout=400)
    assert result.returncode == 1, result.stderr  # no run completed
    summary = json.loads(result.stdout.strip().splitlines()[-1])
    lines = _lines(Path(summary["folder"]))
    assert [line["status"] for line in lines] == ["timed_out", "timed_out"]
    assert (summary["graded"], summary["completed"], summary["correct"], summary["accuracy"]) == (2, 0, 0, 0.0)


def test_bad_input_is_one_line_and_exit_2(research_env, tmp_path):
    malformed = tmp_path / "dev.json"
    malformed.write_text('{"data": []}', "utf-8")
    cases = [
        (["bench", "squad", "--data", str(malformed)], "Unknown question set 'squad'"),
        (["bench", "pubmedqa", "--data", str(tmp_path / "absent.json"), "--lang", "ja"], "セットのファイルがありません"),
        (["bench", "jsquad", "--data", str(malformed)], "is not a file of this set"),
        (["bench", "pubmedqa", "--data", str(malformed)], "is not a file of this set"),
        (["bench", "pubmedqa"], "Give the set's file with --data FILE"),
        (["bench", "pubmedqa", "--data", str(malformed), "--sample", "many"], "--sample takes a whole number"),
    ]
    for args, said in cases:
        result = research_in_process(args, research_env, timeout=60)
        assert result.returncode == 2, (args, result.stderr)
        assert result.stderr.count("\n") == 1 and said in result.stderr and "Traceback" not in result.stderr, args
        assert result.stdout == ""
    assert not (Path(research_env["RESEARCH_SESSIONS_DIR"]) / "bench").exists()


def test_an_interrupted_bench_goes_on_where_it_stopped(research_env, fake_ollama, tmp_path):
    import signal
    import subprocess
    import time

    from conftest import RESEARCH

    data = _write(tmp_path, "valid-v1.3.json", JSQUAD_SET)
    args = [RESEARCH, "bench", "jsquad", "--data", str(data)]
    for signal_number, code in ((signal.SIGTERM, 143), (signal.SIGINT, 130)):
        fake_ollama.token_delay = 0.02  # slow enough that the second question is still running
        process = subprocess.Popen(args, env=research_env, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                                   stderr=subprocess.PIPE, text=True)
        seen = ""
        deadline = time.monotonic() + 300
        while "[1/2]" not in seen and "[2/2]" not in seen and time.monotonic() < deadline:
            seen += process.stderr.readline()
        process.send_signal(signal_number)
        _out, rest = process.communicate(timeout=120)
        if "[2/2]" in seen + rest:
            continue  # both ended before the signal came: nothing to resume from
        assert process.returncode == code, seen + rest
        assert "run the same command to go on" in rest and "Traceback" not in rest
        (folder,) = (Path(research_env["RESEARCH_SESSIONS_DIR"]) / "bench").glob("jsquad-*")
        assert len(_lines(folder)) == 1
        break
    else:
        raise AssertionError("no run was interrupted mid-bench")
    # The stopped question's session is closed, not left "running".
    statuses = [json.loads((s / "meta.json").read_text("utf-8"))["status"] for s in session_dirs(research_env)]
    assert "running" not in statuses, statuses
    fake_ollama.token_delay = 0.0
    before = len(session_dirs(research_env))
    resumed = research_in_process(["bench", "jsquad", "--data", str(data)], research_env, timeout=400)
    assert resumed.returncode == 0, resumed.stderr
    assert "already done by an earlier run of this bench: 1;" in resumed.stderr and "[2/2]" in resumed.stderr
    assert len(session_dirs(research_env)) == before + 1 and len(_lines(folder)) == 2


def test_help_lists_bench_and_explains_it(tmp_path):
    import os

    from conftest import STRICT_MESSAGES

    env = {k: v for k, v in os.environ.items() if not k.startswith(("RESEARCH_", "OLLAMA_"))}
    env.update(HOME=str(tmp_path), NO_COLOR="1", LANG="C.UTF-8", **STRICT_MESSAGES)
    main_help = research_in_process(["--help"], env, timeout=60)
    assert main_help.returncode == 0 and "cancel, bench, help" in main_help.stdout
    topic = research_in_process(["help", "bench"], env, timeout=60)
    assert topic.returncode == 0, topic.stderr
    assert "usage: research bench" in topic.stdout and "--fetch" in topic.stdout and "--sample N" in topic.stdout
    unknown = research_in_process(["help", "nosuch"], env, timeout=60)
    assert unknown.returncode == 2 and "bench" in unknown.stderr.split("Topics:")[1]

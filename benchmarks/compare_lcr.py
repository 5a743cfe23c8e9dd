"""Side by side with local-deep-researcher (LCR): same fakes, interleaved pairs, ratios.

Both programs answer the same question against the same two local servers, started
once in this process:

* the neutral fake Ollama (benchmarks/neutral_ollama.py), which knows neither program,
  counts every LLM call and prompt token per run, and answers instantly unless
  ``--tokens-per-second`` paces it;
* the local web fixture (tests/fixtures/web_fixture.py) as a SearXNG endpoint plus its
  pages (its deliberately slow page answers after 0.5 s).

Ours is ``research "<q>" --lang <lang> --json`` (the console script of this checkout's
venv, with its two MCP servers and the parser sandbox). LCR is its compiled LangGraph
graph (``ollama_deep_researcher.graph``) invoked by a small driver with
``search_api=searxng`` (SEARXNG_URL → the fixture), ``llm_provider=ollama`` (→ the fake),
``fetch_full_page=True`` and its default 3 research loops, run with the Python of a
separate venv and ``PYTHONPATH=<checkout>/src`` so the checkout's code is what runs.
After one warm-up run each (not counted), the runs alternate: ours, LCR, ours, LCR...

Each run is measured as a whole process tree (benchmarks/treemem.py): wall time to the
command's exit, user+system CPU of every process in it, peak summed PSS sampled every
50 ms. Every figure is a median over the runs with its min–max; a ratio is ours / LCR
of the medians, with the min–max of the per-pair ratios.

Setup (once; LCR's code stays in /tmp and is never committed):

    git clone https://github.com/langchain-ai/local-deep-researcher /tmp/lcr
    .venv/bin/python benchmarks/compare_lcr.py --lcr /tmp/lcr --setup     # makes /tmp/lcr-venv

Run:

    .venv/bin/python benchmarks/compare_lcr.py --lcr /tmp/lcr [--pairs 5] [--tokens-per-second 40] [--json]

Real-model mode (``--ollama URL``): the same, against a real Ollama-compatible server (e.g.
../shared/realmodel) instead of the neutral fake, through a counting pass-through
(benchmarks/ollama_meter.py) that reads the server's own counts from every generation:
calls, prompt tokens evaluated, tokens written, time in the model. Both programs get the same
model (``--model``); ours also gets ``RESEARCH_NUM_CTX`` (``--num-ctx``). The question set
(REAL_QUESTIONS, English and Japanese, or ``--question`` repeated) is asked in interleaved
pairs: for each pair and each question, ours then LCR, with the 1-minute load average written
before and after each pair, since other work on the machine slows a CPU model sharply:

    .venv/bin/python benchmarks/compare_lcr.py --lcr /tmp/lcr --ollama http://127.0.0.1:11500 --pairs 1
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
from datetime import datetime
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(ROOT / "tests"))

from neutral_ollama import NeutralOllama  # noqa: E402
from ollama_meter import OllamaMeter  # noqa: E402
from treemem import TreeRun, run_tree, spread as stats  # noqa: E402

RESEARCH = str(Path(sys.executable).with_name("research"))
DEFAULT_QUESTION = "What is the height of Mount Fuji?"
MODEL = "gpt-oss:20b"
DEFAULT_VENV = Path("/tmp/lcr-venv")
REAL_MODEL = "qwen2.5-coder:1.5b"
# The real-model question set: the question first, both languages, pages the web fixture has.
REAL_QUESTIONS = [
    ("What is LangGraph checkpointing and why does it matter?", "en"),
    ("LangGraphのチェックポイントとは？", "ja"),
    ("What is the height of Mount Fuji?", "en"),
    ("富士山の最後の噴火はいつ？", "ja"),
]
# Targets of the real-model comparison: ours / LCR wall per report, and verification's share
# of our model time (the program's own per-step count, from the server's durations).
REAL_TARGETS = {"wall_ratio": 0.7, "verification_share": 0.25}
# Targets of issue 15: (measure, comparison, limit); ratios are ours / LCR.
TARGETS = {
    "wall_ratio": ("≤", 0.7),
    "tree_memory_ratio": ("≤", 1.5),
    "first_node_vs_lcr_import": ("≤", 0.3),
    "last_file_to_exit_s": ("≤", 0.5),
}

# Runs in LCR's venv. Times are wall-clock (time.time()) so they compare with the
# harness's spawn time; the import is also timed in-process.
LCR_DRIVER = r"""
import json, sys, time
out, question, base_url, model = sys.argv[1:5]
entered = time.time(); clock = time.perf_counter()
from ollama_deep_researcher.graph import graph
import_s = time.perf_counter() - clock; imported = time.time()
config = {"configurable": {"llm_provider": "ollama", "local_llm": model, "ollama_base_url": base_url,
                           "search_api": "searxng", "fetch_full_page": True, "max_web_research_loops": 3}}
result = graph.invoke({"research_topic": question}, config=config)
with open(out + ".md", "w", encoding="utf-8") as handle:
    handle.write(result.get("running_summary") or "")
with open(out, "w", encoding="utf-8") as handle:
    json.dump({"entered": entered, "imported": imported, "import_s": import_s, "summary_chars": len(result.get("running_summary") or "")}, handle)
"""


def ratio(ours: list[float], theirs: list[float]) -> dict[str, float] | None:
    """Ratio of the medians, with the min–max of the per-pair ratios."""
    pairs = [a / b for a, b in zip(ours, theirs) if a is not None and b]
    ours_ok = [v for v in ours if v is not None]
    theirs_ok = [v for v in theirs if v is not None]
    if not pairs or not ours_ok or not theirs_ok or not statistics.median(theirs_ok):
        return None
    return {"ratio": round(statistics.median(ours_ok) / statistics.median(theirs_ok), 3),
            "pair_min": round(min(pairs), 3), "pair_max": round(max(pairs), 3)}


def _base_env(home: Path) -> dict[str, str]:
    # PYTHONDONTWRITEBYTECODE too (set on some machines, CI's among them): the warm-up run is
    # what writes both programs' .pyc files, as an install has them; without it every measured
    # run compiled whatever changed since they were last written (22 of our modules once:
    # about 0.1 s of each run's CPU).
    keep = {k: v for k, v in os.environ.items()
            if not k.startswith(("RESEARCH_", "OLLAMA_", "LANGCHAIN_", "LANGSMITH_")) and k != "PYTHONDONTWRITEBYTECODE"}
    keep.update(HOME=str(home), XDG_CONFIG_HOME=str(home / ".config"), NO_COLOR="1")
    return keep


def tree_figures(run: TreeRun) -> dict[str, Any]:
    return {"exit_code": run.exit_code, "wall_s": run.wall_s, "cpu_s": run.cpu_s, "peak_pss_mib": run.peak_pss_mib,
            "peak_rss_mib": run.peak_rss_mib, "processes": run.processes_seen, "peak_processes": run.peak_processes,
            "stragglers": run.stragglers, "samples": run.samples,
            # Which process held what at the tree's peak: (command line, PSS MiB), largest first.
            "peak_breakdown": [[command, round(kib / 1024, 1)] for command, kib in run.peak_breakdown]}


def web_requests(web: Any) -> dict[str, int]:
    """Searches and page fetches the web fixture served since its log was cleared."""
    paths = [record.path.split("?")[0] for record in web.requests]
    return {"searches": sum(path == "/search" for path in paths), "pages_fetched": sum(path != "/search" for path in paths)}


def failure(run: TreeRun) -> dict[str, Any]:
    """A failed run is kept, with its last stderr lines, and left out of every figure with its pair."""
    return {"failed": True, "exit_code": run.exit_code, "wall_s": run.wall_s,
            "stderr_tail": [line for _, line in run.stderr_lines[-5:]]}


def first_line_time(run: TreeRun, prefix: str) -> float | None:
    return next((at for at, line in run.stderr_lines if line.lstrip().startswith(prefix)), None)


def run_ours(question: str, lang: str, fake: NeutralOllama | OllamaMeter, web: Any, home: Path, label: str,
             model: str = MODEL, num_ctx: int | None = None) -> dict[str, Any]:
    env = _base_env(home)
    env.update(RESEARCH_OLLAMA_HOST=fake.url, RESEARCH_MODEL=model, RESEARCH_SEARCH_ENGINE="searxng",
               RESEARCH_SEARXNG_URL=web.searxng_url, RESEARCH_ALLOW_PRIVATE_NETWORK="true",
               RESEARCH_SESSIONS_DIR=str(home / "sessions"))
    if num_ctx:
        env["RESEARCH_NUM_CTX"] = str(num_ctx)
    fake.label = label
    web.clear_log()
    run = run_tree([RESEARCH, question, "--lang", lang, "--json"], env=env, cwd=home)
    if run.exit_code not in (0, 4):
        return failure(run)
    figures = tree_figures(run)
    answer = json.loads(run.stdout.strip().splitlines()[-1])
    session = Path(answer["session_dir"])
    report_files = [session / name for name in ("report.md", "report.pdf") if (session / name).exists()]
    every_file = [p for p in session.rglob("*") if p.is_file()]
    last_report = max(p.stat().st_mtime for p in report_files) if report_files else None
    meta = json.loads((session / "meta.json").read_text("utf-8")) if (session / "meta.json").exists() else {}
    usage = {k: v for k, v in (meta.get("usage") or {}).items() if isinstance(v, dict)}
    counted = fake.stats(label)
    figures.update(
        first_node_s=first_line_time(run, "→"),
        session_line_s=first_line_time(run, "Session") or (run.stderr_lines[0][0] if run.stderr_lines else None),
        last_report_file_to_exit_s=run.exited_at - last_report if last_report else None,
        last_session_file_to_exit_s=run.exited_at - max(p.stat().st_mtime for p in every_file) if every_file else None,
        llm_calls=counted["calls"], prompt_tokens=counted["prompt_tokens"],
        completion_tokens=counted["completion_tokens"], by_format=counted["by_format"],
        own_count_calls=sum(entry.get("calls", 0) for entry in usage.values()), **web_requests(web),
        model_s=counted.get("model_s"), length_stops=counted.get("length_stops"),
        model_ms_by_step={node: entry.get("model_ms", 0) for node, entry in usage.items() if entry.get("model_ms")},
        tokens_by_step={node: [entry.get("prompt_tokens", 0), entry.get("completion_tokens", 0), entry.get("calls", 0)]
                        for node, entry in usage.items() if entry.get("calls")},
        verification_share=_verification_share(usage),
        loops=_loops(session),
    )
    return figures


# The steps that check the draft: the verification node, the grounded checker it asks, and the
# redraft a follow-up round makes (counted under "llm" with the first draft, so not separable).
_CHECKING_STEPS = ("verification", "judge")


def _verification_share(usage: dict[str, Any]) -> float | None:
    """The checking steps' share of the run's time waiting on the model (meta.json usage)."""
    total = sum(entry.get("model_ms", 0) for entry in usage.values())
    checking = sum(usage.get(step, {}).get("model_ms", 0) for step in _CHECKING_STEPS)
    return round(checking / total, 3) if total else None


def _loops(session: Path) -> int | None:
    try:
        return int(json.loads((session / "verification.json").read_text("utf-8"))["summary"].get("loops") or 0)
    except (OSError, ValueError, KeyError, TypeError):
        return None


def run_lcr(question: str, python: str, checkout: Path, fake: NeutralOllama | OllamaMeter, web: Any, home: Path,
            label: str, model: str = MODEL) -> dict[str, Any]:
    env = _base_env(home)
    # LCR reads every configuration field from an upper-case environment variable first.
    for name in ("LLM_PROVIDER", "LOCAL_LLM", "OLLAMA_BASE_URL", "SEARCH_API", "FETCH_FULL_PAGE",
                 "MAX_WEB_RESEARCH_LOOPS", "USE_TOOL_CALLING", "STRIP_THINKING_TOKENS"):
        env.pop(name, None)
    env.update(SEARXNG_URL=web.base_url + "/search", LANGSMITH_TRACING="false", LANGCHAIN_TRACING_V2="false",
               PYTHONPATH=str(checkout / "src"))
    out = home / f"{label}.json"
    fake.label = label
    web.clear_log()
    run = run_tree([python, "-c", LCR_DRIVER, str(out), question, fake.url + "/", model], env=env, cwd=home)
    if run.exit_code != 0 or not out.exists():
        return failure(run)
    figures = tree_figures(run)
    timing = json.loads(out.read_text("utf-8"))
    counted = fake.stats(label)
    figures.update(
        spawn_to_graph_imported_s=timing["imported"] - run.started_at, import_s=timing["import_s"],
        last_report_file_to_exit_s=run.exited_at - (home / f"{label}.json").stat().st_mtime,
        summary_chars=timing["summary_chars"], llm_calls=counted["calls"], prompt_tokens=counted["prompt_tokens"],
        completion_tokens=counted["completion_tokens"], by_format=counted["by_format"], **web_requests(web),
        model_s=counted.get("model_s"), length_stops=counted.get("length_stops"),
    )
    return figures


def setup_venv(checkout: Path, venv: Path) -> None:
    """A separate venv with LCR and its dependencies from PyPI (pip, its ordinary client)."""
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
    subprocess.run([str(venv / "bin" / "pip"), "install", "--quiet", str(checkout)], check=True)


def compare(checkout: Path, python: str, pairs: int, question: str, lang: str, tokens_per_second: float,
            warmup: int = 1, progress=print, list_items: int = 1) -> dict[str, Any]:
    from fixtures.web_fixture import WebFixture

    ours: list[dict[str, Any]] = []
    theirs: list[dict[str, Any]] = []
    with NeutralOllama(models=(MODEL,), tokens_per_second=tokens_per_second, list_items=list_items) as fake, \
            WebFixture(slow_delay=0.5) as web, tempfile.TemporaryDirectory(prefix="compare-lcr-") as tmp:
        home = Path(tmp)
        for index in range(warmup):  # warms the page cache and .pyc files of both; not counted
            run_ours(question, lang, fake, web, home, f"warmup-ours-{index}")
            run_lcr(question, python, checkout, fake, web, home, f"warmup-lcr-{index}")
        for index in range(pairs):
            ours.append(run_ours(question, lang, fake, web, home, f"ours-{index}"))
            progress(f"pair {index + 1}/{pairs}: ours {ours[-1]['wall_s']:.2f} s"
                     + (" (failed)" if ours[-1].get("failed") else ""), end="")
            theirs.append(run_lcr(question, python, checkout, fake, web, home, f"lcr-{index}"))
            progress(f", LCR {theirs[-1]['wall_s']:.2f} s" + (" (failed)" if theirs[-1].get("failed") else ""))
    return summarise(ours, theirs, {"pairs": pairs, "question": question, "language": lang,
                                    "tokens_per_second": tokens_per_second, "warmup_runs_each": warmup,
                                    "fake_list_items": list_items})


def compare_real(checkout: Path, python: str, upstream: str, model: str, num_ctx: int, pairs: int,
                 questions: list[tuple[str, str]], progress=print, partial: Path | None = None) -> dict[str, Any]:
    """Interleaved pairs against a real model server: for each pair and question, ours then LCR,
    with the load average before and after each pair. ``partial``: where the runs so far are
    written after each pair (a CPU model under load can take an hour for the set)."""
    from fixtures.web_fixture import WebFixture

    ours: list[dict[str, Any]] = []
    theirs: list[dict[str, Any]] = []
    pair_rows: list[dict[str, Any]] = []
    with OllamaMeter(upstream) as meter, WebFixture(slow_delay=0.5) as web, \
            tempfile.TemporaryDirectory(prefix="compare-lcr-") as tmp:
        home = Path(tmp)
        for index in range(pairs):
            for number, (question, lang) in enumerate(questions):
                load_before = os.getloadavg()
                a = run_ours(question, lang, meter, web, home, f"ours-{index}-{number}", model=model, num_ctx=num_ctx)
                b = run_lcr(question, python, checkout, meter, web, home, f"lcr-{index}-{number}", model=model)
                load_after = os.getloadavg()
                for row in (a, b):
                    row.update(question=question, language=lang, pair=index)
                ours.append(a)
                theirs.append(b)
                pair_rows.append({"pair": index, "question": question, "language": lang,
                                  "load_before": [round(v, 2) for v in load_before],
                                  "load_after": [round(v, 2) for v in load_after],
                                  "ours_wall_s": a["wall_s"], "lcr_wall_s": b["wall_s"],
                                  "ours_failed": bool(a.get("failed")), "lcr_failed": bool(b.get("failed"))})
                if partial is not None:
                    partial.write_text(json.dumps({"pair_rows": pair_rows, "ours": ours, "lcr": theirs},
                                                  ensure_ascii=False, indent=2) + "\n", "utf-8")
                progress(f"pair {index + 1}/{pairs}, {question[:40]!r}: ours {a['wall_s']:.1f} s"
                         + (" (failed)" if a.get("failed") else "") + f", LCR {b['wall_s']:.1f} s"
                         + (" (failed)" if b.get("failed") else "")
                         + f"; load {load_before[0]:.2f} → {load_after[0]:.2f}")
    result = summarise(ours, theirs, {"pairs": pairs, "questions": [q for q, _ in questions],
                                      "languages": [lang for _, lang in questions], "model": model,
                                      "num_ctx": num_ctx, "server": upstream, "tokens_per_second": 0,
                                      "warmup_runs_each": 0, "real_model": True})
    complete = [(a, b) for a, b in zip(ours, theirs) if not a.get("failed") and not b.get("failed")]
    shares = [a.get("verification_share") for a, _ in complete]
    result["pair_rows"] = pair_rows
    result["ours"]["verification_share"] = stats(shares)
    result["ours"]["model_s"] = stats([a.get("model_s") for a, _ in complete])
    result["lcr"]["model_s"] = stats([b.get("model_s") for _, b in complete])
    result["ratios"]["model_s_ratio"] = ratio([a.get("model_s") for a, _ in complete],
                                              [b.get("model_s") for _, b in complete])
    result["ratios"]["completion_tokens_ratio"] = ratio([a.get("completion_tokens") for a, _ in complete],
                                                        [b.get("completion_tokens") for _, b in complete])
    wall = (result["ratios"].get("wall_ratio") or {}).get("ratio")
    share = (result["ours"]["verification_share"] or {}).get("median")
    result["targets"] = {
        "wall_ratio": {"limit": REAL_TARGETS["wall_ratio"], "measured": wall,
                       "pass": None if wall is None else wall <= REAL_TARGETS["wall_ratio"]},
        "verification_share": {"limit": REAL_TARGETS["verification_share"], "measured": share,
                               "pass": None if share is None else share <= REAL_TARGETS["verification_share"]},
    }
    return result


def markdown_real(result: dict[str, Any]) -> str:
    ours, lcr, ratios, setup = result["ours"], result["lcr"], result["ratios"], result["setup"]
    rows = [
        ("Wall time per report, spawn → exit", _fmt(ours["wall_s"], " s", 1), _fmt(lcr["wall_s"], " s", 1),
         "wall_ratio"),
        ("Time in the model (the pass-through's count)", _fmt(ours["model_s"], " s", 1), _fmt(lcr["model_s"], " s", 1),
         "model_s_ratio"),
        ("Model calls", _fmt(ours["llm_calls"], "", 0), _fmt(lcr["llm_calls"], "", 0), "llm_calls_ratio"),
        ("Prompt tokens evaluated (server's count)", _fmt(ours["prompt_tokens"], "", 0),
         _fmt(lcr["prompt_tokens"], "", 0), "prompt_tokens_ratio"),
        ("Tokens written (server's count)", _fmt(ours["completion_tokens"], "", 0),
         _fmt(lcr["completion_tokens"], "", 0), "completion_tokens_ratio"),
        ("CPU time of the process tree (the model server not included)", _fmt(ours["cpu_s"], " s", 1),
         _fmt(lcr["cpu_s"], " s", 1), "cpu_ratio"),
        ("Searches / pages fetched", f"{_fmt(ours.get('searches'), '', 0)} / {_fmt(ours.get('pages_fetched'), '', 0)}",
         f"{_fmt(lcr.get('searches'), '', 0)} / {_fmt(lcr.get('pages_fetched'), '', 0)}", None),
        ("Checking's share of our model time (verification + judge)", _fmt(ours.get("verification_share"), "", 2),
         "", None),
    ]
    lines = [f"Commit {setup.get('commit', '?')}. Model: {setup['model']} on {setup['server']} (RESEARCH_NUM_CTX="
             f"{setup['num_ctx']} for ours); {setup['pairs']} interleaved pair(s) per question over "
             f"{len(setup['questions'])} questions; median (min–max) over the runs; ratio = ours / LCR of the medians "
             "(min–max of the per-pair ratios).", "",
             "| Measure | Ours | LCR | Ratio |", "|---|---|---|---|"]
    lines += [f"| {name} | {a} | {b} | {_fmt_ratio(ratios.get(key)) if key else ''} |" for name, a, b, key in rows]
    lines += ["", "| Pair | Question | Load before → after (1, 5, 15 min) | Ours | LCR | Ours / LCR |",
              "|---|---|---|---|---|---|"]
    for row, a, b in zip(result["pair_rows"], result["runs"]["ours"], result["runs"]["lcr"]):
        share = a.get("verification_share")
        detail = "" if a.get("failed") else (f" ({a.get('llm_calls')} calls, {a.get('completion_tokens')} written, "
                                              f"checking {share:.0%})" if share is not None else "")
        ratio_text = f"{a['wall_s'] / b['wall_s']:.2f}" if not a.get("failed") and not b.get("failed") else "n/a"
        lines.append(f"| {row['pair'] + 1} | {row['question']} | {', '.join(f'{v:.2f}' for v in row['load_before'])} → "
                     f"{', '.join(f'{v:.2f}' for v in row['load_after'])} | {a['wall_s']:.1f} s{detail}"
                     f"{' FAILED' if a.get('failed') else ''} | {b['wall_s']:.1f} s ({b.get('llm_calls')} calls, "
                     f"{b.get('completion_tokens')} written){' FAILED' if b.get('failed') else ''} | {ratio_text} |")
    failed = result.get("failed_runs") or {}
    if any(failed.values()):
        lines.append(f"\nFailed runs, left out with their pair: ours {failed['ours']}, LCR {failed['lcr']}.")
    lines += ["", "| Target | Limit | Measured | |", "|---|---|---|---|"]
    names = {"wall_ratio": "Wall per report, ours / LCR, same model", "verification_share": "Checking / our model time"}
    for key, verdict in result["targets"].items():
        status = "n/a" if verdict["pass"] is None else ("PASS" if verdict["pass"] else "FAIL")
        measured = "n/a" if verdict["measured"] is None else f"{verdict['measured']:.2f}"
        lines.append(f"| {names[key]} | ≤ {verdict['limit']} | {measured} | {status} |")
    return "\n".join(lines) + "\n"


def summarise(all_ours: list[dict[str, Any]], all_theirs: list[dict[str, Any]],
              setup: dict[str, Any]) -> dict[str, Any]:
    def column(rows: list[dict[str, Any]], key: str) -> list[float]:
        return [row.get(key) for row in rows]

    complete = [(a, b) for a, b in zip(all_ours, all_theirs) if not a.get("failed") and not b.get("failed")]
    ours, theirs = [a for a, _ in complete], [b for _, b in complete]

    keys = ("wall_s", "cpu_s", "peak_pss_mib", "peak_rss_mib", "processes", "llm_calls", "prompt_tokens",
            "completion_tokens", "searches", "pages_fetched", "last_report_file_to_exit_s")
    ratios = {
        "wall_ratio": ratio(column(ours, "wall_s"), column(theirs, "wall_s")),
        "cpu_ratio": ratio(column(ours, "cpu_s"), column(theirs, "cpu_s")),
        "tree_memory_ratio": ratio(column(ours, "peak_pss_mib"), column(theirs, "peak_pss_mib")),
        "llm_calls_ratio": ratio(column(ours, "llm_calls"), column(theirs, "llm_calls")),
        "prompt_tokens_ratio": ratio(column(ours, "prompt_tokens"), column(theirs, "prompt_tokens")),
        "first_node_vs_lcr_import": ratio(column(ours, "first_node_s"), column(theirs, "spawn_to_graph_imported_s")),
        "first_node_vs_lcr_import_in_process": ratio(column(ours, "first_node_s"), column(theirs, "import_s")),
    }
    last_file = stats(column(ours, "last_report_file_to_exit_s"))
    verdicts = {}
    for name, (_, limit) in TARGETS.items():
        value = (last_file or {}).get("median") if name == "last_file_to_exit_s" else (ratios[name] or {}).get("ratio")
        if name == "wall_ratio" and setup.get("tokens_per_second"):
            value = None  # the target is for an instant model; a paced run says nothing about it
        verdicts[name] = {"limit": limit, "measured": value,
                          "pass": None if value is None else value <= limit}
    return {
        "setup": setup,
        "ours": {**{k: stats(column(ours, k)) for k in keys},
                 "first_node_s": stats(column(ours, "first_node_s")),
                 "session_line_s": stats(column(ours, "session_line_s")),
                 "last_session_file_to_exit_s": stats(column(ours, "last_session_file_to_exit_s")),
                 "own_count_calls": stats(column(ours, "own_count_calls")),
                 "stragglers": stats(column(ours, "stragglers"))},
        "lcr": {**{k: stats(column(theirs, k)) for k in keys},
                "spawn_to_graph_imported_s": stats(column(theirs, "spawn_to_graph_imported_s")),
                "stragglers": stats(column(theirs, "stragglers")),
                "import_s": stats(column(theirs, "import_s"))},
        "ratios": ratios,
        "targets": verdicts,
        "complete_pairs": len(complete),
        "failed_runs": {"ours": sum(bool(r.get("failed")) for r in all_ours),
                        "lcr": sum(bool(r.get("failed")) for r in all_theirs)},
        "runs": {"ours": all_ours, "lcr": all_theirs},
    }


def _fmt(entry: dict[str, float] | None, unit: str = "", digits: int = 2) -> str:
    if not entry:
        return "n/a"
    return f"{entry['median']:.{digits}f}{unit} ({entry['min']:.{digits}f}–{entry['max']:.{digits}f})"


def _fmt_ratio(entry: dict[str, float] | None) -> str:
    return "n/a" if not entry else f"{entry['ratio']:.2f} ({entry['pair_min']:.2f}–{entry['pair_max']:.2f})"


def markdown(result: dict[str, Any]) -> str:
    ours, lcr, ratios, targets = result["ours"], result["lcr"], result["ratios"], result["targets"]
    setup = result["setup"]
    pace = f"{setup['tokens_per_second']:g} tokens/s" if setup["tokens_per_second"] else "instant"
    rows = [
        ("Wall time, spawn → exit", _fmt(ours["wall_s"], " s"), _fmt(lcr["wall_s"], " s"), "wall_ratio"),
        ("CPU time of the process tree", _fmt(ours["cpu_s"], " s"), _fmt(lcr["cpu_s"], " s"), "cpu_ratio"),
        ("Peak memory of the tree (summed PSS)", _fmt(ours["peak_pss_mib"], " MiB", 1),
         _fmt(lcr["peak_pss_mib"], " MiB", 1), "tree_memory_ratio"),
        ("Processes in the tree", _fmt(ours["processes"], "", 0), _fmt(lcr["processes"], "", 0), None),
        ("… still running when the command exited", _fmt(ours.get("stragglers"), "", 0),
         _fmt(lcr.get("stragglers"), "", 0), None),
        ("LLM calls (neutral fake's count)", _fmt(ours["llm_calls"], "", 0), _fmt(lcr["llm_calls"], "", 0),
         "llm_calls_ratio"),
        ("Prompt tokens (neutral fake's count)", _fmt(ours["prompt_tokens"], "", 0),
         _fmt(lcr["prompt_tokens"], "", 0), "prompt_tokens_ratio"),
        ("Searches / pages fetched (web fixture's log)",
         f"{_fmt(ours.get('searches'), '', 0)} / {_fmt(ours.get('pages_fetched'), '', 0)}",
         f"{_fmt(lcr.get('searches'), '', 0)} / {_fmt(lcr.get('pages_fetched'), '', 0)}", None),
        ("Ours: spawn → first node; LCR: spawn → graph imported", _fmt(ours["first_node_s"], " s"),
         _fmt(lcr["spawn_to_graph_imported_s"], " s"), "first_node_vs_lcr_import"),
        ("… LCR's import measured inside its process", "", _fmt(lcr["import_s"], " s"),
         "first_node_vs_lcr_import_in_process"),
        ("Last report file written → exit (LCR: the driver's result file)",
         _fmt(ours["last_report_file_to_exit_s"], " s"),
         _fmt(lcr["last_report_file_to_exit_s"], " s"), None),
    ]
    measured = f"Commit {setup['commit']}. " if setup.get("commit") else ""
    lines = [f"{measured}Model: neutral fake, {pace}; {setup['pairs']} interleaved pairs after {setup['warmup_runs_each']} "
             f"warm-up run each; question: {setup['question']!r} ({setup['language']}). "
             "Median (min–max); ratio = ours / LCR of the medians (min–max of the per-pair ratios).", "",
             "| Measure | Ours | LCR | Ratio |", "|---|---|---|---|"]
    lines += [f"| {name} | {a} | {b} | {_fmt_ratio(ratios[key]) if key else ''} |" for name, a, b, key in rows]
    failed = result.get("failed_runs") or {}
    if any(failed.values()):
        lines.append(f"\nFailed runs, left out with their pair: ours {failed['ours']}, LCR {failed['lcr']} "
                     f"({result['complete_pairs']} complete pairs; their last stderr lines are in the JSON).")
    lines += ["", "| Target (issue 15) | Limit | Measured | |", "|---|---|---|---|"]
    names = {"wall_ratio": "Instant-model wall, ours / LCR", "tree_memory_ratio": "Tree memory (PSS), ours / LCR",
             "first_node_vs_lcr_import": "Spawn → first node, / LCR's spawn → graph imported",
             "last_file_to_exit_s": "Last report file → exit (s)"}
    for key, verdict in targets.items():
        status = "n/a" if verdict["pass"] is None else ("PASS" if verdict["pass"] else "FAIL")
        measured = "n/a" if verdict["measured"] is None else f"{verdict['measured']:.2f}"
        lines.append(f"| {names[key]} | ≤ {verdict['limit']} | {measured} | {status} |")
    if setup["tokens_per_second"]:
        lines.append("\n(The wall-time target is for an instant model; this run was paced, so it has no verdict.)")
    return "\n".join(lines) + "\n"


def commit() -> str:
    try:
        head = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, capture_output=True, text=True,
                              check=True).stdout.strip()
        dirty = subprocess.run(["git", "status", "--porcelain", "--", "src"], cwd=ROOT, capture_output=True,
                               text=True).stdout.splitlines()
        return head + (f" + {len(dirty)} uncommitted files in src/" if dirty else "")
    except (OSError, subprocess.CalledProcessError):
        return "unknown"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--lcr", type=Path, required=True, help="a local-deep-researcher checkout")
    parser.add_argument("--venv", type=Path, default=DEFAULT_VENV, help="LCR's own venv")
    parser.add_argument("--setup", action="store_true", help="create --venv and pip install --lcr into it, then stop")
    parser.add_argument("--pairs", type=int, default=5)
    parser.add_argument("--warmup", type=int, default=1, help="uncounted runs of each first")
    parser.add_argument("--question", default=DEFAULT_QUESTION)
    parser.add_argument("--lang", default="en")
    parser.add_argument("--tokens-per-second", type=float, default=0.0, help="pace the fake model; 0 = instant")
    parser.add_argument("--list-items", type=int, default=1,
                        help="items the fake puts in each list a JSON schema asks for (default 1)")
    parser.add_argument("--ollama", metavar="URL", help="real-model mode: this Ollama-compatible server, not the fake")
    parser.add_argument("--model", default=REAL_MODEL, help="the model both programs use in real-model mode")
    parser.add_argument("--num-ctx", type=int, default=8192, help="RESEARCH_NUM_CTX for ours in real-model mode")
    parser.add_argument("--questions", type=int, default=len(REAL_QUESTIONS),
                        help="real-model mode: the first N of the question set")
    parser.add_argument("--first-question", type=int, default=1,
                        help="real-model mode: start at this question of the set (1-based), e.g. to split the set "
                             "over two model servers")
    parser.add_argument("--json", action="store_true", help="print the results as JSON")
    parser.add_argument("--out", type=Path, help="where to write the JSON results")
    args = parser.parse_args(argv)
    checkout = args.lcr.resolve()
    if not (checkout / "src" / "ollama_deep_researcher" / "graph.py").exists():
        parser.error(f"{checkout} is not a local-deep-researcher checkout (no src/ollama_deep_researcher/graph.py)")
    if args.setup:
        setup_venv(checkout, args.venv)
        return 0
    python = args.venv / "bin" / "python"
    if not python.exists():
        parser.error(f"no venv at {args.venv}; run once with --setup")
    from run import machine

    started_on, measured = machine(), commit()
    if args.ollama:
        questions = [(args.question, args.lang)] if args.question != DEFAULT_QUESTION else \
            REAL_QUESTIONS[args.first_question - 1:args.questions]
        out = args.out or HERE / "results" / f"compare-lcr-real-{datetime.now():%Y%m%d-%H%M}.json"
        out.parent.mkdir(parents=True, exist_ok=True)
        result = compare_real(checkout, str(python), args.ollama, args.model, args.num_ctx, args.pairs, questions,
                              progress=lambda *a, **k: print(*a, **k, file=sys.stderr, flush=True),
                              partial=out.with_suffix(".partial.json"))
        result["setup"].update(commit=measured, machine=started_on, finished=datetime.now().isoformat(timespec="seconds"))
        out.write_text(json.dumps(result, ensure_ascii=False, indent=2) + "\n", "utf-8")
        m = result["setup"]["machine"]
        print(json.dumps(result, ensure_ascii=False, indent=2) if args.json else
              f"Machine: {m['cpu']}, {m['cores']} cores, {m['memory_gib']} GiB, {m['os']}; {m['date']}; load average "
              f"at the start {m['load_average_1_5_15'][0]}.\n\n" + markdown_real(result))
        return 0
    result = compare(checkout, str(python), args.pairs, args.question, args.lang, args.tokens_per_second,
                     args.warmup, progress=lambda *a, **k: print(*a, **k, file=sys.stderr, flush=True),
                     list_items=args.list_items)
    result["setup"].update(commit=measured, machine=started_on)
    out = args.out or HERE / "results" / f"compare-lcr-{datetime.now():%Y%m%d-%H%M}.json"
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(result, ensure_ascii=False, indent=2) + "\n", "utf-8")
    m = result["setup"]["machine"]
    print(json.dumps(result, ensure_ascii=False, indent=2) if args.json else
          f"Machine: {m['cpu']}, {m['cores']} cores, {m['memory_gib']} GiB, {m['os']}; {m['date']}; load average "
          f"at the start {m['load_average_1_5_15'][0]}.\n\n"
          + markdown(result))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

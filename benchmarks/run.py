"""The benchmark suite: one command for every speed and cost figure of docs/benchmarks.md.

Measured against the neutral fake Ollama (benchmarks/neutral_ollama.py: an instant
model that knows no client's prompts or schema titles) and the local web fixture, so
the numbers are about this program, not a model or the internet. Every figure is a
median with its min–max over the runs.

* end-to-end: ``research "<q>" --json`` measured as a whole process tree
  (benchmarks/treemem.py): wall time to exit, CPU of every process in the tree, peak
  summed PSS sampled every 50 ms, the processes; spawn → first node (stderr) and last
  report file → exit; time by node (events.jsonl); LLM calls and prompt/completion
  tokens as the neutral fake counted them, and by node as the program counts them;
* fetch concurrency, parser throughput and sandbox start-up, PDF render time, start-up
  of `research --help` and the REPL, verifier precision/recall (the bench_*.py scripts);
* with ``--lcr PATH``: the side-by-side comparison with local-deep-researcher
  (benchmarks/compare_lcr.py, ``--pairs`` interleaved pairs). Without it no LCR figure
  is printed: there is no constant for it.

    .venv/bin/python benchmarks/run.py [--quick] [--json] [--out FILE] [--lcr PATH [--pairs N]]

Results are written to benchmarks/results/ (or --out) as JSON; --json also prints them.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import os
import platform
import sys
import tempfile
import time
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE.parent / "tests"))

from neutral_ollama import NeutralOllama  # noqa: E402
from treemem import run_tree, spread  # noqa: E402

from fixtures.web_fixture import WebFixture  # noqa: E402

RESEARCH = str(Path(sys.executable).with_name("research"))
MODEL = "gpt-oss:20b"
QUESTIONS = [("What is the height of Mount Fuji?", "en"), ("LangGraphのチェックポイントとは？", "ja")]
SUB_BENCHMARKS = ("fetch", "parser", "pdf", "startup", "verifier")


def machine() -> dict[str, Any]:
    cpu = platform.processor() or ""
    try:
        cpu = next(line.split(":", 1)[1].strip() for line in Path("/proc/cpuinfo").read_text().splitlines()
                   if line.startswith("model name"))
    except (OSError, StopIteration):
        pass
    memory_gib = None
    try:
        kib = int(next(line.split()[1] for line in Path("/proc/meminfo").read_text().splitlines()
                       if line.startswith("MemTotal")))
        memory_gib = round(kib / 1024 / 1024, 1)
    except (OSError, StopIteration, ValueError):
        pass
    return {"cpu": cpu, "cores": os.cpu_count(), "memory_gib": memory_gib, "python": platform.python_version(),
            "os": f"{platform.system()} {platform.release()}",
            "date": datetime.now(timezone.utc).isoformat(timespec="seconds"),
            # Other work on the machine slows both sides of a comparison alike, but not absolute figures.
            "load_average_1_5_15": [round(x, 2) for x in os.getloadavg()]}


def _env(home: Path, ollama: NeutralOllama, web: WebFixture) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("RESEARCH_", "OLLAMA_"))}
    env.update(HOME=str(home), XDG_CONFIG_HOME=str(home / ".config"), RESEARCH_OLLAMA_HOST=ollama.url,
               RESEARCH_MODEL=MODEL, RESEARCH_SEARCH_ENGINE="searxng", RESEARCH_SEARXNG_URL=web.searxng_url,
               RESEARCH_ALLOW_PRIVATE_NETWORK="true", RESEARCH_SESSIONS_DIR=str(home / "sessions"), NO_COLOR="1")
    return env


def end_to_end(quick: bool) -> dict[str, Any]:
    runs = 1 if quick else 3
    records: list[dict[str, Any]] = []
    failures: list[dict[str, Any]] = []
    # The fixture's deliberately slow page answers after 0.5 s, an ordinary web latency,
    # rather than the 10 s that the fetch-timeout tests use.
    with NeutralOllama(models=(MODEL,)) as ollama, WebFixture(slow_delay=0.5) as web, \
            tempfile.TemporaryDirectory() as tmp:
        home = Path(tmp)
        env = _env(home, ollama, web)
        for question, lang in QUESTIONS[: 1 if quick else 2]:
            for index in range(runs):
                ollama.label = f"{lang}-{index}"
                run = run_tree([RESEARCH, question, "--lang", lang, "--json"], env=env, cwd=home)
                if run.exit_code not in (0, 4):  # kept and counted, left out of the figures
                    failures.append({"language": lang, "exit_code": run.exit_code,
                                     "stderr_tail": [line for _, line in run.stderr_lines[-5:]]})
                    continue
                session = Path(json.loads(run.stdout.strip().splitlines()[-1])["session_dir"])
                records.append(_session_figures(session, run, lang, ollama.stats(ollama.label)))
    if not records:
        raise RuntimeError(f"every end-to-end run failed: {failures}")
    return {**_summarise(records), "failed_runs": failures}


def _session_figures(session: Path, run: Any, lang: str, counted: dict[str, Any]) -> dict[str, Any]:
    events = [json.loads(line) for line in (session / "events.jsonl").read_text("utf-8").splitlines()]
    nodes: dict[str, float] = {}
    for event in events:
        if event["event"] == "node_end":
            nodes[event["node"]] = nodes.get(event["node"], 0.0) + event["seconds"]
    usage = json.loads((session / "meta.json").read_text("utf-8")).get("usage", {})
    usage = {k: v for k, v in usage.items() if isinstance(v, dict) and "calls" in v}
    reports = [session / name for name in ("report.md", "report.pdf") if (session / name).exists()]
    first_node = next((at for at, line in run.stderr_lines if line.lstrip().startswith("→")), None)
    return {"language": lang, "exit_code": run.exit_code, "wall_s": run.wall_s, "cpu_s": run.cpu_s,
            "peak_pss_mib": run.peak_pss_mib, "peak_rss_mib": run.peak_rss_mib, "processes": run.processes_seen,
            "first_node_s": first_node,
            "last_report_file_to_exit_s": run.exited_at - max(p.stat().st_mtime for p in reports) if reports else None,
            "nodes_s": nodes, "model_s": sum(entry.get("model_ms", 0) for entry in usage.values()) / 1000,
            "llm_calls": counted["calls"], "prompt_tokens": counted["prompt_tokens"],
            "completion_tokens": counted["completion_tokens"], "usage": usage}


def _summarise(records: list[dict[str, Any]]) -> dict[str, Any]:
    def figure(key: str) -> dict[str, float] | None:
        return spread([r[key] for r in records])

    node_names = list(dict.fromkeys(name for r in records for name in r["nodes_s"]))
    usage_nodes = list(dict.fromkeys(name for r in records for name in r["usage"]))
    return {
        "runs": len(records),
        "languages": sorted({r["language"] for r in records}),
        **{key: figure(key) for key in ("wall_s", "cpu_s", "peak_pss_mib", "peak_rss_mib", "processes",
                                        "first_node_s", "last_report_file_to_exit_s", "model_s", "llm_calls",
                                        "prompt_tokens", "completion_tokens")},
        "in_graph_s": spread([sum(r["nodes_s"].values()) for r in records]),
        # With an instant model nearly everything is orchestration; the absolute seconds
        # are the figure to hold against a real model's tens of seconds per report.
        "orchestration_s": spread([r["wall_s"] - r["model_s"] for r in records]),
        "nodes_s": {name: spread([r["nodes_s"].get(name, 0.0) for r in records]) for name in node_names},
        "by_node": {name: {key: spread([r["usage"].get(name, {}).get(key, 0) for r in records])
                           for key in ("calls", "prompt_tokens", "completion_tokens")} for name in usage_nodes},
        "exit_codes": sorted({r["exit_code"] for r in records}),
    }


def sub_benchmark(name: str, quick: bool) -> dict[str, Any]:
    spec = importlib.util.spec_from_file_location(f"bench_{name}", HERE / f"bench_{name}.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    started = time.perf_counter()
    result = module.run(quick)
    return {**result, "bench_wall_s": round(time.perf_counter() - started, 2)}


def run(quick: bool, lcr: Path | None = None, pairs: int = 5) -> dict[str, Any]:
    started = time.perf_counter()
    import compare_lcr

    # The program measured is this checkout's working tree (an editable install), so the
    # commit says what was measured only together with the count of uncommitted files.
    results: dict[str, Any] = {"quick": quick, "machine": machine(), "commit": compare_lcr.commit()}
    results["end_to_end"] = end_to_end(quick)
    for name in SUB_BENCHMARKS:
        try:
            results[name] = sub_benchmark(name, quick)
        except Exception as exc:  # noqa: BLE001 - one broken benchmark must not hide the others
            results[name] = {"error": f"{type(exc).__name__}: {exc}"}
    if lcr is not None:
        results["compare_lcr"] = compare_lcr.compare(lcr, str(compare_lcr.DEFAULT_VENV / "bin" / "python"), pairs,
                                                     compare_lcr.DEFAULT_QUESTION, "en", 0.0,
                                                     progress=lambda *a, **k: print(*a, **k, file=sys.stderr))
        results["compare_lcr"]["setup"]["commit"] = results["commit"]
    results["suite_wall_s"] = round(time.perf_counter() - started, 1)
    return results


def _f(entry: dict[str, float] | None, unit: str = "", digits: int = 2) -> str:
    """A figure as median (min–max)."""
    if not entry:
        return "n/a"
    median, low, high = (f"{entry[k]:.{digits}f}" for k in ("median", "min", "max"))
    return f"{median}{unit} ({low}–{high})" if entry["n"] > 1 else f"{median}{unit} (one run)"


def markdown(results: dict[str, Any]) -> str:
    e2e, m = results["end_to_end"], results["machine"]
    fetch, parser, pdf, startup, verifier = (results.get(k, {}) for k in SUB_BENCHMARKS)
    rows = [
        ("End-to-end wall time, instant model, spawn → exit", _f(e2e["wall_s"], " s")),
        ("… waiting on the model", _f(e2e["model_s"], " s")),
        ("… orchestration (everything else)", _f(e2e["orchestration_s"], " s")),
        ("… inside the graph (sum of nodes)", _f(e2e["in_graph_s"], " s")),
        ("… spawn → first node", _f(e2e["first_node_s"], " s")),
        ("… last report file written → exit", _f(e2e["last_report_file_to_exit_s"], " s")),
        ("Time by node (medians)", ", ".join(f"{k} {v['median']:.2f} s" for k, v in e2e["nodes_s"].items())),
        ("CPU time of the process tree (user + system)", _f(e2e["cpu_s"], " s")),
        ("Peak memory of the process tree (summed PSS)", _f(e2e["peak_pss_mib"], " MiB", 1)),
        ("… summed RSS, for reference", _f(e2e["peak_rss_mib"], " MiB", 1)),
        ("Processes in the tree", _f(e2e["processes"], "", 0)),
        ("Failed end-to-end runs (left out of the figures above)", str(len(e2e.get("failed_runs", [])))),
        ("LLM calls per report (neutral fake's count)", _f(e2e["llm_calls"], "", 0)),
        ("Tokens per report, prompt / completion (neutral fake's count)",
         f"{_f(e2e['prompt_tokens'], '', 0)} / {_f(e2e['completion_tokens'], '', 0)}"),
        ("Fetch 10 pages: concurrent / serial", f"{_f(fetch.get('concurrent_s'), ' s')} / "
                                                f"{_f(fetch.get('serial_s'), ' s')} ({fetch.get('latency_s')} s latency)"),
        ("Parser sandbox start-up", f"{_f(parser.get('startup_s'), ' s')} ({parser.get('sandbox')})"),
        ("Parser throughput", _f(parser.get("documents_per_second"), " docs/s", 1)),
        ("PDF render, 10 pages, font registered", _f(pdf.get("render_without_font_registration_s"), " s", 3)),
        ("… font registration (once per process)", _f(pdf.get("font_registration_s"), " s", 3)),
        ("`research --help`", _f(startup.get("help_wall_s"), " s", 3)),
        ("REPL to prompt", _f(startup.get("repl_time_to_prompt_s"), " s", 3)),
        ("Verifier: fabricated citations (P/R)", _pr(verifier, "fabricated_citation")),
        ("Verifier: unsupported claims (P/R)", _pr(verifier, "unsupported_claim")),
    ]
    table = "\n".join(["| Measure | Median (min–max) |", "|---|---|", *(f"| {a} | {b} |" for a, b in rows)])
    header = (f"Machine: {m['cpu']}, {m['cores']} cores, {m['memory_gib']} GiB, Python {m['python']}, "
              f"{m['os']}; {m['date']}{' (quick run)' if results['quick'] else ''}; load average at the start "
              f"{m['load_average_1_5_15'][0]}. Commit {results.get('commit', 'unknown')}. "
              f"End to end: {e2e['runs']} runs ({', '.join(e2e['languages'])}).")
    text = header + "\n\n" + table + "\n"
    if "compare_lcr" in results:
        import compare_lcr

        text += "\n" + compare_lcr.markdown(results["compare_lcr"])
    return text


def _pr(verifier: dict[str, Any], key: str) -> str:
    scores = verifier.get(key) or next((v.get(key) for v in verifier.values() if isinstance(v, dict) and key in v), None)
    return f"{scores['precision']} / {scores['recall']}" if scores else "n/a"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="CI-sized: one run, shorter latencies")
    parser.add_argument("--json", action="store_true", help="print the results as JSON")
    parser.add_argument("--out", type=Path, help="where to write the JSON results")
    parser.add_argument("--lcr", type=Path, help="a local-deep-researcher checkout: add the side-by-side comparison "
                                                 "(needs its venv: benchmarks/compare_lcr.py --setup)")
    parser.add_argument("--pairs", type=int, default=5, help="interleaved pairs for --lcr")
    args = parser.parse_args(argv)
    if args.lcr and not Path("/tmp/lcr-venv/bin/python").exists():
        parser.error("no LCR venv at /tmp/lcr-venv: run benchmarks/compare_lcr.py --lcr PATH --setup first")
    results = run(args.quick, args.lcr.resolve() if args.lcr else None, args.pairs)
    out = args.out or HERE / "results" / f"{'quick' if args.quick else 'full'}-{datetime.now():%Y%m%d}.json"
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(results, ensure_ascii=False, indent=2) + "\n", "utf-8")
    print(json.dumps(results, ensure_ascii=False, indent=2) if args.json else markdown(results))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

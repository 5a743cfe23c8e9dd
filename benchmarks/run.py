"""The benchmark suite: one command for every speed and cost figure of docs/benchmarks.md.

Measured against the fake Ollama (an instant, extractive model) and the local web
fixture, so the numbers are about this program, not a model or the internet:

* end-to-end wall time of a standard run, split by node (events.jsonl), and the share
  of it that is orchestration (everything that is not waiting on the model);
* LLM calls and prompt/completion tokens per report, by node (meta.json ``usage``),
  next to local-deep-researcher's default of 9 calls per report;
* peak memory (ru_maxrss) of the `research` process;
* fetch concurrency, parser throughput and sandbox start-up, PDF render time, start-up
  of `research --help` and the REPL, verifier precision/recall (the bench_*.py scripts).

    .venv/bin/python benchmarks/run.py [--quick] [--json] [--out FILE]

Results are written to benchmarks/results/ (or --out) as JSON; --json also prints them.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import os
import platform
import statistics
import subprocess
import sys
import tempfile
import time
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent / "tests"))

from fixtures.fake_ollama import FakeOllama  # noqa: E402
from fixtures.web_fixture import WebFixture  # noqa: E402

RESEARCH = str(Path(sys.executable).with_name("research"))
QUESTIONS = [("What is the height of Mount Fuji?", "en"), ("LangGraphのチェックポイントとは？", "ja")]
# langchain-ai/local-deep-researcher, default configuration: query generation, then
# 3 loops of (summarize + reflect), then a final summary = 1 + 3*2 + ... = 9 LLM calls.
LOCAL_DEEP_RESEARCHER_CALLS = 9
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
            "date": datetime.now(timezone.utc).isoformat(timespec="seconds")}


def _env(home: Path, ollama: FakeOllama, web: WebFixture) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("RESEARCH_", "OLLAMA_"))}
    env.update(HOME=str(home), XDG_CONFIG_HOME=str(home / ".config"), RESEARCH_OLLAMA_HOST=ollama.url,
               RESEARCH_SEARCH_ENGINE="searxng", RESEARCH_SEARXNG_URL=web.searxng_url,
               RESEARCH_ALLOW_PRIVATE_NETWORK="true", RESEARCH_SESSIONS_DIR=str(home / "sessions"), NO_COLOR="1")
    return env


def _timed_run(args: list[str], env: dict[str, str], workdir: Path) -> tuple[float, int, int, str]:
    """(wall seconds, exit code, peak RSS in KiB, stdout) of one `research` process.

    os.wait4 gives the rusage of exactly this child (its ru_maxrss is the largest of the
    process and the children it reaped, i.e. the MCP servers if they outgrew it).
    """
    out, err = workdir / "stdout.txt", workdir / "stderr.txt"
    with out.open("w") as stdout, err.open("w") as stderr:
        started = time.perf_counter()
        process = subprocess.Popen([RESEARCH, *args], env=env, stdout=stdout, stderr=stderr, stdin=subprocess.DEVNULL)
        _, status, usage = os.wait4(process.pid, 0)
        wall = time.perf_counter() - started
    process.returncode = os.waitstatus_to_exitcode(status)
    if process.returncode not in (0, 4):
        raise RuntimeError(f"research exited {process.returncode}: {err.read_text()[-2000:]}")
    return wall, process.returncode, usage.ru_maxrss, out.read_text()


def end_to_end(quick: bool) -> dict[str, Any]:
    runs = 1 if quick else 3
    records = []
    # The fixture's deliberately slow page answers after 0.5 s, an ordinary web latency,
    # rather than the 10 s that the fetch-timeout tests use.
    with FakeOllama() as ollama, WebFixture(slow_delay=0.5) as web, tempfile.TemporaryDirectory() as tmp:
        home = Path(tmp)
        env = _env(home, ollama, web)
        for question, lang in QUESTIONS[: 1 if quick else 2]:
            for _ in range(runs):
                wall, code, rss_kib, stdout = _timed_run([question, "--lang", lang, "--json"], env, home)
                session = Path(json.loads(stdout.strip().splitlines()[-1])["session_dir"])
                records.append(_session_figures(session, wall, code, rss_kib, lang))
    return _summarise(records)


def _session_figures(session: Path, wall: float, code: int, rss_kib: int, lang: str) -> dict[str, Any]:
    events = [json.loads(line) for line in (session / "events.jsonl").read_text("utf-8").splitlines()]
    nodes: dict[str, float] = {}
    for event in events:
        if event["event"] == "node_end":
            nodes[event["node"]] = nodes.get(event["node"], 0.0) + event["seconds"]
    usage = json.loads((session / "meta.json").read_text("utf-8")).get("usage", {})
    usage = {k: v for k, v in usage.items() if k != "context_overflow"}
    model_s = sum(entry.get("model_ms", 0) for entry in usage.values()) / 1000
    return {"language": lang, "exit_code": code, "wall_s": wall, "nodes_s": nodes, "model_s": model_s,
            "peak_rss_mib": rss_kib / 1024, "usage": usage}


def _summarise(records: list[dict[str, Any]]) -> dict[str, Any]:
    def median(values: list[float]) -> float:
        return round(statistics.median(values), 3)

    node_names = list(dict.fromkeys(name for r in records for name in r["nodes_s"]))
    usage_nodes = list(dict.fromkeys(name for r in records for name in r["usage"]))
    wall = median([r["wall_s"] for r in records])
    model = median([r["model_s"] for r in records])
    calls = median([sum(e["calls"] for e in r["usage"].values()) for r in records])
    return {
        "runs": len(records),
        "wall_s_median": wall,
        "in_graph_s_median": median([sum(r["nodes_s"].values()) for r in records]),
        "nodes_s_median": {name: median([r["nodes_s"].get(name, 0.0) for r in records]) for name in node_names},
        "model_s_median": model,
        "orchestration_s_median": round(wall - model, 3),
        # With an instant model nearly everything is orchestration; the absolute seconds
        # are the figure to hold against a real model's tens of seconds per report.
        "orchestration_share": round((wall - model) / wall, 3) if wall else None,
        "llm_calls_per_report": calls,
        "local_deep_researcher_calls_per_report": LOCAL_DEEP_RESEARCHER_CALLS,
        "tokens_per_report": {
            "prompt": median([sum(e["prompt_tokens"] for e in r["usage"].values()) for r in records]),
            "completion": median([sum(e["completion_tokens"] for e in r["usage"].values()) for r in records]),
        },
        "by_node": {name: {key: median([r["usage"].get(name, {}).get(key, 0) for r in records])
                           for key in ("calls", "prompt_tokens", "completion_tokens")} for name in usage_nodes},
        "peak_rss_mib_max": round(max(r["peak_rss_mib"] for r in records), 1),
        "exit_codes": sorted({r["exit_code"] for r in records}),
    }


def sub_benchmark(name: str, quick: bool) -> dict[str, Any]:
    spec = importlib.util.spec_from_file_location(f"bench_{name}", HERE / f"bench_{name}.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    started = time.perf_counter()
    result = module.run(quick)
    return {**result, "bench_wall_s": round(time.perf_counter() - started, 2)}


def run(quick: bool) -> dict[str, Any]:
    started = time.perf_counter()
    results: dict[str, Any] = {"quick": quick, "machine": machine(), "end_to_end": end_to_end(quick)}
    for name in SUB_BENCHMARKS:
        try:
            results[name] = sub_benchmark(name, quick)
        except Exception as exc:  # noqa: BLE001 - one broken benchmark must not hide the others
            results[name] = {"error": f"{type(exc).__name__}: {exc}"}
    results["suite_wall_s"] = round(time.perf_counter() - started, 1)
    return results


def markdown(results: dict[str, Any]) -> str:
    e2e, m = results["end_to_end"], results["machine"]
    fetch, parser, pdf, startup, verifier = (results.get(k, {}) for k in SUB_BENCHMARKS)
    rows = [
        ("End-to-end wall time, instant model (median)", f"{e2e['wall_s_median']:.2f} s"),
        ("… of which waiting on the model", f"{e2e['model_s_median']:.2f} s"),
        ("… orchestration (everything else)", f"{e2e['orchestration_s_median']:.2f} s "
                                              f"({e2e['orchestration_share']:.0%} with an instant model)"),
        ("… inside the graph (sum of nodes)", f"{e2e['in_graph_s_median']:.2f} s; the rest is start-up of the "
                                             "process, the two MCP servers and the sandbox, and shutdown"),
        ("Time by node", ", ".join(f"{k} {v:.2f} s" for k, v in e2e["nodes_s_median"].items())),
        ("LLM calls per report", f"{e2e['llm_calls_per_report']:g} (local-deep-researcher: "
                                 f"{e2e['local_deep_researcher_calls_per_report']})"),
        ("Tokens per report (prompt / completion)", f"{e2e['tokens_per_report']['prompt']:g} / "
                                                     f"{e2e['tokens_per_report']['completion']:g}"),
        ("Peak memory of `research` (ru_maxrss)", f"{e2e['peak_rss_mib_max']} MiB"),
        ("Fetch 10 pages: concurrent / serial", f"{fetch.get('concurrent_s')} s / {fetch.get('serial_s')} s "
                                                f"(ratio {fetch.get('ratio')}, {fetch.get('latency_s')} s latency)"),
        ("Parser sandbox start-up / throughput", f"{parser.get('startup_seconds')} s / "
                                                 f"{parser.get('documents_per_second')} docs/s ({parser.get('sandbox')})"),
        ("PDF render (10 pages)", f"{pdf.get('render_without_font_registration_s')} s "
                                  f"(+ {pdf.get('font_registration_s')} s font registration once)"),
        ("`research --help` / REPL to prompt", f"{startup.get('help_wall_s_median')} s / "
                                               f"{startup.get('repl_time_to_prompt_s_median')} s"),
        ("Verifier: fabricated citations (P/R)", _pr(verifier, "fabricated_citation")),
        ("Verifier: unsupported claims (P/R)", _pr(verifier, "unsupported_claim")),
    ]
    table = "\n".join(["| Measure | Result |", "|---|---|", *(f"| {a} | {b} |" for a, b in rows)])
    header = (f"Machine: {m['cpu']}, {m['cores']} cores, {m['memory_gib']} GiB, Python {m['python']}, "
              f"{m['os']}; {m['date']}{' (quick run)' if results['quick'] else ''}.")
    return header + "\n\n" + table + "\n"


def _pr(verifier: dict[str, Any], key: str) -> str:
    scores = verifier.get(key) or next((v.get(key) for v in verifier.values() if isinstance(v, dict) and key in v), None)
    return f"{scores['precision']} / {scores['recall']}" if scores else "n/a"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="CI-sized: one run, shorter latencies")
    parser.add_argument("--json", action="store_true", help="print the results as JSON")
    parser.add_argument("--out", type=Path, help="where to write the JSON results")
    args = parser.parse_args(argv)
    results = run(args.quick)
    out = args.out or HERE / "results" / f"{'quick' if args.quick else 'full'}-{datetime.now():%Y%m%d}.json"
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(results, ensure_ascii=False, indent=2) + "\n", "utf-8")
    print(json.dumps(results, ensure_ascii=False, indent=2) if args.json else markdown(results))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

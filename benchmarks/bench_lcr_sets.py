"""local-deep-researcher on a `research bench`'s questions and pages, graded the same way.

Takes the folder of a bench that ran (``<sessions>/bench/<set>-…/``: its bench.json names the
set file, the sample and the seed; its corpus/ holds every page of the set) and asks
local-deep-researcher (LCR, langchain-ai/local-deep-researcher) the same questions:

* its SearXNG backend is pointed at a local search over the same corpus, started here: BM25
  over the same Markdown files (``research.modules.text.index``, what our local engine uses),
  answering ``/search?q=…&format=json`` as SearXNG does, and serving each page as HTML at
  ``/page/<id>`` (LCR's ``fetch_full_page`` fetches and markdownifies it); no network;
* the model is the same Ollama-compatible server, through the counting pass-through
  (benchmarks/ollama_meter.py), so its tokens are counted as the server reports them;
* its final ``running_summary`` is graded by ``research.orchestrator.bench.grading`` exactly
  as our final answer is.

Lines go to ``lcr-results.jsonl`` in the bench's folder as each question ends (a rerun goes on
where it stopped); at the end a Markdown table puts ours and LCR's side by side on the
questions both answered. LCR's code stays out of this repository (see compare_lcr.py, --setup).

    .venv/bin/python benchmarks/compare_lcr.py --lcr /tmp/lcr --setup          # once: /tmp/lcr-venv
    .venv/bin/python benchmarks/bench_lcr_sets.py --bench <sessions>/bench/pubmedqa-… \\
        --lcr /tmp/lcr --ollama http://127.0.0.1:11502 --model qwen2.5-coder:1.5b
"""

from __future__ import annotations

import argparse
import html
import json
import os
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlsplit

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from compare_lcr import LCR_DRIVER, _base_env  # noqa: E402
from ollama_meter import OllamaMeter  # noqa: E402

from research.modules.text.index import TextIndex, best_passage  # noqa: E402
from research.orchestrator.bench.grading import grade  # noqa: E402
from research.orchestrator.bench.results import read_results  # noqa: E402
from research.orchestrator.bench.sets import load_set, sample  # noqa: E402
from research.orchestrator.bench.stats import percentile, wilson  # noqa: E402

LCR_RESULTS = "lcr-results.jsonl"


class CorpusSearch:
    """A SearXNG-shaped search over the bench's corpus, and the pages themselves, on 127.0.0.1."""

    def __init__(self, corpus: Path) -> None:
        self.pages: dict[str, tuple[str, str]] = {}
        self.index = TextIndex()
        for path in sorted(corpus.glob("*.md")):
            text = path.read_text("utf-8")
            title = text.split("\n", 1)[0].lstrip("# ").strip()
            self.pages[path.stem] = (title, text)
            self.index.add(path.stem, text)
        self.fetched: list[str] = []  # page ids served, in order (cleared per question)
        self.server = ThreadingHTTPServer(("127.0.0.1", 0), self._handler())
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}"

    def __enter__(self) -> "CorpusSearch":
        threading.Thread(target=self.server.serve_forever, daemon=True).start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.server.shutdown()
        self.server.server_close()

    def results(self, query: str) -> dict[str, Any]:
        found = [{"url": f"{self.url}/page/{page_id}", "title": self.pages[page_id][0],
                  "content": best_passage(self.pages[page_id][1], query), "engine": "corpus", "engines": ["corpus"],
                  "score": round(score, 4), "category": "general"}
                 for page_id, score in self.index.search(query, 10)]
        return {"query": query, "number_of_results": len(found), "results": found, "answers": [], "corrections": [],
                "infoboxes": [], "suggestions": [], "unresponsive_engines": []}

    def _handler(self) -> type[BaseHTTPRequestHandler]:
        corpus = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args: object) -> None:
                pass

            def do_GET(self) -> None:  # noqa: N802 - stdlib name
                parts = urlsplit(self.path)
                if parts.path.endswith("/search"):
                    query = (parse_qs(parts.query).get("q") or [""])[0]
                    self._send("application/json", json.dumps(corpus.results(query), ensure_ascii=False))
                elif parts.path.startswith("/page/") and parts.path[6:] in corpus.pages:
                    page_id = parts.path[6:]
                    corpus.fetched.append(page_id)
                    title, text = corpus.pages[page_id]
                    body = "".join(f"<p>{html.escape(block)}</p>\n" for block in text.split("\n\n")[1:])
                    self._send("text/html; charset=utf-8",
                               f"<html><head><title>{html.escape(title)}</title></head><body>"
                               f"<h1>{html.escape(title)}</h1>\n{body}</body></html>")
                else:
                    self.send_error(404)

            def _send(self, kind: str, text: str) -> None:
                data = text.encode("utf-8")
                self.send_response(200)
                self.send_header("Content-Type", kind)
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

        return Handler


def run_one(item: Any, set_name: str, python: str, checkout: Path, meter: OllamaMeter, corpus: CorpusSearch,
            model: str, home: Path, timeout: float, loops: int) -> dict[str, Any]:
    env = _base_env(home)
    for name in ("LLM_PROVIDER", "LOCAL_LLM", "OLLAMA_BASE_URL", "SEARCH_API", "FETCH_FULL_PAGE",
                 "MAX_WEB_RESEARCH_LOOPS", "USE_TOOL_CALLING", "STRIP_THINKING_TOKENS"):
        env.pop(name, None)
    env.update(SEARXNG_URL=corpus.url + "/search", LANGSMITH_TRACING="false", LANGCHAIN_TRACING_V2="false",
               PYTHONPATH=str(checkout / "src"))
    driver = LCR_DRIVER.replace('"max_web_research_loops": 3', f'"max_web_research_loops": {loops}')
    out = home / f"lcr-{item.item_id}.json"
    meter.label = item.item_id
    corpus.fetched.clear()
    line: dict[str, Any] = {"item_id": item.item_id, "question": item.question, "gold": list(item.gold)}
    started = time.monotonic()
    try:
        run = subprocess.run([python, "-c", driver, str(out), item.question, meter.url + "/", model], env=env,
                             cwd=home, capture_output=True, text=True, timeout=timeout)
        failed = run.returncode != 0 or not out.exists()
        line["error"] = run.stderr.strip().splitlines()[-1][:300] if failed and run.stderr.strip() else ""
    except subprocess.TimeoutExpired:
        failed, line["error"] = True, f"no answer within {timeout:g} s"
    line["seconds"] = round(time.monotonic() - started, 2)
    counted = meter.stats(item.item_id)
    line["tokens"] = counted["prompt_tokens"] + counted["completion_tokens"]
    line["own_page_read"] = item.page_id in corpus.fetched
    answer = "" if failed else Path(str(out) + ".md").read_text("utf-8")
    graded = grade(set_name, answer, item.gold)
    line.update(status="failed" if failed else "done", answer=answer, predicted=graded.predicted,
                correct=graded.correct, answer_chars=graded.answer_chars)
    return line


def figures(lines: list[dict[str, Any]], checked: bool = False) -> dict[str, Any]:
    """The table's figures over LINES; CHECKED: the program checks its claims and keeps its first
    draft apart (ours), so those columns have figures (LCR's show –)."""
    done = [line for line in lines if line["status"] == "done"]
    correct = sum(bool(line["correct"]) for line in lines)
    low, high = wilson(correct, len(lines))
    tokens = [line["tokens"] for line in done if line.get("tokens") is not None]
    return {"questions": len(lines), "completed": len(done), "correct": correct,
            "accuracy": correct / len(lines) if lines else None, "interval": [low, high],
            "seconds_median": percentile([line["seconds"] for line in done], 50),
            "seconds_p90": percentile([line["seconds"] for line in done], 90),
            "tokens_median": percentile([float(t) for t in tokens], 50) if tokens else None,
            "own_page_read": sum(bool(line.get("own_page_read")) for line in done),
            "claims": sum(line.get("claims") or 0 for line in done) if checked else None,
            "supported": sum(line.get("supported") or 0 for line in done),
            "changed": sum(bool(line.get("verification_changed")) for line in done),
            "helped": sum(1 for line in done if line.get("draft_correct") is False and line["correct"]),
            "hurt": sum(1 for line in done if line.get("draft_correct") and not line["correct"]),
            "draft_correct": sum(bool(line.get("draft_correct")) for line in done)}


def table(rows: list[tuple[str, dict[str, Any]]]) -> str:
    def cell(value: float | None, digits: int = 1) -> str:
        return "–" if value is None else f"{value:,.{digits}f}"

    out = ["| program | accuracy (95 % Wilson) | completed | s/question median / p90 | tokens/question median | "
           "read the answering page | claims supported | verification changed the answer: runs (made right / wrong) "
           "| first draft right |", "|---|---|---|---|---|---|---|---|---|"]
    for name, f in rows:
        accuracy = "–" if f["accuracy"] is None else (
            f"{100 * f['accuracy']:.0f} % ({f['correct']}/{f['questions']}; {100 * f['interval'][0]:.0f}–"
            f"{100 * f['interval'][1]:.0f} %)")
        out.append(f"| {name} | {accuracy} | {f['completed']}/{f['questions']} | {cell(f['seconds_median'])} / "
                   f"{cell(f['seconds_p90'])} | {cell(f['tokens_median'], 0)} | {f['own_page_read']}/{f['completed']} | "
                   + ("– | – | – |" if f["claims"] is None else
                      (f"{100 * f['supported'] / f['claims']:.0f} % " if f["claims"] else "– ")
                      + f"({f['supported']}/{f['claims']}) | "
                      f"{f['changed']}/{f['completed']} ({f['helped']} / {f['hurt']}) | "
                      f"{f['draft_correct']}/{f['completed']} |"))
    return "\n".join(out)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--bench", type=Path, required=True, help="the folder of a bench that ran")
    parser.add_argument("--lcr", type=Path, required=True, help="LCR's checkout")
    parser.add_argument("--python", default="/tmp/lcr-venv/bin/python", help="the Python of LCR's venv")
    parser.add_argument("--ollama", required=True, help="the Ollama-compatible server's URL")
    parser.add_argument("--model", required=True)
    parser.add_argument("--timeout", type=float, default=1800.0, help="seconds per question")
    parser.add_argument("--loops", type=int, default=3, help="LCR's max_web_research_loops (its default: 3)")
    parser.add_argument("--limit", type=int, help="only the first N questions of the bench's sample")
    parser.add_argument("--no-run", action="store_true", help="ask nothing: the table from the lines written")
    args = parser.parse_args(argv)
    config = json.loads((args.bench / "bench.json").read_text("utf-8"))
    bench = load_set(config["set"], Path(config["data"]))
    ours = {r.item_id: r for r in read_results(args.bench / "results.jsonl")}
    items = sample(bench.items, config["sample"], config["seed"])[:args.limit]
    results_path = args.bench / LCR_RESULTS
    lines = [json.loads(line) for line in results_path.read_text("utf-8").splitlines()] if results_path.exists() else []
    done = {line["item_id"] for line in lines}
    with OllamaMeter(args.ollama) as meter, CorpusSearch(args.bench / "corpus") as corpus, \
            tempfile.TemporaryDirectory(prefix="bench-lcr-") as tmp:
        for item in items:
            if item.item_id in done or args.no_run:
                continue
            load = os.getloadavg()[0]
            line = run_one(item, bench.name, args.python, args.lcr, meter, corpus, args.model, Path(tmp),
                           args.timeout, args.loops)
            line["load_before"] = round(load, 2)
            with open(results_path, "a", encoding="utf-8") as handle:
                handle.write(json.dumps(line, ensure_ascii=False) + "\n")
            lines.append(line)
            print(f"[{len(lines)}/{len(items)}] {'✓' if line['correct'] else '✗'} {item.item_id} "
                  f"{line['seconds']:.0f} s ({line['status']}) load {load:.1f}", flush=True)
    # Both sides graded now, by the grader as it is, from the answers kept: a line written by an
    # older grader is not compared with one written by a newer.
    by_id = {item.item_id: item for item in items}
    for line in lines:
        if line["item_id"] in by_id and line["status"] == "done":
            line["correct"] = grade(bench.name, line["answer"], by_id[line["item_id"]].gold).correct
    for result in ours.values():
        if result.item_id in by_id and result.status == "done":
            result.correct = grade(bench.name, result.answer, by_id[result.item_id].gold).correct
    asked = [line["item_id"] for line in lines if line["item_id"] in by_id]
    both = [item_id for item_id in asked if item_id in ours]
    mine = [{"status": ours[i].status, "correct": ours[i].correct, "seconds": ours[i].seconds, "tokens": ours[i].tokens,
             "own_page_read": ours[i].own_page_read, "claims": ours[i].claims, "supported": ours[i].supported,
             "verification_changed": ours[i].verification_changed, "draft_correct": ours[i].draft_correct}
            for i in both]
    theirs = [line for line in lines if line["item_id"] in both]
    summary = {"set": bench.name, "model": args.model, "questions": both, "ours": figures(mine, checked=True),
               "lcr": figures(theirs), "lcr_loops": args.loops}
    (args.bench / "lcr-summary.json").write_text(json.dumps(summary, indent=2) + "\n", "utf-8")
    print(table([("research (this program)", summary["ours"]), ("local-deep-researcher", summary["lcr"])]))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

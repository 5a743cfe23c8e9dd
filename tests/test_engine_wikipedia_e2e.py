"""`research --engine wikipedia` as a user runs it: MediaWiki's API of the question's
language edition (the local web's Wikipedia-compatible endpoints), the articles it finds
fetched and read, and the engine listed by help, `research config` and `research doctor`,
which read the one list of engines (settings.SEARCH_ENGINES)."""

from __future__ import annotations

import json

import pytest
from conftest import load_json_line, run_research, session_dirs

from research.modules.core.settings import SEARCH_ENGINES

pytestmark = pytest.mark.e2e


def test_research_with_the_wikipedia_engine_finds_and_reads_articles(research_env, web):
    """Japanese here; the English edition is asked for an English query in test_search_engines.py
    (in-process: one subprocess run is enough to show the CLI's path)."""
    question, language, title = "宝永大噴火はいつ始まった？", "ja", "宝永大噴火"
    env = {**research_env, "RESEARCH_WIKIPEDIA_URL": web.wikipedia_url}
    result = run_research(["--engine", "wikipedia", question, "--json"], env)
    assert result.returncode == 0, result.stderr
    summary = load_json_line(result.stdout)
    [session] = session_dirs(env)
    searched = json.loads((session / "search_results.json").read_text("utf-8"))
    rows = searched if isinstance(searched, list) else searched.get("results", [])
    wiki = [row for row in rows if f"/wikipedia/{language}/wiki/" in row.get("url", "")]
    assert wiki and all(row.get("engine") == "wikipedia" for row in wiki), rows
    # The question's edition answered (the API was asked), and the articles were read.
    assert web.requests_for(f"/wikipedia/{language}/w/api.php")
    ledger = [json.loads(line) for line in (session / "processed.jsonl").read_text("utf-8").splitlines()]
    read = [d for d in ledger if d["status"] == "ok" and f"/wikipedia/{language}/wiki/" in d["url"]]
    assert any(d["title"] == title for d in read), [(d["title"], d["status"]) for d in ledger]
    assert summary["sources"] >= 1
    report = (session / "report.md").read_text("utf-8")
    assert title in report and "wikipedia" in report  # a cited source, and the method's engine line


def test_help_config_and_doctor_list_every_engine(run_cli, research_env, web):
    # In-process (run_cli): these commands need no process boundary, only the one list of engines.
    helped = run_cli(["--help"], research_env)
    assert helped.returncode == 0
    assert "search engine (" + ", ".join(SEARCH_ENGINES) + ")" in " ".join(helped.stdout.split())
    config = run_cli(["config", "--json"], {**research_env, "RESEARCH_WIKIPEDIA_URL": web.wikipedia_url})
    rows = {row["name"]: row for row in json.loads(config.stdout)["settings"]}
    assert rows["wikipedia_url"]["value"] == web.wikipedia_url and rows["wikipedia_url"]["source"] == "env"
    doctor = run_cli(["doctor", "--json", "--offline"], research_env)
    payload = load_json_line(doctor.stdout)
    assert list(payload["search_engines"]) == list(SEARCH_ENGINES)
    assert payload["search_engines"]["wikipedia"] == {"wikipedia_url": "https://{lang}.wikipedia.org/w/api.php"}

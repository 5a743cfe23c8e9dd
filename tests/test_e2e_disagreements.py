"""End to end: the console script against the fake Ollama and a local web whose pages
disagree (or say the same thing in other words). The report names each planted
disagreement with both citations, and none when the pages merely paraphrase each other."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from conftest import load_json_line, research_in_process
from fixtures.web_fixture import Article, WebFixture

pytestmark = pytest.mark.e2e

DISAGREEING = [
    Article("/survey/fuji-a.html", "Mount Fuji facts", "en", [
        "Mount Fuji is 3,776 m tall and is the highest mountain in Japan.",
        "The last eruption of Mount Fuji was in 1707, and ash fell on Edo.",
    ]),
    Article("/survey/fuji-b.html", "Mount Fuji survey notes", "en", [
        "Mount Fuji is 3,778 m tall according to an old survey of the summit.",
        "The last eruption of Mount Fuji was in 1708, according to this old survey.",
    ]),
]
# Issue 21: written in another style, a pronoun for the subject on one page, an apposition on
# the other. disagreements.json had "items": [] and the report stated 3,778 m as supported.
OTHER_STYLE = [
    Article("/style/fuji-volcano.html", "Mount Fuji", "en", [
        "Mount Fuji is an active stratovolcano on the island of Honshu.",
        "It rises to 3,776 metres, the highest peak in Japan.",
    ]),
    Article("/style/japan-mountains.html", "Japan's great mountains", "en", [
        "Mount Fuji, Japan's tallest mountain, stands 3,778 metres above sea level.",
        "Climbers usually start from the fifth station in July or August.",
    ]),
]
NOBEL = [
    Article("/style/esaki.html", "Leo Esaki", "en", [
        "Leo Esaki is a Japanese physicist known for the tunnel diode.",
        "He was awarded the Nobel Prize in Physics in 1973.",
    ]),
    Article("/style/physicists.html", "Physicists of Japan", "en", [
        "Leo Esaki received the Nobel Prize in 1975 for his work on electron tunnelling.",
    ]),
]
PARAPHRASING = [
    Article("/same/fuji-a.html", "Mount Fuji facts", "en", [
        "Mount Fuji is 3,776 m (12,388 ft) tall and is the highest mountain in Japan.",
        "Mount Fuji is about 100 km south-west of Tokyo.",
    ]),
    Article("/same/fuji-b.html", "Mount Fuji in numbers", "en", [
        "Mount Fuji rises about 3.8 km above sea level, the highest mountain in Japan.",
        "Mount Fuji stands 12,388 feet tall, taller than any other mountain in Japan.",
    ]),
    Article("/same/fuji-c.html", "Climbing Mount Fuji", "en", [
        "Mount Fuji is 3776 metres tall; climbers reach the summit from four trails.",
    ]),
]


@pytest.fixture
def planted_web():
    fixtures = []

    def start(articles: list[Article]) -> WebFixture:
        web = WebFixture()
        web.articles = list(articles)  # this run's pages only
        fixtures.append(web.start())
        return web

    yield start
    for web in fixtures:
        web.stop()


def _run(env: dict[str, str], web: WebFixture, question: str) -> Path:
    env = {**env, "RESEARCH_SEARXNG_URL": web.searxng_url}
    result = research_in_process([question, "--lang", "en", "--json"], env)
    assert result.returncode == 0, result.stderr
    assert "Traceback" not in result.stderr
    return Path(load_json_line(result.stdout)["session_dir"])


def _section(report: str, heading: str) -> str:
    match = re.search(rf"^## {re.escape(heading)}\n(.*?)(?=^## |\Z)", report, flags=re.MULTILINE | re.DOTALL)
    return match.group(1) if match else ""


def test_each_planted_disagreement_is_named_with_both_citations(research_env, fake_ollama, planted_web):
    web = planted_web(DISAGREEING)
    session = _run(research_env, web, "How tall is Mount Fuji and when was its last eruption?")
    found = json.loads((session / "disagreements.json").read_text("utf-8"))
    labels = {doc["url"].rsplit("/", 1)[-1]: doc["label"]
              for doc in map(json.loads, (session / "processed.jsonl").read_text("utf-8").splitlines())}
    a, b = labels["fuji-a.html"], labels["fuji-b.html"]
    topics = {item["attribute"]: item for item in found["items"]}
    assert set(topics) == {"height", "eruption"}, found
    for item in topics.values():
        assert [p["labels"] for p in item["positions"]] == sorted([[a], [b]])

    report = (session / "report.md").read_text("utf-8")
    part = _section(report, "Where the sources disagree")
    height = next(line for line in part.splitlines() if line.startswith("- **height**"))
    assert "3776 m" in height and "3778 m" in height and f"[{a}]" in height and f"[{b}]" in height
    eruption = next(line for line in part.splitlines() if "eruption (the last)" in line)
    assert "1707" in eruption and "1708" in eruption and f"[{a}]" in eruption and f"[{b}]" in eruption
    # The drafting model was told, so that it states both values instead of choosing one.
    drafts = [r for r in fake_ollama.chat_requests() if r.get("stream") and "disagree" in r["messages"][0]["content"]]
    assert drafts and "3778 m" in drafts[0]["messages"][0]["content"]
    # Each point says whether the answer gives every value: this fake model's answer does.
    draft = (session / "llm_draft.md").read_text("utf-8")
    assert all(item["stated_in_answer"] == [True, True] for item in found["items"]), draft
    assert "(the answer gives each value)" in height


def test_paraphrased_agreement_names_no_disagreement(research_env, fake_ollama, planted_web):
    web = planted_web(PARAPHRASING)
    session = _run(research_env, web, "How tall is Mount Fuji?")
    found = json.loads((session / "disagreements.json").read_text("utf-8"))
    assert found["items"] == [] and found["facts"] >= 4, found
    report = (session / "report.md").read_text("utf-8")
    assert "Where the sources disagree" not in report
    assert not any("disagree" in r["messages"][0]["content"] for r in fake_ollama.chat_requests() if r.get("stream"))


def test_pages_in_another_style_disagree_and_no_claim_is_simply_supported(research_env, fake_ollama, planted_web):
    web = planted_web(OTHER_STYLE)
    session = _run(research_env, web, "How tall is Mount Fuji?")
    found = json.loads((session / "disagreements.json").read_text("utf-8"))
    labels = {doc["url"].rsplit("/", 1)[-1]: doc["label"]
              for doc in map(json.loads, (session / "processed.jsonl").read_text("utf-8").splitlines())}
    a, b = labels["fuji-volcano.html"], labels["japan-mountains.html"]
    assert [(item["attribute"], [p["labels"] for p in item["positions"]]) for item in found["items"]] == \
        [("height", sorted([[a], [b]]))], found

    report = (session / "report.md").read_text("utf-8")
    height = next(line for line in _section(report, "Where the sources disagree").splitlines()
                  if line.startswith("- **height**"))
    assert "3776 metres" in height and "3778 metres" in height and f"[{a}]" in height and f"[{b}]" in height
    # Every answer sentence that gives 3,778 m and was verified against its one source is
    # listed as contested, with the other source's value; none stands as simply supported.
    verification = json.loads((session / "verification.json").read_text("utf-8"))
    giving_3778 = [c for c in verification["claims"] if "3,778" in c["text"] or "3778" in c["text"]]
    assert giving_3778, verification["claims"]
    checked = _section(report, "Verification")
    for claim in giving_3778:
        if claim["verdict"] == "supported" and a not in claim["citations"]:
            line = next(line for line in checked.splitlines() if line.startswith("- supported by its source, but")
                        and claim["text"][:40].replace("'", "") in line.replace("\\", "").replace("'", ""))
            assert f"3776 metres \\[{a}\\]" in line, line
    assert found.get("contested_claims") or all(c["verdict"] != "supported" or a in c["citations"] for c in giving_3778)


def test_a_prize_year_given_by_he_on_one_page_is_named(research_env, fake_ollama, planted_web):
    web = planted_web(NOBEL)
    session = _run(research_env, web, "When did Leo Esaki win the Nobel Prize?")
    found = json.loads((session / "disagreements.json").read_text("utf-8"))
    labels = {doc["url"].rsplit("/", 1)[-1]: doc["label"]
              for doc in map(json.loads, (session / "processed.jsonl").read_text("utf-8").splitlines())}
    a, b = labels["esaki.html"], labels["physicists.html"]
    assert [(item["attribute"], {tuple(p["labels"]): p["value"] for p in item["positions"]})
            for item in found["items"]] == [("award", {(a,): "1973", (b,): "1975"})], found
    part = _section((session / "report.md").read_text("utf-8"), "Where the sources disagree")
    assert "1973" in part and "1975" in part and f"[{a}]" in part and f"[{b}]" in part

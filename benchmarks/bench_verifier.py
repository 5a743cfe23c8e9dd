"""Precision and recall of the claim verifier on the local web fixture.

The ledger is the fixture's searchable articles (Japanese and English), labelled S1..Sn as
the processing node would. Drafts are built from hand-written paraphrases of sentences
those articles really contain, and errors are injected at a set rate:
- fabricated citation: the right label is replaced by one that is not in the ledger;
- changed number: the first number of the claim is altered (1707 -> 1708);
- sentence in no source: a plausible claim on the same topic that no article states,
  cited to the topical article.
Two verifiers are scored: the cheap checks alone, and the whole node with a fake model
whose judge calls every borderline claim "unsupported" (the strict end of what a model
could do). Run: ``.venv/bin/python benchmarks/bench_verifier.py [--quick]``.
"""

from __future__ import annotations

import asyncio
import json
import random
import re
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))  # for tests.fixtures

from research.modules.text.claims import split_claims  # noqa: E402
from research.modules.text.evidence import EvidenceIndex, assess_claim  # noqa: E402
from research.modules.core.settings import Settings  # noqa: E402
from research.workflow.dependencies import WorkflowDependencies  # noqa: E402
from research.nodes.verification import verify_claims  # noqa: E402
from research.state.agent_state import state_from_json  # noqa: E402
from research.workflow.verification_prompts import FollowUpPlan, JudgeBatch, JudgeVerdict  # noqa: E402
from tests.fixtures import web_fixture as fixture  # noqa: E402
from tests.fixtures.fake_model import Call, FakeModel  # noqa: E402
from tests.fixtures.memory_history import MemoryHistory  # noqa: E402

ARTICLES = [fixture.FUJI_EN, fixture.FUJI_JA, fixture.LANGGRAPH_EN, fixture.LANGGRAPH_JA,
            fixture.FUJI_PDF_JA, fixture.FUJI_SJIS, fixture.FUJI_EUCJP, fixture.LANGGRAPH_PDF_EN]
LABELS = {article.path: f"S{i + 1}" for i, article in enumerate(ARTICLES)}

# (article, paraphrase of something it says)
TRUE_CLAIMS = [
    (fixture.FUJI_EN, "Mount Fuji is Japan's highest mountain."),
    (fixture.FUJI_EN, "Mount Fuji stands 3,776 m tall."),
    (fixture.FUJI_EN, "Mount Fuji is an active stratovolcano located on Honshu, roughly 100 km south-west of Tokyo."),
    (fixture.FUJI_EN, "The Hōei eruption, the last eruption of Mount Fuji, began on 16 December 1707."),
    (fixture.FUJI_EN, "Ash from the 1707 Hōei eruption reached Edo, the city now called Tokyo."),
    (fixture.FUJI_EN, "In 2013 Mount Fuji was added to the UNESCO World Heritage List as a cultural site."),
    (fixture.LANGGRAPH_EN, "LangGraph uses checkpointers to persist the state of a graph."),
    (fixture.LANGGRAPH_EN, "A checkpoint is written after every super-step of the graph."),
    (fixture.LANGGRAPH_EN, "Every checkpoint belongs to exactly one thread, which the thread_id identifies."),
    (fixture.LANGGRAPH_EN, "SqliteSaver stores checkpoints in a SQLite database file."),
    (fixture.LANGGRAPH_EN, "A graph with 3 nodes that runs to completion writes 4 checkpoints."),
    (fixture.LANGGRAPH_EN, "A failed run can resume from the last successful super-step."),
    (fixture.LANGGRAPH_PDF_EN, "PostgresSaver stores checkpoints in PostgreSQL."),
    (fixture.FUJI_JA, "富士山は日本で最も高い山である。"),
    (fixture.FUJI_JA, "富士山の標高は3776メートルである。"),
    (fixture.FUJI_JA, "富士山は静岡県と山梨県にまたがる活火山である。"),
    (fixture.FUJI_JA, "富士山が最後に噴火したのは1707年の宝永噴火である。"),
    (fixture.FUJI_JA, "宝永噴火では現在の東京である江戸にも火山灰が降った。"),
    (fixture.FUJI_JA, "富士山は2013年に世界文化遺産として登録された。"),
    (fixture.LANGGRAPH_JA, "LangGraphはチェックポインターでグラフの状態を保存する。"),
    (fixture.LANGGRAPH_JA, "チェックポイントはスーパーステップごとに保存される。"),
    (fixture.LANGGRAPH_JA, "各チェックポイントはちょうど1つのスレッドに属し、thread_idがそのスレッドを識別する。"),
    (fixture.LANGGRAPH_JA, "InMemorySaverはチェックポイントをメモリ上にのみ保持する。"),
    (fixture.LANGGRAPH_JA, "3つのノードを持つグラフを最後まで実行すると、合計4つのチェックポイントが書き込まれる。"),
    (fixture.FUJI_PDF_JA, "宝永噴火は約16日間続いた。"),
    (fixture.FUJI_SJIS, "富士山の登山シーズンは毎年7月上旬から9月上旬までである。"),
    (fixture.FUJI_SJIS, "吉田ルートは富士山で最も利用者の多い登山道である。"),
    (fixture.FUJI_EUCJP, "864年の貞観噴火で青木ヶ原の溶岩流が生まれた。"),
]

# Plausible on the same topics, stated by no article of the fixture.
NO_SOURCE = {
    ("en", "fuji"): [
        "Mount Fuji attracts about 300,000 climbers every summer.",
        "The summit of Mount Fuji has a post office that opens in July.",
        "The crater of Mount Fuji is about 780 m wide.",
        "Mount Fuji became part of a national park in 1936.",
    ],
    ("en", "langgraph"): [
        "LangGraph compresses checkpoints with zstd before writing them.",
        "LangGraph deletes old checkpoints automatically after 30 days.",
        "Checkpoints can be shared between two threads at once.",
    ],
    ("ja", "fuji"): [
        "富士山には毎年約30万人が登山する。",
        "富士山の山頂には夏季に郵便局が開設される。",
        "富士山の火口の直径は約780メートルである。",
        "富士山は1936年に国立公園に指定された。",
    ],
    ("ja", "langgraph"): [
        "LangGraphはチェックポイントを自動的に暗号化して保存する。",
        "古いチェックポイントは30日後に自動で削除される。",
        "1つのチェックポイントを2つのスレッドで共有できる。",
    ],
}


def _topic(article) -> str:
    return "langgraph" if "langgraph" in article.path else "fuji"


def ledger() -> list[dict[str, Any]]:
    return [
        {
            "label": LABELS[a.path], "url": "http://127.0.0.1" + a.path, "canonical_url": "http://127.0.0.1" + a.path,
            "title": a.title, "language": a.language, "status": "ok", "suspicious": False,
            "markdown": f"# {a.title}\n\n" + "\n\n".join(a.paragraphs), "snippets": [], "key_facts": [],
        }
        for a in ARTICLES
    ]


def _cite(sentence: str, label: str, language: str) -> str:
    stop = sentence[-1]
    return sentence[:-1] + (f"[{label}]" if language == "ja" else f" [{label}]") + stop


def _change_number(sentence: str, rng: random.Random) -> str:
    match = re.search(r"\d[\d,]*", sentence)
    digits = match.group(0).replace(",", "")
    changed = str(int(digits) + rng.choice([1, 2, 10, 100]))
    return sentence[: match.start()] + changed + sentence[match.end() :]


def make_draft(language: str, size: int, rate: float, rng: random.Random, fake_label: list[int]) -> tuple[str, list[str]]:
    """A draft and the truth for each of its claims: true | fabricated | unsupported."""
    pool = [(a, s) for a, s in TRUE_CLAIMS if a.language == language]
    lines, truth = [], []
    for article, sentence in rng.sample(pool, min(size, len(pool))):
        label = LABELS[article.path]
        kind = "true"
        if rng.random() < rate:
            kinds = ["fabricated", "no_source"] + (["changed_number"] if re.search(r"\d", sentence) else [])
            kind = rng.choice(kinds)
        if kind == "fabricated":
            fake_label[0] += 1
            label = f"S{fake_label[0]}"
        elif kind == "changed_number":
            sentence = _change_number(sentence, rng)
        elif kind == "no_source":
            sentence = rng.choice(NO_SOURCE[(language, _topic(article))])
        lines.append(_cite(sentence, label, language))
        truth.append({"true": "true", "fabricated": "fabricated"}.get(kind, "unsupported"))
    heading = "## 結論" if language == "ja" else "## Findings"
    return heading + "\n" + "\n".join(lines) + "\n", truth


def _precision_recall(predicted: list[bool], actual: list[bool]) -> dict[str, float | int]:
    tp = sum(p and a for p, a in zip(predicted, actual))
    fp = sum(p and not a for p, a in zip(predicted, actual))
    fn = sum(a and not p for p, a in zip(predicted, actual))
    return {
        "precision": round(tp / (tp + fp), 3) if tp + fp else 1.0,
        "recall": round(tp / (tp + fn), 3) if tp + fn else 1.0,
        "true_positives": tp, "false_positives": fp, "false_negatives": fn,
    }


def score(verdicts: list[str], truth: list[str]) -> dict[str, Any]:
    counts = {v: verdicts.count(v) for v in ("supported", "partly_supported", "unsupported", "citation_invalid")}
    true_claims = [v for v, t in zip(verdicts, truth) if t == "true"]
    return {
        "fabricated_citation": _precision_recall([v == "citation_invalid" for v in verdicts], [t == "fabricated" for t in truth]),
        "unsupported_claim": _precision_recall([v == "unsupported" for v in verdicts], [t == "unsupported" for t in truth]),
        "true_claims_supported": round(true_claims.count("supported") / len(true_claims), 3) if true_claims else None,
        "true_claims_flagged": round(sum(v in ("unsupported", "citation_invalid") for v in true_claims) / len(true_claims), 3) if true_claims else None,
        "verdicts": counts,
    }


def strict_judge() -> FakeModel:
    """A fake model: every borderline claim it is shown is "unsupported"."""

    def unsupported(call: Call) -> JudgeBatch:
        ids = re.findall(r"^(?:Claim|主張) (\d+) ", call.prompt, flags=re.MULTILINE)
        return JudgeBatch(verdicts=[JudgeVerdict(id=int(i), verdict="unsupported") for i in ids])

    return FakeModel(judge=unsupported, follow_up=FollowUpPlan(queries=[]))


def run(quick: bool) -> dict[str, Any]:
    drafts = 20 if quick else 200
    rate, size = 0.3, 8
    rng = random.Random(20250101)
    documents = ledger()
    index = EvidenceIndex(documents)
    deps = WorkflowDependencies(
        settings=Settings(max_verification_loops=0), model=strict_judge(), web_search=None, parser=None,
        history=MemoryHistory())
    fake_label = [90]
    truth: list[str] = []
    lexical: list[str] = []
    node: list[str] = []
    lexical_seconds = node_seconds = 0.0
    judged = 0
    for n in range(drafts):
        language = "ja" if n % 2 else "en"
        draft, draft_truth = make_draft(language, size, rate, rng, fake_label)
        start = time.perf_counter()
        claims = split_claims(draft)
        assessments = [assess_claim(c, index) for c in claims]
        lexical_seconds += time.perf_counter() - start
        assert len(claims) == len(draft_truth), draft  # one claim per generated sentence
        start = time.perf_counter()
        state = state_from_json({"draft": draft, "documents": documents, "language": language,
                                 "session_id": "20250101_000000_bench0", "search_rounds": 1})
        verdicts = asyncio.run(verify_claims(state, deps)).update["verification"].claims
        node_seconds += time.perf_counter() - start
        truth += draft_truth
        lexical += [a.verdict for a in assessments]
        node += [v.verdict for v in verdicts]
        judged += sum(v.method == "model" for v in verdicts)
    return {
        "drafts": drafts,
        "claims": len(truth),
        "error_rate": rate,
        "injected": {kind: truth.count(kind) for kind in ("true", "fabricated", "unsupported")},
        "cheap_checks": score(lexical, truth),
        "node_with_strict_judge": {**score(node, truth), "claims_sent_to_judge": judged},
        "ms_per_claim_cheap_checks": round(1000 * lexical_seconds / len(truth), 3),
        "ms_per_draft_node": round(1000 * node_seconds / drafts, 2),
    }


if __name__ == "__main__":
    print(json.dumps(run(quick="--quick" in sys.argv), ensure_ascii=False, indent=2))

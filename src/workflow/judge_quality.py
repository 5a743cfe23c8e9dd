"""Know the judge before trusting it: the judge a run is about to use, measured on a labelled set.

On a laptop the judge is usually the small drafting model checking itself, and a model that
says "supported" to everything turns every claim the quick checks left open into a checked
fact (Qwen2.5-Coder-1.5B: 97% of RAGTruth's hallucinated claims). So before its verdicts count,
the judge is asked about ``CHECK_SET``: claims with known answers against short passages,
written for this project in both languages (paraphrases that hold, and claims whose passage
denies them, exchanges a term, changes a value or a status, or says nothing of what they
add). Its balanced accuracy (the mean of its recall on supported and on unsupported claims,
so a judge that always says one thing scores 50%) decides:

- at or above ``TRUSTED_AT`` its verdicts count, and the report says how it measured;
- below, it decides nothing: the claims it would have judged stay "not checked", the answer
  says so in one line, and doctor names the judge that would do better.

Measured once per (Ollama host, judge model and its digest, protocol, this set) and kept in the user's cache
(``$XDG_CACHE_HOME/research/judge_quality.json``); `research doctor` measures again. The
measurement is the judge's own reply, without the program's confirmation of quoted sentences
(nodes/verification.py), so it says what the model can tell apart.

Why 75%: a judge is sent the claims the quick checks could not decide, which in RAGTruth are
about as often false as true. At 75% balanced accuracy one decision in four is wrong; below
it, a "supported" from the judge is closer to a coin than to a check. Bespoke-MiniCheck-7B
measures 84% on RAGTruth by its authors' leaderboard.
"""

from __future__ import annotations

import hashlib
import json
import logging
import os
import time
from dataclasses import dataclass
from pathlib import Path
from collections.abc import Awaitable, Callable
from typing import Any

from research.modules.core.files import atomic_write
from research.modules.core.settings import Settings
from research.modules.llm.judge import Judge
from research.modules.text.claims import Claim
from research.modules.text.evidence import Assessment, Passage, features
from research.state.models import JudgeQuality, Language, RunError

log = logging.getLogger(__name__)

TRUSTED_AT = 0.75
# Bumped whenever the judge prompt or the way a reply is read changes: a figure measured with
# another protocol says nothing of this one.
PROTOCOL_VERSION = 2


@dataclass(frozen=True)
class CheckItem:
    language: Language
    passage: str
    claim: str
    supported: bool
    kind: str  # paraphrase | value | negation | exchanged_term | status | unstated


def _items() -> tuple[CheckItem, ...]:
    en: Language = "en"
    ja: Language = "ja"
    fuji_en = "The Hoei eruption of Mount Fuji began on 16 December 1707 and ended on 1 January 1708."
    sqlite_en = "SQLite stores the whole database in one ordinary file on disk and needs no separate server process."
    python_en = "In Python 3.14 the free-threaded build is officially supported, but it is still not the default build."
    curie_en = "Marie Curie won the Nobel Prize in Physics in 1903 together with Pierre Curie and Henri Becquerel."
    library_en = "The city library opens at 9 a.m. on weekdays and closes at 8 p.m.; it is closed on Sundays."
    bridge_en = "The Vale bridge was designed by the engineer Anna Berg and opened to traffic in 1998 after four years of work."
    fuji_ja = "富士山の宝永噴火は1707年12月16日に始まり、1708年1月1日に終わった。"
    library_ja = "市立図書館は平日の午前9時から午後8時まで開いており、日曜日は休館である。"
    python_ja = "Python 3.14ではフリースレッド版が正式にサポートされたが、まだ既定のビルドではない。"
    curie_ja = "キュリー夫人は1903年にピエール・キュリーらとともにノーベル物理学賞を受賞した。"
    sqlite_ja = "SQLiteはデータベース全体を一つのファイルに保存し、別のサーバープロセスを必要としない。"
    bridge_ja = "その橋は技術者の佐藤花子が設計し、4年間の工事を経て1998年に開通した。"
    return (
        CheckItem(en, fuji_en, "Mount Fuji's Hoei eruption started in December 1707.", True, "paraphrase"),
        CheckItem(en, fuji_en, "Mount Fuji's Hoei eruption started in December 1708.", False, "value"),
        CheckItem(en, sqlite_en, "SQLite keeps a database in a single file and runs without a server process.", True,
                  "paraphrase"),
        CheckItem(en, sqlite_en, "SQLite needs a separate server process to store its database.", False, "negation"),
        CheckItem(en, python_en, "Python 3.14 officially supports the free-threaded build.", True, "paraphrase"),
        CheckItem(en, python_en, "In Python 3.14 the free-threaded build is the default build.", False, "status"),
        CheckItem(en, curie_en, "Marie Curie shared the 1903 Nobel Prize in Physics.", True, "paraphrase"),
        CheckItem(en, curie_en, "Marie Curie won the 1903 Nobel Prize in Chemistry.", False, "exchanged_term"),
        CheckItem(en, library_en, "The city library does not open on Sundays.", True, "paraphrase"),
        CheckItem(en, library_en, "The city library lends laptops to members for two weeks.", False, "unstated"),
        CheckItem(en, bridge_en, "Building the Vale bridge took four years.", True, "paraphrase"),
        CheckItem(en, bridge_en, "Anna Berg also designed the harbour tunnel, finished in 1998.", False, "unstated"),
        CheckItem(ja, fuji_ja, "宝永噴火は1707年に始まった。", True, "paraphrase"),
        CheckItem(ja, fuji_ja, "宝永噴火は1709年に終わった。", False, "value"),
        CheckItem(ja, library_ja, "市立図書館は日曜日に休館する。", True, "paraphrase"),
        CheckItem(ja, library_ja, "市立図書館は日曜日も開館している。", False, "negation"),
        CheckItem(ja, python_ja, "Python 3.14ではフリースレッド版が正式にサポートされている。", True, "paraphrase"),
        CheckItem(ja, python_ja, "Python 3.14ではフリースレッド版が既定のビルドになった。", False, "status"),
        CheckItem(ja, curie_ja, "キュリー夫人は1903年にノーベル物理学賞を受けた。", True, "paraphrase"),
        CheckItem(ja, curie_ja, "キュリー夫人は1903年にノーベル化学賞を受賞した。", False, "exchanged_term"),
        CheckItem(ja, sqlite_ja, "SQLiteは別のサーバープロセスなしで動作する。", True, "paraphrase"),
        CheckItem(ja, sqlite_ja, "SQLiteは複数の利用者の同時書き込みを高速に処理できる。", False, "unstated"),
        CheckItem(ja, bridge_ja, "その橋は1998年に開通した。", True, "paraphrase"),
        CheckItem(ja, bridge_ja, "佐藤花子はその橋の完成後に港のトンネルも設計した。", False, "unstated"),
    )


CHECK_SET: tuple[CheckItem, ...] = _items()


def set_digest() -> str:
    """Which check set a kept figure was measured on."""
    raw = json.dumps([[i.language, i.passage, i.claim, i.supported] for i in CHECK_SET], ensure_ascii=False)
    return hashlib.sha256(raw.encode("utf-8")).hexdigest()[:12]


def _cache_file() -> Path:
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "research" / "judge_quality.json"


def _key(judge: Judge, settings: Settings, model: Any) -> str:
    """A kept figure holds for this server, these weights (a model pulled anew has another
    digest), this protocol and this check set."""
    host = settings.ollama_host or ""
    digests = getattr(model, "digests", {}) or {}
    digest = digests.get(judge.model) or next((d for name, d in digests.items() if name.split(":")[0] == judge.model), "")
    return "|".join([host, judge.model, digest, judge.protocol, judge.drafting_model, str(judge.japanese),
                     str(PROTOCOL_VERSION), set_digest()])


def kept_quality(judge: Judge, settings: Settings, model: Any) -> JudgeQuality | None:
    """The figure measured earlier for this judge on this server, if any."""
    try:
        kept = json.loads(_cache_file().read_text("utf-8"))
        return JudgeQuality.model_validate(kept[_key(judge, settings, model)])
    except (OSError, ValueError, KeyError, TypeError):
        return None


def _keep(judge: Judge, settings: Settings, model: Any, quality: JudgeQuality) -> None:
    path = _cache_file()
    try:
        kept = json.loads(path.read_text("utf-8")) if path.exists() else {}
        if not isinstance(kept, dict):
            kept = {}
    except (OSError, ValueError):
        kept = {}
    kept[_key(judge, settings, model)] = quality.model_dump(mode="json")
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        atomic_write(path, json.dumps(kept, ensure_ascii=False, indent=1).encode("utf-8"))
    except OSError as exc:  # a read-only cache costs the next run a measurement, nothing else
        log.warning("could not keep the judge's measured accuracy in %s: %s", path, exc)


def _claims_and_assessments(positions: list[int]) -> tuple[list[Claim], list[Assessment]]:
    """The items at ``positions`` as claims to judge (numbered from 0, as a run's are)."""
    claims, assessments = [], []
    for number, item in enumerate(CHECK_SET[n] for n in positions):
        claims.append(Claim(index=number, text=item.claim, plain=item.claim, section="", citations=["S1"],
                            start=0, end=len(item.claim)))
        passage = Passage("S1", item.passage, features(item.passage))
        assessments.append(Assessment("partly_supported", 0.5, 0.5, borderline=True, valid_citations=["S1"],
                                      candidates=[passage], outcome="uncertain"))
    return claims, assessments


# The verifier's judging step (nodes/verification.judge_uncertain): claims, their assessments
# (decided in place), methods, language, model, settings, errors; judge= and confirm= by name.
JudgeClaims = Callable[..., Awaitable[Any]]

# The items are asked in stages of this many (half of them true), English and Japanese in turn:
# a judge that cannot reach ``TRUSTED_AT`` even if it got every item still to come right is not
# asked the rest. With a small model on a busy laptop each stage takes minutes.
_STAGE = 8


def _asking_order() -> list[int]:
    """The items' positions, a labelled pair (a true claim and a false one on one passage) of
    English, then one of Japanese, and so on."""
    pairs = [(n, n + 1) for n in range(0, len(CHECK_SET), 2)]
    english = [pair for pair in pairs if CHECK_SET[pair[0]].language == "en"]
    japanese = [pair for pair in pairs if CHECK_SET[pair[0]].language != "en"]
    order: list[int] = []
    for index in range(max(len(english), len(japanese))):
        for group in (english, japanese):
            if index < len(group):
                order.extend(group[index])
    return order


def _best_reachable(said: dict[int, bool]) -> float:
    """The balanced accuracy the judge would reach if every item not yet asked came out right."""
    true = [n for n, item in enumerate(CHECK_SET) if item.supported]
    false = [n for n, item in enumerate(CHECK_SET) if not item.supported]
    wrong_true = sum(1 for n in true if n in said and not said[n])
    wrong_false = sum(1 for n in false if n in said and said[n])
    return ((len(true) - wrong_true) / len(true) + (len(false) - wrong_false) / len(false)) / 2


async def measure(judge: Judge, model: Any, settings: Settings, judge_claims: JudgeClaims) -> JudgeQuality:
    """Ask ``judge`` about the items of ``CHECK_SET`` through the run's own judge calls
    (``judge_claims``: the verifier's ``judge_uncertain``, handed in so that this module needs
    nothing of the step that uses it), in stages, stopping once it can no longer reach
    ``TRUSTED_AT``."""

    errors: list[RunError] = []
    started = time.perf_counter()
    said: dict[int, bool] = {}  # position -> called supported
    answered = 0
    order = _asking_order()
    for stage in range(0, len(order), _STAGE):
        asked = order[stage:stage + _STAGE]
        claims, assessments = _claims_and_assessments(asked)
        await judge_claims(claims, assessments, ["lexical"] * len(asked), "en", model, settings, errors,
                           judge=judge, confirm=False)
        said.update((n, assessment.outcome == "supported") for n, assessment in zip(asked, assessments))
        answered += sum(1 for assessment in assessments if assessment.reason == "judge")
        if _best_reachable(said) < TRUSTED_AT:
            break
    seconds = time.perf_counter() - started
    positives = [said[n] for n in said if CHECK_SET[n].supported]
    negatives = [not said[n] for n in said if not CHECK_SET[n].supported]
    recall_supported = sum(positives) / len(positives) if positives else 0.0
    recall_unsupported = sum(negatives) / len(negatives) if negatives else 0.0
    balanced = (recall_supported + recall_unsupported) / 2
    wrong = [f"{CHECK_SET[n].kind}:{CHECK_SET[n].language}" for n in sorted(said) if said[n] != CHECK_SET[n].supported]
    return JudgeQuality(
        model=judge.model, protocol=judge.protocol, balanced_accuracy=round(balanced, 3),
        supported_recall=round(recall_supported, 3), unsupported_recall=round(recall_unsupported, 3),
        items=len(said), answered=answered, trusted=balanced >= TRUSTED_AT and len(said) == len(CHECK_SET),
        threshold=TRUSTED_AT, seconds=round(seconds, 1), missed=wrong, measured_at=time.strftime("%Y-%m-%dT%H:%M:%S"),
        check_set=set_digest(), failed="; ".join(e.message for e in errors)[:300],
    )


async def quality_for(judge: Judge, model: Any, settings: Settings, judge_claims: JudgeClaims, *,
                      again: bool = False) -> JudgeQuality:
    """The judge's measured quality: kept from an earlier measurement unless ``again``, else
    measured now and kept. A measurement whose calls failed is not kept (the next run asks again)."""
    if not again:
        kept = kept_quality(judge, settings, model)
        if kept is not None:
            return kept
    quality = await measure(judge, model, settings, judge_claims)
    if not quality.failed:
        _keep(judge, settings, model, quality)
    return quality

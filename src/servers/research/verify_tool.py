"""The ``verify`` tool: an answer checked sentence by sentence against given sources.

Sources are labelled S1, S2, … in the order given, so an answer's ``[S1]`` points at the
first. A source is text, or an http(s) URL that is fetched by the web-search server and
parsed in the sandbox, exactly as during research. The checks, the sandboxed reading and
the model judge are the ones `research verify` uses (orchestrator/answer_check.py), so a
sentence gets the same verdict from this tool as from the command.
"""

from __future__ import annotations

import re
from typing import Any

from pydantic import BaseModel, Field

from research.modules.core.settings import Settings
from research.orchestrator.answer_check import (
    OUTCOMES,
    SourceSpec,
    check_draft,
    claim_record,
    judge_uncertain_claims,
    read_sources,
)

URL = re.compile(r"^https?://\S+$")


class SentenceVerdict(BaseModel):
    start: int = Field(description="offset of the sentence in the answer")
    end: int
    text: str
    verdict: str = Field(description="supported | unsupported | uncertain")
    citations: list[str] = Field(default_factory=list)
    evidence: str | None = None
    source: str | None = Field(default=None, description="label of the source the evidence is from")
    reason: str = ""


class VerifiedSource(BaseModel):
    label: str
    url: str = ""
    status: str = "ok"  # "ok" | "failed"
    error: str | None = None
    characters: int = 0


class VerifyOutput(BaseModel):
    verdicts: list[SentenceVerdict]
    summary: dict[str, Any]
    sources: list[VerifiedSource]
    judged: bool = Field(description="whether every uncertain sentence went to the model judge")
    judge_note: str = ""  # why the judge could not decide them all


def is_url(source: str) -> bool:
    return bool(URL.match(source.strip()))


async def verify_answer(answer: str, sources: list[str], settings: Settings, *, judge: bool, lang: str,
                        servers: Any = None) -> VerifyOutput:
    """``servers``: the research server's ``ServerPool``, kept between calls (None: this call's own)."""
    specs = [SourceSpec("url" if is_url(source.strip()) else "text", source.strip()) for source in sources]
    documents = await read_sources(specs, settings, servers=servers)
    claims, assessments = check_draft(answer, documents)
    judged, note = True, ""
    if judge:
        judged, note = await judge_uncertain_claims(claims, assessments, lang, settings)
    records = [claim_record(c, a, checked=judged) for c, a in zip(claims, assessments)]
    verdicts = [SentenceVerdict(**record) for record in records]
    counts = {name: sum(1 for v in verdicts if v.verdict == name) for name in OUTCOMES}
    listed = [VerifiedSource(label=d["label"], url=d["url"], status=d["status"], error=d.get("error"),
                             characters=len(d.get("markdown", ""))) for d in documents]
    return VerifyOutput(verdicts=verdicts, summary={"claims": len(verdicts), **counts}, sources=listed,
                        judged=judged, judge_note=note)

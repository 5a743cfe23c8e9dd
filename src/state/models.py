"""Pydantic models for the data that flows through the graph.

State itself holds plain dicts (``model.model_dump(mode="json")``) so it stays
JSON-serialisable for the checkpointer; these models validate at the edges.
"""

from __future__ import annotations

from enum import StrEnum
from typing import Any, Literal

from pydantic import BaseModel, Field

Language = Literal["ja", "en"]
VerdictLabel = Literal["supported", "partly_supported", "unsupported", "citation_invalid"]


class SearchHit(BaseModel):
    """One search result, possibly with its page already fetched into the session cache."""

    url: str
    canonical_url: str = ""
    final_url: str | None = None  # where redirects ended: relative links in the page resolve against it
    title: str = ""
    snippet: str = ""
    engine: str = ""
    query: str = ""
    language: str = ""  # language of the query that found it / of the page when known
    # Set when the web-search server fetched the page: raw bytes live in sources/.
    cache_path: str | None = None
    media_type: str | None = None
    content: str = ""  # extracted text, when the server returned it
    fetch_error: str | None = None
    retrieved_at: str | None = None


class ParsedDocument(BaseModel):
    """What the parser returns for one document, whatever its format."""

    markdown: str = ""
    title: str = ""
    language: str = ""
    snippets: list[str] = Field(default_factory=list)
    key_facts: list[str] = Field(default_factory=list)
    tables: list[list[list[str]]] = Field(default_factory=list)
    stats: dict[str, float | int | str] = Field(default_factory=dict)


class Document(BaseModel):
    """A source in the session ledger: a parsed document with a stable label ``S#``."""

    label: str  # "S1", "S2", ... stable for the whole session
    url: str
    canonical_url: str
    title: str = ""
    language: str = ""
    engine: str = ""
    media_type: str | None = None
    retrieved_at: str | None = None
    status: Literal["ok", "failed"] = "ok"
    error: str | None = None
    suspicious: bool = False  # prompt-injection text was found and removed
    # official | academic | reference | news | company | unknown | blog | forum, from the
    # address and title (modules/text/source_kind.py); None in ledgers written before it.
    kind: str | None = None
    markdown: str = ""
    snippets: list[str] = Field(default_factory=list)
    key_facts: list[str] = Field(default_factory=list)
    tables: list[list[list[str]]] = Field(default_factory=list)


class ClaimVerdict(BaseModel):
    """The verifier's decision on one sentence of the draft."""

    index: int
    text: str
    section: str = ""
    citations: list[str] = Field(default_factory=list)
    invalid_citations: list[str] = Field(default_factory=list)
    verdict: VerdictLabel
    confidence: float = 0.0
    evidence: str = ""
    evidence_label: str | None = None
    method: Literal["lexical", "model", "none"] = "lexical"


class ProblemKind(StrEnum):
    """What kind of failure a ``RunError`` or a run problem (``state/run_problems.py``) is.

    A StrEnum: state, meta.json and ``--json`` keep the plain strings.
    """

    SEARCH = "search"  # an engine or the server failed one query
    SEARCH_TOOL = "search_tool"  # a server from RESEARCH_MCP_CONFIG without the search tool
    SEARCH_FALLBACK = "search_fallback"  # an engine failed and another answered instead
    READ = "read"  # a document could not be read
    CONTEXT = "context"  # the evidence was cut to fit the model's context
    LANGUAGE = "language"  # sentences left in the wrong language
    JUDGE = "judge"  # the judge model is missing or misread (the report notes it)
    UNJUDGED = "unjudged"  # a judge call failed: its claims stay "not checked" in the table
    FOLLOW_UP = "follow_up"  # no follow-up queries could be planned
    SAVE = "save"  # a session file could not be written
    BUDGET = "budget"  # a budget stopped the run (a problem only, from state)
    SANDBOX = "sandbox"  # pages were parsed with less isolation (a problem only, from the runner)


class RunError(BaseModel):
    """A failure that cost one source, document or claim; the run went on."""

    node: str
    kind: ProblemKind
    message: str
    target: str = ""  # what it concerns, where one thing: a URL, a query, a file name

    def as_state(self) -> dict[str, Any]:
        """The plain dict the graph's state keeps (checkpoints hold no enum objects)."""
        return self.model_dump(mode="json")

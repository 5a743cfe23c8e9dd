"""processing node: parse each new search hit in the sandboxed parser, build the ledger.

Each hit is parsed exactly once per run, from the raw bytes the web-search server cached
(it does not extract them itself). How many parses run at once is the parser client's one
limit (``modules/clients/sandbox.parse_concurrency``), not a second one here."""

from __future__ import annotations

import asyncio
import json
from typing import Any

from research.modules.text.injection import screen_injection, screen_title
from research.modules.text.source_kind import source_kind
from research.state import AgentState, Document, ParsedDocument, ProblemKind, RunError
from research.nodes.dependencies import DocumentFailed, WorkflowDependencies
from research.state.progress_events import Message


async def process_documents(state: AgentState, deps: WorkflowDependencies) -> dict[str, Any]:
    """Parse hits not yet in the ledger; each gets the next stable label S#.

    A document that cannot be read is kept in the ledger as failed (so the report
    can say which), and costs nothing else.
    """
    earlier = list(state.get("documents") or [])
    known = {doc["canonical_url"] for doc in earlier}
    pending = [hit for hit in state.get("search_results", []) if hit["canonical_url"] not in known]
    errors: list[dict[str, Any]] = []  # this step's only: `errors` is a reducer
    async def parse(hit: dict[str, Any]) -> ParsedDocument | str:
        if not hit.get("cache_path") and not hit.get("content"):
            return hit.get("fetch_error") or "not fetched"
        try:
            return await deps.parser.parse(
                path=hit.get("cache_path"),
                text=None if hit.get("cache_path") else hit.get("content"),
                media_type=hit.get("media_type") or "text/markdown",
                url=hit.get("final_url") or hit["url"],
            )
        except DocumentFailed as exc:
            return str(exc) or "could not be parsed"

    outcomes = await asyncio.gather(*(parse(hit) for hit in pending))
    added: list[dict[str, Any]] = []  # this step's entries, read or failed; the ledger's reducer appends them
    for hit, outcome in zip(pending, outcomes):
        label = f"S{len(earlier) + len(added) + 1}"
        search_title, flagged = screen_title(hit.get("title") or "")  # the engine's title, until the page's
        doc = Document(
            label=label,
            url=hit["url"],
            canonical_url=hit["canonical_url"],
            title=search_title or hit["url"],
            suspicious=bool(flagged),
            language=hit.get("language", ""),
            engine=hit.get("engine", ""),
            media_type=hit.get("media_type"),
            retrieved_at=hit.get("retrieved_at"),
        )
        if isinstance(outcome, str) or not outcome.markdown.strip():
            doc.status = "failed"
            doc.error = outcome if isinstance(outcome, str) else "no readable text"
            errors.append(RunError(node="processing", kind=ProblemKind.READ, message=doc.error, target=hit["url"]).as_state())
        else:
            _fill(doc, outcome)
        # Graded from the address the page was really read from (after redirects) and
        # the page's own title when it had one.
        doc.kind = source_kind(hit.get("final_url") or hit["url"], doc.title)
        added.append(doc.model_dump(mode="json"))

    documents = earlier + added
    ok = sum(1 for d in documents if d["status"] == "ok")
    deps.history.write_text(
        state["session_id"],
        "processed.jsonl",
        "".join(json.dumps(d, ensure_ascii=False) + "\n" for d in documents),
    )
    deps.progress(Message("progress.documents_read", {"ok": ok, "failed": len(documents) - ok}))
    # Why, as it happens (one line per distinct reason), not only in report.md.
    reasons: dict[str, int] = {}
    for error in errors:
        reasons[error["message"]] = reasons.get(error["message"], 0) + 1
    for reason, count in list(reasons.items())[:3]:
        deps.progress(Message("terminal.read_failed", {"count": count, "total": len(documents),
                                                       "reason": reason}))
    return {"documents": added, "errors": errors}


def _fill(doc: Document, parsed: ParsedDocument) -> None:
    """Copy parsed content into the ledger entry, with injected instructions removed."""
    removed: list[str] = []

    def screened(text: str) -> str:
        kept, dropped = screen_injection(text)
        removed.extend(dropped)
        return kept

    doc.markdown = screened(parsed.markdown)
    doc.snippets = [s for s in map(screened, parsed.snippets) if s.strip()]
    doc.key_facts = [s for s in map(screened, parsed.key_facts) if s.strip()]
    # Table cells are evidence passages too (the verifier indexes rows), so they are
    # screened like the text: an instruction hidden in a cell must never support a claim.
    doc.tables = [[[screened(cell) for cell in row] for row in table] for table in parsed.tables]
    # The title (a PDF's first line when it has no other) is in every prompt's source list.
    # With the page's text beside it, a title that asks for something the page is not about goes too.
    title, dropped = screen_title(parsed.title or doc.title, context=doc.markdown)
    removed.extend(dropped)
    doc.suspicious = doc.suspicious or bool(removed)
    doc.title = title or doc.url
    doc.language = parsed.language or doc.language

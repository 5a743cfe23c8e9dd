"""What nodes are given to talk to the outside world.

Nodes are functions of ``(state, deps)``; the orchestrator builds one
``WorkflowDependencies`` per run and binds it. Tests pass fakes through the
same door. The protocols below are the contracts the real clients implement.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Callable, Protocol

from research.modules.core.errors import DocumentFailed, SearchUnavailable
from research.state.models import ParsedDocument, SearchHit
from research.state.progress_events import ProgressCallback

__all__ = ["DocumentFailed", "DocumentParser", "ProgressCallback", "SearchUnavailable", "WebSearch", "WorkflowDependencies"]

if TYPE_CHECKING:  # imported for types only: keeps `research --help` fast
    from research.state.session_folder import HistoryManager
    from research.modules.llm.model_manager import ModelManager
    from research.modules.core.settings import Settings


class WebSearch(Protocol):
    """Searches and fetches. Implemented by ``modules.clients.web_search_client.WebSearchClient``."""

    async def search(self, query: str, *, language: str, limit: int,
                     on_note: Callable[[str], None] | None = None) -> list[SearchHit]:
        """Search one query and return hits; where the server fetched the page, the raw
        bytes are in the session's sources/ (``cache_path``) with their ``media_type``.
        ``on_note`` hears what the server says about how it searched (an engine that
        failed and the one that answered instead). Raises ``SearchUnavailable`` when no
        engine could answer."""
        ...

    async def external_tools(self) -> tuple[str, list[str]] | None:
        """For a server from RESEARCH_MCP_CONFIG: its name and the tools it offers; None for
        our own web-search server (it always has the search tool)."""
        ...


class DocumentParser(Protocol):
    """Parses one fetched document. Implemented by ``modules.clients.parser_client.ContainerProcessor``."""

    @property
    def sandbox_name(self) -> str:
        """Which sandbox parses ("bwrap", "podman", "unshare", "none"): the report names it."""
        ...

    async def parse(
        self, *, path: str | None, text: str | None, media_type: str, url: str
    ) -> ParsedDocument:
        """Parse the bytes at ``path`` (a file in the session's sources/) or, when there
        are no bytes, the already-extracted ``text``. Raises ``DocumentFailed`` with a
        clear reason when this one document cannot be read."""
        ...


@dataclass
class WorkflowDependencies:
    settings: "Settings"
    model: "ModelManager"
    web_search: WebSearch
    parser: DocumentParser
    history: "HistoryManager"
    # Told each step's start and end, the streamed draft and lines for the user (state/progress_events.py).
    progress: ProgressCallback = field(default=lambda event: None)

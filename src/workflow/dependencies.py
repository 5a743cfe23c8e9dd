"""What nodes are given to talk to the outside world.

Nodes are functions of ``(state, deps)``; the orchestrator builds one
``WorkflowDependencies`` per run and binds it. Tests pass fakes through the
same door. The protocols below are the contracts the real clients implement.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Callable, Protocol, TypeVar, runtime_checkable

from pydantic import BaseModel

from research.modules.core.errors import DocumentFailed, SearchUnavailable
from research.modules.core.language import Language
from research.modules.llm.roles import ModelRole
from research.state.models import ParsedDocument, SearchHit
from research.state.progress_events import ProgressCallback

__all__ = ["DocumentFailed", "DocumentParser", "ModelClient", "ModelRole", "ProgressCallback", "SearchUnavailable",
           "WebSearch", "WorkflowDependencies"]

if TYPE_CHECKING:  # imported for types only: keeps `research --help` fast
    from research.state.session_folder import HistoryManager
    from research.modules.core.settings import Settings

T = TypeVar("T", bound=BaseModel)


class WebSearch(Protocol):
    """Searches and fetches. Implemented by ``modules.clients.web_search_client.WebSearchClient``."""

    async def search(self, query: str, *, language: Language, limit: int,
                     on_note: Callable[[str], None] | None = None,
                     on_progress: Callable[[int, int], None] | None = None) -> list[SearchHit]:
        """Search one query and return hits; where the server fetched the page, the raw
        bytes are in the session's sources/ (``cache_path``) with their ``media_type``.
        ``on_note`` hears what the server says about how it searched (an engine that
        failed and the one that answered instead); ``on_progress`` (files read, files in
        all) while it indexes a documents folder first. Raises ``SearchUnavailable`` when no
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


@runtime_checkable
class ModelClient(Protocol):
    """The model, as the steps use it. Implemented by ``modules.llm.model_manager.ModelManager``
    (the only code that speaks to Ollama); tests use ``tests/fixtures/fake_model.py``.

    Every call names its ``node`` (usage is counted per step) and declares its ``role``
    (``modules/llm/roles.py``): what the call is for, sent with the request.
    """

    model: str  # the model drafting this run: the fallback once it took over
    switched_from: str | None  # the main model, once the fallback took over
    usage: dict[str, dict[str, int]]  # per node: calls, tokens, model_ms, fallbacks, repairs

    @property
    def installed(self) -> set[str] | None:
        """Ollama's installed models as of ``ensure_ready()``; None before it."""
        ...

    @property
    def parallel(self) -> int:
        """Requests the server answers side by side: how many judge calls go at once."""
        ...

    async def ensure_ready(self) -> str:
        """Check the model answers and is installed; the model to use. Raises ``OllamaError``."""
        ...

    async def chat(self, messages: list[dict[str, str]], *, node: str, role: ModelRole,
                   max_tokens: int = ...) -> str:
        """A free-text reply, capped to ``max_tokens``."""
        ...

    async def stream(self, messages: list[dict[str, str]], *, node: str, role: ModelRole,
                     on_token: Callable[[str], None], max_tokens: int | None = None) -> str:
        """The answer, streamed to ``on_token`` (visible text only). Raises ``ContextOverflow``
        when the prompt filled the context window."""
        ...

    async def structured(self, messages: list[dict[str, str]], schema: type[T], *, node: str, role: ModelRole,
                         fallback: T, max_tokens: int | None = None) -> T:
        """A reply validated against ``schema``, else ``fallback``; never raises for a bad reply."""
        ...

    async def ask(self, model: str, messages: list[dict[str, Any]], *, node: str, role: ModelRole, num_ctx: int,
                  num_predict: int) -> str:
        """One plain call to another ``model`` (a checker, a guard), its reply as sent."""
        ...

    def context_budget(self, reserve_for_answer: int = 2048) -> int:
        """Tokens available for a prompt once room for the answer is kept."""
        ...

    def take_capped(self) -> list[tuple[str, int]]:
        """(node, cap) of each reply cut at its cap since the last call, once each."""
        ...


@dataclass
class WorkflowDependencies:
    settings: "Settings"
    model: ModelClient
    web_search: WebSearch
    parser: DocumentParser
    history: "HistoryManager"
    # Told each step's start and end, the streamed draft and lines for the user (state/progress_events.py).
    progress: ProgressCallback = field(default=lambda event: None)
    # Measure the judge on the check set before its verdicts count (workflow/judge_quality.py). The
    # orchestrator always does; a unit test of other behaviour may leave it off.
    measure_judge: bool = False

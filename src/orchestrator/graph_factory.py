"""The research graph for LangGraph Server and `langgraph dev` (``langgraph.json``).

The same nodes, edges and checks as the CLI (``graph.build_graph``), inside a graph with
one step before them: ``session`` makes the session folder for the thread's question, as
``research "…"`` does, so the reports land in the sessions folder of the settings. The
model client and both MCP servers are built from settings (``RESEARCH_*``, the config
file): the servers start at the first search of a run and stop when LangGraph Server is
done with the graph. Checkpoints are the server's own (its checkpointer, ``thread_id``).

Input: ``{"question": "…", "language": "auto"|"ja"|"en", "depth": "quick"|"standard"|"deep"}``
and nothing else: the ``session`` step reads the run's input as it came (the graph's input
schema is a plain mapping, so no key is dropped or passed on unseen) and refuses any other
key with one line (``graph_input``). The final state holds ``report_md``, ``report_pdf``,
``verification`` and the session's id and folder. The parser is given only this session's
own cache entries, and the nodes write only into the session that step opened, whatever
the state says. What a client writes into a thread's state around the ``session`` step
(``POST /threads/{id}/state``, a new thread's supersteps, a run's ``Command``) is held to
the same keys and checks by langgraph.json's ``http.app`` (langgraph_http.py).
"""

from __future__ import annotations

import logging
from contextlib import asynccontextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any, AsyncIterator, Awaitable, Callable, Mapping

from langgraph.graph import END, START, StateGraph

from research.modules.core.errors import DocumentFailed, UsageError
from research.modules.core.settings import Settings, check_run_settings, load_settings
from research.workflow.dependencies import WorkflowDependencies
from research.orchestrator.checkpoints import is_cached_source
from research.orchestrator.graph import build_graph
from research.orchestrator.graph_input import read_caller_input
from research.orchestrator.server_pool import ServerPool
from research.state import AgentState
from research.state.session_folder import HistoryManager, SessionInfo
from research.state.progress_events import ProgressEvent, Token, to_wire

if TYPE_CHECKING:  # the clients are imported by the pool when the first search starts it
    from langchain_core.runnables import RunnableConfig

    from research.modules.clients.parser_client import ContainerProcessor
    from research.modules.clients.web_search_client import SessionWebSearch

logger = logging.getLogger("research.langgraph")


class SessionServers:
    """The web-search and parser clients the nodes use, started on first use for the
    session the ``session`` step opened (nodes are bound before any session exists)."""

    def __init__(self, settings: Settings) -> None:
        self.settings = settings
        self.pool = ServerPool()
        self.session_path: Path | None = None

    async def _clients(self) -> tuple[SessionWebSearch, ContainerProcessor]:
        if self.session_path is None:
            raise RuntimeError("no session opened for this run")
        await self.pool.start(self.settings)
        return self.pool.for_session(self.session_path)

    async def search(self, query: str, **kwargs: Any) -> Any:
        web_search, _ = await self._clients()
        return await web_search.search(query, **kwargs)

    async def parse(self, **kwargs: Any) -> Any:
        path = kwargs.get("path")
        if path is not None and (self.session_path is None
                                 or not is_cached_source(path, self.session_path.parent)
                                 or Path(path).resolve().parent != (self.session_path / "sources").resolve()):
            # Bytes come from this session's cache, where its searches put them, or not at all.
            raise DocumentFailed("not a cached page of this session")
        _, parser = await self._clients()
        return await parser.parse(**kwargs)

    async def external_tools(self) -> tuple[str, list[str]] | None:
        web_search, _ = await self._clients()
        return await web_search.external_tools()

    @property
    def sandbox_name(self) -> str:
        return self.pool.parser.sandbox_name if self.pool.parser is not None else ""


def _log_progress(event: ProgressEvent) -> None:
    if not isinstance(event, Token):
        logger.info("%s %s", *to_wire(event))


class RefusedInput(ValueError):
    """An input ``read_caller_input`` refused, raised as LangGraph Server reports a run's
    error: its one line, in English (the server has no user language)."""


class RunSessionHistory(HistoryManager):
    """The sessions folder as this run may use it: the one session its ``session`` step
    opened, and no other. LangGraph Server lets a client edit a thread's state between
    runs (``POST /threads/{id}/state``) and continue from any step; a ``session_id`` put
    there would otherwise send the nodes' writes (input.md, events, report.md) into another
    session's folder. Every file access goes through ``path``, so that is where it is held."""

    def __init__(self, sessions_dir: Path) -> None:
        super().__init__(sessions_dir)
        self.opened: str | None = None
        self._creating = False

    def create(self, **kwargs: Any) -> SessionInfo:
        self._creating = True
        try:
            info = super().create(**kwargs)
        finally:
            self._creating = False
        self.opened = info.session_id
        return info

    def path(self, session_id: str) -> Path:
        if not self._creating and session_id != self.opened:
            raise RefusedInput(
                f"Refusing the thread's state: it names session {str(session_id)[:40]!r}, not the one this run "
                "opened (a thread's state is set by the graph, not edited). Nothing was written.")
        return super().path(session_id)


def open_session_step(deps: WorkflowDependencies,
                      servers: SessionServers) -> Callable[[Mapping[str, object]], Awaitable[AgentState]]:
    async def session(raw: Mapping[str, object]) -> AgentState:
        """Check the input, the model, make the session folder, and give the run what the CLI gives it."""
        from research.orchestrator.runner import settings_for_depth

        try:
            given = read_caller_input(raw, default_depth=deps.settings.depth)
        except UsageError as exc:
            raise RefusedInput(exc.message("en")) from None
        question, language, depth = given.question, given.language, given.depth
        deps.settings = settings_for_depth(deps.settings, depth)
        model_name = await deps.model.ensure_ready()
        info = deps.history.create(question=question, language=language, model=model_name)
        deps.history.update_meta(info.session_id, depth=depth, origin="langgraph")
        servers.session_path = info.path
        return {"question": question, "language": language, "model": model_name, "session_id": info.session_id,
                "session_dir": str(info.path), "depth": depth, "review_plan": False, "errors": []}

    return session


@asynccontextmanager
async def make_graph(config: RunnableConfig | None = None) -> AsyncIterator[Any]:
    """LangGraph Server's graph factory: a fresh graph per run, its servers closed after."""
    from research.modules.llm.model_manager import ModelManager

    settings = load_settings()
    check_run_settings(settings)
    servers = SessionServers(settings)
    deps = WorkflowDependencies(settings=settings, model=ModelManager(settings), web_search=servers,
                                parser=servers, history=RunSessionHistory(settings.sessions_dir), progress=_log_progress,
                                measure_judge=True)
    # The input schema is a plain mapping: the run's input reaches the session step whole
    # (a TypedDict would drop unknown keys unseen and pass on any key of AgentState).
    # LangGraph's types admit only those schemas; its code takes a dict as this one.
    graph = StateGraph(AgentState, input_schema=dict, output_schema=AgentState)  # type: ignore[type-var]
    graph.add_node("session", open_session_step(deps, servers), input_schema=dict)  # type: ignore[call-overload]
    graph.add_node("research", build_graph(deps))
    graph.add_edge(START, "session")
    graph.add_edge("session", "research")
    graph.add_edge("research", END)
    try:
        # As the runner allows: each verification loop revisits four nodes.
        yield graph.compile().with_config(recursion_limit=14 + 5 * (settings.max_verification_loops + 2))
    finally:
        await servers.pool.aclose()

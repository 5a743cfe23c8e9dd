"""Research runs for the MCP server: started beside the request, bounded, cancellable.

A run is an asyncio task of its own rather than code inside the tool handler. The MCP
dispatcher cancels a handler with an anyio cancel scope, which re-cancels every await
until the scope exits; a run cancelled that way could not close its web-search and
parser servers or mark its session. Here a cancelled handler cancels the run task once
(plain asyncio cancellation, which the runner turns into status "cancelled") and waits,
shielded, for it to put its session in order.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Awaitable, Callable

import anyio

from research.modules.core.settings import Settings
from research.state.run_record import RunOutcome
from research.state.progress_events import NodeStarted, ProgressEvent, SessionStarted, Token

if TYPE_CHECKING:  # the runner is imported by the first run, not by the server's start
    from research.orchestrator.runner import ResearchRequest

# One local model serves every run: a second run at once would halve the speed of both.
DEFAULT_RUN_LIMIT = 1
# How long a cancelled run may take to close its servers and mark its session.
CANCEL_GRACE_SECONDS = 30.0

EventSink = Callable[[ProgressEvent], Awaitable[None]]


class RunsBusy(Exception):
    """The run limit is reached; ``session_id`` names a run that is going."""

    def __init__(self, session_id: str, running: int, limit: int) -> None:
        super().__init__(session_id)
        self.session_id, self.running, self.limit = session_id, running, limit


@dataclass
class ActiveRun:
    label: str  # the question, or the id being resumed, until the session is known
    request: ResearchRequest | None = None
    task: "asyncio.Task[RunOutcome] | None" = None
    session_id: str = ""
    language: str = ""
    node: str = ""
    events: asyncio.Queue[ProgressEvent] = field(default_factory=asyncio.Queue)


class RunManager:
    def __init__(self, limit: int = DEFAULT_RUN_LIMIT) -> None:
        self.limit = limit
        self.active: list[ActiveRun] = []

    async def run(self, request: ResearchRequest, settings: Settings, on_event: EventSink) -> RunOutcome:
        """Run one research request, passing its progress events (tokens left out) to ``on_event``.

        Raises ``RunsBusy`` at the limit, and whatever ``run_research`` raises.
        """
        if len(self.active) >= self.limit:
            going = self.active[0]
            raise RunsBusy(going.session_id or going.label, len(self.active), self.limit)
        run = ActiveRun(label=request.resume or request.question[:80], request=request)

        def progress(event: ProgressEvent) -> None:
            if isinstance(event, SessionStarted):
                run.session_id, run.language = event.session_id, event.language
            elif isinstance(event, NodeStarted):
                run.node = event.node
            if not isinstance(event, Token):  # the streamed answer is far too chatty for notifications
                run.events.put_nowait(event)

        self.active.append(run)
        from research.orchestrator.runner import run_research

        task = run.task = asyncio.create_task(run_research(request, settings, progress))
        try:
            await self._follow(run, task, on_event)
            return task.result()
        except BaseException:
            if not task.done():  # this handler was cancelled (or failed) while the run went on
                task.cancel()
                with anyio.CancelScope(shield=True):
                    await asyncio.wait({task}, timeout=CANCEL_GRACE_SECONDS)
            raise
        finally:
            self.active.remove(run)
            if task.done() and not task.cancelled():
                task.exception()  # retrieved: asyncio must not log it as never seen

    async def _follow(self, run: ActiveRun, task: asyncio.Task[RunOutcome], on_event: EventSink) -> None:
        while True:
            getter = asyncio.ensure_future(run.events.get())
            try:
                await asyncio.wait({task, getter}, return_when=asyncio.FIRST_COMPLETED)
            finally:
                if not getter.done():
                    getter.cancel()
            if getter.done() and not getter.cancelled():
                await on_event(getter.result())
            elif task.done():
                while not run.events.empty():
                    await on_event(run.events.get_nowait())
                return

    async def stop_all(self, signal_name: str) -> None:
        """The server was told to stop (SIGTERM, SIGHUP): each run is cancelled as the CLI
        cancels one on that signal, so its session is kept as "interrupted" (resumable),
        and given ``CANCEL_GRACE_SECONDS`` to mark it and close its servers."""
        tasks = []
        for run in list(self.active):
            if run.task is not None and not run.task.done():
                if run.request is not None:
                    run.request.stopped_by = signal_name
                run.task.cancel()
                tasks.append(run.task)
        if tasks:
            with anyio.CancelScope(shield=True):
                await asyncio.wait(tasks, timeout=CANCEL_GRACE_SECONDS)

    def describe(self) -> list[dict[str, str]]:
        return [{"session_id": r.session_id, "question": r.label, "step": r.node} for r in self.active]

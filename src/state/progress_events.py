"""What a run tells whoever watches it, as types: one class per kind of progress event.

The runner and the nodes emit these; the terminal (``cli/progress.py``), the REPL, the
research MCP server's notifications and `research serve`'s run queue consume them. A
consumer matches on the class, so a misspelt event or payload key is a type error, not an
event that silently shows nothing. The run queue stores events between processes as
``(name, payload)`` (``to_wire`` / ``from_wire``); nothing else sees that form.
"""

from __future__ import annotations


import dataclasses
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Callable, ClassVar

if TYPE_CHECKING:
    from research.state.run_record import JsonObject  # for the checker only: this module imports no pydantic


@dataclass(frozen=True)
class ProgressEvent:
    name: ClassVar[str]

    def payload(self) -> JsonObject:
        return dataclasses.asdict(self)


@dataclass(frozen=True)
class SessionStarted(ProgressEvent):
    """The session folder exists: from here on a stop can say how to resume."""

    name: ClassVar[str] = "session"
    session_id: str
    session_dir: str = ""
    language: str = ""


@dataclass(frozen=True)
class ServersStarting(ProgressEvent):
    """The MCP servers boot in the background while the first steps go on."""

    name: ClassVar[str] = "servers_starting"
    # The run's language: this is said before SessionStarted, and a resumed run's language is
    # its session's, which the command line did not say.
    language: str = ""


@dataclass(frozen=True)
class Resuming(ProgressEvent):
    """A resumed session goes on at these steps (node names)."""

    name: ClassVar[str] = "resuming"
    session_id: str
    next: tuple[str, ...] = ()


@dataclass(frozen=True)
class StepEvent(ProgressEvent):
    """A step of the graph began or ended; ``node`` is its name in the step table, ``variant``
    what its label says for this run (``steps.step_variant``: "local", a search of documents)."""

    node: str


@dataclass(frozen=True)
class NodeStarted(StepEvent):
    name: ClassVar[str] = "node_start"
    variant: str = ""


@dataclass(frozen=True)
class NodeFinished(StepEvent):
    name: ClassVar[str] = "node_end"
    seconds: float = 0.0
    variant: str = ""


@dataclass(frozen=True)
class Token(ProgressEvent):
    """A piece of the streamed draft (shown only where a person watches)."""

    name: ClassVar[str] = "token"
    text: str


@dataclass(frozen=True)
class Message(ProgressEvent):
    """A line for the user: a message-catalogue key and its parameters (said in the run's language)."""

    name: ClassVar[str] = "message"
    key: str
    params: dict[str, Any] = field(default_factory=dict)

    def payload(self) -> JsonObject:
        return {"key": self.key, **self.params}


ProgressCallback = Callable[[ProgressEvent], None]

EVENT_TYPES: dict[str, type[ProgressEvent]] = {
    kind.name: kind for kind in (SessionStarted, ServersStarting, Resuming, NodeStarted, NodeFinished, Token, Message)
}


def to_wire(event: ProgressEvent) -> tuple[str, JsonObject]:
    """The event as a name and a JSON-ready payload (for the run queue's table)."""
    payload = event.payload()
    if isinstance(event, Resuming):
        payload["next"] = list(event.next)
    return event.name, payload


def from_wire(name: str, payload: JsonObject) -> ProgressEvent | None:
    """The event stored as ``(name, payload)``; None for a name or payload no event has."""
    kind = EVENT_TYPES.get(name)
    if kind is None or not isinstance(payload, dict):
        return None
    try:
        if kind is Message:
            params = {k: v for k, v in payload.items() if k != "key"}
            return Message(key=str(payload["key"]), params=params)
        if kind is Resuming:
            return Resuming(session_id=str(payload["session_id"]), next=tuple(payload.get("next") or ()))
        return kind(**payload)
    except (KeyError, TypeError):
        return None

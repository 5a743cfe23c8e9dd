"""What `research serve`'s ``/api`` answers (team/front.py), one model per body.

The client (team/client.py) reads these bodies; the front builds each answer from its model
and sends it with the keys it set (``body``), so what a client gets is what these models
publish (docs/schemas/api-*.schema.json).
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from research.state.run_record import JsonObject, RunJson, RunVerification, Source
from research.team.database import RunStatus


class ApiBody(BaseModel):
    """An answer of the API: sent with the keys it was given (a key not set is not sent)."""

    model_config = ConfigDict(extra="forbid")

    def body(self) -> JsonObject:
        sent: JsonObject = self.model_dump(mode="json", exclude_unset=True)
        return sent


class ApiError(ApiBody):
    """A refused request (400, 404, 503): what was wrong, in English for the operator's log."""

    error: str


class RunStatusBody(ApiBody):
    """``GET /api/runs/N``: a run's status; ``error`` (both languages) once it failed or was
    cancelled, ``result`` (what `research "…" --json` prints, with the API's paths) once done."""

    run_id: int
    status: RunStatus
    session_id: str | None = None
    question: str = ""
    lang: str | None = None
    error: dict[Literal["en", "ja"], str] | None = None
    result: RunJson | None = None


class RunEvent(ApiBody):
    """One stored event of a run: a progress event (state/progress_events.py's wire form) or
    the queue's own ("claimed")."""

    id: int
    event: str
    payload: JsonObject  # the event's own fields: read by progress_events.from_wire
    worker: str


class RunEvents(ApiBody):
    """``GET /api/runs/N/events?after=ID&wait=S``: the run's events after ``after``."""

    status: RunStatus
    events: list[RunEvent]


class SessionRow(ApiBody):
    """One of the token's sessions as `research sessions list --json` shows a local one: meta.json's
    keys, the counts from the session's last finished run, no server path."""

    session_id: str
    question: str = ""
    language: str = ""
    status: str = ""
    exit_code: int | None = None
    created_at: str = ""
    finished_at: str = ""
    sources: int | Literal[""] = ""  # "": no finished run counted them
    verification: RunVerification = Field(default_factory=RunVerification)
    run_id: int | None = None
    has_report: bool = False
    has_pdf: bool = False


class SessionRows(ApiBody):
    """``GET /api/sessions?limit=N``."""

    sessions: list[SessionRow]


class SessionMeta(SessionRow):
    """``GET /api/sessions/ID``: the session's row, and the sources its last finished run read
    (the REPL's /sources on a team's server)."""

    source_list: list[Source] = Field(default_factory=list)

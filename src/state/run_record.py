"""What a run leaves, in one place: its sources, its problems, its outcome and its session record.

Every surface that says how a run ended reads these models: the runner builds a ``RunOutcome``,
the CLI prints it (``--json`` is its ``RunJson`` view), the stdio and HTTP research servers
answer from it, a team's worker stores it and its queue and client read it back. A session's
meta.json is a ``SessionRecord``. One source has one model, ``Source``; the views the report,
``--json``, the MCP results and the listings need are derived from it here.

meta.json and a stored outcome may come from someone else (a shared folder, a database row a
worker of an older version wrote): ``SessionRecord.read`` and ``RunOutcome.read`` keep what is
valid and drop the rest, as the code before them did with ``.get`` and defaults. What this
version writes is validated strictly (``SessionRecord.fields``): an unknown key or a wrong
type is a bug caught where it is written. The JSON Schemas in docs/schemas/ are written from
these models (``python -m research.cli.schemas``); a test keeps them current.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, SerializerFunctionWrapHandler, TypeAdapter, ValidationError, model_serializer

from research.modules.core.errors import EXIT_OK
from research.modules.text.sanitize import one_line
from research.state.models import Depth, Document, RunProblem, Turn, VerificationSummary
from research.state.models import JsonObject as JsonObject  # re-exported: the record's users name it here
from research.state.status import SessionStatus

SourceStatus = Literal["ok", "failed", "left_out"]
SOURCE_STATUSES: tuple[SourceStatus, ...] = ("ok", "failed", "left_out")


# --------------------------------------------------------------------------- one source


class Source(BaseModel):
    """One source of a run, as a person or a host is shown it: never the page's text.

    Built from a ledger entry (``from_ledger``: processed.jsonl's line, or the state's
    ``Document``), each text field one clean line, since a page or a shared folder wrote it."""

    model_config = ConfigDict(extra="ignore")

    label: str = Field(description="'S1': what the answer's [S1] citations point at")
    title: str = ""
    url: str = ""
    status: SourceStatus = Field("ok", description="ok | failed (could not be read) | left_out (dated before --since)")
    error: str | None = Field(None, description="why it failed or was left out")
    suspicious: bool = Field(False, description="text addressed to a model was screened out of it")
    language: str = ""
    retrieved_at: str = ""
    kind: str = Field("", description="official, academic, reference, news, company, blog, forum, unknown; "
                                      "'' where not graded (modules/text/source_kind.py)")

    @classmethod
    def from_ledger(cls, entry: Mapping[str, Any] | Document) -> Source:
        """The source of one ledger entry. A status this version does not know is "failed": a
        source nobody can say was read is never counted as read."""
        data: Mapping[str, Any] = entry.model_dump() if isinstance(entry, Document) else entry
        status = str(data.get("status") or "ok")
        return cls(label=one_line(str(data.get("label", ""))), title=one_line(str(data.get("title") or "")),
                   url=one_line(str(data.get("url") or "")),
                   status=status if status in SOURCE_STATUSES else "failed",
                   error=one_line(str(data["error"])) if data.get("error") else None,
                   suspicious=data.get("suspicious") is True,
                   language=one_line(str(data.get("language") or "")),
                   retrieved_at=one_line(str(data.get("retrieved_at") or "")),
                   kind=one_line(str(data.get("kind") or "")))

    @property
    def read(self) -> bool:
        return self.status == "ok"

    @property
    def failed(self) -> bool:
        """Could not be read."""
        return self.status == "failed"  # a document's status, not a session's

    @property
    def left_out(self) -> bool:
        """Read, and not used: dated before --since."""
        return self.status == "left_out"

    def listed(self) -> JsonObject:
        """The source in a listing (meta of a team's session, the REPL's /sources): six fields."""
        return self.model_dump(include=set(LISTED_FIELDS))

    def cited_view(self, cited: bool) -> CitedSource:
        """The source in ``--json``'s ``source_list``."""
        return CitedSource(label=self.label, title=self.title, url=self.url, cited=cited, suspicious=self.suspicious)


LISTED_FIELDS = ("label", "title", "url", "status", "error", "suspicious")


def sources_of(ledger: Iterable[Mapping[str, Any] | Document | Source]) -> list[Source]:
    """The sources of a ledger, in its order (entries that are not mappings are skipped)."""
    return [entry if isinstance(entry, Source) else Source.from_ledger(entry)
            for entry in ledger if isinstance(entry, (Mapping, Document, Source))]


class CitedSource(BaseModel):
    """A read source as ``--json`` lists it: ``cited``, the answer cites it."""

    model_config = ConfigDict(extra="forbid")

    label: str
    title: str
    url: str
    cited: bool
    suspicious: bool


# --------------------------------------------------------------------------- the verification counts


class RunVerification(VerificationSummary):
    """verification.json's summary with the five counts (``verdicts``) and ``supported_percent``:
    what meta.json, ``--json`` and the research servers carry (``models.summary_with_states``).

    Dumped with the keys it was read with: an older session's summary keeps its own shape, and
    keys of a newer version pass through."""

    model_config = ConfigDict(extra="allow", defer_build=True)

    supported_percent: int = 0

    @model_serializer(mode="wrap")
    def _given_keys_only(self, handler: SerializerFunctionWrapHandler) -> Any:
        data = handler(self)
        given = self.model_fields_set | set(self.model_extra or {})
        return {key: value for key, value in data.items() if key in given} if isinstance(data, dict) else data

    def as_json(self) -> JsonObject:
        dumped: JsonObject = self.model_dump(mode="json")
        return dumped


# --------------------------------------------------------------------------- the outcome


class RunOutcome(BaseModel):
    """How one run ended: what ``run_research`` returns, what a team's worker stores, and
    what its queue, front and client read back."""

    session_id: str
    session_dir: str
    language: str
    report_md: str = ""
    report_pdf: str = ""
    sources: int = 0
    sources_failed: int = 0  # could not be read
    sources_left_out: int = 0  # read, and not used: dated before --since
    verification: RunVerification | None = None  # None: nothing was verified
    exit_code: int = EXIT_OK
    resumed: bool = False
    answer: str = ""  # the final, checked answer (what report.md says), for stdout
    problems: list[RunProblem] = Field(default_factory=list)  # failures that changed the result
    # Every source of the run: kept with the result, so a team's service shows them to a host
    # or a client that has no copy of the session's folder.
    source_list: list[Source] = Field(default_factory=list)

    @classmethod
    def read(cls, data: Any, **override: Any) -> RunOutcome:
        """An outcome stored or sent as JSON (a database row, the API): keys this version does
        not know are dropped; a value of the wrong type raises ``ValidationError``."""
        if not isinstance(data, Mapping):
            raise ValueError("a run's outcome is a JSON object")
        known = {key: value for key, value in data.items() if key in cls.model_fields}
        return cls.model_validate({**known, **override})

    def stored(self) -> JsonObject:
        """As a team's queue keeps it (research_runs.result): every field, plain JSON."""
        return self.model_dump(mode="json", exclude_none=True)

    def verification_json(self) -> JsonObject:
        return self.verification.as_json() if self.verification is not None else {}

    def to_json(self) -> JsonObject:
        """The outcome's part of ``--json`` (``RunJson`` adds the answer and the sources)."""
        # Problems quote pages and servers: the one JSON object on stdout carries no escapes.
        from research.modules.text.sanitize import clean_data

        shown: JsonObject = clean_data({
            "session_id": self.session_id,
            "session_dir": self.session_dir,
            "report_md": self.report_md,
            "report_pdf": self.report_pdf,
            "sources": self.sources,
            "sources_failed": self.sources_failed,
            "sources_left_out": self.sources_left_out,
            "language": self.language,
            "verification": self.verification_json(),
            "exit_code": self.exit_code,
            "problems": [problem.as_json() for problem in self.problems],
        })
        return shown


class RunJson(BaseModel):
    """What `research "…" --json` prints (and ``-o x.json`` holds, and the HTTP API's run
    ``result``): the outcome, the answer as report.md says it, and the sources read."""

    model_config = ConfigDict(extra="forbid")

    session_id: str
    session_dir: str
    report_md: str
    report_pdf: str
    sources: int
    sources_failed: int
    sources_left_out: int
    language: str
    verification: RunVerification = Field(default_factory=RunVerification)
    exit_code: int
    problems: list[RunProblem]
    answer: str
    source_list: list[CitedSource]


# --------------------------------------------------------------------------- meta.json


class SessionRecord(BaseModel):
    """A session's meta.json: what ``research sessions`` lists and ``--resume`` starts from."""

    model_config = ConfigDict(extra="forbid")

    session_id: str
    question: str
    language: str
    model: str = ""
    parent_session: str | None = None
    created_at: str = ""
    status: SessionStatus = SessionStatus.RUNNING
    depth: Depth | None = None
    origin: str | None = None  # "langgraph": started by a LangGraph server, not by `research`
    run_options: JsonObject | None = None  # modules/core/run_options.recorded: read back by restored()
    queue_run: int | None = None  # the team queue's run that made it (a worker's fence)
    conversation: list[Turn] | None = None  # a follow-up's earlier questions
    finished_at: str | None = None
    error: str | None = None
    sources: int | None = None
    sources_failed: int | None = None
    sources_left_out: int | None = None
    model_used: str | None = None
    verification: RunVerification | None = None
    usage: dict[str, dict[str, int]] | None = None  # per step: calls, tokens, fallbacks
    problems: list[RunProblem] | None = None
    exit_code: int | None = None

    @classmethod
    def fields(cls, **values: Any) -> JsonObject:
        """``values`` checked against this model's fields and put as meta.json holds them: an
        unknown key or a value of the wrong type raises (a writer's bug, not a reader's)."""
        checked: JsonObject = {}
        for name, value in values.items():
            if name not in cls.model_fields:
                raise KeyError(f"meta.json has no field {name!r}")
            adapter = _FIELD_ADAPTERS.get(name)
            if adapter is None:
                adapter = _FIELD_ADAPTERS[name] = TypeAdapter(_annotation(cls.model_fields[name].annotation))
            typed = adapter.validate_python(value)
            checked[name] = adapter.dump_python(typed, mode="json", exclude_none=isinstance(typed, list))
        return checked

    @classmethod
    def read(cls, meta: Any, session_id: str) -> SessionRecord | None:
        """A meta.json as data from someone else: each field that is valid is kept, one that is
        not is dropped (its default stands); None when it is no session record at all (not an
        object, or no question). Keys this version does not know are ignored."""
        if not isinstance(meta, Mapping) or not isinstance(meta.get("question"), str):
            return None
        kept: JsonObject = {"session_id": session_id, "question": meta["question"],
                            "language": meta.get("language") if isinstance(meta.get("language"), str) else ""}
        for name, value in meta.items():
            if name in kept or name not in cls.model_fields or value is None or value == {}:
                continue
            try:
                cls.fields(**{name: value})
            except (ValidationError, ValueError, TypeError):
                continue
            kept[name] = value
        return cls.model_validate(kept)

    def as_json(self) -> JsonObject:
        data: JsonObject = self.model_dump(mode="json", exclude_unset=True)
        return data


_FIELD_ADAPTERS: dict[str, TypeAdapter[Any]] = {}


def _annotation(annotation: Any) -> Any:
    """A field's type, as pydantic resolved it (every field of the record has one)."""
    if annotation is None:
        raise TypeError("a field without a type")
    return annotation

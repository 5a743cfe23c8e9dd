"""Checkpoints read with an allow-list: a session folder may come from someone else.

LangGraph's default serializer rebuilds any ``module.callable(args)`` named in a
checkpoint (its "permissive" msgpack mode), so an edited ``checkpoints.sqlite`` would run
code on ``research --resume``. Our state holds plain data and the pydantic models
``AgentState`` names (``STATE_MODELS``, found from its annotations); the only other typed
values LangGraph itself writes for our graph are the few listed in ``ALLOWED_TYPES``.
Anything else in a checkpoint is refused before a single constructor runs, and the run
stops with one line (exit 2) instead of resuming.

Plain data can do harm too: a ``cache_path`` edited to ``~/.ssh/id_rsa`` would have the
key parsed into the prompt and the report. So every stored state and pending write is
also validated by the models ``AgentState`` declares (``check_state_values``: each key's
type, each model's fields, no string read as a number), then checked for the question's
length, the session it belongs to (which must be stated: a copy cannot pass by dropping
it), and every path, which must lie inside the session's own folder.
"""

from __future__ import annotations

import json
import os
import sqlite3
import tempfile
import threading
from enum import Enum
from pathlib import Path
from typing import Any, Callable, Mapping, get_args, get_type_hints

import ormsgpack
from langgraph.checkpoint.serde import jsonplus
from langgraph.checkpoint.serde._msgpack import SAFE_MSGPACK_METHODS
from pydantic import BaseModel, ValidationError
from research.modules.core.errors import UsageError
from research.state.agent_state import AgentState, state_adapter, state_from_json
from research.state.session_folder import cache_entry, fsync_directory

# Exactly what a checkpoint of our graph contains besides plain data: the plan review's
# interrupt and its resume command (langgraph.types), timestamps LangGraph stamps on
# writes, and the sets it keeps of seen channel versions. Nothing else is rebuilt.
ALLOWED_TYPES: frozenset[tuple[str, str]] = frozenset({
    ("langgraph.types", "Interrupt"),
    ("langgraph.types", "Command"),
    ("langgraph.types", "Send"),
    ("langgraph.types", "Overwrite"),
    ("datetime", "datetime"),
    ("datetime", "date"),
    ("datetime", "timedelta"),
    ("datetime", "timezone"),
    ("uuid", "UUID"),
    ("builtins", "set"),
    ("builtins", "frozenset"),
})



def _types_in(hint: Any, kind: type, found: set[type], *, fields: bool = False) -> set[type]:
    """The subclasses of ``kind`` that ``hint`` names; with ``fields``, also those the fields
    of the models it names do, at any depth."""
    if isinstance(hint, type) and issubclass(hint, kind) and hint not in found:
        found.add(hint)
    if fields and isinstance(hint, type) and issubclass(hint, BaseModel):
        for field in hint.model_fields.values():
            _types_in(field.annotation, kind, found, fields=True)
        # A computed field is dumped with the model too (ClaimVerdict.state, a VerdictState).
        for computed in hint.model_computed_fields.values():
            getter = getattr(computed.wrapped_property, "fget", None)
            if getter is not None:  # its return type, as written (the model builds on first use)
                _types_in(get_type_hints(getter).get("return"), kind, found, fields=True)
    for argument in get_args(hint):
        _types_in(argument, kind, found, fields=fields)
    return found


def _named(types: set[type]) -> frozenset[tuple[str, str]]:
    return frozenset((kind.__module__, kind.__name__) for kind in types)


_STATE_HINTS = get_type_hints(AgentState, include_extras=True).values()
# The pydantic models a state value may be: those AgentState's keys are declared with (a
# model nested in one is stored as its fields, not as a typed value of its own) ...
STATE_MODEL_TYPES: frozenset[tuple[str, str]] = _named(
    {model for hint in _STATE_HINTS for model in _types_in(hint, BaseModel, set())})
# ... and the enums their fields hold, which LangGraph stores as ``Enum(value)``.
STATE_ENUM_TYPES: frozenset[tuple[str, str]] = _named(
    {enum for hint in _STATE_HINTS for enum in _types_in(hint, Enum, set(), fields=True)})

# Which names each kind of typed value may carry: a state model only as a model, one of
# its enums only as a one-argument constructor (its value).
_ALLOWED_FOR: dict[int, frozenset[tuple[str, str]]] = {
    jsonplus.EXT_PYDANTIC_V2: STATE_MODEL_TYPES,
    jsonplus.EXT_CONSTRUCTOR_SINGLE_ARG: ALLOWED_TYPES | STATE_ENUM_TYPES,
}

_CONSTRUCTOR_CODES = {
    jsonplus.EXT_CONSTRUCTOR_SINGLE_ARG,
    jsonplus.EXT_CONSTRUCTOR_POS_ARGS,
    jsonplus.EXT_CONSTRUCTOR_KW_ARGS,
    jsonplus.EXT_PYDANTIC_V1,
    jsonplus.EXT_PYDANTIC_V2,
}


class UntrustedCheckpoint(UsageError):
    """A checkpoint names a type outside the allow-list: the session is not resumed."""

    def __init__(self, name: str) -> None:
        # The name comes from the file: cut it so a hostile one cannot flood the terminal.
        super().__init__("session_folder.checkpoint_untrusted", name=_shown(name))


def _shown(name: str, limit: int = 80) -> str:
    printable = "".join(ch if ch.isprintable() else "?" for ch in name)
    return printable if len(printable) <= limit else printable[:limit] + "…"


def _check_ext(code: int, data: bytes) -> Any:
    """ormsgpack ext hook that only inspects: raises on the first type not allowed."""
    if code == jsonplus.EXT_DELTA_SNAPSHOT:
        return _unpack(data)
    if code not in _CONSTRUCTOR_CODES and code != jsonplus.EXT_METHOD_SINGLE_ARG:
        raise UntrustedCheckpoint(f"msgpack extension {code}")
    parts = _unpack(data)
    if not isinstance(parts, (list, tuple)) or len(parts) < 3 or not all(isinstance(p, str) for p in parts[:2]):
        raise UntrustedCheckpoint("malformed msgpack extension")
    module, name = parts[0], parts[1]
    if code == jsonplus.EXT_METHOD_SINGLE_ARG:
        method = parts[3] if len(parts) > 3 and isinstance(parts[3], str) else "?"
        if (module, name, method) not in SAFE_MSGPACK_METHODS:
            raise UntrustedCheckpoint(f"{module}.{name}.{method}")
    elif (module, name) not in _ALLOWED_FOR.get(code, ALLOWED_TYPES):
        raise UntrustedCheckpoint(f"{module}.{name}")
    return None


def _unpack(data: bytes) -> Any:
    """Unpack with ``_check_ext``; ormsgpack turns a hook's exception into a bare
    ValueError, so the refusal is re-raised from ``_refusal`` at every level."""
    try:
        return ormsgpack.unpackb(data, ext_hook=_hook, option=ormsgpack.OPT_NON_STR_KEYS)
    except ValueError:
        refusal = getattr(_state, "refusal", None)
        if refusal is not None:
            raise refusal from None
        raise


_state = threading.local()  # the first refusal of the check in progress, per thread


# A checkpoint's values as read from its file: untrusted plain data until check_state_values
# (or _as_models) reads them through AgentState's models.
StoredValues = Mapping[str, object]


def _hook(code: int, data: bytes) -> Any:
    try:
        return _check_ext(code, data)
    except UntrustedCheckpoint as exc:
        if getattr(_state, "refusal", None) is None:
            _state.refusal = exc
        raise


def _check_json_object(value: dict[str, object]) -> dict[str, object]:
    if value.get("lc") is not None and value.get("type") in ("constructor", "secret"):
        ident = value.get("id")
        parts = tuple(ident) if isinstance(ident, list) else ()
        if len(parts) != 2 or parts not in ALLOWED_TYPES:
            raise UntrustedCheckpoint(".".join(map(str, parts)) or "json constructor")
    return value


def check_serialized(type_: str, data: bytes) -> None:
    """Raise ``UntrustedCheckpoint`` unless every typed value in ``data`` is allowed."""
    if type_ in ("null", "bytes", "bytearray"):
        return
    if type_ == "msgpack":
        _state.refusal = None
        try:
            _unpack(data)
        except UntrustedCheckpoint:
            raise
        except Exception as exc:  # noqa: BLE001 - a corrupt blob is refused the same way
            raise UntrustedCheckpoint(f"unreadable msgpack ({type(exc).__name__})") from None
        return
    if type_ == "json":
        try:
            json.loads(data, object_hook=_check_json_object)
        except UntrustedCheckpoint:
            raise
        except ValueError:
            raise UntrustedCheckpoint("unreadable json") from None
        return
    raise UntrustedCheckpoint(f"serialization {type_!r}")  # "pickle" and anything unknown


class AllowListSerializer(jsonplus.JsonPlusSerializer):
    """LangGraph's serializer in strict mode, plus a refusal (not a silent fallback)
    when a checkpoint names anything outside ``ALLOWED_TYPES``."""

    def __init__(self) -> None:
        super().__init__(pickle_fallback=False,
                         allowed_msgpack_modules=tuple(ALLOWED_TYPES | STATE_MODEL_TYPES | STATE_ENUM_TYPES))

    def loads_typed(self, data: tuple[str, bytes]) -> Any:
        check_serialized(*data)
        loaded = super().loads_typed(data)
        values = loaded.get("channel_values") if isinstance(loaded, dict) else None
        if isinstance(values, dict):
            loaded["channel_values"] = {**values, **_as_models(values)}
        return loaded


def _as_models(values: StoredValues) -> dict[str, object]:
    """A stored state's values as the models ``AgentState`` declares: a checkpoint written
    before the state held models keeps their fields as plain mappings, which the nodes could
    not read. (What the file holds was judged by ``check_state_values`` before resuming; a
    value that does not validate is left as it was.)"""
    ours = {key: value for key, value in values.items() if key in STATE_KEYS and value is not None}
    try:
        return dict(state_adapter().validate_python(ours))
    except ValidationError:
        return {}


class ForeignState(UsageError):
    """A checkpoint holds data our graph never writes (a path outside the session, a wrong
    type, an oversized question, no owner): the session is not resumed."""

    def __init__(self, what: str) -> None:
        super().__init__("session_folder.bad_state", what=_shown(what, 120))


# Keys LangGraph adds itself ("__start__", "branch:…") are not ours to judge and carry no data
# a node reads; every key AgentState declares is judged by its declared type.
STATE_KEYS = frozenset(get_type_hints(AgentState))
MAX_BLOB_BYTES = 512 << 20  # one stored state; a deep run's holds some tens of MiB
_MAX_ITEMS = 20_000  # far above any run's sources or claims, far below what exhausts memory


def check_state_values(values: StoredValues, folder: Path, session_id: str, *, question_limit: int,
                       whole: bool = True, known: set[Any] | None = None) -> AgentState:
    """The state ``values`` hold (a stored state, or one pending write when ``whole`` is
    False), validated by the models ``AgentState`` declares (``state_from_json``: each key's
    type, each model's fields, the choices of ``Language`` and the depth); raise
    ``ForeignState`` unless it is that, for the session in ``folder``, with every path inside
    it. None stands for a value not set yet. ``known``: cache paths already found good in
    this check (every stored state repeats them)."""
    if not isinstance(values, dict):
        raise ForeignState("a state that is not a mapping")
    ours = {key: value for key, value in values.items() if isinstance(key, str) and key in STATE_KEYS}
    for key, value in ours.items():
        if isinstance(value, list) and len(value) > _MAX_ITEMS:
            raise ForeignState(f"'{key}' with {len(value)} entries")
    state = _validated({key: value for key, value in ours.items() if value is not None})
    question = state.get("question")
    if question is not None and len(question) > question_limit:
        raise ForeignState(f"a question of {len(question)} characters (the limit is {question_limit})")
    # Ownership: a state that has any of our data says whose it is, and it is this folder's.
    if whole and ours:
        for key in ("session_id", "session_dir"):
            if not state.get(key):
                raise ForeignState(f"no '{key}'")
    if state.get("session_id") not in (None, session_id):
        raise ForeignState(f"the session id '{state['session_id']}'")
    if state.get("session_dir") is not None and not _same_place(state["session_dir"], folder):
        raise ForeignState(f"the session folder '{state['session_dir']}'")
    for index, hit in enumerate(state.get("search_results") or []):
        path = hit.cache_path
        if path is None or (known is not None and (path, hit.url) in known):
            continue
        if not is_cached_source(path, folder.parent, url=hit.url):
            raise ForeignState(f"search_results[{index}].cache_path that is not its URL's cache entry: {path}")
        if known is not None:
            known.add((path, hit.url))
    for key in ("report_md", "report_pdf"):
        where = state.get(key)
        if where and not _inside(where, folder):
            raise ForeignState(f"'{key}' outside the session folder: {where}")
    return state


def _validated(values: StoredValues) -> AgentState:
    """``state_from_json``, its refusal said as which value and why, in one line."""
    try:
        return state_from_json(values)
    except ValidationError as exc:
        first = exc.errors()[0]
        where = "".join(f"[{part}]" if isinstance(part, int) else f".{part}" for part in first["loc"]).lstrip(".")
        raise ForeignState(f"'{where}': {first['msg']}") from None
    except (TypeError, ValueError, RecursionError):
        raise ForeignState("a value that is not plain data") from None


def is_cached_source(path: Any, sessions_root: Path, *, url: Any = None) -> bool:
    """True when ``path`` is a cache entry in some session's ``sources/`` under
    ``sessions_root``: where the fetcher stores bytes, and all the parser is ever given
    from a state. (A follow-up question's hits keep their parent session's paths, so any
    session's.) With ``url``: the entry the fetcher names after that URL's hash, and no
    other, so a path in data only ever repeats what the URL already says. The one
    definition is ``state.session_folder.cache_entry``, shared with the fetcher's names."""
    return cache_entry(path, sessions_root, url=url) is not None


def _inside(path: Any, folder: Path) -> bool:
    """True when ``path`` names a place inside ``folder`` once links are followed and ``..``
    resolved, and the name itself is no link (one could be swapped after this check)."""
    if not isinstance(path, str) or not path or "\x00" in path:
        return False
    try:
        candidate = Path(path)
        real = candidate.resolve()
        real.relative_to(folder.resolve())
    except (ValueError, OSError, RuntimeError):
        return False
    return not candidate.is_symlink()


def _same_place(path: Any, folder: Path) -> bool:
    if not isinstance(path, str) or "\x00" in path:
        return False
    try:
        return Path(path).resolve() == folder.resolve()
    except (OSError, RuntimeError):
        return False


def _plain(data: bytes) -> Any:
    """A msgpack blob as plain data: a state model as its fields, so they are judged like the
    rest; LangGraph's own typed values (already allowed) become None."""
    return ormsgpack.unpackb(data, ext_hook=_plain_ext, option=ormsgpack.OPT_NON_STR_KEYS)


def _plain_ext(code: int, data: bytes) -> Any:
    if code in (jsonplus.EXT_PYDANTIC_V2, jsonplus.EXT_CONSTRUCTOR_SINGLE_ARG):
        parts = _plain(data)
        if not isinstance(parts, (list, tuple)) or len(parts) < 3:
            return None
        if code == jsonplus.EXT_PYDANTIC_V2 or tuple(parts[:2]) in STATE_ENUM_TYPES:
            return parts[2]  # a model's fields, an enum's value
    return None


def verify_checkpoint_file(path: Path, *, check_values: Callable[[StoredValues, bool], None] | None = None) -> None:
    """Check every stored checkpoint and pending write of a session before resuming it.

    Read-only and without LangGraph: nothing named in the file is imported or called.
    ``check_values(values, whole)``: also judge each stored state (``whole``) and each
    pending write (``{channel: value}``) as data, e.g. with ``check_state_values``.
    """
    if not os.path.lexists(path):
        return
    connection = _open_as_data(path)
    try:
        tables = check_schema(connection)
        queries = []
        if "checkpoints" in tables:
            queries.append(("checkpoint", "checkpoints", "NULL", True))
        if "writes" in tables:
            queries.append(("value", "writes", "channel", False))
        for column, table, channel_column, whole in queries:
            # Sizes first, without loading a blob: a planted gigabyte is refused, not unpacked.
            (oversized,) = connection.execute(f"SELECT COUNT(*) FROM {table} WHERE length({column}) > ?",
                                              (MAX_BLOB_BYTES,)).fetchone()
            if oversized:
                raise ForeignState(f"a stored value larger than {MAX_BLOB_BYTES >> 20} MiB")
            query = f"SELECT type, {column}, {channel_column} FROM {table}"
            for type_, blob, channel in connection.execute(query):
                type_, blob = str(type_ or "null"), bytes(blob or b"")
                check_serialized(type_, blob)
                if check_values is not None and type_ == "msgpack":
                    _check_plain(blob, whole, channel, check_values)
    except sqlite3.Error:
        raise UntrustedCheckpoint("unreadable checkpoints.sqlite") from None
    finally:
        connection.close()


# What SQLite keeps beside a database file: a planted one would be played into whatever
# file next has the name (a hot journal is rolled back into it, a WAL's pages read over it).
_SIDECARS = ("-wal", "-shm", "-journal")


def adopt_checkpoint_file(path: Path, *, check_values: Callable[[StoredValues, bool], None] | None = None) -> None:
    """Make the session's checkpoint file one this process wrote, before the saver opens it
    for writing (call it under the session's lock).

    The file was checked read-only when the session was chosen; it may have changed since,
    and the saver opens it read-write and trusts its schema. So the file is opened read-only
    again, its schema checked, and copied page by page with SQLite's backup API into a new
    file of ours; the copy is checked in full (``verify_checkpoint_file``: schema, types,
    ``check_values``), and only then takes the original's place, with the original's
    journal, WAL and shared-memory files removed (their content is in the copy). A copy that
    fails its check is removed and the run stops with the same one line as before."""
    folder = path.parent
    if not os.path.lexists(path):
        _remove_sidecars(path)  # a journal without its database would be played into the saver's new file
        return
    if path.is_symlink() or not path.is_file():
        raise UntrustedCheckpoint("checkpoints.sqlite that is not a regular file")
    fd, name = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=folder)
    os.close(fd)
    copy = Path(name)
    try:
        source = _open_as_data(path)
        try:
            check_schema(source)
            target = sqlite3.connect(copy)
            try:
                source.backup(target)
                target.execute("PRAGMA journal_mode = DELETE")  # one self-contained file until the saver opens it
            finally:
                target.close()
        except sqlite3.Error:
            raise UntrustedCheckpoint("unreadable checkpoints.sqlite") from None
        finally:
            source.close()
        verify_checkpoint_file(copy, check_values=check_values)
        with open(copy, "rb+") as handle:
            os.fsync(handle.fileno())
        _remove_sidecars(path)
        os.replace(copy, path)
    except BaseException:
        copy.unlink(missing_ok=True)
        raise
    fsync_directory(folder)


def _remove_sidecars(path: Path) -> None:
    for suffix in _SIDECARS:
        sidecar = path.with_name(path.name + suffix)
        if os.path.lexists(sidecar):
            os.unlink(sidecar)


class ForeignSchema(UsageError):
    """The checkpoint file defines an object the saver never creates (a view, a trigger, a
    virtual table, an index, a renamed table): the session is not resumed."""

    def __init__(self, kind: str, name: str) -> None:
        super().__init__("session_folder.bad_schema", kind=_shown(kind, 20), name=_shown(name))


def saver_schema() -> frozenset[tuple[str, str, str, str]]:
    """Every ``sqlite_master`` row a fresh saver creates (type, name, table, SQL with its
    spacing normalised): all a checkpoint file of ours may hold."""
    global _SAVER_SCHEMA
    if _SAVER_SCHEMA is None:
        from langgraph.checkpoint.sqlite import SqliteSaver

        connection = sqlite3.connect(":memory:", check_same_thread=False)
        try:
            SqliteSaver(connection).setup()
            _SAVER_SCHEMA = frozenset(_schema_rows(connection))
        finally:
            connection.close()
    return _SAVER_SCHEMA


_SAVER_SCHEMA: frozenset[tuple[str, str, str, str]] | None = None


def _schema_rows(connection: sqlite3.Connection) -> list[tuple[str, str, str, str]]:
    return [(str(type_), str(name), str(table), " ".join(str(sql or "").split()))
            for type_, name, table, sql in connection.execute("SELECT type, name, tbl_name, sql FROM sqlite_master")]


def _open_as_data(path: Path) -> sqlite3.Connection:
    """``path`` opened read-only, with nothing the file defines allowed to run while it is
    read: no function a view or a trigger names, no write."""
    try:
        connection = sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True)
        connection.execute("PRAGMA trusted_schema = OFF")
        connection.execute("PRAGMA query_only = ON")
    except sqlite3.Error:
        raise UntrustedCheckpoint("unreadable checkpoints.sqlite") from None
    return connection


def check_schema(connection: sqlite3.Connection) -> set[str]:
    """Raise ``ForeignSchema`` unless every object of the file, every ``sqlite_master``
    row of any type, is one the saver creates, defined exactly as it defines it. The
    file may hold fewer (a run stopped before its first checkpoint). Returns the tables."""
    expected = saver_schema()
    found = _schema_rows(connection)
    telling = {"view": 0, "trigger": 1, "table": 2}  # named first: what the attack is, not its side effects
    for row in sorted(found, key=lambda row: (telling.get(row[0], 3), row)):
        if row not in expected:
            raise ForeignSchema(row[0], row[1])
    return {name for type_, name, _, _ in found if type_ == "table"}


def _check_plain(blob: bytes, whole: bool, channel: Any, check_values: Callable[[StoredValues, bool], None]) -> None:
    try:
        value = _plain(blob)
    except (ValueError, RecursionError):
        raise UntrustedCheckpoint("unreadable msgpack") from None
    if whole:
        values = value.get("channel_values") if isinstance(value, dict) else None
        check_values(values if isinstance(values, dict) else {}, True)
    elif isinstance(channel, str):
        check_values({channel: value}, False)

"""Checkpoints read with an allow-list: a session folder may come from someone else.

LangGraph's default serializer rebuilds any ``module.callable(args)`` named in a
checkpoint (its "permissive" msgpack mode), so an edited ``checkpoints.sqlite`` would run
code on ``research --resume``. Our state holds plain JSON data; the only typed values
LangGraph itself writes for our graph are the few listed in ``ALLOWED_TYPES``. Anything
else in a checkpoint is refused before a single constructor runs, and the run stops
with one line (exit 2) instead of resuming.
"""

from __future__ import annotations

import json
import sqlite3
import threading
from pathlib import Path
from typing import Any

import ormsgpack
from langgraph.checkpoint.serde import jsonplus
from langgraph.checkpoint.serde._msgpack import SAFE_MSGPACK_METHODS

from research.modules.core.errors import UsageError

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
        super().__init__("security.checkpoint_untrusted", name=_shown(name))


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
    elif (module, name) not in ALLOWED_TYPES:
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


def _hook(code: int, data: bytes) -> Any:
    try:
        return _check_ext(code, data)
    except UntrustedCheckpoint as exc:
        if getattr(_state, "refusal", None) is None:
            _state.refusal = exc
        raise


def _check_json_object(value: dict[str, Any]) -> dict[str, Any]:
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
        super().__init__(pickle_fallback=False, allowed_msgpack_modules=tuple(ALLOWED_TYPES))

    def loads_typed(self, data: tuple[str, bytes]) -> Any:
        check_serialized(*data)
        return super().loads_typed(data)


def verify_checkpoint_file(path: Path) -> None:
    """Check every stored checkpoint and pending write of a session before resuming it.

    Read-only and without LangGraph: nothing named in the file is imported or called.
    """
    if not path.exists():
        return
    try:
        connection = sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True)
    except sqlite3.Error:
        raise UntrustedCheckpoint("unreadable checkpoints.sqlite") from None
    try:
        tables = {row[0] for row in connection.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
        queries = []
        if "checkpoints" in tables:
            queries.append("SELECT type, checkpoint FROM checkpoints")
        if "writes" in tables:
            queries.append("SELECT type, value FROM writes")
        for query in queries:
            for type_, blob in connection.execute(query):
                check_serialized(str(type_ or "null"), bytes(blob or b""))
    except sqlite3.Error:
        raise UntrustedCheckpoint("unreadable checkpoints.sqlite") from None
    finally:
        connection.close()

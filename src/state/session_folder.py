"""HistoryManager: the session folder (DESIGN.md "Session folder").

Every file is written atomically (temp file in the same folder, fsync, rename), so a
crash never leaves half a file; events.jsonl is append-only, one JSON object a line.
meta.json holds what ``research sessions`` lists: question, language, status, counts.
"""

from __future__ import annotations

import fcntl
import json
import os
import re
import secrets
import tempfile
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path
from typing import Any, Iterator

from research.modules.core.errors import UsageError, UserFacingError
from research.modules.text.sanitize import shorten

SESSION_ID = re.compile(r"^\d{8}_\d{6}_[0-9a-f]{6}$")
_ID_FRAGMENT = re.compile(r"^[0-9a-f_]{4,22}$")
LOCK_FILE = ".lock"  # held (flock) by the process running the session
# Statuses of a session that stopped before its report: `research --resume ID` continues it.
RESUMABLE_STATUSES = ("interrupted", "cancelled", "failed")


def now_iso() -> str:
    return datetime.now(timezone.utc).isoformat(timespec="seconds")


@dataclass(frozen=True)
class SessionInfo:
    session_id: str
    path: Path


class HistoryManager:
    def __init__(self, sessions_dir: Path) -> None:
        self.root = Path(sessions_dir).expanduser()

    # --- creating and finding sessions -------------------------------------------
    def create(self, *, question: str, language: str, model: str, parent: str | None = None) -> SessionInfo:
        try:
            self.root.mkdir(parents=True, exist_ok=True)
            for _ in range(20):
                stamp = datetime.now().strftime("%Y%m%d_%H%M%S")
                session_id = f"{stamp}_{secrets.token_hex(3)}"
                path = self.root / f"session_{session_id}"
                try:
                    path.mkdir()  # exist_ok=False: two processes never share a folder
                    break
                except FileExistsError:
                    continue
            else:  # pragma: no cover - 20 collisions of 24 random bits
                raise OSError("could not allocate a unique session folder")
            (path / "sources").mkdir()
        except OSError as exc:
            raise UserFacingError("session.not_writable", path=str(self.root), reason=exc.strerror or str(exc)) from None
        meta = {
            "session_id": session_id,
            "question": question,
            "language": language,
            "model": model,
            "parent_session": parent,
            "created_at": now_iso(),
            "status": "running",
        }
        self.write_json(session_id, "meta.json", meta)
        return SessionInfo(session_id, path)

    def resolve(self, ref: str) -> SessionInfo:
        """Find a session by id, folder name or a unique fragment of its id.

        Anything that could escape the sessions folder is refused as a usage error.
        """
        ref = ref.strip().removeprefix("session_")
        if not _ID_FRAGMENT.match(ref):
            # Echo at most 40 characters: an id is typed or pasted, and may be anything.
            raise UsageError("usage.bad_session_id", session_id=shorten(ref))
        exact = self.root / f"session_{ref}"
        if SESSION_ID.match(ref) and exact.is_dir():
            return SessionInfo(ref, exact)
        matches = [p for p in self._session_dirs() if ref in p.name]
        if len(matches) != 1:
            raise UsageError("usage.unknown_session", session_id=ref, sessions_dir=str(self.root))
        return SessionInfo(matches[0].name.removeprefix("session_"), matches[0])

    def path(self, session_id: str) -> Path:
        if not SESSION_ID.match(session_id):
            raise UsageError("usage.bad_session_id", session_id=shorten(session_id))
        return self.root / f"session_{session_id}"

    def list_sessions(self) -> list[dict[str, Any]]:
        """Sessions newest first, from their meta.json (folders without one are skipped).

        A session whose meta.json still says "running" but whose lock no process holds was
        killed (kill -9, power cut): it is listed as "interrupted", which it is."""
        sessions = []
        for folder in self._session_dirs():
            meta = _read_json(folder / "meta.json")
            if meta:
                meta["session_dir"] = str(folder)
                meta["status"] = effective_status(folder, meta.get("status"))
                sessions.append(meta)
        return sorted(sessions, key=lambda m: m.get("session_id", ""), reverse=True)

    def _session_dirs(self) -> list[Path]:
        if not self.root.is_dir():
            return []
        return [p for p in self.root.iterdir() if p.is_dir() and SESSION_ID.match(p.name.removeprefix("session_"))]

    # --- files ---------------------------------------------------------------------
    def write_text(self, session_id: str, name: str, text: str) -> Path:
        return self.write_bytes(session_id, name, text.encode("utf-8"))

    def write_json(self, session_id: str, name: str, obj: Any) -> Path:
        text = json.dumps(obj, ensure_ascii=False, indent=2, default=str)
        return self.write_text(session_id, name, text + "\n")

    def write_bytes(self, session_id: str, name: str, data: bytes) -> Path:
        target = self.path(session_id) / name
        atomic_write(target, data)
        return target

    def read_json(self, session_id: str, name: str, default: Any = None) -> Any:
        data = _read_json(self.path(session_id) / name)
        return default if data is None else data

    def update_meta(self, session_id: str, **fields: Any) -> None:
        meta = self.read_json(session_id, "meta.json", {})
        meta.update(fields)
        self.write_json(session_id, "meta.json", meta)

    def append_event(self, session_id: str, event: str, **fields: Any) -> None:
        record = {"time": now_iso(), "event": event, **fields}
        line = json.dumps(record, ensure_ascii=False, default=str) + "\n"
        # O_APPEND writes of one short line are atomic on POSIX; no torn lines on a crash.
        fd = os.open(self.path(session_id) / "events.jsonl", os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
        try:
            os.write(fd, line.encode("utf-8"))
        finally:
            os.close(fd)

    def lock(self, session_id: str):
        """Context manager: this process is the session's only writer (see ``session_lock``)."""
        return session_lock(self.path(session_id), session_id)

    def remove_stale_temp_files(self, session_id: str) -> int:
        """Delete temp files a killed process left behind (this module's ``.name.XXXX.tmp``
        and the fetch cache's ``.tmp-XXXX``); the renamed-into-place files are complete,
        so a temp file is never the only copy of anything. Returns how many were removed."""
        removed = 0
        for folder in (self.path(session_id), self.path(session_id) / "sources"):
            if not folder.is_dir():
                continue
            for entry in folder.iterdir():
                if entry.is_file() and entry.name.startswith(".") and (
                        entry.name.endswith(".tmp") or entry.name.startswith(".tmp-")):
                    entry.unlink(missing_ok=True)
                    removed += 1
        return removed

    def events(self, session_id: str) -> list[dict[str, Any]]:
        path = self.path(session_id) / "events.jsonl"
        if not path.exists():
            return []
        out = []
        for line in path.read_text("utf-8").splitlines():
            try:
                out.append(json.loads(line))
            except json.JSONDecodeError:
                continue  # a line cut by a crash mid-write (should not happen with O_APPEND)
        return out


def atomic_write(target: Path, data: bytes) -> None:
    """Write ``data`` to ``target`` whole or not at all, and durably.

    The file is fsynced before the rename (no empty file after a power cut) and the
    folder after it (the rename itself survives one): the only write path for session
    files and the fetch cache.
    """
    target = Path(target)
    target.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=target.parent)
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(tmp, target)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise
    fsync_directory(target.parent)


def fsync_directory(folder: Path) -> None:
    """Make a rename or a new file in ``folder`` durable; a no-op where folders cannot be opened."""
    try:
        fd = os.open(folder, os.O_RDONLY | getattr(os, "O_DIRECTORY", 0))
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:  # some filesystems (and Windows) refuse fsync on a folder
        pass
    finally:
        os.close(fd)


@contextmanager
def session_lock(folder: Path, session_id: str) -> Iterator[None]:
    """Hold an exclusive flock on ``folder/.lock`` while a process writes the session.

    The kernel releases a flock when its holder dies, so a lock left by a kill -9 is
    free again at once; the file itself staying behind means nothing. The descriptor
    is not inherited by the MCP servers (Python opens files non-inheritable).
    """
    fd = os.open(folder / LOCK_FILE, os.O_RDWR | os.O_CREAT, 0o644)
    try:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            raise UsageError("security.session_locked", session_id=session_id) from None
        os.ftruncate(fd, 0)
        os.write(fd, f"{os.getpid()}\n".encode())
        yield
    finally:
        os.close(fd)  # closing drops the lock


def lock_held(folder: Path) -> bool:
    """True while some process holds the session's lock, i.e. the run is really running."""
    try:
        fd = os.open(folder / LOCK_FILE, os.O_RDWR)
    except OSError:
        return False
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        return True
    except OSError:
        return False
    else:
        fcntl.flock(fd, fcntl.LOCK_UN)
        return False
    finally:
        os.close(fd)


def effective_status(folder: Path, status: Any) -> str:
    """meta.json's status, except that a "running" session nobody runs is "interrupted"."""
    status = str(status or "")
    if status == "running" and not lock_held(folder):
        return "interrupted"
    return status


def _read_json(path: Path) -> Any:
    try:
        return json.loads(path.read_text("utf-8"))
    except (OSError, json.JSONDecodeError):
        return None

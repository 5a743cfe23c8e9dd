"""HistoryManager: the session folder (DESIGN.md "Session folder").

Every file is written atomically (temp file in the same folder, fsync, rename), so a
crash never leaves half a file; events.jsonl is append-only, one JSON object a line.
meta.json holds what ``research sessions`` lists: question, language, status, counts.

A session folder may come from someone else (the README says it can be shared), so it
is data, never a pointer to the user's files: nothing here is read or written through a
symbolic link (``O_NOFOLLOW``), only regular files are read (a FIFO or ``/dev/zero``
planted under a session's file name is refused, not waited on or read forever), and
every read is capped (``read_session_bytes``).
"""

from __future__ import annotations

import errno
import fcntl
import hashlib
import json
import os
import re
import secrets
import stat
from contextlib import AbstractContextManager, contextmanager
from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path
from typing import Any, Callable, Iterable, Iterator, Mapping

from research.modules.core.errors import UsageError, UserFacingError
from research.modules.core.files import atomic_write, fsync_directory  # noqa: F401 - the session's writes, and re-exported
from research.modules.core.language import Language
from research.modules.core.urls import canonical_url
from research.modules.text.sanitize import one_line, shorten
from research.state.run_record import JsonObject, SessionRecord
from research.state.status import SessionStatus

SESSION_ID = re.compile(r"^\d{8}_\d{6}_[0-9a-f]{6}$")
_ID_FRAGMENT = re.compile(r"^[0-9a-f_]{4,22}$")
LOCK_FILE = ".lock"  # held (flock) by the process running the session
SESSION_LOCKED = "session_folder.locked"  # the error when another process holds it
# Statuses of a session that stopped before its report: `research --resume ID` continues it.
RESUMABLE_STATUSES = (SessionStatus.INTERRUPTED, SessionStatus.CANCELLED, SessionStatus.FAILED)
# The session has its report: nothing to resume.
FINISHED_STATUSES = (SessionStatus.DONE, SessionStatus.NO_EVIDENCE)
# Caps on what is read from a session file: meta.json is a few kilobytes when we write it;
# a report, ledger or progress.md of a deep run stays well under the general cap.
META_READ_LIMIT = 1 << 20
SESSION_READ_LIMIT = 64 << 20
_NOFOLLOW = getattr(os, "O_NOFOLLOW", 0)
_NONBLOCK = getattr(os, "O_NONBLOCK", 0)


class UnsafeSessionFile(OSError):
    """A session file that is a link, not a regular file, or larger than the cap: not read.

    An ``OSError``, so every caller that already treats an unreadable file as absent does
    the same with a hostile one."""


def now_iso() -> str:
    return datetime.now(timezone.utc).isoformat(timespec="seconds")


@dataclass(frozen=True)
class SessionInfo:
    session_id: str
    path: Path


class HistoryManager:
    def __init__(self, sessions_dir: Path, guard: Callable[[], None] | None = None) -> None:
        self.root = Path(sessions_dir).expanduser()
        # Called before every write into a session: raises when this process may no longer
        # write for the run (a team worker whose claim on it lapsed, docs/scale.md "Fencing").
        self.guard = guard

    # --- creating and finding sessions -------------------------------------------
    def create(self, *, question: str, language: Language, model: str, parent: str | None = None) -> SessionInfo:
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
        record = SessionRecord(session_id=session_id, question=question, language=language, model=model,
                               parent_session=parent, created_at=now_iso(), status=SessionStatus.RUNNING)
        self.write_json(session_id, "meta.json", record.model_dump(mode="json"))
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
        if SESSION_ID.match(ref) and exact.is_dir() and not exact.is_symlink():
            return SessionInfo(ref, exact)
        matches = [p for p in self._session_dirs() if ref in p.name]
        if len(matches) != 1:
            raise UsageError("usage.unknown_session", session_id=ref, sessions_dir=str(self.root))
        return SessionInfo(matches[0].name.removeprefix("session_"), matches[0])

    def path(self, session_id: str) -> Path:
        if not SESSION_ID.match(session_id):
            raise UsageError("usage.bad_session_id", session_id=shorten(session_id))
        return self.root / f"session_{session_id}"

    def list_sessions(self) -> list[JsonObject]:
        """Sessions newest first, from their meta.json (folders without one are skipped).

        A session whose meta.json still says "running" but whose lock no process holds was
        killed (kill -9, power cut): it is listed as "interrupted", which it is. One bad
        folder never stops the listing: a meta.json that is not ours (a list, a number, a
        link, a FIFO, a dict where the question goes) lists that session as "damaged"."""
        sessions = []
        for folder in self._session_dirs():
            meta = listed_meta(folder)
            if meta is not None:
                sessions.append(meta)
        return sorted(sessions, key=lambda m: m["session_id"], reverse=True)

    def _session_dirs(self) -> list[Path]:
        """The session folders under the root: real folders only, never a link to one."""
        try:
            entries = list(os.scandir(self.root))
        except OSError:
            return []
        return [Path(entry.path) for entry in entries
                if SESSION_ID.match(entry.name.removeprefix("session_")) and _is_real_dir(entry)]

    # --- files ---------------------------------------------------------------------
    def write_text(self, session_id: str, name: str, text: str) -> Path:
        return self.write_bytes(session_id, name, text.encode("utf-8"))

    def write_json(self, session_id: str, name: str, obj: Any) -> Path:
        text = json.dumps(obj, ensure_ascii=False, indent=2, default=str)
        return self.write_text(session_id, name, text + "\n")

    def write_bytes(self, session_id: str, name: str, data: bytes) -> Path:
        if self.guard is not None:
            self.guard()
        target = self.path(session_id) / name
        atomic_write(target, data)
        return target

    def read_json(self, session_id: str, name: str, default: Any = None, *, expect: type = object) -> Any:
        """A JSON file of the session, or ``default`` when it is absent, unreadable, not
        JSON, a link or special file, over the cap, or not of the ``expect``ed type."""
        limit = META_READ_LIMIT if name == "meta.json" else SESSION_READ_LIMIT
        data = _read_json(self.path(session_id) / name, limit)
        if name == "meta.json" and expect is object:
            expect = dict
        return data if isinstance(data, expect) else default

    def read_text(self, session_id: str, name: str, limit: int = SESSION_READ_LIMIT) -> str | None:
        """A text file of the session (``read_session_bytes``'s rules), None when it cannot be read."""
        try:
            return read_session_bytes(self.path(session_id) / name, limit).decode("utf-8", errors="replace")
        except OSError:
            return None

    def update_meta(self, session_id: str, **fields: Any) -> None:
        """Set these fields of meta.json (``SessionRecord``'s, checked; the file's other keys kept)."""
        meta = self.read_json(session_id, "meta.json", {})
        meta.update(SessionRecord.fields(**fields))
        self.write_json(session_id, "meta.json", meta)

    def append_event(self, session_id: str, event: str, **fields: Any) -> None:
        if self.guard is not None:
            self.guard()
        record = {"time": now_iso(), "event": event, **fields}
        line = json.dumps(record, ensure_ascii=False, default=str) + "\n"
        # O_APPEND writes of one short line are atomic on POSIX; no torn lines on a crash.
        # O_NOFOLLOW: an events.jsonl planted as a link never appends to its target.
        fd = _open_regular(self.path(session_id) / "events.jsonl", os.O_WRONLY | os.O_APPEND | os.O_CREAT)
        try:
            os.write(fd, line.encode("utf-8"))
        finally:
            os.close(fd)

    def lock(self, session_id: str) -> AbstractContextManager[None]:
        """Context manager: this process is the session's only writer (see ``session_lock``)."""
        return session_lock(self.path(session_id), session_id)

    def remove_stale_temp_files(self, session_id: str) -> int:
        """Delete temp files a killed process left behind (this module's ``.name.XXXX.tmp``
        and the fetch cache's ``.tmp-XXXX``); the renamed-into-place files are complete,
        so a temp file is never the only copy of anything. Returns how many were removed."""
        removed = 0
        for folder in (self.path(session_id), self.path(session_id) / "sources"):
            if folder.is_symlink() or not folder.is_dir():
                continue  # a linked sources/ is someone else's folder: nothing in it is ours to delete
            with os.scandir(folder) as entries:
                for entry in entries:
                    if entry.is_file(follow_symlinks=False) and entry.name.startswith(".") and (
                            entry.name.endswith(".tmp") or entry.name.startswith(".tmp-")):
                        os.unlink(entry.path)
                        removed += 1
        return removed

    def events(self, session_id: str) -> list[JsonObject]:
        text = self.read_text(session_id, "events.jsonl")
        out = []
        for line in (text or "").splitlines():
            try:
                record = json.loads(line)
            except json.JSONDecodeError:
                continue  # a line cut by a crash mid-write (should not happen with O_APPEND)
            if isinstance(record, dict):
                out.append(record)
        return out

    def check_folder(self, session: SessionInfo) -> None:
        """Refuse (usage error) a session folder whose files are links or special files.

        Run before a session is resumed: a shared folder whose ``.lock``, ``events.jsonl``,
        ``checkpoints.sqlite`` or ``sources/`` points elsewhere would otherwise have the
        run write (truncate, append, create tables, delete) through the link."""
        for name in SESSION_FILES:
            path = session.path / name
            try:
                info = os.lstat(path)
            except FileNotFoundError:
                continue
            except OSError:
                    raise UsageError("session_folder.unsafe_file", session_id=session.session_id, name=name) from None
            wanted = stat.S_ISDIR if name == "sources" else stat.S_ISREG
            if not wanted(info.st_mode):
                raise UsageError("session_folder.unsafe_file", session_id=session.session_id, name=name)


# Every name the program writes or reads in a session folder (DESIGN.md "Session folder").
SESSION_FILES = (
    LOCK_FILE, "meta.json", "input.md", "search_results.json", "processed.jsonl", "llm_draft.md",
    "verification.json", "report.md", "report.pdf", "events.jsonl", "progress.md", "error.log",
    "checkpoints.sqlite", "checkpoints.sqlite-journal", "checkpoints.sqlite-wal", "checkpoints.sqlite-shm",
    "sources",
)


def read_session_bytes(path: Path, limit: int = SESSION_READ_LIMIT) -> bytes:
    """The bytes of a session file, read only if it is a regular file (never through a
    link, never a FIFO or device) of at most ``limit`` bytes; ``UnsafeSessionFile`` else."""
    fd = _open_regular(path, os.O_RDONLY)
    try:
        if os.fstat(fd).st_size > limit:
            raise UnsafeSessionFile(f"{path.name} is larger than {limit} bytes")
        chunks, total = [], 0
        while True:
            chunk = os.read(fd, min(1 << 20, limit + 1 - total))
            if not chunk:
                break
            chunks.append(chunk)
            total += len(chunk)
            if total > limit:  # grew while read
                raise UnsafeSessionFile(f"{path.name} is larger than {limit} bytes")
        return b"".join(chunks)
    finally:
        os.close(fd)


def read_ledger(folder: Path) -> list[JsonObject]:
    """processed.jsonl's entries, one per source, read by ``read_session_bytes``'s rules (never
    through a link, never a FIFO); a line that is not a JSON object is skipped, since the
    folder may be shared and its files edited. Empty when there is no readable ledger."""
    try:
        text = read_session_bytes(folder / "processed.jsonl").decode("utf-8", errors="replace")
    except OSError:
        return []
    entries = []
    for line in text.splitlines():
        try:
            entry = json.loads(line)
        except json.JSONDecodeError:
            continue
        if isinstance(entry, dict):
            entries.append(entry)
    return entries


def _open_regular(path: Path, flags: int) -> int:
    """``os.open`` that refuses a link (O_NOFOLLOW) and anything but a regular file.

    O_NONBLOCK keeps the open of a planted FIFO from waiting for a writer; the check on
    the opened descriptor (not the name) leaves no gap for a swap between check and use."""
    try:
        fd = os.open(path, flags | _NOFOLLOW | _NONBLOCK | os.O_CLOEXEC, 0o644)
    except OSError as exc:
        if exc.errno == errno.ELOOP:
            raise UnsafeSessionFile(f"{Path(path).name} is a symbolic link") from None
        raise
    if not stat.S_ISREG(os.fstat(fd).st_mode):
        os.close(fd)
        raise UnsafeSessionFile(f"{Path(path).name} is not a regular file")
    if flags & os.O_WRONLY or flags & os.O_RDWR:
        os.set_blocking(fd, True)
    return fd


def _is_real_dir(entry: os.DirEntry[str]) -> bool:
    try:
        return entry.is_dir(follow_symlinks=False)
    except OSError:
        return False


def listed_meta(folder: Path) -> JsonObject | None:
    """What a listing shows of one session folder: its meta.json with the fields a listing
    reads forced to plain strings, or a "damaged" entry when meta.json is not ours.
    None when the folder has no meta.json at all (not a session yet)."""
    session_id = folder.name.removeprefix("session_")
    path = folder / "meta.json"
    if not os.path.lexists(path):
        return None
    meta = _read_json(path, META_READ_LIMIT)
    if not isinstance(meta, dict):
        return {"session_id": session_id, "question": "", "language": "", "status": SessionStatus.DAMAGED,
                "created_at": "", "session_dir": str(folder)}
    listed = dict(meta)
    for key in ("question", "language", "created_at", "model", "status"):
        value = meta.get(key)
        listed[key] = value if isinstance(value, str) else ""
    if not all(isinstance(meta.get(key), str) for key in ("question", "status")):
        listed["status"] = SessionStatus.DAMAGED
    listed["session_id"] = session_id  # the folder's name, which a meta.json cannot change
    listed["session_dir"] = str(folder)
    if listed["status"] != SessionStatus.DAMAGED:
        listed["status"] = effective_status(folder, listed["status"])
    return listed


@contextmanager
def session_lock(folder: Path, session_id: str) -> Iterator[None]:
    """Hold an exclusive flock on ``folder/.lock`` while a process writes the session.

    The kernel releases a flock when its holder dies, so a lock left by a kill -9 is
    free again at once; the file itself staying behind means nothing. The descriptor
    is not inherited by the MCP servers (Python opens files non-inheritable).
    """
    try:
        fd = _open_regular(folder / LOCK_FILE, os.O_RDWR | os.O_CREAT)
    except UnsafeSessionFile:  # a planted link would have its target truncated to our pid
        raise UsageError("session_folder.unsafe_file", session_id=session_id, name=LOCK_FILE) from None
    try:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            raise UsageError(SESSION_LOCKED, session_id=session_id) from None
        os.ftruncate(fd, 0)
        os.write(fd, f"{os.getpid()}\n".encode())
        yield
    finally:
        os.close(fd)  # closing drops the lock


def lock_held(folder: Path) -> bool:
    """True while some process holds the session's lock, i.e. the run is really running."""
    try:
        fd = _open_regular(folder / LOCK_FILE, os.O_RDONLY)
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
    given = str(status or "")
    if given == SessionStatus.RUNNING and not lock_held(folder):
        return str(SessionStatus.INTERRUPTED)
    return given


def _read_json(path: Path, limit: int = SESSION_READ_LIMIT) -> Any:
    try:
        return json.loads(read_session_bytes(path, limit).decode("utf-8"))
    except (OSError, ValueError, RecursionError):  # ValueError: bad JSON or bad UTF-8
        return None


# --------------------------------------------------------------------------- the source cache's names
# What the fetcher (servers/web/fetcher.py) names a page's bytes in a session's sources/:
# the key of its URL and the suffix of its type. One definition, read by the fetcher that
# writes the entries, the checkpoint check and the processing step that reads them: a
# path in a hit or a checkpoint is used only when it is exactly what the URL already says.
CACHE_SUFFIXES = {"text/html": ".html", "application/pdf": ".pdf", "text/plain": ".txt", "text/markdown": ".md"}
CACHE_OTHER_SUFFIX = ".bin"
_CACHE_ENTRY = re.compile(r"^([0-9a-f]{32})(\.[a-z]{2,4})$")
_ENTRY_SUFFIXES = frozenset(CACHE_SUFFIXES.values()) | {CACHE_OTHER_SUFFIX}


def source_key(url: str) -> str:
    """The key a URL's cache entry is named after: the hash of its canonical form."""
    return hashlib.sha256(canonical_url(url).encode("utf-8")).hexdigest()[:32]


def cache_suffix(media_type: str | None) -> str:
    """The suffix of a cache entry's bytes for a declared media type (charset and all)."""
    mime = (media_type or "").split(";")[0].strip().lower()
    return CACHE_SUFFIXES.get(mime, CACHE_OTHER_SUFFIX)


def is_cache_entry_name(name: Any) -> bool:
    """A bare file name the fetcher could have written: a key and one of its suffixes."""
    match = _CACHE_ENTRY.match(name) if isinstance(name, str) else None
    return match is not None and match.group(2) in _ENTRY_SUFFIXES


def _resolved_path(path: Any) -> Path | None:
    """A path given as data, resolved; None for a non-string, an empty one, a NUL byte or a link."""
    if not isinstance(path, str) or not path or "\x00" in path:
        return None
    try:
        candidate = Path(path)
        return None if candidate.is_symlink() else candidate.resolve()
    except (OSError, RuntimeError):
        return None


def cache_entry(path: Any, sessions_root: Path, *, url: Any = None) -> Path | None:
    """``path`` resolved, when it is a cache entry in some session's ``sources/`` under
    ``sessions_root`` (a follow-up question's hits keep their parent session's paths, so
    any session's), named as the fetcher names it; with ``url``, the entry of that URL and
    no other. None for anything else: a link, ``..``, another file of a session, another
    URL's bytes. The entry is not opened here; its reader opens it without following links."""
    real = _resolved_path(path)
    try:
        relative = real.relative_to(Path(sessions_root).resolve()) if real is not None else None
    except (ValueError, OSError, RuntimeError):
        return None
    if relative is None:
        return None
    parts = relative.parts
    if not (len(parts) == 3 and parts[0].startswith("session_") and parts[1] == "sources"
            and is_cache_entry_name(parts[2])):
        return None
    if url is not None and not (isinstance(url, str) and parts[2].split(".", 1)[0] == source_key(url)):
        return None
    return real


def cache_file(path: Any, sources: Path | None, url: Any) -> Path | None:
    """``path`` resolved, when it is exactly ``url``'s cache entry in the one cache folder
    ``sources`` (a fetcher's own, e.g. a check's temporary one); None otherwise."""
    real = _resolved_path(path) if sources is not None else None
    try:
        if real is None or sources is None or real.parent != Path(sources).resolve():
            return None
    except (OSError, RuntimeError):
        return None
    if not (is_cache_entry_name(real.name) and isinstance(url, str) and real.name.split(".", 1)[0] == source_key(url)):
        return None
    return real

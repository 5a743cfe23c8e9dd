"""Compiled regular expressions kept between starts of the console script.

The text checks compile about 700 patterns when they are imported (word lists written as
alternations, in both languages), and CPython's ``re`` parses each one in Python: 0.16 s of
CPU in every run's main process, on its critical path (measured with a neutral fake model:
about a tenth of the run's wall time). What ``re`` computes from a pattern string is a list
of integers for its C matcher; that list depends only on the pattern, its flags and the
interpreter, so it is kept in the user's cache (``$XDG_CACHE_HOME/research/patterns-*.bin``)
and handed to the matcher directly at the next start. A pattern the file does not hold is
compiled as ``re`` always does and written at the process's end.

Nothing changes for the program: ``re.compile`` still returns a Pattern, still cached in
``re``'s own memory, and a Pattern made from the kept list compares equal to one compiled
afresh (CPython compares the flags, the pattern and the matcher's code). A digest of the
file refuses a torn or edited one, the matcher checks the code it is given, and any failure
falls back to ``re``'s own compilation. The file is keyed by the interpreter's version and
the matcher's magic number: another Python never reads it. Only the console script's own
process uses it (``cli/main.py``), never a sandboxed parser or a test process that imports
the package.
"""

from __future__ import annotations

import contextlib
import hashlib
import marshal
import os
import re
import sys
from array import array
from pathlib import Path
from typing import Any, Callable

try:  # CPython's internals; on an interpreter without them nothing is installed
    import _sre
    from re import _compiler, _parser  # type: ignore[attr-defined]
except ImportError:  # pragma: no cover - other interpreters
    _sre = _compiler = _parser = None  # type: ignore[assignment]

# Entries kept at most (a run compiles about 700): patterns of older releases of the program, and
# whatever a library compiles, accumulate otherwise.
_MOST_ENTRIES = 1500
# A start that compiled fewer patterns afresh than this does not write the file: they cost less
# than writing it again, and a library or two builds a pattern from a set, whose order (and so
# the pattern) differs in every process (markdown-it's inline characters, tokenize's prefixes).
_WORTH_WRITING = 16
_CODE_TYPE = "I"  # the matcher's code words are 32-bit unsigned
# The file: this tag, the index's length (8 bytes, little-endian), a digest of the rest, the
# index (marshal: the pattern's key → its flags, where its code is in the rest, its size and
# its groups), then every pattern's code, one after another. A file whose digest does not
# match (a torn disk write, an edit) is not used at all. Only the index is read at the start; each
# pattern's code is read when the pattern is compiled, so what a run holds in memory is the
# index, not every pattern that earlier runs compiled (a forked server would keep a copy).
_TAG = b"research-patterns-2\n"
_DIGEST_BYTES = 16


class _State:
    installed_by: int | None = None  # the pid that installed it: only that process uses or writes the file
    path: Path | None = None
    fd: int | None = None  # the open file whose code the index points into
    index: dict[bytes, tuple[Any, ...]] = {}
    body_at = 0  # where the code starts in the file
    used: set[bytes] = set()  # the keys this process compiled
    afresh: dict[bytes, tuple[tuple[Any, ...], bytes]] = {}  # compiled without the file: (entry, code)
    original: Callable[..., Any] | None = None


def cache_file() -> Path:
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    version = hashlib.blake2b(f"{sys.version}|{getattr(_sre, 'MAGIC', '')}".encode(), digest_size=6).hexdigest()
    return Path(base) / "research" / f"patterns-{version}.bin"


def _key(pattern: str, flags: int) -> bytes:
    return hashlib.blake2b(pattern.encode("utf-8", "surrogatepass") + b"\0" + str(flags).encode(),
                           digest_size=16).digest()


def _compiled_afresh(pattern: str, flags: int) -> tuple[tuple[Any, ...], bytes]:
    """What ``re._compiler.compile`` hands the matcher: (flags, groups, group names by name
    and by number) and the code as bytes."""
    tree = _parser.parse(pattern, flags)
    code = _compiler._code(tree, flags)
    groupindex = dict(tree.state.groupdict)
    indexgroup: list[str | None] = [None] * tree.state.groups
    for name, index in groupindex.items():
        indexgroup[index] = name
    return (int(flags | tree.state.flags), tree.state.groups - 1, groupindex, tuple(indexgroup)), \
        array(_CODE_TYPE, code).tobytes()


def _matcher(pattern: str, entry: tuple[Any, ...], code: bytes) -> Any:
    final_flags, groups, groupindex, indexgroup = entry
    return _sre.compile(pattern, final_flags, array(_CODE_TYPE, code).tolist(), groups, groupindex, indexgroup)


def _kept_code(key: bytes) -> tuple[tuple[Any, ...], bytes] | None:
    where = _State.index.get(key)
    if where is None or _State.fd is None:
        return None
    final_flags, offset, size, groups, groupindex, indexgroup = where
    code = os.pread(_State.fd, size, _State.body_at + offset)
    return ((final_flags, groups, groupindex, indexgroup), code) if len(code) == size else None


def _compile(pattern: Any, flags: int = 0) -> Any:
    original = _State.original
    assert original is not None
    if not isinstance(pattern, str) or flags & re.DEBUG or os.getpid() != _State.installed_by:
        return original(pattern, flags)  # a forked child (a standby server) compiles as re does
    key = _key(pattern, flags)
    try:
        kept = _State.afresh.get(key) or _kept_code(key)
        if kept is not None:
            compiled = _matcher(pattern, *kept)
            _State.used.add(key)
            return compiled
    except Exception:  # a damaged or foreign entry (the matcher checks the code): compile as re does
        pass
    try:
        entry, code = _compiled_afresh(pattern, flags)
        compiled = _matcher(pattern, entry, code)
    except Exception:  # a bad pattern: let re raise its own error
        return original(pattern, flags)
    _State.afresh[key] = (entry, code)
    _State.used.add(key)
    return compiled


def _digest(data: bytes | bytearray) -> bytes:
    return hashlib.blake2b(data, digest_size=_DIGEST_BYTES).digest()


def _open(path: Path) -> int:
    """The file, opened on a descriptor above the standard three: the console script may
    start with one of them closed, and puts /dev/null there only after its imports."""
    import fcntl

    fd = os.open(path, os.O_RDONLY | os.O_CLOEXEC)
    if fd > 2:
        return fd
    try:
        return fcntl.fcntl(fd, fcntl.F_DUPFD_CLOEXEC, 3)
    finally:
        os.close(fd)


def _read(fd: int) -> tuple[dict[bytes, tuple[Any, ...]], int]:
    """The index and where the code starts; an empty index for a file of another form or
    whose digest does not match (the whole file is read once for it: about 1 MB, 1 ms)."""
    with open(fd, "rb", closefd=False) as stream:
        head = stream.read(len(_TAG) + 8 + _DIGEST_BYTES)
        rest = stream.read()
    if len(head) != len(_TAG) + 8 + _DIGEST_BYTES or not head.startswith(_TAG):
        return {}, 0
    size = int.from_bytes(head[len(_TAG):len(_TAG) + 8], "little")
    if _digest(rest) != head[-_DIGEST_BYTES:] or size > len(rest):
        return {}, 0
    index = marshal.loads(rest[:size])
    return (index if isinstance(index, dict) else {}), len(head) + size


def install(path: Path | None = None) -> bool:
    """Read the kept patterns' index and make ``re`` use it; False where this interpreter
    lacks what it needs (or it is installed already)."""
    if _sre is None or _State.original is not None or array(_CODE_TYPE).itemsize != 4:
        return False
    if not all(hasattr(module, name) for module, name in
               ((_compiler, "compile"), (_compiler, "_code"), (_parser, "parse"), (_sre, "compile"))):
        return False
    _State.path = path or cache_file()
    try:
        _State.fd = _open(_State.path)
        _State.index, _State.body_at = _read(_State.fd)
    except (OSError, EOFError, ValueError, TypeError):
        _State.index, _State.body_at = {}, 0
    _State.used, _State.afresh = set(), {}
    _State.original = _compiler.compile
    _State.installed_by = os.getpid()
    _compiler.compile = _compile
    return True


def save() -> None:
    """Write the file again if this process compiled patterns it did not hold (best effort:
    a cache that cannot be written is only slower next time)."""
    if _State.installed_by != os.getpid() or len(_State.afresh) < _WORTH_WRITING or _State.path is None:
        return
    keep = _State.index if len(_State.index) + len(_State.afresh) <= _MOST_ENTRIES else \
        {key: where for key, where in _State.index.items() if key in _State.used}
    index: dict[bytes, tuple[Any, ...]] = {}
    body = bytearray()
    temporary = _State.path.with_name(f"{_State.path.name}.{os.getpid()}.tmp")
    try:
        for key in keep:
            kept = _kept_code(key)
            if kept is not None:
                entry, code = kept
                index[key] = (entry[0], len(body), len(code), *entry[1:])
                body += code
        for key, (entry, code) in _State.afresh.items():
            index[key] = (entry[0], len(body), len(code), *entry[1:])
            body += code
        written = marshal.dumps(index)
        _State.path.parent.mkdir(parents=True, exist_ok=True)
        rest = written + body
        with open(temporary, "wb") as stream:
            stream.write(_TAG + len(written).to_bytes(8, "little") + _digest(rest) + rest)
        os.replace(temporary, _State.path)  # a reader sees the old file or the new one, never half
    except (OSError, ValueError):
        return
    finally:  # also when a signal's exception comes through: no half-written file is left
        with contextlib.suppress(OSError):
            temporary.unlink(missing_ok=True)
    _State.afresh = {}


def uninstall() -> None:
    """Give ``re`` its own compilation back (tests)."""
    if _State.original is not None:
        _compiler.compile = _State.original
    if _State.fd is not None:
        os.close(_State.fd)
    _State.original = _State.installed_by = _State.path = _State.fd = None
    _State.index, _State.used, _State.afresh, _State.body_at = {}, set(), {}, 0

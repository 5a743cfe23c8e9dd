"""Writing a file a user keeps: whole or not at all, and durably.

In core because every process writes such files (the session folder, report.pdf, the fetch
and font caches, the token file, ``-o`` copies) and the report writer must not reach up into
the session folder's module for it.
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path


def atomic_write(target: Path, data: bytes, *, mode: int | None = None) -> None:
    """Write ``data`` to ``target`` whole or not at all, and durably.

    The file is fsynced before the rename (no empty file after a power cut) and the
    folder after it (the rename itself survives one): the only write path for every file
    a user keeps (session files, report.pdf, the fetch and font caches, tokens, ``-o``
    copies). It is private (0600) unless ``mode`` says otherwise.
    """
    target = Path(target)
    target.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=target.parent)
    try:
        with os.fdopen(fd, "wb") as handle:
            if mode is not None:
                os.fchmod(handle.fileno(), mode)
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

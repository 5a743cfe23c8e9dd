"""Open a file (report.pdf) with the system's viewer, detached from the terminal."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

# Openers tried in order on Linux and other Unixes; wslview opens files from WSL in Windows.
_UNIX_OPENERS = (("xdg-open",), ("gio", "open"), ("wslview",))
# xdg-open returns at once after handing off; a quick non-zero exit means no viewer.
_HANDOFF_WAIT_S = 1.5


def viewer_command(platform: str | None = None) -> list[str] | None:
    """The command that opens a file on ``platform`` (default: this one), or None."""
    platform = platform or sys.platform
    if platform == "darwin":
        return ["open"] if shutil.which("open") else None
    for opener in _UNIX_OPENERS:
        executable = shutil.which(opener[0])
        if executable:
            return [executable, *opener[1:]]
    return None


def open_in_viewer(path: Path) -> bool:
    """Open ``path`` with the default application. False when no viewer exists or it
    refused the file; the caller then prints the path instead."""
    path = Path(path)
    if not path.exists():
        return False
    if sys.platform.startswith("win"):
        try:
            os.startfile(str(path))  # type: ignore[attr-defined]  # Windows only
            return True
        except OSError:
            return False
    command = viewer_command()
    if command is None:
        return False
    try:
        process = subprocess.Popen(
            [*command, str(path)],
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            start_new_session=True,  # the viewer outlives the research process and its Ctrl-C
        )
    except OSError:
        return False
    try:
        return process.wait(timeout=_HANDOFF_WAIT_S) == 0
    except subprocess.TimeoutExpired:
        return True  # still running: a viewer is showing the file

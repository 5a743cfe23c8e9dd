"""How a server process ends: at once, its streams flushed, without the interpreter's teardown.

Its own module, with no import of the MCP SDK, so that the zygote (``servers/zygote.py``),
which ends its forked servers this way whatever module they run, does not import the SDK for it.
"""

from __future__ import annotations

import os
import sys
from typing import NoReturn


def exit_now(code: int) -> NoReturn:
    """End a server process the moment its client is done: stdin closed, nothing left to
    send. Skips the interpreter's teardown (seconds of module and thread clean-up), which
    would otherwise make the client wait or kill us. Only for a process started as a server."""
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except (OSError, ValueError):
            pass
    os._exit(code)

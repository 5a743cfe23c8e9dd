"""SIGTERM and SIGHUP end what the current task does the way Ctrl-C does: the task is cancelled,
so a run records its session as "interrupted" and closes its servers, and the user gets one line
(exit 143 / 129). One way of doing it for `research "…"` and `research bench`."""

from __future__ import annotations

import asyncio
import signal
from typing import Callable


def cancel_on_signals(first_stop: Callable[[str], bool]) -> None:
    """Cancel the running task on SIGTERM or SIGHUP. ``first_stop(name)`` records which signal
    stopped it and returns False when an earlier one already did (then nothing more happens)."""
    loop = asyncio.get_running_loop()
    task = asyncio.current_task()

    def stop(name: str) -> None:
        if task is not None and first_stop(name):
            task.cancel()

    for name in ("SIGTERM", "SIGHUP"):
        number = getattr(signal, name, None)
        if number is not None:
            try:
                loop.add_signal_handler(number, stop, name)
            except (ValueError, RuntimeError, NotImplementedError):  # not the main thread
                pass

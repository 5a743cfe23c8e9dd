"""The one logging configuration: every process logs through the standard ``logging``
module under the ``research`` logger, and this decides where it goes and how much.

By default only warnings reach stderr. ``--verbose`` (info) or ``RESEARCH_LOG_LEVEL``
(debug, info, warning, error) shows what a run did: each step with its time, each model
call with its role, tokens, time and retries, server starts and restarts, and a team
worker's claims and hand-backs. A line is always one line with no terminal control in it:
it may quote a page's title or a model's words.
"""

from __future__ import annotations

import logging
import sys
from typing import TextIO

from research.modules.core.grammar import strip_controls

ROOT = "research"
LEVELS = ("debug", "info", "warning", "error")
DEFAULT_LEVEL = "warning"


class _OneCleanLine(logging.Formatter):
    def format(self, record: logging.LogRecord) -> str:
        return strip_controls(super().format(record), keep_newlines=False)


class _Handler(logging.StreamHandler):  # type: ignore[type-arg]
    """Ours, so configuring again replaces it instead of adding a second."""

    def handleError(self, record: logging.LogRecord) -> None:
        # stderr gone (a closed pipe, a full disk): the log is not worth a traceback.
        pass


def configure(level: str | None = None, stream: TextIO | None = None, *, verbose: bool = False) -> logging.Logger:
    """Send the program's log lines at ``level`` or above to ``stream`` (stderr);
    ``verbose`` (--verbose, the REPL's /verbose) shows at least what a run did (info)."""
    name = (level or DEFAULT_LEVEL).lower()
    if name not in LEVELS:
        name = DEFAULT_LEVEL
    if verbose and LEVELS.index(name) > LEVELS.index("info"):
        name = "info"
    logger = logging.getLogger(ROOT)
    for handler in [h for h in logger.handlers if isinstance(h, _Handler)]:
        logger.removeHandler(handler)
    handler = _Handler(stream or sys.stderr)
    handler.setFormatter(_OneCleanLine("%(asctime)s %(levelname)s %(name)s: %(message)s", "%H:%M:%S"))
    logger.addHandler(handler)
    logger.setLevel(name.upper())
    return logger

"""The one logging configuration: every process logs through the standard ``logging``
module under the ``research`` logger, and this decides where it goes and how much.

By default only warnings reach stderr. ``--verbose`` (info) or ``RESEARCH_LOG_LEVEL``
(debug, info, warning, error) shows what a run did: each step with its time, each model
call with its role, tokens, time and retries, server starts and restarts, and a team
worker's claims and hand-backs. A line is always one line with no terminal control in it:
it may quote a page's title or a model's words. Our own lines are message keys (``said``,
messages/logs.py) written in the run's language, as everything else it says; a library's
lines stay as the library wrote them.
"""

from __future__ import annotations

import logging
import sys
from dataclasses import dataclass, field
from typing import Any, TextIO

from research.modules.core.grammar import strip_controls
from research.modules.core.language import Language

ROOT = "research"
LEVELS = ("debug", "info", "warning", "error")
DEFAULT_LEVEL = "warning"


@dataclass(frozen=True)
class Said:
    """A log line as a message key and its values (``log.*``, messages/logs.py), written in the
    language ``configure`` was given; read as text anywhere else (a test's capture), English."""

    key: str
    params: dict[str, Any] = field(default_factory=dict)

    def text(self, lang: Language) -> str:
        from research.modules.core.i18n import t

        def written(value: Any) -> Any:
            if isinstance(value, Said):
                return value.text(lang)
            return "".join(part.text(lang) for part in value) if isinstance(value, tuple) else value

        return t(self.key, lang, **{name: written(value) for name, value in self.params.items()})

    def __str__(self) -> str:
        return self.text("en")


def said(key: str, **params: Any) -> Said:
    """``log.info(said("log.step_started", step=…))``: a ``Said`` as a value is written in the
    same language, a tuple of them part after part."""
    return Said(key, params)


class _OneCleanLine(logging.Formatter):
    def __init__(self, fmt: str, datefmt: str, lang: Language) -> None:
        super().__init__(fmt, datefmt)
        self.lang = lang

    def format(self, record: logging.LogRecord) -> str:
        if isinstance(record.msg, Said):  # a copy: another handler reads the record as it was
            record = logging.makeLogRecord({**record.__dict__, "msg": record.msg.text(self.lang), "args": None})
        return strip_controls(super().format(record), keep_newlines=False)


class _Handler(logging.StreamHandler):  # type: ignore[type-arg]
    """Ours, so configuring again replaces it instead of adding a second."""

    def handleError(self, record: logging.LogRecord) -> None:
        # stderr gone (a closed pipe, a full disk): the log is not worth a traceback.
        pass


def configure(level: str | None = None, stream: TextIO | None = None, *, verbose: bool = False,
              lang: Language | None = None) -> logging.Logger:
    """Send the program's log lines at ``level`` or above to ``stream`` (stderr), in ``lang``
    (the run's messages'; else the locale's); ``verbose`` (--verbose, the REPL's /verbose)
    shows at least what a run did (info)."""
    from research.modules.core.language import choose_language

    name = (level or DEFAULT_LEVEL).lower()
    if name not in LEVELS:
        name = DEFAULT_LEVEL
    if verbose and LEVELS.index(name) > LEVELS.index("info"):
        name = "info"
    logger = logging.getLogger(ROOT)
    for handler in [h for h in logger.handlers if isinstance(h, _Handler)]:
        logger.removeHandler(handler)
    handler = _Handler(stream or sys.stderr)
    handler.setFormatter(_OneCleanLine("%(asctime)s %(levelname)s %(name)s: %(message)s", "%H:%M:%S",
                                       choose_language(lang)))
    logger.addHandler(handler)
    logger.setLevel(name.upper())
    return logger

"""A session's status: one enum for every place that writes or reads meta.json's "status".

Kept in a module of its own, with nothing else imported, so the CLI's subcommands can name
the statuses without loading the session folder code.
"""

from __future__ import annotations

from enum import StrEnum


class SessionStatus(StrEnum):
    """A session's status in meta.json. A str, so meta.json, --json and the MCP results keep
    the same plain strings; code compares members, never spellings."""

    RUNNING = "running"
    DONE = "done"
    NO_EVIDENCE = "no_evidence"  # the report was written, saying no evidence was found
    CANCELLED = "cancelled"  # Ctrl-C
    INTERRUPTED = "interrupted"  # SIGTERM/SIGHUP, a dead stderr, or killed with no one left to say so
    FAILED = "failed"
    DAMAGED = "damaged"  # a meta.json that is not ours: listed, never resumed

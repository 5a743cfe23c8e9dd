"""The code that parses one document, run in a short-lived child of the parser server.

Each document gets its own process forked from a pre-warmed fork server, with its own
address-space, CPU-time and file-size limits. A hostile document (a decompression bomb,
markup nested 60,000 levels deep) can exhaust only that child: it dies or raises, the
server reports a clear reason, and the next document starts from a clean fork.
"""

from __future__ import annotations

import base64
import math
import os
import resource
import signal
import time
from dataclasses import dataclass
from multiprocessing.connection import Connection
from typing import Any

MB = 1024 * 1024
# Markdown handed back over MCP is capped: the analysis already saw the whole text, and
# nothing downstream (prompts, reports) reads megabytes of one source.
MAX_MARKDOWN_CHARS = 400_000


@dataclass(frozen=True)
class ChildLimits:
    memory_mb: int  # RLIMIT_AS of the child
    cpu_seconds: float  # RLIMIT_CPU of the child (the server also enforces wall time)


@dataclass(frozen=True)
class ParseRequest:
    path: str | None
    data_base64: str | None
    text: str | None
    media_type: str
    url: str


def apply_child_limits(limits: ChildLimits) -> None:
    """Cap what this process may take; lowering limits never needs privileges."""
    _lower(resource.RLIMIT_AS, limits.memory_mb * MB)
    cpu = max(1, math.ceil(limits.cpu_seconds))
    # Soft limit sends SIGXCPU (which we leave fatal); the hard limit is SIGKILL.
    _lower(resource.RLIMIT_CPU, cpu, hard=cpu + 2)
    # Parsing writes no files; a runaway writer would otherwise fill the sandbox's tmpfs.
    _lower(resource.RLIMIT_FSIZE, 16 * MB)
    # A crash must not leave a core file of a hostile document behind.
    _lower(resource.RLIMIT_CORE, 0)


def _lower(kind: int, soft: int, hard: int | None = None) -> None:
    current_soft, current_hard = resource.getrlimit(kind)
    hard = soft if hard is None else hard
    if current_hard != resource.RLIM_INFINITY:
        hard = min(hard, current_hard)
        soft = min(soft, hard)
    resource.setrlimit(kind, (soft, hard))


def read_input(request: ParseRequest) -> tuple[bytes, str]:
    """The document's bytes and the media type to try first."""
    if request.path is not None:
        with open(request.path, "rb") as handle:
            return handle.read(), request.media_type
    if request.data_base64 is not None:
        return base64.b64decode(request.data_base64, validate=False), request.media_type
    # Text arrives as Unicode: its charset is UTF-8 whatever the caller's media type says.
    # HTML is parsed as HTML (not returned as raw tags); anything else is read as Markdown.
    mime = request.media_type.split(";", 1)[0].strip().lower()
    if mime not in ("text/html", "application/xhtml+xml", "text/plain"):
        mime = "text/markdown"
    return (request.text or "").encode("utf-8"), f"{mime}; charset=utf-8"


def parse_document(request: ParseRequest) -> dict[str, Any]:
    """Extract and analyse one document; returns ``ParsedDocument`` as a dict."""
    from research.modules.parsing.analysis import analyze_document
    from research.modules.parsing.extraction import HTML, extract

    started = time.perf_counter()
    data, media_type = read_input(request)
    extracted = extract(data, media_type, request.url)
    if not extracted.markdown.strip():
        raise EmptyDocument("no readable text was found in the document")
    parsed = analyze_document(
        extracted.markdown,
        title=extracted.title,
        html=data if extracted.media_type == HTML else None,
        input_bytes=len(data),
    )
    parsed.stats["parse_ms"] = round((time.perf_counter() - started) * 1000, 1)
    parsed.stats["media_type"] = extracted.media_type
    if len(parsed.markdown) > MAX_MARKDOWN_CHARS:
        parsed.markdown = parsed.markdown[:MAX_MARKDOWN_CHARS]
        parsed.stats["markdown_truncated"] = 1
    return parsed.model_dump(mode="json")


class EmptyDocument(Exception):
    """The document decoded fine but has no text to read."""


def run_child(conn: Connection, request: ParseRequest, limits: ChildLimits) -> None:
    """Entry point of the forked child: parse, send ``{"ok": ..., ...}``, exit."""
    # The server's own signal handling (anyio, Ctrl-C) must not apply to a worker.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    apply_child_limits(limits)
    try:
        outcome: dict[str, Any] = {"ok": True, "document": parse_document(request)}
    except MemoryError:
        outcome = {"ok": False, "reason": f"memory limit exceeded ({limits.memory_mb} MB) while parsing (MemoryError)"}
    except RecursionError:
        outcome = {"ok": False, "reason": "the document is nested too deeply to read (RecursionError)"}
    except FileNotFoundError:
        outcome = {"ok": False, "reason": "the cached file is missing"}
    except Exception as exc:  # noqa: BLE001 - any parser failure costs this one document only
        from research.modules.parsing.extraction import UnsupportedContent

        if isinstance(exc, (UnsupportedContent, EmptyDocument)):
            outcome = {"ok": False, "reason": str(exc)}
        else:
            outcome = {"ok": False, "reason": f"{type(exc).__name__}: {str(exc)[:300]}"}
    try:
        conn.send(outcome)
    except MemoryError:
        conn.send({"ok": False, "reason": f"memory limit exceeded ({limits.memory_mb} MB) sending the result"})
    finally:
        conn.close()
    # Skip interpreter teardown: nothing to flush, and a poisoned heap should not be walked.
    os._exit(0)

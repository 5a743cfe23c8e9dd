"""The code that parses one document, run in a short-lived child of the parser server.

Each document gets its own process forked from a pre-warmed fork server
(``fork_server.py``), with its own address-space, CPU-time and file-size limits. A hostile
document (a decompression bomb, markup nested 60,000 levels deep) can exhaust only that
child: it dies or raises, the server reports a clear reason, and the next document starts
from a clean fork. Imported before the fork server is forked, so only the standard library
is imported at the top; the parsers come with ``warmup.py``.
"""

from __future__ import annotations

import base64
import json
import os
import signal
import socket
import struct
import time
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Required, TypedDict

from research.modules.core.parser_process import current_net_namespace
from research.servers.parser.limits import MB, ChildLimits, apply_child_limits

# Markdown handed back over MCP is capped: the analysis already saw the whole text, and
# nothing downstream (prompts, reports) reads megabytes of one source.
MAX_MARKDOWN_CHARS = 400_000
# The server checks a document's size (RESEARCH_PARSER_MAX_MB) before it sends it; this only
# bounds what a child allocates for the request frame.
MAX_REQUEST_BYTES = 1024 * MB


# A document's socket carries frames: one tag byte, an 8-byte length, the payload.
# REQUEST goes server -> child, RESULT child -> server, EXIT_STATUS fork server -> server.
FRAME_HEADER = struct.Struct("!cQ")
REQUEST, RESULT, EXIT_STATUS = b"Q", b"R", b"X"


def frame(tag: bytes, payload: bytes) -> bytes:
    return FRAME_HEADER.pack(tag, len(payload)) + payload


def read_frame_blocking(channel: socket.socket, max_bytes: int) -> tuple[bytes, bytearray] | None:
    """One frame from a blocking socket; None at end of stream."""
    header = _recv_exactly(channel, FRAME_HEADER.size)
    if header is None:
        return None
    tag, size = FRAME_HEADER.unpack(bytes(header))
    if size > max_bytes:
        raise ValueError(f"a frame of {size} bytes is over the limit of {max_bytes}")
    payload = _recv_exactly(channel, size)
    if payload is None:
        return None
    return tag, payload


def _recv_exactly(channel: socket.socket, size: int) -> bytearray | None:
    buffer = bytearray(size)
    view = memoryview(buffer)
    got = 0
    while got < size:
        count = channel.recv_into(view[got:])
        if count == 0:
            return None
        got += count
    return buffer


@dataclass(frozen=True)
class ParseRequest:
    path: str | None
    data_base64: str | None
    text: str | None
    media_type: str
    url: str
    # Not a document: the sandbox's witnesses, taken where documents are parsed (``place_report``).
    probe: "PlaceProbe | None" = None


class PlaceProbe(TypedDict):
    """What the parser server's ``sandbox-info`` asks a child to look at from inside."""

    port: int | None  # a port listening on the host's 127.0.0.1: does a connect succeed from here?
    paths: list[str]  # host paths that must be invisible here
    cache_dir: str | None  # must be read-only here


def place_report(probe: PlaceProbe) -> JsonObject:
    """The place a child parses in, seen from inside it: its network namespace, whether a TCP
    connect to ``127.0.0.1:port`` succeeds (loopback only, on purpose: this must not become a
    way to scan other hosts), which of ``paths`` exist, whether the cache takes a new file.
    Asked of a child, not of the server, because the child is what reads hostile bytes: where
    the server runs outside the sandbox (``fork_server.py``) its own answers would prove nothing."""
    connected, error = probe_loopback(probe.get("port"))
    return {"net_namespace": current_net_namespace(), "pid": os.getpid(), "uid": os.getuid(),
            "probe_connected": connected, "probe_error": error,
            "visible_paths": [p for p in probe.get("paths") or [] if os.path.lexists(p)],
            "cache_writable": _takes_a_file(probe.get("cache_dir"))}


def probe_loopback(port: int | None, timeout: float = 2.0) -> tuple[bool | None, str | None]:
    """Does a TCP connect to ``127.0.0.1:port`` succeed from here? (None: nothing asked.)"""
    if port is None:
        return None, None
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=timeout):
            return True, None
    except OSError as exc:
        return False, f"{type(exc).__name__}: {exc.strerror or exc}"


def _takes_a_file(folder: str | None) -> bool | None:
    """Really try to create a file: permission bits say nothing about a read-only mount."""
    if folder is None:
        return None
    import tempfile

    try:
        with tempfile.NamedTemporaryFile(dir=folder, prefix=".probe-"):
            return True
    except OSError:
        return False


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


def parse_document(request: ParseRequest) -> JsonObject:
    """Extract and analyse one document; returns the fields of ``ParsedDocument`` as a dict."""
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
    return parsed.as_dict()


if TYPE_CHECKING:  # the fork server's children import no pydantic
    from research.state.models import JsonObject


class ParseOutcome(TypedDict, total=False):
    """What a child answers, as JSON: ``ok`` with the document's fields (``ParsedDocument``,
    validated by the server when it reads them), or not ``ok`` and why."""

    ok: Required[bool]
    document: JsonObject
    place: JsonObject  # the answer to a ``probe`` (``place_report``)
    reason: str


class EmptyDocument(Exception):
    """The document decoded fine but has no text to read."""


def run_child(channel: socket.socket, limits: ChildLimits) -> None:
    """Entry point of the forked child: read the request, parse, send the outcome
    (``{"ok": ..., ...}`` as JSON), exit."""
    # The server's own signal handling (anyio, Ctrl-C) must not apply to a worker.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    apply_child_limits(limits)
    try:
        received = read_frame_blocking(channel, MAX_REQUEST_BYTES)
        if received is None or received[0] != REQUEST:
            os._exit(0)  # the server gave up on this document before sending it
        outcome = _outcome(ParseRequest(**json.loads(received[1])), limits)
        data = json.dumps(outcome, ensure_ascii=False).encode("utf-8")
    except MemoryError:
        data = json.dumps(_memory_failure(limits, "reading the request or encoding the result")).encode("utf-8")
    try:
        channel.sendall(frame(RESULT, data))
    except MemoryError:
        channel.sendall(frame(RESULT, json.dumps(_memory_failure(limits, "sending the result")).encode("utf-8")))
    except OSError:
        pass  # the server is no longer listening (timed out, cancelled)
    # Skip interpreter teardown: nothing to flush, and a poisoned heap should not be walked.
    os._exit(0)


def _memory_failure(limits: ChildLimits, doing: str) -> ParseOutcome:
    return {"ok": False, "reason": f"memory limit exceeded ({limits.memory_mb} MB) {doing}"}


def _outcome(request: ParseRequest, limits: ChildLimits) -> ParseOutcome:
    if request.probe is not None:
        return {"ok": True, "place": place_report(request.probe)}
    try:
        return {"ok": True, "document": parse_document(request)}
    except MemoryError:
        return _memory_failure(limits, "while parsing (MemoryError)")
    except RecursionError:
        return {"ok": False, "reason": "the document is nested too deeply to read (RecursionError)"}
    except FileNotFoundError:
        return {"ok": False, "reason": "the cached file is missing"}
    except Exception as exc:  # noqa: BLE001 - any parser failure costs this one document only
        from research.modules.parsing.extraction import UnsupportedContent

        if isinstance(exc, (UnsupportedContent, EmptyDocument)):
            return {"ok": False, "reason": str(exc)}
        return {"ok": False, "reason": f"{type(exc).__name__}: {str(exc)[:300]}"}

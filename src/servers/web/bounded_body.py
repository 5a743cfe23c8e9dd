"""Reading an HTTP body with a bound on what it EXPANDS to, not on what crossed the wire.

httpx decodes ``Content-Encoding`` for us, but each of its decoders expands a whole
chunk at once: 32 KiB of zstd (or 1 MiB of gzip) becomes 1 GiB before any size check can
run. So the fetcher reads the raw bytes (``aiter_raw``) and decodes them here, each step
asked for at most ``_STEP`` bytes of output, and stops as soon as the expanded size passes
the cap: a bomb costs the cap plus a step, whatever its ratio.

Only the codings decoded this way are asked for (``ACCEPT_ENCODING``): gzip and deflate
(zlib, ``max_length``), zstd (``zstandard``'s stream writer, whose sink refuses to grow
past the cap; window limited to 8 MiB as RFC 9659 requires of HTTP zstd). A server that
sends anything else (br, which needs a bounded brotli decoder this project does not
ship, or a coding nobody asked for) is refused: its bytes would be unreadable anyway.
"""

from __future__ import annotations

import zlib
from typing import IO, Callable, cast

import httpx

try:  # optional, as in httpx: installed with langgraph, absent from a bare environment
    import zstandard
except ImportError:  # pragma: no cover - the project's environment has it
    zstandard = None  # type: ignore[assignment]

_STEP = 64 * 1024  # the most output one decoding step may produce
_ZSTD_WINDOW = 8 * 1024 * 1024  # RFC 9659 §3: HTTP zstd never needs a larger window
_MAX_CODINGS = 3  # "gzip, gzip, gzip" is legal; more is only a way to burn time

ACCEPT_ENCODING = "gzip, deflate, zstd" if zstandard is not None else "gzip, deflate"


class BodyTooLarge(Exception):
    """The body (after decoding) is larger than the cap; ``declared`` is the wire size a
    Content-Length announced, when that alone was over."""

    def __init__(self, declared: int | None = None) -> None:
        super().__init__("body too large")
        self.declared = declared


class BadEncoding(Exception):
    """The body's Content-Encoding is not one read here, or its bytes do not decode; the
    message says which in plain words."""


Emit = Callable[[bytes], None]


class _Zlib:
    """gzip, or deflate (zlib-wrapped as the RFC says, or raw as some servers send it)."""

    def __init__(self, name: str, emit: Emit) -> None:
        self.name = name
        self.emit = emit
        self.raw_fallback = name == "deflate"
        self.decoder = zlib.decompressobj(zlib.MAX_WBITS | 16 if name == "gzip" else zlib.MAX_WBITS)

    def feed(self, data: bytes) -> None:
        try:
            self._inflate(data)
        except zlib.error:
            if not self.raw_fallback:
                raise BadEncoding(f"the page's {self.name} encoding does not decode") from None
            self.raw_fallback = False  # a raw deflate stream: start again without the wrapper
            self.decoder = zlib.decompressobj(-zlib.MAX_WBITS)
            self.feed(data)
        self.raw_fallback = False  # the first bytes decided the wrapper

    def _inflate(self, data: bytes) -> None:
        while not self.decoder.eof:
            out = self.decoder.decompress(data, _STEP)
            self.emit(out)
            data = self.decoder.unconsumed_tail
            if not data and len(out) < _STEP:
                return  # input used up and nothing held back: wait for the next chunk

    def finish(self) -> None:
        try:
            self.emit(self.decoder.flush(_STEP))  # what is left after draining is a step at most
        except zlib.error:
            raise BadEncoding(f"the page's {self.name} encoding does not decode") from None


class _Zstd:
    """zstd: the stream writer hands each piece it decodes (``_STEP`` bytes at most) to
    ``emit``, which raises ``BodyTooLarge`` past the cap and so ends the decoding."""

    name = "zstd"

    def __init__(self, emit: Emit) -> None:
        class _Sink:
            @staticmethod
            def write(piece: bytes) -> int:
                emit(piece)
                return len(piece)

        decoder = zstandard.ZstdDecompressor(max_window_size=_ZSTD_WINDOW)
        # zstandard only ever calls write() on what it is given: a file is more than it needs.
        self.writer = decoder.stream_writer(cast(IO[bytes], _Sink()), write_size=_STEP)

    def feed(self, data: bytes) -> None:
        try:
            self.writer.write(data)
        except zstandard.ZstdError as exc:
            raise BadEncoding(f"the page's zstd encoding does not decode ({exc})") from None

    def finish(self) -> None:
        pass  # a truncated frame keeps what decoded, as gzip does


def _bounded(emit: Emit, cap: int) -> Emit:
    """``emit``, refusing once more than ``cap`` bytes went through it."""
    passed = 0

    def counted(piece: bytes) -> None:
        nonlocal passed
        passed += len(piece)
        if passed > cap:
            raise BodyTooLarge()
        emit(piece)

    return counted


def _decoders(content_encoding: str, emit: Emit, cap: int) -> list[_Zlib | _Zstd]:
    """The decoders for a Content-Encoding header, outermost (the last coding applied) first.
    Every stage is bounded: an inner coding's input is an outer coding's output, which
    could otherwise be gigabytes of empty blocks that decode to nothing."""
    names = [part.strip().lower() for part in content_encoding.split(",")]
    names = [{"x-gzip": "gzip"}.get(name, name) for name in names if name and name != "identity"]
    if len(names) > _MAX_CODINGS:
        raise BadEncoding(f"the page is encoded {len(names)} times over")
    chain: list[_Zlib | _Zstd] = []
    for name in names:  # the first coding applied is undone last: it emits the body itself
        if name in ("gzip", "deflate"):
            stage: _Zlib | _Zstd = _Zlib(name, emit)
        elif name == "zstd" and zstandard is not None:
            stage = _Zstd(emit)
        else:
            raise BadEncoding(f"the page is encoded as {name[:20]!r}, which is not read")
        chain.append(stage)
        emit = _bounded(stage.feed, cap)
    return chain[::-1]


async def read_body(response: httpx.Response, cap: int) -> bytes:
    """The decoded body of a streamed ``response``, at most ``cap`` bytes once decoded.

    Raises ``BodyTooLarge`` as soon as the body (or any stage of its decoding) passes the
    cap, and ``BadEncoding`` for a coding not read here or bytes that do not decode."""
    declared = response.headers.get("content-length", "")
    if declared.isdigit() and int(declared) > cap:
        raise BodyTooLarge(int(declared))
    body = bytearray()

    def keep(piece: bytes) -> None:
        if len(body) + len(piece) > cap:
            raise BodyTooLarge()
        body.extend(piece)

    chain = _decoders(response.headers.get("content-encoding", ""), keep, cap)
    wire = 0
    async for chunk in response.aiter_raw():
        wire += len(chunk)
        if wire > cap:
            raise BodyTooLarge()
        (chain[0].feed if chain else keep)(chunk)
    for stage in chain:  # outermost first: what it still holds feeds the next one in
        stage.finish()
    return bytes(body)

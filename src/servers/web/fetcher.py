"""Fetching pages fast and safely, with a byte cache in the session's sources/.

* Concurrency is bounded overall and per host (politeness): many hosts in parallel,
  never a flood on one.
* Every page has a total deadline besides httpx's connect/read timeouts, because a
  server that drips one byte a second never trips a read timeout.
* Bodies are streamed and cut at a size cap on their decoded size (a compressed page is
  expanded step by step, never past the cap: bounded_body.py); redirects are followed by
  hand so each hop passes the SSRF guard again and loops are named as loops.
* Raw bytes are stored with the one atomic write (``state.session_folder.atomic_write``)
  under a hash of the canonical URL, with a JSON sidecar. The URL guard runs before the
  cache is read, so a page cached by a permissive process is never served to a strict
  one; entries expire (``cache_max_age_hours``) and the cache is kept under a size cap
  (``cache_max_mb``), oldest entries evicted first.
"""

from __future__ import annotations

import asyncio
import errno
import json
import os
import stat
import time
from collections import defaultdict
from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path
from urllib.parse import unquote, urljoin, urlsplit

import httpx

from research.modules.core.settings import LOCAL_SUFFIXES, FetchSettings
from research.modules.core.tls import client_ssl_context
from research.servers.web.bounded_body import ACCEPT_ENCODING, BadEncoding, BodyTooLarge, read_body
from research.servers.web.url_safety import URLGuard, UnsafeURL, canonical_url
from research.modules.core.files import atomic_write
from research.state.session_folder import cache_suffix, is_cache_entry_name, read_session_bytes, source_key

USER_AGENT = "research-assistant/0.1 (+local research tool; polite fetcher)"
_SIDECAR_LIMIT = 1 << 20
_ENTRY_LIMIT = 1 << 30  # far above the fetch size cap; a planted entry cannot fill memory


@dataclass
class FetchResult:
    url: str
    final_url: str
    canonical_url: str
    media_type: str | None = None  # as the server declared it (with charset), sniffed later
    cache_path: str | None = None
    retrieved_at: str | None = None
    from_cache: bool = False
    error: str | None = None
    data: bytes | None = None  # the raw bytes (also on disk at cache_path)


class FetchFailed(Exception):
    """This page could not be fetched; the message says why in plain words."""


# --------------------------------------------------------------------------- cache


class SourceCache:
    """Raw bytes keyed by the hash of the canonical URL, each with a JSON sidecar."""

    def __init__(self, directory: Path, *, max_age_s: float = float("inf"), max_bytes: float = float("inf")) -> None:
        self.directory = directory
        self.max_age_s = max_age_s
        self.max_bytes = max_bytes
        directory.mkdir(parents=True, exist_ok=True)

    @classmethod
    def for_limits(cls, directory: Path, limits: FetchSettings) -> "SourceCache":
        return cls(directory, max_age_s=limits.cache_max_age_hours * 3600, max_bytes=limits.cache_max_mb * 1024 * 1024)

    @staticmethod
    def key(url: str) -> str:
        return source_key(url)  # state/session_folder.py: the one name, read back by the checks

    def _sidecar(self, url: str) -> Path:
        return self.directory / f"{self.key(url)}.json"

    def lookup(self, url: str) -> FetchResult | None:
        sidecar = self._sidecar(url)
        try:
            if time.time() - sidecar.stat().st_mtime > self.max_age_s:
                return None  # expired: the page may have changed since
            meta = json.loads(read_session_bytes(sidecar, _SIDECAR_LIMIT))
            data_path = self._entry_file(meta)
            data = read_session_bytes(data_path, _ENTRY_LIMIT)
        except (OSError, ValueError, KeyError, TypeError, AttributeError):
            return None  # absent, half-written or not ours (a link, a path elsewhere): fetch again
        return FetchResult(
            url=url,
            final_url=meta.get("final_url", url),
            canonical_url=canonical_url(url),
            media_type=meta.get("media_type"),
            cache_path=str(data_path),
            retrieved_at=meta.get("retrieved_at"),
            from_cache=True,
            data=data,
        )

    def _entry_file(self, meta: dict) -> Path:
        """The bytes file a sidecar names: a bare file name in this folder, nothing else.
        A shared session's sidecar saying ``"file": "/home/me/.ssh/id_rsa"`` (or ``../x``)
        must never serve that file as the page, nor have it deleted by eviction."""
        name = meta["file"]
        if not isinstance(name, str) or not is_cache_entry_name(name):
            raise ValueError("the cache entry names a file outside the cache")
        return self.directory / name

    def store(self, url: str, final_url: str, media_type: str | None, data: bytes) -> FetchResult:
        key = self.key(url)
        data_path = self.directory / f"{key}{cache_suffix(media_type)}"
        retrieved_at = datetime.now(timezone.utc).isoformat(timespec="seconds")
        atomic_write(data_path, data)
        meta = {"url": url, "final_url": final_url, "canonical_url": canonical_url(url),
                "media_type": media_type, "retrieved_at": retrieved_at, "file": data_path.name, "bytes": len(data)}
        # The sidecar goes last: its presence means the bytes are complete.
        atomic_write(self._sidecar(url), json.dumps(meta, ensure_ascii=False, indent=1).encode("utf-8"))
        self._evict(keep=key)
        return FetchResult(url=url, final_url=final_url, canonical_url=canonical_url(url), media_type=media_type,
                           cache_path=str(data_path), retrieved_at=retrieved_at, data=data)

    def _evict(self, keep: str) -> None:
        """Drop the oldest entries until the cache is under its size cap (never ``keep``)."""
        if self.max_bytes == float("inf"):
            return
        entries = []
        total = 0
        for sidecar in self.directory.glob("*.json"):
            try:
                meta = json.loads(read_session_bytes(sidecar, _SIDECAR_LIMIT))
                size = int(meta.get("bytes", 0))
                entries.append((sidecar.stat().st_mtime, sidecar, self._entry_file(meta), size))
            except (OSError, ValueError, KeyError, TypeError, AttributeError):
                continue
            total += size
        for _mtime, sidecar, data_path, size in sorted(entries, key=lambda entry: entry[0]):
            if total <= self.max_bytes:
                break
            if sidecar.stem == keep:
                continue
            sidecar.unlink(missing_ok=True)  # the sidecar first: without it the entry is a miss
            data_path.unlink(missing_ok=True)
            total -= size


def read_inside(path: Path, root: Path, limit: int) -> bytes:
    """The bytes of ``path``, a regular file under ``root``, as the file it is when opened.

    The folder was listed (and each path resolved) earlier: a file or folder swapped for a
    link since then must not be read. O_NOFOLLOW refuses a link as the last name, and the
    real path of what was opened (not of the name) must still lie under ``root``; a FIFO
    or device is refused, and at most ``limit`` bytes are read."""
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0) | os.O_CLOEXEC)
    except OSError as exc:
        if exc.errno == errno.ELOOP:
            raise FetchFailed("the file became a link after the folder was listed; not read") from None
        raise FetchFailed(f"cannot read the file: {exc.strerror}") from None
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            raise FetchFailed("not a regular file; not read")
        opened = Path(os.readlink(f"/proc/self/fd/{fd}")) if os.path.isdir("/proc/self/fd") else path.resolve()
        if opened != root and root not in opened.parents:
            raise FetchFailed("the file left the documents folder after it was listed; not read")
        if info.st_size > limit:
            raise FetchFailed(f"the file is larger than {limit} bytes")
        chunks, total = [], 0
        while chunk := os.read(fd, min(1 << 20, limit + 1 - total)):
            chunks.append(chunk)
            total += len(chunk)
            if total > limit:
                raise FetchFailed(f"the file is larger than {limit} bytes")
        return b"".join(chunks)
    except OSError as exc:
        raise FetchFailed(f"cannot read the file: {exc.strerror}") from None
    finally:
        os.close(fd)


# --------------------------------------------------------------------------- fetcher


class PageFetcher:
    """Fetches URLs into the cache. One per server; safe to call concurrently."""

    def __init__(
        self,
        client: httpx.AsyncClient,
        cache: SourceCache,
        guard: URLGuard,
        limits: FetchSettings | None = None,
        local_root: Path | None = None,
    ) -> None:
        self.client = client
        self.cache = cache
        self.guard = guard
        self.limits = limits or FetchSettings()
        self.local_root = local_root.expanduser().resolve() if local_root else None
        self._slots = asyncio.Semaphore(self.limits.concurrency)
        self._host_slots: dict[str, asyncio.Semaphore] = defaultdict(lambda: asyncio.Semaphore(self.limits.per_host))
        self._in_flight: dict[tuple[str, str], asyncio.Future[FetchResult]] = {}

    async def fetch(self, url: str, cache: SourceCache | None = None) -> FetchResult:
        """Bytes of ``url`` from the cache (``cache``, else the fetcher's own) or the network.
        Never raises for a bad page: the reason is in ``FetchResult.error``."""
        cache = cache or self.cache
        canonical = canonical_url(url)
        # The guard comes before the cache: what this process may not fetch, it may not
        # serve from a cache that a more permissive process filled either.
        try:
            await self._allowed(url)
            cached = cache.lookup(url)
            if cached is not None:
                await self._allowed(cached.final_url)
                return cached
        except (FetchFailed, UnsafeURL) as exc:
            return FetchResult(url=url, final_url=url, canonical_url=canonical, error=str(exc))
        # Two results for the same page in one search share one download (per cache folder:
        # each session keeps its own copy).
        key = (str(cache.directory), canonical)
        pending = self._in_flight.get(key)
        if pending is not None:
            return await asyncio.shield(pending)
        future: asyncio.Future[FetchResult] = asyncio.get_running_loop().create_future()
        self._in_flight[key] = future
        try:
            result = await self._fetch_uncached(url, cache)
        except asyncio.CancelledError:
            future.cancel()  # anyone sharing this download is cancelled with it
            raise
        except Exception as exc:  # noqa: BLE001 - a bug on one page costs that page only
            result = FetchResult(url=url, final_url=url, canonical_url=canonical,
                                 error=f"unexpected error: {type(exc).__name__}: {exc}")
        finally:
            self._in_flight.pop(key, None)
        future.set_result(result)
        return result

    async def _fetch_uncached(self, url: str, cache: SourceCache | None = None) -> FetchResult:
        cache = cache or self.cache
        canonical = canonical_url(url)
        try:
            if urlsplit(url).scheme == "file":
                data, final_url, media_type = self._read_local(url)
            else:
                host = (urlsplit(url).hostname or "").lower()
                async with self._slots, self._host_slots[host]:
                    data, final_url, media_type = await asyncio.wait_for(
                        self._download(url), timeout=self.limits.timeout
                    )
        except asyncio.TimeoutError:
            return FetchResult(url=url, final_url=url, canonical_url=canonical,
                               error=f"timed out after {self.limits.timeout:g} s")
        except (FetchFailed, UnsafeURL) as exc:
            return FetchResult(url=url, final_url=url, canonical_url=canonical, error=str(exc))
        try:
            return cache.store(url, final_url, media_type, data)
        except OSError as exc:
            return FetchResult(url=url, final_url=final_url, canonical_url=canonical, media_type=media_type,
                               data=data, error=f"could not write the cache: {exc.strerror}")

    async def _allowed(self, url: str) -> None:
        if urlsplit(url).scheme == "file":
            self._local_path(url)
        else:
            await self.guard.check(url)

    def _local_path(self, url: str) -> Path:
        """The real path of a file URL inside the local documents folder (and nowhere else)."""
        if self.local_root is None:
            raise FetchFailed("file URLs are only read from the configured documents folder")
        try:
            path = Path(unquote(urlsplit(url).path)).resolve()
            path.relative_to(self.local_root)
        except (ValueError, OSError):
            raise FetchFailed("file URLs are only read from the configured documents folder") from None
        return path

    def _read_local(self, url: str) -> tuple[bytes, str, str | None]:
        path = self._local_path(url)
        assert self.local_root is not None  # _local_path said so
        return read_inside(path, self.local_root, self.limits.max_bytes), url, LOCAL_SUFFIXES.get(path.suffix.lower())

    async def _download(self, url: str) -> tuple[bytes, str, str | None]:
        current = url
        seen: set[str] = set()
        for _hop in range(self.limits.max_redirects + 1):
            current = await self.guard.check(current)  # the normalised URL: what is checked is fetched
            seen.add(canonical_url(current))
            try:
                async with self.client.stream("GET", current, follow_redirects=False) as response:
                    if response.is_redirect:
                        location = response.headers.get("location")
                        if not location:
                            raise FetchFailed(f"HTTP {response.status_code} redirect without a Location")
                        current = urljoin(current, location)
                        if canonical_url(current) in seen:
                            raise FetchFailed(f"redirect loop (back to {current})")
                        continue
                    if response.status_code >= 400:
                        raise FetchFailed(f"HTTP {response.status_code}")
                    data = await self._read_capped(response)
                    return data, str(response.url), response.headers.get("content-type")
            except httpx.TimeoutException:
                raise FetchFailed("the server did not answer in time") from None
            except httpx.HTTPError as exc:
                raise FetchFailed(f"network error: {type(exc).__name__}: {exc}") from None
        raise FetchFailed(f"more than {self.limits.max_redirects} redirects")

    async def _read_capped(self, response: httpx.Response) -> bytes:
        """The page's bytes, decoded, refused past the cap: the cap bounds the EXPANDED size
        (bounded_body.py), so a 32 KiB zstd page that unpacks to 1 GiB costs the cap, not 1 GiB."""
        cap = self.limits.max_bytes
        try:
            return await read_body(response, cap)
        except BodyTooLarge as exc:
            declared = f" ({exc.declared // 1024} KiB)" if exc.declared else ""
            raise FetchFailed(f"the page is larger than the {cap // 1024} KiB limit{declared}") from None
        except BadEncoding as exc:
            raise FetchFailed(str(exc)) from None


def make_http_client(limits: FetchSettings) -> httpx.AsyncClient:
    """One client per server: connection reuse across pages and engines."""
    timeout = httpx.Timeout(limits.timeout, connect=limits.connect_timeout)
    return httpx.AsyncClient(
        timeout=timeout,
        # Only the codings bounded_body.py decodes with a bound (httpx would offer br too).
        headers={"User-Agent": USER_AGENT, "Accept-Language": "ja,en;q=0.8", "Accept-Encoding": ACCEPT_ENCODING},
        limits=httpx.Limits(max_connections=limits.concurrency * 2, max_keepalive_connections=limits.concurrency),
        trust_env=True,
        verify=client_ssl_context(),
    )

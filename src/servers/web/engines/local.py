"""The user's own documents (``--docs``): a folder of .md/.txt/.html/.pdf.

Indexed on the first search, not at start-up: reading a PDF or HTML file is parsing
untrusted bytes, which happens only in the sandboxed parser (``context.read_document``),
and a server that only fetches never needs to start it. Every file is resolved first and
skipped when it leaves the folder (a symlink, ``..``): no byte of it is read.

The index is built by one task of its own, which a search only waits for: a search given up
(the client's 180 s call timeout cancels it, on a large folder and a busy machine) leaves
the build going, and the next search waits for the same build instead of starting it over
(which never finished: `research bench` on two busy cores lost every question to it).
While a search waits for the build it says how far it is (``INDEXING_PROGRESS``, an MCP
progress notification), which is what keeps the client waiting past its call timeout.

What the parser made of each file is kept in the user's cache (``index_file``), keyed by the
file's size and modification time and by the program's own code: the next run, or the next
server, parses only the files that changed. The first run over 1,145 pages reads them all
(80 s on two cores); every later run reads none.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import json
import os
import time
from pathlib import Path

from research.modules.core.language import Language
from research.modules.core.settings import LOCAL_SUFFIXES, Settings
from research.modules.text.index import TextIndex, best_passage
from research.servers.web.engines.base import (
    INDEXING_PROGRESS,
    EngineContext,
    EngineEntry,
    EngineNotConfigured,
    EngineResult,
    EngineUnavailable,
    ReadDocument,
    note,
)

MAX_LOCAL_FILE_BYTES = 50 * 1024 * 1024
PROGRESS_EVERY_S = 0.5  # a waiting search reports the build's progress this often (a few bytes each)
SAVE_EVERY_S = 30.0  # a long build keeps what it parsed so far: a stopped run loses at most this much
INDEX_FORMAT = 1


def index_file(docs_dir: Path) -> Path:
    """Where the parsed documents of one folder are kept between runs (the user's cache)."""
    base = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache")
    name = hashlib.sha256(str(docs_dir).encode("utf-8", "surrogateescape")).hexdigest()[:24]
    return base / "research" / "documents" / f"{name}.json"


def code_stamp() -> str:
    """The program's own code, by the size and time of each of its files: an upgrade, or a
    developer's change to how pages are read, makes every kept document be parsed again."""
    package = Path(__file__).resolve().parents[3]
    digest = hashlib.sha256(str(INDEX_FORMAT).encode())
    for path in sorted(package.rglob("*.py")):
        with contextlib.suppress(OSError):
            status = path.stat()
            digest.update(f"{path.relative_to(package)}:{status.st_size}:{status.st_mtime_ns}\n".encode())
    return digest.hexdigest()[:24]


def files_inside(folder: Path) -> tuple[list[Path], list[str]]:
    """Regular files under ``folder`` with a known suffix whose real path stays inside it,
    and the names skipped because they lead out of it. Reads no file's contents."""
    inside: list[Path] = []
    skipped: list[str] = []
    for root, _dirs, names in os.walk(folder, followlinks=False):
        for name in sorted(names):
            path = Path(root, name)
            if path.suffix.lower() not in LOCAL_SUFFIXES:
                continue
            try:
                real = path.resolve(strict=True)
                real.relative_to(folder)
            except (OSError, RuntimeError, ValueError):
                skipped.append(f"{path.relative_to(folder)}: leaves the documents folder (link or ..); skipped")
                continue
            if real.is_file():
                inside.append(real)
    return sorted(set(inside)), skipped


class LocalEngine:
    name = "local"

    def __init__(self, docs_dir: Path, read_document: ReadDocument, kept: Path | None = None) -> None:
        self.docs_dir = docs_dir.expanduser().resolve()
        if not self.docs_dir.is_dir():
            raise EngineUnavailable(note("servers.reason.docs_missing", path=self.docs_dir))
        self._read_document = read_document
        self._kept = kept  # the index file between runs; None keeps nothing
        self._index = TextIndex()
        self._documents: dict[str, tuple[str, str]] = {}  # url -> (title, markdown)
        self._building: asyncio.Task[None] | None = None
        self.skipped: list[str] = []
        self.files_total = 0  # files of the folder the build goes through
        self.files_done = 0  # of which read (from the kept index or by the parser)
        self.files_parsed = 0  # of which parsed in this build (not found in the kept index)

    async def ensure_indexed(self) -> None:
        failed = self._building is not None and self._building.done() and (
            self._building.cancelled() or self._building.exception() is not None)
        if self._building is None or failed:  # a build that failed is tried again by the next search
            self._building = asyncio.get_running_loop().create_task(self._build())
        # asyncio.wait never cancels what it waits for: a cancelled search stops waiting,
        # the build goes on for the next one.
        report = INDEXING_PROGRESS.get()
        while not self._building.done():
            await asyncio.wait({self._building}, timeout=PROGRESS_EVERY_S if report else None)
            if report is not None and not self._building.done():
                with contextlib.suppress(Exception):  # a host that cannot hear progress still gets the result
                    await report(self.files_done, self.files_total)
        self._building.result()

    async def _build(self) -> None:
        self._index, self._documents = TextIndex(), {}  # a build tried again starts clean
        paths, self.skipped = files_inside(self.docs_dir)
        self.files_total, self.files_done, self.files_parsed = len(paths), 0, 0
        stamp = code_stamp()
        earlier = self._load_kept(stamp)
        kept: dict[str, dict[str, object]] = {}
        saved_at = time.monotonic()
        for path in paths:
            entry = await self._add(path, earlier)
            if entry is not None:
                kept[str(path)] = entry
            self.files_done += 1
            if self.files_parsed and time.monotonic() - saved_at > SAVE_EVERY_S:
                self._save_kept(stamp, kept)
                saved_at = time.monotonic()
        if self.files_parsed or len(kept) != len(earlier):
            self._save_kept(stamp, kept)

    async def _add(self, path: Path, earlier: dict[str, dict[str, object]]) -> dict[str, object] | None:
        """Index one file; what to keep of it for the next run (None when it could not be read)."""
        try:
            status = path.stat()
            if status.st_size > MAX_LOCAL_FILE_BYTES:
                raise ValueError("file too large")
            known = earlier.get(str(path))
            if known is not None and known.get("size") == status.st_size and known.get("mtime_ns") == status.st_mtime_ns:
                title, markdown = str(known.get("title") or ""), str(known.get("markdown") or "")
            else:
                title, markdown = await self._read_document(path, LOCAL_SUFFIXES[path.suffix.lower()])
                self.files_parsed += 1
        except Exception as exc:  # noqa: BLE001 - one unreadable file costs that file only
            self.skipped.append(f"{path.name}: {exc}")
            return None
        url = path.as_uri()
        shown = title or path.stem
        self._documents[url] = (shown, markdown)
        self._index.add(url, f"{shown}\n{markdown}")
        return {"size": status.st_size, "mtime_ns": status.st_mtime_ns, "title": title, "markdown": markdown}

    def _load_kept(self, stamp: str) -> dict[str, dict[str, object]]:
        """The documents kept by an earlier build of this folder with this very code; {} when
        there is none, it is unreadable or another version wrote it (all parsed again)."""
        if self._kept is None:
            return {}
        try:
            data = json.loads(self._kept.read_text("utf-8"))
        except (OSError, ValueError):
            return {}
        if not isinstance(data, dict) or data.get("stamp") != stamp or data.get("folder") != str(self.docs_dir):
            return {}
        files = data.get("files")
        return {k: v for k, v in files.items() if isinstance(v, dict)} if isinstance(files, dict) else {}

    def _save_kept(self, stamp: str, kept: dict[str, dict[str, object]]) -> None:
        """Written whole and then renamed, readable by the user only (it holds their documents'
        text); a cache that cannot be written costs the next run its speed, nothing else."""
        if self._kept is None:
            return
        data = {"stamp": stamp, "folder": str(self.docs_dir), "files": kept}
        partial = self._kept.with_name(f".{self._kept.name}.{os.getpid()}.tmp")
        try:
            self._kept.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
            descriptor = os.open(partial, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
            with os.fdopen(descriptor, "w", encoding="utf-8") as out:
                json.dump(data, out, ensure_ascii=False)
            os.replace(partial, self._kept)
        except OSError:
            with contextlib.suppress(OSError):
                partial.unlink()

    def __len__(self) -> int:
        return len(self._index)

    def reading_notes(self) -> list[str]:
        """The folder's files that were not read, said with every search (the engine chain adds them to
        its notes): what they hold is in no answer, and the user should know which and why. A parser
        that could not start left every file out, and the run said only "0 results"."""
        if not self.skipped:
            return []
        return [note("servers.reason.documents_skipped", count=len(self.skipped), detail=self._skipped_shown())]

    def _skipped_shown(self) -> str:
        # Three of them with their reasons; never "; ", which joins a search's several notes.
        shown = [" ".join(reason.replace(";", ",").split())[:200] for reason in self.skipped[:3]]
        return ", ".join(shown) + (", …" if len(self.skipped) > 3 else "")

    async def search(self, query: str, *, language: Language, limit: int) -> list[EngineResult]:
        await self.ensure_indexed()
        if self.files_total and not self._documents:
            # Not "found nothing": nothing could be searched.
            raise EngineUnavailable(note("servers.reason.no_document_read", total=self.files_total,
                                         detail=self._skipped_shown()))
        hits = []
        for url, _score in self._index.search(query, limit):
            title, markdown = self._documents[url]
            hits.append(EngineResult(url=url, title=title, snippet=best_passage(markdown, query), engine=self.name))
        return hits


def build(settings: Settings, context: EngineContext) -> LocalEngine:
    if not settings.docs_dir:
        raise EngineNotConfigured(note("servers.reason.not_configured", engine="local", setting="RESEARCH_DOCS_DIR"))
    folder = settings.docs_dir.expanduser().resolve()
    return LocalEngine(folder, context.read_document, index_file(folder))


# A user researching their own documents stays offline.
ENGINE = EngineEntry(build, offline=True)

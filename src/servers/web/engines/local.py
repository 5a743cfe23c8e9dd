"""The user's own documents (``--docs``): a folder of .md/.txt/.html/.pdf.

Indexed on the first search, not at start-up: reading a PDF or HTML file is parsing
untrusted bytes, which happens only in the sandboxed parser (``context.read_document``),
and a server that only fetches never needs to start it. Every file is resolved first and
skipped when it leaves the folder (a symlink, ``..``): no byte of it is read.

The index is built by one task of its own, which a search only waits for: a search given up
(the client's 180 s call timeout cancels it, on a large folder and a busy machine) leaves
the build going, and the next search waits for the same build instead of starting it over
(which never finished: `research bench` on two busy cores lost every question to it).
"""

from __future__ import annotations

import asyncio
import os
from pathlib import Path

from research.modules.core.language import Language
from research.modules.core.settings import LOCAL_SUFFIXES, Settings
from research.modules.text.index import TextIndex, best_passage
from research.servers.web.engines.base import EngineContext, EngineEntry, EngineNotConfigured, EngineResult, EngineUnavailable, ReadDocument, note

MAX_LOCAL_FILE_BYTES = 50 * 1024 * 1024


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

    def __init__(self, docs_dir: Path, read_document: ReadDocument) -> None:
        self.docs_dir = docs_dir.expanduser().resolve()
        if not self.docs_dir.is_dir():
            raise EngineUnavailable(note("servers.reason.docs_missing", path=self.docs_dir))
        self._read_document = read_document
        self._index = TextIndex()
        self._documents: dict[str, tuple[str, str]] = {}  # url -> (title, markdown)
        self._building: asyncio.Task[None] | None = None
        self.skipped: list[str] = []

    async def ensure_indexed(self) -> None:
        failed = self._building is not None and self._building.done() and (
            self._building.cancelled() or self._building.exception() is not None)
        if self._building is None or failed:  # a build that failed is tried again by the next search
            self._building = asyncio.get_running_loop().create_task(self._build())
        # Shielded: a cancelled search stops waiting, the build goes on for the next one.
        await asyncio.shield(self._building)

    async def _build(self) -> None:
        self._index, self._documents = TextIndex(), {}  # a build tried again starts clean
        paths, self.skipped = files_inside(self.docs_dir)
        for path in paths:
            await self._add(path)

    async def _add(self, path: Path) -> None:
        try:
            if path.stat().st_size > MAX_LOCAL_FILE_BYTES:
                raise ValueError("file too large")
            title, markdown = await self._read_document(path, LOCAL_SUFFIXES[path.suffix.lower()])
        except Exception as exc:  # noqa: BLE001 - one unreadable file costs that file only
            self.skipped.append(f"{path.name}: {exc}")
            return
        url = path.as_uri()
        title = title or path.stem
        self._documents[url] = (title, markdown)
        self._index.add(url, f"{title}\n{markdown}")

    def __len__(self) -> int:
        return len(self._index)

    async def search(self, query: str, *, language: Language, limit: int) -> list[EngineResult]:
        await self.ensure_indexed()
        hits = []
        for url, _score in self._index.search(query, limit):
            title, markdown = self._documents[url]
            hits.append(EngineResult(url=url, title=title, snippet=best_passage(markdown, query), engine=self.name))
        return hits


def build(settings: Settings, context: EngineContext) -> LocalEngine:
    if not settings.docs_dir:
        raise EngineNotConfigured(note("servers.reason.not_configured", engine="local", setting="RESEARCH_DOCS_DIR"))
    return LocalEngine(settings.docs_dir, context.read_document)


# A user researching their own documents stays offline.
ENGINE = EngineEntry(build, offline=True)

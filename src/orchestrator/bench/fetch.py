"""`research bench SET --fetch`: the set's files from a pinned address, checked against a pinned
sha256, into the user's cache (``$XDG_CACHE_HOME/research/bench/SET/``, else ``~/.cache/…``).

Each file is named by a commit of its repository, never a branch, and its sha256 is written
here: what was measured is what anyone fetches, and a changed, truncated or substituted file
is refused (one line, nothing kept) instead of being benchmarked. The licence file comes with
the data (first: no set file is kept without it), and the licence and attribution are shown
at every fetch.

- **pubmedqa**: PubMedQA PQA-L, ``data/ori_pqal.json`` (1,000 items) and
  ``data/test_ground_truth.json`` (the 500 ids of PubMedQA's own test split) at 1cbae8e. The
  bench's file, ``dev.json``, is ori_pqal.json without the test ids, written as
  ``json.dumps(…, ensure_ascii=False)``: byte for byte the 500-item file this project's
  figures were measured on (its sha256 is pinned too), so a fetched bench is the same bench
  (runner.bench_key names a bench by its file's sha256) and the test split stays unseen.
- **jsquad**: JSQuAD v1.3's validation split, ``datasets/jsquad-v1.3/valid-v1.3.json`` at
  6f071c0, unchanged.

``RESEARCH_BENCH_MIRROR`` replaces ``https://raw.githubusercontent.com`` (a mirror, or a
local server in the tests); the sha256 values do not change with it.
"""

from __future__ import annotations

import hashlib
import json
import os
from dataclasses import dataclass
from pathlib import Path

from research.modules.core.errors import UserFacingError

GITHUB_RAW = "https://raw.githubusercontent.com"
MIRROR_ENV = "RESEARCH_BENCH_MIRROR"
# Larger than any of these files (ori_pqal.json is 2.5 MB): a server sending more is not sending them.
MAX_FETCH_BYTES = 64 * 1024 * 1024
FETCH_TIMEOUT = 60.0


class FetchFailed(UserFacingError):
    """The set could not be fetched, or what came was not the pinned file: exit 1."""


@dataclass(frozen=True)
class PinnedFile:
    path: str  # under the mirror: owner/repo/commit/path
    sha256: str
    name: str  # the file's name in the cache


@dataclass(frozen=True)
class SetSource:
    files: tuple[PinnedFile, ...]
    data_name: str  # the file `research bench` reads (--data's default once fetched)
    data_sha256: str
    licence: str
    attribution: str


_PUBMEDQA = "pubmedqa/pubmedqa/1cbae8e92f72f20c8d3747cbb3bf5bc53554d997"
_JGLUE = "yahoojapan/JGLUE/6f071c09316baae89c3d083a90985b4b1cb9968c"

SOURCES: dict[str, SetSource] = {
    "pubmedqa": SetSource(
        files=(PinnedFile(f"{_PUBMEDQA}/LICENSE",
                          "8e75abc6136be91e5ae66dbb6dda07c8bc9dcc215ed3bc1ba3ae7fab7904777e", "LICENSE"),
               PinnedFile(f"{_PUBMEDQA}/data/ori_pqal.json",
                          "8b3276be8942ebbd77f3ddcda12c1749bf0e490045a736fd8438ee40cf37a41d", "ori_pqal.json"),
               PinnedFile(f"{_PUBMEDQA}/data/test_ground_truth.json",
                          "939fe566f09017d13b1ca64d2ddfee0bc2374b366048152997669cccedc44d51", "test_ground_truth.json")),
        data_name="dev.json",
        data_sha256="75c5eed8449ad375d582f88d230dcc523fe4e4cecc051a9896d0afa31bda6b74",
        licence="MIT (github.com/pubmedqa/pubmedqa, LICENSE)",
        attribution="Jin, Dhingra, Liu, Cohen, Lu. PubMedQA: A Dataset for Biomedical Research Question "
                    "Answering. EMNLP 2019."),
    "jsquad": SetSource(
        files=(PinnedFile(f"{_JGLUE}/LICENSE",
                          "3b2890eacd851373001c4a14623458e3adaf1b1967939aa9c38a318e28d61c00", "LICENSE"),
               PinnedFile(f"{_JGLUE}/datasets/jsquad-v1.3/valid-v1.3.json",
                          "fb0a57a35281ff03bbe7f0e878cff5b577985fbe6fcb242e7e8ddb63d1c0ab11", "valid-v1.3.json")),
        data_name="valid-v1.3.json",
        data_sha256="fb0a57a35281ff03bbe7f0e878cff5b577985fbe6fcb242e7e8ddb63d1c0ab11",
        licence="CC BY-SA 4.0 (github.com/yahoojapan/JGLUE, LICENSE; paragraphs from Japanese Wikipedia)",
        attribution="Kurihara, Kawahara, Shibata. JGLUE: Japanese General Language Understanding Evaluation. "
                    "LREC 2022. © Yahoo Japan Corporation."),
}


def cache_folder(set_name: str) -> Path:
    base = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache")
    return base / "research" / "bench" / set_name


def cached_data(set_name: str) -> Path | None:
    """The fetched set file, when it is there (checked by size only: a full hash of 2 MB is
    made by load_set anyway, and a bench is named by it)."""
    path = cache_folder(set_name) / SOURCES[set_name].data_name
    return path if path.is_file() else None


def _sha256(path: Path) -> str:
    digest = hashlib.sha256()
    with open(path, "rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def _download(url: str, pinned: PinnedFile, target: Path) -> None:
    """URL into TARGET, only if its sha256 is the pinned one (written beside it, then renamed)."""
    import httpx

    partial = target.with_name(target.name + ".part")
    digest = hashlib.sha256()
    size = 0
    try:
        with httpx.stream("GET", url, timeout=FETCH_TIMEOUT, follow_redirects=True) as response:
            if response.status_code != 200:
                raise FetchFailed("bench.fetch_failed", url=url, reason=f"HTTP {response.status_code}")
            with open(partial, "wb") as handle:
                for block in response.iter_bytes():
                    size += len(block)
                    if size > MAX_FETCH_BYTES:
                        raise FetchFailed("bench.fetch_failed", url=url,
                                          reason=f"larger than {MAX_FETCH_BYTES // 2**20} MiB")
                    digest.update(block)
                    handle.write(block)
        if digest.hexdigest() != pinned.sha256:
            raise FetchFailed("bench.fetch_wrong_hash", url=url, got=digest.hexdigest()[:16],
                              expected=pinned.sha256[:16])
        partial.replace(target)
    except httpx.HTTPError as exc:
        raise FetchFailed("bench.fetch_failed", url=url, reason=(str(exc) or type(exc).__name__)[:120]) from None
    except OSError as exc:
        raise FetchFailed("bench.fetch_failed", url=url, reason=(exc.strerror or type(exc).__name__)[:120]) from None
    finally:
        partial.unlink(missing_ok=True)


def fetch_set(set_name: str, source: SetSource | None = None, mirror: str | None = None) -> tuple[Path, int]:
    """The set's files into the cache (those already there with the pinned sha256 are kept),
    and the bench's file made from them; its path and how many files were downloaded."""
    source = source or SOURCES[set_name]
    base = (mirror or os.environ.get(MIRROR_ENV) or GITHUB_RAW).rstrip("/")
    folder = cache_folder(set_name)
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise FetchFailed("bench.fetch_failed", url=str(folder), reason=exc.strerror or "mkdir") from None
    downloaded = 0
    for pinned in source.files:
        target = folder / pinned.name
        if target.is_file() and _sha256(target) == pinned.sha256:
            continue
        _download(f"{base}/{pinned.path}", pinned, target)
        downloaded += 1
    data = folder / source.data_name
    if set_name == "pubmedqa" and not (data.is_file() and _sha256(data) == source.data_sha256):
        _pubmedqa_dev(folder, data)
    made = _sha256(data)
    if made != source.data_sha256:  # the split made here is not the one measured: say so, keep nothing
        data.unlink(missing_ok=True)
        raise FetchFailed("bench.fetch_wrong_hash", url=str(data), got=made[:16], expected=source.data_sha256[:16])
    return data, downloaded


def _pubmedqa_dev(folder: Path, data: Path) -> None:
    """ori_pqal.json without PubMedQA's test ids, in file order, as dev.json."""
    items = json.loads((folder / "ori_pqal.json").read_text("utf-8"))
    test = json.loads((folder / "test_ground_truth.json").read_text("utf-8"))
    dev = {pmid: item for pmid, item in items.items() if pmid not in test}
    partial = data.with_name(data.name + ".part")
    partial.write_text(json.dumps(dev, ensure_ascii=False), "utf-8")
    partial.replace(data)

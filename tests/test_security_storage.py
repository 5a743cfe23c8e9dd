"""atomic_write is durable: the file and its folder are fsynced."""

from __future__ import annotations

import os
import stat

from research.modules.core.files import atomic_write


def test_atomic_write_fsyncs_the_file_and_the_folder(tmp_path, monkeypatch):
    synced: list[str] = []
    real_fsync = os.fsync

    def recording_fsync(fd: int) -> None:
        synced.append("dir" if stat.S_ISDIR(os.fstat(fd).st_mode) else "file")
        real_fsync(fd)

    monkeypatch.setattr(os, "fsync", recording_fsync)
    target = tmp_path / "sub" / "meta.json"
    atomic_write(target, b"{}")
    assert target.read_bytes() == b"{}"
    assert synced == ["file", "dir"]
    assert [p.name for p in target.parent.iterdir()] == ["meta.json"]  # no temp file left

"""viewer.open_in_viewer: hands the file to the platform opener, False when there is none."""

from __future__ import annotations

import sys
import time
from pathlib import Path

import pytest

from research.cli.viewer import open_in_viewer

pytestmark = pytest.mark.skipif(sys.platform.startswith("win") or sys.platform == "darwin",
                                reason="exercises the xdg-open path used on Linux")


def _fake_opener(folder: Path, exit_code: int) -> Path:
    record = folder / "opened.txt"
    script = folder / "xdg-open"
    script.write_text(f'#!/bin/sh\nprintf "%s" "$1" > "{record}"\nexit {exit_code}\n')
    script.chmod(0o755)
    return record


def test_opens_the_file_with_xdg_open(tmp_path, monkeypatch):
    report = tmp_path / "report.pdf"
    report.write_bytes(b"%PDF-1.4")
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    record = _fake_opener(bin_dir, 0)
    monkeypatch.setenv("PATH", str(bin_dir))
    assert open_in_viewer(report) is True
    for _ in range(50):  # the opener runs detached; give it a moment to write
        if record.exists():
            break
        time.sleep(0.05)
    assert record.read_text() == str(report)


def test_false_when_no_viewer_exists_or_it_refuses(tmp_path, monkeypatch):
    report = tmp_path / "report.pdf"
    report.write_bytes(b"%PDF-1.4")
    empty = tmp_path / "empty"
    empty.mkdir()
    monkeypatch.setenv("PATH", str(empty))
    assert open_in_viewer(report) is False
    _fake_opener(empty, 3)  # xdg-open exits non-zero when no application handles PDFs
    assert open_in_viewer(report) is False
    assert open_in_viewer(tmp_path / "missing.pdf") is False

"""Every file a user keeps goes through the one atomic write that fsyncs (issue 25):
report.pdf and the converted-font cache were renamed into place without an fsync, so a
power cut could leave an empty report.pdf behind a finished session."""

from __future__ import annotations

import os
from datetime import datetime, timezone
from pathlib import Path

import pytest

from research.modules.report.content import ReportInput, build_report
from research.modules.report.fonts import truetype_copy_of_cff
from research.modules.report.pdf import render_pdf
from research.state import session_folder
from test_pdf import _cff_font


@pytest.fixture
def fsynced(monkeypatch) -> list[str]:
    """The paths fsynced while the test runs (files and folders)."""
    seen: list[str] = []
    real = os.fsync

    def record(fd: int) -> None:
        seen.append(os.readlink(f"/proc/self/fd/{fd}"))
        real(fd)

    monkeypatch.setattr(session_folder.os, "fsync", record)
    return seen


def _written_then_renamed(seen: list[str], target: Path) -> bool:
    """A temp file beside ``target`` was fsynced, then the folder (the rename)."""
    temp = [p for p in seen if Path(p).parent == target.parent and Path(p).name.startswith(f".{target.name}.")]
    return bool(temp) and str(target.parent) in seen[seen.index(temp[-1]):]


def test_report_pdf_is_fsynced_before_and_after_its_rename(tmp_path, fsynced) -> None:
    doc = build_report(ReportInput(question="Is Mt. Fuji monitored?", language="en", model="m",
                                   generated_at=datetime(2025, 3, 1, tzinfo=timezone.utc), session_id="s1",
                                   body_markdown="Yes [S1].", sources=[{"label": "S1", "url": "https://a.example/"}]))
    target = tmp_path / "report.pdf"
    target.write_bytes(b"old")
    render_pdf(doc, target)
    assert target.read_bytes().startswith(b"%PDF")
    assert _written_then_renamed(fsynced, target)
    assert [p.name for p in tmp_path.iterdir()] == ["report.pdf"]  # no temp file left


def test_the_converted_font_is_cached_with_the_same_write(tmp_path, fsynced) -> None:
    font = tmp_path / "TestCFF.otf"
    _cff_font(font)
    cached = truetype_copy_of_cff(font, cache_dir=tmp_path / "cache")
    assert cached.read_bytes()[:4] == b"\x00\x01\x00\x00"  # a TrueType file
    assert _written_then_renamed(fsynced, cached)
    assert [p.name for p in cached.parent.iterdir()] == [cached.name]


def test_an_output_copy_is_written_whole_fsynced_and_as_readable_as_the_users_files(tmp_path, fsynced) -> None:
    import io

    from rich.console import Console

    from research.cli.run_output import copy_outputs
    from research.state.run_record import RunOutcome

    report = tmp_path / "session" / "report.md"
    report.parent.mkdir()
    report.write_text("# Mount Fuji\n\n3,776 m [S1].\n", "utf-8")
    result = RunOutcome(session_id="20250301_100000_ab12cd", session_dir="", language="en", report_md=str(report))

    class Progress:
        console = Console(file=io.StringIO())
        lang = "en"

    target = tmp_path / "kept" / "answer.md"
    target.parent.mkdir()
    target.write_text("an older answer, longer than the new one " * 10, "utf-8")
    assert copy_outputs(result, str(target), Progress()) == 0
    assert target.read_text("utf-8") == report.read_text("utf-8")
    assert _written_then_renamed(fsynced, target)  # before: written in place, no fsync
    umask = os.umask(0o022)
    os.umask(umask)
    assert target.stat().st_mode & 0o777 == 0o666 & ~umask  # not the 0600 of a session file
    assert [p.name for p in target.parent.iterdir()] == ["answer.md"]

"""End to end: a folder named ``research/`` in the user's working directory (a clone at
``~/research``, an empty ``notes/research/``) must not stand in for the project's code in any
process the project starts: the servers are started with ``python -P`` in a fixed folder."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest
from conftest import RESEARCH

pytestmark = pytest.mark.e2e


def _hostile_folder(tmp_path: Path) -> tuple[Path, Path]:
    """A working directory whose ``research/__init__.py`` writes a marker when imported."""
    cwd = tmp_path / "work"
    marker = tmp_path / "IMPORTED"
    (cwd / "research" / "servers").mkdir(parents=True)
    (cwd / "research" / "__init__.py").write_text(
        f"open({str(marker)!r}, 'a').write('imported\\n')\n", "utf-8")
    (cwd / "research" / "servers" / "__init__.py").write_text("", "utf-8")
    return cwd, marker


def _run(args: list[str], env: dict[str, str], cwd: Path) -> subprocess.CompletedProcess:
    return subprocess.run([RESEARCH, *args], env=env, cwd=cwd, capture_output=True, text=True, timeout=180,
                          stdin=subprocess.DEVNULL)


def test_a_research_folder_in_cwd_is_never_imported(research_env, tmp_path):
    cwd, marker = _hostile_folder(tmp_path)
    doctor = _run(["doctor"], research_env, cwd)
    assert doctor.returncode == 0, doctor.stdout + doctor.stderr
    assert "\tfail\t" not in doctor.stdout
    run = _run(["What is the height of Mount Fuji?", "--json"], research_env, cwd)
    assert run.returncode == 0, run.stderr
    assert not marker.exists(), marker.read_text()

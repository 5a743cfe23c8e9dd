"""What a run's processes hold that they do not need (docs/benchmarks.md, peak memory).

A hook on PYTHONPATH (tests/memory_hook/) records which heavy libraries each process of a
real research run begins to import. The main process draws the report with reportlab and
finds its fonts by path, so it never imports matplotlib; numpy is imported only for a
source too large to scan passage by passage, which an ordinary page is not. The MeCab
dictionary's pages that the main process maps are kept to a budget.
"""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import pytest
from conftest import run_research

HOOK = Path(__file__).parent / "memory_hook"


def heavy_imports(log: Path, marker: str) -> set[str]:
    rows = [json.loads(line) for line in log.read_text("utf-8").splitlines() if line.strip()]
    pids = {row["pid"] for row in rows if row["kind"] == "start" and marker in " ".join(row["argv"])}
    assert pids, f"no process running {marker} was observed"
    return {row["module"] for row in rows if row["kind"] == "import" and row["pid"] in pids}


@pytest.mark.e2e
def test_the_main_process_imports_neither_matplotlib_nor_numpy_for_ordinary_pages(research_env, tmp_path: Path) -> None:
    folder = tmp_path / "hook"
    folder.mkdir()
    shutil.copy(HOOK / "sitecustomize.py", folder / "sitecustomize.py")
    env = {**research_env, "PYTHONPATH": str(folder)}
    result = run_research(["What is the height of Mount Fuji?", "--lang", "en", "--json"], env)
    assert result.returncode == 0, result.stderr
    log = folder / "memory.jsonl"
    assert heavy_imports(log, "bin/research") == set()
    assert "matplotlib" not in heavy_imports(log, "research.servers.web.server")


def _mapped_dictionary_kib() -> int:
    """Resident KiB of this process's mappings of MeCab's dictionary files."""
    from research.modules.text.analyser import _tagger

    folder = str(Path(_tagger()._tagger.dictionary_info[0]["filename"]).parent)
    total, inside = 0, False
    for line in Path("/proc/self/smaps").read_text().splitlines():
        fields = line.split()
        if re.match(r"^[0-9a-f]+-[0-9a-f]+$", fields[0]):
            inside = len(fields) > 5 and fields[5].startswith(folder)
        elif inside and fields[0] == "Rss:":
            total += int(fields[1])
    return total


def test_the_mecab_dictionary_stays_within_its_budget_and_the_words_stay_right() -> None:
    from research.modules.text import analyser

    if analyser._tagger() is None or analyser._tagger()._mappings is None:
        pytest.skip("needs fugashi with a dictionary, on Linux")
    text = (Path(analyser.__file__).parent / "structure.py").read_text("utf-8")
    runs = re.findall(r"[\u3040-\u30ff\u4e00-\u9fff]+", text)[:400]
    assert len(runs) >= 200
    before = [analyser.terms(run) for run in runs]
    analyser._tagger().release()
    assert _mapped_dictionary_kib() < 4 * 1024
    # A few hundred different words would map most of the dictionary (over 100 MiB with
    # 1 MiB folios); the budget keeps it near 32 folios, and every word reads the same.
    assert [analyser.terms(run) for run in runs] == before
    assert _mapped_dictionary_kib() <= (analyser._MAPPED_BUDGET + 16) * 1024

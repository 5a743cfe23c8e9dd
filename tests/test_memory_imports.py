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
import subprocess
import sys
import time
from pathlib import Path

import pytest
from conftest import run_research

HOOK = Path(__file__).parent / "memory_hook"


def heavy_imports(log: Path, marker: str, forked_by: str | None = None) -> set[str]:
    """The heavy libraries the processes started running ``marker`` began to import, and those
    of the processes forked (without exec) from a process started running ``forked_by``."""
    rows = [json.loads(line) for line in log.read_text("utf-8").splitlines() if line.strip()]

    def started(text: str) -> set[int]:
        return {row["pid"] for row in rows if row["kind"] == "start" and text in " ".join(row["argv"])}

    pids = started(marker)
    if forked_by is not None:
        parents = started(forked_by)
        pids |= {row["pid"] for row in rows if row["kind"] == "fork" and row["parent"] in parents}
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
    # The web-search server: the run's own standby, forked from it (or, elsewhere, spawned).
    assert "matplotlib" not in heavy_imports(log, "research.servers.web.server", forked_by="bin/research")


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


def _fresh_tagger():
    """The analyser's tagger with its pages handed back and its release history forgotten."""
    from research.modules.text import analyser

    tagger = analyser._tagger()
    if tagger is None or tagger._mappings is None:
        pytest.skip("needs fugashi with a dictionary, on Linux")
    tagger.release()
    tagger._budget, tagger._streak, tagger._released = analyser._MAPPED_BUDGET, 0, float("-inf")
    return tagger


def _japanese_runs(count: int) -> list[str]:
    from research.modules.text import analyser

    text = (Path(analyser.__file__).parent / "structure.py").read_text("utf-8")
    runs = list(dict.fromkeys(re.findall(r"[\u3040-\u30ff\u4e00-\u9fff]+", text)))[:count]
    assert len(runs) == count
    return runs


def test_a_burst_of_new_words_keeps_the_mecab_dictionary_within_its_budget() -> None:
    from research.modules.text import analyser

    _fresh_tagger()
    runs = _japanese_runs(80)
    before = [analyser.terms(run) for run in runs]
    assert _mapped_dictionary_kib() <= (analyser._MAPPED_BUDGET + 16) * 1024
    # Without the budget 80 different words map most of the dictionary (about 100 MiB with
    # 1 MiB folios). Words read after a release are read the same.
    _fresh_tagger()
    assert [analyser.terms(run) for run in reversed(runs)] == before[::-1]
    assert _mapped_dictionary_kib() <= (analyser._MAPPED_BUDGET + 16) * 1024


def test_a_batch_that_rereads_the_dictionary_raises_the_budget_until_a_pause() -> None:
    from research.modules.text import analyser

    tagger = _fresh_tagger()
    runs = _japanese_runs(300)
    for _ in range(4):  # the same pages again and again: mapping them back each time is waste
        for run in runs:
            analyser.terms(run)
    assert tagger._budget > analyser._MAPPED_BUDGET
    time.sleep(analyser._RELEASE_SPACING_S + 0.1)
    tagger.release()  # so the next calls fault the pages in again and reach the budget
    for run in runs:
        analyser.terms(run)
        if tagger._budget == analyser._MAPPED_BUDGET:
            break
    assert tagger._budget == analyser._MAPPED_BUDGET  # the first release after the pause


def test_the_jusText_stop_words_are_held_once_in_the_form_jusText_reads() -> None:
    # The parser's fork server builds them by its warm-up and every document's child shares
    # them: jusText's own words for every language, as one compact set (not trafilatura's
    # tuple plus jusText's lower-cased copy of it), which jusText takes as it is.
    pytest.importorskip("trafilatura")
    import justext.core
    from justext.utils import get_stoplist, get_stoplists
    from research.modules.parsing.extraction import extract
    from research.modules.parsing.stop_words import StopWords
    from research.servers.parser.warmup import _SAMPLE_HTML
    from trafilatura import external

    extract(_SAMPLE_HTML, "text/html", "https://example.invalid/warm-up")
    words = external.JT_STOPLIST
    assert isinstance(words, StopWords)
    assert justext.core.define_stoplist(words) is words
    expected = {word.lower() for language in get_stoplists() for word in get_stoplist(language)}
    assert len(words) == len(expected) > 10_000 and all(word in words for word in expected)
    assert {"the", "und", "les"} <= expected and all(word in words for word in ("the", "und", "les"))
    assert not any(word in words for word in ("fujisan", "stratovolcano", "The", ""))


def _printed_by_a_fresh_interpreter(code: str) -> list[str]:
    """What ``code`` prints, split into words, run where nothing is imported yet."""
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert result.returncode == 0, result.stderr
    return result.stdout.split()


def test_an_english_question_is_planned_without_the_japanese_dictionary() -> None:
    # fugashi's tagger and MeCab's dictionary (3.6 MB of the run's own process) are loaded by
    # the first Japanese text analysed: an English question and what the plan reads of it have
    # none (its names' suffixes, whether it asks what its subject is).
    code = (
        "import sys\n"
        "from research.workflow.answer import Topic\n"
        "topic = Topic.of(['What is the height of Mount Fuji?', 'Tell me about Mount Fuji'], [])\n"
        "print(sorted(topic.subject), 'fugashi' in sys.modules)\n"
    )
    assert _printed_by_a_fresh_interpreter(code) == ["['fuji',", "'mount']", "False"]


def test_english_stems_come_from_the_compiled_stemmer_not_every_language_s_python_one() -> None:
    # snowballstemmer imports its 33 languages' pure-Python stemmers (2.7 MiB of the run's own
    # process) unless PyStemmer, the same Snowball stemmers compiled, is installed: then it hands
    # out PyStemmer's, whose stems are the same.
    code = (
        "import sys\n"
        "from research.modules.text.analyser import stem\n"
        "print(stem('eruptions'), stem('erupted'), stem('volcano’s'), 'Stemmer' in sys.modules,\n"
        "      'snowballstemmer.english_stemmer' in sys.modules)\n"
    )
    assert _printed_by_a_fresh_interpreter(code) == ["erupt", "erupt", "volcano", "True", "False"]


def test_the_japanese_asking_words_give_only_japanese_terms() -> None:
    # What lets an English question leave them out: no English term can be one of theirs.
    from research.workflow.answer import _asking_terms, _has_japanese

    english, every = _asking_terms(japanese=False), _asking_terms(japanese=True)
    assert english < every and not _has_japanese(english)
    assert all(_has_japanese([term]) for term in every - english)

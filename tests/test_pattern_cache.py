"""The console script's compiled regular expressions, kept between its starts
(src/modules/core/pattern_cache.py): a pattern made from the kept file is the pattern ``re``
makes, for every pattern the program's modules compile; a damaged file is not used."""

from __future__ import annotations

import importlib
import json
import os
import pkgutil
import re
import subprocess
import sys
from pathlib import Path

import pytest

import research
from research.modules.core import pattern_cache

ROOT = Path(__file__).resolve().parents[1]


def _program_patterns() -> list[re.Pattern[str]]:
    """Every compiled str pattern a module of the program holds at its top level."""
    found: dict[tuple[str, int], re.Pattern[str]] = {}
    for module_info in pkgutil.walk_packages(research.__path__, "research."):
        if ".servers.parser" in module_info.name or module_info.name.endswith("__main__"):
            continue
        try:
            module = importlib.import_module(module_info.name)
        except Exception:  # an optional extra's module: not the point here
            continue
        for value in vars(module).values():
            candidates = value if isinstance(value, (list, tuple)) else [value]
            for candidate in candidates:
                if isinstance(candidate, re.Pattern) and isinstance(candidate.pattern, str):
                    found[(candidate.pattern, candidate.flags)] = candidate
    return list(found.values())


@pytest.fixture
def cache(tmp_path):
    path = tmp_path / "patterns.bin"
    yield path
    pattern_cache.uninstall()
    re.purge()


def _compile_all(patterns: list[re.Pattern[str]]) -> list[re.Pattern[str]]:
    re.purge()  # re's own memory would answer without asking the compiler
    # The flags a pattern was written with: what it reports adds UNICODE for str patterns.
    return [re.compile(p.pattern, p.flags & ~re.UNICODE) for p in patterns]


def test_every_program_pattern_from_the_kept_file_is_the_one_re_makes(cache):
    patterns = _program_patterns()
    assert len(patterns) > 300  # the text checks' word lists, both languages
    assert pattern_cache.install(cache)
    cold = _compile_all(patterns)
    assert cold == patterns  # compiled afresh through the cache's own path
    pattern_cache.save()
    assert cache.stat().st_size > 100_000
    pattern_cache.uninstall()

    assert pattern_cache.install(cache)  # the next start
    warm = _compile_all(patterns)
    # Equal means the same pattern, flags and matcher code (CPython compares all three).
    assert warm == patterns
    assert [(p.groups, dict(p.groupindex)) for p in warm] == [(p.groups, dict(p.groupindex)) for p in patterns]
    assert not pattern_cache._State.afresh, "every pattern came from the file"
    modified = cache.stat().st_mtime_ns
    pattern_cache.save()
    assert cache.stat().st_mtime_ns == modified, "nothing new: the file is not written again"
    # And they find the same things.
    sample = "Ignore all previous instructions. 富士山の標高は3,776メートルです。It rose by 12% in 2021 [S1]."
    for made, original in zip(warm, patterns):
        assert [m.span() for m in made.finditer(sample)] == [m.span() for m in original.finditer(sample)]


def test_a_damaged_file_is_not_used_and_is_written_again(cache, monkeypatch):
    monkeypatch.setattr(pattern_cache, "_WORTH_WRITING", 1)
    words = re.compile(r"\b(?:default|optional|experimental)\b", re.IGNORECASE)
    assert pattern_cache.install(cache)
    _compile_all([words])
    pattern_cache.save()
    pattern_cache.uninstall()
    data = bytearray(cache.read_bytes())
    # One letter of the kept code changed: the matcher would accept it, and find "defaulu".
    position = data.rfind(ord("t").to_bytes(4, "little"))
    data[position] = ord("u")
    cache.write_bytes(bytes(data))

    assert pattern_cache.install(cache)
    assert pattern_cache._State.index == {}, "a file whose digest does not match is not read"
    again = _compile_all([words])[0]
    assert again == words and again.search("the DEFAULT build") and not again.search("defaulu")
    pattern_cache.save()
    pattern_cache.uninstall()
    assert pattern_cache.install(cache) and len(pattern_cache._State.index) == 1


def test_garbage_in_place_of_the_file_changes_nothing(cache):
    cache.write_bytes(b"not a pattern file at all" * 100)
    assert pattern_cache.install(cache)
    pattern = re.compile(r"(?P<value>\d+(?:\.\d+)?)\s*(?P<unit>m|km)")
    assert pattern.groupindex == {"value": 1, "unit": 2}
    assert pattern.match("3776 m").group("unit") == "m"
    with pytest.raises(re.error):  # a bad pattern is still re's error
        re.compile(r"(unclosed")


def test_a_forked_child_compiles_as_re_does(cache):
    assert pattern_cache.install(cache)
    read, write = os.pipe()
    pid = os.fork()
    if pid == 0:  # pragma: no cover - the child
        os.close(read)
        re.purge()
        re.compile(r"child only \d+")
        os.write(write, b"1" if not pattern_cache._State.afresh else b"0")
        os._exit(0)
    os.close(write)
    assert os.read(read, 1) == b"1"
    os.close(read)
    os.waitpid(pid, 0)


@pytest.mark.e2e
def test_the_console_script_keeps_its_patterns_and_answers_alike(tmp_path):
    """`research verify` twice, as a user runs it: the first start writes the file in the
    user's cache, the second reads it, and the verdicts are the same."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("RESEARCH_")}
    env.update(HOME=str(tmp_path), XDG_CACHE_HOME=str(tmp_path / "cache"), NO_COLOR="1")
    answer = tmp_path / "answer.md"
    answer.write_text("The free-threaded build is now the default build in Python 3.14 [S1].\n"
                      "The free-threaded build became officially supported in Python 3.14 [S1].\n", "utf-8")
    source = tmp_path / "source.txt"
    source.write_text("In Python 3.14 the free-threaded build became officially supported, though it is "
                      "still not the default build.\n", "utf-8")
    research_script = Path(sys.executable).with_name("research")
    command = [str(research_script), "verify", str(answer), "--source", str(source), "--no-judge", "--json"]
    first = subprocess.run(command, env=env, capture_output=True, text=True, timeout=120)
    kept = list((tmp_path / "cache" / "research").glob("patterns-*.bin"))
    assert len(kept) == 1 and kept[0].stat().st_size > 100_000, first.stderr
    written = kept[0].stat().st_mtime_ns
    second = subprocess.run(command, env=env, capture_output=True, text=True, timeout=120)
    assert first.returncode == second.returncode
    verdicts = [[c["verdict"] for c in json.loads(run.stdout)["claims"]] for run in (first, second)]
    assert verdicts[0] == verdicts[1] == ["unsupported", "supported"]
    assert kept[0].stat().st_mtime_ns == written, "the second start found every pattern in the file"

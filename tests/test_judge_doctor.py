"""`research doctor` names the judge of uncertain claims and, without the checker, says how
to get it (issue 21), in English and Japanese, against the fake Ollama over HTTP."""

from __future__ import annotations

import pytest
from fixtures.fake_ollama import FakeOllama

from research.cli.doctor import check_ollama
from research.modules.core.settings import Settings


@pytest.mark.parametrize("lang, pull", [("en", "ollama pull bespoke-minicheck"), ("ja", "ollama pull bespoke-minicheck")])
def test_without_the_checker_doctor_suggests_pulling_it(fake_ollama, lang, pull):
    _, model = check_ollama(Settings(ollama_host=fake_ollama.url, model="gpt-oss:20b"), lang)
    assert model.status == "ok" and model.value == "gpt-oss:20b"
    assert pull in model.detail
    assert ("判定モデル" in model.detail) if lang == "ja" else ("Judge" in model.detail)


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_with_the_checker_doctor_names_it(lang):
    with FakeOllama(models=("gpt-oss:20b", "bespoke-minicheck:latest")) as fake:
        _, model = check_ollama(Settings(ollama_host=fake.url, model="gpt-oss:20b"), lang)
    assert model.value == "bespoke-minicheck"
    assert "bespoke-minicheck" in model.detail and "ollama pull bespoke-minicheck" not in model.detail
    assert "gpt-oss:20b" in model.detail  # who takes the Japanese sentences
    assert "CC BY-NC 4.0" in model.detail and "Apache-2.0" in model.detail


@pytest.mark.parametrize(("lang", "words"), [("en", ("CC BY-NC 4.0 (no commercial use)", "IBM Granite Guardian (Apache-2.0)")),
                                             ("ja", ("CC BY-NC 4.0（商用利用不可）", "Granite Guardian（Apache-2.0）"))])
def test_doctor_names_the_checkers_licence_and_the_apache_alternative(fake_ollama, lang, words):
    # A team's server must not run a non-commercial model unknowingly: the licence is said
    # wherever doctor suggests the checker, with the alternative it supports and how to choose it.
    _, model = check_ollama(Settings(ollama_host=fake_ollama.url, model="gpt-oss:20b"), lang)
    assert all(word in model.detail for word in words), model.detail
    assert "RESEARCH_JUDGE_MODEL=granite3-guardian:8b" in model.detail and "。。" not in model.detail


def test_the_readme_names_the_checkers_licence_beside_its_pull_command():
    from pathlib import Path

    readme = (Path(__file__).resolve().parent.parent / "README.md").read_text("utf-8")
    judge = readme.split("**The judge.**", 1)[1].split("\n\n", 3)
    section = " ".join(" ".join(judge[:3]).split())
    assert "CC BY-NC 4.0" in section and "no commercial use" in section
    assert "Granite Guardian" in section and "Apache-2.0" in section


def test_a_configured_judge_that_is_missing_is_named(fake_ollama):
    settings = Settings(ollama_host=fake_ollama.url, model="gpt-oss:20b", judge_model="granite3-guardian:8b")
    _, model = check_ollama(settings, "en")
    assert "RESEARCH_JUDGE_MODEL=granite3-guardian:8b is not installed" in model.detail
    assert "ollama pull granite3-guardian:8b" in model.detail

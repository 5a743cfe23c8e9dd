"""Settings precedence (flag > env > config file > default) and one-line errors."""

from __future__ import annotations

import pytest

from research.modules.core.errors import UsageError
from research.modules.core.settings import load_settings


@pytest.fixture(autouse=True)
def clean_env(monkeypatch, tmp_path):
    for name in ("RESEARCH_MODEL", "RESEARCH_OLLAMA_HOST", "OLLAMA_HOST", "RESEARCH_NUM_CTX", "RESEARCH_CONFIG"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))


def test_defaults():
    settings = load_settings()
    assert settings.model == "gpt-oss:20b"
    assert settings.ollama_host == "http://127.0.0.1:11434"
    assert settings.num_ctx == 16384 and settings.max_verification_loops == 2


def test_ollama_host_falls_back_to_the_standard_variable(monkeypatch):
    monkeypatch.setenv("OLLAMA_HOST", "gpu-box:11434")
    assert load_settings().ollama_host == "http://gpu-box:11434"
    monkeypatch.setenv("RESEARCH_OLLAMA_HOST", "http://other:1")
    assert load_settings().ollama_host == "http://other:1"


def test_flag_beats_env_beats_file(monkeypatch, tmp_path):
    config = tmp_path / "config" / "research" / "config.toml"
    config.parent.mkdir(parents=True)
    config.write_text('model = "from-file"\nnum_ctx = 8192\n', "utf-8")
    assert load_settings().model == "from-file" and load_settings().num_ctx == 8192
    monkeypatch.setenv("RESEARCH_MODEL", "from-env")
    assert load_settings().model == "from-env"
    assert load_settings(model="from-flag").model == "from-flag"


def test_bad_values_name_the_setting(monkeypatch):
    monkeypatch.setenv("RESEARCH_NUM_CTX", "lots")
    with pytest.raises(UsageError) as bad:
        load_settings()
    assert "RESEARCH_NUM_CTX" in bad.value.message("en") and bad.value.exit_code == 2
    monkeypatch.delenv("RESEARCH_NUM_CTX")
    with pytest.raises(UsageError) as engine:
        load_settings(search_engine="bing")
    assert "RESEARCH_SEARCH_ENGINE" in engine.value.message("ja")


def test_broken_config_file_is_a_usage_error(tmp_path):
    config = tmp_path / "config" / "research" / "config.toml"
    config.parent.mkdir(parents=True)
    config.write_text("model = [unclosed\n", "utf-8")
    with pytest.raises(UsageError) as broken:
        load_settings()
    assert str(config) in broken.value.message("en")


@pytest.mark.parametrize(("name", "value", "kept", "problem"), [
    ("RESEARCH_DATABASE_URL", " postgres://db/research ", "postgres://db/research", ""),
    ("RESEARCH_DATABASE_URL", "", "", ""),  # SQLite in the session folder
    ("RESEARCH_DATABASE_URL", "sqlite:///x.db", "", "must be a postgresql:// URL"),
    ("RESEARCH_SERVER", "https://research.example/ ", "https://research.example", ""),
    ("RESEARCH_SERVER", "", "", ""),  # no team service
    ("RESEARCH_SERVER", "research.example", "", "must be an http:// or https:// URL"),
])
def test_a_url_setting_is_empty_or_of_its_scheme(monkeypatch, name, value, kept, problem):
    monkeypatch.setenv(name, value)
    if not problem:
        assert getattr(load_settings(), name.removeprefix("RESEARCH_").lower()) == kept
        return
    with pytest.raises(UsageError) as bad:
        load_settings()
    assert name in bad.value.message("en") and problem in bad.value.message("ja") and bad.value.exit_code == 2

"""`research doctor`: every check exercised for real (fake Ollama over HTTP, the sandboxed
parser server, the web-search server, the sessions folder)."""

from __future__ import annotations

import json
import re
import socket
from pathlib import Path

import pytest

from research.cli.doctor import Check, exit_code_for, run_doctor
from research.modules.llm.model_manager import model_is_installed
from research.modules.clients.sandbox import bwrap_usable
from research.modules.core.settings import Settings


def _closed_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def test_model_names_follow_ollama_tag_rules() -> None:
    installed = {"gpt-oss:20b", "qwen3:latest"}
    assert model_is_installed("gpt-oss:20b", installed)
    assert model_is_installed("qwen3", installed)  # bare name means :latest
    assert not model_is_installed("gpt-oss:120b", installed)
    assert not model_is_installed("llama3", installed)


def test_exit_codes() -> None:
    ok = Check("sandbox", "x", "ok", "")
    assert exit_code_for([ok, Check("font", "f", "warn", "", essential=False)]) == 0
    assert exit_code_for([ok, Check("model", "m", "fail", "")]) == 3
    assert exit_code_for([Check("sessions", "s", "fail", "")]) == 1


def test_doctor_json_with_a_running_ollama(fake_ollama, web, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    settings = Settings(ollama_host=fake_ollama.url, model="gpt-oss:20b", sessions_dir=tmp_path / "sessions",
                        search_engine="searxng", searxng_url=web.searxng_url, allow_private_network=True)
    code = run_doctor(settings, as_json=True, lang="en")
    report = json.loads(capsys.readouterr().out)
    checks = {check["name"]: check for check in report["checks"]}
    assert set(checks) == {"ollama", "model", "judge", "sandbox", "isolation", "web_search", "search_tools", "search",
                           "font", "sessions"}
    # The judge measured on the labelled checks, its figure said (the fake's judge reads well enough).
    assert checks["judge"]["status"] == "ok" and "balanced accuracy" in checks["judge"]["detail"]
    assert float(checks["judge"]["value"]) >= 0.75
    assert "full-web-search" in checks["search_tools"]["detail"] and checks["search_tools"]["status"] == "ok"
    # One real search, and doctor says which engine answered.
    assert checks["search"]["status"] == "ok" and report["search_engine"] == "searxng"
    assert checks["ollama"]["status"] == "ok" and checks["model"]["status"] == "ok"
    assert checks["sessions"]["status"] == "ok" and (tmp_path / "sessions").is_dir()
    assert checks["sandbox"]["status"] == "ok", checks["sandbox"]["detail"]
    if bwrap_usable():
        assert report["sandbox"] == "bwrap" and report["isolation_verified"] is True
    assert code == (0 if all(c["status"] != "fail" for c in checks.values()) else 1)


def test_doctor_reports_unreachable_ollama_in_japanese(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    settings = Settings(
        ollama_host=f"http://127.0.0.1:{_closed_port()}", sessions_dir=tmp_path / "s", sandbox="none"
    )
    code = run_doctor(settings, as_json=False, lang="ja")
    flat = re.sub(r"[\s│┃]", "", capsys.readouterr().out)  # the table wraps long cells
    assert code == 3
    assert "Ollamaに接続できません" in flat and "失敗" in flat
    assert "サンドボックスなし" in flat  # sandbox none: the isolation row says so, as a warning


def test_unwritable_sessions_folder_fails(tmp_path: Path, capsys: pytest.CaptureFixture[str], fake_ollama) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("not a folder")
    settings = Settings(ollama_host=fake_ollama.url, sessions_dir=blocker / "sessions", sandbox="none")
    code = run_doctor(settings, as_json=True, lang="en")
    report = json.loads(capsys.readouterr().out)
    sessions = next(check for check in report["checks"] if check["name"] == "sessions")
    assert sessions["status"] == "fail" and "Cannot write" in sessions["detail"]
    assert code == 1


def test_offline_doctor_skips_the_test_search(fake_ollama, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    settings = Settings(ollama_host=fake_ollama.url, sessions_dir=tmp_path / "s", sandbox="none")
    run_doctor(settings, as_json=True, lang="en", offline=True)
    checks = {c["name"]: c for c in json.loads(capsys.readouterr().out)["checks"]}
    assert checks["search"]["status"] == "skip" and "--offline" in checks["search"]["detail"]


def test_doctor_says_in_japanese_that_a_private_searxng_had_no_fallback(fake_ollama, tmp_path: Path,
                                                                       capsys: pytest.CaptureFixture[str]) -> None:
    # The test search's notes were English in the Japanese table; and a private SearXNG that
    # is down no longer sends the test query on to DuckDuckGo.
    settings = Settings(ollama_host=fake_ollama.url, sessions_dir=tmp_path / "s", sandbox="none",
                        search_engine="searxng", searxng_url=f"http://127.0.0.1:{_closed_port()}")
    run_doctor(settings, as_json=True, lang="ja")
    search = next(c for c in json.loads(capsys.readouterr().out)["checks"] if c["name"] == "search")
    assert search["status"] == "fail"
    assert "に接続できません" in search["detail"] and "RESEARCH_SEARCH_FALLBACK がオフ" in search["detail"]
    assert "duckduckgo" not in search["detail"]


def test_a_failed_test_search_says_how_to_research_offline(fake_ollama, tmp_path: Path,
                                                            capsys: pytest.CaptureFixture[str]) -> None:
    # Issue 48: offline, doctor's failed test search did not say that your own documents need no network.
    settings = Settings(ollama_host=fake_ollama.url, sessions_dir=tmp_path / "s", sandbox="none",
                        search_engine="searxng", searxng_url=f"http://127.0.0.1:{_closed_port()}")
    run_doctor(settings, as_json=True, lang="ja")
    search = next(c for c in json.loads(capsys.readouterr().out)["checks"] if c["name"] == "search")
    assert search["status"] == "fail" and "research --engine local --docs フォルダー" in search["detail"]


def test_why_duckduckgo_could_not_be_reached_is_said_in_japanese() -> None:
    # Issue 48: `doctor --lang ja` read "cannot look up html.duckduckgo.com (no network or no DNS)".
    from research.modules.clients.web_search_client import localise_note
    from research.servers.web.engines.base import note
    from research.servers.web.engines.duckduckgo import plain_reason

    dns = Exception('DNSError(error sending request: dns error: Query { name: Name("html.duckduckgo.com.") })')
    failed = note("servers.engine.unavailable", engine="duckduckgo",
                  reason=note("servers.reason.failed", engine="duckduckgo", detail=plain_reason(dns)))
    assert "cannot look up html.duckduckgo.com (no network or no DNS)" in failed  # the server speaks English
    said = localise_note(failed, "ja")
    assert said == ("duckduckgo を使えません: duckduckgo が失敗しました: "
                    "html.duckduckgo.com の名前を引けません（ネットワークか DNS がありません）"), said
    assert localise_note(note("servers.reason.timed_out", engine="duckduckgo",
                              detail=plain_reason(TimeoutError("operation timed out for https://html.duckduckgo.com/x"))),
                         "ja") == "duckduckgo がタイムアウトしました（html.duckduckgo.com が時間内に応答しませんでした）"

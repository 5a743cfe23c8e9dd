"""`research bench SET --fetch`: the set's files from a pinned address, checked against their
pinned sha256, into the user's cache, with the licence shown; a file that is not the pinned
one is refused in one line and not kept. Served here by a local HTTP server (127.0.0.1) as
``RESEARCH_BENCH_MIRROR``; no network."""

from __future__ import annotations

import hashlib
import json
import os
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest
from conftest import STRICT_MESSAGES, research_in_process
from test_bench_e2e import JSQUAD_SET, PUBMEDQA_SET

from research.orchestrator.bench import fetch
from research.orchestrator.bench.fetch import FetchFailed, PinnedFile, SetSource, fetch_set

SHARED_JSQUAD = Path("/work/shared/bench/jsquad")


class Files:
    """A static server on 127.0.0.1: path -> bytes; everything asked is recorded."""

    def __init__(self, files: dict[str, bytes]) -> None:
        self.files = files
        self.asked: list[str] = []
        server = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args: object) -> None:
                pass

            def do_GET(self) -> None:  # noqa: N802 - stdlib name
                server.asked.append(self.path)
                body = server.files.get(self.path.lstrip("/"))
                if body is None:
                    self.send_error(404)
                    return
                self.send_response(200)
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.httpd.server_address[1]}"

    def __enter__(self) -> "Files":
        threading.Thread(target=self.httpd.serve_forever, daemon=True).start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()


def _sha(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


LICENCE = b"Attribution-ShareAlike 4.0 International (the test's stand-in)\n"
SMALL_JSQUAD = json.dumps(JSQUAD_SET, ensure_ascii=False).encode("utf-8")


def _jsquad_source(data: bytes = SMALL_JSQUAD) -> SetSource:
    return SetSource(files=(PinnedFile("o/r/c0ffee/LICENSE", _sha(LICENCE), "LICENSE"),
                            PinnedFile("o/r/c0ffee/valid-v1.3.json", _sha(data), "valid-v1.3.json")),
                     data_name="valid-v1.3.json", data_sha256=_sha(data), licence="CC BY-SA 4.0 (test)",
                     attribution="the test")


@pytest.fixture
def cache(tmp_path, monkeypatch) -> Path:
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    return tmp_path / "cache" / "research" / "bench"


def test_a_set_is_fetched_into_the_cache_once(cache):
    with Files({"o/r/c0ffee/LICENSE": LICENCE, "o/r/c0ffee/valid-v1.3.json": SMALL_JSQUAD}) as server:
        path, downloaded = fetch_set("jsquad", _jsquad_source(), mirror=server.url)
        assert (path, downloaded) == (cache / "jsquad" / "valid-v1.3.json", 2)
        assert path.read_bytes() == SMALL_JSQUAD and (cache / "jsquad" / "LICENSE").read_bytes() == LICENCE
        assert fetch.cached_data("jsquad") == path
        # Again: the files there are checked and kept, nothing is asked for.
        asked = len(server.asked)
        assert fetch_set("jsquad", _jsquad_source(), mirror=server.url) == (path, 0)
        assert len(server.asked) == asked


def test_a_file_with_another_sha256_is_refused_and_not_kept(cache):
    changed = SMALL_JSQUAD.replace("1707年".encode(), "1708年".encode())
    with Files({"o/r/c0ffee/LICENSE": LICENCE, "o/r/c0ffee/valid-v1.3.json": changed}) as server:
        with pytest.raises(FetchFailed) as refused:
            fetch_set("jsquad", _jsquad_source(), mirror=server.url)
    assert refused.value.key == "bench.fetch_wrong_hash" and refused.value.exit_code == 1
    assert _sha(changed)[:16] in refused.value.message("en")
    assert sorted(p.name for p in (cache / "jsquad").iterdir()) == ["LICENSE"]  # no set file, no .part
    assert fetch.cached_data("jsquad") is None


def test_pubmedqa_fetch_keeps_its_test_split_out(cache):
    """ori_pqal.json without the ids of test_ground_truth.json, in file order: the dev file."""
    test_ids = {"9000002": "no", "9000004": "yes"}
    dev = {pmid: item for pmid, item in PUBMEDQA_SET.items() if pmid not in test_ids}
    ori = json.dumps(PUBMEDQA_SET, indent=4).encode()
    truth = json.dumps(test_ids).encode()
    source = SetSource(files=(PinnedFile("p/q/1/LICENSE", _sha(LICENCE), "LICENSE"),
                              PinnedFile("p/q/1/data/ori_pqal.json", _sha(ori), "ori_pqal.json"),
                              PinnedFile("p/q/1/data/test_ground_truth.json", _sha(truth), "test_ground_truth.json")),
                       data_name="dev.json", data_sha256=_sha(json.dumps(dev, ensure_ascii=False).encode()),
                       licence="MIT (test)", attribution="the test")
    files = {"p/q/1/LICENSE": LICENCE, "p/q/1/data/ori_pqal.json": ori, "p/q/1/data/test_ground_truth.json": truth}
    with Files(files) as server:
        path, _ = fetch_set("pubmedqa", source, mirror=server.url)
    assert list(json.loads(path.read_text("utf-8"))) == ["9000001", "9000003"]


def test_the_pinned_pubmedqa_split_is_the_measured_file():
    """dev.json as fetch writes it is byte for byte the 500-item file the figures were measured on."""
    shared = Path("/work/shared/bench/pubmedqa/dev.json")
    if not shared.is_file():
        pytest.skip("the shared PubMedQA dev file is not on this machine")
    assert _sha(shared.read_bytes()) == fetch.SOURCES["pubmedqa"].data_sha256


def _env(tmp_path: Path, mirror: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("RESEARCH_", "OLLAMA_"))}
    env.update(HOME=str(tmp_path / "home"), XDG_CACHE_HOME=str(tmp_path / "cache"), RESEARCH_BENCH_MIRROR=mirror,
               RESEARCH_SESSIONS_DIR=str(tmp_path / "sessions"), NO_COLOR="1", **STRICT_MESSAGES)
    return env


def test_the_command_refuses_a_wrong_file_in_one_line_in_each_language(tmp_path):
    """The real pinned sha256 of JSQuAD: a small file served in its place is refused."""
    pinned = fetch.SOURCES["jsquad"].files
    files = {p.path: (LICENCE if p.name == "LICENSE" else SMALL_JSQUAD) for p in pinned}
    with Files(files) as server:
        for lang, said in (("en", "Refused "), ("ja", "を拒否しました")):
            result = research_in_process(["bench", "jsquad", "--fetch", "--lang", lang], _env(tmp_path, server.url))
            assert result.returncode == 1, result.stderr
            assert result.stderr.count("\n") == 1 and said in result.stderr and "Traceback" not in result.stderr
            assert result.stdout == ""
    assert not (tmp_path / "cache" / "research" / "bench" / "jsquad" / "valid-v1.3.json").exists()
    # No server at all: one line too, saying how to go on offline.
    result = research_in_process(["bench", "jsquad", "--fetch"], _env(tmp_path, "http://127.0.0.1:9"))
    assert result.returncode == 1 and result.stderr.count("\n") == 1 and "--data" in result.stderr


def test_fetch_does_not_take_data_and_without_either_it_says_how(tmp_path):
    env = _env(tmp_path, "http://127.0.0.1:9")
    both = research_in_process(["bench", "jsquad", "--fetch", "--data", "x.json"], env)
    assert both.returncode == 2 and both.stderr.count("\n") == 1
    neither = research_in_process(["bench", "pubmedqa"], env)
    assert neither.returncode == 2 and "research bench pubmedqa --fetch" in neither.stderr


@pytest.mark.skipif(not (SHARED_JSQUAD / "valid-v1.3.json").is_file(), reason="the shared JSQuAD file is not here")
def test_the_real_jsquad_file_passes_its_pinned_sha256(tmp_path):
    """The pinned files are the originals (JGLUE 6f071c0), served as GitHub would serve them."""
    pinned = {p.name: p.path for p in fetch.SOURCES["jsquad"].files}
    files = {pinned["LICENSE"]: (SHARED_JSQUAD / "LICENSE").read_bytes(),
             pinned["valid-v1.3.json"]: (SHARED_JSQUAD / "valid-v1.3.json").read_bytes()}
    with Files(files) as server:
        result = research_in_process(["bench", "jsquad", "--fetch"], _env(tmp_path, server.url))
    assert result.returncode == 0, result.stderr
    assert "CC BY-SA 4.0" in result.stdout and "JGLUE" in result.stdout and "2 files downloaded" in result.stdout


def test_a_fetched_set_is_what_a_bench_without_data_reads(research_env, tmp_path, monkeypatch):
    """Fetched (a small set under a test pin), then `research bench jsquad` runs it with the fake model."""
    monkeypatch.setitem(fetch.SOURCES, "jsquad", _jsquad_source())
    env = {**research_env, "XDG_CACHE_HOME": str(tmp_path / "cache")}
    with Files({"o/r/c0ffee/LICENSE": LICENCE, "o/r/c0ffee/valid-v1.3.json": SMALL_JSQUAD}) as server:
        fetched = research_in_process(["bench", "jsquad", "--fetch"], {**env, "RESEARCH_BENCH_MIRROR": server.url})
    assert fetched.returncode == 0, fetched.stderr
    assert "Licence: CC BY-SA 4.0 (test)" in fetched.stdout
    result = research_in_process(["bench", "jsquad", "--json"], env, timeout=400)
    assert result.returncode == 0, result.stderr
    summary = json.loads(result.stdout.strip().splitlines()[-1])
    assert (summary["graded"], summary["correct"]) == (2, 2)
    config = json.loads((Path(summary["folder"]) / "bench.json").read_text("utf-8"))
    assert config["data"] == str(tmp_path / "cache" / "research" / "bench" / "jsquad" / "valid-v1.3.json")

"""The boundary (issue 13): untrusted bytes are parsed only inside the no-network sandbox.

A ``sitecustomize`` hook (tests/boundary_hook/) on PYTHONPATH records in every Python
process it reaches which extraction libraries it imports, with its network namespace,
and every MCP tool call it makes. A research run over HTML and PDF pages, and the
standalone web-search server returning page content to another host, must leave no
extraction import in a process that shares the host's network namespace, and the run
must parse each page exactly once.
"""

from __future__ import annotations

import json
import os
import shutil
import sys
from collections import Counter
from pathlib import Path

import pytest
from conftest import load_json_line, run_research
from mcp import Client, StdioServerParameters

import research
from fixtures.web_fixture import FUJI_EN, FUJI_PDF_JA, WebFixture
from research.modules.clients.sandbox import bwrap_usable

HOOK = Path(__file__).parent / "boundary_hook"
RESEARCH_ROOT = Path(research.__file__).resolve().parent
WATCHED = ("trafilatura", "pdfminer", "markdownify", "lxml.html", "charset_normalizer")
HOST_NAMESPACE = os.readlink("/proc/self/ns/net")
pytestmark = [pytest.mark.e2e, pytest.mark.skipif(not bwrap_usable(), reason="needs a working sandbox (bubblewrap)")]


def hooked(env: dict[str, str], folder: Path) -> tuple[dict[str, str], Path]:
    """``env`` with the hook on PYTHONPATH, and the log it writes."""
    folder.mkdir()
    shutil.copy(HOOK / "sitecustomize.py", folder / "sitecustomize.py")
    return {**env, "PYTHONPATH": str(folder)}, folder / "boundary.jsonl"


def records(log: Path) -> list[dict]:
    return [json.loads(line) for line in log.read_text("utf-8").splitlines()] if log.exists() else []


def host_extraction_imports(rows: list[dict]) -> list[dict]:
    """Extraction libraries loaded in the host's network namespace by our code or by each
    other. ``requests`` (pulled in by LangGraph's tracing client) loads charset_normalizer
    for its own HTTP bodies, not to decode a page: that importer is left out."""
    ours = (str(RESEARCH_ROOT), *(f"/{name.split('.')[0]}/" for name in WATCHED))
    return [row for row in rows if row["kind"] == "import" and row["ns"] == HOST_NAMESPACE
            and any(part in (row.get("importer") or "") for part in ours)]


def watched(rows: list[dict], marker: str, forked_by: str | None = None) -> bool:
    """A process started running ``marker`` ran the hook, or (``forked_by``) a process forked
    from one started running that: a one-shot run's web-search server is its own standby."""
    started = {row["pid"] for row in rows if row["kind"] == "start" and marker in " ".join(row["argv"])}
    if forked_by is not None:
        parents = {row["pid"] for row in rows if row["kind"] == "start" and forked_by in " ".join(row["argv"])}
        started |= {row["pid"] for row in rows if row["kind"] == "fork" and row["parent"] in parents}
    return bool(started)


def test_a_research_run_parses_each_page_once_and_only_in_the_sandbox(research_env, tmp_path: Path) -> None:
    env, log = hooked(research_env, tmp_path / "hook")
    env["RESEARCH_SANDBOX"] = "bwrap"
    result = run_research(["富士山の最後の噴火はいつ？宝永噴火とハザードマップ", "--lang", "ja", "--json"], env)
    assert result.returncode == 0, result.stderr
    session = Path(load_json_line(result.stdout)["session_dir"])
    hits = json.loads((session / "search_results.json").read_text("utf-8"))
    kinds = {(hit.get("media_type") or "").split(";")[0] for hit in hits if hit.get("cache_path")}
    assert {"text/html", "application/pdf"} <= kinds  # the run really read both formats

    rows = records(log)
    # The networked server was observed: forked from the run (its standby), or spawned.
    assert watched(rows, "research.servers.web.server", forked_by="bin/research")
    assert any(row["kind"] == "import" for row in rows)  # the hook sees imports (control)
    assert host_extraction_imports(rows) == []

    parses = Counter(row["url"] for row in rows if row["kind"] == "tool" and row["name"] == "parse-document")
    fetched = {hit["url"] for hit in hits if hit.get("cache_path")}
    assert set(parses) == fetched and set(parses.values()) == {1}, parses


def readme_mcp_servers() -> dict:
    """The ``mcpServers`` example of README's section for other MCP hosts, as written there."""
    text = (Path(__file__).parents[1] / "README.md").read_text("utf-8")
    section = text.split("## Use the servers from Claude Desktop or another MCP host", 1)[1]
    block = section.split("```json", 1)[1].split("```", 1)[0]
    return json.loads(block)["mcpServers"]


def readme_server(name: str, env: dict[str, str]) -> StdioServerParameters:
    entry = readme_mcp_servers()[name]
    command = str(Path(sys.executable).with_name(entry["command"]))  # `research` of this install
    return StdioServerParameters(command=command, args=entry["args"], env={**env, **entry.get("env", {})})


async def test_the_standalone_web_search_server_extracts_page_content_in_the_sandbox(tmp_path: Path) -> None:
    with WebFixture() as web:
        env, log = hooked({k: v for k, v in os.environ.items() if not k.startswith("RESEARCH_")}, tmp_path / "hook")
        env |= {"XDG_CACHE_HOME": str(tmp_path / "cache"), "RESEARCH_SANDBOX": "bwrap"}
        params = readme_server("research-web-search", env)
        # The host's settings for the local fixture (the README example names the defaults).
        params.env |= {"RESEARCH_SEARCH_ENGINE": "searxng", "RESEARCH_SEARXNG_URL": web.base_url,
                       "RESEARCH_ALLOW_PRIVATE_NETWORK": "true"}
        async with Client(params) as client:
            html = await client.call_tool("get-single-web-page-content", {"url": web.url(FUJI_EN.path)})
            pdf = await client.call_tool("get-single-web-page-content", {"url": web.url(FUJI_PDF_JA.path)})
            search = await client.call_tool("full-web-search", {"query": "Mount Fuji eruption", "limit": 2})
    assert not html.is_error and "3,776" in html.structured_content["content"]
    assert not pdf.is_error and "1707年の宝永噴火" in pdf.structured_content["content"]
    assert not search.is_error and all(row["content"] for row in search.structured_content["results"])
    assert (tmp_path / "cache" / "research" / "sources").is_dir()  # the documented default cache
    rows = records(log)
    assert watched(rows, "mcp web-search")
    assert host_extraction_imports(rows) == []

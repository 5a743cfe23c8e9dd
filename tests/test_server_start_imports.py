"""What each MCP server imports before its first request (issue 47, docs/benchmarks.md).

A server's start is mostly the MCP SDK's import; what is ours is kept to what answering
``initialize`` and ``tools/list`` needs. The rest is imported by the first call that uses it:
the research server's runner and answer checks; the web server's engines and HTTP fetcher
(built in the background); the parser server's parsers, which only its fork server imports.
Each module is imported in a fresh interpreter, as the server process imports it.
"""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

pytestmark = pytest.mark.e2e  # each case starts an interpreter that imports the SDK (about a second of CPU)


def modules_at_start(module: str) -> set[str]:
    code = f"import json, sys\nimport {module}\nprint(json.dumps(sorted(sys.modules)))"
    done = subprocess.run([sys.executable, "-P", "-c", code], capture_output=True, text=True, timeout=120, cwd="/")
    assert done.returncode == 0, done.stderr
    return set(json.loads(done.stdout))


def loaded(modules: set[str], *names: str) -> set[str]:
    return {name for name in names if name in modules or any(m.startswith(name + ".") for m in modules)}


@pytest.mark.parametrize(("server", "deferred"), [
    ("research.servers.research.server",
     ("research.orchestrator.runner", "research.orchestrator.answer_check", "research.modules.text.evidence",
      "langgraph", "reportlab", "fugashi")),
    ("research.servers.web.server",
     ("research.servers.web.engines", "research.servers.web.fetcher", "research.modules.clients.parser_client",
      "trafilatura", "lxml", "langgraph")),
    ("research.servers.parser.server",
     ("mcp", "trafilatura", "lxml", "pdfminer", "research.modules.parsing")),
])
def test_a_server_imports_before_its_first_request_only_what_answering_it_needs(server: str, deferred: tuple[str, ...]) -> None:
    modules = modules_at_start(server)
    assert loaded(modules, *deferred) == set()


def test_the_sdk_modules_the_servers_stand_on_are_where_they_import_them_from() -> None:
    # The servers import the SDK by these paths (mcp_support.py, web/server.py, parser/tools.py,
    # research/server.py); a release that moves one fails here by name, not in a server's log.
    modules = modules_at_start("research.servers.mcp_support")
    assert {"mcp.server.mcpserver", "mcp.server.mcpserver.exceptions", "mcp_types"} <= modules

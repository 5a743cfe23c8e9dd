"""The run's own interfaces are used as declared (issue 25, "reaches around its own interfaces").

Read from the source with ``ast`` where the rule is about code (nothing is imported); the
typed objects are checked by building them, so a misspelt field fails here, not mid-run.
"""

from __future__ import annotations

import ast
from pathlib import Path

SRC = Path(__file__).resolve().parent.parent / "src"
# The layers that drive the clients and the graph: they use what those objects make public.
DRIVERS = ("cli", "orchestrator", "servers/research")
# The standard library's own exception to its naming rule (a child's exit after fork).
ALLOWED_PRIVATE = {"os._exit"}


def _private_reaches(path: Path) -> list[str]:
    """``obj._name`` where ``obj`` is not the code's own ``self``/``cls``."""
    found = []
    for node in ast.walk(ast.parse(path.read_text("utf-8"), filename=str(path))):
        if not isinstance(node, ast.Attribute) or not node.attr.startswith("_") or node.attr.startswith("__"):
            continue
        if isinstance(node.value, ast.Name) and node.value.id in ("self", "cls"):
            continue
        text = ast.unparse(node)
        if text not in ALLOWED_PRIVATE:
            found.append(f"{path.relative_to(SRC)}:{node.lineno}: {text}")
    return found


def test_the_cli_orchestrator_and_research_server_use_no_private_attribute_of_another_object() -> None:
    # doctor once listed the web-search server's tools through client._connection although
    # WebSearchClient.list_tools is public: a change inside the client broke doctor unseen.
    sources = sorted(p for folder in DRIVERS for p in (SRC / folder).rglob("*.py") if "__pycache__" not in p.parts)
    assert sources
    assert [hit for path in sources for hit in _private_reaches(path)] == []

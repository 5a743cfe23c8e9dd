"""The import graph of src/ (read with ``ast``, nothing imported): no cycles, the library
(modules/) below the program, and the team's package apart from the single-user program.

Every import counts: those inside functions (a lazy import is still a dependency) and those
under ``if TYPE_CHECKING:`` (a type named there ties the two modules as much: the REPL's slash
commands name the REPL by a Protocol of their own, the report's sections their writers).
"""

from __future__ import annotations

import ast
from pathlib import Path

SRC = Path(__file__).resolve().parent.parent / "src"

# Known cycles not yet broken, each with who owns it. Nothing may be added here: a new cycle fails.
KNOWN_CYCLES: set[frozenset[str]] = set()
# What a module of the library may not import: the graph's steps, the program, a server, the team.
ABOVE_THE_LIBRARY = ("research.nodes", "research.workflow", "research.orchestrator", "research.cli", "research.servers", "research.team")
# The single-user program: none of it imports the team's package (the runner names the team's
# index by its module path when a database URL is set: orchestrator/checkpointer.py). Only the
# CLI's dispatchers reach it, for a team's commands: cli/main.py and the REPL with
# RESEARCH_SERVER (team/client.py), `research serve` (cli/serve_command.py), attach/cancel
# (cli/subcommands.py).
SINGLE_USER = ("research.state", "research.modules", "research.nodes", "research.workflow", "research.orchestrator",
               "research.servers", "research.cli.arguments", "research.cli.run_output", "research.cli.progress",
               "research.cli.listing", "research.cli.verify", "research.cli.viewer", "research.cli.plan_review",
               "research.cli.doctor", "research.cli.config_command", "research.cli.mcp_command")


def _module_name(path: Path) -> str:
    parts = ["research", *path.relative_to(SRC).with_suffix("").parts]
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


MODULES = {_module_name(p): p for p in SRC.rglob("*.py") if "__pycache__" not in p.parts}


def _ours(name: str) -> str | None:
    """The module of ours ``name`` is, or is in (``research.a.b.Name`` -> ``research.a.b``)."""
    while name and name not in MODULES:
        name = name.rpartition(".")[0]
    return name or None


def imports_of(module: str) -> set[str]:
    """The modules of ours ``module`` imports, at any depth of its code."""
    tree = ast.parse(MODULES[module].read_text("utf-8"))
    found: set[str | None] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.update(_ours(alias.name) for alias in node.names if alias.name.startswith("research"))
        elif isinstance(node, ast.ImportFrom) and node.module and node.module.startswith("research"):
            for alias in node.names:  # `from research.team import queue` imports research.team.queue
                found.add(_ours(f"{node.module}.{alias.name}"))
    return {name for name in found if name and name != module and name != "research"}


GRAPH = {module: imports_of(module) for module in MODULES}


def cycles(graph: dict[str, set[str]]) -> list[frozenset[str]]:
    """The strongly connected components of more than one module (Tarjan's algorithm)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[frozenset[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for nxt in sorted(graph.get(node, ())):
            if nxt not in index:
                visit(nxt)
                low[node] = min(low[node], low[nxt])
            elif nxt in on_stack:
                low[node] = min(low[node], index[nxt])
        if low[node] == index[node]:
            component = set()
            while True:
                member = stack.pop()
                on_stack.discard(member)
                component.add(member)
                if member == node:
                    break
            if len(component) > 1:
                found.append(frozenset(component))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return found


def test_the_walk_sees_a_cycle_where_there_is_one() -> None:
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}
    assert cycles(graph) == [frozenset({"a", "b", "c"})]
    # A lazy import inside a function is an import: the runner's of its own checkpointer is seen.
    assert "research.orchestrator.checkpointer" in GRAPH["research.orchestrator.runner"]


def test_src_has_no_import_cycle() -> None:
    found = [sorted(cycle) for cycle in cycles(GRAPH) if cycle not in KNOWN_CYCLES]
    assert not found, found


def test_the_library_imports_no_step_program_server_or_team() -> None:
    bad = sorted(f"{module} -> {target}" for module, targets in GRAPH.items() if module.startswith("research.modules.")
                 for target in targets if target.startswith(ABOVE_THE_LIBRARY))
    assert not bad, bad


def test_the_single_user_program_never_imports_the_team_package() -> None:
    bad = sorted(f"{module} -> {target}" for module, targets in GRAPH.items()
                 if module.startswith(SINGLE_USER) for target in targets if target.startswith("research.team"))
    assert not bad, bad
    # and the team's index is named where the runner needs it, not imported
    from research.orchestrator.checkpointer import TEAM_INDEX

    assert TEAM_INDEX in MODULES


def test_the_team_package_holds_the_team_code() -> None:
    team = {module for module in MODULES if module.startswith("research.team.")}
    assert {"research.team.queue", "research.team.index", "research.team.front", "research.team.worker",
            "research.team.client"} <= team
    # none of the team's modules is left in the single-user program's folders
    for gone in ("orchestrator/run_queue.py", "orchestrator/session_store.py", "servers/research/http_server.py",
                 "servers/research/http_worker.py", "cli/remote_run.py"):
        assert not (SRC / gone).exists(), gone


def test_loading_the_single_user_program_loads_nothing_of_the_team():
    """The CLI, the REPL, the runner, the graph and both stdio servers' modules, loaded in a
    fresh interpreter: no ``research.team`` module comes with them."""
    import subprocess
    import sys

    modules = ["research.cli.main", "research.cli.subcommands", "research.cli.repl", "research.cli.repl_commands",
               "research.cli.run_output", "research.orchestrator.runner", "research.orchestrator.graph",
               "research.orchestrator.checkpointer", "research.servers.research.server"]
    code = ("import importlib, sys\n"
            f"for name in {modules!r}: importlib.import_module(name)\n"
            "print(sorted(m for m in sys.modules if m.startswith('research.team')))")
    loaded = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120, check=True)
    assert loaded.stdout.strip() == "[]", loaded.stdout

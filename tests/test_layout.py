"""The layout says which process runs what, and imports go downward only (docs/architecture.md).

Read from the source with ``ast`` (nothing is imported), so a new upward import or an
extraction library reached from a networked process fails here before it ships.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

SRC = Path(__file__).resolve().parent.parent / "src"

# Layer of each folder; a module may import its own layer or any layer below it.
LAYERS = {
    "__main__": 6,  # `python -m research`: the entry point
    "cli": 5,
    "team": 5,  # a team's processes (queue, index, front, worker, client): beside the CLI that starts them
    "servers.research": 5,  # the assistant as an MCP server: at the CLI's level, drives the orchestrator
    "orchestrator": 4,
    "nodes": 3,
    "workflow": 2,  # what the steps share (their dependencies, prompts, the answer's assembly): below them
    "servers.web": 3,
    "servers.parser": 3,
    "servers": 3,
    "modules.clients": 2,
    "modules.llm": 2,
    "modules.report": 2,
    "modules.text": 1,
    "modules.parsing": 1,
    "state": 1,
    "modules.core": 0,
    "modules": 0,
    "": 0,  # research/__init__.py: the version only
}
# Libraries that read untrusted bytes: only the sandboxed parser may import them.
EXTRACTION_LIBRARIES = ("trafilatura", "pdfminer", "markdownify", "lxml", "justext", "charset_normalizer")


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(SRC).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts = parts[:-1]
    return ".".join(parts)


def _layer(module: str) -> tuple[str, int]:
    for prefix in sorted(LAYERS, key=len, reverse=True):
        if module == prefix or module.startswith(prefix + ".") or prefix == "":
            return prefix, LAYERS[prefix]
    raise AssertionError(module)


def _imports(path: Path) -> list[tuple[int, str]]:
    """Every module this file imports (absolute names, ``research.`` stripped for ours)."""
    tree = ast.parse(path.read_text("utf-8"), filename=str(path))
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found += [(node.lineno, alias.name) for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:  # relative: resolve against this module's package
                base = _module_name(path).split(".")
                base = base[: len(base) - node.level + (1 if path.name == "__init__.py" else 0)]
                name = ".".join([*base, node.module] if node.module else base)
                found.append((node.lineno, "research." + name if name else "research"))
            elif node.module:
                found.append((node.lineno, node.module))
    return found


SOURCES = sorted(p for p in SRC.rglob("*.py") if "__pycache__" not in p.parts)


def test_the_tree_is_what_the_map_says() -> None:
    folders = {str(p.parent.relative_to(SRC)).replace("/", ".") for p in SOURCES if p.parent != SRC}
    assert folders >= {"cli", "orchestrator", "nodes", "workflow", "state", "modules.core", "modules.llm", "modules.text",
                       "modules.report", "modules.clients", "modules.parsing", "servers.web", "servers.parser",
                       "servers.research", "team"}
    # No flat capability modules left beside the packages.
    assert not [p.name for p in (SRC / "modules").glob("*.py") if p.name != "__init__.py"]


@pytest.mark.parametrize("path", SOURCES, ids=lambda p: str(p.relative_to(SRC)))
def test_imports_go_downward_only(path: Path) -> None:
    here, level = _layer(_module_name(path))
    upward = []
    for line, name in _imports(path):
        if not name.startswith("research."):
            continue
        target = name.removeprefix("research.")
        there, target_level = _layer(target)
        if there != here and target_level > level:
            upward.append(f"line {line}: {name} ({there}) from {here}")
    assert not upward, upward


@pytest.mark.parametrize("path", SOURCES, ids=lambda p: str(p.relative_to(SRC)))
def test_extraction_is_imported_only_by_the_sandboxed_parser(path: Path) -> None:
    module = _module_name(path)
    if module.startswith(("servers.parser", "modules.parsing")):
        return
    bad = [f"line {line}: {name}" for line, name in _imports(path)
           if name.startswith("research.modules.parsing") or name.split(".")[0] in EXTRACTION_LIBRARIES]
    assert not bad, bad

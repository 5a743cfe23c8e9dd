"""``ParsedDocument``: what the parser returns for one document, declared once for both sides
of the sandbox.

A plain dataclass of the standard library, not a pydantic model: the parser's fork server
preloads the module that builds it (``analysis.py``) and should not carry pydantic for one
class. Outside the sandbox the same class is validated with pydantic's ``TypeAdapter``
(``state.models.PARSED_DOCUMENT``): the parser server checks what its child returns, and the
client checks what the server sends, before either is used.
"""

from __future__ import annotations


import dataclasses
from dataclasses import dataclass, field
from typing import Any


@dataclass
class ParsedDocument:
    """What the parser returns for one document, whatever its format."""

    markdown: str = ""
    title: str = ""
    language: str = ""
    snippets: list[str] = field(default_factory=list)
    key_facts: list[str] = field(default_factory=list)
    tables: list[list[list[str]]] = field(default_factory=list)
    stats: dict[str, float | int | str] = field(default_factory=dict)

    def as_dict(self) -> dict[str, Any]:
        """Plain JSON-ready data (every field is already a str, list, dict or number)."""
        return dataclasses.asdict(self)

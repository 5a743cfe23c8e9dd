"""What both of our MCP servers share as other hosts meet them.

* ``serverInfo.version`` is the package version.
* A call whose arguments fail validation gets one short line per field (name and rule),
  never pydantic's dump, which echoes the (possibly megabyte-long) value and a docs URL.
* A tool may declare extra JSON Schema keywords (e.g. ``oneOf``) the function signature
  cannot express; they are merged into its input schema when tools are listed.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

from mcp.server.mcpserver import MCPServer
from mcp.server.mcpserver.exceptions import ToolError
from pydantic import ValidationError

import research
from research.servers.process_exit import exit_now as exit_now  # the servers' one way out, for them here

if TYPE_CHECKING:
    from research.state.models import JsonObject

MAX_ERROR_CHARS = 300


class ResearchMCPServer(MCPServer):
    def __init__(self, name: str, *, instructions: str) -> None:
        # WARNING: stderr is the user's terminal or the session log, no per-request chatter.
        super().__init__(name, instructions=instructions, version=research.__version__, log_level="WARNING")
        self._schema_extras: dict[str, JsonObject] = {}

    def extend_input_schema(self, tool: str, **keywords: Any) -> None:
        self._schema_extras[tool] = keywords

    async def list_tools(self):  # type: ignore[no-untyped-def]
        tools = await super().list_tools()
        for tool in tools:
            extra = self._schema_extras.get(tool.name)
            if extra:
                tool.input_schema = {**tool.input_schema, **extra}
        return tools

    async def call_tool(self, name: str, arguments: dict[str, Any], context: Any = None) -> Any:
        try:
            return await super().call_tool(name, arguments, context)
        except ToolError as exc:
            if isinstance(exc.__cause__, ValidationError):
                raise ToolError(f"invalid arguments for {name}: {describe_validation(exc.__cause__)}") from None
            raise


def describe_validation(error: ValidationError) -> str:
    """``limit: Input should be less than or equal to 10; query: Field required`` - no values."""
    parts = []
    for item in error.errors(include_url=False, include_input=False, include_context=False):
        where = ".".join(str(part) for part in item.get("loc", ())) or "arguments"
        parts.append(f"{where}: {item.get('msg', 'invalid')}")
    text = "; ".join(parts)
    return text if len(text) <= MAX_ERROR_CHARS else text[: MAX_ERROR_CHARS - 1] + "…"


def usable_cache_dir(path: str) -> Path:
    """``--cache-dir`` made ready, or ``OSError``/``ValueError`` saying why it cannot be used."""
    folder = Path(path).expanduser()
    if folder.exists() and not folder.is_dir():
        raise ValueError("it exists and is not a folder")
    folder.mkdir(parents=True, exist_ok=True)
    probe = folder / ".write-probe"
    probe.write_bytes(b"")  # a real write: permission bits say nothing about read-only mounts
    probe.unlink()
    return folder.resolve()

"""The assistant itself as an MCP server (``research mcp research``): research, verify, sessions."""

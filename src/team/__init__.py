"""The team's code: several people, one PostgreSQL database, one or more machines (docs/scale.md).

``queue`` (the run queue), ``index`` (the sessions index and the PostgreSQL checkpointer),
``front`` (`research serve`: the MCP server over HTTP and its API), ``worker`` (runs queued
questions), ``tokens`` and ``access_log`` (the front's bearer tokens and its log), ``client``
(`research "…"` with RESEARCH_SERVER). The single-user program never imports this package: the
runner names ``index`` by its module path when a database URL is set, and only the CLI's
commands for a team (serve, RESEARCH_SERVER) import the rest.
"""

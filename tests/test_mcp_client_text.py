"""Reading the text output of other web-search MCP servers (no structured content)."""

from __future__ import annotations

from research.modules.clients.web_search_client import parse_text_results


def test_text_output_of_other_servers_is_parsed() -> None:
    text = """Search completed for "LangGraph checkpoints" with 2 results:

**Status:** Search engine: Bing; 2 results requested/2 obtained

**1. LangGraph persistence**
URL: https://langchain-ai.github.io/langgraph/concepts/persistence/
Description: Checkpointers save a checkpoint of the graph state at every super-step.

**Full Content:**
# Persistence
A checkpoint is saved after every super-step.

---

**2. SqliteSaver reference**
URL: https://example.org/sqlite-saver?utm_source=x
Description: SqliteSaver stores checkpoints in SQLite.
Content error: timeout
"""
    hits = parse_text_results(text, query="LangGraph checkpoints", language="en", engine="web-search")
    assert [h.title for h in hits] == ["LangGraph persistence", "SqliteSaver reference"]
    assert hits[0].content == "# Persistence\nA checkpoint is saved after every super-step."
    assert hits[0].snippet.startswith("Checkpointers save")
    assert hits[1].canonical_url == "https://example.org/sqlite-saver" and hits[1].content == ""
    assert parse_text_results("see https://a.example/x and https://a.example/x", query="q", language="en", engine="e")[0].url == "https://a.example/x"

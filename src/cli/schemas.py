"""The JSON Schemas docs/schemas/ publishes: what a run leaves (meta.json, --json, a stored
outcome, a source), what the research MCP servers' tools return, and what `research serve`'s
API answers. Written from the models themselves (state/run_record.py, servers/research/results.py,
team/api.py); tests/test_run_record.py fails when a file here is not what its model says.

    python -m research.cli.schemas [FOLDER]   # default: docs/schemas
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

from pydantic import BaseModel

if TYPE_CHECKING:
    from research.state.models import JsonObject


def published_models() -> dict[str, type[BaseModel]]:
    """Each schema file's name and the model it is written from."""
    from research.servers.research.results import ResearchOutput, SessionList, SessionReport
    from research.state.run_record import RunJson, RunOutcome, SessionRecord, Source
    from research.team.api import RunEvents, RunStatusBody, SessionMeta, SessionRows

    return {
        "meta.schema.json": SessionRecord,
        "run-json.schema.json": RunJson,
        "run-outcome.schema.json": RunOutcome,
        "source.schema.json": Source,
        "mcp-research.schema.json": ResearchOutput,
        "mcp-sessions.schema.json": SessionList,
        "mcp-session-report.schema.json": SessionReport,
        "api-run.schema.json": RunStatusBody,
        "api-run-events.schema.json": RunEvents,
        "api-sessions.schema.json": SessionRows,
        "api-session.schema.json": SessionMeta,
    }


def schema_text(model: type[BaseModel]) -> str:
    schema: JsonObject = model.model_json_schema(mode="serialization")
    return json.dumps(schema, ensure_ascii=False, indent=2, sort_keys=True) + "\n"


def write_schemas(folder: Path) -> list[Path]:
    folder.mkdir(parents=True, exist_ok=True)
    written = []
    for name, model in published_models().items():
        path = folder / name
        path.write_text(schema_text(model), "utf-8")
        written.append(path)
    return written


if __name__ == "__main__":
    for written_path in write_schemas(Path(sys.argv[1] if len(sys.argv) > 1 else "docs/schemas")):
        print(written_path)

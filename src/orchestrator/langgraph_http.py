"""What LangGraph Server lets a client write into a thread's state, held to what an input may say.

LangGraph Server (``langgraph dev``, langgraph.json's ``http.app``) takes state from a
client through more doors than a run's input, which the ``session`` step checks
(graph_input.read_caller_input):

* ``POST /threads/{id}/state``: ``values`` written into the thread as if a node had;
* ``POST /threads``: ``supersteps``, the same updates applied while the thread is made;
* a run (``/threads/{id}/runs[/wait|/stream|/crons]``, ``/runs[/wait|/stream|/crons|/batch]``):
  a ``command`` whose ``update`` is written before the run and whose ``goto`` sends it to
  any node, around the ``session`` step.

Each update is checked as an input is (``graph_input.read_state_update``: only question,
language and depth, each value checked, the question cleaned) and sent on as checked; a
``goto`` is refused, since where the graph goes is the graph's. A refused request gets
HTTP 422 with one line in ``detail`` (English: the server has no user language) and
reaches nothing. The body is parsed once, here, and written again from what was checked,
so LangGraph reads exactly what was judged.
"""

from __future__ import annotations

import json
import re
from typing import Any

from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.responses import JSONResponse

from research.modules.core.errors import UsageError
from research.orchestrator.graph_input import CallerUpdate, read_state_update

MAX_BODY_BYTES = 1024 * 1024  # a question is at most 4,000 characters; nothing here needs more

_STATE = re.compile(r"^/threads/[^/]+/state/?$")
_THREADS = re.compile(r"^/threads/?$")
_RUNS = re.compile(r"^(/threads/[^/]+)?/runs(/wait|/stream|/crons|/batch)?/?$")


class Refused(Exception):
    """This request writes state a client may not write; the message says why, in one line."""


def _update(values: Any) -> CallerUpdate | None:
    """The values of an update as checked; None stays None (an update that writes nothing)."""
    if values is None:
        return None
    try:
        return read_state_update(values)
    except UsageError as exc:
        raise Refused(exc.message("en")) from None


def _command(command: Any) -> Any:
    if command is None:
        return None
    if not isinstance(command, dict):
        raise Refused("Refusing the run: its command must be an object. Nothing was run.")
    if command.get("goto"):
        raise Refused("Refusing the run: a command's goto cannot be set by a caller (the graph goes where its "
                      "edges say). Nothing was run.")
    checked = dict(command)
    if "update" in command:
        update = command["update"]
        if isinstance(update, list):  # [[key, value], …], as LangGraph also takes it
            if not all(isinstance(pair, list) and len(pair) == 2 and isinstance(pair[0], str) for pair in update):
                raise Refused("Refusing the run: a command's update must be an object or [key, value] pairs. "
                              "Nothing was run.")
            update = dict(update)
        checked["update"] = _update(update)
    return checked


def _superstep(step: Any) -> Any:
    if not isinstance(step, dict) or not isinstance(step.get("updates", []), list):
        raise Refused("Refusing the thread: each superstep must be an object with a list of updates.")
    updates = []
    for one in step.get("updates", []):
        if not isinstance(one, dict):
            raise Refused("Refusing the thread: each update must be an object.")
        checked = {**one, "values": _update(one.get("values"))}
        if "command" in one:
            checked["command"] = _command(one["command"])
        updates.append(checked)
    return {**step, "updates": updates}


def checked_body(path: str, body: Any) -> Any:
    """``body`` of a POST to ``path`` with every state it writes checked; raises ``Refused``."""
    if not isinstance(body, (dict, list)):
        return body  # not a payload LangGraph takes: it answers that itself
    if _STATE.match(path) and isinstance(body, dict):
        return {**body, "values": _update(body.get("values"))}
    if _THREADS.match(path) and isinstance(body, dict) and body.get("supersteps") is not None:
        if not isinstance(body["supersteps"], list):
            raise Refused("Refusing the thread: supersteps must be a list.")
        return {**body, "supersteps": [_superstep(step) for step in body["supersteps"]]}
    if _RUNS.match(path):
        payloads = body if isinstance(body, list) else [body]
        checked = [{**one, "command": _command(one["command"])} if isinstance(one, dict) and "command" in one
                   else one for one in payloads]
        return checked if isinstance(body, list) else checked[0]
    return body


def _guarded(path: str) -> bool:
    return bool(_STATE.match(path) or _THREADS.match(path) or _RUNS.match(path))


class StateWriteGuard:
    """ASGI middleware in front of every LangGraph Server route (``app`` below)."""

    def __init__(self, app: Any) -> None:
        self.app = app

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] != "http" or scope.get("method") != "POST" or not _guarded(scope.get("path", "")):
            await self.app(scope, receive, send)
            return
        body = bytearray()
        while True:
            message = await receive()
            if message["type"] == "http.disconnect":
                return
            body.extend(message.get("body", b""))
            if len(body) > MAX_BODY_BYTES:
                await JSONResponse({"detail": f"Refusing the request: its body is over {MAX_BODY_BYTES // 1024} KiB."},
                                   status_code=413)(scope, receive, send)
                return
            if not message.get("more_body"):
                break
        try:
            payload = json.loads(body) if body.strip() else None
        except ValueError:
            await JSONResponse({"detail": "Refusing the request: its body is not JSON."},
                               status_code=422)(scope, receive, send)
            return
        try:
            checked = checked_body(scope["path"], payload)
        except Refused as exc:
            await JSONResponse({"detail": str(exc)}, status_code=422)(scope, receive, send)
            return
        data = json.dumps(checked, ensure_ascii=False).encode("utf-8") if payload is not None else bytes(body)
        headers = [(name, value) for name, value in scope.get("headers", []) if name.lower() != b"content-length"]
        headers.append((b"content-length", str(len(data)).encode()))
        sent = False

        async def replay() -> Any:
            nonlocal sent
            if not sent:
                sent = True
                return {"type": "http.request", "body": data, "more_body": False}
            return await receive()

        await self.app({**scope, "headers": headers}, replay, send)


# langgraph.json's "http": {"app": …}: no routes of its own; its middleware wraps LangGraph
# Server's (custom middleware runs first unless middleware_order says otherwise).
app = Starlette(middleware=[Middleware(StateWriteGuard)])

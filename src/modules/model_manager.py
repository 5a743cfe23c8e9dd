"""ModelManager: every call to Ollama goes through here, via the official ``ollama`` client.

Why one place: ``num_ctx`` must be set on every call (Ollama's default of 2048-4096
silently truncates prompts), thinking text must never reach an answer, structured
replies must be validated and repaired, and usage is counted per node for benchmarks.
"""

from __future__ import annotations

import json
import re
from typing import Any, Callable, TypeVar

import httpx
import ollama
from pydantic import BaseModel, ValidationError

from .errors import OllamaError
from .settings import Settings
from .tokens import estimate_tokens

T = TypeVar("T", bound=BaseModel)

_INLINE_THINK = re.compile(r"<think>.*?(</think>|$)", re.DOTALL)


class ModelManager:
    def __init__(self, settings: Settings) -> None:
        self.settings = settings
        self.host = settings.ollama_host
        self.model = settings.model
        self._client = ollama.AsyncClient(host=self.host, timeout=settings.request_timeout)
        self._think: bool | str | None = False if settings.think == "off" else settings.think
        self.usage: dict[str, dict[str, int]] = {}

    # --- readiness -------------------------------------------------------------
    async def ensure_ready(self) -> str:
        """Check Ollama answers and the model is installed; returns the model to use.

        Falls back to ``settings.fallback_model`` when the main model is missing.
        Raises ``OllamaError`` with a one-line, actionable message otherwise.
        """
        try:
            listing = await self._client.list()
        except (ConnectionError, httpx.TransportError):
            raise OllamaError("ollama.unreachable", host=self.host) from None
        except ollama.ResponseError as exc:
            raise OllamaError("ollama.failed", reason=exc.error) from None
        installed = {m.model for m in listing.models if m.model}
        for candidate in (self.settings.model, self.settings.fallback_model):
            if candidate and _is_installed(candidate, installed):
                self.model = candidate
                return candidate
        raise OllamaError("ollama.model_missing", model=self.settings.model)

    # --- calls -------------------------------------------------------------------
    async def chat(self, messages: list[dict[str, str]], *, node: str) -> str:
        response = await self._call(messages, node=node)
        return _strip_thinking(response.message.content or "")

    async def stream(
        self, messages: list[dict[str, str]], *, node: str, on_token: Callable[[str], None]
    ) -> str:
        """Stream the answer, calling ``on_token`` with visible text only (no thinking)."""
        visible = _ThinkFilter()
        parts: list[str] = []
        iterator = await self._call(messages, node=node, stream=True)
        try:
            async for chunk in iterator:
                text = visible.feed(chunk.message.content or "")
                if text:
                    parts.append(text)
                    on_token(text)
                if chunk.done:
                    self._count(node, chunk.prompt_eval_count, chunk.eval_count, calls=0)
        except (ConnectionError, httpx.TransportError):
            raise OllamaError("ollama.unreachable", host=self.host) from None
        except ollama.ResponseError as exc:
            raise OllamaError("ollama.failed", reason=exc.error) from None
        return "".join(parts).strip()

    async def structured(
        self, messages: list[dict[str, str]], schema: type[T], *, node: str, fallback: T
    ) -> T:
        """A reply validated against ``schema``: one repair retry, then ``fallback``.

        A malformed reply from a small local model must never end a run.
        """
        conversation = list(messages)
        json_schema = schema.model_json_schema()
        for attempt in range(2):
            try:
                response = await self._call(conversation, node=node, format=json_schema)
            except OllamaError as exc:
                if exc.key == "ollama.failed" and attempt == 0:
                    continue  # a 500 from Ollama: try once more, then fall back
                if exc.key == "ollama.failed":
                    return fallback
                raise
            content = _strip_thinking(response.message.content or "")
            try:
                return schema.model_validate_json(_extract_json(content))
            except (ValidationError, ValueError) as exc:
                conversation = [
                    *messages,
                    {"role": "assistant", "content": content[:2000]},
                    {
                        "role": "user",
                        "content": "Your reply was not valid JSON for the required schema "
                        f"({str(exc).splitlines()[0]}). Reply again with JSON only.",
                    },
                ]
        return fallback

    def context_budget(self, reserve_for_answer: int = 2048) -> int:
        """Tokens available for the prompt once room for the answer is kept."""
        return max(1024, self.settings.num_ctx - reserve_for_answer)

    # --- internals -------------------------------------------------------------------
    async def _call(self, messages: list[dict[str, str]], *, node: str, stream: bool = False, format: Any = None):
        options = {"num_ctx": self.settings.num_ctx, "temperature": 0.2 if format is None else 0.0}
        try:
            response = await self._client.chat(
                model=self.model,
                messages=messages,
                stream=stream,
                format=format,
                options=options,
                think=self._think,
            )
        except ollama.ResponseError as exc:
            if self._think and "think" in (exc.error or "").lower():
                # A model without thinking support rejects the parameter: drop it for good.
                self._think = None
                return await self._call(messages, node=node, stream=stream, format=format)
            if exc.status_code == 404:
                raise OllamaError("ollama.model_missing", model=self.model) from None
            raise OllamaError("ollama.failed", reason=exc.error) from None
        except (ConnectionError, httpx.TransportError):
            raise OllamaError("ollama.unreachable", host=self.host) from None
        if stream:
            self._count(node, None, None, calls=1)
            return response
        self._count(node, response.prompt_eval_count, response.eval_count, calls=1)
        self._check_context(messages, response.prompt_eval_count)
        return response

    def _count(self, node: str, prompt: int | None, completion: int | None, *, calls: int) -> None:
        entry = self.usage.setdefault(node, {"calls": 0, "prompt_tokens": 0, "completion_tokens": 0})
        entry["calls"] += calls
        entry["prompt_tokens"] += prompt or 0
        entry["completion_tokens"] += completion or 0

    def _check_context(self, messages: list[dict[str, str]], prompt_eval_count: int | None) -> None:
        """Ollama truncates an over-long prompt silently; a prompt that used the whole
        context is recorded so the caller's budgeting can be checked in usage stats."""
        if prompt_eval_count and prompt_eval_count >= self.settings.num_ctx:
            entry = self.usage.setdefault("context_overflow", {"calls": 0, "prompt_tokens": 0, "completion_tokens": 0})
            entry["calls"] += 1
            entry["prompt_tokens"] += sum(estimate_tokens(m["content"]) for m in messages)


def _is_installed(model: str, installed: set[str]) -> bool:
    if model in installed:
        return True
    return ":" not in model and f"{model}:latest" in installed


def _strip_thinking(text: str) -> str:
    return _INLINE_THINK.sub("", text).strip()


def _extract_json(text: str) -> str:
    """Models sometimes wrap JSON in prose or code fences; take the outermost object."""
    text = text.strip()
    if text.startswith("{"):
        return text
    start, end = text.find("{"), text.rfind("}")
    if start != -1 and end > start:
        return text[start : end + 1]
    json.loads(text)  # raises a ValueError with a useful message
    return text


class _ThinkFilter:
    """Drops ``<think>…</think>`` spans from streamed text, across chunk boundaries.

    gpt-oss sends thinking in a separate field, but other models inline it.
    """

    def __init__(self) -> None:
        self.inside = False
        self.pending = ""

    def feed(self, text: str) -> str:
        self.pending += text
        out: list[str] = []
        while self.pending:
            marker = "</think>" if self.inside else "<think>"
            index = self.pending.find(marker)
            if index == -1:
                # Keep a possible partial marker at the end for the next chunk.
                keep = next((k for k in range(len(marker) - 1, 0, -1) if self.pending.endswith(marker[:k])), 0)
                emit, self.pending = self.pending[: len(self.pending) - keep], self.pending[len(self.pending) - keep :]
                if not self.inside:
                    out.append(emit)
                break
            if not self.inside:
                out.append(self.pending[:index])
            self.pending = self.pending[index + len(marker) :]
            self.inside = not self.inside
        return "".join(out)

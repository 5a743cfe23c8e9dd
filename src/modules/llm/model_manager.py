"""ModelManager: every call to Ollama goes through here, via the official ``ollama`` client.

Why one place: ``num_ctx`` must be set on every call (Ollama's default of 2048-4096
silently truncates prompts), thinking text must never reach an answer, structured
replies must be validated and repaired, and usage is counted per node for benchmarks.
"""

from __future__ import annotations

import json
import logging
import os
import re
import time
from collections.abc import Collection, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Any, Callable, TypeVar

import httpx
import ollama
from pydantic import BaseModel, ValidationError

from research.modules.core.errors import OllamaCallFailed, OllamaError
from research.modules.core.i18n import t
from research.modules.core.language import Language
from research.modules.core.tls import client_ssl_context
from research.modules.core.settings import Settings
from research.modules.llm.hygiene import (LOOP_WINDOW, StreamedAnswer, drop_cut_off_sentence, repeating_tail,
                                          said_a_third_time, strip_control_text)
from research.modules.llm.roles import ROLE_HEADER, ModelRole
from research.modules.text.tokens import estimate_tokens
from research.modules.core.logs import said

T = TypeVar("T", bound=BaseModel)

# In ``capped``: a reply stopped in a loop, not at a number of tokens.
REPEATING = 0

log = logging.getLogger(__name__)

# Consecutive failed calls (Ollama errors, 5xx) after which the fallback model takes over.
FAILURES_BEFORE_FALLBACK = 3
# Sent back when a structured reply does not fit its schema. The answer's assembly treats any
# sentence that repeats it as the program's own text, never a claim (workflow/answer.py).
REPAIR_PROMPT = "Your reply was not valid JSON for the required schema ({error}). Reply again with JSON only."

# A structured reply whose caller gives no cap: larger than any schema of this program needs
# (a plan, a list of revised sentences), small enough that a runaway stops in about a minute
# on a slow CPU instead of writing until the request times out.
STRUCTURED_DEFAULT_TOKENS = 1536
# A free-text call that is not the answer (a sentence rewritten for style): room for a few sentences.
CHAT_DEFAULT_TOKENS = 512

_INLINE_THINK = re.compile(r"<think>.*?(</think>|$)", re.DOTALL)

# The role of the call under way in this task. A context variable, not an argument, because the
# official client builds the request itself, and a streamed one only when it is first read.
_DECLARED_ROLE: ContextVar[str | None] = ContextVar("declared_role", default=None)


@contextmanager
def _declaring(role: ModelRole) -> Iterator[None]:
    token = _DECLARED_ROLE.set(str(role))
    try:
        yield
    finally:
        _DECLARED_ROLE.reset(token)


async def _send_role(request: httpx.Request) -> None:
    """Puts the declared role on each request the client sends (roles.py says why a header)."""
    role = _DECLARED_ROLE.get()
    if role:
        request.headers[ROLE_HEADER] = role


class ContextOverflow(Exception):
    """Ollama filled the whole context window (prompt_eval_count >= num_ctx), which means
    it silently dropped the start of the prompt. ``text`` is the answer it wrote anyway;
    the caller shrinks its prompt and asks again rather than trusting it."""

    def __init__(self, text: str, prompt_tokens: int, num_ctx: int) -> None:
        super().__init__(f"prompt used {prompt_tokens} of num_ctx {num_ctx} tokens")
        self.text = text
        self.prompt_tokens = prompt_tokens
        self.num_ctx = num_ctx


class ModelManager:
    def __init__(self, settings: Settings) -> None:
        self.settings = settings
        self.host = settings.ollama_host
        self.model = settings.model
        self._client = ollama.AsyncClient(host=self.host, timeout=settings.request_timeout,
                                          event_hooks={"request": [_send_role]}, verify=client_ssl_context())
        self._think: bool | str | None = False if settings.think == "off" else settings.think
        self.usage: dict[str, dict[str, int]] = {}
        self.consecutive_failures = 0
        self.switched_from: str | None = None  # the main model, once the fallback took over
        self._installed: set[str] | None = None  # known after ensure_ready()
        self.digests: dict[str, str] = {}
        # Replies a cap cut short: (node, cap), taken by the node that made the call and said as
        # a problem line of the run (take_capped), never a silent long step. A cap of REPEATING:
        # a stream stopped because it said one piece over and over (hygiene.repeating_tail).
        self.capped: list[tuple[str, int]] = []

    @property
    def parallel(self) -> int:
        """Requests the server answers side by side. Ollama's API does not report it; its own
        setting, OLLAMA_NUM_PARALLEL, is read where this process has it, else one (a server
        that takes one at a time gains nothing from more, and its prompt cache loses)."""
        try:
            return max(1, int(os.environ.get("OLLAMA_NUM_PARALLEL") or 1))
        except ValueError:
            return 1

    def take_capped(self) -> list[tuple[str, int]]:
        """The replies cut by their cap since the last call, once each."""
        taken, self.capped = self.capped, []
        return taken

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
            raise OllamaCallFailed(exc.error) from None
        installed = {m.model for m in listing.models if m.model}
        self._installed = installed
        # The weights' digests: what a judge's measured accuracy is kept for (workflow/judge_quality.py).
        self.digests = {m.model: m.digest or "" for m in listing.models if m.model}
        for candidate in (self.settings.model, self.settings.fallback_model):
            if candidate and model_is_installed(candidate, installed):
                self.model = candidate
                return candidate
        raise OllamaError("ollama.model_missing", model=self.settings.model)

    # --- calls -------------------------------------------------------------------
    async def chat(self, messages: list[dict[str, str]], *, node: str, role: ModelRole,
                   max_tokens: int = CHAT_DEFAULT_TOKENS) -> str:
        """A free-text reply capped to ``max_tokens``; one cut there loses its cut-off
        sentence and is said (take_capped). Asking again with the same cap would only write
        the same runaway twice."""
        with _declaring(role):
            response = await self._call(messages, node=node, max_tokens=max_tokens)
        if getattr(response, "done_reason", None) == "length":
            self._entry("length_cut")["calls"] += 1
            self.capped.append((node, max_tokens))
            return drop_cut_off_sentence(_strip_thinking(response.message.content or ""))
        return _strip_thinking(response.message.content or "")

    async def stream(
        self, messages: list[dict[str, str]], *, node: str, role: ModelRole, on_token: Callable[[str], None],
        max_tokens: int | None = None,
    ) -> str:
        """Stream the answer, calling ``on_token`` with visible text only (no thinking).

        ``max_tokens`` caps the answer (``num_predict``): the room the prompt left for it. A
        small model can otherwise repeat itself until the context is full (seen with the real
        1.5B model: one draft ran eleven minutes); a cut answer ends as ``done_reason: length``.

        Raises ``ContextOverflow`` when Ollama reports a prompt that filled num_ctx (it
        only says so in the final chunk), and ``OllamaError`` when the stream breaks.
        """
        with _declaring(role):  # around the reading too: the client sends a stream's request then
            return await self._stream(messages, node=node, role=role, on_token=on_token, max_tokens=max_tokens)

    async def _stream(self, messages: list[dict[str, str]], *, node: str, role: ModelRole,
                      on_token: Callable[[str], None], max_tokens: int | None) -> str:
        visible = _ThinkFilter()
        shown = StreamedAnswer()  # the terminal never sees harmony control text or reasoning
        parts: list[str] = []
        started = time.perf_counter()
        iterator = await self._call(messages, node=node, stream=True, max_tokens=max_tokens)
        prompt_tokens = None
        finished = False
        done_reason = None
        tail, written, loop_end = "", 0, None  # the visible text's end, for a model caught in a loop
        try:
            async for chunk in iterator:
                text = visible.feed(chunk.message.content or "")
                if text:
                    parts.append(text)
                    if more := shown.feed(text):
                        on_token(more)
                    tail, written = (tail + text)[-LOOP_WINDOW:], written + len(text)
                    if (end := repeating_tail(tail)) is not None:
                        # Stopped here rather than read to the cap: closing the stream stops Ollama too.
                        loop_end, finished, done_reason = written - len(tail) + end, True, "repeating"
                        break
                    if (end := said_a_third_time("".join(parts))) is not None:
                        loop_end, finished, done_reason = end, True, "repeating"
                        break
                if chunk.done:
                    finished = True
                    done_reason = getattr(chunk, "done_reason", None)
                    prompt_tokens = chunk.prompt_eval_count
                    self._count(node, chunk.prompt_eval_count, chunk.eval_count, calls=0)
        except (ConnectionError, httpx.TransportError):
            # Ollama went away mid-answer (killed, out of memory): a partial answer is not kept.
            raise OllamaError("ollama.stream_lost", host=self.host) from None
        except ollama.ResponseError as exc:
            if self._think and "think" in (exc.error or "").lower() and not parts:
                # As in _call: a stream's request is sent when it is first read, so a model without
                # thinking support says so here. A resumed run's first call can be the draft.
                self._think = None
                return await self.stream(messages, node=node, role=role, on_token=on_token, max_tokens=max_tokens)
            # Retried with the fallback only if nothing was shown yet: a half answer stays failed.
            if self._record_failure() and not parts:
                return await self.stream(messages, node=node, role=role, on_token=on_token, max_tokens=max_tokens)
            raise OllamaCallFailed(exc.error) from None
        finally:
            self._add_time(node, time.perf_counter() - started)
            if loop_end is not None and hasattr(iterator, "aclose"):
                await iterator.aclose()
        self.consecutive_failures = 0
        if not finished:
            raise OllamaError("ollama.stream_lost", host=self.host)
        if rest := shown.finish():
            on_token(rest)
        log.info(said("log.model_streamed", model=self.model, role=role, node=node,
                      seconds=f"{time.perf_counter() - started:.2f}", tokens=prompt_tokens, stop=done_reason))
        answer = strip_control_text("".join(parts)[:loop_end])
        if done_reason == "repeating":
            self._entry("repetition_cut")["calls"] += 1
            self.capped.append((node, REPEATING))
            answer = drop_cut_off_sentence(answer)
        if done_reason == "length":
            # Already shown to the user, so no retry here: the cut-off sentence never reaches the draft.
            self._entry("length_cut")["calls"] += 1
            if max_tokens:
                self.capped.append((node, max_tokens))
            answer = drop_cut_off_sentence(answer)
        if self._check_context(messages, prompt_tokens):
            raise ContextOverflow(answer, prompt_tokens or 0, self.settings.num_ctx)
        return answer

    async def structured(
        self, messages: list[dict[str, str]], schema: type[T], *, node: str, role: ModelRole, fallback: T,
        max_tokens: int | None = None,
    ) -> T:
        """A reply validated against ``schema``: one repair retry, then ``fallback``.

        A malformed reply from a small local model must never end a run. ``max_tokens`` caps
        the reply (Ollama's ``num_predict``) to what the schema needs (else
        STRUCTURED_DEFAULT_TOKENS): a small model held to a JSON grammar can otherwise write
        until the request times out. A reply the cap cut is said (take_capped). A
        schema with a ``salvage(content)`` classmethod may take what a reply that does not
        validate finished writing (whole items of a list) instead of a repair call that
        would write it all again.
        """
        with _declaring(role):
            return await self._structured(messages, schema, node=node, fallback=fallback, max_tokens=max_tokens)

    async def _structured(self, messages: list[dict[str, str]], schema: type[T], *, node: str, fallback: T,
                          max_tokens: int | None) -> T:
        salvage = getattr(schema, "salvage", None)
        cap = max_tokens or STRUCTURED_DEFAULT_TOKENS
        conversation = list(messages)
        json_schema = schema.model_json_schema()
        for attempt in range(2):
            try:
                response = await self._call(conversation, node=node, format=json_schema, max_tokens=cap)
            except OllamaCallFailed:
                if attempt == 0:
                    continue  # a 500 from Ollama: try once more, then fall back
                return self._fall_back(node, fallback)
            content = _strip_thinking(response.message.content or "")
            cut = getattr(response, "done_reason", None) == "length"
            if cut:
                self._entry("length_cut")["calls"] += 1
                self.capped.append((node, cap))
            try:
                return schema.model_validate_json(_extract_json(content))
            except (ValidationError, ValueError) as exc:
                rescued = salvage(content) if salvage is not None else None
                if rescued is not None:
                    return rescued
                if cut:
                    # Written to the cap without closing its JSON: asked again it would run away again.
                    return self._fall_back(node, fallback)
                self._entry(node)["repairs"] += 1  # a reply that did not fit; usage shows how often
                log.info(said("log.reply_did_not_fit", node=node, schema=schema.__name__))
                conversation = [
                    *messages,
                    {"role": "assistant", "content": content[:2000]},
                    {
                        "role": "user",
                        "content": REPAIR_PROMPT.format(error=str(exc).splitlines()[0]),
                    },
                ]
        return self._fall_back(node, fallback)

    async def ask(self, model: str, messages: list[dict[str, Any]], *, node: str, role: ModelRole, num_ctx: int,
                  num_predict: int) -> str:
        """One plain call to ``model`` (not necessarily the drafting model), its reply as sent.

        For the grounded checker (modules/llm/judge.py), whose whole answer is one word:
        nothing is stripped here, so a reply that is not that word stays unreadable.
        Raises ``OllamaCallFailed`` for an error Ollama reports (a 404 included: the
        caller decides what a missing judge costs) and ``OllamaError`` when Ollama is gone.
        """
        started = time.perf_counter()
        try:
            with _declaring(role):
                response = await self._client.chat(
                    model=model, messages=messages, stream=False,
                    options={"num_ctx": num_ctx, "num_predict": num_predict, "temperature": 0.0})
        except ollama.ResponseError as exc:
            raise OllamaCallFailed(exc.error) from None
        except (ConnectionError, httpx.TransportError):
            raise OllamaError("ollama.unreachable", host=self.host) from None
        finally:
            self._add_time(node, time.perf_counter() - started)
        self._count(node, response.prompt_eval_count, response.eval_count, calls=1)
        return response.message.content or ""

    @property
    def installed(self) -> set[str] | None:
        """Ollama's installed models as of ``ensure_ready()``; None before it."""
        return self._installed

    def context_budget(self, reserve_for_answer: int = 2048) -> int:
        """Tokens available for the prompt once room for the answer is kept."""
        return max(1024, self.settings.num_ctx - reserve_for_answer)

    # --- internals -------------------------------------------------------------------
    def _fall_back(self, node: str, fallback: T) -> T:
        """Counted in usage (meta.json) so a report can say which steps ran degraded."""
        log.info(said("log.no_usable_reply", node=node))
        self._entry(node)["fallbacks"] += 1
        return fallback

    def _entry(self, node: str) -> dict[str, int]:
        entry = self.usage.setdefault(node, {"calls": 0, "prompt_tokens": 0, "completion_tokens": 0})
        for key in ("model_ms", "fallbacks", "repairs"):
            entry.setdefault(key, 0)
        return entry

    def _add_time(self, node: str, seconds: float) -> None:
        # Time spent waiting on Ollama, so benchmarks can split model time from orchestration.
        self._entry(node)["model_ms"] += round(seconds * 1000)

    async def _call(self, messages: list[dict[str, str]], *, node: str, stream: bool = False, format: Any = None,
                    extra_room: bool = False, max_tokens: int | None = None):
        num_ctx = self.settings.num_ctx * 2 if extra_room else self.settings.num_ctx
        options: dict[str, int | float] = {"num_ctx": num_ctx, "temperature": 0.2 if format is None else 0.0}
        think = _think_for(self.model, self._think)
        if max_tokens:
            # Ollama counts a thinking model's reasoning against num_predict: a cap sized for the
            # reply alone (a verdict is ~18 tokens) would end gpt-oss in its reasoning, before a
            # word of the reply. The cap stays a guard against a runaway reply, not a starvation.
            # The streamed draft's cap is sized for its answer too (nodes/llm.draft_cap), so it gets the same.
            thinking = THINKING_ALLOWANCE.get(think, 0) if think else 0
            options["num_predict"] = max_tokens + thinking
        started = time.perf_counter()
        try:
            # stream is chosen at run time; the SDK's overloads know it only as a literal.
            response = await self._client.chat(  # type: ignore[call-overload]
                model=self.model,
                messages=messages,
                stream=stream,
                format=format,
                options=options,
                think=think,
            )
        except ollama.ResponseError as exc:
            if self._think and "think" in (exc.error or "").lower():
                # A model without thinking support rejects the parameter: drop it for good.
                self._think = None
                return await self._call(messages, node=node, stream=stream, format=format, extra_room=extra_room,
                                        max_tokens=max_tokens)
            if exc.status_code == 404:
                raise OllamaError("ollama.model_missing", model=self.model) from None
            if self._record_failure():
                log.info(said("log.model_fallback", count=FAILURES_BEFORE_FALLBACK, fallback=self.model,
                              model=self.switched_from))
                return await self._call(messages, node=node, stream=stream, format=format, extra_room=extra_room,
                                        max_tokens=max_tokens)
            log.info(said("log.model_failed", model=self.model, node=node, reason=str(exc.error)[:200]))
            raise OllamaCallFailed(exc.error) from None
        except (ConnectionError, httpx.TransportError):
            raise OllamaError("ollama.unreachable", host=self.host) from None
        finally:
            if not stream:
                self._add_time(node, time.perf_counter() - started)
        if stream:  # a stream counts as a success once it has finished (see stream())
            self._count(node, None, None, calls=1)
            return response
        self.consecutive_failures = 0
        self._count(node, response.prompt_eval_count, response.eval_count, calls=1)
        log.info(said("log.model_answered", model=self.model, role=_DECLARED_ROLE.get(), node=node,
                      prompt=response.prompt_eval_count, completion=response.eval_count,
                      seconds=f"{time.perf_counter() - started:.2f}", stop=getattr(response, "done_reason", None)))
        self._check_context(messages, response.prompt_eval_count)
        return response

    def _record_failure(self) -> bool:
        """Count a failed call; after FAILURES_BEFORE_FALLBACK in a row, switch to the
        fallback model (when it is set and installed). True when it switched."""
        self.consecutive_failures += 1
        fallback = self.settings.fallback_model
        if (self.consecutive_failures < FAILURES_BEFORE_FALLBACK or not fallback or fallback == self.model
                or (self._installed is not None and not model_is_installed(fallback, self._installed))):
            return False
        self.switched_from, self.model = self.model, fallback
        self.consecutive_failures = 0
        self._entry("fallback_model")["calls"] += 1  # meta.json usage shows the switch
        return True

    def _count(self, node: str, prompt: int | None, completion: int | None, *, calls: int) -> None:
        entry = self._entry(node)
        entry["calls"] += calls
        entry["prompt_tokens"] += prompt or 0
        entry["completion_tokens"] += completion or 0

    def _check_context(self, messages: list[dict[str, str]], prompt_eval_count: int | None) -> bool:
        """Ollama truncates an over-long prompt silently; a prompt that used the whole
        context is recorded in usage (and reported to the caller) so it is never silent."""
        if prompt_eval_count and prompt_eval_count >= self.settings.num_ctx:
            entry = self._entry("context_overflow")
            entry["calls"] += 1
            entry["prompt_tokens"] += sum(estimate_tokens(m["content"]) for m in messages)
            return True
        return False


def capped_lines(model: Any, language: Language) -> list[str]:
    """One problem line per step whose replies ``model`` (a ModelClient) cut at their cap, or
    stopped in a loop (``REPEATING``), since it was last asked."""
    taken = model.take_capped()
    steps: dict[tuple[str, bool], list[int]] = {}
    for node, cap in taken:
        steps.setdefault((node, cap == REPEATING), []).append(cap)
    return [t("model.repeating", language, node=node, count=len(caps)) if looped else
            t("model.capped", language, node=node, tokens=max(caps), count=len(caps))
            for (node, looped), caps in steps.items()]


def installed_name(model: str, installed: Collection[str]) -> str | None:
    """The one answer to "is this model installed": the name Ollama lists it under, else
    None. Ollama names a model ``name:tag``, and a bare ``name`` means ``name:latest``."""
    if model in installed:
        return model
    if ":" not in model and f"{model}:latest" in installed:
        return f"{model}:latest"
    return None


def model_is_installed(model: str, installed: Collection[str]) -> bool:
    return installed_name(model, installed) is not None


def installed_models(host: str, timeout: float = 5.0) -> list[dict[str, Any]]:
    """Models Ollama has installed, ``[{"name", "size"}]``, for the REPL and doctor (no
    event loop there). Raises ``OllamaError`` when Ollama cannot be reached."""
    try:
        listing = ollama.Client(host=host, timeout=timeout, verify=client_ssl_context()).list()
    except (ConnectionError, httpx.TransportError):
        raise OllamaError("ollama.unreachable", host=host) from None
    except ollama.ResponseError as exc:
        raise OllamaCallFailed(exc.error) from None
    return [{"name": m.model, "size": m.size or 0} for m in listing.models if m.model]


def ollama_version(host: str, timeout: float = 5.0) -> str:
    """The server's version (``/api/version``; the official client has no call for it)."""
    try:
        return str(httpx.get(f"{host.rstrip('/')}/api/version", timeout=timeout).raise_for_status().json().get("version", "?"))
    except (httpx.HTTPError, ValueError):
        raise OllamaError("ollama.unreachable", host=host) from None


def _strip_thinking(text: str) -> str:
    return strip_control_text(_INLINE_THINK.sub("", text))


# Tokens a thinking model may reason for on top of a capped reply, by its thinking level
# (True: a model that thinks with no level). gpt-oss at "low" reasons for tens to a few hundred
# tokens before a short structured answer.
THINKING_ALLOWANCE: dict[bool | str, int] = {"low": 1024, "medium": 4096, "high": 8192, True: 1024}


def _think_for(model: str, think: bool | str | None) -> bool | str | None:
    """gpt-oss takes only "low", "medium" or "high" and cannot turn thinking off; other
    models take a boolean."""
    if model.startswith("gpt-oss"):
        return think if think in ("low", "medium", "high") else "low"
    if isinstance(think, str):
        return True
    return think


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

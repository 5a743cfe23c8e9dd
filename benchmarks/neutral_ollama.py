"""A neutral fake Ollama for benchmarks: it knows the REST API, not the programs it serves.

tests/fixtures/fake_ollama.py is the test suite's model: it recognises this project's
schemas and prompts so that tests can steer it. That makes it unfit for counting LLM
calls and tokens, because a program tuned against it looks better than it is, and a
peer (local-deep-researcher, "LCR") gets no such help. This server treats every client
alike. What it does, exactly:

Protocol (HTTP on 127.0.0.1, enough for the official ``ollama`` client and langchain-ollama):
  ``GET /``, ``GET /api/version``, ``GET /api/tags``, ``GET /api/ps``, ``POST /api/show``,
  ``POST /api/chat`` and ``POST /api/generate``, streamed as NDJSON (chunked, one token a
  chunk, a final ``done`` object) or not (``"stream": false``). An unknown model is a 404,
  a body that is not JSON a 400. ``think`` is accepted and no thinking text is produced;
  ``tools`` are ignored (the answer is plain text).

Answers, built from the prompt text by rules that name no client:
  * Sentences are cut from the messages (after ``. ! ? 。 ！ ？`` and at line ends). A
    sentence counts as content when it has at least 5 tokens and no URL; a short
    ``Label:`` prefix and list bullets are dropped.
  * Citation labels are used only when the prompt shows them: a line that opens with a
    bracketed label like ``[S1]`` or ``[3]`` labels the sentences of its paragraph (up to
    the next blank line or label). The answer then takes labelled sentences round-robin
    over the labels, each cited with its own label before its final punctuation.
    Without labels it takes the content sentences of the last user message, in order
    (then of the other messages). At most ``--sentences`` sentences (default 6).
  * ``format`` = a JSON schema: a small valid instance built from the schema alone (its
    titles and descriptions are not read): objects carry every declared property (a model
    fills the fields it is shown), arrays ``max(minItems, list_items)`` items (capped by
    ``maxItems``; ``list_items`` defaults to 1), an enum its first value, a const its value, numbers their minimum (or
    0), booleans ``true``, strings the next sentence of the pool below (cut to
    ``maxLength``). ``$ref``/``$defs``, ``anyOf``/``oneOf`` (first branch) are followed.
  * ``format`` = ``"json"``: if a message contains a JSON object (an example of the
    expected output), the answer has the same keys with values of the same types, the
    strings taken from the pool; otherwise ``{"answer": <first sentence>}``.
  * The string pool for JSON answers: sentences that end in a question mark (in any
    message, user messages first), then the content sentences of the user messages
    (labelled ones first); the other messages' sentences only when that pool is empty.
    Text inside the example object is skipped.
  * ``options.num_predict`` caps the answer; a capped answer ends with
    ``done_reason: "length"``, any other with ``"stop"``.

Token counts: one token per word, number, CJK character or punctuation mark (whitespace
is free), plus 4 per message for the chat template. ``prompt_eval_count`` reports the
prompt as Ollama does, cut to ``options.num_ctx`` (default 4096); the server's own tally
(``stats``) keeps the full count the client sent, under ``prompt_tokens``.

Pacing: ``tokens_per_second`` (0 = instant) spaces the streamed tokens, or delays a
non-streamed answer by the same total; ``prompt_tokens_per_second`` (0 = instant) adds
prompt-processing time before the first token.

Counting: every request is tallied under ``label`` (set it between runs, e.g. "ours" and
"lcr"); ``stats()`` returns calls, prompt and completion tokens per label.

    python benchmarks/neutral_ollama.py --port 11434 [--tokens-per-second 40] [--model NAME]

prints its URL, serves until interrupted, then prints its tallies as JSON.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
import threading
import time
from collections import defaultdict
from datetime import datetime, timezone
from http.server import BaseHTTPRequestHandler
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))
from fixtures.local_http import LocalHTTPServer  # noqa: E402 - the test servers' plumbing

DEFAULT_MODELS = ("gpt-oss:20b", "llama3.2")
DEFAULT_NUM_CTX = 4096
TEMPLATE_TOKENS_PER_MESSAGE = 4

_CJK = "\u3040-\u30ff\u3400-\u9fff\uf900-\ufaff\uff66-\uff9f"
# One token: a word, a number, one CJK character or one other visible character; the
# whitespace before it travels with it so that the pieces re-join into the text.
_PIECE = re.compile(rf"\s*(?:[A-Za-z]+(?:'[A-Za-z]+)?|\d+(?:[.,]\d+)*|[{_CJK}]|[^\sA-Za-z\d])")
_LABEL_LINE = re.compile(r"^\s*\[([A-Za-z]{0,3}\d{1,4})\]\s*")
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+|(?<=[。！？])")
_FINAL_PUNCT = ".!?。！？"
_URL = re.compile(r"https?://|www\.")
_BULLET = re.compile(r"^\s*(?:[-*•]|\d{1,2}[.)])\s+")
_LABEL_PREFIX = re.compile(r"^[^:：\n]{1,40}[:：]\s+")
MIN_CONTENT_TOKENS = 5


def tokens(text: str) -> list[str]:
    """The text cut into tokens (each with its leading whitespace)."""
    return _PIECE.findall(text)


def count_tokens(text: str) -> int:
    return len(tokens(text))


# --------------------------------------------------------------------------- prompt reading

def _content_sentence(raw: str) -> str | None:
    text = _BULLET.sub("", raw.strip())
    if _URL.search(text):
        return None
    stripped = _LABEL_PREFIX.sub("", text, count=1)
    if stripped != text and count_tokens(stripped) >= MIN_CONTENT_TOKENS:
        text = stripped
    return text if count_tokens(text) >= MIN_CONTENT_TOKENS else None


def _sentences(paragraph: str) -> list[str]:
    return [s.strip() for s in _SENTENCE_END.split(paragraph) if s.strip()]


def labelled_sentences(text: str) -> list[tuple[str, str]]:
    """(label, sentence) for the paragraphs that a ``[label]`` line opens."""
    found: list[tuple[str, str]] = []
    label: str | None = None
    for line in text.splitlines():
        match = _LABEL_LINE.match(line)
        if match:
            label, line = match.group(1), line[match.end():]
        elif not line.strip():
            label = None
        if label is None:
            continue
        for sentence in _sentences(line):
            content = _content_sentence(sentence)
            if content:
                found.append((label, content))
    return found


def plain_sentences(text: str) -> list[str]:
    found = []
    for line in text.splitlines():
        if _LABEL_LINE.match(line):
            continue
        for sentence in _sentences(line):
            content = _content_sentence(sentence)
            if content:
                found.append(content)
    return found


def _unique(items: list[Any]) -> list[Any]:
    return list(dict.fromkeys(items))


def _round_robin(pairs: list[tuple[str, str]]) -> list[tuple[str, str]]:
    by_label: dict[str, list[str]] = defaultdict(list)
    for label, sentence in _unique(pairs):
        by_label[label].append(sentence)
    ordered, depth = [], 0
    while any(depth < len(v) for v in by_label.values()):
        ordered += [(label, items[depth]) for label, items in by_label.items() if depth < len(items)]
        depth += 1
    return ordered


def cite(sentence: str, label: str) -> str:
    body = sentence.rstrip()
    if body and body[-1] in _FINAL_PUNCT:
        return f"{body[:-1]} [{label}]{body[-1]}"
    return f"{body} [{label}]"


def _texts(messages: list[dict[str, Any]]) -> tuple[str, list[str]]:
    """(last user message, every message's text with the last user message first)."""
    contents = [str(m.get("content") or "") for m in messages]
    users = [i for i, m in enumerate(messages) if m.get("role") == "user"]
    last = users[-1] if users else len(messages) - 1
    if last < 0:
        return "", []
    return contents[last], [contents[last]] + [c for i, c in enumerate(contents) if i != last]


def prose_answer(messages: list[dict[str, Any]], limit: int) -> str:
    last, everything = _texts(messages)
    labelled = _round_robin([pair for text in everything for pair in labelled_sentences(text)])
    if labelled:
        return " ".join(cite(sentence, label) for label, sentence in labelled[:limit])
    pool = _unique([s for text in everything for s in plain_sentences(text)])
    return " ".join(pool[:limit]) if pool else "OK."


def _example_object(texts: list[str]) -> tuple[dict[str, Any] | None, list[str]]:
    """The first JSON object written in the messages, and the messages with it cut out."""
    decoder = json.JSONDecoder()
    for index, text in enumerate(texts):
        for start in (m.start() for m in re.finditer(r"\{", text)):
            try:
                value, end = decoder.raw_decode(text, start)
            except ValueError:
                continue
            if isinstance(value, dict) and value:
                return value, texts[:index] + [text[:start] + text[end:]] + texts[index + 1:]
    return None, texts


def _question(sentence: str) -> str:
    text = _BULLET.sub("", sentence.strip())
    stripped = _LABEL_PREFIX.sub("", text, count=1)
    return stripped if count_tokens(stripped) >= 3 else text


def string_pool(user_text: str, other_text: str) -> list[str]:
    """Questions asked anywhere, then the user's sentences; other text only if that is all."""
    questions = [_question(s) for text in (user_text, other_text) for line in text.splitlines()
                 for s in _sentences(line) if s.strip()[-1:] in "?？" and not _URL.search(s)]
    labelled = [sentence for _, sentence in labelled_sentences(user_text)]
    pool = _unique(questions + labelled + plain_sentences(user_text))
    return pool or _unique(plain_sentences(other_text)) or ["OK."]


class _Pool:
    def __init__(self, strings: list[str]) -> None:
        self.strings, self.next = strings, 0

    def take(self) -> str:
        value = self.strings[self.next % len(self.strings)]
        self.next += 1
        return value


def schema_instance(node: Any, root: dict[str, Any], pool: _Pool, depth: int = 0, list_items: int = 1) -> Any:
    """A small instance of a JSON schema, its strings from the prompt (rules: module doc)."""
    if not isinstance(node, dict) or depth > 20:
        return None
    if "$ref" in node:
        target: Any = root
        for part in node["$ref"].lstrip("#/").split("/"):
            target = target.get(part, {}) if isinstance(target, dict) else {}
        return schema_instance(target, root, pool, depth + 1, list_items)
    for key in ("anyOf", "oneOf", "allOf"):
        if node.get(key):
            return schema_instance(node[key][0], root, pool, depth + 1, list_items)
    if "const" in node:
        return node["const"]
    if node.get("enum"):
        return node["enum"][0]
    kind = node.get("type")
    if isinstance(kind, list):
        kind = next((k for k in kind if k != "null"), "null")
    if kind == "object" or (kind is None and "properties" in node):
        properties = node.get("properties", {})
        names = list(properties) + [n for n in node.get("required", []) if n not in properties]
        return {name: schema_instance(properties.get(name, {}), root, pool, depth + 1, list_items) for name in names}
    if kind == "array":
        count = max(node.get("minItems", 0), list_items)
        if "maxItems" in node:
            count = min(count, node["maxItems"])
        return [schema_instance(node.get("items", {}), root, pool, depth + 1, list_items) for _ in range(count)]
    if kind == "string":
        text = pool.take()
        text = text[: node["maxLength"]] if "maxLength" in node else text
        return text.ljust(node.get("minLength", 0), ".")
    if kind in ("integer", "number"):
        low = node.get("minimum", node.get("exclusiveMinimum", -1) + 1)
        return int(low) if kind == "integer" else low
    if kind == "boolean":
        return True
    return None


def _same_shape(example: Any, pool: _Pool) -> Any:
    if isinstance(example, dict):
        return {key: _same_shape(value, pool) for key, value in example.items()}
    if isinstance(example, list):
        return [_same_shape(example[0], pool)] if example else []
    if isinstance(example, str):
        return pool.take()
    return example


def json_answer(messages: list[dict[str, Any]], schema: Any, list_items: int = 1) -> str:
    users = [str(m.get("content") or "") for m in messages if m.get("role") == "user"]
    others = [str(m.get("content") or "") for m in messages if m.get("role") != "user"]
    if isinstance(schema, dict):
        pool = _Pool(string_pool("\n".join(users), "\n".join(others)))
        return json.dumps(schema_instance(schema, schema, pool, list_items=list_items), ensure_ascii=False)
    example, texts = _example_object(users + others)
    pool = _Pool(string_pool("\n".join(texts[:len(users)]), "\n".join(texts[len(users):])))
    return json.dumps(_same_shape(example, pool) if example else {"answer": pool.take()}, ensure_ascii=False)


# --------------------------------------------------------------------------- server

class NeutralOllama(LocalHTTPServer):
    """``with NeutralOllama() as fake: fake.url``; ``fake.label = "ours"``; ``fake.stats()``."""

    def __init__(self, models: tuple[str, ...] = DEFAULT_MODELS, port: int = 0, tokens_per_second: float = 0.0,
                 prompt_tokens_per_second: float = 0.0, sentences: int = 6, list_items: int = 1) -> None:
        self.models = list(models)
        self.tokens_per_second = tokens_per_second
        self.prompt_tokens_per_second = prompt_tokens_per_second
        self.sentences = sentences
        self.list_items = list_items
        self.label = "default"
        self._lock = threading.Lock()
        self._stats: dict[str, dict[str, Any]] = {}
        self._listen(_handler_for(self), port)

    def stats(self, label: str | None = None) -> dict[str, Any]:
        with self._lock:
            if label is not None:
                return json.loads(json.dumps(self._stats.get(label, _empty_tally())))
            return json.loads(json.dumps(self._stats))

    def reset(self) -> None:
        with self._lock:
            self._stats.clear()

    def record(self, path: str, prompt_tokens: int, completion_tokens: int, kind: str) -> None:
        with self._lock:
            tally = self._stats.setdefault(self.label, _empty_tally())
            tally["calls"] += 1
            tally["prompt_tokens"] += prompt_tokens
            tally["completion_tokens"] += completion_tokens
            tally["by_endpoint"][path] = tally["by_endpoint"].get(path, 0) + 1
            tally["by_format"][kind] = tally["by_format"].get(kind, 0) + 1

    def answer(self, messages: list[dict[str, Any]], fmt: Any, num_predict: int | None) -> tuple[list[str], str]:
        """(the answer's tokens, done_reason)."""
        if fmt:
            text = json_answer(messages, fmt if isinstance(fmt, dict) else None, self.list_items)
        else:
            text = prose_answer(messages, self.sentences)
        pieces = tokens(text) or ["OK"]
        if num_predict is not None and 0 < num_predict < len(pieces):
            return pieces[:num_predict], "length"
        return pieces, "stop"


def _empty_tally() -> dict[str, Any]:
    return {"calls": 0, "prompt_tokens": 0, "completion_tokens": 0, "by_endpoint": {}, "by_format": {}}


def _now() -> str:
    return datetime.now(timezone.utc).isoformat()


def _details() -> dict[str, Any]:
    return {"parent_model": "", "format": "gguf", "family": "neutral", "families": ["neutral"],
            "parameter_size": "0B", "quantization_level": "none"}


def _handler_for(fake: NeutralOllama) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def log_message(self, *args: object) -> None:
            pass

        def handle(self) -> None:
            try:
                super().handle()
            except (BrokenPipeError, ConnectionResetError):
                pass  # a client that hangs up mid-stream; Ollama just stops writing

        def _json(self, status: int, payload: Any) -> None:
            data = json.dumps(payload, ensure_ascii=False).encode()
            self.send_response(status)
            self.send_header("Content-Type", "application/json; charset=utf-8")
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

        def _chunk(self, payload: dict[str, Any]) -> None:
            data = (json.dumps(payload, ensure_ascii=False) + "\n").encode()
            self.wfile.write(f"{len(data):x}\r\n".encode() + data + b"\r\n")
            self.wfile.flush()

        def do_HEAD(self) -> None:  # noqa: N802
            self.send_response(200)
            self.send_header("Content-Length", "0")
            self.end_headers()

        def do_GET(self) -> None:  # noqa: N802
            path = self.path.split("?")[0].rstrip("/") or "/"
            if path == "/":
                body = b"Ollama is running"
                self.send_response(200)
                self.send_header("Content-Type", "text/plain; charset=utf-8")
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)
            elif path == "/api/version":
                self._json(200, {"version": "0.12.6"})
            elif path == "/api/tags":
                self._json(200, {"models": [{"name": m, "model": m, "modified_at": _now(), "size": 1,
                                             "digest": "0" * 64, "details": _details()} for m in fake.models]})
            elif path == "/api/ps":
                self._json(200, {"models": []})
            else:
                self._json(404, {"error": "not found"})

        def do_POST(self) -> None:  # noqa: N802
            path = self.path.split("?")[0].rstrip("/")
            length = int(self.headers.get("Content-Length") or 0)
            try:
                body = json.loads(self.rfile.read(length) or b"{}")
            except ValueError:
                self._json(400, {"error": "invalid JSON"})
                return
            model = body.get("model") or body.get("name")
            if path not in ("/api/show", "/api/chat", "/api/generate"):
                self._json(404, {"error": "not found"})
            elif model not in fake.models:
                self._json(404, {"error": f'model "{model}" not found, try pulling it first'})
            elif path == "/api/show":
                self._json(200, {"modelfile": "", "parameters": "", "template": "{{ .Prompt }}", "details": _details(),
                                 "model_info": {"general.architecture": "neutral", "neutral.context_length": 131072},
                                 "capabilities": ["completion", "tools", "thinking"], "modified_at": _now()})
            else:
                self._generate(path, body, model)

        def _generate(self, path: str, body: dict[str, Any], model: str) -> None:
            started = time.perf_counter_ns()
            if path == "/api/chat":
                messages = [m for m in body.get("messages") or [] if isinstance(m, dict)]
            else:
                messages = [{"role": "system", "content": body["system"]}] if body.get("system") else []
                messages.append({"role": "user", "content": str(body.get("prompt") or "")})
            options = body.get("options") or {}
            prompt_tokens = sum(count_tokens(str(m.get("content") or "")) + TEMPLATE_TOKENS_PER_MESSAGE
                                for m in messages)
            evaluated = min(prompt_tokens, int(options.get("num_ctx") or DEFAULT_NUM_CTX))
            num_predict = options.get("num_predict")
            pieces, done_reason = fake.answer(messages, body.get("format"),
                                              int(num_predict) if num_predict is not None else None)
            fmt = body.get("format")
            fake.record(path, prompt_tokens, len(pieces),
                        "schema" if isinstance(fmt, dict) else ("json" if fmt else "text"))
            if fake.prompt_tokens_per_second:
                time.sleep(evaluated / fake.prompt_tokens_per_second)
            prompt_done = time.perf_counter_ns()
            delay = 1 / fake.tokens_per_second if fake.tokens_per_second else 0.0
            key = "message" if path == "/api/chat" else "response"

            def part(text: str) -> dict[str, Any]:
                piece: Any = {"role": "assistant", "content": text} if key == "message" else text
                return {"model": model, "created_at": _now(), key: piece, "done": False}

            def final() -> dict[str, Any]:
                now = time.perf_counter_ns()
                return {**part(""), "done": True, "done_reason": done_reason, "total_duration": now - started,
                        "load_duration": 0, "prompt_eval_count": evaluated,
                        "prompt_eval_duration": prompt_done - started, "eval_count": len(pieces),
                        "eval_duration": now - prompt_done}

            if body.get("stream", True) is False:
                if delay:
                    time.sleep(delay * len(pieces))
                self._json(200, {**final(), key: part("".join(pieces))[key]})
                return
            self.send_response(200)
            self.send_header("Content-Type", "application/x-ndjson")
            self.send_header("Transfer-Encoding", "chunked")
            self.end_headers()
            for piece in pieces:
                if delay:
                    time.sleep(delay)
                self._chunk(part(piece))
            self._chunk(final())
            self.wfile.write(b"0\r\n\r\n")
            self.wfile.flush()

    return Handler


def main(argv: list[str] | None = None) -> int:
    cli = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    cli.add_argument("--port", type=int, default=11434)
    cli.add_argument("--model", action="append", help="an installed model name (repeatable)")
    cli.add_argument("--tokens-per-second", type=float, default=0.0, help="answer speed; 0 = instant")
    cli.add_argument("--prompt-tokens-per-second", type=float, default=0.0, help="prompt speed; 0 = instant")
    cli.add_argument("--sentences", type=int, default=6, help="sentences per prose answer")
    cli.add_argument("--list-items", type=int, default=1, help="items per array a schema asks for")
    args = cli.parse_args(argv)
    fake = NeutralOllama(models=tuple(args.model or DEFAULT_MODELS), port=args.port,
                         tokens_per_second=args.tokens_per_second,
                         prompt_tokens_per_second=args.prompt_tokens_per_second, sentences=args.sentences,
                         list_items=args.list_items)
    print(fake.url, flush=True)
    fake.start()
    try:
        while True:
            time.sleep(3600)
    except KeyboardInterrupt:
        fake.stop()
        print(json.dumps(fake.stats(), indent=2))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

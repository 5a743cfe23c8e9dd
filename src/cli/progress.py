"""Live progress on stderr (rich) and the streamed answer.

Progress never goes to stdout, so `research "…" --json | jq` and pipes stay clean;
the streamed answer goes to stdout unless --json asked for stdout to hold only JSON.
"""

from __future__ import annotations

import sys
from typing import Any, TextIO

from rich.console import Console
from rich.markup import escape

from research.modules.core.i18n import t
from research.modules.text.sanitize import strip_controls


class ConsoleProgress:
    def __init__(self, lang: str, *, answer_stream: TextIO | None = None, verbose: bool = False) -> None:
        self.lang = lang
        self.console = Console(stderr=True, highlight=False)
        self.answer = answer_stream if answer_stream is not None else sys.stdout
        self.verbose = verbose
        self._streaming = False
        # Known once the session folder exists; an error after that can say how to resume.
        self.session_id: str | None = None
        self.session_dir: str | None = None
        self.output_error: OSError | None = None  # the answer stream failed (closed pipe, full disk)

    def __call__(self, event: str, payload: dict[str, Any]) -> None:
        handler = getattr(self, "_on_" + event, None)
        if handler:
            handler(payload)

    def _on_session(self, payload: dict[str, Any]) -> None:
        self.lang = payload.get("language", self.lang)
        self.session_id, self.session_dir = payload["session_id"], payload.get("session_dir")
        self.console.print(f"[dim]{t('progress.session', self.lang, session_id=payload['session_id'])}[/dim]")

    def _on_resuming(self, payload: dict[str, Any]) -> None:
        node = ", ".join(payload.get("next", []))
        self.console.print(t("progress.resuming", self.lang, session_id=payload["session_id"], node=node))

    def _on_node_start(self, payload: dict[str, Any]) -> None:
        self.console.print(f"[cyan]→[/cyan] {t('progress.' + payload['node'], self.lang)}…")

    def _on_node_end(self, payload: dict[str, Any]) -> None:
        if self._streaming:
            self._streaming = False
        label = t("progress." + payload["node"], self.lang)
        self.console.print(f"[green]✓[/green] {label} [dim]({payload['seconds']:.1f}s)[/dim]")

    def _on_message(self, payload: dict[str, Any]) -> None:
        params = {k: v for k, v in payload.items() if k != "key"}
        # Parameters may quote pages (titles, URLs, errors): no escape sequences, no rich markup.
        self.console.print(f"  [dim]{escape(strip_controls(t(payload['key'], self.lang, **params)))}[/dim]")

    def _on_token(self, payload: dict[str, Any]) -> None:
        self._streaming = True
        if self.output_error is not None:
            return
        # The model repeats what pages said; a sequence split across tokens is harmless
        # once every ESC is gone, so token by token is enough.
        try:
            self.answer.write(strip_controls(payload["text"]))
            self.answer.flush()
        except OSError as exc:  # `| head -c 20` or `> /dev/full`: the run goes on, the CLI says so at the end
            self.output_error = exc

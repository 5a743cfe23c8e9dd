"""How the CLI lists sessions and sources: the `sessions list` table, a session's JSON with its
verdict counts, the REPL's /sources. Shared by the local commands and the team's client
(team/client.py), which shows a server's sessions the same way."""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING, Any

from research.modules.core.errors import EXIT_SEARCH_FAILED
from research.modules.core.i18n import t
from research.modules.core.language import Language
from research.modules.text.sanitize import shorten

if TYPE_CHECKING:  # the CLI starts without pydantic's models
    from research.state.run_record import Source


def print_source_list(console: Any, session_id: str, sources: list[Source], lang: Language) -> None:
    """The REPL's /sources: each source's label, title and status on one line, its URL whole on
    the next so it can be copied or clicked (a list, not a table). Each source's fields are
    already one clean line (``run_record.Source``)."""
    from rich.markup import escape

    if not sources:
        console.print(escape(t("repl.sources_empty", lang, session_id=session_id)))
        return
    console.print(f"[bold]{escape(t('repl.sources_title', lang, session_id=session_id))}[/bold]")
    for source in sources:
        ok = source.read
        status = (t("repl.source_ok", lang) if ok
                  else t("repl.source_left_out" if source.status == "left_out" else "repl.source_failed",
                         lang, error=shorten(source.error or "", 80)))
        label, title = shorten(source.label, 12), shorten(source.title, 300)
        console.print(f"[cyan]{escape(label)}[/cyan] {escape(title)} [{'dim' if ok else 'red'}]({escape(status)})[/]",
                      soft_wrap=True)
        console.print(f"    {escape(source.url)}", soft_wrap=True)


def print_sessions_table(sessions: list[dict], lang: Language) -> None:
    from rich.console import Console
    from rich.markup import escape
    from rich.table import Table

    from research.modules.text.sanitize import one_line

    if not sys.stdout.isatty():
        # Piped (`| cat`, `| grep`): one tab-separated line per session, nothing cut to a width.
        for meta in sessions:
            fields = [meta.get("session_id", ""), (meta.get("created_at") or "")[:16].replace("T", " "),
                      _status_shown(meta, lang), meta.get("sources", ""), _supported_cell(meta, lang),
                      meta.get("question") or ""]
            print("\t".join(one_line(str(value)).replace("\t", " ") for value in fields))
        return

    from rich import box
    from rich.cells import cell_len

    console = Console()
    narrow = console.width < 120
    # meta.json may come from someone else's folder: plain text, one line, no markup.
    # Under 120 columns the date loses its year and the sources count and the share supported
    # share a column ("5 · 29%"), so that the question keeps room.
    rows = [[one_line(str(value), limit) for value, limit in (
        (meta.get("session_id", ""), 40),
        ((meta.get("created_at") or "")[5 if narrow else 0:16].replace("T", " "), None),
        (meta.get("question") or "", None),
        (_status_shown(meta, lang), 20),
        (meta.get("sources", ""), 10),
        (_supported_cell(meta, lang, short=narrow), None),
    )] for meta in sessions]
    keys = ["sessions.col_id", "sessions.col_date", "sessions.col_question", "sessions.col_status",
            "sessions.col_sources", "sessions.col_verified"]
    if narrow:
        keys.pop()
        rows = [row[:4] + [" · ".join(value for value in row[4:] if value)] for row in rows]
    headers = [t(key, lang) for key in keys]
    # The question gets what the other columns leave, counted in cells (a Japanese character
    # takes two), and is cut to two lines of it with "…". Counted in characters, an 80-column
    # terminal showed 「日本の …」.
    others = sum(max([cell_len(headers[n])] + [cell_len(row[n]) for row in rows])
                 for n in range(len(headers)) if n != 2)
    room = max(12, console.width - others - 3 * (len(headers) - 1))  # a column's gap: " │ " less its rule
    table = Table(title=t("sessions.title", lang), box=box.SIMPLE_HEAD, pad_edge=False, show_edge=False)
    for number, header in enumerate(headers):
        # The id is what users copy into /open, /resume, `sessions show`: never cut it.
        table.add_column(header, no_wrap=number != 2, overflow="fold" if number == 2 else "ellipsis",
                         min_width=22 if number == 0 else None, max_width=room if number == 2 else None)
    for row in rows:
        row[2] = cut_to_cells(row[2], 2 * room)
        table.add_row(*(escape(value) for value in row))
    console.print(table)


def cut_to_cells(text: str, cells: int) -> str:
    """``text`` in at most ``cells`` terminal cells (East Asian wide characters count two), "…" at a cut."""
    from rich.cells import cell_len, set_cell_size

    if cell_len(text) <= cells:
        return text
    return set_cell_size(text, cells - 1).rstrip() + "…"


def _supported_cell(meta: dict, lang: Language, short: bool = False) -> str:
    """"29% (2 of 7 supported)": the share computed from the counts it stands beside (the
    five verdict counts of meta.json; sessions written before them, from their summary)."""
    from research.state.models import VerdictState, summary_states, supported_percent  # noqa: PLC0415

    verification = meta.get("verification")
    states = summary_states(verification) if isinstance(verification, dict) else {}
    claims = sum(states.values())
    if not claims:
        return ""
    if short:
        return f"{supported_percent(states)}%"
    return t("sessions.supported_cell", lang, percent=supported_percent(states), claims=claims,
             supported=states[VerdictState.SUPPORTED])


def with_verdicts(meta: dict) -> dict:
    """meta.json with its verification's five counts and the share supported from them."""
    from research.state.models import states_json, summary_states, supported_percent  # noqa: PLC0415

    verification = meta.get("verification")
    if not isinstance(verification, dict) or not verification:
        return meta
    states = summary_states(verification)
    return {**meta, "verification": {**verification, "verdicts": states_json(states),
                                     "supported_percent": supported_percent(states)}}


def _status_shown(meta: dict, lang: Language) -> str:
    from research.state.status import SessionStatus  # noqa: PLC0415 - the state package loads pydantic

    status = meta.get("status", "")
    if status == SessionStatus.NO_EVIDENCE and meta.get("exit_code") == EXIT_SEARCH_FAILED:
        return t("terminal.status_search_failed", lang)  # nothing was searched: not "no evidence"
    if status == SessionStatus.INTERRUPTED:
        return t("terminal.status_interrupted", lang)
    if status == SessionStatus.DAMAGED:  # a meta.json that is not ours (session_folder.listed_meta)
        return t("session_folder.damaged", lang)
    return status

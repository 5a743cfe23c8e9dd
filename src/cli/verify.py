"""`research verify`: check any answer against sources, without running research.

    research verify ANSWER.md --source FILE [--source FILE ...] [--session ID] [--no-judge] [--json] [--lang ja|en]
    research verify --batch IN.jsonl [--no-judge]

Batch input, one object per line: ``{"id", "draft", "sources": [{"label", "text", "title"?, "url"?}],
"lang"?}``. Output, one line per input line and nothing else on stdout: ``{"id", "claims":
[{"start", "end", "text", "verdict", "citations", "evidence", "reason", "score"}]}`` with offsets into
``draft`` as given; sentences that are not claims are left out. A draft without citations
is checked sentence by sentence against all its sources.

Sources are files or http(s) URLs. They are untrusted bytes: plain text and Markdown are
read as text, anything else (HTML, PDF) is parsed by the sandboxed parser, and URLs are
fetched by the web-search server (orchestrator/answer_check.py, shared with the research
MCP server's ``verify`` tool).

The MCP tool's size caps hold here too (``servers/research/verify_tool``: an answer of
200,000 characters, 20 sources of 2,000,000 each, a page or session source once read): a
larger input is one line and exit 2, before it is read whole or checked. A batch line is
read up to what those caps allow.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import sys
from pathlib import Path
from typing import Any, NoReturn, cast

from research.modules.core.errors import (
    EXIT_CLAIMS_NOT_SUPPORTED,
    EXIT_FAILURE,
    EXIT_OK,
    EXIT_USAGE,
    UsageError,
    UserFacingError,
)
from research.modules.core.i18n import t
from research.modules.core.language import Language
from research.modules.text.sanitize import clean_data, for_terminal, strip_controls
from research.state.models import VerdictState, states_json, supported_percent, verdict_state
from research.state.progress_log import verdict_counts
from research.orchestrator.answer_check import (
    OUTCOMES,
    SourceSpec,
    check_draft,
    ClaimRecord,
    SourceDocument,
    claim_record,
    judge_uncertain_claims,
    read_sources,
)
from research.servers.research.verify_tool import (
    MAX_ANSWER_CHARS,
    MAX_SOURCE_CHARS,
    MAX_SOURCES,
    TooLarge,
    check_sizes,
)

# A batch line holds one answer and its sources as JSON: at most the caps, plus room for
# the keys. A longer line is refused once read this far, never read whole.
MAX_BATCH_LINE_CHARS = MAX_ANSWER_CHARS + MAX_SOURCES * MAX_SOURCE_CHARS + 100_000
# UTF-8 spends at most 4 bytes on a character: a text file of more bytes is over the cap.
_MAX_SOURCE_FILE_BYTES = 4 * MAX_SOURCE_CHARS


class _Usage(Exception):
    """A user mistake: one line, exit 2."""


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:  # one line and exit 2, never a usage dump on stdout
        raise _Usage(message)


def _parser() -> argparse.ArgumentParser:
    parser = _Parser(
        prog="research verify", add_help=True,
        description="Check every claim of an answer against its sources / 回答の各主張を出典と照合します. "
        "Exit 0 when the check ran (read the verdicts), 2 for a usage mistake; with --strict, 6 when any "
        "claim is not supported (for scripts and CI).",
    )
    parser.add_argument("answer", nargs="?", help="the answer: a Markdown or text file with [S#] citations")
    parser.add_argument("--source", action="append", default=[], metavar="FILE|URL",
                        help="a source, cited as [S1], [S2]… in the order given (repeatable)")
    parser.add_argument("--session", metavar="ID", help="also use the sources a research session read")
    parser.add_argument("--batch", metavar="IN.jsonl",
                        help='many answers, one JSON object per line: {"id", "draft", "sources": [{"label", "text"}]} (- for stdin)')
    parser.add_argument("--no-judge", action="store_true", help="cheap checks only: uncertain claims stay uncertain")
    parser.add_argument("--json", action="store_true", help="print the claims as JSON")
    parser.add_argument("--lang", choices=["ja", "en"], help="language of the messages and the table (default: from LANG)")
    parser.add_argument("--strict", action="store_true",
                        help=f"exit {EXIT_CLAIMS_NOT_SUPPORTED} when any claim is short of supported (partly supported, "
                        "not supported, contradicted or not checked); 0 only when every claim is supported")
    return parser


def _default_lang() -> Language:
    return "ja" if os.environ.get("LANG", "").startswith("ja") else "en"


def main(argv: list[str]) -> int:
    lang = _default_lang()
    try:
        args = _parser().parse_args(argv)
        lang = args.lang or lang
        if args.batch:
            return _run_batch(Path(args.batch), judge=not args.no_judge, lang=lang, strict=args.strict)
        if not args.answer:
            raise _Usage(t("verify.no_answer", lang))
        return asyncio.run(_run_single(args, lang))
    except _Usage as exc:
        sys.stderr.write(f"research verify: {exc}\n")
        return EXIT_USAGE
    except UserFacingError as exc:
        sys.stderr.write(f"research verify: {exc.message(lang)}\n")
        return exc.exit_code
    except KeyboardInterrupt:
        return EXIT_FAILURE
    except BrokenPipeError:  # `research verify --batch … | head`: the reader left, not an error
        sys.stderr.close()
        return EXIT_OK


async def _judge(claims: list[Any], assessments: list[Any], lang: Language,
                 documents: list[SourceDocument]) -> tuple[bool, str]:
    from research.modules.core.settings import load_settings  # noqa: PLC0415 - only when a judge runs

    return await judge_uncertain_claims(claims, assessments, lang, load_settings(), documents)


# --- batch -----------------------------------------------------------------------------------------


def _documents_from(sources: list[Any]) -> list[SourceDocument]:
    """A --batch line's sources (JSON, objects kept) in the checks' shape."""
    return [
        SourceDocument(label=str(s.get("label") or f"S{i + 1}"), markdown=str(s.get("text") or ""),
                       title=s.get("title", ""), url=s.get("url", ""), status="ok")
        for i, s in enumerate(sources)
        if isinstance(s, dict)
    ]


def _run_batch(path: Path, *, judge: bool, lang: Language, strict: bool = False) -> int:
    try:
        handle = sys.stdin if str(path) == "-" else path.open(encoding="utf-8")
    except OSError as exc:
        raise _Usage(t("verify.unreadable", lang, path=path, reason=exc.strerror or str(exc))) from None
    out = sys.stdout
    all_supported = True
    with handle:
        for number, line in enumerate(iter(lambda: handle.readline(MAX_BATCH_LINE_CHARS + 1), ""), start=1):
            if len(line) > MAX_BATCH_LINE_CHARS:
                raise UsageError("verify.line_too_large", line=number, path=path, limit=MAX_BATCH_LINE_CHARS)
            if not line.strip():
                continue
            try:
                item = json.loads(line)
                if not isinstance(item, dict) or not isinstance(item.get("draft"), str):
                    raise ValueError("needs an object with a string 'draft'")
                sources = item.get("sources") or []
                if not isinstance(sources, list):
                    raise ValueError("'sources' must be a list")
            except ValueError as exc:
                raise _Usage(t("verify.bad_line", lang, line=number, path=path, reason=str(exc)[:120])) from None
            documents = _documents_from(sources)
            try:
                check_sizes(item["draft"], [d["markdown"] for d in documents])
            except TooLarge as exc:
                raise _Usage(t("verify.bad_line", lang, line=number, path=path, reason=exc.message(lang))) from None
            claims, assessments = check_draft(item["draft"], documents)
            checked = True
            if judge:
                # A line's own "lang" (any other value than "ja" reads as English), else the command's.
                line_lang: Language = ("ja" if item["lang"] == "ja" else "en") if item.get("lang") else lang
                checked, _ = asyncio.run(_judge(claims, assessments, line_lang, documents))
            records = [claim_record(c, a, checked=checked) for c, a in zip(claims, assessments)]
            all_supported = all_supported and all(r["state"] == VerdictState.SUPPORTED for r in records)
            for record in records:
                record.pop("source", None)
            out.write(json.dumps({"id": str(item.get("id", number)), "claims": records}, ensure_ascii=False) + "\n")
    out.flush()
    return EXIT_CLAIMS_NOT_SUPPORTED if strict and not all_supported else EXIT_OK


# --- one answer, files as sources ------------------------------------------------------------------


async def _read_sources(paths: list[str], lang: Language, first_label: int) -> list[SourceDocument]:
    from research.modules.core.settings import load_settings  # noqa: PLC0415

    if len(paths) > MAX_SOURCES:
        raise TooLarge("the list of sources", len(paths), MAX_SOURCES)
    for number, raw in enumerate(paths, first_label):
        if raw.startswith(("http://", "https://")):
            continue
        try:
            size = os.stat(raw).st_size
        except OSError:
            continue  # said by read_sources, in its words
        if size > _MAX_SOURCE_FILE_BYTES:  # refused before a byte is read or parsed
            raise UsageError("verify.file_too_large", what=f"source S{number}", path=strip_controls(raw),
                             limit=MAX_SOURCE_CHARS)
    specs = [SourceSpec("url" if raw.startswith(("http://", "https://")) else "file", raw) for raw in paths]
    try:
        documents = await read_sources(specs, load_settings(), first_label=first_label)
    except FileNotFoundError as exc:
        raise _Usage(t("verify.unreadable", lang, path=str(exc), reason="no such file")) from None
    except OSError as exc:
        raise _Usage(t("verify.unreadable", lang, path=exc.filename, reason=exc.strerror or str(exc))) from None
    for document in documents:
        if document["status"] == "failed":
            sys.stderr.write(t("verify.parse_failed", lang, path=document["url"], reason=document.get("error", "")[:200]) + "\n")
    return documents


def _session_documents(ref: str) -> list[SourceDocument]:
    from research.modules.core.settings import load_settings  # noqa: PLC0415
    from research.state.session_folder import HistoryManager, read_ledger  # noqa: PLC0415

    history = HistoryManager(load_settings().sessions_dir)
    # processed.jsonl's entries: the ledger's keys, which the checks read with .get.
    return cast(list[SourceDocument], read_ledger(history.resolve(ref).path))


def _read_answer(path: str, lang: Language) -> str:
    """The answer file, read no further than the cap (a 5 MB answer or ``/dev/zero`` is
    refused after 200,001 characters, not read whole)."""
    try:
        with open(path, encoding="utf-8") as handle:
            draft = handle.read(MAX_ANSWER_CHARS + 1)
    except (OSError, UnicodeDecodeError) as exc:
        raise _Usage(t("verify.unreadable", lang, path=path, reason=getattr(exc, "strerror", None) or str(exc))) from None
    if len(draft) > MAX_ANSWER_CHARS:
        raise UsageError("verify.file_too_large", what="the answer", path=strip_controls(path), limit=MAX_ANSWER_CHARS)
    return draft


async def _run_single(args: argparse.Namespace, lang: Language) -> int:
    draft = _read_answer(args.answer, lang)
    documents = _session_documents(args.session) if args.session else []
    if not args.source and not documents:
        raise _Usage(t("verify.no_sources", lang))
    # Labels continue after the session's own, so a session's [S#] keep their meaning.
    documents += await _read_sources(args.source, lang, first_label=len(documents) + 1)
    for document in documents:  # a parsed file's, a page's or a session's text is only known once read
        if len(document.get("markdown") or "") > MAX_SOURCE_CHARS:
            raise TooLarge(f"source {document['label']}", len(document["markdown"]), MAX_SOURCE_CHARS)
    claims, assessments = check_draft(draft, documents)
    checked, why = (True, "")
    if not args.no_judge:
        checked, why = await _judge(claims, assessments, lang, documents)
        if not checked and why:
            sys.stderr.write(t("verify.judge_unavailable", lang, reason=why[:200]) + "\n")
    records = [claim_record(c, a, checked=checked) for c, a in zip(claims, assessments)]
    shown = [shown_verdict(r) for r in records]
    counts = {name: sum(1 for r in records if r["verdict"] == name) for name in OUTCOMES}
    states = {state: shown.count(state) for state in VerdictState}
    code = EXIT_CLAIMS_NOT_SUPPORTED if args.strict and any(name != VerdictState.SUPPORTED for name in shown) else EXIT_OK
    if args.json:
        # summary: the outcome counts scripts already read, and (verdicts) the five states a person is shown.
        summary = {"claims": len(records), **counts, "verdicts": states_json(states),
                   "supported_percent": supported_percent(states)}
        print(json.dumps(clean_data({"claims": records, "summary": summary,
                          "sources": [{"label": d["label"], "title": d.get("title", ""), "url": d.get("url", "")} for d in documents]}),
                         ensure_ascii=False))
        return code
    print_verdicts(records, shown, lang, table=sys.stdout.isatty())
    sys.stdout.write(verdict_counts(states, lang) + "\n")
    return code


def shown_verdict(record: ClaimRecord) -> VerdictState:
    """The state a person is shown for one record (``claim_record``'s ``state``)."""
    return VerdictState(record["state"]) if record.get("state") else verdict_state(record)


_STYLES = {VerdictState.SUPPORTED: "green", VerdictState.PARTLY_SUPPORTED: "yellow", VerdictState.NOT_SUPPORTED: "red",
           VerdictState.CONTRADICTED: "red", VerdictState.NOT_CHECKED: "yellow"}


def print_verdicts(records: list[ClaimRecord], shown: list[VerdictState], lang: Language, *, table: bool) -> None:
    """On a terminal a table that wraps (never cuts) claims and evidence, with a reason
    column; piped, one numbered block per claim, whole, for grep and diff."""
    from research.modules.core.i18n import reason_label  # noqa: PLC0415

    if not table:
        lines = []
        for number, (record, name) in enumerate(zip(records, shown), 1):
            where = f" [{record['source']}]" if record.get("source") else ""
            lines.append(f"{number}. {t('verdict.' + name, lang)}{where}: {strip_controls(record['text'])}")
            if record["reason"]:
                lines.append("   " + t("verify.why", lang, reason=reason_label(record["reason"], lang)))
            if record["evidence"]:
                lines.append("   " + t("verify.evidence_line", lang, label=record.get("source") or "?",
                                          evidence=" ".join(strip_controls(record["evidence"]).split())))
        sys.stdout.write("\n".join(lines) + ("\n" if lines else ""))
        return
    from rich.console import Console  # noqa: PLC0415
    from rich.table import Table  # noqa: PLC0415

    grid = Table(show_lines=True)
    for key in ("verify.col_claim", "verify.col_verdict", "verify.col_reason", "verify.col_source", "verify.col_evidence"):
        # fold: a long Japanese claim wraps onto more lines; its numbers are never cut off.
        grid.add_column(t(key, lang), overflow="fold")
    for record, name in zip(records, shown):
        # Claims and evidence come from the answer and the sources: no escapes, no Rich markup.
        grid.add_row(for_terminal(record["text"]), f"[{_STYLES[name]}]{t('verdict.' + name, lang)}[/]",
                     for_terminal(reason_label(record["reason"], lang)) if record["reason"] else "",
                     for_terminal(record.get("source") or ""), for_terminal(record["evidence"] or ""))
    Console().print(grid)

"""`research doctor`: is this machine ready to answer a question?

Each check really exercises the part it names: it calls Ollama's REST API, starts the
sandboxed parser server and proves its network isolation, starts the web-search MCP
server, looks up the PDF font, and writes a file into the sessions folder.
"""

from __future__ import annotations

import asyncio
import json
import sys
import tempfile
import time
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Literal

from research.modules.core.errors import EXIT_FAILURE, EXIT_OK, EXIT_OLLAMA, OllamaError, UserFacingError
from research.modules.core.i18n import t
from research.modules.core.language import Language
from research.modules.core.settings import SEARCH_ENGINES, Settings
from research.cli.config_command import UNSET

if TYPE_CHECKING:  # the clients are imported by the checks that start them: `doctor --help` stays light
    from research.modules.clients.parser_client import ContainerProcessor
    from research.modules.clients.web_search_client import WebSearchClient

Status = Literal["ok", "warn", "fail", "skip"]  # skip: not checked, as asked (--offline)
HTTP_TIMEOUT_S = 5.0
SERVER_START_TIMEOUT_S = 90.0


@dataclass
class Check:
    name: str  # stable id, e.g. "ollama"
    label: str  # localized
    status: Status
    detail: str
    essential: bool = True
    value: str | None = None  # machine-readable finding for --json (e.g. the sandbox name)


# --------------------------------------------------------------------------- Ollama


def check_ollama(settings: Settings, lang: Language) -> tuple[Check, Check]:
    label_ollama, label_model = t("doctor.check.ollama", lang), t("doctor.check.model", lang)
    from research.modules.llm.model_manager import installed_models, model_is_installed, ollama_version

    host = settings.ollama_host
    try:
        version = ollama_version(host, HTTP_TIMEOUT_S)
        installed = {m["name"] for m in installed_models(host, HTTP_TIMEOUT_S)}
    except OllamaError:
        return (
            Check("ollama", label_ollama, "fail", t("ollama.unreachable", lang, host=host)),
            Check("model", label_model, "fail", t("doctor.model_unknown", lang, model=settings.model)),
        )
    ollama = Check("ollama", label_ollama, "ok", t("doctor.ollama_ok", lang, version=version, host=host))
    if model_is_installed(settings.model, installed):
        # The judge of uncertain claims is named here too, with how to get the checker.
        judge, judge_line = judge_summary(settings, installed, lang)
        joint = "。" if lang == "ja" else "; "
        detail = f"{t('doctor.model_ok', lang, model=settings.model)}{joint}{t('doctor.check.judge', lang)}: {judge_line}"
        return ollama, Check("model", label_model, "ok", detail, value=judge)
    return ollama, Check("model", label_model, "fail", t("ollama.model_missing", lang, model=settings.model))


def judge_summary(settings: Settings, installed: set[str], lang: Language) -> tuple[str, str]:
    """(the judge's model, one line saying who judges and, without the checker, how to get it)."""
    from research.modules.llm.judge import CHECKER

    model, line = _judge_line(settings, installed, lang)
    # The checker's weights forbid commercial use: said wherever doctor names or suggests it.
    if CHECKER in line:
        line = line.rstrip("。. ") + ("。" if lang == "ja" else ". ") + t("terminal.doctor_judge_licence", lang)
    return model, line


def _judge_line(settings: Settings, installed: set[str], lang: Language) -> tuple[str, str]:
    from research.modules.llm.judge import choose_judge

    judge = choose_judge(settings, settings.model, installed)
    if judge.missing:
        return judge.model, t("doctor.judge_missing", lang, model=judge.missing, drafting=judge.model)
    if judge.protocol != "prompt":
        japanese = judge.describe()["japanese_judge"]
        return judge.model, t("doctor.judge_checker", lang, model=judge.model, japanese=japanese)
    if settings.judge_model.strip():
        return judge.model, t("doctor.judge_chosen_prompt", lang, model=judge.model)
    return judge.model, t("doctor.judge_prompt", lang, model=judge.model)


def check_guard(settings: Settings, lang: Language) -> Check:
    """The guard model that screens page text with the grammar, or how to get one."""
    from research.modules.llm.guard import guard_model
    from research.modules.llm.model_manager import installed_models

    label = t("doctor.check.guard", lang)
    try:
        installed = {m["name"] for m in installed_models(settings.ollama_host, HTTP_TIMEOUT_S)}
    except OllamaError:
        return Check("guard", label, "warn", t("ollama.unreachable", lang, host=settings.ollama_host), essential=False)
    guard = guard_model(installed)
    if guard is None:
        return Check("guard", label, "warn", t("doctor.guard_missing", lang), essential=False)
    return Check("guard", label, "ok", t("doctor.guard_installed", lang, model=guard), essential=False, value=guard)


# --------------------------------------------------------------------------- parser sandbox


async def check_parser_sandbox(settings: Settings, lang: Language) -> tuple[Check, Check]:
    from research.modules.clients.parser_client import ContainerProcessor, ParserUnavailable

    label_sandbox, label_isolation = t("doctor.check.sandbox", lang), t("doctor.check.isolation", lang)
    started = time.perf_counter()
    with tempfile.TemporaryDirectory(prefix="research-doctor-") as scratch:
        processor = ContainerProcessor(settings, Path(scratch) / "sources", lang=lang)
        try:
            await asyncio.wait_for(processor.start(), SERVER_START_TIMEOUT_S)
            seconds = f"{time.perf_counter() - started:.1f}"
            detail = t("doctor.sandbox_ok", lang, name=processor.sandbox_name, seconds=seconds)
            sandbox = Check("sandbox", label_sandbox, "ok", detail, value=processor.sandbox_name)
            isolation = _isolation_check(processor, label_isolation, lang)
        except UserFacingError as exc:
            reason = exc.message(lang)
            sandbox = Check("sandbox", label_sandbox, "fail", t("doctor.sandbox_failed", lang, name=settings.sandbox, reason=reason))
            isolation = Check("isolation", label_isolation, "fail", t("doctor.isolation_unknown", lang))
        except (ParserUnavailable, asyncio.TimeoutError, OSError) as exc:
            reason = str(exc) or type(exc).__name__
            sandbox = Check("sandbox", label_sandbox, "fail",
                            t("doctor.sandbox_failed", lang, name=processor.sandbox_name, reason=reason))  # fmt: skip
            isolation = Check("isolation", label_isolation, "fail", t("doctor.isolation_unknown", lang))
        finally:
            await processor.aclose()
    return sandbox, isolation


def _isolation_check(processor: ContainerProcessor, label: str, lang: Language) -> Check:
    report = processor.isolation  # None: the isolation check itself did not run
    if processor.sandbox_name == "none":
        # Running without a sandbox is allowed (with a loud warning), so it does not fail doctor.
        return Check("isolation", label, "warn", t("doctor.isolation_none", lang), essential=False)
    if report is not None and report.network_isolated:
        return Check("isolation", label, "ok", t("doctor.isolation_ok", lang, namespace=report.server_namespace))
    return Check("isolation", label, "fail", t(
        "doctor.isolation_failed", lang,
        namespace=report.server_namespace if report else None,
        host_namespace=report.host_namespace if report else None,
        connected=report.probe_connected if report else None,
    ))  # fmt: skip


# --------------------------------------------------------------------------- web search


# The tools our pipeline calls on a web-search server (web-search-mcp's names).
SEARCH_CONTRACT = ("full-web-search",)
TEST_QUERY = "Mount Fuji"


async def check_web_search(settings: Settings, lang: Language, *, offline: bool = False) -> list[Check]:
    """Start the server, list its tools against the contract, and (unless ``offline``)
    run one tiny search and say which engine answered."""
    label = t("doctor.check.web_search", lang)
    tools_label, search_label = t("terminal.doctor_tools", lang), t("terminal.doctor_search", lang)
    try:
        from research.modules.clients.web_search_client import WebSearchClient
    except ImportError:
        return [Check("web_search", label, "fail", t("doctor.web_search_missing", lang))]
    with tempfile.TemporaryDirectory(prefix="research-doctor-") as scratch, tempfile.TemporaryFile("w+") as errlog:
        try:
            client = WebSearchClient(settings, Path(scratch) / "sources", errlog=errlog)
            async with asyncio.timeout(SERVER_START_TIMEOUT_S) as starting:
                async with client:
                    started = Check("web_search", label, "ok", t("doctor.web_search_ok", lang))
                    tools = await client.list_tools()
                    server = client.spec.name
                    missing = [name for name in SEARCH_CONTRACT if name not in tools]
                    shown = ", ".join(tools) or t("terminal.no_tools", lang)
                    if missing:
                        detail = t("terminal.doctor_tools_missing", lang, server=server, missing=", ".join(missing),
                                   tools=shown)
                        return [started, Check("search_tools", tools_label, "fail", detail)]
                    checks = [started, Check("search_tools", tools_label, "ok",
                                             t("terminal.doctor_tools_ok", lang, server=server, tools=shown))]
                    if offline:
                        return checks + [Check("search", search_label, "skip", t("terminal.doctor_search_skipped", lang),
                                               essential=False)]
                    # The search is timed by the client, which waits while the server reports progress:
                    # with --docs the first search indexes the whole folder (a minute for a thousand
                    # pages on two cores), and what it reads is kept for the runs after (engines/local.py).
                    starting.reschedule(None)
                    return checks + [await _test_search(client, search_label, lang, settings.search_engine)]
        except UserFacingError as exc:
            return [Check("web_search", label, "fail", t("doctor.web_search_failed", lang, reason=exc.message(lang)))]
        except Exception as exc:  # noqa: BLE001 - any start failure is this check's finding
            reason = f"{type(exc).__name__}: {exc}".strip().rstrip(":")
            return [Check("web_search", label, "fail", t("doctor.web_search_failed", lang, reason=reason))]


def _search_failed(label: str, lang: Language, reason: str, chosen: str) -> Check:
    """The failed test search, and, when it asked the web, the way to research offline."""
    detail = t("terminal.doctor_search_failed", lang, reason=reason)
    if chosen != "local":
        detail += " " + t("doctor.search_offline_hint", lang)
    return Check("search", label, "fail", detail)


async def _test_search(client: WebSearchClient, label: str, lang: Language, chosen: str = "") -> Check:
    arguments = {"query": TEST_QUERY, "limit": 1, "includeContent": False}
    try:
        result = await client.call(SEARCH_CONTRACT[0], arguments)
    except Exception as exc:  # noqa: BLE001 - the finding is the reason
        reason = exc.message(lang) if isinstance(exc, UserFacingError) else (str(exc) or type(exc).__name__)
        return _search_failed(label, lang, reason, chosen)
    from mcp_types import TextContent

    structured = result.structured_content if isinstance(result.structured_content, dict) else None
    text = " ".join(block.text for block in result.content if isinstance(block, TextContent)).strip()
    if structured is None:
        if result.is_error:
            return _search_failed(label, lang, text[:300], chosen)
        detail = t("terminal.doctor_search_ok", lang, query=TEST_QUERY, count="?", engine=client.spec.name)
        return Check("search", label, "ok", detail, value=client.spec.name)
    from research.modules.clients.web_search_client import localise_note

    engine = str(structured.get("engine") or "")
    notes = localise_note("; ".join(str(n) for n in structured.get("notes") or []), lang)
    if not engine:
        return _search_failed(label, lang, notes or text[:300], chosen)
    detail = t("terminal.doctor_search_ok", lang, query=TEST_QUERY, count=len(structured.get("results") or []),
               engine=engine)
    if notes:  # e.g. SearXNG failed and DuckDuckGo answered: say so, and warn
        return Check("search", label, "warn", t("terminal.doctor_search_notes", lang, detail=detail, notes=notes),
                     value=engine)
    return Check("search", label, "ok", detail, value=engine)


# --------------------------------------------------------------------------- fonts, folders


def check_font(settings: Settings, lang: Language) -> Check:
    label = t("doctor.check.font", lang)
    try:
        from research.modules.report.fonts import find_japanese_font
    except ImportError as exc:
        return Check("font", label, "warn", t("doctor.font_unchecked", lang, reason=str(exc)), essential=False)
    path = find_japanese_font(settings)
    if path is None:
        return Check("font", label, "warn", t("doctor.font_missing", lang), essential=False)
    return Check("font", label, "ok", t("doctor.font_ok", lang, path=str(path)), essential=False)


def check_sessions_dir(settings: Settings, lang: Language) -> Check:
    label = t("doctor.check.sessions", lang)
    folder = Path(settings.sessions_dir).expanduser()
    try:
        folder.mkdir(parents=True, exist_ok=True)
        with tempfile.NamedTemporaryFile(dir=folder, prefix=".doctor-"):
            pass  # a real write: permission bits and read-only mounts both show here
    except OSError as exc:
        return Check("sessions", label, "fail", t("session.not_writable", lang, path=str(folder), reason=exc.strerror or str(exc)))
    return Check("sessions", label, "ok", t("doctor.sessions_ok", lang, path=str(folder.resolve())))


# --------------------------------------------------------------------------- the command


async def check_judge(settings: Settings, lang: Language) -> Check:
    """The judge measured now on the project's labelled check set (workflow/judge_quality.py): ok
    when its verdicts count, a warning when they do not, with the judge that would do better."""
    from research.modules.llm.judge import CHECKER, judge_for
    from research.modules.llm.model_manager import ModelManager
    from research.nodes.verification import usable_judge

    label = t("doctor.check.judge_quality", lang)
    manager = ModelManager(settings)
    try:
        await manager.ensure_ready()
        judge = judge_for(settings, manager)
        judge, quality = await usable_judge(judge, manager, settings, again=True)
    except UserFacingError as exc:
        return Check("judge", label, "fail", exc.message(lang), essential=False)
    fields = {"model": judge.model, "accuracy": f"{quality.balanced_accuracy:.0%}", "items": quality.items,
              "threshold": f"{quality.threshold:.0%}", "seconds": f"{quality.seconds:.0f}"}
    how = t("doctor.judge_by_choice", lang) if judge.protocol == "choice" else ""
    if quality.trusted:
        return Check("judge", label, "ok", t("doctor.judge_trusted", lang, **fields) + how, essential=False,
                     value=str(quality.balanced_accuracy))
    better = t("doctor.judge_better", lang, checker=CHECKER) if judge.protocol in ("prompt", "choice") else ""
    return Check("judge", label, "warn", t("doctor.judge_untrusted", lang, **fields) + better, essential=False,
                 value=str(quality.balanced_accuracy))


async def gather_checks(settings: Settings, lang: Language, *, offline: bool = False) -> list[Check]:
    ollama, model = await asyncio.to_thread(check_ollama, settings, lang)
    (sandbox, isolation), web_search = await asyncio.gather(
        check_parser_sandbox(settings, lang), check_web_search(settings, lang, offline=offline)
    )
    # The judge is measured only where there is a model to ask (a model call, not the network).
    judge = [await check_judge(settings, lang)] if model.status == "ok" else []
    return [ollama, model, *judge, sandbox, isolation, *web_search, check_font(settings, lang),
            check_sessions_dir(settings, lang)]


def exit_code_for(checks: list[Check]) -> int:
    failed = {check.name for check in checks if check.status == "fail" and check.essential}
    if failed & {"ollama", "model"}:
        return EXIT_OLLAMA
    return EXIT_FAILURE if failed else EXIT_OK


def run_doctor(settings: Settings, *, as_json: bool, lang: Language, offline: bool = False, verbose: bool = False) -> int:
    """Run every check, print a table (or one JSON object), return the exit code:
    0 all essential checks pass, 3 Ollama unreachable or model missing, 1 otherwise."""
    checks = asyncio.run(gather_checks(settings, lang, offline=offline))
    guard = check_guard(settings, lang)  # optional, so a line beside the table rather than a check
    code = exit_code_for(checks)
    failed = sum(1 for check in checks if check.status == "fail" and check.essential)
    summary = t("doctor.summary_ok", lang) if failed == 0 else t("doctor.summary_failed", lang, count=failed)
    if as_json:
        payload = {
            "ok": code == EXIT_OK,
            "exit_code": code,
            "sandbox": next((c.value for c in checks if c.name == "sandbox"), None),
            "isolation_verified": any(c.name == "isolation" and c.status == "ok" for c in checks),
            "search_engine": next((c.value for c in checks if c.name == "search"), None),
            "search_engines": {name: {setting: _plain_setting(getattr(settings, setting)) for setting in reads}
                               for name, reads in SEARCH_ENGINES.items()},  # every engine and what it reads
            "checks": [asdict(check) for check in checks],
            "guard": {"model": guard.value, "detail": guard.detail},
            "summary": summary,
        }
        sys.stdout.write(json.dumps(payload, ensure_ascii=False) + "\n")
        return code
    _print_table(checks, summary, lang)
    _print_guard(guard, lang)
    if verbose:
        _print_details(checks, settings, lang)
    return code


def _print_guard(guard: Check, lang: Language) -> None:
    """One line naming the guard model that screens page text, or how to get one (piped:
    a record like the checks')."""
    from rich.console import Console
    from rich.markup import escape

    if not sys.stdout.isatty():
        from research.cli.config_command import print_records

        print_records([[guard.label, _status_word(guard.status, lang), guard.detail]])
        return
    Console(highlight=False).print(escape(f"{guard.label}: {guard.detail}"), soft_wrap=True)


def _plain_setting(value: object) -> object:
    return str(value) if isinstance(value, Path) else value


def _print_details(checks: list[Check], settings: Settings, lang: Language) -> None:
    """`--verbose`: what each check looked at, one whole line each (copyable, never folded)."""
    from rich.console import Console
    from rich.markup import escape

    console = Console(highlight=False)
    console.print(escape(t("doctor.verbose_settings", lang, host=settings.ollama_host, model=settings.model,
                           engine=settings.search_engine, searxng=settings.searxng_url or UNSET,
                           sandbox=settings.sandbox, sessions=str(settings.sessions_dir))), soft_wrap=True)
    for check in checks:
        value = f" [{check.value}]" if check.value else ""
        console.print(escape(f"{check.name}: {check.status}{value} — {check.detail}"), soft_wrap=True)


def _status_word(status: str, lang: Language) -> str:
    return t(f"terminal.doctor_status.{status}", lang)


def _print_table(checks: list[Check], summary: str, lang: Language) -> None:
    from rich.console import Console
    from rich.markup import escape
    from rich.table import Table

    if not sys.stdout.isatty():
        # Piped: one record per check (label, status, detail), paths whole; the summary to stderr.
        from research.cli.config_command import print_records

        print_records([[check.label, _status_word(check.status, lang), check.detail] for check in checks])
        Console(stderr=True, highlight=False).print(escape(summary), soft_wrap=True)
        return
    styles = {"ok": "green", "warn": "yellow", "fail": "bold red", "skip": "dim"}
    table = Table(title=t("doctor.title", lang))
    table.add_column(t("doctor.column.check", lang), no_wrap=True)
    table.add_column(t("doctor.column.status", lang), no_wrap=True)
    # Long details wrap between words; a path longer than the column is the only thing folded.
    table.add_column(t("doctor.column.detail", lang), overflow="fold")
    for check in checks:
        status = _status_word(check.status, lang)
        table.add_row(escape(check.label), f"[{styles[check.status]}]{escape(status)}[/]", escape(check.detail))
    console = Console()
    console.print(table)
    console.print(escape(summary))

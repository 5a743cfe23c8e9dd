"""`research config`: every effective setting, the place it came from, the config file
and the sessions folder, so "which model / which folder will it use?" needs no guessing."""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path
from typing import Any, TypedDict

from research.modules.core.errors import EXIT_OK
from research.modules.core.i18n import t
from research.modules.core.language import Language
from research.modules.core.settings import Settings, config_file_path, read_config_file


class SettingRow(TypedDict):
    """One setting as `research config` lists it (and ``--json`` prints it)."""

    name: str
    variable: str
    value: object
    source: str  # env | file | default
    source_variable: str | None  # the variable that set it, for "env"


def setting_sources(settings: Settings) -> list[SettingRow]:
    """One row per setting: name, the variable that sets it, value, and where it came from
    ("env" with the variable's name, "file", or "default")."""
    file_values = read_config_file()
    rows: list[SettingRow] = []
    for name, field in Settings.model_fields.items():
        variable = "RESEARCH_" + name.upper()
        candidates = [variable] + (["OLLAMA_HOST"] if name == "ollama_host" else [])
        from_env = next((c for c in candidates if c in os.environ), None)
        if from_env:
            source, detail = "env", from_env
        elif name in file_values:
            source, detail = "file", None
        else:
            source, detail = "default", None
        rows.append({"name": name, "variable": variable, "value": _plain(getattr(settings, name)),
                     "source": source, "source_variable": detail})
    return rows + server_setting_sources()


def server_setting_sources() -> list[SettingRow]:
    """The servers' own limits (``RESEARCH_FETCH_*``, ``RESEARCH_PARSER_*``): read from the
    environment only (the server processes get it, not the config file), listed too so that
    `research config` shows every setting of the README's table."""
    from research.modules.clients.sandbox import DEFAULT_DOCUMENT_MEMORY_MB, DEFAULT_MAX_DOCUMENT_MB, parse_concurrency
    from research.servers.parser.limits import DEFAULT_SERVER_MEMORY_MB
    from research.servers.web.fetcher import FetchSettings  # the fetcher's own limits, wherever they are defined

    # Defaults from the classes that apply them; a value set in the environment is shown as set
    # (a bad one is refused by the run and the server, naming it).
    values: dict[str, object] = {"RESEARCH_FETCH_" + name.upper(): field.default
                              for name, field in FetchSettings.model_fields.items()}
    values |= {"RESEARCH_PARSER_MEMORY_MB": DEFAULT_DOCUMENT_MEMORY_MB, "RESEARCH_PARSER_MAX_MB": DEFAULT_MAX_DOCUMENT_MB,
               "RESEARCH_PARSER_SERVER_MEMORY_MB": DEFAULT_SERVER_MEMORY_MB,
               "RESEARCH_PARSER_CONCURRENCY": parse_concurrency()}
    rows: list[SettingRow] = []
    for variable, value in values.items():
        from_env = variable in os.environ
        shown = os.environ[variable] if from_env and variable != "RESEARCH_PARSER_CONCURRENCY" else value
        rows.append({"name": variable.removeprefix("RESEARCH_").lower(), "variable": variable, "value": shown,
                     "source": "env" if from_env else "default", "source_variable": variable if from_env else None})
    return rows


def _plain(value: Any) -> Any:
    if isinstance(value, Path):
        return str(value.expanduser())
    if isinstance(value, tuple):
        return list(value)
    return value


UNSET = "–"  # how every table here shows a setting or finding that has no value


def shown_value(value: Any) -> str:
    """A value as a table cell, in the README's words: a list joined with commas, true/false,
    600 rather than 600.0, and None, "" or [] as ``UNSET``."""
    if isinstance(value, (list, tuple)):
        value = ", ".join(str(v) for v in value)
    if isinstance(value, bool):  # as the variable is written (RESEARCH_REVIEW_PLAN=false), and the README
        return "true" if value else "false"
    if isinstance(value, float) and value.is_integer():
        return str(int(value))  # 600, not 600.0
    return UNSET if value is None or value == "" else str(value)


def print_records(records: list[list[str]]) -> None:
    """Piped tables (`| grep`, `| cut -f2`): one record per line, its fields tab-separated,
    nothing cut or wrapped to a width — as `sessions list` prints."""
    from research.modules.text.sanitize import one_line

    for fields in records:
        sys.stdout.write("\t".join(one_line(str(field)).replace("\t", " ") or UNSET for field in fields) + "\n")
    sys.stdout.flush()


def show_config(settings: Settings, *, as_json: bool, lang: Language) -> int:
    rows = setting_sources(settings)
    path = config_file_path()
    sessions = str(Path(settings.sessions_dir).expanduser().resolve())
    if as_json:
        payload = {"config_file": str(path), "config_file_exists": path.is_file(), "sessions_dir": sessions,
                   "settings": rows}
        sys.stdout.write(json.dumps(payload, ensure_ascii=False) + "\n")
        return EXIT_OK
    from rich.console import Console
    from rich.markup import escape
    from rich.table import Table

    records = []
    for row in rows:
        if row["source"] == "env":
            source = t("terminal.source_env", lang, name=row["source_variable"])
        else:
            source = t("terminal.source_" + row["source"], lang)
        records.append([row["variable"], shown_value(row["value"]), source])
    piped = not sys.stdout.isatty()
    # Piped, stdout holds the records only: the two lines about files go to stderr.
    console = Console(highlight=False, stderr=piped)
    state = t("terminal.config_file_found" if path.is_file() else "terminal.config_file_missing", lang)
    console.print(escape(t("terminal.config_file", lang, path=str(path), state=state)), soft_wrap=True)
    console.print(escape(t("terminal.config_sessions", lang, path=sessions)), soft_wrap=True)
    if piped:
        print_records(records)
        return EXIT_OK
    table = Table(title=t("terminal.config_title", lang))
    # A setting's name is never folded (it is what one searches for); long values fold instead.
    table.add_column(t("terminal.config_col_setting", lang), no_wrap=True)
    for key in ("terminal.config_col_value", "terminal.config_col_source"):
        table.add_column(t(key, lang), overflow="fold")
    for record in records:
        table.add_row(*(escape(field) for field in record))
    console.print(table)
    return EXIT_OK


# --- research config init ----------------------------------------------------------------------

# Settings besides the run options that a first config file is most often written for.
_MACHINE_SETTINGS = ("ollama_host", "num_ctx", "sessions_dir", "request_timeout", "sandbox")


def config_template(lang: Language) -> str:
    """A config file that changes nothing until edited: every run option and the machine
    settings above, each commented out at its default with what it does (in ``lang``)."""
    from research.modules.core.run_options import RUN_OPTIONS

    lines = [f"# {line}" for line in t("config.template_head", lang).splitlines()]
    for option in RUN_OPTIONS:
        lines += ["", f"# {t(option.help_key, lang)} ({option.flag}, {option.variable})"]
        value = _EXAMPLES.get(option.name) if option.default is None else option.default
        lines.append(f"# {option.name} = {_toml_value(value)}")
    lines += ["", f"# --- {t('config.template_machine', lang)} ---"]
    for name in _MACHINE_SETTINGS:
        field = Settings.model_fields[name]
        default = field.default_factory() if field.default_factory is not None else field.default  # type: ignore[call-arg]
        lines += ["", f"# RESEARCH_{name.upper()}", f"# {name} = {_toml_value(_plain(default))}"]
    return "\n".join(lines) + "\n"


# What an option that is not set by default looks like set (no limit, no folder, no year).
_EXAMPLES: dict[str, object] = {"docs_dir": "~/Documents/papers", "max_sources": 20, "max_llm_tokens": 200000,
                             "max_seconds": 600.0, "since": 2020}


def _toml_value(value: Any) -> str:
    """A value as TOML writes it."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float)):
        return str(value)
    return json.dumps(str(value), ensure_ascii=False)  # a TOML basic string is a JSON string


def init_config(*, force: bool, lang: Language) -> int:
    """Write the commented config file; one that exists is kept unless ``force`` (exit 2)."""
    from research.modules.core.errors import EXIT_USAGE, UsageError
    from research.modules.core.files import atomic_write

    path = config_file_path()
    if path.exists() and not force:
        raise UsageError("config.exists", path=str(path))
    if path.is_symlink() or (path.exists() and not path.is_file()):
        raise UsageError("config.not_a_file", path=str(path))
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        atomic_write(path, config_template(lang).encode("utf-8"), mode=0o600)
    except OSError as exc:
        sys.stderr.write("research: " + t("config.not_written", lang, path=str(path),
                                          reason=exc.strerror or str(exc)) + "\n")
        return EXIT_USAGE
    sys.stderr.write(t("config.written", lang, path=str(path)) + "\n")
    return EXIT_OK

"""The options of one run, each declared once: name, type, bounds, default, help and who may set it.

Everything else is derived from ``RUN_OPTIONS``: the ``Settings`` fields (``RESEARCH_<NAME>``,
the config file), the CLI's flags and the flag a bad value is reported under, the research
tool's parameters on both servers (one schema: the team service takes a subset of the same
parameters), the arguments a remote run sends, what a tool caller may not raise past the
server's own setting, and the README's options table (``readme_table``). A new option is its
line here, its help text in ``messages/run_options.py`` and the code that acts on it.

Imports nothing heavy at module level: the CLI builds its parser from this table before it
knows whether pydantic is needed at all.
"""

from __future__ import annotations

import inspect
import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from enum import Enum
from pathlib import Path
from typing import Any, Literal, TypedDict

from research.modules.core.errors import UsageError
from research.modules.core.language import Language

# The search engines, in fallback order after the chosen one, with the settings each one
# reads. This is the one list of them: settings validation, `--engine`'s help, the research
# server's tool schema, `research doctor`, the servers' restart key and the engine registry
# (servers/web/engines/__init__.py, one module per name) all read it (settings.py exports it
# too). A new engine is its module there plus its line here (and its setting, if it has one).
SEARCH_ENGINES: dict[str, tuple[str, ...]] = {
    "searxng": ("searxng_url",),
    "local": ("docs_dir",),
    "wikipedia": ("wikipedia_url",),
    "duckduckgo": (),
}


# An option's value as the code passes it (typed by its RunOption's ``kind``); None: not set.
OptionValue = str | int | float | bool | Path | None
# Options by setting name, as flags, a tool call, a session's meta.json or a settings update hold them.
OptionValues = dict[str, OptionValue]


class Bounds(TypedDict, total=False):
    """The pydantic ``Field`` bounds of an option's value."""

    ge: float
    gt: float
    le: float
    min_length: int


class Reach(Enum):
    """Who may set an option besides the user's own command line, environment and config file."""

    CLI = "cli"  # a model, a path or a loop limit of the machine it runs on, or a step that needs a terminal
    STDIO_TOOL = "stdio"  # also the stdio tool (the user's own host); the team service keeps its admin's choice
    TOOLS = "tools"  # also both research tools
    CAPPED = "capped"  # both tools, never above the server's own setting: an admin's cap stays a cap


@dataclass(frozen=True)
class RunOption:
    """One option of a run. ``name`` is the ``Settings`` field (``RESEARCH_<NAME>``); ``kind``
    the Python type of a value (``str`` with ``choices`` for a closed set); ``default`` None
    means "not set" (no limit, no filter). ``tool_le`` bounds what a tool caller may ask where
    the setting itself has no upper bound. The help text is ``run_option.<name>`` in i18n."""

    name: str
    flag: str
    kind: type
    default: OptionValue = None
    choices: tuple[str, ...] = ()
    ge: float | None = None
    gt: float | None = None
    le: float | None = None
    tool_le: float | None = None
    reach: Reach = Reach.CLI
    param: str = ""  # the tool parameter's name, when not ``name``
    metavar: str | None = None
    bad_value_key: str = "run_option.bad_value"  # the one-line error for a bad flag value
    min_length: int | None = None
    # Both tools take it as a parameter they declare themselves (lang: it also chooses the
    # language of the tool's own messages, before any setting is read).
    own_parameter: str = ""

    @property
    def help_key(self) -> str:
        return "run_option." + self.name

    @property
    def variable(self) -> str:
        return "RESEARCH_" + self.name.upper()

    @property
    def parameter(self) -> str:
        return self.param or self.name

    def for_caller(self, team: bool) -> bool:
        """Whether a caller of the stdio tool (``team`` False) or of the team service may set it."""
        if self.reach in (Reach.TOOLS, Reach.CAPPED):
            return True
        return self.reach is Reach.STDIO_TOOL and not team

    def value_type(self) -> Any:
        return Literal[self.choices] if self.choices else self.kind  # type: ignore[valid-type]

    def bounds(self, tool: bool = False) -> Bounds:
        found = Bounds()
        if self.ge is not None:
            found["ge"] = self.ge
        if self.gt is not None:
            found["gt"] = self.gt
        le = self.le if not (tool and self.tool_le) else self.tool_le
        if le is not None:
            found["le"] = le
        if self.min_length is not None:
            found["min_length"] = self.min_length
        return found

    def parse(self, raw: object) -> OptionValue:
        """A flag's value (argparse's string, True for a switch), typed and bounded; a bad one is
        a ``BadOption`` (exit 2, one line in the user's language)."""
        if self.kind is bool:
            return True if raw else None  # a switch given is on; not given leaves the setting alone
        text = str(raw).strip()
        if self.choices:
            if text not in self.choices:
                raise BadOption(self, text)
            return text
        if self.kind is Path:
            return Path(text)
        if self.kind in (int, float):
            try:
                value = self.kind(text)
            except ValueError:
                raise BadOption(self, text) from None
            if not math.isfinite(value):  # "nan", "inf": numbers to Python, not to a user
                raise BadOption(self, text)
            if (self.ge is not None and value < self.ge) or (self.gt is not None and value <= self.gt) \
                    or (self.le is not None and value > self.le):
                raise BadOption(self, text)
            return value
        if self.min_length and len(text) < self.min_length:
            raise BadOption(self, text)
        return text

    def expected(self, lang: Language) -> str:
        """What a good value is, in words: "a whole number from 1900 to 2100", "one of …"."""
        from research.modules.core.i18n import t

        if self.choices:
            return t("run_option.expect_one_of", lang, choices=", ".join(self.choices))
        kind = t("run_option.expect_whole" if self.kind is int else "run_option.expect_number", lang)
        if self.kind not in (int, float):
            return t("run_option.expect_text", lang)
        low, high = self.ge if self.ge is not None else self.gt, self.le
        if low is not None and high is not None:
            return t("run_option.expect_from_to", lang, kind=kind, low=_plain(low), high=_plain(high))
        if self.ge is not None:
            return t("run_option.expect_at_least", lang, kind=kind, low=_plain(self.ge))
        if self.gt is not None:
            return t("run_option.expect_above", lang, kind=kind, low=_plain(self.gt))
        return kind


class BadOption(UsageError):
    """A flag given a value its option does not take: named as the user typed it, with what it takes."""

    def __init__(self, option: RunOption, value: str) -> None:
        super().__init__(option.bad_value_key, flag=option.flag, value=value[:80])
        self.option = option

    def message(self, lang: Language) -> str:
        from research.modules.core.i18n import t

        return t(self.key, lang, **self.params, expected=self.option.expected(lang))


def _choices_note(option: RunOption, text: str) -> str:
    """" (a, b, c)" after a help text that does not name the choices itself."""
    if not option.choices or all(choice in text for choice in option.choices):
        return ""
    return " (" + ", ".join(option.choices) + ")"


def _plain(number: float) -> str:
    return str(int(number)) if float(number).is_integer() else str(number)


WEEK_SECONDS = 7 * 24 * 3600

RUN_OPTIONS: tuple[RunOption, ...] = (
    RunOption("language", "--lang", str, "auto", choices=("auto", "ja", "en"), bad_value_key="usage.bad_lang",
              own_parameter="lang"),
    RunOption("model", "--model", str, "gpt-oss:20b", min_length=1),
    RunOption("search_engine", "--engine", str, "duckduckgo", choices=tuple(SEARCH_ENGINES),
              reach=Reach.STDIO_TOOL, param="engine"),
    RunOption("docs_dir", "--docs", Path, metavar="FOLDER"),
    RunOption("max_verification_loops", "--max-loops", int, 2, ge=0, le=10, metavar="N"),
    RunOption("depth", "--depth", str, "standard", choices=("quick", "standard", "deep"), reach=Reach.TOOLS),
    RunOption("review_plan", "--review-plan", bool, False),
    RunOption("max_sources", "--max-sources", int, ge=1, tool_le=1000, reach=Reach.CAPPED, metavar="N"),
    RunOption("max_llm_tokens", "--max-llm-tokens", int, ge=1, tool_le=10_000_000, reach=Reach.CAPPED, metavar="N"),
    RunOption("max_seconds", "--max-seconds", float, gt=0, tool_le=WEEK_SECONDS, reach=Reach.CAPPED, metavar="S"),
    # A year as the sources state it; a future year would leave every dated source out.
    RunOption("since", "--since", int, ge=1900, le=2100, reach=Reach.TOOLS, metavar="YEAR"),
)
OPTIONS_BY_NAME = {option.name: option for option in RUN_OPTIONS}
# A bad value given as a flag is reported under the flag the user typed, not the variable.
FLAG_NAMES = {option.name: option.flag for option in RUN_OPTIONS}


# --- the settings fields -------------------------------------------------------------------


def settings_fields() -> dict[str, tuple[object, OptionValue]]:
    """``create_model`` field definitions for ``Settings``: one per option, (type, default)."""
    from typing import Annotated

    from pydantic import Field

    fields: dict[str, tuple[object, OptionValue]] = {}
    for option in RUN_OPTIONS:
        kind = option.value_type()
        if option.default is None:
            kind = kind | None
        fields[option.name] = (Annotated[kind, Field(**option.bounds())], option.default)
    return fields


# --- the command line ----------------------------------------------------------------------


def add_flags(parser: Any, lang: Language) -> None:
    """One flag per option, its help in ``lang``. Values stay strings here: ``from_flags``
    checks them, so a bad one is one line in the user's language (argparse's are English)."""
    from research.modules.core.i18n import t

    for option in RUN_OPTIONS:
        shown = t(option.help_key, lang)
        if option.kind is bool:
            parser.add_argument(option.flag, action="store_true", dest=option.name, help=shown)
            continue
        shown += _choices_note(option, shown)
        where = option.variable
        if option.default is not None:
            where += "; " + t("run_option.default", lang, value=option.default)
        metavar = option.metavar or option.flag.lstrip("-").upper().replace("-", "_")
        parser.add_argument(option.flag, dest=option.name, metavar=metavar, help=f"{shown} ({where})")


def from_flags(values: Mapping[str, object]) -> OptionValues:
    """The options given on the command line, typed and bounded (None: not given)."""
    return {option.name: None if values.get(option.name) is None else option.parse(values[option.name])
            for option in RUN_OPTIONS}


# --- a resumed run ---------------------------------------------------------------------------


def recorded(settings: Any) -> OptionValues:
    """Every option's value in ``settings`` as a session's meta.json keeps it (a path as its
    text): ``--resume`` runs with them again (``restored``), whatever its own command says."""
    values = {option.name: getattr(settings, option.name, None) for option in RUN_OPTIONS}
    return {name: str(value) if isinstance(value, Path) else value for name, value in values.items()}


def restored(settings: Any, kept: Any) -> tuple[Any, list[str]]:
    """``settings`` with the options the session started with (``recorded``) put back, and each
    one this command would have run with otherwise, as ``--engine local (searxng)``: the run
    says so. A session from before options were kept (or a value that is not one an option
    takes: meta.json is data like any file in the folder) leaves the setting as it is."""
    if not isinstance(kept, dict):
        return settings, []
    from typing import Annotated

    from pydantic import Field, TypeAdapter, ValidationError

    update: OptionValues = {}
    changed: list[str] = []
    for option in RUN_OPTIONS:
        if option.name not in kept:
            continue
        kind = option.value_type()
        try:
            bounded: Any = Annotated[kind | None, Field(**option.bounds())]  # a type built at run time
            value = TypeAdapter(bounded).validate_python(kept[option.name])
        except ValidationError:
            continue
        now = getattr(settings, option.name, None)
        if value != now:
            update[option.name] = value
            changed.append(f"{option.flag} {_shown(value)} ({_shown(now)})")
    return (settings.model_copy(update=update) if update else settings), changed


def _shown(value: object) -> str:
    if value is None:
        return "–"
    if isinstance(value, bool):
        return "on" if value else "off"
    return str(value)


# --- the research tools --------------------------------------------------------------------


def tool_options(team: bool) -> tuple[RunOption, ...]:
    return tuple(option for option in RUN_OPTIONS if option.for_caller(team))


def tool_parameters(team: bool) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    """A research tool's signature plus one keyword parameter per option its callers may set
    (``team``: the team service's, which keeps the admin's engine). The tool takes them as
    ``**options`` and passes them through ``from_tool``; the MCP SDK builds the schema from
    this signature, so both servers describe each option with the same words and bounds."""
    from typing import Annotated

    from pydantic import Field
    from research.modules.core.i18n import t

    def decorate(fn: Callable[..., Any]) -> Callable[..., Any]:
        signature = inspect.signature(fn, eval_str=True)
        own = [p for p in signature.parameters.values() if p.kind is not inspect.Parameter.VAR_KEYWORD]
        added = []
        for option in tool_options(team):
            description = t(option.help_key, "en")
            if option.reach is Reach.CAPPED:
                description += " " + t("run_option.tool_capped", "en")
            annotation: Any = Annotated[option.value_type() | None,
                                        Field(description=description, **option.bounds(tool=True))]
            added.append(inspect.Parameter(option.parameter, inspect.Parameter.KEYWORD_ONLY, default=None,
                                           annotation=annotation))
        fn.__signature__ = signature.replace(parameters=own + added)  # type: ignore[attr-defined]
        return fn

    return decorate


def from_tool(arguments: Mapping[str, OptionValue], team: bool) -> OptionValues:
    """A tool call's option arguments by setting name (None: not asked)."""
    return {option.name: arguments.get(option.parameter) for option in tool_options(team)}


def within_admin_limits(overrides: OptionValues, settings: Any) -> OptionValues:
    """A caller's overrides, None left out, each capped option no larger than the server's own
    setting: a client may ask for less than RESEARCH_MAX_SOURCES/_SECONDS/_LLM_TOKENS, never more."""
    bounded: OptionValues = {}
    for name, value in overrides.items():
        if value is None:
            continue
        option = OPTIONS_BY_NAME.get(name)
        ceiling = getattr(settings, name, None) if option is not None and option.reach is Reach.CAPPED else None
        # A capped option is a number (its tool parameter says so).
        bounded[name] = min(value, ceiling) if ceiling is not None and isinstance(value, (int, float)) else value
    return bounded


def remote_arguments(settings: Any) -> OptionValues:
    """What a remote run asks the team service for: each option its tool takes that is set here
    to other than its default (the server's own defaults apply otherwise)."""
    arguments: OptionValues = {}
    for option in tool_options(team=True):
        value = getattr(settings, option.name, None)
        if value is not None and value != option.default:
            arguments[option.parameter] = value
    return arguments


# --- the README ------------------------------------------------------------------------------

README_START = "<!-- run options: generated by `python -m research.modules.core.run_options` -->"
README_END = "<!-- end of run options -->"
_REACH_CELL = {Reach.CLI: "–", Reach.STDIO_TOOL: "stdio tool only", Reach.TOOLS: "both tools",
               Reach.CAPPED: "both tools, at most the server's own"}


def readme_table() -> str:
    """The README's options table, from this table and the English help texts."""
    from research.modules.core.i18n import t

    lines = ["| flag | variable | default | meaning | research tool |", "|---|---|---|---|---|"]
    for option in RUN_OPTIONS:
        if option.kind is bool:
            default = f"`{str(option.default).lower()}`"
        else:
            default = "–" if option.default is None else f"`{option.default}`"
        meaning = t(option.help_key, "en")
        meaning += _choices_note(option, meaning)
        if option.kind in (int, float) and (option.ge is not None or option.gt is not None):
            meaning += f" ({option.expected('en')})"
        tool = _REACH_CELL[option.reach]
        if option.own_parameter:
            tool = f"`{option.own_parameter}`: both tools"
        elif option.reach is not Reach.CLI:
            tool = f"`{option.parameter}`: {tool}"
        lines.append(f"| `{option.flag}` | `{option.variable}` | {default} | {meaning} | {tool} |")
    return "\n".join(lines)


def write_readme(path: Path) -> bool:
    """Put ``readme_table`` between the README's markers; True when the file changed."""
    text = path.read_text("utf-8")
    head, rest = text.split(README_START, 1)
    _, tail = rest.split(README_END, 1)
    updated = f"{head}{README_START}\n{readme_table()}\n{README_END}{tail}"
    if updated != text:
        path.write_text(updated, "utf-8")
    return updated != text


if __name__ == "__main__":
    import sys

    readme = Path(sys.argv[1] if len(sys.argv) > 1 else "README.md")
    print("updated" if write_readme(readme) else "unchanged", readme)

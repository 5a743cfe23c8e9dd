"""Settings: flag > environment (prefix RESEARCH_) > config file > default.

The config file is TOML at ``$RESEARCH_CONFIG`` or ``~/.config/research/config.toml``
with the same names in lower case (``model = "qwen3:8b"``). A bad value is a
``UsageError`` naming the setting.
"""

from __future__ import annotations

import os
import tomllib
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, Literal

from pydantic import AliasChoices, Field, ValidationError, create_model, field_validator, model_validator
from pydantic_settings import BaseSettings, NoDecode, PydanticBaseSettingsSource, SettingsConfigDict

from research.modules.core.errors import UsageError
from research.modules.core.run_options import SEARCH_ENGINES, settings_fields

DEFAULT_OLLAMA_HOST = "http://127.0.0.1:11434"

# Filler a report should not contain (both languages); RESEARCH_BANNED_WORDS replaces the list.
DEFAULT_BANNED_WORDS = (
    "delve", "delves", "delving", "tapestry", "in today's fast-paced world", "in the ever-evolving",
    "game-changer", "game-changing", "groundbreaking", "revolutionary", "cutting-edge", "unlock the power",
    "it is important to note that", "画期的な", "革新的な", "驚くべき", "まさに", "言うまでもなく",
)


# The search engines' one list lives with the run options (`--engine` is one); here too for
# every reader that imports it from the settings.
SearchEngineName = Literal[tuple(SEARCH_ENGINES)]  # type: ignore[valid-type]
# MediaWiki's Action API of each language edition; {lang} becomes "ja" or "en".
DEFAULT_WIKIPEDIA_URL = "https://{lang}.wikipedia.org/w/api.php"


# Host names that only a private network resolves: a SearXNG there is the user's own.
_PRIVATE_SUFFIXES = (".localhost", ".local", ".lan", ".internal", ".intranet", ".home.arpa", ".home", ".corp")


def is_private_host(host: str) -> bool:
    """A loopback, private or link-local address, ``localhost``, a name without a dot, or a
    name under a suffix only private networks use. No DNS lookup: a setting is judged by
    what it says, the same way on every machine."""
    import ipaddress

    host = host.strip("[]").rstrip(".").lower()
    if not host:
        return False
    try:
        return not ipaddress.ip_address(host).is_global
    except ValueError:
        return host == "localhost" or "." not in host or host.endswith(_PRIVATE_SUFFIXES)


def search_fallback_allowed(settings: "Settings") -> bool:
    """Whether another engine may be asked when the chosen one fails: RESEARCH_SEARCH_FALLBACK
    when set; unset, off for local documents and for a SearXNG on a private address."""
    if settings.search_engine == "local":
        return False  # the user's own documents never send a question to the web
    if settings.search_fallback is not None:
        return settings.search_fallback
    if settings.search_engine == "searxng" and settings.searxng_url:
        from urllib.parse import urlsplit

        try:
            host = urlsplit(settings.searxng_url.strip()).hostname or ""
        except ValueError:
            host = ""
        return not is_private_host(host)
    return True


def config_file_path() -> Path:
    explicit = os.environ.get("RESEARCH_CONFIG")
    if explicit:
        return Path(explicit).expanduser()
    base = Path(os.environ.get("XDG_CONFIG_HOME") or Path.home() / ".config")
    return base / "research" / "config.toml"


def default_sessions_dir() -> Path:
    """One per-user folder, the same from any directory: ``$XDG_DATA_HOME/research/sessions``
    (else ``~/.local/share/research/sessions``). ``RESEARCH_SESSIONS_DIR=sessions`` keeps
    them in the current project instead."""
    base = Path(os.environ.get("XDG_DATA_HOME") or Path.home() / ".local" / "share")
    return base / "research" / "sessions"


def read_config_file() -> dict[str, object]:
    """The config file's settings (lower-case names), {} when there is none."""
    return dict(_TomlFileSource(Settings).data)


class _TomlFileSource(PydanticBaseSettingsSource):
    """Reads the config file; a broken file is a usage error, not a traceback."""

    def __init__(self, settings_cls: type[BaseSettings]) -> None:
        super().__init__(settings_cls)
        self.path = config_file_path()
        self.data: dict[str, object] = {}
        if self.path.is_file():
            try:
                self.data = {k.lower(): v for k, v in tomllib.loads(self.path.read_text("utf-8")).items()}
            except (tomllib.TOMLDecodeError, UnicodeDecodeError, OSError) as exc:
                raise UsageError("usage.bad_config_file", path=str(self.path), reason=str(exc).splitlines()[0]) from None
            unknown = sorted(set(self.data) - set(settings_cls.model_fields))
            if unknown:  # a typo (`modle = …`) would otherwise be ignored without a word
                import difflib

                close = difflib.get_close_matches(unknown[0], list(settings_cls.model_fields), n=1)
                raise UsageError("terminal.config_unknown_key_hint" if close else "terminal.config_unknown_key",
                                 path=str(self.path), name=unknown[0], suggestion=close[0] if close else "")

    def get_field_value(self, field: Any, field_name: str) -> tuple[Any, str, bool]:
        return self.data.get(field_name), field_name, False

    def __call__(self) -> dict[str, Any]:
        return {k: v for k, v in self.data.items() if k in self.settings_cls.model_fields}


def _empty_or_scheme(value: str, schemes: tuple[str, ...], problem: str) -> str:
    """A setting that is either empty (the feature is off) or a URL of one of these schemes."""
    if value and not value.startswith(schemes):
        raise ValueError(problem)
    return value


# The options of a run (model, language, engine, depth, budgets, …) are declared in
# run_options.RUN_OPTIONS, which gives each its field here: a new option is not written twice.
if TYPE_CHECKING:
    class _RunOptionSettings(BaseSettings):
        """The run options' fields as the type checker sees them (``create_model`` builds the real
        ones from RUN_OPTIONS; tests/test_run_options.py holds the two alike)."""

        language: Literal["auto", "ja", "en"]
        model: str
        search_engine: Literal["searxng", "local", "wikipedia", "duckduckgo"]
        docs_dir: Path | None
        max_verification_loops: int
        depth: Literal["quick", "standard", "deep"]
        review_plan: bool
        max_sources: int | None
        max_llm_tokens: int | None
        max_seconds: float | None
        since: int | None
else:
    _RunOptionSettings = create_model("_RunOptionSettings", __base__=BaseSettings, **settings_fields())


class Settings(_RunOptionSettings):
    """Every setting: the run options' fields (inherited) and the machine's own below."""

    model_config = SettingsConfigDict(env_prefix="RESEARCH_", extra="ignore", validate_default=True)

    fallback_model: str | None = None
    ollama_host: str = Field(
        default=DEFAULT_OLLAMA_HOST,
        validation_alias=AliasChoices("RESEARCH_OLLAMA_HOST", "OLLAMA_HOST", "ollama_host"),
    )
    num_ctx: int = Field(default=16384, ge=2048, le=1_048_576)
    think: Literal["low", "medium", "high", "off"] = "low"
    request_timeout: float = Field(default=600.0, gt=0)
    sessions_dir: Path = Field(default_factory=default_sessions_dir)
    searxng_url: str | None = None
    # Ask another engine when the chosen one fails (never when it found nothing). Unset: on
    # for the open web's engines, off for a SearXNG on a private address and for local
    # documents, whose users chose where their questions go (search_fallback_allowed).
    search_fallback: bool | None = None
    wikipedia_url: str = DEFAULT_WIKIPEDIA_URL  # empty: the wikipedia engine is off
    search_limit: int = Field(default=5, ge=1, le=10)
    allow_private_network: bool = False
    mcp_config: Path | None = None
    sandbox: Literal["auto", "docker", "podman", "bwrap", "unshare", "none"] = "auto"
    sandbox_image: str | None = None
    parse_timeout: float = Field(default=30.0, gt=0)
    verification_pass_ratio: float = Field(default=0.8, ge=0.0, le=1.0)
    # --- the judge for uncertain claims (modules/llm/judge.py) ---
    # Empty: bespoke-minicheck when Ollama has it, else the drafting model with the judge
    # prompt. A name: that model, asked the checker's protocol; the drafting model's name: the prompt.
    judge_model: str = ""
    judge_ja: bool = False  # Japanese sentences to the checker too (it is trained on English)
    # A drafting model whose verdicts measured untrusted is measured again by the choice protocol
    # (modules/llm/judge.py) and judges by it when that is trusted: Qwen2.5-Coder-1.5B measures 50%
    # asked for verdicts, 92% choosing. Asked only for claims whose "supported" would count
    # (nodes/verification.py, _choice_can_decide: 85% of the words found, a doubt a negation tests,
    # the figures there): on two RAGTruth train samples (seeds 46, 47: 60 answers) it made no
    # hallucinated claim supported and 5-9 points more clean claims (docs/benchmarks.md). False: never.
    judge_choice: bool = True
    judge_concurrency: int = Field(default=4, ge=1, le=32)  # checker calls at once
    pdf_font: Path | None = None
    # How much of what a run did goes to stderr (modules/core/logs.py); --verbose is "info".
    log_level: Literal["debug", "info", "warning", "error"] = "warning"
    # --- beyond one machine (docs/scale.md) ---
    # Empty: checkpoints in the session folder (SQLite), no server to install. A
    # postgresql:// URL: checkpoints and the sessions index in PostgreSQL, shared by workers.
    # `research config` shows it: keep the password in ~/.pgpass or PGPASSWORD, not the URL.
    database_url: str = ""
    # An http(s) URL of a `research serve`: runs are submitted there instead of run here
    # (its bearer token comes from RESEARCH_SERVER_TOKEN, never a setting `research config` shows).
    server: str = ""
    # `research serve`: where the hashed tokens live (default beside the config file), and
    # how many runs one token may have queued or running at once.
    tokens_file: Path | None = None
    queue_limit: int = Field(default=5, ge=1, le=1000)
    # NoDecode: the environment gives "a,b,c", not JSON.
    banned_words: Annotated[tuple[str, ...], NoDecode] = DEFAULT_BANNED_WORDS

    @field_validator("banned_words", mode="before")
    @classmethod
    def _split_words(cls, value: Any) -> Any:
        if isinstance(value, str):
            value = value.split(",")
        if isinstance(value, (list, tuple)):
            return tuple(w.strip() for w in value if isinstance(w, str) and w.strip())
        return value

    @field_validator("database_url")
    @classmethod
    def _postgres_only(cls, value: str) -> str:
        return _empty_or_scheme(value.strip(), ("postgresql://", "postgres://"),
                                "must be a postgresql:// URL (or empty for SQLite in the session folder)")

    @field_validator("server")
    @classmethod
    def _http_only(cls, value: str) -> str:
        return _empty_or_scheme(value.strip().rstrip("/"), ("http://", "https://"), "must be an http:// or https:// URL")

    @field_validator("wikipedia_url")
    @classmethod
    def _api_url_template(cls, value: str) -> str:
        value = value.strip()
        if not value:
            return value
        from urllib.parse import urlsplit

        try:
            parts = urlsplit(value.format(lang="en"))
        except (KeyError, IndexError, ValueError):
            raise ValueError("may contain {lang} and no other {…} placeholder") from None
        if parts.scheme.lower() not in ("http", "https") or not parts.hostname:
            raise ValueError("must be an http:// or https:// URL, e.g. https://{lang}.wikipedia.org/w/api.php")
        return value

    @field_validator("ollama_host")
    @classmethod
    def _normalise_host(cls, value: str) -> str:
        value = value.strip().rstrip("/")
        if not value:
            raise ValueError("empty host")
        if "://" not in value:
            value = "http://" + value
        return value

    @model_validator(mode="after")
    def _documents_mean_local(self) -> "Settings":
        """A documents folder given with no engine named anywhere (flag, environment, config
        file) means: search those documents. The web is asked only when an engine says so."""
        if self.docs_dir is not None and "search_engine" not in self.model_fields_set:
            self.search_engine = "local"
        return self

    @classmethod
    def settings_customise_sources(
        cls,
        settings_cls: type[BaseSettings],
        init_settings: PydanticBaseSettingsSource,
        env_settings: PydanticBaseSettingsSource,
        dotenv_settings: PydanticBaseSettingsSource,
        file_secret_settings: PydanticBaseSettingsSource,
    ) -> tuple[PydanticBaseSettingsSource, ...]:
        # Flags arrive as init kwargs; they beat the environment, which beats the file.
        return (init_settings, env_settings, _TomlFileSource(settings_cls))


class FetchSettings(BaseSettings):
    """Fetch limits (``RESEARCH_FETCH_*``); defaults suit the open web. Here, apart from the
    fetcher, so a run checks them before it makes a session (``check_run_settings``) and the
    web-search server at its start, without importing httpx."""

    model_config = SettingsConfigDict(env_prefix="RESEARCH_FETCH_", extra="ignore")

    timeout: float = Field(default=15.0, gt=0, description="total seconds per page")
    connect_timeout: float = Field(default=5.0, gt=0)
    max_bytes: int = Field(default=10 * 1024 * 1024, ge=1024)
    max_redirects: int = Field(default=5, ge=0, le=20)
    concurrency: int = Field(default=10, ge=1, le=64)
    per_host: int = Field(default=6, ge=1, le=32, description="like a browser's connections per host")
    cache_max_age_hours: float = Field(default=24.0, gt=0, description="a cached page older than this is fetched again")
    cache_max_mb: float = Field(default=512.0, gt=0, description="the byte cache is kept under this size")


def load_fetch_settings() -> FetchSettings:
    """``FetchSettings`` from the environment; a bad value is a ``UsageError`` naming it."""
    try:
        return FetchSettings()
    except ValidationError as exc:
        first = exc.errors()[0]
        name = "RESEARCH_FETCH_" + str(first["loc"][0] if first.get("loc") else "?").upper()
        value = os.environ.get(name, "")
        raise UsageError("setting.bad_value", name=name, value=value[:80], reason=first["msg"]) from None


# What a documents folder (RESEARCH_DOCS_DIR, --docs) may hold, by suffix: the local
# engine reads these and nothing else.
LOCAL_SUFFIXES = {".md": "text/markdown", ".markdown": "text/markdown", ".txt": "text/plain",
                  ".html": "text/html", ".htm": "text/html", ".pdf": "application/pdf"}
_DOCS_SCAN_LIMIT = 100_000  # entries looked at before a big folder is taken as not empty


def _check_docs_folder(folder: Path) -> None:
    """A documents folder with no file of a kind the local engine reads is said up front
    (with what it reads), not found out as "no evidence" after a whole run."""
    seen = 0
    for _root, _dirs, names in os.walk(folder, followlinks=False):
        for name in names:
            if Path(name).suffix.lower() in LOCAL_SUFFIXES:
                return
        seen += len(names) + len(_dirs)
        if seen > _DOCS_SCAN_LIMIT:
            return
    raise UsageError("setting.docs_empty", path=str(folder)[:300])


# The first bytes of the font files a PDF can embed: TrueType, OpenType (CFF), collections.
_FONT_MAGIC = (b"\x00\x01\x00\x00", b"OTTO", b"true", b"ttcf")


def _check_pdf_font(path: Path) -> None:
    """RESEARCH_PDF_FONT names a readable font file: said before the run, not after it."""
    path = path.expanduser()
    try:
        with open(path, "rb") as handle:
            head = handle.read(4)
    except OSError as exc:
        raise UsageError("setting.bad_value", name="RESEARCH_PDF_FONT", value=str(path)[:200],
                         reason=exc.strerror or str(exc)) from None
    if head not in _FONT_MAGIC:
        raise UsageError("setting.bad_value", name="RESEARCH_PDF_FONT", value=str(path)[:200],
                         reason="not a TrueType or OpenType font file (.ttf, .otf, .ttc)")


def check_run_settings(settings: Settings) -> None:
    """Settings a research run depends on, checked before any session folder exists.

    Each failure is a ``UsageError`` naming the setting (exit 2), instead of a run that
    finds nothing and blames the question.
    """
    from urllib.parse import urlsplit

    explicit = os.environ.get("RESEARCH_CONFIG")
    if explicit and not Path(explicit).expanduser().is_file():
        raise UsageError("setting.config_not_file", path=explicit)
    if settings.searxng_url:
        parts = urlsplit(settings.searxng_url.strip())
        if parts.scheme.lower() not in ("http", "https") or not parts.hostname:
            raise UsageError("setting.searxng_url", value=settings.searxng_url[:200])
    if settings.docs_dir is not None:
        folder = settings.docs_dir.expanduser()
        if not folder.exists():
            raise UsageError("setting.docs_missing", path=str(folder)[:300])
        if not folder.is_dir():
            raise UsageError("setting.docs_not_folder", path=str(folder)[:300])
        _check_docs_folder(folder)
    if settings.pdf_font is not None:
        _check_pdf_font(settings.pdf_font)
    load_fetch_settings()  # RESEARCH_FETCH_*: read by the web-search server, checked here first


def load_settings(*, flag_names: dict[str, str] | None = None, **flags: Any) -> Settings:
    """Build settings from flags (None means "not given") and the environment.

    ``flag_names`` maps a setting to the flag that sets it (``depth`` → ``--depth``): a
    bad value given as a flag is reported under the flag the user typed."""
    given = {k: v for k, v in flags.items() if v is not None}
    try:
        return Settings(**given)
    except ValidationError as exc:
        first = exc.errors()[0]
        name = str(first["loc"][0]) if first.get("loc") else "?"
        if name in given and flag_names and name in flag_names:
            shown = flag_names[name]
        else:
            shown = name if name.startswith(("RESEARCH_", "OLLAMA_")) else "RESEARCH_" + name.upper()
        raise UsageError("usage.bad_setting", name=shown, reason=first["msg"]) from None

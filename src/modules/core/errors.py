"""Errors a user can act on. Each carries an i18n message key and an exit code
(DESIGN.md "Exit codes"); the CLI prints one line and exits, never a traceback."""

from __future__ import annotations

from research.modules.core.language import Language

EXIT_OK = 0
EXIT_FAILURE = 1
EXIT_USAGE = 2
EXIT_OLLAMA = 3
EXIT_NO_EVIDENCE = 4  # searched fine, found nothing usable
# No search engine could be reached for any query (offline, SearXNG down, a server
# without the search tool): nothing was searched, so "no evidence" would be untrue.
EXIT_SEARCH_FAILED = 5
EXIT_CLAIMS_NOT_SUPPORTED = 6  # `research verify --strict`: some claim is not supported (scripts, CI)
# Stopped by a signal: 128 + its number, as shells report it. The session is kept and
# marked "cancelled" (Ctrl-C) or "interrupted" (SIGTERM, SIGHUP); `--resume` continues it.
SIGNAL_EXIT_CODES = {"SIGINT": 130, "SIGTERM": 143, "SIGHUP": 129}


class UserFacingError(Exception):
    """An error with a localized one-line message and an exit code."""

    exit_code = EXIT_FAILURE

    def __init__(self, key: str, **params: object) -> None:
        super().__init__(key)
        self.key = key
        self.params = params

    def message(self, lang: Language) -> str:
        from research.modules.core.i18n import t

        return t(self.key, lang, **self.params)


class UsageError(UserFacingError):
    exit_code = EXIT_USAGE


class OllamaError(UserFacingError):
    exit_code = EXIT_OLLAMA


class OllamaCallFailed(OllamaError):
    """Ollama answered a call with an error (a 5xx, a model that failed to load): worth one
    retry, unlike an unreachable server or a missing model."""

    def __init__(self, reason: str) -> None:
        super().__init__("ollama.failed", reason=reason)


class SearchUnavailable(Exception):
    """No configured search engine answered (all failed or rate-limited); costs one query."""


class DocumentFailed(Exception):
    """One document could not be parsed; the run goes on without it."""

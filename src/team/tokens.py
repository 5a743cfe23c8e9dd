"""Bearer tokens of `research serve`, kept hashed in one file.

``research serve token add NAME`` prints a new token once; the file keeps only its
SHA-256 (a token is 32 random bytes, so a plain hash is enough: there is nothing to
guess). Each token has a short id: the owner of the sessions its runs create, so one
token never sees another's sessions. Revoking removes the entry; the server reads the
file on every request, so a revoked token stops working at once.

``add`` and ``revoke`` read, change and write the file under an exclusive ``fcntl`` lock
on a lock file beside it, and the write is atomic (temp file + rename): two commands run
at once each see the other's change instead of writing back a copy read before it.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import os
import secrets
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from collections.abc import Iterator
from typing import NotRequired, TypedDict, cast

from research.modules.core.errors import UsageError
from research.modules.core.settings import Settings, config_file_path
from research.modules.core.files import atomic_write
from research.state.session_folder import now_iso

TOKEN_PREFIX = "rsk_"
MAX_NAME_CHARS = 64


@dataclass(frozen=True)
class TokenEntry:
    token_id: str
    name: str
    created_at: str


def tokens_path(settings: Settings) -> Path:
    """RESEARCH_TOKENS_FILE, else ``tokens.json`` beside the config file."""
    return (settings.tokens_file or config_file_path().parent / "tokens.json").expanduser()


def _digest(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


class StoredToken(TypedDict):
    """One entry of the tokens file (JSON): the token's hash, never the token."""

    id: str
    name: str
    sha256: str
    created_at: NotRequired[str]


class TokenStore:
    def __init__(self, path: Path) -> None:
        self.path = path

    def _read(self) -> list[StoredToken]:
        try:
            data = json.loads(self.path.read_text("utf-8"))
        except FileNotFoundError:
            return []
        except (OSError, ValueError) as exc:
            raise UsageError("serve.tokens_unreadable", path=str(self.path), reason=type(exc).__name__) from None
        entries = data.get("tokens") if isinstance(data, dict) else None
        if not isinstance(entries, list):
            raise UsageError("serve.tokens_unreadable", path=str(self.path), reason="no tokens list")
        return [cast(StoredToken, e) for e in entries if isinstance(e, dict) and {"id", "name", "sha256"} <= set(e)]

    def _write(self, entries: list[StoredToken]) -> None:
        self.path.parent.mkdir(parents=True, exist_ok=True)
        atomic_write(self.path, json.dumps({"tokens": entries}, ensure_ascii=False, indent=1).encode("utf-8"))
        os.chmod(self.path, 0o600)  # hashes only, but nobody else's business

    @contextmanager
    def _locked(self) -> Iterator[None]:
        """The file's read-modify-write to ourselves: an exclusive lock on ``<file>.lock``
        (a file of its own, since the rename replaces the tokens file's inode)."""
        import fcntl

        self.path.parent.mkdir(parents=True, exist_ok=True)
        descriptor = os.open(self.path.with_name(self.path.name + ".lock"), os.O_RDWR | os.O_CREAT, 0o600)
        try:
            fcntl.flock(descriptor, fcntl.LOCK_EX)
            yield
        finally:
            os.close(descriptor)  # closing lets go of the lock

    def add(self, name: str) -> tuple[TokenEntry, str]:
        """A new token: its entry and the token itself (shown once, never stored)."""
        name = " ".join(name.split())
        if not name or len(name) > MAX_NAME_CHARS:
            raise UsageError("serve.token_bad_name", limit=MAX_NAME_CHARS)
        with self._locked():
            entries = self._read()
            if any(e["name"] == name for e in entries):
                raise UsageError("serve.token_name_taken", name=name)
            token = TOKEN_PREFIX + secrets.token_urlsafe(32)
            entry = StoredToken(id=secrets.token_hex(4), name=name, sha256=_digest(token), created_at=now_iso())
            self._write(entries + [entry])
        return TokenEntry(entry["id"], name, entry["created_at"]), token

    def list(self) -> list[TokenEntry]:
        return [TokenEntry(e["id"], e["name"], e.get("created_at", "")) for e in self._read()]

    def revoke(self, ref: str) -> TokenEntry:
        with self._locked():
            entries = self._read()
            found = [e for e in entries if ref in (e["id"], e["name"])]
            if not found:
                raise UsageError("serve.token_unknown", ref=ref[:80])
            self._write([e for e in entries if e not in found])
        return TokenEntry(found[0]["id"], found[0]["name"], found[0].get("created_at", ""))

    def verify(self, token: str) -> TokenEntry | None:
        """The entry of a valid token, else None (every entry compared in constant time)."""
        if not token.startswith(TOKEN_PREFIX):
            return None
        digest, match = _digest(token), None
        for entry in self._read():
            if hmac.compare_digest(digest, str(entry["sha256"])):
                match = entry
        return TokenEntry(match["id"], match["name"], match.get("created_at", "")) if match else None

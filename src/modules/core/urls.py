"""Canonical URLs: one page, one key, for deduplication, caching and the sources ledger.

Used by every process (the pipeline merges hits by it, the web-search server caches by it),
so it lives in core and imports nothing but the standard library.
"""

from __future__ import annotations

from urllib.parse import parse_qsl, urlencode, urlsplit, urlunsplit

# Query parameters that only track the visitor; dropping them makes one page one URL.
_TRACKING_PARAMS = {
    "fbclid", "gclid", "dclid", "msclkid", "yclid", "mc_cid", "mc_eid", "igshid",
    "_ga", "_gl", "ref_src", "spm", "oly_enc_id", "oly_anon_id", "vero_id", "wickedid",
}
_DEFAULT_PORTS = {"http": 80, "https": 443}


def canonical_url(url: str) -> str:
    """Lower-case scheme and host, no default port, no fragment, no tracking
    parameters (``utm_*`` and friends), no trailing slash on the path."""
    parts = urlsplit(url.strip())
    scheme = parts.scheme.lower()
    host = (parts.hostname or "").lower()
    netloc = host
    if ":" in host:  # IPv6 literal
        netloc = f"[{host}]"
    if parts.port is not None and _DEFAULT_PORTS.get(scheme) != parts.port:
        netloc += f":{parts.port}"
    if parts.username:
        netloc = parts.username + (f":{parts.password}" if parts.password else "") + "@" + netloc
    query = [
        (k, v)
        for k, v in parse_qsl(parts.query, keep_blank_values=True)
        if not k.lower().startswith("utm_") and k.lower() not in _TRACKING_PARAMS
    ]
    path = parts.path.rstrip("/") if scheme != "file" else parts.path
    return urlunsplit((scheme, netloc, path, urlencode(query, doseq=True), ""))

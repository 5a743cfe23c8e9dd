"""URL hygiene for fetching: canonical URLs for dedupe/caching, and the SSRF guard.

A search result is untrusted input: a page (or a redirect) may point at
``http://169.254.169.254/`` or ``http://localhost:8080/admin``. By default every host
is resolved and refused when any of its addresses is not globally routable
(loopback, private, link-local, shared/CGNAT, reserved, multicast, cloud metadata).
The check runs again for every redirect hop. Tests and self-hosted setups opt out with
``RESEARCH_ALLOW_PRIVATE_NETWORK=true``; the SearXNG search endpoint the user configured
is always allowed (pointing at it was the user's own decision), exactly that endpoint
(scheme, host, port, path), but other pages on that host are not: a search result is not
the user's configuration. The guard judges the URL as httpx will request it (``..``
resolved), on every redirect hop, and returns it for the caller to request.

Known limit: the address is checked, then httpx resolves again to connect, so a DNS
server that answers differently within milliseconds (DNS rebinding) could slip past.
"""

from __future__ import annotations

import asyncio
import ipaddress
import socket

import httpx

from research.modules.core.urls import canonical_url  # noqa: F401 - re-exported for the fetcher and server

_DEFAULT_PORTS = {"http": 80, "https": 443}


class UnsafeURL(Exception):
    """The URL is not fetched: bad scheme, or it points into a private network."""


# IPv6 forms that carry an IPv4 address and reach it (or a network) other than the one
# they seem to. Each is judged by the IPv4 address inside it, and by the IPv6 address too
# where a relay or router (not this host's own stack) does the reaching:
# - IPv4-mapped ``::ffff:a.b.c.d`` (::ffff:0:0/96): the host's own IPv4 stack;
# - IPv4-translated ``::ffff:0:a.b.c.d`` (::ffff:0:0:0/96, RFC 2765 SIIT) and
#   IPv4-compatible ``::a.b.c.d`` (::/96, deprecated): the last 32 bits;
# - NAT64 well-known ``64:ff9b::/96`` (RFC 6052): the last 32 bits; the local-use
#   ``64:ff9b:1::/48`` (RFC 8215) is the site's own translator, with the IPv4 address at a
#   place only its operator knows: never public;
# - 6to4 ``2002::/16`` (RFC 3056, deprecated): bits 16-47, through any relay: never public;
# - Teredo ``2001::/32`` (RFC 4380): the server (bits 32-63) and the client (the last 32
#   bits, inverted);
# - ISATAP (RFC 5214): an interface id ``[02]00:5efe:a.b.c.d`` under any prefix;
# and site-local fec0::/10 (deprecated) is a private network Python still calls global.
_MAPPED = ipaddress.ip_network("::ffff:0:0/96")
_TRANSLATED = ipaddress.ip_network("::ffff:0:0:0/96")
_COMPATIBLE = ipaddress.ip_network("::/96")
_NAT64 = ipaddress.ip_network("64:ff9b::/96")
_TEREDO = ipaddress.ip_network("2001::/32")
_ISATAP_IDS = (0x00005EFE, 0x02005EFE)  # bits 32-63 of the interface id (u/l bit either way)


# IANA's special-purpose address registries (iana-ipv4-special-registry and
# iana-ipv6-special-registry, as of 2025): every block whose "Globally Reachable" is False
# or N/A. Python's ``is_global`` is checked too, but its own copy of these tables depends
# on the Python release (3.11 calls 192.0.0.8, 3fff::/20 and 5f00::/16 global). A block
# marked not reachable is refused whole, its reachable exceptions included: 192.0.0.9 (PCP
# anycast), 192.0.0.10 (TURN anycast) and 2001:1::1-3 are answered by the nearest such
# service, often the user's own router, and the others (AMT, AS112, ORCHIDv2, drone ids
# under 2001::/23) serve no web page. IPv4-mapped ::ffff:0:0/96 is judged by the IPv4
# address it carries (embedded_ipv4); site-local fec0::/10 (RFC 3879, deprecated, not in
# the registry) is a private network Python still calls global.
NOT_GLOBALLY_REACHABLE = {
    ipaddress.ip_network(block): name for block, name in (
        ("0.0.0.0/8", "this network"), ("10.0.0.0/8", "private use"), ("100.64.0.0/10", "shared address space"),
        ("127.0.0.0/8", "loopback"), ("169.254.0.0/16", "link local"), ("172.16.0.0/12", "private use"),
        ("192.0.0.0/24", "IETF protocol assignments"), ("192.0.2.0/24", "documentation (TEST-NET-1)"),
        ("192.88.99.0/24", "6to4 relay anycast (deprecated)"), ("192.168.0.0/16", "private use"),
        ("198.18.0.0/15", "benchmarking"), ("198.51.100.0/24", "documentation (TEST-NET-2)"),
        ("203.0.113.0/24", "documentation (TEST-NET-3)"), ("240.0.0.0/4", "reserved"),
        ("255.255.255.255/32", "limited broadcast"),
        ("::/128", "unspecified"), ("::1/128", "loopback"), ("64:ff9b:1::/48", "local-use IPv4/IPv6 translation"),
        ("100::/64", "discard-only"), ("100:0:0:1::/64", "dummy IPv6 prefix"),
        ("2001::/23", "IETF protocol assignments"), ("2001:2::/48", "benchmarking"),
        ("2001:10::/28", "ORCHID (deprecated)"), ("2001:db8::/32", "documentation"), ("2002::/16", "6to4"),
        ("3fff::/20", "documentation"), ("5f00::/16", "segment routing SIDs"), ("fc00::/7", "unique local"),
        ("fe80::/10", "link-local unicast"), ("fec0::/10", "site-local (deprecated)"),
    )
}


def special_purpose(ip: ipaddress.IPv4Address | ipaddress.IPv6Address) -> str | None:
    """The name of the not-globally-reachable IANA block holding ``ip``, if any."""
    return next((name for network, name in NOT_GLOBALLY_REACHABLE.items() if ip in network), None)


def embedded_ipv4(ip: ipaddress.IPv6Address) -> tuple[list[ipaddress.IPv4Address], bool]:
    """The IPv4 addresses ``ip`` carries, and whether they are all there is to judge (True:
    the IPv6 address is only a way of writing them, so it is judged by them alone)."""
    value = int(ip)
    low = ipaddress.IPv4Address(value & 0xFFFFFFFF)
    if ip in _MAPPED or ip in _TRANSLATED or ip in _NAT64:
        return [low], True
    if ip in _COMPATIBLE:  # ``::`` and ``::1`` are IPv6's own unspecified and loopback
        return ([low], True) if value > 1 else ([], False)
    if ip in _TEREDO:
        return [ipaddress.IPv4Address((value >> 64) & 0xFFFFFFFF), ipaddress.IPv4Address(~value & 0xFFFFFFFF)], False
    if (value >> 32) & 0xFFFFFFFF in _ISATAP_IDS:
        return [low], False
    return [], False


def address_is_public(address: str) -> bool:
    ip = ipaddress.ip_address(address.split("%", 1)[0])  # drop an IPv6 zone id
    if special_purpose(ip) is not None:
        return False
    if isinstance(ip, ipaddress.IPv6Address):
        inside, only = embedded_ipv4(ip)
        if not all(address_is_public(str(v4)) for v4 in inside):
            return False
        if only:
            return True
    # is_global is False for loopback, RFC 1918, link-local (incl. 169.254.169.254 metadata),
    # 100.64/10 shared space, documentation and reserved ranges; the table above is the
    # registry's own word where this Python's copy is older.
    return ip.is_global and not ip.is_multicast


def request_url(url: str) -> httpx.URL:
    """The URL exactly as httpx will request it: dot segments resolved, scheme and host
    lower-cased, the fragment dropped. The guard judges this, never the raw text."""
    try:
        parsed = httpx.URL(url.strip())
    except (httpx.InvalidURL, TypeError, ValueError) as exc:
        raise UnsafeURL(f"not a valid URL ({exc})") from None
    return parsed.copy_with(fragment=None)


def _endpoint(url: httpx.URL) -> tuple[str, str, int | None, str]:
    return url.scheme, url.host, url.port or _DEFAULT_PORTS.get(url.scheme), url.path


class URLGuard:
    """Decides whether a URL may be fetched. Built once per server."""

    def __init__(self, *, allow_private_network: bool, always_allowed: list[str] | None = None) -> None:
        """``always_allowed``: endpoints the user configured (the SearXNG search URL). Each
        is allowed exactly - same scheme, host, port and path, any query - not as a prefix."""
        self.allow_private_network = allow_private_network
        self._always_allowed = {_endpoint(request_url(url)) for url in (always_allowed or []) if url}

    def is_always_allowed(self, url: str | httpx.URL) -> bool:
        target = url if isinstance(url, httpx.URL) else request_url(url)
        return _endpoint(target) in self._always_allowed

    async def check(self, url: str) -> str:
        """The normalised URL to request; ``UnsafeURL`` unless it may be fetched. Callers
        request what this returns, so the address checked is the address fetched."""
        target = request_url(url)
        scheme = target.scheme
        if scheme not in ("http", "https"):
            raise UnsafeURL(f"only http and https URLs are fetched, not {scheme or 'a bare path'}")
        host = target.host
        if not host:
            raise UnsafeURL("the URL has no host")
        if not (self.allow_private_network or self.is_always_allowed(target)):
            for address in await _resolve(host, target.port or _DEFAULT_PORTS[scheme]):
                if not address_is_public(address):
                    raise UnsafeURL(f"{host} resolves to the non-public address {address}; refused (SSRF guard)")
        return str(target)


async def _resolve(host: str, port: int) -> list[str]:
    try:
        return [str(ipaddress.ip_address(host.strip("[]")))]
    except ValueError:
        pass
    try:
        infos = await asyncio.get_running_loop().getaddrinfo(host, port, type=socket.SOCK_STREAM)
    except socket.gaierror as exc:
        raise UnsafeURL(f"cannot resolve {host}: {exc.strerror}") from None
    return sorted({str(info[4][0]) for info in infos})  # an address is text for both families

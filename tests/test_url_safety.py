"""Canonical URLs and the SSRF guard (servers/web/url_safety.py)."""

from __future__ import annotations

import pytest

from research.servers.web.url_safety import URLGuard, UnsafeURL, address_is_public, canonical_url


def test_canonical_url_drops_noise() -> None:
    assert canonical_url("HTTPS://Example.COM:443/Path/?utm_source=x&b=2&fbclid=y#frag") == "https://example.com/Path?b=2"
    assert canonical_url("http://example.com/") == "http://example.com"
    assert canonical_url("http://example.com:8080/a/") == "http://example.com:8080/a"


@pytest.mark.parametrize(
    "address", ["127.0.0.1", "10.1.2.3", "192.168.0.1", "172.16.5.5", "169.254.169.254", "100.64.0.1", "::1", "fe80::1", "::ffff:127.0.0.1", "0.0.0.0"]
)
def test_non_public_addresses(address: str) -> None:
    assert not address_is_public(address)


def test_public_addresses() -> None:
    assert address_is_public("93.184.216.34")
    assert address_is_public("2606:4700::1111")


async def test_guard_refuses_loopback_and_metadata_unless_allowed() -> None:
    guard = URLGuard(allow_private_network=False)
    for url in ("http://127.0.0.1:8080/x", "http://localhost/", "http://169.254.169.254/latest/meta-data", "http://[::1]/"):
        with pytest.raises(UnsafeURL):
            await guard.check(url)
    with pytest.raises(UnsafeURL, match="http and https"):
        await guard.check("file:///etc/passwd")
    await URLGuard(allow_private_network=True).check("http://127.0.0.1:8080/x")


async def test_configured_searxng_endpoint_is_allowed_but_not_its_host() -> None:
    guard = URLGuard(allow_private_network=False, always_allowed=["http://127.0.0.1:8888/search"])
    await guard.check("http://127.0.0.1:8888/search?q=x&format=json")
    with pytest.raises(UnsafeURL):
        await guard.check("http://127.0.0.1:8888/admin")


async def test_the_guard_judges_the_url_httpx_will_request() -> None:
    """`..` is resolved before the check (httpx resolves it before requesting), and the
    search endpoint is allowed exactly, not as a prefix."""
    guard = URLGuard(allow_private_network=False, always_allowed=["http://127.0.0.1:8888/search"])
    for url in ("http://127.0.0.1:8888/search/../admin", "http://127.0.0.1:8888/search/./../admin?q=1",
                "http://127.0.0.1:8888/search/x", "http://127.0.0.1:8888/searchx", "http://127.0.0.1:8889/search",
                "https://127.0.0.1:8888/search", "http://127.0.0.1:8888/search/%2e%2e/admin"):
        with pytest.raises(UnsafeURL):
            await guard.check(url)
    assert await guard.check("http://127.0.0.1:8888/./search?q=x#top") == "http://127.0.0.1:8888/search?q=x"


# issue 30, item 6: `http://[::ffff:0:7f00:1]/` (IPv4-translated) passed the guard. Every IPv6 form
# that carries an IPv4 address is judged by that address: (address, form, public?).
EMBEDDED_IPV4_FORMS = [
    ("::ffff:127.0.0.1", "IPv4-mapped ::ffff:0:0/96, loopback", False),
    ("::ffff:a9fe:a9fe", "IPv4-mapped, metadata 169.254.169.254", False),
    ("::ffff:8.8.8.8", "IPv4-mapped, public", True),
    ("::ffff:0:7f00:1", "IPv4-translated ::ffff:0:0:0/96, loopback", False),
    ("::ffff:0:a00:1", "IPv4-translated, 10.0.0.1", False),
    ("::ffff:0:c0a8:101", "IPv4-translated, 192.168.1.1", False),
    ("::ffff:0:a9fe:a9fe", "IPv4-translated, metadata", False),
    ("::ffff:0:6440:1", "IPv4-translated, CGNAT 100.64.0.1", False),
    ("::ffff:0:0:0", "IPv4-translated, 0.0.0.0", False),
    ("::ffff:0:808:808", "IPv4-translated, public", True),
    ("::7f00:1", "IPv4-compatible ::/96, loopback", False),
    ("::a00:1", "IPv4-compatible, 10.0.0.1", False),
    ("::8.8.8.8", "IPv4-compatible, public", True),
    ("2002:7f00:1::1", "6to4 2002::/16, loopback", False),
    ("2002:a9fe:a9fe::1", "6to4, metadata", False),
    ("2002:808:808::1", "6to4, public (any relay: never)", False),
    ("2001:0:4136:e378:8000:63bf:80ff:fffe", "Teredo 2001::/32, client 127.0.0.1", False),
    ("2001:0:7f00:1::1", "Teredo, server 127.0.0.1", False),
    ("2001:0:4136:e378:8000:63bf:f5ff:fffe", "Teredo, client 10.0.0.1", False),
    ("64:ff9b::7f00:1", "NAT64 64:ff9b::/96, loopback", False),
    ("64:ff9b::a9fe:a9fe", "NAT64, metadata", False),
    ("64:ff9b::c0a8:101", "NAT64, 192.168.1.1", False),
    ("64:ff9b::808:808", "NAT64, public", True),
    ("64:ff9b:1::7f00:1", "local-use NAT64 64:ff9b:1::/48", False),
    ("64:ff9b:1:7f00:1::", "local-use NAT64, IPv4 at /48", False),
    ("64:ff9b:1::808:808", "local-use NAT64, public-looking (the site's translator)", False),
    ("2606:4700::5efe:7f00:1", "ISATAP interface id, loopback", False),
    ("2606:4700::200:5efe:a00:1", "ISATAP (u/l bit), 10.0.0.1", False),
    ("2606:4700::200:5efe:808:808", "ISATAP, public", True),
    ("::", "unspecified", False),
    ("::1", "IPv6 loopback", False),
    ("2606:4700::1111", "ordinary public IPv6", True),
]


@pytest.mark.parametrize(("address", "form", "public"), EMBEDDED_IPV4_FORMS, ids=[row[1] for row in EMBEDDED_IPV4_FORMS])
def test_ipv6_forms_carrying_ipv4_are_judged_by_the_ipv4_inside(address: str, form: str, public: bool) -> None:
    assert address_is_public(address) is public, form


@pytest.mark.parametrize("address", [row[0] for row in EMBEDDED_IPV4_FORMS if not row[2]])
async def test_guard_refuses_each_non_public_embedded_form_in_a_url(address: str) -> None:
    with pytest.raises(UnsafeURL, match="non-public"):
        await URLGuard(allow_private_network=False).check(f"http://[{address}]/")


# One address inside each not-globally-reachable block of IANA's special-purpose registries
# (iana-ipv4-special-registry, iana-ipv6-special-registry), and public neighbours just
# outside some of them. Python 3.11's ipaddress calls 192.0.0.8, 192.0.0.255, 192.88.99.1,
# 3fff::1, 5f00::1 and 100:0:0:1::1 global: the guard must not take its word alone.
@pytest.mark.parametrize(("address", "public"), [
    ("0.1.2.3", False), ("10.0.0.1", False), ("100.64.0.1", False), ("100.127.255.254", False), ("127.1.2.3", False),
    ("169.254.169.254", False), ("172.31.255.255", False), ("192.0.0.1", False), ("192.0.0.8", False),
    ("192.0.0.9", False), ("192.0.0.10", False), ("192.0.0.170", False), ("192.0.0.171", False),
    ("192.0.0.255", False), ("192.0.2.1", False), ("192.88.99.1", False), ("192.168.1.1", False),
    ("198.18.0.1", False), ("198.19.255.255", False), ("198.51.100.7", False), ("203.0.113.9", False),
    ("240.0.0.1", False), ("255.255.255.255", False), ("224.0.0.251", False), ("239.255.255.250", False),
    ("::", False), ("::1", False), ("64:ff9b:1::a00:1", False), ("100::1", False), ("100:0:0:1::1", False),
    ("2001:1::1", False), ("2001:1::3", False), ("2001:2::1", False), ("2001:3::1", False), ("2001:10::1", False),
    ("2001:20::1", False), ("2001:db8::1", False), ("2002:c000:0204::1", False), ("3fff::1", False),
    ("3fff:fff::1", False), ("5f00::1", False), ("fc00::1", False), ("fd12:3456::1", False), ("fe80::1", False),
    ("fec0::1", False), ("ff02::1", False),
    # just outside: public
    ("192.0.1.1", True), ("192.0.3.1", True), ("198.17.255.255", True), ("198.20.0.1", True),
    ("100.128.0.1", True), ("8.8.8.8", True), ("1.1.1.1", True), ("2606:4700:4700::1111", True),
    ("2001:4860:4860::8888", True), ("2a00:1450:4001::1", True), ("::ffff:8.8.8.8", True),
])
def test_every_iana_special_purpose_block_is_refused(address: str, public: bool) -> None:
    assert address_is_public(address) is public, address


async def test_the_guard_refuses_192_0_0_8_in_a_url() -> None:
    with pytest.raises(UnsafeURL, match=r"non-public address 192\.0\.0\.8"):
        await URLGuard(allow_private_network=False).check("http://192.0.0.8/page")

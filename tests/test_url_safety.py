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

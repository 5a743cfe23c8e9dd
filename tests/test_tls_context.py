"""Every HTTP client of a process shares one TLS context (modules/core/tls.py; issue 47).

Loading the trusted certificates costs about 20 ms of CPU, and httpx did it for every client it
made: twice per question for the Ollama clients alone. The shared context must still verify what
a fresh one verifies: certificates required, host names checked.
"""

from __future__ import annotations

import ssl

import httpx
import ollama

from research.modules.core.settings import FetchSettings, Settings
from research.modules.core.tls import client_ssl_context
from research.modules.llm import model_manager
from research.modules.llm.model_manager import ModelManager
from research.servers.web.fetcher import make_http_client


def test_the_clients_of_a_process_load_the_trusted_certificates_once(monkeypatch):
    loads = []
    real = ssl.SSLContext.load_verify_locations

    def counted(self, *args, **kwargs):
        loads.append(args or kwargs)
        return real(self, *args, **kwargs)

    monkeypatch.setattr(ssl.SSLContext, "load_verify_locations", counted)
    client_ssl_context.cache_clear()
    try:
        managers = [ModelManager(Settings(ollama_host="http://127.0.0.1:9")) for _ in range(3)]
        fetch_client = make_http_client(FetchSettings())
        # The listing of installed models (the REPL's /model, doctor) makes its own sync client.
        monkeypatch.setattr(ollama.Client, "list", lambda self: ollama.ListResponse(models=[]))
        assert model_manager.installed_models("http://127.0.0.1:9") == []
        assert len(loads) == 1, loads
        context = client_ssl_context()
        assert context.verify_mode == ssl.CERT_REQUIRED and context.check_hostname
        for manager in managers:
            transport = manager._client._client._transport
            assert isinstance(transport, httpx.AsyncHTTPTransport)
            assert transport._pool._ssl_context is context
        assert fetch_client._transport._pool._ssl_context is context
    finally:
        client_ssl_context.cache_clear()

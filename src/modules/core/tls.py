"""One TLS context for every HTTP client a process makes (Ollama's, the web fetcher's).

httpx builds a context for each client it makes, whatever the URL's scheme, and loading the
trusted certificates into it costs about 20 ms of CPU: a one-shot run made two, one per Ollama
client, and a process that runs many questions (the REPL, a team worker, the test workers) two
per question. Made once here instead, as httpx makes it (certifi's certificates, or
``SSL_CERT_FILE`` / ``SSL_CERT_DIR`` from the environment), and shared: an ``ssl.SSLContext``
serves any number of connections at once.
"""

from __future__ import annotations

import functools
import ssl


@functools.cache
def client_ssl_context() -> ssl.SSLContext:
    import httpx

    return httpx.create_ssl_context(verify=True, trust_env=True)

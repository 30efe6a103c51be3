"""Whether a web server can be reached at all, answered within a few seconds.

Without a network, an HTTP client waits on the system's name resolver (which may take tens of
seconds to give up) and then retries; a person waits for nothing. Asking first (the name
resolved with a deadline, one TCP connection opened and closed, through the proxy the
environment names for that URL, as httpx does) tells "offline" apart from a server's answer
in a few seconds.
"""

from __future__ import annotations

import socket
import threading
import time
from urllib.parse import urlsplit
from urllib.request import getproxies, proxy_bypass

TIMEOUT_S = 4.0  # for the name and the connection together


class Unreachable(OSError):
    """The server cannot be reached; the message is the resolver's or the socket's own."""


def check_reachable(url: str, timeout: float | None = None) -> None:
    """Return once a TCP connection to `url`'s server (or its proxy) opens; raise Unreachable
    when the name does not resolve, nothing answers, or `timeout` seconds (TIMEOUT_S) pass
    first."""
    timeout = TIMEOUT_S if timeout is None else timeout
    host, port = connection_target(url)
    deadline = time.monotonic() + timeout
    addresses = _resolve(host, port, timeout)
    last: OSError | None = None
    for family, kind, proto, _, address in addresses:
        left = deadline - time.monotonic()
        if left <= 0:
            break
        try:
            with socket.socket(family, kind, proto) as sock:
                sock.settimeout(left)
                sock.connect(address)
            return
        except OSError as exc:
            last = exc
    if last is None or isinstance(last, TimeoutError):
        raise Unreachable(f"{host}:{port} did not answer within {timeout:g} s")
    raise Unreachable(str(last) or type(last).__name__) from last


def connection_target(url: str) -> tuple[str, int]:
    """The host and port a client opens a connection to for `url`: the proxy's, when the
    environment names one for it (HTTPS_PROXY, ALL_PROXY… and NO_PROXY), else the server's."""
    parts = urlsplit(url)
    scheme = parts.scheme or "https"
    host = parts.hostname or ""
    proxies = getproxies()
    proxy = proxies.get(scheme) or proxies.get("all")
    if proxy and not proxy_bypass(host):
        proxied = urlsplit(proxy if "://" in proxy else f"http://{proxy}")
        default = 1080 if proxied.scheme.startswith("socks") else 80
        return proxied.hostname or "", proxied.port or default
    return host, parts.port or (443 if scheme == "https" else 80)


def _resolve(host: str, port: int, timeout: float) -> list:
    """getaddrinfo with a deadline: it has none of its own. It runs on a daemon thread, which
    ends when the resolver gives up, whether or not anyone still waits for it."""
    found: list = []
    failed: list[OSError] = []

    def resolve() -> None:
        try:
            found.extend(socket.getaddrinfo(host, port, type=socket.SOCK_STREAM))
        except OSError as exc:
            failed.append(exc)

    thread = threading.Thread(target=resolve, name="resolve-" + host, daemon=True)
    thread.start()
    thread.join(timeout)
    if failed:
        raise Unreachable(str(failed[0]) or type(failed[0]).__name__) from failed[0]
    if thread.is_alive() or not found:
        raise Unreachable(f"the name {host} did not resolve within {timeout:g} s")
    return found

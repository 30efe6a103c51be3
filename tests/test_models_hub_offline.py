"""A Hub that cannot be reached is one sentence, within seconds, whatever the cause: a refused
connection, a name that does not resolve, a resolver that does not answer, a proxy that is not
there. Nothing here leaves the loopback interface: name failures are the resolver's answers,
replaced."""

from __future__ import annotations

import socket
import threading

import httpx2
import pytest

from backend.models import hub, reachability
from backend.models.hub import HubClient, HubError, HubUnreachable
from backend.models.reachability import Unreachable, check_reachable, connection_target

UNREACHABLE = "The Hugging Face Hub cannot be reached from this computer."
PROXY_VARIABLES = ("http_proxy", "https_proxy", "all_proxy", "no_proxy", "HTTP_PROXY",
                   "HTTPS_PROXY", "ALL_PROXY", "NO_PROXY")


@pytest.fixture(autouse=True)
def no_proxy_settings(monkeypatch):
    for name in PROXY_VARIABLES:
        monkeypatch.delenv(name, raising=False)
    from huggingface_hub import constants

    monkeypatch.setattr(constants, "HF_HUB_OFFLINE", False)


def closed_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def test_a_refused_connection_is_the_hub_unreachable(monkeypatch):
    client = HubClient(endpoint=f"http://127.0.0.1:{closed_port()}")
    with pytest.raises(HubUnreachable) as search:
        client.search("qwen")
    assert str(search.value) == UNREACHABLE
    assert "refused" in search.value.detail.lower()
    with pytest.raises(HubUnreachable):
        client.models("acme/Count-GGUF")


def test_a_name_that_does_not_resolve_is_the_hub_unreachable(monkeypatch):
    def getaddrinfo(host, *args, **kwargs):
        raise socket.gaierror(socket.EAI_NONAME, "Name or service not known")

    monkeypatch.setattr(reachability.socket, "getaddrinfo", getaddrinfo)
    with pytest.raises(HubUnreachable) as caught:
        HubClient(endpoint="https://huggingface.co").search("qwen")
    assert str(caught.value) == UNREACHABLE
    assert "Name or service not known" in caught.value.detail


def test_a_resolver_that_does_not_answer_is_given_up_on(monkeypatch):
    release = threading.Event()

    def getaddrinfo(host, *args, **kwargs):
        release.wait()  # until the test ends: only the deadline can end the wait
        raise socket.gaierror(socket.EAI_AGAIN, "Temporary failure in name resolution")

    monkeypatch.setattr(reachability.socket, "getaddrinfo", getaddrinfo)
    monkeypatch.setattr(reachability, "TIMEOUT_S", 0.2)
    try:
        with pytest.raises(HubUnreachable) as caught:
            HubClient(endpoint="https://huggingface.co").search("qwen")
        assert "did not resolve" in caught.value.detail
    finally:
        release.set()


def test_the_proxy_is_what_must_answer_when_one_is_set(monkeypatch):
    port = closed_port()
    monkeypatch.setenv("HTTPS_PROXY", f"http://127.0.0.1:{port}")
    assert connection_target("https://huggingface.co") == ("127.0.0.1", port)
    with pytest.raises(Unreachable):  # the proxy refuses: no name of the Hub is looked up
        check_reachable("https://huggingface.co")
    monkeypatch.setenv("NO_PROXY", "huggingface.co")
    assert connection_target("https://huggingface.co") == ("huggingface.co", 443)
    assert connection_target("http://127.0.0.1:8080/api") == ("127.0.0.1", 8080)


def test_a_failed_connection_during_the_request_is_the_hub_unreachable(monkeypatch):
    """The server answered the first knock and then went away (or a proxy let the probe
    through): the HTTP client's connection error says the same sentence."""
    def list_models(**kwargs):
        raise httpx2.ConnectError("[Errno 111] Connection refused")

    monkeypatch.setattr(hub, "check_reachable", lambda url: None)
    client = HubClient(endpoint="https://huggingface.co")
    monkeypatch.setattr(client.api, "list_models", list_models)
    with pytest.raises(HubUnreachable) as caught:
        client.search("qwen")
    assert str(caught.value) == UNREACHABLE and "refused" in caught.value.detail


def test_offline_mode_is_said_as_such(monkeypatch):
    from huggingface_hub import constants

    monkeypatch.setattr(constants, "HF_HUB_OFFLINE", True)
    with pytest.raises(HubError, match="offline mode is on") as caught:
        HubClient(endpoint=f"http://127.0.0.1:{closed_port()}").search("qwen")
    assert str(caught.value).startswith("Could not search the Hub")
    assert not isinstance(caught.value, HubUnreachable)

"""HTTP to an OpenAI-compatible server: the model list, a streamed chat completion, a
metrics page. Every failure becomes a `ServerError` whose message is one sentence a person
can act on (unreachable, refused key, unknown model, timeout, cut stream).

Why httpx2: it is already a dependency (huggingface_hub's own client), it streams, and it
decodes server-sent events itself (`Client.sse`), so no SSE parsing is written here; the
`openai` package would add httpx, pydantic and more for the same two endpoints, and hide the
non-standard fields (`timings`, `metrics`, `meta_info`) the adapters read.
"""

from __future__ import annotations

import contextlib
import json
import socket
import threading
from collections.abc import Callable, Iterator
from typing import Any

import httpx2

from backend.engine.errors import EngineError
from backend.words import Words, words

CONNECT_TIMEOUT_S = 10.0
READ_TIMEOUT_S = 300.0  # a long prompt on a busy server can take minutes to its first token

# What a server problem says, as templates (backend/words.py).
NO_ADDRESS = "Give the server's address, e.g. http://127.0.0.1:8080/v1."
NOT_A_MODEL_LIST = ("The server at {url} answered /models with something that is not a model "
                    "list: is it an OpenAI-compatible server?")
NOT_A_STREAM = ("The server at {url} answered with {kind} instead of a stream of server-sent "
                "events: is it OpenAI-compatible?")
NO_CONTENT_TYPE = "no content type"
NOT_JSON = "The server sent a piece of the answer that is not JSON."
STOPPED = "The server stopped the answer: {error}"
KEY_REFUSED = ("The server at {url} refused the API key (HTTP {code}): check the key, or give "
               "one if the server needs it.")
UNKNOWN_MODEL = ("The server at {url} does not serve a model called {model}: pick one from its "
                 "model list.")
NO_ENDPOINT = ("The server at {url} has no such endpoint (HTTP 404): is the address right, with "
               "its /v1?")
HTTP_ERROR = "The server answered HTTP {code}: {detail}"
NO_ANSWER = ("The server at {url} did not answer within {seconds:.0f} s: is the address right "
             "and the server running?")
WENT_SILENT = ("The server at {url} went silent for {seconds:g} s, so the answer was given up "
               "(timeout).")
UNREACHABLE = ("Cannot reach {url}: nothing answers there (is the server running, and the "
               "address right?).")
CUT = ("The server closed the connection in the middle of the answer; what had arrived is "
       "kept.")
CONNECTION_FAILED = "The connection to {url} failed: {error}"


class ServerError(EngineError):
    """A server problem in one sentence (Words, backend/words.py; `str(exc)` is the English
    sentence); `kind` names it for callers and tests, `detail` is the server's own text."""

    def __init__(self, message: Words | str, kind: str, detail: str = "") -> None:
        super().__init__(message)
        self.kind = kind  # unreachable | key | model | timeout | interrupted | http | protocol
        self.detail = detail


def normalize_base_url(url: str) -> str:
    """`host:port`, `http://host:port` or `http://host:port/v1` → `http://host:port/v1`."""
    url = url.strip().rstrip("/")
    if not url:
        raise ServerError(words(NO_ADDRESS), "http")
    if "://" not in url:
        url = "http://" + url
    if not url.endswith("/v1"):
        url += "/v1"
    return url


def server_root(base_url: str) -> str:
    """Where a server's own pages (`/metrics`) live: the base URL without its `/v1`."""
    return base_url[: -len("/v1")] if base_url.endswith("/v1") else base_url


class ServerClient:
    """One server. `close_stream()` may be called from another thread to end a stream."""

    def __init__(self, base_url: str, api_key: str = "", *,
                 read_timeout_s: float = READ_TIMEOUT_S) -> None:
        self.base_url = normalize_base_url(base_url)
        headers = {"Authorization": f"Bearer {api_key}"} if api_key else {}
        self._http = httpx2.Client(
            headers=headers, trust_env=False,
            timeout=httpx2.Timeout(read_timeout_s, connect=CONNECT_TIMEOUT_S))
        self._read_timeout_s = read_timeout_s
        self._lock = threading.Lock()
        self._response: httpx2.Response | None = None

    def close(self) -> None:
        self._http.close()

    # Requests ---------------------------------------------------------------------------

    def list_models(self) -> list[str]:
        """The ids `/v1/models` lists."""
        response = self._request("GET", "/models")
        try:
            data = response.json()
            return [str(m["id"]) for m in data.get("data", []) if isinstance(m, dict)]
        except (ValueError, KeyError, TypeError, AttributeError) as exc:
            raise ServerError(words(NOT_A_MODEL_LIST, url=self.base_url), "protocol",
                              str(exc)) from exc

    def metrics_page(self) -> str | None:
        """The server's Prometheus page (`/metrics`), or None when it has none."""
        try:
            response = self._http.get(server_root(self.base_url) + "/metrics")
        except httpx2.HTTPError:
            return None
        if response.status_code != 200:
            return None
        return response.text

    def stream_chat(self, payload: dict[str, Any],
                    cancelled: Callable[[], bool] = lambda: False) -> Iterator[dict[str, Any]]:
        """The JSON chunks of a streamed `/chat/completions`, until `[DONE]` or the end;
        none once `cancelled()` (a Stop that came before the response did)."""
        model = payload.get("model", "")
        try:
            with self._http.sse(self.base_url + "/chat/completions", method="POST",
                                json=payload) as source:
                response = source.response
                if response.status_code != 200:
                    response.read()
                    raise self._status_error(response, model)
                kind = response.headers.get("content-type", "").partition(";")[0].strip()
                if kind.lower() != "text/event-stream":
                    response.read()
                    said = words(NOT_A_STREAM, url=self.base_url,
                                 kind=kind or words(NO_CONTENT_TYPE))
                    raise ServerError(said, "protocol", response.text[:500])
                with self._lock:
                    self._response = response
                if cancelled():
                    return
                for event in source:
                    if event.data.strip() == "[DONE]":
                        return
                    if not event.data.strip():
                        continue
                    try:
                        chunk = json.loads(event.data)
                    except ValueError as exc:
                        raise ServerError(words(NOT_JSON), "protocol",
                                          event.data[:200]) from exc
                    if isinstance(chunk, dict) and "error" in chunk and "choices" not in chunk:
                        raise ServerError(words(STOPPED, error=_error_text(chunk)), "http",
                                          event.data[:500])
                    if isinstance(chunk, dict):
                        yield chunk
        except ServerError:
            raise
        except httpx2.HTTPError as exc:
            raise self._transport_error(exc, streaming=self._response is not None) from exc
        finally:
            with self._lock:
                self._response = None

    def close_stream(self) -> None:
        """End the running stream from any thread (Stop): its read fails at once."""
        with self._lock:
            response = self._response
        if response is None:
            return
        # Closing a response does not wake a thread blocked reading its socket; shutting the
        # socket down does (the read then fails at once, and the stream reports the cancel).
        stream = response.extensions.get("network_stream")
        sock = stream.get_extra_info("socket") if stream is not None else None
        if isinstance(sock, socket.socket):
            with contextlib.suppress(OSError):
                sock.shutdown(socket.SHUT_RDWR)

    # Errors in words ----------------------------------------------------------------------

    def _request(self, method: str, path: str) -> httpx2.Response:
        try:
            response = self._http.request(method, self.base_url + path)
        except httpx2.HTTPError as exc:
            raise self._transport_error(exc, streaming=False) from exc
        if response.status_code != 200:
            raise self._status_error(response, "")
        return response

    def _status_error(self, response: httpx2.Response, model: str) -> ServerError:
        code = response.status_code
        body = response.text[:500]
        if code in (401, 403):
            return ServerError(words(KEY_REFUSED, url=self.base_url, code=code), "key", body)
        text = body.lower()
        if model and code in (400, 404, 422) and "model" in text and (
                "not found" in text or "does not exist" in text or "unknown" in text):
            return ServerError(words(UNKNOWN_MODEL, url=self.base_url, model=repr(model)),
                               "model", body)
        if code == 404:
            return ServerError(words(NO_ENDPOINT, url=self.base_url), "http", body)
        detail = _error_text(_json_or_none(response)) or body
        return ServerError(words(HTTP_ERROR, code=code, detail=detail[:200]), "http", body)

    def _transport_error(self, exc: httpx2.HTTPError, *, streaming: bool) -> ServerError:
        where = self.base_url
        if isinstance(exc, httpx2.ConnectTimeout):
            return ServerError(words(NO_ANSWER, url=where, seconds=CONNECT_TIMEOUT_S),
                               "unreachable", repr(exc))
        if isinstance(exc, httpx2.TimeoutException):
            return ServerError(words(WENT_SILENT, url=where, seconds=self._read_timeout_s),
                               "timeout", repr(exc))
        if isinstance(exc, httpx2.ConnectError):
            return ServerError(words(UNREACHABLE, url=where), "unreachable", repr(exc))
        if streaming:
            return ServerError(words(CUT), "interrupted", repr(exc))
        return ServerError(words(CONNECTION_FAILED, url=where, error=str(exc)), "unreachable",
                           repr(exc))


def _json_or_none(response: httpx2.Response) -> Any:
    try:
        return response.json()
    except ValueError:
        return None


def _error_text(data: Any) -> str:
    """The message of an OpenAI-style error body ({"error": {"message": …}} and variants)."""
    if not isinstance(data, dict):
        return ""
    error = data.get("error", data.get("detail", data))
    if isinstance(error, dict):
        return str(error.get("message", "")) or json.dumps(error)[:200]
    return str(error)

"""HTTP to an OpenAI-compatible server: the model list, a streamed chat completion, a
metrics page. Every failure becomes a `ServerError` whose message is one sentence a person
can act on (unreachable, refused key, unknown model, timeout, cut stream).

Why httpx2: it is already a dependency (huggingface_hub's own client), it streams, and it
decodes server-sent events itself (`Client.sse`), so no SSE parsing is written here; the
`openai` package would add httpx, pydantic and more for the same two endpoints, and hide the
non-standard fields (`timings`, `metrics`, `meta_info`) the adapters read.

Nothing a server sends can hold a request forever or fill the memory: each request runs under
a `Deadline` (idle and total limits that keep-alives cannot extend), a finished answer ends
within a short grace whatever follows, bodies and events are read up to a size, and JSON too
deep or with numbers too long for Python is an odd event, dropped, not a failed answer.
"""

from __future__ import annotations

import contextlib
import json
import math
import threading
from collections.abc import Callable, Iterator
from typing import Any

import httpx2

from backend.engine.errors import EngineError
from backend.serving import deadline as limits
from backend.serving.deadline import Deadline
from backend.serving.text import readable, said
from backend.words import Words, words

CONNECT_TIMEOUT_S = 10.0
# The idle limit: the longest wait for the next part of an answer (a long prompt on a busy
# server can take minutes to its first token). Keep-alive comments do not count as a part.
READ_TIMEOUT_S = 300.0
TOTAL_TIMEOUT_S = 3600.0  # the longest any one answer may take, whatever arrives
FINISH_GRACE_S = 2.0  # after finish_reason, the wait for the usage and timings that follow it
MAX_EVENT_BYTES = 4_000_000  # one server-sent event; the largest real one is a few kB
MAX_BODY_BYTES = 8_000_000  # a model list or a /metrics page
MAX_ERROR_BYTES = 64_000  # an error body, of which 200 characters are quoted
MAX_DIGITS = 30  # an integer in JSON longer than this is odd (and Python refuses > 4300)

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
NOTHING_NEW = ("The server at {url} sent no part of the answer for {seconds:g} s, so the answer "
               "was given up (timeout); what had arrived is kept.")
TOO_LONG = ("The answer from {url} was still not finished after {seconds:g} s, the longest an "
            "answer may take, so it was given up (timeout); what had arrived is kept.")
EVENT_TOO_LARGE = ("The server sent a piece of the answer larger than {megabytes:g} MB, the "
                   "most Draftlight reads at once, so the answer was given up; what had arrived "
                   "is kept.")
BODY_TOO_LARGE = ("The server at {url} answered {path} with more than {megabytes:g} MB, the most "
                  "Draftlight reads.")
REDIRECTED = ("The server at {url} redirected to {location}, and Draftlight does not follow "
              "redirects: give the final address instead.")
REDIRECTED_NOWHERE = ("The server at {url} answered with a redirect (HTTP {code}) without saying "
                      "where to, and Draftlight does not follow redirects: give the final "
                      "address instead.")
HTTP_ERROR_BARE = "The server answered HTTP {code} ({reason}) without saying why."
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
    """One server. `close_stream()` may be called from another thread to end a stream.

    `read_timeout_s` is the idle limit (the longest wait for the next part of an answer, and
    for a whole model list or metrics page), `total_timeout_s` the longest an answer may take,
    `finish_grace_s` how long a finished answer waits for what follows its finish_reason."""

    def __init__(self, base_url: str, api_key: str = "", *,
                 read_timeout_s: float = READ_TIMEOUT_S,
                 total_timeout_s: float = TOTAL_TIMEOUT_S,
                 finish_grace_s: float = FINISH_GRACE_S) -> None:
        self.base_url = normalize_base_url(base_url)
        headers = {"Authorization": f"Bearer {api_key}"} if api_key else {}
        # No connection is kept for the next request: each request opens its own, so its
        # Deadline holds the socket from the first byte (deadline.py).
        self._http = httpx2.Client(
            headers=headers, trust_env=False, follow_redirects=False,
            limits=httpx2.Limits(max_keepalive_connections=0),
            timeout=httpx2.Timeout(read_timeout_s, connect=CONNECT_TIMEOUT_S))
        self._read_timeout_s = read_timeout_s
        self._total_timeout_s = total_timeout_s
        self._finish_grace_s = finish_grace_s
        self._lock = threading.Lock()
        self._deadline: Deadline | None = None

    def close(self) -> None:
        self._http.close()

    # Requests ---------------------------------------------------------------------------

    def list_models(self) -> list[str]:
        """The ids `/v1/models` lists."""
        data = self._get_json("/models")
        try:
            return [readable(str(m["id"])) for m in data.get("data", []) if isinstance(m, dict)]
        except (KeyError, TypeError, AttributeError) as exc:
            raise ServerError(words(NOT_A_MODEL_LIST, url=self.base_url), "protocol",
                              str(exc)) from exc

    def metrics_page(self) -> str | None:
        """The server's Prometheus page (`/metrics`), or None when it has none (or one that
        is too large, too slow, or not a page)."""
        deadline = Deadline(self._read_timeout_s, self._read_timeout_s)
        try:
            with self._guarded("GET", server_root(self.base_url) + "/metrics",
                               deadline) as response:
                if response.status_code != 200:
                    return None
                body = _read_body(response, MAX_BODY_BYTES)
        except (httpx2.HTTPError, ServerError):
            return None
        if deadline.fired is not None:
            return None  # cut short by a limit
        return _text(response, body) if body is not None else None

    def stream_chat(self, payload: dict[str, Any],
                    cancelled: Callable[[], bool] = lambda: False) -> Iterator[dict[str, Any]]:
        """The JSON chunks of a streamed `/chat/completions`, until `[DONE]`, the end, or the
        grace after a finish_reason; none once `cancelled()` (a Stop that came before the
        response did)."""
        model = payload.get("model", "")
        url = self.base_url + "/chat/completions"
        finished = False
        deadline = Deadline(self._read_timeout_s, self._total_timeout_s)
        try:
            with self._guarded("POST", url, deadline, json=payload) as response:
                if response.status_code != 200:
                    raise self._status_error(response, model)
                kind = response.headers.get("content-type", "").partition(";")[0].strip()
                if kind.lower() != "text/event-stream":
                    body = _read_body(response, MAX_ERROR_BYTES) or b""
                    said_kind = words(NOT_A_STREAM, url=self.base_url,
                                      kind=said(kind, 80) or words(NO_CONTENT_TYPE))
                    raise ServerError(said_kind, "protocol", _text(response, body)[:500])
                if cancelled():
                    return
                source = httpx2.EventSource(response, max_event_size=MAX_EVENT_BYTES)
                for event in source:
                    data = event.data.strip()
                    if data == "[DONE]":
                        return
                    if not data:
                        continue
                    deadline.progress()
                    chunk = _chunk(data, finished)
                    if chunk is None:
                        continue
                    if "error" in chunk and "choices" not in chunk:
                        if finished:
                            continue  # the answer was complete before the server erred
                        raise ServerError(words(STOPPED, error=_error_text(chunk)), "http",
                                          said(data, 500))
                    if _finish_reason(chunk) is not None:
                        finished = True
                        deadline.finishing(self._finish_grace_s)
                    yield chunk
                # A body that ends at the close ends quietly when a limit shuts the socket.
                if not finished:
                    self._check(deadline, streaming=True)
        except ServerError:
            if finished or deadline.fired == limits.STOPPED:
                return
            raise
        except httpx2.HTTPError as exc:
            if finished or deadline.fired in (limits.FINISHED, limits.STOPPED):
                return
            raise self._transport_error(exc, deadline) from exc

    def close_stream(self) -> None:
        """End the running request from any thread (Stop): its read fails at once."""
        with self._lock:
            deadline = self._deadline
        if deadline is not None:
            deadline.stop()

    # Plumbing ----------------------------------------------------------------------------

    @contextlib.contextmanager
    def _guarded(self, method: str, url: str, deadline: Deadline,
                 **kwargs: Any) -> Iterator[httpx2.Response]:
        """A streamed request under `deadline` (a model list or a page must come whole within
        the idle limit; an answer within the total one), which it closes."""
        with self._lock:
            self._deadline = deadline
        try:
            with self._http.stream(method, url, extensions={"trace": deadline.trace},
                                   **kwargs) as response:
                yield response
        finally:
            with self._lock:
                if self._deadline is deadline:
                    self._deadline = None
            deadline.close()

    def _get_json(self, path: str) -> Any:
        deadline = Deadline(self._read_timeout_s, self._read_timeout_s)
        try:
            with self._guarded("GET", self.base_url + path, deadline) as response:
                if response.status_code != 200:
                    raise self._status_error(response, "")
                body = _read_body(response, MAX_BODY_BYTES)
            self._check(deadline, streaming=False)
        except httpx2.HTTPError as exc:
            raise self._transport_error(exc, deadline, streaming=False) from exc
        if body is None:
            raise ServerError(words(BODY_TOO_LARGE, url=self.base_url, path=path,
                                    megabytes=MAX_BODY_BYTES / 1e6), "protocol")
        try:
            return json.loads(body, parse_int=_parse_int)
        except (ValueError, RecursionError) as exc:
            raise ServerError(words(NOT_A_MODEL_LIST, url=self.base_url), "protocol",
                              said(str(exc))) from exc

    # Errors in words ----------------------------------------------------------------------

    def _status_error(self, response: httpx2.Response, model: str) -> ServerError:
        code = response.status_code
        body = _text(response, _read_body(response, MAX_ERROR_BYTES) or b"")[:500]
        if 300 <= code < 400:
            return self._redirect_error(response, body)
        if code in (401, 403):
            return ServerError(words(KEY_REFUSED, url=self.base_url, code=code), "key", body)
        text = body.lower()
        if model and code in (400, 404, 422) and "model" in text and (
                "not found" in text or "does not exist" in text or "unknown" in text):
            return ServerError(words(UNKNOWN_MODEL, url=self.base_url, model=repr(model)),
                               "model", body)
        if code == 404:
            return ServerError(words(NO_ENDPOINT, url=self.base_url), "http", body)
        detail = _error_text(_json_or_none(body)) or said(body)
        if not detail:
            return ServerError(words(HTTP_ERROR_BARE, code=code,
                                     reason=said(response.reason_phrase, 60) or "?"),
                               "http", body)
        return ServerError(words(HTTP_ERROR, code=code, detail=detail), "http", body)

    def _redirect_error(self, response: httpx2.Response, body: str) -> ServerError:
        location = response.headers.get("location", "").strip()
        if location:
            # else shown as the server wrote it
            with contextlib.suppress(httpx2.InvalidURL, ValueError, TypeError):
                location = str(response.request.url.join(location))
        if not said(location):
            return ServerError(words(REDIRECTED_NOWHERE, url=self.base_url,
                                     code=response.status_code), "http", body)
        return ServerError(words(REDIRECTED, url=self.base_url, location=said(location)),
                           "http", body)

    def _check(self, deadline: Deadline, *, streaming: bool) -> None:
        """Raise the limit that ended a request, if one did."""
        if deadline.fired in (limits.IDLE, limits.TOTAL):
            raise self._transport_error(httpx2.ReadTimeout("limit"), deadline,
                                        streaming=streaming)

    def _transport_error(self, exc: httpx2.HTTPError, deadline: Deadline, *,
                         streaming: bool = True) -> ServerError:
        where = self.base_url
        fired = deadline.fired
        if fired == limits.TOTAL and streaming:
            return ServerError(words(TOO_LONG, url=where, seconds=deadline.total_s),
                               "timeout", repr(exc))
        if isinstance(exc, httpx2.SSEError):
            return ServerError(words(EVENT_TOO_LARGE, megabytes=MAX_EVENT_BYTES / 1e6),
                               "protocol", said(str(exc)))
        if isinstance(exc, httpx2.ConnectTimeout):
            return ServerError(words(NO_ANSWER, url=where, seconds=CONNECT_TIMEOUT_S),
                               "unreachable", repr(exc))
        if fired in (limits.IDLE, limits.TOTAL) or isinstance(exc, httpx2.TimeoutException):
            said_why = (words(NOTHING_NEW, url=where, seconds=self._read_timeout_s)
                        if streaming else
                        words(WENT_SILENT, url=where, seconds=self._read_timeout_s))
            return ServerError(said_why, "timeout", repr(exc))
        if isinstance(exc, httpx2.ConnectError):
            return ServerError(words(UNREACHABLE, url=where), "unreachable", repr(exc))
        if streaming and fired != limits.STOPPED:
            return ServerError(words(CUT), "interrupted", repr(exc))
        return ServerError(words(CONNECTION_FAILED, url=where, error=said(str(exc))),
                           "unreachable", repr(exc))


def _read_body(response: httpx2.Response, limit: int) -> bytes | None:
    """The body, or None when it is larger than `limit` bytes (only that much is read)."""
    parts: list[bytes] = []
    size = 0
    for part in response.iter_raw() if response.headers.get(
            "content-encoding") is None else response.iter_bytes():
        size += len(part)
        if size > limit:
            return None
        parts.append(part)
    return b"".join(parts)


def _text(response: httpx2.Response, body: bytes) -> str:
    try:
        return readable(body.decode(response.encoding or "utf-8", "replace"))
    except LookupError:  # a charset Python does not know
        return body.decode("utf-8", "replace")


def _parse_int(digits: str) -> int | float:
    # A number too long to be a count is kept as NaN, which every reader drops as odd.
    return int(digits) if len(digits.lstrip("-")) <= MAX_DIGITS else math.nan


def _chunk(data: str, finished: bool) -> dict[str, Any] | None:
    """One event's JSON object; None for an odd one that is dropped (nested too deep, or any
    event that cannot be read once the answer is finished)."""
    try:
        chunk = json.loads(data, parse_int=_parse_int)
    except RecursionError:
        return None
    except ValueError as exc:
        if finished:
            return None
        raise ServerError(words(NOT_JSON), "protocol", said(data)) from exc
    return chunk if isinstance(chunk, dict) else None


def _finish_reason(chunk: dict[str, Any]) -> object:
    choices = chunk.get("choices")
    choice = choices[0] if isinstance(choices, list) and choices else None
    return choice.get("finish_reason") if isinstance(choice, dict) else None


def _json_or_none(text: str) -> Any:
    try:
        return json.loads(text, parse_int=_parse_int)
    except (ValueError, RecursionError):
        return None


def _error_text(data: Any) -> str:
    """The message of an OpenAI-style error body ({"error": {"message": …}} and variants),
    quoted on one line."""
    if not isinstance(data, dict):
        return ""
    error = data.get("error", data.get("detail", data))
    if isinstance(error, dict):
        message = error.get("message", "")
        return said(message if isinstance(message, str) else "") or _dumped(error)
    return said(str(error)) if isinstance(error, str | int | float) else _dumped(error)


def _dumped(value: Any) -> str:
    try:
        return said(json.dumps(value)[:400])
    except (ValueError, TypeError, RecursionError):
        return ""

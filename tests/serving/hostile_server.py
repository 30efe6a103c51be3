"""A hostile OpenAI-compatible server on 127.0.0.1: each kind of odd stream under its own base
address, `http://127.0.0.1:PORT/<kind>/v1`, so one server answers every test.

It writes raw HTTP (no chunked framing: the body ends when it closes), so it can send what a
well-behaved server library never would: keep-alive comments forever, headers a byte at a
time, silence after a finished answer, NaN and 400-digit numbers, lone surrogates, a 10 MB
event, redirects. A stream that would go on forever stops after `LIFETIME_S`, so a client that
does not end it fails its test instead of hanging it.
"""

from __future__ import annotations

import json
import select
import threading
import time
from collections.abc import Callable, Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

LIFETIME_S = 30.0  # the longest an endless stream runs
TICK_S = 0.05  # between keep-alives, empty events or dripped bytes
MODEL = "model"
TEXT = ["Odd", " servers", " keep", " the", " answer", "."]


def chunk(content: str | None = None, finish: Any = None, **extra: Any) -> dict[str, Any]:
    delta = {} if content is None else {"content": content}
    return {"object": "chat.completion.chunk", "model": MODEL,
            "choices": [{"index": 0, "delta": delta, "finish_reason": finish}], **extra}


def answer(*tail: str) -> list[str]:
    """The SSE events of TEXT, its finish, then `tail` (raw events, as JSON text)."""
    return ([f"data: {json.dumps(chunk(t))}\n\n" for t in TEXT]
            + [f"data: {json.dumps(chunk(finish='stop'))}\n\n"] + list(tail))


def raw(obj_text: str) -> str:
    """An event whose JSON text is written by hand (NaN, huge numbers, escapes)."""
    return f"data: {obj_text}\n\n"


def final(**fields: Any) -> str:
    """The usage chunk after the finish, with extra fields (as JSON text, written raw)."""
    body = ", ".join(f'"{k}": {v}' for k, v in fields.items())
    return raw('{"object": "chat.completion.chunk", "choices": [], "usage": {"prompt_tokens": '
               '12, "completion_tokens": 6, "total_tokens": 18}' + (", " + body if body else "")
               + "}")


DEEP = "[" * 200_000 + "]" * 200_000
VLLM = '{"speculative_decoding": {"num_drafts": 3, %s}}'

# Complete answers whose numbers are odd or impossible: the text must survive each.
ODD_STREAMS: dict[str, list[str]] = {
    "vllm-nan": answer(final(metrics=VLLM % '"mean_acceptance_length": NaN')),
    "vllm-infinity": answer(final(metrics=VLLM % '"mean_acceptance_length": Infinity, '
                                          '"draft_acceptance_rate": -Infinity')),
    "vllm-tiny-rate": answer(final(metrics=VLLM % '"num_accepted_tokens": 2, '
                                           '"draft_acceptance_rate": 1e-320')),
    "vllm-huge": answer(final(metrics=VLLM % '"num_accepted_tokens": 1e400, '
                                      '"num_draft_tokens": 9')),
    "vllm-steps-disagree": answer(final(metrics='{"speculative_decoding": {"detailed": {'
                                                '"accepted_per_step": [3, 9], '
                                                '"proposed_per_step": [3, 3]}}}')),
    "predicted-400-digits": answer(final(timings='{"predicted_n": ' + "9" * 400
                                         + ', "draft_n": 8, "draft_n_accepted": 4, '
                                         '"prompt_n": 12, "prompt_ms": 5.0}')),
    "predicted-5000-digits": answer(final(timings='{"predicted_n": ' + "7" * 5000 + "}")),
    "negative-timings": answer(final(timings='{"prompt_n": 12, "prompt_ms": -40.0, '
                                     '"predicted_n": 6, "predicted_ms": -1e300}')),
    "acceptance-2500": answer(final(timings='{"predicted_n": 6, "draft_n": 4, '
                                    '"draft_n_accepted": 100}')),
    "counts-disagree": answer(final(timings='{"predicted_n": 6, "draft_n": 50, '
                                    '"draft_n_accepted": 30}')),
    "cached-over-prompt": [*answer(), raw('{"choices": [], "usage": {"prompt_tokens": 5, '
                                          '"completion_tokens": 6, "prompt_tokens_details": '
                                          '{"cached_tokens": 90}}}')],
    "sglang-odd": answer(final(meta_info='{"spec_verify_ct": 3, "completion_tokens": 6, '
                                         '"spec_accept_rate": NaN, "spec_accept_length": '
                                         'Infinity}')),
    "finish-object": [*(f"data: {json.dumps(chunk(t))}\n\n" for t in TEXT),
                      raw(json.dumps(chunk(finish={"type": "stop", "why": ["eos"]})))],
    "deep-line-after": answer(raw(DEEP)),
    "deep-line-within": [*(f"data: {json.dumps(chunk(t))}\n\n" for t in TEXT[:3]), raw(DEEP),
                         *(f"data: {json.dumps(chunk(t))}\n\n" for t in TEXT[3:]),
                         f"data: {json.dumps(chunk(finish='stop'))}\n\n"],
    "garbage-after-finish": answer(raw("{not json"), raw('{"error": {"message": "late"}}')),
}

METRICS_ODD = ("vllm:spec_decode_num_draft_tokens_total +Inf\n"
               "vllm:spec_decode_num_accepted_tokens_total 1e999\n"
               "vllm:spec_decode_num_drafts_total NaN\n")


class HostileServer:
    """`url(kind)` is the base address serving that kind; `served` counts requests per kind."""

    def __init__(self) -> None:
        self.stop = threading.Event()
        self.served: dict[str, int] = {}
        handler = type("Handler", (_Handler,), {"hostile": self})
        self._server = ThreadingHTTPServer(("127.0.0.1", 0), handler)
        self._server.daemon_threads = True
        self._thread = threading.Thread(target=self._server.serve_forever, name="hostile")

    @property
    def root(self) -> str:
        return f"http://127.0.0.1:{self._server.server_address[1]}"

    def url(self, kind: str) -> str:
        return f"{self.root}/{kind}/v1"

    def __enter__(self) -> HostileServer:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop.set()
        self._server.shutdown()
        self._server.server_close()
        self._thread.join()


class _Handler(BaseHTTPRequestHandler):
    hostile: HostileServer
    protocol_version = "HTTP/1.1"

    def log_message(self, format: str, *args: object) -> None:
        pass

    # Plumbing ----------------------------------------------------------------------------

    def _head(self, code: int, kind: str = "text/event-stream", **headers: str) -> None:
        self.send_response(code)
        if kind:
            self.send_header("Content-Type", kind)
        for name, value in headers.items():
            self.send_header(name.replace("_", "-"), value)
        self.send_header("Connection", "close")
        self.end_headers()
        self.close_connection = True

    def _body(self, code: int, data: bytes, kind: str = "application/json") -> None:
        self._head(code, kind, Content_Length=str(len(data)))
        self.wfile.write(data)

    def _write(self, text: str) -> bool:
        try:
            self.wfile.write(text.encode("utf-8", "surrogatepass"))
            self.wfile.flush()
            return True
        except OSError:  # the client hung up: what a client that gives up does
            return False

    def _forever(self, each: Callable[[], str]) -> None:
        """Send `each()` every TICK_S until the client hangs up (or LIFETIME_S)."""
        end = time.monotonic() + LIFETIME_S
        while time.monotonic() < end and not self.hostile.stop.is_set():
            if not self._write(each()):
                return
            time.sleep(TICK_S)

    def _silent(self) -> None:
        """Send nothing more, until the client hangs up (or LIFETIME_S)."""
        end = time.monotonic() + LIFETIME_S
        while time.monotonic() < end and not self.hostile.stop.is_set():
            readable, _, _ = select.select([self.connection], [], [], TICK_S)
            try:
                if readable and not self.connection.recv(4096):
                    return
            except OSError:
                return

    def _split(self) -> tuple[str, str]:
        kind, _, rest = self.path[1:].partition("/")
        return kind, "/" + rest

    # Requests ----------------------------------------------------------------------------

    def do_GET(self) -> None:
        kind, rest = self._split()
        if kind == "redirect":
            self._head(302, "", Location="/elsewhere/v1/models", Content_Length="0")
        elif kind == "huge-models" and rest == "/v1/models":
            self._head(200, "application/json")
            self._write('{"data": [' + '{"id": "m"}, ' * 1_000_000 + '{"id": "m"}]}')
        elif kind == "deep-models" and rest == "/v1/models":
            self._body(200, ("[" * 100_000 + "]" * 100_000).encode())
        elif kind == "drip-models" and rest == "/v1/models":
            self._head(200, "application/json")
            self._forever(lambda: " ")
        elif rest == "/v1/models":
            self._body(200, json.dumps({"data": [{"id": MODEL}, {"id": "odd\ud800model"}]},
                                       ensure_ascii=True).encode())
        elif rest == "/metrics" and kind == "metrics-odd":
            self._body(200, METRICS_ODD.encode(), "text/plain")
        else:
            self._body(404, b'{"detail": "Not Found"}')

    def do_POST(self) -> None:
        self.rfile.read(int(self.headers.get("Content-Length", 0)))
        kind, rest = self._split()
        self.hostile.served[kind] = self.hostile.served.get(kind, 0) + 1
        if rest != "/v1/chat/completions":
            self._body(404, b'{"detail": "Not Found"}')
            return
        getattr(self, "_" + kind.replace("-", "_"), self._odd)(kind)

    def _stream(self, events: Iterator[str] | list[str], done: bool = True) -> None:
        self._head(200)
        for event in events:
            if not self._write(event):
                return
        if done:
            self._write("data: [DONE]\n\n")

    def _odd(self, kind: str) -> None:
        self._stream(ODD_STREAMS[kind])

    # An answer that stops, kept alive by comments: only the idle limit can end it.
    def _keepalive(self, kind: str) -> None:
        self._stream(answer()[:3], done=False)
        self._forever(lambda: ": keep-alive\n\n")

    # Events that carry nothing, forever: only the total limit can end it.
    def _empty_events(self, kind: str) -> None:
        self._stream(answer()[:3], done=False)
        self._forever(lambda: 'data: {"choices": []}\n\n')

    # Headers a byte at a time: the limits hold before the first event too.
    def _drip_headers(self, kind: str) -> None:
        self._write("HTTP/1.1 200 OK\r\n")
        self._forever(lambda: "X")

    # A finished answer (finish_reason, then usage), then silence until the client leaves.
    def _finish_silent(self, kind: str) -> None:
        self._stream(answer(final()), done=False)
        self._silent()

    # The finish alone, then keep-alives: the grace after a finish is not extended either.
    def _finish_keepalive(self, kind: str) -> None:
        self._stream(answer(), done=False)
        self._forever(lambda: ": keep-alive\n\n")

    def _surrogate(self, kind: str) -> None:
        self._stream([raw('{"choices": [{"delta": {"content": "Half \\ud800 a"}}]}'),
                      raw('{"choices": [{"delta": {"content": " smile \\ud83d"}}]}'),
                      raw('{"choices": [{"delta": {"content": "\\ude00 joined"}}]}'),
                      raw('{"choices": [{"delta": {"content": " and \\udfff"}}]}'),
                      raw('{"choices": [{"delta": {}, "finish_reason": "stop"}]}')])

    def _surrogate_cut(self, kind: str) -> None:
        self._stream([raw('{"choices": [{"delta": {"content": "Cut \\ud83d"}}]}')], done=False)

    # Two pieces, then one event of 10 MB.
    def _huge_event(self, kind: str) -> None:
        self._stream([*answer()[:2], "data: " + "x" * 10_000_000 + "\n\n"])

    def _redirect(self, kind: str) -> None:
        self._head(302, "", Location="/elsewhere/v1/chat/completions", Content_Length="0")

    _redirect_chat = _redirect

    def _redirect_nowhere(self, kind: str) -> None:
        self._head(307, "", Content_Length="0")

    def _http_empty(self, kind: str) -> None:
        self._head(500, "", Content_Length="0")

    def _error_multiline(self, kind: str) -> None:
        self._body(503, json.dumps({"error": {"message": "busy\n\n  at line 3:\r\n"
                                                         "\x1b[31m x\ud800"}}).encode())

    def _metrics_odd(self, kind: str) -> None:
        self._stream(answer(final()))

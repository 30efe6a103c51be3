"""A tiny OpenAI-compatible server on 127.0.0.1 that replays a recorded stream: the chunks a
server sent for one answer, its /metrics pages, its model list. It can refuse keys and
unknown models, cut a stream after n chunks (a dropped connection) or hold it (a stalled
server), so the client's real code runs against each case."""

from __future__ import annotations

import json
import threading
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

from backend.engine.request import GenerationRequest

RECORDINGS = Path(__file__).parent / "recordings"


@dataclass
class Script:
    models: list[str] = field(default_factory=lambda: ["model"])
    chunks: list[dict[str, Any]] = field(default_factory=list)
    metrics: list[str] = field(default_factory=list)  # /metrics pages, in order (last repeats)
    api_key: str = ""
    cut_after: int | None = None  # close the connection after this many chunks
    hold_after: int | None = None  # stop sending after this many chunks, until closed
    not_a_stream: bool = False  # answer with one JSON body, as a server that ignores "stream"


def recording(name: str) -> Script:
    """A recording file: {"models": […], "chunks": […], "metrics": […]}."""
    data = json.loads((RECORDINGS / f"{name}.json").read_text())
    return Script(models=data.get("models", ["model"]), chunks=data["chunks"],
                  metrics=data.get("metrics", []))


class FakeServer:
    def __init__(self, script: Script) -> None:
        self.script = script
        self.requests: list[dict[str, Any]] = []  # the chat request bodies received
        self.metrics_reads = 0
        self.release = threading.Event()
        self.holding = threading.Event()  # a held stream has sent what it will send
        handler = type("Handler", (_Handler,), {"server_state": self})
        self._server = ThreadingHTTPServer(("127.0.0.1", 0), handler)
        self._server.daemon_threads = True
        self._thread = threading.Thread(target=self._server.serve_forever, name="fake-server")

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self._server.server_address[1]}/v1"

    def __enter__(self) -> FakeServer:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.release.set()
        self._server.shutdown()
        self._server.server_close()
        self._thread.join()


class _Handler(BaseHTTPRequestHandler):
    server_state: FakeServer
    protocol_version = "HTTP/1.1"

    def log_message(self, format: str, *args: object) -> None:
        pass

    def _json(self, code: int, body: Any) -> None:
        data = json.dumps(body).encode()
        self.send_response(code)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.send_header("Connection", "close")
        self.end_headers()
        self.wfile.write(data)
        self.close_connection = True

    def _authorized(self) -> bool:
        key = self.server_state.script.api_key
        if key and self.headers.get("Authorization") != f"Bearer {key}":
            self._json(401, {"error": {
                "message": "Invalid API Key", "type": "invalid_request_error", "code": 401}})
            return False
        return True

    def do_GET(self) -> None:
        state = self.server_state
        if self.path == "/metrics":
            pages = state.script.metrics
            if not pages:
                self._json(404, {"detail": "Not Found"})
                return
            page = pages[min(state.metrics_reads, len(pages) - 1)]
            state.metrics_reads += 1
            data = page.encode()
            self.send_response(200)
            self.send_header("Content-Type", "text/plain; version=0.0.4")
            self.send_header("Content-Length", str(len(data)))
            self.send_header("Connection", "close")
            self.end_headers()
            self.wfile.write(data)
            self.close_connection = True
            return
        if not self._authorized():
            return
        if self.path == "/v1/models":
            self._json(200, {"object": "list", "data": [
                {"id": m, "object": "model", "owned_by": "test"} for m in state.script.models]})
            return
        self._json(404, {"detail": "Not Found"})

    def do_POST(self) -> None:
        state = self.server_state
        body = json.loads(self.rfile.read(int(self.headers.get("Content-Length", 0))) or b"{}")
        if not self._authorized():
            return
        if self.path != "/v1/chat/completions":
            self._json(404, {"detail": "Not Found"})
            return
        state.requests.append(body)
        if body.get("model") not in state.script.models:
            self._json(404, {"error": {"message": f"The model `{body.get('model')}` does not "
                                                  "exist.", "type": "NotFoundError", "code": 404}})
            return
        if state.script.not_a_stream:
            self._json(200, {"object": "chat.completion", "choices": [
                {"index": 0, "message": {"role": "assistant", "content": "Hi"},
                 "finish_reason": "stop"}]})
            return
        self.send_response(200)
        self.send_header("Content-Type", "text/event-stream")
        self.send_header("Transfer-Encoding", "chunked")
        self.send_header("Connection", "close")
        self.end_headers()
        self.close_connection = True
        script = state.script
        for i, chunk in enumerate(script.chunks):
            if script.cut_after is not None and i == script.cut_after:
                self.wfile.flush()
                self.connection.close()  # no last chunk: the client sees a cut stream
                return
            if script.hold_after is not None and i == script.hold_after:
                self.wfile.flush()
                state.holding.set()
                state.release.wait()
                return
            self._send(f"data: {json.dumps(chunk)}\n\n")
        self._send("data: [DONE]\n\n")
        self.wfile.write(b"0\r\n\r\n")
        self.wfile.flush()

    def _send(self, text: str) -> None:
        data = text.encode()
        self.wfile.write(f"{len(data):x}\r\n".encode() + data + b"\r\n")
        self.wfile.flush()


def answered(script: Script, request: GenerationRequest) -> tuple[list, Any, FakeServer]:
    """`request` answered by the server engine against a fake server playing `script`: the
    events, the engine's last report and the server (its requests and metrics reads)."""
    from backend.serving.engine import ServerEngine

    with FakeServer(script) as server:
        engine = ServerEngine(server.url)
        try:
            engine.load_target(script.models[0], n_ctx=0)
            events = list(engine.generate(request))
        finally:
            engine.close()
    return events, engine.last_report, server

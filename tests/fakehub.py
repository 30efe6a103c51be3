"""A fake Hugging Face Hub on 127.0.0.1 for the model-manager tests.

It answers the endpoints huggingface_hub calls for the model manager — model search
(`/api/models`), the recursive file tree with LFS SHA-256 and sizes
(`/api/models/OWNER/NAME/tree/REV`) and file downloads — and serves real GGUF bytes. Like the
real Hub, `/OWNER/NAME/resolve/REV/PATH` answers with a redirect (302, with the file's size and
hash in X-Linked-Size / X-Linked-Etag), and the bytes come, with Range support, from another
path (`/cdn/…`, the Hub's CDN). Faults are scripted per file: a connection cut after N bytes,
a slow trickle, a hold at a byte offset until the test releases it, content that does not
match the listed hash, corrupt bytes on every resumed (ranged) request, a server that ignores
Range (200 and the whole file), or an error status. A repository can be renamed (its old
name's resolve URL answers 307 to the new one's; renamed to itself, a redirect loop), and
carry model-card metadata (`base_model`), which `/api/models/OWNER/NAME` and the search
answer with. Every request is recorded so tests can assert what the client asked for.

It speaks HTTP/1.0 (one request per connection), so no handler thread outlives a response and
`close()` can join every thread it started.
"""

from __future__ import annotations

import hashlib
import json
import re
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from urllib.parse import parse_qs, quote, unquote, urlparse


@dataclass
class FakeFile:
    data: bytes
    advertised_sha256: str | None = None  # defaults to the real hash of `data`
    cut_after: list[int] = field(default_factory=list)  # per response: bytes sent, then close
    bytes_per_second: float | None = None  # a trickle, so progress is reported as it comes
    # a response that reaches this byte offset sends nothing more until `release` is set
    # (and `held` is set meanwhile): a download that is surely still running, whatever the
    # machine's speed
    hold_at: int | None = None
    held: threading.Event = field(default_factory=threading.Event)
    release: threading.Event = field(default_factory=threading.Event)
    corrupt_resumed: bool = False  # a ranged request (start > 0) gets its first byte flipped
    empty_bodies: int = 0  # this many responses end, without error, before their first byte
    ignore_range: bool = False  # answer every request with 200 and the whole file
    status: int | None = None  # answer every request for the bytes with this error status

    @property
    def sha256(self) -> str:
        return self.advertised_sha256 or hashlib.sha256(self.data).hexdigest()

    def hold(self, at: int) -> None:
        """Hold the next responses at byte `at` until `release.set()`."""
        self.hold_at = at
        self.held.clear()
        self.release.clear()


@dataclass
class FakeRepo:
    repo_id: str
    files: dict[str, FakeFile]
    downloads: int = 0
    likes: int = 0
    last_modified: str = "2025-01-15T10:00:00.000Z"
    base_model: str | list[str] | None = None  # the model card's metadata
    renamed_to: str | None = None  # the old name's resolve URL redirects to this one's

    def card(self) -> dict[str, object]:
        return {"cardData": {"base_model": self.base_model}} if self.base_model else {}


@dataclass(frozen=True)
class Request:
    method: str
    path: str
    headers: dict[str, str]


class FakeHub:
    def __init__(self, repos: list[FakeRepo]) -> None:
        self.repos = {r.repo_id: r for r in repos}
        self.requests: list[Request] = []
        self._lock = threading.Lock()
        handler = type("Handler", (_Handler,), {"hub": self})
        self._server = ThreadingHTTPServer(("127.0.0.1", 0), handler)
        self._server.daemon_threads = False
        self._server.block_on_close = True  # server_close() joins the handler threads
        self._thread = threading.Thread(target=self._server.serve_forever, name="fake-hub")

    @property
    def endpoint(self) -> str:
        host, port = self._server.server_address[:2]
        return f"http://{host.decode() if isinstance(host, bytes) else host}:{port}"

    def start(self) -> FakeHub:
        self._thread.start()
        return self

    def close(self) -> None:
        for repo in self.repos.values():  # no handler may wait on a hold forever
            for f in repo.files.values():
                f.release.set()
        self._server.shutdown()
        self._server.server_close()
        self._thread.join(timeout=10)

    def __enter__(self) -> FakeHub:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.close()

    def record(self, request: Request) -> None:
        with self._lock:
            self.requests.append(request)

    def ranges(self, path_suffix: str) -> list[str | None]:
        """The Range header of each GET of a file's bytes (None for a request without one)."""
        with self._lock:
            return [
                r.headers.get("range")
                for r in self.requests
                if r.method == "GET" and r.path.startswith("/cdn/")
                and r.path.endswith(path_suffix)
            ]

    def redirects(self, path_suffix: str) -> int:
        """How many requests for a file went to `/resolve/` (each answered with a redirect)."""
        with self._lock:
            return sum(1 for r in self.requests
                       if "/resolve/" in r.path and r.path.endswith(path_suffix))


@contextmanager
def released_when(f: FakeFile, stop: threading.Event) -> Iterator[None]:
    """Release `f`'s hold as soon as `stop` is set: a download told to stop (pause, cancel,
    close) notices only when its next bytes arrive. The helper thread is joined on exit."""

    leaving = threading.Event()

    def wait_then_release() -> None:
        while not stop.wait(0.02) and not leaving.is_set():
            pass
        f.release.set()

    thread = threading.Thread(target=wait_then_release, name="fake-hub-release")
    thread.start()
    try:
        yield
    finally:
        leaving.set()
        thread.join()


def gguf_repo(repo_id: str, files: dict[str, Path | bytes], **kwargs) -> FakeRepo:
    return FakeRepo(
        repo_id,
        {
            name: FakeFile(data if isinstance(data, bytes) else Path(data).read_bytes())
            for name, data in files.items()
        },
        **kwargs,
    )


_TREE = re.compile(r"^/api/models/(?P<repo>[^/]+/[^/]+)/tree/(?P<rev>[^/]+)(?P<path>/.*)?$")
_RESOLVE = re.compile(r"^/(?P<repo>[^/]+/[^/]+)/resolve/(?P<rev>[^/]+)/(?P<path>.+)$")
_CDN = re.compile(r"^/cdn/(?P<repo>[^/]+/[^/]+)/(?P<rev>[^/]+)/(?P<path>.+)$")
_INFO = re.compile(r"^/api/models/(?P<repo>[^/]+/[^/]+)(?:/revision/[^/]+)?$")


class _Handler(BaseHTTPRequestHandler):
    hub: FakeHub

    def log_message(self, format: str, *args: object) -> None:  # keep test output quiet
        pass

    def do_HEAD(self) -> None:
        self._dispatch(body=False)

    def do_GET(self) -> None:
        self._dispatch(body=True)

    def _dispatch(self, body: bool) -> None:
        url = urlparse(self.path)
        path = unquote(url.path)
        self.hub.record(
            Request(self.command, path, {k.lower(): v for k, v in self.headers.items()})
        )
        if path == "/api/models":
            return self._search(parse_qs(url.query))
        if m := _TREE.match(path):
            return self._tree(m["repo"])
        if m := _INFO.match(path):
            return self._info(m["repo"])
        if m := _RESOLVE.match(path):
            return self._redirect(m["repo"], m["rev"], m["path"])
        if m := _CDN.match(path):
            return self._serve(m["repo"], m["path"], body)
        return self._json({"error": "not found"}, 404)

    def _json(self, payload: object, status: int = 200) -> None:
        data = json.dumps(payload).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def _search(self, query: dict[str, list[str]]) -> None:
        words = query.get("search", [""])[0].lower()
        limit = int(query.get("limit", ["1000"])[0])
        found = [
            {
                "id": r.repo_id,
                "_id": r.repo_id,
                "downloads": r.downloads,
                "likes": r.likes,
                "lastModified": r.last_modified,
                "tags": ["gguf"],
            }
            | r.card()
            for r in sorted(self.hub.repos.values(), key=lambda r: -r.downloads)
            if words in r.repo_id.lower()
        ]
        self._json(found[:limit])

    def _info(self, repo_id: str) -> None:
        repo = self.hub.repos.get(repo_id)
        if repo is None:
            return self._json({"error": "Repository not found"}, 404)
        self._json({"id": repo.repo_id, "_id": repo.repo_id, "tags": ["gguf"],
                    "downloads": repo.downloads, "likes": repo.likes} | repo.card())

    def _tree(self, repo_id: str) -> None:
        repo = self.hub.repos.get(repo_id)
        if repo is None:
            return self._json({"error": "Repository not found"}, 404)
        entries = [
            {
                "type": "file",
                "oid": hashlib.sha1(f.data).hexdigest(),
                "size": len(f.data),
                "path": name,
                "lfs": {"oid": f.sha256, "size": len(f.data), "pointerSize": 134},
            }
            for name, f in sorted(repo.files.items())
        ]
        self._json(entries)

    def _repo(self, repo_id: str) -> FakeRepo | None:
        """A repository by its name, or by the name it was renamed to."""
        found = self.hub.repos.get(repo_id)
        if found is None:
            found = next((r for r in self.hub.repos.values() if r.renamed_to == repo_id), None)
        return found

    def _file(self, repo_id: str, name: str) -> FakeFile | None:
        repo = self._repo(repo_id)
        return repo.files.get(name) if repo else None

    def _redirect(self, repo_id: str, rev: str, name: str) -> None:
        """What the Hub does for an LFS file: 302 to its CDN, with the size and hash; for a
        renamed repository's old name, 307 to the new name's resolve URL first."""
        repo = self.hub.repos.get(repo_id)
        if repo is not None and repo.renamed_to is not None:
            self.send_response(307)
            self.send_header("Location", f"/{repo.renamed_to}/resolve/{rev}/{quote(name)}")
            self.send_header("Content-Length", "0")
            self.end_headers()
            return
        f = self._file(repo_id, name)
        if f is None:
            return self._json({"error": "Entry not found"}, 404)
        self.send_response(302)
        self.send_header("Location", f"/cdn/{repo_id}/{rev}/{quote(name)}")
        self.send_header("X-Linked-Size", str(len(f.data)))
        self.send_header("X-Linked-Etag", f'"{f.sha256}"')
        self.send_header("X-Repo-Commit", "0" * 40)
        self.send_header("Content-Length", "0")
        self.end_headers()

    def _serve(self, repo_id: str, name: str, body: bool) -> None:
        f = self._file(repo_id, name)
        if f is None:
            return self._json({"error": "Entry not found"}, 404)
        if f.status is not None:
            return self._json({"error": f"status {f.status}"}, f.status)
        if body and f.empty_bodies > 0:
            f.empty_bodies -= 1
            self.send_response(200)
            self.send_header("Content-Length", "0")
            self.end_headers()
            return
        size = len(f.data)
        start, status = 0, 200
        asked = "" if f.ignore_range else self.headers.get("Range", "")
        if m := re.match(r"bytes=(\d+)-(\d*)$", asked):
            start = int(m[1])
            end = int(m[2]) if m[2] else size - 1
            if start >= size:
                self.send_response(416)
                self.send_header("Content-Range", f"bytes */{size}")
                self.send_header("Content-Length", "0")
                self.end_headers()
                return
            end = min(end, size - 1)
            status = 206
        else:
            end = size - 1
        self.send_response(status)
        self.send_header("Content-Length", str(end - start + 1))
        self.send_header("ETag", f'"{f.sha256}"')
        if not f.ignore_range:
            self.send_header("Accept-Ranges", "bytes")
        if status == 206:
            self.send_header("Content-Range", f"bytes {start}-{end}/{size}")
        self.end_headers()
        if not body:
            return
        limit = f.cut_after.pop(0) if f.cut_after else None
        data = f.data
        if f.corrupt_resumed and start > 0:
            data = data[:start] + bytes([data[start] ^ 0xFF]) + data[start + 1 :]
        chunk = 64 * 1024
        pos, sent = start, 0
        try:
            while pos <= end:
                n = min(chunk, end + 1 - pos)
                if f.hold_at is not None and pos < f.hold_at <= pos + n:
                    n = f.hold_at - pos  # up to the hold exactly (maybe 0 bytes), then wait
                if limit is not None and sent + n > limit:
                    self.wfile.write(data[pos : pos + max(0, limit - sent)])
                    self.wfile.flush()
                    self.close_connection = True
                    return  # the connection closes short of Content-Length
                self.wfile.write(data[pos : pos + n])
                pos += n
                sent += n
                if f.hold_at is not None and pos == f.hold_at and not f.release.is_set():
                    self.wfile.flush()
                    f.held.set()
                    f.release.wait(120)  # close() releases every hold
                if f.bytes_per_second:
                    time.sleep(n / f.bytes_per_second)
        except (BrokenPipeError, ConnectionResetError):
            pass  # the client went away (a killed download)


def counting_repos(test_models: Path) -> list[FakeRepo]:
    """Three repositories serving a real GGUF: one with several quantizations, a split model
    and a projector that is not a model; one tiny; one that a search should rank last."""
    data = (test_models / "count-target.gguf").read_bytes()
    third = len(data) // 3
    return [
        gguf_repo(
            "acme/Count-GGUF",
            {
                "count-Q8_0.gguf": data,
                "count-F16.gguf": data,
                "big/count-F32-00001-of-00003.gguf": data[:third],
                "big/count-F32-00002-of-00003.gguf": data[third : 2 * third],
                "big/count-F32-00003-of-00003.gguf": data[2 * third :],
                "mmproj-count-f16.gguf": b"projector",
            },
            downloads=1200,
            likes=7,
        ),
        gguf_repo("other/Counting-Tiny-GGUF", {"tiny-Q4_K_M.gguf": data}, downloads=50),
        gguf_repo("zzz/Unrelated", {"x-Q4_0.gguf": data}),
    ]


@contextmanager
def serving(monkeypatch, repos: list[FakeRepo]) -> Iterator[FakeHub]:
    """Start a fake hub and point huggingface_hub (and this app) at it for one test.

    huggingface_hub freezes HF_ENDPOINT and HF_HUB_OFFLINE into `constants` at import, so the
    offline flag is patched there; the app's HubClient reads HF_ENDPOINT when created."""
    from huggingface_hub import constants

    hub = FakeHub(repos).start()
    try:
        monkeypatch.setenv("HF_ENDPOINT", hub.endpoint)
        monkeypatch.delenv("HF_HUB_OFFLINE", raising=False)
        monkeypatch.setattr(constants, "HF_HUB_OFFLINE", False)
        yield hub
    finally:
        hub.close()

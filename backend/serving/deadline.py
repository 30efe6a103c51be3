"""Time limits for one request that nothing the server sends can extend.

A socket's read timeout restarts with every byte, so a server that sends a keep-alive comment
every few seconds, or drips its headers a byte at a time, would keep a request alive forever.
`Deadline` counts instead: the idle limit restarts only when the caller says a part of the
answer came (`progress()`), the total limit never restarts, and once the answer is finished
(`finishing()`) only a short grace is left for what may follow it (usage, timings). When a
limit passes, or `stop()` is called from another thread, the request's socket is shut down,
which wakes the thread blocked reading it; `fired` then says why.
"""

from __future__ import annotations

import contextlib
import socket
import threading
import time
from typing import Any

IDLE = "idle"
TOTAL = "total"
FINISHED = "finished"
STOPPED = "stopped"


class Deadline:
    def __init__(self, idle_s: float, total_s: float) -> None:
        now = time.monotonic()
        self.idle_s = idle_s
        self.total_s = total_s
        self.fired: str | None = None
        self._idle_until = now + idle_s
        self._total_until = now + total_s
        self._finish_until: float | None = None
        self._socket: socket.socket | None = None
        self._closed = False
        self._cond = threading.Condition()
        self._thread = threading.Thread(target=self._watch, name="server-deadline", daemon=True)
        self._thread.start()

    def __enter__(self) -> Deadline:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def trace(self, name: str, info: dict[str, Any]) -> None:
        """httpx2's `trace` extension: takes the socket as soon as it is connected, so the
        limits hold from the first byte on, headers included."""
        if name == "connection.connect_tcp.complete":
            stream = info.get("return_value")
            sock = stream.get_extra_info("socket") if stream is not None else None
            if isinstance(sock, socket.socket):
                with self._cond:
                    self._socket = sock
                    fired = self.fired is not None
                if fired:
                    _shut(sock)

    def progress(self) -> None:
        """A part of the answer came: the idle limit starts again (never past the others)."""
        with self._cond:
            self._idle_until = time.monotonic() + self.idle_s

    def finishing(self, grace_s: float) -> None:
        """The answer is finished: what follows it must come within `grace_s`."""
        with self._cond:
            if self._finish_until is None:
                self._finish_until = time.monotonic() + grace_s
                self._cond.notify()

    def stop(self) -> None:
        """End the request now, from any thread (Stop)."""
        self._fire(STOPPED)

    def close(self) -> None:
        with self._cond:
            self._closed = True
            self._cond.notify()
        self._thread.join()

    def _watch(self) -> None:
        with self._cond:
            while not self._closed and self.fired is None:
                limits = [(self._idle_until, IDLE), (self._total_until, TOTAL)]
                if self._finish_until is not None:
                    limits.append((self._finish_until, FINISHED))
                until, kind = min(limits)
                left = until - time.monotonic()
                if left > 0:
                    self._cond.wait(left)
                    continue
                self.fired = kind
                sock = self._socket
                if sock is not None:
                    _shut(sock)

    def _fire(self, kind: str) -> None:
        with self._cond:
            if self.fired is None:
                self.fired = kind
            sock = self._socket
            self._cond.notify()
        if sock is not None:
            _shut(sock)


def _shut(sock: socket.socket) -> None:
    # Closing a socket does not wake a thread blocked reading it; shutting it down does (the
    # read then ends at once).
    with contextlib.suppress(OSError):
        sock.shutdown(socket.SHUT_RDWR)

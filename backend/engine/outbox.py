"""An answer's events sent to the window from a thread of their own, in batches.

Pickling steps and writing them to the pipe, done on the decoding thread, is time llama.cpp
waits for; at a GPU's rates every such microsecond a token counts. The events reach the sender
through a `CoalescingQueue`, which wakes it at most every `WAKE_EVERY_S` (each wake costs the
decoding thread, coalescing_queue.py), and it sends all it finds as one `("events", [...])`
message: at 1,000 tokens/s a message carries a frame's steps, and the window's worker and GUI
thread are woken about as often as the window draws, not once a token. An event that is not a
step (the answer starting, ending, failing) is sent at once.
"""

from __future__ import annotations

import threading
from multiprocessing.connection import Connection
from typing import Any

from backend.engine.coalescing_queue import CoalescingQueue
from backend.engine.events import StepVerified

# About the longest a step waits to be sent: one frame of the window (16 ms), which draws what
# arrived once a frame whatever it is sent in. Sent every 5 ms, a fast model's steps woke the
# window's two threads ~250 times a second for nothing it shows sooner: time that, on a CPU
# whose every core runs one of llama.cpp's lock-stepped threads, the model waits for.
WAKE_EVERY_S = 0.016

_DONE = object()


class Outbox:
    def __init__(self, conn: Connection) -> None:
        self._conn = conn
        self._queue: CoalescingQueue[Any] = CoalescingQueue(WAKE_EVERY_S)
        self._failed: BaseException | None = None
        self._thread = threading.Thread(target=self._send_all, name="engine-outbox",
                                        daemon=True)
        self._thread.start()

    def put(self, event: Any) -> None:
        """Queue one event; the sender's failure (the window gone), raised here."""
        if self._failed is not None:
            raise self._failed
        self._queue.put(event, wake=type(event) is not StepVerified)

    def close(self) -> None:
        """Send what is queued and stop the sender; its failure, raised here."""
        self._queue.put(_DONE, wake=True)
        self._thread.join()
        if self._failed is not None:
            raise self._failed

    def _send_all(self) -> None:
        done = False
        while not done:
            events = self._queue.get_all()
            if events[-1] is _DONE:
                events.pop()
                done = True
            if events and self._failed is None:
                try:
                    self._conn.send(("events", events))
                except BaseException as exc:  # raised again on the caller's thread
                    self._failed = exc

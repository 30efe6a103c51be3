"""An answer's events sent to the window in batches, at most once a frame of the window.

Pickling steps and writing them to the pipe, done on the decoding thread, is time llama.cpp
waits for; at a GPU's rates every such microsecond a token counts. So where the engine has a core
to spare beside llama.cpp's threads (`GenerationStarted.spare_core`), a thread of their own sends
them: the events reach it through a `CoalescingQueue`, which wakes it at most once a frame
(frame_pace.py: each wake costs the decoding thread, coalescing_queue.py), and it sends all it
finds as one `("events", [...])` message: at 1,000 tokens/s a message carries a frame's steps,
and the window's worker and GUI thread are woken about as often as the window draws, not once a
token. Where no core is spare, that thread could only run on a core one of llama.cpp's
lock-stepped threads computes on, and its wakes cost the decoding more than the sending itself:
there the decoding thread sends, after the step that completes a frame (`generate` on two
cores at two threads, bench/generate_vs_llama.py --also: 1.02-1.03 times the rate with the
thread). A step put less than a frame after the last message waits for the next event: at most
one step. The window reads each message as it comes (slow motion holds steps on its side,
app/teaching/slow_motion.py), so the decoding thread does not wait for it; a terminal that stops
reading `generate` stops the answer there, as it stops llama.cpp's own command line.
An event that is not a step (the answer starting, ending, failing) is sent at once; the
answer's start says how long its frames are and whether a core is spare.

For the window (`fold`), each run of steps is sent folded into one `StepBatch` of flat lists
(token_log.py), as the window keeps them: pickled as events, a plain step with its inspection
record cost 5.9 µs here and 9.1 µs to read back and fold in the window's process, Python's own
work on each frozen dataclass; folded here, 2.2 µs, and read there in 0.2 µs.
"""

from __future__ import annotations

import threading
import time
from multiprocessing.connection import Connection
from typing import Any

from backend.engine.coalescing_queue import CoalescingQueue
from backend.engine.events import GenerationStarted, StepVerified
from backend.engine.frame_pace import FRAME_S, frame_s
from backend.engine.token_log import StepBatch, fold_steps

_DONE = object()
_STEPS = (StepVerified, StepBatch)  # a step, or steps the engine folded itself


class Outbox:
    def __init__(self, conn: Connection, *, fold: bool = False) -> None:
        self._conn = conn
        self._fold = fold
        self._queue: CoalescingQueue[Any] = CoalescingQueue(FRAME_S)
        self._failed: BaseException | None = None
        self._thread: threading.Thread | None = None  # the sender, once a core is spare
        self._inline = False  # sent by the caller's thread: no core is spare
        self._held: list[Any] = []  # inline: steps put since the last message
        self._sent_at = 0.0  # inline: when the last message was sent

    def put(self, event: Any) -> None:
        """Queue one event; the sender's failure (the window gone), raised here."""
        if self._failed is not None:
            raise self._failed
        if type(event) is GenerationStarted:
            self._queue.every = frame_s(event.spare_core)
            self._inline = not event.spare_core
        if self._inline:
            self._held.append(event)
            now = time.perf_counter()
            if type(event) not in _STEPS or now - self._sent_at >= self._queue.every:
                self._sent_at = now
                self._send_held()
            return
        if self._thread is None:
            self._thread = threading.Thread(target=self._send_all, name="engine-outbox",
                                            daemon=True)
            self._thread.start()
        self._queue.put(event, wake=type(event) not in _STEPS)

    def close(self) -> None:
        """Send what is queued and stop the sender; its failure, raised here."""
        if self._failed is None and self._held:
            self._send_held()
        if self._thread is not None:
            self._queue.put(_DONE, wake=True)
            self._thread.join()
        if self._failed is not None:
            raise self._failed

    def _send_held(self) -> None:
        events, self._held = self._held, []
        self._send(events)
        if self._failed is not None:
            raise self._failed

    def _send(self, events: list[Any]) -> None:
        try:
            self._conn.send(("events", fold_steps(events) if self._fold else events))
        except BaseException as exc:  # raised again on the caller's thread
            self._failed = exc

    def _send_all(self) -> None:
        done = False
        while not done:
            events = self._queue.get_all()
            if events[-1] is _DONE:
                events.pop()
                done = True
            if events and self._failed is None:
                self._send(events)

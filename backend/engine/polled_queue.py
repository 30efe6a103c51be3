"""A queue whose consumer looks for work on its own timer instead of being woken by each put.

Waking a thread that sleeps on another core sends that core an interrupt, and the thread that
wakes it pays for it: ~60 µs a wake on this project's 2-core VMs (a Firecracker guest; a few µs
on bare metal), against 2.5 µs for the same put when both threads share a core. The decoding
thread handing each step to a sleeping worker paid it every step: 4 % of a token at
1,000 tokens/s (bench/handoff_bench.py). Here a put only appends to a deque (one atomic call
under the GIL); a consumer that finds nothing sleeps at most `poll_s` on its own timer, so the
producer wakes nobody. `put(..., wake=True)` rings at once, for an item that must not wait (the
last of an answer, a sentinel, a backlog).

A consumer left without items for `idle_s` stops polling and sleeps until rung, so an engine
between answers costs nothing; the first put after that rings (once).
"""

from __future__ import annotations

import threading
import time
from collections import deque
from typing import Generic, TypeVar

T = TypeVar("T")


class PolledQueue(Generic[T]):
    def __init__(self, poll_s: float, idle_s: float = 0.5) -> None:
        self._items: deque[T] = deque()
        self._bell = threading.Event()
        self._poll_s = poll_s
        self._idle_s = idle_s
        self._dozing = False  # the consumer sleeps until rung, not on its timer
        self._last_item = time.monotonic()

    def __len__(self) -> int:
        return len(self._items)

    def put(self, item: T, *, wake: bool = False) -> None:
        self._items.append(item)
        # read after the append: a consumer that set _dozing before this read finds the item
        # when it looks again (it looks after setting it, before it sleeps)
        if wake or self._dozing:
            self._bell.set()

    def ring(self) -> None:
        """Wake the consumer now, to look for what was put without waking it."""
        self._bell.set()

    def get(self) -> T:
        """The oldest item, waiting for one."""
        while True:
            if self._items:
                self._last_item = time.monotonic()
                return self._items.popleft()
            self._wait()

    def get_all(self) -> list[T]:
        """Every item queued, oldest first, waiting for at least one."""
        first = self.get()
        items = [first]
        while self._items:
            items.append(self._items.popleft())
        return items

    def _wait(self) -> None:
        if time.monotonic() - self._last_item < self._idle_s:
            self._bell.wait(self._poll_s)
        else:
            self._dozing = True
            if not self._items:
                self._bell.wait()
            self._dozing = False
        self._bell.clear()  # an item put since is found by the caller's next look

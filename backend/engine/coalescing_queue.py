"""A queue that wakes its consumer at most once every `wake_every_s` however often it is fed.

Waking a thread that sleeps on another core sends that core an interrupt, and the thread that
wakes it pays: ~50 µs a wake on this project's 2-core VMs (a Firecracker guest; a few µs on
bare metal) against 2 µs for a put that wakes nobody (bench/handoff_bench.py). The decoding
thread handing each step to a sleeping worker paid it every step: 3-4 % of a token at
1,000 tokens/s. A consumer that polled on a timer instead cost nothing on the decoding thread,
but its wakes, hundreds a second, landed on the cores llama.cpp's threads compute on when it
uses all of them (n-gram drafting on the demo pair at 2 threads: 0.95 of llama.cpp's own tool
against 0.98). So here a put rings only when `wake_every_s` has passed since the last ring (or
when asked: an item that must not wait), and the consumer sleeps until rung: one wake a step
when steps are slower than that, one every `wake_every_s` when they are faster.

An item put without a ring is found when the consumer next looks: it finishes what it was
rung for, then waits up to `wake_every_s` more for such items before it sleeps until rung.
"""

from __future__ import annotations

import threading
import time
from collections import deque
from typing import Generic, TypeVar

T = TypeVar("T")


class CoalescingQueue(Generic[T]):
    def __init__(self, wake_every_s: float) -> None:
        self._items: deque[T] = deque()
        self._bell = threading.Event()
        self.every = wake_every_s  # may be changed while in use: read at each put and look
        self._last_ring = -wake_every_s

    def put(self, item: T, *, wake: bool = False) -> None:
        self._items.append(item)
        now = time.perf_counter()
        if wake or now - self._last_ring >= self.every:
            self.ring(now)

    def ring(self, now: float | None = None) -> None:
        """Wake the consumer now, to take what was put without waking it."""
        self._last_ring = time.perf_counter() if now is None else now
        self._bell.set()

    def get(self) -> T:
        """The oldest item, waiting for one."""
        trailing = True  # a look for items put without a ring, before sleeping until rung
        while not self._items:
            self._bell.wait(self.every if trailing else None)
            trailing = self._bell.is_set()
            self._bell.clear()  # an item put since is found by the next look
        return self._items.popleft()

    def get_all(self) -> list[T]:
        """Every item queued, oldest first, waiting for at least one."""
        items = [self.get()]
        while self._items:
            items.append(self._items.popleft())
        return items

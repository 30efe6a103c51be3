"""Slow motion for a live answer on stage: the engine's steps shown at most one per delay.

The pacing is display-only. The worker keeps reading the engine at full speed (an engine
blocked on a full pipe would count the wait in its own timings), holds the steps that are
not due yet, and lets them out on schedule; so every number shown is still the engine's own.
Qt-free: the schedule is tested with a fake clock.
"""

from __future__ import annotations

import time
from collections import deque
from collections.abc import Callable, Iterable, Iterator

from backend.engine.events import StepVerified

# The View menu's choices, in seconds per step (0: off).
STEP_DELAYS_S = (0.0, 0.1, 0.25, 0.5, 1.0, 2.0)
NAP_S = 0.05


def paced(groups: Iterable[list], delay_s: Callable[[], float],
          cancelled: Callable[[], bool] = lambda: False,
          clock: Callable[[], float] = time.monotonic,
          sleep: Callable[[float], None] = time.sleep) -> Iterator[list]:
    """The engine's event groups re-cut so that steps come out `delay_s()` apart, other events
    in their place between them. `delay_s` is read as it goes (the menu may change it
    mid-answer; 0 lets everything held out at once), and a cancelled answer is flushed."""
    held: deque = deque()
    due = clock()

    def release(final: bool) -> Iterator[list]:
        nonlocal due
        out: list = []
        while held:
            delay = 0.0 if cancelled() else delay_s()
            if type(held[0]) is StepVerified and delay > 0:
                if clock() < due:
                    if not final:
                        break  # not due yet: the next read of the engine may let it out
                    if out:
                        yield out
                        out = []
                        continue  # the viewer may have stopped the answer meanwhile
                    # short naps, so that Stop (cancelled) is heard within one
                    sleep(min(NAP_S, due - clock()))
                    continue
                due = max(due, clock()) + delay
            out.append(held.popleft())
        if out:
            yield out

    for group in groups:
        held.extend(group)
        yield from release(final=False)
    yield from release(final=True)

"""The cores this process may use, and the threads llama.cpp gets when none are asked for.

llama.cpp's own tools default to one thread a physical core (common's cpu_get_num_math):
two threads on the two logical CPUs of one core mostly wait for the same execution units, and
the logical CPUs left over serve the steps' events (step_events.py), the outbox and the window.
Every logical CPU, as before, made llama.cpp slower than its own tools on a machine with
hyper-threading and left nothing beside it.
"""

from __future__ import annotations

import os

import psutil


def usable_cores() -> int:
    """The logical CPUs this process may run on."""
    if hasattr(os, "sched_getaffinity"):
        return max(1, len(os.sched_getaffinity(0)))
    return max(1, os.cpu_count() or 1)


def physical_cores() -> int:
    """The physical cores this process may use (no more than its logical CPUs); every usable
    logical CPU where the physical count is unknown."""
    usable = usable_cores()
    return max(1, min(psutil.cpu_count(logical=False) or usable, usable))


def default_threads() -> int:
    """One a physical core."""
    return physical_cores()


def spare_physical_cores(busy: int) -> int:
    """The physical cores left beyond `busy` (llama.cpp's decoding threads, one a core as
    `default_threads` gives them)."""
    return physical_cores() - busy

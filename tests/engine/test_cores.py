"""The threads llama.cpp gets by default: one a physical core, as llama.cpp's own tools give,
never more than the process may use (backend/engine/cores.py)."""

from __future__ import annotations

import os

import pytest

from backend.engine import cores


@pytest.mark.parametrize(("physical", "usable", "threads"), [
    (8, 16, 8),  # hyper-threading: the second logical CPU of each core is left free
    (2, 2, 2),
    (8, 4, 4),  # a process held to 4 CPUs (taskset, a container)
    (None, 6, 6),  # psutil cannot tell: every usable CPU
])
def test_default_threads(monkeypatch, physical, usable, threads):
    monkeypatch.setattr(cores.psutil, "cpu_count",
                        lambda logical=True: usable * 2 if logical else physical)
    monkeypatch.setattr(cores, "usable_cores", lambda: usable)
    assert cores.default_threads() == threads


def test_usable_cores_follow_the_affinity_where_there_is_one(monkeypatch):
    if hasattr(os, "sched_getaffinity"):
        monkeypatch.setattr(os, "sched_getaffinity", lambda pid: {0, 2, 5})
        assert cores.usable_cores() == 3
    monkeypatch.delattr(os, "sched_getaffinity", raising=False)
    monkeypatch.setattr(os, "cpu_count", lambda: 12)
    assert cores.usable_cores() == 12

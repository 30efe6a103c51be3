"""How often a streaming answer is shown: the window draws it at most once a frame, and the
engine process sends its steps once a frame, so each of the window's two threads (the engine
link's and the GUI's) wakes about once a frame however fast the model writes.

A frame is 16 ms where a core is spare beside llama.cpp's threads (`GenerationStarted.spare_core`)
and 33 ms where there is none: there every wake of the window lands on a core that one of
llama.cpp's lock-stepped threads computes on, and the model waits for it. On lv-target at two
threads on two cores (bench/ui_bench.py) the window's process took 25 % of a core with steps sent
every 16 ms and drawn every 33 ms, 18-19 % with both at 33 ms (docs/BENCHMARKS.md).
"""

from __future__ import annotations

FRAME_S = 0.016
BUSY_FRAME_S = 0.033  # video's rate: a fast stream still moves smoothly


def frame_s(spare_core: bool) -> float:
    """A frame's length for an answer, by whether its engine has a core to spare."""
    return FRAME_S if spare_core else BUSY_FRAME_S

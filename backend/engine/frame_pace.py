"""How often a streaming answer is shown: the window draws it at most once a frame, and the
engine process sends its steps once a frame, so each of the window's two threads (the engine
link's and the GUI's) wakes about once a frame however fast the model writes.

A frame is 16 ms where a core is spare beside llama.cpp's threads (`GenerationStarted.spare_core`)
and 100 ms where there is none: there every wake of the window, of `generate` and of whatever
reads its output lands on a core that one of llama.cpp's lock-stepped threads computes on, and
the model waits for it, about a millisecond a frame whatever its rate. On lv-target at two
threads on two cores (docs/BENCHMARKS.md), against 33 ms frames: `generate` 1.04 times as fast
(bench/generate_vs_llama.py --also, two runs), the window's process 5-6 % of a core instead of
8-9 % on a plain answer and 7 % instead of 10-11 % drafting (bench/ui_bench.py --large-vocab).
Ten frames a second still move; the answer's numbers are redrawn four times a second anyway.
"""

from __future__ import annotations

FRAME_S = 0.016
BUSY_FRAME_S = 0.100


def frame_s(spare_core: bool) -> float:
    """A frame's length for an answer, by whether its engine has a core to spare."""
    return FRAME_S if spare_core else BUSY_FRAME_S

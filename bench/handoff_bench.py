"""What handing a step to a worker thread costs the thread that decodes.

    python bench/handoff_bench.py [--steps N] [--rounds R]

The producer stands in for the engine's decoding thread: each "step" it puts one job and then
computes for ~1.5 ms with the GIL released (numpy over a large array, as llama_decode runs:
its core busy, not asleep). The consumer does a trivial job per item. Measured on the producer,
per put, medians of interleaved rounds:
- `SimpleQueue` with a consumer blocked in `get()`: every put wakes a thread asleep on the
  other core (an inter-processor interrupt, paid by the waker);
- `CoalescingQueue` (backend/engine/coalescing_queue.py): a ring at most every 8 ms.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import threading
import time
from pathlib import Path
from queue import SimpleQueue

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from backend.engine.coalescing_queue import CoalescingQueue

WORK = np.random.default_rng(0).random(1_000_000, dtype=np.float32)
OUT = np.empty_like(WORK)


def decode_for(ms: float) -> None:
    """Compute with the GIL released for about `ms` (numpy's loops release it)."""
    end = time.perf_counter() + ms / 1000
    while time.perf_counter() < end:
        np.exp(WORK, out=OUT)


def measure(queue, get, steps: int) -> float:
    """Mean µs a put takes on the producer over `steps` steps."""
    done = threading.Event()

    def consume():
        while get() is not None:
            pass
        done.set()

    threading.Thread(target=consume, daemon=True).start()
    spent = 0.0
    for _ in range(steps):
        t0 = time.perf_counter()
        queue.put(1)
        spent += time.perf_counter() - t0
        decode_for(1.5)
    if isinstance(queue, CoalescingQueue):
        queue.put(None, wake=True)
    else:
        queue.put(None)
    done.wait(10)
    return 1e6 * spent / steps


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--steps", type=int, default=400)
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()
    rows: dict[str, list[float]] = {"SimpleQueue, consumer blocked": [],
                                    "CoalescingQueue, 8 ms": []}
    for _ in range(args.rounds):
        simple: SimpleQueue = SimpleQueue()
        rows["SimpleQueue, consumer blocked"].append(measure(simple, simple.get, args.steps))
        coalescing: CoalescingQueue = CoalescingQueue(0.008)
        rows["CoalescingQueue, 8 ms"].append(measure(coalescing, coalescing.get, args.steps))
    print(f"µs a put costs the producer ({args.steps} steps of ~1.5 ms, {args.rounds} rounds: "
          "median [lowest-highest])")
    for name, values in rows.items():
        print(f"  {name:32} {statistics.median(values):7.1f} "
              f"[{min(values):.1f}-{max(values):.1f}]")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

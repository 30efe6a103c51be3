"""What each n-gram lookup costs a step, beside a short and a long conversation.

    python bench/lookup_step_bench.py [--steps 200] [--lengths 2000 32000]

Each drafter proposes after a random history of N tokens grown by five tokens a step (an
accepted draft or two and the target's token), as the engine calls it within an answer; µs a
step, medians of three runs. A lookup's own search may grow with the history (llama.cpp's
does too); nothing else should.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import numpy as np

from backend.engine.drafters import ngram, ngram_cache, ngram_map, ngram_mod
from backend.engine.drafters.base import DraftingSetup
from backend.engine.request import GenerationRequest

MAKERS = {"ngram": ngram.make, "ngram-map-k": ngram_map.make_k,
          "ngram-map-k4v": ngram_map.make_k4v, "ngram-mod": ngram_mod.make,
          "ngram-cache": ngram_cache.make}


def step_us(make, length: int, steps: int, seed: int) -> float:
    rng = random.Random(seed)
    drafter = make(DraftingSetup.__new__(DraftingSetup))  # the lookups read nothing of it
    history = [rng.randrange(5000) for _ in range(length)]
    drafter.begin(GenerationRequest(prompt="x"), np.random.default_rng(0))
    drafter.propose(history, 8)  # the prompt, read once
    t0 = time.perf_counter()
    for _ in range(steps):
        history.extend(rng.randrange(5000) for _ in range(5))
        drafter.propose(history, 8)
    return 1e6 * (time.perf_counter() - t0) / steps


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--steps", type=int, default=200)
    parser.add_argument("--lengths", type=int, nargs="+", default=[2000, 32000])
    args = parser.parse_args()
    for name, make in MAKERS.items():
        cells = [f"{statistics.median(step_us(make, n, args.steps, s) for s in range(3)):6.0f}"
                 for n in args.lengths]
        print(f"{name:14}" + "".join(f"  {n:>6} tokens: {c} µs" for n, c in
                                     zip(args.lengths, cells, strict=True)))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

"""The engine's own work per verified row at large vocabularies: reading a greedy row's choice,
the probability of its token and its top five (sampling.GreedyRow) beside the direct way, a
float64 softmax of the whole row and five argmax passes over a copy.

    python bench/greedy_row_bench.py [--rounds N]

At GPU token rates (1–8 ms a token) this is the part of a step Draftlight adds to llama.cpp's;
a verified row is read once per token kept. Logits: a peaked row like a model's (one token
far ahead, the rest a spread of a few nats), float32 as llama.cpp returns them. Printed: ms per
row for each way and vocabulary, interleaved rounds, medians, and their ratio.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from backend.engine.sampling import GreedyRow, top

VOCABS = (49_152, 151_936, 262_144)  # SmolLM2, Qwen 2/3, Gemma 3


def direct(logits: np.ndarray) -> tuple[int, float, list]:
    e = (logits - logits.max()).astype(np.float64)
    np.exp(e, out=e)
    e /= e.sum()
    best = int(np.argmax(e))
    return best, float(e[best]), top(e)


def by_row(logits: np.ndarray) -> tuple[int, float, list]:
    row = GreedyRow(logits)
    return row.best, row.p(row.best), row.top()


def per_row_ms(fn, logits: np.ndarray, n: int) -> float:
    t = time.perf_counter()
    for _ in range(n):
        fn(logits)
    return 1000 * (time.perf_counter() - t) / n


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--rows", type=int, default=50)
    args = parser.parse_args()
    rng = np.random.default_rng(0)
    for vocab in VOCABS:
        logits = (rng.standard_normal(vocab) * 2.5).astype(np.float32)
        logits[vocab // 3] = 18.0
        assert direct(logits)[0] == by_row(logits)[0]
        times: dict[str, list[float]] = {"direct": [], "row": []}
        for r in range(args.rounds):  # interleaved, the order alternating
            for name in (("direct", "row") if r % 2 else ("row", "direct")):
                times[name].append(per_row_ms(direct if name == "direct" else by_row, logits,
                                              args.rows))
        d, g = statistics.median(times["direct"]), statistics.median(times["row"])
        ratios = [a / b for a, b in zip(times["row"], times["direct"], strict=True)]
        print(f"vocabulary {vocab:>7,}: float64 softmax + top five {d:.3f} ms, GreedyRow "
              f"{g:.3f} ms a row: {g / d:.2f} of it (rounds {min(ratios):.2f}–{max(ratios):.2f})")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

"""The engine's own work per verified row at large vocabularies: reading a greedy row's choice,
the probability of its token and its top five (sampling.GreedyRow: one pass in C, and numpy's
passes where the C module is not built) beside the direct way, a float64 softmax of the whole
row and five argmax passes over a copy.

    python bench/greedy_row_bench.py [--rounds N]

At GPU token rates (1–8 ms a token) this is the part of a step Draftlight adds to llama.cpp's;
a verified row is read once per token kept. Logits: a peaked row like a model's (one token
far ahead, the rest a spread of a few nats), float32 as llama.cpp returns them. Printed: ms per
row for each way and vocabulary, interleaved rounds, medians, and each ratio to the direct way
(median of the rounds' ratios, their range).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from backend.engine import row_stats
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


def by_numpy_row(logits: np.ndarray) -> tuple[int, float, list]:
    """GreedyRow as it reads a row where the C module was not built."""
    built, row_stats._row_stats = row_stats._row_stats, None
    try:
        return by_row(logits)
    finally:
        row_stats._row_stats = built


WAYS = {"direct": direct, "numpy": by_numpy_row, "C": by_row}


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
        assert direct(logits)[0] == by_row(logits)[0] == by_numpy_row(logits)[0]
        times: dict[str, list[float]] = {name: [] for name in WAYS}
        for r in range(args.rounds):  # interleaved, each round starting one way further on
            names = list(WAYS)
            for name in names[r % 3 :] + names[: r % 3]:
                times[name].append(per_row_ms(WAYS[name], logits, args.rows))
        d = statistics.median(times["direct"])
        line = f"vocabulary {vocab:>7,}: float64 softmax + top five {d:.3f} ms"
        for name in ("numpy", "C"):
            ratios = [a / b for a, b in zip(times[name], times["direct"], strict=True)]
            line += (f"; GreedyRow, {name} {statistics.median(times[name]):.3f} ms, "
                     f"{statistics.median(ratios):.2f} ({min(ratios):.2f}–{max(ratios):.2f})")
        print(line)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

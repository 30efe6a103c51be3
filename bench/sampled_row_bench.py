"""The engine's own work per sampled token at a 151,936-token vocabulary: the sampler's rows
(sampling.sampled_row) beside the way they replace, kept here as it was (a dense float64
vector per row, a full sort for top-p without top-k, top five by argmax passes, an
inverse-CDF draw over the whole vector).

    python bench/sampled_row_bench.py [--rounds N] [--tokens N]

Two units of work, each timed both ways on the same logits with the same seeds:
- a plain token: the target's row, its draw, the drawn token's probability, its top five;
- a verified draft token: the drafter's row (its draw, q(x), its peak, its top five), the
  target's row (p(x), its top five), the acceptance test and, after a rejection, the
  residual and its draw.
Logits: float32 rows like a model's (a head of a few dozen candidates ahead of a spread of
152k), the drafter's the target's disturbed. Printed: ms per token each way, and new ÷ old as
the median of interleaved rounds (their order alternating) with the rounds' range. Times are
the process's CPU time, which other work on a shared machine disturbs less than the clock's.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))

from engine.float64_sampler import ref_distribution, ref_residual, ref_sample, ref_top

from backend.engine import sampling, verify
from backend.engine.request import SamplingSettings

VOCAB = 151_936
SETTINGS = {
    "T 0.8, top-k 40, top-p 0.95": SamplingSettings(temperature=0.8, top_k=40, top_p=0.95,
                                                    min_p=0.0),
    "T 1.0, no cut": SamplingSettings(temperature=1.0, top_k=0, top_p=1.0, min_p=0.0),
    "T 1.0, top-p 0.95 (no top-k)": SamplingSettings(temperature=1.0, top_k=0, top_p=0.95,
                                                     min_p=0.0),
}

# -- the old way, as sampling.py and verify.py had it (tests/engine/float64_sampler.py) -----

old_distribution, old_top, old_sample = ref_distribution, ref_top, ref_sample
old_residual = ref_residual


def old_plain(lg: np.ndarray, s: SamplingSettings, rng: np.random.Generator) -> int:
    d = old_distribution(lg, s, ())
    token = old_sample(d, rng)
    float(d[token])
    old_top(d)
    return token


def new_plain(lg: np.ndarray, s: SamplingSettings, rng: np.random.Generator) -> int:
    row = sampling.sampled_row(lg, s, ())
    token = row.draw(rng)
    row.p(token)
    row.top()
    return token


def old_draft(lp: np.ndarray, lq: np.ndarray, s: SamplingSettings,
              rng: np.random.Generator) -> int:
    q = old_distribution(lq, s, ())
    x = old_sample(q, rng)
    qx, _ = float(q[x]), float(q.max())
    old_top(q)
    p = old_distribution(lp, s, ())
    px = float(p[x])
    old_top(p)
    if rng.random() * qx < px:
        return x
    r = old_residual(p, q, x)
    token = old_sample(r, rng)
    float(r[token])
    return token


def new_draft(lp: np.ndarray, lq: np.ndarray, s: SamplingSettings,
              rng: np.random.Generator) -> int:
    q = sampling.sampled_row(lq, s, ())
    x = q.draw(rng)
    qx, _ = q.p(x), q.peak()
    q.top()
    p = sampling.sampled_row(lp, s, ())
    px = p.p(x)
    p.top()
    if rng.random() * qx < px:
        return x
    r = verify.residual(p, q, x)
    token = r.draw(rng)
    r.p(token)
    return token


def model_rows(n_rows: int, seed: int = 0) -> list[tuple[np.ndarray, np.ndarray]]:
    """(target, drafter) float32 logits like a model's: a head of a few dozen candidates
    falling from 17–22, the rest of the vocabulary around 0 (σ 2.5), about 1% of the mass
    at temperature 1; the drafter's row is the target's disturbed (σ 0.7)."""
    rng = np.random.default_rng(seed)
    rows = []
    for _ in range(n_rows):
        lp = rng.standard_normal(VOCAB).astype(np.float32) * 2.5
        head = rng.uniform(17.0, 22.0) - np.cumsum(rng.exponential(0.4, 40))
        lp[rng.choice(VOCAB, head.shape[0], replace=False)] = head
        lq = lp + rng.standard_normal(VOCAB).astype(np.float32) * 0.7
        rows.append((lp, lq))
    return rows


def timed_ms(fn: Callable[[np.random.Generator], list[int]], seed: int) -> tuple[float, list[int]]:
    rng = np.random.default_rng(seed)
    t = time.process_time()
    tokens = fn(rng)
    return 1000 * (time.process_time() - t), tokens


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=9)
    parser.add_argument("--tokens", type=int, default=8, help="rows (tokens) per round")
    args = parser.parse_args()
    rows = model_rows(args.tokens)
    print(f"vocabulary {VOCAB:,}; {args.rounds} interleaved rounds of {args.tokens} tokens")
    for name, s in SETTINGS.items():
        units = {
            "plain token": {
                "old": lambda rng, s=s: [old_plain(lp, s, rng) for lp, _ in rows],
                "new": lambda rng, s=s: [new_plain(lp, s, rng) for lp, _ in rows]},
            "verified draft token": {
                "old": lambda rng, s=s: [old_draft(lp, lq, s, rng) for lp, lq in rows],
                "new": lambda rng, s=s: [new_draft(lp, lq, s, rng) for lp, lq in rows]},
        }
        for unit, ways in units.items():
            times: dict[str, list[float]] = {"old": [], "new": []}
            same = 0
            for r in range(args.rounds):
                tokens = {}
                for way in (("old", "new") if r % 2 else ("new", "old")):
                    ms, tokens[way] = timed_ms(ways[way], r)
                    times[way].append(ms / len(rows))
                same += sum(a == b for a, b in zip(tokens["old"], tokens["new"], strict=True))
            # the same seeds draw the same tokens both ways (a FullRow's float32 running sum
            # may put one draw in a few hundred in a neighbouring token)
            assert same >= 0.95 * args.rounds * len(rows), same
            ratios = [b / a for a, b in zip(times["old"], times["new"], strict=True)]
            old, new = statistics.median(times["old"]), statistics.median(times["new"])
            print(f"{name:30} {unit:21} old {old:7.3f} ms, new {new:6.3f} ms a token: "
                  f"new/old {statistics.median(ratios):.3f} "
                  f"(rounds {min(ratios):.3f}–{max(ratios):.3f})")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

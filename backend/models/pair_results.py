"""What measuring a target's ways to speculate found (pair_measure.py), and their order.

Frozen values, kept as JSON by pair_store.py and read back checked: per candidate its rows
(plain decoding, fixed K, K auto), α by draft position, the drafter's and the verification's
costs and the advisor's predictions; and `rank`, every way measured for a target, plain
decoding included, fastest first, each with the K to use.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from backend import spec_types
from backend.words import Words, words

SLOWER_THAN_PLAIN = ("Slower than plain decoding on this machine ({speedup:.2f}× its speed): "
                     "plain decoding is faster.")


@dataclass(frozen=True)
class Alpha:
    """How drafts fared at one position (1-based) of the longest fixed K's drafts."""

    position: int
    n_reached: int
    n_accepted: int

    @property
    def alpha(self) -> float | None:
        return self.n_accepted / self.n_reached if self.n_reached else None


@dataclass(frozen=True)
class Row:
    """One way to decode (spec type "none": plain decoding), over the three prompts."""

    spec_type: str
    k: int  # the fixed K; 0: K auto (plain decoding: 0)
    n_tokens: int
    generation_ms: float
    n_steps: int
    n_drafted: int
    n_accepted: int
    draft_ms: float
    verify_ms: float
    predicted: float | None = None  # the advisor's speedup at this K from this row's steps

    @property
    def tokens_per_second(self) -> float:
        return 1000.0 * self.n_tokens / self.generation_ms if self.generation_ms else 0.0

    @property
    def acceptance_rate(self) -> float:
        return self.n_accepted / self.n_drafted if self.n_drafted else 0.0


@dataclass(frozen=True)
class PairMeasurement:
    """One candidate measured: its rows, α, costs, and the advisor's view after K auto."""

    spec_type: str
    candidate: str  # the candidate's name ("" for n-gram lookup)
    measured_on: str  # ISO date
    tokens: int  # the budget of each answer
    rows: tuple[Row, ...]  # plain decoding first, then the fixed Ks, then K auto
    alphas: tuple[Alpha, ...]
    draft_ms_per_token: float | None  # the drafter's cost
    cost_ratio: float | None  # c: that cost over a plain step
    verify_ms_intercept: float | None  # the verification's cost: ms ≈ intercept + slope·batch
    verify_ms_per_token: float | None
    verify_cost: float | None  # β: one more verified token over a plain step
    advised_k: int | None  # the advisor's K after K auto's steps, None when it cannot say
    predicted_speedup: float | None  # …and its speedup there

    @property
    def plain(self) -> Row:
        return self.rows[0]

    @property
    def auto(self) -> Row:
        return self.rows[-1]

    @property
    def best_fixed(self) -> Row:
        return max(self.rows[1:-1], key=lambda r: (r.tokens_per_second, -r.k))

    def speedup(self, row: Row) -> float:
        plain = self.plain.tokens_per_second
        return row.tokens_per_second / plain if plain else 0.0

    @property
    def best(self) -> Row:
        """The row to use: K auto, unless a fixed K measured faster."""
        fixed = self.best_fixed
        return fixed if fixed.tokens_per_second > self.auto.tokens_per_second else self.auto

    def predicted(self, row: Row) -> float | None:
        """The advisor's speedup beside `row`'s: K auto's is its advice after K auto."""
        return self.predicted_speedup if row.k == 0 else row.predicted



@dataclass(frozen=True)
class RankedWay:
    """One way to decode a target, as `rank` orders them."""

    spec_type: str  # "none": plain decoding
    candidate: str  # the candidate's name ("" for plain decoding and n-gram lookup)
    k: int | None  # the K to use (0: K auto); None for plain decoding
    speedup: float  # measured, over plain decoding on the same prompts (plain: 1)
    predicted: float | None  # the advisor's, from the same steps
    measured_on: str  # ISO date ("" for plain decoding, measured beside each candidate)
    note: Words | None = None  # slower than plain decoding, said

    @property
    def label(self) -> str:
        spec = spec_types.get(self.spec_type)
        return spec.label if spec is not None else self.spec_type


def rank(measurements: Iterable[PairMeasurement]) -> tuple[RankedWay, ...]:
    """Plain decoding and each candidate's fastest row, fastest first; a tie goes to plain
    decoding (no gain is no reason to speculate), then to the spec types' order."""
    ways = [RankedWay(spec_types.PLAIN, "", None, 1.0, None, "")]
    for m in measurements:
        best = m.best
        speedup = m.speedup(best)
        note = words(SLOWER_THAN_PLAIN, speedup=speedup) if speedup < 1.0 else None
        ways.append(RankedWay(m.spec_type, m.candidate, best.k, speedup, m.predicted(best),
                              m.measured_on, note))
    order = spec_types.names()
    return tuple(sorted(ways, key=lambda w: (-w.speedup, w.spec_type != spec_types.PLAIN,
                                             order.index(w.spec_type)
                                             if w.spec_type in order else len(order),
                                             w.candidate)))

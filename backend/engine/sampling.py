"""The sampler transforms, in numpy, applied identically to the target's and the drafter's
logits so that speculative verification compares like with like.

Order as in llama.cpp's default chain: repeat penalty → top-k → top-p → min-p → temperature.
"""

from __future__ import annotations

import math
import threading
from collections.abc import Iterable, Sequence
from typing import Self

import numpy as np

from backend.engine import row_stats
from backend.engine.request import SamplingSettings


def penalized(logits: np.ndarray, s: SamplingSettings, history: Sequence[int], *,
              in_place: bool = False) -> np.ndarray:
    """The logits after the repeat penalty over the last `repeat_last_n` tokens of history.
    Returns the input itself (no copy) when there is no penalty, and `in_place`, penalised:
    for a row of llama.cpp's output buffer, which nothing reads after the engine until the
    next decode writes it (a copy at 152k tokens costs 25-70 µs, ~5 % of a token at a GPU's
    rates, with the app's default penalty of 1.1)."""
    if s.repeat_penalty == 1.0 or s.repeat_last_n == 0 or not history:
        return logits
    tokens = set(history[-s.repeat_last_n :])
    if in_place and row_stats.penalize(logits, tokens, s.repeat_penalty):
        return logits
    recent = np.fromiter(tokens, dtype=np.int64)
    out = logits if in_place else logits.copy()
    vals = out[recent]
    out[recent] = np.where(vals > 0, vals / s.repeat_penalty, vals * s.repeat_penalty)
    return out


class _Recent:
    """The repeat penalty as a patch over logits read in place: the recent tokens, ascending,
    and their logits after it (the values `penalized` gives them; every other logit is its
    own). At most repeat_last_n tokens, where a penalised copy is the whole vocabulary."""

    __slots__ = ("ids", "vals")

    def __init__(self, logits: np.ndarray, s: SamplingSettings, history: Sequence[int]) -> None:
        self.ids = np.unique(np.asarray(history[-s.repeat_last_n :], dtype=np.int64))
        vals = logits[self.ids]
        self.vals = np.where(vals > 0, vals / s.repeat_penalty, vals * s.repeat_penalty)

    @classmethod
    def of(cls, logits: np.ndarray, s: SamplingSettings, history: Sequence[int]
           ) -> _Recent | None:
        if s.repeat_penalty == 1.0 or s.repeat_last_n == 0 or not history:
            return None
        return cls(logits, s, history)

    def patch(self, ids: np.ndarray, vals: np.ndarray) -> None:
        """Set `vals`, the logits of the ascending `ids`, to the penalised ones where a token
        is recent."""
        pos = np.minimum(np.searchsorted(ids, self.ids), ids.shape[0] - 1)
        hit = ids[pos] == self.ids
        vals[pos[hit]] = self.vals[hit]


def _values(lg: np.ndarray, recent: _Recent | None, ids: np.ndarray) -> np.ndarray:
    """The penalised logits of the ascending `ids`."""
    vals = lg[ids]
    if recent is not None:
        recent.patch(ids, vals)
    return vals


def greedy_token(logits: np.ndarray, s: SamplingSettings, history: Sequence[int]) -> int:
    return int(np.argmax(penalized(logits, s, history)))


TOP_N = 5  # how many of a distribution's most likely tokens the inspector lists
# A row whose largest logit is in this range has its log-sum-exp summed from exp(logit) itself,
# without subtracting the largest first (a pass fewer): the float32 sum of up to 2^24 tokens'
# exps below e^70 stays finite (under 4e37), and the logits whose exp goes subnormal (below
# -87.3) weigh under e^-47 of the largest's.
DIRECT_EXP = (-40.0, 70.0)
_SETTLING = threading.Lock()  # GreedyRow.settle: the decoding thread's and the events' worker's
_work = threading.local()  # each thread's float32 row for the exp pass (`_exp_row`)


def _exp_row(n: int) -> np.ndarray:
    """A float32 array of n entries that this thread's next exp pass may overwrite: a fresh
    0.6 MB array at 152k tokens a row costs its allocation and page faults, ~20 µs, each
    time (the decoding thread and the event worker each have their own)."""
    row = getattr(_work, "row", None)
    if row is None or row.shape[0] < n:
        row = _work.row = np.empty(n, np.float32)
    return row[:n]


class GreedyRow:
    """One row of logits as greedy decoding reads it: its choice (the argmax), and the model's
    own probabilities (softmax at temperature 1), which the inspector shows, given token by
    token from one log-sum-exp rather than as a whole vector.

    At a 152k vocabulary and GPU rates the engine's own work per token was the gap to
    llama.cpp's tools: a float64 softmax of the whole row and five argmax passes over its copy
    for the top five. Here the log-sum-exp and the top five come from one pass in C
    (row_stats.py, ~45 µs at 152k) or, without it, from numpy: one float32 exp pass into a
    reused row, summed pairwise in float32 (relative error ~2e-7 at 152k tokens against 1e-6
    asked), the top five picked among the logits the groups' maxima bound (`_ranked`). Either
    way the probabilities stay within 1e-6 of the float64 softmax
    (tests/engine/test_greedy_row.py); the argmax is the logits' own."""

    __slots__ = ("_detached", "_kept", "_lse", "_ticket", "_top", "best", "logits")

    def __init__(self, logits: np.ndarray, owner: object = None) -> None:
        """`owner`: the context whose output buffer `logits` views, where the row may be read
        in the background until that context settles it (row_stats.begin)."""
        self.logits: np.ndarray | None = logits
        self._kept: dict[int, float] = {}  # a detached row's logits by token
        self._detached = False
        self._top: tuple[tuple[int, float], ...] | None  # TOP_N (token, logit), from C
        self._lse: float | None  # without C, read when first asked (the choice needs none)
        self._ticket: int | None = None  # the background read under way
        started = row_stats.begin(logits, TOP_N, owner, self) if owner is not None else None
        if started is not None:
            self.best, self._ticket = started
            self._lse = self._top = None
            return
        # Everything at once in C: the engine reads every row it makes (verification stops
        # making rows at the first rejection), and the pass costs what an argmax and a copy did.
        stats = row_stats.read(logits, TOP_N)
        if stats is not None:
            self.best, self._lse, self._top = stats
        else:
            self.best = int(logits.argmax())  # the method: np.argmax adds ~3 µs of wrapping
            self._lse = self._top = None

    def settle(self) -> None:
        """The background read's results taken (waited for), before the buffer is written:
        by the context's next decode (row_stats.settle), or by whichever thread asks first.
        The ticket is cleared last, under the lock: a thread that sees none reads results."""
        with _SETTLING:
            ticket = self._ticket
            if ticket is None:
                return
            stats = row_stats.finish(ticket)
            logits = self.logits
            assert logits is not None  # kept until now, detached or not
            if stats is not None:
                _, self._lse, self._top = stats
                if self._detached:
                    self._kept = {**dict(self._top), **self._kept}
                    self.logits = None
            elif self._detached:  # never: begin refuses a row `read` would hand back
                self.logits = logits.copy()
            self._ticket = None

    def detach(self, tokens: Iterable[int] = ()) -> GreedyRow:
        """The row made its own, for a row that may be a view into llama.cpp's output buffer,
        which the next decode overwrites (the probabilities are read later, off the decoding
        thread): what C read of it and the logits of `tokens` (those whose p will be asked),
        where a copy of the row cost 20-55 µs and numpy's reading after it ~150 µs more; a
        copy where C could not read it. A penalised row is already a copy. A row still read
        in the background keeps its view until it is settled, which finishes the detaching."""
        logits = self.logits
        if logits is None or logits.base is None:
            return self
        if self._ticket is not None:
            self._kept = {t: float(logits[t]) for t in tokens}
            self._detached = True
        elif self._top is not None:
            self._kept = {**dict(self._top), **{t: float(logits[t]) for t in tokens}}
            self.logits = None
        else:
            self.logits = logits.copy()
        return self

    def _logit(self, token: int) -> float:
        if self._ticket is not None:
            self.settle()
        return self._kept[token] if self.logits is None else float(self.logits[token])

    @property
    def lse(self) -> float:
        if self._ticket is not None:
            self.settle()
        if self._lse is None:
            logits = self.logits
            assert logits is not None  # detached rows are read at once
            top = float(logits[self.best])
            if logits.dtype != np.float32:
                self._lse = top + math.log(float(np.exp(logits - top).sum(dtype=np.float64)))
            elif DIRECT_EXP[0] < top < DIRECT_EXP[1]:
                e = np.exp(logits, out=_exp_row(logits.shape[0]))
                self._lse = math.log(float(e.sum()))
            else:
                e = np.subtract(logits, np.float32(top), out=_exp_row(logits.shape[0]))
                self._lse = top + math.log(float(np.exp(e, out=e).sum()))
        assert self._lse is not None
        return self._lse

    def p(self, token: int) -> float:
        return math.exp(self._logit(token) - self.lse)

    def top(self, n: int = 0) -> list[tuple[int, float]]:
        """The n (TOP_N) most likely (token, probability) pairs, most likely first, ties by
        the lower id (zeros left out), as `top` gives them for a dense vector."""
        n = n or TOP_N
        lse = self.lse  # settles the row first
        if n <= TOP_N and self._top is not None:
            pairs = [(t, math.exp(v - lse)) for t, v in self._top[:n]]
        else:
            assert self.logits is not None, "a detached row keeps its top five only"
            pairs = [(int(i), math.exp(float(self.logits[i]) - lse))
                     for i in _ranked(self.logits, n)]
        return [(t, q) for t, q in pairs if q > 0.0]


def greedy_row(logits: np.ndarray, s: SamplingSettings, history: Sequence[int], *,
               in_place: bool = False, owner: object = None) -> GreedyRow:
    """The row after the repeat penalty, read greedily (GreedyRow); `in_place`: see
    `penalized`; `owner`: see GreedyRow."""
    return GreedyRow(penalized(logits, s, history, in_place=in_place), owner)


class _OwnRows:
    """A row made of arrays of its own (a sampler's distribution, never a view of llama.cpp's
    buffer): `detach`, which a GreedyRow needs, has nothing to copy."""

    __slots__ = ()

    def detach(self, tokens: Iterable[int] = ()) -> Self:
        return self


class ArgmaxRow(_OwnRows):
    """A greedy row where nothing shows its probabilities (a request without `inspect`): its
    argmax, as numpy gives it, and nothing of the vocabulary kept."""

    __slots__ = ("best",)

    def __init__(self, logits: np.ndarray) -> None:
        self.best = int(logits.argmax())

    def p(self, token: int) -> float:
        raise RuntimeError("a row read for its argmax alone has no probabilities")

    def top(self, n: int = 0) -> list[tuple[int, float]]:
        raise RuntimeError("a row read for its argmax alone has no top tokens")


def argmax_row(logits: np.ndarray, s: SamplingSettings, history: Sequence[int], *,
               in_place: bool = False) -> ArgmaxRow:
    """The row after the repeat penalty, read for its choice alone (ArgmaxRow)."""
    return ArgmaxRow(penalized(logits, s, history, in_place=in_place))


def verify_row(logits: np.ndarray, s: SamplingSettings, history: Sequence[int], *,
               owner: object, inspect: bool) -> GreedyRow | ArgmaxRow:
    """A greedy verify row of the target's, penalised in llama.cpp's buffer: read whole where
    the request shows what it reads (`inspect`), else for its argmax alone."""
    if inspect:
        return greedy_row(logits, s, history, in_place=True, owner=owner)
    return argmax_row(logits, s, history, in_place=True)


class DenseRow(_OwnRows):
    """A dense probability vector read as a row: what `verify_sampled` is given by callers
    that hold whole vectors (tests, and rows made by `distribution`)."""

    __slots__ = ("probs",)

    def __init__(self, probs: np.ndarray) -> None:
        self.probs = probs

    def p(self, token: int) -> float:
        return float(self.probs[token])

    def top(self, n: int = 0) -> list[tuple[int, float]]:
        return top(self.probs, n or TOP_N)

    def peak(self) -> float:
        return float(self.probs.max())

    def draw(self, rng: np.random.Generator) -> int:
        return sample(self.probs, rng)

    def dense(self) -> np.ndarray:
        return self.probs


class KeptRow(_OwnRows):
    """The sampler's distribution when a cut (top-k, top-p, min-p) keeps a few tokens: their
    ids, ascending, and probabilities (float64, none zero). A draw is the inverse CDF in id
    order over them, the same number for the same u as over the dense vector, whose zeros add
    nothing to its running sum."""

    __slots__ = ("ids", "n_vocab", "probs")

    def __init__(self, ids: np.ndarray, probs: np.ndarray, n_vocab: int) -> None:
        nonzero = probs > 0.0
        if not nonzero.all():
            ids, probs = ids[nonzero], probs[nonzero]
        self.ids, self.probs, self.n_vocab = ids, probs, n_vocab

    def at(self, tokens: np.ndarray) -> np.ndarray:
        """The probabilities of `tokens` (zero for those not kept)."""
        i = np.minimum(np.searchsorted(self.ids, tokens), self.ids.shape[0] - 1)
        return np.where(self.ids[i] == tokens, self.probs[i], 0.0)

    def p(self, token: int) -> float:
        i = int(np.searchsorted(self.ids, token))
        return float(self.probs[i]) if i < self.ids.shape[0] and self.ids[i] == token else 0.0

    def top(self, n: int = 0) -> list[tuple[int, float]]:
        order = np.lexsort((self.ids, -self.probs))[: n or TOP_N]
        return [(int(self.ids[j]), float(self.probs[j])) for j in order]

    def peak(self) -> float:
        return float(self.probs.max())

    def draw(self, rng: np.random.Generator) -> int:
        cdf = np.cumsum(self.probs)
        i = int(np.searchsorted(cdf, rng.random() * cdf[-1], side="right"))
        return int(self.ids[min(i, cdf.shape[0] - 1)])

    def dense(self) -> np.ndarray:
        out = np.zeros(self.n_vocab, dtype=np.float64)
        out[self.ids] = self.probs
        return out


BLOCK = 4096  # FullRow's draw: the block from a running sum of block sums, then the token
_starts: dict[int, np.ndarray] = {}


class FullRow(_OwnRows):
    """The sampler's distribution over the whole vocabulary (no cut), as weights proportional
    to it: float32 exp((logit − max) / T) for a model's row, in one pass and summed in
    float64. Every reading (p, top, draw, the residual) is of these weights over their sum,
    so that verification uses the very numbers the draw follows. Each is within 1.8e-7·|logit
    − max| / T + 3e-7 of the float64 softmax (three float32 roundings in the
    exponent, then the exp's own: tests/engine/test_sampled_row.py), and a token more than
    87·T nats below the top, of probability under 1e-38, underflows to zero."""

    __slots__ = ("_cdf", "_peak", "total", "weights")

    def __init__(self, weights: np.ndarray, peak: float | None = None) -> None:
        n = weights.shape[0]
        starts = _starts.get(n)
        if starts is None:
            starts = _starts.setdefault(n, np.arange(0, n, BLOCK))
        # one pass for the sum and, for a draw, the running sum by block
        self._cdf = np.cumsum(np.add.reduceat(weights, starts, dtype=np.float64))
        self.total = float(self._cdf[-1])
        self.weights, self._peak = weights, peak

    @classmethod
    def at_temperature(cls, logits: np.ndarray, t: float, recent: _Recent | None = None
                       ) -> FullRow:
        top = _top(logits, recent)
        w = logits - top  # the one array made: the logits themselves are only read
        if recent is not None:
            w[recent.ids] = recent.vals - top
        if t != 1.0:
            w /= t
        np.exp(w, out=w)
        return cls(w, 1.0)  # the maximum's weight is exp(0)

    def at(self, tokens: np.ndarray) -> np.ndarray:
        """The probabilities of `tokens`, in float64."""
        return np.divide(self.weights[tokens], self.total, dtype=np.float64)

    def p(self, token: int) -> float:
        return float(self.weights[token]) / self.total

    def top(self, n: int = 0) -> list[tuple[int, float]]:
        n = n or TOP_N
        ids = _ranked(self.weights, n)
        return [(int(i), float(self.weights[i]) / self.total) for i in ids
                if self.weights[i] > 0.0]

    def peak_weight(self) -> float:
        if self._peak is None:
            self._peak = float(self.weights.max())
        return self._peak

    def peak(self) -> float:
        return self.peak_weight() / self.total

    def draw(self, rng: np.random.Generator) -> int:
        cdf = self._cdf
        target = rng.random() * cdf[-1]
        b = int(np.searchsorted(cdf, target, side="right"))
        if b >= cdf.shape[0]:  # u·total rounded up to the total: the last block with mass
            b = int(np.flatnonzero(np.diff(cdf, prepend=0.0) > 0.0)[-1])
        lo = b * BLOCK
        block = self.weights[lo : lo + BLOCK]
        inner = np.cumsum(block, dtype=np.float64)
        i = int(np.searchsorted(inner, target - (cdf[b - 1] if b else 0.0), side="right"))
        if i >= block.shape[0]:  # the block's own sum rounded below the running one's
            i = int(np.flatnonzero(block > 0.0)[-1])
        return lo + i

    def dense(self) -> np.ndarray:
        return self.weights / self.total if self.weights.dtype == np.float64 else (
            self.weights.astype(np.float64) / self.total)


# A verified row as the engine reads it: greedily, or as the sampler's distribution.
Row = GreedyRow | ArgmaxRow | DenseRow | KeptRow | FullRow
SampledRow = KeptRow | FullRow | DenseRow


def _ranked(values: np.ndarray, n: int) -> np.ndarray:
    """The ids of the n largest values, largest first, ties by the lower id (one pass for the
    groups' maxima, one for the candidates they bound: never a partition of the whole row)."""
    ids = _k_largest(values, min(n, values.shape[0]))
    return ids[np.lexsort((ids, -values[ids]))]


GROUPS = 64  # the logits' interleaved groups whose maxima bound the candidates of a cut
# top-p's candidates, over a whole vocabulary: the logits at or above the m-th largest of
# the groups' maxima, for each m of these until they hold top-p's prefix
LADDER = (8, 32, 128, 512, 2048)


def _group_maxima(lg: np.ndarray) -> np.ndarray:
    """The maxima of GROUPS interleaved groups of the logits (one pass; with the tail that
    does not fill a row of them, one each). Distinct tokens: the m-th largest of them is at
    most the m-th largest logit, so the logits at or above it are m at least."""
    cols = lg.shape[0] // GROUPS
    if cols == 0:
        return lg
    maxima = lg[: GROUPS * cols].reshape(GROUPS, cols).max(axis=0)
    return np.concatenate([maxima, lg[GROUPS * cols :]])


def _k_of(ids: np.ndarray, vals: np.ndarray, k: int) -> np.ndarray:
    """The k of the ascending `ids` with the largest `vals` (ties at the edge: the lower
    ids), ascending."""
    m = vals.shape[0]
    if m <= k:
        return ids
    kth = np.partition(vals, m - k)[m - k]
    above = vals > kth
    edge = np.flatnonzero(vals == kth)[: k - int(np.count_nonzero(above))]
    return ids[np.union1d(np.flatnonzero(above), edge)]


def _k_largest(lg: np.ndarray, k: int) -> np.ndarray:
    """The ids of the k largest logits, ascending (ties at the edge: the lower ids): among
    the logits at or above the k-th largest of the groups' maxima, which lie in the groups
    whose maxima are (read from those groups alone: a compare over the whole row cost as
    much as the maxima)."""
    maxima = _group_maxima(lg)
    if maxima.shape[0] < k:
        return _k_of(np.arange(lg.shape[0]), lg, k)
    bound = np.partition(maxima, maxima.shape[0] - k)[-k]
    cols = lg.shape[0] // GROUPS  # group j: lg[j], lg[j + cols], …; past GROUPS·cols, one each
    groups = np.flatnonzero(maxima >= bound)
    whole = groups[groups < cols]
    members = (np.arange(GROUPS)[:, None] * cols + whole).ravel()
    near = np.concatenate([members, groups[groups >= cols] + (GROUPS - 1) * cols])
    near = np.sort(near[lg[near] >= bound])
    return _k_of(near, lg[near], k)


def _top_k(lg: np.ndarray, recent: _Recent | None, k: int) -> tuple[np.ndarray, np.ndarray]:
    """The ids (ascending) and penalised logits of the k largest penalised logits: among
    the k + R largest logits and the R recent tokens (the penalty only lowers a logit, and
    of k + R tokens at most R are recent)."""
    if recent is None:
        ids = _k_largest(lg, k)
        return ids, lg[ids]
    cands = np.union1d(_k_largest(lg, min(k + recent.ids.shape[0], lg.shape[0])), recent.ids)
    ids = _k_of(cands, _values(lg, recent, cands), k)
    return ids, _values(lg, recent, ids)


def _top(lg: np.ndarray, recent: _Recent | None) -> np.floating:
    """The largest penalised logit: the largest logit unless it is a recent token's, else
    the larger of the recent ones and the largest of the others (among the R + 1 largest)."""
    best = int(np.argmax(lg))
    if recent is None or not np.isin(best, recent.ids):
        return lg[best]
    cands = _k_largest(lg, min(recent.ids.shape[0] + 1, lg.shape[0]))
    return max(_values(lg, recent, cands).max(), recent.vals.max())


def _ordered(ids: np.ndarray, vals: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The candidates `ids` (ascending) with their logits `vals` in float64, the most
    likely first, ties by the lower id."""
    cand = vals.astype(np.float64)
    order = np.argsort(-cand, kind="stable")
    return ids[order], cand[order]


def _cut(ids: np.ndarray, cand: np.ndarray, s: SamplingSettings, rest: float = 0.0
         ) -> tuple[np.ndarray, np.ndarray, bool]:
    """top-p then min-p on ordered candidates (`_ordered`), on their softmax at temperature
    1 in float64; `rest`: the weight, relative to the first candidate's, of the tokens that
    are not candidates. The kept prefix, and whether top-p's prefix ended among them."""
    probs = np.exp(cand - cand[0])
    probs /= probs.sum() + rest
    keep, reached = ids.shape[0], False
    if s.top_p < 1.0:
        reach = int(np.searchsorted(np.cumsum(probs), s.top_p))
        keep, reached = min(keep, reach + 1), reach < keep
    if s.min_p > 0.0:
        keep = min(keep, max(1, int(np.count_nonzero(probs >= s.min_p * probs[0]))))
    return ids[:keep], cand[:keep], reached


def _nucleus(lg: np.ndarray, recent: _Recent | None, s: SamplingSettings
             ) -> tuple[np.ndarray, np.ndarray]:
    """top-p and min-p over a whole vocabulary without sorting it: the cuts on the logits
    at or above a bound, the first of LADDER's whose tokens hold top-p's prefix, or min-p's
    own (log min_p below the maximum), which holds every token it keeps; else on the whole
    row, sorted. The tokens below the bound count in the softmax's total through one float32
    exp pass: only they are in float32, and they hold at most 1 − top_p of it."""
    n = lg.shape[0]
    top = _top(lg, recent)
    w = lg - top
    if recent is not None:
        w[recent.ids] = recent.vals - top
    np.exp(w, out=w)
    whole = float(w.sum(dtype=np.float64))
    floor = float(top) + math.log(s.min_p) - 1e-3 if s.min_p > 0.0 else -math.inf

    def above(bound: float) -> tuple[np.ndarray, float] | None:
        """The ids at or above `bound` and the weight of those below (None: every id is)."""
        ids = np.flatnonzero(lg >= bound)
        fallen = None if recent is None else recent.ids[recent.vals < bound]
        if fallen is not None and fallen.shape[0]:  # recent tokens the penalty put below it
            ids = np.setdiff1d(ids, fallen, assume_unique=True)
        if ids.shape[0] == n:
            return None
        return ids, max(whole - float(w[ids].sum(dtype=np.float64)), 0.0)

    bounds: list[float] = []
    if s.top_p < 1.0:
        maxima = np.sort(_group_maxima(lg))[::-1]
        ladder = [float(maxima[m - 1]) for m in LADDER if m <= maxima.shape[0]]
        bounds = [b for b in ladder if b > floor]  # under min-p's own, its are the fewer
    for bound in bounds:
        near = above(bound)
        if near is None:
            break
        ids, rest = near
        # too little mass to hold top-p's prefix, by float32's weights (within 1e-5 of
        # float64's for any logit within 50 nats of the maximum): not worth a sort
        if whole - rest < (s.top_p - 1e-4) * whole:
            continue
        kept, kept_cand, reached = _cut(*_ordered(ids, _values(lg, recent, ids)), s, rest)
        if reached:
            return kept, kept_cand
    if s.min_p > 0.0 and (near := above(floor)) is not None:
        ids, rest = near
        kept, kept_cand, _ = _cut(*_ordered(ids, _values(lg, recent, ids)), s, rest)
        return kept, kept_cand
    ids = np.arange(n)
    kept, kept_cand, _ = _cut(*_ordered(ids, _values(lg, recent, ids)), s)
    return kept, kept_cand


def sampled_row(logits: np.ndarray, s: SamplingSettings, history: Sequence[int]
                ) -> KeptRow | FullRow:
    """The distribution the sampler draws from: repeat penalty → top-k → top-p → min-p →
    temperature, as llama.cpp's chain. The cuts decide on float64 softmaxes of the
    candidates, as `distribution` always has, over only the candidates that can be kept; no
    cut leaves every token, a FullRow. The logits are only read: the penalty patches the
    few values it changes (_Recent)."""
    recent = _Recent.of(logits, s, history)
    n = logits.shape[0]
    t = max(s.temperature, 1e-6)
    cuts = s.top_p < 1.0 or s.min_p > 0.0
    if 0 < s.top_k < n:
        ids, cand = _ordered(*_top_k(logits, recent, s.top_k))
        if cuts:
            ids, cand, _ = _cut(ids, cand, s)
    elif cuts:
        ids, cand = _nucleus(logits, recent, s)
    else:
        return FullRow.at_temperature(logits, t, recent)
    w = np.exp((cand - cand.max()) / t)
    probs = w / w.sum()
    order = np.argsort(ids)
    return KeptRow(ids[order], probs[order], n)


def top(probs: np.ndarray, n: int = TOP_N) -> list[tuple[int, float]]:
    """The n most likely (token, probability) pairs, most likely first (zeros left out).

    n argmax passes over a copy, not argpartition: a sampler's distribution is zero almost
    everywhere, and numpy's introselect on such an array takes milliseconds (measured 6 ms
    on a 49k vocabulary, against 0.05 ms for this), which every step would pay."""
    work = probs.copy()
    out: list[tuple[int, float]] = []
    for _ in range(min(n, probs.shape[0])):
        i = int(np.argmax(work))
        if work[i] <= 0.0:
            break
        out.append((i, float(probs[i])))
        work[i] = -1.0
    return out


def distribution(logits: np.ndarray, s: SamplingSettings, history: Sequence[int]) -> np.ndarray:
    """The dense probability vector the sampler draws from (zero outside the kept set)."""
    return sampled_row(logits, s, history).dense()


def sample(probs: np.ndarray, rng: np.random.Generator) -> int:
    """Inverse-CDF draw from a dense probability vector."""
    cdf = np.cumsum(probs)
    return int(min(np.searchsorted(cdf, rng.random() * cdf[-1], side="right"), len(cdf) - 1))

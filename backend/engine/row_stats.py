"""A row of logits read in one pass in C (`_rowstats.c`): its argmax, log-sum-exp and largest
logits, ~45 µs at 152k tokens where numpy's passes took ~150 (an exp into a scratch row, a
float32 sum, the groups' maxima for the top five). The module is built with the package where
a C compiler is found (setup.py); without it, or for a row it hands back (a NaN, +inf, every
logit -inf) or one not float32 and contiguous, `read` gives None and the caller reads the row
in numpy, to the same values within float32 rounding (tests/engine/test_row_stats.py).

Where a core is spare beside llama.cpp's threads (`read_in_background`), the engine's verify
rows are read in two parts: the argmax (the decision, ~10 µs) on the decoding thread, the rest
on the module's own thread (`begin`), while the decoding thread goes on with its Python; a
context collects its rows' results before it decodes again (`settle`), since that decode
writes the buffer they are read from."""

from __future__ import annotations

from collections.abc import Callable
from typing import Protocol

import numpy as np

_row_stats: Callable[..., tuple[int, float, tuple[tuple[int, float], ...]] | None] | None
_penalize: Callable[..., None] | None
_set_threads: Callable[[int], None] | None
_begin: Callable[..., tuple[int, int] | None] | None
_finish: Callable[[int], tuple[int, float, tuple[tuple[int, float], ...]] | None] | None
_keep_awake: Callable[[bool], None] | None
try:
    from backend.engine._rowstats import begin as _begin
    from backend.engine._rowstats import finish as _finish
    from backend.engine._rowstats import keep_awake as _keep_awake
    from backend.engine._rowstats import penalize as _penalize
    from backend.engine._rowstats import row_stats as _row_stats
    from backend.engine._rowstats import set_threads as _set_threads
except ImportError:  # no C compiler where the package was installed
    _row_stats = _penalize = _set_threads = _begin = _finish = _keep_awake = None

BUILT = _row_stats is not None
MAX_K = 64  # the most largest logits one pass keeps (_rowstats.c)


def use_threads(n: int) -> None:
    """Read each row in n slices at once: llama.cpp's thread count where it decodes on the CPU,
    whose OpenMP team is still spinning on the decoding thread when its row is read; 1 (one
    after another) where a GPU decodes and the team sleeps, as waking it costs more."""
    if _set_threads is not None:
        _set_threads(n)


class Settling(Protocol):
    def settle(self) -> None: ...


_background = False
_pending: dict[object, list[Settling]] = {}  # by the context whose buffer each row is read from


def read_in_background(on: bool) -> None:
    """Whether `begin` reads rows' log-sum-exp and top on the module's thread, which waits for
    them awake while it does: on for an answer where a core is spare for it, off after."""
    global _background
    _background = on and _begin is not None
    if _keep_awake is not None:
        _keep_awake(on)


def begin(logits: np.ndarray, k: int, owner: object, row: Settling) -> tuple[int, int] | None:
    """(argmax, ticket for `finish`) with the rest of `read` under way in the background, `row`
    to be settled before `owner` decodes again; None where the row must be `read` (no
    background reading, or a row that `read` hands back)."""
    if not _background or _begin is None or not _readable(logits) or not 0 < k <= MAX_K:
        return None
    started = _begin(logits, k)
    if started is not None:
        _pending.setdefault(owner, []).append(row)
    return started


def finish(ticket: int) -> tuple[int, float, tuple[tuple[int, float], ...]] | None:
    """What `read` gives for the row begun with `ticket`, waited for."""
    assert _finish is not None
    return _finish(ticket)


def settle(owner: object) -> None:
    """Settle every row begun for `owner`: before it decodes again or is freed."""
    rows = _pending.pop(owner, None)
    if rows:
        for row in rows:
            row.settle()


def _readable(logits: np.ndarray) -> bool:
    return logits.dtype == np.float32 and logits.ndim == 1 and logits.flags.c_contiguous


def read(logits: np.ndarray, k: int) -> tuple[int, float, tuple[tuple[int, float], ...]] | None:
    """(argmax, log-sum-exp in float64, the k largest (token, logit) pairs, largest first, ties
    by the lower id), or None where numpy must read the row."""
    if _row_stats is None or not _readable(logits) or not 0 < k <= MAX_K:
        return None
    return _row_stats(logits, k)


def penalize(logits: np.ndarray, tokens: set[int], penalty: float) -> bool:
    """The repeat penalty on the distinct `tokens`, written into the logits in float32 as
    sampling.penalized writes it (a set, a gather, a where and a scatter in numpy: ~30 µs a
    token beside llama.cpp, its caches cold after each decode); False where numpy must."""
    if _penalize is None or not _readable(logits) or not logits.flags.writeable:
        return False
    _penalize(logits, tokens, penalty)
    return True

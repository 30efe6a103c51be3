"""The conversation's tokens as a drafter last saw them, grown as the history grows.

Within an answer the engine's history is one list that only grows (`Engine._step` extends it),
so a look at that same list, no shorter, goes on from the last one without comparing them:
what a step costs is what it added, not the conversation's length. Another list (a new answer,
an edited conversation) is compared whole, once. Copied and compared every step, a
32,000-token conversation cost the lookups 100-300 µs a step, a tenth of a step at a GPU's rate.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np


class SeenHistory:
    """A copy of the history as last seen (`tokens`), brought up to date by `take`."""

    def __init__(self) -> None:
        self.tokens: list[int] = []
        self._source: Sequence[int] | None = None  # the list last taken, which only grows

    def goes_on(self, history: Sequence[int], n: int) -> bool:
        """Whether the first `n` tokens of `history` are the first `n` seen."""
        if len(history) < n or n > len(self.tokens):
            return False
        if history is self._source:
            return True
        seen = self.tokens if n == len(self.tokens) else self.tokens[:n]
        return list(history[:n]) == seen

    def take(self, history: Sequence[int]) -> int:
        """See `history`; returns how many of its first tokens were seen before (0 where it
        does not go on from what was)."""
        n = len(self.tokens)
        if not self.goes_on(history, n):
            self.tokens, n = [], 0
        self.tokens.extend(history[n:])
        self._source = history
        return n


class HistoryArray:
    """The history as a numpy array: the lookups scan it with array comparisons each step,
    and converting the whole list each time would cost more than the scan."""

    def __init__(self) -> None:
        self._seen = SeenHistory()
        self._array = np.empty(1024, dtype=np.int64)

    def sync(self, history: list[int]) -> np.ndarray:
        """`history` as an array (a view, valid until the next call)."""
        n = self._seen.take(history)
        if len(history) > len(self._array):
            grown = np.empty(max(2 * len(self._array), len(history)), dtype=np.int64)
            grown[:n] = self._array[:n]
            self._array = grown
        self._array[n: len(history)] = self._seen.tokens[n:]
        return self._array[: len(history)]

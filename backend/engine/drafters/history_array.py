"""The conversation's tokens as a numpy array, grown as the history grows: the lookups scan
it with array comparisons each step, and converting the whole list each time would cost
more than the scan."""

from __future__ import annotations

import numpy as np


class HistoryArray:
    def __init__(self) -> None:
        self._list: list[int] = []
        self._array = np.empty(1024, dtype=np.int64)

    def sync(self, history: list[int]) -> np.ndarray:
        """`history` as an array (a view, valid until the next call)."""
        n = len(self._list)
        if len(history) < n or history[:n] != self._list:
            self._list, n = [], 0
        new = history[n:]
        if len(history) > len(self._array):
            grown = np.empty(max(2 * len(self._array), len(history)), dtype=np.int64)
            grown[:n] = self._array[:n]
            self._array = grown
        self._array[n: len(history)] = new
        self._list.extend(new)
        return self._array[: len(history)]

"""A history that counts the tokens its slices hand out: what a step reads of the
conversation, counted as work rather than timed."""

from __future__ import annotations


class CountingList(list):
    read = 0  # tokens handed out by slices, over every CountingList, since last reset

    def __getitem__(self, index):
        got = super().__getitem__(index)
        if isinstance(index, slice):
            CountingList.read += len(got)
        return got

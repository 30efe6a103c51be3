"""N-gram prompt lookup (llama.cpp's `ngram-simple`): find the latest earlier occurrence of
the last `size_n` tokens in the conversation and propose the tokens that followed it. Costs
nothing to run, and shines when the answer repeats its input (rewrites, code edits)."""

from __future__ import annotations

import numpy as np

from backend.engine.drafters.base import DraftingSetup, Proposal
from backend.engine.drafters.history_array import SeenHistory
from backend.engine.request import GenerationRequest, NgramSettings


def copied(history: list[int], start: int, m: int) -> tuple[list[int], list[int | None]]:
    """The m tokens of `history` from `start` on, and where each was copied from."""
    tokens = history[start : start + m]
    return tokens, list(range(start, start + len(tokens)))


def make(setup: DraftingSetup) -> NgramDrafter:
    """Spec type "ngram" (`backend.spec_types`): needs nothing but the conversation."""
    return NgramDrafter()


class NgramDrafter:
    origin = "ngram"

    def __init__(self) -> None:
        self.settings = NgramSettings()
        # n-gram → (start positions of its occurrences, oldest first), over the tokens seen
        self._index: dict[tuple[int, ...], list[int]] = {}
        self._indexed = SeenHistory()
        self._distance: int | None = None  # how far back the last proposal's copy was found

    def begin(self, request: GenerationRequest, rng: np.random.Generator) -> None:
        self._distance = None
        if request.ngram != self.settings:
            self.settings = request.ngram
            self._index.clear()
            self._indexed = SeenHistory()

    def _update_index(self, history: list[int]) -> None:
        n = self.settings.size_n
        kept = self._indexed.take(history)
        if not kept:
            self._index.clear()
        for start in range(max(kept - n + 1, 0), len(history) - n + 1):
            self._index.setdefault(tuple(history[start : start + n]), []).append(start)

    def propose(self, history: list[int], n_max: int) -> Proposal:
        follow = self._match(history)
        distance, self._distance = self._distance, (
            None if follow is None else len(history) - follow)
        if follow is None:
            return Proposal()
        m = min(self.settings.size_m, n_max)
        tokens = history[follow : follow + m]
        return Proposal(
            tokens=list(tokens),
            dists=[None] * len(tokens),
            p_draft=[None] * len(tokens),
            heads=[None] * len(tokens),
            sources=list(range(follow, follow + len(tokens))),
            continues=distance == self._distance,
        )

    def alternatives(self, history: list[int], n_max: int
                     ) -> list[tuple[list[int], list[int | None]]]:
        """After `propose`: what followed the older occurrences of the same n-gram, newest
        first, for a token tree (tree/continuations.py); the proposal is the newest's."""
        n = self.settings.size_n
        if len(history) <= n:
            return []
        starts = [s for s in self._index.get(tuple(history[-n:]), ()) if s + n < len(history)]
        m = min(self.settings.size_m, n_max)
        return [copied(history, s + n, m) for s in reversed(starts[:-1])]

    def _match(self, history: list[int]) -> int | None:
        """Where the tokens after the latest earlier occurrence of the history's last `size_n`
        begin, if it has one (and `min_hits` in all)."""
        n = self.settings.size_n
        if len(history) <= n:
            return None
        self._update_index(history)
        key = tuple(history[-n:])
        # every occurrence except the one that ends the history (that is where we are)
        starts = [s for s in self._index.get(key, ()) if s + n < len(history)]
        if len(starts) < self.settings.min_hits:
            return None
        return starts[-1] + n

    def close(self) -> None:
        self._index.clear()

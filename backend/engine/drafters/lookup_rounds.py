"""What llama.cpp's lookups learn between two drafts, read from the history.

llama.cpp tells a drafter how many of its drafted tokens the target accepted
(`common_speculative_accept`, after each verification); ngram-map-k and ngram-mod act on it.
The Drafter protocol has no such call, but the next `propose` shows it: the history has
grown by the accepted drafts and the target's own token. Counting the drafts the history
then holds, but its last token (the target's, which may equal a draft the step did not
verify), gives llama.cpp's count whenever the step verified the whole proposal. A chain
(drafters/chain.py) has the drafter that drafted a step read it at the next step even when
another drafts that one (`base.HistoryLearner`), so each round is read once, and then.
"""

from __future__ import annotations

from collections.abc import Sequence

from backend.engine.drafters.history_array import SeenHistory


class LastRound:
    """The last proposal (the history it followed, its tokens, where its copy began) and, at
    the next proposal, how many of its tokens were kept."""

    def __init__(self) -> None:
        self._seen = SeenHistory()  # the histories proposals followed
        self.forget()

    def forget(self) -> None:
        """A new answer: nothing proposed in it yet."""
        self._n_history: int | None = None  # the length of the last proposal's history
        self._tokens: list[int] = []
        self._distance: int | None = None

    def accepted(self, history: Sequence[int]) -> int | None:
        """How many of the last proposal's tokens the history went on with; None when there
        was none in this answer, it was read already, or the history is not its
        continuation."""
        n, self._n_history = self._n_history, None  # read once: llama.cpp accepts once
        if n is None or len(history) <= n or not self._seen.goes_on(history, n):
            return None
        kept = history[n: len(history) - 1]
        n = 0
        for drafted, came in zip(self._tokens, kept, strict=False):
            if drafted != came:
                break
            n += 1
        return n

    def record(self, history: Sequence[int], tokens: list[int],
               sources: Sequence[int | None]) -> bool:
        """Remember this proposal; whether it goes on with the copy the last one came from
        (found at the same distance back, as `ngram.NgramDrafter` tells K auto)."""
        distance = (len(history) - sources[0]
                    if tokens and sources and sources[0] is not None else None)
        continues = distance is not None and distance == self._distance
        self._seen.take(history)
        self._n_history = len(history)
        self._tokens = list(tokens)
        self._distance = distance
        return continues

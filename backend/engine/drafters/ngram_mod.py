"""llama.cpp's `ngram-mod` (common/ngram-mod.cpp, PR #19164): a fixed table from the hash of
every `n_match`-token window to the token that followed it, drafting by chaining lookups.

Ported from `common_ngram_mod` (`idx`: the window's 64-bit polynomial hash with multiplier
6364136223846793005 modulo 4 Mi slots; `add` overwrites the slot; `get`) and from
`common_speculative_impl_ngram_mod` (common/speculative.cpp):
- `begin`: add the prompt's windows; when more than a quarter of the slots are then used,
  empty the table.
- `draft_one`: add the windows of the tokens generated since, once more than 32 are waiting;
  from the history's last `n_match` tokens, look up the next token, append, slide, up to
  `n_max` times; a chain broken before `n_min` tokens drafts nothing.
- `accept`: a draft of which under a quarter was accepted is a low round; after five low
  rounds in a row the table is emptied (and rebuilt from the current history at the next
  draft).
The table is kept across the answers of the loaded target, as llama.cpp keeps it for the
life of its speculative state. Each drafted token's source is the position whose token the
slot last took, when that was in this answer's history; None when an earlier answer wrote
it. Draftlight caps a draft at K after the rule (llama.cpp caps at the context's room), and
a round's acceptance is measured against the draft as proposed, capped.
"""

from __future__ import annotations

import numpy as np

from backend.engine.drafters.base import DraftingSetup, Proposal
from backend.engine.drafters.history_array import HistoryArray
from backend.engine.drafters.lookup_rounds import LastRound
from backend.engine.request import GenerationRequest, NgramModSettings

TABLE_SIZE = 4 * 1024 * 1024
MULTIPLIER = 6364136223846793005
EMPTY = -1
ADD_CHUNK = 32  # generated tokens waiting before their windows are added
MAX_OCCUPANCY = 0.25  # begin's threshold for emptying the table
LOW_ACCEPTANCE = 0.25
LOW_ROUNDS = 5
_MASK64 = (1 << 64) - 1


class NgramModTable:
    """`common_ngram_mod`, with the position each slot's token was taken from."""

    def __init__(self, n: int, size: int = TABLE_SIZE) -> None:
        self.n = n
        self.entries = np.full(size, EMPTY, dtype=np.int32)
        # where[slot]: the token's position, counted over every answer's history in turn
        self.where = np.full(size, -1, dtype=np.int64)
        self.used = 0
        self._top = pow(MULTIPLIER, n - 1, 1 << 64)  # removes a window's first token

    def idx(self, tokens: np.ndarray, starts: np.ndarray) -> np.ndarray:
        h = np.zeros(len(starts), dtype=np.uint64)
        for k in range(self.n):
            h = h * np.uint64(MULTIPLIER) + tokens[starts + k].astype(np.uint64)
        return (h % np.uint64(len(self.entries))).astype(np.int64)

    def add(self, tokens: np.ndarray, start: int, stop: int, base: int) -> None:
        """`add` for the windows starting at start..stop-1, in order (a later window
        overwrites an earlier one in the same slot)."""
        if stop <= start:
            return
        starts = np.arange(start, stop)
        slots = self.idx(tokens, starts)
        # the last write to each slot is the one that stays
        rev_slots, rev_first = np.unique(slots[::-1], return_index=True)
        last = starts[::-1][rev_first]
        self.used += int(np.count_nonzero(self.entries[rev_slots] == EMPTY))
        self.entries[rev_slots] = tokens[last + self.n]
        self.where[rev_slots] = base + last + self.n

    def window_hash(self, window: list[int]) -> int:
        h = 0
        for t in window:
            h = (h * MULTIPLIER + t) & _MASK64
        return h

    def roll(self, h: int, out: int, into: int) -> int:
        """The hash of the window slid by one token: `out` leaves, `into` enters."""
        return ((h - out * self._top) * MULTIPLIER + into) & _MASK64

    def reset(self) -> None:
        self.entries.fill(EMPTY)
        self.where.fill(-1)
        self.used = 0


class NgramModDrafter:
    """The settings are each request's `ngram_mod` (`settings`, if given, stands instead, for
    every request); a request with another n_match starts a new table."""

    def __init__(self, settings: NgramModSettings | None = None,
                 table_size: int = TABLE_SIZE, origin: str = "ngram-mod") -> None:
        self.origin = origin
        self._fixed = settings
        self.settings = settings or NgramModSettings()
        self.table = NgramModTable(self.settings.n_match, table_size)
        self.i_last = 0
        self.n_draft_last = 0
        self.n_low = 0
        self.n_resets = 0  # low-acceptance resets so far (for tests and traces)
        self._base = 0  # where this answer's history starts in the table's positions
        self._next_base = 0
        self._begun = False
        self._tokens = HistoryArray()
        self._round = LastRound()

    def begin(self, request: GenerationRequest, rng: np.random.Generator) -> None:
        self.settings = self._fixed or request.ngram_mod
        if self.settings.n_match != self.table.n:  # other windows: the old hashes are no use
            self.table = NgramModTable(self.settings.n_match, len(self.table.entries))
            self.n_low = 0
        self._begun = False
        self._round.forget()

    def _begin(self, tokens: np.ndarray) -> None:
        """llama.cpp's `begin` on the prompt (the history but its last token)."""
        self._base = self._next_base
        self.i_last = self.n_draft_last = 0
        n, n_prompt = self.table.n, len(tokens) - 1
        if n_prompt < n:
            return
        self.table.add(tokens, 0, n_prompt - n, self._base)
        self.i_last = n_prompt - n
        if self.table.used / len(self.table.entries) > MAX_OCCUPANCY:
            self.table.reset()

    def _accept(self, n_accepted: int) -> None:
        if self.n_draft_last == 0:
            return
        if n_accepted / self.n_draft_last < LOW_ACCEPTANCE:
            self.n_low += 1
            if self.n_low >= LOW_ROUNDS:
                self.table.reset()
                self.n_low = self.i_last = 0
                self.n_resets += 1
        else:
            self.n_low = 0

    def settle(self, history: list[int]) -> None:
        """`lookup_rounds.HistoryLearner`: llama.cpp's `begin` on the prompt (the first
        history of the answer), then its `accept` of the last draft, once."""
        if not self._begun:
            self._begun = True
            self._begin(self._tokens.sync(history))
        else:
            n_accepted = self._round.accepted(history)
            if n_accepted is not None:
                self._accept(n_accepted)
        self._next_base = max(self._next_base, self._base + len(history))

    def propose(self, history: list[int], n_max: int) -> Proposal:
        self.settle(history)
        tokens = self._tokens.sync(history)
        drafted, where = self._draft(tokens, history)
        drafted, where = drafted[:n_max], where[:n_max]
        self.n_draft_last = len(drafted)
        sources: list[int | None] = [w - self._base if w >= self._base else None
                                     for w in where]
        continues = self._round.record(history, drafted, sources)
        n = len(drafted)
        return Proposal(tokens=drafted, dists=[None] * n, p_draft=[None] * n,
                        heads=[None] * n, sources=sources, continues=continues)

    def _draft(self, tokens: np.ndarray, history: list[int]) -> tuple[list[int], list[int]]:
        """`draft_one`: the chained tokens and the positions they were taken from."""
        s, table = self.settings, self.table
        n, cur_len = table.n, len(history) - 1
        if cur_len < n:
            return [], []
        if self.i_last + ADD_CHUNK < cur_len:
            table.add(tokens, self.i_last, cur_len - n, self._base)
            self.i_last = cur_len - n
        window = [int(t) for t in history[-n:]]
        h = table.window_hash(window)
        size = len(table.entries)
        drafted: list[int] = []
        where: list[int] = []
        for i in range(s.n_max):
            slot = h % size
            token = int(table.entries[slot])
            if token == EMPTY:
                if i < s.n_min:
                    return [], []
                break
            drafted.append(token)
            where.append(int(table.where[slot]))
            h = table.roll(h, window[i], token)
            window.append(token)
        return drafted, where

    def close(self) -> None:
        self.table.reset()


def make(setup: DraftingSetup) -> NgramModDrafter:
    """Spec type "ngram-mod" (`backend.spec_types`): needs nothing but the conversation."""
    return NgramModDrafter()

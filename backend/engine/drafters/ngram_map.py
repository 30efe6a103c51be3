"""llama.cpp's `ngram-map-k` and `ngram-map-k4v` (common/ngram-map.cpp, PR #18471): find the
last `size_n` tokens earlier in the conversation through a hash map of key n-grams, and
propose the `size_m` tokens that followed them.

Ported rule for rule from `common_ngram_map_begin`, `common_ngram_map_draft` and
`common_ngram_map_accept`, as `common_speculative_impl_ngram_map_k` (common/speculative.cpp)
drives them:
- The key is the history's last `size_n` tokens. It is looked up in a 2^18-slot table from
  the key's 32-bit LCG hash (`common_ngram_map_hash`) to the first position stored there
  (collisions keep the older entry, so a key may be found only by scanning), then, failing
  that, by scanning the positions the table does not hold yet, latest first. No draft below
  `2 * size_n + size_m` tokens of history.
- map-k (key only): draft the tokens after the match, at most as many as the last draft from
  this key had accepted (`size_m` at first; a key whose draft was all rejected drafts nothing
  again). `min_hits` is not consulted in this mode, as in llama.cpp.
- map-k4v: per key, up to four distinct `size_m`-token continuations with their counts
  (recounted from the key's last counted position on, inclusive, as llama.cpp does); draft
  only once the key was hit `min_hits` times and when the most frequent continuation is at
  least twice as frequent as the others together. The tokens drafted are still those after
  the match, as in llama.cpp, capped by that continuation's last acceptance.
The map starts afresh at each answer, as in `llama-speculative-simple` (llama-server keeps
it per slot and trims it in `common_ngram_map_begin` when the prompt shrinks); the
acceptance llama.cpp reports after each verification is read from the next history
(`lookup_rounds`).
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
from numpy.lib.stride_tricks import sliding_window_view

from backend.engine.drafters.base import DraftingSetup, Proposal
from backend.engine.drafters.history_array import HistoryArray
from backend.engine.drafters.lookup_rounds import LastRound
from backend.engine.request import GenerationRequest, NgramMapSettings

MAX_VALUES = 4  # COMMON_NGRAM_MAX_VALUES
HASH_MAP_SIZE = 262144  # COMMON_NGRAM_HASH_MAP_SIZE
MAX_VALUE_COUNT = 16380  # COMMON_NGRAM_MAX_VALUE_COUNT
LCG_FACTOR = 2654435761
_MASK32 = 0xFFFFFFFF


@dataclass
class _Value:  # common_ngram_map_value
    value_idx: int = 0
    value_num: int = 0
    n_accepted: int = 0


@dataclass
class _Key:  # common_ngram_map_key
    key_idx: int
    stat_idx: int = 0
    key_num: int = 0
    values: list[_Value] = field(default_factory=list)


def _hashes(tokens: np.ndarray, starts: np.ndarray, n: int) -> np.ndarray:
    """`common_ngram_map_hash` of the n-grams at `starts`, as slots of the key table."""
    h = np.zeros(len(starts), dtype=np.uint64)
    for k in range(n):
        h = (h * np.uint64(LCG_FACTOR) + tokens[starts + k].astype(np.uint64)) & np.uint64(
            _MASK32)
    return (h % np.uint64(HASH_MAP_SIZE)).astype(np.int64)


def _last_match(tokens: np.ndarray, key: np.ndarray, hi: int, lo: int) -> int:
    """The latest j in (lo, hi] where the n-gram `key` starts; 0 (llama.cpp's "none": position
    0 is never searched) if nowhere."""
    if hi <= lo:
        return 0
    windows = sliding_window_view(tokens[lo + 1: hi + len(key)], len(key))
    hits = np.flatnonzero((windows == key).all(axis=1))
    return lo + 1 + int(hits[-1]) if len(hits) else 0


class NgramMap:
    """`common_ngram_map`: the key table and each key's statistics, over one history."""

    def __init__(self, settings: NgramMapSettings, key_only: bool) -> None:
        self.n, self.m = settings.size_n, settings.size_m
        self.key_only = key_only
        self.min_hits = settings.min_hits
        self.keys: list[_Key] = []
        self._key_offsets: dict[tuple[int, ...], int] = {}  # keys are distinct n-grams
        self.size_last_begin = 0
        self.idx_last_check = 0
        self.last_draft_created = False
        self.last_draft_key_idx = 0
        self.last_draft_value_idx = 0
        self.key_map = np.zeros(HASH_MAP_SIZE, dtype=np.int64)
        self.key_map_last_idx = 0

    def begin(self, n_prompt: int) -> None:
        """`common_ngram_map_begin` on a fresh map: generation starts after `n_prompt`."""
        self.idx_last_check = self.size_last_begin = n_prompt

    def _store(self, tokens: np.ndarray, hi: int, lo: int) -> None:
        """Add the n-grams at positions hi down to lo+1 to the key table; a slot keeps its
        first position."""
        if hi <= lo:
            return
        starts = np.arange(hi, lo, -1)
        slots = _hashes(tokens, starts, self.n)
        slots, first = np.unique(slots, return_index=True)
        empty = self.key_map[slots] == 0
        self.key_map[slots[empty]] = starts[first[empty]]

    def draft(self, tokens: np.ndarray) -> tuple[int, list[int]]:
        """`common_ngram_map_draft` for the history `tokens` (its last token is llama.cpp's
        `sampled`): where the drafted tokens were copied from, and the tokens."""
        self.last_draft_created = False
        self.last_draft_key_idx = self.last_draft_value_idx = 0
        cur_len = len(tokens) - 1
        n, m = self.n, self.m
        if cur_len < 2 * n + m:
            return 0, []
        self.idx_last_check = cur_len
        key = tokens[-n:]
        top = cur_len - n - m - 1

        match_pos = 0
        idx_key = int(self.key_map[_hashes(key, np.zeros(1, dtype=np.int64), n)[0]])
        if idx_key != 0 and idx_key < top and (tokens[idx_key: idx_key + n] == key).all():
            match_pos = idx_key
        if match_pos == 0 and self.size_last_begin > n + m + 1:
            match_pos = _last_match(tokens, key, self.size_last_begin - n - m - 1,
                                    self.key_map_last_idx)
        if match_pos == 0:
            match_pos = _last_match(tokens, key, top,
                                    max(self.size_last_begin, self.key_map_last_idx))

        if self.size_last_begin > n + m + 1:
            self._store(tokens, self.size_last_begin - n - m - 1, self.key_map_last_idx)
        self._store(tokens, top, max(self.size_last_begin, self.key_map_last_idx))
        self.key_map_last_idx = max(top, self.key_map_last_idx)

        if match_pos == 0:
            return 0, []
        key_tuple = tuple(int(t) for t in key)
        offset = self._key_offsets.get(key_tuple)
        if offset is None:
            offset = len(self.keys)
            self._key_offsets[key_tuple] = offset
            self.keys.append(_Key(match_pos, values=[_Value(n_accepted=m)
                                                     for _ in range(MAX_VALUES)]))
        curr = self.keys[offset]
        curr.key_num = min(curr.key_num + 1, MAX_VALUE_COUNT)

        if self.key_only:
            slot = 0
        else:
            if curr.key_num < self.min_hits:
                return 0, []
            self._count_values(tokens, key, curr, match_pos)
            dominant = self._dominant(curr)
            if dominant is None:
                return 0, []
            slot = dominant
        n_draft = min(m, curr.values[slot].n_accepted)
        self.last_draft_created = True
        self.last_draft_key_idx = offset
        self.last_draft_value_idx = slot
        start = match_pos + n
        return start, [int(t) for t in tokens[start: start + n_draft]]

    def _count_values(self, tokens: np.ndarray, key: np.ndarray, curr: _Key,
                      match_pos: int) -> None:
        """Count the continuations after each occurrence of the key from `stat_idx` to the
        match, both included."""
        n, m = self.n, self.m
        if match_pos < curr.stat_idx:  # found earlier than last time: nothing new to count
            curr.stat_idx = match_pos
            return
        windows = sliding_window_view(tokens[curr.stat_idx: match_pos + n], n)
        for i in np.flatnonzero((windows == key).all(axis=1)) + curr.stat_idx:
            begin = int(i) + n
            for value in curr.values:
                if value.value_idx == 0:  # a free slot: a new continuation
                    value.value_idx, value.value_num, value.n_accepted = begin, 0, m
                    break
                if (tokens[begin: begin + m] == tokens[value.value_idx: value.value_idx + m]
                        ).all():
                    break
            else:
                continue  # four other continuations are known: this one is not counted
            value.value_num = min(value.value_num + 1, MAX_VALUE_COUNT)
        curr.stat_idx = match_pos

    @staticmethod
    def _dominant(curr: _Key) -> int | None:
        """The most frequent continuation's slot, if it is at least twice as frequent as the
        others together."""
        counts = [v.value_num for v in curr.values]
        slot = max(range(MAX_VALUES), key=lambda v: (counts[v], -v))  # the first of ties
        others = sum(counts) - counts[slot]
        if others > 0 and counts[slot] < 2 * others:
            return None
        return slot

    def other_values(self, tokens: np.ndarray, n_max: int
                     ) -> list[tuple[list[int], list[int | None]]]:
        """After a map-k4v draft: the key's other remembered continuations, the most frequent
        first (at most n_max of its tokens, where each was copied from), for a token tree."""
        if self.key_only or not self.last_draft_created:
            return []
        curr = self.keys[self.last_draft_key_idx]
        others = [v for i, v in enumerate(curr.values)
                  if i != self.last_draft_value_idx and v.value_idx and v.value_num]
        others.sort(key=lambda v: -v.value_num)
        m = min(self.m, n_max)
        return [([int(t) for t in tokens[v.value_idx: v.value_idx + m]],
                 list(range(v.value_idx, v.value_idx + m))) for v in others]

    def accept(self, n_accepted: int) -> None:
        """`common_ngram_map_accept`: the last draft's key and value remember how many of it
        were accepted, which caps their next draft."""
        if self.last_draft_created:
            key = self.keys[self.last_draft_key_idx]
            key.values[self.last_draft_value_idx].n_accepted = n_accepted


class NgramMapDrafter:
    """`part`: the request's field that holds this type's settings (`settings`, if given,
    stands instead, for every request)."""

    def __init__(self, origin: str, key_only: bool, settings: NgramMapSettings | None = None,
                 part: str = "") -> None:
        self.origin = origin
        self.key_only = key_only
        self.part = part
        self._fixed = settings
        self.settings = settings or NgramMapSettings()
        self.map: NgramMap | None = None
        self._tokens = HistoryArray()
        self._round = LastRound()

    def begin(self, request: GenerationRequest, rng: np.random.Generator) -> None:
        self.settings = (self._fixed if self._fixed is not None
                         else getattr(request, self.part, self.settings))
        self.map = None
        self._round.forget()

    def settle(self, history: list[int]) -> None:
        """`lookup_rounds.HistoryLearner`: llama.cpp's `begin` on the prompt (the first
        history of the answer), then its `accept` of the last draft, once."""
        if self.map is None:
            self.map = NgramMap(self.settings, self.key_only)
            self.map.begin(len(history) - 1)
            return
        n_accepted = self._round.accepted(history)
        if n_accepted is not None:
            self.map.accept(n_accepted)

    def propose(self, history: list[int], n_max: int) -> Proposal:
        self.settle(history)
        assert self.map is not None
        start, tokens = self.map.draft(self._tokens.sync(history))
        tokens = tokens[:n_max]
        sources: list[int | None] = list(range(start, start + len(tokens)))
        continues = self._round.record(history, tokens, sources)
        n = len(tokens)
        return Proposal(tokens=tokens, dists=[None] * n, p_draft=[None] * n,
                        heads=[None] * n, sources=sources, continues=continues)

    def alternatives(self, history: list[int], n_max: int
                     ) -> list[tuple[list[int], list[int | None]]]:
        """After `propose`: map-k4v's other continuations of the key it drafted from (a
        token tree's branches, tree/continuations.py); none for map-k, which keeps one."""
        if self.map is None:
            return []
        return self.map.other_values(self._tokens.sync(history), n_max)

    def close(self) -> None:
        self.map = None


def make_k(setup: DraftingSetup) -> NgramMapDrafter:
    """Spec type "ngram-map-k" (`backend.spec_types`): needs nothing but the conversation."""
    return NgramMapDrafter("ngram-map-k", key_only=True, part="ngram_map_k")


def make_k4v(setup: DraftingSetup) -> NgramMapDrafter:
    """Spec type "ngram-map-k4v"."""
    return NgramMapDrafter("ngram-map-k4v", key_only=False, part="ngram_map_k4v")

"""llama.cpp's `ngram-cache` (common/ngram-cache.cpp, as `common_speculative_impl_ngram_cache`
in common/speculative.cpp drives it): counts of which token followed each 1- to 4-token
n-gram, drafting up to 8 tokens one at a time where one follower clearly dominates.

Ported from `common_ngram_cache_update` and `common_ngram_cache_draft` / `try_draft`:
- The context cache takes, at each draft, the tokens since its last update (the prompt at
  first, then the accepted drafts and the target's token) and counts the n-grams that lie
  within those new tokens, as the speculative impl passes them alone to the update (n-grams
  across two updates are not counted, as in llama.cpp).
- Each draft token: for n from 4 down to 1, the last n tokens (drafts included) are looked
  up in the context cache, with the lax thresholds (at least 2/2/1/1 samples, the top
  follower at least 66/50/50/50 % of them, for n = 1..4); failing that in the dynamic cache
  with the strict ones (4/3/2/2 samples, 75/66/66/66 %). The first n that passes gives the
  token; none stops the draft. Among followers seen equally often the one first seen last
  wins, as libstdc++'s unordered_map lists a two-entry count (beyond two, its order is the
  hash table's, which is not reproduced).
- llama.cpp's static cache (a file made from a corpus by llama-lookup-create) is not read:
  it is empty here, which is llama.cpp's own default (no --lookup-cache-static).
- The dynamic cache, a file in llama.cpp (`--lookup-cache-dynamic`, which llama-lookup fills
  by merging each context cache into it), is kept here in memory for the loaded target only:
  at the start of each answer the last answer's context cache is merged into it, so an
  answer drafts from earlier chats with this target too. Those tokens have no position in
  this history: their source is None.
A drafted token from the context cache has as source the latest position where it followed
the n-gram that chose it.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from backend.engine.drafters.base import DraftingSetup, Proposal
from backend.engine.drafters.lookup_rounds import LastRound
from backend.engine.request import GenerationRequest

NGRAM_MIN, NGRAM_MAX = 1, 4  # LLAMA_NGRAM_MIN, LLAMA_NGRAM_MAX
NGRAM_STATIC = 2  # LLAMA_NGRAM_STATIC: no draft from a shorter history
N_DRAFT = 8  # create_state_ngram_cache's n_draft
# by n-gram size 1..4 (draft_min_sample_size_* and draft_min_percent_*)
MIN_SAMPLES_LAX = (2, 2, 1, 1)
MIN_PERCENT_LAX = (66, 50, 50, 50)
MIN_SAMPLES_STRICT = (4, 3, 2, 2)
MIN_PERCENT_STRICT = (75, 66, 66, 66)

Ngram = tuple[int, ...]
# n-gram → {following token: times seen}, in the order the tokens were first seen
Cache = dict[Ngram, dict[int, int]]


def update(cache: Cache, tokens: Sequence[int], offset: int = 0,
           where: dict[Ngram, dict[int, int]] | None = None) -> None:
    """`common_ngram_cache_update` over `tokens` alone (every n-gram within them); `where`
    records the latest position (offset + index) each follower was seen at."""
    for size in range(NGRAM_MIN, NGRAM_MAX + 1):
        for i in range(size, len(tokens)):
            ngram = tuple(tokens[i - size: i])
            token = tokens[i]
            part = cache.setdefault(ngram, {})
            part[token] = part.get(token, 0) + 1
            if where is not None:
                where.setdefault(ngram, {})[token] = offset + i


def merge(target: Cache, add: Cache) -> None:
    """`common_ngram_cache_merge`."""
    for ngram, part in add.items():
        into = target.setdefault(ngram, {})
        for token, count in part.items():
            into[token] = into.get(token, 0) + count


def try_draft(cache: Cache, ngrams: Sequence[Ngram | None], min_samples: Sequence[int],
              min_percent: Sequence[int]) -> tuple[int, Ngram] | None:
    """`try_draft` from a primary cache, with an empty static cache (every follower's static
    weight 1): the token and the n-gram that chose it, longest n-gram first."""
    for i in range(len(ngrams) - 1, -1, -1):
        ngram = ngrams[i]
        if ngram is None:
            continue
        part = cache.get(ngram)
        if not part:
            continue
        best, best_count, total = -1, 0, 0
        for token in reversed(part):  # the follower first seen last wins a tie
            count = part[token]
            if count > best_count:
                best, best_count = token, count
            total += count
        if total < min_samples[i] or 100 * best_count < min_percent[i] * total:
            continue
        return best, ngram
    return None


# A follower the cache saw beside the one drafted: (its token, its share of the n-gram's
# followers, where it was seen last in this history, if it was)
RunnerUp = tuple[int, float, int | None]


def draft(tokens: Sequence[int], n_draft: int, context: Cache, dynamic: Cache,
          where: dict[Ngram, dict[int, int]]
          ) -> tuple[list[int], list[int | None], list[RunnerUp | None]]:
    """`common_ngram_cache_draft` after `tokens` (the history, llama.cpp's inp): the drafted
    tokens, their sources, and at each the n-gram's next most frequent follower (a token
    tree's alternative there; llama.cpp drafts a chain)."""
    if len(tokens) < NGRAM_STATIC:
        return [], [], []
    seq = list(tokens[-NGRAM_MAX:])  # what the n-grams read: not a copy of the history
    drafted: list[int] = []
    sources: list[int | None] = []
    runners: list[RunnerUp | None] = []
    while len(drafted) < n_draft:
        ngrams = [tuple(seq[-size:]) if size <= len(seq) else None
                  for size in range(NGRAM_MIN, NGRAM_MAX + 1)]
        found = try_draft(context, ngrams, MIN_SAMPLES_LAX, MIN_PERCENT_LAX)
        source: int | None = None
        cache = context
        if found is not None:
            source = where.get(found[1], {}).get(found[0])
        else:
            found = try_draft(dynamic, ngrams, MIN_SAMPLES_STRICT, MIN_PERCENT_STRICT)
            cache = dynamic
        if found is None:
            break
        drafted.append(found[0])
        sources.append(source)
        runners.append(_runner_up(cache[found[1]], found[0], where.get(found[1], {})
                                  if cache is context else {}))
        seq.append(found[0])
    return drafted, sources, runners


def _runner_up(part: dict[int, int], drafted: int, seen_at: dict[int, int]) -> RunnerUp | None:
    others = [(count, token) for token, count in part.items() if token != drafted]
    if not others:
        return None
    count, token = max(others)
    return token, count / sum(part.values()), seen_at.get(token)


class NgramCacheDrafter:
    origin = "ngram-cache"

    def __init__(self) -> None:
        self.context: Cache = {}
        self.dynamic: Cache = {}  # earlier answers' context caches, merged
        self._where: dict[Ngram, dict[int, int]] = {}
        self._cache_size = 0  # tokens of the history the context cache has taken
        self._round = LastRound()
        # the last proposal and, at each of its tokens, the follower beside it (a tree's)
        self._last: tuple[list[int], list[int | None], list[RunnerUp | None]] = ([], [], [])

    def begin(self, request: GenerationRequest, rng: np.random.Generator) -> None:
        merge(self.dynamic, self.context)
        self.context, self._where, self._cache_size = {}, {}, 0
        self._round.forget()

    def propose(self, history: list[int], n_max: int) -> Proposal:
        if self._cache_size > len(history):  # the history was cut: count it again
            self.context, self._where, self._cache_size = {}, {}, 0
        if self._cache_size < len(history):
            update(self.context, history[self._cache_size:], self._cache_size, self._where)
            self._cache_size = len(history)
        tokens, sources, runners = draft(history, N_DRAFT, self.context, self.dynamic,
                                         self._where)
        tokens, sources = tokens[:n_max], sources[:n_max]
        self._last = (tokens, sources, runners[:n_max])
        continues = self._round.record(history, tokens, sources)
        n = len(tokens)
        return Proposal(tokens=tokens, dists=[None] * n, p_draft=[None] * n,
                        heads=[None] * n, sources=sources, continues=continues)

    def alternatives(self, history: list[int], n_max: int
                     ) -> list[tuple[list[int], list[int | None]]]:
        """After `propose`: at each drafted position, the n-gram's next most frequent
        follower beside the token drafted, the more frequent first (each a branch of one
        token under the drafts before it: tree/continuations.py)."""
        tokens, sources, runners = self._last
        found = [(share, d, token, seen) for d, r in enumerate(runners[:n_max]) if r is not None
                 for token, share, seen in [r]]
        found.sort(key=lambda f: -f[0])
        return [([*tokens[:d], token], [*sources[:d], seen]) for _, d, token, seen in found]

    def close(self) -> None:
        self.context.clear()
        self.dynamic.clear()
        self._where.clear()


def make(setup: DraftingSetup) -> NgramCacheDrafter:
    """Spec type "ngram-cache" (`backend.spec_types`): needs nothing but the conversation; its
    dynamic cache lives as long as the engine keeps this drafter (the loaded target)."""
    return NgramCacheDrafter()

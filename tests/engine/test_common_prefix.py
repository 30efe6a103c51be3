"""The shared-prefix count both caches keep by: compared in slices, equal to the plain loop."""

from __future__ import annotations

import random

from backend.engine.context import common_prefix
from engine.counting_list import CountingList


def naive(a, b, limit):
    n = 0
    while n < min(len(a), len(b), limit) and a[n] == b[n]:
        n += 1
    return n


def cases(rng: random.Random, n: int = 3000):
    """(a, b, limit): two token lists sharing a random start, and a random limit."""
    for _ in range(n):
        a = [rng.randrange(3) for _ in range(rng.randrange(0, 40))]
        b = a[: rng.randrange(0, len(a) + 1)] + [rng.randrange(3) for _ in range(rng.randrange(8))]
        yield a, b, rng.randrange(0, 50)


def test_common_prefix_equals_the_plain_loop():
    for a, b, limit in cases(random.Random(7)):
        assert common_prefix(a, b, limit) == naive(a, b, limit), (a, b, limit)


def test_a_known_shared_start_is_not_compared_again():
    rng = random.Random(8)
    for a, b, limit in cases(rng):
        shared = naive(a, b, limit)
        known = rng.randrange(0, shared + 1)  # any start the caller knows is shared
        assert common_prefix(a, b, limit, known) == shared, (a, b, limit, known)


def test_a_draft_cache_syncs_a_growing_history_at_the_cost_of_what_it_added(test_models):
    """A draft model's cache follows the history each step (`Context.sync`); within an answer
    the history is one list that only grows, and only what follows the last sync is compared,
    also after drafts were decoded and rolled back. Another list, or a cache cut below the
    last sync, is compared whole and still kept right."""
    from backend.engine.context import Context
    from backend.engine.model import LoadedModel

    model = LoadedModel(test_models / "count-target.gguf")
    ctx = Context(model, n_ctx=1024, n_threads=1)
    try:
        history = CountingList(model.tokenize(" zero one two three four five six seven eight "
                                              "nine ten eleven" * 20, add_special=False))
        ctx.sync(history)
        CountingList.read = 0
        for step in range(20):
            ctx.decode([history[-1] + 1])  # a draft, then the step keeps one token more
            ctx.decode([history[-1] + 2])
            history.extend([history[-1] + 1, history[-1] + 3][: 1 + step % 2])
            ctx.sync(history)
            assert ctx.tokens == list(history)
        assert CountingList.read < 20 * 10, CountingList.read  # not the history's 300 a step
        ctx.truncate(10)  # cut below the last sync: compared from there, decoded again
        ctx.sync(history)
        assert ctx.tokens == list(history)
        other = [*history[:50], 5, 6, 7]  # another list: compared whole
        ctx.sync(other)
        assert ctx.tokens == other
    finally:
        ctx.close()
        model.close()

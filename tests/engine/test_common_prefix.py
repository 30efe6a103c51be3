"""The shared-prefix count both caches keep by: compared in slices, equal to the plain loop."""

from __future__ import annotations

import random

from backend.engine.context import common_prefix


def naive(a, b, limit):
    n = 0
    while n < min(len(a), len(b), limit) and a[n] == b[n]:
        n += 1
    return n


def test_common_prefix_equals_the_plain_loop():
    rng = random.Random(7)
    for _ in range(3000):
        a = [rng.randrange(3) for _ in range(rng.randrange(0, 40))]
        b = a[: rng.randrange(0, len(a) + 1)] + [rng.randrange(3) for _ in range(rng.randrange(8))]
        limit = rng.randrange(0, 50)
        assert common_prefix(a, b, limit) == naive(a, b, limit), (a, b, limit)

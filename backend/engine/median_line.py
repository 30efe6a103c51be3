"""A cost line robust to a stalled step: least squares through the median time of each size,
weighted by how many steps had that size. One step the machine stalled for half a second
(another process, a page fault) moves a mean by milliseconds, the median not at all. Used by
K auto (the drafter's and verifier's costs) and by the advisor."""

from __future__ import annotations

import statistics
from collections.abc import Iterable


def median_points(pairs: Iterable[tuple[float, float]]) -> list[tuple[float, float, int]]:
    """(size, median time, count) for each size among `pairs` of (size, time)."""
    by_size: dict[float, list[float]] = {}
    for x, y in pairs:
        by_size.setdefault(x, []).append(y)
    return [(x, statistics.median(ys), len(ys)) for x, ys in by_size.items()]


def weighted_line(points: list[tuple[float, float, int]]) -> tuple[float, float] | None:
    """(intercept, slope) through `median_points`; None with fewer than two sizes."""
    w = sum(n for _, _, n in points)
    if not w:
        return None
    mx = sum(x * n for x, _, n in points) / w
    my = sum(y * n for _, y, n in points) / w
    sxx = sum(n * (x - mx) ** 2 for x, _, n in points)
    if sxx <= 0:
        return None
    slope = sum(n * (x - mx) * (y - my) for x, y, n in points) / sxx
    return my - slope * mx, slope

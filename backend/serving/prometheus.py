"""A Prometheus text page (`/metrics`) read into numbers, and the difference of two.

The exposition format is lines of `name{labels} value [timestamp]` with `#` comments; a
counter's samples are summed over their label sets (one per model, or per engine). A value
that is not a finite number (NaN, +Inf, 1e999) is skipped, and a difference is a count
(`report.count`) or None."""

from __future__ import annotations

import math
import re

from backend.serving.report import derived

_SAMPLE = re.compile(r"^([A-Za-z_:][A-Za-z0-9_:]*)(\{.*\})?\s+(\S+)(\s+\S+)?\s*$")


def parse_metrics(text: str) -> dict[str, float]:
    """Each metric name's value, summed over its label sets; unparsable lines are skipped."""
    values: dict[str, float] = {}
    for line in text.splitlines():
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        match = _SAMPLE.match(line)
        if match is None:
            continue
        try:
            value = float(match.group(3))
        except ValueError:
            continue
        if not math.isfinite(value):
            continue
        name = match.group(1)
        total = values.get(name, 0.0) + value
        if math.isfinite(total):
            values[name] = total
    return values


def counter(values: dict[str, float], name: str) -> float | None:
    """A counter by its name, with or without the `_total` suffix the client libraries add."""
    base = name.removesuffix("_total")
    for candidate in (base + "_total", base):
        if candidate in values:
            return values[candidate]
    return None


def diff(before: dict[str, float], after: dict[str, float], name: str) -> int | None:
    """How much a counter grew between two pages (None when either lacks it, or it went
    down: the server restarted in between)."""
    a, b = counter(before, name), counter(after, name)
    if a is None or b is None or b < a:
        return None
    return derived(b - a)

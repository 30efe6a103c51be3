"""What a server reported about one answer's speculation, in one shape for every engine.

Never more than the server said: a server that reports nothing gives `SpecReport()` (no
numbers), one that reports totals gives totals, and per-step lists only come from a server
that sent them (vLLM's `detailed` per-request metrics).

Never a number that cannot be true: each adapter reads its format's values through `count`,
`millis` and `number` (finite, in range, or None), and a `SpecReport` drops what it cannot
hold (more accepted than drafted, a step that accepted more than it drafted) when it is made,
so an odd value from a server is left out rather than shown, and never costs the answer.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, TypeVar

T = TypeVar("T")

# Said wherever a server's answer is shown: its tokens carry no verdicts.
NO_COLOURS = ("Per-token colours need the local engine: a server reports its speculation as "
              "numbers, not token by token.")
# The words() templates, for a window that translates them (app/backend_text.py).
NO_NUMBERS = "The server reported no speculation numbers for this answer."
DRAFTED = "drafted {n}"
ACCEPTED = "accepted {n}"
ACCEPTANCE = "acceptance {percent:.1f} %"
VERIFY_STEPS = "{n} verify steps"
PER_STEP = "Accepted per step: {steps}."
TEMPLATES = (NO_COLOURS, NO_NUMBERS, DRAFTED, ACCEPTED, ACCEPTANCE, VERIFY_STEPS, PER_STEP)


def _same(text: str) -> str:
    return text


@dataclass(frozen=True)
class SpecReport:
    source: str = ""  # where the numbers come from, in words ("" = the server reported none)
    n_drafted: int | None = None
    n_accepted: int | None = None
    n_steps: int | None = None  # verify steps (draft rounds) the numbers cover
    accepted_per_step: tuple[int, ...] = ()  # only when the server sent per-step lists
    drafted_per_step: tuple[int, ...] = ()
    notes: tuple[str, ...] = field(default=())  # caveats in words (server-wide counters…)

    def __post_init__(self) -> None:
        def put(name: str, value: object) -> None:
            object.__setattr__(self, name, value)

        for name in ("n_drafted", "n_accepted", "n_steps"):
            put(name, count(getattr(self, name)))
        if (self.n_drafted is not None and self.n_accepted is not None
                and self.n_accepted > self.n_drafted):
            put("n_drafted", None)  # an acceptance over 100 %: which of the two is wrong is
            put("n_accepted", None)  # not known, so neither is shown
        accepted = int_list(self.accepted_per_step)
        drafted = int_list(self.drafted_per_step)
        if accepted is None or drafted is None or (drafted and (
                len(drafted) != len(accepted)
                or any(a > d for a, d in zip(accepted, drafted, strict=True)))):
            accepted = drafted = ()
        put("accepted_per_step", accepted)
        put("drafted_per_step", drafted)

    @property
    def has_numbers(self) -> bool:
        return self.n_drafted is not None or self.n_accepted is not None

    @property
    def acceptance_rate(self) -> float | None:
        if self.n_drafted and self.n_accepted is not None:
            return self.n_accepted / self.n_drafted
        return None

    def words(self, tr: Callable[[str], str] = _same) -> str:
        """One paragraph for a person: what the server reported, and what it did not. `tr`
        translates the fixed words (TEMPLATES); the source and notes are the server's."""
        if not self.has_numbers:
            return " ".join([tr(NO_NUMBERS), *self.notes, tr(NO_COLOURS)])
        parts = []
        if self.n_drafted is not None:
            parts.append(tr(DRAFTED).format(n=self.n_drafted))
        if self.n_accepted is not None:
            parts.append(tr(ACCEPTED).format(n=self.n_accepted))
        rate = self.acceptance_rate
        if rate is not None:
            parts.append(tr(ACCEPTANCE).format(percent=100 * rate))
        if self.n_steps:
            parts.append(tr(VERIFY_STEPS).format(n=self.n_steps))
        text = f"{self.source}: " + ", ".join(parts) + "."
        if self.accepted_per_step:
            shown = " ".join(str(n) for n in self.accepted_per_step[:64])
            more = " …" if len(self.accepted_per_step) > 64 else ""
            text += " " + tr(PER_STEP).format(steps=shown + more)
        return " ".join([text, *self.notes, tr(NO_COLOURS)])

    def to_dict(self) -> dict:
        return {
            "source": self.source, "n_drafted": self.n_drafted, "n_accepted": self.n_accepted,
            "n_steps": self.n_steps, "accepted_per_step": list(self.accepted_per_step),
            "drafted_per_step": list(self.drafted_per_step), "notes": list(self.notes),
            "acceptance_rate": self.acceptance_rate, "words": self.words(),
        }


# Bounds of what a server can truly report about one answer: beyond them a value is odd, not
# big (and a 400-digit count would not even fit a database column).
MAX_COUNT = 10**9  # tokens or steps
MAX_MS = 30 * 24 * 3600 * 1000.0  # thirty days
MAX_STEPS_LISTED = 1_000_000


def count(value: object) -> int | None:
    """A count as the server wrote it (an int, or a float with no fraction) when it can be
    true: 0 ≤ n ≤ MAX_COUNT; else None."""
    if isinstance(value, bool):
        return None
    if isinstance(value, float) and math.isfinite(value) and value.is_integer():
        value = int(value)
    if isinstance(value, int) and 0 <= value <= MAX_COUNT:
        return value
    return None


def number(value: object, low: float, high: float) -> float | None:
    """A finite number in [low, high], else None (NaN, Infinity, a string, a bool…)."""
    if isinstance(value, bool) or not isinstance(value, int | float):
        return None
    try:
        value = float(value)
    except OverflowError:  # an int too large for a float
        return None
    return value if math.isfinite(value) and low <= value <= high else None


def millis(value: object) -> float | None:
    """A duration in milliseconds that can be true: finite, 0 ≤ ms ≤ MAX_MS."""
    return number(value, 0.0, MAX_MS)


def derived(value: float) -> int | None:
    """A count computed from other numbers (a rate, a mean): None when it is not one."""
    return count(round(value)) if math.isfinite(value) else None


def int_list(value: object) -> tuple[int, ...] | None:
    """A list of counts, or None when it is not one (or any entry is odd)."""
    if not isinstance(value, list | tuple) or len(value) > MAX_STEPS_LISTED:
        return None
    out = [count(v) for v in value]
    return None if any(v is None for v in out) else tuple(v for v in out if v is not None)


def fraction(value: object) -> float | None:
    """A rate: a finite number in [0, 1], else None."""
    return number(value, 0.0, 1.0)


def accept_length(value: object) -> float | None:
    """A mean accepted length per verify step, which counts the step's own token, so at
    least 1; else None."""
    return number(value, 1.0, float(MAX_COUNT))


def first(places: Sequence[dict[str, Any]], names: Sequence[str],
          convert: Callable[[object], T | None]) -> T | None:
    """The first value under any of `names` (servers have called one number several things)
    in any of `places` that `convert` can read; None when none can be."""
    for place in places:
        for name in names:
            if name in place:
                value = convert(place[name])
                if value is not None:
                    return value
    return None


def rest_of(generated: int | None, part: int | None) -> int | None:
    """An answer's tokens are its verify steps plus its accepted drafts (each step adds one
    token of the target's own after the drafts it accepted): given the tokens and one of the
    two, the other; None when either is unknown or they cannot be true together."""
    if generated is None or part is None or part > generated:
        return None
    return generated - part


def drafted_from_rate(accepted: int | None, rate: float | None) -> int | None:
    """How many drafts an accepted count and an acceptance rate mean (None without both)."""
    return derived(accepted / rate) if accepted is not None and rate else None

"""What a server reported about one answer's speculation, in one shape for every engine.

Never more than the server said: a server that reports nothing gives `SpecReport()` (no
numbers), one that reports totals gives totals, and per-step lists only come from a server
that sent them (vLLM's `detailed` per-request metrics).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

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


def as_int(value: object) -> int | None:
    """A count as the server wrote it (int, or a float with no fraction), else None."""
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value
    if isinstance(value, float) and value.is_integer():
        return int(value)
    return None


def int_list(value: object) -> tuple[int, ...] | None:
    if not isinstance(value, list):
        return None
    out = [as_int(v) for v in value]
    return None if any(v is None for v in out) else tuple(v for v in out if v is not None)

"""llama.cpp's `llama-server`: each response's `timings` object (on the last streamed chunk)
has `draft_n` (tokens drafted) and `draft_n_accepted` when it runs with a draft model, an
n-gram or MTP drafter, besides its prompt and generation counts and times.

`timings` is read in one place (`_Timings.read`): each count and time finite and in range,
and speculation counts that contradict the others (more drafts accepted than drafted, or
than tokens generated) left out rather than shown. Its /metrics page is not read: the
timings say all of one answer. (An `adapter.ServerAdapter`.)"""

from __future__ import annotations

from dataclasses import dataclass

from backend.serving.adapter import Extras, Metrics
from backend.serving.report import SpecReport, count, millis, rest_of

NAME = "llama-server"
FIELDS: tuple[str, ...] = ("timings",)
SOURCE = "llama-server's timings"


@dataclass(frozen=True)
class _Timings:
    prompt_n: int | None = None  # tokens evaluated (the cached ones not included)
    cache_n: int | None = None
    predicted_n: int | None = None
    prompt_ms: float | None = None
    predicted_ms: float | None = None
    draft_n: int | None = None
    draft_n_accepted: int | None = None

    @classmethod
    def read(cls, extras: Extras) -> _Timings | None:
        timings = extras.get("timings")
        if not isinstance(timings, dict):
            return None
        t = cls(**{name: count(timings.get(name)) for name in (
                       "prompt_n", "cache_n", "predicted_n", "draft_n", "draft_n_accepted")},
                prompt_ms=millis(timings.get("prompt_ms")),
                predicted_ms=millis(timings.get("predicted_ms")))
        drafted, accepted, generated = t.draft_n, t.draft_n_accepted, t.predicted_n
        # Each verify step adds a token of the target's own after the drafts it accepted.
        if accepted is not None and ((drafted is not None and accepted > drafted)
                                     or (generated is not None and accepted >= generated > 0)):
            t = cls(t.prompt_n, t.cache_n, t.predicted_n, t.prompt_ms, t.predicted_ms)
        return t


def read(extras: Extras) -> SpecReport | None:
    """The speculation of one answer; None when the response is not llama-server's."""
    t = _Timings.read(extras)
    if t is None:
        return None
    if t.draft_n is None and t.draft_n_accepted is None:
        return SpecReport()  # llama-server without speculation
    steps = rest_of(t.predicted_n, t.draft_n_accepted)
    return SpecReport(SOURCE, n_drafted=t.draft_n, n_accepted=t.draft_n_accepted,
                      n_steps=steps or None)


def counted(before: Metrics, after: Metrics) -> SpecReport | None:
    return None


def server_wide(after: Metrics) -> str:
    return ""


def timings(extras: Extras) -> dict[str, float]:
    """The server's own counts and times of the answer, in `Stats`' names."""
    t = _Timings.read(extras)
    if t is None:
        return {}
    out: dict[str, float] = {}
    for ours, value in (("n_prompt", t.prompt_n), ("n_cached", t.cache_n),
                        ("n_generated", t.predicted_n), ("prompt_ms", t.prompt_ms),
                        ("generation_ms", t.predicted_ms)):
        if value is not None:
            out[ours] = value
    if "n_prompt" in out and "n_cached" in out:
        # llama-server's prompt_n counts only the tokens it evaluated, cache_n the reused ones
        out["n_prompt"] += out["n_cached"]
    return out

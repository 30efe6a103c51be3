"""llama.cpp's `llama-server`: each response's `timings` object (on the last streamed chunk)
has `draft_n` (tokens drafted) and `draft_n_accepted` when it runs with a draft model, an
n-gram or MTP drafter, besides its prompt and generation counts and times."""

from __future__ import annotations

from typing import Any

from backend.serving.report import SpecReport, as_int

SOURCE = "llama-server's timings"


def read(extras: dict[str, Any]) -> SpecReport | None:
    """The speculation of one answer; None when the response is not llama-server's."""
    timings = extras.get("timings")
    if not isinstance(timings, dict):
        return None
    drafted = as_int(timings.get("draft_n"))
    accepted = as_int(timings.get("draft_n_accepted"))
    if drafted is None and accepted is None:
        return SpecReport()  # llama-server without speculation
    generated = as_int(timings.get("predicted_n"))
    # Each verify step adds one token of the target's own after the drafts it accepted.
    steps = generated - accepted if generated is not None and accepted is not None else None
    return SpecReport(SOURCE, n_drafted=drafted, n_accepted=accepted,
                      n_steps=steps if steps and steps > 0 else None)


def timing_fields(extras: dict[str, Any]) -> dict[str, float]:
    """The server's own counts and times of the answer, in `Stats`' names."""
    timings = extras.get("timings")
    if not isinstance(timings, dict):
        return {}
    out: dict[str, float] = {}
    for ours, theirs in (("n_prompt", "prompt_n"), ("n_cached", "cache_n"),
                         ("n_generated", "predicted_n")):
        value = as_int(timings.get(theirs))
        if value is not None and value >= 0:
            out[ours] = value
    for ours, theirs in (("prompt_ms", "prompt_ms"), ("generation_ms", "predicted_ms")):
        value = timings.get(theirs)
        if isinstance(value, int | float) and not isinstance(value, bool) and value >= 0:
            out[ours] = float(value)
    if "n_prompt" in out and "n_cached" in out:
        # llama-server's prompt_n counts only the tokens it evaluated, cache_n the reused ones
        out["n_prompt"] += out["n_cached"]
    return out

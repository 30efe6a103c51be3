"""SGLang: per-request `meta_info` (`spec_verify_ct`: verify steps, with `completion_tokens`
the accepted drafts follow, as each step adds one token of the target's own; newer releases
add the accepted and drafted counts themselves) and, server-wide, the `sglang:spec_accept_length`
and `sglang:spec_accept_rate` gauges of its `/metrics`. Each value is read through `report`'s
readers (finite, in range) or left out. (An `adapter.ServerAdapter`.)"""

from __future__ import annotations

from backend.serving.adapter import Extras, Metrics
from backend.serving.report import (
    MAX_COUNT,
    SpecReport,
    accept_length,
    count,
    derived,
    drafted_from_rate,
    first,
    fraction,
    number,
    rest_of,
)

NAME = "SGLang"
FIELDS: tuple[str, ...] = ("meta_info",)
SOURCE = "SGLang's meta info"
ACCEPT_LENGTH = "sglang:spec_accept_length"
ACCEPT_RATE = "sglang:spec_accept_rate"


def read(extras: Extras) -> SpecReport | None:
    meta = extras.get("meta_info")
    if not isinstance(meta, dict):
        return None
    steps = count(meta.get("spec_verify_ct"))
    generated = count(meta.get("completion_tokens"))
    length = accept_length(meta.get("spec_accept_length"))
    if not steps and generated and length is not None:
        steps = derived(generated / length)
    if not steps:
        return SpecReport()  # SGLang without speculation (or an answer with no steps)
    accepted = first([meta], ("spec_accepted_tokens", "spec_num_accepted_tokens"), count)
    if accepted is None:
        accepted = rest_of(generated, steps)
    drafted = first([meta], ("spec_draft_tokens", "spec_num_draft_tokens"), count)
    if drafted is None:
        drafted = drafted_from_rate(accepted, fraction(meta.get("spec_accept_rate")))
    return SpecReport(SOURCE, n_drafted=drafted, n_accepted=accepted, n_steps=steps)


def counted(before: Metrics, after: Metrics) -> SpecReport | None:
    return None


def server_wide(after: Metrics) -> str:
    """SGLang's /metrics gauges in words ("" when it has none): recent requests, all users."""
    length = number(after.get(ACCEPT_LENGTH), 0.0, float(MAX_COUNT))
    rate = fraction(after.get(ACCEPT_RATE))
    if length is None and rate is None:
        return ""
    parts = []
    if length is not None:
        parts.append(f"mean accepted length {length:.2f}")
    if rate is not None:
        parts.append(f"acceptance rate {100 * rate:.1f} %")
    return f"SGLang's /metrics, over its recent requests (server-wide): {', '.join(parts)}."


def timings(extras: Extras) -> dict[str, float]:
    return {}

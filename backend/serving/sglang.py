"""SGLang: per-request `meta_info` (`spec_verify_ct`: verify steps, with `completion_tokens`
the accepted drafts follow, as each step adds one token of the target's own; newer releases
add the accepted and drafted counts themselves) and, server-wide, the `sglang:spec_accept_length`
and `sglang:spec_accept_rate` gauges of its `/metrics`. Each value is read through
`report.count`/`number` (finite, in range) or left out."""

from __future__ import annotations

from typing import Any

from backend.serving.report import MAX_COUNT, SpecReport, count, derived, number

SOURCE = "SGLang's meta info"
ACCEPT_LENGTH = "sglang:spec_accept_length"
ACCEPT_RATE = "sglang:spec_accept_rate"


def meta_info(chunk: dict[str, Any]) -> dict[str, Any] | None:
    """Where a chunk carries its meta info: top level, or in its first choice."""
    meta = chunk.get("meta_info")
    if isinstance(meta, dict):
        return meta
    choices = chunk.get("choices")
    if isinstance(choices, list) and choices and isinstance(choices[0], dict):
        meta = choices[0].get("meta_info")
        if isinstance(meta, dict):
            return meta
    return None


def read(extras: dict[str, Any]) -> SpecReport | None:
    meta = extras.get("meta_info")
    if not isinstance(meta, dict):
        return None
    steps = count(meta.get("spec_verify_ct"))
    generated = count(meta.get("completion_tokens"))
    # tokens per verify step, its own token included
    length = number(meta.get("spec_accept_length"), 1.0, float(MAX_COUNT))
    if not steps and generated and length is not None:
        steps = derived(generated / length)
    if not steps:
        return SpecReport()  # SGLang without speculation (or an answer with no steps)
    accepted = count(meta.get("spec_accepted_tokens", meta.get("spec_num_accepted_tokens")))
    if accepted is None and generated is not None:
        accepted = max(0, generated - steps)
    drafted = count(meta.get("spec_draft_tokens", meta.get("spec_num_draft_tokens")))
    rate = number(meta.get("spec_accept_rate"), 0.0, 1.0)
    if drafted is None and accepted is not None and rate:
        drafted = derived(accepted / rate)
    return SpecReport(SOURCE, n_drafted=drafted, n_accepted=accepted, n_steps=steps)


def server_wide(values: dict[str, float]) -> str:
    """SGLang's /metrics gauges in words ("" when it has none): recent requests, all users."""
    length = number(values.get(ACCEPT_LENGTH), 0.0, float(MAX_COUNT))
    rate = number(values.get(ACCEPT_RATE), 0.0, 1.0)
    if length is None and rate is None:
        return ""
    parts = []
    if length is not None:
        parts.append(f"mean accepted length {length:.2f}")
    if rate is not None:
        parts.append(f"acceptance rate {100 * rate:.1f} %")
    return f"SGLang's /metrics, over its recent requests (server-wide): {', '.join(parts)}."

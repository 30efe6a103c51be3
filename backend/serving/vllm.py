"""vLLM: per-request `metrics.speculative_decoding` when it runs with
`--per-request-spec-decode-metrics summary|detailed` (`detailed` adds the ordered per-step
accepted and proposed counts), otherwise its Prometheus counters read before and after the
answer. The response field is marked experimental by vLLM, so the names it has had are all
read, and a shape that is not understood gives no numbers rather than wrong ones: every value
is read through `report`'s readers, and a per-step list that disagrees with the totals
beside it is left out. (An `adapter.ServerAdapter`.)"""

from __future__ import annotations

from typing import Any

from backend.serving import prometheus
from backend.serving.adapter import Extras, Metrics
from backend.serving.report import (
    SpecReport,
    accept_length,
    count,
    derived,
    drafted_from_rate,
    first,
    fraction,
    int_list,
)

NAME = "vLLM"
FIELDS: tuple[str, ...] = ("metrics",)
SUMMARY = "vLLM's per-request metrics"
COUNTERS_SOURCE = "vLLM's counters (/metrics, before and after the answer)"
NUM_DRAFTS = "vllm:spec_decode_num_drafts"
NUM_DRAFT_TOKENS = "vllm:spec_decode_num_draft_tokens"
NUM_ACCEPTED = "vllm:spec_decode_num_accepted_tokens"
SHARED_COUNTERS = ("These counters are the whole server's: answers others got at the same "
                   "time count too.")

_DRAFTS = ("num_drafts", "num_spec_steps", "num_steps", "num_verify_steps")
_DRAFTED = ("num_draft_tokens", "num_drafted_tokens", "draft_tokens", "num_proposed_tokens")
_ACCEPTED = ("num_accepted_tokens", "accepted_tokens", "num_accepted")
_PER_STEP_ACCEPTED = ("accepted_per_step", "num_accepted_tokens_per_step", "accepted",
                      "step_accepted", "accepted_tokens_per_step")
_PER_STEP_DRAFTED = ("proposed_per_step", "num_draft_tokens_per_step", "proposed",
                     "step_proposed", "draft_tokens_per_step", "drafted_per_step")


def read(extras: Extras) -> SpecReport | None:
    """One answer's numbers from the response body; None when it carries none."""
    metrics = extras.get("metrics")
    spec = metrics.get("speculative_decoding") if isinstance(metrics, dict) else None
    if not isinstance(spec, dict):
        return None
    places = [spec] + [v for k, v in spec.items() if isinstance(v, dict)
                       and k in ("detailed", "per_step", "steps", "summary")]
    accepted_steps = first(places, _PER_STEP_ACCEPTED, int_list)
    drafted_steps = first(places, _PER_STEP_DRAFTED, int_list)
    if accepted_steps is None or drafted_steps is None:  # or one record per step
        accepted_steps, drafted_steps = _step_records(spec) or (accepted_steps, drafted_steps)
    if accepted_steps is not None and drafted_steps is not None and len(
            accepted_steps) == len(drafted_steps):
        return SpecReport(SUMMARY + " (detailed)", n_drafted=sum(drafted_steps),
                          n_accepted=sum(accepted_steps), n_steps=len(accepted_steps),
                          accepted_per_step=accepted_steps, drafted_per_step=drafted_steps)
    drafts = first(places, _DRAFTS, count)
    drafted = first(places, _DRAFTED, count)
    accepted = first(places, _ACCEPTED, count)
    mean_length = first(places, ("mean_acceptance_length",), accept_length)
    rate = first(places, ("draft_acceptance_rate", "acceptance_rate"), fraction)
    if accepted is None and mean_length is not None and drafts:
        accepted = derived((mean_length - 1.0) * drafts)
    if drafted is None:
        drafted = drafted_from_rate(accepted, rate)
    if drafted is None and accepted is None:
        return None
    if accepted_steps is not None and ((drafts is not None and len(accepted_steps) != drafts)
                                       or (accepted is not None
                                       and sum(accepted_steps) != accepted)):
        accepted_steps = None  # a list that disagrees with its own totals
    return SpecReport(SUMMARY, n_drafted=drafted, n_accepted=accepted, n_steps=drafts,
                      accepted_per_step=accepted_steps or ())


def counted(before: Metrics, after: Metrics) -> SpecReport | None:
    """The answer's share of the server-wide counters; None when the server has none."""
    drafted = prometheus.diff(before, after, NUM_DRAFT_TOKENS)
    accepted = prometheus.diff(before, after, NUM_ACCEPTED)
    if drafted is None or accepted is None:
        return None
    return SpecReport(COUNTERS_SOURCE, n_drafted=drafted, n_accepted=accepted,
                      n_steps=prometheus.diff(before, after, NUM_DRAFTS) or None,
                      notes=(SHARED_COUNTERS,))


def server_wide(after: Metrics) -> str:
    return ""


def timings(extras: Extras) -> dict[str, float]:
    return {}


def _step_records(spec: dict[str, Any]) -> tuple[tuple[int, ...], tuple[int, ...]] | None:
    """Per-step lists from a list of per-step records ({"accepted": a, "proposed": p})."""
    for key in ("steps", "per_step", "detailed"):
        records = spec.get(key)
        if not isinstance(records, list) or not records or not all(
                isinstance(r, dict) for r in records):
            continue
        accepted = [first([r], (*_ACCEPTED, "accepted", "num_accepted"), count)
                    for r in records]
        drafted = [first([r], (*_DRAFTED, "proposed", "drafted", "num_proposed"), count)
                   for r in records]
        if all(a is not None for a in accepted) and all(d is not None for d in drafted):
            return (tuple(a for a in accepted if a is not None),
                    tuple(d for d in drafted if d is not None))
    return None

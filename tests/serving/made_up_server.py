"""A server Draftlight was not written for, as one module implementing `ServerAdapter`: it
reports each answer's speculation in a response field of its own, `made_up`
({"proposed": n, "kept": m, "rounds": s, "decode_ms": t})."""

from __future__ import annotations

from backend.serving.adapter import Extras, Metrics
from backend.serving.report import SpecReport, count, millis

NAME = "made-up server"
FIELDS: tuple[str, ...] = ("made_up",)
SOURCE = "the made-up server's field"


def read(extras: Extras) -> SpecReport | None:
    said = extras.get("made_up")
    if not isinstance(said, dict):
        return None
    return SpecReport(SOURCE, n_drafted=count(said.get("proposed")),
                      n_accepted=count(said.get("kept")), n_steps=count(said.get("rounds")))


def counted(before: Metrics, after: Metrics) -> SpecReport | None:
    return None


def server_wide(after: Metrics) -> str:
    return ""


def timings(extras: Extras) -> dict[str, float]:
    said = extras.get("made_up")
    ms = millis(said.get("decode_ms")) if isinstance(said, dict) else None
    return {} if ms is None else {"generation_ms": ms}

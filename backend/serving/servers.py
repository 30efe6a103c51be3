"""The servers whose speculation Draftlight reads, in the order their reports are preferred,
and what they say together about one answer. A new server is its module (implementing
`adapter.ServerAdapter`) and a line in `_SERVERS`; a test registers its own."""

from __future__ import annotations

from dataclasses import replace

from backend.serving import llama_server, sglang, vllm
from backend.serving.adapter import Extras, Metrics, ServerAdapter
from backend.serving.report import SpecReport

_SERVERS: list[ServerAdapter] = [llama_server, vllm, sglang]


def all_servers() -> tuple[ServerAdapter, ...]:
    return tuple(_SERVERS)


def register(server: ServerAdapter) -> None:
    if any(s.NAME == server.NAME for s in _SERVERS):
        raise ValueError(f"server {server.NAME!r} is already registered")
    _SERVERS.append(server)


def unregister(name: str) -> None:
    """Remove a server (tests register their own and remove them after)."""
    _SERVERS[:] = [s for s in _SERVERS if name != s.NAME]


def fields() -> tuple[str, ...]:
    """The response fields any server's adapter reads (OpenAI's `usage` is read by all)."""
    return tuple(dict.fromkeys(f for s in _SERVERS for f in s.FIELDS))


def read(extras: Extras) -> SpecReport | None:
    """What the answer's own fields say: the first server's report with both totals, else the
    last one with any number; None when no server gave a number."""
    partial = None
    for server in _SERVERS:
        report = server.read(extras)
        if report is not None and report.n_drafted is not None and (
                report.n_accepted is not None):
            return report
        if report is not None and report.has_numbers:
            partial = report
    return partial


def with_metrics(partial: SpecReport | None, before: Metrics, after: Metrics) -> SpecReport:
    """`partial` (or nothing) and the /metrics pages read before and after the answer: a
    server's count of the answer's share replaces it; server-wide words join its notes."""
    for server in _SERVERS:
        counted = server.counted(before, after)
        if counted is not None:
            return counted
    notes = tuple(words for server in _SERVERS if (words := server.server_wide(after)))
    said = partial if partial is not None else SpecReport()
    return replace(said, notes=(*said.notes, *notes)) if notes else said


def timings(extras: Extras) -> dict[str, float]:
    """The answer's counts and times as its server measured them, in `Stats`' names."""
    out: dict[str, float] = {}
    for server in _SERVERS:
        out.update(server.timings(extras))
    return out

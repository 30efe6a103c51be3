"""What Draftlight reads from one kind of OpenAI-compatible server about its speculation: the
protocol a server's module implements (the module itself is the adapter, as `llama_server`,
`vllm` and `sglang` are), so that a new server is one module and a line in `servers`.

Every server answers the same endpoints (`client`: /models, /chat/completions, /metrics), and
none says which server it is, so a server is not probed in advance: it is recognised by what
it sends. Every adapter reads every answer and gives nothing where the answer carries nothing
of its server's. Each value is read through `report`'s `count`/`number`, never as sent.
"""

from __future__ import annotations

from typing import Any, Protocol, runtime_checkable

from backend.serving.report import SpecReport

Extras = dict[str, Any]  # the response fields kept from an answer's stream, the last of each
Metrics = dict[str, float]  # a /metrics page, read by `prometheus.parse_metrics`


@runtime_checkable
class ServerAdapter(Protocol):
    NAME: str  # the server, as its users name it
    FIELDS: tuple[str, ...]  # the response fields of its own it reads, besides OpenAI's usage

    def read(self, extras: Extras) -> SpecReport | None:
        """One answer's speculation from its response fields; None when they have none of
        this server's."""

    def counted(self, before: Metrics, after: Metrics) -> SpecReport | None:
        """The answer's share of the server's /metrics counters, read before and after it;
        None when the pages have none of this server's."""

    def server_wide(self, after: Metrics) -> str:
        """What the server's /metrics gauges say of its recent requests, in words ("" when
        the page has none of this server's)."""

    def timings(self, extras: Extras) -> dict[str, float]:
        """The answer's counts and times as the server measured them, in `Stats`' names."""

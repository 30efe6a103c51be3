"""A test-only drafter, added the way a real one is: its own module plus one
`spec_types.register` call. It proposes the last token again, K times; the counting target
never repeats a word, so every draft is rejected and the answer is plain decoding's."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from backend import spec_types
from backend.engine.drafters.base import DraftingSetup, Proposal

NAME = "echo"
SPEC = spec_types.SpecType(
    NAME, "echo (test only)", "echo", "Proposes the last token again.",
    factory="engine.echo_drafter:make", drafted_by="drafted by echo",
)


class EchoDrafter:
    origin = NAME

    def begin(self, request, rng) -> None:
        pass

    def propose(self, history: list[int], n_max: int) -> Proposal:
        return Proposal([history[-1]] * n_max, [None] * n_max, [1.0] * n_max, [None] * n_max)

    def close(self) -> None:
        pass


def make(setup: DraftingSetup) -> EchoDrafter:
    return EchoDrafter()


@contextmanager
def registered() -> Iterator[spec_types.SpecType]:
    """The echo spec type declared for the duration of a test."""
    spec_types.register(SPEC)
    try:
        yield SPEC
    finally:
        spec_types.unregister(NAME)

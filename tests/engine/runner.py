"""Running a request to the end in a test."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import numpy as np
import pytest

from backend.engine.context import Context
from backend.engine.engine import Engine
from backend.engine.events import GenerationFailed, GenerationFinished, StepVerified
from backend.engine.request import GenerationRequest


def run(engine: Engine, request):
    """(final event, steps) of one request; fails the test on GenerationFailed."""
    steps = []
    final = None
    for ev in engine.generate(request):
        if isinstance(ev, StepVerified):
            steps.append(ev)
        elif isinstance(ev, GenerationFailed):
            pytest.fail(f"generation failed: {ev.message} {ev.detail}")
        elif isinstance(ev, GenerationFinished):
            final = ev
    assert final is not None
    return final, steps


def emitted_ids(steps) -> list[int]:
    return [t.id for s in steps for t in s.emitted]


def _next_logits(engine: Engine, history: list[int]) -> np.ndarray:
    """The target's logits after `history`, decoding only its last token on top of the cache
    the engine left (which holds history[:-1])."""
    ctx = engine._ctx
    assert ctx.tokens == history[:-1]
    return ctx.decode(history[-1:])[0].copy()


def assert_rollback_leaves_plain_state(engine: Engine, spec: str, n_draft_max: int,
                                       text: str = " zero one", tol: float = 1e-3) -> None:
    """After answering `text` with `spec`, the target's cache is what plain decoding leaves:
    the next logits agree within `tol`. The check has teeth: a history that took in one extra
    word a few steps back (what a failed rollback leaves) differs by over 0.05. The answer
    must have rejected some drafts, or there was nothing to roll back."""
    prompt = engine._target.tokenize(text, add_special=False)
    outputs = {}
    for kind in (spec, "none"):
        final, steps = run(engine, GenerationRequest(
            prompt=text, spec_type=kind, n_draft_max=n_draft_max, max_tokens=25))
        if kind == spec:
            assert final.stats.n_drafted > final.stats.n_accepted, "no draft was rejected"
        history = prompt + emitted_ids(steps)
        outputs[kind] = history, _next_logits(engine, history)
    (h_spec, l_spec), (h_plain, l_plain) = outputs[spec], outputs["none"]
    assert h_spec == h_plain
    assert np.abs(l_spec - l_plain).max() < tol
    model = engine._target
    ctx = Context(model, n_ctx=256, n_threads=1)
    try:
        wrong = h_plain[:-3] + model.tokenize(" seven", add_special=False) + h_plain[-3:]
        l_wrong = ctx.decode(wrong)[0].copy()
    finally:
        ctx.close()
    assert np.argmax(l_wrong) == np.argmax(l_plain)  # same next word, other state
    assert np.abs(l_wrong - l_plain).max() > 0.05


@contextmanager
def loaded_engine(
    target: Path, draft: Path | None = None, *, n_ctx: int, n_threads: int
) -> Iterator[Engine]:
    """An engine with `target` (and `draft`) loaded, closed afterwards."""
    engine = Engine()
    try:
        engine.load_target(target, n_ctx=n_ctx, n_threads=n_threads)
        if draft is not None:
            engine.load_draft(draft)
        yield engine
    finally:
        engine.close()


def split_step(last: int, drafts: list[int], n_cycle: int) -> tuple[list[int], list[int], int]:
    """On a counting model: (accepted, rejected, target's own cycle index) of a step whose
    drafts follow cycle index `last`: the target accepts while each draft is the next word."""
    n_acc = next((j for j, d in enumerate(drafts) if d != (last + 1 + j) % n_cycle),
                 len(drafts))
    return drafts[:n_acc], drafts[n_acc:], (last + 1 + n_acc) % n_cycle

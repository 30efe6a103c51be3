"""Threads "auto" (0) means the automatic count every time, not the number applied before."""

from __future__ import annotations

import llama_cpp

from backend.engine import engine as engine_module
from engine.runner import loaded_engine

AUTO_COUNT = 3  # distinct from every number the test applies, whatever the machine's cores


def _context_threads(engine) -> tuple[int, int]:
    """What llama.cpp's target context was really made with (decode, batch)."""
    ctx = engine._ctx.ctx
    return llama_cpp.llama_n_threads(ctx), llama_cpp.llama_n_threads_batch(ctx)


def test_auto_after_a_number_uses_the_automatic_count_again(test_models, monkeypatch):
    monkeypatch.setattr(engine_module, "default_threads", lambda: AUTO_COUNT)
    target = test_models / "count-target.gguf"
    with loaded_engine(target, n_ctx=256, n_threads=1) as engine:
        assert _context_threads(engine) == (1, 1)

        engine.configure(n_threads=0)  # the panel's Apply with Threads "auto"
        assert engine.n_threads == AUTO_COUNT
        assert _context_threads(engine) == (AUTO_COUNT, AUTO_COUNT)

        engine.configure(n_threads=2)
        assert _context_threads(engine) == (2, 2)
        # a load with "auto" (the window's worker passes 0 on as None)
        engine.load_target(target, n_ctx=256, n_threads=None)
        assert _context_threads(engine) == (AUTO_COUNT, AUTO_COUNT)

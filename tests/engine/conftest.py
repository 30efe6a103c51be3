"""Engines on the test models, loaded once per module (loading the demo pair takes seconds)."""

from __future__ import annotations

import pytest

from backend.engine import Engine


@pytest.fixture(scope="module")
def count_engine(test_models):
    e = Engine()
    e.load_target(test_models / "count-target.gguf", n_ctx=512, n_threads=1)
    e.load_draft(test_models / "count-draft.gguf")
    yield e
    e.close()


@pytest.fixture(scope="module")
def demo_engine(test_models):
    e = Engine()
    e.load_target(test_models / "demo-target-f32.gguf", n_ctx=2048, n_threads=2)
    e.load_draft(test_models / "demo-draft-q8_0.gguf")
    yield e
    e.close()

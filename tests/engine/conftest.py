"""Engines on the test models, loaded once per module (loading the demo pair takes seconds)."""

from __future__ import annotations

import pytest

from engine.runner import loaded_engine


@pytest.fixture(scope="module")
def count_engine(test_models):
    with loaded_engine(test_models / "count-target.gguf", test_models / "count-draft.gguf",
                       n_ctx=512, n_threads=1) as e:
        yield e


@pytest.fixture(scope="module")
def demo_engine(test_models):
    with loaded_engine(test_models / "demo-target-f32.gguf", test_models / "demo-draft-q8_0.gguf",
                       n_ctx=2048, n_threads=2) as e:
        yield e


@pytest.fixture(scope="module")
def dist_engine(test_models):
    """The distribution models (tests/engine/dist_pairs.py), target and draft."""
    with loaded_engine(test_models / "dist-target.gguf", test_models / "dist-draft.gguf",
                       n_ctx=64, n_threads=1) as e:
        yield e


@pytest.fixture(scope="module")
def dist_e3_engine(test_models):
    with loaded_engine(test_models / "dist-target3.gguf", test_models / "eagle3-dist.gguf",
                       n_ctx=64, n_threads=1) as e:
        yield e

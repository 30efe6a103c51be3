"""The test models are what they claim to be: the counting construction counts, the draft
skips exactly where designed, and every file loads in llama.cpp."""

from __future__ import annotations

import hashlib

import build as model_builder
import pytest

from backend.engine.engine import Engine
from backend.engine.model import LoadedModel
from backend.engine.request import GenerationRequest, SamplingSettings

WORDS = [" " + w for w in model_builder.CYCLE_WORDS]


def continuation(path, n: int, temperature: float = 0.0) -> list[str]:
    engine = Engine()
    try:
        engine.load_target(path, n_ctx=256, n_threads=1)
        request = GenerationRequest(
            prompt=" zero one", max_tokens=n,
            sampling=SamplingSettings(temperature=temperature, top_k=0, top_p=1.0, min_p=0.0,
                                      seed=7),
        )
        pieces = []
        for ev in engine.generate(request):
            pieces += [t.text for t in getattr(ev, "emitted", ())]
        return pieces
    finally:
        engine.close()


def test_builder_writes_every_file_and_llama_cpp_loads_each(test_models):
    for name in model_builder.ALL_FILES:
        model = LoadedModel(test_models / name)
        try:
            assert model.n_vocab == 49152, name
        finally:
            model.close()


@pytest.mark.parametrize("temperature", [0.0, 1.0])
def test_count_target_counts(test_models, temperature):
    got = continuation(test_models / "count-target.gguf", 26, temperature)
    expected = [WORDS[(2 + i) % 12] for i in range(26)]
    assert got == expected


def test_count_target_slow_has_the_same_output(test_models):
    assert continuation(test_models / "count-target-slow.gguf", 14) == continuation(
        test_models / "count-target.gguf", 14
    )


def test_count_draft_skips_every_fourth_position(test_models):
    got = continuation(test_models / "count-draft.gguf", 12)
    # after " three" (index 3), " seven" (7) and " eleven" (11) it jumps over one word
    assert got == [" two", " three", " five", " six", " seven", " nine", " ten", " eleven",
                   " one", " two", " three", " five"]


def test_build_is_deterministic(tmp_path, test_models):
    model_builder.build(tmp_path, demo=False)
    for name in model_builder.SYNTHETIC_FILES:
        a = hashlib.sha256((tmp_path / name).read_bytes()).hexdigest()
        b = hashlib.sha256((test_models / name).read_bytes()).hexdigest()
        assert a == b, name

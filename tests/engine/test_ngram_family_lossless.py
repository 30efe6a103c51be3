"""llama.cpp's other lookups (ngram-map-k, ngram-map-k4v, ngram-mod, ngram-cache) are spec types
like the others, and lossless: greedy output equals plain decoding token for token."""

from __future__ import annotations

import pytest
from build import CYCLE_WORDS

from backend import spec_types
from backend.cli.main import build_parser
from backend.engine.drafters.ngram_map import NgramMapDrafter, NgramMapSettings
from backend.engine.drafters.ngram_mod import NgramModDrafter, NgramModSettings
from backend.engine.request import GenerationRequest, Message
from backend.spec_types import SpecType
from engine.runner import emitted_ids, run

FAMILY = ("ngram-map-k", "ngram-map-k4v", "ngram-mod", "ngram-cache")
WORDS = list(CYCLE_WORDS)
# The count, then three times a count that skips "five six" (copies of it are wrong drafts
# after "four"), then "zero one two": every lookup finds copies, right and wrong.
COUNT_PROMPT = " " + " ".join(WORDS + (WORDS[:5] + WORDS[7:]) * 3 + WORDS[:3])


# The same rules with short keys (llama.cpp's flags --spec-ngram-map-k-size-n and the like),
# declared for these tests the way any spec type is: their lookups reach the wrong copies
# in the prompt, which the defaults' 12- and 24-token keys do not.
def small_map_k(setup):
    return NgramMapDrafter("small-map-k", True, NgramMapSettings(2, 8, 1))


def small_map_k4v(setup):
    return NgramMapDrafter("small-map-k4v", False, NgramMapSettings(2, 4, 1))


def small_mod(setup):
    return NgramModDrafter(NgramModSettings(2, 1, 8), table_size=1 << 16, origin="small-mod")


SMALL = {name: SpecType(name, name, name, name, factory=f"{__name__}:{factory}")
         for name, factory in (("small-map-k", "small_map_k"),
                               ("small-map-k4v", "small_map_k4v"),
                               ("small-mod", "small_mod"))}


@pytest.fixture
def small():
    for spec in SMALL.values():
        spec_types.register(spec)
    try:
        yield
    finally:
        for name in SMALL:
            spec_types.unregister(name)


@pytest.mark.parametrize("name", FAMILY)
def test_each_is_declared_under_llama_cpps_name(name):
    spec = spec_types.get(name)
    assert spec is not None and spec.drafts and spec.needs == "" and not spec.uses_p_min
    args = build_parser().parse_args(["generate", "--model", "m.gguf", "--spec", name, "p"])
    assert args.spec_type == name


def _lossless(engine, name: str, n_draft_max: int) -> list:
    _, plain = run(engine, GenerationRequest(prompt=COUNT_PROMPT, max_tokens=140))
    final, steps = run(engine, GenerationRequest(
        prompt=COUNT_PROMPT, max_tokens=140, spec_type=name, n_draft_max=n_draft_max,
        measure_plain=False))
    assert emitted_ids(steps) == emitted_ids(plain)
    drafted = [t for s in steps for t in s.drafted]
    assert drafted and all(t.origin == name for t in drafted)
    assert final.stats.n_drafted == len(drafted)
    return drafted


@pytest.mark.parametrize("n_draft_max", [8, 0])
@pytest.mark.parametrize("name", FAMILY)
def test_greedy_equals_plain_decoding_on_the_counting_model(count_engine, name, n_draft_max):
    drafted = _lossless(count_engine, name, n_draft_max)
    if name == "ngram-cache" and n_draft_max:  # its 1- to 4-token n-grams reach wrong copies
        assert any(not t.accepted for t in drafted)


@pytest.mark.parametrize("n_draft_max", [8, 0])
@pytest.mark.parametrize("name", list(SMALL))
def test_greedy_equals_plain_decoding_where_copies_are_rejected(count_engine, small, name,
                                                                n_draft_max):
    drafted = _lossless(count_engine, name, n_draft_max)
    assert any(t.accepted for t in drafted)
    if n_draft_max:  # K auto may choose to verify none of a copy it doubts
        assert any(not t.accepted for t in drafted)


def test_greedy_equals_plain_decoding_on_the_demo_pair(demo_engine):
    """A real model, on a rewrite. The map types draft nothing on so short an answer with
    llama.cpp's defaults (their scan skips the prompt's last 61 tokens): ngram-mod and
    ngram-cache do."""
    text = ("Draftlight is a desktop chat app for local language models. It shows every "
            "token as it streams, coloured by where it came from, so that speculative "
            "decoding becomes visible to the people who use it every day.")
    messages = (Message("user", f"Repeat this text exactly, word for word:\n\n{text}"),)
    _, plain = run(demo_engine, GenerationRequest(messages=messages, max_tokens=32))
    for name in ("ngram-mod", "ngram-cache"):
        final, steps = run(demo_engine, GenerationRequest(
            messages=messages, spec_type=name, n_draft_max=8, max_tokens=32,
            measure_plain=False))
        assert emitted_ids(steps) == emitted_ids(plain), name
        assert final.stats.n_drafted > 0, name

"""The generation settings and the engine's request are declared once and agree: every
declared generation setting sets a request field, every request field is a setting or named
here as the engine's own, and `generation_request` is the one way from settings to request.
The request knows no setting, label or drafter."""

from __future__ import annotations

import copy
import dataclasses
import pickle

import grimp
import pytest

from backend import settings_schema as schema
from backend import spec_types
from backend.engine.request import PARTS, RANGE, GenerationRequest, Message, request_field
from backend.generation_settings import GenerationSettings, generation_request

GENERATION = schema.section("generation")
# Request fields no setting sets, and why: what to answer, and the engine's own tuning.
ENGINE_ONLY = {
    "messages", "prompt", "stop", "continue_text",  # what to answer: the caller's
    "request_id",  # the engine client's count
    "measure_plain",  # benches and tests turn it off
    "inspect",  # the consumer's: `generate` printing text shows nothing it would carry
    # llama.cpp's drafting knobs, at llama.cpp's defaults
    "n_draft_min",
    "ngram_map_k.min_hits",  # ngram-map-k does not read it, as in llama.cpp
    # the parts: their own fields are checked one by one
    "sampling", "ngram", "ngram_map_k", "ngram_map_k4v", "ngram_mod",
    "sampling.repeat_last_n",  # llama.cpp's window for the repeat penalty
}
# Settings whose default is not their request field's, and why: the window's repeat penalty
# is on (backend/settings_schema.py), the request's off, as in llama.cpp's tools.
OWN_DEFAULTS = {"generation.repeat_penalty"}


def _request_paths() -> set[str]:
    paths = set()
    for f in dataclasses.fields(GenerationRequest):
        paths.add(f.name)
        if f.name in PARTS:
            paths |= {f"{f.name}.{g.name}" for g in dataclasses.fields(PARTS[f.name])}
    return paths


def _at(request: GenerationRequest, path: str):
    for name in path.split("."):
        request = getattr(request, name)
    return request


def test_every_generation_setting_sets_a_request_field_and_every_field_is_accounted_for():
    fed = [o.request for o in GENERATION]
    assert len(fed) == len(set(fed)), "two settings set one field"
    assert set(fed) <= _request_paths()
    assert _request_paths() - set(fed) == ENGINE_ONLY, (
        "a request field that is neither a declared setting nor listed in ENGINE_ONLY, or "
        "the other way round")


@pytest.mark.parametrize("option", GENERATION, ids=lambda o: o.key)
def test_a_setting_takes_its_default_and_range_from_its_request_field(option):
    target = request_field(option.request)
    if option.key not in OWN_DEFAULTS:
        assert option.default == target.default
    assert option.problem(target.default) is None
    if RANGE in target.metadata:
        assert (option.minval, option.maxval) == target.metadata[RANGE]


def test_the_request_default_spec_type_is_plain_decoding():
    assert schema.SPEC_TYPE.default == spec_types.PLAIN
    assert GenerationRequest(prompt="x").spec_type == spec_types.PLAIN


def test_a_setting_cannot_declare_a_range_its_request_field_declares():
    with pytest.raises(ValueError, match="range"):
        schema.Option("generation.x", label="X", request="max_tokens", minval=1, maxval=2)
    with pytest.raises(KeyError):
        schema.Option("generation.x", label="X", request="sampling.no_such_field")
    with pytest.raises(ValueError, match="request field"):
        schema.register(schema.Option("generation.x", 1, label="X"))
    assert "generation.x" not in schema.OPTIONS


def test_generation_settings_are_the_declared_ones():
    gs = GenerationSettings()
    assert list(gs.to_dict()) == [o.name for o in GENERATION]
    assert gs.to_dict() == {o.name: o.default for o in GENERATION}
    with pytest.raises(TypeError, match="not generation settings: k"):
        GenerationSettings(k=4)
    with pytest.raises(AttributeError):
        gs.k = 4
    with pytest.raises(AttributeError):
        _ = gs.k


def test_each_setting_reaches_its_request_field():
    """Every setting given a value that is not its default, all at once."""
    changed = {}
    for option in GENERATION:
        if option.choices is not None:
            changed[option.name] = next(c for c in option.choices() if c != option.default)
        else:
            changed[option.name] = option.maxval
    request = generation_request(GenerationSettings(**changed),
                                 messages=[Message("user", "hi")], stop=["\n"],
                                 continue_text="So", request_id=7)
    for option in GENERATION:
        assert _at(request, option.request) == changed[option.name], option.key
    assert request.messages == (Message("user", "hi"),) and request.prompt is None
    assert (request.stop, request.continue_text, request.request_id) == (("\n",), "So", 7)


def test_the_default_settings_make_the_default_request_but_for_the_windows_own_defaults():
    request = generation_request(GenerationSettings(), prompt="x")
    bare = GenerationRequest(prompt="x")
    for option in GENERATION:
        if option.key not in OWN_DEFAULTS:
            assert _at(request, option.request) == _at(bare, option.request), option.key
    assert request.sampling.repeat_penalty == schema.REPEAT_PENALTY.default != 1.0


def test_a_refused_value_is_named_by_its_setting():
    with pytest.raises(ValueError, match="Draft length K 33 is outside 0 \\(auto\\) to 32"):
        generation_request(GenerationSettings(n_draft=33), prompt="x")
    with pytest.raises(ValueError, match="Spec type 'nope' is not one of"):
        generation_request(GenerationSettings(spec_type="nope"), prompt="x")
    with pytest.raises(ValueError, match="n_draft_max 33 is outside 0 to 32"):
        GenerationRequest(prompt="x", n_draft_max=33)  # a bench's or a trace's request
    with pytest.raises(ValueError, match="chat messages or a raw prompt"):
        generation_request(GenerationSettings())


def test_a_record_reads_back_leaving_out_what_is_no_longer_a_setting():
    gs = GenerationSettings(temperature=0.7, n_draft=6)
    record = {**gs.to_dict(), "model_name": "m", "n_ctx": 4096}
    assert GenerationSettings.from_dict(record) == gs
    older = {"temperature": 0.7, "n_draft": 6}  # saved before the other settings existed
    assert GenerationSettings.from_dict(older) == gs
    damaged = {**record, "top_k": -3, "seed": "x"}
    assert GenerationSettings.from_dict(damaged) == gs  # refused values: their defaults


def test_settings_copy_compare_and_replace():
    gs = GenerationSettings(top_k=7)
    assert copy.deepcopy(gs) == gs == pickle.loads(pickle.dumps(gs))
    other = gs.replace(top_k=8)
    assert (gs.top_k, other.top_k) == (7, 8) and other != gs
    gs.top_k = 8
    assert gs == other
    assert "top_k=8" in repr(gs)


def test_the_request_imports_no_setting_label_or_drafter():
    graph = grimp.build_graph("backend", exclude_type_checking_imports=False)
    for words in ("backend.settings_schema", "backend.spec_types", "backend.settings",
                  "backend.generation_settings"):
        assert graph.find_shortest_chain(importer="backend.engine.request",
                                         imported=words) is None, words
    # nor does the spec types' table lead back to the settings (the old circle)
    assert graph.find_shortest_chain(importer="backend.spec_types",
                                     imported="backend.settings_schema") is None

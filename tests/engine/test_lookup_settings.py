"""The lookups' settings (llama.cpp's --spec-ngram-* flags) are parts of the request, each
checked against its range, offered as settings and as `draftlight generate` flags under
llama.cpp's names, and read by their drafter from each request."""

from __future__ import annotations

import pytest
from build import CYCLE_WORDS

from backend import settings_schema as schema
from backend import spec_types
from backend.cli.generate import request_from_args
from backend.cli.main import build_parser
from backend.engine.request import (
    PARTS,
    GenerationRequest,
    NgramMapSettings,
    NgramModSettings,
    NgramSettings,
)
from backend.generation_settings import GenerationSettings, generation_request
from engine.runner import emitted_ids, run

# flag: (request field, llama.cpp's default)
LLAMA_CPP = {
    "--spec-ngram-map-k-size-n": ("ngram_map_k.size_n", 12),
    "--spec-ngram-map-k-size-m": ("ngram_map_k.size_m", 48),
    "--spec-ngram-map-k4v-size-n": ("ngram_map_k4v.size_n", 12),
    "--spec-ngram-map-k4v-size-m": ("ngram_map_k4v.size_m", 48),
    "--spec-ngram-map-k4v-min-hits": ("ngram_map_k4v.min_hits", 1),
    "--spec-ngram-mod-n-match": ("ngram_mod.n_match", 24),
    "--spec-ngram-mod-n-min": ("ngram_mod.n_min", 48),
    "--spec-ngram-mod-n-max": ("ngram_mod.n_max", 64),
    # Draftlight's own defaults for ngram-simple (llama.cpp's: 12, 48)
    "--spec-ngram-simple-size-n": ("ngram.size_n", 3),
    "--spec-ngram-simple-size-m": ("ngram.size_m", 16),
    "--spec-ngram-simple-min-hits": ("ngram.min_hits", 1),
}
LOOKUPS = {o.cli: o for o in schema.LOOKUP_OPTIONS}


def test_each_lookup_setting_is_a_flag_with_llama_cpps_name_and_default():
    assert set(LOOKUPS) == set(LLAMA_CPP)
    for flag, (request, default) in LLAMA_CPP.items():
        option = LOOKUPS[flag]
        assert (option.request, option.default) == (request, default), flag
        assert option.section == "generation" and option.label and option.tooltip
        # the panel shows it with that type
        assert [spec_types.get(s) is not None for s in option.specs] == [True]
    assert {"ngram_map_k", "ngram_map_k4v", "ngram_mod"} <= PARTS.keys()


@pytest.mark.parametrize(("part", "field", "low", "high"), [
    (NgramSettings, "size_n", 1, 1024), (NgramSettings, "min_hits", 1, 1024),
    (NgramMapSettings, "size_n", 1, 1024), (NgramMapSettings, "size_m", 1, 1024),
    (NgramModSettings, "n_match", 1, 1024), (NgramModSettings, "n_min", 0, 1024),
    (NgramModSettings, "n_max", 0, 1024),
])
def test_a_part_accepts_llama_cpps_range_and_refuses_what_is_outside(part, field, low, high):
    assert getattr(part(**{field: low}), field) == low
    assert getattr(part(**{field: high}), field) == high
    for wrong in (low - 1, high + 1):
        with pytest.raises(ValueError, match=f"{field} {wrong} is outside {low} to {high}"):
            part(**{field: wrong})


def test_the_flags_reach_the_request():
    args = build_parser().parse_args([
        "generate", "--model", "m.gguf", "--spec", "ngram-mod,draft",
        "--spec-ngram-mod-n-match", "8", "--spec-ngram-mod-n-min", "2",
        "--spec-ngram-map-k4v-min-hits", "3", "--spec-ngram-simple-size-n", "5", "p"])
    request = request_from_args(args, args.spec_type)
    assert request.spec_type == "ngram-mod,draft"
    assert request.ngram_mod == NgramModSettings(n_match=8, n_min=2, n_max=64)
    assert request.ngram_map_k4v == NgramMapSettings(min_hits=3)
    assert request.ngram == NgramSettings(size_n=5)
    assert request.ngram_map_k == NgramMapSettings()


def test_a_flag_outside_its_range_is_a_usage_error_that_says_the_range(capsys):
    with pytest.raises(SystemExit):
        build_parser().parse_args(["generate", "--model", "m.gguf",
                                   "--spec-ngram-mod-n-match", "0", "p"])
    assert "0 is outside 1 to 1024" in capsys.readouterr().err


def test_a_setting_reaches_its_part_and_is_checked_by_its_name():
    request = generation_request(GenerationSettings(ngram_map_k_size_m=6), prompt="x")
    assert request.ngram_map_k == NgramMapSettings(size_m=6)
    assert request.ngram_map_k4v == NgramMapSettings()
    with pytest.raises(ValueError, match="Draft size M 0 is outside 1 to 1024"):
        generation_request(GenerationSettings(ngram_map_k_size_m=0), prompt="x")


def test_the_drafter_reads_its_settings_from_each_request(count_engine):
    """ngram-mod's 24-token default finds nothing in a short count; 2-token windows do, and
    the answer stays the target's own."""
    words = list(CYCLE_WORDS)
    prompt = " " + " ".join(words + words[:4])
    _, plain = run(count_engine, GenerationRequest(prompt=prompt, max_tokens=20))
    drafted = {}
    for name, mod in {"default": NgramModSettings(),
                      "short": NgramModSettings(n_match=2, n_min=1, n_max=3)}.items():
        _, steps = run(count_engine, GenerationRequest(
            prompt=prompt, max_tokens=20, spec_type="ngram-mod", n_draft_max=8,
            measure_plain=False, ngram_mod=mod))
        assert emitted_ids(steps) == emitted_ids(plain), name
        drafted[name] = [len(s.drafted) for s in steps if s.drafted]
    assert drafted["default"] == []
    assert drafted["short"] and max(drafted["short"]) <= 3  # n_max

"""The pair finder: every way to speculate for a target, from the library and from a fake hub
with repos that share the target's vocabulary, differ from it, or are served badly."""

from __future__ import annotations

import pytest
from fakehub import FakeFile, FakeRepo, gguf_repo, serving
from huggingface_hub import constants
from pair_files import smaller_vocabulary, token_changed

from backend.models.draft_finder import (
    BUILT_IN,
    HUB,
    LIBRARY,
    NGRAM_ALWAYS,
    NO_MTP,
    OWN_MTP,
    TARGET,
    find_pairs,
    lookup_types,
)
from backend.models.eagle3 import IS_A_HEAD
from backend.models.head_files import (
    CHECKED_ON_LOAD,
    IS_A_DFLASH_HEAD,
    ONLY_GEMMA4,
    OTHER_HIDDEN,
)
from backend.models.hub import UNREACHABLE, HubClient
from backend.models.hub_drafts import family, hub_checks, hub_target, size_in_name
from backend.models.inspection import inspect_model
from backend.models.pairing import NOT_SMALLER
from backend.models.remote_header import (
    CUT_SHORT,
    MAX_HEADER_BYTES,
    READ_CHUNK,
    REDIRECT_LOOP,
    inspect_hub_model,
)
from backend.models.vocab import OTHER_SIZE, OTHER_TOKEN
from backend.words import Words

BOUND = MAX_HEADER_BYTES + READ_CHUNK  # bytes read per Hub file, however its server answers


def template(w: Words | None) -> str:
    assert w is not None
    return w.template


def reason_template(candidate) -> str | None:
    """A refusal's own template: for a failed read, the reason inside "Could not …: reason"."""
    if candidate.reason is None:
        return None
    values = dict(candidate.reason.values)
    inner = values.get("reason")
    return inner.template if inner is not None else candidate.reason.template


def test_local_candidates_mtp_heads_library_and_ngram(test_models):
    target = inspect_model(test_models / "count-mtp.gguf")
    library = [inspect_model(test_models / n) for n in
               ("count-draft.gguf", "count-target-slow.gguf", "eagle3-count.gguf",
                "eagle3-bad-layers.gguf", "count-mtp.gguf")]
    finding = find_pairs(target, library)
    rows = [(c.spec_type, c.name, c.source, c.accepted) for c in finding.candidates]
    assert rows == [
        ("mtp", "count-mtp.gguf", TARGET, True),
        ("eagle3", "eagle3-count.gguf", LIBRARY, True),
        ("draft", "count-draft.gguf", LIBRARY, True),
        ("draft", "count-target-slow.gguf", LIBRARY, True),
        *((name, "", BUILT_IN, True) for name in lookup_types()),
        ("eagle3", "eagle3-bad-layers.gguf", LIBRARY, False),
    ]  # the target itself is no candidate; accepted ones first
    assert lookup_types()[0] == "ngram" and "ngram-mod" in lookup_types()
    by_name = {c.name: c for c in finding.candidates}
    assert template(finding.candidates[0].reason) == OWN_MTP
    assert template(by_name["count-target-slow.gguf"].reason) == NOT_SMALLER
    assert all(template(c.reason) == NGRAM_ALWAYS for c in finding.candidates if not c.name)
    assert by_name["eagle3-bad-layers.gguf"].reason is not None
    assert finding.hub_error is None and all(c.bytes_read is None for c in finding.candidates)


def test_a_target_without_nextn_layers_has_mtp_refused(test_models):
    finding = find_pairs(inspect_model(test_models / "count-target.gguf"), [])
    (mtp,) = [c for c in finding.candidates if c.spec_type == "mtp"]
    assert not mtp.accepted and template(mtp.reason) == NO_MTP
    assert [c.spec_type for c in finding.accepted] == list(lookup_types())


def test_an_eagle3_head_is_no_target(test_models):
    finding = find_pairs(inspect_model(test_models / "eagle3-count.gguf"), [])
    assert finding.candidates == () and template(finding.refusal) == IS_A_HEAD


@pytest.fixture(scope="module")
def hub_repos(test_models, tmp_path_factory):
    """SmolLM2-family repos for a SmolLM2 target: each found by the search, each decided."""
    draft = (test_models / "count-draft.gguf").read_bytes()
    changed, _ = token_changed(draft, 1000)
    small = smaller_vocabulary(test_models / "count-draft.gguf", 1000,
                               tmp_path_factory.mktemp("hub") / "small.gguf")
    return [
        gguf_repo("acme/SmolLM2-Same-GGUF", {"same-Q4_0.gguf": draft, "same-Q8_0.gguf": draft,
                                             "same-F16.gguf": draft}),
        gguf_repo("acme/SmolLM2-Token-GGUF", {"token-Q8_0.gguf": changed}),
        gguf_repo("acme/SmolLM2-Small-GGUF", {"small-Q8_0.gguf": small}),
        FakeRepo("acme/SmolLM2-NoRange-GGUF",
                 {"norange-Q8_0.gguf": FakeFile(draft, ignore_range=True)}),
        FakeRepo("acme/SmolLM2-Cut-GGUF", {"cut-Q8_0.gguf": FakeFile(draft, cut_after=[50_000])}),
        gguf_repo("acme/SmolLM2-Moved-GGUF", {"moved-Q8_0.gguf": draft},
                  renamed_to="acme/SmolLM2-Renamed-GGUF"),
        gguf_repo("acme/SmolLM2-Loop-GGUF", {"loop-Q8_0.gguf": draft},
                  renamed_to="acme/SmolLM2-Loop-GGUF"),
        gguf_repo("acme/SmolLM2-360M-GGUF", {"big-Q8_0.gguf": draft}),  # not smaller: skipped
        gguf_repo("zzz/Unrelated-GGUF", {"x-Q8_0.gguf": draft}),
    ]


def test_hub_repos_of_the_family_are_each_accepted_or_refused_with_the_reason(
        monkeypatch, test_models, hub_repos):
    target = inspect_model(test_models / "demo-target-f32.gguf")  # SmolLM2-135M
    with serving(monkeypatch, hub_repos) as hub:
        found = hub_checks(HubClient(), target, max_repos=20)
        asked = {r.path.split("/resolve/")[0] for r in hub.requests if "/resolve/" in r.path}
    finding = find_pairs(target, [], found)
    hub_rows = {c.name.split("/")[1]: c for c in finding.candidates if c.source == HUB}
    assert {name: (c.accepted, reason_template(c)) for name, c in hub_rows.items()} == {
        "SmolLM2-Same-GGUF": (True, None),
        "SmolLM2-NoRange-GGUF": (True, None),
        "SmolLM2-Moved-GGUF": (True, None),
        "SmolLM2-Token-GGUF": (False, OTHER_TOKEN),
        "SmolLM2-Small-GGUF": (False, OTHER_SIZE),
        "SmolLM2-Cut-GGUF": (False, CUT_SHORT),
        "SmolLM2-Loop-GGUF": (False, REDIRECT_LOOP),
    }
    assert hub_rows["SmolLM2-Same-GGUF"].name == "acme/SmolLM2-Same-GGUF/same-Q8_0.gguf"
    assert "/acme/SmolLM2-360M-GGUF" not in asked  # its name says it is not smaller
    for c in hub_rows.values():
        assert c.bytes_read is not None and c.bytes_read <= BOUND, c.name
        assert c.bytes_read < c.size // 3 or c.size < 2**20, c.name  # never the whole model
    assert found.error is None


def test_a_hub_target_brings_its_eagle3_head_and_its_base_models_family(monkeypatch,
                                                                        test_models):
    repos = [
        gguf_repo("acme/Count3-GGUF", {"count3-Q8_0.gguf": test_models / "count-target3.gguf",
                                       "eagle3-count.gguf": test_models / "eagle3-count.gguf"},
                  base_model="HuggingFaceTB/SmolLM2-1.7B-Instruct"),
        gguf_repo("acme/SmolLM2-Draft-GGUF", {"d-Q8_0.gguf": test_models / "count-draft.gguf"}),
        gguf_repo("acme/SmolLM2-1.7B-GGUF", {"big-Q8_0.gguf": test_models / "count-draft.gguf"}),
    ]
    with serving(monkeypatch, repos):
        client = HubClient()
        model, listing = hub_target(client, "acme/Count3-GGUF")
        target = inspect_hub_model(client, model)
        found = hub_checks(client, target.inspection, "acme/Count3-GGUF", listing)
    finding = find_pairs(target.inspection, [], found, target.bytes_read)
    assert model.name == "count3-Q8_0.gguf" and target.bytes_read <= BOUND
    rows = [(c.spec_type, c.name, c.accepted) for c in finding.candidates if c.source == HUB]
    assert rows == [("eagle3", "acme/Count3-GGUF/eagle3-count.gguf", True),
                    ("draft", "acme/SmolLM2-Draft-GGUF/d-Q8_0.gguf", True)]


def test_an_unreachable_hub_leaves_the_local_candidates(monkeypatch, test_models):
    monkeypatch.setattr(constants, "HF_HUB_OFFLINE", False)
    target = inspect_model(test_models / "count-target.gguf")
    found = hub_checks(HubClient(endpoint="http://127.0.0.1:1"), target)
    finding = find_pairs(target, [inspect_model(test_models / "count-draft.gguf")], found)
    assert found.checks == () and template(finding.hub_error) == UNREACHABLE
    assert [(c.name, c.accepted) for c in finding.accepted] == [
        ("count-draft.gguf", True), *(("", True) for _ in lookup_types())]


@pytest.mark.parametrize(("name", "expected"), [
    ("HuggingFaceTB/SmolLM2-1.7B-Instruct", "SmolLM2"), ("Qwen/Qwen2.5-7B-Instruct", "Qwen2.5"),
    ("meta-llama/Meta-Llama-3.1-8B-Instruct", "Meta-Llama-3.1"), ("google/gemma-3-27b-it",
                                                                  "gemma-3"),
    ("org/NoSizeHere", "NoSizeHere"),
])
def test_a_base_models_family_is_its_name_before_the_size(name, expected):
    assert family(name) == expected


@pytest.mark.parametrize(("name", "expected"), [
    ("bartowski/Qwen2.5-0.5B-Instruct-GGUF", 500_000_000), ("x/SmolLM2-135M-GGUF", 135_000_000),
    ("x/Qwen3-30B-A3B-GGUF", 30_000_000_000), ("x/Mixtral-8x7B-GGUF", None), ("x/Draft", None),
])
def test_the_size_a_name_says(name, expected):
    assert size_in_name(name) == expected


def test_dflash_heads_and_gemma4_assistants_are_candidates_of_their_own_kind(test_models):
    target = inspect_model(test_models / "count-target3.gguf")
    library = [inspect_model(test_models / n) for n in
               ("dflash-count.gguf", "dflash-bad-width.gguf", "g4-assistant.gguf")]
    found = {c.name: c for c in find_pairs(target, library).candidates}
    assert found["dflash-count.gguf"].spec_type == "dflash"
    assert found["dflash-count.gguf"].accepted
    assert template(found["dflash-count.gguf"].reason) == CHECKED_ON_LOAD
    assert found["dflash-bad-width.gguf"].spec_type == "dflash"
    assert template(found["dflash-bad-width.gguf"].reason) == OTHER_HIDDEN
    assistant = found["g4-assistant.gguf"]
    assert assistant.spec_type == "gemma4-assistant" and not assistant.accepted
    assert template(assistant.reason) == ONLY_GEMMA4

    gemma = inspect_model(test_models / "count-gemma4.gguf")
    (mine,) = [c for c in find_pairs(gemma, library[2:]).candidates if c.name.startswith("g4")]
    assert mine.accepted and mine.spec_type == "gemma4-assistant"
    refused = find_pairs(inspect_model(test_models / "dflash-count.gguf"), [])
    assert refused.candidates == () and template(refused.refusal) == IS_A_DFLASH_HEAD

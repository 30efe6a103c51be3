"""Why the panel greys a spec type out, for each file a spec type drafts with: missing, or
loaded as the draft but of another kind (app/panel/spec_reasons.py)."""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from app.panel.spec_reasons import spec_reason

TARGET = SimpleNamespace(path="/m/target.gguf", name="target", n_mtp_heads=0)


def loaded(architecture: str) -> SimpleNamespace:
    return SimpleNamespace(path=f"/m/{architecture}.gguf", name=f"{architecture}-file",
                           architecture=architecture)


@pytest.mark.parametrize(("spec", "words"), [
    ("draft", "Choose a draft model first"),
    ("eagle3", "Choose an EAGLE-3 head made for this target"),
    ("dflash", "Choose a DFlash head made for this target"),
    ("gemma4-assistant", "Choose the Gemma 4 assistant made for this target"),
])
def test_a_missing_file_is_named_by_its_kind(qapp, spec, words):
    assert spec_reason(spec, TARGET, None).startswith(words)


@pytest.mark.parametrize(("spec", "architecture", "words"), [
    ("draft", "dflash", "is a DFlash head, not a draft model: it drafts with spec type DFlash."),
    ("dflash", "llama", "is a draft model, not a DFlash head: it drafts with spec type draft "
                        "model."),
    ("draft", "eagle3", "is an EAGLE-3 head, not a draft model: it drafts with spec type "
                        "EAGLE-3."),
    ("gemma4-assistant", "eagle3", "is an EAGLE-3 head, not a Gemma 4 assistant: it drafts "
                                   "with spec type EAGLE-3."),
    ("eagle3", "gemma4-assistant", "is a Gemma 4 assistant, not an EAGLE-3 head: it drafts "
                                   "with spec type Gemma 4 assistant."),
])
def test_a_file_of_another_kind_says_what_it_is_and_what_it_drafts_with(qapp, spec,
                                                                         architecture, words):
    assert words in spec_reason(spec, TARGET, loaded(architecture))


@pytest.mark.parametrize(("spec", "architecture"), [
    ("draft", "llama"), ("eagle3", "eagle3"), ("dflash", "dflash"),
    ("gemma4-assistant", "gemma4-assistant"), ("ngram", "dflash")])
def test_the_right_file_or_none_needed_is_no_reason(qapp, spec, architecture):
    assert spec_reason(spec, TARGET, loaded(architecture)) is None

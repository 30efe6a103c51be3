"""The side panel shows a lookup's own settings (llama.cpp's --spec-ngram-* flags) while its
spec type is chosen, alone or in a chain, and offers a chain given to it."""

from __future__ import annotations

import pytest

from app.panel.generation_panel import GenerationPanel
from backend import settings_schema as schema
from backend.generation_settings import GenerationSettings


@pytest.fixture
def panel(qtbot):
    p = GenerationPanel()
    qtbot.addWidget(p)
    return p


def _shown(panel: GenerationPanel) -> set[str]:
    return {o.specs[0] for o in schema.LOOKUP_OPTIONS
            if not getattr(panel, o.name).isHidden()}


def test_only_the_chosen_lookups_settings_are_shown(panel):
    assert _shown(panel) == set()  # plain decoding
    assert panel.set_spec_type("ngram-mod")
    assert _shown(panel) == {"ngram-mod"}
    assert panel.set_spec_type("ngram-map-k4v")
    assert _shown(panel) == {"ngram-map-k4v"}
    assert not panel.ngram_map_k4v_min_hits.isHidden()


def test_a_chain_is_offered_and_shows_each_members_settings(panel):
    assert panel.set_spec_type("ngram-cache,ngram,ngram-mod")
    assert panel.spec_type() == "ngram,ngram-mod,ngram-cache"  # llama.cpp's order
    assert panel.spec_combo.currentText() == "n-gram lookup, then n-gram mod, then n-gram cache"
    assert _shown(panel) == {"ngram", "ngram-mod"}
    # a chain that needs a draft model waits for one, as "draft" does
    panel.set_generation_settings(GenerationSettings(spec_type="ngram-mod,draft"))
    assert panel.preferred_settings().spec_type == "ngram-mod,draft"
    assert panel.spec_type() == "none"


def test_the_settings_reach_the_answers_settings(panel):
    assert panel.set_spec_type("ngram-mod")
    panel.ngram_mod_n_match.setValue(8)
    gs = panel.generation_settings()
    assert (gs.spec_type, gs.ngram_mod_n_match) == ("ngram-mod", 8)

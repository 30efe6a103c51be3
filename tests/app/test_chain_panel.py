"""The side panel's chain choice: while a lookup is chosen, "When it finds nothing, then:"
offers what llama.cpp would ask after it (a draft model, MTP heads, EAGLE-3, DFlash, a later
lookup), greyed with the reason where the models cannot; a choice makes the chain, saved as
the spec type setting, and a saved chain is chosen back."""

from __future__ import annotations

import pytest
from scripted_engine import ScriptedEngine
from test_lookup_marks import _samples

from app.panel.chain_choice import NOTHING, followers, lookup_head
from app.panel.combo_items import item_enabled, item_reason
from app.panel.generation_panel import GenerationPanel
from app.transcript.token_formats import ORIGIN_PROPERTY
from backend import settings_schema as schema
from backend.engine.model_info import ModelInfo
from backend.generation_settings import GenerationSettings

DRAFT_REASON = "Choose a draft model first (Models → Draft)."


def _info(name: str, architecture: str = "llama") -> ModelInfo:
    return ModelInfo(path=f"/m/{name}.gguf", name=name, architecture=architecture,
                     n_params=1_000_000, size_bytes=4_000_000, n_ctx_train=4096,
                     n_vocab=49152, n_mtp_heads=0)


@pytest.fixture
def panel(qtbot):
    p = GenerationPanel()
    qtbot.addWidget(p)
    p.set_models(_info("count-target"), None)
    return p


def _offered(panel: GenerationPanel) -> dict[str, tuple[bool, str]]:
    combo = panel.chain_choice
    return {combo.itemData(i): (item_enabled(combo, i), item_reason(combo, i))
            for i in range(combo.count())}


def _choose(panel: GenerationPanel, rest: str) -> None:
    """As a click on an entry of the chain choice's list does."""
    combo = panel.chain_choice
    i = combo.findData(rest)
    assert i >= 0 and item_enabled(combo, i), rest
    combo.setCurrentIndex(i)
    combo.activated.emit(i)


def _shown(panel: GenerationPanel) -> bool:
    return panel.chain_choice.isVisibleTo(panel)


def test_it_is_offered_only_while_a_lookup_is_chosen(panel):
    assert not _shown(panel)  # plain decoding
    assert panel.set_spec_type("ngram-mod")
    assert _shown(panel) and panel.chain_choice.currentData() == NOTHING
    panel.set_models(_info("count-target"), _info("count-draft"))
    assert panel.set_spec_type("draft")
    assert not _shown(panel)


def test_what_cannot_follow_is_greyed_with_the_panels_reason(panel):
    assert panel.set_spec_type("ngram")
    offered = _offered(panel)
    assert offered[NOTHING] == (True, "")
    assert offered["draft"] == (False, DRAFT_REASON)
    assert not offered["mtp"][0] and "multi-token-prediction" in offered["mtp"][1]
    assert not offered["eagle3"][0] and "EAGLE-3 head" in offered["eagle3"][1]
    assert offered["ngram-mod"] == (True, "")  # another lookup needs nothing
    panel.set_models(_info("count-target"), _info("count-draft"))
    assert _offered(panel)["draft"] == (True, "")


def test_only_what_llama_cpp_asks_after_the_lookup_is_offered(panel):
    after_ngram = [s.name for s in followers("ngram")]
    assert after_ngram[:1] == ["draft"] and "ngram-cache" in after_ngram
    after_cache = [s.name for s in followers("ngram-cache")]
    assert "ngram" not in after_cache and "ngram-mod" not in after_cache
    assert {"draft", "mtp", "eagle3"} <= set(after_cache)
    assert lookup_head("draft") is None and lookup_head("none") is None
    head, rest = lookup_head("ngram-mod,draft") or (None, "")
    assert head is not None and head.name == "ngram-mod" and rest == "draft"


def test_a_choice_makes_the_chain_and_saves_it(panel):
    panel.set_models(_info("count-target"), _info("count-draft"))
    assert panel.set_spec_type("ngram-mod")
    _choose(panel, "draft")
    assert panel.spec_type() == "ngram-mod,draft"
    assert panel.generation_settings().spec_type == "ngram-mod,draft"
    assert panel.preferred_settings().spec_type == "ngram-mod,draft"
    assert panel.spec_combo.currentText() == "n-gram mod, then draft model"
    assert not panel.ngram_mod_n_match.isHidden()  # the lookup's own settings stay
    assert panel.n_draft.isEnabled() and panel.p_min.isEnabled()  # the draft model samples

    _choose(panel, "ngram-cache")  # another chain replaces it in the spec type list
    assert panel.spec_type() == "ngram-mod,ngram-cache"
    chains = [panel.spec_combo.itemData(i) for i in range(panel.spec_combo.count())
              if "," in panel.spec_combo.itemData(i)]
    assert chains == ["ngram-mod,ngram-cache"]

    _choose(panel, NOTHING)
    assert panel.spec_type() == "ngram-mod"
    assert panel.spec_combo.findData("ngram-mod,ngram-cache") == -1


def test_a_saved_chain_is_chosen_back(panel):
    panel.set_models(_info("count-target"), _info("count-draft"))
    panel.set_generation_settings(GenerationSettings(spec_type="draft,ngram-map-k"))
    assert panel.spec_type() == "ngram-map-k,draft"  # llama.cpp's order
    assert _shown(panel) and panel.chain_choice.currentData() == "draft"
    assert panel.chain_choice.currentText() == "draft model"


def test_a_saved_chain_waits_for_its_draft_model(panel):
    panel.set_generation_settings(GenerationSettings(spec_type="ngram-mod,draft"))
    assert panel.spec_type() == schema.SPEC_TYPE.default
    panel.set_models(_info("count-target"), _info("count-draft"))
    assert panel.spec_type() == "ngram-mod,draft"
    assert panel.chain_choice.currentData() == "draft"


def test_a_longer_chain_shows_its_rest_as_one_choice(panel):
    assert panel.set_spec_type("ngram-cache,ngram,ngram-mod")
    assert panel.chain_choice.currentData() == "ngram-mod,ngram-cache"
    assert panel.chain_choice.currentText() == "n-gram mod, then n-gram cache"
    _choose(panel, "ngram-map-k")
    assert panel.spec_type() == "ngram,ngram-map-k"


def test_its_words_do_not_widen_the_panel(panel):
    """Its words are over the box, not beside it, where they would widen the form's label
    column and push the panel past its scroll area's width."""
    panel.set_models(_info("count-target"), _info("count-draft"))
    assert panel.set_spec_type("ngram")
    _choose(panel, "draft")
    assert _shown(panel)
    shown = panel.minimumSizeHint().width()
    panel._spec_form.setRowVisible(panel._chain_row, False)
    assert shown <= panel.minimumSizeHint().width()


def test_in_the_window_the_key_follows_and_the_chain_is_saved(make_window, qtbot,
                                                             settings_path):
    w = make_window(ScriptedEngine())
    with qtbot.waitSignal(w.models_changed, timeout=5000):
        w.open_target("/models/t.gguf")
    assert w.panel.set_spec_type("ngram")
    _choose(w.panel, "ngram-mod")
    keyed = {f.property(ORIGIN_PROPERTY) for f in _samples(w.legend).values()}
    assert {"ngram", "ngram-mod"} <= keyed  # both lookups' shades in the key
    w.conversation.add_user("hello")
    assert w.flow.build_request().spec_type == "ngram,ngram-mod"
    w.close()

    w2 = make_window(ScriptedEngine())
    with qtbot.waitSignal(w2.models_changed, timeout=5000):
        w2.open_target("/models/t.gguf")
    assert w2.panel.spec_type() == "ngram,ngram-mod"
    assert w2.panel.chain_choice.currentData() == "ngram-mod"


def test_a_chain_too_long_for_its_box_keeps_both_ends(panel):
    """A narrow panel shortens a chain in its middle: its first drafter and its last stay
    readable (Qt's own box cut "…, then draft model" to "…, then draft mo")."""
    panel.set_models(_info("count-target"), _info("count-draft"))
    assert panel.set_spec_type("ngram-mod,draft")
    box = panel.spec_combo
    box.resize(box.fontMetrics().horizontalAdvance("n-gram mod, then") + 40, box.height())
    shown = box.shown_text()
    assert box.currentText() == "n-gram mod, then draft model" != shown
    assert shown.startswith("n-gram") and shown.endswith("model") and "…" in shown

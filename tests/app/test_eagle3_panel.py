"""Spec type EAGLE-3 in the window: greyed out with the reason unless the draft is an EAGLE-3
head for this target, offered once it is; heads that do not fit are greyed in the draft list;
the legend and the hover say what drafted."""

from __future__ import annotations

import pytest

from app.models.draft_compatibility import DraftCompatibility
from app.panel.combo_items import item_enabled, item_reason
from app.panel.generation_panel import GenerationPanel
from app.panel.model_description import describe_model
from app.teaching.legend import LEGEND_TIP, TokenLegend
from app.transcript.token_view import token_tooltip
from backend.engine.events import Token
from backend.engine.model_info import ModelInfo


def _info(name: str, architecture: str) -> ModelInfo:
    return ModelInfo(path=f"/m/{name}.gguf", name=name, architecture=architecture,
                     n_params=1_000_000, size_bytes=4_000_000, n_ctx_train=4096,
                     n_vocab=49152, n_mtp_heads=0)


@pytest.fixture
def panel(qtbot):
    p = GenerationPanel()
    qtbot.addWidget(p)
    return p


def _state(panel: GenerationPanel, spec: str) -> tuple[bool, str]:
    i = panel.spec_combo.findData(spec)
    assert i >= 0
    return item_enabled(panel.spec_combo, i), item_reason(panel.spec_combo, i)


def test_eagle3_is_offered_only_with_a_head_as_the_draft(panel):
    target = _info("count-target3", "llama")
    panel.set_models(target, None)
    enabled, reason = _state(panel, "eagle3")
    assert not enabled and reason.startswith("Choose an EAGLE-3 head made for this target")
    panel.set_models(target, _info("count-draft", "llama"))
    enabled, reason = _state(panel, "eagle3")
    assert not enabled
    assert reason == ("count-draft.gguf is a draft model, not an EAGLE-3 head for this target: "
                      "choose a head made for it as the draft.")
    assert _state(panel, "draft") == (True, "")
    panel.set_models(target, _info("eagle3-count", "eagle3"))
    assert _state(panel, "eagle3") == (True, "")
    assert panel.set_spec_type("eagle3")
    assert panel.n_draft.isEnabled() and panel.p_min.isEnabled()
    enabled, reason = _state(panel, "draft")
    assert not enabled and reason == ("eagle3-count.gguf is an EAGLE-3 head, not a draft model: it "
                                      "drafts with spec type EAGLE-3.")
    assert "EAGLE-3 head" in describe_model(_info("eagle3-count", "eagle3"))


def test_heads_that_do_not_fit_are_greyed_in_the_draft_list(qtbot, test_models):
    checker = DraftCompatibility()
    results = {}
    checker.checked.connect(lambda target, draft, reason: results.__setitem__(draft, reason))
    heads = [str(test_models / n) for n in ("eagle3-count.gguf", "eagle3-bad-hidden.gguf")]
    checker.check(str(test_models / "count-target3.gguf"), heads)
    qtbot.waitUntil(lambda: len(results) == 2, timeout=30_000)
    checker.wait()
    assert results[heads[0]] is None
    assert "made for a target with hidden size 48" in results[heads[1]]


def test_legend_and_hover_say_what_an_eagle3_head_is(qtbot):
    legend = TokenLegend()
    qtbot.addWidget(legend)
    assert legend.toolTip() == LEGEND_TIP
    assert "EAGLE-3 head is a separate file like a draft model" in LEGEND_TIP
    assert "Unlike MTP heads" in LEGEND_TIP
    assert "EAGLE-3 head" in token_tooltip(1, Token(5, "x", "eagle3", True))


def test_the_model_manager_lists_heads_and_pairs_them(qtbot, tmp_path, test_models):
    from app.models.manager_window import ModelManagerWindow
    from backend.models.memory import Memory

    (tmp_path / "models").mkdir()
    window = ModelManagerWindow(
        memory_source=lambda: Memory(total=64 * 2**30, available=32 * 2**30),
        models_dir=tmp_path / "models", extra_folders=[test_models])
    qtbot.addWidget(window)
    window.show()
    try:
        with qtbot.waitSignal(window.library_tab.scanned, timeout=30_000):
            pass
        tab = window.library_tab
        assert tab.item_for("eagle3-count.gguf").text(1) == "eagle3 (EAGLE-3 head)"
        assert tab.item_for("count-target3.gguf").text(1) == "llama"
        tab.select("eagle3-d2t.gguf")
        assert "EAGLE-3 head for a target of hidden size 32, reads its layers 0, 2, 3; draft " \
               "vocabulary 20 tokens (d2t)" in tab.details.text()
        assert not tab.target_button.isEnabled() and tab.draft_button.isEnabled()
        tab.select("count-target3.gguf")
        pairing = tab.pairing
        qtbot.waitUntil(lambda: "eagle3-bad-hidden.gguf" in pairing.rows(), timeout=30_000)
        assert pairing.rows()["eagle3-count.gguf"][0] == "Yes, as its EAGLE-3 head"
        verdict, why = pairing.rows()["eagle3-bad-hidden.gguf"]
        assert verdict == "No" and "hidden size 48" in why
    finally:
        window.close()


def test_the_window_drafts_with_an_eagle3_head(make_window, qtbot, test_models):
    """Through the engine process: the head follows its target as the draft, spec type EAGLE-3
    becomes choosable, and the answer's drafted tokens are the head's."""
    from app.engine_link.worker import default_engine_factory

    w = make_window(engine_factory=default_engine_factory, persist=False)
    w.settings.models.draft = str(test_models / "eagle3-own.gguf")
    with qtbot.waitSignal(w.models_changed, timeout=60_000):
        w.open_target(str(test_models / "count-target3.gguf"))
    qtbot.waitUntil(lambda: w.draft is not None and not w.loading, timeout=60_000)
    assert w.draft.architecture == "eagle3"
    assert w.panel.set_spec_type("eagle3")
    assert not w.panel.set_spec_type("draft")  # greyed: the draft is a head
    w.panel.n_draft.setValue(4)
    w.panel.temperature.setValue(0.0)
    w.panel.max_tokens.setValue(24)
    with qtbot.waitSignal(w.answer_finished, timeout=60_000) as done:
        assert w.send("zero one")
    answer = done.args[0].answer
    assert answer.error is None, answer.error
    assert answer.n_drafted > answer.n_accepted > 0  # eagle3-own is wrong at known places
    origins = set(answer.tokens.origin)
    assert "eagle3" in origins and origins <= {"eagle3", "target"}

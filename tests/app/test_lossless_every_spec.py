"""The lossless check on real models for every spec type (the demo pair for a draft model and
n-gram lookup; the synthetic MTP and EAGLE-3 models for theirs), and with verification
deliberately broken in the engine, where the check must find the difference."""

from __future__ import annotations

import pytest

from app.engine_link.worker import default_engine_factory
from app.teaching.lossless_check import identical_text
from backend.engine import engine as engine_module
from backend.engine.engine import Engine
from backend.engine.verify import Verdict

LOAD_MS = 120_000
CODE_PROMPT = "Write a Python function that returns the factorial of n."
# spec type → (target, draft or None, prompt)
CASES = {
    "draft": ("demo-target-f32.gguf", "demo-draft-q8_0.gguf", CODE_PROMPT),
    "ngram": ("demo-target-f32.gguf", None,
              "Repeat this sentence exactly: the quick brown fox jumps over the lazy dog, "
              "and the quick brown fox jumps over the lazy dog again."),
    "mtp": ("count-mtp.gguf", None, "zero one two three"),
    "eagle3": ("count-target3.gguf", "eagle3-count.gguf", "zero one two three"),
}


def load(w, qtbot, models, target: str, draft: str | None) -> None:
    w.settings.models.draft = str(models / draft) if draft else ""
    with qtbot.waitSignal(w.models_changed, timeout=LOAD_MS) as loaded:
        w.open_target(str(models / target))
    got_target, got_draft = loaded.args
    assert got_target is not None, w.banner.text()
    assert (got_draft is not None) == bool(draft), w.banner.text()


def answer_and_check(w, qtbot, prompt: str):
    with qtbot.waitSignal(w.answer_finished, timeout=LOAD_MS) as done:
        assert w.send(prompt)
    widget = done.args[0]
    assert widget.answer.error is None, widget.answer.error
    with qtbot.waitSignal(w.flow.lossless.finished, timeout=LOAD_MS) as result:
        widget.check_button.click()
    return widget, result.args[1]


@pytest.mark.parametrize("spec", list(CASES))
def test_every_spec_type_is_identical_to_plain_decoding(make_window, qtbot, test_models, spec):
    target, draft, prompt = CASES[spec]
    w = make_window(engine_factory=default_engine_factory, persist=False)
    load(w, qtbot, test_models, target, draft)
    assert w.panel.set_spec_type(spec), w.panel.spec_reason(spec)
    w.panel.n_draft.setValue(4)
    w.panel.temperature.setValue(0.0)
    w.panel.max_tokens.setValue(48)
    widget, words = answer_and_check(w, qtbot, prompt)
    assert widget.answer.n_drafted > 0, "the answer should have speculated"
    assert words == identical_text(len(widget.answer.tokens.emitted())), words


def test_broken_verification_is_caught(make_window, qtbot, test_models, monkeypatch):
    """An engine (in-process here, so the test can break it) whose greedy verification waves
    every draft through: the counting draft is wrong after every 4th word, so the answer
    differs from plain decoding, and the check must say where."""
    honest = engine_module.verify_greedy

    def accept_everything(target_choice, drafts):
        if not drafts:
            return honest(target_choice, drafts)
        return Verdict(len(drafts), target_choice(len(drafts)))

    monkeypatch.setattr(engine_module, "verify_greedy", accept_everything)
    w = make_window(engine_factory=Engine, persist=False)
    load(w, qtbot, test_models, "count-target.gguf", "count-draft.gguf")
    assert w.panel.set_spec_type("draft")
    w.panel.n_draft.setValue(4)
    w.panel.temperature.setValue(0.0)
    w.panel.max_tokens.setValue(24)
    _, words = answer_and_check(w, qtbot, "zero one")
    assert words.startswith("Differs from plain decoding at token "), words
    assert "drafted by the draft model and accepted" in words

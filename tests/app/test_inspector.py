"""The inspector on the real engine and the counting pair: clicking a rejected draft shows
exactly the values the engine's events carried (p, q, min(1, p/q), the draw, the token the
target chose instead)."""

from __future__ import annotations

from counting_window import open_counting_pair
from PySide6.QtCore import Qt

from app.engine_link.worker import default_engine_factory
from app.transcript.answer import Answer
from backend.engine import token_log


def _record_batches(monkeypatch) -> list:
    """Every run of steps as the engine process folded it (outbox.py), as the answer gets it."""
    batches: list = []
    add = Answer.add

    def recording(self, event):
        if isinstance(event, token_log.StepBatch):
            batches.append(event)
        add(self, event)

    monkeypatch.setattr(Answer, "add", recording)
    return batches


def _click(widget, qtbot, index: int) -> None:
    window = widget.window()
    window.show()
    qtbot.waitExposed(window)
    rect = widget.token_view.token_rect(index)
    assert rect is not None, "the token is not drawn"
    qtbot.mouseClick(widget.token_view.viewport(), Qt.MouseButton.LeftButton,
                     pos=rect.center())


def test_inspector_shows_the_engine_values_of_a_rejected_draft(make_window, qtbot, test_models,
                                                               monkeypatch):
    batches = _record_batches(monkeypatch)
    w = make_window(engine_factory=default_engine_factory, persist=False)
    open_counting_pair(w, qtbot, test_models, max_tokens=30)
    w.panel.temperature.setValue(0.7)
    w.panel.seed.setValue(7)
    with qtbot.waitSignal(w.answer_finished, timeout=60_000) as done:
        assert w.send("zero one")
    widget = done.args[0]
    assert widget.answer.error is None, widget.answer.error

    rejected = [(b.tokens, i) for b in batches for i in range(len(b.tokens))
                if b.tokens.origin[i] != "target" and not b.tokens.accepted[i]
                and b.tokens.inspection[i]]
    assert rejected, "the counting pair must reject a draft in 30 tokens"
    sent, i = rejected[0]
    token, step = sent.token(i), sent.step[i]
    v = token.verification
    assert v is not None
    replacement = sent.token(next(j for j in range(len(sent))
                                  if sent.step[j] == step and sent.origin[j] == "target"))
    log = widget.answer.tokens
    index = next(i for i in range(len(log)) if log.step[i] == step
                 and log.origin[i] != "target" and not log.accepted[i] and log.id[i] == token.id)
    _click(widget, qtbot, index)

    panel = w.teaching.inspector
    assert not w.teaching.inspector_dock.isHidden()
    assert panel.inspection is not None and panel.inspection.index == index
    assert panel.value("p (target)") == f"{token.p_target:.4f}"
    assert panel.value("q (drafter)") == f"{token.p_draft:.4f}"
    # min(1, p/q) as the engine used it, and as its own p and q give it
    assert v.rule == "sampled" and v.accept_prob is not None and v.draw is not None
    assert abs(v.accept_prob - min(1.0, token.p_target / token.p_draft)) < 1e-9
    assert panel.value("Acceptance") == f"min(1, p/q) = {v.accept_prob:.4f}"
    assert panel.value("Uniform draw").startswith(f"u = {v.draw:.4f}  ≥")
    assert v.draw >= v.accept_prob  # it was rejected, so the draw lost
    assert f"(id {replacement.id})" in panel.value("Instead")
    assert replacement.origin == "target"
    assert replacement.verification.drawn_from == "residual"
    assert f"{replacement.verification.residual_p:.4f}" in panel.value("Drawn from")
    # the five most likely tokens of each side, as recorded
    rows = [[panel.top.item(r, c).text() for c in range(4)] for r in range(panel.top.rowCount())]
    assert [r[1] for r in rows][: len(v.top_target)] == [f"{c.p:.4f}" for c in v.top_target]
    assert [r[3] for r in rows][: len(v.top_draft)] == [f"{c.p:.4f}" for c in v.top_draft]
    # the sampled draft is among q's five most likely, or less likely than all five
    assert token.id in [c.id for c in v.top_draft] or token.p_draft <= v.top_draft[-1].p


def test_inspecting_the_targets_own_token_says_how_it_was_chosen(make_window, qtbot,
                                                                  test_models):
    w = make_window(engine_factory=default_engine_factory, persist=False)
    open_counting_pair(w, qtbot, test_models, max_tokens=12)
    with qtbot.waitSignal(w.answer_finished, timeout=60_000) as done:
        assert w.send("zero one")
    widget = done.args[0]
    log = widget.answer.tokens
    index = next(i for i in range(len(log)) if log.origin[i] == "target" and log.text[i].strip())
    _click(widget, qtbot, index)
    panel = w.teaching.inspector
    assert panel.value("Chosen as") == "the target's most likely token (greedy)"
    assert panel.value("Token").startswith(repr(log.text[index]).replace(" ", "·")[:2])
    first = panel.top.item(0, 0).text()
    assert first == panel.value("Token").split("  (id")[0]  # greedy: its own top-1

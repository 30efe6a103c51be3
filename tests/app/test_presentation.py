"""Presentation mode: large type, projector colours on the answers, side panels folded away,
and everything as it was after leaving; slow motion labelled and handed to the worker."""

from __future__ import annotations

from doc_reading import kind_runs
from scripted_engine import answered_window, counting_stream

from app.shell.theme import token_colours
from backend.palette import PROJECTOR


def test_presentation_mode_enlarges_recolours_and_restores(make_window, qtbot):
    w, widget = answered_window(make_window, qtbot)
    before_font = w.font().pointSizeF()
    before_colours = widget.token_view.formats.colours
    runs = kind_runs(widget.token_view.document())
    p = w.teaching.presentation

    p.action.trigger()
    assert p.enabled
    assert widget.token_view.font().pointSizeF() > 1.5 * before_font
    assert widget.stats_label.font().pointSizeF() > 1.5 * before_font
    assert w.legend.font().pointSizeF() > widget.token_view.font().pointSizeF()
    assert widget.token_view.formats.colours is PROJECTOR  # redrawn in projector colours
    assert token_colours(widget) is PROJECTOR
    assert kind_runs(widget.token_view.document()) == runs  # the same tokens, same kinds
    assert w.chat_list.isHidden() and w.splitter.widget(2).isHidden()

    p.action.trigger()
    assert not p.enabled
    assert widget.token_view.font().pointSizeF() == before_font
    assert widget.token_view.formats.colours is before_colours
    assert not w.chat_list.isHidden() and not w.splitter.widget(2).isHidden()
    assert kind_runs(widget.token_view.document()) == runs


def test_slow_motion_is_labelled_and_reaches_the_worker(make_window, qtbot):
    w, _ = answered_window(make_window, qtbot)
    p = w.teaching.presentation
    half = next(a for a in p.delay_group.actions() if a.data() == 0.5)
    half.trigger()
    assert w.client._worker.step_delay_s == 0.5
    assert p.slow_label.text().startswith("Slow motion: 0.5 s per step (display only")
    assert not p.slow_label.isHidden()
    # an answer in slow motion still arrives whole, and its numbers are the engine's
    with qtbot.waitSignal(w.answer_finished, timeout=20_000) as done:
        assert w.send("count again")
    assert done.args[0].answer.stats().n_generated == counting_stream(
        8, k=4, reject_at=lambda s: s % 4)[-1].stats.n_generated
    off = next(a for a in p.delay_group.actions() if a.data() == 0.0)
    off.trigger()
    assert w.client._worker.step_delay_s == 0.0 and p.slow_label.isHidden()


def test_a_replay_on_stage_takes_the_stage_look_and_gives_it_back(make_window, qtbot):
    """A teaching tool is a window of its own, which takes neither the main window's style
    sheet nor its token colours: presentation mode dresses it, opened before or after."""
    w, widget = answered_window(make_window, qtbot)
    p = w.teaching.presentation
    early = w.teaching.open_tool(widget, "replay")
    early.show_frame(1)
    plain_size = early.view.font().pointSizeF()
    runs = kind_runs(early.view.document())
    p.action.trigger()
    late = w.teaching.open_tool(widget, "replay")
    late.show_frame(1)
    for replay in (early, late):
        assert replay.view.formats.colours is PROJECTOR
        assert replay.view.font().pointSizeF() > 1.5 * plain_size
    assert kind_runs(early.view.document()) == runs  # the same frame, drawn again
    p.action.trigger()
    assert early.view.formats.colours is not PROJECTOR
    assert early.view.font().pointSizeF() == plain_size

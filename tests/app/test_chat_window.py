"""The main window on a scripted engine: rendering, Stop, responsiveness, panel rules."""

from __future__ import annotations

import threading
import time

import pytest
from doc_reading import expected_runs, kind_runs
from PySide6.QtCore import Qt
from PySide6.QtGui import QColor, QGuiApplication
from scripted_engine import ScriptedEngine, counting_stream
from stop_gate import StopGate

from app.panel.combo_items import item_enabled, item_reason
from app.transcript.token_formats import HEAD_PROPERTY, KIND_PROPERTY
from backend.engine.errors import EngineError, LoadCancelled
from backend.engine.events import (
    GenerationFailed,
    GenerationFinished,
    GenerationStarted,
    Stats,
    StepVerified,
    Token,
)

TARGET = "/models/fake-target.gguf"


def load(window, qtbot, path=TARGET):
    with qtbot.waitSignal(window.models_changed, timeout=5000):
        window.open_target(path)


def ask(window, qtbot, text="count", timeout=10_000):
    with qtbot.waitSignal(window.answer_finished, timeout=timeout) as blocker:
        assert window.send(text)
    return blocker.args[0]


def test_formats_mark_exact_accepted_rejected_and_target_tokens(make_window, qtbot):
    script = counting_stream(12, k=4, reject_at=lambda s: s % 5)
    w = make_window(ScriptedEngine(script))
    load(w, qtbot)
    widget = ask(w, qtbot)
    steps = [e for e in script if isinstance(e, StepVerified)]
    assert kind_runs(widget.token_view.document()) == expected_runs(steps)
    # Only emitted tokens form the answer: the struck-out words are display-only.
    answer_text = "".join(t.text for s in steps for t in s.emitted)
    assert widget.answer.text == answer_text
    assert "X" not in answer_text
    assert "drafted 48 / accepted" in widget.stats_label.text()


def test_a_streamed_answer_keeps_its_shaped_text_for_the_next_paint(make_window, qtbot):
    """Qt shapes a block's text again at every paint unless its layout keeps the glyphs; a
    streaming answer repaints its last blocks every frame."""
    from app.transcript.token_view import MAX_BLOCK_CHARS

    w = make_window(ScriptedEngine(counting_stream(MAX_BLOCK_CHARS // 4, k=4)))
    load(w, qtbot)
    widget = ask(w, qtbot)
    document = widget.token_view.document()
    assert document.blockCount() > 1  # the answer's text runs past one block
    block = document.firstBlock()
    while block.isValid():
        assert block.layout().cacheEnabled(), block.blockNumber()
        block = block.next()


def test_mtp_tokens_carry_their_head(make_window, qtbot):
    script = counting_stream(3, k=3, reject_at=lambda s: 2, origin="mtp", spec_type="mtp")
    w = make_window(ScriptedEngine(script, mtp_heads=3))
    load(w, qtbot)
    assert w.panel.set_spec_type("mtp")
    widget = ask(w, qtbot)
    heads = set()
    block = widget.token_view.document().begin()
    it = block.begin()
    while not it.atEnd():
        fmt = it.fragment().charFormat()
        if fmt.property(KIND_PROPERTY) == "accepted":
            heads.add(fmt.property(HEAD_PROPERTY))
        it += 1
    assert heads == {0, 1}
    assert "MTP head 2" in w.legend.toPlainText()


def test_stop_ends_the_stream_within_a_step(make_window, qtbot):
    """The engine streams 6 steps, then waits for a cancel before its next one (the scripted
    engine ends a cancelled answer at the next step): the answer has exactly those 6 steps
    only if Stop reaches the engine at once and no streamed step is lost. A Stop that
    reached it late, or never, lets the other 1994 steps through."""
    gate = StopGate(before=6)
    w = make_window(gate.engine)
    load(w, qtbot)
    with qtbot.waitSignal(w.answer_finished, timeout=60_000) as blocker:
        w.send("count")
        qtbot.waitUntil(gate.waiting.is_set, timeout=10_000)
        assert w.stop_button.isEnabled()
        qtbot.mouseClick(w.stop_button, Qt.MouseButton.LeftButton)
    answer = blocker.args[0].answer
    assert answer.stop_reason == "cancelled"
    assert answer.n_steps == 6
    assert w.send_button.isEnabled() and not w.stop_button.isEnabled()


def test_window_stays_responsive_during_a_fast_stream(make_window, qtbot, monkeypatch):
    """A stream far faster than any model. What keeps the GUI responsive is checked as work,
    not time (a busy 2-core machine must not fail it; bench/ui_bench.py measures the stalls):
    every frame draws a bounded number of tokens, the chart never sums a step twice, and no
    chat-store call — whose cost grows with the answer — runs on the GUI thread, during the
    stream or at its end."""
    from app.transcript.message_widgets import AnswerWidget
    from app.transcript.transcript_view import MAX_TOKENS_PER_FRAME

    engine = ScriptedEngine(counting_stream(20_000, k=8, reject_at=lambda s: s % 9,
                                           step_ms=0.0))
    w = make_window(engine)
    w.show()
    load(w, qtbot)
    gui = threading.get_ident()
    store_calls_on_gui = []
    for name in ("create", "add_user", "save_answer", "append_tokens"):
        method = getattr(w.chats.store, name)

        def spy(*args, _method=method, _name=name, **kwargs):
            if threading.get_ident() == gui:
                store_calls_on_gui.append(_name)
            return _method(*args, **kwargs)

        monkeypatch.setattr(w.chats.store, name, spy)
    frames = []
    render = AnswerWidget.render_pending

    def counted(self, max_tokens=None):
        drawn = render(self, max_tokens)
        frames.append((max_tokens, drawn))
        return drawn

    monkeypatch.setattr(AnswerWidget, "render_pending", counted)
    widget = ask(w, qtbot, timeout=60_000)
    assert w.chats.flush()
    assert widget.answer.n_steps == 20_000
    assert widget.token_view.token_count() > 150_000
    assert frames and all(budget is not None and drawn <= MAX_TOKENS_PER_FRAME
                          for budget, drawn in frames), "a frame drew without a budget"
    widget.chart.column_values(300)  # the last paint may still be pending
    assert len(widget.chart._sums) == 20_001  # each step summed once, however many paints
    assert store_calls_on_gui == [], f"chat store called on the GUI thread: {store_calls_on_gui}"


def test_the_window_draws_less_often_where_the_model_holds_every_core(make_window, qtbot):
    """Each frame drawn while llama.cpp's threads hold every core is time the model waits for:
    the answer's GenerationStarted says so, and the window then draws at 30 Hz, not 60."""
    from dataclasses import replace

    from backend.engine.frame_pace import BUSY_FRAME_S, FRAME_S

    FRAME_INTERVAL_MS, BUSY_FRAME_INTERVAL_MS = round(FRAME_S * 1000), round(BUSY_FRAME_S * 1000)

    def stream(spare_core):
        events = counting_stream(6)
        return [replace(e, spare_core=spare_core) if isinstance(e, GenerationStarted) else e
                for e in events]

    streams = iter([stream(False), stream(True), stream(False)])
    w = make_window(ScriptedEngine(lambda request: next(streams)))
    load(w, qtbot)
    assert w.transcript.frame_interval_ms == FRAME_INTERVAL_MS < BUSY_FRAME_INTERVAL_MS
    for interval in (BUSY_FRAME_INTERVAL_MS, FRAME_INTERVAL_MS, BUSY_FRAME_INTERVAL_MS):
        widget = ask(w, qtbot)
        assert widget.answer.n_steps == 6
        assert w.transcript.frame_interval_ms == interval


def test_engine_runs_only_on_the_worker_thread(make_window, qtbot):
    engine = ScriptedEngine(counting_stream(5))
    w = make_window(engine)
    load(w, qtbot)
    ask(w, qtbot)
    w.chat_list.new_chat()
    w.close()
    assert engine.closed
    assert len(engine.threads) == 1
    assert threading.get_ident() not in engine.threads


def test_settings_apply_to_the_next_answer_without_reloading(make_window, qtbot):
    engine = ScriptedEngine(counting_stream(3))
    w = make_window(engine)
    load(w, qtbot)
    ask(w, qtbot)
    assert w.panel.set_spec_type("ngram")
    w.panel.n_draft.setValue(5)
    w.panel.temperature.setValue(0.7)
    w.panel.top_k.setValue(20)
    ask(w, qtbot)
    first, second = engine.requests
    assert first.spec_type == "none"
    assert (second.spec_type, second.n_draft_max) == ("ngram", 5)
    assert (second.sampling.temperature, second.sampling.top_k) == (0.7, 20)
    assert [r.content for r in second.messages] == ["count", first_answer(w), "count"]
    assert [kind for kind, _ in engine.load_calls] == ["target"]


def first_answer(w):
    return w.conversation.turns[1].content


def test_unusable_options_are_greyed_with_the_reason(make_window, qtbot):
    bad = "/models/other-vocab.gguf"
    engine = ScriptedEngine(bad_drafts={bad: "The vocabularies differ at token 7."})
    w = make_window(engine)
    load(w, qtbot)
    combo = w.panel.spec_combo
    mtp = combo.findData("mtp")
    assert not item_enabled(combo, mtp)
    assert "MTP" in item_reason(combo, mtp)
    assert not item_enabled(combo, combo.findData("draft"))
    with qtbot.waitSignal(w.load_failed, timeout=5000):
        w.open_draft(bad)
    qtbot.waitUntil(lambda: not w.loading)
    assert "vocabularies differ" in w.banner.text()
    assert w.banner_row.isVisibleTo(w)  # shown as soon as the window is
    # a file that did not open as a draft is not offered as one (the banner says why)
    assert w.panel.draft_combo.findData(bad) == -1
    assert bad not in w.settings.models.recent
    with qtbot.waitSignal(w.models_changed, timeout=5000):
        w.open_draft("/models/good-draft.gguf")
    assert item_enabled(combo, combo.findData("draft"))
    assert w.panel.set_spec_type("draft")


def test_mtp_enabled_for_a_model_with_heads(make_window, qtbot):
    w = make_window(ScriptedEngine(mtp_heads=2))
    load(w, qtbot)
    assert item_enabled(w.panel.spec_combo, w.panel.spec_combo.findData("mtp"))


class LoadsUntilCancelled(ScriptedEngine):
    """A load that reports progress until the window cancels it: the test cannot lose a race
    with a fixed load time, however slow the machine."""

    def _load(self, path, progress):
        for _ in range(3000):  # 30 s at most, so a window that never cancels fails, not hangs
            if not progress(0.5):
                raise LoadCancelled(f"Loading {path} was cancelled.")
            time.sleep(0.01)
        raise EngineError("The window never cancelled the load.")


def test_loading_shows_progress_and_can_be_cancelled(make_window, qtbot):
    engine = LoadsUntilCancelled()
    w = make_window(engine)
    w.show()
    with qtbot.waitSignal(w.client.load_cancelled, timeout=5000):
        w.open_target(TARGET)
        qtbot.waitUntil(lambda: w.load_progress.bar.value() > 0, timeout=5000)
        assert w.load_progress.bar.isVisible() and w.load_progress.cancel.isVisible()
        qtbot.mouseClick(w.load_progress.cancel, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: not w.loading)
    assert w.target is None
    assert not w.load_progress.bar.isVisible()


def test_a_bad_model_file_is_a_message_not_a_crash(make_window, qtbot):
    w = make_window(ScriptedEngine())
    # the failure, then the engine's report that nothing is loaded (the load is over)
    with qtbot.waitSignals([w.load_failed, w.models_changed], timeout=5000):
        w.open_target("/models/missing.gguf")
    assert "does not exist" in w.banner.text()
    assert not w.send("hello")  # nothing to answer with: said in the banner, not raised
    assert "Load a model first" in w.banner.text()


def test_a_failed_generation_shows_its_message(make_window, qtbot):
    script = [GenerationStarted(1, "none", 1, 3),
              GenerationFailed("The prompt is longer than the context.", "n_ctx=16")]
    w = make_window(ScriptedEngine(script))
    load(w, qtbot)
    widget = ask(w, qtbot)
    assert widget.error_label.text() == "The prompt is longer than the context."
    assert not widget.error_label.isHidden()
    assert w.send_button.isEnabled()


def test_enter_sends_and_shift_enter_adds_a_line(make_window, qtbot):
    engine = ScriptedEngine(counting_stream(2))
    w = make_window(engine)
    load(w, qtbot)
    qtbot.keyClicks(w.message_box, "line one")
    qtbot.keyClick(w.message_box, Qt.Key.Key_Return, Qt.KeyboardModifier.ShiftModifier)
    qtbot.keyClicks(w.message_box, "line two")
    with qtbot.waitSignal(w.answer_finished, timeout=5000):
        qtbot.keyClick(w.message_box, Qt.Key.Key_Return)
    assert engine.requests[0].messages[-1].content == "line one\nline two"
    assert w.message_box.toPlainText() == ""


def test_regenerate_replaces_the_last_answer(make_window, qtbot):
    engine = ScriptedEngine(counting_stream(2))
    w = make_window(engine)
    load(w, qtbot)
    ask(w, qtbot)
    assert w.regenerate_button.isEnabled()
    with qtbot.waitSignal(w.answer_finished, timeout=5000):
        qtbot.mouseClick(w.regenerate_button, Qt.MouseButton.LeftButton)
    assert len(w.answer_widgets()) == 1
    assert [t.role for t in w.conversation.turns] == ["user", "assistant"]
    assert [m.role for m in engine.requests[1].messages] == ["user"]


def test_new_chat_and_switching_back_keeps_the_colours(make_window, qtbot):
    script = counting_stream(4)
    engine = ScriptedEngine(script)
    w = make_window(engine)
    load(w, qtbot)
    before = kind_runs(ask(w, qtbot).token_view.document())
    w.chat_list.new_chat()
    assert w.answer_widgets() == []
    assert w.conversation_list.count() == 2
    w.conversation_list.setCurrentRow(1)
    assert kind_runs(w.answer_widgets()[0].token_view.document()) == before
    # The new chat and the switch back each drop the cached prefix; the requests travel to
    # the engine's thread, so wait for them rather than expect them already there.
    qtbot.waitUntil(lambda: engine.cache_resets == 2, timeout=5000)


def test_hover_shows_step_origin_verdict_and_probabilities(make_window, qtbot):
    script = counting_stream(2, k=4, reject_at=lambda s: 2)
    w = make_window(ScriptedEngine(script))
    w.show()
    load(w, qtbot)
    view = ask(w, qtbot).token_view
    qtbot.waitExposed(w)
    text = view.toPlainText()
    pos = text.index("Xfour") + 2  # inside the first rejected word
    cursor = view.textCursor()
    cursor.setPosition(pos)
    rect = view.cursorRect(cursor)
    step, token = view.token_at(rect.center())
    assert (step, token.text, token.accepted) == (0, " Xfour", False)
    from app.transcript.token_view import token_tooltip

    tip = token_tooltip(step, token)
    assert "Step 0" in tip and "rejected" in tip and "target p = 0.010" in tip
    assert "drafter q = 0.800" in tip


def test_markdown_view_shows_text_not_markup_and_copies_code(make_window, qtbot):
    answer = "Use <b>bold</b> &amp; this:\n\n```python\nprint('<hi>')\n```\nDone."
    tokens = [Token(i, piece, "target", True) for i, piece in
              enumerate(answer.split(" "))]
    tokens = [Token(t.id, t.text + (" " if i < len(tokens) - 1 else ""), "target", True)
              for i, t in enumerate(tokens)]
    steps = [StepVerified(i, (), 0, (t,), 0.1, 0.1) for i, t in enumerate(tokens)]
    script = [GenerationStarted(1, "none", 1, 3), *steps,
              GenerationFinished("eos", answer, Stats(n_generated=len(steps)))]
    w = make_window(ScriptedEngine(script))
    load(w, qtbot)
    widget = ask(w, qtbot)
    assert widget.token_view.toPlainText() == answer
    widget.markdown_button.click()
    md = widget.markdown_view
    assert md.isVisibleTo(widget) and not widget.token_view.isVisibleTo(widget)
    (block,) = md.code_blocks()
    assert block.code == "print('<hi>')"
    from app.widgets.auto_height_text import AutoHeightTextEdit

    prose = [v.toPlainText() for v in md.findChildren(AutoHeightTextEdit)
             if v.parent() is md]
    assert prose[0] == "Use <b>bold</b> &amp; this:"
    block.copy_button.click()
    assert QGuiApplication.clipboard().text() == "print('<hi>')"
    widget.markdown_button.click()
    assert widget.token_view.isVisibleTo(widget)


def _colours(image) -> dict[int, int]:
    """How many pixels of each colour (every other pixel, every other row)."""
    counts: dict[int, int] = {}
    for y in range(0, image.height(), 2):
        for x in range(0, image.width(), 2):
            rgb = image.pixel(x, y)
            counts[rgb] = counts.get(rgb, 0) + 1
    return counts


@pytest.mark.parametrize("theme", ["light", "dark"])
def test_both_themes_render(make_window, qtbot, themed, tmp_path, theme):
    from app.shell.theme import DARK, LIGHT, is_dark

    themed(theme)
    w = make_window(ScriptedEngine(counting_stream(8)))
    w.show()
    load(w, qtbot)
    widget = ask(w, qtbot)
    assert is_dark(widget) == (theme == "dark")
    fmt = widget.token_view.formats
    assert fmt.colours.accepted_fg != fmt.colours.rejected_fg
    # what is drawn: the theme's background, and each token kind's tint of this theme
    image = widget.token_view.viewport().grab().toImage()
    colours = _colours(image)
    background = max(colours, key=colours.get)
    assert (QColor(background).lightness() < 100) == (theme == "dark")
    palette = DARK if theme == "dark" else LIGHT
    for tint in (palette.accepted_bg, palette.rejected_bg):
        assert QColor(tint).rgb() in colours, tint
    assert w.grab().save(str(tmp_path / f"{theme}.png"))

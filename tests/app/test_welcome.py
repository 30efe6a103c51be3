"""The welcome view: shown exactly while the chat has no turns, its prompts set their spec type
and send, "Find models on the Hub" opens the model manager, and the first-run demo pair is
made behind a progress bar with the window responsive."""

from __future__ import annotations

import dataclasses
import threading

from PySide6.QtCore import Qt, QTimer
from PySide6.QtWidgets import QPushButton
from scripted_engine import ScriptedEngine

from app.chat.welcome import DEMO_PROMPTS
from app.transcript.token_formats import KIND_PROPERTY

TARGET = "/models/fake-target.gguf"
DRAFT = "/models/fake-draft.gguf"


def load(window, qtbot, path=TARGET):
    with qtbot.waitSignal(window.models_changed, timeout=5000):
        window.open_target(path)


def click(qtbot, button: QPushButton) -> None:
    assert button.isVisible() and button.isEnabled(), button.text()
    qtbot.mouseClick(button, Qt.MouseButton.LeftButton)


def test_an_empty_chat_shows_the_welcome_and_a_message_hides_it(make_window, qtbot):
    w = make_window(ScriptedEngine())
    w.show()
    welcome = w.welcome.view
    assert welcome.isVisible()
    assert welcome.geometry() == w.transcript.rect()  # covers the transcript, nothing else
    load(w, qtbot)
    with qtbot.waitSignal(w.answer_finished, timeout=10_000):
        assert w.send("count")
    assert not welcome.isVisible()
    w.chat_list.new_chat()
    qtbot.waitUntil(welcome.isVisible)
    w.chat_list.list.setCurrentRow(1)  # the chat with the answer, newest first
    qtbot.waitUntil(lambda: bool(w.transcript.answer_widgets()) and not welcome.isVisible())


def test_the_colour_key_uses_the_transcripts_formats(make_window):
    w = make_window(ScriptedEngine())
    kinds = set()
    block = w.welcome.view.colours.document().begin()
    while block.isValid():
        it = block.begin()
        while not it.atEnd():
            kind = it.fragment().charFormat().property(KIND_PROPERTY)
            if kind:
                kinds.add(kind)
            it += 1
        block = block.next()
    assert kinds == {"accepted", "rejected", "target"}
    text = w.welcome.view.colours.toPlainText()
    assert text.count(". ") + text.endswith(".") == 3  # three sentences


def test_ngram_prompt_sets_the_spec_type_and_sends_it(make_window, qtbot):
    engine = ScriptedEngine()
    w = make_window(engine)
    w.show()
    load(w, qtbot)
    card = w.welcome.view.card("ngram")
    with qtbot.waitSignal(w.answer_finished, timeout=10_000):
        click(qtbot, card.button)
    assert engine.requests[-1].spec_type == "ngram"
    assert engine.requests[-1].messages[-1].content == card.demo.prompt
    assert w.panel.generation_settings().spec_type == "ngram"
    assert w.conversation.turns[0].content == card.demo.prompt


def test_the_rewrite_prompt_keeps_the_n_gram_kind_chosen_in_the_panel(make_window, qtbot):
    engine = ScriptedEngine()
    w = make_window(engine)
    w.show()
    load(w, qtbot)
    gs = w.panel.preferred_settings()
    gs.spec_type = "ngram-mod"
    w.panel.set_generation_settings(gs)
    card = w.welcome.view.card("ngram")
    assert "ngram-mod" in card.demo.family
    with qtbot.waitSignal(w.answer_finished, timeout=10_000):
        click(qtbot, card.button)
    assert engine.requests[-1].spec_type == "ngram-mod"
    assert w.panel.generation_settings().spec_type == "ngram-mod"


def test_draft_prompt_waits_for_a_draft_and_then_uses_it(make_window, qtbot):
    engine = ScriptedEngine()
    w = make_window(engine)
    w.show()
    load(w, qtbot)
    card = w.welcome.view.card("draft")
    assert not card.button.isEnabled()
    assert "draft model" in card.note.text() and card.note.isVisible()
    assert not w.welcome.view.try_prompt(card.demo)  # refused in words, nothing sent
    assert "draft model" in w.banner.text() and not w.conversation.turns
    with qtbot.waitSignal(w.models_changed, timeout=5000):
        w.open_draft(DRAFT)
    assert card.button.isEnabled() and not card.note.isVisible()
    with qtbot.waitSignal(w.answer_finished, timeout=10_000):
        click(qtbot, card.button)
    assert engine.requests[-1].spec_type == "draft"
    assert "def " not in card.demo.prompt and "Python" in card.demo.prompt  # a code prompt


def test_mtp_and_eagle3_prompts_only_when_such_a_model_is_loaded(make_window, qtbot):
    plain = make_window(ScriptedEngine())
    plain.show()
    load(plain, qtbot)
    assert not plain.welcome.view.card("mtp").isVisible()
    assert not plain.welcome.view.card("eagle3").isVisible()
    assert "MTP heads, EAGLE-3, DFlash and Gemma 4 assistant appear" in \
        plain.welcome.view.more.text()

    engine = ScriptedEngine(mtp_heads=1)
    w = make_window(engine)
    w.show()
    load(w, qtbot)
    card = w.welcome.view.card("mtp")
    assert card.isVisible()
    with qtbot.waitSignal(w.answer_finished, timeout=10_000):
        click(qtbot, card.button)
    assert engine.requests[-1].spec_type == "mtp"


def test_every_spec_type_with_a_drafter_has_a_demo_prompt():
    from backend import spec_types

    drafting = {s.name for s in spec_types.all_spec_types() if s.name != spec_types.PLAIN}
    assert drafting <= {spec for d in DEMO_PROMPTS for spec in (d.spec, *d.family)}


def test_find_models_on_the_hub_opens_the_model_manager(make_window, qtbot):
    w = make_window(ScriptedEngine())
    w.show()
    assert w.model_manager.window is None
    click(qtbot, w.welcome.view.hub_button)
    assert w.model_manager.window is not None and w.model_manager.window.isVisible()


class GatedDemo(ScriptedEngine):
    """Making the demo pair takes as long as the test wants: no race with a fixed delay."""

    def __init__(self) -> None:
        super().__init__()
        self.gate = threading.Event()

    def load_demo(self, *, n_ctx=4096, n_threads=None, progress=None):
        if progress is not None:
            progress(0.0)
        assert self.gate.wait(30), "the test never released the demo"
        return super().load_demo(n_ctx=n_ctx, n_threads=n_threads, progress=progress)


def test_the_demo_pair_is_made_behind_a_progress_bar_with_the_window_live(make_window, qtbot):
    engine = GatedDemo()
    w = make_window(engine)
    w.show()
    w.open_demo()
    try:
        qtbot.waitUntil(lambda: w.load_progress.bar.isVisible())
        assert "demo" in w.load_progress.label.text()
        ticks = []
        timer = QTimer(interval=10)
        timer.timeout.connect(lambda: ticks.append(1))
        timer.start()
        qtbot.waitUntil(lambda: len(ticks) >= 5)  # the GUI thread runs while the pair is made
        timer.stop()
        assert w.welcome.view.isVisible()
        assert "loading" in w.welcome.view.status.text()
        card = w.welcome.view.card("draft")
        click(qtbot, card.button)  # answered once the pair is in
        assert w.conversation.turns[0].content == card.demo.prompt
    finally:
        engine.gate.set()
    qtbot.waitUntil(lambda: bool(engine.requests), timeout=10_000)
    assert engine.requests[-1].spec_type == "draft"
    qtbot.waitUntil(lambda: not w.load_progress.bar.isVisible())
    qtbot.waitUntil(lambda: not w.generating, timeout=10_000)


class HeadDrafts(ScriptedEngine):
    """Its draft is an EAGLE-3 head (architecture "eagle3"), as the engine reports one."""

    def load_draft(self, path, *, progress=None):
        info = super().load_draft(path, progress=progress)
        self.draft = dataclasses.replace(info, architecture="eagle3", name="eagle3-head")
        return self.draft


def test_eagle3_prompt_when_a_head_is_the_draft(make_window, qtbot):
    engine = HeadDrafts()
    w = make_window(engine)
    w.show()
    load(w, qtbot)
    card = w.welcome.view.card("eagle3")
    assert not card.isVisible()
    with qtbot.waitSignal(w.models_changed, timeout=5000):
        w.open_draft("/models/eagle3-head.gguf")
    assert card.isVisible() and card.button.isEnabled()
    assert not w.welcome.view.card("draft").button.isEnabled()  # a head is no draft model
    with qtbot.waitSignal(w.answer_finished, timeout=10_000):
        click(qtbot, card.button)
    assert engine.requests[-1].spec_type == "eagle3"

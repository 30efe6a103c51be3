"""What a person sees in their first hour (issue 44, cosmetic): the transcript reflows beside
the pinned inspector at 1280 px, the whole-chat charts tick at whole numbers and cut no label,
the Undo notice is one line, Copy says it copied, Export… proposes a name and the page leads
with the answer's own question, and presentation mode is full screen and gives the window
back as it was."""

from __future__ import annotations

import re
from dataclasses import replace
from datetime import date
from html.parser import HTMLParser
from pathlib import Path

from PySide6.QtCore import QRect, QRectF, Qt
from PySide6.QtGui import QGuiApplication, QTextDocument
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QAbstractButton, QApplication, QFileDialog, QLabel, QWidget
from scripted_engine import ScriptedEngine, answered_window, counting_stream

from app.transcript.answer_export import default_folder, export_name
from app.transcript.markdown_view import MarkdownView
from backend.engine.events import Candidate, StepVerified, Verification, verification_to_json

SHOTS = Path("/tmp/shots")
LONG_TARGET = "/models/smollm2-135m-instruct-8k-lc100k-mix1-ep2-q8_0.gguf"


def _shot(widget: QWidget, name: str) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    widget.grab().save(str(SHOTS / name))


def press(window: QWidget, key: Qt.Key) -> None:
    """A key pressed on the keyboard: to the window, for its shortcuts."""
    QTest.keyClick(window.windowHandle(), key)


def _ask(w, qtbot, text: str):
    with qtbot.waitSignal(w.answer_finished, timeout=10_000) as done:
        assert w.send(text)
    return done.args[0]


def _loaded(make_window, qtbot, script, target: str = LONG_TARGET):
    w = make_window(ScriptedEngine(script))
    with qtbot.waitSignal(w.models_changed, timeout=5000):
        w.open_target(target)
    w.show()
    qtbot.waitExposed(w)
    return w


# The inspector at 1280 px -----------------------------------------------------------------

def _click_token(widget, qtbot, index: int) -> None:
    rect = widget.token_view.token_rect(index)
    assert rect is not None, "the token is not drawn"
    qtbot.mouseClick(widget.token_view.viewport(), Qt.MouseButton.LeftButton, pos=rect.center())


def _spills(widget: QWidget, viewport: QWidget) -> list[str]:
    """The visible labels and buttons of `widget` that reach past the viewport's sides, or
    whose own text is wider than they are (cut)."""
    bad = []
    for child in widget.findChildren(QWidget):
        if not child.isVisibleTo(widget) or not isinstance(child, QLabel | QAbstractButton):
            continue
        rect = QRect(child.mapTo(viewport, child.rect().topLeft()), child.size())
        if rect.left() < 0 or rect.right() >= viewport.width():
            bad.append(f"{child.text()!r} at x {rect.left()}..{rect.right()}")
        elif isinstance(child, QLabel) and not child.wordWrap() and child.text():
            needed = child.fontMetrics().horizontalAdvance(child.text())
            if needed > child.contentsRect().width() + 1:
                bad.append(f"{child.text()!r} needs {needed} px, has "
                           f"{child.contentsRect().width()}")
    return bad


def _inspected(events: list) -> list:
    """The events with what verification used recorded on every token, its five most likely
    tokens and the text an n-gram copy followed among them: long unbroken code identifiers,
    as an answer about code has."""
    long = "_a_long_identifier_copied_from_the_conversation"
    top = tuple(Candidate(100 + i, text, 0.5 / (i + 1)) for i, text in enumerate(
        (" seventeen", long, "\n\n", " nineteenth-century", " twenty")))
    record = verification_to_json(Verification(
        "sampled", draw=0.42, accept_prob=0.3, drawn_from="residual", residual_p=0.2,
        top_target=top, top_draft=top[::-1], match_at=3, match_text=f"def {long}(x)"))
    return [replace(e, drafted=tuple(replace(t, inspection=record) for t in e.drafted),
                    emitted=tuple(replace(t, inspection=record) for t in e.emitted))
            if isinstance(e, StepVerified) else e for e in events]


def test_the_transcript_reflows_beside_the_pinned_inspector_at_1280(make_window, qtbot):
    w = _loaded(make_window, qtbot,
                _inspected(counting_stream(8, k=4, reject_at=lambda s: s % 4)))
    w.resize(1280, 820)
    widgets = [_ask(w, qtbot, "count"), _ask(w, qtbot, "count again, please")]
    qtbot.waitUntil(lambda: w.width() == 1280)
    _click_token(widgets[-1], qtbot, 2)
    dock = w.teaching.inspector_dock
    qtbot.waitUntil(lambda: dock.isVisible() and dock.width() > 150)
    qtbot.waitUntil(lambda: not w.transcript.widget().width() > w.transcript.viewport().width())

    assert w.width() == 1280  # the window did not grow past the screen to make room
    viewport = w.transcript.viewport()
    assert dock.geometry().left() >= w.transcript.mapTo(w, w.transcript.rect().topRight()).x()
    for widget in w.transcript.answer_widgets():
        assert widget.mapTo(viewport, widget.rect().topRight()).x() < viewport.width()
        assert _spills(widget, viewport) == []
    # the inspector wraps its long values inside the dock too, and reads them as written
    panel = w.teaching.inspector
    assert panel.width() <= panel.parentWidget().width()  # nothing to scroll sideways
    assert panel.value("Copied from").endswith("_copied_from_the_conversation(x)'")
    assert w.chat_list.width() >= 150  # the chat list kept its room
    _shot(w, "inspector-1280.png")


# Charts -----------------------------------------------------------------------------------

def _charts(w, widget):
    teach = next(a for a in widget.teach_button.menu().actions() if a.data() == "charts")
    teach.trigger()  # the Teach menu's "Charts"
    return w.teaching.tool_windows[-1]


def test_whole_chat_charts_tick_at_whole_numbers_and_cut_no_label(make_window, qtbot):
    # 7 of an answer's 13 steps keep all 12 drafts: 21 steps in a chat of three answers
    w = _loaded(make_window, qtbot, counting_stream(13, k=12, reject_at=lambda s: 12 - s % 2))
    _ask(w, qtbot, "count")
    _ask(w, qtbot, "count on")
    charts = _charts(w, _ask(w, qtbot, "again"))
    qtbot.waitExposed(charts)
    qtbot.mouseClick(charts.this_chat, Qt.MouseButton.LeftButton)
    assert charts.data.n_answers == 3
    summary = charts.summary
    qtbot.waitUntil(lambda: summary.width() >= summary.sizeHint().width())  # laid out
    _shot(charts, "charts-chat.png")  # paints every chart, filling their `labels`

    kept = charts.kept
    assert max(charts.data.kept_per_step) == 21  # half of it is the 10.5 the axis had
    assert kept.ticks == [0, 5, 10, 15, 20, 25]
    assert all(t == int(t) for t in kept.ticks)
    assert charts.acceptance.ticks == [0, 0.25, 0.5, 0.75, 1.0]
    assert [text for text, *_ in charts.acceptance.labels[1:6]] == [
        "0 %", "25 %", "50 %", "75 %", "100 %"]
    assert all(t == int(t) for t in charts.rate.ticks) and charts.rate.ticks[-1] >= max(
        r for _, r in charts.data.rate)
    for chart in (charts.acceptance, kept, charts.rate):
        area = QRectF(chart.rect())
        assert chart.labels, "nothing was drawn"
        for text, given, needed in chart.labels:
            assert area.contains(given), f"{text!r} is outside the chart"
            assert given.adjusted(-0.5, -0.5, 0.5, 0.5).contains(needed), f"{text!r} is cut"
        boxes = [(text, needed) for text, _, needed in chart.labels]
        for i, (a, ra) in enumerate(boxes):
            for b, rb in boxes[i + 1:]:
                assert not ra.adjusted(1, 1, -1, -1).intersects(rb), f"{a!r} overlaps {b!r}"


# The Undo notice --------------------------------------------------------------------------

def test_the_undo_notice_is_one_line(make_window, qtbot):
    w = _loaded(make_window, qtbot, counting_stream(2))
    _ask(w, qtbot, "Tell me a long story about a lighthouse keeper and her cat")
    w.chat_list.new_chat_button.click()
    _ask(w, qtbot, "second")
    titles = [w.conversation_list.item(i).text() for i in range(w.conversation_list.count())]
    row = next(i for i, t in enumerate(titles) if t.startswith("Tell me"))
    w.conversation_list.setCurrentRow(row)
    w.conversation_list.setFocus()
    qtbot.keyClick(w.conversation_list, Qt.Key.Key_Delete)

    bar, label, undo = w.chat_list.undo_bar, w.chat_list.undo_label, w.chat_list.undo_button
    qtbot.waitUntil(bar.isVisible)
    shown = QTextDocument()
    shown.setHtml(label.toolTip())  # the title is quoted as plain text inside rich text
    assert shown.toPlainText() == "Deleted “Tell me a long story about a lighthouse…”."
    assert label.height() < 2 * label.fontMetrics().lineSpacing()  # one line
    assert bar.height() <= max(undo.height(), label.height()) + 2
    assert label.text() == "Chat deleted."  # whole: it fits beside Undo
    assert label.fontMetrics().horizontalAdvance(label.text()) <= label.contentsRect().width()
    assert bar.width() <= w.chat_list.width()
    _shot(w.chat_list, "undo-notice.png")


# Copy -------------------------------------------------------------------------------------

def test_copy_says_copied_for_a_moment(make_window, qtbot):
    _, widget = answered_window(make_window, qtbot)
    button = widget.copy_button
    width = button.width()
    qtbot.mouseClick(button, Qt.MouseButton.LeftButton)
    assert QGuiApplication.clipboard().text() == widget.answer.text
    assert button.text() == "Copied"
    qtbot.waitUntil(lambda: button.text() == "Copy", timeout=5000)
    assert button.width() >= width


def test_a_code_blocks_copy_says_copied(qtbot):
    view = MarkdownView()
    qtbot.addWidget(view)
    view.set_text("Here:\n\n```python\nprint('hi')\n```\n")
    view.show()
    qtbot.waitExposed(view)
    (block,) = view.code_blocks()
    qtbot.mouseClick(block.copy_button, Qt.MouseButton.LeftButton)
    assert QGuiApplication.clipboard().text() == "print('hi')"
    assert block.copy_button.text() == "Copied"
    qtbot.waitUntil(lambda: block.copy_button.text() == "Copy", timeout=5000)


# Export -----------------------------------------------------------------------------------

def test_export_names_are_the_titles_first_words_and_the_day():
    day = date(2025, 3, 7)
    assert export_name("Tell me a story", day) == "Tell me a story 2025-03-07.html"
    assert export_name('What is a/b? <x> "y"\n', day, ".png") == "What is a b x y 2025-03-07.png"
    assert export_name("  ...  ", day) == "answer 2025-03-07.html"
    long = export_name("word " * 30, day)
    assert len(long) <= 40 + len(" 2025-03-07.html") and long.startswith("word word")


class _Visible(HTMLParser):
    """The page's text blocks in order: (class of the div or details, text)."""

    def __init__(self) -> None:
        super().__init__()
        self.blocks: list[tuple[str, str]] = []
        self._stack: list[str] = []

    def handle_starttag(self, tag, attrs):
        if tag in ("div", "details"):
            self._stack.append(dict(attrs).get("class", ""))
            self.blocks.append(("/".join(self._stack), ""))

    def handle_endtag(self, tag):
        if tag in ("div", "details"):
            self._stack.pop()

    def handle_data(self, data):
        if self._stack and self.blocks:
            kind, text = self.blocks[-1]
            self.blocks[-1] = (kind, text + data)


def test_an_answers_page_leads_with_its_own_question(make_window, qtbot, tmp_path,
                                                      monkeypatch):
    w = _loaded(make_window, qtbot, counting_stream(2, k=4))
    _ask(w, qtbot, "Name the planets: in order")
    second = _ask(w, qtbot, "and their moons?")
    asked: list[str] = []
    target = tmp_path / "moons.html"

    def save_dialog(parent, caption, proposed, filters):  # the native dialog, answered
        asked.append(proposed)
        return str(target), filters.split(";;")[0]

    monkeypatch.setattr(QFileDialog, "getSaveFileName", staticmethod(save_dialog))
    with qtbot.waitSignal(w.exports.exporter.exported, timeout=10_000):
        qtbot.mouseClick(second.export_button, Qt.MouseButton.LeftButton)
    today = date.today().isoformat()
    assert asked == [str(default_folder() / f"Name the planets in order {today}.html")]
    assert default_folder().is_dir()

    page = target.read_text(encoding="utf-8")
    parser = _Visible()
    parser.feed(page)
    blocks = [(k, re.sub(r"\s+", " ", t).strip()) for k, t in parser.blocks]
    assert blocks[0] == ("prompt", "and their moons?")  # its own question first
    assert blocks[1][0] == "answer"  # then its coloured answer
    earlier = [t for k, t in blocks if k.startswith("earlier")]
    assert earlier and "Name the planets: in order" in earlier[-1]  # folded, after it
    assert page.index("and their moons?") < page.index('class="answer"') < page.index(
        "Name the planets: in order")

    # the next export proposes the folder this one went to
    with qtbot.waitSignal(w.exports.exporter.exported, timeout=10_000):
        qtbot.mouseClick(second.export_button, Qt.MouseButton.LeftButton)
    assert Path(asked[-1]).parent == tmp_path


# Presentation mode ------------------------------------------------------------------------

def test_presentation_mode_is_full_screen_and_gives_the_window_back(make_window, qtbot):
    w, _ = answered_window(make_window, qtbot)
    w.showNormal()
    QApplication.processEvents()  # the posted layout requests: the window's minimum size
    screen = w.screen().availableGeometry()
    w.setGeometry(QRect(screen.x() + 20, screen.y() + 30, w.minimumWidth(),
                        screen.height() - 60))
    qtbot.waitUntil(lambda: w.geometry().y() == screen.y() + 30)
    before = w.geometry()
    w.activateWindow()
    qtbot.waitUntil(lambda: QApplication.activeWindow() is w)  # the keyboard types into it
    press(w, Qt.Key.Key_F5)
    qtbot.waitUntil(w.isFullScreen)
    press(w, Qt.Key.Key_Escape)
    qtbot.waitUntil(lambda: not w.isFullScreen())
    assert not w.teaching.presentation.enabled
    assert not w.isMaximized()
    # its size, and its place as far as the (small, offscreen) screen lets it be restored
    qtbot.waitUntil(lambda: w.size() == before.size())
    assert abs(w.geometry().x() - before.x()) <= 20 and w.geometry().y() == before.y()

    w.showMaximized()
    qtbot.waitUntil(w.isMaximized)
    press(w, Qt.Key.Key_F5)
    qtbot.waitUntil(w.isFullScreen)
    assert w.teaching.presentation.enabled
    press(w, Qt.Key.Key_F5)
    qtbot.waitUntil(lambda: not w.isFullScreen())
    assert w.isMaximized()

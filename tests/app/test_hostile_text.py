"""Text from a model, a file or a server is shown as text: a tooltip quoting it never becomes
rich text (whose <img> would read a local file, or /dev/zero until the process aborts), and a
line of any length is drawn cut to a bounded size while the answer keeps it whole."""

from __future__ import annotations

from PySide6.QtCore import QEvent, QPoint, QUrl
from PySide6.QtGui import (
    QGuiApplication,
    QHelpEvent,
    Qt,  # the one that has mightBeRichText
    QTextDocument,
)
from PySide6.QtWidgets import QApplication, QToolTip
from scripted_engine import ScriptedEngine

from app.transcript.token_view import MAX_LINE_CHARS, MAX_TOKEN_CHARS, token_tooltip
from app.widgets.auto_height_text import AutoHeightTextEdit
from backend.chats import ChatStore
from backend.engine.events import (
    GenerationFailed,
    GenerationFinished,
    GenerationStarted,
    Stats,
    StepVerified,
    Token,
)

TARGET = "/models/fake-target.gguf"
MARKUP = '&amp; <img src="/dev/zero"> <b>bold</b> <img src="local.png">'


class _NoResources(QTextDocument):
    """Reads rich text as Qt would, but loads nothing (a test that fails must not abort)."""

    loaded: list[str]

    def loadResource(self, kind: int, name: QUrl):
        self.loaded.append(name.toString())
        return None


def as_shown(tip: str) -> tuple[str, list[str]]:
    """What a tooltip shows, decided as QToolTip decides (Qt::mightBeRichText), and the
    resources its rich text would have loaded."""
    doc = _NoResources()
    doc.loaded = []
    if not Qt.mightBeRichText(tip):
        return tip, []
    doc.setHtml(tip)
    doc.size()  # lays it out: images are asked for here
    return doc.toPlainText(), doc.loaded


def hover(view, pos: QPoint) -> str:
    """Hover a point of an item view as the mouse does; the tooltip shown."""
    viewport = view.viewport()
    QApplication.sendEvent(viewport, QHelpEvent(QEvent.Type.ToolTip, pos,
                                                viewport.mapToGlobal(pos)))
    return QToolTip.text() if QToolTip.isVisible() else ""


def load(window, qtbot):
    with qtbot.waitSignal(window.models_changed, timeout=5000):
        window.open_target(TARGET)


def ask(window, qtbot, text="hi"):
    with qtbot.waitSignal(window.answer_finished, timeout=20_000):
        assert window.send(text)
    return window.answer_widgets()[-1]


def test_a_search_result_quoting_markup_shows_it_literally(make_window, qtbot, chats_path):
    store = ChatStore(chats_path)
    chat = store.create("imported")
    store.add_user(chat, "what is this")
    store.add_answer(chat, f"The pangolin {MARKUP} is here.")
    store.close()
    w = make_window(ScriptedEngine())
    qtbot.waitUntil(lambda: w.conversation.loaded, timeout=5000)
    w.chat_list.search("pangolin")
    qtbot.waitUntil(lambda: w.chat_list.visible_titles() == ["imported"], timeout=5000)
    row = w.chat_list.row_of(next(c for c in w.chat_list.conversations() if c.chat_id == chat))
    item = w.conversation_list.item(row)
    shown, loaded = as_shown(item.toolTip())
    assert loaded == []
    # an entity the chat holds is shown as written, markup as the characters it is
    assert '[pangolin] &amp; <img src="/dev/zero"> <b>bold</b>' in shown
    w.show()
    qtbot.waitExposed(w)
    rect = w.conversation_list.visualItemRect(item)
    assert hover(w.conversation_list, rect.center()) == item.toolTip()
    QToolTip.hideText()


def test_a_deleted_chats_title_is_quoted_literally(make_window, qtbot, chats_path):
    store = ChatStore(chats_path)
    store.add_user(store.create(MARKUP), "hello")
    store.close()
    w = make_window(ScriptedEngine())
    qtbot.waitUntil(lambda: w.conversation.loaded, timeout=5000)
    row = next(r for r in range(w.chat_list.count()) if w.chat_list._conv(r).title == MARKUP)
    w.chat_list.delete_chat(row)
    shown, loaded = as_shown(w.chat_list.undo_label.toolTip())
    assert loaded == [] and MARKUP in shown


def test_an_answers_error_and_an_error_card_quote_the_server_literally(make_window, qtbot):
    detail = f"HTTP 500: {MARKUP}\n" + "x" * 50_000
    script = [GenerationStarted(1, "none", 1, 3),
              StepVerified(0, (), 0, (Token(0, "Part", "target", True),), 0.1, 0.1),
              GenerationFailed("The server failed.", detail)]
    w = make_window(ScriptedEngine(script))
    load(w, qtbot)
    widget = ask(w, qtbot)
    assert widget.error_label.isVisibleTo(widget)
    shown, loaded = as_shown(widget.error_label.toolTip())
    assert loaded == [] and shown.startswith(f"HTTP 500: {MARKUP}\n")
    assert len(shown) < 3000 and f"({len(detail):,} characters)" in shown  # cut, length said
    assert widget.answer.text == "Part"  # what was written before the failure is kept
    card = w.transcript.add_error("The server failed.", detail)
    shown, loaded = as_shown(card.message_label.toolTip())
    assert loaded == [] and shown.startswith(f"HTTP 500: {MARKUP}")


def long_answer(*texts: str) -> list:
    steps = [StepVerified(i, (), 0, (Token(i, t, "target", True),), 0.1, 0.1)
             for i, t in enumerate(texts)]
    return [GenerationStarted(1, "none", 1, 3), *steps,
            GenerationFinished("eos", "".join(texts), Stats(n_generated=len(texts)))]


def blocks(doc: QTextDocument) -> list[int]:
    lengths, block = [], doc.begin()
    while block.isValid():
        lengths.append(block.length())
        block = block.next()
    return lengths


BOUND = MAX_LINE_CHARS + MAX_TOKEN_CHARS + 100  # the longest block the view can hold


def test_a_token_of_a_million_characters_is_drawn_cut_and_kept_whole(make_window, qtbot):
    token = "y" * 1_000_000
    w = make_window(ScriptedEngine(long_answer("Start ", token, " end")))
    load(w, qtbot)
    widget = ask(w, qtbot)
    doc = widget.token_view.document()
    assert doc.characterCount() < 2 * MAX_TOKEN_CHARS and max(blocks(doc)) < BOUND
    shown = widget.token_view.toPlainText()
    assert shown.startswith("Start yyy") and shown.endswith(" end")
    assert "… (1,000,000 characters)" in shown
    assert widget.answer.text == "Start " + token + " end"  # nothing lost
    widget.copy_button.click()
    assert QGuiApplication.clipboard().text() == widget.answer.text
    # its tooltip quotes it cut too
    assert len(token_tooltip(1, widget.answer.tokens.token(1))) < 2000
    # the Markdown view: the run cut as drawn, the answer untouched
    widget.markdown_button.click()
    views = [v for v in widget.markdown_view.findChildren(AutoHeightTextEdit)]
    assert sum(v.document().characterCount() for v in views) < 2 * MAX_TOKEN_CHARS
    assert any("… (1,000,000 characters)" in v.toPlainText() for v in views)


def test_two_long_tokens_and_a_line_of_small_ones_stay_in_bounded_blocks(make_window, qtbot):
    big = ["a" * 500_000, "b" * 500_000]
    small = ["cdef"] * 6_000  # 24,000 characters without a space, in small tokens
    w = make_window(ScriptedEngine(long_answer(*big, *small)))
    load(w, qtbot)
    widget = ask(w, qtbot)
    doc = widget.token_view.document()
    assert max(blocks(doc)) < BOUND
    shown = widget.token_view.toPlainText()
    assert shown.count("… (500,000 characters)") == 2
    # small tokens are never cut: only line breaks are added between them
    assert shown.split("characters)")[-1].replace("\n", "") == "cdef" * 6_000
    assert widget.answer.text == "".join(big + small)


def test_a_long_code_line_is_drawn_cut_and_copied_whole(make_window, qtbot):
    code = "z" * 300_000
    w = make_window(ScriptedEngine(long_answer("Here:\n\n```\n", *[code[:100_000]] * 3,
                                               "\n```\n")))
    load(w, qtbot)
    widget = ask(w, qtbot)
    widget.markdown_button.click()
    (block,) = widget.markdown_view.code_blocks()
    assert block.view.document().characterCount() < 2 * MAX_TOKEN_CHARS
    assert "… (300,000 characters)" in block.view.toPlainText()
    block.copy_button.click()
    assert QGuiApplication.clipboard().text() == code

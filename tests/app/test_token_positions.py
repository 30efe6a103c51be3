"""The token view's side table (each drawn token's start and end in the document, read by
hover and click) stays true whatever the text: it is carried along by each token's length,
not asked of the cursor, so characters that take two positions, or that Qt turns into
another number of them, must be counted as the document counts them."""

from __future__ import annotations

from PySide6.QtGui import QTextCursor

from app.transcript.token_view import TokenView
from backend.engine.events import StepVerified, Token
from backend.engine.token_log import TokenLog

# One token each: plain, emoji (two UTF-16 units), a CRLF that Qt makes one block
# separator, a lone CR, a newline, a line separator, CJK, a combining accent, a rejected
# draft with a newline (drawn as ↵), a token that is empty (half a character).
TEXTS = ["Hello", " 🙂", "\r\n", "x\r", "\ny", "a\u2028b", " 漢字", "e\u0301", "", " ok"]


def drawn(view: TokenView, entry: int) -> str:
    cursor = QTextCursor(view.document())
    cursor.setPosition(view._starts[entry])
    cursor.setPosition(view._ends[entry], QTextCursor.MoveMode.KeepAnchor)
    return cursor.selectedText()


def as_the_document_keeps(text: str) -> str:
    """selectedText's view of inserted text: every block break a U+2029."""
    return text.replace("\r\n", "\u2029").replace("\r", "\u2029").replace("\n", "\u2029")


def test_each_tokens_recorded_span_is_its_text_in_the_document(qtbot):
    view = TokenView()
    qtbot.addWidget(view)
    log = TokenLog()
    for step, text in enumerate(TEXTS):
        target = Token(step, text, "target", True)
        drafted = (Token(100 + step, "no\n", "draft", False),) if step % 3 == 0 else ()
        log.add_step(StepVerified(step, drafted, 0, (target,), 0.0, 0.0))
    # in two frames, as a stream draws them
    view.append_tokens(log, 0, 7)
    view.append_tokens(log, 7, len(log))
    shown = [(i, log.text[i]) for i in range(len(log)) if log.text[i]]
    assert view.token_count() == len(shown)
    for entry, (i, text) in enumerate(shown):
        expected = "no↵" if not log.accepted[i] else as_the_document_keeps(text)
        assert drawn(view, entry) == expected, (entry, text)
    assert view._ends[-1] == view.document().characterCount() - 1  # nothing after the last

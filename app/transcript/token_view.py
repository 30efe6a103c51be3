"""The coloured view of an answer: every token inserted as plain text with its kind's shared
format, a side table of token positions for hover details.

Tokens come in TokenLog order: per step the accepted drafted tokens, then the rejected ones
struck out (so the viewer sees what was proposed and refused, right where it was refused),
then the target's own token.
Model text only ever goes through QTextCursor.insertText, which never interprets markup.
"""

from __future__ import annotations

import html
from bisect import bisect_left, bisect_right

from PySide6.QtCore import QEvent, QPoint, Qt, Signal
from PySide6.QtGui import QColor, QMouseEvent, QTextCharFormat, QTextCursor
from PySide6.QtWidgets import QTextEdit, QToolTip, QWidget

from app.backend_text import backend_text
from app.i18n import number, translate
from app.shell.theme import token_colours
from app.transcript.token_formats import TokenFormats
from app.widgets.auto_height_text import AutoHeightTextEdit
from backend import spec_types
from backend.engine.events import Token
from backend.engine.token_log import TokenLog
from backend.serving.text import readable

# Rejected drafts are display-only: a refused newline must not break the line it was refused in.
_VISIBLE = str.maketrans({"\n": "↵", "\r": "␍", "\t": "→"})
# Qt lays out a whole paragraph again whenever text is appended to it, and lays out one long
# paragraph in time that grows faster than its length (a 1,000,000-character line took 27 s),
# so no block is let grow long. Past MAX_BLOCK_CHARS characters a token that starts with a
# space begins a new block, which looks like an ordinary line wrap; past MAX_LINE_CHARS any
# token does, so that a line without spaces is bounded too (Qt would wrap it mid-word anyway).
MAX_BLOCK_CHARS = 2000
MAX_LINE_CHARS = 4000
# A token longer than this is drawn cut, its length said: its one text insertion is bounded,
# and no one reads such a token on screen. The Answer keeps it whole for copy and export.
MAX_TOKEN_CHARS = 4000
TOOLTIP_TOKEN_CHARS = 300  # a token's text as its tooltip quotes it


def cut_text(text: str, limit: int) -> str:
    """`text` as drawn: whole up to `limit` characters, else cut there with its length said;
    a lone surrogate (half an emoji a drafter drew) as U+FFFD, which Qt can draw."""
    if len(text) <= limit and text.isascii():
        return text  # most tokens: nothing to make readable or cut
    text = readable(text)
    if len(text) <= limit:
        return text
    return text[:limit] + translate("TokenView", "… ({n} characters)").format(n=number(len(text)))


class TokenView(AutoHeightTextEdit):
    token_clicked = Signal(int)  # the clicked token's index in the answer's TokenLog

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.formats = TokenFormats(token_colours(self))
        self._cursor = QTextCursor(self.document())
        # Side table, one entry per drawn token: UTF-16 start/end positions and the token's
        # index in the answer's TokenLog (ints only: nothing for the garbage collector).
        self._starts: list[int] = []
        self._ends: list[int] = []
        self._index: list[int] = []
        self._log: TokenLog | None = None
        self._block_chars = 0

    def clear_tokens(self) -> None:
        self.document().clear()
        self._cursor = QTextCursor(self.document())
        self._starts.clear()
        self._ends.clear()
        self._index.clear()
        self._log = None
        self._block_chars = 0
        self.setExtraSelections([])

    def append_tokens(self, log: TokenLog, start: int, end: int, *,
                      proposed: bool = False) -> None:
        """Draw tokens start..end of `log` in one edit block (one relayout for all).
        `proposed`: draw them as drafts not yet judged (the replay's first phase)."""
        self._log = log
        cursor = self._cursor
        fmt = self.formats
        texts, origins, accepted, heads = log.text, log.origin, log.accepted, log.head
        starts, ends, index = self._starts, self._ends, self._index
        block_chars = self._block_chars
        # the tree steps' kept alternatives among these tokens (a sorted list, read from here)
        branches, b = log.branches, bisect_left(log.branches, start)
        first_block = cursor.block()
        pos = cursor.position()  # carried along: asking the cursor costs a call a token
        cursor.beginEditBlock()
        try:
            for i in range(start, end):
                text = texts[i]
                while b < len(branches) and branches[b] < i:
                    b += 1
                if not text:
                    continue  # part of a character that a later token completes
                if proposed:
                    f = fmt.proposed
                    text = text.translate(_VISIBLE)
                elif origins[i] == "target":
                    f = fmt.target
                elif not accepted[i]:
                    f = fmt.rejected
                    text = text.translate(_VISIBLE)
                elif heads[i] is not None and origins[i] == "mtp":
                    f = fmt.head(heads[i])
                elif b < len(branches) and branches[b] == i:
                    f = fmt.branch  # a tree kept the drafter's second or third choice here
                else:
                    f = fmt.drafted(origins[i])
                text = cut_text(text, MAX_TOKEN_CHARS)
                if block_chars > MAX_LINE_CHARS or (
                        block_chars > MAX_BLOCK_CHARS and text[0] == " "):
                    cursor.insertBlock()
                    block_chars = 0
                    pos += 1
                starts.append(pos)
                cursor.insertText(text, f)
                if text.isascii() and "\r" not in text:
                    pos += len(text)
                else:
                    pos = cursor.position()
                ends.append(pos)
                index.append(i)
                newline = text.rfind("\n")
                block_chars = len(text) - newline - 1 if newline >= 0 else block_chars + len(text)
        finally:
            self._block_chars = block_chars
            # Qt frees a block's shaped glyphs once it is laid out and shapes its text again at
            # every paint; a streaming answer repaints its last blocks every frame, where that
            # second shaping was a sixth of the GUI thread's time. Kept: ~30 bytes a character.
            block = first_block
            while block.isValid():
                block.layout().setCacheEnabled(True)
                block = block.next()
            cursor.endEditBlock()

    def end_rect(self):
        """Where the last drawn token ends (the viewport rectangle of the insertion point)."""
        return self.cursorRect(self._cursor)

    def remove_from(self, log_index: int) -> None:
        """Take away every drawn token from `log_index` of the log on (the replay steps back
        or redraws its current step); costs what is removed, not what stays."""
        k = bisect_left(self._index, log_index)
        if k >= len(self._index):
            return
        cursor = QTextCursor(self.document())
        cursor.setPosition(self._starts[k])
        cursor.movePosition(QTextCursor.MoveOperation.End, QTextCursor.MoveMode.KeepAnchor)
        cursor.removeSelectedText()
        del self._starts[k:], self._ends[k:], self._index[k:]
        self._cursor = QTextCursor(self.document())
        self._cursor.movePosition(QTextCursor.MoveOperation.End)
        self._block_chars = 0

    # Hover details -----------------------------------------------------------------------

    def token_at(self, pos: QPoint) -> tuple[int, Token] | None:
        """The (step, token) under a viewport point, or None between or beyond tokens."""
        i = self.entry_at(pos)
        if i is not None and self._log is not None:
            j = self._index[i]
            return self._log.step[j], self._log.token(j)
        return None

    def viewportEvent(self, event: QEvent) -> bool:
        if event.type() == QEvent.Type.ToolTip:
            hit = self.token_at(event.pos())
            if hit is None:
                QToolTip.hideText()
                event.ignore()
            else:
                QToolTip.showText(event.globalPos(), token_tooltip(*hit), self.viewport())
            return True
        return super().viewportEvent(event)

    def token_count(self) -> int:
        return len(self._index)

    # The inspector's marks -------------------------------------------------------------

    def mouseReleaseEvent(self, event: QMouseEvent) -> None:
        super().mouseReleaseEvent(event)
        # a click, not the end of a text selection
        if event.button() == Qt.MouseButton.LeftButton and not self.textCursor().hasSelection():
            hit = self.entry_at(event.position().toPoint())
            if hit is not None:
                self.token_clicked.emit(self._index[hit])

    def entry_at(self, pos: QPoint) -> int | None:
        """The drawn entry (not the TokenLog index) under a viewport point."""
        cursor = self.cursorForPosition(pos)
        rect = self.cursorRect(cursor)
        if not rect.top() <= pos.y() <= rect.bottom():
            return None
        position = cursor.position()
        if pos.x() < rect.left() and position > 0:
            position -= 1
        # cursorForPosition snaps to the nearest gap: left of that gap is the character hit.
        i = bisect_right(self._starts, position) - 1
        return i if i >= 0 and position < self._ends[i] else None

    def token_rect(self, log_index: int):
        """The viewport rectangle of a drawn token (for tests that click it), or None."""
        entry = self._entry(log_index)
        if entry is None:
            return None
        cursor = QTextCursor(self.document())
        cursor.setPosition(self._starts[entry])
        left = self.cursorRect(cursor)
        cursor.setPosition(self._ends[entry])
        right = self.cursorRect(cursor)
        return left.united(right) if left.top() == right.top() else left

    def _entry(self, log_index: int) -> int | None:
        i = bisect_right(self._index, log_index) - 1
        return i if i >= 0 and self._index[i] == log_index else None

    def mark(self, pinned: int | None, source: int | None = None) -> None:
        """Outline the inspected token and, for an n-gram draft copied from this answer,
        shade the token it was copied from (extra selections: the text is untouched)."""
        marks = []
        for log_index, colour in ((source, "#f2c94c"), (pinned, "#4a90d9")):
            entry = None if log_index is None else self._entry(log_index)
            if entry is None:
                continue
            sel = QTextEdit.ExtraSelection()
            cursor = QTextCursor(self.document())
            cursor.setPosition(self._starts[entry])
            cursor.setPosition(self._ends[entry], QTextCursor.MoveMode.KeepAnchor)
            sel.cursor = cursor
            fmt = QTextCharFormat()
            if log_index == pinned:
                fmt.setUnderlineStyle(QTextCharFormat.UnderlineStyle.SingleUnderline)
                fmt.setUnderlineColor(QColor(colour))
                fmt.setFontWeight(700)
            else:
                fmt.setBackground(QColor(colour))
            sel.format = fmt
            marks.append(sel)
        self.setExtraSelections(marks)


def token_tooltip(step: int, token: Token) -> str:
    """Rich text made by us, with the token's own text escaped."""
    spec = spec_types.get(token.origin)
    if token.origin == "target":
        origin = translate("TokenView", "produced by the target model")
    elif token.head is not None:  # `head` is the MTP head's index
        origin = translate("TokenView", "drafted by MTP head {n}").format(n=token.head + 1)
    else:
        origin = html.escape(backend_text(spec.drafted_by) if spec else token.origin)
    if token.origin == "target":
        verdict = translate("TokenView", "the target's own token")
    elif token.accepted:
        verdict = translate("TokenView", "<b>accepted</b> by the target")
    else:
        verdict = translate("TokenView", "<b>rejected</b> by the target (shown struck out, not "
                            "part of the answer)")
    probs = []
    if token.p_target is not None:
        probs.append(translate("TokenView", "target p = {p:.3f}").format(p=token.p_target))
    if token.p_draft is not None:
        probs.append(translate("TokenView", "drafter q = {q:.3f}").format(q=token.p_draft))
    lines = [
        translate("TokenView", "<b>Step {step}</b> · token <code>{token}</code> (id {id})").format(
            step=step, token=html.escape(cut_text(repr(token.text), TOOLTIP_TOKEN_CHARS)),
            id=token.id),
        f"{origin}, {verdict}",
    ]
    if probs:
        lines.append(" · ".join(probs))
    lines.append(translate("TokenView", "<i>Click to inspect</i>"))
    return "<qt>" + "<br>".join(lines) + "</qt>"

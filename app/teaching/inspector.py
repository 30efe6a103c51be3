"""The inspector: a pinned panel showing what verification used on the token last clicked.

Its words and numbers come from app/teaching/inspection.py; this module only lays them out. Every
value is plain text (labels in Qt.PlainText, table items), so a token's text is never read
as markup.
"""

from __future__ import annotations

import re

from PySide6.QtCore import QT_TRANSLATE_NOOP, QSize, Qt
from PySide6.QtGui import QFontDatabase
from PySide6.QtWidgets import (
    QAbstractItemView,
    QFormLayout,
    QHeaderView,
    QLabel,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from app.formatting import plain_tooltip
from app.teaching.inspection import Inspection, shown, summary_rows, top_rows
from app.teaching.tree_drawing import tree_lines, tree_summary
from backend.engine.events import TreeNode

HINT = QT_TRANSLATE_NOOP(
    "InspectorPanel", "Click any token of an answer to see how it was proposed and verified: p "
    "and q, the acceptance test and the draw, and the five most likely tokens of each model.")


# The width the dock opens at, in average characters: enough for a row's words, while a long
# unbroken token (code, a URL) scrolls in the dock rather than taking the transcript's room.
PREFERRED_CHARS = 42


_UNBROKEN = re.compile(r"\S{17,}")
_BREAK_EVERY = 8


def breakable(text: str) -> str:
    """`text` with a zero-width space every few characters of a long unbroken run (code, a
    URL, an identifier), so that its label wraps inside the dock instead of widening it."""
    return _UNBROKEN.sub(lambda m: "\u200b".join(
        m[0][i:i + _BREAK_EVERY] for i in range(0, len(m[0]), _BREAK_EVERY)), text)


class InspectorPanel(QWidget):
    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("inspector")
        self.hint = QLabel(self.tr(HINT))
        self.hint.setWordWrap(True)
        self.hint.setTextFormat(Qt.TextFormat.PlainText)
        self.form = QFormLayout()
        self.form.setRowWrapPolicy(QFormLayout.RowWrapPolicy.WrapLongRows)
        self.top_title = QLabel(self.tr("Five most likely tokens: target p · drafter q"))
        self.top_title.setTextFormat(Qt.TextFormat.PlainText)
        self.top_title.setWordWrap(True)
        self.top = QTableWidget(0, 4)
        self.top.setHorizontalHeaderLabels([self.tr("target"), "p", self.tr("drafter"), "q"])
        self.top.verticalHeader().hide()
        self.top.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.top.setSelectionMode(QAbstractItemView.SelectionMode.NoSelection)
        header = self.top.horizontalHeader()
        header.setSectionResizeMode(QHeaderView.ResizeMode.Stretch)  # the tokens' columns
        for number in (1, 3):  # p and q: as wide as "0.0000", the tokens get the rest
            header.setSectionResizeMode(number, QHeaderView.ResizeMode.ResizeToContents)
        # a tree step's whole tree (backend/engine/tree), drawn as text
        self.tree_title = QLabel()
        self.tree_title.setTextFormat(Qt.TextFormat.PlainText)
        self.tree_title.setWordWrap(True)
        self.tree_view = QLabel()
        self.tree_view.setObjectName("inspect:tree")
        self.tree_view.setTextFormat(Qt.TextFormat.PlainText)
        self.tree_view.setFont(QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont))
        self.tree_view.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        layout = QVBoxLayout(self)
        layout.addWidget(self.hint)
        layout.addLayout(self.form)
        layout.addWidget(self.top_title)
        layout.addWidget(self.top)
        layout.addWidget(self.tree_title)
        layout.addWidget(self.tree_view)
        layout.addStretch(1)
        self.inspection: Inspection | None = None
        self._values: dict[str, str] = {}  # each row's value as written, without breaks
        self._show_rows(False)

    def sizeHint(self) -> QSize:
        hint = super().sizeHint()
        return QSize(min(hint.width(), self.fontMetrics().averageCharWidth() * PREFERRED_CHARS),
                     hint.height())

    def show_inspection(self, ins: Inspection, tree: tuple[TreeNode, ...] = ()) -> None:
        """Show `ins`; `tree`: its step's draft tree, for a tree step."""
        self.inspection = ins
        self.tree_title.setText(self.tr("The step's tree: {summary}").format(
            summary=tree_summary(tree)) if tree else "")
        self.tree_view.setText("\n".join(tree_lines(tree)))
        while self.form.rowCount():
            self.form.removeRow(0)
        self._values = dict(summary_rows(ins))
        for label, value in self._values.items():
            text = QLabel(breakable(value))
            text.setTextFormat(Qt.TextFormat.PlainText)
            text.setWordWrap(True)
            text.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
            text.setObjectName(f"inspect:{label}")
            self.form.addRow(label, text)
        rows = top_rows(ins.verification)
        self.top.setRowCount(len(rows))
        for r, (p, q) in enumerate(rows):
            for c, value in enumerate((shown(p.text) if p else "", f"{p.p:.4f}" if p else "",
                                       shown(q.text) if q else "", f"{q.p:.4f}" if q else "")):
                item = QTableWidgetItem(value)
                item.setToolTip(plain_tooltip(value))  # a long token is cut short in its cell
                if c in (1, 3):
                    item.setTextAlignment(Qt.AlignmentFlag.AlignRight
                                          | Qt.AlignmentFlag.AlignVCenter)
                self.top.setItem(r, c, item)
        self.top.setFixedHeight(self.top.horizontalHeader().height()
                                + sum(self.top.rowHeight(r) for r in range(len(rows))) + 4)
        self._show_rows(True)

    def value(self, label: str) -> str:
        """The text shown for a row (for tests and the screenshot check)."""
        return self._values.get(label, "")

    def clear(self) -> None:
        self.inspection = None
        self.tree_view.setText("")
        self._values = {}
        while self.form.rowCount():
            self.form.removeRow(0)
        self._show_rows(False)

    def _show_rows(self, shown_: bool) -> None:
        self.hint.setVisible(not shown_)
        self.top_title.setVisible(shown_ and self.top.rowCount() > 0)
        self.top.setVisible(shown_ and self.top.rowCount() > 0)
        self.tree_title.setVisible(shown_ and bool(self.tree_view.text()))
        self.tree_view.setVisible(shown_ and bool(self.tree_view.text()))

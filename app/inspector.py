"""The inspector: a pinned panel showing what verification used on the token last clicked.

Its words and numbers come from app/inspection.py; this module only lays them out. Every
value is plain text (labels in Qt.PlainText, table items), so a token's text is never read
as markup.
"""

from __future__ import annotations

from PySide6.QtCore import QT_TRANSLATE_NOOP, Qt
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

from app.inspection import Inspection, shown, summary_rows, top_rows

HINT = QT_TRANSLATE_NOOP(
    "InspectorPanel", "Click any token of an answer to see how it was proposed and verified: p "
    "and q, the acceptance test and the draw, and the five most likely tokens of each model.")


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
        self.top = QTableWidget(0, 4)
        self.top.setHorizontalHeaderLabels([self.tr("target"), "p", self.tr("drafter"), "q"])
        self.top.verticalHeader().hide()
        self.top.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.top.setSelectionMode(QAbstractItemView.SelectionMode.NoSelection)
        self.top.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.Stretch)
        layout = QVBoxLayout(self)
        layout.addWidget(self.hint)
        layout.addLayout(self.form)
        layout.addWidget(self.top_title)
        layout.addWidget(self.top)
        layout.addStretch(1)
        self.inspection: Inspection | None = None
        self._show_rows(False)

    def show_inspection(self, ins: Inspection) -> None:
        self.inspection = ins
        while self.form.rowCount():
            self.form.removeRow(0)
        for label, value in summary_rows(ins):
            text = QLabel(value)
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
                if c in (1, 3):
                    item.setTextAlignment(Qt.AlignmentFlag.AlignRight
                                          | Qt.AlignmentFlag.AlignVCenter)
                self.top.setItem(r, c, item)
        self.top.setFixedHeight(self.top.horizontalHeader().height()
                                + sum(self.top.rowHeight(r) for r in range(len(rows))) + 4)
        self._show_rows(True)

    def value(self, label: str) -> str:
        """The text shown for a row (for tests and the screenshot check)."""
        w = self.findChild(QLabel, f"inspect:{label}")
        return w.text() if w is not None else ""

    def clear(self) -> None:
        self.inspection = None
        while self.form.rowCount():
            self.form.removeRow(0)
        self._show_rows(False)

    def _show_rows(self, shown_: bool) -> None:
        self.hint.setVisible(not shown_)
        self.top_title.setVisible(shown_ and self.top.rowCount() > 0)
        self.top.setVisible(shown_ and self.top.rowCount() > 0)

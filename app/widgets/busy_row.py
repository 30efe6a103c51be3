"""A busy bar with a Cancel button beside it, for a wait on the Hub whose length is unknown."""

from __future__ import annotations

from PySide6.QtWidgets import QHBoxLayout, QProgressBar, QPushButton, QWidget


class BusyRow(QWidget):
    """Hidden until a wait begins; `cancel_button`'s tooltip says what Cancel keeps."""

    def __init__(self, cancel_tip: str, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.bar = QProgressBar()
        self.bar.setRange(0, 0)  # busy: the Hub says nothing of how long it will take
        self.bar.setTextVisible(False)
        self.bar.setMaximumHeight(self.fontMetrics().height())
        self.cancel_button = QPushButton(self.tr("Cancel"))
        self.cancel_button.setToolTip(cancel_tip)
        row = QHBoxLayout(self)
        row.setContentsMargins(0, 0, 0, 0)
        row.addWidget(self.bar, 1)
        row.addWidget(self.cancel_button)
        self.hide()

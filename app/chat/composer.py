"""The composer under the transcript: the message box, the context line, and Regenerate, Stop
and Send. A message typed here goes to the answer flow; the window sets the buttons' states
from the flow's (`MainWindow._update_actions`).
"""

from __future__ import annotations

from PySide6.QtCore import Slot
from PySide6.QtWidgets import QHBoxLayout, QPushButton, QVBoxLayout, QWidget

from app.chat.answer_flow import AnswerFlow
from app.chat.message_box import MessageBox
from app.shell.style import PRIMARY, SPACE_S
from app.widgets.status_line import StatusLine


class Composer(QWidget):
    def __init__(self, flow: AnswerFlow, message_box: MessageBox, context_label: StatusLine,
                 parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._flow = flow
        self.message_box = message_box
        self.send_button = QPushButton(self.tr("Send"))
        self.send_button.setDefault(True)
        self.send_button.setProperty(PRIMARY, True)  # the accent button (app/shell/style.py)
        self.stop_button = QPushButton(self.tr("Stop"))
        self.regenerate_button = QPushButton(self.tr("Regenerate"))
        self.regenerate_button.setToolTip(self.tr("Answer the last message again, with the "
                                                  "current settings"))
        buttons = QHBoxLayout()
        buttons.addWidget(context_label, 1)  # the room the buttons leave
        for b in (self.regenerate_button, self.stop_button, self.send_button):
            buttons.addWidget(b)
        lay = QVBoxLayout(self)
        lay.setContentsMargins(0, 0, 0, 0)
        lay.setSpacing(SPACE_S)
        lay.addWidget(message_box)
        lay.addLayout(buttons)
        self.send_button.clicked.connect(self._on_send_clicked)
        message_box.submitted.connect(self._on_send_clicked)
        self.stop_button.clicked.connect(flow.stop)
        self.regenerate_button.clicked.connect(flow.regenerate)

    @Slot()
    def _on_send_clicked(self) -> None:
        text = self.message_box.toPlainText().strip()
        if text and self._flow.send(text):
            self.message_box.clear()
            self.message_box.setFocus()  # not the Send button, greyed while the answer streams

    @Slot(str)
    def send_text(self, text: str) -> None:
        """Send a message on the chat's behalf (after the context notice, Continue); the box
        is emptied when it held that very message."""
        if self._flow.send(text) and self.message_box.toPlainText().strip() == text.strip():
            self.message_box.clear()

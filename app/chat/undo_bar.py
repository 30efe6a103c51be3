"""The bar under the chat list that offers a deleted chat back for a while: "Chat deleted."
beside an Undo button, the chat's title in the tooltip. One delete can be undone at a time.

Its words keep the chat list's translation context ("ChatList"), where they are listed."""

from __future__ import annotations

from PySide6.QtCore import QTimer, Signal, Slot
from PySide6.QtWidgets import QHBoxLayout, QPushButton, QWidget

from app.chat.conversation import Conversation
from app.i18n import translate
from app.transcript.message_widgets import text_tooltip
from app.widgets.elided_label import ElidedLabel

UNDO_MS = 10_000  # how long "Undo" is offered after a delete


class UndoBar(QWidget):
    undone = Signal(object)  # the deleted Conversation, to be restored and listed again

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.label = ElidedLabel()  # one line, whatever the title's length
        self.button = QPushButton(translate("ChatList", "Undo"))
        undo = QHBoxLayout(self)
        undo.setContentsMargins(0, 0, 0, 0)
        undo.addWidget(self.label, 1)
        undo.addWidget(self.button)
        self.hide()
        self._undo_timer = QTimer(self, singleShot=True, interval=UNDO_MS)
        self._deleted: Conversation | None = None
        self.button.clicked.connect(self.undo)
        self._undo_timer.timeout.connect(self.expire)

    def offer(self, conv: Conversation) -> None:
        """Offer `conv`, just deleted, back until the time runs out or another is deleted."""
        self._deleted = conv
        # a few words that fit beside Undo in the narrow list; the title in the tooltip
        self.label.set_full_text(translate("ChatList", "Chat deleted."))
        self.label.setToolTip(text_tooltip(
            translate("ChatList", "Deleted “{title}”.").format(title=conv.title)))
        self.show()
        self._undo_timer.start()

    @Slot()
    def undo(self) -> None:
        conv, self._deleted = self._deleted, None
        self._undo_timer.stop()
        self.hide()
        if conv is not None:
            self.undone.emit(conv)

    @Slot()
    def expire(self) -> None:
        self._deleted = None
        self.hide()

"""The notice shown instead of sending when a message and its answer would not fit in the
model's context: what is used, and a choice — a new chat, leave the oldest turns out, or have
the model summarise them. Nothing is ever cut silently."""

from __future__ import annotations

from PySide6.QtCore import Signal, Slot
from PySide6.QtWidgets import QFrame, QHBoxLayout, QPushButton, QVBoxLayout, QWidget

from app.chat.context_budget import ContextUse
from app.i18n import number
from app.shell.theme import token_colours
from app.transcript.message_widgets import plain_label

NEW_CHAT, DROP, SUMMARISE = "new chat", "drop", "summarise"


class ContextNotice(QFrame):
    chosen = Signal(str)  # NEW_CHAT, DROP or SUMMARISE

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("contextNotice")
        self.label = plain_label()
        self.new_chat_button = QPushButton(self.tr("Start a new chat"))
        self.drop_button = QPushButton(self.tr("Leave out the oldest turns"))
        self.summarise_button = QPushButton(self.tr("Summarise them with the model"))
        self.cancel_button = QPushButton(self.tr("Cancel"))
        buttons = QHBoxLayout()
        buttons.setContentsMargins(0, 0, 0, 0)
        for b in (self.new_chat_button, self.drop_button, self.summarise_button):
            buttons.addWidget(b)
        buttons.addStretch(1)
        buttons.addWidget(self.cancel_button)
        lay = QVBoxLayout(self)
        lay.setContentsMargins(10, 6, 10, 6)
        lay.addWidget(self.label)
        lay.addLayout(buttons)
        self.setStyleSheet(f"#contextNotice {{ border: 1px solid {token_colours(self).rejected_fg};"
                           " border-radius: 4px; }")
        self.new_chat_button.clicked.connect(lambda: self._choose(NEW_CHAT))
        self.drop_button.clicked.connect(lambda: self._choose(DROP))
        self.summarise_button.clicked.connect(lambda: self._choose(SUMMARISE))
        self.cancel_button.clicked.connect(self.hide)
        self.hide()

    def offer(self, use: ContextUse, drop: int | None, n_turns: int) -> None:
        """Say how full the context is and what can be done; `drop`: how many of the
        `n_turns` oldest turns would have to be left out (None: leaving out all is not
        enough)."""
        words = (self.tr("This chat already uses {used} of the model's {n_ctx} context "
                         "tokens, and your message with room for its answer needs about "
                         "{needs} more: it would not fit.") if use.exact
                 else self.tr("This chat already uses about {used} of the model's {n_ctx} "
                              "context tokens, and your message with room for its answer needs "
                              "about {needs} more: it would not fit.")).format(
            used=number(use.used), n_ctx=number(use.n_ctx), needs=number(use.next_needs))
        if drop is None:
            words += " " + self.tr("Even without the earlier turns it would not fit: start a "
                                   "new chat, shorten the message, or load the model with a "
                                   "larger context.")
        else:
            words += " " + self.tr("Start a new chat, leave out the oldest {drop} of {n} "
                                   "messages (they stay here, the model no longer sees them), "
                                   "or have the model summarise the conversation first.").format(
                drop=drop, n=n_turns)
        self.label.setText(words)
        self.drop_button.setEnabled(drop is not None and drop > 0)
        self.summarise_button.setEnabled(drop is not None and n_turns > 0)
        self.show()

    @Slot()
    def _choose(self, choice: str) -> None:
        self.hide()
        self.chosen.emit(choice)

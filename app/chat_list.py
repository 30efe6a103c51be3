"""The list of conversations beside the transcript, handed a ChatSession: titles only at start
(newest first, under a fresh unsaved "New chat"), a chat's messages read when it is selected,
New chat, and Delete chat from the File menu or the list's context menu."""

from __future__ import annotations

from PySide6.QtCore import QPoint, Qt, Signal, Slot
from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import (
    QListWidget,
    QListWidgetItem,
    QMenu,
    QMessageBox,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from app.chat_session import ChatSession
from app.conversation import Conversation


class ChatList(QWidget):
    selected = Signal(object)  # the Conversation now shown, its turns read

    def __init__(self, session: ChatSession, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.session = session
        self._conversations: list[Conversation] = []
        self.new_chat_button = QPushButton("New chat")
        self.list = QListWidget()
        self.list.setTextElideMode(Qt.TextElideMode.ElideRight)
        self.list.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.list.setContextMenuPolicy(Qt.ContextMenuPolicy.CustomContextMenu)
        self.new_chat_action = QAction("&New chat", self, shortcut=QKeySequence.StandardKey.New)
        self.delete_chat_action = QAction("&Delete chat", self)
        self.delete_chat_action.setToolTip("Delete the selected chat and its saved messages")
        lay = QVBoxLayout(self)
        lay.setContentsMargins(6, 6, 0, 6)
        lay.addWidget(self.new_chat_button)
        lay.addWidget(self.list, 1)

        for conv in session.saved_conversations():
            self._conversations.append(conv)
            self.list.addItem(QListWidgetItem(conv.title))
        self.list.currentRowChanged.connect(self._on_row_changed)
        self.list.customContextMenuRequested.connect(self._on_menu)
        self.new_chat_button.clicked.connect(self.new_chat)
        self.new_chat_action.triggered.connect(self.new_chat)
        self.delete_chat_action.triggered.connect(self._on_delete_chat)
        self.new_chat()

    @property
    def current(self) -> Conversation:
        return self._conversations[self.list.currentRow()]

    def count(self) -> int:
        return len(self._conversations)

    def set_busy(self, busy: bool) -> None:
        """While an answer streams (or waits for its model) the shown chat stays."""
        for w in (self.new_chat_button, self.new_chat_action, self.list):
            w.setEnabled(not busy)
        self.delete_chat_action.setEnabled(not busy and bool(self._conversations))

    def update_title(self) -> None:
        self.list.currentItem().setText(self.current.title)

    @Slot()
    def new_chat(self) -> None:
        if not self.list.isEnabled():
            return
        self._conversations.insert(0, Conversation())
        self.list.insertItem(0, QListWidgetItem("New chat"))
        self.list.setCurrentRow(0)

    def add_conversation(self, conv: Conversation) -> bool:
        """Show a conversation made elsewhere (an opened trace) at the top, selected; False
        while an answer streams, as for New chat."""
        if not self.list.isEnabled():
            return False
        self._conversations.insert(0, conv)
        self.list.insertItem(0, QListWidgetItem(conv.title))
        self.list.setCurrentRow(0)
        return True

    def delete_chat(self, row: int) -> None:
        """Remove a conversation from the list and from the store."""
        if not self.list.isEnabled() or not 0 <= row < len(self._conversations):
            return
        self.session.delete_chat(self._conversations[row])
        self.list.blockSignals(True)  # the row signals of a removal would index the old list
        self.list.takeItem(row)
        self.list.blockSignals(False)
        del self._conversations[row]
        if not self._conversations:
            self.new_chat()
            return
        self.list.setCurrentRow(min(row, self.list.count() - 1))
        self._on_row_changed(self.list.currentRow())

    @Slot(int)
    def _on_row_changed(self, row: int) -> None:
        if row < 0:
            return
        conv = self._conversations[row]
        self.session.load(conv)
        self.selected.emit(conv)

    @Slot(QPoint)
    def _on_menu(self, pos: QPoint) -> None:
        item = self.list.itemAt(pos)
        if item is None or not self.list.isEnabled():
            return
        self.list.setCurrentItem(item)  # the action applies to the chat clicked
        menu = QMenu(self)
        menu.addAction(self.delete_chat_action)
        menu.exec(self.list.viewport().mapToGlobal(pos))
        menu.deleteLater()

    @Slot()
    def _on_delete_chat(self) -> None:
        row = self.list.currentRow()
        if row < 0 or not self.list.isEnabled():
            return
        answer = QMessageBox.question(
            self, "Delete chat", f"Delete “{self._conversations[row].title}” and its messages?")
        if answer == QMessageBox.StandardButton.Yes:
            self.delete_chat(row)

"""A chat written to a file and a file read back as a chat, for the chat list: the file
dialogs, with the store doing the writing and reading off the GUI thread (ChatSession).

JSON holds every version of every message with each answer's tokens, so it imports back
whole; Markdown is the shown path, to read. Its words keep the chat list's translation context
("ChatList"), where they are listed."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QT_TRANSLATE_NOOP, QObject, Signal
from PySide6.QtWidgets import QFileDialog, QWidget

from app.chat.chat_session import ChatSession
from app.chat.conversation import Conversation
from app.i18n import translate

JSON_FILTER = QT_TRANSLATE_NOOP("ChatList", "Draftlight chat (*.json)")
MARKDOWN_FILTER = QT_TRANSLATE_NOOP("ChatList", "Markdown (*.md)")


class ChatFiles(QObject):
    info = Signal(str)  # a short message for the status bar (exported)
    imported = Signal(object)  # the Conversation read from a file, to be listed

    def __init__(self, session: ChatSession, dialog_parent: QWidget) -> None:
        super().__init__(dialog_parent)
        self._session = session
        self._dialog_parent = dialog_parent

    def ask_export(self, conv: Conversation, fmt: str) -> None:
        """Ask where to write `conv` (`fmt` "json" or "markdown"), then write it there."""
        suffix, filt = ((".json", translate("ChatList", JSON_FILTER)) if fmt == "json"
                        else (".md", translate("ChatList", MARKDOWN_FILTER)))
        name = "".join(c if c.isalnum() or c in " -_" else "_" for c in conv.title)[:60]
        path, _ = QFileDialog.getSaveFileName(self._dialog_parent,
                                              translate("ChatList", "Export the chat"),
                                              str(Path.home() / f"{name}{suffix}"), filt)
        if path:
            self.export(conv, path, fmt)

    def export(self, conv: Conversation, path: str, fmt: str) -> None:
        """Write a chat as JSON (`fmt` "json") or Markdown, off the GUI thread."""
        self._session.export(conv, path, fmt, lambda p: self.info.emit(
            translate("ChatList", "Exported to {path}").format(path=p)))

    def ask_import(self) -> None:
        path, _ = QFileDialog.getOpenFileName(
            self._dialog_parent, translate("ChatList", "Import a chat"), str(Path.home()),
            translate("ChatList", "{json};;All files (*)").format(
                json=translate("ChatList", JSON_FILTER)))
        if path:
            self.import_chat(path)

    def import_chat(self, path: str) -> None:
        """Read a chat exported as JSON off the GUI thread; `imported` when it is in."""
        self._session.import_file(path, self.imported.emit)

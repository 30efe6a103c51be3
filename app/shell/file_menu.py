"""File menu: open a model, a draft or a trace (each through its dialog), the chat list's own
actions, recent models, the model manager and Quit. It says what was chosen by signals; what
happens then is the window's wiring.
"""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QObject, Signal, Slot
from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import QFileDialog, QMainWindow

from app.chat.chat_list import ChatList
from app.chat.trace_opening import trace_filter
from app.formatting import plain_tooltip
from backend.settings import ModelSettings


class FileMenu(QObject):
    target_chosen = Signal(str)  # a GGUF to load as the target
    draft_chosen = Signal(str)  # a GGUF to load as the draft
    trace_chosen = Signal(str)  # a JSON trace to show as a new chat

    def __init__(self, window: QMainWindow, chat_list: ChatList,
                 models: ModelSettings) -> None:
        super().__init__(window)
        self._window = window
        self._models = models  # the recent files and the dialogs' folder
        self.menu = window.menuBar().addMenu(self.tr("&File"))
        self.open_action = QAction(self.tr("&Open GGUF…"), window,
                                   shortcut=QKeySequence.StandardKey.Open)
        self.open_draft_action = QAction(self.tr("Open &draft GGUF…"), window)
        self.open_trace_action = QAction(self.tr("Open &trace…"), window)
        self.open_trace_action.setToolTip(self.tr("Show a recorded answer (a JSON trace) as a new "
                                                  "chat"))
        self.models_action = QAction(self.tr("&Models…"), window, shortcut=QKeySequence("Ctrl+M"))
        self.models_action.setToolTip(self.tr("Find, download and manage GGUF models"))
        quit_action = QAction(self.tr("&Quit"), window, shortcut=QKeySequence.StandardKey.Quit)
        quit_action.triggered.connect(window.close)
        for a in (self.open_action, self.open_draft_action, self.open_trace_action,
                  chat_list.new_chat_action, chat_list.rename_action,
                  chat_list.pin_action, chat_list.delete_chat_action,
                  chat_list.export_markdown_action, chat_list.export_json_action,
                  chat_list.import_action):
            self.menu.addAction(a)
        self.recent_menu = self.menu.addMenu(self.tr("Open &recent"))
        self.menu.addAction(self.models_action)
        self.menu.addSeparator()
        self.menu.addAction(quit_action)
        self.open_action.triggered.connect(self.ask_target)
        self.open_draft_action.triggered.connect(self.ask_draft)
        self.open_trace_action.triggered.connect(self.ask_trace)
        self.recent_menu.aboutToShow.connect(self._on_recent_menu)
        self._busy = False

    def set_busy(self, loading: bool, generating: bool, has_target: bool) -> None:
        self._busy = loading or generating
        self.open_action.setEnabled(not self._busy)  # as the panel's Open
        self.open_draft_action.setEnabled(not self._busy and has_target)

    @Slot()
    def ask_target(self) -> None:
        path = self._ask(self.tr("Open a GGUF model"), self._gguf_filter())
        if path:
            self.target_chosen.emit(path)

    @Slot()
    def ask_draft(self) -> None:
        path = self._ask(self.tr("Open a draft model"), self._gguf_filter())
        if path:
            self.draft_chosen.emit(path)

    @Slot()
    def ask_trace(self) -> None:
        path, _ = QFileDialog.getOpenFileName(self._window, self.tr("Open a trace"),
                                              str(Path.home()), trace_filter())
        if path:
            self.trace_chosen.emit(path)

    def _ask(self, title: str, filters: str) -> str:
        recent = self._models.recent
        folder = str(Path(recent[0]).parent) if recent else str(Path.home())
        path, _ = QFileDialog.getOpenFileName(self._window, title, folder, filters)
        return path

    def _gguf_filter(self) -> str:
        return self.tr("GGUF models (*.gguf);;All files (*)")

    @Slot()
    def _on_recent_menu(self) -> None:
        self.recent_menu.clear()
        for path in self._models.recent:
            action = self.recent_menu.addAction(Path(path).name)
            action.setToolTip(plain_tooltip(path))
            action.triggered.connect(lambda _=False, p=path: self.target_chosen.emit(p))
        self.recent_menu.setEnabled(not self._busy)

"""The list of conversations beside the transcript, handed a ChatSession.

Titles only at start: pinned chats first, then the most recently active, under a caption per
day ("Today", "Yesterday", a date), with a fresh unsaved "New chat" on top. A chat's messages
are read off the GUI thread when it is selected (`selected` is emitted again once they are
in). Rename by double-click or F2, pin, delete with an Undo, export to Markdown or JSON and
import JSON from the context menu or the File menu; the search field finds chats by title and
by any word of any message (the store's full-text index).

The rows and their day captions are in chat_rows.py, the search in chat_search.py, the Undo
bar in undo_bar.py, export and import in chat_files.py."""

from __future__ import annotations

import time

from PySide6.QtCore import QPoint, Qt, Signal, Slot
from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import (
    QAbstractItemView,
    QLineEdit,
    QListWidget,
    QListWidgetItem,
    QMenu,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from app.chat.chat_files import ChatFiles
from app.chat.chat_rows import (
    CONV_ROLE,
    GROUP_ROLE,
    GroupDelegate,
    chat_item,
    day_group,
    is_blank,
    sort_key,
)
from app.chat.chat_search import ChatSearch
from app.chat.chat_session import ChatSession
from app.chat.chat_titles import TwinMarks
from app.chat.conversation import Conversation
from app.chat.undo_bar import UndoBar


class ChatList(QWidget):
    selected = Signal(object)  # the Conversation now shown (again once its turns are read)
    chosen = Signal()  # the person picked a chat (clicked, Enter, New chat): time to type
    info = Signal(str)  # a short message for the status bar (exported, imported)

    def __init__(self, session: ChatSession, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.session = session
        self.search_field = QLineEdit()
        self.search_field.setPlaceholderText(self.tr("Search all chats"))
        self.search_field.setClearButtonEnabled(True)
        self.new_chat_button = QPushButton(self.tr("New chat"))
        self.list = QListWidget()
        self.list.setObjectName("chatList")  # styled in app/shell/style.py
        self.list.setItemDelegate(GroupDelegate(self.list))
        self.twins = TwinMarks(self.list)  # chats of the same title told apart
        self.list.setTextElideMode(Qt.TextElideMode.ElideRight)
        self.list.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.list.setContextMenuPolicy(Qt.ContextMenuPolicy.CustomContextMenu)
        self.list.setEditTriggers(QAbstractItemView.EditTrigger.DoubleClicked
                                  | QAbstractItemView.EditTrigger.EditKeyPressed)
        self.undo_bar = UndoBar()
        self.undo_label, self.undo_button = self.undo_bar.label, self.undo_bar.button
        self._search = ChatSearch(self.search_field, self.list, session, self)
        self._files = ChatFiles(session, self)

        self.new_chat_action = QAction(self.tr("&New "
                                               "chat"), self, shortcut=QKeySequence.StandardKey.New)
        # F2 anywhere in the window: a chat clicked gives the message box the focus
        self.rename_action = QAction(self.tr("&Rename chat"), self, shortcut=QKeySequence("F2"))
        self.pin_action = QAction(self.tr("&Pin chat"), self)
        self.delete_chat_action = QAction(self.tr("&Delete chat"), self,
                                          shortcut=QKeySequence.StandardKey.Delete)
        self.delete_chat_action.setShortcutContext(
            Qt.ShortcutContext.WidgetWithChildrenShortcut)  # the list's, not the message box's
        self.delete_chat_action.setToolTip(self.tr("Delete "
                                                   "the selected chat (Undo brings it back)"))
        self.export_markdown_action = QAction(self.tr("Export chat as &Markdown…"), self)
        self.export_json_action = QAction(self.tr("Export chat as &JSON…"), self)
        self.export_json_action.setToolTip(self.tr("Every version of every message, with each "
                                                   "answer's tokens, colours and numbers: imports "
                                                   "back whole"))
        self.import_action = QAction(self.tr("&Import chat…"), self)
        self.list.addAction(self.rename_action)
        self.list.addAction(self.delete_chat_action)

        lay = QVBoxLayout(self)
        lay.setContentsMargins(6, 6, 0, 6)
        lay.addWidget(self.new_chat_button)
        lay.addWidget(self.search_field)
        lay.addWidget(self.list, 1)
        lay.addWidget(self.undo_bar)

        for conv in session.saved_conversations():
            self.list.addItem(chat_item(conv))
        self.list.currentRowChanged.connect(self._on_row_changed)
        self.list.customContextMenuRequested.connect(self._on_menu)
        self.list.itemChanged.connect(self._on_item_changed)
        self.session.loaded.connect(self._on_loaded)
        self.new_chat_button.clicked.connect(self._on_new_chat)
        self.new_chat_action.triggered.connect(self._on_new_chat)
        self.list.itemClicked.connect(self._on_item_chosen)
        self.list.itemActivated.connect(self._on_item_chosen)  # Enter on a chat
        self.rename_action.triggered.connect(self._on_rename)
        self.pin_action.triggered.connect(self._on_pin)
        self.delete_chat_action.triggered.connect(self._on_delete_chat)
        self.export_markdown_action.triggered.connect(lambda: self._on_export("markdown"))
        self.export_json_action.triggered.connect(lambda: self._on_export("json"))
        self.import_action.triggered.connect(self._files.ask_import)
        self.undo_bar.undone.connect(self._on_undone)
        self._files.info.connect(self.info)
        self._files.imported.connect(self._on_imported)
        self.new_chat()

    # Items ---------------------------------------------------------------------------------

    def _conv(self, row: int) -> Conversation:
        return self.list.item(row).data(CONV_ROLE)

    def conversations(self) -> list[Conversation]:
        return [self._conv(row) for row in range(self.list.count())]

    def row_of(self, conv: Conversation) -> int:
        return next((r for r in range(self.list.count()) if self._conv(r) is conv), -1)

    @property
    def current(self) -> Conversation:
        return self._conv(self.list.currentRow())

    def count(self) -> int:
        return self.list.count()

    def set_busy(self, busy: bool) -> None:
        """While an answer streams (or waits for its model) the shown chat stays."""
        for w in (self.new_chat_button, self.new_chat_action, self.list, self.import_action,
                  self.search_field):
            w.setEnabled(not busy)
        for a in (self.delete_chat_action, self.rename_action, self.pin_action):
            a.setEnabled(not busy and self.list.count() > 0)

    def update_title(self) -> None:
        """The current chat's title and place after a message (it is now the newest)."""
        conv = self.current
        conv.updated_at = time.time()
        item = self.list.currentItem()
        self.list.blockSignals(True)
        item.setText(conv.title)
        self.list.blockSignals(False)
        self._resort()

    def _resort(self) -> None:
        """Put the chats in order again and refresh their captions, the current one kept."""
        current = self.current if self.list.currentRow() >= 0 else None
        convs = sorted(self.conversations(), key=sort_key)
        self.list.blockSignals(True)
        if [id(c) for c in convs] != [id(c) for c in self.conversations()]:
            self.list.clear()
            for conv in convs:
                self.list.addItem(chat_item(conv))
        else:
            for row, conv in enumerate(convs):
                self.list.item(row).setData(GROUP_ROLE, day_group(conv))
        if current is not None:
            self.list.setCurrentRow(self.row_of(current))
        self.list.blockSignals(False)
        self._search.refilter()
        self.list.doItemsLayout()

    # New, rename, pin, delete ----------------------------------------------------------------

    @Slot()
    def new_chat(self) -> None:
        """Show a blank chat: the current one if it is blank, else one already listed, else a
        new one, so that New chat never piles up empty chats."""
        if not self.list.isEnabled():
            return
        self.search_field.clear()
        current = self.current if self.list.currentRow() >= 0 else None
        blank = current if current is not None and is_blank(current) else next(
            (c for c in self.conversations() if is_blank(c)), None)
        if blank is None:
            self._insert(Conversation(updated_at=time.time()))
            return
        blank.updated_at = time.time()  # at the top, as a new one would be
        self._resort()
        self._select(self.row_of(blank))

    @Slot()
    def _on_new_chat(self) -> None:
        self.new_chat()
        self.chosen.emit()

    @Slot(QListWidgetItem)
    def _on_item_chosen(self, item: QListWidgetItem) -> None:
        if self.list.state() != QAbstractItemView.State.EditingState:
            self.chosen.emit()

    def _insert(self, conv: Conversation) -> None:
        self.list.blockSignals(True)
        self.list.insertItem(0, chat_item(conv))
        self.list.blockSignals(False)
        self._resort()
        self._select(self.row_of(conv))

    def _select(self, row: int) -> None:
        """Make `row` current and show it, once (whether or not the row number changed)."""
        self.list.blockSignals(True)
        self.list.setCurrentRow(row)
        self.list.blockSignals(False)
        self._on_row_changed(self.list.currentRow())

    def add_conversation(self, conv: Conversation) -> bool:
        """Show a conversation made elsewhere (an opened trace, an import) at the top,
        selected; False while an answer streams, as for New chat."""
        if not self.list.isEnabled():
            return False
        if not conv.updated_at:
            conv.updated_at = time.time()
        self._insert(conv)
        return True

    def rename(self, conv: Conversation, title: str) -> None:
        """The person's title for a chat: kept from now on, whatever its first question."""
        title = " ".join(title.split())
        if not title or title == conv.title:
            return
        conv.title, conv.renamed = title, True
        row = self.row_of(conv)
        if row >= 0:
            self.list.blockSignals(True)
            self.list.item(row).setText(title)
            self.list.blockSignals(False)
        self.session.update_chat(conv, title=True)

    def set_pinned(self, conv: Conversation, pinned: bool) -> None:
        conv.pinned = pinned
        self.session.update_chat(conv, pinned=True)
        self._resort()

    def delete_chat(self, row: int) -> None:
        """Remove a conversation from the list and the store, with Undo offered a while."""
        if not self.list.isEnabled() or not 0 <= row < self.list.count():
            return
        conv = self._conv(row)
        self.undo_bar.expire()  # one delete can be undone at a time
        self.session.delete_chat(conv)
        self.list.blockSignals(True)  # the row signals of a removal would show a half state
        self.list.takeItem(row)
        self.list.blockSignals(False)
        if conv.chat_id is not None or conv.turns:
            self.undo_bar.offer(conv)
        if not self.list.count():
            self.new_chat()
            return
        self._select(min(row, self.list.count() - 1))

    @Slot(object)
    def _on_undone(self, conv: Conversation) -> None:
        self.session.restore_chat(conv)
        self._insert(conv)

    @Slot()
    def _on_rename(self) -> None:
        item = self.list.currentItem()
        if item is not None and self.list.isEnabled():
            self.list.editItem(item)

    @Slot(QListWidgetItem)
    def _on_item_changed(self, item: QListWidgetItem) -> None:
        conv = item.data(CONV_ROLE)
        if conv is not None and item.text() != conv.title:
            if item.text().strip():
                self.rename(conv, item.text())
            else:  # an empty title is not a title
                self.list.blockSignals(True)
                item.setText(conv.title)
                self.list.blockSignals(False)

    @Slot()
    def _on_pin(self) -> None:
        if self.list.currentRow() >= 0 and self.list.isEnabled():
            self.set_pinned(self.current, not self.current.pinned)

    @Slot()
    def _on_delete_chat(self) -> None:
        self.delete_chat(self.list.currentRow())

    # Selecting -----------------------------------------------------------------------------

    @Slot(int)
    def _on_row_changed(self, row: int) -> None:
        if row < 0:
            return
        conv = self._conv(row)
        self.session.load(conv)  # off the GUI thread; `selected` again when it is in
        self.selected.emit(conv)

    @Slot(object)
    def _on_loaded(self, conv: Conversation) -> None:
        if self.list.currentRow() >= 0 and self.current is conv:
            self.selected.emit(conv)

    @Slot(QPoint)
    def _on_menu(self, pos: QPoint) -> None:
        item = self.list.itemAt(pos)
        if item is None or not self.list.isEnabled():
            return
        self.list.setCurrentItem(item)  # the action applies to the chat clicked
        self.pin_action.setText(self.tr("Un&pin "
                                        "chat") if self.current.pinned else self.tr("&Pin chat"))
        menu = QMenu(self)
        for action in (self.rename_action, self.pin_action, self.delete_chat_action):
            menu.addAction(action)
        menu.addSeparator()
        for action in (self.export_markdown_action, self.export_json_action):
            menu.addAction(action)
        menu.exec(self.list.viewport().mapToGlobal(pos))
        menu.deleteLater()

    # Search --------------------------------------------------------------------------------

    def search(self, text: str) -> None:
        """Search now (the field's text), as typing does after a pause."""
        self._search.search(text)

    def visible_titles(self) -> list[str]:
        return [self.list.item(r).text() for r in range(self.list.count())
                if not self.list.item(r).isHidden()]

    # Export and import -----------------------------------------------------------------------

    def _on_export(self, fmt: str) -> None:
        if self.list.currentRow() >= 0:
            self._files.ask_export(self.current, fmt)

    def export(self, conv: Conversation, path: str, fmt: str) -> None:
        """Write a chat as JSON (`fmt` "json") or Markdown, off the GUI thread."""
        self._files.export(conv, path, fmt)

    def import_chat(self, path: str) -> None:
        """Read a chat exported as JSON off the GUI thread, then list and show it."""
        self._files.import_chat(path)

    @Slot(object)
    def _on_imported(self, conv: Conversation) -> None:
        if not self.add_conversation(conv):
            self.list.blockSignals(True)  # listed, not shown, while an answer streams
            self.list.addItem(chat_item(conv))
            self.list.blockSignals(False)
            self._resort()
        self.info.emit(self.tr("Imported “{title}”").format(title=conv.title))

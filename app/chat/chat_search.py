"""The chat list's search: chats found by title and by any word of any message (the store's
full-text index), the others hidden, each found message's snippet in its chat's tooltip.

The store is asked once typing pauses, off the GUI thread (ChatSession.search); an answer to
text typed on since is dropped. Titles are matched here, so a chat not saved yet is found too."""

from __future__ import annotations

from PySide6.QtCore import QObject, QTimer, Slot
from PySide6.QtWidgets import QLineEdit, QListWidget

from app.chat.chat_rows import CONV_ROLE
from app.chat.chat_session import ChatSession
from app.chat.conversation import Conversation
from app.transcript.message_widgets import text_tooltip
from backend.chats import SearchHit

SEARCH_DELAY_MS = 200  # typing pauses this long before the store is searched


class ChatSearch(QObject):
    """Filters `view`'s chats by the text of `field`."""

    def __init__(self, field: QLineEdit, view: QListWidget, session: ChatSession,
                 parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._field = field
        self._view = view
        self._session = session
        self._search_timer = QTimer(self, singleShot=True, interval=SEARCH_DELAY_MS)
        self._search_text = ""
        self._last_hits: dict[int, str] | None = None  # chat id -> snippet; None: no search
        field.textChanged.connect(self._on_search_typed)
        self._search_timer.timeout.connect(self._run_search)

    @Slot(str)
    def _on_search_typed(self, text: str) -> None:
        self._search_text = text.strip()
        if not self._search_text:
            self._search_timer.stop()
            self._last_hits = None
            self._apply_filter(None)
            return
        self._search_timer.start()

    @Slot()
    def _run_search(self) -> None:
        text = self._search_text

        def found(hits: list[SearchHit]) -> None:
            if text != self._search_text:
                return  # typed on meanwhile
            self._last_hits = {h.chat_id: h.snippet for h in hits}
            self._apply_filter(self._last_hits)

        self._session.search(text, found)

    def search(self, text: str) -> None:
        """Search now (the field's text), as typing does after a pause."""
        self._field.setText(text)
        self._search_timer.stop()
        self._run_search()

    def refilter(self) -> None:
        """Hide again what the last search did not find (after the rows were remade)."""
        self._apply_filter(self._last_hits)

    def _apply_filter(self, hits: dict[int, str] | None) -> None:
        words = self._search_text.casefold().split()
        for row in range(self._view.count()):
            item = self._view.item(row)
            conv: Conversation = item.data(CONV_ROLE)
            if hits is None:
                item.setHidden(False)
                item.setToolTip("")
                continue
            in_title = all(w in conv.title.casefold() for w in words)
            snippet = hits.get(conv.chat_id) if conv.chat_id is not None else None
            item.setHidden(not (in_title or snippet is not None))
            item.setToolTip(text_tooltip(snippet or ""))
        self._view.doItemsLayout()

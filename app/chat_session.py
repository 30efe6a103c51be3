"""The window's conversations and their saved form: the chat store, written off the GUI thread.

Every write goes through one serial `Background` queue, in the order the window asks for it, so
the GUI thread never waits for SQLite or for packing a long answer's tokens, and the ids the
store assigns (a chat's, an answer's) are set by the write that creates them, before any later
write that needs them runs. Reads (the list of titles at start, a chat's messages when it is
selected) stay on the GUI thread: they are what the user is waiting to see.

An answer is saved while it streams, at most every `PARTIAL_SAVE_INTERVAL_S`, marked
interrupted, and saved again whole when it ends: a crash of anything, the window included,
loses at most the last few seconds of it.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from pathlib import Path

from PySide6.QtCore import QObject, Signal

from app.background import Background
from app.conversation import Conversation, Turn, answer_record, new_tokens, turn_from_message
from backend.chats import ChatStore, ChatStoreError

log = logging.getLogger(__name__)

PARTIAL_SAVE_INTERVAL_S = 2.0


class ChatSession(QObject):
    failed = Signal(str)  # a store problem, in words; the chat goes on in memory

    def __init__(self, store: ChatStore, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.store = store
        self._writes = Background(self, serial=True, name="chat store")
        self._last_partial = 0.0

    @classmethod
    def open(cls, path: Path | None, *, persist: bool = True,
             parent: QObject | None = None) -> ChatSession:
        """The store at `path` (None: the default one; in memory when not `persist`). When
        none can be opened, chats stay in memory and `store.problem` says so."""
        if not persist:
            return cls(ChatStore.in_memory(), parent)
        try:
            return cls(ChatStore(path), parent)
        except ChatStoreError as exc:
            log.error("%s", exc)
            store = ChatStore.in_memory()
            store.problem = f"{exc} Chats will not be saved this session."
            return cls(store, parent)

    # Reads (GUI thread) --------------------------------------------------------------------

    def saved_conversations(self) -> list[Conversation]:
        """Titles only: a chat's messages are read when it is selected."""
        summaries = self._read(self.store.list) or []
        return [Conversation(s.title, chat_id=s.id, loaded=False) for s in summaries]

    def load(self, conv: Conversation) -> None:
        if conv.loaded or conv.chat_id is None:
            return
        messages = self._read(self.store.load, conv.chat_id)
        if messages is not None:
            conv.turns = [turn_from_message(m) for m in messages]
            conv.loaded = True

    def _read(self, operation: Callable, *args):
        try:
            return operation(*args)
        except ChatStoreError as exc:
            log.error("%s", exc)
            self.failed.emit(str(exc))
            return None

    # Writes (store thread, in order) -------------------------------------------------------

    def _write(self, fn: Callable[[], object]) -> None:
        self._writes.run(fn, on_result=lambda _: None, on_error=self._on_write_failed)

    def _on_write_failed(self, exc: Exception) -> None:
        log.error("%s", exc)
        self.failed.emit(str(exc) if isinstance(exc, ChatStoreError)
                         else f"Could not save the chat: {exc}")

    def _chat_id(self, conv: Conversation) -> int:
        """Runs on the store thread: the conversation's row, made with its first message."""
        if conv.chat_id is None:
            conv.chat_id = self.store.create(conv.title)
        return conv.chat_id

    def save_user(self, conv: Conversation, turn: Turn) -> None:
        def write() -> None:
            turn.message_id = self.store.add_user(self._chat_id(conv), turn.text)
        self._write(write)

    def save_answer(self, conv: Conversation, turn: Turn, *, partial: bool = False) -> None:
        """Save the answer as it stands; `partial`: it is still streaming, so only if the last
        partial save is old enough (the cost of a save grows with the answer)."""
        now = time.monotonic()
        if partial and now - self._last_partial < PARTIAL_SAVE_INTERVAL_S:
            return
        self._last_partial = now
        answer = turn.answer
        assert answer is not None

        def write() -> None:
            turn.message_id = self.store.save_answer(
                self._chat_id(conv), turn.message_id, **answer_record(answer))
            turn.saved_tokens += self.store.append_tokens(
                turn.message_id, turn.saved_tokens, new_tokens(answer, turn.saved_tokens))
        self._write(write)

    def delete_message(self, turn: Turn) -> None:
        def write() -> None:
            if turn.message_id is not None:
                self.store.delete_message(turn.message_id)
                turn.message_id = None
        self._write(write)

    def delete_chat(self, conv: Conversation) -> None:
        def write() -> None:
            if conv.chat_id is not None:
                self.store.delete(conv.chat_id)
        self._write(write)

    def flush(self, timeout_ms: int = 30_000) -> bool:
        """Wait until every write asked for so far is done (closing, tests)."""
        return self._writes.wait(timeout_ms)

    def close(self) -> None:
        self.flush()
        self._writes.stop()
        self.store.close()

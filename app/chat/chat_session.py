"""The window's conversations and their saved form: the chat store, read and written off the
GUI thread.

Every store call goes through one serial `Background` queue, in the order the window asks for
it, so the GUI thread never waits for SQLite or for packing or unpacking a long answer's
tokens, the ids the store assigns (a chat's, a message's) are set by the write that creates
them before any later write that needs them runs, and a read (a chat's messages when it is
selected, a search, an export) sees every write asked for before it. Only the list of titles
at start is read on the GUI thread: it is one small query the window is built from.

An answer is saved while it streams, at most every `PARTIAL_SAVE_INTERVAL_S`, marked
interrupted, and saved again whole when it ends: a crash of anything, the window included,
loses at most the last few seconds of it.

A write that fails (a full disk, a database made read-only) is kept, in order, with the
conversation it writes still in memory, and done again before the next write, and every
`RETRY_S` while any waits: so what is saved is always whole, a message never before the one
it follows. Each write is one transaction (`ChatStore.batch`), and the ids it assigns are
kept only once it is committed, so a write done again starts from where the last one
really ended.
"""

from __future__ import annotations

import json
import logging
import sqlite3
import time
from collections.abc import Callable, Hashable, Iterator
from contextlib import contextmanager
from pathlib import Path

from PySide6.QtCore import QObject, QTimer, Signal

from app.backend_text import error_text
from app.background import Background
from app.chat.conversation import Conversation, Turn, answer_record, new_tokens
from app.i18n import translate
from backend.chats import ChatStore, ChatStoreError, ChatSummary, SearchHit
from backend.chats.export import export_json, export_markdown, import_json, read_chat_file
from backend.chats.store import READ_ONLY_KIND

log = logging.getLogger(__name__)

PARTIAL_SAVE_INTERVAL_S = 2.0
RETRY_S = 10.0  # how often writes that failed are tried again while nothing else is saved


def conversation_from_summary(s: ChatSummary) -> Conversation:
    return Conversation(s.title, chat_id=s.id, loaded=False, pinned=s.pinned,
                        renamed=s.renamed, system_prompt=s.system_prompt,
                        dropped_turns=s.dropped_turns, updated_at=s.updated_at)


class ChatSession(QObject):
    failed = Signal(str)  # a store problem, in words; the chat goes on in memory
    saved_again = Signal()  # every write that failed is saved now: the problem is over
    loaded = Signal(object)  # a Conversation whose messages were just read

    def __init__(self, store: ChatStore, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.store = store
        self._writes = Background(self, serial=True, name="chat store")
        self._last_partial = 0.0
        self._loading: set[int] = set()  # id() of conversations being read
        # Writes not done yet, oldest first (store thread only): the one being done and those
        # that failed, each with a key naming what it saves, so that an answer saved every
        # few seconds while the disk is full waits once, not once per save.
        self._pending: list[tuple[Hashable, Callable[[], object]]] = []
        self._retry = QTimer(self, singleShot=True, interval=int(RETRY_S * 1000))
        self._retry.timeout.connect(self._on_retry)
        self._failing = False  # a write failed and the banner says so until all is saved

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
            store.problem = translate("ChatSession", "{error} Chats will not be saved this "
                                      "session.").format(error=error_text(exc))
            return cls(store, parent)

    # Reads ---------------------------------------------------------------------------------

    def saved_conversations(self) -> list[Conversation]:
        """Titles only (GUI thread, at start): a chat's messages are read when selected."""
        try:
            summaries = self.store.list()
        except ChatStoreError as exc:
            log.error("%s", exc)
            self.failed.emit(error_text(exc))
            return []
        return [conversation_from_summary(s) for s in summaries]

    def load(self, conv: Conversation) -> None:
        """Read a listed conversation's messages off the GUI thread (every version, their
        answers' tokens unpacked there too); `loaded` is emitted with it when they are in."""
        if conv.loaded or conv.chat_id is None or id(conv) in self._loading:
            return
        self._loading.add(id(conv))
        chat_id = conv.chat_id

        def read() -> Conversation:
            built = Conversation()
            built.load_messages(self.store.load(chat_id, all_versions=True))
            return built

        def done(built: Conversation) -> None:
            self._loading.discard(id(conv))
            conv.root, conv.turns, conv.loaded = built.root, built.turns, True
            self.loaded.emit(conv)

        def failed(exc: Exception) -> None:
            self._loading.discard(id(conv))
            self._on_write_failed(exc)

        self._writes.run(read, on_result=done, on_error=failed)

    def search(self, text: str, on_result: Callable[[list[SearchHit]], None]) -> None:
        """Every chat's messages searched for `text` (after the writes asked for so far)."""
        self._writes.run(self.store.search, text, on_result=on_result,
                         on_error=self._on_write_failed)

    # Writes (store thread, in order) -------------------------------------------------------

    def _write(self, fn: Callable[[], object], key: Hashable = None) -> None:
        """Do `fn` on the store thread after every write asked for before it, those that
        failed included; `key`: what it saves, when a later write of the same key does all
        it would (an answer saved again)."""
        self._writes.run(self._in_order, key, fn, on_result=self._on_written,
                         on_error=self._on_write_failed)

    def _in_order(self, key: Hashable, fn: Callable[[], object] | None) -> None:
        """Store thread: the writes still waiting, then `fn` (None: only those); the first
        that fails stops the rest, which wait for the next write or `RETRY_S`. A write that
        would fail the same way every time is not kept, or it would hold back every other."""
        if fn is not None and (key is None or all(k != key for k, _ in self._pending)):
            self._pending.append((key, fn))
        while self._pending:
            try:
                self._pending[0][1]()
            except Exception as exc:
                if not _passing(exc):
                    self._pending.pop(0)
                raise
            self._pending.pop(0)

    @property
    def unsaved(self) -> int:
        """How many writes wait to be done again (read on the GUI thread: a hint)."""
        return len(self._pending)

    def _on_written(self, _: object) -> None:
        if not self._pending:
            self._retry.stop()
            if self._failing:
                self._failing = False
                self.saved_again.emit()

    def _on_retry(self) -> None:
        self._writes.run(self._in_order, None, None, on_result=self._on_written,
                         on_error=self._on_retry_failed)

    def _on_retry_failed(self, exc: Exception) -> None:
        """Said already when the write first failed: tried again later, quietly."""
        log.info("chats still not saved: %s", exc)
        self._retry.start()

    def _on_write_failed(self, exc: Exception) -> None:
        log.error("%s", exc)
        self._failing = self._failing or bool(self._pending)  # said until those are saved
        if isinstance(exc, ChatStoreError) and exc.kind == READ_ONLY_KIND:
            self.failed.emit(error_text(exc))  # it says that nothing is saved
        elif _passing(exc) and self._pending:  # kept to be tried again (a later write may
            # be waiting too, queued before this failure reached the GUI thread: not a reason)
            self.failed.emit(translate(
                "ChatSession", "{error} The chat is kept in this window and saved as soon as "
                "it can be.").format(error=self._error_words(exc)))
        else:
            self.failed.emit(self._error_words(exc))
        if self._pending:
            self._retry.start()

    @staticmethod
    def _error_words(exc: Exception) -> str:
        return (error_text(exc) if isinstance(exc, ChatStoreError)
                else translate("ChatSession", "Could not save the chat: {error}").format(
                    error=error_text(exc)))

    @contextmanager
    def _batch(self, conv: Conversation) -> Iterator[None]:
        """Store thread: one transaction; when it fails, the conversation's row id made in it
        is forgotten with it."""
        chat_id = conv.chat_id
        try:
            with self.store.batch():
                yield
        except BaseException:
            conv.chat_id = chat_id
            raise

    def _chat_id(self, conv: Conversation) -> int:
        """Runs on the store thread: the conversation's row, made with its first write."""
        if conv.chat_id is None:
            conv.chat_id = self.store.create(conv.title, system_prompt=conv.system_prompt)
            if conv.renamed:
                self.store.rename(conv.chat_id, conv.title)
            if conv.pinned:
                self.store.set_pinned(conv.chat_id, True)
        return conv.chat_id

    @staticmethod
    def _parent_id(turn: Turn) -> int | None:
        """Runs on the store thread: the saved message `turn` follows (an answer that failed
        before writing anything is not saved, so what follows it follows its question)."""
        node = turn.parent
        while node is not None and node.role != "root" and node.message_id is None:
            node = node.parent
        return node.message_id if node is not None and node.role != "root" else None

    def save_user(self, conv: Conversation, turn: Turn) -> None:
        # The first question names the chat (unless the person did), also when its row was
        # made before it (pinned while still "New chat").
        first = [t for t in conv.turns if t.role == "user"][:1] == [turn] and not conv.renamed
        title = conv.title

        def write() -> None:
            if turn.message_id is not None:  # saved by an earlier try
                return
            with self._batch(conv):
                made = conv.chat_id is not None
                chat_id = self._chat_id(conv)
                if first and made:
                    self.store.rename(chat_id, title, by_user=False)
                message_id = self.store.add_user(chat_id, turn.text,
                                                 parent_id=self._parent_id(turn))
            turn.message_id = message_id
        self._write(write, ("message", id(turn)))

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
            # What the answer holds when this runs: a save done again saves all of it.
            tokens = new_tokens(answer, turn.saved_tokens)
            with self._batch(conv):  # its row, text and tokens in one transaction
                message_id = self.store.save_answer(
                    self._chat_id(conv), turn.message_id, **answer_record(answer),
                    settings=turn.settings, parent_id=self._parent_id(turn), tokens=tokens)
            turn.message_id = message_id
            turn.saved_tokens += len(tokens["text"])
        self._write(write, ("message", id(turn)))

    def choose(self, turn: Turn) -> None:
        """Remember which version of a message is shown."""
        def write() -> None:
            if turn.message_id is not None:
                self.store.choose(turn.message_id)
        self._write(write)

    def delete_message(self, turn: Turn) -> None:
        def write() -> None:
            if turn.message_id is not None:
                self.store.delete_message(turn.message_id)
                turn.message_id = None
        self._write(write)

    def update_chat(self, conv: Conversation, *, title: bool = False, pinned: bool = False,
                    system_prompt: bool = False, dropped_turns: bool = False) -> None:
        """Save the named fields of a conversation (its row is made if it has none yet)."""
        title_value, renamed, pin = conv.title, conv.renamed, conv.pinned
        prompt, dropped = conv.system_prompt, conv.dropped_turns

        def write() -> None:
            with self._batch(conv):
                new = conv.chat_id is None
                chat_id = self._chat_id(conv)
                if title and not new:
                    self.store.rename(chat_id, title_value, by_user=renamed)
                if pinned and not new:
                    self.store.set_pinned(chat_id, pin)
                if system_prompt and not new:
                    self.store.set_system_prompt(chat_id, prompt)
                if dropped_turns:
                    self.store.set_dropped_turns(chat_id, dropped)
        self._write(write)

    def delete_chat(self, conv: Conversation) -> None:
        """Hidden from the list and search; `restore_chat` undoes it until the store opens
        again."""
        def write() -> None:
            if conv.chat_id is not None:
                self.store.delete(conv.chat_id)
        self._write(write)

    def restore_chat(self, conv: Conversation) -> None:
        def write() -> None:
            if conv.chat_id is not None:
                self.store.restore(conv.chat_id)
        self._write(write)

    # Export and import (store thread) ------------------------------------------------------

    def export(self, conv: Conversation, path: str, fmt: str,
               on_done: Callable[[str], None]) -> None:
        """Write the saved conversation (every version of every message, tokens included) as
        JSON, or its shown path as Markdown, once the writes before are done."""
        def write() -> str:
            try:
                self._in_order(None, None)
            except ChatStoreError:
                if any(_unsaved(t) for t in conv.turns):  # the file would lack them
                    raise
            chat_id = self._chat_id(conv)
            if fmt == "json":
                doc = export_json(self.store, chat_id)
                text = json.dumps(doc, ensure_ascii=False, indent=1)
                if not _encodable(text):  # a lone surrogate: JSON's escape keeps it exactly
                    text = json.dumps(doc, indent=1)
            else:
                text = export_markdown(self.store, chat_id)
                if not _encodable(text):  # Markdown has no escape for it: shown as U+FFFD
                    text = text.encode("utf-16-le", "surrogatepass").decode("utf-16-le",
                                                                            "replace")
            Path(path).write_text(text, encoding="utf-8")
            return path
        self._writes.run(write, on_result=on_done, on_error=self._on_write_failed)

    def import_file(self, path: str, on_done: Callable[[Conversation], None]) -> None:
        """Read a conversation exported as JSON into the store, as a new chat."""
        def read() -> Conversation:
            # a regular file of bounded size, refused in words otherwise (never a FIFO's wait)
            doc = read_chat_file(path)
            with self.store.batch():  # the whole chat or nothing
                chat_id = import_json(self.store, doc)
            summary = self.store.chat(chat_id)
            assert summary is not None
            return conversation_from_summary(summary)
        self._writes.run(read, on_result=on_done, on_error=self._on_import_failed)

    def _on_import_failed(self, exc: Exception) -> None:
        log.error("import failed: %s", exc)
        self.failed.emit(translate("ChatSession", "Could not import the conversation: {error}")
                         .format(error=error_text(exc)))

    def flush(self, timeout_ms: int = 30_000) -> bool:
        """Wait until every write asked for so far is done (closing, tests)."""
        return self._writes.wait(timeout_ms)

    def close(self) -> None:
        self._retry.stop()
        if self._pending:  # a last try (the disk may have room by now)
            self._writes.run(self._in_order, None, None, on_result=lambda _: None,
                             on_error=lambda _: None)
        self.flush()
        if self._pending:
            log.error("%d chat writes could not be saved before closing", len(self._pending))
        self._writes.stop()
        self.store.close()


def _passing(exc: Exception) -> bool:
    """Whether a failed write may work when done again: the disk was full, the database
    could not be written or was busy (not a write that SQLite refuses as it is)."""
    return isinstance(exc, ChatStoreError) and (
        bool(exc.kind) or isinstance(exc.__cause__, sqlite3.OperationalError))


def _unsaved(turn: Turn) -> bool:
    """A message shown that the store does not have yet (an answer that failed before
    writing anything is never saved)."""
    return turn.message_id is None and (turn.role == "user" or bool(turn.content))


def _encodable(text: str) -> bool:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True

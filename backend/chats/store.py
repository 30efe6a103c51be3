"""Conversations on disk, so chats already written survive a crash.

One SQLite file (stdlib sqlite3, WAL journal) under platformdirs' data directory. Every write
is its own committed transaction with `synchronous=FULL`, so killing the process loses at most
the message being written. Values from users and models only ever travel as query parameters.
An assistant message keeps what is needed to redraw its coloured view: per token id, text,
origin, accepted, step, p_target, p_draft, head, its inspection record and, on a tree step's
first token, the step's draft tree, as columns in zlib-compressed JSON chunks
(`answer_tokens`, schema 2: an answer is saved while it streams, a chunk of new tokens at a
time, so no save repacks what was saved before and none holds the GIL long), next to the
stats as JSON. A database that cannot be read is moved aside
(`chats.sqlite3.corrupt-<timestamp>`) and a new one started; `problem` says so in words.

Text is stored whatever it holds: a lone surrogate (half an emoji in a rejected draft, a
`"\\ud800"` from a server) cannot be UTF-8, so such text is bound as its 'surrogatepass'
bytes cast to TEXT and read back through a decoder that undoes it; nothing is replaced on
disk. A database that cannot be written (a read-only file or folder, a full disk at start)
is opened read-only: its chats can be read and every write says why in one sentence. A
failed write leaves nothing half-done: one transaction, rolled back (when SQLite has not
already done so), its error named as it is ("The disk is full: …").

Schema 3 makes a chat a tree: each message names the one it follows (`parent_id`), so an
edited question or a regenerated answer is a sibling of the one it replaces and stays as an
earlier version; `chosen` marks the version shown. It adds per chat a pin, a title the user
set, a system prompt and the oldest turns left out of the model's context; per answer the
generation settings it was made with; a deleted chat is kept (`deleted_at`) until
`purge_deleted`, so a delete can be undone; and an FTS5 index over every message's text.
"""

from __future__ import annotations

import builtins
import errno
import json
import logging
import os
import shutil
import sqlite3
import threading
import time
import zlib
from bisect import bisect_right
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from itertools import accumulate
from pathlib import Path
from typing import Any

import platformdirs

from backend import APP_NAME
from backend.words import Words, words

log = logging.getLogger(__name__)

SCHEMA_VERSION = 3  # PRAGMA user_version
TOKENS_FORMAT = 2  # 1: every column in the JSON document (still read)
# Per-token columns of an assistant message, in the order they are stored.
TOKEN_FIELDS = ("id", "text", "origin", "accepted", "step", "p_target", "p_draft", "head",
                "inspection", "tree")
# A tree step's draft tree (backend/tree_json.py) on the step's first token, None elsewhere.
# Chunks written before it have no such column: read as None, so their answers open treeless.
TREE_FIELD = "tree"
# Columns of JSON text (the inspector's records, a step's tree) stored after the document as
# their own lines, not escaped again as JSON strings: that escaping was most of packing a
# chunk, on the save's thread, holding the GIL the window needs.
RAW_FIELDS = ("inspection", TREE_FIELD)
_RAW_SEP = b"\0"  # never in JSON text, which escapes every control character
# Tokens per stored chunk, and the inspection text it may hold: packing one is a single
# json.dumps call holding the GIL, so it is kept to a few milliseconds and a save on a
# background thread never stalls the window. Bare tokens are ~10 bytes each; one with the
# inspector's record is ~50 times that, so the text decides where a chunk ends.
TOKENS_PER_CHUNK = 4096
CHUNK_TEXT_BYTES = 128 * 1024
MEMORY = ":memory:"
UNDO_S = 300.0  # a deleted chat is kept this long at least, so that its delete can be undone


# What the store says when it cannot read or write, as templates (backend/words.py).
CANNOT_OPEN = "Could not open the chats database {path}: {error}."
CANNOT_START = "Could not start a chats database: {error}."
CANNOT_READ_NOR_MOVE = ("Your saved chats at {path} could not be read ({error}) nor moved aside "
                        "({why}).")
MOVED_ASIDE = ("Your saved chats could not be read ({error}). The damaged file was moved to "
               "{moved} and a new, empty chat list was started.")
CANNOT_START_NEW = "Could not start a new chats database at {path}: {error}"
CANNOT_SAVE = "Could not save to the chats database: {error}"
CANNOT_READ = "Could not read the chats database: {error}"
DISK_FULL = "The disk is full: there is no room to save chats in {path}."
DISK_FULL_AT_START = ("The disk is full: your saved chats in {path} can be read, but nothing "
                      "new is saved until there is room.")
DISK_FULL_NO_START = "The disk is full: no chats database can be started in {path}."
READ_ONLY = "The chats database {path} is read-only: chats can be read but not saved."
READ_ONLY_AT_START = ("Your saved chats in {path} are read-only: they can be read, but "
                      "nothing new is saved.")
READ_ONLY_OLD = ("Your saved chats in {path} are read-only and in an older format, which "
                 "this version reads only after updating it.")

# Why a write failed, as `ChatStoreError.kind` (and `ChatStore.read_only`): a full disk, a
# database that cannot be written; "" for anything else.
FULL = "full"
READ_ONLY_KIND = "read-only"
# An I/O error with less room than this on the database's disk is taken for a full disk
# (SQLite reports a full disk met while setting up its journal as "disk I/O error").
NEARLY_FULL_BYTES = 1 << 20


class ChatStoreError(Exception):
    """A read or write the store could not do; the message is meant for the user: its one
    argument, as Words (backend/words.py; `str(exc)` is the English sentence). `kind`: FULL,
    READ_ONLY_KIND, or "" (anything else)."""

    def __init__(self, message: Words | str, kind: str = "") -> None:
        super().__init__(message)
        self.kind = kind


@dataclass(frozen=True)
class ChatSummary:
    id: int
    title: str
    created_at: float
    updated_at: float
    pinned: bool = False
    renamed: bool = False  # the title is the user's, not the first question's
    system_prompt: str = ""
    dropped_turns: int = 0  # the oldest turns of the shown path not sent to the model


@dataclass(frozen=True)
class SearchHit:
    chat_id: int
    title: str
    message_id: int
    snippet: str  # plain text around the match, the match between [ and ]


@dataclass(frozen=True)
class StoredMessage:
    id: int
    role: str  # "user" | "assistant"
    text: str
    created_at: float
    model_name: str = ""
    spec_type: str = ""
    n_draft_max: int = 0
    stop_reason: str | None = None
    stats: dict[str, Any] | None = None
    tokens: dict[str, list] | None = None  # TOKEN_FIELDS -> one list each, equal lengths
    parent_id: int | None = None  # the message this one follows (None: the chat's first)
    chosen: bool = True  # the version shown among the messages with the same parent
    settings: dict[str, Any] | None = None  # an answer's generation settings


# `parent_id` of a message added after the last message shown (the current path's end).
AFTER_LAST = -1


def default_chats_path() -> Path:
    return platformdirs.user_data_path(APP_NAME, appauthor=False) / "chats.sqlite3"


def _create_v1(db: sqlite3.Connection) -> None:
    db.execute("""
        CREATE TABLE chats (
            id INTEGER PRIMARY KEY AUTOINCREMENT,
            title TEXT NOT NULL,
            created_at REAL NOT NULL,
            updated_at REAL NOT NULL
        )""")
    db.execute("""
        CREATE TABLE messages (
            id INTEGER PRIMARY KEY AUTOINCREMENT,
            chat_id INTEGER NOT NULL REFERENCES chats(id) ON DELETE CASCADE,
            role TEXT NOT NULL CHECK (role IN ('user', 'assistant')),
            text TEXT NOT NULL,
            created_at REAL NOT NULL,
            model_name TEXT NOT NULL DEFAULT '',
            spec_type TEXT NOT NULL DEFAULT '',
            n_draft_max INTEGER NOT NULL DEFAULT 0,
            stop_reason TEXT,
            stats TEXT,
            tokens BLOB
        )""")
    db.execute("CREATE INDEX messages_by_chat ON messages(chat_id, id)")


def _add_token_chunks(db: sqlite3.Connection) -> None:
    """v2: tokens in chunks appended as an answer streams (`messages.tokens` still holds the
    tokens of answers saved by version 1)."""
    db.execute("""
        CREATE TABLE answer_tokens (
            message_id INTEGER NOT NULL REFERENCES messages(id) ON DELETE CASCADE,
            seq INTEGER NOT NULL,
            tokens BLOB NOT NULL,
            PRIMARY KEY (message_id, seq)
        )""")


def _add_versions_and_search(db: sqlite3.Connection) -> None:
    """v3: messages form a tree (versions), chats get a pin, a user title, a system prompt and
    dropped turns, answers their settings; deleted chats wait for a purge; full-text search."""
    for column in ("pinned INTEGER NOT NULL DEFAULT 0", "renamed INTEGER NOT NULL DEFAULT 0",
                   "system_prompt TEXT NOT NULL DEFAULT ''",
                   "dropped_turns INTEGER NOT NULL DEFAULT 0", "deleted_at REAL"):
        db.execute(f"ALTER TABLE chats ADD COLUMN {column}")
    for column in ("parent_id INTEGER REFERENCES messages(id) ON DELETE CASCADE",
                   "chosen INTEGER NOT NULL DEFAULT 1", "settings TEXT"):
        db.execute(f"ALTER TABLE messages ADD COLUMN {column}")
    # Version 2 chats are one line: each message follows the one written before it.
    db.execute("UPDATE messages SET parent_id = (SELECT MAX(p.id) FROM messages p "
               "WHERE p.chat_id = messages.chat_id AND p.id < messages.id)")
    db.execute("CREATE INDEX messages_by_parent ON messages(parent_id)")
    db.execute("CREATE INDEX chats_by_activity ON chats(pinned, updated_at)")
    db.execute("CREATE VIRTUAL TABLE messages_fts USING fts5(text, content='messages', "
               "content_rowid='id', tokenize='unicode61 remove_diacritics 2')")
    db.execute("CREATE TRIGGER messages_fts_insert AFTER INSERT ON messages BEGIN "
               "INSERT INTO messages_fts (rowid, text) VALUES (new.id, new.text); END")
    db.execute("CREATE TRIGGER messages_fts_delete AFTER DELETE ON messages BEGIN "
               "INSERT INTO messages_fts (messages_fts, rowid, text) "
               "VALUES ('delete', old.id, old.text); END")
    db.execute("CREATE TRIGGER messages_fts_update AFTER UPDATE OF text ON messages BEGIN "
               "INSERT INTO messages_fts (messages_fts, rowid, text) "
               "VALUES ('delete', old.id, old.text); "
               "INSERT INTO messages_fts (rowid, text) VALUES (new.id, new.text); END")
    db.execute("INSERT INTO messages_fts (messages_fts) VALUES ('rebuild')")


# user_version N -> function bringing a version-N database to version N + 1 (0: empty file).
MIGRATIONS: dict[int, Callable[[sqlite3.Connection], None]] = {0: _create_v1,
                                                                1: _add_token_chunks,
                                                                2: _add_versions_and_search}


class ChatStore:
    """The conversation store; each call is one small transaction (several, in `batch`). Safe
    to share between threads (the window writes answers from a background thread and reads on
    its own): one lock serialises the calls, and the slow part of saving an answer, packing
    its tokens, is done before the lock is taken."""

    def __init__(self, path: Path | str | None = None) -> None:
        self.path: Path | str = MEMORY if path == MEMORY else Path(path or default_chats_path())
        # Set when an unreadable database was moved aside or one could only be opened
        # read-only (Words), or by the window when no database could be opened (a sentence in
        # the window's language).
        self.problem: Words | str | None = None
        # FULL or READ_ONLY_KIND while the database is open read-only; "" when writable.
        self.read_only = ""
        self._lock = threading.RLock()
        self._depth = 0  # nested `_write`s of the transaction open on the lock's thread
        try:
            self._db = self._open()
        except (sqlite3.OperationalError, OSError) as exc:  # locked, no access, disk…: not damage
            raise self._open_error(exc) from exc
        except sqlite3.DatabaseError as exc:  # not a database, or a malformed one
            if self.path == MEMORY:
                raise ChatStoreError(words(CANNOT_START, error=str(exc))) from exc
            try:
                moved = self._move_aside()
            except OSError as exc2:
                raise ChatStoreError(words(CANNOT_READ_NOR_MOVE, path=self.path, error=str(exc),
                                           why=str(exc2))) from exc2
            self.problem = words(MOVED_ASIDE, error=str(exc), moved=moved)
            log.error("%s", self.problem)
            try:
                self._db = self._open()
            except (sqlite3.DatabaseError, OSError) as exc2:
                raise ChatStoreError(words(CANNOT_START_NEW, path=self.path,
                                           error=str(exc2))) from exc2
        if self.read_only:
            self.problem = words(DISK_FULL_AT_START if self.read_only == FULL
                                 else READ_ONLY_AT_START, path=self.path)
            log.error("%s", self.problem)

    @classmethod
    def in_memory(cls) -> ChatStore:
        """A store that keeps nothing (screenshots, benchmarks)."""
        return cls(MEMORY)

    def _open(self) -> sqlite3.Connection:
        """The database, writable; read-only (`read_only` says why) when it exists but cannot
        be written: a read-only file or folder, or a full disk."""
        if self.path == MEMORY:
            return self._connect(check=True)
        path = Path(self.path)
        path.parent.mkdir(parents=True, exist_ok=True)
        if path.exists() and not _writable(path):
            return self._open_read_only(READ_ONLY_KIND)
        try:
            return self._connect(check=True)
        except sqlite3.OperationalError as exc:
            kind = _failure_kind(exc, path)
            if not path.is_file() or not (kind or _code(exc) == sqlite3.SQLITE_CANTOPEN):
                raise
            log.warning("chats database %s cannot be written (%s): opening it read-only",
                        path, exc)
            return self._open_read_only(kind or READ_ONLY_KIND)

    def _connect(self, *, check: bool) -> sqlite3.Connection:
        """A writable connection, migrated; `check`: run SQLite's quick check first."""
        # Transactions are explicit; the lock, not sqlite3's same-thread check, keeps one
        # call at a time.
        db = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False)
        try:
            db.text_factory = _text_from_db
            if self.path != MEMORY:
                db.execute("PRAGMA journal_mode=WAL")
            db.execute("PRAGMA synchronous=FULL")
            db.execute("PRAGMA foreign_keys=ON")
            if check:
                _quick_check(db)
            self._migrate(db)
            # Chats deleted a while ago (in an earlier session) can no longer be undone; a
            # recent delete may still be, in another window that has this file open.
            db.execute("DELETE FROM chats WHERE deleted_at < ?", (time.time() - UNDO_S,))
        except BaseException:
            db.close()
            raise
        return db

    def _open_read_only(self, kind: str) -> sqlite3.Connection:
        """The database opened for reading only. A WAL database needs its shared-memory file,
        which a read-only folder or a full disk may not let SQLite make: then it is read as an
        immutable file (what the last writer checkpointed)."""
        uri = Path(self.path).absolute().as_uri()
        error: sqlite3.OperationalError | None = None
        for query in ("mode=ro", "mode=ro&immutable=1"):
            try:
                db = sqlite3.connect(f"{uri}?{query}", uri=True, isolation_level=None,
                                     check_same_thread=False)
            except sqlite3.OperationalError as exc:
                error = exc
                continue
            try:
                db.text_factory = _text_from_db
                _quick_check(db)
                if db.execute("PRAGMA user_version").fetchone()[0] < SCHEMA_VERSION:
                    raise ChatStoreError(words(READ_ONLY_OLD, path=self.path), kind)
            except sqlite3.OperationalError as exc:
                db.close()
                error = exc
                continue
            except BaseException:
                db.close()
                raise
            self.read_only = kind
            return db
        assert error is not None
        raise error

    def _open_error(self, exc: BaseException) -> ChatStoreError:
        """Why the database could not be opened at all, in words."""
        if isinstance(exc, ChatStoreError):
            return exc
        if self.path != MEMORY and _failure_kind(exc, Path(self.path)) == FULL:
            return ChatStoreError(words(DISK_FULL_NO_START, path=Path(self.path).parent), FULL)
        return ChatStoreError(words(CANNOT_OPEN, path=self.path, error=str(exc)))

    def _writable_again(self) -> bool:
        """A store opened read-only: whether it could be opened for writing now (the disk has
        room again, the file or folder was made writable); if so it is."""
        path = Path(self.path)
        if not _writable(path) or (self.read_only == FULL and _nearly_full(path)):
            return False
        try:
            db = self._connect(check=False)  # checked when it was opened read-only
        except sqlite3.Error as exc:
            log.info("chats database %s still cannot be written: %s", path, exc)
            return False
        self._db.close()
        self._db, self.read_only = db, ""
        log.info("chats database %s can be written again", path)
        return True

    @staticmethod
    def _migrate(db: sqlite3.Connection) -> None:
        version = db.execute("PRAGMA user_version").fetchone()[0]
        if version > SCHEMA_VERSION:
            log.warning("chats database has schema %d, newer than %d: using what we know",
                        version, SCHEMA_VERSION)
        while version < SCHEMA_VERSION:
            db.execute("BEGIN IMMEDIATE")
            try:
                MIGRATIONS[version](db)
                db.execute(f"PRAGMA user_version = {int(version) + 1}")  # not a parameter
                db.execute("COMMIT")
            except BaseException:
                _roll_back(db)
                raise
            version += 1

    def _move_aside(self) -> Path:
        path = Path(self.path)
        stamp = time.strftime("%Y%m%d-%H%M%S")
        target = path.with_name(f"{path.name}.corrupt-{stamp}")
        n = 1
        while target.exists():
            n += 1
            target = path.with_name(f"{path.name}.corrupt-{stamp}-{n}")
        path.replace(target)
        for suffix in ("-wal", "-shm"):  # the journal belongs to the damaged file
            side = path.with_name(path.name + suffix)
            if side.exists():
                side.replace(target.with_name(target.name + suffix))
        return target

    @property
    def schema_version(self) -> int:
        return self._db.execute("PRAGMA user_version").fetchone()[0]

    def close(self) -> None:
        with self._lock:
            self._db.close()

    @contextmanager
    def batch(self) -> Iterator[None]:
        """The store calls made inside, on this thread, as one transaction: all of them are
        saved or none (a chat's row with its first message, a question with its answer)."""
        with self._write():
            yield

    @contextmanager
    def _write(self) -> Iterator[sqlite3.Connection]:
        """One committed transaction (or a part of the `batch` open on this thread); a
        failure rolls it back and becomes a ChatStoreError naming its cause."""
        with self._lock:
            if self._depth:
                self._depth += 1
                try:
                    yield self._db
                finally:
                    self._depth -= 1
                return
            if self.read_only and not self._writable_again():
                raise ChatStoreError(words(DISK_FULL if self.read_only == FULL else READ_ONLY,
                                           path=self.path), self.read_only)
            self._depth = 1
            try:
                self._db.execute("BEGIN IMMEDIATE")
                try:
                    yield self._db
                    self._db.execute("COMMIT")
                except BaseException:
                    _roll_back(self._db)
                    raise
            except sqlite3.Error as exc:
                raise self._write_error(exc) from exc
            finally:
                self._depth = 0

    def _write_error(self, exc: sqlite3.Error) -> ChatStoreError:
        kind = _failure_kind(exc, None if self.path == MEMORY else Path(self.path))
        if kind == FULL:
            return ChatStoreError(words(DISK_FULL, path=self.path), kind)
        if kind == READ_ONLY_KIND:
            return ChatStoreError(words(READ_ONLY, path=self.path), kind)
        return ChatStoreError(words(CANNOT_SAVE, error=str(exc)))

    def _read(self, sql: str, params: Sequence = ()) -> list[tuple]:
        with self._lock:
            try:
                return self._db.execute(sql, [_readable(p) for p in params]).fetchall()
            except sqlite3.Error as exc:
                raise ChatStoreError(words(CANNOT_READ, error=str(exc))) from exc

    # Conversations -------------------------------------------------------------------------

    def create(self, title: str, *, system_prompt: str = "") -> int:
        now = time.time()
        with self._write() as db:
            cur = db.execute(
                "INSERT INTO chats (title, created_at, updated_at, system_prompt) "
                "VALUES (CAST(? AS TEXT), ?, ?, CAST(? AS TEXT))",
                (_bindable(title), now, now, _bindable(system_prompt)))
            return _row_id(cur)

    def rename(self, chat_id: int, title: str, *, by_user: bool = True) -> None:
        """A new title; `by_user`: the person chose it, so an edited first question no longer
        changes it."""
        with self._write() as db:
            db.execute("UPDATE chats SET title = CAST(? AS TEXT), renamed = MAX(renamed, ?) "
                       "WHERE id = ?", (_bindable(title), int(by_user), chat_id))

    def set_pinned(self, chat_id: int, pinned: bool) -> None:
        with self._write() as db:
            db.execute("UPDATE chats SET pinned = ? WHERE id = ?", (int(pinned), chat_id))

    def set_system_prompt(self, chat_id: int, text: str) -> None:
        with self._write() as db:
            db.execute("UPDATE chats SET system_prompt = CAST(? AS TEXT) WHERE id = ?",
                       (_bindable(text), chat_id))

    def set_dropped_turns(self, chat_id: int, n: int) -> None:
        with self._write() as db:
            db.execute("UPDATE chats SET dropped_turns = ? WHERE id = ?", (n, chat_id))

    def delete(self, chat_id: int) -> None:
        """Hide a chat from the list and search; `restore` brings it back until
        `purge_deleted` removes it for good (the store does on opening)."""
        with self._write() as db:
            db.execute("UPDATE chats SET deleted_at = ? WHERE id = ?", (time.time(), chat_id))

    def remove(self, chat_id: int) -> None:
        """Remove a chat and its messages now, without an undo."""
        with self._write() as db:
            db.execute("DELETE FROM chats WHERE id = ?", (chat_id,))

    def restore(self, chat_id: int) -> None:
        with self._write() as db:
            db.execute("UPDATE chats SET deleted_at = NULL WHERE id = ?", (chat_id,))

    def purge_deleted(self) -> int:
        """Remove deleted chats and their messages; returns how many chats went."""
        with self._write() as db:
            return db.execute("DELETE FROM chats WHERE deleted_at IS NOT NULL").rowcount

    def chat(self, chat_id: int) -> ChatSummary | None:
        rows = self._read(f"SELECT {_SUMMARY} FROM chats WHERE id = ?", (chat_id,))
        return _summary(rows[0]) if rows else None

    def list(self) -> builtins.list[ChatSummary]:
        """Every conversation, pinned ones first, then the most recently active first (no
        messages: cheap for long lists)."""
        rows = self._read(f"SELECT {_SUMMARY} FROM chats WHERE deleted_at IS NULL "
                          "ORDER BY pinned DESC, updated_at DESC, id DESC")
        return [_summary(row) for row in rows]

    def search(self, text: str, limit: int = 200) -> builtins.list[SearchHit]:
        """Messages of every chat (all versions) that contain all the words of `text` (each
        also as the start of a longer word), the best match first, at most one per chat."""
        query = fts_query(text)
        if not query:
            return []
        rows = self._read(
            "SELECT c.id, c.title, m.id, snippet(messages_fts, 0, '[', ']', '…', 12) "
            "FROM messages_fts JOIN messages m ON m.id = messages_fts.rowid "
            "JOIN chats c ON c.id = m.chat_id "
            "WHERE messages_fts MATCH ? AND c.deleted_at IS NULL ORDER BY rank LIMIT ?",
            (query, limit * 4))
        hits: dict[int, SearchHit] = {}
        for chat_id, title, message_id, snippet in rows:
            hits.setdefault(chat_id, SearchHit(chat_id, title, message_id, snippet))
        return builtins.list(hits.values())[:limit]

    # Messages ------------------------------------------------------------------------------

    def add_user(self, chat_id: int, text: str, *, parent_id: int | None = AFTER_LAST) -> int:
        return self._insert(chat_id, parent_id, role="user", text=text)

    def add_answer(self, chat_id: int, text: str, *, tokens: Mapping[str, Sequence] | None = None,
                   **fields: Any) -> int:
        """A whole answer at once (see `save_answer` for the fields)."""
        message_id = self.save_answer(chat_id, None, text, **fields)
        if tokens is not None:
            self.append_tokens(message_id, 0, tokens)
        return message_id

    def save_answer(self, chat_id: int, message_id: int | None, text: str, *,
                    model_name: str = "", spec_type: str = "", n_draft_max: int = 0,
                    stop_reason: str | None = None,
                    stats: Mapping[str, Any] | None = None,
                    settings: Mapping[str, Any] | None = None,
                    parent_id: int | None = AFTER_LAST,
                    tokens: Mapping[str, Sequence] | None = None) -> int:
        """Add an answer (after `parent_id`, by default after the last message shown), or
        update the one saved as `message_id` (an answer is saved while it is being written, so
        a crash keeps what was written); `tokens`: the ones that came since the last save,
        added in the same transaction, so the text and the tokens saved always go together.
        Returns its id."""
        blobs = _pack_chunks(tokens) if tokens is not None else []
        values: dict[str, Any] = dict(
            role="assistant", text=text, model_name=model_name, spec_type=spec_type,
            n_draft_max=n_draft_max, stop_reason=stop_reason,
            stats=json.dumps(dict(stats), ensure_ascii=False) if stats is not None else None,
            settings=(json.dumps(dict(settings), ensure_ascii=False)
                      if settings is not None else None))
        sets = ", ".join(f"{name} = {_mark(name)}" for name in values)  # our names, not data
        with self._write() as db:
            if message_id is None:
                message_id = _insert_in(db, chat_id, parent_id, **values)
            else:
                db.execute(f"UPDATE messages SET {sets} WHERE id = ?",
                           (*map(_bindable, values.values()), message_id))
                db.execute("UPDATE chats SET updated_at = ? "
                           "WHERE id = (SELECT chat_id FROM messages WHERE id = ?)",
                           (time.time(), message_id))
            _append_in(db, message_id, blobs)
        return message_id

    def append_tokens(self, message_id: int, start: int,
                      tokens: Mapping[str, Sequence]) -> int:
        """Save the answer's tokens from index `start` on (the tokens before it are saved
        already), in chunks packed before the lock is taken; returns how many were added."""
        n = len(tokens["text"])
        blobs = _pack_chunks(tokens)
        if not blobs:
            return 0
        with self._write() as db:
            _append_in(db, message_id, blobs)
        log.debug("message %d: tokens %d..%d saved", message_id, start, start + n)
        return n

    def _insert(self, chat_id: int, parent_id: int | None, *,
                created_at: float | None = None, chosen: bool = True, **values: Any) -> int:
        with self._write() as db:
            return _insert_in(db, chat_id, parent_id, created_at=created_at, chosen=chosen,
                              **values)

    def choose(self, message_id: int) -> None:
        """Show this version of a message (and, below it, the versions last shown there)."""
        with self._write() as db:
            db.execute("UPDATE messages SET chosen = (id = ?) WHERE chat_id = "
                       "(SELECT chat_id FROM messages WHERE id = ?) AND parent_id IS "
                       "(SELECT parent_id FROM messages WHERE id = ?)",
                       (message_id, message_id, message_id))

    def delete_message(self, message_id: int) -> None:
        """Remove a message and every message that follows it."""
        with self._write() as db:
            db.execute("DELETE FROM messages WHERE id = ?", (message_id,))

    # `builtins.list`: inside the class, `list` names the method above
    def load(self, chat_id: int, *, all_versions: bool = False) -> builtins.list[StoredMessage]:
        """A conversation's messages: the versions shown, in order (all of them in the order
        they were written when `all_versions`)."""
        rows = self._read(
            "SELECT id, role, text, created_at, model_name, spec_type, n_draft_max, "
            "stop_reason, stats, tokens, parent_id, chosen, settings FROM messages "
            "WHERE chat_id = ? ORDER BY id", (chat_id,))
        if not all_versions:
            shown = set(_shown_path([(r[0], r[10], r[11]) for r in rows]))
            rows = [r for r in rows if r[0] in shown]
        chunks: dict[int, builtins.list[bytes]] = {}
        for mid, blob in self._read(
                "SELECT t.message_id, t.tokens FROM answer_tokens t JOIN messages m "
                "ON m.id = t.message_id WHERE m.chat_id = ? ORDER BY t.message_id, t.seq",
                (chat_id,)):
            chunks.setdefault(mid, []).append(blob)
        messages = []
        for (mid, role, text, created, model, spec, k, stop, stats, tokens, parent, chosen,
             settings) in rows:
            base = dict(id=mid, role=role, text=text, created_at=created, model_name=model,
                        spec_type=spec, n_draft_max=k, stop_reason=stop, parent_id=parent,
                        chosen=bool(chosen))
            try:
                blobs = chunks.get(mid) or ([tokens] if tokens is not None else [])
                messages.append(StoredMessage(
                    **base, stats=json.loads(stats) if stats is not None else None,
                    settings=json.loads(settings) if settings is not None else None,
                    tokens=_join_tokens([unpack_tokens(b) for b in blobs]) if blobs else None))
            except (ValueError, zlib.error, TypeError) as exc:
                log.warning("chat %d: message %d has unreadable data (%s); text only",
                            chat_id, mid, exc)
                messages.append(StoredMessage(**base))
        return messages

    def import_messages(self, chat_id: int, messages: Sequence[StoredMessage]) -> dict[int, int]:
        """Add messages as they were (order, versions, times, tokens) to a chat; their
        `parent_id`s name messages earlier in `messages`. Returns old id -> new id."""
        ids: dict[int, int] = {}
        for m in messages:
            parent = ids[m.parent_id] if m.parent_id is not None else None
            values: dict[str, Any] = dict(role=m.role, text=m.text)
            if m.role == "assistant":
                values.update(
                    model_name=m.model_name, spec_type=m.spec_type, n_draft_max=m.n_draft_max,
                    stop_reason=m.stop_reason,
                    stats=json.dumps(m.stats, ensure_ascii=False) if m.stats is not None
                    else None,
                    settings=json.dumps(m.settings, ensure_ascii=False)
                    if m.settings is not None else None)
            new = self._insert(chat_id, parent, created_at=m.created_at, chosen=m.chosen,
                               **values)
            if m.tokens is not None:
                self.append_tokens(new, 0, m.tokens)
            ids[m.id] = new
        return ids


_SUMMARY = ("id, title, created_at, updated_at, pinned, renamed, system_prompt, "
            "dropped_turns")


def _summary(row: tuple) -> ChatSummary:
    cid, title, created, updated, pinned, renamed, system_prompt, dropped = row
    return ChatSummary(cid, title, created, updated, bool(pinned), bool(renamed), system_prompt,
                       dropped)


def _shown_path(rows: Sequence[tuple[int, int | None, int]]) -> list[int]:
    """The ids of the messages shown: from the first, each time the chosen child (the latest
    when none is marked). `rows`: (id, parent_id, chosen) in id order."""
    children: dict[int | None, list[tuple[int, int]]] = {}
    for mid, parent_id, chosen in rows:
        children.setdefault(parent_id, []).append((mid, chosen))
    path: list[int] = []
    parent: int | None = None
    while True:
        kids = children.get(parent)
        if not kids:
            break
        parent = next((mid for mid, chosen in reversed(kids) if chosen), kids[-1][0])
        path.append(parent)
    return path


def _last_shown(db: sqlite3.Connection, chat_id: int) -> int | None:
    path = _shown_path(db.execute("SELECT id, parent_id, chosen FROM messages WHERE chat_id = ? "
                                  "ORDER BY id", (chat_id,)).fetchall())
    return path[-1] if path else None


def fts_query(text: str) -> str:
    """A person's search words as an FTS5 query: every word, each as a quoted prefix, so no
    character of theirs is read as query syntax."""
    words = [w for w in text.split() if any(c.isalnum() for c in w)]
    return " ".join('"' + w.replace('"', '""') + '"*' for w in words)


def _insert_in(db: sqlite3.Connection, chat_id: int, parent_id: int | None, *,
               created_at: float | None = None, chosen: bool = True, **values: Any) -> int:
    """A new message (inside a transaction), the shown version among its siblings when
    `chosen`."""
    now = time.time()
    if parent_id == AFTER_LAST:
        parent_id = _last_shown(db, chat_id)
    values.update(chat_id=chat_id, parent_id=parent_id, chosen=int(chosen),
                  created_at=now if created_at is None else created_at)
    if chosen:
        db.execute("UPDATE messages SET chosen = 0 WHERE chat_id = ? AND parent_id IS ?",
                   (chat_id, parent_id))
    names = ", ".join(values)  # our own keyword names, never user data
    marks = ", ".join(_mark(name) for name in values)
    cur = db.execute(f"INSERT INTO messages ({names}) VALUES ({marks})",
                     tuple(map(_bindable, values.values())))
    db.execute("UPDATE chats SET updated_at = ? WHERE id = ?", (now, chat_id))
    return _row_id(cur)


def _pack_chunks(tokens: Mapping[str, Sequence]) -> list[bytes]:
    """Token columns packed in chunks (before any lock is taken): see TOKENS_PER_CHUNK."""
    return [pack_tokens({name: tokens[name][i:j] for name in tokens})
            for i, j in chunk_bounds(tokens)]


def chunk_bounds(tokens: Mapping[str, Sequence]) -> list[tuple[int, int]]:
    """[start, end) of each chunk: at most TOKENS_PER_CHUNK tokens and, past its first
    token, CHUNK_TEXT_BYTES of text, inspection records and trees. Found on running sums of
    the tokens' weights (a bisection a chunk, not a Python step a token: the save's thread
    holds the GIL the window needs)."""
    n = len(tokens["text"])
    weights = list(map(len, tokens["text"]))
    for name in RAW_FIELDS:  # the columns of text beside each token's own
        column = tokens.get(name)
        if column:
            weights = [w + len(r) if isinstance(r, str) else w
                       for w, r in zip(weights, column, strict=True)]
    sums = list(accumulate(weights, initial=0))  # sums[i]: the weight of tokens [0, i)
    bounds, start = [], 0
    while start < n:
        # the first token past `start` that takes the chunk over CHUNK_TEXT_BYTES ends it
        over = bisect_right(sums, sums[start] + CHUNK_TEXT_BYTES, lo=start + 2) - 1
        end = min(over, start + TOKENS_PER_CHUNK, n)
        bounds.append((start, end))
        start = end
    return bounds


def _append_in(db: sqlite3.Connection, message_id: int, blobs: Sequence[bytes]) -> None:
    """Add packed token chunks after the message's others (inside a transaction)."""
    if not blobs:
        return
    (seq,) = db.execute("SELECT COALESCE(MAX(seq) + 1, 0) FROM answer_tokens "
                        "WHERE message_id = ?", (message_id,)).fetchone()
    db.executemany("INSERT INTO answer_tokens (message_id, seq, tokens) VALUES (?, ?, ?)",
                   [(message_id, seq + i, blob) for i, blob in enumerate(blobs)])


# Columns of `messages` holding text: bound through `_bindable`, so cast back to TEXT.
_TEXT_COLUMNS = frozenset({"role", "text", "model_name", "spec_type", "stop_reason", "stats",
                           "settings"})


def _mark(column: str) -> str:
    """The placeholder of a value for `column` in an INSERT or UPDATE of messages."""
    return "CAST(? AS TEXT)" if column in _TEXT_COLUMNS else "?"


def _bindable(value: Any) -> Any:
    """A value as sqlite3 can bind it: text holding a lone surrogate (which UTF-8 cannot
    encode) as its 'surrogatepass' bytes, to be cast to TEXT and read back by
    `_text_from_db`, so it is kept exactly; anything else as it is."""
    if isinstance(value, str) and not value.isascii():
        try:
            value.encode("utf-8")
        except UnicodeEncodeError:
            return value.encode("utf-8", "surrogatepass")
    return value


def _text_from_db(data: bytes) -> str:
    """TEXT as read: UTF-8, with the surrogates `_bindable` wrote; bytes that are not UTF-8
    (a file written by something else) as U+FFFD rather than a failed read."""
    try:
        return data.decode("utf-8", "surrogatepass")
    except UnicodeDecodeError:
        return data.decode("utf-8", "replace")


def _readable(value: Any) -> Any:
    """A query's value with each lone surrogate as U+FFFD (a search need not keep them)."""
    if isinstance(value, str) and _bindable(value) is not value:
        return value.encode("utf-16-le", "surrogatepass").decode("utf-16-le", "replace")
    return value


def _quick_check(db: sqlite3.Connection) -> None:
    check = db.execute("PRAGMA quick_check").fetchone()[0]
    if check != "ok":
        raise sqlite3.DatabaseError(f"integrity check failed: {check}")


def _roll_back(db: sqlite3.Connection) -> None:
    """Undo the open transaction, if SQLite has not already: after a full disk or an I/O
    error it rolls back itself, and a second ROLLBACK's error ("no transaction is active")
    would hide the one that matters."""
    if not db.in_transaction:
        return
    try:
        db.execute("ROLLBACK")
    except sqlite3.Error as exc:
        log.warning("rolling back a failed write: %s", exc)


def _writable(path: Path) -> bool:
    """Whether the database file (when there is one) and its folder (where SQLite keeps the
    journal) may be written, as far as permissions say (root may write either way)."""
    return os.access(path.parent, os.W_OK) and (not path.exists() or os.access(path, os.W_OK))


def _nearly_full(path: Path) -> bool:
    folder = path if path.is_dir() else path.parent
    try:
        return shutil.disk_usage(folder).free < NEARLY_FULL_BYTES
    except OSError:
        return False


def _code(exc: BaseException) -> int | None:
    """SQLite's primary result code of an error (None when it has none)."""
    code = getattr(exc, "sqlite_errorcode", None)
    return code & 0xFF if isinstance(code, int) else None


def _failure_kind(exc: BaseException, path: Path | None) -> str:
    """FULL when `exc` comes of a full disk, READ_ONLY_KIND when of a database that cannot be
    written, else "". `path`: the database, whose disk's room decides for an I/O error."""
    code, text = _code(exc), str(exc)
    if (code == sqlite3.SQLITE_FULL or "database or disk is full" in text
            or (isinstance(exc, OSError) and exc.errno == errno.ENOSPC)):
        return FULL
    if ((code == sqlite3.SQLITE_IOERR or "disk I/O error" in text)
            and path is not None and _nearly_full(path)):
        return FULL
    if code == sqlite3.SQLITE_READONLY or "readonly database" in text:
        return READ_ONLY_KIND
    return ""


def _row_id(cur: sqlite3.Cursor) -> int:
    """The id of the row an INSERT just wrote (always set after one)."""
    assert cur.lastrowid is not None
    return cur.lastrowid


def _join_tokens(parts: list[dict[str, list]]) -> dict[str, list]:
    joined: dict[str, list] = {name: [] for name in TOKEN_FIELDS}
    for part in parts:
        for name in TOKEN_FIELDS:
            joined[name].extend(part[name])
    return joined


def pack_tokens(tokens: Mapping[str, Sequence]) -> bytes:
    """Per-token columns as one compressed JSON document (about 10 bytes a token), the
    RAW_FIELDS that are lines of text after it (see RAW_FIELDS)."""
    n = len(tokens["text"])
    # A column the caller does not have (one added in a later version) is stored empty.
    columns = {name: list(tokens[name]) if name in tokens else [None] * n
               for name in TOKEN_FIELDS}
    if len({len(c) for c in columns.values()}) > 1:
        raise ValueError("token columns differ in length")
    raws = {name: raw for name in RAW_FIELDS if (raw := _raw_column(columns[name])) is not None}
    fields = [name for name in TOKEN_FIELDS if name not in raws]
    doc = {"format": TOKENS_FORMAT, "fields": fields, "raw": list(raws),
           "columns": [columns[name] for name in fields]}
    head = json.dumps(doc, ensure_ascii=False, separators=(",", ":"))
    # a lone surrogate kept as it is; level 1 (a demo answer's inspected tokens: 4.5 µs a
    # token, 122 bytes) against the default 6 (14 µs, 108 bytes), on a core beside the
    # window's and llama.cpp's while an answer streams
    return zlib.compress(_RAW_SEP.join([head.encode("utf-8", "surrogatepass"),
                                        *raws.values()]), 1)


def _raw_column(column: list) -> bytes | None:
    """A column of JSON texts as its lines (None an empty line); None where some value is
    no such line: not text, empty, or holding a newline or NUL (not the engine's JSON: a
    foreign or damaged file's), which then goes in the document."""
    if "" in column:
        return None
    try:
        text = "\n".join([v if v is not None else "" for v in column])
    except TypeError:
        return None
    if text.count("\n") != len(column) - 1 or "\0" in text:
        return None
    return text.encode("utf-8", "surrogatepass")


def unpack_tokens(blob: bytes) -> dict[str, list]:
    head, *raws = zlib.decompress(blob).split(_RAW_SEP)
    doc = json.loads(head.decode("utf-8", "surrogatepass"))
    if doc.get("format") not in (1, TOKENS_FORMAT):
        raise ValueError(f"unknown token format {doc.get('format')!r}")
    columns = dict(zip(doc["fields"], doc["columns"], strict=True))
    n = len(columns.get("text", []))
    names = doc.get("raw", [])
    if not isinstance(names, list) or len(names) != len(raws):
        raise ValueError("damaged token chunk: its raw columns do not match")
    for name, raw in zip(names, raws, strict=True):
        lines = raw.decode("utf-8", "surrogatepass").split("\n")
        if len(lines) != n:
            raise ValueError("damaged token chunk: a raw column's length differs")
        columns[name] = [line or None for line in lines]
    return {name: columns.get(name, [None] * n) for name in TOKEN_FIELDS}

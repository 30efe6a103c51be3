"""Conversations on disk, so chats already written survive a crash.

One SQLite file (stdlib sqlite3, WAL journal) under platformdirs' data directory. Every write
is its own committed transaction with `synchronous=FULL`, so killing the process loses at most
the message being written. Values from users and models only ever travel as query parameters.
An assistant message keeps what is needed to redraw its coloured view: per token id, text,
origin, accepted, step, p_target, p_draft and head, as columns in zlib-compressed JSON chunks
(`answer_tokens`, schema 2: an answer is saved while it streams, a chunk of new tokens at a
time, so no save repacks what was saved before and none holds the GIL long), next to the
stats as JSON. A database that cannot be read is moved aside
(`chats.sqlite3.corrupt-<timestamp>`) and a new one started; `problem` says so in words.
"""

from __future__ import annotations

import builtins
import json
import logging
import sqlite3
import threading
import time
import zlib
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import platformdirs

from backend import APP_NAME

log = logging.getLogger(__name__)

SCHEMA_VERSION = 2  # PRAGMA user_version
TOKENS_FORMAT = 1
# Per-token columns of an assistant message, in the order they are stored.
TOKEN_FIELDS = ("id", "text", "origin", "accepted", "step", "p_target", "p_draft", "head")
# Tokens per stored chunk: packing one is a single json.dumps call holding the GIL for a few
# milliseconds at most, so a save on a background thread never stalls the window.
TOKENS_PER_CHUNK = 4096
MEMORY = ":memory:"


class ChatStoreError(Exception):
    """A read or write the store could not do; the message is meant for the user."""


@dataclass(frozen=True)
class ChatSummary:
    id: int
    title: str
    created_at: float
    updated_at: float


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


# user_version N -> function bringing a version-N database to version N + 1 (0: empty file).
MIGRATIONS: dict[int, Callable[[sqlite3.Connection], None]] = {0: _create_v1,
                                                                1: _add_token_chunks}


class ChatStore:
    """The conversation store; each call is one small transaction. Safe to share between
    threads (the window writes answers from a background thread and reads on its own): one
    lock serialises the calls, and the slow part of saving an answer, packing its tokens, is
    done before the lock is taken."""

    def __init__(self, path: Path | str | None = None) -> None:
        self.path: Path | str = MEMORY if path == MEMORY else Path(path or default_chats_path())
        self.problem: str | None = None  # set when an unreadable database was moved aside
        self._lock = threading.RLock()
        try:
            self._db = self._open()
        except (sqlite3.OperationalError, OSError) as exc:  # locked, no access, disk…: not damage
            message = f"Could not open the chats database {self.path}: {exc}."
            raise ChatStoreError(message) from exc
        except sqlite3.DatabaseError as exc:  # not a database, or a malformed one
            if self.path == MEMORY:
                raise ChatStoreError(f"Could not start a chats database: {exc}.") from exc
            try:
                moved = self._move_aside()
            except OSError as exc2:
                raise ChatStoreError(f"Your saved chats at {self.path} could not be read "
                                     f"({exc}) nor moved aside ({exc2}).") from exc2
            self.problem = (f"Your saved chats could not be read ({exc}). The damaged file was "
                            f"moved to {moved} and a new, empty chat list was started.")
            log.error("%s", self.problem)
            try:
                self._db = self._open()
            except (sqlite3.DatabaseError, OSError) as exc2:
                raise ChatStoreError(f"Could not start a new chats database at {self.path}: "
                                     f"{exc2}") from exc2

    @classmethod
    def in_memory(cls) -> ChatStore:
        """A store that keeps nothing (screenshots, benchmarks)."""
        return cls(MEMORY)

    def _open(self) -> sqlite3.Connection:
        if self.path != MEMORY:
            Path(self.path).parent.mkdir(parents=True, exist_ok=True)
        # Transactions are explicit; the lock, not sqlite3's same-thread check, keeps one
        # call at a time.
        db = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False)
        try:
            if self.path != MEMORY:
                db.execute("PRAGMA journal_mode=WAL")
            db.execute("PRAGMA synchronous=FULL")
            db.execute("PRAGMA foreign_keys=ON")
            check = db.execute("PRAGMA quick_check").fetchone()[0]
            if check != "ok":
                raise sqlite3.DatabaseError(f"integrity check failed: {check}")
            self._migrate(db)
        except BaseException:
            db.close()
            raise
        return db

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
                db.execute("ROLLBACK")
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
    def _write(self) -> Iterator[sqlite3.Connection]:
        """One committed transaction; a failure rolls it back and becomes a ChatStoreError."""
        with self._lock:
            try:
                self._db.execute("BEGIN IMMEDIATE")
                try:
                    yield self._db
                    self._db.execute("COMMIT")
                except BaseException:
                    self._db.execute("ROLLBACK")
                    raise
            except sqlite3.Error as exc:
                raise ChatStoreError(f"Could not save to the chats database: {exc}") from exc

    def _read(self, sql: str, params: Sequence = ()) -> list[tuple]:
        with self._lock:
            try:
                return self._db.execute(sql, params).fetchall()
            except sqlite3.Error as exc:
                raise ChatStoreError(f"Could not read the chats database: {exc}") from exc

    # Conversations -------------------------------------------------------------------------

    def create(self, title: str) -> int:
        now = time.time()
        with self._write() as db:
            cur = db.execute(
                "INSERT INTO chats (title, created_at, updated_at) VALUES (?, ?, ?)",
                (title, now, now))
            return _row_id(cur)

    def rename(self, chat_id: int, title: str) -> None:
        with self._write() as db:
            db.execute("UPDATE chats SET title = ? WHERE id = ?", (title, chat_id))

    def delete(self, chat_id: int) -> None:
        with self._write() as db:
            db.execute("DELETE FROM chats WHERE id = ?", (chat_id,))  # messages cascade

    def list(self) -> list[ChatSummary]:
        """Every conversation's title, newest first (no messages: cheap for long lists)."""
        rows = self._read("SELECT id, title, created_at, updated_at FROM chats "
                          "ORDER BY id DESC")
        return [ChatSummary(*row) for row in rows]

    # Messages ------------------------------------------------------------------------------

    def add_user(self, chat_id: int, text: str) -> int:
        return self._insert(chat_id, role="user", text=text)

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
                    stats: Mapping[str, Any] | None = None) -> int:
        """Add an answer, or update the one saved as `message_id` (an answer is saved while it
        is being written, so a crash keeps what was written). Its tokens are added with
        `append_tokens`. Returns its id."""
        values = dict(
            role="assistant", text=text, model_name=model_name, spec_type=spec_type,
            n_draft_max=n_draft_max, stop_reason=stop_reason,
            stats=json.dumps(dict(stats), ensure_ascii=False) if stats is not None else None)
        if message_id is None:
            return self._insert(chat_id, **values)
        sets = ", ".join(f"{name} = ?" for name in values)  # our own names, never user data
        with self._write() as db:
            db.execute(f"UPDATE messages SET {sets} WHERE id = ?", (*values.values(), message_id))
            db.execute("UPDATE chats SET updated_at = ? "
                       "WHERE id = (SELECT chat_id FROM messages WHERE id = ?)",
                       (time.time(), message_id))
        return message_id

    def append_tokens(self, message_id: int, start: int,
                      tokens: Mapping[str, Sequence]) -> int:
        """Save the answer's tokens from index `start` on (the tokens before it are saved
        already), in chunks packed before the lock is taken; returns how many were added."""
        n = len(tokens["text"])
        blobs = [pack_tokens({name: tokens[name][i:i + TOKENS_PER_CHUNK] for name in tokens})
                 for i in range(0, n, TOKENS_PER_CHUNK)]
        if not blobs:
            return 0
        with self._write() as db:
            (seq,) = db.execute("SELECT COALESCE(MAX(seq) + 1, 0) FROM answer_tokens "
                                "WHERE message_id = ?", (message_id,)).fetchone()
            db.executemany("INSERT INTO answer_tokens (message_id, seq, tokens) VALUES (?, ?, ?)",
                           [(message_id, seq + i, blob) for i, blob in enumerate(blobs)])
        log.debug("message %d: tokens %d..%d saved", message_id, start, start + n)
        return n

    def _insert(self, chat_id: int, **values: Any) -> int:
        now = time.time()
        values["chat_id"] = chat_id
        values["created_at"] = now
        names = ", ".join(values)  # our own keyword names, never user data
        marks = ", ".join("?" * len(values))
        with self._write() as db:
            cur = db.execute(f"INSERT INTO messages ({names}) VALUES ({marks})",
                             tuple(values.values()))
            db.execute("UPDATE chats SET updated_at = ? WHERE id = ?", (now, chat_id))
            return _row_id(cur)

    def delete_message(self, message_id: int) -> None:
        with self._write() as db:
            db.execute("DELETE FROM messages WHERE id = ?", (message_id,))

    # `builtins.list`: inside the class, `list` names the method above
    def load(self, chat_id: int) -> builtins.list[StoredMessage]:
        """A conversation's messages in the order they were written."""
        rows = self._read(
            "SELECT id, role, text, created_at, model_name, spec_type, n_draft_max, "
            "stop_reason, stats, tokens FROM messages WHERE chat_id = ? ORDER BY id",
            (chat_id,))
        chunks: dict[int, list[bytes]] = {}
        for mid, blob in self._read(
                "SELECT t.message_id, t.tokens FROM answer_tokens t JOIN messages m "
                "ON m.id = t.message_id WHERE m.chat_id = ? ORDER BY t.message_id, t.seq",
                (chat_id,)):
            chunks.setdefault(mid, []).append(blob)
        messages = []
        for (mid, role, text, created, model, spec, k, stop, stats, tokens) in rows:
            try:
                blobs = chunks.get(mid) or ([tokens] if tokens is not None else [])
                messages.append(StoredMessage(
                    mid, role, text, created, model, spec, k, stop,
                    json.loads(stats) if stats is not None else None,
                    _join_tokens([unpack_tokens(b) for b in blobs]) if blobs else None))
            except (ValueError, zlib.error, TypeError) as exc:
                log.warning("chat %d: message %d has unreadable data (%s); text only",
                            chat_id, mid, exc)
                messages.append(StoredMessage(mid, role, text, created, model, spec, k, stop))
        return messages


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
    """Per-token columns as one compressed JSON document (about 10 bytes a token)."""
    columns = [list(tokens[name]) for name in TOKEN_FIELDS]
    if len({len(c) for c in columns}) > 1:
        raise ValueError("token columns differ in length")
    doc = {"format": TOKENS_FORMAT, "fields": TOKEN_FIELDS, "columns": columns}
    return zlib.compress(json.dumps(doc, ensure_ascii=False, separators=(",", ":"))
                         .encode("utf-8"))


def unpack_tokens(blob: bytes) -> dict[str, list]:
    doc = json.loads(zlib.decompress(blob).decode("utf-8"))
    if doc.get("format") != TOKENS_FORMAT:
        raise ValueError(f"unknown token format {doc.get('format')!r}")
    columns = dict(zip(doc["fields"], doc["columns"], strict=True))
    n = len(columns.get("text", []))
    return {name: columns.get(name, [None] * n) for name in TOKEN_FIELDS}

"""Saved conversations: a SQLite store under platformdirs' data directory. Qt-free."""

from backend.chats.store import (
    TOKEN_FIELDS,
    ChatStore,
    ChatStoreError,
    ChatSummary,
    StoredMessage,
    default_chats_path,
)

__all__ = ["TOKEN_FIELDS", "ChatStore", "ChatStoreError", "ChatSummary", "StoredMessage",
           "default_chats_path"]

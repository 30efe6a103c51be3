"""Saved conversations: a SQLite store under platformdirs' data directory. Qt-free."""

from backend.chats.store import (
    AFTER_LAST,
    TOKEN_FIELDS,
    TREE_FIELD,
    ChatStore,
    ChatStoreError,
    ChatSummary,
    SearchHit,
    StoredMessage,
    default_chats_path,
)

__all__ = ["AFTER_LAST", "TOKEN_FIELDS", "TREE_FIELD", "ChatStore", "ChatStoreError", "ChatSummary",
           "SearchHit", "StoredMessage", "default_chats_path"]

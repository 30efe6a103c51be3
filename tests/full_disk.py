"""A chats database connection on a disk that fills (tests of the store and of the window)."""

from __future__ import annotations

import sqlite3


class FullDisk:
    """A connection as SQLite behaves when the disk fills while a transaction commits: while
    `full`, a commit rolls the transaction back itself and reports SQLITE_FULL."""

    def __init__(self, db: sqlite3.Connection) -> None:
        self._db = db
        self.full = True

    def execute(self, sql: str, *args):
        if self.full and sql == "COMMIT":
            self._db.execute("ROLLBACK")
            raise sqlite3.OperationalError("database or disk is full")
        return self._db.execute(sql, *args)

    def __getattr__(self, name: str):
        return getattr(self._db, name)

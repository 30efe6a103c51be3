"""The chat store on a hostile disk and with hostile text: a full disk is named as such and a
failed write leaves nothing half-done, text holding lone surrogates comes back exactly, and a
database that cannot be written opens read-only."""

from __future__ import annotations

import os
import sqlite3
from pathlib import Path

import pytest
from full_disk import FullDisk

from backend.chats import TOKEN_FIELDS, ChatStore, ChatStoreError
from backend.chats import store as store_module
from backend.chats.store import FULL, READ_ONLY_KIND
from backend.words import declared_templates

HALF_EMOJI = "\ud83e"  # the first half of 🦙's surrogate pair, as a rejected draft can end


def tokens(texts: list[str]) -> dict[str, list]:
    n = len(texts)
    return {name: (texts if name == "text" else list(range(n)) if name == "id"
                   else ["target"] * n if name == "origin" else [None] * n)
            for name in TOKEN_FIELDS}


@pytest.fixture
def path(tmp_path):
    return tmp_path / "chats.sqlite3"


def chat_with_answer(path: Path) -> tuple[int, int]:
    store = ChatStore(path)
    try:
        chat = store.create("Saved before")
        store.add_user(chat, "what is it?")
        answer = store.add_answer(chat, "it is kept", tokens=tokens([" it", " is", " kept"]))
        return chat, answer
    finally:
        store.close()


# A full disk ---------------------------------------------------------------------------


def test_a_full_disk_is_named_and_a_batch_is_saved_whole_or_not_at_all(path):
    store = ChatStore(path)
    try:
        pages = store._db.execute("PRAGMA page_count").fetchone()[0]
        store._db.execute(f"PRAGMA max_page_count = {pages}")  # the disk is full
        with pytest.raises(ChatStoreError) as failed, store.batch():
            chat = store.create("A long question")
            store.add_user(chat, "long " * 20_000)  # needs pages the database cannot have
        assert failed.value.kind == FULL
        assert str(failed.value) == (f"The disk is full: there is no room to save chats in "
                                     f"{path}.")
        assert store.list() == []  # the chat's row went with its message

        store._db.execute("PRAGMA max_page_count = 1073741823")  # room again
        with store.batch():
            chat = store.create("A long question")
            store.add_user(chat, "long " * 20_000)
        assert [len(m.text) for m in store.load(chat)] == [100_000]
    finally:
        store.close()


def test_a_commit_sqlite_rolled_back_itself_says_the_disk_is_full(path):
    store = ChatStore(path)
    try:
        chat = store.create("kept")
        store._db = FullDisk(store._db)
        with pytest.raises(ChatStoreError, match=r"^The disk is full: ") as failed:
            store.add_user(chat, "lost?")
        assert "rollback" not in str(failed.value)
        assert failed.value.kind == FULL
        store._db.full = False
        store.add_user(chat, "saved")
        assert [m.text for m in store.load(chat)] == ["saved"]
    finally:
        store.close()


def test_a_full_disk_at_start_opens_the_chats_read_only_and_says_so(path, monkeypatch):
    chat, _ = chat_with_answer(path)
    real_connect, real_usage = sqlite3.connect, store_module.shutil.disk_usage
    room = {"free": 0}

    def connect(database, *args, **kwargs):  # SQLite on a full disk: no room for its journal
        db = real_connect(database, *args, **kwargs)
        if kwargs.get("uri") or room["free"]:
            return db
        db.close()
        error = sqlite3.OperationalError("disk I/O error")
        error.sqlite_errorcode = sqlite3.SQLITE_IOERR | (3 << 8)  # SQLITE_IOERR_WRITE
        raise error

    monkeypatch.setattr(store_module.sqlite3, "connect", connect)
    monkeypatch.setattr(store_module.shutil, "disk_usage",
                        lambda p: real_usage(p)._replace(free=room["free"]))
    store = ChatStore(path)
    try:
        assert str(store.problem) == (f"The disk is full: your saved chats in {path} can be "
                                      "read, but nothing new is saved until there is room.")
        assert store.read_only == FULL
        assert [c.title for c in store.list()] == ["Saved before"]
        assert [m.text for m in store.load(chat)] == ["what is it?", "it is kept"]
        with pytest.raises(ChatStoreError, match=r"^The disk is full: ") as failed:
            store.add_user(chat, "and now?")
        assert failed.value.kind == FULL

        room["free"] = 1 << 30  # space freed: the next write opens it for writing
        store.add_user(chat, "and now?")
        assert not store.read_only
        assert [m.text for m in store.load(chat)][-1] == "and now?"
    finally:
        store.close()


def test_a_full_disk_with_no_database_yet_is_said_in_words(path, monkeypatch):
    def connect(database, *args, **kwargs):
        raise sqlite3.OperationalError("disk I/O error")

    monkeypatch.setattr(store_module.sqlite3, "connect", connect)
    real_usage = store_module.shutil.disk_usage
    monkeypatch.setattr(store_module.shutil, "disk_usage",
                        lambda p: real_usage(p)._replace(free=0))
    with pytest.raises(ChatStoreError) as failed:
        ChatStore(path)
    assert failed.value.kind == FULL
    assert str(failed.value) == ("The disk is full: no chats database can be started in "
                                 f"{path.parent}.")


# Lone surrogates -----------------------------------------------------------------------


def test_text_with_lone_surrogates_is_stored_exactly(path):
    odd = f"half an emoji {HALF_EMOJI}, a low half \udc00 and 🦙 whole"
    store = ChatStore(path)
    try:
        chat = store.create(f"title {HALF_EMOJI}", system_prompt=f"be {HALF_EMOJI}")
        store.add_user(chat, odd)
        stats, settings = {"note": odd}, {"stop": [HALF_EMOJI]}
        answer = store.save_answer(chat, None, odd, stats=stats, settings=settings,
                                   tokens=tokens([" half", f" {HALF_EMOJI}", "\udc00"]))
        store.save_answer(chat, answer, odd + "!", stop_reason="eos", stats=stats,
                          settings=settings, tokens=tokens(["!"]))  # again as it streams
        store.rename(chat, f"renamed {HALF_EMOJI}")
        store.close()

        store = ChatStore(path)  # read back from the file, not a cache
        [summary] = store.list()
        assert (summary.title, summary.system_prompt) == (f"renamed {HALF_EMOJI}",
                                                          f"be {HALF_EMOJI}")
        user, saved = store.load(chat)
        assert user.text == odd
        assert saved.text == odd + "!" and saved.stop_reason == "eos"
        assert saved.stats == stats and saved.settings == settings
        assert saved.tokens is not None
        assert saved.tokens["text"] == [" half", f" {HALF_EMOJI}", "\udc00", "!"]
        [hit] = store.search("emoji")  # still found, the half shown as U+FFFD or kept
        assert hit.chat_id == chat
        assert store.search(f"{HALF_EMOJI} whole")  # a search with one does not fail
    finally:
        store.close()
    raw = sqlite3.connect(path)
    try:
        kinds = raw.execute("SELECT DISTINCT typeof(text) FROM messages").fetchall()
        assert kinds == [("text",)]  # TEXT, so the search index reads it
    finally:
        raw.close()


def test_text_that_is_not_utf8_in_someone_elses_file_is_read_with_replacements(path):
    chat, _ = chat_with_answer(path)
    raw = sqlite3.connect(path)
    raw.execute("UPDATE messages SET text = CAST(X'6f6bff21' AS TEXT) WHERE role = 'user'")
    raw.commit()
    raw.close()
    store = ChatStore(path)
    try:
        assert store.load(chat)[0].text == "ok\ufffd!"
    finally:
        store.close()


# A read-only database ------------------------------------------------------------------


def not_writable_under(monkeypatch, folder: Path) -> None:
    """Permissions that forbid writing in `folder` (chmod does not stop root; this does)."""
    real = os.access

    def access(p, mode, *args, **kwargs):
        if mode & os.W_OK and Path(p).is_relative_to(folder):
            return False
        return real(p, mode, *args, **kwargs)

    monkeypatch.setattr(store_module.os, "access", access)


@pytest.mark.parametrize("how", ["file mode 0444", "read-only folder", "refused on trying",
                                 "no shared-memory file"])
def test_a_read_only_database_is_read_and_saving_says_why(path, monkeypatch, how):
    chat, answer = chat_with_answer(path)
    before = path.read_bytes()
    if how == "file mode 0444":
        path.chmod(0o444)
        if os.geteuid() == 0:  # root writes anyway: say what the mode says
            not_writable_under(monkeypatch, path)
    elif how == "read-only folder":
        not_writable_under(monkeypatch, path.parent)
    else:  # permissions allow it, SQLite does not: detected by trying
        real_connect = sqlite3.connect
        no_shm = how == "no shared-memory file"  # a WAL file read where SQLite cannot add one

        def connect(database, *args, **kwargs):
            if not kwargs.get("uri") or (no_shm and "immutable" not in database):
                error = sqlite3.OperationalError("attempt to write a readonly database")
                error.sqlite_errorcode = sqlite3.SQLITE_READONLY
                raise error
            return real_connect(database, *args, **kwargs)

        monkeypatch.setattr(store_module.sqlite3, "connect", connect)
    try:
        store = ChatStore(path)
        try:
            assert store.read_only == READ_ONLY_KIND
            assert str(store.problem) == (f"Your saved chats in {path} are read-only: they can "
                                          "be read, but nothing new is saved.")
            assert [c.title for c in store.list()] == ["Saved before"]
            _, saved = store.load(chat)
            assert saved.tokens is not None
            assert saved.tokens["text"] == [" it", " is", " kept"]
            assert store.search("kept")[0].message_id == answer
            with pytest.raises(ChatStoreError) as failed:
                store.add_user(chat, "more")
            assert str(failed.value) == (f"The chats database {path} is read-only: chats can "
                                         "be read but not saved.")
            assert failed.value.kind == READ_ONLY_KIND
        finally:
            store.close()
    finally:
        path.chmod(0o644)
    assert path.read_bytes() == before


def test_every_new_sentence_is_a_declared_template():
    declared = declared_templates()
    for name in ("DISK_FULL", "DISK_FULL_AT_START", "DISK_FULL_NO_START", "READ_ONLY",
                 "READ_ONLY_AT_START", "READ_ONLY_OLD"):
        assert getattr(store_module, name) in declared


def test_a_read_only_database_in_an_older_format_says_so(tmp_path, monkeypatch):
    path = tmp_path / "chats.sqlite3"
    path.write_bytes((Path(__file__).parent / "data" / "chats-v2.sqlite3").read_bytes())
    not_writable_under(monkeypatch, tmp_path)
    with pytest.raises(ChatStoreError) as failed:
        ChatStore(path)
    assert str(failed.value) == (f"Your saved chats in {path} are read-only and in an older "
                                 "format, which this version reads only after updating it.")

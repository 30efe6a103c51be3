"""The chat store: round trips, order, delete, crash survival, a damaged file moved aside."""

from __future__ import annotations

import signal
import sqlite3
import subprocess
import sys
import textwrap

import pytest

from backend.chats import TOKEN_FIELDS, ChatStore, ChatStoreError
from backend.chats.store import (
    MIGRATIONS,
    SCHEMA_VERSION,
    TOKENS_PER_CHUNK,
    default_chats_path,
    pack_tokens,
)

TRICKY = "Robert'); DROP TABLE chats;-- \"quoted\" <b>bold</b> 🦙👩‍💻 naïve\n\tline 2"


def tokens(n: int = 3) -> dict[str, list]:
    return {
        "id": list(range(100, 100 + n)),
        "text": [" a", " 🦙", "<b>'\""][:n],
        "origin": ["draft", "draft", "target"][:n],
        "accepted": [True, False, True][:n],
        "step": [0, 0, 0][:n],
        "p_target": [0.9, 0.01, None][:n],
        "p_draft": [0.8, 0.7, None][:n],
        "head": [None, 1, None][:n],
    }


@pytest.fixture
def store(tmp_path):
    s = ChatStore(tmp_path / "chats.sqlite3")
    yield s
    s.close()


def test_default_path_is_under_the_sandboxed_data_dir(tmp_path):
    path = default_chats_path()
    assert path.name == "chats.sqlite3"
    assert "xdg_data_home" in str(path)  # tests/conftest.py points XDG_DATA_HOME at a sandbox


def test_round_trip_of_conversations_and_messages(tmp_path, store):
    chat = store.create(TRICKY)
    u = store.add_user(chat, TRICKY)
    stats = {"n_generated": 2, "generation_ms": 12.5, "ttft_ms": 3.0}
    a = store.add_answer(chat, " a<b>'\"", model_name="model 'x' 🦙", spec_type="draft",
                         n_draft_max=4, stop_reason="cancelled", stats=stats, tokens=tokens())
    store.close()

    reopened = ChatStore(tmp_path / "chats.sqlite3")
    try:
        [summary] = reopened.list()
        assert (summary.id, summary.title) == (chat, TRICKY)
        user, answer = reopened.load(chat)
        assert (user.id, user.role, user.text, user.tokens, user.stats) == (
            u, "user", TRICKY, None, None)
        assert (answer.id, answer.role, answer.text) == (a, "assistant", " a<b>'\"")
        assert (answer.model_name, answer.spec_type, answer.n_draft_max, answer.stop_reason) == (
            "model 'x' 🦙", "draft", 4, "cancelled")
        assert answer.stats == stats
        assert answer.tokens == tokens()
        assert tuple(answer.tokens) == TOKEN_FIELDS
    finally:
        reopened.close()


def test_rename_order_and_delete(store):
    first = store.create("first")
    second = store.create("second")
    third = store.create("third")
    store.add_user(first, "hello")  # activity does not reorder: newest created first
    assert [c.title for c in store.list()] == ["third", "second", "first"]
    store.rename(second, "renamed ✓")
    assert [c.title for c in store.list()] == ["third", "renamed ✓", "first"]
    store.delete(first)
    assert [c.id for c in store.list()] == [third, second]
    assert store.load(first) == []  # its messages went with it


def test_delete_message_removes_only_that_one(store):
    chat = store.create("c")
    store.add_user(chat, "q")
    a = store.add_answer(chat, "old", tokens=tokens(), stats={})
    store.delete_message(a)
    store.add_answer(chat, "new", tokens=tokens(1), stats={})
    assert [(m.role, m.text) for m in store.load(chat)] == [("user", "q"), ("assistant", "new")]


def test_long_answer_is_stored_compactly(store):
    n = 20_000
    cols = {"id": list(range(n)), "text": [f" w{i % 12}" for i in range(n)],
            "origin": ["draft" if i % 3 else "target" for i in range(n)],
            "accepted": [i % 5 != 0 for i in range(n)], "step": [i // 4 for i in range(n)],
            "p_target": [0.5] * n, "p_draft": [None] * n, "head": [None] * n}
    chat = store.create("long")
    store.add_answer(chat, "x", tokens=cols)
    blobs = [b for (b,) in store._db.execute("SELECT tokens FROM answer_tokens")]
    assert len(blobs) == -(-n // TOKENS_PER_CHUNK)  # in chunks, each packed on its own
    assert sum(map(len, blobs)) < 10 * n
    assert store.load(chat)[0].tokens == cols


def test_an_answer_saved_as_it_streams_comes_back_whole(store):
    cols = {name: [] for name in TOKEN_FIELDS}
    chat = store.create("streaming")
    message, saved = None, 0
    for part in range(3):  # three saves while streaming, each adding what came since
        for name in TOKEN_FIELDS:
            cols[name].extend([part] * 5000 if name != "text" else [f" t{part}"] * 5000)
        message = store.save_answer(chat, message, "so far", stop_reason="interrupted")
        saved += store.append_tokens(message, saved, {k: v[saved:] for k, v in cols.items()})
    store.save_answer(chat, message, "all of it", stop_reason="eos")
    [answer] = store.load(chat)
    assert (answer.text, answer.stop_reason, saved) == ("all of it", "eos", 15000)
    assert answer.tokens == cols


def test_answers_saved_by_schema_1_still_load(tmp_path):
    path = tmp_path / "v1.sqlite3"
    db = sqlite3.connect(path)
    MIGRATIONS[0](db)
    db.execute("PRAGMA user_version = 1")
    db.execute("INSERT INTO chats VALUES (1, 'old', 0, 0)")
    db.execute("INSERT INTO messages (chat_id, role, text, created_at, tokens) "
               "VALUES (1, 'assistant', 'hi', 0, ?)", (pack_tokens(tokens()),))
    db.commit()
    db.close()
    store = ChatStore(path)
    try:
        assert store.schema_version == SCHEMA_VERSION
        assert store.load(1)[0].tokens == tokens()
    finally:
        store.close()


def written_then_killed(path, writes: str) -> ChatStore:
    """Run `writes` (code using `store`, a ChatStore at `path`) in a process that is killed
    with SIGKILL right after them, then open the store again."""
    script = (f"import os, signal\nfrom backend.chats import ChatStore\n"
              f"store = ChatStore({str(path)!r})\n" + textwrap.dedent(writes)
              + "os.kill(os.getpid(), signal.SIGKILL)\n")
    result = subprocess.run([sys.executable, "-c", script], capture_output=True, timeout=60)
    assert result.returncode == -signal.SIGKILL, result.stderr.decode()
    return ChatStore(path)


def test_a_write_survives_the_process_being_killed_right_after(tmp_path):
    path = tmp_path / "chats.sqlite3"
    store = written_then_killed(path, """
        chat = store.create("before the crash")
        store.add_user(chat, "written 🦙")
    """)
    try:
        assert store.problem is None
        [chat] = store.list()
        assert chat.title == "before the crash"
        assert [m.text for m in store.load(chat.id)] == ["written 🦙"]
    finally:
        store.close()


@pytest.mark.parametrize("finished", [False, True])
def test_an_answer_survives_the_process_being_killed_right_after_it_is_written(tmp_path,
                                                                                finished):
    """As the window saves an answer: its text and first tokens while it streams, then (when
    it ends) the rest of its tokens, its stop reason and stats; killed right after either."""
    path = tmp_path / "chats.sqlite3"
    whole = tokens(3)
    first = {name: values[:2] for name, values in whole.items()}
    rest = {name: values[2:] for name, values in whole.items()}
    store = written_then_killed(path, f"""
        chat = store.create("answered")
        store.add_user(chat, "question")
        answer = store.save_answer(chat, None, "so far", model_name="m", spec_type="draft")
        store.append_tokens(answer, 0, {first!r})
        if {finished!r}:
            store.append_tokens(answer, 2, {rest!r})
            store.save_answer(chat, answer, {TRICKY!r}, model_name="m", spec_type="draft",
                              n_draft_max=4, stop_reason="eos", stats={{"n_generated": 3}})
    """)
    try:
        assert store.problem is None
        [chat] = store.list()
        user, answer = store.load(chat.id)
        assert (user.role, user.text, answer.role) == ("user", "question", "assistant")
        if finished:
            assert (answer.text, answer.stop_reason, answer.n_draft_max) == (TRICKY, "eos", 4)
            assert answer.stats == {"n_generated": 3}
            assert answer.tokens == whole
        else:
            assert (answer.text, answer.stop_reason, answer.stats) == ("so far", None, None)
            assert answer.tokens == first
    finally:
        store.close()


def test_a_corrupt_file_is_moved_aside_with_a_message(tmp_path):
    path = tmp_path / "chats.sqlite3"
    path.write_bytes(b"this is not a database" * 100)
    store = ChatStore(path)
    try:
        assert store.problem and "could not be read" in store.problem
        [moved] = tmp_path.glob("chats.sqlite3.corrupt-*")
        assert str(moved) in store.problem
        assert moved.read_bytes().startswith(b"this is not a database")
        assert store.list() == []
        chat = store.create("fresh start")  # and the new one works
        assert [c.id for c in store.list()] == [chat]
    finally:
        store.close()


def test_schema_version_is_set_and_kept(tmp_path, store):
    assert store.schema_version == SCHEMA_VERSION >= 1
    db = sqlite3.connect(tmp_path / "chats.sqlite3")
    try:
        assert db.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
        assert db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    finally:
        db.close()


def test_in_memory_store_keeps_nothing_on_disk(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    store = ChatStore.in_memory()
    store.add_user(store.create("t"), "x")
    store.close()
    assert list(tmp_path.iterdir()) == []


def test_a_store_that_cannot_be_opened_says_so_and_moves_nothing(tmp_path):
    path = tmp_path / "chats.sqlite3"
    path.mkdir()  # not damage: nothing to move aside
    with pytest.raises(ChatStoreError, match="Could not open"):
        ChatStore(path)
    assert path.is_dir() and list(tmp_path.glob("*.corrupt-*")) == []

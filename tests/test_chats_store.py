"""The chat store: round trips, order, delete, crash survival, a damaged file moved aside."""

from __future__ import annotations

import json
import os
import random
import secrets
import shutil
import signal
import sqlite3
import subprocess
import sys
import textwrap
import time
import zlib
from pathlib import Path

import pytest

from backend.chats import TOKEN_FIELDS, ChatStore, ChatStoreError
from backend.chats.store import (
    CHUNK_TEXT_BYTES,
    MIGRATIONS,
    SCHEMA_VERSION,
    TOKENS_PER_CHUNK,
    UNDO_S,
    chunk_bounds,
    default_chats_path,
    pack_tokens,
    unpack_tokens,
)

TRICKY = "Robert'); DROP TABLE chats;-- \"quoted\" <b>bold</b> 🦙👩‍💻 naïve\n\tline 2"


def tokens(n: int = 3) -> dict[str, list]:
    """Token columns as the store gives them back (every TOKEN_FIELDS name)."""
    given = {
        "id": list(range(100, 100 + n)),
        "text": [" a", " 🦙", "<b>'\""][:n],
        "origin": ["draft", "draft", "target"][:n],
        "accepted": [True, False, True][:n],
        "step": [0, 0, 0][:n],
        "p_target": [0.9, 0.01, None][:n],
        "p_draft": [0.8, 0.7, None][:n],
        "head": [None, 1, None][:n],
    }
    return {name: given.get(name, [None] * n) for name in TOKEN_FIELDS}


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
    assert [c.title for c in store.list()] == ["third", "second", "first"]
    store.add_user(first, "hello")  # the most recently active first
    assert [c.title for c in store.list()] == ["first", "third", "second"]
    store.rename(second, "renamed ✓")
    assert [c.title for c in store.list()] == ["first", "third", "renamed ✓"]
    assert store.chat(second).renamed and not store.chat(first).renamed
    store.set_pinned(second, True)  # pinned ones above all others
    assert [c.title for c in store.list()] == ["renamed ✓", "first", "third"]
    store.delete(first)
    assert [c.id for c in store.list()] == [second, third]
    assert store.purge_deleted() == 1
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
    loaded = store.load(chat)[0].tokens
    assert {name: loaded[name] for name in cols} == cols


def test_tokens_with_inspection_records_are_packed_in_smaller_chunks(store):
    """A token with the inspector's record weighs ~50 bare ones: chunks end on their text's
    size, so packing one (a json.dumps holding the GIL) stays as short as a bare chunk's."""
    n = 3000
    record = '{"rule":"greedy","top_p":[[1,"x",0.5]]}' * 12  # ~500 bytes, as the engine's
    cols = {"id": list(range(n)), "text": [f" w{i % 12}" for i in range(n)],
            "origin": ["draft"] * n, "accepted": [True] * n, "step": list(range(n)),
            "p_target": [0.5] * n, "p_draft": [0.4] * n, "head": [None] * n,
            "inspection": [record] * n}
    bounds = chunk_bounds(cols)
    assert len(bounds) > 1 and n < TOKENS_PER_CHUNK  # by size, not by count
    assert all(sum(len(cols["inspection"][i]) + len(cols["text"][i]) for i in range(a, b))
               <= CHUNK_TEXT_BYTES for a, b in bounds)
    assert [a for a, _ in bounds[1:]] == [b for _, b in bounds[:-1]] and bounds[-1][1] == n
    chat = store.create("inspected")
    store.add_answer(chat, "x", tokens=cols)
    blobs = [b for (b,) in store._db.execute("SELECT tokens FROM answer_tokens")]
    assert len(blobs) == len(bounds)
    assert store.load(chat)[0].tokens == {**cols, "tree": [None] * n}  # no tree steps


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


def inspected(records: list) -> dict[str, list]:
    n = len(records)
    cols = {name: [None] * n for name in TOKEN_FIELDS}
    cols.update(id=list(range(n)), text=[f" w{i}" for i in range(n)], origin=["draft"] * n,
                accepted=[True] * n, step=list(range(n)), inspection=records)
    return cols


def test_inspection_records_are_kept_as_lines_after_the_document_exactly():
    """The records (the engine's JSON text) are stored as their own lines, not escaped again
    inside the document: they come back character for character, a missing one as None."""
    records = ['{"rule":"sampled","p":0.5,"top":[[1,"\\"x\\"",0.25]]}', None,
               '{"t":"naïve 🦙 \\u2028 \ud800"}', '{}']
    cols = inspected(records)
    blob = pack_tokens(cols)
    head = zlib.decompress(blob).split(b"\0")[0]
    assert "inspection" in json.loads(head)["raw"]  # not among the document's columns
    assert b"rule" not in head
    assert unpack_tokens(blob) == cols


@pytest.mark.parametrize("odd", ["line one\nline two", "", "nul \0 inside", 7, ["a"]])
def test_a_record_that_is_no_line_of_text_goes_in_the_document_and_comes_back(odd):
    """A foreign or damaged file's record (a newline, nothing, a NUL, no text at all) cannot
    be a line: its column is stored in the document, as before, and read back the same."""
    cols = inspected(['{"a":1}', odd, None])
    blob = pack_tokens(cols)
    doc = json.loads(zlib.decompress(blob).split(b"\0")[0])
    assert "inspection" not in doc["raw"] and "inspection" in doc["fields"]
    assert unpack_tokens(blob) == cols


def test_chunks_of_the_first_token_format_still_read():
    cols = inspected(['{"a":1}', None, '{"b":"\\"q\\""}'])
    doc = {"format": 1, "fields": list(TOKEN_FIELDS), "columns": [cols[f] for f in TOKEN_FIELDS]}
    blob = zlib.compress(json.dumps(doc, separators=(",", ":")).encode())
    assert unpack_tokens(blob) == cols


@pytest.mark.parametrize("damage", [
    lambda data: data + b"\0extra",  # a raw column the document does not name
    lambda data: data.rsplit(b"\0", 1)[0],  # a named raw column missing
    lambda data: data + b"\nmore",  # a raw column longer than the others
])
def test_a_damaged_chunk_is_refused_not_misread(damage):
    blob = pack_tokens(inspected(['{"a":1}', None, '{"b":2}']))
    with pytest.raises(ValueError):
        unpack_tokens(zlib.compress(damage(zlib.decompress(blob))))


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
        assert store.problem and "could not be read" in str(store.problem)
        [moved] = tmp_path.glob("chats.sqlite3.corrupt-*")
        assert str(moved) in str(store.problem)
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


# Schema 3: versions, search, undo, migration --------------------------------------------

V2_DATABASE = Path(__file__).parent / "data" / "chats-v2.sqlite3"


def test_a_v2_database_from_the_last_release_opens_and_is_migrated(tmp_path):
    """tests/data/chats-v2.sqlite3 was written by the store of the release before schema 3
    (a finished coloured answer, a question after it, and an interrupted answer)."""
    path = tmp_path / "chats.sqlite3"
    shutil.copy(V2_DATABASE, path)
    db = sqlite3.connect(path)
    assert db.execute("PRAGMA user_version").fetchone()[0] == 2
    db.close()
    store = ChatStore(path)
    try:
        assert (store.problem, store.schema_version) == (None, SCHEMA_VERSION)
        assert [c.title for c in store.list()] == ["An armadillo question", "Count to three"]
        counting = store.list()[1]
        assert (counting.pinned, counting.renamed, counting.system_prompt) == (False, False, "")
        user, answer, again = store.load(counting.id)
        assert [m.text for m in (user, answer, again)] == ["Count to three", " one two three",
                                                           "And again"]
        assert (user.parent_id, answer.parent_id, again.parent_id) == (None, user.id, answer.id)
        assert answer.tokens["text"] == [" one", " two", " Xfour", " three"]
        assert answer.tokens["accepted"] == [True, True, False, True]
        assert (answer.stop_reason, answer.n_draft_max, answer.settings) == ("eos", 4, None)
        [hit] = store.search("armadillo is")  # the old answer is in the new index
        assert hit.title == "An armadillo question" and "[armadillo]" in hit.snippet
        partial = store.load(hit.chat_id)[1]
        assert (partial.stop_reason, partial.tokens["text"]) == ("interrupted", [" one", " two"])
        store.add_user(counting.id, "new after migration")  # writes go on from the old path
        assert store.load(counting.id)[-1].parent_id == again.id
    finally:
        store.close()


def test_regenerated_and_edited_messages_stay_as_versions(store):
    chat = store.create("c")
    q = store.add_user(chat, "question")
    a1 = store.add_answer(chat, "first answer", tokens=tokens(2), settings={"temperature": 0})
    a2 = store.add_answer(chat, "second answer", tokens=tokens(3), parent_id=q)  # regenerate
    assert [m.text for m in store.load(chat)] == ["question", "second answer"]
    q2 = store.add_user(chat, "edited question", parent_id=None)  # edit of the first message
    a3 = store.add_answer(chat, "answer to the edit")
    assert [m.id for m in store.load(chat)] == [q2, a3]
    store.choose(q)  # back to the first question: its answer last shown comes with it
    assert [m.id for m in store.load(chat)] == [q, a2]
    store.choose(a1)
    shown = store.load(chat)
    assert [m.id for m in shown] == [q, a1]
    assert shown[1].tokens == tokens(2) and shown[1].settings == {"temperature": 0}
    every = store.load(chat, all_versions=True)
    assert [(m.id, m.parent_id, m.chosen) for m in every] == [
        (q, None, True), (a1, q, True), (a2, q, False), (q2, None, False), (a3, q2, True)]
    store.delete_message(q)  # a message goes with what follows it
    assert [m.id for m in store.load(chat, all_versions=True)] == [q2, a3]


def test_search_finds_words_of_old_answers_in_every_chat(store):
    old = store.create("old chat")
    store.add_user(old, "tell me something")
    store.add_answer(old, "The quick brown fox jumps over the lazy dog.")
    new = store.create("new chat")
    store.add_user(new, "Naïve question about foxes")
    answer = store.save_answer(new, None, "streaming")
    store.save_answer(new, answer, "streaming about a pangolin")  # the index follows updates
    assert [h.chat_id for h in store.search("lazy")] == [old]
    assert [h.chat_id for h in store.search("LAZY dog")] == [old]
    assert {h.chat_id for h in store.search("fox")} == {old, new}  # fox, foxes
    assert [h.chat_id for h in store.search("naive")] == [new]
    assert [h.chat_id for h in store.search("pangolin")] == [new]
    assert store.search("streaming") and not store.search("streamingx")
    for hostile in ('"', "NEAR(", "lazy OR", "a*b", "-lazy", "'); DROP TABLE chats;--", ""):
        store.search(hostile)  # never query syntax, never an error
    assert [h.chat_id for h in store.search("lazy OVER")] == [old]  # words, not operators
    store.delete(old)
    assert store.search("lazy") == []
    store.restore(old)
    assert [h.chat_id for h in store.search("lazy")] == [old]
    store.delete_message(store.load(old)[0].id)
    assert store.search("lazy") == []


def test_deleted_chats_are_purged_when_the_store_opens_again(tmp_path):
    path = tmp_path / "chats.sqlite3"
    store = ChatStore(path)
    keep, gone = store.create("keep"), store.create("gone")
    store.add_user(gone, "bye")
    store.delete(gone)
    store.close()
    store = ChatStore(path)  # deleted just now: it can still be brought back
    store.restore(gone)
    assert [c.id for c in store.list()] == [gone, keep]
    store.delete(gone)
    store._db.execute("UPDATE chats SET deleted_at = deleted_at - ?", (UNDO_S + 1,))
    store.close()
    store = ChatStore(path)
    try:
        assert [c.id for c in store.list()] == [keep]
        store.restore(gone)  # too late: it was purged
        assert [c.id for c in store.list()] == [keep]
    finally:
        store.close()


def test_system_prompt_and_dropped_turns_are_kept(store):
    chat = store.create("c", system_prompt="Be brief.")
    assert store.chat(chat).system_prompt == "Be brief."
    store.set_system_prompt(chat, "Be 'kind' 🦙")
    store.set_dropped_turns(chat, 4)
    summary = store.chat(chat)
    assert (summary.system_prompt, summary.dropped_turns) == ("Be 'kind' 🦙", 4)
    store.rename(chat, "automatic", by_user=False)
    assert not store.chat(chat).renamed


# SIGKILL while an answer streams ---------------------------------------------------------

STREAMER = """
import sys
from backend.chats import ChatStore
from backend.stop_reasons import INTERRUPTED

def cols(start, n):
    return {"id": list(range(start, start + n)),
            "text": [f" w{i}" for i in range(start, start + n)],
            "origin": ["draft" if i % 3 else "target" for i in range(start, start + n)],
            "accepted": [i % 5 != 1 for i in range(start, start + n)],
            "step": [i // 4 for i in range(start, start + n)],
            "p_target": [0.5] * n, "p_draft": [0.25] * n, "head": [None] * n}

import os
store = ChatStore(sys.argv[1])
chat = store.create("streamed")
def done(*words):  # one write(2) per line: a pipe write under PIPE_BUF is never split
    os.write(1, (" ".join(map(str, words)) + "\\n").encode())
for turn in range(3):  # finished turns, saved as the window saves them
    q = store.add_user(chat, f"question {turn}")
    done("user", q, turn)
    n = 40 + turn
    a = store.save_answer(chat, None, "".join(cols(0, 20)["text"]), stop_reason=INTERRUPTED,
                          tokens=cols(0, 20))
    store.save_answer(chat, a, "".join(cols(0, n)["text"]), model_name="m", spec_type="draft",
                      n_draft_max=4, stop_reason="eos", stats={"n_generated": n},
                      tokens=cols(20, n - 20))
    done("answer", a, n)
q = store.add_user(chat, "the last question")
done("user", q, 3)
answer, saved = None, 0
for step in range(60):  # the answer being written: its text and new tokens every step
    text = "".join(cols(0, saved + 7)["text"])
    answer = store.save_answer(chat, answer, text, model_name="m", spec_type="draft",
                               n_draft_max=4, stop_reason=INTERRUPTED, tokens=cols(saved, 7))
    saved += 7
    done("partial", answer, saved)
done("end")
import time
time.sleep(60)  # killed here at the latest: a kill point after the last write
"""


def test_killed_at_random_points_while_streaming_an_answer(tmp_path):
    """A process writing as the window writes is killed with SIGKILL 20 times at random
    points (seeded per run; DRAFTLIGHT_KILL_SEED repeats one): the store opens every time,
    every message finished before the kill is whole, the partial answer is there, marked
    interrupted, and its text and tokens are a prefix of the answer being written."""
    seed = int(os.environ.get("DRAFTLIGHT_KILL_SEED") or secrets.randbits(32))
    rng = random.Random(seed)
    print(f"SIGKILL points seeded with DRAFTLIGHT_KILL_SEED={seed}")
    whole = [f" w{i}" for i in range(7 * 60)]
    for run in range(20):
        where = f"run {run}, DRAFTLIGHT_KILL_SEED={seed}"
        path = tmp_path / f"chats-{run}.sqlite3"
        lines_before_kill = rng.randrange(0, 60 + 8)
        child = subprocess.Popen([sys.executable, "-c", STREAMER, str(path)],
                                 stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        assert child.stdout is not None
        # only whole lines count: readline() returns what is left, unfinished, at EOF
        reported = [child.stdout.readline().decode() for _ in range(lines_before_kill)]
        reported = [line.split() for line in reported if line.endswith("\n")]
        time.sleep(rng.random() * 0.004)  # anywhere in the next write, or between two
        child.send_signal(signal.SIGKILL)
        out, err = child.communicate(timeout=60)
        assert child.returncode == -signal.SIGKILL, f"{where}: {err.decode()}"
        reported += [line.split() for line in out.decode().splitlines(keepends=True)
                     if line.endswith("\n")]
        store = ChatStore(path)
        try:
            assert store.problem is None, where
            messages = {m.id: m for m in store.load(1, all_versions=True)} if store.list() else {}
            partial_tokens = 0
            for kind, *values in reported:
                if kind == "user":
                    assert messages[int(values[0])].text == f"question {values[1]}" or \
                        messages[int(values[0])].text == "the last question", where
                elif kind == "answer":
                    m = messages[int(values[0])]
                    n = int(values[1])
                    assert (m.stop_reason, m.text) == ("eos", "".join(whole[:n])), where
                    assert m.tokens is not None and m.tokens["text"] == whole[:n], where
                    assert m.stats == {"n_generated": n}, where
                elif kind == "partial":
                    partial_tokens = int(values[1])
            streamed = [m for m in messages.values()
                        if m.role == "assistant" and m.stop_reason != "eos"]
            if partial_tokens:
                [m] = streamed
                assert m.stop_reason == "interrupted", where
                texts = m.tokens["text"] if m.tokens else []
                assert len(texts) >= partial_tokens and texts == whole[:len(texts)], where
                assert m.text == "".join(texts), where  # saved together, never apart
                assert all(len(v) == len(texts) for v in m.tokens.values()), where
            for m in streamed:  # present, even killed before its first tokens: interrupted
                assert m.stop_reason == "interrupted", where
        finally:
            store.close()


def test_a_refused_import_adds_nothing_and_an_export_imports_whole(store):
    from backend.chats.export import ChatImportError, export_json, import_json

    chat = store.create("to export")
    store.add_user(chat, "q")
    store.add_answer(chat, " a", tokens=tokens(2), stats={"n_generated": 2}, settings={"seed": 1})
    doc = export_json(store, chat)
    pending = store.create("deleted, undo still possible")
    store.delete(pending)
    broken = json.loads(json.dumps(doc))
    broken["messages"][1]["tokens"]["text"] = "not a list"
    with pytest.raises(ChatImportError):
        import_json(store, broken)
    broken = json.loads(json.dumps(doc))
    broken["messages"][1]["stats"] = {"bad": object.__name__}
    broken["messages"][1]["created_at"] = "yesterday"  # refused while reading: nothing added
    with pytest.raises(ValueError):
        import_json(store, broken)
    assert [c.id for c in store.list()] == [chat]
    store.restore(pending)
    assert {c.id for c in store.list()} == {chat, pending}
    copy = import_json(store, doc)
    assert [(m.role, m.text, m.tokens, m.settings) for m in store.load(copy)] == [
        (m.role, m.text, m.tokens, m.settings) for m in store.load(chat)]

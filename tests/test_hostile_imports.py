"""Hostile conversation files and traces, read as the window reads them (the file read with
`read_chat_file` / `read_trace`, a conversation then given to `import_json`): each is taken
whole or refused in one sentence a person reads, with nothing stored. Pipes and devices are
refused at once, never read from nor waited on."""

from __future__ import annotations

import json
import os
import threading

import pytest

from backend.chats.export import (
    ChatImportError,
    export_json,
    import_json,
    read_chat,
    read_chat_file,
)
from backend.chats.store import TOKEN_FIELDS, ChatStore
from backend.engine.events import Stats, Verification, verification_to_json
from backend.traces import TraceError, read_trace, write_trace

# Python's own words, which a refusal must never show a person.
PYTHON_WORDS = ("int()", "float()", "argument", "object at 0x", "Traceback", "NoneType",
                "Exceeds the limit", "codec", "Expecting", "unhashable", "subscriptable",
                "recursion")


@pytest.fixture
def store():
    s = ChatStore.in_memory()
    yield s
    s.close()


def one_sentence(message: str) -> str:
    assert message and "\n" not in message, message
    assert not any(w in message for w in PYTHON_WORDS), message
    assert message.rstrip().endswith((".", ")")), message
    return message


def good_chat(store: ChatStore) -> dict:
    """An exported chat: a question and an answer with accepted and rejected drafts, every
    token column filled, an inspection record, stats and settings."""
    chat = store.create("hostile")
    store.add_user(chat, "count")
    record = verification_to_json(Verification("greedy"))
    store.add_answer(
        chat, " one two", model_name="t.gguf", spec_type="draft", n_draft_max=4,
        stop_reason="eos",
        stats={"n_generated": 2, "n_steps": 1, "n_draft_steps": 1, "n_drafted": 2,
               "n_accepted": 1, "generation_ms": 3.5},
        settings={"temperature": 0.0, "top_k": 40, "seed": -1, "max_tokens": 512,
                  "spec_type": "draft", "model_name": "t", "model_path": "/m/t.gguf",
                  "n_ctx": 4096},
        tokens={"id": [5, 6, 7], "text": [" one", " three", " two"],
                "origin": ["draft", "draft", "target"], "accepted": [True, False, True],
                "step": [0, 0, 0], "p_target": [0.9, 0.01, 0.8], "p_draft": [0.7, 0.6, None],
                "head": [None, None, None], "inspection": [record, record, None]})
    doc = json.loads(json.dumps(export_json(store, chat)))
    store.remove(chat)
    return doc


def answer(doc: dict) -> dict:
    return doc["messages"][1]


HOSTILE_CHATS = {
    "stats a list": (lambda d: answer(d).update(stats=[1, 2]), "stats is not an object"),
    "a count that is text": (lambda d: answer(d)["stats"].update(n_generated="2"),
                             "n_generated should be a whole number"),
    "a count of 400 digits": (lambda d: answer(d)["stats"].update(n_drafted=10**400),
                              "n_drafted is a number of 401 digits"),
    "a negative count": (lambda d: answer(d)["stats"].update(n_steps=-3),
                         "n_steps is -3, less than 0"),
    "a NaN time": (lambda d: answer(d)["stats"].update(generation_ms=float("nan")),
                   "generation_ms is nan, not a finite number"),
    "an infinite time": (lambda d: answer(d)["stats"].update(prompt_ms=float("inf")),
                         "prompt_ms is inf, not a finite number"),
    "more accepted than drafted": (lambda d: answer(d)["stats"].update(n_accepted=25),
                                   "more drafts accepted (25) than drafted (2)"),
    "token ids that are text": (lambda d: answer(d)["tokens"].update(id=["5", "6", "7"]),
                                "id[0] should be a whole number"),
    "a probability of 25": (lambda d: answer(d)["tokens"]["p_target"].__setitem__(0, 25.0),
                            "p_target[0] is 25.0"),
    "settings a list": (lambda d: answer(d).update(settings=["temperature", 0.5]),
                        "settings is not an object"),
    "a setting out of its range": (lambda d: answer(d)["settings"].update(seed=2**40),
                                   "seed is 1099511627776"),
    "inspection not JSON": (lambda d: answer(d)["tokens"]["inspection"].__setitem__(0, "{["),
                            "inspection[0] is not a record Draftlight wrote"),
    "inspection of another shape": (
        lambda d: answer(d)["tokens"]["inspection"].__setitem__(0, "[1, 2]"),
        "inspection[0] has 2 items, not 9–10"),
    "columns of two lengths": (lambda d: answer(d)["tokens"]["step"].append(1),
                               "tokens of message 2 are not whole"),
    "text that is not its tokens": (lambda d: answer(d).update(text=" one two; rm -rf ~"),
                                    "text of message 2 is not its tokens' texts"),
    "a huge list": (lambda d: answer(d)["tokens"].update(
        {name: [None] * (1 << 23 | 1) for name in ("head",)}), "more than 8388608"),
    "a role of its own": (lambda d: d["messages"][0].update(role="system"),
                          "role is 'system', not one of"),
    "a parent after it": (lambda d: d["messages"][0].update(parent=1),
                          "Message 1 follows a message that is not before it"),
}


@pytest.mark.parametrize("name", list(HOSTILE_CHATS))
def test_a_hostile_chat_is_refused_in_one_sentence_and_nothing_is_stored(store, tmp_path,
                                                                         name):
    damage, said = HOSTILE_CHATS[name]
    kept = store.create("kept")
    doc = good_chat(store)
    damage(doc)
    path = tmp_path / "chat.json"
    path.write_text(json.dumps(doc))
    with pytest.raises(ChatImportError) as refused:
        import_json(store, read_chat_file(path))
    assert said in one_sentence(str(refused.value))
    assert [c.id for c in store.list()] == [kept]


def test_the_good_chat_imports_whole(store):
    doc = good_chat(store)
    chat = import_json(store, doc)
    back = json.loads(json.dumps(export_json(store, chat)))["messages"]
    for mine, theirs in zip(back, doc["messages"], strict=True):
        stats = mine.pop("stats", None)
        assert stats is None or stats.items() >= theirs.pop("stats").items()
        del mine["created_at"], theirs["created_at"]  # times round through SQLite's REAL
        assert mine == theirs


def test_a_number_of_thousands_of_digits_or_a_deep_nesting_is_refused_in_words(store,
                                                                               tmp_path):
    doc = good_chat(store)
    text = json.dumps(doc).replace('"n_generated": 2', '"n_generated": ' + "9" * 5000)
    (tmp_path / "digits.json").write_text(text)
    with pytest.raises(ChatImportError) as refused:
        import_json(store, read_chat_file(tmp_path / "digits.json"))
    assert "n_generated is a number of 5000 digits" in one_sentence(str(refused.value))

    deep = json.dumps(doc)[:-1] + ', "extra": ' + "[" * 100_000 + "]" * 100_000 + "}"
    (tmp_path / "deep.json").write_text(deep)
    with pytest.raises(ChatImportError) as refused:
        read_chat_file(tmp_path / "deep.json")
    assert "nested too deeply" in one_sentence(str(refused.value))
    assert store.list() == []


def test_an_answer_continued_from_one_without_tokens_exports_and_imports_whole(store):
    chat = store.create("continued")
    store.add_user(chat, "q")
    tokens = {name: [None] for name in TOKEN_FIELDS}
    tokens.update(id=[9], text=[" more"], origin=["target"], accepted=[True], step=[1])
    store.add_answer(chat, "Earlier words and more", tokens=tokens)
    copy = import_json(store, export_json(store, chat))
    (_, again) = store.load(copy)
    assert again.text == "Earlier words and more"
    assert again.tokens["text"] == ["Earlier words and", " more"]
    assert read_chat(export_json(store, copy))  # whole, as exported


def call_with_timeout(fn, *args, timeout_s=10.0):
    """fn(*args) on a thread: (finished, its exception). A read that waits on a pipe leaves
    the thread behind rather than the test."""
    outcome: list = []

    def run():
        try:
            fn(*args)
            outcome.append(None)
        except Exception as exc:  # the outcome under test
            outcome.append(exc)

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    thread.join(timeout_s)
    return (not thread.is_alive()), (outcome[0] if outcome else None)


@pytest.mark.parametrize("reader, error", [(read_trace, TraceError),
                                           (read_chat_file, ChatImportError)])
def test_a_pipe_or_a_device_is_refused_at_once(tmp_path, reader, error):
    fifo = tmp_path / "pipe.json"
    os.mkfifo(fifo)
    for path in (fifo, "/dev/zero", tmp_path):
        finished, exc = call_with_timeout(reader, path)
        assert finished, f"reading {path} did not return"
        assert isinstance(exc, error), exc
        assert "is not a file but a folder, a pipe or a device" in one_sentence(str(exc))


@pytest.mark.parametrize("reader, error", [(read_trace, TraceError),
                                           (read_chat_file, ChatImportError)])
def test_a_file_over_the_limit_is_refused_unread(tmp_path, reader, error):
    big = tmp_path / "big.json"
    with open(big, "wb") as f:  # sparse: no disk used
        f.truncate(300 << 20)
    with pytest.raises(error) as refused:
        reader(big)
    assert "larger than 256 MB" in one_sentence(str(refused.value))


def good_trace(tmp_path) -> dict:
    from backend.engine.events import (
        GenerationFinished,
        GenerationStarted,
        PromptProcessed,
        StepVerified,
        Token,
    )
    from backend.engine.request import GenerationRequest
    from backend.traces import Trace

    record = verification_to_json(Verification("greedy"))
    step = StepVerified(0, (Token(5, " one", "draft", True, 0.9, 0.7, inspection=record),
                            Token(6, " three", "draft", False, 0.01, 0.6)), 1,
                        (Token(5, " one", "draft", True, 0.9, 0.7, inspection=record),
                         Token(7, " two", "target", True, 0.8)), 1.0, 2.0)
    trace = Trace(GenerationRequest(prompt="count"),
                  (GenerationStarted(1, "draft", 4, 3), PromptProcessed(3, 0, 1.0), step,
                   GenerationFinished("eos", " one two", Stats(
                       n_generated=2, n_steps=1, n_draft_steps=1, n_drafted=2,
                       n_accepted=1))), target_model="t.gguf")
    write_trace(tmp_path / "good.json", trace)
    return json.loads((tmp_path / "good.json").read_text())


def step(d: dict) -> dict:
    return d["events"][2]


def finished(d: dict) -> dict:
    return d["events"][3]


HOSTILE_TRACES = {
    "stats a list": (lambda d: finished(d).update(stats=[]), "stats is not an object"),
    "a count that is text": (lambda d: finished(d)["stats"].update(n_steps="1"),
                             "n_steps should be a whole number"),
    "a count of 400 digits": (lambda d: finished(d)["stats"].update(n_generated=10**400),
                              "n_generated is a number of 401 digits"),
    "a negative time": (lambda d: step(d).update(verify_ms=-2.0), "verify_ms is -2.0"),
    "NaN": (lambda d: step(d)["emitted"][1].update(p_target=float("nan")),
            "p_target is nan, not a finite number"),
    "token ids that are text": (lambda d: step(d)["emitted"][1].update(id="7"),
                                "id should be a whole number"),
    "inspection not JSON": (lambda d: step(d)["drafted"][0].update(inspection="nope"),
                            "inspection is not a record Draftlight wrote"),
    "more accepted than drafted": (lambda d: step(d).update(n_accepted=5),
                                   "it accepts 5 drafts"),
    "text that is not its tokens": (lambda d: finished(d).update(text=" one two three"),
                                    "is not its tokens' texts put together"),
    "a template that reads attributes": (
        lambda d: finished(d).update(note={"template": "{k.__class__}", "values": [["k", 1]]}),
        "its sentence is not one Draftlight can fill in"),
    "a template a megabyte wide": (
        lambda d: finished(d).update(note={"template": "{k:>99999999}", "values": [["k", 1]]}),
        "its sentence is not one Draftlight can fill in"),
}


@pytest.mark.parametrize("name", list(HOSTILE_TRACES))
def test_a_hostile_trace_is_refused_in_one_sentence(tmp_path, name):
    damage, said = HOSTILE_TRACES[name]
    d = good_trace(tmp_path)
    damage(d)
    (tmp_path / "bad.json").write_text(json.dumps(d))
    with pytest.raises(TraceError) as refused:
        read_trace(tmp_path / "bad.json")
    message = one_sentence(str(refused.value))
    assert message.startswith("bad.json: ") and said in message, message


def test_a_trace_with_a_note_of_numbers_is_read(tmp_path):
    """K auto's note fills in numbers (a rate with ".0f"): a plain sentence, read back."""
    from backend.engine.adaptive_k import DID_NOT_PAY
    from backend.words import words

    d = good_trace(tmp_path)
    note = words(DID_NOT_PAY, rate=120.5, k=4, plain=80.25, every=16)
    finished(d)["note"] = {"template": note.template, "values": [list(v) for v in note.values]}
    (tmp_path / "note.json").write_text(json.dumps(d))
    assert read_trace(tmp_path / "note.json").events[-1].note == note

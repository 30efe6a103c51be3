"""A load that fails changes nothing: the models held before it are held after it, in the
engine and across the engine process, however the new file fails."""

from __future__ import annotations

import pytest

from backend.engine import crash_hook
from backend.engine.engine import Engine
from backend.engine.errors import EngineCrashed, EngineError, LoadCancelled
from backend.engine.events import GenerationFinished
from backend.engine.remote import EngineProcess
from backend.engine.request import GenerationRequest

COUNT = GenerationRequest(prompt=" zero", max_tokens=6)


def broken_files(tmp_path, models):
    """The kinds of bad file a person opens: the start of a real GGUF, random bytes, text."""
    whole = (models / "count-target.gguf").read_bytes()
    files = {
        "head.gguf": whole[: len(whole) // 2],
        "first-100k.gguf": whole[:100_000],
        "random.gguf": bytes(range(256)) * 400,
        "notes.gguf": b"hello, this is not a model\n",
    }
    for name, data in files.items():
        (tmp_path / name).write_bytes(data)
    return [tmp_path / name for name in files]


def text_of(engine) -> str:
    events = list(engine.generate(COUNT))
    assert isinstance(events[-1], GenerationFinished), events[-1]
    return events[-1].text


@pytest.fixture
def engine(test_models):
    e = Engine()
    e.load_target(test_models / "count-target.gguf", n_ctx=256, n_threads=1)
    e.load_draft(test_models / "count-draft.gguf")
    yield e
    e.close()


def test_a_broken_target_leaves_the_pair_loaded(engine, tmp_path, test_models):
    before = text_of(engine)
    for bad in broken_files(tmp_path, test_models):
        with pytest.raises(EngineError, match=bad.name):
            engine.load_target(bad, n_ctx=256, n_threads=1)
        assert engine.target.path == str(test_models / "count-target.gguf")
        assert engine.draft.path == str(test_models / "count-draft.gguf")
    assert text_of(engine) == before


def test_a_cancelled_target_load_puts_the_pair_back(engine, test_models):
    """Past the checks of the file, into llama.cpp's load, then cancelled: the previous
    target and draft are loaded again, with the context they had."""
    before = text_of(engine)
    with pytest.raises(LoadCancelled):
        engine.load_target(test_models / "count-target-slow.gguf", n_ctx=512, n_threads=1,
                           progress=lambda _fraction: False)
    assert engine.target.path == str(test_models / "count-target.gguf")
    assert engine.draft.path == str(test_models / "count-draft.gguf")
    assert engine.n_ctx == 256
    assert text_of(engine) == before


def test_a_refused_draft_leaves_the_draft_that_worked(engine, tmp_path, test_models):
    for bad in broken_files(tmp_path, test_models):
        with pytest.raises(EngineError):
            engine.load_draft(bad)
        assert engine.draft.path == str(test_models / "count-draft.gguf")
    with pytest.raises(LoadCancelled):
        engine.load_draft(test_models / "count-target-slow.gguf", progress=lambda _f: False)
    assert engine.draft.path == str(test_models / "count-draft.gguf")


def test_across_the_process_a_failed_or_crashing_load_keeps_the_target(
        test_models, tmp_path, monkeypatch):
    hook = tmp_path / "crash.json"
    monkeypatch.setenv(crash_hook.ENV, str(hook))
    far = EngineProcess()
    try:
        far.load_target(test_models / "count-target.gguf", n_ctx=256, n_threads=1)
        far.load_draft(test_models / "count-draft.gguf")
        before = text_of(far)
        bad = broken_files(tmp_path, test_models)[0]
        with pytest.raises(EngineError, match=bad.name):
            far.load_target(bad, n_ctx=256, n_threads=1)
        assert far.target.path == str(test_models / "count-target.gguf")
        assert far.draft.path == str(test_models / "count-draft.gguf")
        # A file that kills the engine while it loads: the restart brings back the pair.
        crash_hook.arm(hook, at="load", match="count-target-slow")
        with pytest.raises(EngineCrashed):
            far.load_target(test_models / "count-target-slow.gguf", n_ctx=256, n_threads=1)
        far.restart()
        assert far.dropped == []
        assert far.target.path == str(test_models / "count-target.gguf")
        assert far.draft.path == str(test_models / "count-draft.gguf")
        assert text_of(far) == before
    finally:
        far.close()

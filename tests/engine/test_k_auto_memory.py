"""K auto's memory: a new engine's first answer starts from what the last engine measured with
the same models, build and threads, and from nothing when any of them changed or the saved
file is damaged; a folder that cannot be written costs only the memory."""

from __future__ import annotations

import json
import os
import shutil

import pytest

from backend.engine.adaptive_k import (
    AUTO_K_CAP,
    EXPLORE_EVERY,
    SINGLE_MAX_AGE,
    AdaptiveK,
)
from backend.engine.engine import Engine
from backend.engine.events import GenerationFinished
from backend.engine.k_auto_memory import KAutoMemory, memory_key, state_of
from backend.engine.request import GenerationRequest
from engine.runner import run

KEY = memory_key(spec_type="draft", target=__file__, draft=None, n_threads=2, n_gpu_layers=0,
                 build={"version": "test"})
KEPT_RUNS = [8, 6, 8, 3, 8, 8, 5, 8]


def trained(draft_ms: float, verify_ms=lambda n: 12.0 + 2.0 * n) -> AdaptiveK:
    """One answer of 32 drafting steps of 8, then three plain ones, at `draft_ms` a drafted
    token and a 10 ms plain step; drafts kept as KEPT_RUNS, with confidences and a prompt
    caught up on, so that every kind of field holds something. At 7 ms a token (and a
    verify batch of 9 at 30 ms) every length is slower than plain decoding: an F16 target
    with a Q4_1 draft, as in test_an_answer_catches_up_on_its_prompt_only_for_a_rate_
    drafting_was_measured_to_reach."""
    c = AdaptiveK(plain_step_ms=10.0, stops=True)
    c.begin_answer(10.0, n_prompt=40)
    behind = 40
    for step in range(32):
        catch_up = 1.0 * behind + 1.5
        c.record(8, KEPT_RUNS[step % 8], catch_up + draft_ms * 8, verify_ms(9),
                 [0.9, 0.35, 0.99] + [0.8] * 5, catch_up)
        c.record_overhead(0.2)
        behind = 0
    for _ in range(3):
        c.record(0, 0, 0.0, 10.0)
    return c


def losing_pair() -> AdaptiveK:
    return trained(7.0)


def answer(c: AdaptiveK, draft_ms: float = 7.0, verify_ms=lambda n: 12.0 + 2.0 * n,
           n: int = 64) -> list[int]:
    """A new answer on a 40-token prompt, its steps costing `draft_ms` a drafted token and
    `verify_ms(n)` a batch of n (10 ms a plain step): the lengths chosen."""
    c.begin_answer(10.0, n_prompt=40)
    ks, behind = [], 40
    for step in range(n):
        k = c.choose(AUTO_K_CAP)
        ks.append(k)
        if k:
            catch_up = 1.0 * behind + 1.5
            c.record(k, min(k, KEPT_RUNS[step % 8]), catch_up + draft_ms * k,
                     verify_ms(k + 1), [0.9] * k, catch_up)
            behind = 0
        else:
            c.record(0, 0, 0.0, 10.0)
            behind += 1
        c.record_overhead(0.2)
    return ks


def test_a_saved_controller_comes_back_as_it_was(tmp_path):
    c = losing_pair()
    assert c.draft_steps and c._by_size and c._prompt_catch_up and c._singles
    memory = KAutoMemory(tmp_path)
    memory.save(KEY, c)
    back = memory.load(KEY, AdaptiveK(stops=True))
    assert back is not None
    before, after = state_of(c), state_of(back)
    # its times may be a busier moment's: the first drafting choice measures a plain step
    # again, and the first drafting step checks the drafting costs
    assert after.pop("_since_single") == max(before.pop("_since_single"), SINGLE_MAX_AGE)
    assert after.pop("_costs_unchecked") and not before.pop("_costs_unchecked")
    assert after == before
    assert type(back.draft_steps[0]) is type(c.draft_steps[0])
    assert back.draft_steps.maxlen == c.draft_steps.maxlen


def test_a_new_engines_first_answer_on_a_losing_pair_starts_plain_and_checks_the_memory(
        tmp_path):
    """Without the memory, every launch's first answer drafts at once, at a loss, while it
    learns; with it, that answer starts where the last one ended, plain, and its first probe
    checks the remembered costs even where the new engine's plain step is as fast as the
    remembered one: a prior, never a verdict (costs kept from a moment of load kept later
    launches plain). They hold here: the answer ends plain, and the next is plain whole."""
    memory = KAutoMemory(tmp_path)
    saved = losing_pair()
    memory.save(KEY, saved)  # its plain steps took 10 ms
    remembered = memory.load(KEY, AdaptiveK(stops=True), plain_step_ms=10.5)
    assert remembered is not None
    ks = answer(remembered)
    assert ks[:EXPLORE_EVERY] == [0] * EXPLORE_EVERY and ks[EXPLORE_EVERY] > 0, ks
    assert ks[-32:] == [0] * 32, ks  # checked, then plain again
    assert not remembered._costs_unchecked
    assert answer(remembered) == [0] * 64
    assert answer(AdaptiveK(stops=True))[0] > 0


@pytest.mark.parametrize("plain_step_ms", [0.0, 8.5, 13.0])
def test_remembered_costs_are_checked_by_the_first_probe_when_the_speed_has_changed(
        tmp_path, plain_step_ms):
    """When the new engine's plain step is more than SAME_SPEED from the remembered one (or
    not known), the remembered costs may be another moment's: the first answer's first probe
    checks them, made whatever they say. Here they hold, and stay."""
    memory = KAutoMemory(tmp_path)
    saved = losing_pair()
    memory.save(KEY, saved)
    remembered = memory.load(KEY, AdaptiveK(stops=True), plain_step_ms)
    assert remembered is not None
    ks = answer(remembered, n=EXPLORE_EVERY + 1)
    assert ks[:EXPLORE_EVERY] == [0] * EXPLORE_EVERY and ks[EXPLORE_EVERY] > 0, ks
    assert not remembered._costs_unchecked
    assert list(remembered.draft_steps)[:-1] == list(saved.draft_steps)[1:]  # checked, kept


def test_remembered_costs_from_a_moment_of_load_are_forgotten_at_the_first_probe(tmp_path):
    """Costs measured while something else loaded the machine (a drafted token at 10 ms where
    it costs 1.5, a plain step at 10 ms where it takes 8) make plain decoding look best, and
    no plain step would ever measure them again; the first answer's probe finds them wrong,
    forgets them, and drafting resumes."""
    cheap_verify = lambda n: 10.5 + 0.5 * n  # noqa: E731
    memory = KAutoMemory(tmp_path)
    memory.save(KEY, trained(10.0, cheap_verify))
    remembered = memory.load(KEY, AdaptiveK(stops=True), plain_step_ms=8.0)
    assert remembered is not None
    assert remembered.choose(AUTO_K_CAP) == 0  # the remembered costs say plain
    ks = answer(remembered, draft_ms=1.5, verify_ms=cheap_verify)
    assert ks[: EXPLORE_EVERY] == [0] * EXPLORE_EVERY
    assert sum(map(bool, ks[EXPLORE_EVERY:])) > len(ks) // 2, ks  # drafting pays, and is done


def test_a_damaged_file_or_another_keys_is_ignored(tmp_path, caplog):
    memory = KAutoMemory(tmp_path)
    fresh = AdaptiveK(stops=True)
    assert memory.load(KEY, fresh) is None  # nothing saved yet
    memory.save(KEY, losing_pair())
    (path,) = tmp_path.glob("*.json")
    saved = json.loads(path.read_text())

    other_key = dict(KEY, n_threads=1)  # another key's file under this key's name
    path.write_text(json.dumps({"key": other_key, "state": saved["state"]}))
    assert memory.load(KEY, fresh) is None

    shorter = dict(saved["state"], reached=[1.0, 1.0])  # another cap's positions
    path.write_text(json.dumps({"key": KEY, "state": shorter}))
    assert memory.load(KEY, fresh) is None
    assert "do not fit" in caplog.text

    path.write_text(json.dumps({"key": KEY, "state": dict(saved["state"], _plain_run="many")}))
    assert memory.load(KEY, fresh) is None

    path.write_bytes(b"\x00{not json")
    assert memory.load(KEY, fresh) is None
    assert "unreadable" in caplog.text
    assert state_of(fresh) == state_of(AdaptiveK(stops=True))  # left as it was


def test_a_folder_that_cannot_be_written_costs_only_the_memory(tmp_path, caplog):
    blocker = tmp_path / "k-auto"
    blocker.write_text("a file where the folder should be")
    memory = KAutoMemory(blocker)
    for _ in range(3):
        memory.save(KEY, losing_pair())  # must not raise
    assert caplog.text.count("could not be saved") == 1  # said once, not at every answer


def test_only_the_most_recently_used_files_are_kept(tmp_path, monkeypatch):
    monkeypatch.setattr("backend.engine.k_auto_memory.KEEP_FILES", 3)
    memory = KAutoMemory(tmp_path)
    keys = [dict(KEY, n_threads=n) for n in range(1, 6)]
    for i, key in enumerate(keys):
        memory.save(key, losing_pair())
        os.utime(memory._path(key), ns=(i * 10**9, i * 10**9))
    memory.save(keys[0], losing_pair())  # used again: the newest
    assert {p.name for p in tmp_path.glob("*.json")} == {
        memory._path(k).name for k in (keys[0], keys[3], keys[4])}


REQUEST = GenerationRequest(prompt="zero one", spec_type="draft", n_draft_max=0, max_tokens=24)


def answered_engine(target, draft, memory: KAutoMemory | None, n_threads: int = 1) -> Engine:
    engine = Engine(k_auto_memory=memory)
    engine.load_target(target, n_ctx=512, n_threads=n_threads)
    engine.load_draft(draft)
    final, _ = run(engine, REQUEST)
    assert isinstance(final, GenerationFinished)
    return engine


def test_a_new_engine_takes_up_the_last_ones_controller_until_something_that_shapes_it_changes(
        tmp_path, test_models):
    """Through the engine: a new engine with the same models and threads starts from the
    controller the last one saved after its answer; another thread count, or the target
    file written again, starts afresh."""
    target = tmp_path / "target.gguf"
    shutil.copy(test_models / "count-target.gguf", target)
    draft = test_models / "count-draft.gguf"
    memory = KAutoMemory(tmp_path / "memory")

    first = answered_engine(target, draft, memory)
    saved = state_of(first._adaptive["draft"])
    first.close()
    assert saved["_steps"] > 0 and len(list((tmp_path / "memory").glob("*.json"))) == 1

    def controller_of_a_new_engine(n_threads: int = 1) -> AdaptiveK:
        engine = Engine(k_auto_memory=memory)
        try:
            engine.load_target(target, n_ctx=512, n_threads=n_threads)
            engine.load_draft(draft)
            return engine._controller("draft", engine._drafter(REQUEST))
        finally:
            engine.close()

    again = state_of(controller_of_a_new_engine())
    for taken_as_old in ("_since_single", "_costs_unchecked"):  # see restore
        again.pop(taken_as_old), saved.pop(taken_as_old)
    assert again == saved

    fresh = state_of(AdaptiveK(stops=True))
    assert state_of(controller_of_a_new_engine(n_threads=2)) == fresh
    stat = target.stat()
    os.utime(target, ns=(stat.st_atime_ns, stat.st_mtime_ns + 10**9))  # written again
    assert state_of(controller_of_a_new_engine()) == fresh


def test_an_engine_without_a_memory_writes_none(tmp_path, test_models, monkeypatch):
    monkeypatch.setenv("DRAFTLIGHT_K_AUTO_DIR", str(tmp_path))
    engine = answered_engine(test_models / "count-target.gguf", test_models / "count-draft.gguf",
                             None)
    engine.close()
    assert not list(tmp_path.iterdir())


@pytest.mark.parametrize("remember", [True, False])
def test_the_engine_process_remembers_unless_told_not_to(tmp_path, test_models, monkeypatch,
                                                         remember):
    from backend.engine.remote import EngineProcess
    from backend.engine.runtime import EngineRuntime

    monkeypatch.setenv("DRAFTLIGHT_K_AUTO_DIR", str(tmp_path))
    engine = EngineProcess(EngineRuntime(remember_k_auto=remember))
    try:
        engine.load_target(test_models / "count-target.gguf", n_ctx=512, n_threads=1)
        engine.load_draft(test_models / "count-draft.gguf")
        events = list(engine.generate(REQUEST))
        assert isinstance(events[-1], GenerationFinished)
    finally:
        engine.close()
    saved = list(tmp_path.glob("*.json"))
    assert len(saved) == remember
    if remember:
        key = json.loads(saved[0].read_text())["key"]
        assert key["spec_type"] == "draft" and key["n_threads"] == 1
        assert key["draft"][0].endswith("count-draft.gguf")

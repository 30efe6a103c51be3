"""Rows read in the background (row_stats.begin, _rowstats.c's reader thread): the argmax at
once, the rest what the one-pass read gives, bit for bit; rows that pass hands back never begun;
a ring of slots that runs out and comes back; a greedy row that keeps its view until it is
settled, which a context's next decode does first; and a forked child with a reader of its own.
"""

from __future__ import annotations

import os

import numpy as np
import pytest

from backend.engine import row_stats
from backend.engine._rowstats import begin, finish
from backend.engine.request import GenerationRequest
from backend.engine.sampling import TOP_N, GreedyRow

SLOTS = 64  # _rowstats.c


def rows():
    rng = np.random.default_rng(17)
    yield "152k", rng.standard_normal(151_936) * 3
    yield "262k, one far ahead", np.concatenate([rng.standard_normal(262_143) * 2, [30.0]])
    yield "ties at the top", np.array([1.0, 5.0, 5.0, 2.0, 5.0, 5.0, 5.0, 5.0, 0.0])
    yield "largest in the last block", np.concatenate([rng.standard_normal(5_000), [9.0]])
    yield "masked tokens (-inf)", np.where(rng.random(20_000) < 0.5, -np.inf,
                                           rng.standard_normal(20_000))
    yield "one token", np.array([3.0])


@pytest.fixture
def background():
    row_stats.read_in_background(True)
    yield
    row_stats.read_in_background(False)


@pytest.mark.parametrize("name,x", list(rows()), ids=[n for n, _ in rows()])
@pytest.mark.parametrize("k", [1, TOP_N, 64])
def test_a_begun_row_reads_as_the_one_pass_does(name, x, k):
    x = x.astype(np.float32)
    started = begin(x, k)
    assert started is not None
    best, ticket = started
    assert best == int(np.argmax(x))  # the first of tied largest, as numpy
    assert finish(ticket) == row_stats.read(x, k)


@pytest.mark.parametrize("x", [
    [1.0, np.nan, 2.0], [1.0, np.inf, 0.0], [-np.inf, -np.inf, -np.inf]],
    ids=["a NaN", "+inf", "all -inf"])
def test_rows_the_pass_hands_back_are_never_begun(x):
    assert begin(np.array(x, np.float32), TOP_N) is None


def test_a_ticket_is_finished_once():
    started = begin(np.arange(10, dtype=np.float32), 2)
    assert started is not None
    assert finish(started[1]) is not None
    with pytest.raises(RuntimeError):
        finish(started[1])
    with pytest.raises(RuntimeError):
        finish(-1)


def test_the_slots_run_out_and_come_back():
    x = np.random.default_rng(2).standard_normal(10_000).astype(np.float32)
    tickets = []
    for _ in range(SLOTS):
        started = begin(x, TOP_N)
        assert started is not None
        tickets.append(started[1])
    assert begin(x, TOP_N) is None  # every slot holds a row not yet finished
    want = row_stats.read(x, TOP_N)
    assert finish(tickets[-1]) == want
    assert begin(x, TOP_N) is None  # the next ticket's slot is the oldest's
    assert finish(tickets[0]) == want
    started = begin(x, TOP_N)
    assert started is not None
    for ticket in [*tickets[1:-1], started[1]]:
        assert finish(ticket) == want


def test_a_greedy_row_keeps_its_view_until_settled(background):
    rng = np.random.default_rng(11)
    buffer = (rng.standard_normal((2, 151_936)) * 3).astype(np.float32)  # llama.cpp's rows
    live = GreedyRow(buffer[0].copy())
    owner = object()
    row = GreedyRow(buffer[0], owner)
    assert row._ticket is not None  # read in the background
    asked = [3, 77_777, live.best]
    row.detach(asked)
    assert row.logits is not None  # the reader still reads it
    row_stats.settle(owner)
    assert row._ticket is None and row.logits is None
    buffer[0] = 0.0  # the next decode writes the buffer
    assert row.best == live.best
    assert row.lse == live.lse  # the same pass, the same sums
    for t in asked:
        assert row.p(t) == live.p(t)
    assert row.top() == live.top()
    with pytest.raises(KeyError):
        row.p(5)  # never asked for


def test_a_row_asked_before_it_is_settled_settles_itself(background):
    x = (np.random.default_rng(4).standard_normal(50_000) * 3).astype(np.float32)
    live = GreedyRow(x.copy())
    owner = object()
    row = GreedyRow(x, owner)
    assert row._ticket is not None
    assert row.top() == live.top()  # read by the events' worker before the next decode
    assert row._ticket is None
    row_stats.settle(owner)  # nothing left to settle: no second finish
    assert row.lse == live.lse


def test_without_background_reading_a_row_is_read_at_once():
    x = np.arange(100, dtype=np.float32)
    row = GreedyRow(x, object())
    assert row._ticket is None and row.lse == GreedyRow(x.copy()).lse


def test_a_contexts_next_decode_settles_its_rows_first(count_engine, background):
    ctx = count_engine._ctx
    ctx.clear()
    rows = ctx.decode([1, 2, 3], all_logits=True)
    live = GreedyRow(rows[2].copy())
    row = GreedyRow(rows[2], ctx)
    row.detach([live.best])
    assert row._ticket is not None
    ctx.decode([live.best], all_logits=True)  # writes the buffer the row was read from
    assert row._ticket is None  # settled before llama.cpp wrote it
    assert (row.best, row.lse, row.top()) == (live.best, live.lse, live.top())
    ctx.clear()


@pytest.mark.parametrize("spec", [
    {}, {"spec_type": "draft", "n_draft_max": 4},
    {"spec_type": "draft", "n_draft_max": 4, "tree_nodes": 8},  # rows of a tree's batch
], ids=["plain", "draft", "draft tree"])
def test_the_engine_reads_verify_rows_in_the_background_where_a_core_is_spare(
        count_engine, monkeypatch, spec):
    """Same answers, inspector values included, with and without the reader."""
    from backend.engine import engine as engine_module
    from backend.engine.events import StepVerified

    calls: list[int] = []
    original = row_stats._begin

    def counted(logits, k):
        calls.append(k)
        return original(logits, k)

    monkeypatch.setattr(row_stats, "_begin", counted)
    monkeypatch.setattr(row_stats, "_keep_awake", lambda on: awake.append(on))
    awake: list[bool] = []
    request = GenerationRequest(prompt=" zero one", max_tokens=24, measure_plain=False, **spec)
    answers = {}
    for spare in (True, False):
        monkeypatch.setattr(engine_module.Engine, "_reader_core", lambda self, s=spare: s)
        calls.clear()
        answers[spare] = [(e.drafted, e.emitted, e.tree) for e in count_engine.generate(request)
                          if isinstance(e, StepVerified)]
        # not in a plain answer, whose next decode follows each row's argmax at once
        # (Engine._pipelines): the reader would overlap nothing
        reads = spare and "spec_type" in spec
        assert bool(calls) is reads
        assert awake == [reads, False]  # awake for the answer where it reads its rows
        awake.clear()
        assert not row_stats._pending  # every row settled by the answer's end
        assert not row_stats._background  # and the reader asleep after it
    assert answers[True] == answers[False]
    assert any(tree for _, _, tree in answers[True]) is ("tree_nodes" in spec)


def test_a_forked_child_reads_rows_with_a_reader_of_its_own():
    x = (np.random.default_rng(9).standard_normal(30_000) * 2).astype(np.float32)
    started = begin(x, TOP_N)  # the parent's reader is running
    assert started is not None
    want = finish(started[1])
    pid = os.fork()
    if pid == 0:  # the child: exit status 0 only where its reader read the row
        try:
            again = begin(x, TOP_N)
            os._exit(0 if again is not None and finish(again[1]) == want else 1)
        finally:
            os._exit(2)
    _, status = os.waitpid(pid, 0)
    assert os.waitstatus_to_exitcode(status) == 0


@pytest.mark.parametrize(("physical", "threads", "on_gpu", "reads"), [
    (2, 1, False, False),  # the one spare core is the window's and the events'
    (4, 2, False, True),
    (4, 3, False, False),
    (8, 8, True, True),  # on a GPU one thread waits for it, whatever the count
    (2, 2, True, False),
])
def test_the_reader_needs_a_second_spare_physical_core(count_engine, monkeypatch, physical,
                                                        threads, on_gpu, reads):
    from dataclasses import replace

    from backend.engine import cores

    monkeypatch.setattr(cores, "physical_cores", lambda: physical)
    target = count_engine._target
    info, n_threads = target.info, count_engine.n_threads
    try:
        target.info = replace(info, on_gpu=on_gpu)
        count_engine.n_threads = threads
        assert count_engine._reader_core() is reads
    finally:
        target.info, count_engine.n_threads = info, n_threads


def test_begin_checks_what_it_is_given():
    with pytest.raises(TypeError):
        begin(np.zeros(4, np.float64), TOP_N)
    with pytest.raises(ValueError):
        begin(np.zeros(0, np.float32), TOP_N)
    with pytest.raises(ValueError):
        begin(np.zeros(4, np.float32), 0)
    with pytest.raises(TypeError):
        begin(np.zeros(4, np.float32))  # type: ignore[call-arg]

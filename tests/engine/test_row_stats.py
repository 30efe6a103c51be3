"""The row of logits read in one pass in C (backend/engine/_rowstats.c): the argmax, the
log-sum-exp and the largest logits that numpy's passes give, on rows shaped as models make
them and on the ones that must go back to numpy; and a greedy row detached after it (its
logits no longer kept) reading as the row itself did."""

from __future__ import annotations

import math

import numpy as np
import pytest

from backend.engine import row_stats
from backend.engine.request import SamplingSettings
from backend.engine.sampling import TOP_N, GreedyRow, penalized


def test_the_c_module_is_built():
    # scripts/setup.sh installs a C compiler and builds it; without it every reading below
    # would be numpy's and prove nothing of the C pass
    assert row_stats.BUILT


def lse64(x: np.ndarray) -> float:
    x = x.astype(np.float64)
    m = x.max()
    return float(m + np.log(np.exp(x - m).sum()))


def largest(x: np.ndarray, k: int) -> list[tuple[int, float]]:
    order = np.lexsort((np.arange(x.shape[0]), -x.astype(np.float64)))[:k]
    return [(int(i), float(x[i])) for i in order]


def rows():
    rng = np.random.default_rng(7)
    yield "152k, spread like a model's", rng.standard_normal(151_936) * 3
    yield "262k, one far ahead", np.concatenate([rng.standard_normal(262_143) * 2, [30.0]])
    yield "not a multiple of a block", rng.standard_normal(1_000_003 % 4099) * 5
    yield "largest in the last block", np.concatenate([rng.standard_normal(5_000), [9.0]])
    yield "ties at the top", np.array([1.0, 5.0, 5.0, 2.0, 5.0, 5.0, 5.0, 5.0, 0.0])
    yield "all equal", np.zeros(10_000)
    yield "one token", np.array([3.0])
    yield "masked tokens (-inf)", np.where(rng.random(20_000) < 0.5, -np.inf,
                                           rng.standard_normal(20_000))
    yield "rising through the row", np.linspace(-50.0, 50.0, 100_000)
    yield "far below the largest", np.concatenate([rng.standard_normal(50_000) * 30 - 150.0,
                                                   [10.0]])
    yield "large logits", rng.standard_normal(60_000) * 3 + 1e4
    yield "flat", rng.standard_normal(8192) * 0.01


@pytest.fixture(params=[1, 2, 3], ids=["one slice", "two slices", "three slices"])
def slices(request):
    """The row read in 1, 2 or 3 slices at once (`use_threads`: llama.cpp's CPU threads)."""
    row_stats.use_threads(request.param)
    yield request.param
    row_stats.use_threads(1)


@pytest.mark.parametrize("name,x", list(rows()), ids=[n for n, _ in rows()])
@pytest.mark.parametrize("k", [1, TOP_N, 64])
def test_one_pass_reads_what_numpy_reads(name, x, k, slices):
    x = x.astype(np.float32)
    stats = row_stats.read(x, k)
    assert stats is not None
    best, lse, top = stats
    assert best == int(np.argmax(x))  # the first of tied largest, as numpy
    assert lse == pytest.approx(lse64(x), rel=1e-7, abs=1e-6)
    assert list(top) == largest(x, min(k, x.shape[0]))


@pytest.mark.parametrize("x", [
    [1.0, np.nan, 2.0], [np.nan], [1.0, np.inf, 0.0], [-np.inf, -np.inf, -np.inf]],
    ids=["a NaN", "only a NaN", "+inf", "all -inf"])
def test_rows_numpy_must_decide_are_handed_back(x, slices):
    assert row_stats.read(np.array(x, np.float32), TOP_N) is None


def test_a_nan_in_any_slice_hands_the_row_back(slices):
    x = np.random.default_rng(3).standard_normal(151_936).astype(np.float32)
    for at in (0, 60_000, 151_935):  # in the first, a middle and the last slice
        y = x.copy()
        y[at] = np.nan
        assert row_stats.read(y, TOP_N) is None


def test_the_engine_reads_rows_with_llama_cpps_threads_on_the_cpu(monkeypatch, test_models):
    from backend.engine.engine import Engine

    asked: list[int] = []
    monkeypatch.setattr(row_stats, "use_threads", asked.append)
    engine = Engine()
    try:
        engine.load_target(test_models / "count-target.gguf", n_ctx=256, n_threads=2)
        assert engine.target is not None and not engine.target.on_gpu
        assert asked[-1] == 2
        engine.configure(n_threads=1)
        assert asked[-1] == 1
    finally:
        engine.close()


def test_rows_it_cannot_read_in_place_are_left_to_numpy():
    x = np.arange(20, dtype=np.float32)
    assert row_stats.read(x.astype(np.float64), TOP_N) is None
    assert row_stats.read(x[::2], TOP_N) is None  # not contiguous
    assert row_stats.read(x.reshape(4, 5), TOP_N) is None
    assert row_stats.read(x, 0) is None
    assert row_stats.read(x, row_stats.MAX_K + 1) is None


def test_the_c_call_checks_what_it_is_given():
    from backend.engine._rowstats import row_stats as raw

    with pytest.raises(TypeError):
        raw(np.zeros(4, np.float64), 5)
    with pytest.raises(ValueError):
        raw(np.zeros(0, np.float32), 5)
    with pytest.raises(ValueError):
        raw(np.zeros(4, np.float32), 0)


def test_a_detached_row_reads_as_the_row_did_without_keeping_it():
    rng = np.random.default_rng(11)
    buffer = (rng.standard_normal((2, 151_936)) * 3).astype(np.float32)  # llama.cpp's rows
    live = GreedyRow(buffer[0].copy())
    row = GreedyRow(buffer[0])
    asked = [3, 77_777, live.best]
    row.detach(asked)
    assert row.logits is None  # nothing of the size of the vocabulary kept
    buffer[0] = 0.0  # the next decode writes the buffer
    assert row.best == live.best
    assert row.lse == pytest.approx(live.lse, rel=1e-7)
    for t in asked:
        assert row.p(t) == pytest.approx(live.p(t), rel=1e-6)
    assert [t for t, _ in row.top()] == [t for t, _ in live.top()]
    assert [q for _, q in row.top()] == pytest.approx([q for _, q in live.top()], rel=1e-6)
    with pytest.raises(KeyError):
        row.p(5)  # never asked for: an error, not a probability made up


def test_a_row_the_c_pass_hands_back_is_copied_as_before():
    buffer = np.zeros((1, 1000), np.float32)
    buffer[0, 10] = np.nan
    row = GreedyRow(buffer[0]).detach([1])
    assert row.logits is not None and row.logits.base is None
    assert math.isnan(row.lse)


def test_rows_over_ctypes_memory_are_read_in_place():
    # llama.cpp's logits reach numpy through ctypes, whose buffers say '<f', not 'f'
    import ctypes

    memory = (ctypes.c_float * 6)(0.5, 2.0, -1.0, 2.0, 0.0, 1.5)
    x = np.ctypeslib.as_array(memory)
    assert memoryview(memory).format != "f"
    stats = row_stats.read(x, 2)
    assert stats is not None
    assert stats[0] == 1 and list(stats[2]) == [(1, 2.0), (3, 2.0)]


@pytest.mark.parametrize("penalty", [1.1, 1.5, 2.0])
def test_the_penalty_in_c_writes_what_numpy_writes(penalty):
    rng = np.random.default_rng(5)
    row = (rng.standard_normal(151_936) * 4).astype(np.float32)
    row[[10, 20]] = [0.0, -0.0]
    history = [10, 20, *rng.integers(0, 151_936, 300).tolist(), 10]  # repeats count once
    s = SamplingSettings(repeat_penalty=penalty, repeat_last_n=64)
    want = penalized(row, s, history)  # numpy's, on a copy
    got = row.copy()
    assert row_stats.penalize(got, set(history[-64:]), penalty)
    np.testing.assert_array_equal(got, want)
    assert penalized(row.copy(), s, history, in_place=True).tobytes() == want.tobytes()


def test_the_penalty_in_c_refuses_what_it_cannot_write():
    from backend.engine._rowstats import penalize as raw

    row = np.zeros(8, np.float32)
    with pytest.raises(IndexError):
        raw(row, {8}, 1.1)
    with pytest.raises(IndexError):
        raw(row, {-1}, 1.1)
    frozen = row.copy()
    frozen.flags.writeable = False
    assert not row_stats.penalize(frozen, {1}, 1.1)
    assert not row_stats.penalize(row.astype(np.float64), {1}, 1.1)

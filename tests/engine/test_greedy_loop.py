"""The plain chunk's loop in C (backend/engine/_greedy_loop.c) against a llama.cpp of Python
callbacks, row by row: the tokens numpy's penalty and argmax give over the same history, each
but an ending one decoded at its position, and the ways a chunk ends. Against the real model,
with the Python loop beside it: test_plain_chunk.py."""

from __future__ import annotations

import ctypes

import llama_cpp
import numpy as np
import pytest

from backend.engine import greedy_loop
from backend.engine.request import SamplingSettings
from backend.engine.sampling import penalized

N_VOCAB = 300


def test_the_c_loop_is_built_and_bound():
    """setup.py builds it wherever a C compiler is found (as on every machine the tests run
    on); were it left out, plain answers would still be right, and this says it is gone."""
    assert greedy_loop._native is not None, "backend/engine/_greedy_loop.c was not built"
    assert greedy_loop._bound()


class FakeLlama:
    """llama_decode, llama_get_logits and llama_vocab_is_eog as C function pointers: each
    decode records its token and position and brings the next row of `rows`."""

    def __init__(self, rows: np.ndarray, eog: set[int] = frozenset(), fail_at: int = -1):
        self.rows = rows
        self.buffer = np.ascontiguousarray(rows[0]).copy()
        self.decoded: list[tuple[int, int]] = []
        self.eog = eog
        self.fail_at = fail_at
        self._decode = ctypes.CFUNCTYPE(ctypes.c_int32, ctypes.c_void_p,
                                        llama_cpp.llama_batch)(self.decode)
        self._logits = ctypes.CFUNCTYPE(ctypes.c_void_p, ctypes.c_void_p)(
            lambda ctx: self.buffer.ctypes.data)
        self._is_eog = ctypes.CFUNCTYPE(ctypes.c_bool, ctypes.c_void_p, ctypes.c_int32)(
            lambda vocab, token: token in self.eog)

    def decode(self, ctx, batch) -> int:
        assert batch.n_tokens == 1 and batch.n_seq_id[0] == 1 and batch.seq_id[0][0] == 0
        assert batch.logits[0] == 1
        if len(self.decoded) == self.fail_at:
            return -3
        self.decoded.append((batch.token[0], batch.pos[0]))
        self.buffer[:] = self.rows[len(self.decoded)]
        return 0

    def __enter__(self):
        greedy_loop.use_functions(self._decode, self._logits, self._is_eog)
        return self

    def __exit__(self, *exc):
        greedy_loop.use_functions()  # the real llama.cpp's again


@pytest.fixture
def batch():
    b = llama_cpp.llama_batch_init(1, 0, 1)
    yield b
    llama_cpp.llama_batch_free(b)


def chunk(batch, history, *, penalty=1.0, last_n=0, n_past=None, n_ctx=1000, max_new=100,
          budget_s=60.0):
    stamps = np.zeros(N_VOCAB + 1, np.uint32)
    n_past = len(history) if n_past is None else n_past
    return greedy_loop._native.chunk(1, 1, ctypes.addressof(batch), N_VOCAB, history, penalty,
                                     last_n, stamps, n_past, n_ctx, max_new, budget_s)


def expected(rows: np.ndarray, history: list[int], s: SamplingSettings, n: int) -> list[int]:
    """Python's tokens for the same rows: the general loop's penalty and numpy's argmax."""
    history = list(history)
    for i in range(n):
        history.append(int(penalized(rows[i].copy(), s, history).argmax()))
    return history[-n:]


def rows_with_repeats(seed: int, n: int = 40) -> np.ndarray:
    """Rows whose best tokens come back again and again (a few ids carry the largest logits,
    close together, two of them negative), so that the penalty, each distinct token once,
    decides many of them."""
    rng = np.random.default_rng(seed)
    rows = rng.normal(-2.0, 1.0, (n, N_VOCAB)).astype(np.float32)
    favourites = rng.choice(N_VOCAB, 6, replace=False)
    rows[:, favourites] = rng.normal(1.0, 0.05, (n, 6)).astype(np.float32)
    rows[:, favourites[:2]] = -rng.uniform(0.01, 0.02, (n, 2)).astype(np.float32)
    return rows


@pytest.mark.parametrize("penalty, last_n", [(1.0, 0), (1.3, 8), (1.8, 3), (1.1, 64)])
def test_the_tokens_numpy_decides_each_decoded_at_its_position(batch, penalty, last_n):
    rows = rows_with_repeats(7)
    history = [5, 9, 5, 17]  # repeats in the prompt: each distinct token penalised once
    with FakeLlama(rows) as llama:
        status, tokens, ms, _launch_ms, _rc = chunk(batch, list(history), penalty=penalty,
                                                    last_n=last_n, max_new=30)
    s = SamplingSettings(repeat_penalty=penalty, repeat_last_n=last_n)
    assert tokens == expected(rows, history, s, 30)
    assert status == greedy_loop.ENDED  # the 30th token: decided, not decoded
    assert llama.decoded == [(t, len(history) + i) for i, t in enumerate(tokens[:-1])]
    assert len(ms) == 30 and min(ms) >= 0.0
    if penalty != 1.0:  # the case is one the penalty decides
        assert tokens != expected(rows, history, SamplingSettings(repeat_penalty=1.0), 30)


def test_the_penalty_marks_survive_a_wrapped_generation(batch):
    rows = rows_with_repeats(3)
    stamps = np.zeros(N_VOCAB + 1, np.uint32)
    stamps[:] = 0xFFFFFFFF  # every mark the generation about to wrap to 0 and then 1
    with FakeLlama(rows):
        tokens = greedy_loop._native.chunk(1, 1, ctypes.addressof(batch), N_VOCAB, [5, 5],
                                           1.5, 4, stamps, 2, 1000, 10, 60.0)[1]
    assert tokens == expected(rows, [5, 5], SamplingSettings(repeat_penalty=1.5,
                                                             repeat_last_n=4), 10)


def test_ties_go_to_the_lowest_id(batch):
    rows = np.zeros((3, N_VOCAB), np.float32)
    rows[0, [40, 7, 250]] = 3.0
    with FakeLlama(rows):
        tokens = chunk(batch, [1], max_new=1)[1]
    assert tokens == [7]


def test_the_answers_ends(batch):
    rows = rows_with_repeats(11)
    plain = expected(rows, [2], SamplingSettings(repeat_penalty=1.0), 20)
    with FakeLlama(rows, eog={plain[4]}) as llama:  # an end-of-generation token
        status, tokens, *_ = chunk(batch, [2])
    assert status == greedy_loop.ENDED and tokens == plain[:5] and len(llama.decoded) == 4
    with FakeLlama(rows) as llama:  # a full context: the token decided, not decoded
        status, tokens, *_ = chunk(batch, [2], n_ctx=4)
    assert status == greedy_loop.ENDED and tokens == plain[:4] and len(llama.decoded) == 3
    with FakeLlama(rows) as llama:  # the budget: the last token decoded, its time told
        status, tokens, _ms, launch_ms, _rc = chunk(batch, [2], budget_s=0.0)
    assert status == greedy_loop.LAUNCHED and tokens == plain[:1] and launch_ms >= 0.0
    assert llama.decoded == [(plain[0], 1)]


def test_a_row_numpy_must_read_is_handed_back_penalised(batch):
    rows = rows_with_repeats(5)
    rows[3, 50] = np.nan
    with FakeLlama(rows) as llama:
        status, tokens, *_ = chunk(batch, [8, 9], penalty=1.5, last_n=4)
        row = llama.buffer.copy()
    s = SamplingSettings(repeat_penalty=1.5, repeat_last_n=4)
    assert status == greedy_loop.HANDED_BACK and tokens == expected(rows, [8, 9], s, 3)
    history = [8, 9, *tokens]
    np.testing.assert_array_equal(row, penalized(rows[3].copy(), s, history))


def test_a_failed_decode_says_its_code(batch):
    rows = rows_with_repeats(5)
    with FakeLlama(rows, fail_at=2) as llama:
        status, tokens, _ms, _launch_ms, rc = chunk(batch, [8])
    assert status == greedy_loop.DECODE_FAILED and rc == -3
    assert len(tokens) == 3 and len(llama.decoded) == 2


def test_what_it_is_given_is_checked(batch):
    with FakeLlama(rows_with_repeats(1)):
        with pytest.raises(IndexError):
            chunk(batch, [N_VOCAB + 5], penalty=1.2, last_n=4)
        with pytest.raises(TypeError):
            chunk(batch, (1, 2))
        with pytest.raises(ValueError):
            greedy_loop._native.chunk(1, 1, ctypes.addressof(batch), N_VOCAB, [1], 1.0, 0,
                                      np.zeros(N_VOCAB, np.uint32), 1, 100, 5, 1.0)

"""The followers' batch of hidden-state rows (drafters/row_batch.RowBatch), written through
numpy views: each entry read back as llama.cpp reads it."""

from __future__ import annotations

import numpy as np

from backend.engine.drafters.row_batch import RowBatch


def entries(b: RowBatch, n: int, width: int):
    raw = b.batch
    return [(raw.token[i] if raw.token else None, raw.pos[i], raw.n_seq_id[i], raw.seq_id[i][0],
             bool(raw.logits[i]), [raw.embd[i * width + j] for j in range(width)])
            for i in range(n)]


def test_entries_with_tokens_and_the_last_outputs():
    b = RowBatch(6, 2)
    try:
        rows = np.arange(8, dtype=np.float32).reshape(4, 2)
        b.fill(20, rows, [5, 6, 7, 8], n_outputs=2)
        assert b.batch.n_tokens == 4
        assert entries(b, 4, 2) == [(5, 20, 1, 0, False, [0.0, 1.0]),
                                    (6, 21, 1, 0, False, [2.0, 3.0]),
                                    (7, 22, 1, 0, True, [4.0, 5.0]),
                                    (8, 23, 1, 0, True, [6.0, 7.0])]
        b.fill(24, rows[:1] + 10, [9])  # fewer entries, no outputs: nothing left of the last
        assert entries(b, 1, 2) == [(9, 24, 1, 0, False, [10.0, 11.0])]
    finally:
        b.free()


def test_an_encoders_batch_carries_rows_alone():
    b = RowBatch(3, 3, tokens=False)
    try:
        b.fill(0, np.ones((3, 3), np.float32), n_outputs=3)
        assert [e[:5] for e in entries(b, 3, 3)] == [(None, i, 1, 0, True) for i in range(3)]
    finally:
        b.free()

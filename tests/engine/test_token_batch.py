"""The target's batch written through numpy views (token_batch.TokenBatch): a chain's entries
read back field by field as llama.cpp reads them, also after a tree wrote other sequences."""

from __future__ import annotations

import pytest

from backend.engine.token_batch import TokenBatch


@pytest.fixture
def batch():
    b = TokenBatch(8, 4)
    yield b
    b.free()


def entries(b: TokenBatch, n: int) -> list[tuple[int, int, int, int, bool]]:
    raw = b.batch
    return [(raw.token[i], raw.pos[i], raw.n_seq_id[i], raw.seq_id[i][0], bool(raw.logits[i]))
            for i in range(n)]


def test_a_chain_with_every_output(batch):
    batch.chain(10, [7, 8, 9], all_outputs=True, last_output=True)
    assert batch.batch.n_tokens == 3
    assert entries(batch, 3) == [(7, 10, 1, 0, True), (8, 11, 1, 0, True), (9, 12, 1, 0, True)]


def test_a_chain_with_the_last_output_only_then_none(batch):
    batch.chain(0, [1, 2, 3, 4], all_outputs=False, last_output=True)
    assert [e[4] for e in entries(batch, 4)] == [False, False, False, True]
    batch.chain(4, [5, 6], all_outputs=False, last_output=False)
    assert entries(batch, 2) == [(5, 4, 1, 0, False), (6, 5, 1, 0, False)]


def test_entries_a_tree_wrote_hold_sequence_0_again(batch):
    batch.chain(0, [1, 2, 3], all_outputs=False, last_output=True)
    raw = batch.batch
    raw.n_seq_id[1] = 3  # as Context.decode_tree writes a shared entry
    raw.seq_id[1][0] = 2
    batch.mixed()
    batch.chain(3, [4, 5, 6], all_outputs=True, last_output=True)
    assert entries(batch, 3) == [(4, 3, 1, 0, True), (5, 4, 1, 0, True), (6, 5, 1, 0, True)]


@pytest.mark.parametrize(("all_outputs", "last_output", "wanted"),
                         [(True, True, True), (False, True, True), (False, False, False)])
def test_a_one_token_chain_after_longer_ones(batch, all_outputs, last_output, wanted):
    batch.chain(0, [1, 2, 3], all_outputs=True, last_output=True)
    batch.chain(3, [9], all_outputs=all_outputs, last_output=last_output)
    assert batch.batch.n_tokens == 1
    assert entries(batch, 1) == [(9, 3, 1, 0, wanted)]


def test_a_one_token_chain_first_and_after_a_tree(batch):
    batch.chain(5, [4], all_outputs=False, last_output=True)
    assert entries(batch, 1) == [(4, 5, 1, 0, True)]
    raw = batch.batch
    raw.n_seq_id[0] = 2  # a tree's root, shared by two sequences
    raw.seq_id[0][0] = 1
    batch.mixed()
    batch.chain(6, [8], all_outputs=True, last_output=True)
    assert entries(batch, 1) == [(8, 6, 1, 0, True)]

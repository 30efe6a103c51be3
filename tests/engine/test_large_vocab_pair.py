"""The large-vocabulary counting pair (tests/models/large_vocab.py): a 151,936-token
vocabulary that tokenizes as SmolLM2's, and drafting on it that changes no token."""

from __future__ import annotations

import pytest
from build import CYCLE_WORDS, Tokenizer, smollm2_path
from large_vocab import N_VOCAB, build_large_vocab, padded

from backend.engine.model import LoadedModel
from backend.engine.request import GenerationRequest
from engine.runner import emitted_ids, loaded_engine, run


@pytest.fixture(scope="module")
def large_vocab_pair(tmp_path_factory):
    target, draft = build_large_vocab(tmp_path_factory.mktemp("large-vocab"), slow=False)
    with loaded_engine(target, draft, n_ctx=512, n_threads=1) as engine:
        yield engine


def test_padding_keeps_every_original_token_and_adds_unique_ones():
    small = Tokenizer(smollm2_path())
    big = padded(small)
    assert big.n_vocab == len(big.tokens) == N_VOCAB
    assert big.tokens[: small.n_vocab] == small.tokens
    assert len(set(big.tokens)) == N_VOCAB
    assert big.cycle_ids() == small.cycle_ids()


def test_the_vocabulary_has_151936_tokens_and_prompts_tokenize_as_before(large_vocab_pair):
    model = large_vocab_pair._target
    assert model.info.n_vocab == large_vocab_pair.draft.n_vocab == N_VOCAB
    small = LoadedModel(smollm2_path())
    try:
        for text in (" zero one", "Write a Python function, with a docstring.\n\tnaïve 東京 🤖",
                     "a filler's text is read as text: <|filler000001|>"):
            assert model.tokenize(text, add_special=False) == small.tokenize(text,
                                                                             add_special=False)
    finally:
        small.close()


def test_draft_k4_emits_exactly_what_plain_decoding_does(large_vocab_pair):
    plain, plain_steps = run(large_vocab_pair, GenerationRequest(prompt=" zero one",
                                                                 max_tokens=40))
    final, steps = run(large_vocab_pair, GenerationRequest(
        prompt=" zero one", spec_type="draft", n_draft_max=4, max_tokens=40))
    assert plain.text == "".join(" " + CYCLE_WORDS[(2 + i) % 12] for i in range(40))
    assert final.text == plain.text
    assert emitted_ids(steps) == emitted_ids(plain_steps)
    # the draft is wrong after every 4th cycle word: some drafts kept, some rejected
    assert 0 < final.stats.n_accepted < final.stats.n_drafted

"""Each of llama.cpp's lookups proposes what its rule in the pinned llama.cpp says, on small
hand-made token sequences (common/ngram-map.cpp, common/ngram-mod.cpp, common/ngram-cache.cpp
and their drivers in common/speculative.cpp). Small settings keep the sequences short."""

from __future__ import annotations

import numpy as np

from backend.engine.drafters.ngram_cache import NgramCacheDrafter
from backend.engine.drafters.ngram_map import (
    HASH_MAP_SIZE,
    LCG_FACTOR,
    NgramMapDrafter,
    NgramMapSettings,
    _hashes,
)
from backend.engine.drafters.ngram_mod import (
    MULTIPLIER,
    NgramModDrafter,
    NgramModSettings,
    NgramModTable,
)
from backend.engine.request import GenerationRequest

REQUEST = GenerationRequest(prompt="x")


def _started(drafter):
    drafter.begin(REQUEST, np.random.default_rng(0))
    return drafter


def _map(key_only: bool, n: int = 2, m: int = 3, min_hits: int = 1) -> NgramMapDrafter:
    return _started(NgramMapDrafter("t", key_only, NgramMapSettings(n, m, min_hits)))


# -- ngram-map-k ----------------------------------------------------------------------------
def test_map_keys_hash_as_llama_cpp():
    """common_ngram_map_hash: a 32-bit LCG over the tokens, then the table's slot."""
    tokens = [7, 300, 49151, 2]
    h = 0
    for t in tokens[1:4]:
        h = (h * LCG_FACTOR + t) % (1 << 32)
    slot = _hashes(np.array(tokens, dtype=np.int64), np.array([1]), 3)[0]
    assert int(slot) == h % HASH_MAP_SIZE


def test_map_k_copies_what_followed_the_key_of_n_tokens():
    # key [1, 2] (the history's last two tokens) occurred at position 1
    history = [9, 1, 2, 5, 6, 7, 8, 30, 31, 32, 1, 2]
    p = _map(True).propose(history, 8)
    assert p.tokens == [5, 6, 7] and p.sources == [3, 4, 5]  # size_m = 3 tokens
    assert _map(True).propose(history, 2).tokens == [5, 6]  # K caps it


def test_map_k_needs_2n_plus_m_tokens_and_never_searches_position_0():
    assert _map(True).propose([9, 1, 2, 5, 6, 1, 2], 8).tokens == []  # 7 tokens: cur_len 6
    assert _map(True).propose([1, 2, 5, 6, 7, 8, 30, 31, 32, 40, 1, 2], 8).tokens == []


def test_map_k_never_searches_the_prompts_last_n_plus_m_plus_1_tokens():
    """The scan of the prompt stops n+m+1 tokens before its end and the scan of the answer
    starts after the prompt: an occurrence in between is never found."""
    prompt = [9, 40, 41, 42, 43, 44, 1, 2, 8, 30, 31, 32]  # [1, 2] at 6: 11 - 6 < 6
    answer = [50, 51, 52, 53, 54, 1, 2]
    d = _map(True)
    assert d.propose(prompt, 8).tokens == []
    assert d.propose([*prompt, *answer], 8).tokens == []
    # the same text with [1, 2] earlier in the prompt is found
    early = [9, 1, 2, 8, 30, 31, 40, 41, 42, 43, 44, 32]
    d = _map(True)
    d.propose(early, 8)
    assert d.propose([*early, *answer], 8).tokens == [8, 30, 31]


def test_map_k_drafts_from_a_key_no_more_than_its_last_draft_had_accepted():
    d = _map(True)
    h = [9, 1, 2, 5, 6, 7, 8, 30, 31, 32, 1, 2]
    assert d.propose(h, 8).tokens == [5, 6, 7]
    h += [5, 99]  # one draft accepted, then the target's own token
    assert d.propose(h, 8).tokens == []  # key [5, 99]: nowhere earlier
    h += [3, 1, 2]
    assert d.propose(h, 8).tokens == [5]  # key [1, 2] again: at most 1 token now
    h += [77]  # rejected
    d.propose(h, 8)
    h += [1, 2]
    assert d.propose(h, 8).tokens == []  # all rejected: this key drafts nothing again


def test_map_k_ignores_min_hits_and_map_k4v_waits_for_them():
    history = [9, 1, 2, 5, 6, 7, 8, 30, 31, 32, 1, 2]
    assert _map(True, min_hits=2).propose(history, 8).tokens == [5, 6, 7]
    d = _map(False, min_hits=2)
    assert d.propose(history, 8).tokens == []  # the key's first hit
    assert d.propose([*history, 8, 1, 2], 8).tokens == [5, 6, 7]  # its second


# -- ngram-map-k4v --------------------------------------------------------------------------
def test_map_k4v_drafts_only_when_one_continuation_is_twice_the_others():
    tail = [30, 31, 32, 33, 34, 1, 2]
    even = [9, 1, 2, 5, 6, 1, 2, 7, 8, *tail]  # [5, 6] once, [7, 8] once
    assert _map(False, m=2).propose(even, 8).tokens == []
    assert _map(True, m=2).propose(even, 8).tokens == [7, 8]  # map-k takes the latest
    twice = [9, 1, 2, 7, 8, 1, 2, 5, 6, 1, 2, 5, 6, *tail]  # [5, 6] twice, [7, 8] once
    p = _map(False, m=2).propose(twice, 8)
    assert p.tokens == [5, 6] and p.sources == [11, 12]


def test_map_k4v_copies_after_the_match_not_the_most_frequent_continuation():
    """As llama.cpp does: the counts decide whether to draft, the match what."""
    history = [9, 1, 2, 5, 6, 1, 2, 5, 6, 1, 2, 7, 8, 30, 31, 32, 33, 34, 1, 2]
    assert _map(False, m=2).propose(history, 8).tokens == [7, 8]


# -- ngram-mod ------------------------------------------------------------------------------
def _mod(n: int = 2, n_min: int = 1, n_max: int = 4) -> NgramModDrafter:
    return _started(NgramModDrafter(NgramModSettings(n, n_min, n_max), table_size=1 << 16))


def test_mod_hashes_as_llama_cpp_and_rolls_the_same_hash():
    table = NgramModTable(3, size=1 << 16)
    window = [7, 300, 49151]
    h = 0
    for t in window:
        h = (h * MULTIPLIER + t) % (1 << 64)
    assert table.window_hash(window) == h
    idx = table.idx(np.array(window, dtype=np.int64), np.array([0]))
    assert int(idx[0]) == h % (1 << 16)
    assert table.roll(h, 7, 12) == table.window_hash([300, 49151, 12])


def test_mod_chains_lookups_from_the_last_n_match_tokens():
    p = _mod().propose([1, 2, 3, 4, 5, 9, 1, 2], 8)
    assert p.tokens == [3, 4, 5, 9] and p.sources == [2, 3, 4, 5]  # n_max = 4


def test_mod_drafts_nothing_when_the_chain_breaks_before_n_min():
    history = [1, 2, 3, 8, 1, 2]  # (1,2)→3, (2,3)→8, (3,8)→1, then nothing after (8,1)
    assert _mod(n_min=2).propose(history, 8).tokens == [3, 8, 1]
    assert _mod(n_min=4).propose(history, 8).tokens == []


def test_mod_adds_generated_tokens_only_once_more_than_32_wait():
    prompt = [1, 2, 3, 4]
    d = _mod()
    d.propose(prompt, 8)  # the prompt's windows are added up to position 1 (i_last)
    novel = [50 + i for i in range(28)]  # the answer so far, then its start again
    # 33 tokens before the last: not more than 1 + 32, not added yet
    assert d.propose([*prompt, *novel, 50, 51], 8).tokens == []
    longer = [*prompt, *novel, 60, 61, 62, 50, 51]  # 36 > 1 + 32: added
    assert d.propose(longer, 8).tokens == [52, 53, 54, 55]


def _low_round(d: NgramModDrafter, history: list[int]) -> None:
    p = d.propose(history, 8)
    assert p.tokens == [6]
    history.append(5)  # the target wrote 5 where 6 was drafted: nothing accepted


def test_mod_empties_its_table_after_five_low_acceptance_rounds_in_a_row():
    d = _started(NgramModDrafter(NgramModSettings(1, 1, 1), table_size=1 << 16))
    history = [5, 6] * 20 + [5]  # 5 → 6, 6 → 5
    for _ in range(4):
        _low_round(d, history)
    assert d.propose(history, 8).tokens == [6]
    history += [6, 5]  # accepted: the streak ends
    for _ in range(4):
        _low_round(d, history)
    assert d.n_resets == 0
    _low_round(d, history)
    d.propose(history, 8)  # the fifth low round in a row is counted here
    assert d.n_resets == 1 and d.n_low == 0 and d.i_last > 0  # emptied, then rebuilt


def test_mod_keeps_its_table_across_answers_and_says_when_a_copy_is_from_one():
    d = _mod()
    d.propose([1, 2, 3, 4, 5, 6, 7], 8)
    d.begin(REQUEST, np.random.default_rng(0))
    p = d.propose([40, 1, 2], 8)  # this answer's history holds no (1, 2) before its end
    assert p.tokens == [3, 4, 5, 6] and p.sources == [None] * 4


# -- ngram-cache ----------------------------------------------------------------------------
def test_cache_drafts_where_one_follower_dominates_and_names_where_it_was_seen():
    p = _started(NgramCacheDrafter()).propose([1, 5, 1, 5, 1], 8)
    # (1, 5, 1) was followed by 5 at position 3: its 3-gram passes (1 sample, 100 %) first
    assert p.tokens == [5, 1, 5, 1, 5, 1, 5, 1] and p.sources[0] == 3
    assert _started(NgramCacheDrafter()).propose([1, 5, 1, 5, 1], 3).tokens == [5, 1, 5]


def test_cache_lax_thresholds_refuse_an_even_split_after_one_token():
    # (1) → 5 once and 6 once: 50 % < 66 %; no longer n-gram seen before
    assert _started(NgramCacheDrafter()).propose([1, 5, 1, 6, 1], 8).tokens == []


def test_cache_takes_an_even_two_token_split_and_the_follower_first_seen_last():
    # (7, 1) → 5 once and 6 once: 2 samples, 50 % ≥ 50 %
    p = _started(NgramCacheDrafter()).propose([7, 1, 5, 7, 1, 6, 7, 1], 8)
    assert p.tokens[0] == 6


def test_cache_counts_ngrams_only_within_each_update():
    d = _started(NgramCacheDrafter())
    d.propose([1, 2], 8)
    d.propose([1, 2, 3], 8)  # the update holds only [3]: (2) → 3 is never counted
    assert (2,) not in d.context and d.context[(1,)] == {2: 1}


def test_cache_drafts_from_earlier_answers_with_the_strict_thresholds():
    d = _started(NgramCacheDrafter())
    d.propose([1, 5] * 5, 8)  # (1) → 5 five times
    d.begin(REQUEST, np.random.default_rng(0))  # that answer's counts join the dynamic cache
    p = d.propose([9, 1], 8)
    assert p.tokens[0] == 5 and p.sources[0] is None  # from an earlier chat
    fresh = _started(NgramCacheDrafter())
    assert fresh.propose([9, 1], 8).tokens == []

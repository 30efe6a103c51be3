"""N-gram lookup tells K auto when its drafts go on with a copy the text has followed, and K auto
counts those steps' acceptance apart (acceptance.py's note on copies)."""

from __future__ import annotations

import random

import numpy as np

from backend.engine import adaptive_k
from backend.engine.adaptive_k import AUTO_K_CAP, AdaptiveK
from backend.engine.drafters.ngram import NgramDrafter
from backend.engine.request import GenerationRequest, Message
from engine.runner import emitted_ids, run

PASSAGE = [11, 12, 13, 14, 15, 16, 17, 18, 19, 20]


def _drafter() -> NgramDrafter:
    drafter = NgramDrafter()
    drafter.begin(GenerationRequest(messages=(Message("user", "x"),)), np.random.default_rng(0))
    return drafter


def test_a_lookup_says_when_its_drafts_go_on_with_the_copy_it_followed():
    drafter = _drafter()
    text = [1, 2, *PASSAGE, 3, 4, *PASSAGE[:3]]  # the passage starts again
    first = drafter.propose(text, 4)
    assert first.tokens == PASSAGE[3:7] and not first.continues  # a fresh match
    # the step kept its four drafts and the target's own token was the passage's next
    followed = drafter.propose([*text, *PASSAGE[3:8]], 4)
    assert followed.tokens[:2] == PASSAGE[8:10] and followed.continues
    # here the target wrote something else: the next match is not that copy
    text = [1, 2, *PASSAGE, 3, 4, *PASSAGE[:3], 5, 2, 11, 12]
    fresh = _drafter()
    fresh.propose([1, 2, *PASSAGE, 3, 4, *PASSAGE[:3]], 4)
    elsewhere = fresh.propose(text, 4)
    assert elsewhere.tokens == PASSAGE[2:6] and not elsewhere.continues
    # a new answer starts afresh
    drafter.begin(GenerationRequest(messages=(Message("user", "y"),)), np.random.default_rng(0))
    assert not drafter.propose(text[:-1], 4).continues


def test_k_auto_drafts_long_where_a_copy_goes_on_and_short_at_a_fresh_match():
    """Fresh matches are often wrong at once; drafts that go on with a copy nearly never are.
    Counted together, every step had one length; counted apart, each its own."""
    rng = random.Random(5)
    c = AdaptiveK(plain_step_ms=10.0)  # no stopper: a lookup
    continuing = False
    for _ in range(300):
        k = 8
        c.choose(AUTO_K_CAP, continuing=continuing)
        kept, chance = 0, 0.97 if continuing else 0.4
        while kept < k and rng.random() < chance:
            kept, chance = kept + 1, 0.97 if continuing else 0.7
        c.record(k, kept, 0.0, 10.0 + 2.0 * (k + 1))
        continuing = kept == k and rng.random() < 0.8
    assert c.choose(AUTO_K_CAP, continuing=True) >= 8
    assert c.choose(AUTO_K_CAP, continuing=False) <= 2
    assert c.alphas(3, continuing=True)[0] > 0.9 > 0.5 > c.alphas(3, continuing=False)[0]


def test_the_engine_asks_k_auto_knowing_whether_a_lookups_drafts_go_on_with_a_copy(
        count_engine, monkeypatch):
    asked: list[bool] = []
    choose = adaptive_k.AdaptiveK.choose

    def spying(self, n_draft_max, continuing=False, repeating=None):
        asked.append(continuing)
        return choose(self, n_draft_max, continuing, repeating)

    monkeypatch.setattr(adaptive_k.AdaptiveK, "choose", spying)
    prompt = " one two three four five six seven eight nine ten eleven twelve one two three"
    _, plain = run(count_engine, GenerationRequest(prompt=prompt, max_tokens=40))
    _, auto = run(count_engine, GenerationRequest(prompt=prompt, max_tokens=40, spec_type="ngram",
                                               n_draft_max=0))
    assert emitted_ids(auto) == emitted_ids(plain)  # lossless
    assert True in asked and False in asked  # copies followed, and fresh matches


def test_k_auto_weighs_a_lookups_step_only_when_the_lookup_found_drafts(count_engine,
                                                                        monkeypatch):
    """A step whose lookup found nothing is plain whatever K auto would choose: weighing every
    length for it cost 0.2 ms a step, on most of a lookup's steps."""
    found: list[bool] = []
    asked: list[bool] = []
    propose, choose = NgramDrafter.propose, adaptive_k.AdaptiveK.choose

    def spying_propose(self, history, k):
        proposal = propose(self, history, k)
        found.append(bool(proposal.tokens))
        return proposal

    def spying_choose(self, n_draft_max, continuing=False, repeating=None):
        asked.append(found[-1])
        return choose(self, n_draft_max, continuing, repeating)

    monkeypatch.setattr(NgramDrafter, "propose", spying_propose)
    monkeypatch.setattr(adaptive_k.AdaptiveK, "choose", spying_choose)
    prompt = " one two three four five six seven eight nine ten eleven twelve one two three"
    _, plain = run(count_engine, GenerationRequest(prompt=prompt, max_tokens=60))
    # no plain probes (whose length the steps' times decide): the lookup asked at every step
    _, auto = run(count_engine, GenerationRequest(prompt=prompt, max_tokens=60, spec_type="ngram",
                                               n_draft_max=0, measure_plain=False))
    assert emitted_ids(auto) == emitted_ids(plain)
    assert False in found and True in found  # steps with and without a match…
    assert asked and all(asked)  # …and K auto asked on those with one only
    assert len(asked) == found.count(True)

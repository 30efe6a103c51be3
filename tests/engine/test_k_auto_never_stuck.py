"""K auto is never stuck in plain decoding: after a stretch in which drafting was made to look
slow (another program on the cores while it drafted), and then fast again, it drafts again
within a bounded number of steps; a text that starts repeating is probed sooner; and what a
previous launch remembered of such a stretch is a prior the first answer checks, never a
verdict (adaptive_k's EXPLORE_MAX and RETRY_ANSWERS, k_auto_memory.restore).

The timing source is scripted: each step's drafting and verifying times come from the script,
never from this machine's clock."""

from __future__ import annotations

import json
import random

import pytest

from backend.engine.adaptive_k import (
    AUTO_K_CAP,
    EXPLORE_EVERY,
    EXPLORE_MAX,
    RECHECK_EVERY,
    AdaptiveK,
    Go,
)
from backend.engine.k_auto_memory import restore, state_of

PLAIN_MS = 10.0


def verify_ms(n: int) -> float:
    return PLAIN_MS if n == 1 else 14.0 + 1.2 * (n - 2)


def step(c: AdaptiveK, rng: random.Random, draft_slow: float, *, repeating: bool = False,
         alpha: float = 0.95) -> int:
    """One step, timed by the script: a drafted token costs 1.5 ms times `draft_slow` (the
    drafter's cores busy or not), verifying as `verify_ms`; the target keeps each draft with
    chance `alpha`. Returns the drafts verified."""
    k, judge, j = c.choose(AUTO_K_CAP, repeating=lambda: repeating), c.stopper(), 0
    while j < k:
        go = judge(j, 0.9)
        if go is Go.DROP:
            break
        j += 1
        if go is Go.LAST:
            break
    kept = 0
    while kept < j and rng.random() < alpha:
        kept += 1
    catch_up = draft_slow * 1.5 if j else 0.0
    c.record(j, kept, draft_slow * 1.5 * j + catch_up, verify_ms(j + 1), [0.9] * j, catch_up)
    c.record_overhead(0.3)
    return j


def made_plain(seed: int) -> tuple[AdaptiveK, random.Random]:
    """A controller that drafted while drafting paid, then was kept plain by a stretch in
    which each drafted token cost twelve times as much."""
    rng = random.Random(seed)
    c = AdaptiveK(plain_step_ms=PLAIN_MS, stops=True)
    c.begin_answer(PLAIN_MS, max_tokens=10_000)
    assert sum(1 for _ in range(60) if step(c, rng, 1.0)) > 45  # drafting pays
    slow = [step(c, rng, 12.0) for _ in range(150)]
    assert sum(1 for k in slow[-40:] if k) <= 2, slow  # the slow stretch made it plain
    return c, rng


def steps_to_draft_again(c: AdaptiveK, rng: random.Random, **kw) -> int:
    """Steps at today's speed until K auto drafts in most of a run of eight steps again."""
    ks = [step(c, rng, 1.0, **kw) for _ in range(EXPLORE_MAX + 80)]
    for i in range(len(ks) - 8):
        if ks[i] and sum(1 for k in ks[i:i + 8] if k) >= 6:
            return i
    pytest.fail(f"K auto never drafted again: {ks}")


# The bound: a probe after at most EXPLORE_MAX plain steps (choices are weighed every
# RECHECK_EVERY), then a few steps to relearn the costs the probe found changed.
BOUND = EXPLORE_MAX + RECHECK_EVERY + 8


@pytest.mark.parametrize("seed", range(5))
def test_after_drafting_looked_slow_it_drafts_again_within_the_bound(seed):
    c, rng = made_plain(seed)
    assert steps_to_draft_again(c, rng) <= BOUND


@pytest.mark.parametrize("seed", range(3))
def test_a_text_that_repeats_is_probed_sooner(seed):
    c, rng = made_plain(seed)
    assert steps_to_draft_again(c, rng, repeating=True) <= EXPLORE_EVERY + RECHECK_EVERY + 8


@pytest.mark.parametrize("seed", range(3))
def test_the_next_answer_after_a_plain_one_drafts_again_within_the_bound(seed):
    c, rng = made_plain(seed)
    c.begin_answer(PLAIN_MS, n_prompt=20, max_tokens=512)  # the welcome prompt, say
    assert steps_to_draft_again(c, rng) <= BOUND


def test_a_drafter_dear_to_catch_up_is_not_forced_to_probe():
    """Catching up half a plain step a token, a probe costs half the plain stretch it ends
    whatever its length: the bound is not bought at that price (FORCED_SHARE)."""
    c = AdaptiveK(plain_step_ms=PLAIN_MS, stops=True)
    c.begin_answer(PLAIN_MS, n_prompt=2, max_tokens=10_000)
    behind, ks = 2, []
    for _ in range(400):
        k = c.choose(AUTO_K_CAP)
        catch_up = 5.0 * behind if k else 0.0
        c.record(k, 0, catch_up + 12.0 * k, verify_ms(k + 1), [0.9] * k, catch_up)
        c.record_overhead(0.3)
        behind = 1 if k else behind + 1
        ks.append(k)
    assert sum(1 for k in ks[100:] if k) == 0, ks


@pytest.mark.parametrize("seed", range(3))
def test_a_remembered_plain_verdict_does_not_stop_the_first_answer_drafting(seed):
    """What a previous launch saved after its slow stretch, restored in a new engine whose
    plain step is the same (the memory's check once skipped such a launch)."""
    old, _ = made_plain(seed)
    saved = json.loads(json.dumps(state_of(old)))  # as written to disk and read back
    c = AdaptiveK(plain_step_ms=PLAIN_MS, stops=True)
    restore(c, saved, PLAIN_MS)
    rng = random.Random(100 + seed)
    c.begin_answer(PLAIN_MS, n_prompt=20, max_tokens=200)
    ks = [step(c, rng, 1.0) for _ in range(40)]
    first = next((i for i, k in enumerate(ks) if k), None)
    assert first is not None and first <= EXPLORE_EVERY + RECHECK_EVERY, ks
    assert sum(1 for k in ks if k) >= 20, ks


def test_when_drafting_does_not_pay_it_stays_mostly_plain_and_says_why():
    """Re-probing is bounded: with drafting truly dear, the probes are a small share."""
    rng = random.Random(7)
    c = AdaptiveK(plain_step_ms=PLAIN_MS, stops=True)
    c.begin_answer(PLAIN_MS, max_tokens=10_000)
    ks = [step(c, rng, 12.0) for _ in range(400)]
    assert sum(1 for k in ks[100:] if k) <= 300 / EXPLORE_MAX * 3, ks
    why = c.why_plain()
    assert why is not None and str(why).startswith("Drafting did not pay here: K auto expected")
    assert f"every {EXPLORE_MAX} steps" in str(why)

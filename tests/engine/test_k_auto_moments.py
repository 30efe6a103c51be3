"""K auto when the machine's speed moves, or an answer outruns the last: what it measured in
another moment must not keep it from drafting what pays now (verify_costs' notes on
SHIFT_STEPS and SIZE_FRESH, adaptive_k's on COST_SURPRISE and HORIZON)."""

from __future__ import annotations

import random

import pytest

from backend.engine.adaptive_k import (
    AUTO_K_CAP,
    EXPLORE_EVERY,
    RECHECK_EVERY,
    SINGLE_REFRESH,
    AdaptiveK,
    Go,
)
from backend.engine.verify_costs import SHIFT_MS, SHIFT_STEPS, SIZE_FRESH


def verify_ms(n: int, slow: float = 1.0) -> float:
    """A target whose batch of one is a matrix-vector product and bigger ones are not."""
    return slow * (10.0 if n == 1 else 14.0 + 1.2 * (n - 2))


def step(c: AdaptiveK, rng: random.Random, slow: float, alpha: float = 0.97) -> int:
    """One step as the engine makes it: K auto chooses, the stopper judges each draft (the
    drafter 90% sure of each), the target keeps each with chance alpha; a drafted token costs
    3 ms and the drafter's catching up one more. Returns the drafts verified."""
    k, judge, j = c.choose(AUTO_K_CAP), c.stopper(), 0
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
    catch_up = slow * 3.0 if j else 0.0
    c.record(j, kept, slow * 3.0 * j + catch_up, verify_ms(j + 1, slow), [0.9] * j, catch_up)
    c.record_overhead(0.3)
    return j


@pytest.mark.parametrize("seed", range(6))
def test_a_machine_twice_as_fast_drafts_as_todays_costs_say(seed):
    """60 steps while the machine runs at half speed, then 60 at full speed, where drafting
    8-16 a step is best. Before, the new steps went on the line beside the old ones, whose
    sizes the next drafts left: the line steepened, drafts shortened, and the sizes they left
    kept their slow medians (one run in five fell to 1 draft a step, 100 steps to climb
    back); or a plain step timed at the new speed sent K auto plain to the answer's end."""
    rng = random.Random(seed)
    c = AdaptiveK(plain_step_ms=20.0, stops=True)
    c.begin_answer(20.0)
    for _ in range(60):
        step(c, rng, slow=2.0)
    ks = [step(c, rng, slow=1.0) for _ in range(60)]
    assert c.single_ms() == pytest.approx(10.0)
    usual = max(set(ks[-20:]), key=ks[-20:].count)  # what it drafts now costs today's
    assert c.verify_ms(usual) == pytest.approx(verify_ms(usual + 1), rel=0.1)
    settled = [k for k in ks[SHIFT_STEPS + SINGLE_REFRESH + 2:] if k]
    assert len(settled) > 40 and min(settled) >= 5, ks


def test_steps_at_another_speed_three_in_a_row_scale_every_cost_they_weigh():
    """Steps in a row at twice their size's median, over SHIFT_MS: the machine slowed down.
    Every size's verify times and the plain step are taken to cost twice as much, the sizes'
    costs relative to each other kept (the 9, verified only before, costs twice its old
    median, not the line's guess), and the length drafted is the one those costs choose."""
    c = AdaptiveK(plain_step_ms=10.0)
    for _ in range(3):
        c.record(0, 0, 0.0, verify_ms(1))
    for k in (4, 8) * 10:
        c.record(k, k, 3.0 * k, verify_ms(k + 1))
    before = c.choose(AUTO_K_CAP)
    c.record(before, before, 3.0 * before, verify_ms(before + 1))
    per_draft = c.draft_line()[1]
    slow = 0
    while slow < SHIFT_STEPS or slow * verify_ms(5, 2.0) < SHIFT_MS:
        c.record(4, 4, 6.0 * 4, verify_ms(5, 2.0))
        slow += 1
    assert c.verify_ms(4) == pytest.approx(verify_ms(5, 2.0))
    assert c.verify_ms(8) == pytest.approx(verify_ms(9, 2.0))
    assert c.single_ms() == pytest.approx(verify_ms(1, 2.0))
    assert c.draft_line()[1] == pytest.approx(2.0 * per_draft, rel=0.05)  # the drafter's too


def test_a_few_slow_steps_are_noise_not_a_new_machine():
    """Two steps in a row at twice their size's cost (another program woke up), then steps as
    before: nothing is forgotten, and the two count as what they are, two of its steps."""
    c = AdaptiveK(plain_step_ms=10.0)
    for _ in range(20):
        c.record(4, 4, 12.0, verify_ms(5))
    assert c.verify_ms(4) == pytest.approx(verify_ms(5))
    for slow in (2.0, 2.0, 1.0):
        c.record(4, 4, 12.0, verify_ms(5, slow))
    times = c._recent_times(5)
    assert times[-3:] == [verify_ms(5, 2.0), verify_ms(5, 2.0), verify_ms(5)]
    assert len(times) == 16 and c.verify_ms(4) == pytest.approx(verify_ms(5))
    assert c._since_single == 23  # no plain step called for


def test_a_batch_size_not_verified_lately_is_read_off_the_line():
    """Batches of 9 were verified in a slow moment; then, at full speed, only batches of 3
    and 5, for more than SIZE_FRESH drafting steps. The 9's old median says twice its cost
    now, and kept, would keep drafts of 8 from being tried again; it is read off the line
    through the recent steps instead, and its old steps go once it is verified again."""
    c = AdaptiveK(plain_step_ms=10.0)
    for _ in range(16):
        c.record(8, 8, 24.0, verify_ms(9, 2.0))
    assert c.verify_ms(8) == pytest.approx(verify_ms(9, 2.0))
    for i in range(SIZE_FRESH + 1):
        k = 2 if i % 2 else 4
        c.record(k, k, 3.0 * k, verify_ms(k + 1))
    # the line's guess, between the recent sizes' medians and the prior's pseudo-steps
    assert verify_ms(9) * 0.8 < c.verify_ms(8) < verify_ms(9) * 1.2
    c.record(8, 8, 24.0, verify_ms(9))
    assert c._recent_times(9) == [verify_ms(9)]


def drafted_again_after_a_plain_stretch(max_tokens: int = 1 << 30, made: int = 200) -> bool:
    """An answer that has made `made` tokens (more than the last answer's 60), drafting at
    1.5x plain decoding, goes plain for 8 steps (as a plain step timed in a quick moment can
    make it do); the drafter then has 8 tokens to catch up on at 1 ms each. Whether K auto
    drafts again within a few rechecks."""
    c = AdaptiveK(plain_step_ms=10.0, stops=True)
    for _ in range(3):  # the last answers: 60 tokens each
        c.begin_answer(10.0, max_tokens=max_tokens)
        for _ in range(6):
            c.record(9, 9, 3.0 * 9 + 1.0, verify_ms(10), [0.9] * 9, 1.0)
    c.begin_answer(10.0, max_tokens=max_tokens)
    while c._answer_tokens < made:
        c.record(9, 9, 3.0 * 9 + 1.0, verify_ms(10), [0.9] * 9, 1.0)
    for _ in range(8):
        c.record(0, 0, 0.0, verify_ms(1))
    c.record(9, 9, 3.0 * 9 + 9.0, verify_ms(10), [0.9] * 9, 9.0)  # a catch-up, measured
    for _ in range(8):
        c.record(0, 0, 0.0, verify_ms(1))
    return any(c.choose(AUTO_K_CAP) for _ in range(3 * RECHECK_EVERY))


def test_an_answer_longer_than_the_last_drafts_again_after_a_plain_stretch():
    """Past the last answer's length, the tokens left were taken as one, so no catching up
    was ever repaid: a plain stretch lasted to the answer's end. Such an answer is expected
    to go on as long again as it has gone; but not past its max_tokens."""
    assert drafted_again_after_a_plain_stretch()
    assert not drafted_again_after_a_plain_stretch(max_tokens=203)


def test_drafting_costs_measured_beside_a_slower_plain_step_are_checked_again():
    """An answer drafted while other programs kept the cores busy: plain steps 30 ms, each
    drafting step 3x its cost today. Then the load ends and K auto, plain, measures plain
    steps at 10 ms. Set beside those, the drafting it remembers is slower than plain decoding,
    and its catching up on the plain stretch too dear to probe: it stayed plain for good (in
    a live run, the next three answers plain where K = 8 ran 1.2-1.3x plain decoding). Costs
    measured beside a V(1) this far from today's are checked by a probe instead."""
    c = AdaptiveK(plain_step_ms=30.0, stops=True)
    c.begin_answer(30.0, n_prompt=40)
    for _ in range(3):
        c.record(0, 0, 0.0, verify_ms(1, 3.0))
    for i in range(24):  # the drafter caught up on the prompt at 3 ms a token first
        catch_up = 3.0 * (1.0 + (40 if i == 0 else 0))
        c.record(8, 8, 3.0 * 3.0 * 8 + catch_up, verify_ms(9, 3.0), [0.9] * 8, catch_up)
    for _ in range(40):  # the load has ended; the answer goes on plain
        c.record(0, 0, 0.0, verify_ms(1))
    assert c.single_ms() == verify_ms(1)
    c.begin_answer(10.0, n_prompt=40)
    ks = []
    for _ in range(64):
        ks.append(c.choose(AUTO_K_CAP))
        if ks[-1]:
            break
        c.record(0, 0, 0.0, verify_ms(1))
    assert ks[-1] > 0 and len(ks) <= 2 * EXPLORE_EVERY + 1, ks

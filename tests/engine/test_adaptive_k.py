"""K auto: the controller picks the draft length that maximises expected tokens per unit of
time from what it measured, and in the engine it stays lossless and finds the counting pair's
right length."""

from __future__ import annotations

import itertools
import random

import pytest

from backend.engine.adaptive_k import (
    AUTO_K_CAP,
    EXPLORE_EVERY,
    EXPLORE_K,
    EXPLORE_MAX,
    MEASURED_MARGIN,
    PROBE_SHARE,
    RECHECK_EVERY,
    RETRY_ANSWERS,
    SINGLE_MAX_AGE,
    SINGLE_REFRESH,
    AdaptiveK,
    Go,
)
from backend.engine.events import GenerationFinished, GenerationStarted, StepVerified
from backend.engine.request import GenerationRequest
from engine.runner import emitted_ids, run


def trained(alpha_kept: int, k: int, steps: int, *, draft_ms: float, verify_ms,
            plain_ms: float = 10.0) -> AdaptiveK:
    """A controller fed `steps` steps that each drafted k and kept `alpha_kept` of them."""
    c = AdaptiveK(plain_step_ms=plain_ms)
    for _ in range(steps):
        c.record(k, alpha_kept, draft_ms * k, verify_ms(k + 1))
    return c


def test_a_draft_that_is_always_right_and_cheap_drafts_long():
    c = trained(8, 8, 200, draft_ms=0.5, verify_ms=lambda n: 10.0 + 0.2 * n)
    assert c.choose(AUTO_K_CAP) >= 8


def test_a_draft_that_is_always_wrong_is_dropped_but_still_probed():
    """Plain steps, with a short probe after EXPLORE_EVERY of them, then after twice as many
    each time a probe finds drafting still does not pay, up to EXPLORE_MAX; a new answer
    (another text) probes soon again."""
    c = trained(0, 4, 200, draft_ms=1.0, verify_ms=lambda n: 10.0 + 1.0 * n)

    def probe_gaps(n_steps: int) -> list[int]:
        gaps, plain = [], 0
        for _ in range(n_steps):
            k = c.choose(AUTO_K_CAP)
            c.record(k, 0, 1.0 * k, 10.0 + (k + 1))
            if k:
                assert k == EXPLORE_K
                gaps.append(plain)
                plain = 0
            else:
                plain += 1
        return gaps

    gap = EXPLORE_EVERY
    expected = []
    while sum(expected) + len(expected) + gap + 1 <= 300:
        expected.append(gap)
        gap = min(2 * gap, EXPLORE_MAX)
    assert probe_gaps(300) == expected
    assert expected[:3] == [EXPLORE_EVERY, 2 * EXPLORE_EVERY, 4 * EXPLORE_EVERY]
    assert expected[-1] == EXPLORE_MAX
    c.begin_answer()
    assert probe_gaps(EXPLORE_EVERY + 1) == [EXPLORE_EVERY]


def test_a_probe_whose_step_loses_to_plain_decoding_waits_for_a_stretch_to_pay_for_it():
    """Drafting catches up on nothing, but a probe's step takes 2.7 plain steps' time to make
    one token (on the 151,936-token fast pair: 7–12 ms a probe against 1.7 a plain step, every
    ~13 steps, 15 % of the answer): after the answer's first, a probe comes only once that loss
    is within PROBE_SHARE of the plain stretch before it. Probes that lose little keep the
    doubling gaps (the test above)."""
    def gaps(verify_ms: float) -> list[int]:
        c = trained(0, 4, 200, draft_ms=1.0, verify_ms=lambda n: 10.0 + 1.0 * n)
        out, plain = [], 0
        for _ in range(400):
            k = c.choose(AUTO_K_CAP)
            c.record(k, 0, 1.0 * k, verify_ms if k else 10.0)
            if k:
                out.append(plain)
                plain = 0
            else:
                plain += 1
        return out

    loss = EXPLORE_K * 1.0 + 25.0 - 10.0  # the probe's step less one plain step's token
    dear = gaps(25.0)
    assert dear[0] == EXPLORE_EVERY and len(dear) >= 4  # still probing, only further apart
    assert all(g >= loss / (PROBE_SHARE * 10.0) for g in dear[1:])
    assert gaps(14.0)[:3] == [EXPLORE_EVERY, 2 * EXPLORE_EVERY, 4 * EXPLORE_EVERY]


def test_a_text_that_goes_on_repeating_is_probed_at_its_start_then_on_the_schedule():
    """Drafting never pays, and the text repeats itself (a counting model's cycle, a list):
    probed as it starts to repeat, then at the doubling gaps, not every EXPLORE_EVERY steps (on
    the 151,936-token fast pair: a probe every ~12 steps, 15 % of the answer); a text that stops
    repeating and starts again is probed again soon."""
    c = trained(0, 4, 200, draft_ms=1.0, verify_ms=lambda n: 10.0 + 1.0 * n)
    repeats = [True]
    probes, plain = [], 0
    for i in range(400):
        if i in (250, 270):
            repeats[0] = i == 270
        k = c.choose(AUTO_K_CAP, repeating=lambda: repeats[0])
        c.record(k, 0, 1.0 * k, 10.0 + (k + 1))
        if k:
            probes.append((i, plain))
            plain = 0
        else:
            plain += 1
    gaps = [g for i, g in probes if i < 250]
    assert gaps[:4] == [EXPLORE_EVERY, 2 * EXPLORE_EVERY, 4 * EXPLORE_EVERY, EXPLORE_MAX]
    assert any(270 <= i <= 270 + RECHECK_EVERY for i, _ in probes)  # it repeats again


def geometric(alpha: float, verify_ms, *, steps: int = 400, draft_ms: float = 0.3,
              seed: int = 1) -> AdaptiveK:
    """Steps of varied length whose every position is accepted with probability alpha."""
    rng = random.Random(seed)
    c = AdaptiveK(plain_step_ms=verify_ms(1))
    for s in range(steps):
        k = 2 + s % 9
        kept = 0
        while kept < k and rng.random() < alpha:
            kept += 1
        c.record(k, kept, draft_ms * k, verify_ms(k + 1))
    return c


def test_dear_verification_shortens_the_draft():
    cheap = geometric(0.8, lambda n: 10.0 + 0.1 * n)
    dear = geometric(0.8, lambda n: 10.0 + 4.0 * n)
    assert dear.choose(AUTO_K_CAP) < cheap.choose(AUTO_K_CAP)


def test_expected_tokens_follow_the_constant_alpha_formula():
    c = geometric(0.7, lambda n: 10.0 + n, steps=4000)
    for k in (1, 3, 6):
        formula = (1 - 0.7 ** (k + 1)) / (1 - 0.7)
        assert abs(c.expected_tokens(k) - formula) / formula < 0.05


def test_the_choice_maximises_the_measured_rate():
    c = trained(3, 6, 300, draft_ms=1.0, verify_ms=lambda n: 8.0 + 0.6 * n)
    best = c.choose(AUTO_K_CAP)
    rates = [c.expected_tokens(k) / c.step_time(k) for k in range(AUTO_K_CAP + 1)]
    assert rates[best] == max(rates)
    # position 4 was never accepted (the draft keeps 3): its estimate is near 0, so K stops
    # around the kept length
    assert 2 <= best <= 4, best


def test_a_dear_step_outside_draft_and_verify_lengthens_the_draft():
    """What every step pays once (its events, the loop) is amortised over more tokens by a
    longer draft: measured, it moves K up; a single long pause (the reader stalled) does not
    count, being the median's outlier."""
    def fed(overhead_ms: float) -> AdaptiveK:
        c = geometric(0.6, lambda n: 10.0 + 1.5 * n)
        for i in range(20):
            c.record_overhead(overhead_ms if i != 7 else 5000.0)
        return c

    light, heavy = fed(0.0), fed(40.0)
    assert heavy.overhead().at(3) == 40.0 and light.overhead().at(3) == 0.0
    assert heavy.choose(AUTO_K_CAP) > light.choose(AUTO_K_CAP)
    assert heavy.step_time(3) - light.step_time(3) == 40.0


def toy_head_answer(c: AdaptiveK) -> tuple[float, int]:
    """One 128-token answer of a pair like the toy EAGLE-3 one, where drafting cannot pay:
    a plain step verifies in 0.6 ms, the head drafts a token in 0.5 and catches up 0.35 a
    token kept, a batch of n verifies in 0.6 + 0.45·n, and every draft is right. Around each
    step: 0.07 ms after a plain one, 0.15 + 0.045 a drafted token after a draft (each is
    made into an event). Returns (ms, steps that drafted)."""
    c.begin_answer(0.6, n_prompt=2, max_tokens=128)
    ms, made, drafting, behind = 0.0, 0, 0, 2
    while made < 128:
        k = min(c.choose(min(AUTO_K_CAP, 127 - made)), 127 - made)
        catch_up = 0.35 * behind if k else 0.0
        draft = catch_up + 0.5 * k
        verify = 0.6 if not k else 0.6 + 0.45 * (k + 1)
        c.record(k, k, draft, verify, [0.9] * k, catch_up)
        around = 0.15 + 0.045 * k if k else 0.07
        c.record_overhead(around)
        ms, made = ms + draft + verify + around, made + k + 1
        drafting += bool(k)
        behind = k + 1 if k else behind + 1
    return ms, drafting


def test_a_plain_step_is_charged_a_plain_steps_overhead_not_a_long_drafts():
    """A step drafting 16 spends 12 times a plain step's time around it (its tokens' events):
    one median overhead over the last steps, most of them drafting, charged plain decoding
    with it, and on the toy EAGLE-3 pair, where every drafted token costs about a plain step,
    K auto drafted 16 a step at 0.42 of plain decoding, answer after answer."""
    c = AdaptiveK(plain_step_ms=0.6, stops=True)
    for _ in range(2):  # the first answers learn what drafting costs
        toy_head_answer(c)
    plain_ms = 128 * (0.6 + 0.07)
    for _ in range(4):
        ms, drafting = toy_head_answer(c)
        assert ms < 1.1 * plain_ms and drafting <= 2, (ms / plain_ms, drafting)
    assert c.overhead().plain == pytest.approx(0.07)


def head_that_cannot_pay(plain_ms: float) -> AdaptiveK:
    """A controller after an answer drafted with a head that catches up on every token the
    last step kept (0.5 plain steps each, an EAGLE-3 head) and drafts a token in a plain
    step's time: drafting runs at half plain decoding's rate, whatever the speed. The prompt
    (2 tokens) took it 1 plain step; one draft followed a plain stretch of 16 tokens."""
    c = AdaptiveK(plain_step_ms=plain_ms, stops=True)
    c.begin_answer(plain_ms, n_prompt=2)
    c.record(8, 8, plain_ms * 9, plain_ms * (1 + 0.5 * 9), [0.9] * 8, plain_ms)
    for i in range(24):
        behind = 16 if i == 12 else 9
        catch_up = plain_ms * 0.5 * behind
        c.record(8, 8, plain_ms * 8 + catch_up, plain_ms * (1 + 0.5 * 9), [0.9] * 8,
                 catch_up)
        if i == 11:
            for _ in range(16):
                c.record(0, 0, 0.0, plain_ms)
    return c


def probes_in_a_plain_answer(c: AdaptiveK, plain_ms: float) -> list[int]:
    c.begin_answer(plain_ms, n_prompt=2)
    ks = []
    for _ in range(64):
        ks.append(c.choose(AUTO_K_CAP))
        if ks[-1]:
            break
        c.record(0, 0, 0.0, plain_ms)
    return [k for k in ks if k]


def test_a_short_prompts_catching_up_is_not_taken_for_free():
    """The head caught up on the 2-token prompt in less than an ordinary step's catching up
    (9 tokens after a draft of 8 kept): the prompt's cost beyond an ordinary step's read as
    nothing, so every answer's first probe looked repaid, and on the toy EAGLE-3 pair each
    answer K auto kept plain paid one, a fifth of its time. The plain stretches' cost per token
    is taken instead."""
    c = head_that_cannot_pay(2.0)
    assert c.catch_up_ms() > 0
    assert probes_in_a_plain_answer(c, 2.0) == []


def test_faster_plain_steps_check_drafting_costs_only_where_they_would_then_pay():
    """Plain steps measured 30% faster than beside the drafting steps set off a check of the
    drafting costs, a probe made whatever it costs (adaptive_k's COST_SURPRISE). Where even
    scaled to that speed drafting runs at half plain decoding's rate, there is nothing to
    check: on the toy EAGLE-3 pair, whose plain steps move by a third from moment to moment,
    such probes came twice an answer."""
    c = head_that_cannot_pay(2.0)
    for _ in range(40):  # the answer goes on plain, in a quicker moment
        c.record(0, 0, 0.0, 1.4)
    assert c._costs_unchecked
    assert probes_in_a_plain_answer(c, 1.4) == []


def test_the_verify_line_is_fitted_from_the_steps():
    c = AdaptiveK(plain_step_ms=10.0)
    for k in (0, 2, 4, 8) * 50:
        c.record(k, k, 0.0, 5.0 + 2.0 * (k + 1))
    a, b = c.verify_line()
    # through each size's median of its last SIZE_SAMPLES steps and the prior's pseudo-steps
    # (alone, a slope of 0.57): the prior's pull is a tenth by then
    assert abs(b - 2.0) < 0.25 and abs(a - 5.0) < 1.5


def test_k_auto_is_lossless_and_settles_on_the_counting_pairs_length(count_engine,
                                                                      test_models):
    request = GenerationRequest(prompt="zero one", spec_type="draft", n_draft_max=0,
                                max_tokens=60)
    plain_final, plain_steps = run(count_engine, GenerationRequest(
        prompt="zero one", spec_type="none", max_tokens=60))
    # A fresh controller's answer: on this pair (a draft as dear as its target) a later
    # answer knows its catching up on the prompt is not repaid and stays plain (HORIZON)
    count_engine.load_draft(test_models / "count-draft.gguf")
    events = list(count_engine.generate(request))
    started = next(e for e in events if isinstance(e, GenerationStarted))
    assert started.n_draft_max == 0  # the viewer shows "K auto"
    final = next(e for e in events if isinstance(e, GenerationFinished))
    steps = [e for e in events if isinstance(e, StepVerified)]
    assert emitted_ids(steps) == emitted_ids(plain_steps)
    assert final.text == plain_final.text
    again, _ = run(count_engine, request)
    assert again.text == plain_final.text
    lengths = [len(s.drafted) for s in steps]
    assert len(set(lengths)) > 1, "K auto should vary the draft length"
    # the counting draft is right for 3 words, then wrong (DRAFT_SKIP_EVERY = 4): once
    # measured, most drafts stay short of 8
    late = lengths[len(lengths) // 2:]
    assert sum(late) / len(late) < 8, lengths


def test_a_drafters_first_step_catching_up_on_the_prompt_does_not_stop_drafting():
    """A draft model's first step also decodes the prompt into its own cache: hundreds of ms
    for a few tokens. Read as the cost of drafting, it would make every later draft look too
    dear; the controller takes the median of recent steps instead."""
    c = AdaptiveK(plain_step_ms=20.0)
    c.record(4, 4, 400.0, 26.0)  # prefill of the draft context: 100 ms a token
    for _ in range(12):
        c.record(4, 4, 4 * 2.0, 26.0)  # then 2 ms a drafted token
    assert c.draft_line()[1] == 2.0  # c, the ms one more drafted token costs
    assert c.choose(AUTO_K_CAP) >= 4


def test_a_seeded_sampled_answer_drafts_a_fixed_k_and_comes_out_the_same(count_engine):
    from backend.engine.adaptive_k import SEEDED_K
    from backend.engine.request import SamplingSettings

    seeded = GenerationRequest(prompt="zero one", spec_type="draft", n_draft_max=0,
                               max_tokens=30, sampling=SamplingSettings(temperature=0.8, seed=9))
    events = list(count_engine.generate(seeded))
    assert next(e for e in events if isinstance(e, GenerationStarted)).n_draft_max == SEEDED_K
    a, _ = run(count_engine, seeded)
    b, _ = run(count_engine, seeded)
    assert a.text == b.text
    unseeded = GenerationRequest(prompt="zero one", spec_type="draft", n_draft_max=0,
                                 max_tokens=10, sampling=SamplingSettings(temperature=0.8, seed=-1))
    started = next(e for e in count_engine.generate(unseeded) if isinstance(e, GenerationStarted))
    assert started.n_draft_max == 0  # unseeded: K auto as usual


def verified(judge, qs) -> int:
    """How many of the drafts of probabilities `qs` a step verifies under `judge` (a
    stopper): up to a DROP, or up to and with a LAST."""
    for i, q in enumerate(qs):
        go = judge(i, q)
        if go is Go.DROP:
            return i
        if go is Go.LAST:
            return i + 1
    return len(qs)


def test_the_drafter_stops_where_its_confidence_says_a_draft_will_not_pay():
    """Drafts of probability 0.9+ were always accepted and those under 0.3 never: the stopper
    lets a run of confident drafts through, stops at an unsure one, and a dearer draft (the
    same acceptance) stops sooner, at a chance the cheaper one still pays for."""
    def fed(draft_ms: float) -> AdaptiveK:
        c = AdaptiveK(plain_step_ms=10.0)
        for _ in range(100):
            c.record(4, 3, draft_ms * 4, 10.0 + 0.5 * 5, [0.95, 0.95, 0.95, 0.2])
        c.choose(AUTO_K_CAP)
        return c

    cheap = fed(0.2)
    # a band's own count outweighs the prior (CONFIDENCE_PRIOR pseudo-drafts at the pooled
    # acceptance) once it has several times as many drafts
    assert cheap.accept_chance(0.95) > 0.95 and cheap.accept_chance(0.2, later=True) < 0.1
    judge = cheap.stopper()
    assert [judge(i, 0.95) for i in range(6)] == [Go.ON] * 6
    assert judge(6, 0.2) is Go.DROP  # not worth even its place in the batch
    judge = cheap.stopper()  # a new step starts over; its first draft always goes (measured)
    assert judge(0, 0.2) is not Go.DROP
    assert judge(1, 0.2) is Go.DROP  # ... and a later unsure one stops it
    dear = fed(6.0)
    # the 0.6 band was never measured: it leans on the drafter's acceptance over all bands
    # past the first position (2 of 3), and a few such drafts in a row pay when drafting is
    # cheap, fewer when dear
    assert abs(cheap.accept_chance(0.65, later=True) - 2 / 3) < 0.01
    assert 1 <= verified(dear.stopper(), [0.65] * AUTO_K_CAP) < verified(
        cheap.stopper(), [0.65] * AUTO_K_CAP)


def test_a_drawn_draft_is_verified_when_only_the_next_one_would_not_pay():
    """A dear drafter (6 ms a draft beside a 10 ms plain step) and cheap verification
    (0.5 ms a token): a draft already drawn costs only its place in the batch, so it is
    verified even where the chance of the run is too low to pay for decoding it to draw the
    next. The step ends on LAST, never on DROP, when the chances fall slowly: a DROP would
    mean the drafter decoded a draft for nothing (0.55 of a plain step on the demo pair). When
    decoding costs nothing either, the same drafts go ON."""
    def fed(draft_ms: float) -> AdaptiveK:
        c = AdaptiveK(plain_step_ms=10.0)
        rng = random.Random(5)
        for _ in range(200):
            kept = next((i for i in range(8) if rng.random() > 0.9), 8)
            c.record(8, kept, draft_ms * 8, 10.0 + 0.5 * 9, [0.7] * 8)
        c.choose(AUTO_K_CAP)
        return c

    dear = fed(6.0)
    judge = dear.stopper()
    gos = [judge(i, 0.7) for i in range(AUTO_K_CAP)]
    n = gos.index(Go.LAST)
    assert 1 <= n < AUTO_K_CAP - 1 and gos[:n] == [Go.ON] * n
    # what decides it: the run's chance pays for b but not, times the next draft's, for c + b
    chance = dear.accept_chance(0.7) * dear.accept_chance(0.7, later=True) ** n
    rate = dear._best_rate
    assert rate * dear._verify_slope <= chance
    assert chance * dear.pooled_chance(later=True) < rate * (dear._draft_cost
                                                             + dear._verify_slope)
    assert Go.DROP not in gos[:n + 1]
    free = fed(0.01)
    assert verified(free.stopper(), [0.7] * AUTO_K_CAP) > n + 1


def test_a_draft_model_decodes_no_draft_its_stopper_leaves_unverified(demo_engine):
    """In the engine, under K auto, the draft model decodes each step's drafts but the last
    (whose logits nobody needs), also in the steps its stopper ends before the length asked:
    the stopper weighs going on before that decode, not after. Counted on the draft
    context's decode calls in each proposal, after the first (its catching up)."""
    drafter = demo_engine._drafters["draft"]
    ctx, decode, propose = drafter.ctx, drafter.ctx.decode, drafter.propose
    calls: list[int] = []
    steps: list[tuple[int, int, int]] = []  # (asked, drafted, decodes after catching up)

    def counting(tokens, *args, **kwargs):
        calls.append(len(tokens))
        return decode(tokens, *args, **kwargs)

    def proposing(history, n_max):
        calls.clear()
        out = propose(history, n_max)
        steps.append((n_max, len(out.tokens), len(calls) - 1))
        return out

    ctx.decode, drafter.propose = counting, proposing
    try:
        demo_engine.reset_cache()
        for _ in demo_engine.generate(GenerationRequest(
                prompt="The quick brown fox", spec_type="draft", n_draft_max=0,
                max_tokens=80)):
            pass
    finally:
        ctx.decode, drafter.propose = decode, propose
    assert any(drafted < asked for asked, drafted, _ in steps)  # the stopper ended some
    assert all(decodes == drafted - 1 for _, drafted, decodes in steps if drafted), steps


def test_a_draft_that_has_gone_well_goes_on_past_where_first_drafts_fail():
    """First drafts at q ≈ 0.5 are accepted half the time, later ones at the same q (after
    accepted drafts) nearly always: the later drafts are judged on their own count, so a
    good run is not cut at the first position's rate."""
    c = AdaptiveK(plain_step_ms=10.0)
    for s in range(200):
        if s % 2:
            c.record(4, 0, 0.8, 13.0, [0.5, 0.5, 0.5, 0.5])  # rejected at once
        else:
            c.record(4, 4, 0.8, 13.0, [0.5, 0.5, 0.5, 0.5])  # all four accepted
    assert abs(c.accept_chance(0.5) - 0.5) < 0.05
    assert c.accept_chance(0.5, later=True) > 0.95
    c.choose(AUTO_K_CAP)
    assert verified(c.stopper(), [0.5] * 4) == 4


def test_a_stale_plain_speed_does_not_tilt_the_verify_line():
    """The engine's plain speed was measured when the machine was ten times busier; this
    answer's own single-token steps say what a batch of one costs now, and the prior's slope
    is drawn from them, so drafting still pays."""
    stale = AdaptiveK(plain_step_ms=300.0)
    fresh = AdaptiveK(plain_step_ms=30.0)
    for c in (stale, fresh):
        for i in range(40):  # mostly nothing to draft (n-gram without a match), a few drafts
            drafted = 4 if i % 10 == 0 else 0
            c.record(drafted, drafted, 0.0, 30.0 + 2.0 * drafted)
    assert abs(stale.verify_line()[1] - fresh.verify_line()[1]) < 0.5
    assert stale.choose(AUTO_K_CAP) == fresh.choose(AUTO_K_CAP) > 0


def test_a_drafting_steps_fixed_cost_is_told_from_its_cost_per_token():
    """A drafter that pays 5 ms a step (catching up, rolling back) and 1 ms a token: the line
    says so, every drafting step is charged the 5 ms once, and the choice is the best rate
    under that model."""
    c = AdaptiveK(plain_step_ms=10.0)
    for s in range(64):
        k = 1 + s % 8
        c.record(k, k, 5.0 + 1.0 * k, 10.0 + 0.5 * (k + 1))
    d0, per_token = c.draft_line()
    assert abs(d0 - 5.0) < 0.2 and abs(per_token - 1.0) < 0.05
    rates = [c.expected_tokens(k) / c.step_time(k) for k in range(AUTO_K_CAP + 1)]
    assert rates[c.choose(AUTO_K_CAP)] == max(rates)
    added = c.step_time(4) - c.step_time(0)
    assert c.verify_ms(4) == pytest.approx(10.0 + 0.5 * 5)  # its steps' own, measured
    assert added == pytest.approx(d0 + 4 * per_token + 12.5 - 10.0)  # V(1): the plain step


def test_catch_up_steps_do_not_tilt_the_drafters_line():
    """Probes after plain stretches first decode the missed tokens in one batch, cheap per
    token: that part, timed apart by the drafter, is kept off the line, so it neither makes
    a fixed cost of nothing nor makes drafted tokens look cheap."""
    c = AdaptiveK(plain_step_ms=10.0)
    for s in range(24):
        k = 1 + s % 8
        c.record(k, k, 8.0 * k, 10.0 + 0.5 * (k + 1))  # 8 ms a drafted token, nothing fixed
    for _ in range(6):  # plain stretches of 7 steps, each ended by a probe of 2 drafts
        for _ in range(7):
            c.record(0, 0, 0.0, 10.0)
        c.record(2, 2, 16.0 + 1.5 * 7, 11.5, catch_up_ms=1.5 * 7)
    d0, per_token = c.draft_line()
    assert abs(d0) < 0.5 and abs(per_token - 8.0) < 0.3
    assert abs(c.catch_up_ms() - 1.5) < 0.01


def test_a_drafters_catching_up_is_its_fixed_cost_even_when_its_drafts_are_all_short():
    """A draft model spends 6 ms a step catching up (the target's last token or two) and 6 ms
    a drafted token, and has made only 1-token drafts. Read through the origin with its
    catching up, as once, that was 12 ms a token, so a long draft looked twice as dear as it
    is and K auto never made one to learn otherwise (the prose prompt decoded plainly where
    K = 8 paid). Timed apart, the catching up is the fixed part, and a long draft is costed
    right."""
    c = AdaptiveK(plain_step_ms=10.0)
    for _ in range(16):
        c.record(1, 1, 6.0 + 0.2, 10.0 + 1.0 * 2, catch_up_ms=6.0)
    d0, per_token = c.draft_line()
    assert abs(d0 - 6.0) < 0.01 and per_token < 1.0
    for k in range(2, 9):  # longer drafts, each decoding all but its last token
        c.record(k, k, 6.0 + 6.0 * (k - 1) + 0.2 * k, 10.0 + 1.0 * (k + 1), catch_up_ms=6.0)
    d0, per_token = c.draft_line()
    assert abs(per_token - 6.2) < 0.5 and abs(d0 + 8 * per_token - (6.0 + 6.0 * 7 + 1.6)) < 2.0


def test_lengths_too_alike_give_a_cost_per_token_not_a_line():
    """Drafts of 15 and 16 tokens whose times happen to differ little would draw a line with
    a large fixed part that makes long drafts look ever cheaper: with lengths this close the
    drafter's cost is read per token instead, which charges a long draft in full."""
    c = AdaptiveK(plain_step_ms=1.0)
    for s in range(32):
        k = 15 + s % 2
        c.record(k, k, 30.0 + 0.1 * (k - 15), 1.0 + 0.1 * (k + 1))
    d0, per_token = c.draft_line()
    assert d0 == 0.0 and abs(per_token - 30.05 / 15.5) < 0.05


def test_a_plain_steps_own_time_decides_against_a_draft_that_barely_pays():
    """The F32 demo target verifies one token in 12.6 ms and n ≥ 2 in 13 + 2.6·n ms (a
    matrix-vector kernel for one row, matrix-matrix for more): read off the line, a plain step
    would cost 15.6 ms and a 2-token draft would look faster; with its own time, plain
    decoding is chosen, as the bench measures it faster on the prose prompt."""
    def fed(with_singles: bool) -> AdaptiveK:
        rng = random.Random(3)
        c = AdaptiveK(plain_step_ms=12.6 if with_singles else 0.0)
        for s in range(200):
            k = 1 + s % 8
            kept = 0
            while kept < k and rng.random() < 0.9:
                kept += 1
            c.record(k, kept, 8.0 * k, 13.0 + 2.6 * (k + 1))
            if with_singles and s % 4 == 0:
                c.record(0, 0, 0.0, 12.6)
        for _ in range(8):
            c.record_overhead(0.5)
        return c

    own, line_only = fed(True), fed(False)
    assert own.single_ms() == 12.6
    assert own.choose(AUTO_K_CAP) == 0
    assert line_only.single_ms() > 15.0 and line_only.choose(AUTO_K_CAP) > 0


def test_plain_steps_are_measured_a_few_times_while_drafting_pays():
    """Drafting pays, but no plain step has been timed (nor the engine's plain speed known):
    every EXPLORE_EVERY-th step is plain until MIN_SINGLES are, then drafting goes on."""
    from backend.engine.adaptive_k import MIN_SINGLES

    c = trained(8, 8, 50, draft_ms=0.5, verify_ms=lambda n: 10.0 + 0.2 * n, plain_ms=0.0)
    c.begin_answer()
    choices = []
    for _ in range(6 * EXPLORE_EVERY):
        k = c.choose(AUTO_K_CAP)
        choices.append(k)
        c.record(k, k, 0.5 * k, 10.0 + 0.2 * (k + 1))
    assert choices.count(0) == MIN_SINGLES
    assert all(k >= 8 for k in choices[MIN_SINGLES * EXPLORE_EVERY:])


def test_a_probe_drafts_its_whole_length_past_an_unsure_draft():
    """Drafting stopped paying (a dear drafter, drafts kept at 0.6 each): the probe after the
    plain stretch must measure the positions that decide whether drafting pays again, so the
    confidence stopper, which would cut it at its second draft at plain decoding's rate,
    lets it run to the length drafting would have; the next drafting step is judged again."""
    rng = random.Random(3)
    c = AdaptiveK(plain_step_ms=10.0)
    for _ in range(60):
        kept = 0
        while kept < 4 and rng.random() < 0.6:
            kept += 1
        c.record(4, kept, 4 * 6.0, 12.0 + 2.0 * 5, [0.3] * 4)
    ks = [c.choose(AUTO_K_CAP) for _ in range(EXPLORE_EVERY + 1)]
    assert ks[:-1] == [0] * EXPLORE_EVERY and ks[-1] >= EXPLORE_K
    assert verified(c.stopper(), [0.3] * ks[-1]) == ks[-1]
    c.record(ks[-1], 0, 6.0 * ks[-1], 12.0 + 2.0 * (ks[-1] + 1), [0.3] * ks[-1])
    assert c.choose(AUTO_K_CAP) == 0  # back to plain: the probe found nothing better
    c._best_rate, c._probing = 0.1, False  # a drafting step: the stopper judges again
    assert verified(c.stopper(), [0.3] * AUTO_K_CAP) < AUTO_K_CAP


def test_a_drafter_dear_to_catch_up_is_probed_once_an_answer():
    """Drafting does not pay, and every token the drafter missed costs it 2 ms to catch up
    on beside a 10 ms plain step (20%, whatever the gap): after the answer's first probe,
    which measures that, no more probes; a new answer probes once again. A drafter that
    catches up for nothing (n-gram lookup) goes on probing (the test above)."""
    c = trained(0, 4, 200, draft_ms=1.0, verify_ms=lambda n: 10.0 + 1.0 * n)

    def probes(n_steps: int) -> int:
        behind, made = 0, 0
        for _ in range(n_steps):
            k = c.choose(AUTO_K_CAP)
            c.record(k, 0, 1.0 * k + 2.0 * behind, 10.0 + (k + 1), catch_up_ms=2.0 * behind)
            behind = 0 if k else behind + 1
            made += k > 0
        return made

    c.begin_answer()
    assert probes(300) == 1
    c.begin_answer()  # another text; but the catching up is known dear and unrepaid
    assert probes(300) == 0
    assert abs(c.catch_up_ms() - 2.0) < 0.01


def test_a_plain_stretch_weighs_the_choice_again_only_every_few_steps(monkeypatch):
    """Only plain steps are measured in a plain stretch, so the lengths are weighed again
    every RECHECK_EVERY steps, not at each (on the toy models a step is 0.4 ms and weighing
    them all a tenth of it); the probes still come after EXPLORE_EVERY plain steps."""
    c = trained(0, 4, 200, draft_ms=1.0, verify_ms=lambda n: 10.0 + 1.0 * n)
    weighed = []
    verify_line = c.verify_line  # read once each time the lengths are weighed
    monkeypatch.setattr(c, "verify_line", lambda: weighed.append(1) or verify_line())
    ks = []
    for _ in range(EXPLORE_EVERY + 1):
        ks.append(c.choose(AUTO_K_CAP))
        c.record(ks[-1], 0, 1.0 * ks[-1], 10.0 + ks[-1] + 1)
    assert ks == [0] * EXPLORE_EVERY + [EXPLORE_K]
    # weighed every RECHECK_EVERY steps, and once more as the probe is set beside the costs
    assert len(weighed) == EXPLORE_EVERY // RECHECK_EVERY + 1 + 1


def test_an_unlucky_start_does_not_keep_k_auto_plain_for_good():
    """The draft is right 95% of the time at every position, and drafting pays (a 6 ms
    drafted token, 10 ms to catch up, V(n) = 17 + 2.6·n beside a 14.8 ms plain step: the
    demo pair on prose), but its first two drafts were rejected early. At the mean α of so
    few drafts, drafting looked as if it did not pay, and the probes alone (two drafts each,
    ever rarer) never moved the means enough: 146 of 150 steps plain, 0.98 of plain decoding.
    Weighed with optimism (an upper confidence bound), it drafts again and learns."""
    rng = random.Random(0)
    c = AdaptiveK(plain_step_ms=14.8)

    def step(k: int, kept: int) -> float:
        catch = 10.0 + 0.5 * c._behind if k else 0.0
        draft_ms, verify_ms = catch + 6.0 * k, 17.0 + 2.6 * (k + 1) if k else 14.8
        c.record(k, kept, draft_ms, verify_ms, [0.9] * k, catch)
        return draft_ms + verify_ms

    step(4, 1)
    step(4, 0)
    tokens = ms = 0.0
    ks = []
    for _ in range(150):
        k = c.choose(AUTO_K_CAP)
        kept = 0
        while kept < k and rng.random() < 0.95:
            kept += 1
        ks.append(k)
        ms += step(k, kept)
        tokens += kept + 1
    assert ks.count(0) < 50
    assert tokens / ms > 1.05 / 14.8



def test_a_batch_size_measured_often_is_costed_by_its_own_steps():
    """The counting pair: every step verifies 4 or 5 tokens, a 5th costs 4 ms beside a 5 ms
    plain step (big blocks: matrix-matrix kernels), and the draft's 4th word is always
    wrong. The line, its slope held by the prior's pseudo-steps at sizes 2 and 9, said the
    5th token cost a tenth of that, so the 4th draft looked worth its chance and K auto
    drafted it in 40% of its steps. Costed by their own medians, sizes 4 and 5 say K = 3;
    a size never measured still reads the line, and no size costs less than a smaller one."""
    c = AdaptiveK(plain_step_ms=5.0)
    for s in range(28):
        k = 4 if s % 4 == 0 else 3
        c.record(k, 3, 0.5 * k, 15.0 + 4.0 * (k - 3))
    a, b = c.verify_line()
    assert b < 1.0  # the line alone would not tell the 5th token's cost
    assert c.verify_ms(3) == pytest.approx(15.0) and c.verify_ms(4) == pytest.approx(19.0)
    costs = c.verify_costs(8)
    assert costs[5] == pytest.approx(max(a + 6 * b, 19.0))
    assert all(x <= y for x, y in itertools.pairwise(costs[1:]))
    assert c.choose(AUTO_K_CAP) == 3


def test_a_plain_speed_measured_in_a_slow_moment_is_measured_again_while_drafting():
    """Plain steps were measured at 3 ms while the machine was busy; a plain step really costs
    0.6 ms, and each drafted token 1 ms (the toy EAGLE-3 pair: drafting never pays). Against
    the stale 3 ms, drafting looked worth it, and a drafting step never measures V(1):
    K auto drafted every step of an answer at 0.42 of plain decoding. A plain step made on
    purpose once the last is SINGLE_MAX_AGE steps old sets it right, and it goes plain."""
    c = AdaptiveK(plain_step_ms=3.0)
    for _ in range(8):
        c.record(0, 0, 0.0, 3.0)  # the busy moment
    ks = []
    for _ in range(3 * SINGLE_MAX_AGE):
        k = c.choose(AUTO_K_CAP)
        ks.append(k)
        c.record(k, k, 1.0 * k, 0.6 + 0.05 * k if k else 0.6, [0.99] * k)
    assert all(k > 0 for k in ks[:8])  # fooled at first
    assert 0 in ks[: SINGLE_MAX_AGE + 1]  # measured again in time
    assert ks[-SINGLE_MAX_AGE:].count(0) > 0.8 * SINGLE_MAX_AGE  # and plain from then on


def test_a_refreshed_plain_step_is_one_step_not_three():
    """While drafting pays, V(1) is refreshed by one plain step every SINGLE_MAX_AGE steps.
    That refresh replaces the plain steps measured before, and K auto used to wait for
    MIN_SINGLES (3) of them again, making two more plain steps each time: three plain steps
    in every 33 on the counting pair, each one token where a step makes four (and, on a text
    wrong at every 4th word, a phase shift). Counted over the controller's life, the first
    three are enough: after them, one plain step per refresh."""
    c = AdaptiveK(plain_step_ms=5.0)
    ks = []
    for _ in range(8 * SINGLE_MAX_AGE):
        k = c.choose(AUTO_K_CAP)
        ks.append(k)
        c.record(k, min(k, 3), 0.5 * k, 5.0 + 2.75 * k, [0.99] * k)
    first, rest = ks[:4 * SINGLE_MAX_AGE], ks[4 * SINGLE_MAX_AGE:]
    assert first.count(0) >= 3  # measured at first
    assert 0 < rest.count(0) <= len(rest) // SINGLE_MAX_AGE + 1  # one per refresh


def test_a_refresh_timed_in_a_moment_of_load_is_measured_again():
    """While drafting pays, the plain step that refreshes V(1) was timed in a spike of load
    (17.5 ms where plain steps take 10-11). Taken alone it made plain decoding look 40%
    slower for the next SINGLE_MAX_AGE steps (a pair where drafting loses a quarter drafted
    the rest of its answer at 0.60 of plain decoding); so far from the V(1) it replaces, more
    plain steps are measured, and V(1) is their median."""
    c = AdaptiveK(plain_step_ms=10.0)
    for _ in range(3):
        c.record(0, 0, 0.0, 10.0)
    spikes = [17.5]
    ks = []
    for _ in range(2 * SINGLE_MAX_AGE):
        k = c.choose(AUTO_K_CAP)
        ks.append(k)
        if k:
            c.record(k, k, 2.0 * k, 10.0 + 2.0 * (k + 1), [0.99] * k)
        else:
            c.record(0, 0, 0.0, spikes.pop() if spikes else 10.5)
    assert not spikes  # the refresh happened, in the spike
    assert abs(c.single_ms() - 10.5) < 0.01
    # ... and cost no more than SINGLE_REFRESH plain steps
    assert 1 < ks[SINGLE_MAX_AGE // 2:].count(0) <= SINGLE_REFRESH


def test_a_drafter_with_nothing_to_catch_up_on_drafts_no_faster_than_measured():
    """Drafts of 4 keep 29 of 32 tokens, a drafted token costs 7 ms and verifying 5 costs 22
    beside a 10 ms plain step: drafting was measured clearly slower than plain decoding, and
    at the mean α no length pays, but the optimistic α of positions seldom reached still
    hoped. An answer whose prompt the drafter already holds (a chat's next turn, or a fixed
    K's answer just before) has nothing to catch up on, so the repay test (HORIZON) never
    spoke, and it drafted at a loss (an F16 target with a Q4_1 draft: 0.78-0.94 of plain
    decoding, answer after answer). The measured rate caps the optimism there too: the answer
    stays plain but for its probes."""
    runs = [4, 4, 3, 4, 4, 2, 4, 4]
    c = AdaptiveK(plain_step_ms=10.0, stops=True)
    c.begin_answer(10.0, n_prompt=0)
    for _ in range(3):
        c.record(0, 0, 0.0, 10.0)
    for step in range(32):
        c.record(4, runs[step % 8], 1.5 + 7.0 * 4, 12.0 + 2.0 * 5, [0.9] * 4, 1.5)
    _, bound = c.measured_rate(c.overhead())
    assert bound < (1 - MEASURED_MARGIN) / 10.0  # the premise: measured clearly slower
    assert all(c.expected_tokens(k) / c.step_time(k) < 1 / 10.0 for k in range(1, 17))
    c.begin_answer(10.0, n_prompt=0)
    ks = []
    for _ in range(64):
        k = c.choose(AUTO_K_CAP)
        ks.append(k)
        # a probe's costs as its drafting steps' (none of its drafts kept)
        c.record(k, 0, 1.5 + 7.0 * k if k else 0.0, 12.0 + 2.0 * (k + 1) if k else 10.0,
                 [0.9] * k, 1.5 if k else 0.0)
    assert ks[:EXPLORE_EVERY] == [0] * EXPLORE_EVERY
    assert sum(1 for k in ks if k) <= 3  # probes, every 8, 16, 32 plain steps


def test_a_position_the_new_answer_does_not_reach_keeps_what_was_learnt():
    """The counting pair's 4th draft is always rejected, so a step reaches that position only
    when it tries it: an answer that drafts 3 never does. Halved at every new answer anyway,
    its count went back to the prior and each answer began by drafting 7-9 again; halved
    when the new answer first reaches it, it keeps saying no while positions the new answer
    does reach follow the new text."""
    c = AdaptiveK(plain_step_ms=10.0)
    for _ in range(12):
        c.record(8, 3, 8 * 0.5, 10.0 + 2.0 * 9)  # the 4th draft rejected, every time
    learnt = c.alphas(4)
    for _ in range(4):
        c.begin_answer()
        for _ in range(30):
            c.record(3, 3, 3 * 0.5, 10.0 + 2.0 * 4)  # K = 3: the 4th position unreached
    after = c.alphas(4)
    assert after[3] == pytest.approx(learnt[3], abs=0.01)
    assert after[3] < 0.3 and all(a > 0.9 for a in after[:3])
    c.begin_answer()
    c.record(3, 0, 3 * 0.5, 10.0 + 2.0 * 4)  # the first position reached again, rejected
    assert c.alphas(1)[0] < after[0]  # and its earlier count has given way to the new text


def test_of_lengths_about_as_good_the_longest_is_drafted():
    """Every drafted token costs as much as a step's fixed part, and nearly every draft is
    kept: every length's expected rate is within a fraction of a percent of every other's,
    the shortest a hair ahead (the prior keeps each α below 1). K auto drafts the longest
    length within TIE of the best, not the shortest: near the optimum the estimates' error is
    larger than their differences, and a longer cap is what lets the drafter's confidence
    decide and measures the positions past a short draft's end. A length more than TIE
    behind (past a position that is always rejected) is not drafted, and a drafter without a
    stopper drafts the best rate's length."""
    from backend.engine.adaptive_k import TIE

    def rates_and_choice(kept, stops: bool = True) -> tuple[list[float], int]:
        c = AdaptiveK(plain_step_ms=12.0, stops=stops)  # drafting: 0.1 tokens/ms, plain 0.083
        for k in itertools.islice(itertools.cycle(range(1, 13)), 240):
            c.record(k, kept(k), 5.0 * k, 5.0 + 5.0 * (k + 1))  # V(n) = 5 + 5n, c = 5
        verify = c.verify_costs(12)
        return ([c.expected_tokens(j) / (5.0 * j + verify[j]) for j in range(1, 13)],
                c.choose(12))

    rates, k = rates_and_choice(lambda k: k)
    best = max(rates)
    assert rates.index(best) == 0 and min(rates) >= 0.99 * best  # all within 1% of the best
    assert k == 12
    # a drafter without a stopper (n-gram lookup) drafts all it is asked: the best rate's
    assert rates_and_choice(lambda k: k, stops=False)[1] == 1
    rates, k = rates_and_choice(lambda k: min(k, 5))  # the 6th draft is always rejected
    assert k == 5 and rates[5] < (1 - TIE) * max(rates)


def test_an_answer_drafts_only_if_drafting_repays_the_catching_up_on_its_prompt():
    """Drafting barely beats plain decoding (7 ms a drafted token beside a 10 ms plain step)
    and answers are 60 tokens long: a new answer's first step drafts if the drafter catches
    up on the 40-token prompt for 0.1 ms a token, and stays plain if that costs 5 ms a token,
    which the gain over 60 tokens would not repay (a Q8_0 target with a Q4_0 draft, where no
    K paid, ran K auto at 0.88-0.95 of plain decoding, catching up on every prompt)."""
    def first_choice(catch_up_per_token: float) -> int:
        c = AdaptiveK(plain_step_ms=10.0)
        for _answer in range(3):
            c.begin_answer(10.0, n_prompt=40)
            for step in range(12):
                catch_up = catch_up_per_token * 40 if step == 0 else 0.0
                c.record(4, 4, 7.0 * 4 + catch_up, 18.0, catch_up_ms=catch_up)
        c.begin_answer(10.0, n_prompt=40)
        return c.choose(AUTO_K_CAP)

    assert first_choice(0.1) > 0
    assert first_choice(5.0) == 0


def test_an_answer_catches_up_on_its_prompt_only_for_a_rate_drafting_was_measured_to_reach():
    """Drafts of 8 keep 54 of 64 tokens (five in eight kept whole), a drafted token costs 7 ms
    and verifying 9 costs 30 beside a 10 ms plain step: at every length drafting is slower
    than plain decoding, but the optimistic α of so good a draft still hoped, and each answer
    caught up on its 40-token prompt and drafted (an F16 target with a Q4_1 draft: 0.82-0.89
    of plain decoding, answer after answer). Weighed at the rate its last drafting steps
    reached, the next answer stays plain, whole; after RETRY_ANSWERS such answers one
    drafts again, as another text may pay."""
    kept_runs = [8, 6, 8, 3, 8, 8, 5, 8]
    for k in range(1, 9):  # the premise: no length pays
        tokens = 1 + sum(min(kept, k) for kept in kept_runs) / len(kept_runs)
        assert tokens / (1.5 + 7.0 * k + 12.0 + 2.0 * (k + 1)) < 1 / 10.0
    c = AdaptiveK(plain_step_ms=10.0, stops=True)
    c.begin_answer(10.0, n_prompt=40)
    behind = 40
    for step in range(32):
        catch_up = 1.0 * behind + 1.5
        c.record(8, kept_runs[step % 8], catch_up + 7.0 * 8, 12.0 + 2.0 * 9, [0.9] * 8,
                 catch_up)
        behind = 0
    _, bound = c.measured_rate(c.overhead())
    assert bound < 1 / 10.0

    def answer() -> list[int]:
        c.begin_answer(10.0, n_prompt=40)
        ks = []
        for _ in range(64):
            ks.append(c.choose(AUTO_K_CAP))
            if ks[-1]:
                return ks
            c.record(0, 0, 0.0, 10.0)
        return ks

    for _ in range(RETRY_ANSWERS):
        assert answer() == [0] * 64
    retry = answer()
    assert retry[-1] > 0 and len(retry) <= EXPLORE_EVERY + 1, retry

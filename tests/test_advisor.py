"""The Advisor on hand-built steps: its formulas, α per position, its warnings and caveats."""

from __future__ import annotations

import random

import pytest

from backend.advisor import (
    BEST,
    CONFIDENT_ONLY,
    K_AUTO_OWN,
    KEEP_K_AUTO,
    MIN_DRAFT_STEPS,
    VerifyLine,
    acceptance_by_position,
    advise,
    advise_per_step,
    draft_ms_per_token,
    fit_verify_line,
)
from backend.engine.events import StepVerified, Token, accepted_before_rejection
from backend.engine.speedup_model import (
    expected_tokens_per_step,
    expected_tokens_per_step_by_position,
)


def step(verdicts: str, *, number: int = 0, draft_ms: float = 1.0,
         verify_ms: float = 10.0) -> StepVerified:
    """A step whose drafts got `verdicts` ("a" accepted, "r" rejected; "" for no draft)."""
    drafted = tuple(Token(i, f"t{i}", "draft", v == "a") for i, v in enumerate(verdicts))
    n_acc = len(verdicts) - len(verdicts.lstrip("a"))
    emitted = (*drafted[:n_acc], Token(99, "x", "target", True))
    return StepVerified(number, drafted, n_acc, emitted, draft_ms if drafted else 0.0,
                        verify_ms)


def steps_with_alpha(alpha_percent: int, k: int, n: int = 100, **kw) -> list[StepVerified]:
    """n steps of K drafts in which position 1 is accepted alpha_percent% of the time and
    every later position always (so α₁ is exact and the pattern is easy to reason about)."""
    return [step("a" * k if i % 100 < alpha_percent else "r" * k, number=i, **kw)
            for i in range(n)]


@pytest.mark.parametrize("alpha", [0.0, 0.3, 0.5, 0.8, 0.95, 1.0])
@pytest.mark.parametrize("k", [1, 2, 3, 4, 8, 16])
def test_tokens_per_step_is_the_closed_form_and_the_positional_form_reduces_to_it(alpha, k):
    closed = (1 - alpha ** (k + 1)) / (1 - alpha) if alpha < 1 else k + 1
    assert expected_tokens_per_step(alpha, k) == pytest.approx(closed)
    assert expected_tokens_per_step_by_position([alpha] * k, k) == pytest.approx(closed)


def test_positional_form_multiplies_the_chances_of_reaching_each_position():
    assert expected_tokens_per_step_by_position([0.9, 0.5, 0.2], 3) == pytest.approx(
        1 + 0.9 + 0.9 * 0.5 + 0.9 * 0.5 * 0.2)
    assert expected_tokens_per_step_by_position([1, 1, 1, 0, 1], 5) == 4


def test_alpha_per_position_is_conditional_on_the_earlier_drafts_and_counts_short_drafts():
    steps = [
        step("aaar"),  # positions 1-3 accepted, 4 rejected
        step("aaaa"),
        step("ar"),  # a shorter draft: reaches positions 1 and 2 only
        step("r"),  # rejected at once: positions 2+ not reached
        step("aa"),  # short and fully accepted
        step(""),  # a step without a draft counts nowhere
        step("raa"),  # cannot happen (accepted first), but position 2+ must not count it
    ]
    positions = acceptance_by_position(steps)
    assert [(p.position, p.n_reached, p.n_accepted) for p in positions] == [
        (1, 6, 4),
        (2, 4, 3),  # "aaar", "aaaa", "ar", "aa"
        (3, 2, 2),  # "aaar", "aaaa": "aa" drafted only two
        (4, 2, 1),
    ]
    assert [p.alpha for p in positions] == [4 / 6, 3 / 4, 1.0, 0.5]
    assert acceptance_by_position([step(""), step("")]) == ()


def test_measured_costs_come_from_the_steps():
    steps = [step("aa", draft_ms=4.0, verify_ms=9.0), step("aaaa", draft_ms=6.0, verify_ms=13.0),
             step("", verify_ms=5.0)]
    assert draft_ms_per_token(steps) == pytest.approx(10.0 / 6)
    line = fit_verify_line(steps)  # exactly 3 + 2·batch
    assert line is not None
    assert (line.intercept_ms, line.per_token_ms) == pytest.approx((3.0, 2.0))
    assert line.beta == pytest.approx(2.0 / 5.0)
    # one batch size alone makes no line, unless the plain step gives the batch of one
    same = [step("aaa", verify_ms=12.0)] * 5
    assert fit_verify_line(same) is None
    line = fit_verify_line(same, plain_tokens_per_second=200.0)  # 5 ms per plain step
    assert line is not None and line.ms(1) == pytest.approx(5.0)
    assert line.ms(4) == pytest.approx(12.0)


def test_advice_when_speculation_clearly_pays():
    advice = advise(steps_with_alpha(90, 8), cost_ratio=0.05, verify_line=VerifyLine(9.5, 0.5),
                    plain_tokens_per_second=100.0)
    assert advice.warning is None
    assert advice.best_k is not None and advice.speedup is not None and advice.speedup > 2
    best = next(r for r in advice.rows if r.k == advice.best_k)
    assert best.speedup == advice.speedup
    assert best.ms_per_step == pytest.approx(10.0 * best.time_per_step)
    assert advice.verify_cost == pytest.approx(0.05)
    assert f"K = {advice.best_k}" in advice.summary
    assert not any("too few" in n.lower() for n in advice.notes)


def test_warning_when_acceptance_is_low():
    advice = advise(steps_with_alpha(15, 4), cost_ratio=0.1, verify_line=VerifyLine(9.0, 1.0))
    assert advice.warning is not None and advice.speedup is not None and advice.speedup < 1
    assert "slower than plain decoding" in advice.warning
    assert "low acceptance" in advice.warning and "15%" in advice.warning
    assert "too slow" not in advice.warning  # c = 0.1 is not to blame next to α₁ = 15%


def test_warning_when_the_draft_is_too_slow():
    advice = advise(steps_with_alpha(90, 8), cost_ratio=1.2, verify_line=VerifyLine(10.0, 0.0))
    assert advice.warning is not None
    assert "draft is too slow" in advice.warning
    assert "low acceptance" not in advice.warning


def test_warning_names_dear_batch_verification():
    advice = advise(steps_with_alpha(80, 4), cost_ratio=0.05, verify_line=VerifyLine(1.0, 9.0))
    assert advice.warning is not None
    assert "batch verification is dear" in advice.warning
    assert advice.verify_cost == pytest.approx(0.9)


def test_no_number_from_fewer_than_the_minimum_steps():
    for n in (1, 5, MIN_DRAFT_STEPS - 1):
        advice = advise(steps_with_alpha(90, 4, n=n), cost_ratio=0.1,
                        verify_line=VerifyLine(9.0, 1.0))
        assert advice.best_k is None and advice.speedup is None and advice.rows == ()
        assert advice.speedup_range is None and advice.warning is None
        assert f"only {n} steps" in advice.summary and "Too few steps to advise" in advice.text
    enough = advise(steps_with_alpha(90, 4, n=MIN_DRAFT_STEPS), cost_ratio=0.1,
                    verify_line=VerifyLine(9.0, 1.0))
    assert enough.best_k is not None and enough.speedup is not None


def test_the_speedup_is_what_its_own_alpha_and_costs_allow_with_a_range():
    """Never more than its α and costs allow: the figure is E(K)/T(K) recomputed from what the
    advice itself reports, and the range its α's interval allows."""
    line = VerifyLine(9.0, 1.0)  # a plain step 10 ms, β = 0.1
    for alpha, n in ((60, 100), (90, 100), (90, 1000)):
        advice = advise(steps_with_alpha(alpha, 4, n=n), cost_ratio=0.1, verify_line=line,
                        ks=range(1, 9))
        k = advice.best_k
        alphas = [p.alpha for p in advice.positions][:k]
        e = expected_tokens_per_step_by_position(alphas, k)
        t = 1 + k * (advice.cost_ratio + advice.verify_cost)
        assert advice.speedup == pytest.approx(e / t)
        assert advice.speedup <= (k + 1) / t  # every draft accepted: the most any K gives
        low, high = advice.speedup_range
        assert low < advice.speedup < high <= (k + 1) / t
        assert f"{low:.2f}–{high:.2f}×" in advice.summary
    # more steps, a narrower range
    few, many = (advise(steps_with_alpha(90, 4, n=n), cost_ratio=0.1, verify_line=line,
                        ks=range(1, 9)).speedup_range for n in (100, 1000))
    assert many[1] - many[0] < few[1] - few[0]


def test_no_drafts_yet_is_said_in_words():
    for steps in ([], [step(""), step("")]):
        advice = advise(steps, cost_ratio=0.1, plain_tokens_per_second=50.0)
        assert advice.rows == () and advice.best_k is None and advice.warning is None
        assert "No draft has been verified yet" in advice.summary


def test_alpha_one_and_alpha_zero():
    ones = advise([step("aaaa", number=i) for i in range(30)], cost_ratio=0.1,
                  verify_line=VerifyLine(10.0, 0.0), ks=range(1, 9))
    assert [r.tokens_per_step for r in ones.rows] == [k + 1 for k in range(1, 9)]
    # K = 8 is expected faster still, but no draft that long was measured: offered, not advised
    assert ones.best_k == 4 and ones.warning is None
    assert [r.measured for r in ones.rows] == [k <= 4 for k in range(1, 9)]
    assert any("Every one of the 120 drafts was accepted" in n for n in ones.notes)
    assert any("No draft longer than 4" in n and "K = 8" in n for n in ones.notes)

    zeros = advise([step("rrr", number=i) for i in range(30)], cost_ratio=0.1,
                   verify_line=VerifyLine(10.0, 0.0))
    assert all(r.tokens_per_step == 1 for r in zeros.rows)
    assert zeros.warning is not None and "low acceptance" in zeros.warning
    assert any("None of the 30 drafts was accepted" in n for n in zeros.notes)


def test_unknown_costs_are_said_in_words():
    advice = advise(steps_with_alpha(90, 4))  # no plain speed, one batch size
    assert advice.rows == () and "cost is unknown" in advice.summary
    # a fixed K with a known plain speed: c measured, the plain step completes the line
    advice = advise(steps_with_alpha(90, 4, draft_ms=2.0, verify_ms=14.0),
                    plain_tokens_per_second=100.0)
    assert advice.cost_ratio == pytest.approx((2.0 / 4) / 10.0)
    assert advice.verify_cost == pytest.approx(1.0 / 10.0)
    # explicit c but a single batch size and no plain speed: batches taken as free, said so
    advice = advise(steps_with_alpha(90, 4), cost_ratio=0.1)
    assert advice.verify_cost == 0.0
    assert any("taken as free" in n for n in advice.notes)


def test_per_step_lists_give_the_same_advice_as_the_steps_they_come_from():
    """The window keeps an answer's steps as lists, not events: the advice must not differ.
    A step whose accepted draft ran past the answer's end (n_accepted 1, flags "aar") counts
    its flags, as the events do."""
    steps = [step("aaar", number=i, draft_ms=2.0 + i % 3, verify_ms=10.0 + i % 4)
             for i in range(30)]
    steps += [step("ar", draft_ms=1.0, verify_ms=7.0), step("", verify_ms=5.0),
              step("rrrr", draft_ms=3.0, verify_ms=11.0)]
    short = step("aar", draft_ms=1.5, verify_ms=9.0)
    steps.append(StepVerified(99, short.drafted, 1, short.emitted[:1], 1.5, 9.0))
    assert accepted_before_rejection(steps[-1]) == 2
    lists = ([len(s.drafted) for s in steps], [accepted_before_rejection(s) for s in steps],
             [s.draft_ms for s in steps], [s.verify_ms for s in steps])
    from_lists = advise_per_step(*lists, plain_tokens_per_second=50.0)
    assert from_lists == advise(steps, plain_tokens_per_second=50.0)
    assert from_lists.best_k is not None
    assert [(p.n_reached, p.n_accepted) for p in from_lists.positions] == [
        (p.n_reached, p.n_accepted) for p in acceptance_by_position(steps)]


def test_per_step_lists_must_line_up():
    with pytest.raises(ValueError):
        advise_per_step([4, 4], [1], [1.0, 1.0], [5.0, 5.0], plain_tokens_per_second=50.0)


def test_after_k_auto_a_model_drafter_is_costed_for_every_draft_a_fixed_k_asks_for():
    """K auto's steps are as long as its controller and stopper made them: mostly 3, a few
    12 (all kept). A fixed K = 12 from a draft model drafts 12 every step. Read off the
    steps' own lengths, K = 12 cost the ~4 drafts they made on average while E(12) counted
    twelve positions: the window advised 1.7x where K auto had measured 1.0x. Costed at K
    drafts (k_auto="model"), each K's time grows with K as a fixed K's does."""
    steps = ([step("aar", number=i, draft_ms=3 * 6.0, verify_ms=14.0) for i in range(24)]
             + [step("a" * 12, number=24 + i, draft_ms=12 * 6.0, verify_ms=22.0)
                for i in range(8)])
    ks = [2, 4, 8, 12]
    as_made = advise(steps, plain_tokens_per_second=100.0, overhead_ms=0.5, ks=ks)
    as_asked = advise(steps, plain_tokens_per_second=100.0, overhead_ms=0.5, ks=ks,
                      k_auto="model")
    made_12 = next(r for r in as_made.rows if r.k == 12)
    asked_12 = next(r for r in as_asked.rows if r.k == 12)
    assert made_12.time_per_step < 6  # ~5 drafts' worth: the steps' mean length, not K
    c = as_asked.cost_ratio  # 6 ms a drafted token ÷ a 10 ms plain step
    assert c == pytest.approx(0.6)
    assert asked_12.time_per_step > 1 + 12 * c  # 12 drafts and the batch of 13
    assert asked_12.speedup < made_12.speedup
    # the expected tokens are the same: only what a step costs changes
    assert asked_12.tokens_per_step == pytest.approx(made_12.tokens_per_step)
    # a fixed K's own steps are read as they are: the flag changes nothing there
    fixed = steps_with_alpha(80, 4, draft_ms=4 * 6.0)
    assert (advise(fixed, plain_tokens_per_second=100.0, asked=4, k_auto="model").rows
            == advise(fixed, plain_tokens_per_second=100.0, asked=4).rows)


def test_after_k_auto_a_model_drafter_s_figures_are_said_to_count_only_its_surer_drafts():
    """K auto's stopper ends a model's draft where it is unsure: on the large-vocabulary slow
    pair its steps predicted K = 4 at 2.9x and K = 4 measured 1.7x. The advice from such steps
    says its acceptance is the surer drafts'; a fixed K's own steps, or lookup's, do not."""
    steps = steps_with_alpha(80, 4, draft_ms=4 * 6.0)
    said = CONFIDENT_ONLY.split(",")[0]
    after_auto = advise(steps, plain_tokens_per_second=100.0, k_auto="model")
    assert any(note.startswith(said) for note in after_auto.notes)
    for other in (advise(steps, plain_tokens_per_second=100.0, asked=4, k_auto="model"),
                  advise(steps, plain_tokens_per_second=100.0, k_auto="lookup"),
                  advise(steps, plain_tokens_per_second=100.0)):
        assert not any(note.startswith(said) for note in other.notes)


def test_after_k_auto_no_fixed_k_is_advised_from_its_steps_unless_k_auto_lost_to_plain():
    """What K auto's steps predict for a fixed K does not carry over to it: on the
    large-vocabulary pairs the window advised K = 2 at 1.06x and 2.10x after answers K auto
    made 1.02x and 2.18x as fast as plain, and K = 2 then measured 0.65x and 1.10x (K auto
    drafted where its stopper was sure, in steps its controller sized; a fixed K's drafts fall
    elsewhere). Where K auto measured at least plain decoding, or its figure is unknown, the
    line says to keep it and offers no K (the rows still there); where it measured at least
    the best figure, it says so. Where K auto lost to plain decoding, a K is advised."""
    steps = steps_with_alpha(80, 4, draft_ms=4 * 6.0)
    kw = dict(plain_tokens_per_second=100.0, k_auto="model")
    lost = advise(steps, k_auto_speedup=0.95, **kw)
    assert lost.best_k is not None and lost.speedup > 1.0 and lost.warning is None
    assert lost.summary.startswith(BEST.split(" {")[0])
    best, k = lost.speedup, lost.best_k
    for measured, said in ((best + 0.1, KEEP_K_AUTO), (best - 0.1, K_AUTO_OWN), (1.0, K_AUTO_OWN),
                           (None, K_AUTO_OWN)):
        kept = advise(steps, k_auto_speedup=measured, **kw)
        assert kept.best_k is None and kept.speedup is None and kept.warning is None
        assert kept.summary.startswith(said.split(" {")[0]), measured
        assert f"K = {k}" in kept.summary and f"{best:.2f}×" in kept.summary
        assert kept.rows == lost.rows and kept.notes == lost.notes
    assert f"{best + 0.1:.2f}×" in advise(steps, k_auto_speedup=best + 0.1, **kw).summary
    # a fixed K's own steps, and lookup's under K auto, are not K auto's stopper's
    for other in (dict(asked=4), dict(k_auto="lookup"), {}):
        alone = advise(steps, plain_tokens_per_second=100.0, **other)
        assert alone.best_k is not None
        for measured in (best + 0.1, None):
            assert advise(steps, plain_tokens_per_second=100.0, k_auto_speedup=measured,
                          **other) == alone


def test_after_k_auto_slower_than_plain_the_warning_stands():
    """K auto measured below plain decoding: whatever a fixed K is predicted, plain is what
    the advice says, not "keep K auto"."""
    steps = steps_with_alpha(10, 4, draft_ms=4 * 8.0)
    kw = dict(plain_tokens_per_second=100.0, k_auto="model")
    alone = advise(steps, **kw)
    assert alone.warning is not None and alone.speedup < 0.9
    assert advise(steps, k_auto_speedup=0.9, **kw) == alone


def test_after_k_auto_n_gram_lookup_steps_without_a_match_count_against_drafting():
    """N-gram lookup drafts what it finds: under K auto, a step that found no match drafted
    nothing, and so would a fixed K's. Counted as a controller's choice (left out), only the
    steps that found a match spoke, and the advice was 1.5-2.3x what each fixed K measured;
    read as a fixed K's steps (k_auto="lookup"), each one that found nothing is a step that
    gained nothing."""
    found = [step("aaaa", number=i, draft_ms=0.1, verify_ms=12.0) for i in range(20)]
    nothing = [step("", number=20 + i, draft_ms=0.0, verify_ms=10.0) for i in range(60)]
    steps = found + nothing
    as_choices = advise(steps, plain_tokens_per_second=100.0, overhead_ms=0.2, ks=[4])
    as_lookup = advise(steps, plain_tokens_per_second=100.0, overhead_ms=0.2, ks=[4],
                       k_auto="lookup")
    # a quarter of the steps gain 5 tokens for 12 ms, the rest 1 for 10: about 1.65x at best
    gained = sum(len(s.emitted) for s in steps) / sum(s.verify_ms + 0.2 for s in steps)
    assert as_choices.rows[0].speedup > 4  # as if every step had found four
    assert as_lookup.rows[0].speedup == pytest.approx(gained * 10.0, rel=0.25)


def test_after_k_auto_only_the_lengths_whose_batches_it_measured_are_advised():
    """K auto drafted 8, 12 or 16 a step; the demo pair's verify batches on this CPU jump from
    one token to two and climb again past 16, so a line through K auto's batches, read back
    to short drafts, made them look cheap: the window advised K = 1 at 1.55x where it then
    measured 1.12x (K = 8 1.56x). Only a K whose batch was measured is advised, costed by
    its own steps; a shorter one the line favours is offered to try, not advised."""
    verify = {1: 14.1, 2: 20.8, 9: 39.1, 13: 49.5, 17: 70.6}  # ms, the demo target's

    def draft(k: int) -> float:
        return 1.5 + 7.4 * k

    rng = random.Random(1)
    steps = []
    for i, k in enumerate([8, 12, 16] * 7 + [1] + [0] * 3):
        kept = 0
        while kept < k and rng.random() < 0.96:
            kept += 1
        steps.append(step("a" * kept + "r" * (k - kept), number=i,
                          draft_ms=draft(k) if k else 0.0, verify_ms=verify[k + 1]))
    advice = advise(steps, plain_tokens_per_second=1000 / 14.1, overhead_ms=0.6,
                    k_auto="model")
    # the K the line names (keep K auto: see K_AUTO_OWN), and its figure
    named = next(r for r in advice.rows if f"K = {r.k} at {r.speedup:.2f}×" in advice.summary)
    assert named.k in (8, 12, 16)
    alphas = [p.alpha or 0.0 for p in acceptance_by_position(steps)]
    true = (expected_tokens_per_step_by_position(alphas, named.k) * 14.1
            / (draft(named.k) + verify[named.k + 1] + 0.6))
    assert named.speedup == pytest.approx(true, rel=0.01)  # its own steps, measured
    assert any(f"what K = {k} costs was not measured" in note
               for note in advice.notes for k in range(1, 8))

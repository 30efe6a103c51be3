"""The cost model K auto and the Advisor share: E(K), T(K) and the choice of K."""

from __future__ import annotations

import pytest

from backend.engine.speedup_model import (
    StepCost,
    best_length,
    expected_tokens_per_step,
    expected_tokens_per_step_by_position,
    expected_tokens_per_step_curve,
)


def test_the_curve_holds_every_length_of_the_positional_form():
    alphas = [0.9, 0.7, 0.5, 0.0, 1.0]
    curve = expected_tokens_per_step_curve(alphas)
    assert curve == [expected_tokens_per_step_by_position(alphas, k) for k in range(6)]
    assert curve[:4] == pytest.approx([1, 1.9, 1.9 + 0.63, 1.9 + 0.63 + 0.315])
    assert curve[4] == curve[5] == curve[3]  # past a sure rejection nothing is gained


def test_one_alpha_everywhere_is_the_closed_form():
    assert expected_tokens_per_step_curve([0.8] * 6)[6] == pytest.approx(
        expected_tokens_per_step(0.8, 6))
    with pytest.raises(ValueError):
        expected_tokens_per_step_by_position([0.8], 2)


def test_a_plain_step_pays_no_drafting_and_a_drafting_step_pays_its_fixed_cost_once():
    cost = StepCost(draft_fixed=2.0, draft_per_token=0.5, verify=lambda k: 10.0 + k,
                    overhead=lambda k: 0.1 * k)
    assert cost.time(0) == 10.0
    assert cost.time(1) == pytest.approx(2.0 + 0.5 + 11.0 + 0.1)
    assert cost.time(4) - cost.time(2) == pytest.approx(2 * (0.5 + 1 + 0.1))
    assert cost.time(1.5) == pytest.approx(2.0 + 0.75 + 11.5 + 0.15)  # a mean draft length


def test_the_best_length_goes_to_the_shorter_on_a_tie_and_to_the_longest_within_a_share():
    rates = {1: 0.10, 2: 0.12, 3: 0.12, 4: 0.118, 5: 0.11}
    assert best_length(rates) == 2
    assert best_length(rates, within=0.03) == 4
    assert best_length(rates, within=0.10) == 5
    with pytest.raises(ValueError):
        best_length({})

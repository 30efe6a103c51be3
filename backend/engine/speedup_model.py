"""What drafting K tokens a step is expected to gain: the one cost model that K auto
(engine/adaptive_k.py) chooses each step's draft length by and the Advisor (advisor.py)
advises a fixed one by.

It is Leviathan et al.'s (2023, "Fast Inference from Transformers via Speculative
Decoding", §3.4), with acceptance per draft position and a verify batch that costs:

    E(K) = 1 + α₁ + α₁α₂ + … + α₁⋯α_K          tokens a step makes
    T(K) = d0 + K·c + V(K + 1) + o(K)           what the step costs (d0 and K·c only if K > 0)
    rate = E(K) / T(K)

α_i is the chance that the i-th draft is accepted given that the ones before it were, so
α₁⋯α_i is the chance that the step gains its i-th draft. The paper takes one α and a free
verification; on a CPU acceptance falls along a draft, and verifying K + 1 tokens in one
batch (V) costs more than one token, as do the drafts' events (o) and a drafter's fixed cost
per step (d0: catching up on the target's last token). T may be in any unit: K auto's is ms,
the Advisor's plain decoding steps.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass


def expected_tokens_per_step(alpha: float, k: int) -> float:
    """E(K) for one acceptance rate α at every position: (1 − α^(K+1)) / (1 − α), and K + 1
    at α = 1."""
    if alpha >= 1.0:
        return float(k + 1)
    return (1.0 - alpha ** (k + 1)) / (1.0 - alpha)


def expected_tokens_per_step_by_position(alphas: Sequence[float], k: int) -> float:
    """E(K) = 1 + α₁ + α₁α₂ + … + α₁⋯α_K for acceptance per position (alphas[0] is α₁)."""
    if len(alphas) < k:
        raise ValueError(f"{len(alphas)} acceptance rates given for K = {k}")
    return expected_tokens_per_step_curve(alphas[:k])[k]


def expected_tokens_per_step_curve(alphas: Sequence[float]) -> list[float]:
    """[E(0), E(1), …, E(len(alphas))]: every draft length's E in one pass."""
    out, total, reach = [1.0], 1.0, 1.0
    for a in alphas:
        reach *= a
        total += reach
        out.append(total)
    return out


def _free(k: float) -> float:
    return 0.0


@dataclass(frozen=True, slots=True)
class StepCost:
    """T(K), what a step that drafts K tokens costs, in one unit (ms or plain steps). K may
    be a mean draft length, as the Advisor's is for a drafter that makes fewer than asked."""

    draft_fixed: float  # d0: what any drafting step costs, whatever its length
    draft_per_token: float  # c: what each drafted token adds
    # V(K + 1), by K: verifying a draft of K with the target's own token in one batch
    verify: Callable[[float], float]
    overhead: Callable[[float], float] = _free  # o(K): the step outside drafting and verifying

    def time(self, k: float) -> float:
        """T(K) = d0 + K·c + V(K + 1) + o(K), a plain step (K = 0) paying no drafting."""
        return ((self.draft_fixed + k * self.draft_per_token if k else 0.0) + self.verify(k)
                + self.overhead(k))


def best_length(rates: Mapping[int, float], within: float = 0.0) -> int:
    """The draft length K whose rate (E/T, or the speedup) is highest, the shorter on a tie;
    with `within`, the longest of those within that share of the highest (K auto's TIE)."""
    if not rates:
        raise ValueError("no draft length to choose from")
    best = max(rates, key=lambda k: (rates[k], -k))
    if within <= 0:
        return best
    return max(k for k, r in rates.items() if r >= (1 - within) * rates[best])

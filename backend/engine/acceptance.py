"""K auto's acceptance counts: how likely a draft is to be accepted at each position of a draft,
on each side of a copy, and in each band of the drafter's own confidence, as
backend/engine/adaptive_k.py weighs it (`AdaptiveK` derives from `Acceptance`).

A lookup's drafts that go on with the copy the text has followed (found at the same distance
back as the last step's: its drafts were kept and the target's own token was the copy's next)
are accepted far more often than a fresh match's: on the demo target the first draft 94% of
the time, against 53-69% after a rejection or a plain step. Their acceptance by position is
counted apart (the continuing side), and each step's length is chosen from its own side's
counts. Counted together, the code prompt's repeated passages of 13-16 tokens taught K auto to
draft 12, and the step after each passage, a fresh match, paid a batch of 13 for nothing: from
the second answer on, K auto fell to 0.93-0.97 of K = 8. Replayed exactly (bench/
ngram_replay.py; 11 texts, two recordings, six cost variants each, answers 2-5 with one
controller), K auto ÷ each text's best fixed K went from 0.997 to 1.003-1.005 on average, and
the texts under 0.97 from 15 and 13 of 132 to 3 and 10; first answers, which learn each side
from half the steps, from 0.987-0.988 to 0.984-0.988. A model drafter's stopper judges each
draft on its own confidence, and it counts on one side. (Counting apart after any step that
kept every draft, the copy's end unknown, was no better: 0.996 to 1.002 and more texts under
0.97.)

Counts carry over from one answer to the next with the same models, so the first steps of an
answer start from the last one's costs and acceptance but follow the new text fast: a
position's acceptance counts are halved when the new answer first reaches it, not at the
answer's start. A position the new text seldom reaches keeps what was learnt about it: halved
at every answer unreached, the counting pair's 4th draft (always rejected, and so reached only
by a step that tries it) went back to the prior within a few answers, and each answer began
with a draft of 7 to 9 that the 4th word cut: 0.967 of K = 3 in a simulation, 0.996 now.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

PRIOR_KEPT, PRIOR_REJECTED = 2.0, 1.0  # Beta prior on each α_i: a mild belief in drafting
DECAY = 0.5  # what an earlier answer's counts weigh in the next (a position's: once reached)
CONFIDENCE_BANDS = 10  # bands of the drafter's probability of a draft: 0–0.1, …, 0.9–1
# Pseudo-drafts per band, at the drafter's acceptance over all bands. Strong, because
# rejections are rare: on the demo pair every band kept 80-100% of its drafts (0.1-0.2: 9 of
# 9), and with 2 one rejection among a band's few drafts cut runs the target would have
# accepted (drafts of 3-5 where K = 8 kept all 8). Replayed on recorded drafts at fixed
# costs, K auto went from 0.97-1.00 of the best fixed K to 1.01; a band that really differs
# (a drafter whose probabilities mean something) still shows after a few dozen drafts.
CONFIDENCE_PRIOR = 16.0


# keyword-only, so that AdaptiveK's own fields keep their places
@dataclass(kw_only=True)
class Acceptance:
    # per side (the module's note on copies) and position: steps that verified it, and
    # accepted it
    reached: tuple[list[float], list[float]] = field(default_factory=lambda: ([], []))
    kept: tuple[list[float], list[float]] = field(default_factory=lambda: ([], []))
    # per band of the drafter's probability of a draft: drafts verified, and accepted
    # ([first position], [later positions]), as accept_chance explains
    band_reached: tuple[list[float], list[float]] = field(
        default_factory=lambda: ([0.0] * CONFIDENCE_BANDS, [0.0] * CONFIDENCE_BANDS))
    band_kept: tuple[list[float], list[float]] = field(
        default_factory=lambda: ([0.0] * CONFIDENCE_BANDS, [0.0] * CONFIDENCE_BANDS))
    _side: int = 0  # 1: the chosen step continues a copy (the module's note on copies)

    def _positions(self, cap: int) -> None:
        """Counts for draft positions 0..cap-1, none yet."""
        # per side and position: its counts are an earlier answer's
        self._stale = ([False] * cap, [False] * cap)
        self.reached = ([0.0] * cap, [0.0] * cap)
        self.kept = ([0.0] * cap, [0.0] * cap)

    def _new_answer_counts(self) -> None:
        """A new answer: earlier counts weigh DECAY (each position's once this answer reaches
        it)."""
        for values in (*self.band_reached, *self.band_kept):
            for i in range(len(values)):
                values[i] *= DECAY
        cap = len(self.reached[0])
        self._stale = ([True] * cap, [True] * cap)

    def _count(self, n_drafted: int, n_kept: int, confidences: Sequence[float | None]) -> None:
        """One step's drafts: how many were drafted and how many the target accepted before
        its first rejection, on the side of the step chosen last; `confidences`, the drafter's
        probability of each, when it has one."""
        for i, q in enumerate(confidences[: n_kept + 1]):  # the drafts the target examined
            if q is not None:
                band = _band(q)
                self.band_reached[i > 0][band] += 1
                self.band_kept[i > 0][band] += i < n_kept
        stale, reached, kept = (self._stale[self._side], self.reached[self._side],
                                self.kept[self._side])
        for i in range(min(n_drafted, len(reached))):
            if i > n_kept:
                break
            if stale[i]:  # an earlier answer's count gives way once there is a new one
                stale[i] = False
                reached[i] *= DECAY
                kept[i] *= DECAY
            reached[i] += 1
            if i < n_kept:
                kept[i] += 1

    def alphas(self, k: int, optimism: float = 0.0, continuing: bool | None = None
               ) -> list[float]:
        """Acceptance at draft positions 0..k-1, each given the earlier ones were accepted,
        on the side of the step chosen last (or of `continuing`: the module's note on
        copies). A position seldom reached leans on the one before it (its prior mean), so
        positions never tried yet are expected to do as the last ones measured, not as a
        fixed guess: K can then grow past what it has tried. With `optimism` z, each is its
        posterior mean plus z standard deviations (an upper confidence bound: adaptive_k's
        OPTIMISM)."""
        side = self._side if continuing is None else int(continuing)
        reached, kept = self.reached[side], self.kept[side]
        weight = PRIOR_KEPT + PRIOR_REJECTED
        prior, out = PRIOR_KEPT / weight, []
        for i in range(k):
            j = min(i, len(reached) - 1)
            n = reached[j] + weight
            prior = (kept[j] + weight * prior) / n
            out.append(min(prior + optimism * (prior * (1 - prior) / (n + 1)) ** 0.5, 1.0))
        return out

    def pooled_chance(self, later: bool) -> float:
        """The drafter's acceptance over all bands, at the first position or the later ones."""
        kept, reached = self.band_kept[later], self.band_reached[later]
        return (sum(kept) + PRIOR_KEPT) / (sum(reached) + PRIOR_KEPT + PRIOR_REJECTED)

    def accept_chance(self, q: float, later: bool = False) -> float:
        """The measured chance that a draft the drafter gave probability q is accepted, at
        the first position of a draft or (`later`) after drafts that were all accepted: its
        band's count, shrunk towards the drafter's acceptance over all bands (not towards q:
        drafters are seldom calibrated, and the demo pair's draft, right 96% of the time
        at q ≈ 0.5, made a calibrated prior stop its drafts after one or two). The two
        positions are counted apart: the first is where acceptance is lowest (every step
        drafts it, in the hardest places too), and a draft that has gone well so far goes on
        well more often, so one count would stop good drafts early."""
        band = _band(q)
        kept, reached = self.band_kept[later], self.band_reached[later]
        return ((kept[band] + CONFIDENCE_PRIOR * self.pooled_chance(later))
                / (reached[band] + CONFIDENCE_PRIOR))


def _band(q: float) -> int:
    return min(max(int(q * CONFIDENCE_BANDS), 0), CONFIDENCE_BANDS - 1)

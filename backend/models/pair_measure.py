"""How fast each way to speculate for a target runs on this machine, measured.

One accepted local candidate of draft_finder.py (a draft model, an EAGLE-3 head, the target's
MTP heads or n-gram lookup) answers three prompts (code, prose, a rewrite) greedily, a fixed
budget of tokens each, by plain decoding, at a few fixed K and at K auto, on any engine that
follows backend/engine/protocol.py's EngineLike: the window's engine process and the command
line's run the same code. From the engine's own events: tokens/s per row, α by draft
position, the drafter's and the verification's costs, and beside each measured speedup the
advisor's prediction from the same steps (backend/advisor.py, as bench/spec_bench.py asks it).
Plain decoding is measured again beside every candidate, so each speedup is a ratio of
answers made minutes apart on the same machine, never of figures from another day.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Sequence
from dataclasses import replace
from datetime import date
from pathlib import Path

from backend import spec_types
from backend.advisor import (
    advise,
    draft_ms_per_token,
    fit_verify_line,
    k_auto_drafter,
    positions_from_lengths,
    step_overhead_ms,
)
from backend.engine.events import (
    GenerationFailed,
    GenerationFinished,
    StepVerified,
    accepted_before_rejection,
)
from backend.engine.protocol import EngineLike
from backend.engine.request import GenerationRequest, Message, SamplingSettings
from backend.models.draft_finder import HUB, PairCandidate
from backend.models.pair_results import Alpha, PairMeasurement, Row
from backend.words import Words, declared, words

# The prompts of bench/spec_bench.py: code, where drafts guess syntax; prose, where they
# guess least; and a rewrite, where the answer repeats the prompt (n-gram lookup's case).
CODE_PROMPT = "Write a Python function that checks whether a number is prime, with a docstring."
PROSE_PROMPT = "Tell a short story about a lighthouse keeper who finds a message in a bottle."
REWRITE_PROMPT = (
    "Repeat this text exactly, word for word:\n\nDraftlight is a desktop chat app for local "
    "language models. It shows every token as it streams, coloured by where it came from, so "
    "that speculative decoding becomes visible to anyone watching the answer appear."
)
PROMPTS = (CODE_PROMPT, PROSE_PROMPT, REWRITE_PROMPT)
FIXED_KS = (2, 4, 8)  # short, middling and long drafts; K auto chooses its own
AUTO = 0  # n_draft_max 0: K auto
DEFAULT_TOKENS = 96  # per prompt and row: 15 answers of it take a minute on a 1B target
WARM_UP_TOKENS = 8  # one uncounted answer first pages in the weights
N_CTX = 2048  # when the target is loaded here: the prompts and any budget up to ~1900
# Spec types that draft with a second file, loaded as the engine's draft.
DRAFT_FILE_SPECS = tuple(s.name for s in spec_types.all_spec_types()
                         if s.needs in spec_types.DRAFT_NEEDS)

MEASURING = "Measuring {label}: {row}, answer {n} of {total}."
MEASURING_FILE = "Measuring {label} {name}: {row}, answer {n} of {total}."
PLAIN_ROW = "plain decoding"
FIXED_ROW = "K = {k}"
AUTO_ROW = "K auto"
FAILED = "Measuring {label} failed: {error}"
NOT_MEASURABLE = "{name} cannot be measured here: only an accepted candidate on this machine can."

# fraction done (0–1) and what is being measured, between answers
Progress = Callable[[float, Words], None]


class MeasureFailed(Exception):
    """An answer failed while measuring (its one argument says why, as Words)."""


def measurable(candidate: PairCandidate) -> bool:
    """Whether the candidate can be measured here: accepted, and not only on the Hub."""
    return candidate.accepted and candidate.source != HUB


class PairBench:
    """Measures a target's candidates on one engine, one at a time; `cancel` from any thread
    stops the answer running and the measurement, which then returns None."""

    def __init__(self, engine: EngineLike, target: Path, *, tokens: int = DEFAULT_TOKENS,
                 ks: Sequence[int] = FIXED_KS, n_threads: int | None = None) -> None:
        self.engine, self.target, self.tokens, self.ks = engine, target, tokens, tuple(ks)
        self.n_threads = n_threads
        self._cancelled = threading.Event()

    def cancel(self) -> None:
        self._cancelled.set()  # an answer not yet begun: the engine forgets a cancel on start
        self.engine.cancel()

    def measure(self, candidate: PairCandidate, progress: Progress | None = None
                ) -> PairMeasurement | None:
        """The candidate measured, or None when cancelled. The engine is left with the draft
        it held before; MeasureFailed when an answer fails."""
        if not measurable(candidate):
            raise ValueError(words(NOT_MEASURABLE, name=candidate.name))
        self._cancelled.clear()
        loaded = self.engine.target
        if loaded is None or Path(loaded.path).resolve() != self.target.resolve():
            self.engine.load_target(self.target, n_ctx=N_CTX, n_threads=self.n_threads)
        before = self.engine.draft.path if self.engine.draft is not None else None
        own = candidate.spec_type in DRAFT_FILE_SPECS and candidate.path is not None
        if own and candidate.path is not None:
            self.engine.load_draft(candidate.path)
        try:
            return self._rows(candidate, progress or (lambda _f, _w: None))
        finally:
            if own and before is None:
                self.engine.unload_draft()
            elif own and before is not None:
                self.engine.load_draft(before)

    def _rows(self, candidate: PairCandidate, progress: Progress) -> PairMeasurement | None:
        spec = candidate.spec_type
        ways = [("none", 0), *((spec, k) for k in self.ks), (spec, AUTO)]
        total = 1 + len(PROMPTS) * len(ways)
        label = declared(candidate.label)
        answers: list[list[tuple[GenerationFinished, list[StepVerified]]]] = [[] for _ in ways]
        for n in range(total):
            i = (n - 1) % len(ways)  # answer 0 is the warm-up: plain decoding, not counted
            way = ways[i] if n else ways[0]
            prompt = PROMPTS[(n - 1) // len(ways)] if n else PROMPTS[0]
            row = (words(PLAIN_ROW) if way[0] == "none" else
                   words(FIXED_ROW, k=way[1]) if way[1] else words(AUTO_ROW))
            said = (words(MEASURING_FILE, label=label, name=candidate.name, row=row, n=n + 1,
                          total=total) if candidate.name else
                    words(MEASURING, label=label, row=row, n=n + 1, total=total))
            progress(n / total, said)
            request = GenerationRequest(
                messages=(Message("user", prompt),), spec_type=way[0], n_draft_max=way[1],
                sampling=SamplingSettings(temperature=0.0), measure_plain=False,
                max_tokens=WARM_UP_TOKENS if n == 0 else self.tokens)
            answer = self._answer(request, label)
            if answer is None:
                return None
            if n:
                answers[i].append(answer)
        progress(1.0, said)
        return _measurement(candidate, self.tokens, ways, answers)

    def _answer(self, request: GenerationRequest, label: Words
                ) -> tuple[GenerationFinished, list[StepVerified]] | None:
        """One answer from a cold prefix cache; None when cancelled."""
        if self._cancelled.is_set():
            return None
        self.engine.reset_cache()
        steps: list[StepVerified] = []
        for event in self.engine.generate(request):
            if isinstance(event, StepVerified):
                steps.append(event)
            elif isinstance(event, GenerationFailed):
                raise MeasureFailed(words(FAILED, label=label,
                                          error=event.words or event.message))
            elif isinstance(event, GenerationFinished):
                cancelled = event.stop_reason == "cancelled" or self._cancelled.is_set()
                return None if cancelled else (event, steps)
        return None


def _measurement(candidate: PairCandidate, tokens: int, ways: list[tuple[str, int]],
                 answers: list[list[tuple[GenerationFinished, list[StepVerified]]]]
                 ) -> PairMeasurement:
    rows = [_row(spec, k, runs) for (spec, k), runs in zip(ways, answers, strict=True)]
    plain_rate = rows[0].tokens_per_second
    steps = [[s for _, row_steps in runs for s in row_steps] for runs in answers]
    rows[1:-1] = [_predicted(r, row_steps, plain_rate)
                  for r, row_steps in zip(rows[1:-1], steps[1:-1], strict=True)]
    longest = steps[-2]  # the longest fixed K's: every position it reached
    alphas = positions_from_lengths([len(s.drafted) for s in longest],
                                    [accepted_before_rejection(s) for s in longest],
                                    ways[-2][1])
    fixed_steps = [s for row_steps in steps[1:-1] for s in row_steps]
    per_token = draft_ms_per_token(fixed_steps)
    line = fit_verify_line(fixed_steps, plain_rate)
    plain_ms = 1000.0 / plain_rate if plain_rate else None
    advice = advise(steps[-1], plain_tokens_per_second=plain_rate,
                    overhead_ms=step_overhead_ms(rows[-1]), ks=[k for _, k in ways[1:-1]],
                    k_auto=k_auto_drafter(spec_types.get(candidate.spec_type)))
    return PairMeasurement(
        candidate.spec_type, candidate.name, date.today().isoformat(), tokens, tuple(rows),
        tuple(Alpha(p.position, p.n_reached, p.n_accepted) for p in alphas), per_token,
        per_token / plain_ms if per_token is not None and plain_ms else None,
        line.intercept_ms if line else None, _not_below_zero(line.per_token_ms if line else None),
        _not_below_zero(line.beta if line else None), advice.best_k, advice.speedup)


def _not_below_zero(cost: float | None) -> float | None:
    """A noisy fit may slope down; a bigger batch is never cheaper (verify_costs.py)."""
    return None if cost is None else max(0.0, cost)


def _row(spec: str, k: int, runs: list[tuple[GenerationFinished, list[StepVerified]]]) -> Row:
    stats = [final.stats for final, _ in runs]
    return Row(spec, k, sum(s.n_generated for s in stats),
               sum(s.generation_ms for s in stats), sum(s.n_steps for s in stats),
               sum(s.n_drafted for s in stats), sum(s.n_accepted for s in stats),
               sum(s.draft_ms for s in stats), sum(s.verify_ms for s in stats))


def _predicted(row: Row, steps: list[StepVerified], plain_rate: float) -> Row:
    advice = advise(steps, plain_tokens_per_second=plain_rate, ks=[row.k], asked=row.k,
                    overhead_ms=step_overhead_ms(row))
    return replace(row, predicted=advice.rows[0].speedup if advice.rows else None)

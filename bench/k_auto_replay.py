"""K auto replayed on recorded drafts at fixed costs: its choices against each fixed K with the
machine's noise taken out.

    python bench/k_auto_replay.py [--models DIR] [--tokens N] [--save FILE | --load FILE]

On a shared 2-core machine a pair's plain speed moves by ±15% between runs, more than the
differences K auto is meant to make, so spec_bench's one-run ratios answer "is K auto as good
as the best fixed K" only to within that noise. Here the demo pair answers six prompts once at
K = 16 (the `draft` and `ngram` spec types), keeping what every step drafted, the drafter's
probability of each draft and where the target first rejected one; the costs are measured in
the same run (a plain step, the target decoding each batch size, timed apart, the drafter's
ms per drafted token). Then the real controller (backend/engine/adaptive_k.py, stopper
included) and each fixed K replay the recorded steps at those costs: a step that drafts j
tokens keeps min(j, what the target accepted of the recording) and costs j·c + V(j + 1).

It is an approximation: a replayed step that keeps fewer tokens than the recorded one would
next see another text, which the replay does not have, so it goes on with the recorded next
step; a plain step stands in for one recorded step. Both sides of every ratio are replayed
alike, so the ratios compare the choices, not the replay. `--save` keeps the recordings and
costs as JSON and `--load` replays them again, so two versions of the controller can be
compared on the very same steps. Beside them, an oracle that drafts exactly what each step
will have accepted bounds what any choice of K could gain on these steps.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from spec_bench import CODE_PROMPT, PROSE_PROMPT  # noqa: E402

from backend.engine.adaptive_k import AUTO_K_CAP, AdaptiveK  # noqa: E402
from backend.engine.engine import Engine  # noqa: E402
from backend.engine.events import StepVerified  # noqa: E402
from backend.engine.request import GenerationRequest, Message  # noqa: E402

PROMPTS = (
    CODE_PROMPT,
    PROSE_PROMPT,
    "Explain how a hash table works and when to use one.",
    "List ten tips for learning a new language, one line each.",
    "Write a polite email to a colleague asking to move a meeting to Thursday.",
    "Write an SQL query that finds the five customers with the most orders last month.",
)
FIXED_KS = (2, 4, 8, 16)

# A recorded step: the drafter's probability of each draft (None where it has none), and how
# many of them the target accepted before its first rejection.
Recorded = tuple[list[float | None], int]


def record(engine: Engine, spec: str, tokens: int) -> tuple[list[list[Recorded]], list]:
    """Per prompt, its K = 16 steps; and every step, for the costs."""
    answers, steps = [], []
    for prompt in PROMPTS:
        engine.reset_cache()
        request = GenerationRequest(messages=(Message("user", prompt),), max_tokens=tokens,
                                    spec_type=spec, n_draft_max=AUTO_K_CAP)
        recorded = []
        for ev in engine.generate(request):
            if isinstance(ev, StepVerified):
                steps.append(ev)
                recorded.append(([t.p_draft for t in ev.drafted], ev.n_accepted))
        answers.append(recorded)
    return answers, steps


def plain_step_ms(engine: Engine, tokens: int) -> float:
    engine.reset_cache()
    request = GenerationRequest(messages=(Message("user", PROMPTS[0]),), max_tokens=tokens)
    return statistics.median(ev.verify_ms for ev in engine.generate(request)
                             if isinstance(ev, StepVerified))


class Costs:
    """V(n): the target's time to decode n tokens in one batch, timed for every n a replayed
    step can verify (`verify_table`: a line through the recorded steps' sizes, nearly all 17
    at K = 16, said V(2) < V(1) on some runs); the drafter's median ms per drafted token."""

    def __init__(self, plain: float, c: float, table: list[float]) -> None:
        self.plain, self.c, self.table = plain, c, table

    @classmethod
    def measured(cls, plain: float, steps: list[StepVerified], table: list[float]) -> Costs:
        per_token = [s.draft_ms / len(s.drafted) for s in steps if s.drafted]
        return cls(plain, statistics.median(per_token) if per_token else 0.0, table)

    def verify(self, n: int) -> float:
        return self.plain if n == 1 else self.table[n]


def verify_table(engine: Engine, repeats: int = 7) -> list[float]:
    """[_, V(1), …, V(AUTO_K_CAP + 1)] in ms: each batch size decoded `repeats` times after
    the last answer (rolled back each time), the median kept. Sizes interleave, so a moment
    of load falls on all alike."""
    ctx = engine._ctx
    base, token = ctx.n_past, engine._target.tokenize(" the", add_special=False)[0]
    times: list[list[float]] = [[] for _ in range(AUTO_K_CAP + 2)]
    for _ in range(repeats):
        for n in range(1, AUTO_K_CAP + 2):
            t0 = time.perf_counter()
            ctx.decode([token] * n, all_logits=True)
            times[n].append(1000 * (time.perf_counter() - t0))
            ctx.truncate(base)
    return [0.0, *(statistics.median(t) for t in times[1:])]


def replay(answers: list[list[Recorded]], costs: Costs, fixed: int | None,
           stops: bool = True) -> tuple[float, float]:
    """(tokens per second, mean K of the drafting steps) of a fixed K, or of K auto (None);
    `stops`: the drafter stops on its confidence, as a model drafter does under K auto (the
    engine gives n-gram lookup no stopper)."""
    controller = AdaptiveK(plain_step_ms=costs.plain)
    tokens = ms = 0.0
    drafted_ks = []
    for recorded in answers:
        controller.begin_answer(costs.plain)
        for probabilities, n_accepted in recorded:
            k = fixed if fixed is not None else controller.choose(AUTO_K_CAP)
            stop = controller.stopper() if fixed is None and stops else None
            j = 0
            while j < min(k, len(probabilities)):
                q = probabilities[j]
                if stop is not None and q is not None and stop(j, q):
                    break
                j += 1
            kept = min(j, n_accepted)
            draft_ms, verify_ms = costs.c * j, costs.verify(j + 1)
            tokens += kept + 1
            ms += draft_ms + verify_ms
            if j:
                drafted_ks.append(j)
            if fixed is None:
                controller.record(j, kept, draft_ms, verify_ms, probabilities[:j])
    return 1000 * tokens / ms, statistics.mean(drafted_ks) if drafted_ks else 0.0


def oracle(answers: list[list[Recorded]], costs: Costs) -> float:
    """Tokens per second of a controller that knows each step's outcome: it drafts exactly
    the tokens the target will accept (none where even those do not pay for their step
    against a plain one), so it never verifies a rejected draft. No rule that sees only the
    past can do better on these steps: the headroom K auto has over the best fixed K."""
    tokens = ms = 0.0
    for recorded in answers:
        for probabilities, n_accepted in recorded:
            j = min(n_accepted, len(probabilities))
            if j and (j + 1) * costs.plain < costs.c * j + costs.verify(j + 1):
                j = 0
            tokens += j + 1
            ms += costs.c * j + costs.verify(j + 1)
    return 1000 * tokens / ms


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--models", type=Path, default=ROOT / ".cache" / "bench-models")
    parser.add_argument("--tokens", type=int, default=256)
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--save", type=Path, help="keep the recordings and costs here (JSON)")
    parser.add_argument("--load", type=Path, help="replay recordings --save kept")
    args = parser.parse_args()
    recordings = (json.loads(args.load.read_text()) if args.load
                  else measure(args.models, args.tokens, args.threads))
    if args.save:
        args.save.write_text(json.dumps(recordings))
    plain = recordings["plain"]
    print(f"## demo pair, {len(PROMPTS)} prompts, {recordings['tokens']} tokens each, replayed "
          f"(plain step {plain:.1f} ms: {1000 / plain:.1f} tok/s)")
    for spec in ("draft", "ngram"):
        answers, costs = recordings[spec]["answers"], Costs(**recordings[spec]["costs"])
        rates = {k: replay(answers, costs, k)[0] for k in FIXED_KS}
        auto, mean_k = replay(answers, costs, None, stops=spec == "draft")
        best = max(rates, key=rates.__getitem__)
        bound = oracle(answers, costs)
        print(f"{spec}: c {costs.c:.2f} ms/draft, V(n) = "
              + " ".join(f"{costs.verify(n):.1f}" for n in (1, 2, 3, 5, 9, 17)) + " ms "
              "(n = 1, 2, 3, 5, 9, 17); "
              + "  ".join(f"K={k} {r:.1f}" for k, r in rates.items())
              + f"  auto {auto:.1f} (mean K {mean_k:.1f}) tok/s")
        print(f"{spec}: K auto ÷ best fixed K (K = {best}) = {auto / rates[best]:.3f}; "
              f"÷ K = 8 = {auto / rates[8]:.3f}; ÷ plain = {auto * plain / 1000:.3f}; "
              f"the oracle ÷ best fixed K = {bound / rates[best]:.3f}, ÷ K = 8 = "
              f"{bound / rates[8]:.3f}")
    return 0


def measure(models: Path, tokens: int, threads: int) -> dict:
    """The plain step and, per spec type, the recorded answers and their costs."""
    engine = Engine()
    engine.load_target(models / "demo-target-f32.gguf", n_ctx=2048, n_threads=threads)
    engine.load_draft(models / "demo-draft-q8_0.gguf")
    plain = plain_step_ms(engine, tokens)
    out: dict = {"plain": plain, "tokens": tokens}
    for spec in ("draft", "ngram"):
        answers, steps = record(engine, spec, tokens)
        table = verify_table(engine)
        out[spec] = {"answers": answers, "costs": vars(Costs.measured(plain, steps, table))}
    engine.close()
    return out


if __name__ == "__main__":
    raise SystemExit(main())

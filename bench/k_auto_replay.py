"""K auto replayed on recorded drafts at fixed costs: its choices against each fixed K with the
machine's noise taken out.

    python bench/k_auto_replay.py [--models DIR] [--tokens N] [--save FILE | --load FILE]
                                  [--variants]

On a shared 2-core machine a pair's plain speed moves by ±15% between runs, more than the
differences K auto is meant to make, so spec_bench's one-run ratios answer "is K auto as good
as the best fixed K" only to within that noise. Here the demo pair answers six prompts once at
K = 16 (the `draft` and `ngram` spec types), keeping what every step drafted, the drafter's
probability of each draft and where the target first rejected one; the costs are measured in
the same run (a plain step, and the target and the draft model decoding each batch size,
timed apart). Then the real controller (backend/engine/adaptive_k.py, stopper included) and
each fixed K replay the recorded steps at those costs: a step that drafts j tokens keeps
min(j, what the target accepted of the recording) and costs V(j + 1) to verify, and with a
draft model D(b) + (j − 1)·D(1) to draft, b the tokens it has not seen yet (see Costs.draft:
without that catching up, as before session 8, the replay made short drafts look cheap and
K = 4 the best fixed K where the live runs found K = 8).

It is an approximation: a replayed step that keeps fewer tokens than the recorded one would
next see another text, which the replay does not have, so it goes on with the recorded next
step; a plain step stands in for one recorded step. Both sides of every ratio are replayed
alike, so the ratios compare the choices, not the replay. `--save` keeps the recordings and
costs as JSON and `--load` replays them again, so two versions of the controller can be
compared on the very same steps. Beside them, an oracle that drafts exactly what each step
will have accepted bounds what any choice of K could gain on these steps. `--variants`
replays again with the target's cost per extra verified token ×0.6 and ×1.3 and the draft
model's times ×0.6 and ×1.4, against more fixed Ks: machines other than this one.
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

from backend.engine.adaptive_k import AUTO_K_CAP, AdaptiveK, Go  # noqa: E402
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
    at K = 16, said V(2) < V(1) on some runs); the drafter's median ms per drafted token; and
    D(n), the draft model's time to decode n tokens in one batch (`draft_table`, none for
    n-gram lookup, which decodes nothing)."""

    def __init__(self, plain: float, c: float, table: list[float],
                 draft_table: list[float] | None = None) -> None:
        self.plain, self.c, self.table, self.draft_table = plain, c, table, draft_table

    @classmethod
    def measured(cls, plain: float, steps: list[StepVerified], table: list[float],
                 draft_table: list[float] | None = None) -> Costs:
        per_token = [s.draft_ms / len(s.drafted) for s in steps if s.drafted]
        return cls(plain, statistics.median(per_token) if per_token else 0.0, table,
                   draft_table)

    def verify(self, n: int) -> float:
        return self.plain if n == 1 else self.table[n]

    def draft(self, j: int, behind: int) -> tuple[float, float]:
        """(ms drafting j tokens, of which ms catching up) when the drafter has not seen the
        last `behind` tokens. A draft model decodes those in one batch, whose logits give the
        first draft, then one token per further draft: D(behind) + (j − 1)·D(1). Its catching
        up is what makes a short draft dear: after a step whose every draft was accepted it
        decodes two tokens (the last draft, never decoded, and the target's), which at 12.7
        ms cost 1.8 single decodes on the demo pair's Q8_0 draft. Without a table (n-gram,
        or a recording from before the table was timed), j·c and no catching up."""
        if not j:
            return 0.0, 0.0
        if self.draft_table is None:
            return self.c * j, 0.0
        catch = self.draft_table[min(behind, len(self.draft_table) - 1)]
        return catch + (j - 1) * self.draft_table[1], catch


def verify_table(engine: Engine) -> list[float]:
    """[_, V(1), …, V(AUTO_K_CAP + 1)] in ms: the target decoding each batch size after the
    last answer (see _batch_table)."""
    return _batch_table(engine, engine._ctx, all_logits=True)


def draft_table(engine: Engine) -> list[float]:
    """[_, D(1), …, D(AUTO_K_CAP + 1)] in ms: the draft model decoding each batch size (the
    logits of the last row only, as it does when catching up)."""
    return _batch_table(engine, engine._drafters["draft"].ctx, all_logits=False)


def _batch_table(engine: Engine, ctx, *, all_logits: bool, repeats: int = 7) -> list[float]:
    """Each batch size decoded `repeats` times on `ctx` (rolled back each time), the median
    kept. Sizes interleave, so a moment of load falls on all alike."""
    base, token = ctx.n_past, engine._target.tokenize(" the", add_special=False)[0]
    times: list[list[float]] = [[] for _ in range(AUTO_K_CAP + 2)]
    for _ in range(repeats):
        for n in range(1, AUTO_K_CAP + 2):
            t0 = time.perf_counter()
            ctx.decode([token] * n, all_logits=all_logits)
            times[n].append(1000 * (time.perf_counter() - t0))
            ctx.truncate(base)
    return [0.0, *(statistics.median(t) for t in times[1:])]


def replay(answers: list[list[Recorded]], costs: Costs, fixed: int | None,
           stops: bool = True) -> tuple[float, float]:
    """(tokens per second, mean K of the drafting steps) of a fixed K, or of K auto (None);
    `stops`: the drafter stops on its confidence, as a model drafter does under K auto (the
    engine gives n-gram lookup no stopper)."""
    controller = AdaptiveK(plain_step_ms=costs.plain, stops=stops)
    tokens = ms = 0.0
    drafted_ks = []
    for recorded in answers:
        controller.begin_answer(costs.plain)
        behind = 1
        for probabilities, n_accepted in recorded:
            k = fixed if fixed is not None else controller.choose(AUTO_K_CAP)
            judge = controller.stopper() if fixed is None and stops else None
            j, dropped = 0, False
            while j < min(k, len(probabilities)):
                q = probabilities[j]
                go = Go.ON if judge is None or q is None else judge(j, q)
                if go is Go.DROP:  # the draft before it was decoded to draw it, for nothing
                    dropped = True
                    break
                j += 1
                if go is Go.LAST:
                    break
            kept = min(j, n_accepted)
            (draft_ms, catch_ms), verify_ms = costs.draft(j, behind), costs.verify(j + 1)
            if dropped:
                draft_ms += costs.draft(2, 0)[0] - costs.draft(1, 0)[0]  # one more decode
            behind = _behind_after(j, kept, dropped, behind)
            tokens += kept + 1
            ms += draft_ms + verify_ms
            if j:
                drafted_ks.append(j)
            if fixed is None:
                controller.record(j, kept, draft_ms, verify_ms, probabilities[:j], catch_ms)
    return 1000 * tokens / ms, statistics.mean(drafted_ks) if drafted_ks else 0.0


def _behind_after(j: int, kept: int, dropped: bool, behind: int) -> int:
    """The tokens the drafter has not seen after a step that drafted j and kept `kept`: a
    plain step adds its token; a draft cut at a rejection leaves the target's correction; a
    draft kept whole leaves the target's token and, unless the stopper dropped the draft after
    it (which the drafter decoded the last one to draw), its last draft, never decoded."""
    if not j:
        return behind + 1
    return 2 if kept == j and not dropped else 1


def oracle(answers: list[list[Recorded]], costs: Costs) -> float:
    """Tokens per second of a controller that knows each step's outcome: it drafts exactly
    the tokens the target will accept (none where even those do not pay for their step
    against a plain one), so it never verifies a rejected draft. No rule that sees only the
    past can do better on these steps: the headroom K auto has over the best fixed K."""
    tokens = ms = 0.0
    for recorded in answers:
        behind = 1
        for probabilities, n_accepted in recorded:
            j = min(n_accepted, len(probabilities))
            step_ms = costs.draft(j, behind)[0] + costs.verify(j + 1)
            if j and (j + 1) * costs.plain < step_ms:
                j, step_ms = 0, costs.verify(1)
            tokens += j + 1
            ms += step_ms
            behind = _behind_after(j, j, False, behind)
    return 1000 * tokens / ms


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--models", type=Path, default=ROOT / ".cache" / "bench-models")
    parser.add_argument("--tokens", type=int, default=256)
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--save", type=Path, help="keep the recordings and costs here (JSON)")
    parser.add_argument("--load", type=Path, help="replay recordings --save kept")
    parser.add_argument("--variants", action="store_true",
                        help="also replay the draft model at scaled costs (see above)")
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
              + ("" if costs.draft_table is None else "D(n) = " + " ".join(
                  f"{costs.draft_table[n]:.1f}" for n in (1, 2, 3)) + " ms (n = 1, 2, 3); ")
              + "  ".join(f"K={k} {r:.1f}" for k, r in rates.items())
              + f"  auto {auto:.1f} (mean K {mean_k:.1f}) tok/s")
        print(f"{spec}: K auto ÷ best fixed K (K = {best}) = {auto / rates[best]:.3f}; "
              f"÷ K = 8 = {auto / rates[8]:.3f}; ÷ plain = {auto * plain / 1000:.3f}; "
              f"the oracle ÷ best fixed K = {bound / rates[best]:.3f}, ÷ K = 8 = "
              f"{bound / rates[8]:.3f}")
        if args.variants and costs.draft_table is not None:
            print(f"{spec}: K auto ÷ best fixed K of {VARIANT_KS}, verify slope × / draft "
                  "times × : " + "  ".join(
                      f"{slope}/{dear} {ratio:.3f}"
                      for slope, dear, ratio in variants(answers, costs)))
    return 0


VARIANT_KS = (2, 3, 4, 6, 8, 12, 16)


def sloped(table: list[float], slope: float) -> list[float]:
    """A V(n) table with each size's cost over V(1) scaled by `slope`: a machine whose
    verify batches grow more or less dear per token than this one's."""
    return [0.0, *(table[1] + (table[n] - table[1]) * slope for n in range(1, len(table)))]


def variants(answers: list[list[Recorded]], costs: Costs):
    """(verify slope scale, draft time scale, K auto ÷ the best of VARIANT_KS) for each of
    the nine cost variants: V(n) − V(1) and D(n) scaled."""
    for slope in (0.6, 1.0, 1.3):
        for dear in (0.6, 1.0, 1.4):
            scaled = Costs(costs.plain, costs.c * dear, sloped(costs.table, slope),
                           [ms * dear for ms in costs.draft_table or []])
            best = max(replay(answers, scaled, k)[0] for k in VARIANT_KS)
            yield slope, dear, replay(answers, scaled, None)[0] / best


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
        drafts = draft_table(engine) if spec == "draft" else None
        out[spec] = {"answers": answers,
                     "costs": vars(Costs.measured(plain, steps, table, drafts))}
    engine.close()
    return out


if __name__ == "__main__":
    raise SystemExit(main())

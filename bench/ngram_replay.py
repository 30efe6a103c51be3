"""N-gram lookup replayed exactly: every fixed K and K auto on the target's own greedy text, at
costs measured in the same run.

    python bench/ngram_replay.py [--models DIR | --target GGUF] [--tokens N] [--answers N]
                                 [--save FILE | --load FILE]

Greedy output is the same at any K (speculative decoding is lossless), and n-gram lookup's
drafts follow from the text alone, so a step that drafts j tokens at any point of the answer
keeps exactly what a live step would: the common prefix of its drafts and the text. Unlike
k_auto_replay.py's n-gram rows, which go on with the recorded next step whatever the replayed
one kept, nothing here is approximated but the times: a step costs V(j + 1), the demo target
(or `--target`) verifying j + 1 tokens (timed apart for every size, as k_auto_replay does),
plus the loop's time around it (`--overhead-ms`). So a controller's choices are compared
without the machine's noise, which on this shared 2-core machine is larger than what they
change.

Each prompt is answered once (its tokens kept); then each fixed K and K auto replay it
`--answers` times in a row, K auto with one controller as the window's engine keeps one
(spec_bench's rounds do the same), its first answer reported apart from the later ones. Beside
them, an oracle that knows what each step will keep.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from k_auto_replay import PROMPTS, Costs, plain_step_ms, sloped, verify_table  # noqa: E402
from spec_bench import REWRITE_PROMPT  # noqa: E402

from backend.engine.adaptive_k import AUTO_K_CAP, AdaptiveK  # noqa: E402
from backend.engine.context import common_prefix  # noqa: E402
from backend.engine.drafters.base import Proposal  # noqa: E402
from backend.engine.drafters.ngram import NgramDrafter  # noqa: E402
from backend.engine.engine import Engine  # noqa: E402
from backend.engine.events import StepVerified  # noqa: E402
from backend.engine.request import GenerationRequest, Message  # noqa: E402

MORE_PROMPTS = (
    REWRITE_PROMPT,
    "Write a JavaScript function that reverses the words in a sentence, with comments.",
    "Write a Python class for a bank account with deposit and withdraw methods.",
    "Explain how a hash table handles collisions, with a short code example.",
    "Write a bash script that renames every .txt file in a folder to .md.",
)
FIXED_KS = (2, 3, 4, 6, 8, 12, 16)
# Recorded without --target; also the name a recording made before --target existed stands for.
DEMO_TARGET = "demo-target-f32.gguf"


def record(target: Path, tokens: int, threads: int) -> dict:
    """Each prompt's tokens (prompt and greedy answer) and the costs: a plain step, V(n)."""
    engine = Engine()
    engine.load_target(target, n_ctx=2048, n_threads=threads)
    plain = plain_step_ms(engine, tokens)
    texts = []
    for prompt in (*PROMPTS, *MORE_PROMPTS):
        engine.reset_cache()
        request = GenerationRequest(messages=(Message("user", prompt),), max_tokens=tokens)
        answer = [t.id for ev in engine.generate(request) if isinstance(ev, StepVerified)
                  for t in ev.emitted]
        n_prompt = engine._ctx.n_past + 1 - len(answer)  # the cache holds all but the last
        texts.append({"prompt": prompt, "n_prompt": n_prompt,
                      "tokens": [*engine._ctx.tokens[:n_prompt], *answer]})
    table = verify_table(engine)
    engine.close()
    return {"plain": plain, "table": table, "tokens": tokens, "texts": texts,
            "target": target.name}


class Replay:
    """One text replayed by a policy: (tokens, ms) of its answer."""

    def __init__(self, plain: float, table: list[float], overhead: float) -> None:
        self.plain, self.overhead = plain, overhead
        self.verify = Costs(plain, 0.0, table).verify  # V(n); lookup decodes nothing

    def answer(self, text: dict, choose, controller: AdaptiveK | None = None
               ) -> tuple[int, float]:
        """`choose(the lookup's proposal, the tokens the text has there)` → j, the length
        drafted; `controller`, K auto's, is told every step."""
        full, h = text["tokens"], text["n_prompt"]
        drafter, tokens, ms = NgramDrafter(), 0, 0.0
        if controller is not None:
            controller.begin_answer(self.plain)
        while h < len(full):
            proposal = drafter.propose(full[:h], AUTO_K_CAP)
            offered = proposal.tokens[: len(full) - h]
            j = min(choose(proposal, full[h:]), len(offered))
            kept = common_prefix(offered[:j], full[h:], j)
            step_ms = self.verify(j + 1)
            if controller is not None:
                controller.record_overhead(self.overhead)
                controller.record(j, kept, 0.0, step_ms)
            tokens, ms, h = tokens + kept + 1, ms + step_ms + self.overhead, h + kept + 1
        return tokens, ms

    def oracle(self, proposal: Proposal, text: list[int]) -> int:
        """Of what the step will keep, the length with the most tokens per ms (plain decoding
        included): on the rewrite prompt, whose copies outrun the 16 drafts lookup offers,
        drafting all that will be kept made 17 tokens at V(17), dearer per token than 13 at
        V(13). Step by step, so not a bound: it does not weigh where its step leaves the
        next."""
        kept = common_prefix(proposal.tokens, text, len(proposal.tokens))
        return max(range(kept + 1),
                   key=lambda j: (j + 1) / (self.verify(j + 1) + self.overhead))


def rate(runs: list[tuple[int, float]]) -> float:
    return 1000 * sum(t for t, _ in runs) / sum(ms for _, ms in runs)


def compare(replay: Replay, texts: list[dict], answers: int, *, verbose: bool
            ) -> tuple[list[float], list[float], dict]:
    """Per text, K auto's first answer and the mean of its later ones ÷ that text's best
    fixed K; and over all texts, (tokens, ms) of each fixed K, of K auto's last answer and
    of the oracle."""
    firsts, laters = [], []
    totals: dict = {k: [] for k in (*FIXED_KS, "auto", "oracle")}
    for text in texts:
        fixed = {}
        for k in FIXED_KS:
            totals[k].append(replay.answer(text, lambda proposal, _, k=k: k))
            fixed[k] = rate(totals[k][-1:])
        controller = AdaptiveK(plain_step_ms=replay.plain)  # no stopper, as the engine's
        # as the engine asks it of a lookup: knowing whether the drafts go on with a copy
        # (and only when it found something to draft: the engine's _propose)
        runs = [replay.answer(text, lambda proposal, _, c=controller: c.choose(
            AUTO_K_CAP, continuing=proposal.continues) if proposal.tokens else 0, controller)
            for _ in range(answers)]
        totals["auto"].append(runs[-1])
        totals["oracle"].append(replay.answer(text, replay.oracle))
        autos = [rate([r]) for r in runs]
        best = max(fixed, key=fixed.__getitem__)
        firsts.append(autos[0] / fixed[best])
        laters.append(statistics.mean(autos[1:]) / fixed[best])
        if verbose:
            print(f"{text['prompt'][:40]:40s} "
                  + " ".join(f"K={k} {r:5.1f}" for k, r in fixed.items())
                  + f" | auto {autos[0]:5.1f} then {statistics.mean(autos[1:]):5.1f} | oracle "
                  f"{rate(totals['oracle'][-1:]):5.1f} | ÷ best (K = {best}) "
                  f"{firsts[-1]:.3f} then {laters[-1]:.3f}")
    return firsts, laters, totals


def summary(firsts: list[float], laters: list[float], totals: dict) -> str:
    best = max(FIXED_KS, key=lambda k: rate(totals[k]))
    return (f"K auto ÷ each text's best fixed K: first answers mean "
            f"{statistics.mean(firsts):.3f} (min {min(firsts):.3f}), later answers mean "
            f"{statistics.mean(laters):.3f} (min {min(laters):.3f}); over all texts, K auto's "
            f"last answers ÷ the best fixed K (K = {best}) "
            f"{rate(totals['auto']) / rate(totals[best]):.3f}, the oracle's "
            f"{rate(totals['oracle']) / rate(totals[best]):.3f}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--models", type=Path, default=ROOT / ".cache" / "bench-models")
    parser.add_argument("--target", type=Path, metavar="GGUF",
                        help="the model to record (default: the demo target in --models)")
    parser.add_argument("--tokens", type=int, default=256)
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--answers", type=int, default=6)
    parser.add_argument("--overhead-ms", type=float, default=0.3,
                        help="the loop's time around a step (events, the reader)")
    parser.add_argument("--save", type=Path, help="keep the texts and costs here (JSON)")
    parser.add_argument("--load", type=Path, help="replay texts --save kept")
    parser.add_argument("--variants", action="store_true",
                        help="also replay with V(n) − V(1) ×0.6 and ×1.3 and 1.5 ms a step "
                             "around it: machines other than this one")
    args = parser.parse_args()
    rec = (json.loads(args.load.read_text()) if args.load
           else record(args.target or args.models / DEMO_TARGET, args.tokens,
                       args.threads))
    if args.save:
        args.save.write_text(json.dumps(rec))
    replay = Replay(rec["plain"], rec["table"], args.overhead_ms)
    print(f"## n-gram lookup on {rec.get('target', DEMO_TARGET)}, "
          f"{len(rec['texts'])} prompts, "
          f"{rec['tokens']} tokens, replayed exactly (plain step {rec['plain']:.1f} ms, V(n) = "
          + " ".join(f"{replay.verify(n):.1f}" for n in (2, 3, 5, 9, 17)) + " ms for n = 2, "
          f"3, 5, 9, 17; {args.overhead_ms} ms a step around it); tok/s, and K auto ÷ the best "
          f"fixed K, first answer and the mean of the next {args.answers - 1}")
    print(summary(*compare(replay, rec["texts"], args.answers, verbose=True)))
    if args.variants:
        for slope in (0.6, 1.0, 1.3):
            for overhead in (args.overhead_ms, 1.5):
                scaled = Replay(rec["plain"], sloped(rec["table"], slope), overhead)
                print(f"V(n) − V(1) ×{slope}, {overhead} ms around a step: " + summary(
                    *compare(scaled, rec["texts"], args.answers, verbose=False)))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

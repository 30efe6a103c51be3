"""K auto, step by step: what the controller believed when it chose each step's K, and what
the step then cost. For finding why K auto falls behind a fixed K on some pair.

    python bench/k_auto_steps.py PAIR [--tokens N] [--models DIR]
    python bench/k_auto_steps.py --target T.gguf [--draft D.gguf] [--prompt TEXT]

PAIR is one of spec_bench's cases: demo-code, demo-ngram, prose, rewrite, counting, mtp,
eagle3-count3, eagle3-own3, eagle3-count-slow, eagle3-own-slow; or a model of one's own with
--target (the draft model with --draft, else n-gram lookup). One warm-up answer, then one
answer whose steps are printed: the K chosen, the drafts made and kept, the drafter's and the
verify batch's times and the step's overhead; beside them the controller's estimates (its
drafter line d0 + c·k, verify line a + b·n, overhead o, α of the first positions) and the
tokens per ms it expected from that K (and from plain decoding) against what the step gave.
"""

from __future__ import annotations

import argparse
import statistics
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests" / "models"))

from spec_bench import CODE_PROMPT, PROSE_PROMPT, REWRITE_PROMPT  # noqa: E402

from backend.engine import adaptive_k  # noqa: E402
from backend.engine.engine import Engine  # noqa: E402
from backend.engine.events import GenerationFailed, GenerationFinished, StepVerified  # noqa: E402
from backend.engine.request import GenerationRequest, Message  # noqa: E402

# name: (target, draft model, EAGLE-3 head, spec type, prompt, raw prompt)
PAIRS = {
    "demo-code": ("demo-target-f32", "demo-draft-q8_0", None, "draft", CODE_PROMPT, False),
    "demo-ngram": ("demo-target-f32", None, None, "ngram", CODE_PROMPT, False),
    "prose": ("demo-target-f32", "demo-draft-q8_0", None, "draft", PROSE_PROMPT, False),
    "rewrite": ("demo-target-f32", None, None, "ngram", REWRITE_PROMPT, False),
    "counting": ("count-target-slow", "count-draft", None, "draft", " zero one", True),
    "mtp": ("count-mtp", None, None, "mtp", " zero one", True),
    "eagle3-count3": ("count-target3", None, "eagle3-count", "eagle3", " zero one", True),
    "eagle3-own3": ("count-target3", None, "eagle3-own", "eagle3", " zero one", True),
    "eagle3-count-slow": ("count-target-slow", None, "eagle3-count", "eagle3", " zero one",
                          True),
    "eagle3-own-slow": ("count-target-slow", None, "eagle3-own", "eagle3", " zero one", True),
}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("pair", nargs="?", choices=sorted(PAIRS))
    parser.add_argument("--target", type=Path, metavar="GGUF")
    parser.add_argument("--draft", type=Path, metavar="GGUF")
    parser.add_argument("--prompt", default=CODE_PROMPT, help="with --target: the user message")
    parser.add_argument("--models", type=Path, default=ROOT / ".cache" / "bench-models")
    parser.add_argument("--tokens", type=int, default=128)
    parser.add_argument("--threads", type=int, default=2)
    args = parser.parse_args()
    if (args.pair is None) == (args.target is None):
        parser.error("name one PAIR or give --target")
    if args.target is not None:
        name, prompt, raw = args.target.name, args.prompt, False
        spec = "draft" if args.draft else "ngram"
        target_path, draft_path = args.target, args.draft
    else:
        target, draft, head, spec, prompt, raw = PAIRS[args.pair]
        name, target_path = args.pair, args.models / f"{target}.gguf"
        draft_path = args.models / f"{draft or head}.gguf" if draft or head else None
    engine = Engine()
    engine.load_target(target_path, n_ctx=2048, n_threads=args.threads)
    if draft_path is not None:
        engine.load_draft(draft_path)
    base = dict(prompt=prompt if raw else None,
                messages=() if raw else (Message("user", prompt),), max_tokens=args.tokens)
    for _ in engine.generate(GenerationRequest(**base)):  # the plain speed K auto starts from
        pass

    beliefs: list[tuple] = []
    choose = adaptive_k.AdaptiveK.choose

    def spying_choose(self, n_draft_max, continuing=False):
        k = choose(self, n_draft_max, continuing)
        (a, b), (d0, c), overhead = self.verify_line(), self.draft_line(), self.overhead()
        o = overhead.at(k)  # what the controller charges this step outside draft and verify
        alphas = self.alphas(min(n_draft_max, self.cap))
        plain = 1.0 / max(self.single_ms() + overhead.plain, 1e-9)
        beliefs.append((k, a, b, d0, c, o, alphas, self._best_rate, plain))
        return k

    adaptive_k.AdaptiveK.choose = spying_choose
    request = GenerationRequest(**base, spec_type=spec, n_draft_max=0)
    for _round in ("warm-up", "measured"):
        beliefs.clear()
        engine.reset_cache()
        steps, final = [], None
        for ev in engine.generate(request):
            if isinstance(ev, StepVerified):
                steps.append(ev)
            elif isinstance(ev, GenerationFinished):
                final = ev
            elif isinstance(ev, GenerationFailed):
                print(f"{_round} answer failed: {ev.message} {ev.detail}", file=sys.stderr)
                return 1
    engine.close()
    print(f"## {name}: {final.stats.tokens_per_second:.1f} tok/s, "
          f"α {final.stats.acceptance_rate:.2f}, {len(steps)} steps")
    print(f"{'step':>4} {'K':>3} {'drf':>3} {'kept':>4} {'d ms':>6} {'v ms':>6}  "
          f"{'d0':>5} {'c':>5} {'a':>6} {'b':>5} {'o':>5}  {'exp t/ms':>8} {'plain':>6} "
          f"{'got':>6}  α…")
    got_rates = []
    for n, (step, belief) in enumerate(zip(steps, beliefs, strict=False), 1):
        k, a, b, d0, c, o, alphas, rate, plain = belief
        made = len(step.emitted)
        got = made / max(step.draft_ms + step.verify_ms + o, 1e-9)
        got_rates.append(got)
        print(f"{n:4} {k:3} {len(step.drafted):3} {step.n_accepted:4} {step.draft_ms:6.2f} "
              f"{step.verify_ms:6.2f}  {d0:5.2f} {c:5.2f} {a:6.2f} {b:5.2f} {o:5.2f}  "
              f"{rate:8.3f} {plain:6.3f} {got:6.3f}  "
              + " ".join(f"{x:.2f}" for x in alphas[:8]))
    ks = [b[0] for b in beliefs]
    print(f"K chosen: median {statistics.median(ks)}, plain steps {ks.count(0)} of {len(ks)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

"""K auto when the machine's speed moves: an answer given while other programs keep every core
busy, then answers on a quiet machine, each beside plain decoding and K = 8.

    python bench/k_auto_under_load.py [--models DIR] [--tokens N] [--rounds N]

A laptop's clock, a browser tab, a compiler: the speed K auto measured an answer ago may not
be today's. What it remembers from a slow moment must not keep it from drafting what pays now
(backend/engine/verify_costs.py: SIZE_FRESH, SHIFT_STEPS; adaptive_k.py: COST_SURPRISE,
HORIZON). The demo pair
answers the prose prompt with K auto while as many busy-looping processes as the engine has
threads run beside it; the load ends one second into the next K auto answer; then each round
answers with plain decoding, K = 8 and K auto on the quiet machine, each round starting one
row further on (as spec_bench's do). Printed: tok/s, each K auto answer's steps (the drafts'
lengths, "." a plain step) and K auto ÷ K = 8 per round. The rounds after the load are the
figure: they should be as near K = 8 as on a machine that never was busy (spec_bench's
demo-pair rows), not plain where drafting pays.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import threading
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from spec_bench import PROSE_PROMPT  # noqa: E402

from backend.engine.engine import Engine  # noqa: E402
from backend.engine.events import GenerationFinished, StepVerified  # noqa: E402
from backend.engine.request import GenerationRequest, Message  # noqa: E402

AUTO = -1  # the request's K auto
ROWS = (0, 8, AUTO)  # plain decoding, K = 8, K auto


def answer(engine: Engine, k: int, tokens: int) -> tuple[float, str]:
    """(tok/s, the steps' draft lengths) of one answer at fixed K (0: plain) or K auto."""
    engine.reset_cache()
    spec = {} if k == 0 else {"spec_type": "draft", "n_draft_max": max(k, 0)}
    request = GenerationRequest(messages=(Message("user", PROSE_PROMPT),), max_tokens=tokens,
                                **spec)
    steps, rate = [], 0.0
    for ev in engine.generate(request):
        if isinstance(ev, StepVerified):
            steps.append(str(len(ev.drafted)) if ev.drafted else ".")
        elif isinstance(ev, GenerationFinished):
            rate = ev.stats.tokens_per_second
    return rate, " ".join(steps)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--models", type=Path, default=ROOT / ".cache" / "bench-models")
    parser.add_argument("--tokens", type=int, default=160)
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    engine = Engine()
    engine.load_target(args.models / "demo-target-f32.gguf", n_ctx=2048,
                       n_threads=args.threads)
    engine.load_draft(args.models / "demo-draft-q8_0.gguf")
    load = [subprocess.Popen([sys.executable, "-c", "while True: pass"])
            for _ in range(args.threads)]
    try:
        rate, steps = answer(engine, AUTO, args.tokens)
        print(f"K auto, under load: {rate:.1f} tok/s | {steps}")
        threading.Timer(1.0, lambda: [p.kill() for p in load]).start()
        rate, steps = answer(engine, AUTO, args.tokens)
        print(f"K auto, the load ends 1 s in: {rate:.1f} tok/s | {steps}")
    finally:
        for p in load:
            p.kill()
            p.wait()
    for r in range(1, args.rounds + 1):
        order = ROWS[r % len(ROWS):] + ROWS[:r % len(ROWS)]  # each round starts one further on
        done = {k: answer(engine, k, args.tokens) for k in order}
        (plain, _), (k8, _), (auto, steps) = (done[k] for k in ROWS)
        print(f"round {r}: plain {plain:.1f}, K = 8 {k8:.1f}, K auto {auto:.1f} tok/s; "
              f"K auto ÷ K = 8 {auto / k8:.2f}, K = 8 ÷ plain {k8 / plain:.2f} | {steps}")
    engine.close()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

"""What the inspector's records cost the engine: tokens/s with StepRecord._inspection (made on
the event worker, backend/engine/step_events.py) as it is and with it stubbed out (no draws,
top-5s or n-gram sources recorded), interleaved rounds in one run, on the demo pair (a real
vocabulary of 49k tokens: the top-5s scan it).

    python bench/inspection_bench.py [--models DIR] [--rounds 3] [--tokens 96]
"""

from __future__ import annotations

import argparse
import statistics
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from backend.engine.engine import Engine  # noqa: E402
from backend.engine.events import GenerationFinished, Verification  # noqa: E402
from backend.engine.request import GenerationRequest, Message, SamplingSettings  # noqa: E402
from backend.engine.step_events import StepRecord  # noqa: E402

PROMPT = "Write a Python function that checks whether a number is prime, with a docstring."


def without_records(self):
    return [None] * len(self.drafts), Verification("greedy" if self.greedy else "sampled")


def rate(engine: Engine, request: GenerationRequest) -> float:
    engine.reset_cache()
    for event in engine.generate(request):
        if isinstance(event, GenerationFinished):
            return event.stats.tokens_per_second
    raise SystemExit("the answer did not finish")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--models", type=Path, default=ROOT / ".cache" / "bench-models")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--tokens", type=int, default=96)
    args = parser.parse_args()
    engine = Engine()
    engine.load_target(args.models / "demo-target-f32.gguf", n_ctx=2048, n_threads=2)
    engine.load_draft(args.models / "demo-draft-q8_0.gguf")
    recorded = StepRecord._inspection
    for name, sampling in (("greedy", SamplingSettings()),
                           ("sampled", SamplingSettings(temperature=0.7, seed=1))):
        for spec in ("none", "draft"):
            request = GenerationRequest(messages=(Message("user", PROMPT),), spec_type=spec,
                                        n_draft_max=8, max_tokens=args.tokens,
                                        sampling=sampling)
            rate(engine, request)  # warm-up
            on, off = [], []
            for _ in range(args.rounds):
                StepRecord._inspection = recorded
                on.append(rate(engine, request))
                StepRecord._inspection = without_records  # type: ignore[method-assign]
                off.append(rate(engine, request))
            StepRecord._inspection = recorded
            a, b = statistics.median(on), statistics.median(off)
            print(f"{name:8} {spec:6} with records {a:7.1f} tok/s, without {b:7.1f} tok/s, "
                  f"ratio {a / b:.3f}")
    engine.close()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

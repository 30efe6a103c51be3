"""K auto and the speedup figure when the machine's load comes and goes.

    python bench/k_auto_under_load.py [--tokens N] [--rounds N] [--threads N]

Two figures, on the demo pair (the prose prompt, greedy), with busy-looping processes as many
as the engine's threads standing in for a browser or a compiler:

1. **Back to drafting.** A K auto answer under load, then one in which the load ends a second
   in: the steps it takes, after the load ends, to draft in most of eight steps again
   (adaptive_k.EXPLORE_MAX bounds it), and the answers after it on a quiet machine.
2. **The figure under changing load.** The load is switched on and off at random (0.3–1.5 s
   each way) while rounds of a plain answer and a K auto answer run in turn (the order
   alternating). Each K auto answer reports "×S vs plain", measured by its own plain steps;
   the reference is the interleaved runs' ratio, mean K auto tok/s ÷ mean plain tok/s over
   the same rounds. Printed: the mean reported figure ÷ the reference (the issue asks for
   0.9–1.1), and the spread of both.
"""

from __future__ import annotations

import argparse
import os
import random
import signal
import statistics
import subprocess
import sys
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from spec_bench import PROSE_PROMPT  # noqa: E402

from backend.engine.engine import Engine  # noqa: E402
from backend.engine.events import GenerationFinished, Stats, StepVerified  # noqa: E402
from backend.engine.request import GenerationRequest, Message  # noqa: E402

AUTO = -1


def answer(engine: Engine, k: int, tokens: int) -> tuple[Stats, list[tuple[float, int]]]:
    """The answer's Stats and, per step, (when it ended, tokens drafted); k 0: plain."""
    engine.reset_cache()
    spec = {} if k == 0 else {"spec_type": "draft", "n_draft_max": max(k, 0)}
    request = GenerationRequest(messages=(Message("user", PROSE_PROMPT),), max_tokens=tokens,
                                **spec)
    steps: list[tuple[float, int]] = []
    stats = Stats()
    for ev in engine.generate(request):
        if isinstance(ev, StepVerified):
            steps.append((time.perf_counter(), len(ev.drafted)))
        elif isinstance(ev, GenerationFinished):
            stats = ev.stats
    return stats, steps


def drawn(steps: list[tuple[float, int]]) -> str:
    return " ".join(str(k) if k else "." for _, k in steps)


def back_to_drafting(steps: list[tuple[float, int]], since: float) -> int | None:
    """Steps after `since` until K auto drafts in six of eight steps again."""
    after = [k for t, k in steps if t >= since]
    for i in range(max(len(after) - 7, 0)):
        if after[i] and sum(1 for k in after[i:i + 8] if k) >= 6:
            return i
    return None


class Load:
    """Busy-looping processes, paused and resumed (SIGSTOP / SIGCONT)."""

    def __init__(self, n: int) -> None:
        self.procs = [subprocess.Popen([sys.executable, "-c", "while True: pass"])
                      for _ in range(n)]
        self.on = True

    def set(self, on: bool) -> None:
        for p in self.procs:
            os.kill(p.pid, signal.SIGCONT if on else signal.SIGSTOP)
        self.on = on

    def close(self) -> None:
        for p in self.procs:
            p.kill()
            p.wait()


def toggling(load: Load, stop: threading.Event, rng: random.Random) -> None:
    while not stop.wait(rng.uniform(0.3, 1.5)):
        load.set(not load.on)


def spread(values: list[float]) -> str:
    return f"{min(values):.2f}–{max(values):.2f}"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tokens", type=int, default=160)
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--rounds", type=int, default=8)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    engine = Engine()
    _, draft = engine.load_demo(n_ctx=2048, n_threads=args.threads)
    engine.load_draft(draft)

    print("1. Back to drafting after a load ends")
    load = Load(args.threads)
    try:
        stats, steps = answer(engine, AUTO, args.tokens)
        print(f"K auto under load: {stats.tokens_per_second:.1f} tok/s | {drawn(steps)}")
        ended: list[float] = []

        def end() -> None:
            ended.append(time.perf_counter())
            load.close()

        threading.Timer(1.0, end).start()
        stats, steps = answer(engine, AUTO, args.tokens)
        n = back_to_drafting(steps, ended[0]) if ended else None
        print(f"K auto, the load ends 1 s in: {stats.tokens_per_second:.1f} tok/s | "
              f"{drawn(steps)}\n  drafting again {n} steps after the load ended")
    finally:
        load.close()
    stats, steps = answer(engine, AUTO, args.tokens)
    print(f"K auto, quiet: {stats.tokens_per_second:.1f} tok/s | {drawn(steps)}")

    print("\n2. The speedup figure under load that comes and goes")
    load, stop = Load(args.threads), threading.Event()
    switcher = threading.Thread(target=toggling, args=(load, stop, random.Random(args.seed)))
    switcher.start()
    plain, auto, reported = [], [], []
    try:
        for r in range(args.rounds):
            for k in ((0, AUTO) if r % 2 == 0 else (AUTO, 0)):
                stats, _ = answer(engine, k, args.tokens)
                if k == 0:
                    plain.append(stats.tokens_per_second)
                else:
                    auto.append(stats.tokens_per_second)
                    reported.append(stats.speedup)
            print(f"round {r + 1}: plain {plain[-1]:.1f}, K auto {auto[-1]:.1f} tok/s, "
                  f"K auto reports ×{reported[-1]:.2f}")
    finally:
        stop.set()
        switcher.join()
        load.set(True)
        load.close()
    engine.close()
    measured = [s for s in reported if s]
    reference = statistics.mean(auto) / statistics.mean(plain)
    figure = statistics.mean(measured) if measured else 0.0
    print(f"interleaved reference ×{reference:.2f} (plain {spread(plain)}, K auto "
          f"{spread(auto)} tok/s); reported ×{figure:.2f} (rounds {spread(measured or [0])}, "
          f"{len(measured)} of {len(reported)} gave a figure); reported ÷ reference "
          f"{figure / reference:.2f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

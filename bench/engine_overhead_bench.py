"""The engine's own time per token at a GPU's rates, with llama.cpp's decode taken out.

    python bench/engine_overhead_bench.py [--decode-us D] [--tokens N] [--rounds R]

On a GPU llama_decode leaves the CPU's caches warm and its cores free while it waits, so what
the engine adds to each token is its own Python and the row pass over the vocabulary: on this
CPU a real decode would both swamp the figure in noise and leave every cache cold after it. Here
lv-target (151,936 tokens, tests/models/large_vocab.py) is loaded and plain answers are made with
`llama_decode` replaced by a stand-in that waits D µs with the GIL released (the GPU working;
default 1,000: a 1B model's token) and writes a model-like row into llama.cpp's logits buffer
(a spread of a few nats, the next token of a count far ahead). Printed, per round and as the
median of rounds: µs a token outside the stand-in, and that as a share of a D µs token, the
share a GPU user's engine loses to llama.cpp's own loop; the answers' own events are made and
drained as the window gets them (the engine's worker thread or inline). Each round runs the
answer twice, with the verify rows' sums read in the background (row_stats.begin: the engine's
choice where a second physical core is spare, as beside a GPU) and on the decoding thread, in
alternating order; their ratio a round is the spread. `--no-inspect`: the answers of
`draftlight generate` printing text, whose rows are read for their argmax alone (the reader,
asleep, then changes nothing: the two rows measure the same path twice).
"""

from __future__ import annotations

import argparse
import ctypes
import statistics
import sys
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests" / "models"))

import llama_cpp  # noqa: E402

from backend.engine import context as context_module  # noqa: E402
from backend.engine.engine import Engine  # noqa: E402
from backend.engine.events import GenerationFinished  # noqa: E402
from backend.engine.request import GenerationRequest  # noqa: E402

PROMPT = " zero one"


class StandIn:
    """llama_decode for one-token batches: waits, then writes the row; its time kept."""

    def __init__(self, n_vocab: int, decode_us: float) -> None:
        rng = np.random.default_rng(3)
        self.row = (rng.standard_normal(n_vocab) * 2.0).astype(np.float32)
        self.n_vocab = n_vocab
        self.wait_s = decode_us / 1e6
        self.spent = 0.0
        self.calls = 0
        self.real = llama_cpp.llama_decode

    def __call__(self, ctx, batch) -> int:
        t0 = time.perf_counter()
        if batch.n_tokens != 1:  # the prompt: decoded for real
            rc = self.real(ctx, batch)
            self.spent += time.perf_counter() - t0
            return rc
        time.sleep(self.wait_s)
        address = llama_cpp.llama_get_logits(ctx)
        out = np.ctypeslib.as_array(ctypes.cast(address, ctypes.POINTER(ctypes.c_float)),
                                    shape=(self.n_vocab,))
        out[:] = self.row
        out[1000 + (batch.pos[0] % 5000)] = 30.0  # counting on, never the end of text
        self.calls += 1
        self.spent += time.perf_counter() - t0
        return 0


def one_answer(engine: Engine, stand_in: StandIn, tokens: int, inspect: bool = True) -> float:
    """µs a token outside the stand-in's decodes."""
    stand_in.spent, stand_in.calls = 0.0, 0
    t0 = time.perf_counter()
    final = None
    for event in engine.generate(GenerationRequest(prompt=PROMPT, max_tokens=tokens,
                                                   measure_plain=False, inspect=inspect)):
        final = event
    wall = time.perf_counter() - t0
    assert isinstance(final, GenerationFinished), final
    assert final.stats.n_generated == tokens, final.stats
    return 1e6 * (wall - stand_in.spent) / tokens


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--decode-us", type=float, default=1000.0)
    parser.add_argument("--tokens", type=int, default=400)
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--threads", type=int, default=1,
                        help="llama.cpp's threads as the engine counts them (1: a core spare "
                             "for the events, as on a GPU)")
    parser.add_argument("--no-inspect", action="store_true",
                        help="answers that show no probabilities, as `draftlight generate` "
                             "printing text asks (rows read for their argmax alone)")
    args = parser.parse_args()
    from large_vocab import DEFAULT_DIR, FILES, ensure_large_vocab

    target = ensure_large_vocab(DEFAULT_DIR) / FILES[0]
    engine = Engine()
    engine.load_target(target, n_ctx=2048, n_threads=args.threads)
    assert engine.target is not None
    stand_in = StandIn(engine._target.n_vocab, args.decode_us)
    context_module.llama_cpp.llama_decode = stand_in  # type: ignore[attr-defined]
    chosen = Engine._reader_core
    costs: dict[bool, list[float]] = {True: [], False: []}
    try:
        for round_ in range(args.rounds + 1):  # the first a warm-up
            for reader in ((True, False) if round_ % 2 else (False, True)):
                Engine._reader_core = lambda self, on=reader: on  # type: ignore[method-assign]
                cost = one_answer(engine, stand_in, args.tokens, not args.no_inspect)
                if round_:
                    costs[reader].append(cost)
    finally:
        Engine._reader_core = chosen  # type: ignore[method-assign]
        context_module.llama_cpp.llama_decode = stand_in.real  # type: ignore[attr-defined]
        engine.close()
    for reader, name in ((True, "rows read in the background"), (False, "rows read inline")):
        median = statistics.median(costs[reader])
        print(f"{name:28} {median:4.0f} µs a token "
              f"[{min(costs[reader]):.0f}-{max(costs[reader]):.0f}], "
              f"{100 * median / args.decode_us:.1f} % of a {args.decode_us:.0f} µs token: "
              f"engine ÷ llama.cpp's loop ≈ {args.decode_us / (args.decode_us + median):.3f}")
    ratios = [a / b for a, b in zip(costs[True], costs[False], strict=True)]
    print(f"background ÷ inline {statistics.median(ratios):.2f}, "
          f"rounds {min(ratios):.2f}-{max(ratios):.2f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

"""The engine's own time per token at a GPU's rates, with llama.cpp's decode taken out.

    python bench/engine_overhead_bench.py [--decode-us D] [--tokens N] [--rounds R]

On a GPU llama_decode leaves the CPU's caches warm and its cores free while it waits, so what
the engine adds to each token is its own Python and the row pass over the vocabulary: on this
CPU a real decode would both swamp the figure in noise and leave every cache cold after it. Here
lv-target (151,936 tokens, tests/models/large_vocab.py) is loaded and plain answers are made with
`llama_decode` replaced by a stand-in for D µs of decoding (default 1,000: a 1B model's token)
that writes a model-like row into llama.cpp's logits buffer (a spread of a few nats, the next
token of a count far ahead). Two stand-ins, interleaved: a decode that returns at launch and a
logits read that waits for it, as llama.cpp's CUDA and Metal backends do (what the engine does
between the two overlaps the decoding), and a decode that returns when done, as on the CPU.
Printed as medians of interleaved rounds: µs a token beyond the decoding's, and that as a
share of a D µs token, the share a GPU user's engine loses to llama.cpp's own loop; the answers'
own events are made and drained as the window gets them (the engine's worker thread or inline).
`--no-inspect`: the answers of `draftlight generate` printing text, whose rows are read for
their argmax alone, decided in C (backend/engine/greedy_loop.py) where it is built: the C loop
calls the stand-ins through ctypes callbacks, whose own few µs a call count as the engine's.
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
from backend.engine import greedy_loop, output_rows  # noqa: E402
from backend.engine.engine import Engine  # noqa: E402
from backend.engine.events import GenerationFinished  # noqa: E402
from backend.engine.request import GenerationRequest  # noqa: E402

PROMPT = " zero one"


class StandIn:
    """llama_decode for one-token batches, its time kept. Synchronous (llama.cpp's CPU
    backend): waits, then writes the row. Asynchronous (CUDA, Metal: llama_decode returns once
    the work is queued, and reading the logits waits for it): returns at once, and the next
    read of the logits waits until the decode's time has passed, then writes the row; its time
    is the decode's, plus the wait's overshoot where the engine waited, never the engine's own
    time after the decode was done."""

    def __init__(self, n_vocab: int, decode_us: float) -> None:
        rng = np.random.default_rng(3)
        self.row = (rng.standard_normal(n_vocab) * 2.0).astype(np.float32)
        self.n_vocab = n_vocab
        self.wait_s = decode_us / 1e6
        self.spent = 0.0
        self.calls = 0
        self.asynchronous = False
        self.real = llama_cpp.llama_decode
        self.real_logits = output_rows._logits_address
        self._pending: tuple[float, int] | None = None  # an asynchronous decode: start, pos

    def __call__(self, ctx, batch) -> int:
        t0 = time.perf_counter()
        if batch.n_tokens != 1:  # the prompt: decoded for real
            rc = self.real(ctx, batch)
            self.spent += time.perf_counter() - t0
            return rc
        self.calls += 1
        if self.asynchronous:
            self._pending = (t0, batch.pos[0])
            return 0
        time.sleep(self.wait_s)
        self._write(ctx, batch.pos[0])
        self.spent += time.perf_counter() - t0
        return 0

    def logits_address(self, ctx) -> int:
        """`output_rows._logits_address`: where an asynchronous decode is pending, waits for
        it (as llama_get_logits synchronises)."""
        if self._pending is not None:
            (t0, pos), self._pending = self._pending, None
            called = time.perf_counter()
            due = t0 + self.wait_s
            if called < due:
                time.sleep(due - called)
            self._write(ctx, pos)
            self.spent += time.perf_counter() - t0 - max(0.0, called - due)
        return self.real_logits(ctx)

    def _write(self, ctx, pos: int) -> None:
        address = self.real_logits(ctx)
        out = np.ctypeslib.as_array(ctypes.cast(address, ctypes.POINTER(ctypes.c_float)),
                                    shape=(self.n_vocab,))
        out[:] = self.row
        out[1000 + (pos % 5000)] = 30.0  # counting on, never the end of text


def one_answer(engine: Engine, stand_in: StandIn, tokens: int, inspect: bool = True) -> float:
    """µs a token outside the stand-in's decodes."""
    stand_in.spent, stand_in.calls = 0.0, 0
    t0 = time.perf_counter()
    final = None
    # as the engine process takes them (host.py): a plain answer's steps folded by the engine
    for event in engine.generate_folded(GenerationRequest(prompt=PROMPT, max_tokens=tokens,
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
    output_rows._logits_address = stand_in.logits_address
    in_c = greedy_loop._bound() and args.no_inspect
    if in_c:  # the C loop's llama.cpp functions: the stand-ins, as callbacks
        callbacks = (ctypes.CFUNCTYPE(ctypes.c_int32, ctypes.c_void_p,
                                      llama_cpp.llama_batch)(stand_in),
                     ctypes.CFUNCTYPE(ctypes.c_void_p, ctypes.c_void_p)(stand_in.logits_address))
        greedy_loop.use_functions(*callbacks)
        print("plain tokens decided in C (greedy_loop.py)")
    costs: dict[bool, list[float]] = {True: [], False: []}
    try:
        for round_ in range(args.rounds + 1):  # the first a warm-up
            for asynchronous in ((True, False) if round_ % 2 else (False, True)):
                stand_in.asynchronous = asynchronous
                engine.decode_at_launch = asynchronous  # as a GPU's model would be loaded
                cost = one_answer(engine, stand_in, args.tokens, not args.no_inspect)
                if round_:
                    costs[asynchronous].append(cost)
    finally:
        context_module.llama_cpp.llama_decode = stand_in.real  # type: ignore[attr-defined]
        output_rows._logits_address = stand_in.real_logits
        if in_c:
            greedy_loop.use_functions()  # llama.cpp's own again
        engine.close()
    for asynchronous, cost in costs.items():
        decode = "returns at launch (GPU)" if asynchronous else "returns when done (CPU)"
        median = statistics.median(cost)
        print(f"decode {decode}: {median:4.0f} µs a token [{min(cost):.0f}-{max(cost):.0f}], "
              f"{100 * median / args.decode_us:.1f} % of a {args.decode_us:.0f} µs token: "
              f"engine ÷ llama.cpp's loop ≈ {args.decode_us / (args.decode_us + median):.3f}")
    ratios = [a / b for a, b in zip(costs[True], costs[False], strict=True)]
    print(f"at launch ÷ when done {statistics.median(ratios):.2f}, "
          f"rounds {min(ratios):.2f}-{max(ratios):.2f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

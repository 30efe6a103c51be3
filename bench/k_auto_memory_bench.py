"""A new engine's first answer with K auto, with and without what earlier engines measured
(backend/engine/k_auto_memory.py): the answer every launch of the window starts with.

    python bench/k_auto_memory_bench.py [--target T.gguf --draft D.gguf] [--prompt TEXT]
                                        [--rounds 5] [--tokens 128]

Default pair: the demo pair (SmolLM2-135M F32 target, Q8_0 draft) on the code prompt. First
`--warm` answers on another prompt (the prose one) fill a memory, as earlier launches would.
Then each round starts three new engines, one after the other, and each answers the prompt
once: plain decoding, K auto learning afresh, K auto from the memory (which its answer then
updates, as a launch's would). Ratios are each round's own (the engines of a round run
seconds apart, so load from elsewhere on the machine falls on all three alike), then their
median over the rounds. `--busy-warm` fills the memory while two processes spin on the
CPU, as a first launch beside a compiler would: its costs are then a loaded moment's.
"""

from __future__ import annotations

import argparse
import logging
import multiprocessing
import statistics
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests" / "models"))

from spec_bench import CODE_PROMPT, PROSE_PROMPT  # noqa: E402

from backend.engine.engine import Engine  # noqa: E402
from backend.engine.events import GenerationFailed, GenerationFinished, StepVerified  # noqa: E402
from backend.engine.k_auto_memory import KAutoMemory  # noqa: E402
from backend.engine.request import GenerationRequest, Message  # noqa: E402


def first_answer(args, prompt: str, spec_type: str, memory: KAutoMemory | None):
    """A new engine's first answer: (tokens/s, steps that drafted, steps)."""
    engine = Engine(k_auto_memory=memory)
    try:
        engine.load_target(args.target, n_threads=args.threads)
        if args.draft is not None:
            engine.load_draft(args.draft)
        request = GenerationRequest(messages=(Message("user", prompt),), spec_type=spec_type,
                                    n_draft_max=0, max_tokens=args.tokens)
        final, steps = None, 0
        drafted = 0
        for ev in engine.generate(request):
            if isinstance(ev, GenerationFailed):
                raise SystemExit(f"generation failed: {ev.message} {ev.detail}")
            if isinstance(ev, StepVerified):
                steps += 1
                drafted += bool(ev.drafted)
            if isinstance(ev, GenerationFinished):
                final = ev
        assert final is not None
        return final.stats.tokens_per_second, drafted, steps
    finally:
        engine.close()


def _spin() -> None:
    while True:
        pass


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--target", type=Path, metavar="GGUF")
    parser.add_argument("--draft", type=Path, metavar="GGUF",
                        help="the draft model (without it: n-gram lookup)")
    parser.add_argument("--prompt", default=CODE_PROMPT)
    parser.add_argument("--warm-prompt", default=PROSE_PROMPT)
    parser.add_argument("--warm", type=int, default=2, help="answers that fill the memory first")
    parser.add_argument("--busy-warm", action="store_true",
                        help="fill the memory while two processes load the CPU")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--tokens", type=int, default=128)
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--models", type=Path, default=ROOT / ".cache" / "bench-models")
    args = parser.parse_args()
    if args.target is None:
        import build

        if not all((args.models / f).is_file() for f in build.ALL_FILES):
            build.build(args.models)
        args.target = args.models / "demo-target-f32.gguf"
        args.draft = args.models / "demo-draft-q8_0.gguf"
    spec_type = "draft" if args.draft is not None else "ngram"
    # each remembered round says whether it took the remembered costs as they were
    logging.basicConfig(level=logging.WARNING, format="    %(message)s")
    logging.getLogger("backend.engine.k_auto_memory").setLevel(logging.INFO)
    with tempfile.TemporaryDirectory(prefix="k-auto-memory-") as folder:
        memory = KAutoMemory(Path(folder))
        spinners = [multiprocessing.Process(target=_spin, daemon=True)
                    for _ in range(2 if args.busy_warm else 0)]
        for p in spinners:
            p.start()
        try:
            for _ in range(args.warm):
                first_answer(args, args.warm_prompt, spec_type, memory)
        finally:
            for p in spinners:
                p.terminate()
                p.join()
        print(f"## {args.target.name} + {args.draft.name if args.draft else 'n-gram'}, "
              f"{args.tokens} tokens, a new engine's first answer ({args.warm} answers on "
              f"another prompt filled the memory first"
              f"{', the CPU loaded by two other processes' if args.busy_warm else ''})")
        print("round  plain tok/s  fresh tok/s (drafting steps)  remembered tok/s (drafting "
              "steps)  fresh÷plain  remembered÷plain  remembered÷fresh")
        ratios: list[tuple[float, float, float]] = []
        for r in range(1, args.rounds + 1):
            plain, _, _ = first_answer(args, args.prompt, "none", None)
            fresh, f_drafted, f_steps = first_answer(args, args.prompt, spec_type, None)
            kept, k_drafted, k_steps = first_answer(args, args.prompt, spec_type, memory)
            ratios.append((fresh / plain, kept / plain, kept / fresh))
            print(f"{r:5d}  {plain:11.1f}  {fresh:11.1f} ({f_drafted:3d} of {f_steps:3d})"
                  f"{'':13s}{kept:11.1f} ({k_drafted:3d} of {k_steps:3d}){'':15s}"
                  f"{ratios[-1][0]:5.2f}  {ratios[-1][1]:16.2f}  {ratios[-1][2]:16.2f}")
        medians = [statistics.median(col) for col in zip(*ratios, strict=True)]
        print(f"median over rounds: fresh ÷ plain {medians[0]:.2f}, remembered ÷ plain "
              f"{medians[1]:.2f}, remembered ÷ fresh {medians[2]:.2f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

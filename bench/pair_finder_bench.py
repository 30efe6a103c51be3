"""Does Find a draft rank the ways to speculate as bench/spec_bench.py measures them?

    python bench/pair_finder_bench.py [--models DIR] [--tokens N] [--repeats R]

On the test models (the demo target, its Q8_0 copy as a good draft, the counting draft as a
draft with the same vocabulary whose guesses are wrong, and n-gram lookup): first the finder's
own run, in an engine process as the window and `draftlight pairs --measure` make it
(backend/models/pair_run.py, from an empty store); then each way the finder ranked, at the K it
chose, measured by spec_bench's interleaved rounds (`measure_rows`: plain decoding and the way
in the same rounds, on the finder's three prompts), its speedup the median of the rounds'
paired ratios. Prints both orders, whether they agree, and every way slower than plain with
the finder's note.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))
sys.path.insert(0, str(ROOT / "tests" / "models"))

from spec_bench import measure_rows  # noqa: E402

from backend import spec_types  # noqa: E402
from backend.engine.engine import Engine  # noqa: E402
from backend.engine.request import GenerationRequest, Message, SamplingSettings  # noqa: E402
from backend.models.draft_finder import find_pairs  # noqa: E402
from backend.models.inspection import inspect_model  # noqa: E402
from backend.models.pair_measure import N_CTX, PROMPTS  # noqa: E402
from backend.models.pair_run import PairRun  # noqa: E402
from backend.models.pair_store import PairStore  # noqa: E402

TARGET = "demo-target-f32.gguf"
DRAFTS = ("demo-draft-q8_0.gguf", "count-draft.gguf")


def way_name(spec: str, candidate: str) -> str:
    if spec == spec_types.PLAIN:
        return "plain decoding"
    return f"{spec} {candidate}".strip()


def bench_speedups(models: Path, ranking, tokens: int, repeats: int, threads: int
                   ) -> dict[str, tuple[float, float, float]]:
    """Each ranked way's speedup over plain decoding in spec_bench's interleaved rounds: the
    median of the rounds' paired ratios, with the lowest and highest round's."""
    engine = Engine()
    engine.load_target(models / TARGET, n_ctx=N_CTX, n_threads=threads)
    out: dict[str, tuple[float, float, float]] = {}
    try:
        for w in ranking:
            if w.spec_type == spec_types.PLAIN:
                continue
            if w.candidate.endswith(".gguf"):
                engine.load_draft(models / w.candidate)
            ratios = []
            for prompt in PROMPTS:
                asked = [GenerationRequest(
                    messages=(Message("user", prompt),), spec_type=spec, n_draft_max=k,
                    sampling=SamplingSettings(temperature=0.0), measure_plain=False,
                    max_tokens=tokens) for spec, k in (("none", 0), (w.spec_type, w.k or 0))]
                plain, way = measure_rows(engine, asked, repeats)
                ratios.append([a / b for a, b in zip(way[3], plain[3], strict=True)])
            rounds = [statistics.fmean(r) for r in zip(*ratios, strict=True)]
            out[way_name(w.spec_type, w.candidate)] = (
                statistics.median(rounds), min(rounds), max(rounds))
    finally:
        engine.close()
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--models", type=Path, required=True,
                        help="the folder tests/models/build.py wrote")
    parser.add_argument("--tokens", type=int, default=64)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--threads", type=int, default=2)
    args = parser.parse_args()
    target = inspect_model(args.models / TARGET)
    library = [inspect_model(args.models / name) for name in DRAFTS]
    finding = find_pairs(target, library)
    with tempfile.TemporaryDirectory() as kept:
        run = PairRun(finding, args.tokens, n_threads=args.threads, store=PairStore(Path(kept)))
        measured = run.measure()
    print(f"Find a draft ({len(PROMPTS)} prompts, {args.tokens} tokens each):")
    for i, w in enumerate(measured.ranking, 1):
        k = "" if w.k is None else f" at {'K auto' if w.k == 0 else f'K = {w.k}'}"
        note = f"  {w.note}" if w.note is not None else ""
        print(f"  {i}. {way_name(w.spec_type, w.candidate)}{k}: {w.speedup:.2f}×{note}")
    bench = bench_speedups(args.models, measured.ranking, args.tokens, args.repeats,
                           args.threads)
    bench["plain decoding"] = (1.0, 1.0, 1.0)
    print(f"spec_bench's rounds ({args.repeats}, plain decoding and the way interleaved):")
    order = sorted(bench, key=lambda name: -bench[name][0])
    for i, name in enumerate(order, 1):
        mid, low, high = bench[name]
        print(f"  {i}. {name}: {mid:.2f}× (rounds {low:.2f}-{high:.2f})")
    finder_order = [way_name(w.spec_type, w.candidate) for w in measured.ranking]
    print(f"Same order: {'yes' if finder_order == order else 'no'}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

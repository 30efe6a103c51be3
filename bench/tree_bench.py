"""Token trees against chains (issue 42): for each pair, plain decoding, the draft model's
chain at K, and trees of N nodes grown from that chain (backend/engine/tree), greedy, in
interleaved rounds; tokens kept per step (the answer's tokens ÷ steps), acceptance, tokens/s,
and each tree's tokens/s ÷ its chain's paired by round.

    python bench/tree_bench.py [--models DIR] [--tokens N] [--repeats R] [--threads T]

Pairs: the demo pair (SmolLM2-135M F32 target, Q8_0 draft) on a code prompt, and the counting
target with `count-draft-second` (its first choice wrong at every 4th word, its second right),
the case a tree is made for. On a CPU a batch row costs about as much as a token of depth
(shared/ENGINE-NOTES.md), so a tree pays only where it keeps enough more; on a GPU, where a
batch of 32–64 costs about one token, bench/gpu_check.sh runs this too.
"""

from __future__ import annotations

import argparse
import statistics
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from spec_bench import CODE_PROMPT, measure_rows, paired_text  # noqa: E402

from backend.engine.engine import Engine  # noqa: E402
from backend.engine.request import GenerationRequest, Message  # noqa: E402
from backend.engine.tree.grow import AUTO  # noqa: E402

PAIRS = {  # name: (target, draft, prompt as messages or raw text, K)
    "demo pair, code": ("demo-target-f32.gguf", "demo-draft-q8_0.gguf", CODE_PROMPT, 6),
    "counting, second choice right": ("count-target.gguf", "count-draft-second.gguf", None, 6),
}
TREES = (12, 24, AUTO)


def requests(prompt: str | None, k: int, tokens: int) -> list[tuple[str, GenerationRequest]]:
    ask = ({"messages": (Message("user", prompt),)} if prompt is not None
           else {"prompt": " zero one"})
    rows = [("plain", GenerationRequest(max_tokens=tokens, measure_plain=False, **ask)),
            (f"chain K = {k}", GenerationRequest(spec_type="draft", n_draft_max=k,
                                                 max_tokens=tokens, measure_plain=False, **ask))]
    for n in TREES:
        name = "auto" if n == AUTO else str(n)
        rows.append((f"tree {name} (K = {k})", GenerationRequest(
            spec_type="draft", n_draft_max=k, tree_nodes=n, max_tokens=tokens,
            measure_plain=False, **ask)))
    return rows


def bench_pair(name: str, models: Path, tokens: int, repeats: int, threads: int) -> None:
    target, draft, prompt, k = PAIRS[name]
    engine = Engine()
    engine.load_target(models / target, n_ctx=2048, n_threads=threads)
    engine.load_draft(models / draft)
    rows = requests(prompt, k, tokens)
    measured = measure_rows(engine, [r for _, r in rows], repeats)
    engine.close()
    print(f"\n## {name} ({target} + {draft}, {tokens} tokens, {threads} threads, {repeats} "
          "rounds)")
    print(f"{'row':22} {'tok/s':>7} {'tokens/step':>11} {'accept':>7}  ÷ chain (paired)")
    chain_rates = measured[1][3]
    for (label, _), (rate, st, _steps, rates) in zip(rows, measured, strict=True):
        per_step = st.n_generated / st.n_steps if st.n_steps else 0.0
        versus = "" if label == "plain" or label.startswith("chain") else (
            f"  {statistics.median(rates) / statistics.median(chain_rates):.2f} "
            f"({paired_text(rates, chain_rates)})")
        print(f"{label:22} {rate:7.1f} {per_step:11.2f} {st.acceptance_rate:7.2f}{versus}")


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    found = sorted((ROOT / ".cache" / "test-models").glob("*/count-draft-second.gguf"))
    p.add_argument("--models", type=Path, default=found[-1].parent if found else None)
    p.add_argument("--tokens", type=int, default=96)
    p.add_argument("--repeats", type=int, default=3)
    p.add_argument("--threads", type=int, default=2)
    p.add_argument("--pair", choices=list(PAIRS), nargs="*", default=list(PAIRS))
    args = p.parse_args()
    if args.models is None:
        raise SystemExit("no test models: run python tests/models/build.py first")
    for name in args.pair:
        bench_pair(name, args.models, args.tokens, args.repeats, args.threads)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

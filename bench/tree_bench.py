"""Token trees against chains (issue 42): for each pair, plain decoding, the drafter's chain
at K, and trees of N nodes grown from that chain (backend/engine/tree), greedy, in
interleaved rounds; tokens kept per step (the answer's tokens ÷ steps), acceptance, tokens/s,
each tree's tokens/s ÷ its chain's paired by round, and the cost model's tokens/s from the
median round's own steps (backend/tree_advice.py: α by depth and rank, the verify line by
rows) with measured ÷ predicted.

    python bench/tree_bench.py [--models DIR] [--tokens N] [--repeats R] [--threads T]

Pairs: the demo pair (SmolLM2-135M F32 target, Q8_0 draft) on a code prompt; the counting
target with `count-draft-second` (its first choice wrong at every 4th word, its second right),
the case a tree is made for; n-gram lookup on the demo target rewriting a text (its older
copies beside the newest); the counting models' EAGLE-3 head and two MTP heads (their second
choices never right: what a tree costs where it cannot gain). On a CPU a batch row costs
about as much as a token of depth (shared/ENGINE-NOTES.md), so a tree pays only where it keeps
enough more; on a GPU, where a batch of 32–64 costs about one token, bench/gpu_check.sh runs
this too.
"""

from __future__ import annotations

import argparse
import statistics
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from spec_bench import CODE_PROMPT, REWRITE_PROMPT, measure_rows, paired_text  # noqa: E402

from backend.advisor import step_overhead_ms  # noqa: E402
from backend.engine.engine import Engine  # noqa: E402
from backend.engine.request import GenerationRequest, Message  # noqa: E402
from backend.engine.tree.grow import AUTO  # noqa: E402
from backend.tree_advice import predict  # noqa: E402

PAIRS = {  # name: (spec type, target, draft or head, a chat prompt or None: " zero one", K)
    "demo pair, code": ("draft", "demo-target-f32.gguf", "demo-draft-q8_0.gguf", CODE_PROMPT, 6),
    "counting, second choice right": ("draft", "count-target.gguf", "count-draft-second.gguf",
                                      None, 6),
    "demo target, n-gram, rewrite": ("ngram", "demo-target-f32.gguf", None, REWRITE_PROMPT, 6),
    "counting, EAGLE-3 head": ("eagle3", "count-target3.gguf", "eagle3-own.gguf", None, 4),
    "counting, two MTP heads": ("mtp", "count-mtp2.gguf", None, None, 2),
}
TREES = (12, 24, AUTO)


def requests(spec: str, prompt: str | None, k: int,
             tokens: int) -> list[tuple[str, GenerationRequest]]:
    ask = ({"messages": (Message("user", prompt),)} if prompt is not None
           else {"prompt": " zero one"})
    rows = [("plain", GenerationRequest(max_tokens=tokens, measure_plain=False, **ask)),
            (f"chain K = {k}", GenerationRequest(spec_type=spec, n_draft_max=k,
                                                 max_tokens=tokens, measure_plain=False, **ask))]
    for n in TREES:
        name = "auto" if n == AUTO else str(n)
        rows.append((f"tree {name} (K = {k})", GenerationRequest(
            spec_type=spec, n_draft_max=k, tree_nodes=n, max_tokens=tokens,
            measure_plain=False, **ask)))
    return rows


def bench_pair(name: str, models: Path, tokens: int, repeats: int, threads: int) -> None:
    spec, target, draft, prompt, k = PAIRS[name]
    engine = Engine()
    engine.load_target(models / target, n_ctx=2048, n_threads=threads)
    if draft is not None:
        engine.load_draft(models / draft)
    rows = requests(spec, prompt, k, tokens)
    measured = measure_rows(engine, [r for _, r in rows], repeats)
    engine.close()
    print(f"\n## {name} ({spec}: {target}" + (f" + {draft}" if draft else "")
          + f", {tokens} tokens, {threads} threads, {repeats} rounds)")
    print(f"{'row':22} {'tok/s':>7} {'tokens/step':>11} {'accept':>7} {'predicted':>9} "
          f"{'meas/pred':>9}  ÷ chain (paired)")
    chain_rates = measured[1][3]
    for (label, _), (rate, st, steps, rates) in zip(rows, measured, strict=True):
        per_step = st.n_generated / st.n_steps if st.n_steps else 0.0
        pred = predict(steps, step_overhead_ms(st) or 0.0) if label != "plain" else None
        model = (f"{pred.tokens_per_second:9.1f} {rate / pred.tokens_per_second:9.2f}"
                 if pred is not None and pred.tokens_per_second else f"{'':>9} {'':>9}")
        versus = "" if label == "plain" or label.startswith("chain") else (
            f"  {statistics.median(rates) / statistics.median(chain_rates):.2f} "
            f"({paired_text(rates, chain_rates)})")
        print(f"{label:22} {rate:7.1f} {per_step:11.2f} {st.acceptance_rate:7.2f} {model}"
              f"{versus}")


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

"""`draftlight-cli generate`, out of process as a user runs it, against llama.cpp's own tools
on the large-vocabulary models (tests/models/large_vocab.py: a GPU's token rates, on this CPU).

    python bench/generate_vs_llama.py [--tokens N] [--rounds R] [--threads T]
                                      [--also DIR] [--native-bin DIR]
                                      [--target T.gguf [--draft D.gguf]]

Rows, in interleaved rounds after a warm-up (bench/large_vocab_bench.py's `measure`; medians
over rounds, each round's ratio as the spread): `generate` at its defaults (greedy, repeat
penalty 1.1, the engine in its own process, the answer written to a pipe) plain on lv-target
and lv-target-slow, and with lv-draft at K = 4 on lv-target; llama-bench on both targets and
llama-speculative-simple at K = 4. With --also DIR, the same `generate` rows from another
checkout (its own code, this one's virtual environment), paired with this one's by round.
With --target, that model plain instead (and, with --draft, that pair at K = 4): any
large-vocabulary model, the counting models' prompt. The rate is the one `generate` prints:
tokens after the prompt ÷ their time.
"""

from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "bench"))
sys.path.insert(0, str(ROOT / "tests" / "models"))

from large_vocab_bench import (  # noqa: E402
    NATIVE_K,
    PROMPT,
    Row,
    as_loaded,
    measure,
    native_bin,
    native_plain_row,
    native_spec_row,
)
from spec_bench import paired_text  # noqa: E402

from backend.engine.engine import Engine  # noqa: E402

RATE = re.compile(r"\] \d+ tokens, ([\d.]+) tok/s")


def generate_row(name: str, checkout: Path, target: Path, *, tokens: int, threads: int,
                 draft: Path | None = None) -> Row:
    command = [sys.executable, "-m", "backend.cli.main", "generate", PROMPT, "--raw",
               "--model", str(target), "--max-tokens", str(tokens), "--threads", str(threads),
               "--no-color"]
    if draft is not None:
        command += ["--draft", str(draft), "--n-draft", str(NATIVE_K)]
    # the checkout's own code first on the path, whatever the environment installed
    env = {**os.environ, "PYTHONPATH": str(checkout)}

    def run():
        out = subprocess.run(command, cwd=checkout, env=env, capture_output=True, text=True)
        found = RATE.search(out.stderr)
        if out.returncode or found is None:
            raise SystemExit(f"{name}: generate failed:\n{out.stderr[-2000:]}")
        return float(found.group(1)), None, []
    return Row(name, run)


def as_the_engine_loads(target: Path) -> tuple[int, str]:
    """`as_loaded` for `target` loaded in this process a moment."""
    engine = Engine()
    try:
        engine.load_target(target, n_ctx=256, n_threads=1)
        return as_loaded(engine)
    finally:
        engine.close()


Case = tuple[str, Path, Path | None]  # a row's title, its target and its draft (or None)


def counting_cases() -> list[Case]:
    from large_vocab import DEFAULT_DIR, FILES, ensure_large_vocab

    fast, draft, slow = (ensure_large_vocab(DEFAULT_DIR) / f for f in FILES)
    return [("lv-target plain", fast, None), ("lv-target-slow plain", slow, None),
            (f"lv pair K = {NATIVE_K}", fast, draft)]


def own_cases(target: Path, draft: Path | None) -> list[Case]:
    cases: list[Case] = [(f"{target.stem} plain", target, None)]
    if draft is not None:
        cases.append((f"{target.stem} + {draft.stem} K = {NATIVE_K}", target, draft))
    return cases


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tokens", type=int, default=512)
    parser.add_argument("--rounds", type=int, default=6)
    parser.add_argument("--threads", type=int, default=1)
    parser.add_argument("--also", type=Path, metavar="DIR",
                        help="another checkout whose generate rows run beside this one's")
    parser.add_argument("--native-bin", type=Path, metavar="DIR",
                        help="llama-bench and llama-speculative-simple from DIR, not native.sh")
    parser.add_argument("--target", type=Path, help="bench this model instead")
    parser.add_argument("--draft", type=Path, help="with --target: this draft model at K = 4")
    args = parser.parse_args()
    args.no_native = False
    if args.draft and not args.target:
        parser.error("--draft needs --target")
    folder, why_not = native_bin(args)
    if folder is None:
        raise SystemExit(f"llama.cpp's tools are needed: {why_not}")
    cases = own_cases(args.target, args.draft) if args.target else counting_cases()
    n_prompt, ngl = as_the_engine_loads(cases[0][1])
    sides = {"": ROOT, **({" (also)": args.also.resolve()} if args.also else {})}
    common = dict(tokens=args.tokens, threads=args.threads)
    pairs: list[tuple[str, Row, Row]] = []  # what is reported: (title, engine, yardstick)
    rows: list[Row] = []
    for title, target, draft in cases:
        native = (native_spec_row(f"{title} spec-simple", folder, target, draft, ngl=ngl,
                                  **common) if draft else
                  native_plain_row(f"{title} llama-bench", folder, target, ngl=ngl,
                                   n_prompt=n_prompt, **common))
        rows.append(native)
        for suffix, checkout in sides.items():
            row = generate_row(f"{title}{suffix}", checkout, target, draft=draft, **common)
            rows.append(row)
            pairs.append((f"{title}{suffix}", row, native))
    print(f"{len(rows)} rows, {args.rounds} rounds after a warm-up, {args.tokens} tokens, "
          f"{args.threads} thread(s); llama.cpp's tools from {folder}", flush=True)
    measure(rows, args.rounds)
    print("\n(tok/s: median [lowest-highest round]; ratios paired by round)")
    for title, row, native in pairs:
        print(f"{title:28} generate {row.text()}   {native.name.split()[-1]} {native.text()}"
              f"   ÷ {paired_text(row.rates, native.rates)}")
    if args.also:
        for (title, row, _), (_, other, _) in zip(pairs[::2], pairs[1::2], strict=True):
            print(f"{title:28} this ÷ --also {paired_text(row.rates, other.rates)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

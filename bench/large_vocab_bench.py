"""The engine against llama.cpp's own tools on 151,936-token models, where llama.cpp's part of
a token is small (tests/models/large_vocab.py: a GPU's token rates, on this CPU).

    python bench/large_vocab_bench.py [--models DIR] [--tokens N] [--rounds R] [--threads T]
                                      [--no-native | --native-bin DIR]

In one run, in interleaved rounds (each round runs every row once, starting one row further
on each time, after a warm-up round; medians over rounds, with each round's ratio as the
spread):
- plain decoding of lv-target (~1,000 tok/s natively) and lv-target-slow (100-200 tok/s):
  engine ÷ llama-bench;
- lv-draft drafting for each target at K = 2, 4, 8 and K auto: tokens/s, the speedup over
  the plain row, acceptance, the engine's own in-answer speedup (what the window shows),
  the advisor's prediction from the row's own steps (backend/advisor.py, as
  bench/spec_bench.py prints it) and measured ÷ predicted; draft K = 4 ÷ llama-speculative-
  simple at K = 4; K auto ÷ the best fixed K; K auto's own figure ÷ the measured one; and
  what the advisor predicts for each fixed K from K auto's steps, ÷ what those rows measured.

llama.cpp's tools come from bench/native.sh (built once, several minutes, with the engine's
own llama.cpp flags); where they cannot be had, their columns are left out with a message.
Greedy, on the raw prompt " zero one" (the counting models count on from any text).
"""

from __future__ import annotations

import argparse
import json
import os
import re
import statistics
import subprocess
import sys
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests" / "models"))

from spec_bench import AUTO, model_speedup, paired_text, run_once  # noqa: E402

from backend import spec_types  # noqa: E402
from backend.advisor import advise, k_auto_drafter, step_overhead_ms  # noqa: E402
from backend.engine.engine import Engine  # noqa: E402
from backend.engine.model import ALL_LAYERS  # noqa: E402
from backend.engine.request import GenerationRequest  # noqa: E402

PROMPT = " zero one"
KS = (2, 4, 8)
NATIVE_K = 4


@dataclass
class Row:
    """One thing measured once a round: `run` returns (tokens/s, Stats, steps), or
    (tokens/s, None, []) for llama.cpp's tools."""

    name: str
    run: Callable[[], tuple[float, object, list]]
    rates: list[float] = field(default_factory=list)
    rounds: list[tuple[float, object, list]] = field(default_factory=list)

    @property
    def median(self) -> float:
        return statistics.median(self.rates)

    @property
    def median_round(self) -> tuple[float, object, list]:
        """The round of the median rate, so what is predicted from its steps describes the
        run whose speed is reported."""
        return sorted(self.rounds, key=lambda r: r[0])[(len(self.rounds) - 1) // 2]

    def text(self) -> str:
        return f"{self.median:8.1f} [{min(self.rates):.0f}-{max(self.rates):.0f}]"


def engine_row(name: str, engine: Engine, request: GenerationRequest) -> Row:
    def run():
        final, steps = run_once(engine, request)
        return final.stats.tokens_per_second, final.stats, steps
    return Row(name, run)


def native_bin(args) -> tuple[Path | None, str]:
    """The folder of llama-bench and llama-speculative-simple, or None and why not."""
    if args.no_native:
        return None, "not asked for (--no-native)"
    if args.native_bin is not None:
        folder = args.native_bin
    else:
        print("building or finding llama.cpp's tools (bench/native.sh) ...", flush=True)
        out = subprocess.run(["bash", str(ROOT / "bench" / "native.sh")], capture_output=True,
                             text=True)
        if out.returncode:
            tail = (out.stderr.strip().splitlines() or ["(no output)"])[-1]
            return None, f"bench/native.sh failed: {tail}"
        folder = Path(out.stdout.strip().splitlines()[-1])
    missing = [t for t in ("llama-bench", "llama-speculative-simple")
               if not os.access(folder / t, os.X_OK)]
    if missing:
        return None, f"{', '.join(missing)} not found in {folder}"
    return folder, ""


def as_loaded(engine: Engine) -> tuple[int, str]:
    """What llama.cpp's tools are given to match the engine: the prompt's length in tokens as
    the engine reads it (llama-bench's depth), and the layers offloaded (every one where the
    engine put the target on a GPU, else none)."""
    model = engine._target
    assert model is not None
    return (len(model.tokenize(PROMPT, add_special=True)),
            str(ALL_LAYERS if model.info.on_gpu else 0))


def native_plain_row(name: str, folder: Path, target: Path, *, tokens: int, n_prompt: int,
                     threads: int, ngl: str) -> Row:
    def run():
        out = subprocess.run(
            [str(folder / "llama-bench"), "-m", str(target), "-p", "0", "-n", str(tokens),
             "-d", str(n_prompt), "-t", str(threads), "-ngl", ngl, "-r", "1", "-o", "json"],
            check=True, capture_output=True, text=True).stdout
        return json.loads(out)[0]["avg_ts"], None, []
    return Row(name, run)


def native_spec_row(name: str, folder: Path, target: Path, draft: Path, *, tokens: int,
                    threads: int, ngl: str) -> Row:
    def run():
        log = subprocess.run(
            [str(folder / "llama-speculative-simple"), "-m", str(target), "-md", str(draft),
             "-p", PROMPT, "-n", str(tokens), "--spec-type", "draft-simple",
             "--spec-draft-n-max", str(NATIVE_K), "--spec-draft-n-min", "0",
             "-t", str(threads), "-c", "2048", "--temp", "0", "-ngl", ngl, "-ngld", ngl],
            capture_output=True, text=True, check=True)
        found = re.search(r"decoded\s+\d+ tokens in\s+[\d.]+ seconds, speed:\s+([\d.]+)",
                          log.stdout + log.stderr)
        if found is None:
            raise SystemExit(f"llama-speculative-simple printed no speed:\n{log.stderr[-2000:]}")
        return float(found.group(1)), None, []
    return Row(name, run)


def measure(rows: list[Row], rounds: int) -> None:
    """Every row once a round, each round starting one row further on (so no row always runs
    right after another), after a warm-up round that pages the weights in."""
    for round_ in range(rounds + 1):
        for j in range(len(rows)):
            row = rows[(round_ + j) % len(rows)]
            result = row.run()
            if round_:
                row.rates.append(result[0])
                row.rounds.append(result)
        if round_:
            print(f"  round {round_}/{rounds} done", file=sys.stderr, flush=True)


def report_plain(title: str, engine: Row, native: Row | None) -> None:
    line = f"{title:16} engine {engine.text()}"
    if native is not None:
        line += (f"   llama-bench {native.text()}   engine ÷ llama-bench "
                 f"{engine.median / native.median:.2f} (paired by round: "
                 f"{paired_text(engine.rates, native.rates)})")
    print(line)


def report_pair(title: str, plain: Row, spec: dict[int, Row], native: Row | None) -> None:
    print(f"\n## {title}: draft model (tok/s: median [lowest-highest round])")
    print(f"{'K':>4} {'tok/s':>20} {'speedup (paired)':>26} {'alpha':>6} {'tok/step':>8} "
          f"{'in-answer':>9} {'predicted':>9} {'meas/pred':>9}")
    plain_rate = plain.median
    for k, row in spec.items():
        rate, st, steps = row.median_round
        speedup = rate / plain_rate
        in_answer = f"{st.speedup:9.2f}" if st.speedup else f"{'-':>9}"
        pred = model_speedup(steps, k, plain_rate, st) if k != AUTO else 0.0
        pred_text = f"{pred:9.2f} {speedup / pred:9.2f}" if pred else f"{'':>9} {'':>9}"
        extra = (f"  (mean K {st.n_drafted / max(st.n_draft_steps, 1):.1f})" if k == AUTO
                 else "")
        print(f"{'auto' if k == AUTO else k:>4} {row.text():>20} "
              f"{paired_text(row.rates, plain.rates):>26} {st.acceptance_rate:6.2f} "
              f"{st.tokens_per_step:8.2f} {in_answer} {pred_text}{extra}")
    fixed = {k: r for k, r in spec.items() if k != AUTO}
    auto = spec[AUTO]
    best_k = max(fixed, key=lambda k: fixed[k].median)
    print(f"K auto ÷ best fixed K (K = {best_k}) = {auto.median / fixed[best_k].median:.2f} "
          f"(paired by round: {paired_text(auto.rates, fixed[best_k].rates)})")
    _, auto_st, auto_steps = auto.median_round
    measured = auto.median / plain_rate
    if auto_st.speedup:
        print(f"K auto: the engine's own figure (×{auto_st.speedup:.2f} vs plain, measured by "
              f"the answer's own plain steps) ÷ the plain row's ratio ({measured:.2f}) = "
              f"{auto_st.speedup / measured:.2f}")
    else:
        print("K auto: the answer reported no speedup of its own (too few plain steps)")
    advice = advise(auto_steps, plain_tokens_per_second=plain_rate,
                    overhead_ms=step_overhead_ms(auto_st), ks=list(fixed),
                    k_auto=k_auto_drafter(spec_types.get("draft")),
                    k_auto_speedup=auto_st.speedup or None)
    if advice.rows:
        parts = [f"K = {r.k} {r.speedup:.2f} "
                 f"(meas/pred {fixed[r.k].median / plain_rate / r.speedup:.2f})"
                 for r in advice.rows if r.speedup]
        said = (f"it advises K = {advice.best_k} (expected ×{advice.speedup:.2f})"
                if advice.best_k is not None and advice.speedup is not None
                else f"it says: {advice.summary}")
        print(f"the advisor on K auto's steps predicts {'; '.join(parts)}; {said} (K auto "
              f"itself measured ×{measured:.2f})")
    else:
        print(f"the advisor on K auto's steps: {advice.summary}")
    if native is not None:
        k4 = spec[NATIVE_K]
        print(f"draft K = {NATIVE_K}: engine {k4.median:.1f}, llama-speculative-simple "
              f"{native.text().strip()}, ratio {k4.median / native.median:.2f} (paired by "
              f"round: {paired_text(k4.rates, native.rates)}); K auto ÷ llama-speculative-"
              f"simple K = {NATIVE_K} {auto.median / native.median:.2f} (paired: "
              f"{paired_text(auto.rates, native.rates)})")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--models", type=Path, default=None,
                        help="folder of the large-vocabulary models (default "
                             ".cache/test-models/large-vocab, built when missing or stale)")
    parser.add_argument("--tokens", type=int, default=256)
    parser.add_argument("--rounds", type=int, default=5)
    # One thread by default: on this shared two-core machine a second OpenMP thread waits at
    # every barrier for a core a neighbour holds, and rounds ran 10-100x slower (both sides
    # get the same count, so the ratios hold at any).
    parser.add_argument("--threads", type=int, default=1)
    parser.add_argument("--no-native", action="store_true",
                        help="leave out llama.cpp's tools (no build)")
    parser.add_argument("--native-bin", type=Path, metavar="DIR",
                        help="llama-bench and llama-speculative-simple from DIR, not native.sh")
    args = parser.parse_args()
    from large_vocab import DEFAULT_DIR, FILES, ensure_large_vocab

    if args.models is None:
        models = ensure_large_vocab(DEFAULT_DIR)
    else:
        models = args.models
        missing = [f for f in FILES if not (models / f).is_file()]
        if missing:
            raise SystemExit(f"{', '.join(missing)} not in {models}: "
                             f"python tests/models/build.py --large-vocab {models}")
    fast, draft, slow = (models / f for f in FILES)
    folder, why_not = native_bin(args)
    engines = {}
    rows: list[Row] = []
    plain: dict[str, Row] = {}
    spec: dict[str, dict[int, Row]] = {}
    natives: dict[tuple[str, str], Row] = {}
    for target in (fast, slow):
        engine = Engine()
        engine.load_target(target, n_ctx=2048, n_threads=args.threads)
        engine.load_draft(draft)
        engines[target.stem] = engine
        base = dict(prompt=PROMPT, max_tokens=args.tokens)
        plain[target.stem] = engine_row(f"{target.stem} plain", engine,
                                        GenerationRequest(**base))
        spec[target.stem] = {k: engine_row(f"{target.stem} K={k}", engine, GenerationRequest(
            **base, spec_type="draft", n_draft_max=k)) for k in (*KS, AUTO)}
        rows += [plain[target.stem], *spec[target.stem].values()]
        if folder is not None:
            n_prompt, ngl = as_loaded(engine)
            natives[target.stem, "plain"] = native_plain_row(
                f"{target.stem} llama-bench", folder, target, tokens=args.tokens,
                n_prompt=n_prompt, threads=args.threads, ngl=ngl)
            natives[target.stem, "spec"] = native_spec_row(
                f"{target.stem} llama-speculative-simple", folder, target, draft,
                tokens=args.tokens, threads=args.threads, ngl=ngl)
            rows += [natives[target.stem, "plain"], natives[target.stem, "spec"]]
    print(f"{len(rows)} rows, {args.rounds} rounds after a warm-up, {args.tokens} tokens, "
          f"{args.threads} thread(s); models in {models}", flush=True)
    measure(rows, args.rounds)
    for engine in engines.values():
        engine.close()
    import llama_cpp

    print(f"\nllama_cpp from {Path(llama_cpp.__file__).parent}; llama.cpp's tools: "
          f"{folder if folder is not None else 'left out, ' + why_not}")
    print(f"\n## plain decoding, {args.tokens} tokens (tok/s: median [lowest-highest round])")
    for stem in plain:
        report_plain(stem, plain[stem], natives.get((stem, "plain")))
    for stem in spec:
        report_pair(f"{stem} + {draft.stem}", plain[stem], spec[stem],
                    natives.get((stem, "spec")))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

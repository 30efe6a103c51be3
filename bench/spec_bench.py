"""Speculative decoding benchmark: tokens/s of plain decoding and of each spec type for
several draft lengths K, measured in one run, against the Leviathan et al. prediction.

    python bench/spec_bench.py [--models DIR] [--tokens N] [--repeats R] [--temperature T]
    python bench/spec_bench.py --target T.gguf [--draft D.gguf] [--prompt TEXT ...] [--native]

For each pair it prints: tokens/s, speedup over plain, measured acceptance α, the cost ratio
c of the draft model alone (its plain tokens/s against the target's), the speedup the cost
model predicts (backend/advisor.py, the window's advisor: α per draft position, the measured
drafting time per token and verify-batch cost line, E(K) / (1 + K·c + K·β)) and measured ÷
predicted; then K auto's row and its ratio to the best fixed K and to K = 8. Greedy unless
--temperature is given (then sampled with a new seed every answer: the drafts and what the
target keeps of them differ from round to round, as they do for a person).
"""

from __future__ import annotations

import argparse
import json
import os
import re
import statistics
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests" / "models"))

from backend import spec_types  # noqa: E402
from backend.advisor import advise, k_auto_drafter, step_overhead_ms  # noqa: E402
from backend.engine.engine import Engine  # noqa: E402
from backend.engine.events import GenerationFailed, GenerationFinished, StepVerified  # noqa: E402
from backend.engine.model import ALL_LAYERS  # noqa: E402
from backend.engine.prompt import format_chat  # noqa: E402
from backend.engine.request import GenerationRequest, Message, SamplingSettings  # noqa: E402

CODE_PROMPT = "Write a Python function that checks whether a number is prime, with a docstring."
REWRITE_PROMPT = (
    "Repeat this text exactly, word for word:\n\nDraftlight is a desktop chat app for local "
    "language models. It shows every token as it streams, coloured by where it came from, so "
    "that speculative decoding becomes visible to anyone watching the answer appear."
)


AUTO = 0  # n_draft_max 0: K auto (backend/engine/adaptive_k.py)
TOY_ROUNDS = 3  # the toy pairs' rounds, per --repeats (see main)
PROSE_PROMPT = "Tell a short story about a lighthouse keeper who finds a message in a bottle."


def run_once(engine: Engine, request: GenerationRequest):
    """One answer from a cold prefix cache: its final event and its steps."""
    engine.reset_cache()
    final, steps = None, []
    for ev in engine.generate(request):
        if isinstance(ev, GenerationFailed):
            raise SystemExit(f"generation failed: {ev.message} {ev.detail}")
        if isinstance(ev, GenerationFinished):
            final = ev
        if isinstance(ev, StepVerified):
            steps.append(ev)
    return final, steps


def measure_rows(engine: Engine, requests: list[GenerationRequest], repeats: int):
    """Per request: the median tokens/s over `repeats` rounds (after one warm-up round), that
    median round's stats and steps, so a prediction made from them describes the run whose
    speed is reported, and every round's tokens/s in order (for ratios paired by round).
    Rounds interleave the requests (plain, K = 2, 4, …, auto, then again), so a neighbour's
    load on this shared machine falls on every row alike instead of on whichever row ran at
    that moment: the ratios are what is kept. Each round starts one row further on (plain
    first, then K = 2 first, …), so no row is always the one run longest after the plain row
    (in runs 18 and 19 K auto, run last in every round, ran answers in which no step drafted
    at 0.88-0.95 of the plain row's)."""
    runs: list[list[tuple[float, object, list[StepVerified]]]] = [[] for _ in requests]
    for round_ in range(repeats + 1):
        for j in range(len(requests)):
            i = (round_ + j) % len(requests)
            final, steps = run_once(engine, requests[i])
            if round_:  # the first round warms caches and pages in the weights
                runs[i].append((final.stats.tokens_per_second, final.stats, steps))
    return [(*sorted(r, key=lambda run: run[0])[(len(r) - 1) // 2], [run[0] for run in r])
            for r in runs]


def paired_text(rates: list[float], yardstick: list[float]) -> str:
    """The median over rounds of one row's tokens/s ÷ another's in the same round: the rows
    of a round run seconds apart, so a spell of load from elsewhere on this shared machine,
    which moves a row's median round by ±10%, mostly cancels in each round's ratio. With the
    lowest and highest round's ratio: how far one round's comparison moves here, against
    which a median a few hundredths from 1 is to be read."""
    ratios = [a / b for a, b in zip(rates, yardstick, strict=True)]
    return f"{statistics.median(ratios):.2f}, rounds {min(ratios):.2f}-{max(ratios):.2f}"


def measure(engine: Engine, request: GenerationRequest, repeats: int):
    """Median tokens/s over `repeats` runs (after one warm-up) and the last run's stats."""
    rate, stats, _, _ = measure_rows(engine, [request], repeats)[0]
    return rate, stats


def model_speedup(steps, k: int, plain_rate: float, stats) -> float:
    """The window's advisor (backend/advisor.py) on this row's own steps: α per position,
    the drafter's measured cost and the verify batch's measured cost line, with the plain
    step measured above; the same model the window advises with."""
    advice = advise(steps, plain_tokens_per_second=plain_rate, ks=[k],
                    overhead_ms=step_overhead_ms(stats), asked=k)
    return advice.rows[0].speedup if advice.rows else 0.0


def advice_after_auto(spec: str, steps, stats, plain_rate: float, fixed) -> str:
    """What the window's advisor says after a K auto answer, from that answer's own steps:
    each fixed K's predicted speedup beside the one its row measured (`fixed`: (spec, K,
    tok/s, speedup, …) rows)."""
    advice = advise(steps, plain_tokens_per_second=plain_rate,
                    overhead_ms=step_overhead_ms(stats), ks=[r[1] for r in fixed],
                    k_auto=k_auto_drafter(spec_types.get(spec)),
                    k_auto_speedup=stats.speedup or None)
    if not advice.rows:
        return f"{spec}: the advisor after K auto: {advice.summary}"
    parts = [f"K = {r.k} {r.speedup:.2f} (meas/pred {f[3] / r.speedup:.2f})"
             for r, f in zip(advice.rows, fixed, strict=True) if r.speedup]
    said = f"it advises K = {advice.best_k}" if advice.best_k is not None else advice.summary
    return f"{spec}: the advisor on K auto's steps predicts {'; '.join(parts)}; {said}"


def bench_pair(name, target, draft, prompt, *, raw, ks, tokens, repeats, threads, specs,
               head=None, only="", sampling: SamplingSettings | None = None):
    """`head`: an EAGLE-3 head chosen as the draft (it cannot run alone, so its cost is not
    measured apart and the prediction takes c = 0, an upper bound, as for MTP)."""
    if only not in name:
        return None
    engine = Engine()
    engine.load_target(target, n_ctx=2048, n_threads=threads)
    if head is not None:
        engine.load_draft(head)
    messages = () if raw else (Message("user", prompt),)
    base = dict(prompt=prompt if raw else None, messages=messages, max_tokens=tokens,
                sampling=sampling or SamplingSettings())
    c = 0.0
    if draft is not None:
        draft_engine = Engine()
        draft_engine.load_target(draft, n_ctx=2048, n_threads=threads)
        draft_rate, _ = measure(draft_engine, GenerationRequest(**base), repeats)
        draft_engine.close()
        engine.load_draft(draft)
    wanted = [(spec, k) for spec in specs for k in [*ks, AUTO]]
    measured = measure_rows(engine, [GenerationRequest(**base), *(
        GenerationRequest(**base, spec_type=spec, n_draft_max=k) for spec, k in wanted)],
        repeats)
    plain = measured[0][0]
    if draft is not None:
        c = plain / draft_rate
    print(f"\n## {name}\nplain: {plain:.1f} tok/s" + (f"; draft alone: {plain / c:.1f} tok/s,"
          f" cost ratio c = {c:.3f}" if draft else ""))
    print(f"{'spec':6} {'K':>4} {'tok/s':>8} {'speedup':>8} {'alpha':>6} {'tok/step':>8} "
          f"{'predicted':>9} {'meas/pred':>9}")
    rows = []
    for spec in specs:
        for (row_spec, k), (rate, st, steps, _) in zip(wanted, measured[1:], strict=True):
            if row_spec != spec:
                continue
            alpha = st.acceptance_rate
            speedup = rate / plain
            if k == AUTO:  # no one K to predict from: the rows above are its yardstick
                auto_steps = (steps, st)
                rows.append((spec, k, rate, speedup, alpha, 0.0))
                print(f"{spec:6} {'auto':>4} {rate:8.1f} {speedup:8.2f} {alpha:6.2f} "
                      f"{st.tokens_per_step:8.2f} {'':>9} {'':>9}  "
                      f"(mean K {st.n_drafted / max(st.n_draft_steps, 1):.1f})")
                continue
            pred = model_speedup(steps, k, plain, st)  # 0: too few drafting steps to advise
            rows.append((spec, k, rate, speedup, alpha, pred))
            said = f"{pred:9.2f} {speedup / pred:9.2f}" if pred else f"{'—':>9} {'—':>9}"
            print(f"{spec:6} {k:>4} {rate:8.1f} {speedup:8.2f} {alpha:6.2f} "
                  f"{st.tokens_per_step:8.2f} {said}")
        fixed = [r for r in rows if r[0] == spec and r[1] != AUTO]
        auto = next(r for r in rows if r[0] == spec and r[1] == AUTO)
        print(advice_after_auto(spec, *auto_steps, plain, fixed))
        best = max(fixed, key=lambda r: r[2])
        k8 = next((r for r in fixed if r[1] == 8), None)
        rounds = {k: measured[1 + i][3] for i, (row_spec, k) in enumerate(wanted)
                  if row_spec == spec}
        line = (f"{spec}: K auto ÷ best fixed K (K = {best[1]}) = {auto[2] / best[2]:.2f}"
                f" (paired by round: {paired_text(rounds[AUTO], rounds[best[1]])})")
        if k8 is not None:
            line += (f"; K auto ÷ K = 8 = {auto[2] / k8[2]:.2f}"
                     f" (paired: {paired_text(rounds[AUTO], rounds[8])})")
        if k8 is not None and best is not k8:
            # Whether K = 8 is really not the best, or only this run's median round says so:
            # the best row is picked as the highest of noisy medians, and where K = 8 beats it
            # in some rounds the two are level within what this machine can tell apart.
            line += (f"; best fixed K ÷ K = 8 = {best[2] / k8[2]:.2f}"
                     f" (paired: {paired_text(rounds[best[1]], rounds[8])})")
        print(line)
    engine.close()
    return plain, rows


def native_comparison(target: Path, draft: Path, *, tokens: int, threads: int, repeats: int,
                      k: int = 8, flavour: str = "exact", user_prompt: str = CODE_PROMPT) -> None:
    """Engine ÷ llama.cpp's own C++ (bench/native.sh) on a pair (the demo pair unless --target
    names another): plain decoding against llama-bench, `draft` at K (and K auto) against
    llama-speculative-simple, same raw prompt. `flavour` "default": the C++ tools built with
    llama.cpp's default flags, to set beside the engine's fast kernels."""
    bin_dir = Path(subprocess.run(["bash", str(ROOT / "bench" / "native.sh")], check=True,
                                  capture_output=True, text=True,
                                  env={**os.environ, "NATIVE_FLAVOUR": flavour},
                                  ).stdout.strip().splitlines()[-1])
    # llama-bench's context is n_prompt + n_gen: give it the engine's prompt + answer length
    engine = Engine()
    engine.load_target(target, n_ctx=2048, n_threads=threads)
    engine.load_draft(draft)
    # The chat-formatted text as a raw prompt, so both sides see the same tokens and the
    # model writes a long answer instead of stopping at once.
    prompt, _, _ = format_chat(engine._target, [Message("user", user_prompt)])
    n_prompt = len(engine._target.tokenize(prompt, add_special=True))
    # The C++ tools offload what the engine offloads (every layer on a GPU, or none): their
    # defaults differ between versions, and a GPU engine beside CPU tools measures nothing.
    ngl = str(ALL_LAYERS if engine._target.info.on_gpu else 0)
    requests = [GenerationRequest(prompt=prompt, max_tokens=tokens),
                GenerationRequest(prompt=prompt, max_tokens=tokens, spec_type="draft",
                                  n_draft_max=k),
                GenerationRequest(prompt=prompt, max_tokens=tokens, spec_type="draft",
                                  n_draft_max=AUTO)]

    def native_plain_once() -> float:
        out = subprocess.run(
            [str(bin_dir / "llama-bench"), "-m", str(target), "-p", "0", "-n", str(tokens),
             "-d", str(n_prompt), "-t", str(threads), "-ngl", ngl, "-r", "1", "-o", "json"],
            check=True, capture_output=True, text=True).stdout
        return json.loads(out)[0]["avg_ts"]

    def native_spec_once() -> float:
        log = subprocess.run(
            [str(bin_dir / "llama-speculative-simple"), "-m", str(target), "-md", str(draft),
             "-p", prompt, "-n", str(tokens), "--spec-type", "draft-simple",
             "--spec-draft-n-max", str(k),
             "--spec-draft-n-min", "0", "-t", str(threads), "-c", "2048", "--temp", "0",
             "-ngl", ngl, "-ngld", ngl],
            capture_output=True, text=True, check=True)
        found = re.search(r"decoded\s+\d+ tokens in\s+[\d.]+ seconds, speed:\s+([\d.]+)",
                          log.stdout + log.stderr)
        return float(found.group(1))

    # Interleaved rounds, the engine's rows and the C++ tools' one after the other, so load
    # from elsewhere on the machine falls on both sides alike (after one warm-up round).
    engine_rates: list[list[float]] = [[] for _ in requests]
    engine_stats: list = [None] * len(requests)
    plain_rates, rates = [], []
    for round_ in range(repeats + 1):
        for i, request in enumerate(requests):
            final, _ = run_once(engine, request)
            if round_:
                engine_rates[i].append(final.stats.tokens_per_second)
                engine_stats[i] = final.stats
        native = (native_plain_once(), native_spec_once())
        if round_:
            plain_rates.append(native[0])
            rates.append(native[1])
    engine.close()
    plain, spec, auto = (statistics.median(r) for r in engine_rates)
    _, st, auto_st = engine_stats
    native_plain = statistics.median(plain_rates)
    native_spec = statistics.median(rates)
    import llama_cpp

    build = os.environ.get("DRAFTLIGHT_KERNELS", "exact")
    print(f"\nllama_cpp from {Path(llama_cpp.__file__).parent}")
    print(f"\n## engine ({build} kernels) vs llama.cpp's own tools built with "
          f"{'its default flags' if flavour == 'default' else 'the same flags'} "
          f"({target.name} + {draft.name}, same prompt tokens, {tokens} tokens: "
          f"{user_prompt[:60]})")
    print(f"plain: engine {plain:.1f} tok/s, llama-bench {native_plain:.1f} tok/s, "
          f"ratio {plain / native_plain:.2f}")
    print(f"draft K={k}: engine {spec:.1f} tok/s (acceptance {st.acceptance_rate:.2f}), "
          f"llama-speculative-simple {native_spec:.1f} tok/s, ratio {spec / native_spec:.2f} "
          f"(paired by round: {paired_text(engine_rates[1], rates)})")
    print(f"draft K auto: engine {auto:.1f} tok/s (acceptance {auto_st.acceptance_rate:.2f}), "
          f"ratio to llama-speculative-simple at K={k} {auto / native_spec:.2f} "
          f"(paired by round: {paired_text(engine_rates[2], rates)}); engine K auto ÷ K={k} "
          f"{auto / spec:.2f} (paired: {paired_text(engine_rates[2], engine_rates[1])})")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--models", type=Path, default=ROOT / ".cache" / "bench-models")
    parser.add_argument("--tokens", type=int, default=128)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--temperature", type=float, default=0.0,
                        help="sample at this temperature (default 0: greedy; the comparison "
                             "with llama.cpp's tools stays greedy)")
    parser.add_argument("--ks", default="2,4,8,16")
    parser.add_argument("--only", default="", metavar="WORDS",
                        help="only the pairs whose heading contains WORDS (e.g. EAGLE-3)")
    parser.add_argument("--native", action="store_true",
                        help="also compare with llama.cpp's C++ tools (builds them once)")
    parser.add_argument("--kernels", choices=("exact", "fast"), default="exact",
                        help="the engine's llama.cpp build (fast: scripts/fast-kernels.sh's); "
                             "with --native, fast compares with llama.cpp's default build")
    parser.add_argument("--native-only", action="store_true",
                        help="only the comparison with llama.cpp's C++ tools")
    parser.add_argument("--target", type=Path, metavar="GGUF",
                        help="bench this model instead of the built-in pairs: plain, n-gram "
                             "and (with --draft) the draft model, on each --prompt")
    parser.add_argument("--draft", type=Path, metavar="GGUF", help="with --target: its draft")
    parser.add_argument("--prompt", action="append", metavar="TEXT",
                        help="with --target: a user message (repeatable; default the code and "
                             "prose prompts); --native compares on each")
    args = parser.parse_args()
    if args.kernels == "fast" and os.environ.get("DRAFTLIGHT_KERNELS") != "fast":
        # llama_cpp is imported above: run again with the fast build first on the path
        from backend.engine.runtime import fast_build_dir, fast_unavailable_reason

        folder = fast_build_dir()
        if folder is None:
            raise SystemExit(fast_unavailable_reason())
        env = {**os.environ, "DRAFTLIGHT_KERNELS": "fast",
               "PYTHONPATH": os.pathsep.join([str(folder), os.environ.get("PYTHONPATH", "")])}
        os.execve(sys.executable, [sys.executable, *sys.argv], env)
    flavour = "default" if args.kernels == "fast" else "exact"
    ks = [int(k) for k in args.ks.split(",")]
    common = dict(ks=ks, tokens=args.tokens, repeats=args.repeats, threads=args.threads,
                  only=args.only, sampling=SamplingSettings(temperature=args.temperature,
                                                            seed=-1))
    if args.draft is not None and args.target is None:
        parser.error("--draft needs --target")
    if args.target is not None:
        return bench_chosen(args, common, flavour)
    import build

    m = args.models
    if not all((m / f).is_file() for f in build.ALL_FILES):
        build.build(m)
    demo = (m / "demo-target-f32.gguf", m / "demo-draft-q8_0.gguf")
    if args.native_only:
        native_comparison(*demo, tokens=args.tokens, threads=args.threads,
                          repeats=args.repeats, flavour=flavour)
        return 0
    bench_pair("demo pair: SmolLM2-135M F32 target, Q8_0 draft (code prompt)",
               m / "demo-target-f32.gguf", m / "demo-draft-q8_0.gguf", CODE_PROMPT,
               raw=False, specs=("draft", "ngram"), **common)
    bench_pair("demo pair, prose prompt", m / "demo-target-f32.gguf", m / "demo-draft-q8_0.gguf",
               PROSE_PROMPT, raw=False, specs=("draft",), **common)
    # The copied text ends after ~5 steps (~0.15 s an answer), so one scheduler hiccup moves a
    # round by 10%: four times the rounds, for the time of one of the other rows'.
    bench_pair("demo target, rewrite prompt", m / "demo-target-f32.gguf", None, REWRITE_PROMPT,
               raw=False, specs=("ngram",), **{**common, "repeats": 4 * args.repeats})
    # The toy pairs' answers take 0.1-0.8 s, so a hiccup of the shared machine moves a row's
    # round by 10% or more and their rows moved by ±0.1 from run to run: more rounds, for
    # about the time of the demo pair's.
    toy = {**common, "repeats": TOY_ROUNDS * args.repeats}
    bench_pair("counting: count-target-slow target, count-draft draft",
               m / "count-target-slow.gguf", m / "count-draft.gguf", " zero one",
               raw=True, specs=("draft",), **{**toy, "ks": [2, 3, 4, 8]})
    # MTP drafts with the target's own NextN head (a second context on the same weights);
    # its cost is not measured apart, so the prediction takes c = 0 (an upper bound).
    bench_pair("MTP: count-mtp (qwen35, one NextN head, wrong after every 3rd word)",
               m / "count-mtp.gguf", None, " zero one", raw=True, specs=("mtp",),
               **{**toy, "ks": [1, 2, 3, 4]})
    # EAGLE-3: a one-layer head reads the target's layer inputs. Next to count-target3 the
    # head costs about as much as the target (both are mostly the 49k-word output matrix), so
    # that speed says little (see docs/BENCHMARKS.md); count-target-slow's big blocks make
    # the target dear and the head cheap, as a real pair is. Both read layers 0, 2 and 3.
    for target, head, words in (
            ("count-target3", "eagle3-count", "borrows the target's weights, always right"),
            ("count-target3", "eagle3-own", "own weights, wrong after every 3rd word"),
            ("count-target-slow", "eagle3-count", "a dear target, always right"),
            ("count-target-slow", "eagle3-own", "a dear target, wrong after every 3rd word")):
        bench_pair(f"EAGLE-3: {target} with {head} ({words})", m / f"{target}.gguf",
                   None, " zero one", raw=True, specs=("eagle3",), head=m / f"{head}.gguf",
                   **{**toy, "ks": [1, 2, 3, 4, 8]})
    if args.native:
        native_comparison(*demo, tokens=args.tokens, threads=args.threads,
                          repeats=args.repeats, flavour=flavour)
    return 0


def bench_chosen(args, common: dict, flavour: str) -> int:
    """A pair and prompts chosen on the command line (a model of one's own, a prompt the
    built-in rows do not have): the same rows, ratios and prediction as the built-in pairs."""
    prompts = args.prompt or [CODE_PROMPT, PROSE_PROMPT]
    specs = ("draft", "ngram") if args.draft else ("ngram",)
    names = args.target.name + (f" + {args.draft.name}" if args.draft else "")
    if not args.native_only:
        for prompt in prompts:
            bench_pair(f"{names}: {prompt[:60]}", args.target, args.draft, prompt, raw=False,
                       specs=specs, **{**common, "only": ""})
    if args.native or args.native_only:
        if args.draft is None:
            raise SystemExit("--native compares the draft model at K = 8: give --draft")
        for prompt in prompts:
            native_comparison(args.target, args.draft, tokens=args.tokens,
                              threads=args.threads, repeats=args.repeats, flavour=flavour,
                              user_prompt=prompt)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

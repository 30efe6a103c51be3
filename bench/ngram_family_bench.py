"""The n-gram family against llama.cpp's own `llama-speculative-simple --spec-type <type>`:
drafted, accepted, acceptance, tokens per step and tokens/s for each type, same model, same
prompt tokens, greedy, and whether both wrote the same text.

    python bench/ngram_family_bench.py [--target GGUF] [--tokens N] [--repeats R] [--threads T]

Both sides get llama.cpp's own defaults for each type (common/common.h,
common_params_speculative_ngram_map and _ngram_mod; common/speculative.cpp,
create_state_ngram_cache): ngram-simple, ngram-map-k and ngram-map-k4v size_n 12, size_m 48,
min_hits 1; ngram-mod n_match 24, n_min 48, n_max 64; ngram-cache 8 tokens a draft, n-grams
of 1 to 4, no static or dynamic cache file. llama-speculative-simple caps an n-gram draft by
the type's own size and the room left (n_predict and the context), never by
--spec-draft-n-max (that caps the draft-model types), so the engine's K is set to the type's
own cap, past the 32 a request accepts (request.py), where the cap is above 32.

The chat-formatted prompt is given to both as raw text (so both see the same tokens), -n N to
the tool and N + 1 tokens to the engine: the tool stops once it has decoded more than N.
Tokens per step: tokens written ÷ target decodes (each decode writes the accepted drafts and
the target's own token), the tool's from its n_predict and n_accept (n_predict − n_accept
decodes). Each round runs the tool, then the engine with a new drafter (the engine keeps
ngram-mod's table and ngram-cache's dynamic cache across the answers of a target; the tool
starts with empty ones in every process), per type; one warm-up round, then medians over
--repeats rounds, with the lowest and highest, and the engine ÷ tool ratio paired by round.
"""

from __future__ import annotations

import argparse
import re
import statistics
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from spec_bench import CODE_PROMPT, REWRITE_PROMPT, paired_text, run_once  # noqa: E402

from backend.engine.engine import Engine  # noqa: E402
from backend.engine.model import ALL_LAYERS  # noqa: E402
from backend.engine.prompt import format_chat  # noqa: E402
from backend.engine.request import (  # noqa: E402
    GenerationRequest,
    Message,
    NgramMapSettings,
    NgramModSettings,
    NgramSettings,
)

# Long enough to copy from: llama.cpp's defaults look up 12-token keys, and ngram-map-k and
# -k4v only use a key that the history follows with 48 more tokens before its end.
PASSAGE = (
    "Draftlight is a desktop chat app for local language models. It shows every token as it "
    "streams, coloured by where it came from, so that speculative decoding becomes visible to "
    "anyone watching the answer appear. A small draft model, or a lookup in the text so far, "
    "guesses the next few tokens; the large model checks all of them in one pass and keeps "
    "the ones it would have written itself. When the guesses are good, several tokens arrive "
    "for the price of one, and the answer is exactly the one the large model alone would give.")
REPEAT_PROMPT = "Repeat this text exactly, word for word:\n\n" + PASSAGE
EDIT_PROMPT = (
    "Repeat this code exactly, word for word:\n\n"
    "```python\ndef sum_squares(values):\n    total = 0\n    for v in values:\n"
    "        total += v * v\n    return total\n\n\ndef sum_cubes(values):\n    total = 0\n"
    "    for v in values:\n        total += v * v * v\n    return total\n\n\n"
    "def mean(values):\n    total = 0\n    for v in values:\n        total += v\n"
    "    return total / len(values)\n```")
PROMPTS = {"repeat": REPEAT_PROMPT, "code repeat": EDIT_PROMPT, "rewrite": REWRITE_PROMPT,
           "code": CODE_PROMPT}

MAP = NgramMapSettings(size_n=12, size_m=48, min_hits=1)
MOD = NgramModSettings(n_match=24, n_min=48, n_max=64)
MAP_FLAGS = ["-size-n", "12", "-size-m", "48", "-min-hits", "1"]
# engine spec type: (the tool's --spec-type, its flags, the request's settings, the draft cap)
TYPES: dict[str, tuple[str, list[str], dict[str, Any], int]] = {
    "ngram": ("ngram-simple", [f"--spec-ngram-simple{f}" if f[0] == "-" else f
                               for f in MAP_FLAGS],
              {"ngram": NgramSettings(size_n=12, size_m=48, min_hits=1)}, 48),
    "ngram-map-k": ("ngram-map-k", [f"--spec-ngram-map-k{f}" if f[0] == "-" else f
                                    for f in MAP_FLAGS], {"ngram_map_k": MAP}, 48),
    "ngram-map-k4v": ("ngram-map-k4v", [f"--spec-ngram-map-k4v{f}" if f[0] == "-" else f
                                        for f in MAP_FLAGS], {"ngram_map_k4v": MAP}, 48),
    "ngram-mod": ("ngram-mod", ["--spec-ngram-mod-n-match", "24", "--spec-ngram-mod-n-min",
                                "48", "--spec-ngram-mod-n-max", "64"], {"ngram_mod": MOD}, 64),
    "ngram-cache": ("ngram-cache", [], {}, 8),
}


@dataclass
class Run:
    drafted: int
    accepted: int
    steps: int
    tokens: int
    rate: float
    text: str

    @property
    def acceptance(self) -> float:
        return self.accepted / self.drafted if self.drafted else 0.0

    @property
    def per_step(self) -> float:
        return self.tokens / self.steps if self.steps else 0.0


def native_bin() -> Path:
    """bench/native.sh's folder of llama.cpp's tools, built with the engine's flags."""
    out = subprocess.run(["bash", str(ROOT / "bench" / "native.sh")], check=True,
                         capture_output=True, text=True).stdout
    return Path(out.strip().splitlines()[-1])


def native_once(tool: Path, target: Path, prompt: str, spec: str, *, tokens: int,
                threads: int, ngl: str) -> Run:
    native_type, flags, _, _ = TYPES[spec]
    log = subprocess.run(
        [str(tool), "-m", str(target), "-p", prompt, "-n", str(tokens),
         "--spec-type", native_type, *flags, "-t", str(threads), "-c", "2048", "--temp", "0",
         "-ngl", ngl], capture_output=True, text=True, check=True)
    err = log.stderr

    def found(pattern: str) -> str:
        match = re.search(pattern, err)
        if match is None:
            raise SystemExit(f"llama-speculative-simple printed no {pattern!r}:\n{err[-2000:]}")
        return match.group(1)

    def field(name: str) -> int:
        return int(found(rf"{name}\s*=\s*(\d+)"))

    rate = float(found(r"decoded\s+\d+ tokens in\s+[\d.]+ seconds, speed:\s+([\d.]+)"))
    # stdout: two newlines, the prompt's pieces, the answer's, two newlines
    text = (log.stdout.removeprefix("\n\n").removeprefix(prompt)
            .removesuffix("\n\n").removesuffix("\n\n"))
    n_predict, n_accept = field("n_predict"), field("n_accept")
    return Run(field("n_drafted"), n_accept, n_predict - n_accept, n_predict, rate, text)


def engine_once(engine: Engine, prompt: str, spec: str, tokens: int) -> Run:
    _, _, settings, cap = TYPES[spec]
    dropped = engine._drafters.pop(spec, None)  # a new drafter: empty tables, as the tool's
    if dropped is not None:
        dropped.close()
    request = GenerationRequest(prompt=prompt, max_tokens=tokens + 1, spec_type=spec,
                                n_draft_max=min(cap, 32), measure_plain=False, **settings)
    object.__setattr__(request, "n_draft_max", cap)  # past the request's range: see above
    final, steps = run_once(engine, request)
    st = final.stats
    # An answer that ends on a drafted end-of-generation token the target agrees with: the
    # engine counts that token as an accepted draft, llama.cpp as the target's own
    # (common/sampling.cpp, common_sampler_sample_and_accept_n): counted here as llama.cpp does.
    last = steps[-1] if steps else None
    eog_draft = (final.stop_reason == "eos" and last is not None and last.n_accepted > 0
                 and len(last.emitted) == last.n_accepted)
    return Run(st.n_drafted, st.n_accepted - eog_draft, st.n_steps, st.n_generated,
               st.tokens_per_second, final.text)


def spread(values: list[float]) -> str:
    return f"{statistics.median(values):.1f} ({min(values):.1f}-{max(values):.1f})"


def bench_prompt(name: str, user_prompt: str, target: Path, tool: Path, *, tokens: int,
                 threads: int, repeats: int, specs: list[str]) -> None:
    engine = Engine()
    engine.load_target(target, n_ctx=2048, n_threads=threads)
    model = engine._target
    assert model is not None
    prompt, _, _ = format_chat(model, [Message("user", user_prompt)])
    # The tool offloads what the engine offloads (every layer on a GPU, or none).
    ngl = str(ALL_LAYERS if model.info.on_gpu else 0)
    runs: dict[str, tuple[list[Run], list[Run]]] = {s: ([], []) for s in specs}
    for round_ in range(repeats + 1):
        for spec in specs:
            native = native_once(tool, target, prompt, spec, tokens=tokens, threads=threads,
                                 ngl=ngl)
            ours = engine_once(engine, prompt, spec, tokens)
            if round_:  # the first round warms caches and pages in the weights
                runs[spec][0].append(native)
                runs[spec][1].append(ours)
    engine.close()
    print(f"\n## {name} ({target.name}, -n {tokens}, {threads} threads, {repeats} rounds: "
          f"{user_prompt[:50]!r}…)")
    print(f"{'type':14} {'side':7} {'drafted':>7} {'accepted':>8} {'accept':>7} "
          f"{'tok/step':>8} {'tokens':>6}  tok/s median (lowest-highest)")
    for spec in specs:
        natives, mine = runs[spec]
        for side, rs in (("llama", natives), ("engine", mine)):
            r = rs[-1]
            # greedy: the counts are the same every round (checked below)
            same = len({(x.drafted, x.accepted, x.tokens) for x in rs}) == 1
            print(f"{spec:14} {side:7} {r.drafted:7d} {r.accepted:8d} {r.acceptance:7.3f} "
                  f"{r.per_step:8.2f} {r.tokens:6d}  {spread([x.rate for x in rs])}"
                  + ("" if same else "  (counts moved between rounds)"))
        rates = [x.rate for x in mine]
        yard = [x.rate for x in natives]
        texts = {x.text for x in natives} | {x.text for x in mine}
        ratio = statistics.median(rates) / statistics.median(yard)
        print(f"{spec:14} engine ÷ llama.cpp tok/s {ratio:.2f}"
              f" (paired by round: {paired_text(rates, yard)}); same text: "
              f"{'yes' if len(texts) == 1 else 'NO'}")
        if len(texts) != 1:
            for side, rs in (("llama", natives), ("engine", mine)):
                print(f"  {side}: {rs[-1].text[:300]!r}")


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    models = sorted((ROOT / ".cache" / "test-models").glob("*/demo-target-f32.gguf"))
    p.add_argument("--target", type=Path, default=models[-1] if models else None)
    p.add_argument("--tokens", type=int, default=256)
    p.add_argument("--repeats", type=int, default=3)
    p.add_argument("--threads", type=int, default=2)
    p.add_argument("--prompt", choices=list(PROMPTS), nargs="*",
                   default=["repeat", "code repeat"])
    p.add_argument("--spec", choices=list(TYPES), nargs="*", default=list(TYPES))
    args = p.parse_args()
    if args.target is None:
        raise SystemExit("no demo-target-f32.gguf: run tests/models/build.py or give --target")
    tool = native_bin() / "llama-speculative-simple"
    for name in args.prompt:
        bench_prompt(name, PROMPTS[name], args.target, tool, tokens=args.tokens,
                     threads=args.threads, repeats=args.repeats, specs=args.spec)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

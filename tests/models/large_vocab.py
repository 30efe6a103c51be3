"""Large-vocabulary counting models: what the engine's per-token work over the vocabulary
costs at a GPU's token rates, measured on this CPU.

    python tests/models/build.py --large-vocab OUTDIR

SmolLM2's tokenizer (its tokens and merges, so prompts tokenize exactly as on the small
models) padded with filler tokens to Qwen's 151,936: unique strings that no merge produces, so
the BPE never emits them, and whose output rows are zero, so they never win. The counting
construction of build.py, over that vocabulary:

- `lv-target`: one block on a 64-wide residual, so decoding a token is mostly its Q8_0
  151,936 x 64 output matrix: ~1,000 tokens/s on one core here, a 1-3B model's rate on a GPU.
- `lv-draft`: the same vocabulary, wrong after every 4th cycle word (as count-draft), 32 wide
  with its output matrix in Q4_0 (exact for the construction's 0 and MARGIN): ~5x faster than
  lv-target, a real draft model's share.
- `lv-target-slow`: lv-target's output after eight blocks with a wide F16 FFN that computes
  and adds nothing (as count-target-slow): 100-200 tokens/s here, an 8B model's rate on a GPU.

Not in build.py's default set: CI builds that on every run, and these take ~100 MB.
"""

from __future__ import annotations

import copy
import hashlib
import os
from pathlib import Path

import gguf
import numpy as np
from build import (
    ATTN_TRACE,
    DRAFT_SKIP_EVERY,
    N_EMBD,
    N_HEAD,
    Tokenizer,
    counting_output,
    finish,
    one_hot_embeddings,
    smollm2_path,
)

N_VOCAB = 151_936  # Qwen2's and Qwen3's vocabulary (Llama 3 has 128,256, Gemma 3 262,144)
FILES = ("lv-target.gguf", "lv-draft.gguf", "lv-target-slow.gguf")
PAIR = FILES[:2]
# Beside the test models' folders (tests/conftest.py), under a name their clean-up keeps.
DEFAULT_DIR = Path(__file__).resolve().parents[2] / ".cache" / "test-models" / "large-vocab"
Q8_0, Q4_0 = gguf.GGMLQuantizationType.Q8_0, gguf.GGMLQuantizationType.Q4_0
TARGET_WIDTH = 64  # lv-target's residual: its Q8_0 output matrix then decodes at ~1,000 tok/s
SLOW_LAYERS, SLOW_FF = 8, 24_576  # lv-target-slow's F16 blocks: ~6 ms a token here


def filler(i: int) -> str:
    return f"<|filler{i:06d}|>"


def padded(tok: Tokenizer, n_vocab: int = N_VOCAB) -> Tokenizer:
    """`tok` with normal-type filler tokens appended up to `n_vocab`. No merge yields a filler
    (none is in the original vocabulary, which every merge's result is), so the tokenizer
    splits text exactly as before."""
    assert not any(t.startswith("<|filler") for t in tok.tokens)
    extra = n_vocab - tok.n_vocab
    big = copy.copy(tok)
    big.tokens = tok.tokens + [filler(i) for i in range(extra)]
    big.n_vocab = n_vocab
    big.fields = []
    for key, value, vtype, sub in tok.fields:
        if key == "tokenizer.ggml.tokens":
            value = big.tokens
        elif key == "tokenizer.ggml.token_type":
            value = list(value) + [gguf.TokenType.NORMAL] * extra
        big.fields.append((key, value, vtype, sub))
    return big


def write_counting(
    path: Path, tok: Tokenizer, output: np.ndarray, *, name: str, n_layer: int = 1,
    n_ff: int = 64, ffn_dtype: type = np.float32, n_embd: int = N_EMBD,
    output_type: gguf.GGMLQuantizationType = gguf.GGMLQuantizationType.F32,
) -> None:
    """build.write_llama's counting model (with its attention trace of the history) on an
    `n_embd`-wide residual (the counting output padded with zero columns), with the output
    matrix stored as `output_type`."""
    output = np.pad(output, ((0, 0), (0, n_embd - output.shape[1])))
    tmp = path.with_suffix(f".{os.getpid()}.tmp")
    w = gguf.GGUFWriter(str(tmp), "llama")
    w.add_name(name)
    w.add_context_length(4096)
    w.add_embedding_length(n_embd)
    w.add_block_count(n_layer)
    w.add_feed_forward_length(n_ff)
    w.add_head_count(N_HEAD)
    w.add_head_count_kv(N_HEAD)
    w.add_rope_dimension_count(n_embd // N_HEAD)
    w.add_layer_norm_rms_eps(1e-5)
    w.add_vocab_size(tok.n_vocab)
    w.add_file_type(gguf.LlamaFileType.ALL_F32)
    for key, value, vtype, sub in tok.fields:
        w.add_key_value(key, value, vtype, sub)
    w.add_tensor("token_embd.weight", one_hot_embeddings(tok, n_embd))
    w.add_tensor("output_norm.weight", np.full(n_embd, n_embd**-0.5, dtype=np.float32))
    if output_type == gguf.GGMLQuantizationType.F32:
        w.add_tensor("output.weight", output.astype(np.float32))
    else:
        w.add_tensor("output.weight", gguf.quants.quantize(output.astype(np.float32),
                                                           output_type), raw_dtype=output_type)
    rng = np.random.default_rng(0)
    for b in range(n_layer):
        p = f"blk.{b}."
        w.add_tensor(p + "attn_norm.weight", np.ones(n_embd, dtype=np.float32))
        w.add_tensor(p + "ffn_norm.weight", np.ones(n_embd, dtype=np.float32))
        # a zero query attends to every cached position equally: the trace is the mean of the
        # history's values, so a rolled-back draft left in the cache shows in the logits
        w.add_tensor(p + "attn_q.weight", np.zeros((n_embd, n_embd), np.float32))
        for t in ("attn_k", "attn_v"):
            w.add_tensor(p + t + ".weight", rng.standard_normal((n_embd, n_embd), np.float32))
        w.add_tensor(p + "attn_output.weight",
                     ATTN_TRACE * rng.standard_normal((n_embd, n_embd), np.float32))
        # computed (and paid for) but adding nothing: ffn_down is zero
        for t in ("ffn_gate", "ffn_up"):
            w.add_tensor(p + t + ".weight",
                         rng.standard_normal((n_ff, n_embd), np.float32).astype(ffn_dtype))
        w.add_tensor(p + "ffn_down.weight", np.zeros((n_embd, n_ff), ffn_dtype))
    finish(w, tmp, path)


def build_large_vocab(outdir: Path, *, slow: bool = True) -> list[Path]:
    """Write lv-target and lv-draft (and, with `slow`, lv-target-slow) into `outdir`."""
    outdir.mkdir(parents=True, exist_ok=True)
    tok = padded(Tokenizer(smollm2_path()))
    target = counting_output(tok)
    write_counting(outdir / "lv-target.gguf", tok, target, name="lv-target",
                   n_embd=TARGET_WIDTH, output_type=Q8_0)
    write_counting(outdir / "lv-draft.gguf", tok, counting_output(tok, DRAFT_SKIP_EVERY),
                   name="lv-draft", output_type=Q4_0)
    if not slow:
        return [outdir / f for f in PAIR]
    write_counting(outdir / "lv-target-slow.gguf", tok, target, name="lv-target-slow",
                   n_embd=TARGET_WIDTH, n_layer=SLOW_LAYERS, n_ff=SLOW_FF,
                   ffn_dtype=np.float16, output_type=Q8_0)
    return [outdir / f for f in FILES]


def ensure_large_vocab(outdir: Path = DEFAULT_DIR) -> Path:
    """`outdir` holding all three models, rebuilt when missing or written by another version
    of the builders (a stamp of their sources, as tests/conftest.py keys the test models)."""
    here = Path(__file__).resolve().parent
    stamp = hashlib.sha256(b"".join((here / f).read_bytes()
                                    for f in ("build.py", "large_vocab.py"))).hexdigest()
    stamp_file = outdir / "builder.sha256"
    current = stamp_file.is_file() and stamp_file.read_text() == stamp
    if not (current and all((outdir / f).is_file() for f in FILES)):
        build_large_vocab(outdir)
        stamp_file.write_text(stamp)
    return outdir

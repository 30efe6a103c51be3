"""Large-vocabulary counting models: what the engine's per-token work over the vocabulary
costs at a GPU's token rates, measured on this CPU.

    python tests/models/build.py --large-vocab OUTDIR

SmolLM2's tokenizer (its tokens and merges, so prompts tokenize exactly as on the small
models) padded with filler tokens to Qwen's 151,936: unique strings that no merge produces, so
the BPE never emits them. The counting construction of build.py over that vocabulary, except
that every logit but the intended next token's is a small negative number of its own instead
of 0 (`counting_logits`), so no filler ever wins and the engine's work over the vocabulary
costs what it costs on a real model's logits:

- `lv-target`: one block on a 256-wide residual, so decoding a token is mostly its Q4_0
  151,936 x 256 output matrix: ~1,000 tokens/s on one core here, a 1-3B model's rate on a GPU.
- `lv-draft`: the same vocabulary, wrong after every 4th cycle word (as count-draft), 32 wide:
  ~5x faster than lv-target, a real draft model's share.
- `lv-target-slow`: lv-target's output after eight blocks with a wide FFN that computes and
  adds nothing (as count-target-slow): 100-200 tokens/s here, an 8B model's rate on a GPU.

Not in build.py's default set: CI builds that on every run, and these take ~200 MB.
"""

from __future__ import annotations

import copy
import hashlib
from pathlib import Path

import gguf
import numpy as np
from build import (
    ATTN_TRACE,
    DRAFT_SKIP_EVERY,
    N_EMBD,
    Tokenizer,
    counting_output,
    finish,
    one_hot_embeddings,
    smollm2_path,
    start_llama,
)

N_VOCAB = 151_936  # Qwen2's and Qwen3's vocabulary (Llama 3 has 128,256, Gemma 3 262,144)
FILES = ("lv-target.gguf", "lv-draft.gguf", "lv-target-slow.gguf")
PAIR = FILES[:2]
STAMP = "builder.sha256"
# Beside the test models' folders (tests/conftest.py), under a name their clean-up keeps.
DEFAULT_DIR = Path(__file__).resolve().parents[2] / ".cache" / "test-models" / "large-vocab"
F32, Q4_0 = gguf.GGMLQuantizationType.F32, gguf.GGMLQuantizationType.Q4_0
TARGET_WIDTH = 256  # the targets' residual: their Q4_0 output matrix then takes ~1 ms here
SLOW_LAYERS, SLOW_FF = 8, 24_576  # lv-target-slow's Q4_0 blocks: ~8 ms a token here
# The losing logits lie in [-SPREAD, 0): far below MARGIN, so greedy output is the counting.
SPREAD = 4.0


def filler(i: int) -> str:
    return f"<|filler{i:06d}|>"


def padded(tok: Tokenizer, n_vocab: int = N_VOCAB) -> Tokenizer:
    """`tok` with normal-type filler tokens appended up to `n_vocab`. Every merge's result is
    in the original vocabulary and no filler is, so no merge yields one and the tokenizer
    splits text exactly as before; normal tokens are never matched as special text."""
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


def counting_logits(tok: Tokenizer, skip_every: int = 0, *, seed: int) -> np.ndarray:
    """build.counting_output with each logit that is 0 there drawn from [-SPREAD, 0) instead.
    A real model's logits are not tied; over 151,936 tied ones a partial selection (numpy's
    argpartition, for a top 5) takes ~7 ms where untied ones take ~0.4, which would bury
    what the bench measures."""
    out = counting_output(tok, skip_every)
    noise = -SPREAD * np.random.default_rng(seed).random(out.shape, dtype=np.float32)
    return np.where(out == 0, noise, out)


def add_tensor(w: gguf.GGUFWriter, name: str, value: np.ndarray,
               qtype: gguf.GGMLQuantizationType = F32) -> None:
    if qtype == F32:
        w.add_tensor(name, value.astype(np.float32))
    else:
        w.add_tensor(name, gguf.quants.quantize(value.astype(np.float32), qtype),
                     raw_dtype=qtype)


def write_counting(
    path: Path, tok: Tokenizer, output: np.ndarray, *, name: str, n_embd: int = N_EMBD,
    n_layer: int = 1, n_ff: int = 64, qtype: gguf.GGMLQuantizationType = F32,
) -> None:
    """build.write_llama's counting model, with its attention trace of the history, on an
    `n_embd`-wide residual (the counting output padded with zero columns), with the token
    embeddings, output matrix and FFN stored as `qtype`. Q4_0 holds the one-hot embeddings
    and MARGIN exactly and, with llama.cpp's repacked Q4_0 kernels, verifies a batch of 5 in
    ~3 single tokens' time (F32, F16 and Q8_0 took 5-10 here): the nearest this CPU comes to
    a GPU's nearly free batches."""
    output = np.pad(output, ((0, 0), (0, n_embd - output.shape[1])))
    # The trace's share of the residual grows as n_embd^1.5 (a sum over n_embd values, over
    # n_embd dimensions): scaled back to that of build.py's 32-wide models.
    trace = ATTN_TRACE * (N_EMBD / n_embd) ** 1.5
    w, tmp = start_llama(path, "llama", name=name, n_embd=n_embd, n_layer=n_layer, n_ff=n_ff)
    w.add_vocab_size(tok.n_vocab)
    w.add_file_type(gguf.LlamaFileType.ALL_F32)
    for key, value, vtype, sub in tok.fields:
        w.add_key_value(key, value, vtype, sub)
    add_tensor(w, "token_embd.weight", one_hot_embeddings(tok, n_embd), qtype)
    w.add_tensor("output_norm.weight", np.full(n_embd, n_embd**-0.5, dtype=np.float32))
    add_tensor(w, "output.weight", output, qtype)
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
                     trace * rng.standard_normal((n_embd, n_embd), np.float32))
        # computed (and paid for) but adding nothing: ffn_down is zero
        for t in ("ffn_gate", "ffn_up"):
            add_tensor(w, p + t + ".weight", rng.standard_normal((n_ff, n_embd), np.float32),
                       qtype)
        add_tensor(w, p + "ffn_down.weight", np.zeros((n_embd, n_ff), np.float32), qtype)
    finish(w, tmp, path)


def build_large_vocab(outdir: Path, *, slow: bool = True) -> list[Path]:
    """Write lv-target and lv-draft (and, with `slow`, lv-target-slow) into `outdir`."""
    outdir.mkdir(parents=True, exist_ok=True)
    tok = padded(Tokenizer(smollm2_path()))
    target = counting_logits(tok, seed=5)
    write_counting(outdir / "lv-target.gguf", tok, target, name="lv-target",
                   n_embd=TARGET_WIDTH, qtype=Q4_0)
    draft = counting_logits(tok, DRAFT_SKIP_EVERY, seed=6)
    write_counting(outdir / "lv-draft.gguf", tok, draft, name="lv-draft", qtype=Q4_0)
    if not slow:
        return [outdir / f for f in PAIR]
    write_counting(outdir / "lv-target-slow.gguf", tok, target, name="lv-target-slow",
                   n_embd=TARGET_WIDTH, n_layer=SLOW_LAYERS, n_ff=SLOW_FF, qtype=Q4_0)
    (outdir / STAMP).write_text(builder_stamp())
    return [outdir / f for f in FILES]


def builder_stamp() -> str:
    """What the models depend on: the builders' sources (as tests/conftest.py keys the test
    models)."""
    here = Path(__file__).resolve().parent
    return hashlib.sha256(b"".join((here / f).read_bytes()
                                   for f in ("build.py", "large_vocab.py"))).hexdigest()


def ensure_large_vocab(outdir: Path = DEFAULT_DIR) -> Path:
    """`outdir` holding all three models, rebuilt when missing or written by another version
    of the builders."""
    stamp = outdir / STAMP
    if not (stamp.is_file() and stamp.read_text() == builder_stamp()
            and all((outdir / f).is_file() for f in FILES)):
        build_large_vocab(outdir)
    return outdir

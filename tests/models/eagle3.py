"""EAGLE-3 test models: targets with several layers, and draft heads for them.

A head reads the inputs of three target layers. Its encoder `fc` keeps only the first
layer's input, which in a counting target is exactly the one-hot embedding of the word at
that position, so the encoder's output g at position P names the word x_P. The decoder's
attention output is zero; its FFN maps a word's one-hot to the one-hot of the word `step`
later (`step` = 1, or 2 at known positions: the head is wrong there); that pre-norm state
chains to the next draft step, and the counting output head predicts the word after it.
So from (x_{P+1}, g_P) the head proposes x_P + 1 + step: right when step is 1. A drafter that
pairs a token with the wrong position's g is off by one everywhere, which the exact
accept/reject tests see.

Heads: `eagle3-count` borrows the target's token embedding and output (llama.cpp gives it the
target's context as `ctx_other`) and is always right; `eagle3-own` has its own embedding and
output, a wider hidden state (48), and is wrong after every 3rd cycle word; `eagle3-d2t` has
its own output over a reduced draft vocabulary mapped to target ids by `d2t`, and is wrong
after every 4th. `eagle3-dist` proposes from DIST_DRAFT after the word it believes comes next,
for the χ² test of speculative sampling on `dist-target3`. The `eagle3-bad-*` heads are each
wrong in one way the engine must refuse before llama.cpp would abort.
"""

from __future__ import annotations

import os
from pathlib import Path

import gguf
import numpy as np
from build import (
    ATTN_TRACE,
    DIST_DRAFT,
    DIST_TARGET,
    EAGLE3_FILES,
    N_CYCLE,
    N_EMBD,
    N_HEAD,
    OTHER_DIM,
    Tokenizer,
    counting_output,
    distribution_output,
    finish,
    write_llama,
)

TARGET_LAYERS = (0, 2, 3)  # of count-target3's 4 layers: the first is the word's embedding
OWN_WIDTH = 48  # eagle3-own's hidden size, unlike the target's 32
OWN_SKIP_EVERY = 3  # eagle3-own is wrong after cycle index i when (i + 1) % 3 == 0
D2T_SKIP_EVERY = 4
N_DRAFT_VOCAB = 20  # eagle3-d2t's reduced vocabulary
GATE = 20.0  # saturates SiLU, so the FFN passes a one-hot through as a scaled one-hot



def head_step(i: int, skip_every: int) -> int:
    """The word (cycle index) a head's FFN turns word i into."""
    return (i + (2 if skip_every and (i + 1) % skip_every == 0 else 1)) % N_CYCLE


def write_eagle3(
    path: Path, tok: Tokenizer, *, name: str, skip_every: int = 0, width: int = N_EMBD,
    target_width: int = N_EMBD, target_layers: tuple[int, ...] = TARGET_LAYERS,
    own_embedding: bool = False, output: np.ndarray | None = None,
    d2t: np.ndarray | None = None, tokens: list[str] | None = None,
) -> None:
    """An EAGLE-3 head (see the module's docstring). `output` (rows: the draft vocabulary, or
    the target's when there is no `d2t`) is its own output matrix; None borrows the target's.
    `tokens` replaces the tokenizer's token texts (a head made for another vocabulary)."""
    d = width
    rng = np.random.default_rng(7)

    def randn(*shape: int, scale: float = 0.1) -> np.ndarray:
        return (scale * rng.standard_normal(shape)).astype(np.float32)

    tmp = path.with_suffix(f".{os.getpid()}.tmp")
    w = gguf.GGUFWriter(str(tmp), "eagle3")
    w.add_name(name)
    w.add_context_length(4096)
    w.add_embedding_length(d)
    w.add_block_count(1)
    w.add_feed_forward_length(d)
    w.add_head_count(N_HEAD)
    w.add_head_count_kv(N_HEAD)
    w.add_rope_dimension_count(d // N_HEAD)
    w.add_layer_norm_rms_eps(1e-6)
    w.add_array("eagle3.target_layers", list(target_layers))
    w.add_uint32("eagle3.target_hidden_size", target_width)
    w.add_vocab_size(tok.n_vocab)
    w.add_file_type(gguf.LlamaFileType.ALL_F32)
    for key, value, vtype, sub in tok.fields:
        if key == "tokenizer.ggml.tokens" and tokens is not None:
            value = tokens
        w.add_key_value(key, value, vtype, sub)
    if own_embedding:
        w.add_tensor("token_embd.weight", randn(tok.n_vocab, d))
    if output is not None:
        padded = np.zeros((output.shape[0], d), np.float32)
        padded[:, : output.shape[1]] = output
        w.add_tensor("output.weight", padded)
    if d2t is not None:
        w.add_tensor("d2t", d2t.astype(np.int64))
    scale_back = np.full(d, d**-0.5, dtype=np.float32)  # RMSNorm(one-hot) -> the one-hot
    w.add_tensor("output_norm.weight", scale_back)
    # g = the first target layer's input (the word's one-hot), in the first target_width dims
    fc = np.zeros((d, 3 * target_width), np.float32)
    k = min(d, target_width)
    fc[:k, :k] = np.eye(k)
    w.add_tensor("fc.weight", fc)
    p = "blk.0."
    w.add_tensor(p + "attn_norm.weight", np.ones(d, np.float32))
    w.add_tensor(p + "attn_norm_2.weight", np.ones(d, np.float32))
    w.add_tensor(p + "ffn_norm.weight", scale_back.copy())
    for t in ("attn_q", "attn_k", "attn_v"):
        w.add_tensor(p + t + ".weight", randn(d, 2 * d))
    w.add_tensor(p + "attn_output.weight", np.zeros((d, d), np.float32))
    # FFN: one-hot e_i -> e_step(i) - e_i, so the residual g + FFN is e_step(i)
    shift = np.zeros((d, d), np.float32)
    for i in range(N_CYCLE):
        shift[head_step(i, skip_every), i] = 1.0
    shift[OTHER_DIM, OTHER_DIM] = 1.0
    silu = GATE / (1.0 + np.exp(-GATE))
    w.add_tensor(p + "ffn_gate.weight", GATE * np.eye(d, dtype=np.float32))
    w.add_tensor(p + "ffn_up.weight", np.eye(d, dtype=np.float32))
    w.add_tensor(p + "ffn_down.weight", ((shift - np.eye(d)) / silu).astype(np.float32))
    finish(w, tmp, path)


def write_eagle3_token_head(path: Path, tok: Tokenizer, *, name: str) -> None:
    """An EAGLE-3 head that proposes from the *token* of each entry and ignores g: its one
    attention head finds the entries holding the same word as the current one (query and key
    put each word in a RoPE pair of its own, so different words score 0 and the same word
    scores highest at distance 0) and copies a code of that word into the upper half of the
    hidden state; the FFN then cancels g and turns the code of word b into b's one-hot, so the
    counting output proposes b + 1. From (x_{P+1}, g_P) that is x_{P+2}, right exactly when the
    drafter pairs each entry with the token after its position, as llama.cpp does."""
    d, half = N_EMBD, N_EMBD // 2
    n_class = OTHER_DIM + 1  # the cycle words and "any other token"
    tmp = path.with_suffix(f".{os.getpid()}.tmp")
    w = gguf.GGUFWriter(str(tmp), "eagle3")
    w.add_name(name)
    w.add_context_length(4096)
    w.add_embedding_length(d)
    w.add_block_count(1)
    w.add_feed_forward_length(d)
    w.add_head_count(1)
    w.add_head_count_kv(1)
    w.add_rope_dimension_count(d)
    w.add_layer_norm_rms_eps(1e-6)
    w.add_array("eagle3.target_layers", list(TARGET_LAYERS))
    w.add_uint32("eagle3.target_hidden_size", d)
    w.add_vocab_size(tok.n_vocab)
    w.add_file_type(gguf.LlamaFileType.ALL_F32)
    for key, value, vtype, sub in tok.fields:
        w.add_key_value(key, value, vtype, sub)
    w.add_tensor("output_norm.weight", np.full(d, d**-0.5, dtype=np.float32))
    fc = np.zeros((d, 3 * d), np.float32)
    fc[:, :d] = np.eye(d)
    w.add_tensor("fc.weight", fc)
    p = "blk.0."
    w.add_tensor(p + "attn_norm.weight", np.ones(d, np.float32))  # embedding -> sqrt(d) e_x
    w.add_tensor(p + "attn_norm_2.weight", np.ones(d, np.float32))
    # residual g + code: two ones, RMSNorm gives sqrt(d / 2) each; scaled back to 1
    w.add_tensor(p + "ffn_norm.weight", np.full(d, (2 / d) ** 0.5, dtype=np.float32))
    score = 12.0  # q = k = 12 in the word's pair: self scores 144 / sqrt(d) ~ 25 over others
    wq = np.zeros((d, 2 * d), np.float32)
    wv = np.zeros((d, 2 * d), np.float32)
    for c in range(n_class):
        wq[2 * c, c] = score / d**0.5
        wv[half + c, c] = 1 / d**0.5  # the word's code: e_{half + c}
    w.add_tensor(p + "attn_q.weight", wq)
    w.add_tensor(p + "attn_k.weight", wq.copy())
    w.add_tensor(p + "attn_v.weight", wv)
    w.add_tensor(p + "attn_output.weight", np.eye(d, dtype=np.float32))
    down = np.zeros((d, d), np.float32)
    for a in range(n_class):
        down[a, a] = -1.0  # cancel g, whatever word it names
    for b in range(N_CYCLE):
        down[b, half + b] += 1.0
        down[half + b, half + b] -= 1.0
    down[OTHER_DIM, half + OTHER_DIM] += 1.0
    down[half + OTHER_DIM, half + OTHER_DIM] -= 1.0
    silu = GATE / (1.0 + np.exp(-GATE))
    w.add_tensor(p + "ffn_gate.weight", GATE * np.eye(d, dtype=np.float32))
    w.add_tensor(p + "ffn_up.weight", np.eye(d, dtype=np.float32))
    w.add_tensor(p + "ffn_down.weight", (down / silu).astype(np.float32))
    finish(w, tmp, path)


def d2t_vocabulary(tok: Tokenizer) -> np.ndarray:
    """eagle3-d2t's draft vocabulary: the cycle words in reverse order among other tokens, so
    a draft id is never its target id."""
    ids = tok.cycle_ids()
    others = [t for t in range(100, 100 + N_DRAFT_VOCAB) if t not in ids][: N_DRAFT_VOCAB - N_CYCLE]
    return np.array(others[:4] + ids[::-1] + others[4:], np.int64)


def write_qwen2_counting(path: Path, tok: Tokenizer) -> None:
    """A qwen2 model that counts: an architecture whose graph records no layer inputs, so
    llama.cpp cannot feed an EAGLE-3 head from it."""
    write_llama(path, tok, counting_output(tok), name="count-qwen2", n_layer=3, arch="qwen2")


def build_eagle3(outdir: Path, tok: Tokenizer) -> list[Path]:
    count = counting_output(tok)
    write_llama(outdir / "count-target3.gguf", tok, count, name="count-target3", n_layer=4,
                attn_trace=ATTN_TRACE)
    write_llama(outdir / "dist-target3.gguf", tok, distribution_output(tok, DIST_TARGET),
                name="dist-target3", n_layer=3)
    write_qwen2_counting(outdir / "count-qwen2.gguf", tok)
    write_eagle3(outdir / "eagle3-count.gguf", tok, name="eagle3-count")
    write_eagle3_token_head(outdir / "eagle3-token.gguf", tok, name="eagle3-token")
    write_eagle3(outdir / "eagle3-own.gguf", tok, name="eagle3-own", skip_every=OWN_SKIP_EVERY,
                 width=OWN_WIDTH, own_embedding=True, output=count)
    d2t = d2t_vocabulary(tok)
    write_eagle3(outdir / "eagle3-d2t.gguf", tok, name="eagle3-d2t", skip_every=D2T_SKIP_EVERY,
                 output=count[d2t], d2t=d2t)
    write_eagle3(outdir / "eagle3-dist.gguf", tok, name="eagle3-dist", target_layers=(0, 1, 2),
                 output=distribution_output(tok, DIST_DRAFT))
    write_eagle3(outdir / "eagle3-bad-layers.gguf", tok, name="eagle3-bad-layers",
                 target_layers=(0, 2, 4))
    write_eagle3(outdir / "eagle3-bad-hidden.gguf", tok, name="eagle3-bad-hidden",
                 target_width=48)
    write_eagle3(outdir / "eagle3-bad-width.gguf", tok, name="eagle3-bad-width", width=OWN_WIDTH)
    bad = d2t.copy()
    bad[5] = tok.n_vocab + 7
    write_eagle3(outdir / "eagle3-bad-d2t.gguf", tok, name="eagle3-bad-d2t", output=count[d2t],
                 d2t=bad)
    write_eagle3(outdir / "eagle3-bad-d2t-no-output.gguf", tok, name="eagle3-bad-d2t-no-output",
                 d2t=d2t)
    tokens = list(tok.tokens)
    tokens[1000] = tokens[1000] + "x"
    write_eagle3(outdir / "eagle3-bad-vocab.gguf", tok, name="eagle3-bad-vocab", tokens=tokens,
                 own_embedding=True, output=count)
    return [outdir / f for f in EAGLE3_FILES]

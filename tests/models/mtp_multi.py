"""`count-mtp2.gguf`: a counting model with TWO chained NextN (MTP) heads, for the drafter's
several-heads path (one head per draft step, llama.cpp's `chain_heads`).

Architecture `mimo2` (llama.cpp 0.3.36 `src/models/mimo2.cpp`), the simplest one whose MTP
graph selects one of several NextN blocks with `llama_set_nextn_layer_offset`: plain attention
(no recurrent layers), a dense FFN (no experts), a fused `attn_qkv` (the MTP graph requires
it). Its loader needs `expert_feed_forward_length`, `attention.sliding_window` and a per-layer
`attention.sliding_window_pattern` (with at least one sliding layer); the window here is the
whole context, so it never cuts anything off.

Trunk: 2 attention blocks whose FFN output projections are zero and whose attention output
projections are tiny (ATTN_SCALE), so the residual stream (and the NextN hidden row the target
exports) at a position is, up to that small trace of the history, the one-hot embedding of its
token, and the output maps each cycle word to the next: the target counts. The trace is far
too small to change an argmax but shows in the logits, so a KV cache that kept a rejected draft
is caught. The NextN blocks are built the same way.

Heads. A draft step starts from the last token x (cycle index L), which the target has not
decoded yet; the target's next two words are L+1 and L+2.
- head 0 (block 2) reads the token it is given (`eh_proj` passes the token half): it proposes
  L+1, but L+2 when (L + 1) % HEAD_SKIP[0] == 0.
- head 1 (block 3) is given head 0's token and head 0's own hidden row, and reads only the row
  (`eh_proj` passes the hidden half), which is the one-hot of x: it proposes L+2, but L+3
  when (L + 1) % HEAD_SKIP[1] == 0. A drafter that fed head 1 any other row (the target's
  row of the position before, say) would draft another word, so the chaining is checked too.
"""

from __future__ import annotations

import os
from pathlib import Path

import gguf
import numpy as np
from build import (
    MARGIN,
    N_CYCLE,
    N_EMBD,
    N_HEAD,
    OTHER_DIM,
    Tokenizer,
    add_vocabulary_and_head,
    finish,
)

FILE = "count-mtp2.gguf"
HEAD_SKIP = (3, 4)  # head k jumps one word further when (L + 1) % HEAD_SKIP[k] == 0
N_TRUNK = 2
N_NEXTN = 2
N_FF = 64
SWA_PATTERN = (1, 0, 1, 0)  # trunk: sliding, full; NextN blocks: sliding, full
ATTN_SCALE = 0.002  # size of the attention outputs: history shows in the logits, never in argmax


def head_proposal(k: int, last: int) -> int:
    """The cycle index head k drafts in a step whose last token has cycle index `last`."""
    step = k + 1 + (1 if (last + 1) % HEAD_SKIP[k] == 0 else 0)
    return (last + step) % N_CYCLE


def _head_matrix(tok: Tokenizer, k: int) -> np.ndarray:
    ids = tok.cycle_ids()
    out = np.zeros((tok.n_vocab, N_EMBD), dtype=np.float32)
    for i in range(N_CYCLE):
        out[ids[head_proposal(k, i)], i] = MARGIN
    out[ids[0], OTHER_DIM] = MARGIN
    return out


def _counting(tok: Tokenizer) -> np.ndarray:
    ids = tok.cycle_ids()
    out = np.zeros((tok.n_vocab, N_EMBD), dtype=np.float32)
    for i in range(N_CYCLE):
        out[ids[(i + 1) % N_CYCLE], i] = MARGIN
    out[ids[0], OTHER_DIM] = MARGIN
    return out


def write_count_mtp2(outdir: Path, tok: Tokenizer) -> Path:
    path = outdir / FILE
    n_embd, n_head = N_EMBD, N_HEAD
    head_dim = n_embd // n_head
    n_layer = N_TRUNK + N_NEXTN
    rng = np.random.default_rng(2)

    def randn(*shape: int) -> np.ndarray:
        return rng.standard_normal(shape).astype(np.float32)

    tmp = path.with_suffix(f".{os.getpid()}.tmp")
    w = gguf.GGUFWriter(str(tmp), "mimo2")
    w.add_name("count-mtp2")
    w.add_context_length(4096)
    w.add_embedding_length(n_embd)
    w.add_block_count(n_layer)  # NextN blocks are counted in block_count
    w.add_nextn_predict_layers(N_NEXTN)
    w.add_feed_forward_length(N_FF)
    w.add_expert_feed_forward_length(N_FF)  # required by the loader, unused (no experts)
    w.add_head_count(n_head)
    w.add_head_count_kv(n_head)
    w.add_key_length(head_dim)
    w.add_value_length(head_dim)
    w.add_rope_dimension_count(head_dim)
    w.add_layer_norm_rms_eps(1e-6)
    w.add_sliding_window(4096)
    w.add_sliding_window_pattern(list(SWA_PATTERN))
    add_vocabulary_and_head(w, tok, _counting(tok))
    scale_back = np.full(n_embd, n_embd**-0.5, dtype=np.float32)  # RMSNorm(one-hot) -> one-hot
    ones = np.ones(n_embd, dtype=np.float32)

    for b in range(n_layer):
        p = f"blk.{b}."
        w.add_tensor(p + "attn_norm.weight", ones)
        w.add_tensor(p + "ffn_norm.weight", ones)
        w.add_tensor(p + "attn_qkv.weight", randn(3 * n_head * head_dim, n_embd))
        # tiny attention outputs: the residual stream stays (nearly) the block's input, but
        # what a block attended over (a KV cache that kept a rejected draft) shows in the logits
        w.add_tensor(p + "attn_output.weight", ATTN_SCALE * randn(n_embd, n_head * head_dim))
        w.add_tensor(p + "ffn_gate.weight", randn(N_FF, n_embd))
        w.add_tensor(p + "ffn_up.weight", randn(N_FF, n_embd))
        w.add_tensor(p + "ffn_down.weight", np.zeros((n_embd, N_FF), np.float32))

    for k in range(N_NEXTN):
        p = f"blk.{N_TRUNK + k}.nextn."
        eh_proj = np.zeros((n_embd, 2 * n_embd), np.float32)  # input: [enorm(tok); hnorm(row)]
        if k == 0:
            eh_proj[:, :n_embd] = np.eye(n_embd)  # the token
        else:
            eh_proj[:, n_embd:] = np.eye(n_embd)  # the hidden row
        w.add_tensor(p + "eh_proj.weight", eh_proj)
        w.add_tensor(p + "enorm.weight", scale_back)
        w.add_tensor(p + "hnorm.weight", scale_back)
        w.add_tensor(p + "shared_head_norm.weight", scale_back)
        w.add_tensor(p + "shared_head_head.weight", _head_matrix(tok, k))

    finish(w, tmp, path)
    return path

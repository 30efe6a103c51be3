"""Gemma 4 test models: a counting gemma4 target and Gemma 4 assistants (MTP drafters shipped as
files of their own, GGUF architecture `gemma4-assistant`) for it.

`count-gemma4` counts like count-target: two layers (sliding-window, then full attention), the
attention and FFN outputs zero, so its final-norm hidden row at position P (what it hands an
assistant) is exactly the one-hot of the word x_P.

An assistant has no KV cache of its own: its attention reads the target's cache. Each step takes
a token and a hidden row h and returns logits and its own next h. These assistants ignore the
token: `nextn.pre_projection` turns the word c named by h into c + 1 (+2 at known words), the
tied output proposes the word after that, and `nextn.post_projection` hands c + 1 on as the
next h. From (x_n, h_{n-1}), as llama.cpp pairs them, the first proposal is x_{n-1} + 2 =
x_n + 1: right; a drafter that pairs the anchor with another position's row is off everywhere.
`g4-assistant-skip` is wrong after every SKIP_EVERY-th cycle word; `g4-assistant-wide` was made
for a 48-wide target. `dist-gemma4` and `g4-assistant-dist` are the distribution pair (as
dist-target and dist-draft) for the χ² test of speculative sampling.
"""

from __future__ import annotations

import os
from pathlib import Path

import gguf
import numpy as np
from build import (
    DIST_DRAFT,
    DIST_TARGET,
    GEMMA4_FILES,
    MARGIN,
    N_CYCLE,
    N_EMBD,
    OTHER_DIM,
    Tokenizer,
    counting_output,
    distribution_output,
    finish,
    one_hot_embeddings,
)

HEAD_DIM, N_HEADS = 16, 2
ASSISTANT_WIDTH = 16
SKIP_EVERY = 3  # g4-assistant-skip turns word c into c + 2 when (c + 1) % 3 == 0


def assistant_step(c: int, skip_every: int = 0) -> int:
    """The word an assistant's state moves to from word c."""
    return (c + (2 if skip_every and (c + 1) % skip_every == 0 else 1)) % N_CYCLE


def _start(path: Path, tok: Tokenizer, arch: str, n_embd: int, pattern: list[bool]
           ) -> tuple[gguf.GGUFWriter, Path]:
    tmp = path.with_suffix(f".{os.getpid()}.tmp")
    w = gguf.GGUFWriter(str(tmp), arch)
    w.add_name(path.stem)
    w.add_context_length(4096)
    w.add_embedding_length(n_embd)
    w.add_block_count(len(pattern))
    w.add_feed_forward_length(n_embd)
    w.add_head_count(N_HEADS)
    w.add_head_count_kv(N_HEADS)
    w.add_key_length(HEAD_DIM)
    w.add_value_length(HEAD_DIM)
    w.add_uint32(f"{arch}.attention.key_length_swa", HEAD_DIM)
    w.add_uint32(f"{arch}.attention.value_length_swa", HEAD_DIM)
    w.add_rope_dimension_count(HEAD_DIM)
    w.add_uint32(f"{arch}.rope.dimension_count_swa", HEAD_DIM)
    w.add_float32(f"{arch}.rope.freq_base", 10000.0)
    w.add_float32(f"{arch}.rope.freq_base_swa", 10000.0)
    w.add_uint32(f"{arch}.attention.sliding_window", 512)
    w.add_array(f"{arch}.attention.sliding_window_pattern", pattern)
    w.add_layer_norm_rms_eps(1e-6)
    w.add_vocab_size(tok.n_vocab)
    w.add_file_type(gguf.LlamaFileType.ALL_F32)
    for key, value, vtype, sub in tok.fields:
        w.add_key_value(key, value, vtype, sub)
    return w, tmp


def _layer(w: gguf.GGUFWriter, i: int, d: int, rng: np.random.Generator, *, kv: bool) -> None:
    p = f"blk.{i}."
    for name in ("attn_norm", "post_attention_norm", "ffn_norm", "post_ffw_norm"):
        w.add_tensor(p + name + ".weight", np.ones(d, np.float32))
    names = ("attn_q", "attn_k", "attn_v") if kv else ("attn_q",)
    for name in names:
        w.add_tensor(p + name + ".weight",
                     rng.standard_normal((N_HEADS * HEAD_DIM, d)).astype(np.float32))
    w.add_tensor(p + "attn_output.weight", np.zeros((d, N_HEADS * HEAD_DIM), np.float32))
    w.add_tensor(p + "attn_q_norm.weight", np.ones(HEAD_DIM, np.float32))
    if kv:
        w.add_tensor(p + "attn_k_norm.weight", np.ones(HEAD_DIM, np.float32))
    else:
        w.add_tensor(p + "layer_output_scale.weight", np.ones(1, np.float32))
    for name in ("ffn_gate", "ffn_up", "ffn_down"):
        w.add_tensor(p + name + ".weight", np.zeros((d, d), np.float32))


def write_gemma4_target(path: Path, tok: Tokenizer, output: np.ndarray) -> None:
    w, tmp = _start(path, tok, "gemma4", N_EMBD, [True, False])
    w.add_uint32("gemma4.embedding_length_per_layer_input", 0)
    w.add_float32("gemma4.final_logit_softcapping", 0.0)  # exact logits (llama.cpp's default: 30)
    w.add_tensor("token_embd.weight", one_hot_embeddings(tok))  # scaled by sqrt(32) in-graph
    w.add_tensor("output.weight", output)
    w.add_tensor("output_norm.weight", np.full(N_EMBD, N_EMBD**-0.5, np.float32))
    rng = np.random.default_rng(11)
    for i in range(2):
        _layer(w, i, N_EMBD, rng, kv=True)
    w.add_tensor("rope_freqs.weight", np.ones(HEAD_DIM // 2, np.float32))
    finish(w, tmp, path)


def write_assistant(path: Path, tok: Tokenizer, *, skip_every: int = 0,
                    backbone: int = N_EMBD, dist: tuple[float, ...] | None = None) -> None:
    """An assistant (see the module's docstring); with `dist`, after word c it proposes
    word c + 1 + j with probability dist[j] (a q unlike dist-gemma4's p, for the χ² test)."""
    a = ASSISTANT_WIDTH
    w, tmp = _start(path, tok, "gemma4-assistant", a, [True, False])
    w.add_uint32("gemma4-assistant.embedding_length_out", backbone)
    w.add_uint32("gemma4-assistant.nextn_predict_layers", 2)
    ids = tok.cycle_ids()
    tied = np.zeros((tok.n_vocab, a), np.float32)  # RMSNorm makes a one-hot 4 long
    if dist is not None:
        tied[:, : OTHER_DIM + 1] = distribution_output(tok, dist)[:, : OTHER_DIM + 1] / 4
    else:
        for i in range(N_CYCLE):
            tied[ids[(i + 1) % N_CYCLE], i] = MARGIN / 4
        tied[ids[0], OTHER_DIM] = MARGIN / 4
    w.add_tensor("token_embd.weight", tied)
    w.add_tensor("output_norm.weight", np.ones(a, np.float32))
    pre = np.zeros((a, 2 * backbone), np.float32)  # [token embedding; h] -> the next word
    for c in range(N_CYCLE):
        pre[assistant_step(c, skip_every), backbone + c] = 1.0
    pre[OTHER_DIM, backbone + OTHER_DIM] = 1.0
    w.add_tensor("nextn.pre_projection.weight", pre)
    post = np.zeros((backbone, a), np.float32)
    post[: OTHER_DIM + 1, : OTHER_DIM + 1] = np.eye(OTHER_DIM + 1)
    w.add_tensor("nextn.post_projection.weight", post)
    rng = np.random.default_rng(12)
    for i in range(2):
        _layer(w, i, a, rng, kv=False)
    w.add_tensor("rope_freqs.weight", np.ones(HEAD_DIM // 2, np.float32))
    finish(w, tmp, path)


def build_gemma4(outdir: Path, tok: Tokenizer) -> list[Path]:
    write_gemma4_target(outdir / "count-gemma4.gguf", tok, counting_output(tok))
    write_gemma4_target(outdir / "dist-gemma4.gguf", tok, distribution_output(tok, DIST_TARGET))
    write_assistant(outdir / "g4-assistant.gguf", tok)
    write_assistant(outdir / "g4-assistant-skip.gguf", tok, skip_every=SKIP_EVERY)
    write_assistant(outdir / "g4-assistant-wide.gguf", tok, backbone=48)
    write_assistant(outdir / "g4-assistant-dist.gguf", tok, dist=DIST_DRAFT)
    return [outdir / f for f in GEMMA4_FILES]

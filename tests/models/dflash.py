"""DFlash test models: block-drafting heads for count-target3 (eagle3.py writes it).

A DFlash head (GGUF architecture `dflash`) drafts a whole block in one decode: the anchor (the
last token, which the target has not decoded yet) at position n, then mask tokens at n+1..;
the output of block row i proposes the token at n+i. Its KV cache holds, at each earlier
position, K/V made from the target's layer inputs there (llama.cpp "injects" them).

Here every block row i >= 1 reads the anchor through attention head i alone: a head's key is
non-zero only on a cycle word (the anchor; mask tokens and the injected target features give
zero keys and values), and its query, on a mask token, scores the anchor through one RoPE pair
(angle 1 rad per position) plus a constant, A cos(r - i) - C with r the row's distance to the
anchor: +46 at r = i, below -46 elsewhere. Head i's value is the one-hot of the word i - 1
after the anchor, and the target's counting output (borrowed through `ctx_other`) then
proposes the word i after it: right. `dflash-skip` is wrong at block row WRONG_ROW (it
proposes one word further there), so each full draft is accepted up to row WRONG_ROW - 1.
A drafter that puts the anchor elsewhere than at row 0, or drafts with causal or shifted
positions, proposes other words, which the exact tests see.

`dspark-count` and `dspark-doubt` are DSpark heads (a Markov head, all zero here): the block is
anchor-first, the anchor's own row proposing the word after it (its query reads nothing, so
its own word passes through) and row i the word i + 1 after it; `dspark-doubt` has a
confidence head that doubts the rows whose state names DOUBT_WORD.

The `dflash-bad-*` heads do not fit count-target3 in one way each that llama.cpp would abort
on (or draft garbage from): a target layer it does not have, another hidden size, another
vocabulary, no mask token.
"""

from __future__ import annotations

import os
from pathlib import Path

import gguf
import numpy as np
from build import (
    DFLASH_FILES,
    N_CYCLE,
    N_EMBD,
    OTHER_DIM,
    Tokenizer,
    counting_output,
    finish,
    one_hot_embeddings,
)

BLOCK_SIZE = 6  # anchor + 5 masks: up to 5 drafted tokens per pass
TARGET_LAYERS = (0, 3)  # of count-target3's 4 layers
WRONG_ROW = 3  # dflash-skip proposes one word too far at this block row
HEAD_DIM = 16
MASK_TOKEN = 2  # any token that is no cycle word: its embedding is the "other" one-hot
FEATURE_DIM0 = 16  # the target's features land in dims 16.., away from the token one-hots
SCORE_A, SCORE_C = 200.0, 154.0  # A cos(r - i) - C: +46 at r = i, <= -46 elsewhere (|r-i|<=4)
MARKOV_RANK = 4
DOUBT_WORD = 5  # dspark-doubt's confidence head doubts the rows whose state names " five"
VALUE_GAIN = 10.0  # the read word outweighs a mask row's own "other" embedding



def proposed_row(anchor: int, row: int, *, wrong_row: int = 0, dspark: bool = False) -> int:
    """The cycle index a head proposes at block row `row` after the anchor word (row 0 is
    the anchor's own: it drafts only in a DSpark block)."""
    ahead = row + (1 if dspark else 0) + (1 if wrong_row and row == wrong_row else 0)
    return (anchor + ahead) % N_CYCLE


def write_dflash(
    path: Path, tok: Tokenizer, *, name: str, wrong_row: int = 0, width: int = N_EMBD,
    target_layers: tuple[int, ...] = TARGET_LAYERS, block_size: int = BLOCK_SIZE,
    mask_token: int | None = MASK_TOKEN, tokens: list[str] | None = None,
    dspark: bool = False, doubt_word: int | None = None,
) -> None:
    """A DFlash head (see the module's docstring); `tokens` gives it an embedding and output
    of its own over those token texts (a head made for another vocabulary). `dspark` adds a
    Markov head (all zero: it biases nothing) and makes the block anchor-first: row i proposes
    the word i + 1 after the anchor, the anchor's own row the next one. `doubt_word` adds a
    confidence head that is sure (0.95) of every row but those whose hidden state names that
    word (about 0): a drafter that heeds it never proposes the word after it."""
    d, n_head, hd = width, block_size - 1, HEAD_DIM
    tmp = path.with_suffix(f".{os.getpid()}.tmp")
    w = gguf.GGUFWriter(str(tmp), "dflash")
    w.add_name(name)
    w.add_context_length(4096)
    w.add_embedding_length(d)
    w.add_block_count(1)
    w.add_feed_forward_length(d)
    w.add_head_count(n_head)
    w.add_head_count_kv(n_head)
    w.add_key_length(hd)
    w.add_value_length(hd)
    w.add_rope_dimension_count(2)  # one RoPE pair, at 1 rad per position
    w.add_layer_norm_rms_eps(1e-6)
    w.add_float32("dflash.attention.scale", 1.0)
    w.add_array("dflash.target_layers", list(target_layers))
    w.add_uint32("dflash.block_size", block_size)
    w.add_bool("dflash.attention.causal", False)
    if dspark:
        w.add_bool("dflash.sample_from_anchor", True)
        w.add_bool("dflash.has_confidence_head", doubt_word is not None)
    w.add_vocab_size(tok.n_vocab)
    w.add_file_type(gguf.LlamaFileType.ALL_F32)
    for key, value, vtype, sub in tok.fields:
        if key == "tokenizer.ggml.tokens" and tokens is not None:
            value = tokens
        w.add_key_value(key, value, vtype, sub)
    if mask_token is not None:
        w.add_uint32("tokenizer.ggml.mask_token_id", mask_token)
    if tokens is not None:
        w.add_tensor("token_embd.weight", one_hot_embeddings(tok, d))
        out = np.zeros((tok.n_vocab, d), np.float32)
        out[:, :N_EMBD] = counting_output(tok)
        w.add_tensor("output.weight", out)
    # g = the first target layer's input (the word's one-hot), moved to dims 16..
    n_feat = min(OTHER_DIM + 1, d - FEATURE_DIM0)
    fc = np.zeros((d, len(target_layers) * d), np.float32)
    fc[FEATURE_DIM0 : FEATURE_DIM0 + n_feat, :n_feat] = np.eye(n_feat)
    w.add_tensor("fc.weight", fc)
    w.add_tensor("enc.output_norm.weight", np.ones(d, np.float32))
    w.add_tensor("output_norm.weight", np.ones(d, np.float32))
    p = "blk.0."
    w.add_tensor(p + "attn_norm.weight", np.ones(d, np.float32))
    w.add_tensor(p + "ffn_norm.weight", np.ones(d, np.float32))
    # RMSNorm makes q and k of length sqrt(hd) whatever their scale: the norms' weights set it.
    # q = (cos(-i), sin(-i), -1) on a mask token, (0, 0, -1) on a cycle word (the anchor's
    # row then reads nothing, and proposes from its own word); k = (1, 0, 1) on a cycle word.
    wq = np.zeros((n_head * hd, d), np.float32)
    wk = np.zeros((n_head * hd, d), np.float32)
    wv = np.zeros((n_head * hd, d), np.float32)
    wo = np.zeros((d, n_head * hd), np.float32)
    for h in range(n_head):
        row, base = h + 1, h * hd
        wq[base + 0, OTHER_DIM] = np.cos(-row)
        wq[base + 1, OTHER_DIM] = np.sin(-row)
        wq[base + 2, OTHER_DIM] = -1.0
        shift = row - 1 + (1 if row == wrong_row else 0) + (1 if dspark else 0)
        for c in range(N_CYCLE):
            wq[base + 2, c] = -1.0
            wk[base + 0, c] = 1.0
            wk[base + 2, c] = 1.0
            wv[base + (c + shift) % N_CYCLE, c] = d**-0.5  # undoes attn_norm's sqrt(d)
        for j in range(N_CYCLE):
            wo[j, base + j] = VALUE_GAIN
    # q and k each have two unit entries of hd: RMSNorm scales them by sqrt(hd / 2), so
    # q.k = (hd / 2) (alpha cos(r - i) - beta)
    alpha, beta = SCORE_A / (hd / 2), SCORE_C / (hd / 2)
    q_norm = np.zeros(hd, np.float32)
    q_norm[:2], q_norm[2] = alpha, beta
    w.add_tensor(p + "attn_q.weight", wq)
    w.add_tensor(p + "attn_k.weight", wk)
    w.add_tensor(p + "attn_v.weight", wv)
    w.add_tensor(p + "attn_output.weight", wo)
    w.add_tensor(p + "attn_q_norm.weight", q_norm)
    w.add_tensor(p + "attn_k_norm.weight", np.ones(hd, np.float32))
    w.add_tensor(p + "ffn_gate.weight", np.zeros((d, d), np.float32))
    w.add_tensor(p + "ffn_up.weight", np.zeros((d, d), np.float32))
    w.add_tensor(p + "ffn_down.weight", np.zeros((d, d), np.float32))
    if dspark:
        w.add_tensor("markov_w1.weight", np.zeros((tok.n_vocab, MARKOV_RANK), np.float32))
        w.add_tensor("markov_w2.weight", np.zeros((tok.n_vocab, MARKOV_RANK), np.float32))
        if doubt_word is not None:
            # conf = sigmoid(proj . [the row's final hidden; markov_w1[prev]] + bias); the
            # hidden holds about 5.7 at the dim of its word
            proj = np.zeros((1, d + MARKOV_RANK), np.float32)
            proj[0, doubt_word] = -20.0
            w.add_tensor("conf_proj.weight", proj)
            w.add_tensor("conf_proj.bias", np.array([3.0], np.float32))
    finish(w, tmp, path)


def build_dflash(outdir: Path, tok: Tokenizer) -> list[Path]:
    """The DFlash heads (their targets, count-target3 and dist-target3, are eagle3.py's).
    `dflash-dist` proposes from dist-target3's own output (borrowed), sharpened by the scale
    of its state: a q unlike p, for the χ² test of speculative sampling."""
    write_dflash(outdir / "dflash-count.gguf", tok, name="dflash-count")
    write_dflash(outdir / "dflash-skip.gguf", tok, name="dflash-skip", wrong_row=WRONG_ROW)
    write_dflash(outdir / "dflash-bad-layers.gguf", tok, name="dflash-bad-layers",
                 target_layers=(0, 4))
    write_dflash(outdir / "dflash-bad-width.gguf", tok, name="dflash-bad-width", width=48)
    tokens = list(tok.tokens)
    tokens[1000] = tokens[1000] + "x"
    write_dflash(outdir / "dflash-bad-vocab.gguf", tok, name="dflash-bad-vocab", tokens=tokens)
    write_dflash(outdir / "dflash-no-mask.gguf", tok, name="dflash-no-mask", mask_token=None)
    write_dflash(outdir / "dspark-count.gguf", tok, name="dspark-count", dspark=True)
    write_dflash(outdir / "dspark-doubt.gguf", tok, name="dspark-doubt", dspark=True,
                 doubt_word=DOUBT_WORD)
    write_dflash(outdir / "dflash-dist.gguf", tok, name="dflash-dist", target_layers=(0, 2))
    return [outdir / f for f in DFLASH_FILES]

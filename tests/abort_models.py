"""GGUF files that pass Draftlight's own validation yet make llama.cpp abort the process.

llama.cpp checks many invariants with GGML_ASSERT, which ends the process (SIGABRT) instead
of returning an error; each release adds some, and the app opens files from the internet.
These files let the tests prove that such an abort is a message, not a vanished window.
"""

from __future__ import annotations

import os
from pathlib import Path

import gguf
import numpy as np

from tests.models.build import Tokenizer, finish, smollm2_path

# The target the head below fits (tests/models/eagle3.py): hidden size 32, 4 layers.
ABORT_TARGET = "count-target3.gguf"


def write_eagle3_two_blocks(path: Path) -> Path:
    """An EAGLE-3 draft head with two decoder blocks: llama.cpp's graph for `eagle3` asserts
    exactly one (`GGML_ASSERT(n_layer == 1)` in src/models/eagle3.cpp), so building a context
    for it aborts. Everything else is a well-formed head for ABORT_TARGET (own embedding and
    output), and Draftlight's own checks of a head (backend/models/eagle3.py) let this one
    through on purpose: chosen as ABORT_TARGET's draft with spec type EAGLE-3, it is what
    slips past them and must be caught by the engine process boundary. (Opened as a target,
    any EAGLE-3 head is refused in words before llama.cpp sees it.)"""
    tok = Tokenizer(smollm2_path())
    d, n_head, n_ff, n_layer = 32, 2, 64, 2
    rng = np.random.default_rng(0)

    def randn(*shape: int) -> np.ndarray:
        return (0.02 * rng.standard_normal(shape)).astype(np.float32)

    tmp = path.with_suffix(f".{os.getpid()}.tmp")
    w = gguf.GGUFWriter(str(tmp), "eagle3")
    w.add_name("eagle3 with two blocks")
    w.add_context_length(4096)
    w.add_embedding_length(d)
    w.add_block_count(n_layer)
    w.add_feed_forward_length(n_ff)
    w.add_head_count(n_head)
    w.add_head_count_kv(n_head)
    w.add_rope_dimension_count(d // n_head)
    w.add_layer_norm_rms_eps(1e-5)
    w.add_array("eagle3.target_layers", [0, 1, 2])
    w.add_uint32("eagle3.target_hidden_size", d)
    w.add_vocab_size(tok.n_vocab)
    w.add_file_type(gguf.LlamaFileType.ALL_F32)
    for key, value, vtype, sub in tok.fields:
        w.add_key_value(key, value, vtype, sub)
    w.add_tensor("token_embd.weight", randn(tok.n_vocab, d))
    w.add_tensor("output.weight", randn(tok.n_vocab, d))
    w.add_tensor("output_norm.weight", np.ones(d, np.float32))
    w.add_tensor("fc.weight", randn(d, 3 * d))
    for b in range(n_layer):
        p = f"blk.{b}."
        for t in ("attn_norm", "attn_norm_2", "ffn_norm"):
            w.add_tensor(p + t + ".weight", np.ones(d, np.float32))
        for t in ("attn_q", "attn_k", "attn_v"):
            w.add_tensor(p + t + ".weight", randn(d, 2 * d))
        w.add_tensor(p + "attn_output.weight", randn(d, d))
        w.add_tensor(p + "ffn_gate.weight", randn(n_ff, d))
        w.add_tensor(p + "ffn_up.weight", randn(n_ff, d))
        w.add_tensor(p + "ffn_down.weight", randn(d, n_ff))
    finish(w, tmp, path)
    return path

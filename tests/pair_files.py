"""GGUF files that a pair finder must tell apart by their header alone, made from the test
models: one whose vocabulary differs from the target's at one token only, and one with
another vocabulary size (and otherwise the same tokenizer facts)."""

from __future__ import annotations

import struct
from pathlib import Path

import gguf
import numpy as np

from backend.models.gguf_header import read_header
from backend.models.inspection import inspect_model


def token_changed(data: bytes, from_id: int) -> tuple[bytes, int]:
    """`data` (a whole GGUF file) with the last letter of one token's text changed, keeping
    every length: the same vocabulary size, one token that differs. The token is the first
    from `from_id` on whose text ends in an ASCII letter; its id is returned too."""
    tokens = read_header(data).value("tokenizer.ggml.tokens")
    pos, token_id = tokens.start, 0
    while True:
        length = struct.unpack_from("<Q", data, pos)[0]
        last = pos + 8 + length - 1
        if token_id >= from_id and length and chr(data[last]).isascii() \
                and chr(data[last]).isalpha():
            break
        pos, token_id = pos + 8 + length, token_id + 1
    changed = b"q" if data[last : last + 1] != b"q" else b"z"
    return data[:last] + changed + data[last + 1 :], token_id


def smaller_vocabulary(like: Path, n_tokens: int, path: Path) -> Path:
    """A tiny llama GGUF with the first `n_tokens` of `like`'s tokens and its BOS/EOS facts."""
    vocab = inspect_model(like).vocab
    w = gguf.GGUFWriter(path, "llama")
    w.add_name(path.stem)
    w.add_tokenizer_model("gpt2")
    w.add_token_list(list(vocab.tokens[:n_tokens]))
    w.add_bos_token_id(vocab.bos_id)
    w.add_eos_token_id(vocab.eos_id)
    w.add_add_bos_token(vocab.add_bos)
    w.add_add_eos_token(vocab.add_eos)
    w.add_tensor("token_embd.weight", np.zeros((n_tokens, 32), dtype=np.float32))
    w.write_header_to_file()
    w.write_kv_data_to_file()
    w.write_tensors_to_file()
    w.close()
    return path

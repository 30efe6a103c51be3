"""Tiny GGUF files written byte by byte, valid or broken in one precise way.

`build()` writes a small but complete llama-architecture GGUF; its keyword arguments break
one thing at a time. `CORPUS` lists the broken files with a phrase the error must contain.
Run as a script (`python tests/gguf_corpus.py`), it inspects every case and prints one JSON
line per case, so a test can prove that no case crashes the process.
"""

from __future__ import annotations

import json
import struct
import sys
from collections.abc import Callable
from pathlib import Path

UINT32, INT32, STRING, ARRAY, UINT64 = 4, 5, 8, 9, 10
F32, Q8_0 = 0, 8


def s(text: str | bytes) -> bytes:
    raw = text.encode() if isinstance(text, str) else text
    return struct.pack("<Q", len(raw)) + raw


def kv_u32(key: str, value: int) -> bytes:
    return s(key) + struct.pack("<II", UINT32, value)


def kv_str(key: str, value: str) -> bytes:
    return s(key) + struct.pack("<I", STRING) + s(value)


def kv_strings(key: str, values: list[str]) -> bytes:
    return s(key) + struct.pack("<IIQ", ARRAY, STRING, len(values)) + b"".join(map(s, values))


def tensor(name: str | bytes, shape: list[int], ggml_type: int, offset: int) -> bytes:
    dims = struct.pack(f"<{len(shape)}Q", *shape)
    return s(name) + struct.pack("<I", len(shape)) + dims + struct.pack("<IQ", ggml_type, offset)


TOKENS = ["<s>", "</s>", "a", "b", "c", "d", "e", "f"]


def base_kvs(tokenizer: str = "gpt2", tokens: list[str] | None = None) -> list[bytes]:
    return [
        kv_str("general.architecture", "llama"),
        kv_str("general.name", "tiny"),
        kv_u32("general.file_type", 0),
        kv_u32("llama.context_length", 64),
        kv_u32("llama.block_count", 1),
        kv_u32("llama.embedding_length", 8),
        kv_u32("llama.attention.head_count", 2),
        kv_str("tokenizer.ggml.model", tokenizer),
        kv_strings("tokenizer.ggml.tokens", tokens or TOKENS),
        kv_u32("tokenizer.ggml.bos_token_id", 0),
        kv_u32("tokenizer.ggml.eos_token_id", 1),
    ]


def base_tensors() -> list[bytes]:
    return [
        tensor("token_embd.weight", [8, len(TOKENS)], F32, 0),
        tensor("output_norm.weight", [8], F32, 8 * len(TOKENS) * 4),
    ]


DATA_SIZE = 8 * len(TOKENS) * 4 + 32


def build(
    *,
    magic: bytes = b"GGUF",
    version: int = 3,
    version_fmt: str = "<I",
    kvs: list[bytes] | None = None,
    tensors: list[bytes] | None = None,
    n_kv: int | None = None,
    n_tensors: int | None = None,
    data_size: int | None = None,
    alignment: int = 32,
) -> bytes:
    kvs = base_kvs() if kvs is None else kvs
    tensors = base_tensors() if tensors is None else tensors
    head = magic + struct.pack(version_fmt, version)
    head += struct.pack(
        "<QQ", len(tensors) if n_tensors is None else n_tensors, len(kvs) if n_kv is None else n_kv
    )
    body = head + b"".join(kvs) + b"".join(tensors)
    body += b"\0" * (-len(body) % alignment)
    return body + b"\x01" * (DATA_SIZE if data_size is None else data_size)


def _with_kv(extra: bytes) -> bytes:
    return build(kvs=[*base_kvs(), extra])


def _replace_kv(key: str, new: bytes) -> bytes:
    kvs = [kv for kv in base_kvs() if not kv.startswith(s(key))]
    return build(kvs=[*kvs, new])


def _truncated_in_kv() -> bytes:
    whole = build()
    return whole[: 24 + len(b"".join(base_kvs()[:3])) + 5]


CORPUS: dict[str, tuple[Callable[[], bytes], str]] = {
    "empty file": (lambda: b"", "empty"),
    "truncated header": (lambda: build()[:10], "too short"),
    "bad magic": (lambda: build(magic=b"GGUX"), "not a GGUF file"),
    "legacy GGJT magic": (lambda: build(magic=b"tjgg"), "old GGJT format"),
    "safetensors file": (
        lambda: b'\x10\x00\x00\x00\x00\x00\x00\x00{"a": 1}' + b" " * 40,
        "not a GGUF",
    ),
    "version 1": (lambda: build(version=1), "version 1"),
    "future version": (lambda: build(version=99), "version 99"),
    "big-endian": (lambda: build(version_fmt=">I"), "big-endian"),
    "absurd tensor count": (lambda: build(n_tensors=2**40), "claims 1,099,511,627,776 tensors"),
    "absurd metadata count": (lambda: build(n_kv=2**60), "metadata entries"),
    "absurd key length": (
        lambda: build(kvs=[struct.pack("<Q", 2**62) + b"xx", *base_kvs()]),
        "past the end",
    ),
    "key not UTF-8": (lambda: _with_kv(s(b"\xff\xfe") + struct.pack("<II", UINT32, 1)), "UTF-8"),
    "bad value type": (lambda: _with_kv(s("x.y") + struct.pack("<II", 99, 1)), "not a GGUF value"),
    "bad array element type": (
        lambda: _with_kv(s("x.y") + struct.pack("<IIQ", ARRAY, 77, 1) + b"\0" * 8),
        "not a GGUF value",
    ),
    "array of arrays": (
        lambda: _with_kv(s("x.y") + struct.pack("<IIQ", ARRAY, ARRAY, 1)),
        "array of arrays",
    ),
    "absurd array length": (
        lambda: _with_kv(s("x.y") + struct.pack("<IIQ", ARRAY, UINT32, 2**61)),
        "claims",
    ),
    "absurd string value length": (
        lambda: _with_kv(s("x.y") + struct.pack("<IQ", STRING, 2**50)),
        "past the end",
    ),
    "duplicate key": (lambda: _with_kv(kv_str("general.name", "again")), "appears twice"),
    "truncated inside metadata": (_truncated_in_kv, "ends inside its header"),
    "too many dimensions": (
        lambda: build(tensors=[tensor("t", [1] * 7, F32, 0)]),
        "dimensions",
    ),
    "bad tensor type": (lambda: build(tensors=[tensor("t", [8], 200, 0)]), "not a ggml tensor"),
    "misaligned tensor offset": (
        lambda: build(tensors=[base_tensors()[0], tensor("output_norm.weight", [8], F32, 260)]),
        "alignment",
    ),
    "overlapping tensors": (
        lambda: build(tensors=[base_tensors()[0], tensor("output_norm.weight", [8], F32, 0)]),
        "the tensors before it end",
    ),
    "tensor data past end of file": (lambda: build(data_size=100), "truncated"),
    # the data ends exactly where the last tensor does: 3 bytes short is an incomplete file
    "last tensor cut by 3 bytes": (lambda: build(data_size=DATA_SIZE - 3), "truncated"),
    "impossible shape": (
        lambda: build(tensors=[tensor("t", [2**62, 2**62], F32, 0)]),
        "impossible shape",
    ),
    "tensor name too long": (
        lambda: build(tensors=[tensor("x" * 80, [8], F32, 0)], data_size=32),
        "at most 63",
    ),
    "duplicate tensor name": (
        lambda: build(tensors=[tensor("t", [8], F32, 0), tensor("t", [8], F32, 32)], data_size=64),
        "both named",
    ),
    "row not a whole number of blocks": (
        lambda: build(tensors=[tensor("t", [7, 2], Q8_0, 0)], data_size=64),
        "not a multiple",
    ),
    "alignment not a power of two": (
        lambda: _with_kv(kv_u32("general.alignment", 3)),
        "power of two",
    ),
    "no architecture": (
        lambda: build(
            kvs=[kv for kv in base_kvs() if not kv.startswith(s("general.architecture"))]
        ),
        "general.architecture",
    ),
    "no tensors": (lambda: build(tensors=[], data_size=0), "no tensors"),
    "tokens not strings": (
        lambda: _replace_kv(
            "tokenizer.ggml.tokens",
            s("tokenizer.ggml.tokens") + struct.pack("<IIQ", ARRAY, INT32, 2) + b"\0" * 8,
        ),
        "not a list of strings",
    ),
    "eos id outside vocabulary": (
        lambda: _replace_kv(
            "tokenizer.ggml.eos_token_id", kv_u32("tokenizer.ggml.eos_token_id", 999)
        ),
        "outside",
    ),
    "unknown tokenizer": (
        lambda: _replace_kv("tokenizer.ggml.model", kv_str("tokenizer.ggml.model", "klingon")),
        "not one llama.cpp knows",
    ),
    "context length is text": (
        lambda: _replace_kv("llama.context_length", kv_str("llama.context_length", "long")),
        "not a whole number",
    ),
}


def write_corpus(folder: Path) -> dict[str, Path]:
    folder.mkdir(parents=True, exist_ok=True)
    paths = {}
    for i, (name, (make, _)) in enumerate(CORPUS.items()):
        path = folder / f"case-{i:02d}.gguf"
        path.write_bytes(make())
        paths[name] = path
    return paths


def main(folder: str) -> int:
    """Inspect every case in a fresh process; print {"case", "error"} per line."""
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
    from backend.models.inspection import ModelFileError, inspect_model

    for name, path in write_corpus(Path(folder)).items():
        try:
            inspect_model(path)
            error = None
        except ModelFileError as exc:
            error = str(exc)
        print(json.dumps({"case": name, "error": error}), flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1]))

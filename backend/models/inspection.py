"""What a GGUF model is, read from its header without loading it into llama.cpp.

`validate_gguf` is the check the engine runs before loading a model: llama.cpp reports every
broken file as "Failed to load model from file", while this says what is wrong with it.
`inspect_model` runs the same checks and also returns the facts the UI shows and pairs by.
"""

from __future__ import annotations

import hashlib
import mmap
import os
import re
import stat
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

from gguf.constants import GGMLQuantizationType, GGUFValueType

from backend.models.eagle3 import ARCHITECTURE as EAGLE3
from backend.models.eagle3 import Eagle3Head, read_head
from backend.models.gguf_header import ArrayRef, GGUFHeader, ModelFileError, read_header
from backend.models.naming import quantization_from_file_type, split_name
from backend.models.tokens import GGUFTokens
from backend.models.vocab import VocabInfo
from backend.words import words

__all__ = [
    "ModelFileError",
    "ModelInspection",
    "inspect_model",
    "kv_bytes_per_token",
    "validate_gguf",
]

# What is wrong with a model file, as templates (backend/words.py).
IN_FILE = "{name}: {error}"
NOT_FIRST_PART = ("{name} is part {number} of a {n_parts}-part model; open the first part "
                  "({first}) instead.")
FIRST_PART_NUMBERED = "the part numbered 00001"
FIRST_PART_MISNAMED = ("{name} is the first of {n_parts} parts, but its name does not end in "
                       "{ending}, so llama.cpp cannot find the other parts.")
PART_MISSING = "Part {n} of {n_parts} of this model ({name}) is missing."
PART_NOT_SAID = "{name} does not say it is part {n} of {n_parts}."
IS_FOLDER = "{path} is a folder, not a model file."
DOES_NOT_EXIST = "{path} does not exist."
CANNOT_READ = "Cannot read {path}: {error}."
NOT_A_FILE = "{path} is not a model file but a device, a pipe or a socket."
NO_ARCHITECTURE = "It has no general.architecture, so llama.cpp cannot load it."
NO_TENSORS = "It contains no tensors (a vocabulary-only file?), so it is no model."
UNKNOWN_TOKENIZER = "Its tokenizer type {model} is not one llama.cpp knows."
TOKENS_NOT_STRINGS = "Its tokenizer.ggml.tokens is not a list of strings."
NO_TOKENS = "Its tokenizer ({model}) has no tokens."
BOS_OUTSIDE = ("Its beginning-of-sequence token id {id} is outside its {n:,}-token "
               "vocabulary.")
EOS_OUTSIDE = "Its end-of-sequence token id {id} is outside its {n:,}-token vocabulary."
NOT_WHOLE_NUMBER = "Its {key} is {value}, not a whole number."
NOT_TRUE_OR_FALSE = "Its {key} is {value}, not true or false."
NOT_TEXT = "Its {key} is not text."

# tokenizer.ggml.model → llama.cpp's vocabulary type (llama-vocab.cpp, `load`).
_VOCAB_TYPES = {
    "llama": "spm",
    "gpt2": "bpe",
    "bert": "wpm",
    "t5": "ugm",
    "rwkv": "rwkv",
    "plamo2": "plamo2",
    "none": "none",
    "no_vocab": "none",
}
_ADDS_BOS_BY_DEFAULT = {"spm", "wpm", "ugm"}
_NEXTN_TENSOR = re.compile(r"^blk\.(\d+)\.nextn\.")
KV_CACHE_BYTES_PER_VALUE = 2  # llama.cpp's default KV cache type is F16


@dataclass(frozen=True)
class ModelInspection:
    path: Path
    file_size: int  # all parts together for a split model
    architecture: str
    name: str
    parameter_count: int
    quantization: str  # "Q8_0", "Q4_K_M", "F32", …
    context_length: int  # the context the model was trained for; 0 when the file does not say
    has_chat_template: bool
    n_mtp_heads: int  # NextN / multi-token-prediction layers; 0 for most models
    vocab: VocabInfo
    vocab_fingerprint: str  # equal for files with the same vocabulary facts and token texts
    n_layers: int = 0
    kv_bytes_per_token: int = 0  # F16 K+V cache for one token of context, all layers
    basename: str = ""  # general.basename ("Qwen2.5"), for finding relatives on the Hub
    size_label: str = ""  # general.size_label ("0.5B")
    n_parts: int = 1
    n_embd: int = 0  # hidden size
    eagle3: Eagle3Head | None = None  # set for an EAGLE-3 draft head (architecture eagle3)

    def kv_cache_bytes(self, n_ctx: int) -> int:
        return self.kv_bytes_per_token * n_ctx


def validate_gguf(path: str | Path) -> None:
    """Raise ModelFileError saying what is wrong when `path` is not a GGUF llama.cpp can parse
    (every part of a split model included); return None when it is."""
    inspect_model(path)


def inspect_model(path: str | Path) -> ModelInspection:
    """Validate `path` and describe it. Raises ModelFileError for a broken or unusable file."""
    path = Path(path)
    header, file_size, tensors = _read_model(path)
    try:
        return _describe(path, header, file_size, tensors)
    except ModelFileError as exc:
        raise ModelFileError(words(IN_FILE, name=path.name, error=exc)) from None


def _read_model(path: Path) -> tuple[GGUFHeader, int, list]:
    """The first part's header, the size of all parts, and the tensors of all parts."""
    header, size = _read_file(path)
    n_parts = _int(header, "split.count", 1)
    if n_parts <= 1:
        return header, size, list(header.tensors)
    number = _int(header, "split.no", 0) + 1
    split = split_name(path.name)
    if number != 1:
        first = split.part(1) if split else words(FIRST_PART_NUMBERED)
        raise ModelFileError(words(NOT_FIRST_PART, name=path.name, number=number,
                                   n_parts=n_parts, first=first))
    if split is None or split.count != n_parts:
        raise ModelFileError(words(FIRST_PART_MISNAMED, name=path.name, n_parts=n_parts,
                                   ending=f"-00001-of-{n_parts:05d}.gguf"))
    tensors = list(header.tensors)
    for n in range(2, n_parts + 1):
        part = path.with_name(split.part(n))
        if not part.is_file():
            raise ModelFileError(words(PART_MISSING, n=n, n_parts=n_parts, name=part.name))
        part_header, part_size = _read_file(part)
        if _int(part_header, "split.no", -1) != n - 1:
            raise ModelFileError(words(PART_NOT_SAID, name=part.name, n=n, n_parts=n_parts))
        size += part_size
        tensors.extend(part_header.tensors)
    return header, size, tensors


def _read_file(path: Path) -> tuple[GGUFHeader, int]:
    try:
        # O_NONBLOCK: a FIFO with no writer opens at once instead of waiting for one; only a
        # regular file is read (a pipe never ends, /dev/zero never runs out).
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
        mode = os.fstat(fd).st_mode
        if stat.S_ISDIR(mode) or not stat.S_ISREG(mode):
            os.close(fd)
            raise ModelFileError(words(IS_FOLDER if stat.S_ISDIR(mode) else NOT_A_FILE,
                                       path=path))
        with os.fdopen(fd, "rb") as f:
            size = f.seek(0, 2)
            if size == 0:
                return read_header(b""), 0
            with mmap.mmap(f.fileno(), 0, access=mmap.ACCESS_READ) as mm:
                return read_header(mm), size
    except ModelFileError as exc:
        if exc.args and getattr(exc.args[0], "template", None) in (IS_FOLDER, NOT_A_FILE):
            raise
        raise ModelFileError(words(IN_FILE, name=path.name, error=exc)) from None
    except IsADirectoryError:
        raise ModelFileError(words(IS_FOLDER, path=path)) from None
    except FileNotFoundError:
        raise ModelFileError(words(DOES_NOT_EXIST, path=path)) from None
    except OSError as exc:
        error = exc.strerror or str(exc)
        raise ModelFileError(words(CANNOT_READ, path=path, error=error)) from None


def _describe(path: Path, header: GGUFHeader, file_size: int, tensors: list) -> ModelInspection:
    arch = header.value("general.architecture")
    if not isinstance(arch, str) or not arch:
        raise ModelFileError(words(NO_ARCHITECTURE))
    if not tensors:
        raise ModelFileError(words(NO_TENSORS))
    vocab, fingerprint = _vocab(path, header, file_size)
    nextn_blocks = {m[1] for t in tensors if (m := _NEXTN_TENSOR.match(t.name))}
    n_layers = _int(header, f"{arch}.block_count", 0)
    return ModelInspection(
        path=path,
        file_size=file_size,
        architecture=arch,
        name=_str(header, "general.name") or path.stem,
        parameter_count=sum(t.n_elements for t in tensors),
        quantization=_quantization(header, tensors),
        context_length=_int(header, f"{arch}.context_length", 0),
        has_chat_template=bool(_str(header, "tokenizer.chat_template")),
        n_mtp_heads=max(_int(header, f"{arch}.nextn_predict_layers", 0), len(nextn_blocks)),
        vocab=vocab,
        vocab_fingerprint=fingerprint,
        n_layers=n_layers,
        kv_bytes_per_token=_kv_bytes_per_token(header, arch, n_layers),
        basename=_str(header, "general.basename"),
        size_label=_str(header, "general.size_label"),
        n_parts=max(1, _int(header, "split.count", 1)),
        n_embd=_int(header, f"{arch}.embedding_length", 0),
        eagle3=read_head(path, header, tensors, vocab.n_tokens) if arch == EAGLE3 else None,
    )


def _vocab(path: Path, header: GGUFHeader, file_size: int) -> tuple[VocabInfo, str]:
    model = _str(header, "tokenizer.ggml.model") or "none"
    vocab_type = _VOCAB_TYPES.get(model)
    if vocab_type is None:
        raise ModelFileError(words(UNKNOWN_TOKENIZER, model=repr(model)))
    tokens_ref = header.value("tokenizer.ggml.tokens")
    if tokens_ref is None:
        tokens_ref = ArrayRef(GGUFValueType.STRING, 0, 0, 0)
    if not isinstance(tokens_ref, ArrayRef) or tokens_ref.element_type != GGUFValueType.STRING:
        raise ModelFileError(words(TOKENS_NOT_STRINGS))
    if vocab_type != "none" and tokens_ref.count == 0:
        raise ModelFileError(words(NO_TOKENS, model=repr(model)))
    spm = vocab_type == "spm"
    bos_id = _int(header, "tokenizer.ggml.bos_token_id", 1 if spm else -1)
    eos_id = _int(header, "tokenizer.ggml.eos_token_id", 2 if spm else -1)
    if bos_id >= tokens_ref.count:
        raise ModelFileError(words(BOS_OUTSIDE, id=bos_id, n=tokens_ref.count))
    if eos_id >= tokens_ref.count:
        raise ModelFileError(words(EOS_OUTSIDE, id=eos_id, n=tokens_ref.count))
    add_bos = _bool(header, "tokenizer.ggml.add_bos_token", vocab_type in _ADDS_BOS_BY_DEFAULT)
    add_eos = _bool(header, "tokenizer.ggml.add_eos_token", False)
    tokens = GGUFTokens(path, tokens_ref.start, tokens_ref.end, tokens_ref.count, _first_size(path))
    vocab = VocabInfo(vocab_type, add_bos, add_eos, bos_id, eos_id, tokens)
    digest = hashlib.sha256(
        f"{vocab_type}|{add_bos}|{add_eos}|{bos_id}|{eos_id}|{tokens_ref.count}|".encode()
    )
    if tokens_ref.count:
        with open(path, "rb") as f:  # the raw token texts, hashed without decoding them
            f.seek(tokens_ref.start)
            remaining = tokens_ref.end - tokens_ref.start
            while remaining > 0:
                chunk = f.read(min(remaining, 1 << 20))
                if not chunk:
                    break
                digest.update(chunk)
                remaining -= len(chunk)
    return vocab, digest.hexdigest()[:16]


def _first_size(path: Path) -> int:
    return path.stat().st_size


def _quantization(header: GGUFHeader, tensors: list) -> str:
    """general.file_type when the converter wrote it, else the type holding most bytes."""
    named = quantization_from_file_type(_int(header, "general.file_type", -1))
    if named:
        return named
    by_bytes: Counter[int] = Counter()
    for t in tensors:
        if len(t.shape) >= 2:
            by_bytes[t.ggml_type] += t.n_bytes
    if not by_bytes:
        return "unknown"
    return GGMLQuantizationType(by_bytes.most_common(1)[0][0]).name


def kv_bytes_per_token(header: GGUFHeader) -> int:
    """F16 KV-cache bytes per token of context, from a header alone (also one read from the
    Hub), or 0 when the header lacks the sizes."""
    arch = header.value("general.architecture")
    if not isinstance(arch, str):
        return 0
    try:
        return _kv_bytes_per_token(header, arch, _int(header, f"{arch}.block_count", 0))
    except ModelFileError:
        return 0


def _kv_bytes_per_token(header: GGUFHeader, arch: str, n_layers: int) -> int:
    """An estimate in the shape of llama.cpp's: per layer, K and V of n_head_kv heads each.
    Per-layer arrays (hybrid models with some attention-free layers) are summed as given."""
    n_embd = _int(header, f"{arch}.embedding_length", 0)
    n_head = _per_layer(header, f"{arch}.attention.head_count", n_layers, 0)
    n_head_kv = _per_layer(header, f"{arch}.attention.head_count_kv", n_layers, None) or n_head
    if not n_layers or not n_embd or not any(n_head):
        return 0
    head = n_embd // max(n_head)
    k_len = _int(header, f"{arch}.attention.key_length", head)
    v_len = _int(header, f"{arch}.attention.value_length", head)
    values = sum(h * (k_len + v_len) for h in n_head_kv)
    return values * KV_CACHE_BYTES_PER_VALUE


def _per_layer(header: GGUFHeader, key: str, n_layers: int, default: int | None) -> list[int]:
    value = header.value(key)
    if isinstance(value, ArrayRef) and value.values is not None:
        return [int(v) for v in value.values[:n_layers]]
    if isinstance(value, int) and not isinstance(value, bool):
        return [value] * n_layers
    return [] if default is None else [default] * n_layers


def _int(header: GGUFHeader, key: str, default: int) -> int:
    value = header.value(key)
    if value is None:
        return default
    if isinstance(value, bool) or not isinstance(value, int):
        raise ModelFileError(words(NOT_WHOLE_NUMBER, key=key, value=repr(value)))
    return value


def _bool(header: GGUFHeader, key: str, default: bool) -> bool:
    value = header.value(key)
    if value is None:
        return default
    if not isinstance(value, bool):
        raise ModelFileError(words(NOT_TRUE_OR_FALSE, key=key, value=repr(value)))
    return value


def _str(header: GGUFHeader, key: str) -> str:
    value = header.value(key)
    if value is None:
        return ""
    if not isinstance(value, str):
        raise ModelFileError(words(NOT_TEXT, key=key))
    return value

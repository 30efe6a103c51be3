"""A strict reader of a GGUF file's header, which doubles as its validator.

gguf's own `GGUFReader` is not used here on purpose: it trusts the counts it reads (a corrupt
tensor or KV count makes it allocate without bound or fail with an IndexError deep in numpy),
and it builds one numpy view per token, which takes seconds on a 150k-token vocabulary. This
reader walks the header with `struct`, checks every length and count against the bytes that
exist before using it, and mirrors the checks of llama.cpp's `gguf_init_from_file_impl`, so a
file that passes here is one llama.cpp can at least parse. The type tables come from `gguf`.
"""

from __future__ import annotations

import mmap
import struct
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from gguf.constants import (
    GGML_QUANT_SIZES,
    GGUF_DEFAULT_ALIGNMENT,
    GGUF_MAGIC,
    GGMLQuantizationType,
    GGUFValueType,
)

# What a header is read from: a file's first bytes, a view of them, or the mapped file.
HeaderBytes = bytes | memoryview | mmap.mmap


class ModelFileError(Exception):
    """A model file that cannot be used, with a message that says what is wrong in words."""


class HeaderTruncatedError(ModelFileError):
    """The bytes ran out inside the header: the file is truncated, or (for a header fetched
    from the Hub in pieces) more bytes are needed. `needed` is a lower bound on how many."""

    def __init__(self, message: str, needed: int) -> None:
        super().__init__(message)
        self.needed = needed


SUPPORTED_VERSIONS = (2, 3)  # llama.cpp dropped version 1 in 2023
MAX_DIMS = 4  # GGML_MAX_DIMS
MAX_TENSOR_NAME = 63  # GGML_MAX_NAME is 64 including the terminating NUL
MAX_DECODED_ARRAY = 4096  # numeric arrays longer than this are only skipped, never decoded
INT64_MAX = 2**63 - 1

_SCALAR_FORMATS: dict[int, str] = {
    GGUFValueType.UINT8: "<B",
    GGUFValueType.INT8: "<b",
    GGUFValueType.UINT16: "<H",
    GGUFValueType.INT16: "<h",
    GGUFValueType.UINT32: "<I",
    GGUFValueType.INT32: "<i",
    GGUFValueType.FLOAT32: "<f",
    GGUFValueType.BOOL: "<B",
    GGUFValueType.UINT64: "<Q",
    GGUFValueType.INT64: "<q",
    GGUFValueType.FLOAT64: "<d",
}
# Old formats that people still find on disk, named so that the refusal can say what to do.
_LEGACY_MAGICS = {b"ggml": "GGML", b"ggmf": "GGMF", b"ggjt": "GGJT", b"ggla": "GGLA"}


@dataclass(frozen=True)
class ArrayRef:
    """Where an array value lies in the file; numeric arrays up to MAX_DECODED_ARRAY long are
    decoded into `values`, others (token lists, merges) are left in the file until needed."""

    element_type: int
    count: int
    start: int  # offset of the first element
    end: int  # offset just past the last element
    values: tuple[Any, ...] | None = None


@dataclass(frozen=True)
class TensorInfo:
    name: str
    shape: tuple[int, ...]  # ggml order: shape[0] is the row length
    ggml_type: int
    offset: int  # relative to the start of the data section
    n_bytes: int

    @property
    def n_elements(self) -> int:
        n = 1
        for d in self.shape:
            n *= d
        return n


@dataclass(frozen=True)
class GGUFHeader:
    version: int
    metadata: Mapping[str, Any]  # scalars and strings decoded; arrays as ArrayRef
    tensors: tuple[TensorInfo, ...]
    alignment: int
    data_offset: int  # where the tensor data section starts in the file
    data_end: int  # where the last tensor's bytes end in the file

    def value(self, key: str, default: Any = None) -> Any:
        return self.metadata.get(key, default)


def read_header(buf: HeaderBytes, file_size: int | None = None) -> GGUFHeader:
    """Parse and check the header in `buf` (the file, or its first bytes).

    `file_size` is the size of the whole file when `buf` holds only its start (a header fetched
    from the Hub); counts are then checked against it and the tensor data is not required to be
    present. Raises ModelFileError (HeaderTruncatedError when the bytes end inside the header).
    """
    whole_file = file_size is None
    size = len(buf) if file_size is None else file_size
    r = _Reader(buf, size)
    _check_start(buf, size)
    version = r.scalar(GGUFValueType.UINT32, "the version")
    n_tensors = r.scalar(GGUFValueType.UINT64, "the tensor count")
    n_kv = r.scalar(GGUFValueType.UINT64, "the metadata count")
    # Each entry takes at least this many bytes, so a count the file cannot hold is checked
    # before anything is allocated for it: a plausible count means the file was cut short,
    # an absurd one that the header is corrupt.
    _check_count(n_kv, 13, size - r.pos, "metadata entries", 2**20)
    _check_count(n_tensors, 32, size - r.pos, "tensors", 2**20)

    metadata: dict[str, Any] = {}
    for i in range(n_kv):
        key = r.string(f"the key of metadata entry {i + 1} of {n_kv}")
        if key in metadata:
            raise ModelFileError(f"The metadata key {key!r} appears twice: the header is corrupt.")
        metadata[key] = r.value(key)

    alignment = metadata.get("general.alignment", GGUF_DEFAULT_ALIGNMENT)
    if (
        not isinstance(alignment, int)
        or isinstance(alignment, bool)
        or alignment <= 0
        or (alignment & (alignment - 1))
    ):
        raise ModelFileError(
            f"general.alignment is {alignment!r}; it must be a power of two: the header is corrupt."
        )

    tensors = tuple(r.tensor_info(i, n_tensors) for i in range(n_tensors))
    data_offset = _align(r.pos, alignment)
    data_end = _check_tensor_layout(tensors, alignment, data_offset)
    if whole_file and data_end > size:
        present = max(0, size - data_offset)
        needed = data_end - data_offset
        raise ModelFileError(
            f"The file is truncated: its tensors need {data_end:,} bytes but it has only "
            f"{size:,} ({100 * present / max(needed, 1):.0f}% of the tensor data is there); "
            "this is usually an incomplete download."
        )
    return GGUFHeader(version, metadata, tensors, alignment, data_offset, data_end)


def _check_count(count: int, min_size: int, room: int, what: str, plausible: int) -> None:
    if count * min_size <= room:
        return
    if count <= plausible:
        raise HeaderTruncatedError(
            f"The file ends inside its header (it is too short for its {count:,} {what}): "
            "it is truncated.",
            needed=count * min_size,
        )
    raise ModelFileError(
        f"The header claims {count:,} {what}, more than the file can hold: the header is corrupt."
    )


def _check_start(buf: HeaderBytes, size: int) -> None:
    head = bytes(buf[:8])
    if size == 0:
        raise ModelFileError("The file is empty (0 bytes).")
    if size < 24 and b"GGUF".startswith(head[:4]):
        raise HeaderTruncatedError(
            f"The file is only {size:,} bytes long, too short for a GGUF header (24 bytes): "
            "it is truncated.",
            needed=24,
        )
    magic = head[:4]
    if len(magic) < 4 or struct.unpack("<I", magic)[0] != GGUF_MAGIC:
        legacy = _LEGACY_MAGICS.get(magic) or _LEGACY_MAGICS.get(magic[::-1])
        if legacy:
            raise ModelFileError(
                f"This is a model in the old {legacy} format, which llama.cpp no longer reads; "
                "convert it to GGUF or download a GGUF version."
            )
        raise ModelFileError(
            f"This is not a GGUF file: it starts with {magic!r} instead of b'GGUF'."
        )
    version = struct.unpack("<I", head[4:8])[0]
    if version in SUPPORTED_VERSIONS:
        return
    if struct.unpack(">I", head[4:8])[0] in SUPPORTED_VERSIONS:
        raise ModelFileError(
            "This GGUF file is big-endian; llama.cpp here reads only little-endian files."
        )
    if version == 1:
        raise ModelFileError(
            "This is a GGUF version 1 file, which llama.cpp no longer reads; download a newer copy."
        )
    raise ModelFileError(
        f"This GGUF file has version {version}; this app reads versions "
        f"{' and '.join(map(str, SUPPORTED_VERSIONS))}, so it is corrupt or from a newer format."
    )


class _Reader:
    """A cursor over the header that refuses to read past the bytes it has."""

    def __init__(self, buf: HeaderBytes, size: int) -> None:
        self.buf = buf
        self.size = size  # the whole file's size, which may exceed len(buf)
        self.pos = 4  # the magic was checked by _check_start

    def take(self, n: int, what: str) -> int:
        start = self.pos
        if start + n > len(self.buf):
            if start + n > self.size:
                message = (
                    f"The file ends inside its header (at byte {self.size:,}, while reading "
                    f"{what}): it is truncated or corrupt."
                )
            else:
                message = f"More of the header is needed to read {what}."
            raise HeaderTruncatedError(message, needed=start + n)
        self.pos = start + n
        return start

    def scalar(self, vtype: int, what: str) -> Any:
        fmt = _SCALAR_FORMATS[vtype]
        start = self.take(struct.calcsize(fmt), what)
        value = struct.unpack_from(fmt, self.buf, start)[0]
        return bool(value) if vtype == GGUFValueType.BOOL else value

    def raw_string(self, what: str) -> bytes:
        length = self.scalar(GGUFValueType.UINT64, f"the length of {what}")
        if length > self.size - self.pos:
            raise ModelFileError(
                f"The length of {what} is {length:,} bytes, past the end of the file: "
                "the header is corrupt."
            )
        start = self.take(length, what)
        return bytes(self.buf[start : start + length])

    def string(self, what: str) -> str:
        raw = self.raw_string(what)
        try:
            return raw.decode("utf-8")
        except UnicodeDecodeError:
            raise ModelFileError(
                f"{what[0].upper()}{what[1:]} is not valid UTF-8 text ({raw[:40]!r}): "
                "the header is corrupt."
            ) from None

    def value_type(self, what: str) -> int:
        type_id = self.scalar(GGUFValueType.UINT32, what)
        if type_id not in GGUFValueType._value2member_map_:
            raise ModelFileError(
                f"{what[0].upper()}{what[1:]} is {type_id}, which is not a GGUF value type."
            )
        return type_id

    def value(self, key: str) -> Any:
        vtype = self.value_type(f"the value type of {key!r}")
        if vtype == GGUFValueType.STRING:
            return self.string(f"the value of {key!r}")
        if vtype != GGUFValueType.ARRAY:
            return self.scalar(vtype, f"the value of {key!r}")
        etype = self.value_type(f"the element type of the array {key!r}")
        if etype == GGUFValueType.ARRAY:
            raise ModelFileError(f"{key!r} is an array of arrays, which GGUF does not allow.")
        count = self.scalar(GGUFValueType.UINT64, f"the length of the array {key!r}")
        min_size = 8 if etype == GGUFValueType.STRING else struct.calcsize(_SCALAR_FORMATS[etype])
        _check_count(count, min_size, self.size - self.pos, f"elements of {key!r}", 2**24)
        start = self.pos
        values = None
        if etype == GGUFValueType.STRING:
            for i in range(count):
                self.raw_string(f"element {i} of {key!r}")
        else:
            first = self.take(count * min_size, f"the array {key!r}")
            if count <= MAX_DECODED_ARRAY:
                fmt = "<" + _SCALAR_FORMATS[etype][1] * count
                values = struct.unpack_from(fmt, self.buf, first)
                if etype == GGUFValueType.BOOL:
                    values = tuple(bool(v) for v in values)
        return ArrayRef(etype, count, start, self.pos, values)

    def tensor_info(self, i: int, n_tensors: int) -> TensorInfo:
        where = f"tensor {i + 1} of {n_tensors}"
        name = self.string(f"the name of {where}")
        if len(name.encode()) > MAX_TENSOR_NAME:
            raise ModelFileError(
                f"The name of {where} is {len(name.encode())} bytes long; llama.cpp allows at "
                f"most {MAX_TENSOR_NAME}: the header is corrupt."
            )
        n_dims = self.scalar(GGUFValueType.UINT32, f"the dimension count of {name!r}")
        if not 1 <= n_dims <= MAX_DIMS:
            raise ModelFileError(
                f"Tensor {name!r} has {n_dims} dimensions; GGUF allows 1 to {MAX_DIMS}."
            )
        shape = tuple(
            self.scalar(GGUFValueType.UINT64, f"the shape of {name!r}") for _ in range(n_dims)
        )
        n_elements = 1
        for d in shape:
            n_elements *= d
        if any(d > INT64_MAX for d in shape) or n_elements > INT64_MAX:
            raise ModelFileError(f"Tensor {name!r} has an impossible shape {shape}.")
        type_id = self.scalar(GGUFValueType.UINT32, f"the type of {name!r}")
        try:
            ggml_type = GGMLQuantizationType(type_id)
            block, type_size = GGML_QUANT_SIZES[ggml_type]
        except (ValueError, KeyError):
            raise ModelFileError(
                f"Tensor {name!r} has type id {type_id}, which is not a ggml tensor type "
                "(corrupt, or made by a newer llama.cpp)."
            ) from None
        if shape[0] % block:
            raise ModelFileError(
                f"Tensor {name!r} has rows of {shape[0]} values, not a multiple of the "
                f"{block}-value blocks of its type {ggml_type.name}."
            )
        offset = self.scalar(GGUFValueType.UINT64, f"the data offset of {name!r}")
        return TensorInfo(name, shape, type_id, offset, n_elements // block * type_size)


def _check_tensor_layout(tensors: tuple[TensorInfo, ...], alignment: int, data_offset: int) -> int:
    """llama.cpp requires tensors stored in header order, each at the aligned end of the one
    before; this also rules out overlaps. Returns the file offset where tensor data ends."""
    expected = 0
    names: set[str] = set()
    for t in tensors:
        if t.name in names:
            raise ModelFileError(f"Two tensors are both named {t.name!r}: the header is corrupt.")
        names.add(t.name)
        if t.offset % alignment:
            raise ModelFileError(
                f"Tensor {t.name!r} starts at data offset {t.offset:,}, which is not a multiple "
                f"of the file's {alignment}-byte alignment: the header is corrupt."
            )
        if t.offset != expected:
            raise ModelFileError(
                f"Tensor {t.name!r} starts at data offset {t.offset:,}, but the tensors before "
                f"it end at {expected:,}: the header is corrupt."
            )
        expected = _align(t.offset + t.n_bytes, alignment)
    last = tensors[-1] if tensors else None
    return data_offset + (last.offset + last.n_bytes if last else 0)


def _align(n: int, alignment: int) -> int:
    return (n + alignment - 1) // alignment * alignment

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
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from gguf.constants import (
    GGML_QUANT_SIZES,
    GGUF_DEFAULT_ALIGNMENT,
    GGUF_MAGIC,
    GGMLQuantizationType,
    GGUFValueType,
)

from backend.words import Words, words

# What a header is read from: a file's first bytes, a view of them, or the mapped file.
HeaderBytes = bytes | memoryview | mmap.mmap


class ModelFileError(Exception):
    """A model file that cannot be used, with a message that says what is wrong in words: its
    one argument, as Words (backend/words.py; `str(exc)` is the English sentence)."""

    def __init__(self, message: Words | str) -> None:
        super().__init__(message)


class HeaderTruncatedError(ModelFileError):
    """The bytes ran out inside the header: the file is truncated, or (for a header fetched
    from the Hub in pieces) more bytes are needed. `needed` is a lower bound on how many."""

    def __init__(self, message: Words | str, needed: int) -> None:
        super().__init__(message)
        self.needed = needed


# What the header reader says, as templates (backend/words.py). A part of the header being read
# is a phrase (`what`), itself Words, that the errors name.
VERSION = "the version"
TENSOR_COUNT = "the tensor count"
METADATA_COUNT = "the metadata count"
METADATA_ENTRIES = "metadata entries"
TENSORS = "tensors"
KEY_OF_ENTRY = "the key of metadata entry {i} of {n}"
VALUE_TYPE_OF = "the value type of {key}"
VALUE_OF = "the value of {key}"
ELEMENT_TYPE_OF = "the element type of the array {key}"
ARRAY_LENGTH_OF = "the length of the array {key}"
ELEMENTS_OF = "elements of {key}"
ELEMENT_OF = "element {i} of {key}"
THE_ARRAY = "the array {key}"
LENGTH_OF = "the length of {what}"
NAME_OF_TENSOR = "the name of tensor {i} of {n}"
DIMENSION_COUNT_OF = "the dimension count of {name}"
SHAPE_OF = "the shape of {name}"
TYPE_OF = "the type of {name}"
DATA_OFFSET_OF = "the data offset of {name}"
KEY_TWICE = "The metadata key {key} appears twice: the header is corrupt."
BAD_ALIGNMENT = "general.alignment is {value}; it must be a power of two: the header is corrupt."
DATA_TRUNCATED = ("The file is truncated: its tensors need {needed:,} bytes but it has only "
                  "{size:,} ({percent:.0f}% of the tensor data is there); this is usually an "
                  "incomplete download.")
TOO_SHORT_FOR_COUNT = ("The file ends inside its header (it is too short for its {count:,} "
                       "{what}): it is truncated.")
COUNT_TOO_BIG = ("The header claims {count:,} {what}, more than the file can hold: the header "
                 "is corrupt.")
EMPTY = "The file is empty (0 bytes)."
TOO_SHORT = ("The file is only {size:,} bytes long, too short for a GGUF header (24 bytes): "
             "it is truncated.")
LEGACY_FORMAT = ("This is a model in the old {legacy} format, which llama.cpp no longer reads; "
                 "convert it to GGUF or download a GGUF version.")
NOT_GGUF = "This is not a GGUF file (it does not begin with the letters GGUF)."
NOT_GGUF_TEXT = ("This is not a GGUF file but text; a download that failed can leave an error "
                 "page or message under the model's name.")
NOT_GGUF_LFS = ("This is not a GGUF file but a Git LFS pointer to one; the model itself was "
                "not downloaded (run git lfs pull in its folder, or download the file).")
NOT_GGUF_SAFETENSORS = ("This is not a GGUF file but a safetensors model; llama.cpp needs it "
                        "converted to GGUF (convert_hf_to_gguf.py), or a GGUF version of it.")
BIG_ENDIAN = "This GGUF file is big-endian; llama.cpp here reads only little-endian files."
VERSION_1 = ("This is a GGUF version 1 file, which llama.cpp no longer reads; download a newer "
             "copy.")
OTHER_VERSION = ("This GGUF file has version {version}; this app reads versions {supported}, so "
                 "it is corrupt or from a newer format.")
VERSIONS_JOINED = "{first} and {second}"
ENDS_INSIDE = ("The file ends inside its header (at byte {size:,}, while reading {what}): it is "
               "truncated or corrupt.")
MORE_NEEDED = "More of the header is needed to read {what}."
LENGTH_PAST_END = ("The length of {what} is {length:,} bytes, past the end of the file: the "
                   "header is corrupt.")
NOT_UTF8 = "Cannot read {what}: it is not UTF-8 text, so the header is corrupt."
NOT_VALUE_TYPE = "The header gives {type_id} as {what}, which is not a GGUF value type."
ARRAY_OF_ARRAYS = "{key} is an array of arrays, which GGUF does not allow."
NAME_TOO_LONG = ("The name of tensor {i} of {n} is {length} bytes long; llama.cpp allows at most "
                 "{most}: the header is corrupt.")
TENSOR_DIMENSIONS = "Tensor {name} has {n_dims} dimensions; GGUF allows 1 to {most}."
IMPOSSIBLE_SHAPE = "Tensor {name} has an impossible shape {shape}."
NOT_TENSOR_TYPE = ("Tensor {name} has type id {type_id}, which is not a ggml tensor type "
                   "(corrupt, or made by a newer llama.cpp).")
NOT_WHOLE_BLOCKS = ("Tensor {name} has rows of {n} values, not a multiple of the {block}-value "
                    "blocks of its type {type}.")
SAME_NAME = "Two tensors are both named {name}: the header is corrupt."
MISALIGNED = ("Tensor {name} starts at data offset {offset:,}, which is not a multiple of the "
              "file's {alignment}-byte alignment: the header is corrupt.")
OVERLAPPING = ("Tensor {name} starts at data offset {offset:,}, but the tensors before it end "
               "at {expected:,}: the header is corrupt.")

# A part of the header, named only when an error says it: the words, or how to make them (the
# elements of a 150k-token vocabulary are not worth a sentence each unless one is broken).
What = Words | Callable[[], Words]


def _said(what: What) -> Words:
    return what if isinstance(what, Words) else what()


def _element(i: int, key: str) -> Callable[[], Words]:
    return lambda: words(ELEMENT_OF, i=i, key=key)


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
    version = r.scalar(GGUFValueType.UINT32, words(VERSION))
    n_tensors = r.scalar(GGUFValueType.UINT64, words(TENSOR_COUNT))
    n_kv = r.scalar(GGUFValueType.UINT64, words(METADATA_COUNT))
    # Each entry takes at least this many bytes, so a count the file cannot hold is checked
    # before anything is allocated for it: a plausible count means the file was cut short,
    # an absurd one that the header is corrupt.
    _check_count(n_kv, 13, size - r.pos, words(METADATA_ENTRIES), 2**20)
    _check_count(n_tensors, 32, size - r.pos, words(TENSORS), 2**20)

    metadata: dict[str, Any] = {}
    for i in range(n_kv):
        key = r.string(words(KEY_OF_ENTRY, i=i + 1, n=n_kv))
        if key in metadata:
            raise ModelFileError(words(KEY_TWICE, key=repr(key)))
        metadata[key] = r.value(key)

    alignment = metadata.get("general.alignment", GGUF_DEFAULT_ALIGNMENT)
    if (
        not isinstance(alignment, int)
        or isinstance(alignment, bool)
        or alignment <= 0
        or (alignment & (alignment - 1))
    ):
        raise ModelFileError(words(BAD_ALIGNMENT, value=repr(alignment)))

    tensors = tuple(r.tensor_info(i, n_tensors) for i in range(n_tensors))
    data_offset = _align(r.pos, alignment)
    data_end = _check_tensor_layout(tensors, alignment, data_offset)
    if whole_file and data_end > size:
        present = max(0, size - data_offset)
        needed = data_end - data_offset
        raise ModelFileError(words(DATA_TRUNCATED, needed=data_end, size=size,
                                   percent=100 * present / max(needed, 1)))
    return GGUFHeader(version, metadata, tensors, alignment, data_offset, data_end)


def _check_count(count: int, min_size: int, room: int, what: Words, plausible: int) -> None:
    if count * min_size <= room:
        return
    if count <= plausible:
        raise HeaderTruncatedError(words(TOO_SHORT_FOR_COUNT, count=count, what=what),
                                   needed=count * min_size)
    raise ModelFileError(words(COUNT_TOO_BIG, count=count, what=what))


def _check_start(buf: HeaderBytes, size: int) -> None:
    head = bytes(buf[:8])
    if size == 0:
        raise ModelFileError(words(EMPTY))
    if size < 24 and b"GGUF".startswith(head[:4]):
        raise HeaderTruncatedError(words(TOO_SHORT, size=size), needed=24)
    magic = head[:4]
    if len(magic) < 4 or struct.unpack("<I", magic)[0] != GGUF_MAGIC:
        legacy = _LEGACY_MAGICS.get(magic) or _LEGACY_MAGICS.get(magic[::-1])
        if legacy:
            raise ModelFileError(words(LEGACY_FORMAT, legacy=legacy))
        raise ModelFileError(_what_it_is(bytes(buf[:_SNIFF])))
    version = struct.unpack("<I", head[4:8])[0]
    if version in SUPPORTED_VERSIONS:
        return
    if struct.unpack(">I", head[4:8])[0] in SUPPORTED_VERSIONS:
        raise ModelFileError(words(BIG_ENDIAN))
    if version == 1:
        raise ModelFileError(words(VERSION_1))
    first, second = SUPPORTED_VERSIONS
    raise ModelFileError(words(OTHER_VERSION, version=version,
                               supported=words(VERSIONS_JOINED, first=first, second=second)))


_SNIFF = 512  # bytes looked at to say what a file that is not GGUF is instead


def _what_it_is(head: bytes) -> Words:
    """Why a file is not GGUF, in words (never its bytes): what it looks like instead."""
    if head.startswith(b"version https://git-lfs"):
        return words(NOT_GGUF_LFS)
    if len(head) > 9 and head[8:10] == b'{"' and int.from_bytes(head[:8], "little") > 2:
        return words(NOT_GGUF_SAFETENSORS)  # an 8-byte header length, then the header's JSON
    return words(NOT_GGUF_TEXT) if _is_text(head) else words(NOT_GGUF)


def _is_text(head: bytes) -> bool:
    try:
        text = head.decode("utf-8")
    except UnicodeDecodeError as exc:
        if exc.start < len(head) - 3:  # not only a character cut at the end of the sample
            return False
        text = head[: exc.start].decode("utf-8")
    return bool(text) and all(c.isprintable() or c in "\t\r\n\f" for c in text)


class _Reader:
    """A cursor over the header that refuses to read past the bytes it has."""

    def __init__(self, buf: HeaderBytes, size: int) -> None:
        self.buf = buf
        self.size = size  # the whole file's size, which may exceed len(buf)
        self.pos = 4  # the magic was checked by _check_start

    def take(self, n: int, what: What) -> int:
        start = self.pos
        if start + n > len(self.buf):
            if start + n > self.size:
                message = words(ENDS_INSIDE, size=self.size, what=_said(what))
            else:
                message = words(MORE_NEEDED, what=_said(what))
            raise HeaderTruncatedError(message, needed=start + n)
        self.pos = start + n
        return start

    def scalar(self, vtype: int, what: What) -> Any:
        fmt = _SCALAR_FORMATS[vtype]
        start = self.take(struct.calcsize(fmt), what)
        value = struct.unpack_from(fmt, self.buf, start)[0]
        return bool(value) if vtype == GGUFValueType.BOOL else value

    def raw_string(self, what: What) -> bytes:
        length = self.scalar(GGUFValueType.UINT64, lambda: words(LENGTH_OF, what=_said(what)))
        if length > self.size - self.pos:
            raise ModelFileError(words(LENGTH_PAST_END, what=_said(what), length=length))
        start = self.take(length, what)
        return bytes(self.buf[start : start + length])

    def string(self, what: What) -> str:
        raw = self.raw_string(what)
        try:
            return raw.decode("utf-8")
        except UnicodeDecodeError:
            raise ModelFileError(words(NOT_UTF8, what=_said(what))) from None

    def value_type(self, what: Words) -> int:
        type_id = self.scalar(GGUFValueType.UINT32, what)
        if type_id not in GGUFValueType._value2member_map_:
            raise ModelFileError(words(NOT_VALUE_TYPE, type_id=type_id, what=what))
        return type_id

    def value(self, key: str) -> Any:
        shown = repr(key)
        vtype = self.value_type(words(VALUE_TYPE_OF, key=shown))
        if vtype == GGUFValueType.STRING:
            return self.string(words(VALUE_OF, key=shown))
        if vtype != GGUFValueType.ARRAY:
            return self.scalar(vtype, words(VALUE_OF, key=shown))
        etype = self.value_type(words(ELEMENT_TYPE_OF, key=shown))
        if etype == GGUFValueType.ARRAY:
            raise ModelFileError(words(ARRAY_OF_ARRAYS, key=shown))
        count = self.scalar(GGUFValueType.UINT64, words(ARRAY_LENGTH_OF, key=shown))
        min_size = 8 if etype == GGUFValueType.STRING else struct.calcsize(_SCALAR_FORMATS[etype])
        _check_count(count, min_size, self.size - self.pos, words(ELEMENTS_OF, key=shown), 2**24)
        start = self.pos
        values = None
        if etype == GGUFValueType.STRING:
            for i in range(count):
                self.raw_string(_element(i, shown))
        else:
            first = self.take(count * min_size, words(THE_ARRAY, key=shown))
            if count <= MAX_DECODED_ARRAY:
                fmt = "<" + _SCALAR_FORMATS[etype][1] * count
                values = struct.unpack_from(fmt, self.buf, first)
                if etype == GGUFValueType.BOOL:
                    values = tuple(bool(v) for v in values)
        return ArrayRef(etype, count, start, self.pos, values)

    def tensor_info(self, i: int, n_tensors: int) -> TensorInfo:
        name = self.string(words(NAME_OF_TENSOR, i=i + 1, n=n_tensors))
        if len(name.encode()) > MAX_TENSOR_NAME:
            raise ModelFileError(words(NAME_TOO_LONG, i=i + 1, n=n_tensors,
                                       length=len(name.encode()), most=MAX_TENSOR_NAME))
        shown = repr(name)
        n_dims = self.scalar(GGUFValueType.UINT32, words(DIMENSION_COUNT_OF, name=shown))
        if not 1 <= n_dims <= MAX_DIMS:
            raise ModelFileError(words(TENSOR_DIMENSIONS, name=shown, n_dims=n_dims, most=MAX_DIMS))
        shape_of = words(SHAPE_OF, name=shown)
        shape = tuple(self.scalar(GGUFValueType.UINT64, shape_of) for _ in range(n_dims))
        n_elements = 1
        for d in shape:
            n_elements *= d
        if any(d > INT64_MAX for d in shape) or n_elements > INT64_MAX:
            raise ModelFileError(words(IMPOSSIBLE_SHAPE, name=shown, shape=str(shape)))
        type_id = self.scalar(GGUFValueType.UINT32, words(TYPE_OF, name=shown))
        try:
            ggml_type = GGMLQuantizationType(type_id)
            block, type_size = GGML_QUANT_SIZES[ggml_type]
        except (ValueError, KeyError):
            raise ModelFileError(words(NOT_TENSOR_TYPE, name=shown, type_id=type_id)) from None
        if shape[0] % block:
            raise ModelFileError(words(NOT_WHOLE_BLOCKS, name=shown, n=shape[0], block=block,
                                       type=ggml_type.name))
        offset = self.scalar(GGUFValueType.UINT64, words(DATA_OFFSET_OF, name=shown))
        return TensorInfo(name, shape, type_id, offset, n_elements // block * type_size)


def _check_tensor_layout(tensors: tuple[TensorInfo, ...], alignment: int, data_offset: int) -> int:
    """llama.cpp requires tensors stored in header order, each at the aligned end of the one
    before; this also rules out overlaps. Returns the file offset where tensor data ends."""
    expected = 0
    names: set[str] = set()
    for t in tensors:
        if t.name in names:
            raise ModelFileError(words(SAME_NAME, name=repr(t.name)))
        names.add(t.name)
        if t.offset % alignment:
            raise ModelFileError(words(MISALIGNED, name=repr(t.name), offset=t.offset,
                                       alignment=alignment))
        if t.offset != expected:
            raise ModelFileError(words(OVERLAPPING, name=repr(t.name), offset=t.offset,
                                       expected=expected))
        expected = _align(t.offset + t.n_bytes, alignment)
    last = tensors[-1] if tensors else None
    return data_offset + (last.offset + last.n_bytes if last else 0)


def _align(n: int, alignment: int) -> int:
    return (n + alignment - 1) // alignment * alignment

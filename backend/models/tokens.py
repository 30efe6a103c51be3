"""A GGUF's token list, read from the file only when someone looks at it.

Listing a library of models needs each model's vocabulary facts but rarely its 50k–250k token
texts, so the texts stay in the file until first use (pairing two models), then are cached.
"""

from __future__ import annotations

import struct
import threading
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import overload

from backend.models.gguf_header import ModelFileError
from backend.words import words

CHANGED_ON_DISK = "{name} changed on disk after it was inspected."
CANNOT_READ_VOCABULARY = "Cannot read the vocabulary of {name}: {error}"


class GGUFTokens(Sequence[str]):
    """Token texts by id, from a string array at [start, end) in a GGUF file."""

    def __init__(self, path: Path, start: int, end: int, count: int, file_size: int) -> None:
        self._path = path
        self._start = start
        self._end = end
        self._count = count
        self._file_size = file_size
        self._texts: list[str] | None = None
        self._lock = threading.Lock()

    def __len__(self) -> int:
        return self._count

    @overload
    def __getitem__(self, index: int) -> str: ...
    @overload
    def __getitem__(self, index: slice) -> list[str]: ...
    def __getitem__(self, index: int | slice) -> str | list[str]:
        return self._load()[index]

    def __iter__(self) -> Iterator[str]:
        return iter(self._load())

    def __eq__(self, other: object) -> bool:
        if isinstance(other, GGUFTokens) and other._key() == self._key():
            return True
        if not isinstance(other, Sequence) or len(other) != len(self):
            return False
        return list(self) == list(other)

    def __hash__(self) -> int:
        return hash(self._key())

    def __repr__(self) -> str:
        return f"<{self._count:,} tokens from {self._path.name}>"

    def _key(self) -> tuple[str, int, int]:
        return (str(self._path), self._start, self._file_size)

    def _load(self) -> list[str]:
        with self._lock:
            if self._texts is None:
                self._texts = self._read()
            return self._texts

    def _read(self) -> list[str]:
        try:
            if self._path.stat().st_size != self._file_size:
                raise ModelFileError(words(CHANGED_ON_DISK, name=self._path.name))
            with open(self._path, "rb") as f:
                f.seek(self._start)
                data = f.read(self._end - self._start)
        except OSError as exc:
            raise ModelFileError(words(CANNOT_READ_VOCABULARY, name=self._path.name,
                                       error=str(exc))) from exc
        texts = []
        pos = 0
        for _ in range(self._count):
            (length,) = struct.unpack_from("<Q", data, pos)
            pos += 8
            # surrogateescape keeps byte-level tokens that are not UTF-8 distinct and exact.
            texts.append(data[pos : pos + length].decode("utf-8", "surrogateescape"))
            pos += length
        return texts

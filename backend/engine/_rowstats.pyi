from collections.abc import Iterable

from typing_extensions import Buffer

def row_stats(row: Buffer, k: int, /) -> tuple[int, float, tuple[tuple[int, float], ...]] | None:
    ...

def penalize(row: Buffer, ids: Iterable[int], penalty: float, /) -> None: ...

def set_threads(n: int, /) -> None: ...

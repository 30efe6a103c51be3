from typing_extensions import Buffer

def row_stats(row: Buffer, k: int, /) -> tuple[int, float, tuple[tuple[int, float], ...]] | None:
    ...

"""What a GGUF file's name says: its quantization, and whether it is one part of a split model.

llama.cpp's `gguf-split` names parts `PREFIX-00001-of-00003.gguf` and loads the others from
the first one, so a split model is one model to the user: one row, one download, one size.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from gguf.constants import LlamaFileType

_SPLIT = re.compile(r"^(?P<prefix>.+)-(?P<no>\d{5})-of-(?P<count>\d{5})\.gguf$", re.IGNORECASE)
# Q4_K_M, IQ2_XXS, Q4_0_4_4, TQ1_0, Q4_K_XL (unsloth's "UD-" dynamic quants), BF16, F16, F32…
_QUANT = re.compile(
    r"(?<![A-Z0-9])(?:UD-)?(?:I?Q\d+(?:_[A-Z0-9]+)*|TQ\d_\d|BF16|F16|F32|MXFP4(?:_MOE)?)"
    r"(?![A-Z0-9])"
)


@dataclass(frozen=True)
class SplitName:
    prefix: str  # the path without "-0000N-of-0000M.gguf"
    number: int  # 1-based
    count: int

    def part(self, number: int) -> str:
        return f"{self.prefix}-{number:05d}-of-{self.count:05d}.gguf"


def split_name(path: str) -> SplitName | None:
    """The split-part fields of a file name, or None for a single-file model."""
    m = _SPLIT.match(path)
    if m is None or not 1 <= int(m["no"]) <= int(m["count"]):
        return None
    return SplitName(m["prefix"], int(m["no"]), int(m["count"]))


def quantization_from_name(path: str) -> str | None:
    """The quantization a file name advertises ("Q4_K_M", "UD-Q4_K_XL", "F16"), or None."""
    stem = path.rsplit("/", 1)[-1].upper()
    stem = stem[:-5] if stem.endswith(".GGUF") else stem
    split = split_name(stem.lower() + ".gguf")
    if split is not None:
        stem = split.prefix.upper()
    found = _QUANT.findall(stem)
    return found[-1] if found else None


def quantization_from_file_type(file_type: int) -> str | None:
    """llama.cpp's `general.file_type` as the name people use ("MOSTLY_Q4_K_M" → "Q4_K_M")."""
    try:
        name = LlamaFileType(file_type).name
    except ValueError:
        return None
    if name == "GUESSED":
        return None
    return "F32" if name == "ALL_F32" else name.removeprefix("MOSTLY_")

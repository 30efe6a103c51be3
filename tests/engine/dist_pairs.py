"""The χ² tests on the distribution models (tests/models/build.py): after a cycle word comes
the word 1 + j on with probability DIST_TARGET[j], so the first two sampled words fall in one
of 16 (offset, offset) outcomes whose probabilities are known."""

from __future__ import annotations

import numpy as np
from build import CYCLE_WORDS, DIST_TARGET

from backend.engine.engine import Engine


def cycle_index(engine: Engine) -> dict[int, int]:
    """The target's token id of each cycle word → its place in the cycle."""
    model = engine._target
    return {model.tokenize(" " + w, add_special=False)[0]: i for i, w in enumerate(CYCLE_WORDS)}


def pair_outcome(a: int, b: int) -> int:
    """The outcome (0..15) of two sampled words at cycle places a, b after " zero"."""
    return 4 * (a - 1) + (b - a - 1) % len(CYCLE_WORDS)


def expected_pairs() -> np.ndarray:
    """Each outcome's probability under the target."""
    p = np.array(DIST_TARGET)
    return np.outer(p, p).ravel()

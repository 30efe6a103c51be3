"""The plain chunk's loop in C (`_greedy_loop.c`): the repeat penalty, the argmax and the next
decode, token after token, with nothing in Python between two decodes.

Built with the package where a C compiler is found (setup.py) and bound to llama.cpp's own
functions once; where it is not built, or llama-cpp-python's llama_batch is not laid out as the
module declares it, `usable` says no and plain_chunk.py decides the tokens in Python, the same
tokens. A context that tells others of its decodes (`on_decode`) is left to Python too.
"""

from __future__ import annotations

import ctypes
import threading
import time
from dataclasses import dataclass
from functools import cache
from types import ModuleType
from typing import Any

import llama_cpp
import numpy as np

from backend.engine import row_stats
from backend.engine.context import DECODE_FAILED as DECODE_FAILED_TEXT
from backend.engine.context import Context
from backend.engine.errors import EngineError
from backend.engine.model import LoadedModel
from backend.words import words

_native: ModuleType | None
try:
    from backend.engine import _greedy_loop

    _native = _greedy_loop
except ImportError:  # no C compiler where the package was installed
    _native = None

# How a chunk ended (_greedy_loop.c): its last token's decode begun and the budget spent; its
# last token ending the answer, not decoded; a row handed back to numpy, penalised and not
# decided; no logits; a failed decode (the last two raised here).
LAUNCHED, ENDED, HANDED_BACK, NO_LOGITS, DECODE_FAILED = range(5)
_FIELDS = ("n_tokens", "token", "embd", "pos", "n_seq_id", "seq_id", "logits")


@dataclass(slots=True)
class Chunk:
    started: float  # perf_counter() as the loop was called
    status: int  # LAUNCHED, ENDED or HANDED_BACK
    tokens: list[int]  # decided, in order
    ms: list[float]  # each token's ms since the one before (the first: since `started`)
    launch_ms: float  # LAUNCHED: the last decode's own ms


@cache
def _bound() -> bool:
    """Whether the module is built, bound, and declares llama_batch as the binding does."""
    if _native is None:
        return False
    size, offsets = _native.layout()
    batch = llama_cpp.llama_batch
    if size != ctypes.sizeof(batch) or list(offsets) != [getattr(batch, f).offset
                                                         for f in _FIELDS]:
        return False
    use_functions()
    return True


def use_functions(decode: Any = None, get_logits: Any = None, is_eog: Any = None) -> None:
    """The C loop calls these ctypes functions (a bench's or a test's stand-ins) in place of
    llama_decode, llama_get_logits and llama_vocab_is_eog; each one not given, and all of them
    with none, llama.cpp's own. Only where the module is built."""
    assert _native is not None
    names = ("llama_decode", "llama_get_logits", "llama_vocab_is_eog")
    given = (decode, get_logits, is_eog)
    _native.bind(*(ctypes.cast(llama_cpp.llama_cpp._lib[name] if f is None else f,
                               ctypes.c_void_p).value for name, f in zip(names, given,
                                                                         strict=True)))


_local = threading.local()


def _stamps(n_vocab: int) -> np.ndarray:
    """The penalty's marks for a vocabulary (n_vocab + 1 uint32, the last the generation), one
    array a thread: a chunk's call holds it alone."""
    stamps = getattr(_local, "stamps", None)
    if stamps is None or len(stamps) != n_vocab + 1:
        stamps = _local.stamps = np.zeros(n_vocab + 1, np.uint32)
    return stamps


def usable(ctx: Context) -> bool:
    return ctx.on_decode is None and _bound()


def run_chunk(ctx: Context, model: LoadedModel, history: list[int], *, penalty: float,
              last_n: int, max_new: int, budget_s: float) -> Chunk:
    """Decide tokens from the last decode's row on, and decode each but one ending the answer,
    until `budget_s` is spent; the history and the context's tokens extended with them. Only
    where `usable(ctx)`."""
    assert _native is not None
    row_stats.settle(ctx)  # rows read in the background from the buffer the loop writes
    started = time.perf_counter()
    status, tokens, ms, launch_ms, rc = _native.chunk(
        _pointer(ctx.ctx), _pointer(model.vocab), ctypes.addressof(ctx.batch), model.n_vocab,
        history, penalty, last_n, _stamps(model.n_vocab), ctx.n_past, ctx.n_ctx, max_new,
        budget_s)
    history.extend(tokens)
    ctx.tokens.extend(tokens[: len(tokens) - (status in (ENDED, DECODE_FAILED))])
    if status == DECODE_FAILED:
        raise EngineError(words(DECODE_FAILED_TEXT, code=rc))
    if status == NO_LOGITS:
        raise RuntimeError("llama.cpp returned no logits")
    return Chunk(started, status, tokens, ms, launch_ms)


def _pointer(p: int | ctypes.c_void_p | None) -> int:
    """An address llama-cpp-python hands back, as an int (its bindings give ints or c_void_p)."""
    return p if isinstance(p, int) else (p.value or 0) if p is not None else 0

"""The base of the drafters that follow the target (MTP, EAGLE-3): a small graph with a KV
cache of its own, written from the target's hidden states, as llama.cpp's `draft-mtp` and
`draft-eagle3` speculative states share theirs (`common/speculative.cpp`).

Entry e of the drafter's cache pairs the token at position e + OFFSET with the target's state
at the position before that token: MTP (OFFSET 0) keeps the entry at the token's position,
EAGLE-3 (OFFSET 1) at the state's. The drafter sees every decode of the target (`observe`),
keeps the states, and writes the entries of what the target kept in one batch when it next
drafts (`_catch_up`). A draft step writes an entry from the drafter's own state of the step
before; those entries go once the draft is made, so the cache never holds a draft step.
A subclass says how it reads the target (`_read_target`, `_encode`), how it takes up a target
context (`follow`), and, if its steps differ, overrides the step hooks.
"""

from __future__ import annotations

import time
from abc import ABC, abstractmethod

import llama_cpp
import numpy as np
from llama_cpp import llama_cpp_ext

from backend.engine.context import CONTEXT_FULL, Context, common_prefix
from backend.engine.drafters.base import Proposal, SamplingDrafter
from backend.engine.drafters.row_batch import RowBatch
from backend.engine.errors import EngineError
from backend.engine.events import Origin
from backend.words import words

MAX_OUTPUT_ROWS = 16  # rows of outputs a decode asks for at most, when it asks for every row's


class FollowerDrafter(SamplingDrafter, ABC):
    origin: Origin
    OFFSET = 0
    # For a graph that computes outputs for every row while llama.cpp hands back the first
    # ones (EAGLE-3's head), a batch asks for all its rows' outputs or for none, so that the
    # last row's are where they are read; a long last batch is cut first (MAX_OUTPUT_ROWS).
    # Otherwise only the last row of a decode asks.
    OUTPUTS_EVERY_ROW = False

    def __init__(self, ctx: Context, *, n_embd: int, n_vocab: int) -> None:
        super().__init__()
        self.ctx = ctx
        self.n_embd = n_embd  # width of the states the entries are made of
        self._n_vocab = n_vocab
        self._batch: RowBatch | None = RowBatch(ctx.n_batch, n_embd)
        self.longest_draft = ctx.n_ctx  # a subclass may draft fewer tokens at a time
        # The target's states by position, kept until the entries they make are written: as
        # the target gave them until the next catch-up, then `_encode`d in one batch.
        self._waiting: dict[int, np.ndarray] = {}
        self._states: dict[int, np.ndarray] = {}
        self._target: Context | None = None

    # -- what a subclass says ----------------------------------------------------------------
    @abstractmethod
    def follow(self, ctx: Context, tokens: list[int]) -> int:
        """TargetFollower.follow: take up `ctx` (capture its states) and say how many of its
        cached tokens the target may keep."""

    @abstractmethod
    def _read_target(self, ctx: Context, n: int) -> np.ndarray:
        """The target's states of the `n` tokens it just decoded, copied out of llama.cpp."""

    @abstractmethod
    def _decode_error(self, code: int) -> EngineError:
        """The error, in words, of a decode of the drafter's context that failed."""

    def _encode(self, read: np.ndarray) -> np.ndarray:
        """The states the entries are made of, from what `_read_target` gave: the same rows,
        unless the drafter runs them through an encoder of its own (EAGLE-3)."""
        return read

    def _state(self, p: int) -> np.ndarray | None:
        """The target's state at position p, if known."""
        return self._states.get(p)

    # -- Drafter ---------------------------------------------------------------------------
    def propose(self, history: list[int], n_max: int) -> Proposal:
        pos = len(history) - 1  # the last token, which the target has not decoded yet
        if self._target is None or self._target.n_past != pos:
            raise RuntimeError(f"the {self.origin} drafter is out of step with the target context")
        last = pos - self.OFFSET  # the entry of the last token
        n_max = min(n_max, self.ctx.n_ctx - last - 1, self.longest_draft)
        if n_max <= 0 or last < 0:
            return Proposal()  # no room, or (OFFSET 1) no state before the first token
        t0 = time.perf_counter()
        logits, h = self._first_step(history, last)
        out = Proposal(catch_up_ms=1000 * (time.perf_counter() - t0))
        seq = self.penalty_window(history)
        try:
            for i in range(n_max):
                if not self.draft_next(logits, seq, out, self._head(i)):
                    break  # unsure, or the next draft is not worth decoding this one
                if i + 1 == n_max:
                    break
                logits, h = self._next_step(seq[-1], h, last, i)
        finally:
            # the entries made from the drafter's own states go: the target's replace them
            # once it has verified
            self.ctx.truncate(self._kept_after_draft(last))
        return out

    def close(self) -> None:
        if self._batch is not None:
            self._batch.free()
            self._batch = None
        self.ctx.close()

    # -- the steps of a draft (a subclass may draft otherwise) -----------------------------
    def _first_step(self, history: list[int], last: int):
        """Catch up on what the target kept; the outputs of the last token's entry."""
        return self._catch_up(history, last + 1, want_last=True)

    def _next_step(self, token: int, h: np.ndarray, last: int, i: int):
        """Write the entry of draft i from the drafter's own state `h` of the step before."""
        return self._decode([token], h[None], last + 1 + i, want_last=True)

    def _kept_after_draft(self, last: int) -> int:
        """The entries that stay once a draft is made: those of the target's states."""
        return last + 1

    def _head(self, i: int) -> int | None:
        """The head that draws draft i (for the inspector; None: the drafter has one)."""
        return None

    # -- TargetFollower --------------------------------------------------------------------
    def observe(self, ctx: Context, pos0: int, tokens: list[int],
                rows: list[int] | None = None) -> None:
        # The states are kept and written when the drafter next drafts, in one batch with the
        # others waiting: a plain step (K auto when drafting does not pay) then costs the
        # drafter nothing. Once a batch's worth waits (a long prompt, a long plain stretch),
        # the entries before pos0, which the target keeps, are written now, so that the
        # states of about one batch wait here however long the text.
        if pos0 - len(self.ctx.tokens) >= self.ctx.n_batch:
            self._catch_up(ctx.tokens, pos0)
        self._forget_from(pos0)  # states of positions the target dropped (rejected drafts)
        if rows is None:
            read = self._read_target(ctx, len(tokens))
        else:  # a draft tree's kept branch: its rows of the tree's batch
            read = self._read_target(ctx, max(rows) + 1)[rows]
        for i in range(len(tokens)):
            self._waiting[pos0 + i] = read[i]

    def _forget_from(self, pos: int) -> None:
        """Drop the states of positions from `pos` on."""
        for states in (self._states, self._waiting):
            for p in [p for p in states if p >= pos]:
                del states[p]

    # -- the cache -------------------------------------------------------------------------
    def _catch_up(self, tokens: list[int], upto: int, *, want_last: bool = False):
        """Make the cache hold entries 0..upto-1 of `tokens`, as far as the target's states
        are known. With want_last (all must be known), return the outputs of entry upto-1."""
        if self._waiting:
            positions = sorted(self._waiting)
            states = self._encode(np.stack([self._waiting[p] for p in positions]))
            self._states.update(zip(positions, states, strict=True))
            self._waiting.clear()
        mine = self.ctx.tokens  # mine[e]: the token of entry e
        theirs = tokens[self.OFFSET:]
        upto = min(upto, len(theirs))
        keep = common_prefix(mine, theirs, upto)
        if keep < min(len(mine), upto):
            self.ctx.truncate(keep)  # entries of tokens the target no longer holds
        if want_last and len(mine) >= upto:
            self.ctx.truncate(upto - 1)  # its outputs are needed again
        start = len(mine)
        rows = []
        for e in range(start, upto):
            row = self._state(e + self.OFFSET - 1)
            if row is None:
                break
            rows.append(row)
        if want_last and start + len(rows) < upto:
            raise RuntimeError(f"the {self.origin} drafter lost the target's state it needs")
        result = None
        if rows:
            result = self._decode_caught_up(theirs[start : start + len(rows)], np.stack(rows),
                                            start, want_last=want_last)
        for p in [p for p in self._states if p < len(mine) - 1]:
            del self._states[p]  # written, and before the last entry: not needed again
        return result

    def _decode_caught_up(self, tokens: list[int], rows: np.ndarray, pos0: int, *,
                          want_last: bool):
        """`_decode` the entries made of the target's states (MTP: under every head)."""
        return self._decode(tokens, rows, pos0, want_last=want_last)

    def _decode(self, tokens: list[int], rows: np.ndarray, pos0: int, *, want_last: bool):
        """Write the entries (tokens[i], rows[i]) at positions pos0..; with want_last, return
        (logits, state) of the last one."""
        assert len(self.ctx.tokens) == pos0 and self._batch is not None
        if pos0 + len(tokens) > self.ctx.n_ctx:
            raise EngineError(words(CONTEXT_FULL, n_ctx=self.ctx.n_ctx))
        n = 0
        for start, n, n_outputs in self._batches(len(tokens), want_last):
            self._batch.fill(pos0 + start, rows[start : start + n], tokens[start : start + n],
                             n_outputs=n_outputs)
            self._run_batch(pos0 + start)
            self.ctx.tokens.extend(tokens[start : start + n])
        if not want_last:
            return None
        logits = llama_cpp.llama_get_logits_ith(self.ctx.ctx, n - 1)
        h = llama_cpp_ext.llama_get_embeddings_nextn_ith(self.ctx.ctx, n - 1)
        return (np.ctypeslib.as_array(logits, shape=(self._n_vocab,)),
                np.ctypeslib.as_array(h, shape=(self.n_embd,)).copy())

    def _batches(self, n_total: int, want_last: bool) -> list[tuple[int, int, int]]:
        """(start, length, rows asking for outputs) of each batch that writes n_total entries."""
        cap = self.ctx.n_batch
        spans = [(s, min(cap, n_total - s)) for s in range(0, n_total, cap)]
        if not spans or not want_last:
            return [(s, n, 0) for s, n in spans]
        if self.OUTPUTS_EVERY_ROW and spans[-1][1] > MAX_OUTPUT_ROWS:
            s, n = spans.pop()
            spans += [(s, n - 1), (s + n - 1, 1)]
        s, n = spans.pop()
        return [(a, b, 0) for a, b in spans] + [(s, n, n if self.OUTPUTS_EVERY_ROW else 1)]

    def _run_batch(self, pos0: int) -> None:
        """Decode the batch `_decode` filled, its first entry at pos0."""
        assert self._batch is not None
        rc = llama_cpp.llama_decode(self.ctx.ctx, self._batch.batch)
        if rc != 0:
            raise self._decode_error(rc)

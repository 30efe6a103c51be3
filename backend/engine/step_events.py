"""A verified step's event, made off the decoding thread.

The decision of a step needs little: the argmax of each verified row (greedy), or the sampler's
draw. What the window shows of it needs more: each token's probability under the target (one
log-sum-exp over the whole vocabulary a row), the target's top five, the drafter's, where a
lookup found its continuation, all as `Token`s and `Verification`s. At a 152k vocabulary that is
0.2–0.3 ms a token in numpy and Python, a quarter of a GPU's decoding step, so the engine's
thread decides and goes on decoding while one worker thread makes the event (`StepRecord.event`)
from rows it was handed as copies (`sampling.GreedyRow.detach`). llama_decode releases the GIL,
so the two overlap; events leave in order, at most `EventPipeline.ROWS_AHEAD` rows behind.
That needs a core for the worker: where llama.cpp's threads take them all, the events are made
on the decoding thread (`EventPipeline.inline`), a few steps' at a time where the rows were read
without a copy (`EventPipeline.batched`), else each as its step is put, from llama.cpp's buffer.
"""

from __future__ import annotations

import math
import threading
import time
from collections import deque
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from queue import Empty, SimpleQueue
from typing import Any, Literal

from backend.engine import sampling
from backend.engine.coalescing_queue import CoalescingQueue
from backend.engine.drafters.base import Proposal
from backend.engine.events import (
    Candidate,
    Origin,
    StepVerified,
    Token,
    TreeNode,
    Verification,
    verification_to_json,
)
from backend.engine.model import LoadedModel
from backend.engine.text import display_piece
from backend.engine.tree.structure import ROOT, DraftTree
from backend.engine.verify import Verdict

MATCH_CONTEXT_TOKENS = 12  # the tokens before a lookup's match the inspector shows


@dataclass(slots=True)  # not frozen: a frozen one's 20 fields cost ~2 µs a step to set
class StepRecord:
    """What one step decided, with what its event is made of. The counts and times are read at
    once (the answer's tally, K auto); `event()` is made later, on the worker. Never changed
    once made."""

    number: int
    model: LoadedModel
    proposal: Proposal
    drafts: list[int]
    origin: Origin | None  # the drafter's, None for a plain step of a plain request
    verdict: Verdict
    # the target's rows 0..n_accepted: copies, or llama.cpp's own where the event is made
    # before anything decodes again (inline)
    p_rows: list[sampling.Row]
    history: list[int]  # the answer's token list (read before this step's tokens only)
    emitted: list[tuple[int, str]]  # the answer's new tokens and their text
    n_used: int  # accepted drafts that joined the answer
    greedy: bool
    draft_ms: float
    verify_ms: float
    ms: float
    tree: DraftTree | None = None  # a tree step's tree, and the branch kept
    kept: tuple[int, ...] = ()
    # Per drafted token, the row of `p_rows` it was examined against (-1: never examined);
    # () for a chain, whose token i was examined at row i up to the first rejection. A tree
    # step's rejected first choice sits after the branch kept but was examined at its depth.
    draft_rows: tuple[int, ...] = ()
    # Sampled tree steps: each examined drafted token's acceptance probability (its p with the
    # siblings tried before it removed); () for a chain, whose is min(1, p/q)
    accepts: tuple[float, ...] = ()
    # the request's `inspect`: without it the tokens carry no p and no inspector's records
    inspect: bool = True

    def _row(self, i: int) -> int:
        if self.draft_rows:
            return self.draft_rows[i]
        return i if i <= self.verdict.n_accepted else -1

    def event(self) -> StepVerified:
        drafts, proposal, n_acc = self.drafts, self.proposal, self.verdict.n_accepted
        shown = self.inspect
        checks, own_check = self._inspection() if shown else ([None] * len(drafts), None)
        p_rows, origin = self.p_rows, self.origin
        p_draft = [_p_draft(proposal, i, d) for i, d in enumerate(drafts)]
        emitted = tuple(
            Token(tok, text, origin if origin is not None and i < n_acc else "target", True,
                  p_rows[i].p(tok) if shown else None, p_draft[i] if i < n_acc else None,
                  proposal.heads[i] if i < n_acc else None,
                  _encoded(checks[i] if i < n_acc else own_check))
            for i, (tok, text) in enumerate(self.emitted))
        drafted = tuple(
            Token(d, display_piece(self.model.piece(d)), origin, i < n_acc,
                  p_rows[self._row(i)].p(d) if shown and self._row(i) >= 0 else None,
                  p_draft[i],
                  proposal.heads[i], _encoded(checks[i]))
            for i, d in enumerate(drafts)
        ) if origin is not None else ()
        return StepVerified(self.number, drafted, self.n_used, emitted, self.draft_ms,
                            self.verify_ms, self.ms, self._tree_nodes())

    def _tree_nodes(self) -> tuple[TreeNode, ...]:
        """The tree as the views draw it; p where the target's row under the node's parent
        was read (the root's and the kept branch's rows, `p_rows`)."""
        tree = self.tree
        if tree is None:
            return ()
        row_after = {ROOT: 0, **{node: i + 1 for i, node in enumerate(self.kept)}}
        kept = set(self.kept)
        nodes = []
        for i, tok in enumerate(tree.tokens):
            r = row_after.get(tree.parents[i])
            nodes.append(TreeNode(tree.parents[i], tok, display_piece(self.model.piece(tok)),
                                  tree.q[i],
                                  self.p_rows[r].p(tok) if r is not None and self.inspect
                                  else None,
                                  tree.ranks[i], i in kept))
        return tuple(nodes)

    def _inspection(self) -> tuple[list[Verification | None], Verification]:
        """What verification used, per drafted token and for the target's own token."""
        model, verdict, p_rows, proposal = self.model, self.verdict, self.p_rows, self.proposal
        rule: Literal["greedy", "sampled"] = "greedy" if self.greedy else "sampled"
        n_acc = verdict.n_accepted

        def candidates(pairs: list[tuple[int, float]] | None) -> tuple[Candidate, ...]:
            return tuple(Candidate(t, display_piece(model.piece(t)), p) for t, p in pairs or ())

        tops: dict[int, tuple[Candidate, ...]] = {}

        def top_target(i: int) -> tuple[Candidate, ...]:
            # row n_acc is a rejected draft's and the target's own token's: scanned once
            if i not in tops:
                tops[i] = candidates(p_rows[i].top())
            return tops[i]

        per_draft: list[Verification | None] = []
        for i, x in enumerate(self.drafts):
            r = self._row(i)
            if r < 0:
                per_draft.append(None)  # after the first rejection: never examined
                continue
            draw = accept = None
            if not self.greedy:
                q = proposal.dists[i]  # a sampled row is the drafter's own, never a view
                qx = 1.0 if q is None else q.p(x)
                draw = verdict.draws[i]
                accept = (self.accepts[i] if self.accepts
                          else min(1.0, p_rows[r].p(x) / qx) if qx > 0.0 else 0.0)
            source = _at(proposal.sources, i)
            match_text = ""
            if source is not None:
                lead = self.history[max(0, source - MATCH_CONTEXT_TOKENS): source]
                match_text = "".join(display_piece(model.piece(t)) for t in lead)
            per_draft.append(Verification(
                rule, draw, accept, top_target=top_target(r),
                top_draft=candidates(_top(_at(proposal.tops, i))), match_at=source,
                match_text=match_text, block=proposal.block))
        if self.greedy:
            how: Literal["argmax", "residual", "target"] = "argmax"
        else:
            how = "residual" if n_acc < len(self.drafts) else "target"
        own = Verification(rule, drawn_from=how, residual_p=verdict.token_p if how == "residual"
                           else None, top_target=top_target(n_acc))
        return per_draft, own


class EventPipeline:
    """One worker thread that makes steps' events in order, while the engine's thread decodes.
    The jobs reach it through a `CoalescingQueue`, which wakes it at most every `WAKE_EVERY_S`
    (each wake costs the decoding thread, coalescing_queue.py). `ROWS_AHEAD` bounds how far the
    decoding may run ahead of the events in rows held (each a copy, 0.6 MB at 152k tokens):
    past it the worker is rung and the decoding waits. Results come back on a `SimpleQueue`
    the engine's thread reads without waiting."""

    WAKE_EVERY_S = 0.008  # an event waits at most about this long to be made: half a frame
    ROWS_AHEAD = 24

    def __init__(self) -> None:
        # Made on the caller's thread as each step is put, where no core is left for the
        # worker (the engine's `_spare_core`): there the worker could only take its time from
        # llama.cpp's threads, and its Python takes the GIL between decodes from the decoding
        # thread, which then waits for it (the large-vocabulary target at 2 threads on 2
        # cores: 764 tokens/s inline, 720 beside; 508 inline, 579 beside at 1 thread).
        self.inline = False
        # Inline, the events of the steps of up to WAKE_EVERY_S made together, as the worker
        # makes them: each decode leaves the CPU's caches cold for Python, so an event made
        # alone after one cost 49 µs where one among several cost 19 (lv-target). For rows the
        # engine detached without copying them (`GreedyRow.detach` in C); else each at once.
        self.batched = False
        self._inline: list[Callable[[], StepVerified]] = []
        self._inline_since = 0.0  # when the oldest held step was put
        self._inline_last = -math.inf  # when the last step was put (none yet: each at once)
        self._jobs: CoalescingQueue[Callable[[], StepVerified] | None] = CoalescingQueue(
            self.WAKE_EVERY_S)
        self._made: SimpleQueue[tuple[bool, Any]] = SimpleQueue()  # (made, event or error)
        self._held: deque[int] = deque()  # rows of each job put whose result is not yet taken
        self._rows = 0  # their sum
        self._worker: threading.Thread | None = None  # started by the first step

    @property
    def at_once(self) -> bool:
        """Whether each step's event is made as it is put, from the rows where they lie
        (inline, not batched): the next decode then waits for it."""
        return self.inline and not self.batched

    def put(self, make: Callable[[], StepVerified], rows: int = 1) -> Iterator[StepVerified]:
        """Queue one step's event, whose step holds `rows` rows; give back, in order, those
        already made (waiting only while more than ROWS_AHEAD rows are held, and never for
        the step just put)."""
        if self.inline and not self._held:
            if not self.batched:
                yield make()
                return
            now = time.perf_counter()
            if not self._inline:
                self._inline_since = now
            self._inline.append(make)
            # made now where the next step, as far apart as this one, would come too late
            gap, self._inline_last = now - self._inline_last, now
            if (now - self._inline_since + gap >= self.WAKE_EVERY_S
                    or len(self._inline) > self.ROWS_AHEAD):
                yield from self._made_inline()
            return
        if self._worker is None:
            self._worker = threading.Thread(target=self._work, name="step-events", daemon=True)
            self._worker.start()
        self._held.append(rows)
        self._rows += rows
        self._jobs.put(make, wake=self._over())
        while self._held:
            if self._over():
                result = self._made.get()
            else:
                try:
                    result = self._made.get_nowait()
                except Empty:
                    return
            yield self._taken(result)

    def _made_inline(self) -> Iterator[StepVerified]:
        jobs, self._inline = self._inline, []
        for make in jobs:
            yield make()

    def drain(self) -> Iterator[StepVerified]:
        """Every event still held, in order."""
        yield from self._made_inline()
        self._inline_last = -math.inf  # the next answer's first step: at once
        self._jobs.ring()
        while self._held:
            yield self._taken(self._made.get())

    def discard(self) -> None:
        """Forget the held steps (an answer that failed or was dropped half way), waiting until
        each is made: they read the models, which may be closed next."""
        self._inline.clear()
        self._inline_last = -math.inf
        self._jobs.ring()
        while self._held:
            self._made.get()
            self._rows -= self._held.popleft()

    def close(self) -> None:
        self.discard()
        if self._worker is not None:
            self._jobs.put(None, wake=True)
            self._worker.join()
            self._worker = None

    def _over(self) -> bool:
        """More rows held than ROWS_AHEAD, beyond the latest step's (which is always let be)."""
        return self._rows - self._held[-1] > self.ROWS_AHEAD

    def _taken(self, result: tuple[bool, Any]) -> StepVerified:
        self._rows -= self._held.popleft()
        made, value = result
        if not made:
            raise value
        return value

    def _work(self) -> None:
        while (make := self._jobs.get()) is not None:
            try:
                self._made.put((True, make()))
            except BaseException as exc:  # raised again on the engine's thread
                self._made.put((False, exc))


def _encoded(v: Verification | None) -> str | None:
    return None if v is None else verification_to_json(v)


def _p_draft(proposal: Proposal, i: int, token: int) -> float | None:
    """The drafter's probability of its i-th draft: as it gave it, else read from its row."""
    p = proposal.p_draft[i]
    if p is None:
        row = _at(proposal.tops, i)
        p = None if row is None else row.p(token)
    return p


def _top(row: sampling.Row | None) -> list[tuple[int, float]] | None:
    return None if row is None else row.top()


def _at(values: list, i: int):
    """values[i], or None past the end (a drafter may leave the inspector's lists short)."""
    return values[i] if i < len(values) else None

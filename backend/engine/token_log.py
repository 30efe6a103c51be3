"""An answer's tokens in display order, stored flat, as the window keeps them and the engine
process sends them to it.

Keeping every StepVerified/Token object of a long answer alive would give Python's cyclic
garbage collector hundreds of thousands of objects to scan, and its full collections then
freeze the GUI for 100 ms and more (measured with bench/ui_bench.py). Parallel lists of
strings, numbers and None hold the same facts with no per-token container, so those pauses
stay short however long the answer; a Token is rebuilt on demand for a tooltip.
"""

from __future__ import annotations

import sys
from collections.abc import Iterable, Iterator, Mapping, Sequence

from backend.engine.events import StepVerified, Token, TreeNode, accepted_before_rejection


class TokenLog:
    """Tokens in the order they are drawn: per step the accepted drafts, then the rejected
    drafts, then the target's own token."""

    # The per-token columns. `extend` goes through them in order and `text` must come last
    # (see app/conversation.new_tokens), hence names in alphabetical order before it.
    COLUMNS = ("accepted", "head", "id", "inspection", "origin", "p_draft", "p_target", "step",
               "text")
    __slots__ = (*COLUMNS, "branches")

    def __init__(self) -> None:
        self.step: list[int] = []
        self.id: list[int] = []
        self.text: list[str] = []
        self.origin: list[str] = []
        self.accepted: list[bool] = []
        self.p_target: list[float | None] = []
        self.p_draft: list[float | None] = []
        self.head: list[int | None] = []
        # what verification used on each token, as compact JSON (None when not recorded)
        self.inspection: list[str | None] = []
        # indices of the drafts a tree step kept off the drafter's first choices (its second
        # or third choice stood): marked in the transcript. Not stored with a chat: found
        # again from its trees (`mark_branches`).
        self.branches: list[int] = []

    def __len__(self) -> int:
        return len(self.text)

    def add_step(self, step: StepVerified) -> None:
        emitted = step.emitted
        n = 0
        while n < len(emitted) and emitted[n].origin != "target":
            n += 1
        off = _branch_at(step.tree, n)
        if off is not None:
            self.branches.append(len(self.text) + off)
        for token in emitted[:n]:
            self._add(step.step, token)
        for token in step.drafted:
            if not token.accepted:
                self._add(step.step, token)
        for token in emitted[n:]:
            self._add(step.step, token)

    def mark_branches(self, trees: Mapping[int, Sequence[TreeNode]]) -> None:
        """`branches` found again from the steps' trees, for a log read back from the chat
        store (which keeps the trees, not the marks): as `add_step` finds them."""
        self.branches = []
        i, n = 0, len(self.text)
        while i < n:
            step, j, accepted = self.step[i], i, 0
            while j < n and self.step[j] == step:
                accepted += self.origin[j] != "target" and bool(self.accepted[j])
                j += 1
            # a stored step is data: one that is no number has no tree
            off = _branch_at(trees.get(step, ()) if isinstance(step, int) else (), accepted)
            if off is not None:
                self.branches.append(i + off)  # accepted drafts come first in a step
            i = j

    def _add(self, step: int, t: Token) -> None:
        self.step.append(step)
        self.id.append(t.id)
        self.text.append(t.text)
        self.origin.append(sys.intern(t.origin))
        self.accepted.append(t.accepted)
        self.p_target.append(t.p_target)
        self.p_draft.append(t.p_draft)
        self.head.append(t.head)
        self.inspection.append(t.inspection)  # already JSON, made in the engine process

    def token(self, i: int) -> Token:
        return Token(self.id[i], self.text[i], self.origin[i], self.accepted[i],
                     self.p_target[i], self.p_draft[i], self.head[i], self.inspection[i])

    def emitted(self) -> list[int]:
        """Indices of the tokens that joined the answer: the target's own and accepted drafts
        (the log also holds the rejected drafts, in display order)."""
        return [i for i, (origin, ok) in enumerate(zip(self.origin, self.accepted, strict=True))
                if origin == "target" or ok]

    def extend(self, other: TokenLog) -> None:
        n = len(self.text)
        for name in TokenLog.COLUMNS:
            getattr(self, name).extend(getattr(other, name))
        self.branches.extend(n + i for i in other.branches)


def _branch_at(tree: Sequence[TreeNode], n_accepted: int) -> int | None:
    """Which of a step's `n_accepted` accepted drafts is where its tree's kept branch leaves
    the drafter's first choices (a lookup's older copy may go on); None if none is."""
    kept = [node for node in tree if node.kept]
    off = next((i for i, node in enumerate(kept) if node.rank > 0), n_accepted)
    return off if off < n_accepted else None


class StepBatch:
    """Consecutive StepVerified events folded into flat lists before they cross to the GUI
    (by the engine process's sender, outbox.py, or the window's worker in slow motion): a
    fast stream then puts a handful of objects in flight per batch, not a dozen per step,
    and the GUI thread appends lists instead of walking events."""

    __slots__ = ("accepted", "draft_ms", "drafted", "ms", "ms_to_first_emit", "n_emitted",
                 "parts", "plain_ms", "target_accepted", "tokens", "trees", "verify_ms")

    def __init__(self) -> None:
        self.tokens = TokenLog()
        self.parts: list[str] = []  # emitted texts: the answer itself
        self.accepted: list[int] = []  # per step
        self.drafted: list[int] = []  # per step
        # Per step, what the advisor reads: the drafts the target accepted before its first
        # rejection (unlike `accepted`, also any past the answer's end), and the step's times.
        self.target_accepted: list[int] = []
        self.draft_ms: list[float] = []
        self.verify_ms: list[float] = []
        self.n_emitted = 0
        self.ms = 0.0  # engine time of these steps (in all, or draft + verify in old traces)
        # (step number, ms) of the plain steps among them: plain decoding's yardstick
        # (backend/engine/plain_yardstick.py)
        self.plain_ms: list[tuple[int, float]] = []
        self.ms_to_first_emit: float | None = None
        # (step number, its tree) of the tree steps among them (backend/engine/tree)
        self.trees: list[tuple[int, tuple[TreeNode, ...]]] = []

    def __len__(self) -> int:
        return len(self.accepted)

    def add(self, step: StepVerified) -> None:
        self.tokens.add_step(step)
        self.parts.extend(t.text for t in step.emitted)
        self.accepted.append(step.n_accepted)
        self.drafted.append(len(step.drafted))
        self.target_accepted.append(accepted_before_rejection(step))
        self.draft_ms.append(step.draft_ms)
        self.verify_ms.append(step.verify_ms)
        self.n_emitted += len(step.emitted)
        self.ms += step.ms or step.draft_ms + step.verify_ms
        if not step.drafted and step.ms > 0:
            self.plain_ms.append((step.step, step.ms))
        if step.tree:
            self.trees.append((step.step, step.tree))
        if self.ms_to_first_emit is None and step.emitted:
            self.ms_to_first_emit = self.ms

    @classmethod
    def plain(cls, first: int, emitted: Sequence[tuple[int, str]], verify_ms: Sequence[float],
              ms: Sequence[float]) -> StepBatch:
        """Plain steps numbered from `first`, each one emitted (token, text) that drafted
        nothing, read for its text alone (no p, no inspection): what `add` folds of their
        StepVerified events (`plain_steps`), made without them (backend/engine/plain_chunk.py:
        at a GPU's rates each event made and folded cost a token a few µs of the engine's)."""
        batch = cls()
        n = len(emitted)
        log = batch.tokens
        log.step = list(range(first, first + n))
        log.id = [tok for tok, _text in emitted]
        log.text = [text for _tok, text in emitted]
        log.origin = ["target"] * n
        log.accepted = [True] * n
        log.p_target = [None] * n
        log.p_draft = [None] * n
        log.head = [None] * n
        log.inspection = [None] * n
        batch.parts = list(log.text)
        batch.accepted = [0] * n
        batch.drafted = [0] * n
        batch.target_accepted = [0] * n
        batch.draft_ms = [0.0] * n
        batch.verify_ms = list(verify_ms)
        batch.n_emitted = n
        for step, step_ms, verified in zip(log.step, ms, verify_ms, strict=True):
            batch.ms += step_ms or verified  # as `add` sums them
            if step_ms > 0:
                batch.plain_ms.append((step, step_ms))
            if batch.ms_to_first_emit is None:
                batch.ms_to_first_emit = batch.ms
        return batch

    def plain_steps(self) -> Iterator[StepVerified]:
        """The StepVerified events of a batch `plain` made, for callers that take steps one by
        one (`Engine.generate`)."""
        log = self.tokens
        if len(log) != len(self) or any(self.drafted):
            raise ValueError("not a batch of plain steps")
        ms = dict(self.plain_ms)  # those of 0 ms are left out
        for i, step in enumerate(log.step):
            yield StepVerified(step, (), 0, (log.token(i),), 0.0, self.verify_ms[i],
                               ms.get(step, 0.0))

    def extend(self, other: StepBatch) -> None:
        """`other`'s steps after these, as if each had been `add`ed."""
        self.tokens.extend(other.tokens)
        self.parts.extend(other.parts)
        self.accepted.extend(other.accepted)
        self.drafted.extend(other.drafted)
        self.target_accepted.extend(other.target_accepted)
        self.draft_ms.extend(other.draft_ms)
        self.verify_ms.extend(other.verify_ms)
        self.n_emitted += other.n_emitted
        if self.ms_to_first_emit is None and other.ms_to_first_emit is not None:
            self.ms_to_first_emit = self.ms + other.ms_to_first_emit
        self.ms += other.ms
        self.plain_ms.extend(other.plain_ms)
        self.trees.extend(other.trees)


def fold_steps(events: Iterable) -> list:
    """Events with each run of steps folded into one StepBatch: how steps cross to the GUI
    thread (the worker) and how a recorded trace is replayed (app/chat/trace_opening.py). Steps
    already folded (a StepBatch) join the run; what is given is never changed."""
    out: list = []
    steps: StepBatch | None = None
    for event in events:
        kind = type(event)
        if kind is StepVerified or kind is StepBatch:
            if steps is None:
                steps = StepBatch()
                out.append(steps)
            if kind is StepVerified:
                steps.add(event)
            else:
                steps.extend(event)
        else:
            out.append(event)
            steps = None
    return out

"""The replay's script: a finished answer cut into frames, three per verification step — the
drafter proposes K tokens, the target gives its verdict on each, the target adds its own
token — from the recorded token log alone. Qt-free, so the loop's story is tested as data.
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Literal

from app.i18n import translate
from app.teaching.inspection import drafter_words, drafting, shown, step_block
from backend import spec_types
from backend.engine.events import TreeNode
from backend.engine.token_log import TokenLog

Phase = Literal["propose", "verdict", "target"]


@dataclass(frozen=True)
class StepSpan:
    """One verification step's tokens in the log: drafts (accepted, then rejected) in
    [start, drafts_end), the target's own token(s) in [drafts_end, end)."""

    number: int
    start: int
    drafts_end: int
    end: int
    n_accepted: int

    @property
    def n_drafted(self) -> int:
        return self.drafts_end - self.start


@dataclass(frozen=True)
class Frame:
    step: int  # index into ReplayScript.steps
    phase: Phase


def step_spans(log: TokenLog) -> list[StepSpan]:
    spans: list[StepSpan] = []
    i, n = 0, len(log)
    while i < n:
        number = log.step[i]
        j = i
        while j < n and log.step[j] == number and log.origin[j] != "target":
            j += 1
        k = j
        while k < n and log.step[k] == number:
            k += 1
        accepted = sum(1 for x in range(i, j) if log.accepted[x])
        spans.append(StepSpan(number, i, j, k, accepted))
        i = k
    return spans


class ReplayScript:
    def __init__(self, log: TokenLog, spec_type: str = spec_types.PLAIN,
                 trees: Mapping[int, tuple[TreeNode, ...]] | None = None) -> None:
        self.log = log
        self.spec_type = spec_type
        self.trees = trees or {}  # a tree step's tree by its step number (Answer.trees)
        self.steps = step_spans(log)
        self.frames: list[Frame] = []
        self._first_frame: list[int] = []  # per step, the index of its first frame
        for s, span in enumerate(self.steps):
            self._first_frame.append(len(self.frames))
            if span.n_drafted:
                self.frames += [Frame(s, "propose"), Frame(s, "verdict")]
            self.frames.append(Frame(s, "target"))

    def __len__(self) -> int:
        return len(self.frames)

    def frame_of_step(self, step_index: int) -> int:
        return self._first_frame[step_index]

    def step_of_frame(self, frame: int) -> int:
        return bisect_right(self._first_frame, frame) - 1

    def caption(self, frame: int) -> str:
        """What happens in this frame, in one sentence a class can read aloud."""
        f = self.frames[frame]
        span = self.steps[f.step]
        head = translate("Replay", "Step {step} of {n}: ").format(step=f.step + 1,
                                                                  n=len(self.steps))
        tree = self.trees.get(span.number, ())
        if f.phase == "propose":
            if tree:
                return head + translate("Replay", "{drafter} proposes a tree of {n} tokens: its "
                                        "chain and, beside it, its next choices.").format(
                    drafter=drafter_words(self.log.origin[span.start]), n=len(tree))
            return head + self._proposal(span)
        if f.phase == "verdict" and tree:
            return head + translate("Replay", "the target checks the whole tree in one batch "
                                    "and keeps the branch it agrees with: {accepted} "
                                    "tokens.").format(accepted=span.n_accepted)
        if f.phase == "verdict":
            rejected = span.n_drafted - span.n_accepted
            if not rejected:
                return head + translate("Replay", "the target checks them in one batch and "
                                        "accepts all {n}.").format(n=span.n_drafted)
            return head + translate("Replay", "the target checks them in one batch: {accepted} "
                                    "accepted, {rejected} rejected (struck out).").format(
                accepted=span.n_accepted, rejected=rejected)
        text = "".join(self.log.text[i] for i in range(span.drafts_end, span.end))
        own = shown(text) if text else translate("Replay", "the end of the answer")
        if not span.n_drafted:
            return head + translate("Replay", "the target decodes {token} on its own (nothing "
                                    "was drafted).").format(token=own)
        if span.n_accepted < span.n_drafted:
            return head + translate("Replay", "the target puts its own token {token} where it "
                                    "rejected.").format(token=own)
        return head + translate("Replay", "every draft stood, so the same batch gives a bonus "
                                "token {token}.").format(token=own)

    def _proposal(self, span: StepSpan) -> str:
        """The propose frame's words: a block drafter's whole block arrives at once, from one
        pass of its model; a model that drafts token by token ran once per token, though its
        proposal is drawn whole; a lookup copied its tokens."""
        # the step's own drafter: in a chain, the member that drafted it
        drafter = self.log.origin[span.start] if span.n_drafted else self.spec_type
        n, how = span.n_drafted, drafting(drafter)
        block = step_block(self.log, span.start) if how == "one_pass" and n else ()
        if block:
            return translate("Replay", "{drafter} fills a block of {rows} rows in one pass, all "
                             "at once: the target's last token, then {masks} masks; {n} "
                             "drafted.").format(drafter=drafter_words(drafter), rows=block[1],
                                                masks=block[1] - 1, n=n)
        if how == "one_pass":
            fills = (translate("Replay", "{drafter} fills a block of {n} position in one pass.")
                     if n == 1 else
                     translate("Replay", "{drafter} fills a block of {n} positions in one "
                               "pass, all at once."))
            return fills.format(drafter=drafter_words(drafter), n=n)
        if how == "per_token" and n > 1:
            return translate("Replay", "{drafter} proposes {n} tokens, one pass per token, "
                             "each fed back for the next.").format(
                drafter=drafter_words(drafter), n=n)
        proposes = (translate("Replay", "{drafter} proposes {n} token.") if n == 1
                    else translate("Replay", "{drafter} proposes {n} tokens."))
        return proposes.format(drafter=drafter_words(drafter), n=n)

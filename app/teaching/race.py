"""The race's arithmetic: when, in an answer's measured time, each of its tokens appeared, and
the words for who won. Qt-free, so the replayed timings are tested as data.

An answer's clock starts with the request: its prompt pass (prompt_ms), then its steps. Each
step ends at its share of the measured generation time, in proportion to the engine's own
draft and verify times for it, so the replay ends exactly when the engine finished and the
speedup it shows is the one measured.
"""

from __future__ import annotations

from bisect import bisect_right
from dataclasses import dataclass

from PySide6.QtCore import QT_TRANSLATE_NOOP

from app.backend_text import draft_length_words, spec_caption
from app.i18n import translate
from app.teaching.replay import step_spans
from app.transcript.answer import Answer
from backend import spec_types


@dataclass(frozen=True)
class Timeline:
    ends_ms: list[float]  # per step, when its tokens appeared (from the request)
    log_ends: list[int]  # per step, the TokenLog index its tokens end at
    total_ms: float

    def drawn_at(self, t_ms: float) -> int:
        """How many TokenLog entries are on screen at t_ms into the replay."""
        k = bisect_right(self.ends_ms, t_ms)
        return self.log_ends[k - 1] if k else 0


def timeline(answer: Answer) -> Timeline:
    spans = step_spans(answer.tokens)
    stats = answer.stats()
    steps_ms = [d + v for d, v in zip(answer.draft_ms, answer.verify_ms, strict=True)]
    if len(steps_ms) != len(spans):
        raise ValueError("the answer's step timings do not match its tokens")
    measured = sum(steps_ms)
    scale = stats.generation_ms / measured if measured > 0 else 0.0
    ends, t = [], stats.prompt_ms
    for ms in steps_ms:
        t += ms * scale
        ends.append(t)
    return Timeline(ends, [s.end for s in spans], stats.prompt_ms + stats.generation_ms)


def side_name(answer: Answer) -> str:
    if answer.spec_type == spec_types.PLAIN:
        return translate("Race", "Plain decoding")
    name = spec_caption(answer.spec_type)
    return name[:1].upper() + name[1:]


def side_label(answer: Answer) -> str:
    spec = spec_types.get(answer.spec_type)
    name = side_name(answer)
    if spec is not None and spec.drafts:
        name += f", {draft_length_words(answer.spec_type, answer.n_draft_max)}"
    stats = answer.stats()
    return translate("Race", "{name} · {n} tokens · {rate:.1f} tok/s").format(
        name=name, n=stats.n_generated, rate=stats.tokens_per_second)


def verdict(plain: Answer, spec: Answer) -> str:
    """Who won, by the measured decoding rates (tokens per second: the two may differ in
    length when sampled or stopped early)."""
    p, s = plain.stats().tokens_per_second, spec.stats().tokens_per_second
    if p <= 0 or s <= 0:
        return translate("Race", "No timings to compare.")
    ratio = s / p
    caption = side_name(spec)
    if ratio >= 1.0:
        return translate("Race", "{name} decoded ×{ratio:.2f} as fast as plain decoding "
                         "({rate:.1f} against {plain:.1f} tokens/s).").format(
            name=caption, ratio=ratio, rate=s, plain=p)
    return translate("Race", "{name} was slower than plain decoding here: ×{ratio:.2f} "
                     "({rate:.1f} against {plain:.1f} tokens/s).").format(
        name=caption, ratio=ratio, rate=s, plain=p)


# The speculative run's own plain steps and the plain run measured plain decoding at speeds
# this far apart: the machine's load changed between the runs, and the race says so.
LOAD_CHANGED = 0.15


def load_note(plain: Answer, spec: Answer) -> str:
    """When the machine's speed moved between the runs, what each run saw of plain decoding
    and the speedup measured within the speculative run alone (its own plain steps, in the
    same moment as its drafting ones); empty when it held, or there is nothing to compare."""
    p, s = plain.stats().tokens_per_second, spec.stats()
    q = s.plain_tokens_per_second
    if p <= 0 or not s.speedup or abs(q / p - 1) <= LOAD_CHANGED:
        return ""
    return translate("Race", "The machine's speed changed between the runs: plain decoding ran "
                     "at {plain:.1f} tokens/s in the plain run and at {during:.1f} within the "
                     "speculative one, which measured ×{speedup:.2f} against its own plain "
                     "steps.").format(plain=p, during=q, speedup=s.speedup)


def progress(answer: Answer, n: int) -> str:
    """The line while run `n` of 2 is measured: which, the tokens so far, their rate."""
    stats = answer.stats()
    return translate("Race", "Measuring {name} ({n} of 2)… {tokens} tokens, {rate:.1f} "
                     "tokens/s").format(name=side_name(answer).lower(), n=n,
                                        tokens=stats.n_generated, rate=stats.tokens_per_second)


REPLAY_NOTE = QT_TRANSLATE_NOOP(
    "Race", "A replay of timings measured on this machine: the two answers ran one after the "
    "other, not at the same time, and are shown at their recorded speeds.")

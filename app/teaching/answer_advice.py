"""What the advisor says under a finished speculative answer, in one line: the best draft
length K for this pair on this machine with its speedup, or the plain warning. Qt-free.

The numbers are backend.advisor's, from the per-step lists the Answer keeps; `answer_advice`
walks every step, so the window (app.transcript.transcript_view) runs it off the GUI thread once the
answer has finished and its lists no longer grow, and AnswerWidget shows the line.
"""

from __future__ import annotations

from dataclasses import replace

from app.backend_text import words_text
from app.i18n import translate
from app.transcript.answer import Answer
from backend import spec_types
from backend.advisor import (
    MIN_DRAFT_STEPS,
    Advice,
    advise_per_step,
    k_auto_drafter,
    step_overhead_ms,
)
from backend.tree_advice import TreePrediction, chain_shape, predict_shapes

# Answers that ran to an end of their own: one cut short (stopped, interrupted by a crash or
# another model's load, failed) measured a stretch that says nothing of the rest.
RAN_TO_AN_END = frozenset({"eos", "length", "stop_string", "context_full"})


def wants_advice(answer: Answer) -> bool:
    """A speculative answer that ran to its end and whose steps were timed (one loaded from
    the store keeps no timings, and a plain answer has no drafts to judge)."""
    spec = spec_types.get(answer.spec_type)
    return (answer.done and answer.error is None and answer.stop_reason in RAN_TO_AN_END
            and spec is not None and spec.drafts and answer.n_draft_steps > 0
            and len(answer.draft_ms) == answer.n_steps)


def answer_advice(answer: Answer) -> Advice:
    """The advisor on a finished answer's steps (its lists are read, never changed: they stop
    growing when the answer finishes, so a pool thread may read them)."""
    stats = answer.stats()
    spec = spec_types.get(answer.spec_type)
    k_auto = not answer.n_draft_max
    advice = advise_per_step(answer.drafted_lengths, answer.target_accepted, answer.draft_ms,
                             answer.verify_ms,
                             plain_tokens_per_second=stats.sure_plain_tokens_per_second,
                             overhead_ms=step_overhead_ms(stats),
                             asked=answer.n_draft_max or None,
                             k_auto=k_auto_drafter(spec) if k_auto else None,
                             k_auto_speedup=(stats.speedup or None) if k_auto else None)
    trees = tree_versus_chain(answer, step_overhead_ms(stats) or 0.0)
    return replace(advice, trees=trees) if trees is not None else advice


def tree_versus_chain(answer: Answer, overhead_ms: float
                      ) -> tuple[TreePrediction, TreePrediction] | None:
    """A tree answer's trees and the chains they grew from, predicted from its own steps
    (backend/tree_advice.py); None for an answer of chains. Its steps' numbers are those of
    its tokens, in order (every step makes at least one)."""
    if not answer.trees or answer.n_draft_steps < MIN_DRAFT_STEPS:
        return None  # a handful of steps: no figure at all, as for a chain
    numbers = list(dict.fromkeys(answer.tokens.step))
    if len(numbers) != len(answer.draft_ms):
        return None  # a continued or damaged record: the steps cannot be matched
    shapes = [answer.trees.get(n) or chain_shape(d, a) for n, d, a in zip(
        numbers, answer.drafted_lengths, answer.target_accepted, strict=True)]
    return predict_shapes(shapes, answer.draft_ms, answer.verify_ms,
                          [a + 1 for a in answer.accepted_lengths], overhead_ms)


def advice_line(advice: Advice) -> str:
    """One short line: for token trees, the trees against the chains they grew from; else the
    warning when speculation loses, else the best K and its speedup, else why there is no
    advice."""
    if advice.trees is not None:
        return tree_line(*advice.trees)
    if advice.warning_words is not None:
        return translate("Advisor", "Advisor: {words}").format(
            words=words_text(advice.warning_words))
    if advice.best_k is not None and advice.speedup is not None:
        low, high = advice.speedup_range or (advice.speedup, advice.speedup)
        return translate("Advisor", "Advisor: best K = {k} for this pair on this machine, an "
                         "expected {low:.2f}–{high:.2f}× over plain decoding.").format(
            k=advice.best_k, low=low, high=high)
    summary = words_text(advice.summary_words) if advice.summary_words else advice.summary
    return translate("Advisor", "Advisor: {words}").format(words=summary)


def tree_line(trees: TreePrediction, chains: TreePrediction) -> str:
    verdict = (translate("Advisor", "The trees are faster here.")
               if trees.tokens_per_second >= chains.tokens_per_second else
               translate("Advisor", "The chain alone is faster on this machine: the rows a "
                         "tree adds to the batch cost more than the tokens it gains."))
    return translate("Advisor", "Advisor: this answer's trees, {tree_tokens:.2f} tokens a step, "
                     "about {tree_rate:.0f} tok/s; the chains they grew from, verified alone, "
                     "{chain_tokens:.2f} tokens a step, about {chain_rate:.0f} tok/s. "
                     "{verdict}").format(
        tree_tokens=trees.tokens_per_step, tree_rate=trees.tokens_per_second,
        chain_tokens=chains.tokens_per_step, chain_rate=chains.tokens_per_second,
        verdict=verdict)


def advice_text(advice: Advice) -> str:
    """Everything the advisor said (Advice.text), in the window's language."""
    words = [advice.summary_words, advice.warning_words, *advice.notes_words]
    return "\n".join(words_text(w) for w in words if w is not None)

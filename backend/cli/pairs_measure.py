"""`draftlight pairs TARGET --measure`: every accepted candidate on this machine measured in
an engine process (backend/models/pair_measure.py; a kept measurement is read back, not made
again), and every way to speculate ranked, plain decoding included; Hub candidates are listed
as not downloaded."""

from __future__ import annotations

import dataclasses
import sys
from typing import Any

from backend import spec_types
from backend.cli.terminal import terminal_text as shown
from backend.models.draft_finder import PairFinding
from backend.models.pair_measure import PROMPTS, Progress
from backend.models.pair_results import PairMeasurement, RankedWay
from backend.models.pair_run import Measured, PairRun
from backend.words import Words, words_to_dict


def measure(finding: PairFinding, tokens: int) -> Measured:
    return PairRun(finding, tokens).measure(_progress_line())


def _progress_line() -> Progress | None:
    """What is being measured, on one line of a terminal's stderr (nothing when redirected)."""
    if not sys.stderr.isatty():
        return None

    def say(fraction: float, said: Words) -> None:
        end = "\n" if fraction >= 1 else ""
        print(f"\r\033[K{fraction:4.0%} {shown(str(said))}", end=end, file=sys.stderr,
              flush=True)
    return say


def print_ranking(measured: Measured) -> None:
    print(f"\nMeasured on this machine: {len(PROMPTS)} prompts (code, prose, a rewrite), "
          f"{measured.tokens} tokens each, greedy")
    if measured.ranking:
        width = max(len(shown(_way_name(w))) for w in measured.ranking)
        print(f"  {'RANK':4} {'WAY':{width}}  {'K':6} {'SPEEDUP':>8} {'PREDICTED':>9}  "
              f"{'MEASURED':10}  NOTE")
    for i, w in enumerate(measured.ranking, 1):
        predicted = f"{w.predicted:.2f}×" if w.predicted else ""
        note = shown(str(w.note)) if w.note is not None else ""
        print(f"  {i:<4} {shown(_way_name(w)):{width}}  {_k_text(w.k) or '-':6} "
              f"{w.speedup:7.2f}× {predicted:>9}  {w.measured_on or '':10}  {note}".rstrip())
    for m, kept in measured.measurements:
        alphas = " ".join(f"{a.alpha:.2f}" if a.alpha is not None else "-" for a in m.alphas)
        costs = (f"; drafting {m.draft_ms_per_token:.2f} ms a token (c = {m.cost_ratio:.2f})"
                 if m.draft_ms_per_token is not None and m.cost_ratio is not None else "")
        beta = f", verification β = {m.verify_cost:.2f}" if m.verify_cost is not None else ""
        print(f"  {shown(_way_name(m))}: α by position {alphas}{costs}{beta}; K auto "
              f"{m.speedup(m.auto):.2f}×, best fixed K = {m.best_fixed.k} "
              f"{m.speedup(m.best_fixed):.2f}× ({'kept from' if kept else 'measured'} "
              f"{m.measured_on})")
    for name in measured.not_downloaded:
        print(f"  {shown(name)}: not downloaded, not measured")


def _way_name(w: RankedWay | PairMeasurement) -> str:
    if w.spec_type == spec_types.PLAIN:
        return "plain decoding"
    spec = spec_types.get(w.spec_type)
    label = spec.label if spec is not None else w.spec_type
    return f"{label} {w.candidate}".strip()


def _k_text(k: int | None) -> str:
    return "" if k is None else f"K = {k}" if k else "K auto"


def measured_dict(measured: Measured) -> dict[str, Any]:
    return {
        "tokens": measured.tokens,
        "prompts": len(PROMPTS),
        "ranking": [{"rank": i, "spec_type": w.spec_type, "candidate": w.candidate, "k": w.k,
                     "speedup": w.speedup, "predicted": w.predicted,
                     "measured_on": w.measured_on or None,
                     "note": None if w.note is None else str(w.note),
                     "note_words": None if w.note is None else words_to_dict(w.note)}
                    for i, w in enumerate(measured.ranking, 1)],
        "measurements": [{**dataclasses.asdict(m), "kept": kept}
                         for m, kept in measured.measurements],
        "not_downloaded": list(measured.not_downloaded),
        "notes": [str(n) for n in measured.notes],
        "refused": None if measured.refused is None else str(measured.refused),
    }

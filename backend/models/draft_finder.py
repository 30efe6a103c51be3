"""Every way to speculate for one target, each accepted or refused in words, from headers alone.

The candidates: the target's own MTP (NextN) layers; EAGLE-3 heads and draft models in the
library (pairing.py's rule and words); Hub GGUF files of its family (hub_drafts.py, checked
by the same rule on headers read over HTTP); and n-gram lookup, which needs nothing. Nothing
here runs a model: which accepted candidate is fastest on this machine is measured elsewhere.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from backend import spec_types
from backend.models.eagle3 import target_refusal
from backend.models.head_files import head_target_refusal
from backend.models.hub_drafts import HubCheck, HubSearch
from backend.models.inspection import ModelInspection
from backend.models.pairing import DraftCandidate, draft_candidates
from backend.words import Words, words

OWN_MTP = ("Its own multi-token-prediction (NextN) layers draft ({n} of them): no second model "
           "is needed.")
NO_MTP = "It has no multi-token-prediction (NextN) layers."
NGRAM_ALWAYS = ("Always possible: it drafts from text already in the conversation, so it helps "
                "most when the answer repeats it (code edits, rewrites).")

# Where a candidate comes from.
TARGET, LIBRARY, HUB, BUILT_IN = "target", "library", "hub", "built-in"
# spec types, in the order a table lists them; then the other lookups, as declared
_ORDER = ("mtp", "eagle3", "dflash", "gemma4-assistant", "draft", "ngram")


@dataclass(frozen=True)
class PairCandidate:
    """One way to speculate for the target, and whether it can, in words."""

    spec_type: str  # "mtp", "eagle3", "draft", "ngram"… (backend/spec_types.py)
    name: str  # a file's name ("REPO/FILE" on the Hub): the target's for MTP, "" for n-gram
    source: str  # TARGET, LIBRARY, HUB or BUILT_IN
    accepted: bool
    reason: Words | None  # why it cannot draft; for an accepted one, a caution or a note
    path: Path | None = None  # the library file, or REPO/FILE for a Hub one
    size: int = 0  # the file's bytes (0 for MTP layers and n-gram lookup)
    parameter_count: int = 0
    bytes_read: int | None = None  # a Hub candidate: the bytes fetched to decide

    @property
    def label(self) -> str:
        """The spec type's label ("draft model", "EAGLE-3", …)."""
        spec = spec_types.get(self.spec_type)
        return spec.label if spec is not None else self.spec_type


@dataclass(frozen=True)
class PairFinding:
    target: ModelInspection
    candidates: tuple[PairCandidate, ...]
    refusal: Words | None = None  # the target cannot be a target (an EAGLE-3 head)
    hub_error: Words | None = None  # why the Hub was not searched, or not for every query
    target_bytes_read: int | None = None  # a target on the Hub: the bytes fetched to describe it

    @property
    def accepted(self) -> tuple[PairCandidate, ...]:
        return tuple(c for c in self.candidates if c.accepted)


def find_pairs(target: ModelInspection, library: Iterable[ModelInspection],
               hub: HubSearch | None = None, target_bytes_read: int | None = None) -> PairFinding:
    """Every candidate for `target`: accepted ones first, then by spec type (MTP, EAGLE-3,
    draft models, n-gram), library before Hub, smallest first. `hub` is what the Hub search
    found (hub_drafts.hub_checks), None when the Hub was not asked."""
    refusal = (target_refusal(target)
               or head_target_refusal(target.architecture, target.path.name))
    if refusal is not None:
        return PairFinding(target, (), refusal, target_bytes_read=target_bytes_read)
    rows = [_mtp(target)]
    rows += [_from_pairing(c, LIBRARY) for c in draft_candidates(target, library)]
    if hub is not None:
        rows += [_from_hub(target, check) for check in hub.checks]
    rows += [PairCandidate(name, "", BUILT_IN, True, words(NGRAM_ALWAYS))
             for name in lookup_types()]
    rows.sort(key=lambda c: (not c.accepted, _rank(c.spec_type), c.source == HUB,
                             c.size, c.name))
    return PairFinding(target, tuple(rows), None, hub.error if hub else None, target_bytes_read)


def lookup_types() -> tuple[str, ...]:
    """The spec types that need nothing but the conversation (llama.cpp's ngram-simple and
    its n-gram family): always a candidate."""
    return tuple(s.name for s in spec_types.all_spec_types() if s.drafts and not s.needs)


def _rank(spec_type: str) -> int:
    if spec_type in _ORDER:
        return _ORDER.index(spec_type)
    names = spec_types.names()
    return len(_ORDER) + (names.index(spec_type) if spec_type in names else len(names))


def _mtp(target: ModelInspection) -> PairCandidate:
    n = target.n_mtp_heads
    reason = words(OWN_MTP, n=n) if n else words(NO_MTP)
    return PairCandidate("mtp", target.path.name, TARGET, n > 0, reason, target.path)


def _from_pairing(c: DraftCandidate, source: str, bytes_read: int | None = None
                  ) -> PairCandidate:
    m = c.model
    return PairCandidate(spec_types.drafting_with_file(m.architecture).name,
                         m.path.as_posix() if source == HUB else m.path.name, source,
                         c.compatible, c.reason, m.path, m.file_size, m.parameter_count,
                         bytes_read)


def _from_hub(target: ModelInspection, check: HubCheck) -> PairCandidate:
    if check.inspection is None:
        name = f"{check.model.repo_id}/{check.model.name}"
        spec = "eagle3" if check.model.eagle3_head else "draft"
        return PairCandidate(spec, name, HUB, False, check.error, Path(name), check.model.size,
                             bytes_read=check.bytes_read)
    (candidate,) = draft_candidates(target, [check.inspection])
    return _from_pairing(candidate, HUB, check.bytes_read)

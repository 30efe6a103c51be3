"""Which library models can draft for a chosen target, and why the others cannot.

Compatibility is llama.cpp's vocabulary rule (`vocab.incompatibility`), the same rule the
engine applies to loaded models; an EAGLE-3 head (`eagle3.head_incompatibility`) must also
have been made for the target's size and read layers it has. Being smaller is not required
for correctness, but a draft only speeds things up when it is much cheaper than the target,
so larger ones are flagged.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from backend.models.eagle3 import head_incompatibility
from backend.models.head_files import (
    CHECKED_ON_LOAD,
    head_file_refusal,
    head_target_refusal,
    is_head_file,
)
from backend.models.inspection import ModelFileError, ModelInspection, inspect_model
from backend.models.vocab import incompatibility
from backend.words import Words, words

EAGLE3_FOR_TARGET = "An EAGLE-3 head for this target: it drafts with spec type EAGLE-3."
NOT_SMALLER = ("It can draft, but it is not smaller than the target, so it will not make "
               "generation faster.")
GONE = "{name} no longer exists."
UNREADABLE = "{name} cannot be read as a GGUF model: {error}"


@dataclass(frozen=True)
class DraftCandidate:
    model: ModelInspection
    compatible: bool
    reason: Words | None  # why it cannot draft (incompatible), or a caution (compatible)

    @property
    def kind(self) -> str:
        """What it drafts as: "EAGLE-3 head" or "draft model"."""
        return "EAGLE-3 head" if self.model.eagle3 is not None else "draft model"


def draft_candidates(
    target: ModelInspection, library: Iterable[ModelInspection]
) -> list[DraftCandidate]:
    """Every other library model, compatible ones first (smallest first), each with a reason."""
    rows = []
    for model in library:
        if model.path == target.path:
            continue
        if model.eagle3 is not None or target.eagle3 is not None:
            reason = head_incompatibility(target, model)
            rows.append(DraftCandidate(model, reason is None, reason or words(EAGLE3_FOR_TARGET)))
            continue
        if is_head_file(model) or is_head_file(target):
            reason = (head_target_refusal(target.architecture, target.path.name)
                      or head_file_refusal(target, model))
            rows.append(DraftCandidate(model, reason is None, reason or words(CHECKED_ON_LOAD)))
            continue
        reason = incompatibility(target.vocab, model.vocab)
        if reason is None and model.file_size >= target.file_size:
            rows.append(
                DraftCandidate(
                    model,
                    True,
                    words(NOT_SMALLER),
                )
            )
        else:
            rows.append(DraftCandidate(model, reason is None, reason))
    return sorted(rows, key=lambda r: (not r.compatible, r.model.file_size, r.model.path.name))


def remembered_drafts(recent: list[str], target, draft) -> list[str]:
    """The remembered model files that might draft for `target`, the loaded `draft` first
    (both ModelInfo or None): what the window offers and checks with `draft_verdicts`."""
    target_path = target.path if target else None
    paths = [p for p in recent if p != target_path]
    if draft is not None and draft.path not in paths:
        paths.insert(0, draft.path)
    return paths


def draft_verdicts(target: str, drafts: Iterable[str]) -> list[tuple[str, Words | None]]:
    """For each draft file, why it cannot draft for `target` (None: it can), in words, from
    the files' headers (about a second a file: call it off the GUI thread). Raises
    ModelFileError when the target itself cannot be read."""
    target_model = inspect_model(target)
    verdicts: list[tuple[str, Words | None]] = []
    for draft in drafts:
        try:
            reason = _draft_verdict(target_model, inspect_model(draft))
        except FileNotFoundError:
            reason = words(GONE, name=Path(draft).name)
        except (ModelFileError, OSError) as exc:
            reason = words(UNREADABLE, name=Path(draft).name, error=exc)
        verdicts.append((draft, reason))
    return verdicts


def _draft_verdict(target: ModelInspection, draft: ModelInspection) -> Words | None:
    """A draft model by llama.cpp's vocabulary rule; an EAGLE-3 head by whether it fits."""
    if draft.eagle3 is not None or target.eagle3 is not None:
        return head_incompatibility(target, draft)
    return incompatibility(target.vocab, draft.vocab)


def draft_search_query(target: ModelInspection) -> str:
    """A Hub search that finds the target's family in all its sizes, e.g. "qwen2.5".

    Families share one tokenizer across sizes, so a small member is the usual draft. The
    family is general.basename, else the model name without its size words; the Hub search
    matches it in repository names, and the results show which members are small."""
    return target.basename or _strip_size(target.name) or target.architecture


def _strip_size(name: str) -> str:
    kept = [w for w in name.replace("-", " ").split() if not _looks_like_size(w)]
    return " ".join(kept[:2])


def _looks_like_size(word: str) -> bool:
    w = word.lower()
    return len(w) > 1 and w[-1] in "mb" and w[:-1].replace(".", "").isdigit()

"""The spec types, declared once: name, labels, tooltip and how the engine makes the drafter.

The settings file, the side panel, the answer header, the token hover, both command lines
and the engine read this table, so adding a drafter is its own module plus one `register`
call here (llama.cpp keeps one such name table, in `common/speculative.cpp`). Importing this
module loads neither Qt nor llama.cpp: a drafter's module is named by string and imported only
when the engine first makes that drafter.

Names joined by commas ("ngram-mod,draft", as llama.cpp's `--spec-type` takes them) are a
chain (drafters/chain.py): `get` composes its spec type from its members'. As in llama.cpp
(`common_speculative_init`), the members are asked in a fixed order of preference whatever
the order written, the lookups first: a chain's name is spelled in that order.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Literal

from backend.words import Words, words

if TYPE_CHECKING:
    from backend.engine.drafters.base import Drafter, DraftingSetup

# What a spec type needs besides a target model. The panel greys the type out with the
# reason while it is missing; the drafter's factory refuses it in words too.
Need = Literal["", "draft_model", "mtp_heads", "eagle3_head", "dflash_head",
               "gemma4_assistant"]
# The needs met by the file loaded as the draft: a draft model, an EAGLE-3 or a DFlash head,
# a Gemma 4 assistant.
DRAFT_NEEDS: tuple[Need, ...] = ("draft_model", "eagle3_head", "dflash_head", "gemma4_assistant")
_HEAD_NEEDS: dict[str, Need] = {"eagle3": "eagle3_head", "dflash": "dflash_head",
                                "gemma4-assistant": "gemma4_assistant"}


def draft_need(architecture: str) -> Need:
    """Which need a draft file of this GGUF architecture meets."""
    return _HEAD_NEEDS.get(architecture, "draft_model")

PLAIN = "none"  # spec type name of plain decoding: the target alone, K = 0


@dataclass(frozen=True)
class SpecType:
    name: str  # the settings file's and the command lines' spelling; also the tokens' origin
    label: str  # the panel's choice
    caption: str  # the answer header's words for it
    tooltip: str
    # "module:function" that makes the drafter from a `DraftingSetup`; "" for plain decoding.
    factory: str = ""
    needs: Need = ""
    uses_p_min: bool = False  # drafts by sampling a model, so p_min can cut a draft short
    drafted_by: str = ""  # the token hover's words for a token this drafter proposed
    # Fills its whole draft in one pass of its model (a DFlash block), where the others that
    # need a model run it once per drafted token and a lookup runs none. A chain is False: each
    # step's drafting is its member's, by the tokens' origin.
    one_pass: bool = False
    # A chain's members, in the order they are asked; its factory is given them too.
    members: tuple[SpecType, ...] = ()
    # Its drafter gives alternatives to its chain, so it can draft token trees
    # (backend/engine/tree); a chain of drafters drafts chains.
    trees: bool = False

    @property
    def drafts(self) -> bool:
        return bool(self.factory)

    def make_drafter(self, setup: DraftingSetup) -> Drafter:
        module, _, function = self.factory.partition(":")
        make: Callable[..., Drafter] = getattr(importlib.import_module(module), function)
        return make(setup, self.members) if self.members else make(setup)


_SPEC_TYPES: dict[str, SpecType] = {}


def register(spec: SpecType) -> None:
    if spec.name in _SPEC_TYPES:
        raise ValueError(f"spec type {spec.name!r} is already declared")
    _SPEC_TYPES[spec.name] = spec


def unregister(name: str) -> None:
    """Remove a spec type (tests register their own drafters and remove them after)."""
    del _SPEC_TYPES[name]


def names() -> tuple[str, ...]:
    return tuple(_SPEC_TYPES)


class Choices(tuple[str, ...]):
    """The declared names, as a setting's choices: any chain of them is among them too,
    though not listed, so that one whose members cannot go together is refused in words
    (`chain_problem`) rather than as no choice."""

    def __contains__(self, name: object) -> bool:
        if not isinstance(name, str):
            return False
        return all(part.strip() in _SPEC_TYPES for part in name.split(CHAIN_SEPARATOR))


def choices() -> Choices:
    return Choices(_SPEC_TYPES)


def all_spec_types() -> tuple[SpecType, ...]:
    return tuple(_SPEC_TYPES.values())


def get(name: str) -> SpecType | None:
    """The spec type of that name, or of that chain (None: neither)."""
    if CHAIN_SEPARATOR in name:
        members = _chain_members(name)
        return None if isinstance(members, Words) else _chain(members)
    return _SPEC_TYPES.get(name)


def tree_drafters() -> tuple[str, ...]:
    """The spec types that draft token trees."""
    return tuple(s.name for s in _SPEC_TYPES.values() if s.trees)


def drafters_of(name: str) -> tuple[str, ...]:
    """The spec types that draft for `name`: a chain's members, in the order they are asked,
    else the type itself; () for no spec type. A drafter's own settings (the lookups') are
    shown, and apply, where its name is among them."""
    spec = get(name)
    if spec is None:
        return ()
    return tuple(m.name for m in spec.members) if spec.members else (spec.name,)


# -- chains ------------------------------------------------------------------------------------
CHAIN_SEPARATOR = ","
CHAIN_FACTORY = "backend.engine.drafters.chain:make"
# llama.cpp's order of preference (common_speculative_init); a type it does not know is
# asked after these, lookups before the drafters that need a model or heads.
PREFERENCE = ("ngram", "ngram-map-k", "ngram-map-k4v", "ngram-mod", "ngram-cache", "draft",
              "eagle3", "mtp", "dflash", "dspark")
CHAIN_UNKNOWN = "The chain {chain!r} names {name!r}, which is no spec type."
CHAIN_PLAIN = "The chain {chain!r} names {name!r}, which does not draft."
CHAIN_TWICE = "The chain {chain!r} names {name!r} twice."
CHAIN_NEEDS = ("A chain can hold only one drafter that needs a model file or heads: {first} "
               "and {second} both do.")
CHAIN_THEN = "{first}, then {next}"  # a chain's label and caption, member by member
CHAIN_TOOLTIP = ("At each step the first of these to find a draft drafts the step: "
                 "{members}. Each drafted token says which one made it.")


def chain_problem(name: str) -> Words | None:
    """Why a name with commas is no chain, in words; None when it is one (or has no
    comma)."""
    if CHAIN_SEPARATOR not in name:
        return None
    members = _chain_members(name)
    return members if isinstance(members, Words) else None


def _chain_members(chain: str) -> tuple[SpecType, ...] | Words:
    """A chain's members in the order they are asked, or why it is none."""
    members: list[SpecType] = []
    for name in (part.strip() for part in chain.split(CHAIN_SEPARATOR)):
        spec = _SPEC_TYPES.get(name)
        if spec is None:
            return words(CHAIN_UNKNOWN, chain=chain, name=name)
        if not spec.drafts:
            return words(CHAIN_PLAIN, chain=chain, name=name)
        if spec in members:
            return words(CHAIN_TWICE, chain=chain, name=name)
        members.append(spec)
    needing = [m for m in members if m.needs]
    if len(needing) > 1:
        return words(CHAIN_NEEDS, first=needing[0].name, second=needing[1].name)
    written = list(members)
    members.sort(key=lambda m: (bool(m.needs), PREFERENCE.index(m.name)
                                if m.name in PREFERENCE else len(PREFERENCE),
                                written.index(m)))
    return tuple(members)


def _chain(members: tuple[SpecType, ...]) -> SpecType:
    def then(texts: list[str]) -> str:
        said = texts[0]
        for text in texts[1:]:
            said = CHAIN_THEN.format(first=said, next=text)
        return said

    needs: Need = next((m.needs for m in members if m.needs), "")
    return SpecType(
        CHAIN_SEPARATOR.join(m.name for m in members),
        then([m.label for m in members]), then([m.caption for m in members]),
        CHAIN_TOOLTIP.format(members=then([m.label for m in members])),
        factory=CHAIN_FACTORY, needs=needs, uses_p_min=any(m.uses_p_min for m in members),
        members=members,
    )


def drafting_with_file(architecture: str) -> SpecType:
    """The spec type that drafts with a file of this GGUF architecture loaded as the draft
    (each need a draft file meets is one spec type's)."""
    need = draft_need(architecture)
    return next(s for s in _SPEC_TYPES.values() if s.needs == need)


OTHER_FILE = "{name} ({architecture}) drafts with spec type {spec}, not {wanted}."


def file_refusal(wanted: SpecType | str, architecture: str, name: str) -> Words | None:
    """Why a draft file of this GGUF architecture cannot draft with `wanted` (a spec type or
    its name), which needs a draft file: it is another spec type's (a DFlash head given to
    EAGLE-3, a draft model to DFlash…). Said before the file's own fit to the target, which
    answers another question. None where it is `wanted`'s kind of file."""
    if isinstance(wanted, str):
        declared = get(wanted)
        assert declared is not None, wanted
        wanted = declared
    fits = drafting_with_file(architecture)
    if fits.needs == wanted.needs:
        return None
    return words(OTHER_FILE, name=name, architecture=architecture, spec=fits.label,
                 wanted=wanted.label)


def draft_length_words(name: str, n_draft_max: int) -> str:
    """How an answer names its draft length: "K = 4", "K auto" (0, chosen each step), or ""
    for a spec type that does not draft."""
    spec = get(name)
    if spec is not None and not spec.drafts:
        return ""
    return f"K = {n_draft_max}" if n_draft_max else "K auto"


register(SpecType(
    PLAIN, "none (target only)", "no speculation",
    "Plain decoding: the target model makes every token itself, one step per token.",
))
register(SpecType(
    "draft", "draft model", "draft model",
    "A second, smaller model with the same vocabulary drafts K tokens; the target checks "
    "them all in one step.",
    factory="backend.engine.drafters.draft_model:make", needs="draft_model", uses_p_min=True,
    drafted_by="drafted by the draft model", trees=True,
))
register(SpecType(
    "mtp", "MTP heads", "MTP heads",
    "The target's own multi-token-prediction (NextN) heads draft; no second model.",
    factory="backend.engine.drafters.mtp:make", needs="mtp_heads", uses_p_min=True,
    drafted_by="drafted by the MTP heads", trees=True,
))
register(SpecType(
    "ngram", "n-gram lookup", "n-gram lookup",
    "Drafts by finding the last tokens earlier in the conversation and proposing what "
    "followed them: free to run, strong when the answer repeats its input.",
    factory="backend.engine.drafters.ngram:make", drafted_by="drafted by n-gram lookup",
    trees=True,
))
register(SpecType(
    "eagle3", "EAGLE-3", "EAGLE-3 head",
    "An EAGLE-3 head (a one-layer model trained for this target, chosen as the draft) reads "
    "the target's own hidden states at three layers and drafts K tokens from them.",
    factory="backend.engine.drafters.eagle3:make", needs="eagle3_head", uses_p_min=True,
    drafted_by="drafted by the EAGLE-3 head", trees=True,
))
# llama.cpp's other lookups, under its names (common/speculative.cpp); each needs only the
# conversation, as "ngram" (llama.cpp's ngram-simple) does.
register(SpecType(
    "ngram-map-k", "n-gram map-k", "n-gram map-k",
    "llama.cpp's ngram-map-k: finds the last 12 tokens (by default) earlier in the "
    "conversation through a hash map and proposes up to 48 tokens (by default) that followed "
    "them; a key then drafts no more tokens than its last draft had accepted.",
    factory="backend.engine.drafters.ngram_map:make_k", drafted_by="drafted by n-gram map-k",
))
register(SpecType(
    "ngram-map-k4v", "n-gram map-k4v", "n-gram map-k4v",
    "llama.cpp's ngram-map-k4v: like ngram-map-k, but remembers up to four continuations "
    "of each key and drafts only when the most frequent one is at least twice as frequent "
    "as the others together.",
    factory="backend.engine.drafters.ngram_map:make_k4v",
    drafted_by="drafted by n-gram map-k4v", trees=True,
))
register(SpecType(
    "ngram-mod", "n-gram mod", "n-gram mod",
    "llama.cpp's ngram-mod: a hash table from every 24 tokens (by default) to the token that "
    "followed, kept across the chats with this model; drafts only where its lookups chain on "
    "for 48 tokens (up to 64, cut to K; by default), and empties the table after five drafts "
    "in a row with under a quarter accepted.",
    factory="backend.engine.drafters.ngram_mod:make", drafted_by="drafted by n-gram mod",
))
register(SpecType(
    "ngram-cache", "n-gram cache", "n-gram cache",
    "llama.cpp's ngram-cache: counts which token followed each run of 1 to 4 tokens in this "
    "answer (and, kept in memory, in earlier chats with this model) and drafts up to 8 "
    "tokens where one follower clearly dominates.",
    factory="backend.engine.drafters.ngram_cache:make", drafted_by="drafted by n-gram cache",
    trees=True,
))
register(SpecType(
    "dflash", "DFlash", "DFlash head",
    "A DFlash head (a small model trained for this target, chosen as the draft) reads the "
    "target's hidden states and fills a whole block of draft tokens in one pass, instead of "
    "one token per pass; a DSpark head (with a Markov head) drafts the same way.",
    factory="backend.engine.drafters.dflash:make", needs="dflash_head", uses_p_min=True,
    drafted_by="drafted by the DFlash head", one_pass=True,
))
register(SpecType(
    "gemma4-assistant", "Gemma 4 assistant", "Gemma 4 assistant",
    "A Gemma 4 assistant (a small MTP drafter made for a Gemma 4 model, chosen as the draft) "
    "reads the target's own cache and hidden state and drafts K tokens, with no cache of its "
    "own to fill.",
    factory="backend.engine.drafters.gemma4_assistant:make", needs="gemma4_assistant",
    uses_p_min=True, drafted_by="drafted by the Gemma 4 assistant",
))

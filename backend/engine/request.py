"""What one generation is asked to do: the input of `Engine.generate`.

A field the person may set declares its default and the values it accepts here, with
`accepts`, and every request checks its fields against them, whoever made it (the window,
`draftlight generate`, a trace read from a file, a bench). The settings schema
(`backend.settings_schema`) offers such a field as a setting by naming it, and takes its
default and range from here, so a bound is changed in one place. This module knows no
setting, label or drafter.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field, fields
from typing import Any

from backend.engine.events import SpecType

RANGE = "range"  # the metadata key of an `accepts` field: (minval, maxval), both included


def accepts(default: Any, minval: Any, maxval: Any) -> Any:
    """A field's default and the values a request accepts for it."""
    return field(default=default, metadata={RANGE: (minval, maxval)})


def value_problem(value: object, default: object, minval: Any = None, maxval: Any = None,
                  range_words: str = "") -> str | None:
    """Why `value` cannot stand where `default` does (of its kind, between minval and maxval
    when they are given), in words; None when it can. `range_words`: the range as the caller
    says it ("0 (auto) to 32"), else "minval to maxval"."""
    if not _same_type(value, default):
        kind = type(default)
        return f"is not {'a number' if kind is float else 'an ' + kind.__name__}"
    if isinstance(value, float) and not math.isfinite(value):
        return "is not a finite number"
    if minval is not None and isinstance(value, int | float) and not minval <= value <= maxval:
        return f"is outside {range_words or f'{minval} to {maxval}'}"
    return None


def _same_type(value: object, default: object) -> bool:
    if isinstance(default, bool) or isinstance(value, bool):
        return type(value) is type(default)
    if isinstance(default, float):
        return isinstance(value, int | float)  # JSON writes 1.0 as 1 in some tools
    return isinstance(value, type(default))


def _check_ranges(obj: object) -> None:
    """ValueError, saying which field and why, when a field is outside what it accepts."""
    for f in fields(obj):  # type: ignore[arg-type]
        if RANGE in f.metadata:
            value = getattr(obj, f.name)
            reason = value_problem(value, f.default, *f.metadata[RANGE])
            if reason is not None:
                raise ValueError(f"{f.name} {value!r} {reason}.")


@dataclass(frozen=True, slots=True)
class SamplingSettings:
    """The target's sampler. Temperature 0 means greedy; the same transforms shape the
    drafter's distribution so that verification compares like with like."""

    # 0–2: LM Studio's slider and the OpenAI API; above 2 the answers are noise.
    temperature: float = accepts(0.0, 0.0, 2.0)
    # 0 disables; a larger k than 1000 keeps tokens whose probability is negligible.
    top_k: int = accepts(40, 0, 1000)
    top_p: float = accepts(0.95, 0.0, 1.0)  # 1.0 disables
    min_p: float = accepts(0.05, 0.0, 1.0)  # 0.0 disables; LM Studio's and llama.cpp's 0.05
    # Off unless asked, as in llama.cpp's own tools, which the benches and tests compare with;
    # the window and `draftlight generate` ask for the setting's default.
    repeat_penalty: float = accepts(1.0, 1.0, 2.0)  # 1.0 disables
    repeat_last_n: int = accepts(64, 0, 1 << 20)  # 0 disables; at most the largest context
    # Negative: a new random seed (llama.cpp's −1); at most 2³¹−1, as a Qt spin box holds
    # 32-bit signed integers and every request is one the window can show.
    seed: int = accepts(0, -1, 2**31 - 1)

    def __post_init__(self) -> None:
        _check_ranges(self)

    @property
    def greedy(self) -> bool:
        return self.temperature <= 0.0


# The lookups' settings, under llama.cpp's names (its --spec-ngram-* flags, common/arg.cpp),
# with the ranges its flags accept (min hits, which it leaves open, stops at 1024 here).
@dataclass(frozen=True, slots=True)
class NgramSettings:
    """llama.cpp's `ngram-simple` parameters. Draftlight's defaults are shorter than
    llama.cpp's 12 and 48: lookup here drafts from short repeats in a chat."""

    size_n: int = accepts(3, 1, 1024)  # length of the key n-gram looked up in the history
    # most tokens taken after a match (further capped by n_draft_max)
    size_m: int = accepts(16, 1, 1024)
    min_hits: int = accepts(1, 1, 1024)  # matches of the key needed before drafting from it

    def __post_init__(self) -> None:
        _check_ranges(self)


@dataclass(frozen=True, slots=True)
class NgramMapSettings:
    """`ngram-map-k` and `ngram-map-k4v` (llama.cpp's `common_params_speculative_ngram_map`,
    each type its own, at the same defaults)."""

    size_n: int = accepts(12, 1, 1024)  # the key: the history's last size_n tokens
    size_m: int = accepts(48, 1, 1024)  # the most tokens drafted from one match
    # hits of the key before it drafts (map-k4v's; map-k does not read it, as in llama.cpp)
    min_hits: int = accepts(1, 1, 1024)

    def __post_init__(self) -> None:
        _check_ranges(self)


@dataclass(frozen=True, slots=True)
class NgramModSettings:
    """`ngram-mod` (llama.cpp's `common_params_speculative_ngram_mod`)."""

    n_match: int = accepts(24, 1, 1024)  # tokens in each window hashed into the table
    n_min: int = accepts(48, 0, 1024)  # a chain of lookups shorter than this drafts nothing
    n_max: int = accepts(64, 0, 1024)  # the most tokens one chain of lookups drafts

    def __post_init__(self) -> None:
        _check_ranges(self)


@dataclass(frozen=True, slots=True)
class Message:
    role: str  # "system" | "user" | "assistant"
    content: str


@dataclass(frozen=True)
class GenerationRequest:
    """Either `messages` (formatted with the model's chat template) or `prompt` (raw text)."""

    messages: tuple[Message, ...] = ()
    prompt: str | None = None
    spec_type: SpecType = "none"  # plain decoding: backend.spec_types.PLAIN
    # K, the most tokens drafted per step; 0: K auto, chosen at each step
    # (backend/engine/adaptive_k.py). llama.cpp's own default is 16.
    n_draft_max: int = accepts(0, 0, 32)
    n_draft_min: int = 0  # a proposal shorter than this is not verified as a draft
    # Token trees (backend/engine/tree): 0 drafts a chain; N > 0 a tree of at most N nodes,
    # the chain and the drafter's next choices; -1 (auto) alternatives where it is unsure.
    tree_nodes: int = accepts(0, -1, 64)
    p_min: float = accepts(0.0, 0.0, 1.0)  # stop drafting below this top draft probability
    sampling: SamplingSettings = field(default_factory=SamplingSettings)
    ngram: NgramSettings = field(default_factory=NgramSettings)
    ngram_map_k: NgramMapSettings = field(default_factory=NgramMapSettings)
    ngram_map_k4v: NgramMapSettings = field(default_factory=NgramMapSettings)
    ngram_mod: NgramModSettings = field(default_factory=NgramModSettings)
    max_tokens: int = accepts(512, 1, 1 << 20)
    stop: tuple[str, ...] = ()
    request_id: int = 0
    # Whether some steps draft nothing, to measure plain decoding in this answer for its
    # speedup figure (backend/engine/plain_yardstick.py). Off for a run that must draft every
    # step it can (a test of how drafts are accepted, a bench of one fixed K).
    measure_plain: bool = True
    # Whether the events carry what the window shows of each token (its p, the inspector's
    # records). Off where nothing shows them (`draftlight generate` printing text): a greedy
    # row is then read for its argmax alone, no log-sum-exp or top five over the vocabulary.
    inspect: bool = True
    # An answer to go on from (Continue after a Stop or a crash): the prompt ends with these
    # words as the assistant's so far, and the events carry only what comes after them.
    continue_text: str = ""

    def __post_init__(self) -> None:
        if self.prompt is None and not self.messages:
            raise ValueError("A request needs chat messages or a raw prompt.")
        _check_ranges(self)
        if not 0 <= self.n_draft_min <= (self.n_draft_max or self.n_draft_min):
            raise ValueError("n_draft_min must be between 0 and n_draft_max.")


# The parts of a request that are dataclasses of their own, by field name: a setting names its
# field in one of them as "sampling.temperature".
PARTS: dict[str, type] = {
    "sampling": SamplingSettings, "ngram": NgramSettings, "ngram_map_k": NgramMapSettings,
    "ngram_map_k4v": NgramMapSettings, "ngram_mod": NgramModSettings,
}


def request_field(path: str) -> Any:
    """The `dataclasses.Field` a path names: "max_tokens" (the request's own) or
    "sampling.temperature" (one of its PARTS'); KeyError when there is none."""
    part, _, name = path.rpartition(".")
    owner = PARTS[part] if part else GenerationRequest
    for f in fields(owner):
        if f.name == name:
            return f
    raise KeyError(path)

"""What one generation is asked to do: the input of `Engine.generate`."""

from __future__ import annotations

from dataclasses import dataclass, field

from backend.engine.events import SpecType


@dataclass(frozen=True, slots=True)
class SamplingSettings:
    """The target's sampler. Temperature 0 means greedy; the same transforms shape the
    drafter's distribution so that verification compares like with like."""

    temperature: float = 0.0
    top_k: int = 40  # 0 disables
    top_p: float = 0.95  # 1.0 disables
    min_p: float = 0.05  # 0.0 disables
    repeat_penalty: float = 1.0  # 1.0 disables
    repeat_last_n: int = 64
    seed: int = 0

    @property
    def greedy(self) -> bool:
        return self.temperature <= 0.0


@dataclass(frozen=True, slots=True)
class NgramSettings:
    """llama.cpp's `ngram-simple` parameters."""

    size_n: int = 3  # length of the key n-gram looked up in the history
    size_m: int = 16  # most tokens taken after a match (further capped by n_draft_max)
    min_hits: int = 1  # matches of the key needed before drafting from it


@dataclass(frozen=True, slots=True)
class Message:
    role: str  # "system" | "user" | "assistant"
    content: str


@dataclass(frozen=True)
class GenerationRequest:
    """Either `messages` (formatted with the model's chat template) or `prompt` (raw text)."""

    messages: tuple[Message, ...] = ()
    prompt: str | None = None
    spec_type: SpecType = "none"
    n_draft_max: int = 8
    n_draft_min: int = 0  # a proposal shorter than this is not verified as a draft
    p_min: float = 0.0  # stop drafting when the drafter's top probability falls below this
    sampling: SamplingSettings = field(default_factory=SamplingSettings)
    ngram: NgramSettings = field(default_factory=NgramSettings)
    max_tokens: int = 256
    stop: tuple[str, ...] = ()
    request_id: int = 0

    def __post_init__(self) -> None:
        if self.prompt is None and not self.messages:
            raise ValueError("A request needs chat messages or a raw prompt.")
        if not 1 <= self.n_draft_max <= 32:
            raise ValueError(f"n_draft_max must be between 1 and 32, not {self.n_draft_max}.")
        if not 0 <= self.n_draft_min <= self.n_draft_max:
            raise ValueError("n_draft_min must be between 0 and n_draft_max.")
        if self.max_tokens < 1:
            raise ValueError("max_tokens must be at least 1.")

"""What one generation is asked to do: the input of `Engine.generate`."""

from __future__ import annotations

from dataclasses import dataclass, field

from backend import settings_schema as schema
from backend.engine.events import SpecType


@dataclass(frozen=True, slots=True)
class SamplingSettings:
    """The target's sampler. Temperature 0 means greedy; the same transforms shape the
    drafter's distribution so that verification compares like with like. Defaults (but the
    repeat penalty's) and limits are the settings' (`backend.settings_schema`)."""

    temperature: float = schema.TEMPERATURE.default
    top_k: int = schema.TOP_K.default  # 0 disables
    top_p: float = schema.TOP_P.default  # 1.0 disables
    min_p: float = schema.MIN_P.default  # 0.0 disables
    # Off unless asked, as in llama.cpp's own tools, which the benches and tests compare with;
    # the window and `draftlight generate` ask for the setting's default.
    repeat_penalty: float = 1.0  # 1.0 disables
    repeat_last_n: int = 64
    seed: int = schema.SEED.default  # negative: a new random seed

    def __post_init__(self) -> None:
        for option, value in ((schema.TEMPERATURE, self.temperature), (schema.TOP_K, self.top_k),
                              (schema.TOP_P, self.top_p), (schema.MIN_P, self.min_p),
                              (schema.REPEAT_PENALTY, self.repeat_penalty),
                              (schema.SEED, self.seed)):
            option.check(value)

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
    spec_type: SpecType = schema.SPEC_TYPE.default
    n_draft_max: int = schema.N_DRAFT.default  # 0: K auto (backend/engine/adaptive_k.py)
    n_draft_min: int = 0  # a proposal shorter than this is not verified as a draft
    p_min: float = schema.P_MIN.default  # stop drafting below this top draft probability
    sampling: SamplingSettings = field(default_factory=SamplingSettings)
    ngram: NgramSettings = field(default_factory=NgramSettings)
    max_tokens: int = schema.MAX_TOKENS.default
    stop: tuple[str, ...] = ()
    request_id: int = 0
    # Whether some steps draft nothing, to measure plain decoding in this answer for its
    # speedup figure (backend/engine/plain_yardstick.py). Off for a run that must draft every
    # step it can (a test of how drafts are accepted, a bench of one fixed K).
    measure_plain: bool = True
    # An answer to go on from (Continue after a Stop or a crash): the prompt ends with these
    # words as the assistant's so far, and the events carry only what comes after them.
    continue_text: str = ""

    def __post_init__(self) -> None:
        if self.prompt is None and not self.messages:
            raise ValueError("A request needs chat messages or a raw prompt.")
        schema.N_DRAFT.check(self.n_draft_max)
        if not 0 <= self.n_draft_min <= (self.n_draft_max or self.n_draft_min):
            raise ValueError("n_draft_min must be between 0 and n_draft_max.")
        schema.P_MIN.check(self.p_min)
        schema.MAX_TOKENS.check(self.max_tokens)

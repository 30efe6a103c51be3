"""What one request's steps share, from its prompt to its end: the engine's loop
(Engine._step) and the plain chunks (plain_chunk.py) read and advance it."""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from backend.engine.adaptive_k import AdaptiveK
from backend.engine.context import Context
from backend.engine.drafters.base import Drafter
from backend.engine.events import StopReason
from backend.engine.model import LoadedModel
from backend.engine.plain_yardstick import PlainYardstick
from backend.engine.request import GenerationRequest
from backend.engine.text import AnswerText


@dataclass
class AnswerRun:
    """What one request's steps share."""

    req: GenerationRequest
    model: LoadedModel
    ctx: Context
    drafter: Drafter | None
    n_draft_max: int
    rng: np.random.Generator
    answer: AnswerText
    history: list[int]  # prompt and answer tokens so far
    adaptive: AdaptiveK | None = None  # K auto's controller, when the request asked for it
    # K auto: when the last step's drafting began, and its draft + verify ms
    last_step: tuple[float, float] | None = None
    next_k: int | None = None  # the next step's draft length, when chosen ahead of it
    prompt_read_ms: float = 0.0  # the drafter's reading of the prompt (see PromptReader)
    yardstick: PlainYardstick = field(default_factory=PlainYardstick)  # plain decoding's speed
    trees: bool = False  # the request's token trees, where its drafter and target allow them
    # the decode of the history's last token, begun by the step before (`_pipelines`): the
    # launch's ms; None when the next step decodes its batch itself
    launched_ms: float | None = None
    # Where the next decode is begun before the step's row is read for what the window shows
    # (Engine._copies_rows): the row, penalised, copied here after its argmax, and its one pass
    # in C (log-sum-exp, top five) made over the copy once the next decode is under way, while
    # a GPU decodes, instead of before it: the same values from the same logits, and 49-50 µs
    # of the engine's own a token where it took 66-71 (a 1B model's decode at 152k tokens,
    # bench/engine_overhead_bench.py).
    row_copy: np.ndarray | None = None

    def emit(self, tokens: list[int], n_generated: int
             ) -> tuple[list[tuple[int, str]], StopReason | None]:
        """The answer's next tokens, each with the text it releases, up to the one that ends
        the answer (an end-of-generation token, a stop string in its text, the request's
        length), and why it ends there, if it does; the text held back for a stop string
        released where the answer ends otherwise. After `n_generated` tokens."""
        answer, model = self.answer, self.model
        reason: StopReason | None = None
        emitted: list[tuple[int, str]] = []
        for tok in tokens:
            eog = model.is_eog(tok)
            emitted.append((tok, "" if eog else answer.push(model.piece(tok))))
            if eog:
                reason = "eos"
            elif answer.stopped:
                reason = "stop_string"
            elif n_generated + len(emitted) >= self.req.max_tokens:
                reason = "length"
            if reason is not None:
                break
        if reason in ("eos", "length"):
            tail = answer.flush()
            if tail:
                emitted[-1] = (emitted[-1][0], emitted[-1][1] + tail)
        return emitted, reason

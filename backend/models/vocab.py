"""Whether one model can draft for another: llama.cpp's vocabulary rule, explained in words.

The rule is `common_speculative_are_compatible` in llama.cpp's common/speculative.cpp: same
vocabulary type; same add-BOS/add-EOS flags and, where added, the same BOS/EOS ids; sizes
within 128 tokens; and the same token text for every id from 5 on. The facts come either
from a loaded model (the engine) or from GGUF metadata (the library), so both use this one rule.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from backend.words import Words, words

MAX_SIZE_DIFFERENCE = 128  # SPEC_VOCAB_MAX_SIZE_DIFFERENCE
CHECK_START_TOKEN_ID = 5  # SPEC_VOCAB_CHECK_START_TOKEN_ID

OTHER_TOKENIZER = ("The draft model's tokenizer type ({draft}) differs from the target's "
                   "({target}), so their token ids mean different things.")
OTHER_START = ("The two models start a text differently (beginning-of-sequence token: target "
               "{target}, draft {draft}).")
OTHER_END = ("The two models end a text differently (end-of-sequence token: target {target}, "
             "draft {draft}).")
OTHER_SIZE = ("The vocabularies differ in size by {diff} tokens (target {target:,}, draft "
              "{draft:,}; at most {most} is allowed).")
OTHER_TOKEN = "The vocabularies differ at token {i}: the target has {target}, the draft {draft}."
TOKEN_ID = "id {id}"
NONE_ADDED = "none added"


@dataclass(frozen=True)
class VocabInfo:
    vocab_type: str  # "spm", "bpe", "wpm", "ugm", "rwkv", "plamo2", "none"
    add_bos: bool
    add_eos: bool
    bos_id: int
    eos_id: int
    tokens: Sequence[str]  # token texts by id

    @property
    def n_tokens(self) -> int:
        return len(self.tokens)


def incompatibility(target: VocabInfo, draft: VocabInfo) -> Words | None:
    """None when `draft` can draft for `target`; otherwise one sentence saying what differs."""
    if target.vocab_type != draft.vocab_type:
        return words(OTHER_TOKENIZER, draft=draft.vocab_type.upper(),
                     target=target.vocab_type.upper())
    if target.add_bos != draft.add_bos or (target.add_bos and target.bos_id != draft.bos_id):
        return words(OTHER_START, target=_flag_id(target.add_bos, target.bos_id),
                     draft=_flag_id(draft.add_bos, draft.bos_id))
    if target.add_eos != draft.add_eos or (target.add_eos and target.eos_id != draft.eos_id):
        return words(OTHER_END, target=_flag_id(target.add_eos, target.eos_id),
                     draft=_flag_id(draft.add_eos, draft.eos_id))
    diff = abs(target.n_tokens - draft.n_tokens)
    if diff > MAX_SIZE_DIFFERENCE:
        return words(OTHER_SIZE, diff=diff, target=target.n_tokens, draft=draft.n_tokens,
                     most=MAX_SIZE_DIFFERENCE)
    for i in range(CHECK_START_TOKEN_ID, min(target.n_tokens, draft.n_tokens)):
        if target.tokens[i] != draft.tokens[i]:
            return words(OTHER_TOKEN, i=i, target=repr(target.tokens[i]),
                         draft=repr(draft.tokens[i]))
    return None


def _flag_id(added: bool, token_id: int) -> Words:
    return words(TOKEN_ID, id=token_id) if added else words(NONE_ADDED)

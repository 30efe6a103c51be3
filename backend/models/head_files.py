"""Which DFlash heads and Gemma 4 assistants may draft for a target, from the two GGUF headers:
what the draft finder and the library's pairing can tell before anything is loaded.

The engine checks the rest when the head loads (backend/engine/drafters/dflash.py and
gemma4_assistant.py: a DFlash head's target layers, its mask token, the assistant's attention
sizes), each in words before llama.cpp could abort. Here: the kind of target each is made for,
the hidden size a DFlash head reads the target's states at, and the vocabulary."""

from __future__ import annotations

from backend.models.inspection import ModelInspection
from backend.models.vocab import incompatibility
from backend.words import Words, words

DFLASH, GEMMA4_ASSISTANT, GEMMA4 = "dflash", "gemma4-assistant", "gemma4"
HEAD_ARCHITECTURES = (DFLASH, GEMMA4_ASSISTANT)

IS_A_DFLASH_HEAD = ("{name} is a DFlash draft head (it drafts blocks of tokens from the hidden "
                    "states of the model it was made for), not a model that can answer: choose "
                    "it as the draft with spec type DFlash, and the model it was made for as "
                    "the target.")
IS_AN_ASSISTANT = ("{name} is a Gemma 4 assistant (it drafts from a Gemma 4 model's own cache), "
                   "not a model that can answer: choose it as the draft with spec type Gemma 4 "
                   "assistant, and its Gemma 4 model as the target.")
ONLY_GEMMA4 = "It drafts only for Gemma 4 models, and {target} is a {architecture} model."
OTHER_HIDDEN = ("It reads the target's states at hidden size {n_embd}, and {target} has "
                "{target_n_embd}: it was made for another model.")
CHECKED_ON_LOAD = ("Made for this hidden size and vocabulary; the layers it reads are checked "
                   "when it loads.")


def is_head_file(model: ModelInspection) -> bool:
    return model.architecture in HEAD_ARCHITECTURES


def head_target_refusal(architecture: str, name: str) -> Words | None:
    """Why a file (its GGUF architecture and name) cannot be opened as the target: a DFlash
    head or a Gemma 4 assistant only drafts (loaded as a target, llama.cpp "answers" garbage or
    fails to make its context). None for another file."""
    if architecture == DFLASH:
        return words(IS_A_DFLASH_HEAD, name=name)
    if architecture == GEMMA4_ASSISTANT:
        return words(IS_AN_ASSISTANT, name=name)
    return None


def head_file_refusal(target: ModelInspection, head: ModelInspection) -> Words | None:
    """Why `head` cannot draft for `target` as far as the headers tell, None when it may."""
    if head.architecture == GEMMA4_ASSISTANT and target.architecture != GEMMA4:
        return words(ONLY_GEMMA4, target=target.name, architecture=target.architecture)
    if (head.architecture == DFLASH and head.n_embd and target.n_embd
            and head.n_embd != target.n_embd):
        return words(OTHER_HIDDEN, n_embd=head.n_embd, target=target.name,
                     target_n_embd=target.n_embd)
    return incompatibility(target.vocab, head.vocab)

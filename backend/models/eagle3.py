"""EAGLE-3 draft heads, read from their GGUF header, and the rule for which targets they fit.

An EAGLE-3 head (GGUF architecture `eagle3`) is no model of its own: it reads the inputs of
three of the target's layers and drafts from them. llama.cpp aborts the whole process
(GGML_ASSERT) on most ways a head can fail to fit its target, so the rule is checked here,
in pure Python and in words, before the engine hands either file to llama.cpp; the library,
the side panel and the engine all apply this one rule.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Protocol

import numpy as np
from gguf.constants import GGMLQuantizationType

from backend.models.gguf_header import ArrayRef, GGUFHeader, ModelFileError
from backend.models.vocab import VocabInfo, incompatibility
from backend.words import Words, words

ARCHITECTURE = "eagle3"

# Target architectures whose llama.cpp graph records the input of each layer (the hook
# `res->t_layer_inp[il]` in src/models/*.cpp of the pinned llama.cpp). Asking any other to
# record them aborts at its next decode.
NO_TARGET_LAYERS = ("It is an EAGLE-3 head without eagle3.target_layers, so llama.cpp cannot load "
                    "it.")
LAYER_COUNT = ("It is an EAGLE-3 head that lists {n} target layers; llama.cpp loads only heads "
               "that read exactly 3.")
NO_HIDDEN_SIZE = ("It is an EAGLE-3 head without eagle3.target_hidden_size, so llama.cpp cannot "
                  "load it.")
D2T_NOT_IDS = "Its d2t table is not a list of 64-bit token ids."
D2T_SHORT = "Its d2t table is cut short."
HEAD_FACTS = ("for a target of hidden size {hidden}, reads its layers {layers}; draft vocabulary "
              "{vocab}")
VOCAB = "{n:,} tokens"
VOCAB_D2T = "{n:,} tokens (d2t)"
IS_A_HEAD = ("{name} is an EAGLE-3 draft head for a model with hidden size {hidden} (it reads "
             "that model's layers {layers}), not a model that can answer: choose it as the draft "
             "with spec type EAGLE-3, and the model it was made for as the target.")
# (the engine first says what another kind of file drafts with: spec_types.file_refusal)
NOT_A_HEAD = ("{name} is not an EAGLE-3 head llama.cpp can read: spec type EAGLE-3 needs a "
              "draft of architecture eagle3 with its layer keys.")
NO_CAPTURE = ("{target} is a {architecture} model, and llama.cpp cannot read the hidden states "
              "of that architecture, so no EAGLE-3 head can draft for it.")
LAYER_OUT_OF_RANGE = ("{name} reads layer {layer} of its target, but {target} has {n} layers "
                      "(0–{last}): it was made for a bigger model.")
OTHER_HIDDEN_SIZE = ("{name} was made for a target with hidden size {hidden}, but {target} has "
                     "{target_hidden}.")
BORROWS_EMBEDDING = ("{name} borrows the target's token embedding, which needs its hidden size "
                     "({n_embd}) to equal {target}'s ({target_n_embd}).")
BORROWS_OUTPUT = ("{name} borrows the target's output matrix, which needs its hidden size "
                  "({n_embd}) to equal {target}'s ({target_n_embd}).")
EMBEDDING_ROWS = ("{name}'s token embedding has rows for {rows:,} tokens, and {target}'s "
                  "vocabulary has {n_vocab:,}.")
D2T_NO_OUTPUT = ("{name} maps a reduced vocabulary (d2t) but has no output matrix of its own, so "
                 "llama.cpp cannot use it.")
D2T_OUTSIDE = ("{name}'s d2t table maps to token id {id}, outside {target}'s vocabulary of "
               "{n_vocab:,} tokens.")
OUTPUT_SIZE = ("{name}'s output has {n:,} tokens but no d2t table, and {target}'s vocabulary has "
               "{n_vocab:,}.")
VOCAB_SIZE = "its vocabulary has {n:,} tokens and the target's {n_vocab:,}."
OTHER_VOCABULARY = "{name} was made for another vocabulary: {reason}"

LAYER_CAPTURE_ARCHITECTURES = frozenset({
    "bailingmoe3", "deepseek4", "gemma4", "gpt-oss", "hunyuan_vl", "lfm2", "llama", "mimo2",
    "minimax-01", "minimax-m2", "muse-glimmer", "nanbeige", "nemotron_h", "qwen3", "qwen35",
    "qwen35moe", "qwen3moe", "qwen3next", "qwen4exp",
})


@dataclass(frozen=True)
class Eagle3Head:
    """What pairing needs to know of an EAGLE-3 head."""

    target_layers: tuple[int, ...]  # the target layers whose inputs it reads
    target_hidden_size: int  # the hidden size of the target it was trained on
    n_embd: int  # its own hidden size
    draft_vocab_size: int  # rows of its output (its d2t length when it has one)
    own_embedding: bool  # has its own token embedding (else borrows the target's)
    embedding_rows: int  # tokens its own embedding has rows for (0 when it borrows)
    own_output: bool  # has its own output matrix (else borrows the target's)
    d2t_range: tuple[int, int] | None  # smallest and largest target id its d2t maps to


class PairedModel(Protocol):
    """What the pairing rule reads of a model (a ModelInspection satisfies it). Named by its
    parts, as importing ModelInspection here would close an import circle: inspecting a file
    reads its head with `read_head`."""

    @property
    def path(self) -> Path: ...
    @property
    def name(self) -> str: ...
    @property
    def architecture(self) -> str: ...
    @property
    def n_layers(self) -> int: ...
    @property
    def n_mtp_heads(self) -> int: ...
    @property
    def n_embd(self) -> int: ...
    @property
    def vocab(self) -> VocabInfo: ...
    @property
    def eagle3(self) -> Eagle3Head | None: ...


def read_head(path: Path, header: GGUFHeader, tensors: list, n_vocab: int) -> Eagle3Head:
    """The head's facts from its header (and its d2t tensor, a few hundred kB at most)."""
    layers = header.value(f"{ARCHITECTURE}.target_layers")
    if not isinstance(layers, ArrayRef) or layers.values is None:
        raise ModelFileError(words(NO_TARGET_LAYERS))
    if len(layers.values) != 3:
        raise ModelFileError(words(LAYER_COUNT, n=len(layers.values)))
    hidden = header.value(f"{ARCHITECTURE}.target_hidden_size")
    if isinstance(hidden, bool) or not isinstance(hidden, int):
        raise ModelFileError(words(NO_HIDDEN_SIZE))
    n_embd = header.value(f"{ARCHITECTURE}.embedding_length")
    by_name = {t.name: t for t in tensors}
    embedding = by_name.get("token_embd.weight")
    d2t = by_name.get("d2t")
    output = by_name.get("output.weight")
    d2t_range = None
    draft_vocab = output.shape[1] if output is not None and len(output.shape) > 1 else n_vocab
    if d2t is not None:
        if d2t.ggml_type != GGMLQuantizationType.I64 or len(d2t.shape) != 1:
            raise ModelFileError(words(D2T_NOT_IDS))
        draft_vocab = d2t.shape[0]
        ids = np.fromfile(path, dtype="<i8", count=d2t.shape[0],
                          offset=header.data_offset + d2t.offset)
        if len(ids) != d2t.shape[0]:
            raise ModelFileError(words(D2T_SHORT))
        d2t_range = (int(ids.min()), int(ids.max())) if len(ids) else (0, 0)
    return Eagle3Head(
        target_layers=tuple(int(v) for v in layers.values),
        target_hidden_size=hidden,
        n_embd=n_embd if isinstance(n_embd, int) else 0,
        draft_vocab_size=int(draft_vocab),
        own_embedding=embedding is not None,
        embedding_rows=embedding.shape[1] if embedding is not None and len(embedding.shape) > 1
        else 0,
        own_output=output is not None,
        d2t_range=d2t_range,
    )


def describe_head(head: Eagle3Head) -> Words:
    """A head's facts in words, for the library and `draftlight models inspect` (`str()`)."""
    layers = ", ".join(str(lid) for lid in head.target_layers)
    vocab = words(VOCAB_D2T if head.d2t_range else VOCAB, n=head.draft_vocab_size)
    return words(HEAD_FACTS, hidden=head.target_hidden_size, layers=layers, vocab=vocab)


def target_refusal(model: PairedModel) -> Words | None:
    """Why `model` cannot be opened as the target: an EAGLE-3 head only drafts (loaded as a
    target, llama.cpp "answers" with unknown tokens forever)."""
    head = model.eagle3
    if head is None:
        return None
    layers = ", ".join(str(lid) for lid in head.target_layers)
    return words(IS_A_HEAD, name=model.path.name, hidden=head.target_hidden_size, layers=layers)


def head_incompatibility(target: PairedModel, head: PairedModel) -> Words | None:
    """Why `head` cannot draft for `target` with spec type EAGLE-3, in one sentence; None when
    it can. Every case here would make llama.cpp abort or draft garbage."""
    if target.eagle3 is not None:
        return target_refusal(target)
    facts = head.eagle3
    name = head.path.name
    if facts is None:
        return words(NOT_A_HEAD, name=name)
    if target.architecture not in LAYER_CAPTURE_ARCHITECTURES:
        return words(NO_CAPTURE, target=target.name, architecture=target.architecture)
    n_layers = target.n_layers - target.n_mtp_heads  # NextN blocks record no layer input
    bad = [lid for lid in facts.target_layers if not 0 <= lid < n_layers]
    if bad:
        return words(LAYER_OUT_OF_RANGE, name=name, layer=bad[0], target=target.name, n=n_layers,
                     last=n_layers - 1)
    if target.n_embd and facts.target_hidden_size != target.n_embd:
        return words(OTHER_HIDDEN_SIZE, name=name, hidden=facts.target_hidden_size,
                     target=target.name, target_hidden=target.n_embd)
    if not (facts.own_embedding and facts.own_output) and target.n_embd \
            and facts.n_embd != target.n_embd:
        return words(BORROWS_EMBEDDING if not facts.own_embedding else BORROWS_OUTPUT, name=name,
                     n_embd=facts.n_embd, target=target.name, target_n_embd=target.n_embd)
    n_target_vocab = target.vocab.n_tokens
    if facts.own_embedding and facts.embedding_rows != n_target_vocab:
        return words(EMBEDDING_ROWS, name=name, rows=facts.embedding_rows, target=target.name,
                     n_vocab=n_target_vocab)
    if facts.d2t_range is not None:
        if not facts.own_output:
            return words(D2T_NO_OUTPUT, name=name)
        lo, hi = facts.d2t_range
        if lo < 0 or hi >= n_target_vocab:
            return words(D2T_OUTSIDE, name=name, id=hi if hi >= n_target_vocab else lo,
                         target=target.name, n_vocab=n_target_vocab)
    elif facts.own_output and facts.draft_vocab_size != n_target_vocab:
        return words(OUTPUT_SIZE, name=name, n=facts.draft_vocab_size, target=target.name,
                     n_vocab=n_target_vocab)
    reason = incompatibility(target.vocab, head.vocab)
    if reason is None and head.vocab.n_tokens != n_target_vocab:
        reason = words(VOCAB_SIZE, n=head.vocab.n_tokens, n_vocab=n_target_vocab)
    if reason is not None:
        return words(OTHER_VOCABULARY, name=name, reason=reason)
    return None

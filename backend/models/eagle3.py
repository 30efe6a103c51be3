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
from typing import TYPE_CHECKING

import numpy as np
from gguf.constants import GGMLQuantizationType

from backend.models.gguf_header import ArrayRef, GGUFHeader, ModelFileError
from backend.models.vocab import incompatibility

if TYPE_CHECKING:
    from backend.models.inspect import ModelInspection

ARCHITECTURE = "eagle3"

# Target architectures whose llama.cpp graph records the input of each layer (the hook
# `res->t_layer_inp[il]` in src/models/*.cpp of the pinned llama.cpp). Asking any other to
# record them aborts at its next decode.
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


def read_head(path: Path, header: GGUFHeader, tensors: list, n_vocab: int) -> Eagle3Head:
    """The head's facts from its header (and its d2t tensor, a few hundred kB at most)."""
    layers = header.value(f"{ARCHITECTURE}.target_layers")
    if not isinstance(layers, ArrayRef) or layers.values is None:
        raise ModelFileError(
            "It is an EAGLE-3 head without eagle3.target_layers, so llama.cpp cannot load it.")
    if len(layers.values) != 3:
        raise ModelFileError(
            f"It is an EAGLE-3 head that lists {len(layers.values)} target layers; llama.cpp "
            "loads only heads that read exactly 3.")
    hidden = header.value(f"{ARCHITECTURE}.target_hidden_size")
    if isinstance(hidden, bool) or not isinstance(hidden, int):
        raise ModelFileError(
            "It is an EAGLE-3 head without eagle3.target_hidden_size, so llama.cpp cannot "
            "load it.")
    n_embd = header.value(f"{ARCHITECTURE}.embedding_length")
    by_name = {t.name: t for t in tensors}
    embedding = by_name.get("token_embd.weight")
    d2t = by_name.get("d2t")
    output = by_name.get("output.weight")
    d2t_range = None
    draft_vocab = output.shape[1] if output is not None and len(output.shape) > 1 else n_vocab
    if d2t is not None:
        if d2t.ggml_type != GGMLQuantizationType.I64 or len(d2t.shape) != 1:
            raise ModelFileError("Its d2t table is not a list of 64-bit token ids.")
        draft_vocab = d2t.shape[0]
        ids = np.fromfile(path, dtype="<i8", count=d2t.shape[0],
                          offset=header.data_offset + d2t.offset)
        if len(ids) != d2t.shape[0]:
            raise ModelFileError("Its d2t table is cut short.")
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


def describe_head(head: Eagle3Head) -> str:
    """A head's facts in words, for the library and `draftlight models inspect`."""
    layers = ", ".join(str(lid) for lid in head.target_layers)
    vocab = f"{head.draft_vocab_size:,} tokens" + (" (d2t)" if head.d2t_range else "")
    return (f"for a target of hidden size {head.target_hidden_size}, reads its layers {layers}; "
            f"draft vocabulary {vocab}")


def target_refusal(model: ModelInspection) -> str | None:
    """Why `model` cannot be opened as the target: an EAGLE-3 head only drafts (loaded as a
    target, llama.cpp "answers" with unknown tokens forever)."""
    head = model.eagle3
    if head is None:
        return None
    layers = ", ".join(str(lid) for lid in head.target_layers)
    return (f"{model.path.name} is an EAGLE-3 draft head for a model with hidden size "
            f"{head.target_hidden_size} (it reads that model's layers {layers}), not a model "
            "that can answer: choose it as the draft with spec type EAGLE-3, and the model "
            "it was made for as the target.")


def head_incompatibility(target: ModelInspection, head: ModelInspection) -> str | None:
    """Why `head` cannot draft for `target` with spec type EAGLE-3, in one sentence; None when
    it can. Every case here would make llama.cpp abort or draft garbage."""
    if target.eagle3 is not None:
        return target_refusal(target)
    facts = head.eagle3
    name = head.path.name
    if facts is None:
        return (f"{name} is a {head.architecture} model, not an EAGLE-3 head: spec type EAGLE-3 "
                "needs a draft of architecture eagle3 (use spec type 'draft' for this one).")
    if target.architecture not in LAYER_CAPTURE_ARCHITECTURES:
        return (f"{target.name} is a {target.architecture} model, and llama.cpp cannot read "
                f"the hidden states of that architecture, so no EAGLE-3 head can draft for it.")
    n_layers = target.n_layers - target.n_mtp_heads  # NextN blocks record no layer input
    bad = [lid for lid in facts.target_layers if not 0 <= lid < n_layers]
    if bad:
        return (f"{name} reads layer {bad[0]} of its target, but {target.name} has "
                f"{n_layers} layers (0–{n_layers - 1}): it was made for a bigger model.")
    if target.n_embd and facts.target_hidden_size != target.n_embd:
        return (f"{name} was made for a target with hidden size {facts.target_hidden_size}, "
                f"but {target.name} has {target.n_embd}.")
    if not (facts.own_embedding and facts.own_output) and target.n_embd \
            and facts.n_embd != target.n_embd:
        borrowed = "token embedding" if not facts.own_embedding else "output matrix"
        return (f"{name} borrows the target's {borrowed}, which needs its hidden size "
                f"({facts.n_embd}) to equal {target.name}'s ({target.n_embd}).")
    n_target_vocab = target.vocab.n_tokens
    if facts.own_embedding and facts.embedding_rows != n_target_vocab:
        return (f"{name}'s token embedding has rows for {facts.embedding_rows:,} tokens, and "
                f"{target.name}'s vocabulary has {n_target_vocab:,}.")
    if facts.d2t_range is not None:
        if not facts.own_output:
            return (f"{name} maps a reduced vocabulary (d2t) but has no output matrix of its "
                    "own, so llama.cpp cannot use it.")
        lo, hi = facts.d2t_range
        if lo < 0 or hi >= n_target_vocab:
            return (f"{name}'s d2t table maps to token id {hi if hi >= n_target_vocab else lo}, "
                    f"outside {target.name}'s vocabulary of {n_target_vocab:,} tokens.")
    elif facts.own_output and facts.draft_vocab_size != n_target_vocab:
        return (f"{name}'s output has {facts.draft_vocab_size:,} tokens but no d2t table, and "
                f"{target.name}'s vocabulary has {n_target_vocab:,}.")
    reason = incompatibility(target.vocab, head.vocab)
    if reason is None and head.vocab.n_tokens != n_target_vocab:
        reason = (f"its vocabulary has {head.vocab.n_tokens:,} tokens and the target's "
                  f"{n_target_vocab:,}.")
    if reason is not None:
        return f"{name} was made for another vocabulary: {reason}"
    return None

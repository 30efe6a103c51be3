"""References that share no code with the engine: llama.cpp's own sampler chain, and a
minimal decode-and-sample loop on a fresh llama.cpp context.

The engine's plain decoding (spec type "none") runs the engine's own loop, prompt building,
penalties and prefix cache, so it cannot show a bug in any of them; these can. Only
llama-cpp-python's low-level API is used here, never `backend.engine`'s Context, sampling or
prompt code.
"""

from __future__ import annotations

import ctypes
from collections.abc import Sequence

import llama_cpp
import numpy as np
from llama_cpp.llama_chat_format import Jinja2ChatFormatter

from backend.engine.request import SamplingSettings


def sampler_chain(s: SamplingSettings, history: Sequence[int], n_vocab: int, *,
                  greedy: bool = False):
    """llama.cpp's chain in the order sampling.py documents: penalties → top-k → top-p →
    min-p → temperature, then dist (which softmaxes the survivors), or penalties → greedy.
    The history is given to it as llama.cpp is given it: one accepted token at a time.
    Free it with llama_sampler_free (the chain frees its parts)."""
    chain = llama_cpp.llama_sampler_chain_init(llama_cpp.llama_sampler_chain_default_params())
    parts = [llama_cpp.llama_sampler_init_penalties(n_vocab, s.repeat_last_n, s.repeat_penalty,
                                                     0.0, 0.0)]
    if greedy:
        parts.append(llama_cpp.llama_sampler_init_greedy())
    else:
        parts += [
            llama_cpp.llama_sampler_init_top_k(s.top_k),
            llama_cpp.llama_sampler_init_top_p(s.top_p, 1),
            llama_cpp.llama_sampler_init_min_p(s.min_p, 1),
            llama_cpp.llama_sampler_init_temp(s.temperature),
            llama_cpp.llama_sampler_init_dist(1),
        ]
    for part in parts:
        llama_cpp.llama_sampler_chain_add(chain, part)
    for token in history:
        llama_cpp.llama_sampler_accept(chain, int(token))
    return chain


def apply_chain(chain, logits: np.ndarray) -> tuple[list[tuple[int, float, float]], int | None]:
    """(id, logit, p) of every candidate left after llama_sampler_apply, and the selected id."""
    n = len(logits)
    data = (llama_cpp.llama_token_data * n)()
    for i, value in enumerate(logits):
        data[i].id, data[i].logit, data[i].p = i, float(value), 0.0
    arr = llama_cpp.llama_token_data_array(data, n, -1, False)
    llama_cpp.llama_sampler_apply(chain, ctypes.byref(arr))
    rows = [(arr.data[i].id, arr.data[i].logit, arr.data[i].p) for i in range(arr.size)]
    selected = arr.data[arr.selected].id if arr.selected >= 0 else None
    return rows, selected


def reference_distribution(logits: np.ndarray, s: SamplingSettings,
                           history: Sequence[int]) -> np.ndarray:
    """The dense probability vector llama.cpp's chain leaves (zero outside the kept set)."""
    chain = sampler_chain(s, history, len(logits))
    try:
        rows, _ = apply_chain(chain, logits)
    finally:
        llama_cpp.llama_sampler_free(chain)
    out = np.zeros(len(logits))
    for token, _, p in rows:
        out[token] = p
    return out


def reference_penalized(logits: np.ndarray, s: SamplingSettings,
                        history: Sequence[int]) -> np.ndarray:
    """The logits after llama.cpp's penalty sampler alone."""
    chain = llama_cpp.llama_sampler_chain_init(llama_cpp.llama_sampler_chain_default_params())
    llama_cpp.llama_sampler_chain_add(chain, llama_cpp.llama_sampler_init_penalties(
        len(logits), s.repeat_last_n, s.repeat_penalty, 0.0, 0.0))
    for token in history:
        llama_cpp.llama_sampler_accept(chain, int(token))
    try:
        rows, _ = apply_chain(chain, logits)
    finally:
        llama_cpp.llama_sampler_free(chain)
    out = np.empty(len(logits), np.float32)
    for token, logit, _ in rows:
        out[token] = logit
    return out


def reference_prompt(model, *, text: str | None = None,
                     messages: Sequence[tuple[str, str]] = ()) -> list[int]:
    """Prompt tokens made directly with llama.cpp's tokenizer: the raw `text`, or `messages`
    (role, content) through the model's own chat template and llama-cpp-python's formatter."""
    vocab = llama_cpp.llama_model_get_vocab(model)
    add_special = True
    if text is None:
        template = llama_cpp.llama_model_chat_template(model, None).decode()

        def piece(token: int) -> str:
            buf = ctypes.create_string_buffer(64)
            n = llama_cpp.llama_token_to_piece(vocab, token, buf, len(buf), 0, True)
            return buf.raw[:n].decode()

        result = Jinja2ChatFormatter(
            template=template, eos_token=piece(llama_cpp.llama_vocab_eos(vocab)),
            bos_token=piece(llama_cpp.llama_vocab_bos(vocab)),
        )(messages=[{"role": r, "content": c} for r, c in messages])
        text, add_special = result.prompt, not result.added_special
    data = text.encode()
    buf = (llama_cpp.llama_token * (len(data) + 8))()
    n = llama_cpp.llama_tokenize(vocab, data, len(data), buf, len(buf), add_special, True)
    assert n > 0
    return list(buf[:n])


def reference_greedy(model, prompt: Sequence[int], max_tokens: int,
                     s: SamplingSettings, *, n_threads: int = 1) -> list[int]:
    """Plain greedy decoding, llama.cpp's way: a fresh context, the prompt in one batch, then
    one token at a time, each chosen by llama.cpp's penalties + greedy sampler (whose history
    is the prompt and the answer so far); stops after an end-of-generation token."""
    vocab = llama_cpp.llama_model_get_vocab(model)
    n_vocab = llama_cpp.llama_vocab_n_tokens(vocab)
    params = llama_cpp.llama_context_default_params()
    params.n_ctx = len(prompt) + max_tokens + 16
    params.n_batch = max(512, len(prompt))
    # one thread: on a shared 2-core machine a second one spin-waits for a busy core
    params.n_threads = params.n_threads_batch = n_threads
    ctx = llama_cpp.llama_init_from_model(model, params)
    assert ctx, "llama.cpp could not make a reference context"
    chain = sampler_chain(s, prompt, n_vocab, greedy=True)
    out: list[int] = []
    try:
        tokens = (llama_cpp.llama_token * len(prompt))(*prompt)
        assert llama_cpp.llama_decode(ctx, llama_cpp.llama_batch_get_one(tokens, len(prompt))) == 0
        while len(out) < max_tokens:
            token = llama_cpp.llama_sampler_sample(chain, ctx, -1)  # accepts it, too
            out.append(token)
            if llama_cpp.llama_vocab_is_eog(vocab, token):
                break
            one = (llama_cpp.llama_token * 1)(token)
            assert llama_cpp.llama_decode(ctx, llama_cpp.llama_batch_get_one(one, 1)) == 0
    finally:
        llama_cpp.llama_sampler_free(chain)
        llama_cpp.llama_free(ctx)
    return out

"""What the engine tells about a loaded model. Its own light module: it crosses from the engine
process to the window, where unpickling it must not import llama.cpp (backend.engine.model
does)."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class ModelInfo:
    path: str
    name: str
    architecture: str
    n_params: int
    size_bytes: int
    n_ctx_train: int
    n_vocab: int
    n_mtp_heads: int
    # Layers offloaded to a GPU: its kernels sum a verification batch in another order than one
    # token, so greedy output is no longer guaranteed token for token (the lossless check).
    on_gpu: bool = False
    # GPU layers auto, and the GPU could not hold every layer: loaded on the CPU instead
    gpu_fallback: bool = False

"""A GGUF model loaded into llama.cpp: weights, vocabulary, tokenization. Loaded once and
reused by every request; contexts (KV caches) are made from it separately."""

from __future__ import annotations

import ctypes
import logging
import os
from pathlib import Path

import llama_cpp

from backend.engine import cpu_features, llama_log
from backend.engine.errors import EngineError, LoadCancelled
from backend.engine.model_info import ModelInfo
from backend.engine.protocol import ProgressFn
from backend.models.inspection import ModelFileError, ModelInspection, inspect_model
from backend.models.vocab import VocabInfo
from backend.words import words, words_of

LOAD_CANCELLED = "Loading {name} was cancelled."
NOT_A_MODEL = ("llama.cpp could not load {name}: the file is not a model this version of llama.cpp "
               "can read (unknown architecture, missing tensors or a damaged file).")
NOT_ON_GPU = ("llama.cpp could not load {name} with {n} layers on the GPU: the GPU's memory may be "
              "too small for them (set GPU layers lower, or to 0 for the CPU alone), or the file "
              "is not a model this version of llama.cpp can read.")
NO_FILE = "There is no file at {path}."
A_FOLDER = "{path} is a folder, not a GGUF model file."

_VOCAB_TYPES = {0: "none", 1: "spm", 2: "bpe", 3: "wpm", 4: "ugm", 5: "rwkv", 6: "plamo2"}

# AMX kernels built in (not by scripts/exact-kernels.sh) would crash on quantized weights:
# see cpu_features.
_EXTRA_BUFFER_TYPES_ALLOWED = cpu_features.extra_buffer_types_allowed(
    llama_cpp.llama_print_system_info().decode())


ALL_LAYERS = 999  # llama.cpp's "every layer" (its own CLI's -ngl 999)

log = logging.getLogger(__name__)


def gpu_layers(requested: int) -> int:
    """The layers to offload: `requested`, or for -1 (auto) all of them when this llama.cpp
    can offload at all (a CPU-only build ignores the number anyway; 0 says so plainly)."""
    if requested >= 0:
        return requested
    return ALL_LAYERS if llama_cpp.llama_supports_gpu_offload() else 0


class LoadedModel:
    """Owns one `llama_model`. Not thread-safe: used from the engine's thread only."""

    def __init__(
        self, path: str | os.PathLike, *, progress: ProgressFn | None = None,
        with_mtp: bool = False, n_gpu_layers: int = -1,
        inspection: ModelInspection | None = None,
    ) -> None:
        """`with_mtp`: load the file's MTP (NextN) heads, when it has any (a target does).
        `n_gpu_layers`: layers offloaded to a GPU; -1 is all of them when this llama.cpp was
        built with a GPU backend (CUDA, Metal), else none. `inspection`: `inspect_file`'s
        reading of this file, when the caller has made it already."""
        llama_log.install()
        self.path = str(path)
        inspection = inspection or inspect_file(Path(self.path))
        self.inspection = inspection
        load_mtp = with_mtp and inspection.n_mtp_heads > 0
        params = llama_cpp.llama_model_default_params()
        params.use_extra_bufts = _EXTRA_BUFFER_TYPES_ALLOWED
        params.n_gpu_layers = gpu_layers(n_gpu_layers)
        self.n_gpu_layers = params.n_gpu_layers
        # Without load_mtp the NextN tensors are dropped, and an MTP context made later aborts
        # the whole process (tests/engine/test_mtp.py shows it): load them whenever the file has
        # heads.
        params.load_mtp = load_mtp
        cancelled = False

        def on_progress(fraction: float, _data: ctypes.c_void_p) -> bool:
            nonlocal cancelled
            if progress is None:
                return True
            try:
                keep_going = bool(progress(float(fraction)))
            except Exception:  # a failing callback must not unwind through C
                keep_going = False
            cancelled = not keep_going
            return keep_going

        self._progress_cb = llama_cpp.llama_progress_callback(on_progress)
        params.progress_callback = self._progress_cb
        model = llama_cpp.llama_model_load_from_file(self.path.encode(), params)
        # GPU layers auto puts every layer on the GPU, and llama.cpp fails the whole load when
        # the GPU cannot hold them (it does not spill to RAM): then the model runs on the CPU,
        # as the setting's "auto" promises a model that loads, and ModelInfo says so.
        self.gpu_fallback = (not model and not cancelled and n_gpu_layers < 0
                             and params.n_gpu_layers > 0)
        if self.gpu_fallback:
            log.warning("%s did not load with every layer on the GPU; loading it on the CPU",
                        self.path)
            params.n_gpu_layers = self.n_gpu_layers = 0
            model = llama_cpp.llama_model_load_from_file(self.path.encode(), params)
        if not model:
            name = Path(self.path).name
            if cancelled:
                raise LoadCancelled(words(LOAD_CANCELLED, name=name))
            if params.n_gpu_layers > 0 and llama_cpp.llama_supports_gpu_offload():
                raise EngineError(words(NOT_ON_GPU, name=name, n=params.n_gpu_layers))
            raise EngineError(words(NOT_A_MODEL, name=name))
        self.model = model
        self.mtp_loaded = load_mtp
        # Recurrent state (Mamba, or hybrid like qwen35) rolls back only through snapshots.
        self.recurrent = bool(
            llama_cpp.llama_model_is_recurrent(model) or llama_cpp.llama_model_is_hybrid(model)
        )
        self.vocab = llama_cpp.llama_model_get_vocab(model)
        self.n_vocab = llama_cpp.llama_vocab_n_tokens(self.vocab)
        self.eos_id = llama_cpp.llama_vocab_eos(self.vocab)
        self.bos_id = llama_cpp.llama_vocab_bos(self.vocab)
        self.add_bos = bool(llama_cpp.llama_vocab_get_add_bos(self.vocab))
        self._pieces: dict[int, bytes] = {}
        self._eog: dict[int, bool] = {}  # asked for every emitted token: a dict, not a ctypes call
        self.info = ModelInfo(
            path=self.path,
            name=self.meta("general.name") or Path(self.path).stem,
            architecture=self.meta("general.architecture") or "unknown",
            n_params=llama_cpp.llama_model_n_params(model),
            size_bytes=llama_cpp.llama_model_size(model),
            n_ctx_train=llama_cpp.llama_model_n_ctx_train(model),
            n_vocab=self.n_vocab,
            n_mtp_heads=int(llama_cpp.llama_model_n_layer_nextn(model)),
            on_gpu=self.n_gpu_layers > 0 and bool(llama_cpp.llama_supports_gpu_offload()),
            gpu_fallback=self.gpu_fallback,
        )

    # -- metadata -----------------------------------------------------------------------
    def meta(self, key: str) -> str | None:
        buf = ctypes.create_string_buffer(1 << 16)
        n = llama_cpp.llama_model_meta_val_str(self.model, key.encode(), buf, len(buf))
        if n < 0:
            return None
        if n >= len(buf):  # chat templates can be long: ask again with room for all of it
            buf = ctypes.create_string_buffer(n + 1)
            llama_cpp.llama_model_meta_val_str(self.model, key.encode(), buf, len(buf))
        return buf.value.decode("utf-8", "replace")

    def vocab_info(self) -> VocabInfo:
        texts = [
            (llama_cpp.llama_vocab_get_text(self.vocab, i) or b"").decode("utf-8", "replace")
            for i in range(self.n_vocab)
        ]
        return VocabInfo(
            vocab_type=_VOCAB_TYPES.get(llama_cpp.llama_vocab_type(self.vocab), "none"),
            add_bos=self.add_bos,
            add_eos=bool(llama_cpp.llama_vocab_get_add_eos(self.vocab)),
            bos_id=self.bos_id,
            eos_id=self.eos_id,
            tokens=texts,
        )

    # -- tokens -------------------------------------------------------------------------
    def tokenize(self, text: str, *, add_special: bool, parse_special: bool = True) -> list[int]:
        data = text.encode("utf-8")
        n_max = len(data) + 8
        buf = (llama_cpp.llama_token * n_max)()
        n = llama_cpp.llama_tokenize(
            self.vocab, data, len(data), buf, n_max, add_special, parse_special
        )
        if n < 0:  # the buffer was too small: -n is the size needed
            buf = (llama_cpp.llama_token * -n)()
            n = llama_cpp.llama_tokenize(
                self.vocab, data, len(data), buf, -n, add_special, parse_special
            )
        return list(buf[:n])

    def piece(self, token: int) -> bytes:
        """The bytes a token stands for (special tokens rendered as their text)."""
        cached = self._pieces.get(token)
        if cached is not None:
            return cached
        # A buffer of its own each time: the engine's thread and the event worker both ask
        # (step_events.py), and the call releases the GIL. Each token is asked once.
        buf = ctypes.create_string_buffer(256)
        n = llama_cpp.llama_token_to_piece(self.vocab, token, buf, 256, 0, True)
        if n < 0:
            buf = ctypes.create_string_buffer(-n)
            n = llama_cpp.llama_token_to_piece(self.vocab, token, buf, -n, 0, True)
        data = buf.raw[:n]
        self._pieces[token] = data
        return data

    def is_eog(self, token: int) -> bool:
        eog = self._eog.get(token)
        if eog is None:
            eog = self._eog[token] = bool(llama_cpp.llama_vocab_is_eog(self.vocab, token))
        return eog

    def close(self) -> None:
        if getattr(self, "model", None):
            llama_cpp.llama_model_free(self.model)
            self.model = None


def inspect_file(path: Path) -> ModelInspection:
    """Plain-words errors for what llama.cpp would only call "failed to load", and the facts
    the load needs (whether the file carries MTP heads)."""
    if not path.exists():
        raise EngineError(words(NO_FILE, path=path))
    if path.is_dir():
        raise EngineError(words(A_FOLDER, path=path))
    try:
        return inspect_model(path)
    except ModelFileError as exc:
        raise EngineError(words_of(exc)) from exc

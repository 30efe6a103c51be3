"""Every user-facing setting declared once: type, default, range, label and tooltip.

The settings file (`backend.settings`) checks what it reads against these declarations, the
side panel builds its inputs from them, `draftlight generate` its options, and the engine's
request its defaults and limits, so a bound is changed here and nowhere else (qutebrowser's
`configdata.yml` is the model). Qt-free and llama.cpp-free, like the rest of backend/.

Where the old copies disagreed, the choice and its reason:
- temperature 0–2: the range of LM Studio's slider and of the OpenAI API; above 2 the
  answers are noise.
- seed −1 ("random") to 2³¹−1: −1 is llama.cpp's "random", and a Qt spin box holds 32-bit
  signed integers.
- top-k 0–1000: a larger k keeps tokens whose probability is negligible, i.e. is "off" (0).
- min-p shown in the panel with LM Studio's and llama.cpp's default 0.05 (it was applied
  hidden at 0.05); repeat penalty likewise, at 1 (off).
- K 0 ("auto", the default) or 1–32: what the engine verifies in one batch; llama.cpp's own
  default is 16; auto picks each step's K itself (at most adaptive_k.AUTO_K_CAP).
- max tokens 512 for a chat answer everywhere (the request and the CLI said 256).
- context 256–1 Mi tokens, in steps of 256.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from typing import Generic, TypeVar

from backend import spec_types

T = TypeVar("T", int, float, str)
KERNEL_CHOICES = ("exact", "fast")
THEMES = ("system", "light", "dark")
# "system" follows the desktop's language (QLocale); the others are the translations in
# resources/translations/ (English is the source text).
LANGUAGES = ("system", "en", "it", "fr")


@dataclass(frozen=True)
class Option(Generic[T]):
    key: str  # "section.name" in the settings file
    default: T
    label: str = ""
    tooltip: str = ""
    minval: T | None = None
    maxval: T | None = None
    # Called when needed, not at import: a spec type may be registered later (tests do).
    choices: Callable[[], tuple[str, ...]] | None = None
    step: T | None = None  # the panel's arrow step
    decimals: int = 2  # the digits a float keeps in the panel, and so in the settings file
    special: str = ""  # the panel's word for minval (e.g. "auto")
    cli: str = ""  # the `draftlight generate` option, if it has one

    @property
    def section(self) -> str:
        return self.key.partition(".")[0]

    @property
    def name(self) -> str:
        return self.key.partition(".")[2]

    @property
    def kind(self) -> type:
        return type(self.default)

    def problem(self, value: object) -> str | None:
        """Why `value` cannot be this setting, in words; None when it can."""
        if not _same_type(value, self.default):
            return f"is not {'a number' if self.kind is float else 'an ' + self.kind.__name__}"
        if isinstance(value, int | float):
            assert isinstance(self.minval, int | float) and isinstance(self.maxval, int | float)
            if isinstance(value, float) and not math.isfinite(value):
                return "is not a finite number"
            if not self.minval <= value <= self.maxval:
                return f"is outside {self.range_text()}"
        if self.choices is not None and value not in self.choices():
            return f"is not one of {', '.join(self.choices())}"
        return None

    def check(self, value: object) -> None:
        """ValueError, saying in words why, when `value` cannot be this setting."""
        reason = self.problem(value)
        if reason is not None:
            raise ValueError(f"{self.label or self.name} {value!r} {reason}.")

    def range_text(self) -> str:
        lo = f"{self.minval} ({self.special})" if self.special else f"{self.minval}"
        return f"{lo} to {self.maxval}"


def _same_type(value: object, default: object) -> bool:
    if isinstance(default, bool) or isinstance(value, bool):
        return type(value) is type(default)
    if isinstance(default, float):
        return isinstance(value, int | float)  # JSON writes 1.0 as 1 in some tools
    return isinstance(value, type(default))


# -- models: applied when a model is loaded or Apply is pressed ------------------------------
N_CTX = Option(
    "models.n_ctx", 4096, "Context",
    "Context size in tokens (applies when you press Apply or load a model)",
    minval=256, maxval=1 << 20, step=256, cli="--ctx",
)
KERNELS = Option(
    "models.kernels", "exact", "Kernels",
    "exact: greedy output identical to plain decoding, token for token (llama.cpp built "
    "without llamafile's sgemm); fast: llama.cpp's default build, faster on draft batches, "
    "but near-ties may go the other way (a different summation order). Restarts the engine",
    choices=lambda: KERNEL_CHOICES, cli="--kernels",
)
GPU_LAYERS = Option(
    "models.gpu_layers", -1, "GPU layers",
    "Layers offloaded to the GPU (auto: all of them when llama.cpp was built with CUDA or "
    "Metal, none otherwise; 0: CPU only). A GPU sums a verification batch in another order "
    "than one token, so greedy output may differ from plain decoding at near-ties. Restarts "
    "the engine",
    minval=-1, maxval=999, special="auto", cli="--gpu-layers",
)
N_THREADS = Option(
    "models.n_threads", 0, "Threads",
    "CPU threads (auto: one per core); applies when you press Apply or load a model",
    # 512 is llama.cpp's GGML_MAX_N_THREADS
    minval=0, maxval=512, special="auto", cli="--threads",
)

# -- generation: read for each answer, never reloads a model ---------------------------------
SPEC_TYPE = Option(
    "generation.spec_type", spec_types.PLAIN, "Spec type",
    "How tokens are drafted for the target to verify",
    choices=spec_types.names, cli="--spec",
)
N_DRAFT = Option(
    "generation.n_draft", 0, "Draft length K",
    "K: the most tokens drafted per step; auto chooses it at every step from the acceptance "
    "and the costs this answer measured (backend/engine/adaptive_k.py)",
    minval=0, maxval=32, special="auto", cli="--n-draft",
)
P_MIN = Option(
    "generation.p_min", 0.0, "p_min",
    "Stop drafting when the drafter's top probability falls below this (0 = always draft K)",
    minval=0.0, maxval=1.0, step=0.05, cli="--p-min",
)
TEMPERATURE = Option(
    "generation.temperature", 0.0, "Temperature", "0 = greedy (deterministic)",
    minval=0.0, maxval=2.0, step=0.05, cli="--temp",
)
TOP_P = Option(
    "generation.top_p", 0.95, "Top-p", "Nucleus sampling: keep the most likely tokens whose "
    "probabilities add up to this (1 = off)",
    minval=0.0, maxval=1.0, step=0.05, cli="--top-p",
)
TOP_K = Option(
    "generation.top_k", 40, "Top-k", "Keep the k most likely tokens (0 = off)",
    minval=0, maxval=1000, cli="--top-k",
)
MIN_P = Option(
    "generation.min_p", 0.05, "Min-p",
    "Drop tokens less likely than this fraction of the most likely one (0 = off)",
    minval=0.0, maxval=1.0, step=0.01, cli="--min-p",
)
# On by default, as in LM Studio: greedy decoding of a small model (the demo's 135M) loops on
# an ordinary story prompt without it. The answer stays greedy, so speculative decoding still
# equals plain decoding token for token (the same penalty shapes both).
REPEAT_PENALTY = Option(
    "generation.repeat_penalty", 1.1, "Repeat penalty",
    "Make tokens the answer used recently less likely (1 = off)",
    minval=1.0, maxval=2.0, step=0.05, cli="--repeat-penalty",
)
SEED = Option(
    "generation.seed", 0, "Seed", "Random seed for sampling (random: a new one each answer)",
    minval=-1, maxval=2**31 - 1, special="random", cli="--seed",
)
MAX_TOKENS = Option(
    "generation.max_tokens", 512, "Max tokens", "Most tokens in one answer",
    minval=1, maxval=1 << 20, step=64, cli="--max-tokens",
)

# -- server: an OpenAI-compatible server instead of the local engine (backend/serving/) --------
BACKEND_KINDS = ("local", "server")
BACKEND_KIND = Option(
    "server.kind", "local", "Backend",
    "Local engine: GGUF files on this machine, every token coloured by its origin. "
    "OpenAI-compatible server: llama-server, vLLM, SGLang… (speculation as numbers only)",
    choices=lambda: BACKEND_KINDS,
)
SERVER_URL = Option(
    "server.base_url", "http://127.0.0.1:8080/v1", "Server URL",
    "The server's OpenAI-compatible address, with its /v1", cli="--server",
)
SERVER_MODEL = Option(
    "server.model", "", "Server model", "One of the models the server lists (/v1/models)",
    cli="--model",
)
# Kept in the settings file, in plain text, and the panel says so: the system keyring needs a
# Secret Service that headless and minimal Linux desktops lack (keyring then fails or falls
# back to a plain file itself), and the keys of a local or LAN server are rarely secrets
# worth a dependency; the command line reads $DRAFTLIGHT_API_KEY instead of a flag's value.
SERVER_API_KEY = Option(
    "server.api_key", "", "API key",
    "Sent as a bearer token; kept in plain text in the settings file", cli="--api-key",
)

# -- window -----------------------------------------------------------------------------------
THEME = Option(
    "window.theme", "system", "Theme", "Colour theme", choices=lambda: THEMES,
)
LANGUAGE = Option(
    "window.language", "system", "Language",
    "The window's language: the system's, English, Italian or French (applies at the next "
    "start)",
    choices=lambda: LANGUAGES,
)

OPTIONS: dict[str, Option] = {o.key: o for o in (
    N_CTX, N_THREADS, KERNELS, GPU_LAYERS, SPEC_TYPE, N_DRAFT, P_MIN, TEMPERATURE, TOP_P,
    TOP_K, MIN_P, REPEAT_PENALTY, SEED, MAX_TOKENS, THEME, LANGUAGE, BACKEND_KIND, SERVER_URL,
    SERVER_MODEL, SERVER_API_KEY,
)}


def section(name: str) -> tuple[Option, ...]:
    return tuple(o for o in OPTIONS.values() if o.section == name)

"""Every user-facing setting declared once: key, default, range, label, tooltip, flag.

The settings file (`backend.settings`) checks what it reads against these declarations, the
side panel builds its inputs from them, `draftlight generate` its options, and
`backend.generation_settings` the engine's request, so a setting is added or changed here and
nowhere else (qutebrowser's `configdata.yml` is the model). A generation setting names the
request field it sets (`request=`) and takes that field's default and range from the
request's own declaration (`backend.engine.request.accepts`), which every request checks,
whoever made it; it may give a default of its own (the window's repeat penalty). Qt-free and
llama.cpp-free, like the rest of backend/. `register` adds a setting, as tests do.

Why some values are what they are (the generation settings' own reasons are beside their
request fields):
- min-p and the repeat penalty are shown in the panel, at LM Studio's defaults, rather than
  applied hidden (see REPEAT_PENALTY).
- context 256–1 Mi tokens, in steps of 256.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

from backend import spec_types
from backend.engine.request import RANGE, request_field, value_problem

T = TypeVar("T", int, float, str)
KERNEL_CHOICES = ("exact", "fast")
THEMES = ("system", "light", "dark")
# "system" follows the desktop's language (QLocale); the others are the translations in
# resources/translations/ (English is the source text).
LANGUAGES = ("system", "en", "it", "fr")
_FROM_REQUEST: Any = object()  # "the default of the request field the setting names"


@dataclass(frozen=True)
class Option(Generic[T]):
    key: str  # "section.name" in the settings file
    default: T = _FROM_REQUEST
    label: str = ""
    tooltip: str = ""
    minval: T | None = None
    maxval: T | None = None
    # Called when needed, not at import: a spec type may be registered later (tests do).
    choices: Callable[[], tuple[str, ...]] | None = None
    # Why a value the choices let through is refused all the same (a chain of declared spec
    # types that cannot go together), in words; None: it is not.
    refusal: Callable[[Any], object | None] | None = None
    step: T | None = None  # the panel's arrow step
    decimals: int = 2  # the digits a float keeps in the panel, and so in the settings file
    special: str = ""  # the panel's word for minval (e.g. "auto")
    cli: str = ""  # the `draftlight generate` option, if it has one
    # The GenerationRequest field a generation setting sets: "max_tokens", or
    # "sampling.temperature" for a field of one of its parts (backend.engine.request.PARTS).
    request: str = ""
    # The spec types whose drafters alone read the setting: the panel shows it while one of
    # them is chosen, alone or in a chain.
    specs: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        if not self.request:
            if self.default is _FROM_REQUEST:
                raise ValueError(f"setting {self.key} needs a default or a request field")
            return
        target = request_field(self.request)  # KeyError: no such field
        if self.default is _FROM_REQUEST:
            object.__setattr__(self, "default", target.default)
        if RANGE in target.metadata:
            if self.minval is not None or self.maxval is not None:
                raise ValueError(f"setting {self.key}: the range is {self.request}'s own")
            minval, maxval = target.metadata[RANGE]
            object.__setattr__(self, "minval", minval)
            object.__setattr__(self, "maxval", maxval)

    def read_by(self, drafters: tuple[str, ...]) -> bool:
        """Whether an answer drafted by `drafters` (spec_types.drafters_of) reads it."""
        return not self.specs or any(s in drafters for s in self.specs)

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
        reason = value_problem(value, self.default, self.minval, self.maxval,
                               self.range_text() if self.minval is not None else "")
        if reason is None and self.choices is not None and value not in self.choices():
            reason = f"is not one of {', '.join(self.choices())}"
        if reason is None and self.refusal is not None:
            why = self.refusal(value)
            reason = None if why is None else f"is refused: {why}"
        return reason

    def check(self, value: object) -> None:
        """ValueError, saying in words why, when `value` cannot be this setting."""
        reason = self.problem(value)
        if reason is not None:
            raise ValueError(f"{self.label or self.name} {value!r} {reason}.")

    def range_text(self) -> str:
        lo = f"{self.minval} ({self.special})" if self.special else f"{self.minval}"
        return f"{lo} to {self.maxval}"


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

# -- generation: read for each answer, never reloads a model --------------------------------
# Each sets the request field it names; default and range are that field's (see above).
SPEC_TYPE = Option(
    "generation.spec_type", label="Spec type",
    tooltip="How tokens are drafted for the target to verify",
    # a chain ("ngram-mod,draft") is a choice too, though not listed, and refused in words
    # when its members cannot go together
    choices=spec_types.choices, refusal=lambda v: spec_types.chain_problem(str(v)),
    cli="--spec", request="spec_type",
)
# The draft length: "K" in words, n_draft in the settings file (and in the answers' saved
# settings), n_draft_max in the request, its events and traces. Those names are stored, so
# they stay; this declaration is where one becomes the other.
N_DRAFT = Option(
    "generation.n_draft", label="Draft length K",
    tooltip="K: the most tokens drafted per step; auto chooses it at every step from the "
    "acceptance and the costs this answer measured (backend/engine/adaptive_k.py)",
    special="auto", cli="--n-draft", request="n_draft_max",
)
P_MIN = Option(
    "generation.p_min", label="p_min",
    tooltip="Stop drafting when the drafter's top probability falls below this (0 = always "
    "draft K)",
    step=0.05, cli="--p-min", request="p_min",
)
TREE_NODES = Option(
    "generation.tree_nodes", label="Tree nodes",
    tooltip="Verify a tree of at most this many draft tokens in one batch: the drafter's "
    "chain and its next most likely choices beside it; auto: beside the tokens it is unsure "
    "of; 0: a chain. It pays on GPUs, where a batch row costs little",
    special="auto", cli="--tree", request="tree_nodes", specs=spec_types.tree_drafters(),
)
TEMPERATURE = Option(
    "generation.temperature", label="Temperature", tooltip="0 = greedy (deterministic)",
    step=0.05, cli="--temp", request="sampling.temperature",
)
TOP_P = Option(
    "generation.top_p", label="Top-p",
    tooltip="Nucleus sampling: keep the most likely tokens whose probabilities add up to this "
    "(1 = off)",
    step=0.05, cli="--top-p", request="sampling.top_p",
)
TOP_K = Option(
    "generation.top_k", label="Top-k", tooltip="Keep the k most likely tokens (0 = off)",
    cli="--top-k", request="sampling.top_k",
)
MIN_P = Option(
    "generation.min_p", label="Min-p",
    tooltip="Drop tokens less likely than this fraction of the most likely one (0 = off)",
    step=0.01, cli="--min-p", request="sampling.min_p",
)
# On by default, as in LM Studio: greedy decoding of a small model (the demo's 135M) loops on
# an ordinary story prompt without it. The answer stays greedy, so speculative decoding still
# equals plain decoding token for token (the same penalty shapes both). The request's own
# default is off, as in llama.cpp's tools, which the benches and tests compare with.
REPEAT_PENALTY = Option(
    "generation.repeat_penalty", 1.1, label="Repeat penalty",
    tooltip="Make tokens the answer used recently less likely (1 = off)",
    step=0.05, cli="--repeat-penalty", request="sampling.repeat_penalty",
)
SEED = Option(
    "generation.seed", label="Seed",
    tooltip="Random seed for sampling (random: a new one each answer)",
    special="random", cli="--seed", request="sampling.seed",
)
MAX_TOKENS = Option(
    "generation.max_tokens", label="Max tokens", tooltip="Most tokens in one answer",
    step=64, cli="--max-tokens", request="max_tokens",
)


# The lookups' settings, each read by one spec type's drafter: llama.cpp's names, flags,
# defaults and ranges (common/arg.cpp), but ngram-simple's defaults (request.NgramSettings).
# ngram-map-k reads no min-hits, as in llama.cpp: it has no setting here.
def _lookup(spec: str, part: str, name: str, label: str, tooltip: str) -> Option:
    """The setting `name` of a lookup, as llama.cpp names it (its flag --spec-<type>-<name>):
    spec type `spec`, request part `part`."""
    kind = "ngram-simple" if spec == "ngram" else spec  # llama.cpp's name for "ngram"
    field = name.replace("-", "_")
    return Option(f"generation.{kind.replace('-', '_')}_{field}", label=label,
                  tooltip=tooltip, cli=f"--spec-{kind}-{name}", request=f"{part}.{field}",
                  specs=(spec,))


_KEY_SIZE = ("Key size N", "Tokens in the key: the conversation's last N tokens, looked up "
             "earlier in it")
_DRAFT_SIZE = ("Draft size M", "The most tokens drafted from one match (K caps them too)")
_MIN_HITS = ("Min hits", "Times the key must have been found before it drafts")
LOOKUP_OPTIONS = (
    _lookup("ngram", "ngram", "size-n", *_KEY_SIZE),
    _lookup("ngram", "ngram", "size-m", *_DRAFT_SIZE),
    _lookup("ngram", "ngram", "min-hits", *_MIN_HITS),
    _lookup("ngram-map-k", "ngram_map_k", "size-n", *_KEY_SIZE),
    _lookup("ngram-map-k", "ngram_map_k", "size-m", *_DRAFT_SIZE),
    _lookup("ngram-map-k4v", "ngram_map_k4v", "size-n", *_KEY_SIZE),
    _lookup("ngram-map-k4v", "ngram_map_k4v", "size-m", *_DRAFT_SIZE),
    _lookup("ngram-map-k4v", "ngram_map_k4v", "min-hits", *_MIN_HITS),
    _lookup("ngram-mod", "ngram_mod", "n-match", "Match length",
            "Tokens in each window hashed into the table; the conversation's last ones are "
            "looked up"),
    _lookup("ngram-mod", "ngram_mod", "n-min", "Min chain",
            "A chain of lookups shorter than this drafts nothing"),
    _lookup("ngram-mod", "ngram_mod", "n-max", "Max chain",
            "The most tokens one chain of lookups drafts (K caps them too)"),
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
    N_CTX, N_THREADS, KERNELS, GPU_LAYERS, SPEC_TYPE, N_DRAFT, P_MIN, TREE_NODES,
    TEMPERATURE, TOP_P, TOP_K, MIN_P, REPEAT_PENALTY, SEED, MAX_TOKENS, *LOOKUP_OPTIONS, THEME,
    LANGUAGE,
    BACKEND_KIND, SERVER_URL, SERVER_MODEL, SERVER_API_KEY,
)}


def section(name: str) -> tuple[Option, ...]:
    """The settings of a section, in the order they were declared (the panel's and the
    command line's order)."""
    return tuple(o for o in OPTIONS.values() if o.section == name)


def register(option: Option) -> None:
    """Declare one more setting: the settings file, the command line and (for a generation
    setting) the request take it from here on, as they take the ones above."""
    if option.key in OPTIONS:
        raise ValueError(f"setting {option.key!r} is already declared")
    if option.section == "generation" and not option.request:
        raise ValueError(f"generation setting {option.key!r} names no request field")
    OPTIONS[option.key] = option


def unregister(key: str) -> None:
    """Remove a setting (tests declare their own and remove them after)."""
    del OPTIONS[key]


@contextmanager
def registered(option: Option) -> Iterator[Option]:
    """`option` declared for the duration of a `with` block."""
    register(option)
    try:
        yield option
    finally:
        unregister(option.key)

"""Draftlight's one typed settings file: JSON under platformdirs' config directory.

Dataclasses give every value a type; the user-facing values take their defaults and limits
from `backend.settings_schema`, declared once, and the generation settings are those the
schema declares (`backend.generation_settings`), so a generation setting added there is
saved and read here with no change. `schema_version` lets a later release migrate
an older file. Loading never fails: a missing, damaged or foreign file gives the defaults (a
bad settings file must not stop the app from starting), and each value that is missing, of
the wrong type or out of range falls back to its own default, never clamped: what was
replaced is listed in `Settings.problems`, in words, for the window to say.
"""

from __future__ import annotations

import dataclasses
import json
import logging
import os
import reprlib
import stat
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import platformdirs

from backend import APP_NAME
from backend import settings_schema as schema
from backend.generation_settings import GenerationSettings
from backend.words import Words, declared, words

log = logging.getLogger(__name__)

SCHEMA_VERSION = 1
MAX_RECENT_FILES = 10
MAX_LIBRARY_FOLDERS = 100
MAX_FOLDED_GROUPS = 20
# Far above any file Draftlight writes (a few KiB): a larger one is not its settings.
MAX_SETTINGS_BYTES = 1 << 20

NOT_A_FILE = "The settings file {path} is not a regular file"
TOO_LARGE = "The settings file {path} is larger than {limit} bytes"
NESTED_TOO_DEEPLY = "The settings file {path} nests its brackets too deeply to be read"
UNREADABLE = "The settings file {path} could not be read ({error})"
NOT_AN_OBJECT = "The settings file {path} is not a JSON object"
USING_DEFAULTS = "{why}; using the default settings."
BAD_VALUE = "{label} {value} in the settings file {reason}; using {default}."
TOO_PRECISE = ("{label} {value} in the settings file has more than {decimals} decimals; "
               "using {rounded}.")

# A value quoted in a problem is cut: the file may hold megabytes of it, or deep nesting.
_QUOTE = reprlib.Repr()
_QUOTE.maxstring = _QUOTE.maxother = 80
_QUOTE.maxlevel = 3


@dataclass
class WindowSettings:
    geometry: str = ""  # QWidget.saveGeometry(), base64: opaque to the backend
    splitter: str = ""  # QSplitter.saveState(), base64
    # The side panel's groups the person folded, by key (app/panel/collapsible.py): window state
    # like the splitter, so no option of the schema. A first run folds what most people
    # never change (the server choice, sampling): the models and speculation stay in view.
    folded: list[str] = field(default_factory=lambda: ["backend", "sampling"])
    theme: str = schema.THEME.default
    language: str = schema.LANGUAGE.default
    # The chat that was open when the window closed (its id in the chat store; 0: none saved),
    # opened again at the next start, as the window's size is.
    last_chat: int = 0


@dataclass
class ModelSettings:
    target: str = ""  # last target model path ("" = none remembered)
    draft: str = ""  # last draft model path
    recent: list[str] = field(default_factory=list)  # most recent first
    n_ctx: int = schema.N_CTX.default
    n_threads: int = schema.N_THREADS.default  # 0 = automatic
    kernels: str = schema.KERNELS.default  # "exact" | "fast": which llama.cpp build runs
    gpu_layers: int = schema.GPU_LAYERS.default  # -1 = automatic
    library_folders: list[str] = field(default_factory=list)  # listed besides the models folder


@dataclass
class ServerSettings:
    """The OpenAI-compatible server the window answers with when `kind` is "server"."""

    kind: str = schema.BACKEND_KIND.default
    base_url: str = schema.SERVER_URL.default
    model: str = schema.SERVER_MODEL.default
    api_key: str = schema.SERVER_API_KEY.default  # plain text: see settings_schema


@dataclass
class Settings:
    schema_version: int = SCHEMA_VERSION
    window: WindowSettings = field(default_factory=WindowSettings)
    models: ModelSettings = field(default_factory=ModelSettings)
    generation: GenerationSettings = field(default_factory=GenerationSettings)
    server: ServerSettings = field(default_factory=ServerSettings)
    # What loading replaced by a default, in words ("temperature 3.0 is outside 0.0 to 2.0"):
    # never saved, shown by the window so that a changed value is not changed silently.
    problems: list[Words] = field(default_factory=list, compare=False, repr=False)

    def remember_model(self, path: str) -> None:
        """Put `path` first in the recent-files list."""
        recent = [p for p in self.models.recent if p != path]
        self.models.recent = [path, *recent][:MAX_RECENT_FILES]


_LIST_LIMITS: dict[tuple[str, str], int] = {
    ("window", "folded"): MAX_FOLDED_GROUPS,
    ("models", "recent"): MAX_RECENT_FILES,
    ("models", "library_folders"): MAX_LIBRARY_FOLDERS,
}

# schema_version N -> function turning a version-N dict into a version-(N+1) dict.
_MIGRATIONS: dict[int, Any] = {}


def default_settings_path() -> Path:
    return platformdirs.user_config_path(APP_NAME) / "settings.json"


def load_settings(path: Path | None = None) -> Settings:
    path = path or default_settings_path()
    try:
        raw = json.loads(_read_bounded(path))
    except FileNotFoundError:
        return Settings()
    except _Refused as refused:
        return _defaults_because(refused.args[0])
    except RecursionError:
        return _defaults_because(words(NESTED_TOO_DEEPLY, path=path))
    except (OSError, ValueError) as exc:
        return _defaults_because(words(UNREADABLE, path=path, error=str(exc)))
    if not isinstance(raw, dict):
        return _defaults_because(words(NOT_AN_OBJECT, path=path))
    try:
        return settings_from_dict(raw)
    except RecursionError:  # a value nested nearly as deep as the parser allows
        return _defaults_because(words(NESTED_TOO_DEEPLY, path=path))


class _Refused(Exception):
    """The settings file is not one to read at all; its one argument is the Words why."""


def _read_bounded(path: Path) -> str:
    """The file's text, refused when it is not a regular file (a FIFO would block the start)
    or larger than MAX_SETTINGS_BYTES."""
    # O_NONBLOCK: opening a FIFO with no writer returns at once instead of waiting for one.
    fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            raise _Refused(words(NOT_A_FILE, path=path))
        chunks: list[bytes] = []
        size = 0
        while size <= MAX_SETTINGS_BYTES and (chunk := os.read(fd, 1 << 16)):
            chunks.append(chunk)
            size += len(chunk)
    finally:
        os.close(fd)
    if size > MAX_SETTINGS_BYTES:
        raise _Refused(words(TOO_LARGE, path=path, limit=MAX_SETTINGS_BYTES))
    return b"".join(chunks).decode("utf-8")


def _defaults_because(why: Words) -> Settings:
    problem = words(USING_DEFAULTS, why=why)
    log.warning("%s", problem)
    return Settings(problems=[problem])


def save_settings(settings: Settings, path: Path | None = None) -> None:
    """Write atomically, so a crash mid-write leaves the previous file intact."""
    path = path or default_settings_path()
    path.parent.mkdir(parents=True, exist_ok=True)
    text = json.dumps(settings_to_dict(settings), indent=2, sort_keys=True)
    fd, tmp = tempfile.mkstemp(prefix=".settings-", suffix=".json", dir=path.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write(text + "\n")
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def settings_to_dict(settings: Settings) -> dict[str, Any]:
    """What the settings file holds: every section's values, by name."""
    values = dataclasses.asdict(settings)
    del values["problems"]
    values["generation"] = settings.generation.to_dict()
    return values


def settings_from_dict(raw: dict) -> Settings:
    version = raw.get("schema_version", SCHEMA_VERSION)
    if not isinstance(version, int) or version > SCHEMA_VERSION:
        # A newer release wrote this file: read what we understand, keep our own version.
        version = SCHEMA_VERSION
    while version < SCHEMA_VERSION and version in _MIGRATIONS:
        raw = _MIGRATIONS[version](raw)
        version += 1
    settings = Settings()
    for section in dataclasses.fields(Settings):
        if section.name in ("schema_version", "problems"):
            continue
        values = raw.get(section.name)
        if isinstance(values, dict):
            settings.problems += _fill(section.name, getattr(settings, section.name), values)
    for problem in settings.problems:
        log.warning("Settings: %s", problem)
    return settings


def _fill(section: str, target: Any, values: dict) -> list[Words]:
    """Set each valid value of `values` on `target`; the problems with the others, in words."""
    problems = []
    names = (target.to_dict() if isinstance(target, GenerationSettings)
             else [f.name for f in dataclasses.fields(target)])
    for name in names:
        if name not in values:
            continue
        value = values[name]
        default = getattr(target, name)
        option = schema.OPTIONS.get(f"{section}.{name}")
        reason = option.problem(value) if option else _plain_problem(value, default)
        if reason is not None:
            label = option.label if option else name
            problems.append(words(BAD_VALUE, label=declared(label), value=_QUOTE.repr(value),
                                  reason=declared(reason), default=repr(default)))
            continue
        if isinstance(default, float):
            value = float(value)
            if option and round(value, option.decimals) != value:
                # the panel shows option.decimals digits and would save the value rounded
                rounded = round(value, option.decimals)
                problems.append(words(TOO_PRECISE, label=declared(option.label), value=repr(value),
                                      decimals=option.decimals, rounded=repr(rounded)))
                value = rounded
        if isinstance(default, list):
            value = [v for v in value if isinstance(v, str)][: _LIST_LIMITS[(section, name)]]
        setattr(target, name, value)
    return problems


def _plain_problem(value: Any, default: Any) -> str | None:
    """The check of a value with no declaration (paths, window state): its type only."""
    return None if type(value) is type(default) else f"is not a {type(default).__name__}"

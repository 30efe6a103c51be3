"""Draftlight's one typed settings file: JSON under platformdirs' config directory.

Dataclasses give every value a type and a default; `schema_version` lets a later release
migrate an older file. Loading never fails: a missing, damaged or foreign file gives the
defaults (a bad settings file must not stop the app from starting), and each value that is
missing, of the wrong type or out of range falls back to its own default.
"""

from __future__ import annotations

import dataclasses
import json
import logging
import os
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import platformdirs

log = logging.getLogger(__name__)

APP_NAME = "draftlight"
SCHEMA_VERSION = 1
MAX_RECENT_FILES = 10
MAX_LIBRARY_FOLDERS = 100
# backend.engine.events.SpecType, spelled out so that reading settings never loads llama.cpp.
SPEC_TYPES = ("none", "draft", "mtp", "ngram")


@dataclass
class WindowSettings:
    geometry: str = ""  # QWidget.saveGeometry(), base64: opaque to the backend
    splitter: str = ""  # QSplitter.saveState(), base64
    theme: str = "system"  # "system" | "light" | "dark"


@dataclass
class ModelSettings:
    target: str = ""  # last target model path ("" = none remembered)
    draft: str = ""  # last draft model path
    recent: list[str] = field(default_factory=list)  # most recent first
    n_ctx: int = 4096
    n_threads: int = 0  # 0 = let llama.cpp choose
    library_folders: list[str] = field(default_factory=list)  # listed besides the models folder


@dataclass
class GenerationSettings:
    """What the next answer is generated with; none of it needs a model reload."""

    spec_type: str = "none"
    n_draft: int = 8  # K, the most tokens drafted per step
    p_min: float = 0.0
    temperature: float = 0.0
    top_p: float = 0.95
    top_k: int = 40
    seed: int = 0
    max_tokens: int = 512


@dataclass
class Settings:
    schema_version: int = SCHEMA_VERSION
    window: WindowSettings = field(default_factory=WindowSettings)
    models: ModelSettings = field(default_factory=ModelSettings)
    generation: GenerationSettings = field(default_factory=GenerationSettings)

    def remember_model(self, path: str) -> None:
        """Put `path` first in the recent-files list."""
        recent = [p for p in self.models.recent if p != path]
        self.models.recent = [path, *recent][:MAX_RECENT_FILES]


# Ranges a value must fall in; anything outside is replaced by the default, not clamped,
# since an out-of-range value means the file was edited or written by something else.
_RANGES: dict[tuple[str, str], tuple[float, float]] = {
    ("models", "n_ctx"): (128, 1 << 20),
    ("models", "n_threads"): (0, 1024),
    ("generation", "n_draft"): (1, 16),
    ("generation", "p_min"): (0.0, 1.0),
    ("generation", "temperature"): (0.0, 5.0),
    ("generation", "top_p"): (0.0, 1.0),
    ("generation", "top_k"): (0, 100_000),
    ("generation", "seed"): (0, 2**32 - 1),
    ("generation", "max_tokens"): (1, 1 << 20),
}
_CHOICES: dict[tuple[str, str], tuple[str, ...]] = {
    ("window", "theme"): ("system", "light", "dark"),
    ("generation", "spec_type"): SPEC_TYPES,
}

_LIST_LIMITS: dict[tuple[str, str], int] = {
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
        raw = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        return Settings()
    except (OSError, ValueError) as exc:
        log.warning("Ignoring unreadable settings file %s: %s", path, exc)
        return Settings()
    if not isinstance(raw, dict):
        log.warning("Ignoring settings file %s: not a JSON object", path)
        return Settings()
    return settings_from_dict(raw)


def save_settings(settings: Settings, path: Path | None = None) -> None:
    """Write atomically, so a crash mid-write leaves the previous file intact."""
    path = path or default_settings_path()
    path.parent.mkdir(parents=True, exist_ok=True)
    text = json.dumps(dataclasses.asdict(settings), indent=2, sort_keys=True)
    fd, tmp = tempfile.mkstemp(prefix=".settings-", suffix=".json", dir=path.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write(text + "\n")
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


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
        if section.name == "schema_version":
            continue
        values = raw.get(section.name)
        if isinstance(values, dict):
            _fill(section.name, getattr(settings, section.name), values)
    return settings


def _fill(section: str, target: Any, values: dict) -> None:
    for f in dataclasses.fields(target):
        if f.name not in values:
            continue
        value = values[f.name]
        default = getattr(target, f.name)
        if not _same_type(value, default):
            log.warning("Settings: ignoring %s.%s = %r (wrong type)", section, f.name, value)
            continue
        if isinstance(default, float):
            value = float(value)
        if isinstance(default, list):
            value = [v for v in value if isinstance(v, str)][: _LIST_LIMITS[(section, f.name)]]
        bounds = _RANGES.get((section, f.name))
        if bounds and not bounds[0] <= value <= bounds[1]:
            log.warning("Settings: ignoring %s.%s = %r (out of range)", section, f.name, value)
            continue
        choices = _CHOICES.get((section, f.name))
        if choices and value not in choices:
            log.warning("Settings: ignoring %s.%s = %r (unknown)", section, f.name, value)
            continue
        setattr(target, f.name, value)


def _same_type(value: Any, default: Any) -> bool:
    if isinstance(default, bool) or isinstance(value, bool):
        return type(value) is type(default)
    if isinstance(default, float):
        return isinstance(value, int | float)
    return isinstance(value, type(default))

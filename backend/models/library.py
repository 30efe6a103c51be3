"""The local model library: the app's models folder plus any folders the user adds.

The library owns no database: the folders are the truth, and each GGUF is described by
inspecting its header (cached by path, size and modification time, so a rescan is cheap).
Where the extra folders are remembered is the settings' business; they are passed in here.
"""

from __future__ import annotations

import os
import shutil
import sys
import threading
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

import platformdirs

from backend import APP_NAME
from backend.models.inspection import ModelFileError, ModelInspection, inspect_model
from backend.models.naming import split_name
from backend.words import Words, words, words_of

PARTIAL_SUFFIX = ".partial"  # downloads in progress; never listed as models

NOT_A_FOLDER = "{folder} is not a folder."
ALREADY_THERE = "The library already has a file named {name}."
NOT_IN_LIBRARY = "{path} is not in the model library; refusing to delete it."
CANNOT_READ = "Cannot read {name}: {error}."


def default_models_dir() -> Path:
    """Where downloads and imported models go: `<user data dir>/draftlight/models`."""
    return Path(platformdirs.user_data_dir(APP_NAME, appauthor=False)) / "models"


@dataclass(frozen=True)
class LibraryEntry:
    path: Path  # the file to load (the first part of a split model)
    folder: Path  # the library folder it was found in
    inspection: ModelInspection | None  # None when the file is broken
    error: Words | None = None  # what is wrong with it, in words (backend/words.py)

    @property
    def ok(self) -> bool:
        return self.inspection is not None


class Library:
    def __init__(self, models_dir: Path | None = None, extra_folders: Iterable[Path] = ()) -> None:
        self.models_dir = Path(models_dir) if models_dir else default_models_dir()
        self._extra = [Path(f) for f in extra_folders]
        self._cache: dict[Path, tuple[tuple[int, int], LibraryEntry]] = {}
        self._lock = threading.Lock()

    @property
    def folders(self) -> list[Path]:
        return [self.models_dir, *(f for f in self._extra if f != self.models_dir)]

    def add_folder(self, folder: Path) -> None:
        folder = Path(folder).expanduser().resolve()
        if not folder.is_dir():
            raise ModelFileError(words(NOT_A_FOLDER, folder=folder))
        if folder not in self.folders:
            self._extra.append(folder)

    def remove_folder(self, folder: Path) -> None:
        self._extra = [f for f in self._extra if f != Path(folder).expanduser().resolve()]

    def entries(self) -> list[LibraryEntry]:
        """Every model in the library folders, broken ones included (with their error)."""
        found: dict[Path, LibraryEntry] = {}
        for folder in self.folders:
            for path in _gguf_files(folder):
                if path not in found:
                    found[path] = self._entry(path, folder)
        return sorted(found.values(), key=lambda e: e.path.name.lower())

    def models(self) -> list[ModelInspection]:
        return [e.inspection for e in self.entries() if e.inspection is not None]

    def import_file(self, source: Path, *, move: bool = False) -> LibraryEntry:
        """Copy (or move) a GGUF, all parts of a split one, into the models folder. The file
        is validated first, and arrives under a temporary name so that a half-copied model is
        never listed."""
        source = Path(source).expanduser().resolve()
        inspection = inspect_model(source)
        self.models_dir.mkdir(parents=True, exist_ok=True)
        parts = _all_parts(source, inspection.n_parts)
        targets = [self.models_dir / p.name for p in parts]
        if source.parent == self.models_dir.resolve():
            return self._entry(source, self.models_dir)
        for target in targets:
            if target.exists():
                raise ModelFileError(words(ALREADY_THERE, name=target.name))
        for part, target in zip(parts, targets, strict=True):
            temporary = target.with_name(target.name + PARTIAL_SUFFIX)
            if move:
                shutil.move(part, temporary)
            else:
                shutil.copyfile(part, temporary)
            os.replace(temporary, target)
        return self._entry(targets[0], self.models_dir)

    def delete(self, path: Path) -> None:
        """Delete a model (every part of a split one). Only files inside a library folder."""
        path = Path(path).resolve()
        if not any(path.is_relative_to(f.resolve()) for f in self.folders):
            raise ModelFileError(words(NOT_IN_LIBRARY, path=path))
        split = split_name(path.name)
        parts = (
            [path.with_name(split.part(n)) for n in range(1, split.count + 1)] if split else [path]
        )
        for part in parts:
            part.unlink(missing_ok=True)
        with self._lock:
            self._cache.pop(path, None)

    def _entry(self, path: Path, folder: Path) -> LibraryEntry:
        try:
            stat = path.stat()
        except OSError as exc:
            return LibraryEntry(path, folder, None,
                                words(CANNOT_READ, name=path.name, error=exc.strerror))
        stamp = (stat.st_size, stat.st_mtime_ns)
        with self._lock:
            cached = self._cache.get(path)
        if cached and cached[0] == stamp:
            return cached[1]
        try:
            entry = LibraryEntry(path, folder, inspect_model(path))
        except ModelFileError as exc:
            entry = LibraryEntry(path, folder, None, words_of(exc))
        with self._lock:
            self._cache[path] = (stamp, entry)
        return entry


def reveal_command(path: Path, platform: str = sys.platform) -> list[str]:
    """The command that shows `path` in the platform's file manager (the UI runs it)."""
    path = Path(path)
    if platform == "darwin":
        return ["open", "-R", str(path)]
    if platform == "win32":
        return ["explorer", f"/select,{path}"]
    # freedesktop has no portable "select this file"; opening its folder works everywhere.
    return ["xdg-open", str(path.parent)]


def _gguf_files(folder: Path) -> Iterable[Path]:
    """GGUF files under `folder`, with a split model listed once, by its first part."""
    if not folder.is_dir():
        return []
    files = []
    for path in folder.rglob("*.gguf"):
        split = split_name(path.name)
        if path.is_file() and (split is None or split.number == 1):
            files.append(path.resolve())
    return files


def _all_parts(first: Path, n_parts: int) -> list[Path]:
    split = split_name(first.name)
    if n_parts <= 1 or split is None:
        return [first]
    return [first.with_name(split.part(n)) for n in range(1, n_parts + 1)]

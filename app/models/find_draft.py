"""The work behind "Find a draft", run off the GUI thread in two steps: what this computer has
(the target's header and the library's; for a target on the Hub, its header read by Range
requests), then the Hub's drafts of the target's family (backend/models/hub_drafts.py). The
first step's answer is shown while the second runs, so a slow or unreachable Hub never hides
the local candidates.

A cancelled search stops at its next Hub request: the client it is handed refuses every
request once the search is cancelled. Nothing here touches a widget.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, cast

from backend.models.draft_finder import PairFinding, find_pairs
from backend.models.gguf_header import ModelFileError
from backend.models.hub import HubClient, HubModel
from backend.models.hub_drafts import hub_checks, hub_target
from backend.models.inspection import ModelInspection, inspect_model
from backend.models.library import Library
from backend.models.remote_header import inspect_hub_model
from backend.settings import Settings


class Cancelled(Exception):
    """The search was cancelled: its answer would be dropped, so it stops early."""


@dataclass(frozen=True)
class FinderTarget:
    """The model to find a draft for: a file on this computer, or a Hub repository (with a
    file or quantization of it; "" for the one hub_drafts prefers)."""

    path: str = ""
    repo_id: str = ""
    file: str = ""

    @property
    def on_hub(self) -> bool:
        return not self.path

    @property
    def name(self) -> str:
        if self.path:
            return Path(self.path).name
        return f"{self.repo_id}/{self.file}" if self.file else self.repo_id


@dataclass(frozen=True)
class LocalFinding:
    """The first step's answer: every candidate but the Hub's."""

    target: FinderTarget
    inspection: ModelInspection
    library: tuple[ModelInspection, ...]
    finding: PairFinding
    repo_models: tuple[HubModel, ...] = ()  # a Hub target's repository
    target_bytes_read: int | None = None  # a Hub target: the bytes read to describe it


@dataclass(frozen=True)
class HubFinding:
    """The second step's answer: every candidate, and the Hub file behind each Hub one (by
    the candidate's name, "REPO/FILE"), to hand to the downloads."""

    finding: PairFinding
    hub_models: dict[str, HubModel] = field(default_factory=dict)
    bytes_read: int = 0  # the headers read from the Hub, in all


class _Watched:
    """A Hub client that refuses every request once `cancelled` is set."""

    def __init__(self, client: HubClient, cancelled: threading.Event) -> None:
        self._client = client
        self._cancelled = cancelled

    def __getattr__(self, name: str) -> Any:
        if self._cancelled.is_set():
            raise Cancelled
        return getattr(self._client, name)


def watched(client: HubClient, cancelled: threading.Event) -> HubClient:
    return cast(HubClient, _Watched(client, cancelled))


def known_models(library: Library, extra: Iterable[str] = ()) -> list[ModelInspection]:
    """The library's models and the `extra` files (remembered ones, perhaps outside every
    library folder) that can be read; a file that cannot is no candidate."""
    models = {m.path.resolve(): m for m in library.models()}
    for path in extra:
        p = Path(path)
        if p.resolve() not in models and p.is_file():
            try:
                models[p.resolve()] = inspect_model(p)
            except ModelFileError:
                continue
    return list(models.values())


def settings_models(settings: Settings) -> list[ModelInspection]:
    """Called on a pool thread: the library folders and remembered files as the settings name
    them now."""
    m = settings.models
    return known_models(Library(None, [Path(f) for f in m.library_folders]),
                        [*m.recent, m.draft])


def find_local(target: FinderTarget, library_models: Callable[[], list[ModelInspection]],
               client: HubClient, cancelled: threading.Event) -> LocalFinding:
    """The target described and its candidates on this computer (raises ModelFileError or
    HubError, in words, when the target cannot be described)."""
    hub = watched(client, cancelled)
    repo_models: tuple[HubModel, ...] = ()
    read = None
    if target.on_hub:
        model, listing = hub_target(hub, target.repo_id, target.file)
        remote = inspect_hub_model(hub, model)
        inspection, read, repo_models = remote.inspection, remote.bytes_read, tuple(listing)
    else:
        # as the library names it, so that the target is not offered as its own draft
        inspection = inspect_model(Path(target.path).resolve())
    if cancelled.is_set():
        raise Cancelled
    library = tuple(library_models())
    finding = find_pairs(inspection, library, None, read)
    return LocalFinding(target, inspection, library, finding, repo_models, read)


def find_hub(local: LocalFinding, client: HubClient, cancelled: threading.Event) -> HubFinding:
    """Every candidate: the local ones and the Hub's drafts of the target's family, each
    decided from its header. A Hub that cannot be searched is said in `finding.hub_error`."""
    repo_id = local.target.repo_id or None
    hub = hub_checks(watched(client, cancelled), local.inspection, repo_id, local.repo_models)
    finding = find_pairs(local.inspection, local.library, hub, local.target_bytes_read)
    models = {f"{c.model.repo_id}/{c.model.name}": c.model for c in hub.checks}
    return HubFinding(finding, models, sum(c.bytes_read for c in hub.checks))

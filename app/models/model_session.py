"""The models the engine holds and the state machine that loads them, without a widget.

What is loaded, how many loads are still on their way, the draft the person wants back after
a target load released it, the drafts refused for the current target, and which remembered
files can draft for it. The window shows what the signals say; it asks through the methods.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from PySide6.QtCore import QObject, Signal, Slot

from app.engine_link.engine_client import EngineClient
from app.engine_link.worker import default_engine_factory
from app.models.draft_compatibility import DraftCompatibility
from backend.engine.protocol import EngineLike
from backend.models.demo_pair import demo_pair
from backend.models.pairing import remembered_drafts
from backend.serving.target import ServerTarget, is_server_path, remember_key
from backend.settings import Settings


class ModelSession(QObject):
    load_started = Signal(str)  # what is loading, in words for the status bar
    load_progressed = Signal(float)
    load_failed = Signal(str, str)  # role, message
    load_cancelled = Signal(str)  # role
    models_updated = Signal(object, object)  # target, draft (ModelInfo or None), every change
    models_ready = Signal(object, object)  # the same, once no load is pending any more
    target_changed = Signal()  # a new target: verdicts on drafts for the old one are void
    draft_checked = Signal(str, object)  # draft path, why it cannot draft (None: it can)

    def __init__(self, settings: Settings,
                 engine_factory: Callable[[], EngineLike] = default_engine_factory,
                 parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.settings = settings
        self.client = EngineClient(engine_factory, self)
        self._compatibility = DraftCompatibility(self)
        self.target = None
        self.draft = None
        self._pending = 0
        self._failed_drafts: set[str] = set()
        self._opening: dict[str, str] = {}  # path → role, of the loads on their way
        c = self.client
        c.load_progressed.connect(lambda _role, fraction: self.load_progressed.emit(fraction))
        c.load_failed.connect(self._on_load_failed)
        c.load_cancelled.connect(self._on_load_cancelled)
        c.models_changed.connect(self._on_models_changed)
        c.engine_restarted.connect(self._on_engine_restarted)
        self._compatibility.checked.connect(self._on_compatibility_checked)

    @property
    def loading(self) -> bool:
        return self._pending > 0

    # Asking ------------------------------------------------------------------------------

    def open_target(self, path: str, n_ctx: int, n_threads: int) -> None:
        """Load `path` as the target. The settings and the recent list name it once it has
        loaded: a file that fails leaves them, and the models held, as they were."""
        self._opening[path] = "target"
        self._begin(self.tr("Loading {name}…").format(name=Path(path).name))
        self.client.load_target(path, n_ctx, n_threads)

    def open_demo(self, n_ctx: int, n_threads: int) -> None:
        """First run: the shipped model as an F32 target with its Q8_0 copy as the draft,
        made once in the engine process; the draft follows the target's load."""
        target, draft = (str(p) for p in demo_pair())
        self.settings.models.target = target
        self.settings.models.draft = draft
        self.settings.remember_model(target)
        self.settings.remember_model(draft)
        self._begin(self.tr("Preparing the demo models (first run only)…"))
        self.client.load_demo(n_ctx, n_threads)

    def open_server(self, base_url: str, api_key: str, model: str) -> None:
        """Answer with `model` on an OpenAI-compatible server (backend/serving/): a load like
        any other, whose target is the server's model; the key stays in this process."""
        target = ServerTarget(base_url, model)
        remember_key(base_url, api_key)
        self._begin(self.tr("Connecting to {name}…").format(name=target.name))
        self.client.load_target(target.path, 0, 0)

    def open_draft(self, path: str) -> None:
        """Load `path` as the draft model (remembered once it has loaded, as a target is);
        "" unloads the draft."""
        if not path:
            self.settings.models.draft = ""
            self._pending += 1
            self.client.unload_draft()
            return
        self._failed_drafts.discard(path)
        self._opening[path] = "draft"
        self._begin(self.tr("Loading {name}…").format(name=Path(path).name))
        self.client.load_draft(path)

    def cancel_load(self) -> None:
        self.client.cancel_load()

    def draft_candidates(self) -> list[str]:
        return remembered_drafts(self.settings.models.recent, self.target, self.draft)

    def shutdown(self) -> bool:
        self._compatibility.wait()
        return self.client.shutdown()

    def _begin(self, words: str) -> None:
        self._pending += 1
        self.load_started.emit(words)

    # What the engine says ----------------------------------------------------------------

    @Slot(str, str)
    def _on_load_failed(self, role: str, message: str) -> None:
        # The engine has put back what it held before (the next models update says what),
        # and the settings still name it; the file that failed is remembered nowhere.
        failed = [path for path, r in self._opening.items() if r == role]
        for path in failed:
            del self._opening[path]
            if role == "draft":
                self._failed_drafts.add(path)
                self.draft_checked.emit(path, message)
        if role == "draft" and (not failed or self.settings.models.draft in failed):
            # the draft wanted back after a target load, or dropped after a crash: gone
            self.settings.models.draft = ""
        self.load_failed.emit(role, message)

    @Slot(str)
    def _on_load_cancelled(self, role: str) -> None:
        for path in [p for p, r in self._opening.items() if r == role]:
            del self._opening[path]
        self.load_cancelled.emit(role)

    @Slot(object, object)
    def _on_models_changed(self, target, draft) -> None:
        self._pending = max(0, self._pending - 1)
        for info, role in ((target, "target"), (draft, "draft")):
            if info is not None and self._opening.get(info.path) == role:
                del self._opening[info.path]
                setattr(self.settings.models, role, info.path)
                self.settings.remember_model(info.path)
        new_target = (target.path if target else None) != (
            self.target.path if self.target else None)
        self.target, self.draft = target, draft
        if target is not None and new_target:
            self._failed_drafts.clear()  # refusals were about the previous target
            self.target_changed.emit()
            if not is_server_path(target.path):  # a server model has no file to read
                self._compatibility.check(target.path, self.draft_candidates())
        self.models_updated.emit(target, draft)
        wanted = self.settings.models.draft
        if (target is not None and draft is None and wanted and not self.loading
                and wanted != target.path and wanted not in self._failed_drafts
                and not is_server_path(target.path)):  # a server drafts on its own
            self.open_draft(wanted)  # the target's load released the draft: bring it back
        if not self.loading:
            self.models_ready.emit(target, draft)

    @Slot(object, object)
    def _on_engine_restarted(self, target, draft) -> None:
        """The engine process was restarted after a crash with these models (those it left
        out came as failed loads): the same as a load, without a load of ours to count."""
        self._pending += 1
        self._on_models_changed(target, draft)

    @Slot(str, str, object)
    def _on_compatibility_checked(self, target: str, draft: str, reason) -> None:
        if self.target is not None and self.target.path == target:
            self.draft_checked.emit(draft, reason)
